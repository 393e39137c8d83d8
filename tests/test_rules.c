/* Extraction (ESTM) and the rules file format. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

static const char *coast_sample = "LLLLLLLLLL\nLLLLLLLLLL\nLLLLLLLLLL\n"
                                  "LLLLLLLLLL\nLLLLLCLLCC\nLLLLCSCCSS\n"
                                  "LLLCSSSSSS\nLLCSSSSSSS\nLCSSSSSSSS\n"
                                  "CSSSSSSSSS\n";

/* The allowed set of tile `a` in direction `dir`, as "L C S" names. */
static void allowed_names(const tilesat_rules *r, const char *a,
                          const char *dir, char *buf, size_t len) {
  int ta = tilesat_rules_find_tile(r, a);
  int d = tilesat_dir_find(tilesat_rules_topology(r), dir);
  cr_assert(ta >= 0 && d >= 0);
  buf[0] = 0;
  for (int b = 0; b < tilesat_rules_ntiles(r); b++)
    if (tilesat_rules_allows(r, ta, d, b)) {
      if (buf[0])
        strncat(buf, " ", len - strlen(buf) - 1);
      strncat(buf, tilesat_rules_tile_name(r, b), len - strlen(buf) - 1);
    }
}

#define ASSERT_ALLOWED(r, a, dir, expect)                                      \
  do {                                                                         \
    char got_[256];                                                            \
    allowed_names(r, a, dir, got_, sizeof got_);                               \
    cr_expect_str_eq(got_, expect, "%s %s: got {%s}, want {%s}", a, dir, got_, \
                     expect);                                                  \
  } while (0)

Test(extract, coast_gives_the_seed_rule_table) {
  tilesat_rules *r = rules_from_sample(coast_sample, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_rules_ntiles(r), 3);
  /* tiles in order of first appearance */
  cr_expect_str_eq(tilesat_rules_tile_name(r, 0), "L");
  cr_expect_str_eq(tilesat_rules_tile_name(r, 1), "C");
  cr_expect_str_eq(tilesat_rules_tile_name(r, 2), "S");
  ASSERT_ALLOWED(r, "L", "N", "L");
  ASSERT_ALLOWED(r, "L", "S", "L C");
  ASSERT_ALLOWED(r, "L", "E", "L C");
  ASSERT_ALLOWED(r, "L", "W", "L C");
  ASSERT_ALLOWED(r, "C", "N", "L");
  ASSERT_ALLOWED(r, "C", "S", "S");
  ASSERT_ALLOWED(r, "C", "E", "L C S");
  ASSERT_ALLOWED(r, "C", "W", "L C S");
  ASSERT_ALLOWED(r, "S", "N", "C S");
  ASSERT_ALLOWED(r, "S", "S", "S");
  ASSERT_ALLOWED(r, "S", "E", "C S");
  ASSERT_ALLOWED(r, "S", "W", "C S");
  /* weights: occurrences of each tile in the 100 cells */
  cr_expect_eq(tilesat_rules_weight(r, 0), 57);
  cr_expect_eq(tilesat_rules_weight(r, 1), 10);
  cr_expect_eq(tilesat_rules_weight(r, 2), 33);
  tilesat_rules_free(r);
}

Test(extract, hard_sample) {
  tilesat_rules *r = rules_from_sample("KB\nSB\n", TILESAT_SQUARE, false);
  ASSERT_ALLOWED(r, "K", "E", "B");
  ASSERT_ALLOWED(r, "K", "S", "S");
  ASSERT_ALLOWED(r, "K", "N", "");
  ASSERT_ALLOWED(r, "K", "W", "");
  ASSERT_ALLOWED(r, "B", "W", "K S");
  ASSERT_ALLOWED(r, "B", "E", "");
  ASSERT_ALLOWED(r, "B", "N", "B");
  ASSERT_ALLOWED(r, "B", "S", "B");
  ASSERT_ALLOWED(r, "S", "N", "K");
  tilesat_rules_free(r);
}

