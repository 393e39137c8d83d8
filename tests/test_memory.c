/* Memory: a map too large for --max-memory is refused up front with the
 * memory it would need (never an abort inside a SAT library), the estimate
 * is an upper bound of the real peak, and the strips that fill a large map
 * a band of rows at a time agree with the whole solve. */
#include "helpers.h"
#include "sat/sat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define RUN_ARGS(args) run_cli((const char *const *)(args))

/* Under AddressSanitizer (make test's second run) the binary's resident
 * memory includes the sanitizer's shadow: peaks are compared only in the
 * plain build. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Is the tilesat run here an ASan build (make test builds the tests'
 * own code without the sanitizers: TILESAT_BIN says)? */
static bool asan_cli(void) {
  const char *bin = getenv("TILESAT_BIN");
  return SANITIZED || (bin && strstr(bin, "asan"));
}

/* What a refusal says: "tilesat: WHAT: a SIZE map of T tiles needs about
 * N UNIT, more than --max-memory BOUND; the largest square map that fits
 * is about SxS" (S 0: "not even a 1x1 map fits"). */
typedef struct refusal {
  double need, bound; /* bytes, as said (3 digits) */
  int side;
  bool ok; /* the line had that form */
} refusal;

/* "512 MiB", "1.39 GiB" -> bytes; *end after it. */
static double said_bytes(const char *s, const char **end) {
  char *e;
  double n = strtod(s, &e);
  double unit = !strncmp(e, " GiB", 4)   ? 1 << 30
                : !strncmp(e, " MiB", 4) ? 1 << 20
                                         : -1;
  *end = e + 4;
  return unit > 0 ? n * unit : -1;
}

/* The refusal on the last line of `err` (earlier lines: progress). */
static refusal parse_refusal(const char *err, const char *what,
                             const char *size, int ntiles) {
  refusal f = {0};
  const char *line = err;
  for (const char *p = err; *p; p++)
    if (*p == '\n' && p[1])
      line = p + 1;
  char head[256];
  snprintf(head, sizeof head, "tilesat: %s: a %s map of %d tiles needs about ",
           what, size, ntiles);
  if (strncmp(line, head, strlen(head)))
    return f;
  const char *p = line + strlen(head);
  f.need = said_bytes(p, &p);
  const char *more = ", more than --max-memory ";
  if (f.need < 0 || strncmp(p, more, strlen(more)))
    return f;
  f.bound = said_bytes(p + strlen(more), &p);
  int end = -1;
  if (!strcmp(p, "; not even a 1x1 map fits\n"))
    f.ok = f.bound >= 0;
  else if (sscanf(p, "; the largest square map that fits is about %dx%*d%n",
                  &f.side, &end) == 1 &&
           end > 0 && !strcmp(p + end, "\n")) {
    char sq[64];
    snprintf(sq, sizeof sq, "%dx%d\n", f.side, f.side);
    f.ok = f.bound >= 0 && f.side > 0 && strstr(p, sq);
  }
  return f;
}

/* exit 1, nothing on stdout, and exactly a refusal "tilesat: WHAT: a SIZE
 * map of TILES tiles needs about N GiB, more than --max-memory BOUND; the
 * largest square map that fits is about SxS" (N and S are the estimate's,
 * not fixed here: expect_largest checks S). */
static refusal expect_refused(run_result *r, const char *what, const char *size,
                              int ntiles, const char *bound) {
  refusal f = parse_refusal(r->err, what, size, ntiles);
  cr_expect_eq(r->code, 1, "exit %d: %s", r->code, r->err);
  cr_expect_str_eq(r->out, "");
  cr_expect(f.ok, "%s", r->err);
  char b[64];
  snprintf(b, sizeof b, "more than --max-memory %s; ", bound);
  cr_expect(strstr(r->err, b), "%s", r->err);
  cr_expect(f.need > f.bound, "%s", r->err);
  return f;
}

/* The side S a refusal names is right: the same command on an SxS map is
 * not refused (it starts: stopped by Ctrl-C after a moment, if it has not
 * finished), and on a map a tenth larger it is.  args: its size
 * argument is args[at]. */
