/* anneal.c: the annealing sampler for a tilesat_energy.
 *
 * Moves.  Heat-bath single-site updates: for a free cell, the local energy
 * of every tile is computed at once (a vector of T floats: the cell's bias,
 * plus one precomputed row pair[d][neighbour tile] per direction, plus the
 * frequency term's O(1) change from the tile counts) and a tile is drawn
 * with probability proportional to exp(-beta * local energy).  Cells are
 * visited in checkerboard order (square: 2 colours by (row + col) mod 2;
 * hex: 3 colours by (q - r) mod 3 in axial coordinates), the order a
 * parallel block-Gibbs sampler would use.  When counts are fixed exactly
 * ("counts exact") the moves are Metropolis swaps of two free cells, which
 * keep every count.
 *
 * Hot loop.  Neighbours come from a table (cells * directions); a missing
 * neighbour points at a sentinel cell holding an extra "border" tile whose
 * pair rows are zero, so there is no branch on the map's edge.  Without
 * frequency or line terms and with at most 16 tiles (fast_sweep), a cell's
 * weights are a product of precomputed Boltzmann-factor rows, one per
 * neighbour plus the bias row, sampled by prefix sums with AVX2 where the
 * machine has it.  Otherwise (heat_bath) the local energies are summed
 * and the factors come from a table of exp(-i/64), indexed by
 * beta * dE * 64: no exp() and no division per site (weights are exact to
 * within 1.6%, i.e. the temperature is quantised, which a sampler does not
 * mind).
 *
 * Schedule.  Geometric from beta_lo to beta_hi over the sweeps, in 100
 * levels.  Chosen from the energy scale unless given: hot, the largest
 * change one cell can make is accepted with probability 1/2; cold, the
 * smallest positive change (the smallest nonzero weight) is excited
 * anywhere on the map with probability below 1%:
 * cells * (tiles - 1) * exp(-beta_hi * dE_min) = 0.01.  With the default
 * hard weight and soft terms, the hard weight itself is annealed too
 * (hard_start): it starts near the soft terms' scale and reaches its real
 * value for the last 10% of the sweeps.  Violations left at the end are
 * cleaned up by SAT (cleanup.c), and the cleaned-up map polished by cold
 * sweeps.
 *
 * Energies in the hot loop are floats; the running total is a double and
 * the returned map is evaluated again from scratch (tilesat_energy_eval).
 * Every run has its own RNG (xoshiro256**) seeded from opts->seed, the
 * restart and the replica: same seed, same map. */
#include "core/rng.h"
#include "gen/gen.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --------------------------------------------------------------- tables */

typedef float v4sf __attribute__((vector_size(16)));

#define EXP_SCALE 64.0f
#define EXP_N 2048 /* factors down to exp(-32) */

/* What every run shares, read-only. */
typedef struct tables {
  const tilesat_energy *e;
  const tilesat_map *m;
  int T, Tp, nd, N;
  int32_t *nbr;  /* [N][nd]; missing or self -> N, the sentinel */
  float *pair;   /* [nd][T + 1][Tp]: cost of tile t beside tile u in d */
  uint8_t *viol; /* [nd][T + 1][T]: is that pair disallowed? */
  float *bias;   /* [nregions][Tp] (+ self-loop edges, if any) */
  int *selfviol; /* [T]: disallowed self-loop edges */
  uint8_t *selfviol_dir; /* [nforward][T]: is that self-loop disallowed? */
  bool self_loop[6];     /* directions in which every cell meets itself */
  double hard;           /* the hard weight the tables hold now */
  int32_t *order;        /* free cells, colour class by colour class */
  int norder;
  int cstart[4]; /* colour class k is order[cstart[k] .. cstart[k + 1]) */
  int ncolours;
  bool coloured; /* no cell has a neighbour of its own colour (a periodic
                  * axis of odd length, or not a multiple of 3 on hex,
                  * breaks that) */
  float wf;      /* frequency weight (0 with exact counts) */
  bool line, swaps, soft;
  bool fast; /* heat-bath by factor tables (see sweep_fast) */
  bool avx2; /* the fast kernel's AVX2 version runs here */
  /* fast_resync on a map whose forward neighbours are all (row + fdr[f],
   * col + fdc[f]) when that is on the map, and missing otherwise */
  bool fplain;
  bool nobias; /* every bias 0 and no self-loop violation (tables_set_hard) */
  int fdr[3], fdc[3];
  /* the fast kernel's rows, neighbour tile first: [T + 1][nd][Tp] */
  float *fpair;   /* pair */
  uint8_t *violp; /* viol */
  float exptab[EXP_N];
  /* global constraints: counts kept, missing joins at cratio * hard each */
  ts_ag *ag;
  bool counts, joins;
  double cratio;
} tables;

static void tables_set_hard(tables *tb, double hard);

/* Zeroed floats on a 32-byte boundary (for the vector loads). */
static float *aligned_floats(size_t n) {
  size_t bytes = (n * sizeof(float) + 31) & ~(size_t)31;
  float *p = aligned_alloc(32, bytes ? bytes : 32);
  if (!p) { /* out of memory is fatal in one place: let ts_malloc say it */
    p = ts_malloc(bytes);
    free(p);
    ts_misuse(__func__, "aligned_alloc failed");
  }
  memset(p, 0, bytes);
  return p;
}

