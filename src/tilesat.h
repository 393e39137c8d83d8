/*
 * tilesat.h: the one public header of libtilesat, a SAT-based model checker
 * for tiled-map rules (Wave Function Collapse / "Even Simpler Tiled Model").
 *
 * Data flows one way:
 *
 *   sample grid --extract--> rules --(size, topology, pins)--> map
 *        map --encode--> CNF --backend--> witness maps / enumeration
 *
 * Conventions for every function below:
 *  - Errors caused by input (files, sizes, pins) return NULL or -1 and, when
 *    `err` is not NULL, fill it with "FILE:LINE: message" (or "what: message"
 *    for things that are not in a file).  The library never exits and never
 *    prints.  API misuse (NULL handles, indices out of range) aborts with the
 *    function's name.  Running out of memory aborts with a message.
 *  - Results of solving use SAT-solver convention: TILESAT_SAT (10),
 *    TILESAT_UNSAT (20), TILESAT_UNKNOWN (0).
 *  - Every `_free` accepts NULL.  Strings returned by accessors live as long
 *    as the object they come from.
 *  - Cells are named (row, col), row 0 on top; sizes are WIDTH x HEIGHT.
 *    A map's cells are numbered row-major: cell = row * width + col, and a
 *    map's content is an array of width*height tile indices.
 */
#ifndef TILESAT_H
#define TILESAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TILESAT_VERSION "0.1.0"

enum { TILESAT_UNKNOWN = 0, TILESAT_SAT = 10, TILESAT_UNSAT = 20 };

typedef struct tilesat_error {
  char msg[1024];
} tilesat_error;

/* ---------------------------------------------------------------- topology */

typedef enum tilesat_topology {
  TILESAT_SQUARE = 0, /* directions N E S W, row 0 on top */
  TILESAT_HEX = 1,    /* pointy-top, odd-r offset rows (odd rows shifted half
                         a cell right); directions E W NE NW SE SW */
} tilesat_topology;

/* Number of directions of a topology (4 or 6). */
int tilesat_topology_ndirs(tilesat_topology topo);
/* Direction names: square "N" "E" "S" "W"; hex "E" "W" "NE" "NW" "SE" "SW". */
const char *tilesat_dir_name(tilesat_topology topo, int dir);
/* The opposite direction (N<->S, E<->W, NE<->SW, NW<->SE). */
int tilesat_dir_opposite(tilesat_topology topo, int dir);
/* Direction index by name, or -1. */
int tilesat_dir_find(tilesat_topology topo, const char *name);
/* "square" / "hex"; parse returns 0 on success, -1 on an unknown name. */
const char *tilesat_topology_name(tilesat_topology topo);
int tilesat_topology_parse(const char *name, tilesat_topology *out);

/* The neighbour of (row, col) in direction `dir` on a width x height map:
 * returns true and sets *nrow, *ncol, or false where the map ends.  With
 * `periodic` both axes wrap (hex maps must then have an even height). */
bool tilesat_neighbor(tilesat_topology topo, int width, int height,
                      bool periodic, int row, int col, int dir, int *nrow,
                      int *ncol);

/* ------------------------------------------------------------------- grids */

/* A grid of named tiles: a sample map as read from a file, with its own tile
 * names.  Two text forms, both read by tilesat_grid_parse:
 *  - character grids: one tile per UTF-8 code point, one row per line, all
 *    rows the same length; no comments ('#' is an ordinary tile);
 *  - name grids: a first line "tilesat-grid names", then one row per line of
 *    whitespace-separated tile names ("quoted" when a name has spaces). */
typedef struct tilesat_grid tilesat_grid;

tilesat_grid *tilesat_grid_parse(const char *text, size_t len,
                                 const char *filename, tilesat_error *err);
tilesat_grid *tilesat_grid_read_file(const char *path, tilesat_error *err);
void tilesat_grid_free(tilesat_grid *g);
int tilesat_grid_width(const tilesat_grid *g);
int tilesat_grid_height(const tilesat_grid *g);
const char *tilesat_grid_filename(const tilesat_grid *g);
/* The tile name at (row, col). */
const char *tilesat_grid_at(const tilesat_grid *g, int row, int col);

/* ------------------------------------------------------------------- rules */

/* A rule set: tiles (names and weights), a topology, and for every tile a and
 * direction d the set of tiles b that may stand in direction d of a.  Rules
 * are symmetric: b may stand d of a iff a may stand opposite(d) of b. */
typedef struct tilesat_rules tilesat_rules;

/* ESTM extraction: b may stand in direction d of a iff (a, b) was seen in
 * direction d in some sample.  Tiles are numbered in order of first
 * appearance (reading order, sample by sample); weights count occurrences.
 * With `periodic_input` the samples wrap around both axes. */
tilesat_rules *tilesat_extract(const tilesat_grid *const *samples,
                               size_t nsamples, tilesat_topology topo,
                               bool periodic_input, tilesat_error *err);

/* The rules file format is documented in rules/README.md; write then parse
 * gives back the same rule set. */
