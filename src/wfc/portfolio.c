/* portfolio.c: check as a portfolio (check --method auto).  The whole
 * map's CNF answers every question but grows with the map, and its
 * witness is whatever the solver's phases make of it (Knots: one tile
 * everywhere); a guarded collapse makes the map WFC would and is 30 to 50
 * times faster where WFC's dooms are local.  So, in turn:
 *
 *  1. windows around the pins (radius 2, 4, 8, 16, up to a side of
 *     WINDOW_SIDE and a quarter of the map; a window's cells lose their
 *     neighbours outside, so a window with no filling refutes the map:
 *     sat/window.c), each within WINDOW_CONFLICTS, a pin skipped when it
 *     lies near the centre of a window already tried at that radius, in at
 *     most a tenth of the budget: UNSAT, naming the window;
 *  2. a guarded collapse (--guard auto: the exact guard while it answers
 *     soon, then block repairs; within the budget, CPU time): SAT and its
 *     map, verified; or UNSAT (the guard's window, propagation of the
 *     pins, or the guard on the whole map refuted them);
 *  3. the whole CNF (tilesat_check), when neither answered in its share of
 *     the time, or the collapse cannot take the map on (collapse_can:
 *     what it asks for, tilesat_collapse_keeps, the one place that says;
 *     its tables within the memory bound).
 *
 * The budget is CPU time, so that which engine answers depends little on
 * the machine's load: 5 s plus 2 microseconds per cell and tile, in the
 * range where the CNF itself takes 30 to 180 microseconds a cell (bench:
 * tools/bench-scale.sh).  Stage 2 is the one call of the guard
 * (run_collapse): the guard's kind is chosen there. */
#include "wfc/wfc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW_CONFLICTS 1000 /* the guard's too (collapse.c) */
#define WINDOW_SIDE 33        /* radius 16 */

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The caller's terminate, and the budget's end: terminate for the stages
 * that have a share of the budget. */
typedef struct deadline {
  const tilesat_solve_options *user;
  double until; /* CPU seconds */
  bool passed;  /* the budget ran out (not the caller's stop) */
} deadline;

static int past(void *p) {
  deadline *d = p;
  if (ts_terminated(d->user))
    return 1;
  if (cpu_seconds() > d->until)
    d->passed = true;
  return d->passed;
}

/* so with the deadline's terminate. */
static tilesat_solve_options within(const tilesat_solve_options *so,
                                    deadline *d) {
  tilesat_solve_options o = *so;
  o.terminate = past;
  o.terminate_user = d;
  o.stats = NULL;
  return o;
}

double ts_check_budget(const tilesat_map *m) {
  return 5 + 2e-6 * (double)m->ncells * (double)m->rules->ntiles;
}

/* ------------------------------------------------ 1. windows at the pins */

static void window_answer(const ts_window *w, tilesat_check_answer *how) {
  how->by = TILESAT_BY_WINDOW;
  how->row0 = w->y0;
  how->col0 = w->x0;
  how->rows = w->m.height;
  how->cols = w->m.width;
}

/* Is the window of radius r around cell refuted?  UNSAT (how says which
 * window), 0 (not refuted, or no such window short of the whole map), or
 * -1 (the deadline or the caller's stop). */
static int try_window(const tilesat_map *m, int cell, int r,
                      const tilesat_solve_options *so,
                      tilesat_check_answer *how) {
  ts_window w;
  if (!ts_window_at(m, cell, r, &w))
    return 0;
  int res = ts_window_solve(&w, so, WINDOW_CONFLICTS);
  if (res == TILESAT_UNSAT)
    window_answer(&w, how);
  ts_window_free(&w);
  if (res == TILESAT_UNKNOWN && ts_terminated(so))
    return -1;
  return res == TILESAT_UNSAT ? TILESAT_UNSAT : 0;
}

/* Mark the cells within d (rows and columns) of cell, modulo the size. */
static void cover(const tilesat_map *m, int cell, int d, uint8_t *near) {
  int W = m->width, H = m->height;
  for (int dy = -d; dy <= d; dy++)
    for (int dx = -d; dx <= d; dx++) {
      int y = cell / W + dy, x = cell % W + dx;
      if (m->periodic) {
        y = (y % H + H) % H;
        x = (x % W + W) % W;
      } else if (y < 0 || x < 0 || y >= H || x >= W) {
        continue;
      }
      near[y * W + x] = 1;
    }
}

