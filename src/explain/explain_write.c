/* explain_write.c: explanations in words and in JSON. */
#include "explain/xplain.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- writing */

static void write_constraint(const tilesat_map *m, const tilesat_constraint *c,
                             FILE *out) {
  if (c->kind == TILESAT_GLOBAL) {
    fprintf(out, "%s (%s)", m->globals.v[c->global].text,
            m->globals.v[c->global].origin);
    return;
  }
  fprintf(out, "(%d,%d) ", c->row, c->col);
  if (c->kind == TILESAT_ONE_TILE && ts_masked(m, c->row * m->width + c->col)) {
    fputs("is masked: not part of the map, it holds no tile", out);
  } else if (c->kind == TILESAT_ONE_TILE) {
    fputs("holds exactly one tile", out);
  } else if (c->kind == TILESAT_PINNED) {
    fputs("is pinned to ", out);
    ts_write_token(out, m->rules->names.v.v[c->tile]);
  } else {
    fprintf(out, "and its %s neighbour (%d,%d) hold an allowed pair",
            ts_dir_words(m->topo, c->dir), c->nrow, c->ncol);
  }
}

/* Propagation on the explanation's constraints alone: the steps that lead
 * to the contradiction (all steps if there is none), and for each step the
 * constraints it uses. */
typedef struct story {
  ts_prop p;
  uint8_t *en, *show;
  int *cid; /* group -> constraint number (1-based), 0 if not in e */
} story;

static void story_init(story *st, const tilesat_explanation *e) {
  const tilesat_map *m = e->m;
  int G = ts_group_count(m);
  st->en = ts_calloc((size_t)G, 1);
  st->cid = ts_calloc((size_t)G, sizeof *st->cid);
  for (size_t i = 0; i < e->groups.n; i++) {
    st->en[e->groups.v[i]] = 1;
    st->cid[e->groups.v[i]] = (int)i + 1;
  }
  if (ts_prop_init(&st->p, m, st->en, true))
    ts_prop_pins(&st->p);
  st->show = ts_malloc(st->p.steps.n + 1);
  if (st->p.conflict >= 0)
    ts_prop_chain(&st->p, st->show);
  else
    memset(st->show, 1, st->p.steps.n);
  /* steps that remove nothing (a pin without its cell's constraint) */
  for (size_t i = 0; i < st->p.steps.n; i++) {
    const ts_step *s = &st->p.steps.v[i];
    if (s->kind == TS_STEP_PIN && s->choice < 0) {
      bool any = false;
      for (int w = 0; w < st->p.words; w++)
        any |= st->p.sets.v[s->lost + (size_t)w] != 0;
      if (!any && st->p.conflict < 0)
        st->show[i] = 0;
    }
  }
}

static void story_free(story *st) {
  ts_prop_free(&st->p);
  free(st->en);
  free(st->show);
  free(st->cid);
}

/* The constraint numbers a step uses, in ascending order; returns count. */
static int step_constraints(const story *st, int i, int ids[2]) {
  const ts_step *s = &st->p.steps.v[i];
  int n = 0;
  if (s->group >= 0 && st->cid[s->group])
    ids[n++] = st->cid[s->group];
  if (s->kind == TS_STEP_PIN) {
    bool any = false;
    for (int w = 0; w < st->p.words; w++)
      any |= st->p.sets.v[s->lost + (size_t)w] != 0;
    if (any && st->cid[s->cell])
      ids[n++] = st->cid[s->cell];
  }
  if (n == 2 && ids[0] > ids[1]) {
    int t = ids[0];
    ids[0] = ids[1];
    ids[1] = t;
  }
  return n;
}

static char cell_mark(const uint8_t *kind, int cell) {
  return (char)(kind[cell] & 2   ? 'P'
                : kind[cell] & 1 ? '#'
                : kind[cell] & 4 ? 'o'
                                 : '.');
}

/* A line of | under the cells whose south pair is a constraint (trailing
 * blanks trimmed). */
static void vertical_line(const char *lead, const uint8_t *south, int w,
                          FILE *out) {
  int last = -1;
  for (int c = 0; c < w; c++)
    if (south[c])
      last = c;
  fputs(last < 0 ? "" : lead, out);
  for (int c = 0; c <= last; c++)
    fprintf(out, "%c%s", south[c] ? '|' : ' ', c < last ? " " : "");
  fputc('\n', out);
}

/* Per cell: kind (1 must hold one tile, 2 pinned, 4 in an adjacency) and,
 * on square maps, whether its east and south pairs are constraints. */
static void mark_cells(const tilesat_explanation *e, uint8_t *kind,
                       uint8_t *east, uint8_t *south) {
  const tilesat_map *m = e->m;
  int W = m->width;
  bool square = m->topo == TILESAT_SQUARE;
  for (size_t i = 0; i < e->cs.n; i++) {
    const tilesat_constraint *c = &e->cs.v[i];
    int cell = c->row * W + c->col;
    if (c->kind == TILESAT_GLOBAL)
      continue; /* the whole map's */
    if (c->kind == TILESAT_ONE_TILE)
      kind[cell] |= 1;
    else if (c->kind == TILESAT_PINNED)
      kind[cell] |= 2;
    else {
      int n = c->nrow * W + c->ncol;
      kind[cell] |= 4;
      kind[n] |= 4;
      if (square) {
        /* N and W are the S and E pairs of the neighbour */
        if (c->dir == 1)
          east[cell] = 1;
        else if (c->dir == 3)
          east[n] = 1;
        else if (c->dir == 2)
          south[cell] = 1;
        else
          south[n] = 1;
      }
    }
  }
}

