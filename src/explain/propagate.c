/* propagate.c: WFC's propagation made visible.
 *
 * Arc consistency on domains (one tile bitset per cell), queue-based: when a
 * cell's domain shrinks, each neighbour keeps only the tiles that some tile
 * still possible here allows in its direction.  Every reduction is a step
 * that records the constraint it used (pin, edge, cell), the neighbour's
 * domain at the time, and the earlier steps it depends on: the ones that
 * took away the supports of the lost tiles.  A contradiction is traced back
 * through those links only, so the chain printed is the part of the log
 * that matters.
 *
 * This is the same reasoning as unit propagation on the support-clause
 * encoding (encode.c), so the tests compare the two.
 *
 * Explanations run it on a subset of the constraints, where a cell may lack
 * its one-tile constraint: a pin there rules nothing out, yet it still says
 * "this cell holds S".  With `positive`, such facts ("holds one of X") are
 * carried along pairs too (each tile of X needs a partner next door), and
 * where a cell does have its one-tile constraint they become ordinary
 * reductions.  That is what lets "why" reach the contradiction of a set
 * like the two clashing coast pins, which plain domains cannot. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

static size_t pool_set(ts_prop *p, const uint64_t *set) {
  size_t off = p->sets.n;
  for (int w = 0; w < p->words; w++)
    TS_PUSH(p->sets, set[w]);
  return off;
}

static uint64_t *dom_of(ts_prop *p, int cell) {
  return p->dom + (size_t)cell * (size_t)p->words;
}

static bool enabled(const ts_prop *p, int group) {
  return group < 0 || !p->enabled || p->enabled[group];
}

static int cell_group(int cell) { return cell; }

static int new_step(ts_prop *p, ts_step_kind kind, int cell) {
  ts_step s;
  memset(&s, 0, sizeof s);
  s.kind = kind;
  s.cell = cell;
  s.group = -1;
  s.choice = -1;
  s.tile = -1;
  s.nb = -1;
  s.dir = -1;
  s.deps = p->deps.n;
  TS_PUSH(p->steps, s);
  return (int)p->steps.n - 1;
}

static void push_dep(ts_prop *p, int step, int dep) {
  for (size_t i = p->steps.v[step].deps; i < p->deps.n; i++)
    if (p->deps.v[i] == dep)
      return;
  TS_PUSH(p->deps, dep);
  p->steps.v[step].ndeps++;
}

static void enqueue(ts_prop *p, int cell) {
  if (!p->queued[cell]) {
    p->queued[cell] = 1;
    TS_PUSH(p->queue, cell);
  }
}

static uint64_t *must_of(ts_prop *p, int cell) {
  return p->must + (size_t)cell * (size_t)p->words;
}

/* Is everything the cell must hold one of ruled out?  Then record the
 * contradiction (after step `why`, -1 if none) and return true. */
static bool must_gone(ts_prop *p, int cell, int why) {
  int T = p->m->rules->ntiles;
  const uint64_t *mu = must_of(p, cell), *d = dom_of(p, cell);
  for (int w = 0; w < p->words; w++)
    if (mu[w] & d[w])
      return false;
  int c = new_step(p, TS_STEP_MUST_GONE, cell);
  p->steps.v[c].lost = pool_set(p, mu);
  push_dep(p, c, p->must_by[cell]);
  if (why >= 0)
    push_dep(p, c, why);
  for (int t = 0; t < T; t++)
    if (ts_bit(mu, t))
      push_dep(p, c, p->removed_by[(size_t)cell * (size_t)T + (size_t)t]);
  p->conflict = c;
  return true;
}

/* Remove `lost` from cell, marking who removed each tile; then check for
 * a contradiction.  Returns false on one. */
