/* dp.c: exact counting and uniform sampling by a frontier dynamic programme.
 *
 * Cells are processed one at a time in a fixed order (row-major or
 * column-major, whichever keeps the frontier smaller).  When a cell is
 * placed, every constraint to a neighbour placed earlier is checked; a
 * neighbour placed later checks the pair itself.  So a state only needs the
 * tiles of the cells that still have a later neighbour: the last K cells of
 * the order (a sliding window), plus, on periodic maps, the "anchor" cells
 * whose wrap-around neighbour comes much later (the first row or column).
 * K and the anchors are computed from the order and the topology, so square
 * and hex, open and periodic maps, all run through the same loop.
 *
 * A layer maps each reachable state to its number of partial maps, in a hash
 * table of fixed-size entries: the key (one byte per tile, T <= 255) and a
 * fixed-width natural number (GMP mpn limbs, wide enough for T^cells), so
 * no allocation happens per state.  Counting keeps two layers; sampling
 * keeps them all and walks back from the last, choosing each predecessor
 * with probability count(predecessor) / count(state): exactly uniform. */
#include "core/rng.h"
#include "count/count.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#define DP_MAX_TILES 255

typedef struct plan {
  int ncells, T, K, nanchor, L; /* L: key bytes = K + nanchor */
  int keywords;                 /* L rounded up to 8-byte words */
  int *cell;                    /* position -> cell */
  /* earlier neighbours of each position: [nb_start[p], nb_start[p+1]) */
  int *nb_start, *nb_slot, *nb_dir; /* key slot (-1: the cell itself) */
  int *nb_pos;                      /* the neighbour's position */
  int *anchor_slot;                 /* position -> slot if an anchor, or -1 */
  int *pin;                         /* position -> pinned tile, -1, or -2 */
  uint64_t *ban; /* position -> (T+63)/64 words of banned tiles, or NULL */
  /* A cell's "pending" set: the directions whose neighbour is not placed
   * yet.  It shrinks as neighbours are placed, and the cell's class (see
   * struct dp) depends on it alone.  place_mask[i]: cell i's pending set
   * when it is placed; nb_mask[k]: the neighbour's pending set just before
   * position i (the class its key byte holds then). */
  int *place_mask, *nb_mask;
  /* Earlier cells whose pending set shrinks when position i is placed:
   * [rm_start[i], rm_start[i+1]), each with the key slots that hold it
   * after the step (window, anchor; -1 if none) and its sets before and
   * after. */
  int *rm_start, *rm_wslot, *rm_aslot, *rm_from, *rm_to;
} plan;

static void plan_free(plan *p) {
  free(p->cell);
  free(p->nb_start);
  free(p->nb_slot);
  free(p->nb_dir);
  free(p->nb_pos);
  free(p->anchor_slot);
  free(p->pin);
  free(p->ban);
  free(p->place_mask);
  free(p->nb_mask);
  free(p->rm_start);
  free(p->rm_wslot);
  free(p->rm_aslot);
  free(p->rm_from);
  free(p->rm_to);
}

/* The directions of `cell` whose neighbour comes after position `after`. */
static int pending_mask(const tilesat_map *m, const int *pos, int cell,
                        int after) {
  int mask = 0;
  for (int d = 0; d < m->rules->ndirs; d++) {
    int nb = ts_map_neighbor(m, cell, d);
    if (nb >= 0 && pos[nb] > after)
      mask |= 1 << d;
  }
  return mask;
}

/* The key window K (the largest gap to an earlier neighbour, leaving out
 * the long wrap-around edges, gap > 2 lines, whose earlier ends become
 * anchors) and the anchors' slots after it. */
static void plan_window(const tilesat_map *m, const int *pos, int stride,
                        plan *p) {
  int n = p->ncells, K = 0;
  bool *anchor = ts_calloc((size_t)n, sizeof *anchor);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int nb = ts_map_neighbor(m, p->cell[i], d);
      if (nb < 0 || pos[nb] >= i)
        continue;
      int gap = i - pos[nb];
      if (gap > 2 * stride)
        anchor[pos[nb]] = true;
      else if (gap > K)
        K = gap;
    }
  p->K = K > 0 ? K : 1; /* the last placed tile always stays in the key */
  K = p->K;
  p->anchor_slot = ts_malloc((size_t)n * sizeof *p->anchor_slot);
  for (int i = 0; i < n; i++)
    p->anchor_slot[i] = anchor[i] ? K + p->nanchor++ : -1;
  p->L = K + p->nanchor;
  p->keywords = (p->L + 7) / 8;
  free(anchor);
}

/* Position i's earlier (or own) neighbours: key slot, direction and
 * position. */
static void neighbours_at(const tilesat_map *m, const int *pos, int stride,
                          int i, const plan *p, ts_ints *slots, ts_ints *dirs,
                          ts_ints *npos) {
  for (int d = 0; d < m->rules->ndirs; d++) {
    int nb = ts_map_neighbor(m, p->cell[i], d);
    if (nb < 0 || pos[nb] > i)
      continue;
    int gap = i - pos[nb];
    int slot = gap == 0           ? -1
               : gap > 2 * stride ? p->anchor_slot[pos[nb]]
                                  : p->K - gap;
    TS_PUSH(*slots, slot);
    TS_PUSH(*dirs, d);
    TS_PUSH(*npos, pos[nb]);
  }
}