static void expect_largest(const char **args, int at, int side,
                           const char *what) {
  char sq[32];
  snprintf(sq, sizeof sq, "%dx%d", side, side);
  args[at] = sq;
  run_result r = run_cli_interrupted(args, 300);
  cr_expect(!strstr(r.err, "needs about"), "%s at %s: %s", what, sq, r.err);
  cr_expect(r.code < 128, "%s at %s: signal %d", what, sq, r.code - 128);
  run_free(&r);
  int more = side + side / 10 + 1;
  snprintf(sq, sizeof sq, "%dx%d", more, more);
  r = RUN_ARGS(args);
  cr_expect_eq(r.code, 1, "%s at %s: %s", what, sq, r.err);
  cr_expect(strstr(r.err, "needs about"), "%s at %s: %s", what, sq, r.err);
  run_free(&r);
}

/* The cases of the issue: each aborted in PicoSAT (134) or CryptoMiniSat
 * (255), or passed the size check and aborted. */
Test(memory, check_refuses_what_does_not_fit) {
  for (int i = 0; i < NBACKENDS; i++) {
    const char *b = tilesat_backend_name(backends[i]);
    run_result r = RUN("check", "rules/coast.rules", "--size", "3000x3000",
                       "--max-memory", "64M", "--backend", b);
    expect_refused(&r, "check", "3000x3000", 3, "64 MiB");
    run_free(&r);
    r = RUN("check", "rules/dungeon8.rules", "--size", "1000x1000",
            "--max-memory", "256M", "--backend", b);
    expect_refused(&r, "check", "1000x1000", 9, "256 MiB");
    run_free(&r);
  }
  char *two = temp_file("tilesat-rules 1\ntopology square\ntile a 1\n"
                        "tile b 1\nallow a N b\nallow a E b\nallow a S b\n"
                        "allow a W b\nallow b N a\nallow b E a\n"
                        "allow b S a\nallow b W a\n",
                        -1);
  run_result r =
      RUN("check", two, "--size", "10000x10000", "--max-memory", "100M");
  refusal f = expect_refused(&r, "check", "10000x10000", 2, "100 MiB");
  run_free(&r);
  /* in strips: a band of 48 rows as wide as the map */
  const char *args[] = {"check",        two,    "--size", NULL,
                        "--max-memory", "100M", NULL};
  expect_largest(args, 3, f.side, "check");
  /* periodic, no strips; the CNF's (auto takes the collapse where its
   * tables fit, 600x600 here) */
  r = RUN("check", two, "--size", "600x600", "--periodic", "--max-memory",
          "100M", "--method", "cnf");
  f = expect_refused(&r, "check", "600x600", 2, "100 MiB");
  run_free(&r);
  const char *whole[] = {
      "check",        two,    "--size",   NULL,  "--periodic",
      "--max-memory", "100M", "--method", "cnf", NULL};
  expect_largest(whole, 3, f.side, "check --periodic");
  remove(two);
  free(two);
}

/* Every command that solves the whole map takes the same bound. */
Test(memory, every_command_takes_the_bound) {
  run_result r = RUN("enum", "rules/coast.rules", "--size", "3000x3000",
                     "--max-memory", "64M");
  expect_refused(&r, "enumerate", "3000x3000", 3, "64 MiB");
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "3000x3000", "--max-memory",
          "64M");
  expect_refused(&r, "explain", "3000x3000", 3, "64 MiB");
  run_free(&r);
}

/* count and sample: --max-memory is the dp's bound (auto falls back from
 * it); approx is bounded by the map's. */
Test(memory, approx_takes_the_maps_bound) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 3000, 3000, TILESAT_SQUARE, false);
  tilesat_map_set_max_memory(m, (size_t)64 << 20);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_APPROX;
  tilesat_count_result res;
  tilesat_error err;
  cr_expect_eq(tilesat_count(m, &o, &res, &err), -1);
  cr_expect(strstr(err.msg, "count: a 3000x3000 map of 3 tiles needs about "),
            "%s", err.msg);
  cr_expect_eq(tilesat_sample(m, &o, 1, NULL, NULL, &err), -1);
  cr_expect(strstr(err.msg, "sample: a 3000x3000 map of 3 tiles needs "), "%s",
            err.msg);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(memory, the_library_takes_the_bound_from_the_map) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 2000, 2000, TILESAT_SQUARE, false);
  size_t def = tilesat_default_max_memory();
  cr_expect_eq(map_info(m).max_memory, def);
  cr_expect(def > 0 && def <= SIZE_MAX / 2);
  tilesat_map_set_max_memory(m, (size_t)1 << 20);
  tilesat_error err;
  for (int i = 0; i < NBACKENDS; i++) {
    cr_expect_eq(tilesat_check(m, SOLVE(backends[i]), NULL, &err), -1);
    cr_expect(strstr(err.msg, "check: a 2000x2000 map of 3 tiles needs "
                              "about "),
              "%s", err.msg);
    cr_expect_eq(tilesat_enumerate(m, SOLVE(backends[i]), 1, NULL, NULL, &err),
                 -1);
  }
  tilesat_explanation *e;
  cr_expect_eq(tilesat_explain(m, NULL, &e, &err), -1);
  cr_expect(strstr(err.msg, "explain: a 2000x2000 map"), "%s", err.msg);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The estimate the refusal quotes, in KiB, from a run with a tiny bound. */
