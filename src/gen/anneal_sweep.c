/* anneal_sweep.c: the annealer's sweeps: heat-bath moves, the fast kernel
 * of factor tables (AVX2 where the machine has it) and swaps.  See
 * anneal.c. */
#include "gen/anneal_internal.h"

/* -------------------------------------------------------------- moves */

/* Minus the line-score change of rows and columns through cell c if it
 * held each tile t, relative to holding tile 0 (only differences matter). */
static void add_line_terms(const ts_anneal_tables *tb, ts_anneal_state *st,
                           int c, float *loc) {
  const tilesat_map *m = tb->m;
  int row = c / m->width, col = c % m->width, *buf = st->line;
  float w = (float)tb->e->palindrome;
  for (int x = 0; x < m->width; x++)
    buf[x] = st->tile[row * m->width + x];
  for (int t = 0; t < tb->T; t++) {
    buf[col] = t;
    loc[t] -= w * (float)tilesat_palindrome_score(buf, m->width);
  }
  for (int y = 0; y < m->height; y++)
    buf[y] = st->tile[y * m->width + col];
  for (int t = 0; t < tb->T; t++) {
    buf[row] = t;
    loc[t] -= w * (float)tilesat_palindrome_score(buf, m->height);
  }
}

/* The local energy vector of cell c (soft and hard, frequency included);
 * nd and Tp are constants in the specialised sweeps below, so the compiler
 * unrolls and vectorises these loops. */
static inline __attribute__((always_inline)) void
local_energies(const ts_anneal_tables *tb, ts_anneal_state *st, int c,
               const int nd, const int Tp, float *restrict loc) {
  const int T1 = tb->T + 1;
  const int32_t *nb = tb->nbr + (size_t)c * nd;
  const float *b = tb->bias + (size_t)tb->e->region[c] * Tp;
  const float *fq = st->fq;
  const float *rows[6];
  for (int d = 0; d < nd; d++)
    rows[d] = tb->pair + ((size_t)d * T1 + st->tile[nb[d]]) * Tp;
  /* 4 floats at a time (GCC/Clang vector extension; rows are 32-byte
   * aligned and Tp is a multiple of 8) */
  for (int t = 0; t < Tp; t += 4) {
    v4sf x = *(const v4sf *)(b + t) + *(const v4sf *)(fq + t);
    for (int d = 0; d < nd; d++)
      x += *(const v4sf *)(rows[d] + t);
    *(v4sf *)(loc + t) = x;
  }
  loc[st->tile[c]] -= 2 * tb->wf;
  if (tb->line)
    add_line_terms(tb, st, c, loc);
}

/* Change cell c to tile t (bookkeeping: counts, fq, violations). */
static inline void set_tile(const ts_anneal_tables *tb, ts_anneal_state *st,
                            int c, int t, const int nd) {
  int old = st->tile[c];
  const int32_t *nb = tb->nbr + (size_t)c * nd;
  const int T = tb->T, T1 = T + 1;
  long dv = tb->selfviol[t] - tb->selfviol[old];
  for (int d = 0; d < nd; d++) {
    const uint8_t *v = tb->viol + ((size_t)d * T1 + st->tile[nb[d]]) * T;
    dv += v[t] - v[old];
  }
  st->V += dv;
  st->count[old]--;
  st->count[t]++;
  st->fq[old] -= 2 * tb->wf;
  st->fq[t] += 2 * tb->wf;
  st->tile[c] = (uint16_t)t;
}

#define SEARCH_BUDGET 32 /* cells a split's searches visit when hot */

/* One heat-bath update of cell c at inverse temperature beta * EXP_SCALE.
 * The padding tiles T..Tp-1 have a huge bias, so their weight is 0. */
