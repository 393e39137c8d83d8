/* tilesat_gen.h: making maps (and chunks that never fail), part of tilesat.h
 * (which includes it; include tilesat.h): annealing under soft constraints,
 * Wave Function Collapse and its guards, advice for designers, and check as a
 * portfolio. */
#ifndef TILESAT_PUBLIC_GEN_H
#define TILESAT_PUBLIC_GEN_H

#include "tilesat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- annealing */

/* Soft constraints: an energy over a map's fillings and an annealing
 * sampler for it.  The energy is a sum of optional terms, each
 * with its own weight; the energy file format is documented in
 * rules/README.md ("Energy files"):
 *
 *   E = hard * (number of disallowed adjacent pairs)
 *     + frequency * sum_k (n_k - target_k)^2
 *     - sum over adjacent equal pairs (t, t) of J_t            (coherence)
 *     + sum over cells c of bias[region(c)][tile(c)]
 *     - palindrome * (palindrome score of every row and column)
 *
 * Pins are clamped: the sampler never moves them.  Targets are whole
 * numbers: explicit ones from the energy, the rest the rule file's weights
 * scaled to the cells left (largest remainders), so they sum to the map's
 * cell count. */

/* The Entropy / Hyle 7 line score: every contiguous palindromic run of
 * length >= 2 in line[0..n-1] scores its length.  AA 2, AAA 7, ABABA 14. */
TILESAT_API long tilesat_palindrome_score(const int *line, int n);

typedef struct tilesat_energy tilesat_energy;

/* A new energy over map `m` (borrowed: it must outlive the energy) with
 * only the hard term, at the default weight (see tilesat_energy_prepare). */
TILESAT_API tilesat_energy *tilesat_energy_new(const tilesat_map *m);
TILESAT_API void tilesat_energy_free(tilesat_energy *e);
/* Add the terms of an energy file's text; errors "FILE:LINE: message". */
TILESAT_API int tilesat_energy_parse(tilesat_energy *e, const char *text,
                                     size_t len, const char *filename,
                                     tilesat_error *err);
TILESAT_API int tilesat_energy_read_file(tilesat_energy *e, const char *path,
                                         tilesat_error *err);
/* One energy-file line, e.g. "frequency 2", from `origin`: errors
 * "ORIGIN: message" (no line number). */
TILESAT_API int tilesat_energy_parse_line(tilesat_energy *e, const char *line,
                                          const char *origin,
                                          tilesat_error *err);
/* Freeze the terms: compute targets (an error if explicit targets or pins
 * cannot fit, or exact counts are impossible) and the default hard weight,
 * 1 + twice the largest change any single cell can make to the soft terms
 * (coherence, bias, line score, and frequency whatever the counts: up to
 * frequency * (4 cells + 2)), so no move that adds a violation ever lowers
 * the energy.  Must be called once before the
 * functions below. */
TILESAT_API int tilesat_energy_prepare(tilesat_energy *e, tilesat_error *err);
/* A prepared energy in one struct, filled by tilesat_energy_get. */
typedef struct tilesat_energy_info {
  const tilesat_map *map; /* borrowed */
  double hard_weight;
  double frequency; /* 0: no frequency term (targets reported, not weighed) */
  bool exact;       /* counts fixed exactly to the targets */
  bool line_term;   /* a term that is not quadratic (the line score) */
} tilesat_energy_info;
TILESAT_API void tilesat_energy_get(const tilesat_energy *e,
                                    tilesat_energy_info *info);
/* Target count of a tile (prepared energy). */
TILESAT_API int64_t tilesat_energy_target(const tilesat_energy *e, int tile);
/* The energy of a filled map (every cell a tile, a masked one
 * TILESAT_NO_TILE; pins are not checked), from scratch, independent of the
 * sampler's incremental bookkeeping: the terms, plus the connectivity
 * weight per missing join of a connected or path constraint. */
TILESAT_API double tilesat_energy_eval(const tilesat_energy *e,
                                       const int *tiles);
/* Disallowed adjacent pairs in a filled map (each edge once). */
TILESAT_API long tilesat_energy_violations(const tilesat_energy *e,
                                           const int *tiles);

