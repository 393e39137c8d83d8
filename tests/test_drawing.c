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
  /* the heat map's cells 5 pixels, its grey edge right after the map */
  r = RUN("collapse", rules, "--size", "6x5", "-n", "10", "--png", b, "--scale",
          "5");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  pb = decode_png(b, &wb, &hb);
  cr_expect(pixel_is(pixel_at(pb, wb, 30, 0), "#808080"));
  cr_expect(pixel_is(pixel_at(pb, wb, 0, 25), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 29, 24), "#808080"));
  cr_expect(!pixel_is(pixel_at(pb, wb, 31, 0), "#808080"));
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
 * pinned cell drawn as its tile's own picture (not the blend of every
 * tile), framed black then white, inside the red frame of the clash; a
 * pin outside the clash faded like its neighbours, framed still.  A
 * finished map with --scale frames its pins too. */
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
    /* inside the frames, the tile's picture, 2 pixels a picture pixel */
    for (int y = 4; y < 10; y++)
      for (int x = 4; x < 10; x++) {
        uint8_t want[4];
        const uint8_t *src = pic + (size_t)4 * (size_t)((y / 2) * 7 + x / 2);
        if (pins[i].clash)
          memcpy(want, src, 4);
        else
          faded(src, want);
        cr_expect(same_px(pixel_at(px, w, x0 + x, y0 + y), want), "%s (%d,%d)",
                  pins[i].tile, x, y);
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
