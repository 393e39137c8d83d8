/* fuzz_tsx.c: Tiled tilesets, .tsx (XML) or .tsj (JSON), read as tilesat
 * reads them: the external tileset (source="...") of a map, in the map's
 * folder, recognised by content.  The input is written as ts.tsx (or
 * ts.tsj when it starts as JSON) and read through a .tmx and a .tmj map
 * that reference it twice (first gids 1 and 64 below the top of the 28
 * bits a gid has for its tile) and paint its first tiles, empty and flipped
 * cells: both maps name every cell alike, or fail with the same message.
 * The tiles read are then written by tilesat as a tileset of the same
 * format (tilesat_tiled_write_tileset) and read back through a map: the
 * same names in the same order. */
#include "fuzz.h"

#include <string.h>

#define COLS 16
#define ROWS 4
#define NCELLS (COLS * ROWS)
/* 0x0FFFFFC0: ids 0-63 end at 0x0FFFFFFF, the last gid (28 bits of tile
 * id); a tileset with a larger id is refused, from either map */
#define HIGH_GID 268435392u

/* The layer both maps paint: gids 1-48 (the tileset's ids 0-47), empty,
 * flipped (h, v, d, and hex 120 degrees), then ids 0-10 at HIGH_GID. */
static void layer_gids(uint32_t *gids) {
  for (int k = 0; k < 48; k++)
    gids[k] = (uint32_t)k + 1;
  gids[48] = 0;
  gids[49] = 0x80000001u;
  gids[50] = 0x40000002u;
  gids[51] = 0x20000003u;
  gids[52] = 0x10000004u;
  for (int k = 53; k < NCELLS; k++)
    gids[k] = HIGH_GID + (uint32_t)(k - 53);
}

/* A .tmx map (firstgid 1 and HIGH_GID both naming `source`) of the given
 * gids, width x 1 or COLS x ROWS: malloc'd text. */
static char *tmx_map(const char *source, const uint32_t *gids, int w, int h,
                     size_t *len) {
  char *text;
  FILE *f = fuzz_memory(&text, len);
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<map version=\"1.10\" orientation=\"orthogonal\" "
          "renderorder=\"right-down\" width=\"%d\" height=\"%d\" "
          "tilewidth=\"8\" tileheight=\"8\" infinite=\"0\">\n"
          " <tileset firstgid=\"1\" source=\"%s\"/>\n"
          " <tileset firstgid=\"%u\" source=\"%s\"/>\n"
          " <layer id=\"1\" name=\"l\" width=\"%d\" height=\"%d\">\n"
          "  <data encoding=\"csv\">\n",
          w, h, source, HIGH_GID, source, w, h);
  for (int k = 0; k < w * h; k++)
    fprintf(f, "%u%s", (unsigned)gids[k], k + 1 < w * h ? "," : "\n");
  fprintf(f, "</data>\n </layer>\n</map>\n");
  fclose(f);
  return text;
}

/* The same map as .tmj. */
static char *tmj_map(const char *source, const uint32_t *gids, int w, int h,
                     size_t *len) {
  char *text;
  FILE *f = fuzz_memory(&text, len);
  fprintf(f,
          "{\"type\": \"map\", \"orientation\": \"orthogonal\", "
          "\"width\": %d, \"height\": %d, \"tilewidth\": 8, "
          "\"tileheight\": 8, \"infinite\": false,\n"
          " \"tilesets\": [{\"firstgid\": 1, \"source\": \"%s\"},\n"
          "  {\"firstgid\": %u, \"source\": \"%s\"}],\n"
          " \"layers\": [{\"type\": \"tilelayer\", \"name\": \"l\", "
          "\"width\": %d, \"height\": %d, \"data\": [",
          w, h, source, HIGH_GID, source, w, h);
  for (int k = 0; k < w * h; k++)
    fprintf(f, "%u%s", (unsigned)gids[k], k + 1 < w * h ? ", " : "");
  fprintf(f, "]}]}\n");
  fclose(f);
  return text;
}

/* Read the map `text` written to file `name` (its first layer, empty
 * cells as the tile "0"). */
static tilesat_grid *read_map(const char *name, char *text, size_t len,
                              tilesat_error *err) {
  const char *path = fuzz_path(name);
  fuzz_write_file(path, text, len);
  free(text);
  return tilesat_tiled_read(path, NULL, TILESAT_EMPTY_TILE, err);
}