/* Stage 1 on m (borders as bans): UNSAT (how), 0, or -1 (stopped). */
static int pin_windows(const tilesat_map *m, const tilesat_solve_options *so,
                       tilesat_check_answer *how) {
  ts_ints anchors = {0};
  for (size_t i = 0; i < m->pins.n; i++)
    TS_PUSH(anchors, m->pins.v[i].cell);
  uint8_t *near = ts_malloc((size_t)m->ncells);
  int rc = 0;
  for (int r = 2; rc == 0 && 2 * r + 1 <= WINDOW_SIDE &&
                  (2 * r + 1) * (2 * r + 1) <= m->ncells / 4;
       r *= 2) {
    ts_say(so, "windows of %dx%d around the pins", 2 * r + 1, 2 * r + 1);
    memset(near, 0, (size_t)m->ncells);
    for (size_t i = 0; i < anchors.n && rc == 0; i++) {
      if (near[anchors.v[i]])
        continue; /* near the middle of a window tried */
      cover(m, anchors.v[i], r / 2, near);
      rc = try_window(m, anchors.v[i], r, so, how);
    }
  }
  free(near);
  free(anchors.v);
  return rc;
}

/* The collapse's UNSAT came from propagation of the pins, which emptied
 * cell: a window around it that has no filling (of a side up to
 * WINDOW_SIDE), to name; how stays TILESAT_BY_PROPAGATION when none is
 * refuted (propagation can run the length of the map: S over L down a
 * column of coast). */
static void name_window(const tilesat_map *m, int cell,
                        const tilesat_solve_options *so,
                        tilesat_check_answer *how) {
  for (int r = 2; 2 * r + 1 <= WINDOW_SIDE; r *= 2)
    if (try_window(m, cell, r, so, how))
      return;
}

/* ---------------------------------------- 2a. the pins' propagation */

/* Arc consistency of the rules, bans and pins on the whole map, on tile
 * bitsets alone (ncells * words words: not explain's tables of reasons,
 * nor the collapse's wave, which a map of a million cells cannot afford
 * before modifying in blocks). */
typedef struct lean {
  const tilesat_map *m;
  int W;
  uint64_t *dom;
  uint8_t *queued;
  ts_ints q;
} lean;

/* The cell keeps only the tiles of keep: false when none is left. */
static bool lean_keep(lean *p, int cell, const uint64_t *keep) {
  uint64_t *d = p->dom + (size_t)cell * (size_t)p->W;
  bool changed = false, any = false;
  for (int w = 0; w < p->W; w++) {
    changed |= (d[w] & ~keep[w]) != 0;
    d[w] &= keep[w];
    any |= d[w] != 0;
  }
  if (changed && !p->queued[cell]) {
    p->queued[cell] = 1;
    TS_PUSH(p->q, cell);
  }
  return any;
}

/* Propagate what the queue holds: the cell left with no tile, or -1. */
static int lean_run(lean *p) {
  const tilesat_rules *r = p->m->rules;
  uint64_t *allow = ts_malloc((size_t)p->W * sizeof *allow);
  int empty = -1;
  for (size_t head = 0; empty < 0 && head < p->q.n; head++) {
    int cell = p->q.v[head];
    p->queued[cell] = 0;
    const uint64_t *d = p->dom + (size_t)cell * (size_t)p->W;
    for (int dir = 0; empty < 0 && dir < r->ndirs; dir++) {
      int nb = ts_map_neighbor(p->m, cell, dir);
      if (nb < 0)
        continue;
      memset(allow, 0, (size_t)p->W * sizeof *allow);
      for (int t = 0; t < r->ntiles; t++)
        if (ts_bit(d, t))
          for (int w = 0; w < p->W; w++)
            allow[w] |= ts_allowed(r, t, dir)[w];
      if (!lean_keep(p, nb, allow))
        empty = nb;
    }
  }
  p->q.n = 0;
  free(allow);
  return empty;
}

/* Does propagating the rules, bans and pins of m leave a cell with no
 * tile (a pinned cell when its tile is gone)?  That cell, or -1. */
