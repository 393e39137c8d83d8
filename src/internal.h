/* internal.h: what the modules of libtilesat share and the CLI does not see. */
#ifndef TILESAT_INTERNAL_H
#define TILESAT_INTERNAL_H

#include "tilesat.h"

#include <stdarg.h>

/* ---------------------------------------------------------------- memory */

/* Out of memory is fatal, in one place. */
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
#define TS_PUSH(vec, x)                                                        \
  do {                                                                         \
    if ((vec).n == (vec).cap) {                                                \
      (vec).cap = (vec).cap ? 2 * (vec).cap : 16;                              \
      (vec).v = ts_realloc((vec).v, (vec).cap * sizeof *(vec).v);              \
    }                                                                          \
    (vec).v[(vec).n++] = (x);                                                  \
  } while (0)

typedef TS_VEC(int) ts_ints;

/* ---------------------------------------------------------------- errors */

/* Fill `err` (if not NULL) with "FILE:LINE: message" (line 0: "FILE: ..."). */
void ts_error(tilesat_error *err, const char *file, long line, const char *fmt,
              ...) __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ text */

/* Read a whole file; NULL and an error on failure. */
char *ts_read_file(const char *path, size_t *len, tilesat_error *err);
/* Check that text is valid UTF-8 with no NUL byte; on failure returns false
 * with the line number and a message.  Also rejects ASCII control
 * characters other than tab, CR and LF. */
bool ts_utf8_check(const char *text, size_t len, long *line, char *msg,
                   size_t msglen);
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

/* A string -> index map over names owned elsewhere (open addressing). */
typedef struct ts_names {
  TS_VEC(char *) v; /* owned names, by index */
  int *slot;        /* hash slots: index + 1, 0 = empty */
  size_t nslots;
} ts_names;
/* Index of name, or -1. */
int ts_names_find(const ts_names *t, const char *name);
/* Index of name, adding a copy if new. */
int ts_names_intern(ts_names *t, const char *name, size_t len);
void ts_names_free(ts_names *t);

/* ------------------------------------------------------------------ maps */

struct tilesat_rules {
  tilesat_topology topo;
  int ntiles, ndirs;
  int words;        /* uint64_t words per tile bitset */
  ts_names names;   /* tile names, by index */
  uint64_t *weight; /* ntiles */
  uint64_t *allow;  /* [tile][dir][words]: who may stand in dir of tile */
};

static inline const uint64_t *ts_allowed(const tilesat_rules *r, int a, int d) {
  return r->allow +
         ((size_t)a * (size_t)r->ndirs + (size_t)d) * (size_t)r->words;
}
static inline bool ts_bit(const uint64_t *set, int i) {
  return (set[i >> 6] >> (i & 63)) & 1u;
}
/* A rule set with no allowed pair over the given tiles (taken over). */
tilesat_rules *ts_rules_new(tilesat_topology topo, ts_names *names);
void ts_rules_allow(tilesat_rules *r, int a, int d, int b);

typedef struct ts_pin {
  int cell, tile;
} ts_pin;

struct tilesat_map {
  const tilesat_rules *rules;
  tilesat_topology topo;
  bool periodic;
  int width, height, ncells;
  TS_VEC(ts_pin) pins;
};

/* Neighbour cell of `cell` in direction d, or -1. */
int ts_map_neighbor(const tilesat_map *m, int cell, int d);

/* ------------------------------------------------------------------- CNF */

/* What a clause stands for, at the level a designer thinks in; explanations
 * select and report these groups. */
typedef enum ts_group_kind {
  TS_GROUP_CELL, /* the cell holds exactly one tile */
  TS_GROUP_PIN,  /* a pinned tile */
  TS_GROUP_ADJ,  /* two neighbouring cells hold an allowed pair */
} ts_group_kind;

typedef struct ts_cnf {
  int nvars;            /* tile variables first, then auxiliaries */
  int ntilevars;        /* ncells * ntiles */
  TS_VEC(int) lits;     /* clauses, each ended by 0 */
  TS_VEC(size_t) start; /* offset of each clause in lits */
  TS_VEC(int) group;    /* group id of each clause */
} ts_cnf;

