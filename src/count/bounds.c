/* bounds.c: proved lower and upper bounds on the number of valid maps, for
 * maps the exact dp cannot count whole.  Every number here is an exact
 * count of a smaller map (ts_dp_count on a sub-map), and the bounds are
 * products (or powers) of such counts, so they are integers that provably
 * enclose the count; nothing is estimated.
 *
 * Upper bound: cut the map into strips k lines wide (columns or rows) and
 * drop every constraint that crosses a cut (and, on a periodic map, the
 * wrap-around edges).  A valid map restricted to a strip is a valid map of
 * the strip (the strip's edges, pins and bans are the map's own), and the
 * map is the union of its strips, so count <= product of the strips'
 * counts.
 *
 * Lower bound: fix every cell of a few cut lines (every k+1-th column, or
 * row; on a periodic map also the first line across, so nothing wraps) to
 * one assignment that keeps the rules, pins and bans among cut cells: one
 * tile on every cut cell (pinned cells keep their pin), a line where it
 * cannot stand taken from a valid map (a guarded collapse), or all lines
 * from that map.  The cuts separate the rest into pieces, each a sub-map
 * whose cells beside a cut cell lose the tiles it does not allow.  Any
 * choice of one valid map per piece makes a valid map (every edge lies
 * inside a piece, between a piece and a cut cell, or between cut cells),
 * and different choices make different maps, so count >= product of the
 * pieces' counts.  The best assignment tried is kept.
 *
 * Reflection lower bound (Knots-like rule sets; bounds_reflection.c):
 * when the rules have a mirror (a tile involution s with a E b <=>
 * s(b) E s(a), the other axis kept) and the kernel K(t,u) = [t E s(u)]
 * is positive semidefinite (checked exactly), a map without pins, bans or
 * wrap-around of width a+b counts Z(a+b) = <u_a, u_b>_K, where u_a counts
 * the strips of width a by their last column (the right part, mirrored,
 * is a left part).  Cauchy-Schwarz gives Z(a+b)^2 <= Z(2a) Z(2b): log
 * Z(2m) is convex in m, so Z(W) >= Z(k) (Z(k) / Z(k-2))^((W-k)/2) for
 * even W >= k >= 4, and Z(W) >= Z(W+1) / Z(1) for odd W.  It is nearly
 * exact where it applies.
 *
 * Every sub-map is checked against the map before it is counted: the
 * strips' edges must be the map's edges (the relaxation), and every edge of
 * a piece's cell must be an edge of its sub-map or lead to a cut cell (the
 * lower bound's covering); a failure is an internal error, never a wrong
 * bound. */
#include "count/bounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A rectangle of the map: rows r0..r0+h-1, columns c0..c0+w-1. */
typedef struct rect {
  int r0, c0, h, w;
} rect;

/* Seconds of CPU: the budget is the process's own time, so that a busy
 * machine does not narrow the strips. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bounds_terminate(void *user) {
  ts_bounds *b = user;
  if (ts_terminated(&b->o->solve))
    return 1;
  if (b->deadline > 0 && now() > b->deadline) {
    b->out_of_time = true;
    return 1;
  }
  return 0;
}

static void say(ts_bounds *b, const char *line) {
  if (!b->o->progress)
    return;
  char full[384];
  snprintf(full, sizeof full, "%s%s%s%s", b->prefix, b->phase,
           *line ? ": " : "", line);
  b->o->progress(b->o->progress_user, full);
}

static void dp_progress(void *user, const char *line) { say(user, line); }

double ts_log2(const mpz_t z) {
  if (!mpz_sgn(z))
    return -INFINITY;
  long e;
  double d = mpz_get_d_2exp(&e, z);
  return log2(d) + (double)e;
}

/* CSR index of (cell, tile) pairs. */
static void index_pairs(const ts_pin *v, size_t n, int ncells, int **start,
                        int **tile) {
  *start = ts_calloc((size_t)ncells + 1, sizeof **start);
  *tile = ts_malloc((n ? n : 1) * sizeof **tile);
  for (size_t i = 0; i < n; i++)
    (*start)[v[i].cell + 1]++;
  for (int c = 0; c < ncells; c++)
    (*start)[c + 1] += (*start)[c];
  int *fill = ts_malloc((size_t)ncells * sizeof *fill);
  memcpy(fill, *start, (size_t)ncells * sizeof *fill);
  for (size_t i = 0; i < n; i++)
    (*tile)[fill[v[i].cell]++] = v[i].tile;
  free(fill);
}