/* Row r of a square map, - between cells whose east pair is a constraint
 * (on the margin for a wrap-around pair). */
static void square_row(const tilesat_map *m, const uint8_t *kind,
                       const uint8_t *east, int r, bool wrap, FILE *out) {
  int W = m->width;
  bool wrapped = wrap && east[r * W + W - 1];
  fputs(wrap ? (wrapped ? "  -" : "   ") : "  ", out);
  for (int c = 0; c < W; c++) {
    fputc(cell_mark(kind, r * W + c), out);
    if (c + 1 < W)
      fputc(east[r * W + c] ? '-' : ' ', out);
  }
  fputs(wrapped ? "-\n" : "\n", out);
}

/* The map with the cells involved marked; on square maps the adjacency
 * constraints are drawn as - and | between cells (on the margin for the
 * wrap-around pairs of a periodic map). */
static void write_picture(const tilesat_explanation *e, FILE *out) {
  const tilesat_map *m = e->m;
  int W = m->width, H = m->height;
  uint8_t *kind = ts_calloc((size_t)m->ncells, 1);
  uint8_t *east = ts_calloc((size_t)m->ncells, 1);
  uint8_t *south = ts_calloc((size_t)m->ncells, 1);
  bool square = m->topo == TILESAT_SQUARE;
  mark_cells(e, kind, east, south);
  fputs("\nThe map (# a cell that must hold one tile, P a pin, o a cell "
        "only in an\nadjacency, . not involved",
        out);
  fputs(square ? "; - and | adjacency constraints):\n"
               : "; hex rows, odd rows shifted right):\n",
        out);
  bool wrap = m->periodic && square;
  const char *lead = wrap ? "   " : "  ";
  bool wrap_south = false; /* the last row's south pairs wrap to the top */
  for (int c = 0; wrap && c < W; c++)
    wrap_south |= south[(H - 1) * W + c];
  if (wrap_south)
    vertical_line(lead, south + (size_t)(H - 1) * (size_t)W, W, out);
  for (int r = 0; r < H; r++) {
    if (!square) {
      fputs(r & 1 ? "   " : "  ", out);
      for (int c = 0; c < W; c++)
        fprintf(out, "%s%c", c ? " " : "", cell_mark(kind, r * W + c));
      fputc('\n', out);
      continue;
    }
    square_row(m, kind, east, r, wrap, out);
    if (r + 1 < H)
      vertical_line(lead, south + (size_t)r * (size_t)W, W, out);
  }
  if (wrap_south)
    vertical_line(lead, south + (size_t)(H - 1) * (size_t)W, W, out);
  free(kind);
  free(east);
  free(south);
}

int tilesat_explanation_write(const tilesat_explanation *e, FILE *out) {
  const tilesat_map *m = e->m;
  fprintf(out, "UNSAT: no valid %dx%d map.\n", m->width, m->height);
  fprintf(out,
          "These %zu constraints (of %d in the map) cannot all hold, and "
          "dropping any one\nof them leaves a satisfiable set (checked):\n",
          e->cs.n, e->total);
  for (size_t i = 0; i < e->cs.n; i++) {
    fprintf(out, "  [%zu] ", i + 1);
    write_constraint(m, &e->cs.v[i], out);
    fputc('\n', out);
  }
  story st;
  story_init(&st, e);
  fputs("\nWhy (propagation on these constraints alone; [n] the constraints "
        "used):\n",
        out);
  for (size_t i = 0; i < st.p.steps.n; i++) {
    if (!st.show[i])
      continue;
    int ids[2], n = step_constraints(&st, (int)i, ids);
    char tag[32];
    if (n == 2)
      snprintf(tag, sizeof tag, "[%d,%d]", ids[0], ids[1]);
    else if (n == 1)
      snprintf(tag, sizeof tag, "[%d]", ids[0]);
    else
      tag[0] = 0;
    fprintf(out, "  %-7s ", tag);
    ts_prop_write_step(&st.p, (int)i, out);
    fputc('\n', out);
  }
  if (st.p.conflict < 0)
    fputs("  Propagation stops here without a contradiction; the SAT "
          "solver's search\n  shows that no filling satisfies all of these "
          "constraints together.\n",
          out);
  story_free(&st);
  write_picture(e, out);
  return ferror(out) ? -1 : 0;
}

static void json_map(const tilesat_map *m, FILE *out) {
  fprintf(out,
          "  \"map\": {\"width\": %d, \"height\": %d, \"topology\": \"%s\", "
          "\"periodic\": %s},\n",
          m->width, m->height, tilesat_topology_name(m->topo),
          m->periodic ? "true" : "false");
}

