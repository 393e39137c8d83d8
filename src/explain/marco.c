/* marco.c: every minimal explanation, up to a limit (MARCO). */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------- every explanation */

/* The core of an UNSAT seed to shrink: propagation's on the seed's
 * constraints when it finds one that the solver confirms (small and local,
 * so that small explanations come first), else the solver's failed set. */
static void seed_core(ts_xctx *x, const uint8_t *in, ts_ints *core) {
  ts_x_copy_ints(core, &x->full.failed);
  ts_prop p;
  if (!(ts_prop_init(&p, x->m, in, true) && ts_prop_pins(&p))) {
    ts_ints pc = {0};
    ts_x_prop_core(x->m, &p, &pc);
    if (pc.n < core->n && ts_xsub_solve(&x->full, &pc, -1) == TILESAT_UNSAT)
      ts_x_copy_ints(core, &pc);
    free(pc.v);
  }
  ts_prop_free(&p);
}

/* MARCO (Liffiton et al., Constraints 2016): a second solver, the map,
 * holds a variable per constraint; its models are the subsets not yet
 * explored.  A subset that is UNSAT shrinks to a new minimal explanation,
 * and the map is told that no later subset contains all of it; one that is
 * SAT grows to a maximal satisfiable subset, and the map is told that later
 * subsets have one of the constraints outside it.  The map prefers large
 * subsets: explanations come before the satisfiable sets. */
static int marco(ts_xctx *x, size_t limit, ts_sets *found, bool *complete,
                 tilesat_error *err) {
  const tilesat_map *m = x->m;
  /* PicoSAT takes the hint to prefer large subsets; the others' C APIs
   * have none, and their seeds would be small (many satisfiable ones) */
  tilesat_solve_options mo = *x->so;
  mo.backend = TILESAT_PICOSAT;
  ts_solver *map = ts_solver_new(NULL, &mo);
  int *idx = ts_calloc((size_t)x->G, sizeof *idx);
  for (size_t i = 0; i < x->all.n; i++) {
    idx[x->all.v[i]] = (int)i + 1;
    ts_solver_prefer(map, (int)i + 1);
  }
  uint8_t *in = ts_calloc((size_t)x->G, 1);
  ts_ints cur = {0}, clause = {0}, core = {0};
  int res = 0;
  long calls = 0;
  *complete = false;
  for (;;) {
    int r = ts_solver_solve(map);
    if (r == TILESAT_UNSAT)
      *complete = true;
    if (r != TILESAT_SAT || found->n >= limit) {
      if (r == TILESAT_UNKNOWN)
        res = ts_solver_unknown(map, "explain", err);
      break;
    }
    ts_say(x->so, "every explanation: %zu found", found->n);
    cur.n = 0;
    memset(in, 0, (size_t)x->G);
    for (size_t i = 0; i < x->all.n; i++)
      if (ts_solver_value(map, (int)i + 1)) {
        in[x->all.v[i]] = 1;
        TS_PUSH(cur, x->all.v[i]);
      }
    r = ts_xsub_solve(&x->full, &cur, -1);
    clause.n = 0;
    if (r == TILESAT_SAT) {
      if ((res = ts_x_grow(x, in, &cur, err)) < 0)
        break;
      for (size_t i = 0; i < x->all.n; i++)
        if (!in[x->all.v[i]])
          TS_PUSH(clause, idx[x->all.v[i]]);
    } else if (r == TILESAT_UNSAT) {
      seed_core(x, in, &core);
      ts_ints mus = {0};
      if (ts_x_shrink(m, &x->cnf, x->so, &core, ts_x_centroid(m, &core),
                      core.n > SMALL_CORE, &mus, &calls) < 0)
        res = ts_no_answer(x->so, "explain", err);
      else
        res = ts_x_verify_minimal(m, &x->cnf, x->so, &mus, err);
      if (res < 0) {
        free(mus.v);
        break;
      }
      for (size_t i = 0; i < mus.n; i++)
        TS_PUSH(clause, -idx[mus.v[i]]);
      TS_PUSH(*found, mus);
    } else {
      res = ts_no_answer(x->so, "explain", err);
      break;
    }
    ts_solver_add_clause(map, clause.v, clause.n);
  }
  ts_solver_free(map);
  free(idx);
  free(in);
  free(cur.v);
  free(clause.v);
  free(core.v);
  return res;
}

/* Smaller first: constraints, cells, then the cells and constraints in
 * order (a stable order for equal sizes). */
static int cmp_explanation(const void *a, const void *b) {
  const tilesat_explanation *x = *(tilesat_explanation *const *)a,
                            *y = *(tilesat_explanation *const *)b;
  if (x->cs.n != y->cs.n)
    return x->cs.n < y->cs.n ? -1 : 1;
  if (x->cells.n != y->cells.n)
    return x->cells.n < y->cells.n ? -1 : 1;
  for (size_t i = 0; i < x->cells.n; i++)
    if (x->cells.v[i] != y->cells.v[i])
      return x->cells.v[i] - y->cells.v[i];
  for (size_t i = 0; i < x->cs.n; i++) {
    int c = ts_x_cmp_constraint(&x->cs.v[i], &y->cs.v[i]);
    if (c)
      return c;
  }
  return 0;
}

int tilesat_explain_all(const tilesat_map *m,
                        const tilesat_solve_options *options, size_t limit,
                        tilesat_explanation ***out, size_t *n, bool *complete,
                        tilesat_error *err) {
  if (!out || !n || !complete || !limit)
    ts_misuse(__func__, "NULL map or result, or a limit of 0");
  tilesat_solve_options so = ts_x_so_of(m, options);
  *out = NULL;
  *n = 0;
  *complete = true;
  int in_window = ts_x_all_in_window(m, &so, limit, out, n, complete, err);
  if (in_window != TILESAT_UNKNOWN)
    return in_window;
  ts_xctx x;
  int res = ts_xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_sets found = {0};
  if (marco(&x, limit, &found, complete, err) < 0) {
    res = -1;
  } else {
    *out = ts_malloc(found.n * sizeof(tilesat_explanation *));
    for (size_t i = 0; i < found.n; i++)
      (*out)[i] = ts_x_finish(m, &found.v[i]);
    *n = found.n;
    qsort(*out, *n, sizeof(tilesat_explanation *), cmp_explanation);
  }
  ts_xctx_close(&x);
  ts_x_sets_free(&found);
  return res;
}
