/* dp_layer.c: the DP's hash layers (dp.c).
 *
 * A layer is a table of fixed-size entries (a state's key, then its count
 * in GMP limbs) with an open-addressing index of 64-bit slots; the memory
 * of both is counted against --max-memory (ts_dp_reserve).  Additions are
 * queued in batches (ts_dp_batch_push) so that their cache misses overlap. */
/* MAP_ANONYMOUS, mremap (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _GNU_SOURCE
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Entries are numbered 1.. in the index's low 32 bits. */
#define MAX_ENTRIES 0xffffffffu

/* An index slot: the hash's high half as a tag, and entry e + 1. */
static inline uint64_t slot_of(uint64_t h, size_t e) {
  return (h >> 32) << 32 | (e + 1);
}
static inline size_t slot_entry(uint64_t slot) {
  return (size_t)(slot & 0xffffffffu) - 1;
}

/* Where the search for hash h starts in an index of `cap` slots (any size:
 * the hash's low half scaled, so the index can be sized to the layer). */
static inline size_t home(uint64_t h, size_t cap) {
  return cap >> 32 ? (size_t)(h % cap)
                   : (size_t)(((h & 0xffffffffu) * (uint64_t)cap) >> 32);
}

/* Index slots for n states: a load of 5/8, grown by half past 3/4. */
size_t ts_dp_index_slots(size_t n) { return n + n / 2 + n / 8 + 16; }
#define OVERLOADED(l) (4 * ((l)->n + 1) > 3 * (l)->cap)

static size_t entry_bytes(const ts_dp *s, int nlimbs) {
  return (size_t)s->p.keywords * 8 + (size_t)nlimbs * sizeof(mp_limb_t);
}

/* What else to use when the dp cannot go on: approx keeps borders alone
 * (the map here has them as bans), so with a mask or another global
 * constraint only the dp keeps the map (and count's enum, listing it). */
static const char *instead(const ts_dp *s) {
  const tilesat_map *m = s->map;
  if (!m->nmasked && !tilesat_map_refuse_globals(m, 1u << TILESAT_GLOBAL_BORDER,
                                                 "", NULL, NULL))
    return "use --method approx";
  return strcmp(s->what, "sample")
             ? "count a smaller map (the dp is the one method that counts "
               "these constraints; --method enum keeps them too, listing "
               "every map)"
             : "draw a smaller map (the dp is the one method that keeps "
               "these constraints)";
}

bool ts_dp_reserve(ts_dp *s, size_t bytes, size_t states, tilesat_error *err) {
  while (s->used_memory + bytes > s->max_memory)
    if (!s->make_room || !s->make_room(s)) {
      ts_error(err, s->what, 0,
               "the frontier outgrew --max-memory %zu MiB (%zu states at a "
               "frontier of %d cells): raise --max-memory or %s",
               s->max_memory >> 20, states, s->p.L, instead(s));
      return false;
    }
  s->used_memory += bytes;
  if (s->used_memory - s->stored_memory > s->working_peak)
    s->working_peak = s->used_memory - s->stored_memory;
  return true;
}

/* Layer memory.  Blocks of a MiB or more are mapped from the system, so
 * that freeing one hands it back at once: malloc keeps freed blocks for
 * reuse, and layers that grow and shrink a line at a time then leave a
 * process far larger than its layers. */
#define BIG_BLOCK ((size_t)1 << 20)

static void *block_alloc(size_t bytes) { /* zeroed; NULL if none */
  if (bytes < BIG_BLOCK)
    return calloc(1, bytes ? bytes : 1);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  return p;
}

static void block_free(void *p, size_t bytes) {
  if (p && bytes < BIG_BLOCK)
    free(p);
  else if (p)
    munmap(p, bytes);
}

/* p (`old` bytes) with room for `bytes`, its first `keep` bytes kept; NULL
 * if none (p is then still there).  A mapped block with contents to keep
 * is moved by its pages (mremap), not copied: a copy would hold the layer
 * twice for a while, past what --max-memory counts. */
