/* Tiled maps: every storage form reads to the same sample, empty cells and
 * flips, layers, written maps read back, malformed files. */
#include "helpers.h"
#include "png_helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  snprintf(png, sizeof png, "%s.png", out);
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
      {baddata, ": gid -4 is out of range (0 to 4294967295)"},
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
 * data must be whole numbers", which it is: the message gives the range,
 * as CSV and XML say it (tiled/gids_read_alike_in_every_encoding). */
Test(tiled, json_gid_out_of_range_says_the_range) {
  char *big = temp_file("{\"layers\": [{\"type\": \"tilelayer\", "
                        "\"width\": 2, \"height\": 1, \"data\": [1, "
                        "4294967296]}]}\n",
                        -1);
  char msg[512];
  snprintf(msg, sizeof msg,
           "tilesat: %s: gid 4294967296 is out of range (0 to 4294967295)\n",
           big);
  expect_cli_error(msg, "extract", big);
  remove(big);
  free(big);
}

/* One tileset as Tiled 1.8.2 writes it (--export-tileset, as .tsx and as
 * .tsj, the seeds of tests/fuzz/corpus/tsx/tiled-coll-*): a string of two
 * lines is the <property>'s text in XML, with no value attribute, and
 * "value" in JSON.  The .tsx named that tile by its gid ("8"). */
Test(tiled, multi_line_property_names_the_tile_in_tsx_as_in_tsj) {
  char *dir = temp_dir();
  const char *tsx =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<tileset version=\"1.8\" tiledversion=\"1.8.2\" name=\"coll\" "
      "tilewidth=\"16\" tileheight=\"16\" tilecount=\"2\" columns=\"0\">\n"
      " <tile id=\"0\">\n  <properties>\n"
      "   <property name=\"tilesat\" value=\"a\"/>\n  </properties>\n"
      "  <image width=\"16\" height=\"16\" source=\"a.png\"/>\n </tile>\n"
      " <tile id=\"7\">\n  <properties>\n"
      "   <property name=\"tilesat\">two\nlines</property>\n"
      "  </properties>\n"
      "  <image width=\"16\" height=\"16\" source=\"b.png\"/>\n </tile>\n"
      "</tileset>\n";
  const char *tsj =
      "{ \"columns\":0,\n \"name\":\"coll\",\n \"tilecount\":2,\n"
      " \"tiles\":[\n  {\n   \"id\":0,\n   \"image\":\"a.png\",\n"
      "   \"properties\":[{\"name\":\"tilesat\", \"type\":\"string\", "
      "\"value\":\"a\"}]\n  },\n  {\n   \"id\":7,\n   \"image\":\"b.png\",\n"
      "   \"properties\":[{\"name\":\"tilesat\", \"type\":\"string\", "
      "\"value\":\"two\\nlines\"}]\n  }],\n \"type\":\"tileset\"\n}\n";
  const char *files[][2] = {{"coll.tsx", tsx}, {"coll.tsj", tsj}};
  for (int i = 0; i < 2; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(files[i][1], f);
    fclose(f);
    snprintf(path, sizeof path, "%s/map-%d.tmx", dir, i);
    f = fopen(path, "w");
    cr_assert(f);
    fprintf(f,
            "<map width=\"3\" height=\"1\">\n"
            " <tileset firstgid=\"1\" source=\"%s\"/>\n"
            " <layer width=\"3\" height=\"1\"><data encoding=\"csv\">"
            "1,8,2</data></layer>\n</map>\n",
            files[i][0]);
    fclose(f);
    tilesat_grid *g = read_tiled(path, NULL, TILESAT_EMPTY_TILE);
    cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "a", "%s", files[i][0]);
    cr_expect_str_eq(tilesat_grid_at(g, 0, 1), "two\nlines", "%s", files[i][0]);
    cr_expect_str_eq(tilesat_grid_at(g, 0, 2), "2", "%s", files[i][0]);
    tilesat_grid_free(g);
  }
  rm_dir(dir);
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
  snprintf(png, sizeof png, "%s.png", tmx);
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
    snprintf(png, sizeof png, "%s.png", files[i]);
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

/* ------------------------------------------------ numbers read in range */

/* A map of one tileset (its tile `id` named "a", firstgid `first`) and a
 * 2x1 layer of `data` (CSV), written in `dir` as NAME; the path. */
