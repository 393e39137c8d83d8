/* Sample grids: character and name forms, and their errors. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

static tilesat_grid *parse(const char *text) {
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(text, strlen(text), "g.txt", &err);
  cr_assert(g, "did not parse: %s", err.msg);
  return g;
}

static void expect_grid_error(const char *text, size_t len, const char *msg) {
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(text, len, "g.txt", &err);
  cr_expect_null(g);
  if (!g)
    cr_expect_str_eq(err.msg, msg);
  tilesat_grid_free(g);
}
#define GRID_ERROR(text, msg) expect_grid_error(text, strlen(text), msg)

Test(grid, characters_are_tiles_and_hash_is_a_tile) {
  tilesat_grid *g = parse("#.#\n#@#\n");
  cr_assert_eq(tilesat_grid_width(g), 3);
  cr_assert_eq(tilesat_grid_height(g), 2);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "#");
  cr_expect_str_eq(tilesat_grid_at(g, 1, 1), "@");
  tilesat_grid_free(g);
}

Test(grid, utf8_code_points_crlf_bom_and_no_final_newline) {
  tilesat_grid *g = parse("\xEF\xBB\xBF"
                          "~≈🌲\r\n≈≈~");
  cr_assert_eq(tilesat_grid_width(g), 3);
  cr_assert_eq(tilesat_grid_height(g), 2);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 1), "≈");
  cr_expect_str_eq(tilesat_grid_at(g, 0, 2), "🌲");
  cr_expect_str_eq(tilesat_grid_at(g, 1, 2), "~");
  tilesat_grid_free(g);
}

Test(grid, trailing_blank_lines_end_the_grid) {
  tilesat_grid *g = parse("ab\nba\n\n\n");
  cr_expect_eq(tilesat_grid_height(g), 2);
  tilesat_grid_free(g);
}

Test(grid, name_form) {
  tilesat_grid *g = parse("tilesat-grid names\n"
                          "\"corner 1\"  wall   \"corner 2\"\n"
                          "floor       floor  floor\n");
  cr_assert_eq(tilesat_grid_width(g), 3);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "corner 1");
  cr_expect_str_eq(tilesat_grid_at(g, 0, 1), "wall");
  cr_expect_str_eq(tilesat_grid_at(g, 1, 2), "floor");
  tilesat_grid_free(g);
}

Test(grid, errors) {
  GRID_ERROR("LLL\nLL\n", "g.txt:2: ragged grid: row has 2 tiles, the rows "
                          "above have 3");
  GRID_ERROR("", "g.txt: empty sample: no rows");
  GRID_ERROR("\n\n", "g.txt: empty sample: no rows");
  GRID_ERROR("ab\n\nab\n", "g.txt:2: blank line inside the grid (blank lines "
                           "may only end it)");
  GRID_ERROR("a\tb\n", "g.txt:1: tab at column 2: a character grid has one "
                       "tile per character, and a tab is not a tile");
  GRID_ERROR("ab\n\xc3\x28\n", "g.txt:2: invalid UTF-8 (byte 0x28 after "
                               "0xc3)");
  GRID_ERROR("ab\n\xed\xa0\x80\n", "g.txt:2: invalid UTF-8 (byte 0xa0 after "
                                   "0xed)"); /* a UTF-16 surrogate */
  GRID_ERROR("ab\n\xc0\xaf\n", "g.txt:2: invalid UTF-8 (byte 0xc0)");
  GRID_ERROR("ab\na\xe2\x89", "g.txt:2: invalid UTF-8 (truncated sequence at "
                              "end of file)");
  expect_grid_error("ab\na\0b\n", 7,
                    "g.txt:2: control character 0x00 (not text)");
  GRID_ERROR("tilesat-grid names\na b\nc\n",
             "g.txt:3: ragged grid: row has 1 tile, the rows above have 2");
  GRID_ERROR("tilesat-grid names\na \"b\n",
             "g.txt:2: unterminated quoted name");
  GRID_ERROR("tilesat-grid names\na \"\"\n", "g.txt:2: empty tile name");
  GRID_ERROR("tilesat-grid names\n", "g.txt: empty sample: no rows");
}

/* A map written by tilesat reads back as the same grid of names. */
static void expect_round_trip(const tilesat_rules *r, int w, int h,
                              const int *tiles, bool names_form) {
  tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), false);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  tilesat_map_write(m, tiles, f);
  fclose(f);
  cr_expect_eq(strncmp(buf, "tilesat-grid names\n", 19) == 0, names_form, "%s",
               buf);
  tilesat_grid *g = parse(buf);
  cr_assert_eq(tilesat_grid_width(g), w);
  cr_assert_eq(tilesat_grid_height(g), h);
  for (int c = 0; c < w * h; c++)
    cr_expect_str_eq(tilesat_grid_at(g, c / w, c % w),
                     tilesat_rules_tile_name(r, tiles[c]));
  tilesat_grid_free(g);
  tilesat_map_free(m);
  free(buf);
}

Test(grid, writer_round_trips_both_forms) {
  tilesat_rules *chars = rules_from_sample("#≈\n≈#\n", TILESAT_SQUARE, false);
  int t1[] = {0, 1, 1, 0, 0, 0};
  expect_round_trip(chars, 3, 2, t1, false);
  tilesat_rules_free(chars);
  tilesat_rules *names = rules_from_text(
      "tilesat-rules 1\ntile \"corner 1\"\ntile wall\ntile \"a\\\\b\"\n");
  int t2[] = {0, 1, 2, 2, 1, 0};
  expect_round_trip(names, 2, 3, t2, true);
  tilesat_rules_free(names);
  /* a space tile cannot stand in a character grid */
  tilesat_rules *space = rules_from_text("tilesat-rules 1\ntile \" \"\n");
  int t3[] = {0, 0};
  expect_round_trip(space, 2, 1, t3, true);
  tilesat_rules_free(space);
}

/* Found by tests/fuzz (fuzz_grid, stored as corpus/grid/bom-tile): a map
 * whose first tile is U+FEFF was written as a character grid starting with
 * EF BB BF, which reads back as a byte-order mark and one tile short. */
Test(grid, writer_never_starts_with_a_byte_order_mark) {
  tilesat_rules *r =
      rules_from_sample("c\xEF\xBB\xBF\n", TILESAT_SQUARE, false);
  int tiles[] = {1, 0, 0};
  expect_round_trip(r, 3, 1, tiles, true);
  tilesat_rules_free(r);
}
