/* solver.c: one IPASIR-shaped interface over the SAT backends.  Each
 * backend is a table of operations in its own file (backend_*.c); this file
 * dispatches through the table, and every backend-specific detail (literal
 * numbering, how failed assumptions are reported, how a search is stopped)
 * stays in its adapter. */
#include "sat/sat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ts_solver {
  const ts_backend_ops *ops;
  void *impl;
  tilesat_solve_options so; /* a copy: the caller's may not outlive s */
  char solving[96];         /* the progress line while it solves */
  /* clauses streaming in (ts_solver_expect): literals so far, of all */
  size_t loaded, load_total, load_clauses;
  int limit;      /* conflicts for the next solve (ts_solver_limit), or 0 */
  unsigned polls; /* of the search, since its line was last written */
};

static const struct {
  const char *name;
  tilesat_backend b;
  const ts_backend_ops *ops;
} backends[] = {
    {"picosat", TILESAT_PICOSAT, &ts_picosat_ops},
    {"cryptominisat", TILESAT_CRYPTOMINISAT, &ts_cryptominisat_ops},
    {"cadical", TILESAT_CADICAL, &ts_cadical_ops},
    {"auto", TILESAT_BACKEND_AUTO, NULL},
    {"cms", TILESAT_CRYPTOMINISAT, &ts_cryptominisat_ops},
};
#define NBACKENDS (sizeof backends / sizeof *backends)

const char *tilesat_backend_name(tilesat_backend b) {
  for (size_t i = 0; i < NBACKENDS; i++)
    if (backends[i].b == b)
      return backends[i].name;
  ts_misuse(__func__, "not a backend");
}

int tilesat_backend_parse(const char *name, tilesat_backend *out) {
  for (size_t i = 0; i < NBACKENDS; i++)
    if (!strcmp(name, backends[i].name)) {
      *out = backends[i].b;
      return 0;
    }
  return -1;
}

/* The rule behind `--backend auto`, from tools/bench.sh (README,
 * "Backends"; and "Global constraints" for connectivity).  Below a quarter of a
 * million tile variables every backend checks a map in a few tens of
 * milliseconds and PicoSAT sets up fastest. Above it, with many tiles, CaDiCaL
 * took the least CPU time (Knots 300x300: 2.7 s against PicoSAT's 4.7 s and
 * CryptoMiniSat's 6.3 s; patchwork16 200x200: 1.1 s against 1.3 s) and it is
 * the one that finishes hard instances (Castle 300x300 periodic: 12.6 s,
 * PicoSAT over 60 s); with few tiles the three are even and PicoSAT stays. */
#define AUTO_MIN_VARS 250000
#define AUTO_MIN_TILES 8

tilesat_backend tilesat_backend_choose(const tilesat_map *m,
                                       tilesat_backend b) {
  if (b != TILESAT_BACKEND_AUTO)
    return b;
  if (m && m->rules->ntiles >= AUTO_MIN_TILES &&
      (long long)m->ncells * m->rules->ntiles >= AUTO_MIN_VARS)
    return TILESAT_CADICAL;
  /* connected and path constraints: CaDiCaL needed 3 rounds of cuts where
   * PicoSAT needed 34 and CryptoMiniSat thousands (a 64x64 dungeon,
   * tools/bench-global.sh) */
  if (m && ts_map_has_lazy(m))
    return TILESAT_CADICAL;
  return TILESAT_PICOSAT;
}

static const ts_backend_ops *ops_of(tilesat_backend b) {
  for (size_t i = 0; i < NBACKENDS; i++)
    if (backends[i].b == b && backends[i].ops)
      return backends[i].ops;
  ts_misuse("ts_solver_new", "not a backend");
}

bool ts_terminated(const tilesat_solve_options *so) {
  return so && so->terminate && so->terminate(so->terminate_user);
}

/* How far the search has gone, where the backend says ("solving with
 * picosat: 1.2 M decisions so far"), rewritten every POLL_LINE polls (the
 * caller throttles what it prints; this keeps the writing cheap). */
#define POLL_LINE 64

static void solving_line(ts_solver *s) {
  unsigned long long d = s->ops->decisions(s->impl);
  if (d < 100000)
    snprintf(s->solving, sizeof s->solving,
             "solving with %s: %llu decisions so far", s->ops->name, d);
  else
    snprintf(s->solving, sizeof s->solving,
             "solving with %s: %.1f M decisions so far", s->ops->name,
             (double)d / 1e6);
}

/* What the backend polls during a search: the caller's progress (a line
 * saying it is solving), then its terminate. */
static int poll_search(void *user) {
  ts_solver *s = user;
  if (s->so.progress && s->ops->decisions && s->polls++ % POLL_LINE == 0)
    solving_line(s);
  if (s->so.progress)
    s->so.progress(s->so.progress_user, s->solving);
  return s->so.terminate && s->so.terminate(s->so.terminate_user);
}

