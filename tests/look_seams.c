/* look_seams.c: the seams' measure (look_seams.h). */
#include "look_seams.h"

#include "wfc/modify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double look_gamma_q(double a, double x) {
  if (x <= 0)
    return 1;
  double lg = lgamma(a);
  if (x < a + 1) { /* the series */
    double sum = 1 / a, term = sum;
    for (int n = 1; n < 10000 && fabs(term) > fabs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return 1 - sum * exp(-x + a * log(x) - lg);
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d; /* Lentz */
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

double look_chi2_p(double x, int df) {
  return look_gamma_q((df > 0 ? df : 1) / 2.0, x / 2);
}

void look_seams_init(look_seams *s, int T, int w, int h, bool periodic,
                     uint64_t seed) {
  memset(s, 0, sizeof *s);
  s->T = T;
  s->w = w;
  s->h = h;
  s->periodic = periodic;
  s->id = malloc((size_t)w * h * sizeof *s->id);
  s->in = malloc((size_t)w * h * sizeof(ts_mod_rect));
  ts_mod_last_blocks(w, h, periodic, false, seed, s->id, s->in);
}

void look_seams_free(look_seams *s) {
  free(s->cnt);
  free(s->id);
  free(s->in);
  memset(s, 0, sizeof *s);
}

/* The pair from cell (y, x) in direction d (0 east, 1 south): 1 a seam, 0
 * a middle, -1 neither (or no neighbour there). */
static int pair_kind(const look_seams *s, int y, int x, int d, int *to) {
  int ny = y + d, nx = x + 1 - d;
  if (ny >= s->h || nx >= s->w) {
    if (!s->periodic)
      return -1;
    ny %= s->h;
    nx %= s->w;
  }
  if (!s->periodic && (y < LOOK_EDGE || x < LOOK_EDGE ||
                       ny >= s->h - LOOK_EDGE || nx >= s->w - LOOK_EDGE))
    return -1;
  int a = y * s->w + x, b = ny * s->w + nx;
  *to = b;
  if (s->id[a] < 0 || s->id[b] < 0)
    return -1;
  if (s->id[a] != s->id[b])
    return 1;
  const ts_mod_rect *r = (const ts_mod_rect *)s->in + a;
  /* the line between the pair's cells, from the block's first: the
   * middle line is n / 2 (its cells n/2 - 1 and n/2) */
  int n = d ? r->hh : r->ww;
  int dim = d ? s->h : s->w;
  int at = ((d ? y - r->y0 : x - r->x0) % dim + dim) % dim + 1;
  return n >= 6 && (at == n / 2 - 1 || at == n / 2 + 1) ? 0 : -1;
}

void look_seams_add(look_seams *s, const int *tiles) {
  size_t K = (size_t)s->T * (size_t)s->T, per = 4 * K;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->cnt = realloc(s->cnt, (size_t)s->cap * per * sizeof *s->cnt);
  }
  int *c = s->cnt + (size_t)s->n * per;
  memset(c, 0, per * sizeof *c);
  long pairs[2] = {0, 0};
  for (int y = 0; y < s->h; y++)
    for (int x = 0; x < s->w; x++)
      for (int d = 0; d < 2; d++) {
        int b, kind = pair_kind(s, y, x, d, &b);
        if (kind < 0)
          continue;
        size_t k =
            (size_t)tiles[y * s->w + x] * (size_t)s->T + (size_t)tiles[b];
        c[((size_t)kind * 2 + (size_t)d) * K + k]++;
        pairs[kind]++;
      }
  s->pairs[0] = pairs[0];
  s->pairs[1] = pairs[1];
  s->n++;
}

/* The test's columns: each direction's pairs with a pooled count of
 * LOOK_RARE or more, then one of the rest per direction.  col[d * K + k]
 * is the column of pair k in direction d; returns the columns. */
static int columns(const look_seams *s, int *col, int *dir_of) {
  size_t K = (size_t)s->T * (size_t)s->T, per = 4 * K;
  int ncol = 0;
  for (int d = 0; d < 2; d++) {
    int rest = -1;
    for (size_t k = 0; k < K; k++) {
      long pooled = 0;
      for (int i = 0; i < s->n; i++) {
        const int *c = s->cnt + (size_t)i * per;
        pooled += c[d * K + k] + c[(2 + d) * K + k];
      }
      if (pooled == 0)
        col[d * K + k] = -1;
      else if (pooled >= LOOK_RARE) {
        dir_of[ncol] = d;
        col[d * K + k] = ncol++;
      } else {
        if (rest < 0) {
          dir_of[ncol] = d;
          rest = ncol++;
        }
        col[d * K + k] = rest;
      }
    }
  }
  return ncol;
}

/* The statistic for signs eps (NULL: all +1): sum over columns of the
 * maps' summed difference of proportions, squared, over the pooled
 * proportion, times c[dir]: Pearson's chi-square of homogeneity when
 * every map has as many seam (and middle) pairs. */
static double stat(const double *diff, const double *pbar, const double *c,
                   const int *dir_of, int n, int ncol, const signed char *eps,
                   double *sum) {
  memset(sum, 0, (size_t)ncol * sizeof *sum);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < ncol; j++)
      sum[j] += (eps ? eps[i] : 1) * diff[(size_t)i * ncol + j];
  double x = 0;
  for (int j = 0; j < ncol; j++)
    if (pbar[j] > 0)
      x += c[dir_of[j]] * sum[j] * sum[j] / pbar[j];
  return x;
}

