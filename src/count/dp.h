/* count/dp.h: the frontier DP's insides, shared by the counter (dp.c) and
 * the sampler (dp_sample.c).  See dp.c for how the frontier works. */
#ifndef TILESAT_COUNT_DP_H
#define TILESAT_COUNT_DP_H

#include "count/count.h"

#include <gmp.h>

#define DP_MAX_TILES 255

typedef struct ts_dp_plan {
  int ncells, T, K, nanchor, L; /* L: key bytes = K + nanchor */
  int stride;                   /* cells in a line of the order */
  int ndirs, *nbr; /* [q * ndirs + d]: position of q's neighbour, or -1 */
  int keywords;    /* L rounded up to 8-byte words */
  int *cell;       /* position -> cell */
  int *pos;        /* cell -> position */
  /* earlier neighbours of each position: [nb_start[p], nb_start[p+1]) */
  int *nb_start, *nb_slot, *nb_dir; /* key slot (-1: the cell itself) */
  int *nb_pos;                      /* the neighbour's position */
  int *anchor_slot;                 /* position -> slot if an anchor, or -1 */
  int *pin;                         /* position -> pinned tile, -1, or -2 */
  uint64_t *ban; /* position -> (T+63)/64 words of banned tiles, or NULL */
  /* A cell's "ts_dp_pending" set: the directions whose neighbour is not placed
   * yet.  It shrinks as neighbours are placed, and the cell's class (see
   * struct dp) depends on it alone.  place_mask[i]: cell i's ts_dp_pending set
   * when it is placed; nb_mask[k]: the neighbour's ts_dp_pending set just
   * before position i (the class its key byte holds then). */
  int *place_mask, *nb_mask;
  /* Earlier cells whose ts_dp_pending set shrinks when position i is placed:
   * [rm_start[i], rm_start[i+1]), each with the key slots that hold it
   * after the step (window, anchor; -1 if none) and its sets before and
   * after, and its position. */
  int *rm_start, *rm_wslot, *rm_aslot, *rm_from, *rm_to, *rm_pos;
} ts_dp_plan;

/* The plan (dp_plan.c): built for one order (row-major or column-major),
 * freed. */
void ts_dp_plan_build(const tilesat_map *m, bool column_major, ts_dp_plan *p);
void ts_dp_plan_free(ts_dp_plan *p);
/* Whether neighbour k of position i is the same cell as an earlier one
 * (dp_plan.c and dp.c). */
static inline bool seen_before(const ts_dp_plan *p, int i, int k) {
  for (int l = p->nb_start[i]; l < k; l++)
    if (p->nb_pos[l] == p->nb_pos[k])
      return true;
  return false;
}

/* A layer is a dense array of entries (key words, then the count's limbs)
 * in insertion order, and an open-addressing index over it: 8 bytes a slot,
 * the hash's high half as a tag and the entry's number.  Probing touches
 * only the index, which is a few times smaller than the entries and mostly
 * stays in cache; an entry is read only when its tag matches.  A stored
 * layer (the sampler's) has its entries only, no index and no spare room,
 * until it is given an index again to be looked up. */
typedef struct ts_dp_layer {
  size_t cap;      /* index slots, a power of two; 0: no index */
  size_t n;        /* entries */
  size_t room;     /* entries allocated */
  size_t touched;  /* entries counted in the memory used (written) */
  size_t entry;    /* bytes per entry */
  int nlimbs;      /* width of the counts: enough for the layer's total */
  uint64_t *index; /* tag << 32 | (entry + 1), or 0 when empty */
  unsigned char *mem;
} ts_dp_layer;

typedef struct ts_dp ts_dp;

/* A shard's successors for the other shards (dp_shard.c): a segment of
 * `room` entries for each other shard (entry bytes: the key's words, then
 * nlimbs limbs of count), n[owner] of them written; the rounds so far and
 * the entries sent in them. */
