/* The block guard of collapse (--guard blocks, and auto past its budget):
 * every guarded map is valid (tilesat_map_verify, and a check of every
 * pair written here), on maps where the exact guard gives up (Castle), on
 * rules whose dooms are not local (loops that must close), on periodic
 * and hex maps; rules with no valid map end UNSAT; the tiles' shares stay
 * WFC's; --guard is parsed and refused as it should be. */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every pair of neighbours on a square map allowed by the rules, checked
 * here from the rules' pairs alone (N, E, S, W: rows up, columns right). */
static bool square_map_valid(const tilesat_rules *r, int w, int h,
                             bool periodic, const int *tiles) {
  static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int d = 0; d < 4; d++) {
        int nx = x + dx[d], ny = y + dy[d];
        if (periodic) {
          nx = (nx + w) % w;
          ny = (ny + h) % h;
        } else if (nx < 0 || ny < 0 || nx >= w || ny >= h) {
          continue;
        }
        if (!tilesat_rules_allows(r, tiles[y * w + x], d, tiles[ny * w + nx]))
          return false;
      }
  return true;
}

/* How a map's pairs are checked here: not (hex), square, square torus. */
enum { HEX, SQUARE, TORUS };

/* Runs seeds 1..runs of m with `guard` (budget: guard_budget): each must
 * give a valid map; returns the block repairs made in all. */
static long guarded_runs(const tilesat_map *m, int kind, tilesat_guard guard,
                         long budget, int runs) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  long repairs = 0;
  for (int s = 1; s <= runs; s++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = (uint64_t)s;
    o.guard = guard;
    o.guard_budget = budget;
    o.solve.backend = TILESAT_CADICAL;
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT,
                 "seed %d: %s", s, err.msg);
    char why[256];
    cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "seed %d: %s", s,
              why);
    if (kind != HEX)
      cr_expect(square_map_valid(map_info(m).rules, w, h, kind == TORUS, tiles),
                "seed %d", s);
    cr_expect_eq(collapse_info(c).contradiction, -1);
    cr_expect_leq(collapse_info(c).resolved,
                  collapse_info(c).repairs * (long)w * h);
    repairs += collapse_info(c).repairs;
  }
  free(tiles);
  tilesat_collapse_free(c);
  return repairs;
}

/* Plain runs of seeds 1..runs that fail. */
static int plain_failures(const tilesat_map *m, int runs) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  int *tiles = malloc((size_t)map_info(m).width * (size_t)map_info(m).height *
                      sizeof *tiles);
  int failed = 0;
  for (int s = 1; s <= runs; s++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = (uint64_t)s;
    failed += tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_SAT;
  }
  free(tiles);
  tilesat_collapse_free(c);
  return failed;
}

/* Castle, whose dooms are not local (rivers and walls close or leave the
 * map): at 128x128 the exact guard makes no map in minutes; blocks make
 * one in well under a second, and auto with a budget of one solver call
 * goes on by blocks too. */
Test(blocks, castle_where_the_exact_guard_gives_up) {
  tilesat_rules *r = tileset("Castle");
  tilesat_map *big = map_new(r, 128, 128, TILESAT_SQUARE, false);
  cr_expect_gt(plain_failures(big, 2), 0);
  cr_expect_gt(guarded_runs(big, SQUARE, TILESAT_GUARD_BLOCKS, 0, 2), 0);
  tilesat_map *m = map_new(r, 32, 32, TILESAT_SQUARE, false);
  cr_expect_gt(guarded_runs(m, SQUARE, TILESAT_GUARD_AUTO, 1, 10), 0,
               "auto past its budget made no block repair");
  tilesat_map_free(m);
  tilesat_map_free(big);
  tilesat_rules_free(r);
}

/* Loops: a cell's sides carry a line or not, the sides that meet must
 * agree, and each tile has 0, 2 or 4 lines (no end).  Plain WFC never
 * fails on them here: a guarded run (blocks, auto) that meets no
 * contradiction is WFC's own run, tile for tile. */
