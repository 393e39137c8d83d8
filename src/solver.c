/* solver.c: one IPASIR-shaped interface over PicoSAT and CryptoMiniSat.
 * Literals are DIMACS ints; each adapter translates.  CryptoMiniSat numbers
 * literals 2*var+sign from 0, answers l_True as 0, and reports a conflict
 * as the negations of the failed assumptions. */
#include "internal.h"

#include <cryptominisat5/cryptominisat_c.h>
#include <picosat/picosat.h>
#include <stdlib.h>
#include <string.h>

struct ts_solver {
  tilesat_backend backend;
  PicoSAT *pico;
  SATSolver *cms;
  unsigned cms_vars;
  TS_VEC(c_Lit) lits;      /* clause / assumption buffer (CMS) */
  TS_VEC(int) assumptions; /* CMS: assumptions of the next solve */
  TS_VEC(int) failed;      /* CMS: failed assumptions of the last solve */
  TS_VEC(uint8_t) model;   /* CMS: model of the last solve, by var */
  const volatile sig_atomic_t *stop; /* nonzero: give up, UNKNOWN */
};

const char *tilesat_backend_name(tilesat_backend b) {
  return b == TILESAT_CRYPTOMINISAT ? "cryptominisat" : "picosat";
}

int tilesat_backend_parse(const char *name, tilesat_backend *out) {
  if (!strcmp(name, "picosat"))
    *out = TILESAT_PICOSAT;
  else if (!strcmp(name, "cryptominisat") || !strcmp(name, "cms"))
    *out = TILESAT_CRYPTOMINISAT;
  else
    return -1;
  return 0;
}

ts_solver *ts_solver_new(tilesat_backend b) {
  ts_solver *s = ts_calloc(1, sizeof *s);
  s->backend = b;
  if (b == TILESAT_CRYPTOMINISAT) {
    s->cms = cmsat_new();
    cmsat_set_num_threads(s->cms, 1); /* before any variable is added */
  } else {
    s->pico = picosat_init();
    /* No failed-literal probing: on map encodings unit propagation is
     * already arc consistency, and probing took half the time of a 300x300
     * check (0.6 s of 1.1 s) while finding nothing. */
    picosat_set_plain(s->pico, 1);
  }
  return s;
}

void ts_solver_free(ts_solver *s) {
  if (!s)
    return;
  if (s->pico)
    picosat_reset(s->pico);
  if (s->cms)
    cmsat_free(s->cms);
  free(s->lits.v);
  free(s->assumptions.v);
  free(s->failed.v);
  free(s->model.v);
  free(s);
}

static c_Lit cms_lit(ts_solver *s, int lit) {
  unsigned v = (unsigned)abs(lit);
  if (v > s->cms_vars) {
    cmsat_new_vars(s->cms, v - s->cms_vars);
    s->cms_vars = v;
  }
  return (c_Lit){2 * (v - 1) + (lit < 0)};
}

void ts_solver_add_clause(ts_solver *s, const int *lits, size_t n) {
  if (s->pico) {
    for (size_t i = 0; i < n; i++)
      picosat_add(s->pico, lits[i]);
    picosat_add(s->pico, 0);
    return;
  }
  s->lits.n = 0;
  for (size_t i = 0; i < n; i++)
    TS_PUSH(s->lits, cms_lit(s, lits[i]));
  cmsat_add_clause(s->cms, s->lits.v, s->lits.n);
}

void ts_solver_load(ts_solver *s, const ts_cnf *cnf) {
  if (s->pico)
    picosat_adjust(s->pico, cnf->nvars);
  else if (cnf->nvars > 0)
    cms_lit(s, cnf->nvars);
  for (size_t i = 0; i < cnf->start.n; i++) {
    const int *l = cnf->lits.v + cnf->start.v[i];
    size_t n = 0;
    while (l[n])
      n++;
    ts_solver_add_clause(s, l, n);
  }
}

static int pico_interrupt(void *user) {
  const ts_solver *s = user;
  return *s->stop != 0;
}