static char *tmx_with(const char *dir, const char *name, const char *first,
                      const char *id, const char *data) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<map version=\"1.10\" width=\"2\" height=\"1\" tilewidth=\"8\" "
          "tileheight=\"8\">\n"
          " <tileset firstgid=\"%s\" name=\"t\" tilewidth=\"8\" "
          "tileheight=\"8\">\n"
          "  <tile id=\"%s\">\n"
          "   <properties><property name=\"tilesat\" value=\"a\"/>"
          "</properties>\n"
          "  </tile>\n"
          " </tileset>\n"
          " <layer name=\"l\" width=\"2\" height=\"1\">\n"
          "  <data encoding=\"csv\">%s</data>\n"
          " </layer>\n"
          "</map>\n",
          first, id, data);
  fclose(f);
  return path;
}

static char *write_in(const char *dir, const char *name, const char *text) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs(text, f);
  fclose(f);
  return path;
}

/* A tile id of 2^63-1 made firstgid + id overflow (signed) and wrap to gid
 * 0, so the tile "a" named the empty cells and verify called an empty
 * layer VALID; firstgid and id are checked: first + id is at most 2^28-1
 * (the tile id bits of a gid), in .tmx, .tsx and .tmj alike. */
Test(tiled, tile_ids_past_a_gid_are_refused_not_wrapped) {
  char *dir = temp_dir(), msg[1024];
  char *rules = write_in(dir, "a.rules",
                         "tilesat-rules 1\ntile a 1\nallow a E a\n"
                         "allow a W a\n");
  char *huge = tmx_with(dir, "huge.tmx", "1", "9223372036854775807", "0,0");
  snprintf(msg, sizeof msg,
           "tilesat: %s:4: tile id 9223372036854775807 is out of range (0 "
           "to 268435454: with firstgid 1 its gid must be at most "
           "268435455, a gid's 28 bits of tile id)\n",
           huge);
  expect_cli_error(msg, "verify", rules, huge);
  expect_cli_error(msg, "extract", huge);
  /* the largest id that fits is read, and names its gid */
  char *edge =
      tmx_with(dir, "edge.tmx", "2", "268435453", "268435455,268435455");
  run_result r = RUN("verify", rules, edge);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  char *over = tmx_with(dir, "over.tmx", "2", "268435454", "0,0");
  snprintf(msg, sizeof msg,
           "tilesat: %s:4: tile id 268435454 is out of range (0 to "
           "268435453: with firstgid 2 its gid must be at most 268435455, a "
           "gid's 28 bits of tile id)\n",
           over);
  expect_cli_error(msg, "verify", rules, over);
  /* an id that is no whole number is not skipped either */
  const char *not_ids[] = {"abc", "1.5", "", " 1"};
  for (int i = 0; i < 4; i++) {
    char *bad = tmx_with(dir, "notid.tmx", "1", not_ids[i], "1,1");
    snprintf(msg, sizeof msg,
             "tilesat: %s:4: tile id '%s' is not a whole number\n", bad,
             not_ids[i]);
    expect_cli_error(msg, "verify", rules, bad);
    free(bad);
  }
  const char *firsts[] = {"0", "-1", "268435456", "99999999999999999999"};
  for (int i = 0; i < 4; i++) {
    char *bad = tmx_with(dir, "first.tmx", firsts[i], "0", "1,1");
    snprintf(msg, sizeof msg,
             "tilesat: %s:3: tileset firstgid %s is out of range (1 to "
             "268435455: a gid's tile id has 28 bits, 0 is the empty cell)\n",
             bad, firsts[i]);
    expect_cli_error(msg, "verify", rules, bad);
    free(bad);
  }
  /* an external .tsx: its own file and line */
  char *tsx = write_in(dir, "t.tsx",
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<tileset name=\"t\" tilewidth=\"8\" tileheight=\"8\">\n"
                       " <tile id=\"9223372036854775807\">\n"
                       "  <properties><property name=\"tilesat\" value=\"a\"/>"
                       "</properties>\n"
                       " </tile>\n"
                       "</tileset>\n");
  char *ext =
      write_in(dir, "ext.tmx",
               "<map width=\"2\" height=\"1\">\n"
               " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
               " <layer width=\"2\" height=\"1\"><data encoding=\"csv\">"
               "0,0</data></layer>\n"
               "</map>\n");
  snprintf(msg, sizeof msg,
           "tilesat: %s:3: tile id 9223372036854775807 is out of range (0 "
           "to 268435454: with firstgid 1 its gid must be at most "
           "268435455, a gid's 28 bits of tile id)\n",
           tsx);
  expect_cli_error(msg, "verify", rules, ext);
  /* .tmj: an embedded tileset, and an external .tsx */
  char *tmj = write_in(
      dir, "huge.tmj",
      "{\"width\": 2, \"height\": 1, \"layers\": [{\"type\": \"tilelayer\", "
      "\"width\": 2, \"height\": 1, \"data\": [0, 0]}], \"tilesets\": "
      "[{\"firstgid\": 1, \"tiles\": [{\"id\": 9223372036854775807, "
      "\"properties\": [{\"name\": \"tilesat\", \"type\": \"string\", "
      "\"value\": \"a\"}]}]}]}\n");
  snprintf(msg, sizeof msg,
           "tilesat: %s: tile id 9.2233720368547758e+18 is out of range (0 "
           "to 268435454: with firstgid 1 its gid must be at most "
           "268435455, a gid's 28 bits of tile id)\n",
           tmj);
  expect_cli_error(msg, "verify", rules, tmj);
  char *tmjext = write_in(
      dir, "ext.tmj",
      "{\"width\": 2, \"height\": 1, \"layers\": [{\"type\": \"tilelayer\", "
      "\"width\": 2, \"height\": 1, \"data\": [0, 0]}], \"tilesets\": "
      "[{\"firstgid\": 0, \"source\": \"t.tsx\"}]}\n");
  snprintf(msg, sizeof msg,
           "tilesat: %s: tileset firstgid 0 is out of range (1 to "
           "268435455: a gid's tile id has 28 bits, 0 is the empty cell)\n",
           tmjext);
  expect_cli_error(msg, "verify", rules, tmjext);
  char *paths[] = {rules, huge, edge, over, tsx, ext, tmj, tmjext};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
    free(paths[i]);
  rm_dir(dir);
}

