/* Tiled maps kept whole: --pins-from a painted Tiled map takes its size and
 * --layer, and --tmx/--tmj write a copy of that map with only the layer's
 * data changed; external tilesets name tiles by their "tilesat" property;
 * export-tileset makes the tileset to paint with. */
/* POSIX with XSI: realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "helpers.h"

#include <cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATA "tests/data/"

/* dir/name holding text; the path, malloc'd. */
static char *put(const char *dir, const char *name, const char *text) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  cr_assert(f, "%s", path);
  fputs(text, f);
  fclose(f);
  return path;
}

/* The painted level: "ground" (a at (0,0), c at (2,3), the rest empty),
 * then "decor", an object group and a group holding one more tile layer;
 * tiles from the exported tileset t.tsx (a b c are gids 1 2 3). */
static const char painted[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\" "
    "renderorder=\"right-down\" width=\"4\" height=\"3\" tilewidth=\"8\" "
    "tileheight=\"8\" infinite=\"0\" nextlayerid=\"6\" nextobjectid=\"3\">\n"
    " <properties>\n"
    "  <property name=\"tilesat-rules\" value=\"line.rules\"/>\n"
    "  <property name=\"note\" value=\"a &amp; b &lt;c&gt; &quot;d&quot;\"/>\n"
    " </properties>\n"
    " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
    " <layer id=\"1\" name=\"ground\" width=\"4\" height=\"3\">\n"
    "  <data encoding=\"csv\">\n"
    "1,0,0,0,\n0,0,0,0,\n0,0,0,3\n"
    "</data>\n"
    " </layer>\n"
    " <layer id=\"2\" name=\"decor\" width=\"4\" height=\"3\" "
    "opacity=\"0.5\">\n"
    "  <data encoding=\"csv\">\n"
    "0,2,0,0,\n0,0,0,0,\n0,0,0,0\n"
    "</data>\n"
    " </layer>\n"
    " <objectgroup id=\"3\" name=\"spawns\">\n"
    "  <object id=\"1\" name=\"start\" x=\"8\" y=\"8\" width=\"8\" "
    "height=\"8\"/>\n"
    "  <object id=\"2\" name=\"exit\" x=\"24\" y=\"16\">\n"
    "   <point/>\n"
    "  </object>\n"
    " </objectgroup>\n"
    " <group id=\"4\" name=\"more\">\n"
    "  <layer id=\"5\" name=\"inner\" width=\"4\" height=\"3\">\n"
    "   <data encoding=\"csv\">\n"
    "3,1,0,0,\n0,0,0,0,\n0,0,0,0\n"
    "</data>\n"
    "  </layer>\n"
    " </group>\n"
    "</map>\n";

/* A folder with line.rules, the tileset t.tsx (export-tileset) and the
 * painted map. */
static char *level_dir(void) {
  char *dir = temp_dir();
  char *rules = put(dir, "line.rules", line_rules);
  char tsx[4096];
  snprintf(tsx, sizeof tsx, "%s/t.tsx", dir);
  run_result r = RUN("export-tileset", rules, "-o", tsx);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  free(put(dir, "painted.tmx", painted));
  free(rules);
  return dir;
}

/* The text between the n-th "<data" element's start tag and its end. */
static void split_data(const char *text, int nth, size_t *open_end,
                       size_t *close) {
  const char *p = text;
  for (int i = 0; i <= nth; i++) {
    p = strstr(p, "<data");
    cr_assert(p);
    if (i < nth)
      p++;
  }
  const char *gt = strchr(p, '>');
  const char *end = strstr(gt, "</data>");
  cr_assert(gt && end);
  *open_end = (size_t)(gt + 1 - text);
  *close = (size_t)(end - text);
}

/* The own check: every pair of neighbours in the 4x3 gids is a, b, c
 * (1, 2, 3) at most one apart. */
static bool line_valid(const unsigned *g, int w, int h) {
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      unsigned v = g[r * w + c];
      if (v < 1 || v > 3)
        return false;
      if (c + 1 < w && (v > g[r * w + c + 1] + 1 || g[r * w + c + 1] > v + 1))
        return false;
      if (r + 1 < h &&
          (v > g[(r + 1) * w + c] + 1 || g[(r + 1) * w + c] > v + 1))
        return false;
    }
  return true;
}

