/* encode.c: a map as CNF.
 *
 * One variable per (cell, tile).  Each cell holds exactly one tile: one
 * at-least-one clause and, for up to TS_PAIRWISE_MAX tiles, pairwise
 * at-most-one clauses; beyond that a ladder (s_i <-> x_1 | ... | x_i) whose
 * auxiliaries are determined by the tile variables, so every valid map is
 * exactly one model.  Adjacency uses support clauses
 *     x[c,t] -> OR { x[n,u] : u may stand in direction d of t }
 * for every cell c, direction d with neighbour n, and tile t, in both
 * directions of every edge: unit propagation on them is arc consistency
 * (Gent 2002), WFC's propagation.  A support clause that every tile
 * satisfies is implied by at-least-one and left out.
 *
 * Every clause carries the id of the human-level constraint it encodes
 * (a cell's one-tile constraint, a pin, an edge), for explanations.  A
 * banned tile (tilesat_map_ban) is a unit clause -x in its cell's
 * constraint: the cell holds exactly one of the tiles left to it. */
#include "sat/sat.h"

#include <stdlib.h>
#include <string.h>

int ts_group_count(const tilesat_map *m) {
  return m->ncells + (int)m->pins.n + m->ncells * m->rules->ndirs +
         (int)m->globals.n;
}

int ts_global_group(const tilesat_map *m, int i) {
  return m->ncells + (int)m->pins.n + m->ncells * m->rules->ndirs + i;
}

int ts_edge_group(const tilesat_map *m, int cell, int d) {
  return m->ncells + (int)m->pins.n + ts_edge_index(m, cell, d);
}

ts_group_kind ts_group_decode(const tilesat_map *m, int group, int *cell,
                              int *dir_or_pin) {
  if (group < m->ncells) {
    *cell = group;
    *dir_or_pin = -1;
    return TS_GROUP_CELL;
  }
  group -= m->ncells;
  if (group < (int)m->pins.n) {
    *cell = m->pins.v[group].cell;
    *dir_or_pin = group;
    return TS_GROUP_PIN;
  }
  group -= (int)m->pins.n;
  if (group >= m->ncells * m->rules->ndirs) {
    *cell = -1;
    *dir_or_pin = group - m->ncells * m->rules->ndirs;
    return TS_GROUP_GLOBAL;
  }
  *cell = group / m->rules->ndirs;
  *dir_or_pin = group % m->rules->ndirs;
  return TS_GROUP_ADJ;
}

/* Where the clauses go: a ts_cnf, a solver, a file, a count. */
typedef struct sink {
  ts_clause_fn fn;
  void *user;
} sink;

static void add(const sink *k, int group, const int *lits, size_t n) {
  k->fn(k->user, group, lits, n);
}

static void add2(const sink *k, int group, int a, int b) {
  int l[2] = {a, b};
  add(k, group, l, 2);
}

static void encode_cell(const tilesat_map *m, const sink *k, int cell,
                        int *buf) {
  int T = m->rules->ntiles;
  if (ts_masked(m, cell)) { /* not part of the map: it holds no tile */
    for (int t = 0; t < T; t++) {
      int l = -ts_var(m, cell, t);
      add(k, cell, &l, 1);
    }
    return;
  }
  for (int t = 0; t < T; t++)
    buf[t] = ts_var(m, cell, t);
  add(k, cell, buf, (size_t)T);
  if (T <= TS_PAIRWISE_MAX) {
    for (int a = 0; a < T; a++)
      for (int b = a + 1; b < T; b++)
        add2(k, cell, -ts_var(m, cell, a), -ts_var(m, cell, b));
    return;
  }
  /* ladder: s_i (i = 1..T-1) <-> x_1 | ... | x_i */
  int base = m->ncells * T + cell * (T - 1); /* s_i = base + i */
  for (int i = 1; i < T; i++) {
    int x = ts_var(m, cell, i - 1), s = base + i;
    add2(k, cell, -x, s);
    if (i == 1) {
      add2(k, cell, -s, x);
    } else {
      int l[3] = {-s, base + i - 1, x};
      add(k, cell, l, 3);
      add2(k, cell, -(base + i - 1), s);
      add2(k, cell, -(base + i - 1), -x);
    }
  }
  add2(k, cell, -(base + T - 1), -ts_var(m, cell, T - 1));
}

