/*
 * tilesat.h: the public header of libtilesat, a SAT-based model checker
 * for tiled-map rules (Wave Function Collapse / "Even Simpler Tiled Model").
 * Making maps (annealing, collapse, advice, check as a portfolio) is
 * declared in tilesat_gen.h, which this header includes at its end.
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
 *  - Names beginning tilesat_, TILESAT_ and ts_ (internal) are the library's.
 */
#ifndef TILESAT_H
#define TILESAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the shared libraries export: the functions declared with
 * TILESAT_API, and nothing else (the library is built with
 * -fvisibility=hidden).  TILESAT_HIDE_API, defined only by the Makefile
 * for libtilesat-io's private copy of core objects, keeps those hidden. */
#if defined(TILESAT_HIDE_API) || !defined(__GNUC__)
#define TILESAT_API
#else
#define TILESAT_API __attribute__((visibility("default")))
#endif

/* MAJOR.MINOR.PATCH, written only here: the Makefile reads it from here. */
#define TILESAT_VERSION "0.1.0"

/* The version of the libtilesat actually linked (TILESAT_VERSION when it
 * was built), which may differ from the header a program was compiled with. */
TILESAT_API const char *tilesat_version(void);

enum { TILESAT_UNKNOWN = 0, TILESAT_SAT = 10, TILESAT_UNSAT = 20 };

/* An error: the message, and when it is about one of a function's
 * parameters (a size, a pin, a part), that parameter's name, also the
 * message's first word: "size: width and height must be positive" with
 * param "size".  A front end may name the parameter its own way (tilesat's
 * command line: "--size: ..."); param is "" otherwise.  Library messages
 * name parameters, never command-line options. */
typedef struct tilesat_error {
  char msg[1024];
  char param[32];
} tilesat_error;

/* ----------------------------------------------------------- writing files */

/* A file written whole or not at all, as every writer of the library
 * writes its files (PNG, Tiled maps): the bytes go to a new temporary file
 * in the target's folder, which tilesat_output_commit renames over the
 * target once everything was written.  After any failure, or
 * tilesat_output_discard, the temporary is removed and the target is as it
 * was; the target itself is never removed.  A target that exists and is
 * not a regular file (a device such as /dev/null, a FIFO) is written
 * directly, since it cannot be replaced; a symbolic link is followed, so
 * the file it names is replaced (a dangling one: made). */
typedef struct tilesat_output tilesat_output;

/* NULL with "PATH: cannot open for writing: REASON" in err. */
TILESAT_API tilesat_output *tilesat_output_open(const char *path,
                                                tilesat_error *err);
/* Before any work: would tilesat_output_open(path) succeed, as far as can
 * be told without making anything?  (Its folder exists and is writable, or
 * the target is a device or FIFO we may write; it is not a folder.)  0, or
 * -1 with the same message. */
TILESAT_API int tilesat_output_check(const char *path, tilesat_error *err);
/* The stream to write to (owned by the output). */
TILESAT_API FILE *tilesat_output_file(const tilesat_output *o);
/* The temporary file's path, NULL when the target is written directly: for
 * a signal handler that must remove it before the process ends. */
TILESAT_API const char *tilesat_output_temp(const tilesat_output *o);
/* Flush, sync and close the stream and rename the temporary over the
 * target; frees o.  0, or -1 with "PATH: write error: REASON" (e.g. "No
 * space left on device"), the temporary removed. */
TILESAT_API int tilesat_output_commit(tilesat_output *o, tilesat_error *err);
/* Close the stream and remove the temporary; frees o (NULL is fine). */
TILESAT_API void tilesat_output_discard(tilesat_output *o);

/* ---------------------------------------------------------------- topology */

typedef enum tilesat_topology {
  TILESAT_SQUARE = 0, /* directions N E S W, row 0 on top */
  TILESAT_HEX = 1,    /* pointy-top, odd-r offset rows (odd rows shifted half
                         a cell right); directions E W NE NW SE SW */
} tilesat_topology;

/* Number of directions of a topology (4 or 6). */
TILESAT_API int tilesat_topology_ndirs(tilesat_topology topo);
/* Direction names: square "N" "E" "S" "W"; hex "E" "W" "NE" "NW" "SE" "SW". */
TILESAT_API const char *tilesat_dir_name(tilesat_topology topo, int dir);
/* The opposite direction (N<->S, E<->W, NE<->SW, NW<->SE). */
TILESAT_API int tilesat_dir_opposite(tilesat_topology topo, int dir);
/* Direction index by name, or -1. */
TILESAT_API int tilesat_dir_find(tilesat_topology topo, const char *name);
/* "square" / "hex"; parse returns 0 on success, -1 on an unknown name. */
TILESAT_API const char *tilesat_topology_name(tilesat_topology topo);
TILESAT_API int tilesat_topology_parse(const char *name, tilesat_topology *out);

/* The neighbour of (row, col) in direction `dir` on a width x height map:
 * returns true and sets *nrow, *ncol, or false where the map ends.  With
 * `periodic` both axes wrap (hex maps must then have an even height). */
TILESAT_API bool tilesat_neighbor(tilesat_topology topo, int width, int height,
                                  bool periodic, int row, int col, int dir,
                                  int *nrow, int *ncol);

/* ------------------------------------------------------------------- files */

/* A whole file, malloc'd (free it), *len its bytes; NULL and an error on
 * failure.  "-" is standard input, read once: every reader of "-" (this
 * and the library's *_read_file) gets the same bytes. */
TILESAT_API char *tilesat_read_file(const char *path, size_t *len,
                                    tilesat_error *err);

/* ------------------------------------------------------------------- grids */

/* A grid of named tiles: a sample map as read from a file, with its own tile
 * names.  Two text forms, both read by tilesat_grid_parse:
 *  - character grids: one tile per UTF-8 code point, one row per line, all
 *    rows the same length; no comments ('#' is an ordinary tile);
 *  - name grids: a first line "tilesat-grid names", then one row per line of
 *    whitespace-separated tile names ("quoted" when a name has spaces). */
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
/* The tile name at (row, col); NULL for a cell excluded from the sample
 * (a Tiled map's empty cell read with TILESAT_EMPTY_EXCLUDE). */
