/* approx.c: approximate model counting with ApproxMC (Chakraborty, Meel,
 * Vardi, CP 2013 / IJCAI 2016), in its ApproxMC6 form, and near-uniform
 * sampling with UniGen over the same XOR hashing (at the end):
 *
 *   Jiong Yang, Kuldeep S. Meel, "Rounding Meets Approximate Model
 *   Counting", CAV 2023, doi:10.1007/978-3-031-37703-7_7,
 *   arXiv:2305.09247.
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
 * (a cell is small when it holds fewer than thresh maps), the paper's
 * rounding and per-estimate bounds are
 *   epsilon            cell value used               Pr[L]  Pr[U]
 *   < sqrt2-1          max(cnt, sqrt(1+2e)/2 pivot)  0.262  0.169
 *   [sqrt2-1, 1)       max(cnt, pivot/sqrt2)         0.157  0.169
 *   [1, 3)             max(cnt, pivot)               0.085  0.169
 *   [3, 4 sqrt2-1)     pivot                         0.055  0.044
 *   >= 4 sqrt2-1       sqrt2 pivot                   0.023  0.044
 * and the median of t estimates, t the smallest odd number with
 *   eta(t, pL) + eta(t, pU) <= delta,
 *   eta(t, p) = sum_{k >= ceil(t/2)} C(t,k) p^k (1-p)^(t-k),
 * lies within a factor (1 + epsilon) of the true count with probability at
 * least 1 - delta.  The Pr[L]/Pr[U] table and this rule for t are also in
 * the ApproxMC authors' code (set_up_probs_threshold_measurements and
 * calc_error_bound, as carried into their SMT counter); the rounding is
 * the paper's.  The estimate value * 2^m is rounded to the nearest integer
 * for printing.
 * At epsilon 0.8, delta 0.2 that is t = 3 estimates, where the classic
 * analysis (ApproxMC2) needed ceil(17 log2(3/delta)) = 67.  A map count
 * below thresh is found exactly by the first bounded enumeration.
 *
 * The XORs are native CryptoMiniSat constraints over an independent
 * support of the map: the ceil(log2 T) bits of each cell's tile (auxiliary
 * variables defined from the tile variables, see support_init) when that is
 * fewer than T-1, else tiles 0..T-2 of every cell.  Each bounded
 * enumeration runs on a new solver that holds exactly its m rows, in
 * CryptoMiniSat's ApproxMC settings (ts_solver_set_counting); every map is
 * read from the support alone and checked (valid, in the cell) before it
 * counts.  Against one solver per estimate with rows switched on by
 * assumptions, that is about as fast and simpler; the settings are what
 * made approx 10-30 times faster (coast 12x12 on an idle core: 20 s to
 * 0.7 s).  Maps found earlier are counted again without solving when they
 * fall in the cell being enumerated. */
#include "count/approx.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The independent support: variable i is the tile variable of
 * (cell[i], val[i]), or with bits the val[i]-th bit of the cell's tile. */
typedef struct support {
  bool bits;
  ts_ints var, cell, val;
} support;

/* One saved map (the cells' tiles), found by a bounded enumeration. */
typedef TS_VEC(int *) ts_maps;

typedef struct amc {
  const tilesat_map *m;
  const tilesat_count_options *o;
  ts_cnf cnf;   /* the map's encoding */
  ts_solver *s; /* the solver of the bounded enumeration under way */
  support sup;
  ts_ints rowstart; /* row r: support indices rowidx[rowstart[r]..], rhs */
  ts_ints rowidx;
  TS_VEC(bool) rhs;
  int thresh;
  ts_rng rng;
  int *tiles, *block;
  long *memo; /* memo[k]: bounded count with k rows, or -1 */
  int maxrows;
  int complete; /* smallest k of this estimate whose cell was enumerated
                 * completely (bounded < thresh), or -1 */
  ts_maps saved;
  tilesat_error *err; /* for internal errors (a model that is no map) */
  bool broken;        /* such an error was reported */
} amc;

/* ceil(log2 T) bits name a tile (0 when T is 1). */
static int tile_bits(int T) {
  int b = 0;
  while ((1 << b) < T)
    b++;
  return b;
}

