/* cmd_count.c: tilesat count RULES --size WxH: the number of valid maps,
 * exact, or approximate with its (epsilon, delta), as the last line. */
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
    if (tilesat_count(m, &co, &res, &err)) {
      rc = fail_solve(o, &err);
    } else {
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