tilesat_rules *tilesat_rules_parse(const char *text, size_t len,
                                   const char *filename, tilesat_error *err);
tilesat_rules *tilesat_rules_read_file(const char *path, tilesat_error *err);
int tilesat_rules_write(const tilesat_rules *r, FILE *out);
void tilesat_rules_free(tilesat_rules *r);

int tilesat_rules_ntiles(const tilesat_rules *r);
tilesat_topology tilesat_rules_topology(const tilesat_rules *r);
const char *tilesat_rules_tile_name(const tilesat_rules *r, int tile);
uint64_t tilesat_rules_weight(const tilesat_rules *r, int tile);
/* Tile index by name, or -1. */
int tilesat_rules_find_tile(const tilesat_rules *r, const char *name);
/* May tile b stand in direction dir of tile a? */
bool tilesat_rules_allows(const tilesat_rules *r, int a, int dir, int b);

/* --------------------------------------------------------------------- maps */

/* A map to fill: a rule set, a size, a topology (which must have as many
 * directions as the rules), optional wrap-around, and pinned tiles.  The map
 * borrows the rules: they must outlive it. */
typedef struct tilesat_map tilesat_map;

/* Largest number of cells times tiles a map may have (CNF variables are
 * ints, and every command keeps a few arrays of that many). */
#define TILESAT_MAX_CELL_TILES (1 << 28)

tilesat_map *tilesat_map_new(const tilesat_rules *r, int width, int height,
                             tilesat_topology topo, bool periodic,
                             tilesat_error *err);
void tilesat_map_free(tilesat_map *m);
/* Pin `tile` (a name) at (row, col). */
int tilesat_map_pin(tilesat_map *m, int row, int col, const char *tile,
                    tilesat_error *err);
/* Parse "WxH" (both positive; the product must fit TILESAT_MAX_CELL_TILES
 * once multiplied by the number of tiles, checked by tilesat_map_new). */
int tilesat_parse_size(const char *s, int *width, int *height,
                       tilesat_error *err);
/* Parse "ROW,COL=TILE" and pin it. */
int tilesat_map_pin_spec(tilesat_map *m, const char *spec, tilesat_error *err);

int tilesat_map_width(const tilesat_map *m);
int tilesat_map_height(const tilesat_map *m);
const tilesat_rules *tilesat_map_rules(const tilesat_map *m);

/* Check a filled map (width*height tile indices) against the rules, the
 * pins and the topology directly, without the CNF encoder.  Returns true if
 * valid; otherwise false and, if `why` is not NULL, a sentence naming the
 * first broken constraint. */
bool tilesat_map_verify(const tilesat_map *m, const int *tiles, char *why,
                        size_t whylen);

/* Write a filled map as a text grid that tilesat_grid_parse reads back: a
 * character grid when every tile name is one printable code point, a name
 * grid otherwise. */
int tilesat_map_write(const tilesat_map *m, const int *tiles, FILE *out);

/* ---------------------------------------------------------------- encoding */

/* Variable (cell, tile) is cell * ntiles + tile + 1; auxiliary variables of
 * the at-most-one encoding (only with more than 8 tiles) come after them and
 * are functionally determined by the tile variables, so the CNF has exactly
 * one model per valid map. */
int tilesat_encode_dimacs(const tilesat_map *m, FILE *out);
/* The same constraints as readable propositions (L_0_1 is "tile L at row 0,
 * column 1"). */
int tilesat_encode_props(const tilesat_map *m, FILE *out);

/* ----------------------------------------------------------------- solving */

typedef enum tilesat_backend {
  TILESAT_PICOSAT = 0,
  TILESAT_CRYPTOMINISAT = 1,
} tilesat_backend;

const char *tilesat_backend_name(tilesat_backend b);
int tilesat_backend_parse(const char *name, tilesat_backend *out);

/* Is there a valid map?  On TILESAT_SAT, `tiles` (width*height ints, may be
 * NULL) receives a witness that has passed tilesat_map_verify.  Returns
 * TILESAT_SAT, TILESAT_UNSAT, or -1 on error (a witness failing verification
 * is an internal error, reported, never printed as an answer). */
int tilesat_check(const tilesat_map *m, tilesat_backend b, int *tiles,
                  tilesat_error *err);

/* Called with each valid map; return nonzero to stop the enumeration. */
typedef int (*tilesat_map_fn)(void *user, const int *tiles);

/* Enumerate valid maps (each exactly once, each verified), at most `limit`
 * of them when limit > 0.  Returns how many were found, or -1 on error. */
int64_t tilesat_enumerate(const tilesat_map *m, tilesat_backend b,
                          int64_t limit, tilesat_map_fn fn, void *user,
                          tilesat_error *err);

/* --------------------------------------------------------------- annealing */

/* Soft constraints: an energy over a map's fillings and an annealing
 * sampler for it (issue 5).  The energy is a sum of optional terms, each
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
long tilesat_palindrome_score(const int *line, int n);

typedef struct tilesat_energy tilesat_energy;

/* A new energy over map `m` (borrowed: it must outlive the energy) with
 * only the hard term, at the default weight (see tilesat_energy_prepare). */