ts_bounds *ts_bounds_new(const tilesat_map *m, const tilesat_count_options *o) {
  ts_bounds *b = ts_calloc(1, sizeof *b);
  b->m = m;
  b->o = o;
  b->dpo = *o;
  b->dpo.solve.terminate = bounds_terminate;
  b->dpo.solve.terminate_user = b;
  b->dpo.progress = dp_progress;
  b->dpo.progress_user = b;
  b->start = now();
  b->prefix = "bounds: ";
  index_pairs(m->pins.v, m->pins.n, m->ncells, &b->pin_start, &b->pin_tile);
  index_pairs(m->bans.v, m->bans.n, m->ncells, &b->ban_start, &b->ban_tile);
  for (int k = 0; k <= TS_BOUNDS_MAX_WIDTH; k++)
    mpz_init(b->strip[k]);
  return b;
}

void ts_bounds_free(ts_bounds *b) {
  if (!b)
    return;
  for (size_t i = 0; i < b->cache.n; i++) {
    free(b->cache.v[i].sig.v);
    mpz_clear(b->cache.v[i].count);
  }
  free(b->cache.v);
  for (int k = 0; k <= TS_BOUNDS_MAX_WIDTH; k++)
    mpz_clear(b->strip[k]);
  free(b->pin_start);
  free(b->pin_tile);
  free(b->ban_start);
  free(b->ban_tile);
  free(b->wmap);
  free(b);
}

/* ------------------------------------------------------------ sub-maps */

static int cell_at(const tilesat_map *m, int r, int c) {
  return (r % m->height) * m->width + c % m->width;
}

/* The cell of the map under cell s of a sub-map laid on rectangle R. */
static int under(const tilesat_map *m, rect R, int s) {
  return cell_at(m, R.r0 + s / R.w, R.c0 + s % R.w);
}

/* The sub-map on R: the map's pins and bans, and with `cut`, the cut
 * cells' tiles pinned and, on each other cell, the tiles its cut
 * neighbours do not allow banned (the constraints across the pieces'
 * borders, without the border in the sub-map); with `bare`, no pins or
 * bans at all.  Its description (size, then each cell's pins and bans)
 * goes to sig, for the cache. */
static tilesat_map *rect_map(const ts_bounds *b, rect R, const int *cut,
                             bool bare, ts_ints *sig, tilesat_error *err) {
  const tilesat_map *m = b->m;
  int T = m->rules->ntiles;
  tilesat_map *sub = tilesat_map_new(m->rules, R.w, R.h, m->topo, false, err);
  if (!sub)
    return NULL;
  tilesat_map_set_max_memory(sub, m->max_memory);
  sig->n = 0;
  TS_PUSH(*sig, R.h);
  TS_PUSH(*sig, R.w);
  char *ok = ts_malloc((size_t)T);
  for (int s = 0; s < R.h * R.w; s++) {
    int u = under(m, R, s);
    if (bare) { /* no pins, no bans: as a cell of a map without them */
      TS_PUSH(*sig, 0);
      TS_PUSH(*sig, 0);
      continue;
    }
    if (cut && cut[u] >= 0) {
      ts_pin p = {s, cut[u]};
      TS_PUSH(sub->pins, p);
      TS_PUSH(*sig, -1 - cut[u]);
      continue;
    }
    TS_PUSH(*sig, b->pin_start[u + 1] - b->pin_start[u]);
    for (int i = b->pin_start[u]; i < b->pin_start[u + 1]; i++) {
      ts_pin p = {s, b->pin_tile[i]};
      TS_PUSH(sub->pins, p);
      TS_PUSH(*sig, p.tile);
    }
    memset(ok, 1, (size_t)T);
    for (int i = b->ban_start[u]; i < b->ban_start[u + 1]; i++)
      ok[b->ban_tile[i]] = 0;
    for (int d = 0; cut && d < m->rules->ndirs; d++) {
      int v = ts_map_neighbor(m, u, d);
      for (int t = 0; v >= 0 && cut[v] >= 0 && t < T; t++)
        if (!ts_bit(ts_allowed(m->rules, t, d), cut[v]))
          ok[t] = 0;
    }
    size_t at = sig->n;
    TS_PUSH(*sig, 0);
    for (int t = 0; t < T; t++)
      if (!ok[t]) {
        ts_pin p = {s, t};
        TS_PUSH(sub->bans, p);
        TS_PUSH(*sig, t);
        sig->v[at]++;
      }
  }
  free(ok);
  return sub;
}

/* Upper bound: every edge of the sub-map is an edge of the map, in the
 * same direction. */
static bool relaxes(const tilesat_map *m, const tilesat_map *sub, rect R) {
  for (int s = 0; s < sub->ncells; s++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int t = ts_map_neighbor(sub, s, d);
      if (t >= 0 && under(m, R, t) != ts_map_neighbor(m, under(m, R, s), d))
        return false;
    }
  return true;
}

/* Lower bound: every edge of a cell that is not cut (the piece's own) is an
 * edge of the sub-map; each such cell belongs to one piece (owner). */
