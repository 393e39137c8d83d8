/* cmd_check.c: tilesat check RULES --size WxH: SAT and a witness map
 * (exit 10), or UNSAT (exit 20), by --method: auto (windows around the
 * pins, a guarded collapse, then the whole CNF; wfc/portfolio.c), cnf or
 * collapse.  An UNSAT answer from a window says which on stderr. */
#include "cli.h"

#include <stdlib.h>

int cmd_check(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_check_options co;
  tilesat_check_options_init(&co);
  if (o->method) /* one of the table's choices */
    tilesat_check_method_parse(o->method, &co.method);
  co.seed = o->seed;
  int *tiles = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc)
    rc = parse_backend(o, &co.solve);
  if (!rc) {
    lazy_backend(o, m, &co.solve);
    tilesat_error err;
    const tilesat_map_info mi = map_info(m);
    size_t n = (size_t)mi.width * (size_t)mi.height;
    tiles = malloc(n * sizeof *tiles);
    tilesat_solve_stats stats = {0};
    co.solve.stats = &stats;
    tilesat_check_answer how;
    rc = tiles ? tilesat_check_portfolio(m, &co, tiles, &how, &err) : -1;
    if (tiles && how.by == TILESAT_BY_CNF)
      cut_report(o, m, &stats);
    if (rc == TILESAT_SAT) {
      printf("SAT\n");
      if (!o->quiet)
        tilesat_map_write(m, tiles, stdout);
      if (map_outputs(o, m, tiles))
        rc = EXIT_ERROR;
    } else if (rc == TILESAT_UNSAT) {
      if (how.by == TILESAT_BY_WINDOW || how.by == TILESAT_BY_PROPAGATION) {
        char *why = unsat_words(m, &how);
        if (why)
          fail("check: UNSAT: %s; 'tilesat explain' with the same options "
               "says why",
               why);
        free(why);
      }
      printf("UNSAT\n");
      no_map_no_picture(o);
    } else {
      rc = tiles ? fail_solve(o, &err) : EXIT_ERROR;
    }
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
