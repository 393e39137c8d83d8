/* collapse_globals.c: counts, connected and path constraints in a WFC run.
 *
 * Every constraint keeps, per cell, how many of the tiles still possible
 * there are in its class and how many are not (updated by every ban).  A
 * cell "can" hold the class while the first is not 0 and "must" once the
 * second is 0.
 *
 * Counts are capped counters with propagation: over the cells a count
 * covers, `must` and `can` cells.  When `must` reaches the upper bound,
 * the class's tiles are banned in every other cell (none more may hold
 * it); when `can` comes down to the lower bound, the other tiles are
 * banned in every cell that can (all of them must).  Past a bound (more
 * cells must than allowed, fewer can than needed) the run has no valid
 * map: a contradiction like an empty cell, at the cell that passed it.
 * So a run that finishes keeps its counts exactly.
 *
 * Connected and path constraints WFC's own runs do not see: a plain run
 * goes on without them, and a map that breaks one is a failed run
 * (checked at the end).  A guarded run keeps them by propagation: the
 * cells that can hold the class form regions (the walkable cells, whose
 * labels are kept as cells leave); the cells that must (a connected
 * constraint) or the path's cells must all lie in one of them.  Cells
 * only leave (a ban never comes back), so the labels are a decremental
 * connectivity: when a cell leaves, its walkable neighbours that are not
 * joined around it (its ring of 8 cells, 6 on hex maps) may have fallen
 * apart; one search from each group of them runs in turn, a cell at a
 * time, until all but one have met or ended: the searches that ended
 * enclose the pieces split off (the smaller ones), and only their cells
 * are relabelled (anneal_globals.c keeps its regions the same way).
 * Then:
 *  - cells that must lie in two regions: a contradiction (at the cell
 *    that left);
 *  - connected: once a cell must hold the class, every region without
 *    such a cell can hold none (banned: its cells could not join it);
 *  - nonempty: no walkable cell left is a contradiction;
 *  - a cut cell of a region, with cells that must join on two sides of
 *    it, must hold the class (its other tiles are banned).  A cell that
 *    leaves makes new cut cells only around it (its ring) when its
 *    neighbours were joined around it, else on the ways its searches
 *    found between them; a cell that must join, with no neighbour that
 *    must, only on the shortest way to the nearest one: those are looked
 *    at one by one (a search without the cell, given up past CUT_BUDGET
 *    cells); when the ways are long, a depth-first search finds every cut
 *    cell at once (Hopcroft and Tarjan's low points).
 * Every such ban holds in every valid map with the run's choices, as a
 * tile propagation removes does, so the guard's bans stay sound; at the
 * end the walkable cells are the class's cells and form one region.
 *
 * What the propagation decides depends on the wave alone, not on the
 * labels' numbers: a replay resumed from a saved wave (ts_cg_rebuild) makes
 * the same bans in the same order as the run from its seed (the guard's
 * bans are tied to the run's steps, so this is what keeps them right).
 *
 * The guard's windows (collapse.c) get the connectivity that holds in a
 * window (cg_window_*, collapse_globals_window.c). */
#include "wfc/collapse_globals_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- set-up */

/* The ring around each cell: square N NE E SE S SW W NW (a corner is the
 * neighbour's neighbour), hex E NE NW W SW SE; -1 where none. */
static void build_rings(ts_cg *G, const int *nbr) {
  static const int sq[8][2] = {{0, -1}, {0, 1}, {1, -1}, {1, 2},
                               {2, -1}, {2, 3}, {3, -1}, {3, 0}};
  static const int hex[6] = {0, 2, 3, 1, 5, 4}; /* E W NE NW SE SW */
  int N = G->N, D = G->D;
  G->nring = D == 4 ? 8 : 6;
  for (int i = 0; i < G->nring; i++)
    if (D != 4)
      G->ringpos[hex[i]] = i;
    else if (sq[i][1] < 0)
      G->ringpos[sq[i][0]] = i;
  G->ring = ts_malloc((size_t)N * (size_t)G->nring * sizeof *G->ring);
  for (int c = 0; c < N; c++) {
    int *r = G->ring + (size_t)c * (size_t)G->nring;
    for (int i = 0; i < G->nring; i++) {
      if (D != 4) {
        r[i] = nbr[(size_t)c * 6 + (size_t)hex[i]];
        continue;
      }
      int a = nbr[(size_t)c * 4 + (size_t)sq[i][0]];
      r[i] = sq[i][1] < 0 || a < 0 ? a : nbr[(size_t)a * 4 + (size_t)sq[i][1]];
    }
  }
}