/* The support; with bits, solver_init adds the clauses that define them.
 *
 * Tiles: tiles 0..T-2 of every cell; the last tile is on exactly when the
 * others are off, so they determine the map.
 *
 * Bits (when B = ceil(log2 T) < T-1): fresh variables b(c,j), j < B, with
 * x(c,t) -> b(c,j) for each bit j set in t and x(c,t) -> -b(c,j) for each
 * bit clear.  Every map has exactly one tile t per cell, so these clauses
 * force b(c,.) to the binary code of t: the bits are functions of the
 * tiles and add no models.  Distinct tiles have distinct codes, so the
 * bits determine the tile of every cell (and the ladder's variables are
 * functions of the tiles): the maps and their bit vectors correspond one
 * to one, and counting the projection onto the bits counts the maps.  The
 * converse clauses, (code of t) -> x(c,t) and "no code of T or more", are
 * implied by the same argument; they only let propagation go from bits to
 * tiles.  A random XOR over the bits is ApproxMC's hash family over this
 * support, B/2 variables per cell on average instead of (T-1)/2.  The
 * test count/approx_bit_support_counts_the_maps enumerates the projection
 * and checks it against the dp. */
static void support_init(amc *a) {
  const tilesat_map *m = a->m;
  int T = m->rules->ntiles, B = tile_bits(T);
  support *sp = &a->sup;
  sp->bits = B < T - 1;
  for (int c = 0; c < m->ncells; c++)
    for (int j = 0; j < (sp->bits ? B : T - 1); j++) {
      TS_PUSH(sp->var,
              sp->bits ? a->cnf.nvars + c * B + j + 1 : ts_var(m, c, j));
      TS_PUSH(sp->cell, c);
      TS_PUSH(sp->val, j);
    }
}

/* Row r is the support variables rowidx[rowstart[r] .. row_end(r)). */
static size_t row_end(const amc *a, int r) {
  return (size_t)r + 1 < a->rowstart.n ? (size_t)a->rowstart.v[r + 1]
                                       : a->rowidx.n;
}

/* A new solver: the map, the clauses that define the support's bits, and
 * the first k XOR rows. */
static void solver_init(amc *a, int k) {
  const tilesat_map *m = a->m;
  int T = m->rules->ntiles, B = tile_bits(T);
  ts_solver_free(a->s);
  /* the XORs are CryptoMiniSat's, whatever backend enum would use */
  tilesat_solve_options so = a->o->solve;
  so.backend = TILESAT_CRYPTOMINISAT;
  a->s = ts_solver_new(m, &so);
  ts_solver_set_counting(a->s);
  ts_solver_load(a->s, &a->cnf);
  int base = a->cnf.nvars;
  int lits[32];
  for (int c = 0; a->sup.bits && c < m->ncells; c++) {
    for (int code = 0; code < (1 << B); code++) {
      int n = 0;
      for (int j = 0; j < B; j++) {
        int b = base + c * B + j + 1;
        lits[n++] = code >> j & 1 ? -b : b;
      }
      if (code < T) {
        int x = ts_var(m, c, code);
        lits[n++] = x;
        for (int j = 0; j < B; j++) {
          int b = base + c * B + j + 1, l[2] = {-x, code >> j & 1 ? b : -b};
          ts_solver_add_clause(a->s, l, 2);
        }
      }
      ts_solver_add_clause(a->s, lits, (size_t)n);
    }
  }
  ts_ints vars = {0};
  for (int r = 0; r < k; r++) {
    vars.n = 0;
    for (size_t i = (size_t)a->rowstart.v[r]; i < row_end(a, r); i++)
      TS_PUSH(vars, a->sup.var.v[a->rowidx.v[i]]);
    ts_solver_add_xor(a->s, vars.v, vars.n, a->rhs.v[r]);
  }
  free(vars.v);
}

/* The value of support variable i in a map. */
static bool support_value(const support *sp, size_t i, const int *tiles) {
  int t = tiles[sp->cell.v[i]];
  return sp->bits ? (t >> sp->val.v[i] & 1) : t == sp->val.v[i];
}

/* Draw one more XOR row: each support variable with probability 1/2, and
 * a random right-hand side. */
static void add_row(amc *a) {
  TS_PUSH(a->rowstart, (int)a->rowidx.n);
  for (size_t i = 0; i < a->sup.var.n; i++)
    if (ts_rng_next(&a->rng) & 1)
      TS_PUSH(a->rowidx, (int)i);
  TS_PUSH(a->rhs, ts_rng_next(&a->rng) & 1);
}

