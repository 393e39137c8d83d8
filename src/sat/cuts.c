/* cuts.c: connected and path constraints, kept lazily.
 *
 * No clause set of reasonable size says "these cells form one region", so
 * the solver runs without it, and each model is checked: the cells whose
 * y (the cell holds a tile of the class, encode.c) is true are split into
 * regions by a flood fill.  A region C that should meet another region
 * (connected: any other; path: one holding another of the path's cells)
 * and does not is cut off: for u in C and v in the other region, every
 * way from u to v through class cells crosses any set of cells B that
 * separates them, so
 *
 *     -y_u | -y_v | OR { y_b : b in B }
 *
 * holds in every map that keeps the constraint, and the model breaks it
 * (y_u, y_v true, every y_b false).  The B used are rings around C: a
 * breadth-first search from C by layers, each layer the cells next to
 * what is inside so far, is stopped at the layer that reaches the nearest
 * region C should meet; every layer before it is a ring of cells whose y
 * are all false, and each gives a cut (regions a path does not care about
 * are taken inside whole, so its rings stay false).  With every ring at
 * once the solver must cross all of them in its next model, rather than
 * grow C one layer a round.  u and v are cells the constraint forces into
 * the class when their regions have one (a path's cells, a connected
 * constraint's cell), which makes the cut shorter in effect.  The cuts
 * join the constraint's group, so explanations (explain.c) see them as
 * that constraint's clauses. */
#include "sat/sat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ts_cuts {
  const tilesat_map *m;
  int N, D;
  int *nbr;    /* N * D neighbours, -1 where the map ends */
  int nlazy;   /* connected and path constraints */
  int *which;  /* their indexes among the map's globals */
  int *ylit;   /* nlazy * N: the y literals */
  uint8_t *yv; /* nlazy * N: their values in the model */
  int *comp;   /* N: the region of each true cell, or -1 */
  int *queue;  /* N: scratch of ts_regions */
  int *order;  /* N: cells by region */
  int *rstart; /* N + 1: where each region starts in order */
  int *forced; /* N: a forced cell of each region, or -1 */
  int *seen;   /* N: the search that last reached the cell */
  int stamp;   /* the current search */
  ts_ints cur, next, rings, ringstart, lits;
};

ts_cuts *ts_cuts_new(const tilesat_map *m) {
  if (!ts_map_has_lazy(m))
    return NULL;
  ts_cuts *c = ts_calloc(1, sizeof *c);
  int N = c->N = m->ncells, D = c->D = m->rules->ndirs;
  c->m = m;
  c->nbr = ts_malloc((size_t)N * (size_t)D * sizeof *c->nbr);
  for (int cell = 0; cell < N; cell++)
    for (int d = 0; d < D; d++)
      c->nbr[(size_t)cell * (size_t)D + (size_t)d] =
          ts_map_neighbor(m, cell, d);
  c->which = ts_malloc(m->globals.n * sizeof *c->which);
  for (size_t i = 0; i < m->globals.n; i++)
    if (ts_global_lazy(&m->globals.v[i]))
      c->which[c->nlazy++] = (int)i;
  c->ylit = ts_malloc((size_t)c->nlazy * (size_t)N * sizeof *c->ylit);
  c->yv = ts_malloc((size_t)c->nlazy * (size_t)N);
  for (int j = 0; j < c->nlazy; j++) {
    int i = c->which[j];
    ts_global_ylits(m, i, ts_global_var0(m, i), c->ylit + (size_t)j * N);
  }
  c->comp = ts_malloc((size_t)N * sizeof *c->comp);
  c->queue = ts_malloc((size_t)N * sizeof *c->queue);
  c->order = ts_malloc((size_t)N * sizeof *c->order);
  c->rstart = ts_malloc((size_t)(N + 1) * sizeof *c->rstart);
  c->forced = ts_malloc((size_t)N * sizeof *c->forced);
  c->seen = ts_calloc((size_t)N, sizeof *c->seen);
  return c;
}

