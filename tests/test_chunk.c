/* chunk: analyze --chunk K, "is every valid border of a KxK chunk completed
 * by a filling?", against brute force: every valid ring listed by the
 * test's own geometry, each filled (or not) by the test's own search. */
#include "helpers.h"
#include "png_helpers.h"

#include <stdlib.h>
#include <string.h>

/* The test's own geometry: the ring of a (k+2)x(k+2) frame as a cycle,
 * clockwise from the top-left corner, and directions by name. */
typedef struct frame_geo {
  int k, n;           /* chunk size, frame side n = k + 2 */
  int ring[4 * 66];   /* frame cells (row * n + col) in cycle order */
  int nring;          /* 4 * (k + 1) */
  int dN, dE, dS, dW; /* the library's direction numbers, by name */
  /* the rules' pairs, read once (tilesat_rules_allows) for the searches,
   * which ask millions of times: ok[(a * 4 + d) * T + b] for tile b in
   * direction d of tile a, and out[t * 4 + d]: may t have something in
   * direction d at all; fits[b * 4 + d]: the tiles (bits, up to 64 tiles,
   * else NULL) that allow b in their direction d */
  int T;
  bool *ok, *out;
  uint64_t *fits;
} frame_geo;

/* The rules' pairs into g (geo_init first); geo_free frees them. */
static void geo_rules(frame_geo *g, const tilesat_rules *r) {
  int T = tilesat_rules_ntiles(r);
  g->T = T;
  g->ok = calloc((size_t)T * 4 * (size_t)T + 1, sizeof *g->ok);
  g->out = calloc((size_t)T * 4 + 1, sizeof *g->out);
  g->fits = T <= 64 ? calloc((size_t)T * 4 + 1, sizeof *g->fits) : NULL;
  cr_assert(g->ok && g->out && (T > 64 || g->fits));
  for (int a = 0; a < T; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < T; b++)
        if ((g->ok[(a * 4 + d) * T + b] = tilesat_rules_allows(r, a, d, b))) {
          g->out[a * 4 + d] = true;
          if (g->fits)
            g->fits[b * 4 + d] |= (uint64_t)1 << a;
        }
}

static void geo_free(frame_geo *g) {
  free(g->ok);
  free(g->out);
  free(g->fits);
}

/* May tile b stand in direction d of tile a (by the table)? */
static bool allows(const frame_geo *g, int a, int d, int b) {
  return a >= 0 && a < g->T && b >= 0 && b < g->T &&
         g->ok[(a * 4 + d) * g->T + b];
}