static inline __attribute__((always_inline)) void
heat_bath(const ts_anneal_tables *tb, ts_anneal_state *st, int c, float bs,
          const int nd, const int Tp) {
  float *restrict loc = st->loc, *restrict w = st->w;
  int *restrict idx = st->idx;
  local_energies(tb, st, c, nd, Tp, loc);
  if (tb->counts)
    ts_ag_mask(tb->ag, st->ag, c, st->tile[c], loc);
  float m8[8];
  for (int i = 0; i < 8; i++)
    m8[i] = loc[i];
  for (int t = 8; t < Tp; t += 8)
    for (int i = 0; i < 8; i++)
      m8[i] = loc[t + i] < m8[i] ? loc[t + i] : m8[i];
  float lo = m8[0];
  for (int i = 1; i < 8; i++)
    lo = m8[i] < lo ? m8[i] : lo;
  const float top = (float)(EXP_N - 1);
  for (int t = 0; t < Tp; t++) {
    float x = (loc[t] - lo) * bs;
    idx[t] = (int)(x < top ? x : top);
  }
  /* four partial sums (a serial float sum would be a 16-add chain), then
   * find the group of four holding u, then the tile inside it */
  v4sf part = {0, 0, 0, 0};
  for (int t = 0; t < Tp; t += 4) {
    v4sf x = {tb->exptab[idx[t]], tb->exptab[idx[t + 1]],
              tb->exptab[idx[t + 2]], tb->exptab[idx[t + 3]]};
    *(v4sf *)(w + t) = x;
    part += x;
  }
  float sum = (part[0] + part[1]) + (part[2] + part[3]);
  int old = st->tile[c];
  if (sum == w[old]) /* every other tile is below float resolution */
    return;
  float u = ts_rng_float(&st->r) * sum;
  int g = 0;
  for (; g + 4 < tb->T; g += 4) { /* never into the padding */
    float gs = (w[g] + w[g + 1]) + (w[g + 2] + w[g + 3]);
    if (u < gs)
      break;
    u -= gs;
  }
  int pick = g, last = g + 3 < tb->T - 1 ? g + 3 : tb->T - 1;
  while (pick < last && (u -= w[pick]) >= 0)
    pick++;
  if (pick == old)
    return;
  double dg = 0; /* the missing joins' change, by Metropolis */
  if (tb->ag) {
    /* hot (a missing join accepted with probability over 2%), a search
     * for a split stops after a few cells: the regions are tangled and the
     * searches far from meeting, and the split counts after the sweep */
    float xw = (float)(tb->cratio * tb->hard) * bs;
    long dm = ts_ag_propose(tb->ag, st->ag, c, old, pick,
                            xw > 4 * EXP_SCALE ? LONG_MAX : SEARCH_BUDGET);
    dg = tb->cratio * tb->hard * (double)dm;
    float x = (float)dg * bs;
    if (dg > 0 &&
        !(x < (float)(EXP_N - 1) && ts_rng_float(&st->r) < tb->exptab[(int)x]))
      return;
    ts_ag_commit(tb->ag, st->ag);
  }
  st->E += (double)loc[pick] - (double)loc[old] + dg;
  set_tile(tb, st, c, pick, nd);
}

#define SWEEP(ND, TP)                                                          \
  for (int i = 0; i < n; i++)                                                  \
    heat_bath(tb, st, order[i], bs, ND, TP);

/* ------------------------------------------------------ the fast kernel */

/* Heat-bath by Boltzmann factors (tb->fast: no term reads global state,
 * at most 16 tiles).  Per temperature and hard weight, every pair row and
 * bias row becomes a row of factors, fac[d][u][t] = exp(-beta * (pair[d][u]
 * [t] - min over t)), so a cell's weights are the product of its bias row
 * and one row per neighbour: 5 (hex 7) rows of Tp floats, no exp and no
 * table gather per site.  The draw is one uniform against the prefix sums:
 * the tile is the first with a weight whose prefix sum exceeds it (two
 * compares, a mask and a count of trailing zeros; the prefix sums are
 * added in a tree, so a tile without weight may have a larger one than the
 * tile before it, and must be masked out).  Every row's largest factor is
 * 1, so weights never overflow; the sweeps run with denormals flushed to
 * zero (x86), so a weight that underflows is below 2^-126.  When the sum is
 * below 2^-98 the dropped weight could matter at float resolution, and the
 * cell is drawn by the exact energies instead (heat_bath).  The AVX2 and
 * portable versions add and multiply in the same order: the same draws on
 * every machine.  An update only stores the tile: no branch on whether it
 * changed (at the temperatures where most of the work is, a coin toss)
 * and no bookkeeping (see fast_sweep).  Skipping cells whose draw is
 * certain, as the kernel before this one did, measured slower here: the
 * skipped cells cost a mispredicted branch and the rest lose the pairing. */
