/* core/core.h: what every stage of libtilesat shares: memory, errors, text,
 * name tables, rules and maps.  Not installed; the CLI never sees it. */
#ifndef TILESAT_CORE_H
#define TILESAT_CORE_H

#include "tilesat.h"

#include <stdarg.h>

/* ---------------------------------------------------------------- memory */

/* Out of memory is fatal, in one place: "tilesat: out of memory
 * (allocating N bytes)", or "out of memory in WHO (...)", and exit 1 (never
 * a signal; the memory bound should have refused the task before). */
_Noreturn void ts_out_of_memory(const char *who, size_t n);
void *ts_malloc(size_t n);
void *ts_calloc(size_t n, size_t size);
void *ts_realloc(void *p, size_t n);
char *ts_strdup(const char *s);
char *ts_strndup(const char *s, size_t n);
/* API misuse: abort naming the caller. */
_Noreturn void ts_misuse(const char *func, const char *what);

/* A growable array: `struct { T *v; size_t n, cap; }`. */
#define TS_VEC(T)                                                              \
  struct {                                                                     \
    T *v;                                                                      \
    size_t n, cap;                                                             \
  }
/* Room for one more element: v grown (doubled) when n has reached *cap. */
static inline void *ts_vec_fit(void *v, size_t n, size_t *cap, size_t size) {
  if (n < *cap)
    return v;
  *cap = *cap ? 2 * *cap : 16;
  return ts_realloc(v, *cap * size);
}
/* An expression, without branches of its own, so that a loop that pushes
 * reads (and is measured) as the loop it is. */
#define TS_PUSH(vec, x)                                                        \
  ((vec).v = ts_vec_fit((vec).v, (vec).n, &(vec).cap, sizeof *(vec).v),        \
   (void)((vec).v[(vec).n++] = (x)))

typedef TS_VEC(int) ts_ints;

/* ---------------------------------------------------------------- errors */

/* Fill `err` (if not NULL) with "FILE:LINE: message" (line 0: "FILE: ..."). */
void ts_error(tilesat_error *err, const char *file, long line, const char *fmt,
              ...) __attribute__((format(printf, 4, 5)));
/* An error about parameter `param` ("size", "pin"): "PARAM: message", and
 * err->param set (tilesat_error), so that the command line can name its
 * option instead; library messages never name a command-line flag. */
void ts_error_param(tilesat_error *err, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* err->param set to `param` when err's message is about it ("PARAM: ..."
 * or "PARAM cannot ..."), as a function that names its input by a
 * caller's word reports it. */
void ts_error_mark_param(tilesat_error *err, const char *param);

/* ------------------------------------------------------------------ text */

/* Flush an output (see tilesat_output): 0, or -1 after a write error,
 * whose errno the output keeps for tilesat_output_commit's message. */
int ts_output_flush(tilesat_output *o);
/* Read a whole file ("-": standard input, read once and kept, so that
 * every reader of "-" gets the same bytes); NULL and an error on
 * failure. */
char *ts_read_file(const char *path, size_t *len, tilesat_error *err);
/* Check that text is valid UTF-8 with no NUL byte; on failure returns false
 * with the line number and a message.  Also rejects ASCII control
 * characters other than tab, CR and LF. */
bool ts_utf8_check(const char *text, size_t len, long *line, char *msg,
                   size_t msglen);
/* 3 if text starts with a UTF-8 byte-order mark (which every text reader
 * skips), else 0. */
size_t ts_bom_len(const char *text, size_t len);
/* Where a file's text starts: past a UTF-8 byte order mark and blanks
 * (space, tab, CR, LF), so that '<' or '{' tells XML from JSON. */
size_t ts_text_start(const char *text, size_t len);
/* Length in bytes of the UTF-8 sequence starting at s (text already valid). */
int ts_utf8_len(unsigned char c);

/* Split a line (no newline in it) into whitespace-separated tokens; "..."
 * quotes a token, with \" and \\ inside.  Tokens are malloc'd.  Returns the
 * number of tokens, or -1 with a message (unterminated quote, bad escape). */
int ts_tokenize(const char *line, size_t len, char ***tokens, const char **msg);
void ts_tokens_free(char **tokens, int n);
/* Write a name as a token: quoted when it needs to be. */
void ts_write_token(FILE *out, const char *name);
/* Does this name need quotes as a token? */
bool ts_token_needs_quotes(const char *name);