/* The variables of the tiles and the at-most-one ladders. */
static int base_nvars(const tilesat_map *m) {
  int T = m->rules->ntiles;
  return m->ncells * T + (T > TS_PAIRWISE_MAX ? m->ncells * (T - 1) : 0);
}

/* ------------------------------------------------------ global constraints
 *
 * A class's cells: y[c] <-> OR { x[c,t] : t in the class } (the tile's
 * own variable when the class is one tile), for the cells the constraint
 * covers.  COUNT: a totalizer (Bailleux and Boufkhad, CP 2003) over the
 * y, truncated at the bound: a node's outputs o_1..o_r say "at least i of
 * its inputs", r = min(inputs, bound); at most k needs only the clauses
 * from inputs to outputs (bound k+1, then -o_{k+1}), at least k only those
 * back (bound k, then o_k).  Of "at most k of y" and "at least n-k of -y"
 * the one with the smaller bound is encoded (so "at least 15 of 16" costs
 * what "at most 1" does); clauses grow as n times the bound.  CONNECTED and
 * PATH: the y, "at least one" (nonempty) and units for the cells that must
 * be in the region; their cuts come as models break them (cuts.c).
 * BORDER: a unit -x[c,t] for each tile outside the class on its cells.
 * Every clause carries the constraint's group; the auxiliary variables come
 * after the tiles' and ladders', constraint by constraint. */

typedef struct genc {
  const tilesat_map *m;
  const sink *k; /* NULL: count the variables only */
  int g;         /* the group */
  int next;      /* the last variable given out */
} genc;

static void gadd(genc *e, const int *lits, size_t n) {
  if (e->k)
    add(e->k, e->g, lits, n);
}

static int imin(int a, int b) { return a < b ? a : b; }

/* The totalizer over lits[0..n) truncated at `bound`: its outputs into
 * out[0..min(n, bound)); clauses from inputs to outputs (up) or back. */
static void totalizer(genc *e, const int *lits, int n, int bound, bool up,
                      int *out) {
  if (n == 1) {
    out[0] = lits[0];
    return;
  }
  int n1 = n / 2, n2 = n - n1;
  int p = imin(n1, bound), q = imin(n2, bound), r = imin(n, bound);
  int *a = ts_malloc((size_t)(p + q) * sizeof *a), *b = a + p;
  totalizer(e, lits, n1, bound, up, a);
  totalizer(e, lits + n1, n2, bound, up, b);
  for (int i = 0; i < r; i++)
    out[i] = ++e->next;
  for (int i = 0; e->k && i <= p; i++)
    for (int j = 0; j <= q; j++) {
      int l[3], len = 0;
      if (up && i + j >= 1 && i + j <= r) { /* a_i & b_j -> o_{i+j} */
        if (i)
          l[len++] = -a[i - 1];
        if (j)
          l[len++] = -b[j - 1];
        l[len++] = out[i + j - 1];
      } else if (!up && i + j + 1 <= r) { /* o_{i+j+1} -> a_{i+1} | b_{j+1} */
        if (i < p)
          l[len++] = a[i];
        if (j < q)
          l[len++] = b[j];
        l[len++] = -out[i + j];
      }
      if (len)
        gadd(e, l, (size_t)len);
    }
  free(a);
}

void ts_totalizer_up(const int *lits, int n, int bound, int *next,
                     ts_clause_fn fn, void *user, int *out) {
  sink k = {fn, user};
  genc e = {NULL, &k, 0, *next};
  totalizer(&e, lits, n, bound, true, out);
  *next = e.next;
}

