/* bench-look.c: does collapse --guard modify keep WFC's look (issue 32)?
 *
 *   bench-look RULES WxH[:periodic] MAPS REF [TRIES]
 *
 * Makes MAPS maps by --guard modify (seeds 1..MAPS) and MAPS reference
 * maps by REF: plain (WFC's successful runs, seeds 1.. until MAPS
 * succeeded or TRIES runs were made, default 100 * MAPS), sat or blocks
 * (--guard sat or blocks, seeds 1..MAPS).  Prints one line:
 *
 *   shares: the largest difference of a tile's mean share (over the
 *     maps) between modify and REF, in percentage points, the tile, and
 *     the smallest p-value of Welch's two-sample test of a tile's share
 *     per map (the map is the unit: cells of a map are not independent),
 *     times the tiles (Bonferroni);
 *   seams: tests/look_seams.h's test, pairs across the seams of the
 *     blocks that made each cell last against the pairs beside the
 *     blocks' middle lines, maps as units (a permutation test, LOOK_PERMS
 *     swaps, default 9999): the chi-square, its degrees of freedom, the
 *     permutation's p and the chi-square's own (pairs as independent:
 *     anti-conservative), for modify's maps and, as a control, for REF's
 *     (which have no blocks).
 *
 * LOOK_TOP=N: then the N pairs that add most to modify's statistic (seam
 * count against its expectation); LOOK_SIDES=1: modify's seam pairs and
 * its middle pairs each against REF's pairs at those places (maps shuffled
 * between the two kinds, 999 times); LOOK_CONTROLS=N: N more sets of
 * MAPS reference maps (the seeds after), each tested as modify's are: the
 * instrument's p-values where there are no seams.
 *
 * Times are CPU seconds of this thread for all maps of a kind. */
#include "../tests/look_seams.h"
#include "tilesat.h"
#include "wfc/modify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One kind of maps: every map's shares (share[map * T + tile]), pairs. */
typedef struct kind {
  double *share;
  int maps;
  long runs;
  look_seams pr;
  double secs;
} kind;

static int make(tilesat_collapse *c, tilesat_guard g, int maps, long tries,
                uint64_t seed0, int w, int h, int T, kind *k) {
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = g;
  tilesat_error err;
  double t0 = cpu();
  for (uint64_t s = seed0; k->maps < maps && (long)(s - seed0) < tries; s++) {
    o.seed = s;
    k->runs++;
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    if (res < 0) {
      fprintf(stderr, "bench-look: %s\n", err.msg);
      free(tiles);
      return 1;
    }
    if (res != TILESAT_SAT)
      continue;
    double *sh = k->share + (size_t)k->maps * (size_t)T;
    for (int i = 0; i < w * h; i++)
      sh[tiles[i]] += 1.0 / (w * h);
    look_seams_add(&k->pr, tiles);
    k->maps++;
  }
  k->secs = cpu() - t0;
  free(tiles);
  return 0;
}

static void mean_var(const kind *k, int T, int t, double *m, double *v) {
  double s = 0, ss = 0;
  for (int i = 0; i < k->maps; i++) {
    double x = k->share[(size_t)i * (size_t)T + (size_t)t];
    s += x;
    ss += x * x;
  }
  *m = s / k->maps;
  *v = k->maps > 1 ? (ss - s * s / k->maps) / (k->maps - 1) : 0;
}

static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  return v && *v ? atoi(v) : dflt;
}

static void report(const tilesat_rules *r, const char *name, const char *size,
                   const char *ref, const kind *mod, const kind *rk) {
  int T = tilesat_rules_ntiles(r), worst = 0;
  double most = 0, pmin = 1;
  for (int t = 0; t < T; t++) {
    double m1, v1, m2, v2;
    mean_var(mod, T, t, &m1, &v1);
    mean_var(rk, T, t, &m2, &v2);
    double se = sqrt(v1 / mod->maps + v2 / rk->maps);
    double p = se > 0 ? erfc(fabs(m1 - m2) / se / sqrt(2)) : m1 == m2 ? 1 : 0;
    if (fabs(m1 - m2) > most) {
      most = fabs(m1 - m2);
      worst = t;
    }
    pmin = p < pmin ? p : pmin;
  }
  int perms = env_int("LOOK_PERMS", 9999);
  look_result a = look_seams_test(&mod->pr, perms, 1),
              b = look_seams_test(&rk->pr, perms, 1);
  printf("%s %s | modify %d maps %.2f s | %s %d/%ld maps %.2f s | "
         "shares: max diff %.2f points (%s), Welch p %.3g (x%d tiles) | "
         "seams (%ld seam, %ld middle pairs a map): modify chi2 %.1f df %d "
         "p %.3g (pairs as independent: %.3g), %s chi2 %.1f p %.3g (%.3g)\n",
         name, size, mod->maps, mod->secs, ref, rk->maps, rk->runs, rk->secs,
         100 * most, tilesat_rules_tile_name(r, worst),
         pmin * T < 1 ? pmin * T : 1, T, mod->pr.pairs[1], mod->pr.pairs[0],
         a.stat, a.df, a.p, a.p_pairs, ref, b.stat, b.p, b.p_pairs);
  if (env_int("LOOK_SIDES", 0)) {
    look_result sv = look_seams_versus(&mod->pr, &rk->pr, 1, 999, 2),
                mv = look_seams_versus(&mod->pr, &rk->pr, 0, 999, 2);
    printf(" against %s's pairs there: modify's seams chi2 %.1f p %.3g, its "
           "middles chi2 %.1f p %.3g\n",
           ref, sv.stat, sv.p, mv.stat, mv.p);
  }
  int top = env_int("LOOK_TOP", 0);
  if (top > 0) {
    printf(" modify's seams, the pairs that add most:\n");
    look_seams_top(&mod->pr, r, top, stdout);
  }
}

