/* collapse_guard.c: collapse's solver on the whole map, and the guard
 * (collapse.c tells the design): the windows and the learns of dooms, and
 * a guarded run's restarts with global constraints. */
#include "wfc/collapse_internal.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the solver */

/* The guard's and the explanation's solver on the whole map, made once,
 * within the map's memory bound (--max-memory).  0, or -1 with err. */
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
  ts_cuts_free(c->cuts);
  c->solver = NULL;
  c->cuts = NULL;
  c->solve = want;
  c->map_sat = -1;
  if (ts_collapse_solver_refuse(c, so, err))
    return -1;
  c->solver = ts_solver_for_map(c->m, so);
  c->cuts = ts_cuts_new(c->m); /* connected and path, by cuts */
  return 0;
}

int ts_collapse_solver_refuse(const tilesat_collapse *c,
                              const tilesat_solve_options *so,
                              tilesat_error *err) {
  double tables = (double)c->N * ts_collapse_bytes_per_cell(c->T, c->D, true);
  return ts_memory_check(c->m, so, tables, "collapse", err);
}

/* The conflicts a window's solve may take (ts_solver_limit): near the
 * point of no return a window's prefix can be barely refutable, and an
 * answer from a larger window or a later prefix is cheaper than a hard
 * proof. */
#define WINDOW_CONFLICTS 1000

/* Solve s under the literals lits[0..n), within `budget` conflicts if not
 * 0: SAT, UNSAT, TILESAT_UNKNOWN (the budget ran out), or -1 with err. */
static int solve_lits(tilesat_collapse *c, ts_solver *s, const int *lits,
                      long n, int budget, tilesat_error *err) {
  c->calls++;
  int res;
  if (s == c->solver && c->cuts) { /* the whole map: its regions too */
    res = ts_solve_cut_assuming(s, c->cuts, lits, (int)n, budget, NULL);
  } else if (s == c->wsolver && c->wcut) { /* a window: what holds there */
    res = ts_cg_window_solve(c->wcut, s, lits, n, budget);
  } else {
    for (long i = 0; i < n; i++)
      ts_solver_assume(s, lits[i]);
    if (budget)
      ts_solver_limit(s, budget);
    res = ts_solver_solve(s);
  }
  if (res == TILESAT_SAT || res == TILESAT_UNSAT ||
      (budget && !ts_terminated(c->now)))
    return res;
  return ts_solver_unknown(s, "collapse", err);
}

/* Solve under the choices at idx[0..n) (indexes into c->choices): SAT,
 * UNSAT, or -1 with err. */
int ts_collapse_solve_choices(tilesat_collapse *c, const size_t *idx, size_t n,
                              tilesat_error *err) {
  int *lits = ts_malloc((n + 1) * sizeof *lits);
  for (size_t i = 0; i < n; i++) {
    ts_collapse_pair p = c->choices.v[idx[i]];
    lits[i] = ts_var(c->m, p.cell, p.tile);
  }
  int res = solve_lits(c, c->solver, lits, (long)n, 0, err);
  free(lits);
  return res;
}

/* After an UNSAT answer under the prefix lits[0..j]: the last literal of
 * the prefix the refutation used (its failed assumptions), so that the
 * prefix up to it is unsatisfiable too. */
static long last_failed(ts_solver *s, const int *lits, long j) {
  while (j > 0 && !ts_solver_failed(s, lits[j]))
    j--;
  return j;
}

/* The first j in (lo, hi] whose prefix lits[0..j] leaves s unsatisfiable,
 * knowing that prefix lo (-1: none) leaves it satisfiable and prefix hi
 * not.  Prefixes are monotone (a longer one keeps every constraint of a
 * shorter), and WFC notices a doom soon after it: gallop back from hi
 * (hi-1, hi-2, hi-4, ...) to a satisfiable prefix, then bisect; every
 * UNSAT answer moves hi down to the last choice its refutation used (a
 * non-local doom can lie thousands of choices back).  With a budget, a
 * prefix with no answer within it counts as satisfiable: hi is still a
 * refuted prefix, not always the first; or, `strict`, the search gives up.
 * j, -3 (gave up), or -2 with err. */
