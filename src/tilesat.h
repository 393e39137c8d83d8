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

#include <signal.h>
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
/* The tile name at (row, col); NULL for a cell excluded from the sample
 * (a Tiled map's empty cell read with TILESAT_EMPTY_EXCLUDE). */
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
/* Parse "ROW,COL=TILE" for a cell of the map and a tile of its rules;
 * errors are reported as coming from `what` (e.g. "--choose"). */
int tilesat_map_parse_cell(const tilesat_map *m, const char *spec,
                           const char *what, int *row, int *col, int *tile,
                           tilesat_error *err);

int tilesat_map_width(const tilesat_map *m);
/* How many pins the map has. */
int tilesat_map_npins(const tilesat_map *m);
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

/* ------------------------------------------------- counting and sampling */

typedef enum tilesat_method {
  TILESAT_METHOD_AUTO = 0, /* dp; approx when the frontier outgrows memory */
  TILESAT_METHOD_DP,       /* exact: frontier dynamic programme (GMP) */
  TILESAT_METHOD_ENUM,     /* exact: enumeration with blocking clauses */
  TILESAT_METHOD_APPROX,   /* ApproxMC: (epsilon, delta) guarantee */
} tilesat_method;

const char *tilesat_method_name(tilesat_method m);
int tilesat_method_parse(const char *name, tilesat_method *out);

/* Called with a one-line progress report (often: the caller throttles). */
typedef void (*tilesat_progress_fn)(void *user, const char *line);

typedef struct tilesat_count_options {
  tilesat_method method;
  tilesat_backend backend; /* for enum; approx needs CryptoMiniSat's XORs */
  double epsilon, delta;   /* approx: within (1+epsilon), prob >= 1-delta */
  double tolerance;        /* sample by approx: each map's probability within a
                              factor 1+tolerance of uniform (>= 1.71) */
  uint64_t seed;           /* approx hashes and samples */
  size_t max_memory;       /* bytes the DP may use */
  const volatile sig_atomic_t *stop; /* nonzero: stop ("interrupted") */
  tilesat_progress_fn progress;
  void *progress_user;
  /* Called (with progress_user) when the method changes, i.e. auto falls
   * back from the dp to approx: a line not to throttle, since it changes
   * what the output means.  NULL: such lines go to progress. */
  tilesat_progress_fn notice;
} tilesat_count_options;

/* Defaults: auto, picosat, epsilon 0.8, delta 0.2, tolerance 6, seed 1,
 * 4 GiB. */
void tilesat_count_options_init(tilesat_count_options *o);

typedef struct tilesat_count_result {
  char *count;           /* decimal; malloc'd, freed by _result_free */
  bool approximate;      /* from approx: within the stated guarantee */
  tilesat_method method; /* the method that produced it */
} tilesat_count_result;

/* Count the valid maps.  Returns 0, or -1 with err (memory bound exceeded
 * for dp, interrupted, backend failure). */
int tilesat_count(const tilesat_map *m, const tilesat_count_options *o,
                  tilesat_count_result *res, tilesat_error *err);
void tilesat_count_result_free(tilesat_count_result *res);

/* Draw n valid maps at random, calling fn with each; the same seed gives
 * the same maps.  dp: exactly uniform, from the DP counts (its memory bound
 * applies).  approx: near-uniform by XOR hashing (UniGen): each map's
 * probability is within a factor 1+tolerance of uniform.  auto: dp, or
 * approx when the DP outgrows its memory bound.  enum is refused.  Returns
 * how many were drawn (0 when there is no valid map), or -1 with err. */
int tilesat_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                   tilesat_map_fn fn, void *user, tilesat_error *err);

/* ------------------------------------------------- images and tile pictures */

/* An RGBA picture, 8 bits per channel, rows top to bottom, 4 bytes a pixel. */
typedef struct tilesat_image {
  int width, height;
  uint8_t *rgba; /* width * height * 4 bytes */
} tilesat_image;

/* A transparent black width x height image (both positive). */
tilesat_image *tilesat_image_new(int width, int height);
void tilesat_image_free(tilesat_image *img);
/* Do these bytes start with the PNG signature?  Inputs are recognised by
 * their content, not their file name. */
bool tilesat_is_png(const void *data, size_t len);
/* Decode a PNG (any colour type and depth, through libpng) to RGBA.  A
 * truncated or corrupt file is an error naming it. */
tilesat_image *tilesat_image_read_png(const char *path, tilesat_error *err);
tilesat_image *tilesat_image_parse_png(const void *data, size_t len,
                                       const char *filename,
                                       tilesat_error *err);
int tilesat_image_write_png(const tilesat_image *img, const char *path,
                            tilesat_error *err);

