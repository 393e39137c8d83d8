/* analyze: the report on a rule set, end to end. */
#include "helpers.h"

#include <string.h>

Test(analyze, hard_rules) {
  run_result r = RUN("analyze", "rules/hard.rules");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.err, "");
  cr_expect_str_eq(
      r.out,
      "3 tiles, square topology: K B S\n"
      "\n"
      "Tiles with no neighbour in some direction (they can only stand on that "
      "border):\n"
      "  K: nothing may stand to its north or west\n"
      "  B: nothing may stand to its east\n"
      "  S: nothing may stand to its south or west\n"
      "\n"
      "Tiles that appear in no valid map from 2x2 to 8x8: none\n"
      "\n"
      "Satisfiable sizes up to 8x8 (+ yes, . no; width across, height down):\n"
      "       1  2  3  4  5  6  7  8\n"
      "    1  +  +  .  .  .  .  .  .\n"
      "    2  +  +  .  .  .  .  .  .\n"
      "    3  +  .  .  .  .  .  .  .\n"
      "    4  +  .  .  .  .  .  .  .\n"
      "    5  +  .  .  .  .  .  .  .\n"
      "    6  +  .  .  .  .  .  .  .\n"
      "    7  +  .  .  .  .  .  .  .\n"
      "    8  +  .  .  .  .  .  .  .\n"
      "\n"
      "By width, the heights that have a map:\n"
      "  width 1: every height (1..8)\n"
      "  width 2: heights 1, 2\n"
      "  widths 3..8: no height\n"
      "\n"
      "Hard: no 8x8 map exists.  The smallest size without a map is 3x1:\n"
      "\n"
      "UNSAT: no valid 3x1 map.\n"
      "These 3 constraints (of 5 in the map) cannot all hold, and dropping any "
      "one\n"
      "of them leaves a satisfiable set (checked):\n"
      "  [1] (0,1) holds exactly one tile\n"
      "  [2] (0,1) and its east neighbour (0,2) hold an allowed pair\n"
      "  [3] (0,1) and its west neighbour (0,0) hold an allowed pair\n"
      "\n"
      "Why (propagation on these constraints alone; [n] the constraints "
      "used):\n"
      "  [3]     (0,1) loses {K, S}: K, S allow nothing to their west, where "
      "(0,0) is\n"
      "  [2]     (0,1) loses {B}: B allows nothing to its east, where (0,2) "
      "is\n"
      "  [1]     (0,1) has no tile left, but it must hold one: contradiction\n"
      "\n"
      "The map (# a cell that must hold one tile, P a pin, o a cell only in "
      "an\n"
      "adjacency, . not involved; - and | adjacency constraints):\n"
      "  o-#-o\n");
  run_free(&r);
}

Test(analyze, coast_is_not_hard) {
  run_result r = RUN("analyze", "rules/coast.rules", "--max", "3", "--backend",
                     "cryptominisat");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(
      r.out,
      "3 tiles, square topology: L C S\n"
      "\n"
      "Tiles with no neighbour in some direction (they can only stand on that "
      "border):\n"
      "  none\n"
      "\n"
      "Tiles that appear in no valid map from 2x2 to 3x3: none\n"
      "\n"
      "Satisfiable sizes up to 3x3 (+ yes, . no; width across, height down):\n"
      "       1  2  3\n"
      "    1  +  +  +\n"
      "    2  +  +  +\n"
      "    3  +  +  +\n"
      "\n"
      "By width, the heights that have a map:\n"
      "  widths 1..3: every height (1..3)\n"
      "\n"
      "Every square size up to 3x3 has a map: these rules can fill a level "
      "that large (--max N asks about larger ones).\n");
  run_free(&r);
  /* periodic: a border-only tile can stand nowhere */
  r = RUN("analyze", "rules/hard.rules", "--max", "2", "--periodic");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "Tiles that appear in no valid map from 2x2 to "
                          "2x2: K B S\n"),
            "%s", r.out);
  cr_expect(strstr(r.out, "Hard: no 2x2 map exists.  The smallest size "
                          "without a map is 1x1:\n"),
            "%s", r.out);
  run_free(&r);
}

Test(analyze, the_library_answers_match_check) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/hard.rules", &err);
  cr_assert(r, "%s", err.msg);
  /* analyze on each backend, against check on the next one */
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_analysis *a =
        tilesat_analyze(r, 4, TILESAT_SQUARE, false, SOLVE(backends[b]), &err);
    cr_assert(a, "%s", err.msg);
    tilesat_backend other = backends[(b + 1) % NBACKENDS];
    for (int w = 1; w <= 4; w++)
      for (int h = 1; h <= 4; h++) {
        tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, false);
        cr_expect_eq(tilesat_analysis_result(a, w, h),
                     tilesat_check(m, SOLVE(other), NULL, &err), "%dx%d", w, h);
        cr_expect_eq(tilesat_analysis_result(a, w, h) == TILESAT_SAT,
                     w == 1 || (w == 2 && h <= 2), "%dx%d", w, h);
        tilesat_map_free(m);
      }
    for (int t = 0; t < 3; t++)
      cr_expect(tilesat_analysis_tile_appears(a, t));
    tilesat_analysis_info ai;
    tilesat_analysis_get(a, &ai);
    cr_expect(ai.hard);
    cr_expect_eq(ai.max, 4);
    cr_expect_not_null(ai.explanation);
    tilesat_analysis_free(a);
  }
  cr_expect_null(tilesat_analyze(r, 0, TILESAT_SQUARE, false,
                                 SOLVE(TILESAT_PICOSAT), &err));
  cr_expect_str_eq(err.msg, "max: 0 is not from 1 to 64");
  tilesat_rules_free(r);
}

/* A tile no witness happens to use but some map does is found by asking
 * for it; a tile no map can use is reported. */
Test(analyze, tiles_that_never_appear) {
  const char *text = "tilesat-rules 1\n"
                     "tile a 1\ntile b 1\ntile z 1\n"
                     "allow a E a b\nallow a W a\nallow b W a\n"
                     "allow a N a\nallow a S a\n";
  char *path = temp_file(text, -1);
  run_result r = RUN("analyze", path, "--max", "3");
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect(
      strstr(r.out, "Tiles that appear in no valid map from 2x2 to 3x3: b z\n"),
      "%s", r.out);
  cr_expect(strstr(r.out, "  b: nothing may stand to its north, east or "
                          "south\n  z: nothing may stand to its north, east, "
                          "south or west\n"),
            "%s", r.out);
  run_free(&r);
  remove(path);
  free(path);
}

Test(analyze, errors) {
  expect_cli_error("tilesat: --max: '0' is not a whole number from 1 to 64\n",
                   "analyze", "rules/hard.rules", "--max", "0");
  expect_cli_error("tilesat: --max: '65' is not a whole number from 1 to 64\n",
                   "analyze", "rules/hard.rules", "--max", "65");
  expect_cli_error("tilesat: --max: '3x' is not a whole number from 1 to 64\n",
                   "analyze", "rules/hard.rules", "--max", "3x");
  expect_cli_error(
      "tilesat: analyze takes one rules file (see 'tilesat analyze "
      "--help')\n",
      "analyze");
  expect_cli_error(
      "tilesat: --topology: the rules are for a square grid and cannot be "
      "used on a hex grid\n",
      "analyze", "rules/hard.rules", "--topology", "hex");
  expect_cli_error(
      "tilesat: unknown option '--size' for 'analyze': it is an option of "
      "encode, check, enum and 7 other commands (see 'tilesat analyze "
      "--help')\n",
      "analyze", "rules/hard.rules", "--size", "3x3");
}
