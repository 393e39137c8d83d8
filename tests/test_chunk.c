/* chunk: analyze --chunk K, "is every valid border of a KxK chunk completed
 * by a filling?", against brute force: every valid ring listed by the
 * test's own geometry, each filled (or not) by the test's own search. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* The test's own geometry: the ring of a (k+2)x(k+2) frame as a cycle,
 * clockwise from the top-left corner, and directions by name. */
typedef struct frame_geo {
  int k, n;           /* chunk size, frame side n = k + 2 */
  int ring[4 * 66];   /* frame cells (row * n + col) in cycle order */
  int nring;          /* 4 * (k + 1) */
  int dN, dE, dS, dW; /* the library's direction numbers, by name */
} frame_geo;

static void geo_init(frame_geo *g, int k) {
  g->k = k;
  g->n = k + 2;
  g->nring = 0;
  int n = g->n;
  for (int c = 0; c < n - 1; c++) /* top, left to right */
    g->ring[g->nring++] = c;
  for (int r = 0; r < n - 1; r++) /* right, downwards */
    g->ring[g->nring++] = r * n + n - 1;
  for (int c = n - 1; c > 0; c--) /* bottom, right to left */
    g->ring[g->nring++] = (n - 1) * n + c;
  for (int r = n - 1; r > 0; r--) /* left, upwards */
    g->ring[g->nring++] = r * n;
  g->dN = tilesat_dir_find(TILESAT_SQUARE, "N");
  g->dE = tilesat_dir_find(TILESAT_SQUARE, "E");
  g->dS = tilesat_dir_find(TILESAT_SQUARE, "S");
  g->dW = tilesat_dir_find(TILESAT_SQUARE, "W");
}

/* The direction from cell a to its neighbour b in the frame. */
static int dir_to(const frame_geo *g, int a, int b) {
  int dr = b / g->n - a / g->n, dc = b % g->n - a % g->n;
  return dr < 0 ? g->dN : dr > 0 ? g->dS : dc > 0 ? g->dE : g->dW;
}

/* May tile t stand at ring cell c: something allowed on each outer side? */
static bool outer_ok(const tilesat_rules *r, const frame_geo *g, int c, int t) {
  int row = c / g->n, col = c % g->n, T = tilesat_rules_ntiles(r);
  int sides[4] = {row == 0 ? g->dN : -1, row == g->n - 1 ? g->dS : -1,
                  col == 0 ? g->dW : -1, col == g->n - 1 ? g->dE : -1};
  for (int s = 0; s < 4; s++) {
    bool any = sides[s] < 0;
    for (int b = 0; b < T && !any; b++)
      any = tilesat_rules_allows(r, t, sides[s], b);
    if (!any)
      return false;
  }
  return true;
}

/* Fill the chunk cells from `at` on (row-major), each next to every cell
 * already holding a tile (the ring, earlier chunk cells). */
static bool fill(const tilesat_rules *r, const frame_geo *g, int *tiles,
                 int at) {
  int n = g->n;
  while (at < n * n &&
         (at / n == 0 || at / n == n - 1 || at % n == 0 || at % n == n - 1))
    at++;
  if (at == n * n)
    return true;
  int T = tilesat_rules_ntiles(r);
  int nb[4] = {at - n, at - 1, at + 1, at + n};
  bool known[4] = {true, true, at % n == n - 2, at / n == n - 2};
  for (int t = 0; t < T; t++) {
    bool ok = true;
    for (int i = 0; i < 4 && ok; i++)
      ok = !known[i] ||
           tilesat_rules_allows(r, t, dir_to(g, at, nb[i]), tiles[nb[i]]);
    if (!ok)
      continue;
    tiles[at] = t;
    if (fill(r, g, tiles, at + 1))
      return true;
  }
  tiles[at] = -1;
  return false;
}

typedef struct brute {
  long rings;    /* valid rings seen */
  bool failed;   /* one of them has no filling */
  int *unfilled; /* that ring (frame tiles, -1 inside) */
} brute;

/* Every valid ring, in cycle order, until one has no filling. */
static void rings(const tilesat_rules *r, const frame_geo *g, int *tiles, int i,
                  brute *b) {
  if (b->failed)
    return;
  if (i == g->nring) {
    b->rings++;
    int first = g->ring[0], last = g->ring[g->nring - 1];
    if (!tilesat_rules_allows(r, tiles[last], dir_to(g, last, first),
                              tiles[first]))
      return;
    int *copy = malloc((size_t)g->n * (size_t)g->n * sizeof *copy);
    memcpy(copy, tiles, (size_t)g->n * (size_t)g->n * sizeof *copy);
    if (!fill(r, g, copy, 0)) {
      b->failed = true;
      memcpy(b->unfilled, tiles, (size_t)g->n * (size_t)g->n * sizeof *copy);
    }
    free(copy);
    return;
  }
  int c = g->ring[i], T = tilesat_rules_ntiles(r);
  for (int t = 0; t < T && !b->failed; t++) {
    if (!outer_ok(r, g, c, t))
      continue;
    if (i > 0 && !tilesat_rules_allows(r, tiles[g->ring[i - 1]],
                                       dir_to(g, g->ring[i - 1], c), t))
      continue;
    tiles[c] = t;
    rings(r, g, tiles, i + 1, b);
  }
  tiles[c] = -1;
}