static uint64_t mix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Each map's seam proportions less its middle ones by column, direction
 * by direction (diff[i * ncol + j]); the pooled proportions pbar[j]; the
 * scale c[dir] (seams times middles over all pairs, over maps squared). */
static void differences(const look_seams *s, const int *col, const int *dir_of,
                        int ncol, double *diff, double *pbar, double *c) {
  size_t K = (size_t)s->T * (size_t)s->T, per = 4 * K;
  double *h = calloc(2 * (size_t)ncol, sizeof *h), tot[2][2] = {{0}};
  memset(pbar, 0, (size_t)ncol * sizeof *pbar);
  for (int i = 0; i < s->n; i++) {
    const int *cnt = s->cnt + (size_t)i * per;
    double n[2][2] = {{0}}; /* [kind][dir] */
    memset(h, 0, 2 * (size_t)ncol * sizeof *h);
    for (int kind = 0; kind < 2; kind++)
      for (int d = 0; d < 2; d++)
        for (size_t k = 0; k < K; k++) {
          int j = col[d * K + k], v = cnt[((size_t)kind * 2 + d) * K + k];
          if (j >= 0 && v) {
            h[kind * ncol + j] += v;
            n[kind][d] += v;
            pbar[j] += v;
          }
        }
    for (int j = 0; j < ncol; j++) {
      int d = dir_of[j];
      diff[(size_t)i * ncol + j] = (n[1][d] > 0 ? h[ncol + j] / n[1][d] : 0) -
                                   (n[0][d] > 0 ? h[j] / n[0][d] : 0);
    }
    for (int kind = 0; kind < 2; kind++)
      for (int d = 0; d < 2; d++)
        tot[kind][d] += n[kind][d];
  }
  for (int j = 0; j < ncol; j++) {
    int d = dir_of[j];
    pbar[j] /= tot[0][d] + tot[1][d];
  }
  for (int d = 0; d < 2; d++) {
    double all = tot[0][d] + tot[1][d];
    c[d] = all > 0 ? tot[0][d] * tot[1][d] / all / ((double)s->n * s->n) : 0;
  }
  free(h);
}

look_result look_seams_test(const look_seams *s, int perms, uint64_t seed) {
  size_t K = (size_t)s->T * (size_t)s->T;
  int *col = malloc(2 * K * sizeof *col), *dir_of = malloc(2 * K * sizeof *col);
  int ncol = columns(s, col, dir_of), n = s->n;
  double *diff = malloc(((size_t)n * ncol + 1) * sizeof *diff);
  double *pbar = malloc(((size_t)ncol + 1) * sizeof *pbar), c[2];
  double *sum = malloc(((size_t)ncol + 1) * sizeof *sum);
  signed char *eps = malloc((size_t)n + 1);
  differences(s, col, dir_of, ncol, diff, pbar, c);
  look_result res = {.perms = perms};
  res.stat = stat(diff, pbar, c, dir_of, n, ncol, NULL, sum);
  int cols[2] = {0, 0};
  for (int j = 0; j < ncol; j++)
    cols[dir_of[j]]++;
  res.df = (cols[0] > 1 ? cols[0] - 1 : 0) + (cols[1] > 1 ? cols[1] - 1 : 0);
  res.p_pairs = look_chi2_p(res.stat, res.df);
  uint64_t x = seed ^ 0x6c6f6f6bu;
  long ge = 0;
  for (int b = 0; b < perms; b++) {
    for (int i = 0; i < n; i++) /* map i's seams and middles swapped */
      eps[i] = mix(&x) >> 63 ? -1 : 1;
    ge += stat(diff, pbar, c, dir_of, n, ncol, eps, sum) >= res.stat;
  }
  res.p = (1.0 + (double)ge) / (1.0 + perms);
  free(col);
  free(dir_of);
  free(diff);
  free(pbar);
  free(sum);
  free(eps);
  return res;
}

typedef struct contrib {
  double x2, seam, expect;
  int d;
  size_t k;
} contrib;

