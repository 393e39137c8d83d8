/* bench-count.c: counting side by side, timed in-process.
 *
 * usage: bench-count LIMIT_SECONDS RULES WxH [RULES WxH ...]
 *   dp vs enum vs approx.  Each method gets LIMIT_SECONDS (SIGALRM sets a
 *   flag the library's terminate callback reads); a method that runs out
 *   prints "-".  The last column is approx's reach: estimates made of those
 *   needed, and the XOR rows of the last one (its cost grows with the rows,
 *   about log2 of the count).
 *
 * usage: bench-count --sample LIMIT_SECONDS RULES WxH [RULES WxH ...]
 *   count --method dp vs sample --method dp (one map, and 100), each in a
 *   child process of its own: CPU time (user + system, the median of 3 runs
 *   when a run takes under 2 s) and peak resident memory (the child's
 *   ru_maxrss), and the ratios sample / count.
 *
 * usage: bench-count --states LIMIT_SECONDS RULES WxH[p] [RULES WxH[p] ...]
 *   count --method dp (p: periodic) on the plain key and on the seen key:
 *   the most states a layer held (from the dp's progress lines) and CPU
 *   seconds of each, and the count. */
#define _DEFAULT_SOURCE /* wait4: a child's own peak memory */
#include "tilesat.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_alarm(int sig) {
  (void)sig;
  stop = 1;
}

static int stopped(void *user) {
  (void)user;
  return stop;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* approx's last progress line: "approx: estimate I of T: C maps in a cell
 * of 2^-K". */
static char last_progress[160];
static void on_progress(void *user, const char *line) {
  (void)user;
  snprintf(last_progress, sizeof last_progress, "%s", line);
}

/* Time one method; fills out with the count (or "-") and returns seconds. */
static double run(const tilesat_map *m, tilesat_method method, unsigned limit,
                  char *out, size_t outlen) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = method;
  o.solve.backend = TILESAT_CRYPTOMINISAT;
  o.solve.terminate = stopped;
  o.progress = on_progress;
  last_progress[0] = 0;
  stop = 0;
  alarm(limit);
  double t0 = now();
  tilesat_count_result res;
  tilesat_error err;
  int rc = tilesat_count(m, &o, &res, &err);
  double t = now() - t0;
  alarm(0);
  if (rc) {
    snprintf(out, outlen, "- (%.80s)", stop ? "time limit" : err.msg);
  } else {
    size_t n = strlen(res.count);
    if (n > 14) /* long counts: leading digits and magnitude */
      snprintf(out, outlen, "%c.%.5se%zu", res.count[0], res.count + 1, n - 1);
    else
      snprintf(out, outlen, "%s", res.count);
    tilesat_count_result_free(&res);
  }
  return t;
}

static tilesat_map *open_case(const char *rules, const char *size,
                              tilesat_rules **r) {
  tilesat_error err;
  int w, h;
  *r = tilesat_rules_read_file(rules, &err);
  if (!*r || tilesat_parse_size(size, &w, &h, &err)) {
    fprintf(stderr, "bench-count: %s\n", err.msg);
    exit(1);
  }
  return tilesat_map_new(*r, w, h, tilesat_rules_topology(*r), false, &err);
}

static int methods(unsigned limit, int argc, char **argv) {
  printf("%-22s %-7s | %-22s %9s | %-22s %9s | %-22s %9s | %s\n", "rules",
         "size", "dp", "time", "enum", "time", "approx (0.8, 0.2)", "time",
         "estimates, rows");
  for (int i = 0; i + 1 < argc; i += 2) {
    tilesat_rules *r;
    tilesat_map *m = open_case(argv[i], argv[i + 1], &r);
    char c[3][96];
    double t[3];
    tilesat_method ms[3] = {TILESAT_METHOD_DP, TILESAT_METHOD_ENUM,
                            TILESAT_METHOD_APPROX};
    for (int k = 0; k < 3; k++)
      t[k] = run(m, ms[k], limit, c[k], sizeof c[k]);
    printf("%-22s %-7s |", argv[i], argv[i + 1]);
    for (int k = 0; k < 3; k++)
      printf(" %-22.22s %8.3fs |", c[k], t[k]);
    int est, of, rows;
    long cell;
    if (sscanf(last_progress,
               "approx: estimate %d of %d: %ld maps in a cell of 2^-%d", &est,
               &of, &cell, &rows) == 4)
      printf(" %d/%d, %d\n", est, of, rows);
    else
      printf(" 0\n");
    fflush(stdout);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}

/* ------------------------------------------------------- count vs sample */

/* One run in a child: count (nmaps 0) or sample nmaps maps with the dp.
 * Returns 0 with its CPU seconds and peak memory (MiB), or -1 (time limit,
 * memory bound, error). */
static int child_run(const tilesat_map *m, int nmaps, unsigned limit,
                     double *cpu, double *mib) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    o.solve.terminate = stopped;
    alarm(limit);
    tilesat_error err;
    int rc;
    if (nmaps) {
      rc = tilesat_sample(m, &o, nmaps, NULL, NULL, &err) == nmaps ? 0 : 1;
    } else {
      tilesat_count_result res;
      rc = tilesat_count(m, &o, &res, &err) ? 1 : 0;
      if (!rc)
        tilesat_count_result_free(&res);
    }
    _exit(rc);
  }
  int status;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
    return -1;
  *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
  *mib = (double)ru.ru_maxrss / 1024;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* ------------------------------------------------------ states a layer */

