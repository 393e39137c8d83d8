/* Pictures a designer reads: verify --png (broken pairs marked, a legend),
 * collapse -n's heat map with its colour scale, and Castle drawn with its
 * own tile images (the demo's picture), 21 pixels a cell when marked. */
#include "helpers.h"
#include "png_helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *join(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

/* How many pixels of the rectangle are exactly "#rrggbb". */
static int count_colour(const uint8_t *px, int w, int x0, int y0, int x1,
                        int y1, const char *hex) {
  int n = 0;
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += pixel_is(pixel_at(px, w, x, y), hex);
  return n;
}

/* verify --png: coast's 8x8 squares drawn 48 pixels a cell (3 columns:
 * 16 at least, more while the map is under 192 pixels); the two cells of
 * the one broken pair, L beside S, framed in red with a red dot on their
 * edge, the others washed out; below, the legend's rows. */
Test(pictures, verify_png_marks_the_broken_pair) {
  char *dir = temp_dir(), *map = join(dir, "m.txt"), *png = join(dir, "v.png");
  write_text(map, "tilesat-grid names\nL C S\nL S S\n");
  run_result r = RUN("verify", "rules/coast.rules", map, "--png", png);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "INVALID: 1 pair of neighbouring cells breaks the "
                          "rules\n(1,0) \"L\" and its east neighbour (1,1) "
                          "\"S\": not an allowed pair\n");
  run_free(&r);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  int cs = 48;
  cr_assert(w >= 3 * cs && h >= 2 * cs + 2 * 16, "%dx%d", w, h);
  for (int c = 0; c < 6; c++) {
    bool broken = c == 3 || c == 4;
    int x0 = (c % 3) * cs, y0 = (c / 3) * cs;
    /* a frame 6 pixels wide (1/8 of the cell): its corner and edges */
    cr_expect_eq(pixel_is(pixel_at(px, w, x0 + 1, y0 + 1), "#ff0000"), broken,
                 "cell %d", c);
    cr_expect_eq(pixel_is(pixel_at(px, w, x0 + cs / 4, y0 + 5), "#ff0000"),
                 broken, "cell %d", c);
    cr_expect(!pixel_is(pixel_at(px, w, x0 + cs / 4, y0 + 6), "#ff0000"),
              "cell %d", c);
  }
  /* the dot on the edge between (1,0) and (1,1), outlined in black */
  cr_expect(pixel_is(pixel_at(px, w, cs, cs + cs / 2), "#ff0000"));
  cr_expect(pixel_is(pixel_at(px, w, cs - 8, cs + cs / 2), "#000000"));
  /* the legend: the broken pair's sample (red frame, red dot on grey),
   * the washed-out sample, each with text; no blend row (one tile a cell) */
  int y0 = 2 * cs + 6;
  cr_expect(pixel_is(pixel_at(px, w, 6, y0), "#ff0000"));
  cr_expect(pixel_is(pixel_at(px, w, 6 + 3, y0 + 3), "#c0c0c0"));
  cr_expect(pixel_is(pixel_at(px, w, 6 + 8, y0 + 8), "#ff0000"));
  cr_expect(pixel_is(pixel_at(px, w, 6 + 8, y0 + 22 + 8), "#eaeaea"));
  /* then coast's tiles, plain colours, named: L, C, S */
  cr_expect_eq(h, 2 * cs + 5 * 22 + 6, "two legend rows, three tiles");
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  for (int t = 0; t < 3; t++) {
    uint8_t c[4];
    tilesat_tile_colour(coast, t, c);
    cr_expect(!memcmp(pixel_at(px, w, 6 + 8, y0 + (2 + t) * 22 + 8), c, 4),
              "tile %d", t);
  }
  tilesat_rules_free(coast);
  cr_expect_gt(count_colour(px, w, 28, y0, w, y0 + 16, "#000000"), 20);
  free(px);
  /* a valid map: drawn, no marks, the legend of its tiles alone */
  write_text(map, "tilesat-grid names\nL C S\nC S S\n");
  r = RUN("verify", "rules/coast.rules", map, "--png", png);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  px = decode_png(png, &w, &h);
  cr_expect(w >= 3 * cs && h == 2 * cs + 3 * 22 + 6, "%dx%d: the tiles' rows",
            w, h);
  free(px);
  remove(map);
  remove(png);
  rmdir(dir);
  free(map);
  free(png);
  free(dir);
}

/* collapse -n --png: 16 pixels a cell, white where no run contradicted,
 * pure red where the most did, in between by the count (checked against
 * the JSON's contradiction cells); below, the title, a colour scale from
 * white to red and its numbers. */
