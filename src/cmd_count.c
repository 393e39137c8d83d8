/* cmd_count.c: count and sample. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
  (void)sig;
  interrupted = 1;
}

/* Progress on stderr: first after a second, then at most once a second;
 * a change of method (notice) is always said, since it changes what the
 * output means. */
typedef struct progress {
  struct timespec start, last;
  bool printed;
} progress;

static double since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) +
         1e-9 * (double)(now.tv_nsec - t->tv_nsec);
}

static void notice(void *user, const char *line) {
  progress *p = user;
  fprintf(stderr, "tilesat: %s (%.0f s)\n", line, since(&p->start));
  clock_gettime(CLOCK_MONOTONIC, &p->last);
  p->printed = true;
}

static void report(void *user, const char *line) {
  progress *p = user;
  if (since(&p->start) >= 1 && (!p->printed || since(&p->last) >= 1))
    notice(user, line);
}

static bool parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  *out = strtod(s, &end);
  return *s && !*end && !errno && isfinite(*out);
}

/* "512M", "4G", "100000K" or bytes. */
static bool parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    return false;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10, end++;
  else if (*end == 'M' || *end == 'm')
    shift = 20, end++;
  else if (*end == 'G' || *end == 'g')
    shift = 30, end++;
  if (*end || errno || v == 0 || v > (SIZE_MAX >> shift))
    return false;
  *out = (size_t)v << shift;
  return true;
}

/* Shared by count and sample: the map, and the options in the library's
 * terms.  Returns 0 or EXIT_ERROR. */
static int setup(options *o, tilesat_rules **r, tilesat_map **m,
                 tilesat_count_options *co, progress *pr) {
  int rc = load_map(o, r, m);
  if (rc)
    return rc;
  tilesat_count_options_init(co);
  if (parse_backend(o, &co->backend))
    return EXIT_ERROR;
  if (o->method && tilesat_method_parse(o->method, &co->method)) {
    fail("--method: '%s' is not auto, dp, enum or approx", o->method);
    return EXIT_ERROR;
  }
  if (o->epsilon &&
      (!parse_double(o->epsilon, &co->epsilon) || co->epsilon <= 0)) {
    fail("--epsilon: '%s' is not a number above 0", o->epsilon);
    return EXIT_ERROR;
  }
  if (o->delta && (!parse_double(o->delta, &co->delta) || co->delta <= 0 ||
                   co->delta >= 1)) {
    fail("--delta: '%s' is not a number between 0 and 1", o->delta);
    return EXIT_ERROR;
  }
  if (o->backend && co->method != TILESAT_METHOD_ENUM) {
    fail("--backend goes with --method enum (approx always uses "
         "cryptominisat's XORs, dp no solver)");
    return EXIT_ERROR;
  }
  if ((o->epsilon || o->delta) && co->method != TILESAT_METHOD_APPROX &&
      co->method != TILESAT_METHOD_AUTO) {
    fail("--epsilon and --delta go with --method approx");
    return EXIT_ERROR;
  }
  long long seed = 1;
  if (o->seed && !parse_whole(o->seed, 0, LLONG_MAX, &seed)) {
    fail("--seed: '%s' is not a whole number", o->seed);
    return EXIT_ERROR;
  }
  co->seed = (uint64_t)seed;
  if (o->max_memory && !parse_size(o->max_memory, &co->max_memory)) {
    fail("--max-memory: '%s' is not a size such as 512M or 4G", o->max_memory);
    return EXIT_ERROR;
  }
  clock_gettime(CLOCK_MONOTONIC, &pr->start);
  co->progress = report;
  co->notice = notice;
  co->progress_user = pr;
  co->stop = &interrupted;
  signal(SIGINT, on_sigint);
  return 0;
}

int cmd_count(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  progress pr = {0};
  int rc = setup(o, &r, &m, &co, &pr);
  if (!rc) {
    tilesat_error err;
    tilesat_count_result res;
    if (tilesat_count(m, &co, &res, &err)) {
      rc = fail_err(&err);
    } else {
      if (res.approximate)
        printf("approx: %s (epsilon %g, delta %g)\n", res.count, co.epsilon,
               co.delta);
      else
        printf("%s\n", res.count);
      tilesat_count_result_free(&res);
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

int cmd_sample(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  progress pr = {0};
  int rc = setup(o, &r, &m, &co, &pr);
  long long n = 1;
  if (!rc && o->nsamples && !parse_whole(o->nsamples, 1, 1000000000, &n)) {
    fail("-n: '%s' is not a number of maps from 1 to 1000000000", o->nsamples);
    rc = EXIT_ERROR;
  }
  if (!rc && co.method == TILESAT_METHOD_ENUM) {
    fail("--method: sample takes auto, dp or approx");
    rc = EXIT_ERROR;
  }
  if (!rc && o->epsilon) {
    if (co.epsilon < 1.71) {
      fail("--epsilon: sampling needs a tolerance of at least 1.71, not %s",
           o->epsilon);
      rc = EXIT_ERROR;
    }
    co.tolerance = co.epsilon;
  }
  if (!rc) {
    tilesat_error err;
    map_sink sink = {m, sheet_new(o, m)};
    int got = tilesat_sample(m, &co, (int)n, map_sink_print, &sink, &err);
    if (got < 0) {
      rc = fail_err(&err);
    } else if (got == 0) {
      printf("UNSAT\n");
      rc = 20;
    } else {
      rc = 10;
    }
    if (sheet_end(sink.sheet))
      rc = EXIT_ERROR;
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
