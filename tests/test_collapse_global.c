/* collapse with global constraints: counts, connected, path, borders and
 * masks.  Every map a run makes is checked here by the test's own code:
 * the pairs against the rules (tilesat_rules_allows), the neighbours from
 * brute_neighbor (helpers.c's own geometry, not the library's), the
 * counts by counting, the regions by a flood fill of the test's. */
#include "helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

/* What a map must keep, in the test's terms. */
typedef struct want {
  const tilesat_rules *r;
  int w, h;
  tilesat_topology topo;
  bool periodic;
  const bool *masked; /* NULL: none */
} want;

static bool masked_at(const want *x, int cell) {
  return x->masked && x->masked[cell];
}

/* Every pair of neighbouring cells (neither masked) allowed, masked cells
 * empty, the others a tile. */
static bool pairs_ok(const want *x, const int *tiles) {
  int nd = tilesat_topology_ndirs(x->topo);
  for (int c = 0; c < x->w * x->h; c++) {
    if (masked_at(x, c) != (tiles[c] == TILESAT_NO_TILE))
      return false;
    if (masked_at(x, c))
      continue;
    for (int d = 0; d < nd; d++) {
      int nr, nc;
      if (!brute_neighbor(x->topo, x->w, x->h, x->periodic, c / x->w, c % x->w,
                          d, &nr, &nc) ||
          masked_at(x, nr * x->w + nc))
        continue;
      if (!tilesat_rules_allows(x->r, tiles[c], d, tiles[nr * x->w + nc]))
        return false;
    }
  }
  return true;
}

/* Is the tile one of the class (names, each one character, in `cls`)? */
static bool in_class(const want *x, const char *cls, int tile) {
  if (tile < 0)
    return false;
  const char *name = tilesat_rules_tile_name(x->r, tile);
  return strlen(name) == 1 && strchr(cls, name[0]);
}

static int count_class(const want *x, const char *cls, const int *tiles) {
  int n = 0;
  for (int c = 0; c < x->w * x->h; c++)
    n += in_class(x, cls, tiles[c]);
  return n;
}

/* The class's regions by the test's own flood fill: comp[cell] (or -1);
 * returns how many. */
static int regions(const want *x, const char *cls, const int *tiles,
                   int *comp) {
  int n = x->w * x->h, nd = tilesat_topology_ndirs(x->topo), R = 0;
  int *stack = malloc((size_t)n * sizeof *stack);
  for (int c = 0; c < n; c++)
    comp[c] = -1;
  for (int s = 0; s < n; s++) {
    if (comp[s] >= 0 || !in_class(x, cls, tiles[s]))
      continue;
    int top = 0;
    comp[s] = R;
    stack[top++] = s;
    while (top) {
      int u = stack[--top];
      for (int d = 0; d < nd; d++) {
        int nr, nc;
        if (!brute_neighbor(x->topo, x->w, x->h, x->periodic, u / x->w,
                            u % x->w, d, &nr, &nc))
          continue;
        int v = nr * x->w + nc;
        if (comp[v] < 0 && !masked_at(x, v) && in_class(x, cls, tiles[v])) {
          comp[v] = R;
          stack[top++] = v;
        }
      }
    }
    R++;
  }
  free(stack);
  return R;
}

static int nregions(const want *x, const char *cls, const int *tiles) {
  int *comp = malloc((size_t)(x->w * x->h) * sizeof *comp);
  int R = regions(x, cls, tiles, comp);
  free(comp);
  return R;
}

static tilesat_map *map_with(const want *x, const char *constraints) {
  tilesat_map *m = map_new(x->r, x->w, x->h, x->topo, x->periodic);
  tilesat_error err;
  for (int c = 0; x->masked && c < x->w * x->h; c++)
    if (x->masked[c])
      cr_assert_eq(tilesat_map_mask(m, c / x->w, c % x->w, &err), 0, "%s",
                   err.msg);
  if (constraints)
    cr_assert_eq(tilesat_map_constraints_parse(
                     m, constraints, strlen(constraints), "test", &err),
                 0, "%s", err.msg);
  return m;
}