/* Write the energy as a QUBO in qbsolv's .qubo format, minimised:
 *   c comments
 *   p qubo 0 maxNodes nNodes nCouplers
 *   i i value     (nNodes diagonal lines)
 *   i j value     (nCouplers lines, i < j, each pair once)
 * Variable cell * ntiles + tile is 1 when the cell holds the tile; pinned
 * cells have no variables (their tiles are folded into the diagonal).  A
 * one-hot penalty P * (1 - sum_t x[c,t])^2 per free cell keeps one tile per
 * cell, P = (directions + 1) * hard weight unless the energy sets it.  For
 * every one-hot vector x of a map that respects the pins,
 * energy(map) = qubo(x) + *offset.  Terms that are not quadratic (the line
 * score) or not a penalty (exact counts) are refused with an error, as are
 * QUBOs of more than 50 million couplers.  Returns 0 or -1. */
TILESAT_API int tilesat_energy_write_qubo(const tilesat_energy *e, FILE *out,
                                          double *offset, tilesat_error *err);

/* Progress report: called after some sweeps (about 20 times a run). */
typedef void (*tilesat_anneal_progress_fn)(void *user, int restart, long sweep,
                                           double beta, double energy,
                                           long violations);

typedef struct tilesat_anneal_opts {
  uint64_t seed;     /* same seed, same map (default 1) */
  long sweeps;       /* sweeps per restart (0: the default, 1000) */
  double beta_lo;    /* geometric schedule from beta_lo to beta_hi; both 0: */
  double beta_hi;    /* chosen from the energy scale */
  int restarts;      /* independent runs, the best kept (default 1) */
  int replicas;      /* replica exchange: replicas per run (default 1: off) */
  bool cleanup;      /* clean up violations by SAT (default on) */
  bool stop_at_zero; /* stop a run when it reaches zero violations and the
                        energy has no soft term (default on) */
  tilesat_solve_options solve; /* the clean-up's backend, and when to stop it */
  tilesat_anneal_progress_fn progress; /* may be NULL */
  void *progress_user;
  int *annealed; /* if not NULL (width*height): the map before the clean-up */
} tilesat_anneal_opts;

TILESAT_API void tilesat_anneal_defaults(tilesat_anneal_opts *o);

/* What a run did. */
typedef struct tilesat_anneal_stats {
  double energy;            /* of the returned map, evaluated from scratch */
  long violations;          /* of the returned map */
  double beta_lo, beta_hi;  /* the schedule used */
  long sweeps_done;         /* over all restarts */
  double site_updates;      /* single-site updates and swap attempts */
  long zero_sweep;          /* first sweep with zero violations, or -1 */
  double zero_seconds;      /* wall time to it, or -1 */
  double seconds;           /* annealing time (without clean-up) */
  long violations_annealed; /* before the clean-up */
  long cleaned_cells;       /* cells the clean-up changed */
  int cleanup_regions;      /* regions handed to the SAT backend */
  int cleanup_result;       /* TILESAT_SAT, TILESAT_UNSAT (no valid map exists
                              around the pins), 0 when no clean-up ran */
  int sat_start; /* 0: the runs started from random maps; TILESAT_SAT: no
                    random start met the global constraints, so they start
                    from the whole map solved by the SAT backend;
                    TILESAT_UNSAT: that found no valid map (nothing was
                    annealed; cleanup_result is TILESAT_UNSAT too) */
} tilesat_anneal_stats;

/* Anneal a prepared energy; `tiles` (width*height) receives the best map
 * found.  When violations remain and opts->cleanup is set, the violating
 * cells and a margin around them (2 cells, doubled until the backend finds
 * a map, up to the whole map) are re-solved with every other cell pinned,
 * keeping as many annealed tiles as the backend allows; with soft terms
 * (and counts not exact) a tenth of the sweeps then polish the cleaned-up map
 * at the coldest beta, where no violation can come back.  When no random
 * start meets the global constraints (their counts, their bans), the whole
 * map solved by the SAT backend is the start (stats->sat_start).
 * Returns 0 (also when no valid map exists: cleanup_result TILESAT_UNSAT),
 * or -1 on error. */
TILESAT_API int tilesat_anneal(const tilesat_energy *e,
                               const tilesat_anneal_opts *opts, int *tiles,
                               tilesat_anneal_stats *stats, tilesat_error *err);
/* Does annealing m with these options fit m's memory bound?  0, or -1
 * with the refusal (tilesat_anneal refuses so too; this is for a caller
 * that would allocate before it). */