int tilesat_explain_write_sat_json(const tilesat_map *m, FILE *out) {
  fputs("{\n  \"result\": \"SAT\",\n", out);
  json_map(m, out);
  fprintf(out, "  \"total_constraints\": %d\n}\n", tilesat_constraint_count(m));
  return ferror(out) ? -1 : 0;
}

/* An explanation's fields in JSON, each line after the first indented by
 * `ind`. */
static void json_fields(const tilesat_explanation *e, const char *ind,
                        FILE *out) {
  const tilesat_map *m = e->m;
  static const char *const kinds[] = {"one_tile", "pin", "adjacent", "global"};
  fprintf(out, "\"minimal\": true,\n%s\"constraints\": [", ind);
  for (size_t i = 0; i < e->cs.n; i++) {
    const tilesat_constraint *c = &e->cs.v[i];
    fprintf(out, "%s\n%s  {\"id\": %zu, \"kind\": \"%s\"", i ? "," : "", ind,
            i + 1, kinds[c->kind]);
    if (c->kind == TILESAT_GLOBAL) {
      const ts_global *g = &m->globals.v[c->global];
      static const char *const gk[] = {"count", "connected", "path", "border"};
      fprintf(out, ", \"global\": %d, \"type\": \"%s\", \"text\": ", c->global,
              gk[g->kind]);
      ts_json_string(out, g->text);
      fputs(", \"origin\": ", out);
      ts_json_string(out, g->origin);
      fputc('}', out);
      continue;
    }
    fprintf(out, ", \"cell\": [%d, %d]", c->row, c->col);
    if (c->kind == TILESAT_PINNED) {
      fputs(", \"tile\": ", out);
      ts_json_string(out, m->rules->names.v.v[c->tile]);
    } else if (c->kind == TILESAT_ADJACENT) {
      fputs(", \"direction\": ", out);
      ts_json_string(out, tilesat_dir_name(m->topo, c->dir));
      fprintf(out, ", \"neighbor\": [%d, %d]", c->nrow, c->ncol);
    }
    fputc('}', out);
  }
  fprintf(out, "\n%s],\n%s\"cells\": [", ind, ind);
  for (size_t i = 0; i < e->cells.n; i++)
    fprintf(out, "%s[%d, %d]", i ? ", " : "", e->cells.v[i] / m->width,
            e->cells.v[i] % m->width);
  story st;
  story_init(&st, e);
  fprintf(out, "],\n%s\"propagation_refutes\": %s,\n%s\"steps\": [", ind,
          st.p.conflict >= 0 ? "true" : "false", ind);
  int *number = ts_calloc(st.p.steps.n + 1, sizeof *number);
  int k = 0;
  for (size_t i = 0; i < st.p.steps.n; i++)
    if (st.show[i])
      number[i] = ++k;
  bool first = true;
  for (size_t i = 0; i < st.p.steps.n; i++) {
    if (!st.show[i])
      continue;
    int ids[2], n = step_constraints(&st, (int)i, ids);
    fprintf(out, "%s\n%s  ", first ? "" : ",", ind);
    ts_prop_write_step_json(&st.p, (int)i, number, ids, n, out);
    first = false;
  }
  fprintf(out, "\n%s]", ind);
  free(number);
  story_free(&st);
}

int tilesat_explanation_write_json(const tilesat_explanation *e, FILE *out) {
  fputs("{\n  \"result\": \"UNSAT\",\n", out);
  json_map(e->m, out);
  fprintf(out, "  \"total_constraints\": %d,\n  ", e->total);
  json_fields(e, "  ", out);
  fputs("\n}\n", out);
  return ferror(out) ? -1 : 0;
}

int tilesat_explanations_write(tilesat_explanation *const *es, size_t n,
                               bool complete, FILE *out) {
  if (!n)
    ts_misuse(__func__, "no explanation");
  fprintf(out, "%zu distinct minimal explanation%s, smallest first", n,
          n == 1 ? "" : "s");
  fputs(complete ? ": all there are.\n"
                 : ": the limit is reached, there may be more (--limit).\n",
        out);
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "\n=== Explanation %zu of %zu ===\n", i + 1, n);
    if (tilesat_explanation_write(es[i], out))
      return -1;
  }
  return ferror(out) ? -1 : 0;
}

int tilesat_explanations_write_json(tilesat_explanation *const *es, size_t n,
                                    bool complete, FILE *out) {
  if (!n)
    ts_misuse(__func__, "no explanation");
  fputs("{\n  \"result\": \"UNSAT\",\n", out);
  json_map(es[0]->m, out);
  fprintf(out,
          "  \"total_constraints\": %d,\n  \"complete\": %s,\n"
          "  \"explanations\": [",
          es[0]->total, complete ? "true" : "false");
  for (size_t i = 0; i < n; i++) {
    fprintf(out, "%s\n    {", i ? "," : "");
    json_fields(es[i], "     ", out);
    fputc('}', out);
  }
  fputs("\n  ]\n}\n", out);
  return ferror(out) ? -1 : 0;
}
