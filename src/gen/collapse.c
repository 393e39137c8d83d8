/* collapse.c: Wave Function Collapse as mxgmn's reference runs it, on
 * tilesat's rules, so that a designer sees in tilesat the run WFC makes.
 *
 * The wave is every cell's set of possible tiles.  A run observes one
 * undecided cell at a time (the one of lowest Shannon entropy of its tile
 * weights, ties broken at random by a tiny noise as the reference does; or
 * fewest tiles; or reading order), chooses its tile at random in proportion
 * to weight, and propagates: arc consistency, AC-4 style.  support[c][t][e]
 * counts the tiles still possible in c's neighbour in direction e that
 * allow t at c; when a tile u leaves cell n, every tile t it supported in a
 * neighbour c loses one, and a tile left with no support is banned in turn.
 * That is exactly unit propagation on the support clauses of the CNF, i.e.
 * the propagation `trace` shows, at a constant cost per (removal, supported
 * tile).  A cell left with no tile is a contradiction: the run fails, as
 * WFC's does (WFC would restart).  Bans (tilesat_map_ban: WFC's ground)
 * and pins are applied before the first observation.
 *
 * Entropy, as the reference keeps it per cell: log(sum w) - sum(w log w) /
 * sum w over the possible tiles, updated on every ban.  A tile of weight 0
 * is never chosen unless every possible tile has weight 0 (then uniformly).
 *
 * The observation scans every cell, as the reference does: O(cells) a step,
 * so O(cells^2) a run.
 *
 * The guard (--guard sat) keeps a SAT solver on the map's CNF and one
 * completion of the choices made so far (a model).  A choice the model
 * agrees with needs no call: the model completes it.  Any other is solved
 * under all the choices as assumptions: SAT moves the model; UNSAT proves
 * that no valid map has that tile there, so it is banned like a tile that
 * propagation removed, and the cell draws again from what is left.  The
 * model's tiles always stay possible (a valid map never loses support), so
 * a guarded run never hits a contradiction, and a run on rules and pins
 * with no valid map at all ends UNSAT.
 */
#include "core/rng.h"
#include "gen/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair {
  int cell, tile;
} pair;

struct tilesat_collapse {
  const tilesat_map *m;
  int T, D, N;
  int *nbr;          /* [cell][dir]: neighbour or -1 */
  int *opp;          /* [dir]: the opposite direction */
  int **supp_list;   /* [dir][tile]: tiles allowed in dir of tile */
  int *supp_len;     /* [dir][tile] */
  uint16_t *support; /* [cell][tile][dir] */
  uint8_t *possible; /* [cell][tile] */
  int *count;        /* [cell]: possible tiles */
  double *sum_w, *sum_wlogw, *entropy; /* [cell] */
  double *w, *wlogw;                   /* [tile] */
  TS_VEC(pair) stack;
  TS_VEC(pair) choices;
  int contradiction; /* the cell left empty, or -1 */
  int scan;          /* scanline: no undecided cell before this one */
  ts_rng rng;
  /* the guard, made at the first guarded run */
  ts_solver *solver;
  tilesat_solve_options solve; /* what the solver was made with */
  int *model;                  /* [cell]: a completion of the choices so far */
  ts_ints assumed;             /* the choices as literals */
  long banned, calls;          /* of the last run */
  /* why the last run failed (tilesat_collapse_explain) */
  long no_return;
  TS_VEC(size_t) doomed;
};

static void precompute_pairs(tilesat_collapse *c) {
  const tilesat_rules *r = c->m->rules;
  int T = c->T, D = c->D;
  c->supp_list = ts_calloc((size_t)D * (size_t)T, sizeof *c->supp_list);
  c->supp_len = ts_calloc((size_t)D * (size_t)T, sizeof *c->supp_len);
  int *buf = ts_malloc((size_t)T * sizeof *buf);
  for (int d = 0; d < D; d++)
    for (int a = 0; a < T; a++) {
      const uint64_t *set = ts_allowed(r, a, d);
      int n = 0;
      for (int b = 0; b < T; b++)
        if (ts_bit(set, b))
          buf[n++] = b;
      size_t k = (size_t)d * (size_t)T + (size_t)a;
      c->supp_len[k] = n;
      c->supp_list[k] = ts_malloc(((size_t)n + 1) * sizeof *buf);
      memcpy(c->supp_list[k], buf, (size_t)n * sizeof *buf);
    }
  free(buf);
}

