/* chain.c: sampling at any size, by a Markov chain on valid maps whose
 * moves re-draw a whole block uniformly given its surroundings.
 *
 * The chain starts from a valid map drawn strip by strip, each strip
 * uniformly given those before it (or, at a dead end, a guarded collapse,
 * which never fails; both are random, so chains of other seeds start
 * elsewhere), and sweeps: a sweep cuts the map into blocks of bw x bh cells at
 * a random offset (transposed every other sweep, so that strips run both ways)
 * and visits them in a random order.  A move fixes every cell outside its block
 * and draws the block's filling uniformly among those that fit: a map of the
 * block alone whose edge cells are banned the tiles that their outside
 * neighbours do not allow (through the wrap on periodic maps, by the topology's
 * own adjacency on hex maps, whose blocks start on even rows), with the map's
 * pins and bans, sampled exactly by the frontier dp (ts_dp_sample).  A block
 * the dp cannot draw within BLOCK_MEMORY is cut in two along its longer side
 * and each half is a move of its own.
 *
 * Such a heat-bath move is reversible with respect to the uniform
 * distribution on valid maps: it leaves the outside as it is and draws
 * the inside from the uniform distribution given the outside.  Which
 * block is moved depends only on the sweep's random offset and order and
 * on the outside (a block is cut when the dp fails on it, which depends on
 * its bans), so every move, and every sweep, keeps the uniform
 * distribution.  When the moves connect every pair of valid maps, the
 * chain converges to it; whether they do depends on the rules and on the
 * block: a structure that no block can change on its own (one larger than
 * the blocks, frozen by its surroundings) is never left, and nothing here
 * proves that there is none.  The chain reports instead how many cells a
 * sweep changes and the autocorrelation of the tile counts from one sweep
 * to the next. */
#include "core/rng.h"
#include "count/count.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The dp's memory bound for one block: a block that needs more is cut. */
#define BLOCK_MEMORY ((size_t)128 << 20)
/* The default strips' longest side: the dp's counts grow a limb every 64
 * cells or so (on Circuit), so the time a cell of a strip takes grows with
 * its length; on Circuit 512x512, strips of 64x3 draw cells about twice
 * as fast as strips across the map. */
#define MAX_STRIP 64

/* Threads that draw blocks of one colour together (see sweep). */
#define MAX_THREADS 2

typedef struct chain chain;

/* What one thread needs to move blocks: its scratch, its random stream
 * (seeded for each block, so a block's draw does not depend on the thread
 * that makes it) and what it changed. */
typedef struct mover {
  chain *c;
  int *stamp; /* cell -> the last move of this mover whose block held it */
  int move;
  int *cells;       /* block cell -> map cell */
  uint64_t *banned; /* per block cell: the tiles banned there (words) */
  ts_rng rng;
  long changed; /* cells the moves changed, since last reset */
} mover;

struct chain {
  const tilesat_map *m;
  const tilesat_count_options *o;
  int W, H, T, D, words;
  int *tiles;       /* the current map */
  int *pin;         /* cell -> pinned tile, or -1 */
  uint64_t *mapban; /* per cell: the map's bans (words), or NULL */
  ts_rng rng;       /* the sweeps' offsets and orders, the blocks' seeds */
  int nmovers;
  mover movers[MAX_THREADS];
  long sweep, sweeps; /* for progress: sweeps done, and in all */
  const char *start;  /* how the chain started, for the report */
};

/* The block's cells, rows r0.. and columns c0.., through the wrap. */
static void block_cells(mover *w, int r0, int c0, int bw, int bh) {
  const chain *c = w->c;
  w->move++;
  for (int i = 0; i < bh; i++)
    for (int j = 0; j < bw; j++) {
      int cell = ((r0 + i) % c->H) * c->W + (c0 + j) % c->W;
      w->cells[i * bw + j] = cell;
      w->stamp[cell] = w->move;
    }
}

/* The tiles banned on block cell k: the map's own, and those that an
 * outside neighbour does not allow.  False if the block's own grid does
 * not have exactly the map's edges between its cells (a bug in the
 * block's shape). */
