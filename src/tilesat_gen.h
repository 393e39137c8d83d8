/* tilesat_gen.h: making maps, part of tilesat.h (include that): annealing,
 * Wave Function Collapse and its guards, endless worlds, advice, check as
 * a portfolio, chunks.  tilesat.h's contract holds; docs/reference.md
 * says more. */
#ifndef TILESAT_PUBLIC_GEN_H
#define TILESAT_PUBLIC_GEN_H

#include "tilesat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- annealing: an energy over a map's fillings (borrows the map) */
TILESAT_API long tilesat_palindrome_score(const int *line, int n);
typedef struct tilesat_energy tilesat_energy;
TILESAT_API tilesat_energy *tilesat_energy_new(const tilesat_map *m);
TILESAT_API void tilesat_energy_free(tilesat_energy *e);
/* Terms from an energy file, its text or one line; 0 or -1 with err. */
TILESAT_API int tilesat_energy_parse(tilesat_energy *e, const char *text,
                                     size_t len, const char *filename,
                                     tilesat_error *err);
TILESAT_API int tilesat_energy_read_file(tilesat_energy *e, const char *path,
                                         tilesat_error *err);
TILESAT_API int tilesat_energy_parse_line(tilesat_energy *e, const char *line,
                                          const char *origin,
                                          tilesat_error *err);
/* Freeze the terms (targets, hard weight); once, before what follows. */
TILESAT_API int tilesat_energy_prepare(tilesat_energy *e, tilesat_error *err);
/* A prepared energy in one struct, filled by tilesat_energy_get. */
typedef struct tilesat_energy_info {
  const tilesat_map *map;
  double hard_weight;
  double frequency; /* 0: no frequency term */
  bool exact;       /* counts fixed to the targets */
  bool line_term;   /* a term that is not quadratic */
} tilesat_energy_info;
TILESAT_API void tilesat_energy_get(const tilesat_energy *e,
                                    tilesat_energy_info *info);
TILESAT_API int64_t tilesat_energy_target(const tilesat_energy *e, int tile);
/* A filled map's energy, from scratch, and its disallowed pairs. */
TILESAT_API double tilesat_energy_eval(const tilesat_energy *e,
                                       const int *tiles);
TILESAT_API long tilesat_energy_violations(const tilesat_energy *e,
                                           const int *tiles);
/* As a QUBO (energy = qubo + *offset); 0, or -1 with err. */
TILESAT_API int tilesat_energy_write_qubo(const tilesat_energy *e, FILE *out,
                                          double *offset, tilesat_error *err);
typedef void (*tilesat_anneal_progress_fn)(void *user, int restart, long sweep,
                                           double beta, double energy,
                                           long violations);
/* 0 is a default (tilesat_anneal_defaults); docs/reference.md. */
typedef struct tilesat_anneal_opts {
  uint64_t seed;
  long sweeps;
  double beta_lo, beta_hi;
  int restarts, replicas;
  bool cleanup, stop_at_zero;
  tilesat_solve_options solve;
  tilesat_anneal_progress_fn progress;
  void *progress_user;
  int *annealed; /* not NULL: the map before the clean-up */
} tilesat_anneal_opts;
TILESAT_API void tilesat_anneal_defaults(tilesat_anneal_opts *o);
typedef struct tilesat_anneal_stats {
  double energy;
  long violations;
  double beta_lo, beta_hi;
  long sweeps_done;
  double site_updates;
  long zero_sweep;     /* first with no violation, or -1 */
  double zero_seconds; /* to it, or -1 */
  double seconds;
  long violations_annealed, cleaned_cells;
  int cleanup_regions, cleanup_result; /* SAT, UNSAT (no map), 0 */
  int sat_start; /* 0, or SAT/UNSAT: the start was the whole map's SAT */
} tilesat_anneal_stats;
/* The best map into tiles; 0 (also when no map exists), or -1. */
TILESAT_API int tilesat_anneal(const tilesat_energy *e,
                               const tilesat_anneal_opts *opts, int *tiles,
                               tilesat_anneal_stats *stats, tilesat_error *err);
TILESAT_API int tilesat_anneal_fits(const tilesat_map *m,
                                    const tilesat_anneal_opts *opts,
                                    tilesat_error *err);

/* ---- collapse: Wave Function Collapse, as mxgmn's reference runs it */
typedef enum tilesat_heuristic {
  TILESAT_HEURISTIC_ENTROPY = 0,
  TILESAT_HEURISTIC_MRV = 1,
  TILESAT_HEURISTIC_SCANLINE = 2,
} tilesat_heuristic;
TILESAT_API const char *tilesat_heuristic_name(tilesat_heuristic h);
TILESAT_API int tilesat_heuristic_parse(const char *name,
                                        tilesat_heuristic *out);
