/* The SAT backends: all three agree (check, witnesses, enumeration counts,
 * explanations) against the DP's exact counts; terminate stops each of them
 * inside a hard solve; features only CryptoMiniSat has are refused
 * elsewhere; and the PicoSAT backend really runs Debian's PicoSAT. */
#define _GNU_SOURCE /* dladdr */
#include "helpers.h"
#include "sat/sat.h"

#include <cryptominisat5/cryptominisat_c.h>
#include <dlfcn.h>
#include <picosat/picosat.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const map_case cases[] = {
    {"rules/coast.rules", 4, 4, false, NULL},     /* square */
    {"rules/coast-hex.rules", 4, 4, false, NULL}, /* hex */
    {"rules/coast.rules", 4, 4, true, NULL},      /* periodic */
    {"rules/coast-hex.rules", 3, 4, true, NULL},  /* hex, periodic */
    {"rules/coast.rules", 4, 3, false, "1,1=C"},  /* pinned */
    {"rules/coast.rules", 3, 3, true, "0,0=C"},   /* pinned, UNSAT */
    {"rules/hard.rules", 3, 3, false, NULL},      /* UNSAT */
};
#define NCASES (sizeof cases / sizeof *cases)

/* The DP's exact count, a method that uses no SAT solver. */
static long dp_count(const tilesat_map *m) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  long n = strtol(res.count, NULL, 10);
  tilesat_count_result_free(&res);
  return n;
}

Test(backends, agree_on_a_table_of_cases) {
  int unsat = 0;
  for (size_t i = 0; i < NCASES; i++) {
    const map_case *c = &cases[i];
    tilesat_rules *r;
    tilesat_map *m = case_open(c, &r);
    long want = dp_count(m);
    unsat += want == 0;
    int *tiles = malloc((size_t)c->w * (size_t)c->h * sizeof *tiles);
    for (int b = 0; b < NBACKENDS; b++) {
      const char *be = tilesat_backend_name(backends[b]);
      tilesat_error err;
      int res = tilesat_check(m, SOLVE(backends[b]), tiles, &err);
      cr_expect_eq(res, want ? TILESAT_SAT : TILESAT_UNSAT, "%s %dx%d %s: %d",
                   c->rules, c->w, c->h, be, res);
      char why[256];
      if (res == TILESAT_SAT)
        cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s %s: %s",
                  c->rules, be, why);
      cr_expect_eq(enum_count(m, backends[b]), want, "%s %dx%d %s", c->rules,
                   c->w, c->h, be);
      /* count --method enum, and explain on the unsatisfiable ones */
      tilesat_count_options o;
      tilesat_count_options_init(&o);
      o.method = TILESAT_METHOD_ENUM;
      o.solve.backend = backends[b];
      tilesat_count_result cr;
      cr_assert_eq(tilesat_count(m, &o, &cr, &err), 0, "%s", err.msg);
      cr_expect_eq(strtol(cr.count, NULL, 10), want, "%s count %s", c->rules,
                   be);
      tilesat_count_result_free(&cr);
      tilesat_explanation *e = NULL;
      cr_expect_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                   want ? TILESAT_SAT : TILESAT_UNSAT, "%s explain %s",
                   c->rules, be);
      if (!want)
        cr_expect_gt(explanation_info(e).size, 0);
      tilesat_explanation_free(e);
    }
    free(tiles);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_eq(unsat, 2, "the table should hold two UNSAT cases");
}