static long first_unsat(tilesat_collapse *c, ts_solver *s, const int *lits,
                        long lo, long hi, int budget, bool strict,
                        tilesat_error *err) {
  for (long step = 1; hi - lo > 1; step *= 2) {
    long mid = hi - step > lo ? hi - step : lo + 1;
    int res = solve_lits(c, s, lits, mid + 1, budget, err);
    if (res < 0)
      return -2;
    if (res == TILESAT_UNKNOWN && strict)
      return -3;
    if (res != TILESAT_UNSAT) { /* or no answer within the budget */
      lo = mid;
      break;
    }
    hi = last_failed(s, lits, mid);
  }
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    int res = solve_lits(c, s, lits, mid + 1, budget, err);
    if (res < 0)
      return -2;
    if (res == TILESAT_UNKNOWN && strict)
      return -3;
    if (res != TILESAT_UNSAT)
      lo = mid;
    else
      hi = last_failed(s, lits, mid);
  }
  return hi;
}

/* Do the rules and pins alone leave a valid map?  SAT, UNSAT, UNKNOWN (no
 * answer within `budget` conflicts, if not 0), or -1. */
static int map_sat(tilesat_collapse *c, int budget, tilesat_error *err) {
  if (c->map_sat < 0) {
    int res = solve_lits(c, c->solver, NULL, 0, budget, err);
    if (res < 0 || res == TILESAT_UNKNOWN)
      return res;
    c->map_sat = res;
  }
  return c->map_sat;
}

/* The run's point of no return on the whole map: the first choice whose
 * prefix leaves no valid map (the whole run leaves none).  Its index, -1
 * when the rules and pins alone leave none, -3 when a solve took more
 * than `budget` conflicts (if not 0), or -2 with err. */
long ts_collapse_global_no_return(tilesat_collapse *c,
                                  const tilesat_solve_options *so, int budget,
                                  tilesat_error *err) {
  if (make_solver(c, so, err))
    return -2;
  int res = map_sat(c, budget, err);
  if (res == TILESAT_UNKNOWN)
    return -3;
  if (res != TILESAT_SAT)
    return res < 0 ? -2 : -1;
  long n = (long)c->choices.n;
  int *lits = ts_malloc(((size_t)n + 1) * sizeof *lits);
  for (long i = 0; i < n; i++)
    lits[i] = ts_var(c->m, c->choices.v[i].cell, c->choices.v[i].tile);
  long k = first_unsat(c, c->solver, lits, -1, n - 1, budget, budget > 0, err);
  free(lits);
  return k;
}

int ts_collapse_solve_map(tilesat_collapse *c, const tilesat_solve_options *so,
                          int *tiles, tilesat_error *err) {
  c->now = so;
  if (make_solver(c, so, err))
    return -1;
  int res = solve_lits(c, c->solver, NULL, 0, 0, err);
  if (res != TILESAT_SAT)
    return res;
  for (int cell = 0; cell < c->N; cell++)
    for (int t = 0; t < c->T; t++)
      if (ts_solver_value(c->solver, ts_var(c->m, cell, t)))
        tiles[cell] = t;
  return res;
}

/* ------------------------------------------------------------- the guard */

/* The run's k-th choice is proved to doom it.  The dooms learnt at later
 * steps go: they were proved for choices before them that the replay will
 * not make again (a window can find a doom later than the first).  Each
 * learn adds one at step k and drops only later ones, so the dooms per
 * step, read from the first step, grow in lexicographic order: the loop of
 * learns and replays ends. */
