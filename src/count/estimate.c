/* estimate.c: the number of valid maps where the exact dp cannot finish,
 * estimated by sequential Monte Carlo, with an error bar.
 *
 * Self-reducibility over cells, the telescoping product at its finest:
 * in reading order, let Z_k count the fillings of the first k cells that
 * keep every constraint among them (rules between placed neighbours,
 * through the wrap and by the hex adjacency, pins and bans).  Z_0 = 1 and
 * Z_N is the number of valid maps.  N particles, each a filling of the
 * first k cells, carry the product: every particle extends its filling by
 * a tile for cell k and its weight is multiplied by the ratio of the
 * targets over the probability of the tile drawn; when the weights grow
 * uneven (effective sample size below N / 2) the mean weight goes into the
 * product and the particles are resampled in proportion to their weights
 * (systematic resampling).  The product of the mean weights is an
 * unbiased estimate of Z_N (Del Moral, "Feynman-Kac Formulae", 2004),
 * whatever the intermediate targets, as long as each is positive on every
 * filling that a valid map extends.  A particle keeps only the tiles
 * that a cell still to come looks at: the last K cells (K: the longest gap
 * to an earlier neighbour, W + 2 at most) and, on periodic maps, the first
 * row, which the last row wraps onto.
 *
 * Two things make the weights even, which is what makes the estimate
 * precise:
 *  - forward checking: a tile is drawn only among those that leave every
 *    later neighbour of the cell some tile (given the cells placed), so
 *    fewer particles run into a cell with no tile (weight 0);
 *  - a twist: the target of k cells is their number of fillings weighted,
 *    for every placed cell and every neighbour still to come, by a factor
 *    of how open its tile leaves that side, the message of belief
 *    propagation on the infinite grid of the rules (the Bethe
 *    approximation) raised to a power alpha.  alpha 0 is plain counting.
 *    Belief propagation can be far off: on Rooms it converges to a
 *    fixed point with no room in it (closed rooms are loops, which it does
 *    not see), and twisted particles then miss most maps.  So short pilot
 *    runs try alpha 0, 1/2 and 1 and the main runs take the one whose
 *    estimate is highest: every alpha gives an unbiased estimate of Z, and
 *    the log of an unbiased estimate falls short of log Z by the mass its
 *    particles miss, so the highest is the one that misses least.
 *
 * Independent replicates (each with its own random stream) give ln Z-hat
 * values z_r.  The estimate is ln of their mean exp(z_r) (the mean of
 * unbiased estimates); its 95% half width is Student's t quantile times
 * sqrt(ln(1 + (exp(s^2) - 1) / R)), s the spread of the z_r: the
 * standard error of the log of a mean of R log-normal values, s / sqrt(R)
 * when s is small, about s when it is large (then one replicate makes the
 * mean).  The pilot of the chosen alpha ran with a quarter of the
 * particles: when the mean of its ln Z-hat falls short of the main runs'
 * (a mean of logs: unlike the estimate, it does not grow with the number
 * of replicates), the particles are not enough yet, the logs still grow
 * with them, and that shortfall is added to the half width. */
