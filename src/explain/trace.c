/* trace.c: the public face of propagate.c: a WFC-style run (start, pins,
 * choices), its log, and on a contradiction only the chain behind it. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

struct tilesat_trace {
  const tilesat_map *m;
  tilesat_map *own; /* the map with its borders as bans, or NULL */
  ts_prop p;
  int nchoices;
};

tilesat_trace *tilesat_trace_new(const tilesat_map *m) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  if (tilesat_map_refuse_globals(m, 1u << TILESAT_GLOBAL_BORDER, "trace", NULL,
                                 NULL))
    ts_misuse(__func__,
              "a masked map, or count, connected or path constraints");
  tilesat_trace *t = ts_calloc(1, sizeof *t);
  t->own = ts_map_lowered(m); /* borders as bans, which it starts without */
  t->m = m = t->own ? t->own : m;
  if (ts_prop_init(&t->p, m, NULL, false))
    ts_prop_pins(&t->p);
  return t;
}

/* A cell's propagator (domains and what must hold, 2 sets; who removed
 * each tile, 4 bytes; forced, by whom, queued, must_by: 13) and its share
 * of the log at its longest, a step for each tile (64 bytes, two sets,
 * a few dependencies).  0, or -1 with err. */
int tilesat_trace_fits(const tilesat_map *m, tilesat_error *err) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  double T = m->rules->ntiles, set = 8.0 * m->rules->words;
  double per_cell = 2 * set + 4 * T + 13 + T * (64 + 2 * set + 16);
  return ts_memory_refuse(m, per_cell * m->ncells, 0, "trace", err);
}

void tilesat_trace_free(tilesat_trace *t) {
  if (!t)
    return;
  ts_prop_free(&t->p);
  tilesat_map_free(t->own);
  free(t);
}

int tilesat_trace_choose(tilesat_trace *t, int row, int col, int tile) {
  return tilesat_trace_choose_as(t, row, col, tile, t->nchoices + 1);
}

int tilesat_trace_choose_as(tilesat_trace *t, int row, int col, int tile,
                            int number) {
  const tilesat_map *m = t->m;
  if (row < 0 || row >= m->height || col < 0 || col >= m->width || tile < 0 ||
      tile >= m->rules->ntiles)
    ts_misuse(__func__, "cell or tile out of range");
  if (number < 1)
    ts_misuse(__func__, "choice numbers start at 1");
  int choice = number - 1;
  t->nchoices++;
  if (t->p.conflict >= 0)
    return TILESAT_UNSAT;
  return ts_prop_pin(&t->p, row * m->width + col, tile, -1, choice)
             ? 0
             : TILESAT_UNSAT;
}

int tilesat_trace_status(const tilesat_trace *t) {
  if (t->p.conflict >= 0)
    return TILESAT_UNSAT;
  const tilesat_map *m = t->m;
  for (int c = 0; c < m->ncells; c++) {
    int n = 0;
    for (int k = 0; k < m->rules->ntiles; k++)
      n += ts_prop_has(&t->p, c, k);
    if (n != 1)
      return TILESAT_UNKNOWN;
  }
  return TILESAT_SAT;
}

bool tilesat_trace_possible(const tilesat_trace *t, int row, int col,
                            int tile) {
  const tilesat_map *m = t->m;
  if (row < 0 || row >= m->height || col < 0 || col >= m->width || tile < 0 ||
      tile >= m->rules->ntiles)
    ts_misuse(__func__, "cell or tile out of range");
  return ts_prop_has(&t->p, row * m->width + col, tile);
}

/* Steps shown: the chain after a contradiction, else every step that
 * removed something (pins that change nothing are still shown: they are
 * the user's input). */
static uint8_t *shown(const tilesat_trace *t) {
  uint8_t *show = ts_malloc(t->p.steps.n + 1);
  if (t->p.conflict >= 0)
    ts_prop_chain(&t->p, show);
  else
    memset(show, 1, t->p.steps.n);
  return show;
}