static void csv_of(const char *s, unsigned *g, int n) {
  for (int k = 0; k < n; k++) {
    char *end;
    g[k] = (unsigned)strtoul(s, &end, 10);
    cr_assert(end != s, "%s", s);
    s = end + (*end == ',');
  }
}

/* The file `value` names, seen from the folder of `map`, is `rules`. */
static bool names_file(const char *map, const char *value, const char *rules) {
  char path[8192];
  const char *slash = strrchr(map, '/');
  snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - map + 1) : 0, map,
           value);
  char *a = realpath(path, NULL), *b = realpath(rules, NULL);
  bool same = a && b && !strcmp(a, b);
  free(a);
  free(b);
  return same;
}

/* A .tmx written from a map with no properties has one, tilesat-rules (the
 * rules file seen from the map's folder), in a new <properties> as the
 * map's first child: checked, and cut out of `text`, which then is the
 * painted map's text but the layer's data. */
static void cut_tmx_rules(char *text, const char *map, const char *rules) {
  const char *open =
      " <properties>\n  <property name=\"tilesat-rules\" value=\"";
  const char *close = "\"/>\n </properties>\n";
  char *p = strstr(text, open), *map_line = strstr(text, "<map");
  cr_assert(p && map_line, "%s", text);
  cr_expect_eq(p, strchr(map_line, '\n') + 1, "%s", text);
  char *v = p + strlen(open), *q = strchr(v, '"');
  char value[4096];
  snprintf(value, sizeof value, "%.*s", (int)(q - v), v);
  cr_expect(names_file(map, value, rules), "%s from %s", value, map);
  cr_assert(!strncmp(q, close, strlen(close)), "%s", text);
  memmove(p, q + strlen(close), strlen(q + strlen(close)) + 1);
}

Test(tiled_whole, tmx_copy_is_the_map_but_the_layer) {
  char *dir = level_dir();
  char in[4096], out[4096], rules[4096];
  snprintf(in, sizeof in, "%s/painted.tmx", dir);
  snprintf(out, sizeof out, "%s/done.tmx", dir);
  snprintf(rules, sizeof rules, "%s/line.rules", dir);
  /* no --size: the map's; no --layer: the first, "ground" */
  run_result r = RUN("check", rules, "--pins-from", in, "--tmx", out);
  cr_assert_eq(r.code, 10, "%s", r.err);
  char *before = slurp(in), *after = slurp(out);
  size_t a0, a1, b0, b1;
  split_data(before, 0, &a0, &a1);
  split_data(after, 0, &b0, &b1);
  /* byte for byte, but the first layer's data */
  cr_expect_eq(a0, b0);
  cr_expect(!memcmp(before, after, a0));
  cr_expect_str_eq(after + b1, before + a1);
  /* the data: Tiled's CSV layout, the painted cells kept, valid */
  cr_expect_eq(after[b0], '\n');
  cr_expect_eq(after[b1 - 1], '\n');
  unsigned g[12];
  csv_of(after + b0, g, 12);
  cr_expect_eq(g[0], 1);
  cr_expect_eq(g[11], 3);
  cr_expect(line_valid(g, 4, 3));
  /* the printed witness is the same map, by the tileset's names */
  char want[256] = "SAT\n", *w = want + strlen(want);
  for (int k = 0; k < 12; k++)
    w += sprintf(w, "%c%s", "?abc"[g[k]], k % 4 == 3 ? "\n" : "");
  cr_expect_str_eq(r.out, want);
  run_free(&r);
  /* tilesat verify agrees (the names through t.tsx) */
  r = RUN("verify", rules, out, "--layer", "ground");
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  free(before);
  free(after);
  rm_dir(dir);
}

