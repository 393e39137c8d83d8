/* cmd_count.c: tilesat count RULES --size WxH: the number of valid maps,
 * exact, or approximate with its (epsilon, delta), as the last line. */
#include "cli.h"

#include <math.h>

/* "estimate 10^L +- H (95%); 2^L2 +- H2": the count in both bases. */
static void print_estimate(double l10, double half) {
  double l2 = l10 / log10(2.0), h2 = half / log10(2.0);
  if (l10 == -INFINITY)
    printf("estimate 0 (every particle died: no valid map found)\n");
  else
    printf("estimate 10^%.1f +- %.1f (95%%); 2^%.1f +- %.1f\n", l10, half, l2,
           h2);
}

int cmd_count(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  count_progress pr = {0};
  int rc = counting_setup(o, &r, &m, &co, &pr);
  if (!rc && co.method == TILESAT_METHOD_CHAIN) {
    fail("--method: count takes auto, dp, enum, approx or estimate");
    rc = EXIT_ERROR;
  }
  if (!rc) {
    tilesat_error err;
    tilesat_count_result res;
    if (tilesat_count(m, &co, &res, &err)) {
      rc = fail_solve(o, &err);
    } else {
      if (res.estimated)
        print_estimate(res.log10, res.half_width);
      else if (res.approximate)
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
