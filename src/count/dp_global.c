/* dp_global.c: count and connected constraints in the frontier dp.
 *
 * Both are kept as bytes appended to a state's key (struct dp_ext), so
 * that states differing in them stay apart and those agreeing merge.
 *
 * Count: the number of cells so far holding a tile of the class (in its
 * rectangle), capped where its bound stops telling values apart (at k for
 * "exactly k" and "at most k", at k for "at least k"); a state is dropped
 * as soon as it passes an upper bound, or when the cells of the rectangle
 * still to come cannot reach a lower one.  count --by-tile is a counter
 * without bounds, read off the last layer.
 *
 * Connected: the standard connectivity-tracking transfer matrix.  Each
 * frontier slot holds the component label of its cell (0: not a class
 * cell, or a cell with no neighbour left to come), canonically renumbered
 * in slot order, and a byte says whether a component has been closed off
 * (its last cell left the frontier).  A class cell joins the components of
 * its earlier class neighbours; a component closed while another is open,
 * or a class cell after one closed, can never give one region, so the
 * state is dropped.  Cells leave the frontier when their last later
 * neighbour is placed (wrap-around neighbours of periodic maps included,
 * through the anchor slots), so square, hex, open and periodic maps all
 * go through the same step. */
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>

static int get16(const unsigned char *b) { return b[0] | b[1] << 8; }
static void put16(unsigned char *b, int v) {
  b[0] = (unsigned char)(v & 0xff);
  b[1] = (unsigned char)(v >> 8);
}

/* Counter c over the cells g covers (all of them without g), not masked. */
static void counter_cells(const ts_dp *s, const ts_global *g,
                          ts_dp_counter *c) {
  const ts_dp_plan *p = &s->p;
  int n = p->ncells;
  c->in = ts_calloc((size_t)n, 1);
  c->left = ts_calloc((size_t)n + 1, sizeof *c->left);
  for (int i = n - 1; i >= 0; i--) {
    int cell = p->cell[i];
    c->in[i] =
        !ts_masked(s->map, cell) && (!g || ts_global_covers(s->map, g, cell));
    c->left[i] = c->left[i + 1] + c->in[i];
  }
}

/* Cell `at` holds a tile of the class: the others are banned there (all
 * of them when it is masked: it holds none). */
static void require_class(const ts_dp *s, ts_dp_plan *p, const uint64_t *class,
                          int at) {
  size_t tw = (size_t)(p->T + 63) / 64;
  bool masked = ts_masked(s->map, at);
  if (!p->ban)
    p->ban = ts_calloc((size_t)p->ncells * tw, sizeof *p->ban);
  for (int t = 0; t < p->T; t++)
    if (masked || !ts_bit(class, t))
      p->ban[(size_t)p->pos[at] * tw + (size_t)(t >> 6)] |= (uint64_t)1
                                                            << (t & 63);
}

/* The groups: tiles of one class that are in the same constraint classes.
 * sig[t]: the first tile in the same constraint classes as t. */
static void make_groups(ts_dp *s) {
  const ts_dp_ext *x = &s->ext;
  int T = s->p.T, nmasks = 1 << s->p.ndirs;
  int *sig = ts_malloc((size_t)T * sizeof *sig);
  for (int t = 0; t < T; t++) {
    sig[t] = t;
    for (int u = 0; u < t && sig[t] == t; u++) {
      bool same = true;
      for (int j = 0; j < x->ncount && same; j++)
        same = ts_bit(x->count[j].class, t) == ts_bit(x->count[j].class, u);
      for (int j = 0; j < x->nconn && same; j++)
        same = ts_bit(x->conn[j].class, t) == ts_bit(x->conn[j].class, u);
      if (same)
        sig[t] = u;
    }
  }
  s->ext.grp = ts_malloc((size_t)nmasks * (size_t)T);
  int *first = ts_malloc((size_t)T * sizeof *first);
  for (int mask = 0; mask < nmasks; mask++) {
    const unsigned char *cls = s->cls + (size_t)mask * (size_t)T;
    unsigned char *grp = s->ext.grp + (size_t)mask * (size_t)T;
    int n = 0;
    for (int t = 0; t < T; t++) {
      int g = n;
      for (int k = 0; k < n && g == n; k++)
        if (cls[first[k]] == cls[t] && sig[first[k]] == sig[t])
          g = k;
      if (g == n)
        first[n++] = t;
      grp[t] = (unsigned char)g;
    }
  }
  free(first);
  free(sig);
}

