/* repair.c: what to change so that a map with no valid filling has one
 * (tilesat repair).  Not the annealer's SAT clean-up of a map's
 * violations, which lives in src/gen.
 *
 * A change is one of a set of candidates, each with a selector variable,
 * true when the change is made:
 *   pairs (the default): a pair (a, d, b) the rules do not allow, with its
 *     mirror (b, opposite of d, a), since rules are symmetric: one change;
 *   pins (keep_rules): a pin dropped, its unit clause made (x | s).
 * The map's CNF goes in as the encoder makes it (ts_encode_each), the pin
 * clauses guarded by their selectors.  For pairs, each support clause of
 * tile a toward d gets one more literal r[a,d], with r[a,d] -> OR of the
 * selectors of a's candidates toward d: a tile's support clauses loosen
 * only when one of its new pairs is chosen.  Which new pairs a loosened
 * clause may then use is not encoded up front (a clause per edge and pair
 * of tiles): as cuts.c does for connected regions, each model is read,
 * every neighbouring pair it uses that neither the rules nor a true
 * selector allow gets its clause (-x[c,a] | -x[n,b] | s), and the solver
 * runs again.
 *
 * The smallest set: "at most k selectors" by a totalizer over them
 * (encode.c), k = 0, 1, 2, ...: the first k that is SAT is the minimum.
 * For every minimal repair (minimal correction sets), each one found is
 * blocked with the clause "not all of these", which forbids its supersets
 * too, and the search goes on at the same k until UNSAT, then at k + 1:
 * every set found is then minimal (a smaller repair inside it would have
 * been found first, and its block forbids this one).  Each repair is
 * checked by solving the changed problem anew (the repaired rules written
 * and read back, or the map without the pins): SAT with it, and UNSAT
 * with any one of its changes undone. */
#include "explain/explain.h"
#include "wfc/wfc.h"

#include <stdlib.h>
#include <string.h>

struct tilesat_repairs {
  const tilesat_map *m;
  bool pins;
  TS_VEC(tilesat_change) ch;
  ts_ints start; /* repair i: ch[start[i] .. start[i + 1]) */
  bool complete;
  char found_in[160]; /* the windows it came from ("" the whole map) */
};

/* Candidates beyond this many pairs are refused (a selector each). */
#define MAX_CANDIDATES ((size_t)1 << 24)

typedef struct rsolver {
  const tilesat_map *m;
  const tilesat_solve_options *so;
  ts_solver *s;
  bool pins;
  int T, next;
  int fidx[8];        /* direction -> its index among the forward ones, or -1 */
  int *sel;           /* candidate -> selector (0: an allowed pair) */
  int *rel;           /* pairs: tile * ndirs + d -> r[a,d] (0: no candidate) */
  ts_ints soft, cand; /* the selectors and the candidate of each */
  int bound, *out;    /* the totalizer's outputs */
  ts_cuts *cuts;
  int *tiles;
  ts_ints buf, pend; /* pend: clauses found in a model, to add */
  long solves;
  ts_ints *found; /* the changes of the repair being read */
} rsolver;

/* The candidate of pair (a, d, b): seen from a forward direction. */
static size_t pair_index(const rsolver *x, int a, int d, int b) {
  if (x->fidx[d] < 0) {
    int t = a;
    a = b;
    b = t;
    d = tilesat_dir_opposite(x->m->topo, d);
  }
  return ((size_t)x->fidx[d] * (size_t)x->T + (size_t)a) * (size_t)x->T +
         (size_t)b;
}

static size_t ncandidates(const tilesat_map *m) {
  int fwd[TS_MAX_FORWARD];
  size_t T = (size_t)m->rules->ntiles;
  return (size_t)ts_forward_dirs(m->topo, fwd) * T * T;
}

static void add_clause(rsolver *x, const int *lits, size_t n) {
  ts_solver_add_clause(x->s, lits, n);
}

