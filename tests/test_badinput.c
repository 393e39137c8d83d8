/* Bad input gets a clear error, never a crash: one test per finding of the
 * hardening pass (malformed files, out-of-range options). */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A hard weight of 2^31 made the float running energy lose the soft terms
 * and ended in "internal error": weights are bounded at 1e6. */
Test(badinput, huge_weights_are_refused) {
  expect_cli_error("tilesat: --hard-weight: expected 'hard WEIGHT' with a "
                   "number of size at most 1e6\n",
                   "anneal", "rules/coast.rules", "--size", "3x3",
                   "--hard-weight", "2147483647");
  char *f = temp_file("tilesat-energy 1\ncoherence -1e7\n", -1);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s:2: expected 'coherence J [TILE...]' with a number "
           "of size at most 1e6\n",
           f);
  expect_cli_error(want, "anneal", "rules/coast.rules", "--size", "3x3",
                   "--energy", f);
  remove(f);
  free(f);
}

/* libxml2's message for invalid UTF-8 has a second line ("Bytes: 0xFF
 * ..."); errors are one line. */
Test(badinput, xml_invalid_utf8_is_one_line) {
  char *f = temp_file("<?xml version=\"1.0\"?>\n<map a=\"\xff\"/>\n", -1);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s:2: bad XML: Input is not proper UTF-8, indicate "
           "encoding !\n",
           f);
  expect_cli_error(want, "extract", f);
  remove(f);
  free(f);
}

/* 256 tiles: sample once said "count: ... use --method enum or approx";
 * its DP error now names sample and sample's own way out. */
Test(badinput, sample_with_256_tiles_names_sample) {
  char text[8192] = "tilesat-grid names\n";
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 16; c++)
      snprintf(text + strlen(text), sizeof text - strlen(text), "t%d%c",
               r * 16 + c, c == 15 ? '\n' : ' ');
  char *grid = temp_file(text, -1);
  char *rules = temp_file("", 0);
  run_result r = RUN("extract", grid, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  expect_cli_error("tilesat: sample: exact sampling uses the DP, which "
                   "handles at most 255 tiles (this rule set has 256): use "
                   "--method approx\n",
                   "sample", rules, "--size", "2x2", "--method", "dp");
  expect_cli_error("tilesat: count: 256 tiles: the exact dp keys a cell by a "
                   "byte, so at most 255 tiles; past them count counts maps "
                   "of one line exactly (1xN or Nx1, not --periodic, without "
                   "--count, --connected or a mask), and this 2x2 map is not "
                   "one line: --method enum lists every map (small counts "
                   "only), --method approx estimates (no time bound)\n",
                   "count", rules, "--size", "2x2", "--method", "dp");
  /* --by-tile: the dp alone counts a distribution (enum and approx, which
   * the plain refusal suggests, refuse --by-tile) */
  expect_cli_error("tilesat: --by-tile: counts with the DP, which handles at "
                   "most 255 tiles (this rule set has 256)\n",
                   "count", rules, "--size", "2x2", "--by-tile", "t0");
  remove(grid);
  remove(rules);
  free(grid);
  free(rules);
}

/* A directory given as a file said only "read error". */
Test(badinput, directory_as_a_file_says_so) {
  expect_cli_error("tilesat: rules: cannot read: Is a directory\n", "check",
                   "rules", "--size", "2x2");
  expect_cli_error("tilesat: tests: cannot read: Is a directory\n", "extract",
                   "tests");
}

/* A 65536x65536 layer was refused with "needs a width and height (1 to
 * 16777216)", though both are in range: the cell count is the problem. */
Test(badinput, tiled_layer_too_many_cells) {
  char *tmx =
      temp_file("<?xml version=\"1.0\"?>\n"
                "<map width=\"65536\" height=\"65536\">\n"
                " <layer name=\"g\" width=\"65536\" height=\"65536\">\n"
                "  <data encoding=\"csv\">1</data>\n </layer>\n</map>\n",
                -1);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s:3: a 65536x65536 layer is too large (at most "
           "16777216 cells)\n",
           tmx);
  expect_cli_error(want, "extract", tmx);
  char *tmj = temp_file("{\"type\": \"map\", \"width\": 65536, \"height\": "
                        "65536, \"layers\": [{\"type\": \"tilelayer\", "
                        "\"width\": 65536, \"height\": 65536, \"data\": "
                        "[1]}]}\n",
                        -1);
  snprintf(want, sizeof want,
           "tilesat: %s: a 65536x65536 layer is too large (at most 16777216 "
           "cells)\n",
           tmj);
  expect_cli_error(want, "extract", tmj);
  remove(tmx);
  remove(tmj);
  free(tmx);
  free(tmj);
}