TILESAT_API int tilesat_anneal_fits(const tilesat_map *m,
                                    const tilesat_anneal_opts *opts,
                                    tilesat_error *err);

/* ---------------------------------------------------------------- collapse */

/* Wave Function Collapse as mxgmn's reference runs it: observe the
 * undecided cell the heuristic picks, choose its tile at random in
 * proportion to the rules' weights, propagate arc consistency (the
 * propagation `trace` shows), until every cell holds one tile or a cell
 * holds none (a contradiction: the run fails, as WFC's runs do; it proves
 * nothing about whether a map exists).  Pins are applied first.  Global
 * constraints: a BORDER is bans; a COUNT is a capped counter whose bound,
 * once reached, bans the class's tiles in the other cells (or, a lower
 * bound, the other tiles), and a count no longer in reach is a
 * contradiction; CONNECTED and PATH a guarded run keeps by propagation
 * (cells that would cut the class apart are forced, regions cut off lose
 * the class), an unguarded one not: its map may break them, a failed run.
 * A masked cell holds no tile and takes no choice. */
typedef enum tilesat_heuristic {
  TILESAT_HEURISTIC_ENTROPY = 0,  /* lowest Shannon entropy of the weights,
                                     ties broken at random (the reference) */
  TILESAT_HEURISTIC_MRV = 1,      /* fewest possible tiles */
  TILESAT_HEURISTIC_SCANLINE = 2, /* the first undecided cell, row-major */
} tilesat_heuristic;

TILESAT_API const char *tilesat_heuristic_name(tilesat_heuristic h);
/* "entropy", "mrv" or "scanline"; -1 if none. */
TILESAT_API int tilesat_heuristic_parse(const char *name,
                                        tilesat_heuristic *out);

/* Can a guarded collapse keep everything this map asks for (check's
 * portfolio asks)?  Today every kind of global constraint and masks;
 * --guard blocks refuses counts, connectivity and masks. */
TILESAT_API bool tilesat_collapse_keeps(const tilesat_map *m);
/* A collapser for one map: its tables are built once and reused by every
 * run (the map must outlive it).  NULL with err when the map is out of its
 * reach (more than 65535 tiles). */
typedef struct tilesat_collapse tilesat_collapse;
TILESAT_API tilesat_collapse *tilesat_collapse_new(const tilesat_map *m,
                                                   tilesat_error *err);
/* A collapser for --guard modify alone (and auto, which goes to modify at
 * once with it): it builds no table of the map's cells (its neighbours,
 * supports and wave: tens of bytes a cell), so it takes a map past
 * TILESAT_MAX_CELL_TILES (tilesat_map_new_large).  A run with another
 * guard is an error; tilesat_collapse_possible has no wave to read. */
TILESAT_API tilesat_collapse *tilesat_collapse_new_modify(const tilesat_map *m,
                                                          tilesat_error *err);
TILESAT_API void tilesat_collapse_free(tilesat_collapse *c);
/* What a run does at a contradiction (--guard). */
typedef enum tilesat_guard {
  TILESAT_GUARD_NONE = 0, /* nothing: the run fails, as WFC's do */
  /* Exact: a tile with which no valid map exists, given the choices before
   * it, is banned and the cell draws again (the map an eager guard would
   * make).  Lazily: a run that contradicts learns the choice that doomed it
   * (proved by SAT in a window around the contradiction, or on the whole
   * map) and runs again from its seed, banning what it learnt. */
  TILESAT_GUARD_SAT = 1,
  /* Repair by blocks (Merrell's model synthesis): the cells around the
   * contradiction are decided again, by a short WFC inside the block with
   * its neighbours outside as they are (SAT proves the block has a filling,
   * else the block doubles, up to the whole map), and the run goes on. */
  TILESAT_GUARD_BLOCKS = 2,
  /* Exact while it answers within guard_budget, then blocks; modify when
   * a block grows to the whole map and its solver would not fit. */
  TILESAT_GUARD_AUTO = 3,
  /* Modifying in blocks (Merrell; Boris the Brave's "infinite modifying in
   * blocks"): no WFC run on the whole map.  A periodic pattern found by SAT
   * on a small torus is tiled across the map (the whole map's SAT when
   * none fits), the cells that break a pin or a border made again in
   * windows around them, then 4 layers of overlapping 16x16 blocks are
   * each made again by WFC (then SAT) with their one-cell margin fixed, a
   * block neither fills keeping its content: valid after every block, in
   * memory of a block.  Keeps pins, masks, borders and counts (windows
   * made again by SAT move each count to its bounds first, the whole
   * map's SAT where they cannot; then every block keeps them); refuses
   * connected and path constraints. */
  TILESAT_GUARD_MODIFY = 4,
} tilesat_guard;
TILESAT_API const char *tilesat_guard_name(tilesat_guard g);
/* "none", "sat", "blocks", "auto" or "modify"; -1 if none. */
TILESAT_API int tilesat_guard_parse(const char *name, tilesat_guard *out);

