/* explain.c: why a map has no valid filling.
 *
 * Every clause of the encoding belongs to a human-level constraint group (a
 * cell's one-tile constraint, a pin, the pair of two neighbouring cells).
 * Each group gets a selector variable s, its clauses become (clause | -s),
 * and solving under the assumptions "every s" is solving the map; under a
 * subset of them it is solving with the other constraints dropped.  The
 * failed assumptions of an UNSAT answer are a core; deletion shrinks a core
 * to a minimal one (a MUS): drop a group, and if the rest is still UNSAT it
 * was not needed.
 *
 * A MUS is minimal, not minimum, and which one deletion finds depends on
 * the order it tries groups in.  Designers want small, local answers, so:
 * pick a few centre cells (where propagation runs dry, pins, the middle of
 * the cores found), find the smallest square window around each that is
 * already UNSAT, and shrink from it trying the groups farthest from the
 * centre first.  The result with the fewest cells wins.  Then the winner is
 * checked on a fresh solver: UNSAT as a whole, SAT with any one dropped.
 *
 * Propagation (propagate.c) restricted to the winner's constraints then
 * tells, step by step, which tiles each constraint rules out and why. */
#include "explain/explain.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef TS_VEC(ts_ints) ts_sets;

struct tilesat_explanation {
  const tilesat_map *m;
  int total;
  TS_VEC(tilesat_constraint) cs;
  ts_ints groups; /* group of each constraint */
  ts_ints cells;  /* cells involved, sorted */
  bool by_prop;
};

/* ------------------------------------------------------ groups, constraints */

int tilesat_constraint_count(const tilesat_map *m) {
  int n = m->ncells + (int)m->pins.n + (int)m->globals.n;
  for (int c = 0; c < m->ncells; c++)
    for (int d = 0; d < m->rules->ndirs; d++)
      n += ts_dir_forward(m->topo, d) && ts_map_neighbor(m, c, d) >= 0;
  return n;
}

/* The cells a group touches (1 or 2; none for a global constraint, which
 * is about the whole map); returns how many. */
static int group_cells(const tilesat_map *m, int g, int *cells) {
  int cell, k;
  ts_group_kind kind = ts_group_decode(m, g, &cell, &k);
  cells[0] = cell;
  if (kind == TS_GROUP_GLOBAL)
    return 0;
  if (kind != TS_GROUP_ADJ)
    return 1;
  cells[1] = ts_map_neighbor(m, cell, k);
  return 2;
}

/* The constraint of group g; adjacencies are seen from the side that is a
 * "focus" (a cell whose one-tile constraint or pin is in the set). */
static tilesat_constraint constraint_of(const tilesat_map *m, int g,
                                        const uint8_t *focus) {
  tilesat_constraint c = {0};
  int cell, k;
  ts_group_kind kind = ts_group_decode(m, g, &cell, &k);
  c.dir = c.nrow = c.ncol = c.pin = c.tile = c.global = -1;
  if (kind == TS_GROUP_GLOBAL) {
    c.kind = TILESAT_GLOBAL;
    c.global = k;
    c.row = c.col = -1;
    return c;
  }
  if (kind == TS_GROUP_CELL) {
    c.kind = TILESAT_ONE_TILE;
  } else if (kind == TS_GROUP_PIN) {
    c.kind = TILESAT_PINNED;
    c.pin = k;
    c.tile = m->pins.v[k].tile;
  } else {
    c.kind = TILESAT_ADJACENT;
    int n = ts_map_neighbor(m, cell, k);
    if (focus && focus[n] && !focus[cell]) {
      int t = cell;
      cell = n;
      n = t;
      k = tilesat_dir_opposite(m->topo, k);
    }
    c.dir = k;
    c.nrow = n / m->width;
    c.ncol = n % m->width;
  }
  c.row = cell / m->width;
  c.col = cell % m->width;
  return c;
}

static int group_of(const tilesat_map *m, const tilesat_constraint *c,
                    tilesat_error *err) {
  if (c->kind == TILESAT_GLOBAL) {
    if (c->global < 0 || (size_t)c->global >= m->globals.n) {
      ts_error(err, NULL, 0, "constraint: the map has no global constraint %d",
               c->global);
      return -1;
    }
    return ts_global_group(m, c->global);
  }
  if (c->row < 0 || c->row >= m->height || c->col < 0 || c->col >= m->width) {
    ts_error(err, NULL, 0, "constraint: cell (%d,%d) is outside the map",
             c->row, c->col);
    return -1;
  }
  int cell = c->row * m->width + c->col;
  switch (c->kind) {
  case TILESAT_ONE_TILE:
    return cell;
  case TILESAT_PINNED:
    if (c->pin < 0 || c->pin >= (int)m->pins.n ||
        m->pins.v[c->pin].cell != cell) {
      ts_error(err, NULL, 0, "constraint: (%d,%d) has no pin %d", c->row,
               c->col, c->pin);
      return -1;
    }
    return m->ncells + c->pin;
  case TILESAT_ADJACENT: {
    int n = c->dir >= 0 && c->dir < m->rules->ndirs
                ? ts_map_neighbor(m, cell, c->dir)
                : -1;
    if (n < 0 || n != c->nrow * m->width + c->ncol) {
      ts_error(err, NULL, 0,
               "constraint: (%d,%d) has no neighbour (%d,%d) in direction %d",
               c->row, c->col, c->nrow, c->ncol, c->dir);
      return -1;
    }
    return ts_edge_group(m, cell, c->dir);
  }
  case TILESAT_GLOBAL:
    break;
  }
  ts_error(err, NULL, 0, "constraint: unknown kind %d", (int)c->kind);
  return -1;
}

/* --------------------------------------------------------- selector solver */

/* The map's CNF, and the cuts of its connected and path constraints found
 * so far, appended to it in their constraints' groups (cuts.c): every
 * solver made later starts with them. */
typedef struct xcnf {
  const tilesat_map *m;
  ts_cnf cnf;
  ts_cuts *lazy; /* NULL: no connected or path constraint */
} xcnf;

static void xcnf_init(xcnf *x, const tilesat_map *m) {
  x->m = m;
  ts_encode(m, &x->cnf);
  x->lazy = ts_cuts_new(m);
}

static void xcnf_free(xcnf *x) {
  ts_cnf_free(&x->cnf);
  ts_cuts_free(x->lazy);
}

/* A solver holding the clauses of some groups, each guarded by its group's
 * selector; variables renumbered densely so that a small subproblem is a
 * small CNF. */
typedef struct sub {
  ts_solver *s;
  xcnf *src;
  int *sel; /* group -> selector variable, 0 when the group has no clause */
  int *var; /* the CNF's variable -> the solver's, 0 when not there */
  int next; /* the solver's last variable */
  ts_ints failed, buf;
  uint8_t *active; /* per global constraint: assumed in this solve */
  long calls;      /* solves so far: the search's budget is counted in them */
} sub;

static int sub_var(sub *x, int v) {
  if (!x->var[v])
    x->var[v] = ++x->next;
  return x->var[v];
}

/* A clause of the CNF's group g, guarded by g's selector. */
static void sub_add(sub *x, int g, const int *lits, size_t n) {
  if (!x->sel[g])
    x->sel[g] = ++x->next;
  x->buf.n = 0;
  for (size_t i = 0; i < n; i++) {
    int v = sub_var(x, abs(lits[i]));
    TS_PUSH(x->buf, lits[i] > 0 ? v : -v);
  }
  TS_PUSH(x->buf, -x->sel[g]);
  ts_solver_add_clause(x->s, x->buf.v, x->buf.n);
}