Test(pictures, heat_map_has_its_colour_scale) {
  char *dir = temp_dir(), *rules = join(dir, "castle.rules"),
       *png = join(dir, "heat.png");
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "10x8", "-n", "40", "--format", "json",
          "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  cJSON *doc = cJSON_Parse(r.out);
  cr_assert(doc, "%s", r.out);
  long hits[80] = {0}, most = 0;
  const cJSON *one;
  cJSON_ArrayForEach(one, cJSON_GetObjectItem(doc, "contradiction_cells")) {
    const cJSON *cell = cJSON_GetObjectItem(one, "cell");
    int row = cJSON_GetArrayItem(cell, 0)->valueint,
        col = cJSON_GetArrayItem(cell, 1)->valueint;
    hits[row * 10 + col] = (long)cJSON_GetObjectItem(one, "count")->valuedouble;
    most = hits[row * 10 + col] > most ? hits[row * 10 + col] : most;
  }
  cJSON_Delete(doc);
  run_free(&r);
  cr_assert_gt(most, 0, "no run contradicted");
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert(w > 10 * 16 && h > 8 * 16 + 16, "%dx%d", w, h);
  for (int c = 0; c < 80; c++) {
    const uint8_t *p = pixel_at(px, w, (c % 10) * 16 + 8, (c / 10) * 16 + 8);
    int g = (int)(255.0 * (1.0 - (double)hits[c] / (double)most) + 0.5);
    cr_expect(p[0] == 255 && p[1] == g && p[2] == g && p[3] == 255,
              "cell %d: %ld of %ld: %d %d %d", c, hits[c], most, p[0], p[1],
              p[2]);
  }
  /* the legend below the map: title text, then the scale (6 pixels in,
   * 160 long): white at its left end, red at its right, numbers below */
  int y = 8 * 16 + 1 + 6;
  cr_expect_gt(count_colour(px, w, 0, y, w, y + 10, "#000000"), 50);
  int bar = y + 10 + 6 + 8;
  cr_expect(pixel_is(pixel_at(px, w, 6, bar), "#ffffff"));
  cr_expect(pixel_is(pixel_at(px, w, 6 + 159, bar), "#ff0000"));
  cr_expect_gt(count_colour(px, w, 0, bar + 8 + 4, w, h, "#000000"), 10);
  free(px);
  remove(png);
  char *side = join(dir, "castle.pictures");
  remove(side);
  free(side);
  remove(rules);
  rmdir(dir);
  free(rules);
  free(png);
  free(dir);
}

/* The cells of a grid as collapse prints it ("tilesat-grid names", then
 * quoted names), up to max. */
static int grid_names(const char *out, char names[][32], int max) {
  const char *p = strstr(out, "tilesat-grid names\n");
  cr_assert(p, "%s", out);
  p += strlen("tilesat-grid names\n");
  int n = 0;
  while (*p && n < max) {
    const char *q = strchr(p, '"');
    if (!q)
      break;
    const char *e = strchr(q + 1, '"');
    cr_assert(e);
    snprintf(names[n++], 32, "%.*s", (int)(e - q - 1), q + 1);
    p = e + 1;
  }
  return n;
}

/* The demo's Castle picture: import-tileset reads the tile images added to
 * tests/data, so collapse --png draws each cell with its image (7x7, as
 * mxgmn drew them): every cell holding an unrotated tile ("NAME 0") has
 * exactly the pixels of Castle/NAME.png.  A failed run's marked picture:
 * 21 pixels a cell (7 scaled by 3, the least reaching 16). */
Test(pictures, castle_is_drawn_with_its_tile_images) {
  char *dir = temp_dir(), *rules = join(dir, "castle.rules"),
       *png = join(dir, "c.png");
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  char said[2048];
  snprintf(said, sizeof said,
           "tilesat: wrote %s\ntilesat: wrote %s/castle.pictures\n", rules,
           dir);
  cr_expect_str_eq(r.err, said);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "16x16", "--seed", "3", "--guard", "sat",
          "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  static char names[256][32];
  cr_assert_eq(grid_names(r.out, names, 256), 256);
  run_free(&r);
  int w, h, checked = 0;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert(w == 16 * 7 && h == 16 * 7, "%dx%d", w, h);
  for (int c = 0; c < 256; c++) {
    size_t len = strlen(names[c]);
    if (len < 2 || strcmp(names[c] + len - 2, " 0"))
      continue;
    char file[128];
    snprintf(file, sizeof file, "tests/data/wfc/tilesets/Castle/%.*s.png",
             (int)len - 2, names[c]);
    int tw, th;
    uint8_t *tile = decode_png(file, &tw, &th);
    cr_assert(tw == 7 && th == 7, "%s", file);
    for (int y = 0; y < 7; y++)
      for (int x = 0; x < 7; x++)
        cr_expect(!memcmp(pixel_at(px, w, (c % 16) * 7 + x, (c / 16) * 7 + y),
                          pixel_at(tile, tw, x, y), 4),
                  "cell %d (%s), pixel (%d,%d)", c, names[c], x, y);
    free(tile);
    checked++;
  }
  free(px);
  cr_expect_gt(checked, 20);
  /* the same seed unguarded fails: its wave, 21 pixels a cell */
  r = RUN("collapse", rules, "--size", "16x16", "--seed", "3", "--explain",
          "--format", "json", "--png", png);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cJSON *doc = cJSON_Parse(r.out);
  cr_assert(doc, "%s", r.out);
  const cJSON *at = cJSON_GetObjectItem(doc, "contradiction");
  int row = cJSON_GetObjectItem(at, "row")->valueint,
      col = cJSON_GetObjectItem(at, "col")->valueint;
  cJSON_Delete(doc);
  run_free(&r);
  px = decode_png(png, &w, &h);
  cr_assert(w >= 16 * 21 && h > 16 * 21, "%dx%d", w, h);
  cr_expect(pixel_is(pixel_at(px, w, col * 21, row * 21), "#ff00ff"));
  cr_expect(pixel_is(pixel_at(px, w, col * 21 + 10, row * 21 + 10), "#000000"));
  cr_expect(!pixel_is(pixel_at(px, w, col * 21 + 3, row * 21 + 3), "#ff00ff"),
            "a frame wider than 2 pixels");
  free(px);
  char *side = join(dir, "castle.pictures");
  remove(side);
  free(side);
  remove(png);
  remove(rules);
  rmdir(dir);
  free(rules);
  free(png);
  free(dir);
}