/* Runs seeds 1..runs of m (guarded or not); each SAT map is handed to
 * check; returns the successes. */
typedef void (*check_fn)(const want *x, const int *tiles, const void *user);
static int runs(const want *x, tilesat_map *m, bool guard, int nruns,
                check_fn check, const void *user) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  int *tiles = malloc((size_t)(x->w * x->h) * sizeof *tiles), ok = 0;
  for (int s = 1; s <= nruns; s++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = (uint64_t)s;
    o.guard = guard ? TILESAT_GUARD_SAT : TILESAT_GUARD_NONE;
    o.solve.backend = TILESAT_CADICAL;
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    cr_assert(res == TILESAT_SAT || (!guard && res == TILESAT_UNKNOWN),
              "seed %d: %d %s", s, res, err.msg);
    if (res != TILESAT_SAT)
      continue;
    ok++;
    cr_expect(pairs_ok(x, tiles), "seed %d: a pair the rules forbid", s);
    check(x, tiles, user);
  }
  free(tiles);
  tilesat_collapse_free(c);
  return ok;
}

/* ---------------------------------------------------------------- counts */

typedef struct count_want {
  const char *cls;
  int lo, hi;
} count_want;

static void check_counts(const want *x, const int *tiles, const void *user) {
  for (const count_want *k = user; k->cls; k++) {
    int n = count_class(x, k->cls, tiles);
    cr_expect(n >= k->lo && n <= k->hi, "%d cells of %s, want %d..%d", n,
              k->cls, k->lo, k->hi);
  }
}

/* Counts exact on every map, plain and guarded; a plain run that can no
 * longer meet one says which, at a cell. */
Test(collapse_global, counts_kept_exactly) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  want x = {r, 12, 10, TILESAT_SQUARE, false, NULL};
  const char *text = "tilesat-constraints 1\n"
                     "count T = 4\n"
                     "count # <= 6\n"
                     "count . >= 10\n"
                     "count ~ = 2 rect 0,0:4,11\n";
  count_want k[] = {{"T", 4, 4}, {"#", 0, 6}, {".", 10, 120}, {NULL, 0, 0}};
  tilesat_map *m = map_with(&x, text);
  int plain = runs(&x, m, false, 30, check_counts, k);
  cr_expect_gt(plain, 0, "no plain run made a map");
  cr_expect_eq(runs(&x, m, true, 10, check_counts, k), 10);
  /* the rectangle's count, by the test's own counting */
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = TILESAT_GUARD_SAT;
  int tiles[120], failed = 0;
  for (int s = 1; s <= 5; s++) {
    o.seed = (uint64_t)s;
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT);
    int n = 0;
    for (int cell = 0; cell < 5 * 12; cell++)
      n += in_class(&x, "~", tiles[cell]);
    cr_expect_eq(n, 2, "seed %d", s);
  }
  /* the plain runs that failed on a count: the count, in its words */
  o.guard = TILESAT_GUARD_NONE;
  for (int s = 1; s <= 30; s++) {
    o.seed = (uint64_t)s;
    if (tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_UNKNOWN)
      continue;
    cr_expect_geq(collapse_info(c).contradiction, 0);
    const char *why = collapse_info(c).why;
    if (!why)
      continue; /* a cell left empty */
    failed++;
    cr_expect(!strncmp(why, "test:2: the count of T is exactly 4, but ", 41) ||
                  !strncmp(why, "test:3: ", 8) ||
                  !strncmp(why, "test:4: ", 8) || !strncmp(why, "test:5: ", 8),
              "%s", why);
    cr_expect(strstr(why, "cells must hold them") ||
                  strstr(why, "cells can hold them"),
              "%s", why);
  }
  cr_expect_gt(failed, 0, "no plain run failed on a count");
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  /* the Entropy board: exactly 7 of each of 7 colours */
  tilesat_rules *e = rules_from_file("rules/entropy7.rules");
  want ex = {e, 7, 7, TILESAT_SQUARE, false, NULL};
  char *board = slurp("rules/entropy7.constraints");
  tilesat_map *em = map_with(&ex, board);
  count_want seven[] = {{"A", 7, 7}, {"B", 7, 7}, {"C", 7, 7}, {"D", 7, 7},
                        {"E", 7, 7}, {"F", 7, 7}, {"G", 7, 7}, {NULL, 0, 0}};
  cr_expect_eq(runs(&ex, em, false, 20, check_counts, seven), 20);
  free(board);
  tilesat_map_free(em);
  tilesat_rules_free(e);
  tilesat_rules_free(r);
}

