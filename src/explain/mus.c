/* mus.c: a minimal explanation by deletion (tilesat_explain).
 *
 * A MUS is minimal, not minimum, and which one deletion finds depends on
 * the order it tries groups in.  Designers want small, local answers, so:
 * pick a few centre cells (where propagation runs dry, pins, the middle of
 * the cores found), find the smallest square window around each that is
 * already UNSAT, and shrink from it trying the groups farthest from the
 * centre first.  The result with the fewest cells wins.  Then the winner is
 * checked on a fresh solver: UNSAT as a whole, SAT with any one dropped. */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- shrinking */

typedef struct order_key {
  int dist, g;
} order_key;

static int cmp_far_first(const void *a, const void *b) {
  const order_key *x = a, *y = b;
  if (x->dist != y->dist)
    return y->dist - x->dist;
  return x->g - y->g;
}

/* Deletion-based MUS from `core` (UNSAT), trying the groups farthest from
 * `centre` first.  With `refine`, an UNSAT answer also drops every group
 * outside its failed set (fast on large cores, less steerable). */
int ts_x_shrink(const tilesat_map *m, ts_xcnf *cnf,
                const tilesat_solve_options *so, const ts_ints *core,
                int centre, bool refine, ts_ints *mus, long *calls) {
  int G = ts_group_count(m);
  uint8_t *in = ts_calloc((size_t)G, 1);
  for (size_t i = 0; i < core->n; i++)
    in[core->v[i]] = 1;
  ts_xsub x;
  ts_xsub_init(&x, cnf, G, in, so);
  order_key *ord = ts_malloc(core->n * sizeof *ord);
  for (size_t i = 0; i < core->n; i++)
    ord[i] = (order_key){ts_x_group_dist2(m, core->v[i], centre), core->v[i]};
  qsort(ord, core->n, sizeof *ord, cmp_far_first);
  ts_ints cur = {0};
  for (size_t i = 0; i < core->n; i++)
    TS_PUSH(cur, core->v[i]);
  int res = 0;
  for (size_t i = 0; i < core->n; i++) {
    int g = ord[i].g;
    if (!in[g])
      continue;
    ts_say(so,
           "shrinking around (%d,%d): %zu of %zu constraints tried, %zu left",
           centre / m->width, centre % m->width, i, core->n, cur.n);
    int r = ts_xsub_solve(&x, &cur, g);
    if (r == TILESAT_UNKNOWN) {
      res = -1;
      break;
    }
    if (r == TILESAT_SAT)
      continue; /* needed */
    in[g] = 0;
    if (refine) {
      memset(in, 0, (size_t)G);
      for (size_t k = 0; k < x.failed.n; k++)
        in[x.failed.v[k]] = 1;
    }
    size_t k = 0;
    for (size_t j = 0; j < cur.n; j++)
      if (in[cur.v[j]])
        cur.v[k++] = cur.v[j];
    cur.n = k;
  }
  mus->n = 0;
  for (size_t j = 0; j < cur.n; j++)
    TS_PUSH(*mus, cur.v[j]);
  free(cur.v);
  free(ord);
  free(in);
  *calls += x.calls;
  ts_xsub_free(&x);
  return res;
}

/* Smaller is better: cells involved, then constraints, then how far the
 * adjacencies stray from the cells the story is about. */
typedef struct score {
  long cells, size, spread;
} score;

static score score_of(const tilesat_map *m, const ts_ints *mus) {
  uint8_t *touch = ts_calloc((size_t)m->ncells, 1);
  ts_ints focus = {0};
  score s = {0, (long)mus->n, 0};
  for (size_t i = 0; i < mus->n; i++) {
    int cells[2], n = ts_x_group_cells(m, mus->v[i], cells);
    for (int k = 0; k < n; k++)
      if (!touch[cells[k]]) {
        touch[cells[k]] = 1;
        s.cells++;
      }
    if (n == 1)
      TS_PUSH(focus, cells[0]);
  }
  for (size_t i = 0; i < mus->n && focus.n; i++) {
    int cells[2];
    if (ts_x_group_cells(m, mus->v[i], cells) != 2)
      continue;
    int best = -1;
    for (size_t f = 0; f < focus.n; f++)
      for (int k = 0; k < 2; k++) {
        int d = ts_x_cell_dist(m, cells[k], focus.v[f], true);
        if (best < 0 || d < best)
          best = d;
      }
    s.spread += best;
  }
  free(touch);
  free(focus.v);
  return s;
}

static bool better(score a, score b) {
  if (a.cells != b.cells)
    return a.cells < b.cells;
  if (a.size != b.size)
    return a.size < b.size;
  return a.spread < b.spread;
}

/* Groups (with clauses, or kept by cuts) within Chebyshev distance r of centre.
 */
static void window(const tilesat_map *m, const uint8_t *has, int centre, int r,
                   ts_ints *out) {
  int G = ts_group_count(m);
  out->n = 0;
  for (int g = 0; g < G; g++) {
    if (!has[g])
      continue;
    int cells[2], n = ts_x_group_cells(m, g, cells);
    bool inside = true;
    for (int k = 0; k < n; k++)
      inside = inside && ts_x_cell_dist(m, cells[k], centre, false) <= r;
    if (inside)
      TS_PUSH(*out, g);
  }
}