#define FAST_MIN 0x1p-98f

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define FAST_X86 1
#include <immintrin.h>
#else
#define FAST_X86 0
#endif

/* exp(-x) for the factor tables, flushed to 0 below the normal range. */
static float factor(float x, float *lastx, float *lastv) {
  if (x != *lastx) {
    float v = expf(-x);
    *lastx = x;
    *lastv = v < 0x1p-126f ? 0 : v;
  }
  return *lastv;
}

/* One row of factors from one row of costs (T of them, then 0 padding). */
static void factor_row(const float *cost, int T, int Tp, float beta, float *out,
                       float *lastx, float *lastv) {
  float lo = cost[0];
  for (int t = 1; t < T; t++)
    lo = cost[t] < lo ? cost[t] : lo;
  for (int t = 0; t < T; t++)
    out[t] = factor(beta * (cost[t] - lo), lastx, lastv);
  for (int t = T; t < Tp; t++)
    out[t] = 0;
}

static void factors_build(const ts_anneal_tables *tb, ts_anneal_state *st,
                          float beta) {
  int T = tb->T, T1 = T + 1, Tp = tb->Tp;
  float lastx = -1, lastv = 0;
  for (int d = 0; d < tb->nd; d++)
    for (int u = 0; u <= T; u++) {
      factor_row(tb->pair + ((size_t)d * T1 + u) * Tp, T, Tp, beta,
                 st->fac + ((size_t)u * tb->nd + d) * Tp, &lastx, &lastv);
    }
  for (int k = 0; k < tb->e->nregions; k++)
    factor_row(tb->bias + (size_t)k * Tp, T, Tp, beta,
               st->bfac + (size_t)k * Tp, &lastx, &lastv);
  if (tb->nd == 4) /* the pair products (as fast_draw would form them) */
    for (int u = 0; u < T1; u++)
      for (int v = 0; v < T1; v++)
        for (int t = 0; t < Tp; t++) {
          size_t o = ((size_t)u * T1 + v) * Tp + t;
          st->fac01[o] =
              st->fac[(u * 4 + 0) * Tp + t] * st->fac[(v * 4 + 1) * Tp + t];
          if (tb->e->nregions == 1) /* and the bias, as fast_draw would */
            st->fac01[o] = st->bfac[t] * st->fac01[o];
          st->fac23[o] =
              st->fac[(u * 4 + 2) * Tp + t] * st->fac[(v * 4 + 3) * Tp + t];
        }
}

/* When rounding makes u reach the sum: the last tile with a weight. */
static int fast_last(const float *w, int T) {
  int t = T - 1;
  while (t > 0 && w[t] == 0)
    t--;
  return t;
}

/* The portable draw: the AVX2 one's arithmetic, lane by lane.  Returns the
 * tile, -1 if the sum is below FAST_MIN or -2 if u reached the sum (then w
 * holds the weights). */
static inline __attribute__((always_inline)) int
fast_draw(const float *b, const float *const *r, const int nd, const int Tp,
          float r01, float *w, float *sum_out) {
  float cdf[16];
  for (int t = 0; t < Tp; t++) {
    if (nd == 2) { /* rows already multiplied in pairs (fac01, fac23) */
      w[t] = (b[t] * r[0][t]) * r[1][t];
      continue;
    }
    if (nd == 1) { /* ... and the bias too */
      w[t] = r[0][t] * r[1][t];
      continue;
    }
    float p01 = r[0][t] * r[1][t], p23 = r[2][t] * r[3][t];
    if (nd == 6)
      p23 = p23 * (r[4][t] * r[5][t]);
    w[t] = (b[t] * p01) * p23;
  }
  for (int g = 0; g < Tp; g += 4) { /* prefix sums in groups of 4 */
    float y1 = w[g + 1] + w[g], y2 = w[g + 2] + w[g + 1],
          y3 = w[g + 3] + w[g + 2];
    cdf[g] = w[g];
    cdf[g + 1] = y1;
    cdf[g + 2] = y2 + w[g];
    cdf[g + 3] = y3 + y1;
  }
  for (int g = 0; g < Tp; g += 8) /* then across groups, then halves */
    for (int i = 4; i < 8; i++)
      cdf[g + i] += cdf[g + 3];
  if (Tp == 16)
    for (int i = 8; i < 16; i++)
      cdf[i] += cdf[7];
  float sum = *sum_out = cdf[Tp - 1];
  if (sum < FAST_MIN)
    return -1;
  float u = r01 * sum;
  int pick = 0;
  while (pick < Tp && !(cdf[pick] > u && w[pick] > 0))
    pick++;
  return pick < Tp ? pick : -2;
}

