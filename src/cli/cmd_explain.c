/* cmd_explain.c: tilesat explain RULES --size WxH: why no map exists, a
 * minimal set of clashing constraints (exit 20), or SAT (exit 10). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The cells the explanation names, framed in --png. */
static int draw_cells(options *o, const tilesat_map *m,
                      const tilesat_explanation *e) {
  const int *cells;
  size_t n = tilesat_explanation_cells(e, &cells);
  size_t ncells = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
  bool *mark = calloc(ncells, sizeof *mark);
  for (size_t i = 0; mark && i < n; i++)
    mark[cells[i]] = true;
  int rc = domains_png(o, m, NULL, NULL, mark);
  free(mark);
  return rc;
}

int cmd_explain(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_solve_options so;
  bool json = o->format && !strcmp(o->format, "json");
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &so);
  if (!rc) {
    lazy_backend(o, m, &so);
    tilesat_error err;
    tilesat_explanation *e = NULL;
    rc = tilesat_explain(m, &so, &e, &err);
    if (rc == TILESAT_SAT) {
      if (json)
        tilesat_explain_write_sat_json(m, stdout);
      else
        printf("SAT: a valid %dx%d map exists, nothing to explain (see "
               "'tilesat check').\n",
               tilesat_map_width(m), tilesat_map_height(m));
    } else if (rc == TILESAT_UNSAT) {
      stop_hold(); /* the explanation whole */
      json ? tilesat_explanation_write_json(e, stdout)
           : tilesat_explanation_write(e, stdout);
      stop_release();
      if (draw_cells(o, m, e))
        rc = EXIT_ERROR;
    } else {
      rc = fail_solve(o, &err);
    }
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