static void plan_neighbours(const tilesat_map *m, const int *pos, int stride,
                            plan *p) {
  int n = p->ncells;
  p->nb_start = ts_malloc((size_t)(n + 1) * sizeof *p->nb_start);
  ts_ints slots = {0}, dirs = {0}, npos = {0};
  for (int i = 0; i < n; i++) {
    p->nb_start[i] = (int)slots.n;
    neighbours_at(m, pos, stride, i, p, &slots, &dirs, &npos);
  }
  p->nb_start[n] = (int)slots.n;
  p->nb_slot = slots.v;
  p->nb_dir = dirs.v;
  p->nb_pos = npos.v;
}

/* Whether neighbour k of position i is the same cell as an earlier one. */
static bool seen_before(const plan *p, int i, int k) {
  for (int l = p->nb_start[i]; l < k; l++)
    if (p->nb_pos[l] == p->nb_pos[k])
      return true;
  return false;
}

static void push_removal(ts_ints rm[4], int wslot, int aslot, int from,
                         int to) {
  TS_PUSH(rm[0], wslot);
  TS_PUSH(rm[1], aslot);
  TS_PUSH(rm[2], from);
  TS_PUSH(rm[3], to);
}

/* What placing position i takes out of the key: each earlier neighbour
 * once, its window and anchor slots (rm[0], rm[1]) and its pending mask
 * before and after (rm[2], rm[3]); and the neighbours' masks before it. */
static void removals_at(const tilesat_map *m, const int *pos, int i, plan *p,
                        ts_ints rm[4]) {
  int K = p->K;
  for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++) {
    int j = p->nb_pos[k];
    p->nb_mask[k] = pending_mask(m, pos, p->cell[j], i - 1);
    if (j == i || seen_before(p, i, k))
      continue;      /* the cell itself is not in the key yet */
    int gap = i - j; /* j's window slot after the shift: K - 1 - gap */
    int wslot = gap <= K - 1 ? K - 1 - gap : -1;
    push_removal(rm, wslot, p->anchor_slot[j], p->nb_mask[k],
                 pending_mask(m, pos, p->cell[j], i));
  }
}

static void plan_masks(const tilesat_map *m, const int *pos, plan *p) {
  int n = p->ncells;
  size_t nslots = (size_t)p->nb_start[n];
  p->place_mask = ts_malloc((size_t)n * sizeof *p->place_mask);
  p->nb_mask = ts_malloc((nslots + 1) * sizeof *p->nb_mask);
  p->rm_start = ts_malloc((size_t)(n + 1) * sizeof *p->rm_start);
  ts_ints rm[4] = {{0}, {0}, {0}, {0}};
  for (int i = 0; i < n; i++) {
    p->place_mask[i] = pending_mask(m, pos, p->cell[i], i);
    p->rm_start[i] = (int)rm[0].n;
    removals_at(m, pos, i, p, rm);
  }
  p->rm_start[n] = (int)rm[0].n;
  p->rm_wslot = rm[0].v;
  p->rm_aslot = rm[1].v;
  p->rm_from = rm[2].v;
  p->rm_to = rm[3].v;
}

/* Build the plan for one order (row-major or column-major). */
static void plan_build(const tilesat_map *m, bool column_major, plan *p) {
  int n = m->ncells, W = m->width, H = m->height;
  memset(p, 0, sizeof *p);
  p->ncells = n;
  p->T = m->rules->ntiles;
  p->cell = ts_malloc((size_t)n * sizeof *p->cell);
  int *pos = ts_malloc((size_t)n * sizeof *pos);
  for (int i = 0; i < n; i++) {
    int cell = column_major ? (i % H) * W + i / H : i;
    p->cell[i] = cell;
    pos[cell] = i;
  }
  int stride = column_major ? H : W;
  plan_window(m, pos, stride, p);
  plan_neighbours(m, pos, stride, p);
  plan_masks(m, pos, p);
  p->pin = ts_malloc((size_t)n * sizeof *p->pin);
  for (int i = 0; i < n; i++)
    p->pin[i] = -1;
  for (size_t k = 0; k < m->pins.n; k++) {
    int *slot = &p->pin[pos[m->pins.v[k].cell]];
    int t = m->pins.v[k].tile;
    *slot = (*slot == -1 || *slot == t) ? t : -2; /* two pins: no tile */
  }
  size_t tw = (size_t)(p->T + 63) / 64;
  p->ban = m->bans.n ? ts_calloc((size_t)n * tw, sizeof *p->ban) : NULL;
  for (size_t k = 0; k < m->bans.n; k++) {
    int t = m->bans.v[k].tile;
    p->ban[(size_t)pos[m->bans.v[k].cell] * tw + (size_t)(t >> 6)] |=
        (uint64_t)1 << (t & 63);
  }
  free(pos);
}

