/* Pictures that show what matters (issue 33): --scale N pixels a cell for
 * every --png, plain-colour tiles named in a legend, pinned cells drawn as
 * their tile and framed, explain's text and picture around the clash on
 * large maps (--whole: all of it), and outputs named for what they hold. */
#include "helpers.h"
#include "png_helpers.h"

#include <stdlib.h>
#include <string.h>

static char *join(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

static tilesat_grid *grid_of(const char *out) {
  const char *g = strchr(out, '\n'); /* after "SAT" */
  cr_assert(g, "%s", out);
  tilesat_error err;
  tilesat_grid *grid = tilesat_grid_parse(g + 1, strlen(g + 1), "out", &err);
  cr_assert(grid, "%s", err.msg);
  return grid;
}

static bool same_px(const uint8_t *a, const uint8_t *b) {
  return !memcmp(a, b, 4);
}

/* A legend's layout (legend.c): rows of a 16-pixel sample 6 pixels apart,
 * 6 pixels below the map and around. */
#define LEGEND_ROW 22
#define LEGEND_TOP 6

/* check --scale 12: coast's 5x3 witness 60x36 pixels, each pixel its
 * cell's tile colour, and the same picture as the 8-pixel one resized;
 * below, a legend row per tile the map shows. */
Test(drawing, scale_sets_the_pixels_a_cell_of_a_map) {
  char *dir = temp_dir(), *a = join(dir, "a.png"), *b = join(dir, "b.png");
  run_result r = RUN("check", "rules/coast.rules", "--size", "5x3", "--png", a);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_result s = RUN("check", "rules/coast.rules", "--size", "5x3", "--png", b,
                     "--scale", "12");
  cr_assert_eq(s.code, 10, "%s", s.err);
  cr_expect_str_eq(s.out, r.out);
  tilesat_grid *g = grid_of(r.out);
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  int wa, ha, wb, hb, kinds = 0;
  uint8_t *pa = decode_png(a, &wa, &ha), *pb = decode_png(b, &wb, &hb);
  cr_expect(wa == 40 && ha == 24, "%dx%d", wa, ha);
  bool seen[3] = {false};
  for (int y = 0; y < 36; y++)
    for (int x = 0; x < 60; x++) {
      uint8_t c[4];
      int t =
          tilesat_rules_find_tile(coast, tilesat_grid_at(g, y / 12, x / 12));
      kinds += !seen[t];
      seen[t] = true;
      tilesat_tile_colour(coast, t, c);
      cr_expect(same_px(pixel_at(pb, wb, x, y), c), "(%d,%d)", x, y);
      cr_expect(same_px(pixel_at(pb, wb, x, y),
                        pixel_at(pa, wa, x * 8 / 12, y * 8 / 12)),
                "(%d,%d)", x, y);
    }
  cr_expect_eq(wb, 60);
  cr_expect_eq(hb, 36 + kinds * LEGEND_ROW + LEGEND_TOP, "%d tiles", kinds);
  free(pa);
  free(pb);
  tilesat_grid_free(g);
  tilesat_rules_free(coast);
  run_free(&r);
  run_free(&s);
  rm_dir(dir);
  free(a);
  free(b);
}

/* Castle's 7-pixel tile pictures at 14 pixels a cell: exactly twice the
 * picture drawn without --scale, no legend (pictures, not colours); a
 * contact sheet and the heat map of collapse -n at their --scale too. */
Test(drawing, scale_applies_to_pictures_sheets_and_heat_maps) {
  char *dir = temp_dir(), *rules = join(dir, "castle.rules"),
       *a = join(dir, "a.png"), *b = join(dir, "b.png");
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "4x3", "--seed", "2", "--guard", "sat",
          "--png", a);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "4x3", "--seed", "2", "--guard", "sat",
          "--png", b, "--scale", "14");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  int wa, ha, wb, hb;
  uint8_t *pa = decode_png(a, &wa, &ha), *pb = decode_png(b, &wb, &hb);
  cr_expect(wa == 28 && ha == 21, "%dx%d", wa, ha);
  cr_assert(wb == 56 && hb == 42, "%dx%d", wb, hb);
  for (int y = 0; y < hb; y++)
    for (int x = 0; x < wb; x++)
      cr_expect(same_px(pixel_at(pb, wb, x, y), pixel_at(pa, wa, x / 2, y / 2)),
                "(%d,%d)", x, y);
  free(pb);
  /* scaled down, 3 pixels a cell: drawn from the cells, the same pixels
   * as the 7-pixel picture's nearest (a map too large to draw at 7
   * pixels a cell still draws at 1) */
  r = RUN("collapse", rules, "--size", "4x3", "--seed", "2", "--guard", "sat",
          "--png", b, "--scale", "3");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  pb = decode_png(b, &wb, &hb);
  cr_assert(wb == 12 && hb == 9, "%dx%d", wb, hb);
  for (int y = 0; y < hb; y++)
    for (int x = 0; x < wb; x++)
      cr_expect(same_px(pixel_at(pb, wb, x, y),
                        pixel_at(pa, wa, x * 7 / 3, y * 7 / 3)),
                "(%d,%d)", x, y);
  free(pa);
  free(pb);
  /* four samples, two a row, 2 grey pixels apart, 10 pixels a cell */
  r = RUN("sample", "rules/coast.rules", "--size", "3x2", "-n", "4", "--seed",
          "1", "--png", b, "--scale", "10");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  pb = decode_png(b, &wb, &hb);
  cr_expect_eq(wb, 2 * 30 + 2);
  cr_expect(pixel_is(pixel_at(pb, wb, 30, 0), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 0, 20), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 29, 19), "#808080"));
  free(pb);
  /* the heat map's cells 5 pixels, one pixel in from its grey edge, drawn
   * all round */
  r = RUN("collapse", rules, "--size", "6x5", "-n", "10", "--png", b, "--scale",
          "5");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  pb = decode_png(b, &wb, &hb);
  cr_expect(pixel_is(pixel_at(pb, wb, 31, 0), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 0, 26), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 0, 0), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 15, 0), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 0, 13), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 30, 25), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 1, 1), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 32, 0), "#808080"));
  free(pb);
  rm_dir(dir);
  free(rules);
  free(a);
  free(b);
}

