/* solve.c: check and enumerate maps on a backend.  Every map handed out
 * has passed tilesat_map_verify, which does not use the encoder. */
#include "sat/sat.h"

#include <stdlib.h>

/* Read the map out of a model: the one true tile variable of each cell. */
int ts_read_map(const tilesat_map *m, ts_solver *s, int *tiles,
                tilesat_error *err) {
  int T = m->rules->ntiles;
  for (int cell = 0; cell < m->ncells; cell++) {
    tiles[cell] = -1;
    for (int t = 0; t < T; t++)
      if (ts_solver_value(s, ts_var(m, cell, t))) {
        if (tiles[cell] >= 0) {
          ts_error(err, NULL, 0,
                   "internal error: the model puts two tiles in cell (%d,%d)",
                   cell / m->width, cell % m->width);
          return -1;
        }
        tiles[cell] = t;
      }
  }
  char why[512];
  if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
    ts_error(err, NULL, 0, "internal error: the solver's map is not valid: %s",
             why);
    return -1;
  }
  return 0;
}

static void to_solver(void *user, int group, const int *lits, size_t n) {
  (void)group;
  ts_solver_add_clause(user, lits, n);
}

/* The clauses go from the encoder straight into the solver: no copy of the
 * CNF is kept beside the solver's own. */
ts_solver *ts_solver_for_map(const tilesat_map *m,
                             const tilesat_solve_options *so) {
  ts_solver *s = ts_solver_new(m, so);
  ts_solver_reserve(s, ts_encode_nvars(m));
  ts_cnf_size z = ts_cnf_measure(m); /* an upper bound: progress only */
  ts_solver_expect(s, (size_t)(z.nlits + z.nclauses), (size_t)z.nclauses);
  ts_encode_each_pruned(m, to_solver, s);
  return s;
}

/* Bytes of the per-cell arrays beside the solver: the map read out of the
 * model, and the caller's. */
static double cell_bytes(const tilesat_map *m) {
  return 2.0 * (double)m->ncells * sizeof(int);
}

/* One solver on the whole CNF. */
static int check_whole(const tilesat_map *m, const tilesat_solve_options *so,
                       int *tiles, tilesat_error *err) {
  ts_solver *s = ts_solver_for_map(m, so);
  ts_cuts *cuts = ts_cuts_new(m);
  int res = ts_solve_cut(s, cuts, so->stats);
  ts_cuts_free(cuts);
  if (res == TILESAT_SAT) {
    int *own = tiles ? tiles : ts_malloc((size_t)m->ncells * sizeof *own);
    if (ts_read_map(m, s, own, err) < 0)
      res = -1;
    if (own != tiles)
      free(own);
  } else if (res == TILESAT_UNKNOWN) {
    res = ts_solver_unknown(s, "check", err);
  }
  ts_solver_free(s);
  return res;
}

/* ------------------------------------------------------------------ strips
 *
 * A map whose CNF would need more than STRIP_ABOVE bytes (or more than its
 * memory bound) is filled a band of rows at a time: each band is a small
 * map with the last row of the rows already fixed above it pinned as
 * context (two rows on a hex map whose band would start on an odd row, so
 * odd-r offsets stay the same), and of its rows all but the last `overlap`
 * are kept: those are solved again with the next band, so that every kept
 * row was chosen with `overlap` rows of lookahead.  The witness is verified
 * on the whole map like any other.
 *
 * A band with no context (the first) is a part of the map's constraints:
 * UNSAT there is UNSAT for the map.  A later band that fails may only have
 * met a dead end left by the fixed rows: then the whole map is solved in
 * one solver if it fits the memory bound, and refused otherwise.  Periodic
 * maps have no first band and are always solved whole. */
#define STRIP_ABOVE ((double)(1u << 30))
#define STRIP_OVERLAP 16
#define STRIP_MIN_ROWS (3 * STRIP_OVERLAP)

/* Solve rows [r0, r1) below the fixed rows [0, r0) of tiles. */
static int check_band(const tilesat_map *m, const tilesat_solve_options *so,
                      int r0, int r1, int *tiles, tilesat_error *err) {
  int c0 = r0 > 0 ? r0 - 1 : 0;
  if (m->topo == TILESAT_HEX)
    c0 -= c0 & 1;
  tilesat_map *band =
      tilesat_map_new(m->rules, m->width, r1 - c0, m->topo, false, err);
  if (!band)
    return -1;
  band->max_memory = m->max_memory;
  int first = c0 * m->width;
  for (int cell = first; cell < r0 * m->width; cell++) {
    ts_pin p = {cell - first, tiles[cell]};
    TS_PUSH(band->pins, p);
  }
  for (size_t i = 0; i < m->pins.n; i++) {
    ts_pin p = m->pins.v[i];
    if (p.cell >= r0 * m->width && p.cell < r1 * m->width) {
      p.cell -= first;
      TS_PUSH(band->pins, p);
    }
  }
  for (size_t i = 0; i < m->bans.n; i++) {
    ts_pin p = m->bans.v[i];
    if (p.cell >= r0 * m->width && p.cell < r1 * m->width) {
      p.cell -= first;
      TS_PUSH(band->bans, p);
    }
  }
  int res = check_whole(band, so, tiles + first, err);
  tilesat_map_free(band);
  return res;
}