/* Labels are bytes, 1 .. L + 1 while a step runs. */
#define MAX_LABELLED 254

int ts_dp_ext_setup(ts_dp *s, const uint64_t *by, tilesat_error *err) {
  const tilesat_map *m = s->map;
  ts_dp_plan *p = &s->p;
  ts_dp_ext *x = &s->ext;
  memset(x, 0, sizeof *x);
  x->by = -1;
  int off = s->setoff + s->setbytes; /* the seen key's set */
  size_t ng = m->globals.n;
  x->count = ts_calloc(ng + 1, sizeof *x->count);
  x->conn = ts_calloc(ng + 1, sizeof *x->conn);
  for (size_t k = 0; k < ng; k++) {
    const ts_global *g = &m->globals.v[k];
    if (g->kind == TILESAT_GLOBAL_COUNT) {
      ts_dp_counter *c = &x->count[x->ncount++];
      c->class = g->class;
      c->lo = g->cmp == TS_AT_MOST ? 0 : g->k;
      c->hi = g->cmp == TS_AT_LEAST ? -1 : g->k;
      c->sat = g->k;
      counter_cells(s, g, c);
    } else if (g->kind == TILESAT_GLOBAL_CONNECTED) {
      ts_dp_conn *c = &x->conn[x->nconn++];
      c->class = g->class;
      c->nonempty = g->nonempty || g->at >= 0;
      if (g->at >= 0)
        require_class(s, p, g->class, g->at);
    }
  }
  if (by) {
    x->by = x->ncount;
    ts_dp_counter *c = &x->count[x->ncount++];
    c->class = by;
    c->lo = 0;
    c->hi = -1;
    c->sat = p->ncells;
    counter_cells(s, NULL, c);
  }
  if (x->ncount && p->ncells > 0xffff) {
    ts_error(err, s->what, 0,
             "the dp counts cells in two bytes: at most 65535 cells with "
             "count constraints (this map has %d)",
             p->ncells);
    return -1;
  }
  if (x->nconn && p->L > MAX_LABELLED - 1) {
    ts_error(err, s->what, 0,
             "the dp's connectivity labels take a frontier of at most %d "
             "cells (this one has %d)",
             MAX_LABELLED - 1, p->L);
    return -1;
  }
  off = (off + 7) / 8 * 8; /* the frontier's words alone (the sampler) */
  x->start = off;
  for (int j = 0; j < x->ncount; j++, off += 2)
    x->count[j].off = off;
  for (int j = 0; j < x->nconn; j++, off += p->L + 1)
    x->conn[j].off = off;
  x->bytes = off - x->start;
  p->keywords = (off + 7) / 8;
  if (x->ncount || x->nconn)
    make_groups(s);
  return 0;
}

void ts_dp_ext_free(ts_dp_ext *x) {
  for (int j = 0; j < x->ncount; j++) {
    free(x->count[j].in);
    free(x->count[j].left);
  }
  free(x->count);
  free(x->conn);
  free(x->grp);
  memset(x, 0, sizeof *x);
}

static unsigned char root(unsigned char *par, unsigned char l) {
  while (par[l] != l)
    l = par[l] = par[par[l]];
  return l;
}

/* The frontier's labels after position i (tmp, roots of par), before
 * cells leave: shifted, with the placed cell's `me` (0: not a class
 * cell). */
static void conn_shift(const ts_dp_plan *p, int i, const unsigned char *ol,
                       unsigned char *par, unsigned char me,
                       unsigned char *tmp) {
  int L = p->L, K = p->K;
  for (int q = 0; q < K - 1; q++)
    tmp[q] = root(par, ol[q + 1]);
  tmp[K - 1] = me;
  for (int q = K; q < L; q++)
    tmp[q] = root(par, ol[q]);
  if (p->anchor_slot[i] >= 0)
    tmp[p->anchor_slot[i]] = me;
}

/* The cells with no neighbour left to come after position i leave the
 * frontier (tmp): how many components they close off (none of their
 * cells is left). */
