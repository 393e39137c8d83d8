/* backend_cryptominisat.c: CryptoMiniSat through its C API.  It numbers
 * literals 2*var+sign from 0, answers l_True as 0, reports a conflict as
 * the negations of the failed assumptions, and takes whole clauses: the
 * adapter buffers IPASIR's literal-at-a-time add.  It alone has native XOR
 * constraints (approximate counting and sampling). */
#include "sat/sat.h"

#include <cryptominisat5/cryptominisat_c.h>
#include <stdlib.h>

typedef struct cms {
  SATSolver *s;
  unsigned nvars;
  TS_VEC(c_Lit) clause;    /* the clause being added */
  TS_VEC(int) assumptions; /* of the next solve */
  TS_VEC(c_Lit) lits;      /* assumptions as CryptoMiniSat's literals */
  TS_VEC(int) failed;      /* failed assumptions of the last solve */
  TS_VEC(uint8_t) model;   /* model of the last solve, by var */
  int (*terminate)(void *);
  void *terminate_user;
  double budget; /* CPU seconds for the next solve, 0: none */
} cms;

static void *init(void) {
  cms *c = ts_calloc(1, sizeof *c);
  c->s = cmsat_new();
  cmsat_set_num_threads(c->s, 1); /* before any variable is added */
  return c;
}

static void release(void *impl) {
  cms *c = impl;
  cmsat_free(c->s);
  free(c->clause.v);
  free(c->assumptions.v);
  free(c->lits.v);
  free(c->failed.v);
  free(c->model.v);
  free(c);
}

static c_Lit lit_of(cms *c, int lit) {
  unsigned v = (unsigned)abs(lit);
  if (v > c->nvars) {
    cmsat_new_vars(c->s, v - c->nvars);
    c->nvars = v;
  }
  return (c_Lit){2 * (v - 1) + (lit < 0)};
}

static void reserve(void *impl, int nvars) {
  if (nvars > 0)
    lit_of(impl, nvars);
}

static void add(void *impl, int lit) {
  cms *c = impl;
  if (lit) {
    TS_PUSH(c->clause, lit_of(c, lit));
    return;
  }
  cmsat_add_clause(c->s, c->clause.v, c->clause.n);
  c->clause.n = 0;
}

static void assume(void *impl, int lit) {
  TS_PUSH(((cms *)impl)->assumptions, lit);
}

static void set_terminate(void *impl, int (*fn)(void *), void *user) {
  cms *c = impl;
  c->terminate = fn;
  c->terminate_user = user;
}

/* The C API has no interrupt, but its time limit is per call and a call
 * that runs out keeps what it learnt: solving in half-second slices lets
 * terminate end a long solve within about half a second. */
#define SLICE_SECONDS 0.5

static void read_model(cms *c) {
  slice_lbool m = cmsat_get_model(c->s);
  c->model.n = 0;
  for (size_t i = 0; i < m.num_vals; i++)
    TS_PUSH(c->model, m.vals[i].x == L_TRUE);
}

/* The conflict holds the negation of each failed assumption. */
static void read_failed(cms *c) {
  slice_Lit conflict = cmsat_get_conflict(c->s);
  for (size_t i = 0; i < conflict.num_vals; i++) {
    int v = (int)(conflict.vals[i].x >> 1) + 1;
    TS_PUSH(c->failed, (conflict.vals[i].x & 1) ? v : -v);
  }
}

static int solve(void *impl) {
  cms *c = impl;
  c->lits.n = 0;
  for (size_t i = 0; i < c->assumptions.n; i++)
    TS_PUSH(c->lits, lit_of(c, c->assumptions.v[i]));
  c->assumptions.n = 0;
  c_lbool res;
  double left = c->budget; /* a limit is spent in slices too */
  bool limited = left > 0;
  c->budget = 0;
  for (;;) {
    double slice = c->terminate ? SLICE_SECONDS : 0;
    if (limited && (slice == 0 || left < slice))
      slice = left;
    if (slice > 0)
      cmsat_set_max_time(c->s, slice);
    res = cmsat_solve_with_assumptions(c->s, c->lits.v, c->lits.n);
    if (res.x != L_UNDEF)
      break;
    if (limited) {
      left -= slice;
      if (left <= 0)
        break;
    }
    if (!c->terminate || c->terminate(c->terminate_user))
      break;
  }
  c->failed.n = 0;
  if (res.x == L_TRUE) {
    read_model(c);
    return TILESAT_SAT;
  }
  if (res.x == L_FALSE) {
    read_failed(c);
    return TILESAT_UNSAT;
  }
  return TILESAT_UNKNOWN;
}

/* The C API limits only CPU time: a conflict's worth of it, as measured
 * on the pieces of an anneal clean-up (Castle, a few hundred cells). */
#define SECONDS_PER_CONFLICT 1e-4

static void limit(void *impl, int conflicts) {
  ((cms *)impl)->budget = conflicts * SECONDS_PER_CONFLICT;
}

static bool value(void *impl, int var) {
  cms *c = impl;
  return (size_t)var <= c->model.n && c->model.v[var - 1];
}

static bool failed(void *impl, int lit) {
  cms *c = impl;
  for (size_t i = 0; i < c->failed.n; i++)
    if (c->failed.v[i] == lit)
      return true;
  return false;
}

/* CryptoMiniSat's own settings for ApproxMC (Gauss-Jordan elimination
 * kept on, among others) without bounded variable elimination.  With
 * elimination on, Debian's 5.11.4 returned models that violate the map's
 * clauses, support variables included (two tiles in one cell, coast 10x10);
 * without it every model of the approx tests checks out.  On coast 12x12
 * approx went from 20 s to 0.7 s on an idle core.  approx.c still reads maps
 * from the support alone and verifies each one. */
static void set_counting(void *impl) {
  cms *c = impl;
  cmsat_set_up_for_scalmc(c->s);
  cmsat_set_no_bve(c->s);
}

static void add_xor(void *impl, const int *vars, size_t n, bool rhs) {
  cms *c = impl;
  TS_VEC(unsigned) v = {0};
  for (size_t i = 0; i < n; i++) {
    lit_of(c, vars[i]); /* make sure the variable exists */
    TS_PUSH(v, (unsigned)(vars[i] - 1));
  }
  cmsat_add_xor_clause(c->s, v.v, v.n, rhs);
  free(v.v);
}

const ts_backend_ops ts_cryptominisat_ops = {
    .name = "cryptominisat",
    .init = init,
    .release = release,
    .reserve = reserve,
    .add = add,
    .assume = assume,
    .solve = solve,
    .value = value,
    .failed = failed,
    .set_terminate = set_terminate,
    .limit = limit,
    .set_counting = set_counting,
    .add_xor = add_xor,
};
