/* advice.c: what to change so that fewer of WFC's runs fail (collapse -n
 * RUNS --explain, tilesat_advise).
 *
 * The advisor keeps the doomed set of every failed run it is given and
 * counts, as the report's summary does, the tiles and neighbouring pairs
 * of tiles found in them, and how often on the map's border.  The top few
 * are the suspects.  The changes tried, a bounded number:
 *   - allow a pair: the doomed sets of the first few failed runs, each
 *     pinned on the map, go to repair (tilesat_repair, the fewest pairs to
 *     allow so that a map completes them); the pairs that repair one alone,
 *     the most frequent first;
 *   - lower the weight of a suspect's tile to a quarter;
 *   - wrap the map (periodic), when it does not;
 *   - one tile on every border cell (bans, as --border all=TILE makes),
 *     for the heaviest tiles allowed next to themselves every way.
 * Each is measured by running the same seeds again with it, as they were
 * run (heuristic, guard); the map as it is is run again too, so the rates
 * compared are the library's own.  A suspect's advice is the change that
 * involves it (its tiles; wrap and border when it lay on the border in at
 * least half its runs) with the fewest failures, when fewer than now. */
#include "gen/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_TILES 3     /* suspects: the most frequent tiles ... */
#define TOP_PAIRS 3     /* ... and pairs */
#define MIN_RUNS 2      /* a suspect dooms more than one run */
#define REPAIRED 8      /* doomed sets given to repair */
#define REPAIRS 1       /* minimal repairs asked of each */
#define ALLOWS 4        /* pairs to allow, tried */
#define WEIGHTS 6       /* weights to lower, tried */
#define BORDERS 2       /* border tiles, tried */
#define WEIGHT_DIV 4u   /* a weight lowered to a quarter */
#define WINDOW_MARGIN 2 /* cells around a doomed set, repaired in a window */

struct tilesat_advisor {
  const tilesat_map *m;
  int T, D;
  long explained, nomap;
  TS_VEC(ts_pin) doomed; /* the doomed sets, one after the other */
  ts_ints start;         /* doomed set k: doomed[start[k] .. start[k + 1]) */
  long *tile_runs, *tile_border; /* [tile] */
  long *pair_runs, *pair_border; /* [a][dir][b]: b in direction dir of a */
  uint8_t *seen;                 /* scratch: [T + T*D*T] */
  tilesat_advice_suspect sus[TOP_TILES + TOP_PAIRS];
  TS_VEC(tilesat_advice_change) ch;
  tilesat_advice adv;
};

tilesat_advisor *tilesat_advisor_new(const tilesat_map *m) {
  tilesat_advisor *a = ts_calloc(1, sizeof *a);
  a->m = m;
  a->T = m->rules->ntiles;
  a->D = m->rules->ndirs;
  size_t T = (size_t)a->T, pairs = T * (size_t)a->D * T;
  a->tile_runs = ts_calloc(T, sizeof *a->tile_runs);
  a->tile_border = ts_calloc(T, sizeof *a->tile_border);
  a->pair_runs = ts_calloc(pairs, sizeof *a->pair_runs);
  a->pair_border = ts_calloc(pairs, sizeof *a->pair_border);
  a->seen = ts_calloc(T + pairs, 1);
  TS_PUSH(a->start, 0);
  return a;
}

void tilesat_advisor_free(tilesat_advisor *a) {
  if (!a)
    return;
  free(a->doomed.v);
  free(a->start.v);
  free(a->tile_runs);
  free(a->tile_border);
  free(a->pair_runs);
  free(a->pair_border);
  free(a->seen);
  free(a->ch.v);
  free(a);
}

static bool on_border(const tilesat_map *m, int cell) {
  int r = cell / m->width, c = cell % m->width;
  return !m->periodic &&
         (r == 0 || c == 0 || r == m->height - 1 || c == m->width - 1);
}

/* Count once per run: bit 1 seen, bit 2 seen on the border. */
static void count(uint8_t *seen, long *runs, long *border, bool edge) {
  if (!(*seen & 1)) {
    *seen |= 1;
    ++*runs;
  }
  if (edge && !(*seen & 2)) {
    *seen |= 2;
    ++*border;
  }
}