ts_cg *ts_cg_new(const tilesat_collapse *c) {
  const tilesat_map *m = c->m;
  int n = 0, lazy = 0;
  for (size_t i = 0; i < m->globals.n; i++) {
    n += m->globals.v[i].kind != TILESAT_GLOBAL_BORDER;
    lazy += ts_global_lazy(&m->globals.v[i]);
  }
  if (!n)
    return NULL;
  ts_cg *G = ts_calloc(1, sizeof *G);
  G->N = c->N;
  G->T = c->T;
  G->D = c->D;
  G->W = m->width;
  G->v = ts_calloc((size_t)n, sizeof *G->v);
  size_t N = (size_t)c->N;
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (g->kind == TILESAT_GLOBAL_BORDER)
      continue;
    ts_cg_glob *k = &G->v[G->n++];
    k->g = g;
    k->idx = (int)i;
    k->lazy = ts_global_lazy(g);
    k->in = ts_malloc((size_t)c->T);
    for (int t = 0; t < c->T; t++)
      k->in[t] = ts_bit(g->class, t);
    k->ncls = ts_malloc(N * sizeof *k->ncls);
    k->nnon = ts_malloc(N * sizeof *k->nnon);
    if (g->kind == TILESAT_GLOBAL_COUNT) {
      k->lo = g->cmp == TS_AT_MOST ? 0 : g->k;
      k->hi = g->cmp == TS_AT_LEAST ? INT_MAX : g->k;
    } else {
      k->lab = ts_malloc(N * sizeof *k->lab);
      k->size = ts_malloc(N * sizeof *k->size);
      k->rel = ts_malloc(N * sizeof *k->rel);
      k->freel = ts_malloc(N * sizeof *k->freel);
      k->isrel = ts_malloc(N);
    }
  }
  if (lazy) {
    build_rings(G, c->nbr);
    G->stamp = ts_calloc(N, sizeof *G->stamp);
    G->owner = ts_calloc(N, sizeof *G->owner);
    G->from = ts_calloc(N, sizeof *G->from);
    for (int i = 0; i < CG_MAX_SEARCH; i++)
      G->q[i] = ts_malloc(N * sizeof *G->q[i]);
    G->queue = ts_malloc(N * sizeof *G->queue);
    G->disc = ts_malloc(N * sizeof *G->disc);
    G->low = ts_malloc(N * sizeof *G->low);
    G->par = ts_malloc(N * sizeof *G->par);
    G->sub = ts_malloc(N * sizeof *G->sub);
    G->it = ts_malloc(N * sizeof *G->it);
    G->vis = ts_calloc(N, sizeof *G->vis);
  }
  return G;
}

void ts_cg_free(ts_cg *G) {
  if (!G)
    return;
  for (int i = 0; i < G->n; i++) {
    ts_cg_glob *k = &G->v[i];
    free(k->in);
    free(k->ncls);
    free(k->nnon);
    free(k->lab);
    free(k->size);
    free(k->rel);
    free(k->freel);
    free(k->isrel);
    free(k->dq.v);
    free(k->cq.v);
    free(k->seeds.v);
  }
  free(G->v);
  free(G->ring);
  free(G->stamp);
  free(G->owner);
  free(G->from);
  for (int i = 0; i < CG_MAX_SEARCH; i++)
    free(G->q[i]);
  free(G->queue);
  free(G->disc);
  free(G->low);
  free(G->par);
  free(G->sub);
  free(G->it);
  free(G->vis);
  free(G->cut.v);
  free(G);
}

/* --------------------------------------------------------- contradiction */

/* The run cannot keep k any more: a contradiction at cell, and why. */
__attribute__((format(printf, 4, 5))) static void
fail_at(tilesat_collapse *c, int cell, const ts_cg_glob *k, const char *fmt,
        ...) {
  if (c->contradiction >= 0)
    return;
  c->contradiction = cell;
  c->failed = k->idx;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(c->why, sizeof c->why, "%s: %s, but %s", k->g->origin, k->g->text,
           what);
}

/* ---------------------------------------------------------------- counts */

static bool covers(const ts_cg *G, const ts_cg_glob *k, int cell) {
  int r = cell / G->W, col = cell % G->W;
  return r >= k->g->r0 && r <= k->g->r1 && col >= k->g->c0 && col <= k->g->c1;
}

/* The count's bounds against its counters: a contradiction at cell past
 * one, work to do at one. */
static void count_check(tilesat_collapse *c, ts_cg_glob *k, int cell) {
  if (k->must > k->hi)
    fail_at(c, cell, k, "%d cells must hold them", k->must);
  else if (k->can < k->lo)
    fail_at(c, cell, k, "only %d cells can hold them", k->can);
  else if ((k->must == k->hi || k->can == k->lo) && k->can > k->must)
    k->pending = true;
}