/* Whether a saved map satisfies the first k rows of this estimate. */
static bool in_cell(const amc *a, const int *tiles, int k) {
  for (int r = 0; r < k; r++) {
    bool parity = false;
    for (size_t i = (size_t)a->rowstart.v[r]; i < row_end(a, r); i++)
      parity ^= support_value(&a->sup, (size_t)a->rowidx.v[i], tiles);
    if (parity != a->rhs.v[r])
      return false;
  }
  return true;
}

/* The map of the solver's model, read from the support alone (see
 * ts_solver_set_counting) and checked: a valid map in the cell of the
 * first k rows.  -1 with a->err set otherwise. */
static int support_read(amc *a, int k) {
  const tilesat_map *m = a->m;
  const support *sp = &a->sup;
  int T = m->rules->ntiles;
  for (int c = 0; c < m->ncells; c++)
    a->tiles[c] = sp->bits ? 0 : T - 1;
  for (size_t i = 0; i < sp->var.n; i++) {
    if (!ts_solver_value(a->s, sp->var.v[i]))
      continue;
    int c = sp->cell.v[i], v = sp->val.v[i];
    if (sp->bits)
      a->tiles[c] |= 1 << v;
    else if (a->tiles[c] != T - 1)
      a->tiles[c] = -1; /* two tiles */
    else
      a->tiles[c] = v;
  }
  char why[512];
  for (int c = 0; c < m->ncells; c++)
    if (a->tiles[c] < 0 || a->tiles[c] >= T) {
      if (a->tiles[c] < 0)
        ts_error(a->err, NULL, 0,
                 "internal error: the model puts two tiles in cell (%d,%d)",
                 c / m->width, c % m->width);
      else
        ts_error(a->err, NULL, 0,
                 "internal error: the model's bits give cell (%d,%d) tile "
                 "code %d, beyond the %d tiles",
                 c / m->width, c % m->width, a->tiles[c], T);
      return a->broken = true, -1;
    }
  if (!tilesat_map_verify(m, a->tiles, why, sizeof why)) {
    ts_error(a->err, NULL, 0,
             "internal error: the solver's map is not valid: %s", why);
    return a->broken = true, -1;
  }
  if (!in_cell(a, a->tiles, k)) {
    ts_error(a->err, NULL, 0,
             "internal error: the solver's map is not in the cell of %d XOR "
             "rows",
             k);
    return a->broken = true, -1;
  }
  return 0;
}

static void block(amc *a, const int *tiles) {
  const tilesat_map *m = a->m;
  for (int c = 0; c < m->ncells; c++)
    a->block[c] = -ts_var(m, c, tiles[c]);
  ts_solver_add_clause(a->s, a->block, (size_t)m->ncells);
}

/* Number of maps satisfying the first k rows, up to a->thresh; -1 on
 * interruption or a failed solve.  The count is exact whatever the order
 * of the calls: maps saved by earlier enumerations (valid maps all) that
 * satisfy the k rows are counted and blocked before the solver looks for
 * more, and once some cell of this estimate was enumerated completely,
 * every smaller cell inside it is counted from the saved maps alone (as
 * the ApproxMC authors' code reuses models). */