static double estimate_kib(const char *rules, const char *size,
                           const char *backend) {
  run_result r = RUN("check", rules, "--size", size, "--backend", backend,
                     "--max-memory", "1K", "--method", "cnf");
  cr_assert_eq(r.code, 1, "%s", r.err);
  const char *p = strstr(r.err, "needs about ");
  cr_assert(p, "%s", r.err);
  char *end;
  double n = strtod(p + strlen("needs about "), &end);
  double kib = n * (!strncmp(end, " GiB", 4) ? 1 << 20 : 1 << 10);
  run_free(&r);
  return kib;
}

/* The real peak (getrusage's largest child so far) is within the
 * estimate.  Each backend in a test of its own, so that the largest child
 * is this backend's run. */
static void estimate_bounds_peak(const char *rules, const char *size,
                                 tilesat_backend b) {
  if (asan_cli())
    cr_skip_test("peak RSS under AddressSanitizer is not the program's");
  const char *name = tilesat_backend_name(b);
  run_result r =
      RUN("check", rules, "--size", size, "--backend", name, "--method", "cnf");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  double est = estimate_kib(rules, size, name);
  cr_expect((double)ru.ru_maxrss <= est,
            "%s %s on %s: peak %ld KiB, "
            "estimate %.0f KiB",
            rules, size, name, ru.ru_maxrss, est);
}

Test(memory, estimate_bounds_picosat) {
  estimate_bounds_peak("rules/coast.rules", "250x250", TILESAT_PICOSAT);
  estimate_bounds_peak("rules/patchwork16.rules", "60x60", TILESAT_PICOSAT);
}
Test(memory, estimate_bounds_cryptominisat) {
  estimate_bounds_peak("rules/coast.rules", "250x250", TILESAT_CRYPTOMINISAT);
  estimate_bounds_peak("rules/patchwork16.rules", "60x60",
                       TILESAT_CRYPTOMINISAT);
}
Test(memory, estimate_bounds_cadical) {
  estimate_bounds_peak("rules/coast.rules", "250x250", TILESAT_CADICAL);
  estimate_bounds_peak("rules/patchwork16.rules", "60x60", TILESAT_CADICAL);
}

/* A map whose whole CNF does not fit the bound but a band does: check
 * --method cnf fills it in strips, within the bound, and the witness
 * reads back. */
Test(memory, check_fills_a_map_in_strips_within_the_bound) {
  for (int i = 0; i < NBACKENDS; i++) {
    run_result r = RUN("check", "rules/coast.rules", "--size", "300x300",
                       "--backend", tilesat_backend_name(backends[i]),
                       "--max-memory", "150M", "--method", "cnf");
    cr_expect_eq(r.code, 10, "%s", r.err);
    cr_expect_eq(strncmp(r.out, "SAT\n", 4), 0);
    int lines = 0;
    for (const char *p = r.out; *p; p++)
      lines += *p == '\n';
    cr_expect_eq(lines, 301);
    run_free(&r);
  }
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  if (!asan_cli())
    cr_expect(ru.ru_maxrss <= 150 << 10, "peak %ld KiB", ru.ru_maxrss);
}

/* The dp within --max-memory, resident: a layer that grows is moved, not
 * copied (a copy held it twice, uncounted: dungeon8 12x12 under 100M then
 * peaked at 143 MiB).  The bound is reached, said, exit 1; the 10% over
 * it is the program itself, which the bound does not count. */
