/* cmd_check.c: tilesat check RULES --size WxH: SAT and a witness map
 * (exit 10), or UNSAT (exit 20). */
#include "cli.h"

#include <stdlib.h>

int cmd_check(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_solve_options so;
  int *tiles = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc)
    rc = parse_backend(o, &so);
  if (!rc) {
    lazy_backend(o, m, &so);
    tilesat_error err;
    size_t n = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
    tiles = malloc(n * sizeof *tiles);
    tilesat_solve_stats stats = {0};
    so.stats = &stats;
    rc = tiles ? tilesat_check(m, &so, tiles, &err) : -1;
    cut_report(o, m, &stats);
    if (rc == TILESAT_SAT) {
      printf("SAT\n");
      tilesat_map_write(m, tiles, stdout);
      if (map_outputs(o, m, tiles))
        rc = EXIT_ERROR;
    } else if (rc == TILESAT_UNSAT) {
      printf("UNSAT\n");
    } else {
      rc = tiles ? fail_solve(o, &err) : EXIT_ERROR;
    }
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
