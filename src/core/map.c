/* map.c: a map to fill (rules, size, topology, pins) and the independent
 * checker of filled maps.  The checker reads the rules and the topology
 * directly, never the CNF encoder, so a witness the solver returns is
 * checked by a second, much simpler, piece of code. */
#include "core/core.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static tilesat_map *map_new(const tilesat_rules *r, int width, int height,
                            tilesat_topology topo, bool periodic, bool large,
                            tilesat_error *err) {
  if (!r)
    ts_misuse(__func__, "NULL rules");
  if (width <= 0 || height <= 0) {
    ts_error_param(err, "size", "width and height must be positive");
    return NULL;
  }
  if (tilesat_topology_ndirs(topo) != r->ndirs) {
    ts_error_param(
        err, "topology",
        "the rules are for a %s grid and cannot be used on a %s grid",
        tilesat_topology_name(r->topo), tilesat_topology_name(topo));
    return NULL;
  }
  uint64_t cells = (uint64_t)width * (uint64_t)height;
  if (large && cells > TILESAT_MAX_MODIFY_CELLS) {
    ts_error_param(
        err, "size",
        "%dx%d is too large (at most %d cells, even with --guard modify)",
        width, height, TILESAT_MAX_MODIFY_CELLS);
    return NULL;
  }
  if (!large && cells * (uint64_t)r->ntiles > TILESAT_MAX_CELL_TILES) {
    ts_error_param(
        err, "size",
        "%dx%d with %d tiles is too large (at most %d cells times tiles)",
        width, height, r->ntiles, TILESAT_MAX_CELL_TILES);
    return NULL;
  }
  if (topo == TILESAT_HEX && periodic && height % 2) {
    ts_error_param(err, "periodic",
                   "a periodic hex map needs an even height (odd-r rows "
                   "alternate), not %d",
                   height);
    return NULL;
  }
  tilesat_map *m = ts_calloc(1, sizeof *m);
  m->rules = r;
  m->topo = topo;
  m->periodic = periodic;
  m->width = width;
  m->height = height;
  m->ncells = width * height;
  m->max_memory = tilesat_default_max_memory();
  return m;
}

tilesat_map *tilesat_map_new(const tilesat_rules *r, int width, int height,
                             tilesat_topology topo, bool periodic,
                             tilesat_error *err) {
  return map_new(r, width, height, topo, periodic, false, err);
}

tilesat_map *tilesat_map_new_large(const tilesat_rules *r, int width,
                                   int height, tilesat_topology topo,
                                   bool periodic, tilesat_error *err) {
  return map_new(r, width, height, topo, periodic, true, err);
}

bool ts_map_large(const tilesat_map *m) {
  return (uint64_t)m->ncells * (uint64_t)m->rules->ntiles >
         TILESAT_MAX_CELL_TILES;
}

int ts_map_refuse_large(const tilesat_map *m, const char *what,
                        tilesat_error *err) {
  if (!ts_map_large(m))
    return 0;
  ts_error(err, what, 0,
           "%dx%d with %d tiles is too large for the whole map (at most %d "
           "cells times tiles); only collapse --guard modify goes past it",
           m->width, m->height, m->rules->ntiles, TILESAT_MAX_CELL_TILES);
  return -1;
}

/* Bytes of the address space (field 0) or of data (field 5) in use, from
 * /proc/self/statm; 0 when it cannot be read. */
static double in_use(int field) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long v[7] = {0};
  int n = f ? fscanf(f, "%lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2],
                     &v[3], &v[4], &v[5], &v[6])
            : 0;
  if (f)
    fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return n == 7 && page > 0 ? (double)v[field] * (double)page : 0;
}

/* What a limit (RLIMIT_AS, RLIMIT_DATA) leaves beyond `used`: a bound, or
 * `bound` as it was when the limit is not set. */
static double within_limit(double bound, int resource, double used) {
  struct rlimit rl;
  if (getrlimit(resource, &rl) || rl.rlim_cur == RLIM_INFINITY)
    return bound;
  double left = (double)rl.rlim_cur - used;
  left = left > 0 ? left : 0;
  return left < bound ? left : bound;
}

static size_t default_bound;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void measure_default(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  double bound = pages <= 0 || page <= 0 ? (double)((size_t)4 << 30)
                                         : (double)pages * (double)page / 2;
  bound = within_limit(bound, RLIMIT_AS, in_use(0));
  bound = within_limit(bound, RLIMIT_DATA, in_use(5));
  default_bound = bound > (double)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)bound;
}

size_t tilesat_default_max_memory(void) {
  pthread_once(&default_once, measure_default);
  return default_bound;
}

void tilesat_map_set_max_memory(tilesat_map *m, size_t bytes) {
  m->max_memory = bytes;
}

void tilesat_map_free(tilesat_map *m) {
  if (!m)
    return;
  free(m->pins.v);
  free(m->bans.v);
  free(m->masked);
  ts_globals_free(m);
  free(m);
}

