/* solve.c: check and enumerate maps on a backend.  Every map handed out
 * has passed tilesat_map_verify, which does not use the encoder. */
#include "internal.h"

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

ts_solver *ts_solver_for_map(const tilesat_map *m, tilesat_backend b) {
  ts_cnf cnf;
  ts_encode(m, &cnf);
  ts_solver *s = ts_solver_new(b);
  ts_solver_load(s, &cnf);
  ts_cnf_free(&cnf);
  return s;
}

int tilesat_check(const tilesat_map *m, tilesat_backend b, int *tiles,
                  tilesat_error *err) {
  ts_solver *s = ts_solver_for_map(m, b);
  int res = ts_solver_solve(s);
  if (res == TILESAT_SAT) {
    int *own = tiles ? tiles : ts_malloc((size_t)m->ncells * sizeof *own);
    if (ts_read_map(m, s, own, err) < 0)
      res = -1;
    if (own != tiles)
      free(own);
  } else if (res == TILESAT_UNKNOWN) {
    ts_error(err, NULL, 0, "the %s backend gave no answer",
             tilesat_backend_name(b));
    res = -1;
  }
  ts_solver_free(s);
  return res;
}

int64_t tilesat_enumerate(const tilesat_map *m, tilesat_backend b,
                          int64_t limit, tilesat_map_fn fn, void *user,
                          tilesat_error *err) {
  return ts_enumerate(m, b, limit, fn, user, NULL, err);
}

int64_t ts_enumerate(const tilesat_map *m, tilesat_backend b, int64_t limit,
                     tilesat_map_fn fn, void *user,
                     const volatile sig_atomic_t *stop, tilesat_error *err) {
  ts_solver *s = ts_solver_for_map(m, b);
  ts_solver_set_stop(s, stop);
  int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
  int *block = ts_malloc((size_t)m->ncells * sizeof *block);
  int64_t count = 0;
  for (;;) {
    if (limit > 0 && count >= limit)
      break;
    int res = ts_solver_solve(s);
    if (res == TILESAT_UNSAT)
      break;
    if (res != TILESAT_SAT) {
      ts_error(err, NULL, 0, "the %s backend gave no answer",
               tilesat_backend_name(b));
      count = -1;
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
    /* exactly one tile per cell, so one literal per cell blocks this map */
    for (int cell = 0; cell < m->ncells; cell++)
      block[cell] = -ts_var(m, cell, tiles[cell]);
    ts_solver_add_clause(s, block, (size_t)m->ncells);
  }
  free(tiles);
  free(block);
  ts_solver_free(s);
  return count;
}