Test(tiled_whole, layer_option_and_the_maps_size) {
  char *dir = level_dir();
  char in[4096], out[4096], rules[4096];
  snprintf(in, sizeof in, "%s/painted.tmx", dir);
  snprintf(out, sizeof out, "%s/done.tmx", dir);
  snprintf(rules, sizeof rules, "%s/line.rules", dir);
  /* the layer inside the group: c at (0,0) beside a: no valid map */
  run_result r =
      RUN("check", rules, "--pins-from", in, "--layer", "inner", "--tmx", out);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  /* "decor": b at (0,1); its copy fills decor, ground as it was */
  r = RUN("check", rules, "--pins-from", in, "--layer", "decor", "--tmx", out);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *before = slurp(in), *after = slurp(out);
  size_t a0, a1, b0, b1;
  split_data(before, 1, &a0, &a1);
  split_data(after, 1, &b0, &b1);
  cr_expect_eq(a0, b0);
  cr_expect(!memcmp(before, after, a0));
  cr_expect_str_eq(after + b1, before + a1);
  unsigned g[12];
  csv_of(after + b0, g, 12);
  cr_expect_eq(g[1], 2);
  cr_expect(line_valid(g, 4, 3));
  free(before);
  free(after);
  /* the same through explain: the painted cells that clash */
  r = RUN("explain", rules, "--pins-from", in, "--layer", "inner");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.out, "(0,0)") && strstr(r.out, "(0,1)"), "%s", r.out);
  run_free(&r);
  char msg[16384];
  snprintf(msg, sizeof msg, "tilesat: %s: no tile layer named 'nope'\n", in);
  expect_cli_error(msg, "check", rules, "--pins-from", in, "--layer", "nope");
  expect_cli_error(
      "tilesat: --layer: no Tiled map to read it from (--pins-from MAP.tmx)\n",
      "check", rules, "--size", "4x3", "--layer", "ground");
  expect_cli_error("tilesat: check: missing --size WxH (or --pins-from MAP, "
                   "whose size it takes)\n",
                   "check", rules);
  snprintf(msg, sizeof msg,
           "tilesat: --pins-from: %s is 4x3, the map 5x3"
           ": drop --size (the map then takes the level's size) or give --size "
           "4x3\n",
           in);
  expect_cli_error(msg, "check", rules, "--size", "5x3", "--pins-from", in);
  char tmj[4096];
  snprintf(tmj, sizeof tmj, "%s/done.tmj", dir);
  snprintf(msg, sizeof msg,
           "tilesat: %s: %s is a .tmx map: its completed copy is written as "
           ".tmx too (--tmx)\n",
           tmj, in);
  expect_cli_error(msg, "check", rules, "--pins-from", in, "--tmj", tmj);
  cr_expect_neq(access(tmj, F_OK), 0);
  rm_dir(dir);
}

/* Every encoding the data had is the encoding it keeps, and the rest of
 * the map is kept: XML byte for byte, JSON as the same document. */