static int checker_colour(const tilesat_map *m, int cell) {
  int row = cell / m->width, col = cell % m->width;
  if (m->topo == TILESAT_HEX) {
    int q = col - (row - (row & 1)) / 2;
    return (((q - row) % 3) + 3) % 3;
  }
  return (row + col) & 1;
}

/* Are the forward neighbours plain offsets (not periodic, not hex)? */
static void tables_plain(tables *tb) {
  const tilesat_energy *e = tb->e;
  int W = tb->m->width, H = tb->m->height, nd = tb->nd, c0 = W + 1;
  if (W < 3 || H < 3)
    return;
  for (int f = 0; f < e->nforward; f++) {
    int n = tb->nbr[(size_t)c0 * nd + e->forward[f]];
    if (n >= tb->N)
      return;
    tb->fdr[f] = n / W - 1;
    tb->fdc[f] = n % W - 1;
  }
  for (int c = 0; c < tb->N; c++)
    for (int f = 0; f < e->nforward; f++) {
      int r = c / W + tb->fdr[f], q = c % W + tb->fdc[f];
      bool on = r >= 0 && r < H && q >= 0 && q < W;
      if (tb->nbr[(size_t)c * nd + e->forward[f]] != (on ? r * W + q : tb->N))
        return;
    }
  tb->fplain = true;
}

/* Neighbours (N: none, or the cell itself on a 1-wide periodic axis, whose
 * self-loops go into the bias instead). */
static void tables_neighbours(tables *tb) {
  const tilesat_energy *e = tb->e;
  const tilesat_rules *r = tb->m->rules;
  int T = tb->T, nd = tb->nd, N = tb->N;
  tb->nbr = ts_malloc((size_t)N * (size_t)nd * sizeof *tb->nbr);
  for (int c = 0; c < N; c++)
    for (int d = 0; d < nd; d++) {
      int n = ts_map_neighbor(tb->m, c, d);
      if (n == c)
        tb->self_loop[d] = true; /* a 1-wide periodic axis: the same for all */
      tb->nbr[(size_t)c * nd + d] = n < 0 || n == c ? N : n;
    }
  tb->selfviol = ts_calloc((size_t)T, sizeof *tb->selfviol);
  tb->selfviol_dir = ts_calloc((size_t)e->nforward * (size_t)T, 1);
  for (int t = 0; t < T; t++)
    for (int f = 0; f < e->nforward; f++)
      if (tb->self_loop[e->forward[f]] &&
          !ts_bit(ts_allowed(r, t, e->forward[f]), t)) {
        tb->selfviol[t]++;
        tb->selfviol_dir[f * T + t] = 1;
      }
}

/* Which pairs violate a rule, in the layouts the kernels read. */
static void tables_violations(tables *tb) {
  const tilesat_rules *r = tb->m->rules;
  int T = tb->T, Tp = tb->Tp, nd = tb->nd;
  tb->pair =
      ts_calloc((size_t)nd * (size_t)(T + 1) * (size_t)Tp, sizeof *tb->pair);
  tb->viol = ts_calloc((size_t)nd * (size_t)(T + 1) * (size_t)T, 1);
  for (int d = 0; d < nd; d++)
    for (int u = 0; u < T; u++)
      for (int t = 0; t < T; t++)
        tb->viol[((size_t)d * (T + 1) + u) * T + t] =
            !ts_bit(ts_allowed(r, t, d), u);
  tb->violp = ts_calloc((size_t)nd * (size_t)(T + 1) * (size_t)Tp, 1);
  tb->fpair =
      ts_calloc((size_t)nd * (size_t)(T + 1) * (size_t)Tp, sizeof *tb->fpair);
  for (int d = 0; d < nd; d++)
    for (int u = 0; u <= T; u++)
      memcpy(tb->violp + ((size_t)u * nd + d) * Tp,
             tb->viol + ((size_t)d * (T + 1) + u) * T, (size_t)T);
}

/* The free cells by checkerboard colour; coloured when no two neighbours
 * share a colour (then a colour's cells may be updated in any order). */
static void tables_colours(tables *tb) {
  const tilesat_map *m = tb->m;
  int N = tb->N, nd = tb->nd;
  int ncolours = m->topo == TILESAT_HEX ? 3 : 2;
  tb->order = ts_malloc((size_t)N * sizeof *tb->order);
  tb->ncolours = ncolours;
  for (int k = 0; k < ncolours; k++) {
    tb->cstart[k] = tb->norder;
    for (int c = 0; c < N; c++)
      if (!tb->e->pin_of[c] && checker_colour(m, c) == k)
        tb->order[tb->norder++] = c;
  }
  tb->cstart[ncolours] = tb->norder;
  tb->coloured = true;
  for (int c = 0; c < N; c++)
    for (int d = 0; d < nd; d++) {
      int n = tb->nbr[(size_t)c * nd + d];
      if (n < N && checker_colour(m, n) == checker_colour(m, c))
        tb->coloured = false;
    }
}