#if FAST_X86
#define AVX2 __attribute__((target("avx2,bmi,bmi2")))

/* Prefix sums of 8 floats, in fast_draw's order. */
AVX2 static inline __m256 prefix8(__m256 x) {
  x = _mm256_add_ps(
      x, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(x), 4)));
  x = _mm256_add_ps(
      x, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(x), 8)));
  __m256 lo = _mm256_permute2f128_ps(x, x, 0x08); /* (0, low half) */
  return _mm256_add_ps(x, _mm256_shuffle_ps(lo, lo, 0xff));
}

/* The weights of 8 tiles from offset o of the rows. */
AVX2 static inline __attribute__((always_inline)) __m256
weights8(const float *b, const float *const *r, const int nd, int o) {
  if (nd == 2)
    return _mm256_mul_ps(
        _mm256_mul_ps(_mm256_load_ps(b + o), _mm256_load_ps(r[0] + o)),
        _mm256_load_ps(r[1] + o));
  if (nd == 1)
    return _mm256_mul_ps(_mm256_load_ps(r[0] + o), _mm256_load_ps(r[1] + o));
  __m256 p01 =
             _mm256_mul_ps(_mm256_load_ps(r[0] + o), _mm256_load_ps(r[1] + o)),
         p23 =
             _mm256_mul_ps(_mm256_load_ps(r[2] + o), _mm256_load_ps(r[3] + o));
  if (nd == 6)
    p23 = _mm256_mul_ps(
        p23, _mm256_mul_ps(_mm256_load_ps(r[4] + o), _mm256_load_ps(r[5] + o)));
  return _mm256_mul_ps(_mm256_mul_ps(_mm256_load_ps(b + o), p01), p23);
}

AVX2 static inline __attribute__((always_inline)) int
fast_draw_avx2(const float *b, const float *const *r, const int nd,
               const int Tp, float r01, float *w, float *sum_out) {
  const __m256i seven = _mm256_set1_epi32(7);
  __m256 w0 = weights8(b, r, nd, 0), w1 = w0;
  __m256 cdf0 = prefix8(w0), cdf1 = cdf0;
  if (Tp == 16) {
    w1 = weights8(b, r, nd, 8);
    cdf1 = _mm256_add_ps(prefix8(w1), _mm256_permutevar8x32_ps(cdf0, seven));
  }
  float sum = *sum_out =
      _mm256_cvtss_f32(_mm256_permutevar8x32_ps(cdf1, seven));
  if (sum < FAST_MIN)
    return -1;
  __m256 u = _mm256_set1_ps(r01 * sum);
  const __m256 zero = _mm256_setzero_ps();
  unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_and_ps(
      _mm256_cmp_ps(cdf0, u, _CMP_GT_OQ), _mm256_cmp_ps(w0, zero, _CMP_GT_OQ)));
  if (Tp == 16)
    mask |= (unsigned)_mm256_movemask_ps(
                _mm256_and_ps(_mm256_cmp_ps(cdf1, u, _CMP_GT_OQ),
                              _mm256_cmp_ps(w1, zero, _CMP_GT_OQ)))
            << 8;
  if (!mask) {
    _mm256_store_ps(w, w0);
    if (Tp == 16)
      _mm256_store_ps(w + 8, w1);
  }
  return mask ? __builtin_ctz(mask) : -2;
}
#define FAST_DRAW(AVX) ((AVX) ? fast_draw_avx2 : fast_draw)
#else
#define FAST_DRAW(AVX) fast_draw
#endif

/* The energy and violations of st's map at the tables' hard weight, from
 * the fast kernel's rows: each edge once, in a forward direction (the
 * sentinel's rows are 0; self-loops are in the bias). */
