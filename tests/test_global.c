/* test_global.c: global constraints (count, connected, path, border).
 * Every count is checked against the test's own reading of the
 * constraint: its own flood fill over brute_count's own neighbour
 * geometry, its own counting, never the library's encoder or checker. */
#include "own_check.h"

#include <gmp.h>
#include <stdlib.h>

static void add_constraints(tilesat_map *m, const char *lines) {
  char text[512];
  snprintf(text, sizeof text, "tilesat-constraints 1\n%s\n", lines);
  tilesat_error err;
  cr_assert_eq(
      tilesat_map_constraints_parse(m, text, strlen(text), "test", &err), 0,
      "%s: %s", lines, err.msg);
}

/* sets: count options' dp_sets (with the seen key) */
static long count_keyed(const tilesat_map *m, tilesat_method method,
                        tilesat_backend b, bool plain, int sets) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = method;
  o.solve.backend = b;
  o.dp_plain_key = plain;
  o.dp_sets = sets;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  long n = atol(res.count);
  tilesat_count_result_free(&res);
  return n;
}

static long count_by(const tilesat_map *m, tilesat_method method,
                     tilesat_backend b) {
  return count_keyed(m, method, b, false, 0);
}

/* The dp with the plain key (each placed tile's class), which the seen key
 * (what the cells to come can see) must agree with; and the seen key with
 * its candidate sets numbered as met, and held themselves (as where their
 * numbers cannot be built before the run), which must count the same. */
static long count_plain(const tilesat_map *m) {
  long n = count_keyed(m, TILESAT_METHOD_DP, TILESAT_PICOSAT, true, 0);
  for (int sets = 1; sets <= 2; sets++)
    cr_expect_eq(
        count_keyed(m, TILESAT_METHOD_DP, TILESAT_PICOSAT, false, sets), n,
        "the seen key with dp_sets %d against the plain key", sets);
  return n;
}

/* Random rules, sizes and constraints: enumeration with the constraints
 * (every backend), the dp on all but paths (counts in rectangles,
 * connected with "nonempty" and "at", borders), and check, against brute
 * force filtered by the test's own reading. */
Test(global, random_constraints_counted_as_brute_force_counts) {
  test_rng = 15;
  long kept = 0, zero = 0, lazy = 0;
  for (int iter = 0; iter < 160; iter++) {
    spec s = {0};
    s.topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    s.periodic = (iter / 2) % 3 == 0;
    int T = 2 + (int)rnd(2);
    s.w = 1 + (int)rnd(3);
    s.h = 1 + (int)rnd(3);
    if (s.periodic && s.topo == TILESAT_HEX && s.h % 2)
      s.h = s.h == 3 ? 2 : s.h + 1;
    tilesat_rules *r = random_rules(T, s.topo, 4 + (int)rnd(4));
    char line[128];
    random_spec(&s, T, line, sizeof line);
    long want =
        brute_count_if(r, s.w, s.h, s.topo, s.periodic, NULL, 0, keeps, &s);
    tilesat_map *m = map_new(r, s.w, s.h, s.topo, s.periodic);
    add_constraints(m, line);
    for (int b = 0; b < NBACKENDS; b++)
      cr_expect_eq(count_by(m, TILESAT_METHOD_ENUM, backends[b]), want,
                   "iter %d %s %dx%d%s: %s on %s", iter,
                   tilesat_topology_name(s.topo), s.w, s.h,
                   s.periodic ? " periodic" : "", line,
                   tilesat_backend_name(backends[b]));
    if (s.kind != TILESAT_GLOBAL_PATH) {
      cr_expect_eq(count_by(m, TILESAT_METHOD_DP, TILESAT_PICOSAT), want,
                   "iter %d %s %dx%d%s: %s by the dp", iter,
                   tilesat_topology_name(s.topo), s.w, s.h,
                   s.periodic ? " periodic" : "", line);
      cr_expect_eq(count_plain(m), want, "iter %d: %s by the plain dp", iter,
                   line);
    }
    int *tiles = malloc((size_t)(s.w * s.h) * sizeof *tiles);
    tilesat_error err;
    int res = tilesat_check(m, SOLVE(TILESAT_PICOSAT), tiles, &err);
    cr_expect_eq(res, want ? TILESAT_SAT : TILESAT_UNSAT, "iter %d: %s", iter,
                 line);
    if (res == TILESAT_SAT)
      cr_expect(keeps(&s, tiles), "iter %d: the witness breaks %s", iter, line);
    free(tiles);
    kept += want > 0;
    zero += want == 0;
    lazy += s.kind == TILESAT_GLOBAL_CONNECTED || s.kind == TILESAT_GLOBAL_PATH;
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  /* the cases are not all trivial one way or the other */
  cr_expect(kept > 40 && zero > 10 && lazy > 40, "kept %ld, none %ld, lazy %ld",
            kept, zero, lazy);
}

/* --------------------------------------------------------- the dungeon */

static tilesat_map *dungeon(const tilesat_rules *r, int w, int h,
                            bool periodic) {
  tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), periodic);
  tilesat_error err;
  cr_assert_eq(
      tilesat_map_constraints_read_file(m, "rules/dungeon8.constraints", &err),
      0, "%s", err.msg);
  return m;
}

static spec floor_spec(const tilesat_rules *r, int w, int h, bool periodic) {
  spec s = {.kind = TILESAT_GLOBAL_CONNECTED, .at = -1, .w = w, .h = h};
  s.topo = tilesat_rules_topology(r);
  s.periodic = periodic;
  const char *floor[] = {".", "+", ",", "="};
  for (int i = 0; i < 4; i++) {
    int t = tilesat_rules_find_tile(r, floor[i]);
    cr_assert(t >= 0 && t < 16);
    s.in[t] = true;
  }
  return s;
}

typedef struct filtered {
  spec *s;
  long kept;
} filtered;

static int filter_map(void *user, const int *tiles) {
  filtered *f = user;
  f->kept += keeps(f->s, tiles);
  return 0;
}

/* Every map of r on s's grid, by the test's own search: cells in order,
 * each tile checked, as soon as both cells are placed, against every pair
 * brute_neighbor gives (tilesat_rules_allows read once into a table), the
 * pins ("ROW,COL=TILE", npins of them) kept; each map to filter_map.
 * Returns how many. */
