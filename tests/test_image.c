/* Image samples, palettes, tile pictures, the overlapping model and PNG
 * rendering: end to end through the CLI, outputs decoded with libpng. */
#include "helpers.h"
#include "png_helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHESS "tests/data/wfc/samples/Chess.png"
#define MAZE "tests/data/wfc/samples/SimpleMaze.png"

static tilesat_grid *grid_of_output(const char *text) {
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(text, strlen(text), "out", &err);
  cr_assert(g, "%s", err.msg);
  return g;
}

/* Extract the Chess sample into a temporary rules file. */
static char *chess_rules(void) {
  char *rules = temp_path(".rules");
  run_result r = RUN("extract", CHESS, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  return rules;
}

static void remove_rules(char *rules) {
  size_t n = strlen(rules);
  char *pics = malloc(n + 4);
  memcpy(pics, rules, n - strlen(".rules"));
  strcpy(pics + n - strlen(".rules"), ".pictures");
  remove(pics);
  remove(rules);
  free(pics);
  free(rules);
}

Test(image, chess_gives_two_tiles_that_alternate) {
  run_result r = RUN("extract", CHESS);
  cr_assert_eq(r.code, 0, "%s", r.err);
  /* the sample is an 8x8 one-pixel checkerboard, white at the top left */
  cr_expect(strstr(r.out, "tile #ffffff 32\ntile #000000 32\n"), "%s", r.out);
  const char *dirs[] = {"N", "E", "S", "W"};
  for (int d = 0; d < 4; d++) {
    char line[64];
    snprintf(line, sizeof line, "allow #ffffff %s #000000\n", dirs[d]);
    cr_expect(strstr(r.out, line), "missing %s", line);
    snprintf(line, sizeof line, "allow #000000 %s #ffffff\n", dirs[d]);
    cr_expect(strstr(r.out, line), "missing %s", line);
  }
  run_free(&r);
  /* the same through the library */
  tilesat_error err;
  tilesat_image *img = tilesat_image_read_png(CHESS, &err);
  cr_assert(img, "%s", err.msg);
  cr_expect_eq(img->width, 8);
  tilesat_grid *g = tilesat_grid_from_image(img, CHESS, 1, NULL, NULL, &err);
  cr_assert(g, "%s", err.msg);
  const tilesat_grid *gs[1] = {g};
  tilesat_rules *rules = tilesat_extract(gs, 1, TILESAT_SQUARE, false, &err);
  cr_assert_eq(tilesat_rules_ntiles(rules), 2);
  for (int a = 0; a < 2; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < 2; b++)
        cr_expect_eq(tilesat_rules_allows(rules, a, d, b), a != b);
  tilesat_rules_free(rules);
  tilesat_grid_free(g);
  tilesat_image_free(img);
}

Test(image, chess_periodic_47_unsat_48_sat_with_exactly_two_maps) {
  char *rules = chess_rules();
  for (int i = 0; i < NBACKENDS; i++) {
    const char *be = tilesat_backend_name(backends[i]);
    run_result r = RUN("check", rules, "--size", "47x47", "--periodic",
                       "--backend", be, "--method", "cnf");
    cr_expect_eq(r.code, 20);
    cr_expect_str_eq(r.out, "UNSAT\n");
    run_free(&r);
    r = RUN("check", rules, "--size", "48x48", "--periodic", "--backend", be,
            "--method", "cnf");
    cr_expect_eq(r.code, 10);
    cr_expect_eq(strncmp(r.out, "SAT\n", 4), 0);
    run_free(&r);
    r = RUN("enum", rules, "--size", "48x48", "--periodic", "--backend", be);
    cr_expect_eq(r.code, 10);
    size_t n = strlen(r.out);
    cr_expect(n > 9 && !strcmp(r.out + n - 9, "\nmaps: 2\n"), "%s",
              r.out + (n > 40 ? n - 40 : 0));
    run_free(&r);
  }
  remove_rules(rules);
}

Test(image, check_png_shows_the_witness_pixel_for_pixel) {
  char *rules = chess_rules();
  char *png = temp_path(".png");
  run_result r =
      RUN("check", rules, "--size", "6x4", "--periodic", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = grid_of_output(r.out + 4);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  /* colour tiles: 8x8 pixels a cell (to be seen), the colour of the
   * tile's name */
  cr_assert_eq(w, 6 * 8);
  cr_assert_eq(h, 4 * 8);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      cr_expect(
          pixel_is(pixel_at(px, w, x, y), tilesat_grid_at(g, y / 8, x / 8)),
          "pixel %d,%d", x, y);
  free(px);
  run_free(&r);
  /* --scale 1: one pixel per cell */
  r = RUN("check", rules, "--size", "6x4", "--periodic", "--png", png,
          "--scale", "1");
  cr_assert_eq(r.code, 10, "%s", r.err);
  px = decode_png(png, &w, &h);
  cr_assert_eq(w, 6);
  cr_assert_eq(h, 4);
  tilesat_grid *g1 = grid_of_output(r.out + 4);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      cr_expect(pixel_is(pixel_at(px, w, x, y), tilesat_grid_at(g1, y, x)),
                "pixel %d,%d", x, y);
  free(px);
  tilesat_grid_free(g1);
  tilesat_grid_free(g);
  run_free(&r);
  remove(png);
  free(png);
  remove_rules(rules);
}

Test(image, enum_png_is_a_contact_sheet_of_every_map) {
  char *rules = chess_rules();
  char *png = temp_path(".png");
  run_result r =
      RUN("enum", rules, "--size", "4x2", "--periodic", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_assert(strstr(r.out, "maps: 2\n"));
  /* the two maps as printed, in order, each ended by a blank line */
  char *end0 = strstr(r.out, "\n\n") + 2, *end1 = strstr(end0, "\n\n") + 2;
  char *text0 = strndup(r.out, (size_t)(end0 - r.out));
  char *text1 = strndup(end0, (size_t)(end1 - end0));
  tilesat_grid *g0 = grid_of_output(text0);
  tilesat_grid *g1 = grid_of_output(text1);
  free(text0);
  free(text1);
  cr_assert_eq(tilesat_grid_height(g0), 2);
  /* colour tiles 8 pixels a cell, the maps 32x16, two a row */
  int w, h, gap = TILESAT_SHEET_GAP;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert_eq(w, 2 * 32 + gap);
  cr_assert_eq(h, 16);
  for (int y = 0; y < 16; y++) {
    for (int x = 0; x < 32; x++) {
      cr_expect(
          pixel_is(pixel_at(px, w, x, y), tilesat_grid_at(g0, y / 8, x / 8)));
      cr_expect(pixel_is(pixel_at(px, w, 32 + gap + x, y),
                         tilesat_grid_at(g1, y / 8, x / 8)));
      /* the two maps are each other's negative */
      cr_expect_str_neq(tilesat_grid_at(g0, y / 8, x / 8),
                        tilesat_grid_at(g1, y / 8, x / 8));
    }
    for (int x = 32; x < 32 + gap; x++)
      cr_expect(pixel_is(pixel_at(px, w, x, y), "#808080"));
  }
  free(px);
  tilesat_grid_free(g0);
  tilesat_grid_free(g1);
  run_free(&r);
  remove(png);
  free(png);
  remove_rules(rules);
}

Test(image, palette_names_colours) {
  char *pal = temp_file("tilesat-pictures 1\n# a palette: 1x1 pictures\n"
                        "size 1 1\npicture B #000000\npicture W #FFFFFF\n",
                        -1);
  run_result r = RUN("extract", CHESS, "--palette", pal);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "tile W 32\ntile B 32\n"), "%s", r.out);
  cr_expect(strstr(r.out, "allow W E B\n"));
  run_free(&r);
  remove(pal);
  free(pal);
}

/* An image built here: 2x2-pixel tiles, checking identity by content. */
Test(image, tile_size_cuts_identical_blocks_into_one_tile) {
  tilesat_image *img = tilesat_image_new(6, 2);
  /* blocks: A (red/green mix), B (all blue), A again */
  static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255},
                       blue[4] = {0, 0, 255, 255};
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 6; x++) {
      const uint8_t *c = (x / 2 == 1) ? blue : ((x + y) % 2 ? green : red);
      memcpy(img->rgba + (y * 6 + x) * 4, c, 4);
    }
  char *png = temp_path(".png");
  tilesat_error err;
  cr_assert_eq(tilesat_image_write_png(img, png, &err), 0, "%s", err.msg);
  tilesat_image_free(img);
  char *pics = temp_path(".pictures");
  run_result r =
      RUN("extract", png, "--tile-size", "2", "--pictures", pics, "-o", "-");
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "tile t0 2\ntile #0000ff 1\n"), "%s", r.out);
  cr_expect(strstr(r.out, "allow t0 E #0000ff\n"), "%s", r.out);
  cr_expect(strstr(r.out, "allow #0000ff E t0\n"), "%s", r.out);
  run_free(&r);
  char *text = slurp(pics);
  cr_expect_str_eq(text, "tilesat-pictures 1\nsize 2 2\noverlap 0\n"
                         "picture t0 #ff0000 #00ff00 #00ff00 #ff0000\n"
                         "picture #0000ff #0000ff #0000ff #0000ff #0000ff\n");
  free(text);
  /* sides that are not multiples of the tile size */
  char msg[512];
  snprintf(msg, sizeof msg,
           "tilesat: %s: image of 6x2 pixels does not divide into 4x4 "
           "tiles\n",
           png);
  expect_cli_error(msg, "extract", png, "--tile-size", "4");
  /* a file that is not there is not there, whatever the options (it was
   * "--tile-size and --palette are for image samples") */
  expect_cli_error("tilesat: tests/data/no-such-level.png: cannot open: No "
                   "such file or directory\n",
                   "extract", "--tile-size", "16",
                   "tests/data/no-such-level.png");
  remove(pics);
  remove(png);
  free(pics);
  free(png);
}

