/* steps.c: propagation's log as data (tilesat_steps): the steps shown,
 * numbered, their tile sets as arrays of tile indices. */
#include "explain/explain.h"

#include <stdlib.h>

struct tilesat_steps {
  TS_VEC(tilesat_step) v;
  ts_ints ints; /* every step's arrays, one after the other */
  bool contradiction;
};

/* An array's offset and length in ints, kept in the pointer fields until
 * ints stops growing. */
typedef struct span {
  size_t at, n;
} span;

static span push_set(ts_ints *ints, const tilesat_rules *r,
                     const uint64_t *set) {
  span s = {ints->n, 0};
  for (int t = 0; t < r->ntiles; t++)
    if (ts_bit(set, t)) {
      TS_PUSH(*ints, t);
      s.n++;
    }
  return s;
}

/* The constraint numbers a step uses, ascending; returns how many. */
static int step_constraints(const ts_prop *p, const ts_step *s, const int *cid,
                            int ids[2]) {
  int n = 0;
  if (s->group >= 0 && cid[s->group])
    ids[n++] = cid[s->group];
  if (s->kind == TS_STEP_PIN) {
    bool any = false;
    for (int w = 0; w < p->words; w++)
      any |= p->sets.v[s->lost + (size_t)w] != 0;
    if (any && cid[s->cell])
      ids[n++] = cid[s->cell];
  }
  if (n == 2 && ids[0] > ids[1]) {
    int t = ids[0];
    ids[0] = ids[1];
    ids[1] = t;
  }
  return n;
}

tilesat_steps *ts_steps_of(const ts_prop *p, const uint8_t *show,
                           const int *cid) {
  const tilesat_map *m = p->m;
  const tilesat_rules *r = m->rules;
  tilesat_steps *out = ts_calloc(1, sizeof *out);
  out->contradiction = p->conflict >= 0;
  int *number = ts_calloc(p->steps.n + 1, sizeof *number);
  int k = 0;
  for (size_t i = 0; i < p->steps.n; i++)
    if (show[i])
      number[i] = ++k;
  TS_VEC(span) spans = {0}; /* tiles, from, after of each step */
  for (size_t i = 0; i < p->steps.n; i++) {
    if (!show[i])
      continue;
    const ts_step *s = &p->steps.v[i];
    tilesat_step st = {0};
    st.kind = (tilesat_step_kind)s->kind;
    st.row = s->cell / m->width;
    st.col = s->cell % m->width;
    st.tile = -1;
    st.nrow = st.ncol = st.dir = -1;
    bool pin = s->kind == TS_STEP_PIN || s->kind == TS_STEP_LOST;
    if (pin) {
      st.tile = s->tile;
      st.choice = s->choice >= 0 ? s->choice + 1 : 0;
    }
    bool nb = s->kind == TS_STEP_SUPPORT || s->kind == TS_STEP_MUST;
    if (nb) {
      st.nrow = s->nb / m->width;
      st.ncol = s->nb % m->width;
      st.dir = s->dir;
    }
    span none = {out->ints.n, 0};
    span tiles = s->kind == TS_STEP_EMPTY || s->kind == TS_STEP_LOST
                     ? none
                     : push_set(&out->ints, r, p->sets.v + s->lost);
    span from = {out->ints.n, 0};
    if (nb)
      from = push_set(&out->ints, r, p->sets.v + s->nbdom);
    else if (s->kind == TS_STEP_ONE) /* what its first fact says */
      from = push_set(&out->ints, r,
                      p->sets.v + p->steps.v[p->deps.v[s->deps]].lost);
    span after = {out->ints.n, 0};
    for (size_t j = 0; j < s->ndeps; j++) {
      int d = p->deps.v[s->deps + j];
      if (d >= 0 && number[d] > 0) {
        TS_PUSH(out->ints, number[d]);
        after.n++;
      }
    }
    if (cid)
      st.nconstraints = step_constraints(p, s, cid, st.constraints);
    TS_PUSH(out->v, st);
    TS_PUSH(spans, tiles);
    TS_PUSH(spans, from);
    TS_PUSH(spans, after);
  }
  for (size_t i = 0; i < out->v.n; i++) {
    tilesat_step *st = &out->v.v[i];
    const span *sp = &spans.v[3 * i];
    st->tiles = out->ints.v + sp[0].at;
    st->ntiles = sp[0].n;
    st->from = out->ints.v + sp[1].at;
    st->nfrom = sp[1].n;
    st->after = out->ints.v + sp[2].at;
    st->nafter = sp[2].n;
  }
  free(spans.v);
  free(number);
  return out;
}

size_t tilesat_steps_count(const tilesat_steps *s) { return s->v.n; }

const tilesat_step *tilesat_steps_get(const tilesat_steps *s, size_t i) {
  if (!s || i >= s->v.n)
    ts_misuse(__func__, "NULL steps, or index out of range");
  return &s->v.v[i];
}

bool tilesat_steps_contradiction(const tilesat_steps *s) {
  return s->contradiction;
}

void tilesat_steps_free(tilesat_steps *s) {
  if (!s)
    return;
  free(s->v.v);
  free(s->ints.v);
  free(s);
}

void ts_steps_shift(tilesat_steps *s, int drow, int dcol) {
  for (size_t i = 0; s && i < s->v.n; i++) {
    tilesat_step *t = &s->v.v[i];
    if (t->row >= 0) {
      t->row += drow;
      t->col += dcol;
    }
    if (t->nrow >= 0) {
      t->nrow += drow;
      t->ncol += dcol;
    }
  }
}