/* The witness picture had no size bound: 600x600 cells of 64x64-pixel
 * pictures asked calloc for 6 GB before libpng refused, and 600000 cells of
 * them overflowed an int.  Now the bound of the PNG reader, 2^26 pixels. */
Test(badinput, picture_too_large_is_an_error) {
  static char text[40000];
  size_t n = (size_t)snprintf(text, sizeof text,
                              "tilesat-pictures 1\nsize 64 64\noverlap 0\n"
                              "picture L");
  for (int k = 0; k < 64 * 64; k++)
    n += (size_t)snprintf(text + n, sizeof text - n, " #00ff00");
  snprintf(text + n, sizeof text - n, "\n");
  char *pics = temp_file(text, -1);
  char *png = temp_file("", 0);
  /* 130 x 64 = 8320 pixels a side: 69 million pixels */
  run_result r = RUN("check", "rules/coast.rules", "--size", "130x130",
                     "--pictures", pics, "--png", png);
  cr_expect_eq(r.code, 1);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s: the map's picture would be too large (over 2^26 "
           "pixels): --scale N draws fewer pixels a cell\n",
           png);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  /* just under the bound it draws */
  r = RUN("check", "rules/coast.rules", "--size", "128x128", "--pictures", pics,
          "--png", png);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  remove(pics);
  remove(png);
  free(pics);
  free(png);
}

/* Found by the bad-input audit (issue 20): verify answered maps that check
 * refuses, square rules on a hex map (--topology hex) and a periodic hex
 * map of odd height; it refuses them now with check's message. */
Test(badinput, verify_refuses_what_check_refuses) {
  char *square = temp_file("LLL\nCCC\nSSS\n", -1);
  const char *topo =
      "tilesat: --topology: the rules are for a square grid and cannot be "
      "used on a hex grid\n";
  expect_cli_error(topo, "check", "rules/coast.rules", "--size", "3x3",
                   "--topology", "hex");
  expect_cli_error(topo, "verify", "rules/coast.rules", square, "--topology",
                   "hex");
  char *hex = temp_file("LLL\nLLL\nLLL\n", -1);
  run_result r = RUN("verify", "rules/coast-hex.rules", hex);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  const char *odd = "tilesat: --periodic: a periodic hex map needs an even "
                    "height (odd-r rows alternate), not 3\n";
  expect_cli_error(odd, "check", "rules/coast-hex.rules", "--size", "3x3",
                   "--periodic");
  expect_cli_error(odd, "verify", "rules/coast-hex.rules", hex, "--periodic");
  remove(square);
  remove(hex);
  free(square);
  free(hex);
}

/* Found by the bad-input audit (issue 20): a run-samples seed past the
 * int range said "not a whole number", which it is; --count past the
 * largest count said "is not a count".  Both say the range now. */
Test(badinput, numbers_out_of_range_say_the_range) {
  char *xml = temp_file("<samples>\n<simpletiled name=\"Knots\" size=\"4\" "
                        "seed=\"2147483648\"/>\n</samples>\n",
                        -1);
  char *dir = temp_dir();
  run_result r = RUN("run-samples", xml, "--out-dir", dir);
  cr_expect_eq(r.code, 1, "%s", r.err);
  char line[4200];
  snprintf(line, sizeof line,
           "01 Knots (simpletiled 4x4): cannot run: %s:2: seed '2147483648' "
           "is not a whole number from -2147483648 to 2147483647 (below 0: "
           "none)\n",
           xml);
  cr_expect(strstr(r.out, line), "%s", r.out);
  run_free(&r);
  rm_dir(dir);
  expect_cli_error("tilesat: --count: '2000000000' is too large a count: at "
                   "most 1073741824 (the map has 9 cells)\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--count",
                   "L<=2000000000");
  remove(xml);
  free(xml);
}

/* A picture of 2^24 pixels or more takes seconds to write: said before
 * (a 1024x1024 Castle failure drawn whole was 12 s without a word). */
Test(badinput, a_big_picture_says_it_is_written) {
  char *dir = temp_dir(), png[4096];
  snprintf(png, sizeof png, "%s/big.png", dir);
  run_result r = RUN("check", "rules/coast.rules", "--size", "520x520", "--png",
                     png, "-q");
  cr_expect_eq(r.code, 10, "%s", r.err);
  char want[4200];
  snprintf(want, sizeof want,
           "tilesat: %s: writing a 4160x4160-pixel picture\n", png);
  cr_expect(strstr(r.err, want), "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}