TILESAT_API const char *tilesat_grid_at(const tilesat_grid *g, int row,
                                        int col);

/* ------------------------------------------------------------------- rules */

/* A rule set: tiles (names and weights), a topology, and for every tile a and
 * direction d the set of tiles b that may stand in direction d of a.  Rules
 * are symmetric: b may stand d of a iff a may stand opposite(d) of b. */
typedef struct tilesat_rules tilesat_rules;

/* ESTM extraction: b may stand in direction d of a iff (a, b) was seen in
 * direction d in some sample.  Tiles are numbered in order of first
 * appearance (reading order, sample by sample); weights count occurrences.
 * With `periodic_input` the samples wrap around both axes. */
TILESAT_API tilesat_rules *
tilesat_extract(const tilesat_grid *const *samples, size_t nsamples,
                tilesat_topology topo, bool periodic_input, tilesat_error *err);

/* The rules file format is documented in rules/README.md; write then parse
 * gives back the same rule set. */
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
/* Tile index by name, or -1. */
TILESAT_API int tilesat_rules_find_tile(const tilesat_rules *r,
                                        const char *name);
/* "Did you mean": what to tell someone who wrote `word` where one of the
 * n `names` was wanted (a command, an option, a tile).  Into buf (cut to
 * size): "did you mean 'A', 'B' or 'C'?", the names near the word (a few
 * edits away, letters without case, or beginning with it), nearest first;
 * when none is near and `noun` (a plural, "tiles") is given, "the tiles are
 * 'A', 'B' and 'C'" (every name, when at most 12) or "the nearest of the
 * 52 tiles are ..." (five).  The length written, 0 when nothing is said. */
TILESAT_API size_t tilesat_suggest(const char *word, const char *const *names,
                                   int n, const char *noun, char *buf,
                                   size_t size);
/* tilesat_suggest over the rules' tiles, as " (did you mean ...?)" or
 * " (the tiles are ...)" to append to an error about `name`, or "". */
TILESAT_API size_t tilesat_rules_tile_hint(const tilesat_rules *r,
                                           const char *name, char *buf,
                                           size_t size);
/* May tile b stand in direction dir of tile a? */
TILESAT_API bool tilesat_rules_allows(const tilesat_rules *r, int a, int dir,
                                      int b);
/* A tile name as the rules file writes it: as it is, or "quoted" with
 * escapes when it would not read back so. */
TILESAT_API void tilesat_write_name(FILE *out, const char *name);
/* A name as tilesat's Tiled files (.tmx, .tmj, .tsx, .tsj) and JSON outputs
 * hold it, malloc'd: a backslash as \\, and each byte of a control
 * character (U+0000-U+001F, U+007F-U+009F), of U+FFFE or U+FFFF, or that is
 * not UTF-8, as \xHH; the rest as it is.  XML 1.0 cannot hold those even
 * escaped, and JSON must be UTF-8. */
TILESAT_API char *tilesat_name_encode(const char *name);
/* The name back (malloc'd): \\ and \xHH (not \x00) undone, any other
 * backslash kept as it is. */
TILESAT_API char *tilesat_name_decode(const char *text);
/* s as a message shows it, into out (at most size - 1 bytes, never cutting
 * an escape or a character): the bytes tilesat_name_encode escapes as
 * \xHH (an ESC as \x1b), a backslash as it is, so that nothing a file
 * holds reaches a terminal as a control. */
TILESAT_API void tilesat_shown(char *out, size_t size, const char *s);

/* --------------------------------------------------------------------- maps */

/* A map to fill: a rule set, a size, a topology (which must have as many
 * directions as the rules), optional wrap-around, and pinned tiles.  The map
 * borrows the rules: they must outlive it. */
typedef struct tilesat_map tilesat_map;

/* Largest number of cells times tiles a map may have (CNF variables are
 * ints, and every command keeps a few arrays of that many). */
#define TILESAT_MAX_CELL_TILES (1 << 28)

TILESAT_API tilesat_map *tilesat_map_new(const tilesat_rules *r, int width,
                                         int height, tilesat_topology topo,
                                         bool periodic, tilesat_error *err);
/* A map past TILESAT_MAX_CELL_TILES (at most TILESAT_MAX_MODIFY_CELLS
 * cells), for collapse's modify guard alone: it needs the tiles and a
 * block's window, never a table of cells times tiles.  Fill it with a
 * collapser from tilesat_collapse_new_modify (--guard modify, or auto,
 * which goes to modify on it); everything that works on the whole map
 * (check, enumerate, count, sample, explain, trace, anneal, the plain
 * collapser) refuses it with an error naming --guard modify.  Within the
 * bound it is the map tilesat_map_new makes. */
#define TILESAT_MAX_MODIFY_CELLS (1 << 28)
TILESAT_API tilesat_map *
tilesat_map_new_large(const tilesat_rules *r, int width, int height,
                      tilesat_topology topo, bool periodic, tilesat_error *err);
TILESAT_API void tilesat_map_free(tilesat_map *m);
/* Pin `tile` (a name) at (row, col). */
TILESAT_API int tilesat_map_pin(tilesat_map *m, int row, int col,
                                const char *tile, tilesat_error *err);
/* Ban tile `tile` (an index of the map's rules) at (row, col): no valid
 * map holds it there.  Bans are the general "cell X cannot hold tile T"
 * (WFC's ground, borders, masks); pins say "holds exactly T".  Every
 * function on the map honours them: the CNF has a unit clause -x for each,
 * part of the cell's one-tile constraint (so a cell holds exactly one of
 * the tiles left to it); check, enumerate, count and sample (every
 * method), collapse, trace (the banned tiles are gone from the start, with
 * no step of their own) and tilesat_map_verify keep them.  Functions that
 * cannot, explain (tilesat_explain, tilesat_constraints_check) and
 * annealing (tilesat_energy_prepare), refuse a map with bans with an
 * error.  Returns 0, or -1 with err for a cell outside the map. */
TILESAT_API int tilesat_map_ban(tilesat_map *m, int row, int col, int tile,
                                tilesat_error *err);
