/* approx.c: approximate model counting with ApproxMC (Chakraborty, Meel,
 * Vardi, CP 2013 / IJCAI 2016), in its ApproxMC6 form:
 *
 *   Jiong Yang, Kuldeep S. Meel, "Rounding Meets Approximate Model
 *   Counting", CAV 2023, LNCS 13965, pp. 132-162 (arXiv:2305.09247).
 *
 * Random XOR constraints cut the set of maps into cells of expected size
 * count / 2^m; bounded enumeration (at most `thresh` maps) finds the
 * smallest m whose cell is small (LogSATSearch: galloping from the previous
 * estimate's m, then bisection), and count(cell) * 2^m estimates the total.
 *
 * ApproxMC6 rounds each estimate's cell count before scaling it
 * (ConfigRound in the paper), which lowers the probability that one
 * estimate falls below count/(1+epsilon) (Pr[L]) while that of exceeding
 * count*(1+epsilon) (Pr[U]) stays bounded.  With
 *   pivot  = 9.84 (1 + 1/epsilon)^2,
 *   thresh = 9.84 (1 + epsilon/(1+epsilon)) (1 + 1/epsilon)^2
 * (a cell is small when it holds fewer than thresh maps), the paper's rounding
 * and per-estimate bounds are epsilon < sqrt2-1:       max(cnt, sqrt(1+2
 * epsilon)/2 pivot)  .262 .169 sqrt2-1 <= eps < 1:      max(cnt, pivot/sqrt2)
 * .157 .169 1 <= eps < 3:            max(cnt, pivot)                      .085
 * .169 3 <= eps < 4 sqrt2-1:    pivot                                .055 .044
 *   eps >= 4 sqrt2-1:        sqrt2 pivot                          .023 .044
 * (columns: cell value used, Pr[L] bound, Pr[U] bound), and the median of
 * t estimates, t the smallest odd number with
 *   eta(t, pL) + eta(t, pU) <= delta,
 *   eta(t, p) = sum_{k >= ceil(t/2)} C(t,k) p^k (1-p)^(t-k),
 * lies within a factor (1 + epsilon) of the true count with probability at
 * least 1 - delta.  The same bounds and iteration rule are in the ApproxMC
 * authors' code (set_up_probs_threshold_measurements / calc_error_bound).
 * At epsilon 0.8, delta 0.2 that is t = 3 estimates, where the classic
 * analysis (ApproxMC2) needed ceil(17 log2(3/delta)) = 67.  A map count
 * below thresh is found exactly by the first bounded enumeration.
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
      if (lo == a->maxrows)
        return -1; /* every row on and still a big cell */
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

/* ApproxMC6's parameters for (epsilon, delta): see the header comment. */
typedef struct amc_params {
  int thresh;         /* a cell is small when it holds fewer maps */
  bool round_up;      /* cell value max(cnt, round_value), else round_value */
  double round_value; /* in maps */
  int iterations;     /* odd */
} amc_params;

/* eta(t, p): probability that at least ceil(t/2) of t independent events
 * of probability p happen (the median is wrong only if half the estimates
 * are); summed downwards from k = t as the authors' calc_error_bound. */
static double eta(int t, double p) {
  double term = pow(p, t), sum = term;
  for (int k = t - 1; k >= (t + 1) / 2; k--) {
    term *= (double)(k + 1) / (double)(t - k) * (1 - p) / p;
    sum += term;
  }
  return sum;
}

static amc_params amc_params_for(double eps, double delta) {
  amc_params p;
  double pivot = 9.84 * (1 + 1 / eps) * (1 + 1 / eps);
  p.thresh = (int)ceil(pivot * (1 + eps / (1 + eps)));
  double pl, pu = eps < 3 ? 0.169 : 0.044;
  p.round_up = eps < 3;
  if (eps < sqrt(2) - 1) {
    p.round_value = sqrt(1 + 2 * eps) / 2 * pivot;
    pl = 0.262;
  } else if (eps < 1) {
    p.round_value = pivot / sqrt(2);
    pl = 0.157;
  } else if (eps < 3) {
    p.round_value = pivot;
    pl = 0.085;
  } else if (eps < 4 * sqrt(2) - 1) {
    p.round_value = pivot;
    pl = 0.055;
  } else {
    p.round_value = sqrt(2) * pivot;
    pl = 0.023;
  }
  p.iterations = 1;
  while (eta(p.iterations, pl) + eta(p.iterations, pu) > delta)
    p.iterations += 2;
  return p;
}

/* est = value * 2^k, rounded to the nearest integer; value < 2^20. */
static void scaled(mpz_t est, double value, int k) {
  mpz_set_d(est, ldexp(value, 32)); /* exact: value has 53 bits */
  if (k >= 32) {
    mpz_mul_2exp(est, est, (mp_bitcnt_t)(k - 32));
  } else {
    mpz_add_ui(est, est, 1ul << (31 - k));
    mpz_fdiv_q_2exp(est, est, (mp_bitcnt_t)(32 - k));
  }
}

int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err) {
  amc a;
  memset(&a, 0, sizeof a);
  a.m = m;
  a.o = o;
  a.rng = o->seed ^ 0x746c7361u;
  amc_params par = amc_params_for(o->epsilon, o->delta);
  a.thresh = par.thresh;
  int T = m->rules->ntiles;
  for (int c = 0; c < m->ncells; c++)
    for (int t = 0; t + 1 < T; t++)
      TS_PUSH(a.support, ts_var(m, c, t));
  /* Rows beyond the support size are still random: with that many, a cell
   * of thresh maps or more is all but impossible, and find_rows fails
   * rather than loop if it happens. */
  a.maxrows = (int)a.support.n + 64;
  a.memo = ts_malloc((size_t)(a.maxrows + 1) * sizeof *a.memo);
  a.tiles = ts_malloc((size_t)m->ncells * sizeof *a.tiles);
  a.block = ts_malloc(((size_t)m->ncells + 1) * sizeof *a.block);
  int iterations = par.iterations;
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
    double value = par.round_value;
    if (par.round_up && (double)cell > value)
      value = (double)cell;
    mpz_init(est[done]);
    scaled(est[done], value, k);
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
