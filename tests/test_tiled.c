/* Tiled maps: every storage form reads to the same sample, empty cells and
 * flips, layers, written maps read back, malformed files. */
#include "helpers.h"
#include "png_helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DATA "tests/data/"

/* The fixtures' layer: gid 0 empty, 0x80000000 flip h, 0x20000000 flip d. */
static const char *const want[3][4] = {
    {"1", "2", "2", "1"}, {"3", "0", "0", "3:h"}, {"1", "2", "3:hd", "1"}};

static tilesat_grid *read_tiled(const char *path, const char *layer,
                                tilesat_empty empty) {
  tilesat_error err;
  tilesat_grid *g = tilesat_tiled_read(path, layer, empty, &err);
  cr_assert(g, "%s", err.msg);
  return g;
}

Test(tiled, every_storage_form_reads_to_the_same_sample) {
  const char *files[] = {"tiled-csv.tmx",   "tiled-base64.tmx",
                         "tiled-zlib.tmx",  "tiled-gzip.tmx",
                         "tiled-array.tmj", "tiled-zlib.tmj"};
  for (int i = 0; i < 6; i++) {
    char path[128];
    snprintf(path, sizeof path, DATA "%s", files[i]);
    tilesat_grid *g = read_tiled(path, NULL, TILESAT_EMPTY_TILE);
    cr_assert_eq(tilesat_grid_width(g), 4, "%s", files[i]);
    cr_assert_eq(tilesat_grid_height(g), 3, "%s", files[i]);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 4; c++)
        cr_expect_str_eq(tilesat_grid_at(g, r, c), want[r][c], "%s %d,%d",
                         files[i], r, c);
    tilesat_grid_free(g);
  }
  /* and the CLI extracts the same rules from each (recognised by content) */
  run_result first = RUN("extract", DATA "tiled-csv.tmx");
  cr_assert_eq(first.code, 0, "%s", first.err);
  cr_expect(strstr(first.out, "tile 0 2\n"), "%s", first.out);
  cr_expect(strstr(first.out, "allow 3 E 0\n"), "%s", first.out);
  for (int i = 1; i < 6; i++) {
    char path[128];
    snprintf(path, sizeof path, DATA "%s", files[i]);
    run_result r = RUN("extract", path);
    cr_expect_eq(r.code, 0, "%s", r.err);
    cr_expect_str_eq(r.out, first.out, "%s", files[i]);
    run_free(&r);
  }
  run_free(&first);
}

Test(tiled, empty_cells_excluded_and_other_layers) {
  tilesat_grid *g =
      read_tiled(DATA "tiled-zlib.tmx", NULL, TILESAT_EMPTY_EXCLUDE);
  cr_expect_null(tilesat_grid_at(g, 1, 1));
  cr_expect_null(tilesat_grid_at(g, 1, 2));
  cr_expect_str_eq(tilesat_grid_at(g, 1, 3), "3:h");
  const tilesat_grid *gs[1] = {g};
  tilesat_error err;
  tilesat_rules *r = tilesat_extract(gs, 1, TILESAT_SQUARE, false, &err);
  cr_assert(r, "%s", err.msg);
  cr_expect_eq(tilesat_rules_find_tile(r, "0"), -1);
  cr_expect_eq(tilesat_rules_ntiles(r), 5); /* 1 2 3 3:h 3:hd */
  int t3 = tilesat_rules_find_tile(r, "3"),
      t2 = tilesat_rules_find_tile(r, "2");
  int E = tilesat_dir_find(TILESAT_SQUARE, "E"),
      S = tilesat_dir_find(TILESAT_SQUARE, "S");
  /* 3 is followed by an empty cell to the east: no pair at all */
  for (int b = 0; b < 5; b++)
    cr_expect(!tilesat_rules_allows(r, t3, E, b));
  /* the 2 above the empty cell has no S pair either */
  cr_expect(!tilesat_rules_allows(r, t2, S, t2));
  cr_expect_eq(tilesat_rules_weight(r, t2), 3);
  tilesat_rules_free(r);
  tilesat_grid_free(g);
  run_result cli = RUN("extract", "--empty", "exclude", DATA "tiled-array.tmj");
  cr_expect_eq(cli.code, 0, "%s", cli.err);
  cr_expect(!strstr(cli.out, "tile 0 "), "%s", cli.out);
  run_free(&cli);
  /* --layer */
  g = read_tiled(DATA "tiled-csv.tmx", "other", TILESAT_EMPTY_TILE);
  for (int row = 0; row < 3; row++)
    for (int c = 0; c < 4; c++)
      cr_expect_str_eq(tilesat_grid_at(g, row, c), "5");
  tilesat_grid_free(g);
  g = read_tiled(DATA "tiled-array.tmj", "ground", TILESAT_EMPTY_TILE);
  cr_expect_str_eq(tilesat_grid_at(g, 2, 2), "3:hd");
  tilesat_grid_free(g);
  expect_cli_error("tilesat: " DATA "tiled-csv.tmx: no tile layer named "
                   "'sky'\n",
                   "extract", "--layer", "sky", DATA "tiled-csv.tmx");
}