static bool remove_tiles(ts_prop *p, int step, int cell, const uint64_t *lost) {
  const tilesat_map *m = p->m;
  int T = m->rules->ntiles;
  uint64_t *d = dom_of(p, cell);
  for (int t = 0; t < T; t++)
    if (ts_bit(lost, t))
      p->removed_by[(size_t)cell * (size_t)T + (size_t)t] = step;
  bool empty = true;
  for (int w = 0; w < p->words; w++) {
    d[w] &= ~lost[w];
    if (d[w])
      empty = false;
  }
  enqueue(p, cell);
  int f = p->forced[cell];
  if (f >= 0 && ts_bit(lost, f)) {
    int c = new_step(p, TS_STEP_LOST, cell);
    p->steps.v[c].tile = f;
    p->steps.v[c].group = p->steps.v[p->forced_by[cell]].group;
    p->steps.v[c].choice = p->steps.v[p->forced_by[cell]].choice;
    push_dep(p, c, step);
    push_dep(p, c, p->forced_by[cell]);
    p->conflict = c;
    return false;
  }
  if (p->must_by[cell] >= 0 && must_gone(p, cell, step))
    return false;
  if (empty && enabled(p, cell_group(cell))) {
    int c = new_step(p, TS_STEP_EMPTY, cell);
    p->steps.v[c].group = cell_group(cell);
    for (int t = 0; t < T; t++)
      push_dep(p, c, p->removed_by[(size_t)cell * (size_t)T + (size_t)t]);
    p->conflict = c;
    return false;
  }
  return true;
}

/* Revise `cell` against its neighbour nb (cell lies in direction dir of
 * nb). */
static bool revise(ts_prop *p, int nb, int dir, int cell, uint64_t *allow,
                   uint64_t *lost) {
  const tilesat_map *m = p->m;
  const tilesat_rules *r = m->rules;
  int T = r->ntiles, W = p->words;
  int g = ts_edge_group(m, nb, dir);
  if (!enabled(p, g))
    return true;
  const uint64_t *nd = dom_of(p, nb);
  memset(allow, 0, (size_t)W * sizeof *allow);
  for (int u = 0; u < T; u++)
    if (ts_bit(nd, u)) {
      const uint64_t *a = ts_allowed(r, u, dir);
      for (int w = 0; w < W; w++)
        allow[w] |= a[w];
    }
  const uint64_t *cd = dom_of(p, cell);
  bool any = false;
  for (int w = 0; w < W; w++) {
    lost[w] = cd[w] & ~allow[w];
    any |= lost[w] != 0;
  }
  if (!any)
    return true;
  int s = new_step(p, TS_STEP_SUPPORT, cell);
  p->steps.v[s].group = g;
  p->steps.v[s].nb = nb;
  p->steps.v[s].dir = dir;
  p->steps.v[s].lost = pool_set(p, lost);
  p->steps.v[s].nbdom = pool_set(p, nd);
  /* the steps that took the lost tiles' supports out of nb */
  int back = tilesat_dir_opposite(m->topo, dir);
  for (int t = 0; t < T; t++) {
    if (!ts_bit(lost, t))
      continue;
    const uint64_t *sup = ts_allowed(r, t, back);
    for (int u = 0; u < T; u++)
      if (ts_bit(sup, u) && !ts_bit(nd, u))
        push_dep(p, s, p->removed_by[(size_t)nb * (size_t)T + (size_t)u]);
  }
  return remove_tiles(p, s, cell, lost);
}

static int count_bits(const uint64_t *set, int words) {
  int n = 0;
  for (int w = 0; w < words; w++)
    for (uint64_t x = set[w]; x; x &= x - 1)
      n++;
  return n;
}

/* Positive facts: nb holds one of must[nb] (those not ruled out); each of
 * them needs a partner in `cell`, so cell holds one of their partners. */