/* ----------------------------------------------------------- connected */

static void check_connected(const want *x, const int *tiles, const void *user) {
  cr_expect_leq(nregions(x, user, tiles), 1, "the floor falls apart");
}

/* Guarded runs keep the floor in one region, square, hex and periodic;
 * plain runs make maps that break it, and say so. */
Test(collapse_global, connected_guarded_square_hex_periodic) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  char *sample = slurp("rules/dungeon8.txt");
  tilesat_rules *hex = rules_from_sample(sample, TILESAT_HEX, false);
  const char *floor = "tilesat-constraints 1\nconnected .,+,,,=\n";
  struct {
    tilesat_rules *r;
    tilesat_topology topo;
    int w, h;
    bool periodic;
  } cases[] = {{r, TILESAT_SQUARE, 24, 24, false},
               {r, TILESAT_SQUARE, 12, 12, true},
               {hex, TILESAT_HEX, 16, 16, false},
               {hex, TILESAT_HEX, 12, 10, true}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    want x = {cases[i].r,    cases[i].w,        cases[i].h,
              cases[i].topo, cases[i].periodic, NULL};
    tilesat_map *m = map_with(&x, floor);
    cr_expect_eq(runs(&x, m, true, 8, check_connected, ".+,="), 8, "case %zu",
                 i);
    tilesat_map_free(m);
  }
  free(sample);
  tilesat_rules_free(hex);
  tilesat_rules_free(r);
}

/* Plain runs do not see connectivity: a map that breaks it is a failed
 * run (TILESAT_UNKNOWN, no contradiction cell, the map in tiles, why in
 * the constraint's words), checked by the test's flood fill; the CLI says
 * the library's words and prints the map. */
