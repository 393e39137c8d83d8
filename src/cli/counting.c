/* counting.c: what count and sample share: the count options in the
 * library's terms and progress on stderr; and --part K/N (count, enum). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Progress: first after a second, then at most once a second; a change of
 * method (notice) is always said, since it changes what the output
 * means.  TILESAT_PROGRESS=all in the environment: every line, at once
 * (for a log, and for tests that must not wait a second). */
static double since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) +
         1e-9 * (double)(now.tv_nsec - t->tv_nsec);
}

void progress_notice(void *user, const char *line) {
  count_progress *p = user;
  fprintf(stderr, "tilesat: %s%s%s (%.0f s)\n", p->command ? p->command : "",
          p->command ? ": " : "", line, since(&p->start));
  clock_gettime(CLOCK_MONOTONIC, &p->last);
  p->printed = true;
}

static bool every_line(void) {
  static int every = -1;
  if (every < 0) {
    const char *v = getenv("TILESAT_PROGRESS");
    every = v && !strcmp(v, "all");
  }
  return every;
}

void progress_report(void *user, const char *line) {
  count_progress *p = user;
  if (every_line() ||
      (since(&p->start) >= 1 && (!p->printed || since(&p->last) >= 1)))
    progress_notice(user, line);
}

/* "12 s", "4 min", "2.5 h" */
static void duration(char *buf, size_t size, double s) {
  if (s < 90)
    snprintf(buf, size, "%.0f s", s);
  else if (s < 90 * 60)
    snprintf(buf, size, "%.0f min", s / 60);
  else
    snprintf(buf, size, "%.1f h", s / 3600);
}

void runs_line(char *buf, size_t size, const char *what, long k, long n,
               double per) {
  char left[32] = "";
  if (per >= 0)
    duration(left, sizeof left, per * (double)(n - k + 1));
  snprintf(buf, size, "%s %ld of %ld%s%s%s", what, k, n,
           *left ? ", about " : "", left, *left ? " left" : "");
}

void progress_runs(void *user, const char *what, long k, long n,
                   double started) {
  char line[256];
  runs_line(line, sizeof line, what, k, n,
            k > 1 ? (mono_seconds() - started) / (double)(k - 1) : -1);
  progress_report(user, line);
}

void progress_start(count_progress *p, const char *prefix) {
  clock_gettime(CLOCK_MONOTONIC, &p->start);
  p->printed = false;
  p->command = prefix;
}

/* --block, --burn-in, --sweeps, --threads: the chain's, so only with it
 * (or auto, which may fall back to it). */
static int chain_options(const options *o, tilesat_count_options *co) {
  if ((GIVEN(o, block) || GIVEN(o, burn_in) || GIVEN(o, sweeps) ||
       GIVEN(o, threads)) &&
      co->method != TILESAT_METHOD_CHAIN && co->method != TILESAT_METHOD_AUTO) {
    fail("--block, --burn-in, --sweeps and --threads go with --method chain");
    return -1;
  }
  if (GIVEN(o, block)) {
    co->block_width = o->block.w;
    co->block_height = o->block.h;
  }
  if (GIVEN(o, burn_in))
    co->burn_in = (long)o->burn_in;
  if (GIVEN(o, sweeps))
    co->sweeps = (long)o->sweeps;
  if (GIVEN(o, threads))
    co->threads = (int)o->threads;
  return 0;
}

int counting_setup(options *o, tilesat_rules **r, tilesat_map **m,
                   tilesat_count_options *co, count_progress *pr) {
  int rc = load_map(o, r, m);
  if (rc)
    return rc;
  tilesat_count_options_init(co);
  if (parse_backend(o, &co->solve))
    return EXIT_ERROR;
  lazy_backend(o, *m, &co->solve);
  if (o->method) /* one of the table's choices */
    tilesat_method_parse(o->method, &co->method);
  if (GIVEN(o, epsilon))
    co->epsilon = o->epsilon;
  if (GIVEN(o, delta))
    co->delta = o->delta;
  if (o->backend && co->method != TILESAT_METHOD_ENUM) {
    fail("--backend goes with --method enum (approx always uses "
         "cryptominisat's XORs, dp no solver)");
    return EXIT_ERROR;
  }
  if ((GIVEN(o, epsilon) || GIVEN(o, delta)) &&
      co->method != TILESAT_METHOD_APPROX &&
      co->method != TILESAT_METHOD_AUTO) {
    fail("--epsilon and --delta go with --method approx");
    return EXIT_ERROR;
  }
  if (GIVEN(o, strip_width) && co->method != TILESAT_METHOD_BOUNDS &&
      co->method != TILESAT_METHOD_AUTO) {
    fail("--strip-width goes with --method bounds");
    return EXIT_ERROR;
  }
  co->bounds_width = (int)o->strip_width;
  co->seed = o->seed;
  if (GIVEN(o, particles))
    co->particles = (int)o->particles;
  if (GIVEN(o, replicates))
    co->replicates = (int)o->replicates;
  if (chain_options(o, co))
    return EXIT_ERROR;
  if (GIVEN(o, max_memory)) {
    co->max_memory = o->max_memory;
    /* the dp takes the smaller of its bound and the map's (by default half
     * of physical memory): a larger bound given here raises the map's too */
    if (o->max_memory > map_info(*m).max_memory)
      tilesat_map_set_max_memory(*m, o->max_memory);
  }
  progress_start(pr, NULL);
  co->progress = progress_report;
  co->notice = progress_notice;
  co->progress_user = pr;
  /* the solvers' lines (enum, approx) through the same clock */
  co->solve.progress = progress_report;
  co->solve.progress_user = pr;
  return 0;
}

int parse_part(const options *o, int *k, int *n) {
  const char *s = o->part, *slash = strchr(s, '/');
  size_t a = strspn(s, "0123456789");
  char *end;
  long K = strtol(s, &end, 10), N = slash ? strtol(slash + 1, &end, 10) : 0;
  if (a == 0 || s + a != slash || strspn(slash + 1, "0123456789") == 0 ||
      *end || a > 7 || strlen(slash + 1) > 7 || K < 1 || K > N ||
      N > TILESAT_MAX_PARTS) {
    fail("--part: '%s' is not K/N with 1 <= K <= N <= %d", s,
         TILESAT_MAX_PARTS);
    return EXIT_ERROR;
  }
  *k = (int)K;
  *n = (int)N;
  return 0;
}

unsigned long part_check(int k, int n, const char *id, const char *count) {
  char head[96];
  int len = snprintf(head, sizeof head, "part %d/%d of problem %s\n", k, n, id);
  uLong c = crc32(0L, Z_NULL, 0);
  c = crc32(c, (const Bytef *)head, (uInt)len);
  return crc32(c, (const Bytef *)count, (uInt)strlen(count));
}
