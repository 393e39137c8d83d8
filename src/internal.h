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