/* Iterate over the lines of a text: returns false at the end. */
typedef struct ts_lines {
  const char *p, *end;
  long lineno;
} ts_lines;
bool ts_next_line(ts_lines *it, const char **line, size_t *len);

/* The text formats built alike (rules, energy, pictures): a first line
 * `tilesat-KIND VERSION`, then one keyword line after another, tokens as
 * ts_tokenize splits them, '#' lines and blank lines skipped, every error
 * "FILE:LINE: message" (reader.c).  A parser walks the lines with
 * ts_reader_next and hands each keyword to its handler. */
typedef struct ts_reader {
  const char *file;
  tilesat_error *err;
  const char *text;
  size_t len;
  ts_lines it;
  bool no_lines; /* errors name no line: the text is an option's value */
  char **tok;    /* the current line's tokens, tok[0] its keyword */
  int nt;
} ts_reader;
/* Check that a text file is UTF-8 (ts_utf8_check); false with the error
 * reported at its line (or at none, with no_lines). */
bool ts_text_check(const char *text, size_t len, const char *file,
                   bool no_lines, tilesat_error *err);
/* What kind of file a text is, by its first bytes (kind.c): pictures,
 * the XML and JSON files of WFC and Tiled, tilesat's own text formats by
 * their header; TS_KIND_OTHER for the rest (text grids among them). */
typedef enum ts_kind {
  TS_KIND_OTHER,
  TS_KIND_PNG,
  TS_KIND_JPEG,
  TS_KIND_GIF,
  TS_KIND_WEBP,
  TS_KIND_WFC_TILESET,
  TS_KIND_WFC_SAMPLES,
  TS_KIND_TILED_MAP,
  TS_KIND_TILED_TILESET,
  TS_KIND_RULES,
  TS_KIND_PICTURES,
  TS_KIND_CONSTRAINTS,
  TS_KIND_ENERGY,
  TS_KIND_GRID /* only wanted: a text map or sample */
} ts_kind;
ts_kind ts_kind_of(const char *text, size_t len);
/* The kind of an XML document whose root element is name[0 .. len), or
 * TS_KIND_OTHER. */
ts_kind ts_kind_of_root(const char *name, size_t len);
/* True when the text is not recognisably another kind than `want`; else
 * false with "FILE: a KIND, not a WANT: what to do" (ts_kind_refuse). */
bool ts_kind_check(const char *text, size_t len, const char *file, ts_kind want,
                   tilesat_error *err);
/* Report a file of kind `is` given where `want` belongs, naming the
 * command that reads it or the option it goes to. */
void ts_kind_refuse(ts_kind is, ts_kind want, const char *file, long line,
                    tilesat_error *err);

/* Start at the first line; false if the text is recognisably another kind
 * than `want` (ts_kind_check; not with no_lines or TS_KIND_OTHER) or is
 * not UTF-8. */
bool ts_reader_open(ts_reader *rd, const char *text, size_t len,
                    const char *file, ts_kind want, bool no_lines,
                    tilesat_error *err);
/* The next line that is neither blank nor a comment, tokenized: 1; 0 at the
 * end; -1 with the error reported (a bad quote). */