void ts_cuts_free(ts_cuts *c) {
  if (!c)
    return;
  free(c->nbr);
  free(c->which);
  free(c->ylit);
  free(c->yv);
  free(c->comp);
  free(c->queue);
  free(c->order);
  free(c->rstart);
  free(c->forced);
  free(c->seen);
  free(c->cur.v);
  free(c->next.v);
  free(c->rings.v);
  free(c->ringstart.v);
  free(c->lits.v);
  free(c);
}

/* The regions of the true cells of y, listed region by region, and a
 * cell of each that g forces into the class; returns how many. */
static int regions(ts_cuts *c, const ts_global *g, const uint8_t *y) {
  int N = c->N;
  int R = ts_regions(c->m, c->nbr, y, c->comp, c->queue);
  memset(c->rstart, 0, (size_t)(R + 1) * sizeof *c->rstart);
  memset(c->queue, 0, (size_t)R * sizeof *c->queue);
  for (int cell = 0; cell < N; cell++)
    if (c->comp[cell] >= 0)
      c->rstart[c->comp[cell] + 1]++;
  for (int r = 0; r < R; r++)
    c->rstart[r + 1] += c->rstart[r];
  for (int cell = 0; cell < N; cell++) /* queue: the next free slot */
    if (c->comp[cell] >= 0)
      c->order[c->rstart[c->comp[cell]] + c->queue[c->comp[cell]]++] = cell;
  for (int r = 0; r < R; r++)
    c->forced[r] = -1;
  if (g->at >= 0 && y[g->at])
    c->forced[c->comp[g->at]] = g->at;
  for (size_t i = 0; i < g->cells.n; i++)
    if (y[g->cells.v[i]])
      c->forced[c->comp[g->cells.v[i]]] = g->cells.v[i];
  return R;
}

/* Does the region matter to g: any for connected, those with a path cell
 * for a path. */
static bool matters(const ts_cuts *c, const ts_global *g, int r) {
  return g->kind == TILESAT_GLOBAL_CONNECTED || c->forced[r] >= 0;
}

static void take_region(ts_cuts *c, int r) {
  for (int i = c->rstart[r]; i < c->rstart[r + 1]; i++) {
    c->seen[c->order[i]] = c->stamp;
    TS_PUSH(c->cur, c->order[i]);
  }
}

/* The rings around region r, until the nearest region it should meet
 * (into c->rings, c->ringstart); that region's cell to cut against, or -1
 * when none is reachable. */
static int rings(ts_cuts *c, const ts_global *g, const uint8_t *y, int r) {
  c->stamp++;
  c->cur.n = c->rings.n = c->ringstart.n = 0;
  take_region(c, r);
  for (;;) {
    c->next.n = 0;
    for (size_t i = 0; i < c->cur.n; i++) {
      int u = c->cur.v[i];
      for (int d = 0; d < c->D; d++) {
        int v = c->nbr[(size_t)u * (size_t)c->D + (size_t)d];
        if (v < 0 || c->seen[v] == c->stamp)
          continue;
        if (!y[v]) {
          c->seen[v] = c->stamp;
          TS_PUSH(c->next, v);
          continue;
        }
        int other = c->comp[v];
        if (matters(c, g, other))
          return c->forced[other] >= 0 ? c->forced[other] : v;
        take_region(c, other); /* a region the path does not need */
      }
    }
    if (!c->next.n)
      return -1;
    TS_PUSH(c->ringstart, c->rings.n);
    for (size_t i = 0; i < c->next.n; i++)
      TS_PUSH(c->rings, c->next.v[i]);
    ts_ints t = c->cur;
    c->cur = c->next;
    c->next = t;
  }
}