void tilesat_map_get(const tilesat_map *m, tilesat_map_info *info) {
  if (!m || !info)
    ts_misuse(__func__, "NULL argument");
  *info = (tilesat_map_info){
      .rules = m->rules,
      .width = m->width,
      .height = m->height,
      .topo = m->topo,
      .periodic = m->periodic,
      .large = ts_map_large(m),
      .npins = (int)m->pins.n,
      .nbans = (int)m->bans.n,
      .nmasked = m->nmasked,
      .nglobals = (int)m->globals.n,
      .max_memory = m->max_memory,
  };
}

void tilesat_map_pin_get(const tilesat_map *m, int i, int *cell, int *tile) {
  if (!m || !cell || !tile)
    ts_misuse(__func__, "NULL argument");
  if (i < 0 || (size_t)i >= m->pins.n)
    ts_misuse(__func__, "no such pin");
  *cell = m->pins.v[i].cell;
  *tile = m->pins.v[i].tile;
}

/* A pin of a cell that is part of the map. */
static int push_pin(tilesat_map *m, int cell, int tile, tilesat_error *err) {
  if (ts_masked(m, cell)) {
    ts_error_param(err, "pin", "cell (%d,%d) is masked: not part of the map",
                   cell / m->width, cell % m->width);
    return -1;
  }
  ts_pin p = {cell, tile};
  TS_PUSH(m->pins, p);
  return 0;
}

/* A cell outside the map, said with what cells are (ROW,COL and their
 * ranges) and, when the swapped cell is inside, that one. */
static void outside(const tilesat_map *m, const char *what, int row, int col,
                    tilesat_error *err) {
  char swap[64] = "";
  if (!strncmp(what, "--", 2)) /* (a caller's option: the parameter is its
                                  name, said back as the option) */
    what += 2;
  if (col >= 0 && col < m->height && row >= 0 && row < m->width)
    snprintf(swap, sizeof swap, " (did you mean %d,%d?)", col, row);
  ts_error_param(err, what,
                 "cell (%d,%d) is outside the %dx%d map: a cell is ROW,COL, "
                 "rows 0-%d and columns 0-%d%s",
                 row, col, m->width, m->height, m->height - 1, m->width - 1,
                 swap);
}

int tilesat_map_pin(tilesat_map *m, int row, int col, const char *tile,
                    tilesat_error *err) {
  if (row < 0 || row >= m->height || col < 0 || col >= m->width) {
    outside(m, "pin", row, col, err);
    return -1;
  }
  int t = tilesat_rules_find_tile(m->rules, tile);
  if (t < 0) {
    char hint[TS_HINT];
    ts_names_hint(&m->rules->names, tile, "tiles", hint, sizeof hint);
    ts_error_param(err, "pin", "unknown tile '%s'%s", tile, hint);
    return -1;
  }
  return push_pin(m, row * m->width + col, t, err);
}

int tilesat_map_mask(tilesat_map *m, int row, int col, tilesat_error *err) {
  if (row < 0 || row >= m->height || col < 0 || col >= m->width) {
    outside(m, "mask", row, col, err);
    return -1;
  }
  int cell = row * m->width + col;
  for (size_t i = 0; i < m->pins.n; i++)
    if (m->pins.v[i].cell == cell) {
      ts_error_param(err, "mask",
                     "cell (%d,%d) is pinned: it is part of the map", row, col);
      return -1;
    }
  if (!m->masked)
    m->masked = ts_calloc((size_t)m->ncells, 1);
  m->nmasked += !m->masked[cell];
  m->masked[cell] = 1;
  return 0;
}

bool tilesat_map_masked(const tilesat_map *m, int row, int col) {
  if (row < 0 || row >= m->height || col < 0 || col >= m->width)
    ts_misuse(__func__, "cell outside the map");
  return ts_masked(m, row * m->width + col);
}

int tilesat_map_ban(tilesat_map *m, int row, int col, int tile,
                    tilesat_error *err) {
  if (!m || tile < 0 || tile >= m->rules->ntiles)
    ts_misuse(__func__, "NULL map, or tile out of range");
  if (row < 0 || row >= m->height || col < 0 || col >= m->width) {
    ts_error(err, "ban", 0, "cell (%d,%d) is outside the %dx%d map", row, col,
             m->width, m->height);
    return -1;
  }
  ts_pin p = {row * m->width + col, tile};
  TS_PUSH(m->bans, p);
  return 0;
}

/* A whole decimal number in [0, INT_MAX]; *end after its digits. */
static bool parse_int(const char *s, const char **end, int *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *e;
  long v = strtol(s, &e, 10);
  if (errno == ERANGE || v > INT_MAX)
    return false;
  *out = (int)v;
  *end = e;
  return true;
}