/* At a bound: the class banned in the cells that may go either way (upper
 * bound reached), or the other tiles (lower bound: all of them must). */
static void count_apply(tilesat_collapse *c, ts_cg_glob *k) {
  const tilesat_map *m = c->m;
  bool full = k->must == k->hi;
  if (!full && k->can != k->lo)
    return;
  for (int r = k->g->r0; r <= k->g->r1; r++)
    for (int col = k->g->c0; col <= k->g->c1; col++) {
      int cell = r * m->width + col;
      if (!k->ncls[cell] || !k->nnon[cell])
        continue; /* decided (or masked) for this class */
      const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
      for (int t = 0; t < c->T && c->contradiction < 0; t++)
        if (poss[t] && k->in[t] == full)
          ts_collapse_ban(c, cell, t);
    }
}

/* --------------------------------------------------------------- regions */

static int new_label(ts_cg_glob *k) { return k->freel[--k->nfree]; }

static void unlabel(ts_cg_glob *k, int cell) {
  int l = k->lab[cell];
  k->lab[cell] = -1;
  k->rel[l] -= k->isrel[cell];
  if (--k->size[l] == 0)
    k->freel[k->nfree++] = l;
}

/* A cell of a region that no cell of the class must join: it can hold no
 * class tile (they are banned) and leaves the regions. */
static void shut(tilesat_collapse *c, ts_cg_glob *k, int cell) {
  unlabel(k, cell);
  const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
  for (int t = 0; t < c->T; t++)
    if (poss[t] && k->in[t])
      ts_collapse_ban(c, cell, t);
}

/* Every cell of label l shut: cells[0..n), or all the map's when cells is
 * NULL. */
static void ban_region(tilesat_collapse *c, ts_cg_glob *k, const int *cells,
                       int n, int l) {
  for (int i = 0; i < (cells ? n : c->N); i++) {
    int cell = cells ? cells[i] : i;
    if (k->lab[cell] == l)
      shut(c, k, cell);
  }
}

/* The regions of the walkable cells from scratch, with the cells that
 * must lie in the one region; checks nothing. */
static void label_all(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k) {
  int N = c->N, D = c->D;
  k->nfree = 0;
  for (int l = N - 1; l >= 0; l--) {
    k->freel[k->nfree++] = l;
    k->size[l] = k->rel[l] = 0;
  }
  k->nwalk = k->nrel = 0;
  k->main = -1;
  k->dq.n = k->cq.n = k->seeds.n = 0;
  k->cuts = false;
  for (int cell = 0; cell < N; cell++) {
    k->lab[cell] = -1;
    k->isrel[cell] = 0;
  }
  if (k->g->kind == TILESAT_GLOBAL_PATH)
    for (size_t i = 0; i < k->g->cells.n; i++)
      k->isrel[k->g->cells.v[i]] = 1;
  for (int cell = 0; cell < N; cell++) {
    if (k->g->kind == TILESAT_GLOBAL_CONNECTED)
      k->isrel[cell] = k->ncls[cell] && !k->nnon[cell];
    k->nwalk += k->ncls[cell] > 0;
  }
  for (int s = 0; s < N; s++) {
    if (!k->ncls[s] || k->lab[s] >= 0)
      continue;
    int l = new_label(k), head = 0, tail = 0;
    k->lab[s] = l;
    G->queue[tail++] = s;
    while (head < tail) {
      int u = G->queue[head++];
      k->size[l]++;
      k->rel[l] += k->isrel[u];
      for (int d = 0; d < D; d++) {
        int v = c->nbr[(size_t)u * (size_t)D + (size_t)d];
        if (v >= 0 && k->ncls[v] && k->lab[v] < 0) {
          k->lab[v] = l;
          G->queue[tail++] = v;
        }
      }
    }
    if (k->rel[l]) {
      k->nrel += k->rel[l];
      k->main = l;
    }
  }
}

/* After label_all at the start: cells that must join lying apart, or
 * none left that can hold the class, is a contradiction; a connected
 * region's other regions are to be banned. */