static void geo_init(frame_geo *g, int k) {
  g->k = k;
  g->T = 0;
  g->ok = g->out = NULL;
  g->fits = NULL;
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
  (void)r;
  if (t < 0 || t >= g->T)
    return false;
  int row = c / g->n, col = c % g->n;
  int sides[4] = {row == 0 ? g->dN : -1, row == g->n - 1 ? g->dS : -1,
                  col == 0 ? g->dW : -1, col == g->n - 1 ? g->dE : -1};
  for (int s = 0; s < 4; s++)
    if (sides[s] >= 0 && !g->out[t * 4 + sides[s]])
      return false; /* nothing allowed on that outer side */
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
  int T = g->T;
  int nb[4] = {at - n, at - 1, at + 1, at + n};
  bool known[4] = {true, true, at % n == n - 2, at / n == n - 2};
  int dir[4];
  for (int i = 0; i < 4; i++)
    dir[i] = dir_to(g, at, nb[i]);
  /* the tiles that allow every known neighbour (by the table's bits when
   * there are up to 64 tiles, else tile by tile) */
  uint64_t can = ~(uint64_t)0;
  for (int i = 0; i < 4 && g->fits; i++)
    if (known[i])
      can &= tiles[nb[i]] >= 0 && tiles[nb[i]] < T
                 ? g->fits[tiles[nb[i]] * 4 + dir[i]]
                 : 0;
  for (int t = g->fits ? (can ? __builtin_ctzll(can) : T) : 0; t < T;
       t = g->fits ? ((can &= can - 1) ? __builtin_ctzll(can) : T) : t + 1) {
    bool ok = true;
    for (int i = 0; i < 4 && ok && !g->fits; i++)
      ok = !known[i] || allows(g, t, dir[i], tiles[nb[i]]);
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
  int *copy;     /* the search's frame */
} brute;

/* Every valid ring, in cycle order, until one has no filling. */
static void rings(const tilesat_rules *r, const frame_geo *g, int *tiles, int i,
                  brute *b) {
  if (b->failed)
    return;
  if (i == g->nring) {
    b->rings++;
    int first = g->ring[0], last = g->ring[g->nring - 1];
    if (!allows(g, tiles[last], dir_to(g, last, first), tiles[first]))
      return;
    int *copy = b->copy;
    memcpy(copy, tiles, (size_t)g->n * (size_t)g->n * sizeof *copy);
    if (!fill(r, g, copy, 0)) {
      b->failed = true;
      memcpy(b->unfilled, tiles, (size_t)g->n * (size_t)g->n * sizeof *copy);
    }
    return;
  }
  int c = g->ring[i], T = g->T;
  for (int t = 0; t < T && !b->failed; t++) {
    if (!outer_ok(r, g, c, t))
      continue;
    if (i > 0 &&
        !allows(g, tiles[g->ring[i - 1]], dir_to(g, g->ring[i - 1], c), t))
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
        !allows(g, tiles[c], dir_to(g, c, next), tiles[next]))
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
  geo_rules(&g, r);
  int nn = g.n * g.n;
  int *tiles = malloc((size_t)nn * sizeof *tiles);
  int *unfilled = malloc((size_t)nn * sizeof *unfilled);
  int *border = malloc((size_t)nn * sizeof *border);
  int *copy = malloc((size_t)nn * sizeof *copy);
  for (int c = 0; c < nn; c++)
    tiles[c] = -1;
  brute b = {.unfilled = unfilled, .copy = copy};
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
  free(copy);
  geo_free(&g);
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
  int answers[3] = {0, 0, 0}, wide_complete = 0;
  for (int iter = 0, ncases = test_cases(30); iter < ncases; iter++) {
    int T = 2 + (int)rnd(3);
    tilesat_rules *r = random_rules(T, TILESAT_SQUARE, 3 + (int)rnd(5));
    char what[64];
    snprintf(what, sizeof what, "random case %d (%d tiles)", iter, T);
    /* 3x3 and up widen fillings (chunk.c): 3 tiles at 3x3 check that */
    for (int k = 1; k <= (T <= 3 ? 3 : 2) + (T == 2); k++) {
      int a = cross_check(r, k, what);
      answers[a]++;
      wide_complete += k >= 3 && a == 1;
    }
    tilesat_rules_free(r);
  }
  /* every answer comes up: the cross-check is not vacuous */
  for (int a = 0; a < 3; a++)
    cr_expect_gt(answers[a], 0, "answer %d never came up", a);
  cr_expect_gt(wide_complete, 0, "no complete answer with widening");
}

Test(chunk, knots_against_brute_force) {
  tilesat_rules *r = tileset("Knots");
  cross_check(r, 1, "Knots");
  tilesat_rules_free(r);
}

/* How many of the 8 symmetries of the square the rules keep, by the test's
 * own search: every direction map (quarter turns, then a mirror), every
 * permutation of the (at most 5) tiles. */
static int brute_symmetries(const tilesat_rules *r) {
  frame_geo g;
  geo_init(&g, 1);
  int T = tilesat_rules_ntiles(r), count = 0;
  int turn[4] = {g.dN, g.dE, g.dS, g.dW}; /* clockwise */
  for (int s = 0; s < 8; s++) {
    int gd[4]; /* by the library's numbers */
    for (int i = 0; i < 4; i++) {
      int j = (i + (s & 3)) % 4, d = turn[j];
      if (s & 4)
        d = d == g.dE ? g.dW : d == g.dW ? g.dE : d;
      gd[turn[i]] = d;
    }
    int p[5] = {0, 1, 2, 3, 4}, total = 1;
    for (int i = 2; i <= T; i++)
      total *= i;
    bool found = false;
    for (int n = 0; n < total && !found; n++) {
      int rest[5] = {0, 1, 2, 3, 4}, left = T, x = n;
      for (int i = 0; i < T; i++) { /* the n-th permutation */
        int pick = x % left;
        x /= left;
        p[i] = rest[pick];
        rest[pick] = rest[--left];
      }
      found = true;
      for (int a = 0; a < T && found; a++)
        for (int d = 0; d < 4 && found; d++)
          for (int b = 0; b < T && found; b++)
            found = tilesat_rules_allows(r, a, d, b) ==
                    tilesat_rules_allows(r, p[a], gd[d], p[b]);
    }
    count += found;
  }
  return count;
}

/* Random rules with a symmetry planted: the same symmetric relation on
 * every side (all 8), or on east-west only (a mirror at least). */
static tilesat_rules *symmetric_rules(int T, bool all_sides, int p) {
  bool ew[5][5], ns[5][5];
  for (int a = 0; a < T; a++)
    for (int b = 0; b <= a; b++) {
      ew[a][b] = ew[b][a] = rnd(8) < (unsigned)p;
      ns[a][b] = rnd(8) < (unsigned)p;
      ns[b][a] = all_sides ? ns[a][b] : rnd(8) < (unsigned)p;
    }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  fprintf(f, "tilesat-rules 1\ntopology square\n");
  for (int t = 0; t < T; t++)
    fprintf(f, "tile %c\n", 'a' + t);
  for (int a = 0; a < T; a++) {
    const char *dirs[4] = {"N", "S", "E", "W"};
    for (int d = 0; d < 4; d++) {
      fprintf(f, "allow %c %s", 'a' + a, dirs[d]);
      for (int b = 0; b < T; b++)
        if (d >= 2 || all_sides ? ew[a][b] : d == 0 ? ns[a][b] : ns[b][a])
          fprintf(f, " %c", 'a' + b);
      fputc('\n', f);
    }
  }
  fclose(f);
  tilesat_rules *r = rules_from_text(text);
  free(text);
  return r;
}

/* The refutations' symmetric images are learned only under symmetries the
 * rules keep: the count matches the test's own search, and the answers
 * still match brute force, with and without symmetry. */
Test(chunk, symmetric_rules_against_brute_force) {
  test_rng = 61;
  int seen[9] = {0};
  tilesat_error err;
  for (int iter = 0, ncases = test_cases(24); iter < ncases; iter++) {
    int T = 2 + (int)rnd(3);
    tilesat_rules *r = iter % 3 == 2
                           ? random_rules(T, TILESAT_SQUARE, 3 + (int)rnd(5))
                           : symmetric_rules(T, iter % 3 == 0, 3 + (int)rnd(5));
    int n = tilesat_chunk_symmetries(r, &err);
    cr_expect_eq(n, brute_symmetries(r), "case %d: %d symmetries", iter, n);
    seen[n < 0 ? 0 : n]++;
    char what[64];
    snprintf(what, sizeof what, "symmetric case %d (%d tiles, %d)", iter, T, n);
    for (int k = 1; k <= (T <= 3 ? 3 : 2); k++)
      cross_check(r, k, what);
    tilesat_rules_free(r);
  }
  cr_expect_gt(seen[1], 0, "no rules without symmetry");
  cr_expect_gt(seen[8], 0, "no rules with every symmetry");
  tilesat_rules *knots = tileset("Knots");
  cr_expect_eq(tilesat_chunk_symmetries(knots, &err), 8);
  tilesat_rules_free(knots);
}

/* The first line the CLI prints for a border with no filling. */
static void not_complete_line(char *buf, size_t len, int k, long n,
                              const char *free_name) {
  snprintf(buf, len,
           "not complete at %d: no filling completes this border of a %dx%d "
           "chunk (%ld refutation%s before it; %s marks the chunk):\n",
           k, k, k, n, n == 1 ? "" : "s", free_name);
}

/* The library's answer at k, as the CLI should print it. */
static char *expected_text(const tilesat_rules *r, int k, int *answer) {
  tilesat_error err;
  int nn = (k + 2) * (k + 2);
  int *border = malloc((size_t)nn * sizeof *border);
  long n = 0;
  *answer = tilesat_chunk_check(r, k, TILESAT_SQUARE, NULL, border, &n, &err);
  cr_assert_geq(*answer, 0, "%s", err.msg);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (*answer) {
    fprintf(f,
            "complete at %d: every valid border of a %dx%d chunk has a "
            "filling (%ld refutation%s%s)\n",
            k, k, k, n, n == 1 ? "" : "s",
            n ? "" : ": the rules allow no border at all");
  } else {
    char line[256];
    not_complete_line(line, sizeof line, k, n, tilesat_chunk_free_name(r));
    fputs(line, f);
    tilesat_map *frame = tilesat_chunk_frame(r, k, TILESAT_SQUARE, &err);
    tilesat_chunk_write(frame, border, f);
    tilesat_map_free(frame);
  }
  fclose(f);
  free(border);
  return text;
}

/* The border the CLI printed (after its first line), written to a file
 * and given back to check with --pins-from: UNSAT, exit 20. */
static void expect_border_unsat(const char *rules, const char *out, int k,
                                const char *free_name) {
  const char *grid = strchr(out, '\n');
  cr_assert(grid);
  char *dir = temp_dir();
  char path[512], size[32];
  snprintf(path, sizeof path, "%s/border.txt", dir);
  FILE *f = fopen(path, "w");
  fputs(grid + 1, f);
  fclose(f);
  snprintf(size, sizeof size, "%dx%d", k + 2, k + 2);
  run_result c = RUN("check", rules, "--size", size, "--pins-from", path,
                     "--free-tile", free_name);
  cr_expect_eq(c.code, 20, "check of the border: exit %d: %s", c.code, c.err);
  cr_expect_str_eq(c.out, "UNSAT\n");
  run_free(&c);
  rm_dir(dir);
}

Test(chunk, cli_counterexample_is_unsat_and_drawn) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  int answer;
  char *want = expected_text(r, 2, &answer);
  cr_assert_eq(answer, 0, "coast at 2x2 was expected to have a bad border");
  char *dir = temp_dir(), png[512];
  snprintf(png, sizeof png, "%s/border.png", dir);
  run_result got =
      RUN("analyze", "rules/coast.rules", "--chunk", "2", "--png", png);
  cr_expect_eq(got.code, 0, "%s", got.err);
  char said[600];
  snprintf(said, sizeof said, "tilesat: wrote %s\n", png);
  cr_expect_str_eq(got.err, said);
  cr_expect_str_eq(got.out, want);
  expect_border_unsat("rules/coast.rules", got.out, 2, ".");
  /* the picture: the 4x4 frame, the chunk's 2x2 cells transparent */
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_expect_eq(w % 4, 0);
  cr_expect_eq(h, w);
  int cell = w / 4;
  cr_expect_eq(pixel_at(px, w, cell + cell / 2, cell + cell / 2)[3], 0,
               "a chunk cell is drawn");
  cr_expect_eq(pixel_at(px, w, cell / 2, cell / 2)[3], 255,
               "a border cell is transparent");
  free(px);
  rm_dir(dir);
  run_free(&got);
  free(want);
  tilesat_rules_free(r);
}