/* Tile pictures: for each tile name a width x height RGBA picture, all of
 * one size.  With `overlap` N > 0 the tiles are N x N patterns of the
 * overlapping model: neighbouring cells share pixels, so a map of patterns is
 * drawn one pixel per cell (see tilesat_render).  A pictures file, written
 * and read by the functions below, is text (format in README.md): "size W
 * H" of every picture, "overlap N" (the pattern size, or 0), then a
 * "picture NAME COLOUR..." line per tile, W*H colours row by row:
 *
 *   tilesat-pictures 1
 *   size 2 2
 *   overlap 0
 *   picture "corner 0" #ff0000 #00ff00 #0000ff #000000
 *
 * A palette is a pictures file of size 1 1: it names colours. */
typedef struct tilesat_pictures tilesat_pictures;

tilesat_pictures *tilesat_pictures_new(int width, int height, int overlap);
void tilesat_pictures_free(tilesat_pictures *p);
int tilesat_pictures_width(const tilesat_pictures *p);
int tilesat_pictures_height(const tilesat_pictures *p);
int tilesat_pictures_overlap(const tilesat_pictures *p);
int tilesat_pictures_count(const tilesat_pictures *p);
const char *tilesat_pictures_name(const tilesat_pictures *p, int i);
/* Add (or replace) the picture of `name`: width*height*4 RGBA bytes, copied.
 * Returns its index. */
int tilesat_pictures_set(tilesat_pictures *p, const char *name,
                         const uint8_t *rgba);
/* The picture of a tile name (width*height*4 bytes), or NULL. */
const uint8_t *tilesat_pictures_get(const tilesat_pictures *p,
                                    const char *name);
/* The name of the first picture with exactly these pixels, or NULL. */
const char *tilesat_pictures_find_pixels(const tilesat_pictures *p,
                                         const uint8_t *rgba);
tilesat_pictures *tilesat_pictures_parse(const char *text, size_t len,
                                         const char *filename,
                                         tilesat_error *err);
tilesat_pictures *tilesat_pictures_read_file(const char *path,
                                             tilesat_error *err);
int tilesat_pictures_write(const tilesat_pictures *p, FILE *out);

/* The colour a tile is drawn in when it has no picture: a name "#rrggbb"
 * (or "#rrggbbaa") is that colour; any other name gets a stable colour from
 * a hash of the name (the same in every run).  rgba: 4 bytes. */
void tilesat_tile_colour(const char *name, uint8_t rgba[4]);

/* ------------------------------------------------------- samples as images */

/* A sample grid from an image.  With tile_size 1 every pixel is a cell; with
 * tile_size N the image (whose sides must be multiples of N) is cut into
 * N x N tiles, identical tile images being one tile.  A tile is named by
 * `known` when one of its pictures has exactly its pixels (a palette, or the
 * pictures of an earlier sample), else "#rrggbb" when it is one colour
 * ("#rrggbbaa" when not opaque), else "tK" (K counting the new tiles of
 * `pics`).  When `pics` is not NULL each new tile's picture is added to it,
 * so several samples share names; its size must be tile_size. */
tilesat_grid *tilesat_grid_from_image(const tilesat_image *img,
                                      const char *filename, int tile_size,
                                      const tilesat_pictures *known,
                                      tilesat_pictures *pics,
                                      tilesat_error *err);

/* WFC's overlapping model: every N x N window of each image (wrapping with
 * `periodic_input`, else only windows inside the image) is a tile, named
 * "pK" in order of first appearance and weighted by its count; with
 * `symmetry` S in 1..8 the first S of the window's 8 rotations/reflections
 * (WFC's order: p, reflect p, rotate p, ...) count too.  Pattern b may stand
 * in direction d of a iff they agree where they overlap when b is shifted one
 * pixel in direction d.  Square topology.  *pics (if not NULL) receives the
 * patterns' pictures, with overlap N. */
tilesat_rules *tilesat_extract_patterns(const tilesat_image *const *images,
                                        size_t nimages, int n,
                                        bool periodic_input, int symmetry,
                                        tilesat_pictures **pics,
                                        tilesat_error *err);

/* --------------------------------------------------------- WFC tilesets */

/* Import one of mxgmn's simple-tiled-model tilesets (XML: <set> with
 * <tiles>, <neighbors>, <subsets>).  Each tile is expanded into its oriented
 * variants by its symmetry class (X: 1, I and \: 2, T and L: 4, F: 8), named
 * "NAME K"; every <neighbor left= right=> is expanded into its rotated and
 * reflected pairs in all four directions exactly as the reference
 * SimpleTiledModel does.  `subset` (or NULL) keeps only that subset's tiles.
 * Weights (decimal numbers) are scaled to whole numbers by one common power
 * of ten.  When `pics` is not NULL the tile images (NAME.png beside the XML in
 * a folder named after it, or "NAME K.png" for unique="True" sets) are loaded,
 * rotated and reflected into *pics. */
tilesat_rules *tilesat_import_tileset(const char *path, const char *subset,
                                      tilesat_pictures **pics,
                                      tilesat_error *err);

