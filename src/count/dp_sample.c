/* dp_sample.c: exactly uniform samples from the frontier DP (dp.c), in
 * about the memory and time of counting.
 *
 * A sample is a walk back from the last layer: from a state y of layer
 * i + 1, a state x of layer i and a tile t with ts_dp_next_key(x, t) = y are
 * chosen with probability count(x) / count(y), so that each map comes out
 * with probability 1 / total.  Keys hold tile classes, as when counting:
 * the walk picks the tile itself among the class's ts_dp_candidates.  The walk
 * needs the layers in reverse order, which the counter does not keep: the
 * sampler stores a few (entries only, no index) and builds the others
 * again from the nearest stored one when the walk gets there.
 *
 * Two things keep that cheap.  While counting, the sampler stores the
 * layers at line ends (every `stride` positions), where layers are
 * smallest; when they outgrow their share of memory (a multiple of what
 * the two working layers took), the one whose neighbours are closest
 * together goes, and the walk rebuilds a longer stretch, storing within it
 * what fits, recursively (checkpointing, as in Griewank's revolve).  At
 * the memory bound any stored layer may go, down to rebuilding every layer
 * from the first: slower, never wrong.  And a layer rebuilt for walkers
 * at layer b keeps only the states that can still lead to them (the
 * cone): a cell placed before b and still on b's frontier must hold,
 * coarsened to its ts_dp_pending set at b, the class some walker has there.  A
 * few cells into a line most of a layer is gone.  Every predecessor of a
 * kept state is kept, so kept states have their exact counts and the walk
 * stays exact: the same seed gives the same maps whatever is stored, and
 * each step checks that the weights of its predecessors add up to the
 * state's count. */
#include "core/rng.h"
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>

/* A stored layer is FREE to drop, HELD as a walk's base (its entries may
 * still go when memory runs short: the walk then goes on from a layer
 * stored further back), or PINNED while they are being read. */
enum { FREE, HELD, PINNED };

typedef struct stored {
  int pos, use;
  ts_dp_layer l;
  struct stored *prev, *next;
} stored;

/* Stored layers, a list by position, at positions origin + k * every,
 * before `end`; the origin is never dropped.  Stores nest (a walk's within
 * a stretch of the one outside it). */
typedef struct store {
  stored *first, *last;
  int origin, every, end;
  struct store *outer;
} store;

/* Memory for stored layers, in multiples of the most the two working
 * layers took: for the line ends kept while counting, and for everything
 * (the line ends and what a walk rebuilds). */
#define KEEP_LINE_ENDS 1.25
#define KEEP_ALL 1.75
/* ... but at least this much (a quarter of the bound at most): layers of a
 * few states, rebuilt, cost their steps' fixed costs again. */
#define KEEP_AT_LEAST ((size_t)4 << 20)
/* Walkers drawn together: their tiles take at most this much. */
#define BATCH_BYTES ((size_t)32 << 20)
/* A predecessor has at most one choice for the dropped cell and one for
 * each neighbour of the cell placed. */
#define MAX_CHOICES 8

typedef struct sampler {
  ts_dp s;           /* first: make_room finds the sampler from its dp */
  size_t keep_bytes; /* test hook: the bound on stored layers, or 0 */
  /* the innermost store, which ts_dp_run fills (make_room drops layers from
   * it first, then from those outside it) */
  store *inner;
  bool line_ends; /* while the count pass fills the line ends' store */
  stored *base;   /* the layer ts_dp_run starts from */
  uint64_t seed;
  tilesat_progress_fn progress; /* the caller's, during the walks */
  int first, n;                 /* the batch's first map, of n */
  int *anchors, nanchors;       /* positions of the anchor cells */
  /* the walkers of a batch: each one's state at layer `at`, its count and
   * tiles, and its own random stream (so a map depends on the seed and its
   * number only) */
  int nwalk, at;
  uint64_t *keys;
  mpz_t *counts;
  int *tiles;
  ts_rng *rng;
  /* the cone for layer cone_pos: the shared cells (slot in a state there,
   * slot in the walkers' states, ts_dp_pending sets there and at the walkers'),
   * and the walkers' hashes of them, sorted */
  int cone_pos, nshared;
  int *sx, *sy, *mx, *my;
  uint64_t *hashes;
  size_t nhashes;
  /* With global constraints (dp_global.c), a state's predecessors are not
   * told by its frontier alone: the layer being walked back to gets a
   * second index, by the frontier's words (fw of them) alone, each slot
   * the first of a chain of entries (fnext) with that frontier; 0 empty,
   * else entry + 1. */
  int fw;
  size_t fcap;
  uint32_t *fhead, *fnext;
  /* a step's scratch */
  uint64_t *pred, *after, *mask, *members, *ext_after;
  TS_VEC(size_t) found;
  TS_VEC(int) values;
  mpz_t total, r, acc;
} sampler;