typedef struct ts_dp_outbox {
  unsigned char *mem;
  size_t room, entry, *n;
  int nlimbs;
  unsigned long rounds, sent;
} ts_dp_outbox;

/* The candidate sets of one position, each once (the seen key, struct dp):
 * `n` sets of twords words, and an open-addressing index over them (the
 * set's number + 1, or 0 when empty). */
typedef struct ts_dp_setbook {
  uint64_t *sets;
  size_t n, room;
  uint32_t *index;
  size_t cap;
} ts_dp_setbook;

/* Global constraints the dp keeps (dp_global.c), in key bytes after the
 * frontier's L: a counter (two bytes) for each count constraint and for
 * count --by-tile, and for each connected constraint a component label
 * for every frontier slot (L bytes) and a "closed" byte. */
typedef struct ts_dp_counter {
  const uint64_t *class; /* its tiles */
  int lo, hi;            /* lo <= cells <= hi (hi -1: no upper bound) */
  int sat;               /* the counter stops growing here */
  int off;               /* its key bytes */
  uint8_t *in;           /* position -> one of its cells (rectangle) */
  int *left;             /* position -> its cells at that position or after */
} ts_dp_counter;

typedef struct ts_dp_conn {
  const uint64_t *class;
  bool nonempty; /* at least one class cell */
  int off;       /* L labels, then the closed byte */
} ts_dp_conn;

typedef struct ts_dp_ext {
  int ncount, nconn;
  int start, bytes; /* where they start (a word after the frontier's), and
                       how many */
  ts_dp_counter *count;
  ts_dp_conn *conn;
  int by; /* the counter of count --by-tile, or -1 */
  /* grp[mask*T + t]: t's group when placed with ts_dp_pending set mask: tiles
   * of one class (struct dp) and in the same constraint classes; NULL
   * without constraints (the groups are the classes). */
  unsigned char *grp;
} ts_dp_ext;

