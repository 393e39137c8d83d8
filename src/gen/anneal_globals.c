/* anneal_globals.c: global constraints as the annealer keeps them.
 *
 * Counts are hard: a run starts from a map that meets every count (the
 * sampler's random start, then single-cell changes that bring the counts
 * nearer their bounds, ignoring everything else; when they get stuck,
 * the whole map solved by the SAT backend, see anneal.c), and every later
 * move keeps them: a heat-bath update never draws a tile that would take
 * a count out of its bounds (ts_ag_mask), and swaps of two cells, which
 * keep every count of the whole map, are refused when they move a count
 * of a rectangle out of bounds.
 *
 * Connected and path constraints are a penalty: the energy's connectivity
 * weight for each missing join (a connected class in R > 1 regions misses
 * R - 1, an empty one that must not be empty 1; a path whose cells lie in
 * R regions misses R - 1).  The sampler proposes a tile by heat-bath on the
 * other terms and accepts a change of the missing joins by the Metropolis
 * rule, so it samples the whole energy.  That needs the change before the
 * move is made, so each class's regions are kept as labels; a proposal
 * works out the change, and only an accepted one updates the labels:
 * - a cell joins: its class neighbours' regions merge; the smaller ones
 *   are relabelled to the largest (a flood of the smaller ones only);
 * - a cell leaves: its class neighbours may fall apart.  If they are
 *   joined around the cell (its ring of 8 neighbours on square maps, 6 on
 *   hex) nothing splits; else one search from each group of them runs in
 *   turn, a cell at a time, until all but one have met or ended: the
 *   searches that ended enclose the new regions (the smaller pieces), and
 *   only their cells are relabelled.
 * The from-scratch
 * evaluator (tilesat_energy_eval) counts the joins by its own flood fill,
 * so the labels are checked at the end of every run. */
#include "gen/gen.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEARCH 6 /* class neighbours of a cell */

typedef struct ag_count {
  uint8_t *in;    /* [T + 1]: a tile of the class (the sentinel is not) */
  uint8_t *cover; /* [N]: a cell it counts */
  int lo, hi;
} ag_count;

typedef struct ag_conn {
  uint8_t *in; /* [T + 1] */
  bool nonempty, path;
  const int *cells; /* PATH: its cells */
  int ncells;
} ag_conn;

struct ts_ag {
  const tilesat_energy *e;
  int N, T, nd;
  const int32_t *nbr; /* the sampler's: [N][nd], N where none */
  int32_t *ring;      /* [N][8]: the cells around each, in circular order */
  int nring;
  int ncount, nconn;
  ag_count *count;
  ag_conn *conn;
};

/* One class's regions, and the change proposed to them. */
typedef struct ag_regions {
  int *lab;  /* [N + 1]: region of a class cell, -1 elsewhere (and at N) */
  int *size; /* [N]: cells of each label */
  int *free; /* unused labels */
  int nfree, nregions;
  long missing;
  /* the searches of a split: a mark per cell, the search that owns it */
  int *stamp, *owner, cur;
  int *q[MAX_SEARCH];
  int qlen[MAX_SEARCH], qhead[MAX_SEARCH], uf[MAX_SEARCH], nsearch;
  /* the proposed change: none, a join or a leave at cell pc */
  enum { NONE, JOIN, LEAVE } pend;
  int pc;
  int plabs[MAX_SEARCH], pcells[MAX_SEARCH], pn; /* JOIN: regions met */
  int pl, pieces, kroot; /* LEAVE: its label, the pieces after (-1: not
                          * known, the search gave up), kept root */
  long pmissing;         /* the missing joins after */
  bool dirty;            /* a leave was taken as no split unchecked */
} ag_regions;

struct ts_ag_state {
  int *cnt; /* per count constraint */
  ag_regions *reg;
  long missing;
  int pc, pa, pb;  /* the proposed change */
  int *seen, scur; /* marks of labels (distinct regions of a path) */
};

