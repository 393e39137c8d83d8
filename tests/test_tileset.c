/* WFC simple-tiled tilesets: oriented tile counts, symmetric rules, the
 * reference's rotations checked against the tile images, weights, subsets,
 * and malformed XML. */
#include "helpers.h"
#include "png_helpers.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define TILESETS "tests/data/wfc/tilesets/"

static tilesat_rules *import(const char *name, const char *subset,
                             tilesat_pictures **pics) {
  char path[256];
  snprintf(path, sizeof path, TILESETS "%s.xml", name);
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(path, subset, pics, &err);
  cr_assert(r, "%s", err.msg);
  return r;
}

Test(tileset, oriented_tile_counts_and_symmetric_rules) {
  const char *names[] = {"Knots", "Castle", "Rooms", "Circuit"};
  const int counts[] = {13, 29, 28, 40};
  for (int i = 0; i < 4; i++) {
    tilesat_rules *r = import(names[i], NULL, NULL);
    int T = tilesat_rules_ntiles(r);
    cr_expect_eq(T, counts[i], "%s: %d tiles", names[i], T);
    int E = tilesat_dir_find(TILESAT_SQUARE, "E"),
        W = tilesat_dir_find(TILESAT_SQUARE, "W"),
        N = tilesat_dir_find(TILESAT_SQUARE, "N"),
        S = tilesat_dir_find(TILESAT_SQUARE, "S");
    int pairs = 0;
    for (int a = 0; a < T; a++)
      for (int b = 0; b < T; b++) {
        cr_expect_eq(tilesat_rules_allows(r, a, E, b),
                     tilesat_rules_allows(r, b, W, a));
        cr_expect_eq(tilesat_rules_allows(r, a, S, b),
                     tilesat_rules_allows(r, b, N, a));
        pairs += tilesat_rules_allows(r, a, E, b);
      }
    cr_expect(pairs > 0);
    /* the rules reader (which rejects asymmetric rules) reads them back */
    char *path = temp_file("", 0);
    FILE *f = fopen(path, "w");
    tilesat_rules_write(r, f);
    fclose(f);
    tilesat_error err;
    tilesat_rules *back = tilesat_rules_read_file(path, &err);
    cr_assert(back, "%s", err.msg);
    cr_expect_eq(tilesat_rules_ntiles(back), T);
    for (int a = 0; a < T; a++)
      for (int d = 0; d < 4; d++)
        for (int b = 0; b < T; b++)
          cr_expect_eq(tilesat_rules_allows(back, a, d, b),
                       tilesat_rules_allows(r, a, d, b));
    tilesat_rules_free(back);
    remove(path);
    free(path);
    tilesat_rules_free(r);
  }
}

/* Knots and Rooms are drawn so that declared neighbours continue each
 * other's lines: every allowed pair must agree on the touching edge pixels.
 * That checks the symmetry tables, the image rotations and our direction
 * mapping all at once (any one wrong breaks many pairs). */
Test(tileset, allowed_neighbours_match_at_their_edges) {
  const char *names[] = {"Knots", "Rooms"};
  for (int i = 0; i < 2; i++) {
    tilesat_pictures *pics;
    tilesat_rules *r = import(names[i], NULL, &pics);
    int s = tilesat_pictures_width(pics), T = tilesat_rules_ntiles(r);
    cr_assert_eq(tilesat_pictures_count(pics), T);
    int checked = 0;
    for (int a = 0; a < T; a++)
      for (int d = 0; d < 4; d++)
        for (int b = 0; b < T; b++) {
          if (!tilesat_rules_allows(r, a, d, b))
            continue;
          const uint8_t *pa =
              tilesat_pictures_get(pics, tilesat_rules_tile_name(r, a));
          const uint8_t *pb =
              tilesat_pictures_get(pics, tilesat_rules_tile_name(r, b));
          const char *dn = tilesat_dir_name(TILESAT_SQUARE, d);
          for (int k = 0; k < s; k++) {
            int ax, ay, bx, by; /* a's edge pixel k and b's facing one */
            if (!strcmp(dn, "E"))
              ax = s - 1, ay = k, bx = 0, by = k;
            else if (!strcmp(dn, "W"))
              ax = 0, ay = k, bx = s - 1, by = k;
            else if (!strcmp(dn, "S"))
              ax = k, ay = s - 1, bx = k, by = 0;
            else
              ax = k, ay = 0, bx = k, by = s - 1;
            cr_expect(
                !memcmp(pa + 4 * (ay * s + ax), pb + 4 * (by * s + bx), 4),
                "%s: '%s' %s '%s' edge pixel %d", names[i],
                tilesat_rules_tile_name(r, b), dn,
                tilesat_rules_tile_name(r, a), k);
          }
          checked++;
        }
    cr_expect(checked > 100);
    tilesat_pictures_free(pics);
    tilesat_rules_free(r);
  }
}