Test(collapse_global, plain_runs_that_break_connectivity_fail) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  want x = {r, 12, 8, TILESAT_SQUARE, false, NULL};
  tilesat_map *m = map_new(r, 12, 8, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(
      tilesat_map_constraints_read_file(m, "rules/dungeon8.constraints", &err),
      0, "%s", err.msg);
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[96], broken = 0, kept = 0, seed = 0;
  for (int s = 1; s <= 30; s++) {
    o.seed = (uint64_t)s;
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    int R = res == TILESAT_UNKNOWN && collapse_info(c).contradiction >= 0
                ? -1
                : nregions(&x, ".+,=", tiles);
    if (res == TILESAT_SAT) {
      kept++;
      cr_expect_leq(R, 1, "seed %d", s);
    } else if (collapse_info(c).contradiction < 0) {
      broken++;
      seed = seed ? seed : s;
      cr_expect_gt(R, 1, "seed %d: one region, yet broken", s);
      cr_expect(pairs_ok(&x, tiles), "seed %d", s);
      const char *why = collapse_info(c).why;
      cr_assert(why);
      const char *head = "rules/dungeon8.constraints:6: floor connected: the "
                         "cells holding . + , = form one region, but (";
      cr_expect_eq(strncmp(why, head, strlen(head)), 0, "%s", why);
      cr_expect(strstr(why, ") are in separate regions"), "%s", why);
    }
  }
  cr_expect_gt(broken, 0, "no plain run broke the floor");
  /* the CLI: the library's words, then the map WFC made */
  o.seed = (uint64_t)seed;
  cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_UNKNOWN);
  int cell, tile;
  size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
  char want_line[640], seedarg[16];
  snprintf(want_line, sizeof want_line,
           "broken after %zu choices (seed %d): %s\n", k, seed,
           collapse_info(c).why);
  snprintf(seedarg, sizeof seedarg, "%d", seed);
  run_result cli =
      RUN("collapse", "rules/dungeon8.rules", "--size", "12x8", "--constraints",
          "rules/dungeon8.constraints", "--seed", seedarg);
  cr_expect_eq(cli.code, 0, "%s", cli.err);
  cr_expect_eq(strncmp(cli.out, want_line, strlen(want_line)), 0, "%s",
               cli.out);
  tilesat_grid *g =
      tilesat_grid_parse(cli.out + strlen(want_line),
                         strlen(cli.out + strlen(want_line)), "out", &err);
  cr_assert(g, "%s", err.msg);
  for (int q = 0; q < 96; q++)
    cr_expect_eq(tilesat_rules_find_tile(r, tilesat_grid_at(g, q / 12, q % 12)),
                 tiles[q]);
  tilesat_grid_free(g);
  run_free(&cli);
  cli =
      RUN("collapse", "rules/dungeon8.rules", "--size", "12x8", "--constraints",
          "rules/dungeon8.constraints", "--seed", seedarg, "--format", "json");
  cr_expect(strstr(cli.out, "\"result\":\t\"broken\""), "%s", cli.out);
  cr_expect(strstr(cli.out, "\"map\":"), "%s", cli.out);
  run_free(&cli);
  /* -n: the broken runs counted apart, the exit 0 with no success */
  cli = RUN("collapse", "rules/dungeon8.rules", "--size", "12x8",
            "--constraints", "rules/dungeon8.constraints", "-n", "30");
  char line[64];
  snprintf(line, sizeof line, "\nbroken: %d (", broken);
  cr_expect(strstr(cli.out, line), "%s", cli.out);
  cr_expect_eq(cli.code, kept ? 10 : 0);
  /* the JSON has the broken runs' interval the text gives (it had only
   * their count) */
  const char *at = strstr(cli.out, line);
  double pct, lo = -1, hi = -1;
  cr_assert(at && sscanf(at + strlen(line),
                         "%lf%%, 95%% interval %lf%% to "
                         "%lf%%)",
                         &pct, &lo, &hi) == 3,
            "%s", cli.out);
  run_free(&cli);
  cli =
      RUN("collapse", "rules/dungeon8.rules", "--size", "12x8", "--constraints",
          "rules/dungeon8.constraints", "-n", "30", "--format", "json");
  cJSON *doc = cJSON_Parse(cli.out);
  cr_assert(doc, "%s", cli.out);
  const cJSON *iv = cJSON_GetObjectItemCaseSensitive(doc, "broken_interval95");
  cr_assert(cJSON_GetArraySize(iv) == 2, "%s", cli.out);
  char said[64], got[64];
  snprintf(said, sizeof said, "%.1f %.1f", lo, hi);
  snprintf(got, sizeof got, "%.1f %.1f",
           100 * cJSON_GetArrayItem(iv, 0)->valuedouble,
           100 * cJSON_GetArrayItem(iv, 1)->valuedouble);
  cr_expect_str_eq(got, said);
  cJSON_Delete(doc);
  run_free(&cli);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ---------------------------------------------------------------- path */

typedef struct path_want {
  const char *cls;
  int a, b; /* cells */
} path_want;

static void check_path(const want *x, const int *tiles, const void *user) {
  const path_want *p = user;
  int *comp = malloc((size_t)(x->w * x->h) * sizeof *comp);
  regions(x, p->cls, tiles, comp);
  cr_expect(comp[p->a] >= 0 && comp[p->a] == comp[p->b],
            "(%d,%d) and (%d,%d) not joined", p->a / x->w, p->a % x->w,
            p->b / x->w, p->b % x->w);
  free(comp);
}

/* A path of floor from corner to corner, and a connected floor holding a
 * given cell: guarded runs keep them; a plain run's map may not. */