/* --------------------------------------------------------------- set-up */

static uint8_t *class_of(const ts_global *g, int T) {
  uint8_t *in = ts_calloc((size_t)T + 1, 1);
  for (int t = 0; t < T; t++)
    in[t] = ts_bit(g->class, t);
  return in;
}

/* The ring around each cell: square N NE E SE S SW W NW, hex E NE NW W SW
 * SE (a corner is the neighbour's neighbour; N where the map ends). */
static void build_rings(ts_ag *g, const tilesat_map *m) {
  static const int sq[8][2] = {{0, -1}, {0, 1}, {1, -1}, {1, 2},
                               {2, -1}, {2, 3}, {3, -1}, {3, 0}};
  int N = g->N, nd = g->nd;
  g->nring = nd == 4 ? 8 : 6;
  g->ring = ts_malloc((size_t)N * (size_t)g->nring * sizeof *g->ring);
  /* hex directions: E W NE NW SE SW (topology.c); around: E NE NW W SW SE */
  static const int hex[6] = {0, 2, 3, 1, 5, 4};
  for (int c = 0; c < N; c++) {
    int32_t *r = g->ring + (size_t)c * g->nring;
    for (int i = 0; i < g->nring; i++) {
      if (nd != 4) {
        r[i] = g->nbr[(size_t)c * nd + hex[i]];
        continue;
      }
      int a = g->nbr[(size_t)c * nd + sq[i][0]];
      r[i] = sq[i][1] < 0 || a >= N ? a : g->nbr[(size_t)a * nd + sq[i][1]];
    }
  }
  (void)m;
}

ts_ag *ts_ag_new(const tilesat_energy *e, const int32_t *nbr, int nd) {
  const tilesat_map *m = e->map;
  int nc = 0, nl = 0;
  for (size_t i = 0; i < m->globals.n; i++) {
    nc += m->globals.v[i].kind == TILESAT_GLOBAL_COUNT;
    nl += ts_global_lazy(&m->globals.v[i]);
  }
  if (!nc && !nl)
    return NULL;
  ts_ag *g = ts_calloc(1, sizeof *g);
  g->e = e;
  g->N = m->ncells;
  g->T = e->ntiles;
  g->nd = nd;
  g->nbr = nbr;
  g->count = ts_calloc((size_t)nc, sizeof *g->count);
  g->conn = ts_calloc((size_t)nl, sizeof *g->conn);
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *gl = &m->globals.v[i];
    if (gl->kind == TILESAT_GLOBAL_COUNT) {
      ag_count *k = &g->count[g->ncount++];
      k->in = class_of(gl, g->T);
      k->cover = ts_malloc((size_t)g->N);
      int n = 0;
      for (int c = 0; c < g->N; c++)
        n += k->cover[c] = ts_global_covers(m, gl, c) && !ts_masked(m, c);
      k->lo = gl->cmp == TS_AT_MOST ? 0 : gl->k;
      k->hi = gl->cmp == TS_AT_LEAST ? n : gl->k;
    } else if (ts_global_lazy(gl)) {
      ag_conn *k = &g->conn[g->nconn++];
      k->in = class_of(gl, g->T);
      k->nonempty = gl->nonempty || gl->at >= 0;
      k->path = gl->kind == TILESAT_GLOBAL_PATH;
      k->cells = gl->cells.v;
      k->ncells = (int)gl->cells.n;
    }
  }
  if (g->nconn)
    build_rings(g, m);
  return g;
}

void ts_ag_free(ts_ag *g) {
  if (!g)
    return;
  for (int i = 0; i < g->ncount; i++) {
    free(g->count[i].in);
    free(g->count[i].cover);
  }
  for (int i = 0; i < g->nconn; i++)
    free(g->conn[i].in);
  free(g->count);
  free(g->conn);
  free(g->ring);
  free(g);
}

bool ts_ag_has_counts(const ts_ag *g) { return g && g->ncount; }
bool ts_ag_has_joins(const ts_ag *g) { return g && g->nconn; }

