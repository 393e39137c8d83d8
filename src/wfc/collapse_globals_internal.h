/* collapse_globals_internal.h: the counters and regions of collapse's
 * global constraints (collapse_globals.c), shared with the guard's windows
 * (collapse_globals_window.c). */
#ifndef TILESAT_WFC_COLLAPSE_GLOBALS_INTERNAL_H
#define TILESAT_WFC_COLLAPSE_GLOBALS_INTERNAL_H

#include "wfc/collapse_internal.h"

#define CG_MAX_SEARCH 6 /* neighbours of a cell */

typedef struct ts_cg_glob {
  const ts_global *g;
  int idx;        /* among the map's globals */
  bool lazy;      /* connected or path */
  uint8_t *in;    /* [T]: a tile of the class */
  uint16_t *ncls; /* [N]: possible tiles of the class */
  uint16_t *nnon; /* [N]: possible tiles outside it */
  bool pending;   /* a count at a bound, or a connected region to keep */
  /* COUNT: its cells' counters and bounds */
  int must, can, lo, hi;
  /* CONNECTED, PATH: the walkable cells' regions */
  int *lab;   /* [N]: region of a walkable cell, -1 elsewhere */
  int *size;  /* [N]: cells of each label */
  int *rel;   /* [N]: cells of each label that must be in the region */
  int *freel; /* unused labels */
  int nfree;
  uint8_t *isrel; /* [N] */
  int nwalk, nrel;
  int main;      /* the label of the cells that must be in it, or -1 */
  ts_ints dq;    /* cells that left, in order, not yet seen to */
  ts_ints cq;    /* cells that may have become cut cells */
  ts_ints seeds; /* cells that must join, with no such neighbour */
  bool cuts;     /* cut cells may be anywhere: look at every one */
} ts_cg_glob;

struct ts_cg {
  int N, T, D, W;
  ts_cg_glob *v;
  int n;
  bool live; /* the counters follow the bans (after ts_cg_start) */
  bool conn; /* connected and path are propagated: a guarded run */
  int *ring; /* [N][nring]: the cells around each, in circular order */
  int nring;
  int ringpos[6]; /* [dir]: the neighbour's place in the ring */
  /* the searches of a split (one set, for every region in turn) */
  int *stamp, *owner, *from, cur;
  int meet[CG_MAX_SEARCH][2], nmeet; /* where groups met: a cell of each */
  int *q[CG_MAX_SEARCH];
  int qlen[CG_MAX_SEARCH], qhead[CG_MAX_SEARCH], uf[CG_MAX_SEARCH];
  int *queue; /* [N] scratch */
  /* the depth-first search for cut cells */
  int *disc, *low, *par, *sub, *it, *vis, vstamp;
  ts_ints cut;
};

#endif