static long own_enumerate(const tilesat_rules *r, const spec *s,
                          const char *const *pins, int npins, filtered *f) {
  int n = s->w * s->h, T = tilesat_rules_ntiles(r);
  int nd = s->topo == TILESAT_HEX ? 6 : 4;
  bool *allow = malloc((size_t)T * (size_t)nd * (size_t)T * sizeof *allow);
  for (int a = 0; a < T; a++)
    for (int d = 0; d < nd; d++)
      for (int b = 0; b < T; b++)
        allow[(a * nd + d) * T + b] = tilesat_rules_allows(r, a, d, b);
  /* the pairs (cell, direction, neighbour), by the later of their cells */
  int *pairs = malloc((size_t)n * (size_t)nd * 3 * sizeof *pairs);
  int *first = calloc((size_t)n + 1, sizeof *first), npairs = 0;
  for (int last = 0; last < n; last++) {
    first[last] = npairs;
    for (int c = 0; c <= last; c++)
      for (int d = 0; d < nd; d++) {
        int nr, nc;
        if (!brute_neighbor(s->topo, s->w, s->h, s->periodic, c / s->w,
                            c % s->w, d, &nr, &nc))
          continue;
        int y = nr * s->w + nc;
        if ((c > y ? c : y) != last)
          continue;
        pairs[3 * npairs] = c;
        pairs[3 * npairs + 1] = d;
        pairs[3 * npairs++ + 2] = y;
      }
  }
  first[n] = npairs;
  int *pin = malloc((size_t)n * sizeof *pin);
  for (int c = 0; c < n; c++)
    pin[c] = -1;
  for (int i = 0; i < npins; i++) {
    int row, col, used = 0;
    cr_assert_eq(sscanf(pins[i], "%d,%d=%n", &row, &col, &used), 2, "%s",
                 pins[i]);
    int t = tilesat_rules_find_tile(r, pins[i] + used);
    cr_assert(used && t >= 0 && row >= 0 && row < s->h && col >= 0 &&
                  col < s->w,
              "%s", pins[i]);
    pin[row * s->w + col] = t;
  }
  int *tiles = malloc((size_t)n * sizeof *tiles);
  long all = 0;
  int c = 0;
  tiles[0] = -1;
  while (c >= 0) { /* tiles[c]: the next tile to try at c, after it */
    int t = ++tiles[c];
    if (t >= T || (pin[c] >= 0 && t > pin[c])) {
      c--; /* every tile tried: back */
      continue;
    }
    if (pin[c] >= 0 && t != pin[c])
      continue;
    bool ok = true;
    for (int k = first[c]; k < first[c + 1] && ok; k++)
      ok = allow[(tiles[pairs[3 * k]] * nd + pairs[3 * k + 1]) * T +
                 tiles[pairs[3 * k + 2]]];
    if (!ok)
      continue;
    if (c == n - 1) {
      all++;
      filter_map(f, tiles);
    } else {
      tiles[++c] = -1;
    }
  }
  free(allow);
  free(pairs);
  free(first);
  free(pin);
  free(tiles);
  return all;
}

/* "floor connected": enumeration with cuts (every backend) and the dp's
 * connectivity-tracking count against every map enumerated without the
 * constraint (by the test's own search), filtered by the test's flood
 * fill; square, hex (dungeon8.txt extracted as hex), periodic, and pinned
 * (floor in two corners, or a wall in the middle). */
Test(global, dungeon_floor_connected_counted_as_filtered_enumeration) {
  tilesat_rules *square = rules_from_file("rules/dungeon8.rules");
  char *grid = slurp("rules/dungeon8.txt");
  tilesat_rules *hex = rules_from_sample(grid, TILESAT_HEX, false);
  free(grid);
  struct {
    tilesat_rules *r;
    int w, h;
    bool periodic;
    const char *pins[2];
  } cases[] = {{square, 3, 3, false, {NULL, NULL}},
               {hex, 3, 3, false, {NULL, NULL}},
               {square, 4, 2, true, {NULL, NULL}},
               {hex, 3, 2, true, {NULL, NULL}},
               {square, 3, 3, false, {"0,0=.", "2,2=,"}},
               {hex, 3, 3, false, {"1,1=#", NULL}},
               {square, 4, 3, false, {"1,1=#", "0,3=."}},
               {hex, 4, 3, false, {"0,0=.", "2,3=."}}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_rules *r = cases[i].r;
    int w = cases[i].w, h = cases[i].h;
    spec s = floor_spec(r, w, h, cases[i].periodic);
    tilesat_map *m = dungeon(r, w, h, s.periodic);
    filtered f = {&s, 0};
    tilesat_error err;
    for (int k = 0; k < 2 && cases[i].pins[k]; k++)
      cr_assert_eq(tilesat_map_pin_spec(m, cases[i].pins[k], &err), 0, "%s",
                   err.msg);
    int npins = 0;
    while (npins < 2 && cases[i].pins[npins])
      npins++;
    long all = own_enumerate(r, &s, cases[i].pins, npins, &f);
    cr_assert(all > 0, "case %zu: no map", i);
    cr_expect(f.kept > 0 && f.kept < all, "case %zu: %ld of %lld", i, f.kept,
              (long long)all);
    for (int b = 0; b < NBACKENDS && i < 4; b++)
      cr_expect_eq(
          count_by(m, TILESAT_METHOD_ENUM, backends[b]), f.kept,
          "case %zu (%s %dx%d%s) on %s", i, tilesat_topology_name(s.topo), w, h,
          s.periodic ? " periodic" : "", tilesat_backend_name(backends[b]));
    cr_expect_eq(count_by(m, TILESAT_METHOD_DP, TILESAT_PICOSAT), f.kept,
                 "case %zu (%s %dx%d%s) by the dp", i,
                 tilesat_topology_name(s.topo), w, h,
                 s.periodic ? " periodic" : "");
    tilesat_map_free(m);
  }
  tilesat_rules_free(square);
  tilesat_rules_free(hex);
}

/* A 16x16 dungeon with floor pinned in three corners and the middle: the
 * witness of every backend has one region of floor, by the test's flood
 * fill, and keeps the pins. */
Test(global, dungeon_witness_is_connected) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  const char *pins[] = {"0,0=.", "15,15=.", "0,15=.", "8,8=."};
  spec s = floor_spec(r, 16, 16, false);
  int *tiles = malloc(256 * sizeof *tiles), *comp = malloc(256 * sizeof *comp);
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_map *m = dungeon(r, 16, 16, false);
    tilesat_error err;
    for (int i = 0; i < 4; i++)
      cr_assert_eq(tilesat_map_pin_spec(m, pins[i], &err), 0, "%s", err.msg);
    tilesat_solve_stats stats = {0};
    tilesat_solve_options so = {.backend = backends[b], .stats = &stats};
    cr_assert_eq(tilesat_check(m, &so, tiles, &err), TILESAT_SAT, "%s",
                 err.msg);
    int floor = tilesat_rules_find_tile(r, ".");
    cr_expect(tiles[0] == floor && tiles[255] == floor && tiles[15] == floor &&
              tiles[8 * 16 + 8] == floor);
    cr_expect_eq(own_regions(&s, tiles, comp), 1, "on %s",
                 tilesat_backend_name(backends[b]));
    cr_expect_eq(stats.solves, stats.cut_rounds + 1);
    tilesat_map_free(m);
  }
  free(tiles);
  free(comp);
  tilesat_rules_free(r);
}