static int conn_leave(const ts_dp_plan *p, int i, const unsigned char *ol,
                      unsigned char *par, unsigned char me,
                      unsigned char *tmp) {
  int L = p->L;
  unsigned char gone[MAX_LABELLED + 1], seen[MAX_LABELLED + 2];
  int ngone = 0, closing = 0;
  for (int r = p->rm_start[i]; r < p->rm_start[i + 1]; r++) {
    if (p->rm_to[r])
      continue;
    int ws = p->rm_wslot[r], as = p->rm_aslot[r];
    /* out of the window and no anchor: it was slot 0 */
    unsigned char l = ws >= 0 ? tmp[ws] : as >= 0 ? tmp[as] : root(par, ol[0]);
    if (ws >= 0)
      tmp[ws] = 0;
    if (as >= 0)
      tmp[as] = 0;
    if (l)
      gone[ngone++] = l;
  }
  if (me && !p->place_mask[i]) {
    tmp[p->K - 1] = 0;
    gone[ngone++] = me;
  }
  memset(seen, 0, (size_t)L + 2);
  for (int q = 0; q < L; q++)
    seen[tmp[q]] = 1;
  for (int g = 0; g < ngone; g++)
    if (!seen[gone[g]]) {
      seen[gone[g]] = 1;
      closing++;
    }
  return closing;
}

/* Connected constraint c's bytes after placing a tile at position i
 * (member: a tile of its class); false when no map goes on. */
static bool conn_next(const ts_dp *s, const ts_dp_conn *c, int i,
                      const unsigned char *key, bool member,
                      unsigned char *out) {
  const ts_dp_plan *p = &s->p;
  int L = p->L;
  const unsigned char *ol = key + c->off;
  unsigned char *nl = out + c->off;
  bool closed = ol[L];
  unsigned char par[MAX_LABELLED + 1], tmp[MAX_LABELLED + 1];
  for (int l = 0; l <= L + 1; l++)
    par[l] = (unsigned char)l;
  unsigned char me = 0;
  if (member) { /* a new label, which the neighbours' components join */
    if (closed)
      return false;
    me = (unsigned char)(L + 1);
    for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++) {
      unsigned char l = p->nb_slot[k] >= 0 ? root(par, ol[p->nb_slot[k]]) : 0;
      if (l && l != me)
        par[l] = me;
    }
  }
  conn_shift(p, i, ol, par, me, tmp);
  int closing = conn_leave(p, i, ol, par, me, tmp);
  /* one component closed off: no other may be open, or come */
  if (closing) {
    if (closing > 1 || closed)
      return false;
    for (int q = 0; q < L; q++)
      if (tmp[q])
        return false;
    closed = true;
  }
  unsigned char renum[MAX_LABELLED + 2];
  memset(renum, 0, (size_t)L + 2);
  int next = 0;
  for (int q = 0; q < L; q++) {
    if (tmp[q] && !renum[tmp[q]])
      renum[tmp[q]] = (unsigned char)++next;
    nl[q] = renum[tmp[q]];
  }
  nl[L] = closed;
  return true;
}

bool ts_dp_ext_next(const ts_dp *s, int i, const unsigned char *key, int t,
                    unsigned char *out) {
  const ts_dp_ext *x = &s->ext;
  for (int j = 0; j < x->ncount; j++) {
    const ts_dp_counter *c = &x->count[j];
    int v = get16(key + c->off) + (c->in[i] && ts_bit(c->class, t));
    if (c->hi >= 0 && v > c->hi)
      return false;
    v = v < c->sat ? v : c->sat;
    if (v + c->left[i + 1] < c->lo)
      return false;
    put16(out + c->off, v);
  }
  bool masked = ts_masked(s->map, s->p.cell[i]);
  for (int j = 0; j < x->nconn; j++) {
    const ts_dp_conn *c = &x->conn[j];
    if (!conn_next(s, c, i, key, !masked && ts_bit(c->class, t), out))
      return false;
  }
  return true;
}

bool ts_dp_ext_accept(const ts_dp *s, const unsigned char *key) {
  const ts_dp_ext *x = &s->ext;
  for (int j = 0; j < x->ncount; j++)
    if (get16(key + x->count[j].off) < x->count[j].lo)
      return false;
  for (int j = 0; j < x->nconn; j++)
    if (x->conn[j].nonempty && !key[x->conn[j].off + s->p.L])
      return false;
  return true;
}

int ts_dp_ext_by(const ts_dp *s, const unsigned char *key) {
  return get16(key + s->ext.count[s->ext.by].off);
}