/* How a run goes. */
typedef struct tilesat_collapse_options {
  uint64_t seed;               /* same seed, same run (default 1) */
  tilesat_heuristic heuristic; /* default: entropy */
  tilesat_guard guard;         /* default: none (the run may fail) */
  /* auto: the SAT calls the exact guard may make in a run before the run
   * goes on by blocks (0: the default, 100) */
  long guard_budget;
  tilesat_solve_options solve; /* the guard's backend and terminate */
  /* Stop after this many choices (0: never), as the reference's `limit`:
   * the run ends TILESAT_UNKNOWN with no contradiction, its wave left as
   * it is (tilesat_collapse_possible). */
  long limit;
  /* When not NULL, called (with solve.progress_user) when a run is about
   * to cost much more than it did: the exact guard building the whole
   * map's solver ("the exact guard needs the whole map's solver (3.7 M
   * clauses); --guard auto or modify would not"), a line to say at once,
   * not to throttle. */
  tilesat_progress_fn notice;
} tilesat_collapse_options;
TILESAT_API void tilesat_collapse_options_init(tilesat_collapse_options *o);

/* One run.  TILESAT_SAT: `tiles` (width*height) holds the map, checked by
 * tilesat_map_verify; TILESAT_UNKNOWN: an unguarded run hit a contradiction
 * (tilesat_collapse_get), finished a map that breaks a connected or path
 * constraint (`tiles` holds it; the info's why says what), or stopped at
 * its limit of choices (then the info's contradiction is -1);
 * TILESAT_UNSAT: guarded, and no valid map exists with these rules, pins
 * and constraints; -1: error (err), or the guard's solver was stopped. */
TILESAT_API int tilesat_collapse_run(tilesat_collapse *c,
                                     const tilesat_collapse_options *o,
                                     int *tiles, tilesat_error *err);
/* What modifying in blocks did (TILESAT_GUARD_MODIFY, or AUTO when it went
 * by modify; docs/reference.md, "Collapse results"): the periodic pattern
 * it started from (0 x 0: the whole map's SAT), the windows that made pins
 * and borders hold and that moved counts to their bounds, and the blocks
 * made again by WFC, by SAT, and kept; cells: the cells they made again. */
typedef struct tilesat_modify_stats {
  bool used;
  bool past_bound; /* auto went by modify at once: a collapser for modify */
  /* why auto went by modify, in words; NULL: --guard modify, past_bound */
  const char *auto_why;
  int pattern_rows, pattern_cols;
  long pin_windows, wfc, sat, kept;
  long long cells;
  long count_windows; /* windows tried to bring a count to its bounds */
} tilesat_modify_stats;

/* What the last run left, in one struct filled by tilesat_collapse_get;
 * its pointers are owned by the collapser, valid until its next run. */
typedef struct tilesat_collapse_info {
  int contradiction; /* the cell left with no tile, or -1 */
  /* a failed global constraint, "ORIGIN: TEXT, but WHAT", or NULL */
  const char *why;
  size_t choices; /* tiles chosen (each: tilesat_collapse_choices) */
  /* guarded: exact bans (each: tilesat_collapse_ban), solver calls, blocks
   * repaired and the cells they decided again, new starts and why the last
   * (NULL without) */
  long banned, solver_calls, repairs, resolved, restarts;
  const char *restart_why;
  /* guarded UNSAT proved by a window with no filling: its rows row0.. and
   * columns col0.. (modulo the size on a periodic map); else false */
  bool unsat_window;
  int row0, col0, rows, cols;
  /* after tilesat_collapse_explain: the point of no return (an index of
   * the choices, or -1) and the doomed set's choices, ascending */
  long no_return;
  size_t ndoomed;
  const size_t *doomed;
  tilesat_modify_stats modify;
} tilesat_collapse_info;
TILESAT_API void tilesat_collapse_get(const tilesat_collapse *c,
                                      tilesat_collapse_info *info);