/* Mask (row, col): the cell is not part of the map (irregular shapes).  It
 * holds no tile (TILESAT_NO_TILE in a filled map) and has no neighbours:
 * the map's adjacency, and every region of a connected or path
 * constraint, stops at it.  check, enumerate, explain, encode and
 * tilesat_map_verify keep masks, and so do count and sample by dp (auto
 * takes it), count's enum method, annealing and collapse; the other
 * methods of count and sample and trace refuse a masked map (see
 * tilesat_map_refuse_globals).  -1 with err for a cell outside
 * the map or pinned (tilesat_map_pin refuses a masked cell in turn). */
#define TILESAT_NO_TILE (-1)
TILESAT_API int tilesat_map_mask(tilesat_map *m, int row, int col,
                                 tilesat_error *err);
TILESAT_API bool tilesat_map_masked(const tilesat_map *m, int row, int col);
/* Parse "WxH" (both positive; the product must fit TILESAT_MAX_CELL_TILES
 * once multiplied by the number of tiles, checked by tilesat_map_new, or
 * TILESAT_MAX_MODIFY_CELLS, by tilesat_map_new_large). */
TILESAT_API int tilesat_parse_size(const char *s, int *width, int *height,
                                   tilesat_error *err);
/* Parse "ROW,COL=TILE" and pin it. */
TILESAT_API int tilesat_map_pin_spec(tilesat_map *m, const char *spec,
                                     tilesat_error *err);
/* Parse "ROW,COL=TILE" for a cell of the map and a tile of its rules;
 * errors are reported as coming from `what` (e.g. "--choose"). */
TILESAT_API int tilesat_map_parse_cell(const tilesat_map *m, const char *spec,
                                       const char *what, int *row, int *col,
                                       int *tile, tilesat_error *err);

/* The memory bound of everything done with the map (check, enumerate,
 * count, sample, explain, anneal, encode): a function that would need more
 * than this many bytes says so up front ("a WxH map of T tiles needs about
 * N, more than --max-memory M") and returns -1 instead of allocating it.
 * A new map has tilesat_default_max_memory(). */
TILESAT_API void tilesat_map_set_max_memory(tilesat_map *m, size_t bytes);
/* Half of the physical memory (sysconf), at most SIZE_MAX / 2; 4 GiB when
 * the system does not say. */
TILESAT_API size_t tilesat_default_max_memory(void);

/* The map in one struct, filled by tilesat_map_get (as tilesat_analysis_get
 * fills tilesat_analysis_info): what it is and what was added to it. */
typedef struct tilesat_map_info {
  const tilesat_rules *rules; /* borrowed */
  int width, height;
  tilesat_topology topo;
  bool periodic; /* both axes wrap around */
  bool large;    /* past TILESAT_MAX_CELL_TILES (tilesat_map_new_large) */
  int npins, nbans, nmasked, nglobals;
  size_t max_memory; /* tilesat_map_set_max_memory */
} tilesat_map_info;
TILESAT_API void tilesat_map_get(const tilesat_map *m, tilesat_map_info *info);
/* The i-th pin (0 <= i < npins), in the order pinned: its cell
 * (row-major) and tile. */
TILESAT_API void tilesat_map_pin_get(const tilesat_map *m, int i, int *cell,
                                     int *tile);

/* Check a filled map (width*height tile indices) against the rules, the
 * pins, the bans, the global constraints (below) and the topology
 * directly, without the CNF encoder.
 * Returns true if valid; otherwise false and, if `why` is not NULL, a
 * sentence naming the first broken constraint. */
TILESAT_API bool tilesat_map_verify(const tilesat_map *m, const int *tiles,
                                    char *why, size_t whylen);

/* Write a filled map as a text grid that tilesat_grid_parse reads back: a
 * character grid when every tile name is one printable code point, a name
 * grid otherwise. */
TILESAT_API int tilesat_map_write(const tilesat_map *m, const int *tiles,
                                  FILE *out);

/* ------------------------------------------------------ global constraints */

/* Constraints on the whole map, beyond its adjacent pairs (the constraints
 * file format and the command-line shortcuts: rules/README.md,
 * "Constraints files").  Each is about a class of tiles: the cells holding
 * a tile of the class.
 *  - COUNT: at most / at least / exactly k cells of the class, in the map
 *    or a rectangle.
 *  - CONNECTED: the class's cells form one region (neighbours as the
 *    topology has them, across the wrap on periodic maps); optionally at
 *    least one such cell, or a given cell among them.
 *  - PATH: two or more cells hold class tiles and one region of the class
 *    joins them.
 *  - BORDER: the cells on the chosen sides (north: row 0, south: the last
 *    row, west: column 0, east: the last column, on hex maps too) hold only
 *    class tiles.
 * check, enumerate, explain and tilesat_map_verify honour every kind, and
 * so does the enum method of count; count and sample by dp honour COUNT,
 * CONNECTED and BORDER (auto takes the dp for the first two) and refuse
 * PATH; the other methods of count and sample and trace honour BORDER
 * (as bans) and refuse the others with an error (tilesat_trace_new, which
 * takes none, must not be given them).  Collapse keeps BORDER as bans and
 * COUNT by propagation; CONNECTED and PATH only guarded (an unguarded
 * run's map may break them: a failed run, tilesat_collapse_get's why).
 * Annealing keeps counts hard, BORDER (and a PATH's cells) as bans, and
 * CONNECTED and PATH as a penalty per missing join (the energy's
 * connectivity weight), which its SAT clean-up then makes hard. */
typedef enum tilesat_global_kind {
  TILESAT_GLOBAL_COUNT = 0,
  TILESAT_GLOBAL_CONNECTED = 1,
  TILESAT_GLOBAL_PATH = 2,
  TILESAT_GLOBAL_BORDER = 3,
} tilesat_global_kind;

/* Add the constraints of a constraints file's text to m (which they must
 * fit: cells inside it, no border on a periodic map); errors
 * "FILE:LINE: message".  Classes it names ("class floor . + ,") stay
 * known to later files and options of the same map. */
TILESAT_API int tilesat_map_constraints_parse(tilesat_map *m, const char *text,
                                              size_t len, const char *filename,
                                              tilesat_error *err);