/* LOOK_CONTROLS more sets of the reference's maps (seeds after those
 * used), each tested as modify's are: the instrument's p on maps that have
 * no seams. */
static int controls(tilesat_collapse *c, tilesat_guard g, int maps, long tries,
                    uint64_t seed, int w, int h, bool periodic, int T) {
  int sets = env_int("LOOK_CONTROLS", 0), low = 0;
  if (sets <= 0)
    return 0;
  printf(" control sets of %d reference maps, seams p:", maps);
  for (int j = 0; j < sets; j++) {
    kind k = {.share = calloc((size_t)maps * (size_t)T, sizeof(double))};
    look_seams_init(&k.pr, T, w, h, periodic, 1);
    if (make(c, g, maps, tries, seed, w, h, T, &k)) {
      free(k.share);
      look_seams_free(&k.pr);
      return 1;
    }
    seed += (uint64_t)k.runs;
    look_result res = look_seams_test(&k.pr, env_int("LOOK_PERMS", 9999), 1);
    low += res.p < 0.01;
    printf(" %.3g", res.p);
    fflush(stdout);
    free(k.share);
    look_seams_free(&k.pr);
  }
  printf(" (%d of %d under 0.01)\n", low, sets);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: bench-look RULES WxH[:periodic] MAPS "
                    "plain|sat|blocks [TRIES]\n");
    return 1;
  }
  char size[64];
  snprintf(size, sizeof size, "%s", argv[2]);
  char *colon = strchr(size, ':');
  bool periodic = colon && !strcmp(colon + 1, "periodic");
  if (colon)
    *colon = 0;
  int maps = atoi(argv[3]), w, h;
  long tries = argc == 6 ? atol(argv[5]) : 100L * maps;
  tilesat_guard g = TILESAT_GUARD_NONE;
  if (strcmp(argv[4], "plain") && tilesat_guard_parse(argv[4], &g)) {
    fprintf(stderr, "bench-look: unknown reference '%s'\n", argv[4]);
    return 1;
  }
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(argv[1], &err);
  tilesat_map *m = NULL;
  if (r && !tilesat_parse_size(size, &w, &h, &err))
    m = tilesat_map_new(r, w, h, tilesat_rules_topology(r), periodic, &err);
  tilesat_collapse *c = m ? tilesat_collapse_new(m, &err) : NULL;
  if (!c || maps < 2) {
    fprintf(stderr, "bench-look: %s\n", c ? "MAPS: at least 2" : err.msg);
    return 1;
  }
  int T = tilesat_rules_ntiles(r);
  kind k[2];
  for (int i = 0; i < 2; i++) {
    memset(&k[i], 0, sizeof k[i]);
    k[i].share = calloc((size_t)maps * (size_t)T, sizeof(double));
    look_seams_init(&k[i].pr, T, w, h, periodic, 1);
  }
  int rc = make(c, TILESAT_GUARD_MODIFY, maps, maps, 1, w, h, T, &k[0]);
  if (!rc)
    rc = make(c, g, maps, g ? maps : tries, 1, w, h, T, &k[1]);
  if (!rc && k[1].maps < 2) {
    fprintf(stderr, "bench-look: %s made %d maps in %ld runs\n", argv[4],
            k[1].maps, k[1].runs);
    rc = 1;
  }
  if (!rc)
    report(r, argv[1], argv[2], argv[4], &k[0], &k[1]);
  if (!rc)
    rc = controls(c, g, maps, g ? maps : tries, 1 + (uint64_t)k[1].runs, w, h,
                  periodic, T);
  for (int i = 0; i < 2; i++) {
    free(k[i].share);
    look_seams_free(&k[i].pr);
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