/* A row "." "#" "." can hold no connected floor: the explanation names
 * the connectivity constraint, the three pins and the wall cell's
 * one-tile constraint (without it the cell could hold floor too). */
Test(global, explain_names_floor_connected) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = dungeon(r, 3, 1, false);
  tilesat_error err;
  const char *pins[] = {"0,0=.", "0,1=#", "0,2=."};
  for (int i = 0; i < 3; i++)
    cr_assert_eq(tilesat_map_pin_spec(m, pins[i], &err), 0, "%s", err.msg);
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_explanation *e;
    cr_assert_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                 TILESAT_UNSAT, "%s", err.msg);
    cr_assert_eq(explanation_info(e).size, 5);
    const tilesat_constraint *c = tilesat_explanation_constraint(e, 0);
    cr_expect_eq(c->kind, TILESAT_GLOBAL);
    cr_expect_eq(c->global, 0);
    int pinned = 0, one = 0;
    for (size_t i = 1; i < 5; i++) {
      c = tilesat_explanation_constraint(e, i);
      pinned += c->kind == TILESAT_PINNED;
      one += c->kind == TILESAT_ONE_TILE && c->row == 0 && c->col == 1;
    }
    cr_expect(pinned == 3 && one == 1);
    cr_expect_str_eq(tilesat_map_global_text(m, 0),
                     "floor connected: the cells holding . + , = form one "
                     "region");
    cr_expect_str_eq(tilesat_map_global_origin(m, 0),
                     "rules/dungeon8.constraints:6");
    /* the set alone is UNSAT, without the global constraint SAT */
    tilesat_constraint cs[5];
    for (size_t i = 0; i < 5; i++)
      cs[i] = *tilesat_explanation_constraint(e, i);
    cr_expect_eq(tilesat_constraints_check(m, NULL, cs, 5, &err),
                 TILESAT_UNSAT);
    cr_expect_eq(tilesat_constraints_check(m, NULL, cs + 1, 4, &err),
                 TILESAT_SAT);
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Wall pinned down a column of a 5x4 dungeon, floor on both sides: the
 * cut of the connectivity constraint is part of a minimal set with the
 * column's pins. */