Test(collapse_global, path_and_at_guarded) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  want x = {r, 16, 12, TILESAT_SQUARE, false, NULL};
  tilesat_map *m = map_with(&x, "tilesat-constraints 1\n"
                                "path .,+,,,= 0,0 11,15\n");
  path_want p = {".+,=", 0, 11 * 16 + 15};
  cr_expect_eq(runs(&x, m, true, 8, check_path, &p), 8);
  tilesat_map_free(m);
  m = map_with(&x, "tilesat-constraints 1\n"
                   "connected .,+,,,= at 6,8\n");
  path_want at = {".+,=", 6 * 16 + 8, 6 * 16 + 8};
  cr_expect_eq(runs(&x, m, true, 8, check_path, &at), 8);
  cr_expect_eq(runs(&x, m, true, 8, check_connected, ".+,="), 8);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------------ borders, masks */

static void check_masks(const want *x, const int *tiles, const void *user) {
  (void)user;
  for (int c = 0; c < x->w * x->h; c++)
    cr_expect_eq(tiles[c] == TILESAT_NO_TILE, masked_at(x, c));
}

/* A masked column splits coast 7x4: the adjacency stops at it, the masked
 * cells hold no tile, and a connected sea keeps to one side of it. */
Test(collapse_global, masks_and_borders_as_bans) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  bool masked[28] = {false};
  for (int row = 0; row < 4; row++)
    masked[row * 7 + 3] = true;
  masked[0] = true;
  want x = {r, 7, 4, TILESAT_SQUARE, false, masked};
  tilesat_map *m = map_with(&x, NULL);
  cr_expect_eq(runs(&x, m, false, 20, check_masks, NULL), 20);
  tilesat_map_free(m);
  m = map_with(&x, "tilesat-constraints 1\nconnected S\nborder e L\n");
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = TILESAT_GUARD_SAT;
  int tiles[28];
  for (int s = 1; s <= 10; s++) {
    o.seed = (uint64_t)s;
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT);
    cr_expect(pairs_ok(&x, tiles));
    check_masks(&x, tiles, NULL);
    cr_expect_leq(nregions(&x, "S", tiles), 1, "seed %d", s);
    bool left = false, right = false;
    for (int q = 0; q < 28; q++) {
      left |= q % 7 < 3 && in_class(&x, "S", tiles[q]);
      right |= q % 7 > 3 && in_class(&x, "S", tiles[q]);
      if (q % 7 == 6)
        cr_expect(in_class(&x, "L", tiles[q]), "seed %d: east not L", s);
    }
    cr_expect(!(left && right), "seed %d: sea on both sides", s);
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  /* the CLI draws the map with its mask */
  char *dir = temp_dir();
  char mask[512];
  snprintf(mask, sizeof mask, "%s/mask.txt", dir);
  FILE *f = fopen(mask, "w");
  fputs("...x...\n...x...\n...x...\n...x...\n", f);
  fclose(f);
  run_result cli = RUN("collapse", "rules/coast.rules", "--size", "7x4",
                       "--mask", mask, "--guard", "sat");
  cr_expect_eq(cli.code, 10, "%s", cli.err);
  for (int row = 0; row < 4; row++)
    cr_expect_eq(cli.out[4 + row * 8 + 3], ' ', "%s", cli.out);
  run_free(&cli);
  rm_dir(dir);
  tilesat_rules_free(r);
}

/* --------------------------------------------------------------- UNSAT */

/* Constraints no map keeps: a guarded run ends UNSAT (exit 20), whether
 * propagation sees it at once or search has to. */