TILESAT_API int tilesat_map_constraints_read_file(tilesat_map *m,
                                                  const char *path,
                                                  tilesat_error *err);
/* One constraint of `kind` in its short form: connected "CLASS", path
 * "R1,C1:R2,C2...=CLASS", count "CLASS=K", "CLASS<=K" or "CLASS>=K",
 * border "SIDES=CLASS".  `origin` names where it came from, in its
 * constraint (tilesat_map_global_origin) and in errors "ORIGIN: message".
 * A CLASS is T1,T2,... (tile names), or a class a constraints file
 * named. */
TILESAT_API int tilesat_map_constraint_add(tilesat_map *m,
                                           tilesat_global_kind kind,
                                           const char *spec, const char *origin,
                                           tilesat_error *err);
TILESAT_API tilesat_global_kind tilesat_map_global_kind(const tilesat_map *m,
                                                        int i);
/* The i-th constraint in words ("floor connected: the cells holding . + ,
 * = form one region"), and where it came from ("FILE:LINE" or the
 * option); both live as long as the map. */
TILESAT_API const char *tilesat_map_global_text(const tilesat_map *m, int i);
TILESAT_API const char *tilesat_map_global_origin(const tilesat_map *m, int i);
/* For what cannot keep some kinds: 0 when every global constraint of m is
 * of the kinds in `kinds` (a mask of 1 << kind) and, unless `kinds` has
 * TILESAT_KEEPS_MASK, no cell is masked; else -1 with "WHAT cannot keep
 * KIND constraints yet (ORIGIN: TEXT)HINT" or "WHAT cannot keep masked
 * cells yet (N of the map's cells are masked)HINT" (hint may be NULL). */
#define TILESAT_KEEPS_MASK (1u << 16)
TILESAT_API int tilesat_map_refuse_globals(const tilesat_map *m, unsigned kinds,
                                           const char *what, const char *hint,
                                           tilesat_error *err);

/* ---------------------------------------------------------------- encoding */

/* Variable (cell, tile) is cell * ntiles + tile + 1; auxiliary variables of
 * the at-most-one encoding (only with more than 8 tiles) come after them and
 * are functionally determined by the tile variables, so the CNF has exactly
 * one model per valid map. */
TILESAT_API int tilesat_encode_dimacs(const tilesat_map *m, FILE *out);
/* The same constraints as readable propositions (L_0_1 is "tile L at row 0,
 * column 1"). */
TILESAT_API int tilesat_encode_props(const tilesat_map *m, FILE *out);

/* ----------------------------------------------------------------- solving */

typedef enum tilesat_backend {
  TILESAT_PICOSAT = 0,
  TILESAT_CRYPTOMINISAT = 1,
  TILESAT_CADICAL = 2,
  TILESAT_BACKEND_AUTO = 3, /* one of the above per map, by its size (see
                               tilesat_backend_choose) */
} tilesat_backend;

/* "picosat", "cryptominisat", "cadical", "auto"; parse also takes "cms",
 * returns 0, or -1 on an unknown name. */
TILESAT_API const char *tilesat_backend_name(tilesat_backend b);
TILESAT_API int tilesat_backend_parse(const char *name, tilesat_backend *out);
/* The backend `b` stands for on map m: b itself, or for
 * TILESAT_BACKEND_AUTO the one measured fastest on maps like m. */
TILESAT_API tilesat_backend tilesat_backend_choose(const tilesat_map *m,
                                                   tilesat_backend b);

/* How to solve: what every function that runs a SAT solver takes (check,
 * enumerate, constraints_check, explain, analyze; count and anneal hold one
 * in their options).  A NULL pointer means the defaults: PicoSAT, never
 * terminated.
 *
 * terminate, when not NULL, is polled (with terminate_user) during every
 * solve and between solves; once it returns nonzero the function gives up
 * and returns -1 (NULL) with the error "interrupted".  It may be called from
 * inside the solver, so it must only read state (a signal handler's
 * sig_atomic_t flag, a deadline).  PicoSAT and CaDiCaL poll it during
 * search; CryptoMiniSat's C API cannot, so it solves in half-second slices
 * and polls between them. */
/* Called with a one-line progress report (often: the caller throttles). */
typedef void (*tilesat_progress_fn)(void *user, const char *line);

/* What check and enumerate did, for callers that want to know. */
typedef struct tilesat_solve_stats {
  long solves;     /* SAT solver calls */
  long cut_rounds; /* models that broke a connected or path constraint */
  long cuts;       /* cut clauses added for them */
} tilesat_solve_stats;

typedef struct tilesat_solve_options {
  tilesat_backend backend;
  int (*terminate)(void *user);
  void *terminate_user;
  /* When not NULL, called (with progress_user) with where a long run
   * stands: "loading clauses into picosat: 40%", "solving with picosat",
   * the steps of an explanation.  Often, even from inside the solver (as
   * terminate is, and as often): the caller throttles, and must only
   * read state and print. */
  tilesat_progress_fn progress;
  void *progress_user;
  /* When not NULL, check and enumerate add what they did to it. */
  tilesat_solve_stats *stats;
} tilesat_solve_options;

/* Is there a valid map?  On TILESAT_SAT, `tiles` (width*height ints, may be
 * NULL) receives a witness that has passed tilesat_map_verify.  Returns
 * TILESAT_SAT, TILESAT_UNSAT, or -1 on error (a witness failing verification
 * is an internal error, reported, never printed as an answer). */
TILESAT_API int tilesat_check(const tilesat_map *m,
                              const tilesat_solve_options *so, int *tiles,
                              tilesat_error *err);

/* Called with each valid map; return nonzero to stop the enumeration. */
typedef int (*tilesat_map_fn)(void *user, const int *tiles);

/* Enumerate valid maps (each exactly once, each verified), at most `limit`
 * of them when limit > 0.  Returns how many were found, or -1 on error. */
TILESAT_API int64_t tilesat_enumerate(const tilesat_map *m,
                                      const tilesat_solve_options *so,
                                      int64_t limit, tilesat_map_fn fn,
                                      void *user, tilesat_error *err);

/* ------------------------------------------------- counting and sampling */

