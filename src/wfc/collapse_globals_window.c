/* collapse_globals_window.c: connected and path constraints in the
 * guard's windows (cg_window_*; collapse_globals.c keeps them in a run).
 *
 * The guard's windows (collapse.c) are small maps of their own: a
 * relaxation of the map for its adjacency, not for connectivity (a region
 * connected in the map need not be inside a window).  What does hold in
 * a window W: a class cell of W joined to a class cell outside W reaches,
 * inside W, a cell of W with a neighbour outside it (an exit).  So for a
 * connected constraint, once some class cell outside W is known (a
 * choice there holds a class tile: the literal A, placed in the window's
 * prefix at that choice), every class region of W must touch an exit;
 * for a path with a cell outside W, every region of W holding one of its
 * cells must.  Kept by cuts as cuts.c keeps the map's: a region of the
 * model that touches no exit is cut off by each ring of the layers
 * around it, out to the nearest exit (or region that touches one):
 * -A | -x[u,t] | OR x[b,t'] for u in the region (its tile t), b in the
 * ring, t' in the class. */
#include "wfc/collapse_globals_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct ts_cg_window {
  const tilesat_collapse *c;
  const tilesat_map *wm; /* the window as a map */
  int n;                 /* its cells */
  int nlazy;
  int *gi;       /* [nlazy]: each connected or path constraint */
  int *alit;     /* [nlazy]: A's variable, 0: unconditional, -1: none */
  bool *used;    /* [nlazy]: A given out (ts_cg_window_outside) */
  uint8_t *exit; /* [n] */
  uint8_t *must; /* [nlazy][n]: a path's cells in the window */
  int *nbr;      /* [n][D] the window's neighbours */
  int *tile;     /* [n]: the model's tiles (-1: masked) */
  uint8_t *y;    /* [n]: its class cells */
  int *comp, *queue, *order, *seen, stamp;
  int R, *rstart;       /* the model's regions, their cells in order */
  uint8_t *open, *care; /* [R]: touches an exit; must touch one */
  ts_ints lits, layer, next;
};

static const ts_cg_glob *wglob(const ts_cg_window *w, int j) {
  return &w->c->cg->v[w->gi[j]];
}

ts_cg_window *ts_cg_window_new(const tilesat_collapse *c, const tilesat_map *wm,
                               const int *wcell) {
  ts_cg *G = c->cg;
  int nlazy = 0;
  for (int i = 0; G && i < G->n; i++)
    nlazy += G->v[i].lazy;
  if (!nlazy)
    return NULL;
  ts_cg_window *w = ts_calloc(1, sizeof *w);
  int n = w->n = wm->ncells, D = c->D, N = c->N;
  w->c = c;
  w->wm = wm;
  w->gi = ts_malloc((size_t)nlazy * sizeof *w->gi);
  w->alit = ts_malloc((size_t)nlazy * sizeof *w->alit);
  w->used = ts_calloc((size_t)nlazy, sizeof *w->used);
  w->must = ts_calloc((size_t)nlazy * (size_t)n, 1);
  int *where = ts_malloc((size_t)N * sizeof *where); /* map cell -> window */
  for (int cell = 0; cell < N; cell++)
    where[cell] = -1;
  for (int lc = 0; lc < n; lc++)
    if (wcell[lc] >= 0)
      where[wcell[lc]] = lc;
  w->exit = ts_calloc((size_t)n, 1);
  for (int lc = 0; lc < n; lc++)
    for (int d = 0; d < D && wcell[lc] >= 0; d++) {
      int v = c->nbr[(size_t)wcell[lc] * (size_t)D + (size_t)d];
      w->exit[lc] |= v >= 0 && where[v] < 0;
    }
  int var = ts_encode_nvars(wm);
  for (int i = 0; i < G->n; i++) {
    const ts_cg_glob *k = &G->v[i];
    if (!k->lazy)
      continue;
    int j = w->nlazy++;
    w->gi[j] = i;
    w->alit[j] = ++var; /* CONNECTED: once a class cell outside is known */
    const ts_global *g = k->g;
    bool outside = g->at >= 0 && where[g->at] < 0;
    for (size_t q = 0; q < g->cells.n; q++) {
      int lc = where[g->cells.v[q]];
      outside |= lc < 0;
      if (lc >= 0)
        w->must[(size_t)j * (size_t)n + (size_t)lc] = 1;
    }
    if (g->kind == TILESAT_GLOBAL_PATH)
      w->alit[j] = outside ? 0 : -1; /* all inside: they may join outside */
    else if (outside)
      w->alit[j] = 0;
  }
  free(where);
  w->nbr = ts_malloc((size_t)n * (size_t)D * sizeof *w->nbr);
  for (int lc = 0; lc < n; lc++)
    for (int d = 0; d < D; d++)
      w->nbr[(size_t)lc * (size_t)D + (size_t)d] = ts_map_neighbor(wm, lc, d);
  w->tile = ts_malloc((size_t)n * sizeof *w->tile);
  w->order = ts_malloc((size_t)n * sizeof *w->order);
  w->y = ts_malloc((size_t)n);
  w->comp = ts_malloc((size_t)n * sizeof *w->comp);
  w->queue = ts_malloc((size_t)n * sizeof *w->queue);
  w->seen = ts_calloc((size_t)n, sizeof *w->seen);
  return w;
}