Test(memory, dp_stays_within_max_memory) {
  if (asan_cli())
    cr_skip_test("peak RSS under AddressSanitizer is not the program's");
  run_result r = RUN("count", "rules/dungeon8.rules", "--size", "12x12",
                     "--method", "dp", "--max-memory", "100M");
  cr_expect_eq(r.code, 1, "%s", r.err);
  cr_expect(strstr(r.err, "the frontier outgrew --max-memory 100 MiB"), "%s",
            r.err);
  run_free(&r);
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  cr_expect(ru.ru_maxrss <= 110 << 10, "peak %ld KiB under --max-memory 100M",
            ru.ru_maxrss);
}

/* The seen key's set numbers, built before the run for every cell, take a
 * few bytes a combination of neighbours' classes: a 1x250000 strip peaks
 * under 100 MiB (47 MiB; a book of its own for each cell took 240 MiB).
 * Its count: a column of coast reads down land, then at most one coast
 * cell with sea below it, then sea (n choices of the coast cell, or all
 * land, or all sea): n + 2 maps. */
Test(memory, dp_set_numbers_take_little) {
  if (asan_cli())
    cr_skip_test("peak RSS under AddressSanitizer is not the program's");
  run_result r =
      RUN("count", "rules/coast.rules", "--size", "1x250000", "--method", "dp");
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect_str_eq(r.out, "250002\n");
  run_free(&r);
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  cr_expect(ru.ru_maxrss <= 100 << 10, "peak %ld KiB", ru.ru_maxrss);
}

/* Strips against the whole solve: the same answer (a first band that is
 * UNSAT proves the map UNSAT; a later dead end is UNKNOWN, never a wrong
 * answer), witnesses valid, on every backend. */
static const map_case strip_cases[] = {
    {"rules/coast.rules", 12, 40, false, NULL},
    {"rules/coast-hex.rules", 9, 41, false, NULL},
    {"rules/coast.rules", 10, 30, false, "25,3=C"},
    {"rules/dungeon8.rules", 10, 30, false, NULL},
    {"rules/patchwork16.rules", 8, 25, false, NULL},
    {"rules/hard.rules", 6, 30, false, NULL},
    {"rules/coast.rules", 6, 30, false, "20,0=L"}, /* and 20,1=S: UNSAT */
};
#define NSTRIP_CASES (sizeof strip_cases / sizeof *strip_cases)

Test(memory, strips_agree_with_the_whole_solve) {
  for (size_t k = 0; k < NSTRIP_CASES; k++)
    for (int i = 0; i < NBACKENDS; i++) {
      tilesat_rules *r;
      tilesat_map *m = case_open(&strip_cases[k], &r);
      tilesat_error err;
      if (k == NSTRIP_CASES - 1)
        cr_assert_eq(tilesat_map_pin_spec(m, "20,1=S", &err), 0);
      const tilesat_map_info mi = map_info(m);
      int n = mi.width * mi.height;
      int *tiles = calloc((size_t)n, sizeof *tiles);
      int whole = tilesat_check(m, SOLVE(backends[i]), NULL, &err);
      int got = ts_check_strips(m, SOLVE(backends[i]), 8, 2, tiles, &err);
      const char *what = strip_cases[k].rules;
      cr_expect(whole == TILESAT_SAT || whole == TILESAT_UNSAT, "%s", what);
      if (whole == TILESAT_UNSAT)
        cr_expect(got == TILESAT_UNSAT || got == TILESAT_UNKNOWN,
                  "%s: strips %d", what, got);
      else
        cr_expect(got == TILESAT_SAT || got == TILESAT_UNKNOWN, "%s: strips %d",
                  what, got);
      if (got == TILESAT_SAT)
        cr_expect(tilesat_map_verify(m, tiles, NULL, 0), "%s", what);
      /* coast meets no dead end unpinned (a pin further down may make one:
       * a band does not see it); hard fails in the first band */
      if (k == 0 || !strcmp(what, "rules/hard.rules"))
        cr_expect_eq(got, whole, "%s: strips %d, whole %d", what, got, whole);
      free(tiles);
      tilesat_map_free(m);
      tilesat_rules_free(r);
    }
}

/* ------------------------------------------- under a lowered ulimit -v */

/* AddressSanitizer cannot run under a low RLIMIT_AS (it maps terabytes of
 * shadow): with TILESAT_BIN an ASan build, the tests below give the same
 * bound as --max-memory instead and still assert the refusal. */

