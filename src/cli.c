/* cli.c: the tilesat command line.  Uses only the public header.  Exit
 * codes: 10 satisfiable, 20 unsatisfiable, 0 other success, 1 error. */
#include "tilesat.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_ERROR 1

/* Options: one table gives parsing, per-command validity and help. */
typedef struct options {
  const char *command; /* the command's name */
  const char *size, *topology, *backend, *output, *format, *limit;
  bool periodic, periodic_input, help;
  const char **pins;
  int npins;
  const char **args;
  int nargs;
} options;

enum { OPT_FLAG, OPT_VALUE, OPT_LIST };

typedef struct option_spec {
  const char *name, *metavar;
  int kind;
  size_t offset;
  const char *commands; /* space-separated list, each wrapped in spaces */
  const char *help;
} option_spec;

#define OFF(f) offsetof(options, f)
static const option_spec option_table[] = {
    {"--size", "WxH", OPT_VALUE, OFF(size), " encode check enum ",
     "map size, WIDTHxHEIGHT (1x2: one column, two rows)"},
    {"--topology", "square|hex", OPT_VALUE, OFF(topology),
     " extract encode check enum ",
     "grid topology (map commands: default, the rules file's)"},
    {"--periodic", NULL, OPT_FLAG, OFF(periodic), " encode check enum ",
     "wrap the map around both axes"},
    {"--pin", "ROW,COL=TILE", OPT_LIST, OFF(pins), " encode check enum ",
     "pin a tile to a cell (repeatable)"},
    {"--periodic-input", NULL, OPT_FLAG, OFF(periodic_input), " extract ",
     "samples wrap around both axes"},
    {"--backend", "picosat|cryptominisat", OPT_VALUE, OFF(backend),
     " check enum ", "SAT backend (default picosat)"},
    {"--limit", "N", OPT_VALUE, OFF(limit), " enum ",
     "stop after N maps (default: all)"},
    {"--format", "dimacs|props", OPT_VALUE, OFF(format), " encode ",
     "DIMACS CNF (default) or readable propositions"},
    {"-o", "FILE", OPT_VALUE, OFF(output), " extract encode ",
     "write to FILE instead of standard output"},
    {"--help", NULL, OPT_FLAG, OFF(help), " extract encode check enum ",
     "this help"},
};
#define NOPTIONS (sizeof option_table / sizeof option_table[0])

typedef struct command {
  const char *name, *usage, *summary;
  int (*run)(options *o);
} command;

static int cmd_extract(options *o);
static int cmd_encode(options *o);
static int cmd_check(options *o);
static int cmd_enum(options *o);

static const command commands[] = {
    {"extract", "SAMPLE...",
     "ESTM rules (tiles, weights, allowed pairs) "
     "from sample maps",
     cmd_extract},
    {"encode", "RULES --size WxH",
     "a map as CNF: DIMACS with named variables, or propositions", cmd_encode},
    {"check", "RULES --size WxH",
     "is there a valid map? SAT and a witness (exit 10) or UNSAT (exit 20)",
     cmd_check},
    {"enum", "RULES --size WxH",
     "every valid map, then 'maps: N' (exit 10 if any, 20 if none)", cmd_enum},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("tilesat: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static int fail_err(const tilesat_error *err) {
  fail("%s", err->msg);
  return EXIT_ERROR;
}

static void usage_main(FILE *out) {
  fprintf(out,
          "tilesat %s: a SAT-based model checker for tiled-map rules (WFC / "
          "ESTM)\n\n"
          "usage: tilesat COMMAND [ARGS] [OPTIONS]\n\ncommands:\n",
          TILESAT_VERSION);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\n'tilesat COMMAND --help' lists a command's options.\n"
               "Exit codes: 10 satisfiable, 20 unsatisfiable, 0 other "
               "success, 1 error.\n");
}

static void usage_command(const command *c, FILE *out) {
  fprintf(out, "usage: tilesat %s %s [OPTIONS]\n%s\n\noptions:\n", c->name,
          c->usage, c->summary);
  char key[32];
  snprintf(key, sizeof key, " %s ", c->name);
  for (size_t i = 0; i < NOPTIONS; i++) {
    const option_spec *s = &option_table[i];
    if (!strstr(s->commands, key))
      continue;
    char lhs[64];
    snprintf(lhs, sizeof lhs, "%s%s%s", s->name, s->metavar ? " " : "",
             s->metavar ? s->metavar : "");
    fprintf(out, "  %-34s %s\n", lhs, s->help);
  }
}