static bool covers(const tilesat_map *m, const tilesat_map *sub, rect R,
                   const int *cut, char *owner) {
  for (int s = 0; s < sub->ncells; s++) {
    int u = under(m, R, s);
    if (cut[u] >= 0)
      continue;
    if (owner[u])
      return false;
    owner[u] = 1;
    for (int d = 0; d < m->rules->ndirs; d++) {
      int v = ts_map_neighbor(m, u, d), t = ts_map_neighbor(sub, s, d);
      if (v >= 0 && cut[v] < 0 && (t < 0 || under(m, R, t) != v))
        return false;
    }
  }
  return true;
}

static uint64_t hash_ints(const ts_ints *v) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < v->n; i++) {
    h ^= (uint64_t)(uint32_t)v->v[i];
    h *= 0x100000001b3u;
  }
  return h;
}

typedef enum { COUNTED, TOO_HARD, FAILED } outcome;

/* The dp on a (sub-)map.  TOO_HARD: it ran past the deadline or outgrew
 * memory (b->why_not says which); FAILED: interrupted (err). */
static outcome dp(ts_bounds *b, const tilesat_map *map, mpz_t out,
                  tilesat_error *err) {
  b->out_of_time = false;
  tilesat_error dperr;
  if (!ts_dp_count(map, &b->dpo, out, &dperr))
    return COUNTED;
  if (ts_terminated(&b->o->solve)) {
    ts_error(err, "count", 0, "interrupted");
    return FAILED;
  }
  if (b->out_of_time)
    snprintf(b->why_not, sizeof b->why_not,
             "count: bounds: a strip or piece took longer than the time left");
  else
    snprintf(b->why_not, sizeof b->why_not, "%s", dperr.msg);
  return TOO_HARD;
}

/* The exact count of a sub-map, from the cache or the dp.  TOO_HARD: the
 * dp ran past the deadline or outgrew memory (b->why_not says which);
 * FAILED: interrupted or an error (err). */
static outcome sub_count(ts_bounds *b, tilesat_map *sub, const ts_ints *sig,
                         mpz_t out, tilesat_error *err) {
  uint64_t h = hash_ints(sig);
  for (size_t i = 0; i < b->cache.n; i++) {
    const cached *c = &b->cache.v[i];
    if (c->hash == h && c->sig.n == sig->n &&
        !memcmp(c->sig.v, sig->v, sig->n * sizeof *sig->v)) {
      mpz_set(out, c->count);
      return COUNTED;
    }
  }
  outcome rc = dp(b, sub, out, err);
  if (rc != COUNTED)
    return rc;
  cached c = {.hash = h};
  c.sig.v = ts_malloc(sig->n * sizeof *sig->v);
  c.sig.n = c.sig.cap = sig->n;
  memcpy(c.sig.v, sig->v, sig->n * sizeof *sig->v);
  mpz_init_set(c.count, out);
  TS_PUSH(b->cache, c);
  return COUNTED;
}

/* Count the sub-map on R (see rect_map), checked first (relaxes when cut
 * is NULL, covers otherwise). */
static outcome rect_count(ts_bounds *b, rect R, const int *cut, bool bare,
                          char *owner, mpz_t out, tilesat_error *err) {
  ts_ints sig = {0};
  tilesat_map *sub = rect_map(b, R, cut, bare, &sig, err);
  outcome rc = FAILED;
  if (sub) {
    bool ok = cut ? covers(b->m, sub, R, cut, owner) : relaxes(b->m, sub, R);
    if (!ok)
      ts_error(err, NULL, 0,
               "internal error: the bounds' %dx%d block at (%d,%d) does not "
               "match the map",
               R.w, R.h, R.r0, R.c0);
    else
      rc = sub_count(b, sub, &sig, out, err);
  }
  tilesat_map_free(sub);
  free(sig.v);
  return rc;
}

/* -------------------------------------------------------------- layout */

/* (along and line_name are in bounds.h: the reflection bound uses them.) */

static rect band(const tilesat_map *m, int axis, int at, int width) {
  return axis ? (rect){at, 0, width, m->width}
              : (rect){0, at, m->height, width};
}

static int imin(int a, int b) { return a < b ? a : b; }

/* n parts of len, as equal as possible. */
static int part(int len, int n, int i) { return len / n + (i < len % n); }

/* ----------------------------------------------------------- the upper */