static rlim_t as_limit;

static void lower_as(void) {
  struct rlimit rl = {as_limit, as_limit};
  if (setrlimit(RLIMIT_AS, &rl))
    _exit(126);
}

/* Run args (NULL-terminated, at most 16) under `ulimit -v MIB`, or with
 * --max-memory MIBM appended when the CLI is an ASan build (`given`: the
 * command's own --max-memory, then nothing is appended). */
static run_result run_limited(const char **args, long mib, bool given) {
  const char *v[20];
  int n = 0;
  while (args[n] && n < 16) {
    v[n] = args[n];
    n++;
  }
  char m[32];
  snprintf(m, sizeof m, "%ldM", mib);
  if (asan_cli() && !given) {
    v[n++] = "--max-memory";
    v[n++] = m;
  }
  v[n] = NULL;
  as_limit = (rlim_t)mib << 20;
  return run_cli_with(v, 0, 0, asan_cli() ? NULL : lower_as);
}

/* The default bound follows `ulimit -v`: what the limit leaves after the
 * program's own mappings at start (under ASan: --max-memory, as given). */
static void expect_within_limit(const refusal *f, long mib) {
  double limit = (double)mib * (1 << 20);
  cr_expect(f->bound <= limit, "bound %.0f, limit %.0f", f->bound, limit);
  /* at most a few tens of MiB mapped at start (and the 3 digits said) */
  cr_expect(f->bound >= limit - 200.0 * (1 << 20), "bound %.0f, limit %.0f",
            f->bound, limit);
}

Test(memory, the_default_bound_follows_the_ulimit) {
  const char *args[] = {"check",     "rules/coast.rules", "--size",
                        "3000x3000", "--periodic",        NULL};
  run_result r = run_limited(args, 1024, false);
  refusal f = parse_refusal(r.err, "check", "3000x3000", 3);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect(f.ok, "%s", r.err);
  expect_within_limit(&f, 1024);
  run_free(&r);
  /* and in the library, at most half of physical memory */
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  cr_expect((double)tilesat_default_max_memory() <=
            (double)pages * (double)page / 2);
}

/* collapse allocated its tables (N*T*D supports and more) unbounded: a
 * 9000x9000 map under a 4 GiB ulimit with --max-memory 1G aborted (exit
 * 134).  Now it is refused before anything is allocated. */
Test(memory, collapse_refuses_what_does_not_fit) {
  const char *args[] = {"collapse",  "rules/coast.rules", "--size",
                        "9000x9000", "--max-memory",      "1G",
                        NULL};
  run_result r = run_limited(args, 4096, true);
  refusal f = expect_refused(&r, "collapse", "9000x9000", 3, "1 GiB");
  run_free(&r);
  cr_expect(f.side > 1000 && f.side < 9000, "%d", f.side);
  /* the ulimit alone */
  const char *plain[] = {"collapse", "rules/coast.rules", "--size", "9000x9000",
                         NULL};
  r = run_limited(plain, 2048, false);
  f = parse_refusal(r.err, "collapse", "9000x9000", 3);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect(f.ok, "%s", r.err);
  expect_within_limit(&f, 2048);
  run_free(&r);
  /* the side it names, at a bound small enough to run it */
  const char *small[] = {"collapse", "rules/coast.rules", "--size",
                         NULL,       "--max-memory",      "48M",
                         NULL};
  small[3] = "2000x2000";
  r = RUN_ARGS(small);
  f = expect_refused(&r, "collapse", "2000x2000", 3, "48 MiB");
  run_free(&r);
  expect_largest(small, 3, f.side, "collapse");
  /* the guard keeps a snapshot of the state too: a map whose plain run
   * fits can be too large for a guarded one */
  const char *guarded[] = {
      "collapse", "rules/coast.rules", "--size", NULL, "--max-memory",
      "48M",      "--guard",           "sat",    NULL};
  char sq[32];
  snprintf(sq, sizeof sq, "%dx%d", f.side, f.side);
  guarded[3] = sq;
  r = RUN_ARGS(guarded);
  refusal g = expect_refused(&r, "collapse", sq, 3, "48 MiB");
  cr_expect(g.side < f.side, "%d, unguarded %d", g.side, f.side);
  run_free(&r);
}