void ts_cg_window_free(ts_cg_window *w) {
  if (!w)
    return;
  free(w->gi);
  free(w->alit);
  free(w->rstart);
  free(w->open);
  free(w->care);
  free(w->used);
  free(w->exit);
  free(w->must);
  free(w->nbr);
  free(w->tile);
  free(w->order);
  free(w->y);
  free(w->comp);
  free(w->queue);
  free(w->seen);
  free(w->lits.v);
  free(w->layer.v);
  free(w->next.v);
  free(w);
}

int ts_cg_window_outside(ts_cg_window *w, int tile) {
  for (int j = 0; w && j < w->nlazy; j++)
    if (w->alit[j] > 0 && !w->used[j] && wglob(w, j)->in[tile]) {
      w->used[j] = true;
      return w->alit[j];
    }
  return 0;
}

/* The model's regions of constraint j's class (w->tile): their cells in
 * order by region (from rstart[r]), which touch an exit (open) and which
 * must (care: all for connected, those with a path's cell for a path). */
static void window_regions(ts_cg_window *w, int j) {
  const ts_cg_glob *k = wglob(w, j);
  int n = w->n;
  const uint8_t *must = w->must + (size_t)j * (size_t)n;
  for (int lc = 0; lc < n; lc++)
    w->y[lc] = w->tile[lc] >= 0 && k->in[w->tile[lc]];
  int R = w->R = ts_regions(w->wm, w->nbr, w->y, w->comp, w->queue);
  free(w->open);
  free(w->care);
  free(w->rstart);
  w->open = ts_calloc((size_t)R + 1, 1);
  w->care = ts_calloc((size_t)R + 1, 1);
  w->rstart = ts_calloc((size_t)R + 2, sizeof *w->rstart);
  for (int lc = 0; lc < n; lc++)
    if (w->comp[lc] >= 0) {
      int r = w->comp[lc];
      w->open[r] |= w->exit[lc];
      w->care[r] |= k->g->kind == TILESAT_GLOBAL_CONNECTED || must[lc];
      w->rstart[r + 2]++;
    }
  for (int r = 0; r < R; r++)
    w->rstart[r + 2] += w->rstart[r + 1];
  for (int lc = 0; lc < n; lc++)
    if (w->comp[lc] >= 0)
      w->order[w->rstart[w->comp[lc] + 1]++] = lc;
}

/* The ring around what is inside (its last layer in w->layer) into
 * w->next: a closed region met is taken inside whole (and its neighbours
 * looked at too).  1 if it meets a region that touches an exit (no cut),
 * else 0, with *exit set when the ring holds an exit. */
