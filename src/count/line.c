/* line.c: exact counts of maps of one line (1xN or Nx1) past the dp's
 * tiles.
 *
 * The frontier dp keys a cell by a byte (dp.c): at most DP_MAX_TILES
 * tiles.  A map of one line, not wrapped, is a path: its count is a
 * vector of counts by tile carried along it, each step adding a tile's
 * count to every tile allowed after it (the rules' bitsets, each allowed
 * pair once a cell), so any number of tiles counts exactly, in time
 * proportional to the allowed pairs.  2x1 with 5000 tiles: the allowed
 * pairs themselves.  Other maps past the dp's tiles are refused, saying
 * what would fit. */
#include "count/count.h"
#include "count/dp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* auto runs it only when predicted within this (as auto's dp). */
#define LINE_AUTO_SECONDS 60
/* Measured on the ring of 5000 tiles and a dense rule set of 2000 tiles:
 * a word of a bitset scanned, an allowed pair added (GMP, a limb or two). */
#define WORD_SECONDS 1e-9
#define PAIR_SECONDS 1.5e-8
/* and each limb past the first (a ring of 300 tiles, 40000x1: 13.5 s) */
#define LIMB_SECONDS 7e-10

/* Is m a path in the order of its cells (one row or one column, every
 * neighbour the cell before or after)? */
static bool is_line(const tilesat_map *m) {
  if (m->width != 1 && m->height != 1)
    return false;
  for (int c = 0; c < m->ncells; c++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int nb = ts_map_neighbor(m, c, d);
      if (nb >= 0 && nb != c - 1 && nb != c + 1)
        return false;
    }
  return true;
}

/* The direction from cell c to c + 1 (-1: none, a masked cell). */
static int step_dir(const tilesat_map *m, int c) {
  for (int d = 0; d < m->rules->ndirs; d++)
    if (ts_map_neighbor(m, c, d) == c + 1)
      return d;
  return -1;
}

/* The tiles each cell may hold, a bitset of the rules' words a cell. */
static uint64_t *domains(const tilesat_map *m) {
  int W = m->rules->words, T = m->rules->ntiles;
  uint64_t *dom = ts_malloc((size_t)m->ncells * (size_t)W * sizeof *dom);
  for (int c = 0; c < m->ncells; c++) {
    uint64_t *s = dom + (size_t)c * (size_t)W;
    memset(s, 0, (size_t)W * sizeof *s);
    for (int t = 0; t < T; t++)
      s[t >> 6] |= (uint64_t)1 << (t & 63);
  }
  for (size_t i = 0; i < m->pins.n; i++) {
    uint64_t *s = dom + (size_t)m->pins.v[i].cell * (size_t)W;
    int t = m->pins.v[i].tile;
    bool had = ts_bit(s, t);
    memset(s, 0, (size_t)W * sizeof *s);
    if (had) /* two pins on a cell: none */
      s[t >> 6] |= (uint64_t)1 << (t & 63);
  }
  for (size_t i = 0; i < m->bans.n; i++) {
    uint64_t *s = dom + (size_t)m->bans.v[i].cell * (size_t)W;
    int t = m->bans.v[i].tile;
    s[t >> 6] &= ~((uint64_t)1 << (t & 63));
  }
  return dom;
}

/* The allowed pairs of cells c, c + 1 (d from c), within their domains. */
static double pairs_at(const tilesat_rules *r, const uint64_t *from,
                       const uint64_t *to, int d) {
  double n = 0;
  for (int a = 0; a < r->ntiles; a++) {
    if (!ts_bit(from, a))
      continue;
    const uint64_t *ok = ts_allowed(r, a, d);
    for (int w = 0; w < r->words; w++)
      n += __builtin_popcountll(ok[w] & to[w]);
  }
  return n;
}

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void say_time(double s, char *out, size_t len) {
  if (s < 120)
    snprintf(out, len, "%.2g s", s);
  else if (s < 7200)
    snprintf(out, len, "%.0f min", s / 60);
  else
    snprintf(out, len, "%.0f h", s / 3600);
}

/* Why m is refused: what fits instead. */
static int refuse(const tilesat_map *m, const char *what, tilesat_error *err) {
  const char *is = m->periodic    ? "is wrapped (--periodic)"
                   : m->globals.n ? "has --count or --connected constraints"
                   : m->nmasked   ? "has a mask"
                                  : "is not one line";
  ts_error(err, what, 0,
           "%d tiles: the exact dp keys a cell by a byte, so at most %d "
           "tiles; past them count counts maps of one line exactly (1xN or "
           "Nx1, not --periodic, without --count, --connected or a mask), "
           "and this %dx%d map %s: --method enum lists every map (small "
           "counts only), --method approx estimates (no time bound)",
           m->rules->ntiles, DP_MAX_TILES, m->width, m->height, is);
  return -1;
}