int tilesat_parse_size(const char *s, int *width, int *height,
                       tilesat_error *err) {
  const char *p;
  if (!parse_int(s, &p, width) || *p != 'x' || !parse_int(p + 1, &p, height) ||
      *p) {
    ts_error_param(
        err, "size",
        "'%s' is not WIDTHxHEIGHT with whole numbers that fit an int "
        "(e.g. 10x8)",
        s);
    return -1;
  }
  if (*width == 0 || *height == 0) {
    ts_error_param(err, "size", "'%s': width and height must be positive", s);
    return -1;
  }
  return 0;
}

/* What an unknown tile in ROW,COL=TILE may have meant: a name in the rules
 * file's double quotes is written without them (the shell's quotes keep
 * its spaces); else the names near it. */
static void cell_tile_hint(const tilesat_map *m, const char *spec,
                           const char *name, const char *what, char *hint,
                           size_t size) {
  size_t n = strlen(name);
  if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
    char *inner = ts_strndup(name + 1, n - 2);
    bool known = tilesat_rules_find_tile(m->rules, inner) >= 0;
    if (known)
      snprintf(hint, size, " (without the rules file's quotes: %s '%.*s%s')",
               what, (int)(name - spec), spec, inner);
    free(inner);
    if (known)
      return;
  }
  ts_names_hint(&m->rules->names, name, "tiles", hint, size);
}

int tilesat_map_parse_cell(const tilesat_map *m, const char *spec,
                           const char *what, int *row, int *col, int *tile,
                           tilesat_error *err) {
  const char *p;
  if (!parse_int(spec, &p, row) || *p != ',' || !parse_int(p + 1, &p, col) ||
      *p != '=' || !p[1]) {
    ts_error(err, what, 0, "'%s' is not ROW,COL=TILE", spec);
    return -1;
  }
  if (*row >= m->height || *col >= m->width) {
    outside(m, what, *row, *col, err);
    return -1;
  }
  *tile = tilesat_rules_find_tile(m->rules, p + 1);
  if (*tile < 0) {
    char hint[TS_HINT];
    cell_tile_hint(m, spec, p + 1, what, hint, sizeof hint);
    ts_error(err, what, 0, "unknown tile '%s'%s", p + 1, hint);
    return -1;
  }
  return 0;
}

int tilesat_map_pin_spec(tilesat_map *m, const char *spec, tilesat_error *err) {
  int row, col, tile;
  if (tilesat_map_parse_cell(m, spec, "pin", &row, &col, &tile, err)) {
    ts_error_mark_param(err, "pin");
    return -1;
  }
  return push_pin(m, row * m->width + col, tile, err);
}

bool tilesat_map_verify(const tilesat_map *m, const int *tiles, char *why,
                        size_t whylen) {
  const tilesat_rules *r = m->rules;
  char dummy[1];
  if (!why) {
    why = dummy;
    whylen = sizeof dummy;
  }
  for (int cell = 0; cell < m->ncells; cell++)
    if (ts_masked(m, cell) ? tiles[cell] != TILESAT_NO_TILE
                           : tiles[cell] < 0 || tiles[cell] >= r->ntiles) {
      snprintf(why, whylen,
               ts_masked(m, cell) ? "cell (%d,%d) is masked but holds a tile"
                                  : "cell (%d,%d) holds no tile",
               cell / m->width, cell % m->width);
      return false;
    }
  for (size_t i = 0; i < m->pins.n; i++) {
    ts_pin p = m->pins.v[i];
    if (tiles[p.cell] != p.tile) {
      snprintf(why, whylen, "cell (%d,%d) holds %s but is pinned to %s",
               p.cell / m->width, p.cell % m->width,
               r->names.v.v[tiles[p.cell]], r->names.v.v[p.tile]);
      return false;
    }
  }
  for (size_t i = 0; i < m->bans.n; i++) {
    ts_pin p = m->bans.v[i];
    if (tiles[p.cell] == p.tile) {
      snprintf(why, whylen, "cell (%d,%d) holds %s, which is banned there",
               p.cell / m->width, p.cell % m->width, r->names.v.v[p.tile]);
      return false;
    }
  }
  for (int row = 0; row < m->height; row++)
    for (int col = 0; col < m->width; col++)
      for (int d = 0; d < r->ndirs; d++) {
        int nr, nc; /* the adjacency stops at masked cells */
        if (ts_masked(m, row * m->width + col) ||
            !tilesat_neighbor(m->topo, m->width, m->height, m->periodic, row,
                              col, d, &nr, &nc) ||
            ts_masked(m, nr * m->width + nc))
          continue;
        int a = tiles[row * m->width + col], b = tiles[nr * m->width + nc];
        if (!tilesat_rules_allows(r, a, d, b)) {
          snprintf(why, whylen,
                   "%s at (%d,%d) does not allow %s to its %s at (%d,%d)",
                   r->names.v.v[a], row, col, r->names.v.v[b],
                   tilesat_dir_name(m->topo, d), nr, nc);
          return false;
        }
      }
  return ts_globals_verify(m, tiles, why, whylen);
}
