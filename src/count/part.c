/* count/part.c: a problem cut into N disjoint parts whose union is all its
 * valid maps (count --part K/N, enum --part K/N, tilesat sum, the MPI
 * driver), and exact uniform sampling through the parts.
 *
 * The cut is a function of the problem alone (rules, size, topology, wrap,
 * pins, bans), never of the method, the machine or its memory, so parts
 * counted anywhere add up.  It walks the cells in a fixed order (row by
 * row; column by column when the map is wider than tall, so that the first
 * line is the short side, which a periodic map's dp keeps in its frontier
 * throughout) and fixes them one at a time, a prefix of tiles, as a tree.
 * At a node (a prefix) shared among n parts, each tile t the next cell may
 * hold is weighed: the fillings of the cell's row holding t there, times
 * those of its column, each line counted exactly with its own neighbours,
 * the pins and bans, and every neighbour already fixed.  A line is a
 * relaxation of the map, so a weight 0 proves that no valid map starts so:
 * such tiles belong to no part.  A tile weighing more than a part's fair
 * share (total / n) is heavy: the heavy tiles share the parts in
 * proportion to their weights (one at least each) and the cut goes on in
 * each; the light ones are shared into g groups of balanced weight (the
 * heaviest first, to the lightest group; g in proportion to their total
 * weight, one at least), a part each.  So a part is always one map: the
 * problem with a prefix pinned and, on the next cell, the tiles of other
 * groups banned; or nothing (a whole map shared among several parts, or a
 * prefix no map extends).  Weights are exact integers (GMP), so every
 * machine cuts alike.  Finding part k walks one path of the tree: a few
 * lines' counts a cell, whatever n is. */
#include "count/count.h"

#include "core/rng.h"

#include <stdlib.h>
#include <string.h>

/* Changes whenever the cut does, so that parts cut differently never add
 * up (it is part of the fingerprint). */
#define CUT_VERSION 1

typedef struct cut {
  const tilesat_map *m;
  const tilesat_rules *r;
  int T, words; /* tiles, words of a tile set */
  bool by_rows;
  ts_pin *pins, *bans; /* sorted by (cell, tile), without repeats */
  size_t npins, nbans;
  int *fixed;      /* [cell]: the prefix's tile, or -1 */
  int *line;       /* [max(width, height)]: the cells of a line */
  uint64_t *ok;    /* [position in line][words]: tiles the cell may hold */
  uint64_t *pairs; /* [words]: scratch */
  mpz_t *from, *to, *side, *weight; /* [T] */
  int *heavy, *light, *share;       /* [T]: scratch of cut_node */
  uint64_t *keep;                   /* [words] */
} cut;

static int pin_cmp(const void *a, const void *b) {
  const ts_pin *x = a, *y = b;
  if (x->cell != y->cell)
    return x->cell < y->cell ? -1 : 1;
  return (x->tile > y->tile) - (x->tile < y->tile);
}

/* A sorted copy of v[0..n) without repeats; *out_n its length. */
static ts_pin *sorted_set(const ts_pin *v, size_t n, size_t *out_n) {
  ts_pin *s = ts_malloc((n ? n : 1) * sizeof *s);
  if (n)
    memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, pin_cmp);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!k || pin_cmp(&s[k - 1], &s[i]))
      s[k++] = s[i];
  *out_n = k;
  return s;
}

/* The entries of sorted v for `cell`: [*lo, *hi). */
static void cell_range(const ts_pin *v, size_t n, int cell, size_t *lo,
                       size_t *hi) {
  size_t a = 0, b = n;
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (v[mid].cell < cell)
      a = mid + 1;
    else
      b = mid;
  }
  *lo = a;
  while (a < n && v[a].cell == cell)
    a++;
  *hi = a;
}

/* The i-th cell of the cut's order. */
static int cell_at(const cut *c, int i) {
  return c->by_rows ? i : (i % c->m->height) * c->m->width + i / c->m->height;
}

