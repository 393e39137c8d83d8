/* quickxplain.c: the preferred explanation under an order of blame. */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

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
      ts_error_param(err, "prefer",
                     "'%.*s' is not a group of constraints (pins, cells, "
                     "rules, borders, counts, connected, paths)",
                     (int)len, p);
      return -1;
    }
    if (seen[b]) {
      ts_error_param(err, "prefer", "'%s' is named twice", blame_names[b]);
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
static int quickxplain(ts_xctx *x, ts_ints *B, bool delta, const int *C,
                       size_t nc, ts_ints *out) {
  if (delta) {
    int r = ts_xsub_solve(&x->full, B, -1);
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
static int preferred(ts_xctx *x, const tilesat_blame *order, ts_ints *best,
                     tilesat_error *err) {
  int rank[TILESAT_NBLAMES];
  for (int i = 0; i < TILESAT_NBLAMES; i++)
    rank[order[i]] = i;
  ts_ints base = {0}, centres = {0}, B = {0};
  ts_x_core_and_centres(x->m, &x->full.failed, &base, &centres);
  int centre = centres.v[0];
  blame_key *keys = ts_malloc(x->all.n * sizeof *keys);
  int *C = ts_malloc(x->all.n * sizeof *C);
  for (size_t i = 0; i < x->all.n; i++) {
    int g = x->all.v[i];
    keys[i] = (blame_key){rank[blame_of(x->m, g)],
                          ts_x_group_dist2(x->m, g, centre), g};
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

static int preferred_fn(const tilesat_map *m, const tilesat_solve_options *so,
                        const void *arg, tilesat_explanation **out,
                        tilesat_error *err) {
  return tilesat_explain_preferred(m, so, arg, out, err);
}

int tilesat_explain_preferred(const tilesat_map *m,
                              const tilesat_solve_options *options,
                              const tilesat_blame *order,
                              tilesat_explanation **out, tilesat_error *err) {
  if (!out || !order)
    ts_misuse(__func__, "NULL map, order or result");
  tilesat_solve_options so = ts_x_so_of(m, options);
  *out = NULL;
  int in_window = ts_x_in_window(m, &so, preferred_fn, order, out, err);
  if (in_window != TILESAT_UNKNOWN)
    return in_window;
  ts_xctx x;
  int res = ts_xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints best = {0};
  if (preferred(&x, order, &best, err) < 0 ||
      ts_x_verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = ts_x_finish(m, &best);
  ts_xctx_close(&x);
  free(best.v);
  return res;
}
