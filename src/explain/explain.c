/* explain.c: why a map has no valid filling; the searches' shared context.
 *
 * Every clause of the encoding belongs to a human-level constraint group (a
 * cell's one-tile constraint, a pin, the pair of two neighbouring cells).
 * Each group gets a selector variable s, its clauses become (clause | -s),
 * and solving under the assumptions "every s" is solving the map; under a
 * subset of them it is solving with the other constraints dropped.  The
 * failed assumptions of an UNSAT answer are a core.  Four searches make
 * minimal sets (MUSes) of them: deletion (mus.c), MARCO (marco.c), the
 * smallest (smallest.c) and the preferred (quickxplain.c).
 *
 * Propagation (propagate.c) restricted to an explanation's constraints
 * then tells, step by step, which tiles each constraint rules out and
 * why. */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

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
int ts_x_group_cells(const tilesat_map *m, int g, int *cells) {
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

static void xcnf_init(ts_xcnf *x, const tilesat_map *m) {
  x->m = m;
  ts_encode(m, &x->cnf);
  x->lazy = ts_cuts_new(m);
}

static void xcnf_free(ts_xcnf *x) {
  ts_cnf_free(&x->cnf);
  ts_cuts_free(x->lazy);
}

static int sub_var(ts_xsub *x, int v) {
  if (!x->var[v])
    x->var[v] = ++x->next;
  return x->var[v];
}

/* A clause of the CNF's group g, guarded by g's selector. */
static void sub_add(ts_xsub *x, int g, const int *lits, size_t n) {
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

void ts_xsub_init(ts_xsub *x, ts_xcnf *cnf, int ngroups, const uint8_t *include,
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

void ts_xsub_free(ts_xsub *x) {
  ts_solver_free(x->s);
  free(x->sel);
  free(x->var);
  free(x->active);
  free(x->failed.v);
  free(x->buf.v);
}

static bool sub_value(void *user, int v) {
  ts_xsub *x = user;
  return x->var[v] && ts_solver_value(x->s, x->var[v]);
}

/* A cut: into the CNF (for later solvers) and into this solver. */
static void sub_cut(void *user, int g, const int *lits, size_t n) {
  ts_xsub *x = user;
  ts_cnf *f = &x->src->cnf;
  TS_PUSH(f->start, f->lits.n);
  TS_PUSH(f->group, g);
  for (size_t i = 0; i < n; i++)
    TS_PUSH(f->lits, lits[i]);
  TS_PUSH(f->lits, 0);
  sub_add(x, g, lits, n);
}

static void sub_assume(ts_xsub *x, const ts_ints *set, int skip) {
  for (size_t i = 0; i < set->n; i++)
    if (set->v[i] != skip && x->sel[set->v[i]])
      ts_solver_assume(x->s, x->sel[set->v[i]]);
}

/* Which connected and path constraints this solve assumes. */
static bool sub_lazy(ts_xsub *x, const ts_ints *set, int skip) {
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
int ts_xsub_solve(ts_xsub *x, const ts_ints *set, int skip) {
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

/* ------------------------------------------- a map too large, in a window */

/* The window of m that check's windows around the pins find with no
 * filling, placed in *w with m's pins (pin: the map's pin each of its own
 * is) and masked cells, without the window's bans (explanations do not
 * know bans: the window is a weaker relaxation, which may fill); false
 * when there is none, or it wraps. */
static bool clash_window(const tilesat_map *m, const tilesat_solve_options *so,
                         ts_window *w, ts_ints *pin) {
  tilesat_check_answer how;
  if (!ts_check_pin_window(m, so, ts_check_budget(m) / 10, &how) ||
      how.row0 + how.rows > m->height || how.col0 + how.cols > m->width ||
      !ts_window_rect(m, how.col0, how.row0, how.cols, how.rows, w))
    return false;
  ts_window_mask(m, w);
  for (size_t i = 0; i < m->pins.n; i++) {
    int lc = ts_window_cell(m, w, m->pins.v[i].cell);
    if (lc >= 0) {
      TS_PUSH(w->m.pins, ((ts_pin){lc, m->pins.v[i].tile}));
      TS_PUSH(*pin, (int)i);
    }
  }
  return true;
}

/* The window's explanation e as m's: its constraints, cells and steps
 * moved by the window's place (it does not wrap: their order stays). */
static void move_to_map(const tilesat_map *m, const ts_window *w,
                        const ts_ints *pin, tilesat_explanation *e) {
  for (size_t i = 0; i < e->cs.n; i++) {
    tilesat_constraint *c = &e->cs.v[i];
    if (c->row >= 0) {
      c->row += w->y0;
      c->col += w->x0;
    }
    if (c->nrow >= 0) {
      c->nrow += w->y0;
      c->ncol += w->x0;
    }
    if (c->kind == TILESAT_PINNED)
      c->pin = pin->v[c->pin];
    e->groups.v[i] = group_of(m, c, NULL);
  }
  for (size_t i = 0; i < e->cells.n; i++)
    e->cells.v[i] = ts_window_map_cell(m, w, e->cells.v[i]);
  ts_steps_shift(e->steps, w->y0, w->x0);
  e->m = m;
  e->total = tilesat_constraint_count(m);
  e->window[0] = w->y0;
  e->window[1] = w->x0;
  e->window[2] = w->m.height;
  e->window[3] = w->m.width;
}

/* Does a window apply (see ts_x_in_window)?  True with *w and pin set
 * (free both in any case). */
static bool window_applies(const tilesat_map *m,
                           const tilesat_solve_options *so, ts_window *w,
                           ts_ints *pin) {
  tilesat_error fits;
  memset(w, 0, sizeof *w);
  if (m->bans.n || !m->pins.n || !explain_fits(m, so, &fits) ||
      !clash_window(m, so, w, pin) || explain_fits(&w->m, so, &fits))
    return false;
  ts_say(so,
         "explaining within the %dx%d window at rows %d-%d, columns "
         "%d-%d that refutes the pins",
         w->m.width, w->m.height, w->y0, w->y0 + w->m.height - 1, w->x0,
         w->x0 + w->m.width - 1);
  return true;
}

int ts_x_in_window(const tilesat_map *m, const tilesat_solve_options *so,
                   ts_x_fn fn, const void *arg, tilesat_explanation **out,
                   tilesat_error *err) {
  ts_window w;
  ts_ints pin = {0};
  int res = TILESAT_UNKNOWN;
  if (window_applies(m, so, &w, &pin)) {
    res = fn(&w.m, so, arg, out, err);
    if (res == TILESAT_UNSAT)
      move_to_map(m, &w, &pin, *out);
    else if (res == TILESAT_SAT)
      res = TILESAT_UNKNOWN; /* without its bans the window fills */
  }
  ts_window_free(&w); /* (zeroed when there was none) */
  free(pin.v);
  return res;
}

int ts_x_all_in_window(const tilesat_map *m, const tilesat_solve_options *so,
                       size_t limit, tilesat_explanation ***out, size_t *n,
                       bool *complete, tilesat_error *err) {
  ts_window w;
  ts_ints pin = {0};
  int res = TILESAT_UNKNOWN;
  if (window_applies(m, so, &w, &pin)) {
    res = tilesat_explain_all(&w.m, so, limit, out, n, complete, err);
    for (size_t i = 0; res == TILESAT_UNSAT && i < *n; i++)
      move_to_map(m, &w, &pin, (*out)[i]);
    if (res == TILESAT_SAT)
      res = TILESAT_UNKNOWN; /* without its bans the window fills */
  }
  ts_window_free(&w);
  free(pin.v);
  return res;
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
    ts_xcnf cnf;
    xcnf_init(&cnf, m);
    ts_xsub x;
    ts_xsub_init(&x, &cnf, G, inc, so);
    res = ts_xsub_solve(&x, &set, -1);
    if (res == TILESAT_UNKNOWN)
      res = ts_no_answer(so, "explain", err);
    ts_xsub_free(&x);
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

int ts_x_cell_dist(const tilesat_map *m, int a, int b, bool manhattan) {
  int dr = axis_dist(a / m->width, b / m->width, m->height, m->periodic);
  int dc = axis_dist(a % m->width, b % m->width, m->width, m->periodic);
  return manhattan ? dr + dc : (dr > dc ? dr : dc);
}

/* Twice the distance of a group from a cell, adjacencies counted half a
 * step closer than their nearer end. */
int ts_x_group_dist2(const tilesat_map *m, int g, int centre) {
  int cells[2], n = ts_x_group_cells(m, g, cells);
  if (n == 0) /* the whole map's: tried last */
    return 0;
  int d = ts_x_cell_dist(m, cells[0], centre, true);
  if (n == 1)
    return 2 * d;
  int d2 = ts_x_cell_dist(m, cells[1], centre, true);
  return 2 * (d < d2 ? d : d2) + 1;
}

/* A progress line, when the caller wants them (it throttles). */
void ts_x_copy_ints(ts_ints *to, const ts_ints *from) {
  to->n = 0;
  for (size_t i = 0; i < from->n; i++)
    TS_PUSH(*to, from->v[i]);
}

int ts_x_cmp_constraint(const void *a, const void *b) {
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
    int cells[2], n = ts_x_group_cells(m, mus->v[i], cells);
    if (n == 1)
      focus[cells[0]] = 1;
    for (int k = 0; k < n; k++)
      touch[cells[k]] = 1;
  }
  for (size_t i = 0; i < mus->n; i++)
    TS_PUSH(e->cs, constraint_of(m, mus->v[i], focus));
  qsort(e->cs.v, e->cs.n, sizeof *e->cs.v, ts_x_cmp_constraint);
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

/* Propagation on the explanation's constraints alone: the steps that lead
 * to the contradiction (all steps if there is none, but the pins that
 * remove nothing), each with the constraints it uses. */
tilesat_explanation *ts_x_finish(const tilesat_map *m, const ts_ints *mus) {
  tilesat_explanation *e = build(m, mus);
  int G = ts_group_count(m);
  uint8_t *en = ts_calloc((size_t)G, 1);
  int *cid = ts_calloc((size_t)G, sizeof *cid);
  for (size_t i = 0; i < e->groups.n; i++) {
    en[e->groups.v[i]] = 1;
    cid[e->groups.v[i]] = (int)i + 1;
  }
  ts_prop p;
  if (ts_prop_init(&p, m, en, true))
    ts_prop_pins(&p);
  e->by_prop = p.conflict >= 0;
  uint8_t *show = ts_malloc(p.steps.n + 1);
  if (p.conflict >= 0)
    ts_prop_chain(&p, show);
  else
    memset(show, 1, p.steps.n);
  for (size_t i = 0; i < p.steps.n && p.conflict < 0; i++) {
    const ts_step *s = &p.steps.v[i];
    if (s->kind == TS_STEP_PIN && s->choice < 0) {
      bool any = false;
      for (int w = 0; w < p.words; w++)
        any |= p.sets.v[s->lost + (size_t)w] != 0;
      if (!any)
        show[i] = 0;
    }
  }
  e->steps = ts_steps_of(&p, show, cid);
  ts_prop_free(&p);
  free(show);
  free(cid);
  free(en);
  return e;
}

/* ------------------------------------------------------- the whole problem */

void ts_xctx_close(ts_xctx *x) {
  ts_xsub_free(&x->full);
  xcnf_free(&x->cnf);
  free(x->has);
  free(x->all.v);
}

/* Set up, and solve with every constraint: TILESAT_UNSAT (a core in
 * x->full.failed; close x after), or TILESAT_SAT or -1 with err (nothing
 * left to close). */
int ts_xctx_open(ts_xctx *x, const tilesat_map *m,
                 const tilesat_solve_options *so, tilesat_error *err) {
  if (refuse_bans(m, err))
    return -1;
  int early = ts_check_collapse_first(m, so, "explain", err); /* a map */
  if (early != TILESAT_UNKNOWN)
    return early;
  if (explain_fits(m, so, err))
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
  ts_xsub_init(&x->full, &x->cnf, x->G, NULL, so);
  ts_say(so,
         "the whole %dx%d map, its %zu constraints each one to drop, "
         "for a first set that clashes",
         m->width, m->height, x->all.n);
  int res = ts_xsub_solve(&x->full, &x->all, -1);
  if (res == TILESAT_UNKNOWN)
    res = ts_no_answer(so, "explain", err);
  if (res != TILESAT_UNSAT)
    ts_xctx_close(x);
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
static void extend(ts_xctx *x, uint8_t *in, ts_ints *cur) {
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
int ts_x_grow(ts_xctx *x, uint8_t *in, ts_ints *cur, tilesat_error *err) {
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
  while ((r = ts_xsub_solve(&x->full, cur, -1)) == TILESAT_UNSAT) {
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
    r = ts_xsub_solve(&x->full, cur, -1);
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

tilesat_solve_options ts_x_so_of(const tilesat_map *m,
                                 const tilesat_solve_options *options) {
  if (!m)
    ts_misuse("tilesat_explain", "NULL map or result");
  return ts_solve_for(m, options);
}

void ts_x_sets_free(ts_sets *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].v);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
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
  tilesat_steps_free(e->steps);
  free(e);
}

const tilesat_constraint *
tilesat_explanation_constraint(const tilesat_explanation *e, size_t i) {
  if (i >= e->cs.n)
    ts_misuse(__func__, "index out of range");
  return &e->cs.v[i];
}

void tilesat_explanation_get(const tilesat_explanation *e,
                             tilesat_explanation_info *info) {
  if (!e || !info)
    ts_misuse(__func__, "NULL argument");
  *info = (tilesat_explanation_info){
      .map = e->m,
      .size = e->cs.n,
      .ncells = e->cells.n,
      .cells = e->cells.v,
      .by_propagation = e->by_prop,
      .window = e->window[2] > 0,
      .row0 = e->window[0],
      .col0 = e->window[1],
      .rows = e->window[2],
      .cols = e->window[3],
      .steps = e->steps,
  };
}