static void cut_init(cut *c, const tilesat_map *m) {
  memset(c, 0, sizeof *c);
  c->m = m;
  c->r = m->rules;
  c->T = c->r->ntiles;
  c->words = c->r->words;
  c->by_rows = m->width <= m->height;
  c->pins = sorted_set(m->pins.v, m->pins.n, &c->npins);
  c->bans = sorted_set(m->bans.v, m->bans.n, &c->nbans);
  c->fixed = ts_malloc((size_t)m->ncells * sizeof *c->fixed);
  for (int i = 0; i < m->ncells; i++)
    c->fixed[i] = -1;
  int most = m->width > m->height ? m->width : m->height;
  c->line = ts_malloc((size_t)most * sizeof *c->line);
  c->ok = ts_calloc((size_t)most * (size_t)c->words, sizeof *c->ok);
  c->pairs = ts_malloc((size_t)c->words * sizeof *c->pairs);
  c->keep = ts_malloc((size_t)c->words * sizeof *c->keep);
  c->heavy = ts_malloc((size_t)c->T * sizeof *c->heavy);
  c->light = ts_malloc((size_t)c->T * sizeof *c->light);
  c->share = ts_malloc((size_t)c->T * sizeof *c->share);
  mpz_t **vecs[] = {&c->from, &c->to, &c->side, &c->weight};
  for (int v = 0; v < 4; v++) {
    *vecs[v] = ts_malloc((size_t)c->T * sizeof(mpz_t));
    for (int t = 0; t < c->T; t++)
      mpz_init((*vecs[v])[t]);
  }
}

static void cut_free(cut *c) {
  mpz_t *vecs[] = {c->from, c->to, c->side, c->weight};
  for (int v = 0; v < 4; v++) {
    for (int t = 0; t < c->T; t++)
      mpz_clear(vecs[v][t]);
    free(vecs[v]);
  }
  free(c->pins);
  free(c->bans);
  free(c->fixed);
  free(c->line);
  free(c->ok);
  free(c->pairs);
  free(c->keep);
  free(c->heavy);
  free(c->light);
  free(c->share);
}

/* set &= allowed[a][d] */
static void and_allowed(const cut *c, uint64_t *set, int a, int d) {
  const uint64_t *al = ts_allowed(c->r, a, d);
  for (int w = 0; w < c->words; w++)
    set[w] &= al[w];
}

/* The tiles `cell` may hold given the pins, the bans and the neighbours
 * already fixed (its own tile, if fixed). */
static void cell_tiles(const cut *c, int cell, uint64_t *set) {
  memset(set, 0, (size_t)c->words * sizeof *set);
  if (c->fixed[cell] >= 0) {
    set[c->fixed[cell] >> 6] = (uint64_t)1 << (c->fixed[cell] & 63);
    return;
  }
  for (int t = 0; t < c->T; t++)
    set[t >> 6] |= (uint64_t)1 << (t & 63);
  size_t lo, hi;
  cell_range(c->pins, c->npins, cell, &lo, &hi);
  for (size_t i = lo; i < hi; i++) { /* two different pins leave none */
    bool had = ts_bit(set, c->pins[i].tile);
    memset(set, 0, (size_t)c->words * sizeof *set);
    if (had)
      set[c->pins[i].tile >> 6] |= (uint64_t)1 << (c->pins[i].tile & 63);
  }
  cell_range(c->bans, c->nbans, cell, &lo, &hi);
  for (size_t i = lo; i < hi; i++)
    set[c->bans[i].tile >> 6] &= ~((uint64_t)1 << (c->bans[i].tile & 63));
  for (int d = 0; d < c->r->ndirs; d++) {
    int n = ts_map_neighbor(c->m, cell, d);
    /* fixed[n] stands in direction d of the cell's tile u: u stands in
     * direction opposite(d) of fixed[n] (rules are symmetric) */
    if (n >= 0 && c->fixed[n] >= 0)
      and_allowed(c, set, c->fixed[n], tilesat_dir_opposite(c->m->topo, d));
  }
}

/* One step along a line, from cell x (counts `from`, tiles okx) to cell y
 * (tiles oky): to[u] = the sum of from[t] over the tiles t that u may
 * stand next to. */
