/* gen/anneal_internal.h: the annealer's tables and replica state
 * (anneal_tables.c), its sweeps (anneal_sweep.c) and its runs (anneal.c). */
#ifndef TILESAT_GEN_ANNEAL_INTERNAL_H
#define TILESAT_GEN_ANNEAL_INTERNAL_H

#include "core/rng.h"
#include "gen/gen.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef float v4sf __attribute__((vector_size(16)));

#define EXP_SCALE 64.0f
#define EXP_N 2048 /* factors down to exp(-32) */

/* What every run shares, read-only. */
typedef struct ts_anneal_tables {
  const tilesat_energy *e;
  const tilesat_map *m;
  int T, Tp, nd, N;
  int32_t *nbr;  /* [N][nd]; missing or self -> N, the sentinel */
  float *pair;   /* [nd][T + 1][Tp]: cost of tile t beside tile u in d */
  uint8_t *viol; /* [nd][T + 1][T]: is that pair disallowed? */
  float *bias;   /* [nregions][Tp] (+ self-loop edges, if any) */
  int *selfviol; /* [T]: disallowed self-loop edges */
  uint8_t *selfviol_dir; /* [nforward][T]: is that self-loop disallowed? */
  bool self_loop[6];     /* directions in which every cell meets itself */
  double hard;           /* the hard weight the tables hold now */
  int32_t *order;        /* free cells, colour class by colour class */
  int norder;
  int cstart[4]; /* colour class k is order[cstart[k] .. cstart[k + 1]) */
  int ncolours;
  bool coloured; /* no cell has a neighbour of its own colour (a periodic
                  * axis of odd length, or not a multiple of 3 on hex,
                  * breaks that) */
  float wf;      /* frequency weight (0 with exact counts) */
  bool line, swaps, soft;
  bool fast; /* heat-bath by factor tables (see sweep_fast) */
  bool avx2; /* the fast kernel's AVX2 version runs here */
  /* fast_resync on a map whose forward neighbours are all (row + fdr[f],
   * col + fdc[f]) when that is on the map, and missing otherwise */
  bool fplain;
  bool nobias; /* every bias 0 and no self-loop violation (tables_set_hard) */
  int fdr[3], fdc[3];
  /* the fast kernel's rows, neighbour tile first: [T + 1][nd][Tp] */
  float *fpair;   /* pair */
  uint8_t *violp; /* viol */
  float exptab[EXP_N];
  /* global constraints: counts kept, missing joins at cratio * hard each */
  ts_ag *ag;
  bool counts, joins;
  double cratio;
} ts_anneal_tables;

typedef struct ts_anneal_state {
  uint16_t *tile; /* N + 1: tile[N] = T, the sentinel */
  int64_t *count; /* T */
  float *fq;      /* Tp: frequency * (2 (n_t - target_t) + 1) */
  double E;       /* running energy (sum of deltas) */
  long V;         /* running violations */
  ts_rng r;
  float *loc, *w;       /* Tp scratch */
  int *idx;             /* Tp scratch */
  int *line;            /* max(width, height) scratch */
  float *fac, *bfac;    /* the fast kernel's factors (see sweep_fast) */
  float *ubuf;          /* norder + 1: its uniforms for a sweep */
  float *fac01, *fac23; /* square: [T + 1][T + 1][Tp], products of the rows
                         * of directions 0 and 1, and 2 and 3 */
  ts_ag_state *ag;      /* counts and regions of the global constraints */
  bool fac_valid;       /* ... at fac_bs and fac_hard */
  float fac_bs;
  double fac_hard;
} ts_anneal_state;

void ts_an_tables_set_hard(ts_anneal_tables *tb, double hard);
void ts_an_tables_init(ts_anneal_tables *tb, const tilesat_energy *e);
void ts_an_tables_free(ts_anneal_tables *tb);
void ts_an_state_init(ts_anneal_state *st, const ts_anneal_tables *tb);
void ts_an_state_free(ts_anneal_state *st);
void ts_an_to_ints(const ts_anneal_tables *tb, const ts_anneal_state *st,
                   int *out);
double ts_an_hard_units(const ts_anneal_tables *tb, const ts_anneal_state *st);
void ts_an_state_sync(const ts_anneal_tables *tb, ts_anneal_state *st,
                      int *scratch);
int ts_an_state_start(const ts_anneal_tables *tb, ts_anneal_state *st,
                      int *scratch);
void ts_an_fast_resync(const ts_anneal_tables *tb, ts_anneal_state *st);
void ts_an_sweep(const ts_anneal_tables *tb, ts_anneal_state *st, double beta);
bool ts_an_bookkeeping_ok(const ts_anneal_tables *tb, const ts_anneal_state *st,
                          int *scratch);

#endif
