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

/* ------------------------------------------------------------ explanations */

/* The constraints a map is made of, at the level a designer thinks in: each
 * cell holds exactly one tile, each pin holds, and each pair of
 * neighbouring cells holds an allowed pair (one constraint per pair of
 * cells, seen from either side). */
typedef enum tilesat_constraint_kind {
  TILESAT_ONE_TILE = 0, /* (row, col) holds exactly one tile */
  TILESAT_PINNED = 1,   /* (row, col) holds its pinned tile */
  TILESAT_ADJACENT = 2, /* (row, col) and its neighbour in direction `dir`,
                           (nrow, ncol), hold an allowed pair */
} tilesat_constraint_kind;

typedef struct tilesat_constraint {
  tilesat_constraint_kind kind;
  int row, col;
  int dir;        /* ADJACENT: direction from (row, col) to the neighbour */
  int nrow, ncol; /* ADJACENT: the neighbour; otherwise -1 */
  int pin;        /* PINNED: index of the pin, in the order pinned; else -1 */
  int tile;       /* PINNED: the pinned tile; otherwise -1 */
} tilesat_constraint;

/* How many constraints the map has: cells + pins + neighbouring pairs. */
int tilesat_constraint_count(const tilesat_map *m);

/* Is this set of the map's constraints satisfiable on its own, with every
 * other constraint of the map dropped (a cell without its one-tile
 * constraint may then hold no tile or several)?  TILESAT_SAT,
 * TILESAT_UNSAT, or -1 with an error when a constraint is not one of the
 * map's. */
int tilesat_constraints_check(const tilesat_map *m, tilesat_backend b,
                              const tilesat_constraint *cs, size_t n,
                              tilesat_error *err);

/* Why a map has no valid filling: a minimal set of its constraints that
 * cannot hold together (dropping any one leaves a satisfiable set; this is
 * checked before it is returned), preferring sets with few cells.  The
 * explanation borrows the map, which must outlive it. */
typedef struct tilesat_explanation tilesat_explanation;

/* TILESAT_SAT (a valid map exists; *out is NULL), TILESAT_UNSAT (*out is
 * set), or -1 on error. */
int tilesat_explain(const tilesat_map *m, tilesat_backend b,
                    tilesat_explanation **out, tilesat_error *err);
void tilesat_explanation_free(tilesat_explanation *e);
/* The constraints, in a stable order (by cell, row-major, then kind). */
size_t tilesat_explanation_size(const tilesat_explanation *e);
const tilesat_constraint *
tilesat_explanation_constraint(const tilesat_explanation *e, size_t i);
/* Cells involved (row-major cell numbers; the array lives as long as e). */
size_t tilesat_explanation_cells(const tilesat_explanation *e,
                                 const int **cells);
/* Does propagation on these constraints alone reach the contradiction (or
 * does it take search)? */
bool tilesat_explanation_by_propagation(const tilesat_explanation *e);
/* The constraints, what each rules out and why, and a picture of the map
 * marking the cells involved; or the same content as a JSON document. */
int tilesat_explanation_write(const tilesat_explanation *e, FILE *out);
int tilesat_explanation_write_json(const tilesat_explanation *e, FILE *out);
/* The SAT answer of `explain` in JSON ({"result": "SAT", ...}). */
int tilesat_explain_write_sat_json(const tilesat_map *m, FILE *out);

/* ------------------------------------------------------------------ traces */

/* WFC's propagation made visible: every cell starts with every tile;
 * propagation (arc consistency) removes tiles, each removal recorded with
 * its reason; pins, then choices, keep one tile in a cell.  The trace
 * borrows the map. */
typedef struct tilesat_trace tilesat_trace;

/* Propagate from the start, then apply the map's pins together and
 * propagate.  Stops at the first contradiction. */
tilesat_trace *tilesat_trace_new(const tilesat_map *m);
void tilesat_trace_free(tilesat_trace *t);
/* Choose `tile` at (row, col) and propagate.  Returns TILESAT_UNSAT on a
 * contradiction (now or earlier: nothing more is done), else 0. */
int tilesat_trace_choose(tilesat_trace *t, int row, int col, int tile);
/* TILESAT_UNSAT after a contradiction, TILESAT_SAT if every cell holds one
 * tile, else TILESAT_UNKNOWN. */
int tilesat_trace_status(const tilesat_trace *t);
/* Is `tile` still possible at (row, col)? */
bool tilesat_trace_possible(const tilesat_trace *t, int row, int col, int tile);
/* After a contradiction: the chain of steps that led to it (back to the
 * pins and choices that caused it), only those.  Otherwise every step,
 * then the remaining domains as a grid. */
int tilesat_trace_write(const tilesat_trace *t, FILE *out);
int tilesat_trace_write_json(const tilesat_trace *t, FILE *out);

/* --------------------------------------------------------------- analysis */

/* A report on a rule set: tiles with no neighbour in some direction, tiles
 * that appear in no valid map from 2x2 to max x max, which sizes from 1x1
 * to max x max are satisfiable, and, when max x max is not ("hard"), the
 * explanation for the smallest unsatisfiable size (by area, then width). */
typedef struct tilesat_analysis tilesat_analysis;

/* max from 1 to 64.  NULL with an error (topology mismatch, bad max). */
tilesat_analysis *tilesat_analyze(const tilesat_rules *r, int max,
                                  tilesat_topology topo, bool periodic,
                                  tilesat_backend b, tilesat_error *err);
void tilesat_analysis_free(tilesat_analysis *a);
/* TILESAT_SAT / TILESAT_UNSAT for width x height, or TILESAT_UNKNOWN when
 * the size is not a valid map (odd height on a periodic hex map). */
int tilesat_analysis_result(const tilesat_analysis *a, int width, int height);
/* Does the tile appear in some valid map from 2x2 (1x1 when max is 1) to
 * max x max?  (Every tile fits a 1x1 map, where it has no neighbour.) */
bool tilesat_analysis_tile_appears(const tilesat_analysis *a, int tile);
/* Is max x max unsatisfiable? */
bool tilesat_analysis_hard(const tilesat_analysis *a);
int tilesat_analysis_write(const tilesat_analysis *a, FILE *out);

#endif