static void *block_resize(void *p, size_t old, size_t keep, size_t bytes) {
  if (p && old < BIG_BLOCK && bytes < BIG_BLOCK)
    return realloc(p, bytes ? bytes : 1);
  if (p && keep && old >= BIG_BLOCK && bytes >= BIG_BLOCK) {
    void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
  }
  void *q = block_alloc(bytes);
  if (q && p)
    memcpy(q, p, keep);
  if (q)
    block_free(p, old);
  return q;
}

/* What a layer takes: its index, and the entries written so far (pages of
 * the room never written take no memory). */
size_t ts_dp_layer_bytes(const ts_dp_layer *l) {
  return l->cap * sizeof *l->index + l->touched * l->entry;
}

void ts_dp_layer_release(ts_dp *s, ts_dp_layer *l) {
  s->used_memory -= ts_dp_layer_bytes(l);
  block_free(l->index, l->cap * sizeof *l->index);
  block_free(l->mem, l->room * l->entry);
  memset(l, 0, sizeof *l);
}

/* l's index with `cap` slots, empty (states: for the message if that
 * outgrows the memory bound). */
static bool index_prepare(ts_dp *s, ts_dp_layer *l, size_t cap, size_t states,
                          tilesat_error *err) {
  if (l->cap == cap) {
    memset(l->index, 0, cap * sizeof *l->index);
    return true;
  }
  s->used_memory -= l->cap * sizeof *l->index;
  block_free(l->index, l->cap * sizeof *l->index);
  l->index = NULL;
  l->cap = 0;
  if (!ts_dp_reserve(s, cap * sizeof *l->index, states, err))
    return false;
  if (!(l->index = block_alloc(cap * sizeof *l->index))) {
    s->used_memory -= cap * sizeof *l->index;
    ts_error(err, s->what, 0, "out of memory for %zu frontier states", cap);
    return false;
  }
  l->cap = cap;
  return true;
}

/* l's entries with room for `room` of `entry` bytes, the l->n there kept
 * (and written again: they are all the new block's touched ones). */
static bool entries_resize(ts_dp *s, ts_dp_layer *l, size_t room, size_t entry,
                           tilesat_error *err) {
  unsigned char *mem =
      block_resize(l->mem, l->room * l->entry, l->n * l->entry, room * entry);
  if (!mem) {
    ts_error(err, s->what, 0, "out of memory for %zu frontier states", room);
    return false;
  }
  s->used_memory -= l->touched * l->entry;
  s->used_memory += l->n * entry;
  l->touched = l->n;
  l->mem = mem;
  l->room = room;
  l->entry = entry;
  return true;
}

/* Account for the entries written past those counted, a few at a time. */
static bool touch(ts_dp *s, ts_dp_layer *l, tilesat_error *err) {
  size_t more = l->touched / 8 + 4096 / l->entry + 1;
  more = l->touched + more < l->room ? more : l->room - l->touched;
  if (!ts_dp_reserve(s, more * l->entry, l->n, err))
    return false;
  l->touched += more;
  return true;
}

/* An empty layer with `cap` index slots and room for `room` entries,
 * reusing l's memory when it fits; built from a layer of `states`. */
bool ts_dp_layer_prepare(ts_dp *s, ts_dp_layer *l, size_t cap, size_t room,
                         int nlimbs, size_t states, tilesat_error *err) {
  size_t entry = entry_bytes(s, nlimbs);
  room = room < MAX_ENTRIES ? room : MAX_ENTRIES;
  l->n = 0;
  l->nlimbs = nlimbs;
  if (!(l->mem && l->entry == entry && l->room >= room &&
        l->room <= room + room / 4) &&
      !entries_resize(s, l, room, entry, err))
    return false; /* (with nothing to keep, no copy) */
  return index_prepare(s, l, cap, states, err);
}

/* A layer being read needs no index: the working layer built next takes
 * it over (one index between the two). */
void ts_dp_layer_pass_index(ts_dp_layer *from, ts_dp_layer *to) {
  uint64_t *index = to->index;
  size_t cap = to->cap;
  to->index = from->index;
  to->cap = from->cap;
  from->index = index;
  from->cap = cap;
}

/* The index slot of key in l: the matching entry's, or the empty one to
 * fill. */