tilesat_collapse *tilesat_collapse_new(const tilesat_map *m,
                                       tilesat_error *err) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  int T = m->rules->ntiles, D = m->rules->ndirs, N = m->ncells;
  if (T > 65535) {
    ts_error(err, "collapse", 0, "at most 65535 tiles, not %d", T);
    return NULL;
  }
  tilesat_collapse *c = ts_calloc(1, sizeof *c);
  c->m = m;
  c->T = T;
  c->D = D;
  c->N = N;
  c->nbr = ts_malloc((size_t)N * (size_t)D * sizeof *c->nbr);
  for (int cell = 0; cell < N; cell++)
    for (int d = 0; d < D; d++)
      c->nbr[(size_t)cell * (size_t)D + (size_t)d] =
          ts_map_neighbor(m, cell, d);
  c->opp = ts_malloc((size_t)D * sizeof *c->opp);
  for (int d = 0; d < D; d++)
    c->opp[d] = tilesat_dir_opposite(m->topo, d);
  precompute_pairs(c);
  size_t NT = (size_t)N * (size_t)T;
  c->support = ts_malloc(NT * (size_t)D * sizeof *c->support);
  c->possible = ts_malloc(NT);
  c->count = ts_malloc((size_t)N * sizeof *c->count);
  c->sum_w = ts_malloc((size_t)N * sizeof *c->sum_w);
  c->sum_wlogw = ts_malloc((size_t)N * sizeof *c->sum_wlogw);
  c->entropy = ts_malloc((size_t)N * sizeof *c->entropy);
  c->w = ts_malloc((size_t)T * sizeof *c->w);
  c->wlogw = ts_malloc((size_t)T * sizeof *c->wlogw);
  for (int t = 0; t < T; t++) {
    c->w[t] = (double)m->rules->weight[t];
    c->wlogw[t] = c->w[t] > 0 ? c->w[t] * log(c->w[t]) : 0;
  }
  return c;
}

void tilesat_collapse_free(tilesat_collapse *c) {
  if (!c)
    return;
  for (size_t k = 0; k < (size_t)c->D * (size_t)c->T; k++)
    free(c->supp_list[k]);
  free(c->supp_list);
  free(c->supp_len);
  free(c->nbr);
  free(c->opp);
  free(c->support);
  free(c->possible);
  free(c->count);
  free(c->sum_w);
  free(c->sum_wlogw);
  free(c->entropy);
  free(c->w);
  free(c->wlogw);
  free(c->stack.v);
  free(c->choices.v);
  ts_solver_free(c->solver);
  free(c->model);
  free(c->assumed.v);
  free(c->doomed.v);
  free(c);
}

static double entropy_of(double sum_w, double sum_wlogw) {
  return sum_w > 0 ? log(sum_w) - sum_wlogw / sum_w : 0;
}

/* Remove tile t from cell; a cell left empty is the contradiction. */
static void ban(tilesat_collapse *c, int cell, int t) {
  size_t k = (size_t)cell * (size_t)c->T + (size_t)t;
  c->possible[k] = 0;
  TS_PUSH(c->stack, ((pair){cell, t}));
  c->count[cell]--;
  c->sum_w[cell] -= c->w[t];
  c->sum_wlogw[cell] -= c->wlogw[t];
  c->entropy[cell] = entropy_of(c->sum_w[cell], c->sum_wlogw[cell]);
  if (c->count[cell] == 0 && c->contradiction < 0)
    c->contradiction = cell;
}

/* Tile u left cell n: the tiles it allowed in n's neighbours lose one
 * support each; a tile left with none is banned.  Until the stack is
 * empty or a cell is empty. */
