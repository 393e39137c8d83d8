/* dp.c: exact counting by a frontier dynamic programme.
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
 * (dp_sample.c) keeps a few more.  The layers themselves are in
 * dp_layer.c, the plan (the order, the window K and the anchors) in
 * dp_plan.c. */
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- the DP */

static void fixed_free(ts_dp *s) {
  s->used_memory -= s->fix_bytes;
  s->fix_bytes = 0;
  free(s->fix_sets);
  free(s->fix_set_off);
  free(s->fix_id);
  free(s->fix_off);
  free(s->fix_start);
  free(s->fix_slot);
  free(s->fix_stride);
  s->fix_sets = NULL;
  s->fix_set_off = s->fix_off = NULL;
  s->fix_id = s->fix_stride = NULL;
  s->fix_start = s->fix_slot = NULL;
}

void ts_dp_free(ts_dp *s) {
  for (int i = 0; i < 2; i++)
    ts_dp_layer_release(s, &s->layers[i]);
  ts_dp_outbox_free(s);
  free(s->out.n);
  free(s->compat);
  free(s->cls);
  free(s->rep);
  free(s->nclasses);
  free(s->sizes);
  for (int b = 0; b < 2; b++) {
    free(s->books[b].sets);
    free(s->books[b].index);
  }
  fixed_free(s);
  ts_dp_ext_free(&s->ext);
  ts_dp_plan_free(&s->p);
}

/* --------------------------------------------------------- the seen key */

/* A combination of neighbours' classes under which no tile fits (fix_id). */
#define FIX_EMPTY 0xffffffffu

/* Position i's set number (s->fix_id) in a key holding its earlier
 * neighbours' classes. */
static inline uint32_t fixed_id(const ts_dp *s, int i,
                                const unsigned char *key) {
  size_t at = s->fix_off[i];
  for (int j = s->fix_start[i]; j < s->fix_start[i + 1]; j++)
    at += (size_t)key[s->fix_slot[j]] * s->fix_stride[j];
  return s->fix_id[at];
}

static void book_clear(ts_dp_setbook *b) {
  b->n = 0;
  if (b->index)
    memset(b->index, 0, b->cap * sizeof *b->index);
}

static uint64_t hash_set(const uint64_t *set, int words) {
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (int w = 0; w < words; w++) {
    h ^= set[w];
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return h;
}

/* The number of `set` in b (entered if new); -1 when there are more sets
 * than the key's set bytes number (kept below that by dp_setup's bound:
 * a bug otherwise). */
static long book_id(ts_dp *s, ts_dp_setbook *b, const uint64_t *set) {
  int tw = s->twords;
  if (2 * (b->n + 1) > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 64;
    uint32_t *index = ts_calloc(cap, sizeof *index);
    for (size_t j = 0; j < b->n; j++) {
      size_t at = hash_set(b->sets + j * (size_t)tw, tw) & (cap - 1);
      while (index[at])
        at = (at + 1) & (cap - 1);
      index[at] = (uint32_t)(j + 1);
    }
    free(b->index);
    b->index = index;
    b->cap = cap;
  }
  size_t at = hash_set(set, tw) & (b->cap - 1);
  for (; b->index[at]; at = (at + 1) & (b->cap - 1))
    if (!memcmp(b->sets + (b->index[at] - 1) * (size_t)tw, set, (size_t)tw * 8))
      return (long)b->index[at] - 1;
  if ((b->n + 1) >> (8 * s->setbytes))
    return -1;
  if (b->n == b->room) {
    b->room = b->room ? 2 * b->room : 64;
    b->sets = ts_realloc(b->sets, b->room * (size_t)tw * sizeof *b->sets);
  }
  memcpy(b->sets + b->n * (size_t)tw, set, (size_t)tw * 8);
  b->index[at] = (uint32_t)(b->n + 1);
  return (long)b->n++;
}

static long get_id(const ts_dp *s, const unsigned char *key) {
  long id = 0;
  for (int j = s->setbytes - 1; j >= 0; j--)
    id = id << 8 | key[s->setoff + j];
  return id;
}

static void put_id(const ts_dp *s, unsigned char *key, long id) {
  for (int j = 0; j < s->setbytes; j++)
    key[s->setoff + j] = (unsigned char)(id >> (8 * j));
}

/* A state's set, or the set into its key (numbered, or itself). */
static const uint64_t *get_set(const ts_dp *s, int i,
                               const unsigned char *key) {
  if (s->setraw)
    return (const uint64_t *)(const void *)(key + s->setoff);
  if (s->fix_id)
    return s->fix_sets +
           (s->fix_set_off[i] + (size_t)get_id(s, key)) * (size_t)s->twords;
  return s->books[i % 2].sets + get_id(s, key) * s->twords;
}

/* The number of `set` among position i's sets built before the run, or
 * -1 (a scan: only position 0's start state needs it). */
static long fixed_find(const ts_dp *s, int i, const uint64_t *set) {
  size_t tw = (size_t)s->twords;
  for (size_t j = s->fix_set_off[i]; j < s->fix_set_off[i + 1]; j++)
    if (!memcmp(s->fix_sets + j * tw, set, tw * 8))
      return (long)(j - s->fix_set_off[i]);
  return -1;
}

static bool put_set(ts_dp *s, int i, unsigned char *key, const uint64_t *set,
                    tilesat_error *err) {
  if (s->setraw) {
    memcpy(key + s->setoff, set, (size_t)s->setbytes);
    return true;
  }
  long id =
      s->fix_id ? fixed_find(s, i, set) : book_id(s, &s->books[i % 2], set);
  if (id < 0 && s->fix_id)
    ts_error(err, NULL, 0,
             "internal error: a candidate set missing from its book");
  else if (id < 0)
    ts_error(err, NULL, 0,
             "internal error: more candidate sets than %d bytes number",
             s->setbytes);
  if (id < 0)
    return false;
  put_id(s, key, id);
  return true;
}

/* The combinations of classes position i's earlier neighbours (each cell
 * once) may hold: a bound on its candidate sets, which are a function of
 * them. */
static double combinations(const ts_dp *s, int i) {
  const ts_dp_plan *p = &s->p;
  double n = 1;
  for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++)
    if (p->nb_slot[k] >= 0 && !seen_before(p, i, k))
      n *= s->nclasses[p->nb_mask[k]];
  return n;
}