/* A witness written as a Tiled map reads back to the same grid. */
static void round_trip(const char *rules, const char *size, const char *opt,
                       const char *suffix, const char *topology) {
  char *out = temp_path(suffix);
  run_result r = topology ? RUN("check", rules, "--size", size, opt, out,
                                "--topology", topology)
                          : RUN("check", rules, "--size", size, opt, out);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_error err;
  tilesat_grid *want_g =
      tilesat_grid_parse(r.out + 4, strlen(r.out + 4), "witness", &err);
  cr_assert(want_g, "%s", err.msg);
  tilesat_grid *g = read_tiled(out, NULL, TILESAT_EMPTY_TILE);
  cr_assert_eq(tilesat_grid_width(g), tilesat_grid_width(want_g));
  cr_assert_eq(tilesat_grid_height(g), tilesat_grid_height(want_g));
  for (int y = 0; y < tilesat_grid_height(g); y++)
    for (int x = 0; x < tilesat_grid_width(g); x++)
      cr_expect_str_eq(tilesat_grid_at(g, y, x), tilesat_grid_at(want_g, y, x),
                       "%s %d,%d", out, y, x);
  /* the tileset image is written beside the map */
  char png[512];
  snprintf(png, sizeof png, "%.*s-tiles.png",
           (int)(strlen(out) - strlen(suffix)), out);
  int w, h;
  uint8_t *px = decode_png(png, &w, &h);
  cr_expect(w >= 8 && h >= 8);
  free(px);
  char *text = slurp(out);
  const char *base = strrchr(png, '/') + 1;
  cr_expect(strstr(text, base), "the map names its tileset image %s", base);
  free(text);
  remove(png);
  tilesat_grid_free(g);
  tilesat_grid_free(want_g);
  run_free(&r);
  remove(out);
  free(out);
}