static void step(cut *c, int x, int y, const uint64_t *okx,
                 const uint64_t *oky) {
  for (int t = 0; t < c->T; t++)
    mpz_set_ui(c->to[t], 0);
  for (int t = 0; t < c->T; t++) {
    if (!ts_bit(okx, t) || !mpz_sgn(c->from[t]))
      continue;
    memcpy(c->pairs, oky, (size_t)c->words * sizeof *oky);
    for (int d = 0; d < c->r->ndirs; d++)
      if (ts_map_neighbor(c->m, x, d) == y)
        and_allowed(c, c->pairs, t, d);
    for (int w = 0; w < c->words; w++)
      for (uint64_t b = c->pairs[w]; b; b &= b - 1)
        mpz_add(c->to[w * 64 + __builtin_ctzll(b)],
                c->to[w * 64 + __builtin_ctzll(b)], c->from[t]);
  }
  mpz_t *s = c->from;
  c->from = c->to;
  c->to = s;
}

/* c->side[t]: the fillings of the L cells of c->line that hold t at
 * position p, each cell among cell_tiles' (a chain: each cell next to the
 * one before it), by counting in from both ends. */
static void line_counts(cut *c, int L, int p) {
  int W = c->words;
  for (int i = 0; i < L; i++)
    cell_tiles(c, c->line[i], c->ok + (size_t)i * (size_t)W);
  for (int end = 0; end < 2; end++) {
    int i = end ? L - 1 : 0, dir = end ? -1 : 1;
    for (int t = 0; t < c->T; t++)
      mpz_set_ui(c->from[t], 1);
    for (; i != p; i += dir)
      step(c, c->line[i], c->line[i + dir], c->ok + (size_t)i * W,
           c->ok + (size_t)(i + dir) * W);
    for (int t = 0; t < c->T; t++) {
      if (!ts_bit(c->ok + (size_t)p * W, t))
        mpz_set_ui(c->from[t], 0);
      if (end)
        mpz_mul(c->side[t], c->side[t], c->from[t]);
      else
        mpz_set(c->side[t], c->from[t]);
    }
  }
}

/* c->weight[t], the weight of tile t at position j (the positions before
 * it fixed): the fillings of the cell's row with t there, times those of
 * its column.  Each is a relaxation of the map (a line's own neighbours,
 * the pins, bans and fixed neighbours), so a weight 0 proves that no valid
 * map holds t there. */
static void weigh(cut *c, int j) {
  const tilesat_map *m = c->m;
  int cell = cell_at(c, j), row = cell / m->width, col = cell % m->width;
  for (int i = 0; i < m->width; i++)
    c->line[i] = row * m->width + i;
  line_counts(c, m->width, col);
  for (int t = 0; t < c->T; t++)
    mpz_set(c->weight[t], c->side[t]);
  for (int i = 0; i < m->height; i++)
    c->line[i] = i * m->width + col;
  line_counts(c, m->height, row);
  for (int t = 0; t < c->T; t++)
    mpz_mul(c->weight[t], c->weight[t], c->side[t]);
}

/* n seats among the m tiles of `tiles` (weights > 0, m <= n): at least one
 * each, the rest in proportion to the weights (whole quotients first, then
 * seat by seat to the tile with the most weight per seat). */
static void share_seats(const cut *c, const int *tiles, int m, int n,
                        int *seats) {
  mpz_t total, q, a, b;
  mpz_inits(total, q, a, b, NULL);
  for (int i = 0; i < m; i++)
    mpz_add(total, total, c->weight[tiles[i]]);
  int given = 0;
  for (int i = 0; i < m; i++) {
    mpz_mul_ui(q, c->weight[tiles[i]], (unsigned long)(n - m));
    mpz_fdiv_q(q, q, total);
    seats[i] = 1 + (int)mpz_get_ui(q);
    given += seats[i];
  }
  for (; given < n; given++) {
    int best = 0;
    for (int i = 1; i < m; i++) {
      /* weight_i / seats_i > weight_best / seats_best */
      mpz_mul_ui(a, c->weight[tiles[i]], (unsigned long)seats[best]);
      mpz_mul_ui(b, c->weight[tiles[best]], (unsigned long)seats[i]);
      if (mpz_cmp(a, b) > 0)
        best = i;
    }
    seats[best]++;
  }
  mpz_clears(total, q, a, b, NULL);
}

/* The m tiles of `tiles` (m >= n) shared into n groups,
 * heaviest first, each to the lightest group so far: group[i] of tiles[i]. */