/* At most k (most) or at least k of lits[0..n). */
static void cardinality(genc *e, int *lits, int n, bool most, int k) {
  if (most ? k >= n : k <= 0)
    return;
  if (!most && k > n) {
    gadd(e, NULL, 0); /* cannot hold: the empty clause */
    return;
  }
  /* at most k of y is at least n-k of -y: the smaller bound wins */
  bool flip = (most ? n - k : n - k + 1) < (most ? k + 1 : k);
  if (flip) {
    for (int i = 0; i < n; i++)
      lits[i] = -lits[i];
    most = !most;
    k = n - k;
  }
  int bound = most ? k + 1 : k;
  int *out = ts_malloc((size_t)imin(n, bound) * sizeof *out);
  totalizer(e, lits, n, bound, most, out);
  int unit = most ? -out[k] : out[k - 1];
  gadd(e, &unit, 1);
  free(out);
  for (int i = 0; flip && i < n; i++) /* the y back as they were */
    lits[i] = -lits[i];
}

/* y of the class at each cell g covers into ylit (0 elsewhere), defined
 * by clauses; returns how many cells it covers. */
static int class_lits(genc *e, const ts_global *g, int *ylit, int *buf) {
  const tilesat_map *m = e->m;
  int n = 0;
  for (int c = 0; c < m->ncells; c++) {
    ylit[c] = 0;
    if (!ts_global_covers(m, g, c))
      continue;
    n++;
    if (g->ntiles == 1) {
      ylit[c] = ts_var(m, c, g->tile);
      continue;
    }
    int y = ylit[c] = ++e->next, len = 0;
    buf[len++] = -y;
    for (int t = 0; t < m->rules->ntiles; t++)
      if (ts_bit(g->class, t)) {
        int l[2] = {-ts_var(m, c, t), y};
        gadd(e, l, 2);
        buf[len++] = ts_var(m, c, t);
      }
    gadd(e, buf, (size_t)len);
  }
  return n;
}

static void encode_global(genc *e, const ts_global *g) {
  const tilesat_map *m = e->m;
  int N = m->ncells, T = m->rules->ntiles;
  int *ylit = ts_malloc((size_t)N * sizeof *ylit);
  int *buf = ts_malloc((size_t)(N > T ? N : T) * sizeof *buf + sizeof *buf);
  if (g->kind == TILESAT_GLOBAL_BORDER) {
    for (int c = 0; c < N; c++)
      for (int t = 0; t < T && ts_global_covers(m, g, c); t++)
        if (!ts_bit(g->class, t)) {
          int l = -ts_var(m, c, t);
          gadd(e, &l, 1);
        }
  } else if (g->kind == TILESAT_GLOBAL_COUNT) {
    class_lits(e, g, ylit, buf);
    int n = 0;
    for (int c = 0; c < N; c++)
      if (ylit[c])
        buf[n++] = ylit[c];
    if (g->cmp != TS_AT_LEAST)
      cardinality(e, buf, n, true, g->k);
    if (g->cmp != TS_AT_MOST)
      cardinality(e, buf, n, false, g->k);
  } else {
    class_lits(e, g, ylit, buf);
    if (g->nonempty)
      gadd(e, ylit, (size_t)N);
    if (g->at >= 0)
      gadd(e, &ylit[g->at], 1);
    for (size_t i = 0; i < g->cells.n; i++)
      gadd(e, &ylit[g->cells.v[i]], 1);
  }
  free(ylit);
  free(buf);
}

/* The auxiliary variables of global i: counted by the encoder itself. */
static int global_nvars(const tilesat_map *m, int i) {
  genc e = {m, NULL, 0, 0};
  encode_global(&e, &m->globals.v[i]);
  return e.next;
}

int ts_global_var0(const tilesat_map *m, int i) {
  int v = base_nvars(m);
  for (int j = 0; j < i; j++)
    v += global_nvars(m, j);
  return v;
}

void ts_global_ylits(const tilesat_map *m, int i, int var0, int *ylit) {
  genc e = {m, NULL, 0, var0};
  int *buf = ts_malloc((size_t)(m->rules->ntiles + 1) * sizeof *buf);
  class_lits(&e, &m->globals.v[i], ylit, buf);
  free(buf);
}

static void encode_globals(const tilesat_map *m, const sink *k) {
  genc e = {m, k, 0, base_nvars(m)};
  for (size_t i = 0; i < m->globals.n; i++) {
    e.g = ts_global_group(m, (int)i);
    encode_global(&e, &m->globals.v[i]);
  }
}