struct ts_dp {
  const tilesat_map *map;
  ts_dp_plan p;
  int lgT; /* ceil(log2 T): a partial map extends in at most 2^lgT ways */
  size_t max_memory, used_memory;
  /* The sampler's: bytes of its stored layers (within used_memory), and
   * the most the two working layers took so far. */
  size_t stored_memory, working_peak;
  /* When the memory bound is reached, called to free stored layers that
   * can be rebuilt (true when it freed some). */
  bool (*make_room)(ts_dp *s);
  /* When not NULL, a state at position `pos` (the layer it enters) that
   * keep(keep_user, pos, key) refuses is not added: the sampler's cone;
   * cuts(keep_user, pos) says whether keep may refuse any there. */
  bool (*keep)(void *keep_user, int pos, const unsigned char *key);
  bool (*cuts)(void *keep_user, int pos);
  void *keep_user;
  /* When not NULL, called with each layer ts_dp_run builds. */
  bool (*built)(ts_dp *s, int pos, const ts_dp_layer *l, tilesat_error *err);
  void *built_user;
  uint64_t *compat; /* [dir][u][words]: tiles t with t allowing u in dir */
  /* A placed tile is kept in the key as its class: tiles with the same
   * allowed sets in every direction that still has a neighbour to come are
   * interchangeable for the rest of the count, so their states merge.  The
   * class is coarsened each time one of those neighbours is placed (a cell
   * with none left is class 0), so the key keeps only what the cells still
   * to come can tell apart: for edge-matched tilesets, the socket of each
   * frontier edge rather than the tile.  cls[mask*T + t]: the class of t
   * for the ts_dp_pending set `mask`; rep[mask*T + c]: a tile of class c;
   * nclasses[mask]: how many. */
  unsigned char *cls;
  int *rep, *nclasses;
  int twords;
  const tilesat_solve_options *solve; /* its terminate */
  tilesat_progress_fn progress;
  void *progress_user;
  ts_dp_layer layers[2]; /* the working layers */
  const char *what;      /* "count" or "sample", for messages */
  size_t last_states;    /* states in the last layer built */
  size_t *sizes;         /* states of each layer built unfiltered */
  ts_dp_ext ext;         /* global constraints */
  /* The seen key (counting only; 0: the plain key).  A state of layer i
   * keeps only what the cells from i on can see: its frontier as it will
   * be once position i is placed (shifted, the cells whose last neighbour
   * is i coarsened or gone) and the tiles position i may take (its
   * candidate set, pins, bans and own edges included) as a number in
   * setbytes bytes at key offset p.L, looked up in books[i % 2].  States
   * whose earlier neighbours differ but leave position i the same choice
   * merge, and a state whose next cell has no tile is dropped at once. */
  int setbytes;
  int setoff;  /* where the set's bytes start (p.L, or a word boundary) */
  bool setraw; /* the set itself, not its number (shards, when the books
                  would be too large to build up front) */
  ts_dp_setbook books[2];
  /* The sets numbered before the run (fix_id NULL: books[i % 2],
   * numbered as the sets are met, which differs from one process to the
   * next: shards then keep the sets themselves).  Position i's set number
   * by its earlier neighbours' classes c_j (key bytes fix_slot[j] for j in
   * [fix_start[i], fix_start[i+1])) is fix_id[fix_off[i] + sum c_j
   * fix_stride[j]], FIX_EMPTY (dp.c) when no tile fits there; set number k
   * of position i is at fix_sets + (fix_set_off[i] + k) * twords.  All of
   * it takes fix_bytes of used_memory. */
  uint32_t *fix_id;
  size_t *fix_off;
  int *fix_start, *fix_slot;
  uint32_t *fix_stride;
  uint64_t *fix_sets;
  size_t *fix_set_off;
  size_t fix_bytes;
  /* Sharding (tilesat-mpi --shard, dp_shard.c): with nshards > 1, each
   * layer's states are split over the shards by their key's hash
   * (ts_dp_owner); a successor another shard owns goes to the outbox `out`.
   * exchange() is one round, called by every shard alike: when an outbox
   * segment is full (end false) and after each step until *done (end
   * true, every shard at its step's end).  A round hands over the
   * outboxes, adds what the others sent to next, then agrees on failure
   * (ok false on some shard, or adding failed: `stopped` set, the first
   * failed shard's message in err everywhere) and, when done, sets total
   * to a bound on next's total every shard shares. */
  int nshards, shard;
  ts_dp_outbox out;
  bool stopped;
  bool (*exchange)(ts_dp *s, ts_dp_layer *next, bool ok, bool end, bool *done,
                   mpz_t total, tilesat_error *err);
  void *exchange_user;
};

static inline uint64_t *entry_key(const ts_dp_layer *l, size_t i) {
  return (uint64_t *)(l->mem + i * l->entry);
}

static inline mp_limb_t *entry_count(const ts_dp *s, const ts_dp_layer *l,
                                     size_t i) {
  return (mp_limb_t *)(entry_key(l, i) + s->p.keywords);
}

/* A cheap multiply-xor hash.  A full finalizer (fmix64) was measured 1.5-3x
 * slower here: similar keys then land far apart and every insert misses the
 * cache, while this one keeps some locality between neighbouring states. */
static inline uint64_t ts_dp_hash_key(const uint64_t *key, int words) {
  uint64_t h = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < words; i++) {
    h ^= key[i];
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return h | 1; /* 0 marks an empty slot */
}

/* Additions are queued and applied in batches: the index slots of a whole
 * batch are prefetched as it is queued, then the entries whose tags match,
 * so the cache misses of a batch overlap instead of following each other. */
#define TS_DP_BATCH 32

typedef struct ts_dp_batch {
  int n;
  uint64_t *keys; /* TS_DP_BATCH keys */
  uint64_t h[TS_DP_BATCH];
  const mp_limb_t *add[TS_DP_BATCH];
  int nlimbs[TS_DP_BATCH];
  mp_limb_t mult[TS_DP_BATCH];
} ts_dp_batch;