static void share_groups(const cut *c, const int *tiles, int m, int n,
                         int *group) {
  int *by = ts_malloc((size_t)m * sizeof *by);
  for (int i = 0; i < m; i++) { /* insertion sort: heaviest first, stable */
    int k = i;
    while (k > 0 &&
           mpz_cmp(c->weight[tiles[by[k - 1]]], c->weight[tiles[i]]) < 0) {
      by[k] = by[k - 1];
      k--;
    }
    by[k] = i;
  }
  mpz_t *load = ts_malloc((size_t)n * sizeof(mpz_t));
  for (int g = 0; g < n; g++)
    mpz_init(load[g]);
  for (int s = 0; s < m; s++) {
    int light = 0;
    for (int g = 1; g < n; g++)
      if (mpz_cmp(load[g], load[light]) < 0)
        light = g;
    group[by[s]] = light;
    mpz_add(load[light], load[light], c->weight[tiles[by[s]]]);
  }
  for (int g = 0; g < n; g++)
    mpz_clear(load[g]);
  free(load);
  free(by);
}

static bool pinned(const cut *c, int cell, int tile) {
  size_t lo, hi;
  cell_range(c->pins, c->npins, cell, &lo, &hi);
  for (size_t i = lo; i < hi; i++)
    if (c->pins[i].tile == tile)
      return true;
  return false;
}

/* The problem with the first j cells pinned to the prefix; with `keep`,
 * cell j restricted to the tiles of `keep` (a tile set). */
static tilesat_map *part_map(const cut *c, int j, const uint64_t *keep) {
  const tilesat_map *m = c->m;
  tilesat_map *p = ts_calloc(1, sizeof *p);
  *p = *m;
  memset(&p->pins, 0, sizeof p->pins);
  memset(&p->bans, 0, sizeof p->bans);
  /* (none: tilesat_map_part refuses them; the named classes are m's) */
  memset(&p->globals, 0, sizeof p->globals);
  memset(&p->classes, 0, sizeof p->classes);
  memset(&p->class_names, 0, sizeof p->class_names);
  p->masked = NULL;
  p->nmasked = 0;
  for (size_t i = 0; i < m->pins.n; i++)
    TS_PUSH(p->pins, m->pins.v[i]);
  for (size_t i = 0; i < m->bans.n; i++)
    TS_PUSH(p->bans, m->bans.v[i]);
  for (int i = 0; i < j; i++) {
    int cell = cell_at(c, i);
    ts_pin pin = {cell, c->fixed[cell]};
    if (!pinned(c, cell, pin.tile))
      TS_PUSH(p->pins, pin);
  }
  if (keep) { /* ban the tiles cell j may hold but the part does not */
    int cell = cell_at(c, j);
    cell_tiles(c, cell, c->pairs);
    for (int t = 0; t < c->T; t++)
      if (ts_bit(c->pairs, t) && !ts_bit(keep, t)) {
        ts_pin ban = {cell, t};
        TS_PUSH(p->bans, ban);
      }
  }
  return p;
}

/* The tiles of position j's weights (c->weight) sorted for n parts: the
 * heavy ones, weighing more than a part's fair share (total / n), and the
 * light ones; returns g, how many parts the light ones get (their share,
 * rounded down, one at least, one tile a group at most), or -1 when no
 * tile has weight. */
static int sort_tiles(cut *c, int n, int *nheavy, int *nlight) {
  mpz_t total, light, x;
  mpz_inits(total, light, x, NULL);
  for (int t = 0; t < c->T; t++)
    mpz_add(total, total, c->weight[t]);
  *nheavy = *nlight = 0;
  for (int t = 0; t < c->T && mpz_sgn(total); t++) {
    mpz_mul_ui(x, c->weight[t], (unsigned long)n);
    if (mpz_cmp(x, total) > 0) {
      c->heavy[(*nheavy)++] = t;
    } else if (mpz_sgn(c->weight[t])) {
      c->light[(*nlight)++] = t;
      mpz_add(light, light, c->weight[t]);
    }
  }
  int g = mpz_sgn(total) ? 0 : -1;
  if (*nlight) {
    mpz_mul_ui(x, light, (unsigned long)n);
    mpz_fdiv_q(x, x, total);
    g = (int)mpz_get_ui(x);
    g = g < 1 ? 1 : g > *nlight ? *nlight : g;
  }
  mpz_clears(total, light, x, NULL);
  return g;
}