static void regions_check(tilesat_collapse *c, ts_cg_glob *k) {
  int first = -1;
  for (int cell = 0; cell < c->N && c->contradiction < 0; cell++) {
    if (!k->isrel[cell])
      continue;
    if (k->lab[cell] < 0)
      fail_at(c, cell, k, "(%d,%d) cannot hold one", cell / c->m->width,
              cell % c->m->width);
    else if (first < 0)
      first = cell;
    else if (k->lab[cell] != k->lab[first])
      fail_at(c, cell, k, "(%d,%d) and (%d,%d) can no longer be joined",
              first / c->m->width, first % c->m->width, cell / c->m->width,
              cell % c->m->width);
  }
  int at = k->g->kind == TILESAT_GLOBAL_CONNECTED ? k->g->at : -1;
  if (at >= 0 && !k->ncls[at] && c->contradiction < 0) /* masked, banned */
    fail_at(c, at, k, "(%d,%d) cannot hold one", at / c->m->width,
            at % c->m->width);
  bool nonempty = k->g->nonempty || k->g->at >= 0;
  if (nonempty && !k->nwalk && c->N && c->contradiction < 0)
    fail_at(c, 0, k, "no cell can hold one");
  if (k->g->kind == TILESAT_GLOBAL_CONNECTED && k->main >= 0)
    k->pending = true;
  k->cuts = k->nrel >= 2; /* the cut cells between them */
}

static int uf_find(int *uf, int i) {
  while (uf[i] != i)
    i = uf[i] = uf[uf[i]];
  return i;
}

/* The groups of x's walkable neighbours of label l that are joined around
 * x (through its ring): rep[i] one cell of each; returns how many. */
static int ring_groups(const tilesat_collapse *c, const ts_cg *G,
                       const ts_cg_glob *k, int x, int l, int *rep) {
  const int *ring = G->ring + (size_t)x * (size_t)G->nring;
  int n = G->nring, D = G->D, uf[8], roots[CG_MAX_SEARCH], ngroups = 0;
  for (int i = 0; i < n; i++)
    uf[i] = i;
  for (int i = 0; i < n; i++) {
    int a = ring[i], b = ring[(i + 1) % n];
    if (a < 0 || b < 0 || k->lab[a] != l || k->lab[b] != l)
      continue;
    bool adj = false; /* wraps and masks make odd rings: check */
    for (int d = 0; d < D && !adj; d++)
      adj = c->nbr[(size_t)a * (size_t)D + (size_t)d] == b;
    if (adj)
      uf[uf_find(uf, i)] = uf_find(uf, (i + 1) % n);
  }
  for (int d = 0; d < D; d++) {
    int v = c->nbr[(size_t)x * (size_t)D + (size_t)d];
    if (v < 0 || k->lab[v] != l)
      continue;
    int root = uf_find(uf, G->ringpos[d]), j = 0;
    while (j < ngroups && roots[j] != root && rep[j] != v)
      j++;
    if (j == ngroups) {
      roots[ngroups] = root;
      rep[ngroups++] = v;
    }
  }
  return ngroups;
}

/* Searches from rep[0..n) through the cells of label l, a cell each in
 * turn, until at most one group of them (those that met are one) still
 * runs: 1 when they all met (no split), 0 when some ended apart, -1 when
 * budget cells (0: no bound) were taken before either. */
static int search(const tilesat_collapse *c, ts_cg *G, const ts_cg_glob *k,
                  int l, const int *rep, int n, long budget) {
  if (G->cur == INT_MAX) {
    memset(G->stamp, 0, (size_t)G->N * sizeof *G->stamp);
    G->cur = 0;
  }
  int stamp = ++G->cur, D = G->D;
  for (int i = 0; i < n; i++) {
    G->q[i][0] = rep[i];
    G->qlen[i] = 1;
    G->qhead[i] = 0;
    G->uf[i] = i;
    G->stamp[rep[i]] = stamp;
    G->owner[rep[i]] = i;
    G->from[rep[i]] = -1;
  }
  G->nmeet = 0;
  for (long taken = 0;; taken += n) {
    int running = 0, root0 = uf_find(G->uf, 0);
    bool one = true;
    for (int i = 0; i < n; i++) {
      int ri = uf_find(G->uf, i);
      one &= ri == root0;
      if (G->qhead[i] >= G->qlen[i])
        continue;
      bool counted = false;
      for (int j = 0; j < i && !counted; j++)
        counted = G->qhead[j] < G->qlen[j] && uf_find(G->uf, j) == ri;
      running += !counted;
    }
    if (one)
      return 1;
    if (running <= 1)
      return 0;
    if (budget && taken > budget)
      return -1;
    for (int i = 0; i < n; i++) {
      if (G->qhead[i] >= G->qlen[i])
        continue;
      int u = G->q[i][G->qhead[i]++];
      for (int d = 0; d < D; d++) {
        int v = c->nbr[(size_t)u * (size_t)D + (size_t)d];
        if (v < 0 || k->lab[v] != l)
          continue;
        if (G->stamp[v] != stamp) {
          G->stamp[v] = stamp;
          G->owner[v] = i;
          G->from[v] = u;
          G->q[i][G->qlen[i]++] = v;
        } else if (uf_find(G->uf, G->owner[v]) != uf_find(G->uf, i)) {
          G->uf[uf_find(G->uf, G->owner[v])] = uf_find(G->uf, i);
          G->meet[G->nmeet][0] = u;
          G->meet[G->nmeet++][1] = v;
        }
      }
    }
  }
}