Test(tiled, written_maps_read_back_to_the_same_grid) {
  char *rules = temp_path(".rules");
  run_result r =
      RUN("import-tileset", DATA "wfc/tilesets/Knots.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  round_trip(rules, "6x5", "--tmx", ".tmx", NULL);
  round_trip(rules, "6x5", "--tmj", ".tmj", NULL);
  round_trip("rules/coast.rules", "5x4", "--tmx", ".tmx", NULL);
  round_trip("rules/coast-hex.rules", "4x4", "--tmj", ".tmj", "hex");
  char pics[512];
  snprintf(pics, sizeof pics, "%.*s.pictures",
           (int)(strlen(rules) - strlen(".rules")), rules);
  remove(pics);
  remove(rules);
  free(rules);
}

Test(tiled, malformed_maps_are_errors_naming_the_file) {
  char *whole = slurp(DATA "tiled-zlib.tmx");
  char *cut = temp_file(whole, (long)strlen(whole) / 2);
  char *json = slurp(DATA "tiled-array.tmj");
  char *cutjson = temp_path(".tmj");
  FILE *f = fopen(cutjson, "w");
  fwrite(json, 1, strlen(json) / 2, f);
  fclose(f);
  char *garbage = temp_path(".tmx");
  f = fopen(garbage, "w");
  fputs("\x01garbage\x02", f);
  fclose(f);
  char *badb64 = temp_file(
      "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">\n"
      "<data encoding=\"base64\">@@@@</data></layer></map>\n",
      -1);
  char *badzlib = temp_file(
      "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">\n"
      "<data encoding=\"base64\" compression=\"zlib\">AAAAAAAAAAA=</data>"
      "</layer></map>\n",
      -1);
  char *short_csv = temp_file(
      "<map width=\"2\" height=\"2\"><layer width=\"2\" height=\"2\">\n"
      "<data encoding=\"csv\">1,2,3</data></layer></map>\n",
      -1);
  char *bad_csv = temp_file(
      "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">\n"
      "<data encoding=\"csv\">1,x</data></layer></map>\n",
      -1);
  char *nolayer = temp_file("{\"layers\": []}\n", -1);
  char *baddata = temp_file("{\"layers\": [{\"type\": \"tilelayer\", "
                            "\"width\": 2, \"height\": 1, \"data\": [1, "
                            "-4]}]}\n",
                            -1);
  struct {
    const char *path, *msg;
  } cases[] = {
      {cut, "bad XML: "},
      {cutjson, "bad JSON"},
      {garbage, "not a Tiled map (neither XML nor JSON)"},
      {badb64, ":2: bad base64 data"},
      {badzlib, ":2: bad compressed data"},
      {short_csv, ":2: fewer tiles than the layer's width x height"},
      {bad_csv, ":2: bad CSV data"},
      {nolayer, ": no tile layer"},
      {baddata, ": tile data must be whole numbers"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    /* .tmx/.tmj by name, the rest by content */
    expect_cli_file_error(cases[i].path, cases[i].msg, "extract",
                          cases[i].path);
    remove(cases[i].path);
    free((char *)cases[i].path);
  }
  free(whole);
  free(json);
}

/* A JSON gid of 2^32 (tests/fuzz/corpus/tmj/huge-gid) was refused as "tile
 * data must be whole numbers", which it is: the message gives the range. */
Test(tiled, json_gid_out_of_range_says_the_range) {
  char *big = temp_file("{\"layers\": [{\"type\": \"tilelayer\", "
                        "\"width\": 2, \"height\": 1, \"data\": [1, "
                        "4294967296]}]}\n",
                        -1);
  char msg[512];
  snprintf(msg, sizeof msg,
           "tilesat: %s: tile data must be whole numbers from 0 to "
           "4294967295\n",
           big);
  expect_cli_error(msg, "extract", big);
  remove(big);
  free(big);
}

/* Rules from a Tiled sample, answers written with that sample's tilesets. */
Test(tiled, written_with_the_samples_tilesets) {
  char *rules = temp_path(".rules"), *tmx = temp_path(".tmx"),
       *tmj = temp_path(".tmj");
  run_result r = RUN("extract", DATA "tiled-gzip.tmx", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("check", rules, "--size", "5x3", "--tmx", tmx, "--tmj", tmj,
          "--tilesets-from", DATA "tiled-csv.tmx");
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_error err;
  tilesat_grid *want_g =
      tilesat_grid_parse(r.out + 4, strlen(r.out + 4), "witness", &err);
  cr_assert(want_g, "%s", err.msg);
  const char *outs[2] = {tmx, tmj};
  for (int i = 0; i < 2; i++) {
    tilesat_grid *g = read_tiled(outs[i], NULL, TILESAT_EMPTY_TILE);
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 5; x++)
        cr_expect_str_eq(tilesat_grid_at(g, y, x),
                         tilesat_grid_at(want_g, y, x));
    tilesat_grid_free(g);
    /* the external tileset, re-pointed from /tmp to the sample's folder */
    char *text = slurp(outs[i]);
    cr_expect(strstr(text, "/tests/data/terrain.tsx\""), "%s", text);
    free(text);
  }
  tilesat_grid_free(want_g);
  run_free(&r);
  /* tiles named otherwise have no gid in those tilesets */
  r = RUN("check", "rules/coast.rules", "--size", "2x2", "--tmx", tmx,
          "--tilesets-from", DATA "tiled-csv.tmx");
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: " DATA "tiled-csv.tmx: tile '"), "%s",
            r.err);
  run_free(&r);
  /* a map tilesat wrote (embedded tileset, named tiles) as the model */
  r = RUN("check", "rules/coast.rules", "--size", "3x2", "--tmx", tmx);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *tmx2 = temp_path(".tmx");
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pin", "0,0=S",
          "--tmx", tmx2, "--tilesets-from", tmx);
  cr_assert_eq(r.code, 10, "%s", r.err);
  tilesat_grid *g = read_tiled(tmx2, NULL, TILESAT_EMPTY_TILE);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "S");
  tilesat_grid_free(g);
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--tmj", tmj,
          "--tilesets-from", tmx);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "an embedded tileset cannot be copied"), "%s", r.err);
  run_free(&r);
  char png[512];
  snprintf(png, sizeof png, "%.*s-tiles.png",
           (int)(strlen(tmx) - strlen(".tmx")), tmx);
  remove(png);
  const char *files[] = {rules, tmx, tmj, tmx2};
  for (int i = 0; i < 4; i++) {
    remove(files[i]);
    free((char *)files[i]);
  }
}