void ts_solver_set_stop(ts_solver *s, const volatile sig_atomic_t *stop) {
  s->stop = stop;
  if (s->pico)
    picosat_set_interrupt(s->pico, stop ? s : NULL,
                          stop ? pico_interrupt : NULL);
}

/* CryptoMiniSat's C API has no interrupt, but its time limit is per call
 * and a call that runs out keeps what it learnt: solving in half-second
 * slices lets a stop request end a long solve within about half a second. */
#define CMS_SLICE_SECONDS 0.5

void ts_solver_assume(ts_solver *s, int lit) {
  if (s->pico)
    picosat_assume(s->pico, lit);
  else
    TS_PUSH(s->assumptions, lit);
}

int ts_solver_solve(ts_solver *s) {
  if (s->pico) {
    int res = picosat_sat(s->pico, -1);
    return res == PICOSAT_SATISFIABLE     ? TILESAT_SAT
           : res == PICOSAT_UNSATISFIABLE ? TILESAT_UNSAT
                                          : TILESAT_UNKNOWN;
  }
  s->lits.n = 0;
  for (size_t i = 0; i < s->assumptions.n; i++)
    TS_PUSH(s->lits, cms_lit(s, s->assumptions.v[i]));
  c_lbool res;
  for (;;) {
    if (s->stop)
      cmsat_set_max_time(s->cms, CMS_SLICE_SECONDS);
    res = cmsat_solve_with_assumptions(s->cms, s->lits.v, s->lits.n);
    if (res.x != L_UNDEF || !s->stop || *s->stop)
      break;
  }
  s->assumptions.n = 0;
  s->failed.n = 0;
  if (res.x == L_TRUE) {
    slice_lbool m = cmsat_get_model(s->cms);
    s->model.n = 0;
    for (size_t i = 0; i < m.num_vals; i++)
      TS_PUSH(s->model, m.vals[i].x == L_TRUE);
    return TILESAT_SAT;
  }
  if (res.x == L_FALSE) {
    slice_Lit c = cmsat_get_conflict(s->cms);
    for (size_t i = 0; i < c.num_vals; i++) {
      int v = (int)(c.vals[i].x >> 1) + 1;
      /* the conflict holds the negation of each failed assumption */
      TS_PUSH(s->failed, (c.vals[i].x & 1) ? v : -v);
    }
    return TILESAT_UNSAT;
  }
  return TILESAT_UNKNOWN;
}

bool ts_solver_value(ts_solver *s, int var) {
  if (s->pico)
    return picosat_deref(s->pico, var) > 0;
  return (size_t)var <= s->model.n && s->model.v[var - 1];
}

bool ts_solver_failed(ts_solver *s, int lit) {
  if (s->pico)
    return picosat_failed_assumption(s->pico, lit);
  for (size_t i = 0; i < s->failed.n; i++)
    if (s->failed.v[i] == lit)
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
void ts_solver_set_counting(ts_solver *s) {
  if (!s->cms)
    ts_misuse(__func__, "counting settings need the CryptoMiniSat backend");
  cmsat_set_up_for_scalmc(s->cms);
  cmsat_set_no_bve(s->cms);
}

void ts_solver_add_xor(ts_solver *s, const int *vars, size_t n, bool rhs) {
  if (!s->cms)
    ts_misuse(__func__, "XOR constraints need the CryptoMiniSat backend");
  TS_VEC(unsigned) v = {0};
  for (size_t i = 0; i < n; i++) {
    cms_lit(s, vars[i]); /* make sure the variable exists */
    TS_PUSH(v, (unsigned)(vars[i] - 1));
  }
  cmsat_add_xor_clause(s->cms, v.v, v.n, rhs);
  free(v.v);
}

/* Added for the anneal repair (repair.c): a preferred polarity.  PicoSAT
 * tries `lit` first when it decides on its variable (and every other
 * variable false first); CryptoMiniSat's C API has no per-variable
 * polarity, so there it is a no-op.  A hint, never a constraint. */
void ts_solver_prefer(ts_solver *s, int lit) {
  if (!s->pico)
    return;
  picosat_set_global_default_phase(s->pico, 0);
  picosat_set_default_phase_lit(s->pico, lit, 1);
}
