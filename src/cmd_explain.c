/* cmd_explain.c: explain, trace and analyze: why maps fail to collapse. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --png: each cell a blend of the tiles still possible there (every tile,
 * or what `t` leaves), cells in `mark` framed.  Returns 0 or EXIT_ERROR. */
static int draw(options *o, const tilesat_map *m, const tilesat_trace *t,
                const bool *mark) {
  if (!o->png)
    return 0;
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  int T = tilesat_rules_ntiles(tilesat_map_rules(m)), words = (T + 63) / 64;
  uint64_t *dom = calloc((size_t)w * (size_t)h * (size_t)words, sizeof *dom);
  if (!dom) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int c = 0; c < w * h; c++)
    for (int k = 0; k < T; k++)
      if (!t || tilesat_trace_possible(t, c / w, c % w, k))
        dom[(size_t)c * (size_t)words + (size_t)(k / 64)] |= (uint64_t)1
                                                             << (k % 64);
  int rc = domains_png(o, m, dom, mark);
  free(dom);
  return rc;
}

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
      const int *cells;
      size_t n = tilesat_explanation_cells(e, &cells);
      size_t ncells =
          (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
      bool *mark = calloc(ncells, sizeof *mark);
      for (size_t i = 0; mark && i < n; i++)
        mark[cells[i]] = true;
      if (draw(o, m, NULL, mark))
        rc = EXIT_ERROR;
      free(mark);
    } else {
      rc = fail_err(&err);
    }
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
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
  for (int i = 0; i < o->nchooses && !rc; i++) {
    tilesat_error err;
    if (tilesat_map_parse_cell(m, o->chooses[i], "--choose", &choice[3 * i],
                               &choice[3 * i + 1], &choice[3 * i + 2], &err))
      rc = fail_err(&err);
  }
  if (!rc) {
    tilesat_trace *t = tilesat_trace_new(m);
    for (int i = 0; i < o->nchooses; i++)
      if (tilesat_trace_choose(t, choice[3 * i], choice[3 * i + 1],
                               choice[3 * i + 2]))
        break;
    json ? tilesat_trace_write_json(t, stdout) : tilesat_trace_write(t, stdout);
    int status = tilesat_trace_status(t);
    rc = status == TILESAT_UNKNOWN ? 0 : status;
    /* framed: the cells left with no tile */
    int w = tilesat_map_width(m), h = tilesat_map_height(m);
    int T = tilesat_rules_ntiles(r);
    bool *empty = calloc((size_t)w * (size_t)h, sizeof *empty);
    for (int c = 0; empty && c < w * h; c++) {
      empty[c] = true;
      for (int k = 0; k < T && empty[c]; k++)
        empty[c] = !tilesat_trace_possible(t, c / w, c % w, k);
    }
    if (draw(o, m, t, empty))
      rc = EXIT_ERROR;
    free(empty);
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
  long long max = 8;
  if (o->max && !parse_whole(o->max, 1, 64, &max)) {
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
    tilesat_analysis *a =
        tilesat_analyze(r, (int)max, topo, o->periodic, b, &err);
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
