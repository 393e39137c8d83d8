/* tilesat.h: libtilesat, a SAT-based model checker for tiled-map rules
 * (WFC's simple tiled model); making maps is in tilesat_gen.h, included at
 * the end.  docs/reference.md says what each declaration does at length
 * (formats, options, results).  The contract, for every function:
 *  - Input errors return NULL or -1 (or the answer's -1) and fill `err`, if
 *    not NULL: "FILE:LINE: message" or "what: message".  The library never
 *    prints nor exits; misuse (NULL handles, indices out of range) and
 *    running out of memory abort with a message.
 *  - Answers: TILESAT_SAT (10), TILESAT_UNSAT (20), TILESAT_UNKNOWN (0).
 *  - A new object returned (any non-const pointer but a FILE *) is the
 *    caller's, freed by its type's _free (which takes NULL); a char * is
 *    malloc'd: free() it.  A const pointer returned (strings, arrays,
 *    _info fields) belongs to the object it came from and lives as long
 *    as it.  An object made from a map or rules borrows them.
 *  - Cells are (row, col), row 0 on top, numbered row * width + col; a
 *    filled map is width*height tile indices; sizes are WIDTH x HEIGHT. */
#ifndef TILESAT_H
#define TILESAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shared libraries export exactly what is declared TILESAT_API. */
#if defined(TILESAT_HIDE_API) || !defined(__GNUC__)
#define TILESAT_API
#else
#define TILESAT_API __attribute__((visibility("default")))
#endif

/* The only copy of the version (the Makefile reads it); and the version of
 * the library linked (may differ from the header's). */
#define TILESAT_VERSION "0.1.0"
TILESAT_API const char *tilesat_version(void);

enum { TILESAT_UNKNOWN = 0, TILESAT_SAT = 10, TILESAT_UNSAT = 20 };

/* An error: its message, and the parameter it is about ("size"), else "". */
typedef struct tilesat_error {
  char msg[1024];
  char param[32];
} tilesat_error;

/* ---- writing files: whole or not at all (a temporary renamed over) */
typedef struct tilesat_output tilesat_output;
TILESAT_API tilesat_output *tilesat_output_open(const char *path,
                                                tilesat_error *err);
/* Would tilesat_output_open succeed?  0, or -1 with its error. */
TILESAT_API int tilesat_output_check(const char *path, tilesat_error *err);
/* The stream (the output's) and the temporary's path (NULL: direct). */
TILESAT_API FILE *tilesat_output_file(const tilesat_output *o);
TILESAT_API const char *tilesat_output_temp(const tilesat_output *o);
/* Both free o: commit puts the file in place (0, or -1 with err and the
 * temporary removed); discard removes the temporary. */
TILESAT_API int tilesat_output_commit(tilesat_output *o, tilesat_error *err);
TILESAT_API void tilesat_output_discard(tilesat_output *o);

/* ---- topology: directions N E S W (square), E W NE NW SE SW (hex) */
typedef enum tilesat_topology {
  TILESAT_SQUARE = 0,
  TILESAT_HEX = 1, /* pointy-top, odd rows shifted half a cell right */
} tilesat_topology;
TILESAT_API int tilesat_topology_ndirs(tilesat_topology topo);
TILESAT_API const char *tilesat_dir_name(tilesat_topology topo, int dir);
TILESAT_API int tilesat_dir_opposite(tilesat_topology topo, int dir);
/* Lookups by name: -1 when none (parse: 0 or -1). */
TILESAT_API int tilesat_dir_find(tilesat_topology topo, const char *name);
TILESAT_API const char *tilesat_topology_name(tilesat_topology topo);
TILESAT_API int tilesat_topology_parse(const char *name, tilesat_topology *out);
/* The neighbour in direction dir: false where the map ends. */
TILESAT_API bool tilesat_neighbor(tilesat_topology topo, int width, int height,
                                  bool periodic, int row, int col, int dir,
                                  int *nrow, int *ncol);
/* A whole file, malloc'd, *len bytes; "-" is standard input, read once. */
TILESAT_API char *tilesat_read_file(const char *path, size_t *len,
                                    tilesat_error *err);