Test(collapse_global, unsat_when_the_constraints_cannot_hold) {
  /* floor on both sides of a wall: no region joins them (propagation) */
  const char *wall[] = {"rules/dungeon8.rules",
                        "--size",
                        "3x1",
                        "--connected",
                        ".,+,,,=",
                        "--pin",
                        "0,0=.",
                        "--pin",
                        "0,1=#",
                        "--pin",
                        "0,2=.",
                        NULL};
  /* a path through pinned water (propagation) */
  const char *water[] = {"rules/dungeon8.rules", "--size", "1x5",   "--path",
                         "0,0:4,0=.,+,,,=",      "--pin",  "2,0=~", NULL};
  /* more trees than the grass around them allows (search) */
  const char *trees[] = {
      "rules/dungeon8.rules", "--size", "12x8", "--count", "T>=60", NULL};
  const char **cases[] = {wall, water, trees};
  for (size_t i = 0; i < 3; i++) {
    const char *args[16] = {"collapse"};
    size_t n = 1;
    for (const char **a = cases[i]; *a; a++)
      args[n++] = *a;
    run_result cli = run_cli(args);
    /* a plain run fails: at a cell, or (connectivity) with its map */
    cr_expect_eq(cli.code, 0, "case %zu: plain %s", i, cli.err);
    cr_expect(!strncmp(cli.out, "contradiction at (", 18) ||
                  !strncmp(cli.out, "broken after ", 13),
              "%s", cli.out);
    run_free(&cli);
    args[n++] = "--guard";
    args[n++] = "sat";
    cli = run_cli(args);
    cr_expect_eq(cli.code, 20, "case %zu: %s", i, cli.err);
    cr_expect_str_eq(cli.out, "UNSAT\n", "case %zu", i);
    run_free(&cli);
    args[0] = "check"; /* check agrees */
    args[n - 2] = NULL;
    cli = run_cli(args);
    cr_expect_eq(cli.code, 20, "case %zu: check says %d", i, cli.code);
    run_free(&cli);
  }
}

/* ------------------------------------------------------- the guard's bans */

/* Every choice a guarded run banned is proved: with the choices before it
 * pinned, check (which keeps the constraints by cuts) finds a map, and
 * with the banned tile pinned too, none. */
Test(collapse_global, guard_bans_proved_by_check) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  const int w = 10, h = 10;
  const char *text = "tilesat-constraints 1\nconnected .,+,,,=\ncount T <= 3\n";
  want x = {r, w, h, TILESAT_SQUARE, false, NULL};
  tilesat_map *m = map_with(&x, text);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = TILESAT_GUARD_SAT;
  o.solve.backend = TILESAT_CADICAL;
  int tiles[100], again[100], proved = 0;
  for (int s = 1; s <= 12 && proved < 12; s++) {
    o.seed = (uint64_t)s;
    /* same seed, same map, on a collapser that ran nothing before */
    tilesat_collapse *fresh = tilesat_collapse_new(m, &err);
    cr_assert_eq(tilesat_collapse_run(fresh, &o, again, &err), TILESAT_SAT);
    tilesat_collapse_free(fresh);
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT);
    cr_expect_arr_eq(tiles, again, sizeof tiles, "seed %d", s);
    cr_expect_leq(nregions(&x, ".+,=", tiles), 1);
    cr_expect_leq(count_class(&x, "T", tiles), 3);
    for (long i = 0; i < collapse_info(c).banned && proved < 12; i++) {
      size_t step;
      int bcell, btile;
      tilesat_collapse_ban(c, (size_t)i, &step, &bcell, &btile);
      for (int with = 0; with < 2; with++) {
        tilesat_map *p = map_with(&x, text);
        for (size_t q = 0; q < step; q++) {
          int cell, tile;
          tilesat_collapse_choices(c, q, &cell, &tile);
          cr_assert_eq(tilesat_map_pin(p, cell / w, cell % w,
                                       tilesat_rules_tile_name(r, tile), &err),
                       0, "%s", err.msg);
        }
        if (with)
          cr_assert_eq(tilesat_map_pin(p, bcell / w, bcell % w,
                                       tilesat_rules_tile_name(r, btile), &err),
                       0, "%s", err.msg);
        cr_expect_eq(tilesat_check(p, SOLVE(TILESAT_CADICAL), NULL, &err),
                     with ? TILESAT_UNSAT : TILESAT_SAT,
                     "seed %d, ban %ld, with %d", s, i, with);
        tilesat_map_free(p);
      }
      proved++;
    }
  }
  cr_expect_gt(proved, 0, "no guarded run banned a choice");
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ----------------------------------------------------------------- CLI */