Test(global, explain_a_wall_that_splits_the_floor) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = dungeon(r, 5, 4, false);
  tilesat_error err;
  char pin[32];
  for (int row = 0; row < 4; row++) {
    snprintf(pin, sizeof pin, "%d,2=#", row);
    cr_assert_eq(tilesat_map_pin_spec(m, pin, &err), 0, "%s", err.msg);
  }
  cr_assert_eq(tilesat_map_pin_spec(m, "1,0=.", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(m, "2,4=.", &err), 0);
  tilesat_explanation *e;
  cr_assert_eq(tilesat_explain(m, NULL, &e, &err), TILESAT_UNSAT, "%s",
               err.msg);
  size_t n = explanation_info(e).size, global = 0, wall = 0;
  for (size_t i = 0; i < n; i++) {
    const tilesat_constraint *c = tilesat_explanation_constraint(e, i);
    global += c->kind == TILESAT_GLOBAL;
    wall += c->kind == TILESAT_PINNED && c->col == 2;
  }
  cr_expect_eq(global, 1);
  cr_expect_eq(wall, 4, "the four wall pins, in %zu constraints", n);
  tilesat_explanation_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* --------------------------------------------------------------- counts */

/* Seed 002's board: 7 colours, exactly 7 of each, no adjacency rules. */
Test(global, entropy_board_has_seven_of_each_colour) {
  tilesat_rules *r = rules_from_file("rules/entropy7.rules");
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_map *m = map_new(r, 7, 7, TILESAT_SQUARE, false);
    tilesat_error err;
    cr_assert_eq(tilesat_map_constraints_read_file(
                     m, "rules/entropy7.constraints", &err),
                 0, "%s", err.msg);
    cr_assert_eq(map_info(m).nglobals, 7);
    int tiles[49], n[7] = {0};
    cr_assert_eq(tilesat_check(m, SOLVE(backends[b]), tiles, &err), TILESAT_SAT,
                 "%s", err.msg);
    for (int c = 0; c < 49; c++)
      n[tiles[c]]++;
    for (int t = 0; t < 7; t++)
      cr_expect_eq(n[t], 7, "%s: %d of %s", tilesat_backend_name(backends[b]),
                   n[t], tilesat_rules_tile_name(r, t));
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

/* The number of such boards, counted by the dp with a counter for each
 * colour: the multinomial 49! / (7!)^7. */
Test(global, entropy_boards_counted_by_the_dp) {
  tilesat_rules *r = rules_from_file("rules/entropy7.rules");
  tilesat_map *m = map_new(r, 7, 7, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(
      tilesat_map_constraints_read_file(m, "rules/entropy7.constraints", &err),
      0, "%s", err.msg);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  tilesat_count_result res;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  mpz_t want, f;
  mpz_inits(want, f, NULL);
  mpz_fac_ui(want, 49);
  mpz_fac_ui(f, 7);
  mpz_pow_ui(f, f, 7);
  mpz_divexact(want, want, f);
  char *w = mpz_get_str(NULL, 10, want);
  cr_expect_str_eq(res.count, w);
  cr_expect_eq(res.method, TILESAT_METHOD_DP);
  free(w);
  mpz_clears(want, f, NULL);
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The test's own filter for --by-tile: exactly k cells of the class. */
typedef struct by_spec {
  const bool *in;
  int n, k;
} by_spec;

static bool has_k(void *user, const int *tiles) {
  const by_spec *b = user;
  int k = 0;
  for (int c = 0; c < b->n; c++)
    k += b->in[tiles[c]];
  return k == b->k;
}

typedef struct pair {
  spec *s;
  by_spec *b;
} pair;

static bool keeps_and_k(void *user, const int *tiles) {
  const pair *p = user;
  return keeps(p->s, tiles) && has_k(p->b, tiles);
}

/* count --by-tile by the dp on random small maps (square, hex, periodic,
 * pinned, with a count constraint now and then): each number against
 * brute force filtered to exactly k class cells, and their sum is the
 * plain count. */
Test(global, by_tile_distribution_as_brute_force) {
  test_rng = 2;
  long nonzero = 0;
  for (int iter = 0; iter < 60; iter++) {
    tilesat_topology topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    bool periodic = (iter / 2) % 3 == 0;
    int T = 2 + (int)rnd(2), w = 1 + (int)rnd(3), h = 1 + (int)rnd(3);
    if (periodic && topo == TILESAT_HEX && h % 2)
      h = 2;
    tilesat_rules *r = random_rules(T, topo, 4 + (int)rnd(4));
    tilesat_map *m = map_new(r, w, h, topo, periodic);
    int pin[3] = {(int)rnd((unsigned)h), (int)rnd((unsigned)w),
                  (int)rnd((unsigned)T)},
        npins = iter % 4 == 3;
    tilesat_error err;
    if (npins)
      cr_assert_eq(tilesat_map_pin(m, pin[0], pin[1],
                                   tilesat_rules_tile_name(r, pin[2]), &err),
                   0, "%s", err.msg);
    spec s = {.topo = topo, .w = w, .h = h, .periodic = periodic, .at = -1};
    char line[128] = "", cls[32];
    bool in[16] = {false}, any = false;
    for (int t = 0; t < T; t++)
      any |= in[t] = rnd(2);
    in[rnd((unsigned)T)] |= !any;
    spec by = {.in = {false}};
    memcpy(by.in, in, sizeof in);
    class_word(&by, T, cls);
    if (iter % 5 == 4) { /* a count constraint beside it */
      random_spec(&s, T, line, sizeof line);
      if (s.kind == TILESAT_GLOBAL_PATH)
        line[0] = 0; /* the dp does not keep paths */
      if (line[0])
        add_constraints(m, line);
    }
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    tilesat_count_result res;
    char **dist;
    cr_assert_eq(tilesat_count_by_tile(m, cls, &o, &res, &dist, &err), 0,
                 "iter %d: %s", iter, err.msg);
    long sum = 0;
    for (int k = 0; k <= w * h; k++) {
      by_spec b = {in, w * h, k};
      pair both = {&s, &b}; /* the constraint (the test's reading) and k */
      long want = brute_count_if(r, w, h, topo, periodic, npins ? pin : NULL,
                                 npins, line[0] ? keeps_and_k : has_k,
                                 line[0] ? (void *)&both : (void *)&b);
      cr_expect_eq(atol(dist[k]), want, "iter %d (%s %dx%d%s%s, class %s): %d",
                   iter, tilesat_topology_name(topo), w, h,
                   periodic ? " periodic" : "", line, cls, k);
      sum += atol(dist[k]);
      nonzero += want > 0;
    }
    cr_expect_eq(sum, atol(res.count), "iter %d", iter);
    cr_expect_eq(count_by(m, TILESAT_METHOD_DP, TILESAT_PICOSAT),
                 atol(res.count), "iter %d", iter);
    tilesat_count_by_tile_free(m, dist);
    tilesat_count_result_free(&res);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_gt(nonzero, 100);
}

/* "at least 5 of 4 cells" cannot hold by itself: the explanation is that
 * count alone.  "none of S" with a pin of S: the count and the pin. */
Test(global, explain_names_a_count) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 2, 2, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "S>=5",
                                          "--count", &err),
               0);
  tilesat_explanation *e;
  cr_assert_eq(tilesat_explain(m, NULL, &e, &err), TILESAT_UNSAT, "%s",
               err.msg);
  cr_expect_eq(explanation_info(e).size, 1);
  cr_expect_eq(tilesat_explanation_constraint(e, 0)->kind, TILESAT_GLOBAL);
  tilesat_explanation_free(e);
  tilesat_map_free(m);
  m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "S<=0",
                                          "--count", &err),
               0);
  cr_assert_eq(tilesat_map_pin_spec(m, "1,1=S", &err), 0);
  cr_assert_eq(tilesat_explain(m, NULL, &e, &err), TILESAT_UNSAT, "%s",
               err.msg);
  cr_expect_eq(explanation_info(e).size, 2);
  cr_expect_eq(tilesat_explanation_constraint(e, 0)->kind, TILESAT_GLOBAL);
  cr_expect_eq(tilesat_explanation_constraint(e, 1)->kind, TILESAT_PINNED);
  tilesat_explanation_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The independent checker names the constraint a map breaks. */
Test(global, verify_names_the_broken_constraint) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "S<=2",
                                          "--count", &err),
               0);
  int L = 0, C = 1, S = 2;
  int tiles[9] = {L, L, L, C, C, C, S, S, S};
  char why[512];
  cr_expect_not(tilesat_map_verify(m, tiles, why, sizeof why));
  cr_expect_str_eq(why, "--count: the count of S is at most 2, but 3 cells "
                        "hold them");
  tilesat_map_free(m);
  m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_CONNECTED, "L,C",
                                          "--connected", &err),
               0);
  cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s", why);
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_PATH, "0,0:2,2=L,C",
                                          "--path", &err),
               0);
  cr_expect_not(tilesat_map_verify(m, tiles, why, sizeof why));
  cr_expect_str_eq(why, "--path: a path of {L C} joins (0,0) and (2,2), but "
                        "(2,2) holds S");
  tilesat_map_free(m);
  m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "w=L",
                                          "--border", &err),
               0);
  cr_expect_not(tilesat_map_verify(m, tiles, why, sizeof why));
  cr_expect_str_eq(why, "--border: only L on the west side, but (1,0) holds C");
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------------------ the files */

static const char *parse_error(const char *text) {
  static tilesat_error err;
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  int rc = tilesat_map_constraints_parse(m, text, strlen(text), "c.cons", &err);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc ? err.msg : "accepted";
}