/* enum writes every map as a layer "map K" of one Tiled map, in order. */
Test(tiled, enum_writes_a_layer_per_map) {
  char *tmx = temp_path(".tmx"), *tmj = temp_path(".tmj");
  run_result r = RUN("enum", "rules/coast.rules", "--size", "2x2", "--tmx", tmx,
                     "--tmj", tmj);
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_assert(strstr(r.out, "maps: 10\n"), "%s", r.out);
  const char *p = r.out;
  for (int k = 1; k <= 10; k++) {
    /* the k-th printed map: two rows of two characters */
    char layer[16];
    snprintf(layer, sizeof layer, "map %d", k);
    const char *outs[2] = {tmx, tmj};
    for (int i = 0; i < 2; i++) {
      tilesat_grid *g = read_tiled(outs[i], layer, TILESAT_EMPTY_TILE);
      for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) {
          char want_name[2] = {p[y * 3 + x], 0};
          cr_expect_str_eq(tilesat_grid_at(g, y, x), want_name, "%s %s",
                           outs[i], layer);
        }
      tilesat_grid_free(g);
    }
    p += 7; /* "XY\nXY\n\n" */
  }
  cr_expect_str_eq(p, "maps: 10\n");
  run_free(&r);
  const char *files[] = {tmx, tmj};
  for (int i = 0; i < 2; i++) {
    char png[512];
    snprintf(png, sizeof png, "%.*s-tiles.png",
             (int)(strlen(files[i]) - strlen(".tmx")), files[i]);
    remove(png);
    remove(files[i]);
    free((char *)files[i]);
  }
}

/* Found by the bad-input audit (issue 20): a hexagonal Tiled map whose
 * even rows are shifted (staggerindex "even"), or staggered along x, was
 * read as tilesat's odd-r map, whose cells have other neighbours: verify
 * said VALID.  Refused, with one message for verify, check --pins-from
 * and extract. */
Test(tiled, hex_maps_staggered_otherwise_are_refused) {
  char *dir = temp_dir(), tmx[4200], tmj[4200], even[4200], flat[4200];
  snprintf(tmx, sizeof tmx, "%s/h.tmx", dir);
  snprintf(tmj, sizeof tmj, "%s/h.tmj", dir);
  snprintf(even, sizeof even, "%s/even.tmx", dir);
  snprintf(flat, sizeof flat, "%s/flat.tmj", dir);
  run_result r = RUN("check", "rules/coast-hex.rules", "--size", "4x4", "--tmx",
                     tmx, "--tmj", tmj);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  /* as written: odd rows shifted, read back VALID */
  r = RUN("verify", "rules/coast-hex.rules", tmx);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *text = slurp(tmx), *at = strstr(text, "staggerindex=\"odd\"");
  cr_assert(at, "%s", text);
  FILE *f = fopen(even, "w");
  fprintf(f, "%.*sstaggerindex=\"even\"%s", (int)(at - text), text,
          at + strlen("staggerindex=\"odd\""));
  fclose(f);
  free(text);
  text = slurp(tmj);
  cJSON *root = cJSON_Parse(text);
  cr_assert(root);
  cJSON_ReplaceItemInObjectCaseSensitive(root, "staggeraxis",
                                         cJSON_CreateString("x"));
  char *printed = cJSON_Print(root);
  f = fopen(flat, "w");
  fputs(printed, f);
  fclose(f);
  free(printed);
  cJSON_Delete(root);
  free(text);
  char msg[8600];
  snprintf(msg, sizeof msg,
           "tilesat: %s:2: a hexagonal map whose even rows are shifted "
           "(staggerindex \"even\"): tilesat's hex maps shift their odd rows "
           "(staggeraxis \"y\", staggerindex \"odd\")\n",
           even);
  expect_cli_error(msg, "verify", "rules/coast-hex.rules", even);
  expect_cli_error(msg, "check", "rules/coast-hex.rules", "--size", "4x4",
                   "--pins-from", even);
  expect_cli_error(msg, "extract", even, "--topology", "hex");
  snprintf(msg, sizeof msg,
           "tilesat: %s: a hexagonal map staggered along x (flat-top): "
           "tilesat's hex maps are pointy-top, their odd rows shifted "
           "(staggeraxis \"y\", staggerindex \"odd\")\n",
           flat);
  expect_cli_error(msg, "verify", "rules/coast-hex.rules", flat);
  expect_cli_error(msg, "check", "rules/coast-hex.rules", "--size", "4x4",
                   "--pins-from", flat);
  rm_dir(dir);
}