static int pins_propagate(const tilesat_map *m) {
  int W = m->rules->words, T = m->rules->ntiles;
  lean p = {m,
            W,
            ts_calloc((size_t)m->ncells * (size_t)W, sizeof *p.dom),
            ts_calloc((size_t)m->ncells, 1),
            {0}};
  uint64_t *one = ts_calloc((size_t)W, sizeof *one);
  for (int c = 0; c < m->ncells; c++)
    if (!ts_masked(m, c)) {
      for (int t = 0; t < T; t++)
        p.dom[(size_t)c * (size_t)W + (size_t)(t >> 6)] |= (uint64_t)1
                                                           << (t & 63);
      p.queued[c] = 1;
      TS_PUSH(p.q, c);
    }
  int empty = -1;
  for (size_t i = 0; empty < 0 && i < m->bans.n; i++) {
    int c = m->bans.v[i].cell, t = m->bans.v[i].tile;
    memset(one, 0xff, (size_t)W * sizeof *one);
    one[t >> 6] &= ~((uint64_t)1 << (t & 63));
    if (!ts_masked(m, c) && !lean_keep(&p, c, one))
      empty = c;
  }
  if (empty < 0)
    empty = lean_run(&p);
  for (size_t i = 0; empty < 0 && i < m->pins.n; i++) {
    int c = m->pins.v[i].cell, t = m->pins.v[i].tile;
    memset(one, 0, (size_t)W * sizeof *one);
    one[t >> 6] = (uint64_t)1 << (t & 63);
    empty = lean_keep(&p, c, one) ? lean_run(&p) : c;
  }
  free(one);
  free(p.dom);
  free(p.queued);
  free(p.q.v);
  return empty;
}

/* ------------------------------------------------------- 2. the collapse */

/* From 256x256 cells on, check's collapse modifies in blocks (collapse
 * --guard modify: its time grows with the map, its memory with a block)
 * where modify keeps what the map asks for: auto's blocks, which keep
 * WFC's look best, can spend minutes on a large map with a pin (Castle
 * 1024x1024 with a tower pinned in the middle: no map after 120 s and 1.3
 * GB; modify, 10 s and 17 MB). */
#define CHECK_MODIFY_CELLS 65536

static bool by_modify(const tilesat_map *m) {
  return m->ncells >= CHECK_MODIFY_CELLS &&
         tilesat_map_refuse_globals(m,
                                    1u << TILESAT_GLOBAL_BORDER |
                                        1u << TILESAT_GLOBAL_COUNT |
                                        TILESAT_KEEPS_MASK,
                                    "check", NULL, NULL) == 0;
}

/* Can the collapse take m on: keep what it asks for, count its tiles in
 * its 16 bits, hold its wave (guarded) within the memory bound?  (Modify,
 * on a large map, needs less: the same bound keeps what check refuses
 * for memory the same whichever runs.) */
static bool collapse_can(const tilesat_map *m) {
  return tilesat_collapse_keeps(m) && m->rules->ntiles <= 65535 &&
         ts_collapse_refuse(m, "check", NULL) == 0;
}

/* A guarded collapse with guard g: SAT (tiles), UNSAT (how says what
 * proved it), TILESAT_UNKNOWN (a block past its cap), or -1. */
static int run_guard(const tilesat_map *m, const tilesat_solve_options *so,
                     uint64_t seed, tilesat_guard g, int *tiles,
                     tilesat_check_answer *how, tilesat_error *err) {
  tilesat_collapse *c = g == TILESAT_GUARD_MODIFY
                            ? tilesat_collapse_new_modify(m, err)
                            : tilesat_collapse_new(m, err);
  if (!c)
    return -1;
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.seed = seed;
  co.guard = g;
  co.solve = *so;
  if (g != TILESAT_GUARD_MODIFY)
    ts_say(so, "a guarded collapse (seed %llu)", (unsigned long long)seed);
  int res = tilesat_collapse_run(c, &co, tiles, err);
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  how->banned = ci.banned;
  how->repairs = ci.repairs;
  if (res == TILESAT_SAT) {
    how->by = TILESAT_BY_COLLAPSE;
  } else if (res == TILESAT_UNSAT) {
    how->cell = ci.contradiction;
    if (ci.unsat_window) {
      how->by = TILESAT_BY_WINDOW;
      how->row0 = ci.row0;
      how->col0 = ci.col0;
      how->rows = ci.rows;
      how->cols = ci.cols;
    } else if (ci.choices == 0 && how->cell >= 0)
      how->by = TILESAT_BY_PROPAGATION; /* the pins alone */
    else
      how->by = TILESAT_BY_COLLAPSE; /* the whole map's solver */
  }
  tilesat_collapse_free(c);
  return res;
}

