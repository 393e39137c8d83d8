/* wfc/collapse_internal.h: the collapser's state (collapse.c), shared with
 * the code that explains its failed runs (collapse_explain.c). */
#ifndef TILESAT_WFC_COLLAPSE_INTERNAL_H
#define TILESAT_WFC_COLLAPSE_INTERNAL_H

#include "core/rng.h"
#include "wfc/wfc.h"

typedef struct ts_collapse_pair {
  int cell, tile;
} ts_collapse_pair;

/* A tile proved to doom the run at its step-th choice (at cell). */
typedef struct ts_collapse_doom {
  size_t step;
  int cell, tile;
} ts_collapse_doom;

/* The run's state at the start of a step (the guard's: a replay resumes
 * there instead of at the seed). */
typedef struct ts_collapse_snapshot {
  size_t step; /* SIZE_MAX: none taken */
  uint16_t *support;
  uint8_t *possible;
  uint64_t *pbits;
  int *count, *heap, *pos;
  double *sum_w, *sum_wlogw, *entropy, *key;
  int heap_n, scan;
  ts_rng rng, noise;
} ts_collapse_snapshot;

/* Counts, connected and path (collapse_globals.c), or NULL without them. */
typedef struct ts_cg ts_cg;
/* Connected and path constraints, relaxed, in a window of the guard. */
typedef struct ts_cg_window ts_cg_window;