/* The product of the exact counts of ceil(L/k) strips of at most k lines. */
static outcome upper_bound(ts_bounds *b, int axis, int k, mpz_t upper,
                           char *why, size_t whylen, tilesat_error *err) {
  const tilesat_map *m = b->m;
  int L = along(m, axis), n = (L + k - 1) / k, at = 0;
  mpz_t z;
  mpz_init(z);
  mpz_set_ui(upper, 1);
  outcome rc = COUNTED;
  for (int i = 0; i < n && rc == COUNTED && mpz_sgn(upper); i++) {
    int w = part(L, n, i);
    snprintf(b->phase, sizeof b->phase, "upper bound, strip %d of %d", i + 1,
             n);
    say(b, "");
    rc = rect_count(b, band(m, axis, at, w), NULL, false, NULL, z, err);
    mpz_mul(upper, upper, z);
    at += w;
  }
  mpz_clear(z);
  if (rc == COUNTED) {
    if (n == 1 && !m->periodic)
      snprintf(why, whylen, "exact: the map counted whole");
    else
      snprintf(why, whylen,
               "proved: %d strips of at most %d %s, each counted exactly, "
               "the constraints across %d %s%s dropped",
               n, k, line_name(axis, k), m->periodic ? n : n - 1,
               (m->periodic ? n : n - 1) == 1 ? "cut" : "cuts",
               m->periodic ? " and around the wrap" : "");
  }
  return rc;
}

/* ----------------------------------------------------------- the lower */

/* The cut lines for pieces of at most k lines: cut[cell] = 1 on them, 0
 * elsewhere; returns how many pieces there are and fills their first line
 * and width (at most L of each). */
static int cut_layout(const tilesat_map *m, int axis, int k, char *oncut,
                      int *first, int *width, int *ncut_lines) {
  int L = along(m, axis), n, ncuts;
  if (m->periodic) { /* a cut at line 0, then after each piece */
    n = (L + k) / (k + 1);
    ncuts = n;
  } else {
    n = (L + 1 + k) / (k + 1);
    ncuts = n - 1;
  }
  *ncut_lines = ncuts + (m->periodic ? 1 : 0);
  memset(oncut, 0, (size_t)m->ncells);
  int at = m->periodic ? 1 : 0, np = 0;
  for (int i = 0; i < n; i++) {
    int w = part(L - ncuts, n, i);
    if (w > 0) {
      first[np] = at;
      width[np++] = w;
    }
    at += w;
    if (at < L) /* the cut after piece i (the periodic one is line 0) */
      for (int j = 0; j < along(m, !axis); j++)
        oncut[axis ? cell_at(m, at, j) : cell_at(m, j, at)] = 1;
    at++;
  }
  if (m->periodic) /* line 0 of this axis, and of the other one */
    for (int a = 0; a < 2; a++)
      for (int j = 0; j < along(m, !a); j++)
        oncut[a ? cell_at(m, 0, j) : cell_at(m, j, 0)] = 1;
  return np;
}

/* The piece of lines first..first+w-1, without the cut lines around it
 * (they enter its sub-map as bans on its cells beside them). */
static rect piece_rect(const tilesat_map *m, int axis, int first, int w) {
  rect R = band(m, axis, first, w);
  /* across a periodic map: after the cut line 0, but a hex map keeps its
   * rows' parity (odd rows are shifted), so there the cut row is in */
  if (m->periodic && !(axis == 0 && m->topo == TILESAT_HEX)) {
    if (axis)
      R.c0 = 1, R.w--;
    else
      R.r0 = 1, R.h--;
  }
  return R;
}

/* Does the assignment of the cut cells keep the pins, the bans and every
 * edge between two cut cells? */
static bool cell_valid(const ts_bounds *b, const int *cut, int u) {
  const tilesat_map *m = b->m;
  for (int i = b->pin_start[u]; i < b->pin_start[u + 1]; i++)
    if (b->pin_tile[i] != cut[u])
      return false;
  for (int i = b->ban_start[u]; i < b->ban_start[u + 1]; i++)
    if (b->ban_tile[i] == cut[u])
      return false;
  for (int d = 0; d < m->rules->ndirs; d++) {
    int v = ts_map_neighbor(m, u, d);
    if (v >= 0 && cut[v] >= 0 &&
        !ts_bit(ts_allowed(m->rules, cut[u], d), cut[v]))
      return false;
  }
  return true;
}

static bool cut_valid(const ts_bounds *b, const int *cut) {
  for (int u = 0; u < b->m->ncells; u++)
    if (cut[u] >= 0 && !cell_valid(b, cut, u))
      return false;
  return true;
}

/* The product of the pieces' counts, the cut cells as `cut` says. */
static outcome pieces_product(ts_bounds *b, int axis, int np, const int *first,
                              const int *width, const int *cut, mpz_t lower,
                              tilesat_error *err) {
  const tilesat_map *m = b->m;
  char *owner = ts_calloc((size_t)m->ncells, 1);
  mpz_t z;
  mpz_init(z);
  mpz_set_ui(lower, 1);
  outcome rc = COUNTED;
  for (int i = 0; i < np && rc == COUNTED && mpz_sgn(lower); i++) {
    rect R = piece_rect(m, axis, first[i], width[i]);
    if (R.w < 1 || R.h < 1)
      continue;
    rc = rect_count(b, R, cut, false, owner, z, err);
    mpz_mul(lower, lower, z);
  }
  /* every cell is cut or in a piece (unless a piece was 0: the bound is) */
  for (int u = 0; rc == COUNTED && mpz_sgn(lower) && u < m->ncells; u++)
    if (cut[u] < 0 && !owner[u]) {
      ts_error(err, NULL, 0,
               "internal error: cell %d is in no piece of the lower bound", u);
      rc = FAILED;
    }
  mpz_clear(z);
  free(owner);
  return rc;
}