/* The i-th exact ban (i < banned), in the run's order: tile at cell, drawn
 * as the step-th choice, left no valid map. */
TILESAT_API void tilesat_collapse_ban(const tilesat_collapse *c, size_t i,
                                      size_t *step, int *cell, int *tile);
/* How many tiles the run chose; with i below that, the i-th choice. */
TILESAT_API size_t tilesat_collapse_choices(const tilesat_collapse *c, size_t i,
                                            int *cell, int *tile);
/* Is `tile` still possible at `cell` in the wave the run left?  Aborts on
 * a collapser for modify (it has no wave). */
TILESAT_API bool tilesat_collapse_possible(const tilesat_collapse *c, int cell,
                                           int tile);
/* After an unguarded run's contradiction: its point of no return and a
 * minimal doomed set of its choices (tilesat_collapse_get), by solving
 * under them as assumptions.  0, or -1 with err. */
TILESAT_API int tilesat_collapse_explain(tilesat_collapse *c,
                                         const tilesat_solve_options *so,
                                         tilesat_error *err);
/* Before tilesat_collapse_explain on a large map: what it will cost, in
 * words, into buf; 1, or 0 when nothing is worth saying. */
TILESAT_API int tilesat_collapse_explain_cost(const tilesat_collapse *c,
                                              const tilesat_solve_options *so,
                                              char *buf, size_t len);

/* ------------------------------------------------------- endless worlds */

/* An unbounded map made by modifying in blocks (TILESAT_GUARD_MODIFY on the
 * plane): its chunks are computed on demand from their dependency cone
 * alone, the same whatever is asked before, valid across every seam,
 * determined by the seed, in time and memory that do not depend on their
 * coordinates.  NULL with err when the rules have no periodic pattern up
 * to 16x16 ("tilesat world needs a periodic pattern ...") or on error.
 * The rules must outlive it. */
typedef struct tilesat_world tilesat_world;
TILESAT_API tilesat_world *
tilesat_world_new(const tilesat_rules *r, tilesat_topology topo, uint64_t seed,
                  const tilesat_solve_options *so, tilesat_error *err);
TILESAT_API void tilesat_world_free(tilesat_world *w);
/* The span_w x span_h chunks of n x n cells from chunk row crow and chunk
 * column ccol (cell row crow * n, rows grow to the south, columns to the
 * east) into tiles, (span_h * n) rows of (span_w * n): 0, or -1 with err
 * (more than about 8000 cells a side at once, or stopped). */
TILESAT_API int tilesat_world_chunks(tilesat_world *w, int64_t crow,
                                     int64_t ccol, int n, int span_w,
                                     int span_h, int *tiles,
                                     tilesat_error *err);
/* After tilesat_world_chunks: its pattern and blocks (pin_windows 0). */
TILESAT_API void tilesat_world_stats(const tilesat_world *w,
                                     tilesat_modify_stats *out);

/* ------------------------------------------------- advice for designers */

/* What to change in the rules or the map so that fewer of WFC's runs fail
 * (collapse -n RUNS --explain): the tiles and neighbouring pairs of tiles
 * found most often in the failed runs' doomed sets, and a bounded number
 * of changes, each measured by running the same seeds again with it:
 * allow a pair (a minimal repair of some doomed sets, tilesat_repair),
 * lower a tile's weight to a quarter, wrap the map, or hold one tile on
 * every border cell (--border all=TILE). */
typedef enum tilesat_advice_kind {
  TILESAT_ADVICE_ALLOW = 0,  /* allow b in direction dir of a (and a in the
                                opposite direction of b) */
  TILESAT_ADVICE_WEIGHT = 1, /* tile a's weight from `from` to `to` */
  TILESAT_ADVICE_WRAP = 2,   /* the map periodic */
  TILESAT_ADVICE_BORDER = 3, /* every border cell holds tile a */
} tilesat_advice_kind;

