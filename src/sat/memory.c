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

static void human(char *buf, size_t size, double bytes) {
  if (bytes >= 1 << 30)
    snprintf(buf, size, "%.3g GiB", bytes / (1 << 30));
  else
    snprintf(buf, size, "%.0f MiB", bytes / (1 << 20));
}

int ts_memory_refuse(const tilesat_map *m, double need, const char *what,
                     tilesat_error *err) {
  if (need <= (double)m->max_memory)
    return 0;
  char n[32], b[32];
  human(n, sizeof n, need);
  human(b, sizeof b, (double)m->max_memory);
  ts_error(err, what, 0,
           "a %dx%d map of %d tiles needs about %s, more than --max-memory %s",
           m->width, m->height, m->rules->ntiles, n, b);
  return -1;
}

int ts_memory_check(const tilesat_map *m, const tilesat_solve_options *so,
                    double extra, const char *what, tilesat_error *err) {
  tilesat_solve_options r = ts_solve_for(m, so);
  double need = ts_solver_bytes(r.backend, ts_cnf_measure(m)) + extra;
  return ts_memory_refuse(m, need, what, err);
}