static bool block_bans(mover *w, const tilesat_map *sub, int k) {
  const chain *c = w->c;
  uint64_t *ban = w->banned + (size_t)k * (size_t)c->words;
  size_t bytes = (size_t)c->words * sizeof *ban;
  int cell = w->cells[k];
  if (c->mapban)
    memcpy(ban, c->mapban + (size_t)cell * (size_t)c->words, bytes);
  else
    memset(ban, 0, bytes);
  for (int d = 0; d < c->D; d++) {
    int nb = ts_map_neighbor(c->m, cell, d);
    int inner = ts_map_neighbor(sub, k, d);
    if (inner >= 0) {
      if (nb != w->cells[inner])
        return false;
      continue;
    }
    if (nb < 0)
      continue;
    if (w->stamp[nb] == w->move)
      return false; /* a neighbour in the block, not in the block's grid */
    if (c->tiles[nb] < 0)
      continue; /* not placed yet (the start) */
    for (int t = 0; t < c->T; t++)
      if (!ts_bit(ts_allowed(c->m->rules, t, d), c->tiles[nb]))
        ban[t >> 6] |= (uint64_t)1 << (t & 63);
  }
  return true;
}

/* The block as a map of its own: bans and pins. */
static tilesat_map *block_map(mover *w, int bw, int bh, tilesat_error *err) {
  const chain *c = w->c;
  const tilesat_rules *r = c->m->rules;
  tilesat_map *sub = tilesat_map_new(r, bw, bh, c->m->topo, false, err);
  if (!sub)
    return NULL;
  size_t bound = c->m->max_memory;
  tilesat_map_set_max_memory(sub, bound < BLOCK_MEMORY ? bound : BLOCK_MEMORY);
  for (int k = 0; k < bw * bh; k++) {
    if (!block_bans(w, sub, k)) {
      ts_error(err, NULL, 0,
               "internal error: a %dx%d block does not keep the map's edges",
               bw, bh);
      tilesat_map_free(sub);
      return NULL;
    }
    const uint64_t *ban = w->banned + (size_t)k * (size_t)c->words;
    for (int t = 0; t < c->T; t++)
      if (ts_bit(ban, t))
        tilesat_map_ban(sub, k / bw, k % bw, t, NULL);
    int pin = c->pin[w->cells[k]];
    if (pin >= 0)
      tilesat_map_pin(sub, k / bw, k % bw, tilesat_rules_tile_name(r, pin),
                      NULL);
  }
  return sub;
}

typedef struct drawn {
  mover *w;
  int n;
} drawn;

static int take_block(void *user, const int *tiles) {
  drawn *d = user;
  int *map = d->w->c->tiles;
  for (int k = 0; k < d->n; k++) {
    int cell = d->w->cells[k];
    d->w->changed += map[cell] >= 0 && map[cell] != tiles[k];
    map[cell] = tiles[k];
  }
  return 1;
}

/* One move: the block at (r0, c0), bw x bh, drawn again; cut in two when
 * the dp cannot draw it within its bound.  0, 1 when the block has no
 * filling (a bug in the chain, or a dead end in the start), -1 with err. */
static int block_move(mover *w, int r0, int c0, int bw, int bh,
                      tilesat_error *err) {
  const chain *c = w->c;
  block_cells(w, r0, c0, bw, bh);
  tilesat_map *sub = block_map(w, bw, bh, err);
  if (!sub)
    return -1;
  tilesat_count_options so = *c->o;
  so.progress = NULL;
  so.notice = NULL;
  so.max_memory = sub->max_memory;
  so.seed = ts_rng_next(&w->rng);
  drawn d = {w, bw * bh};
  tilesat_error dperr;
  /* across the block's shorter side (no probe), unless it is near square */
  ts_dp_order order = bw >= 2 * bh   ? TS_DP_COLUMNS
                      : bh >= 2 * bw ? TS_DP_ROWS
                                     : TS_DP_PROBE;
  int got = ts_dp_sample_ordered(sub, &so, order, 1, take_block, &d, &dperr);
  tilesat_map_free(sub);
  if (got == 1)
    return 0;
  if (got == 0)
    return 1;
  if (ts_terminated(&c->o->solve) || bw * bh == 1) {
    *err = dperr;
    return -1;
  }
  /* cut along the longer side (hex: the rows of the second half start on
   * the parity of the first's, unless the halves are single rows) */
  int rc;
  if (bw >= bh) {
    int w1 = bw / 2;
    rc = block_move(w, r0, c0, w1, bh, err);
    return rc ? rc : block_move(w, r0, (c0 + w1) % c->W, bw - w1, bh, err);
  }
  int h1 = bh / 2;
  if (c->m->topo == TILESAT_HEX && bh > 2)
    h1 += h1 % 2;
  rc = block_move(w, r0, c0, bw, h1, err);
  return rc ? rc : block_move(w, (r0 + h1) % c->H, c0, bw, bh - h1, err);
}