/* ------------------------------------------------------------ hash layer */

/* Entries are numbered 1.. in the index's low 32 bits. */
#define MAX_ENTRIES 0xffffffffu

/* An index slot: the hash's high half as a tag, and entry e + 1. */
static inline uint64_t slot_of(uint64_t h, size_t e) {
  return (h >> 32) << 32 | (e + 1);
}
static inline size_t slot_entry(uint64_t slot) {
  return (size_t)(slot & 0xffffffffu) - 1;
}

/* A layer is a dense array of entries (key words, then the count's limbs)
 * in insertion order, and an open-addressing index over it: 8 bytes a slot,
 * the hash's high half as a tag and the entry's number.  Probing touches
 * only the index, which is a few times smaller than the entries and mostly
 * stays in cache; an entry is read only when its tag matches. */
typedef struct layer {
  size_t cap;      /* index slots, a power of two */
  size_t n;        /* entries */
  size_t room;     /* entries allocated */
  size_t entry;    /* bytes per entry */
  int nlimbs;      /* width of the counts: enough for the layer's total */
  uint64_t *index; /* tag << 32 | (entry + 1), or 0 when empty */
  unsigned char *mem;
} layer;

typedef struct dp {
  const tilesat_map *map;
  plan p;
  int lgT; /* ceil(log2 T): a partial map extends in at most 2^lgT ways */
  size_t max_memory, used_memory;
  uint64_t *compat; /* [dir][u][words]: tiles t with t allowing u in dir */
  /* A placed tile is kept in the key as its class: tiles with the same
   * allowed sets in every direction that still has a neighbour to come are
   * interchangeable for the rest of the count, so their states merge.  The
   * class is coarsened each time one of those neighbours is placed (a cell
   * with none left is class 0), so the key keeps only what the cells still
   * to come can tell apart: for edge-matched tilesets, the socket of each
   * frontier edge rather than the tile.  cls[mask*T + t]: the class of t
   * for the pending set `mask`; rep[mask*T + c]: a tile of class c.
   * Sampling must recover tiles: classes are then tiles. */
  unsigned char *cls;
  int *rep;
  int twords;
  const tilesat_solve_options *solve; /* its terminate */
  tilesat_progress_fn progress;
  void *progress_user;
  layer *layers; /* all layers when sampling, else two */
  bool keep_all;
  const char *what;   /* "count" or "sample", for messages */
  size_t last_states; /* states in the last layer built */
} dp;

static inline uint64_t *entry_key(const layer *l, size_t i) {
  return (uint64_t *)(l->mem + i * l->entry);
}

/* A cheap multiply-xor hash.  A full finalizer (fmix64) was measured 1.5-3x
 * slower here: similar keys then land far apart and every insert misses the
 * cache, while this one keeps some locality between neighbouring states. */
static uint64_t hash_key(const uint64_t *key, int words) {
  uint64_t h = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < words; i++) {
    h ^= key[i];
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return h | 1; /* 0 marks an empty slot */
}

static size_t entry_bytes(const dp *s, int nlimbs) {
  return (size_t)s->p.keywords * 8 + (size_t)nlimbs * sizeof(mp_limb_t);
}

/* Take `bytes` more of the memory bound, or say that the frontier outgrew
 * it. */
static bool reserve(dp *s, size_t bytes, size_t states, tilesat_error *err) {
  if (s->used_memory + bytes > s->max_memory) {
    ts_error(err, s->what, 0,
             "the frontier outgrew --max-memory %zu MiB (%zu states at a "
             "frontier of %d cells): raise --max-memory or use --method "
             "approx",
             s->max_memory >> 20, states, s->p.L);
    return false;
  }
  s->used_memory += bytes;
  return true;
}

static void layer_release(dp *s, layer *l) {
  s->used_memory -= l->cap * sizeof *l->index + l->room * l->entry;
  free(l->index);
  free(l->mem);
  memset(l, 0, sizeof *l);
}

/* An empty layer with `cap` index slots, reusing l's memory when it fits. */
static bool layer_prepare(dp *s, layer *l, size_t cap, int nlimbs,
                          tilesat_error *err) {
  if (l->index && l->nlimbs == nlimbs && l->cap >= cap && l->cap <= 4 * cap) {
    memset(l->index, 0, l->cap * sizeof *l->index);
    l->n = 0;
    return true;
  }
  size_t states = l->n;
  layer_release(s, l);
  size_t room = cap / 2 < MAX_ENTRIES ? cap / 2 : MAX_ENTRIES;
  size_t entry = entry_bytes(s, nlimbs);
  if (!reserve(s, cap * sizeof *l->index + room * entry, states, err))
    return false;
  l->cap = cap;
  l->room = room;
  l->entry = entry;
  l->nlimbs = nlimbs;
  l->index = calloc(cap, sizeof *l->index);
  l->mem = malloc(room * entry);
  if (!l->index || !l->mem) {
    ts_error(err, s->what, 0, "out of memory for %zu frontier states", room);
    return false;
  }
  return true;
}