/* What the CLI says about a run that fails on a count, --explain (which
 * replays through trace, borders only) refused on a masked map (and on
 * counts: test_global.c), JSON's fields. */
Test(collapse_global_cli, count_failures_explain_json) {
  /* the block guard decides blocks again without them: refused, and auto
   * stays the exact guard */
  expect_cli_error("tilesat: collapse --guard blocks cannot keep connected "
                   "constraints yet (--connected: S connected: the cells "
                   "holding S form one region); --guard sat can\n",
                   "collapse", "rules/coast.rules", "--size", "3x3",
                   "--connected", "S", "--guard", "blocks");
  expect_cli_error("tilesat: collapse --guard blocks cannot keep masked cells "
                   "yet (2 of the map's cells are masked); --guard sat can\n",
                   "collapse", "rules/coast.rules", "--size", "4x3", "--mask",
                   "tests/data/mask-4x3.txt", "--guard", "blocks");
  run_result a = RUN("collapse", "rules/dungeon8.rules", "--size", "16x16",
                     "--constraints", "rules/dungeon8.constraints", "--guard",
                     "auto", "--seed", "3");
  run_result b = RUN("collapse", "rules/dungeon8.rules", "--size", "16x16",
                     "--constraints", "rules/dungeon8.constraints", "--guard",
                     "sat", "--seed", "3");
  cr_expect_eq(a.code, 10, "%s", a.err);
  cr_expect_str_eq(a.out, b.out);
  cr_expect(strstr(a.err, " 0 block repairs "), "%s", a.err);
  run_free(&a);
  run_free(&b);
  expect_cli_error("tilesat: collapse --explain cannot keep masked cells yet "
                   "(2 of the map's cells are masked)\n",
                   "collapse", "rules/coast.rules", "--size", "4x3", "--mask",
                   "tests/data/mask-4x3.txt", "--explain");
  /* a plain run failing on a count: the library's words after the cell */
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 12, 8, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "T=3",
                                          "--count", &err),
               0);
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[96], seed = 0;
  for (int s = 1; s <= 40 && !seed; s++) {
    o.seed = (uint64_t)s;
    if (tilesat_collapse_run(c, &o, tiles, &err) == TILESAT_UNKNOWN &&
        collapse_info(c).why)
      seed = s;
  }
  cr_assert(seed, "no run failed on the count");
  int cell, tile, bad = collapse_info(c).contradiction;
  size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
  char want_line[512], seedarg[16];
  snprintf(want_line, sizeof want_line,
           "contradiction at (%d,%d) after %zu choices (seed %d): %s\n",
           bad / 12, bad % 12, k, seed, collapse_info(c).why);
  snprintf(seedarg, sizeof seedarg, "%d", seed);
  run_result cli = RUN("collapse", "rules/dungeon8.rules", "--size", "12x8",
                       "--count", "T=3", "--seed", seedarg);
  cr_expect_eq(cli.code, 0, "%s", cli.err);
  cr_expect_str_eq(cli.out, want_line);
  run_free(&cli);
  cli = RUN("collapse", "rules/dungeon8.rules", "--size", "12x8", "--count",
            "T=3", "--seed", seedarg, "--format", "json");
  cr_expect(strstr(cli.out, "\"result\":\t\"contradiction\"") ||
                strstr(cli.out, "\"result\": \"contradiction\""),
            "%s", cli.out);
  cr_expect(strstr(cli.out, "\"why\""), "%s", cli.out);
  run_free(&cli);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ---------------------------------------------------- random cross-check */

/* Random small dungeons (square or hex, open or periodic, masked cells,
 * pins, a connected, path or count constraint): a guarded run's answer is
 * check's (SAT or UNSAT), and its map keeps the constraint by the test's
 * own counting and flood fill. */