Test(global, file_errors_name_the_line) {
  struct {
    const char *text, *msg;
  } cases[] = {
      {"", "c.cons: empty constraints file (the first line must be "
           "'tilesat-constraints 1')"},
      {"tilesat-rules 1\n", "c.cons: a rules file, not a constraints file: "
                            "rules go first, as in 'tilesat check RULES "
                            "--size WxH'"},
      {"tilesat-rule 1\n", "c.cons:1: not a constraints file: the first line "
                           "must be 'tilesat-constraints 1'"},
      {"tilesat-constraints 1\nconnect .\n",
       "c.cons:2: unknown constraint 'connect' (class, count, connected, path, "
       "border)"},
      {"tilesat-constraints 1\n# c\ncount X = 3\n",
       "c.cons:3: unknown tile or class 'X' (the tiles are '#', '~', '\"', "
       "'T', '.', '+', ',', '=' and '%')"},
      {"tilesat-constraints 1\ncount . == 3\n",
       "c.cons:2: '==' is not =, <= or >="},
      {"tilesat-constraints 1\ncount . = -3\n",
       "c.cons:2: '-3' is not a count (a whole number)"},
      {"tilesat-constraints 1\ncount . = 3 rect 0,0:9,9\n",
       "c.cons:2: cell (9,9) is outside the 4x3 map"},
      {"tilesat-constraints 1\ncount . = 3 rect 2,2:0,0\n",
       "c.cons:2: rect 2,2:0,0: the first corner is not above and left of the "
       "second"},
      {"tilesat-constraints 1\nconnected . # here\n",
       "c.cons:2: expected 'nonempty' or 'at R,C' after the class, not '#'"},
      {"tilesat-constraints 1\nconnected . at 0,0 here\n",
       "c.cons:2: unexpected word 'here' after '0,0'"},
      {"tilesat-constraints 1\npath . 0,0\n",
       "c.cons:2: expected 'path CLASS R,C R,C...' (two cells or more)"},
      {"tilesat-constraints 1\npath . 0,0 1;1\n",
       "c.cons:2: '1;1' is not a cell ROW,COL"},
      {"tilesat-constraints 1\nborder nn #\n",
       "c.cons:2: 'nn' is not sides: n, e, s and w (each once), or all"},
      {"tilesat-constraints 1\nclass # . +\n",
       "c.cons:2: class '#': a tile has that name"},
      {"tilesat-constraints 1\nclass f . +\nclass f ,\n",
       "c.cons:3: class 'f' is already named"},
      {"tilesat-constraints 1\nclass floor . + , =\nconnected floor at 2,3\n"
       "count floor >= 3\npath .,+ 0,0 2,3\nborder ns,w #\n",
       "accepted"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    cr_expect_str_eq(parse_error(cases[i].text), cases[i].msg, "case %zu", i);
}

/* A tile whose name holds a comma is found when only one reading fits:
 * dungeon8 has a tile ",". */
Test(global, classes_of_tiles_joined_by_commas) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, ".,+,,,=<=4",
                                          "--count", &err),
               0, "%s", err.msg);
  cr_expect_str_eq(tilesat_map_global_text(m, 0),
                   "the count of {. + , =} is at most 4");
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, ",>=1",
                                          "--count", &err),
               0);
  cr_expect_str_eq(tilesat_map_global_text(m, 1),
                   "the count of , is at least 1");
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "==2",
                                          "--count", &err),
               0);
  cr_expect_str_eq(tilesat_map_global_text(m, 2),
                   "the count of = is exactly 2");
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "all=#,%",
                                          "--border", &err),
               0);
  cr_expect_str_eq(tilesat_map_global_text(m, 3), "only {# %} on every side");
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_PATH,
                                          "0,0:2,3:1,1=.", "--path", &err),
               0);
  cr_expect_str_eq(tilesat_map_global_text(m, 4),
                   "a path of . joins (0,0), (2,3) and (1,1)");
  cr_expect_neq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, ".,X=1",
                                           "--count", &err),
                0);
  cr_expect_str_eq(err.msg, "--count: '.,X' is not tiles joined by commas (an "
                            "unknown tile)");
  cr_expect_neq(
      tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, ".", "--count", &err),
      0);
  cr_expect_str_eq(err.msg,
                   "--count: '.' is not CLASS=K, CLASS<=K or CLASS>=K");
  cr_expect_neq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_PATH, "0,0=.",
                                           "--path", &err),
                0);
  cr_expect_str_eq(err.msg, "--path: a path joins two cells or more");
  cr_expect_neq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "x=.",
                                           "--border", &err),
                0);
  cr_expect_str_eq(err.msg,
                   "--border: 'x' is not sides: n, e, s and w (each once), or "
                   "all");
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* A class of tiles joined by commas of any length reads in linear time
 * and constant stack: the reading used to recurse once a name (100000
 * names overflowed the stack) and try every later comma from each name
 * (4000 names took 24 s); the timeout catches either coming back. */
static char *names_joined(const char *const *names, int k, int n,
                          const char *last) {
  size_t size = 16 + strlen(last);
  for (int i = 0; i < n; i++)
    size += strlen(names[i % k]) + 1;
  char *s = malloc(size), *p = s;
  for (int i = 0; i < n; i++)
    p += sprintf(p, "%s%s", i ? "," : "", names[i % k]);
  strcpy(p, last);
  return s;
}

static int count_not_s;

/* Maps with exactly count_not_s cells other than S (tile 2 of coast). */
static bool keeps_not_s(void *user, const int *tiles) {
  int w = *(const int *)user, n = 0;
  for (int c = 0; c < w; c++)
    n += tiles[c] != 2;
  return n == count_not_s;
}

Test(global_cli, a_line_of_100000_names_reads_at_once, .timeout = 20) {
  const char *lc[] = {"L", "C"};
  char *word = names_joined(lc, 2, 100000, "");
  char *text = malloc(strlen(word) + 64);
  sprintf(text, "tilesat-constraints 1\ncount %s = 2\n", word);
  char *path = temp_file(text, -1);
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  cr_assert_eq(tilesat_rules_find_tile(r, "S"), 2);
  int cells = 9;
  count_not_s = 2;
  char want[32];
  snprintf(want, sizeof want, "%ld\n",
           brute_count_if(r, 3, 3, TILESAT_SQUARE, false, NULL, 0, keeps_not_s,
                          &cells));
  cr_expect_gt(atol(want), 0);
  run_result c =
      RUN("count", "rules/coast.rules", "--size", "3x3", "--constraints", path);
  cr_expect_eq(c.code, 0, "%s", c.err);
  cr_expect_str_eq(c.out, want);
  run_free(&c);
  /* the same line with an unknown name at its end: the error names the
   * line and shows the start of the word, not 1 KiB of it */
  free(word);
  word = names_joined(lc, 2, 100000, ",X");
  sprintf(text, "tilesat-constraints 1\ncount %s = 2\n", word);
  char *bad = temp_file(text, -1);
  char msg[512];
  snprintf(msg, sizeof msg,
           "tilesat: %s:2: '%.64s...' (%zu bytes) is not tiles joined by "
           "commas (an unknown tile)\n",
           bad, word, strlen(word));
  expect_cli_error(msg, "count", "rules/coast.rules", "--size", "3x3",
                   "--constraints", bad);
  tilesat_rules_free(r);
  free(word);
  free(text);
  free(path);
  free(bad);
}

/* dungeon8 has a tile ",": 100000 names of "." and "," read the one way
 * they can, as fast. */
Test(global, a_line_of_100000_names_with_commas_in_names, .timeout = 20) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  const char *dot_comma[] = {".", ","};
  char *word = names_joined(dot_comma, 2, 100000, "<=4");
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, word,
                                          "--count", &err),
               0, "%s", err.msg);
  cr_expect_str_eq(tilesat_map_global_text(m, 0),
                   "the count of {. ,} is at most 4");
  free(word);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Named classes are found by a hashed lookup: each class line compared
 * its name with every class before it (40000 class lines took 4 s,
 * 100000 about 25 s). */