static void learn(tilesat_collapse *c, size_t k) {
  while (c->dooms.n && c->dooms.v[c->dooms.n - 1].step > k)
    c->dooms.n--;
  ts_collapse_pair p = c->choices.v[k];
  TS_PUSH(c->dooms, ((ts_collapse_doom){k, p.cell, p.tile}));
}

/* The block guard's windows (collapse_internal.h): sat/window.c's. */
bool ts_collapse_window(const tilesat_collapse *c, int cell, int r,
                        ts_window *w) {
  return ts_window_place(c->m, cell, r, w);
}

bool ts_collapse_window_rect(const tilesat_collapse *c, int x0, int y0, int ww,
                             int hh, ts_window *w) {
  return ts_window_rect(c->m, x0, y0, ww, hh, w);
}

int ts_collapse_window_cell(const tilesat_collapse *c, const ts_window *w,
                            int cell) {
  return ts_window_cell(c->m, w, cell);
}

int ts_collapse_map_cell(const tilesat_collapse *c, const ts_window *w,
                         int lc) {
  return ts_window_map_cell(c->m, w, lc);
}

/* The largest window tried on a map with global constraints (radius 12). */
#define GLOBAL_WINDOW_CELLS 625L

/* The map's connected and path constraints as they hold in window w
 * (collapse_globals.c), or NULL. */
static ts_cg_window *window_globals(const tilesat_collapse *c,
                                    const ts_window *w) {
  if (!c->cg)
    return NULL;
  int *wcell = ts_malloc((size_t)w->m.ncells * sizeof *wcell);
  for (int lc = 0; lc < w->m.ncells; lc++)
    wcell[lc] = ts_collapse_map_cell(c, w, lc);
  ts_cg_window *cw = ts_cg_window_new(c, &w->m, wcell);
  free(wcell);
  return cw;
}

/* Does a window's solver fit the map's bound, beside the tables and the
 * whole map's solver if there is one? */
static bool window_fits(const tilesat_collapse *c, const tilesat_map *w) {
  double need = ts_solver_bytes(TILESAT_CADICAL, ts_cnf_measure(w)) +
                (double)c->N * ts_collapse_bytes_per_cell(c->T, c->D, true);
  if (c->solver)
    need += ts_solver_bytes(c->solve.backend, ts_cnf_measure(c->m));
  return need <= (double)c->m->max_memory;
}

/* Learn a doom in windows around the contradiction, doubling from radius
 * 3: in the first window that, with its pins, refutes the run's choices
 * that fall in it, the first of them whose prefix it refutes.  1 (a doom
 * learnt), 0 (no window short of the whole map refutes the run),
 * TILESAT_UNSAT (a window refutes the pins alone: no valid map), or -1
 * with err.  Windows of at most max_cells cells. */