/* The node of the cut whose prefix is j cells long, shared among *n parts
 * of which part *k is wanted: 1 when that part ends here (*part: its map,
 * or NULL when it is empty), or 0 with position j fixed to the heavy tile
 * whose parts hold it (*k and *n then count within them). */
static int cut_node(cut *c, int j, int *k, int *n, tilesat_map **part) {
  if (*n == 1 || j == c->m->ncells) { /* a whole map is one part */
    *part = *k == 1 ? part_map(c, j, NULL) : NULL;
    return 1;
  }
  weigh(c, j);
  int nheavy, nlight, g = sort_tiles(c, *n, &nheavy, &nlight);
  if (g < 0) /* no valid map starts with this prefix */
    return 1;
  int *share = c->share;
  if (*k <= g) { /* one group of light tiles: cell j holds one of them */
    share_groups(c, c->light, nlight, g, share);
    memset(c->keep, 0, (size_t)c->words * sizeof *c->keep);
    for (int i = 0; i < nlight; i++)
      if (share[i] == *k - 1)
        c->keep[c->light[i] >> 6] |= (uint64_t)1 << (c->light[i] & 63);
    *part = part_map(c, j, c->keep);
    return 1;
  }
  *k -= g;
  share_seats(c, c->heavy, nheavy, *n - g, share);
  int i = 0;
  while (*k > share[i])
    *k -= share[i++];
  *n = share[i];
  c->fixed[cell_at(c, j)] = c->heavy[i];
  return 0;
}

int tilesat_map_part(const tilesat_map *m, int k, int n, tilesat_map **part,
                     tilesat_error *err) {
  if (!m || !part)
    ts_misuse(__func__, "NULL map or part");
  *part = NULL;
  if (n < 1 || n > TILESAT_MAX_PARTS || k < 1 || k > n) {
    ts_error_param(err, "part", "part %d of %d: K/N needs 1 <= K <= N <= %d", k,
                   n, TILESAT_MAX_PARTS);
    return -1;
  }
  /* the cut and the fingerprint know pins and bans, not constraints */
  if (tilesat_map_refuse_globals(m, 0, "parts (--part, --part-split)", NULL,
                                 err))
    return -1;
  cut c;
  cut_init(&c, m);
  for (int j = 0; !cut_node(&c, j, &k, &n, part); j++)
    ;
  cut_free(&c);
  return 0;
}

/* ------------------------------------------------------- fingerprint */

static uint64_t fnv(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++, v >>= 8)
    h = (h ^ (v & 0xff)) * 1099511628211u;
  return h;
}

/* Pins or bans as a set: their order and repeats do not matter. */
static uint64_t fnv_pins(uint64_t h, const ts_pin *v, size_t n) {
  ts_pin *s = sorted_set(v, n, &n);
  h = fnv(h, n);
  for (size_t i = 0; i < n; i++)
    h = fnv(fnv(h, (uint64_t)s[i].cell), (uint64_t)s[i].tile);
  free(s);
  return h;
}

