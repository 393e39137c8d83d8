/* smallest.c: a minimum-cardinality explanation (hitting-set duality). */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

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
    ts_x_copy_ints(&h->best, &h->cur);
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
  ts_x_copy_ints(out, &h.best);
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
static int smallest(ts_xctx *x, ts_ints *best, tilesat_error *err) {
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
    int r = ts_xsub_solve(&x->full, &h, -1);
    if (r == TILESAT_UNKNOWN) {
      res = ts_no_answer(x->so, "explain", err);
      break;
    }
    if (r == TILESAT_UNSAT) {
      ts_x_copy_ints(best, &h);
      break;
    }
    memset(in, 0, (size_t)x->G);
    for (size_t i = 0; i < h.n; i++)
      in[h.v[i]] = 1;
    if ((res = ts_x_grow(x, in, &h, err)) < 0)
      break;
    ts_ints mcs = {0};
    for (size_t i = 0; i < x->all.n; i++)
      if (!in[x->all.v[i]])
        TS_PUSH(mcs, x->all.v[i]);
    TS_PUSH(mcses, mcs);
  }
  ts_x_sets_free(&mcses);
  free(h.v);
  free(in);
  return res;
}

static int smallest_fn(const tilesat_map *m, const tilesat_solve_options *so,
                       const void *arg, tilesat_explanation **out,
                       tilesat_error *err) {
  (void)arg;
  return tilesat_explain_smallest(m, so, out, err);
}

int tilesat_explain_smallest(const tilesat_map *m,
                             const tilesat_solve_options *options,
                             tilesat_explanation **out, tilesat_error *err) {
  if (!out)
    ts_misuse(__func__, "NULL map or result");
  tilesat_solve_options so = ts_x_so_of(m, options);
  *out = NULL;
  int in_window = ts_x_in_window(m, &so, smallest_fn, NULL, out, err);
  if (in_window != TILESAT_UNKNOWN)
    return in_window;
  ts_xctx x;
  int res = ts_xctx_open(&x, m, &so, err);
  if (res != TILESAT_UNSAT)
    return res;
  ts_ints best = {0};
  if (smallest(&x, &best, err) < 0 ||
      ts_x_verify_minimal(m, &x.cnf, &so, &best, err) < 0)
    res = -1;
  else
    *out = ts_x_finish(m, &best);
  ts_xctx_close(&x);
  free(best.v);
  return res;
}