static void propagate(tilesat_collapse *c) {
  const int T = c->T, D = c->D;
  while (c->stack.n && c->contradiction < 0) {
    pair p = c->stack.v[--c->stack.n];
    for (int d = 0; d < D; d++) {
      int cell = c->nbr[(size_t)p.cell * (size_t)D + (size_t)d];
      if (cell < 0)
        continue;
      /* cell sees n in direction e = opp(d); t at cell lost u's support */
      size_t k = (size_t)d * (size_t)T + (size_t)p.tile;
      const int *list = c->supp_list[k];
      int e = c->opp[d];
      for (int i = 0; i < c->supp_len[k]; i++) {
        int t = list[i];
        size_t ct = (size_t)cell * (size_t)T + (size_t)t;
        uint16_t *s = &c->support[ct * (size_t)D + (size_t)e];
        if (--*s == 0 && c->possible[ct])
          ban(c, cell, t);
      }
    }
  }
}

/* Every tile possible everywhere, then the tiles with no support where a
 * neighbour exists and the map's bans, then the pins. */
static void start(tilesat_collapse *c, uint64_t seed) {
  const tilesat_map *m = c->m;
  const int T = c->T, D = c->D, N = c->N;
  ts_rng_seed(&c->rng, seed, 0x636f6cu);
  double sw = 0, swl = 0;
  for (int t = 0; t < T; t++) {
    sw += c->w[t];
    swl += c->wlogw[t];
  }
  memset(c->possible, 1, (size_t)N * (size_t)T);
  c->stack.n = c->choices.n = c->doomed.n = 0;
  c->banned = c->calls = 0;
  c->no_return = -1;
  c->contradiction = -1;
  c->scan = 0;
  for (int cell = 0; cell < N; cell++) {
    c->count[cell] = T;
    c->sum_w[cell] = sw;
    c->sum_wlogw[cell] = swl;
    c->entropy[cell] = entropy_of(sw, swl);
    for (int t = 0; t < T; t++)
      for (int d = 0; d < D; d++)
        c->support[((size_t)cell * (size_t)T + (size_t)t) * (size_t)D +
                   (size_t)d] = (uint16_t)c->supp_len[d * T + t];
  }
  for (int cell = 0; cell < N && c->contradiction < 0; cell++)
    for (int t = 0; t < T; t++)
      for (int d = 0; d < D; d++)
        if (c->nbr[(size_t)cell * (size_t)D + (size_t)d] >= 0 &&
            c->supp_len[d * T + t] == 0 &&
            c->possible[(size_t)cell * (size_t)T + (size_t)t]) {
          ban(c, cell, t);
          break;
        }
  for (size_t i = 0; i < m->bans.n && c->contradiction < 0; i++) {
    size_t k =
        (size_t)m->bans.v[i].cell * (size_t)T + (size_t)m->bans.v[i].tile;
    if (c->possible[k])
      ban(c, m->bans.v[i].cell, m->bans.v[i].tile);
  }
  propagate(c);
  for (size_t i = 0; i < m->pins.n && c->contradiction < 0; i++) {
    int cell = m->pins.v[i].cell, keep = m->pins.v[i].tile;
    for (int t = 0; t < T; t++)
      if (t != keep && c->possible[(size_t)cell * (size_t)T + (size_t)t])
        ban(c, cell, t);
    propagate(c);
  }
}

/* The undecided cell to observe next, or -1 when every cell is decided. */
static int next_cell(tilesat_collapse *c, tilesat_heuristic h) {
  if (h == TILESAT_HEURISTIC_SCANLINE) {
    while (c->scan < c->N && c->count[c->scan] <= 1)
      c->scan++;
    return c->scan < c->N ? c->scan : -1;
  }
  /* the reference's tie-break: a fresh noise for each cell that could win */
  int best = -1;
  double min = 1e4;
  for (int cell = 0; cell < c->N; cell++) {
    if (c->count[cell] <= 1)
      continue;
    double x =
        h == TILESAT_HEURISTIC_MRV ? (double)c->count[cell] : c->entropy[cell];
    if (x <= min) {
      double noise = 1e-6 * ts_rng_double(&c->rng);
      if (x + noise < min) {
        min = x + noise;
        best = cell;
      }
    }
  }
  return best;
}