static inline bool same_key(const uint64_t *a, const uint64_t *b, int words) {
  for (int w = 0; w < words; w++)
    if (a[w] != b[w])
      return false;
  return true;
}

static uint64_t *layer_find(const ts_dp_layer *l, const uint64_t *key,
                            int words, uint64_t h) {
  size_t i = home(h, l->cap);
  uint64_t tag = h >> 32;
  for (;;) {
    uint64_t slot = l->index[i];
    if (slot == 0 || ((slot >> 32) == tag &&
                      same_key(entry_key(l, slot_entry(slot)), key, words)))
      return &l->index[i];
    if (++i == l->cap)
      i = 0;
  }
}

/* The entry of key in l, or -1. */
long ts_dp_layer_lookup(const ts_dp_layer *l, const uint64_t *key, int words) {
  uint64_t slot = *layer_find(l, key, words, ts_dp_hash_key(key, words));
  return slot ? (long)slot_entry(slot) : -1;
}

/* Grow the index by half (keeping load under 3/4), or the entries'
 * room. */
static bool layer_grow(ts_dp *s, ts_dp_layer *l, tilesat_error *err) {
  int words = s->p.keywords;
  if (OVERLOADED(l)) {
    size_t cap = l->cap + l->cap / 2;
    if (!index_prepare(s, l, cap, l->n, err))
      return false;
    for (size_t e = 0; e < l->n; e++) {
      const uint64_t *key = entry_key(l, e);
      uint64_t h = ts_dp_hash_key(key, words);
      *layer_find(l, key, words, h) = slot_of(h, e);
    }
  }
  if (l->n == l->room) {
    if (l->room >= MAX_ENTRIES) {
      ts_error(err, s->what, 0,
               "the frontier outgrew the DP's %zu states a layer (at a "
               "frontier of %d cells): %s",
               (size_t)MAX_ENTRIES, s->p.L, instead(s));
      return false;
    }
    size_t room = l->room + l->room / 2 + 16;
    if (!entries_resize(s, l, room < MAX_ENTRIES ? room : MAX_ENTRIES, l->entry,
                        err))
      return false;
  }
  return true;
}

/* count(key) += add * mult, where add has n limbs and fits l->nlimbs.  The
 * widths come from a bound on the layer's total, so a carry out of the top
 * limb is a bug: it is reported, never a silently wrong count. */
static bool layer_add_hashed(ts_dp *s, ts_dp_layer *l, const uint64_t *key,
                             uint64_t h, const mp_limb_t *add, int n,
                             mp_limb_t mult, tilesat_error *err) {
  if ((OVERLOADED(l) || l->n == l->room) && !layer_grow(s, l, err))
    return false;
  /* A layer's total can drop well below the one before's (dead ends), so
   * this layer may be narrower than the one `add` comes from: add's high
   * limbs are then zero, and must not be written past the entry. */
  for (; n > l->nlimbs; n--)
    if (add[n - 1]) {
      ts_error(err, NULL, 0, "internal error: a count outgrew its %d limbs",
               l->nlimbs);
      return false;
    }
  int words = s->p.keywords;
  uint64_t *slot = layer_find(l, key, words, h);
  mp_limb_t *c, carry;
  int top = l->nlimbs - n;
  if (!*slot) {
    size_t e = l->n++;
    if (l->n > l->touched && !touch(s, l, err))
      return false;
    *slot = slot_of(h, e);
    memcpy(entry_key(l, e), key, (size_t)words * 8);
    c = entry_count(s, l, e);
    carry = mpn_mul_1(c, add, n, mult);
    if (top > 0)
      memset(c + n, 0, (size_t)top * sizeof *c);
  } else {
    c = entry_count(s, l, slot_entry(*slot));
    carry = mult == 1 ? mpn_add_n(c, c, add, n) : mpn_addmul_1(c, add, n, mult);
  }
  if (carry && top > 0)
    carry = mpn_add_1(c + n, c + n, top, carry);
  if (carry) {
    ts_error(err, NULL, 0, "internal error: a count outgrew its %d limbs",
             l->nlimbs);
    return false;
  }
  return true;
}

