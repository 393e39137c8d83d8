/* The explanation searches' shared context (explain.c): constraint
 * groups as constraints, solvers with a selector per group, and the
 * problem all of them start from.  Deletion MUS (mus.c), MARCO (marco.c),
 * the smallest explanation (smallest.c) and QuickXplain (quickxplain.c)
 * build on it. */
#ifndef TILESAT_EXPLAIN_XPLAIN_H
#define TILESAT_EXPLAIN_XPLAIN_H

#include "explain/explain.h"
#include "wfc/wfc.h"

typedef TS_VEC(ts_ints) ts_sets;

struct tilesat_explanation {
  const tilesat_map *m;
  int total;
  TS_VEC(tilesat_constraint) cs;
  ts_ints groups; /* group of each constraint */
  ts_ints cells;  /* cells involved, sorted */
  bool by_prop;
  tilesat_steps *steps; /* propagation on these constraints alone */
  int window[4];        /* found in this window of the map (row, col, height,
                           width; height 0: on the whole map) */
};

/* A map whose whole solver would not fit its --max-memory, with pins:
 * explained by fn (as tilesat_explain, arg its own) in the first window
 * around a pin that has no filling (check's first stage), a map of its
 * own with the pins and masked cells inside, and the explanation moved
 * to m.  TILESAT_UNKNOWN when that does not apply (the caller explains the
 * whole map), else as fn. */
typedef int (*ts_x_fn)(const tilesat_map *m, const tilesat_solve_options *so,
                       const void *arg, tilesat_explanation **out,
                       tilesat_error *err);
int ts_x_in_window(const tilesat_map *m, const tilesat_solve_options *so,
                   ts_x_fn fn, const void *arg, tilesat_explanation **out,
                   tilesat_error *err);

/* The same for tilesat_explain_all: every explanation of the window
 * (up to limit), moved to m. */
int ts_x_all_in_window(const tilesat_map *m, const tilesat_solve_options *so,
                       size_t limit, tilesat_explanation ***out, size_t *n,
                       bool *complete, tilesat_error *err);

#define SMALL_CORE 300 /* shrink without refinement up to this size */

/* The map's CNF, and the cuts of its connected and path constraints found
 * so far, appended to it in their constraints' groups (cuts.c): every
 * solver made later starts with them. */
typedef struct ts_xcnf {
  const tilesat_map *m;
  ts_cnf cnf;
  ts_cuts *lazy; /* NULL: no connected or path constraint */
} ts_xcnf;

/* A solver holding the clauses of some groups, each guarded by its group's
 * selector; variables renumbered densely so that a small subproblem is a
 * small CNF. */
typedef struct ts_xsub {
  ts_solver *s;
  ts_xcnf *src;
  int *sel; /* group -> selector variable, 0 when the group has no clause */
  int *var; /* the CNF's variable -> the solver's, 0 when not there */
  int next; /* the solver's last variable */
  ts_ints failed, buf;
  uint8_t *active; /* per global constraint: assumed in this solve */
  long calls;      /* solves so far: the search's budget is counted in them */
} ts_xsub;

/* The map's constraints that have clauses, and a solver holding them all
 * (every search below asks it about subsets of them). */
typedef struct ts_xctx {
  const tilesat_map *m;
  const tilesat_solve_options *so;
  int G;
  ts_xcnf cnf;
  uint8_t *has; /* per group: has clauses or is kept by cuts */
  ts_ints all;  /* the groups that have */
  ts_xsub full;
} ts_xctx;

/* The cells a group touches (1 or 2; none for a global constraint, which
 * is about the whole map); returns how many. */
int ts_x_group_cells(const tilesat_map *m, int g, int *cells);
/* A solver of cnf's groups in `include` (NULL: all). */
void ts_xsub_init(ts_xsub *x, ts_xcnf *cnf, int ngroups, const uint8_t *include,
                  const tilesat_solve_options *so);
void ts_xsub_free(ts_xsub *x);
/* Solve with the groups of `set` except `skip` (-1: none), cutting the
 * models that break an assumed connected or path constraint; on UNSAT the
 * failed groups are in x->failed. */
int ts_xsub_solve(ts_xsub *x, const ts_ints *set, int skip);
/* Manhattan (or Chebyshev) distance of two cells, across the wrap on
 * periodic maps. */
int ts_x_cell_dist(const tilesat_map *m, int a, int b, bool manhattan);
/* Twice the distance of a group from a cell, adjacencies counted half a
 * step closer than their nearer end. */
int ts_x_group_dist2(const tilesat_map *m, int g, int centre);
void ts_x_copy_ints(ts_ints *to, const ts_ints *from);
void ts_x_sets_free(ts_sets *s);
/* Constraints by cell, row-major, then kind, pin and direction. */
int ts_x_cmp_constraint(const void *a, const void *b);
/* The explanation of a minimal set of groups. */
tilesat_explanation *ts_x_finish(const tilesat_map *m, const ts_ints *mus);
/* The caller's options for m, after checking m is there. */
tilesat_solve_options ts_x_so_of(const tilesat_map *m,
                                 const tilesat_solve_options *options);
/* Set up, and solve with every constraint: TILESAT_UNSAT (a core in
 * x->full.failed; close x after), or TILESAT_SAT or -1 with err (nothing
 * left to close). */
int ts_xctx_open(ts_xctx *x, const tilesat_map *m,
                 const tilesat_solve_options *so, tilesat_error *err);
void ts_xctx_close(ts_xctx *x);
/* Grow a satisfiable set to a maximal satisfiable subset of every
 * constraint (explain.c).  0, or -1 (no answer; err set). */
int ts_x_grow(ts_xctx *x, uint8_t *in, ts_ints *cur, tilesat_error *err);

/* mus.c: deletion from `core` (UNSAT), the groups farthest from `centre`
 * first; with `refine`, an UNSAT answer also drops every group outside its
 * failed set. */
int ts_x_shrink(const tilesat_map *m, ts_xcnf *cnf,
                const tilesat_solve_options *so, const ts_ints *core,
                int centre, bool refine, ts_ints *mus, long *calls);
/* The cell nearest the mean position of a set's cells. */
int ts_x_centroid(const tilesat_map *m, const ts_ints *set);
/* Groups a propagation contradiction rests on: a core. */
void ts_x_prop_core(const tilesat_map *m, const ts_prop *p, ts_ints *out);
/* The core to start from and the cells to grow windows around. */
void ts_x_core_and_centres(const tilesat_map *m, const ts_ints *failed,
                           ts_ints *base, ts_ints *centres);
/* UNSAT as a whole, SAT with any one group dropped, on a fresh solver. */
int ts_x_verify_minimal(const tilesat_map *m, ts_xcnf *cnf,
                        const tilesat_solve_options *so, const ts_ints *mus,
                        tilesat_error *err);

#endif