static int window_learn(tilesat_collapse *c, const tilesat_solve_options *so,
                        long max_cells, tilesat_error *err) {
  ts_collapse_say say;
  tilesat_solve_options quiet = ts_collapse_quiet(c, so, so, &say);
  quiet.backend = TILESAT_CADICAL; /* its conflict limit is exact */
  size_t n = c->choices.n;
  int *lits = ts_malloc((n + 1) * sizeof *lits);
  size_t *idx = ts_malloc((n + 1) * sizeof *idx);
  int rc = 0;
  ts_window w;
  for (int r = 3; rc == 0 && ts_window_at(c->m, c->contradiction, r, &w);
       r *= 2) {
    snprintf(say.doing, sizeof say.doing,
             "the guard: looking for a doom in a %dx%d window", w.m.width,
             w.m.height);
    ts_collapse_report(c, so, say.doing);
    if (w.m.ncells > max_cells || !window_fits(c, &w.m)) {
      ts_window_free(&w);
      break;
    }
    ts_solver *s = ts_solver_for_map(&w.m, &quiet);
    c->wcut = window_globals(c, &w);
    c->wsolver = s;
    long k = 0;
    for (size_t i = 0; i < n; i++) {
      int lc = ts_window_cell(c->m, &w, c->choices.v[i].cell), a = 0;
      if (lc >= 0 ||
          (a = ts_cg_window_outside(c->wcut, c->choices.v[i].tile))) {
        lits[k] = lc >= 0 ? ts_var(&w.m, lc, c->choices.v[i].tile) : a;
        idx[k++] = i;
      }
    }
    int res = solve_lits(c, s, lits, k, WINDOW_CONFLICTS, err);
    if (res == TILESAT_UNSAT) {
      res = solve_lits(c, s, NULL, 0, WINDOW_CONFLICTS, err);
      if (res == TILESAT_UNSAT) {
        rc = TILESAT_UNSAT;
        c->unsat_window =
            (ts_window){.m = {.width = w.m.width, .height = w.m.height},
                        .x0 = w.x0,
                        .y0 = w.y0};
      } else if (res >= 0) {
        long j =
            first_unsat(c, s, lits, -1, k - 1, WINDOW_CONFLICTS, false, err);
        if (j < -1)
          rc = -1;
        else {
          learn(c, idx[j]);
          rc = 1;
        }
      }
    }
    if (res < 0)
      rc = -1;
    ts_cg_window_free(c->wcut);
    c->wcut = NULL;
    ts_solver_free(s);
    ts_window_free(&w);
  }
  free(lits);
  free(idx);
  return rc;
}

/* auto: the exact guard answers while its solver calls in the run stay
 * under the budget (tilesat_collapse_options.guard_budget, or AUTO_CALLS);
 * its windows have at most AUTO_WINDOW_CELLS cells, and its proof on the
 * whole map is tried on maps of at most AUTO_WHOLE_VARS variables (cells
 * times tiles), each solve within AUTO_CONFLICTS conflicts. */
#define AUTO_CALLS 100
#define AUTO_WINDOW_CELLS 2500
#define AUTO_WHOLE_VARS (1L << 18)
#define AUTO_CONFLICTS 20000

/* With global constraints: the learns that go back a run may take before
 * it starts over from another seed, and the starts before the whole
 * map's solver looks for the point of no return instead. */
#define MAX_BACKS 8
#define MAX_LEARNS(c) (1024 + (c)->N / 8)
#define MAX_RESTARTS 32
#define FREE_RESTARTS 3

/* A guarded run with global constraints goes back too often: start over
 * from a seed drawn from its own (from the fourth start on, once the
 * whole map is known to have a valid map at all).  TILESAT_SAT,
 * TILESAT_UNSAT, or -1. */
static int restart(tilesat_collapse *c, const tilesat_solve_options *so,
                   const char *why, tilesat_error *err) {
  if (c->restarts == FREE_RESTARTS) {
    if (make_solver(c, so, err))
      return -1;
    int res = map_sat(c, 0, err);
    if (res != TILESAT_SAT)
      return res < 0 ? -1 : TILESAT_UNSAT;
  }
  ts_collapse_new_start(c);
  c->restart_why = why;
  return TILESAT_SAT;
}

void ts_collapse_new_start(tilesat_collapse *c) {
  c->restarts++;
  uint64_t x = c->seed ^ ((uint64_t)c->restarts << 32);
  c->seed_now = ts_splitmix64(&x);
  c->dooms.n = 0;
  c->backs = c->learns = 0;
  c->snap.step = c->old.step = SIZE_MAX;
}

/* A guarded run with global constraints contradicted.  The propagation
 * (arc consistency, counts, regions) removes only tiles no valid map
 * holds with the choices made, so its contradiction proves that the last
 * choice dooms the run: learnt, and the cell draws again.  A cell left
 * empty may have been doomed earlier: small windows first.  When every
 * tile of the cell drawn is doomed, the choices before are to blame:
 * probing finds the first prefix that dooms it.  Past MAX_BACKS of those
 * (or MAX_LEARNS learns), a new start.  TILESAT_SAT (run again),
 * TILESAT_UNSAT, or -1. */