/* Tile names of many characters: a name grid, read back by --pins-from. */
Test(chunk, cli_name_grid_counterexample_reads_back) {
  tilesat_rules *r = tileset("Circuit");
  char *file = rules_file(r);
  int answer;
  char *want = expected_text(r, 3, &answer);
  cr_assert_eq(answer, 0, "Circuit at 3x3 was expected to have a bad border");
  run_result got = RUN("analyze", file, "--chunk", "3");
  cr_expect_eq(got.code, 0, "%s", got.err);
  cr_expect_str_eq(got.out, want);
  cr_expect(strstr(got.out, "\ntilesat-grid names\n"), "%s", got.out);
  expect_border_unsat(file, got.out, 3, tilesat_chunk_free_name(r));
  run_free(&got);
  free(want);
  remove(file);
  free(file);
  tilesat_rules_free(r);
}

Test(chunk, cli_chunk_max_stops_at_the_smallest_complete) {
  tilesat_rules *r = rules_from_file("rules/entropy7.rules");
  int answer;
  char *first = expected_text(r, 1, &answer);
  cr_assert_eq(answer, 1, "entropy7 at 1x1 was expected to be complete");
  char want[1024];
  snprintf(want, sizeof want, "%ssmallest complete chunk: 1x1\n", first);
  run_result got = RUN("analyze", "rules/entropy7.rules", "--chunk", "1",
                       "--chunk-max", "4");
  cr_expect_eq(got.code, 0, "%s", got.err);
  cr_expect_str_eq(got.out, want);
  run_free(&got);
  free(first);
  tilesat_rules_free(r);

  r = rules_from_file("rules/coast.rules");
  char *a = expected_text(r, 1, &answer);
  cr_assert_eq(answer, 0);
  char *b = expected_text(r, 2, &answer);
  cr_assert_eq(answer, 0);
  snprintf(want, sizeof want, "%s%sno chunk size from 1 to 2 is complete\n", a,
           b);
  got = RUN("analyze", "rules/coast.rules", "--chunk", "1", "--chunk-max", "2");
  cr_expect_eq(got.code, 0, "%s", got.err);
  cr_expect_str_eq(got.out, want);
  run_free(&got);
  free(a);
  free(b);
  tilesat_rules_free(r);
}

Test(chunk, cli_refuses) {
  expect_cli_error("tilesat: --chunk: hex chunks are not supported yet "
                   "(square topology only)\n",
                   "analyze", "rules/coast-hex.rules", "--chunk", "2");
  expect_cli_error("tilesat: --chunk-max: 2 is less than --chunk 3\n",
                   "analyze", "rules/coast.rules", "--chunk", "3",
                   "--chunk-max", "2");
  expect_cli_error("tilesat: --png: only with --chunk K\n", "analyze",
                   "rules/coast.rules", "--png", "x.png");
  expect_cli_error("tilesat: --chunk-max: only with --chunk K\n", "analyze",
                   "rules/coast.rules", "--chunk-max", "4");
  expect_cli_error("tilesat: --periodic: not with --chunk (a chunk is not a "
                   "map of its own)\n",
                   "analyze", "rules/coast.rules", "--chunk", "2",
                   "--periodic");
  expect_cli_error("tilesat: --chunk: '0' is not a whole number from 1 to 64\n",
                   "analyze", "rules/coast.rules", "--chunk", "0");
}