Test(global, a_hundred_thousand_classes_read_at_once, .timeout = 10) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  int n = 100000;
  size_t size = 64 + (size_t)n * 40;
  char *text = malloc(size), *p = text;
  p += sprintf(p, "tilesat-constraints 1\n");
  for (int i = 0; i < n; i++)
    p += sprintf(p, "class k%d %s\n", i, i % 2 ? ". +" : "#");
  p += sprintf(p, "count k99999 <= 4\ncount k99998 >= 1\nclass k17 .\n");
  tilesat_error err;
  cr_expect_neq(
      tilesat_map_constraints_parse(m, text, strlen(text), "c.cons", &err), 0);
  cr_expect_str_eq(err.msg, "c.cons:100004: class 'k17' is already named");
  cr_assert_eq(map_info(m).nglobals, 2);
  cr_expect_str_eq(tilesat_map_global_text(m, 0),
                   "the count of k99999 (. +) is at most 4");
  cr_expect_str_eq(tilesat_map_global_text(m, 1),
                   "the count of k99998 (#) is at least 1");
  free(text);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------------- command line */

Test(global_cli, what_cannot_keep_a_constraint_refuses_it) {
  expect_cli_error(
      "tilesat: count with the dp, bounds, the estimate or approx cannot keep "
      "path constraints yet (--path: a path of S joins (0,0) and (2,2)); "
      "count --method enum can\n",
      "count", "rules/coast.rules", "--size", "3x3", "--path", "0,0:2,2=S");
  expect_cli_error(
      "tilesat: count with bounds, the estimate or approx cannot keep "
      "connected constraints yet (--connected: S connected: the cells "
      "holding S form one region); count --method dp or enum can\n",
      "count", "rules/coast.rules", "--size", "3x3", "--connected", "S",
      "--method", "bounds");
  expect_cli_error("tilesat: parts (--part, --part-split) cannot keep "
                   "connected constraints yet (--connected: S connected: the "
                   "cells holding S form one region)\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--connected",
                   "S", "--part", "1/2");
  expect_cli_error("tilesat: --by-tile: counts with the dp: --method auto or "
                   "dp\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--by-tile",
                   "S", "--method", "enum");
  expect_cli_error("tilesat: sample cannot keep path constraints yet "
                   "(--path: a path of S joins (0,0) and (2,2))\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--path",
                   "0,0:2,2=S");
  expect_cli_error("tilesat: sample with approx or the chain cannot keep "
                   "count constraints yet (--count: the count of S is exactly "
                   "2); sample --method dp can\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--count",
                   "S=2", "--method", "chain");
  expect_cli_error("tilesat: trace cannot keep path constraints yet (--path: "
                   "a path of S joins (0,0) and (2,2))\n",
                   "trace", "rules/coast.rules", "--size", "3x3", "--path",
                   "0,0:2,2=S");
  expect_cli_error("tilesat: collapse --explain cannot keep count "
                   "constraints yet (--count: the count of S is at least 1)\n",
                   "collapse", "rules/coast.rules", "--size", "3x3", "--count",
                   "S>=1", "--explain");
  expect_cli_error(
      "tilesat: encode cannot keep connected constraints yet "
      "(rules/dungeon8.constraints:6: floor connected: the cells holding . + "
      ", = form one region); they are kept by cuts added as models break "
      "them, which no CNF written beforehand holds\n",
      "encode", "rules/dungeon8.rules", "--size", "3x3", "--constraints",
      "rules/dungeon8.constraints");
  expect_cli_error("tilesat: --border: a periodic map has no sides to "
                   "border\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--periodic",
                   "--border", "n=L");
  expect_cli_error("tilesat: nothing.cons: cannot open: No such file or "
                   "directory\n",
                   "check", "rules/coast.rules", "--size", "3x3",
                   "--constraints", "nothing.cons");
}

/* enum lists only the maps that keep the constraints, as many as count
 * --method enum finds; check names its cut rounds on stderr. */
/* count --by-tile on the Entropy colours (no adjacency rules): 6 cells,
 * k of them A or B in C(6,k) 2^k 5^(6-k) ways, one line each, then the
 * total 7^6; with --count B=0 beside it, only A counts: C(6,k) 5^(6-k). */
Test(global_cli, count_by_tile_prints_the_distribution) {
  for (int only_a = 0; only_a < 2; only_a++) {
    char want[512];
    int n = 0;
    long total = 0, binom = 1;
    for (int k = 0; k <= 6; k++) {
      long ways = binom;
      for (int i = 0; i < k; i++)
        ways *= only_a ? 1 : 2;
      for (int i = 0; i < 6 - k; i++)
        ways *= 5;
      n += snprintf(want + n, sizeof want - (size_t)n, "%d %ld\n", k, ways);
      total += ways;
      binom = binom * (6 - k) / (k + 1);
    }
    snprintf(want + n, sizeof want - (size_t)n, "%ld\n", total);
    run_result r = only_a ? RUN("count", "rules/entropy7.rules", "--size",
                                "3x2", "--by-tile", "A,B", "--count", "B=0")
                          : RUN("count", "rules/entropy7.rules", "--size",
                                "3x2", "--by-tile", "A,B");
    cr_expect_eq(r.code, 0, "%s", r.err);
    cr_expect_str_eq(r.out, want);
    run_free(&r);
  }
}

Test(global_cli, enum_and_check_keep_the_constraints) {
  run_result e =
      RUN("enum", "rules/dungeon8.rules", "--size", "3x2", "--constraints",
          "rules/dungeon8.constraints", "--count", "#>=2");
  run_result c =
      RUN("count", "rules/dungeon8.rules", "--size", "3x2", "--constraints",
          "rules/dungeon8.constraints", "--count", "#>=2", "--method", "enum");
  cr_assert_eq(e.code, 10, "%s", e.err);
  cr_assert_eq(c.code, 0, "%s", c.err);
  char want[64];
  snprintf(want, sizeof want, "maps: %ld\n", atol(c.out));
  cr_expect(atol(c.out) > 0);
  const char *last = strstr(e.out, "maps: ");
  cr_expect(last && !strcmp(last, want), "%s vs %s", last, want);
  run_free(&e);
  run_free(&c);
  run_result k = RUN("check", "rules/dungeon8.rules", "--size", "8x8", "--pin",
                     "0,0=.", "--pin", "7,7=.", "--connected",
                     ".,+,,,=", "--backend", "cadical", "--method", "cnf");
  cr_expect_eq(k.code, 10);
  cr_expect(!strncmp(k.err, "tilesat: check: ", 16) &&
                strstr(k.err, " cut rounds, "),
            "%s", k.err);
  run_free(&k);
}