int ts_encode_nvars(const tilesat_map *m) {
  return ts_global_var0(m, (int)m->globals.n);
}

static void measure_clause(void *user, int group, const int *lits, size_t n) {
  (void)group, (void)lits;
  ts_cnf_size *z = user;
  z->nclauses++;
  z->nbinary += n == 2;
  z->nlits += (double)n;
}

void ts_globals_measure(const tilesat_map *m, ts_cnf_size *z) {
  sink k = {measure_clause, z};
  encode_globals(m, &k);
}

/* The map's clauses; with `banned` (a byte per cell and tile, set for the
 * tiles the map's bans take), the adjacency clauses of a banned tile are
 * left out and a banned neighbour's literal too: each is satisfied, or
 * false, by the ban's unit clause, which stays. */
static void encode_map(const tilesat_map *m, const sink *k,
                       const uint8_t *banned) {
  const tilesat_rules *r = m->rules;
  int T = r->ntiles;
  int *buf = ts_malloc((size_t)(T + 1) * sizeof *buf);
  for (int cell = 0; cell < m->ncells; cell++) {
    encode_cell(m, k, cell, buf);
    for (int d = 0; d < r->ndirs; d++) {
      int n = ts_map_neighbor(m, cell, d);
      if (n < 0)
        continue;
      int g = ts_edge_group(m, cell, d);
      const uint8_t *nb = banned ? banned + (size_t)n * (size_t)T : NULL;
      for (int t = 0; t < T; t++) {
        if (banned && banned[(size_t)cell * (size_t)T + (size_t)t])
          continue;
        const uint64_t *allowed = ts_allowed(r, t, d);
        int len = 0;
        buf[len++] = -ts_var(m, cell, t);
        for (int u = 0; u < T; u++)
          if (ts_bit(allowed, u) && !(nb && nb[u]))
            buf[len++] = ts_var(m, n, u);
        if (len <= T) /* not every tile supports t: a real constraint */
          add(k, g, buf, (size_t)len);
      }
    }
  }
  for (size_t i = 0; i < m->pins.n; i++) {
    int lit = ts_var(m, m->pins.v[i].cell, m->pins.v[i].tile);
    add(k, m->ncells + (int)i, &lit, 1);
  }
  /* a ban narrows the cell's one tile: part of that cell's constraint */
  for (size_t i = 0; i < m->bans.n; i++) {
    int lit = -ts_var(m, m->bans.v[i].cell, m->bans.v[i].tile);
    add(k, m->bans.v[i].cell, &lit, 1);
  }
  free(buf);
  encode_globals(m, k);
}

void ts_encode_each(const tilesat_map *m, ts_clause_fn fn, void *user) {
  sink k = {fn, user};
  encode_map(m, &k, NULL);
}

void ts_encode_each_pruned(const tilesat_map *m, ts_clause_fn fn, void *user) {
  sink k = {fn, user};
  uint8_t *banned = NULL;
  if (m->bans.n) {
    size_t T = (size_t)m->rules->ntiles;
    banned = ts_calloc((size_t)m->ncells * T, 1);
    for (size_t i = 0; i < m->bans.n; i++)
      banned[(size_t)m->bans.v[i].cell * T + (size_t)m->bans.v[i].tile] = 1;
  }
  encode_map(m, &k, banned);
  free(banned);
}

static void to_cnf(void *user, int group, const int *lits, size_t n) {
  ts_cnf *cnf = user;
  TS_PUSH(cnf->start, cnf->lits.n);
  TS_PUSH(cnf->group, group);
  for (size_t i = 0; i < n; i++)
    TS_PUSH(cnf->lits, lits[i]);
  TS_PUSH(cnf->lits, 0);
}

void ts_encode(const tilesat_map *m, ts_cnf *cnf) {
  memset(cnf, 0, sizeof *cnf);
  cnf->ntilevars = m->ncells * m->rules->ntiles;
  cnf->nvars = ts_encode_nvars(m);
  ts_encode_each(m, to_cnf, cnf);
}

void ts_cnf_free(ts_cnf *cnf) {
  free(cnf->lits.v);
  free(cnf->start.v);
  free(cnf->group.v);
  memset(cnf, 0, sizeof *cnf);
}