static void add_centre(ts_ints *centres, int cell) {
  for (size_t i = 0; i < centres->n; i++)
    if (centres->v[i] == cell)
      return;
  TS_PUSH(*centres, cell);
}

/* The cell nearest the mean position of a set's cells. */
int ts_x_centroid(const tilesat_map *m, const ts_ints *set) {
  long sr = 0, sc = 0, n = 0;
  for (size_t i = 0; i < set->n; i++) {
    int cells[2], k = ts_x_group_cells(m, set->v[i], cells);
    for (int j = 0; j < k; j++, n++) {
      sr += cells[j] / m->width;
      sc += cells[j] % m->width;
    }
  }
  if (!n)
    return 0;
  return (int)((sr + n / 2) / n) * m->width + (int)((sc + n / 2) / n);
}

/* Groups a propagation contradiction rests on: a core. */
void ts_x_prop_core(const tilesat_map *m, const ts_prop *p, ts_ints *out) {
  uint8_t *on = ts_malloc(p->steps.n + 1);
  uint8_t *seen = ts_calloc((size_t)ts_group_count(m), 1);
  ts_prop_chain(p, on);
  out->n = 0;
  for (size_t i = 0; i < p->steps.n; i++) {
    if (!on[i])
      continue;
    const ts_step *s = &p->steps.v[i];
    int gs[2] = {s->group, -1};
    if (s->kind == TS_STEP_PIN) /* keeping one tile is the cell's AMO */
      for (int w = 0; w < p->words; w++)
        if (p->sets.v[s->lost + (size_t)w])
          gs[1] = s->cell;
    for (int k = 0; k < 2; k++)
      if (gs[k] >= 0 && !seen[gs[k]]) {
        seen[gs[k]] = 1;
        TS_PUSH(*out, gs[k]);
      }
  }
  free(on);
  free(seen);
}

/* Solver calls to spend looking for smaller answers once there is one:
 * counted, not timed, so that answers do not depend on the machine. */
#define CALL_BUDGET 20000

/* The core to start from (the solver's failed groups, or propagation's
 * conflict when smaller) and the cells to grow windows around: the
 * conflict, the first pins, the centroids, a few cells spread over it. */
void ts_x_core_and_centres(const tilesat_map *m, const ts_ints *failed,
                           ts_ints *base, ts_ints *centres) {
  ts_x_copy_ints(base, failed);
  ts_prop p;
  bool ok = ts_prop_init(&p, m, NULL, false) && ts_prop_pins(&p);
  if (!ok) {
    ts_ints acore = {0};
    ts_x_prop_core(m, &p, &acore);
    add_centre(centres, p.steps.v[p.conflict].cell);
    add_centre(centres, ts_x_centroid(m, &acore));
    if (acore.n < base->n)
      ts_x_copy_ints(base, &acore);
    free(acore.v);
  }
  ts_prop_free(&p);
  for (size_t i = 0, k = 0; i < base->n && k < 3; i++) {
    int cell, pin;
    if (ts_group_decode(m, base->v[i], &cell, &pin) == TS_GROUP_PIN) {
      add_centre(centres, cell);
      k++;
    }
  }
  add_centre(centres, ts_x_centroid(m, base));
  for (int part = 0; part < 4 && base->n; part++) {
    int cells[2];
    if (ts_x_group_cells(m, base->v[base->n * (size_t)part / 4], cells))
      add_centre(centres, cells[0]);
  }
}

/* Into *core, the smallest window around cell c that is UNSAT by itself
 * (its solver's failed groups when large), or nothing if none is; -1 if
 * the backend gave no answer. */