static int by_x2(const void *a, const void *b) {
  double x = ((const contrib *)a)->x2, y = ((const contrib *)b)->x2;
  return (x < y) - (x > y);
}

void look_seams_top(const look_seams *s, const tilesat_rules *r, int n,
                    FILE *out) {
  size_t K = (size_t)s->T * (size_t)s->T, per = 4 * K;
  contrib *v = calloc(2 * K, sizeof *v);
  double ns[2] = {0, 0}, nn[2] = {0, 0};
  for (int d = 0; d < 2; d++)
    for (size_t k = 0; k < K; k++) {
      contrib *c = &v[d * K + k];
      c->d = d;
      c->k = k;
      for (int i = 0; i < s->n; i++) {
        const int *h = s->cnt + (size_t)i * per;
        c->seam += h[(2 + d) * K + k];
        c->expect += h[d * K + k] + h[(2 + d) * K + k]; /* pooled, for now */
      }
      ns[d] += c->seam;
      nn[d] += c->expect;
    }
  for (size_t j = 0; j < 2 * K; j++) {
    contrib *c = &v[j];
    double q = ns[c->d] / nn[c->d], tot = c->expect;
    c->expect = tot * q;
    c->x2 = tot >= LOOK_RARE && q > 0 && q < 1
                ? (c->seam - c->expect) * (c->seam - c->expect) / tot *
                      (1 / q + 1 / (1 - q))
                : 0;
  }
  qsort(v, 2 * K, sizeof *v, by_x2);
  for (int i = 0; i < n && v[i].x2 > 0; i++)
    fprintf(out,
            "  %s \"%s\" | \"%s\": %.0f across seams, %.1f expected "
            "(chi2 %.1f)\n",
            v[i].d ? "south" : "east",
            tilesat_rules_tile_name(r, (int)(v[i].k / (size_t)s->T)),
            tilesat_rules_tile_name(r, (int)(v[i].k % (size_t)s->T)), v[i].seam,
            v[i].expect, v[i].x2);
  free(v);
}

/* Pooled histogram of kind's pairs of the maps whose bit in `in_a` is set
 * (a's maps first, then b's), Pearson's chi-square against the others. */
static double two_sample(const int *const *maps, int na, int nb, size_t K,
                         int kind, const bool *in_a, double *h) {
  double x = 0;
  memset(h, 0, 4 * K * sizeof *h);
  for (int i = 0; i < na + nb; i++)
    for (int d = 0; d < 2; d++)
      for (size_t k = 0; k < K; k++)
        h[((in_a[i] ? 0 : 2) + (size_t)d) * K + k] +=
            maps[i][((size_t)kind * 2 + d) * K + k];
  for (int d = 0; d < 2; d++) {
    const double *ha = h + (size_t)d * K, *hb = h + (2 + (size_t)d) * K;
    double na_ = 0, nb_ = 0;
    for (size_t k = 0; k < K; k++) {
      na_ += ha[k];
      nb_ += hb[k];
    }
    double q = na_ / (na_ + nb_);
    for (size_t k = 0; k < K; k++) {
      double tot = ha[k] + hb[k];
      if (tot >= LOOK_RARE && q > 0 && q < 1)
        x +=
            (ha[k] - tot * q) * (ha[k] - tot * q) / tot * (1 / q + 1 / (1 - q));
    }
  }
  return x;
}

look_result look_seams_versus(const look_seams *a, const look_seams *b,
                              int kind, int perms, uint64_t seed) {
  size_t K = (size_t)a->T * (size_t)a->T, per = 4 * K;
  int n = a->n + b->n;
  const int **maps = malloc((size_t)n * sizeof *maps);
  bool *in_a = malloc((size_t)n * sizeof *in_a);
  double *h = malloc(4 * K * sizeof *h);
  for (int i = 0; i < n; i++) {
    maps[i] =
        i < a->n ? a->cnt + (size_t)i * per : b->cnt + (size_t)(i - a->n) * per;
    in_a[i] = i < a->n;
  }
  look_result res = {.perms = perms};
  res.stat = two_sample(maps, a->n, b->n, K, kind, in_a, h);
  uint64_t x = seed ^ 0x7673u;
  long ge = 0;
  for (int p = 0; p < perms; p++) {
    for (int i = n - 1; i > 0; i--) { /* a shuffle of the groups */
      int j = (int)(mix(&x) % (uint64_t)(i + 1));
      bool t = in_a[i];
      in_a[i] = in_a[j];
      in_a[j] = t;
    }
    ge += two_sample(maps, a->n, b->n, K, kind, in_a, h) >= res.stat;
  }
  res.p = (1.0 + (double)ge) / (1.0 + perms);
  free(maps);
  free(in_a);
  free(h);
  return res;
}
