/* trace.c: the public face of propagate.c: a WFC-style run (start, pins,
 * choices), its steps, and on a contradiction only the chain behind it. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

struct tilesat_trace {
  const tilesat_map *given; /* the caller's */
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
  t->given = m;
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

tilesat_steps *tilesat_trace_steps(const tilesat_trace *t) {
  uint8_t *show = shown(t);
  tilesat_steps *s = ts_steps_of(&t->p, show, NULL);
  free(show);
  return s;
}

const tilesat_map *tilesat_trace_map(const tilesat_trace *t) {
  return t->given;
}