/* ---- grids: sample maps of named tiles (character or name grids) */
typedef struct tilesat_grid tilesat_grid;
TILESAT_API tilesat_grid *tilesat_grid_parse(const char *text, size_t len,
                                             const char *filename,
                                             tilesat_error *err);
TILESAT_API tilesat_grid *tilesat_grid_read_file(const char *path,
                                                 tilesat_error *err);
TILESAT_API void tilesat_grid_free(tilesat_grid *g);
TILESAT_API int tilesat_grid_width(const tilesat_grid *g);
TILESAT_API int tilesat_grid_height(const tilesat_grid *g);
TILESAT_API const char *tilesat_grid_filename(const tilesat_grid *g);
/* The tile name at (row, col); NULL for a cell excluded from the sample. */
TILESAT_API const char *tilesat_grid_at(const tilesat_grid *g, int row,
                                        int col);

/* ---- rules: tiles, weights, and which tile may stand beside which */
typedef struct tilesat_rules tilesat_rules;
/* Every pair seen in the samples is allowed (ESTM). */
TILESAT_API tilesat_rules *
tilesat_extract(const tilesat_grid *const *samples, size_t nsamples,
                tilesat_topology topo, bool periodic_input, tilesat_error *err);
TILESAT_API tilesat_rules *tilesat_rules_parse(const char *text, size_t len,
                                               const char *filename,
                                               tilesat_error *err);
TILESAT_API tilesat_rules *tilesat_rules_read_file(const char *path,
                                                   tilesat_error *err);
TILESAT_API int tilesat_rules_write(const tilesat_rules *r, FILE *out);
TILESAT_API void tilesat_rules_free(tilesat_rules *r);
TILESAT_API int tilesat_rules_ntiles(const tilesat_rules *r);
TILESAT_API tilesat_topology tilesat_rules_topology(const tilesat_rules *r);
TILESAT_API const char *tilesat_rules_tile_name(const tilesat_rules *r,
                                                int tile);
TILESAT_API uint64_t tilesat_rules_weight(const tilesat_rules *r, int tile);
TILESAT_API int tilesat_rules_find_tile(const tilesat_rules *r,
                                        const char *name); /* -1: none */
/* "Did you mean ...": into buf (cut to size); the length, 0: nothing. */
TILESAT_API size_t tilesat_suggest(const char *word, const char *const *names,
                                   int n, const char *noun, char *buf,
                                   size_t size);
TILESAT_API size_t tilesat_rules_tile_hint(const tilesat_rules *r,
                                           const char *name, char *buf,
                                           size_t size);
/* May tile b stand in direction dir of tile a? */
TILESAT_API bool tilesat_rules_allows(const tilesat_rules *r, int a, int dir,
                                      int b);
/* Names as files hold them: written (quoted when needed), encoded and
 * decoded (malloc'd), shown safely in a message (into out). */
TILESAT_API void tilesat_write_name(FILE *out, const char *name);
TILESAT_API char *tilesat_name_encode(const char *name);
TILESAT_API char *tilesat_name_decode(const char *text);
TILESAT_API void tilesat_shown(char *out, size_t size, const char *s);

/* ---- maps: rules (borrowed), a size, wrap-around, pins, bans, masks */
typedef struct tilesat_map tilesat_map;
#define TILESAT_MAX_CELL_TILES (1 << 28)
TILESAT_API tilesat_map *tilesat_map_new(const tilesat_rules *r, int width,
                                         int height, tilesat_topology topo,
                                         bool periodic, tilesat_error *err);
/* Past TILESAT_MAX_CELL_TILES, for collapse's modify guard alone. */
#define TILESAT_MAX_MODIFY_CELLS (1 << 28)
TILESAT_API tilesat_map *
tilesat_map_new_large(const tilesat_rules *r, int width, int height,
                      tilesat_topology topo, bool periodic, tilesat_error *err);
TILESAT_API void tilesat_map_free(tilesat_map *m);
/* Pin a tile (by name), ban one (by index), mask a cell (no tile, no
 * neighbours); 0, or -1 with err. */
TILESAT_API int tilesat_map_pin(tilesat_map *m, int row, int col,
                                const char *tile, tilesat_error *err);