Test(blocks, a_run_with_no_contradiction_is_wfc_s) {
  static const char *const tiles[] = {"O",  "NS", "EW", "NE",
                                      "ES", "SW", "NW", "NESW"};
  char text[8192];
  int n = snprintf(text, sizeof text, "tilesat-rules 1\n");
  for (int i = 0; i < 8; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, "tile %s 1\n", tiles[i]);
  static const char dirs[] = "NESW", opp[] = "SWNE";
  for (int a = 0; a < 8; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < 8; b++)
        if (!strchr(tiles[a], dirs[d]) == !strchr(tiles[b], opp[d]))
          n += snprintf(text + n, sizeof text - (size_t)n, "allow %s %c %s\n",
                        tiles[a], dirs[d], tiles[b]);
  char *path = temp_file(text, -1);
  tilesat_rules *r = rules_from_file(path);
  tilesat_map *m = map_new(r, 30, 30, TILESAT_SQUARE, true);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  int plain[900], guarded[900];
  for (uint64_t s = 1; s <= 10; s++)
    for (int g = TILESAT_GUARD_BLOCKS; g <= TILESAT_GUARD_AUTO; g++) {
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.seed = s;
      cr_assert_eq(tilesat_collapse_run(c, &o, plain, &err), TILESAT_SAT);
      o.guard = (tilesat_guard)g;
      cr_assert_eq(tilesat_collapse_run(c, &o, guarded, &err), TILESAT_SAT);
      cr_expect_eq(memcmp(plain, guarded, sizeof plain), 0, "seed %llu",
                   (unsigned long long)s);
      cr_expect(square_map_valid(r, 30, 30, true, guarded));
      cr_expect_eq(collapse_info(c).repairs, 0);
    }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  remove(path);
  free(path);
}

/* Periodic and hex maps: blocks wrap around the torus, keep the rows'
 * parity of odd-r hex; every map valid. */
Test(blocks, periodic_and_hex_maps) {
  tilesat_rules *hex = rules_from_file("rules/coast-hex.rules");
  tilesat_rules *knots = tileset("Knots"), *castle = tileset("Castle");
  tilesat_map *maps[] = {
      map_new(hex, 30, 30, TILESAT_HEX, true),
      map_new(hex, 25, 21, TILESAT_HEX, false),
      map_new(knots, 40, 40, TILESAT_SQUARE, true),
      map_new(castle, 40, 40, TILESAT_SQUARE, true),
  };
  int kinds[] = {HEX, HEX, TORUS, TORUS};
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
    guarded_runs(maps[i], kinds[i], TILESAT_GUARD_BLOCKS, 0, 5);
    guarded_runs(maps[i], kinds[i], TILESAT_GUARD_AUTO, 1, 3);
    tilesat_map_free(maps[i]);
  }
  tilesat_rules_free(hex);
  tilesat_rules_free(knots);
  tilesat_rules_free(castle);
}

/* No valid map: UNSAT, on the rules alone (a checkerboard on a torus of
 * odd width: every block has a filling, the whole map none), with rules
 * that have no pair at all, or with clashing pins. */
Test(blocks, no_valid_map_is_unsat) {
  char *board = temp_file("tilesat-rules 1\ntile A 1\ntile B 1\n"
                          "allow A N B\nallow A E B\nallow A S B\n"
                          "allow A W B\nallow B N A\nallow B E A\n"
                          "allow B S A\nallow B W A\n",
                          -1);
  tilesat_rules *cb = rules_from_file(board);
  tilesat_rules *hard = rules_from_file("rules/hard.rules");
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  tilesat_map *c3 = map_new(coast, 3, 3, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin_spec(c3, "0,0=S", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(c3, "2,2=L", &err), 0);
  tilesat_map *maps[] = {map_new(cb, 21, 20, TILESAT_SQUARE, true),
                         map_new(hard, 3, 3, TILESAT_SQUARE, false), c3};
  int tiles[420];
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
    for (int g = TILESAT_GUARD_BLOCKS; g <= TILESAT_GUARD_AUTO; g++) {
      tilesat_collapse *c = tilesat_collapse_new(maps[i], &err);
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.guard = (tilesat_guard)g;
      cr_expect_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_UNSAT,
                   "case %zu, %s: %s", i, tilesat_guard_name(o.guard), err.msg);
      tilesat_collapse_free(c);
    }
    tilesat_map_free(maps[i]);
  }
  /* with an even width the checkerboard has its two maps */
  tilesat_map *even = map_new(cb, 20, 20, TILESAT_SQUARE, true);
  guarded_runs(even, TORUS, TILESAT_GUARD_BLOCKS, 0, 3);
  tilesat_map_free(even);
  tilesat_rules_free(cb);
  tilesat_rules_free(hard);
  tilesat_rules_free(coast);
  remove(board);
  free(board);
}

/* Rings: A and B alternate along a row, X follows X, and rows may stack
 * as they like.  On a torus of odd width a row of A and B cannot close,
 * so a choice of A or B dooms the run 41 cells away from where the
 * contradiction shows: no block short of the whole map has a filling.
 * With the memory the whole map's solver needs, that block fills it; with
 * too little (a 10 MiB bound), the run starts over from another seed,
 * and when every start grows that far, the run ends in an error that says
 * so.  The exact guard needs the whole map's solver there: `--guard sat`
 * says it does not fit and names the guards that often need none; auto
 * leaves it to blocks. */
