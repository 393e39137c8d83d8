/* fuzz_grid.c: text sample grids (character grids and name grids); what
 * parses is extracted (square and hex, plain and wrapping), its rules
 * written and read back, and the grid written as a map
 * (tilesat_map_write) and read back the same. */
#include "fuzz.h"

#include <stdbool.h>
#include <string.h>

/* The grid as a map of its own rules, written and read back. */
static void map_roundtrip(const tilesat_grid *g, const tilesat_rules *r) {
  tilesat_error err;
  int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
  tilesat_map *m = tilesat_map_new(r, w, h, TILESAT_SQUARE, false, &err);
  if (!m)
    return;
  int *tiles = fuzz_grid_tiles(g, r);
  char why[256];
  FUZZ_CHECK(tiles && tilesat_map_verify(m, tiles, why, sizeof why),
             "a sample breaks its own rules: %s", why);
  char *text;
  size_t len;
  FILE *f = fuzz_memory(&text, &len);
  FUZZ_CHECK(tilesat_map_write(m, tiles, f) == 0, "tilesat_map_write failed");
  fclose(f);
  tilesat_grid *back = tilesat_grid_parse(text, len, "written", &err);
  FUZZ_CHECK(back != NULL, "a written map does not read back: %s\n%s", err.msg,
             text);
  FUZZ_CHECK(tilesat_grid_width(back) == w && tilesat_grid_height(back) == h,
             "%dx%d read back as %dx%d", w, h, tilesat_grid_width(back),
             tilesat_grid_height(back));
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++)
      FUZZ_CHECK(!strcmp(tilesat_grid_at(g, row, col),
                         tilesat_grid_at(back, row, col)),
                 "(%d, %d) '%s' read back as '%s'", row, col,
                 tilesat_grid_at(g, row, col), tilesat_grid_at(back, row, col));
  tilesat_grid_free(back);
  free(text);
  free(tiles);
  tilesat_map_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilesat_error err;
  tilesat_grid *g =
      tilesat_grid_parse((const char *)data, size, "fuzz.txt", &err);
  if (!g)
    return 0;
  const tilesat_grid *one[1] = {g};
  for (int k = 0; k < 4; k++) {
    tilesat_rules *r =
        tilesat_extract(one, 1, (tilesat_topology)(k & 1), k >= 2, &err);
    if (!r)
      continue;
    fuzz_rules_roundtrip(r);
    if (k == 0)
      map_roundtrip(g, r);
    tilesat_rules_free(r);
  }
  tilesat_grid_free(g);
  return 0;
}