/* dungeon8's tiles have no pictures: each a colour, named in a legend
 * below the map, in the rules' order, a row per tile the map shows, its
 * sample that tile's colour and its name beside it in black. */
Test(drawing, plain_colours_are_named_in_a_legend) {
  char *dir = temp_dir(), *png = join(dir, "d.png");
  run_result r = RUN("check", "rules/dungeon8.rules", "--size", "6x4", "--png",
                     png, "--scale", "10");
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = grid_of(r.out);
  tilesat_rules *d8 = rules_from_file("rules/dungeon8.rules");
  int T = tilesat_rules_ntiles(d8), w, h, rows = 0;
  bool *used = calloc((size_t)T, 1);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 6; x++)
      used[tilesat_rules_find_tile(d8, tilesat_grid_at(g, y, x))] = true;
  uint8_t *px = decode_png(png, &w, &h);
  for (int t = 0; t < T; t++) {
    if (!used[t])
      continue;
    uint8_t c[4];
    tilesat_tile_colour(d8, t, c);
    int y = 40 + LEGEND_TOP + rows * LEGEND_ROW;
    cr_expect(same_px(pixel_at(px, w, 6 + 8, y + 8), c), "tile %d", t);
    int ink = 0;
    for (int x = 28; x < 28 + 8; x++)
      for (int j = 0; j < 16; j++)
        ink += pixel_is(pixel_at(px, w, x, y + j), "#000000");
    cr_expect_gt(ink, 0, "tile %d's name", t);
    rows++;
  }
  cr_expect_eq(h, 40 + rows * LEGEND_ROW + LEGEND_TOP);
  free(px);
  run_free(&r);
  /* at its own size (8 pixels a cell) the picture is the map, no more:
   * what verify and --pins-from read back */
  r = RUN("check", "rules/dungeon8.rules", "--size", "6x4", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  px = decode_png(png, &w, &h);
  cr_expect(w == 48 && h == 32, "%dx%d", w, h);
  free(px);
  run_free(&r);
  free(used);
  tilesat_grid_free(g);
  tilesat_rules_free(d8);
  rm_dir(dir);
  free(png);
}

/* Fade a pixel as the marked pictures wash out cells not involved. */
static void faded(const uint8_t *p, uint8_t out[4]) {
  for (int i = 0; i < 3; i++)
    out[i] = (uint8_t)((p[i] + 2 * 255 + 1) / 3);
  out[3] = p[3];
}

/* Castle's three clashing pins (the README's explain, on Castle): each
 * pinned cell framed black then white, inside the red frame of the clash,
 * and inside the frames its tile's own picture (not the blend of every
 * tile) whole, resized to the room left; a pin outside the clash framed
 * and not faded (a pin is never washed out).  A finished map with --scale
 * frames its pins too. */