static void rs_clause(void *user, int g, const int *lits, size_t n) {
  rsolver *x = user;
  const tilesat_map *m = x->m;
  int cell, k;
  ts_group_kind kind = ts_group_decode(m, g, &cell, &k);
  x->buf.n = 0;
  for (size_t i = 0; i < n; i++)
    TS_PUSH(x->buf, lits[i]);
  if (x->pins && kind == TS_GROUP_PIN) {
    TS_PUSH(x->buf, x->sel[k]);
  } else if (!x->pins && kind == TS_GROUP_ADJ) {
    /* the support clause -x[c,a] | ...: of a at c toward d */
    int v = -lits[0] - 1, c = v / x->T, a = v % x->T;
    int back = tilesat_dir_opposite(m->topo, k);
    bool self = ts_map_neighbor(m, cell, k) == cell; /* 1-wide, wrapped */
    int d = c == cell ? k : back;
    int r[2] = {x->rel[a * m->rules->ndirs + d],
                self ? x->rel[a * m->rules->ndirs + back] : 0};
    for (int i = 0; i < 2; i++)
      if (r[i])
        TS_PUSH(x->buf, r[i]);
  }
  add_clause(x, x->buf.v, x->buf.n);
}

static bool rs_value(void *user, int v) {
  rsolver *x = user;
  return ts_solver_value(x->s, v);
}

static void rs_cut(void *user, int g, const int *lits, size_t n) {
  (void)g;
  add_clause(user, lits, n);
}

static void new_soft(rsolver *x, size_t cand) {
  x->sel[cand] = ++x->next;
  TS_PUSH(x->soft, x->next);
  TS_PUSH(x->cand, (int)cand);
}

static void rs_init(rsolver *x, const tilesat_map *m,
                    const tilesat_solve_options *so, bool pins) {
  memset(x, 0, sizeof *x);
  const tilesat_rules *r = m->rules;
  x->m = m;
  x->so = so;
  x->pins = pins;
  x->T = r->ntiles;
  x->s = ts_solver_new(m, so);
  x->next = ts_encode_nvars(m);
  x->cuts = ts_cuts_new(m);
  x->tiles = ts_malloc((size_t)m->ncells * sizeof *x->tiles);
  int fwd[TS_MAX_FORWARD], nf = ts_forward_dirs(m->topo, fwd);
  for (int d = 0; d < 8; d++)
    x->fidx[d] = -1;
  for (int i = 0; i < nf; i++)
    x->fidx[fwd[i]] = i;
  if (pins) {
    x->sel = ts_calloc(m->pins.n + 1, sizeof *x->sel);
    for (size_t i = 0; i < m->pins.n; i++)
      new_soft(x, i);
  } else {
    x->sel = ts_calloc(ncandidates(m), sizeof *x->sel);
    for (int i = 0; i < nf; i++)
      for (int a = 0; a < x->T; a++)
        for (int b = 0; b < x->T; b++)
          if (!ts_bit(ts_allowed(r, a, fwd[i]), b))
            new_soft(x, pair_index(x, a, fwd[i], b));
    /* r[a,d] -> OR of the selectors of a's candidates toward d */
    x->rel = ts_calloc((size_t)x->T * (size_t)r->ndirs, sizeof *x->rel);
    for (int a = 0; a < x->T; a++)
      for (int d = 0; d < r->ndirs; d++) {
        x->buf.n = 0;
        TS_PUSH(x->buf, 0);
        for (int b = 0; b < x->T; b++)
          if (!ts_bit(ts_allowed(r, a, d), b))
            TS_PUSH(x->buf, x->sel[pair_index(x, a, d, b)]);
        if (x->buf.n == 1)
          continue;
        x->rel[a * r->ndirs + d] = ++x->next;
        x->buf.v[0] = -x->next;
        add_clause(x, x->buf.v, x->buf.n);
      }
  }
  ts_encode_each(m, rs_clause, x);
}