ts_ag_state *ts_ag_state_new(const ts_ag *g) {
  ts_ag_state *s = ts_calloc(1, sizeof *s);
  size_t N1 = (size_t)g->N + 1;
  s->cnt = ts_calloc((size_t)g->ncount + 1, sizeof *s->cnt);
  s->reg = ts_calloc((size_t)g->nconn + 1, sizeof *s->reg);
  s->seen = ts_calloc(N1, sizeof *s->seen);
  for (int i = 0; i < g->nconn; i++) {
    ag_regions *r = &s->reg[i];
    r->lab = ts_malloc(N1 * sizeof(int));
    r->size = ts_calloc(N1, sizeof(int));
    r->free = ts_malloc(N1 * sizeof(int));
    r->stamp = ts_calloc(N1, sizeof(int));
    r->owner = ts_calloc(N1, sizeof(int));
    for (int k = 0; k < MAX_SEARCH; k++)
      r->q[k] = ts_malloc(N1 * sizeof(int));
  }
  return s;
}

void ts_ag_state_free(ts_ag_state *s) {
  if (!s)
    return;
  /* the regions: as many as were made (ts_ag_state_new) */
  for (ag_regions *r = s->reg; r && r->lab; r++) {
    free(r->lab);
    free(r->size);
    free(r->free);
    free(r->stamp);
    free(r->owner);
    for (int k = 0; k < MAX_SEARCH; k++)
      free(r->q[k]);
  }
  free(s->cnt);
  free(s->reg);
  free(s->seen);
  free(s);
}

/* ------------------------------------------------------------- regions */

static int new_label(ag_regions *r) { return r->free[--r->nfree]; }

static void drop_label(ag_regions *r, int l) {
  r->size[l] = 0;
  r->free[r->nfree++] = l;
}

/* Relabel the region of cell c (label `from`) to `to`, by flood fill
 * (queue: scratch of N ints); returns how many cells. */
static int relabel(const ts_ag *g, ag_regions *r, int c, int from, int to,
                   int *queue) {
  int head = 0, tail = 0;
  r->lab[c] = to;
  queue[tail++] = c;
  while (head < tail) {
    int u = queue[head++];
    for (int d = 0; d < g->nd; d++) {
      int v = g->nbr[(size_t)u * g->nd + d];
      if (r->lab[v] == from) {
        r->lab[v] = to;
        queue[tail++] = v;
      }
    }
  }
  return tail;
}

static int uf_find(int *uf, int i) {
  while (uf[i] != i)
    i = uf[i] = uf[uf[i]];
  return i;
}

/* The region a cell will be in after the proposed change (a label, or N
 * plus a search's root for a piece split off, or N + MAX_SEARCH for a
 * cell that joins alone; -1 outside the class). */
static int label_after(const ts_ag *g, ag_regions *r, int v) {
  /* the changing cell itself: a path's cell leaves or joins too (a swap
   * tries a tile its ban forbids, and puts it back) */
  if (v == r->pc && r->pend == LEAVE)
    return -1;
  if (v == r->pc && r->pend == JOIN)
    return r->pn ? r->plabs[0] : g->N + MAX_SEARCH;
  int l = r->lab[v];
  if (r->pend == JOIN)
    for (int i = 0; i < r->pn; i++)
      if (l == r->plabs[i])
        return r->plabs[0];
  if (r->pend == LEAVE && l == r->pl && r->pieces > 1 &&
      r->stamp[v] == r->cur) {
    int root = uf_find(r->uf, r->owner[v]);
    return root == r->kroot ? l : g->N + root;
  }
  return l;
}

