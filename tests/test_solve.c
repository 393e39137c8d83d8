/* check and enumerate, on both backends: the seed's numbers, and
 * cross-checks against brute force on random rule sets. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

static const char *coast_sample = "LLLLLLLLLL\nLLLLLLLLLL\nLLLLLLLLLL\n"
                                  "LLLLLLLLLL\nLLLLLCLLCC\nLLLLCSCCSS\n"
                                  "LLLCSSSSSS\nLLCSSSSSSS\nLCSSSSSSSS\n"
                                  "CSSSSSSSSS\n";

static long count(const tilesat_rules *r, int w, int h, const char *pin) {
  long first = -1;
  for (int i = 0; i < NBACKENDS; i++) {
    tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), false);
    tilesat_error err;
    if (pin)
      cr_assert_eq(tilesat_map_pin_spec(m, pin, &err), 0, "%s", err.msg);
    long n = enum_count(m, backends[i]);
    if (i == 0)
      first = n;
    else
      cr_expect_eq(n, first, "backends disagree on %dx%d: %ld vs %ld", w, h,
                   first, n);
    tilesat_map_free(m);
  }
  return first;
}

Test(seed, coast_counts) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  cr_expect_eq(count(r, 1, 2, NULL), 4);
  cr_expect_eq(count(r, 2, 2, NULL), 10);
  cr_expect_eq(count(r, 3, 3, NULL), 35);
  cr_expect_eq(count(r, 3, 3, "2,2=L"), 5);
  /* known values of coast n x n beyond the seed */
  cr_expect_eq(count(r, 1, 1, NULL), 3);
  cr_expect_eq(count(r, 4, 4, NULL), 122);
  cr_expect_eq(count(r, 5, 5, NULL), 421);
  tilesat_rules_free(r);
}