ts_solver *ts_solver_new(const tilesat_map *m,
                         const tilesat_solve_options *so) {
  ts_solver *s = ts_calloc(1, sizeof *s);
  s->so = ts_solve_for(m, so);
  s->ops = ops_of(s->so.backend);
  s->impl = s->ops->init();
  snprintf(s->solving, sizeof s->solving, "solving with %s", s->ops->name);
  if (s->so.terminate || s->so.progress)
    s->ops->set_terminate(s->impl, poll_search, s);
  return s;
}

void ts_solver_free(ts_solver *s) {
  if (!s)
    return;
  s->ops->release(s->impl);
  free(s);
}

/* Loading a large CNF takes as long as solving it: progress every so many
 * literals. */
#define LOAD_STEP ((size_t)1 << 20)

static void report_loading(ts_solver *s, size_t done, size_t total,
                           size_t clauses) {
  char line[96];
  snprintf(line, sizeof line, "loading %zu clauses into %s: %.0f%%", clauses,
           s->ops->name, 100.0 * (double)done / (double)total);
  s->so.progress(s->so.progress_user, line);
}

void ts_solver_expect(ts_solver *s, size_t lits, size_t clauses) {
  s->loaded = 0;
  s->load_total = lits;
  s->load_clauses = clauses;
}

void ts_solver_add_clause(ts_solver *s, const int *lits, size_t n) {
  for (size_t i = 0; i < n; i++)
    s->ops->add(s->impl, lits[i]);
  s->ops->add(s->impl, 0);
  size_t before = s->loaded;
  s->loaded += n + 1;
  if (s->so.progress && s->load_total && s->loaded < s->load_total &&
      s->loaded / LOAD_STEP != before / LOAD_STEP)
    report_loading(s, s->loaded, s->load_total, s->load_clauses);
}

void ts_solver_reserve(ts_solver *s, int nvars) {
  if (s->ops->reserve)
    s->ops->reserve(s->impl, nvars);
}

void ts_solver_load(ts_solver *s, const ts_cnf *cnf) {
  ts_solver_reserve(s, cnf->nvars);
  /* the clauses already end in 0, as IPASIR's add wants them */
  size_t n = cnf->lits.n;
  for (size_t i = 0; i < n; i++) {
    if (s->so.progress && i % LOAD_STEP == 0 && i > 0)
      report_loading(s, i, n, cnf->start.n);
    s->ops->add(s->impl, cnf->lits.v[i]);
  }
}

void ts_solver_assume(ts_solver *s, int lit) { s->ops->assume(s->impl, lit); }

int ts_solver_solve(ts_solver *s) {
  int limit = s->limit;
  s->limit = 0; /* for this solve only, even one a stop skips */
  /* a stop asked for between solves ends an enumeration or a search for
   * an explanation as surely as one during a solve */
  if (ts_terminated(&s->so))
    return TILESAT_UNKNOWN;
  if (limit > 0)
    s->ops->limit(s->impl, limit);
  s->polls = 0;
  return s->ops->solve(s->impl);
}

void ts_solver_limit(ts_solver *s, int conflicts) { s->limit = conflicts; }

void ts_solver_say(const ts_solver *s, const char *line) {
  if (s->so.progress)
    s->so.progress(s->so.progress_user, line);
}

void ts_say(const tilesat_solve_options *so, const char *fmt, ...) {
  if (!so->progress)
    return;
  char line[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  so->progress(so->progress_user, line);
}

bool ts_solver_value(ts_solver *s, int var) {
  return s->ops->value(s->impl, var);
}

bool ts_solver_failed(ts_solver *s, int lit) {
  return s->ops->failed(s->impl, lit);
}

int ts_no_answer(const tilesat_solve_options *so, const char *what,
                 tilesat_error *err) {
  if (ts_terminated(so))
    ts_error(err, what, 0, "interrupted");
  else
    ts_error(err, NULL, 0, "the %s backend gave no answer",
             tilesat_backend_name(so ? so->backend : TILESAT_PICOSAT));
  return -1;
}

int ts_solver_unknown(const ts_solver *s, const char *what,
                      tilesat_error *err) {
  return ts_no_answer(&s->so, what, err);
}

tilesat_solve_options ts_solve_for(const tilesat_map *m,
                                   const tilesat_solve_options *so) {
  tilesat_solve_options r = {.backend = TILESAT_PICOSAT};
  if (so)
    r = *so;
  r.backend = tilesat_backend_choose(m, r.backend);
  return r;
}

void ts_solver_prefer(ts_solver *s, int lit) {
  if (s->ops->prefer)
    s->ops->prefer(s->impl, lit);
}

void ts_solver_set_counting(ts_solver *s) {
  if (!s->ops->set_counting)
    ts_misuse(__func__, "counting settings need the CryptoMiniSat backend");
  s->ops->set_counting(s->impl);
}

void ts_solver_add_xor(ts_solver *s, const int *vars, size_t n, bool rhs) {
  if (!s->ops->add_xor)
    ts_misuse(__func__, "XOR constraints need the CryptoMiniSat backend");
  s->ops->add_xor(s->impl, vars, n, rhs);
}