static int global_learn(tilesat_collapse *c, const tilesat_solve_options *so,
                        tilesat_error *err) {
  size_t last = c->choices.n - 1;
  bool back = c->dooms.n && last < c->dooms.v[c->dooms.n - 1].step;
  if (c->restarts < MAX_RESTARTS && c->learns++ >= MAX_LEARNS(c))
    return restart(c, so,
                   "its count, connected and path constraints banned too "
                   "many choices",
                   err);
  if (c->restarts < MAX_RESTARTS && back && c->backs++ >= MAX_BACKS)
    return restart(c, so,
                   "its count, connected and path constraints sent it back "
                   "to undo earlier choices too often",
                   err);
  if (c->failed < 0) {
    int rc = window_learn(c, so, GLOBAL_WINDOW_CELLS, err);
    if (rc != 0)
      return rc == 1 ? TILESAT_SAT : rc;
  }
  if (back && c->restarts < MAX_RESTARTS) {
    size_t j = ts_collapse_probe_back(c, c->dooms.v[c->dooms.n - 1].cell);
    if (j == 0) /* the pins alone */
      return TILESAT_UNSAT;
    last = j - 1;
  } else if (back) {
    long k = ts_collapse_global_no_return(c, so, 0, err);
    if (k < 0)
      return k == -1 ? TILESAT_UNSAT : -1;
    last = (size_t)k;
  }
  learn(c, last);
  return TILESAT_SAT;
}

/* "3.7 M clauses, 0.5 M variables" (or the counts, below 10^5). */
static void cnf_size_text(const tilesat_map *m, char *buf, size_t len) {
  ts_cnf_size z = ts_cnf_measure(m);
  if (z.nclauses >= 1e5)
    snprintf(buf, len, "%.1f M clauses, %.1f M variables", z.nclauses / 1e6,
             z.nvars / 1e6);
  else
    snprintf(buf, len, "%.0f clauses, %.0f variables", z.nclauses, z.nvars);
}

/* Before the exact guard first builds the whole map's solver: its size,
 * and what would do without it, said at once (the load alone takes
 * seconds to minutes on a large map, and then only "solving" is said). */
static void say_whole_map(const tilesat_collapse *c,
                          const tilesat_collapse_options *o) {
  char size[96], line[320];
  cnf_size_text(c->m, size, sizeof size);
  snprintf(line, sizeof line,
           "guard: no window refutes the run: the exact guard needs the "
           "whole map's solver (%s, %dx%d cells); --guard auto, the fast "
           "guard, never fails either and would not (nor would modify)",
           size, c->m->width, c->m->height);
  o->notice(o->solve.progress_user, line);
}

/* Said once, before the exact guard's first run on a map whose whole
 * solver is large (TS_WHOLE_SAY clauses or more): it may need it, and
 * loading and solving it takes minutes (Castle 128x128: 3.7 M clauses,
 * no map after 110 s), where auto takes a second. */
#define TS_WHOLE_SAY 1e6

void ts_collapse_say_exact(tilesat_collapse *c,
                           const tilesat_collapse_options *o) {
  if (!o->notice || o->guard != TILESAT_GUARD_SAT || c->light ||
      c->said_exact || ts_cnf_measure(c->m).nclauses < TS_WHOLE_SAY)
    return;
  c->said_exact = true;
  char size[96], line[320];
  cnf_size_text(c->m, size, sizeof size);
  snprintf(line, sizeof line,
           "guard: the exact guard proves each doom in a window around it, "
           "else on the whole %dx%d map (%s: minutes to load and solve); "
           "--guard auto is the fast guard and never fails either",
           c->m->width, c->m->height, size);
  o->notice(o->solve.progress_user, line);
}