/* Group ids: cells 0..ncells-1, then pins, then one per cell and direction
 * (the edge seen from that cell; both clauses of an edge share the id of the
 * edge's "forward" side). */
int ts_group_count(const tilesat_map *m);
ts_group_kind ts_group_decode(const tilesat_map *m, int group, int *cell,
                              int *dir_or_pin);

void ts_encode(const tilesat_map *m, ts_cnf *cnf);
void ts_cnf_free(ts_cnf *cnf);
static inline int ts_var(const tilesat_map *m, int cell, int tile) {
  return cell * m->rules->ntiles + tile + 1;
}

/* ---------------------------------------------------------------- solver */

/* One small IPASIR-shaped interface over the backends; DIMACS literals. */
typedef struct ts_solver ts_solver;
ts_solver *ts_solver_new(tilesat_backend b);
void ts_solver_free(ts_solver *s);
void ts_solver_add_clause(ts_solver *s, const int *lits, size_t n);
void ts_solver_assume(ts_solver *s, int lit);
/* TILESAT_SAT / TILESAT_UNSAT / TILESAT_UNKNOWN; assumptions are cleared. */
int ts_solver_solve(ts_solver *s);
/* After SAT: true if the variable is true in the model. */
bool ts_solver_value(ts_solver *s, int var);
/* After UNSAT under assumptions: was assumption `lit` part of the reason? */
bool ts_solver_failed(ts_solver *s, int lit);
void ts_solver_load(ts_solver *s, const ts_cnf *cnf);
/* While *stop is nonzero, solve gives up and returns TILESAT_UNKNOWN. */
void ts_solver_set_stop(ts_solver *s, const volatile sig_atomic_t *stop);

/* --------------------------------------------------------------- counting */

#include <gmp.h>

/* Frontier DP (dp.c): exact count, and exact uniform samples. */
int ts_dp_count(const tilesat_map *m, const tilesat_count_options *o,
                mpz_t count, tilesat_error *err);
int ts_dp_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                 tilesat_map_fn fn, void *user, tilesat_error *err);
/* ApproxMC counts and UniGen samples on CryptoMiniSat (approx.c). */
int ts_xor_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                  tilesat_map_fn fn, void *user, tilesat_error *err);
int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err);
/* For the tests: distinct assignments of approx's independent support over
 * all maps, up to limit (-1: no answer); *bits: the tile-bit support. */
long ts_approx_support_count(const tilesat_map *m, long limit, bool *bits);
/* For the tests: one estimate's bounded enumerations at order[0..n-1] rows
 * (got) and how many of the given maps lie in each cell (want). */
void ts_approx_cells(const tilesat_map *m, uint64_t seed, int thresh,
                     const int *order, int n, const int *maps, long nmaps,
                     long *got, long *want);
/* CryptoMiniSat only: its ApproxMC settings, on a new solver; only the
 * values of an independent support can be read from its models. */
void ts_solver_set_counting(ts_solver *s);
/* CryptoMiniSat only: a native XOR constraint over variables. */
void ts_solver_add_xor(ts_solver *s, const int *vars, size_t n, bool rhs);
/* Encode m and load it into a new solver of backend b. */
ts_solver *ts_solver_for_map(const tilesat_map *m, tilesat_backend b);
/* tilesat_enumerate whose solves also stop when *stop is set (then -1, the
 * caller saying why), for count's enum. */
int64_t ts_enumerate(const tilesat_map *m, tilesat_backend b, int64_t limit,
                     tilesat_map_fn fn, void *user,
                     const volatile sig_atomic_t *stop, tilesat_error *err);
/* Read the model's map into tiles and verify it (solve.c). */
int ts_read_map(const tilesat_map *m, ts_solver *s, int *tiles,
                tilesat_error *err);

/* ------------------------------------------------- images, inputs, pictures */