/* A line of n cells cut into pieces of b cells at offset off in [0, b):
 * an open line's pieces are [0, off) and [off + j b, off + (j+1) b)
 * clipped to the line; a periodic line's go round once from off. */
typedef struct cut {
  int n, b, off;
  bool periodic;
} cut;

/* Piece i's first cell and its length; -1 past the last piece. */
static int piece(const cut *k, int i, int *len) {
  if (k->periodic) {
    *len = k->n - i * k->b < k->b ? k->n - i * k->b : k->b;
    return *len > 0 ? (k->off + i * k->b) % k->n : -1;
  }
  int head = k->off < k->n ? k->off : k->n;
  if (head > 0 && i == 0) {
    *len = head;
    return 0;
  }
  int start = k->off + (i - (head > 0)) * k->b;
  *len = k->n - start < k->b ? k->n - start : k->b;
  return *len > 0 ? start : -1;
}

static int npieces(const cut *k) {
  int n = 0, len;
  while (piece(k, n, &len) >= 0)
    n++;
  return n;
}

/* A block's side on a line of n cells: at most n, and on a periodic line
 * at most n - step (a block round the whole line would need a wrap of its
 * own); a multiple of step (hex blocks span pairs of rows). */
static int side(int want, int n, bool periodic, int step) {
  int max = periodic ? n - step : n;
  int b = want < max ? want : max;
  b -= b % step;
  return b > 0 ? b : step;
}

static void shuffle(int *v, int n, ts_rng *rng) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)ts_rng_below(rng, (uint32_t)i + 1), t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

/* The cuts of a sweep's blocks, bw x bh (as wanted), at offset 0. */
static void block_cuts(const chain *c, int bw, int bh, cut *rows, cut *cols) {
  bool per = c->m->periodic;
  int step = c->m->topo == TILESAT_HEX ? 2 : 1;
  *rows = (cut){c->H, side(bh, c->H, per, step), 0, per};
  *cols = (cut){c->W, side(bw, c->W, per, 1), 0, per};
}

/* A block to move: its place, its size and its seed. */
typedef struct job {
  int r0, c0, w, h;
  uint64_t seed;
} job;

/* One block: the mover's stream seeded by the job, so that the draw does
 * not depend on which mover makes it.  0, 1 (no filling), -1 with err. */
static int move_job(mover *w, const job *j, tilesat_error *err) {
  ts_rng_seed(&w->rng, j->seed, 0x626c6f636bu);
  return block_move(w, j->r0, j->c0, j->w, j->h, err);
}

/* Blocks that touch neither each other nor the same cells, moved
 * together: each mover takes the next block not taken. */
typedef struct batch_run {
  chain *c;
  const job *jobs;
  int n, before, total; /* for progress: blocks of the sweep before these,
                           and in all */
  atomic_int next, done, stop;
  int rc[MAX_THREADS];
  tilesat_error err[MAX_THREADS];
} batch_run;

static void run_mover(batch_run *b, int k) {
  chain *c = b->c;
  while (!atomic_load(&b->stop)) {
    int i = atomic_fetch_add(&b->next, 1);
    if (i >= b->n)
      break;
    b->rc[k] = move_job(&c->movers[k], &b->jobs[i], &b->err[k]);
    if (b->rc[k]) {
      atomic_store(&b->stop, 1);
      break;
    }
    int done = atomic_fetch_add(&b->done, 1) + 1;
    if (k == 0 && c->o->progress) { /* the caller's thread only */
      char line[128];
      snprintf(line, sizeof line, "chain: sweep %ld of %ld, block %d of %d",
               c->sweep + 1, c->sweeps, b->before + done, b->total);
      c->o->progress(c->o->progress_user, line);
    }
  }
}