/* A large map: modifying in blocks, after the pins' propagation (which
 * answers UNSAT at once where the auto guard's first propagation would:
 * modify's windows would grow to the whole map's CNF first). */
static int run_modify(const tilesat_map *m, const tilesat_solve_options *so,
                      uint64_t seed, int *tiles, tilesat_check_answer *how,
                      tilesat_error *err) {
  ts_say(so, "propagating the pins over the %dx%d map", m->width, m->height);
  tilesat_map *low = ts_map_lowered(m);
  int empty = pins_propagate(low ? low : m);
  tilesat_map_free(low);
  if (empty >= 0) {
    how->by = TILESAT_BY_PROPAGATION;
    how->cell = empty;
    return TILESAT_UNSAT;
  }
  ts_say(so,
         "a %dx%d map: modifying in blocks (collapse --guard modify, seed "
         "%llu)",
         m->width, m->height, (unsigned long long)seed);
  return run_guard(m, so, seed, TILESAT_GUARD_MODIFY, tiles, how, err);
}

/* The guarded collapse, the portfolio's one call of the guard (the guard
 * is chosen here): auto, the exact guard while it answers soon, then block
 * repairs.  SAT (tiles), UNSAT (how says what proved it), TILESAT_UNKNOWN
 * (a block past its cap), or -1 (err; also when so's terminate stopped
 * it). */
static int run_collapse(const tilesat_map *m, const tilesat_solve_options *so,
                        uint64_t seed, int *tiles, tilesat_check_answer *how,
                        tilesat_error *err) {
  if (by_modify(m))
    return run_modify(m, so, seed, tiles, how, err);
  return run_guard(m, so, seed, TILESAT_GUARD_AUTO, tiles, how, err);
}

/* Is msg a refusal for memory ("... needs about ..., more than
 * --max-memory ...")? */
static bool refused(const char *msg) {
  return strstr(msg, " needs about ") && strstr(msg, "--max-memory");
}

int ts_check_collapse_first(const tilesat_map *m,
                            const tilesat_solve_options *so, const char *what,
                            tilesat_error *err) {
  if (!collapse_can(m))
    return TILESAT_UNKNOWN;
  deadline d = {so, cpu_seconds() + ts_check_budget(m), false};
  tilesat_solve_options in = within(so, &d);
  int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
  tilesat_check_answer how;
  int res = run_collapse(m, &in, 1, tiles, &how, err);
  char why[512];
  if (res == TILESAT_SAT && !tilesat_map_verify(m, tiles, why, sizeof why)) {
    ts_error(err, what, 0,
             "internal error: the collapse's map is not valid: %s", why);
    res = -1;
  }
  free(tiles);
  if (ts_terminated(so))
    return ts_no_answer(so, what, err);
  if (res < 0 && (d.passed || (err && refused(err->msg))))
    return TILESAT_UNKNOWN; /* the budget ran out, or modify's memory */
  return res == TILESAT_SAT || res < 0 ? res : TILESAT_UNKNOWN;
}

/* A cheap refutation before counting (count.c): check's windows around
 * the pins and its guarded collapse, within `budget` CPU seconds, never
 * the whole map's CNF.  TILESAT_UNSAT (why says what proved it, as check
 * says it), TILESAT_UNKNOWN (not refuted: a map found, or no answer in
 * time or memory), or -1 with err (so's terminate stopped it). */
int ts_check_refute(const tilesat_map *m, const tilesat_solve_options *so,
                    double budget, char *why, size_t whylen, const char *what,
                    tilesat_error *err) {
  deadline d = {so, cpu_seconds() + budget / 10, false};
  tilesat_solve_options in = within(so, &d);
  in.progress = NULL; /* quick, and not what the command was asked */
  tilesat_map *low = ts_map_lowered(m);
  const tilesat_map *lm = low ? low : m;
  tilesat_check_answer how = {.by = TILESAT_BY_CNF, .cell = -1};
  int res = pin_windows(lm, &in, &how) == TILESAT_UNSAT ? TILESAT_UNSAT : 0;
  if (!res && !ts_terminated(so) && collapse_can(m)) {
    /* the rest of the budget, the windows' deadline passed or not */
    deadline rest = {so, cpu_seconds() + budget - budget / 10, false};
    in = within(so, &rest);
    in.progress = NULL;
    int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
    tilesat_error cerr;
    res = run_collapse(m, &in, 1, tiles, &how, &cerr);
    if (res == TILESAT_UNSAT && how.by == TILESAT_BY_PROPAGATION)
      name_window(lm, how.cell, &in, &how);
    free(tiles);
    if (res != TILESAT_UNSAT)
      res = 0;
  }
  if (ts_terminated(so))
    res = ts_no_answer(so, what, err);
  else if (res == TILESAT_UNSAT)
    tilesat_check_answer_text(m, &how, why, whylen);
  tilesat_map_free(low);
  return res ? res : TILESAT_UNKNOWN;
}