/* "#rrggbb" / "#rrggbbaa" to RGBA; false if not a colour. */
bool ts_parse_colour(const char *s, uint8_t rgba[4]);
/* RGBA to "#rrggbb" (opaque) or "#rrggbbaa". */
void ts_colour_name(const uint8_t rgba[4], char out[10]);
/* A grid over the given names (taken over) and width*height cells (taken
 * over); a cell of -1 is excluded from the sample (tilesat_grid_at gives
 * NULL, extraction sees neither it nor pairs with it). */
tilesat_grid *ts_grid_new(const char *filename, int width, int height,
                          ts_names *names, int *cells);
/* Parse an XML file with libxml2 (no network); NULL and "FILE:LINE: bad
 * XML: ..." on failure.  The caller frees it with xmlFreeDoc. */
struct _xmlDoc *ts_xml_read(const char *path, tilesat_error *err);
struct _xmlDoc *ts_xml_parse(const char *text, size_t len, const char *path,
                             tilesat_error *err);

/* ----------------------------------------------------------- propagation */

/* Arc consistency directly on tile domains (WFC's propagation), every
 * reduction recorded with its reason so that a contradiction can be traced
 * back to the pins and choices behind it.  `enabled` (per group id, or NULL
 * for all) restricts it to some constraints: without a cell's "one tile"
 * group a pin does not empty the rest of the cell and an empty cell is no
 * contradiction, as in the CNF. */
typedef enum ts_step_kind {
  TS_STEP_PIN,     /* a pin or a choice keeps one tile: the cell loses others */
  TS_STEP_SUPPORT, /* the neighbour's tiles allow none of the lost ones */
  TS_STEP_EMPTY,   /* contradiction: no tile left in a cell */
  TS_STEP_LOST,    /* contradiction: a pinned or chosen tile is ruled out */
  /* with positive facts (explanations of constraint subsets): */
  TS_STEP_MUST,      /* the cell must hold one of a set (in `lost`) */
  TS_STEP_ONE,       /* it must hold one of a set and holds one tile only:
                        it loses the rest */
  TS_STEP_MUST_GONE, /* contradiction: what it must hold is ruled out */
} ts_step_kind;

typedef struct ts_step {
  ts_step_kind kind;
  int cell;
  int group;    /* the constraint used: pin, edge or cell group; -1 choice */
  int choice;   /* PIN / LOST by a choice: its index, else -1 */
  int tile;     /* PIN / LOST: the pinned or chosen tile */
  int nb, dir;  /* SUPPORT: the neighbour, and the direction from it to cell */
  size_t lost;  /* offset in `sets`: the tiles lost (PIN, SUPPORT, ONE);
                   MUST: the tiles it must hold one of */
  size_t nbdom; /* SUPPORT: offset in `sets`: the neighbour's domain;
                   MUST: what the neighbour must hold one of */
  size_t deps, ndeps; /* offsets in `deps`: earlier steps this one needs */
} ts_step;

typedef struct ts_prop {
  const tilesat_map *m;
  const uint8_t *enabled;
  int words;
  uint64_t *dom;   /* ncells * words */
  int *removed_by; /* cell * ntiles + tile: step id, or -1 */
  int *forced;     /* cell: pinned or chosen tile, or -1 */
  int *forced_by;  /* cell: the step that pinned it */
  TS_VEC(ts_step) steps;
  TS_VEC(uint64_t) sets;
  TS_VEC(int) deps;
  ts_ints queue;
  uint8_t *queued;
  int conflict; /* step id of the contradiction, or -1 */
  /* positive facts: "cell holds at least one tile of must[cell]" */
  bool positive;
  uint64_t *must; /* ncells * words */
  int *must_by;   /* cell: the step that set it, or -1 (no fact) */
} ts_prop;

/* Every cell may hold every tile; then the first round of propagation
 * (tiles with no allowed neighbour where there is one).  false on a
 * contradiction.  With `positive`, also derive facts "c holds one of X"
 * from pins along pairs (a cell may lack its one-tile constraint in a
 * subset, so these say more than domains do). */