/* A tile of cell, in proportion to weight (uniformly if all weigh 0). */
static int choose(tilesat_collapse *c, int cell) {
  const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
  double total = c->sum_w[cell];
  bool uniform = !(total > 0);
  double r = ts_rng_double(&c->rng) * (uniform ? c->count[cell] : total);
  int last = -1;
  for (int t = 0; t < c->T; t++) {
    if (!poss[t])
      continue;
    last = t;
    r -= uniform ? 1 : c->w[t];
    if (r < 0)
      return t;
  }
  return last; /* rounding left r at or above the total */
}

/* The model of the guard's last SAT answer, as tiles. */
static void read_model(tilesat_collapse *c) {
  for (int cell = 0; cell < c->N; cell++)
    for (int t = 0; t < c->T; t++)
      if (ts_solver_value(c->solver, ts_var(c->m, cell, t))) {
        c->model[cell] = t;
        break;
      }
}

/* The guard's solver on the whole map, made once, within the map's memory
 * bound (--max-memory).  0, or -1 with err. */
static int make_solver(tilesat_collapse *c, const tilesat_solve_options *so,
                       tilesat_error *err) {
  tilesat_solve_options want = ts_solve_for(c->m, so);
  const tilesat_solve_options *had = &c->solve;
  if (c->solver && want.backend == had->backend &&
      want.terminate == had->terminate &&
      want.terminate_user == had->terminate_user &&
      want.progress == had->progress &&
      want.progress_user == had->progress_user)
    return 0; /* the same options: the solver (and what it learnt) stays */
  ts_solver_free(c->solver);
  free(c->model);
  c->solver = NULL;
  c->model = NULL;
  c->solve = want;
  double beside = (double)c->N * sizeof *c->model;
  if (ts_memory_check(c->m, so, beside, "collapse", err))
    return -1;
  c->solver = ts_solver_for_map(c->m, so);
  c->model = ts_malloc((size_t)c->N * sizeof *c->model);
  return 0;
}

/* Solve under the choices so far, plus `lit` when not 0: TILESAT_SAT (the
 * model moved), TILESAT_UNSAT, or -1 with err (interrupted, no answer). */
static int guard_solve(tilesat_collapse *c, int lit, tilesat_error *err) {
  for (size_t i = 0; i < c->assumed.n; i++)
    ts_solver_assume(c->solver, c->assumed.v[i]);
  if (lit)
    ts_solver_assume(c->solver, lit);
  c->calls++;
  int res = ts_solver_solve(c->solver);
  if (res == TILESAT_SAT)
    read_model(c);
  else if (res != TILESAT_UNSAT)
    res = ts_solver_unknown(c->solver, "collapse", err);
  return res;
}

/* Before the first choice: a solver on the map (made once), and a first
 * completion.  TILESAT_SAT, TILESAT_UNSAT (no valid map), or -1. */
static int guard_start(tilesat_collapse *c, const tilesat_solve_options *so,
                       tilesat_error *err) {
  if (make_solver(c, so, err))
    return -1;
  c->assumed.n = 0;
  c->banned = c->calls = 0;
  return guard_solve(c, 0, err);
}

/* May `t` stand at `cell` with the choices so far?  1 yes, 0 no (proved),
 * -1 error. */
static int guard_allows(tilesat_collapse *c, int cell, int t,
                        tilesat_error *err) {
  if (c->model[cell] == t)
    return 1;
  int res = guard_solve(c, ts_var(c->m, cell, t), err);
  return res < 0 ? -1 : res == TILESAT_SAT;
}

/* Choose a tile for cell; with the guard, draw again after each tile the
 * solver refutes (banned, and propagated: the model's tiles stay).  The
 * tile, or -1 with err. */