/* The missing joins of constraint k after the proposed change. */
static long missing_after(const ts_ag *g, const ag_conn *k, ag_regions *r,
                          ts_ag_state *s, int nregions) {
  if (!k->path)
    return nregions > 1 ? nregions - 1 : k->nonempty && !nregions;
  /* distinct regions among the path's cells (a cell outside: its own) */
  long n = 0;
  int ids[MAX_SEARCH], nids = 0;
  s->scur++;
  for (int i = 0; i < k->ncells; i++) {
    int l = label_after(g, r, k->cells[i]);
    if (l < 0) {
      n++;
    } else if (l < g->N) {
      n += s->seen[l] != s->scur;
      s->seen[l] = s->scur;
    } else { /* a split-off piece (fewer than MAX_SEARCH), or the
              * joining cell alone */
      int j = 0;
      while (j < nids && ids[j] != l)
        j++;
      if (j == nids) {
        ids[nids++] = l;
        n++;
      }
    }
  }
  return n - 1;
}

/* Propose: cell c joins the class; the regions around it. */
static int propose_join(const ts_ag *g, ag_regions *r, int c) {
  r->pend = JOIN;
  r->pc = c;
  r->pn = 0;
  for (int d = 0; d < g->nd; d++) {
    int v = g->nbr[(size_t)c * g->nd + d], l = r->lab[v];
    bool dup = l < 0;
    for (int i = 0; i < r->pn && !dup; i++)
      dup = r->plabs[i] == l;
    if (!dup) {
      r->plabs[r->pn] = l;
      r->pcells[r->pn++] = v;
    }
  }
  return r->nregions + 1 - r->pn;
}

static void commit_join(const ts_ag *g, ag_regions *r) {
  int c = r->pc, n = r->pn;
  if (!n) {
    int l = new_label(r);
    r->lab[c] = l;
    r->size[l] = 1;
    r->nregions++;
    return;
  }
  int big = 0;
  for (int i = 1; i < n; i++)
    if (r->size[r->plabs[i]] > r->size[r->plabs[big]])
      big = i;
  int to = r->plabs[big];
  /* a label left with cells is one a split it missed shares (dirty):
   * its other piece keeps it */
  for (int i = 0; i < n; i++)
    if (i != big) {
      int l = r->plabs[i], moved = relabel(g, r, r->pcells[i], l, to, r->q[0]);
      r->size[to] += moved;
      if ((r->size[l] -= moved) == 0) {
        drop_label(r, l);
        r->nregions--;
      }
    }
  r->lab[c] = to;
  r->size[to]++;
}

/* The groups of c's class neighbours that are joined around c: rep[i] one
 * cell of each; returns how many. */
static int ring_groups(const ts_ag *g, const ag_regions *r, int c, int *rep) {
  const int32_t *ring = g->ring + (size_t)c * g->nring;
  int uf[8], n = g->nring;
  for (int i = 0; i < n; i++)
    uf[i] = i;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n, a = ring[i], b = ring[j];
    if (r->lab[a] < 0 || r->lab[b] < 0)
      continue;
    bool adj = false; /* verify: wraps and masks make odd rings */
    for (int d = 0; d < g->nd && !adj; d++)
      adj = g->nbr[(size_t)a * g->nd + d] == b;
    if (adj)
      uf[uf_find(uf, i)] = uf_find(uf, j);
  }
  int ngroups = 0, roots[MAX_SEARCH];
  for (int d = 0; d < g->nd; d++) {
    int v = g->nbr[(size_t)c * g->nd + d], i = 0;
    if (r->lab[v] < 0)
      continue;
    while (i < n && ring[i] != v) /* v's place in the ring */
      i++;
    int root = i < n ? uf_find(uf, i) : 8 + d, k = 0;
    while (k < ngroups && roots[k] != root && rep[k] != v)
      k++;
    if (k == ngroups) {
      roots[ngroups] = root;
      rep[ngroups++] = v;
    }
  }
  return ngroups;
}