static void sub_init(sub *x, xcnf *cnf, int ngroups, const uint8_t *include,
                     const tilesat_solve_options *so) {
  memset(x, 0, sizeof *x);
  x->src = cnf;
  x->s = ts_solver_new(NULL, so);
  x->sel = ts_calloc((size_t)ngroups, sizeof *x->sel);
  x->var = ts_calloc((size_t)cnf->cnf.nvars + 1, sizeof *x->var);
  x->active = ts_calloc(cnf->m->globals.n + 1, 1);
  const ts_cnf *f = &cnf->cnf;
  for (size_t i = 0; i < f->start.n; i++) {
    int g = f->group.v[i];
    if (include && !include[g])
      continue;
    const int *l = f->lits.v + f->start.v[i], *e = l;
    while (*e)
      e++;
    sub_add(x, g, l, (size_t)(e - l));
  }
  /* A connected or path constraint may have no clause yet (one tile's
   * class, no cell it must hold): it is kept by cuts all the same, so it
   * gets its selector, and a solve that assumes it cuts. */
  const tilesat_map *m = cnf->m;
  for (size_t k = 0; k < m->globals.n; k++) {
    int g = ts_global_group(m, (int)k);
    if (ts_global_lazy(&m->globals.v[k]) && !x->sel[g] &&
        (!include || include[g]))
      x->sel[g] = ++x->next;
  }
}

static void sub_free(sub *x) {
  ts_solver_free(x->s);
  free(x->sel);
  free(x->var);
  free(x->active);
  free(x->failed.v);
  free(x->buf.v);
}

static bool sub_value(void *user, int v) {
  sub *x = user;
  return x->var[v] && ts_solver_value(x->s, x->var[v]);
}

/* A cut: into the CNF (for later solvers) and into this solver. */
static void sub_cut(void *user, int g, const int *lits, size_t n) {
  sub *x = user;
  ts_cnf *f = &x->src->cnf;
  TS_PUSH(f->start, f->lits.n);
  TS_PUSH(f->group, g);
  for (size_t i = 0; i < n; i++)
    TS_PUSH(f->lits, lits[i]);
  TS_PUSH(f->lits, 0);
  sub_add(x, g, lits, n);
}

static void sub_assume(sub *x, const ts_ints *set, int skip) {
  for (size_t i = 0; i < set->n; i++)
    if (set->v[i] != skip && x->sel[set->v[i]])
      ts_solver_assume(x->s, x->sel[set->v[i]]);
}

/* Which connected and path constraints this solve assumes. */
static bool sub_lazy(sub *x, const ts_ints *set, int skip) {
  const tilesat_map *m = x->src->m;
  if (!x->src->lazy)
    return false;
  bool any = false;
  memset(x->active, 0, m->globals.n);
  for (size_t i = 0; i < set->n; i++) {
    int cell, k, g = set->v[i];
    if (g != skip && x->sel[g] &&
        ts_group_decode(m, g, &cell, &k) == TS_GROUP_GLOBAL &&
        ts_global_lazy(&m->globals.v[k])) {
      x->active[k] = 1;
      any = true;
    }
  }
  return any;
}

/* Solve with the groups of `set` except `skip` (-1: none), cutting the
 * models that break an assumed connected or path constraint; on UNSAT the
 * failed groups are in x->failed. */
static int sub_solve(sub *x, const ts_ints *set, int skip) {
  bool lazy = sub_lazy(x, set, skip);
  int res;
  for (;;) {
    sub_assume(x, set, skip);
    res = ts_solver_solve(x->s);
    x->calls++;
    if (res != TILESAT_SAT || !lazy ||
        !ts_cuts_find(x->src->lazy, sub_value, x, x->active, sub_cut, x))
      break;
  }
  x->failed.n = 0;
  if (res == TILESAT_UNSAT)
    for (size_t i = 0; i < set->n; i++)
      if (set->v[i] != skip && x->sel[set->v[i]] &&
          ts_solver_failed(x->s, x->sel[set->v[i]]))
        TS_PUSH(x->failed, set->v[i]);
  return res;
}

/* The CNF is kept beside a solver that has it with a selector variable per
 * group (one more literal per clause). */
static int explain_fits(const tilesat_map *m, const tilesat_solve_options *so,
                        tilesat_error *err) {
  ts_cnf_size z = ts_cnf_measure(m);
  double extra = ts_cnf_bytes(z) + 16.0 * z.nlits + 400.0 * ts_group_count(m);
  return ts_memory_check(m, so, extra, "explain", err);
}

/* Explanations speak of cells, pins and pairs: a banned tile is none of
 * those, so a map with bans is refused rather than explained without
 * them. */
static int refuse_bans(const tilesat_map *m, tilesat_error *err) {
  if (!m->bans.n)
    return 0;
  ts_error(err, "explain", 0,
           "the map has %zu banned tiles, which explanations do not know "
           "yet",
           m->bans.n);
  return -1;
}

int tilesat_constraints_check(const tilesat_map *m,
                              const tilesat_solve_options *options,
                              const tilesat_constraint *cs, size_t n,
                              tilesat_error *err) {
  if (refuse_bans(m, err))
    return -1;
  tilesat_solve_options so_for_m = ts_solve_for(m, options);
  const tilesat_solve_options *so = &so_for_m;
  int G = ts_group_count(m);
  uint8_t *inc = ts_calloc((size_t)G, 1);
  ts_ints set = {0};
  int res = 0;
  for (size_t i = 0; i < n && res >= 0; i++) {
    int g = group_of(m, &cs[i], err);
    if (g < 0)
      res = -1;
    else if (!inc[g]) {
      inc[g] = 1;
      TS_PUSH(set, g);
    }
  }
  if (res >= 0 && explain_fits(m, so, err))
    res = -1;
  if (res >= 0) {
    xcnf cnf;
    xcnf_init(&cnf, m);
    sub x;
    sub_init(&x, &cnf, G, inc, so);
    res = sub_solve(&x, &set, -1);
    if (res == TILESAT_UNKNOWN)
      res = ts_no_answer(so, "explain", err);
    sub_free(&x);
    xcnf_free(&cnf);
  }
  free(inc);
  free(set.v);
  return res;
}

/* ---------------------------------------------------------------- geometry */

static int axis_dist(int a, int b, int n, bool periodic) {
  int d = abs(a - b);
  return periodic && n - d < d ? n - d : d;
}

static int cell_dist(const tilesat_map *m, int a, int b, bool manhattan) {
  int dr = axis_dist(a / m->width, b / m->width, m->height, m->periodic);
  int dc = axis_dist(a % m->width, b % m->width, m->width, m->periodic);
  return manhattan ? dr + dc : (dr > dc ? dr : dc);
}

/* Twice the distance of a group from a cell, adjacencies counted half a
 * step closer than their nearer end. */
static int group_dist2(const tilesat_map *m, int g, int centre) {
  int cells[2], n = group_cells(m, g, cells);
  if (n == 0) /* the whole map's: tried last */
    return 0;
  int d = cell_dist(m, cells[0], centre, true);
  if (n == 1)
    return 2 * d;
  int d2 = cell_dist(m, cells[1], centre, true);
  return 2 * (d < d2 ? d : d2) + 1;
}

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

/* A progress line, when the caller wants them (it throttles). */
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