TILESAT_API int tilesat_map_ban(tilesat_map *m, int row, int col, int tile,
                                tilesat_error *err);
#define TILESAT_NO_TILE (-1) /* a masked cell's tile */
TILESAT_API int tilesat_map_mask(tilesat_map *m, int row, int col,
                                 tilesat_error *err);
TILESAT_API bool tilesat_map_masked(const tilesat_map *m, int row, int col);
/* "WxH", "ROW,COL=TILE" (pinned, or parsed; errors from `what`). */
TILESAT_API int tilesat_parse_size(const char *s, int *width, int *height,
                                   tilesat_error *err);
TILESAT_API int tilesat_map_pin_spec(tilesat_map *m, const char *spec,
                                     tilesat_error *err);
TILESAT_API int tilesat_map_parse_cell(const tilesat_map *m, const char *spec,
                                       const char *what, int *row, int *col,
                                       int *tile, tilesat_error *err);
/* The bytes a function on m may use before it refuses (-1 with err). */
TILESAT_API void tilesat_map_set_max_memory(tilesat_map *m, size_t bytes);
TILESAT_API size_t tilesat_default_max_memory(void);
/* The map in one struct, filled by tilesat_map_get. */
typedef struct tilesat_map_info {
  const tilesat_rules *rules; /* borrowed */
  int width, height;
  tilesat_topology topo;
  bool periodic; /* both axes wrap around */
  bool large;    /* made by tilesat_map_new_large past the bound */
  int npins, nbans, nmasked, nglobals;
  size_t max_memory;
} tilesat_map_info;
TILESAT_API void tilesat_map_get(const tilesat_map *m, tilesat_map_info *info);
/* Pin i (< npins), in the order pinned. */
TILESAT_API void tilesat_map_pin_get(const tilesat_map *m, int i, int *cell,
                                     int *tile);
/* Check a filled map without the CNF; false with the reason in why. */
TILESAT_API bool tilesat_map_verify(const tilesat_map *m, const int *tiles,
                                    char *why, size_t whylen);
/* A filled map as a grid tilesat_grid_parse reads back. */
TILESAT_API int tilesat_map_write(const tilesat_map *m, const int *tiles,
                                  FILE *out);

/* ---- global constraints: on a class of tiles, over the whole map */
typedef enum tilesat_global_kind {
  TILESAT_GLOBAL_COUNT = 0,
  TILESAT_GLOBAL_CONNECTED = 1,
  TILESAT_GLOBAL_PATH = 2,
  TILESAT_GLOBAL_BORDER = 3,
} tilesat_global_kind;
/* A constraints file, or one constraint's short form; 0 or -1 with err. */
TILESAT_API int tilesat_map_constraints_parse(tilesat_map *m, const char *text,
                                              size_t len, const char *filename,
                                              tilesat_error *err);
TILESAT_API int tilesat_map_constraints_read_file(tilesat_map *m,
                                                  const char *path,
                                                  tilesat_error *err);
TILESAT_API int tilesat_map_constraint_add(tilesat_map *m,
                                           tilesat_global_kind kind,
                                           const char *spec, const char *origin,
                                           tilesat_error *err);
/* Constraint i (< nglobals): its kind, words and origin (the map's). */
TILESAT_API tilesat_global_kind tilesat_map_global_kind(const tilesat_map *m,
                                                        int i);
TILESAT_API const char *tilesat_map_global_text(const tilesat_map *m, int i);
TILESAT_API const char *tilesat_map_global_origin(const tilesat_map *m, int i);
/* -1 with err naming `what` when m has a kind not in `kinds`, a mask of
 * 1 << kind (masked cells: unless TILESAT_KEEPS_MASK); else 0. */
#define TILESAT_KEEPS_MASK (1u << 16)
TILESAT_API int tilesat_map_refuse_globals(const tilesat_map *m, unsigned kinds,
                                           const char *what, const char *hint,
                                           tilesat_error *err);

