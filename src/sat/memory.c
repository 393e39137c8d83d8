/* memory.c: what a map's CNF costs, estimated before anything large is
 * allocated, so that a map too large for the memory bound is refused with
 * a message instead of aborting inside a SAT library (PicoSAT aborts, and
 * CryptoMiniSat exits, when an allocation fails).
 *
 * The CNF is counted from the rules (clauses per cell, as if every cell had
 * every neighbour), not built.  Each backend's cost is a linear model in
 * variables, binary clauses, longer clauses and their literals; its
 * coefficients are upper bounds of peak RSS measured with /usr/bin/time -v
 * on coast (3 tiles, almost only binary clauses) and Circuit (40 tiles,
 * long support clauses) maps of 10^5 to 10^7 variables
 * (tools/bench-memory.sh prints the ratio estimate / peak RSS; README,
 * "Memory"). */
#include "sat/sat.h"

#include <math.h>

ts_cnf_size ts_cnf_measure(const tilesat_map *m) {
  const tilesat_rules *r = m->rules;
  double T = r->ntiles, cells = m->ncells;
  ts_cnf_size z = {0};
  /* one cell: at-least-one, then pairwise or the ladder */
  double clauses = 1, binary = T == 2, lits = T;
  if (T <= TS_PAIRWISE_MAX) {
    clauses += T * (T - 1) / 2;
    binary += T * (T - 1) / 2;
    lits += T * (T - 1);
  } else {
    clauses += 3 * (T - 2) + 3 + (T - 2);
    binary += 3 * (T - 2) + 3;
    lits += 2 * (3 * (T - 2) + 3) + 3 * (T - 2);
  }
  /* support clauses, one per direction and tile not supported by all */
  for (int d = 0; d < r->ndirs; d++)
    for (int t = 0; t < r->ntiles; t++) {
      const uint64_t *allowed = ts_allowed(r, t, d);
      int k = 0;
      for (int u = 0; u < r->ntiles; u++)
        k += ts_bit(allowed, u);
      if (k < r->ntiles) {
        clauses += 1;
        binary += k == 1;
        lits += k + 1;
      }
    }
  z.nvars = ts_encode_nvars(m);
  double units = (double)m->pins.n + (double)m->bans.n;
  z.nclauses = cells * clauses + units;
  z.nbinary = cells * binary;
  z.nlits = cells * lits + units;
  ts_globals_measure(m, &z);
  return z;
}

/* Bytes per variable, binary clause, longer clause, literal of a longer
 * clause, and a fixed part (the program and the library). */
static const struct cost {
  tilesat_backend b;
  double var, binary, clause, lit, base;
} costs[] = {
    {TILESAT_PICOSAT, 260, 40, 60, 12, 64e6},
    {TILESAT_CRYPTOMINISAT, 260, 40, 60, 12, 64e6},
    {TILESAT_CADICAL, 460, 70, 80, 12, 64e6},
};

double ts_solver_bytes(tilesat_backend b, ts_cnf_size z) {
  for (size_t i = 0; i < sizeof costs / sizeof *costs; i++)
    if (costs[i].b == b) {
      const struct cost *c = &costs[i];
      double nlong = z.nclauses - z.nbinary;
      double longlits = z.nlits - 2 * z.nbinary;
      return c->base + c->var * z.nvars + c->binary * z.nbinary +
             c->clause * nlong + c->lit * longlits;
    }
  ts_misuse(__func__, "not a backend");
}

/* A ts_cnf: literals and 0s (4 bytes), clause starts (8), groups (4), and
 * vectors that grow by doubling (up to twice that). */
double ts_cnf_bytes(ts_cnf_size z) {
  return 2 * (4 * (z.nlits + z.nclauses) + 12 * z.nclauses);
}

/* 512 MiB, 14.2 GiB, 1506000 GiB */
static void human(char *buf, size_t size, double bytes) {
  double gib = bytes / (1 << 30);
  if (bytes < 1 << 30)
    snprintf(buf, size, "%.0f MiB", bytes / (1 << 20));
  else if (gib < 1000)
    snprintf(buf, size, "%.3g GiB", gib);
  else
    snprintf(buf, size, "%.0f GiB", gib);
}

ts_need ts_need_linear(const tilesat_map *m, double need, double fixed) {
  return (ts_need){fixed, (need - fixed) / m->ncells, 0};
}

double ts_need_at(ts_need n, double width, double height) {
  return n.fixed + n.per_cell * width * height + n.per_width * width;
}

/* The largest side s of a square map with fixed + per_width * s +
 * per_cell * s^2 <= bound; 0 when not even 1x1 fits. */
static long largest_side(ts_need n, double bound) {
  double room = bound - n.fixed, s;
  if (n.per_cell > 0)
    s = (-n.per_width +
         sqrt(n.per_width * n.per_width + 4 * n.per_cell * room)) /
        (2 * n.per_cell);
  else
    s = n.per_width > 0 ? room / n.per_width : 0;
  if (!(s >= 1)) /* and NaN */
    return 0;
  return s > 1e9 ? 1000000000 : (long)s;
}

static int refuse_within(const tilesat_map *m, double need, ts_need fit,
                         double bound, const char *what, tilesat_error *err) {
  if (need <= bound)
    return 0;
  char n[32], b[32], largest[96];
  human(n, sizeof n, need);
  human(b, sizeof b, bound);
  long s = largest_side(fit, bound);
  if (s > 0)
    snprintf(largest, sizeof largest,
             "the largest square map that fits is about %ldx%ld", s, s);
  else
    snprintf(largest, sizeof largest, "not even a 1x1 map fits");
  ts_error(err, what, 0,
           "a %dx%d map of %d tiles needs about %s, more than --max-memory "
           "%s; %s",
           m->width, m->height, m->rules->ntiles, n, b, largest);
  return -1;
}

int ts_memory_refuse_within(const tilesat_map *m, double need, ts_need fit,
                            double bound, const char *what,
                            tilesat_error *err) {
  if (ts_map_refuse_large(m, what, err)) /* tables of cells times tiles */
    return -1;
  return refuse_within(m, need, fit, bound, what, err);
}

int ts_memory_refuse_large(const tilesat_map *m, double need, double fixed,
                           const char *what, tilesat_error *err) {
  return refuse_within(m, need, ts_need_linear(m, need, fixed),
                       (double)m->max_memory, what, err);
}

int ts_memory_refuse(const tilesat_map *m, double need, double fixed,
                     const char *what, tilesat_error *err) {
  return ts_memory_refuse_within(m, need, ts_need_linear(m, need, fixed),
                                 (double)m->max_memory, what, err);
}

int ts_memory_check(const tilesat_map *m, const tilesat_solve_options *so,
                    double extra, const char *what, tilesat_error *err) {
  tilesat_solve_options r = ts_solve_for(m, so);
  double base = ts_solver_bytes(r.backend, (ts_cnf_size){0});
  double need = ts_solver_bytes(r.backend, ts_cnf_measure(m)) + extra;
  return ts_memory_refuse(m, need, base, what, err);
}