static int next_ring(ts_cg_window *w, int st, bool *exit) {
  int D = w->c->D;
  bool reached = false;
  *exit = false;
  w->next.n = 0;
  for (size_t i = 0; i < w->layer.n; i++) {
    int a = w->layer.v[i];
    for (int d = 0; d < D; d++) {
      int b = w->nbr[(size_t)a * (size_t)D + (size_t)d];
      if (b < 0 || w->seen[b] == st)
        continue;
      int q = w->comp[b];
      if (q >= 0 && w->open[q]) {
        reached = true;
      } else if (q >= 0) {
        for (int x = w->rstart[q]; x < w->rstart[q + 1]; x++) {
          w->seen[w->order[x]] = st;
          TS_PUSH(w->layer, w->order[x]);
        }
      } else {
        w->seen[b] = st;
        *exit |= w->exit[b] != 0;
        TS_PUSH(w->next, b);
      }
    }
  }
  return reached;
}

/* The cuts around region r of constraint j: each ring out to the nearest
 * exit, or region that touches one, holds no class tile in the model.
 * How many. */
static long region_cuts(ts_cg_window *w, ts_solver *s, int j, int r) {
  const ts_cg_glob *k = wglob(w, j);
  int n = w->n, T = w->c->T;
  const uint8_t *must = w->must + (size_t)j * (size_t)n;
  if (++w->stamp == INT_MAX) {
    memset(w->seen, 0, (size_t)n * sizeof *w->seen);
    w->stamp = 1;
  }
  int st = w->stamp, u = -1;
  w->layer.n = 0; /* the cells whose neighbours are looked at next */
  for (int i = w->rstart[r]; i < w->rstart[r + 1]; i++) {
    int lc = w->order[i];
    w->seen[lc] = st;
    TS_PUSH(w->layer, lc);
    if (u < 0 || must[lc])
      u = lc;
  }
  long cuts = 0;
  for (bool exit = false; !exit;) {
    if (next_ring(w, st, &exit))
      break;
    /* no class tile on the ring in the model: a cut (an empty ring:
     * nothing joins the region to an exit at all) */
    w->lits.n = 0;
    if (w->alit[j] > 0)
      TS_PUSH(w->lits, -w->alit[j]);
    TS_PUSH(w->lits, -ts_var(w->wm, u, w->tile[u]));
    for (size_t i = 0; i < w->next.n; i++)
      for (int t = 0; t < T; t++)
        if (k->in[t])
          TS_PUSH(w->lits, ts_var(w->wm, w->next.v[i], t));
    ts_solver_add_clause(s, w->lits.v, w->lits.n);
    cuts++;
    if (!w->next.n)
      break;
    ts_ints swap = w->layer;
    w->layer = w->next;
    w->next = swap;
  }
  return cuts;
}

/* The cuts of constraint j against the model: around each region that
 * should touch an exit and does not.  How many. */
static long window_cuts(ts_cg_window *w, ts_solver *s, int j) {
  window_regions(w, j);
  long cuts = 0;
  for (int r = 0; r < w->R; r++)
    if (!w->open[r] && w->care[r])
      cuts += region_cuts(w, s, j, r);
  return cuts;
}

/* Cut rounds a window's solve may take before it counts as no answer. */
#define WINDOW_ROUNDS 64

int ts_cg_window_solve(ts_cg_window *w, ts_solver *s, const int *lits, long n,
                       int budget) {
  for (int round = 0;; round++) {
    for (long i = 0; i < n; i++)
      ts_solver_assume(s, lits[i]);
    if (budget)
      ts_solver_limit(s, budget);
    int res = ts_solver_solve(s);
    if (res != TILESAT_SAT)
      return res;
    /* the model first: adding a clause may reset it */
    for (int lc = 0; lc < w->n; lc++) {
      w->tile[lc] = -1;
      for (int t = 0; t < w->c->T && w->tile[lc] < 0; t++)
        if (ts_solver_value(s, ts_var(w->wm, lc, t)))
          w->tile[lc] = t;
    }
    long cuts = 0;
    for (int j = 0; j < w->nlazy; j++) {
      bool on = w->alit[j] == 0;
      for (long i = 0; i < n && !on && w->alit[j] > 0; i++)
        on = lits[i] == w->alit[j];
      if (on)
        cuts += window_cuts(w, s, j);
    }
    if (!cuts)
      return TILESAT_SAT;
    if (round == WINDOW_ROUNDS)
      return TILESAT_UNKNOWN;
  }
}