Test(extract, periodic_input_wraps) {
  tilesat_rules *r = rules_from_sample("AB\n", TILESAT_SQUARE, true);
  ASSERT_ALLOWED(r, "A", "E", "B");
  ASSERT_ALLOWED(r, "A", "W", "B");
  ASSERT_ALLOWED(r, "A", "N", "A"); /* one row wraps onto itself */
  ASSERT_ALLOWED(r, "B", "S", "B");
  tilesat_rules_free(r);
}

/* Odd-r hex, pointy top: row 1 is shifted half a cell right, so (1,0) has
 * (0,0) to its NW and (0,1) to its NE; (0,0) has (1,0) to its SE only. */
Test(extract, hex_odd_r_neighbours) {
  tilesat_rules *r = rules_from_sample("ab\ncd\n", TILESAT_HEX, false);
  ASSERT_ALLOWED(r, "c", "NW", "a");
  ASSERT_ALLOWED(r, "c", "NE", "b");
  ASSERT_ALLOWED(r, "c", "E", "d");
  ASSERT_ALLOWED(r, "a", "SE", "c");
  ASSERT_ALLOWED(r, "a", "SW", "");
  ASSERT_ALLOWED(r, "b", "SW", "c");
  ASSERT_ALLOWED(r, "b", "SE", "d");
  ASSERT_ALLOWED(r, "d", "NW", "b");
  ASSERT_ALLOWED(r, "d", "NE", "");
  tilesat_rules_free(r);
}

Test(extract, several_samples_merge) {
  tilesat_error err;
  tilesat_grid *a = tilesat_grid_parse("AB\n", 3, "a", &err);
  tilesat_grid *b = tilesat_grid_parse("BC\n", 3, "b", &err);
  const tilesat_grid *gs[2] = {a, b};
  tilesat_rules *r = tilesat_extract(gs, 2, TILESAT_SQUARE, false, &err);
  cr_assert_eq(tilesat_rules_ntiles(r), 3);
  ASSERT_ALLOWED(r, "B", "E", "C");
  ASSERT_ALLOWED(r, "B", "W", "A");
  cr_expect_eq(tilesat_rules_weight(r, 1), 2);
  tilesat_rules_free(r);
  tilesat_grid_free(a);
  tilesat_grid_free(b);
}

static char *write_rules(const tilesat_rules *r) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert_eq(tilesat_rules_write(r, f), 0);
  fclose(f);
  return buf;
}

Test(rules_format, round_trips) {
  const char *samples[] = {coast_sample, "KB\nSB\n", "ab\ncd\n"};
  for (int i = 0; i < 3; i++) {
    tilesat_rules *r = rules_from_sample(
        samples[i], i == 2 ? TILESAT_HEX : TILESAT_SQUARE, false);
    char *text = write_rules(r);
    tilesat_rules *back = rules_from_text(text);
    char *again = write_rules(back);
    cr_expect_str_eq(again, text);
    free(text);
    free(again);
    tilesat_rules_free(r);
    tilesat_rules_free(back);
  }
}

Test(rules_format, names_with_spaces_and_quotes_round_trip) {
  const char *text = "tilesat-rules 1\n"
                     "tile \"corner 1\" 3\n"
                     "tile \"say \\\"hi\\\"\" 1\n"
                     "tile # 2\n"
                     "allow \"corner 1\" E # \"corner 1\"\n"
                     "allow # W \"corner 1\"\n"
                     "allow \"corner 1\" W \"corner 1\"\n";
  tilesat_rules *r = rules_from_text(text);
  cr_assert_eq(tilesat_rules_ntiles(r), 3);
  cr_expect_str_eq(tilesat_rules_tile_name(r, 0), "corner 1");
  cr_expect_str_eq(tilesat_rules_tile_name(r, 1), "say \"hi\"");
  cr_expect(tilesat_rules_allows(r, 0, 1, 2));
  char *out = write_rules(r);
  tilesat_rules *back = rules_from_text(out);
  char *again = write_rules(back);
  cr_expect_str_eq(again, out);
  free(out);
  free(again);
  tilesat_rules_free(r);
  tilesat_rules_free(back);
}