bool ts_prop_init(ts_prop *p, const tilesat_map *m, const uint8_t *enabled,
                  bool positive);
void ts_prop_free(ts_prop *p);
/* Keep only `tile` at `cell` (pin group `group`, or choice `choice` >= 0
 * with group -1), then propagate.  false on a contradiction. */
bool ts_prop_pin(ts_prop *p, int cell, int tile, int group, int choice);
/* Apply the map's enabled pins, then propagate. */
bool ts_prop_pins(ts_prop *p);
/* onchain[step] = 1 for the contradiction and every step it depends on. */
void ts_prop_chain(const ts_prop *p, uint8_t *onchain);
static inline bool ts_prop_has(const ts_prop *p, int cell, int tile) {
  return ts_bit(p->dom + (size_t)cell * (size_t)p->words, tile);
}
/* Describe a step in words ("(1,2) loses {S}: (0,2) holds only {L}, and L
 * allows only {L, C} to its south"), without a newline. */
void ts_prop_write_step(const ts_prop *p, int step, FILE *out);
/* A tile set as "{A, B}". */
void ts_write_tileset(const tilesat_rules *r, const uint64_t *set, FILE *out);
/* "north", "south-east", ...: a direction in words. */
const char *ts_dir_words(tilesat_topology topo, int dir);
/* JSON string with escapes. */
void ts_json_string(FILE *out, const char *s);
void ts_json_tileset(const tilesat_rules *r, const uint64_t *set, FILE *out);
/* number: step id -> number shown (0: not shown), or NULL for id + 1;
 * ids: the explanation's constraints the step uses, or NULL. */
void ts_prop_write_step_json(const ts_prop *p, int step, const int *number,
                             const int *ids, int nids, FILE *out);
/* Group id of the edge from `cell` in direction d (as encode.c numbers). */
int ts_prop_edge_group(const tilesat_map *m, int cell, int d);

/* ---------------------------------------------------------------- energy */

/* A bias line: `weight` for `tile` on the cells of a region. */
typedef enum ts_region_kind {
  TS_REGION_ALL,
  TS_REGION_BORDER,
  TS_REGION_INTERIOR,
  TS_REGION_RECT, /* rows r0..r1, columns c0..c1, inclusive */
} ts_region_kind;

typedef struct ts_bias {
  int tile;
  double weight;
  ts_region_kind kind;
  int r0, c0, r1, c1;
} ts_bias;

#define TS_MAX_REGIONS 256

struct tilesat_energy {
  const tilesat_map *map;
  int ntiles, ndirs;
  bool prepared;
  /* weights as given; hard < 0 means "the default" until prepared */
  double hard, frequency, palindrome, onehot;
  double *coherence;        /* J per tile */
  int64_t *explicit_target; /* -1: from the weights */
  bool exact;
  TS_VEC(ts_bias) biases;
  /* prepared */
  int64_t *target; /* ntiles */
  int64_t *pinned; /* pinned cells per tile */
  uint8_t *region; /* per cell: index into region_bias */
  int nregions;
  double *region_bias; /* [nregions][ntiles] */
  int8_t *pin_of;      /* per cell: 1 if pinned */
  int *pin_tile;       /* per cell: the pinned tile or -1 */
  bool hard_default;   /* the hard weight is the default (not given) */
  double soft_scale;   /* largest single-cell soft change near the targets */
  int nforward;        /* forward directions: each edge is (cell, forward d) */
  int forward[3];
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

/* A preferred polarity for the next solves (solver.c; PicoSAT only, a
 * no-op on CryptoMiniSat): a hint, not a constraint. */
void ts_solver_prefer(ts_solver *s, int lit);

/* Repair the violations of a filled map with the SAT backend (repair.c):
 * the violating cells and a margin around them, every other cell pinned;
 * fills the repair fields of `st`.  Returns 0 or -1 on error. */
int ts_repair(const tilesat_energy *e, tilesat_backend b, int *tiles,
              tilesat_anneal_stats *st, tilesat_error *err);

#endif