/* Which terms are on, and so which kernel runs. */
static void tables_kernel(tables *tb) {
  const tilesat_energy *e = tb->e;
  int T = tb->T, nd = tb->nd;
  tb->swaps = e->exact;
  tb->wf = e->exact ? 0.0f : (float)e->frequency;
  tb->line = e->palindrome != 0;
  bool coherence = false, bias = false;
  for (int t = 0; t < T; t++)
    coherence |= e->coherence[t] != 0;
  for (int i = 0; i < e->nregions * T; i++)
    bias |= e->region_bias[i] != 0;
  tb->soft = coherence || bias || tb->wf != 0 || tb->line;
  tb->ag = ts_ag_new(e, tb->nbr, nd);
  tb->counts = ts_ag_has_counts(tb->ag);
  tb->joins = ts_ag_has_joins(tb->ag);
  tb->cratio = e->connectivity / e->hard;
  tb->fast = !tb->swaps && tb->wf == 0 && !tb->line && T <= 16 &&
             (nd == 4 || nd == 6) && !tb->ag && !tb->m->nmasked;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  /* TILESAT_NO_AVX2 forces the portable kernel: the tests check that both
   * give the same maps */
  tb->avx2 = __builtin_cpu_supports("avx2") && !getenv("TILESAT_NO_AVX2");
#endif
}

static void tables_init(tables *tb, const tilesat_energy *e) {
  memset(tb, 0, sizeof *tb);
  tb->e = e;
  tb->m = e->map;
  tb->T = e->ntiles;
  tb->nd = e->ndirs;
  tb->N = e->map->ncells;
  tb->Tp = (tb->T + 7) & ~7;
  tb->bias = aligned_floats((size_t)e->nregions * (size_t)tb->Tp);
  for (int k = 0; k < e->nregions; k++) /* padding tiles: never drawn */
    for (int t = tb->T; t < tb->Tp; t++)
      tb->bias[(size_t)k * tb->Tp + t] = 1e30f;
  tables_neighbours(tb);
  tables_violations(tb);
  tables_colours(tb);
  tables_kernel(tb);
  for (int i = 0; i < EXP_N - 1; i++)
    tb->exptab[i] = expf(-(float)i / EXP_SCALE);
  tb->exptab[EXP_N - 1] = 0;
  tables_plain(tb);
  tables_set_hard(tb, e->hard);
}

/* The pair costs at hard weight `hard` (the sampler raises it over a run,
 * see tilesat_anneal), with the self-loop costs folded into the bias. */
static void tables_set_hard(tables *tb, double hard) {
  const tilesat_energy *e = tb->e;
  int T = tb->T, Tp = tb->Tp, nd = tb->nd;
  for (int d = 0; d < nd; d++)
    for (int u = 0; u < T; u++)
      for (int t = 0; t < T; t++) {
        size_t i = ((size_t)d * (T + 1) + u) * T + t;
        double c = tb->viol[i] ? hard : 0;
        if (t == u)
          c -= e->coherence[t];
        tb->pair[((size_t)d * (T + 1) + u) * Tp + t] = (float)c;
        tb->fpair[((size_t)u * nd + d) * Tp + t] = (float)c;
      }
  for (int k = 0; k < e->nregions; k++)
    for (int t = 0; t < T; t++) {
      double b = e->region_bias[k * T + t];
      /* a self-loop edge is one edge, counted once per forward direction */
      for (int f = 0; f < e->nforward; f++)
        if (tb->self_loop[e->forward[f]])
          b += (tb->selfviol_dir[f * T + t] ? hard : 0) - e->coherence[t];
      /* a tile a global constraint bans there is never drawn */
      tb->bias[(size_t)k * Tp + t] =
          e->region_ban[k * T + t] ? 1e30f : (float)b;
    }
  tb->nobias = true;
  for (int k = 0; k < e->nregions; k++)
    for (int t = 0; t < T; t++)
      tb->nobias &= tb->bias[(size_t)k * Tp + t] == 0 && tb->selfviol[t] == 0;
  tb->hard = hard;
}

static void tables_free(tables *tb) {
  free(tb->selfviol_dir);
  free(tb->nbr);
  free(tb->pair);
  free(tb->viol);
  free(tb->violp);
  free(tb->fpair);
  free(tb->bias);
  free(tb->selfviol);
  free(tb->order);
  ts_ag_free(tb->ag);
}

/* ---------------------------------------------------------------- state */

typedef struct state {
  uint16_t *tile; /* N + 1: tile[N] = T, the sentinel */
  int64_t *count; /* T */
  float *fq;      /* Tp: frequency * (2 (n_t - target_t) + 1) */
  double E;       /* running energy (sum of deltas) */
  long V;         /* running violations */
  ts_rng r;
  float *loc, *w;       /* Tp scratch */
  int *idx;             /* Tp scratch */
  int *line;            /* max(width, height) scratch */
  float *fac, *bfac;    /* the fast kernel's factors (see sweep_fast) */
  float *ubuf;          /* norder + 1: its uniforms for a sweep */
  float *fac01, *fac23; /* square: [T + 1][T + 1][Tp], products of the rows
                         * of directions 0 and 1, and 2 and 3 */
  ts_ag_state *ag;      /* counts and regions of the global constraints */
  bool fac_valid;       /* ... at fac_bs and fac_hard */
  float fac_bs;
  double fac_hard;
} state;

static void state_init(state *st, const tables *tb) {
  *st = (state){0}; /* the fast kernel's tables stay NULL without it */
  int mx = tb->m->width > tb->m->height ? tb->m->width : tb->m->height;
  st->tile = ts_malloc(((size_t)tb->N + 1) * sizeof *st->tile);
  st->count = ts_calloc((size_t)tb->T + 1, sizeof *st->count);
  if (tb->ag)
    st->ag = ts_ag_state_new(tb->ag);
  st->fq = aligned_floats((size_t)tb->Tp);
  st->loc = aligned_floats((size_t)tb->Tp);
  st->w = aligned_floats((size_t)tb->Tp);
  st->idx = ts_calloc((size_t)tb->Tp, sizeof *st->idx);
  st->line = ts_malloc((size_t)mx * sizeof *st->line);
  if (tb->fast) {
    st->fac =
        aligned_floats((size_t)tb->nd * ((size_t)tb->T + 1) * (size_t)tb->Tp);
    st->bfac = aligned_floats((size_t)tb->e->nregions * (size_t)tb->Tp);
    st->ubuf = aligned_floats((size_t)tb->norder + 1);
    if (tb->nd == 4) {
      size_t n2 = ((size_t)tb->T + 1) * ((size_t)tb->T + 1) * (size_t)tb->Tp;
      st->fac01 = aligned_floats(n2);
      st->fac23 = aligned_floats(n2);
    }
  }
}