void tilesat_map_fingerprint(const tilesat_map *m, char out[17]) {
  const tilesat_rules *r = m->rules;
  uint64_t h = 1469598103934665603u; /* FNV-1a, 64 bits */
  h = fnv(h, CUT_VERSION);
  h = fnv(h, (uint64_t)m->topo);
  h = fnv(h, m->periodic);
  h = fnv(h, (uint64_t)m->width);
  h = fnv(h, (uint64_t)m->height);
  h = fnv(h, (uint64_t)r->ntiles);
  for (int t = 0; t < r->ntiles; t++) {
    const char *name = tilesat_rules_tile_name(r, t);
    size_t len = strlen(name);
    h = fnv(h, len);
    for (size_t i = 0; i < len; i++)
      h = fnv(h, (unsigned char)name[i]);
  }
  for (int a = 0; a < r->ntiles; a++)
    for (int d = 0; d < r->ndirs; d++)
      for (int b = 0; b < r->ntiles; b++)
        if (tilesat_rules_allows(r, a, d, b))
          h = fnv(h, ((uint64_t)a * (uint64_t)r->ndirs + (uint64_t)d) *
                             (uint64_t)r->ntiles +
                         (uint64_t)b);
  h = fnv_pins(fnv(h, 1), m->pins.v, m->pins.n);
  h = fnv_pins(fnv(h, 2), m->bans.v, m->bans.n);
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* ------------------------------------------------- counts and samples */

/* A part's count must be exact: dp or enum (auto: the dp, never a
 * fall-back to an estimate). */
static int exact_method(const tilesat_count_options *o,
                        tilesat_count_options *po, tilesat_error *err) {
  *po = *o;
  if (o->method == TILESAT_METHOD_AUTO)
    po->method = TILESAT_METHOD_DP;
  if (po->method != TILESAT_METHOD_DP && po->method != TILESAT_METHOD_ENUM) {
    ts_error_param(
        err, "part",
        "the parts' counts must be exact: --method dp or enum, not %s",
        tilesat_method_name(o->method));
    return -1;
  }
  return 0;
}

int ts_count_part_by_tile(const tilesat_map *m, int k, int n, const char *cls,
                          const tilesat_count_options *o,
                          tilesat_count_result *res, char ***dist,
                          tilesat_error *err) {
  memset(res, 0, sizeof *res);
  if (dist)
    *dist = NULL;
  tilesat_count_options po;
  tilesat_map *p;
  if (exact_method(o, &po, err) ||
      (po.method == TILESAT_METHOD_DP && ts_dp_refuse(m, &po, "count", err)) ||
      tilesat_map_part(m, k, n, &p, err))
    return -1;
  if (!p) { /* an empty part: no map, none with any k */
    res->count = ts_strdup("0");
    res->method = po.method;
    if (cls && dist) {
      *dist = ts_malloc(((size_t)m->ncells + 1) * sizeof **dist);
      for (int c = 0; c <= m->ncells; c++)
        (*dist)[c] = ts_strdup("0");
    }
    return 0;
  }
  /* the class is m's: the part's map keeps no named class */
  uint64_t *by = cls && dist ? ts_class_parse(m, cls, "by-tile", err) : NULL;
  if (cls && dist && !by)
    ts_error_mark_param(err, "by-tile");
  int rc = cls && dist ? (by ? ts_count_by_set(p, by, &po, res, dist, err) : -1)
                       : tilesat_count(p, &po, res, err);
  free(by);
  tilesat_map_free(p);
  return rc;
}

int tilesat_count_part(const tilesat_map *m, int k, int n,
                       const tilesat_count_options *o,
                       tilesat_count_result *res, tilesat_error *err) {
  return ts_count_part_by_tile(m, k, n, NULL, o, res, NULL, err);
}

/* The parts of a problem with their counts: upto[k], the count of parts
 * 0..k (cumulative). */
typedef struct split {
  int n;
  tilesat_map **parts; /* NULL: empty */
  mpz_t *upto;
} split;

/* Cut m into n parts and count each by po's method; 0 or -1 with err. */
static int split_count(split *s, const tilesat_map *m, int n,
                       const tilesat_count_options *po, tilesat_error *err) {
  s->n = n;
  s->parts = ts_calloc((size_t)n, sizeof(tilesat_map *));
  s->upto = ts_malloc((size_t)n * sizeof(mpz_t));
  int rc = 0;
  for (int k = 0; k < n; k++) {
    mpz_init(s->upto[k]);
    if (k)
      mpz_set(s->upto[k], s->upto[k - 1]);
    tilesat_count_result res;
    if (rc || tilesat_map_part(m, k + 1, n, &s->parts[k], err) ||
        (s->parts[k] && tilesat_count(s->parts[k], po, &res, err))) {
      rc = -1;
    } else if (s->parts[k]) {
      mpz_t c;
      mpz_init_set_str(c, res.count, 10);
      mpz_add(s->upto[k], s->upto[k], c);
      mpz_clear(c);
      tilesat_count_result_free(&res);
    }
  }
  return rc;
}

static void split_free(split *s) {
  for (int k = 0; k < s->n; k++) {
    tilesat_map_free(s->parts[k]);
    mpz_clear(s->upto[k]);
  }
  free(s->parts);
  free(s->upto);
}

/* n draws of a part, part k with probability count(k) / total: the first
 * part whose cumulative count passes a uniform r in [0, total) (GMP's
 * Mersenne Twister, seeded from the seed). */
static void draw_parts(const split *s, uint64_t seed, int n, int *draw) {
  gmp_randstate_t st;
  gmp_randinit_mt(st);
  mpz_t r;
  mpz_init(r);
  uint64_t x = seed ^ 0x7061727473u; /* "parts" */
  mpz_set_ui(r, (unsigned long)(ts_splitmix64(&x) >> 32));
  mpz_mul_2exp(r, r, 32);
  mpz_add_ui(r, r, (unsigned long)(ts_splitmix64(&x) >> 32));
  gmp_randseed(st, r);
  for (int i = 0; i < n; i++) {
    mpz_urandomm(r, st, s->upto[s->n - 1]); /* the total */
    int lo = 0, hi = s->n - 1;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (mpz_cmp(s->upto[mid], r) > 0)
        hi = mid;
      else
        lo = mid + 1;
    }
    draw[i] = lo;
  }
  mpz_clear(r);
  gmp_randclear(st);
}

