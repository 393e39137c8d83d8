/* cmd_explain.c: explain, trace and analyze: why maps fail to collapse. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --format text|json; *json set.  Returns 0 or EXIT_ERROR. */
static int parse_format(const options *o, bool *json) {
  *json = false;
  if (!o->format || !strcmp(o->format, "text"))
    return 0;
  if (!strcmp(o->format, "json")) {
    *json = true;
    return 0;
  }
  fail("--format: '%s' is not text or json", o->format);
  return EXIT_ERROR;
}

int cmd_explain(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_backend b;
  bool json;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &b);
  if (!rc)
    rc = parse_format(o, &json);
  if (!rc) {
    tilesat_error err;
    tilesat_explanation *e = NULL;
    rc = tilesat_explain(m, b, &e, &err);
    if (rc == TILESAT_SAT) {
      if (json)
        tilesat_explain_write_sat_json(m, stdout);
      else
        printf("SAT: a valid %dx%d map exists, nothing to explain (see "
               "'tilesat check').\n",
               tilesat_map_width(m), tilesat_map_height(m));
    } else if (rc == TILESAT_UNSAT) {
      json ? tilesat_explanation_write_json(e, stdout)
           : tilesat_explanation_write(e, stdout);
    } else {
      rc = fail_err(&err);
    }
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

/* A whole number in [0, INT_MAX]; *end after its digits. */
static bool parse_nat(const char *s, const char **end, int *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *e;
  long v = strtol(s, &e, 10);
  if (errno == ERANGE || v > INT_MAX)
    return false;
  *out = (int)v;
  *end = e;
  return true;
}

/* "ROW,COL=TILE" on the map; returns 0 or EXIT_ERROR. */
static int parse_choice(const tilesat_map *m, const char *spec, int *row,
                        int *col, int *tile) {
  const char *p;
  if (!parse_nat(spec, &p, row) || *p != ',' || !parse_nat(p + 1, &p, col) ||
      *p != '=' || !p[1]) {
    fail("--choose: '%s' is not ROW,COL=TILE", spec);
    return EXIT_ERROR;
  }
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  if (*row >= h || *col >= w) {
    fail("--choose: cell (%d,%d) is outside the %dx%d map", *row, *col, w, h);
    return EXIT_ERROR;
  }
  *tile = tilesat_rules_find_tile(tilesat_map_rules(m), p + 1);
  if (*tile < 0) {
    fail("--choose: unknown tile '%s'", p + 1);
    return EXIT_ERROR;
  }
  return 0;
}

int cmd_trace(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  bool json;
  int *choice = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_format(o, &json);
  if (!rc) {
    choice = calloc(3 * (size_t)o->nchooses + 1, sizeof *choice);
    if (!choice) {
      fail("out of memory");
      rc = EXIT_ERROR;
    }
  }
  for (int i = 0; i < o->nchooses && !rc; i++)
    rc = parse_choice(m, o->chooses[i], &choice[3 * i], &choice[3 * i + 1],
                      &choice[3 * i + 2]);
  if (!rc) {
    tilesat_trace *t = tilesat_trace_new(m);
    for (int i = 0; i < o->nchooses; i++)
      if (tilesat_trace_choose(t, choice[3 * i], choice[3 * i + 1],
                               choice[3 * i + 2]))
        break;
    json ? tilesat_trace_write_json(t, stdout) : tilesat_trace_write(t, stdout);
    int status = tilesat_trace_status(t);
    rc = status == TILESAT_UNKNOWN ? 0 : status;
    tilesat_trace_free(t);
  }
  free(choice);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

int cmd_analyze(options *o) {
  tilesat_error err;
  tilesat_backend b;
  if (o->nargs != 1) {
    fail("analyze takes one rules file (see 'tilesat analyze --help')");
    return EXIT_ERROR;
  }
  int max = 8;
  const char *end;
  if (o->max &&
      (!parse_nat(o->max, &end, &max) || *end || max < 1 || max > 64)) {
    fail("--max: '%s' is not a whole number from 1 to 64", o->max);
    return EXIT_ERROR;
  }
  if (parse_backend(o, &b))
    return EXIT_ERROR;
  tilesat_rules *r = tilesat_rules_read_file(o->args[0], &err);
  if (!r)
    return fail_err(&err);
  tilesat_topology topo = tilesat_rules_topology(r);
  int rc = 0;
  if (o->topology && tilesat_topology_parse(o->topology, &topo)) {
    fail("--topology: '%s' is not square or hex", o->topology);
    rc = EXIT_ERROR;
  }
  if (!rc) {
    tilesat_analysis *a = tilesat_analyze(r, max, topo, o->periodic, b, &err);
    if (!a) {
      rc = fail_err(&err);
    } else {
      tilesat_analysis_write(a, stdout);
      tilesat_analysis_free(a);
    }
  }
  tilesat_rules_free(r);
  return rc;
}