tilesat_energy *tilesat_energy_new(const tilesat_map *m);
void tilesat_energy_free(tilesat_energy *e);
/* Add the terms of an energy file's text; errors "FILE:LINE: message". */
int tilesat_energy_parse(tilesat_energy *e, const char *text, size_t len,
                         const char *filename, tilesat_error *err);
int tilesat_energy_read_file(tilesat_energy *e, const char *path,
                             tilesat_error *err);
/* One energy-file line given as a command-line option: `option` names it in
 * errors ("--frequency: ..."), `line` is e.g. "frequency 2". */
int tilesat_energy_option(tilesat_energy *e, const char *option,
                          const char *line, tilesat_error *err);
/* Freeze the terms: compute targets (an error if explicit targets or pins
 * cannot fit, or exact counts are impossible) and the default hard weight,
 * 1 + twice the largest change any single cell can make to the soft terms
 * (coherence, bias, line score, and frequency whatever the counts: up to
 * frequency * (4 cells + 2)), so no move that adds a violation ever lowers
 * the energy.  Must be called once before the
 * functions below. */
int tilesat_energy_prepare(tilesat_energy *e, tilesat_error *err);
const tilesat_map *tilesat_energy_map(const tilesat_energy *e);
double tilesat_energy_hard_weight(const tilesat_energy *e);
/* Target count of a tile (prepared energy). */
int64_t tilesat_energy_target(const tilesat_energy *e, int tile);
/* Are counts fixed exactly to the targets ("counts exact")? */
bool tilesat_energy_exact(const tilesat_energy *e);
/* Does the energy have a term that is not quadratic (the line score)? */
bool tilesat_energy_has_line_term(const tilesat_energy *e);
/* The energy of a filled map (every cell a tile; pins are not checked), from
 * scratch, independent of the sampler's incremental bookkeeping. */
double tilesat_energy_eval(const tilesat_energy *e, const int *tiles);
/* Disallowed adjacent pairs in a filled map (each edge once). */
long tilesat_energy_violations(const tilesat_energy *e, const int *tiles);

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
int tilesat_energy_write_qubo(const tilesat_energy *e, FILE *out,
                              double *offset, tilesat_error *err);

/* Progress report: called after some sweeps (about 20 times a run). */
typedef void (*tilesat_anneal_progress_fn)(void *user, int restart, long sweep,
                                           double beta, double energy,
                                           long violations);

typedef struct tilesat_anneal_opts {
  uint64_t seed;     /* same seed, same map (default 1) */
  long sweeps;       /* sweeps per restart (0: the default, 1000) */
  double beta_lo;    /* geometric schedule from beta_lo to beta_hi; both 0: */
  double beta_hi;    /* chosen from the energy scale (see anneal.c) */
  int restarts;      /* independent runs, the best kept (default 1) */
  int replicas;      /* replica exchange: replicas per run (default 1: off) */
  bool repair;       /* repair violations with the SAT backend (default on) */
  bool stop_at_zero; /* stop a run when it reaches zero violations and the
                        energy has no soft term (default on) */
  tilesat_backend backend;
  tilesat_anneal_progress_fn progress; /* may be NULL */
  void *progress_user;
  int *annealed; /* if not NULL (width*height): the map before the repair */
} tilesat_anneal_opts;

void tilesat_anneal_defaults(tilesat_anneal_opts *o);

/* What a run did. */
typedef struct tilesat_anneal_stats {
  double energy;            /* of the returned map, evaluated from scratch */
  long violations;          /* of the returned map */
  double beta_lo, beta_hi;  /* the schedule used */
  long sweeps_done;         /* over all restarts */
  double site_updates;      /* single-site updates and swap attempts */
  long zero_sweep;          /* first sweep with zero violations, or -1 */
  double zero_seconds;      /* wall time to it, or -1 */
  double seconds;           /* annealing time (without repair) */
  long violations_annealed; /* before the repair */
  long repaired_cells;      /* cells the repair changed */
  int repair_regions;       /* regions handed to the SAT backend */
  int repair_result;        /* TILESAT_SAT, TILESAT_UNSAT (no valid map exists
                               around the pins), 0 when no repair ran */
} tilesat_anneal_stats;

/* Anneal a prepared energy; `tiles` (width*height) receives the best map
 * found.  When violations remain and opts->repair is set, the violating
 * cells and a margin around them (2 cells, doubled until the backend finds
 * a map, up to the whole map) are re-solved with every other cell pinned,
 * keeping as many annealed tiles as the backend allows; with soft terms
 * (and counts not exact) a tenth of the sweeps then polish the repaired map
 * at the coldest beta, where no violation can come back.
 * Returns 0, or -1 on error. */
int tilesat_anneal(const tilesat_energy *e, const tilesat_anneal_opts *opts,
                   int *tiles, tilesat_anneal_stats *stats, tilesat_error *err);

#endif