/* After a search that ended apart: the pieces, one per group of searches
 * (roots[p] its root search), and the one that keeps the label: the group
 * still running, or when all ended the largest.  Returns how many. */
static int pieces(const ts_cg *G, int n, int *roots, int *keep) {
  int nr = 0;
  long best = -1;
  int *uf = (int *)G->uf;
  for (int i = 0; i < n; i++) {
    if (uf_find(uf, i) != i)
      continue;
    long size = 0;
    for (int j = 0; j < n; j++)
      if (uf_find(uf, j) == i)
        size += G->qhead[j] < G->qlen[j] ? 1L << 40 : G->qlen[j];
    if (size > best) {
      best = size;
      *keep = nr;
    }
    roots[nr++] = i;
  }
  return nr;
}

/* The cells that must join in the piece of root r (a piece that ended:
 * every cell of it was searched). */
static int piece_rel(const ts_cg *G, const ts_cg_glob *k, int n, int r) {
  int rel = 0;
  for (int j = 0; j < n; j++)
    if (uf_find((int *)G->uf, j) == r)
      for (int i = 0; i < G->qlen[j]; i++)
        rel += k->isrel[G->q[j][i]];
  return rel;
}

/* The walkable cells around x, to see whether they became cut cells. */
static void push_around(ts_cg *G, ts_cg_glob *k, int x) {
  const int *ring = G->ring + (size_t)x * (size_t)G->nring;
  for (int i = 0; i < G->nring; i++)
    if (ring[i] >= 0 && k->lab[ring[i]] >= 0 && !k->isrel[ring[i]])
      TS_PUSH(k->cq, ring[i]);
}

/* The cells on the ways round a cell that left, looked at one by one as
 * cut cells; past them, every cell at once. */
#define MEET_CELLS 64

/* The searches around a cell that left met (no split), the long way
 * round: a new cut cell lies on every way between two of them, so on the
 * ways the searches found: looked at one by one, or when they are long,
 * every cut cell at once. */
static void met_round(ts_cg *G, ts_cg_glob *k) {
  int len = 0;
  for (int i = 0; i < G->nmeet; i++)
    for (int e = 0; e < 2; e++)
      for (int v = G->meet[i][e]; v >= 0; v = G->from[v])
        len++;
  if (len > MEET_CELLS) {
    k->cuts = true;
    return;
  }
  for (int i = 0; i < G->nmeet; i++)
    for (int e = 0; e < 2; e++)
      for (int v = G->meet[i][e]; v >= 0; v = G->from[v])
        if (!k->isrel[v])
          TS_PUSH(k->cq, v);
}

/* After a split of label l by n searches: each piece that ended gets a
 * label of its own (labs[p]), the one kept keeps l.  Returns how many
 * pieces. */
static int relabel_pieces(ts_cg *G, ts_cg_glob *k, int l, int n, int *roots,
                          int *keep, int *labs) {
  int nr = pieces(G, n, roots, keep);
  for (int p = 0; p < nr; p++) {
    if (p == *keep) {
      labs[p] = l;
      continue;
    }
    int L = labs[p] = new_label(k);
    for (int j = 0; j < n; j++) {
      if (uf_find(G->uf, j) != roots[p])
        continue;
      for (int i = 0; i < G->qlen[j]; i++) {
        int cell = G->q[j][i];
        k->lab[cell] = L;
        k->size[L]++;
        k->rel[L] += k->isrel[cell];
      }
    }
    k->size[l] -= k->size[L];
    k->rel[l] -= k->rel[L];
  }
  return nr;
}

/* Cell x of label l left: split off the pieces its neighbours fell into,
 * and keep the constraint on them: cells that must join in two pieces is
 * a contradiction; for a connected constraint, the pieces without one lose
 * the class. */
