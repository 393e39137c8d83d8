/* sat/sat.h: the map as CNF, the solver interface, check and enumerate. */
#ifndef TILESAT_SAT_H
#define TILESAT_SAT_H

#include "core/core.h"

/* ------------------------------------------------------------------- CNF */

/* What a clause stands for, at the level a designer thinks in; explanations
 * select and report these groups. */
typedef enum ts_group_kind {
  TS_GROUP_CELL,   /* the cell holds exactly one tile */
  TS_GROUP_PIN,    /* a pinned tile */
  TS_GROUP_ADJ,    /* two neighbouring cells hold an allowed pair */
  TS_GROUP_GLOBAL, /* a global constraint: count, connected, path, border */
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
 * edge's "forward" side), then one per global constraint. */
int ts_group_count(const tilesat_map *m);
/* Group id of the edge from `cell` in direction d (a neighbour exists). */
int ts_edge_group(const tilesat_map *m, int cell, int d);
/* Group id of the map's i-th global constraint. */
int ts_global_group(const tilesat_map *m, int i);
/* A global group: cell -1, dir_or_pin the constraint's index. */
ts_group_kind ts_group_decode(const tilesat_map *m, int group, int *cell,
                              int *dir_or_pin);

/* Up to this many tiles at-most-one is pairwise, beyond it a ladder. */
#define TS_PAIRWISE_MAX 8

/* Each clause of m's CNF in turn, with its group, to fn: the encoder
 * itself, which stores nothing (ts_encode stores them in a ts_cnf). */
typedef void (*ts_clause_fn)(void *user, int group, const int *lits, size_t n);
void ts_encode_each(const tilesat_map *m, ts_clause_fn fn, void *user);
/* The same models in fewer clauses (a solver's; `encode` and the groups of
 * explain keep ts_encode_each's): a banned tile's adjacency clauses and
 * literals left out, its unit clause kept: a cell of a guard's block
 * that keeps one of Castle's 29 tiles has 4 adjacency clauses, not 116. */
void ts_encode_each_pruned(const tilesat_map *m, ts_clause_fn fn, void *user);
int ts_encode_nvars(const tilesat_map *m);
void ts_encode(const tilesat_map *m, ts_cnf *cnf);
/* The last variable before the auxiliaries of global constraint i (of
 * every one when i is the number of them). */
int ts_global_var0(const tilesat_map *m, int i);
/* The literal "the cell holds a tile of the class" of global i at each
 * cell it covers into ylit (ncells ints, 0 elsewhere); var0 is
 * ts_global_var0(m, i). */
void ts_global_ylits(const tilesat_map *m, int i, int var0, int *ylit);
/* The totalizer of global COUNT constraints, for other cardinalities (a
 * MaxSAT's "at most k of the relaxations"): out[i] (i < min(n, bound))
 * means "at least i+1 of lits[0..n)" (n >= 1), forced by the inputs (only
 * those clauses: assume -out[k] for "at most k"); its variables follow
 * *next, which it advances; its clauses go to fn in group 0. */
void ts_totalizer_up(const int *lits, int n, int bound, int *next,
                     ts_clause_fn fn, void *user, int *out);
void ts_cnf_free(ts_cnf *cnf);
static inline int ts_var(const tilesat_map *m, int cell, int tile) {
  return cell * m->rules->ntiles + tile + 1;
}

/* ---------------------------------------------------------------- solver */

/* A backend: one adapter per SAT library (backend_*.c), IPASIR-shaped, with
 * DIMACS literals; each adapter translates to its library.  solver.c
 * dispatches through these, so no other file knows which library runs. */
typedef struct ts_backend_ops {
  const char *name;
  void *(*init)(void);
  void (*release)(void *impl);
  void (*reserve)(void *impl, int nvars); /* may be NULL */
  void (*add)(void *impl, int lit);       /* 0 ends the clause */
  void (*assume)(void *impl, int lit);
  int (*solve)(void *impl); /* TILESAT_SAT / _UNSAT / _UNKNOWN */
  bool (*value)(void *impl, int var);
  bool (*failed)(void *impl, int lit);
  /* Poll fn(user) during search; a nonzero answer ends solve, UNKNOWN. */
  void (*set_terminate)(void *impl, int (*fn)(void *), void *user);
  /* The next solve only: give up (UNKNOWN) after about `conflicts`
   * conflicts' worth of search. */
  void (*limit)(void *impl, int conflicts);
  /* Optional (NULL when the library has none): */
  void (*prefer)(void *impl, int lit); /* a polarity hint */
  void (*set_counting)(void *impl);    /* ApproxMC's settings */
  void (*add_xor)(void *impl, const int *vars, size_t n, bool rhs);
  /* the search's decisions so far (read from inside the search, by the
   * progress line) */
  unsigned long long (*decisions)(void *impl);
} ts_backend_ops;

extern const ts_backend_ops ts_picosat_ops, ts_cryptominisat_ops,
    ts_cadical_ops;

typedef struct ts_solver ts_solver;
/* A solver of the backend so->backend stands for on map m (m is only read
 * to resolve TILESAT_BACKEND_AUTO; so may be NULL: the defaults), polling
 * so->terminate. */
ts_solver *ts_solver_new(const tilesat_map *m, const tilesat_solve_options *so);
void ts_solver_free(ts_solver *s);
void ts_solver_add_clause(ts_solver *s, const int *lits, size_t n);
void ts_solver_assume(ts_solver *s, int lit);
/* TILESAT_SAT / TILESAT_UNSAT / TILESAT_UNKNOWN; assumptions are cleared. */
int ts_solver_solve(ts_solver *s);
/* Bound the next solve (only that one) to about `conflicts` conflicts; it
 * then answers TILESAT_UNKNOWN (ts_terminated tells it from a stop).
 * CaDiCaL counts conflicts; PicoSAT, which limits only propagations, and
 * CryptoMiniSat, whose C API limits only CPU time, get what that many
 * conflicts take on a map of a few hundred cells (backend_*.c).  Used
 * where "no answer soon" is an answer: a hard piece of an anneal clean-up. */
void ts_solver_limit(ts_solver *s, int conflicts);
/* A progress line to the caller of the solver's options (if it wants
 * them). */
void ts_solver_say(const ts_solver *s, const char *line);
/* A progress line through so->progress, when the caller wants them (the
 * caller throttles). */
void ts_say(const tilesat_solve_options *so, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* After SAT: true if the variable is true in the model. */
bool ts_solver_value(ts_solver *s, int var);
/* After UNSAT under assumptions: was assumption `lit` part of the reason? */
bool ts_solver_failed(ts_solver *s, int lit);
void ts_solver_load(ts_solver *s, const ts_cnf *cnf);
/* Tell the backend how many variables are coming (before the clauses). */
void ts_solver_reserve(ts_solver *s, int nvars);
/* About `lits` literals (with the 0s) in `clauses` clauses are coming
 * through ts_solver_add_clause: progress says how far it is. */
void ts_solver_expect(ts_solver *s, size_t lits, size_t clauses);
/* After solve gave TILESAT_UNKNOWN: "WHAT: interrupted" when terminate
 * asked for it, else "the NAME backend gave no answer"; returns -1. */
int ts_solver_unknown(const ts_solver *s, const char *what, tilesat_error *err);
int ts_no_answer(const tilesat_solve_options *so, const char *what,
                 tilesat_error *err);
/* so (NULL: the defaults) with its backend chosen for m, for functions
 * that make several solvers for one map. */
tilesat_solve_options ts_solve_for(const tilesat_map *m,
                                   const tilesat_solve_options *so);
/* Has so's terminate asked to stop?  (so may be NULL.) */
bool ts_terminated(const tilesat_solve_options *so);

/* A preferred polarity for the next solves: a hint, not a constraint; a
 * no-op on backends without per-variable phases (CryptoMiniSat, CaDiCaL's
 * C API). */
void ts_solver_prefer(ts_solver *s, int lit);
/* CryptoMiniSat only (ts_misuse elsewhere): its ApproxMC settings, on a new
 * solver; only the values of an independent support can be read from its
 * models. */
void ts_solver_set_counting(ts_solver *s);
/* CryptoMiniSat only (ts_misuse elsewhere): a native XOR constraint. */
void ts_solver_add_xor(ts_solver *s, const int *vars, size_t n, bool rhs);
/* Encode m and load it into a new solver. */
ts_solver *ts_solver_for_map(const tilesat_map *m,
                             const tilesat_solve_options *so);
/* A window of a map (window.c): rows y0.. and columns x0.. (modulo the
 * size on a periodic map) as a map of its own that does not wrap, whose
 * cells lose their neighbours outside: a relaxation, so what leaves the
 * window no filling leaves the map none. */
typedef struct ts_window {
  tilesat_map m; /* its pins and bans; free with ts_window_free */
  int x0, y0;
} ts_window;
/* The map's masked cells inside window w, as w's own mask. */
void ts_window_mask(const tilesat_map *m, ts_window *w);
/* The window of radius r around cell (side 2r+1, cut to the map; on a
 * hex map one more row, so that its rows keep their parity), with m's
 * pins and bans inside it, and on each side where the map goes on the
 * tiles that allow nothing there banned; false (nothing to free) when it
 * would be the whole map, or would wrap a hex map of odd height.  m's
 * masked cells stay masked; its global constraints are left out. */
bool ts_window_at(const tilesat_map *m, int cell, int r, ts_window *w);
/* The same window, empty (no pins, no bans): only its place; and the
 * window of rows y0..y0+hh-1 and columns x0..x0+ww-1 of the map unwrapped
 * (cut at the edges, or modulo the size on a periodic map), false when it
 * would be the whole map.  The block guard's blocks (wfc/blocks.c). */
bool ts_window_place(const tilesat_map *m, int cell, int r, ts_window *w);
bool ts_window_rect(const tilesat_map *m, int x0, int y0, int ww, int hh,
                    ts_window *w);
void ts_window_free(ts_window *w);
/* Solve the window alone, quietly, by CaDiCaL (its conflict limit is
 * exact) within `conflicts`: SAT, UNSAT, TILESAT_UNKNOWN (no answer within
 * them, or the deadline), or -1. */
int ts_window_solve(const ts_window *w, const tilesat_solve_options *so,
                    int conflicts);
/* A cell of m in the window's numbering, or -1 when outside; and back. */
int ts_window_cell(const tilesat_map *m, const ts_window *w, int cell);
int ts_window_map_cell(const tilesat_map *m, const ts_window *w, int wcell);
/* Check m (not periodic) a band of `rows` rows at a time, the last
 * `overlap` rows of each solved again with the next (solve.c, "strips"):
 * TILESAT_SAT (tiles verified), TILESAT_UNSAT (proved by the first band),
 * TILESAT_UNKNOWN (a later band met a dead end), or -1 with err. */
int ts_check_strips(const tilesat_map *m, const tilesat_solve_options *so,
                    int rows, int overlap, int *tiles, tilesat_error *err);
/* Read the model's map into tiles and verify it (solve.c). */
int ts_read_map(const tilesat_map *m, ts_solver *s, int *tiles,
                tilesat_error *err);

/* ------------------------------------------------------------------ cuts */

/* Connected and path constraints, kept lazily (cuts.c): after a model,
 * the regions of each class are found; a region that should meet another
 * but does not gets cuts "-y_u | -y_v | OR y_b" for u in it, v in the
 * other and B a ring of cells around it that every way from u to v
 * crosses, in the constraint's group; the solver is run again. */
typedef struct ts_cuts ts_cuts;
/* NULL when m has no connected or path constraint. */
ts_cuts *ts_cuts_new(const tilesat_map *m);
void ts_cuts_free(ts_cuts *c);
typedef bool (*ts_value_fn)(void *user, int var);
/* Read the model (value(vuser, var)), and give fn the cuts of every
 * constraint it breaks, among those with active[i] (NULL: all); returns
 * how many (0: the model keeps them). */
long ts_cuts_find(ts_cuts *c, ts_value_fn value, void *vuser,
                  const uint8_t *active, ts_clause_fn fn, void *user);
/* Solve s (which holds m's CNF) until its model keeps m's connected and
 * path constraints, adding cuts (c may be NULL: none): SAT, UNSAT or
 * UNKNOWN, as ts_solver_solve; counts go to stats (may be NULL). */
int ts_solve_cut(ts_solver *s, ts_cuts *c, tilesat_solve_stats *stats);
/* The same under the assumptions lits[0..n) at every solve, each solve
 * within `conflicts` (0: no bound; see ts_solver_limit), without the hint
 * for class cells (the caller gives its own). */
int ts_solve_cut_assuming(ts_solver *s, ts_cuts *c, const int *lits, int n,
                          int conflicts, tilesat_solve_stats *stats);

/* ---------------------------------------------------------------- memory */

/* What m's CNF holds, counted without building it (an upper bound: as if
 * every cell had every neighbour). */
typedef struct ts_cnf_size {
  double nvars, nclauses, nbinary, nlits; /* nlits: without the 0s */
} ts_cnf_size;
ts_cnf_size ts_cnf_measure(const tilesat_map *m);
/* Add the clauses of m's global constraints to z (encode.c: counted as the
 * encoder makes them, a totalizer's are not a formula). */
void ts_globals_measure(const tilesat_map *m, ts_cnf_size *z);
/* Bytes a solver of backend b (not AUTO) holding that CNF needs at most
 * (tools/bench-memory.sh measures the ratio to the real peak). */
double ts_solver_bytes(tilesat_backend b, ts_cnf_size z);
/* Bytes of a ts_cnf holding it. */
double ts_cnf_bytes(ts_cnf_size z);
/* What a task needs as a function of the map's size, to name the largest
 * map that fits: fixed + per_cell * width * height + per_width * width
 * bytes (per_width: a band of rows as wide as the map). */
typedef struct ts_need {
  double fixed, per_cell, per_width;
} ts_need;
/* `need` bytes on m, of which `fixed` do not grow with the size. */
ts_need ts_need_linear(const tilesat_map *m, double need, double fixed);
double ts_need_at(ts_need n, double width, double height);
/* Refuse, up front, what would need more than `bound` bytes: `need`;
 * "WHAT: a WxH map of T tiles needs about N, more than --max-memory M;
 * the largest square map that fits is about SxS" (S from `fit`).  Returns
 * 0, or -1 with err.  A map past TILESAT_MAX_CELL_TILES is refused
 * (ts_map_refuse_large): these bounds are for tables of the whole map. */
int ts_memory_refuse_within(const tilesat_map *m, double need, ts_need fit,
                            double bound, const char *what, tilesat_error *err);
/* The same within m's max_memory, on any map, also one past
 * TILESAT_MAX_CELL_TILES: what --guard modify needs (no table of cells
 * times tiles). */
int ts_memory_refuse_large(const tilesat_map *m, double need, double fixed,
                           const char *what, tilesat_error *err);
/* The same within m's max_memory, `need` growing with the cells beyond
 * its `fixed` part. */
int ts_memory_refuse(const tilesat_map *m, double need, double fixed,
                     const char *what, tilesat_error *err);
/* The same for a solver of so's backend on m's CNF, plus `extra` bytes
 * (a ts_cnf kept beside it, per-cell arrays). */
int ts_memory_check(const tilesat_map *m, const tilesat_solve_options *so,
                    double extra, const char *what, tilesat_error *err);

#endif