/* Where the maps of one part go: the draws' slots of that part, in order. */
typedef struct slots {
  int *maps;       /* [draws][ncells] */
  const int *draw; /* [draws]: the part of each draw */
  int ndraws, ncells, part, next;
} slots;

static int to_slot(void *user, const int *tiles) {
  slots *s = user;
  while (s->next < s->ndraws && s->draw[s->next] != s->part)
    s->next++;
  memcpy(s->maps + (size_t)s->next++ * (size_t)s->ncells, tiles,
         (size_t)s->ncells * sizeof *tiles);
  return 0;
}

/* For each part, as many maps as draws of it, by the dp's exact sampler
 * (a seed of its own), each into its draw's slot of maps; 0 or -1. */
static int sample_drawn(const split *s, const tilesat_count_options *po,
                        const int *draw, int n, int *maps, tilesat_error *err) {
  int ncells = s->parts[draw[0]]->ncells;
  for (int k = 0; k < s->n; k++) {
    int want = 0;
    for (int i = 0; i < n; i++)
      want += draw[i] == k;
    slots sl = {maps, draw, n, ncells, k, 0};
    tilesat_count_options so = *po;
    uint64_t y = po->seed ^ ((uint64_t)k << 32);
    so.seed = ts_splitmix64(&y);
    if (want &&
        tilesat_sample(s->parts[k], &so, want, to_slot, &sl, err) != want)
      return -1;
  }
  return 0;
}

int tilesat_sample_parts(const tilesat_map *m, const tilesat_count_options *o,
                         int nparts, int n, tilesat_map_fn fn, void *user,
                         tilesat_error *err) {
  tilesat_count_options po = *o;
  po.method = TILESAT_METHOD_DP;
  if (o->method != TILESAT_METHOD_AUTO && o->method != TILESAT_METHOD_DP) {
    ts_error_param(
        err, "part-split",
        "sampling by parts takes the dp (--method dp or auto), not %s",
        tilesat_method_name(o->method));
    return -1;
  }
  if (nparts < 1 || nparts > TILESAT_MAX_PARTS) {
    ts_error_param(err, "part-split", "%d parts: at least 1, at most %d",
                   nparts, TILESAT_MAX_PARTS);
    return -1;
  }
  /* the maps are drawn part by part and handed on in the order drawn */
  if (n <= 0 ||
      ts_memory_refuse(m, (double)n * m->ncells * sizeof(int), 0, "sample",
                       err) ||
      ts_dp_refuse(m, &po, "sample", err))
    return n <= 0 ? 0 : -1;
  split s;
  int rc = split_count(&s, m, nparts, &po, err), got = 0;
  if (!rc && mpz_sgn(s.upto[nparts - 1]) > 0) {
    int *draw = ts_malloc((size_t)n * sizeof *draw);
    int *maps = ts_malloc((size_t)n * (size_t)m->ncells * sizeof *maps);
    draw_parts(&s, o->seed, n, draw);
    rc = sample_drawn(&s, &po, draw, n, maps, err);
    for (int i = 0; i < n && !rc; i++) {
      got++;
      if (fn && fn(user, maps + (size_t)i * (size_t)m->ncells))
        break;
    }
    free(draw);
    free(maps);
  }
  split_free(&s);
  return rc ? -1 : got;
}