/* ---- solving: the CNF (one model per valid map), check, enumerate */
TILESAT_API int tilesat_encode_dimacs(const tilesat_map *m, FILE *out);
TILESAT_API int tilesat_encode_props(const tilesat_map *m, FILE *out);
typedef enum tilesat_backend {
  TILESAT_PICOSAT = 0,
  TILESAT_CRYPTOMINISAT = 1,
  TILESAT_CADICAL = 2,
  TILESAT_BACKEND_AUTO = 3, /* by the map's size: tilesat_backend_choose */
} tilesat_backend;
TILESAT_API const char *tilesat_backend_name(tilesat_backend b);
TILESAT_API int tilesat_backend_parse(const char *name, tilesat_backend *out);
TILESAT_API tilesat_backend tilesat_backend_choose(const tilesat_map *m,
                                                   tilesat_backend b);
/* A progress line (often: the caller throttles, and only reads state). */
typedef void (*tilesat_progress_fn)(void *user, const char *line);
typedef struct tilesat_solve_stats {
  long solves, cut_rounds, cuts; /* solver calls, cut rounds, cut clauses */
} tilesat_solve_stats;
/* How to solve; NULL: PicoSAT, never stopped.  terminate returning nonzero
 * stops a function: -1 (NULL) with "interrupted". */
typedef struct tilesat_solve_options {
  tilesat_backend backend;
  int (*terminate)(void *user);
  void *terminate_user;
  tilesat_progress_fn progress;
  void *progress_user;
  tilesat_solve_stats *stats; /* not NULL: check and enumerate add to it */
} tilesat_solve_options;
/* A valid map?  SAT with a verified witness in tiles (may be NULL). */
TILESAT_API int tilesat_check(const tilesat_map *m,
                              const tilesat_solve_options *so, int *tiles,
                              tilesat_error *err);
/* Called with each map; nonzero stops. */
typedef int (*tilesat_map_fn)(void *user, const int *tiles);
/* Each valid map once (at most limit > 0): how many, or -1. */
TILESAT_API int64_t tilesat_enumerate(const tilesat_map *m,
                                      const tilesat_solve_options *so,
                                      int64_t limit, tilesat_map_fn fn,
                                      void *user, tilesat_error *err);

/* ---- counting and sampling */
typedef enum tilesat_method {
  TILESAT_METHOD_AUTO = 0,
  TILESAT_METHOD_DP,       /* exact (GMP) */
  TILESAT_METHOD_ENUM,     /* exact, by enumeration */
  TILESAT_METHOD_APPROX,   /* ApproxMC, (epsilon, delta) */
  TILESAT_METHOD_BOUNDS,   /* count: proved lower and upper bounds */
  TILESAT_METHOD_CHAIN,    /* sample: block Markov chain */
  TILESAT_METHOD_ESTIMATE, /* count: Monte Carlo with a 95% error bar */
} tilesat_method;
TILESAT_API const char *tilesat_method_name(tilesat_method m);
TILESAT_API int tilesat_method_parse(const char *name, tilesat_method *out);
/* What each field does: docs/reference.md; 0 is a default. */
typedef struct tilesat_count_options {
  tilesat_method method;
  tilesat_solve_options solve;
  double epsilon, delta; /* approx */
  double tolerance;      /* sample by approx */
  uint64_t seed;
  size_t max_memory; /* the dp's */
  long burn_in, sweeps;
  int block_width, block_height;
  int threads;
  int particles, replicates;
  double estimate_seconds;
  tilesat_progress_fn progress;
  void *progress_user;
  tilesat_progress_fn notice; /* the method changed (NULL: progress) */
  double bounds_seconds;
  int bounds_width;
  bool dp_plain_key; /* tests and benches */
  int dp_sets;       /* tests */
} tilesat_count_options;
TILESAT_API void tilesat_count_options_init(tilesat_count_options *o);
/* Strings malloc'd, freed by tilesat_count_result_free. */
typedef struct tilesat_count_result {
  char *count;      /* decimal; NULL when only bounds are known */
  bool approximate; /* approx: within its guarantee */
  tilesat_method method;
  char *lower, *upper; /* bounds, with their log2 and guarantees */
  double lower_log2, upper_log2;
  char lower_why[384], upper_why[384];
  bool estimated; /* an estimate: log10 and 95% half width */
  double estimate_log10, estimate_halfwidth;
} tilesat_count_result;
/* 0, or -1 with err (memory bound, interrupted, backend). */
TILESAT_API int tilesat_count(const tilesat_map *m,
                              const tilesat_count_options *o,
                              tilesat_count_result *res, tilesat_error *err);
