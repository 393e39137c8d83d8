/* xorsample.c: near-uniform sampling by XOR hashing, for maps beyond the
 * DP's memory: UniGen2's algorithm (S. Chakraborty, D. J. Fremont,
 * K. S. Meel, S. A. Seshia, M. Y. Vardi, "On Parallel Scalable Uniform SAT
 * Witness Generation", TACAS 2015), drawing one map per hash.
 *
 * For a tolerance epsilon >= 1.71, kappa solves
 *   epsilon = (1 + kappa) (2.23 + 0.48 / (1 - kappa)^2) - 1,
 * pivot = ceil(3 sqrt(e) (1 + 1/kappa)^2), and a cell of the hash is
 * accepted when it holds between loThresh = pivot / (1 + kappa) and
 * hiThresh = 1 + (1 + kappa) pivot maps.  With C an ApproxMC estimate at
 * (0.8, 0.8) and q = ceil(log2 C + log2 1.8 - log2 pivot), the first i rows
 * of one random XOR hash are tried for i = q-4 .. q; the first acceptable
 * cell gives a map chosen uniformly in it.  Then every map is drawn with a
 * probability within a factor 1 + epsilon of uniform, and an attempt
 * succeeds with probability at least 0.62 (else it is retried with a fresh
 * hash).  When there are fewer than hiThresh maps in all, they are listed
 * and drawn from exactly uniformly.
 *
 * The XORs range over tiles 0..T-2 of every cell, which determine the map
 * (the last tile of a cell is the one left), as in approx.c. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ATTEMPTS 64

typedef struct xs {
  const tilesat_map *m;
  ts_solver *s;
  int next_var;
  ts_ints support;
  ts_ints act;  /* activation variable of each row of the current hash */
  uint64_t rng; /* splitmix64 state */
  int *maps;    /* up to `room` maps found by the last enumeration */
  int room;
} xs;

static uint64_t next_u64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static int below(xs *x, int n) {
  return (int)(next_u64(&x->rng) % (uint64_t)n);
}

/* A fresh solver holding the map's clauses and no hash. */
static void xs_start(xs *x) {
  ts_cnf cnf;
  ts_encode(x->m, &cnf);
  x->s = ts_solver_new(TILESAT_CRYPTOMINISAT);
  ts_solver_load(x->s, &cnf);
  x->next_var = cnf.nvars;
  ts_cnf_free(&cnf);
  x->act.n = 0;
}

/* One more random XOR row, switched on by assuming its activation variable
 * false. */
static void add_row(xs *x) {
  ts_ints vars = {0};
  for (size_t i = 0; i < x->support.n; i++)
    if (next_u64(&x->rng) & 1)
      TS_PUSH(vars, x->support.v[i]);
  int act = ++x->next_var;
  TS_PUSH(vars, act);
  ts_solver_add_xor(x->s, vars.v, vars.n, next_u64(&x->rng) & 1);
  TS_PUSH(x->act, act);
  free(vars.v);
}

/* The maps under the first k rows, up to `limit` (<= room), kept in
 * x->maps; -1 when the solver gives no answer (or is stopped). */
static int enumerate(xs *x, int k, int limit) {
  const tilesat_map *m = x->m;
  while ((int)x->act.n < k)
    add_row(x);
  int guard = ++x->next_var, n = 0;
  int *block = ts_malloc(((size_t)m->ncells + 1) * sizeof *block);
  while (n < limit) {
    for (int j = 0; j < k; j++)
      ts_solver_assume(x->s, -x->act.v[j]);
    ts_solver_assume(x->s, guard);
    int res = ts_solver_solve(x->s);
    if (res == TILESAT_UNSAT)
      break;
    int *tiles = x->maps + (size_t)n * (size_t)m->ncells;
    if (res != TILESAT_SAT || ts_read_map(m, x->s, tiles, NULL) < 0) {
      n = -1;
      break;
    }
    n++;
    block[0] = -guard;
    for (int c = 0; c < m->ncells; c++)
      block[c + 1] = -ts_var(m, c, tiles[c]);
    ts_solver_add_clause(x->s, block, (size_t)m->ncells + 1);
  }
  int retire = -guard;
  ts_solver_add_clause(x->s, &retire, 1);
  free(block);
  return n;
}