/* The next queue slot's key, to be filled before ts_dp_batch_push. */
static inline uint64_t *ts_dp_batch_key(const ts_dp *s, ts_dp_batch *b) {
  return b->keys + (size_t)b->n * (size_t)s->p.keywords;
}

/* Choose the order (or take `order`) and set up the DP for m (what:
 * "count" or "sample"), with m's count and connected constraints and,
 * unless NULL, a counter of the cells holding a tile of `by` (count
 * --by-tile).  0, or -1 with err. */
int ts_dp_open(ts_dp *s, const tilesat_map *m, const tilesat_count_options *o,
               ts_dp_order order, const char *what, const uint64_t *by,
               tilesat_error *err);
void ts_dp_free(ts_dp *s);
/* How the seen key holds its sets (struct dp's fix_id, books, setraw):
 * numbered by books built before the run, or where those would be too
 * large, by books grown as the sets are met (AUTO, one process) or as the
 * sets themselves (SHARED, whose numbers must be alike in every shard);
 * MET and RAW force those (tests). */
typedef enum {
  TS_DP_SETS_AUTO,
  TS_DP_SETS_MET,
  TS_DP_SETS_RAW,
  TS_DP_SETS_SHARED
} ts_dp_sets;

/* ts_dp_open for counting: with the seen key unless `plain`. */
int ts_dp_open_count(ts_dp *s, const tilesat_map *m,
                     const tilesat_count_options *o, ts_dp_order order,
                     const uint64_t *by, bool plain, ts_dp_sets sets,
                     tilesat_error *err);
/* The shard that owns key, and the one that owns a key of hash h
 * (ts_dp_hash_key). */
int ts_dp_owner(const ts_dp *s, const uint64_t *key);
static inline int ts_dp_owner_of(const ts_dp *s, uint64_t h) {
  return (int)(((h >> 32) * (uint64_t)s->nshards) >> 32);
}
/* dp_shard.c: the outbox sized for counts of nlimbs limbs (a step's
 * start); its segment for owner; count(key) += mult * add (nlimbs limbs)
 * sent to owner (a round first when its segment is full); the entries
 * other shards sent (`bytes` of them, as their outboxes hold them) added
 * to next in prefetched batches; the rounds at a step's end (ok: this
 * shard's step went well); the outbox freed. */
bool ts_dp_outbox_prepare(ts_dp *s, int nlimbs, tilesat_error *err);
unsigned char *ts_dp_outbox_segment(const ts_dp *s, int owner);
bool ts_dp_outbox_put(ts_dp *s, ts_dp_layer *next, int owner,
                      const uint64_t *key, const mp_limb_t *add, int nlimbs,
                      mp_limb_t mult, tilesat_error *err);
bool ts_dp_outbox_receive(ts_dp *s, ts_dp_layer *next, const unsigned char *buf,
                          size_t bytes, tilesat_error *err);
bool ts_dp_shard_end(ts_dp *s, ts_dp_layer *next, mpz_t total, bool ok,
                     tilesat_error *err);
void ts_dp_outbox_free(ts_dp *s);
/* count(key) += add (n limbs) in l. */
bool ts_dp_layer_add(ts_dp *s, ts_dp_layer *l, const uint64_t *key,
                     const mp_limb_t *add, int n, tilesat_error *err);
/* Layer 0: the empty map, one state. */
bool ts_dp_start(ts_dp *s, ts_dp_layer *l, tilesat_error *err);
/* Build layers from+1 .. to from `start` (layer from) in the working
 * layers; returns the last one (`start` when from == to), or NULL with err
 * (memory bound, interrupted). */
const ts_dp_layer *ts_dp_run(ts_dp *s, const ts_dp_layer *start, int from,
                             int to, tilesat_error *err);

/* Take `bytes` more of the memory bound (freeing stored layers through
 * make_room if need be), or say that the frontier outgrew it. */