void tilesat_advisor_add(tilesat_advisor *a, const tilesat_collapse *c) {
  const tilesat_map *m = a->m;
  a->explained++;
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  if (ci.no_return < 0) {
    a->nomap++;
    return;
  }
  const size_t *d = ci.doomed;
  size_t n = ci.ndoomed;
  size_t T = (size_t)a->T, D = (size_t)a->D;
  memset(a->seen, 0, T + T * D * T);
  uint8_t *pair_seen = a->seen + T;
  size_t first = a->doomed.n;
  for (size_t i = 0; i < n; i++) {
    ts_pin p;
    tilesat_collapse_choices(c, d[i], &p.cell, &p.tile);
    TS_PUSH(a->doomed, p);
    count(&a->seen[p.tile], &a->tile_runs[p.tile], &a->tile_border[p.tile],
          on_border(m, p.cell));
  }
  for (size_t i = first; i < a->doomed.n; i++)
    for (size_t j = first; j < a->doomed.n; j++) {
      ts_pin p = a->doomed.v[i], q = a->doomed.v[j];
      for (int dir = 0; dir < a->D; dir++) {
        if (ts_map_neighbor(m, p.cell, dir) != q.cell)
          continue;
        /* each unordered pair once: from the lower tile (or direction) */
        int odir = tilesat_dir_opposite(m->topo, dir);
        if (p.tile > q.tile || (p.tile == q.tile && dir > odir))
          continue;
        size_t key = ((size_t)p.tile * D + (size_t)dir) * T + (size_t)q.tile;
        count(&pair_seen[key], &a->pair_runs[key], &a->pair_border[key],
              on_border(m, p.cell) || on_border(m, q.cell));
      }
    }
  TS_PUSH(a->start, (int)a->doomed.n);
}

/* ------------------------------------------------------------ suspects */

/* The indexes of the top `most` nonzero entries of v[0..n), largest first
 * (ties by index); returns how many. */
static size_t top(const long *v, size_t n, size_t *idx, size_t most) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!v[i] || (k == most && v[idx[k - 1]] >= v[i]))
      continue;
    size_t j = k < most ? k++ : most - 1;
    for (; j > 0 && v[idx[j - 1]] < v[i]; j--)
      idx[j] = idx[j - 1];
    idx[j] = i;
  }
  return k;
}

/* The top tiles and pairs found in more than one doomed set, the most
 * frequent first (a tile before a pair as frequent). */
static void find_suspects(tilesat_advisor *a) {
  size_t ti[TOP_TILES], pi[TOP_PAIRS], T = (size_t)a->T, D = (size_t)a->D;
  size_t nt = top(a->tile_runs, T, ti, TOP_TILES);
  size_t np = top(a->pair_runs, T * D * T, pi, TOP_PAIRS);
  while (nt && a->tile_runs[ti[nt - 1]] < MIN_RUNS)
    nt--;
  while (np && a->pair_runs[pi[np - 1]] < MIN_RUNS)
    np--;
  size_t i = 0, j = 0, n = 0;
  while (i < nt || j < np) {
    tilesat_advice_suspect s = {.a = -1, .dir = -1, .b = -1, .best = -1};
    if (j == np || (i < nt && a->tile_runs[ti[i]] >= a->pair_runs[pi[j]])) {
      s.a = (int)ti[i];
      s.runs = a->tile_runs[ti[i]];
      s.border = a->tile_border[ti[i]];
      i++;
    } else {
      size_t key = pi[j++];
      s.a = (int)(key / T / D);
      s.dir = (int)(key / T % D);
      s.b = (int)(key % T);
      s.runs = a->pair_runs[key];
      s.border = a->pair_border[key];
    }
    a->sus[n++] = s;
  }
  a->adv.suspects = a->sus;
  a->adv.nsuspects = n;
}

/* ------------------------------------------------------------- changes */

static tilesat_advice_change change(tilesat_advice_kind kind, int t) {
  tilesat_advice_change c = {.kind = kind, .a = t, .dir = -1, .b = -1};
  return c;
}

typedef TS_VEC(tilesat_advice_change) changes;

/* A window of the map around doomed set k (its cells' bounding box and a
 * margin), when the map does not wrap and the window is not all of it. */
