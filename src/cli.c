/* cli.c: the tilesat command line.  Uses only the public header.  Exit
 * codes: 10 satisfiable, 20 unsatisfiable, 0 other success, 1 error. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Options: one table gives parsing, per-command validity and help. */

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
    {"--size", "WxH", OPT_VALUE, OFF(size),
     " encode check enum count sample explain trace anneal ",
     "map size, WIDTHxHEIGHT (1x2: one column, two rows)"},
    {"--topology", "square|hex", OPT_VALUE, OFF(topology),
     " extract encode check enum count sample explain trace analyze anneal ",
     "grid topology (map commands: default, the rules file's)"},
    {"--periodic", NULL, OPT_FLAG, OFF(periodic),
     " encode check enum count sample explain trace analyze anneal ",
     "wrap the map around both axes"},
    {"--pin", "ROW,COL=TILE", OPT_LIST, OFF(pins),
     " encode check enum count sample explain trace anneal ",
     "pin a tile to a cell (repeatable)"},
    {"--periodic-input", NULL, OPT_FLAG, OFF(periodic_input), " extract ",
     "samples wrap around both axes"},
    {"--backend", "picosat|cryptominisat", OPT_VALUE, OFF(backend),
     " check enum count explain analyze anneal ",
     "SAT backend (default picosat; anneal: of the repair)"},
    {"--method", "auto|dp|enum|approx", OPT_VALUE, OFF(method),
     " count sample ",
     "method (default auto: dp, approx if dp outgrows memory; sample: no "
     "enum)"},
    {"--epsilon", "E", OPT_VALUE, OFF(epsilon), " count sample ",
     "approx: within a factor 1+E of the count (default 0.8); sample: of "
     "uniform (default 6, at least 1.71)"},
    {"--delta", "D", OPT_VALUE, OFF(delta), " count ",
     "approx: with probability at least 1-D (default 0.2)"},
    {"--seed", "S", OPT_VALUE, OFF(seed), " count sample anneal ",
     "random seed (default 1): same seed, same result"},
    {"--max-memory", "SIZE", OPT_VALUE, OFF(max_memory), " count sample ",
     "memory bound of the dp, e.g. 512M, 4G (default 4G)"},
    {"-n", "N", OPT_VALUE, OFF(nsamples), " sample ",
     "number of maps to draw (default 1)"},
    {"--limit", "N", OPT_VALUE, OFF(limit), " enum ",
     "stop after N maps (default: all)"},
    {"--format", "dimacs|props", OPT_VALUE, OFF(format), " encode ",
     "DIMACS CNF (default) or readable propositions"},
    {"-o", "FILE", OPT_VALUE, OFF(output), " extract encode import-tileset ",
     "write to FILE instead of standard output"},
    {"--tile-size", "N", OPT_VALUE, OFF(tile_size), " extract ",
     "image samples: cut into NxN-pixel tiles (default 1: a pixel a tile)"},
    {"--pattern", "N", OPT_VALUE, OFF(pattern), " extract ",
     "image samples: WFC overlapping model, NxN patterns"},
    {"--symmetry", "1..8", OPT_VALUE, OFF(symmetry), " extract ",
     "with --pattern: add rotated/reflected windows (default 1)"},
    {"--palette", "FILE", OPT_VALUE, OFF(palette), " extract ",
     "image samples: tile names for colours/tile images (pictures file)"},
    {"--empty", "tile|exclude", OPT_VALUE, OFF(empty), " extract ",
     "Tiled samples: empty cells are tile \"0\" (default) or left out"},
    {"--layer", "NAME", OPT_VALUE, OFF(layer), " extract ",
     "Tiled samples: the tile layer to read (default: the first)"},
    {"--pictures", "FILE", OPT_VALUE, OFF(pictures), " extract import-tileset ",
     "write the tiles' pictures (default beside -o X.rules: X.pictures)"},
    {"--pictures", "FILE", OPT_VALUE, OFF(pictures),
     " check enum sample explain trace anneal ",
     "draw tiles with these pictures (default: RULES's X.pictures if any)"},
    {"--subset", "NAME", OPT_VALUE, OFF(subset), " import-tileset ",
     "only the tiles of this subset"},
    {"--png", "FILE", OPT_VALUE, OFF(png), " check enum sample anneal ",
     "draw the witness (check) or a contact sheet of the maps"},
    {"--png", "FILE", OPT_VALUE, OFF(png), " explain trace ",
     "draw the map: cells as blends of their possible tiles, the cells "
     "involved (explain) or left empty (trace) framed"},
    {"--tmx", "FILE", OPT_VALUE, OFF(tmx), " check anneal ",
     "write the witness as a Tiled map (XML), with its tileset image"},
    {"--tmj", "FILE", OPT_VALUE, OFF(tmj), " check anneal ",
     "write the witness as a Tiled map (JSON), with its tileset image"},
    {"--tmx", "FILE", OPT_VALUE, OFF(tmx), " enum sample ",
     "write the maps as one Tiled map (XML), a layer each"},
    {"--tmj", "FILE", OPT_VALUE, OFF(tmj), " enum sample ",
     "write the maps as one Tiled map (JSON), a layer each"},
    {"--tilesets-from", "MAP", OPT_VALUE, OFF(tilesets_from),
     " check enum sample anneal ",
     "--tmx/--tmj: use this Tiled map's tilesets (tiles named by gid)"},
    /* explain, trace, analyze */
    {"--choose", "ROW,COL=TILE", OPT_LIST, OFF(chooses), " trace ",
     "after the pins, choose a tile for a cell (repeatable, in order)"},
    {"--max", "N", OPT_VALUE, OFF(max), " analyze ",
     "sizes from 1x1 to NxN (default 8, at most 64)"},
    {"--format", "text|json", OPT_VALUE, OFF(format), " explain trace ",
     "readable text (default) or a JSON document"},
    {"--help", NULL, OPT_FLAG, OFF(help),
     " extract import-tileset encode check enum count sample explain trace "
     "analyze anneal ",
     "this help"},
    /* anneal (cmd_anneal.c) */
    {"--energy", "FILE", OPT_VALUE, OFF(energy), " anneal ",
     "soft terms from an energy file (rules/README.md)"},
    {"--hard-weight", "W", OPT_VALUE, OFF(hard_weight), " anneal ",
     "cost of a disallowed adjacent pair (default: more than any gain)"},
    {"--frequency", "W", OPT_VALUE, OFF(frequency), " anneal ",
     "weight of (n_k - target_k)^2 (targets: rule weights scaled)"},
    {"--coherence", "J", OPT_VALUE, OFF(coherence), " anneal ",
     "-J per adjacent pair of equal tiles (every tile)"},
    {"--palindrome", "W", OPT_VALUE, OFF(palindrome), " anneal ",
     "minus W times the palindrome score of rows and columns"},
    {"--sweeps", "N", OPT_VALUE, OFF(sweeps), " anneal ",
     "sweeps per restart (default 1000)"},
    {"--beta", "LO:HI", OPT_VALUE, OFF(beta), " anneal ",
     "geometric schedule (default: from the energy scale)"},
    {"--restarts", "R", OPT_VALUE, OFF(restarts), " anneal ",
     "independent runs, the best kept (default 1)"},
    {"--replicas", "K", OPT_VALUE, OFF(replicas), " anneal ",
     "replica exchange with K replicas (default 1: off)"},
    {"--qubo-out", "FILE", OPT_VALUE, OFF(qubo_out), " anneal ",
     "also write the energy as a qbsolv .qubo file"},
};
#define NOPTIONS (sizeof option_table / sizeof option_table[0])