static void *helper(void *arg) {
  run_mover(arg, 1);
  return NULL;
}

/* Move jobs[0 .. n), which do not touch each other, on the chain's
 * movers.  0, 1 (a block with no filling), -1 with err. */
static int run_batch(chain *c, const job *jobs, int n, int before, int total,
                     tilesat_error *err) {
  batch_run b = {
      .c = c, .jobs = jobs, .n = n, .before = before, .total = total};
  atomic_init(&b.next, 0);
  atomic_init(&b.done, 0);
  atomic_init(&b.stop, 0);
  pthread_t t;
  bool two = c->nmovers > 1 && n > 1 && !pthread_create(&t, NULL, helper, &b);
  run_mover(&b, 0);
  if (two)
    pthread_join(t, NULL);
  for (int k = 0; k < MAX_THREADS; k++)
    if (b.rc[k]) {
      *err = b.err[k];
      return b.rc[k];
    }
  return 0;
}

/* A piece's colour along a line of np pieces: alternating, and on a
 * periodic line of an odd number a third for the last (it touches the
 * first through the wrap). */
static int colour(int i, int np, bool periodic) {
  return periodic && np % 2 && np > 1 && i == np - 1 ? 2 : i % 2;
}

/* One sweep: blocks of bw x bh at a random offset, in a random order.
 * Blocks of one colour (their rows' pieces alike in colour, and their
 * columns') touch neither each other nor a common cell, so given the rest
 * of the map they are independent: the sweep moves the colours one after
 * another in a random order, the blocks of each in a random order, and
 * blocks of one colour together on the chain's threads.  Each block
 * draws from its own seed, so the maps depend on the seed alone, not on
 * the threads. */
static int sweep(chain *c, int bw, int bh, tilesat_error *err) {
  int step = c->m->topo == TILESAT_HEX ? 2 : 1;
  cut rows, cols;
  block_cuts(c, bw, bh, &rows, &cols);
  /* a block across a whole open line starts at its first cell */
  if (rows.b < c->H || rows.periodic)
    rows.off = (int)ts_rng_below(&c->rng, (uint32_t)(rows.b / step)) * step;
  if (cols.b < c->W || cols.periodic)
    cols.off = (int)ts_rng_below(&c->rng, (uint32_t)cols.b);
  int nr = npieces(&rows), nc = npieces(&cols), nb = nr * nc;
  int *order = ts_malloc((size_t)nb * sizeof *order);
  for (int i = 0; i < nb; i++)
    order[i] = i;
  shuffle(order, nb, &c->rng);
  int colours[9];
  for (int i = 0; i < 9; i++)
    colours[i] = i;
  shuffle(colours, 9, &c->rng);
  job *jobs = ts_malloc((size_t)nb * sizeof *jobs);
  int rc = 0, n = 0;
  for (int k = 0; k < 9 && !rc; k++) {
    int first = n;
    for (int i = 0; i < nb; i++) {
      int ri = order[i] / nc, ci = order[i] % nc;
      if (colour(ri, nr, rows.periodic) * 3 + colour(ci, nc, cols.periodic) !=
          colours[k])
        continue;
      job *j = &jobs[n++];
      j->r0 = piece(&rows, ri, &j->h);
      j->c0 = piece(&cols, ci, &j->w);
      j->seed = ts_rng_next(&c->rng);
    }
    if (n > first)
      rc = run_batch(c, jobs + first, n - first, first, nb, err);
  }
  if (rc == 1) {
    ts_error(err, NULL, 0,
             "internal error: a block of a valid map has no filling");
    rc = -1;
  }
  free(jobs);
  free(order);
  return rc;
}

/* The start, strip by strip: the blocks of bw x bh at offset 0, in
 * reading order, each drawn uniformly given those before it (the cells
 * after it free).  Each strip is as a uniform map's would be given the
 * strips before, but for the constraints the later ones put on it, so the
 * start is close to the uniform distribution where a collapse's is not:
 * on Circuit 64x64 a collapse puts 7% of the cells in chips, which the
 * chain takes about 12 sweeps to dissolve, and its tile counts need about
 * 9 sweeps to settle; from rows drawn in turn they settle in 2.  0, 1 at a dead
 * end (a strip with no filling given those before), -1 with err. */