/* A <tile gid="4294967297"/> was read as gid 1 where CSV refused the same
 * value: every encoding reads a gid alike, its flip bits included, and
 * refuses the same value with the same message. */
Test(tiled, gids_read_alike_in_every_encoding) {
  char *dir = temp_dir(), msg[1024];
  /* the same two gids in each encoding: gid 1 flipped h, and 2^32-1 (id
   * 2^28-1, every flip bit) */
  const char *xml_tiles =
      "<tile gid=\"2147483649\"/><tile gid=\"4294967295\"/>";
  const char *csv = "2147483649,4294967295";
  const char *b64 = "AQAAgP////8="; /* 01 00 00 80 ff ff ff ff */
  const char *tmj_array = "[2147483649, 4294967295]";
  char text[1024];
  char *files[4];
  snprintf(text, sizeof text,
           "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">"
           "<data>%s</data></layer></map>\n",
           xml_tiles);
  files[0] = write_in(dir, "xml.tmx", text);
  snprintf(text, sizeof text,
           "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">"
           "<data encoding=\"csv\">%s</data></layer></map>\n",
           csv);
  files[1] = write_in(dir, "csv.tmx", text);
  snprintf(text, sizeof text,
           "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">"
           "<data encoding=\"base64\">%s</data></layer></map>\n",
           b64);
  files[2] = write_in(dir, "b64.tmx", text);
  snprintf(text, sizeof text,
           "{\"layers\": [{\"type\": \"tilelayer\", \"width\": 2, "
           "\"height\": 1, \"data\": %s}]}\n",
           tmj_array);
  files[3] = write_in(dir, "array.tmj", text);
  for (int i = 0; i < 4; i++) {
    tilesat_grid *g = read_tiled(files[i], NULL, TILESAT_EMPTY_TILE);
    cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "1:h", "%s", files[i]);
    cr_expect_str_eq(tilesat_grid_at(g, 0, 1), "268435455:hvdx", "%s",
                     files[i]);
    tilesat_grid_free(g);
    free(files[i]);
  }
  /* 2^32 + 1 and -1: the same refusal in XML, CSV and JSON (base64 holds 32
   * bits a gid, no more) */
  const char *bad[] = {"4294967297", "-1", "000004294967296",
                       "99999999999999999999999999999999"};
  const char *shown[] = {"4294967297", "-1", "4294967296",
                         "999999999999999999999999..."};
  for (int b = 0; b < 4; b++) {
    snprintf(text, sizeof text,
             "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">\n"
             "<data><tile gid=\"1\"/><tile gid=\"%s\"/></data></layer>"
             "</map>\n",
             bad[b]);
    files[0] = write_in(dir, "xml.tmx", text);
    snprintf(text, sizeof text,
             "<map width=\"2\" height=\"1\"><layer width=\"2\" height=\"1\">\n"
             "<data encoding=\"csv\">1,%s</data></layer></map>\n",
             bad[b]);
    files[1] = write_in(dir, "csv.tmx", text);
    snprintf(text, sizeof text,
             "{\"layers\": [{\"type\": \"tilelayer\", \"width\": 2, "
             "\"height\": 1, \"data\": [1, %s]}]}\n",
             bad[b][0] == '0' ? "4294967296" : bad[b]);
    files[2] = write_in(dir, "array.tmj", text);
    for (int i = 0; i < 3; i++) {
      snprintf(msg, sizeof msg,
               "tilesat: %s%s: gid %s is out of range (0 to 4294967295)\n",
               files[i], i < 2 ? ":2" : "",
               i < 2 || b < 3 ? shown[b] : "1.0000000000000001e+32");
      expect_cli_error(msg, "extract", files[i]);
      free(files[i]);
    }
  }
  rm_dir(dir);
}