/* A candidate for the cut cells: one tile everywhere (tile >= 0), the
 * cells of a valid map, or (with both) the tile, and the valid map's cells
 * on the lines where the tile cannot stand (next to a pin, say). */
typedef struct candidate {
  int tile;
  const int *map;
} candidate;

/* The cut cells' tiles for a candidate (a pinned cell keeps its pin);
 * returns how many lines come from the valid map instead of the tile.  On
 * a map that does not wrap, cut lines never touch, so a line can be
 * replaced alone. */
static int fill_cut(const ts_bounds *b, int axis, const char *oncut,
                    candidate c, int *cut) {
  const tilesat_map *m = b->m;
  for (int u = 0; u < m->ncells; u++)
    cut[u] = !oncut[u] ? -1
             : b->pin_start[u] < b->pin_start[u + 1]
                 ? b->pin_tile[b->pin_start[u]]
             : c.tile >= 0 ? c.tile
                           : c.map[u];
  if (c.tile < 0 || !c.map || m->periodic)
    return 0;
  int patched = 0;
  for (int j = 0; j < along(m, axis); j++) {
    int n = along(m, !axis);
    bool bad = false;
    for (int i = 0; i < n && !bad; i++) {
      int u = axis ? cell_at(m, j, i) : cell_at(m, i, j);
      bad = oncut[u] && !cell_valid(b, cut, u);
    }
    for (int i = 0; i < n && bad; i++) {
      int u = axis ? cell_at(m, j, i) : cell_at(m, i, j);
      cut[u] = c.map[u];
    }
    patched += bad;
  }
  return patched;
}

static void describe(const tilesat_map *m, candidate c, int patched, int axis,
                     char *out, size_t len) {
  if (c.tile < 0) {
    snprintf(out, len, "as in a valid map from a guarded collapse");
    return;
  }
  int n = snprintf(out, len, "\"%s\" on every cut cell%s",
                   tilesat_rules_tile_name(m->rules, c.tile),
                   m->pins.n ? " not pinned" : "");
  if (patched && n > 0 && (size_t)n < len)
    snprintf(out + n, len - (size_t)n,
             ", %d %s as in a valid map from a guarded collapse", patched,
             line_name(axis, patched));
}

/* A valid map to take cut lines from: a guarded collapse, within a few
 * seconds, or NULL. */
static int *witness(ts_bounds *b, double seconds) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(b->m, &err);
  if (!c)
    return NULL;
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.guard = TILESAT_GUARD_SAT;
  co.seed = b->o->seed;
  co.solve = b->dpo.solve;
  co.solve.backend = TILESAT_CADICAL;
  int *tiles = ts_malloc((size_t)b->m->ncells * sizeof *tiles);
  snprintf(b->phase, sizeof b->phase, "lower bound: a valid map to cut");
  say(b, "guarded collapse");
  double saved = b->deadline;
  b->deadline = now() + seconds;
  if (saved > 0 && saved < b->deadline)
    b->deadline = saved;
  int rc = tilesat_collapse_run(c, &co, tiles, &err);
  b->deadline = saved;
  tilesat_collapse_free(c);
  if (rc != TILESAT_SAT) {
    free(tiles);
    return NULL;
  }
  return tiles;
}

/* How many candidates are counted at full width after the ranking. */
#define LOWER_FINALISTS 2

/* The cut assignments worth trying: one tile on every cut cell, for each
 * tile that keeps the rules there, and the cells of a valid map (when the
 * map has pins, bans or wraps around, or no tile fits). */
static int candidates(ts_bounds *b, int axis, const char *oncut, int *cut,
                      candidate *cand) {
  const tilesat_map *m = b->m;
  int nc = 0;
  if (!b->tried_witness && (m->pins.n || m->bans.n || m->periodic)) {
    b->tried_witness = true;
    b->wmap = witness(b, 2);
  }
  for (int t = 0; t < m->rules->ntiles; t++) {
    candidate c = {t, b->wmap};
    fill_cut(b, axis, oncut, c, cut);
    if (cut_valid(b, cut))
      cand[nc++] = c;
  }
  if (!b->tried_witness && !nc) {
    b->tried_witness = true;
    b->wmap = witness(b, 2);
  }
  if (b->wmap) {
    candidate c = {-1, b->wmap};
    fill_cut(b, axis, oncut, c, cut);
    if (cut_valid(b, cut))
      cand[nc++] = c;
  }
  return nc;
}