static void cell_left(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k, int x) {
  int l = k->lab[x];
  if (l < 0)
    return; /* banned with its region */
  unlabel(k, x);
  if (!k->size[l])
    return;
  int rep[CG_MAX_SEARCH];
  int n = ring_groups(c, G, k, x, l, rep);
  if (n <= 1)
    return; /* nothing went round x: no cell became a cut cell either */
  push_around(G, k, x);
  if (search(c, G, k, l, rep, n, 0)) {
    met_round(G, k);
    return;
  }
  int roots[CG_MAX_SEARCH], keep = -1, labs[CG_MAX_SEARCH];
  int nr = relabel_pieces(G, k, l, n, roots, &keep, labs);
  int with = -1; /* a piece holding cells that must join */
  for (int p = 0; p < nr; p++) {
    if (!k->rel[labs[p]])
      continue;
    if (with >= 0) {
      fail_at(c, x, k,
              "its cells either side of (%d,%d) can no longer be joined",
              x / c->m->width, x % c->m->width);
      return;
    }
    with = p;
  }
  if (with >= 0)
    k->main = labs[with];
  if (k->g->kind != TILESAT_GLOBAL_CONNECTED || with < 0)
    return;
  for (int p = 0; p < nr && c->contradiction < 0; p++) {
    if (p == with)
      continue;
    if (p == keep) {
      ban_region(c, k, NULL, 0, l);
      continue;
    }
    for (int j = 0; j < n; j++)
      if (uf_find(G->uf, j) == roots[p])
        ban_region(c, k, G->q[j], G->qlen[j], labs[p]);
  }
}

/* Ban x's tiles outside the class: it must hold one (a cut cell).  (A
 * path's cells alone must join: x is not one of them, only on every way
 * between them; the cells that must join stay a function of the wave.) */
static void force(tilesat_collapse *c, ts_cg_glob *k, int x) {
  bool cuts = k->cuts; /* a cut cell forced adds no cut cell elsewhere */
  const uint8_t *poss = c->possible + (size_t)x * (size_t)c->T;
  for (int t = 0; t < c->T; t++)
    if (poss[t] && !k->in[t])
      ts_collapse_ban(c, x, t);
  k->cuts = cuts;
}

/* The cells a search for a cut cell may take before it gives up (then
 * the cell is not forced: the propagation is weaker, not wrong). */
#define CUT_BUDGET 4096

/* Is walkable cell x a cut cell, with cells that must join on two sides
 * of it?  Then it must hold the class: its other tiles are banned.  True
 * if it was. */
static bool try_force(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k, int x) {
  int l = k->lab[x];
  if (l < 0 || k->isrel[x] || k->rel[l] < 2 || !k->nnon[x])
    return false;
  int rep[CG_MAX_SEARCH];
  k->lab[x] = -1; /* the regions without x */
  int n = ring_groups(c, G, k, x, l, rep), res = 1;
  if (n > 1)
    res = search(c, G, k, l, rep, n, CUT_BUDGET);
  k->lab[x] = l;
  k->cuts |= res < 0; /* no answer soon: the whole look */
  if (res != 0)
    return false;
  int roots[CG_MAX_SEARCH], keep = -1, sides = 0, rest = k->rel[l];
  int nr = pieces(G, n, roots, &keep);
  for (int p = 0; p < nr; p++) {
    if (p == keep)
      continue;
    int rel = piece_rel(G, k, n, roots[p]);
    sides += rel > 0;
    rest -= rel;
  }
  if (sides + (rest > 0) < 2)
    return false;
  force(c, k, x);
  return true;
}

/* Every cut cell of the region the cells that must join lie in, with
 * some of them on two sides, forced: a depth-first search from one of
 * them (Hopcroft and Tarjan's low points), a child's subtree with cells
 * that must join and cells outside it that must too.  True if it forced
 * one. */
static bool force_cuts(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k) {
  k->cuts = false;
  k->cq.n = 0; /* every candidate is looked at here */
  int l = k->main, N = c->N, D = c->D;
  if (l < 0 || k->rel[l] < 2)
    return false;
  int root = 0;
  while (root < N && !(k->lab[root] == l && k->isrel[root]))
    root++;
  if (++G->vstamp == INT_MAX) {
    memset(G->vis, 0, (size_t)N * sizeof *G->vis);
    G->vstamp = 1;
  }
  int vs = G->vstamp, time = 0, total = k->rel[l];
  int *stack = G->queue, top = 0;
  G->cut.n = 0;
  G->vis[root] = vs;
  G->disc[root] = G->low[root] = time++;
  G->par[root] = -1;
  G->sub[root] = k->isrel[root];
  G->it[root] = 0;
  stack[top++] = root;
  while (top) {
    int u = stack[top - 1];
    if ((G->it[u] & 0xff) < D) {
      int d = G->it[u]++ & 0xff;
      int v = c->nbr[(size_t)u * (size_t)D + (size_t)d];
      if (v < 0 || k->lab[v] != l)
        continue;
      if (G->vis[v] != vs) {
        G->vis[v] = vs;
        G->disc[v] = G->low[v] = time++;
        G->par[v] = u;
        G->sub[v] = k->isrel[v];
        G->it[v] = 0;
        stack[top++] = v;
      } else if (v == G->par[u] && !(G->it[u] & 0x100)) {
        G->it[u] |= 0x100; /* the tree's edge; a second one (a small
                            * periodic map) is a back edge */
      } else if (G->disc[v] < G->low[u]) {
        G->low[u] = G->disc[v];
      }
      continue;
    }
    top--;
    int p = G->par[u];
    if (p < 0)
      continue;
    if (G->low[u] < G->low[p])
      G->low[p] = G->low[u];
    G->sub[p] += G->sub[u];
    if (G->low[u] >= G->disc[p] && !k->isrel[p] && G->sub[u] > 0 &&
        total - G->sub[u] > 0)
      TS_PUSH(G->cut, p);
  }
  for (size_t i = 0; i < G->cut.n && c->contradiction < 0; i++)
    if (!k->isrel[G->cut.v[i]] && k->nnon[G->cut.v[i]])
      force(c, k, G->cut.v[i]);
  return G->cut.n > 0;
}