static int unsat_window(const tilesat_map *m, ts_xcnf *cnf,
                        const tilesat_solve_options *so, const uint8_t *has,
                        int c, uint8_t *inwin, ts_ints *core, long *calls) {
  int reach = m->width > m->height ? m->width : m->height;
  int G = ts_group_count(m);
  core->n = 0;
  for (int r = 1, prev = 0; r < reach; prev = r, r = r + prev + 1) {
    window(m, has, c, r, core);
    /* a solver of the window alone: small windows solve fast */
    for (size_t i = 0; i < core->n; i++)
      inwin[core->v[i]] = 1;
    ts_xsub wx;
    ts_xsub_init(&wx, cnf, G, inwin, so);
    int w = ts_xsub_solve(&wx, core, -1);
    *calls += wx.calls;
    for (size_t i = 0; i < core->n; i++)
      inwin[core->v[i]] = 0;
    if (w == TILESAT_UNSAT && core->n > SMALL_CORE)
      ts_x_copy_ints(core, &wx.failed);
    ts_xsub_free(&wx);
    if (w == TILESAT_UNKNOWN)
      return -1;
    if (w != TILESAT_SAT)
      return 0;
    core->n = 0;
  }
  return 0;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Is set (as a set) one of the minimal sets found, kept in `found` as
 * their sizes each followed by their groups, sorted?  A minimal set
 * shrinks to itself, whatever the centre: no solve needed. */
static bool found_before(const ts_ints *found, const ts_ints *set) {
  int *v = ts_malloc((set->n + 1) * sizeof *v);
  if (set->n)
    memcpy(v, set->v, set->n * sizeof *v);
  qsort(v, set->n, sizeof *v, cmp_int);
  bool same = false;
  for (size_t i = 0; i < found->n && !same; i += 1 + (size_t)found->v[i])
    same = (size_t)found->v[i] == set->n &&
           !memcmp(found->v + i + 1, v, set->n * sizeof *v);
  free(v);
  return same;
}

static void found_add(ts_ints *found, const ts_ints *set) {
  size_t at = found->n + 1;
  TS_PUSH(*found, (int)set->n);
  for (size_t i = 0; i < set->n; i++)
    TS_PUSH(*found, set->v[i]);
  qsort(found->v + at, set->n, sizeof *found->v, cmp_int);
}

static int find_mus(const tilesat_map *m, ts_xcnf *cnf,
                    const tilesat_solve_options *so, const uint8_t *has,
                    ts_xsub *full, const ts_ints *failed, ts_ints *best,
                    tilesat_error *err) {
  ts_ints base = {0}, core = {0}, mus = {0}, centres = {0}, found = {0};
  ts_x_core_and_centres(m, failed, &base, &centres);
  size_t maxcentres = base.n > (size_t)4 * SMALL_CORE ? 2 : centres.n;
  score bs = {0, 0, 0};
  int res = 0;
  long calls = 0;
  uint8_t *inwin = ts_calloc((size_t)ts_group_count(m), 1);
  for (size_t ci = 0; ci < centres.n && ci < maxcentres && res == 0; ci++) {
    if (best->n && full->calls + calls > CALL_BUDGET)
      break;
    int c = centres.v[ci];
    res = unsat_window(m, cnf, so, has, c, inwin, &core, &calls);
    if (res < 0)
      break;
    if (!core.n)
      ts_x_copy_ints(&core, &base);
    if (found_before(&found, &core))
      continue; /* a set found already, minimal: it scored */
    if (ts_x_shrink(m, cnf, so, &core, c, core.n > SMALL_CORE, &mus, &calls) <
        0) {
      res = -1;
      break;
    }
    found_add(&found, &mus);
    score s = score_of(m, &mus);
    if (!best->n || better(s, bs)) {
      bs = s;
      ts_x_copy_ints(best, &mus);
    }
  }
  if (res < 0)
    ts_no_answer(so, "explain", err);
  free(inwin);
  free(base.v);
  free(core.v);
  free(mus.v);
  free(centres.v);
  free(found.v);
  return res;
}

/* UNSAT as a whole, SAT with any one group dropped, on a fresh solver. */
int ts_x_verify_minimal(const tilesat_map *m, ts_xcnf *cnf,
                        const tilesat_solve_options *so, const ts_ints *mus,
                        tilesat_error *err) {
  int G = ts_group_count(m);
  uint8_t *in = ts_calloc((size_t)G, 1);
  for (size_t i = 0; i < mus->n; i++)
    in[mus->v[i]] = 1;
  ts_xsub x;
  ts_xsub_init(&x, cnf, G, in, so);
  int res = 0;
  if (ts_xsub_solve(&x, mus, -1) != TILESAT_UNSAT) {
    ts_error(err, NULL, 0,
             "internal error: the explanation found is satisfiable");
    res = -1;
  }
  for (size_t i = 0; i < mus->n && !res; i++) {
    ts_say(so, "checking that the %zu constraints are minimal: %zu done",
           mus->n, i);
    if (ts_xsub_solve(&x, mus, mus->v[i]) != TILESAT_SAT) {
      ts_error(err, NULL, 0,
               "internal error: the explanation found is not minimal");
      res = -1;
    }
  }
  ts_xsub_free(&x);
  free(in);
  return res;
}

static int explain_fn(const tilesat_map *m, const tilesat_solve_options *so,
                      const void *arg, tilesat_explanation **out,
                      tilesat_error *err) {
  (void)arg;
  return tilesat_explain(m, so, out, err);
}

int tilesat_explain(const tilesat_map *m, const tilesat_solve_options *options,
                    tilesat_explanation **out, tilesat_error *err) {
  if (!out)
    ts_misuse(__func__, "NULL map or result");
  tilesat_solve_options so = ts_x_so_of(m, options);
  *out = NULL;
  int in_window = ts_x_in_window(m, &so, explain_fn, NULL, out, err);
  if (in_window != TILESAT_UNKNOWN)
    return in_window;
  ts_xctx x;
  int res = ts_xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints failed = {0}, best = {0};
  ts_x_copy_ints(&failed, &x.full.failed);
  if (find_mus(m, &x.cnf, &so, x.has, &x.full, &failed, &best, err) < 0 ||
      ts_x_verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = ts_x_finish(m, &best);
  ts_xctx_close(&x);
  free(failed.v);
  free(best.v);
  return res;
}