struct tilesat_collapse {
  const tilesat_map *m; /* the caller's, or own */
  tilesat_map *own;     /* the caller's with its borders as bans, or NULL */
  int T, D, N;
  bool light;      /* tilesat_collapse_new_modify's: no table of cells */
  bool said_exact; /* ts_collapse_say_exact said its line */
  int *nbr;        /* [cell][dir]: neighbour or -1 */
  int *opp;        /* [dir]: the opposite direction */
  int **supp_list; /* [dir][tile]: tiles allowed in dir of tile */
  int *supp_len;   /* [dir][tile] */
  int W;           /* uint64_t words of a tile bitset */
  uint64_t *abits; /* [dir][tile][W]: supp_list as a bitset */
  /* [cell][dir][tile]: support, exact while the tile is possible (a
   * banned tile's count is no longer kept: propagate skips it) */
  uint16_t *support;
  uint8_t *possible; /* [cell][tile] */
  uint64_t *pbits;   /* [cell][W]: possible, as a bitset */
  /* modify's block collapsers (ts_collapse_bits_on): propagation by tile
   * bitsets (collapse_bits.c); done[cell][W], the possible set last
   * propagated from each cell; ubits[dir][W], a scratch; utab, the
   * unions of the allowed sets of each chunk of ubit tiles (ubit 4 or 8),
   * [chunk][its 2^ubit subsets][dir][W].  NULL otherwise */
  uint64_t *done, *ubits, *utab;
  int ubit;
  int *count;                          /* [cell]: possible tiles */
  double *sum_w, *sum_wlogw, *entropy; /* [cell] */
  double *w, *wlogw;                   /* [tile] */
  /* the observation: a min-heap of the undecided cells (entropy, mrv) */
  tilesat_heuristic heuristic;
  double *key; /* [cell]: entropy or count, plus noise */
  int *heap;   /* [heap_n]: cells */
  int *pos;    /* [cell]: its place in heap, or -1 */
  int heap_n;
  /* bans' changes to the heap, deferred until it is read (heap_flush):
   * the cells (dirty[0 .. ndirty), dirty_on[cell]) and the noise drawn
   * last for each (pend[cell]) */
  double *pend;
  int *dirty, ndirty;
  uint8_t *dirty_on;
  TS_VEC(ts_collapse_pair) stack;
  TS_VEC(ts_collapse_pair) choices;
  int contradiction; /* the cell left empty, or -1 */
  ts_cg *cg;         /* the global constraints' counters and regions */
  bool guarded;      /* the run under way is: connectivity propagated */
  int failed;        /* a global constraint the run could not keep, or -1 */
  char why[512];     /* that, in words */
  uint64_t seed, seed_now; /* the run's, and the start's under way */
  long backs, learns;      /* the guard's learns (that went back) */
  long restarts;           /* new starts (global constraints, memory) */
  const char *restart_why; /* the last new start's reason (static), or NULL */
  int scan;                /* scanline: no undecided cell before this one */
  ts_rng rng, noise;
  /* the guard: a solver made at the first contradiction it must explain */
  ts_solver *solver;
  ts_cuts *cuts;               /* its connected and path constraints, or NULL */
  ts_cg_window *wcut;          /* the window being solved: its cuts, or NULL */
  ts_solver *wsolver;          /* its solver */
  tilesat_solve_options solve; /* what the solver was made with */
  const tilesat_solve_options *now; /* the options of the solving under way */
  int map_sat;       /* the rules and pins alone: SAT, UNSAT, -1 */
  uint64_t pins_key; /* the map's pins and bans the solver was made with */
  TS_VEC(ts_collapse_doom) dooms; /* proved, by step; of the last run */
  size_t next_doom;               /* the first doom not yet reached */
  long calls;                     /* solver calls of the last run */
  ts_collapse_snapshot snap;      /* the state at the newest doom's step */
  ts_collapse_snapshot old;       /* an older one (snap_keep) */
  ts_collapse_snapshot probe;     /* a state to come back to, probing a cell */
  /* modify's tries of one block: 1, keep the state after the start in
   * start_snap; 2, start from it again (the same map and pins: only the
   * seeds differ); 0, neither.  start_ok: start_snap holds one. */
  int start_reuse;
  bool start_ok;
  ts_collapse_snapshot start_snap;
  size_t snap_want; /* the step to take it at, or SIZE_MAX */
  /* why the last run failed (tilesat_collapse_explain) */
  long no_return;
  TS_VEC(size_t) doomed;
  /* the block guard (blocks.c) */
  bool drain;          /* propagation goes on past an emptied cell */
  bool blocks_on;      /* contradictions are repaired by blocks */
  bool global_slow;    /* auto: the whole-map proof ran past its budget */
  TS_VEC(int) empties; /* cells emptied, to repair */
  uint8_t *base;       /* [cell][tile]: the wave after the pins and bans */
  unsigned *open_memo; /* [cell]: blocks.c's open cells (epoch << 1 | open) */
  unsigned *open_seen; /* [cell]: blocks.c's search that met it */
  unsigned open_epoch, open_stamp;
  long repairs, resolved;
  /* the progress line's count of decided cells before the guard last
   * undid some, and why: a line below it says so (ts_collapse_undo) */
  long undo_from;
  const char *undo_why;
  int level_cap; /* a block's own collapser: repairs give up past it */
  /* a block's own collapser: the one whose block it fills, and the options
   * that one runs with (its progress reports are the parent's) */
  const struct tilesat_collapse *parent;
  const tilesat_solve_options *parent_so;
  /* the window that refuted the pins (its size and place only), or one of
   * width 0 (tilesat_collapse_info.unsat_window) */
  ts_window unsat_window;
  /* --guard modify (modify.c): what it did, and its periodic pattern,
   * found once for the map (p 0: none fits, -1: not looked for yet) */
  tilesat_modify_stats mod;
  /* why auto's blocks gave way to modify (ts_blocks_repair), or NULL */
  const char *auto_why;
  int mod_p, mod_q;
  int *mod_tiles;
  bool mod_wfc;  /* the pattern was made by WFC (mod_pattern.wfc) */
  double *mod_w; /* the blocks' weights (ts_mod_calibrate), or NULL: not yet */
};

/* ----------------------------------------- hooks for the block guard */

/* A window of the map (sat/window.c): rows y0.. and columns x0.. (modulo
 * the size on a periodic map), as a map of its own that does not wrap.
 * Its cells lose their neighbours outside, so it is a relaxation of the
 * map. */

/* The window of radius r around cell; false when it would be the whole
 * map (or wrap a hex map of odd height, whose rows then change parity). */
bool ts_collapse_window(const tilesat_collapse *c, int cell, int r,
                        ts_window *w);