Test(collapse_global, guarded_runs_agree_with_check) {
  tilesat_rules *sq = rules_from_file("rules/dungeon8.rules");
  char *sample = slurp("rules/dungeon8.txt");
  tilesat_rules *hex = rules_from_sample(sample, TILESAT_HEX, false);
  free(sample);
  test_rng = 20261127;
  int sat = 0, unsat = 0;
  for (int iter = 0; iter < 200; iter++) {
    bool ishex = iter % 2;
    want x = {ishex ? hex : sq,
              2 + (int)rnd(5),
              2 + (int)rnd(5),
              ishex ? TILESAT_HEX : TILESAT_SQUARE,
              false,
              NULL};
    x.periodic = rnd(3) == 0 && (!ishex || x.h % 2 == 0);
    bool masked[36] = {false};
    for (int c = 0; c < x.w * x.h; c++)
      masked[c] = rnd(8) == 0;
    masked[0] = masked[x.w * x.h - 1] = false; /* a path's ends */
    x.masked = masked;
    tilesat_map *m = map_with(&x, NULL);
    tilesat_error err;
    char val[64];
    int kind = (int)rnd(4), k = (int)rnd(5);
    const char *opt = kind == 0   ? "--connected"
                      : kind == 1 ? "--path"
                                  : "--count";
    tilesat_global_kind gk = kind == 0   ? TILESAT_GLOBAL_CONNECTED
                             : kind == 1 ? TILESAT_GLOBAL_PATH
                                         : TILESAT_GLOBAL_COUNT;
    if (kind == 0)
      snprintf(val, sizeof val, ".,+,,,=");
    else if (kind == 1)
      snprintf(val, sizeof val, "0,0:%d,%d=.,+,,,=", x.h - 1, x.w - 1);
    else if (kind == 2)
      snprintf(val, sizeof val, ".,+,,,=>=%d", 2 * k);
    else
      snprintf(val, sizeof val, "#=%d", k);
    cr_assert_eq(tilesat_map_constraint_add(m, gk, val, opt, &err), 0, "%s",
                 err.msg);
    for (int p = (int)rnd(3); p > 0; p--) {
      int c = (int)rnd((unsigned)(x.w * x.h));
      if (!masked[c])
        tilesat_map_pin(m, c / x.w, c % x.w,
                        tilesat_rules_tile_name(x.r, (int)rnd(9)), &err);
    }
    int want_res = tilesat_check(m, SOLVE(TILESAT_CADICAL), NULL, &err);
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.guard = TILESAT_GUARD_SAT;
    o.seed = (uint64_t)iter;
    int tiles[36];
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    cr_expect_eq(res, want_res, "iter %d: %s %s on %dx%d%s%s: %s", iter, opt,
                 val, x.w, x.h, ishex ? " hex" : "",
                 x.periodic ? " periodic" : "", err.msg);
    if (res == TILESAT_SAT) {
      sat++;
      cr_expect(pairs_ok(&x, tiles), "iter %d", iter);
      int *comp = malloc(sizeof(int) * 36);
      int R = regions(&x, ".+,=", tiles, comp);
      int n = count_class(&x, ".+,=", tiles);
      if (kind == 0)
        cr_expect_leq(R, 1, "iter %d", iter);
      else if (kind == 1)
        cr_expect(comp[0] >= 0 && comp[0] == comp[x.w * x.h - 1], "iter %d",
                  iter);
      else if (kind == 2)
        cr_expect_geq(n, 2 * k, "iter %d", iter);
      else
        cr_expect_eq(count_class(&x, "#", tiles), k, "iter %d", iter);
      free(comp);
    } else {
      unsat++;
    }
    tilesat_collapse_free(c);
    tilesat_map_free(m);
  }
  cr_expect_gt(sat, 40, "%d SAT", sat);
  cr_expect_gt(unsat, 20, "%d UNSAT", unsat);
  tilesat_rules_free(hex);
  tilesat_rules_free(sq);
}