/* kappa for a tolerance epsilon >= 1.71, by bisection (the right-hand side
 * grows with kappa on [0, 1)). */
static double kappa_of(double epsilon) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; i++) {
    double k = (lo + hi) / 2;
    double e = (1 + k) * (2.23 + 0.48 / ((1 - k) * (1 - k))) - 1;
    if (e > epsilon)
      hi = k;
    else
      lo = k;
  }
  return lo;
}

int ts_xor_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                  tilesat_map_fn fn, void *user, tilesat_error *err) {
  if (o->tolerance < 1.71) {
    ts_error(err, "sample", 0,
             "the tolerance must be at least 1.71 (UniGen's bound), not %g",
             o->tolerance);
    return -1;
  }
  double kappa = kappa_of(o->tolerance);
  double pivot = ceil(3 * sqrt(exp(1.0)) * (1 + 1 / kappa) * (1 + 1 / kappa));
  int hi = (int)ceil(1 + (1 + kappa) * pivot);
  int lo = (int)floor(pivot / (1 + kappa));
  xs x;
  memset(&x, 0, sizeof x);
  x.m = m;
  x.rng = o->seed ^ 0x78736d70u;
  x.room = hi + 1;
  x.maps = ts_malloc((size_t)x.room * (size_t)m->ncells * sizeof *x.maps);
  int T = m->rules->ntiles;
  for (int c = 0; c < m->ncells; c++)
    for (int t = 0; t + 1 < T; t++)
      TS_PUSH(x.support, ts_var(m, c, t));
  int produced = -1, q = 0;
  bool stopped = false;

  xs_start(&x);
  ts_solver_set_stop(x.s, o->stop);
  int all = enumerate(&x, 0, hi);
  ts_solver_free(x.s);
  if (all < 0)
    goto fail;
  if (all >= hi) {
    tilesat_count_options ao = *o;
    ao.epsilon = 0.8;
    ao.delta = 0.8;
    mpz_t c;
    mpz_init(c);
    int rc = ts_approx_count(m, &ao, c, err);
    if (!rc) {
      long e2;
      double mant = mpz_get_d_2exp(&e2, c);
      q = (int)ceil(log2(mant) + (double)e2 + log2(1.8) - log2(pivot));
    }
    mpz_clear(c);
    if (rc)
      goto out;
  }
  produced = 0;
  while (produced < n) {
    if (o->stop && *o->stop)
      goto fail;
    const int *map = NULL;
    if (all == 0) {
      break;
    } else if (all < hi) {
      /* few maps: the first enumeration listed them all */
      map = x.maps + (size_t)below(&x, all) * (size_t)m->ncells;
    } else {
      int attempt = 0;
      for (; !map && attempt < MAX_ATTEMPTS; attempt++) {
        xs_start(&x);
        ts_solver_set_stop(x.s, o->stop);
        for (int i = q - 4 < 0 ? 0 : q - 4; i <= q && !map; i++) {
          int got = enumerate(&x, i, hi + 1);
          if (got < 0) {
            ts_solver_free(x.s);
            goto fail;
          }
          if (got >= lo && got <= hi)
            map = x.maps + (size_t)below(&x, got) * (size_t)m->ncells;
        }
        ts_solver_free(x.s);
      }
      if (!map) {
        ts_error(err, "sample", 0,
                 "no cell of the XOR hash was of the right size in %d "
                 "attempts (each succeeds with probability >= 0.62)",
                 MAX_ATTEMPTS);
        produced = -1;
        goto out;
      }
    }
    char why[256];
    if (!tilesat_map_verify(m, map, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: sampled map is not valid: %s",
               why);
      produced = -1;
      goto out;
    }
    produced++;
    if (o->progress && all >= hi) {
      char line[96];
      snprintf(line, sizeof line, "sample: %d of %d maps", produced, n);
      o->progress(o->progress_user, line);
    }
    if (fn && fn(user, map))
      break;
  }
  goto out;
fail:
  stopped = o->stop && *o->stop;
  ts_error(err, "sample", 0,
           stopped ? "interrupted"
                   : "the CryptoMiniSat backend gave no answer");
  produced = -1;
out:
  free(x.support.v);
  free(x.act.v);
  free(x.maps);
  return produced;
}