Test(tiled_whole, every_encoding_kept) {
  char *dir = temp_dir();
  /* the fixtures' tiles, any next to any */
  const char *names[] = {"1", "2", "3", "3:h", "3:hd"};
  char rules_text[4096] = "tilesat-rules 1\ntopology square\n";
  for (int t = 0; t < 5; t++)
    sprintf(rules_text + strlen(rules_text), "tile %s 1\n", names[t]);
  for (int t = 0; t < 5; t++)
    for (int d = 0; d < 4; d++)
      sprintf(rules_text + strlen(rules_text), "allow %s %c 1 2 3 3:h 3:hd\n",
              names[t], "NESW"[d]);
  char *rules = put(dir, "all.rules", rules_text);
  const char *files[] = {"tiled-csv.tmx",   "tiled-base64.tmx",
                         "tiled-zlib.tmx",  "tiled-gzip.tmx",
                         "tiled-array.tmj", "tiled-zlib.tmj"};
  for (int i = 0; i < 6; i++) {
    bool json = strstr(files[i], ".tmj") != NULL;
    char in[256], out[4096];
    snprintf(in, sizeof in, DATA "%s", files[i]);
    /* beside its map, so its tileset's source stays as it was */
    snprintf(out, sizeof out, DATA "out-%d-%s", (int)getpid(), files[i]);
    run_result r =
        RUN("check", rules, "--pins-from", in, json ? "--tmj" : "--tmx", out);
    cr_assert_eq(r.code, 10, "%s: %s", files[i], r.err);
    run_free(&r);
    tilesat_error err;
    tilesat_grid *g = tilesat_tiled_read(out, NULL, TILESAT_EMPTY_TILE, &err);
    cr_assert(g, "%s", err.msg);
    tilesat_grid *p = tilesat_tiled_read(in, NULL, TILESAT_EMPTY_TILE, &err);
    cr_assert(p, "%s", err.msg);
    for (int c = 0; c < 12; c++) {
      const char *was = tilesat_grid_at(p, c / 4, c % 4),
                 *now = tilesat_grid_at(g, c / 4, c % 4);
      if (strcmp(was, "0"))
        cr_expect_str_eq(now, was, "%s (%d,%d)", files[i], c / 4, c % 4);
      else
        cr_expect_str_neq(now, "0", "%s (%d,%d)", files[i], c / 4, c % 4);
    }
    tilesat_grid_free(g);
    tilesat_grid_free(p);
    char *before = slurp(in), *after = slurp(out);
    if (!json) {
      cut_tmx_rules(after, out, rules);
      size_t a0, a1, b0, b1;
      split_data(before, 0, &a0, &a1);
      split_data(after, 0, &b0, &b1);
      cr_expect_eq(a0, b0, "%s", files[i]);
      cr_expect(!memcmp(before, after, a0), "%s", files[i]);
      cr_expect_str_eq(after + b1, before + a1, "%s", files[i]);
      /* base64: the white space around the text as it was */
      if (i > 0) {
        cr_expect(!strncmp(after + b0, before + a0, 4), "%s", files[i]);
        cr_expect(!strcmp(before + a1 - 3, after + b1 - 3), "%s", files[i]);
      }
    } else {
      cJSON *x = cJSON_Parse(before), *y = cJSON_Parse(after);
      cr_assert(x && y, "%s", files[i]);
      /* and tilesat-rules, the one property, naming the rules file */
      cJSON *props = cJSON_DetachItemFromObject(y, "properties");
      cJSON *p0 = cJSON_GetArrayItem(props, 0);
      cr_expect_eq(cJSON_GetArraySize(props), 1, "%s", after);
      cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(p0, "name")),
                       "tilesat-rules");
      cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(p0, "type")),
                       "string");
      const char *v = cJSON_GetStringValue(cJSON_GetObjectItem(p0, "value"));
      cr_expect(v && names_file(out, v, rules), "%s", after);
      cJSON_Delete(props);
      cJSON *lx = cJSON_GetArrayItem(cJSON_GetObjectItem(x, "layers"), 1),
            *ly = cJSON_GetArrayItem(cJSON_GetObjectItem(y, "layers"), 1);
      cJSON *dx = cJSON_DetachItemFromObject(lx, "data"),
            *dy = cJSON_DetachItemFromObject(ly, "data");
      cr_expect_eq(cJSON_IsString(dx), cJSON_IsString(dy), "%s", files[i]);
      cr_expect(cJSON_IsArray(dy) || cJSON_IsString(dy), "%s", files[i]);
      cr_expect(cJSON_Compare(x, y, true), "%s", files[i]);
      cJSON_Delete(dx);
      cJSON_Delete(dy);
      cJSON_Delete(x);
      cJSON_Delete(y);
    }
    free(before);
    free(after);
    unlink(out);
  }
  /* <tile gid=".."/> elements, one per cell */
  char *tiles = put(dir, "tiles.tmx",
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<map version=\"1.8\" orientation=\"orthogonal\" "
                    "width=\"2\" height=\"1\" tilewidth=\"8\" "
                    "tileheight=\"8\" infinite=\"0\">\n"
                    " <layer id=\"1\" name=\"l\" width=\"2\" height=\"1\">\n"
                    "  <data>\n   <tile gid=\"2\"/>\n   <tile/>\n  </data>\n"
                    " </layer>\n</map>\n");
  char out[4096];
  snprintf(out, sizeof out, "%s/tiles-out.tmx", dir);
  run_result r = RUN("check", rules, "--pins-from", tiles, "--tmx", out);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *after = slurp(out);
  cr_expect(strstr(after, "  <data>\n   <tile gid=\"2\"/>\n   <tile gid=\""),
            "%s", after);
  free(after);
  free(tiles);
  free(rules);
  rm_dir(dir);
}

