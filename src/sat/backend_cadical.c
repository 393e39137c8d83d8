/* backend_cadical.c: CaDiCaL through its C API (Debian's libcadical-dev,
 * a static C++ library: the link needs -lstdc++).  IPASIR as it stands.
 * Variables that later assumptions name need no freezing: CaDiCaL undoes
 * the elimination of an assumed variable itself. */
#include "sat/sat.h"

#include <ccadical.h>
#include <stdlib.h>

typedef struct cadical {
  CCaDiCaL *c;
  int maxvar; /* largest variable added or assumed */
} cadical;

static void *init(void) {
  cadical *s = ts_calloc(1, sizeof *s);
  s->c = ccadical_init();
  /* the library prints some messages ("c found falsified original clause")
   * on stdout unless told to be quiet */
  ccadical_set_option(s->c, "quiet", 1);
  return s;
}

static void release(void *impl) {
  cadical *s = impl;
  ccadical_release(s->c);
  free(s);
}

static void note(cadical *s, int lit) {
  if (abs(lit) > s->maxvar)
    s->maxvar = abs(lit);
}

static void add(void *impl, int lit) {
  cadical *s = impl;
  note(s, lit);
  ccadical_add(s->c, lit);
}

static void assume(void *impl, int lit) {
  cadical *s = impl;
  note(s, lit);
  ccadical_assume(s->c, lit);
}

static int solve(void *impl) {
  int res = ccadical_solve(((cadical *)impl)->c);
  return res == 10 ? TILESAT_SAT : res == 20 ? TILESAT_UNSAT : TILESAT_UNKNOWN;
}

/* CaDiCaL refuses a variable it has never seen; such a variable is
 * unconstrained, and false reads as PicoSAT's default. */
static bool value(void *impl, int var) {
  cadical *s = impl;
  return var <= s->maxvar && ccadical_val(s->c, var) > 0;
}

static bool failed(void *impl, int lit) {
  return ccadical_failed(((cadical *)impl)->c, lit);
}

static void set_terminate(void *impl, int (*fn)(void *), void *user) {
  ccadical_set_terminate(((cadical *)impl)->c, user, fn);
}

/* A limit of CaDiCaL's holds for the next solve only. */
static void limit(void *impl, int conflicts) {
  ccadical_limit(((cadical *)impl)->c, "conflicts", conflicts);
}

const ts_backend_ops ts_cadical_ops = {
    .name = "cadical",
    .init = init,
    .release = release,
    .add = add,
    .assume = assume,
    .solve = solve,
    .value = value,
    .failed = failed,
    .set_terminate = set_terminate,
    .limit = limit,
};