/* ---------------------------------------------------------------- stores */

static void stored_release(sampler *S, ts_dp_layer *l) {
  S->s.stored_memory -= ts_dp_layer_bytes(l);
  ts_dp_layer_release(&S->s, l);
}

static void store_remove(sampler *S, store *st, stored *e) {
  stored_release(S, &e->l);
  *(e->prev ? &e->prev->next : &st->first) = e->next;
  *(e->next ? &e->next->prev : &st->last) = e->prev;
  free(e);
}

static void store_free(sampler *S, store *st) {
  while (st->last)
    store_remove(S, st, st->last);
}

static void store_push(store *st, stored *e) {
  e->prev = st->last;
  e->next = NULL;
  *(st->last ? &st->last->next : &st->first) = e;
  st->last = e;
}

/* The stored layer before position b (whose entries are there), or
 * NULL. */
static stored *store_below(const store *st, int b) {
  for (stored *e = st->last; e; e = e->prev)
    if (e->pos < b && e->l.mem)
      return e;
  return NULL;
}

/* Drop the free stored layer whose neighbours are closest together, so
 * that those left stay evenly spread; false when there is none. */
static bool store_drop(sampler *S, store *st) {
  stored *best = NULL;
  int best_gap = 0;
  for (stored *e = st->first; e; e = e->next) {
    if (e->pos == st->origin || e->use != FREE)
      continue;
    int before = e->prev ? e->prev->pos : st->origin;
    int after = e->next ? e->next->pos : st->end;
    if (!best || after - before < best_gap) {
      best = e;
      best_gap = after - before;
    }
  }
  if (best)
    store_remove(S, st, best);
  return best != NULL;
}

/* At the memory bound: drop a free stored layer, the innermost store's
 * first, else the entries of a held one (a walk rebuilds what it misses,
 * only slower). */
static bool make_room(ts_dp *s) {
  sampler *S = (sampler *)s;
  for (store *st = S->inner; st; st = st->outer)
    if (store_drop(S, st))
      return true;
  for (store *st = S->inner; st; st = st->outer)
    for (stored *e = st->last; e; e = e->prev)
      if (e->use == HELD && e->l.mem && e->pos != st->origin) {
        stored_release(S, &e->l);
        return true;
      }
  return false;
}

static size_t keep_bound(const sampler *S) {
  if (S->keep_bytes)
    return S->keep_bytes;
  double all = KEEP_ALL * (double)S->s.working_peak;
  double floor =
      (double)(KEEP_AT_LEAST < S->s.max_memory / 4 ? KEEP_AT_LEAST
                                                   : S->s.max_memory / 4);
  all = all > floor ? all : floor;
  /* the line ends leave the walks their part */
  return (size_t)(S->line_ends ? all * KEEP_LINE_ENDS / KEEP_ALL : all);
}

/* Store layer l (at pos) if the store takes that position, dropping others
 * of the store to make room for it. */
static bool store_offer(sampler *S, store *st, int pos, const ts_dp_layer *l,
                        tilesat_error *err) {
  size_t bytes = l->n * l->entry;
  if ((pos - st->origin) % st->every || bytes > keep_bound(S))
    return true;
  while (S->s.stored_memory + bytes > keep_bound(S))
    if (!store_drop(S, st))
      return true;
  stored *e = ts_calloc(1, sizeof *e);
  e->pos = pos;
  if (!ts_dp_layer_store(&S->s, l, &e->l, err)) {
    free(e);
    return false;
  }
  store_push(st, e);
  return true;
}

/* ts_dp_run's hook: each layer it builds but the last goes to the innermost
 * store. */
static bool offer_built(ts_dp *s, int pos, const ts_dp_layer *l,
                        tilesat_error *err) {
  sampler *S = (sampler *)s;
  store *st = S->inner;
  if (S->base && S->base->use == PINNED)
    S->base->use = HELD; /* read: its entries may go now */
  return pos >= st->end || store_offer(S, st, pos, l, err);
}

/* Build layers a+1 .. st->end from `base` (layer a), offering all but the
 * last to st (the innermost store); returns the last, or NULL with err. */