Test(drawing, pinned_cells_are_drawn_as_their_tile_and_framed) {
  char *dir = temp_dir(), *rules = join(dir, "castle.rules"),
       *pics = join(dir, "castle.pictures"), *png = join(dir, "e.png");
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("explain", rules, "--size", "16x16", "--pin", "10,10=tower 0",
          "--pin", "10,11=river 0", "--pin", "11,10=bridge 0", "--png", png,
          "--scale", "14");
  cr_assert_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.out, "(10,10) is pinned to \"tower 0\""), "%s", r.out);
  cr_expect(!strstr(r.out, "(11,10) is pinned"), "%s", r.out);
  run_free(&r);
  tilesat_error err;
  tilesat_pictures *p = tilesat_pictures_read_file(pics, &err);
  cr_assert(p, "%s", err.msg);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  const struct {
    int row, col;
    const char *tile;
    bool clash;
  } pins[] = {{10, 10, "tower 0", true},
              {10, 11, "river 0", true},
              {11, 10, "bridge 0", false}};
  for (int i = 0; i < 3; i++) {
    int x0 = pins[i].col * 14, y0 = pins[i].row * 14,
        in = pins[i].clash ? 2 : 0;
    const uint8_t *pic = tilesat_pictures_get(p, pins[i].tile);
    cr_assert(pic);
    if (pins[i].clash)
      cr_expect(pixel_is(pixel_at(px, w, x0, y0 + 7), "#ff0000"), "%d", i);
    cr_expect(pixel_is(pixel_at(px, w, x0 + in, y0 + 7), "#000000"), "%d", i);
    cr_expect(pixel_is(pixel_at(px, w, x0 + in + 1, y0 + 7), "#ffffff"), "%d",
              i);
    /* inside the frames (from in + 2 to 14 - in - 2), the tile's 7x7
     * picture resized by nearest neighbour, in full colour */
    int b = in + 2, side = 14 - 2 * b;
    for (int y = 0; y < side; y++)
      for (int x = 0; x < side; x++) {
        const uint8_t *want =
            pic + (size_t)4 * (size_t)((y * 7 / side) * 7 + x * 7 / side);
        cr_expect(same_px(pixel_at(px, w, x0 + b + x, y0 + b + y), want),
                  "%s (%d,%d)", pins[i].tile, x, y);
      }
  }
  free(px);
  tilesat_pictures_free(p);
  /* a finished map: the pinned cell framed, the others as they are */
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pin", "1,1=S",
          "--png", png, "--scale", "16");
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = grid_of(r.out);
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  uint8_t s[4], first[4];
  tilesat_tile_colour(coast, tilesat_rules_find_tile(coast, "S"), s);
  tilesat_tile_colour(
      coast, tilesat_rules_find_tile(coast, tilesat_grid_at(g, 0, 0)), first);
  px = decode_png(png, &w, &h);
  cr_expect(pixel_is(pixel_at(px, w, 16, 24), "#000000"));
  cr_expect(pixel_is(pixel_at(px, w, 17, 24), "#ffffff"));
  cr_expect(same_px(pixel_at(px, w, 18, 24), s));
  cr_expect(same_px(pixel_at(px, w, 29, 29), s));
  cr_expect(same_px(pixel_at(px, w, 0, 8), first));
  free(px);
  run_free(&r);
  tilesat_grid_free(g);
  tilesat_rules_free(coast);
  rm_dir(dir);
  free(rules);
  free(pics);
  free(png);
}

/* The rows first to first + n - 1 of a map of width cells, '.' but the
 * two pins P-P at (pin_row, pin_col) and the next column, as explain
 * prints them (a blank line between rows). */
static void expected_rows(char *out, size_t size, int first, int n, int c0,
                          int width, int pin_row, int pin_col) {
  size_t len = 0;
  for (int r = first; r < first + n; r++) {
    len += (size_t)snprintf(out + len, size - len, "  ");
    for (int c = c0; c < c0 + width; c++) {
      bool pin = r == pin_row && (c == pin_col || c == pin_col + 1);
      len += (size_t)snprintf(out + len, size - len, "%c%s", pin ? 'P' : '.',
                              c + 1 == c0 + width            ? ""
                              : r == pin_row && c == pin_col ? "-"
                                                             : " ");
    }
    len += (size_t)snprintf(out + len, size - len, "\n%s",
                            r + 1 < first + n ? "\n" : "");
  }
}

/* explain on a 40x36 map: the text and the picture show rows 16 to 24
 * and columns 26 to 35 (the clash, (20,30) and (20,31), and 4 cells
 * around), said so; --whole shows all of it; a 32x32 map is shown whole. */
Test(drawing, explain_shows_a_large_map_around_the_clash) {
  char *dir = temp_dir(), *png = join(dir, "e.png");
  static char want[32768];
  const char *head = "\nThe map (# a cell that must hold one tile, P a pin, "
                     "o a cell only in an\nadjacency, . not involved; - and | "
                     "adjacency constraints):\n";
  run_result r =
      RUN("explain", "rules/coast.rules", "--size", "40x36", "--pin", "20,30=S",
          "--pin", "20,31=L", "--png", png, "--scale", "4");
  cr_assert_eq(r.code, 20, "%s", r.err);
  size_t n = (size_t)snprintf(want, sizeof want,
                              "%s  rows 16 to 24, columns 26 to 35 of 40x36, "
                              "around the clash (--whole: all of it)\n",
                              head);
  expected_rows(want + n, sizeof want - n, 16, 9, 26, 10, 20, 30);
  const char *got = strstr(r.out, "\nThe map (");
  cr_assert(got, "%s", r.out);
  cr_expect_str_eq(got, want);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  /* 9 rows of 4 pixels; the legend: clash, faded, blend, L, C, S (no room
   * for a pin's frame inside a clash's at 4 pixels: no pin row) */
  cr_expect_eq(h, 9 * 4 + 6 * LEGEND_ROW + LEGEND_TOP);
  /* the pins at (4,4) and (4,5) of the part shown: framed in red */
  cr_expect(pixel_is(pixel_at(px, w, 4 * 4 + 3, 4 * 4 + 3), "#ff0000"));
  cr_expect(pixel_is(pixel_at(px, w, 5 * 4 + 3, 4 * 4 + 3), "#ff0000"));
  cr_expect(!pixel_is(pixel_at(px, w, 3 * 4 + 3, 4 * 4 + 3), "#ff0000"));
  free(px);
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "40x36", "--pin", "20,30=S",
          "--pin", "20,31=L", "--png", png, "--scale", "4", "--whole");
  cr_assert_eq(r.code, 20, "%s", r.err);
  n = (size_t)snprintf(want, sizeof want, "%s", head);
  expected_rows(want + n, sizeof want - n, 0, 36, 0, 40, 20, 30);
  got = strstr(r.out, "\nThe map (");
  cr_assert(got, "%s", r.out);
  cr_expect_str_eq(got, want);
  px = decode_png(png, &w, &h);
  cr_expect_eq(h, 36 * 4 + 6 * LEGEND_ROW + LEGEND_TOP);
  cr_expect(pixel_is(pixel_at(px, w, 30 * 4 + 3, 20 * 4 + 3), "#ff0000"));
  free(px);
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "32x32", "--pin", "20,30=S",
          "--pin", "20,31=L");
  cr_assert_eq(r.code, 20, "%s", r.err);
  n = (size_t)snprintf(want, sizeof want, "%s", head);
  expected_rows(want + n, sizeof want - n, 0, 32, 0, 32, 20, 30);
  got = strstr(r.out, "\nThe map (");
  cr_assert(got, "%s", r.out);
  cr_expect_str_eq(got, want);
  run_free(&r);
  rm_dir(dir);
  free(png);
}