/* ----------------------------------------------------------- Tiled maps */

/* How a Tiled map's empty cells (global id 0) are read. */
typedef enum tilesat_empty {
  TILESAT_EMPTY_TILE = 0,    /* a tile of its own, named "0" */
  TILESAT_EMPTY_EXCLUDE = 1, /* not part of the sample: no tile, no pairs */
} tilesat_empty;

/* Read the first tile layer (or the one named `layer`) of a Tiled map,
 * .tmx (XML: csv, base64, base64+zlib/gzip data, or <tile> elements) or
 * .tmj (JSON), recognised by content, as a sample grid.  A cell's tile is
 * named by its tileset tile's "tilesat" property when it has one (maps
 * written by tilesat do), else by its global id in decimal; flip bits add a
 * suffix ":" + letters of h (horizontal), v (vertical), d (diagonal), x (hex
 * 120 degrees), e.g. "12:hd".  Excluded cells read as NULL names from
 * tilesat_grid_at. */
tilesat_grid *tilesat_tiled_read(const char *path, const char *layer,
                                 tilesat_empty empty, tilesat_error *err);
/* Write a filled map as a Tiled map, .tmj (JSON) when `path` ends in
 * ".tmj" or ".json", else .tmx (XML, CSV data).  Tile k is global id k+1 of
 * one tileset whose image, PATH without extension + "-tiles.png", is written
 * too (the pictures, or tilesat_tile_colour squares), and whose tiles carry
 * their names as the "tilesat" property, so tilesat_tiled_read gives back the
 * same grid.  Hex maps are written as staggered, odd-r, pointy-top. */
int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                        const tilesat_pictures *pics, const char *path,
                        tilesat_error *err);
/* Write a filled map as a Tiled map using the tilesets of the Tiled map
 * `like` (typically the sample the rules came from), so it shows the same
 * tile images: each tile must be named by a global id with optional flip
 * suffix ("12", "12:hd", "0" for empty) or by a "tilesat" property of one
 * of like's tiles.  The map takes like's tile size and orientation; its
 * tilesets are copied (external sources re-pointed from the new file's
 * folder; embedded ones only between files of one format).  No image is
 * written. */
int tilesat_tiled_write_like(const tilesat_map *m, const int *tiles,
                             const char *like, const char *path,
                             tilesat_error *err);
/* Several filled maps (nmaps > 0) as the layers of one Tiled map, "map 1"
 * to "map N" (only the first visible), with our own tileset (like NULL) or
 * like's, as above.  One map is the same as the functions above. */
int tilesat_tiled_write_maps(const tilesat_map *m, const int *const *maps,
                             size_t nmaps, const tilesat_pictures *pics,
                             const char *like, const char *path,
                             tilesat_error *err);

/* -------------------------------------------------------------- rendering */

/* Draw a map.  Each cell shows, in this order of preference:
 *  - `tiles` (width*height indices, or NULL): that tile;
 *  - else `domains` (per cell, (ntiles+63)/64 words of a tile bitset, cell
 *    after cell): the average of its tiles' pictures weighted by the tiles'
 *    weights, as WFC draws its wave (a blend; an empty domain is black);
 * with `highlight` (per cell, or NULL) drawing a red frame inside marked
 * cells (pictures under 3 pixels are tinted red instead).
 * Pictures come from `pics` (may be NULL) by tile name, else
 * tilesat_tile_colour: one pixel per cell when every tile name is a colour
 * and the map is square, 8 x 8 squares otherwise.  A square map is W*tw x H*th
 * pixels; a hex map is tw/2 wider, odd rows shifted right by tw/2.  Overlapping
 * patterns (overlap N) draw cell (r, c)'s top-left pixel at (r, c); a map that
 * does not wrap is N-1 pixels larger, its last row and column of cells drawing
 * their whole pattern, as WFC does.  Returns NULL when the image would be
 * larger than 2^26 pixels, as large as tilesat reads a PNG
 * (tilesat_render_png then reports an error). */
tilesat_image *tilesat_render(const tilesat_map *m,
                              const tilesat_pictures *pics, const int *tiles,
                              const uint64_t *domains, const bool *highlight);
int tilesat_render_png(const tilesat_map *m, const tilesat_pictures *pics,
                       const int *tiles, const uint64_t *domains,
                       const bool *highlight, const char *path,
                       tilesat_error *err);
/* A contact sheet of nmaps filled maps: ceil(sqrt(nmaps)) maps a row, map k
 * at column k % cols and row k / cols, each rendered as above, separated by
 * TILESAT_SHEET_GAP pixels of grey (#808080).  NULL when the sheet would
 * be larger than 32768 pixels a side or 2^26 pixels in all. */
#define TILESAT_SHEET_GAP 2
tilesat_image *tilesat_render_sheet(const tilesat_map *m,
                                    const tilesat_pictures *pics,
                                    const int *const *maps, size_t nmaps);

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
