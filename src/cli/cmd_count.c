/* cmd_count.c: tilesat count RULES --size WxH: the number of valid maps,
 * exact, approximate with its (epsilon, delta), or between proved bounds,
 * as the last line; with --part K/N, the exact count of one part after a
 * line naming it. */
#include "cli.h"

#include <math.h>
#include <string.h>

/* Bounds this short are printed whole. */
#define WHOLE_DIGITS 30

/* x rounded to a tenth, down or up, never to the wrong side of x (the
 * margin covers the error of x itself). */
static double tenth(double x, bool up) {
  return up ? ceil((x + 1e-9) * 10) / 10 : floor((x - 1e-9) * 10) / 10;
}

/* A bound as 10^x.y (and 2^x.y, with `both`), rounded away from the
 * count; whole when short. */
static void numeral(char *out, size_t len, const char *dec, double log2v,
                    bool up, bool both) {
  if (!strcmp(dec, "0"))
    snprintf(out, len, "0");
  else if (strlen(dec) <= WHOLE_DIGITS && !both)
    snprintf(out, len, "%s", dec);
  else if (strlen(dec) <= WHOLE_DIGITS)
    snprintf(out, len, "%s (10^%.1f, 2^%.1f)", dec,
             tenth(log2v * log10(2.0), up), tenth(log2v, up));
  else if (both)
    snprintf(out, len, "10^%.1f (2^%.1f)", tenth(log2v * log10(2.0), up),
             tenth(log2v, up));
  else
    snprintf(out, len, "10^%.1f", tenth(log2v * log10(2.0), up));
}

/* Decimals that show a half width (of a log) to two significant digits,
 * so that a narrow error bar is not printed as +- 0.0, which reads as
 * exact: at least 1, at most 6. */
static int decimals(double half) {
  int d = 1;
  while (d < 6 && half > 0 && half < 10 * pow(10.0, -d))
    d++;
  return d;
}

/* "estimate 10^L +- H (95%); 2^L2 +- H2, within a factor of F either
 * way" (under 1.1: "within P% either way"): the count in both bases, each to
 * two significant digits of its error bar, then the error bar as a factor, so
 * that an estimate cannot be taken for an exact count. */
static void print_estimate(double l10, double half) {
  double l2 = l10 / log10(2.0), h2 = half / log10(2.0);
  if (l10 == -INFINITY) {
    printf("estimate 0 (every particle died: no valid map found)\n");
    return;
  }
  int d10 = decimals(half), d2 = decimals(h2);
  printf("estimate 10^%.*f +- %.*f (95%%); 2^%.*f +- %.*f", d10, l10, d10, half,
         d2, l2, d2, h2);
  double factor = pow(10.0, half);
  if (half > 0 && factor < 1.1)
    printf(", within %.2g%% either way (an estimate, not exact)\n",
           100 * (factor - 1));
  else if (half > 0)
    printf(", within a factor of %.3g either way (an estimate, not exact)\n",
           factor);
  else
    printf(" (an estimate, not exact: its particles all agreed)\n");
}

static void print_bounds(const tilesat_count_result *res) {
  char lo[96], hi[96];
  numeral(lo, sizeof lo, res->lower, res->lower_log2, false, true);
  numeral(hi, sizeof hi, res->upper, res->upper_log2, true, true);
  printf("lower: %s: %s\nupper: %s: %s\n", lo, res->lower_why, hi,
         res->upper_why);
  numeral(lo, sizeof lo, res->lower, res->lower_log2, false, false);
  numeral(hi, sizeof hi, res->upper, res->upper_log2, true, false);
  printf("between %s and %s", lo, hi);
  if (strlen(res->upper) > WHOLE_DIGITS && strcmp(res->lower, "0"))
    printf(" (2^%.1f and 2^%.1f)", tenth(res->lower_log2, false),
           tenth(res->upper_log2, true));
  if (res->estimated && res->estimate_log10 == -INFINITY)
    printf("; no estimate (every particle died: no map found)");
  else if (res->estimated)
    printf("; estimate 10^%.*f +- %.*f (95%%)",
           decimals(res->estimate_halfwidth), res->estimate_log10,
           decimals(res->estimate_halfwidth), res->estimate_halfwidth);
  printf("\n");
}

/* --by-tile: "K N" for each K some map has, then the total. */
static int count_by_tile(options *o, const tilesat_map *m,
                         const tilesat_count_options *co) {
  tilesat_error err;
  tilesat_count_result res;
  char **dist;
  if (tilesat_count_by_tile(m, o->by_tile, co, &res, &dist, &err))
    return fail_solve(o, &err);
  const tilesat_map_info mi = map_info(m);
  int cells = mi.width * mi.height;
  for (int k = 0; k <= cells; k++)
    if (strcmp(dist[k], "0"))
      printf("%d %s\n", k, dist[k]);
  printf("%s\n", res.count);
  tilesat_count_by_tile_free(m, dist);
  tilesat_count_result_free(&res);
  return 0;
}

int cmd_count(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  count_progress pr = {0};
  int rc = counting_setup(o, &r, &m, &co, &pr);
  if (!rc && co.method == TILESAT_METHOD_CHAIN) {
    fail("--method: count takes auto, dp, enum, approx, bounds or estimate");
    rc = EXIT_ERROR;
  }
  if (!rc) {
    tilesat_error err;
    tilesat_count_result res;
    int k = 0, n = 0;
    if (o->part && o->by_tile) {
      fail("--by-tile: counts the whole map, not a --part");
      rc = EXIT_ERROR;
    } else if (o->by_tile) {
      rc = count_by_tile(o, m, &co);
    } else if (o->part && parse_part(o, &k, &n)) {
      rc = EXIT_ERROR;
    } else if (k ? tilesat_count_part(m, k, n, &co, &res, &err)
                 : tilesat_count(m, &co, &res, &err)) {
      rc = fail_solve(o, &err);
    } else {
      if (k && res.count) { /* for tilesat sum (a part's count is exact) */
        char id[17];
        tilesat_map_fingerprint(m, id);
        printf(PART_LINE "\n", k, n, id, part_check(k, n, id, res.count));
      }
      if (res.approximate)
        printf("approx: %s (epsilon %g, delta %g)\n", res.count, co.epsilon,
               co.delta);
      else if (res.count)
        printf("%s\n", res.count);
      else if (res.lower)
        print_bounds(&res);
      else
        print_estimate(res.estimate_log10, res.estimate_halfwidth);
      tilesat_count_result_free(&res);
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
