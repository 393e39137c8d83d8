/* cmd_verify.c: tilesat verify RULES MAP: does a finished map (a text
 * grid, a Tiled map, or a PNG drawn with the rules' pictures) keep the
 * rules, and the global constraints given?  VALID (exit 10), or INVALID
 * and every pair of neighbouring cells that breaks them, or the first
 * global constraint it breaks (exit 20). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The grid's cells as tile indices; -1 and a message for a cell that is
 * not a tile of the rules. */
static int *tiles_of(const tilesat_grid *g, const tilesat_rules *r) {
  int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
  int *tiles = malloc((size_t)w * (size_t)h * sizeof *tiles);
  for (int c = 0; tiles && c < w * h; c++) {
    const char *name = tilesat_grid_at(g, c / w, c % w);
    tiles[c] = name ? tilesat_rules_find_tile(r, name) : -1;
    if (tiles[c] < 0) {
      if (name)
        fail("%s: (%d,%d) holds \"%s\", a tile the rules do not have",
             tilesat_grid_filename(g), c / w, c % w, name);
      else
        fail("%s: (%d,%d) is empty: a map to verify has a tile in every cell",
             tilesat_grid_filename(g), c / w, c % w);
      free(tiles);
      return NULL;
    }
  }
  return tiles;
}

/* "north", "south-east", ...: a direction in words. */
static const char *dir_words(tilesat_topology topo, int d) {
  static const char *const abbr[] = {"N",  "E",  "S",  "W",
                                     "NE", "NW", "SE", "SW"};
  static const char *const words[] = {"north",      "east",       "south",
                                      "west",       "north-east", "north-west",
                                      "south-east", "south-west"};
  const char *name = tilesat_dir_name(topo, d);
  for (size_t i = 0; i < sizeof abbr / sizeof abbr[0]; i++)
    if (!strcmp(name, abbr[i]))
      return words[i];
  return name;
}

/* Every edge once: from each cell, the directions whose opposite comes
 * later in the topology's order. */
static long report(const tilesat_rules *r, tilesat_topology topo, bool per,
                   int w, int h, const int *tiles, bool print) {
  long bad = 0;
  for (int c = 0; c < w * h; c++)
    for (int d = 0; d < tilesat_topology_ndirs(topo); d++) {
      int nr, nc;
      if (tilesat_dir_opposite(topo, d) < d ||
          !tilesat_neighbor(topo, w, h, per, c / w, c % w, d, &nr, &nc))
        continue;
      int a = tiles[c], b = tiles[nr * w + nc];
      if (tilesat_rules_allows(r, a, d, b))
        continue;
      bad++;
      if (print)
        printf("(%d,%d) \"%s\" and its %s neighbour (%d,%d) \"%s\": not an "
               "allowed pair\n",
               c / w, c % w, tilesat_rules_tile_name(r, a), dir_words(topo, d),
               nr, nc, tilesat_rules_tile_name(r, b));
    }
  return bad;
}

/* The global constraints (--constraints and the shortcuts) on the map:
 * the first one it breaks into why (left empty when it keeps them all).
 * 0, or EXIT_ERROR (said) for constraints that do not fit the map. */
static int global_broken(const options *o, const tilesat_rules *r,
                         tilesat_topology topo, int w, int h, const int *tiles,
                         char *why, size_t whylen) {
  if (!o->constraints && !o->connected.n && !o->path.n && !o->count_of.n &&
      !o->border.n)
    return 0;
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, w, h, topo, o->periodic, &err);
  int rc = m ? load_constraints(o, m) : fail_err(&err);
  if (!rc && tilesat_map_verify(m, tiles, why, whylen))
    why[0] = 0;
  tilesat_map_free(m);
  return rc;
}

int cmd_verify(options *o) {
  if (o->args.n != 2) {
    fail("verify takes a rules file and a map (see 'tilesat verify --help')");
    return EXIT_ERROR;
  }
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!r)
    return fail_err(&err);
  tilesat_grid *g = read_map_file(o, o->args.v[1], &err);
  int rc = g ? 0 : fail_err(&err);
  int *tiles = rc ? NULL : tiles_of(g, r);
  if (!rc && !tiles)
    rc = EXIT_ERROR;
  if (!rc) {
    tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
    int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
    long bad = report(r, topo, o->periodic, w, h, tiles, false);
    char why[1024] = "";
    if (!bad)
      rc = global_broken(o, r, topo, w, h, tiles, why, sizeof why);
    if (!rc) {
      stop_hold(); /* the report whole */
      if (bad)
        printf("INVALID: %ld %s of neighbouring cells %s the rules\n", bad,
               bad == 1 ? "pair" : "pairs", bad == 1 ? "breaks" : "break");
      else if (why[0])
        printf("INVALID: %s\n", why);
      else
        printf("VALID\n");
      report(r, topo, o->periodic, w, h, tiles, true);
      stop_release();
      rc = bad || why[0] ? TILESAT_UNSAT : TILESAT_SAT;
    }
  }
  free(tiles);
  tilesat_grid_free(g);
  tilesat_rules_free(r);
  return rc;
}