static size_t peak_states;
static void on_states(void *user, const char *line) {
  (void)user;
  int cell, of;
  size_t n;
  if (sscanf(line, "dp: cell %d of %d, %zu states", &cell, &of, &n) == 3 &&
      n > peak_states)
    peak_states = n;
}

static double cpu_now(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* One dp count of m on the plain or the seen key: its peak states and CPU
 * seconds, the count into out (or "-"). */
static void states_run(const tilesat_map *m, bool plain, unsigned limit,
                       size_t *peak, double *t, char *out, size_t outlen) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  o.dp_plain_key = plain;
  o.solve.terminate = stopped;
  o.progress = on_states;
  peak_states = 0;
  stop = 0;
  alarm(limit);
  double t0 = cpu_now();
  tilesat_count_result res;
  tilesat_error err;
  int rc = tilesat_count(m, &o, &res, &err);
  *t = cpu_now() - t0;
  alarm(0);
  *peak = peak_states;
  if (rc) {
    snprintf(out, outlen, "- (%.40s)", stop ? "time limit" : err.msg);
  } else {
    size_t n = strlen(res.count);
    if (n > 14)
      snprintf(out, outlen, "%c.%.5se%zu", res.count[0], res.count + 1, n - 1);
    else
      snprintf(out, outlen, "%s", res.count);
    tilesat_count_result_free(&res);
  }
}

static int states(unsigned limit, int argc, char **argv) {
  printf("%-18s %-6s | %11s %8s | %11s %8s | %5s | %s\n", "rules", "size",
         "plain peak", "CPU s", "seen peak", "CPU s", "ratio", "count");
  for (int i = 0; i + 1 < argc; i += 2) {
    tilesat_error err;
    int w, h;
    size_t len = strlen(argv[i + 1]);
    bool periodic = len && argv[i + 1][len - 1] == 'p';
    char size[32];
    snprintf(size, sizeof size, "%.*s", (int)(len - periodic), argv[i + 1]);
    tilesat_rules *r = tilesat_rules_read_file(argv[i], &err);
    if (!r || tilesat_parse_size(size, &w, &h, &err)) {
      fprintf(stderr, "bench-count: %s\n", err.msg);
      return 1;
    }
    tilesat_map *m =
        tilesat_map_new(r, w, h, tilesat_rules_topology(r), periodic, &err);
    const char *name =
        strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    size_t peak[2];
    double t[2];
    char c[2][64];
    for (int k = 0; k < 2; k++)
      states_run(m, k == 0, limit, &peak[k], &t[k], c[k], sizeof c[k]);
    printf("%-18.18s %-6s | %11zu %8.2f | %11zu %8.2f | %5.2f | %s%s%s\n", name,
           argv[i + 1], peak[0], t[0], peak[1], t[1],
           peak[1] ? (double)peak[0] / (double)peak[1] : 0.0, c[1],
           strcmp(c[0], c[1]) ? ", plain: " : "",
           strcmp(c[0], c[1]) ? c[0] : "");
    fflush(stdout);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median CPU time of 3 runs (1 when the first takes 2 s or more) and
 * the largest peak; -1 when a run failed. */
static int measure(const tilesat_map *m, int nmaps, unsigned limit,
                   double *cpu, double *mib) {
  double t[3], peak = 0;
  int runs = 0;
  for (; runs < 3; runs++) {
    double mb;
    if (child_run(m, nmaps, limit, &t[runs], &mb))
      return -1;
    peak = mb > peak ? mb : peak;
    if (t[0] >= 2)
      break;
  }
  runs = runs < 3 ? runs + 1 : 3;
  qsort(t, (size_t)runs, sizeof *t, cmp_double);
  *cpu = t[runs / 2];
  *mib = peak;
  return 0;
}

static int count_vs_sample(unsigned limit, int argc, char **argv) {
  printf("%-18s %-7s | %-17s | %-17s | %-12s | %s\n", "rules", "size",
         "count: CPU, peak", "sample: CPU, peak", "ratio: t, mem",
         "sample -n 100");
  for (int i = 0; i + 1 < argc; i += 2) {
    tilesat_rules *r;
    tilesat_map *m = open_case(argv[i], argv[i + 1], &r);
    const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1
                                             : argv[i];
    printf("%-18.18s %-7s |", name, argv[i + 1]);
    double t[3], mb[3];
    int ok[3];
    int nmaps[3] = {0, 1, 100};
    for (int k = 0; k < 3; k++) {
      ok[k] = !measure(m, nmaps[k], limit, &t[k], &mb[k]);
      if (ok[k])
        printf(" %7.3fs %5.0f MiB", t[k], mb[k]);
      else
        printf(" %17s", "-");
      if (k == 1 && ok[0] && ok[1])
        printf(" |  %4.2f  %4.2f", t[1] / (t[0] > 0.01 ? t[0] : 0.01),
               mb[1] / mb[0]);
      else if (k == 1)
        printf(" | %12s", "-");
      printf(k < 2 ? " |" : "\n");
      fflush(stdout);
    }
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  return 0;
}

int main(int argc, char **argv) {
  bool sample = argc > 1 && !strcmp(argv[1], "--sample");
  bool by_states = argc > 1 && !strcmp(argv[1], "--states");
  if (sample || by_states) {
    argc--;
    argv++;
  }
  if (argc < 4)
    return 1;
  unsigned limit = (unsigned)atoi(argv[1]);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* stays installed (signal() would be one-shot) */
  sigaction(SIGALRM, &sa, NULL);
  if (by_states)
    return states(limit, argc - 2, argv + 2);
  return sample ? count_vs_sample(limit, argc - 2, argv + 2)
                : methods(limit, argc - 2, argv + 2);
}