void ts_an_fast_resync(const ts_anneal_tables *tb, ts_anneal_state *st) {
  const tilesat_energy *e = tb->e;
  const int nd = tb->nd, Tp = tb->Tp, nf = e->nforward, N = tb->N;
  const size_t stride = (size_t)nd * Tp;
  const uint16_t *restrict tile = st->tile;
  const uint8_t *restrict region = e->region, *restrict violp = tb->violp;
  const float *restrict fpair = tb->fpair, *restrict bias = tb->bias;
  const int *restrict selfviol = tb->selfviol;
  /* pairs of accumulators: a double add per cell is a latency chain */
  double E0 = 0, E1 = 0;
  long V0 = 0, V1 = 0;
  int c = tb->nobias ? N : 0; /* no bias and no self-loop: nothing */
  for (; c + 1 < N; c += 2) {
    int t0 = tile[c], t1 = tile[c + 1];
    E0 += (double)bias[(size_t)region[c] * Tp + t0];
    E1 += (double)bias[(size_t)region[c + 1] * Tp + t1];
    V0 += selfviol[t0];
    V1 += selfviol[t1];
  }
  for (; c < N; c++) { /* the last, if N is odd */
    E0 += (double)bias[(size_t)region[c] * Tp + tile[c]];
    V0 += selfviol[tile[c]];
  }
  for (int f = 0; f < nf; f++) {
    const int d = e->forward[f];
    const float *fp = fpair + (size_t)d * Tp;
    const uint8_t *vp = violp + (size_t)d * Tp;
    if (tb->fplain) { /* rows and columns, no neighbour table */
      const int W = tb->m->width, H = tb->m->height;
      const int dr = tb->fdr[f], dc = tb->fdc[f], delta = dr * W + dc;
      int r0 = dr < 0 ? -dr : 0, r1 = dr > 0 ? H - dr : H;
      int q0 = dc < 0 ? -dc : 0, q1 = dc > 0 ? W - dc : W;
      for (int r = r0; r < r1; r++) {
        const uint16_t *row = tile + (size_t)r * W, *nrow = row + delta;
        /* a row in floats (as the kernel's sums are), then in doubles */
        float s0 = 0, s1 = 0;
        int q = q0;
        for (; q + 1 < q1; q += 2) {
          size_t o0 = nrow[q] * stride + row[q],
                 o1 = nrow[q + 1] * stride + row[q + 1];
          s0 += fp[o0];
          s1 += fp[o1];
          V0 += vp[o0];
          V1 += vp[o1];
        }
        for (; q < q1; q++) {
          size_t o = nrow[q] * stride + row[q];
          s0 += fp[o];
          V0 += vp[o];
        }
        E0 += (double)s0;
        E1 += (double)s1;
      }
      continue;
    }
    const int32_t *restrict nbr = tb->nbr;
    for (c = 0; c < N; c++) { /* the sentinel's rows are 0 */
      size_t o = tile[nbr[(size_t)c * nd + d]] * stride + tile[c];
      E0 += (double)fp[o];
      V0 += vp[o];
    }
  }
  st->E = E0 + E1;
  st->V = V0 + V1;
}

/* The factor rows of cell c's neighbours' tiles. */
static inline __attribute__((always_inline)) void
fast_rows(const int32_t *nbr, const uint16_t *tile, const float *fac, int c,
          const int nd, const int Tp, const float **r) {
  const size_t stride = (size_t)nd * Tp; /* one neighbour tile's rows */
#pragma GCC unroll 6
  for (int d = 0; d < nd; d++)
    r[d] = fac + tile[nbr[(size_t)c * nd + d]] * stride + (size_t)d * Tp;
}

/* The draw's rare cases: u rounded up to the sum (the last tile with a
 * weight), or weights too small for floats (by the energies: heat_bath,
 * which draws from st->r).  A macro, so that the RNG state the sweep keeps
 * in registers never has its address taken. */
#define FAST_RARE(PICK, C, W)                                                  \
  do {                                                                         \
    if ((PICK) == -2) {                                                        \
      (PICK) = fast_last((W), tb->T);                                          \
    } else {                                                                   \
      st->r = rg;                                                              \
      heat_bath(tb, st, (C), bs, nd, Tp);                                      \
      rg = st->r;                                                              \
    }                                                                          \
  } while (0)

/* fast_sweep's pairs of cells on a square map, their rows the pair
 * products (fac01, fac23).  ROWS is fast_draw's nd for them: 1 when fac01
 * holds the bias row too (one region), else 2.  A macro, like FAST_RARE:
 * the code is fast_sweep's own, RNG in registers and ROWS a constant, the
 * same instructions as when each case was written out. */