typedef enum tilesat_method {
  TILESAT_METHOD_AUTO = 0, /* count: dp when it is predicted to finish within
                              a minute (and memory), else bounds and the
                              estimate; approx when not even bounds can
                              count.  sample: dp, chain when the frontier
                              outgrows memory */
  TILESAT_METHOD_DP,       /* exact: frontier dynamic programme (GMP) */
  TILESAT_METHOD_ENUM,     /* exact: enumeration with blocking clauses */
  TILESAT_METHOD_APPROX,   /* ApproxMC: (epsilon, delta) guarantee */
  TILESAT_METHOD_BOUNDS,   /* count only: proved lower and upper bounds,
                              products of exact counts of strips and pieces */
  TILESAT_METHOD_CHAIN,    /* sample: block Markov chain, uniform in the
                              limit (any size) */
  TILESAT_METHOD_ESTIMATE, /* count: sequential Monte Carlo estimate with a
                              95% error bar (any size) */
} tilesat_method;

TILESAT_API const char *tilesat_method_name(tilesat_method m);
TILESAT_API int tilesat_method_parse(const char *name, tilesat_method *out);

typedef struct tilesat_count_options {
  tilesat_method method;
  /* backend: for enum (approx needs CryptoMiniSat's XORs and uses it
   * whatever this says); terminate: for every method ("interrupted") */
  tilesat_solve_options solve;
  double epsilon, delta; /* approx: within (1+epsilon), prob >= 1-delta */
  double tolerance;      /* sample by approx: each map's probability within a
                            factor 1+tolerance of uniform (>= 1.71) */
  uint64_t seed;         /* approx hashes and samples */
  size_t max_memory;     /* bytes the DP may use */
  /* chain: burn_in sweeps, then a map every `sweeps` sweeps (defaults 4
   * and 2); blocks of block_width x block_height cells (0: strips 3 cells
   * thick across the map, at most 64 long) */
  long burn_in, sweeps;
  int block_width, block_height;
  /* chain: threads that draw blocks together (0: 2; the maps are the same
   * whatever the number) */
  int threads;
  /* estimate: particles a replicate (0: about 10^8 / cells, from 1000 to
   * 16384) and independent replicates (0: 8) */
  int particles, replicates;
  /* estimate: stop, saying so, once predicted past this many CPU seconds
   * (0: no limit; auto's estimate beside its bounds: a minute unless
   * set) */
  double estimate_seconds;
  tilesat_progress_fn progress;
  void *progress_user;
  /* Called (with progress_user) when the method changes, i.e. auto falls
   * back from the dp to approx: a line not to throttle, since it changes
   * what the output means.  NULL: such lines go to progress. */
  tilesat_progress_fn notice;
  /* bounds: the seconds to aim at (0: 20), unless bounds_width > 0 fixes
   * the strips' width in lines (then nothing depends on time) */
  double bounds_seconds;
  int bounds_width;
  /* dp: key states on each placed tile's class, not on what the cells to
   * come can see (the older, larger key: for tests and benches) */
  bool dp_plain_key;
  /* dp, for tests: how the seen key holds a position's candidate set when
   * its numbers cannot be built before the run: 1 numbered as met (as one
   * process does), 2 the set itself (as tilesat-mpi --shard does); 0:
   * numbers built before the run where they can be */
  int dp_sets;
} tilesat_count_options;

/* Defaults: auto, picosat, epsilon 0.8, delta 0.2, tolerance 6, seed 1,
 * 4 GiB, bounds as wide as 20 s allow. */
TILESAT_API void tilesat_count_options_init(tilesat_count_options *o);

typedef struct tilesat_count_result {
  char *count;           /* decimal; malloc'd, freed by _result_free; NULL
                            when only bounds are known */
  bool approximate;      /* from approx: within the stated guarantee */
  tilesat_method method; /* the method that produced it */
  /* Bounds (method BOUNDS): lower <= the count <= upper, both proved;
   * decimal, malloc'd; count is set too when they meet.  Their log2, and
   * what each guarantees. */
  char *lower, *upper;
  double lower_log2, upper_log2;
  char lower_why[384], upper_why[384];
  /* A point estimate with its 95% error bar, in log10 (method ESTIMATE,
   * or AUTO beside its bounds; false otherwise). */
  bool estimated;
  double estimate_log10, estimate_halfwidth;
} tilesat_count_result;

/* Count the valid maps.  estimate: log10 of the count and the half width
 * of a 95% interval, by sequential Monte Carlo; 0 maps (log10 -INFINITY) when
 * every particle died, which may also happen, rarely, when maps exist.  auto:
 * dp, or estimate when the DP outgrows its memory bound.  Returns 0, or -1 with
 * err (memory bound exceeded for dp, interrupted, backend failure). */
TILESAT_API int tilesat_count(const tilesat_map *m,
                              const tilesat_count_options *o,
                              tilesat_count_result *res, tilesat_error *err);
TILESAT_API void tilesat_count_result_free(tilesat_count_result *res);

/* count --by-tile: the valid maps by the number of cells holding a tile of
 * `cls` (a tile, tiles joined by commas, or a class a constraints file
 * named), by the dp (o's method auto or dp), with m's constraints:
 * (*dist)[k], decimal, the number of maps with exactly k such cells, for
 * k = 0 .. width * height ("0" when none); res->count their total.
 * Returns 0, or -1 with err; free *dist with tilesat_count_by_tile_free. */
TILESAT_API int tilesat_count_by_tile(const tilesat_map *m, const char *cls,
                                      const tilesat_count_options *o,
                                      tilesat_count_result *res, char ***dist,
                                      tilesat_error *err);
TILESAT_API void tilesat_count_by_tile_free(const tilesat_map *m, char **dist);

/* Draw n valid maps at random, calling fn with each; the same seed gives
 * the same maps.  dp: exactly uniform, from the DP counts (its memory bound
 * applies).  approx: near-uniform by XOR hashing (UniGen): each map's
 * probability is within a factor 1+tolerance of uniform.  chain: the maps
 * of a block Markov chain, whose distribution tends to uniform when its
 * moves connect the valid maps; it says on notice how far the
 * maps moved.  auto: dp, or chain when the DP outgrows its memory bound.
 * enum and estimate are refused.  Returns how many were drawn (0 when
 * there is no valid map), or -1 with err. */
