/* count/count.h: counting and sampling methods behind tilesat_count and
 * tilesat_sample. */
#ifndef TILESAT_COUNT_H
#define TILESAT_COUNT_H

#include "sat/sat.h"

#include <gmp.h>

/* Frontier DP (dp.c): exact count, and exact uniform samples. */
int ts_dp_count(const tilesat_map *m, const tilesat_count_options *o,
                mpz_t count, tilesat_error *err);
int ts_dp_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                 tilesat_map_fn fn, void *user, tilesat_error *err);
/* ApproxMC counts and UniGen samples on CryptoMiniSat (approx.c). */
int ts_xor_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                  tilesat_map_fn fn, void *user, tilesat_error *err);
int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err);
/* Sequential Monte Carlo estimate of the count (estimate.c). */
typedef struct ts_estimate {
  double log10, half_width; /* log10 of the count, 95% half width */
  double drift; /* log10: how much the estimate grew from the pilot's */
  double alpha; /* the twist chosen */
  int replicates, particles;
  int dead; /* replicates whose particles all died */
} ts_estimate;
int ts_estimate_count(const tilesat_map *m, const tilesat_count_options *o,
                      ts_estimate *out, tilesat_error *err);
/* Block Markov chain (chain.c): maps of any size, uniform in the limit. */
int ts_chain_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                    tilesat_map_fn fn, void *user, tilesat_error *err);
#endif
