/* bench.c: encode size and check time, phase by phase, both backends side
 * by side.  usage: bench RULES WxH [RULES WxH ...]
 * A developer tool: it reaches into the library's internals to time the
 * phases (encode, load, solve, read + verify) separately. */
#include "../src/internal.h"

#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench_one(const char *rules_path, const char *size) {
  tilesat_error err;
  int w, h;
  tilesat_rules *r = tilesat_rules_read_file(rules_path, &err);
  if (!r || tilesat_parse_size(size, &w, &h, &err)) {
    fprintf(stderr, "bench: %s\n", err.msg);
    tilesat_rules_free(r);
    return 1;
  }
  tilesat_map *m = tilesat_map_new(r, w, h, r->topo, false, &err);
  if (!m) {
    fprintf(stderr, "bench: %s\n", err.msg);
    tilesat_rules_free(r);
    return 1;
  }
  for (int b = 0; b < 2; b++) {
    double t0 = now();
    ts_cnf cnf;
    ts_encode(m, &cnf);
    double t1 = now();
    ts_solver *s = ts_solver_new((tilesat_backend)b);
    ts_solver_load(s, &cnf);
    double t2 = now();
    int res = ts_solver_solve(s);
    double t3 = now();
    int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
    bool ok = true;
    if (res == TILESAT_SAT) {
      for (int c = 0; c < m->ncells; c++)
        for (int t = 0; t < r->ntiles; t++)
          if (ts_solver_value(s, ts_var(m, c, t)))
            tiles[c] = t;
      ok = tilesat_map_verify(m, tiles, NULL, 0);
    }
    double t4 = now();
    printf("%-22s %-9s %2d tiles %-13s vars %9d clauses %9zu lits %10zu  "
           "encode %7.3fs load %7.3fs solve %7.3fs verify %6.3fs  total "
           "%7.3fs %s%s\n",
           rules_path, size, r->ntiles, tilesat_backend_name((tilesat_backend)b),
           cnf.nvars, cnf.start.n, cnf.lits.n - cnf.start.n, t1 - t0, t2 - t1,
           t3 - t2, t4 - t3, t4 - t0,
           res == TILESAT_SAT ? "SAT" : res == TILESAT_UNSAT ? "UNSAT" : "?",
           ok ? "" : " WITNESS INVALID");
    free(tiles);
    ts_solver_free(s);
    ts_cnf_free(&cnf);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return 0;
}

int main(int argc, char **argv) {
  int rc = 0;
  for (int i = 1; i + 1 < argc; i += 2)
    rc |= bench_one(argv[i], argv[i + 1]);
  return rc;
}
