/* common.c: the harnesses' shared helpers (fuzz.h): a private temporary
 * folder, memory streams, the rules round trip and the Tiled harness. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "fuzz.h"

#include <ftw.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

const char fuzz_coast[] = "tilesat-rules 1\n"
                          "topology square\n"
                          "tile L 57\ntile C 10\ntile S 33\n"
                          "allow L N L\nallow L E L C\nallow L S L C\n"
                          "allow L W L C\nallow C N L\nallow C E L C S\n"
                          "allow C S S\nallow C W L C S\nallow S N C S\n"
                          "allow S E C S\nallow S S S\nallow S W C S\n";

static char folder[256];
static pid_t folder_owner;
static char paths[16][288];
static int npaths;

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* The folder and all it holds: the named paths and what the library
 * wrote beside them (a Tiled map's tiles picture). */
static void remove_folder(void) {
  if (getpid() == folder_owner) /* not a forked replay child */
    nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_path(const char *name) {
  if (!folder[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(folder, sizeof folder, "%s/tilesat-fuzz-XXXXXX",
             tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
    if (!mkdtemp(folder)) {
      perror("fuzz: mkdtemp");
      abort();
    }
    folder_owner = getpid();
    atexit(remove_folder);
  }
  for (int i = 0; i < npaths; i++)
    if (!strcmp(paths[i] + strlen(folder) + 1, name))
      return paths[i];
  FUZZ_CHECK(npaths < 16 && strlen(name) < 24, "too many temporary files");
  snprintf(paths[npaths], sizeof paths[npaths], "%s/%s", folder, name);
  return paths[npaths++];
}

void fuzz_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  FUZZ_CHECK(f != NULL, "cannot write %s", path);
  FUZZ_CHECK(fwrite(data, 1, size, f) == size && !fclose(f), "cannot write %s",
             path);
}

FILE *fuzz_memory(char **buf, size_t *len) {
  FILE *f = open_memstream(buf, len);
  FUZZ_CHECK(f != NULL, "open_memstream");
  return f;
}

void fuzz_rules_roundtrip(const tilesat_rules *r) {
  char *text;
  size_t len;
  FILE *f = fuzz_memory(&text, &len);
  FUZZ_CHECK(tilesat_rules_write(r, f) == 0, "tilesat_rules_write failed");
  fclose(f);
  tilesat_error err;
  tilesat_rules *back = tilesat_rules_parse(text, len, "written", &err);
  FUZZ_CHECK(back != NULL, "written rules do not read back: %s\n%s", err.msg,
             text);
  int n = tilesat_rules_ntiles(r);
  tilesat_topology topo = tilesat_rules_topology(r);
  FUZZ_CHECK(tilesat_rules_ntiles(back) == n, "%d tiles read back as %d", n,
             tilesat_rules_ntiles(back));
  FUZZ_CHECK(tilesat_rules_topology(back) == topo, "topology changed");
  for (int t = 0; t < n; t++) {
    FUZZ_CHECK(!strcmp(tilesat_rules_tile_name(r, t),
                       tilesat_rules_tile_name(back, t)),
               "tile %d '%s' read back as '%s'", t,
               tilesat_rules_tile_name(r, t), tilesat_rules_tile_name(back, t));
    FUZZ_CHECK(tilesat_rules_weight(r, t) == tilesat_rules_weight(back, t),
               "tile %d's weight changed", t);
  }
  int ndirs = tilesat_topology_ndirs(topo);
  for (int a = 0; a < n && n <= 512; a++)
    for (int d = 0; d < ndirs; d++)
      for (int b = 0; b < n; b++)
        FUZZ_CHECK(tilesat_rules_allows(r, a, d, b) ==
                       tilesat_rules_allows(back, a, d, b),
                   "pair %d %s %d changed", a, tilesat_dir_name(topo, d), b);
  tilesat_rules_free(back);
  free(text);
}

int *fuzz_grid_tiles(const tilesat_grid *g, const tilesat_rules *r) {
  int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  FUZZ_CHECK(tiles != NULL, "out of memory");
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++) {
      const char *name = tilesat_grid_at(g, row, col);
      if (!name) {
        free(tiles);
        return NULL;
      }
      int t = tilesat_rules_find_tile(r, name);
      FUZZ_CHECK(t >= 0, "cell (%d, %d) '%s' is not a tile of its rules", row,
                 col, name);
      tiles[row * w + col] = t;
    }
  return tiles;
}

/* Two grids have the same size and the same name in every cell. */
static void same_grid(const tilesat_grid *a, const tilesat_grid *b) {
  int w = tilesat_grid_width(a), h = tilesat_grid_height(a);
  FUZZ_CHECK(tilesat_grid_width(b) == w && tilesat_grid_height(b) == h,
             "%dx%d read back as %dx%d", w, h, tilesat_grid_width(b),
             tilesat_grid_height(b));
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++) {
      const char *x = tilesat_grid_at(a, row, col),
                 *y = tilesat_grid_at(b, row, col);
      FUZZ_CHECK(x && y && !strcmp(x, y), "(%d, %d) '%s' read back as '%s'",
                 row, col, x ? x : "(none)", y ? y : "(none)");
    }
}