/* Parse argv after the command name.  Returns 0 or EXIT_ERROR. */
static int parse_options(const command *c, int argc, char **argv, options *o) {
  char key[32];
  snprintf(key, sizeof key, " %s ", c->name);
  o->pins = calloc((size_t)argc + 1, sizeof *o->pins);
  o->args = calloc((size_t)argc + 1, sizeof *o->args);
  if (!o->pins || !o->args) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  bool only_args = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (only_args || a[0] != '-' || !strcmp(a, "-")) {
      o->args[o->nargs++] = a;
      continue;
    }
    if (!strcmp(a, "--")) {
      only_args = true;
      continue;
    }
    if (!strcmp(a, "-h"))
      a = "--help";
    const char *eq = strchr(a, '=');
    size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
    const option_spec *s = NULL;
    for (size_t k = 0; k < NOPTIONS && !s; k++)
      if (strlen(option_table[k].name) == nlen &&
          !strncmp(option_table[k].name, a, nlen) &&
          strstr(option_table[k].commands, key))
        s = &option_table[k];
    if (!s) {
      fail("unknown option '%.*s' for '%s' (see 'tilesat %s --help')",
           (int)nlen, a, c->name, c->name);
      return EXIT_ERROR;
    }
    char *field = (char *)o + s->offset;
    if (s->kind == OPT_FLAG) {
      if (eq) {
        fail("option '%s' takes no value", s->name);
        return EXIT_ERROR;
      }
      *(bool *)field = true;
      continue;
    }
    const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    if (!val) {
      fail("option '%s' needs a value (%s)", s->name, s->metavar);
      return EXIT_ERROR;
    }
    if (s->kind == OPT_LIST)
      o->pins[o->npins++] = val;
    else
      *(const char **)field = val;
  }
  return 0;
}

/* ---------------------------------------------------------------- helpers */

static FILE *open_output(const options *o) {
  if (!o->output || !strcmp(o->output, "-"))
    return stdout;
  FILE *f = fopen(o->output, "w");
  if (!f)
    fail("%s: cannot open for writing: %s", o->output, strerror(errno));
  return f;
}

static int close_output(const options *o, FILE *f) {
  if (f == stdout)
    return fflush(f) ? EXIT_ERROR : 0;
  if (ferror(f) | fclose(f)) {
    fail("%s: write error", o->output);
    return EXIT_ERROR;
  }
  return 0;
}

/* Read the rules and build the map the options describe. */
static int load_map(options *o, tilesat_rules **rules, tilesat_map **map) {
  tilesat_error err;
  if (o->nargs != 1) {
    fail("%s takes one rules file (see 'tilesat %s --help')", o->command,
         o->command);
    return EXIT_ERROR;
  }
  if (!o->size) {
    fail("%s: missing --size WxH", o->command);
    return EXIT_ERROR;
  }
  int w, h;
  if (tilesat_parse_size(o->size, &w, &h, &err))
    return fail_err(&err);
  *rules = tilesat_rules_read_file(o->args[0], &err);
  if (!*rules)
    return fail_err(&err);
  tilesat_topology topo = tilesat_rules_topology(*rules);
  if (o->topology && tilesat_topology_parse(o->topology, &topo)) {
    fail("--topology: '%s' is not square or hex", o->topology);
    return EXIT_ERROR;
  }
  *map = tilesat_map_new(*rules, w, h, topo, o->periodic, &err);
  if (!*map)
    return fail_err(&err);
  for (int i = 0; i < o->npins; i++)
    if (tilesat_map_pin_spec(*map, o->pins[i], &err))
      return fail_err(&err);
  return 0;
}

static int parse_backend(const options *o, tilesat_backend *b) {
  *b = TILESAT_PICOSAT;
  if (o->backend && tilesat_backend_parse(o->backend, b)) {
    fail("--backend: '%s' is not picosat or cryptominisat", o->backend);
    return EXIT_ERROR;
  }
  return 0;
}

/* --------------------------------------------------------------- commands */