/* The cells a search from a new cell that must join looks at for another
 * one; past them, every cut cell is looked for at once. */
#define SEED_REACH 256

/* Cell z must join the others, and no neighbour of it must: a cut cell
 * between z and them did not separate two of them before, so it lies on
 * every way from z to the nearest one (if x were off one, z would reach
 * it, and every other one, round x).  The cells on the shortest way are
 * looked at one by one; when none is near, every cut cell at once. */
static void seeded(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k, int z) {
  int l = k->lab[z], D = c->D;
  if (l < 0 || !k->isrel[z] || k->rel[l] < 2)
    return;
  if (G->cur == INT_MAX) {
    memset(G->stamp, 0, (size_t)G->N * sizeof *G->stamp);
    G->cur = 0;
  }
  int stamp = ++G->cur, head = 0, tail = 0, found = -1;
  int *q = G->q[0];
  G->stamp[z] = stamp;
  G->from[z] = -1;
  q[tail++] = z;
  while (head < tail && found < 0 && tail < SEED_REACH) {
    int u = q[head++];
    for (int d = 0; d < D && found < 0; d++) {
      int v = c->nbr[(size_t)u * (size_t)D + (size_t)d];
      if (v < 0 || k->lab[v] != l || G->stamp[v] == stamp)
        continue;
      G->stamp[v] = stamp;
      G->from[v] = u;
      q[tail++] = v;
      if (k->isrel[v])
        found = v;
    }
  }
  if (found < 0) {
    k->cuts = true;
    return;
  }
  for (int v = G->from[found]; v != z; v = G->from[v])
    TS_PUSH(k->cq, v);
}

/* ------------------------------------------------------------------ hooks */

/* Counters, and for a guarded run the regions, from the wave. */
void ts_cg_rebuild(tilesat_collapse *c) {
  ts_cg *G = c->cg;
  for (int i = 0; i < G->n; i++) {
    ts_cg_glob *k = &G->v[i];
    k->pending = false;
    k->must = k->can = 0;
    for (int cell = 0; cell < c->N; cell++) {
      const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
      int in = 0, out = 0;
      for (int t = 0; t < c->T; t++)
        if (poss[t])
          k->in[t] ? in++ : out++;
      k->ncls[cell] = (uint16_t)in;
      k->nnon[cell] = (uint16_t)out;
      if (!k->lazy && covers(G, k, cell)) {
        k->can += in > 0;
        k->must += in > 0 && !out;
      }
    }
    if (k->lazy && G->conn)
      label_all(c, G, k);
  }
  G->live = true;
}

void ts_cg_stop(ts_cg *G) { G->live = false; }

void ts_cg_start(tilesat_collapse *c) {
  ts_cg *G = c->cg;
  G->conn = c->guarded;
  ts_cg_rebuild(c);
  /* a path's cells, a connected region's cell: the class's tiles only */
  for (int i = 0; i < G->n; i++) {
    ts_cg_glob *k = &G->v[i];
    const ts_global *g = k->g;
    for (size_t j = 0; j <= g->cells.n; j++) {
      int cell = j < g->cells.n ? g->cells.v[j] : g->at;
      if (g->kind == TILESAT_GLOBAL_COUNT || cell < 0)
        continue;
      for (int t = 0; t < c->T; t++)
        if (!k->in[t] && c->possible[(size_t)cell * (size_t)c->T + (size_t)t])
          ts_collapse_ban(c, cell, t);
    }
  }
  for (int i = 0; i < G->n && c->contradiction < 0; i++) {
    ts_cg_glob *k = &G->v[i];
    if (!k->lazy) {
      int cell = k->g->r0 * c->m->width + k->g->c0;
      count_check(c, k, cell);
    } else if (G->conn) {
      regions_check(c, k);
    }
  }
}