/* --png x.jpg wrote PNG bytes under a JPEG's name: each output refuses a
 * name with another extension, in one line, before any work, nothing
 * written; a name with none, another case or Tiled's .json is taken. */
Test(drawing, outputs_refuse_a_name_with_another_extension) {
  char *dir = temp_dir(), *jpg = join(dir, "x.jpg"), *xml = join(dir, "m.xml"),
       *txt = join(dir, "m.tmx.txt"), *upper = join(dir, "X.PNG"),
       *json = join(dir, "m.json");
  char msg[8192];
  snprintf(msg, sizeof msg,
           "tilesat: --png: %s: --png writes a PNG picture, not a .jpg file: "
           "name it %s/x.png\n",
           jpg, dir);
  expect_cli_error(msg, "check", "rules/coast.rules", "--size", "3x3", "--png",
                   jpg);
  snprintf(msg, sizeof msg,
           "tilesat: --tmx: %s: --tmx writes a Tiled map in XML, not a .xml "
           "file: name it %s/m.tmx\n",
           xml, dir);
  expect_cli_error(msg, "check", "rules/coast.rules", "--size", "3x3", "--tmx",
                   xml);
  snprintf(msg, sizeof msg,
           "tilesat: --tmj: %s: --tmj writes a Tiled map in JSON, not a .txt "
           "file: name it %s/m.tmx.tmj\n",
           txt, dir);
  expect_cli_error(msg, "collapse", "rules/coast.rules", "--size", "3x3",
                   "--tmj", txt);
  snprintf(msg, sizeof msg,
           "tilesat: --png: %s: --png writes a PNG picture, not a .jpg file: "
           "name it %s/x.png\n",
           jpg, dir);
  expect_cli_error(msg, "explain", "rules/hard.rules", "--size", "3x3", "--png",
                   jpg);
  cr_expect_eq(dir_entries(dir), 0);
  run_result r = RUN("check", "rules/coast.rules", "--size", "3x3", "--png",
                     upper, "--tmj", json);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  cr_expect_eq(dir_entries(dir), 3, "X.PNG, m.json and m.json.png");
  rm_dir(dir);
  free(jpg);
  free(xml);
  free(txt);
  free(upper);
  free(json);
}

/* Castle's 'river 0' and 'river 1' pinned at (5,6) beside a tower, in
 * explain's own picture (21 pixels a cell): once framed, their cells
 * differ (they were pixel for pixel the same when the frames covered the
 * tile's edge); each shows its whole 7x7 picture inside the red clash
 * frame (2 pixels), the black (1) and the white (1) pin frame. */