/* 20000 named tiles: a cell's name was found by a scan of every named tile
 * (a 1000x1000 layer took 36 s); now one hashed lookup.  The layer, W x H
 * (both odd), is a checkerboard of the last two tiles, t19999 where row +
 * column is even: VALID by rules that allow only the two side by side,
 * with exactly (W*H+1)/2 of t19999 (a swapped board has one fewer).  The
 * tiles take five lines each, so the last ones sit past line 65535, where
 * an error still names its line. */
#define NAMED 20000
static void write_named(const char *path, int w, int h, int last_id) {
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<map version=\"1.10\" width=\"%d\" height=\"%d\">\n"
          " <tileset firstgid=\"1\" name=\"t\">\n",
          w, h);
  for (int i = 0; i < NAMED; i++)
    fprintf(f,
            "  <tile id=\"%d\">\n   <properties>\n    <property "
            "name=\"tilesat\" value=\"t%d\"/>\n   </properties>\n  "
            "</tile>\n",
            i == NAMED - 1 ? last_id : i, i);
  fprintf(f,
          " </tileset>\n <layer name=\"l\" width=\"%d\" height=\"%d\">\n"
          "  <data encoding=\"csv\">\n",
          w, h);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++)
      fprintf(f, "%d%s", NAMED - (r + c) % 2,
              r == h - 1 && c == w - 1 ? "\n"
              : c == w - 1             ? ",\n"
                                       : ",");
  fprintf(f, "</data>\n </layer>\n</map>\n");
  fclose(f);
}

Test(tiled, twenty_thousand_named_tiles_read_at_once, .timeout = 15) {
  char *dir = temp_dir();
  char *path = malloc(strlen(dir) + 16);
  sprintf(path, "%s/named.tmx", dir);
  int w = 1199, h = 999;
  write_named(path, w, h, NAMED - 1);
  char *rules = write_in(dir, "two.rules",
                         "tilesat-rules 1\ntile t19998 1\ntile t19999 1\n"
                         "allow t19998 N t19999\nallow t19998 E t19999\n"
                         "allow t19998 S t19999\nallow t19998 W t19999\n"
                         "allow t19999 N t19998\nallow t19999 E t19998\n"
                         "allow t19999 S t19998\nallow t19999 W t19998\n");
  char count[64];
  snprintf(count, sizeof count, "t19999=%d", (w * h + 1) / 2);
  run_result v = RUN("verify", rules, path, "--count", count);
  cr_expect_eq(v.code, 10, "%s", v.err);
  cr_expect_str_eq(v.out, "VALID\n");
  run_free(&v);
  free(rules);
  write_named(path, 2, 1, 300000000);
  /* the last tile, out of range, spans lines 4 + 5 * 19999 to 4 lines
   * below: an error names one of them, not 65535 (libxml2 2.9 stores an
   * element's line past 65535 with its first text, the line below) */
  char tail[1024];
  snprintf(tail, sizeof tail,
           ": tile id 300000000 is out of range (0 to 268435454: with "
           "firstgid 1 its gid must be at most 268435455, a gid's 28 bits of "
           "tile id)\n");
  run_result e = RUN("extract", path);
  cr_expect_eq(e.code, 1);
  long line = 0;
  char *colon = strstr(e.err, ".tmx:");
  cr_assert(colon, "%s", e.err);
  line = strtol(colon + 5, &colon, 10);
  cr_expect(line >= 4 + 5 * (NAMED - 1) && line <= 4 + 5 * (NAMED - 1) + 4,
            "line %ld", line);
  cr_expect_str_eq(colon, tail);
  run_free(&e);
  free(path);
  rm_dir(dir);
}

/* A .tmx map's tilewidth, tileheight and hexsidelength become numbers in a
 * .tmj written with --tilesets-from: tilewidth="99999999999" went through
 * atoi and came out as 1215752191; now refused before any work. */