Test(seed, hard_2x2_has_exactly_the_sample) {
  tilesat_rules *r = rules_from_sample("KB\nSB\n", TILESAT_SQUARE, false);
  for (int i = 0; i < NBACKENDS; i++) {
    tilesat_map *m = map_new(r, 2, 2, TILESAT_SQUARE, false);
    int tiles[4];
    tilesat_error err;
    cr_assert_eq(tilesat_check(m, SOLVE(backends[i]), tiles, &err),
                 TILESAT_SAT);
    const char *want[] = {"K", "B", "S", "B"};
    for (int c = 0; c < 4; c++)
      cr_expect_str_eq(tilesat_rules_tile_name(r, tiles[c]), want[c]);
    cr_expect_eq(enum_count(m, backends[i]), 1);
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

Test(seed, hard_3x3_and_3x1_are_unsat) {
  tilesat_rules *r = rules_from_sample("KB\nSB\n", TILESAT_SQUARE, false);
  int sizes[][2] = {{3, 3}, {3, 1}};
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < NBACKENDS; i++) {
      tilesat_map *m =
          map_new(r, sizes[s][0], sizes[s][1], TILESAT_SQUARE, false);
      tilesat_error err;
      cr_expect_eq(tilesat_check(m, SOLVE(backends[i]), NULL, &err),
                   TILESAT_UNSAT);
      cr_expect_eq(enum_count(m, backends[i]), 0);
      tilesat_map_free(m);
    }
  tilesat_rules_free(r);
}

Test(check, witness_is_valid_and_respects_pins) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  for (int i = 0; i < NBACKENDS; i++) {
    tilesat_map *m = map_new(r, 12, 9, TILESAT_SQUARE, false);
    tilesat_error err;
    cr_assert_eq(tilesat_map_pin_spec(m, "8,0=S", &err), 0);
    cr_assert_eq(tilesat_map_pin_spec(m, "0,11=L", &err), 0);
    int tiles[12 * 9];
    cr_assert_eq(tilesat_check(m, SOLVE(backends[i]), tiles, &err),
                 TILESAT_SAT);
    char why[256];
    cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s", why);
    cr_expect_str_eq(tilesat_rules_tile_name(r, tiles[8 * 12]), "S");
    cr_expect_str_eq(tilesat_rules_tile_name(r, tiles[11]), "L");
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

Test(verify, names_the_broken_constraint) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  tilesat_map *m = map_new(r, 2, 1, TILESAT_SQUARE, false);
  int bad[2] = {0, 2}; /* L then S to its east */
  char why[256];
  cr_expect_not(tilesat_map_verify(m, bad, why, sizeof why));
  cr_expect_str_eq(why, "L at (0,0) does not allow S to its E at (0,1)");
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin(m, 0, 0, "C", &err), 0);
  int unpinned[2] = {0, 0};
  cr_expect_not(tilesat_map_verify(m, unpinned, why, sizeof why));
  cr_expect_str_eq(why, "cell (0,0) holds L but is pinned to C");
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Enumeration on both backends equals brute force on random rule sets:
 * square, hex, periodic, pinned. */
Test(enumerate, agrees_with_brute_force) {
  test_rng = 20261120;
  int nonzero = 0;
  for (int iter = 0; iter < 160; iter++) {
    random_case c;
    random_case_new(iter, &c);
    nonzero += c.brute > 0;
    for (int i = 0; i < NBACKENDS; i++) {
      long got = enum_count(c.map, backends[i]);
      cr_expect_eq(got, c.brute, "%s on %s: enum %ld, brute %ld", c.desc,
                   tilesat_backend_name(backends[i]), got, c.brute);
      tilesat_error err;
      int res = tilesat_check(c.map, SOLVE(backends[i]), NULL, &err);
      cr_expect_eq(res, c.brute ? TILESAT_SAT : TILESAT_UNSAT, "%s", c.desc);
    }
    random_case_free(&c);
  }
  cr_expect_gt(nonzero, 40, "too few satisfiable cases to mean much");
}

/* With more than 8 tiles the at-most-one constraint is a ladder with
 * auxiliary variables; they must not multiply the maps. */
static int collect(void *user, const int *tiles) {
  long *seen = user;
  seen[0]++;
  seen[1] += tiles[0];
  return 0;
}

Test(enumerate, ladder_encoding_counts_maps_not_models) {
  /* 10 tiles, all neighbours allowed: 10^2 maps of 2x1 */
  static const char *const dn[] = {"N", "E", "S", "W"};
  char text[2048] = "tilesat-rules 1\n";
  for (int t = 0; t < 10; t++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "tile t%d\n", t);
  for (int a = 0; a < 10; a++)
    for (int d = 0; d < 4; d++) {
      snprintf(text + strlen(text), sizeof text - strlen(text), "allow t%d %s",
               a, dn[d]);
      for (int b = 0; b < 10; b++)
        snprintf(text + strlen(text), sizeof text - strlen(text), " t%d", b);
      strcat(text, "\n");
    }
  tilesat_rules *r = rules_from_text(text);
  for (int i = 0; i < NBACKENDS; i++) {
    tilesat_map *m = map_new(r, 2, 1, TILESAT_SQUARE, false);
    long seen[2] = {0, 0};
    tilesat_error err;
    cr_expect_eq(
        tilesat_enumerate(m, SOLVE(backends[i]), 0, collect, seen, &err), 100);
    cr_expect_eq(seen[0], 100);
    cr_expect_eq(seen[1], 10 * 45); /* each first tile 10 times */
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

Test(enumerate, limit_stops_early) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  tilesat_error err;
  for (int i = 0; i < NBACKENDS; i++)
    cr_expect_eq(tilesat_enumerate(m, SOLVE(backends[i]), 7, NULL, NULL, &err),
                 7);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(map, bad_sizes_and_pins) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  tilesat_error err;
  int w, h;
  cr_expect_eq(tilesat_parse_size("0x3", &w, &h, &err), -1);
  cr_expect_str_eq(err.msg, "size: '0x3': width and height must be "
                            "positive");
  cr_expect_str_eq(err.param, "size");
  cr_expect_eq(tilesat_parse_size("-1x3", &w, &h, &err), -1);
  cr_expect_str_eq(err.msg, "size: '-1x3' is not WIDTHxHEIGHT with whole "
                            "numbers that fit an int (e.g. 10x8)");
  cr_expect_eq(tilesat_parse_size("99999999999x2", &w, &h, &err), -1);
  cr_expect_eq(tilesat_parse_size("3x", &w, &h, &err), -1);
  cr_expect_eq(tilesat_parse_size("3x4x5", &w, &h, &err), -1);
  cr_expect_eq(tilesat_parse_size("3x4", &w, &h, &err), 0);
  cr_expect(w == 3 && h == 4);
  cr_expect_null(
      tilesat_map_new(r, 100000, 100000, TILESAT_SQUARE, false, &err));
  cr_expect_str_eq(err.msg, "size: 100000x100000 with 3 tiles is too large "
                            "(at most 268435456 cells times tiles)");
  cr_expect_null(tilesat_map_new(r, 2, 2, TILESAT_HEX, false, &err));
  cr_expect_str_eq(err.msg, "topology: the rules are for a square grid and "
                            "cannot be used on a hex grid");
  tilesat_rules *hex = rules_from_sample("ab\ncd\n", TILESAT_HEX, false);
  cr_expect_null(tilesat_map_new(hex, 2, 3, TILESAT_HEX, true, &err));
  cr_expect_str_eq(err.msg, "periodic: a periodic hex map needs an even "
                            "height (odd-r rows alternate), not 3");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_expect_eq(tilesat_map_pin_spec(m, "3,0=L", &err), -1);
  cr_expect_str_eq(err.msg, "pin: cell (3,0) is outside the 3x3 map: a cell is "
                            "ROW,COL, rows 0-2 and columns 0-2");
  cr_expect_eq(tilesat_map_pin_spec(m, "0,0=X", &err), -1);
  cr_expect_str_eq(err.msg,
                   "pin: unknown tile 'X' (the tiles are 'L', 'C' and 'S')");
  /* the parameter named, for the command line to call it --pin */
  cr_expect_str_eq(err.param, "pin");
  cr_expect_eq(tilesat_map_pin_spec(m, "0;0=L", &err), -1);
  cr_expect_str_eq(err.msg, "pin: '0;0=L' is not ROW,COL=TILE");
  cr_expect_eq(tilesat_map_pin_spec(m, "0,0=", &err), -1);
  tilesat_map_free(m);
  tilesat_rules_free(hex);
  tilesat_rules_free(r);
}
