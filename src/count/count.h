/* count/count.h: counting and sampling methods behind tilesat_count and
 * tilesat_sample. */
#ifndef TILESAT_COUNT_H
#define TILESAT_COUNT_H

#include "sat/sat.h"

#include <gmp.h>

/* Frontier DP (dp.c): exact count, and exact uniform samples. */
/* The order of the cells: probed (each order run for two lines, the one
 * with fewer states kept), or forced (a caller that knows, such as the
 * chain on strips, saves the probe). */
typedef enum ts_dp_order { TS_DP_PROBE, TS_DP_ROWS, TS_DP_COLUMNS } ts_dp_order;
int ts_dp_count(const tilesat_map *m, const tilesat_count_options *o,
                mpz_t count, tilesat_error *err);
/* Refuse (as WHAT) a map whose plans, probed, would not fit the dp's
 * bound; the dp refuses so itself, this is for callers that do work
 * before it (the parts' cut).  0, or -1 with err. */
int ts_dp_refuse(const tilesat_map *m, const tilesat_count_options *o,
                 const char *what, tilesat_error *err);
/* The count, and dist[k] for k = 0 .. ncells (initialised by the caller):
 * the maps with exactly k cells holding a tile of the set `by`. */
int ts_dp_count_by_tile(const tilesat_map *m, const tilesat_count_options *o,
                        const uint64_t *by, mpz_t count, mpz_t *dist,
                        tilesat_error *err);
/* The map count's dp counts for m under o, whoever runs the dp (count,
 * --by-tile, tilesat-mpi --shard): refused as count refuses (a constraint
 * the dp cannot keep), borders lowered to bans.  0 with *low the map to
 * count (NULL: m itself; the caller frees it), or -1 with err. */
int ts_count_dp_map(const tilesat_map *m, const tilesat_count_options *o,
                    tilesat_map **low, tilesat_error *err);
/* tilesat_count_by_tile with the class already parsed (a part's map no
 * longer knows the classes its problem's constraints file named). */
int ts_count_by_set(const tilesat_map *m, const uint64_t *by,
                    const tilesat_count_options *o, tilesat_count_result *res,
                    char ***dist, tilesat_error *err);
/* tilesat_count_part, and with a class list cls (--by-tile) also *dist
 * as tilesat_count_by_tile gives it (freed by tilesat_count_by_tile_free)
 * for that part: what tilesat-mpi's parts hand back. */
int ts_count_part_by_tile(const tilesat_map *m, int k, int n, const char *cls,
                          const tilesat_count_options *o,
                          tilesat_count_result *res, char ***dist,
                          tilesat_error *err);
int ts_dp_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                 tilesat_map_fn fn, void *user, tilesat_error *err);
/* Test hook: ts_dp_sample with the bytes its stored layers may take
 * (keep_bytes; 0: its own share, a multiple of the working layers') and
 * the most walkers drawn together (batch; 0: as many as fit in 32 MiB;
 * the first batch is one walker) forced.
 * The maps are the same whatever they are. */
int ts_dp_sample_with(const tilesat_map *m, const tilesat_count_options *o,
                      int n, size_t keep_bytes, int batch, tilesat_map_fn fn,
                      void *user, tilesat_error *err);
/* What the exact draw (ts_dp_sample) would cost on m, predicted from the
 * sampler's dp on strips of it (dp_cost.c): its largest layer (log10 of
 * states), the bytes of its two working layers (log10) and its seconds;
 * from strips 1 to `lines` cells wide in the order whose lines run across
 * the map (`columns`: column order), the widest with strip_states in its
 * largest layer, `growth` times more a cell, to the map's `frontier`. */
typedef struct ts_dp_cost {
  double log10_states, log10_bytes, seconds, growth;
  size_t strip_states;
  int lines, frontier;
  bool columns;
} ts_dp_cost;
/* 0 with *out; 1 when not even a strip one cell wide can be drawn (too
 * many tiles); -1 with err when interrupted. */
int ts_dp_sample_cost(const tilesat_map *m, const tilesat_count_options *o,
                      ts_dp_cost *out, tilesat_error *err);
/* The prediction in words: "about 10^9.6 states in its largest layer,
 * 720 GiB (strips 1 to ...)". */
