/* bench-count.c: dp vs enum vs approx, side by side, timed in-process.
 * usage: bench-count LIMIT_SECONDS RULES WxH [RULES WxH ...]
 * Each method gets LIMIT_SECONDS (SIGALRM sets a flag the library's
 * terminate callback reads);
 * a method that runs out prints "-".  The last column is approx's reach:
 * estimates made of those needed, and the XOR rows of the last one (its
 * cost grows with the rows, about log2 of the count). */
#include "tilesat.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv) {
  if (argc < 4)
    return 1;
  unsigned limit = (unsigned)atoi(argv[1]);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* stays installed (signal() would be one-shot) */
  sigaction(SIGALRM, &sa, NULL);
  printf("%-22s %-7s | %-22s %9s | %-22s %9s | %-22s %9s | %s\n", "rules",
         "size", "dp", "time", "enum", "time", "approx (0.8, 0.2)", "time",
         "estimates, rows");
  for (int i = 2; i + 1 < argc; i += 2) {
    tilesat_error err;
    int w, h;
    tilesat_rules *r = tilesat_rules_read_file(argv[i], &err);
    if (!r || tilesat_parse_size(argv[i + 1], &w, &h, &err)) {
      fprintf(stderr, "bench-count: %s\n", err.msg);
      return 1;
    }
    tilesat_map *m =
        tilesat_map_new(r, w, h, tilesat_rules_topology(r), false, &err);
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