/* Written to another folder, the paths the map holds still name their
 * files: the external tileset's source (whose names verify then reads),
 * an image layer's image. */
Test(tiled_whole, paths_repointed_from_another_folder) {
  char *dir = level_dir();
  char in[4096], sub[2048], out[4096], rules[4096];
  char *text = malloc(sizeof painted + 200);
  strcpy(text, painted);
  char *end = strstr(text, "</map>");
  strcpy(end,
         " <imagelayer id=\"9\" name=\"bg\">\n  <image source=\"t.tsx.png\" "
         "width=\"24\" height=\"8\"/>\n </imagelayer>\n</map>\n");
  free(put(dir, "painted.tmx", text));
  free(text);
  snprintf(in, sizeof in, "%s/painted.tmx", dir);
  snprintf(sub, sizeof sub, "%s/sub", dir);
  snprintf(out, sizeof out, "%s/done.tmx", sub);
  snprintf(rules, sizeof rules, "%s/line.rules", dir);
  cr_assert_eq(mkdir(sub, 0700), 0);
  run_result r = RUN("check", rules, "--pins-from", in, "--tmx", out);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *after = slurp(out);
  cr_expect(strstr(after, "<tileset firstgid=\"1\" source=\"../t.tsx\"/>"),
            "%s", after);
  cr_expect(strstr(after, "<image source=\"../t.tsx.png\""), "%s", after);
  free(after);
  r = RUN("verify", rules, out);
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  run_free(&r);
  unlink(out);
  rmdir(sub);
  rm_dir(dir);
}

