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
/* Test hook: ts_dp_sample with the bytes its stored layers may take
 * (keep_bytes; 0: its own share, a multiple of the working layers') and
 * the most walkers drawn together (batch; 0: as many as fit in 32 MiB;
 * the first batch is one walker) forced.
 * The maps are the same whatever they are. */
int ts_dp_sample_with(const tilesat_map *m, const tilesat_count_options *o,
                      int n, size_t keep_bytes, int batch, tilesat_map_fn fn,
                      void *user, tilesat_error *err);
/* ApproxMC counts and UniGen samples on CryptoMiniSat (approx.c). */
int ts_xor_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                  tilesat_map_fn fn, void *user, tilesat_error *err);
int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err);
#endif