static int decide(tilesat_collapse *c, int cell, bool guarded,
                  tilesat_error *err) {
  for (;;) {
    int t = choose(c, cell);
    if (!guarded)
      return t;
    int ok = guard_allows(c, cell, t, err);
    if (ok != 0)
      return ok < 0 ? -1 : t;
    c->banned++;
    ban(c, cell, t);
    propagate(c);
  }
}

void tilesat_collapse_options_init(tilesat_collapse_options *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->heuristic = TILESAT_HEURISTIC_ENTROPY;
  o->solve.backend = TILESAT_PICOSAT;
}

/* Every cell decided: the map, checked. */
static int finish(tilesat_collapse *c, int *tiles, tilesat_error *err) {
  for (int cell = 0; cell < c->N; cell++) {
    const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
    tiles[cell] = (int)((const uint8_t *)memchr(poss, 1, (size_t)c->T) - poss);
  }
  char why[256];
  if (!tilesat_map_verify(c->m, tiles, why, sizeof why)) {
    ts_error(err, "collapse", 0,
             "internal error: the collapsed map is not valid: %s", why);
    return -1;
  }
  return TILESAT_SAT;
}

int tilesat_collapse_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                         int *tiles, tilesat_error *err) {
  if (!c || !o || !tiles)
    ts_misuse(__func__, "NULL argument");
  start(c, o->seed);
  if (o->guard) {
    int res =
        c->contradiction >= 0 ? TILESAT_UNSAT : guard_start(c, &o->solve, err);
    if (res != TILESAT_SAT)
      return res;
  }
  while (c->contradiction < 0) {
    if (o->limit > 0 && c->choices.n >= (size_t)o->limit)
      return TILESAT_UNKNOWN; /* stopped at the limit: the wave as it is */
    int cell = next_cell(c, o->heuristic);
    if (cell < 0)
      break;
    int keep = decide(c, cell, o->guard, err);
    if (keep < 0)
      return -1;
    if (c->count[cell] == 1)
      continue; /* the guard's bans left one tile: no choice to make */
    TS_PUSH(c->choices, ((pair){cell, keep}));
    if (o->guard)
      TS_PUSH(c->assumed, ts_var(c->m, cell, keep));
    for (int t = 0; t < c->T; t++)
      if (t != keep && c->possible[(size_t)cell * (size_t)c->T + (size_t)t])
        ban(c, cell, t);
    propagate(c);
  }
  if (c->contradiction >= 0) {
    if (o->guard) {
      ts_error(err, "collapse", 0,
               "internal error: a guarded run hit a contradiction");
      return -1;
    }
    return TILESAT_UNKNOWN;
  }
  return finish(c, tiles, err);
}

long tilesat_collapse_banned(const tilesat_collapse *c) { return c->banned; }

long tilesat_collapse_solver_calls(const tilesat_collapse *c) {
  return c->calls;
}

int tilesat_collapse_contradiction(const tilesat_collapse *c) {
  return c->contradiction;
}

bool tilesat_collapse_possible(const tilesat_collapse *c, int cell, int tile) {
  if (!c || cell < 0 || cell >= c->N || tile < 0 || tile >= c->T)
    ts_misuse(__func__, "NULL collapser, or cell or tile out of range");
  return c->possible[(size_t)cell * (size_t)c->T + (size_t)tile];
}

size_t tilesat_collapse_choices(const tilesat_collapse *c, size_t i, int *cell,
                                int *tile) {
  if (i < c->choices.n) {
    *cell = c->choices.v[i].cell;
    *tile = c->choices.v[i].tile;
  }
  return c->choices.n;
}

const char *tilesat_heuristic_name(tilesat_heuristic h) {
  return h == TILESAT_HEURISTIC_MRV        ? "mrv"
         : h == TILESAT_HEURISTIC_SCANLINE ? "scanline"
                                           : "entropy";
}

int tilesat_heuristic_parse(const char *name, tilesat_heuristic *out) {
  for (int h = 0; h < 3; h++)
    if (!strcmp(name, tilesat_heuristic_name((tilesat_heuristic)h))) {
      *out = (tilesat_heuristic)h;
      return 0;
    }
  return -1;
}