Test(tiled, map_sizes_copied_to_a_tmj_are_checked) {
  char *dir = temp_dir(), msg[1024];
  char *rules = write_in(dir, "a.rules",
                         "tilesat-rules 1\ntile a 1\nallow a E a\n"
                         "allow a W a\n");
  char *tsx = write_in(dir, "t.tsx",
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<tileset name=\"t\" tilewidth=\"8\" tileheight=\"8\">\n"
                       " <tile id=\"0\"><properties><property "
                       "name=\"tilesat\" value=\"a\"/></properties></tile>\n"
                       "</tileset>\n");
  const char *widths[] = {"99999999999", "-8", "8px"};
  for (int i = 0; i < 3; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<map width=\"2\" height=\"1\" tilewidth=\"%s\" "
             "tileheight=\"8\">\n"
             " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
             " <layer width=\"2\" height=\"1\"><data encoding=\"csv\">1,1"
             "</data></layer>\n</map>\n",
             widths[i]);
    char *like = write_in(dir, "like.tmx", text);
    char out[4300];
    snprintf(out, sizeof out, "%s/out.tmj", dir);
    snprintf(msg, sizeof msg,
             "tilesat: %s:2: tilewidth '%s' is not a whole number from 0 to "
             "2147483647\n",
             like, widths[i]);
    expect_cli_error(msg, "check", rules, "--size", "2x1", "--tmj", out,
                     "--tilesets-from", like);
    cr_expect_neq(access(out, F_OK), 0, "%s written", out);
    free(like);
  }
  /* a good one is copied as the number it is */
  char *like = write_in(dir, "good.tmx",
                        "<map width=\"2\" height=\"1\" tilewidth=\"16\" "
                        "tileheight=\"8\">\n"
                        " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
                        " <layer width=\"2\" height=\"1\"><data "
                        "encoding=\"csv\">1,1</data></layer>\n</map>\n");
  char out[4300];
  snprintf(out, sizeof out, "%s/good.tmj", dir);
  run_result r = RUN("check", rules, "--size", "2x1", "--tmj", out,
                     "--tilesets-from", like);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *json = slurp(out);
  cJSON *root = cJSON_Parse(json);
  cr_assert(root, "%s", json);
  const cJSON *tw = cJSON_GetObjectItemCaseSensitive(root, "tilewidth");
  cr_expect(cJSON_IsNumber(tw) && tw->valuedouble == 16, "%s", json);
  cJSON_Delete(root);
  free(json);
  remove(out);
  free(like);
  free(rules);
  free(tsx);
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

/* A painted map whose <tile> elements are not one a cell is not written
 * into: too many (the writer read past the map's gids and wrote heap bytes
 * as tiles) or too few (a layer written short) are an error naming the
 * file and the layer's line, and nothing is written. */
Test(tiled, write_into_needs_one_tile_element_a_cell) {
  tilesat_rules *r = rules_from_text("tilesat-rules 1\ntopology square\n"
                                     "tile 1 1\ntile 2 1\n"
                                     "allow 1 E 1 2\nallow 2 E 1 2\n"
                                     "allow 1 W 1 2\nallow 2 W 1 2\n");
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, 2, 1, TILESAT_SQUARE, false, &err);
  cr_assert(m, "%s", err.msg);
  char *dir = temp_dir();
  const char *datas[2] = {"<tile gid=\"1\"/><tile gid=\"2\"/><tile/><tile/>",
                          "<tile gid=\"1\"/>"};
  for (int i = 0; i < 2; i++) {
    char path[512], out[512], text[1024];
    snprintf(path, sizeof path, "%s/painted.tmx", dir);
    snprintf(out, sizeof out, "%s/done.tmx", dir);
    int n = snprintf(
        text, sizeof text,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.8\" "
        "orientation=\"orthogonal\" width=\"2\" height=\"1\" "
        "tilewidth=\"8\" tileheight=\"8\">\n <layer id=\"1\" name=\"L\" "
        "width=\"2\" height=\"1\">\n  <data>%s</data>\n </layer>\n</map>\n",
        datas[i]);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fwrite(text, 1, (size_t)n, f);
    fclose(f);
    tilesat_tiled_doc *d = tilesat_tiled_doc_read(path, &err);
    cr_assert(d, "%s", err.msg);
    int tiles[2] = {0, 1};
    cr_expect_eq(
        tilesat_tiled_doc_write_into(m, tiles, d, NULL, NULL, out, &err), -1,
        "case %d: written", i);
    char said[600];
    snprintf(said, sizeof said,
             "%s:3: the layer's <tile> elements are not one a cell (width x "
             "height)",
             path);
    cr_expect_str_eq(err.msg, said);
    cr_expect_neq(access(out, F_OK), 0, "case %d: %s exists", i, out);
    tilesat_tiled_doc_free(d);
  }
  rm_dir(dir);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}