bool ts_dp_reserve(ts_dp *s, size_t bytes, size_t states, tilesat_error *err);
void ts_dp_layer_release(ts_dp *s, ts_dp_layer *l);
/* The memory l takes (as counted against the bound). */
size_t ts_dp_layer_bytes(const ts_dp_layer *l);
/* A copy of l's entries only (a stored layer). */
bool ts_dp_layer_store(ts_dp *s, const ts_dp_layer *l, ts_dp_layer *out,
                       tilesat_error *err);
/* Give a stored layer an index, to be looked up; ts_dp_layer_unindex drops it.
 */
bool ts_dp_layer_index(ts_dp *s, ts_dp_layer *l, tilesat_error *err);
void ts_dp_layer_unindex(ts_dp *s, ts_dp_layer *l);
/* The entry of key in l (which has an index), or -1. */
long ts_dp_layer_lookup(const ts_dp_layer *l, const uint64_t *key, int words);
/* dp_layer.c's working layers.  Index slots for n states; an empty layer
 * with `cap` index slots and room for `room` entries (reusing l's memory
 * when it fits), built from a layer of `states`; hand from's index to to. */
size_t ts_dp_index_slots(size_t n);
bool ts_dp_layer_prepare(ts_dp *s, ts_dp_layer *l, size_t cap, size_t room,
                         int nlimbs, size_t states, tilesat_error *err);
void ts_dp_layer_pass_index(ts_dp_layer *from, ts_dp_layer *to);
/* Queue count(key at ts_dp_batch_key) += mult * add (nlimbs limbs) into l,
 * applying the batch when it is full; ts_dp_batch_flush applies the rest. */
bool ts_dp_batch_push(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                      const mp_limb_t *add, int nlimbs, mp_limb_t mult,
                      tilesat_error *err);
/* The same, the key's hash h already known. */
bool ts_dp_batch_push_hashed(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                             uint64_t h, const mp_limb_t *add, int nlimbs,
                             mp_limb_t mult, tilesat_error *err);
bool ts_dp_batch_flush(ts_dp *s, ts_dp_layer *l, ts_dp_batch *b,
                       tilesat_error *err);
void ts_dp_layer_total(const ts_dp *s, const ts_dp_layer *l, mpz_t total);

/* Which tiles may stand at position i given the state's earlier
 * neighbours, and whether t keeps its own wrap-around edges. */
void ts_dp_candidates(const ts_dp *s, int i, const unsigned char *key,
                      uint64_t *mask);
bool ts_dp_self_ok(const ts_dp *s, int i, int t);
/* The state after placing tile t at position i. */
void ts_dp_next_key(const ts_dp *s, int i, const unsigned char *key, int t,
                    unsigned char *out);
/* The directions of position q whose neighbour comes after position
 * `after`: its ts_dp_pending set then. */
int ts_dp_pending(const ts_dp_plan *p, int q, int after);

/* dp_global.c.  Set up s->ext for m's constraints (and `by`); the key
 * words grow by its bytes.  -1 with err when the frontier is too long for
 * connectivity labels. */
int ts_dp_ext_setup(ts_dp *s, const uint64_t *by, tilesat_error *err);
void ts_dp_ext_free(ts_dp_ext *x);
/* The constraint bytes of the state after placing t at position i on the
 * state key, into out (whose frontier bytes are written); false when no
 * map goes on from it. */
bool ts_dp_ext_next(const ts_dp *s, int i, const unsigned char *key, int t,
                    unsigned char *out);
/* Does a state of the last layer keep the constraints (its counters' lower
 * bounds, its connected classes' "at least one")? */
bool ts_dp_ext_accept(const ts_dp *s, const unsigned char *key);
/* The sum of the counts of l's states that keep the constraints. */
void ts_dp_layer_total_kept(const ts_dp *s, const ts_dp_layer *l, mpz_t total);
/* The by-tile counter of a state. */
int ts_dp_ext_by(const ts_dp *s, const unsigned char *key);

#endif