void ts_dp_cost_text(const ts_dp_cost *c, char *buf, size_t len);
/* Seconds in words: "42 s", "9 min", "3 h", "12 days", "10^5 years",
 * "more than 10^300 years" (also for inf and NaN). */
void ts_say_seconds(double s, char *out, size_t len);
/* Bytes (log10) in words: "512 MiB", "14.2 GiB", "10^14.3 GiB". */
void ts_dp_bytes_text(double log10_bytes, char *buf, size_t len);
/* ts_dp_sample in a given order. */
int ts_dp_sample_ordered(const tilesat_map *m, const tilesat_count_options *o,
                         ts_dp_order order, int n, tilesat_map_fn fn,
                         void *user, tilesat_error *err);
/* Past the dp's tiles (DP_MAX_TILES), a map of one line (1xN or Nx1, not
 * periodic, no global constraint or mask) counted exactly by carrying a
 * count per tile along it (line.c), its predicted time said first through
 * o's notice; other maps refused, saying what fits.  bounded (auto):
 * refused too when predicted over a minute.  0, or -1 with err. */
int ts_line_count(const tilesat_map *m, const tilesat_count_options *o,
                  bool bounded, mpz_t count, tilesat_error *err);
/* ApproxMC counts and UniGen samples on CryptoMiniSat (approx.c). */
int ts_xor_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                  tilesat_map_fn fn, void *user, tilesat_error *err);
int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err);

/* Proved bounds beyond the exact dp (bounds.c): exact counts of strips and
 * of the pieces between fixed cut lines, multiplied.  One ts_bounds per
 * map keeps the counts it made (the prediction's strips serve the bounds). */
#define TS_BOUNDS_MAX_WIDTH 64
typedef struct ts_bounds ts_bounds;
typedef struct ts_bounds_result {
  mpz_t lower, upper; /* lower <= count <= upper, both proved */
  bool have_upper;
  char lower_why[384], upper_why[384]; /* what each guarantees */
} ts_bounds_result;
ts_bounds *ts_bounds_new(const tilesat_map *m, const tilesat_count_options *o);
void ts_bounds_free(ts_bounds *b);
/* How long the exact dp on the whole map would take (seconds), from strips
 * across its shorter side; why: from what.  -1 with err when not even a
 * strip of one line can be counted (too many tiles, memory). */
int ts_bounds_predict(ts_bounds *b, double *seconds, char *why, size_t len,
                      tilesat_error *err);
/* Did the prediction count the whole map (a strip as wide as the map)?
 * Then count holds its count. */
/* The dp on the whole map for at most `seconds` of CPU: 1 and the count
 * when it finished, 0 when it ran out of time or memory, -1 when
 * interrupted (err).  auto tries it first: on maps the dp counts at once
 * it costs nothing beyond the dp. */
int ts_bounds_try_dp(ts_bounds *b, double seconds, mpz_t count,
                     tilesat_error *err);
bool ts_bounds_whole(const ts_bounds *b, mpz_t count);
/* Both bounds (res's mpz_t initialised by the caller), within
 * o->bounds_seconds, or with strips of o->bounds_width lines.  0, or -1
 * with err (interrupted; not even one line countable). */
int ts_bounds_compute(ts_bounds *b, ts_bounds_result *res, tilesat_error *err);
/* log2 of z (-inf for 0). */
double ts_log2(const mpz_t z);
/* Sequential Monte Carlo estimate of the count (estimate.c). */
typedef struct ts_estimate {
  double log10, half_width; /* log10 of the count, 95% half width */
  double drift; /* log10: how much the estimate grew from the pilot's */
  double alpha; /* the twist chosen */
  int replicates, particles;
  int dead;       /* replicates whose particles all died */
  bool over_time; /* stopped: predicted past o->estimate_seconds (err) */
} ts_estimate;
/* The replicates and particles a replicate the estimate will run. */
void ts_estimate_size(const tilesat_map *m, const tilesat_count_options *o,
                      int *replicates, int *particles);
int ts_estimate_count(const tilesat_map *m, const tilesat_count_options *o,
                      ts_estimate *out, tilesat_error *err);
/* Block Markov chain (chain.c): maps of any size, uniform in the limit. */
int ts_chain_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                    tilesat_map_fn fn, void *user, tilesat_error *err);
#endif