/* collapse and the dp keep a border as bans: every map they make has the
 * border's tiles on its sides. */
Test(global_cli, collapse_and_sample_keep_borders) {
  const char *cmds[][12] = {
      {"collapse", "rules/coast.rules", "--size", "6x4", "--border", "n=L",
       "--border", "s=S", "--seed", "3", NULL},
      {"sample", "rules/coast.rules", "--size", "6x4", "--border", "n=L",
       "--border", "s=S", "-n", "1", NULL},
  };
  for (size_t i = 0; i < 2; i++) {
    run_result r = run_cli(cmds[i]);
    cr_expect_eq(r.code, 10, "%s: %s", cmds[i][0], r.err);
    /* collapse prints SAT first, sample the map alone */
    const char *map = i == 0 ? strchr(r.out, '\n') + 1 : r.out;
    cr_expect(!strncmp(map, "LLLLLL\n", 7), "%s", r.out);
    cr_expect(strstr(map, "\nSSSSSS\n"), "%s", r.out);
    run_free(&r);
  }
}

/* ---------------------------------------------------------------- masks */

/* Brute force over the cells that are not masked (a masked cell holds
 * TILESAT_NO_TILE), with the test's own neighbours: a pair counts only
 * when both cells are part of the map; extra, when not NULL, filters. */
static long brute_masked(const tilesat_rules *r, const spec *s,
                         const bool *masked, spec *extra) {
  int n = s->w * s->h, T = tilesat_rules_ntiles(r);
  int nd = s->topo == TILESAT_HEX ? 6 : 4;
  int *tiles = malloc((size_t)n * sizeof *tiles);
  for (int c = 0; c < n; c++)
    tiles[c] = masked[c] ? -1 : 0;
  long count = 0;
  for (;;) {
    bool ok = true;
    for (int c = 0; c < n && ok; c++)
      for (int d = 0; d < nd && ok && !masked[c]; d++) {
        int nr, nc;
        if (brute_neighbor(s->topo, s->w, s->h, s->periodic, c / s->w, c % s->w,
                           d, &nr, &nc) &&
            !masked[nr * s->w + nc])
          ok = tilesat_rules_allows(r, tiles[c], d, tiles[nr * s->w + nc]);
      }
    count += ok && (!extra || keeps_masked(extra, tiles));
    int k = 0;
    while (k < n && (masked[k] || ++tiles[k] == T)) {
      if (!masked[k])
        tiles[k] = 0;
      k++;
    }
    if (k == n)
      break;
  }
  free(tiles);
  return count;
}

/* Random masks, with and without a connected or count constraint:
 * enumeration on every backend, and the dp (but with a path), against
 * brute force; the witness holds no tile on the masked cells. */