static long bounded(amc *a, int k) {
  if (a->memo[k] >= 0)
    return a->memo[k];
  while ((int)a->rowstart.n < k)
    add_row(a);
  long n = 0;
  if (a->complete >= 0 && k >= a->complete) {
    for (size_t i = 0; i < a->saved.n; i++)
      n += in_cell(a, a->saved.v[i], k);
    return a->memo[k] = n;
  }
  const tilesat_map *m = a->m;
  solver_init(a, k);
  for (size_t i = 0; i < a->saved.n && n < a->thresh; i++)
    if (in_cell(a, a->saved.v[i], k)) {
      n++;
      block(a, a->saved.v[i]);
    }
  while (n < a->thresh) {
    if (ts_terminated(&a->o->solve))
      return -1;
    int res = ts_solver_solve(a->s);
    if (res == TILESAT_UNSAT)
      break;
    if (res != TILESAT_SAT || support_read(a, k) < 0)
      return -1;
    n++;
    if (a->o->progress) { /* the caller throttles */
      char line[96];
      snprintf(line, sizeof line, "approx: %d XOR rows: %ld maps in the cell",
               k, n);
      a->o->progress(a->o->progress_user, line);
    }
    int *copy = ts_malloc((size_t)m->ncells * sizeof *copy);
    memcpy(copy, a->tiles, (size_t)m->ncells * sizeof *copy);
    TS_PUSH(a->saved, copy);
    block(a, copy);
  }
  ts_solver_free(a->s);
  a->s = NULL;
  if (n < a->thresh && (a->complete < 0 || k < a->complete))
    a->complete = k;
  return a->memo[k] = n;
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
      if (lo == a->maxrows) { /* all but impossible: see amc_init */
        ts_error(a->err, NULL, 0,
                 "internal error: with all %d XOR rows, a cell still holds "
                 "%d maps or more",
                 a->maxrows, a->thresh);
        return a->broken = true, -1;
      }
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

/* A new estimate: fresh rows, nothing known but the saved maps. */
static void amc_estimate(amc *a) {
  a->rowstart.n = a->rowidx.n = a->rhs.n = 0;
  a->complete = -1;
  for (int k = 0; k <= a->maxrows; k++)
    a->memo[k] = -1;
}

static void amc_init(amc *a, const tilesat_map *m,
                     const tilesat_count_options *o, uint64_t stream,
                     int thresh, tilesat_error *err) {
  memset(a, 0, sizeof *a);
  a->err = err;
  a->m = m;
  a->o = o;
  ts_rng_seed(&a->rng, o->seed, stream);
  a->thresh = thresh;
  /* Rows beyond the support size are still random: with that many, a cell
   * of thresh maps or more is all but impossible, and find_rows fails
   * rather than loop if it happens. */
  int T = m->rules->ntiles, B = tile_bits(T);
  a->maxrows = m->ncells * (B < T - 1 ? B : T - 1) + 64;
  a->memo = ts_malloc((size_t)(a->maxrows + 1) * sizeof *a->memo);
  a->tiles = ts_malloc((size_t)m->ncells * sizeof *a->tiles);
  a->block = ts_malloc((size_t)m->ncells * sizeof *a->block);
  ts_encode(m, &a->cnf);
  support_init(a);
}

static void amc_free(amc *a) {
  ts_solver_free(a->s);
  for (size_t i = 0; i < a->saved.n; i++)
    free(a->saved.v[i]);
  free(a->saved.v);
  free(a->sup.var.v);
  free(a->sup.cell.v);
  free(a->sup.val.v);
  free(a->rowstart.v);
  free(a->rowidx.v);
  free(a->rhs.v);
  ts_cnf_free(&a->cnf);
  free(a->memo);
  free(a->tiles);
  free(a->block);
}

/* For the tests: the number of distinct assignments of the support over
 * all maps (blocking clauses over the support variables only), up to
 * limit; -1 if the solver gives no answer.  *bits tells which support. */
long ts_approx_support_count(const tilesat_map *m, long limit, bool *bits) {
  tilesat_count_options o = {0}; /* no stop flag, no progress */
  amc a;
  amc_init(&a, m, &o, 0, 0, NULL);
  solver_init(&a, 0);
  *bits = a.sup.bits;
  size_t n = a.sup.var.n;
  int *blocking = ts_malloc(n * sizeof *blocking);
  long count = 0;
  while (count < limit) {
    int res = ts_solver_solve(a.s);
    if (res == TILESAT_UNSAT)
      break;
    if (res != TILESAT_SAT) {
      count = -1;
      break;
    }
    count++;
    for (size_t i = 0; i < n; i++) {
      int v = a.sup.var.v[i];
      blocking[i] = ts_solver_value(a.s, v) ? -v : v;
    }
    ts_solver_add_clause(a.s, blocking, n);
  }
  free(blocking);
  amc_free(&a);
  return count;
}

/* For the tests: the bounded enumerations of one estimate (hash stream
 * seed, threshold thresh) at the n row counts order[0..n-1], in that order
 * (so maps saved earlier and a complete cell get reused), into got[i]; and
 * want[i], how many of the nmaps given maps (ncells tiles each) lie in the
 * same cell, for min(want, thresh) to be checked against got.  -1 in got
 * when the solver gives no answer or a model fails its check. */
void ts_approx_cells(const tilesat_map *m, uint64_t seed, int thresh,
                     const int *order, int n, const int *maps, long nmaps,
                     long *got, long *want) {
  tilesat_count_options o = {0}; /* no stop flag, no progress */
  o.seed = seed;
  amc a;
  amc_init(&a, m, &o, 0, thresh, NULL);
  amc_estimate(&a);
  for (int i = 0; i < n; i++) {
    got[i] = bounded(&a, order[i]);
    want[i] = 0;
    for (long j = 0; j < nmaps; j++)
      want[i] += in_cell(&a, maps + j * m->ncells, order[i]);
  }
  amc_free(&a);
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

/* ApproxMC; errors name `what`, the command that asked (count, or sample
 * for UniGen's estimate). */
static int approx_count(const tilesat_map *m, const tilesat_count_options *o,
                        mpz_t count, tilesat_error *err, const char *what) {
  amc_params par = amc_params_for(o->epsilon, o->delta);
  amc a;
  amc_init(&a, m, o, 0x746c7361u, par.thresh, err);
  int iterations = par.iterations;
  mpz_t *est = ts_calloc((size_t)iterations, sizeof *est);
  int done = 0, rc = -1;

  /* Few maps: the bounded enumeration is the exact count. */
  amc_estimate(&a);
  long small = bounded(&a, 0);
  if (small < 0)
    goto fail;
  if (small < a.thresh) {
    mpz_set_ui(count, (unsigned long)small);
    rc = 0;
    goto out;
  }
  int guess = 1;
  for (; done < iterations; done++) {
    amc_estimate(&a);
    long cell;
    int k = find_rows(&a, guess, &cell);
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
  if (!a.broken)
    ts_error(err, what, 0,
             ts_terminated(&o->solve)
                 ? "interrupted"
                 : "the CryptoMiniSat backend gave no answer");
out:
  for (int i = 0; i < done; i++)
    mpz_clear(est[i]);
  free(est);
  amc_free(&a);
  return rc;
}

int ts_approx_count(const tilesat_map *m, const tilesat_count_options *o,
                    mpz_t count, tilesat_error *err) {
  return approx_count(m, o, count, err, "count");
}

/* ------------------------------------------------------------ sampling */

/* Near-uniform sampling by the same hashing: UniGen (S. Chakraborty,
 * K. S. Meel, M. Y. Vardi, "Balancing Scalability and Uniformity in SAT
 * Witness Generation", DAC 2014), one map per call.
 *
 * For a tolerance epsilon >= 1.71, kappa solves
 *   epsilon = (1 + kappa) (2.23 + 0.48 / (1 - kappa)^2) - 1,
 * pivot = ceil(3 sqrt(e) (1 + 1/kappa)^2), and a cell of a hash is
 * accepted when it holds between loThresh = pivot / (1 + kappa) and
 * hiThresh = 1 + (1 + kappa) pivot maps.  With C an ApproxMC estimate at
 * (0.8, 0.8) and q = ceil(log2 C + log2 1.8 - log2 pivot), a random hash of
 * i rows is tried for i = q-3 .. q (a fresh one for each i); the first
 * acceptable cell gives a map chosen uniformly in it.  Every map is then
 * drawn with a probability within a factor 1 + epsilon of uniform, and a
 * call succeeds with probability at least 0.62; a failed call (no cell of
 * the right size) is retried, and C is estimated anew (another hash
 * stream) every RE_ESTIMATE failures in a row, in case it was far off.
 * When there are at most hiThresh maps in all, they are listed and drawn
 * from exactly uniformly.  The hash is ApproxMC's, over the same
 * independent support (see support_init). */

#define MAX_ATTEMPTS 64
#define RE_ESTIMATE 16

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

/* The saved map number `pick` (0-based) among those in the cell of the
 * first k rows. */
static const int *saved_in_cell(const amc *a, int k, long pick) {
  for (size_t i = 0; i < a->saved.n; i++)
    if (in_cell(a, a->saved.v[i], k) && pick-- == 0)
      return a->saved.v[i];
  return NULL;
}

/* UniGen's q from an ApproxMC estimate at (0.8, 0.8) on hash stream
 * `stream`: at least 0; -1 with err when ApproxMC fails. */
static int rows_for(const tilesat_map *m, const tilesat_count_options *o,
                    uint64_t stream, double pivot, tilesat_error *err) {
  tilesat_count_options ao = *o;
  ao.epsilon = 0.8;
  ao.delta = 0.8;
  ao.seed = o->seed + stream * 0x9E3779B97F4A7C15u;
  mpz_t c;
  mpz_init(c);
  int q = -1;
  if (!approx_count(m, &ao, c, err, "sample")) {
    q = 0;
    if (mpz_sgn(c) > 0) {
      long e2;
      double mant = mpz_get_d_2exp(&e2, c);
      double x = ceil(log2(mant) + (double)e2 + log2(1.8) - log2(pivot));
      q = x > 0 ? (int)x : 0;
    }
  }
  mpz_clear(c);
  return q;
}

static long below(amc *a, long n) {
  return (long)ts_rng_below(&a->rng, (uint32_t)n); /* n <= hi, small */
}

/* UniGen's cell bounds: a cell of lo..hi maps is the right size. */
typedef struct unigen {
  double pivot;
  long lo, hi;
} unigen;

/* One map from a cell of the right size (from the only cell when the first
 * enumeration listed every map): 0 with *map, -1 with err said, -2 when a
 * solve gave no answer. */
static int draw_map(amc *a, const tilesat_map *m,
                    const tilesat_count_options *o, const unigen *u, long all,
                    int *q, const int **map, tilesat_error *err) {
  *map = NULL;
  if (all <= u->hi) {
    *map = saved_in_cell(a, 0, below(a, all));
    return 0;
  }
  for (int attempt = 0; !*map && attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt && attempt % RE_ESTIMATE == 0 &&
        (*q = rows_for(m, o, (uint64_t)attempt, u->pivot, err)) < 0)
      return -1;
    for (int i = *q - 3 < 0 ? 0 : *q - 3; i <= *q && !*map; i++) {
      int k = i < a->maxrows ? i : a->maxrows;
      amc_estimate(a); /* a fresh hash for each i */
      long got = bounded(a, k);
      if (got < 0)
        return -2;
      if (got >= u->lo && got <= u->hi)
        *map = saved_in_cell(a, k, below(a, got));
    }
  }
  if (!*map) {
    ts_error(err, "sample", 0,
             "no cell of the XOR hash was of the right size in %d "
             "attempts (each succeeds with probability >= 0.62)",
             MAX_ATTEMPTS);
    return -1;
  }
  return 0;
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
  unigen u;
  u.pivot = ceil(3 * sqrt(exp(1.0)) * (1 + 1 / kappa) * (1 + 1 / kappa));
  u.hi = (long)ceil(1 + (1 + kappa) * u.pivot);
  u.lo = (long)floor(u.pivot / (1 + kappa));
  long hi = u.hi;
  amc a;
  /* a cell is enumerated up to hi + 1 maps: at most hi means complete */
  amc_init(&a, m, o, 0x78736d70u, (int)hi + 1, err);
  int produced = -1, q = 0;
  amc_estimate(&a);
  long all = bounded(&a, 0);
  if (all < 0)
    goto fail;
  if (all > hi && (q = rows_for(m, o, 0, u.pivot, err)) < 0)
    goto out;
  produced = 0;
  while (produced < n && all > 0) {
    if (ts_terminated(&o->solve))
      goto fail;
    const int *map;
    int got = draw_map(&a, m, o, &u, all, &q, &map, err);
    if (got == -2)
      goto fail;
    if (got < 0) {
      produced = -1;
      goto out;
    }
    char why[256];
    if (!tilesat_map_verify(m, map, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: sampled map is not valid: %s",
               why);
      produced = -1;
      goto out;
    }
    produced++;
    if (o->progress && all > hi) {
      char line[96];
      snprintf(line, sizeof line, "sample: %d of %d maps", produced, n);
      o->progress(o->progress_user, line);
    }
    if (fn && fn(user, map))
      break;
  }
  goto out;
fail:
  if (!a.broken)
    ts_error(err, "sample", 0,
             ts_terminated(&o->solve)
                 ? "interrupted"
                 : "the CryptoMiniSat backend gave no answer");
  produced = -1;
out:
  amc_free(&a);
  return produced;
}
