/* bench-global.c: global constraints (issue 15), in-process: each map
 * checked without and with its constraints, side by side, CPU time
 * (median of RUNS runs), and for connected and path constraints what the
 * cuts took: solves, cut rounds, cuts.  Then the dp's exact counts
 * without and with count and connected constraints (the connectivity-
 * tracking frontier), side by side, CPU time, and the counts.  A run that
 * passes LIMIT seconds of wall time is stopped (SIGALRM sets a flag the
 * library's terminate callback reads) and shown as "> LIMIT s". usage:
 * bench-global LIMIT RUNS */
#include "tilesat.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

/* The kind of constraint a command-line shortcut adds. */
static tilesat_global_kind kind_of(const char *option) {
  return !strcmp(option, "--connected") ? TILESAT_GLOBAL_CONNECTED
         : !strcmp(option, "--path")    ? TILESAT_GLOBAL_PATH
         : !strcmp(option, "--border")  ? TILESAT_GLOBAL_BORDER
                                        : TILESAT_GLOBAL_COUNT;
}
static void on_alarm(int sig) {
  (void)sig;
  stop = 1;
}

static int stopped(void *user) {
  (void)user;
  return stop;
}

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A case: rules, size, pins (how they are made), the constraints. */
typedef struct bcase {
  const char *name, *rules;
  int n;              /* NxN */
  int pins;           /* 0 none, 1 floor in three corners and the middle,
                         2 that and walls across with a gap each */
  const char *what;   /* the constraints, in words */
  const char *file;   /* a constraints file, or NULL */
  const char *opt[2]; /* option, value (or NULL) */
} bcase;

static void pin(tilesat_map *m, int r, int c, const char *t) {
  char spec[64];
  tilesat_error err;
  snprintf(spec, sizeof spec, "%d,%d=%s", r, c, t);
  if (tilesat_map_pin_spec(m, spec, &err)) {
    fprintf(stderr, "bench-global: %s\n", err.msg);
    exit(1);
  }
}

/* Floor in three corners and the middle; with walls, rows of wall across
 * every N/4 rows, each with one gap, at alternate ends: the floor must
 * wind through them. */
static void make_pins(tilesat_map *m, const bcase *b) {
  int n = b->n;
  if (b->pins == 0)
    return;
  pin(m, 0, 0, ".");
  pin(m, n - 1, n - 1, ".");
  pin(m, 0, n - 1, ".");
  pin(m, n / 2 + 1, n / 2, ".");
  for (int k = 1; b->pins == 2 && k < 4; k++) {
    int row = k * n / 4, gap = k % 2 ? n - 3 : 2;
    for (int c = 0; c < n; c++)
      if (c != gap)
        pin(m, row, c, "#");
  }
}

static tilesat_map *build(const bcase *b, const tilesat_rules *r,
                          bool constrained) {
  tilesat_error err;
  tilesat_map *m =
      tilesat_map_new(r, b->n, b->n, tilesat_rules_topology(r), false, &err);
  if (!m) {
    fprintf(stderr, "bench-global: %s\n", err.msg);
    exit(1);
  }
  make_pins(m, b);
  if (constrained &&
      ((b->file && tilesat_map_constraints_read_file(m, b->file, &err)) ||
       (b->opt[0] && tilesat_map_constraint_add(m, kind_of(b->opt[0]),
                                                b->opt[1], b->opt[0], &err)))) {
    fprintf(stderr, "bench-global: %s\n", err.msg);
    exit(1);
  }
  return m;
}

/* The median CPU seconds of `runs` checks (stats of the last), or -1 past
 * the limit. */
static double timed(const tilesat_map *m, tilesat_backend be, int runs,
                    unsigned limit, tilesat_solve_stats *stats) {
  double t[16];
  int k = 0;
  for (; k < runs && k < 16; k++) {
    tilesat_solve_stats st = {0};
    tilesat_solve_options so = {
        .backend = be, .terminate = stopped, .stats = &st};
    tilesat_error err;
    stop = 0;
    alarm(limit);
    double t0 = cpu();
    int res = tilesat_check(m, &so, NULL, &err);
    t[k] = cpu() - t0;
    alarm(0);
    *stats = st;
    if (res != TILESAT_SAT) {
      if (!stop)
        fprintf(stderr, "bench-global: %s\n",
                res < 0 ? err.msg : "no map (UNSAT)");
      return -1;
    }
  }
  qsort(t, (size_t)k, sizeof *t, cmp_double);
  return t[k / 2];
}

static void cell(double t, unsigned limit) {
  if (t < 0)
    printf(" > %u s |", limit);
  else
    printf(" %.2f s |", t);
}

/* A dp case: a WxH map counted without and with its constraints. */
typedef struct dcase {
  const char *rules;
  int w, h;
  const char *what, *file, *opt[2];
} dcase;

/* The median CPU seconds of `runs` dp counts (the count in *count,
 * malloc'd), or -1 past the limit. */
static double dp_timed(const tilesat_map *m, int runs, unsigned limit,
                       char **count) {
  double t[16];
  int k = 0;
  *count = NULL;
  for (; k < runs && k < 16; k++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    o.solve.terminate = stopped;
    tilesat_count_result res;
    tilesat_error err;
    stop = 0;
    alarm(limit);
    double t0 = cpu();
    int rc = tilesat_count(m, &o, &res, &err);
    t[k] = cpu() - t0;
    alarm(0);
    if (rc) {
      if (!stop)
        fprintf(stderr, "bench-global: %s\n", err.msg);
      return -1;
    }
    free(*count);
    *count = strdup(res.count);
    tilesat_count_result_free(&res);
  }
  qsort(t, (size_t)k, sizeof *t, cmp_double);
  return t[k / 2];
}