Test(rules_format, tiles_may_follow_allow_lines_and_comments) {
  tilesat_rules *r = rules_from_text("# a comment\ntilesat-rules 1\n"
                                     "topology square\n"
                                     "allow A E A\n  # indented comment\n"
                                     "allow A W A\n\ntile A\n");
  cr_expect_eq(tilesat_rules_weight(r, 0), 1);
  cr_expect(tilesat_rules_allows(r, 0, 1, 0));
  tilesat_rules_free(r);
}

static void expect_rules_error(const char *text, const char *msg) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_parse(text, strlen(text), "r.rules", &err);
  cr_expect_null(r, "should not parse: %s", text);
  if (!r)
    cr_expect_str_eq(err.msg, msg);
  tilesat_rules_free(r);
}

Test(rules_format, errors_name_file_and_line) {
  expect_rules_error("", "r.rules: empty rules file");
  expect_rules_error("tilesat-rules 1\n", "r.rules: no tiles declared");
  expect_rules_error("LLC\nCSS\n", "r.rules:1: not a rules file: the first "
                                   "line must be 'tilesat-rules 1'");
  expect_rules_error("tilesat-rules 2\ntile A\n",
                     "r.rules:1: rules format version 2 is not supported "
                     "(this tilesat reads version 1)");
  expect_rules_error("tilesat-rules 1\ntile A\nallow A N B\n",
                     "r.rules:3: unknown tile 'B' (the only tile is 'A')");
  expect_rules_error("tilesat-rules 1\ntile A\nallow A NE A\n",
                     "r.rules:3: unknown direction 'NE' for square topology "
                     "(one of N E S W)");
  expect_rules_error("tilesat-rules 1\ntile A\ntile A\n",
                     "r.rules:3: tile 'A' declared twice");
  expect_rules_error("tilesat-rules 1\ntile A 99999999999999999999\n",
                     "r.rules:2: expected 'tile NAME WEIGHT' (WEIGHT a whole "
                     "number that fits 64 bits)");
  expect_rules_error("tilesat-rules 1\ntile A -1\n",
                     "r.rules:2: expected 'tile NAME WEIGHT' (WEIGHT a whole "
                     "number that fits 64 bits)");
  expect_rules_error("tilesat-rules 1\ntile \"A\n",
                     "r.rules:2: unterminated quoted name");
  expect_rules_error("tilesat-rules 1\ntile A\nallow A\n",
                     "r.rules:3: expected 'allow TILE DIR TILE...'");
  expect_rules_error("tilesat-rules 1\ntile A\ntopology cube\n",
                     "r.rules:3: expected 'topology square' or 'topology "
                     "hex'");
  expect_rules_error("tilesat-rules 1\ntile A\nbanana A\n",
                     "r.rules:3: unknown keyword 'banana' (expected topology, "
                     "tile or allow)");
  expect_rules_error("tilesat-rules 1\ntile A\ntile B\nallow A E B\n",
                     "r.rules:4: rules must be symmetric: 'B' may stand E of "
                     "'A' but 'A' is not allowed W of 'B'");
  expect_rules_error("tilesat-rules 1\ntile \xff\n",
                     "r.rules:2: invalid UTF-8 (byte 0xff)");
  /* a file cut off in the middle of a multi-byte character */
  expect_rules_error("tilesat-rules 1\ntile \xc3",
                     "r.rules:2: invalid UTF-8 (truncated sequence at end of "
                     "file)");
}

Test(rules_format, missing_file) {
  tilesat_error err;
  cr_assert_null(tilesat_rules_read_file("/nonexistent/x.rules", &err));
  cr_expect_str_eq(err.msg,
                   "/nonexistent/x.rules: cannot open: No such file or "
                   "directory");
}