/* Check's first stage alone (explain, on a map whose whole solver would
 * not fit): the first window around a pin with no filling, within
 * `budget` CPU seconds; true with *how (TILESAT_BY_WINDOW). */
bool ts_check_pin_window(const tilesat_map *m, const tilesat_solve_options *so,
                         double budget, tilesat_check_answer *how) {
  deadline d = {so, cpu_seconds() + budget, false};
  tilesat_solve_options in = within(so, &d);
  in.progress = NULL; /* quick, and not what the command was asked */
  tilesat_map *low = ts_map_lowered(m);
  bool found = pin_windows(low ? low : m, &in, how) == TILESAT_UNSAT;
  tilesat_map_free(low);
  return found;
}

/* ---------------------------------------------------------- the answer */

const char *tilesat_check_method_name(tilesat_check_method method) {
  return method == TILESAT_CHECK_CNF        ? "cnf"
         : method == TILESAT_CHECK_COLLAPSE ? "collapse"
                                            : "auto";
}

int tilesat_check_method_parse(const char *name, tilesat_check_method *out) {
  for (int k = 0; k < 3; k++)
    if (!strcmp(name, tilesat_check_method_name((tilesat_check_method)k))) {
      *out = (tilesat_check_method)k;
      return 0;
    }
  return -1;
}

void tilesat_check_options_init(tilesat_check_options *o) {
  memset(o, 0, sizeof *o);
  o->method = TILESAT_CHECK_AUTO;
  o->solve.backend = TILESAT_PICOSAT;
  o->seed = 1;
}

/* Stages 1 and 2 of auto, and collapse.  SAT, UNSAT, TILESAT_UNKNOWN (no
 * answer: the CNF's turn), or -1. */
static int before_cnf(const tilesat_map *m, const tilesat_check_options *o,
                      int *tiles, tilesat_check_answer *how,
                      tilesat_error *err) {
  bool colonly = o->method == TILESAT_CHECK_COLLAPSE;
  double budget = o->budget > 0 ? o->budget : ts_check_budget(m);
  deadline d = {&o->solve, cpu_seconds() + budget / 10, false};
  tilesat_solve_options in = colonly ? o->solve : within(&o->solve, &d);
  tilesat_map *low = ts_map_lowered(m);
  const tilesat_map *lm = low ? low : m;
  int res = 0;
  if (!colonly && pin_windows(lm, &in, how) == TILESAT_UNSAT)
    res = TILESAT_UNSAT; /* or stopped: a tenth of the budget, or the caller */
  if (res == 0 && !ts_terminated(&o->solve)) {
    d.until += budget - budget / 10;
    d.passed = false;
    /* --method collapse: the map collapse --guard auto prints */
    res = colonly
              ? run_guard(m, &in, o->seed, TILESAT_GUARD_AUTO, tiles, how, err)
              : run_collapse(m, &in, o->seed, tiles, how, err);
    if (res == TILESAT_UNSAT && how->by == TILESAT_BY_PROPAGATION)
      name_window(lm, how->cell, &in, how); /* unnamed if stopped */
    if (res < 0 && !colonly && !ts_terminated(&o->solve) &&
        (d.passed || (err && refused(err->msg))))
      res = TILESAT_UNKNOWN; /* the budget ran out, or the guard's solver
                                on the whole map would not fit */
  }
  if (ts_terminated(&o->solve))
    res = ts_no_answer(&o->solve, "check", err);
  tilesat_map_free(low);
  return res;
}