/* count --part and sample --part-split run the dp on each part, whose plan
 * (ints per cell, two while it probes the order) was built unbounded: a
 * 9000x9000 part aborted.  And -n maps are kept to be handed on in the
 * order drawn. */
Test(memory, parts_refuse_what_does_not_fit) {
  const char *count[] = {
      "count", "rules/coast.rules", "--size", "9000x9000", "--part", "1/2",
      NULL};
  run_result r = run_limited(count, 4096, false);
  refusal f = parse_refusal(r.err, "count", "9000x9000", 3);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect_str_eq(r.out, "");
  cr_expect(f.ok && f.need > f.bound, "%s", r.err);
  /* the dp's bound: 4G unless the map's (the ulimit's) is smaller */
  expect_within_limit(&f, 4096);
  run_free(&r);
  const char *split[] = {"sample",
                         "rules/coast.rules",
                         "--size",
                         "9000x9000",
                         "--part-split",
                         "2",
                         "-n",
                         "5",
                         NULL};
  r = run_limited(split, 4096, false);
  f = parse_refusal(r.err, "sample", "9000x9000", 3);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect(f.ok, "%s", r.err);
  expect_within_limit(&f, 4096);
  run_free(&r);
  split[7] = "5000000";
  r = run_limited(split, 4096, false);
  f = parse_refusal(r.err, "sample", "9000x9000", 3);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect(f.ok, "%s", r.err);
  /* 5e6 maps of 81e6 cells, 4 bytes each */
  cr_expect(f.need >= 5e6 * 81e6 * 4 * 0.999, "%s", r.err);
  run_free(&r);
  /* the plan's side: the part of a map that size is not refused for it */
  const char *dp[] = {"count",
                      "rules/coast.rules",
                      "--size",
                      NULL,
                      "--max-memory",
                      "64M",
                      "--part",
                      "1/2",
                      NULL};
  dp[3] = "3000x3000";
  r = RUN_ARGS(dp);
  f = expect_refused(&r, "count", "3000x3000", 3, "64 MiB");
  run_free(&r);
  expect_largest(dp, 3, f.side, "count --part");
}

/* One run-samples entry too large for the bound aborted the whole list;
 * now it is listed as refused and the others run. */