/* ----------------------------------------------------------------- DIMACS */

static void count_clause(void *user, int group, const int *lits, size_t n) {
  (void)group, (void)lits, (void)n;
  ++*(size_t *)user;
}

static void write_clause(void *user, int group, const int *lits, size_t n) {
  (void)group;
  for (size_t i = 0; i < n; i++)
    fprintf(user, "%d ", lits[i]);
  fputs("0\n", user);
}

/* The clauses go straight from the encoder to the file, counted first by a
 * pass that stores nothing: a CNF of any size is written in constant
 * memory. */
int tilesat_encode_dimacs(const tilesat_map *m, FILE *out) {
  if (ts_map_has_lazy(m))
    return -1;
  const tilesat_rules *r = m->rules;
  int T = r->ntiles, nvars = ts_encode_nvars(m), ntilevars = m->ncells * T;
  size_t nclauses = 0;
  ts_encode_each(m, count_clause, &nclauses);
  fprintf(out, "c tilesat map %dx%d topology %s periodic %s\n", m->width,
          m->height, tilesat_topology_name(m->topo),
          m->periodic ? "yes" : "no");
  fprintf(out, "c tiles %d:", T);
  for (int t = 0; t < T; t++) {
    fputc(' ', out);
    ts_write_token(out, r->names.v.v[t]);
  }
  fprintf(out, "\nc pins %zu:", m->pins.n);
  for (size_t i = 0; i < m->pins.n; i++) {
    ts_pin p = m->pins.v[i];
    fprintf(out, " %d,%d=", p.cell / m->width, p.cell % m->width);
    ts_write_token(out, r->names.v.v[p.tile]);
  }
  if (m->bans.n) {
    fprintf(out, "\nc bans %zu:", m->bans.n);
    for (size_t i = 0; i < m->bans.n; i++) {
      ts_pin p = m->bans.v[i];
      fprintf(out, " %d,%d!=", p.cell / m->width, p.cell % m->width);
      ts_write_token(out, r->names.v.v[p.tile]);
    }
  }
  if (m->nmasked) {
    fprintf(out, "\nc masked %d:", m->nmasked);
    for (int c = 0; c < m->ncells; c++)
      if (ts_masked(m, c))
        fprintf(out, " %d,%d", c / m->width, c % m->width);
  }
  fprintf(out, "\nc var VAR ROW COL TILE: VAR is true iff TILE stands at "
               "(ROW, COL)\n");
  for (int cell = 0; cell < m->ncells; cell++)
    for (int t = 0; t < T; t++) {
      fprintf(out, "c var %d %d %d ", ts_var(m, cell, t), cell / m->width,
              cell % m->width);
      ts_write_token(out, r->names.v.v[t]);
      fputc('\n', out);
    }
  int base = base_nvars(m);
  if (base > ntilevars)
    fprintf(out,
            "c aux %d..%d: at-most-one ladder, determined by the tile "
            "variables (cell c has %d of them, from %d + c*%d)\n",
            ntilevars + 1, base, T - 1, ntilevars + 1, T - 1);
  for (int i = 0; i < (int)m->globals.n; i++) {
    int v0 = ts_global_var0(m, i), v1 = ts_global_var0(m, i + 1);
    fprintf(out, "c global %d (%s): %s\n", i + 1, m->globals.v[i].origin,
            m->globals.v[i].text);
    if (v1 > v0)
      fprintf(out,
              "c aux %d..%d: global %d's (the class at each cell it covers, "
              "then its totalizers' outputs)\n",
              v0 + 1, v1, i + 1);
  }
  fprintf(out, "p cnf %d %zu\n", nvars, nclauses);
  ts_encode_each(m, write_clause, out);
  return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ propositions */

typedef struct props {
  const tilesat_map *m;
  FILE *out;
  int last;  /* group of the last clause written */
  int base;  /* the last variable of the tiles and ladders */
  int *var0; /* ts_global_var0 of each global, and of all */
} props;

static void write_var(const props *p, int var) {
  const tilesat_map *m = p->m;
  FILE *out = p->out;
  int T = m->rules->ntiles;
  if (var > p->base) { /* a global's: g1_5 is global 1's fifth */
    int i = 0;
    while (var > p->var0[i + 1])
      i++;
    fprintf(out, "g%d_%d", i + 1, var - p->var0[i]);
    return;
  }
  if (var > m->ncells * T) {
    int k = var - m->ncells * T - 1, cell = k / (T - 1);
    fprintf(out, "aux%d_%d_%d", k % (T - 1) + 1, cell / m->width,
            cell % m->width);
    return;
  }
  int cell = (var - 1) / T, t = (var - 1) % T;
  ts_write_token(out, m->rules->names.v.v[t]);
  fprintf(out, "_%d_%d", cell / m->width, cell % m->width);
}

static void write_lits(const props *p, const int *l, size_t n, int sign,
                       const char *sep) {
  bool first = true;
  for (const int *end = l + n; l < end; l++)
    if ((*l > 0) == (sign > 0)) {
      if (!first)
        fputs(sep, p->out);
      write_var(p, abs(*l));
      first = false;
    }
}

static void write_group(const tilesat_map *m, int g, FILE *out) {
  int cell, k;
  ts_group_kind kind = ts_group_decode(m, g, &cell, &k);
  int row = cell / m->width, col = cell % m->width;
  if (kind == TS_GROUP_GLOBAL) {
    fprintf(out, "\n# %s: %s\n", m->globals.v[k].origin, m->globals.v[k].text);
  } else if (kind == TS_GROUP_CELL && ts_masked(m, cell)) {
    fprintf(out, "\n# (%d,%d) is masked: it holds no tile\n", row, col);
  } else if (kind == TS_GROUP_CELL) {
    fprintf(out, "\n# (%d,%d) holds exactly one tile\n", row, col);
  } else if (kind == TS_GROUP_PIN) {
    fprintf(out, "\n# pin: (%d,%d) holds ", row, col);
    ts_write_token(out, m->rules->names.v.v[m->pins.v[k].tile]);
    fputc('\n', out);
  } else {
    int n = ts_map_neighbor(m, cell, k);
    fprintf(out,
            "\n# (%d,%d) and its %s neighbour (%d,%d) hold an allowed "
            "pair\n",
            row, col, tilesat_dir_name(m->topo, k), n / m->width, n % m->width);
  }
}

static void write_prop(void *user, int group, const int *l, size_t n) {
  props *p = user;
  FILE *out = p->out;
  size_t npos = 0;
  for (size_t i = 0; i < n; i++)
    npos += l[i] > 0;
  size_t nneg = n - npos;
  if (group != p->last)
    write_group(p->m, p->last = group, out);
  if (n == 0) {
    fputs("false", out);
  } else if (nneg == 0) {
    write_lits(p, l, n, 1, " | ");
  } else if (npos == 0 && nneg == 1) {
    fputc('~', out);
    write_lits(p, l, n, -1, "");
  } else if (npos == 0) {
    fputs("~(", out);
    write_lits(p, l, n, -1, " & ");
    fputc(')', out);
  } else {
    write_lits(p, l, n, -1, " & ");
    fputs(" -> ", out);
    write_lits(p, l, n, 1, " | ");
  }
  fputc('\n', out);
}

int tilesat_encode_props(const tilesat_map *m, FILE *out) {
  if (ts_map_has_lazy(m))
    return -1;
  fprintf(out, "# tilesat propositions: %dx%d %s map%s, %d tiles\n", m->width,
          m->height, tilesat_topology_name(m->topo),
          m->periodic ? " (periodic)" : "", m->rules->ntiles);
  fprintf(out, "# T_r_c: tile T stands at row r, column c.  ~ not, & and, "
               "| or, -> implies\n");
  props p = {m, out, -1, base_nvars(m), NULL};
  p.var0 = ts_malloc((m->globals.n + 1) * sizeof *p.var0);
  for (int i = 0; i <= (int)m->globals.n; i++)
    p.var0[i] = ts_global_var0(m, i);
  ts_encode_each(m, write_prop, &p);
  free(p.var0);
  return ferror(out) ? -1 : 0;
}