typedef struct tilesat_advice_change {
  tilesat_advice_kind kind;
  int a, dir, b;     /* the tiles and direction (-1 where the kind has none) */
  uint64_t from, to; /* WEIGHT: the weight, and the one tried (a quarter;
                        from 1: 1, and every other weight times `others`) */
  uint64_t others;   /* WEIGHT: 1, or 4 when the weight was 1 */
  long failures;     /* of the same runs, with the change: contradictions */
  long repairs;      /* ALLOW: doomed sets it repaired alone (of those tried) */
} tilesat_advice_change;

typedef struct tilesat_advice_suspect {
  int a, dir, b; /* a tile (dir and b are -1), or b in direction dir of a */
  long runs;     /* failed runs whose doomed set holds it */
  long border;   /* of them, with it (one of its cells) on the map's border */
  long best;     /* the change that helps it most (fewer failures than the
                    map as it is), an index of changes, or -1 */
} tilesat_advice_suspect;

typedef struct tilesat_advice {
  uint64_t first_seed;
  long runs;      /* seeds first_seed .. first_seed + runs - 1 */
  long failures;  /* runs that contradicted, the map as it is */
  long explained; /* failed runs given to tilesat_advisor_add */
  long no_map;    /* of them, where the rules and pins have no valid map */
  size_t nsuspects, nchanges;
  tilesat_advice_suspect *suspects; /* the most frequent first */
  tilesat_advice_change *changes;   /* in the order tried */
  long best; /* the change with the fewest failures when fewer than now,
                else -1 */
} tilesat_advice;

/* Collects the doomed sets of a map's failed runs (the map must outlive
 * it). */
typedef struct tilesat_advisor tilesat_advisor;
TILESAT_API tilesat_advisor *tilesat_advisor_new(const tilesat_map *m);
TILESAT_API void tilesat_advisor_free(tilesat_advisor *a);
/* After tilesat_collapse_explain of a run of m that contradicted. */
TILESAT_API void tilesat_advisor_add(tilesat_advisor *a,
                                     const tilesat_collapse *c);
/* Run seeds o->seed .. o->seed + runs - 1 with o (as they were run), then
 * again with each change; progress and terminate from o->solve.  0 with
 * *out (valid until the advisor is freed), or -1 with err. */
TILESAT_API int tilesat_advise(tilesat_advisor *a,
                               const tilesat_collapse_options *o, long runs,
                               const tilesat_advice **out, tilesat_error *err);

/* ---------------------------------------------------- check as a portfolio */

/* tilesat_check builds the whole map's CNF; a guarded collapse answers the
 * same question with the map WFC would make, 30 to 50 times faster where
 * WFC's dooms are local, and windows around the pins (small maps of their
 * own whose cells lose their neighbours outside: a relaxation) refute
 * clashing pins without the whole map. */
typedef enum tilesat_check_method {
  TILESAT_CHECK_AUTO = 0,     /* windows around the pins, then a collapse
                                 guarded by TILESAT_GUARD_AUTO, each within its
                                 share of a budget of CPU time, then the whole
                                 CNF */
  TILESAT_CHECK_CNF = 1,      /* the whole CNF: tilesat_check */
  TILESAT_CHECK_COLLAPSE = 2, /* the guarded collapse alone, without a
                                 budget, as tilesat_collapse_run makes it */
} tilesat_check_method;
TILESAT_API const char *tilesat_check_method_name(tilesat_check_method method);
/* "auto", "cnf" or "collapse"; -1 if none. */
TILESAT_API int tilesat_check_method_parse(const char *name,
                                           tilesat_check_method *out);

typedef struct tilesat_check_options {
  tilesat_check_method method; /* default auto */
  tilesat_solve_options solve; /* the CNF's and the guard's backend, etc. */
  uint64_t seed;               /* the collapse's (default 1) */
  double budget; /* auto: CPU seconds for the windows (a tenth) and the
                    collapse before the CNF; 0 (default): 5 plus 2e-6 per
                    cell and tile */
} tilesat_check_options;
TILESAT_API void tilesat_check_options_init(tilesat_check_options *o);