static int start_strips(chain *c, int bw, int bh, tilesat_error *err) {
  for (int i = 0; i < c->W * c->H; i++)
    c->tiles[i] = -1;
  cut rows, cols;
  block_cuts(c, bw, bh, &rows, &cols);
  int nr = npieces(&rows), nc = npieces(&cols), rc = 0;
  for (int i = 0; i < nr * nc && !rc; i++) {
    job j = {0};
    j.r0 = piece(&rows, i / nc, &j.h);
    j.c0 = piece(&cols, i % nc, &j.w);
    j.seed = ts_rng_next(&c->rng);
    rc = move_job(&c->movers[0], &j, err);
    if (c->o->progress) {
      char line[128];
      snprintf(line, sizeof line, "chain: the start, block %d of %d", i + 1,
               nr * nc);
      c->o->progress(c->o->progress_user, line);
    }
  }
  return rc;
}

/* Past this many cells the start is a guarded collapse at once: rows
 * drawn in turn on Castle 1024x1024 with a tower pinned dead-ended after
 * ~100 s, and the exact guard after them wanted the whole map's solver
 * (54 GiB); --guard auto goes by modify there (check's path), ~10 s. */
#define START_ROWS_CELLS (512L * 512L)

static void sample_words(tilesat_error *err);

/* A guarded collapse into c->tiles: auto (never a contradiction; on a
 * large map modifying in blocks, no whole-map solver), else the exact
 * guard when auto gives up.  0, TILESAT_UNSAT or -1. */
static int start_collapse(chain *c, tilesat_error *err) {
  int rc = TILESAT_UNKNOWN;
  for (int k = 0; k < 2 && rc == TILESAT_UNKNOWN; k++) {
    tilesat_collapse *col = tilesat_collapse_new(c->m, err);
    if (!col)
      return -1;
    tilesat_collapse_options co;
    tilesat_collapse_options_init(&co);
    co.seed = c->o->seed;
    co.guard = k == 0 ? TILESAT_GUARD_AUTO : TILESAT_GUARD_SAT;
    co.solve = c->o->solve;
    co.solve.backend = TILESAT_BACKEND_AUTO;
    rc = tilesat_collapse_run(col, &co, c->tiles, err);
    tilesat_collapse_free(col);
  }
  if (rc < 0 && err)
    sample_words(err);
  return rc == TILESAT_SAT ? 0 : rc == TILESAT_UNSAT ? TILESAT_UNSAT : -1;
}

/* The exact guard's refusal in sample's words: sample has no --guard,
 * and its --max-memory bounds the dp (default 4 GiB) where the solver's
 * bound is the map's (by default half of physical memory). */
static void sample_words(tilesat_error *err) {
  static const char from[] = "collapse: ";
  static const char hint[] = " (no window refutes the run; --guard auto or "
                             "blocks can often do without the whole map's "
                             "solver)";
  char *h = strstr(err->msg, hint);
  if (strncmp(err->msg, from, strlen(from)) || !h)
    return;
  *h = 0;
  char was[600];
  snprintf(was, sizeof was, "%s", err->msg + strlen(from));
  snprintf(err->msg, sizeof err->msg,
           "sample: the chain's start (a guarded collapse, after --guard "
           "auto gave up): %s (the bound of the solver, half of physical "
           "memory unless --max-memory is larger; the dp's is 4 GiB); draw "
           "a smaller map",
           was);
}

/* The start: row by row (strips one cell thick, two on hex maps: as close
 * to uniform after a sweep as strips of three, and far cheaper), whole
 * rows (pieces of rows, drawn given the piece on their left too, may have
 * no filling: on Circuit they do), or at a dead end, or at once on a map
 * past START_ROWS_CELLS, a guarded collapse (said).  0, TILESAT_UNSAT or
 * -1. */
static int start_map(chain *c, tilesat_error *err) {
  bool large = (long)c->W * c->H > START_ROWS_CELLS;
  int rc = large ? 1 : start_strips(c, c->W, 1, err);
  if (rc <= 0) {
    c->start = "rows drawn in turn";
    return rc;
  }
  c->start = "a guarded collapse";
  if (c->o->progress) {
    char line[160];
    snprintf(line, sizeof line,
             "chain: the start by a guarded collapse (--guard auto), %s",
             large ? "the map being larger than 512x512"
                   : "rows drawn in turn having come to a dead end");
    c->o->progress(c->o->progress_user, line);
  }
  return start_collapse(c, err);
}