static bool window_of(const tilesat_advisor *a, size_t k, ts_window *w) {
  const tilesat_map *m = a->m;
  if (m->periodic)
    return false;
  int r0 = m->height, r1 = -1, c0 = m->width, c1 = -1;
  for (int i = a->start.v[k]; i < a->start.v[k + 1]; i++) {
    int r = a->doomed.v[i].cell / m->width, c = a->doomed.v[i].cell % m->width;
    r0 = r < r0 ? r : r0;
    r1 = r > r1 ? r : r1;
    c0 = c < c0 ? c : c0;
    c1 = c > c1 ? c : c1;
  }
  int half = (r1 - r0 > c1 - c0 ? r1 - r0 : c1 - c0) / 2 + 1;
  int centre = (r0 + r1) / 2 * m->width + (c0 + c1) / 2;
  if (!ts_window_at(m, centre, half + WINDOW_MARGIN, w))
    return false;
  for (int i = a->start.v[k]; i < a->start.v[k + 1]; i++)
    if (ts_window_cell(m, w, a->doomed.v[i].cell) < 0) {
      ts_window_free(w);
      return false;
    }
  return true;
}

/* Repair doomed set k pinned on the window w (its pins and bans; global
 * constraints left out: a relaxation), or on the whole map when w is
 * NULL, as tilesat_repair; the pairs that repair it alone counted in
 * found. */
static int repair_set(const tilesat_advisor *a, const ts_window *w, size_t k,
                      const tilesat_solve_options *so, changes *found,
                      tilesat_error *err) {
  const tilesat_map *m = a->m, *base = w ? &w->m : m;
  tilesat_map mm = *base; /* shallow: its arrays are base's, not freed */
  size_t from = (size_t)a->start.v[k], to = (size_t)a->start.v[k + 1];
  ts_pin *pins = ts_malloc((base->pins.n + to - from) * sizeof *pins);
  if (base->pins.n) /* none: NULL */
    memcpy(pins, base->pins.v, base->pins.n * sizeof *pins);
  for (size_t i = from; i < to; i++) {
    ts_pin p = a->doomed.v[i];
    p.cell = w ? ts_window_cell(m, w, p.cell) : p.cell;
    pins[base->pins.n + i - from] = p;
  }
  mm.pins.v = pins;
  mm.pins.n = mm.pins.cap = base->pins.n + to - from;
  tilesat_repairs *rep = NULL;
  int res = tilesat_repair(&mm, so, false, REPAIRS, &rep, err);
  tilesat_repairs_info ri = {0};
  if (res == TILESAT_UNSAT)
    tilesat_repairs_get(rep, &ri);
  for (size_t i = 0; i < ri.count; i++) {
    if (tilesat_repair_size(rep, i) != 1)
      continue;
    const tilesat_change *ch = tilesat_repair_change(rep, i, 0);
    size_t f = 0;
    while (f < found->n &&
           !(found->v[f].a == ch->a && found->v[f].dir == ch->dir &&
             found->v[f].b == ch->b))
      f++;
    if (f == found->n) {
      tilesat_advice_change c = change(TILESAT_ADVICE_ALLOW, ch->a);
      c.dir = ch->dir;
      c.b = ch->b;
      TS_PUSH(*found, c);
    }
    found->v[f].repairs++;
  }
  tilesat_repairs_free(rep);
  free(pins);
  return res;
}

/* Pairs that repair a doomed set alone, counted over the first REPAIRED
 * doomed sets; the ALLOWS most frequent become changes. */
static int allow_changes(tilesat_advisor *a, const tilesat_solve_options *so,
                         tilesat_error *err) {
  changes found = {0};
  size_t sets = a->start.n - 1;
  for (size_t k = 0; k < sets && k < REPAIRED; k++) {
    if (so->progress) {
      char line[96];
      snprintf(line, sizeof line, "advice: repairing doomed set %zu of %zu",
               k + 1, sets < REPAIRED ? sets : REPAIRED);
      so->progress(so->progress_user, line);
    }
    ts_window w;
    bool win = window_of(a, k, &w);
    int res = repair_set(a, win ? &w : NULL, k, so, &found, err);
    if (win)
      ts_window_free(&w);
    if (win && res == TILESAT_SAT) /* the window does not see the doom */
      res = repair_set(a, NULL, k, so, &found, err);
    if (res < 0) {
      free(found.v);
      return -1;
    }
  }
  for (int k = 0; k < ALLOWS; k++) { /* the most frequent, in order found */
    size_t best = found.n;
    for (size_t f = 0; f < found.n; f++)
      if (found.v[f].repairs &&
          (best == found.n || found.v[f].repairs > found.v[best].repairs))
        best = f;
    if (best == found.n)
      break;
    TS_PUSH(a->ch, found.v[best]);
    found.v[best].repairs = 0;
  }
  free(found.v);
  return 0;
}