/* One step: next[b] = the sum of cur[a] over a allowed before b. */
static void step(const tilesat_rules *r, mpz_t *cur, mpz_t *next,
                 const uint64_t *to, int d) {
  for (int b = 0; b < r->ntiles; b++)
    mpz_set_ui(next[b], 0);
  for (int a = 0; a < r->ntiles; a++) {
    if (!mpz_sgn(cur[a]))
      continue;
    const uint64_t *ok = ts_allowed(r, a, d);
    for (int w = 0; w < r->words; w++)
      for (uint64_t bits = ok[w] & to[w]; bits; bits &= bits - 1)
        mpz_add(next[64 * w + __builtin_ctzll(bits)],
                next[64 * w + __builtin_ctzll(bits)], cur[a]);
  }
}

/* Carry the counts along the line; -1 when stopped (err said). */
static int carry(const tilesat_map *m, const tilesat_count_options *o,
                 const uint64_t *dom, mpz_t count, tilesat_error *err) {
  const tilesat_rules *r = m->rules;
  int T = r->ntiles, W = r->words;
  mpz_t *cur = ts_malloc(2 * (size_t)T * sizeof *cur), *next = cur + T;
  for (int t = 0; t < 2 * T; t++)
    mpz_init(cur[t]);
  for (int t = 0; t < T; t++)
    mpz_set_ui(cur[t], ts_bit(dom, t));
  int rc = 0;
  for (int c = 0; c + 1 < m->ncells && !rc; c++) {
    step(r, cur, next, dom + (size_t)(c + 1) * (size_t)W, step_dir(m, c));
    mpz_t *swap = cur;
    cur = next;
    next = swap;
    if (ts_terminated(&o->solve)) {
      ts_error(err, "count", 0, "interrupted");
      rc = -1;
    } else if (o->progress) {
      char line[96];
      snprintf(line, sizeof line, "one line: cell %d of %d", c + 2, m->ncells);
      o->progress(o->progress_user, line);
    }
  }
  mpz_set_ui(count, 0);
  for (int t = 0; t < T; t++)
    mpz_add(count, count, cur[t]);
  mpz_t *base = cur < next ? cur : next;
  for (int t = 0; t < 2 * T; t++)
    mpz_clear(base[t]);
  free(base);
  return rc;
}

int ts_line_count(const tilesat_map *m, const tilesat_count_options *o,
                  bool bounded, mpz_t count, tilesat_error *err) {
  if (m->periodic || m->globals.n || m->nmasked || !is_line(m))
    return refuse(m, "count", err);
  const tilesat_rules *r = m->rules;
  uint64_t *dom = domains(m);
  /* each pair added once, an addition of the counts' limbs: a count grows
   * by about log2 of the tiles' mean number of successors a cell (bits) */
  double pairs = 0, work = 0, bits = 0, t0 = cpu_now();
  for (int c = 0; c + 1 < m->ncells; c++) {
    const uint64_t *a = dom + (size_t)c * (size_t)r->words;
    double here = pairs_at(r, a, a + r->words, step_dir(m, c));
    int size = 0;
    for (int w = 0; w < r->words; w++)
      size += __builtin_popcountll(a[w]);
    bits += size && here > size ? log2(here / size) : 0;
    pairs += here;
    work += here * floor(bits / 64);
    if (!(c & 4095) && ts_terminated(&o->solve)) {
      free(dom);
      ts_error(err, "count", 0, "interrupted");
      return -1;
    }
  }
  /* the scan just done, again, and the additions */
  double seconds = (cpu_now() - t0) + pairs * PAIR_SECONDS +
                   work * LIMB_SECONDS +
                   (double)m->ncells * r->ntiles * r->words * WORD_SECONDS;
  char when[32], line[320];
  say_time(seconds, when, sizeof when);
  if (bounded && seconds > LINE_AUTO_SECONDS) {
    free(dom);
    ts_error(err, "count", 0,
             "%d tiles, past the dp's %d: the map's %.0f allowed pairs of "
             "neighbours would take about %s to count (auto stops at %d s): "
             "--method dp counts them anyway",
             r->ntiles, DP_MAX_TILES, pairs, when, LINE_AUTO_SECONDS);
    return -1;
  }
  snprintf(line, sizeof line,
           "%d tiles, past the dp's %d: the map is one line, counted "
           "exactly pair by pair (%.0f allowed pairs of neighbours, about %s)",
           r->ntiles, DP_MAX_TILES, pairs, when);
  tilesat_progress_fn say = o->notice ? o->notice : o->progress;
  if (say)
    say(o->progress_user, line);
  int rc = carry(m, o, dom, count, err);
  free(dom);
  return rc;
}
