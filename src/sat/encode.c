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
  return m->ncells + (int)m->pins.n + m->ncells * m->rules->ndirs;
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

int ts_encode_nvars(const tilesat_map *m) {
  int T = m->rules->ntiles;
  return m->ncells * T + (T > TS_PAIRWISE_MAX ? m->ncells * (T - 1) : 0);
}

void ts_encode_each(const tilesat_map *m, ts_clause_fn fn, void *user) {
  const tilesat_rules *r = m->rules;
  int T = r->ntiles;
  sink k = {fn, user};
  int *buf = ts_malloc((size_t)(T + 1) * sizeof *buf);
  for (int cell = 0; cell < m->ncells; cell++) {
    encode_cell(m, &k, cell, buf);
    for (int d = 0; d < r->ndirs; d++) {
      int n = ts_map_neighbor(m, cell, d);
      if (n < 0)
        continue;
      int g = ts_edge_group(m, cell, d);
      for (int t = 0; t < T; t++) {
        const uint64_t *allowed = ts_allowed(r, t, d);
        int len = 0;
        buf[len++] = -ts_var(m, cell, t);
        for (int u = 0; u < T; u++)
          if (ts_bit(allowed, u))
            buf[len++] = ts_var(m, n, u);
        if (len <= T) /* not every tile supports t: a real constraint */
          add(&k, g, buf, (size_t)len);
      }
    }
  }
  for (size_t i = 0; i < m->pins.n; i++) {
    int lit = ts_var(m, m->pins.v[i].cell, m->pins.v[i].tile);
    add(&k, m->ncells + (int)i, &lit, 1);
  }
  /* a ban narrows the cell's one tile: part of that cell's constraint */
  for (size_t i = 0; i < m->bans.n; i++) {
    int lit = -ts_var(m, m->bans.v[i].cell, m->bans.v[i].tile);
    add(&k, m->bans.v[i].cell, &lit, 1);
  }
  free(buf);
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
  fprintf(out, "\nc var VAR ROW COL TILE: VAR is true iff TILE stands at "
               "(ROW, COL)\n");
  for (int cell = 0; cell < m->ncells; cell++)
    for (int t = 0; t < T; t++) {
      fprintf(out, "c var %d %d %d ", ts_var(m, cell, t), cell / m->width,
              cell % m->width);
      ts_write_token(out, r->names.v.v[t]);
      fputc('\n', out);
    }
  if (nvars > ntilevars)
    fprintf(out,
            "c aux %d..%d: at-most-one ladder, determined by the tile "
            "variables (cell c has %d of them, from %d + c*%d)\n",
            ntilevars + 1, nvars, T - 1, ntilevars + 1, T - 1);
  fprintf(out, "p cnf %d %zu\n", nvars, nclauses);
  ts_encode_each(m, write_clause, out);
  return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ propositions */

static void write_var(const tilesat_map *m, int var, FILE *out) {
  int T = m->rules->ntiles;
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

static void write_lits(const tilesat_map *m, const int *l, size_t n, int sign,
                       const char *sep, FILE *out) {
  bool first = true;
  for (const int *end = l + n; l < end; l++)
    if ((*l > 0) == (sign > 0)) {
      if (!first)
        fputs(sep, out);
      write_var(m, abs(*l), out);
      first = false;
    }
}

static void write_group(const tilesat_map *m, int g, FILE *out) {
  int cell, k;
  ts_group_kind kind = ts_group_decode(m, g, &cell, &k);
  int row = cell / m->width, col = cell % m->width;
  if (kind == TS_GROUP_CELL) {
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

typedef struct props {
  const tilesat_map *m;
  FILE *out;
  int last; /* group of the last clause written */
} props;

static void write_prop(void *user, int group, const int *l, size_t n) {
  props *p = user;
  const tilesat_map *m = p->m;
  FILE *out = p->out;
  size_t npos = 0;
  for (size_t i = 0; i < n; i++)
    npos += l[i] > 0;
  size_t nneg = n - npos;
  if (group != p->last)
    write_group(m, p->last = group, out);
  if (nneg == 0) {
    write_lits(m, l, n, 1, " | ", out);
  } else if (npos == 0 && nneg == 1) {
    fputc('~', out);
    write_lits(m, l, n, -1, "", out);
  } else if (npos == 0) {
    fputs("~(", out);
    write_lits(m, l, n, -1, " & ", out);
    fputc(')', out);
  } else {
    write_lits(m, l, n, -1, " & ", out);
    fputs(" -> ", out);
    write_lits(m, l, n, 1, " | ", out);
  }
  fputc('\n', out);
}

int tilesat_encode_props(const tilesat_map *m, FILE *out) {
  fprintf(out, "# tilesat propositions: %dx%d %s map%s, %d tiles\n", m->width,
          m->height, tilesat_topology_name(m->topo),
          m->periodic ? " (periodic)" : "", m->rules->ntiles);
  fprintf(out, "# T_r_c: tile T stands at row r, column c.  ~ not, & and, "
               "| or, -> implies\n");
  props p = {m, out, -1};
  ts_encode_each(m, write_prop, &p);
  return ferror(out) ? -1 : 0;
}
