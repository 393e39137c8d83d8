/* core/rng.h: the one seeded RNG of libtilesat.
 *
 * xoshiro256** (Blackman, Vigna 2018), its state filled by splitmix64 from
 * (seed, stream): every random result is a function of --seed and of the
 * stream its user picks (a restart, a replica, a hash family), so the same
 * seed gives the same map.  Static inline: the annealer draws ~1e8 numbers
 * a second from its hot loop. */
#ifndef TILESAT_CORE_RNG_H
#define TILESAT_CORE_RNG_H

#include <stdint.h>

typedef struct ts_rng {
  uint64_t s[4];
} ts_rng;

static inline uint64_t ts_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static inline void ts_rng_seed(ts_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xd1342543de82ef95u);
  for (int i = 0; i < 4; i++)
    r->s[i] = ts_splitmix64(&x);
}

static inline uint64_t ts_rotl64(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t ts_rng_next(ts_rng *r) {
  uint64_t *s = r->s;
  uint64_t out = ts_rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = ts_rotl64(s[3], 45);
  return out;
}

/* Uniform in [0, 1), 24 bits. */
static inline float ts_rng_float(ts_rng *r) {
  return (float)(ts_rng_next(r) >> 40) * 0x1p-24f;
}

/* Uniform in [0, 1), 53 bits. */
static inline double ts_rng_double(ts_rng *r) {
  return (double)(ts_rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform in [0, n), n < 2^32 (Lemire's multiply-shift, bias < n / 2^32). */
static inline uint32_t ts_rng_below(ts_rng *r, uint32_t n) {
  return (uint32_t)(((ts_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#endif