static void rs_free(rsolver *x) {
  ts_solver_free(x->s);
  ts_cuts_free(x->cuts);
  free(x->sel);
  free(x->rel);
  free(x->soft.v);
  free(x->cand.v);
  free(x->out);
  free(x->tiles);
  free(x->buf.v);
  free(x->pend.v);
}

/* The model's map into x->tiles (-1: a masked cell). */
static void read_tiles(rsolver *x) {
  const tilesat_map *m = x->m;
  for (int c = 0; c < m->ncells; c++) {
    x->tiles[c] = -1;
    for (int t = 0; t < x->T && x->tiles[c] < 0; t++)
      if (ts_solver_value(x->s, ts_var(m, c, t)))
        x->tiles[c] = t;
  }
}

/* Calls fn(x, cell, d, n, candidate) for each pair the model's map uses
 * that the rules do not allow (tiles read). */
static void each_new_pair(rsolver *x,
                          void (*fn)(rsolver *, int, int, int, size_t)) {
  const tilesat_map *m = x->m;
  for (int c = 0; c < m->ncells; c++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int n = ts_map_neighbor(m, c, d);
      if (n < 0 || x->fidx[d] < 0 || x->tiles[c] < 0 || x->tiles[n] < 0 ||
          ts_bit(ts_allowed(m->rules, x->tiles[c], d), x->tiles[n]))
        continue;
      fn(x, c, d, n, pair_index(x, x->tiles[c], d, x->tiles[n]));
    }
}

/* The clause of a new pair the model uses without its selector: kept in
 * x->pend (the model is read whole before the solver changes). */
static void forbid_unasked(rsolver *x, int c, int d, int n, size_t p) {
  (void)d;
  int s = x->sel[p];
  if (ts_solver_value(x->s, s))
    return;
  TS_PUSH(x->pend, -ts_var(x->m, c, x->tiles[c]));
  TS_PUSH(x->pend, -ts_var(x->m, n, x->tiles[n]));
  TS_PUSH(x->pend, s);
}

/* "At most k" has an output (bound > k). */
static void ensure_bound(rsolver *x, int k) {
  int n = (int)x->soft.n;
  if (x->bound > k)
    return;
  int b = x->bound * 2 > k + 1 ? x->bound * 2 : k + 1;
  x->bound = b < n ? b : n;
  free(x->out);
  x->out = ts_malloc((size_t)x->bound * sizeof *x->out);
  ts_totalizer_up(x->soft.v, n, x->bound, &x->next, rs_cut, x, x->out);
}

/* Solve with at most k selectors true (k < 0: any), until the model keeps
 * the pairs and the connected and path constraints. */
static int rs_solve(rsolver *x, int k) {
  for (;;) {
    if (k >= 0 && k < (int)x->soft.n) {
      ensure_bound(x, k);
      ts_solver_assume(x->s, -x->out[k]);
    }
    int res = ts_solver_solve(x->s);
    x->solves++;
    if (res != TILESAT_SAT)
      return res;
    if (!x->pins) {
      read_tiles(x);
      x->pend.n = 0;
      each_new_pair(x, forbid_unasked);
      for (size_t i = 0; i < x->pend.n; i += 3)
        add_clause(x, x->pend.v + i, 3);
      if (x->pend.n)
        continue;
    }
    if (!x->cuts || !ts_cuts_find(x->cuts, rs_value, x, NULL, rs_cut, x))
      return res;
  }
}

/* ------------------------------------------------------ reading a repair */