/* The cuts of lazy constraint j on the model, to fn; how many. */
static long cut_one(ts_cuts *c, int j, ts_clause_fn fn, void *user) {
  const tilesat_map *m = c->m;
  const ts_global *g = &m->globals.v[c->which[j]];
  const uint8_t *y = c->yv + (size_t)j * (size_t)c->N;
  const int *ylit = c->ylit + (size_t)j * (size_t)c->N;
  int R = regions(c, g, y), relevant = 0;
  for (int r = 0; r < R; r++)
    relevant += matters(c, g, r);
  if (relevant < 2)
    return 0;
  int group = ts_global_group(m, c->which[j]);
  long cuts = 0;
  for (int r = 0; r < R; r++) {
    if (!matters(c, g, r))
      continue;
    int u = c->forced[r] >= 0 ? c->forced[r] : c->order[c->rstart[r]];
    int v = rings(c, g, y, r);
    if (v < 0) { /* nothing joins them (cannot happen on a whole grid) */
      int l[2] = {-ylit[u], -ylit[c->order[c->rstart[r == 0]]]};
      fn(user, group, l, 2);
      cuts++;
      continue;
    }
    TS_PUSH(c->ringstart, c->rings.n);
    for (size_t k = 0; k + 1 < c->ringstart.n; k++) {
      c->lits.n = 0;
      TS_PUSH(c->lits, -ylit[u]);
      TS_PUSH(c->lits, -ylit[v]);
      for (int i = c->ringstart.v[k]; i < c->ringstart.v[k + 1]; i++)
        TS_PUSH(c->lits, ylit[c->rings.v[i]]);
      fn(user, group, c->lits.v, c->lits.n);
      cuts++;
    }
  }
  return cuts;
}

long ts_cuts_find(ts_cuts *c, ts_value_fn value, void *vuser,
                  const uint8_t *active, ts_clause_fn fn, void *user) {
  /* every value first: adding a clause may reset the solver's model */
  for (int j = 0; j < c->nlazy; j++)
    if (!active || active[c->which[j]])
      for (int cell = 0; cell < c->N; cell++)
        c->yv[(size_t)j * (size_t)c->N + (size_t)cell] =
            value(vuser, c->ylit[(size_t)j * (size_t)c->N + (size_t)cell]);
  long cuts = 0;
  for (int j = 0; j < c->nlazy; j++)
    if (!active || active[c->which[j]])
      cuts += cut_one(c, j, fn, user);
  return cuts;
}

static bool solver_value(void *user, int var) {
  return ts_solver_value(user, var);
}

static void solver_clause(void *user, int group, const int *lits, size_t n) {
  (void)group;
  ts_solver_add_clause(user, lits, n);
}

int ts_solve_cut_assuming(ts_solver *s, ts_cuts *c, const int *lits, int n,
                          int conflicts, tilesat_solve_stats *stats) {
  long rounds = 0, cuts = 0;
  for (;;) {
    for (int i = 0; i < n; i++)
      ts_solver_assume(s, lits[i]);
    if (conflicts > 0)
      ts_solver_limit(s, conflicts);
    int res = ts_solver_solve(s);
    if (stats)
      stats->solves++;
    if (res != TILESAT_SAT || !c)
      return res;
    long k = ts_cuts_find(c, solver_value, s, NULL, solver_clause, s);
    if (!k)
      return res;
    rounds++;
    cuts += k;
    if (stats) {
      stats->cut_rounds++;
      stats->cuts += k;
    }
    char line[96];
    snprintf(line, sizeof line, "connectivity: %ld rounds of cuts, %ld cuts",
             rounds, cuts);
    ts_solver_say(s, line);
  }
}

int ts_solve_cut(ts_solver *s, ts_cuts *c, tilesat_solve_stats *stats) {
  /* Class cells first, a hint to the backends that take one: a large
   * region is connected as it is, while a model with few class cells
   * (PicoSAT's default) meets each cut with a lone cell on its ring, a new
   * region to cut off in turn (thousands of rounds on a 64x64 dungeon,
   * against 34 with the hint; CaDiCaL, whose first models are mostly
   * class cells anyway, takes 3). */
  for (size_t i = 0; c && i < (size_t)c->nlazy * (size_t)c->N; i++)
    ts_solver_prefer(s, c->ylit[i]);
  return ts_solve_cut_assuming(s, c, NULL, 0, 0, stats);
}