static void state_free(state *st) {
  free(st->tile);
  free(st->count);
  free(st->fq);
  free(st->loc);
  free(st->w);
  free(st->idx);
  free(st->line);
  free(st->fac);
  free(st->bfac);
  free(st->ubuf);
  free(st->fac01);
  free(st->fac23);
  ts_ag_state_free(st->ag);
}

static void to_ints(const tables *tb, const state *st, int *out) {
  for (int c = 0; c < tb->N; c++)
    out[c] = st->tile[c] < tb->T ? st->tile[c] : TILESAT_NO_TILE;
}

/* Missing joins times their share of the hard weight plus violations: what
 * the energy gains per unit of hard weight. */
static double hard_units(const tables *tb, const state *st) {
  return (double)st->V +
         (st->ag ? tb->cratio * (double)ts_ag_missing(st->ag) : 0);
}

/* Counts, fq, E and V from the tiles. */
static void fast_resync(const tables *tb, state *st);

static void state_sync(const tables *tb, state *st, int *scratch) {
  const tilesat_energy *e = tb->e;
  memset(st->count, 0, (size_t)tb->T * sizeof *st->count);
  for (int c = 0; c < tb->N; c++)
    st->count[st->tile[c]]++;
  for (int t = 0; t < tb->T; t++)
    st->fq[t] = tb->wf * (float)(2 * (st->count[t] - e->target[t]) + 1);
  if (st->ag)
    ts_ag_sync(tb->ag, st->ag, st->tile);
  if (tb->fast) { /* what every sweep does (the same sums, cheaper) */
    fast_resync(tb, st);
    return;
  }
  to_ints(tb, st, scratch);
  st->E = tilesat_energy_eval(e, scratch);
  st->V = tilesat_energy_violations(e, scratch);
}

/* A tile global constraints allow at cell c, uniformly. */
static int random_allowed(const tables *tb, state *st, int c) {
  const uint8_t *ban =
      tb->e->region_ban + (size_t)tb->e->region[c] * (size_t)tb->T;
  for (int i = 0; i < 4 * tb->T; i++) {
    int t = (int)ts_rng_below(&st->r, (uint32_t)tb->T);
    if (!ban[t])
      return t;
  }
  int t = 0;
  while (t < tb->T - 1 && ban[t])
    t++;
  return t;
}

static bool banned(const tables *tb, int c, int t) {
  return tb->e->region_ban[tb->e->region[c] * tb->T + t];
}

/* Dealt tiles on cells that ban them: swapped with a free cell where both
 * are allowed (the counts stay). */
static void deal_bans(const tables *tb, state *st) {
  for (int i = 0; i < tb->norder; i++) {
    int a = tb->order[i];
    for (int j = 0; j < tb->norder && banned(tb, a, st->tile[a]); j++) {
      int b = tb->order[j], ta = st->tile[a], tb_ = st->tile[b];
      if (!banned(tb, a, tb_) && !banned(tb, b, ta)) {
        st->tile[a] = (uint16_t)tb_;
        st->tile[b] = (uint16_t)ta;
      }
    }
  }
}

/* The missing tiles of every target dealt out in random order. */
static void start_dealt(const tables *tb, state *st, int *scratch) {
  const tilesat_energy *e = tb->e;
  int k = 0;
  for (int t = 0; t < tb->T; t++)
    for (int64_t i = e->pinned[t]; i < e->target[t]; i++)
      scratch[k++] = t;
  for (int i = k - 1; i > 0; i--) {
    int j = (int)ts_rng_below(&st->r, (uint32_t)i + 1), x = scratch[i];
    scratch[i] = scratch[j];
    scratch[j] = x;
  }
  /* the free cells in reading order get the shuffled tiles */
  k = 0;
  for (int c = 0; c < tb->N; c++)
    if (!e->pin_of[c])
      st->tile[c] = (uint16_t)scratch[k++];
  deal_bans(tb, st);
}

/* Each free cell drawn in proportion to the targets. */
static void start_near_targets(const tables *tb, state *st) {
  const tilesat_energy *e = tb->e;
  int T = tb->T;
  int64_t total = 0;
  for (int t = 0; t < T; t++)
    total += e->target[t];
  for (int c = 0; c < tb->N; c++) {
    if (e->pin_of[c])
      continue;
    int64_t u = (int64_t)ts_rng_below(&st->r, (uint32_t)total);
    int t = 0;
    while (t < T - 1 && (u -= e->target[t]) >= 0)
      t++;
    st->tile[c] = (uint16_t)(banned(tb, c, t) ? random_allowed(tb, st, c) : t);
  }
}

/* A random start: pins in place, free cells uniform, or with exact counts
 * the missing tiles of every target dealt out in random order; no tile a
 * global constraint bans; then the counts of global constraints met.
 * -1 when no start meets them, or a cell holds a banned tile (a pin on
 * one, or every tile banned there: two borders, or a path and an `at`,
 * that share a cell and no tile). */