/* The index slot of key in l: the matching entry's, or the empty one to
 * fill. */
static uint64_t *layer_find(const layer *l, const uint64_t *key, int words,
                            uint64_t h) {
  size_t mask = l->cap - 1, i = (size_t)h & mask;
  uint64_t tag = h >> 32;
  for (;;) {
    uint64_t slot = l->index[i];
    if (slot == 0 ||
        ((slot >> 32) == tag &&
         !memcmp(entry_key(l, slot_entry(slot)), key, (size_t)words * 8)))
      return &l->index[i];
    i = (i + 1) & mask;
  }
}

/* The entry of key in l, or -1. */
static long layer_lookup(const layer *l, const uint64_t *key, int words) {
  uint64_t slot = *layer_find(l, key, words, hash_key(key, words));
  return slot ? (long)slot_entry(slot) : -1;
}

/* Double the index (keeping load under 1/2), or the entries' room. */
static bool layer_grow(dp *s, layer *l, tilesat_error *err) {
  int words = s->p.keywords;
  if (2 * (l->n + 1) > l->cap) {
    size_t cap = 2 * l->cap;
    uint64_t *index = calloc(cap, sizeof *index);
    if (!reserve(s, l->cap * sizeof *index, l->n, err)) {
      free(index);
      return false;
    }
    if (!index) {
      ts_error(err, s->what, 0, "out of memory for %zu frontier states", l->n);
      return false;
    }
    free(l->index);
    l->index = index;
    l->cap = cap;
    for (size_t e = 0; e < l->n; e++) {
      const uint64_t *key = entry_key(l, e);
      uint64_t h = hash_key(key, words);
      *layer_find(l, key, words, h) = slot_of(h, e);
    }
  }
  if (l->n == l->room) {
    if (l->room >= MAX_ENTRIES) {
      ts_error(err, s->what, 0,
               "the frontier outgrew the DP's %zu states a layer (at a "
               "frontier of %d cells): use --method approx",
               (size_t)MAX_ENTRIES, s->p.L);
      return false;
    }
    size_t room = 2 * l->room < MAX_ENTRIES ? 2 * l->room : MAX_ENTRIES;
    if (!reserve(s, l->room * l->entry, l->n, err))
      return false;
    unsigned char *mem = realloc(l->mem, room * l->entry);
    if (!mem) {
      ts_error(err, s->what, 0, "out of memory for %zu frontier states", room);
      return false;
    }
    l->mem = mem;
    l->room = room;
  }
  return true;
}

static inline mp_limb_t *entry_count(const dp *s, const layer *l, size_t i) {
  return (mp_limb_t *)(entry_key(l, i) + s->p.keywords);
}

/* count(key) += add * mult, where add has n limbs and fits l->nlimbs.  The
 * widths come from a bound on the layer's total, so a carry out of the top
 * limb is a bug: it is reported, never a silently wrong count. */
