/* bench-chain.c: sampling and counting beyond the exact dp (issue 14,
 * items 2 and 3's estimate), timed in-process, CPU time of this process.
 *
 *   bench-chain chain RULES WxH N SWEEPS_MEASURED
 *       the block chain's defaults (burn-in 4, a map every 2 sweeps,
 *       strips 3 cells thick): CPU time of the start (to the first
 *       sweep's first block), of SWEEPS_MEASURED sweeps, and the time N maps take (measured when
 *       SWEEPS_MEASURED is 0, else extrapolated from the sweeps); then
 *       where a sweep's time goes: one strip of the map drawn by the dp
 *       (tilesat_sample, tiles) and counted by it (tilesat_count, classes)
 *   bench-chain estimate RULES WxH [RULES WxH ...]
 *       count --method estimate at its defaults: the estimate, its half
 *       width as a share of log10 of the count, and CPU time
 *   bench-chain calibrate SEEDS RULES WxH[p] [PIN] ...
 *       how many of SEEDS estimates hold the dp's count in their interval
 *       (WxHp: periodic; PIN: ROW,COL=TILE or -) */
#include "count/count.h" /* ts_dp_sample_ordered: the chain's strips */
#include "tilesat.h"
#include "tilesat_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the calling thread: with the chain's blocks drawn on 2
 * threads, about its wall time on 2 free cores. */
static double thread_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char chain_line[512];
static void on_notice(void *user, const char *line) {
  (void)user;
  if (!strncmp(line, "chain:", 6))
    snprintf(chain_line, sizeof chain_line, "%s", line);
}

/* RULES: a rules file, or a WFC tileset (.xml) imported whole. */
static tilesat_rules *load(const char *path) {
  tilesat_error err;
  size_t n = strlen(path);
  tilesat_rules *r = n > 4 && !strcmp(path + n - 4, ".xml")
                         ? tilesat_import_tileset(path, NULL, NULL, &err)
                         : tilesat_rules_read_file(path, &err);
  if (!r)
    fprintf(stderr, "bench-chain: %s\n", err.msg);
  return r;
}

static tilesat_map *map_of(const tilesat_rules *r, const char *size,
                           const char *pin) {
  tilesat_error err;
  int w, h;
  char s[32];
  snprintf(s, sizeof s, "%s", size);
  bool periodic = s[strlen(s) - 1] == 'p';
  if (periodic)
    s[strlen(s) - 1] = 0;
  if (tilesat_parse_size(s, &w, &h, &err))
    return NULL;
  tilesat_map *m =
      tilesat_map_new(r, w, h, tilesat_rules_topology(r), periodic, &err);
  if (m && pin && strcmp(pin, "-") && tilesat_map_pin_spec(m, pin, &err)) {
    fprintf(stderr, "bench-chain: %s\n", err.msg);
    tilesat_map_free(m);
    return NULL;
  }
  return m;
}

/* One strip of `rows` rows and `len` columns (from the first) of the
 * chain's last map at row r0, its neighbours above, below and on its
 * right as bans (none past the map's edge), drawn by the dp as the chain
 * draws it (across the strip, no order probe) and counted
 * (tilesat_count). */
static void strip_cost(const tilesat_rules *r, const int *tiles, int w, int h,
                       int r0, int len, int rows, const char *where) {
  tilesat_error err;
  int T = tilesat_rules_ntiles(r);
  tilesat_map *strip =
      tilesat_map_new(r, len, rows, tilesat_rules_topology(r), false, &err);
  for (int i = 0; i < rows && len < w; i++) /* the piece on its right */
    for (int t = 0; t < T; t++)
      if (!tilesat_rules_allows(r, t, 1, tiles[(r0 + i) * w + len]))
        tilesat_map_ban(strip, i, len - 1, t, NULL);
  for (int j = 0; j < len; j++)
    for (int t = 0; t < T; t++) {
      /* square rules: N is 0, S is 2 */
      if (r0 > 0 && !tilesat_rules_allows(r, t, 0, tiles[(r0 - 1) * w + j]))
        tilesat_map_ban(strip, 0, j, t, NULL);
      if (r0 + rows < h &&
          !tilesat_rules_allows(r, t, 2, tiles[(r0 + rows) * w + j]))
        tilesat_map_ban(strip, rows - 1, j, t, NULL);
    }
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  double t0 = cpu();
  int got = ts_dp_sample_ordered(strip, &o, TS_DP_COLUMNS, 1, NULL, NULL, &err);
  double ts = cpu() - t0;
  t0 = cpu();
  tilesat_count_result res;
  int rc = tilesat_count(strip, &o, &res, &err);
  double tc = cpu() - t0;
  printf("  a %dx%d strip %s: dp sample %.3f s%s, dp count %.3f s (%s)\n", len,
         rows, where, ts, got == 1 ? "" : " (failed)", tc,
         rc ? err.msg : "counted");
  if (!rc)
    tilesat_count_result_free(&res);
  tilesat_map_free(strip);
}

/* CPU time when the first sweep began (its first block done): the
 * start's. */
static double first_sweep = -1;
static void on_progress(void *user, const char *line) {
  (void)user;
  if (first_sweep < 0 && !strncmp(line, "chain: sweep 1 of", 17))
    first_sweep = cpu();
}

