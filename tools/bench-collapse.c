/* bench-collapse.c: one cell of tools/bench-collapse.sh's table, timed
 * in-process, in CPU time of this thread (the machine may be shared; the
 * library runs on one thread; under a CPU limit, ulimit -t, Linux samples
 * the process clock at ticks of a few ms, not this one).
 *
 *   bench-collapse MODE RULES WxH[:periodic] RUNS BUDGET MAX_MEMORY BACKEND
 *
 * MODE is plain (collapse), guard (collapse --guard sat), blocks or auto
 * (collapse --guard blocks|auto), check or anneal
 * (the command's defaults: 1000 sweeps, SAT clean-up).  Runs seeds 1..RUNS
 * (check: once), and stops starting runs once BUDGET CPU seconds are
 * spent; prints one line per run as it ends, so that the script can cap a
 * cell with timeout and still read the runs that finished:
 *   ok SECONDS [BANNED REPAIRS RESOLVED]   a valid map (guarded: its banned
 *                         choices, block repairs and cells re-solved)
 *   fail SECONDS          plain: a contradiction; anneal: violations left
 *   unsat SECONDS         no valid map exists
 *   error MESSAGE         e.g. the memory bound: "... needs about 3 GiB ..."
 * and last "peak KB": the process's peak resident memory (every run's).
 * SECONDS is the run alone: the collapser's tables (built once, reused by
 * every run) and loading the rules are not in it; the guard's solver is
 * made at the first guarded run, so it is in that run's time.  Uses only
 * the public header. */
#include "tilesat.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void say(const char *what, double t, long extra) {
  if (extra >= 0)
    printf("%s %.6f %ld\n", what, t, extra);
  else
    printf("%s %.6f\n", what, t);
  fflush(stdout);
}

static int error(const tilesat_error *err) {
  printf("error %s\n", err->msg);
  return 1;
}

static int collapse(const tilesat_map *m, tilesat_guard guard, long runs,
                    double budget,
                    tilesat_backend backend) {
  tilesat_error err;
  /* modify: as collapse --guard modify, no table of the map's cells */
  tilesat_collapse *c = guard == TILESAT_GUARD_MODIFY
                            ? tilesat_collapse_new_modify(m, &err)
                            : tilesat_collapse_new(m, &err);
  if (!c)
    return error(&err);
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  size_t n = (size_t)mi.width * (size_t)mi.height;
  int *tiles = malloc(n * sizeof *tiles);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = guard;
  o.solve.backend = backend;
  double spent = 0;
  int rc = 0;
  for (long i = 0; i < runs && spent < budget && !rc; i++) {
    o.seed = (uint64_t)i + 1;
    double t0 = cpu();
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    double t = cpu() - t0;
    spent += t;
    const char *what = res == TILESAT_SAT     ? "ok"
                       : res == TILESAT_UNSAT ? "unsat"
                                              : "fail";
    if (res < 0)
      rc = error(&err);
    else if (guard) {
      tilesat_collapse_info ci;
      tilesat_collapse_get(c, &ci);
      printf("%s %.6f %ld %ld %ld\n", what, t, ci.banned, ci.repairs,
             ci.resolved);
      fflush(stdout);
    } else
      say(what, t, -1);
  }
  free(tiles);
  tilesat_collapse_free(c);
  return rc;
}

static int check(const tilesat_map *m, tilesat_backend backend) {
  tilesat_solve_options so = {backend, NULL, NULL, NULL, NULL};
  tilesat_error err;
  double t0 = cpu();
  int res = tilesat_check(m, &so, NULL, &err);
  double t = cpu() - t0;
  if (res < 0)
    return error(&err);
  say(res == TILESAT_SAT ? "ok" : "unsat", t, -1);
  return 0;
}

static int anneal(const tilesat_map *m, long runs, double budget,
                  tilesat_backend backend) {
  tilesat_error err;
  tilesat_energy *e = tilesat_energy_new(m);
  if (tilesat_energy_prepare(e, &err)) {
    tilesat_energy_free(e);
    return error(&err);
  }
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  size_t n = (size_t)mi.width * (size_t)mi.height;
  int *tiles = malloc(n * sizeof *tiles);
  tilesat_anneal_opts o;
  tilesat_anneal_defaults(&o);
  o.solve.backend = backend;
  double spent = 0;
  int rc = 0;
  for (long i = 0; i < runs && spent < budget && !rc; i++) {
    o.seed = (uint64_t)i + 1;
    tilesat_anneal_stats st;
    double t0 = cpu();
    int res = tilesat_anneal(e, &o, tiles, &st, &err);
    double t = cpu() - t0;
    spent += t;
    if (res < 0)
      rc = error(&err);
    else
      say(st.violations == 0                  ? "ok"
          : st.cleanup_result == TILESAT_UNSAT ? "unsat"
                                              : "fail",
          t, -1);
  }
  free(tiles);
  tilesat_energy_free(e);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: bench-collapse plain|guard|blocks|auto|check|"
                    "anneal RULES "
                    "WxH[:periodic] RUNS BUDGET MAX_MEMORY BACKEND\n");
    return 1;
  }
  const char *mode = argv[1];
  char size[64];
  snprintf(size, sizeof size, "%s", argv[3]);
  char *colon = strchr(size, ':');
  bool periodic = colon && !strcmp(colon + 1, "periodic");
  if (colon)
    *colon = 0;
  long runs = atol(argv[4]);
  double budget = atof(argv[5]);
  size_t max_memory = (size_t)strtoull(argv[6], NULL, 10) << 20; /* MiB */
  tilesat_backend backend;
  tilesat_error err;
  int w, h;
  tilesat_rules *r = tilesat_rules_read_file(argv[2], &err);
  tilesat_map *m = NULL;
  if (r && !tilesat_parse_size(size, &w, &h, &err))
    m = tilesat_map_new(r, w, h, tilesat_rules_topology(r), periodic, &err);
  if (!m || tilesat_backend_parse(argv[7], &backend)) {
    fprintf(stderr, "bench-collapse: %s\n", m ? "unknown backend" : err.msg);
    tilesat_rules_free(r);
    return 1;
  }
  tilesat_map_set_max_memory(m, max_memory);
  tilesat_guard g = TILESAT_GUARD_NONE;
  bool guarded = !strcmp(mode, "guard") ? (g = TILESAT_GUARD_SAT, true)
                 : !strcmp(mode, "plain") ? true
                                          : !tilesat_guard_parse(mode, &g);
  int rc = guarded                    ? collapse(m, g, runs, budget, backend)
           : !strcmp(mode, "check")  ? check(m, backend)
           : !strcmp(mode, "anneal") ? anneal(m, runs, budget, backend)
                                     : 1;
  tilesat_map_free(m);
  tilesat_rules_free(r);
  struct rusage ru;
  if (!getrusage(RUSAGE_SELF, &ru))
    printf("peak %ld\n", ru.ru_maxrss);
  return rc;
}