/* Can a guarded collapse keep everything m asks for? */
TILESAT_API bool tilesat_collapse_keeps(const tilesat_map *m);
/* A collapser for one map, reused by its runs; _modify: for
 * TILESAT_GUARD_MODIFY alone (no wave).  NULL with err. */
typedef struct tilesat_collapse tilesat_collapse;
TILESAT_API tilesat_collapse *tilesat_collapse_new(const tilesat_map *m,
                                                   tilesat_error *err);
TILESAT_API tilesat_collapse *tilesat_collapse_new_modify(const tilesat_map *m,
                                                          tilesat_error *err);
TILESAT_API void tilesat_collapse_free(tilesat_collapse *c);
/* What a run does at a contradiction. */
typedef enum tilesat_guard {
  TILESAT_GUARD_NONE = 0,   /* nothing: the run fails */
  TILESAT_GUARD_SAT = 1,    /* exact: bans what leaves no map */
  TILESAT_GUARD_BLOCKS = 2, /* repairs by blocks */
  TILESAT_GUARD_AUTO = 3,   /* exact, then blocks, then modify */
  TILESAT_GUARD_MODIFY = 4, /* modifying in blocks */
} tilesat_guard;
TILESAT_API const char *tilesat_guard_name(tilesat_guard g);
TILESAT_API int tilesat_guard_parse(const char *name, tilesat_guard *out);
typedef struct tilesat_collapse_options {
  uint64_t seed;
  tilesat_heuristic heuristic;
  tilesat_guard guard;
  long guard_budget; /* auto: exact SAT calls (0: 100) */
  tilesat_solve_options solve;
  long limit;                 /* stop after so many choices (0: never) */
  tilesat_progress_fn notice; /* a run about to cost much more */
} tilesat_collapse_options;
TILESAT_API void tilesat_collapse_options_init(tilesat_collapse_options *o);
/* SAT (tiles verified), UNKNOWN (failed, or stopped at its limit),
 * UNSAT (guarded: no map), -1 with err. */
TILESAT_API int tilesat_collapse_run(tilesat_collapse *c,
                                     const tilesat_collapse_options *o,
                                     int *tiles, tilesat_error *err);
/* What modifying in blocks did. */
typedef struct tilesat_modify_stats {
  bool used;
  bool past_bound;      /* auto went by modify at once */
  const char *auto_why; /* why auto went by modify, or NULL */
  int pattern_rows, pattern_cols;
  long pin_windows, wfc, sat, kept;
  long long cells;
  long count_windows;
} tilesat_modify_stats;
/* What the last run left, filled by tilesat_collapse_get; its pointers
 * are the collapser's, valid until its next run. */
typedef struct tilesat_collapse_info {
  int contradiction; /* the cell left with no tile, or -1 */
  const char *why;   /* a global constraint that failed, or NULL */
  size_t choices;
  long banned, solver_calls, repairs, resolved, restarts;
  const char *restart_why; /* NULL without restarts */
  bool unsat_window;       /* UNSAT from rows row0.., columns col0.. */
  int row0, col0, rows, cols;
  long no_return; /* tilesat_collapse_explain's, or -1 */
  size_t ndoomed;
  const size_t *doomed; /* choices, ascending */
  tilesat_modify_stats modify;
} tilesat_collapse_info;
TILESAT_API void tilesat_collapse_get(const tilesat_collapse *c,
                                      tilesat_collapse_info *info);
/* Ban i (< banned): the step-th choice, tile at cell, left no map. */
TILESAT_API void tilesat_collapse_ban(const tilesat_collapse *c, size_t i,
                                      size_t *step, int *cell, int *tile);
/* How many choices; with i below that, choice i. */
TILESAT_API size_t tilesat_collapse_choices(const tilesat_collapse *c, size_t i,
                                            int *cell, int *tile);
TILESAT_API bool tilesat_collapse_possible(const tilesat_collapse *c, int cell,
                                           int tile);
/* After a contradiction: no_return and doomed; 0 or -1 with err. */
TILESAT_API int tilesat_collapse_explain(tilesat_collapse *c,
                                         const tilesat_solve_options *so,
                                         tilesat_error *err);
/* What explain will cost, into buf: 1, or 0 when not worth saying. */
TILESAT_API int tilesat_collapse_explain_cost(const tilesat_collapse *c,
                                              const tilesat_solve_options *so,
                                              char *buf, size_t len);

/* ---- endless worlds: chunks on demand, valid across every seam */
typedef struct tilesat_world tilesat_world;
TILESAT_API tilesat_world *
tilesat_world_new(const tilesat_rules *r, tilesat_topology topo, uint64_t seed,
                  const tilesat_solve_options *so, tilesat_error *err);
TILESAT_API void tilesat_world_free(tilesat_world *w);
/* span_w x span_h chunks of n x n from (crow, ccol): 0 or -1 with err. */
TILESAT_API int tilesat_world_chunks(tilesat_world *w, int64_t crow,
                                     int64_t ccol, int n, int span_w,
                                     int span_h, int *tiles,
                                     tilesat_error *err);