Test(tileset, declared_pairs_weights_and_subsets) {
  tilesat_rules *r = import("Knots", NULL, NULL);
  int E = tilesat_dir_find(TILESAT_SQUARE, "E");
  /* <neighbor left="corner 1" right="empty"/> */
  int c1 = tilesat_rules_find_tile(r, "corner 1"),
      e0 = tilesat_rules_find_tile(r, "empty 0");
  cr_assert(c1 >= 0 && e0 >= 0);
  cr_expect(tilesat_rules_allows(r, c1, E, e0));
  /* X: one orientation; I: two; L and T: four */
  cr_expect_eq(tilesat_rules_find_tile(r, "empty 1"), -1);
  cr_expect(tilesat_rules_find_tile(r, "line 1") >= 0);
  cr_expect_eq(tilesat_rules_find_tile(r, "line 2"), -1);
  cr_expect(tilesat_rules_find_tile(r, "t 3") >= 0);
  tilesat_rules_free(r);
  /* Rooms weights 0.5 0.5 1.0 0.5 (1) 2.0 0.5 0.25 (1): x100, / 25 */
  r = import("Rooms", NULL, NULL);
  const char *tiles[] = {"bend 0", "corner 3", "corridor 1",
                         "door 0", "empty 0",  "side 2",
                         "t 0",    "turn 1",   "wall 0"};
  const uint64_t weights[] = {2, 2, 4, 2, 4, 8, 2, 1, 4};
  for (int i = 0; i < 9; i++) {
    int t = tilesat_rules_find_tile(r, tiles[i]);
    cr_assert(t >= 0, "%s", tiles[i]);
    cr_expect_eq(tilesat_rules_weight(r, t), weights[i], "%s", tiles[i]);
  }
  tilesat_rules_free(r);
  /* Knots "Standard": corner, cross, empty, line */
  r = import("Knots", "Standard", NULL);
  cr_expect_eq(tilesat_rules_ntiles(r), 4 + 2 + 1 + 2);
  cr_expect_eq(tilesat_rules_find_tile(r, "t 0"), -1);
  tilesat_rules_free(r);
  r = import("Knots", "Dense Fabric", NULL);
  cr_expect_eq(tilesat_rules_ntiles(r), 2);
  tilesat_rules_free(r);
}

