/* approx.c: approximate model counting with ApproxMC (Chakraborty, Meel,
 * Vardi, CP 2013 / IJCAI 2016).
 *
 * Random XOR constraints cut the set of maps into cells of expected size
 * count / 2^m; bounded enumeration (at most `thresh` maps) finds the
 * smallest m whose cell is small, and count(cell) * 2^m estimates the
 * total.  The median of t = ceil(17 log2(3/delta)) independent estimates
 * lies within a factor (1 + epsilon) of the true count with probability at
 * least 1 - delta.
 *
 * The XORs are native CryptoMiniSat constraints over an independent
 * support of the map: tiles 0..T-2 of every cell (the last tile of a cell
 * is determined by the others).  Each XOR row carries an activation
 * variable, so the first m rows are switched on by assumptions, and each
 * bounded enumeration blocks maps under a fresh guard literal that is
 * retired afterwards: one solver per estimate, used incrementally. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct amc {
  const tilesat_map *m;
  const tilesat_count_options *o;
  ts_solver *s;
  int next_var;
  ts_ints support;
  ts_ints act; /* activation variable of each XOR row added so far */
  int thresh;
  uint64_t rng;
  int *tiles, *block;
  long *memo; /* memo[k]: bounded count with k rows, or -1 */
  int maxrows;
} amc;

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static void add_row(amc *a) {
  ts_ints vars = {0};
  for (size_t i = 0; i < a->support.n; i++)
    if (splitmix(&a->rng) & 1)
      TS_PUSH(vars, a->support.v[i]);
  int act = ++a->next_var;
  TS_PUSH(vars, act);
  ts_solver_add_xor(a->s, vars.v, vars.n, splitmix(&a->rng) & 1);
  TS_PUSH(a->act, act);
  free(vars.v);
}

/* Number of maps satisfying the first k rows, up to a->thresh; -1 on
 * interruption or a failed solve. */
static long bounded(amc *a, int k) {
  if (a->memo[k] >= 0)
    return a->memo[k];
  while ((int)a->act.n < k)
    add_row(a);
  const tilesat_map *m = a->m;
  int guard = ++a->next_var;
  long n = 0;
  while (n < a->thresh) {
    if (a->o->stop && *a->o->stop)
      return -1;
    for (int j = 0; j < k; j++)
      ts_solver_assume(a->s, -a->act.v[j]);
    ts_solver_assume(a->s, guard);
    int res = ts_solver_solve(a->s);
    if (res == TILESAT_UNSAT)
      break;
    if (res != TILESAT_SAT || ts_read_map(m, a->s, a->tiles, NULL) < 0)
      return -1;
    n++;
    a->block[0] = -guard;
    for (int c = 0; c < m->ncells; c++)
      a->block[c + 1] = -ts_var(m, c, a->tiles[c]);
    ts_solver_add_clause(a->s, a->block, (size_t)m->ncells + 1);
  }
  int retire = -guard;
  ts_solver_add_clause(a->s, &retire, 1);
  a->memo[k] = n;
  return n;
}

/* Smallest k with bounded(k) < thresh, galloping from a guess. */
static int find_rows(amc *a, int guess, long *cell) {
  int lo = 0, hi = -1; /* bounded(lo) >= thresh; bounded(hi) < thresh */
  int k = guess < 1 ? 1 : guess > a->maxrows ? a->maxrows : guess;
  long c = bounded(a, k);
  if (c < 0)
    return -1;
  if (c >= a->thresh) {
    lo = k;
    for (int step = 1;; step *= 2) {
      int next = lo + step > a->maxrows ? a->maxrows : lo + step;
      if ((c = bounded(a, next)) < 0)
        return -1;
      if (c < a->thresh) {
        hi = next;
        break;
      }
      lo = next;
    }
  } else {
    hi = k;
    for (int step = 1; hi - step > lo; step *= 2) {
      int next = hi - step;
      if ((c = bounded(a, next)) < 0)
        return -1;
      if (c >= a->thresh) {
        lo = next;
        break;
      }
      hi = next;
    }
  }
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if ((c = bounded(a, mid)) < 0)
      return -1;
    if (c >= a->thresh)
      lo = mid;
    else
      hi = mid;
  }
  *cell = bounded(a, hi);
  return hi;
}

static int cmp_mpz(const void *x, const void *y) {
  return mpz_cmp(*(const mpz_t *)x, *(const mpz_t *)y);
}

static void amc_start(amc *a, const tilesat_map *m) {
  ts_cnf cnf;
  ts_encode(m, &cnf);
  a->s = ts_solver_new(TILESAT_CRYPTOMINISAT);
  ts_solver_set_stop(a->s, a->o->stop);
  ts_solver_load(a->s, &cnf);
  a->next_var = cnf.nvars;
  ts_cnf_free(&cnf);
  a->act.n = 0;
  for (int k = 0; k <= a->maxrows; k++)
    a->memo[k] = -1;
}

int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err) {
  double eps = o->epsilon, delta = o->delta;
  amc a;
  memset(&a, 0, sizeof a);
  a.m = m;
  a.o = o;
  a.rng = o->seed ^ 0x746c7361u;
  a.thresh = (int)ceil(1 + 9.84 * (1 + eps / (1 + eps)) * (1 + 1 / eps) *
                               (1 + 1 / eps));
  int T = m->rules->ntiles;
  for (int c = 0; c < m->ncells; c++)
    for (int t = 0; t + 1 < T; t++)
      TS_PUSH(a.support, ts_var(m, c, t));
  a.maxrows = (int)a.support.n;
  a.memo = ts_malloc((size_t)(a.maxrows + 1) * sizeof *a.memo);
  a.tiles = ts_malloc((size_t)m->ncells * sizeof *a.tiles);
  a.block = ts_malloc(((size_t)m->ncells + 1) * sizeof *a.block);
  int iterations = (int)ceil(17 * log2(3 / delta));
  mpz_t *est = ts_calloc((size_t)iterations, sizeof *est);
  int done = 0, rc = -1;

  /* Few maps: the bounded enumeration is the exact count. */
  amc_start(&a, m);
  long small = bounded(&a, 0);
  ts_solver_free(a.s);
  if (small < 0)
    goto fail;
  if (small < a.thresh) {
    mpz_set_ui(count, (unsigned long)small);
    rc = 0;
    goto out;
  }
  int guess = 1;
  for (; done < iterations; done++) {
    amc_start(&a, m);
    long cell;
    int k = find_rows(&a, guess, &cell);
    ts_solver_free(a.s);
    if (k < 0)
      goto fail;
    guess = k;
    mpz_init_set_ui(est[done], (unsigned long)cell);
    mpz_mul_2exp(est[done], est[done], (mp_bitcnt_t)k);
    if (o->progress) {
      char line[160];
      snprintf(line, sizeof line,
               "approx: estimate %d of %d: %ld maps in a cell of 2^-%d",
               done + 1, iterations, cell, k);
      o->progress(o->progress_user, line);
    }
  }
  qsort(est, (size_t)done, sizeof *est, cmp_mpz);
  mpz_set(count, est[done / 2]);
  rc = 0;
  goto out;
fail:
  ts_error(err, "count", 0,
           o->stop && *o->stop ? "interrupted"
                               : "the CryptoMiniSat backend gave no answer");
out:
  for (int i = 0; i < done; i++)
    mpz_clear(est[i]);
  free(est);
  free(a.support.v);
  free(a.act.v);
  free(a.memo);
  free(a.tiles);
  free(a.block);
  return rc;
}