int ts_check_strips(const tilesat_map *m, const tilesat_solve_options *so,
                    int rows, int overlap, int *tiles, tilesat_error *err) {
  if (m->periodic || overlap < 0 || rows < overlap + 3)
    ts_misuse(__func__, "a periodic map, or fewer rows than overlap + 3");
  int keep = rows - overlap - 2; /* rows kept per band */
  for (int r0 = 0; r0 < m->height;) {
    int r1 = r0 + keep + overlap;
    if (r1 > m->height)
      r1 = m->height;
    int res = check_band(m, so, r0, r1, tiles, err);
    if (res == TILESAT_UNSAT && r0 > 0)
      return TILESAT_UNKNOWN;
    if (res != TILESAT_SAT)
      return res;
    r0 = r1 == m->height ? r1 : r1 - overlap;
  }
  char why[512];
  if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
    ts_error(err, NULL, 0,
             "internal error: the map of the bands is not valid: %s", why);
    return -1;
  }
  return TILESAT_SAT;
}

/* Rows per band: enough for STRIP_ABOVE bytes, at least STRIP_MIN_ROWS,
 * within m's bound; 0 if no band fits or one band would be the map. */
static int band_rows(const tilesat_map *m, const tilesat_solve_options *so) {
  ts_cnf_size z = ts_cnf_measure(m);
  double base = ts_solver_bytes(so->backend, (ts_cnf_size){0});
  double per_row = (ts_solver_bytes(so->backend, z) - base) / m->height;
  double bound = (double)m->max_memory - cell_bytes(m) - base;
  double rows = (STRIP_ABOVE - base) / per_row;
  if (rows < STRIP_MIN_ROWS)
    rows = STRIP_MIN_ROWS;
  if (rows * per_row > bound)
    rows = bound / per_row;
  return rows < STRIP_MIN_ROWS || rows >= m->height ? 0 : (int)rows;
}

int tilesat_check(const tilesat_map *m, const tilesat_solve_options *options,
                  int *tiles, tilesat_error *err) {
  if (ts_map_refuse_large(m, "check", err))
    return -1;
  tilesat_solve_options so = ts_solve_for(m, options);
  double need = ts_solver_bytes(so.backend, ts_cnf_measure(m)) + cell_bytes(m);
  bool whole = need <= STRIP_ABOVE && need <= (double)m->max_memory;
  /* a band knows the pins and bans in it, not global constraints or masks */
  bool strips = !m->periodic && !m->globals.n && !m->nmasked;
  int rows = whole || !strips ? 0 : band_rows(m, &so);
  /* what fits: the whole map, or in strips a band of the fewest rows */
  double base = ts_solver_bytes(so.backend, (ts_cnf_size){0});
  ts_need fit = ts_need_linear(m, need, base);
  if (strips) {
    double solver = fit.per_cell - cell_bytes(m) / m->ncells;
    fit.per_cell -= solver;
    fit.per_width = STRIP_MIN_ROWS * solver;
  }
  if (rows == 0)
    return ts_memory_refuse_within(m, need, fit, (double)m->max_memory, "check",
                                   err)
               ? -1
               : check_whole(m, &so, tiles, err);
  int *own = tiles ? tiles : ts_malloc((size_t)m->ncells * sizeof *own);
  int res = ts_check_strips(m, &so, rows, STRIP_OVERLAP, own, err);
  if (res == TILESAT_UNKNOWN) /* a dead end: the whole map, if it fits */
    res = ts_memory_refuse(m, need, base, "check", err)
              ? -1
              : check_whole(m, &so, own, err);
  if (own != tiles)
    free(own);
  return res;
}

int64_t tilesat_enumerate(const tilesat_map *m, const tilesat_solve_options *so,
                          int64_t limit, tilesat_map_fn fn, void *user,
                          tilesat_error *err) {
  if (ts_memory_check(m, so, 3 * cell_bytes(m), "enumerate", err))
    return -1;
  ts_solver *s = ts_solver_for_map(m, so);
  ts_cuts *cuts = ts_cuts_new(m); /* only maps that keep them are found */
  int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
  int *block = ts_malloc((size_t)m->ncells * sizeof *block);
  int64_t count = 0;
  for (;;) {
    if (limit > 0 && count >= limit)
      break;
    int res = ts_solve_cut(s, cuts, so ? so->stats : NULL);
    if (res == TILESAT_UNSAT)
      break;
    if (res != TILESAT_SAT) {
      count = ts_solver_unknown(s, "enumerate", err);
      break;
    }
    /* copy the model out first: adding a clause resets PicoSAT's model */
    if (ts_read_map(m, s, tiles, err) < 0) {
      count = -1;
      break;
    }
    count++;
    if (fn && fn(user, tiles))
      break;
    /* exactly one tile per cell, so one literal per cell blocks this map
     * (a masked cell holds none) */
    size_t n = 0;
    for (int cell = 0; cell < m->ncells; cell++)
      if (tiles[cell] >= 0)
        block[n++] = -ts_var(m, cell, tiles[cell]);
    ts_solver_add_clause(s, block, n);
  }
  free(tiles);
  free(block);
  ts_cuts_free(cuts);
  ts_solver_free(s);
  return count;
}
