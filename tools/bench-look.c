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
 *   seams: the chi-square test of homogeneity of neighbour pairs (east
 *     and south, by tiles) whose two cells lie in different blocks of
 *     modify's last layer against pairs inside its blocks (wfc/modify.h:
 *     MOD_P, ts_mod_layer_offset; columns whose expected seam count is under
 *     5 pooled): statistic, degrees of freedom, p, for modify's maps and,
 *     as a control, for REF's maps (which have no blocks).
 *
 * Times are CPU seconds of this thread for all maps of a kind. */
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

/* The regularized upper incomplete gamma Q(a, x) (series below a + 1,
 * Lentz's continued fraction above), for chi-square's p = Q(df/2, x/2). */
static double gamma_q(double a, double x) {
  if (x <= 0)
    return 1;
  double lg = lgamma(a);
  if (x < a + 1) {
    double sum = 1 / a, term = sum;
    for (int n = 1; n < 10000 && fabs(term) > fabs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return 1 - sum * exp(-x + a * log(x) - lg);
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int i = 1; i < 10000; i++) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = fabs(d) < 1e-300 ? 1e-300 : d;
    c = b + an / c;
    c = fabs(c) < 1e-300 ? 1e-300 : c;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < 1e-15)
      break;
  }
  return exp(-x + a * log(x) - lg) * h;
}

/* Pair counts: seam[k] and in[k], k = (dir * T + a) * T + b. */
typedef struct pairs {
  int T;
  double *seam, *in;
} pairs;

/* Adds a w x h map's east and south pairs (wrapping when periodic). */
static void pairs_add(pairs *p, const int *tiles, int w, int h, bool periodic) {
  int oy, ox, T = p->T;
  ts_mod_layer_offset(MOD_LAYERS - 1, MOD_P, false, &oy, &ox);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int d = 0; d < 2; d++) {
        int ny = y + d, nx = x + 1 - d;
        if (periodic) {
          ny %= h;
          nx %= w;
        } else if (ny >= h || nx >= w)
          continue;
        /* the pair crosses a seam when its second cell starts a block */
        int at = ((d ? y + 1 - oy : x + 1 - ox) % MOD_P + MOD_P) % MOD_P;
        if (at != 0 && at != MOD_P / 2)
          continue;
        bool seam = at == 0;
        size_t k =
            ((size_t)d * (size_t)T + (size_t)tiles[y * w + x]) * (size_t)T +
            (size_t)tiles[ny * w + nx];
        (seam ? p->seam : p->in)[k]++;
      }
}

/* Chi-square homogeneity of seam against inside, direction by direction
 * (their lines are not as many on an open map), the statistics and
 * degrees of freedom summed: p, *stat and *df. */
static double pairs_p(const pairs *p, double *stat, int *df) {
  size_t K = (size_t)p->T * (size_t)p->T;
  double x2 = 0;
  int dfs = 0;
  for (int d = 0; d < 2; d++) {
    const double *seam = p->seam + d * K, *in = p->in + d * K;
    double S = 0, I = 0, ps = 0, pi = 0;
    for (size_t k = 0; k < K; k++) {
      S += seam[k];
      I += in[k];
    }
    int cols = 0;
    for (size_t k = 0; k <= K && S > 0 && I > 0; k++) {
      double s = k < K ? seam[k] : ps, i = k < K ? in[k] : pi;
      if (s + i == 0)
        continue;
      if (k < K && (s + i) * S / (S + I) < 5) {
        ps += s;
        pi += i;
        continue;
      }
      double es = (s + i) * S / (S + I), ei = (s + i) * I / (S + I);
      x2 += (s - es) * (s - es) / es + (i - ei) * (i - ei) / ei;
      cols++;
    }
    dfs += cols > 1 ? cols - 1 : 0;
  }
  *stat = x2;
  *df = dfs > 0 ? dfs : 1;
  return gamma_q(*df / 2.0, x2 / 2);
}

/* One kind of maps: every map's shares (share[map * T + tile]), pairs. */
typedef struct kind {
  double *share;
  int maps;
  long runs;
  pairs pr;
  double secs;
} kind;

static int make(tilesat_collapse *c, tilesat_guard g, int maps, long tries,
                int w, int h, bool periodic, int T, kind *k) {
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = g;
  tilesat_error err;
  double t0 = cpu();
  for (uint64_t s = 1; k->maps < maps && (long)s <= tries; s++) {
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
    pairs_add(&k->pr, tiles, w, h, periodic);
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
  double x1, x2;
  int d1, d2;
  double p1 = pairs_p(&mod->pr, &x1, &d1), p2 = pairs_p(&rk->pr, &x2, &d2);
  printf("%s %s | modify %d maps %.2f s | %s %d/%ld maps %.2f s | "
         "shares: max diff %.2f points (%s), Welch p %.3g (x%d tiles) | "
         "seams: modify chi2 %.1f df %d p %.3g, %s chi2 %.1f df %d p %.3g\n",
         name, size, mod->maps, mod->secs, ref, rk->maps, rk->runs, rk->secs,
         100 * most, tilesat_rules_tile_name(r, worst),
         pmin * T < 1 ? pmin * T : 1, T, x1, d1, p1, ref, x2, d2, p2);
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
  size_t K = 2 * (size_t)T * (size_t)T;
  kind k[2];
  for (int i = 0; i < 2; i++) {
    memset(&k[i], 0, sizeof k[i]);
    k[i].share = calloc((size_t)maps * (size_t)T, sizeof(double));
    k[i].pr = (pairs){T, calloc(K, sizeof(double)), calloc(K, sizeof(double))};
  }
  int rc = make(c, TILESAT_GUARD_MODIFY, maps, maps, w, h, periodic, T, &k[0]);
  if (!rc)
    rc = make(c, g, maps, g ? maps : tries, w, h, periodic, T, &k[1]);
  if (!rc && k[1].maps < 2) {
    fprintf(stderr, "bench-look: %s made %d maps in %ld runs\n", argv[4],
            k[1].maps, k[1].runs);
    rc = 1;
  }
  if (!rc)
    report(r, argv[1], argv[2], argv[4], &k[0], &k[1]);
  for (int i = 0; i < 2; i++) {
    free(k[i].share);
    free(k[i].pr.seam);
    free(k[i].pr.in);
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
