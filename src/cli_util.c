/* cli_util.c: what every command shares: errors, outputs, loading a map. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("tilesat: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int fail_err(const tilesat_error *err) {
  fail("%s", err->msg);
  return EXIT_ERROR;
}

FILE *open_output(const options *o) {
  if (!o->output || !strcmp(o->output, "-"))
    return stdout;
  FILE *f = fopen(o->output, "w");
  if (!f)
    fail("%s: cannot open for writing: %s", o->output, strerror(errno));
  return f;
}

int close_output(const options *o, FILE *f) {
  if (f == stdout)
    return fflush(f) ? EXIT_ERROR : 0;
  if (ferror(f) | fclose(f)) {
    fail("%s: write error", o->output);
    return EXIT_ERROR;
  }
  return 0;
}

/* Read the rules and build the map the options describe. */
int load_map(options *o, tilesat_rules **rules, tilesat_map **map) {
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

int parse_backend(const options *o, tilesat_backend *b) {
  *b = TILESAT_PICOSAT;
  if (o->backend && tilesat_backend_parse(o->backend, b)) {
    fail("--backend: '%s' is not picosat or cryptominisat", o->backend);
    return EXIT_ERROR;
  }
  return 0;
}

bool parse_whole(const char *s, long long lo, long long hi, long long *out) {
  if (*s < '0' || *s > '9')
    return false;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}