static const char ring_rules[] =
    "tilesat-rules 1\ntile A 1\ntile B 1\ntile X %d\n"
    "allow A E B\nallow A W B\nallow B E A\nallow B W A\n"
    "allow X E X\nallow X W X\n"
    "allow A N A B X\nallow B N A B X\nallow X N A B X\n"
    "allow A S A B X\nallow B S A B X\nallow X S A B X\n";

Test(blocks, non_local_dooms_fill_the_whole_map_or_start_over) {
  char text[512];
  snprintf(text, sizeof text, ring_rules, 30);
  char *path = temp_file(text, -1);
  tilesat_rules *r = rules_from_file(path);
  tilesat_map *m = map_new(r, 41, 4, TILESAT_SQUARE, true);
  bool whole[13] = {false};
  long wholes = 0;
  for (int low = 0; low <= 1; low++) {
    tilesat_map_set_max_memory(m, low ? (size_t)10 << 20 : (size_t)1 << 30);
    tilesat_error err;
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    cr_assert(c, "%s", err.msg);
    int tiles[41 * 4];
    for (int s = 1; s <= 12; s++) {
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.seed = (uint64_t)s;
      o.guard = TILESAT_GUARD_BLOCKS;
      cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT,
                   "seed %d, bound %d: %s", s, low, err.msg);
      cr_expect(square_map_valid(r, 41, 4, true, tiles), "seed %d", s);
      for (int x = 0; x < 41 * 4; x++)
        cr_expect_eq(tiles[x], 2, "seed %d: not all X", s);
      if (!low) { /* one block: the whole map */
        whole[s] = collapse_info(c).repairs > 0;
        wholes += whole[s];
        cr_expect_eq(collapse_info(c).resolved, whole[s] ? 41 * 4 : 0,
                     "seed %d", s);
      } else { /* the same run, up to its whole-map block: a new start */
        cr_expect_eq(collapse_info(c).repairs, 0, "seed %d", s);
        cr_expect_eq(collapse_info(c).restarts > 0, whole[s], "seed %d", s);
      }
      cr_expect_eq(collapse_info(c).restarts > 0, low && whole[s]);
    }
    tilesat_collapse_free(c);
  }
  cr_expect_gt(wholes, 0, "no run grew a block to the whole map");
  /* the exact guard needs the whole map's solver there (no window
   * refutes a ring): sat says so and names the guards that do not; auto
   * leaves it to blocks, and where their block grows to the whole map, to
   * modify (issue 32), which needs no solver of the whole map */
  int seed = 1;
  while (seed < 12 && !whole[seed])
    seed++;
  char seed_text[16];
  snprintf(seed_text, sizeof seed_text, "%d", seed);
  run_result sat =
      RUN("collapse", path, "--size", "41x4", "--periodic", "--guard", "sat",
          "--seed", seed_text, "--max-memory", "10M");
  cr_expect_eq(sat.code, 1, "%s", sat.err);
  cr_expect_str_eq(sat.err,
                   "tilesat: collapse: a 41x4 map of 3 tiles needs about 61 "
                   "MiB, more than --max-memory 10 MiB; not even a 1x1 map "
                   "fits (no window refutes the run; --guard auto or blocks "
                   "can often do without the whole map's solver)\n");
  run_free(&sat);
  run_result aut =
      RUN("collapse", path, "--size", "41x4", "--periodic", "--guard", "auto",
          "--seed", seed_text, "--max-memory", "10M");
  cr_expect_eq(aut.code, 10, "%s", aut.err);
  cr_expect(strstr(aut.err, "guard: auto went on by modify (its blocks grew "
                            "to the whole map, whose solver does not fit): "
                            "modify from a 1x1 periodic pattern"),
            "%s", aut.err);
  cr_expect(strstr(aut.out, "SAT\n"), "%s", aut.out);
  run_free(&aut);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  remove(path);
  free(path);
  /* X as rare as A: every start of 8 rows grows to the whole map */
  snprintf(text, sizeof text, ring_rules, 1);
  path = temp_file(text, -1);
  run_result cli = RUN("collapse", path, "--size", "41x8", "--periodic",
                       "--guard", "blocks", "--max-memory", "10M");
  cr_expect_eq(cli.code, 1);
  cr_expect_str_eq(cli.out, "");
  cr_expect_str_eq(
      cli.err, "tilesat: collapse: the guard's blocks grew to the whole map "
               "in each of 9 starts, and its solver does not fit: a 41x8 map "
               "of 3 tiles needs about 61 MiB, more than --max-memory 10 MiB; "
               "not even a 1x1 map fits\n");
  run_free(&cli);
  /* the same through the library with no error to fill: -1, no crash */
  tilesat_rules *rare = rules_from_file(path);
  tilesat_map *m8 = map_new(rare, 41, 8, TILESAT_SQUARE, true);
  tilesat_map_set_max_memory(m8, (size_t)10 << 20);
  tilesat_collapse *c8 = tilesat_collapse_new(m8, NULL);
  cr_assert(c8);
  tilesat_collapse_options o8;
  tilesat_collapse_options_init(&o8);
  o8.guard = TILESAT_GUARD_BLOCKS;
  int tiles8[41 * 8];
  cr_expect_eq(tilesat_collapse_run(c8, &o8, tiles8, NULL), -1);
  tilesat_collapse_free(c8);
  tilesat_map_free(m8);
  tilesat_rules_free(rare);
  remove(path);
  free(path);
}