static bool revise_must(ts_prop *p, int nb, int dir, int cell, uint64_t *from,
                        uint64_t *to) {
  const tilesat_map *m = p->m;
  const tilesat_rules *r = m->rules;
  int T = r->ntiles, W = p->words;
  int g = ts_edge_group(m, nb, dir);
  if (p->must_by[nb] < 0 || !enabled(p, g))
    return true;
  const uint64_t *mu = must_of(p, nb), *nd = dom_of(p, nb);
  memset(to, 0, (size_t)W * sizeof *to);
  for (int w = 0; w < W; w++)
    from[w] = mu[w] & nd[w];
  for (int u = 0; u < T; u++)
    if (ts_bit(from, u))
      for (int w = 0; w < W; w++)
        to[w] |= ts_allowed(r, u, dir)[w];
  bool one = enabled(p, cell_group(cell));
  uint64_t *cm = must_of(p, cell);
  const uint64_t *cd = dom_of(p, cell);
  bool had = p->must_by[cell] >= 0;
  if (had) { /* keep the fact that says more about the tiles left */
    int now = 0, old = 0;
    for (int w = 0; w < W; w++) {
      uint64_t a = to[w] & cd[w], b = cm[w] & cd[w];
      now += count_bits(&a, 1);
      old += count_bits(&b, 1);
    }
    if (now >= old)
      return true;
  }
  int s = new_step(p, TS_STEP_MUST, cell);
  p->steps.v[s].group = g;
  p->steps.v[s].nb = nb;
  p->steps.v[s].dir = dir;
  p->steps.v[s].lost = pool_set(p, to);
  p->steps.v[s].nbdom = pool_set(p, from);
  push_dep(p, s, p->must_by[nb]);
  for (int u = 0; u < T; u++)
    if (ts_bit(mu, u) && !ts_bit(nd, u))
      push_dep(p, s, p->removed_by[(size_t)nb * (size_t)T + (size_t)u]);
  memcpy(cm, to, (size_t)W * sizeof *cm);
  p->must_by[cell] = s;
  enqueue(p, cell);
  if (must_gone(p, cell, -1))
    return false;
  if (!one)
    return true;
  /* holding one tile, and one of `to`: it loses the others */
  bool any = false;
  for (int w = 0; w < W; w++) {
    from[w] = cd[w] & ~to[w];
    any |= from[w] != 0;
  }
  if (!any)
    return true;
  int o = new_step(p, TS_STEP_ONE, cell);
  p->steps.v[o].group = cell_group(cell);
  p->steps.v[o].lost = pool_set(p, from);
  push_dep(p, o, s);
  return remove_tiles(p, o, cell, from);
}

static bool propagate(ts_prop *p) {
  const tilesat_map *m = p->m;
  int W = p->words, D = m->rules->ndirs;
  uint64_t *allow = ts_malloc(2 * (size_t)W * sizeof *allow);
  bool ok = true;
  for (size_t head = 0; ok && head < p->queue.n; head++) {
    int nb = p->queue.v[head];
    p->queued[nb] = 0;
    for (int d = 0; ok && d < D; d++) {
      int cell = ts_map_neighbor(m, nb, d);
      if (cell >= 0)
        ok = revise(p, nb, d, cell, allow, allow + W);
      if (cell >= 0 && ok && p->positive)
        ok = revise_must(p, nb, d, cell, allow, allow + W);
    }
  }
  for (size_t i = 0; i < p->queue.n; i++)
    p->queued[p->queue.v[i]] = 0;
  p->queue.n = 0;
  free(allow);
  return ok;
}

bool ts_prop_init(ts_prop *p, const tilesat_map *m, const uint8_t *enabled_,
                  bool positive) {
  memset(p, 0, sizeof *p);
  int T = m->rules->ntiles;
  p->m = m;
  p->enabled = enabled_;
  p->words = m->rules->words;
  size_t n = (size_t)m->ncells;
  p->dom = ts_calloc(n * (size_t)p->words, sizeof *p->dom);
  p->removed_by = ts_malloc(n * (size_t)T * sizeof *p->removed_by);
  p->forced = ts_malloc(n * sizeof *p->forced);
  p->forced_by = ts_malloc(n * sizeof *p->forced_by);
  p->queued = ts_calloc(n, 1);
  p->conflict = -1;
  p->positive = positive;
  p->must = ts_calloc(n * (size_t)p->words, sizeof *p->must);
  p->must_by = ts_malloc(n * sizeof *p->must_by);
  for (size_t c = 0; c < n; c++)
    p->must_by[c] = -1;
  for (size_t c = 0; c < n; c++) {
    /* a masked cell holds nothing from the start, and has no neighbour */
    for (int t = 0; t < T; t++) {
      if (!ts_masked(m, (int)c))
        dom_of(p, (int)c)[t >> 6] |= (uint64_t)1 << (t & 63);
      p->removed_by[c * (size_t)T + (size_t)t] = -1;
    }
    p->forced[c] = p->forced_by[c] = -1;
    if (!ts_masked(m, (int)c))
      enqueue(p, (int)c);
  }
  /* banned tiles (tilesat_map_ban) are gone from the start, by no step */
  uint64_t *lost = ts_calloc((size_t)p->words, sizeof *lost);
  bool ok = true;
  for (size_t i = 0; ok && i < m->bans.n; i++) {
    if (ts_masked(m, m->bans.v[i].cell))
      continue; /* it holds nothing already */
    int t = m->bans.v[i].tile;
    lost[t >> 6] = (uint64_t)1 << (t & 63);
    ok = remove_tiles(p, -1, m->bans.v[i].cell, lost);
    lost[t >> 6] = 0;
  }
  free(lost);
  return ok && propagate(p);
}