/* How many groups of searches still run, and are all one group? */
static int still_running(ag_regions *r, bool *one) {
  int n = r->nsearch, running = 0, root0 = uf_find(r->uf, 0);
  *one = true;
  for (int i = 0; i < n; i++) {
    *one &= uf_find(r->uf, i) == root0;
    if (r->qhead[i] >= r->qlen[i])
      continue;
    bool counted = false;
    for (int j = 0; j < i && !counted; j++)
      counted =
          r->qhead[j] < r->qlen[j] && uf_find(r->uf, j) == uf_find(r->uf, i);
    running += !counted;
  }
  return running;
}

/* The cells of label l (cell c already out) from each group rep[0..n),
 * searched in turn, a cell each, until at most one group of searches still
 * runs (the groups that met are one); sets pieces and kroot. */
static void search(const ts_ag *g, ag_regions *r, int l, const int *rep, int n,
                   long budget) {
  int stamp = ++r->cur;
  r->nsearch = n;
  for (int i = 0; i < n; i++) {
    r->q[i][0] = rep[i];
    r->qlen[i] = 1;
    r->qhead[i] = 0;
    r->uf[i] = i;
    r->stamp[rep[i]] = stamp;
    r->owner[rep[i]] = i;
  }
  bool one;
  long steps = 0;
  while (still_running(r, &one) > 1 && !one) {
    if ((steps += n) > budget) {
      r->pieces = -1;
      return;
    }
    for (int i = 0; i < n; i++) {
      if (r->qhead[i] >= r->qlen[i])
        continue;
      int u = r->q[i][r->qhead[i]++];
      for (int d = 0; d < g->nd; d++) {
        int v = g->nbr[(size_t)u * g->nd + d];
        if (r->lab[v] != l)
          continue;
        if (r->stamp[v] != stamp) {
          r->stamp[v] = stamp;
          r->owner[v] = i;
          r->q[i][r->qlen[i]++] = v;
        } else {
          r->uf[uf_find(r->uf, r->owner[v])] = uf_find(r->uf, i);
        }
      }
    }
  }
  /* the group still running (or the largest, if all ended) keeps l */
  long best = -1;
  r->pieces = 0;
  for (int i = 0; i < n; i++) {
    if (uf_find(r->uf, i) != i)
      continue;
    long size = 0;
    for (int j = 0; j < n; j++)
      if (uf_find(r->uf, j) == i)
        size += r->qhead[j] < r->qlen[j] ? 1L << 40 : r->qlen[j];
    r->pieces++;
    if (size > best) {
      best = size;
      r->kroot = i;
    }
  }
}

/* Propose: cell c leaves the class; returns the regions after. */
static int propose_leave(const ts_ag *g, ag_regions *r, int c, long budget) {
  int l = r->lab[c], rep[MAX_SEARCH];
  r->pend = LEAVE;
  r->pc = c;
  r->pl = l;
  if (r->size[l] == 1) {
    r->pieces = 0;
    return r->nregions - 1;
  }
  r->lab[c] = -1;
  int n = ring_groups(g, r, c, rep);
  r->pieces = 1;
  if (n > 1)
    search(g, r, l, rep, n, budget);
  r->lab[c] = l;
  return r->nregions + (r->pieces < 0 ? 0 : r->pieces - 1);
}

static void commit_leave(ag_regions *r) {
  int l = r->pl;
  r->lab[r->pc] = -1;
  if (--r->size[l] == 0) {
    drop_label(r, l);
    r->nregions--;
    return;
  }
  r->dirty |= r->pieces < 0;
  for (int i = 0; r->pieces > 1 && i < r->nsearch; i++) {
    if (uf_find(r->uf, i) != i || i == r->kroot)
      continue;
    int nl = new_label(r), size = 0;
    for (int j = 0; j < r->nsearch; j++)
      if (uf_find(r->uf, j) == i)
        for (int x = 0; x < r->qlen[j]; x++) {
          r->lab[r->q[j][x]] = nl;
          size++;
        }
    r->size[nl] = size;
    r->size[l] -= size;
    r->nregions++;
  }
}

/* The regions from scratch: of the class cells of `tile`, or (tile NULL)
 * of the cells labelled now. */
