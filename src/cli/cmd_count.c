/* cmd_count.c: tilesat count RULES --size WxH: the number of valid maps,
 * exact, or approximate with its (epsilon, delta), as the last line; with
 * --part K/N, the exact count of one part after a line naming it. */
#include "cli.h"

int cmd_count(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  count_progress pr = {0};
  int rc = counting_setup(o, &r, &m, &co, &pr);
  if (!rc) {
    tilesat_error err;
    tilesat_count_result res;
    int k = 0, n = 0;
    if (o->part && parse_part(o, &k, &n)) {
      rc = EXIT_ERROR;
    } else if (k ? tilesat_count_part(m, k, n, &co, &res, &err)
                 : tilesat_count(m, &co, &res, &err)) {
      rc = fail_solve(o, &err);
    } else {
      if (k) { /* for tilesat sum */
        char id[17];
        tilesat_map_fingerprint(m, id);
        printf(PART_LINE "\n", k, n, id);
      }
      if (res.approximate)
        printf("approx: %s (epsilon %g, delta %g)\n", res.count, co.epsilon,
               co.delta);
      else
        printf("%s\n", res.count);
      tilesat_count_result_free(&res);
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