TILESAT_API void tilesat_count_result_free(tilesat_count_result *res);
/* The maps by how many cells hold class cls: (*dist)[k], decimal. */
TILESAT_API int tilesat_count_by_tile(const tilesat_map *m, const char *cls,
                                      const tilesat_count_options *o,
                                      tilesat_count_result *res, char ***dist,
                                      tilesat_error *err);
TILESAT_API void tilesat_count_by_tile_free(const tilesat_map *m, char **dist);
/* n maps at random to fn: how many (0: none exists), or -1. */
TILESAT_API int tilesat_sample(const tilesat_map *m,
                               const tilesat_count_options *o, int n,
                               tilesat_map_fn fn, void *user,
                               tilesat_error *err);

/* ---- parts: a problem cut into n disjoint parts, the same everywhere */
#define TILESAT_MAX_PARTS 1000000
TILESAT_API void tilesat_map_fingerprint(const tilesat_map *m, char out[17]);
/* Part k of n: *part a new map (NULL: empty part); 0 or -1 with err. */
TILESAT_API int tilesat_map_part(const tilesat_map *m, int k, int n,
                                 tilesat_map **part, tilesat_error *err);
TILESAT_API int tilesat_count_part(const tilesat_map *m, int k, int n,
                                   const tilesat_count_options *o,
                                   tilesat_count_result *res,
                                   tilesat_error *err);
TILESAT_API int tilesat_sample_parts(const tilesat_map *m,
                                     const tilesat_count_options *o, int nparts,
                                     int n, tilesat_map_fn fn, void *user,
                                     tilesat_error *err);

/* ---- steps: propagation made visible (tile sets ascending) */
typedef enum tilesat_step_kind {
  TILESAT_STEP_PIN,       /* a pin or choice keeps `tile`: loses `tiles` */
  TILESAT_STEP_SUPPORT,   /* loses `tiles`: the neighbour's `from` allow none */
  TILESAT_STEP_EMPTY,     /* contradiction: no tile left in the cell */
  TILESAT_STEP_LOST,      /* contradiction: the pinned or chosen tile gone */
  TILESAT_STEP_MUST,      /* one of `tiles`: the neighbour's `from` say so */
  TILESAT_STEP_ONE,       /* one tile only, one of `from`: loses `tiles` */
  TILESAT_STEP_MUST_GONE, /* contradiction: its `tiles` are ruled out */
} tilesat_step_kind;
typedef struct tilesat_step {
  tilesat_step_kind kind;
  int row, col;
  int tile;            /* PIN, LOST: the tile; else -1 */
  int choice;          /* a choice's number; else 0 */
  int nrow, ncol, dir; /* SUPPORT, MUST: the neighbour; else -1 */
  const int *tiles;
  size_t ntiles;
  const int *from;
  size_t nfrom;
  const int *after; /* the steps it follows from */
  size_t nafter;
  int constraints[2]; /* explanations: the constraints it uses */
  int nconstraints;
} tilesat_step;
/* A list of steps; they and their arrays live as long as it. */
typedef struct tilesat_steps tilesat_steps;
TILESAT_API size_t tilesat_steps_count(const tilesat_steps *s);
TILESAT_API const tilesat_step *tilesat_steps_get(const tilesat_steps *s,
                                                  size_t i);
TILESAT_API bool tilesat_steps_contradiction(const tilesat_steps *s);
TILESAT_API void tilesat_steps_free(tilesat_steps *s);