/* Rank the candidates on pieces half as wide (cheap: the dp's time grows
 * geometrically with the width; narrower, the ranking favoured the valid
 * map's lines, which fit between themselves), best first (ties keep
 * their order), and keep the best few. */
static outcome rank(ts_bounds *b, int axis, int k, candidate *cand, int *nc,
                    tilesat_error *err) {
  const tilesat_map *m = b->m;
  int L = along(m, axis), n = *nc, ncuts;
  char *oncut = ts_malloc((size_t)m->ncells);
  int *cut = ts_malloc((size_t)m->ncells * sizeof *cut);
  int *first = ts_malloc((size_t)(L + 1) * sizeof *first);
  int *width = ts_malloc((size_t)(L + 1) * sizeof *width);
  double *score = ts_malloc((size_t)n * sizeof *score);
  int np = cut_layout(m, axis, (k + 1) / 2, oncut, first, width, &ncuts);
  mpz_t z;
  mpz_init(z);
  outcome rc = COUNTED;
  /* a fifth of the budget at most: the candidates not reached rank last */
  double saved = b->deadline;
  if (b->budget > 0) {
    b->deadline = now() + b->budget / 5;
    if (saved > 0 && saved < b->deadline)
      b->deadline = saved;
  }
  for (int i = 0; i < n && rc != FAILED; i++) {
    fill_cut(b, axis, oncut, cand[i], cut);
    snprintf(b->phase, sizeof b->phase,
             "lower bound, ranking cut lines: %d of %d", i + 1, n);
    say(b, "");
    score[i] = -INFINITY;
    if (!cut_valid(b, cut))
      continue;
    rc = pieces_product(b, axis, np, first, width, cut, z, err);
    if (rc == COUNTED && mpz_sgn(z))
      score[i] = ts_log2(z);
  }
  b->deadline = saved;
  for (int i = 0; i < LOWER_FINALISTS && i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (score[j] > score[i]) {
        candidate tc = cand[i];
        cand[i] = cand[j];
        cand[j] = tc;
        double ts = score[i];
        score[i] = score[j];
        score[j] = ts;
      }
  if (*nc > LOWER_FINALISTS)
    *nc = LOWER_FINALISTS;
  mpz_clear(z);
  free(oncut);
  free(cut);
  free(first);
  free(width);
  free(score);
  return rc == FAILED ? rc : COUNTED;
}

/* The best lower bound from cut lines every k+1 lines (at least what
 * `lower` holds already). */
static outcome lower_bound(ts_bounds *b, int axis, int k, mpz_t lower,
                           char *why, size_t whylen, tilesat_error *err) {
  const tilesat_map *m = b->m;
  int L = along(m, axis), ncuts;
  char *oncut = ts_malloc((size_t)m->ncells);
  int *cut = ts_malloc((size_t)m->ncells * sizeof *cut);
  int *first = ts_malloc((size_t)(L + 1) * sizeof *first);
  int *width = ts_malloc((size_t)(L + 1) * sizeof *width);
  candidate *cand = ts_malloc((size_t)(m->rules->ntiles + 1) * sizeof *cand);
  int np = cut_layout(m, axis, k, oncut, first, width, &ncuts);
  int nc = candidates(b, axis, oncut, cut, cand);
  outcome rc = COUNTED;
  if (nc > LOWER_FINALISTS && k > 1)
    rc = rank(b, axis, k, cand, &nc, err);
  mpz_t z;
  mpz_init(z);
  for (int i = 0; i < nc && rc != FAILED; i++) {
    int patched = fill_cut(b, axis, oncut, cand[i], cut);
    snprintf(b->phase, sizeof b->phase, "lower bound, cut lines %d of %d",
             i + 1, nc);
    say(b, "");
    rc = pieces_product(b, axis, np, first, width, cut, z, err);
    if (rc == COUNTED && mpz_cmp(z, lower) > 0) {
      mpz_set(lower, z);
      char line[160];
      describe(m, cand[i], patched, axis, line, sizeof line);
      if (!ncuts)
        snprintf(why, whylen, "exact: the map counted whole");
      else
        snprintf(why, whylen,
                 "proved: the maps with %d cut %s%s fixed (%s), the %d %s "
                 "between counted exactly",
                 ncuts - (m->periodic ? 1 : 0),
                 line_name(axis, ncuts - (m->periodic ? 1 : 0)),
                 m->periodic ? " and the first line across" : "", line, np,
                 np == 1 ? "piece" : "pieces");
    }
  }
  mpz_clear(z);
  free(oncut);
  free(cut);
  free(first);
  free(width);
  free(cand);
  return rc;
}

/* ------------------------------------------------------------ planning */

/* The free strip (no pins or bans) of k lines across the axis, counted
 * and timed: b->strip[k], b->seconds[k]. */
static outcome probe(ts_bounds *b, int axis, int k, tilesat_error *err) {
  snprintf(b->phase, sizeof b->phase, "a strip of %d %s", k,
           line_name(axis, k));
  say(b, "");
  double t0 = now();
  outcome rc =
      rect_count(b, band(b->m, axis, 0, k), NULL, true, NULL, b->strip[k], err);
  b->seconds[k] = now() - t0;
  if (rc == COUNTED)
    b->probed = k;
  return rc;
}

/* Across which axis: the strips' width is counted along the map's shorter
 * side (a map that narrow is one strip), columns on hex maps (a strip of
 * rows must start on an even row). */
static int choose_axis(const tilesat_map *m) {
  return m->topo == TILESAT_SQUARE && m->height < m->width;
}

/* How many strips' time the bounds at width k take in all, measured: the
 * strips (the probes, then one of each width, or all of them when pins or
 * bans make them differ), the ranking of the cut lines (on pieces half as
 * wide: little) and the pieces of the two best (the first, the middle
 * ones, the last: their cells beside the cuts keep few tiles, so together
 * they take about a strip's time; when they take longer, the deadline
 * narrows them). */
static double strips_worth(const ts_bounds *b, int axis, int k) {
  const tilesat_map *m = b->m;
  if (!m->pins.n && !m->bans.n)
    return 3;
  int n = (along(m, axis) + k - 1) / k; /* strips */
  return n + 2.0;
}

/* Probe strips 1, 2, ... across the axis (no wider than max_k) while the
 * next one is predicted to take at most `seconds` (with `all`: all the
 * bounds at its width, strips_worth times it): the widest counted is
 * b->probed.  TOO_HARD only when not even one line could be counted. */
static outcome probe_widths(ts_bounds *b, int axis, int max_k, double seconds,
                            bool all, tilesat_error *err) {
  for (int k = b->probed + 1; k <= max_k; k++) {
    double share = all ? seconds / strips_worth(b, axis, k) : seconds;
    if (k >= 2 && b->seconds[k - 1] > 0.002) {
      double g = b->seconds[k - 1] / fmax(b->seconds[k - 2], 0.002);
      if (b->seconds[k - 1] * fmax(g, 1.5) > share)
        break;
    }
    b->deadline = now() + share;
    outcome rc = probe(b, axis, k, err);
    b->deadline = 0;
    if (rc == FAILED)
      return rc;
    if (rc == TOO_HARD)
      break;
  }
  return b->probed ? COUNTED : TOO_HARD;
}

/* How long the dp on the whole map would take, extrapolated from the
 * strips across the shorter side (their time grows about geometrically
 * with their width); the strips counted on the way are kept. */
int ts_bounds_predict(ts_bounds *b, double *seconds, char *why, size_t len,
                      tilesat_error *err) {
  const tilesat_map *m = b->m;
  int axis = choose_axis(m), W = along(m, axis);
  b->axis = axis;
  int max_k = imin(W, TS_BOUNDS_MAX_WIDTH);
  b->prefix = "auto: timing the dp on strips: ";
  outcome rc = probe_widths(b, axis, max_k, 0.3, false, err);
  b->prefix = "bounds: ";
  if (rc == FAILED)
    return -1;
  if (rc == TOO_HARD) {
    if (err)
      snprintf(err->msg, sizeof err->msg, "%s", b->why_not);
    return -1;
  }
  int k = b->probed;
  double g = k >= 2 ? b->seconds[k] / fmax(b->seconds[k - 1], 0.002) : 2;
  g = fmax(g, 1.2);
  /* a periodic map's dp keeps its first line too: about twice as wide */
  int width = m->periodic ? 2 * W : W;
  double exp_ = width - k;
  *seconds = b->seconds[k] * pow(g, exp_);
  snprintf(why, len,
           "strips of 1 to %d %s took up to %.2g s, %.1fx more a line", k,
           line_name(axis, 2), b->seconds[k], g);
  return 0;
}

int ts_bounds_try_dp(ts_bounds *b, double seconds, mpz_t count,
                     tilesat_error *err) {
  snprintf(b->phase, sizeof b->phase, "the whole map, for %.2g s", seconds);
  b->prefix = "auto: trying the exact dp on ";
  say(b, "");
  b->deadline = now() + seconds;
  outcome rc = dp(b, b->m, count, err);
  b->deadline = 0;
  b->prefix = "bounds: ";
  return rc == COUNTED ? 1 : rc == TOO_HARD ? 0 : -1;
}

bool ts_bounds_whole(const ts_bounds *b, mpz_t count) {
  const tilesat_map *m = b->m;
  if (!b->probed || b->probed != along(m, b->axis) || m->periodic ||
      m->pins.n || m->bans.n)
    return false;
  mpz_set(count, b->strip[b->probed]);
  return true;
}

/* The dp could not count (b->why_not says why): -1 with that. */
static int too_hard(const ts_bounds *b, tilesat_error *err) {
  if (err)
    snprintf(err->msg, sizeof err->msg, "%s", b->why_not);
  return -1;
}

/* The strips' width: free strips probed up to the widest that leaves time
 * for the rest, or up to o->bounds_width. */
static outcome plan(ts_bounds *b, int axis, tilesat_error *err) {
  int max_k = imin(along(b->m, axis), TS_BOUNDS_MAX_WIDTH);
  if (b->o->bounds_width > 0)
    return probe_widths(b, axis, imin(b->o->bounds_width, max_k), INFINITY,
                        false, err);
  return probe_widths(b, axis, max_k, b->budget, true, err);
}

/* The map is one strip: count it whole (the strip probed, when it is the
 * map itself). */
static outcome one_strip(ts_bounds *b, ts_bounds_result *res,
                         tilesat_error *err) {
  const tilesat_map *m = b->m;
  outcome rc = COUNTED;
  if (!m->periodic && !m->pins.n && !m->bans.n) {
    mpz_set(res->upper, b->strip[b->probed]);
  } else {
    snprintf(b->phase, sizeof b->phase, "the whole map");
    say(b, "");
    rc = dp(b, m, res->upper, err);
  }
  if (rc == COUNTED)
    exact(res, "exact: the map counted whole");
  return rc;
}

/* The upper bound at width *k, narrower while out of time or memory. */
static outcome upper_narrowing(ts_bounds *b, int axis, int *k,
                               ts_bounds_result *res, double budget,
                               tilesat_error *err) {
  bool timed = b->o->bounds_width <= 0;
  for (;;) {
    outcome rc = upper_bound(b, axis, *k, res->upper, res->upper_why,
                             sizeof res->upper_why, err);
    if (rc != TOO_HARD || *k == 1)
      return rc;
    --*k;
    b->deadline = timed ? now() + budget / 2 : 0;
  }
}

/* The lower bound at width k, narrower while nothing is found in time. */
static outcome lower_narrowing(ts_bounds *b, int axis, int k,
                               ts_bounds_result *res, double budget,
                               tilesat_error *err) {
  bool timed = b->o->bounds_width <= 0;
  for (;;) {
    outcome rc = lower_bound(b, axis, k, res->lower, res->lower_why,
                             sizeof res->lower_why, err);
    if (rc != TOO_HARD || mpz_sgn(res->lower) || k == 1)
      return rc;
    k = (k + 1) / 2;
    b->deadline = timed ? now() + budget / 4 : 0;
  }
}

/* The reflection bound, when it applies and beats the cut lines. */
static void lower_by_reflection(ts_bounds *b, int axis, ts_bounds_result *res) {
  if (!ts_bounds_reflection_applies(b->m, axis))
    return;
  mpz_t z;
  mpz_init(z);
  char why[sizeof res->lower_why];
  ts_bounds_reflection_bound(b, axis, z, why, sizeof why);
  if (mpz_cmp(z, res->lower) > 0) {
    mpz_set(res->lower, z);
    snprintf(res->lower_why, sizeof res->lower_why, "%s", why);
  }
  mpz_clear(z);
}

int ts_bounds_compute(ts_bounds *b, ts_bounds_result *res, tilesat_error *err) {
  const tilesat_map *m = b->m;
  double budget = b->o->bounds_seconds > 0 ? b->o->bounds_seconds : 20;
  b->budget = b->o->bounds_width > 0 ? 0 : budget;
  int axis = choose_axis(m), W = along(m, axis);
  if (b->probed && b->axis != axis)
    ts_misuse(__func__, "probed across another axis");
  b->axis = axis;
  mpz_set_ui(res->lower, 0);
  res->have_upper = false;
  snprintf(res->lower_why, sizeof res->lower_why,
           "trivial: no cut lines that keep the rules were found");
  outcome rc = plan(b, axis, err);
  if (rc != COUNTED)
    return rc == FAILED ? -1 : too_hard(b, err);
  int k = b->probed;
  b->deadline = b->o->bounds_width <= 0 ? b->start + budget : 0;
  if (k == W) {
    rc = one_strip(b, res, err);
    if (rc != TOO_HARD) {
      b->deadline = 0;
      return rc == FAILED ? -1 : 0;
    }
    k = W > 1 ? W - 1 : 1;
  }
  rc = upper_narrowing(b, axis, &k, res, budget, err);
  if (rc == COUNTED) {
    res->have_upper = true;
    if (!mpz_sgn(res->upper)) /* no valid map: exactly 0 */
      exact(res, res->upper_why);
    else
      rc = lower_narrowing(b, axis, k, res, budget, err);
  }
  b->deadline = 0;
  if (rc == FAILED || !res->have_upper)
    return rc == FAILED ? -1 : too_hard(b, err);
  if (mpz_cmp(res->lower, res->upper) < 0)
    lower_by_reflection(b, axis, res);
  return 0;
}