static int state_start(const tables *tb, state *st, int *scratch) {
  const tilesat_energy *e = tb->e;
  int T = tb->T;
  st->tile[tb->N] = (uint16_t)T;
  for (int c = 0; c < tb->N; c++)
    if (e->pin_of[c])
      st->tile[c] = (uint16_t)(e->pin_tile[c] < 0 ? T : e->pin_tile[c]);
  if (tb->swaps) {
    start_dealt(tb, st, scratch);
  } else if (tb->wf > 0) { /* counts near the targets from the start */
    start_near_targets(tb, st);
  } else {
    for (int c = 0; c < tb->N; c++)
      if (!e->pin_of[c])
        st->tile[c] = (uint16_t)random_allowed(tb, st, c);
  }
  if (tb->counts) {
    ts_ag_sync(tb->ag, st->ag, st->tile);
    if (ts_ag_meet_counts(tb->ag, st->ag, st->tile, tb->order, tb->norder,
                          &st->r))
      return -1;
  }
  for (int c = 0; c < tb->N; c++)
    if (st->tile[c] < T && banned(tb, c, st->tile[c]))
      return -1;
  state_sync(tb, st, scratch);
  return 0;
}

/* -------------------------------------------------------------- moves */

/* Minus the line-score change of rows and columns through cell c if it
 * held each tile t, relative to holding tile 0 (only differences matter). */