Test(drawing, a_pin_frame_hides_none_of_its_tile) {
  char *dir = temp_dir(), *rules = join(dir, "castle.rules"),
       *pics = join(dir, "castle.pictures"),
       *png[2] = {join(dir, "r0.png"), join(dir, "r1.png")};
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  tilesat_error err;
  tilesat_pictures *p = tilesat_pictures_read_file(pics, &err);
  cr_assert(p, "%s", err.msg);
  const char *pin[2] = {"5,6=river 0", "5,6=river 1"};
  const char *tile[2] = {"river 0", "river 1"};
  uint8_t *px[2];
  int w[2], h[2], x0 = 6 * 21, y0 = 5 * 21, b = 4, side = 21 - 2 * b;
  for (int k = 0; k < 2; k++) {
    r = RUN("explain", rules, "--size", "16x16", "--pin", "5,5=tower 0",
            "--pin", pin[k], "--png", png[k]);
    cr_assert_eq(r.code, 20, "%s", r.err);
    cr_expect(strstr(r.out, "(5,6) is pinned to"), "%s", r.out);
    run_free(&r);
    px[k] = decode_png(png[k], &w[k], &h[k]);
    cr_assert_eq(w[k], w[0]);
    cr_expect(pixel_is(pixel_at(px[k], w[k], x0, y0 + 10), "#ff0000"));
    cr_expect(pixel_is(pixel_at(px[k], w[k], x0 + 2, y0 + 10), "#000000"));
    cr_expect(pixel_is(pixel_at(px[k], w[k], x0 + 3, y0 + 10), "#ffffff"));
    cr_expect(pixel_is(pixel_at(px[k], w[k], x0 + 17, y0 + 10), "#ffffff"));
    cr_expect(pixel_is(pixel_at(px[k], w[k], x0 + 18, y0 + 10), "#000000"));
    const uint8_t *pic = tilesat_pictures_get(p, tile[k]);
    cr_assert(pic);
    for (int y = 0; y < side; y++)
      for (int x = 0; x < side; x++)
        cr_expect(same_px(pixel_at(px[k], w[k], x0 + b + x, y0 + b + y),
                          pic + (size_t)4 * (size_t)((y * 7 / side) * 7 +
                                                     x * 7 / side)),
                  "%s (%d,%d)", tile[k], x, y);
  }
  int differ = 0;
  for (int y = 0; y < 21; y++)
    for (int x = 0; x < 21; x++)
      differ += !same_px(pixel_at(px[0], w[0], x0 + x, y0 + y),
                         pixel_at(px[1], w[1], x0 + x, y0 + y));
  cr_expect_gt(differ, 0);
  free(px[0]);
  free(px[1]);
  tilesat_pictures_free(p);
  rm_dir(dir);
  free(rules);
  free(pics);
  free(png[0]);
  free(png[1]);
}

/* explain's cropped picture of a 40x36 coast map: the pin at (18,28),
 * outside the clash, is drawn in S's full colour inside its frame, while
 * the free cell beside it is washed out. */
Test(drawing, pins_outside_the_clash_are_not_faded) {
  char *dir = temp_dir(), *png = join(dir, "e.png");
  run_result r =
      RUN("explain", "rules/coast.rules", "--size", "40x36", "--pin", "20,30=S",
          "--pin", "20,31=L", "--pin", "18,28=S", "--png", png, "--scale", "8");
  cr_assert_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.out, "rows 16 to 24, columns 26 to 35"), "%s", r.out);
  cr_expect(!strstr(r.out, "(18,28) is pinned"), "%s", r.out);
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  uint8_t s[4], free_cell[4];
  tilesat_tile_colour(coast, tilesat_rules_find_tile(coast, "S"), s);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  /* (18,28) is (2,2) of the part shown: 8 pixels a cell from (16,16) */
  cr_expect(pixel_is(pixel_at(px, w, 16, 19), "#000000"));
  cr_expect(pixel_is(pixel_at(px, w, 17, 19), "#ffffff"));
  for (int y = 18; y < 22; y++)
    for (int x = 18; x < 22; x++)
      cr_expect(same_px(pixel_at(px, w, x, y), s), "(%d,%d)", x, y);
  /* the free cell (2,1) of the part shown: its blend, washed out, so
   * lighter than any tile's full colour */
  memcpy(free_cell, pixel_at(px, w, 12, 20), 4);
  uint8_t light[4];
  faded(s, light);
  cr_expect(free_cell[0] >= 255 * 2 / 3 && free_cell[1] >= 255 * 2 / 3 &&
                free_cell[2] >= 255 * 2 / 3,
            "#%02x%02x%02x", free_cell[0], free_cell[1], free_cell[2]);
  cr_expect(!same_px(pixel_at(px, w, 20, 20), light));
  free(px);
  tilesat_rules_free(coast);
  run_free(&r);
  rm_dir(dir);
  free(png);
}

/* collapse -n --png: the heat map's grey edge all round (one pixel, the
 * cells one pixel in), the pin at (1,1) drawn as its tile (S's colour)
 * inside a frame black then white, and a line below the scale saying so. */
Test(drawing, heat_map_draws_pins_and_its_whole_edge) {
  char *dir = temp_dir(), *png = join(dir, "h.png");
  run_result r = RUN("collapse", "rules/coast.rules", "--size", "4x3", "-n",
                     "10", "--pin", "1,1=S", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err); /* every run made a map */
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  uint8_t s[4];
  tilesat_tile_colour(coast, tilesat_rules_find_tile(coast, "S"), s);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  for (int i = 0; i <= 65; i++) {
    cr_expect(pixel_is(pixel_at(px, w, i, 0), "#808080"), "top %d", i);
    cr_expect(pixel_is(pixel_at(px, w, i, 49), "#808080"), "bottom %d", i);
  }
  for (int i = 0; i <= 49; i++) {
    cr_expect(pixel_is(pixel_at(px, w, 0, i), "#808080"), "left %d", i);
    cr_expect(pixel_is(pixel_at(px, w, 65, i), "#808080"), "right %d", i);
  }
  /* the pinned cell: 16 pixels from (17,17) */
  cr_expect(pixel_is(pixel_at(px, w, 17, 25), "#000000"));
  cr_expect(pixel_is(pixel_at(px, w, 32, 25), "#000000"));
  cr_expect(pixel_is(pixel_at(px, w, 18, 25), "#ffffff"));
  for (int y = 19; y < 31; y++)
    for (int x = 19; x < 31; x++)
      cr_expect(same_px(pixel_at(px, w, x, y), s), "(%d,%d)", x, y);
  /* title, scale and its numbers, then the pins' line: ink in it */
  int top = 50 + 6 + 10 + 6 + 16 + 4 + 10 + 6, ink = 0;
  cr_expect_eq(h, top + 10 + 6);
  for (int y = top; y < top + 10; y++)
    for (int x = 0; x < w; x++)
      ink += pixel_is(pixel_at(px, w, x, y), "#000000");
  cr_expect_gt(ink, 0);
  free(px);
  tilesat_rules_free(coast);
  run_free(&r);
  rm_dir(dir);
  free(png);
}

