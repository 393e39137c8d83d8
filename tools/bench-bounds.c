/* bench-bounds.c: count's proved bounds beyond the exact dp, side by side.
 * usage: bench-bounds SECONDS NAME RULES WxH [NAME RULES WxH ...]
 * Each map gets `count --method bounds` with a budget of SECONDS (the
 * default of auto is 20); a row says the strips' width, both bounds in
 * log10, the gap and its share of log10 of the count (at most gap / log10
 * lower), the CPU time, and why the gap is what it is: a cut costs the
 * entropy that crosses it, so the gap over the cut lines of both bounds,
 * in columns of entropy (a column's log10 is the growth of a strip's count
 * from k-1 to k lines, counted here by the dp). */
#include "tilesat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* log10 of the count of a free strip k lines across (columns: k x H), by
 * the dp. */
static double strip_log10(const tilesat_rules *r, int k, int len,
                          bool columns) {
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, columns ? k : len, columns ? len : k,
                                   tilesat_rules_topology(r), false, &err);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  tilesat_count_result res;
  double l = NAN;
  if (m && !tilesat_count(m, &o, &res, &err)) {
    char lead[16] = {0}; /* the leading digits and the length */
    memcpy(lead, res.count, strlen(res.count) < 15 ? strlen(res.count) : 15);
    l = log10(strtod(lead, NULL)) + (double)(strlen(res.count) - strlen(lead));
    tilesat_count_result_free(&res);
  }
  tilesat_map_free(m);
  return l;
}

/* How many cut lines a bound's description names. */
static int cuts(const char *why) {
  int n = 0;
  const char *p = strstr(why, "across ");
  if (p && sscanf(p, "across %d cut", &n) == 1)
    return n;
  p = strstr(why, "with ");
  if (p && sscanf(p, "with %d cut", &n) == 1)
    return n;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5 || (argc - 2) % 3)
    return 1;
  double seconds = atof(argv[1]);
  printf("| map | strips | lower | upper | gap | gap / log10 count | lower "
         "bound by | CPU | cut lines | a column | gap a cut |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
         "|\n");
  for (int i = 2; i + 2 < argc; i += 3) {
    tilesat_error err;
    int w, h;
    tilesat_rules *r = tilesat_rules_read_file(argv[i + 1], &err);
    if (!r || tilesat_parse_size(argv[i + 2], &w, &h, &err)) {
      fprintf(stderr, "bench-bounds: %s\n", err.msg);
      return 1;
    }
    tilesat_map *m =
        tilesat_map_new(r, w, h, tilesat_rules_topology(r), false, &err);
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_BOUNDS;
    o.bounds_seconds = seconds;
    tilesat_count_result res;
    double t0 = cpu();
    if (!m || tilesat_count(m, &o, &res, &err)) {
      printf("| %s %s | - | - | - | - | - | %s | | | | |\n", argv[i],
             argv[i + 2], err.msg);
      continue;
    }
    double t = cpu() - t0;
    double lo = res.lower_log2 * log10(2.0), hi = res.upper_log2 * log10(2.0);
    int k = 0;
    const char *p = strstr(res.upper_why, "at most ");
    if (p)
      sscanf(p, "at most %d", &k);
    bool columns = strstr(res.upper_why, "column") != NULL;
    int len = columns ? h : w;
    double col = k > 1 ? strip_log10(r, k, len, columns) -
                             strip_log10(r, k - 1, len, columns)
                       : NAN;
    int ncut = cuts(res.upper_why) + cuts(res.lower_why);
    const char *by = strstr(res.lower_why, "reflection") ? "reflection"
                     : strstr(res.lower_why, "cut")      ? "cut lines"
                                                         : "-";
    printf("| %s %s | %d %s | 10^%.1f | 10^%.1f | %.1f | %.1f%% | %s | %.1f "
           "s | %d | 10^%.2f | %.1f columns |\n",
           argv[i], argv[i + 2], k, columns ? "columns" : "rows", lo, hi,
           hi - lo, 100 * (hi - lo) / lo, by, t, ncut, col,
           ncut ? (hi - lo) / ncut / col : 0);
    fflush(stdout);
    tilesat_count_result_free(&res);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}