#define FAST_SQUARE_PAIRS(ROWS)                                                \
  do {                                                                         \
    const float *f01 = st->fac01, *f23 = st->fac23;                            \
    const size_t T1 = (size_t)tb->T + 1;                                       \
    for (; i + 1 < end; i += 2) {                                              \
      int a = order[i], b = order[i + 1];                                      \
      const int32_t *na = nbr + (size_t)a * 4, *nb = nbr + (size_t)b * 4;      \
      const float *ra[2] = {f01 + (tile[na[0]] * T1 + tile[na[1]]) * Tp,       \
                            f23 + (tile[na[2]] * T1 + tile[na[3]]) * Tp};      \
      const float *rb[2] = {f01 + (tile[nb[0]] * T1 + tile[nb[1]]) * Tp,       \
                            f23 + (tile[nb[2]] * T1 + tile[nb[3]]) * Tp};      \
      float wa[16] __attribute__((aligned(32))), suma;                         \
      float wb[16] __attribute__((aligned(32))), sumb;                         \
      int pa = FAST_DRAW(avx)(bfac + (size_t)region[a] * Tp, ra, (ROWS), Tp,   \
                              ubuf[i], wa, &suma);                             \
      int pb = FAST_DRAW(avx)(bfac + (size_t)region[b] * Tp, rb, (ROWS), Tp,   \
                              ubuf[i + 1], wb, &sumb);                         \
      if (__builtin_expect(pa < 0, 0))                                         \
        FAST_RARE(pa, a, wa);                                                  \
      if (pa >= 0)                                                             \
        tile[a] = (uint16_t)pa;                                                \
      if (__builtin_expect(pb < 0, 0))                                         \
        FAST_RARE(pb, b, wb);                                                  \
      if (pb >= 0)                                                             \
        tile[b] = (uint16_t)pb;                                                \
    }                                                                          \
  } while (0)

/* A sweep of the fast kernel.  The energy and violation count are summed
 * again afterwards (fast_resync: a pass over the edges costs less than
 * their changes at every update).  Two cells of a colour class are drawn
 * at a time (they are not neighbours, so the order does not matter): two
 * independent chains of loads, products and prefix sums keep the core busy
 * where one would wait on its latency.  Their uniforms are drawn for the
 * whole sweep first, two from each 64-bit number, which leaves the loop the
 * registers the RNG state would take.  On square maps the rows of
 * directions 0 and 1, and 2 and 3, come multiplied in pairs (fac01, fac23:
 * the same products fast_draw forms), 3 rows a cell instead of 5, or 2
 * when there is one region and fac01 holds its bias row too. */
/* Kept whole, past the size and complexity limits of `make lint`: this is
 * the annealer's hot loop (about 25 cycles a site update), one body that
 * the compiler specialises per direction count and AVX2 setting; split,
 * its pieces would be calls or copies in the innermost loop.
 * NOLINTBEGIN(readability-function-cognitive-complexity,readability-function-size)
 */