Test(tiled_whole, export_tileset_names_and_pictures) {
  char *dir = temp_dir();
  char rules[4096], tsx[4096], png[4096];
  snprintf(rules, sizeof rules, "%s/knots.rules", dir);
  snprintf(tsx, sizeof tsx, "%s/knots.tsx", dir);
  snprintf(png, sizeof png, "%s/knots.tsx.png", dir);
  run_result r = RUN("import-tileset", DATA "wfc/tilesets/Knots.xml",
                     "--subset", "Standard", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("export-tileset", rules, "-o", tsx);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  tilesat_rules *k = rules_from_file(rules);
  tilesat_error err;
  char pics_path[4096];
  snprintf(pics_path, sizeof pics_path, "%s/knots.pictures", dir);
  tilesat_pictures *pics = tilesat_pictures_read_file(pics_path, &err);
  cr_assert(pics, "%s", err.msg);
  int T = tilesat_rules_ntiles(k), pw = tilesat_pictures_width(pics);
  cr_assert_eq(pw, 10); /* at least 8 pixels: drawn as they are */
  /* tile k: its name as the property, its picture at column k % cols */
  char *text = slurp(tsx);
  char head[256];
  snprintf(head, sizeof head,
           "name=\"knots\" tilewidth=\"10\" tileheight=\"10\" "
           "tilecount=\"%d\" columns=\"3\">\n <image source=\"knots.tsx.png\"",
           T);
  cr_expect(strstr(text, head), "%s", text);
  tilesat_image *img = tilesat_image_read_png(png, &err);
  cr_assert(img, "%s", err.msg);
  for (int t = 0; t < T; t++) {
    char tile[256];
    snprintf(tile, sizeof tile,
             " <tile id=\"%d\">\n  <properties>\n   <property "
             "name=\"tilesat\" value=\"%s\"/>",
             t, tilesat_rules_tile_name(k, t));
    cr_expect(strstr(text, tile), "%s", tile);
    const uint8_t *px =
        tilesat_pictures_get(pics, tilesat_rules_tile_name(k, t));
    cr_assert(px);
    for (int y = 0; y < 10; y++)
      cr_expect(
          !memcmp(img->rgba + (((size_t)(t / 3 * 10 + y) * (size_t)img->width) +
                               (size_t)(t % 3 * 10)) *
                                  4,
                  px + (size_t)y * 40, 40),
          "tile %d row %d", t, y);
  }
  tilesat_image_free(img);
  free(text);
  /* a map painted with it reads by those names: gid t+1 is tile t */
  char *map = put(dir, "m.tmx",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<map version=\"1.8\" orientation=\"orthogonal\" "
                  "width=\"3\" height=\"1\" tilewidth=\"10\" "
                  "tileheight=\"10\" infinite=\"0\">\n"
                  " <tileset firstgid=\"1\" source=\"knots.tsx\"/>\n"
                  " <layer id=\"1\" name=\"l\" width=\"3\" height=\"1\">\n"
                  "  <data encoding=\"csv\">\n1,0,2147483650\n</data>\n"
                  " </layer>\n</map>\n");
  tilesat_grid *g = tilesat_tiled_read(map, NULL, TILESAT_EMPTY_TILE, &err);
  cr_assert(g, "%s", err.msg);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), tilesat_rules_tile_name(k, 0));
  cr_expect_str_eq(tilesat_grid_at(g, 0, 1), "0");
  char flipped[128];
  snprintf(flipped, sizeof flipped, "%s:h", tilesat_rules_tile_name(k, 1));
  cr_expect_str_eq(tilesat_grid_at(g, 0, 2), flipped);
  tilesat_grid_free(g);
  /* a JSON tileset, read the same way */
  char tsj[4096];
  snprintf(tsj, sizeof tsj, "%s/knots.tsj", dir);
  r = RUN("export-tileset", rules, "-o", tsj);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  free(put(dir, "m.tmj",
           "{\"type\":\"map\",\"width\":1,\"height\":1,\"layers\":[{\"type\":"
           "\"tilelayer\",\"name\":\"l\",\"width\":1,\"height\":1,\"data\":["
           "3]}],\"tilesets\":[{\"firstgid\":1,\"source\":\"knots.tsj\"}]}"));
  char mj[4096];
  snprintf(mj, sizeof mj, "%s/m.tmj", dir);
  g = tilesat_tiled_read(mj, NULL, TILESAT_EMPTY_TILE, &err);
  cr_assert(g, "%s", err.msg);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), tilesat_rules_tile_name(k, 2));
  tilesat_grid_free(g);
  expect_cli_error("tilesat: export-tileset: missing -o X.tsx (the tileset "
                   "and its picture X.tsx.png are files)\n",
                   "export-tileset", rules);
  free(map);
  tilesat_pictures_free(pics);
  tilesat_rules_free(k);
  rm_dir(dir);
}

/* An external tileset that is there must be a tileset; one that is not
 * there leaves its tiles named by gid (tests/data's terrain.tsx). */