/* The window of rows y0..y0+hh-1 and columns x0..x0+ww-1 (of the map
 * unwrapped: cut at the edges, or modulo the size on a periodic map);
 * false when it would be the whole map. */
bool ts_collapse_window_rect(const tilesat_collapse *c, int x0, int y0, int ww,
                             int hh, ts_window *w);
/* cell's place in the window, or -1; the map's cell of window cell lc. */
int ts_collapse_window_cell(const tilesat_collapse *c, const ts_window *w,
                            int cell);
int ts_collapse_map_cell(const tilesat_collapse *c, const ts_window *w, int lc);
/* Remove tile t from cell (queued for propagation unless it was the last:
 * an empty cell is a contradiction, and its neighbours keep counting its
 * last tile until a repair decides it again). */
void ts_collapse_ban(tilesat_collapse *c, int cell, int t);
/* Propagate the removals queued. */
void ts_collapse_propagate(tilesat_collapse *c);
/* Remove the tiles of bits word w (mask) from cell at once, as many bans:
 * one draw of the heap's noise, one removal queued (collapse_bits.c's
 * propagation reads the cell's whole set). */
void ts_collapse_ban_bits(tilesat_collapse *c, int cell, int w, uint64_t mask);
/* collapse_bits.c: a collapser of modify's blocks propagates by tile
 * bitsets (no global constraints; not for one that drains); the
 * propagation of the removals queued. */
void ts_collapse_bits_on(tilesat_collapse *c);
void ts_collapse_propagate_bits(tilesat_collapse *c);
/* cell holds t alone, set outright (its neighbours' supports are the
 * caller's to make right). */
void ts_collapse_set(tilesat_collapse *c, int cell, int t);
/* A map of the rules and pins from the guard's solver on the whole map:
 * TILESAT_SAT (tiles), TILESAT_UNSAT, or -1 with err. */
int ts_collapse_solve_map(tilesat_collapse *c, const tilesat_solve_options *so,
                          int *tiles, tilesat_error *err);
/* Would the guard's solver on the whole map need more than --max-memory?
 * -1 with err, else 0. */
int ts_collapse_solver_refuse(const tilesat_collapse *c,
                              const tilesat_solve_options *so,
                              tilesat_error *err);
/* Start over from a seed drawn from the run's own (restarts + 1), with no
 * dooms learnt. */
void ts_collapse_new_start(tilesat_collapse *c);

/* For collapse_guard.c: the bytes a cell costs, guarded or not
 * (collapse_new.c), and probing's first failing prefix before choice x
 * (collapse.c). */
double ts_collapse_bytes_per_cell(int T, int D, bool guard);
size_t ts_collapse_probe_back(tilesat_collapse *c, int x);
/* Refuse a map whose tables (guarded: and the snapshot and base) would
 * not fit m's bound.  What the guard makes later is bounded as it is
 * made: a window that would not fit is not tried, the whole map's solver
 * that would not fit is refused (make_solver), and so is a block whose
 * own collapser would not fit.  0, or -1 with err.
 * (collapse.c and collapse_new.c: inline here, so that it adds no name
 * to the library.) */
static inline int collapse_refuse(const tilesat_map *m, bool guard,
                                  tilesat_error *err) {
  double per_cell =
      ts_collapse_bytes_per_cell(m->rules->ntiles, m->rules->ndirs, guard);
  return ts_memory_refuse(m, (double)m->ncells * per_cell, 0, "collapse", err);
}
/* collapse_guard.c: solve under the choices at idx[0..n); the point of no
 * return on the whole map (-1: none at all, -3: over `budget` conflicts,
 * -2 with err); learn a doom after a guarded run's contradiction. */
int ts_collapse_solve_choices(tilesat_collapse *c, const size_t *idx, size_t n,
                              tilesat_error *err);
long ts_collapse_global_no_return(tilesat_collapse *c,
                                  const tilesat_solve_options *so, int budget,
                                  tilesat_error *err);
int ts_collapse_guard_learn(tilesat_collapse *c,
                            const tilesat_collapse_options *o,
                            tilesat_error *err);
/* --guard sat on a map whose whole solver is large: what it may need, and
 * the fast guard, on o->notice (once per collapser, before its first run). */