TILESAT_API void tilesat_world_stats(const tilesat_world *w,
                                     tilesat_modify_stats *out);

/* ---- advice: what makes fewer of WFC's runs fail */
typedef enum tilesat_advice_kind {
  TILESAT_ADVICE_ALLOW = 0,  /* allow b in direction dir of a */
  TILESAT_ADVICE_WEIGHT = 1, /* tile a's weight from `from` to `to` */
  TILESAT_ADVICE_WRAP = 2,   /* the map periodic */
  TILESAT_ADVICE_BORDER = 3, /* every border cell holds tile a */
} tilesat_advice_kind;
typedef struct tilesat_advice_change {
  tilesat_advice_kind kind;
  int a, dir, b;             /* -1 where the kind has none */
  uint64_t from, to, others; /* WEIGHT */
  long failures, repairs;    /* with it; ALLOW: doomed sets it repaired */
} tilesat_advice_change;
typedef struct tilesat_advice_suspect {
  int a, dir, b;           /* a tile (dir, b: -1), or a pair */
  long runs, border, best; /* failed runs with it, on the border; a change */
} tilesat_advice_suspect;
typedef struct tilesat_advice {
  uint64_t first_seed;
  long runs, failures, explained, no_map;
  size_t nsuspects, nchanges;
  tilesat_advice_suspect *suspects;
  tilesat_advice_change *changes;
  long best; /* the best change, or -1 */
} tilesat_advice;
/* Collects the doomed sets of a map's failed runs (borrows the map). */
typedef struct tilesat_advisor tilesat_advisor;
TILESAT_API tilesat_advisor *tilesat_advisor_new(const tilesat_map *m);
TILESAT_API void tilesat_advisor_free(tilesat_advisor *a);
TILESAT_API void tilesat_advisor_add(tilesat_advisor *a,
                                     const tilesat_collapse *c);
/* 0 with *out (the advisor's), or -1 with err. */
TILESAT_API int tilesat_advise(tilesat_advisor *a,
                               const tilesat_collapse_options *o, long runs,
                               const tilesat_advice **out, tilesat_error *err);

/* ---- check as a portfolio: windows, a guarded collapse, the CNF */
typedef enum tilesat_check_method {
  TILESAT_CHECK_AUTO = 0,
  TILESAT_CHECK_CNF = 1,
  TILESAT_CHECK_COLLAPSE = 2,
} tilesat_check_method;
TILESAT_API const char *tilesat_check_method_name(tilesat_check_method method);
TILESAT_API int tilesat_check_method_parse(const char *name,
                                           tilesat_check_method *out);
typedef struct tilesat_check_options {
  tilesat_check_method method;
  tilesat_solve_options solve;
  uint64_t seed;
  double budget; /* auto: CPU seconds before the CNF (0: by size) */
} tilesat_check_options;
TILESAT_API void tilesat_check_options_init(tilesat_check_options *o);
/* What gave the answer. */
typedef enum tilesat_check_by {
  TILESAT_BY_CNF = 0,
  TILESAT_BY_COLLAPSE = 1,
  TILESAT_BY_WINDOW = 2,
  TILESAT_BY_PROPAGATION = 3,
} tilesat_check_by;
typedef struct tilesat_check_answer {
  tilesat_check_by by;
  int row0, col0, rows, cols; /* BY_WINDOW */
  int cell;                   /* BY_PROPAGATION: the cell left empty */
  long banned, repairs;
} tilesat_check_answer;
/* As tilesat_check. */
TILESAT_API int tilesat_check_portfolio(const tilesat_map *m,
                                        const tilesat_check_options *o,
                                        int *tiles, tilesat_check_answer *how,
                                        tilesat_error *err);
TILESAT_API void tilesat_check_answer_text(const tilesat_map *m,
                                           const tilesat_check_answer *a,
                                           char *buf, size_t len);

/* ---- chunks: does every border a k x k chunk allows have a filling? */
TILESAT_API tilesat_map *tilesat_chunk_frame(const tilesat_rules *r, int k,
                                             tilesat_topology topo,
                                             tilesat_error *err);
/* 1 (complete), 0 (a border no filling completes), or -1 with err. */
TILESAT_API int tilesat_chunk_check(const tilesat_rules *r, int k,
                                    tilesat_topology topo,
                                    const tilesat_solve_options *so,
                                    int *border, long *refutations,
                                    tilesat_error *err);
TILESAT_API int tilesat_chunk_symmetries(const tilesat_rules *r,
                                         tilesat_error *err);
TILESAT_API const char *tilesat_chunk_free_name(const tilesat_rules *r);
TILESAT_API int tilesat_chunk_write(const tilesat_map *frame, const int *border,
                                    FILE *out);

#ifdef __cplusplus
}
#endif

#endif
