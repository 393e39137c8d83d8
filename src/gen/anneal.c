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
#include "gen/anneal_internal.h"

/* ------------------------------------------------------------ schedule */

/* The automatic schedule: geometric from hot (the largest change one cell
 * can make is accepted with probability 1/2) to cold (the smallest positive
 * change, the smallest nonzero weight, is excited anywhere on the map with
 * probability below 1%: cells * (tiles - 1) * exp(-beta * dE_min) = 0.01),
 * for the hard weight the run starts from (see hard_start). */
static void auto_schedule(const ts_anneal_tables *tb, double hard, double *lo,
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
static void set_hard(ts_anneal_tables *tb, ts_anneal_state *reps, int K,
                     double hard) {
  if (hard == tb->hard)
    return;
  for (int k = 0; k < K; k++)
    reps[k].E += (hard - tb->hard) * ts_an_hard_units(tb, &reps[k]);
  ts_an_tables_set_hard(tb, hard);
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
  ts_anneal_tables tb;
  ts_an_tables_init(&tb, e);
  ts_anneal_state st;
  ts_an_state_init(&st, &tb);
  ts_rng_seed(&st.r, seed, 0x706f6c697368u);
  int *scratch = ts_malloc((size_t)tb.N * sizeof *scratch);
  st.tile[tb.N] = (uint16_t)tb.T;
  for (int c = 0; c < tb.N; c++)
    st.tile[c] = (uint16_t)(tiles[c] < 0 ? tb.T : tiles[c]);
  ts_an_state_sync(&tb, &st, scratch);
  double E0 = st.E;
  for (long sw = 0; sw < sweeps; sw++)
    ts_an_sweep(&tb, &st, beta);
  ts_an_to_ints(&tb, &st, scratch);
  if (violations(e, scratch) == 0 && tilesat_energy_eval(e, scratch) < E0)
    memcpy(tiles, scratch, (size_t)tb.N * sizeof *tiles);
  free(scratch);
  ts_an_state_free(&st);
  ts_an_tables_free(&tb);
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
  ts_anneal_tables tb;
  ts_anneal_state *reps; /* the replicas, coldest first */
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
    ts_error_param(err, "beta", "the schedule needs 0 < LO <= HI");
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
  ts_an_tables_init(&a->tb, e);
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
    ts_an_state_init(&a->reps[k], &a->tb);
  a->t0 = now();
}

static void annealer_free(annealer *a) {
  for (int k = 0; k < a->K; k++)
    ts_an_state_free(&a->reps[k]);
  free(a->reps);
  free(a->best);
  free(a->solved);
  free(a->scratch);
  ts_an_tables_free(&a->tb);
}

/* Swap neighbouring replicas by the Metropolis rule on their energies. */
static void exchange(annealer *a, double beta) {
  ts_anneal_state *reps = a->reps;
  for (int k = 0; k + 1 < a->K; k++) {
    double b1 = beta * pow(LADDER, k), b2 = b1 * LADDER;
    double x = (b1 - b2) * (reps[k].E - reps[k + 1].E);
    if (x >= 0 || ts_rng_float(&reps[0].r) < exp(x)) {
      ts_anneal_state tmp = reps[k];
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
    const ts_anneal_state *r = &a->reps[k];
    bool zero = r->V == 0 && (!r->ag || ts_ag_missing(r->ag) == 0);
    if (zero && s->zero_sweep < 0) {
      s->zero_sweep = s->sweeps_done;
      s->zero_seconds = now() - a->t0;
    }
    /* judged at the real hard weight */
    double Et = r->E + (e->hard - a->tb.hard) * ts_an_hard_units(&a->tb, r);
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
    ts_an_sweep(&a->tb, &a->reps[k], beta * pow(LADDER, k));
  a->s->sweeps_done++;
  /* with counts, a sweep of swaps after each heat-bath sweep */
  a->s->site_updates +=
      (double)a->tb.norder * a->K * (a->tb.counts && !a->tb.swaps ? 2 : 1);
  exchange(a, beta);
  bool stop = keep_best(a);
  long report = sweeps / 20 > 0 ? sweeps / 20 : 1;
  const ts_anneal_state *r0 = &a->reps[0];
  if (opts->progress && ((sw + 1) % report == 0 || stop))
    opts->progress(
        opts->progress_user, run, sw + 1, beta,
        r0->E + (e->hard - a->tb.hard) * ts_an_hard_units(&a->tb, r0), r0->V);
  return stop;
}

/* Replica st's start: state_start's, or when that cannot meet the global
 * constraints, the whole map solved by the SAT backend with every
 * constraint (once; every later run starts there too).  TILESAT_SAT,
 * TILESAT_UNSAT (no valid map exists; a->best holds the start that failed)
 * or -1 (err). */
static int start(annealer *a, ts_anneal_state *st, tilesat_error *err) {
  const ts_anneal_tables *tb = &a->tb;
  int N = tb->N, T = tb->T;
  if (!a->solved && ts_an_state_start(tb, st, a->scratch) == 0)
    return TILESAT_SAT;
  if (!a->solved) {
    ts_an_to_ints(tb, st, a->scratch);
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
  ts_an_state_sync(tb, st, a->scratch);
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
      if (!ts_an_bookkeeping_ok(&a->tb, &a->reps[k], a->scratch))
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