static bool layer_add(ts_dp *s, ts_dp_layer *l, const uint64_t *key,
                      const mp_limb_t *add, int n, mp_limb_t mult,
                      tilesat_error *err) {
  return layer_add_hashed(s, l, key, ts_dp_hash_key(key, s->p.keywords), add, n,
                          mult, err);
}

/* A stored layer: the entries only, exactly as many as there are. */
bool ts_dp_layer_store(ts_dp *s, const ts_dp_layer *l, ts_dp_layer *out,
                       tilesat_error *err) {
  memset(out, 0, sizeof *out);
  size_t bytes = l->n * l->entry;
  s->stored_memory += bytes;
  if (!ts_dp_reserve(s, bytes, l->n, err)) {
    s->stored_memory -= bytes;
    return false;
  }
  out->n = out->room = out->touched = l->n;
  out->entry = l->entry;
  out->nlimbs = l->nlimbs;
  if (!(out->mem = block_alloc(bytes))) {
    s->stored_memory -= bytes;
    ts_dp_layer_release(s, out);
    ts_error(err, s->what, 0, "out of memory for %zu frontier states", l->n);
    return false;
  }
  memcpy(out->mem, l->mem, bytes);
  return true;
}

bool ts_dp_layer_index(ts_dp *s, ts_dp_layer *l, tilesat_error *err) {
  size_t cap = ts_dp_index_slots(l->n);
  s->stored_memory += cap * sizeof *l->index;
  if (!ts_dp_reserve(s, cap * sizeof *l->index, l->n, err)) {
    s->stored_memory -= cap * sizeof *l->index;
    return false;
  }
  if (!(l->index = block_alloc(cap * sizeof *l->index))) {
    s->stored_memory -= cap * sizeof *l->index;
    s->used_memory -= cap * sizeof *l->index;
    ts_error(err, s->what, 0, "out of memory for %zu frontier states", l->n);
    return false;
  }
  l->cap = cap;
  int words = s->p.keywords;
  for (size_t e = 0; e < l->n; e++) {
    const uint64_t *key = entry_key(l, e);
    uint64_t h = ts_dp_hash_key(key, words);
    *layer_find(l, key, words, h) = slot_of(h, e);
  }
  return true;
}

void ts_dp_layer_unindex(ts_dp *s, ts_dp_layer *l) {
  s->used_memory -= l->cap * sizeof *l->index;
  s->stored_memory -= l->cap * sizeof *l->index;
  block_free(l->index, l->cap * sizeof *l->index);
  l->index = NULL;
  l->cap = 0;
}

bool ts_dp_batch_flush(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                       tilesat_error *err) {
  for (int j = 0; j < b->n; j++) {
    uint64_t slot = l->index[home(b->h[j], l->cap)];
    if (slot && (slot >> 32) == b->h[j] >> 32)
      __builtin_prefetch(entry_key(l, slot_entry(slot)));
  }
  int words = s->p.keywords;
  for (int j = 0; j < b->n; j++)
    if (!layer_add_hashed(s, l, b->keys + (size_t)j * (size_t)words, b->h[j],
                          b->add[j], b->nlimbs[j], b->mult[j], err))
      return false;
  b->n = 0;
  return true;
}

bool ts_dp_batch_push(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                      const mp_limb_t *add, int nlimbs, mp_limb_t mult,
                      tilesat_error *err) {
  return ts_dp_batch_push_hashed(
      s, l, b, ts_dp_hash_key(ts_dp_batch_key(s, b), s->p.keywords), add,
      nlimbs, mult, err);
}

bool ts_dp_batch_push_hashed(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                             uint64_t h, const mp_limb_t *add, int nlimbs,
                             mp_limb_t mult, tilesat_error *err) {
  __builtin_prefetch(&l->index[home(h, l->cap)]);
  b->h[b->n] = h;
  b->add[b->n] = add;
  b->nlimbs[b->n] = nlimbs;
  b->mult[b->n] = mult;
  return ++b->n < TS_DP_BATCH || ts_dp_batch_flush(s, l, b, err);
}

bool ts_dp_layer_add(ts_dp *s, ts_dp_layer *l, const uint64_t *key,
                     const mp_limb_t *add, int n, tilesat_error *err) {
  return layer_add(s, l, key, add, n, 1, err);
}
