/* own_check.h: the tests' own reading of the global constraints (count,
 * connected, path, border), masks and pins: their own flood fill over
 * brute_count's own neighbour geometry, their own counting, never the
 * library's encoder or checker (test_global.c, test_agree.c). */
#ifndef TILESAT_TEST_OWN_CHECK_H
#define TILESAT_TEST_OWN_CHECK_H

#include "helpers.h"

/* One global constraint as the test reads it. */
typedef struct spec {
  tilesat_global_kind kind;
  bool in[16]; /* the class */
  int cmp, k;  /* count: 0 at most, 1 at least, 2 exactly */
  int r0, c0, r1, c1;
  bool nonempty;
  int at; /* connected: a cell in the region, or -1 */
  int cells[3], ncells;
  bool side[4]; /* n e s w */
  tilesat_topology topo;
  int w, h;
  bool periodic;
} spec;

/* The regions of the class cells: comp[c] the region or -1; how many. */
int own_regions(const spec *s, const int *tiles, int *comp);
/* Does the filled map keep constraint `user` (a spec)? */
bool keeps(void *user, const int *tiles);
/* keeps() on a map whose masked cells hold TILESAT_NO_TILE. */
bool keeps_masked(void *user, const int *tiles);
/* The class as a constraints file writes it ("a,c"; tiles named a, b, ...). */
void class_word(const spec *s, int T, char *out);
/* A random constraint over T tiles on s's map (s->topo, w, h, periodic set)
 * and its constraints-file line. */
void random_spec(spec *s, int T, char *line, size_t size);

/* A whole problem as the test reads it: the map, masked cells, pins and
 * up to 3 global constraints. */
#define OWN_MAX_CELLS 16
typedef struct own_map {
  tilesat_topology topo;
  int w, h;
  bool periodic;
  bool masked[OWN_MAX_CELLS];
  int pin[OWN_MAX_CELLS]; /* the pinned tile, or -1 */
  spec specs[3];
  int nspecs;
} own_map;
/* Is `tiles` (TILESAT_NO_TILE on masked cells) a valid map of o under r:
 * masks, pins, every allowed pair between cells of the map, every spec? */
bool own_valid(const tilesat_rules *r, const own_map *o, const int *tiles);
/* How many valid maps, by trying every filling of the cells. */
long own_count(const tilesat_rules *r, const own_map *o);

#endif