/* ---- explanations: minimal sets of a map's constraints that clash */
typedef enum tilesat_constraint_kind {
  TILESAT_ONE_TILE = 0, /* (row, col) holds exactly one tile */
  TILESAT_PINNED = 1,   /* (row, col) holds its pinned tile */
  TILESAT_ADJACENT = 2, /* it and (nrow, ncol), direction dir: allowed */
  TILESAT_GLOBAL = 3,   /* global constraint number `global` */
} tilesat_constraint_kind;
typedef struct tilesat_constraint {
  tilesat_constraint_kind kind;
  int row, col;
  int dir;
  int nrow, ncol;
  int pin;  /* PINNED: the pin's index; else -1 */
  int tile; /* PINNED: its tile; else -1 */
  int global;
} tilesat_constraint;
TILESAT_API int tilesat_constraint_count(const tilesat_map *m);
/* These constraints alone: SAT, UNSAT, or -1 with err. */
TILESAT_API int tilesat_constraints_check(const tilesat_map *m,
                                          const tilesat_solve_options *so,
                                          const tilesat_constraint *cs,
                                          size_t n, tilesat_error *err);
/* An explanation borrows its map.  The explainers return TILESAT_SAT (no
 * clash: *out NULL), TILESAT_UNSAT (*out set), or -1 with err. */
typedef struct tilesat_explanation tilesat_explanation;
TILESAT_API int tilesat_explain(const tilesat_map *m,
                                const tilesat_solve_options *so,
                                tilesat_explanation **out, tilesat_error *err);
TILESAT_API void tilesat_explanation_free(tilesat_explanation *e);
/* The explanation in one struct, filled by tilesat_explanation_get. */
typedef struct tilesat_explanation_info {
  const tilesat_map *map;
  size_t size; /* constraints (tilesat_explanation_constraint) */
  size_t ncells;
  const int *cells;    /* the cells involved */
  bool by_propagation; /* propagation alone reaches the clash */
  bool window;         /* found in rows row0.., columns col0.. */
  int row0, col0, rows, cols;
  const tilesat_steps *steps;
} tilesat_explanation_info;
TILESAT_API void tilesat_explanation_get(const tilesat_explanation *e,
                                         tilesat_explanation_info *info);
TILESAT_API const tilesat_constraint *
tilesat_explanation_constraint(const tilesat_explanation *e, size_t i);
/* One with the fewest constraints. */
TILESAT_API int tilesat_explain_smallest(const tilesat_map *m,
                                         const tilesat_solve_options *so,
                                         tilesat_explanation **out,
                                         tilesat_error *err);
/* Groups to blame, in an order ("pins,rules,..." parsed: 0 or -1). */
typedef enum tilesat_blame {
  TILESAT_BLAME_PINS,
  TILESAT_BLAME_CELLS,
  TILESAT_BLAME_RULES,
  TILESAT_BLAME_BORDERS,
  TILESAT_BLAME_COUNTS,
  TILESAT_BLAME_CONNECTED,
  TILESAT_BLAME_PATHS,
  TILESAT_NBLAMES
} tilesat_blame;
TILESAT_API const char *tilesat_blame_name(tilesat_blame b);
TILESAT_API int tilesat_blame_parse(const char *list, tilesat_blame *order,
                                    tilesat_error *err);
TILESAT_API int tilesat_explain_preferred(const tilesat_map *m,
                                          const tilesat_solve_options *so,
                                          const tilesat_blame *order,
                                          tilesat_explanation **out,
                                          tilesat_error *err);
/* Up to limit, smallest first: *out an array of *n (free all together). */
TILESAT_API int tilesat_explain_all(const tilesat_map *m,
                                    const tilesat_solve_options *so,
                                    size_t limit, tilesat_explanation ***out,
                                    size_t *n, bool *complete,
                                    tilesat_error *err);
TILESAT_API void tilesat_explanations_free(tilesat_explanation **es, size_t n);

/* ---- repairs: the fewest pairs to allow (or pins to drop) for a map */
typedef struct tilesat_change {
  int a, dir, b;      /* a pair to allow; -1 for a pin */
  int pin;            /* a pin to drop; else -1 */
  int row, col, tile; /* the pin's; -1 for a pair */
} tilesat_change;
/* Repairs borrow their map.  SAT (nothing to repair: *out NULL), UNSAT
 * (*out set, maybe with no repair), or -1 with err. */
typedef struct tilesat_repairs tilesat_repairs;
TILESAT_API int tilesat_repair(const tilesat_map *m,
                               const tilesat_solve_options *so, bool keep_rules,
                               int limit, tilesat_repairs **out,
                               tilesat_error *err);