/* A connected constraint's cell now must hold the class. */
static void must_join(tilesat_collapse *c, ts_cg_glob *k, int cell) {
  int l = k->lab[cell];
  if (l < 0)
    return;
  k->isrel[cell] = 1;
  k->rel[l]++;
  k->nrel++;
  bool seed = true; /* no neighbour must join: a new place to reach */
  for (int d = 0; d < c->D; d++) {
    int v = c->nbr[(size_t)cell * (size_t)c->D + (size_t)d];
    if (v >= 0 && k->lab[v] >= 0 && !k->isrel[v])
      TS_PUSH(k->cq, v);
    seed &= v < 0 || !k->isrel[v];
  }
  if (seed && k->nrel > 1)
    TS_PUSH(k->seeds, cell);
  if (k->main < 0) {
    k->main = l;
    k->pending = true; /* the other regions can hold none */
  } else if (l != k->main) {
    fail_at(c, cell, k, "(%d,%d) can no longer join the others",
            cell / c->m->width, cell % c->m->width);
  }
}

/* The cell no longer can (in) or now must (!in) hold k's class. */
static void changed(tilesat_collapse *c, ts_cg *G, ts_cg_glob *k, int cell,
                    bool in) {
  if (!k->lazy) {
    if (!covers(G, k, cell))
      return;
    if (in)
      k->can--;
    else
      k->must++;
    count_check(c, k, cell);
  } else if (in) { /* the cell can no longer hold the class */
    TS_PUSH(k->dq, cell);
    bool nonempty = k->g->nonempty || k->g->at >= 0;
    if (--k->nwalk == 0 && nonempty)
      fail_at(c, cell, k, "no cell can hold one");
  } else if (k->g->kind == TILESAT_GLOBAL_CONNECTED) {
    must_join(c, k, cell);
  }
}

void ts_cg_on_ban(tilesat_collapse *c, int cell, int t) {
  ts_cg *G = c->cg;
  if (!G->live)
    return;
  for (int i = 0; i < G->n; i++) {
    ts_cg_glob *k = &G->v[i];
    if (k->lazy && !G->conn)
      continue;
    bool in = k->in[t];
    int left = in ? --k->ncls[cell] : --k->nnon[cell];
    if (!left && (in ? k->nnon[cell] : k->ncls[cell]))
      changed(c, G, k, cell, in); /* (none left at all: the contradiction) */
  }
}

bool ts_cg_propagate(tilesat_collapse *c) {
  ts_cg *G = c->cg;
  if (!G->live)
    return false;
  for (int i = 0; i < G->n && c->contradiction < 0; i++) {
    ts_cg_glob *k = &G->v[i];
    if (!k->lazy) {
      if (k->pending) {
        k->pending = false;
        count_apply(c, k);
      }
      continue;
    }
    if (!G->conn)
      continue;
    for (size_t j = 0; j < k->dq.n && c->contradiction < 0; j++)
      cell_left(c, G, k, k->dq.v[j]);
    k->dq.n = 0;
    for (size_t j = 0; j < k->seeds.n && c->contradiction < 0; j++)
      seeded(c, G, k, k->seeds.v[j]);
    k->seeds.n = 0;
    /* cut cells: all at once, or one candidate at a time (a forced one
     * is propagated first) */
    if (k->cuts && c->contradiction < 0)
      force_cuts(c, G, k);
    size_t j = 0;
    bool forced = false;
    while (j < k->cq.n && !forced && c->contradiction < 0)
      forced = try_force(c, G, k, k->cq.v[j++]);
    if (j < k->cq.n)
      memmove(k->cq.v, k->cq.v + j, (k->cq.n - j) * sizeof *k->cq.v);
    k->cq.n -= j;
    if (k->pending && c->contradiction < 0) {
      k->pending = false;
      for (int cell = 0; cell < c->N; cell++) /* one pass: every region */
        if (k->lab[cell] >= 0 && k->lab[cell] != k->main)
          shut(c, k, cell);
    }
  }
  return c->stack.n > 0;
}

/* ------------------------------------------------------------- checking */

int ts_collapse_globals_broken(const tilesat_map *m, const int *tiles,
                               char *why, size_t whylen) {
  for (int i = 0; i < (int)m->globals.n; i++)
    if (ts_global_broken(m, i, tiles, why, whylen))
      return i;
  return -1;
}