/* The chain's last map. */
static int *last_map;
static size_t last_cells;
static int keep_map(void *user, const int *tiles) {
  (void)user;
  memcpy(last_map, tiles, last_cells * sizeof *tiles);
  return 0;
}

static int chain(const char *rules, const char *size, int n, int sweeps) {
  tilesat_rules *r = load(rules);
  tilesat_map *m = r ? map_of(r, size, NULL) : NULL;
  if (!m)
    return 1;
  tilesat_error err;
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_CHAIN;
  o.notice = on_notice;
  o.progress = on_progress;
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  int w = mi.width, h = mi.height;
  long total = o.burn_in + (long)n * o.sweeps;
  if (sweeps > 0) {
    o.burn_in = 0;
    o.sweeps = sweeps;
    n = 1;
  }
  first_sweep = -1;
  last_cells = (size_t)w * (size_t)h;
  last_map = malloc(last_cells * sizeof *last_map);
  double t0 = cpu(), th0 = thread_cpu(), w0 = wall();
  int got = tilesat_sample(m, &o, n, keep_map, NULL, &err);
  double t = cpu() - t0, start = first_sweep - t0;
  double th = thread_cpu() - th0, wl = wall() - w0;
  if (got < 0) {
    printf("%s %s: %s\n", rules, size, err.msg);
    return 1;
  }
  double per = (t - start) / (sweeps > 0 ? sweeps : (double)total);
  double scale = sweeps > 0 ? (start + per * (double)total) / t : 1;
  printf("%s %s: start %.2f s; %.2f s a sweep; %d maps (%ld sweeps) %s "
         "%.1f s of CPU, %.1f s of it on the calling thread (wall %.1f s on "
         "this machine as loaded)\n  %s\n",
         rules, size, start, per, sweeps > 0 ? 10 : n, total,
         sweeps > 0 ? "extrapolated:" : "measured:", t * scale, th * scale,
         wl * scale, chain_line);
  int len = w < 64 ? w : 64; /* the chain's strips */
  strip_cost(r, last_map, w, h, h / 2, len, 3,
             "in mid-map, bans above and below");
  strip_cost(r, last_map, w, h, 0, len, 3, "on the map's edge, bans below");
  free(last_map);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return 0;
}

static int estimate(int argc, char **argv) {
  printf("%-44s %-8s | %-22s %8s %8s\n", "rules", "size", "estimate", "share",
         "cpu");
  for (int i = 0; i + 1 < argc; i += 2) {
    tilesat_rules *r = load(argv[i]);
    tilesat_map *m = r ? map_of(r, argv[i + 1], NULL) : NULL;
    if (!m)
      return 1;
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_ESTIMATE;
    tilesat_count_result res;
    tilesat_error err;
    double t0 = cpu();
    int rc = tilesat_count(m, &o, &res, &err);
    double t = cpu() - t0;
    if (rc)
      printf("%-44s %-8s | %s\n", argv[i], argv[i + 1], err.msg);
    else
      printf("%-44s %-8s | 10^%-10.1f +- %-6.1f %7.2f%% %7.1fs\n", argv[i],
             argv[i + 1], res.estimate_log10, res.estimate_halfwidth,
             100 * res.estimate_halfwidth / res.estimate_log10, t);
    fflush(stdout);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}

static int calibrate(int seeds, int argc, char **argv) {
  for (int i = 0; i + 2 < argc; i += 3) {
    tilesat_rules *r = load(argv[i]);
    tilesat_map *m = r ? map_of(r, argv[i + 1], argv[i + 2]) : NULL;
    if (!m)
      return 1;
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    tilesat_count_result res;
    tilesat_error err;
    if (tilesat_count(m, &o, &res, &err)) {
      printf("%s %s: dp: %s\n", argv[i], argv[i + 1], err.msg);
      return 1;
    }
    size_t digits = strlen(res.count);
    char head[17] = {0};
    memcpy(head, res.count, digits < 16 ? digits : 16);
    double exact =
        log10(atof(head)) + (double)(digits > 16 ? digits - 16 : 0);
    tilesat_count_result_free(&res);
    int inside = 0;
    double t0 = cpu(), widest = 0;
    for (int s = 1; s <= seeds; s++) {
      o.method = TILESAT_METHOD_ESTIMATE;
      o.seed = (uint64_t)s;
      if (tilesat_count(m, &o, &res, &err))
        return 1;
      inside += fabs(res.estimate_log10 - exact) <= res.estimate_halfwidth;
      widest = fmax(widest, res.estimate_halfwidth);
    }
    printf("%-44s %-8s %-14s exact 10^%-9.3f %2d of %d within, widest +- "
           "%.3f, %.2f s a run\n",
           argv[i], argv[i + 1], argv[i + 2], exact, inside, seeds, widest,
           (cpu() - t0) / seeds);
    fflush(stdout);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 6 && !strcmp(argv[1], "chain"))
    return chain(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
  if (argc >= 4 && !strcmp(argv[1], "estimate"))
    return estimate(argc - 2, argv + 2);
  if (argc >= 6 && !strcmp(argv[1], "calibrate"))
    return calibrate(atoi(argv[2]), argc - 3, argv + 3);
  fprintf(stderr, "usage: see tools/bench-chain.c\n");
  return 1;
}