/* Each tile's share of the cells: guarded maps (blocks) against the plain
 * runs that succeed, Castle 24x24, 150 seeds each: within 2 percentage
 * points (the share of cells re-solved is a few percent). */
Test(blocks, tile_shares_stay_wfc_s) {
  tilesat_rules *r = tileset("Castle");
  int T = tilesat_rules_ntiles(r), N = 24 * 24;
  tilesat_map *m = map_new(r, 24, 24, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  double *count[2] = {calloc((size_t)T, sizeof(double)),
                      calloc((size_t)T, sizeof(double))};
  double cells[2] = {0, 0};
  long resolved = 0;
  int tiles[24 * 24];
  for (int g = 0; g < 2; g++)
    for (uint64_t s = 1; s <= 150; s++) {
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.seed = s;
      o.guard = g ? TILESAT_GUARD_BLOCKS : TILESAT_GUARD_NONE;
      int res = tilesat_collapse_run(c, &o, tiles, &err);
      cr_assert(res == TILESAT_SAT || (!g && res == TILESAT_UNKNOWN));
      if (res != TILESAT_SAT)
        continue;
      resolved += g ? collapse_info(c).resolved : 0;
      for (int i = 0; i < N; i++)
        count[g][tiles[i]]++;
      cells[g] += N;
    }
  double worst = 0;
  for (int t = 0; t < T; t++) {
    double d = fabs(count[1][t] / cells[1] - count[0][t] / cells[0]);
    worst = d > worst ? d : worst;
  }
  cr_log_info("tile shares: largest difference %.2f points; %ld of %.0f "
              "cells re-solved",
              100 * worst, resolved, cells[1]);
  cr_expect_lt(worst, 0.02, "largest difference %.2f points", 100 * worst);
  cr_expect_gt(resolved, 0, "no run was repaired: the test proves nothing");
  cr_expect_lt(resolved, cells[1] / 10, "%ld cells of %.0f re-solved", resolved,
               cells[1]);
  free(count[0]);
  free(count[1]);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(blocks_cli, guard_values) {
  for (int g = 0; g <= TILESAT_GUARD_AUTO; g++) {
    tilesat_guard back = TILESAT_GUARD_NONE;
    cr_expect_eq(
        tilesat_guard_parse(tilesat_guard_name((tilesat_guard)g), &back), 0);
    cr_expect_eq(back, g);
  }
  tilesat_guard unused;
  cr_expect_eq(tilesat_guard_parse("exact", &unused), -1);
  expect_cli_error(
      "tilesat: --guard: 'maybe' is not none, sat, blocks, auto or modify\n",
      "collapse", "rules/coast.rules", "--size", "3x3", "--guard", "maybe");
  expect_cli_error(
      "tilesat: --guard: '' is not none, sat, blocks, auto or modify\n",
      "collapse", "rules/coast.rules", "--size", "3x3", "--guard", "");
  tilesat_rules *cr = tileset("Castle");
  char *castle = rules_file(cr);
  tilesat_rules_free(cr);
  run_result r = RUN("collapse", castle, "--size", "64x64", "--seed", "1",
                     "--guard", "blocks");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_eq(strncmp(r.out, "SAT\n", 4), 0, "%s", r.out);
  cr_expect(strstr(r.err, "tilesat: collapse: guard: 0 exact bans, "), "%s",
            r.err);
  cr_expect(strstr(r.err, " block repairs ("), "%s", r.err);
  cr_expect(strstr(r.err, " cells re-solved, "), "%s", r.err);
  run_free(&r);
  r = RUN("collapse", castle, "--size", "24x24", "-n", "20", "--guard", "auto");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(strstr(r.out, "successes: 20\ncontradictions: 0 (0.0%"), "%s",
            r.out);
  cr_expect(strstr(r.out, "block repairs: "), "%s", r.out);
  run_free(&r);
  r = RUN("collapse", "rules/hard.rules", "--size", "3x3", "--guard", "blocks");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  remove(castle);
  free(castle);
}