void ts_prop_free(ts_prop *p) {
  free(p->dom);
  free(p->removed_by);
  free(p->forced);
  free(p->forced_by);
  free(p->must);
  free(p->must_by);
  free(p->queued);
  free(p->steps.v);
  free(p->sets.v);
  free(p->deps.v);
  free(p->queue.v);
  memset(p, 0, sizeof *p);
}

/* Keep only `tile` at `cell`, without propagating yet. */
static bool apply_pin(ts_prop *p, int cell, int tile, int group, int choice) {
  int T = p->m->rules->ntiles, W = p->words;
  if (p->conflict >= 0)
    return false;
  const uint64_t *d = dom_of(p, cell);
  if (!ts_bit(d, tile)) { /* the pin itself is the contradiction */
    int c = new_step(p, TS_STEP_LOST, cell);
    p->steps.v[c].tile = tile;
    p->steps.v[c].group = group;
    p->steps.v[c].choice = choice;
    push_dep(p, c, p->removed_by[(size_t)cell * (size_t)T + (size_t)tile]);
    p->conflict = c;
    return false;
  }
  int s = new_step(p, TS_STEP_PIN, cell);
  p->steps.v[s].group = group;
  p->steps.v[s].choice = choice;
  p->steps.v[s].tile = tile;
  uint64_t *lost = ts_calloc((size_t)W, sizeof *lost);
  d = dom_of(p, cell);
  /* pinning two different tiles on one cell: the second loses the first */
  if (p->forced[cell] < 0) {
    p->forced[cell] = tile;
    p->forced_by[cell] = s;
  }
  if (p->positive && p->must_by[cell] < 0) {
    uint64_t *mu = must_of(p, cell);
    mu[tile >> 6] |= (uint64_t)1 << (tile & 63);
    p->must_by[cell] = s;
  }
  /* without the cell's one-tile constraint a pin rules nothing else out */
  if (enabled(p, cell_group(cell)))
    for (int w = 0; w < W; w++)
      lost[w] = d[w];
  lost[tile >> 6] &= ~((uint64_t)1 << (tile & 63));
  if (!enabled(p, cell_group(cell)))
    memset(lost, 0, (size_t)W * sizeof *lost);
  p->steps.v[s].lost = pool_set(p, lost);
  bool ok = remove_tiles(p, s, cell, lost);
  free(lost);
  return ok;
}

bool ts_prop_pin(ts_prop *p, int cell, int tile, int group, int choice) {
  return apply_pin(p, cell, tile, group, choice) && propagate(p);
}

bool ts_prop_pins(ts_prop *p) {
  const tilesat_map *m = p->m;
  if (p->conflict >= 0)
    return false;
  for (size_t i = 0; i < m->pins.n; i++) {
    int g = m->ncells + (int)i;
    if (enabled(p, g) &&
        !apply_pin(p, m->pins.v[i].cell, m->pins.v[i].tile, g, -1))
      return false;
  }
  return propagate(p);
}

void ts_prop_chain(const ts_prop *p, uint8_t *onchain) {
  memset(onchain, 0, p->steps.n);
  if (p->conflict < 0)
    return;
  ts_ints stack = {0};
  TS_PUSH(stack, p->conflict);
  onchain[p->conflict] = 1;
  while (stack.n) {
    const ts_step *s = &p->steps.v[stack.v[--stack.n]];
    for (size_t i = 0; i < s->ndeps; i++) {
      int d = p->deps.v[s->deps + i];
      if (d >= 0 && !onchain[d]) {
        onchain[d] = 1;
        TS_PUSH(stack, d);
      }
    }
  }
  free(stack.v);
}
