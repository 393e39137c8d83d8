/* gen/gen.h: energies, annealing, SAT clean-up of annealed maps, QUBO. */
#ifndef TILESAT_GEN_H
#define TILESAT_GEN_H

#include "core/rng.h"
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
  double connectivity;      /* per missing join (connected, path); -1: hard */
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
  uint8_t *region_ban; /* [nregions][ntiles]: tiles a global constraint
                        * forbids there (border, path cells, at R,C) */
  int8_t *pin_of;      /* per cell: 1 if pinned or masked */
  int *pin_tile;       /* per cell: the pinned tile or -1 (masked) */
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

/* The whole map solved with its pins and every global constraint
 * (cleanup.c), keeping as many of `tiles` (a tile on every free cell) as
 * the backend can: TILESAT_SAT (tiles is a valid map), TILESAT_UNSAT (no
 * valid map exists; tiles unchanged) or -1. */
int ts_anneal_solve_whole(const tilesat_energy *e,
                          const tilesat_solve_options *so, int *tiles,
                          tilesat_error *err);

/* The joins a filled map misses for a connected or path constraint (0 for
 * other kinds; see anneal_globals.c), by a flood fill of its own. */
long ts_missing_joins(const tilesat_map *m, const ts_global *g,
                      const int *tiles);

/* ------------------------------------------ check as a portfolio */

/* The CPU seconds check --method auto gives the windows and the collapse
 * before the whole CNF (portfolio.c): 5 plus 2e-6 per cell and tile. */
double ts_check_budget(const tilesat_map *m);
/* Refuse m if a guarded collapse's tables would not fit its memory bound
 * (collapse.c): 0, or -1 with "WHAT: a WxH map ... needs about ...". */
int ts_collapse_refuse(const tilesat_map *m, const char *what,
                       tilesat_error *err);
/* A quick SAT answer before a command builds the whole map's CNF: the
 * guarded collapse of check's portfolio (seed 1, windows only, within
 * ts_check_budget), when the map is one it keeps.  TILESAT_SAT (its map
 * verified), TILESAT_UNKNOWN (no map from it: the caller's CNF decides,
 * UNSAT included), or -1 with err ("WHAT: interrupted" when so's
 * terminate stopped it, or an internal error). */
int ts_check_collapse_first(const tilesat_map *m,
                            const tilesat_solve_options *so, const char *what,
                            tilesat_error *err);
/* A cheap refutation (count, before its methods): the windows around the
 * pins and the guarded collapse of check's portfolio within `budget` CPU
 * seconds, never the whole map's CNF.  TILESAT_UNSAT (why: what proved
 * it, as check says it), TILESAT_UNKNOWN (not refuted), or -1 with err
 * ("WHAT: interrupted" when so's terminate stopped it). */
int ts_check_refute(const tilesat_map *m, const tilesat_solve_options *so,
                    double budget, char *why, size_t whylen, const char *what,
                    tilesat_error *err);

/* Check's windows around the pins alone, within `budget` CPU seconds:
 * true with *how (TILESAT_BY_WINDOW: the first window with no filling). */
bool ts_check_pin_window(const tilesat_map *m, const tilesat_solve_options *so,
                         double budget, tilesat_check_answer *how);

/* ------------------------------------------ global constraints, annealed */

/* Counts, kept hard, and connected and path constraints, a penalty per
 * missing join, as the sampler keeps them (anneal_globals.c).  Tiles are
 * the sampler's: 0..T-1, T the sentinel (masked, or off the map). */
typedef struct ts_ag ts_ag;             /* shared by every replica */
typedef struct ts_ag_state ts_ag_state; /* one replica's */
/* NULL when the map has no count, connected or path constraint; nbr: the
 * sampler's neighbour table ([N][nd], N where none), borrowed. */
ts_ag *ts_ag_new(const tilesat_energy *e, const int32_t *nbr, int nd);
void ts_ag_free(ts_ag *g);
bool ts_ag_has_counts(const ts_ag *g);
bool ts_ag_has_joins(const ts_ag *g);
ts_ag_state *ts_ag_state_new(const ts_ag *g);
void ts_ag_state_free(ts_ag_state *s);
/* Counts and regions of the map `tile` from scratch. */
void ts_ag_sync(const ts_ag *g, ts_ag_state *s, const uint16_t *tile);
/* Missing joins over every connected and path constraint. */
long ts_ag_missing(const ts_ag_state *s);
/* Propose that cell c change from tile a to tile b: the change of the
 * missing joins it would make (nothing changes yet).  A split's searches
 * visit at most `budget` cells: beyond it the split is taken as none, and
 * the labels are made right by ts_ag_settle. */
long ts_ag_propose(const ts_ag *g, ts_ag_state *s, int c, int a, int b,
                   long budget);
/* Make the change last proposed: counts and regions follow. */
void ts_ag_commit(const ts_ag *g, ts_ag_state *s);
/* Make the regions right where a split's search gave up; returns the
 * change of the missing joins. */
long ts_ag_settle(const ts_ag *g, ts_ag_state *s);
/* Propose and commit; returns the change of the missing joins. */
long ts_ag_change(const ts_ag *g, ts_ag_state *s, int c, int a, int b);
/* Are all counts within their bounds? */
bool ts_ag_counts_ok(const ts_ag *g, const ts_ag_state *s);
/* Set loc[t] to 1e30 for each tile t that would take a count out of its
 * bounds if cell c (now holding old) took it. */
void ts_ag_mask(const ts_ag *g, const ts_ag_state *s, int c, int old,
                float *loc);
/* Change free cells (order[0..norder)) of the synced map `tile` until the
 * counts are within their bounds; 0, or -1 when no single change helps. */
int ts_ag_meet_counts(const ts_ag *g, ts_ag_state *s, uint16_t *tile,
                      const int32_t *order, int norder, ts_rng *rng);

#endif