static void regions_sync(const ts_ag *g, const ag_conn *k, ag_regions *r,
                         const uint16_t *tile) {
  int N = g->N, *queue = r->q[0];
  r->nfree = 0;
  r->pend = NONE;
  r->dirty = false;
  for (int l = N - 1; l >= 0; l--)
    r->free[r->nfree++] = l;
  for (int c = 0; c <= N; c++)
    r->lab[c] = c < N && (tile ? k->in[tile[c]] : r->lab[c] >= 0) ? -2 : -1;
  r->nregions = 0;
  for (int c = 0; c < N; c++)
    if (r->lab[c] == -2) {
      int l = new_label(r), head = 0, tail = 0;
      r->lab[c] = l;
      queue[tail++] = c;
      while (head < tail) {
        int u = queue[head++];
        for (int d = 0; d < g->nd; d++) {
          int v = g->nbr[(size_t)u * g->nd + d];
          if (r->lab[v] == -2) {
            r->lab[v] = l;
            queue[tail++] = v;
          }
        }
      }
      r->size[l] = tail;
      r->nregions++;
    }
}

/* ------------------------------------------------------------ the state */

void ts_ag_sync(const ts_ag *g, ts_ag_state *s, const uint16_t *tile) {
  for (int i = 0; i < g->ncount; i++) {
    const ag_count *k = &g->count[i];
    s->cnt[i] = 0;
    for (int c = 0; c < g->N; c++)
      s->cnt[i] += k->cover[c] && k->in[tile[c]];
  }
  s->missing = 0;
  for (int i = 0; i < g->nconn; i++) {
    ag_regions *r = &s->reg[i];
    regions_sync(g, &g->conn[i], r, tile);
    r->missing = missing_after(g, &g->conn[i], r, s, r->nregions);
    s->missing += r->missing;
  }
}

long ts_ag_missing(const ts_ag_state *s) { return s->missing; }

long ts_ag_settle(const ts_ag *g, ts_ag_state *s) {
  long before = s->missing;
  for (int i = 0; i < g->nconn; i++) {
    ag_regions *r = &s->reg[i];
    if (!r->dirty)
      continue;
    regions_sync(g, &g->conn[i], r, NULL);
    s->missing -= r->missing;
    r->missing = missing_after(g, &g->conn[i], r, s, r->nregions);
    s->missing += r->missing;
  }
  return s->missing - before;
}

long ts_ag_propose(const ts_ag *g, ts_ag_state *s, int c, int a, int b,
                   long budget) {
  s->pc = c;
  s->pa = a;
  s->pb = b;
  long dm = 0;
  for (int i = 0; i < g->nconn; i++) {
    const ag_conn *k = &g->conn[i];
    ag_regions *r = &s->reg[i];
    r->pend = NONE;
    if (k->in[a] == k->in[b])
      continue;
    int n = k->in[b] ? propose_join(g, r, c) : propose_leave(g, r, c, budget);
    r->pmissing = missing_after(g, k, r, s, n);
    dm += r->pmissing - r->missing;
  }
  return dm;
}

void ts_ag_commit(const ts_ag *g, ts_ag_state *s) {
  int c = s->pc, a = s->pa, b = s->pb;
  for (int i = 0; i < g->ncount; i++) {
    const ag_count *k = &g->count[i];
    if (k->cover[c])
      s->cnt[i] += k->in[b] - k->in[a];
  }
  for (int i = 0; i < g->nconn; i++) {
    ag_regions *r = &s->reg[i];
    if (r->pend == JOIN)
      commit_join(g, r);
    else if (r->pend == LEAVE)
      commit_leave(r);
    if (r->pend != NONE) {
      s->missing += r->pmissing - r->missing;
      r->missing = r->pmissing;
    }
    r->pend = NONE;
  }
}

long ts_ag_change(const ts_ag *g, ts_ag_state *s, int c, int a, int b) {
  long dm = ts_ag_propose(g, s, c, a, b, LONG_MAX);
  ts_ag_commit(g, s);
  return dm;
}