/* Rules whose tiles are colours named by their colour (as extract names
 * an image's): two, any next to any. */
static char *colour_rules(const char *dir) {
  char *path = join(dir, "c.rules");
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs("tilesat-rules 1\ntopology square\ntile #ff0000 1\ntile #0000ff 1\n",
        f);
  const char *dirs = "NESW";
  for (int d = 0; d < 4; d++)
    for (int t = 0; t < 2; t++)
      fprintf(f, "allow %s %c #ff0000 #0000ff\n", t ? "#0000ff" : "#ff0000",
              dirs[d]);
  fclose(f);
  return path;
}

/* A map of one-pixel colours, drawn without --scale, at 8 pixels a cell
 * (24x16 cells: 192x128 pixels, each cell a block of its tile's colour),
 * at fewer on a map whose picture would pass 1024 pixels a side (160x40
 * cells: 6 pixels, 960x240). */
Test(drawing, plain_colours_are_drawn_large_enough_to_see) {
  char *dir = temp_dir(), *rules = colour_rules(dir), *png = join(dir, "m.png");
  run_result r = RUN("check", rules, "--size", "24x16", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = grid_of(r.out);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert(w == 192 && h == 128, "%dx%d", w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      cr_expect(
          pixel_is(pixel_at(px, w, x, y), tilesat_grid_at(g, y / 8, x / 8)),
          "(%d,%d)", x, y);
  free(px);
  tilesat_grid_free(g);
  run_free(&r);
  r = RUN("check", rules, "--size", "160x40", "--png", png, "-q");
  cr_assert_eq(r.code, 10, "%s", r.err);
  px = decode_png(png, &w, &h);
  cr_expect(w == 960 && h == 240, "%dx%d", w, h);
  free(px);
  run_free(&r);
  rm_dir(dir);
  free(rules);
  free(png);
}

/* verify and --pins-from read a picture drawn larger back as its map: the
 * default 8 pixels a cell of one-pixel colours, Castle's tiles at --scale
 * 14; a picture with more than the map (a framed pin, several maps) is
 * refused, saying why and what to do. */
Test(drawing, verify_reads_scaled_pictures_back) {
  char *dir = temp_dir(), *rules = colour_rules(dir), *png = join(dir, "m.png"),
       *castle = join(dir, "castle.rules");
  run_result r = RUN("check", rules, "--size", "6x4", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_result v = RUN("verify", rules, png);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, "VALID\n");
  run_free(&v);
  v = RUN("check", rules, "--pins-from", png);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, r.out);
  run_free(&v);
  run_free(&r);
  char msg[4096];
  r = RUN("check", rules, "--size", "6x4", "--png", png, "--scale", "8",
          "--pin", "1,1=#ff0000");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  snprintf(msg, sizeof msg,
           "tilesat: %s: this picture is drawn with --scale (a legend below "
           "the map, or its pins framed): draw it without --scale to read it "
           "back\n",
           png);
  expect_cli_error(msg, "verify", rules, png);
  r = RUN("sample", rules, "--size", "3x3", "-n", "2", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  snprintf(msg, sizeof msg,
           "tilesat: %s: this picture holds several maps: draw one (-n 1) to "
           "read it back, or write them with --tmx\n",
           png);
  expect_cli_error(msg, "verify", rules, png);
  r = RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", castle);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("collapse", castle, "--size", "4x3", "--seed", "2", "--guard", "sat",
          "--png", png, "--scale", "14");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  v = RUN("verify", castle, png);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect(!strncmp(v.out, "VALID\n", 6), "%s", v.out);
  run_free(&v);
  rm_dir(dir);
  free(rules);
  free(castle);
  free(png);
}

/* Rules without pictures (coast: L, C, S) are drawn as 8x8 squares of
 * generated colours; verify and --pins-from cut the picture by those
 * squares, as the README's tour does: its check --png and its completed
 * level read back as their maps.  A hex map's picture (odd rows shifted)
 * is refused, saying what to give instead. */
Test(drawing, pictures_of_rules_without_pictures_read_back) {
  char *dir = temp_dir(), *png = join(dir, "coast-check.png"),
       *level = join(dir, "level.txt"), *done = join(dir, "level-done.png");
  run_result r = RUN("check", "rules/coast.rules", "--size", "12x8", "--pin",
                     "7,0=S", "--pin", "0,11=L", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_result v = RUN("verify", "rules/coast.rules", png);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, "VALID\n");
  run_free(&v);
  v = RUN("check", "rules/coast.rules", "--pins-from", png);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, r.out); /* every cell pinned: the same map */
  run_free(&v);
  run_free(&r);
  FILE *f = fopen(level, "w");
  cr_assert(f);
  fputs("S.......\n........\n........\n.......L\n", f);
  fclose(f);
  r = RUN("check", "rules/coast.rules", "--pins-from", level, "--png", done);
  cr_assert_eq(r.code, 10, "%s", r.err);
  v = RUN("verify", "rules/coast.rules", done);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, "VALID\n");
  run_free(&v);
  v = RUN("check", "rules/coast.rules", "--pins-from", done);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, r.out);
  run_free(&v);
  run_free(&r);
  r = RUN("check", "rules/coast-hex.rules", "--size", "4x4", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "tilesat: %s: a hex map's picture cannot be read back (its odd "
           "rows are shifted by half a cell): give the map as a text grid "
           "(what check prints) or write it with --tmx\n",
           png);
  expect_cli_error(msg, "verify", "rules/coast-hex.rules", png);
  rm_dir(dir);
  free(png);
  free(level);
  free(done);
}