static int cmd_extract(options *o) {
  tilesat_error err;
  if (o->nargs < 1) {
    fail("extract: no sample (see 'tilesat extract --help')");
    return EXIT_ERROR;
  }
  tilesat_topology topo = TILESAT_SQUARE;
  if (o->topology && tilesat_topology_parse(o->topology, &topo)) {
    fail("--topology: '%s' is not square or hex", o->topology);
    return EXIT_ERROR;
  }
  tilesat_grid **g = calloc((size_t)o->nargs, sizeof *g);
  int rc = EXIT_ERROR;
  tilesat_rules *r = NULL;
  if (!g) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int i = 0; i < o->nargs; i++)
    if (!(g[i] = tilesat_grid_read_file(o->args[i], &err))) {
      fail_err(&err);
      goto done;
    }
  r = tilesat_extract((const tilesat_grid *const *)g, (size_t)o->nargs, topo,
                      o->periodic_input, &err);
  if (!r) {
    fail_err(&err);
    goto done;
  }
  FILE *out = open_output(o);
  if (out) {
    tilesat_rules_write(r, out);
    rc = close_output(o, out);
  }
done:
  tilesat_rules_free(r);
  for (int i = 0; i < o->nargs; i++)
    tilesat_grid_free(g[i]);
  free(g);
  return rc;
}

static int cmd_encode(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc) {
    bool props = o->format && !strcmp(o->format, "props");
    if (o->format && !props && strcmp(o->format, "dimacs")) {
      fail("--format: '%s' is not dimacs or props", o->format);
      rc = EXIT_ERROR;
    } else {
      FILE *out = open_output(o);
      rc = EXIT_ERROR;
      if (out) {
        props ? tilesat_encode_props(m, out) : tilesat_encode_dimacs(m, out);
        rc = close_output(o, out);
      }
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

static int cmd_check(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_backend b;
  int *tiles = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &b);
  if (!rc) {
    tilesat_error err;
    size_t n = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
    tiles = malloc(n * sizeof *tiles);
    rc = tiles ? tilesat_check(m, b, tiles, &err) : -1;
    if (rc == TILESAT_SAT) {
      printf("SAT\n");
      tilesat_map_write(m, tiles, stdout);
    } else if (rc == TILESAT_UNSAT) {
      printf("UNSAT\n");
    } else {
      rc = tiles ? fail_err(&err) : EXIT_ERROR;
    }
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

static int print_map(void *user, const int *tiles) {
  const tilesat_map *m = user;
  tilesat_map_write(m, tiles, stdout);
  putchar('\n');
  return 0;
}

static int cmd_enum(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_backend b;
  long long limit = 0;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &b);
  if (!rc && o->limit) {
    char *end;
    errno = 0;
    limit = strtoll(o->limit, &end, 10);
    if (*o->limit < '0' || *o->limit > '9' || *end || errno || limit <= 0) {
      fail("--limit: '%s' is not a positive whole number", o->limit);
      rc = EXIT_ERROR;
    }
  }
  if (!rc) {
    tilesat_error err;
    int64_t n = tilesat_enumerate(m, b, limit, print_map, m, &err);
    if (n < 0) {
      rc = fail_err(&err);
    } else {
      printf("maps: %lld\n", (long long)n);
      rc = n > 0 ? TILESAT_SAT : TILESAT_UNSAT;
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage_main(stderr);
    return EXIT_ERROR;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage_main(stdout);
    return 0;
  }
  if (!strcmp(name, "--version")) {
    printf("tilesat %s\n", TILESAT_VERSION);
    return 0;
  }
  const command *c = NULL;
  for (size_t i = 0; i < NCOMMANDS && !c; i++)
    if (!strcmp(commands[i].name, name))
      c = &commands[i];
  if (!c) {
    fail("unknown command '%s' (see 'tilesat --help')", name);
    return EXIT_ERROR;
  }
  options o = {.command = c->name};
  int rc = parse_options(c, argc - 2, argv + 2, &o);
  if (!rc && o.help) {
    usage_command(c, stdout);
  } else if (!rc) {
    rc = c->run(&o);
    if (fflush(stdout) && !rc) {
      fail("write error on standard output");
      rc = EXIT_ERROR;
    }
  }
  free(o.pins);
  free(o.args);
  return rc;
}