static bool layer_add_hashed(dp *s, layer *l, const uint64_t *key, uint64_t h,
                             const mp_limb_t *add, int n, mp_limb_t mult,
                             tilesat_error *err) {
  if ((2 * (l->n + 1) > l->cap || l->n == l->room) && !layer_grow(s, l, err))
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

static bool layer_add(dp *s, layer *l, const uint64_t *key,
                      const mp_limb_t *add, int n, mp_limb_t mult,
                      tilesat_error *err) {
  return layer_add_hashed(s, l, key, hash_key(key, s->p.keywords), add, n, mult,
                          err);
}

/* Additions are queued and applied in batches: the index slots of a whole
 * batch are prefetched as it is queued, then the entries whose tags match,
 * so the cache misses of a batch overlap instead of following each other. */
#define BATCH 32

typedef struct batch {
  int n;
  uint64_t *keys; /* BATCH keys */
  uint64_t h[BATCH];
  const mp_limb_t *add[BATCH];
  int nlimbs[BATCH];
  mp_limb_t mult[BATCH];
} batch;

static bool batch_flush(dp *s, layer *l, batch *b, tilesat_error *err) {
  size_t mask = l->cap - 1;
  for (int j = 0; j < b->n; j++) {
    uint64_t slot = l->index[b->h[j] & mask];
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

/* The next queue slot's key, to be filled before batch_push. */
static uint64_t *batch_key(const dp *s, batch *b) {
  return b->keys + (size_t)b->n * (size_t)s->p.keywords;
}

static bool batch_push(dp *s, layer *l, batch *b, const mp_limb_t *add,
                       int nlimbs, mp_limb_t mult, tilesat_error *err) {
  uint64_t h = hash_key(batch_key(s, b), s->p.keywords);
  __builtin_prefetch(&l->index[h & (l->cap - 1)]);
  b->h[b->n] = h;
  b->add[b->n] = add;
  b->nlimbs[b->n] = nlimbs;
  b->mult[b->n] = mult;
  return ++b->n < BATCH || batch_flush(s, l, b, err);
}

/* -------------------------------------------------------------- the DP */

static void dp_free(dp *s) {
  if (s->layers) {
    size_t n = s->keep_all ? (size_t)s->p.ncells + 1 : 2;
    for (size_t i = 0; i < n; i++)
      layer_release(s, &s->layers[i]);
  }
  free(s->layers);
  free(s->compat);
  free(s->cls);
  free(s->rep);
}

/* Which tiles may stand at position i given the state's earlier
 * neighbours: an AND of compat masks. */
static void candidates(const dp *s, int i, const unsigned char *key,
                       uint64_t *mask) {
  const plan *p = &s->p;
  int tw = s->twords;
  for (int w = 0; w < tw; w++)
    mask[w] = ~(uint64_t)0;
  if (p->T % 64)
    mask[tw - 1] = ((uint64_t)1 << (p->T % 64)) - 1;
  if (p->pin[i] != -1) {
    for (int w = 0; w < tw; w++)
      mask[w] = 0;
    if (p->pin[i] >= 0)
      mask[p->pin[i] >> 6] = (uint64_t)1 << (p->pin[i] & 63);
  }
  if (p->ban) /* banned tiles never stand here (tilesat_map_ban) */
    for (int w = 0; w < tw; w++)
      mask[w] &= ~p->ban[(size_t)i * (size_t)tw + (size_t)w];
  for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++) {
    int slot = p->nb_slot[k];
    if (slot < 0)
      continue; /* the cell is its own neighbour: checked per tile */
    int u = s->rep[(size_t)p->nb_mask[k] * (size_t)p->T + key[slot]];
    const uint64_t *c =
        s->compat +
        ((size_t)p->nb_dir[k] * (size_t)p->T + (size_t)u) * (size_t)tw;
    for (int w = 0; w < tw; w++)
      mask[w] &= c[w];
  }
}

static bool self_ok(const dp *s, int i, int t) {
  const tilesat_rules *r = s->map->rules;
  for (int k = s->p.nb_start[i]; k < s->p.nb_start[i + 1]; k++)
    if (s->p.nb_slot[k] < 0 && !ts_bit(ts_allowed(r, t, s->p.nb_dir[k]), t))
      return false;
  return true;
}

/* The state after placing tile t at position i. */
static void next_key(const dp *s, int i, const unsigned char *key, int t,
                     unsigned char *out) {
  const plan *p = &s->p;
  memset(out, 0, (size_t)p->keywords * 8);
  size_t T = (size_t)p->T;
  unsigned char c = s->cls[(size_t)p->place_mask[i] * T + (size_t)t];
  memcpy(out, key + 1, (size_t)p->K - 1);
  out[p->K - 1] = c;
  memcpy(out + p->K, key + p->K, (size_t)p->nanchor);
  if (p->anchor_slot[i] >= 0)
    out[p->anchor_slot[i]] = c;
  /* earlier neighbours now have one pending direction less: coarsen */
  for (int r = p->rm_start[i]; r < p->rm_start[i + 1]; r++) {
    const unsigned char *to = s->cls + (size_t)p->rm_to[r] * T;
    const int *from = s->rep + (size_t)p->rm_from[r] * T;
    if (p->rm_wslot[r] >= 0)
      out[p->rm_wslot[r]] = to[from[out[p->rm_wslot[r]]]];
    if (p->rm_aslot[r] >= 0)
      out[p->rm_aslot[r]] = to[from[out[p->rm_aslot[r]]]];
  }
}

/* Tile classes for every pending set (see struct dp); with merge false,
 * every tile is its own class. */
static void make_classes(dp *s, bool merge) {
  const tilesat_rules *r = s->map->rules;
  int T = s->p.T, nmasks = 1 << r->ndirs;
  size_t words = (size_t)r->words;
  s->cls = ts_malloc((size_t)nmasks * (size_t)T);
  s->rep = ts_malloc((size_t)nmasks * (size_t)T * sizeof *s->rep);

  for (int mask = 0; mask < nmasks; mask++) {
    unsigned char *cls = s->cls + (size_t)mask * (size_t)T;
    int *rep = s->rep + (size_t)mask * (size_t)T;
    int nclasses = 0;
    for (int t = 0; t < T; t++) {
      int c = nclasses;
      for (int k = 0; merge && k < nclasses && c == nclasses; k++) {
        bool same = true;
        for (int d = 0; d < r->ndirs && same; d++)
          same =
              !(mask >> d & 1) ||
              !memcmp(ts_allowed(r, t, d), ts_allowed(r, rep[k], d), words * 8);
        if (same)
          c = k;
      }
      if (c == nclasses)
        rep[nclasses++] = t;
      cls[t] = (unsigned char)c;
    }
  }
}

/* A DP over the chosen plan (borrowed: the caller frees it). */
static void dp_setup(dp *s, const tilesat_map *m,
                     const tilesat_count_options *o, const plan *chosen,
                     bool keep_all, const char *what) {
  memset(s, 0, sizeof *s);
  const tilesat_rules *r = m->rules;
  int T = r->ntiles;
  s->map = m;
  s->keep_all = keep_all;
  s->what = what;
  s->solve = &o->solve;
  s->progress = o->progress;
  s->progress_user = o->progress_user;
  /* the map's bound (--max-memory) holds here too */
  s->max_memory = o->max_memory < m->max_memory ? o->max_memory : m->max_memory;
  s->p = *chosen;
  while ((1 << s->lgT) < T)
    s->lgT++;
  s->twords = (T + 63) / 64;
  s->compat = ts_calloc((size_t)r->ndirs * (size_t)T * (size_t)s->twords,
                        sizeof *s->compat);
  for (int d = 0; d < r->ndirs; d++)
    for (int u = 0; u < T; u++)
      for (int t = 0; t < T; t++)
        if (ts_bit(ts_allowed(r, t, d), u))
          s->compat[((size_t)d * (size_t)T + (size_t)u) * (size_t)s->twords +
                    (size_t)(t >> 6)] |= (uint64_t)1 << (t & 63);
  make_classes(s, !keep_all);
  size_t nlayers = keep_all ? (size_t)m->ncells + 1 : 2;
  s->layers = ts_calloc(nlayers, sizeof *s->layers);
}

/* dp_run's buffers for one position, reused from one to the next. */
typedef struct run_scratch {
  /* The total of the layer being built, summed as it is built; the layer
   * after it is sized for at most 2^lgT times that. */
  mpz_t total;
  uint64_t *mask;   /* candidate tiles of the state at hand */
  uint64_t *selfok; /* tiles the position's own wrap-around edges allow */
  batch b;
  /* per state: the candidate tiles of each class, and the classes met */
  mp_limb_t *mult;
  int *used, *first;
} run_scratch;

/* Extend state e of `cur` by every tile position i takes, into `next`. */
static bool extend_state(dp *s, int i, const unsigned char *cls,
                         const layer *cur, size_t e, layer *next,
                         run_scratch *w, tilesat_error *err) {
  const unsigned char *k = (const unsigned char *)entry_key(cur, e);
  candidates(s, i, k, w->mask);
  /* tiles of one class lead to the same state: add the count once,
   * times the number of candidate tiles in the class */
  const mp_limb_t *count = entry_count(s, cur, e);
  unsigned long extensions = 0;
  int nclasses = 0;
  for (int wd = 0; wd < s->twords; wd++)
    for (uint64_t bits = w->mask[wd] & w->selfok[wd]; bits; bits &= bits - 1) {
      int t = wd * 64 + __builtin_ctzll(bits);
      int c = cls[t];
      if (!w->mult[c]++) {
        w->used[nclasses++] = c;
        w->first[c] = t;
      }
    }
  for (int j = 0; j < nclasses; j++) {
    int c = w->used[j];
    extensions += w->mult[c];
    next_key(s, i, k, w->first[c], (unsigned char *)batch_key(s, &w->b));
    if (!batch_push(s, next, &w->b, count, cur->nlimbs, w->mult[c], err))
      return false;
    w->mult[c] = 0;
  }
  mpz_t view;
  mpz_addmul_ui(w->total, mpz_roinit_n(view, count, cur->nlimbs), extensions);
  return true;
}

/* Layer i + 1 from layer i (`cur`): every state extended at position i. */
static bool dp_step(dp *s, int i, const layer *cur, layer *next, run_scratch *w,
                    tilesat_error *err) {
  const plan *p = &s->p;
  /* room for as many states as now at load 1/2: layers rarely shrink or
   * grow much from one cell to the next, so few rehashes */
  size_t want = 16;
  while (want < 2 * cur->n)
    want *= 2;
  size_t width = mpz_sizeinbase(w->total, 2) + (size_t)s->lgT;
  int nlimbs = (int)((width + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
  if (!layer_prepare(s, next, want, nlimbs, err))
    return false;
  mpz_set_ui(w->total, 0);
  const unsigned char *cls = s->cls + (size_t)p->place_mask[i] * (size_t)p->T;
  for (int wd = 0; wd < s->twords; wd++)
    w->selfok[wd] = 0;
  for (int t = 0; t < p->T; t++)
    if (self_ok(s, i, t))
      w->selfok[t >> 6] |= (uint64_t)1 << (t & 63);
  for (size_t e = 0; e < cur->n; e++) {
    if ((e & 0xffff) == 0 && ts_terminated(s->solve)) {
      ts_error(err, s->what, 0, "interrupted");
      return false;
    }
    if (!extend_state(s, i, cls, cur, e, next, w, err))
      return false;
  }
  return batch_flush(s, next, &w->b, err);
}

/* Run the DP over the first `upto` positions, or until a layer holds more
 * than `cap` states (0: no cap; *capped is then set).  Returns 0, or -1
 * with err (memory bound, interrupted). */
static int dp_run(dp *s, int upto, size_t cap, bool *capped,
                  tilesat_error *err) {
  const plan *p = &s->p;
  int n = upto;
  uint64_t *key = ts_calloc((size_t)p->keywords, 8);
  mp_limb_t one = 1;
  run_scratch w = {
      .mask = ts_malloc((size_t)s->twords * sizeof *w.mask),
      .selfok = ts_malloc((size_t)s->twords * sizeof *w.selfok),
      .b = {.keys = ts_calloc(BATCH * (size_t)p->keywords, 8)},
      .mult = ts_calloc((size_t)p->T, sizeof *w.mult),
      .used = ts_malloc((size_t)p->T * sizeof *w.used),
      .first = ts_malloc((size_t)p->T * sizeof *w.first),
  };
  mpz_init_set_ui(w.total, 1);
  int rc = -1;
  layer *cur = &s->layers[0];
  if (!layer_prepare(s, cur, 16, 1, err) ||
      !layer_add(s, cur, key, &one, 1, 1, err))
    goto done;
  for (int i = 0; i < n; i++) {
    if (ts_terminated(s->solve)) {
      ts_error(err, s->what, 0, "interrupted");
      goto done;
    }
    layer *next = &s->layers[s->keep_all ? i + 1 : (i + 1) % 2];
    if (!dp_step(s, i, cur, next, &w, err))
      goto done;
    cur = next;
    s->last_states = cur->n;
    if (cap && cur->n > cap) {
      *capped = true;
      break;
    }
    if (s->progress) {
      char line[128];
      snprintf(line, sizeof line, "dp: cell %d of %d, %zu states, %zu MiB",
               i + 1, n, cur->n, s->used_memory >> 20);
      s->progress(s->progress_user, line);
    }
  }
  rc = 0;
done:
  mpz_clear(w.total);
  free(key);
  free(w.mask);
  free(w.selfok);
  free(w.b.keys);
  free(w.mult);
  free(w.used);
  free(w.first);
  return rc;
}

static const layer *final_layer(const dp *s) {
  return &s->layers[s->keep_all ? s->p.ncells : s->p.ncells % 2];
}

static void layer_total(const dp *s, const layer *l, mpz_t total) {
  mpz_set_ui(total, 0);
  for (size_t e = 0; e < l->n; e++) {
    mpz_t c;
    mpz_add(total, total, mpz_roinit_n(c, entry_count(s, l, e), l->nlimbs));
  }
}

/* Row-major or column-major?  The frontier's length is not the whole
 * story: coast rows are nearly free (about 2.4^W states) while its columns
 * are only L* C? S*.  So when both are possible, run each for two lines
 * with a state cap and keep the one that grew less. */
#define PROBE_CAP 20000

static int choose_plan(const tilesat_map *m, const tilesat_count_options *o,
                       plan *out, tilesat_error *err, const char *what) {
  if (m->rules->ntiles > DP_MAX_TILES) {
    if (!strcmp(what, "sample"))
      ts_error(err, what, 0,
               "exact sampling uses the DP, which handles at most %d tiles "
               "(this rule set has %d): use --method approx",
               DP_MAX_TILES, m->rules->ntiles);
    else
      ts_error(err, what, 0,
               "the DP handles at most %d tiles (this rule set has %d): use "
               "--method enum or approx",
               DP_MAX_TILES, m->rules->ntiles);
    return -1;
  }
  plan pl[2];
  size_t states[2];
  bool capped[2] = {false, false};
  for (int i = 0; i < 2; i++) {
    plan_build(m, i == 1, &pl[i]);
    int stride = i == 1 ? m->height : m->width;
    int upto = 2 * stride < m->ncells ? 2 * stride : m->ncells;
    dp s;
    dp_setup(&s, m, o, &pl[i], false, what);
    int rc = dp_run(&s, upto, PROBE_CAP, &capped[i], err);
    states[i] = s.last_states;
    dp_free(&s);
    if (rc) {
      plan_free(&pl[0]);
      if (i == 1)
        plan_free(&pl[1]);
      return -1;
    }
  }
  /* fewer states wins; a capped probe loses; ties go to the shorter key */
  int pick;
  if (capped[0] != capped[1])
    pick = capped[0] ? 1 : 0;
  else if (!capped[0] && states[0] != states[1])
    pick = states[1] < states[0];
  else
    pick = pl[1].L < pl[0].L;
  *out = pl[pick];
  plan_free(&pl[!pick]);
  return 0;
}

int ts_dp_count(const tilesat_map *m, const tilesat_count_options *o,
                mpz_t count, tilesat_error *err) {
  plan p;
  if (choose_plan(m, o, &p, err, "count"))
    return -1;
  dp s;
  dp_setup(&s, m, o, &p, false, "count");
  bool capped = false;
  int rc = dp_run(&s, m->ncells, 0, &capped, err);
  if (!rc)
    layer_total(&s, final_layer(&s), count);
  dp_free(&s);
  plan_free(&p);
  return rc;
}

/* r = a uniform number in [0, n), n > 0: random bits of n's length, drawn
 * again while >= n (fewer than two rounds on average). */
static void draw_below(ts_rng *rng, mpz_t r, const mpz_t n) {
  size_t bits = mpz_sizeinbase(n, 2), words = (bits + 63) / 64;
  uint64_t *w = ts_malloc(words * sizeof *w);
  do {
    for (size_t i = 0; i < words; i++)
      w[i] = ts_rng_next(rng);
    mpz_import(r, words, -1, sizeof *w, 0, 0, w);
    mpz_fdiv_r_2exp(r, r, bits);
  } while (mpz_cmp(r, n) >= 0);
  free(w);
}

/* The predecessor of `key` (the state after position i, whose placed tile
 * is t) in layer i, chosen with probability count(pred) / count(key); on
 * return `key` holds it.  pass 0 sums the weights, pass 1 draws. */
static void choose_predecessor(dp *s, int i, int t, uint64_t *key, ts_rng *rng,
                               mpz_t r, mpz_t acc, uint64_t *probe,
                               uint64_t *after, uint64_t *mask) {
  const plan *p = &s->p;
  const layer *before = &s->layers[i];
  size_t bytes = (size_t)p->keywords * 8;
  const unsigned char *k = (const unsigned char *)key;
  mpz_t c, total;
  mpz_init(total);
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1)
      draw_below(rng, r, total);
    mpz_set_ui(acc, 0);
    for (int x = 0; x < p->T; x++) {
      /* shift the window back; the dropped cell held x */
      unsigned char *pk = (unsigned char *)probe;
      memset(pk, 0, bytes);
      pk[0] = (unsigned char)x;
      memcpy(pk + 1, k, (size_t)p->K - 1);
      memcpy(pk + p->K, k + p->K, (size_t)p->nanchor);
      if (p->anchor_slot[i] >= 0)
        pk[p->anchor_slot[i]] = 0; /* not placed yet before position i */
      long e = layer_lookup(before, probe, p->keywords);
      if (e < 0)
        continue;
      candidates(s, i, pk, mask);
      if (!((mask[t >> 6] >> (t & 63)) & 1) || !self_ok(s, i, t))
        continue;
      next_key(s, i, pk, t, (unsigned char *)after);
      if (memcmp(after, key, bytes))
        continue;
      mpz_add(
          acc, acc,
          mpz_roinit_n(c, entry_count(s, before, (size_t)e), before->nlimbs));
      if (pass == 1 && mpz_cmp(acc, r) > 0) {
        memcpy(key, probe, bytes);
        break;
      }
    }
    if (pass == 0)
      mpz_set(total, acc);
  }
  mpz_clear(total);
}

int ts_dp_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                 tilesat_map_fn fn, void *user, tilesat_error *err) {
  plan pl;
  if (choose_plan(m, o, &pl, err, "sample"))
    return -1;
  dp s;
  dp_setup(&s, m, o, &pl, true, "sample");
  bool capped = false;
  if (dp_run(&s, m->ncells, 0, &capped, err)) {
    dp_free(&s);
    plan_free(&pl);
    return -1;
  }
  const plan *p = &s.p;
  size_t bytes = (size_t)p->keywords * 8;
  mpz_t total, r, acc, c;
  mpz_inits(total, r, acc, NULL);
  const layer *last = final_layer(&s);
  layer_total(&s, last, total);
  ts_rng rng;
  ts_rng_seed(&rng, o->seed, 0x6470u);
  int *tiles = ts_malloc((size_t)p->ncells * sizeof *tiles);
  uint64_t *key = ts_calloc((size_t)p->keywords, 8);
  uint64_t *probe = ts_calloc((size_t)p->keywords, 8);
  uint64_t *after = ts_calloc((size_t)p->keywords, 8);
  uint64_t *mask = ts_malloc((size_t)s.twords * sizeof *mask);
  int produced = 0;
  while (mpz_sgn(total) > 0 && produced < n) {
    if (ts_terminated(s.solve)) {
      ts_error(err, "sample", 0, "interrupted");
      produced = -1;
      break;
    }
    /* the last state with probability count / total */
    draw_below(&rng, r, total);
    mpz_set_ui(acc, 0);
    for (size_t e = 0; e < last->n; e++) {
      mpz_add(acc, acc,
              mpz_roinit_n(c, entry_count(&s, last, e), last->nlimbs));
      if (mpz_cmp(acc, r) > 0) {
        memcpy(key, entry_key(last, e), bytes);
        break;
      }
    }
    /* walk back; the tile placed at position i is the window's last byte */
    for (int i = p->ncells - 1; i >= 0; i--) {
      int t = ((const unsigned char *)key)[p->K - 1];
      tiles[p->cell[i]] = t;
      choose_predecessor(&s, i, t, key, &rng, r, acc, probe, after, mask);
    }
    char why[256];
    if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: sampled map is not valid: %s",
               why);
      produced = -1;
      break;
    }
    produced++;
    if (fn && fn(user, tiles))
      break;
  }
  free(tiles);
  free(key);
  free(probe);
  free(after);
  free(mask);
  mpz_clears(total, r, acc, NULL);
  dp_free(&s);
  plan_free(&pl);
  return produced;
}
