/* bench.c: encode size and check time, phase by phase, every backend side
 * by side.  usage: bench LIMIT_SECONDS RULES WxH[:periodic] ...
 * A developer tool: it reaches into the library's internals to time the
 * phases (encode, load, solve, read + verify) separately, in wall and CPU
 * time.  A solve still running after LIMIT_SECONDS is stopped through the
 * terminate callback and reported as over the limit. */
#include "sat/sat.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_of(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static double now(void) { return clock_of(CLOCK_MONOTONIC); }
static double cpu(void) { return clock_of(CLOCK_PROCESS_CPUTIME_ID); }

static int past(void *user) { return now() >= *(double *)user; }

static const tilesat_backend backends[] = {TILESAT_PICOSAT,
                                           TILESAT_CRYPTOMINISAT,
                                           TILESAT_CADICAL};

static void bench_backend(const tilesat_map *m, tilesat_backend b,
                          double limit, const char *label) {
  double deadline, c0 = cpu(), t0 = now();
  ts_cnf cnf;
  ts_encode(m, &cnf);
  double t1 = now();
  deadline = t1 + limit;
  tilesat_solve_options so = {b, past, &deadline};
  ts_solver *s = ts_solver_new(m, &so);
  ts_solver_load(s, &cnf);
  double t2 = now();
  int res = ts_solver_solve(s);
  double t3 = now();
  bool ok = true;
  if (res == TILESAT_SAT) {
    int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
    ok = ts_read_map(m, s, tiles, NULL) == 0;
    free(tiles);
  }
  double t4 = now(), c4 = cpu();
  printf("%-26s %2d tiles %-13s vars %8d clauses %9zu  encode %6.3f "
         "load %6.3f solve %7.3f verify %6.3f  total %7.3fs cpu %7.3fs %s%s\n",
         label, m->rules->ntiles, tilesat_backend_name(b), cnf.nvars,
         cnf.start.n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, c4 - c0,
         res == TILESAT_SAT     ? "SAT"
         : res == TILESAT_UNSAT ? "UNSAT"
                                : "OVER THE LIMIT (stopped)",
         ok ? "" : " WITNESS INVALID");
  fflush(stdout);
  ts_solver_free(s);
  ts_cnf_free(&cnf);
}

static int bench_case(const char *rules_path, const char *spec, double limit) {
  tilesat_error err;
  char size[64];
  snprintf(size, sizeof size, "%s", spec);
  char *colon = strchr(size, ':');
  bool periodic = colon && !strcmp(colon + 1, "periodic");
  if (colon)
    *colon = 0;
  int w, h;
  tilesat_rules *r = tilesat_rules_read_file(rules_path, &err);
  tilesat_map *m = NULL;
  if (r && !tilesat_parse_size(size, &w, &h, &err))
    m = tilesat_map_new(r, w, h, r->topo, periodic, &err);
  if (!m) {
    fprintf(stderr, "bench: %s\n", err.msg);
    tilesat_rules_free(r);
    return 1;
  }
  const char *base = strrchr(rules_path, '/');
  char label[128];
  snprintf(label, sizeof label, "%s %s", base ? base + 1 : rules_path, spec);
  for (size_t i = 0; i < sizeof backends / sizeof *backends; i++)
    bench_backend(m, backends[i], limit, label);
  printf("%-26s auto: %s\n", label,
         tilesat_backend_name(tilesat_backend_choose(m, TILESAT_BACKEND_AUTO)));
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench LIMIT_SECONDS RULES WxH[:periodic] ...\n");
    return 1;
  }
  double limit = atof(argv[1]);
  int rc = 0;
  for (int i = 2; i + 1 < argc; i += 2)
    rc |= bench_case(argv[i], argv[i + 1], limit);
  return rc;
}