/* ------------------------------------------------------------ explain */

/* Solve under the choices at idx[0..n) (indexes into c->choices): SAT,
 * UNSAT, or -1 with err. */
static int solve_choices(tilesat_collapse *c, const size_t *idx, size_t n,
                         tilesat_error *err) {
  for (size_t i = 0; i < n; i++) {
    pair p = c->choices.v[idx[i]];
    ts_solver_assume(c->solver, ts_var(c->m, p.cell, p.tile));
  }
  int res = ts_solver_solve(c->solver);
  return res == TILESAT_SAT || res == TILESAT_UNSAT
             ? res
             : ts_solver_unknown(c->solver, "collapse", err);
}

/* The first choice after which no valid map exists: prefixes are monotone
 * (a longer one keeps every constraint of a shorter), so a binary search
 * between the empty prefix (SAT) and the whole run (UNSAT: propagation
 * emptied a cell) takes log2(choices) solves. */
static int find_no_return(tilesat_collapse *c, size_t *all,
                          tilesat_error *err) {
  long lo = -1, hi = (long)c->choices.n - 1;
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    int res = solve_choices(c, all, (size_t)mid + 1, err);
    if (res < 0)
      return -1;
    if (res == TILESAT_SAT)
      lo = mid;
    else
      hi = mid;
  }
  c->no_return = hi;
  return 0;
}

/* A minimal set of the choices up to the point of no return that leaves no
 * valid map: deletion, each UNSAT answer cut down to its failed
 * assumptions. */
static int find_doomed(tilesat_collapse *c, tilesat_error *err) {
  TS_VEC(size_t) set = {0};
  for (size_t i = 0; i <= (size_t)c->no_return; i++)
    TS_PUSH(set, i);
  int res = 0;
  for (size_t k = 0; k < set.n && res >= 0;) {
    size_t drop = set.v[k];
    set.v[k] = set.v[set.n - 1];
    set.n--;
    res = solve_choices(c, set.v, set.n, err);
    if (res == TILESAT_SAT) { /* needed: put it back where it was */
      TS_PUSH(set, set.v[k]);
      set.v[k] = drop;
      k++;
    } else if (res == TILESAT_UNSAT) { /* keep only the failed ones */
      size_t n = 0;
      for (size_t i = 0; i < set.n; i++) {
        pair p = c->choices.v[set.v[i]];
        if (i < k || ts_solver_failed(c->solver, ts_var(c->m, p.cell, p.tile)))
          set.v[n++] = set.v[i];
      }
      set.n = n;
    }
  }
  for (size_t i = 0; i < set.n && res >= 0; i++)
    TS_PUSH(c->doomed, set.v[i]);
  free(set.v);
  return res < 0 ? -1 : 0;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

int tilesat_collapse_explain(tilesat_collapse *c,
                             const tilesat_solve_options *so,
                             tilesat_error *err) {
  if (!c)
    ts_misuse(__func__, "NULL collapser");
  if (c->contradiction < 0)
    ts_misuse(__func__, "the last run did not fail");
  if (make_solver(c, so, err))
    return -1;
  c->no_return = -1;
  c->doomed.n = 0;
  int res = solve_choices(c, NULL, 0, err);
  if (res != TILESAT_SAT) /* no valid map at all: nothing to blame */
    return res < 0 ? -1 : 0;
  TS_VEC(size_t) all = {0};
  for (size_t i = 0; i < c->choices.n; i++)
    TS_PUSH(all, i);
  int rc = find_no_return(c, all.v, err);
  free(all.v);
  if (rc == 0)
    rc = find_doomed(c, err);
  if (rc == 0)
    qsort(c->doomed.v, c->doomed.n, sizeof *c->doomed.v, cmp_size);
  return rc;
}

long tilesat_collapse_no_return(const tilesat_collapse *c) {
  return c->no_return;
}

size_t tilesat_collapse_doomed(const tilesat_collapse *c,
                               const size_t **choices) {
  *choices = c->doomed.v;
  return c->doomed.n;
}
