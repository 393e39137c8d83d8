/* gen/collapse_internal.h: the collapser's state (collapse.c), shared with
 * the code that explains its failed runs (collapse_explain.c). */
#ifndef TILESAT_GEN_COLLAPSE_INTERNAL_H
#define TILESAT_GEN_COLLAPSE_INTERNAL_H

#include "core/rng.h"
#include "gen/gen.h"

typedef struct pair {
  int cell, tile;
} pair;

struct tilesat_collapse {
  const tilesat_map *m;
  int T, D, N;
  int *nbr;          /* [cell][dir]: neighbour or -1 */
  int *opp;          /* [dir]: the opposite direction */
  int **supp_list;   /* [dir][tile]: tiles allowed in dir of tile */
  int *supp_len;     /* [dir][tile] */
  uint16_t *support; /* [cell][tile][dir] */
  uint8_t *possible; /* [cell][tile] */
  int *count;        /* [cell]: possible tiles */
  double *sum_w, *sum_wlogw, *entropy; /* [cell] */
  double *w, *wlogw;                   /* [tile] */
  TS_VEC(pair) stack;
  TS_VEC(pair) choices;
  int contradiction; /* the cell left empty, or -1 */
  int scan;          /* scanline: no undecided cell before this one */
  ts_rng rng;
  /* the guard, made at the first guarded run */
  ts_solver *solver;
  tilesat_solve_options solve; /* what the solver was made with */
  int *model;                  /* [cell]: a completion of the choices so far */
  ts_ints assumed;             /* the choices as literals */
  long banned, calls;          /* of the last run */
  /* why the last run failed (tilesat_collapse_explain) */
  long no_return;
  TS_VEC(size_t) doomed;
};

#endif