TILESAT_API int tilesat_sample(const tilesat_map *m,
                               const tilesat_count_options *o, int n,
                               tilesat_map_fn fn, void *user,
                               tilesat_error *err);

/* -------------------------------------------- parts: beyond one machine */

/* A problem (a map: its rules, size, topology, wrap, pins and bans) cut
 * into n disjoint parts whose union is all its valid maps: the same cut on
 * every machine and for every method, so parts counted anywhere add up to
 * the count.  The cut fixes the first cells
 * (row by row; column by column when the map is wider than tall), sharing
 * their tiles among the parts by an exact count of the rest of the line. */
#define TILESAT_MAX_PARTS 1000000
/* 16 hex digits naming the problem (not the tiles' weights nor the memory
 * bound) and the version of the cut: problems with the same fingerprint
 * have the same parts. */
TILESAT_API void tilesat_map_fingerprint(const tilesat_map *m, char out[17]);
/* Part k of n (1 <= k <= n <= TILESAT_MAX_PARTS): *part gets a new map,
 * m with the part's cells pinned and tiles banned (the caller frees it),
 * or NULL when the part is empty (no valid map is in it).  Returns 0, or
 * -1 with err when k or n is out of range. */
TILESAT_API int tilesat_map_part(const tilesat_map *m, int k, int n,
                                 tilesat_map **part, tilesat_error *err);
/* The exact number of valid maps in part k of n, by o's method: dp or enum
 * (auto is the dp, never an estimate; approx is refused). */
TILESAT_API int tilesat_count_part(const tilesat_map *m, int k, int n,
                                   const tilesat_count_options *o,
                                   tilesat_count_result *res,
                                   tilesat_error *err);
/* Draw n maps exactly uniformly through nparts parts: each part counted by
 * the dp, each draw a part with probability count(part) / total and then a
 * map of that part by the dp's exact sampler; handed to fn in the order
 * drawn (all n are kept until then: the map's memory bound applies).
 * The same seed gives the same maps.  Returns how many were drawn (0 when
 * there is no valid map), or -1 with err. */
TILESAT_API int tilesat_sample_parts(const tilesat_map *m,
                                     const tilesat_count_options *o, int nparts,
                                     int n, tilesat_map_fn fn, void *user,
                                     tilesat_error *err);

/* ------------------------------------------------------------------- steps */

/* Propagation (arc consistency) made visible: each tile it removes, with
 * the reason, and each pin or choice, is a step.  Tile sets are arrays of
 * tile indices in increasing order. */
typedef enum tilesat_step_kind {
  TILESAT_STEP_PIN,     /* a pin or choice keeps `tile`: loses `tiles` */
  TILESAT_STEP_SUPPORT, /* loses `tiles`: the neighbour's `from` allow none */
  TILESAT_STEP_EMPTY,   /* contradiction: no tile left in the cell */
  TILESAT_STEP_LOST,    /* contradiction: the pinned or chosen `tile` gone */
  /* what a cell must hold (explanations: it may lack its one tile) */
  TILESAT_STEP_MUST,      /* one of `tiles`: the neighbour's `from` say so */
  TILESAT_STEP_ONE,       /* one tile only, one of `from`: loses `tiles` */
  TILESAT_STEP_MUST_GONE, /* contradiction: its `tiles` are ruled out */
} tilesat_step_kind;

typedef struct tilesat_step {
  tilesat_step_kind kind;
  int row, col;
  int tile;            /* PIN, LOST: the pinned or chosen tile; else -1 */
  int choice;          /* PIN, LOST by a choice: its number; else 0 */
  int nrow, ncol, dir; /* SUPPORT, MUST: the neighbour, the direction from
                          it to the cell; else -1 */
  const int *tiles;    /* PIN, SUPPORT, ONE: lost; MUST, MUST_GONE: one of */
  size_t ntiles;
  const int *from; /* SUPPORT, MUST, ONE: see the kinds; else none */
  size_t nfrom;
  const int *after; /* the numbers of the steps it follows from */
  size_t nafter;
  int constraints[2]; /* explanations: the constraints it uses, ascending */
  int nconstraints;
} tilesat_step;

/* Steps; they and their arrays live as long as the list. */
typedef struct tilesat_steps tilesat_steps;
TILESAT_API size_t tilesat_steps_count(const tilesat_steps *s);
/* Step i (0-based; its number is i + 1); does the last contradict? */
TILESAT_API const tilesat_step *tilesat_steps_get(const tilesat_steps *s,
                                                  size_t i);
TILESAT_API bool tilesat_steps_contradiction(const tilesat_steps *s);
TILESAT_API void tilesat_steps_free(tilesat_steps *s);

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
  TILESAT_GLOBAL = 3,   /* the map's global constraint number `global`
                           (row and col -1) */
} tilesat_constraint_kind;

typedef struct tilesat_constraint {
  tilesat_constraint_kind kind;
  int row, col;
  int dir;        /* ADJACENT: direction from (row, col) to the neighbour */
  int nrow, ncol; /* ADJACENT: the neighbour; otherwise -1 */
  int pin;        /* PINNED: index of the pin, in the order pinned; else -1 */
  int tile;       /* PINNED: the pinned tile; otherwise -1 */
  int global;     /* GLOBAL: its index (tilesat_map_global_text) */
} tilesat_constraint;

/* How many constraints the map has: cells + pins + neighbouring pairs +
 * global constraints. */
TILESAT_API int tilesat_constraint_count(const tilesat_map *m);

/* Is this set of the map's constraints satisfiable on its own, with every
 * other constraint of the map dropped (a cell without its one-tile
 * constraint may then hold no tile or several)?  TILESAT_SAT,
 * TILESAT_UNSAT, or -1 with an error when a constraint is not one of the
 * map's. */
TILESAT_API int tilesat_constraints_check(const tilesat_map *m,
                                          const tilesat_solve_options *so,
                                          const tilesat_constraint *cs,
                                          size_t n, tilesat_error *err);