static bool has_change(const tilesat_advisor *a, tilesat_advice_kind kind,
                       int t) {
  for (size_t i = 0; i < a->ch.n; i++)
    if (a->ch.v[i].kind == kind && a->ch.v[i].a == t)
      return true;
  return false;
}

/* Can every weight but t's be multiplied by WEIGHT_DIV? */
static bool others_fit(const tilesat_rules *r, int t) {
  for (int u = 0; u < r->ntiles; u++)
    if (u != t && r->weight[u] > UINT64_MAX / WEIGHT_DIV)
      return false;
  return true;
}

static void weight_changes(tilesat_advisor *a) {
  size_t before = a->ch.n;
  for (size_t s = 0; s < a->adv.nsuspects; s++)
    for (int k = 0; k < 2; k++) {
      int t = k ? a->sus[s].b : a->sus[s].a;
      if (t < 0 || has_change(a, TILESAT_ADVICE_WEIGHT, t) ||
          a->ch.n - before == WEIGHTS || a->T < 2)
        continue;
      uint64_t w = a->m->rules->weight[t];
      if (!w)
        continue;
      tilesat_advice_change c = change(TILESAT_ADVICE_WEIGHT, t);
      c.from = w;
      c.to = w >= WEIGHT_DIV ? w / WEIGHT_DIV : 1;
      c.others = w == 1 ? WEIGHT_DIV : 1;
      if (c.others > 1 && !others_fit(a->m->rules, t))
        continue;
      TS_PUSH(a->ch, c);
    }
}

static bool has_border(const tilesat_map *m) {
  for (size_t i = 0; i < m->globals.n; i++)
    if (m->globals.v[i].kind == TILESAT_GLOBAL_BORDER)
      return true;
  return false;
}

static void map_changes(tilesat_advisor *a) {
  const tilesat_map *m = a->m;
  if (m->periodic || has_border(m))
    return;
  if (m->topo != TILESAT_HEX || m->height % 2 == 0)
    TS_PUSH(a->ch, change(TILESAT_ADVICE_WRAP, -1));
  /* the heaviest tiles allowed next to themselves every way */
  for (int k = 0; k < BORDERS; k++) {
    int best = -1;
    for (int t = 0; t < a->T; t++) {
      bool self = true;
      for (int d = 0; d < a->D; d++)
        self &= tilesat_rules_allows(m->rules, t, d, t);
      if (self && !has_change(a, TILESAT_ADVICE_BORDER, t) &&
          (best < 0 || m->rules->weight[t] > m->rules->weight[best]))
        best = t;
    }
    if (best >= 0)
      TS_PUSH(a->ch, change(TILESAT_ADVICE_BORDER, best));
  }
}

/* ------------------------------------------------------------ measures */

/* The runs of seeds o->seed.. on m that made no map: *fails, or -1. */
static int failures(const tilesat_map *m, const tilesat_collapse_options *o,
                    long runs, const char *what, long *fails,
                    tilesat_error *err) {
  tilesat_collapse *c = tilesat_collapse_new(m, err);
  if (!c)
    return -1;
  tilesat_collapse_options oo = *o;
  int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
  int rc = 0;
  *fails = 0;
  for (long k = 0; k < runs && !rc; k++) {
    const tilesat_solve_options *so = &o->solve;
    if (so->terminate && so->terminate(so->terminate_user)) {
      ts_error(err, NULL, 0, "collapse: interrupted");
      rc = -1;
      break;
    }
    if (so->progress) {
      char line[160];
      snprintf(line, sizeof line, "advice: %s, run %ld of %ld", what, k + 1,
               runs);
      so->progress(so->progress_user, line);
    }
    oo.seed = o->seed + (uint64_t)k;
    int res = tilesat_collapse_run(c, &oo, tiles, err);
    if (res < 0)
      rc = -1;
    else if (res != TILESAT_SAT)
      ++*fails;
  }
  free(tiles);
  tilesat_collapse_free(c);
  return rc;
}