/* Is a border (frame tiles) valid, by the test's geometry? */
static bool ring_valid(const tilesat_rules *r, const frame_geo *g,
                       const int *tiles) {
  for (int i = 0; i < g->nring; i++) {
    int c = g->ring[i], next = g->ring[(i + 1) % g->nring];
    if (tiles[c] < 0 || !outer_ok(r, g, c, tiles[c]) ||
        !tilesat_rules_allows(r, tiles[c], dir_to(g, c, next), tiles[next]))
      return false;
  }
  return true;
}

/* The library's answer at k against brute force; a border it reports is
 * valid, has no filling by the test's search, and pinned on a frame map
 * check says UNSAT.  Returns the library's answer: 1 complete, 2 complete
 * with no valid border at all, 0 not complete. */
static int cross_check(const tilesat_rules *r, int k, const char *what) {
  frame_geo g;
  geo_init(&g, k);
  int nn = g.n * g.n;
  int *tiles = malloc((size_t)nn * sizeof *tiles);
  int *unfilled = malloc((size_t)nn * sizeof *unfilled);
  int *border = malloc((size_t)nn * sizeof *border);
  for (int c = 0; c < nn; c++)
    tiles[c] = -1;
  brute b = {.unfilled = unfilled};
  rings(r, &g, tiles, 0, &b);
  tilesat_error err;
  long refuted = -1;
  int got = 0;
  for (int i = 0; i < NBACKENDS; i++) {
    got = tilesat_chunk_check(r, k, TILESAT_SQUARE, SOLVE(backends[i]), border,
                              &refuted, &err);
    cr_assert_geq(got, 0, "%s k=%d: %s", what, k, err.msg);
    cr_expect_eq(got, !b.failed, "%s k=%d %s: library %d, brute force %s", what,
                 k, tilesat_backend_name(backends[i]), got,
                 b.failed ? "found a border with no filling" : "complete");
    if (got)
      continue;
    cr_expect(ring_valid(r, &g, border), "%s k=%d: border not valid", what, k);
    for (int c = 0; c < nn; c++)
      tiles[c] = c / g.n == 0 || c / g.n == g.n - 1 || c % g.n == 0 ||
                         c % g.n == g.n - 1
                     ? border[c]
                     : -1;
    cr_expect(!fill(r, &g, tiles, 0), "%s k=%d: the border has a filling", what,
              k);
    tilesat_map *m = tilesat_chunk_frame(r, k, TILESAT_SQUARE, &err);
    for (int i2 = 0; i2 < g.nring; i2++) {
      int c = g.ring[i2];
      cr_assert_eq(tilesat_map_pin(m, c / g.n, c % g.n,
                                   tilesat_rules_tile_name(r, border[c]), &err),
                   0, "%s", err.msg);
    }
    cr_expect_eq(tilesat_check(m, NULL, NULL, &err), TILESAT_UNSAT,
                 "%s k=%d: the pinned border is satisfiable", what, k);
    tilesat_map_free(m);
  }
  if (got && !b.rings)
    cr_expect_eq(refuted, 0, "%s k=%d: no ring, yet refutations", what, k);
  free(tiles);
  free(unfilled);
  free(border);
  return got && !b.rings ? 2 : got;
}

/* The text rule sets whose valid borders are few enough to list (entropy7
 * allows almost every pair: billions of borders at 2x2). */
Test(chunk, text_rules_against_brute_force) {
  const struct {
    const char *file;
    int kmax;
  } cases[] = {{"rules/coast.rules", 3},
               {"rules/hard.rules", 3},
               {"rules/dungeon8.rules", 2},
               {"rules/patchwork16.rules", 1}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_rules *r = rules_from_file(cases[i].file);
    for (int k = 1; k <= cases[i].kmax; k++)
      cross_check(r, k, cases[i].file);
    tilesat_rules_free(r);
  }
}

Test(chunk, random_rules_against_brute_force) {
  test_rng = 16;
  int answers[3] = {0, 0, 0};
  for (int iter = 0; iter < 60; iter++) {
    int T = 2 + (int)rnd(3);
    tilesat_rules *r = random_rules(T, TILESAT_SQUARE, 3 + (int)rnd(5));
    char what[64];
    snprintf(what, sizeof what, "random case %d (%d tiles)", iter, T);
    for (int k = 1; k <= (T == 2 ? 3 : 2); k++)
      answers[cross_check(r, k, what)]++;
    tilesat_rules_free(r);
  }
  /* every answer comes up: the cross-check is not vacuous */
  for (int a = 0; a < 3; a++)
    cr_expect_gt(answers[a], 0, "answer %d never came up", a);
}

Test(chunk, knots_against_brute_force) {
  tilesat_rules *r = tileset("Knots");
  cross_check(r, 1, "Knots");
  tilesat_rules_free(r);
}