TILESAT_API void tilesat_repairs_free(tilesat_repairs *r);
/* The repairs in one struct, filled by tilesat_repairs_get. */
typedef struct tilesat_repairs_info {
  size_t count;
  bool complete;        /* all there are (fewer than the limit) */
  const char *found_in; /* the windows it came from; "": the whole map */
} tilesat_repairs_info;
TILESAT_API void tilesat_repairs_get(const tilesat_repairs *r,
                                     tilesat_repairs_info *info);
/* Repair i: its changes, and the rules with its pairs (the caller's). */
TILESAT_API size_t tilesat_repair_size(const tilesat_repairs *r, size_t i);
TILESAT_API const tilesat_change *
tilesat_repair_change(const tilesat_repairs *r, size_t i, size_t j);
TILESAT_API tilesat_rules *tilesat_rules_repaired(const tilesat_repairs *r,
                                                  size_t i);
/* Pins to drop from windows around them: UNSAT, 0 (undecided) or -1. */
TILESAT_API int tilesat_repair_pins_by_windows(const tilesat_map *m,
                                               const tilesat_solve_options *so,
                                               tilesat_repairs **out,
                                               tilesat_error *err);
/* The map without its pins: SAT, UNSAT or -1. */
TILESAT_API int tilesat_repair_rules_alone(const tilesat_map *m,
                                           const tilesat_solve_options *so,
                                           tilesat_error *err);

/* ---- traces: WFC's propagation step by step (borrows its map) */
typedef struct tilesat_trace tilesat_trace;
/* From the pins; tilesat_trace_fits (0 or -1 with err) asks first. */
TILESAT_API tilesat_trace *tilesat_trace_new(const tilesat_map *m);
TILESAT_API void tilesat_trace_free(tilesat_trace *t);
TILESAT_API int tilesat_trace_fits(const tilesat_map *m, tilesat_error *err);
/* Choose and propagate: TILESAT_UNSAT on a contradiction, else 0. */
TILESAT_API int tilesat_trace_choose(tilesat_trace *t, int row, int col,
                                     int tile);
TILESAT_API int tilesat_trace_choose_as(tilesat_trace *t, int row, int col,
                                        int tile, int number);
/* UNSAT, SAT (decided) or UNKNOWN. */
TILESAT_API int tilesat_trace_status(const tilesat_trace *t);
TILESAT_API bool tilesat_trace_possible(const tilesat_trace *t, int row,
                                        int col, int tile);
/* The steps (to the contradiction), the caller's: tilesat_steps_free. */
TILESAT_API tilesat_steps *tilesat_trace_steps(const tilesat_trace *t);
TILESAT_API const tilesat_map *tilesat_trace_map(const tilesat_trace *t);

/* ---- analysis: a rule set from 1x1 to max x max */
typedef struct tilesat_analysis tilesat_analysis;
/* max 1 to 64; NULL with err. */
TILESAT_API tilesat_analysis *tilesat_analyze(const tilesat_rules *r, int max,
                                              tilesat_topology topo,
                                              bool periodic,
                                              const tilesat_solve_options *so,
                                              tilesat_error *err);
TILESAT_API void tilesat_analysis_free(tilesat_analysis *a);
/* SAT or UNSAT (UNKNOWN: not a valid size); does tile appear in a map? */
TILESAT_API int tilesat_analysis_result(const tilesat_analysis *a, int width,
                                        int height);
TILESAT_API bool tilesat_analysis_tile_appears(const tilesat_analysis *a,
                                               int tile);
/* The analysis in one struct, filled by tilesat_analysis_get. */
typedef struct tilesat_analysis_info {
  const tilesat_rules *rules;
  int max;
  tilesat_topology topo;
  bool periodic;
  int least; /* tiles' appearance asked from least x least */
  bool hard; /* max x max is unsatisfiable */
  const tilesat_explanation *explanation; /* hard: the smallest's; or NULL */
} tilesat_analysis_info;
TILESAT_API void tilesat_analysis_get(const tilesat_analysis *a,
                                      tilesat_analysis_info *info);

#ifdef __cplusplus
}
#endif

#include "tilesat_gen.h" /* making maps */

#endif