int ts_reader_next(ts_reader *rd);
/* Back to the first line, for a second pass. */
void ts_reader_rewind(ts_reader *rd);
void ts_reader_close(ts_reader *rd);
/* Report "FILE:LINE: message" at the current line; returns -1. */
int ts_reader_error(ts_reader *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The current line is the header `HEADER VERSION` (HEADER "tilesat-KIND"):
 * 0, or -1 with "not a KIND file" or "KIND format version N is not
 * supported" reported. */
int ts_reader_header(ts_reader *rd, const char *header, int version);

/* A whole number in decimal digits (no sign), at most max. */
bool ts_parse_whole(const char *s, uint64_t max, uint64_t *out);
/* A finite decimal number of size at most maxabs. */
bool ts_parse_decimal(const char *s, double maxabs, double *out);

/* A string -> index map over names owned elsewhere (open addressing). */
typedef struct ts_names {
  TS_VEC(char *) v; /* owned names, by index */
  int *slot;        /* hash slots: index + 1, 0 = empty */
  size_t nslots;
} ts_names;
/* Index of name, or -1. */
int ts_names_find(const ts_names *t, const char *name);
/* The same for the len bytes at name (no NUL needed). */
int ts_names_find_n(const ts_names *t, const char *name, size_t len);
/* Index of name, adding a copy if new. */
int ts_names_intern(ts_names *t, const char *name, size_t len);
void ts_names_free(ts_names *t);
/* tilesat_suggest over the names, as " (did you mean ...?)" to append to
 * an error, or "" (suggest.c). */
size_t ts_names_hint(const ts_names *names, const char *word, const char *noun,
                     char *buf, size_t size);
#define TS_HINT 512 /* a hint's buffer */
/* A file that does not exist: " (did you mean 'DIR/NAME'?)" for the names
 * in its folder near its own (as tilesat_suggest finds them), or "". */
size_t ts_path_hint(const char *path, char *buf, size_t size);

/* ------------------------------------------------------------------ maps */

struct tilesat_rules {
  tilesat_topology topo;
  int ntiles, ndirs;
  int words;        /* uint64_t words per tile bitset */
  ts_names names;   /* tile names, by index */
  uint64_t *weight; /* ntiles */
  uint64_t *allow;  /* [tile][dir][words]: who may stand in dir of tile */
  const char *weights_from; /* where the weights came from, for the rules
                               file's comment (a static string); NULL: the
                               samples' occurrences (extract) */
};

static inline const uint64_t *ts_allowed(const tilesat_rules *r, int a, int d) {
  return r->allow +
         ((size_t)a * (size_t)r->ndirs + (size_t)d) * (size_t)r->words;
}
static inline bool ts_bit(const uint64_t *set, int i) {
  return (set[i >> 6] >> (i & 63)) & 1u;
}
/* The table of allowed pairs is dense, a bit for each pair of tiles in each
 * direction (every stage reads it as bitsets), so its size grows with the
 * square of the tiles: rule sets whose table would pass TS_MAX_PAIR_BYTES
 * are refused before anything that large is allocated. */
#define TS_MAX_PAIR_BYTES ((uint64_t)1 << 30)
/* Bytes of the table for ntiles tiles in ndirs directions. */
uint64_t ts_rules_table_bytes(uint64_t ntiles, int ndirs);
/* True, with "too many tiles: ..." in msg (how much the table would need
 * and the most tiles allowed), if ntiles tiles are more than fit. */
bool ts_rules_too_many(uint64_t ntiles, tilesat_topology topo, char *msg,
                       size_t msglen);
/* A rule set with no allowed pair over the given tiles (taken over, and
 * not too many: ts_rules_too_many). */
tilesat_rules *ts_rules_new(tilesat_topology topo, ts_names *names);
/* A copy of r: names, weights and allowed pairs (repairs and advice change
 * it). */
tilesat_rules *ts_rules_copy(const tilesat_rules *r);
void ts_rules_allow(tilesat_rules *r, int a, int d, int b);

typedef struct ts_pin {
  int cell, tile;
} ts_pin;

/* A global constraint (tilesat.h, "global constraints"; global.c). */
enum { TS_SIDE_N = 1, TS_SIDE_E = 2, TS_SIDE_S = 4, TS_SIDE_W = 8 };
typedef enum ts_cmp { TS_AT_MOST, TS_AT_LEAST, TS_EXACTLY } ts_cmp;

typedef struct ts_global {
  tilesat_global_kind kind;
  uint64_t *class; /* its tiles, a bitset of the rules' words */
  int ntiles;      /* how many */
  int tile;        /* the one tile, when ntiles is 1 */
  char *text;      /* in words (tilesat_map_global_text) */
  char *origin;    /* "FILE:LINE" or the option */
  ts_cmp cmp;      /* COUNT: at most, at least, exactly k */
  int k;
  int r0, c0, r1, c1; /* COUNT: its cells, corners inclusive (all: the map) */
  bool nonempty;      /* CONNECTED: at least one class cell */
  int at;             /* CONNECTED: a cell in the region, or -1 */
  ts_ints cells;      /* PATH: the cells joined, two or more */
  unsigned sides;     /* BORDER: TS_SIDE_* */
} ts_global;

/* A named class of tiles ("class floor . + ,"). */
typedef struct ts_class {
  const char *name; /* the map's class_names holds it */
  uint64_t *tiles;
} ts_class;

struct tilesat_map {
  const tilesat_rules *rules;
  tilesat_topology topo;
  bool periodic;
  int width, height, ncells;
  TS_VEC(ts_pin) pins;
  TS_VEC(ts_pin) bans; /* (cell, tile) pairs no valid map holds */
  size_t max_memory;   /* bytes (tilesat_map_set_max_memory) */
  TS_VEC(ts_global) globals;
  TS_VEC(ts_class) classes;
  ts_names class_names; /* the classes' names, by the same index (hashed) */
  uint8_t *masked;      /* per cell: not part of the map (NULL: none is) */
  int nmasked;
};

static inline bool ts_masked(const tilesat_map *m, int cell) {
  return m->masked && m->masked[cell];
}

/* Is the map past TILESAT_MAX_CELL_TILES (tilesat_map_new_large)? */
bool ts_map_large(const tilesat_map *m);
/* A map past TILESAT_MAX_CELL_TILES (tilesat_map_new_large): -1 with err
 * (from `what`, naming --guard modify), else 0.  Everything that builds a
 * table of the whole map's cells times tiles asks first. */
int ts_map_refuse_large(const tilesat_map *m, const char *what,
                        tilesat_error *err);

/* Is the cell one of g's: in a COUNT's rectangle, on a BORDER's sides? */
bool ts_global_covers(const tilesat_map *m, const ts_global *g, int cell);
/* CONNECTED and PATH: enforced by cuts as models break them (sat/cuts.c). */
static inline bool ts_global_lazy(const ts_global *g) {
  return g->kind == TILESAT_GLOBAL_CONNECTED || g->kind == TILESAT_GLOBAL_PATH;
}
/* Does the map have a lazily enforced constraint? */
bool ts_map_has_lazy(const tilesat_map *m);
/* The regions of the cells with in[cell] set: comp[cell] their number
 * (0, 1, ...) or -1, with queue (ncells ints) as scratch; neighbours from
 * nbr (ncells * ndirs, -1 where the map ends) or, when NULL, the map's.
 * Returns how many regions. */
int ts_regions(const tilesat_map *m, const int *nbr, const uint8_t *in,
               int *comp, int *queue);
/* For engines that honour bans but not borders: a copy of m (pins, bans,
 * masks, memory bound) with every BORDER as bans and its other global
 * constraints copied (for the dp, which keeps counts and connectivity;
 * the other engines refuse them first); NULL when m has no BORDER. */
tilesat_map *ts_map_lowered(const tilesat_map *m);
/* A class as a constraint names it (a named class, a tile, tiles joined
 * by commas): a bitset of the rules' words, or NULL with "OPTION: ...". */
uint64_t *ts_class_parse(const tilesat_map *m, const char *word,
                         const char *option, tilesat_error *err);
/* Does the filled map keep the global constraints?  false with why. */
bool ts_globals_verify(const tilesat_map *m, const int *tiles, char *why,
                       size_t whylen);
/* Does the filled map break the map's i-th global constraint?  true with
 * why: "ORIGIN: TEXT, but WHAT". */
bool ts_global_broken(const tilesat_map *m, int i, const int *tiles, char *why,
                      size_t whylen);
/* How many global constraints the filled map breaks; the first in why. */
int ts_globals_broken(const tilesat_map *m, const int *tiles, char *why,
                      size_t whylen);
void ts_globals_free(tilesat_map *m);

/* Neighbour cell of `cell` in direction d, or -1 (where the map ends,
 * and at a masked cell on either side). */
int ts_map_neighbor(const tilesat_map *m, int cell, int d);

/* Each edge of a map once: from a cell in a forward direction (square: E S;
 * hex: E SE SW).  Constraint groups, explanations, energies, annealing and
 * QUBO all number edges this way. */
#define TS_MAX_FORWARD 3
bool ts_dir_forward(tilesat_topology topo, int d);
/* The forward directions, in increasing order; returns how many. */
int ts_forward_dirs(tilesat_topology topo, int out[TS_MAX_FORWARD]);
/* The edge from `cell` in direction d (a neighbour exists) as an index
 * cell * ndirs + d of its forward end; < ncells * ndirs. */
int ts_edge_index(const tilesat_map *m, int cell, int d);

/* A grid over the given names (taken over) and width*height cells (taken
 * over); a cell of -1 is excluded from the sample (tilesat_grid_at gives
 * NULL, extraction sees neither it nor pairs with it). */
tilesat_grid *ts_grid_new(const char *filename, int width, int height,
                          ts_names *names, int *cells);

#endif