Test(global, masked_maps_counted_as_brute_force_counts) {
  test_rng = 77;
  long nonzero = 0;
  for (int iter = 0; iter < 80; iter++) {
    spec s = {0};
    s.topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    s.periodic = (iter / 2) % 3 == 0;
    int T = 2 + (int)rnd(2);
    s.w = 2 + (int)rnd(2);
    s.h = 2 + (int)rnd(2);
    if (s.periodic && s.topo == TILESAT_HEX && s.h % 2)
      s.h = 2;
    tilesat_rules *r = random_rules(T, s.topo, 4 + (int)rnd(4));
    tilesat_map *m = map_new(r, s.w, s.h, s.topo, s.periodic);
    bool masked[9] = {false};
    tilesat_error err;
    for (int c = 0; c < s.w * s.h; c++)
      if (rnd(3) == 0) {
        masked[c] = true;
        cr_assert_eq(tilesat_map_mask(m, c / s.w, c % s.w, &err), 0);
      }
    spec g = s, *extra = NULL;
    char line[128];
    if (iter % 3) {
      random_spec(&g, T, line, sizeof line);
      add_constraints(m, line);
      extra = &g;
    }
    long want = brute_masked(r, &s, masked, extra);
    for (int b = 0; b < NBACKENDS; b++)
      cr_expect_eq(count_by(m, TILESAT_METHOD_ENUM, backends[b]), want,
                   "iter %d on %s", iter, tilesat_backend_name(backends[b]));
    if (!extra || g.kind != TILESAT_GLOBAL_PATH) {
      cr_expect_eq(count_by(m, TILESAT_METHOD_DP, TILESAT_PICOSAT), want,
                   "iter %d (%s %dx%d%s, %s) by the dp", iter,
                   tilesat_topology_name(s.topo), s.w, s.h,
                   s.periodic ? " periodic" : "", extra ? line : "no more");
      cr_expect_eq(count_plain(m), want, "iter %d by the plain dp", iter);
    }
    int tiles[9];
    int res = tilesat_check(m, NULL, tiles, &err);
    cr_expect_eq(res, want ? TILESAT_SAT : TILESAT_UNSAT, "iter %d", iter);
    for (int c = 0; res == TILESAT_SAT && c < s.w * s.h; c++)
      cr_expect_eq(tiles[c] < 0, masked[c], "iter %d cell %d", iter, c);
    nonzero += want > 0;
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_gt(nonzero, 30);
}

/* sample --method dp under masks, counts and connectivity (square, hex,
 * periodic): the draws are the enumerated maps (TILESAT_NO_TILE on the
 * masked cells), each as often as uniform draws would be (chi-square at
 * 0.999). */
Test(global, constrained_maps_sampled_uniformly) {
  struct {
    const char *rules;
    int w, h;
    bool periodic;
    int masked[3];
    const char *lines;
  } cases[] = {
      {"rules/coast.rules", 3, 3, false, {1, 4, -1}, NULL},
      {"rules/coast-hex.rules", 3, 3, false, {0, 8, -1}, NULL},
      {"rules/coast.rules", 4, 2, true, {2, -1, -1}, NULL},
      {"rules/coast.rules", 3, 3, false, {-1}, "connected L nonempty"},
      {"rules/coast-hex.rules",
       3,
       3,
       false,
       {-1},
       "connected S\ncount C <= 2 rect 0,0:1,2"},
      {"rules/dungeon8.rules",
       3,
       2,
       true,
       {-1},
       "class floor . + , =\nconnected floor\ncount # >= 2"},
      {"rules/coast.rules", 3, 3, false, {4, -1}, "connected L,C at 0,0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_rules *r = rules_from_file(cases[i].rules);
    tilesat_map *m = map_new(r, cases[i].w, cases[i].h,
                             tilesat_rules_topology(r), cases[i].periodic);
    tilesat_error err;
    for (int k = 0; k < 3 && cases[i].masked[k] >= 0; k++)
      cr_assert_eq(tilesat_map_mask(m, cases[i].masked[k] / cases[i].w,
                                    cases[i].masked[k] % cases[i].w, &err),
                   0, "%s", err.msg);
    if (cases[i].lines)
      add_constraints(m, cases[i].lines);
    atlas a = {cases[i].w * cases[i].h, 0, NULL, NULL, 0};
    cr_assert_geq(
        tilesat_enumerate(m, SOLVE(TILESAT_CADICAL), 0, atlas_add, &a, &err), 2,
        "case %zu: %s", i, err.msg);
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    int draws = 20 * a.n;
    cr_assert_eq(tilesat_sample(m, &o, draws, atlas_hit, &a, &err), draws,
                 "case %zu: %s", i, err.msg);
    cr_expect_eq(a.strays, 0, "case %zu: %d draws are not valid maps", i,
                 a.strays);
    double expect = (double)draws / a.n, chi = 0;
    for (int k = 0; k < a.n; k++)
      chi += (a.hits[k] - expect) * (a.hits[k] - expect) / expect;
    cr_expect_lt(chi, chi2_999(a.n - 1), "case %zu: chi-square %g over %d maps",
                 i, chi, a.n);
    atlas_free(&a);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* A masked cell is transparent in the PNG of the witness, blank in the
 * text, and empty (gid 0) in a Tiled map. */
Test(global_cli, masked_map_drawn_with_its_mask) {
  char *dir = temp_dir();
  char mask[512], png[512], tmj[512];
  snprintf(mask, sizeof mask, "%s/mask.txt", dir);
  snprintf(png, sizeof png, "%s/map.png", dir);
  snprintf(tmj, sizeof tmj, "%s/map.tmj", dir);
  FILE *f = fopen(mask, "w");
  fputs("....\n.xx.\n....\n", f);
  fclose(f);
  run_result r = RUN("check", "rules/coast.rules", "--size", "4x3", "--mask",
                     mask, "--png", png, "--tmj", tmj);
  cr_assert_eq(r.code, 10, "%s", r.err);
  const char *row1 = strchr(r.out + 4, '\n') + 1;
  cr_expect(row1[1] == ' ' && row1[2] == ' ', "%s", r.out);
  tilesat_error err;
  tilesat_image *img = tilesat_image_read_png(png, &err);
  cr_assert(img, "%s", err.msg);
  int px = img->width / 4; /* pixels a cell */
  cr_expect_eq(img->height, 3 * px);
  size_t masked = (size_t)(px + px / 2) * (size_t)img->width + (size_t)px;
  cr_expect_eq(img->rgba[4 * masked + 3], 0, "masked: transparent");
  cr_expect_eq(img->rgba[3], 255, "a tile: opaque");
  tilesat_image_free(img);
  char *json = slurp(tmj);
  cr_expect(strstr(json, "0, 0"), "two empty cells side by side: %s", json);
  free(json);
  run_free(&r);
  expect_cli_error("tilesat: --pin: cell (1,1) is masked: not part of the "
                   "map\n",
                   "check", "rules/coast.rules", "--size", "4x3", "--mask",
                   mask, "--pin", "1,1=L");
  char want[1024];
  snprintf(want, sizeof want, "tilesat: --mask: %s is 4x3, the map 5x3\n",
           mask);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "5x3",
                   "--mask", mask);
  expect_cli_error("tilesat: count with bounds, the estimate or approx cannot "
                   "keep masked cells yet (2 of the map's cells are masked); "
                   "count --method dp or enum can\n",
                   "count", "rules/coast.rules", "--size", "4x3", "--mask",
                   mask, "--method", "approx");
  rm_dir(dir);
}

/* A floor pin walled in at the corner of a 33x33 dungeon and another
 * floor pin: only the connected floor clashes (without it the map has a
 * filling).  check names that constraint, not "the rules and pins";
 * explain shows the map around the clash's own cells (the constraint is
 * the whole map's: it names no cell), and its progress says each step
 * once rather than "solving with cadical" each second. */
Test(global, a_connected_clash_is_named_and_cropped) {
  const char *const base[] = {"rules/dungeon8.rules",
                              "--size",
                              "33x33",
                              "--pin",
                              "1,1=.",
                              "--pin",
                              "0,1=#",
                              "--pin",
                              "2,1=#",
                              "--pin",
                              "1,0=#",
                              "--pin",
                              "1,2=#",
                              "--pin",
                              "3,3=."};
  const char *args[24];
  size_t nb = sizeof base / sizeof *base;
  args[0] = "check";
  memcpy(args + 1, base, sizeof base);
  args[nb + 1] = NULL;
  run_result r = run_cli(args);
  cr_expect_eq(r.code, 10, "without the constraint: %s", r.err);
  run_free(&r);
  args[nb + 1] = "--constraints";
  args[nb + 2] = "rules/dungeon8.constraints";
  args[nb + 3] = NULL;
  r = run_cli(args);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.err,
                   "tilesat: check: UNSAT: propagating the rules, the pins and "
                   "the constraint \"floor connected: the cells holding . + , "
                   "= form one region\" (rules/dungeon8.constraints:6) leaves "
                   "no tile at (3,3); 'tilesat explain' with the same options "
                   "says why\n");
  run_free(&r);
  args[0] = "explain";
  setenv("TILESAT_PROGRESS", "all", 1);
  r = run_cli(args);
  unsetenv("TILESAT_PROGRESS");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.out, "  [1] floor connected: the cells holding . + , = "
                          "form one region (rules/dungeon8.constraints:6)\n"),
            "%s", r.out);
  /* the clash's cells reach row 3 and column 3: 4 more of margin */
  cr_expect(strstr(r.out, "\n  rows 0 to 7, columns 0 to 7 of 33x33, around "
                          "the clash"),
            "%s", r.out);
  /* no line said twice in a row (the seconds aside), no bare solver line */
  const char *prev = NULL;
  size_t prevlen = 0;
  int lines = 0;
  for (const char *l = r.err; *l; l = strchr(l, '\n') + 1) {
    const char *end = strchr(l, '\n');
    cr_assert(end, "%s", l);
    const char *secs = end;
    while (secs > l && *secs != '(')
      secs--;
    size_t len = (size_t)(secs - l);
    cr_expect(!prev || len != prevlen || strncmp(prev, l, len), "twice: %.*s",
              (int)(end - l), l);
    cr_expect(strncmp(l, "tilesat: explain: solving with ", 31), "%.*s",
              (int)(end - l), l);
    prev = l;
    prevlen = len;
    lines++;
  }
  cr_expect_gt(lines, 2, "%s", r.err);
  run_free(&r);
}