/* Deletion-based MUS from `core` (UNSAT), trying the groups farthest from
 * `centre` first.  With `refine`, an UNSAT answer also drops every group
 * outside its failed set (fast on large cores, less steerable). */
static int shrink(const tilesat_map *m, xcnf *cnf,
                  const tilesat_solve_options *so, const ts_ints *core,
                  int centre, bool refine, ts_ints *mus, long *calls) {
  int G = ts_group_count(m);
  uint8_t *in = ts_calloc((size_t)G, 1);
  for (size_t i = 0; i < core->n; i++)
    in[core->v[i]] = 1;
  sub x;
  sub_init(&x, cnf, G, in, so);
  order_key *ord = ts_malloc(core->n * sizeof *ord);
  for (size_t i = 0; i < core->n; i++)
    ord[i] = (order_key){group_dist2(m, core->v[i], centre), core->v[i]};
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
    int r = sub_solve(&x, &cur, g);
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
  sub_free(&x);
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
    int cells[2], n = group_cells(m, mus->v[i], cells);
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
    if (group_cells(m, mus->v[i], cells) != 2)
      continue;
    int best = -1;
    for (size_t f = 0; f < focus.n; f++)
      for (int k = 0; k < 2; k++) {
        int d = cell_dist(m, cells[k], focus.v[f], true);
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
    int cells[2], n = group_cells(m, g, cells);
    bool inside = true;
    for (int k = 0; k < n; k++)
      inside = inside && cell_dist(m, cells[k], centre, false) <= r;
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
static int centroid(const tilesat_map *m, const ts_ints *set) {
  long sr = 0, sc = 0, n = 0;
  for (size_t i = 0; i < set->n; i++) {
    int cells[2], k = group_cells(m, set->v[i], cells);
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
static void prop_core(const tilesat_map *m, const ts_prop *p, ts_ints *out) {
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

#define SMALL_CORE 300 /* shrink without refinement up to this size */
/* Solver calls to spend looking for smaller answers once there is one:
 * counted, not timed, so that answers do not depend on the machine. */
#define CALL_BUDGET 20000

static void copy_ints(ts_ints *to, const ts_ints *from) {
  to->n = 0;
  for (size_t i = 0; i < from->n; i++)
    TS_PUSH(*to, from->v[i]);
}

/* The core to start from (the solver's failed groups, or propagation's
 * conflict when smaller) and the cells to grow windows around: the
 * conflict, the first pins, the centroids, a few cells spread over it. */
static void core_and_centres(const tilesat_map *m, const ts_ints *failed,
                             ts_ints *base, ts_ints *centres) {
  copy_ints(base, failed);
  ts_prop p;
  bool ok = ts_prop_init(&p, m, NULL, false) && ts_prop_pins(&p);
  if (!ok) {
    ts_ints acore = {0};
    prop_core(m, &p, &acore);
    add_centre(centres, p.steps.v[p.conflict].cell);
    add_centre(centres, centroid(m, &acore));
    if (acore.n < base->n)
      copy_ints(base, &acore);
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
  add_centre(centres, centroid(m, base));
  for (int part = 0; part < 4 && base->n; part++) {
    int cells[2];
    if (group_cells(m, base->v[base->n * (size_t)part / 4], cells))
      add_centre(centres, cells[0]);
  }
}

/* Into *core, the smallest window around cell c that is UNSAT by itself
 * (its solver's failed groups when large), or nothing if none is; -1 if
 * the backend gave no answer. */
static int unsat_window(const tilesat_map *m, xcnf *cnf,
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
    sub wx;
    sub_init(&wx, cnf, G, inwin, so);
    int w = sub_solve(&wx, core, -1);
    *calls += wx.calls;
    for (size_t i = 0; i < core->n; i++)
      inwin[core->v[i]] = 0;
    if (w == TILESAT_UNSAT && core->n > SMALL_CORE)
      copy_ints(core, &wx.failed);
    sub_free(&wx);
    if (w == TILESAT_UNKNOWN)
      return -1;
    if (w != TILESAT_SAT)
      return 0;
    core->n = 0;
  }
  return 0;
}

static int find_mus(const tilesat_map *m, xcnf *cnf,
                    const tilesat_solve_options *so, const uint8_t *has,
                    sub *full, const ts_ints *failed, ts_ints *best,
                    tilesat_error *err) {
  ts_ints base = {0}, core = {0}, mus = {0}, centres = {0};
  core_and_centres(m, failed, &base, &centres);
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
      copy_ints(&core, &base);
    if (shrink(m, cnf, so, &core, c, core.n > SMALL_CORE, &mus, &calls) < 0) {
      res = -1;
      break;
    }
    score s = score_of(m, &mus);
    if (!best->n || better(s, bs)) {
      bs = s;
      copy_ints(best, &mus);
    }
  }
  if (res < 0)
    ts_no_answer(so, "explain", err);
  free(inwin);
  free(base.v);
  free(core.v);
  free(mus.v);
  free(centres.v);
  return res;
}

/* UNSAT as a whole, SAT with any one group dropped, on a fresh solver. */
static int verify_minimal(const tilesat_map *m, xcnf *cnf,
                          const tilesat_solve_options *so, const ts_ints *mus,
                          tilesat_error *err) {
  int G = ts_group_count(m);
  uint8_t *in = ts_calloc((size_t)G, 1);
  for (size_t i = 0; i < mus->n; i++)
    in[mus->v[i]] = 1;
  sub x;
  sub_init(&x, cnf, G, in, so);
  int res = 0;
  if (sub_solve(&x, mus, -1) != TILESAT_UNSAT) {
    ts_error(err, NULL, 0,
             "internal error: the explanation found is satisfiable");
    res = -1;
  }
  for (size_t i = 0; i < mus->n && !res; i++) {
    ts_say(so, "checking that the %zu constraints are minimal: %zu done",
           mus->n, i);
    if (sub_solve(&x, mus, mus->v[i]) != TILESAT_SAT) {
      ts_error(err, NULL, 0,
               "internal error: the explanation found is not minimal");
      res = -1;
    }
  }
  sub_free(&x);
  free(in);
  return res;
}

static int cmp_constraint(const void *a, const void *b) {
  const tilesat_constraint *x = a, *y = b;
  if (x->row != y->row)
    return x->row - y->row;
  if (x->col != y->col)
    return x->col - y->col;
  if (x->kind != y->kind)
    return (int)x->kind - (int)y->kind;
  if (x->pin != y->pin)
    return x->pin - y->pin;
  return x->dir - y->dir;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static tilesat_explanation *build(const tilesat_map *m, const ts_ints *mus) {
  tilesat_explanation *e = ts_calloc(1, sizeof *e);
  e->m = m;
  e->total = tilesat_constraint_count(m);
  uint8_t *focus = ts_calloc((size_t)m->ncells, 1);
  uint8_t *touch = ts_calloc((size_t)m->ncells, 1);
  for (size_t i = 0; i < mus->n; i++) {
    int cells[2], n = group_cells(m, mus->v[i], cells);
    if (n == 1)
      focus[cells[0]] = 1;
    for (int k = 0; k < n; k++)
      touch[cells[k]] = 1;
  }
  for (size_t i = 0; i < mus->n; i++)
    TS_PUSH(e->cs, constraint_of(m, mus->v[i], focus));
  qsort(e->cs.v, e->cs.n, sizeof *e->cs.v, cmp_constraint);
  for (size_t i = 0; i < e->cs.n; i++)
    TS_PUSH(e->groups, group_of(m, &e->cs.v[i], NULL));
  for (int c = 0; c < m->ncells; c++)
    if (touch[c])
      TS_PUSH(e->cells, c);
  if (e->cells.n) /* none: a global constraint alone */
    qsort(e->cells.v, e->cells.n, sizeof *e->cells.v, cmp_int);
  free(focus);
  free(touch);
  return e;
}

/* Does propagation alone, on the explanation's constraints, reach the
 * contradiction? */
static tilesat_explanation *finish(const tilesat_map *m, const ts_ints *mus) {
  tilesat_explanation *e = build(m, mus);
  uint8_t *en = ts_calloc((size_t)ts_group_count(m), 1);
  for (size_t i = 0; i < e->groups.n; i++)
    en[e->groups.v[i]] = 1;
  ts_prop p;
  e->by_prop = !(ts_prop_init(&p, m, en, true) && ts_prop_pins(&p));
  ts_prop_free(&p);
  free(en);
  return e;
}

/* ------------------------------------------------------- the whole problem */

/* The map's constraints that have clauses, and a solver holding them all
 * (every search below asks it about subsets of them). */
typedef struct xctx {
  const tilesat_map *m;
  const tilesat_solve_options *so;
  int G;
  xcnf cnf;
  uint8_t *has; /* per group: has clauses or is kept by cuts */
  ts_ints all;  /* the groups that have */
  sub full;
} xctx;

static void xctx_close(xctx *x) {
  sub_free(&x->full);
  xcnf_free(&x->cnf);
  free(x->has);
  free(x->all.v);
}

/* Set up, and solve with every constraint: TILESAT_UNSAT (a core in
 * x->full.failed; close x after), or TILESAT_SAT or -1 with err (nothing
 * left to close). */
static int xctx_open(xctx *x, const tilesat_map *m,
                     const tilesat_solve_options *so, tilesat_error *err) {
  if (refuse_bans(m, err) || explain_fits(m, so, err))
    return -1;
  memset(x, 0, sizeof *x);
  x->m = m;
  x->so = so;
  x->G = ts_group_count(m);
  xcnf_init(&x->cnf, m);
  x->has = ts_calloc((size_t)x->G, 1);
  for (size_t i = 0; i < x->cnf.cnf.group.n; i++)
    x->has[x->cnf.cnf.group.v[i]] = 1;
  for (size_t k = 0; k < m->globals.n; k++) /* kept by cuts, if no clause */
    if (ts_global_lazy(&m->globals.v[k]))
      x->has[ts_global_group(m, (int)k)] = 1;
  for (int g = 0; g < x->G; g++)
    if (x->has[g])
      TS_PUSH(x->all, g);
  sub_init(&x->full, &x->cnf, x->G, NULL, so);
  int res = sub_solve(&x->full, &x->all, -1);
  if (res == TILESAT_UNKNOWN)
    res = ts_no_answer(so, "explain", err);
  if (res != TILESAT_UNSAT)
    xctx_close(x);
  return res;
}

/* A connected or path constraint: kept by cuts, so a model of its clauses
 * may still break it. */
static bool lazy_group(const tilesat_map *m, int g) {
  int cell, k;
  return ts_group_decode(m, g, &cell, &k) == TS_GROUP_GLOBAL &&
         ts_global_lazy(&m->globals.v[k]);
}

/* Add to `in` and `cur` every other group whose clauses the full solver's
 * model (of a satisfiable `cur`) satisfies too. */
static void extend(xctx *x, uint8_t *in, ts_ints *cur) {
  const ts_cnf *f = &x->cnf.cnf;
  uint8_t *bad = ts_calloc((size_t)x->G, 1);
  for (size_t i = 0; i < f->start.n; i++) {
    int g = f->group.v[i];
    if (in[g] || bad[g])
      continue;
    bool ok = false;
    for (const int *l = f->lits.v + f->start.v[i]; *l && !ok; l++)
      ok = sub_value(&x->full, abs(*l)) == (*l > 0);
    bad[g] = !ok;
  }
  for (size_t i = 0; i < x->all.n; i++) {
    int g = x->all.v[i];
    if (!in[g] && !bad[g] && !lazy_group(x->m, g)) {
      in[g] = 1;
      TS_PUSH(*cur, g);
    }
  }
  free(bad);
}

/* Which failed group to take out first when growing: pins, then global
 * constraints, then pairs, then cells (the designer's choices before the
 * map's structure: small corrections). */
static int take_out_rank(const tilesat_map *m, int g) {
  int cell, k;
  static const int rank[] = {[TS_GROUP_PIN] = 0,
                             [TS_GROUP_GLOBAL] = 1,
                             [TS_GROUP_ADJ] = 2,
                             [TS_GROUP_CELL] = 3};
  return rank[ts_group_decode(m, g, &cell, &k)];
}

static void remove_int(ts_ints *v, int x) {
  size_t k = 0;
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i] != x)
      v->v[k++] = v->v[i];
  v->n = k;
}

/* Grow a satisfiable set (`in`, listed in `cur`; the full solver's model
 * is of it) to a maximal satisfiable subset of every constraint: add what
 * the model satisfies too, then take all, out one failed constraint not
 * in the set at a time until it is SAT, then put back each taken out that
 * fits after all.  0, or -1 (no answer; err set). */
static int grow(xctx *x, uint8_t *in, ts_ints *cur, tilesat_error *err) {
  extend(x, in, cur);
  uint8_t *start = ts_malloc((size_t)x->G);
  memcpy(start, in, (size_t)x->G);
  ts_ints out = {0};
  for (size_t i = 0; i < x->all.n; i++)
    if (!in[x->all.v[i]]) {
      in[x->all.v[i]] = 1;
      TS_PUSH(*cur, x->all.v[i]);
    }
  int res = 0, r;
  while ((r = sub_solve(&x->full, cur, -1)) == TILESAT_UNSAT) {
    int pick = -1;
    for (size_t i = 0; i < x->full.failed.n; i++) {
      int g = x->full.failed.v[i];
      if (!start[g] &&
          (pick < 0 || take_out_rank(x->m, g) < take_out_rank(x->m, pick)))
        pick = g;
    }
    if (pick < 0) { /* the start was not satisfiable */
      r = TILESAT_UNKNOWN;
      break;
    }
    in[pick] = 0;
    TS_PUSH(out, pick);
    remove_int(cur, pick);
  }
  bool model = r == TILESAT_SAT; /* the solver's model is cur's */
  for (size_t i = 0; i < out.n && r != TILESAT_UNKNOWN; i++) {
    if (model)
      extend(x, in, cur);
    int g = out.v[i];
    if (in[g])
      continue;
    TS_PUSH(*cur, g);
    r = sub_solve(&x->full, cur, -1);
    model = r == TILESAT_SAT;
    if (model)
      in[g] = 1;
    else
      cur->n--;
  }
  if (r == TILESAT_UNKNOWN)
    res = ts_no_answer(x->so, "explain", err);
  free(start);
  free(out.v);
  return res;
}

static tilesat_solve_options so_of(const tilesat_map *m,
                                   const tilesat_solve_options *options) {
  if (!m)
    ts_misuse("tilesat_explain", "NULL map or result");
  return ts_solve_for(m, options);
}

int tilesat_explain(const tilesat_map *m, const tilesat_solve_options *options,
                    tilesat_explanation **out, tilesat_error *err) {
  if (!out)
    ts_misuse(__func__, "NULL map or result");
  tilesat_solve_options so = so_of(m, options);
  *out = NULL;
  xctx x;
  int res = xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints failed = {0}, best = {0};
  copy_ints(&failed, &x.full.failed);
  if (find_mus(m, &x.cnf, &so, x.has, &x.full, &failed, &best, err) < 0 ||
      verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = finish(m, &best);
  xctx_close(&x);
  free(failed.v);
  free(best.v);
  return res;
}

/* --------------------------------------------------- every explanation */

/* The core of an UNSAT seed to shrink: propagation's on the seed's
 * constraints when it finds one that the solver confirms (small and local,
 * so that small explanations come first), else the solver's failed set. */
static void seed_core(xctx *x, const uint8_t *in, ts_ints *core) {
  copy_ints(core, &x->full.failed);
  ts_prop p;
  if (!(ts_prop_init(&p, x->m, in, true) && ts_prop_pins(&p))) {
    ts_ints pc = {0};
    prop_core(x->m, &p, &pc);
    if (pc.n < core->n && sub_solve(&x->full, &pc, -1) == TILESAT_UNSAT)
      copy_ints(core, &pc);
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
static int marco(xctx *x, size_t limit, ts_sets *found, bool *complete,
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
    r = sub_solve(&x->full, &cur, -1);
    clause.n = 0;
    if (r == TILESAT_SAT) {
      if ((res = grow(x, in, &cur, err)) < 0)
        break;
      for (size_t i = 0; i < x->all.n; i++)
        if (!in[x->all.v[i]])
          TS_PUSH(clause, idx[x->all.v[i]]);
    } else if (r == TILESAT_UNSAT) {
      seed_core(x, in, &core);
      ts_ints mus = {0};
      if (shrink(m, &x->cnf, x->so, &core, centroid(m, &core),
                 core.n > SMALL_CORE, &mus, &calls) < 0)
        res = ts_no_answer(x->so, "explain", err);
      else
        res = verify_minimal(m, &x->cnf, x->so, &mus, err);
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
static void sets_free(ts_sets *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].v);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

/* ---------------------------------------------- the smallest explanation */

/* A minimum hitting set of small sets, by branch and bound: branch on the
 * unhit set with the fewest elements still allowed (its i-th element in,
 * the ones before it banned); bound by disjoint unhit sets. */
typedef struct hitting {
  const ts_sets *sets;
  uint8_t *pick, *ban, *mark;
  ts_ints cur, best;
  bool have;
} hitting;

static bool hit(const hitting *h, const ts_ints *set) {
  for (size_t j = 0; j < set->n; j++)
    if (h->pick[set->v[j]])
      return true;
  return false;
}

/* Unhit sets that share no element: each needs a pick of its own. */
static size_t disjoint_unhit(hitting *h) {
  size_t lb = 0;
  for (size_t i = 0; i < h->sets->n; i++) {
    const ts_ints *s = &h->sets->v[i];
    bool free_ = !hit(h, s);
    for (size_t j = 0; j < s->n && free_; j++)
      free_ = !h->mark[s->v[j]];
    if (!free_)
      continue;
    lb++;
    for (size_t j = 0; j < s->n; j++)
      h->mark[s->v[j]] = 1;
  }
  for (size_t i = 0; i < h->sets->n; i++)
    for (size_t j = 0; j < h->sets->v[i].n; j++)
      h->mark[h->sets->v[i].v[j]] = 0;
  return lb;
}

static void hitting_search(hitting *h) {
  const ts_ints *branch = NULL;
  size_t fewest = SIZE_MAX;
  for (size_t i = 0; i < h->sets->n; i++) {
    const ts_ints *s = &h->sets->v[i];
    if (hit(h, s))
      continue;
    size_t allowed = 0;
    for (size_t j = 0; j < s->n; j++)
      allowed += !h->ban[s->v[j]];
    if (!allowed)
      return;
    if (allowed < fewest) {
      fewest = allowed;
      branch = s;
    }
  }
  if (!branch) {
    copy_ints(&h->best, &h->cur);
    h->have = true;
    return;
  }
  if (h->have && h->cur.n + disjoint_unhit(h) >= h->best.n)
    return;
  size_t banned = 0;
  for (size_t j = 0; j < branch->n; j++) {
    int e = branch->v[j];
    if (h->ban[e])
      continue;
    h->pick[e] = 1;
    TS_PUSH(h->cur, e);
    hitting_search(h);
    h->cur.n--;
    h->pick[e] = 0;
    h->ban[e] = 1;
    banned = j + 1;
  }
  for (size_t j = 0; j < banned; j++)
    h->ban[branch->v[j]] = 0;
}

static void min_hitting_set(const ts_sets *sets, int G, ts_ints *out) {
  hitting h = {sets,
               ts_calloc((size_t)G, 1),
               ts_calloc((size_t)G, 1),
               ts_calloc((size_t)G, 1),
               {0},
               {0},
               false};
  hitting_search(&h);
  copy_ints(out, &h.best);
  free(h.pick);
  free(h.ban);
  free(h.mark);
  free(h.cur.v);
  free(h.best.v);
}

/* The hitting-set duality (Ignatiev et al., CP 2015): every explanation
 * meets every minimal correction set (what is outside a maximal
 * satisfiable subset), so a minimum hitting set of the correction sets
 * found so far is no larger than the smallest explanation.  If it is
 * UNSAT it is the smallest explanation; if SAT, it grows to a maximal
 * satisfiable subset whose correction set it misses: one more set. */
static int smallest(xctx *x, ts_ints *best, tilesat_error *err) {
  ts_sets mcses = {0};
  ts_ints h = {0};
  uint8_t *in = ts_calloc((size_t)x->G, 1);
  int res = 0;
  for (;;) {
    min_hitting_set(&mcses, x->G, &h);
    ts_say(x->so,
           "smallest explanation: %zu correction sets, at least %zu "
           "constraints",
           mcses.n, h.n);
    int r = sub_solve(&x->full, &h, -1);
    if (r == TILESAT_UNKNOWN) {
      res = ts_no_answer(x->so, "explain", err);
      break;
    }
    if (r == TILESAT_UNSAT) {
      copy_ints(best, &h);
      break;
    }
    memset(in, 0, (size_t)x->G);
    for (size_t i = 0; i < h.n; i++)
      in[h.v[i]] = 1;
    if ((res = grow(x, in, &h, err)) < 0)
      break;
    ts_ints mcs = {0};
    for (size_t i = 0; i < x->all.n; i++)
      if (!in[x->all.v[i]])
        TS_PUSH(mcs, x->all.v[i]);
    TS_PUSH(mcses, mcs);
  }
  sets_free(&mcses);
  free(h.v);
  free(in);
  return res;
}

/* ------------------------------------------- the preferred explanation */

static const char *const blame_names[TILESAT_NBLAMES] = {
    [TILESAT_BLAME_PINS] = "pins",     [TILESAT_BLAME_CELLS] = "cells",
    [TILESAT_BLAME_RULES] = "rules",   [TILESAT_BLAME_BORDERS] = "borders",
    [TILESAT_BLAME_COUNTS] = "counts", [TILESAT_BLAME_CONNECTED] = "connected",
    [TILESAT_BLAME_PATHS] = "paths",
};

const char *tilesat_blame_name(tilesat_blame b) {
  if ((unsigned)b >= TILESAT_NBLAMES)
    ts_misuse(__func__, "no such group of constraints");
  return blame_names[b];
}

int tilesat_blame_parse(const char *list, tilesat_blame *order,
                        tilesat_error *err) {
  bool seen[TILESAT_NBLAMES] = {false};
  int n = 0;
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    int b = 0;
    while (b < TILESAT_NBLAMES &&
           (strlen(blame_names[b]) != len || strncmp(p, blame_names[b], len)))
      b++;
    if (b == TILESAT_NBLAMES) {
      ts_error(err, NULL, 0,
               "--prefer: '%.*s' is not a group of constraints (pins, cells, "
               "rules, borders, counts, connected, paths)",
               (int)len, p);
      return -1;
    }
    if (seen[b]) {
      ts_error(err, NULL, 0, "--prefer: '%s' is named twice", blame_names[b]);
      return -1;
    }
    seen[b] = true;
    order[n++] = (tilesat_blame)b;
    p += len + (p[len] == ',');
  }
  for (int b = 0; b < TILESAT_NBLAMES; b++)
    if (!seen[b])
      order[n++] = (tilesat_blame)b;
  return 0;
}

static tilesat_blame blame_of(const tilesat_map *m, int g) {
  int cell, k;
  switch (ts_group_decode(m, g, &cell, &k)) {
  case TS_GROUP_CELL:
    return TILESAT_BLAME_CELLS;
  case TS_GROUP_PIN:
    return TILESAT_BLAME_PINS;
  case TS_GROUP_ADJ:
    return TILESAT_BLAME_RULES;
  case TS_GROUP_GLOBAL:
    break;
  }
  static const tilesat_blame of_global[] = {
      [TILESAT_GLOBAL_COUNT] = TILESAT_BLAME_COUNTS,
      [TILESAT_GLOBAL_CONNECTED] = TILESAT_BLAME_CONNECTED,
      [TILESAT_GLOBAL_PATH] = TILESAT_BLAME_PATHS,
      [TILESAT_GLOBAL_BORDER] = TILESAT_BLAME_BORDERS};
  return of_global[m->globals.v[k].kind];
}

/* QuickXplain (Junker, AAAI 2004): the part of C (ordered, the first to
 * blame first) that, with B, explains; `delta`: B grew since the last
 * check.  Split C: find what the second half must add to B and the whole
 * first half, then what the first half must add to B and that. */
static int quickxplain(xctx *x, ts_ints *B, bool delta, const int *C, size_t nc,
                       ts_ints *out) {
  if (delta) {
    int r = sub_solve(&x->full, B, -1);
    if (r == TILESAT_UNKNOWN)
      return -1;
    if (r == TILESAT_UNSAT)
      return 0;
  }
  if (nc == 1) {
    TS_PUSH(*out, C[0]);
    return 0;
  }
  size_t k = nc / 2, b0 = B->n, o0 = out->n;
  for (size_t i = 0; i < k; i++)
    TS_PUSH(*B, C[i]);
  int res = quickxplain(x, B, k > 0, C + k, nc - k, out);
  B->n = b0;
  if (res < 0)
    return res;
  for (size_t i = o0; i < out->n; i++)
    TS_PUSH(*B, out->v[i]);
  res = quickxplain(x, B, out->n > o0, C, k, out);
  B->n = b0;
  return res;
}

typedef struct blame_key {
  int rank, dist, g;
} blame_key;

static int cmp_blame(const void *a, const void *b) {
  const blame_key *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank - y->rank;
  if (x->dist != y->dist)
    return x->dist - y->dist;
  return x->g - y->g;
}

/* Every constraint, the groups in `order`, each near the conflict first. */
static int preferred(xctx *x, const tilesat_blame *order, ts_ints *best,
                     tilesat_error *err) {
  int rank[TILESAT_NBLAMES];
  for (int i = 0; i < TILESAT_NBLAMES; i++)
    rank[order[i]] = i;
  ts_ints base = {0}, centres = {0}, B = {0};
  core_and_centres(x->m, &x->full.failed, &base, &centres);
  int centre = centres.v[0];
  blame_key *keys = ts_malloc(x->all.n * sizeof *keys);
  int *C = ts_malloc(x->all.n * sizeof *C);
  for (size_t i = 0; i < x->all.n; i++) {
    int g = x->all.v[i];
    keys[i] =
        (blame_key){rank[blame_of(x->m, g)], group_dist2(x->m, g, centre), g};
  }
  qsort(keys, x->all.n, sizeof *keys, cmp_blame);
  for (size_t i = 0; i < x->all.n; i++)
    C[i] = keys[i].g;
  best->n = 0;
  int res = quickxplain(x, &B, false, C, x->all.n, best);
  if (res < 0)
    ts_no_answer(x->so, "explain", err);
  free(keys);
  free(C);
  free(base.v);
  free(centres.v);
  free(B.v);
  return res;
}

/* ---------------------------------------------------------- entry points */

int tilesat_explain_smallest(const tilesat_map *m,
                             const tilesat_solve_options *options,
                             tilesat_explanation **out, tilesat_error *err) {
  if (!out)
    ts_misuse(__func__, "NULL map or result");
  tilesat_solve_options so = so_of(m, options);
  *out = NULL;
  xctx x;
  int res = xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints best = {0};
  if (smallest(&x, &best, err) < 0 ||
      verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = finish(m, &best);
  xctx_close(&x);
  free(best.v);
  return res;
}

int tilesat_explain_preferred(const tilesat_map *m,
                              const tilesat_solve_options *options,
                              const tilesat_blame *order,
                              tilesat_explanation **out, tilesat_error *err) {
  if (!out || !order)
    ts_misuse(__func__, "NULL map, order or result");
  tilesat_solve_options so = so_of(m, options);
  *out = NULL;
  xctx x;
  int res = xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints best = {0};
  if (preferred(&x, order, &best, err) < 0 ||
      verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = finish(m, &best);
  xctx_close(&x);
  free(best.v);
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
    int c = cmp_constraint(&x->cs.v[i], &y->cs.v[i]);
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
  tilesat_solve_options so = so_of(m, options);
  *out = NULL;
  *n = 0;
  *complete = true;
  xctx x;
  int res = xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_sets found = {0};
  if (marco(&x, limit, &found, complete, err) < 0) {
    res = -1;
  } else {
    *out = ts_malloc(found.n * sizeof(tilesat_explanation *));
    for (size_t i = 0; i < found.n; i++)
      (*out)[i] = finish(m, &found.v[i]);
    *n = found.n;
    qsort(*out, *n, sizeof(tilesat_explanation *), cmp_explanation);
  }
  xctx_close(&x);
  sets_free(&found);
  return res;
}

void tilesat_explanations_free(tilesat_explanation **es, size_t n) {
  for (size_t i = 0; es && i < n; i++)
    tilesat_explanation_free(es[i]);
  free(es);
}

void tilesat_explanation_free(tilesat_explanation *e) {
  if (!e)
    return;
  free(e->cs.v);
  free(e->groups.v);
  free(e->cells.v);
  free(e);
}

size_t tilesat_explanation_size(const tilesat_explanation *e) {
  return e->cs.n;
}

const tilesat_constraint *
tilesat_explanation_constraint(const tilesat_explanation *e, size_t i) {
  if (i >= e->cs.n)
    ts_misuse(__func__, "index out of range");
  return &e->cs.v[i];
}

size_t tilesat_explanation_cells(const tilesat_explanation *e,
                                 const int **cells) {
  *cells = e->cells.v;
  return e->cells.n;
}

bool tilesat_explanation_by_propagation(const tilesat_explanation *e) {
  return e->by_prop;
}

/* ----------------------------------------------------------------- writing */

static void write_constraint(const tilesat_map *m, const tilesat_constraint *c,
                             FILE *out) {
  if (c->kind == TILESAT_GLOBAL) {
    fprintf(out, "%s (%s)", m->globals.v[c->global].text,
            m->globals.v[c->global].origin);
    return;
  }
  fprintf(out, "(%d,%d) ", c->row, c->col);
  if (c->kind == TILESAT_ONE_TILE && ts_masked(m, c->row * m->width + c->col)) {
    fputs("is masked: not part of the map, it holds no tile", out);
  } else if (c->kind == TILESAT_ONE_TILE) {
    fputs("holds exactly one tile", out);
  } else if (c->kind == TILESAT_PINNED) {
    fputs("is pinned to ", out);
    ts_write_token(out, m->rules->names.v.v[c->tile]);
  } else {
    fprintf(out, "and its %s neighbour (%d,%d) hold an allowed pair",
            ts_dir_words(m->topo, c->dir), c->nrow, c->ncol);
  }
}

/* Propagation on the explanation's constraints alone: the steps that lead
 * to the contradiction (all steps if there is none), and for each step the
 * constraints it uses. */
typedef struct story {
  ts_prop p;
  uint8_t *en, *show;
  int *cid; /* group -> constraint number (1-based), 0 if not in e */
} story;

static void story_init(story *st, const tilesat_explanation *e) {
  const tilesat_map *m = e->m;
  int G = ts_group_count(m);
  st->en = ts_calloc((size_t)G, 1);
  st->cid = ts_calloc((size_t)G, sizeof *st->cid);
  for (size_t i = 0; i < e->groups.n; i++) {
    st->en[e->groups.v[i]] = 1;
    st->cid[e->groups.v[i]] = (int)i + 1;
  }
  if (ts_prop_init(&st->p, m, st->en, true))
    ts_prop_pins(&st->p);
  st->show = ts_malloc(st->p.steps.n + 1);
  if (st->p.conflict >= 0)
    ts_prop_chain(&st->p, st->show);
  else
    memset(st->show, 1, st->p.steps.n);
  /* steps that remove nothing (a pin without its cell's constraint) */
  for (size_t i = 0; i < st->p.steps.n; i++) {
    const ts_step *s = &st->p.steps.v[i];
    if (s->kind == TS_STEP_PIN && s->choice < 0) {
      bool any = false;
      for (int w = 0; w < st->p.words; w++)
        any |= st->p.sets.v[s->lost + (size_t)w] != 0;
      if (!any && st->p.conflict < 0)
        st->show[i] = 0;
    }
  }
}

static void story_free(story *st) {
  ts_prop_free(&st->p);
  free(st->en);
  free(st->show);
  free(st->cid);
}

/* The constraint numbers a step uses, in ascending order; returns count. */
static int step_constraints(const story *st, int i, int ids[2]) {
  const ts_step *s = &st->p.steps.v[i];
  int n = 0;
  if (s->group >= 0 && st->cid[s->group])
    ids[n++] = st->cid[s->group];
  if (s->kind == TS_STEP_PIN) {
    bool any = false;
    for (int w = 0; w < st->p.words; w++)
      any |= st->p.sets.v[s->lost + (size_t)w] != 0;
    if (any && st->cid[s->cell])
      ids[n++] = st->cid[s->cell];
  }
  if (n == 2 && ids[0] > ids[1]) {
    int t = ids[0];
    ids[0] = ids[1];
    ids[1] = t;
  }
  return n;
}

static char cell_mark(const uint8_t *kind, int cell) {
  return (char)(kind[cell] & 2   ? 'P'
                : kind[cell] & 1 ? '#'
                : kind[cell] & 4 ? 'o'
                                 : '.');
}

/* A line of | under the cells whose south pair is a constraint (trailing
 * blanks trimmed). */
static void vertical_line(const char *lead, const uint8_t *south, int w,
                          FILE *out) {
  int last = -1;
  for (int c = 0; c < w; c++)
    if (south[c])
      last = c;
  fputs(last < 0 ? "" : lead, out);
  for (int c = 0; c <= last; c++)
    fprintf(out, "%c%s", south[c] ? '|' : ' ', c < last ? " " : "");
  fputc('\n', out);
}

/* Per cell: kind (1 must hold one tile, 2 pinned, 4 in an adjacency) and,
 * on square maps, whether its east and south pairs are constraints. */
static void mark_cells(const tilesat_explanation *e, uint8_t *kind,
                       uint8_t *east, uint8_t *south) {
  const tilesat_map *m = e->m;
  int W = m->width;
  bool square = m->topo == TILESAT_SQUARE;
  for (size_t i = 0; i < e->cs.n; i++) {
    const tilesat_constraint *c = &e->cs.v[i];
    int cell = c->row * W + c->col;
    if (c->kind == TILESAT_GLOBAL)
      continue; /* the whole map's */
    if (c->kind == TILESAT_ONE_TILE)
      kind[cell] |= 1;
    else if (c->kind == TILESAT_PINNED)
      kind[cell] |= 2;
    else {
      int n = c->nrow * W + c->ncol;
      kind[cell] |= 4;
      kind[n] |= 4;
      if (square) {
        /* N and W are the S and E pairs of the neighbour */
        if (c->dir == 1)
          east[cell] = 1;
        else if (c->dir == 3)
          east[n] = 1;
        else if (c->dir == 2)
          south[cell] = 1;
        else
          south[n] = 1;
      }
    }
  }
}

/* Row r of a square map, - between cells whose east pair is a constraint
 * (on the margin for a wrap-around pair). */
static void square_row(const tilesat_map *m, const uint8_t *kind,
                       const uint8_t *east, int r, bool wrap, FILE *out) {
  int W = m->width;
  bool wrapped = wrap && east[r * W + W - 1];
  fputs(wrap ? (wrapped ? "  -" : "   ") : "  ", out);
  for (int c = 0; c < W; c++) {
    fputc(cell_mark(kind, r * W + c), out);
    if (c + 1 < W)
      fputc(east[r * W + c] ? '-' : ' ', out);
  }
  fputs(wrapped ? "-\n" : "\n", out);
}

/* The map with the cells involved marked; on square maps the adjacency
 * constraints are drawn as - and | between cells (on the margin for the
 * wrap-around pairs of a periodic map). */
static void write_picture(const tilesat_explanation *e, FILE *out) {
  const tilesat_map *m = e->m;
  int W = m->width, H = m->height;
  uint8_t *kind = ts_calloc((size_t)m->ncells, 1);
  uint8_t *east = ts_calloc((size_t)m->ncells, 1);
  uint8_t *south = ts_calloc((size_t)m->ncells, 1);
  bool square = m->topo == TILESAT_SQUARE;
  mark_cells(e, kind, east, south);
  fputs("\nThe map (# a cell that must hold one tile, P a pin, o a cell "
        "only in an\nadjacency, . not involved",
        out);
  fputs(square ? "; - and | adjacency constraints):\n"
               : "; hex rows, odd rows shifted right):\n",
        out);
  bool wrap = m->periodic && square;
  const char *lead = wrap ? "   " : "  ";
  bool wrap_south = false; /* the last row's south pairs wrap to the top */
  for (int c = 0; wrap && c < W; c++)
    wrap_south |= south[(H - 1) * W + c];
  if (wrap_south)
    vertical_line(lead, south + (size_t)(H - 1) * (size_t)W, W, out);
  for (int r = 0; r < H; r++) {
    if (!square) {
      fputs(r & 1 ? "   " : "  ", out);
      for (int c = 0; c < W; c++)
        fprintf(out, "%s%c", c ? " " : "", cell_mark(kind, r * W + c));
      fputc('\n', out);
      continue;
    }
    square_row(m, kind, east, r, wrap, out);
    if (r + 1 < H)
      vertical_line(lead, south + (size_t)r * (size_t)W, W, out);
  }
  if (wrap_south)
    vertical_line(lead, south + (size_t)(H - 1) * (size_t)W, W, out);
  free(kind);
  free(east);
  free(south);
}

int tilesat_explanation_write(const tilesat_explanation *e, FILE *out) {
  const tilesat_map *m = e->m;
  fprintf(out, "UNSAT: no valid %dx%d map.\n", m->width, m->height);
  fprintf(out,
          "These %zu constraints (of %d in the map) cannot all hold, and "
          "dropping any one\nof them leaves a satisfiable set (checked):\n",
          e->cs.n, e->total);
  for (size_t i = 0; i < e->cs.n; i++) {
    fprintf(out, "  [%zu] ", i + 1);
    write_constraint(m, &e->cs.v[i], out);
    fputc('\n', out);
  }
  story st;
  story_init(&st, e);
  fputs("\nWhy (propagation on these constraints alone; [n] the constraints "
        "used):\n",
        out);
  for (size_t i = 0; i < st.p.steps.n; i++) {
    if (!st.show[i])
      continue;
    int ids[2], n = step_constraints(&st, (int)i, ids);
    char tag[32];
    if (n == 2)
      snprintf(tag, sizeof tag, "[%d,%d]", ids[0], ids[1]);
    else if (n == 1)
      snprintf(tag, sizeof tag, "[%d]", ids[0]);
    else
      tag[0] = 0;
    fprintf(out, "  %-7s ", tag);
    ts_prop_write_step(&st.p, (int)i, out);
    fputc('\n', out);
  }
  if (st.p.conflict < 0)
    fputs("  Propagation stops here without a contradiction; the SAT "
          "solver's search\n  shows that no filling satisfies all of these "
          "constraints together.\n",
          out);
  story_free(&st);
  write_picture(e, out);
  return ferror(out) ? -1 : 0;
}

static void json_map(const tilesat_map *m, FILE *out) {
  fprintf(out,
          "  \"map\": {\"width\": %d, \"height\": %d, \"topology\": \"%s\", "
          "\"periodic\": %s},\n",
          m->width, m->height, tilesat_topology_name(m->topo),
          m->periodic ? "true" : "false");
}

int tilesat_explain_write_sat_json(const tilesat_map *m, FILE *out) {
  fputs("{\n  \"result\": \"SAT\",\n", out);
  json_map(m, out);
  fprintf(out, "  \"total_constraints\": %d\n}\n", tilesat_constraint_count(m));
  return ferror(out) ? -1 : 0;
}

/* An explanation's fields in JSON, each line after the first indented by
 * `ind`. */
static void json_fields(const tilesat_explanation *e, const char *ind,
                        FILE *out) {
  const tilesat_map *m = e->m;
  static const char *const kinds[] = {"one_tile", "pin", "adjacent", "global"};
  fprintf(out, "\"minimal\": true,\n%s\"constraints\": [", ind);
  for (size_t i = 0; i < e->cs.n; i++) {
    const tilesat_constraint *c = &e->cs.v[i];
    fprintf(out, "%s\n%s  {\"id\": %zu, \"kind\": \"%s\"", i ? "," : "", ind,
            i + 1, kinds[c->kind]);
    if (c->kind == TILESAT_GLOBAL) {
      const ts_global *g = &m->globals.v[c->global];
      static const char *const gk[] = {"count", "connected", "path", "border"};
      fprintf(out, ", \"global\": %d, \"type\": \"%s\", \"text\": ", c->global,
              gk[g->kind]);
      ts_json_string(out, g->text);
      fputs(", \"origin\": ", out);
      ts_json_string(out, g->origin);
      fputc('}', out);
      continue;
    }
    fprintf(out, ", \"cell\": [%d, %d]", c->row, c->col);
    if (c->kind == TILESAT_PINNED) {
      fputs(", \"tile\": ", out);
      ts_json_string(out, m->rules->names.v.v[c->tile]);
    } else if (c->kind == TILESAT_ADJACENT) {
      fputs(", \"direction\": ", out);
      ts_json_string(out, tilesat_dir_name(m->topo, c->dir));
      fprintf(out, ", \"neighbor\": [%d, %d]", c->nrow, c->ncol);
    }
    fputc('}', out);
  }
  fprintf(out, "\n%s],\n%s\"cells\": [", ind, ind);
  for (size_t i = 0; i < e->cells.n; i++)
    fprintf(out, "%s[%d, %d]", i ? ", " : "", e->cells.v[i] / m->width,
            e->cells.v[i] % m->width);
  story st;
  story_init(&st, e);
  fprintf(out, "],\n%s\"propagation_refutes\": %s,\n%s\"steps\": [", ind,
          st.p.conflict >= 0 ? "true" : "false", ind);
  int *number = ts_calloc(st.p.steps.n + 1, sizeof *number);
  int k = 0;
  for (size_t i = 0; i < st.p.steps.n; i++)
    if (st.show[i])
      number[i] = ++k;
  bool first = true;
  for (size_t i = 0; i < st.p.steps.n; i++) {
    if (!st.show[i])
      continue;
    int ids[2], n = step_constraints(&st, (int)i, ids);
    fprintf(out, "%s\n%s  ", first ? "" : ",", ind);
    ts_prop_write_step_json(&st.p, (int)i, number, ids, n, out);
    first = false;
  }
  fprintf(out, "\n%s]", ind);
  free(number);
  story_free(&st);
}

int tilesat_explanation_write_json(const tilesat_explanation *e, FILE *out) {
  fputs("{\n  \"result\": \"UNSAT\",\n", out);
  json_map(e->m, out);
  fprintf(out, "  \"total_constraints\": %d,\n  ", e->total);
  json_fields(e, "  ", out);
  fputs("\n}\n", out);
  return ferror(out) ? -1 : 0;
}

int tilesat_explanations_write(tilesat_explanation *const *es, size_t n,
                               bool complete, FILE *out) {
  if (!n)
    ts_misuse(__func__, "no explanation");
  fprintf(out, "%zu distinct minimal explanation%s, smallest first", n,
          n == 1 ? "" : "s");
  fputs(complete ? ": all there are.\n"
                 : ": the limit is reached, there may be more (--limit).\n",
        out);
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "\n=== Explanation %zu of %zu ===\n", i + 1, n);
    if (tilesat_explanation_write(es[i], out))
      return -1;
  }
  return ferror(out) ? -1 : 0;
}

int tilesat_explanations_write_json(tilesat_explanation *const *es, size_t n,
                                    bool complete, FILE *out) {
  if (!n)
    ts_misuse(__func__, "no explanation");
  fputs("{\n  \"result\": \"UNSAT\",\n", out);
  json_map(es[0]->m, out);
  fprintf(out,
          "  \"total_constraints\": %d,\n  \"complete\": %s,\n"
          "  \"explanations\": [",
          es[0]->total, complete ? "true" : "false");
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "%s\n    {", i ? "," : "");
    json_fields(es[i], "     ", out);
    fputc('}', out);
  }
  fputs("\n  ]\n}\n", out);
  return ferror(out) ? -1 : 0;
}