/* tmx with the cells of `cells` (row-major indices, -1 ends) made empty
 * (gid 0) in its CSV layer, written to out. */
static void unpaint(const char *tmx, const int *cells, const char *out) {
  char *text = slurp(tmx), *data = strstr(text, "<data encoding=\"csv\">");
  cr_assert(data, "%s", text);
  FILE *f = fopen(out, "w");
  cr_assert(f);
  char *p = data + strlen("<data encoding=\"csv\">");
  fwrite(text, 1, (size_t)(p - text), f);
  for (int c = 0; *p != '<'; c++) {
    size_t digits = strspn(p + strspn(p, "\n"), "0123456789"),
           lead = strspn(p, "\n");
    bool empty = false;
    for (int i = 0; cells[i] >= 0; i++)
      empty |= cells[i] == c;
    fwrite(p, 1, lead, f);
    if (empty)
      fputc('0', f);
    else
      fwrite(p + lead, 1, digits, f);
    p += lead + digits;
    if (*p == ',')
      fputc(*p++, f);
  }
  fputs(p, f);
  fclose(f);
  free(text);
}

/* Issue 31: verify on a half-painted Tiled map said "(0,0) holds \"0\", a
 * tile the rules do not have" (exit 1): its empty cells were read as a
 * tile "0".  An empty cell makes the map incomplete: how many, the first,
 * exit 20; the painted cells' broken pairs are still listed. */
Test(tiled, verify_says_a_half_painted_map_is_incomplete) {
  char *dir = temp_dir(), tmx[4200], half[4200], one[4200], none[4200];
  snprintf(tmx, sizeof tmx, "%s/full.tmx", dir);
  snprintf(half, sizeof half, "%s/half.tmx", dir);
  snprintf(one, sizeof one, "%s/one.tmx", dir);
  snprintf(none, sizeof none, "%s/none.tmx", dir);
  /* a 5x3 coast map, land in the top right corner, sea bottom left */
  run_result r = RUN("check", "rules/coast.rules", "--size", "5x3", "--pin",
                     "0,4=L", "--pin", "2,0=S", "--tmx", tmx);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("verify", "rules/coast.rules", tmx);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  unpaint(tmx, (const int[]){7, 2, 14, -1}, half);
  r = RUN("verify", "rules/coast.rules", half);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "INVALID: the map is incomplete: 3 of its 15 cells "
                          "are empty, the first (0,2)\n");
  cr_expect_str_eq(r.err, "");
  run_free(&r);
  unpaint(tmx, (const int[]){5, -1}, one);
  r = RUN("verify", "rules/coast.rules", one);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "INVALID: the map is incomplete: 1 of its 15 cells "
                          "is empty: (1,0)\n");
  run_free(&r);
  int all[16];
  for (int c = 0; c < 15; c++)
    all[c] = c;
  all[15] = -1;
  unpaint(tmx, all, none);
  r = RUN("verify", "rules/coast.rules", none);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out,
                   "INVALID: the map is incomplete: all of its 15 cells are "
                   "empty\n");
  run_free(&r);
  /* a painted pair that breaks the rules is said too: the land pinned top
   * right beside the sea pinned bottom left, on a 2x1 map */
  char pair[4200], gap[4200];
  snprintf(pair, sizeof pair, "%s/pair.tmx", dir);
  snprintf(gap, sizeof gap, "%s/gap.tmx", dir);
  r = RUN("check", "rules/coast.rules", "--size", "3x1", "--pin", "0,0=L",
          "--pin", "0,2=L", "--tmx", pair);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *text = slurp(pair), *csv = strstr(text, "<data encoding=\"csv\">");
  cr_assert(csv, "%s", text);
  FILE *f = fopen(pair, "w");
  /* the L in (0,2) becomes S (gid of S: the third tile, 3) */
  char *comma = strrchr(csv, ',');
  cr_assert(comma);
  fprintf(f, "%.*s,3%s", (int)(comma - text), text,
          comma + 1 + strspn(comma + 1, "0123456789"));
  fclose(f);
  free(text);
  unpaint(pair, (const int[]){0, -1}, gap);
  r = RUN("verify", "rules/coast.rules", gap);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out,
                   "INVALID: the map is incomplete: 1 of its 3 cells is "
                   "empty: (0,0)\n"
                   "1 pair of neighbouring cells breaks the rules\n"
                   "(0,1) \"L\" and its east neighbour (0,2) \"S\": not an "
                   "allowed pair\n");
  run_free(&r);
  rm_dir(dir);
}