static const ts_dp_layer *rebuild(sampler *S, stored *base, store *st,
                                  tilesat_error *err) {
  S->s.built = offer_built;
  S->base = base;
  base->use = PINNED;
  const ts_dp_layer *l = ts_dp_run(&S->s, &base->l, base->pos, st->end, err);
  base->use = HELD;
  S->base = NULL;
  S->s.built = NULL;
  return l;
}

/* ------------------------------------------------------------------ cone */

static uint64_t cone_hash(uint64_t h, unsigned char byte) {
  return (h ^ byte) * 0x100000001b3u;
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* Cell q (placed, at key slot sx of layer pos) if the walkers' states
 * (layer S->at) still hold it. */
static void cone_cell(sampler *S, int pos, int q, int sx) {
  const ts_dp_plan *p = &S->s.p;
  int b = S->at, K = p->K;
  int sy = q >= b - K ? q - (b - K) : p->anchor_slot[q];
  int my = ts_dp_pending(p, q, b - 1);
  if (sy < 0 || !my)
    return;
  S->sx[S->nshared] = sx;
  S->sy[S->nshared] = sy;
  S->mx[S->nshared] = ts_dp_pending(p, q, pos - 1);
  S->my[S->nshared++] = my;
}

/* The cells a state of layer pos shares with the walkers' states, and the
 * walkers' hashes of them. */
static void cone_build(sampler *S, int pos) {
  const ts_dp_plan *p = &S->s.p;
  int K = p->K;
  S->nshared = 0;
  for (int q = pos - K > 0 ? pos - K : 0; q < pos; q++)
    cone_cell(S, pos, q, q - (pos - K));
  for (int k = 0; k < S->nanchors; k++)
    if (S->anchors[k] < pos - K)
      cone_cell(S, pos, S->anchors[k], p->anchor_slot[S->anchors[k]]);
  for (int w = 0; w < S->nwalk; w++) {
    const unsigned char *y =
        (const unsigned char *)(S->keys + (size_t)w * (size_t)p->keywords);
    uint64_t h = 0xcbf29ce484222325u;
    for (int k = 0; k < S->nshared; k++)
      h = cone_hash(h, y[S->sy[k]]);
    S->hashes[w] = h;
  }
  S->nhashes = (size_t)S->nwalk;
  qsort(S->hashes, S->nhashes, sizeof *S->hashes, cmp_u64);
  S->cone_pos = pos;
}

/* Whether the cone cuts layer pos: does it share cells with the
 * walkers'? */
static bool cone_cuts(void *user, int pos) {
  sampler *S = user;
  if (pos != S->cone_pos)
    cone_build(S, pos);
  return S->nshared > 0;
}

/* ts_dp_run's filter: whether a state entering layer pos (where the cone
 * cuts) can lead to a walker (a hash collision only keeps a state too
 * many). */
static bool in_cone(void *user, int pos, const unsigned char *key) {
  sampler *S = user;
  if (pos != S->cone_pos)
    cone_build(S, pos);
  const ts_dp *s = &S->s;
  size_t T = (size_t)s->p.T;
  uint64_t h = 0xcbf29ce484222325u;
  for (int k = 0; k < S->nshared; k++) {
    int t = s->rep[(size_t)S->mx[k] * T + key[S->sx[k]]];
    h = cone_hash(h, s->cls[(size_t)S->my[k] * T + (size_t)t]);
  }
  return bsearch(&h, S->hashes, S->nhashes, sizeof h, cmp_u64) != NULL;
}

/* ------------------------------------------------------------------ walk */

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

/* A byte of the predecessor with a choice: the slots it is written to (the
 * second -1 if none) and its values [first, first + n) in S->values. */
typedef struct choice {
  int slot, slot2;
  size_t first, n;
} choice;

/* The classes of ts_dp_pending set `from` that coarsen to class c of `to`. */
static choice preimages(sampler *S, int from, int to, int c, int slot,
                        int slot2) {
  const ts_dp *s = &S->s;
  size_t T = (size_t)s->p.T;
  choice ch = {slot, slot2, S->values.n, 0};
  for (int f = 0; f < s->nclasses[from]; f++)
    if (s->cls[(size_t)to * T + (size_t)s->rep[(size_t)from * T + f]] == c) {
      TS_PUSH(S->values, f);
      ch.n++;
    }
  return ch;
}

/* The predecessors of y (a state of layer i + 1) may differ from it, once
 * shifted back, in the dropped cell (slot 0: any class of its ts_dp_pending set
 * before i) and in the cells whose class step i coarsened (any finer class
 * that coarsens to theirs); the cell placed at i is not in them. */
static int choices_of(sampler *S, int i, const unsigned char *y,
                      choice ch[MAX_CHOICES]) {
  const ts_dp_plan *p = &S->s.p;
  int K = p->K, n = 1;
  S->values.n = 0;
  int drop = i >= K ? ts_dp_pending(p, i - K, i - 1)
                    : 0; /* before position K, slot 0 is empty */
  ch[0] = preimages(S, drop, 0, 0, 0, -1);
  for (int r = p->rm_start[i]; r < p->rm_start[i + 1]; r++) {
    int ws = p->rm_wslot[r], as = p->rm_aslot[r];
    if (p->rm_pos[r] == i - K)
      ch[0].slot2 = as; /* the dropped cell's anchor copy */
    else if (ws >= 0)
      ch[n++] = preimages(S, p->rm_from[r], p->rm_to[r], y[ws], ws + 1, as);
    else
      ch[n++] = preimages(S, p->rm_from[r], p->rm_to[r], y[as], as, -1);
  }
  return n;
}

/* The predecessor's tiles at position i that lead to state y: of y's
 * class, keeping their own edges (S->members), ts_dp_candidates of pk, and with
 * constraints those that take pk's constraint bytes to y's (S->mask);
 * returns how many, and the first in *first. */
static unsigned long tiles_to(sampler *S, int i, const unsigned char *pk,
                              const unsigned char *y, int *first) {
  const ts_dp *s = &S->s;
  unsigned long ntiles = 0;
  ts_dp_candidates(s, i, pk, S->mask);
  *first = -1;
  for (int k = 0; k < s->twords; k++) {
    S->mask[k] &= S->members[k];
    for (uint64_t bits = s->ext.grp ? S->mask[k] : 0; bits; bits &= bits - 1) {
      int t = k * 64 + __builtin_ctzll(bits);
      unsigned char *after = (unsigned char *)S->ext_after;
      if (!ts_dp_ext_next(s, i, pk, t, after) ||
          memcmp(after + s->ext.start, y + s->ext.start, (size_t)s->ext.bytes))
        S->mask[k] &= ~((uint64_t)1 << (t & 63));
    }
    ntiles += (unsigned long)__builtin_popcountll(S->mask[k]);
    if (*first < 0 && S->mask[k])
      *first = k * 64 + __builtin_ctzll(S->mask[k]);
  }
  return ntiles;
}

/* ------------------------------------------------- the frontier index */

static uint64_t front_hash(const uint64_t *key, int words) {
  uint64_t h = 0xcbf29ce484222325u;
  for (int w = 0; w < words; w++)
    h = (h ^ key[w]) * 0x100000001b3u, h ^= h >> 29;
  return h;
}

/* The slot of frontier `key` in the index of l: its chain's, or the empty
 * one it would take. */
static size_t front_slot(const sampler *S, const ts_dp_layer *l,
                         const uint64_t *key) {
  size_t i = front_hash(key, S->fw) % S->fcap;
  while (S->fhead[i] &&
         memcmp(entry_key(l, S->fhead[i] - 1), key, (size_t)S->fw * 8))
    i = i + 1 == S->fcap ? 0 : i + 1;
  return i;
}

/* Counters alone are looked up (each counter v or v - 1 before), up to
 * this many; beyond, or with connectivity, predecessors are found by
 * their frontier. */
#define LOOKED_UP_COUNTERS 8

/* Index l by frontier (with connectivity or many counters only). */
static bool front_index(sampler *S, const ts_dp_layer *l, tilesat_error *err) {
  const ts_dp_ext *x = &S->s.ext;
  if (!x->grp || (!x->nconn && x->ncount <= LOOKED_UP_COUNTERS))
    return true;
  S->fw = (S->s.p.L + 7) / 8;
  S->fcap = 2 * l->n + 16;
  size_t bytes = S->fcap * sizeof *S->fhead + l->n * sizeof *S->fnext;
  if (!ts_dp_reserve(&S->s, bytes, l->n, err))
    return false;
  S->fhead = ts_calloc(S->fcap, sizeof *S->fhead);
  S->fnext = ts_malloc((l->n ? l->n : 1) * sizeof *S->fnext);
  for (size_t e = 0; e < l->n; e++) {
    size_t i = front_slot(S, l, entry_key(l, e));
    S->fnext[e] = S->fhead[i];
    S->fhead[i] = (uint32_t)(e + 1);
  }
  return true;
}

static void front_unindex(sampler *S, const ts_dp_layer *l) {
  if (!S->fhead)
    return;
  S->s.used_memory -= S->fcap * sizeof *S->fhead + l->n * sizeof *S->fnext;
  free(S->fhead);
  free(S->fnext);
  S->fhead = S->fnext = NULL;
}

/* Entry e of `before` (if e >= 0), if it leads to y at position i: into
 * S->found, its weight into S->total. */
static void consider(sampler *S, const ts_dp_layer *before, int i,
                     const unsigned char *y, long e) {
  const ts_dp *s = &S->s;
  if (e < 0)
    return;
  const unsigned char *x = (const unsigned char *)entry_key(before, e);
  int first;
  unsigned long ntiles = tiles_to(S, i, x, y, &first);
  if (!ntiles)
    return;
  ts_dp_next_key(s, i, x, first, (unsigned char *)S->after);
  int words = s->ext.grp ? (s->p.L + 7) / 8 : s->p.keywords;
  if (memcmp(S->after, y, (size_t)words * 8))
    return;
  mpz_t c;
  mpz_roinit_n(c, entry_count(s, before, (size_t)e), before->nlimbs);
  mpz_addmul_ui(S->total, c, ntiles);
  TS_PUSH(S->found, (size_t)e);
}

/* y's counters less `bits` (a bit a counter) into pk: the counters of a
 * predecessor, which counted the tile placed or not; false if one would
 * be negative. */
static bool counters_before(const ts_dp *s, const unsigned char *y, int bits,
                            unsigned char *pk) {
  for (int j = 0; j < s->ext.ncount; j++) {
    int off = s->ext.count[j].off,
        v = (y[off] | y[off + 1] << 8) - (bits >> j & 1);
    if (v < 0)
      return false;
    pk[off] = (unsigned char)(v & 0xff);
    pk[off + 1] = (unsigned char)(v >> 8);
  }
  return true;
}

/* The predecessors of y (walker w's state, layer i + 1) in layer i
 * (`before`, indexed): every combination of choices found there that leads
 * to y, into S->found, their weights summed into S->total. */
static void predecessors(sampler *S, const ts_dp_layer *before, int i,
                         const unsigned char *y) {
  ts_dp *s = &S->s;
  const ts_dp_plan *p = &s->p;
  int kw = p->keywords;
  unsigned char *pk = (unsigned char *)S->pred;
  const unsigned char *cls = s->cls + (size_t)p->place_mask[i] * (size_t)p->T;
  memset(S->members, 0, (size_t)s->twords * sizeof *S->members);
  for (int t = 0; t < p->T; t++)
    if (cls[t] == y[p->K - 1] && ts_dp_self_ok(s, i, t))
      S->members[t >> 6] |= (uint64_t)1 << (t & 63);
  /* the predecessor as far as y tells it */
  memset(pk, 0, (size_t)kw * 8);
  memcpy(pk + 1, y, (size_t)p->K - 1);
  memcpy(pk + p->K, y + p->K, (size_t)p->nanchor);
  if (p->anchor_slot[i] >= 0)
    pk[p->anchor_slot[i]] = 0; /* not placed yet */
  choice ch[MAX_CHOICES];
  int nch = choices_of(S, i, y, ch);
  size_t at[MAX_CHOICES] = {0};
  S->found.n = 0;
  mpz_set_ui(S->total, 0);
  bool more = true;
  for (int k = 0; k < nch; k++)
    more = more && ch[k].n > 0;
  while (more) {
    for (int k = 0; k < nch; k++) {
      unsigned char v = (unsigned char)S->values.v[ch[k].first + at[k]];
      pk[ch[k].slot] = v;
      if (ch[k].slot2 >= 0)
        pk[ch[k].slot2] = v;
    }
    if (S->fhead) { /* every entry with this frontier */
      for (long e = (long)S->fhead[front_slot(S, before, S->pred)] - 1; e >= 0;
           e = (long)S->fnext[e] - 1)
        consider(S, before, i, y, e);
    } else if (s->ext.grp) { /* counters alone, few: each v or v - 1 */
      for (int bits = 0; bits < 1 << s->ext.ncount; bits++)
        if (counters_before(s, y, bits, pk))
          consider(S, before, i, y, ts_dp_layer_lookup(before, S->pred, kw));
    } else { /* without constraints the frontier is the key */
      consider(S, before, i, y, ts_dp_layer_lookup(before, S->pred, kw));
    }
    more = false; /* the next combination, odometer-wise */
    for (int k = 0; k < nch && !more; k++) {
      more = ++at[k] < ch[k].n;
      if (!more)
        at[k] = 0;
    }
  }
}

/* The j-th tile (from 0, in order) of a set of tiles. */
static int nth_tile(const uint64_t *set, int words, unsigned long j) {
  for (int k = 0; k < words; k++) {
    unsigned long here = (unsigned long)__builtin_popcountll(set[k]);
    if (j >= here) {
      j -= here;
      continue;
    }
    uint64_t bits = set[k];
    for (; j; j--)
      bits &= bits - 1;
    return k * 64 + __builtin_ctzll(bits);
  }
  return -1;
}

/* Walker w from layer i + 1 to layer i (`before`, indexed): a predecessor
 * and a tile, with probability count(predecessor) / count(state). */
static bool walk_step(sampler *S, const ts_dp_layer *before, int i, int w,
                      tilesat_error *err) {
  ts_dp *s = &S->s;
  const ts_dp_plan *p = &s->p;
  int kw = p->keywords;
  uint64_t *key = S->keys + (size_t)w * (size_t)kw;
  predecessors(S, before, i, (const unsigned char *)key);
  if (mpz_cmp(S->total, S->counts[w]) || !S->found.n) {
    ts_error(err, NULL, 0,
             "internal error: the predecessors of a DP state at cell %d do "
             "not add up to its count",
             i);
    return false;
  }
  draw_below(&S->rng[w], S->r, S->total);
  mpz_set_ui(S->acc, 0);
  for (size_t k = 0;; k++) {
    size_t e = S->found.v[k];
    const uint64_t *ek = entry_key(before, e);
    int first;
    unsigned long ntiles = tiles_to(S, i, (const unsigned char *)ek,
                                    (const unsigned char *)key, &first);
    mpz_t c;
    mpz_roinit_n(c, entry_count(s, before, e), before->nlimbs);
    mpz_addmul_ui(S->acc, c, ntiles);
    if (mpz_cmp(S->acc, S->r) <= 0)
      continue;
    /* r falls among this predecessor's tiles (S->mask), each weighing c:
     * the j-th, j = ntiles - ceil((acc - r) / c) */
    mpz_sub(S->acc, S->acc, S->r);
    mpz_cdiv_q(S->acc, S->acc, c);
    int t = nth_tile(S->mask, s->twords, ntiles - mpz_get_ui(S->acc));
    S->tiles[(size_t)w * (size_t)p->ncells + (size_t)p->cell[i]] =
        ts_masked(s->map, p->cell[i]) ? TILESAT_NO_TILE : t;
    mpz_set(S->counts[w], c);
    memcpy(key, ek, (size_t)kw * 8);
    return true;
  }
}

/* Every walker from layer i + 1 to layer i (`before`, indexed). */
static bool step_all(sampler *S, const ts_dp_layer *before, int i,
                     tilesat_error *err) {
  if (!front_index(S, before, err))
    return false;
  for (int w = 0; w < S->nwalk; w++) {
    bool stop = (w & 0xff) == 0xff && ts_terminated(S->s.solve);
    if (stop)
      ts_error(err, S->s.what, 0, "interrupted");
    if (stop || !walk_step(S, before, i, w, err)) {
      front_unindex(S, before);
      return false;
    }
  }
  front_unindex(S, before);
  S->at = i;
  if (S->progress) {
    char line[128];
    snprintf(line, sizeof line, "dp: maps %d to %d of %d: back at cell %d",
             S->first + 1, S->first + S->nwalk, S->n, i);
    S->progress(S->s.progress_user, line);
  }
  return true;
}

/* Walk from layer b back to the stored layer `base` (given an index for
 * the last step).  Layers in between are rebuilt from base, only their
 * cone; those that fit are stored on the way, and the stretches between
 * them walked the same way.  Returns the layer the walkers reached: base's,
 * or a later one if base's entries had to go to make room; -1 with err. */
static int walk_back(sampler *S, stored *base, int b, tilesat_error *err) {
  ts_dp *s = &S->s;
  int a = base->pos;
  base->use = HELD;
  while (b > a && b >= 0 && base->l.mem) {
    if (ts_terminated(s->solve)) {
      ts_error(err, s->what, 0, "interrupted");
      b = -1;
    } else if (b == a + 1) {
      base->use = PINNED;
      bool ok =
          ts_dp_layer_index(s, &base->l, err) && step_all(S, &base->l, a, err);
      ts_dp_layer_unindex(s, &base->l);
      base->use = HELD;
      b = ok ? a : -1;
    } else {
      /* a stretch longer than the frontier is rebuilt whole (no cone
       * yet) and walked from its line ends, the smallest layers; within
       * a line, every layer is worth keeping */
      int line = s->p.stride,
          every = b - a > s->p.K && a % line == 0 ? line : 1;
      store inner = {.origin = a, .every = every, .end = b - 1};
      inner.outer = S->inner;
      S->inner = &inner;
      S->cone_pos = -1;
      s->keep = in_cone;
      s->cuts = cone_cuts;
      s->keep_user = S;
      const ts_dp_layer *last = rebuild(S, base, &inner, err);
      s->keep = NULL;
      b = last && step_all(S, last, b - 1, err) ? b - 1 : -1;
      for (stored *e; b >= 0 && (e = store_below(&inner, b));) {
        b = walk_back(S, e, b, err);
        store_remove(S, &inner, e);
      }
      store_free(S, &inner);
      S->inner = inner.outer;
    }
  }
  base->use = FREE;
  return b;
}

/* -------------------------------------------------------------- batches */

/* Random streams: walker k of a sample run draws from stream SAMPLE_STREAM
 * + k, so its map depends on the seed and k alone. */
#define SAMPLE_STREAM ((uint64_t)0x6470 << 32)

static void walkers_alloc(sampler *S, int batch) {
  const ts_dp_plan *p = &S->s.p;
  S->keys = ts_calloc((size_t)batch * (size_t)p->keywords, 8);
  S->counts = ts_malloc((size_t)batch * sizeof *S->counts);
  for (int w = 0; w < batch; w++)
    mpz_init(S->counts[w]);
  S->tiles = ts_malloc((size_t)batch * (size_t)p->ncells * sizeof *S->tiles);
  S->rng = ts_malloc((size_t)batch * sizeof *S->rng);
  S->hashes = ts_malloc((size_t)batch * sizeof *S->hashes);
  int L = p->L + 1;
  S->sx = ts_malloc((size_t)L * sizeof *S->sx);
  S->sy = ts_malloc((size_t)L * sizeof *S->sy);
  S->mx = ts_malloc((size_t)L * sizeof *S->mx);
  S->my = ts_malloc((size_t)L * sizeof *S->my);
  S->pred = ts_calloc((size_t)p->keywords, 8);
  S->after = ts_calloc((size_t)p->keywords, 8);
  S->ext_after = ts_calloc((size_t)p->keywords, 8);
  S->mask = ts_malloc((size_t)S->s.twords * sizeof *S->mask);
  S->members = ts_malloc((size_t)S->s.twords * sizeof *S->members);
  mpz_inits(S->total, S->r, S->acc, NULL);
  S->nwalk = batch;
}

static void walkers_free(sampler *S) {
  for (int w = 0; w < S->nwalk; w++)
    mpz_clear(S->counts[w]);
  free(S->keys);
  free(S->counts);
  free(S->tiles);
  free(S->rng);
  free(S->hashes);
  free(S->sx);
  free(S->sy);
  free(S->mx);
  free(S->my);
  free(S->pred);
  free(S->after);
  free(S->ext_after);
  free(S->mask);
  free(S->members);
  free(S->found.v);
  free(S->values.v);
  mpz_clears(S->total, S->r, S->acc, NULL);
}

/* Walkers first .. first + nwalk - 1: their last states drawn from the
 * last layer with probability count / total, then walked back through the
 * stored layers of top. */
static bool walk_batch(sampler *S, store *top, const ts_dp_layer *last,
                       int first, const mpz_t total, tilesat_error *err) {
  const ts_dp_plan *p = &S->s.p;
  for (int w = 0; w < S->nwalk; w++) {
    ts_rng_seed(&S->rng[w], S->seed, SAMPLE_STREAM + (uint64_t)first + w);
    draw_below(&S->rng[w], S->r, total);
    mpz_set_ui(S->acc, 0);
    for (size_t e = 0;; e++) {
      mpz_t c;
      if (S->s.ext.grp &&
          !ts_dp_ext_accept(&S->s, (const unsigned char *)entry_key(last, e)))
        continue; /* (not counted in total) */
      mpz_roinit_n(c, entry_count(&S->s, last, e), last->nlimbs);
      mpz_add(S->acc, S->acc, c);
      if (mpz_cmp(S->acc, S->r) > 0) {
        memcpy(S->keys + (size_t)w * (size_t)p->keywords, entry_key(last, e),
               (size_t)p->keywords * 8);
        mpz_set(S->counts[w], c);
        break;
      }
    }
  }
  S->at = p->ncells;
  for (int b = p->ncells; b > 0;)
    if ((b = walk_back(S, store_below(top, b), b, err)) < 0)
      return false;
  return true;
}

/* The count pass: layers 0 .. n, storing layer 0 and the line ends that
 * fit in top, and layer n in *last. */
static bool count_pass(sampler *S, store *top, ts_dp_layer *last,
                       tilesat_error *err) {
  ts_dp *s = &S->s;
  stored *e = ts_calloc(1, sizeof *e);
  store_push(top, e);
  if (!ts_dp_start(s, &s->layers[0], err) ||
      !ts_dp_layer_store(s, &s->layers[0], &e->l, err))
    return false;
  S->line_ends = true;
  const ts_dp_layer *l = rebuild(S, e, top, err);
  e->use = FREE;
  S->line_ends = false;
  return l && ts_dp_layer_store(s, l, last, err);
}

static int sample_run(const tilesat_map *m, const tilesat_count_options *o,
                      ts_dp_order order, int n, size_t keep_bytes, int batch,
                      tilesat_map_fn fn, void *user, tilesat_error *err) {
  sampler S;
  memset(&S, 0, sizeof S);
  if (ts_dp_open(&S.s, m, o, order, "sample", NULL, err))
    return -1;
  ts_dp *s = &S.s;
  const ts_dp_plan *p = &s->p;
  s->make_room = make_room;
  S.keep_bytes = keep_bytes;
  S.seed = o->seed;
  S.n = n;
  S.anchors = ts_malloc((size_t)p->ncells * sizeof *S.anchors);
  for (int i = 0; i < p->ncells; i++)
    if (p->anchor_slot[i] >= 0)
      S.anchors[S.nanchors++] = i;
  if (batch <= 0) {
    size_t per = (size_t)p->ncells * sizeof(int) + (size_t)p->keywords * 8 +
                 sizeof(mpz_t) + sizeof(ts_rng) + 64;
    size_t most = BATCH_BYTES / per;
    batch = n < 1 ? 1 : (size_t)n < most ? n : most > 0 ? (int)most : 1;
  }
  walkers_alloc(&S, batch);
  store top = {.origin = 0, .every = p->stride, .end = p->ncells};
  S.inner = &top;
  ts_dp_layer last = {0};
  int produced = -1;
  mpz_t total;
  mpz_init(total);
  if (!count_pass(&S, &top, &last, err))
    goto done;
  /* from here on, progress says how far the walks have got */
  S.progress = s->progress;
  s->progress = NULL;
  ts_dp_layer_total_kept(s, &last, total);
  produced = 0;
  /* one map first, so that it comes at once, then the others `batch` at
   * a time (each batch walks back once) */
  for (int first = 0, size = 1; first < n && mpz_sgn(total) > 0;
       first += S.nwalk, size = batch) {
    S.nwalk = n - first < size ? n - first : size;
    S.first = first;
    if (!walk_batch(&S, &top, &last, first, total, err)) {
      produced = -1;
      break;
    }
    bool stop = false;
    for (int w = 0; w < S.nwalk && !stop; w++) {
      const int *tiles = S.tiles + (size_t)w * (size_t)p->ncells;
      char why[256];
      if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
        ts_error(err, NULL, 0, "internal error: sampled map is not valid: %s",
                 why);
        produced = -1;
        break;
      }
      produced++;
      stop = fn && fn(user, tiles);
    }
    if (produced < 0 || stop)
      break;
  }
done:
  S.nwalk = batch;
  walkers_free(&S);
  mpz_clear(total);
  store_free(&S, &top);
  stored_release(&S, &last);
  free(S.anchors);
  ts_dp_free(s);
  return produced;
}

int ts_dp_sample_with(const tilesat_map *m, const tilesat_count_options *o,
                      int n, size_t keep_bytes, int batch, tilesat_map_fn fn,
                      void *user, tilesat_error *err) {
  return sample_run(m, o, TS_DP_PROBE, n, keep_bytes, batch, fn, user, err);
}

int ts_dp_sample_ordered(const tilesat_map *m, const tilesat_count_options *o,
                         ts_dp_order order, int n, tilesat_map_fn fn,
                         void *user, tilesat_error *err) {
  return sample_run(m, o, order, n, 0, 0, fn, user, err);
}

int ts_dp_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                 tilesat_map_fn fn, void *user, tilesat_error *err) {
  return sample_run(m, o, TS_DP_PROBE, n, 0, 0, fn, user, err);
}