typedef struct command {
  const char *name, *usage, *summary;
  int (*run)(options *o);
} command;

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
    {"count", "RULES --size WxH",
     "the number of valid maps, exact or approximate (last line)", cmd_count},
    {"sample", "RULES --size WxH",
     "valid maps drawn uniformly at random (dp: exactly; approx: by XOR "
     "hashing)",
     cmd_sample},
    {"import-tileset", "TILESET.xml",
     "rules from a WFC simple-tiled tileset (oriented tiles, pairs, weights)",
     cmd_import_tileset},
    {"explain", "RULES --size WxH",
     "why no map exists: a minimal set of clashing constraints (exit 20)",
     cmd_explain},
    {"trace", "RULES --size WxH",
     "WFC propagation with reasons; on a contradiction, its chain (20)",
     cmd_trace},
    {"analyze", "RULES",
     "a report on a rule set: border-only and unused tiles, sizes that work",
     cmd_analyze},
    {"anneal", "RULES --size WxH",
     "a low-energy map by annealing soft terms, hard rules repaired by SAT",
     cmd_anneal},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage_main(FILE *out) {
  fprintf(out,
          "tilesat %s: a SAT-based model checker for tiled-map rules (WFC / "
          "ESTM)\n\n"
          "usage: tilesat COMMAND [ARGS] [OPTIONS]\n\ncommands:\n",
          TILESAT_VERSION);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
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
  o->chooses = calloc((size_t)argc + 1, sizeof *o->chooses);
  if (!o->pins || !o->args || !o->chooses) {
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
    if (s->kind == OPT_LIST && s->offset == OFF(chooses))
      o->chooses[o->nchooses++] = val;
    else if (s->kind == OPT_LIST)
      o->pins[o->npins++] = val;
    else
      *(const char **)field = val;
  }
  return 0;
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
  free(o.chooses);
  return rc;
}
