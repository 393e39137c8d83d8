/* gen/gen.h: energies, annealing, SAT clean-up of annealed maps, QUBO. */
#ifndef TILESAT_GEN_H
#define TILESAT_GEN_H

#include "sat/sat.h"

/* ---------------------------------------------------------------- energy */

/* A bias line: `weight` for `tile` on the cells of a region. */
typedef enum ts_region_kind {
  TS_REGION_ALL,
  TS_REGION_BORDER,
  TS_REGION_INTERIOR,
  TS_REGION_RECT, /* rows r0..r1, columns c0..c1, inclusive */
} ts_region_kind;

/* Where a term was given, for the errors found only when the terms meet the
 * map (tilesat_energy_prepare): a file's line, or an option (line 0). */
typedef struct ts_origin {
  const char *file; /* owned by the energy's `files` */
  long line;
} ts_origin;

typedef struct ts_bias {
  int tile;
  double weight;
  ts_region_kind kind;
  int r0, c0, r1, c1;
  ts_origin at;
} ts_bias;

#define TS_MAX_REGIONS 256

struct tilesat_energy {
  const tilesat_map *map;
  int ntiles, ndirs;
  bool prepared;
  /* weights as given; hard < 0 means "the default" until prepared */
  double hard, frequency, palindrome, onehot;
  double *coherence;        /* J per tile */
  int64_t *explicit_target; /* -1: from the weights */
  bool exact;
  TS_VEC(ts_bias) biases;
  TS_VEC(char *) files; /* the names of the files and options read */
  ts_origin palindrome_at, target_at, counts_at; /* the last such line */
  /* prepared */
  int64_t *target; /* ntiles */
  int64_t *pinned; /* pinned cells per tile */
  uint8_t *region; /* per cell: index into region_bias */
  int nregions;
  double *region_bias; /* [nregions][ntiles] */
  int8_t *pin_of;      /* per cell: 1 if pinned */
  int *pin_tile;       /* per cell: the pinned tile or -1 */
  bool hard_default;   /* the hard weight is the default (not given) */
  double soft_scale;   /* largest single-cell soft change near the targets */
  int nforward;        /* forward directions (ts_forward_dirs) */
  int forward[TS_MAX_FORWARD];
};

/* Cost of tile a next to tile b in direction d (hard + coherence). */
static inline double ts_pair_cost(const tilesat_energy *e, int a, int d,
                                  int b) {
  double c = ts_bit(ts_allowed(e->map->rules, a, d), b) ? 0 : e->hard;
  if (a == b)
    c -= e->coherence[a];
  return c;
}
/* The palindrome score of row or column `line` (0..height-1 rows, then
 * columns) of a filled map; buf holds max(width, height) ints. */
long ts_line_score(const tilesat_energy *e, const int *tiles, int line,
                   int *buf);

/* Clean up the violations of a filled map with the SAT backend (cleanup.c):
 * the violating cells and a margin around them, every other cell pinned;
 * fills the clean-up fields of `st`.  Returns 0 or -1 on error. */
int ts_anneal_cleanup(const tilesat_energy *e, const tilesat_solve_options *so,
                      int *tiles, tilesat_anneal_stats *st, tilesat_error *err);

#endif