static void dp_table(unsigned limit, int runs) {
  static const char *D = "rules/dungeon8.rules",
                    *F = "rules/dungeon8.constraints";
  const dcase cases[] = {
      {D, 8, 8, "floor connected", F, {0}},
      {D, 8, 12, "floor connected", F, {0}},
      {D, 8, 16, "floor connected", F, {0}},
      {D, 8, 8, "at most 4 T", NULL, {"--count", "T<=4"}},
      {"rules/entropy7.rules",
       7,
       7,
       "7 of each colour",
       "rules/entropy7.constraints",
       {0}},
  };
  printf("\n| map | constraints | dp unconstrained | dp constrained | "
         "maps | constrained maps |\n");
  printf("| --- | --- | --- | --- | --- | --- |\n");
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const dcase *b = &cases[i];
    tilesat_error err;
    tilesat_rules *r = tilesat_rules_read_file(b->rules, &err);
    tilesat_map *plain =
        r ? tilesat_map_new(r, b->w, b->h, tilesat_rules_topology(r), false,
                            &err)
          : NULL;
    tilesat_map *m =
        plain ? tilesat_map_new(r, b->w, b->h, tilesat_rules_topology(r), false,
                                &err)
              : NULL;
    if (!m ||
        (b->file && tilesat_map_constraints_read_file(m, b->file, &err)) ||
        (b->opt[0] && tilesat_map_constraint_add(m, kind_of(b->opt[0]),
                                                 b->opt[1], b->opt[0], &err))) {
      fprintf(stderr, "bench-global: %s\n", err.msg);
      exit(1);
    }
    char *n0, *n1;
    double t0 = dp_timed(plain, runs, limit, &n0);
    double t1 = dp_timed(m, runs, limit, &n1);
    printf("| %s %dx%d | %s |", b->rules + 6, b->w, b->h, b->what);
    cell(t0, limit);
    cell(t1, limit);
    printf(" %s | %s |\n", n0 ? n0 : "-", n1 ? n1 : "-");
    fflush(stdout);
    free(n0);
    free(n1);
    tilesat_map_free(plain);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 1;
  unsigned limit = (unsigned)atoi(argv[1]);
  int runs = atoi(argv[2]);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  if (argc > 3 && !strcmp(argv[3], "dp")) { /* the dp's table alone */
    dp_table(limit, runs);
    return 0;
  }
  static const char *D = "rules/dungeon8.rules",
                    *F = "rules/dungeon8.constraints";
  const bcase cases[] = {
      {"dungeon8 64x64, 4 floor pins", D, 64, 1, "floor connected", F, {0}},
      {"dungeon8 128x128, 4 floor pins", D, 128, 1, "floor connected", F, {0}},
      {"dungeon8 256x256, 4 floor pins", D, 256, 1, "floor connected", F, {0}},
      {"dungeon8 64x64, 3 walls with a gap",
       D,
       64,
       2,
       "floor connected",
       F,
       {0}},
      {"dungeon8 256x256, 3 walls with a gap",
       D,
       256,
       2,
       "floor connected",
       F,
       {0}},
      {"dungeon8 128x128, 4 floor pins",
       D,
       128,
       1,
       "path (0,0) to (127,127) of floor",
       NULL,
       {"--path", "0,0:127,127=.,+,,,="}},
      {"dungeon8 128x128",
       D,
       128,
       0,
       "exactly 64 T",
       NULL,
       {"--count", "T=64"}},
      {"dungeon8 128x128",
       D,
       128,
       0,
       "at least 64 +",
       NULL,
       {"--count", "+>=64"}},
      {"dungeon8 128x128",
       D,
       128,
       0,
       "at least 500 T",
       NULL,
       {"--count", "T>=500"}},
      {"entropy7 7x7",
       "rules/entropy7.rules",
       7,
       0,
       "7 of each colour",
       "rules/entropy7.constraints",
       {0}},
  };
  const tilesat_backend bes[] = {TILESAT_CADICAL, TILESAT_PICOSAT,
                                 TILESAT_CRYPTOMINISAT};
  printf("| map | constraints | backend | unconstrained | constrained | "
         "solves | cut rounds | cuts |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bcase *b = &cases[i];
    tilesat_error err;
    tilesat_rules *r = tilesat_rules_read_file(b->rules, &err);
    if (!r) {
      fprintf(stderr, "bench-global: %s\n", err.msg);
      return 1;
    }
    tilesat_map *plain = build(b, r, false), *m = build(b, r, true);
    for (size_t k = 0; k < 3; k++) {
      /* CryptoMiniSat only where it finishes at all */
      if (k == 2 && b->n > 64)
        continue;
      tilesat_solve_stats st = {0}, ignored;
      int nr = b->n > 128 ? 1 : runs;
      double t0 = timed(plain, bes[k], nr, limit, &ignored);
      double t1 = timed(m, bes[k], nr, limit, &st);
      printf("| %s | %s | %s |", b->name, b->what,
             tilesat_backend_name(bes[k]));
      cell(t0, limit);
      cell(t1, limit);
      printf(" %ld | %ld | %ld |\n", st.solves, st.cut_rounds, st.cuts);
      fflush(stdout);
    }
    tilesat_map_free(plain);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  dp_table(limit, runs);
  return 0;
}