static inline __attribute__((always_inline)) void
fast_sweep(const ts_anneal_tables *tb, ts_anneal_state *st, float bs,
           const int nd, const int Tp, const bool avx) {
  const int32_t *order = tb->order, *nbr = tb->nbr;
  const uint8_t *region = tb->e->region;
  const float *bfac = st->bfac, *fac = st->fac;
  uint16_t *tile = st->tile;
  float *ubuf = st->ubuf;
  const bool one = tb->e->nregions == 1; /* the bias is in fac01 */
  ts_rng rg = st->r;
  for (int i = 0; i < tb->norder; i += 2) {
    uint64_t x = ts_rng_next(&rg);
    ubuf[i] = (float)(x >> 40) * 0x1p-24f;
    ubuf[i + 1] = (float)((x >> 16) & 0xffffff) * 0x1p-24f;
  }
  for (int k = 0; k < tb->ncolours; k++) {
    int i = tb->cstart[k], end = tb->cstart[k + 1];
    if (tb->coloured && nd == 4 && one)
      FAST_SQUARE_PAIRS(1);
    if (tb->coloured && nd == 4 && !one)
      FAST_SQUARE_PAIRS(2);
    if (tb->coloured)
      for (; i + 1 < end; i += 2) {
        int a = order[i], b = order[i + 1];
        const float *ra[6], *rb[6];
        fast_rows(nbr, tile, fac, a, nd, Tp, ra);
        fast_rows(nbr, tile, fac, b, nd, Tp, rb);
        float wa[16] __attribute__((aligned(32))), suma;
        float wb[16] __attribute__((aligned(32))), sumb;
        int pa = FAST_DRAW(avx)(bfac + (size_t)region[a] * Tp, ra, nd, Tp,
                                ubuf[i], wa, &suma);
        int pb = FAST_DRAW(avx)(bfac + (size_t)region[b] * Tp, rb, nd, Tp,
                                ubuf[i + 1], wb, &sumb);
        if (__builtin_expect(pa < 0, 0))
          FAST_RARE(pa, a, wa);
        if (pa >= 0)
          tile[a] = (uint16_t)pa;
        if (__builtin_expect(pb < 0, 0))
          FAST_RARE(pb, b, wb);
        if (pb >= 0)
          tile[b] = (uint16_t)pb;
      }
    for (; i < end; i++) { /* one at a time */
      int c = order[i];
      const float *r[6];
      fast_rows(nbr, tile, fac, c, nd, Tp, r);
      float w[16] __attribute__((aligned(32))), sum;
      int pick = FAST_DRAW(avx)(bfac + (size_t)region[c] * Tp, r, nd, Tp,
                                ubuf[i], w, &sum);
      if (__builtin_expect(pick < 0, 0))
        FAST_RARE(pick, c, w);
      if (pick >= 0)
        tile[c] = (uint16_t)pick;
    }
  }
  st->r = rg;
}
/* NOLINTEND(readability-function-cognitive-complexity,readability-function-size)
 */

#define FAST_CASES(AVX)                                                        \
  if (tb->nd == 4 && tb->Tp == 8)                                              \
    fast_sweep(tb, st, bs, 4, 8, AVX);                                         \
  else if (tb->nd == 4)                                                        \
    fast_sweep(tb, st, bs, 4, 16, AVX);                                        \
  else if (tb->Tp == 8)                                                        \
    fast_sweep(tb, st, bs, 6, 8, AVX);                                         \
  else                                                                         \
    fast_sweep(tb, st, bs, 6, 16, AVX);

static void sweep_fast_portable(const ts_anneal_tables *tb, ts_anneal_state *st,
                                float bs){FAST_CASES(false)}

#if FAST_X86
AVX2 static void sweep_fast_avx2(const ts_anneal_tables *tb,
                                 ts_anneal_state *st, float bs) {
  FAST_CASES(true)
}
#endif

static void sweep_fast(const ts_anneal_tables *tb, ts_anneal_state *st,
                       float bs) {
  if (!st->fac_valid || bs != st->fac_bs || tb->hard != st->fac_hard) {
    factors_build(tb, st, bs / EXP_SCALE);
    st->fac_valid = true;
    st->fac_bs = bs;
    st->fac_hard = tb->hard;
  }
#if FAST_X86
  /* flush denormals (FTZ, DAZ) for this sweep only */
  unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040);
  if (tb->avx2)
    sweep_fast_avx2(tb, st, bs);
  else
    sweep_fast_portable(tb, st, bs);
  _mm_setcsr(csr);
#else
  sweep_fast_portable(tb, st, bs);
#endif
  ts_an_fast_resync(tb, st);
}

static void sweep_heat_bath(const ts_anneal_tables *tb, ts_anneal_state *st,
                            float bs) {
  const int32_t *order = tb->order;
  int n = tb->norder;
  if (tb->fast) {
    sweep_fast(tb, st, bs);
    return;
  }
  if (tb->nd == 4 && tb->Tp == 8)
    SWEEP(4, 8)
  else if (tb->nd == 4 && tb->Tp == 16)
    SWEEP(4, 16)
  else if (tb->nd == 6 && tb->Tp == 8)
    SWEEP(6, 8)
  else if (tb->nd == 6 && tb->Tp == 16)
    SWEEP(6, 16)
  else if (tb->nd == 4)
    SWEEP(4, tb->Tp)
  else
    SWEEP(6, tb->Tp)
}

