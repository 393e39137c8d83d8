/* collapse_results.c: what a collapser's last run left (collapse.c runs
 * it), in tilesat_collapse_get's one struct: its exact bans, restarts,
 * solver calls and repairs, the cell left empty, the window that refuted
 * the pins, the choices made; why a failed run failed
 * (tilesat_collapse_explain: the point of no return and a minimal set of
 * the choices before it that leaves no map); the names of the guards and
 * heuristics; and a run's progress lines (how many cells are decided, and
 * why the count went back). */
#include "wfc/collapse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tilesat_collapse_get(const tilesat_collapse *c,
                          tilesat_collapse_info *info) {
  if (!c || !info)
    ts_misuse(__func__, "NULL argument");
  const ts_window *w = &c->unsat_window;
  *info = (tilesat_collapse_info){
      .contradiction = c->contradiction,
      .why = c->failed >= 0 ? c->why : NULL,
      .choices = c->choices.n,
      .banned = (long)c->dooms.n,
      .solver_calls = c->calls,
      .repairs = c->repairs,
      .resolved = c->resolved,
      .restarts = c->restarts,
      .restart_why = c->restarts ? c->restart_why : NULL,
      .unsat_window = w->m.width > 0,
      .row0 = w->y0,
      .col0 = w->x0,
      .rows = w->m.height,
      .cols = w->m.width,
      .no_return = c->no_return,
      .ndoomed = c->doomed.n,
      .doomed = c->doomed.v,
      .modify = c->mod,
  };
}

void tilesat_collapse_ban(const tilesat_collapse *c, size_t i, size_t *step,
                          int *cell, int *tile) {
  if (i >= c->dooms.n)
    ts_misuse(__func__, "no such ban");
  *step = c->dooms.v[i].step;
  *cell = c->dooms.v[i].cell;
  *tile = c->dooms.v[i].tile;
}

bool tilesat_collapse_possible(const tilesat_collapse *c, int cell, int tile) {
  if (!c || cell < 0 || cell >= c->N || tile < 0 || tile >= c->T)
    ts_misuse(__func__, "NULL collapser, or cell or tile out of range");
  if (!c->possible)
    ts_misuse(__func__, "a collapser for modify has no wave");
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

const char *tilesat_guard_name(tilesat_guard g) {
  return g == TILESAT_GUARD_SAT      ? "sat"
         : g == TILESAT_GUARD_BLOCKS ? "blocks"
         : g == TILESAT_GUARD_AUTO   ? "auto"
         : g == TILESAT_GUARD_MODIFY ? "modify"
                                     : "none";
}

int tilesat_guard_parse(const char *name, tilesat_guard *out) {
  for (int g = 0; g <= TILESAT_GUARD_MODIFY; g++)
    if (!strcmp(name, tilesat_guard_name((tilesat_guard)g))) {
      *out = (tilesat_guard)g;
      return 0;
    }
  return -1;
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
    res = ts_collapse_solve_choices(c, set.v, set.n, err);
    if (res == TILESAT_SAT) { /* needed: put it back where it was */
      TS_PUSH(set, set.v[k]);
      set.v[k] = drop;
      k++;
    } else if (res == TILESAT_UNSAT) { /* keep only the failed ones */
      size_t n = 0;
      for (size_t i = 0; i < set.n; i++) {
        ts_collapse_pair p = c->choices.v[set.v[i]];
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
  c->no_return = -1;
  c->doomed.n = 0;
  long k = ts_collapse_global_no_return(c, so, 0, err);
  if (k < -1)
    return -1;
  if (k == -1) /* no valid map at all: nothing to blame */
    return 0;
  c->no_return = k;
  int rc = find_doomed(c, err);
  if (rc == 0)
    qsort(c->doomed.v, c->doomed.n, sizeof *c->doomed.v, cmp_size);
  return rc;
}

/* ------------------------------------- progress lines of a run */

static long decided_cells(const tilesat_collapse *c) {
  long open =
      c->heuristic == TILESAT_HEURISTIC_SCANLINE ? c->N - c->scan : c->heap_n;
  return (long)c->N - open;
}

void ts_collapse_undo(tilesat_collapse *c, const char *why) {
  long now = decided_cells(c);
  bool pending = c->undo_why && now < c->undo_from; /* keep the higher */
  c->undo_from = pending ? c->undo_from : now;
  c->undo_why = why;
}

void ts_collapse_report(const tilesat_collapse *c,
                        const tilesat_solve_options *so, const char *doing) {
  for (; c->parent; c = c->parent)
    so = c->parent_so;
  if (!so || !so->progress)
    return;
  long decided = decided_cells(c);
  char line[256];
  int n = snprintf(line, sizeof line, "%ld of %d cells decided", decided, c->N);
  if (c->guarded && n > 0 && (size_t)n < sizeof line)
    n += snprintf(line + n, sizeof line - (size_t)n,
                  ", %zu exact ban%s, %ld block repair%s", c->dooms.n,
                  c->dooms.n == 1 ? "" : "s", c->repairs,
                  c->repairs == 1 ? "" : "s");
  if (doing && *doing && n > 0 && (size_t)n < sizeof line)
    n += snprintf(line + n, sizeof line - (size_t)n, "; %s", doing);
  if (c->undo_why && decided < c->undo_from && n > 0 && (size_t)n < sizeof line)
    snprintf(line + n, sizeof line - (size_t)n, "; back from %ld decided: %s",
             c->undo_from, c->undo_why);
  so->progress(so->progress_user, line);
}

static void say_run(void *user, const char *line) {
  (void)line;
  const ts_collapse_say *say = user;
  ts_collapse_report(say->c, say->own, say->doing);
}

tilesat_solve_options ts_collapse_quiet(const tilesat_collapse *c,
                                        const tilesat_solve_options *so,
                                        const tilesat_solve_options *own,
                                        ts_collapse_say *say) {
  *say = (ts_collapse_say){c, own, ""};
  tilesat_solve_options q = *so;
  q.progress = say_run;
  q.progress_user = say;
  return q;
}
