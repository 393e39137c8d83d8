/* collapse on mxgmn's own inputs, at the sizes and settings of his
 * samples.xml: the four simple-tiled tilesets and six overlapping-model
 * samples.  Every map a plain run makes passes a checker written here
 * (each pair of neighbours looked up in the rules, both ways, wrapping as
 * the map does), independent of tilesat_map_verify. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* Does every pair of neighbouring cells of tiles (w x h) stand as the
 * rules allow?  Square: N E S W = 0 1 2 3. */
static bool valid_by_hand(const tilesat_rules *r, const int *tiles, int w,
                          int h, bool periodic) {
  static const int dr[] = {-1, 0, 1, 0}, dc[] = {0, 1, 0, -1};
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++)
      for (int d = 0; d < 4; d++) {
        int nr = row + dr[d], nc = col + dc[d];
        if (periodic) {
          nr = (nr + h) % h;
          nc = (nc + w) % w;
        } else if (nr < 0 || nc < 0 || nr >= h || nc >= w)
          continue;
        if (!tilesat_rules_allows(r, tiles[row * w + col], d,
                                  tiles[nr * w + nc]))
          return false;
      }
  return true;
}

/* Plain runs from seed 1 until one succeeds (at most `runs`): its map is
 * checked by hand.  Returns the successes' seed, or 0. */
static uint64_t collapse_checked(const tilesat_rules *r, int w, int h,
                                 bool periodic, tilesat_heuristic heur,
                                 int runs) {
  tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, periodic);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.heuristic = heur;
  uint64_t found = 0;
  for (int s = 1; s <= runs && !found; s++) {
    o.seed = (uint64_t)s;
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    cr_assert(res == TILESAT_SAT || res == TILESAT_UNKNOWN, "%s", err.msg);
    if (res == TILESAT_SAT) {
      cr_expect(valid_by_hand(r, tiles, w, h, periodic),
                "seed %d: the collapsed map breaks the rules", s);
      found = (uint64_t)s;
    }
  }
  free(tiles);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  return found;
}

/* <simpletiled name subset size periodic heuristic> of samples.xml. */
Test(collapse_samples, the_four_tilesets) {
  const struct {
    const char *name, *subset;
    int size;
    bool periodic;
    tilesat_heuristic heur;
  } cases[] = {
      {"Knots", "Standard", 24, true, TILESAT_HEURISTIC_ENTROPY},
      {"Knots", "Crossless", 24, false, TILESAT_HEURISTIC_ENTROPY},
      {"Castle", NULL, 50, false, TILESAT_HEURISTIC_SCANLINE},
      {"Rooms", NULL, 30, false, TILESAT_HEURISTIC_ENTROPY},
      {"Circuit", "Turnless", 34, true, TILESAT_HEURISTIC_ENTROPY},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[128];
    snprintf(path, sizeof path, "tests/data/wfc/tilesets/%s.xml",
             cases[i].name);
    tilesat_error err;
    tilesat_rules *r =
        tilesat_import_tileset(path, cases[i].subset, NULL, &err);
    cr_assert(r, "%s", err.msg);
    cr_expect(collapse_checked(r, cases[i].size, cases[i].size,
                               cases[i].periodic, cases[i].heur, 200),
              "%s %s: no plain run in 200 succeeded", cases[i].name,
              cases[i].subset ? cases[i].subset : "");
    tilesat_rules_free(r);
  }
}

/* <overlapping name N symmetry periodic> of samples.xml, at the
 * reference's default size 48, symmetry 8 where the entry gives none. */
Test(collapse_samples, six_overlapping_samples) {
  const struct {
    const char *name;
    int n, symmetry;
    bool periodic;
  } cases[] = {
      {"Chess", 2, 8, true},       {"Knot", 3, 8, true},
      {"LessRooms", 3, 8, true},   {"Village", 3, 2, true},
      {"SimpleMaze", 2, 8, false}, {"Rooms", 3, 8, true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[128];
    snprintf(path, sizeof path, "tests/data/wfc/samples/%s.png", cases[i].name);
    tilesat_error err;
    tilesat_image *img = tilesat_image_read_png(path, &err);
    cr_assert(img, "%s", err.msg);
    const tilesat_image *imgs[] = {img};
    tilesat_rules *r = tilesat_extract_patterns(imgs, 1, cases[i].n, true,
                                                cases[i].symmetry, NULL, &err);
    cr_assert(r, "%s: %s", cases[i].name, err.msg);
    cr_expect(collapse_checked(r, 48, 48, cases[i].periodic,
                               TILESAT_HEURISTIC_ENTROPY, 50),
              "%s: no plain run in 50 succeeded", cases[i].name);
    tilesat_rules_free(r);
    tilesat_image_free(img);
  }
}