Test(tiled_whole, external_tileset_that_is_not_one) {
  char *dir = temp_dir();
  free(put(dir, "t.tsx", "<map/>\n"));
  char *map = put(dir, "m.tmx",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<map width=\"1\" height=\"1\">\n"
                  " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
                  " <layer name=\"l\" width=\"1\" height=\"1\">\n"
                  "  <data encoding=\"csv\">1</data>\n </layer>\n</map>\n");
  char msg[4096];
  snprintf(msg, sizeof msg,
           "tilesat: %s/t.tsx:1: not a Tiled tileset: root element <map>, "
           "expected <tileset>\n",
           dir);
  expect_cli_error(msg, "extract", map);
  free(map);
  /* a device is not read (/dev/zero would never end) */
  map = put(dir, "d.tmx",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<map width=\"1\" height=\"1\">\n"
            " <tileset firstgid=\"1\" source=\"/dev/zero\"/>\n"
            " <layer name=\"l\" width=\"1\" height=\"1\">\n"
            "  <data encoding=\"csv\">1</data>\n </layer>\n</map>\n");
  expect_cli_error("tilesat: /dev/zero: not a Tiled tileset (not a regular "
                   "file)\n",
                   "extract", map);
  free(map);
  rm_dir(dir);
}

/* The value of the map property tilesat-rules in a .tmx (libxml2) or a
 * .tmj (cJSON), malloc'd, or NULL when the map has none. */
static char *rules_property_of(const char *map) {
  char *text = slurp(map), *v = NULL;
  cr_assert(text, "%s", map);
  if (text[0] == '{') {
    cJSON *root = cJSON_Parse(text), *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(root, "properties")) {
      if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(p, "name")),
                  "tilesat-rules"))
        v = strdup(cJSON_GetStringValue(cJSON_GetObjectItem(p, "value")));
    }
    cJSON_Delete(root);
  } else {
    xmlDoc *doc =
        xmlReadMemory(text, (int)strlen(text), map, NULL, XML_PARSE_NONET);
    cr_assert(doc, "%s", text);
    for (xmlNode *n = xmlDocGetRootElement(doc)->children; n; n = n->next)
      if (n->type == XML_ELEMENT_NODE &&
          !strcmp((const char *)n->name, "properties"))
        for (xmlNode *p = n->children; p; p = p->next) {
          xmlChar *name = xmlGetProp(p, (const xmlChar *)"name");
          if (name && !strcmp((const char *)name, "tilesat-rules")) {
            xmlChar *x = xmlGetProp(p, (const xmlChar *)"value");
            v = strdup((const char *)x);
            xmlFree(x);
          }
          xmlFree(name);
        }
    xmlFreeDoc(doc);
  }
  free(text);
  return v;
}

static const char *stdin_from;
static void stdin_from_file(void) {
  FILE *f = freopen(stdin_from, "rb", stdin);
  if (!f)
    _exit(126);
}

/* Every Tiled map tilesat writes names its rules file in the map property
 * tilesat-rules (relative to the map, as Tiled's extension reads it), so
 * `tiled --export-map tilesat-complete` works on it: our own tileset, a
 * sample's (--tilesets-from), a painted map (its own property kept and
 * re-pointed from the new folder), .tmx and .tmj; names with characters
 * XML and JSON escape; none from standard input. */
