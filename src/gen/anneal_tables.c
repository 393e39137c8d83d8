/* anneal_tables.c: what every run of the annealer shares (pair costs,
 * neighbours, colours, which kernel), and a replica's state and start.
 * See anneal.c. */
#include "gen/anneal_internal.h"

/* --------------------------------------------------------------- tables */

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
static void tables_plain(ts_anneal_tables *tb) {
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
static void tables_neighbours(ts_anneal_tables *tb) {
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
static void tables_violations(ts_anneal_tables *tb) {
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
static void tables_colours(ts_anneal_tables *tb) {
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
static void tables_kernel(ts_anneal_tables *tb) {
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

void ts_an_tables_init(ts_anneal_tables *tb, const tilesat_energy *e) {
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
  ts_an_tables_set_hard(tb, e->hard);
}

/* The pair costs at hard weight `hard` (the sampler raises it over a run,
 * see tilesat_anneal), with the self-loop costs folded into the bias. */
void ts_an_tables_set_hard(ts_anneal_tables *tb, double hard) {
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

void ts_an_tables_free(ts_anneal_tables *tb) {
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

void ts_an_state_init(ts_anneal_state *st, const ts_anneal_tables *tb) {
  *st =
      (ts_anneal_state){0}; /* the fast kernel's tables stay NULL without it */
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

void ts_an_state_free(ts_anneal_state *st) {
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

void ts_an_to_ints(const ts_anneal_tables *tb, const ts_anneal_state *st,
                   int *out) {
  for (int c = 0; c < tb->N; c++)
    out[c] = st->tile[c] < tb->T ? st->tile[c] : TILESAT_NO_TILE;
}

/* Missing joins times their share of the hard weight plus violations: what
 * the energy gains per unit of hard weight. */
double ts_an_hard_units(const ts_anneal_tables *tb, const ts_anneal_state *st) {
  return (double)st->V +
         (st->ag ? tb->cratio * (double)ts_ag_missing(st->ag) : 0);
}

/* Counts, fq, E and V from the tiles. */

void ts_an_state_sync(const ts_anneal_tables *tb, ts_anneal_state *st,
                      int *scratch) {
  const tilesat_energy *e = tb->e;
  memset(st->count, 0, (size_t)tb->T * sizeof *st->count);
  for (int c = 0; c < tb->N; c++)
    st->count[st->tile[c]]++;
  for (int t = 0; t < tb->T; t++)
    st->fq[t] = tb->wf * (float)(2 * (st->count[t] - e->target[t]) + 1);
  if (st->ag)
    ts_ag_sync(tb->ag, st->ag, st->tile);
  if (tb->fast) { /* what every sweep does (the same sums, cheaper) */
    ts_an_fast_resync(tb, st);
    return;
  }
  ts_an_to_ints(tb, st, scratch);
  st->E = tilesat_energy_eval(e, scratch);
  st->V = tilesat_energy_violations(e, scratch);
}

/* A tile global constraints allow at cell c, uniformly. */
static int random_allowed(const ts_anneal_tables *tb, ts_anneal_state *st,
                          int c) {
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

static bool banned(const ts_anneal_tables *tb, int c, int t) {
  return tb->e->region_ban[tb->e->region[c] * tb->T + t];
}

/* Dealt tiles on cells that ban them: swapped with a free cell where both
 * are allowed (the counts stay). */
static void deal_bans(const ts_anneal_tables *tb, ts_anneal_state *st) {
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
static void start_dealt(const ts_anneal_tables *tb, ts_anneal_state *st,
                        int *scratch) {
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
static void start_near_targets(const ts_anneal_tables *tb,
                               ts_anneal_state *st) {
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
int ts_an_state_start(const ts_anneal_tables *tb, ts_anneal_state *st,
                      int *scratch) {
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
  ts_an_state_sync(tb, st, scratch);
  return 0;
}