/* Bytes of a set number: enough for every set one position may have; 0
 * when the number of sets is not bounded below 2^32. */
static int set_bytes(const ts_dp *s) {
  double most = 1;
  for (int i = 0; i < s->p.ncells; i++) {
    double sets = combinations(s, i);
    most = sets > most ? sets : most;
  }
  return most < 65535 ? 2 : most < 16777215 ? 3 : most < 4294967295.0 ? 4 : 0;
}

/* Which tiles may stand at position i given the state's earlier
 * neighbours: an AND of compat masks. */
void ts_dp_candidates(const ts_dp *s, int i, const unsigned char *key,
                      uint64_t *mask) {
  const ts_dp_plan *p = &s->p;
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

bool ts_dp_self_ok(const ts_dp *s, int i, int t) {
  const tilesat_rules *r = s->map->rules;
  for (int k = s->p.nb_start[i]; k < s->p.nb_start[i + 1]; k++)
    if (s->p.nb_slot[k] < 0 && !ts_bit(ts_allowed(r, t, s->p.nb_dir[k]), t))
      return false;
  return true;
}

/* The tiles position i's own wrap-around edges allow, into ok. */
static void self_mask(const ts_dp *s, int i, uint64_t *ok) {
  for (int wd = 0; wd < s->twords; wd++)
    ok[wd] = 0;
  for (int t = 0; t < s->p.T; t++)
    if (ts_dp_self_ok(s, i, t))
      ok[t >> 6] |= (uint64_t)1 << (t & 63);
}

/* The state after position i as far as it does not depend on the tile
 * placed: the window shifted, and the earlier neighbours coarsened (they
 * have one ts_dp_pending direction less). */
static void next_base(const ts_dp *s, int i, const unsigned char *key,
                      unsigned char *out) {
  const ts_dp_plan *p = &s->p;
  memset(out, 0, (size_t)p->keywords * 8);
  size_t T = (size_t)p->T;
  memcpy(out, key + 1, (size_t)p->K - 1);
  memcpy(out + p->K, key + p->K, (size_t)p->nanchor);
  for (int r = p->rm_start[i]; r < p->rm_start[i + 1]; r++) {
    const unsigned char *to = s->cls + (size_t)p->rm_to[r] * T;
    const int *from = s->rep + (size_t)p->rm_from[r] * T;
    if (p->rm_wslot[r] >= 0)
      out[p->rm_wslot[r]] = to[from[out[p->rm_wslot[r]]]];
    if (p->rm_aslot[r] >= 0)
      out[p->rm_aslot[r]] = to[from[out[p->rm_aslot[r]]]];
  }
}

/* The placed cell's class c into the state after position i. */
static inline void place_class(const ts_dp_plan *p, int i, unsigned char c,
                               unsigned char *out) {
  out[p->K - 1] = c;
  if (p->anchor_slot[i] >= 0)
    out[p->anchor_slot[i]] = c;
}

void ts_dp_next_key(const ts_dp *s, int i, const unsigned char *key, int t,
                    unsigned char *out) {
  next_base(s, i, key, out);
  place_class(&s->p, i, s->cls[(size_t)s->p.place_mask[i] * s->p.T + t], out);
}

/* Tile classes for every ts_dp_pending set (see struct dp). */
static void make_classes(ts_dp *s) {
  const tilesat_rules *r = s->map->rules;
  int T = s->p.T, nmasks = 1 << r->ndirs;
  size_t words = (size_t)r->words;
  s->cls = ts_malloc((size_t)nmasks * (size_t)T);
  s->rep = ts_malloc((size_t)nmasks * (size_t)T * sizeof *s->rep);
  s->nclasses = ts_malloc((size_t)nmasks * sizeof *s->nclasses);

  for (int mask = 0; mask < nmasks; mask++) {
    unsigned char *cls = s->cls + (size_t)mask * (size_t)T;
    int *rep = s->rep + (size_t)mask * (size_t)T;
    int nclasses = 0;
    for (int t = 0; t < T; t++) {
      int c = nclasses;
      for (int k = 0; k < nclasses && c == nclasses; k++) {
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
    s->nclasses[mask] = nclasses;
  }
}

/* The seen key's books built before the run (struct dp's fix_id): position
 * i's set is a function of its earlier neighbours' classes
 * (ts_dp_candidates), so every combination of them is tried, in one
 * order in every process, and its set's number kept in a table that a
 * state then reads instead of intersecting masks and looking the set up.
 * fixed_work: the combinations in all, 0 when more than FIXED_WORK
 * (wrap-around maps of many classes).  Every position's sets are kept in
 * one array, at most one a combination. */
#define FIXED_WORK ((size_t)1 << 20)

static size_t fixed_work(const ts_dp *s) {
  double work = 0;
  for (int i = 0; i < s->p.ncells && work <= (double)FIXED_WORK; i++)
    work += combinations(s, i);
  return work <= (double)FIXED_WORK ? (size_t)work : 0;
}

/* What the books of `work` combinations take at most, counted against the
 * memory bound: a number and a set each. */
static size_t fixed_bound(const ts_dp *s, size_t work) {
  return work * (sizeof *s->fix_id + (size_t)s->twords * 8);
}

/* The books of fixed_work's `work` combinations, fixed_bound of them
 * reserved (after the constraints, which may ban tiles from cells); false
 * with err on a bug (more sets than set_bytes' bound). */
static bool fixed_books(ts_dp *s, size_t work, tilesat_error *err) {
  const ts_dp_plan *p = &s->p;
  int n = p->ncells, tw = s->twords;
  s->fix_bytes = fixed_bound(s, work);
  s->fix_sets = ts_malloc(work * (size_t)tw * sizeof *s->fix_sets);
  s->fix_set_off = ts_malloc(((size_t)n + 1) * sizeof *s->fix_set_off);
  s->fix_id = ts_malloc(work * sizeof *s->fix_id);
  s->fix_off = ts_malloc(((size_t)n + 1) * sizeof *s->fix_off);
  s->fix_start = ts_malloc(((size_t)n + 1) * sizeof *s->fix_start);
  s->fix_slot = ts_malloc(((size_t)p->nb_start[n] + 1) * sizeof *s->fix_slot);
  s->fix_stride =
      ts_malloc(((size_t)p->nb_start[n] + 1) * sizeof *s->fix_stride);
  unsigned char *key = ts_calloc((size_t)p->keywords, 8);
  int *radix = ts_malloc(((size_t)p->nb_start[n] + 1) * sizeof *radix);
  uint64_t *set = ts_malloc((size_t)tw * sizeof *set);
  uint64_t *self = ts_malloc((size_t)tw * sizeof *self);
  ts_dp_setbook b = {0}; /* one position's, copied out to fix_sets */
  size_t off = 0, nsets = 0;
  int m = 0;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    s->fix_off[i] = off;
    s->fix_start[i] = m;
    uint32_t stride = 1;
    for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++)
      if (p->nb_slot[k] >= 0 && !seen_before(p, i, k)) {
        s->fix_slot[m] = p->nb_slot[k];
        s->fix_stride[m] = stride;
        radix[m] = s->nclasses[p->nb_mask[k]];
        stride *= (uint32_t)radix[m++];
      }
    self_mask(s, i, self);
    memset(key, 0, (size_t)p->keywords * 8);
    book_clear(&b);
    int d = m - s->fix_start[i], j = d;
    const int *slot = s->fix_slot + s->fix_start[i];
    const int *digits = radix + s->fix_start[i];
    do { /* every combination, as an odometer (the first digit fastest) */
      ts_dp_candidates(s, i, key, set);
      bool any = false;
      for (int w = 0; w < tw; w++)
        any |= (set[w] &= self[w]) != 0;
      long id = book_id(s, &b, set); /* empty too: ts_dp_start's */
      s->fix_id[off++] = any && id >= 0 ? (uint32_t)id : FIX_EMPTY;
      ok &= id >= 0; /* at most set_bytes' bound of sets: a bug otherwise */
      for (j = 0; j < d && ++key[slot[j]] == digits[j]; j++)
        key[slot[j]] = 0;
    } while (j < d);
    s->fix_set_off[i] = nsets;
    memcpy(s->fix_sets + nsets * (size_t)tw, b.sets, b.n * (size_t)tw * 8);
    nsets += b.n;
  }
  s->fix_off[n] = off;
  s->fix_start[n] = m;
  s->fix_set_off[n] = nsets;
  s->fix_sets = ts_realloc(s->fix_sets, (nsets ? nsets : 1) * (size_t)tw * 8);
  size_t bytes = work * sizeof *s->fix_id + nsets * (size_t)tw * 8;
  s->used_memory -= s->fix_bytes - bytes;
  s->fix_bytes = bytes;
  free(b.sets);
  free(b.index);
  free(key);
  free(radix);
  free(set);
  free(self);
  if (!ok)
    ts_error(err, NULL, 0,
             "internal error: more candidate sets than %d bytes number",
             s->setbytes);
  return ok;
}

/* A DP over the plan `chosen` (taken over: ts_dp_free frees it), keeping m's
 * constraints and counting `by` (ts_dp_open).  0, or -1 with err. */
static int dp_setup(ts_dp *s, const tilesat_map *m,
                    const tilesat_count_options *o, const ts_dp_plan *chosen,
                    const char *what, const uint64_t *by, bool seen,
                    ts_dp_sets sets, tilesat_error *err) {
  memset(s, 0, sizeof *s);
  const tilesat_rules *r = m->rules;
  int T = r->ntiles;
  s->map = m;
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
  make_classes(s);
  s->sizes = ts_calloc((size_t)m->ncells + 1, sizeof *s->sizes);
  s->setoff = s->p.L;
  if (seen && m->ncells > 0)
    s->setbytes = set_bytes(s);
  size_t work = 0;
  tilesat_error ignored;
  if (s->setbytes && (sets == TS_DP_SETS_AUTO || sets == TS_DP_SETS_SHARED) &&
      (work = fixed_work(s)) &&
      !ts_dp_reserve(s, fixed_bound(s, work), 0, &ignored))
    work = 0; /* past the memory bound: numbered as met, or the sets */
  if (s->setbytes && !work &&
      (sets == TS_DP_SETS_RAW || sets == TS_DP_SETS_SHARED)) {
    s->setraw = true;
    s->setoff = (s->p.L + 7) / 8 * 8;
    s->setbytes = s->twords * 8;
  }
  if (ts_dp_ext_setup(s, by, err))
    return -1;
  return work && !fixed_books(s, work, err) ? -1 : 0;
}

/* ts_dp_run's buffers for one position, reused from one to the next. */
typedef struct run_scratch {
  /* The total of the layer being built, summed as it is built; the layer
   * after it is sized for at most 2^lgT times that. */
  mpz_t total;
  uint64_t *mask;     /* candidate tiles of the state at hand */
  uint64_t *selfok;   /* tiles the position's own wrap-around edges allow */
  uint64_t *base;     /* next_base of the state at hand */
  bool filtered;      /* s->keep may refuse states of the layer being built */
  uint64_t *selfnext; /* the seen key: selfok of the next position */
  uint64_t *plain;    /* the seen key: the plain key after the position */
  ts_dp_batch b;      /* to next */
  /* per state: the candidate tiles of each class, and the classes met */
  mp_limb_t *mult;
  int *used, *first;
} run_scratch;

int ts_dp_owner(const ts_dp *s, const uint64_t *key) {
  return ts_dp_owner_of(s, ts_dp_hash_key(key, s->p.keywords));
}

/* batch_push of the key at w->b's next slot, to the outbox when another
 * shard owns it (the key hashed once for both). */
static bool route_push(ts_dp *s, ts_dp_layer *next, run_scratch *w,
                       const mp_limb_t *add, int nlimbs, mp_limb_t mult,
                       tilesat_error *err) {
  const uint64_t *key = ts_dp_batch_key(s, &w->b);
  uint64_t h = ts_dp_hash_key(key, s->p.keywords);
  int owner = s->nshards > 1 ? ts_dp_owner_of(s, h) : s->shard;
  if (owner != s->shard)
    return ts_dp_outbox_put(s, next, owner, key, add, nlimbs, mult, err);
  return ts_dp_batch_push_hashed(s, next, &w->b, h, add, nlimbs, mult, err);
}

/* Extend state e of `cur` by every tile position i takes, into `next`. */
static bool extend_state(ts_dp *s, int i, const unsigned char *cls,
                         const unsigned char *grp, const ts_dp_layer *cur,
                         size_t e, ts_dp_layer *next, run_scratch *w,
                         tilesat_error *err) {
  const unsigned char *k = (const unsigned char *)entry_key(cur, e);
  ts_dp_candidates(s, i, k, w->mask);
  /* tiles of one group (a class, or with constraints a class and the
   * same constraint classes) lead to the same state: add the count once,
   * times the number of candidate tiles in the group */
  const mp_limb_t *count = entry_count(s, cur, e);
  unsigned long extensions = 0;
  int nclasses = 0;
  for (int wd = 0; wd < s->twords; wd++)
    for (uint64_t bits = w->mask[wd] & w->selfok[wd]; bits; bits &= bits - 1) {
      int t = wd * 64 + __builtin_ctzll(bits);
      int c = grp[t];
      if (!w->mult[c]++) {
        w->used[nclasses++] = c;
        w->first[c] = t;
      }
    }
  if (nclasses)
    next_base(s, i, k, (unsigned char *)w->base);
  for (int j = 0; j < nclasses; j++) {
    int c = w->used[j];
    extensions += w->mult[c];
    unsigned char *key = (unsigned char *)ts_dp_batch_key(s, &w->b);
    memcpy(key, w->base, (size_t)s->p.keywords * 8);
    place_class(&s->p, i, cls[w->first[c]], key);
    mp_limb_t mult = w->mult[c];
    w->mult[c] = 0;
    if (s->ext.grp && !ts_dp_ext_next(s, i, k, w->first[c], key))
      continue;
    if (w->filtered && !s->keep(s->keep_user, i + 1, key))
      continue;
    if (!route_push(s, next, w, count, cur->nlimbs, mult, err))
      return false;
  }
  mpz_t view;
  mpz_addmul_ui(w->total, mpz_roinit_n(view, count, cur->nlimbs), extensions);
  return true;
}

/* extend_state under the seen key: the state's set is its ts_dp_candidates; a
 * tile's plain successor (the frontier with the placed cell's class) gives
 * the next position's set, and then its own frontier as it will be after
 * that position.  A successor whose next position has no tile is dropped
 * (counted in w->total all the same: a bound). */
static bool extend_seen(ts_dp *s, int i, const unsigned char *cls,
                        const unsigned char *grp, const ts_dp_layer *cur,
                        size_t e, ts_dp_layer *next, run_scratch *w,
                        tilesat_error *err) {
  const ts_dp_plan *p = &s->p;
  const unsigned char *k = (const unsigned char *)entry_key(cur, e);
  const uint64_t *set = get_set(s, i, k);
  const mp_limb_t *count = entry_count(s, cur, e);
  unsigned long extensions = 0;
  int nclasses = 0;
  for (int wd = 0; wd < s->twords; wd++)
    for (uint64_t bits = set[wd]; bits; bits &= bits - 1) {
      int t = wd * 64 + __builtin_ctzll(bits);
      int c = grp[t];
      if (!w->mult[c]++) {
        w->used[nclasses++] = c;
        w->first[c] = t;
      }
    }
  unsigned char *pk = (unsigned char *)w->plain;
  size_t bytes = (size_t)p->keywords * 8;
  bool last = i + 1 == p->ncells;
  for (int j = 0; j < nclasses; j++) {
    int c = w->used[j];
    extensions += w->mult[c];
    mp_limb_t mult = w->mult[c];
    w->mult[c] = 0;
    memcpy(pk, k, bytes);
    memset(pk + s->setoff, 0, (size_t)s->setbytes);
    place_class(p, i, cls[w->first[c]], pk);
    unsigned char *key = (unsigned char *)ts_dp_batch_key(s, &w->b);
    if (last) {
      memcpy(key, pk, bytes);
    } else if (s->fix_id) {
      uint32_t id = fixed_id(s, i + 1, pk);
      if (id == FIX_EMPTY)
        continue;
      next_base(s, i + 1, pk, key);
      put_id(s, key, id);
    } else {
      ts_dp_candidates(s, i + 1, pk, w->mask);
      bool any = false;
      for (int wd = 0; wd < s->twords; wd++)
        any |= (w->mask[wd] &= w->selfnext[wd]) != 0;
      if (!any)
        continue;
      next_base(s, i + 1, pk, key);
      if (!put_set(s, i + 1, key, w->mask, err))
        return false;
    }
    if (s->ext.grp && !ts_dp_ext_next(s, i, k, w->first[c], key))
      continue;
    if (!route_push(s, next, w, count, cur->nlimbs, mult, err))
      return false;
  }
  mpz_t view;
  mpz_addmul_ui(w->total, mpz_roinit_n(view, count, cur->nlimbs), extensions);
  return true;
}

/* Layer i + 1 from layer i (`cur`): every state extended at position i. */
static bool dp_step(ts_dp *s, int i, const ts_dp_layer *cur, ts_dp_layer *next,
                    run_scratch *w, tilesat_error *err) {
  const ts_dp_plan *p = &s->p;
  /* Room for as many states as the layer had when built before, else as
   * now or as a line before if more (layers grow and shrink the same way
   * along each line), so few rehashes; a filtered layer grows from
   * nothing. */
  w->filtered = s->keep && s->cuts(s->keep_user, i + 1);
  size_t n = s->sizes[i + 1] ? s->sizes[i + 1] : cur->n;
  if (!s->sizes[i + 1] && i + 1 >= p->stride && s->sizes[i + 1 - p->stride] > n)
    n = s->sizes[i + 1 - p->stride];
  n = w->filtered ? 0 : n;
  size_t width = mpz_sizeinbase(w->total, 2) + (size_t)s->lgT;
  int nlimbs = (int)((width + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
  if (!ts_dp_layer_prepare(s, next, ts_dp_index_slots(n), n + n / 8 + 16,
                           nlimbs, cur->n, err))
    return false;
  if (s->nshards > 1 && !ts_dp_outbox_prepare(s, nlimbs, err))
    return false;
  mpz_set_ui(w->total, 0);
  const unsigned char *cls = s->cls + (size_t)p->place_mask[i] * (size_t)p->T;
  const unsigned char *grp =
      s->ext.grp ? s->ext.grp + (size_t)p->place_mask[i] * (size_t)p->T : cls;
  self_mask(s, i, w->selfok);
  if (s->setbytes && i + 1 < p->ncells) {
    self_mask(s, i + 1, w->selfnext);
    book_clear(&s->books[(i + 1) % 2]);
  }
  for (size_t e = 0; e < cur->n; e++) {
    if ((e & 0xfffff) == 0 && e && s->progress) { /* a long cell says so */
      char line[160];
      snprintf(line, sizeof line,
               "dp: cell %d of %d, %zu of %zu states carried on, %zu MiB",
               i + 1, p->ncells, e, cur->n, s->used_memory >> 20);
      s->progress(s->progress_user, line);
    }
    if ((e & 0xffff) == 0 && ts_terminated(s->solve)) {
      ts_error(err, s->what, 0, "interrupted");
      return false;
    }
    if (!(s->setbytes ? extend_seen : extend_state)(s, i, cls, grp, cur, e,
                                                    next, w, err))
      return false;
  }
  return ts_dp_batch_flush(s, next, &w->b, err);
}

bool ts_dp_start(ts_dp *s, ts_dp_layer *l, tilesat_error *err) {
  uint64_t *key = ts_calloc((size_t)s->p.keywords, 8);
  mp_limb_t one = 1;
  bool ok = ts_dp_layer_prepare(s, l, 16, 16, 1, 1, err), any = true;
  if (ok && s->setbytes) { /* position 0's set (no earlier neighbours) */
    uint64_t *set = ts_malloc((size_t)s->twords * sizeof *set);
    uint64_t *selfok = ts_malloc((size_t)s->twords * sizeof *selfok);
    ts_dp_candidates(s, 0, (const unsigned char *)key, set);
    self_mask(s, 0, selfok);
    any = false;
    for (int wd = 0; wd < s->twords; wd++)
      any |= (set[wd] &= selfok[wd]) != 0;
    book_clear(&s->books[0]);
    ok = put_set(s, 0, (unsigned char *)key, set, err);
    free(set);
    free(selfok);
  }
  if (s->nshards > 1 && ts_dp_owner(s, key) != s->shard)
    any = false; /* another shard's */
  ok = ok && (!any || ts_dp_layer_add(s, l, key, &one, 1, err));
  free(key);
  return ok;
}

const ts_dp_layer *ts_dp_run(ts_dp *s, const ts_dp_layer *start, int from,
                             int to, tilesat_error *err) {
  const ts_dp_plan *p = &s->p;
  run_scratch w = {
      .mask = ts_malloc((size_t)s->twords * sizeof *w.mask),
      .selfok = ts_malloc((size_t)s->twords * sizeof *w.selfok),
      .selfnext = ts_malloc((size_t)s->twords * sizeof *w.selfnext),
      .plain = ts_calloc((size_t)p->keywords, 8),
      .base = ts_calloc((size_t)p->keywords, 8),
      .b = {.keys = ts_calloc(TS_DP_BATCH * (size_t)p->keywords, 8)},
      .mult = ts_calloc((size_t)p->T, sizeof *w.mult),
      .used = ts_malloc((size_t)p->T * sizeof *w.used),
      .first = ts_malloc((size_t)p->T * sizeof *w.first),
  };
  mpz_init(w.total);
  ts_dp_layer_total(s, start, w.total);
  const ts_dp_layer *cur = start;
  for (int i = from; i < to && cur; i++) {
    ts_dp_layer *next = &s->layers[(i + 1) % 2];
    if (cur == &s->layers[i % 2])
      ts_dp_layer_pass_index(&s->layers[i % 2], next);
    bool ok = true;
    if (ts_terminated(s->solve)) {
      ts_error(err, s->what, 0, "interrupted");
      ok = false;
    } else {
      ok = dp_step(s, i, cur, next, &w, err);
    }
    if (s->nshards > 1) /* every shard, failed or not */
      ok = ts_dp_shard_end(s, next, w.total, ok, err);
    if (!ok || (s->built && !s->built(s, i + 1, next, err))) {
      cur = NULL;
    } else {
      cur = next;
      s->last_states = cur->n;
      if (!w.filtered)
        s->sizes[i + 1] = cur->n;
      if (s->progress) {
        char line[128];
        snprintf(line, sizeof line, "dp: cell %d of %d, %zu states, %zu MiB",
                 i + 1, p->ncells, cur->n, s->used_memory >> 20);
        s->progress(s->progress_user, line);
      }
    }
  }
  mpz_clear(w.total);
  free(w.mask);
  free(w.selfok);
  free(w.selfnext);
  free(w.plain);
  free(w.base);
  free(w.b.keys);
  free(w.mult);
  free(w.used);
  free(w.first);
  return cur;
}

void ts_dp_layer_total(const ts_dp *s, const ts_dp_layer *l, mpz_t total) {
  mpz_set_ui(total, 0);
  for (size_t e = 0; e < l->n; e++) {
    mpz_t c;
    mpz_add(total, total, mpz_roinit_n(c, entry_count(s, l, e), l->nlimbs));
  }
}

void ts_dp_layer_total_kept(const ts_dp *s, const ts_dp_layer *l, mpz_t total) {
  mpz_set_ui(total, 0);
  for (size_t e = 0; e < l->n; e++) {
    mpz_t c;
    if (!s->ext.grp ||
        ts_dp_ext_accept(s, (const unsigned char *)entry_key(l, e)))
      mpz_add(total, total, mpz_roinit_n(c, entry_count(s, l, e), l->nlimbs));
  }
}

/* Row-major or column-major?  The frontier's length is not the whole
 * story: coast rows are nearly free (about 2.4^W states) while its columns
 * are only L* C? S*.  So when both are possible, run each for two lines
 * with a state cap and keep the one that grew less. */
#define PROBE_CAP 20000

/* A probe's ts_dp_run hook: stop (capped) once a layer holds more than
 * PROBE_CAP states. */
static bool probe_built(ts_dp *s, int pos, const ts_dp_layer *l,
                        tilesat_error *err) {
  (void)pos;
  (void)err;
  if (l->n <= PROBE_CAP)
    return true;
  *(bool *)s->built_user = true;
  return false;
}

/* How many states the order `column_major` has after two lines (capped),
 * or -1 with err; its plan in *pl either way. */
static int probe(const tilesat_map *m, const tilesat_count_options *o,
                 bool column_major, const char *what, const uint64_t *by,
                 bool seen, ts_dp_plan *pl, size_t *states, bool *capped,
                 tilesat_error *err) {
  ts_dp_plan_build(m, column_major, pl);
  int upto = 2 * pl->stride < m->ncells ? 2 * pl->stride : m->ncells;
  ts_dp s;
  /* two lines: not worth books built for the whole map */
  int rc = dp_setup(&s, m, o, pl, what, by, seen, TS_DP_SETS_MET, err);
  s.built = probe_built;
  s.built_user = capped;
  *capped = false;
  rc = !rc && ts_dp_start(&s, &s.layers[0], err) &&
               (ts_dp_run(&s, &s.layers[0], 0, upto, err) || *capped)
           ? 0
           : -1;
  *states = s.last_states;
  pl->ban = s.p.ban; /* (a connected constraint's cell may add bans) */
  memset(&s.p, 0, sizeof s.p); /* the plan stays the caller's */
  ts_dp_free(&s);
  return rc;
}

/* Bytes of a plan a cell (plan_build): its ints per position, its
 * earlier neighbours and removals (D/2 a cell on average: each edge once,
 * at its later end) in vectors that grow by doubling, and its bans (a
 * part of a map has some even when the map has none); and the dp's sizes.
 * A one-tile 2000x2000 map, both plans of the probe held, peaked at 238
 * bytes a cell against 2 * 197 + 8. */
static double plan_bytes_per_cell(const tilesat_map *m) {
  int words = (m->rules->ntiles + 63) / 64;
  return 37 + 38.0 * m->rules->ndirs + 8.0 * words;
}

/* Refuse a map whose plans (two while probing) would not fit the dp's
 * bound (which, like its layers, they count against), before building
 * them.  0, or -1 with err. */
static int plan_refuse(const tilesat_map *m, const tilesat_count_options *o,
                       int plans, const char *what, tilesat_error *err) {
  size_t bound = o->max_memory < m->max_memory ? o->max_memory : m->max_memory;
  ts_need fit = {0, plans * plan_bytes_per_cell(m) + 8, 0};
  return ts_memory_refuse_within(m, ts_need_at(fit, m->width, m->height), fit,
                                 (double)bound, what, err);
}

int ts_dp_refuse(const tilesat_map *m, const tilesat_count_options *o,
                 const char *what, tilesat_error *err) {
  return plan_refuse(m, o, 2, what, err);
}

/* Row-major or column-major: fewer states wins; a capped probe loses; ties
 * go to the shorter key. */
static int choose_plan(const tilesat_map *m, const tilesat_count_options *o,
                       ts_dp_order order, const uint64_t *by, bool seen,
                       ts_dp_plan *out, tilesat_error *err, const char *what) {
  if (m->rules->ntiles > DP_MAX_TILES) {
    if (!strcmp(what, "sample"))
      ts_error(err, what, 0,
               "exact sampling uses the DP, which handles at most %d tiles "
               "(this rule set has %d): use --method approx",
               DP_MAX_TILES, m->rules->ntiles);
    else if (by) /* enum and approx count no distribution */
      ts_error_param(err, "by-tile",
                     "counts with the DP, which handles at most %d tiles (this "
                     "rule set has %d)",
                     DP_MAX_TILES, m->rules->ntiles);
    else
      ts_error(err, what, 0,
               "the DP handles at most %d tiles (this rule set has %d): use "
               "--method enum or approx",
               DP_MAX_TILES, m->rules->ntiles);
    return -1;
  }
  if (plan_refuse(m, o, order == TS_DP_PROBE ? 2 : 1, what, err))
    return -1;
  if (order != TS_DP_PROBE) {
    ts_dp_plan_build(m, order == TS_DP_COLUMNS, out);
    return 0;
  }
  ts_dp_plan pl[2];
  size_t states[2];
  bool capped[2];
  for (int i = 0; i < 2; i++)
    if (probe(m, o, i == 1, what, by, seen, &pl[i], &states[i], &capped[i],
              err)) {
      for (int j = 0; j <= i; j++)
        ts_dp_plan_free(&pl[j]);
      return -1;
    }
  int pick;
  if (capped[0] != capped[1])
    pick = capped[0] ? 1 : 0;
  else if (!capped[0] && states[0] != states[1])
    pick = states[1] < states[0];
  else
    pick = pl[1].L < pl[0].L;
  *out = pl[pick];
  ts_dp_plan_free(&pl[!pick]);
  return 0;
}

static int open_keyed(ts_dp *s, const tilesat_map *m,
                      const tilesat_count_options *o, ts_dp_order order,
                      const char *what, const uint64_t *by, bool seen,
                      ts_dp_sets sets, tilesat_error *err) {
  ts_dp_plan p;
  if (choose_plan(m, o, order, by, seen, &p, err, what))
    return -1;
  if (!dp_setup(s, m, o, &p, what, by, seen, sets, err))
    return 0;
  ts_dp_free(s);
  return -1;
}

int ts_dp_open(ts_dp *s, const tilesat_map *m, const tilesat_count_options *o,
               ts_dp_order order, const char *what, const uint64_t *by,
               tilesat_error *err) {
  return open_keyed(s, m, o, order, what, by, false, false, err);
}

int ts_dp_open_count(ts_dp *s, const tilesat_map *m,
                     const tilesat_count_options *o, ts_dp_order order,
                     const uint64_t *by, bool plain, ts_dp_sets sets,
                     tilesat_error *err) {
  return open_keyed(s, m, o, order, "count", by, !plain, sets, err);
}

/* The count, and with `by` (count --by-tile) dist[k] (ncells + 1 of
 * them, set here): the maps with k cells holding a tile of by. */
static int dp_count_by(const tilesat_map *m, const tilesat_count_options *o,
                       const uint64_t *by, mpz_t count, mpz_t *dist,
                       tilesat_error *err) {
  ts_dp s;
  if (ts_dp_open_count(&s, m, o, TS_DP_PROBE, by, o->dp_plain_key,
                       (ts_dp_sets)o->dp_sets, err))
    return -1;
  const ts_dp_layer *last = NULL;
  if (ts_dp_start(&s, &s.layers[0], err))
    last = ts_dp_run(&s, &s.layers[0], 0, m->ncells, err);
  for (int k = 0; by && k <= m->ncells; k++)
    mpz_set_ui(dist[k], 0);
  mpz_set_ui(count, 0);
  if (last)
    ts_dp_layer_total_kept(&s, last, count);
  for (size_t e = 0; last && by && e < last->n; e++) {
    const unsigned char *key = (const unsigned char *)entry_key(last, e);
    mpz_t c;
    mpz_roinit_n(c, entry_count(&s, last, e), last->nlimbs);
    if (ts_dp_ext_accept(&s, key))
      mpz_add(dist[ts_dp_ext_by(&s, key)], dist[ts_dp_ext_by(&s, key)], c);
  }
  ts_dp_free(&s);
  return last ? 0 : -1;
}

int ts_dp_count(const tilesat_map *m, const tilesat_count_options *o,
                mpz_t count, tilesat_error *err) {
  return dp_count_by(m, o, NULL, count, NULL, err);
}

int ts_dp_count_by_tile(const tilesat_map *m, const tilesat_count_options *o,
                        const uint64_t *by, mpz_t count, mpz_t *dist,
                        tilesat_error *err) {
  return dp_count_by(m, o, by, count, dist, err);
}