#include "core/rng.h"
#include "count/count.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How far the estimate is: particle-cells done of those planned, from
 * its start (CPU seconds); predicted past `limit` seconds (0: none), it
 * stops, saying so (auto's estimate beside the bounds: a minute). */
typedef struct pace {
  double t0, w0; /* CPU (for the limit) and wall (for the time left) */
  double planned, done, limit;
  int replicates, particles;
  bool over;
} pace;

static double clock_now(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void) { return clock_now(CLOCK_PROCESS_CPUTIME_ID); }

typedef struct smc {
  pace *pace; /* shared by every run of one estimate */
  const tilesat_map *m;
  int N, T, D, words, K, nanchor, slots; /* slots = K + nanchor */
  double alpha;                          /* the twist's power (0: none) */
  /* cell k's placed neighbours: [nb_start[k], nb_start[k+1]) with the
   * particle slot holding them and the direction from k */
  int *nb_start, *nb_slot, *nb_dir;
  int *keep;        /* cell -> its slot in the window (k % K) */
  int *anchor;      /* cell -> its anchor slot, or -1 */
  uint64_t *base;   /* per cell: tiles pins and bans leave, words */
  uint64_t *compat; /* [dir][u][words]: tiles t that allow u in dir */
  /* Forward checking: the neighbours of cell k placed after it, each
   * [look_start[k], look_start[k+1]) with the direction from k, the cell,
   * and its own neighbours placed before k: [lk_start[e], lk_start[e+1])
   * with their slots and directions from it. */
  int *look_start, *look_dir, *look_cell, *lk_start, *lk_slot, *lk_dir;
  /* Up to 64 tiles, what forward checking needs precomputed: for an entry
   * with no neighbour placed, the tiles k may take (look_static); with one
   * and every tile left to the later cell by pins and bans, a row
   * look_pair[e] = d * D + e of pair[(d * D + e) * T + x]: the tiles t
   * allowing some v in direction d such that v allows x in direction e. */
  uint64_t *look_static, *pair;
  int *look_pair;
  /* The twist (see bp_messages): later[k], the directions of cell k's
   * later neighbours as a bit mask; twist[mask * T + t], the product of
   * the messages into t from those directions; nb_back[j], the direction
   * from placed neighbour j to the cell; untwist[d * T + x], 1 / the
   * message into x from direction d. */
  int *later, *nb_back;
  double *twist, *untwist;
} smc;

static void smc_free(smc *s) {
  free(s->nb_start);
  free(s->nb_slot);
  free(s->nb_dir);
  free(s->keep);
  free(s->anchor);
  free(s->base);
  free(s->compat);
  free(s->look_start);
  free(s->look_dir);
  free(s->look_cell);
  free(s->lk_start);
  free(s->lk_slot);
  free(s->lk_dir);
  free(s->look_static);
  free(s->pair);
  free(s->look_pair);
  free(s->later);
  free(s->nb_back);
  free(s->twist);
  free(s->untwist);
}

static inline void set_bit(uint64_t *set, int i) {
  set[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* The slot that holds cell x when cell k is placed (x < k): its window
 * slot while it is one of the last K cells, else its anchor. */
static int slot_of(const smc *s, int k, int x) {
  return k - x < s->K ? s->keep[x] : s->anchor[x];
}

static void smc_plan_look(smc *s, const tilesat_map *m) {
  int N = s->N, D = m->rules->ndirs;
  ts_ints ldir = {0}, lcell = {0}, lstart = {0}, lslot = {0}, ldir2 = {0};
  s->look_start = ts_malloc((size_t)(N + 1) * sizeof *s->look_start);
  for (int k = 0; k < N; k++) {
    s->look_start[k] = (int)ldir.n;
    for (int d = 0; d < D; d++) {
      int u = ts_map_neighbor(m, k, d);
      if (u <= k)
        continue;
      TS_PUSH(ldir, d);
      TS_PUSH(lcell, u);
      TS_PUSH(lstart, (int)lslot.n);
      for (int e = 0; e < D; e++) {
        int x = ts_map_neighbor(m, u, e);
        if (x < 0 || x >= k)
          continue; /* not placed before k (k itself is the candidate) */
        TS_PUSH(lslot, slot_of(s, k, x));
        TS_PUSH(ldir2, e);
      }
    }
  }
  s->look_start[N] = (int)ldir.n;
  TS_PUSH(lstart, (int)lslot.n);
  s->look_dir = ldir.v;
  s->look_cell = lcell.v;
  s->lk_start = lstart.v;
  s->lk_slot = lslot.v;
  s->lk_dir = ldir2.v;
}

/* Cell x is read when cell k is placed (x < k): it needs an anchor if it
 * has left the window by then (anchor[x] marked 0, numbered later). */
static void need(smc *s, int k, int x) {
  if (k - x >= s->K)
    s->anchor[x] = 0;
}

/* The window K: one more than the longest gap to an earlier neighbour up
 * to two rows.  Cells read after they left it are anchors: the earlier
 * ends of longer gaps (periodic wraps from the last row to the first),
 * and the cells forward checking reads, the placed neighbours of a later
 * neighbour. */
static void smc_plan(smc *s, const tilesat_map *m) {
  int N = s->N, D = m->rules->ndirs, limit = 2 * m->width;
  s->K = 1;
  s->anchor = ts_malloc((size_t)N * sizeof *s->anchor);
  for (int k = 0; k < N; k++) {
    s->anchor[k] = -1;
    for (int d = 0; d < D; d++) {
      int nb = ts_map_neighbor(m, k, d);
      if (nb >= 0 && nb < k && k - nb <= limit && k - nb + 1 > s->K)
        s->K = k - nb + 1;
    }
  }
  for (int k = 0; k < N; k++)
    for (int d = 0; d < D; d++) {
      int u = ts_map_neighbor(m, k, d);
      if (u >= 0 && u < k)
        need(s, k, u);
      for (int e = 0; u > k && e < D; e++) {
        int x = ts_map_neighbor(m, u, e);
        if (x >= 0 && x < k)
          need(s, k, x);
      }
    }
  for (int k = 0; k < N; k++)
    if (s->anchor[k] == 0)
      s->anchor[k] = s->K + s->nanchor++;
  s->slots = s->K + s->nanchor;
  s->keep = ts_malloc((size_t)N * sizeof *s->keep);
  for (int k = 0; k < N; k++)
    s->keep[k] = k % s->K;
  ts_ints slot = {0}, dir = {0};
  s->nb_start = ts_malloc((size_t)(N + 1) * sizeof *s->nb_start);
  for (int k = 0; k < N; k++) {
    s->nb_start[k] = (int)slot.n;
    for (int d = 0; d < D; d++) {
      int nb = ts_map_neighbor(m, k, d);
      if (nb < 0 || nb >= k)
        continue;
      TS_PUSH(slot, slot_of(s, k, nb));
      TS_PUSH(dir, d);
    }
  }
  s->nb_start[N] = (int)slot.n;
  s->nb_slot = slot.v;
  s->nb_dir = dir.v;
  smc_plan_look(s, m);
}

/* Belief propagation on the infinite grid of the rules (no borders, pins
 * or bans): msg[d * T + t] is the message into a cell holding t from its
 * neighbour in direction d, the Bethe approximation of how many ways the
 * grid beyond that neighbour can be filled, relative to the other tiles.
 * Damped iteration to a fixed point (at most 500 rounds); then each
 * direction's messages are divided by their largest and kept at least
 * 1e-6, so that no tile some map needs is ruled out (the twist must not
 * vanish where a valid map goes). */
/* One damped round of belief propagation on msg (D x T); returns the
 * largest change.  upd and out: D x T scratch. */
static double bp_round(const tilesat_rules *r, double *msg, double *upd,
                       double *out) {
  int D = r->ndirs, T = r->ntiles;
  /* out[back][v]: the messages into v from all directions but back */
  for (int back = 0; back < D; back++)
    for (int v = 0; v < T; v++) {
      double prod = 1;
      for (int e = 0; e < D; e++)
        if (e != back)
          prod *= msg[(size_t)e * (size_t)T + (size_t)v];
      out[(size_t)back * (size_t)T + (size_t)v] = prod;
    }
  for (int d = 0; d < D; d++) {
    const double *o =
        out + (size_t)tilesat_dir_opposite(r->topo, d) * (size_t)T;
    double *u = upd + (size_t)d * (size_t)T, total = 0;
    for (int t = 0; t < T; t++) {
      const uint64_t *allowed = ts_allowed(r, t, d);
      double sum = 0;
      for (int w = 0; w < r->words; w++)
        for (uint64_t b = allowed[w]; b; b &= b - 1)
          sum += o[w * 64 + __builtin_ctzll(b)];
      u[t] = sum;
      total += sum;
    }
    for (int t = 0; t < T; t++)
      u[t] = total > 0 ? u[t] / total : 1.0 / T;
  }
  double change = 0;
  for (size_t i = 0; i < (size_t)D * (size_t)T; i++) {
    double v = 0.5 * (msg[i] + upd[i]);
    change = fmax(change, fabs(v - msg[i]));
    msg[i] = v;
  }
  return change;
}

static double *bp_messages(const tilesat_rules *r) {
  int D = r->ndirs, T = r->ntiles;
  size_t n = (size_t)D * (size_t)T;
  double *msg = ts_malloc(n * sizeof *msg), *upd = ts_malloc(n * sizeof *upd);
  double *out = ts_malloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++)
    msg[i] = 1.0 / T;
  for (int round = 0; round < 500; round++)
    if (bp_round(r, msg, upd, out) < 1e-12)
      break;
  for (int d = 0; d < D; d++) {
    double top = 0, *m = msg + (size_t)d * (size_t)T;
    for (int t = 0; t < T; t++)
      top = fmax(top, m[t]);
    for (int t = 0; t < T; t++)
      m[t] = top > 0 ? fmax(m[t] / top, 1e-6) : 1;
  }
  free(upd);
  free(out);
  return msg;
}

/* The twist for alpha: twist[mask * T + t], the product of msg^alpha over
 * the directions in mask; untwist[d * T + t], msg^-alpha. */
static void smc_set_twist(smc *s, const double *msg, double alpha) {
  int D = s->D, T = s->T;
  s->alpha = alpha;
  for (int mask = 0; mask < 1 << D; mask++)
    for (int t = 0; t < T; t++) {
      double f = 1;
      for (int d = 0; d < D; d++)
        if (mask >> d & 1)
          f *= pow(msg[(size_t)d * (size_t)T + (size_t)t], alpha);
      s->twist[(size_t)mask * (size_t)T + (size_t)t] = f;
    }
  for (size_t i = 0; i < (size_t)D * (size_t)T; i++)
    s->untwist[i] = pow(msg[i], -alpha);
}

static void smc_plan_twist(smc *s, const tilesat_map *m) {
  int D = s->D, T = s->T;
  s->twist = ts_malloc(((size_t)1 << D) * (size_t)T * sizeof *s->twist);
  s->untwist = ts_malloc((size_t)D * (size_t)T * sizeof *s->untwist);
  s->later = ts_calloc((size_t)s->N, sizeof *s->later);
  for (int k = 0; k < s->N; k++)
    for (int e = s->look_start[k]; e < s->look_start[k + 1]; e++)
      s->later[k] |= 1 << s->look_dir[e];
  int nnb = s->nb_start[s->N];
  s->nb_back = ts_malloc(((size_t)nnb + 1) * sizeof *s->nb_back);
  for (int j = 0; j < nnb; j++)
    s->nb_back[j] = tilesat_dir_opposite(m->topo, s->nb_dir[j]);
}

/* forward_check1's tables (up to 64 tiles). */
static void smc_look_tables(smc *s, const tilesat_map *m) {
  if (s->words != 1)
    return;
  int D = m->rules->ndirs, T = s->T;
  uint64_t all = T == 64 ? ~(uint64_t)0 : ((uint64_t)1 << T) - 1;
  s->pair = ts_calloc((size_t)D * (size_t)D * (size_t)T, sizeof *s->pair);
  for (int d = 0; d < D; d++)
    for (int e = 0; e < D; e++)
      for (int x = 0; x < T; x++) {
        uint64_t mu = s->compat[(size_t)e * (size_t)T + (size_t)x], any = 0;
        for (; mu; mu &= mu - 1)
          any |= s->compat[(size_t)d * (size_t)T + (size_t)__builtin_ctzll(mu)];
        s->pair[((size_t)d * (size_t)D + (size_t)e) * (size_t)T + (size_t)x] =
            any;
      }
  int n = s->look_start[s->N];
  s->look_static = ts_malloc(((size_t)n + 1) * sizeof *s->look_static);
  s->look_pair = ts_malloc(((size_t)n + 1) * sizeof *s->look_pair);
  for (int l = 0; l < n; l++) {
    uint64_t mu = s->base[s->look_cell[l]], any = 0;
    bool full = mu == all;
    for (; mu; mu &= mu - 1)
      any |= s->compat[(size_t)s->look_dir[l] * (size_t)T +
                       (size_t)__builtin_ctzll(mu)];
    s->look_static[l] = any;
    s->look_pair[l] = full && s->lk_start[l + 1] - s->lk_start[l] == 1
                          ? s->look_dir[l] * D + s->lk_dir[s->lk_start[l]]
                          : -1;
  }
}

static void smc_setup(smc *s, const tilesat_map *m) {
  const tilesat_rules *r = m->rules;
  memset(s, 0, sizeof *s);
  s->m = m;
  s->N = m->ncells;
  s->T = r->ntiles;
  s->words = (s->T + 63) / 64;
  int T = s->T, W = s->words, D = r->ndirs;
  s->D = D;
  smc_plan(s, m);
  s->compat = ts_calloc((size_t)D * (size_t)T * (size_t)W, sizeof *s->compat);
  for (int d = 0; d < D; d++)
    for (int u = 0; u < T; u++)
      for (int t = 0; t < T; t++)
        if (ts_bit(ts_allowed(r, t, d), u))
          set_bit(s->compat + ((size_t)d * (size_t)T + (size_t)u) * (size_t)W,
                  t);
  s->base = ts_calloc((size_t)s->N * (size_t)W, sizeof *s->base);
  for (int k = 0; k < s->N; k++)
    for (int t = 0; t < T; t++)
      set_bit(s->base + (size_t)k * (size_t)W, t);
  for (size_t i = 0; i < m->pins.n; i++) {
    uint64_t *b = s->base + (size_t)m->pins.v[i].cell * (size_t)W;
    bool had = ts_bit(b, m->pins.v[i].tile);
    memset(b, 0, (size_t)W * sizeof *b);
    if (had)
      set_bit(b, m->pins.v[i].tile);
  }
  for (size_t i = 0; i < m->bans.n; i++)
    s->base[(size_t)m->bans.v[i].cell * (size_t)W +
            (size_t)(m->bans.v[i].tile >> 6)] &=
        ~((uint64_t)1 << (m->bans.v[i].tile & 63));
  /* a cell that is its own neighbour (a map one cell wide or high, wrapped) */
  for (int k = 0; k < s->N; k++)
    for (int d = 0; d < D; d++)
      if (ts_map_neighbor(m, k, d) == k)
        for (int t = 0; t < T; t++)
          if (!ts_bit(ts_allowed(r, t, d), t))
            s->base[(size_t)k * (size_t)W + (size_t)(t >> 6)] &=
                ~((uint64_t)1 << (t & 63));
  smc_look_tables(s, m);
  smc_plan_twist(s, m);
}

/* Bits set in x (SWAR: without -mpopcnt, GCC's builtin is a call). */
static inline int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return (int)((x * 0x0101010101010101u) >> 56);
}

/* The tiles cell k may take in particle p (tiles by slot), into mask,
 * and with forward checking (see forward_check1), any number of tiles;
 * scratch: 2 * words. */
static void smc_candidates(const smc *s, int k, const uint16_t *p,
                           uint64_t *mask, uint64_t *scratch) {
  size_t W = (size_t)s->words, T = (size_t)s->T;
  memcpy(mask, s->base + (size_t)k * W, W * sizeof *mask);
  for (int i = s->nb_start[k]; i < s->nb_start[k + 1]; i++) {
    const uint64_t *c =
        s->compat + ((size_t)s->nb_dir[i] * T + p[s->nb_slot[i]]) * W;
    for (size_t w = 0; w < W; w++)
      mask[w] &= c[w];
  }
  uint64_t *mu = scratch, *any = scratch + W;
  for (int e = s->look_start[k]; e < s->look_start[k + 1]; e++) {
    memcpy(mu, s->base + (size_t)s->look_cell[e] * W, W * sizeof *mu);
    for (int j = s->lk_start[e]; j < s->lk_start[e + 1]; j++) {
      const uint64_t *c =
          s->compat + ((size_t)s->lk_dir[j] * T + p[s->lk_slot[j]]) * W;
      for (size_t w = 0; w < W; w++)
        mu[w] &= c[w];
    }
    memset(any, 0, W * sizeof *any);
    for (size_t w = 0; w < W; w++)
      for (uint64_t b = mu[w]; b; b &= b - 1) {
        const uint64_t *c = s->compat + ((size_t)s->look_dir[e] * T + w * 64 +
                                         (size_t)__builtin_ctzll(b)) *
                                            W;
        for (size_t x = 0; x < W; x++)
          any[x] |= c[x];
      }
    for (size_t w = 0; w < W; w++)
      mask[w] &= any[w];
  }
}

/* Forward checking, up to 64 tiles: the tiles cell k may take that leave
 * every later neighbour some tile, given the cells placed so far. */
static uint64_t forward_check1(const smc *s, int k, const uint16_t *q) {
  uint64_t ok = ~(uint64_t)0;
  size_t T = (size_t)s->T;
  for (int e = s->look_start[k]; e < s->look_start[k + 1]; e++) {
    int j = s->lk_start[e], n = s->lk_start[e + 1] - j;
    if (n == 0) {
      ok &= s->look_static[e];
    } else if (n == 1 && s->look_pair[e] >= 0) {
      ok &= s->pair[((size_t)s->look_pair[e] * T) + q[s->lk_slot[j]]];
    } else {
      uint64_t mu = s->base[s->look_cell[e]], any = 0;
      for (; j < s->lk_start[e + 1]; j++)
        mu &= s->compat[(size_t)s->lk_dir[j] * T + q[s->lk_slot[j]]];
      const uint64_t *c = s->compat + (size_t)s->look_dir[e] * T;
      for (; mu; mu &= mu - 1)
        any |= c[__builtin_ctzll(mu)];
      ok &= any;
    }
  }
  return ok;
}

/* Particles: n of them, `slots` tiles each, and their weights since the
 * last resampling, scaled so that the largest stays near 1 (ln of the
 * scale in lnscale). */
typedef struct swarm {
  int n;
  size_t S;
  uint16_t *cur, *next;
  double *w;
  double lnscale;
} swarm;

/* A tile of mask drawn in proportion to f; returns the sum of f over
 * mask (0: none, *tile untouched). */
static double twisted_pick(const double *f, const uint64_t *mask, int words,
                           ts_rng *rng, int *tile) {
  double total = 0;
  for (int w = 0; w < words; w++)
    for (uint64_t b = mask[w]; b; b &= b - 1)
      total += f[w * 64 + __builtin_ctzll(b)];
  if (total <= 0)
    return 0;
  double u = ts_rng_double(rng) * total, acc = 0;
  for (int w = 0; w < words; w++)
    for (uint64_t b = mask[w]; b; b &= b - 1) {
      *tile = w * 64 + __builtin_ctzll(b);
      acc += f[*tile];
      if (acc > u)
        return total;
    }
  return total;
}

/* The tiles cell k may take in particle q, into mask (words). */
static void cell_candidates(const smc *s, int k, const uint16_t *q,
                            uint64_t *mask) {
  if (s->words > 1) {
    smc_candidates(s, k, q, mask, mask + s->words);
    return;
  }
  /* up to 64 tiles: one word, kept in a register */
  size_t T = (size_t)s->T;
  uint64_t m = s->base[k];
  for (int j = s->nb_start[k]; j < s->nb_start[k + 1]; j++)
    m &= s->compat[(size_t)s->nb_dir[j] * T + q[s->nb_slot[j]]];
  if (m && s->look_start[k + 1] > s->look_start[k])
    m &= forward_check1(s, k, q);
  mask[0] = m;
}

/* Cell k's tile for particle q, into *tile (untouched when there is
 * none); returns the particle's weight factor. */
static double place(const smc *s, int k, const uint16_t *q, ts_rng *rng,
                    uint64_t *mask, int *tile) {
  cell_candidates(s, k, q, mask);
  if (s->alpha == 0) { /* uniform among the candidates */
    int c = 0;
    for (int w = 0; w < s->words; w++)
      c += popcount64(mask[w]);
    if (c) {
      int j = (int)ts_rng_below(rng, (uint32_t)c);
      for (int w = 0;; w++) {
        int n = popcount64(mask[w]);
        if (j < n) {
          uint64_t b = mask[w];
          for (; j > 0; j--)
            b &= b - 1;
          *tile = w * 64 + __builtin_ctzll(b);
          break;
        }
        j -= n;
      }
    }
    return c;
  }
  size_t T = (size_t)s->T;
  double g = twisted_pick(s->twist + (size_t)s->later[k] * T, mask, s->words,
                          rng, tile);
  /* the placed neighbours' factors towards k leave, k being placed */
  for (int j = s->nb_start[k]; j < s->nb_start[k + 1]; j++)
    g *= s->untwist[(size_t)s->nb_back[j] * T + q[s->nb_slot[j]]];
  return g;
}

/* Extend every particle by cell k; returns the sum of the weights and
 * their sum of squares in *sq. */
static double smc_extend(const smc *s, swarm *p, int k, ts_rng *rng,
                         uint64_t *mask, double *sq) {
  double sum = 0, sum2 = 0, top = 0;
  int keep = s->keep[k], anchor = s->anchor[k];
  for (int i = 0; i < p->n; i++) {
    if (p->w[i] == 0)
      continue;
    uint16_t *q = p->cur + (size_t)i * p->S;
    int t = -1;
    p->w[i] *= place(s, k, q, rng, mask, &t);
    if (t >= 0) {
      q[keep] = (uint16_t)t;
      if (anchor >= 0)
        q[anchor] = (uint16_t)t;
    }
    sum += p->w[i];
    sum2 += p->w[i] * p->w[i];
    if (p->w[i] > top)
      top = p->w[i];
  }
  /* keep the weights in range */
  double scale = top > 0x1p500               ? 0x1p-500
                 : top > 0 && top < 0x1p-500 ? 0x1p500
                                             : 1;
  if (scale != 1) {
    for (int i = 0; i < p->n; i++)
      p->w[i] *= scale;
    p->lnscale -= log(scale);
    sum *= scale;
    sum2 *= scale * scale;
  }
  *sq = sum2;
  return sum;
}

/* Systematic resampling in proportion to the weights (sum > 0). */
static void smc_resample(swarm *p, double sum, ts_rng *rng) {
  int n = p->n;
  double step = sum / n, u = ts_rng_double(rng) * step, acc = 0;
  int j = -1;
  for (int i = 0; i < n; i++) {
    double target = u + (double)i * step;
    while (acc <= target && j + 1 < n)
      acc += p->w[++j];
    memcpy(p->next + (size_t)i * p->S, p->cur + (size_t)j * p->S,
           p->S * sizeof *p->next);
  }
  uint16_t *t = p->cur;
  p->cur = p->next;
  p->next = t;
  for (int i = 0; i < n; i++)
    p->w[i] = 1;
  p->lnscale = 0;
}

/* Progress at cell k of a run of n particles, with the time left once
 * there is a measure of it (a quarter second, or a twentieth done); -1
 * with err when predicted past the limit. */
static int pace_check(const smc *s, const tilesat_count_options *o,
                      const char *label, int k, int n, tilesat_error *err) {
  pace *pc = s->pace;
  double el = cpu_now() - pc->t0, done = pc->done + (double)k * n;
  bool measured = done > 0 && (el >= 0.25 || done * 20 >= pc->planned);
  double total = measured ? el * pc->planned / done : 0;
  char left[48] = "";
  if (measured) { /* the time left on the clock (a loaded host's is
                     longer than its CPU's) */
    double wall = clock_now(CLOCK_MONOTONIC) - pc->w0;
    ts_say_seconds(wall * (pc->planned / done - 1), left, sizeof left);
  }
  if (measured && pc->limit > 0 && total > pc->limit) {
    char took[48];
    ts_say_seconds(total, left, sizeof left);
    ts_say_seconds(el, took, sizeof took);
    ts_error(err, "count", 0,
             "auto: the estimate beside the bounds would take about %s "
             "(%d replicates of %d particles over %d cells; %.2g%% done in "
             "%s), past %g s: left out, the bounds answer alone "
             "(--method estimate makes it)",
             left, pc->replicates, pc->particles, s->N,
             100 * done / pc->planned, took, pc->limit);
    pc->over = true;
    return -1;
  }
  if (o->progress) {
    char line[320];
    if (measured)
      snprintf(line, sizeof line, "estimate: %s: cell %d of %d, about %s left",
               label, k, s->N, left);
    else
      snprintf(line, sizeof line, "estimate: %s: cell %d of %d", label, k,
               s->N);
    o->progress(o->progress_user, line);
  }
  return 0;
}

/* One run of n particles: ln Z-hat, or -INFINITY when every particle
 * died.  -1 when stopped (err). */
static int smc_run(const smc *s, int n, ts_rng *rng,
                   const tilesat_count_options *o, const char *label,
                   double *lnz, tilesat_error *err) {
  swarm p = {n, (size_t)s->slots, NULL, NULL, NULL, 0};
  p.cur = ts_calloc((size_t)n * p.S, sizeof *p.cur);
  p.next = ts_calloc((size_t)n * p.S, sizeof *p.next);
  p.w = ts_malloc((size_t)n * sizeof *p.w);
  for (int i = 0; i < n; i++)
    p.w[i] = 1;
  uint64_t *mask = ts_malloc(3 * (size_t)s->words * sizeof *mask);
  double total = 0;
  int rc = 0;
  for (int k = 0; k < s->N; k++) {
    if ((k & 63) == 0 && ts_terminated(&o->solve)) {
      ts_error(err, "count", 0, "interrupted");
      rc = -1;
      break;
    }
    if ((k & 63) == 0 && pace_check(s, o, label, k, n, err)) {
      rc = -1;
      break;
    }
    double sq, sum = smc_extend(s, &p, k, rng, mask, &sq);
    if (sum == 0) {
      total = -INFINITY;
      break;
    }
    /* resample when the effective sample size sum^2 / sq falls below n/2,
     * and take the mean weight into the product */
    if (k + 1 < s->N && sum * sum >= 0.5 * n * sq)
      continue;
    total += p.lnscale + log(sum / n);
    if (k + 1 < s->N)
      smc_resample(&p, sum, rng);
  }
  *lnz = total;
  free(p.cur);
  free(p.next);
  free(p.w);
  free(mask);
  return rc;
}

/* Student's t 0.975 quantile for df degrees of freedom. */
static double t975(int df) {
  static const double q[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                             2.306,  2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
                             2.131,  2.120, 2.110, 2.101, 2.093, 2.086};
  if (df <= 20)
    return q[df - 1];
  return 1.96 + 2.5 / df; /* within 0.003 of the quantile beyond 20 */
}

/* What replicates give (ln): the estimate, ln of the mean of their
 * Z-hat; its 95% half width; the mean of their ln Z-hat (for the drift);
 * and how many had every particle die. */
typedef struct summary {
  double lnz, half, meanlog;
  int dead;
} summary;

/* The replicates' ln Z-hat z[0..R) combined; dead replicates (-INFINITY)
 * count in the mean and not in the spread. */
static void combine(const double *z, int R, summary *out) {
  double top = -INFINITY, sum = 0, mean = 0, var = 0;
  int live = 0;
  for (int r = 0; r < R; r++)
    top = fmax(top, z[r]);
  out->dead = R;
  out->lnz = out->meanlog = top;
  out->half = 0;
  if (top == -INFINITY)
    return;
  for (int r = 0; r < R; r++)
    if (z[r] > -INFINITY) {
      sum += exp(z[r] - top);
      mean += z[r];
      live++;
    }
  out->dead = R - live;
  out->lnz = top + log(sum / R);
  out->meanlog = mean /= live;
  for (int r = 0; r < R; r++)
    if (z[r] > -INFINITY)
      var += (z[r] - mean) * (z[r] - mean);
  if (live < 2) {
    out->half = INFINITY;
    return;
  }
  var /= live - 1;
  /* ln(1 + (e^var - 1) / R), without overflow */
  double v = var > 30 ? var - log((double)R) + log1p(-exp(-var))
                      : log1p(expm1(var) / R);
  out->half = t975(live - 1) * sqrt(v);
}

/* R replicates of n particles with the current twist; streams from
 * `stream`.  -1 when stopped. */
static int replicates(const smc *s, const tilesat_count_options *o, int n,
                      int R, uint64_t stream, const char *what, summary *out,
                      tilesat_error *err) {
  double *z = ts_malloc((size_t)R * sizeof *z);
  int rc = 0;
  for (int r = 0; r < R && !rc; r++) {
    ts_rng rng;
    ts_rng_seed(&rng, o->seed, stream + (uint64_t)r);
    char label[96];
    snprintf(label, sizeof label, "%s %d of %d (%d particles, twist %g)", what,
             r + 1, R, n, s->alpha);
    rc = smc_run(s, n, &rng, o, label, &z[r], err);
    s->pace->done += (double)s->N * n;
  }
  if (!rc)
    combine(z, R, out);
  free(z);
  return rc;
}

/* A plain pilot whose half width (ln) is at most this is kept: the twist
 * is for maps where plain counting needs far more particles. */
#define PLAIN_ENOUGH 1.0

/* Particles a replicate unless told: about 10^8 particle-cells (some 20
 * to 40 s of one core for the whole estimate), from 1000 to 16384. */
static int default_particles(int cells) {
  double n = 1e8 / cells;
  return n < 1000 ? 1000 : n > 16384 ? 16384 : (int)n;
}

/* The pilots: plain counting, unless its estimate is not yet precise
 * (half width over PLAIN_ENOUGH); then, among plain and the twists whose
 * estimate is not below plain's, the one whose interval reaches highest
 * at its lower end.  Sets the twist; *pilot gets its estimate (ln). */
static int choose_twist(smc *s, const double *msg,
                        const tilesat_count_options *o, int n, summary *pilot,
                        tilesat_error *err) {
  static const double alphas[] = {0, 0.5};
  double best_alpha = 0, best_low = -INFINITY, plain = 0;
  int rc = 0;
  pilot->meanlog = -INFINITY;
  for (int a = 0; a < 2 && !rc; a++) {
    summary got;
    smc_set_twist(s, msg, alphas[a]);
    if (a > 0) /* the twisted pilots: not planned at first */
      s->pace->planned += 3.0 * n * s->N;
    rc = replicates(s, o, n, 3, 0x70696c6f74u + 16 * (uint64_t)a, "pilot", &got,
                    err);
    if (rc || (a > 0 && got.lnz < plain))
      continue;
    if (a == 0)
      plain = got.lnz;
    if (got.lnz - got.half > best_low) {
      *pilot = got;
      best_low = got.lnz - got.half;
      best_alpha = alphas[a];
    }
    if (a == 0 && got.half <= PLAIN_ENOUGH)
      break;
  }
  smc_set_twist(s, msg, best_alpha);
  return rc;
}

/* The estimate's line for notice: how it was made. */
static void say(const tilesat_count_options *o, const ts_estimate *e) {
  tilesat_progress_fn fn = o->notice ? o->notice : o->progress;
  if (!fn)
    return;
  char line[320], twist[64] = "plain counting";
  if (e->alpha > 0)
    snprintf(twist, sizeof twist, "twist %g (plain pilots too uneven)",
             e->alpha);
  int n =
      snprintf(line, sizeof line, "estimate: %d replicates of %d particles, %s",
               e->replicates, e->particles, twist);
  if (e->drift >= 0.005)
    n += snprintf(line + n, sizeof line - (size_t)n,
                  "; its mean log 10^%.2f above its pilot's, with a quarter "
                  "of the particles: added to the error bar",
                  e->drift);
  if (e->dead)
    snprintf(line + n, sizeof line - (size_t)n,
             "; every particle died in %d replicates", e->dead);
  fn(o->progress_user, line);
}

void ts_estimate_size(const tilesat_map *m, const tilesat_count_options *o,
                      int *replicates, int *particles) {
  *replicates = o->replicates > 1 ? o->replicates : 8;
  *particles = o->particles > 0 ? o->particles : default_particles(m->ncells);
}

int ts_estimate_count(const tilesat_map *m, const tilesat_count_options *o,
                      ts_estimate *out, tilesat_error *err) {
  memset(out, 0, sizeof *out);
  if (m->rules->ntiles > 65535) {
    ts_error(err, "count", 0,
             "the estimate handles at most 65535 tiles (this rule set has %d)",
             m->rules->ntiles);
    return -1;
  }
  smc s;
  smc_setup(&s, m);
  double *msg = bp_messages(m->rules);
  int R, n;
  ts_estimate_size(m, o, &R, &n);
  int np = n / 4 > 100 ? n / 4 : 100;
  pace pc = {.t0 = cpu_now(),
             .w0 = clock_now(CLOCK_MONOTONIC),
             .planned = (3.0 * np + (double)R * n) * s.N,
             .limit = o->estimate_seconds,
             .replicates = R,
             .particles = n};
  s.pace = &pc;
  summary pilot = {0}, main = {0}; /* (set by both on success) */
  int rc = choose_twist(&s, msg, o, np, &pilot, err);
  if (!rc)
    rc = replicates(&s, o, n, R, 0x736d63u, "replicate", &main, err);
  if (!rc) {
    /* the mean ln Z-hat still growing with the particles: how much it grew
     * from a quarter of them is added to the error bar */
    double drift = pilot.meanlog > -INFINITY && main.meanlog > pilot.meanlog
                       ? main.meanlog - pilot.meanlog
                       : 0;
    double ln10 = log(10.0);
    out->log10 = main.lnz / ln10;
    out->half_width = (main.half + drift) / ln10;
    out->drift = drift / ln10;
    out->replicates = R;
    out->particles = n;
    out->dead = main.dead;
    out->alpha = s.alpha;
    say(o, out);
  }
  out->over_time = pc.over;
  free(msg);
  smc_free(&s);
  return rc;
}