/* What gave the answer. */
typedef enum tilesat_check_by {
  TILESAT_BY_CNF = 0,         /* the whole CNF (tilesat_check) */
  TILESAT_BY_COLLAPSE = 1,    /* SAT: a guarded collapse's map; UNSAT: its
                                 guard on the whole map */
  TILESAT_BY_WINDOW = 2,      /* UNSAT: a window of the map with no filling */
  TILESAT_BY_PROPAGATION = 3, /* UNSAT: propagating the rules and pins (arc
                                 consistency) left a cell no tile */
} tilesat_check_by;

typedef struct tilesat_check_answer {
  tilesat_check_by by;
  int row0, col0, rows, cols; /* BY_WINDOW: rows row0.. and columns col0..
                                 (modulo the size on a periodic map) */
  int cell;                   /* BY_PROPAGATION: the cell left empty */
  long banned, repairs;       /* the collapse's banned choices and block
                                 repairs */
} tilesat_check_answer;

/* Is there a valid map, by o->method (NULL `how`: not wanted)?  As
 * tilesat_check: TILESAT_SAT with `tiles` (may be NULL) a witness that
 * has passed tilesat_map_verify, TILESAT_UNSAT, or -1 with err.  With
 * TILESAT_CHECK_CNF exactly tilesat_check. */
TILESAT_API int tilesat_check_portfolio(const tilesat_map *m,
                                        const tilesat_check_options *o,
                                        int *tiles, tilesat_check_answer *how,
                                        tilesat_error *err);
/* The answer in words: "no filling of the 5x5 window at rows 0-4, columns
 * 0-4", "propagating the rules and pins leaves no tile at (0,1)", "a guarded
 * collapse (3 choices banned, 2 blocks repaired)", "the whole map's CNF". */
TILESAT_API void tilesat_check_answer_text(const tilesat_map *m,
                                           const tilesat_check_answer *a,
                                           char *buf, size_t len);

/* ------------------------------------------------------------------ chunks */

/* Chunks that never fail: is every border of a k x k chunk that the rules
 * allow completed by some filling inside it?  Then chunked (endless-world)
 * generation at chunk size k never contradicts for lack of an inner
 * filling.  The border is the ring of cells around the chunk, the outer
 * cells of a (k+2) x (k+2) frame, corners included (they touch no chunk
 * cell but join two sides: the rules must allow them beside both).  A
 * border is valid when every two neighbouring ring cells hold an allowed
 * pair and every ring tile allows some tile on its outer sides.  Answered
 * by a counterexample-guided loop of two SAT solvers, never by listing
 * borders.  Square topology only (hex: an error). */

/* The frame: a (k+2) x (k+2) map with no pins, the border on its outer
 * cells and the chunk inside (k from 1 to 64). */
TILESAT_API tilesat_map *tilesat_chunk_frame(const tilesat_rules *r, int k,
                                             tilesat_topology topo,
                                             tilesat_error *err);
/* 1: complete (every valid border has a filling); 0: not, and `border`
 * ((k+2)*(k+2) ints, may be NULL) receives a valid border no filling
 * completes, its tiles on the frame's outer cells, TILESAT_NO_TILE on the
 * chunk's; -1 on error (interrupted, bad k, hex).
 * *refutations (may be NULL): the fillings found, each refuting every
 * border it fits (0 with 1: the rules allow no border at all). */
TILESAT_API int tilesat_chunk_check(const tilesat_rules *r, int k,
                                    tilesat_topology topo,
                                    const tilesat_solve_options *so,
                                    int *border, long *refutations,
                                    tilesat_error *err);
/* How many of the 8 symmetries of the square (rotations, reflections) the
 * rules keep, the identity included: those with a permutation of the tiles
 * that keeps every allowed pair.  tilesat_chunk_check learns each
 * refutation's images under them.  -1 on error (hex rules). */
TILESAT_API int tilesat_chunk_symmetries(const tilesat_rules *r,
                                         tilesat_error *err);

/* The name that marks the chunk's cells in a written border: ".", or the
 * first of "?", "_", "*", "~" that names no tile, else "(chunk)" (read it
 * back with --pins-from FILE --free-tile NAME). */
TILESAT_API const char *tilesat_chunk_free_name(const tilesat_rules *r);
/* The frame with the border's tiles on its ring and the free name inside:
 * a character grid when every tile name is one character, else a name
 * grid; both read back by tilesat_grid_parse. */
TILESAT_API int tilesat_chunk_write(const tilesat_map *frame, const int *border,
                                    FILE *out);

#ifdef __cplusplus
}
#endif

#endif