/* A cell's domain as a name ("L") when decided, else "{L,C}". */
static void domain_text(const tilesat_trace *t, int cell, char *buf,
                        size_t len) {
  const tilesat_rules *r = t->m->rules;
  int n = 0;
  for (int k = 0; k < r->ntiles; k++)
    n += ts_prop_has(&t->p, cell, k);
  size_t at = 0;
  buf[0] = 0;
  if (n != 1)
    at += (size_t)snprintf(buf, len, "{");
  bool first = true;
  for (int k = 0; k < r->ntiles && at < len; k++)
    if (ts_prop_has(&t->p, cell, k)) {
      at += (size_t)snprintf(buf + at, len - at, "%s%s", first ? "" : ",",
                             r->names.v.v[k]);
      first = false;
    }
  if (n != 1 && at < len)
    snprintf(buf + at, len - at, "}");
}

int tilesat_trace_write(const tilesat_trace *t, FILE *out) {
  const tilesat_map *m = t->m;
  uint8_t *show = shown(t);
  bool bad = t->p.conflict >= 0;
  fputs(bad ? "contradiction: the steps that lead to it:\n"
            : "propagation steps:\n",
        out);
  int k = 0;
  for (size_t i = 0; i < t->p.steps.n; i++) {
    if (!show[i])
      continue;
    fprintf(out, "%4d. ", ++k);
    ts_prop_write_step(&t->p, (int)i, out);
    fputc('\n', out);
  }
  if (!k)
    fputs("  (none)\n", out);
  free(show);
  if (bad)
    return ferror(out) ? -1 : 0;
  /* the remaining domains, columns aligned */
  char buf[4096];
  int width = 1, decided = 0;
  for (int c = 0; c < m->ncells; c++) {
    domain_text(t, c, buf, sizeof buf);
    int w = (int)strlen(buf);
    width = w > width ? w : width;
    decided += buf[0] != '{';
  }
  fprintf(out, "\ndomains (%d of %d cells decided):\n", decided, m->ncells);
  for (int r = 0; r < m->height; r++) {
    fputs(m->topo == TILESAT_HEX && (r & 1) ? "  " : "", out);
    for (int c = 0; c < m->width; c++) {
      domain_text(t, r * m->width + c, buf, sizeof buf);
      if (c + 1 < m->width)
        fprintf(out, "%-*s ", width, buf);
      else
        fprintf(out, "%s", buf);
    }
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

int tilesat_trace_write_json(const tilesat_trace *t, FILE *out) {
  const tilesat_map *m = t->m;
  int status = tilesat_trace_status(t);
  uint8_t *show = shown(t);
  int *number = ts_calloc(t->p.steps.n + 1, sizeof *number);
  int k = 0;
  for (size_t i = 0; i < t->p.steps.n; i++)
    if (show[i])
      number[i] = ++k;
  fprintf(out, "{\n  \"result\": \"%s\",\n  \"steps\": [",
          status == TILESAT_UNSAT ? "contradiction"
          : status == TILESAT_SAT ? "decided"
                                  : "undecided");
  bool first = true;
  for (size_t i = 0; i < t->p.steps.n; i++) {
    if (!show[i])
      continue;
    fputs(first ? "\n    " : ",\n    ", out);
    ts_prop_write_step_json(&t->p, (int)i, number, NULL, 0, out);
    first = false;
  }
  fputs("\n  ]", out);
  if (status != TILESAT_UNSAT) {
    fputs(",\n  \"domains\": [", out);
    uint64_t *set = ts_calloc((size_t)t->p.words, sizeof *set);
    for (int r = 0; r < m->height; r++) {
      fputs(r ? ",\n    [" : "\n    [", out);
      for (int c = 0; c < m->width; c++) {
        memcpy(set, t->p.dom + (size_t)(r * m->width + c) * (size_t)t->p.words,
               (size_t)t->p.words * sizeof *set);
        fputs(c ? ", " : "", out);
        ts_json_tileset(m->rules, set, out);
      }
      fputc(']', out);
    }
    free(set);
    fputs("\n  ]", out);
  }
  fputs("\n}\n", out);
  free(show);
  free(number);
  return ferror(out) ? -1 : 0;
}
