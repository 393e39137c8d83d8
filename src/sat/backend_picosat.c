/* backend_picosat.c: PicoSAT (Debian's libpicosat), whose API is already
 * IPASIR-like: DIMACS literals, picosat_assume before each solve. */
#include "sat/sat.h"

#include <picosat/picosat.h>
#include <stdlib.h>

/* PicoSAT's memory: its own allocator aborts when malloc fails; these end
 * the process with a message and exit 1 instead (ts_out_of_memory).  A
 * longjmp back out of PicoSAT would leave it half-updated, neither usable
 * nor freeable (picosat_reset walks its structures), so the estimate
 * (memory.c) refuses a map up front and this is the last resort. */
static void *pico_new(void *mgr, size_t n) {
  (void)mgr;
  void *p = malloc(n);
  if (!p && n)
    ts_out_of_memory("PicoSAT", n);
  return p;
}

static void *pico_resize(void *mgr, void *p, size_t old, size_t n) {
  (void)mgr, (void)old;
  if (!n) {
    free(p);
    return NULL;
  }
  void *q = realloc(p, n);
  if (!q)
    ts_out_of_memory("PicoSAT", n);
  return q;
}

static void pico_delete(void *mgr, void *p, size_t n) {
  (void)mgr, (void)n;
  free(p);
}

static void *init(void) {
  PicoSAT *p = picosat_minit(NULL, pico_new, pico_resize, pico_delete);
  /* No failed-literal probing: on map encodings unit propagation is
   * already arc consistency, and probing took half the time of a 300x300
   * check (0.6 s of 1.1 s) while finding nothing. */
  picosat_set_plain(p, 1);
  return p;
}

static void release(void *impl) { picosat_reset(impl); }

static void reserve(void *impl, int nvars) { picosat_adjust(impl, nvars); }

static void add(void *impl, int lit) { picosat_add(impl, lit); }

static void assume(void *impl, int lit) { picosat_assume(impl, lit); }

/* PicoSAT limits propagations, counted over the solver's life (and 0 is a
 * limit, not "none"): a limit is set from the count so far, and lifted
 * again after the solve it was for. */
#define PROPAGATIONS_PER_CONFLICT 200

static void limit(void *impl, int conflicts) {
  picosat_set_propagation_limit(impl, picosat_propagations(impl) +
                                          (unsigned long long)conflicts *
                                              PROPAGATIONS_PER_CONFLICT);
}

static int solve(void *impl) {
  int res = picosat_sat(impl, -1);
  picosat_set_propagation_limit(impl, ~0ULL);
  return res == PICOSAT_SATISFIABLE     ? TILESAT_SAT
         : res == PICOSAT_UNSATISFIABLE ? TILESAT_UNSAT
                                        : TILESAT_UNKNOWN;
}

static bool value(void *impl, int var) { return picosat_deref(impl, var) > 0; }

static bool failed(void *impl, int lit) {
  return picosat_failed_assumption(impl, lit);
}

static void set_terminate(void *impl, int (*fn)(void *), void *user) {
  picosat_set_interrupt(impl, user, fn);
}

/* Tries `lit` first when it decides on its variable, and every other
 * variable false first. */
static void prefer(void *impl, int lit) {
  picosat_set_global_default_phase(impl, 0);
  picosat_set_default_phase_lit(impl, lit, 1);
}

static unsigned long long decisions(void *impl) {
  return picosat_decisions(impl);
}

const ts_backend_ops ts_picosat_ops = {
    .name = "picosat",
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
    .prefer = prefer,
    .decisions = decisions,
};