/* The README says what the failed run's picture shows in the colours the
 * legend and the pixels have: doomed cells orange, the contradiction
 * magenta (not "in red"). */
Test(drawing, readme_names_the_frames_colours) {
  char *readme = slurp("README.md");
  cr_assert(readme);
  cr_expect(!strstr(readme, "contradiction\nin red"), "README.md");
  cr_expect(strstr(readme, "frames the doomed cells in orange"), "README.md");
  free(readme);
}

/* Rules of two 16-pixel tiles, a and b, each only beside itself, and
 * their pictures (the rules' sidecar): the same but at odd (x, y), red in
 * a, green in b, pixels a picture of half their size drops, so that only
 * a pinned tile drawn whole tells them apart. */
static char *big_tile_rules(const char *dir) {
  char *path = join(dir, "big.rules"), *pics = join(dir, "big.pictures");
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs("tilesat-rules 1\ntopology square\ntile a 1\ntile b 1\n", f);
  for (const char *d = "NESW"; *d; d++)
    fprintf(f, "allow a %c a\nallow b %c b\n", *d, *d);
  fclose(f);
  f = fopen(pics, "w");
  cr_assert(f);
  fputs("tilesat-pictures 1\nsize 16 16\noverlap 0\n", f);
  for (int t = 0; t < 2; t++) {
    fprintf(f, "picture \"%s\"", t ? "b" : "a");
    for (int k = 0; k < 256; k++) {
      int x = k % 16, y = k / 16;
      fprintf(f, " %s",
              x % 2 && y % 2 ? (t ? "#00ff00" : "#ff0000")
              : (x + y) % 4  ? "#336699"
                             : "#88aa22");
    }
    fputc('\n', f);
  }
  fclose(f);
  free(pics);
  return path;
}

/* Each pixel of tile `name`'s 16-pixel picture at (x0, y0) of a picture. */
static void expect_whole_tile(const tilesat_pictures *p, const char *name,
                              const uint8_t *px, int w, int x0, int y0) {
  const uint8_t *pic = tilesat_pictures_get(p, name);
  cr_assert(pic);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      cr_expect(same_px(pixel_at(px, w, x0 + x, y0 + y),
                        pic + (size_t)4 * (size_t)(y * 16 + x)),
                "%s (%d,%d)", name, x, y);
}

/* explain's own scale on an 8x8 map of 16-pixel tiles (16 pixels a cell
 * when no pin was drawn: the pins' room was 8 pixels, half their
 * pictures) is twice the pictures, 32 pixels a cell: inside the red clash
 * frame (4), the black (2) and the white (2) pin frames, each pinned
 * tile's picture pixel for pixel, and nothing said. */
Test(drawing, pinned_big_tiles_are_drawn_whole_by_default) {
  char *dir = temp_dir(), *rules = big_tile_rules(dir),
       *pics = join(dir, "big.pictures"), *png = join(dir, "e.png");
  run_result r = RUN("explain", rules, "--size", "8x8", "--pin", "2,3=a",
                     "--pin", "2,4=b", "--png", png);
  cr_assert_eq(r.code, 20, "%s", r.err);
  cr_expect(!strstr(r.err, "smaller"), "%s", r.err);
  tilesat_error err;
  tilesat_pictures *p = tilesat_pictures_read_file(pics, &err);
  cr_assert(p, "%s", err.msg);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert(h > 8 * 32, "%dx%d", w, h);
  for (int k = 0; k < 2; k++) {
    int x0 = (3 + k) * 32, y0 = 2 * 32;
    cr_expect(pixel_is(pixel_at(px, w, x0 + 3, y0 + 16), "#ff0000"));
    cr_expect(pixel_is(pixel_at(px, w, x0 + 4, y0 + 16), "#000000"));
    cr_expect(pixel_is(pixel_at(px, w, x0 + 6, y0 + 16), "#ffffff"));
    cr_expect(pixel_is(pixel_at(px, w, x0 + 25, y0 + 16), "#ffffff"));
    cr_expect(pixel_is(pixel_at(px, w, x0 + 27, y0 + 16), "#000000"));
    expect_whole_tile(p, k ? "b" : "a", px, w, x0 + 8, y0 + 8);
  }
  free(px);
  tilesat_pictures_free(p);
  run_free(&r);
  rm_dir(dir);
  free(rules);
  free(pics);
  free(png);
}