/* The two maps name every cell alike. */
static void same_cells(const tilesat_grid *a, const tilesat_grid *b) {
  FUZZ_CHECK(tilesat_grid_width(a) == tilesat_grid_width(b) &&
                 tilesat_grid_height(a) == tilesat_grid_height(b),
             "the .tmx map is %dx%d, the .tmj map %dx%d", tilesat_grid_width(a),
             tilesat_grid_height(a), tilesat_grid_width(b),
             tilesat_grid_height(b));
  for (int row = 0; row < tilesat_grid_height(a); row++)
    for (int col = 0; col < tilesat_grid_width(a); col++) {
      const char *x = tilesat_grid_at(a, row, col),
                 *y = tilesat_grid_at(b, row, col);
      FUZZ_CHECK(x && y && !strcmp(x, y),
                 "(%d, %d) is '%s' in the .tmx map, '%s' in the .tmj map", row,
                 col, x ? x : "(none)", y ? y : "(none)");
    }
}

/* The tiles of g, written by tilesat as a tileset (.tsj when json, else
 * .tsx) and read back through a map painting each once: the same names,
 * in order. */
static void tileset_roundtrip(const tilesat_grid *g, bool json) {
  tilesat_error err;
  const tilesat_grid *one[1] = {g};
  tilesat_rules *r = tilesat_extract(one, 1, TILESAT_SQUARE, false, &err);
  FUZZ_CHECK(r != NULL, "the tiles of a map do not extract: %s", err.msg);
  const char *source = json ? "out.tsj" : "out.tsx";
  FUZZ_CHECK(tilesat_tiled_write_tileset(r, NULL, fuzz_path(source), &err) == 0,
             "tilesat_tiled_write_tileset failed: %s", err.msg);
  int n = tilesat_rules_ntiles(r);
  uint32_t gids[NCELLS];
  for (int t = 0; t < n; t++)
    gids[t] = (uint32_t)t + 1;
  size_t len;
  char *text = tmx_map(source, gids, n, 1, &len);
  tilesat_grid *back = read_map("back.tmx", text, len, &err);
  FUZZ_CHECK(back != NULL, "a map of tilesat's own tileset does not read: %s",
             err.msg);
  FUZZ_CHECK(tilesat_grid_width(back) == n && tilesat_grid_height(back) == 1,
             "%d tiles read back as %dx%d", n, tilesat_grid_width(back),
             tilesat_grid_height(back));
  for (int t = 0; t < n; t++) {
    const char *want = tilesat_rules_tile_name(r, t),
               *got = tilesat_grid_at(back, 0, t);
    FUZZ_CHECK(got && !strcmp(want, got), "tile %d '%s' read back as '%s'", t,
               want, got ? got : "(none)");
  }
  tilesat_grid_free(back);
  tilesat_rules_free(r);
}

/* Whether the reader takes the input for JSON: its first byte after a
 * byte-order mark and white space is '{' (util.c ts_text_start). */
static bool is_json(const uint8_t *data, size_t size) {
  size_t i = 0;
  if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    i = 3;
  while (i < size && strchr(" \t\r\n", data[i]) && data[i])
    i++;
  return i < size && data[i] == '{';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bool json = is_json(data, size);
  const char *source = json ? "ts.tsj" : "ts.tsx";
  fuzz_write_file(fuzz_path(source), data, size);
  uint32_t gids[NCELLS];
  layer_gids(gids);
  size_t len;
  tilesat_error ex, ej;
  char *text = tmx_map(source, gids, COLS, ROWS, &len);
  tilesat_grid *gx = read_map("map.tmx", text, len, &ex);
  text = tmj_map(source, gids, COLS, ROWS, &len);
  tilesat_grid *gj = read_map("map.tmj", text, len, &ej);
  FUZZ_CHECK(!gx == !gj, "the .tmx map %s, the .tmj map %s",
             gx ? "reads" : ex.msg, gj ? "reads" : ej.msg);
  if (gx) {
    same_cells(gx, gj);
    tileset_roundtrip(gx, json);
  } else {
    FUZZ_CHECK(!strcmp(ex.msg, ej.msg), "the .tmx map: %s; the .tmj map: %s",
               ex.msg, ej.msg);
  }
  tilesat_grid_free(gx);
  tilesat_grid_free(gj);
  return 0;
}