static void add_line_terms(const tables *tb, state *st, int c, float *loc) {
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
local_energies(const tables *tb, state *st, int c, const int nd, const int Tp,
               float *restrict loc) {
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
static inline void set_tile(const tables *tb, state *st, int c, int t,
                            const int nd) {
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
heat_bath(const tables *tb, state *st, int c, float bs, const int nd,
          const int Tp) {
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

static void factors_build(const tables *tb, state *st, float beta) {
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
static void fast_resync(const tables *tb, state *st) {
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
fast_sweep(const tables *tb, state *st, float bs, const int nd, const int Tp,
           const bool avx) {
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

static void sweep_fast_portable(const tables *tb, state *st,
                                float bs){FAST_CASES(false)}

#if FAST_X86
AVX2 static void sweep_fast_avx2(const tables *tb, state *st, float bs) {
  FAST_CASES(true)
}
#endif

static void sweep_fast(const tables *tb, state *st, float bs) {
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
  fast_resync(tb, st);
}

static void sweep_heat_bath(const tables *tb, state *st, float bs) {
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
static float cell_cost(const tables *tb, state *st, int c, int t) {
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
static void sweep_swaps(const tables *tb, state *st, float bs) {
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

static void sweep(const tables *tb, state *st, double beta) {
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
static bool bookkeeping_ok(const tables *tb, const state *st, int *scratch) {
  to_ints(tb, st, scratch);
  if (tilesat_energy_violations(tb->e, scratch) != st->V)
    return false;
  double E = tilesat_energy_eval(tb->e, scratch);
  return fabs(E - st->E) <= 1e-3 * (1 + fabs(E));
}

/* ------------------------------------------------------------ schedule */

/* The automatic schedule: geometric from hot (the largest change one cell
 * can make is accepted with probability 1/2) to cold (the smallest positive
 * change, the smallest nonzero weight, is excited anywhere on the map with
 * probability below 1%: cells * (tiles - 1) * exp(-beta * dE_min) = 0.01),
 * for the hard weight the run starts from (see hard_start). */
static void auto_schedule(const tables *tb, double hard, double *lo,
                          double *hi) {
  const tilesat_energy *e = tb->e;
  const tilesat_map *m = e->map;
  int T = tb->T;
  bool can_violate = false;
  for (int d = 0; d < tb->nd; d++)
    for (size_t i = 0; i < (size_t)T * (size_t)T; i++)
      can_violate |= tb->viol[(size_t)d * (size_t)(T + 1) * T + i];
  double dmin = can_violate ? hard : INFINITY, maxj = 0, maxb = 0;
  for (int t = 0; t < T; t++) {
    double j = fabs(e->coherence[t]);
    maxj = fmax(maxj, j);
    if (j > 0)
      dmin = fmin(dmin, j);
  }
  for (int k = 0; k < e->nregions; k++) {
    double blo = 0, bhi = 0;
    for (int t = 0; t < T; t++) {
      double b = e->region_bias[k * T + t];
      blo = fmin(blo, b);
      bhi = fmax(bhi, b);
      if (b != 0)
        dmin = fmin(dmin, fabs(b));
    }
    maxb = fmax(maxb, bhi - blo);
  }
  if (tb->wf > 0)
    dmin = fmin(dmin, tb->wf);
  if (tb->line)
    dmin = fmin(dmin, e->palindrome);
  if (!isfinite(dmin)) /* nothing to optimise */
    dmin = 1;
  double dmax = tb->nd * ((can_violate ? hard : 0) + maxj) + maxb + 4 * tb->wf;
  if (tb->line)
    dmax += e->palindrome * 2.0 * (m->width > m->height ? m->width : m->height);
  if (tb->swaps)
    dmax *= 2;
  if (dmax <= 0)
    dmax = 1;
  *lo = log(2.0) / dmax;
  double states = 100.0 * (double)m->ncells * (double)(T > 1 ? T - 1 : 1);
  *hi = log(states) / dmin;
  if (*hi < *lo)
    *hi = *lo;
}

/* The hard weight a run starts from.  The default hard weight beats the
 * soft terms' worst case (frequency: 4 * cells per move), which near the
 * targets is orders of magnitude more than they ever change; annealing at
 * that weight freezes the map into whatever legal tiling comes first and
 * the soft terms never get a say.  So with the default weight and soft
 * terms, a run starts at 1 + 2 * (the soft terms' largest single-cell
 * change near the targets), where hard and soft trade off, holds it for
 * 60% of the sweeps and then raises it geometrically to the real weight by
 * 90%: the last 10%, and the energy reported, use the real weight.  What
 * violations are left then go to the SAT clean-up. */
#define LEVELS 100 /* distinct temperatures (and hard weights) in a run */
#define RAMP_START 0.6
#define RAMP_END 0.9

static double hard_start(const tilesat_energy *e) {
  if (!e->hard_default || e->soft_scale <= 0)
    return e->hard;
  return fmin(e->hard, 1 + 2 * e->soft_scale);
}

static double hard_at(const tilesat_energy *e, double h0, long sw,
                      long sweeps) {
  double x = (double)sw / (double)sweeps;
  if (h0 >= e->hard || x >= RAMP_END)
    return e->hard;
  if (x <= RAMP_START)
    return h0;
  return h0 * pow(e->hard / h0, (x - RAMP_START) / (RAMP_END - RAMP_START));
}

/* Change every replica's hard weight (tables and running energies). */
static void set_hard(tables *tb, state *reps, int K, double hard) {
  if (hard == tb->hard)
    return;
  for (int k = 0; k < K; k++)
    reps[k].E += (hard - tb->hard) * hard_units(tb, &reps[k]);
  tables_set_hard(tb, hard);
}

/* ---------------------------------------------------------------- runs */

/* CPU time of the calling thread: the sampler runs on one core, and on a
 * shared machine wall time would measure the neighbours. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Violated adjacencies plus broken global constraints. */
static long violations(const tilesat_energy *e, const int *tiles) {
  char why[8];
  return tilesat_energy_violations(e, tiles) +
         ts_globals_broken(e->map, tiles, why, sizeof why);
}

/* After a clean-up: the SAT backend fills what it re-solves without regard
 * to the soft terms (with a frequency term the counts drift by hundreds on
 * a 100x100 map).  A few
 * cold sweeps at the real hard weight (no violation can come back: at the
 * coldest beta its factor is 0 in the table) pull them back where legal
 * moves allow.  The map only changes if the energy goes down. */
static void polish(const tilesat_energy *e, int *tiles, uint64_t seed,
                   long sweeps, double beta) {
  tables tb;
  tables_init(&tb, e);
  state st;
  state_init(&st, &tb);
  ts_rng_seed(&st.r, seed, 0x706f6c697368u);
  int *scratch = ts_malloc((size_t)tb.N * sizeof *scratch);
  st.tile[tb.N] = (uint16_t)tb.T;
  for (int c = 0; c < tb.N; c++)
    st.tile[c] = (uint16_t)(tiles[c] < 0 ? tb.T : tiles[c]);
  state_sync(&tb, &st, scratch);
  double E0 = st.E;
  for (long sw = 0; sw < sweeps; sw++)
    sweep(&tb, &st, beta);
  to_ints(&tb, &st, scratch);
  if (violations(e, scratch) == 0 && tilesat_energy_eval(e, scratch) < E0)
    memcpy(tiles, scratch, (size_t)tb.N * sizeof *tiles);
  free(scratch);
  state_free(&st);
  tables_free(&tb);
}

void tilesat_anneal_defaults(tilesat_anneal_opts *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->sweeps = 1000;
  o->restarts = 1;
  o->replicas = 1;
  o->cleanup = true;
  o->stop_at_zero = true;
  o->solve.backend = TILESAT_PICOSAT;
}

/* What one call of tilesat_anneal carries from sweep to sweep. */
typedef struct annealer {
  const tilesat_energy *e;
  const tilesat_anneal_opts *opts;
  tilesat_anneal_stats *s;
  tables tb;
  state *reps; /* the replicas, coldest first */
  int K, restarts;
  long sweeps;
  double h0, blo, bhi; /* starting hard weight, schedule */
  double t0, bestE;
  uint16_t *best;   /* the best map so far, at the real hard weight */
  uint16_t *solved; /* the SAT backend's start, once one was needed */
  int *scratch;
} annealer;

/* replica k runs at beta * LADDER^k: a hotter copy every 30% */
#define LADDER 0.7

static int check_opts(const tilesat_energy *e, const tilesat_anneal_opts *opts,
                      tilesat_error *err) {
  if (e->ntiles > 65534) {
    ts_error(err, NULL, 0, "anneal handles at most 65534 tiles, not %d",
             e->ntiles);
    return -1;
  }
  if (opts->beta_lo < 0 || opts->beta_hi < opts->beta_lo ||
      !isfinite(opts->beta_hi)) {
    ts_error(err, "--beta", 0, "the schedule needs 0 < LO <= HI");
    return -1;
  }
  return 0;
}

static void annealer_init(annealer *a, const tilesat_energy *e,
                          const tilesat_anneal_opts *opts,
                          tilesat_anneal_stats *s) {
  memset(a, 0, sizeof *a);
  a->e = e;
  a->opts = opts;
  a->s = s;
  a->sweeps = opts->sweeps > 0 ? opts->sweeps : 1000;
  a->restarts = opts->restarts > 0 ? opts->restarts : 1;
  a->K = opts->replicas > 0 ? opts->replicas : 1;
  tables_init(&a->tb, e);
  a->h0 = hard_start(e);
  a->blo = opts->beta_lo;
  a->bhi = opts->beta_hi;
  if (a->blo <= 0 || a->bhi <= 0)
    auto_schedule(&a->tb, a->h0, &a->blo, &a->bhi);
  s->beta_lo = a->blo;
  s->beta_hi = a->bhi;
  a->scratch = ts_malloc((size_t)a->tb.N * sizeof *a->scratch);
  a->best = ts_malloc((size_t)a->tb.N * sizeof *a->best);
  a->bestE = INFINITY;
  a->reps = ts_calloc((size_t)a->K, sizeof *a->reps);
  for (int k = 0; k < a->K; k++)
    state_init(&a->reps[k], &a->tb);
  a->t0 = now();
}

static void annealer_free(annealer *a) {
  for (int k = 0; k < a->K; k++)
    state_free(&a->reps[k]);
  free(a->reps);
  free(a->best);
  free(a->solved);
  free(a->scratch);
  tables_free(&a->tb);
}

/* Swap neighbouring replicas by the Metropolis rule on their energies. */
static void exchange(annealer *a, double beta) {
  state *reps = a->reps;
  for (int k = 0; k + 1 < a->K; k++) {
    double b1 = beta * pow(LADDER, k), b2 = b1 * LADDER;
    double x = (b1 - b2) * (reps[k].E - reps[k + 1].E);
    if (x >= 0 || ts_rng_float(&reps[0].r) < exp(x)) {
      state tmp = reps[k];
      reps[k] = reps[k + 1];
      reps[k + 1] = tmp;
    }
  }
}

/* Note the first zero and the best map; true when a replica is at zero
 * violations with nothing soft left to optimise (and that may stop). */
static bool keep_best(annealer *a) {
  const tilesat_energy *e = a->e;
  tilesat_anneal_stats *s = a->s;
  bool stop = false;
  for (int k = 0; k < a->K; k++) {
    const state *r = &a->reps[k];
    bool zero = r->V == 0 && (!r->ag || ts_ag_missing(r->ag) == 0);
    if (zero && s->zero_sweep < 0) {
      s->zero_sweep = s->sweeps_done;
      s->zero_seconds = now() - a->t0;
    }
    /* judged at the real hard weight */
    double Et = r->E + (e->hard - a->tb.hard) * hard_units(&a->tb, r);
    if (Et < a->bestE) {
      a->bestE = Et;
      memcpy(a->best, r->tile, (size_t)a->tb.N * sizeof *a->best);
    }
    if (zero && !a->tb.soft && a->opts->stop_at_zero)
      stop = true;
  }
  return stop;
}

/* Sweep `sw` of run `run` over every replica; true to stop the run. */
static bool anneal_sweep(annealer *a, int run, long sw) {
  const tilesat_energy *e = a->e;
  const tilesat_anneal_opts *opts = a->opts;
  long sweeps = a->sweeps;
  /* the schedule moves in LEVELS steps, so the factor tables stay valid
   * for a few sweeps at a time */
  long lv = sweeps > LEVELS ? sw * LEVELS / sweeps : sw;
  long nlv = sweeps > LEVELS ? LEVELS : sweeps;
  double beta =
      nlv > 1 ? a->blo * pow(a->bhi / a->blo, (double)lv / (double)(nlv - 1))
              : a->bhi;
  set_hard(&a->tb, a->reps, a->K, hard_at(e, a->h0, lv, nlv));
  for (int k = 0; k < a->K; k++)
    sweep(&a->tb, &a->reps[k], beta * pow(LADDER, k));
  a->s->sweeps_done++;
  /* with counts, a sweep of swaps after each heat-bath sweep */
  a->s->site_updates +=
      (double)a->tb.norder * a->K * (a->tb.counts && !a->tb.swaps ? 2 : 1);
  exchange(a, beta);
  bool stop = keep_best(a);
  long report = sweeps / 20 > 0 ? sweeps / 20 : 1;
  const state *r0 = &a->reps[0];
  if (opts->progress && ((sw + 1) % report == 0 || stop))
    opts->progress(opts->progress_user, run, sw + 1, beta,
                   r0->E + (e->hard - a->tb.hard) * hard_units(&a->tb, r0),
                   r0->V);
  return stop;
}

/* Replica st's start: state_start's, or when that cannot meet the global
 * constraints, the whole map solved by the SAT backend with every
 * constraint (once; every later run starts there too).  TILESAT_SAT,
 * TILESAT_UNSAT (no valid map exists; a->best holds the start that failed)
 * or -1 (err). */
static int start(annealer *a, state *st, tilesat_error *err) {
  const tables *tb = &a->tb;
  int N = tb->N, T = tb->T;
  if (!a->solved && state_start(tb, st, a->scratch) == 0)
    return TILESAT_SAT;
  if (!a->solved) {
    to_ints(tb, st, a->scratch);
    int res = ts_anneal_solve_whole(a->e, &a->opts->solve, a->scratch, err);
    if (res < 0)
      return -1;
    a->s->sat_start = res;
    if (res == TILESAT_UNSAT) {
      memcpy(a->best, st->tile, (size_t)N * sizeof *a->best);
      return res;
    }
    a->solved = ts_malloc((size_t)N * sizeof *a->solved);
    for (int c = 0; c < N; c++)
      a->solved[c] = (uint16_t)(a->scratch[c] < 0 ? T : a->scratch[c]);
  }
  memcpy(st->tile, a->solved, (size_t)N * sizeof *st->tile);
  st->tile[N] = (uint16_t)T;
  state_sync(tb, st, a->scratch);
  return TILESAT_SAT;
}

/* How the runs ended. */
typedef enum {
  RUNS_DONE,
  RUNS_BAD,
  RUNS_INTERRUPTED,
  RUNS_UNSAT,
  RUNS_ERROR
} runs_end;

/* Every restart from its own seed stream; RUNS_BAD if a replica's running
 * bookkeeping disagrees with a fresh evaluation.  The terminate of the
 * solve options (Ctrl-C) ends the sweeps too. */
static runs_end anneal_runs(annealer *a, tilesat_error *err) {
  for (int run = 0; run < a->restarts; run++) {
    for (int k = 0; k < a->K; k++) {
      ts_rng_seed(&a->reps[k].r, a->opts->seed,
                  (uint64_t)run * 64 + (uint64_t)k);
      int res = start(a, &a->reps[k], err);
      if (res != TILESAT_SAT)
        return res == TILESAT_UNSAT ? RUNS_UNSAT : RUNS_ERROR;
    }
    bool stop = false;
    for (long sw = 0; sw < a->sweeps && !stop; sw++) {
      if (ts_terminated(&a->opts->solve))
        return RUNS_INTERRUPTED;
      stop = anneal_sweep(a, run, sw);
    }
    set_hard(&a->tb, a->reps, a->K, a->e->hard);
    for (int k = 0; k < a->K; k++)
      if (!bookkeeping_ok(&a->tb, &a->reps[k], a->scratch))
        return RUNS_BAD;
  }
  return RUNS_DONE;
}

/* Refuse a map whose annealing would not fit its bound, before it starts:
 * a cell's energy tables (pin, tile, region: 6 bytes), neighbours and
 * order (4 * (dirs + 1)), the best map and a scratch one (8), the
 * caller's two maps (8), and per replica its map and uniforms (8) and a
 * connected or path constraint's regions (44 bytes each); twice that, for
 * what the preparation and the clean-up keep beside it (the clean-up's
 * solver is bounded on its own, cleanup.c).  0, or -1 with err. */
static int anneal_refuse(const tilesat_map *m, int replicas,
                         tilesat_error *err) {
  double joins = 0;
  for (size_t i = 0; i < m->globals.n; i++)
    joins += ts_global_lazy(&m->globals.v[i]);
  double per_cell = 2 * (6 + 4.0 * (m->rules->ndirs + 1) + 8 + 8 +
                         replicas * (8 + (joins ? 4 : 0) + 44 * joins));
  return ts_memory_refuse(m, per_cell * m->ncells, 0, "anneal", err);
}

int tilesat_anneal_fits(const tilesat_map *m, const tilesat_anneal_opts *opts,
                        tilesat_error *err) {
  if (!m || !opts)
    ts_misuse(__func__, "NULL argument");
  return anneal_refuse(m, opts->replicas > 0 ? opts->replicas : 1, err);
}

int tilesat_anneal(const tilesat_energy *e, const tilesat_anneal_opts *opts,
                   int *tiles, tilesat_anneal_stats *stats,
                   tilesat_error *err) {
  if (!e || !opts || !tiles)
    ts_misuse(__func__, "NULL argument");
  if (!e->prepared)
    ts_misuse(__func__, "energy not prepared");
  tilesat_anneal_stats st0;
  tilesat_anneal_stats *s = stats ? stats : &st0;
  memset(s, 0, sizeof *s);
  s->zero_sweep = -1;
  s->zero_seconds = -1;
  if (check_opts(e, opts, err) || tilesat_anneal_fits(e->map, opts, err))
    return -1;
  annealer a;
  annealer_init(&a, e, opts, s);
  runs_end end = anneal_runs(&a, err);
  s->seconds = now() - a.t0;
  int N = a.tb.N;
  for (int c = 0; c < N; c++)
    tiles[c] = a.best[c] < a.tb.T ? a.best[c] : TILESAT_NO_TILE;
  long sweeps = a.sweeps;
  double bhi = a.bhi;
  annealer_free(&a);
  if (end == RUNS_ERROR)
    return -1;
  if (end == RUNS_INTERRUPTED) {
    ts_error(err, "anneal", 0, "interrupted");
    return -1;
  }
  if (end == RUNS_BAD) {
    ts_error(err, NULL, 0,
             "internal error: the sampler's running energy or violation "
             "count disagrees with a fresh evaluation");
    return -1;
  }
  s->violations_annealed = violations(e, tiles);
  if (opts->annealed)
    memcpy(opts->annealed, tiles, (size_t)N * sizeof *tiles);
  if (end == RUNS_UNSAT) /* the start's whole-map solve: no valid map */
    s->cleanup_result = TILESAT_UNSAT;
  else if (s->violations_annealed > 0 && opts->cleanup) {
    if (ts_anneal_cleanup(e, &opts->solve, tiles, s, err) < 0)
      return -1;
    if (s->cleaned_cells > 0 && e->soft_scale > 0 && !e->exact)
      polish(e, tiles, opts->seed, sweeps / 10 + 1, bhi);
  }
  s->energy = tilesat_energy_eval(e, tiles);
  s->violations = violations(e, tiles);
  return 0;
}
