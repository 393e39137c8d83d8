/* gen/collapse_internal.h: the collapser's state (collapse.c), shared with
 * the code that explains its failed runs (collapse_explain.c). */
#ifndef TILESAT_GEN_COLLAPSE_INTERNAL_H
#define TILESAT_GEN_COLLAPSE_INTERNAL_H

#include "core/rng.h"
#include "gen/gen.h"

typedef struct pair {
  int cell, tile;
} pair;

/* A tile proved to doom the run at its step-th choice (at cell). */
typedef struct doom {
  size_t step;
  int cell, tile;
} doom;

/* The run's state at the start of a step (the guard's: a replay resumes
 * there instead of at the seed). */
typedef struct snapshot {
  size_t step; /* SIZE_MAX: none taken */
  uint16_t *support;
  uint8_t *possible;
  int *count, *heap, *pos;
  double *sum_w, *sum_wlogw, *entropy, *key;
  int heap_n, scan;
  ts_rng rng, noise;
} snapshot;

struct tilesat_collapse {
  const tilesat_map *m; /* the caller's, or own */
  tilesat_map *own;     /* the caller's with its borders as bans, or NULL */
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
  /* the observation: a min-heap of the undecided cells (entropy, mrv) */
  tilesat_heuristic heuristic;
  double *key; /* [cell]: entropy or count, plus noise */
  int *heap;   /* [heap_n]: cells */
  int *pos;    /* [cell]: its place in heap, or -1 */
  int heap_n;
  TS_VEC(pair) stack;
  TS_VEC(pair) choices;
  int contradiction; /* the cell left empty, or -1 */
  int scan;          /* scanline: no undecided cell before this one */
  ts_rng rng, noise;
  /* the guard: a solver made at the first contradiction it must explain */
  ts_solver *solver;
  tilesat_solve_options solve;      /* what the solver was made with */
  const tilesat_solve_options *now; /* the options of the solving under way */
  int map_sat;        /* the rules and pins alone: SAT, UNSAT, -1 */
  TS_VEC(doom) dooms; /* proved, by step; of the last run */
  size_t next_doom;   /* the first doom not yet reached */
  long calls;         /* solver calls of the last run */
  snapshot snap;      /* the state at the newest doom's step */
  size_t snap_want;   /* the step to take it at, or SIZE_MAX */
  /* why the last run failed (tilesat_collapse_explain) */
  long no_return;
  TS_VEC(size_t) doomed;
  /* the window that refuted the pins (its size and place only), or one of
   * width 0 (tilesat_collapse_unsat_window) */
  ts_window unsat_window;
};

#endif