/* The map's tile counts into x[T] (whole numbers, so that a count that
 * never changes has exactly its mean and no variance). */
static void tile_counts(const chain *c, double *x) {
  for (int t = 0; t < c->T; t++)
    x[t] = 0;
  for (int i = 0; i < c->W * c->H; i++)
    x[c->tiles[i]]++;
}

/* The lag-1 autocorrelation of the tile counts over s >= 3 sweeps (x: s
 * rows of T): pooled over the tiles (NAN when none varied), and the
 * largest of a single tile's, into *slowest and *which (-1 if none). */
static double autocorrelation(const double *x, int s, int T, double *slowest,
                              int *which) {
  double num = 0, den = 0;
  *slowest = NAN;
  *which = -1;
  for (int t = 0; t < T; t++) {
    double mean = 0, n1 = 0, d1 = 0;
    for (int i = 0; i < s; i++)
      mean += x[(size_t)i * (size_t)T + (size_t)t];
    mean /= s; /* exact when the count never changed */
    for (int i = 0; i < s; i++) {
      double a = x[(size_t)i * (size_t)T + (size_t)t] - mean;
      d1 += a * a;
      if (i + 1 < s)
        n1 += a * (x[(size_t)(i + 1) * (size_t)T + (size_t)t] - mean);
    }
    num += n1;
    den += d1;
    if (d1 > 0 && (*which < 0 || n1 / d1 > *slowest)) {
      *slowest = n1 / d1;
      *which = t;
    }
  }
  return den > 0 ? num / den : NAN;
}

static void chain_free(chain *c) {
  free(c->tiles);
  free(c->pin);
  free(c->mapban);
  for (int k = 0; k < c->nmovers; k++) {
    free(c->movers[k].stamp);
    free(c->movers[k].cells);
    free(c->movers[k].banned);
  }
}

/* most: the cells of the largest block. */
static void chain_setup(chain *c, const tilesat_map *m,
                        const tilesat_count_options *o, size_t most) {
  memset(c, 0, sizeof *c);
  c->m = m;
  c->o = o;
  c->W = m->width;
  c->H = m->height;
  c->T = m->rules->ntiles;
  c->D = m->rules->ndirs;
  c->words = (c->T + 63) / 64;
  int n = m->ncells;
  c->tiles = ts_malloc((size_t)n * sizeof *c->tiles);
  c->pin = ts_malloc((size_t)n * sizeof *c->pin);
  for (int i = 0; i < n; i++)
    c->pin[i] = -1;
  for (size_t k = 0; k < m->pins.n; k++)
    c->pin[m->pins.v[k].cell] = m->pins.v[k].tile;
  if (m->bans.n)
    c->mapban = ts_calloc((size_t)n * (size_t)c->words, sizeof *c->mapban);
  for (size_t k = 0; k < m->bans.n; k++) {
    int t = m->bans.v[k].tile;
    c->mapban[(size_t)m->bans.v[k].cell * (size_t)c->words +
              (size_t)(t >> 6)] |= (uint64_t)1 << (t & 63);
  }
  c->nmovers =
      o->threads > 0 && o->threads < MAX_THREADS ? o->threads : MAX_THREADS;
  for (int k = 0; k < c->nmovers; k++) {
    mover *w = &c->movers[k];
    w->c = c;
    w->stamp = ts_calloc((size_t)n, sizeof *w->stamp);
    w->cells = ts_malloc(most * sizeof *w->cells);
    w->banned = ts_malloc(most * (size_t)c->words * sizeof *w->banned);
  }
  ts_rng_seed(&c->rng, o->seed, 0x636861696eu);
}