Test(tiled_whole, written_maps_name_their_rules_for_tiled) {
  char *dir = level_dir();
  /* a rules file whose name XML and JSON must escape, in another folder */
  const char *odd = "a \"b\" & <c> 'd' \xc3\xa9.rules";
  char rdir[4096], sub[4096], rules[8192], line[4096], path[8192];
  snprintf(rdir, sizeof rdir, "%s/r", dir);
  snprintf(sub, sizeof sub, "%s/maps", dir);
  cr_assert_eq(mkdir(rdir, 0700), 0);
  cr_assert_eq(mkdir(sub, 0700), 0);
  snprintf(rules, sizeof rules, "%s/%s", rdir, odd);
  snprintf(line, sizeof line, "%s/line.rules", dir);
  free(put(rdir, odd, line_rules));
  char want[32768];
  snprintf(want, sizeof want, "../r/%s", odd);
  const char *outs[] = {"own.tmx", "own.tmj"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", sub, outs[i]);
    run_result r =
        RUN("check", rules, "--size", "4x3", i ? "--tmj" : "--tmx", path);
    cr_assert_eq(r.code, 10, "%s", r.err);
    run_free(&r);
    char *v = rules_property_of(path);
    cr_expect(v && !strcmp(v, want), "%s: %s", outs[i], v);
    cr_expect(v && names_file(path, v, rules), "%s", outs[i]);
    free(v);
    /* escaped as XML requires, in the text */
    char *text = slurp(path);
    cr_expect(i || strstr(text, "value=\"../r/a &quot;b&quot; &amp; "
                                "&lt;c&gt; 'd' \xc3\xa9.rules\"/>"),
              "%s", text);
    free(text);
  }
  /* with a sample's tilesets: the painted map lends t.tsx */
  char painted_map[4096];
  snprintf(painted_map, sizeof painted_map, "%s/painted.tmx", dir);
  snprintf(path, sizeof path, "%s/like.tmx", sub);
  run_result r = RUN("check", line, "--size", "4x3", "--tilesets-from",
                     painted_map, "--tmx", path);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *v = rules_property_of(path);
  cr_expect(v && !strcmp(v, "../line.rules"), "%s", v);
  free(v);
  /* a painted map with the property keeps it, seen from the new folder
   * (the extension's maps have it); one without gets it */
  snprintf(path, sizeof path, "%s/done.tmx", sub);
  r = RUN("check", rules, "--pins-from", painted_map, "--tmx", path);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  v = rules_property_of(path);
  cr_expect(v && !strcmp(v, "../line.rules"), "%s", v);
  free(v);
  char *bare = slurp(painted_map);
  char *prop = strstr(bare, "  <property name=\"tilesat-rules\"");
  cr_assert(prop);
  memmove(prop, strchr(prop, '\n') + 1, strlen(strchr(prop, '\n') + 1) + 1);
  free(put(dir, "bare.tmx", bare));
  free(bare);
  snprintf(painted_map, sizeof painted_map, "%s/bare.tmx", dir);
  r = RUN("check", rules, "--pins-from", painted_map, "--tmx", path);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  v = rules_property_of(path);
  cr_expect(v && !strcmp(v, want), "%s", v);
  free(v);
  char *text = slurp(path); /* after the map's other property */
  cr_expect(strstr(text, " <properties>\n  <property name=\"note\" value=\"a "
                         "&amp; b &lt;c&gt; &quot;d&quot;\"/>\n  <property "
                         "name=\"tilesat-rules\" value=\"../r/a &quot;b"),
            "%s", text);
  free(text);
  /* rules from standard input: nothing to name */
  stdin_from = line;
  snprintf(path, sizeof path, "%s/stdin.tmx", sub);
  r = run_cli_with(
      (const char *const[]){"check", "-", "--size", "4x3", "--tmx", path, NULL},
      0, 0, stdin_from_file);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  v = rules_property_of(path);
  cr_expect_null(v, "%s", v);
  free(v);
  /* a rules file whose path a Tiled file cannot hold (a control byte):
   * the map without the property, and a word why */
  snprintf(rules, sizeof rules, "%s/x\x01y.rules", rdir);
  free(put(rdir, "x\x01y.rules", line_rules));
  snprintf(path, sizeof path, "%s/ctl.tmx", sub);
  r = RUN("check", rules, "--size", "4x3", "--tmx", path);
  cr_assert_eq(r.code, 10, "%s", r.err);
  snprintf(want, sizeof want,
           "tilesat: %s: no map property tilesat-rules: the path of %s/x\\x01y"
           ".rules from there is not plain UTF-8; set the property in Tiled\n",
           path, rdir);
  cr_expect(strstr(r.err, want), "%s", r.err);
  run_free(&r);
  v = rules_property_of(path);
  cr_expect_null(v, "%s", v);
  free(v);
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", rdir, sub);
  cr_expect_eq(system(cmd), 0);
  rm_dir(dir);
}