/* Local energy of tile t at cell c without the frequency term. */
static float cell_cost(const ts_anneal_tables *tb, ts_anneal_state *st, int c,
                       int t) {
  const int nd = tb->nd, Tp = tb->Tp, T1 = tb->T + 1;
  const int32_t *nb = tb->nbr + (size_t)c * nd;
  float s = tb->bias[(size_t)tb->e->region[c] * Tp + t];
  for (int d = 0; d < nd; d++)
    s += tb->pair[((size_t)d * T1 + st->tile[nb[d]]) * Tp + t];
  if (tb->line) {
    const tilesat_map *m = tb->m;
    int row = c / m->width, col = c % m->width, *buf = st->line;
    float w = (float)tb->e->palindrome;
    for (int x = 0; x < m->width; x++)
      buf[x] = st->tile[row * m->width + x];
    buf[col] = t;
    s -= w * (float)tilesat_palindrome_score(buf, m->width);
    for (int y = 0; y < m->height; y++)
      buf[y] = st->tile[y * m->width + col];
    buf[row] = t;
    s -= w * (float)tilesat_palindrome_score(buf, m->height);
  }
  return s;
}

/* A sweep of count-preserving swaps: as many attempts as free cells. */
static void sweep_swaps(const ts_anneal_tables *tb, ts_anneal_state *st,
                        float bs) {
  uint32_t n = (uint32_t)tb->norder;
  if (n < 2)
    return;
  for (uint32_t i = 0; i < n; i++) {
    int a = tb->order[ts_rng_below(&st->r, n)],
        b = tb->order[ts_rng_below(&st->r, n)];
    int ta = st->tile[a], tb_ = st->tile[b];
    if (ta == tb_)
      continue;
    long v0 = st->V;
    float d1 = cell_cost(tb, st, a, tb_) - cell_cost(tb, st, a, ta);
    set_tile(tb, st, a, tb_, tb->nd);
    float d2 = cell_cost(tb, st, b, ta) - cell_cost(tb, st, b, tb_);
    set_tile(tb, st, b, ta, tb->nd);
    double dg = 0, w = tb->cratio * tb->hard;
    bool kept = true;
    if (tb->ag) {
      long dm = ts_ag_change(tb->ag, st->ag, a, ta, tb_) +
                ts_ag_change(tb->ag, st->ag, b, tb_, ta);
      dg = w * (double)dm;
      kept = !tb->counts || ts_ag_counts_ok(tb->ag, st->ag);
    }
    float dE = d1 + d2 + (float)dg, x = dE * bs;
    bool accept =
        kept && (dE <= 0 || (x < (float)(EXP_N - 1) &&
                             ts_rng_float(&st->r) < tb->exptab[(int)x]));
    if (accept) {
      st->E += (double)(d1 + d2) + dg;
    } else {
      set_tile(tb, st, b, tb_, tb->nd);
      set_tile(tb, st, a, ta, tb->nd);
      st->V = v0;
      if (tb->ag) { /* not quite undone where the labels await settling */
        long back = ts_ag_change(tb->ag, st->ag, b, ta, tb_) +
                    ts_ag_change(tb->ag, st->ag, a, tb_, ta);
        st->E += dg + w * (double)back;
      }
    }
  }
}

void ts_an_sweep(const ts_anneal_tables *tb, ts_anneal_state *st, double beta) {
  float bs = (float)(beta * EXP_SCALE);
  if (tb->swaps)
    sweep_swaps(tb, st, bs);
  else
    sweep_heat_bath(tb, st, bs);
  if (tb->counts && !tb->swaps) /* counts at their bounds: only swaps move */
    sweep_swaps(tb, st, bs);
  if (tb->joins) /* the splits a search gave up on */
    st->E += tb->cratio * tb->hard * (double)ts_ag_settle(tb->ag, st->ag);
}

/* The running energy and violation count against a fresh evaluation:
 * violations exactly; the energy too when every weight is a whole number
 * (float sums of whole numbers below 2^24 are exact), else to 1e-3. */
bool ts_an_bookkeeping_ok(const ts_anneal_tables *tb, const ts_anneal_state *st,
                          int *scratch) {
  ts_an_to_ints(tb, st, scratch);
  if (tilesat_energy_violations(tb->e, scratch) != st->V)
    return false;
  double E = tilesat_energy_eval(tb->e, scratch);
  return fabs(E - st->E) <= 1e-3 * (1 + fabs(E));
}