/* The chain's line: sweeps, blocks, and the mixing diagnostic. */
static void report(const chain *c, const tilesat_count_options *o, long done,
                   int bw, int bh, long changed, const double *x) {
  tilesat_progress_fn fn = o->notice ? o->notice : o->progress;
  if (!fn)
    return;
  long after = done - o->burn_in;
  char corr[192] = "n/a (fewer than 3 sweeps after it)";
  double slowest;
  int which;
  double rho = after >= 3
                   ? autocorrelation(x + (size_t)o->burn_in * (size_t)c->T,
                                     (int)after, c->T, &slowest, &which)
                   : NAN;
  if (!isnan(rho))
    snprintf(corr, sizeof corr, "%.2f (the slowest tile's, \"%s\": %.2f)", rho,
             tilesat_rules_tile_name(c->m->rules, which), slowest);
  else if (after >= 3)
    snprintf(corr, sizeof corr, "n/a (no tile count changed)");
  char line[512];
  snprintf(line, sizeof line,
           "chain: %ld sweeps of %dx%d blocks from %s (%ld burn-in); after "
           "the burn-in, %.1f%% of the cells changed a sweep, and the tile "
           "counts' autocorrelation from one sweep to the next is %s",
           done, bw, bh, c->start, o->burn_in,
           after > 0 ? 100.0 * (double)changed / ((double)after * c->W * c->H)
                     : 0.0,
           corr);
  fn(o->progress_user, line);
}

/* Refuse a map whose chain would not fit its bound: the map, its pins and
 * bans, and a stamp a cell for each mover (the movers' dp bounds itself,
 * a block at a time).  0, or -1 with err. */
static int chain_refuse(const tilesat_map *m, const tilesat_count_options *o,
                        tilesat_error *err) {
  int movers =
      o->threads > 0 && o->threads < MAX_THREADS ? o->threads : MAX_THREADS;
  int words = (m->rules->ntiles + 63) / 64;
  double per_cell = 8 + 4.0 * movers + (m->bans.n ? 8.0 * words : 0);
  return ts_memory_refuse(m, per_cell * m->ncells, 0, "sample", err);
}

int ts_chain_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                    tilesat_map_fn fn, void *user, tilesat_error *err) {
  if (chain_refuse(m, o, err))
    return -1;
  /* blocks: as given, or strips 3 cells thick across the map, at most
   * MAX_STRIP long */
  int bw = o->block_width, bh = o->block_height;
  if (bw <= 0 || bh <= 0) {
    bw = m->width > m->height ? m->width : m->height;
    bw = bw < MAX_STRIP ? bw : MAX_STRIP;
    bh = 3;
  }
  chain c;
  size_t big = (size_t)(bw > bh ? bw : bh);
  chain_setup(&c, m, o,
              big * big > 2 * (size_t)m->width ? big * big
                                               : 2 * (size_t)m->width);
  /* map i (from 1) after burn_in + i * every sweeps */
  long every = o->sweeps > 0 ? o->sweeps : 1;
  long total = o->burn_in + (long)n * every;
  double *x = ts_malloc(((size_t)total + 1) * (size_t)c.T * sizeof *x);
  int produced = 0, rc = start_map(&c, err);
  if (rc == TILESAT_UNSAT) { /* no valid map: nothing to draw */
    rc = 0;
    n = 0;
  }
  long done = 0, changed = 0;
  while (!rc && produced < n) {
    if (ts_terminated(&o->solve)) {
      ts_error(err, "sample", 0, "interrupted");
      rc = -1;
      break;
    }
    for (int k = 0; k < c.nmovers; k++)
      c.movers[k].changed = 0;
    c.sweep = done;
    c.sweeps = total;
    bool flip = done % 2;
    rc = sweep(&c, flip ? bh : bw, flip ? bw : bh, err);
    if (rc)
      break;
    tile_counts(&c, x + (size_t)done * (size_t)c.T);
    if (++done > o->burn_in)
      for (int k = 0; k < c.nmovers; k++)
        changed += c.movers[k].changed;
    if (done <= o->burn_in || (done - o->burn_in) % every)
      continue;
    char why[256];
    if (!tilesat_map_verify(m, c.tiles, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: chain map is not valid: %s", why);
      rc = -1;
      break;
    }
    produced++;
    if (fn && fn(user, c.tiles))
      break;
  }
  if (!rc && produced > 0)
    report(&c, o, done, bw, bh, changed, x);
  free(x);
  chain_free(&c);
  return rc ? -1 : produced;
}