static void note_pair(rsolver *x, int c, int d, int n, size_t p) {
  (void)c, (void)d, (void)n;
  for (size_t i = 0; i < x->found->n; i++)
    if (x->found->v[i] == (int)p)
      return;
  TS_PUSH(*x->found, (int)p);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The changes the model makes: the new pairs it uses, or the pins it
 * does not keep; sorted. */
static void model_changes(rsolver *x, ts_ints *out) {
  const tilesat_map *m = x->m;
  out->n = 0;
  read_tiles(x);
  if (x->pins) {
    for (size_t i = 0; i < m->pins.n; i++)
      if (x->tiles[m->pins.v[i].cell] != m->pins.v[i].tile)
        TS_PUSH(*out, (int)i);
  } else {
    x->found = out;
    each_new_pair(x, note_pair);
  }
  if (out->n)
    qsort(out->v, out->n, sizeof *out->v, cmp_int);
}

/* Not all of these again (nor any set holding them). */
static void block(rsolver *x, const ts_ints *cands) {
  x->buf.n = 0;
  for (size_t i = 0; i < cands->n; i++)
    TS_PUSH(x->buf, -x->sel[cands->v[i]]);
  add_clause(x, x->buf.v, x->buf.n);
}

static tilesat_change change_of(const tilesat_map *m, bool pins, int cand) {
  tilesat_change c = {-1, -1, -1, -1, -1, -1, -1};
  if (pins) {
    c.pin = cand;
    c.row = m->pins.v[cand].cell / m->width;
    c.col = m->pins.v[cand].cell % m->width;
    c.tile = m->pins.v[cand].tile;
    return c;
  }
  int fwd[TS_MAX_FORWARD], T = m->rules->ntiles;
  ts_forward_dirs(m->topo, fwd);
  c.b = cand % T;
  c.a = cand / T % T;
  c.dir = fwd[cand / T / T];
  return c;
}

/* ------------------------------------------------------------ checking */

/* The map's rules with the repair's pairs allowed, except change `skip`
 * (-1: none). */
static tilesat_rules *rules_with(const tilesat_repairs *rep, size_t i,
                                 int skip) {
  const tilesat_rules *r = rep->m->rules;
  tilesat_rules *c = ts_rules_copy(r);
  for (int j = rep->start.v[i]; j < rep->start.v[i + 1]; j++) {
    const tilesat_change *ch = &rep->ch.v[j];
    if (j - rep->start.v[i] == skip)
      continue;
    ts_rules_allow(c, ch->a, ch->dir, ch->b);
    ts_rules_allow(c, ch->b, tilesat_dir_opposite(r->topo, ch->dir), ch->a);
  }
  return c;
}

/* The repaired rules as a rules file reads them: written and parsed. */
static tilesat_rules *rules_reread(const tilesat_rules *r, tilesat_error *err) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    ts_misuse(__func__, "out of memory");
  tilesat_rules_write(r, f);
  fclose(f);
  tilesat_rules *back = tilesat_rules_parse(text, len, "repaired rules", err);
  free(text);
  return back;
}

/* Solve the map changed by repair i, change `skip` undone (-1: none). */
static int check_changed(const tilesat_repairs *rep, size_t i, int skip,
                         const tilesat_solve_options *so, tilesat_error *err) {
  const tilesat_map *m = rep->m;
  tilesat_map mm = *m; /* shallow: its arrays are m's, not freed */
  tilesat_rules *r = NULL;
  ts_pin *pins = NULL;
  if (rep->pins) {
    pins = ts_malloc((m->pins.n + 1) * sizeof *pins);
    mm.pins.v = pins;
    mm.pins.n = 0;
    for (size_t p = 0; p < m->pins.n; p++) {
      bool dropped = false;
      for (int j = rep->start.v[i]; j < rep->start.v[i + 1]; j++)
        dropped |= rep->ch.v[j].pin == (int)p && j - rep->start.v[i] != skip;
      if (!dropped)
        pins[mm.pins.n++] = m->pins.v[p];
    }
  } else {
    tilesat_rules *w = rules_with(rep, i, skip);
    r = skip < 0 ? rules_reread(w, err) : w;
    if (skip < 0)
      tilesat_rules_free(w);
    if (!r)
      return -1;
    mm.rules = r;
  }
  int res = tilesat_check(&mm, so, NULL, err);
  free(pins);
  tilesat_rules_free(r);
  return res;
}