/* Why a map has no valid filling: a minimal set of its constraints that
 * cannot hold together (dropping any one leaves a satisfiable set; this is
 * checked before it is returned), preferring sets with few cells.  The
 * explanation borrows the map, which must outlive it. */
typedef struct tilesat_explanation tilesat_explanation;

/* TILESAT_SAT (a valid map exists; *out is NULL), TILESAT_UNSAT (*out is
 * set), or -1 on error. */
TILESAT_API int tilesat_explain(const tilesat_map *m,
                                const tilesat_solve_options *so,
                                tilesat_explanation **out, tilesat_error *err);
TILESAT_API void tilesat_explanation_free(tilesat_explanation *e);
/* The explanation in one struct, filled by tilesat_explanation_get; its
 * pointers are owned by e. */
typedef struct tilesat_explanation_info {
  const tilesat_map *map; /* the map explained (borrowed) */
  size_t size; /* constraints (each: tilesat_explanation_constraint) */
  size_t ncells;
  const int *cells;    /* the cells involved, row-major cell numbers */
  bool by_propagation; /* propagation alone reaches the contradiction */
  /* found in a window of the map (its whole solver would not fit its
   * max_memory): rows row0.. and columns col0..; else false */
  bool window;
  int row0, col0, rows, cols;
  /* propagation on these constraints, step by step, each step with the
   * constraints it uses */
  const tilesat_steps *steps;
} tilesat_explanation_info;
TILESAT_API void tilesat_explanation_get(const tilesat_explanation *e,
                                         tilesat_explanation_info *info);
/* Constraint i (i < size), in a stable order (by cell, then kind). */
TILESAT_API const tilesat_constraint *
tilesat_explanation_constraint(const tilesat_explanation *e, size_t i);

/* A minimum-cardinality explanation: no set of fewer constraints is
 * UNSAT (found through the hitting-set duality with minimal correction
 * sets); returns as tilesat_explain. */
TILESAT_API int tilesat_explain_smallest(const tilesat_map *m,
                                         const tilesat_solve_options *so,
                                         tilesat_explanation **out,
                                         tilesat_error *err);

/* The groups of constraints an explanation may blame. */
typedef enum tilesat_blame {
  TILESAT_BLAME_PINS,      /* "pins": the designer's pins */
  TILESAT_BLAME_CELLS,     /* "cells": a cell holds exactly one tile */
  TILESAT_BLAME_RULES,     /* "rules": neighbours hold an allowed pair */
  TILESAT_BLAME_BORDERS,   /* "borders": border global constraints */
  TILESAT_BLAME_COUNTS,    /* "counts" */
  TILESAT_BLAME_CONNECTED, /* "connected" */
  TILESAT_BLAME_PATHS,     /* "paths" */
  TILESAT_NBLAMES
} tilesat_blame;
TILESAT_API const char *tilesat_blame_name(tilesat_blame b);
/* "pins,borders,rules" into order[TILESAT_NBLAMES]: the groups named, then
 * the others in the enum's order; 0, or -1 with err (an unknown or
 * repeated name). */
TILESAT_API int tilesat_blame_parse(const char *list, tilesat_blame *order,
                                    tilesat_error *err);
/* The preferred explanation under an order of blame (QuickXplain): a
 * constraint of a later group is in it only if the constraints of the
 * earlier groups, with those of its own group tried before it (nearest
 * the conflict first), cannot explain without it.  order: all
 * TILESAT_NBLAMES groups, as tilesat_blame_parse gives.  Returns as
 * tilesat_explain. */
TILESAT_API int tilesat_explain_preferred(const tilesat_map *m,
                                          const tilesat_solve_options *so,
                                          const tilesat_blame *order,
                                          tilesat_explanation **out,
                                          tilesat_error *err);

/* Distinct minimal explanations (MARCO), at most `limit` (at least 1):
 * *out an array of *n, smallest first (by constraints, then cells);
 * *complete when they are all the map has.  Returns as tilesat_explain
 * (TILESAT_SAT: *n is 0). */
TILESAT_API int tilesat_explain_all(const tilesat_map *m,
                                    const tilesat_solve_options *so,
                                    size_t limit, tilesat_explanation ***out,
                                    size_t *n, bool *complete,
                                    tilesat_error *err);
TILESAT_API void tilesat_explanations_free(tilesat_explanation **es, size_t n);

/* ----------------------------------------------------------------- repairs */

/* What to change so that a map with no valid filling has one (tilesat
 * repair; not the annealer's SAT clean-up of violations): the fewest pairs
 * to allow, or with keep_rules the fewest pins to drop.  Each repair is
 * checked before it is returned: the changed problem solved anew (the
 * repaired rules written and read back) is satisfiable, and with any one
 * change undone it is not.  The repairs borrow the map. */
typedef struct tilesat_change {
  int a, dir, b; /* a pair: b may stand in direction dir of a (and a in the
                    opposite direction of b); -1 for a pin */
  int pin;       /* a pin to drop: its index, in the order pinned; else -1 */
  int row, col, tile; /* the pin's cell and tile; -1 for a pair */
} tilesat_change;
typedef struct tilesat_repairs tilesat_repairs;

/* Up to `limit` (>= 1) minimal repairs, smallest first: the first is a
 * minimum one; each later one is minimal (no change can be left out) and
 * differs from every earlier one (it is not a superset of one).
 * TILESAT_SAT (the map has a valid filling as it is; *out is NULL),
 * TILESAT_UNSAT (*out is set; it holds no repair when none exists: with
 * every pair allowed, or every pin dropped, there is still no valid map),
 * or -1 with err. */
TILESAT_API int tilesat_repair(const tilesat_map *m,
                               const tilesat_solve_options *so, bool keep_rules,
                               int limit, tilesat_repairs **out,
                               tilesat_error *err);
TILESAT_API void tilesat_repairs_free(tilesat_repairs *r);
/* The repairs in one struct, filled by tilesat_repairs_get. */
typedef struct tilesat_repairs_info {
  size_t count;  /* repairs (each: tilesat_repair_size, _change) */
  bool complete; /* all minimal repairs were found (fewer than the limit) */
  /* where: "the 5x5 window at rows 18-22, columns 18-22" ("and N more")
   * when the fewest pins to drop came from windows around the pins, ""
   * from the whole map (owned by r) */
  const char *found_in;
} tilesat_repairs_info;
TILESAT_API void tilesat_repairs_get(const tilesat_repairs *r,
                                     tilesat_repairs_info *info);
