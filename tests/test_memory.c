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

/* exit 1, nothing on stdout, and exactly "tilesat: WHAT: a SIZE map of
 * TILES tiles needs about N GiB, more than --max-memory BOUND" (N is the
 * estimate, not fixed here). */
static void expect_refused(run_result *r, const char *what, const char *size,
                           int ntiles, const char *bound) {
  char head[256], tail[128];
  snprintf(head, sizeof head, "tilesat: %s: a %s map of %d tiles needs about ",
           what, size, ntiles);
  snprintf(tail, sizeof tail, " GiB, more than --max-memory %s\n", bound);
  cr_expect_eq(r->code, 1, "exit %d: %s", r->code, r->err);
  cr_expect_str_eq(r->out, "");
  size_t n = strlen(r->err), t = strlen(tail);
  cr_expect(!strncmp(r->err, head, strlen(head)), "%s", r->err);
  cr_expect(n > t && !strcmp(r->err + n - t, tail), "%s", r->err);
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
  expect_refused(&r, "check", "10000x10000", 2, "100 MiB");
  run_free(&r);
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
  cr_expect_eq(tilesat_map_max_memory(m), def);
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
                     "--max-memory", "1K");
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
  if (SANITIZED)
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
  if (!SANITIZED)
    cr_expect(ru.ru_maxrss <= 150 << 10, "peak %ld KiB", ru.ru_maxrss);
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
      int n = tilesat_map_width(m) * tilesat_map_height(m);
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