/* Auto picks one of the three for every map, and answers like them. */
Test(backends, auto_is_one_of_them) {
  for (size_t i = 0; i < NCASES; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    tilesat_backend b = tilesat_backend_choose(m, TILESAT_BACKEND_AUTO);
    cr_expect(b == TILESAT_PICOSAT || b == TILESAT_CRYPTOMINISAT ||
              b == TILESAT_CADICAL);
    cr_expect_eq(tilesat_backend_choose(m, TILESAT_CADICAL), TILESAT_CADICAL);
    cr_expect_eq(enum_count(m, TILESAT_BACKEND_AUTO), dp_count(m));
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* The rule README's "Backends" states: CaDiCaL for maps of 8 tiles or
 * more and at least 250000 tile variables, PicoSAT otherwise. */
Test(backends, auto_rule) {
  struct {
    const char *rules;
    int w, h;
    tilesat_backend want;
  } rule[] = {
      {"rules/patchwork16.rules", 200, 200, TILESAT_CADICAL},
      {"rules/patchwork16.rules", 125, 125, TILESAT_CADICAL}, /* 250000 */
      {"rules/patchwork16.rules", 124, 125, TILESAT_PICOSAT},
      {"rules/dungeon8.rules", 250, 125, TILESAT_CADICAL},
      {"rules/coast.rules", 1000, 1000, TILESAT_PICOSAT}, /* 3 tiles */
  };
  for (size_t i = 0; i < sizeof rule / sizeof *rule; i++) {
    tilesat_rules *r = rules_from_file(rule[i].rules);
    tilesat_map *m = map_new(r, rule[i].w, rule[i].h, TILESAT_SQUARE, false);
    cr_expect_eq(tilesat_backend_choose(m, TILESAT_BACKEND_AUTO), rule[i].want,
                 "%s %dx%d", rule[i].rules, rule[i].w, rule[i].h);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

Test(backends, names_round_trip) {
  const char *names[] = {"picosat", "cryptominisat", "cadical", "auto"};
  for (int i = 0; i < 4; i++) {
    tilesat_backend b;
    cr_assert_eq(tilesat_backend_parse(names[i], &b), 0);
    cr_expect_str_eq(tilesat_backend_name(b), names[i]);
  }
  tilesat_backend b;
  cr_expect_eq(tilesat_backend_parse("cms", &b), 0);
  cr_expect_eq(b, TILESAT_CRYPTOMINISAT);
  cr_expect_eq(tilesat_backend_parse("minisat", &b), -1);
}

/* ------------------------------------------------------------- terminate */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct deadline {
  double at;
  long polls;
} deadline;

static int past(void *user) {
  deadline *d = user;
  d->polls++;
  return now() >= d->at;
}

/* n+1 pigeons in n holes: exponential for resolution, so no backend can
 * finish it before the deadline. */
static void pigeonhole(ts_solver *s, int n) {
  for (int p = 0; p <= n; p++) {
    int cl[64];
    for (int h = 0; h < n; h++)
      cl[h] = p * n + h + 1;
    ts_solver_add_clause(s, cl, (size_t)n);
  }
  for (int h = 0; h < n; h++)
    for (int p = 0; p <= n; p++)
      for (int q = p + 1; q <= n; q++) {
        int cl[2] = {-(p * n + h + 1), -(q * n + h + 1)};
        ts_solver_add_clause(s, cl, 2);
      }
}

typedef struct said {
  tilesat_backend backend;
  int solving;    /* "solving with NAME" lines (and ": ..." after it) */
  int decisions;  /* "solving with NAME: K decisions so far" lines */
  double most;    /* the largest K said (M: millions) */
  bool backwards; /* a K below one said before */
} said;

static void count_solving(void *user, const char *line) {
  said *s = user;
  char want[64];
  int n = snprintf(want, sizeof want, "solving with %s",
                   tilesat_backend_name(s->backend));
  if (strncmp(line, want, (size_t)n) || (line[n] && line[n] != ':'))
    return;
  s->solving++;
  double k;
  char unit[4] = "";
  int end = 0;
  if (line[n] &&
      (sscanf(line + n, ": %lf decisions so far%n", &k, &end) == 1 ||
       sscanf(line + n, ": %lf %1[M] decisions so far%n", &k, unit, &end) ==
           2) &&
      !line[n + end]) {
    k *= *unit ? 1e6 : 1;
    s->backwards |= k < s->most;
    s->most = k > s->most ? k : s->most;
    s->decisions++;
  }
}

/* terminate is polled inside the search, not only between solves: a
 * deadline 0.2 s into a solve no backend can finish ends it (UNKNOWN), and
 * it was asked more than once (CryptoMiniSat between its half-second
 * slices).  How soon it stops is measured, not timed here: a loaded
 * machine under ASan stretched CryptoMiniSat's slice past 3 s.  progress is
 * polled with it ("solving with NAME"), so a long search is never
 * silent. */
Test(backends, terminate_stops_a_hard_solve) {
  for (int b = 0; b < NBACKENDS; b++) {
    deadline d = {now() + 0.2, 0};
    said lines = {backends[b], 0, 0, 0, false};
    tilesat_solve_options so = {.backend = backends[b],
                                .terminate = past,
                                .terminate_user = &d,
                                .progress = count_solving,
                                .progress_user = &lines};
    ts_solver *s = ts_solver_new(NULL, &so);
    pigeonhole(s, 13);
    cr_expect_eq(ts_solver_solve(s), TILESAT_UNKNOWN, "%s",
                 tilesat_backend_name(backends[b]));
    cr_expect_gt(d.polls, 1, "%s polled %ld times",
                 tilesat_backend_name(backends[b]), d.polls);
    cr_expect_gt(lines.solving, 0, "%s never said it was solving",
                 tilesat_backend_name(backends[b]));
    /* PicoSAT says how far its search went: decisions so far, growing */
    if (backends[b] == TILESAT_PICOSAT) {
      cr_expect_eq(lines.decisions, lines.solving);
      cr_expect_gt(lines.most, 0);
      cr_expect(!lines.backwards);
    }
    tilesat_error err;
    cr_expect_eq(ts_solver_unknown(s, "check", &err), -1);
    cr_expect_str_eq(err.msg, "check: interrupted");
    ts_solver_free(s);
  }
}

static int always(void *user) {
  (void)user;
  return 1;
}

/* A stop already asked for: every solving call gives up with "WHAT:
 * interrupted", whatever the backend. */
Test(backends, terminate_reaches_every_entry_point) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_solve_options so = {.backend = backends[b], .terminate = always};
    tilesat_error err;
    cr_expect_eq(tilesat_check(m, &so, NULL, &err), -1);
    cr_expect_str_eq(err.msg, "check: interrupted");
    cr_expect_eq(tilesat_enumerate(m, &so, 0, NULL, NULL, &err), -1);
    cr_expect_str_eq(err.msg, "enumerate: interrupted");
    tilesat_explanation *e;
    cr_expect_eq(tilesat_explain(m, &so, &e, &err), -1);
    cr_expect_str_eq(err.msg, "explain: interrupted");
    cr_expect_null(tilesat_analyze(r, 2, TILESAT_SQUARE, false, &so, &err));
    cr_expect_str_eq(err.msg, "analyze: interrupted");
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.solve = so;
    tilesat_count_result res;
    for (int method = TILESAT_METHOD_DP; method <= TILESAT_METHOD_APPROX;
         method++) {
      o.method = (tilesat_method)method;
      cr_expect_eq(tilesat_count(m, &o, &res, &err), -1);
      cr_expect_str_eq(err.msg, "count: interrupted", "%s",
                       tilesat_method_name(o.method));
    }
    tilesat_energy *en = tilesat_energy_new(m);
    cr_assert_eq(tilesat_energy_prepare(en, &err), 0, "%s", err.msg);
    tilesat_anneal_opts ao;
    tilesat_anneal_defaults(&ao);
    ao.solve = so;
    int tiles[9];
    tilesat_anneal_stats st;
    cr_expect_eq(tilesat_anneal(en, &ao, tiles, &st, &err), -1);
    cr_expect_str_eq(err.msg, "anneal: interrupted");
    tilesat_energy_free(en);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Ctrl-C stops enum with the message every solving command uses. */
Test(backends_cli, ctrl_c_stops_enum) {
  run_result r = run_cli_interrupted(
      (const char *const[]){"enum", "rules/coast.rules", "--size", "30x30",
                            "--backend", "cadical", NULL},
      700);
  cr_expect_eq(r.code, 1, "exit %d", r.code);
  cr_expect_str_eq(r.err, "tilesat: enum: interrupted\n");
  run_free(&r);
}

/* ------------------------------------------------- backend-only features */

static void xor_on(tilesat_backend b) {
  ts_solver *s = ts_solver_new(NULL, SOLVE(b));
  int vars[] = {1, 2};
  ts_solver_add_xor(s, vars, 2, true);
}

Test(backends, xor_on_picosat_is_misuse, .signal = SIGABRT) {
  xor_on(TILESAT_PICOSAT);
}

Test(backends, xor_on_cadical_is_misuse, .signal = SIGABRT) {
  xor_on(TILESAT_CADICAL);
}

Test(backends, counting_settings_on_cadical_are_misuse, .signal = SIGABRT) {
  ts_solver_set_counting(ts_solver_new(NULL, SOLVE(TILESAT_CADICAL)));
}

/* CryptoMiniSat's XORs work: x1 xor x2 = 1 with x1 = x2 is UNSAT. */
Test(backends, xor_on_cryptominisat) {
  ts_solver *s = ts_solver_new(NULL, SOLVE(TILESAT_CRYPTOMINISAT));
  int vars[] = {1, 2}, eq1[] = {1, -2}, eq2[] = {-1, 2};
  ts_solver_add_xor(s, vars, 2, true);
  cr_expect_eq(ts_solver_solve(s), TILESAT_SAT);
  cr_expect_neq(ts_solver_value(s, 1), ts_solver_value(s, 2));
  ts_solver_add_clause(s, eq1, 2);
  ts_solver_add_clause(s, eq2, 2);
  cr_expect_eq(ts_solver_solve(s), TILESAT_UNSAT);
  ts_solver_free(s);
}

/* Failed assumptions, through each adapter's own translation. */
Test(backends, failed_assumptions) {
  for (int b = 0; b < NBACKENDS; b++) {
    ts_solver *s = ts_solver_new(NULL, SOLVE(backends[b]));
    int cl[] = {-1, -2}; /* not both */
    ts_solver_add_clause(s, cl, 2);
    ts_solver_assume(s, 1);
    ts_solver_assume(s, 2);
    ts_solver_assume(s, -3);
    const char *be = tilesat_backend_name(backends[b]);
    cr_assert_eq(ts_solver_solve(s), TILESAT_UNSAT, "%s", be);
    cr_expect(ts_solver_failed(s, 1), "%s", be);
    cr_expect(ts_solver_failed(s, 2), "%s", be);
    cr_expect(!ts_solver_failed(s, -3), "%s", be);
    /* assumptions last one solve */
    cr_expect_eq(ts_solver_solve(s), TILESAT_SAT, "%s", be);
    ts_solver_free(s);
  }
}

/* ------------------------------------------------------ PicoSAT for real */

static void *address_of(void (*f)(void)) {
  void *p;
  memcpy(&p, &f, sizeof p);
  return p;
}

/* libcryptominisat5 carries and exports its own PicoSAT.  The PicoSAT
 * backend must run Debian's libpicosat (linked in statically), and the
 * binary must not export it either, or CryptoMiniSat's own calls would be
 * bound to it in turn. */
Test(backends, picosat_is_debians_libpicosat) {
  Dl_info ours, here, cms;
  cr_assert(dladdr(address_of((void (*)(void))picosat_init), &ours));
  cr_assert(dladdr(address_of((void (*)(void))dp_count), &here));
  cr_assert(dladdr(address_of((void (*)(void))cmsat_new), &cms));
  cr_expect(!strstr(ours.dli_fname, "cryptominisat"), "picosat_init in %s",
            ours.dli_fname);
  cr_expect_eq(ours.dli_fbase, here.dli_fbase,
               "picosat_init in %s, not in the test binary %s", ours.dli_fname,
               here.dli_fname);
  cr_expect(strstr(cms.dli_fname, "libcryptominisat5"), "%s", cms.dli_fname);
  void *lib = dlopen(cms.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  cr_assert(lib, "%s", dlerror());
  void *theirs = dlsym(lib, "picosat_init");
  cr_expect(theirs, "libcryptominisat5 no longer exports picosat_init");
  cr_expect_neq(theirs, address_of((void (*)(void))picosat_init));
  /* whoever looks picosat_init up by name (CryptoMiniSat's own calls)
   * finds CryptoMiniSat's copy, not ours */
  cr_expect_eq(dlsym(RTLD_DEFAULT, "picosat_init"), theirs);
  dlclose(lib);
  /* and it answers as Debian's PicoSAT 965 */
  cr_expect_str_eq(picosat_version(), "965");
}

static int once(void *user) {
  int *n = user;
  return (*n)++ == 0;
}

/* A limit is for the next solve only, even when a stop skipped that solve:
 * the solve after it runs unlimited (it used to stay limited on PicoSAT
 * and CryptoMiniSat, and answer UNKNOWN). */
Test(backends, a_limit_never_outlives_a_skipped_solve) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 30, 30, TILESAT_SQUARE, false);
  for (int b = 0; b < NBACKENDS; b++) {
    int calls = 0;
    tilesat_solve_options so = {
        .backend = backends[b], .terminate = once, .terminate_user = &calls};
    ts_solver *s = ts_solver_for_map(m, &so);
    ts_solver_limit(s, 1);
    cr_expect_eq(ts_solver_solve(s), TILESAT_UNKNOWN, "%s",
                 tilesat_backend_name(backends[b]));
    cr_expect_eq(ts_solver_solve(s), TILESAT_SAT, "%s",
                 tilesat_backend_name(backends[b]));
    ts_solver_free(s);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}