bool ts_ag_counts_ok(const ts_ag *g, const ts_ag_state *s) {
  for (int i = 0; i < g->ncount; i++)
    if (s->cnt[i] < g->count[i].lo || s->cnt[i] > g->count[i].hi)
      return false;
  return true;
}

void ts_ag_mask(const ts_ag *g, const ts_ag_state *s, int c, int old,
                float *loc) {
  for (int i = 0; i < g->ncount; i++) {
    const ag_count *k = &g->count[i];
    if (!k->cover[c])
      continue;
    int base = s->cnt[i] - k->in[old];
    for (int t = 0; t < g->T; t++) {
      int n = base + k->in[t];
      if (n < k->lo || n > k->hi)
        loc[t] = 1e30f;
    }
  }
}

/* How far the counts are from their bounds. */
static long count_gap(const ts_ag *g, const ts_ag_state *s) {
  long gap = 0;
  for (int i = 0; i < g->ncount; i++) {
    const ag_count *k = &g->count[i];
    gap += s->cnt[i] < k->lo   ? k->lo - s->cnt[i]
           : s->cnt[i] > k->hi ? s->cnt[i] - k->hi
                               : 0;
  }
  return gap;
}

/* A change of one cell, from a random cell and tile on, that narrows the
 * gap; false if none does. */
static bool narrow_one(const ts_ag *g, ts_ag_state *s, uint16_t *tile,
                       const int32_t *order, int norder, ts_rng *rng,
                       long *gap) {
  const tilesat_energy *e = g->e;
  int T = g->T;
  int start = (int)ts_rng_below(rng, (uint32_t)norder);
  int t0 = (int)ts_rng_below(rng, (uint32_t)T);
  for (int i = 0; i < norder; i++) {
    int c = order[(start + i) % norder], old = tile[c];
    for (int j = 0; j < T; j++) {
      int t = (t0 + j) % T;
      if (t == old || e->region_ban[e->region[c] * T + t])
        continue;
      ts_ag_change(g, s, c, old, t);
      long ng = count_gap(g, s);
      if (ng < *gap) {
        tile[c] = (uint16_t)t;
        *gap = ng;
        return true;
      }
      ts_ag_change(g, s, c, t, old);
    }
  }
  return false;
}

/* A swap of two cells' tiles that narrows the gap (a count of a rectangle
 * against one of the map: neither single change helps); false if none. */
static bool narrow_two(const ts_ag *g, ts_ag_state *s, uint16_t *tile,
                       const int32_t *order, int norder, long *gap) {
  const tilesat_energy *e = g->e;
  int T = g->T;
  for (int i = 0; i < norder; i++)
    for (int j = i + 1; j < norder; j++) {
      int a = order[i], b = order[j], ta = tile[a], tb = tile[b];
      if (ta == tb || e->region_ban[e->region[a] * T + tb] ||
          e->region_ban[e->region[b] * T + ta])
        continue;
      ts_ag_change(g, s, a, ta, tb);
      ts_ag_change(g, s, b, tb, ta);
      long ng = count_gap(g, s);
      if (ng < *gap) {
        tile[a] = (uint16_t)tb;
        tile[b] = (uint16_t)ta;
        *gap = ng;
        return true;
      }
      ts_ag_change(g, s, b, ta, tb);
      ts_ag_change(g, s, a, tb, ta);
    }
  return false;
}

int ts_ag_meet_counts(const ts_ag *g, ts_ag_state *s, uint16_t *tile,
                      const int32_t *order, int norder, ts_rng *rng) {
  long gap = count_gap(g, s);
  while (gap > 0 && norder > 0)
    if (!narrow_one(g, s, tile, order, norder, rng, &gap) &&
        !narrow_two(g, s, tile, order, norder, &gap))
      return -1;
  return gap > 0 ? -1 : 0;
}