/* ------------------------------------------------------------- patterns */

/* Do patterns a and b (N x N RGBA) agree when b is shifted by (dx, dy)? */
static bool overlap_agrees(const uint8_t *a, const uint8_t *b, int n, int dx,
                           int dy) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      int bx = x - dx, by = y - dy;
      if (bx < 0 || by < 0 || bx >= n || by >= n)
        continue;
      if (memcmp(a + 4 * (y * n + x), b + 4 * (by * n + bx), 4))
        return false;
    }
  return true;
}

Test(image, overlapping_model_rules_are_exactly_the_agreeing_pairs) {
  tilesat_error err;
  tilesat_image *img = tilesat_image_read_png(MAZE, &err);
  cr_assert(img, "%s", err.msg);
  const tilesat_image *imgs[1] = {img};
  for (int sym = 1; sym <= 8; sym += 7) {
    tilesat_pictures *pics;
    tilesat_rules *r =
        tilesat_extract_patterns(imgs, 1, 2, true, sym, &pics, &err);
    cr_assert(r, "%s", err.msg);
    int T = tilesat_rules_ntiles(r);
    uint64_t total = 0;
    for (int t = 0; t < T; t++)
      total += tilesat_rules_weight(r, t);
    /* every window of the wrapped 4x4 sample, times the symmetry */
    cr_expect_eq(total, (uint64_t)(16 * sym));
    cr_expect_eq(tilesat_pictures_overlap(pics), 2);
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int a = 0; a < T; a++)
      for (int d = 0; d < 4; d++)
        for (int b = 0; b < T; b++) {
          const uint8_t *pa =
              tilesat_pictures_get(pics, tilesat_rules_tile_name(r, a));
          const uint8_t *pb =
              tilesat_pictures_get(pics, tilesat_rules_tile_name(r, b));
          cr_assert(pa && pb);
          cr_expect_eq(tilesat_rules_allows(r, a, d, b),
                       overlap_agrees(pa, pb, 2, dx[d], dy[d]));
        }
    tilesat_pictures_free(pics);
    tilesat_rules_free(r);
  }
  tilesat_image_free(img);
}