/* The map with change ch: its failures. */
static int measure(tilesat_advisor *a, tilesat_advice_change *ch,
                   const tilesat_collapse_options *o, long runs, size_t i,
                   tilesat_error *err) {
  const tilesat_map *m = a->m;
  tilesat_map mm = *m; /* shallow: its arrays are m's, not freed */
  tilesat_rules *r = NULL;
  ts_pin *bans = NULL;
  if (ch->kind == TILESAT_ADVICE_ALLOW || ch->kind == TILESAT_ADVICE_WEIGHT) {
    r = ts_rules_copy(m->rules);
    if (ch->kind == TILESAT_ADVICE_WEIGHT) {
      for (int t = 0; t < a->T; t++)
        r->weight[t] = t == ch->a ? ch->to : r->weight[t] * ch->others;
    } else {
      ts_rules_allow(r, ch->a, ch->dir, ch->b);
      ts_rules_allow(r, ch->b, tilesat_dir_opposite(m->topo, ch->dir), ch->a);
    }
    mm.rules = r;
  } else if (ch->kind == TILESAT_ADVICE_WRAP) {
    mm.periodic = true;
  } else { /* every other tile banned on the border */
    size_t n = m->bans.n, edge = 2 * (size_t)(m->width + m->height);
    bans = ts_malloc((n + edge * (size_t)a->T) * sizeof *bans);
    if (n) /* none: NULL */
      memcpy(bans, m->bans.v, n * sizeof *bans);
    for (int cell = 0; cell < m->ncells; cell++)
      for (int t = 0; on_border(m, cell) && !ts_masked(m, cell) && t < a->T;
           t++)
        if (t != ch->a)
          bans[n++] = (ts_pin){cell, t};
    mm.bans.v = bans;
    mm.bans.n = mm.bans.cap = n;
  }
  char what[96];
  snprintf(what, sizeof what, "running the seeds with change %zu of %zu", i + 1,
           a->ch.n);
  int rc = failures(&mm, o, runs, what, &ch->failures, err);
  tilesat_rules_free(r);
  free(bans);
  return rc;
}

/* Does change ch touch suspect s? */
static bool relevant(const tilesat_advice_suspect *s,
                     const tilesat_advice_change *ch) {
  if (ch->kind == TILESAT_ADVICE_WRAP || ch->kind == TILESAT_ADVICE_BORDER)
    return 2 * s->border >= s->runs;
  bool a = ch->a == s->a || ch->a == s->b;
  bool b = ch->b >= 0 && (ch->b == s->a || ch->b == s->b);
  return a || b;
}

int tilesat_advise(tilesat_advisor *a, const tilesat_collapse_options *o,
                   long runs, const tilesat_advice **out, tilesat_error *err) {
  tilesat_advice *v = &a->adv;
  memset(v, 0, sizeof *v);
  a->ch.n = 0;
  v->first_seed = o->seed;
  v->runs = runs;
  v->explained = a->explained;
  v->no_map = a->nomap;
  v->best = -1;
  find_suspects(a);
  if (failures(a->m, o, runs, "running the seeds again", &v->failures, err))
    return -1;
  if (v->failures && a->start.n > 1) {
    if (allow_changes(a, &o->solve, err))
      return -1;
    weight_changes(a);
    map_changes(a);
  }
  for (size_t i = 0; i < a->ch.n; i++)
    if (measure(a, &a->ch.v[i], o, runs, i, err))
      return -1;
  v->changes = a->ch.v;
  v->nchanges = a->ch.n;
  for (size_t i = 0; i < a->ch.n; i++)
    if (a->ch.v[i].failures < v->failures &&
        (v->best < 0 || a->ch.v[i].failures < a->ch.v[v->best].failures))
      v->best = (long)i;
  for (size_t s = 0; s < v->nsuspects; s++)
    for (size_t i = 0; i < a->ch.n; i++) {
      tilesat_advice_suspect *su = &a->sus[s];
      if (relevant(su, &a->ch.v[i]) && a->ch.v[i].failures < v->failures &&
          (su->best < 0 || a->ch.v[i].failures < a->ch.v[su->best].failures))
        su->best = (long)i;
    }
  *out = v;
  return 0;
}