/* Write grid g's map (its own ESTM rules) as a Tiled map and read it
 * back: the same names. */
static void tiled_roundtrip(const tilesat_grid *g, const char *ext) {
  tilesat_error err;
  const tilesat_grid *one[1] = {g};
  tilesat_rules *r = tilesat_extract(one, 1, TILESAT_SQUARE, false, &err);
  FUZZ_CHECK(r != NULL, "a grid read from a Tiled map does not extract: %s",
             err.msg);
  tilesat_map *m =
      tilesat_map_new(r, tilesat_grid_width(g), tilesat_grid_height(g),
                      TILESAT_SQUARE, false, &err);
  int *tiles = m ? fuzz_grid_tiles(g, r) : NULL;
  char name[16];
  snprintf(name, sizeof name, "out%s", ext);
  const char *out = fuzz_path(name);
  if (tiles) {
    FUZZ_CHECK(tilesat_tiled_write(m, tiles, NULL, out, &err) == 0,
               "tilesat_tiled_write failed: %s", err.msg);
    tilesat_grid *back =
        tilesat_tiled_read(out, NULL, TILESAT_EMPTY_TILE, &err);
    FUZZ_CHECK(back != NULL, "a written Tiled map does not read back: %s",
               err.msg);
    same_grid(g, back);
    tilesat_grid_free(back);
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The external tilesets a map may name (source="coast.tsx" or
 * "coast.tsj"), written beside it: coast's tiles as export-tileset writes
 * them, ids 0-2 (.tsx) and 0, 1 and 5 (.tsj). */
static const char coast_tsx[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<tileset version=\"1.8\" tiledversion=\"1.8.2\" name=\"coast\" "
    "tilewidth=\"8\" tileheight=\"8\" tilecount=\"3\" columns=\"2\">\n"
    " <image source=\"coast.png\" width=\"16\" height=\"16\"/>\n"
    " <tile id=\"0\"><properties><property name=\"tilesat\" value=\"L\"/>"
    "</properties></tile>\n"
    " <tile id=\"1\"><properties><property name=\"tilesat\" value=\"C\"/>"
    "</properties></tile>\n"
    " <tile id=\"2\"><properties><property name=\"tilesat\" value=\"S\"/>"
    "</properties></tile>\n"
    "</tileset>\n";
static const char coast_tsj[] =
    "{\"type\": \"tileset\", \"name\": \"coast\", \"tilewidth\": 8, "
    "\"tileheight\": 8, \"tilecount\": 6, \"columns\": 2,\n"
    " \"tiles\": [{\"id\": 0, \"properties\": [{\"name\": \"tilesat\", "
    "\"type\": \"string\", \"value\": \"L\"}]},\n"
    "  {\"id\": 1, \"properties\": [{\"name\": \"tilesat\", "
    "\"type\": \"string\", \"value\": \"C\"}]},\n"
    "  {\"id\": 5, \"properties\": [{\"name\": \"tilesat\", "
    "\"type\": \"string\", \"value\": \"S\"}]}]}\n";

int fuzz_tiled(const uint8_t *data, size_t size, const char *ext) {
  static bool ready;
  if (!ready) {
    fuzz_write_file(fuzz_path("coast.tsx"), coast_tsx, sizeof coast_tsx - 1);
    fuzz_write_file(fuzz_path("coast.tsj"), coast_tsj, sizeof coast_tsj - 1);
    ready = true;
  }
  char name[16];
  snprintf(name, sizeof name, "in%s", ext);
  const char *in = fuzz_path(name);
  fuzz_write_file(in, data, size);
  tilesat_error err;
  tilesat_grid *ex = tilesat_tiled_read(in, NULL, TILESAT_EMPTY_EXCLUDE, &err);
  tilesat_grid_free(ex);
  tilesat_grid *g = tilesat_tiled_read(in, NULL, TILESAT_EMPTY_TILE, &err);
  if (!g)
    return 0;
  /* a layer by name (the second layer of tests/data's maps) */
  tilesat_grid_free(tilesat_tiled_read(in, "other", TILESAT_EMPTY_TILE, &err));
  if ((size_t)tilesat_grid_width(g) * (size_t)tilesat_grid_height(g) <= 4096)
    tiled_roundtrip(g, ext);
  tilesat_grid_free(g);
  return 0;
}