int tilesat_check_portfolio(const tilesat_map *m,
                            const tilesat_check_options *options, int *tiles,
                            tilesat_check_answer *how, tilesat_error *err) {
  if (!m || !options)
    ts_misuse(__func__, "NULL map or options");
  tilesat_check_answer own_how = {.by = TILESAT_BY_CNF, .cell = -1};
  how = how ? how : &own_how;
  *how = own_how;
  tilesat_check_options o = *options;
  o.solve = ts_solve_for(m, &options->solve);
  int res = TILESAT_UNKNOWN;
  int *own = tiles ? tiles : ts_malloc((size_t)m->ncells * sizeof *own);
  if (o.method == TILESAT_CHECK_COLLAPSE ||
      (o.method == TILESAT_CHECK_AUTO && collapse_can(m)))
    res = before_cnf(m, &o, own, how, err);
  if (res == TILESAT_SAT) {
    char why[512];
    if (!tilesat_map_verify(m, own, why, sizeof why)) {
      ts_error(err, "check", 0,
               "internal error: the collapse's map is not valid: %s", why);
      res = -1;
    }
  } else if (res == TILESAT_UNKNOWN) {
    ts_say(&o.solve, "no answer from the windows and the collapse: the "
                     "whole map's CNF");
    *how = (tilesat_check_answer){.by = TILESAT_BY_CNF, .cell = -1};
    res = tilesat_check(m, &options->solve, own, err);
  }
  if (own != tiles)
    free(own);
  return res;
}

/* "rows 3-7", "row 3", or across the wrap "rows 1022-1023 and 0-2". */
static int span_text(char *buf, size_t len, const char *what, int first, int n,
                     int size) {
  int last = first + n - 1;
  if (n == 1)
    return snprintf(buf, len, "%s %d", what, first);
  if (last < size)
    return snprintf(buf, len, "%ss %d-%d", what, first, last);
  return snprintf(buf, len, "%ss %d-%d and 0-%d", what, first, size - 1,
                  last - size);
}

/* The global constraint (not a border: those are bans) m's pins and rules
 * alone do not refute, which the collapse's propagation used: its index,
 * -2 when there are several, or -1 when the rules and pins alone leave a
 * cell with no tile (or m has none). */
static int propagated_global(const tilesat_map *m) {
  int found = -1;
  for (size_t i = 0; i < m->globals.n; i++)
    if (m->globals.v[i].kind != TILESAT_GLOBAL_BORDER)
      found = found == -1 ? (int)i : -2;
  if (found == -1)
    return -1;
  tilesat_map *low = ts_map_lowered(m);
  int empty = pins_propagate(low ? low : m);
  tilesat_map_free(low);
  return empty >= 0 ? -1 : found;
}

/* "propagating the rules and pins leaves no tile at (R,C)", naming the
 * global constraint propagation used when the rules and pins alone do not
 * leave a cell empty (a connected floor: a floor pin walled in). */
static void propagation_text(const tilesat_map *m, int cell, char *buf,
                             size_t len) {
  int g = propagated_global(m);
  int row = cell / m->width, col = cell % m->width;
  if (g == -1)
    snprintf(buf, len,
             "propagating the rules and pins leaves no tile at (%d,%d)", row,
             col);
  else if (g == -2)
    snprintf(buf, len,
             "propagating the rules, the pins and the global constraints "
             "leaves no tile at (%d,%d)",
             row, col);
  else
    snprintf(buf, len,
             "propagating the rules, the pins and the constraint \"%s\" "
             "(%s) leaves no tile at (%d,%d)",
             m->globals.v[g].text, m->globals.v[g].origin, row, col);
}

void tilesat_check_answer_text(const tilesat_map *m,
                               const tilesat_check_answer *a, char *buf,
                               size_t len) {
  if (!m || !a || !buf)
    ts_misuse(__func__, "NULL argument");
  char rows[64], cols[64];
  switch (a->by) {
  case TILESAT_BY_WINDOW:
    span_text(rows, sizeof rows, "row", a->row0, a->rows, m->height);
    span_text(cols, sizeof cols, "column", a->col0, a->cols, m->width);
    snprintf(buf, len, "no filling of the %dx%d window at %s, %s", a->cols,
             a->rows, rows, cols);
    break;
  case TILESAT_BY_PROPAGATION:
    propagation_text(m, a->cell, buf, len);
    break;
  case TILESAT_BY_COLLAPSE:
    snprintf(buf, len,
             "a guarded collapse (%ld choices banned, %ld blocks repaired)",
             a->banned, a->repairs);
    break;
  default:
    snprintf(buf, len, "the whole map's CNF");
  }
}