/* SAT with the repair, UNSAT with any one change undone. */
static int check_repair(const tilesat_repairs *rep, size_t i,
                        const tilesat_solve_options *so, tilesat_error *err) {
  int n = rep->start.v[i + 1] - rep->start.v[i];
  for (int skip = -1; skip < n; skip++) {
    ts_say(so, "checking repair %zu: %d of %d", i + 1, skip + 1, n);
    int res = check_changed(rep, i, skip, so, err);
    if (res < 0)
      return -1;
    if (res != (skip < 0 ? TILESAT_SAT : TILESAT_UNSAT)) {
      ts_error(err, NULL, 0,
               skip < 0 ? "internal error: the repair found does not repair"
                        : "internal error: the repair found is not minimal");
      return -1;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- search */

static int repair_fits(const tilesat_map *m, const tilesat_solve_options *so,
                       bool pins, tilesat_error *err) {
  size_t n = pins ? m->pins.n : ncandidates(m);
  if (!pins && n > MAX_CANDIDATES) {
    ts_error(err, "repair", 0,
             "%d tiles make %zu pairs to consider, more than %zu",
             m->rules->ntiles, n, MAX_CANDIDATES);
    return -1;
  }
  /* the CNF as the solver holds it, selectors, the totalizer's first
   * outputs, per-cell arrays */
  double extra = 64.0 * (double)n + 8.0 * m->ncells;
  return ts_memory_check(m, so, extra, "repair", err);
}

/* The search on the whole map's CNF (or a window's, a map of its own). */
static int repair_search(const tilesat_map *m, const tilesat_solve_options *so,
                         bool keep_rules, int limit, tilesat_repairs **out,
                         tilesat_error *err) {
  *out = NULL;
  if (repair_fits(m, so, keep_rules, err))
    return -1;
  rsolver x;
  rs_init(&x, m, so, keep_rules);
  tilesat_repairs *rep = ts_calloc(1, sizeof *rep);
  rep->m = m;
  rep->pins = keep_rules;
  TS_PUSH(rep->start, 0);
  ts_ints cands = {0};
  ts_say(so, "is the map satisfiable as it is?");
  int res = rs_solve(&x, 0);
  if (res == TILESAT_UNSAT) {
    ts_say(so, "is there any repair?");
    int any = rs_solve(&x, -1);
    res = any == TILESAT_UNKNOWN ? any : TILESAT_UNSAT;
    rep->complete = any == TILESAT_UNSAT;
  }
  int count = 0;
  for (int k = 1; res == TILESAT_UNSAT && !rep->complete &&
                  k <= (int)x.soft.n && count < limit;
       k++) {
    for (;;) {
      ts_say(so, "%d found, looking for %d change%s", count, k,
             k > 1 ? "s" : "");
      int r = rs_solve(&x, k);
      if (r == TILESAT_UNKNOWN)
        res = r;
      if (r != TILESAT_SAT)
        break;
      model_changes(&x, &cands);
      block(&x, &cands);
      for (size_t i = 0; i < cands.n; i++)
        TS_PUSH(rep->ch, change_of(m, keep_rules, cands.v[i]));
      TS_PUSH(rep->start, (int)rep->ch.n);
      if (check_repair(rep, (size_t)count, so, err) < 0) {
        res = -1;
        break;
      }
      if (++count == limit)
        break;
    }
    /* --all: are there repairs left, of any size? */
    if (res == TILESAT_UNSAT && count < limit && limit > 1) {
      int any = rs_solve(&x, -1);
      if (any == TILESAT_UNKNOWN)
        res = any;
      rep->complete = any == TILESAT_UNSAT;
    }
  }
  if (res == TILESAT_UNKNOWN)
    res = ts_no_answer(so, "repair", err);
  free(cands.v);
  rs_free(&x);
  if (res == TILESAT_UNSAT)
    *out = rep;
  else
    tilesat_repairs_free(rep);
  return res;
}

/* ------------------------------------------------- pins, from a window */

/* As check's first stage (portfolio.c): windows around the pins, radius
 * 2, 4, 8, 16 while a window is at most a quarter of the map, each solved
 * within this many conflicts. */
#define WINDOW_CONFLICTS 1000
#define WINDOW_SIDE 33

/* Does the window have no filling (within WINDOW_CONFLICTS)? */
static bool window_refuted(const ts_window *w,
                           const tilesat_solve_options *so) {
  return ts_window_solve(w, so, WINDOW_CONFLICTS) == TILESAT_UNSAT;
}

/* The first window around a pin of m with no filling: true with w. */
static bool clash_window(const tilesat_map *m, const tilesat_solve_options *so,
                         ts_window *w) {
  for (int r = 2;
       2 * r + 1 <= WINDOW_SIDE && (2 * r + 1) * (2 * r + 1) <= m->ncells / 4 &&
       !ts_terminated(so);
       r *= 2) {
    ts_say(so, "windows of %dx%d around the pins", 2 * r + 1, 2 * r + 1);
    for (size_t i = 0; i < m->pins.n && !ts_terminated(so); i++) {
      bool near = false; /* at most r/2 from a pin tried at this radius */
      int ci = m->pins.v[i].cell;
      for (size_t j = 0; j < i && !near; j++) {
        int cj = m->pins.v[j].cell;
        near = abs(ci / m->width - cj / m->width) <= r / 2 &&
               abs(ci % m->width - cj % m->width) <= r / 2;
      }
      if (near || !ts_window_at(m, ci, r, w))
        continue;
      if (window_refuted(w, so))
        return true;
      ts_window_free(w);
    }
  }
  return false;
}

/* The route through windows, for the fewest pins to drop: the map's
 * state along it. */
typedef struct by_windows {
  const tilesat_map *m, *lm; /* lm: m with its borders as bans */
  char *dropped;             /* pin -> dropped */
  char *seen;                /* pin -> inside an earlier window */
  ts_ints drop;              /* the pins dropped, in the order found */
  int windows;
  int row0, col0, rows, cols; /* the first window */
} by_windows;

/* lm without the pins dropped (a shallow copy: its pins in *pins). */
static tilesat_map without_dropped(const by_windows *b, const tilesat_map *m,
                                   ts_pin **pins) {
  tilesat_map mm = *m;
  *pins = ts_malloc((m->pins.n + 1) * sizeof **pins);
  mm.pins.v = *pins;
  mm.pins.n = 0;
  for (size_t p = 0; p < m->pins.n; p++)
    if (!b->dropped[p])
      (*pins)[mm.pins.n++] = m->pins.v[p];
  return mm;
}

/* The map pin that window pin k is (same cell, same tile), or -1. */
static int map_pin(const by_windows *b, const ts_window *w, int k) {
  const ts_pin *wp = &w->m.pins.v[k];
  int cell = ts_window_map_cell(b->m, w, wp->cell);
  for (size_t p = 0; p < b->m->pins.n; p++)
    if (b->m->pins.v[p].cell == cell && b->m->pins.v[p].tile == wp->tile &&
        !b->dropped[p])
      return (int)p;
  return -1;
}

/* One window with no filling: the fewest of its pins to drop (its own
 * repair, checked on it) dropped.  1 done, 0 no conclusive window (the
 * whole map's turn), -1 error. */
static int drop_in_window(by_windows *b, const tilesat_solve_options *so,
                          tilesat_error *err) {
  ts_pin *pins;
  tilesat_map mm = without_dropped(b, b->lm, &pins);
  ts_window w;
  bool found = clash_window(&mm, so, &w);
  free(pins);
  if (!found)
    return ts_terminated(so) ? ts_no_answer(so, "repair", err) : 0;
  tilesat_repairs *wr = NULL;
  int rc = repair_search(&w.m, so, true, 1, &wr, err);
  int out = rc < 0 ? -1 : 0;
  /* the lower bound adds up over windows whose pins are not an earlier
   * window's */
  bool fresh = rc == TILESAT_UNSAT && wr->start.n > 1;
  for (size_t k = 0; fresh && k < w.m.pins.n; k++) {
    int p = map_pin(b, &w, (int)k);
    fresh = p >= 0 && !b->seen[p];
  }
  if (fresh) {
    for (size_t k = 0; k < w.m.pins.n; k++)
      b->seen[map_pin(b, &w, (int)k)] = 1;
    for (size_t j = 0; j < tilesat_repair_size(wr, 0); j++) {
      int p = map_pin(b, &w, tilesat_repair_change(wr, 0, j)->pin);
      b->dropped[p] = 1;
      TS_PUSH(b->drop, p);
    }
    if (!b->windows++) {
      b->row0 = w.y0;
      b->col0 = w.x0;
      b->rows = w.m.height;
      b->cols = w.m.width;
    }
    out = 1;
  }
  tilesat_repairs_free(wr);
  ts_window_free(&w);
  return out;
}

/* check's lines while the map is checked without the pins dropped,
 * saying what is checked (they were silent: repair on Castle 1024x1024
 * said nothing for 12 s after its windows). */
typedef struct dropped_say {
  const tilesat_solve_options *so;
  char what[96];
} dropped_say;

static void say_dropped(void *user, const char *line) {
  const dropped_say *d = user;
  ts_say(d->so, "%s: %s", d->what, line);
}

/* Is m without the pins dropped satisfiable?  check's portfolio: its
 * windows, a guarded collapse, the whole CNF last. */
static int check_dropped(const by_windows *b, const tilesat_solve_options *so,
                         tilesat_error *err) {
  ts_pin *pins;
  tilesat_map mm = without_dropped(b, b->m, &pins);
  tilesat_check_options co;
  tilesat_check_options_init(&co);
  co.solve = *so;
  dropped_say d = {so, ""};
  snprintf(d.what, sizeof d.what, "checking the %dx%d map without %zu pin%s",
           b->m->width, b->m->height, b->drop.n, b->drop.n > 1 ? "s" : "");
  co.solve.progress = so->progress ? say_dropped : NULL;
  co.solve.progress_user = &d;
  int res = tilesat_check_portfolio(&mm, &co, NULL, NULL, err);
  free(pins);
  return res;
}

/* "the 5x5 window at rows 18-22, columns 18-22" (and how many more). */
static void name_windows(const by_windows *b, char *buf, size_t len) {
  const tilesat_map *m = b->m;
  int n =
      snprintf(buf, len, "the %dx%d window at rows %d-%d, columns %d-%d",
               b->cols, b->rows, b->row0, (b->row0 + b->rows - 1) % m->height,
               b->col0, (b->col0 + b->cols - 1) % m->width);
  if (b->windows > 1 && n > 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, " and %d more", b->windows - 1);
}

/* The fewest pins to drop, from the windows where they clash, before the
 * whole map's CNF (which Castle 64x64 with three clashing pins took 6.8 s
 * to build and solve, where a 5x5 window refutes them in 0.01 s).  A
 * window around a pin with no filling; the fewest of its pins that give
 * it one (its own repair, checked on it: with any one of them kept it has
 * none, so neither has the map); the map checked without them; while it
 * still has no filling, the next window, as long as none of its pins was
 * in an earlier window.  Every repair of the map drops at least a
 * window's fewest of the window's pins, and the windows share no pin, so
 * the pins dropped are the fewest.  TILESAT_UNSAT with *out, 0 when the
 * windows do not settle it (the whole map's turn), -1 with err. */
static int repairs_from_windows(const tilesat_map *m,
                                const tilesat_solve_options *so,
                                tilesat_repairs **out, tilesat_error *err) {
  tilesat_map *low = ts_map_lowered(m);
  by_windows b = {.m = m, .lm = low ? low : m};
  b.dropped = ts_calloc(m->pins.n + 1, 1);
  b.seen = ts_calloc(m->pins.n + 1, 1);
  int rc = 0;
  while (b.drop.n < m->pins.n) {
    rc = drop_in_window(&b, so, err);
    if (rc != 1)
      break;
    int res = check_dropped(&b, so, err);
    rc = res == TILESAT_SAT ? TILESAT_UNSAT : res < 0 ? -1 : 0;
    if (res != TILESAT_UNSAT)
      break;
  }
  if (rc == TILESAT_UNSAT) {
    tilesat_repairs *rep = ts_calloc(1, sizeof *rep);
    rep->m = m;
    rep->pins = true;
    TS_PUSH(rep->start, 0);
    if (b.drop.n)
      qsort(b.drop.v, b.drop.n, sizeof *b.drop.v, cmp_int);
    for (size_t i = 0; i < b.drop.n; i++)
      TS_PUSH(rep->ch, change_of(m, true, b.drop.v[i]));
    TS_PUSH(rep->start, (int)rep->ch.n);
    name_windows(&b, rep->found_in, sizeof rep->found_in);
    *out = rep;
  }
  free(b.dropped);
  free(b.seen);
  free(b.drop.v);
  tilesat_map_free(low);
  return rc;
}

int tilesat_repair_pins_by_windows(const tilesat_map *m,
                                   const tilesat_solve_options *options,
                                   tilesat_repairs **out, tilesat_error *err) {
  if (!m || !out)
    ts_misuse(__func__, "NULL map or result");
  tilesat_solve_options so = ts_solve_for(m, options);
  *out = NULL;
  return m->pins.n ? repairs_from_windows(m, &so, out, err) : 0;
}

int tilesat_repair(const tilesat_map *m, const tilesat_solve_options *options,
                   bool keep_rules, int limit, tilesat_repairs **out,
                   tilesat_error *err) {
  if (!m || !out || limit < 1)
    ts_misuse(__func__, "NULL map or result, or a limit below 1");
  tilesat_solve_options so_for_m = ts_solve_for(m, options);
  *out = NULL;
  if (keep_rules && limit == 1 && m->pins.n) {
    int rc = repairs_from_windows(m, &so_for_m, out, err);
    if (rc)
      return rc;
  }
  return repair_search(m, &so_for_m, keep_rules, limit, out, err);
}

int tilesat_repair_rules_alone(const tilesat_map *m,
                               const tilesat_solve_options *so,
                               tilesat_error *err) {
  tilesat_map mm = *m; /* shallow: m's arrays, no pins */
  mm.pins.n = 0;
  tilesat_check_options co;
  tilesat_check_options_init(&co);
  co.solve = ts_solve_for(m, so);
  co.solve.progress = NULL;
  return tilesat_check_portfolio(&mm, &co, NULL, NULL, err);
}

void tilesat_repairs_free(tilesat_repairs *r) {
  if (!r)
    return;
  free(r->ch.v);
  free(r->start.v);
  free(r);
}

void tilesat_repairs_get(const tilesat_repairs *r, tilesat_repairs_info *info) {
  if (!r || !info)
    ts_misuse(__func__, "NULL argument");
  *info = (tilesat_repairs_info){r->start.n - 1, r->complete, r->found_in};
}

static void check_index(const char *func, const tilesat_repairs *r, size_t i) {
  if (i + 1 >= r->start.n)
    ts_misuse(func, "repair index out of range");
}

size_t tilesat_repair_size(const tilesat_repairs *r, size_t i) {
  check_index(__func__, r, i);
  return (size_t)(r->start.v[i + 1] - r->start.v[i]);
}

const tilesat_change *tilesat_repair_change(const tilesat_repairs *r, size_t i,
                                            size_t j) {
  if (j >= tilesat_repair_size(r, i))
    ts_misuse(__func__, "change index out of range");
  return &r->ch.v[(size_t)r->start.v[i] + j];
}

tilesat_rules *tilesat_rules_repaired(const tilesat_repairs *r, size_t i) {
  check_index(__func__, r, i);
  if (r->pins)
    ts_misuse(__func__, "a repair by pins changes no rules");
  return rules_with(r, i, -1);
}