Test(memory, run_samples_refuses_one_entry_and_runs_the_others) {
  char *dir = temp_dir();
  char cwd[4096], link[4200], target[4200], list[4200], out[4200];
  cr_assert(getcwd(cwd, sizeof cwd));
  snprintf(link, sizeof link, "%s/tilesets", dir);
  snprintf(target, sizeof target, "%s/tests/data/wfc/tilesets", cwd);
  cr_assert_eq(symlink(target, link), 0);
  snprintf(list, sizeof list, "%s/samples.xml", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(list, "w");
  cr_assert(f);
  fputs("<samples>\n"
        "  <simpletiled name=\"Knots\" subset=\"Standard\" size=\"6\" "
        "periodic=\"True\" screenshots=\"0\"/>\n"
        "  <simpletiled name=\"Knots\" subset=\"Standard\" size=\"4000\" "
        "periodic=\"True\" screenshots=\"0\"/>\n"
        "  <simpletiled name=\"Knots\" subset=\"Standard\" size=\"5\" "
        "screenshots=\"0\"/>\n"
        "</samples>\n",
        f);
  cr_assert_eq(fclose(f), 0);
  const char *args[] = {"run-samples", list, "-n", "2", "--out-dir", out, NULL};
  run_result r = run_limited(args, 1536, false);
  cr_expect_eq(r.code, 1, "%s", r.err);
  char want[5000];
  snprintf(want, sizeof want,
           "tilesat: %s: 1 of 3 entries could not run (see above)\n", list);
  cr_expect_str_eq(r.err, want);
  char *lines[5] = {0};
  int n = 0;
  for (char *l = strtok(r.out, "\n"); l && n < 5; l = strtok(NULL, "\n"))
    lines[n++] = l;
  cr_assert_eq(n, 4, "%s", r.out);
  const char *ran = "01 Knots (simpletiled subset=\"Standard\" periodic 6x6 "
                    "screenshots=0): 9 tiles, sat (";
  cr_expect(!strncmp(lines[0], ran, strlen(ran)), "%s", lines[0]);
  const char *head = "02 Knots (simpletiled subset=\"Standard\" periodic "
                     "4000x4000 screenshots=0): cannot run: too large: ";
  cr_expect(!strncmp(lines[1], head, strlen(head)), "%s", lines[1]);
  char said[1024];
  snprintf(said, sizeof said, "tilesat: collapse: %s\n",
           lines[1] + strlen(head));
  refusal g = parse_refusal(said, "collapse", "4000x4000", 9);
  cr_expect(g.ok && g.need > g.bound, "%s", lines[1]);
  expect_within_limit(&g, 1536);
  ran = "03 Knots (simpletiled subset=\"Standard\" 5x5 screenshots=0): 9 "
        "tiles, sat (";
  cr_expect(!strncmp(lines[2], ran, strlen(ran)), "%s", lines[2]);
  cr_expect(!strncmp(lines[3], "entries: 3, ran: 2, could not run: 1, ", 38),
            "%s", lines[3]);
  run_free(&r);
  remove(link);
  rm_dir(dir);
}

/* anneal, trace and the chain each keep a few arrays a cell: refused up
 * front too, where they ended "out of memory". */
Test(memory, anneal_trace_and_the_chain_take_the_bound) {
  struct {
    const char *args[12];
    const char *what;
  } cases[] = {
      {{"anneal", "rules/coast.rules", "--size", "9000x9000", NULL}, "anneal"},
      {{"trace", "rules/coast.rules", "--size", "9000x9000", NULL}, "trace"},
      {{"sample", "rules/coast.rules", "--size", "9000x9000", "--method",
        "chain", NULL},
       "sample"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    /* sample's --max-memory is the dp's: the chain keeps the map's bound,
     * which only the ulimit lowers (in-process below) */
    if (asan_cli() && !strcmp(cases[i].what, "sample"))
      continue;
    run_result r = run_limited(cases[i].args, 1024, false);
    refusal f = parse_refusal(r.err, cases[i].what, "9000x9000", 3);
    cr_expect_eq(r.code, 1, "%s: exit %d: %s", cases[i].what, r.code, r.err);
    cr_expect_str_eq(r.out, "");
    cr_expect(f.ok && f.need > f.bound, "%s", r.err);
    expect_within_limit(&f, 1024);
    run_free(&r);
  }
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 9000, 9000, TILESAT_SQUARE, false);
  tilesat_map_set_max_memory(m, (size_t)1 << 30);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_CHAIN;
  tilesat_error err;
  cr_expect_eq(tilesat_sample(m, &o, 1, NULL, NULL, &err), -1);
  char all[sizeof err.msg + 16];
  snprintf(all, sizeof all, "tilesat: %s\n", err.msg);
  refusal f = parse_refusal(all, "sample", "9000x9000", 3);
  cr_expect(f.ok && f.need > f.bound && f.bound == (double)(1 << 30), "%s",
            err.msg);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The last resort, when the estimate let through what the system does not
 * have (a --max-memory above the ulimit): PicoSAT's failed allocation is a
 * message and exit 1, not its abort (134).  Under ASan, allocations above
 * 16 MiB fail instead of the ulimit. */
static void small_allocations(void) {
  setenv("ASAN_OPTIONS",
         "allocator_may_return_null=1:max_allocation_size_mb=16:detect_leaks=0",
         1);
}

Test(memory, picosat_out_of_memory_is_an_error_not_an_abort) {
  /* --method cnf: check's auto modifies in blocks on a map this large, in
   * a few MiB, without PicoSAT */
  const char *args[] = {"check",   "rules/coast.rules", "--size",
                        "600x600", "--periodic",        "--max-memory",
                        "8G",      "--method",          "cnf",
                        NULL};
  as_limit = (rlim_t)150 << 20;
  run_result r =
      run_cli_with(args, 0, 0, asan_cli() ? small_allocations : lower_as);
  cr_expect_eq(r.code, 1, "exit %d: %s", r.code, r.err);
  cr_expect_str_eq(r.out, "");
  const char *line = r.err;
  for (const char *p = r.err; *p; p++)
    if (*p == '\n' && p[1])
      line = p + 1;
  size_t bytes = 0;
  int end = -1;
  cr_expect(sscanf(line,
                   "tilesat: out of memory in PicoSAT (allocating %zu "
                   "bytes)%n",
                   &bytes, &end) == 1 &&
                !strcmp(line + end, "\n"),
            "%s", r.err);
  run_free(&r);
}