/* The changes of repair i, in a stable order (pairs by direction, then
 * tiles; pins in the order pinned). */
TILESAT_API size_t tilesat_repair_size(const tilesat_repairs *r, size_t i);
TILESAT_API const tilesat_change *
tilesat_repair_change(const tilesat_repairs *r, size_t i, size_t j);
/* A copy of the map's rules with repair i's pairs allowed (a repair of
 * pairs); the caller frees it. */
TILESAT_API tilesat_rules *tilesat_rules_repaired(const tilesat_repairs *r,
                                                  size_t i);
/* The fewest pins to drop, from windows around the pins with no filling
 * (then the map checked without them), before any whole-map search:
 * TILESAT_UNSAT with *out as tilesat_repair's with keep_rules and a limit
 * of 1 (a map without those pins exists, so the rules alone have one), 0
 * when the windows do not settle it (*out NULL), or -1 with err. */
TILESAT_API int tilesat_repair_pins_by_windows(const tilesat_map *m,
                                               const tilesat_solve_options *so,
                                               tilesat_repairs **out,
                                               tilesat_error *err);
/* Does the map have a valid filling with its pins left out (the rules,
 * masks and global constraints alone)?  TILESAT_SAT, TILESAT_UNSAT or -1
 * with err: repair proposes pins to drop first when they alone clash. */
TILESAT_API int tilesat_repair_rules_alone(const tilesat_map *m,
                                           const tilesat_solve_options *so,
                                           tilesat_error *err);

/* ------------------------------------------------------------------ traces */

/* WFC's propagation made visible, as steps (above).  The trace borrows
 * the map. */
typedef struct tilesat_trace tilesat_trace;

/* Propagate from the start, then apply the map's pins together and
 * propagate.  Stops at the first contradiction. */
TILESAT_API tilesat_trace *tilesat_trace_new(const tilesat_map *m);
TILESAT_API void tilesat_trace_free(tilesat_trace *t);
/* Does a trace of m fit m's memory bound (its log at its longest: every
 * tile of every cell removed)?  0, or -1 with the refusal; call it before
 * tilesat_trace_new, which does not check. */
TILESAT_API int tilesat_trace_fits(const tilesat_map *m, tilesat_error *err);
/* Choose `tile` at (row, col) and propagate.  Returns TILESAT_UNSAT on a
 * contradiction (now or earlier: nothing more is done), else 0. */
TILESAT_API int tilesat_trace_choose(tilesat_trace *t, int row, int col,
                                     int tile);
/* The same, the choice numbered NUMBER in its steps (tilesat_step.choice)
 * (tilesat_trace_choose numbers them 1, 2, ...): a subset of a run's
 * choices keeps the run's numbers. */
TILESAT_API int tilesat_trace_choose_as(tilesat_trace *t, int row, int col,
                                        int tile, int number);
/* TILESAT_UNSAT after a contradiction, TILESAT_SAT if every cell holds one
 * tile, else TILESAT_UNKNOWN. */
TILESAT_API int tilesat_trace_status(const tilesat_trace *t);
/* Is `tile` still possible at (row, col)? */
TILESAT_API bool tilesat_trace_possible(const tilesat_trace *t, int row,
                                        int col, int tile);
/* After a contradiction: the chain of steps that led to it (back to the
 * pins and choices that caused it), only those; otherwise every step.  The
 * caller frees them (tilesat_steps_free); the remaining domains are
 * tilesat_trace_possible's. */
TILESAT_API tilesat_steps *tilesat_trace_steps(const tilesat_trace *t);
/* The map traced (borrowed). */
TILESAT_API const tilesat_map *tilesat_trace_map(const tilesat_trace *t);

/* --------------------------------------------------------------- analysis */

/* A report on a rule set: tiles with no neighbour in some direction, tiles
 * that appear in no valid map from 2x2 to max x max, which sizes from 1x1
 * to max x max are satisfiable, and, when max x max is not ("hard"), the
 * explanation for the smallest unsatisfiable size (by area, then width). */
typedef struct tilesat_analysis tilesat_analysis;

/* max from 1 to 64.  NULL with an error (topology mismatch, bad max). */
TILESAT_API tilesat_analysis *tilesat_analyze(const tilesat_rules *r, int max,
                                              tilesat_topology topo,
                                              bool periodic,
                                              const tilesat_solve_options *so,
                                              tilesat_error *err);
TILESAT_API void tilesat_analysis_free(tilesat_analysis *a);
/* TILESAT_SAT / TILESAT_UNSAT for width x height, or TILESAT_UNKNOWN when
 * the size is not a valid map (odd height on a periodic hex map). */
TILESAT_API int tilesat_analysis_result(const tilesat_analysis *a, int width,
                                        int height);
/* Does the tile appear in some valid map from 2x2 (1x1 when max is 1) to
 * max x max?  (Every tile fits a 1x1 map, where it has no neighbour.) */
TILESAT_API bool tilesat_analysis_tile_appears(const tilesat_analysis *a,
                                               int tile);
/* The analysis in one struct, filled by tilesat_analysis_get (as
 * lua_getinfo fills lua_Debug): what was analysed and what was found. */
typedef struct tilesat_analysis_info {
  const tilesat_rules *rules; /* borrowed */
  int max;
  tilesat_topology topo;
  bool periodic;
  int least; /* tiles' appearance asked from least x least: 2 (1: max 1) */
  bool hard; /* max x max is unsatisfiable */
  /* when hard, why the smallest size fails (owned by a); else NULL */
  const tilesat_explanation *explanation;
} tilesat_analysis_info;
TILESAT_API void tilesat_analysis_get(const tilesat_analysis *a,
                                      tilesat_analysis_info *info);

#ifdef __cplusplus
}
#endif

/* making maps: annealing, collapse, advice, check as a portfolio */
#include "tilesat_gen.h"

#endif
