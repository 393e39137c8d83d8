/* topology.c: who neighbours whom on square and hex (odd-r) maps. */
#include "core/core.h"

#include <string.h>

static const char *const square_names[] = {"N", "E", "S", "W"};
static const int square_opp[] = {2, 3, 0, 1};
static const int square_dr[] = {-1, 0, 1, 0};
static const int square_dc[] = {0, 1, 0, -1};
static const bool square_forward[] = {false, true, true, false}; /* E S */

/* Hex, pointy-top, odd-r: odd rows sit half a cell to the right, so the
 * column offset of a diagonal step depends on the row's parity. */
static const char *const hex_names[] = {"E", "W", "NE", "NW", "SE", "SW"};
static const int hex_opp[] = {1, 0, 5, 4, 3, 2};
static const int hex_dr[] = {0, 0, -1, -1, 1, 1};
static const int hex_dc_even[] = {1, -1, 0, -1, 0, -1};
static const int hex_dc_odd[] = {1, -1, 1, 0, 1, 0};
static const bool hex_forward[] = {true, false, false, false, true, true};
/* forward: E SE SW */

static void check_dir(const char *func, tilesat_topology topo, int dir) {
  if (dir < 0 || dir >= tilesat_topology_ndirs(topo))
    ts_misuse(func, "direction out of range");
}

int tilesat_topology_ndirs(tilesat_topology topo) {
  return topo == TILESAT_HEX ? 6 : 4;
}

const char *tilesat_dir_name(tilesat_topology topo, int dir) {
  check_dir(__func__, topo, dir);
  return topo == TILESAT_HEX ? hex_names[dir] : square_names[dir];
}

int tilesat_dir_opposite(tilesat_topology topo, int dir) {
  check_dir(__func__, topo, dir);
  return topo == TILESAT_HEX ? hex_opp[dir] : square_opp[dir];
}

int tilesat_dir_find(tilesat_topology topo, const char *name) {
  for (int d = 0; d < tilesat_topology_ndirs(topo); d++)
    if (!strcmp(name, tilesat_dir_name(topo, d)))
      return d;
  return -1;
}

const char *tilesat_topology_name(tilesat_topology topo) {
  return topo == TILESAT_HEX ? "hex" : "square";
}

int tilesat_topology_parse(const char *name, tilesat_topology *out) {
  if (!strcmp(name, "square"))
    *out = TILESAT_SQUARE;
  else if (!strcmp(name, "hex"))
    *out = TILESAT_HEX;
  else
    return -1;
  return 0;
}

bool tilesat_neighbor(tilesat_topology topo, int width, int height,
                      bool periodic, int row, int col, int dir, int *nrow,
                      int *ncol) {
  check_dir(__func__, topo, dir);
  int r, c;
  if (topo == TILESAT_HEX) {
    r = row + hex_dr[dir];
    c = col + ((row & 1) ? hex_dc_odd : hex_dc_even)[dir];
  } else {
    r = row + square_dr[dir];
    c = col + square_dc[dir];
  }
  if (periodic) {
    r = ((r % height) + height) % height;
    c = ((c % width) + width) % width;
  } else if (r < 0 || r >= height || c < 0 || c >= width) {
    return false;
  }
  *nrow = r;
  *ncol = c;
  return true;
}

int ts_map_neighbor(const tilesat_map *m, int cell, int d) {
  int r, c;
  if (ts_masked(m, cell) ||
      !tilesat_neighbor(m->topo, m->width, m->height, m->periodic,
                        cell / m->width, cell % m->width, d, &r, &c) ||
      ts_masked(m, r * m->width + c))
    return -1;
  return r * m->width + c;
}

bool ts_dir_forward(tilesat_topology topo, int d) {
  return topo == TILESAT_HEX ? hex_forward[d] : square_forward[d];
}

int ts_forward_dirs(tilesat_topology topo, int out[TS_MAX_FORWARD]) {
  int n = 0;
  for (int d = 0; d < tilesat_topology_ndirs(topo); d++)
    if (ts_dir_forward(topo, d))
      out[n++] = d;
  return n;
}

int ts_edge_index(const tilesat_map *m, int cell, int d) {
  if (!ts_dir_forward(m->topo, d)) {
    cell = ts_map_neighbor(m, cell, d);
    d = tilesat_dir_opposite(m->topo, d);
  }
  return cell * tilesat_topology_ndirs(m->topo) + d;
}