/* The heat map of the same tiles: 20 pixels a cell by default (not 16,
 * which left the pins 12), the pin's picture pixel for pixel inside its
 * frames, one pixel each. */
Test(drawing, heat_map_draws_big_pinned_tiles_whole) {
  char *dir = temp_dir(), *rules = big_tile_rules(dir),
       *pics = join(dir, "big.pictures"), *png = join(dir, "h.png");
  run_result r = RUN("collapse", rules, "--size", "4x3", "-n", "3", "--pin",
                     "1,1=b", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_expect(!strstr(r.err, "smaller"), "%s", r.err);
  tilesat_error err;
  tilesat_pictures *p = tilesat_pictures_read_file(pics, &err);
  cr_assert(p, "%s", err.msg);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_expect(pixel_is(pixel_at(px, w, 4 * 20 + 1, 30), "#808080"));
  cr_expect(pixel_is(pixel_at(px, w, 30, 3 * 20 + 1), "#808080"));
  cr_expect(pixel_is(pixel_at(px, w, 21, 30), "#000000"));
  cr_expect(pixel_is(pixel_at(px, w, 22, 30), "#ffffff"));
  expect_whole_tile(p, "b", px, w, 23, 23);
  free(px);
  tilesat_pictures_free(p);
  run_free(&r);
  rm_dir(dir);
  free(rules);
  free(pics);
  free(png);
}

/* A --scale too small for the pins is drawn as asked, saying once what
 * is lost and the least --scale that keeps them whole (26 in a clash
 * frame: 26 - 2 * (3 + 2) = 16; 20 on the heat map); at that, nothing. */
Test(drawing, a_scale_too_small_for_the_pins_says_so) {
  char *dir = temp_dir(), *rules = big_tile_rules(dir),
       *png = join(dir, "e.png");
  run_result r = RUN("explain", rules, "--size", "8x8", "--pin", "2,3=a",
                     "--pin", "2,4=b", "--png", png, "--scale", "24");
  cr_assert_eq(r.code, 20, "%s", r.err);
  const char *said = "tilesat: --scale 24 draws pinned tiles smaller than "
                     "their pictures (at least 26 keeps them whole)\n";
  const char *at = strstr(r.err, said);
  cr_expect(at, "%s", r.err);
  cr_expect(!at || !strstr(at + strlen(said), "smaller"), "once: %s", r.err);
  run_free(&r);
  r = RUN("explain", rules, "--size", "8x8", "--pin", "2,3=a", "--pin", "2,4=b",
          "--png", png, "--scale", "26");
  cr_assert_eq(r.code, 20, "%s", r.err);
  cr_expect(!strstr(r.err, "smaller"), "%s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "4x3", "-n", "3", "--pin", "1,1=b",
          "--png", png, "--scale", "16");
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_expect(strstr(r.err, "tilesat: --scale 16 draws pinned tiles smaller "
                          "than their pictures (at least 20 keeps them "
                          "whole)\n"),
            "%s", r.err);
  run_free(&r);
  r = RUN("check", rules, "--size", "4x3", "--pin", "1,1=b", "--png", png,
          "--scale", "16");
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_expect(strstr(r.err, "tilesat: --scale 16 draws pinned tiles smaller "
                          "than their pictures (at least 20 keeps them "
                          "whole)\n"),
            "%s", r.err);
  run_free(&r);
  rm_dir(dir);
  free(rules);
  free(png);
}

/* A map too wide for the pins' 20 pixels a cell (2000 cells: 40002
 * pixels, past 32768 a side) keeps the heat map's 16, as before, and says
 * once that the pins are drawn smaller, naming --scale. */
Test(drawing, a_picture_too_large_for_whole_pins_says_so) {
  char *dir = temp_dir(), *rules = big_tile_rules(dir),
       *png = join(dir, "h.png");
  run_result r = RUN("collapse", rules, "--size", "2000x1", "-n", "2", "--pin",
                     "0,5=a", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  char said[512];
  snprintf(said, sizeof said,
           "tilesat: %s: pinned tiles are drawn smaller than their pictures "
           "to keep the picture within 2^26 pixels, 32768 a side (--scale: "
           "at least 20 keeps them whole, on a smaller map or window)\n",
           png);
  const char *at = strstr(r.err, said);
  cr_expect(at, "%s", r.err);
  cr_expect(!at || !strstr(at + strlen(said), "smaller"), "once: %s", r.err);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_expect_eq(w, 2000 * 16 + 2);
  free(px);
  run_free(&r);
  rm_dir(dir);
  free(rules);
  free(png);
}