void ts_collapse_say_exact(tilesat_collapse *c,
                           const tilesat_collapse_options *o);

/* Where the run is, to so->progress if any (the caller throttles): "K of
 * N cells decided", with a guard its exact bans and block repairs, and
 * what it is doing ("; DOING") when not NULL.  A block's collapser reports
 * its outermost parent's run instead. */
void ts_collapse_report(const tilesat_collapse *c,
                        const tilesat_solve_options *so, const char *doing);
/* The guard is about to undo decided cells (a replay after an exact ban, a
 * new start, a block decided again): the progress lines whose count is
 * below today's say "back from N: WHY" until the count is past it again,
 * so that it never runs backwards without a word. */
void ts_collapse_undo(tilesat_collapse *c, const char *why);
/* so for a solver of the guard's own (a window, a block): its progress
 * lines are c's run's (ts_collapse_report with `own`, the options c runs
 * with), not the solver's; say lives as long as the solver. */
typedef struct ts_collapse_say {
  const tilesat_collapse *c;
  const tilesat_solve_options *own;
  char doing[80]; /* what the solver is for */
} ts_collapse_say;
tilesat_solve_options ts_collapse_quiet(const tilesat_collapse *c,
                                        const tilesat_solve_options *so,
                                        const tilesat_solve_options *own,
                                        ts_collapse_say *say);

/* blocks.c: decide again a block of cells around each empty cell of the
 * wave, growing the block while it has no filling, up to the whole map;
 * then propagate.  0 (no empty cell left), TILESAT_UNSAT (the whole map
 * has no filling), 2 (a repair would pass c->level_cap, or a block's own
 * collapser's whole map would not fit in --max-memory), 3 with err (the
 * whole map's solver would not fit), or -1 with err. */
int ts_blocks_repair(tilesat_collapse *c, const tilesat_collapse_options *o,
                     tilesat_error *err);

/* collapse_globals.c: counts, connected and path constraints in a run.
 * ts_cg_new: NULL when the map has none.  ts_cg_stop: the bans of a new run's
 * start are not followed (ts_cg_start counts them).  ts_cg_start: after them,
 * before its propagation: the counters and regions from the wave, a
 * path's cells and a connected region's cell banned every tile outside
 * the class.  ts_cg_rebuild: the same from a restored wave (no bans).
 * ts_cg_on_ban: the hook of every ban.  ts_cg_propagate: the work the bans left
 * (tiles a count or a region no longer allows); true if it banned some. */
ts_cg *ts_cg_new(const tilesat_collapse *c);
void ts_cg_free(ts_cg *g);
void ts_cg_stop(ts_cg *g);
void ts_cg_start(tilesat_collapse *c);
void ts_cg_rebuild(tilesat_collapse *c);
void ts_cg_on_ban(tilesat_collapse *c, int cell, int t);
bool ts_cg_propagate(tilesat_collapse *c);
/* The window wm (its cell lc is the map's wcell[lc]) with the map's
 * connected and path constraints relaxed to what holds in it (NULL
 * without them).  ts_cg_window_outside: the literal a choice outside the
 * window holding tile stands for in the window's prefix (a class cell
 * outside is known from then on), or 0.  ts_cg_window_solve: solve under
 * lits[0..n) within budget conflicts a solve (0: none), cutting models
 * that break them: SAT, UNSAT or UNKNOWN. */
ts_cg_window *ts_cg_window_new(const tilesat_collapse *c, const tilesat_map *wm,
                               const int *wcell);
void ts_cg_window_free(ts_cg_window *w);
int ts_cg_window_outside(ts_cg_window *w, int tile);
int ts_cg_window_solve(ts_cg_window *w, ts_solver *s, const int *lits, long n,
                       int budget);
/* Does a filled map (TILESAT_NO_TILE on masked cells) keep m's global
 * constraints?  The index of the first it breaks, with why ("ORIGIN:
 * TEXT, but ..."), or -1.  For every guard's last word on a map. */
int ts_collapse_globals_broken(const tilesat_map *m, const int *tiles,
                               char *why, size_t whylen);

#endif