Test(tileset, cli_import_writes_rules_and_pictures) {
  char *rules = temp_path(".rules"), *png = temp_path(".png");
  run_result r = RUN("import-tileset", TILESETS "Knots.xml", "--subset",
                     "Standard", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  char *text = slurp(rules);
  cr_expect(strstr(text, "tile \"corner 0\" 1\n"), "%s", text);
  free(text);
  r = RUN("check", rules, "--size", "5x4", "--periodic", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(r.out + 4, strlen(r.out + 4), "w", &err);
  cr_assert(g, "%s", err.msg);
  /* the picture of each cell is its oriented tile's image */
  char pics_path[512];
  snprintf(pics_path, sizeof pics_path, "%.*s.pictures",
           (int)(strlen(rules) - strlen(".rules")), rules);
  tilesat_pictures *pics = tilesat_pictures_read_file(pics_path, &err);
  cr_assert(pics, "%s", err.msg);
  int w, h, s = tilesat_pictures_width(pics);
  uint8_t *px = decode_png(png, &w, &h);
  cr_assert_eq(w, 5 * s);
  cr_assert_eq(h, 4 * s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *want =
          tilesat_pictures_get(pics, tilesat_grid_at(g, y / s, x / s));
      cr_assert(want);
      cr_expect(
          !memcmp(pixel_at(px, w, x, y), want + 4 * ((y % s) * s + x % s), 4));
    }
  free(px);
  tilesat_pictures_free(pics);
  tilesat_grid_free(g);
  run_free(&r);
  remove(pics_path);
  remove(rules);
  remove(png);
  free(rules);
  free(png);
}

/* Castle.xml alone, copied to a folder without its images: the rules come
 * without pictures, with a warning, unless pictures were asked for. */
Test(tileset, missing_images_only_cost_the_pictures) {
  char *rules = temp_path(".rules"), *pics = temp_path(".pictures");
  char *dir = temp_dir(), xml[4200], want[4300];
  snprintf(xml, sizeof xml, "%s/Castle.xml", dir);
  char *text = slurp(TILESETS "Castle.xml");
  cr_assert(text);
  FILE *f = fopen(xml, "wb");
  cr_assert(f, "%s", xml);
  fputs(text, f);
  fclose(f);
  free(text);
  run_result r = RUN("import-tileset", xml, "-o", rules);
  cr_expect_eq(r.code, 0, "%s", r.err);
  snprintf(want, sizeof want,
           "tilesat: warning: no pictures written: %s/Castle/bridge.png: "
           "cannot open",
           dir);
  cr_expect(strstr(r.err, want), "%s", r.err);
  run_free(&r);
  text = slurp(rules);
  cr_expect(strstr(text, "tile \"wallroad 1\" 1\n"), "%s", text);
  free(text);
  r = RUN("import-tileset", xml, "--pictures", pics);
  cr_expect_eq(r.code, 1);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  remove(rules);
  remove(pics);
  remove(xml);
  rmdir(dir);
  free(dir);
  free(rules);
  free(pics);
}

Test(tileset, malformed_tilesets_are_errors_naming_the_file) {
  char *whole = slurp(TILESETS "Knots.xml");
  char *cut = temp_file(whole, (long)strlen(whole) / 2);
  char *garbage = temp_file("\x01\x02 not xml at all <<<", -1);
  char *unknown = temp_file("<set><tiles><tile name=\"a\"/></tiles>\n"
                            "<neighbors>\n<neighbor left=\"a\" right=\"b\"/>"
                            "</neighbors></set>\n",
                            -1);
  /* the number is one of the 8 actions, for every class (I too) */
  char *orient = temp_file("<set><tiles><tile name=\"a\" symmetry=\"I\"/>"
                           "</tiles>\n<neighbors><neighbor left=\"a 8\" "
                           "right=\"a\"/></neighbors></set>\n",
                           -1);
  char *negative = temp_file("<set><tiles><tile name=\"a\"/></tiles>\n"
                             "<neighbors><neighbor left=\"a\" right=\"a -1\"/>"
                             "</neighbors></set>\n",
                             -1);
  char *notnum = temp_file("<set><tiles><tile name=\"a\" symmetry=\"F\"/>"
                           "</tiles>\n<neighbors><neighbor left=\"a 1x\" "
                           "right=\"a\"/></neighbors></set>\n",
                           -1);
  char *words = temp_file("<set><tiles><tile name=\"a\"/></tiles>\n"
                          "<neighbors><neighbor left=\"a\" right=\"a 1 2\"/>"
                          "</neighbors></set>\n",
                          -1);
  char *blank = temp_file("<set><tiles><tile name=\"a\"/></tiles>\n"
                          "<neighbors><neighbor left=\" \" right=\"a\"/>"
                          "</neighbors></set>\n",
                          -1);
  char *notset = temp_file("<map/>\n", -1);
  char *other = temp_file("<sets/>\n", -1);
  char *badsym = temp_file("<set><tiles>\n<tile name=\"a\" symmetry=\"Q\"/>"
                           "</tiles></set>\n",
                           -1);
  char *badweight = temp_file("<set><tiles>\n<tile name=\"a\" weight=\"-1\"/>"
                              "</tiles></set>\n",
                              -1);
  struct {
    const char *path, *msg;
  } cases[] = {
      {cut, "bad XML: "},
      {garbage, ":1: bad XML: "},
      {unknown, ":3: unknown tile 'b' (the only tile is 'a')"},
      {orient, ":2: tile 'a 8': the number after a tile's name is one of "
               "the square's 8 turns and reflections, 0 to 7\n"},
      {negative, ":2: tile 'a -1': the number after a tile's name"},
      {notnum, ":2: tile 'a 1x': the number after a tile's name"},
      {words, ":2: right='a 1 2' is not a tile's name and at most one "
              "number\n"},
      {blank, ":2: left=' ' is not a tile's name and at most one number\n"},
      {notset, ":1: a Tiled map, not a WFC simple-tiled tileset: 'tilesat "
               "extract "},
      {other, ":1: not a WFC tileset: root element <sets>, expected <set>"},
      {badsym, ":2: tile 'a': symmetry 'Q' is not one of L T I \\ F X"},
      {badweight, ":2: tile 'a': weight '-1' is not a positive decimal"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    expect_cli_file_error(cases[i].path, cases[i].msg, "import-tileset",
                          cases[i].path);
    remove(cases[i].path);
    free((char *)cases[i].path);
  }
  expect_cli_error("tilesat: " TILESETS "Knots.xml: no subset named 'Nope'\n",
                   "import-tileset", TILESETS "Knots.xml", "--subset", "Nope");
  free(whole);
}

/* The classes no bundled tileset uses (F and \), and unique="True" sets,
 * whose every orientation has its own image "NAME K.png". */
Test(tileset, f_and_backslash_classes_and_unique_images) {
  char *dir = temp_dir();
  char path[300], sub[300];
  snprintf(path, sizeof path, "%s/U.xml", dir);
  snprintf(sub, sizeof sub, "%s/U", dir);
  cr_assert_eq(mkdir(sub, 0700), 0);
  FILE *f = fopen(path, "w");
  fputs("<set unique=\"True\">\n <tiles>\n"
        "  <tile name=\"f\" symmetry=\"F\" weight=\"0.5\"/>\n"
        "  <tile name=\"d\" symmetry=\"\\\"/>\n </tiles>\n"
        " <neighbors>\n  <neighbor left=\"f 5\" right=\"d 1\"/>\n"
        " </neighbors>\n</set>\n",
        f);
  fclose(f);
  const char *names[] = {"f 0", "f 1", "f 2", "f 3", "f 4",
                         "f 5", "f 6", "f 7", "d 0", "d 1"};
  tilesat_error err;
  for (int i = 0; i < 10; i++) {
    tilesat_image *img = tilesat_image_new(2, 2);
    for (int k = 0; k < 4; k++) {
      img->rgba[4 * k] = (uint8_t)(20 * i);
      img->rgba[4 * k + 1] = (uint8_t)k;
      img->rgba[4 * k + 3] = 255;
    }
    char png[512];
    snprintf(png, sizeof png, "%s/%s.png", sub, names[i]);
    cr_assert_eq(tilesat_image_write_png(img, png, &err), 0, "%s", err.msg);
    tilesat_image_free(img);
  }
  tilesat_pictures *pics;
  tilesat_rules *r = tilesat_import_tileset(path, NULL, &pics, &err);
  cr_assert(r, "%s", err.msg);
  cr_expect_eq(tilesat_rules_ntiles(r), 10);
  int T = tilesat_rules_ntiles(r);
  for (int t = 0; t < T; t++) {
    cr_expect_str_eq(tilesat_rules_tile_name(r, t), names[t]);
    const uint8_t *p = tilesat_pictures_get(pics, names[t]);
    cr_assert(p);
    cr_expect_eq(p[0], 20 * t); /* its own image, not a rotation */
    cr_expect_eq(tilesat_rules_weight(r, t), t < 8 ? 1u : 2u);
  }
  int E = tilesat_dir_find(TILESAT_SQUARE, "E"),
      W = tilesat_dir_find(TILESAT_SQUARE, "W");
  cr_expect(tilesat_rules_allows(r, 5, E, 9));
  cr_expect(tilesat_rules_allows(r, 9, W, 5));
  int pairs = 0;
  for (int a = 0; a < T; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < T; b++) {
        int o = tilesat_dir_opposite(TILESAT_SQUARE, d);
        cr_expect_eq(tilesat_rules_allows(r, a, d, b),
                     tilesat_rules_allows(r, b, o, a));
        pairs += tilesat_rules_allows(r, a, d, b);
      }
  /* the 8 symmetries of the square map the declared pair to 4 horizontal
   * and 4 vertical pairs; an F tile has 8 distinct orientations, so all 8
   * differ, and each is allowed seen from both sides: 16 */
  cr_expect_eq(pairs, 16);
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
  for (int i = 0; i < 10; i++) {
    char png[512];
    snprintf(png, sizeof png, "%s/%s.png", sub, names[i]);
    remove(png);
  }
  remove(path);
  rmdir(sub);
  rmdir(dir);
  free(dir);
}

/* Decimal weights become whole numbers by one power of ten for all: a
 * weight of 10^17 beside one of 10^-9 made 10^26, which wrapped in 64 bits
 * (15908979783594147840 to 1); now refused, naming both.  Trailing zeros
 * do not count ("0.100000000" is 0.1), so 10^17 beside 0.100000000 is
 * exactly 10^18 to 1. */
Test(tileset, weights_too_far_apart_are_refused_not_wrapped) {
  char *far = temp_file("<set><tiles>\n"
                        "<tile name=\"a\" weight=\"100000000000000000\"/>\n"
                        "<tile name=\"b\" weight=\"0.000000001\"/>\n"
                        "</tiles></set>\n",
                        -1);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "tilesat: %s: weights 100000000000000000 (tile 'a 0') and "
           "0.000000001 (tile 'b 0') are too far apart: as whole numbers in "
           "the same ratio, the larger would pass 2^64-1\n",
           far);
  expect_cli_error(msg, "import-tileset", far);
  char *fits = temp_file("<set><tiles>\n"
                         "<tile name=\"a\" weight=\"100000000000000000\"/>\n"
                         "<tile name=\"b\" weight=\"0.100000000\"/>\n"
                         "<tile name=\"c\" weight=\"0.3\"/>\n"
                         "</tiles></set>\n",
                         -1);
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(fits, NULL, NULL, &err);
  cr_assert(r, "%s", err.msg);
  /* 10^17 : 0.1 : 0.3 in least whole numbers */
  cr_expect_eq(tilesat_rules_weight(r, tilesat_rules_find_tile(r, "a 0")),
               1000000000000000000ull);
  cr_expect_eq(tilesat_rules_weight(r, tilesat_rules_find_tile(r, "b 0")), 1);
  cr_expect_eq(tilesat_rules_weight(r, tilesat_rules_find_tile(r, "c 0")), 3);
  tilesat_rules_free(r);
  free(far);
  free(fits);
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static void png_chunk(FILE *f, const char *type, const uint8_t *data,
                      uint32_t len) {
  uint8_t head[8];
  put32(head, len);
  memcpy(head + 4, type, 4);
  uLong crc = crc32(crc32(0L, Z_NULL, 0), head + 4, 4);
  crc = crc32(crc, data, len);
  uint8_t tail[4];
  put32(tail, (uint32_t)crc);
  fwrite(head, 1, 8, f);
  fwrite(data, 1, len, f);
  fwrite(tail, 1, 4, f);
}

/* A black square PNG of side x side pixels, 1 bit a pixel (small and
 * quick to write however large). */
static void write_black_png(const char *path, uint32_t side) {
  size_t row = 1 + (side + 7) / 8, n = row * side;
  uint8_t *raw = calloc(n, 1);
  uLongf zn = compressBound((uLong)n);
  uint8_t *z = malloc(zn);
  cr_assert_eq(compress(z, &zn, raw, (uLong)n), Z_OK);
  uint8_t ihdr[13] = {0};
  put32(ihdr, side);
  put32(ihdr + 4, side);
  ihdr[8] = 1; /* bit depth 1, colour type 0 (grey) */
  FILE *f = fopen(path, "wb");
  cr_assert(f);
  fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
  png_chunk(f, "IHDR", ihdr, 13);
  png_chunk(f, "IDAT", z, (uint32_t)zn);
  png_chunk(f, "IEND", (const uint8_t *)"", 0);
  fclose(f);
  free(raw);
  free(z);
}

/* A tile image larger than a pictures file holds (4096 pixels a side):
 * import wrote 134 MB of pictures for a 4100x4100 tile that every command
 * then refused ("expected 'size WIDTH HEIGHT' (1 to 4096)"); now the
 * rules are written without pictures, as for a missing image, and the
 * warning says why. */
Test(tileset, tile_images_past_the_pictures_limit_write_no_pictures) {
  char *dir = temp_dir(), path[4300], want[4600];
  snprintf(path, sizeof path, "%s/B", dir);
  cr_assert_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/B/a.png", dir);
  write_black_png(path, 4097);
  snprintf(path, sizeof path, "%s/B.xml", dir);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs("<set><tiles><tile name=\"a\" symmetry=\"X\"/></tiles>"
        "<neighbors><neighbor left=\"a\" right=\"a\"/></neighbors></set>\n",
        f);
  fclose(f);
  char rules[4300], pics[4300];
  snprintf(rules, sizeof rules, "%s/b.rules", dir);
  snprintf(pics, sizeof pics, "%s/b.pictures", dir);
  run_result r = RUN("import-tileset", path, "-o", rules);
  cr_expect_eq(r.code, 0, "%s", r.err);
  snprintf(want, sizeof want,
           "tilesat: warning: no pictures written: %s/B/a.png: tile image of "
           "4097x4097 pixels: larger than a pictures file holds (at most "
           "4096 pixels a side)\ntilesat: wrote %s/b.rules\n",
           dir, dir);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  cr_expect_neq(access(pics, F_OK), 0, "%s was written", pics);
  r = RUN("check", rules, "--size", "2x1");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "SAT\ntilesat-grid names\n\"a 0\" \"a 0\"\n");
  run_free(&r);
  snprintf(path, sizeof path, "%s/B/a.png", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/B", dir);
  rmdir(path);
  rm_dir(dir);
}

/* The reference's symmetry classes, written here from SimpleTiledModel.cs
 * (independently of src/io/tileset.c): a turns a tile's orientation by 90
 * degrees, b reflects it; orientation t's action row is t, a t, a a t,
 * a a a t, b t, b a t, b a a t, b a a a t. */
static const char ref_classes[] = "XI\\TLF";
static int ref_card(char sym) {
  return strchr("TL", sym) ? 4 : strchr("I\\", sym) ? 2 : sym == 'F' ? 8 : 1;
}
static int ref_a(char sym, int i) {
  if (sym == 'L' || sym == 'T')
    return (i + 1) % 4;
  if (sym == 'I' || sym == '\\')
    return 1 - i;
  if (sym == 'F')
    return i < 4 ? (i + 1) % 4 : 4 + (i - 1) % 4;
  return i;
}
static int ref_b(char sym, int i) {
  if (sym == 'L')
    return i % 2 == 0 ? i + 1 : i - 1;
  if (sym == 'T')
    return i % 2 == 0 ? i : 4 - i;
  if (sym == '\\')
    return 1 - i;
  if (sym == 'F')
    return i < 4 ? i + 4 : i - 4;
  return i; /* I and X */
}
static int ref_action(char sym, int t, int k) {
  for (int i = 0; i < k % 4; i++)
    t = ref_a(sym, t);
  return k < 4 ? t : ref_b(sym, t);
}

/* A tileset of one tile per class (named by the class: x, i, d, t, l, f)
 * and its oriented tiles in the reference's order: oriented tile o is
 * class ref_cls[o], orientation ref_or[o]. */
#define REF_MAX 21
typedef struct ref_set {
  int n, cls[REF_MAX], orient[REF_MAX], first[6];
  bool allow[4][REF_MAX][REF_MAX]; /* the reference's densePropagator */
} ref_set;
static const char *const ref_names[] = {"x", "i", "d", "t", "l", "f"};

static void ref_init(ref_set *s) {
  memset(s, 0, sizeof *s);
  for (int c = 0; c < 6; c++) {
    s->first[c] = s->n;
    for (int t = 0; t < ref_card(ref_classes[c]); t++, s->n++) {
      s->cls[s->n] = c;
      s->orient[s->n] = t;
    }
  }
}
/* The reference's action[o][k], as an oriented tile. */
static int ref_act(const ref_set *s, int o, int k) {
  int c = s->cls[o];
  return s->first[c] + ref_action(ref_classes[c], s->orient[o], k);
}
/* <neighbor left="ref_names[lc] lk" right="ref_names[rc] rk"/>, expanded
 * as the reference expands it. */
static void ref_neighbor(ref_set *s, int lc, int lk, int rc, int rk) {
  int L = ref_act(s, s->first[lc], lk), R = ref_act(s, s->first[rc], rk);
  int D = ref_act(s, L, 1), U = ref_act(s, R, 1);
  s->allow[0][R][L] = true;
  s->allow[0][ref_act(s, R, 6)][ref_act(s, L, 6)] = true;
  s->allow[0][ref_act(s, L, 4)][ref_act(s, R, 4)] = true;
  s->allow[0][ref_act(s, L, 2)][ref_act(s, R, 2)] = true;
  s->allow[1][U][D] = true;
  s->allow[1][ref_act(s, D, 6)][ref_act(s, U, 6)] = true;
  s->allow[1][ref_act(s, U, 4)][ref_act(s, D, 4)] = true;
  s->allow[1][ref_act(s, D, 2)][ref_act(s, U, 2)] = true;
}
/* The rules equal the reference's: the same oriented tiles, and t2 allowed
 * in WFC direction d of t1 (0 left, 1 down, 2 right, 3 up) exactly when
 * the reference's propagator allows it. */
static void expect_reference_rules(const tilesat_rules *r, ref_set *s,
                                   const char *what) {
  const char *dirs[] = {"W", "S", "E", "N"};
  for (int t1 = 0; t1 < s->n; t1++)
    for (int t2 = 0; t2 < s->n; t2++) {
      s->allow[2][t2][t1] = s->allow[0][t1][t2];
      s->allow[3][t2][t1] = s->allow[1][t1][t2];
    }
  cr_assert_eq(tilesat_rules_ntiles(r), s->n, "%s", what);
  int idx[REF_MAX];
  for (int o = 0; o < s->n; o++) {
    char name[16];
    snprintf(name, sizeof name, "%s %d", ref_names[s->cls[o]], s->orient[o]);
    idx[o] = tilesat_rules_find_tile(r, name);
    cr_assert(idx[o] >= 0, "%s: no tile '%s'", what, name);
  }
  for (int d = 0; d < 4; d++) {
    int dir = tilesat_dir_find(TILESAT_SQUARE, dirs[d]);
    for (int t1 = 0; t1 < s->n; t1++)
      for (int t2 = 0; t2 < s->n; t2++)
        cr_expect_eq(tilesat_rules_allows(r, idx[t1], dir, idx[t2]),
                     s->allow[d][t1][t2], "%s: '%s %d' %s of '%s %d'", what,
                     ref_names[s->cls[t2]], s->orient[t2], dirs[d],
                     ref_names[s->cls[t1]], s->orient[t1]);
  }
}

/* The number after a tile's name in <neighbor> is the reference's action
 * K (0-7) on the tile, for every class: "b_i 3" (I) is b_i turned three
 * times, orientation 1.  For each class and each K, a tileset of one tile
 * of every class with that tile numbered K on the left, on the right, and
 * on both sides (against the F tile, whose 8 orientations all differ, and
 * itself) imports to exactly the rules the reference's definition gives. */
Test(tileset, neighbour_numbers_are_the_references_actions) {
  char *dir = temp_dir(), path[300];
  snprintf(path, sizeof path, "%s/set.xml", dir);
  int checked = 0;
  for (int c = 0; c < 6; c++)
    for (int k = 0; k < 8; k++) {
      const char *p = ref_names[c];
      FILE *f = fopen(path, "w");
      cr_assert(f);
      fputs("<set>\n <tiles>\n", f);
      for (int i = 0; i < 6; i++)
        fprintf(f, "  <tile name=\"%s\" symmetry=\"%c\"/>\n", ref_names[i],
                ref_classes[i]);
      fprintf(f,
              " </tiles>\n <neighbors>\n"
              "  <neighbor left=\"%s %d\" right=\"f\"/>\n"
              "  <neighbor left=\"f 6\" right=\"%s %d\"/>\n"
              "  <neighbor left=\"%s  %d\" right=\"%s %d\"/>\n"
              " </neighbors>\n</set>\n",
              p, k, p, k, p, k, p, 7 - k);
      fclose(f);
      ref_set s;
      ref_init(&s);
      ref_neighbor(&s, c, k, 5, 0);
      ref_neighbor(&s, 5, 6, c, k);
      ref_neighbor(&s, c, k, c, 7 - k);
      tilesat_error err;
      tilesat_rules *r = tilesat_import_tileset(path, NULL, NULL, &err);
      cr_assert(r, "class %c, K %d: %s", ref_classes[c], k, err.msg);
      char what[64];
      snprintf(what, sizeof what, "class %c, K %d", ref_classes[c], k);
      expect_reference_rules(r, &s, what);
      tilesat_rules_free(r);
      checked++;
    }
  cr_expect_eq(checked, 48);
  rm_dir(dir);
}

/* mxgmn's Circles.xml says <neighbor left="b_half 3" right="b_i 3"/>: b_i
 * (symmetry I) turned three times is b_i 1, so the tileset imports, to the
 * same rules file as the one written with "b_i 1", and not the one with
 * "b_i 0" (the number matters). */
Test(tileset, circles_b_i_3_is_b_i_1) {
  char *dir = temp_dir();
  char xml[3][300], out[3][300];
  const char *num[] = {"3", "1", "0"};
  for (int i = 0; i < 3; i++) {
    snprintf(xml[i], sizeof xml[i], "%s/c%d.xml", dir, i);
    snprintf(out[i], sizeof out[i], "%s/c%d.rules", dir, i);
    FILE *f = fopen(xml[i], "w");
    cr_assert(f);
    fprintf(f,
            "<set>\n <tiles>\n"
            "  <tile name=\"b_half\" symmetry=\"T\"/>\n"
            "  <tile name=\"b_i\" symmetry=\"I\"/>\n"
            "  <tile name=\"b\" symmetry=\"X\"/>\n </tiles>\n"
            " <neighbors>\n"
            "  <neighbor left=\"b_half 3\" right=\"b_i %s\"/>\n"
            "  <neighbor left=\"b_i\" right=\"b_i\"/>\n"
            "  <neighbor left=\"b\" right=\"b_half 1\"/>\n"
            " </neighbors>\n</set>\n",
            num[i]);
    fclose(f);
    run_result r = RUN("import-tileset", xml[i], "-o", out[i]);
    cr_assert_eq(r.code, 0, "b_i %s: %s", num[i], r.err);
    cr_expect_str_eq(r.out, "");
    run_free(&r);
  }
  char *with3 = slurp(out[0]), *with1 = slurp(out[1]), *with0 = slurp(out[2]);
  cr_assert(with3 && with1 && with0);
  cr_expect(strstr(with3, "tile \"b_i 1\" 1\n"), "%s", with3);
  cr_expect_str_eq(with3, with1);
  cr_expect_str_neq(with3, with0);
  free(with3);
  free(with1);
  free(with0);
  rm_dir(dir);
}

/* A tile's name of any length: with --subset, a <neighbor> of a 300-byte
 * name was looked up cut to 255 bytes, found outside the subset and
 * dropped without a word, leaving the tile with no neighbours. */
Test(tileset, long_names_keep_their_pairs_in_a_subset) {
  char name[301];
  memset(name, 'n', 300);
  name[300] = 0;
  char xml[2000];
  snprintf(xml, sizeof xml,
           "<set>\n <tiles><tile name=\"%s\"/><tile name=\"b\"/></tiles>\n"
           " <neighbors><neighbor left=\"%s\" right=\"%s 0\"/></neighbors>\n"
           " <subsets><subset name=\"s\"><tile name=\"%s\"/></subset>"
           "</subsets>\n</set>\n",
           name, name, name, name);
  char *path = temp_file(xml, -1);
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(path, "s", NULL, &err);
  cr_assert(r, "%s", err.msg);
  cr_assert_eq(tilesat_rules_ntiles(r), 1);
  for (int d = 0; d < 4; d++)
    cr_expect(tilesat_rules_allows(r, 0, d, 0), "direction %s",
              tilesat_dir_name(TILESAT_SQUARE, d));
  tilesat_rules_free(r);
  remove(path);
  free(path);
}
