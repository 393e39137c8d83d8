/* dp_shard.c: the successors a shard sends to the others (tilesat-mpi
 * --shard; struct dp's nshards).
 *
 * A shard extends the states it owns.  A successor it owns goes into its
 * next layer; one another shard owns is written, its count multiplied
 * out, to the outbox's segment for that shard.  When a segment is full,
 * and at the end of each step until every shard is done, the shards meet
 * in a round of s->exchange: each hands over its outbox and adds what the
 * others sent to its own next layer.  So each successor is added to a
 * table once, by its owner, and the outbox stays small whatever the
 * layer: a shard holds about 1/N of the states and does about 1/N of the
 * additions. */
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>

/* The outbox's size: many entries a round, so rounds are few, and little
 * memory next to the layers (a 64th of the memory bound, at most 4 MiB:
 * about 175 thousand successors of 24 bytes; 8 MiB was no faster on
 * Circuit 6x6 and took 8 MiB more a rank, as a round receives as much). */
#define OUTBOX_BYTES ((size_t)4 << 20)

static int segment(const ts_dp *s, int owner) {
  return owner < s->shard ? owner : owner - 1;
}

unsigned char *ts_dp_outbox_segment(const ts_dp *s, int owner) {
  const ts_dp_outbox *o = &s->out;
  return o->mem + (size_t)segment(s, owner) * o->room * o->entry;
}

bool ts_dp_outbox_prepare(ts_dp *s, int nlimbs, tilesat_error *err) {
  ts_dp_outbox *o = &s->out;
  size_t entry = (size_t)s->p.keywords * 8 + (size_t)nlimbs * sizeof(mp_limb_t);
  if (!o->n)
    o->n = ts_calloc((size_t)s->nshards, sizeof *o->n);
  if (o->mem && o->entry == entry)
    return true;
  ts_dp_outbox_free(s);
  size_t others = (size_t)s->nshards - 1;
  size_t bytes =
      s->max_memory / 64 < OUTBOX_BYTES ? s->max_memory / 64 : OUTBOX_BYTES;
  size_t room = bytes / entry / others;
  room = room < 64 ? 64 : room;
  if (!ts_dp_reserve(s, room * others * entry, 0, err))
    return false;
  o->mem = ts_malloc(room * others * entry);
  o->room = room;
  o->entry = entry;
  o->nlimbs = nlimbs;
  return true;
}

void ts_dp_outbox_free(ts_dp *s) {
  ts_dp_outbox *o = &s->out;
  if (o->mem)
    s->used_memory -= o->room * (size_t)(s->nshards - 1) * o->entry;
  free(o->mem);
  o->mem = NULL;
  o->room = o->entry = 0;
}

/* One round; false once the shards agreed that one of them failed (the
 * round that agrees sets s->stopped). */
static bool round_trip(ts_dp *s, ts_dp_layer *next, bool ok, bool end,
                       bool *done, mpz_t total, tilesat_error *err) {
  return !s->stopped && s->exchange(s, next, ok, end, done, total, err);
}

bool ts_dp_outbox_put(ts_dp *s, ts_dp_layer *next, int owner,
                      const uint64_t *key, const mp_limb_t *add, int nlimbs,
                      mp_limb_t mult, tilesat_error *err) {
  ts_dp_outbox *o = &s->out;
  bool done;
  if (o->n[owner] == o->room &&
      !round_trip(s, next, true, false, &done, NULL, err))
    return false;
  unsigned char *e = ts_dp_outbox_segment(s, owner) + o->n[owner]++ * o->entry;
  int words = s->p.keywords;
  memcpy(e, key, (size_t)words * 8);
  mp_limb_t *c = (mp_limb_t *)(void *)(e + (size_t)words * 8);
  /* the count fits the next layer's width (its total's bound): limbs of
   * add past that width are zero */
  int n = nlimbs < o->nlimbs ? nlimbs : o->nlimbs;
  mp_limb_t carry = mpn_mul_1(c, add, n, mult);
  if (n < o->nlimbs) {
    c[n] = carry;
    if (o->nlimbs > n + 1)
      memset(c + n + 1, 0, (size_t)(o->nlimbs - n - 1) * sizeof *c);
  }
  return true;
}

bool ts_dp_outbox_receive(ts_dp *s, ts_dp_layer *next, const unsigned char *buf,
                          size_t bytes, tilesat_error *err) {
  const ts_dp_outbox *o = &s->out;
  int words = s->p.keywords;
  size_t got = o->entry ? bytes / o->entry : 0;
  ts_dp_batch b = {.keys = ts_malloc(TS_DP_BATCH * (size_t)words * 8)};
  bool ok = true;
  for (size_t e = 0; ok && e < got; e++) {
    const uint64_t *key = (const uint64_t *)(const void *)(buf + e * o->entry);
    memcpy(ts_dp_batch_key(s, &b), key, (size_t)words * 8);
    ok = ts_dp_batch_push(s, next, &b, (const mp_limb_t *)(key + words),
                          o->nlimbs, 1, err);
  }
  ok = ok && ts_dp_batch_flush(s, next, &b, err);
  free(b.keys);
  return ok;
}

bool ts_dp_shard_end(ts_dp *s, ts_dp_layer *next, mpz_t total, bool ok,
                     tilesat_error *err) {
  bool done = false;
  while (!done)
    if (!round_trip(s, next, ok, true, &done, total, err))
      return false;
  return ok;
}