Test(image, chess_patterns_render_back_to_the_checkerboard) {
  char *rules = temp_path(".rules");
  run_result r = RUN("extract", "--pattern", "2", "--symmetry", "1",
                     "--periodic-input", CHESS, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  char *text = slurp(rules);
  /* two 2x2 windows, 32 each */
  cr_expect(strstr(text, "tile p0 32\ntile p1 32\n"), "%s", text);
  cr_expect(strstr(text, "allow p0 E p1\n"), "%s", text);
  free(text);
  char *png = temp_path(".png");
  /* the rules' pictures (X.pictures) are found beside them */
  r = RUN("check", rules, "--size", "8x6", "--periodic", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert_eq(w, 8); /* wrapping: one pixel per cell */
  cr_assert_eq(h, 6);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      cr_expect(!memcmp(pixel_at(px, w, x, y), pixel_at(px, w, 0, 0), 3) ==
                ((x + y) % 2 == 0));
  free(px);
  run_free(&r);
  /* not wrapping: N-1 more pixels each way */
  r = RUN("check", rules, "--size", "5x3", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  px = decode_png(png, &w, &h);
  cr_expect_eq(w, 6);
  cr_expect_eq(h, 4);
  free(px);
  run_free(&r);
  remove(png);
  free(png);
  remove_rules(rules);
}

/* -------------------------------------------------------- render (API) */

Test(image, render_blends_domains_and_highlights_cells) {
  tilesat_rules *r = rules_from_text("tilesat-rules 1\ntile #ff0000\n"
                                     "tile #0000ff\nallow #ff0000 E #0000ff\n"
                                     "allow #0000ff W #ff0000\n");
  tilesat_map *m = map_new(r, 2, 1, TILESAT_SQUARE, false);
  uint64_t domains[2] = {3, 2}; /* {red, blue}, {blue} */
  tilesat_image *img = tilesat_render(m, NULL, NULL, domains, NULL);
  cr_assert_eq(img->width, 2);
  cr_expect(pixel_is(img->rgba, "#800080")); /* (255+0+1)/2 = 128 */
  cr_expect(pixel_is(img->rgba + 4, "#0000ff"));
  tilesat_image_free(img);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  /* blends weigh tiles by their weights: 3 red, 1 blue */
  r = rules_from_text("tilesat-rules 1\ntile #ff0000 3\n"
                      "tile #0000ff 1\nallow #ff0000 E #0000ff\n"
                      "allow #0000ff W #ff0000\n");
  m = map_new(r, 2, 1, TILESAT_SQUARE, false);
  img = tilesat_render(m, NULL, NULL, domains, NULL);
  cr_expect(pixel_is(img->rgba, "#bf0040")); /* (765+2)/4, (255+2)/4 */
  tilesat_image_free(img);
  /* pictures of 4x4: a frame on highlighted cells */
  tilesat_pictures *pics = tilesat_pictures_new(4, 4, 0);
  uint8_t white[64];
  memset(white, 255, sizeof white);
  tilesat_pictures_set(pics, "#ff0000", white);
  bool hl[2] = {false, true};
  int tiles[2] = {0, 1};
  img = tilesat_render(m, pics, tiles, NULL, hl);
  cr_assert_eq(img->width, 8);
  cr_assert_eq(img->height, 4);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++) {
      const uint8_t *p = pixel_at(img->rgba, 8, x, y);
      bool frame = x >= 4 && (x == 4 || x == 7 || y == 0 || y == 3);
      const char *want = x < 4 ? "#ffffff" : frame ? "#ff0000" : "#0000ff";
      cr_expect(pixel_is(p, want), "pixel %d,%d", x, y);
    }
  tilesat_image_free(img);
  tilesat_pictures_free(pics);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(image, hex_maps_shift_odd_rows_by_half_a_cell) {
  tilesat_rules *r =
      rules_from_text("tilesat-rules 1\ntopology hex\ntile #ff0000\n"
                      "allow #ff0000 E #ff0000\nallow #ff0000 W #ff0000\n"
                      "allow #ff0000 SE #ff0000\nallow #ff0000 NW #ff0000\n"
                      "allow #ff0000 SW #ff0000\nallow #ff0000 NE #ff0000\n");
  tilesat_map *m = map_new(r, 2, 2, TILESAT_HEX, false);
  int tiles[4] = {0, 0, 0, 0};
  tilesat_image *img = tilesat_render(m, NULL, tiles, NULL, NULL);
  cr_assert_eq(img->width, 2 * 8 + 4);
  cr_assert_eq(img->height, 2 * 8);
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 20; x++) {
      bool inside = y < 8 ? x < 16 : x >= 4;
      const uint8_t *p = pixel_at(img->rgba, 20, x, y);
      if (inside)
        cr_expect(pixel_is(p, "#ff0000"), "%d,%d", x, y);
      else
        cr_expect_eq(p[3], 0, "%d,%d transparent", x, y);
    }
  tilesat_image_free(img);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The smallest RGB distance between two of r's tile colours. */
static double closest_colours(const tilesat_rules *r) {
  int T = tilesat_rules_ntiles(r);
  double best = 1e9;
  for (int i = 0; i < T; i++)
    for (int j = i + 1; j < T; j++) {
      uint8_t a[4], b[4];
      tilesat_tile_colour(r, i, a);
      tilesat_tile_colour(r, j, b);
      cr_expect_eq(a[3], 255);
      double d = 0;
      for (int k = 0; k < 3; k++)
        d += (double)(a[k] - b[k]) * (a[k] - b[k]);
      best = sqrt(d) < best ? sqrt(d) : best;
    }
  return best;
}

/* Colours came from a hash of the name: coast's C and S were both red
 * (#d9634c and #df4e5d, 27.7 apart), dungeon8 had two tiles 3 apart and
 * patchwork16 two 5 apart.  Now a palette in tile
 * order: distinct at a glance, the same in every run. */
Test(image, text_tiles_get_well_separated_colours) {
  const char *files[] = {"rules/coast.rules", "rules/hard.rules",
                         "rules/dungeon8.rules", "rules/patchwork16.rules"};
  const double least[] = {80, 80, 60, 45};
  for (int f = 0; f < 4; f++) {
    tilesat_rules *r = rules_from_file(files[f]);
    double got = closest_colours(r);
    cr_expect_geq(got, least[f], "%s: two tiles %.1f apart", files[f], got);
    tilesat_rules_free(r);
  }
  /* a tile named by a colour is drawn in it */
  tilesat_rules *r = rules_from_text("tilesat-rules 1\ntile #123456 1\n"
                                     "tile sea 1\nallow sea E sea\n"
                                     "allow sea W sea\n");
  uint8_t c[4];
  tilesat_tile_colour(r, 0, c);
  cr_expect(!memcmp(c, "\x12\x34\x56\xff", 4));
  tilesat_rules_free(r);
}

Test(image, text_tiles_are_drawn_in_their_colours) {
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  char *png = temp_path(".png");
  run_result r =
      RUN("check", "rules/coast.rules", "--size", "3x2", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = grid_of_output(r.out + 4);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert_eq(w, 3 * 8);
  cr_assert_eq(h, 2 * 8);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t c[4];
      tilesat_tile_colour(
          coast,
          tilesat_rules_find_tile(coast, tilesat_grid_at(g, y / 8, x / 8)), c);
      cr_expect(!memcmp(pixel_at(px, w, x, y), c, 4));
    }
  free(px);
  tilesat_grid_free(g);
  tilesat_rules_free(coast);
  run_free(&r);
  remove(png);
  free(png);
}

/* ------------------------------------------------------------ bad input */

Test(image, malformed_pngs_are_errors_naming_the_file) {
  char *whole = slurp(CHESS);
  /* Chess.png is 106 bytes: cut it inside the image data */
  char *cut = temp_file(whole, 60);
  char garbage[64] = "\x89PNG\r\n\x1a\n";
  for (int i = 8; i < 64; i++)
    garbage[i] = (char)(i * 37);
  char *junk = temp_file(garbage, sizeof garbage);
  char *sig = temp_file(whole, 8);
  char *notpng = temp_path(".png");
  FILE *f = fopen(notpng, "w");
  fputs("LL\nLL\n", f);
  fclose(f);
  const char *files[] = {cut, junk, sig, notpng};
  for (int i = 0; i < 4; i++) {
    run_result r = RUN("extract", files[i]);
    cr_expect_eq(r.code, 1, "%s: exit %d", files[i], r.code);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "tilesat: %s: ", files[i]);
    cr_expect_eq(strncmp(r.err, prefix, strlen(prefix)), 0, "%s", r.err);
    cr_expect_str_eq(r.out, "");
    run_free(&r);
  }
  run_result r = RUN("extract", notpng);
  cr_expect(strstr(r.err, "not a PNG file"), "%s", r.err);
  run_free(&r);
  for (int i = 0; i < 4; i++) {
    remove(files[i]);
    free((char *)files[i]);
  }
  free(whole);
}

/* Pictures files read like rules and energy files (core/reader.c): the
 * same header errors, '#' lines are comments (even one that starts with a
 * colour or holds an open quote), errors at FILE:LINE. */
static void expect_pictures_error(const char *text, const char *want) {
  tilesat_error err;
  tilesat_pictures *p =
      tilesat_pictures_parse(text, strlen(text), "p.pictures", &err);
  cr_expect_null(p, "%s", text);
  if (!p)
    cr_expect_str_eq(err.msg, want);
  tilesat_pictures_free(p);
}

Test(image, pictures_files_read_like_the_other_formats) {
  expect_pictures_error("size 1 1\n",
                        "p.pictures:1: not a pictures file: the first line "
                        "must be 'tilesat-pictures 1'");
  expect_pictures_error("tilesat-pictures 2\n",
                        "p.pictures:1: pictures format version 2 is not "
                        "supported (this tilesat reads version 1)");
  expect_pictures_error("", "p.pictures: empty pictures file");
  expect_pictures_error("tilesat-pictures 1\nsize 1 1\n",
                        "p.pictures: no pictures");
  expect_pictures_error("tilesat-pictures 1\nsize 1 1\n\npicture L #fffffg\n",
                        "p.pictures:4: '#fffffg' is not a colour (#rrggbb or "
                        "#rrggbbaa)");
  expect_pictures_error("tilesat-pictures 1\nsize 0 1\n",
                        "p.pictures:2: expected 'size WIDTH HEIGHT' (1 to "
                        "4096)");
  const char *text = "# made by hand\ntilesat-pictures 1\nsize 1 1\n"
                     "#ffffff is white\n  # \"open quote\npicture L #ffffff\n";
  tilesat_error err;
  tilesat_pictures *p =
      tilesat_pictures_parse(text, strlen(text), "p.pictures", &err);
  cr_assert(p, "%s", err.msg);
  cr_expect_eq(tilesat_pictures_count(p), 1);
  const uint8_t *px = tilesat_pictures_get(p, "L");
  cr_expect(px && px[0] == 255 && px[3] == 255);
  tilesat_pictures_free(p);
}

/* ----------------------------------------- pictures several tiles share */

/* Castle's rules with pictures of one pixel: each tile its own colour, but
 * the four rotations of the symmetric tower one colour (as the tileset's
 * tower image looks the same turned); DIR/castle.rules and its pictures. */
static void castle_shared(const char *dir, char *rules, size_t size) {
  snprintf(rules, size, "%s/castle.rules", dir);
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  tilesat_rules *castle = rules_from_file(rules);
  char path[4200];
  snprintf(path, sizeof path, "%s/castle.pictures", dir);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs("tilesat-pictures 1\nsize 1 1\noverlap 0\n", f);
  for (int t = 0; t < tilesat_rules_ntiles(castle); t++) {
    const char *name = tilesat_rules_tile_name(castle, t);
    bool tower = !strncmp(name, "tower ", 6);
    fprintf(f, "picture \"%s\" #%02x%02x40\n", name, tower ? 0xff : 8 * t,
            tower ? 0 : 255 - 8 * t);
  }
  fclose(f);
  tilesat_rules_free(castle);
}

/* A PNG of one pixel a cell, coloured by castle.pictures' colours. */
static void castle_png(const char *rules, const char *const *cells, int w,
                       int h, const char *png) {
  tilesat_rules *castle = rules_from_file(rules);
  tilesat_image *img = tilesat_image_new(w, h);
  for (int c = 0; c < w * h; c++) {
    int t = tilesat_rules_find_tile(castle, cells[c]);
    cr_assert_geq(t, 0, "%s", cells[c]);
    uint8_t *px = img->rgba + 4 * c;
    bool tower = !strncmp(cells[c], "tower ", 6);
    px[0] = (uint8_t)(tower ? 0xff : 8 * t);
    px[1] = (uint8_t)(tower ? 0 : 255 - 8 * t);
    px[2] = 0x40;
    px[3] = 255;
  }
  tilesat_error err;
  cr_assert_eq(tilesat_image_write_png(img, png, &err), 0, "%s", err.msg);
  tilesat_image_free(img);
  tilesat_rules_free(castle);
}

/* The tile names of a name grid's lines (tilesat-grid names), in order. */
static int grid_names(const char *text, char names[][32], int max) {
  tilesat_grid *g = grid_of_output(text);
  int w = tilesat_grid_width(g), n = w * tilesat_grid_height(g);
  cr_assert_leq(n, max);
  for (int c = 0; c < n; c++)
    snprintf(names[c], 32, "%s", tilesat_grid_at(g, c / w, c % w));
  tilesat_grid_free(g);
  return n;
}

/* Found by the bad-input audit (issue 20): a collapsed Castle map drawn
 * with --png and read back was INVALID (verify) and UNSAT (--pins-from),
 * though its text map is VALID: reading the picture picked "tower 0" for
 * every tower.  A cell whose picture several tiles share is now "one of
 * them": VALID when some choice keeps the rules, held to them by
 * --pins-from. */
Test(image, a_picture_several_tiles_share_is_any_of_them) {
  char *dir = temp_dir(), rules[4200], png[4200], txt[4200];
  castle_shared(dir, rules, sizeof rules);
  snprintf(png, sizeof png, "%s/c.png", dir);
  snprintf(txt, sizeof txt, "%s/c.txt", dir);
  run_result r =
      RUN("collapse", rules, "--size", "8x8", "--seed", "3", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  char map[64][32];
  int n = grid_names(r.out + 4, map, 64), towers = 0, turned = 0;
  for (int c = 0; c < n; c++) {
    towers += !strncmp(map[c], "tower ", 6);
    turned += !strncmp(map[c], "tower ", 6) && strcmp(map[c], "tower 0");
  }
  cr_assert_gt(turned, 0, "a tower other than \"tower 0\": %s", r.out);
  FILE *f = fopen(txt, "w");
  fputs(r.out + 4, f);
  fclose(f);
  run_free(&r);
  /* the text map and its picture: VALID alike */
  r = RUN("verify", rules, txt);
  cr_expect_eq(r.code, 10, "%s", r.out);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  char want[512];
  snprintf(want, sizeof want,
           "VALID\n%d cells show a picture several tiles share, read as any "
           "of them: a choice among them keeps the rules\n",
           towers);
  r = RUN("verify", rules, png);
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  cr_expect_str_eq(r.out, want);
  run_free(&r);
  /* --pins-from: every other cell pinned as drawn, a tower cell one of the
   * towers */
  r = RUN("check", rules, "--size", "8x8", "--pins-from", png);
  cr_expect_eq(r.code, 10, "%s", r.err);
  if (r.code == 10) {
    char got[64][32];
    cr_assert_eq(grid_names(r.out + 4, got, 64), n);
    for (int c = 0; c < n; c++)
      if (strncmp(map[c], "tower ", 6))
        cr_expect_str_eq(got[c], map[c], "cell %d", c);
      else
        cr_expect(!strncmp(got[c], "tower ", 6), "cell %d: %s", c, got[c]);
  }
  run_free(&r);
  /* explain takes no bans: said in the terms of --pins-from */
  char msg[4600];
  snprintf(msg, sizeof msg,
           "tilesat: --pins-from: %s: %d cells show a picture several tiles "
           "share, held to them by bans, which explain does not take: give "
           "the map as a text grid\n",
           png, towers);
  expect_cli_error(msg, "explain", rules, "--size", "8x8", "--pins-from", png);
  /* every choice breaking a global constraint: said so */
  snprintf(want, sizeof want,
           "INVALID: no choice among the tiles that share a picture keeps "
           "the constraints (%d cells show such a picture)\n",
           towers);
  r = RUN("verify", rules, png, "--count", "tower 0,tower 1,tower 2,tower 3=0");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, want);
  run_free(&r);
  rm_dir(dir);
}

static void every_line(void) { setenv("TILESAT_PROGRESS", "all", 1); }

/* A designer's pass: verify of Castle 1024x1024 drawn as a PNG ran the
 * whole map's solver (stderr "loading 11127488 clauses into picosat" ~28
 * times, no answer in 180 s) to choose among the tiles that share a
 * picture.  The rules are a local check: no solver, no progress line
 * (every line shown); only global constraints take one SAT check, said
 * first. */
Test(image, verify_chooses_shared_pictures_without_the_solver) {
  char *dir = temp_dir(), rules[4200], png[4200];
  castle_shared(dir, rules, sizeof rules);
  snprintf(png, sizeof png, "%s/c.png", dir);
  run_result r =
      RUN("collapse", rules, "--size", "8x8", "--seed", "3", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  int towers = 0;
  for (const char *p = r.out; (p = strstr(p, "tower ")); p++)
    towers++;
  run_free(&r);
  const char *plain[] = {"verify", rules, png, NULL};
  r = run_cli_with(plain, 0, 0, every_line);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.err, "");
  run_free(&r);
  const char *held[] = {
      "verify", rules, png, "--count", "tower 0,tower 1,tower 2,tower 3=0",
      NULL};
  r = run_cli_with(held, 0, 0, every_line);
  cr_expect_eq(r.code, 20, "%s", r.err);
  char want[256];
  snprintf(want, sizeof want,
           "tilesat: verify: %d cells of shared pictures against the "
           "constraints: one SAT check of the whole 8x8 map (0 s)\n",
           towers);
  cr_expect(!strncmp(r.err, want, strlen(want)), "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* A tower between two grounds: some tower fits west of the ground and some
 * east of it, none both (the text maps say so for each); and two towers
 * side by side, which no two towers make. */
Test(image, a_picture_several_tiles_share_with_no_choice) {
  char *dir = temp_dir(), rules[4200], png[4200], txt[4200];
  castle_shared(dir, rules, sizeof rules);
  snprintf(png, sizeof png, "%s/m.png", dir);
  snprintf(txt, sizeof txt, "%s/m.txt", dir);
  bool west = false, east = false;
  for (int k = 0; k < 4; k++) {
    FILE *f = fopen(txt, "w");
    fprintf(f, "tilesat-grid names\n\"ground 0\" \"tower %d\" \"ground 0\"\n",
            k);
    fclose(f);
    run_result r = RUN("verify", rules, txt);
    cr_expect_eq(r.code, 20, "tower %d: %s", k, r.out);
    cr_expect(strstr(r.out, "INVALID: 1 pair of"), "tower %d: %s", k, r.out);
    west |= !!strstr(r.out, "(0,1)");
    east |= !!strstr(r.out, "(0,0)");
    run_free(&r);
  }
  cr_assert(west && east, "each side breaks for some tower");
  castle_png(rules, (const char *const[]){"ground 0", "tower 2", "ground 0"}, 3,
             1, png);
  run_result r = RUN("verify", rules, png);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "INVALID: no choice among the tiles that share a "
                          "picture keeps the rules (1 cell shows such a "
                          "picture)\n");
  run_free(&r);
  r = RUN("check", rules, "--size", "3x1", "--pins-from", png);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  castle_png(rules, (const char *const[]){"tower 0", "tower 1"}, 2, 1, png);
  r = RUN("verify", rules, png);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(
      r.out, "INVALID: 1 pair of neighbouring cells breaks the rules\n"
             "(0,0) one of \"tower 0\", \"tower 1\", \"tower 2\", \"tower 3\" "
             "and its east neighbour (0,1) one of \"tower 0\", \"tower 1\", "
             "\"tower 2\", \"tower 3\": no allowed pair\n");
  run_free(&r);
  rm_dir(dir);
}

/* Found by the bad-input audit (issue 20): verify of a file named .png
 * that is not a PNG leaked 16 bytes (samples.c, inputs_of); run under
 * ASan with detect_leaks=1, a leak fails the exit code. */
Test(image, verify_of_a_non_png_named_png_says_so_and_leaks_nothing) {
  char *notpng = temp_path(".png");
  FILE *f = fopen(notpng, "w");
  fputs("LL\nLL\n", f);
  fclose(f);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s: not a PNG file (no PNG signature)\n", notpng);
  expect_cli_error(want, "verify", "rules/coast.rules", notpng);
  remove(notpng);
  free(notpng);
}

/* A PNG whose chunk claims more bytes than the file holds (a fuzzer's
 * find: a 76-byte file whose tEXt chunk claims 1.9 GB, which libpng
 * allocated before reading) is refused by name, the chunk and where. */
Test(image, a_chunk_longer_than_the_file_is_refused) {
  static const unsigned char png[] = {
      0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
      /* IHDR: 2x2, 8-bit RGBA */
      0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0, 0,
      0, 0, 0,
      /* a tEXt chunk claiming 0x74455874 bytes, then the file ends */
      0x74, 0x45, 0x58, 0x74, 't', 'E', 'X', 't', 'k', 0, 'v', 0, 0, 0, 0, 0, 0,
      0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
  char *path = temp_file((const char *)png, (long)sizeof png);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s: bad PNG: its chunk 'tEXt' at byte 33 runs past the "
           "end of the file (cut short or damaged)\n",
           path);
  expect_cli_error(want, "extract", path, "--tile-size", "1");
  free(path);
}