/* Castle 256x256's explanation loaded 14.9 M clauses into PicoSAT for
 * 35 s and 1.95 GB, saying only "loading" and "solving": said first. */
int tilesat_collapse_explain_cost(const tilesat_collapse *c,
                                  const tilesat_solve_options *so, char *buf,
                                  size_t len) {
  ts_cnf_size z = ts_cnf_measure(c->m);
  if (z.nclauses < TS_WHOLE_SAY || c->m->ncells < 4 * 64 * 64 || c->solver)
    return 0; /* (a 64x64 map is the cheaper one it names) */
  tilesat_solve_options want = ts_solve_for(c->m, so);
  double bytes = ts_solver_bytes(want.backend, z);
  char size[96], mem[32];
  cnf_size_text(c->m, size, sizeof size);
  if (bytes >= (double)(1 << 30))
    snprintf(mem, sizeof mem, "%.1f GiB", bytes / (1 << 30));
  else
    snprintf(mem, sizeof mem, "%.0f MiB", bytes / (1 << 20));
  int cell = c->contradiction, w = c->m->width;
  snprintf(buf, len,
           "collapse: --explain: the run contradicted at (%d,%d); explaining "
           "it loads and solves the whole %dx%d map's CNF (%s, up to %s "
           "in %s) before it answers; a failure on a smaller map "
           "(--size 64x64 has %.0f times fewer clauses) is explained in "
           "seconds",
           cell / w, cell % w, c->m->width, c->m->height, size, mem,
           tilesat_backend_name(want.backend),
           (double)c->m->ncells / (64.0 * 64.0));
  return 1;
}

/* A guarded run contradicted: learn a doom (in a window around the
 * contradiction if one refutes the run, else at the point of no return on
 * the whole map).  TILESAT_SAT (a doom learnt: run again), TILESAT_UNSAT
 * (no valid map at all), TILESAT_UNKNOWN (auto: no answer within the
 * budget), or -1. */
int ts_collapse_guard_learn(tilesat_collapse *c,
                            const tilesat_collapse_options *o,
                            tilesat_error *err) {
  const tilesat_solve_options *so = &o->solve;
  if (c->cg) {
    c->now = so;
    return global_learn(c, so, err);
  }
  bool aut = o->guard == TILESAT_GUARD_AUTO && !c->m->masked;
  long calls = o->guard_budget > 0 ? o->guard_budget : AUTO_CALLS;
  if (aut && c->calls >= calls)
    return TILESAT_UNKNOWN;
  c->now = so;
  int rc = window_learn(c, so, aut ? AUTO_WINDOW_CELLS : LONG_MAX, err);
  if (rc != 0)
    return rc == 1 ? TILESAT_SAT : rc;
  /* the whole map's solver: auto leaves it to blocks when it is slow,
   * large or past --max-memory; sat cannot do without it */
  bool fits = c->solver || !ts_collapse_solver_refuse(c, so, aut ? NULL : err);
  if (aut && (c->global_slow || (long)c->N * c->T > AUTO_WHOLE_VARS || !fits))
    return TILESAT_UNKNOWN;
  if (!fits) {
    if (err && !c->m->masked) {
      size_t n = strlen(err->msg);
      snprintf(err->msg + n, sizeof err->msg - n,
               " (no window refutes the run; --guard auto or blocks can "
               "often do without the whole map's solver)");
    }
    return -1;
  }
  if (!c->solver && !aut && o->notice)
    say_whole_map(c, o);
  long k = ts_collapse_global_no_return(c, so, aut ? AUTO_CONFLICTS : 0, err);
  if (k == -3) {
    c->global_slow = true; /* not again with this collapser */
    return TILESAT_UNKNOWN;
  }
  if (k < 0)
    return k == -1 ? TILESAT_UNSAT : -1;
  learn(c, (size_t)k);
  return TILESAT_SAT;
}

/* Is t at cell, the run's next choice, a doom learnt before? */
