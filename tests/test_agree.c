/* test_agree.c: every command that takes a map agrees on whether a valid
 * map exists.  Random small problems from a fixed seed (square and hex,
 * open and periodic, 0-3 pins, masks, each kind of global constraint alone
 * and two together) are answered by check (every backend), count (dp,
 * enum, auto, parts), enum, sample, explain, repair, collapse with its
 * guard, anneal's clean-up and verify (on random fillings and near misses
 * of every valid map); the truth is the test's own count over every filling
 * (own_check.c: its own neighbours, flood fill and counters).  Every
 * witness, enumerated map and drawn map passes the test's own check;
 * every explanation is UNSAT on its own and SAT with any one constraint
 * dropped; anneal's map is valid, or its clean-up (or start) says UNSAT
 * exactly when no map exists.  A command that cannot keep a constraint
 * must refuse it (with "cannot keep"), never answer without it.  Then a
 * few of the same problems through the command line, exit codes
 * compared.
 *
 * TILESAT_AGREE_CASES sets how many problems (make test-long: many
 * more). */
#include "own_check.h"

#include <stdlib.h>
#include <unistd.h>

/* One random problem: its rules, its map for the library, and the test's
 * reading of it; lines: its constraints file. */
typedef struct problem {
  tilesat_rules *r;
  tilesat_map *m;
  own_map o;
  int T, npins, nmasked;
  char lines[512];
  char desc[700];
  long truth; /* own_count */
} problem;

/* Sizes kept so that trying every filling stays cheap: at most 2^13
 * fillings. */
static void random_size(problem *p, int iter) {
  own_map *o = &p->o;
  o->topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
  o->periodic = (iter / 2) % 3 == 0;
  p->T = 2 + (int)rnd(3);
  int maxcells = p->T == 2 ? 12 : p->T == 3 ? 8 : 6;
  do {
    o->w = 1 + (int)rnd(4);
    o->h = 1 + (int)rnd(3);
    if (o->periodic && o->topo == TILESAT_HEX && o->h % 2)
      o->h = o->h == 3 ? 2 : o->h + 1;
  } while (o->w * o->h > maxcells);
}

/* Pin tile t at cell c, unless c is masked or pinned already. */
static void pin_free_cell(problem *p, int c, int t) {
  own_map *o = &p->o;
  if (o->masked[c] || o->pin[c] >= 0)
    return;
  o->pin[c] = t;
  p->npins++;
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin(p->m, c / o->w, c % o->w,
                               tilesat_rules_tile_name(p->r, t), &err),
               0, "%s", err.msg);
}

static void problem_new(problem *p, int iter) {
  memset(p, 0, sizeof *p);
  random_size(p, iter);
  own_map *o = &p->o;
  int n = o->w * o->h;
  p->r = random_rules(p->T, o->topo, 3 + (int)rnd(5));
  p->m = map_new(p->r, o->w, o->h, o->topo, o->periodic);
  tilesat_error err;
  for (int c = 0; c < n; c++)
    o->pin[c] = -1;
  /* masks on a third of the problems, never every cell */
  if (rnd(3) == 0)
    for (int c = 0; c < n; c++)
      if (rnd(4) == 0 && p->nmasked + 1 < n) {
        o->masked[c] = true;
        p->nmasked++;
        cr_assert_eq(tilesat_map_mask(p->m, c / o->w, c % o->w, &err), 0, "%s",
                     err.msg);
      }
  int npins = (int)rnd(4);
  for (int i = 0; i < npins; i++) {
    int c = (int)rnd((unsigned)n), t = (int)rnd((unsigned)p->T);
    pin_free_cell(p, c, t);
  }
  /* no constraint, one, or two */
  o->nspecs = (int)rnd(3);
  size_t k = 0;
  for (int i = 0; i < o->nspecs; i++) {
    spec *s = &o->specs[i];
    s->topo = o->topo;
    s->w = o->w;
    s->h = o->h;
    s->periodic = o->periodic;
    char line[128];
    random_spec(s, p->T, line, sizeof line);
    k += (size_t)snprintf(p->lines + k, sizeof p->lines - k, "%s\n", line);
  }
  /* a quarter of the problems: one tile connected, the designer's way (a
   * class of one tile, no "nonempty", no cell named), its tile pinned in
   * two places: no clause of its own until a cut */
  if (rnd(4) == 0 && o->nspecs < 3) {
    spec *s = &o->specs[o->nspecs++];
    memset(s, 0, sizeof *s);
    s->kind = TILESAT_GLOBAL_CONNECTED;
    s->topo = o->topo;
    s->w = o->w;
    s->h = o->h;
    s->periodic = o->periodic;
    s->at = -1;
    int t = (int)rnd((unsigned)p->T);
    s->in[t] = true;
    k += (size_t)snprintf(p->lines + k, sizeof p->lines - k, "connected %c\n",
                          'a' + t);
    for (int i = 0; i < 2; i++)
      pin_free_cell(p, (int)rnd((unsigned)n), t);
  }
  if (o->nspecs) {
    char text[600];
    snprintf(text, sizeof text, "tilesat-constraints 1\n%s", p->lines);
    cr_assert_eq(
        tilesat_map_constraints_parse(p->m, text, strlen(text), "test", &err),
        0, "%s: %s", p->lines, err.msg);
  }
  p->truth = own_count(p->r, o);
  int d = snprintf(p->desc, sizeof p->desc,
                   "case %d: %s %dx%d%s, %d tiles, %d pins, %d masked", iter,
                   tilesat_topology_name(o->topo), o->w, o->h,
                   o->periodic ? " periodic" : "", p->T, p->npins, p->nmasked);
  for (int i = 0; i < o->nspecs; i++) {
    const char *line = p->lines;
    for (int j = 0; j < i; j++)
      line = strchr(line, '\n') + 1;
    d += snprintf(p->desc + d, sizeof p->desc - (size_t)d, "; %.*s",
                  (int)(strchr(line, '\n') - line), line);
  }
}

static void problem_free(problem *p) {
  tilesat_map_free(p->m);
  tilesat_rules_free(p->r);
}

static bool has_kind(const problem *p, tilesat_global_kind kind) {
  for (int i = 0; i < p->o.nspecs; i++)
    if (p->o.specs[i].kind == kind)
      return true;
  return false;
}

/* A refusal says what it cannot keep. */
static void expect_refusal(const problem *p, const char *what,
                           const tilesat_error *err) {
  cr_expect(strstr(err->msg, "cannot keep"), "%s: %s failed: %s", p->desc, what,
            err->msg);
}

/* ---------------------------------------------------------- the commands */

static void agree_check(const problem *p) {
  int tiles[OWN_MAX_CELLS];
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_error err;
    int res = tilesat_check(p->m, SOLVE(backends[b]), tiles, &err);
    cr_expect_eq(res, p->truth ? TILESAT_SAT : TILESAT_UNSAT,
                 "%s: check on %s says %d (%s), %ld maps", p->desc,
                 tilesat_backend_name(backends[b]), res, res < 0 ? err.msg : "",
                 p->truth);
    if (res == TILESAT_SAT)
      cr_expect(own_valid(p->r, &p->o, tiles),
                "%s: check's witness on %s is not valid", p->desc,
                tilesat_backend_name(backends[b]));
  }
}

static void agree_count(const problem *p) {
  static const tilesat_method methods[] = {
      TILESAT_METHOD_DP, TILESAT_METHOD_ENUM, TILESAT_METHOD_AUTO};
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = methods[i];
    tilesat_count_result res;
    tilesat_error err;
    if (tilesat_count(p->m, &o, &res, &err)) {
      /* only the dp may refuse, and only a path */
      cr_expect(methods[i] != TILESAT_METHOD_ENUM &&
                    has_kind(p, TILESAT_GLOBAL_PATH),
                "%s: count --method %s failed: %s", p->desc,
                tilesat_method_name(methods[i]), err.msg);
      expect_refusal(p, tilesat_method_name(methods[i]), &err);
      continue;
    }
    cr_expect(res.count && atol(res.count) == p->truth,
              "%s: count --method %s says %s, %ld maps", p->desc,
              tilesat_method_name(methods[i]),
              res.count ? res.count : "no count", p->truth);
    tilesat_count_result_free(&res);
  }
}

typedef struct seen {
  const problem *p;
  long n, bad;
} seen;

static int see(void *user, const int *tiles) {
  seen *s = user;
  s->n++;
  s->bad += !own_valid(s->p->r, &s->p->o, tiles);
  return 0;
}

static void agree_enum(const problem *p) {
  seen s = {p, 0, 0};
  tilesat_error err;
  int64_t n = tilesat_enumerate(p->m, NULL, 0, see, &s, &err);
  cr_expect_eq(n, p->truth, "%s: enum says %lld (%s), %ld maps", p->desc,
               (long long)n, n < 0 ? err.msg : "", p->truth);
  cr_expect_eq(s.bad, 0, "%s: enum gave %ld maps that are not valid", p->desc,
               s.bad);
}

static void agree_sample(const problem *p) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  o.seed = 7;
  seen s = {p, 0, 0};
  tilesat_error err;
  int n = tilesat_sample(p->m, &o, 4, see, &s, &err);
  if (n < 0) {
    cr_expect(has_kind(p, TILESAT_GLOBAL_PATH), "%s: sample failed: %s",
              p->desc, err.msg);
    expect_refusal(p, "sample", &err);
    return;
  }
  cr_expect_eq(n, p->truth ? 4 : 0, "%s: sample drew %d, %ld maps", p->desc, n,
               p->truth);
  cr_expect_eq(s.bad, 0, "%s: sample drew %ld maps that are not valid", p->desc,
               s.bad);
}

/* UNSAT on its own, SAT with any one of its constraints dropped. */
static void expect_minimal(const problem *p, const tilesat_explanation *e) {
  size_t n = explanation_info(e).size;
  tilesat_constraint *cs = malloc((n + 1) * sizeof *cs);
  for (size_t i = 0; i < n; i++)
    cs[i] = *tilesat_explanation_constraint(e, i);
  tilesat_error err;
  cr_expect_eq(tilesat_constraints_check(p->m, NULL, cs, n, &err),
               TILESAT_UNSAT, "%s: the explanation is not UNSAT", p->desc);
  for (size_t skip = 0; skip < n; skip++) {
    tilesat_constraint *rest = malloc((n + 1) * sizeof *rest);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (i != skip)
        rest[k++] = cs[i];
    cr_expect_eq(
        tilesat_constraints_check(p->m, NULL, rest, k, &err), TILESAT_SAT,
        "%s: the explanation less constraint %zu is not SAT", p->desc, skip);
    free(rest);
  }
  free(cs);
}

static void agree_explain(const problem *p) {
  tilesat_explanation *e = NULL;
  tilesat_error err;
  int res = tilesat_explain(p->m, NULL, &e, &err);
  cr_expect_eq(res, p->truth ? TILESAT_SAT : TILESAT_UNSAT,
               "%s: explain says %d (%s), %ld maps", p->desc, res,
               res < 0 ? err.msg : "", p->truth);
  if (res == TILESAT_UNSAT && e)
    expect_minimal(p, e);
  tilesat_explanation_free(e);
}

static void agree_repair(const problem *p) {
  for (int keep_rules = 0; keep_rules < 2; keep_rules++) {
    tilesat_repairs *rep = NULL;
    tilesat_error err;
    int res = tilesat_repair(p->m, NULL, keep_rules, 1, &rep, &err);
    cr_expect_eq(res, p->truth ? TILESAT_SAT : TILESAT_UNSAT,
                 "%s: repair%s says %d (%s), %ld maps", p->desc,
                 keep_rules ? " --keep-rules" : "", res, res < 0 ? err.msg : "",
                 p->truth);
    if (rep)
      tilesat_repairs_free(rep);
  }
}

static void agree_collapse(const problem *p) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(p->m, &err);
  if (!c) {
    expect_refusal(p, "collapse", &err);
    return;
  }
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.guard = true;
  int tiles[OWN_MAX_CELLS];
  for (uint64_t seed = 1; seed <= 2; seed++) {
    co.seed = seed;
    int res = tilesat_collapse_run(c, &co, tiles, &err);
    cr_expect_eq(res, p->truth ? TILESAT_SAT : TILESAT_UNSAT,
                 "%s: collapse --guard says %d (%s), %ld maps", p->desc, res,
                 res < 0 ? err.msg : "", p->truth);
    if (res == TILESAT_SAT)
      cr_expect(own_valid(p->r, &p->o, tiles),
                "%s: the guarded collapse's map is not valid", p->desc);
  }
  tilesat_collapse_free(c);
}

static void agree_anneal(const problem *p, long *sat_starts) {
  tilesat_energy *e = tilesat_energy_new(p->m);
  tilesat_error err;
  if (tilesat_energy_prepare(e, &err)) {
    /* an exact count or pins the energy's counts cannot fit: only when no
     * map exists, or a constraint it cannot keep */
    cr_expect(!p->truth || strstr(err.msg, "cannot keep"),
              "%s: anneal refused: %s, %ld maps", p->desc, err.msg, p->truth);
    tilesat_energy_free(e);
    return;
  }
  tilesat_anneal_opts o;
  tilesat_anneal_defaults(&o);
  o.sweeps = 50;
  tilesat_anneal_stats st;
  int tiles[OWN_MAX_CELLS];
  int rc = tilesat_anneal(e, &o, tiles, &st, &err);
  cr_expect_eq(rc, 0, "%s: anneal failed: %s", p->desc, err.msg);
  if (!rc) {
    bool valid = own_valid(p->r, &p->o, tiles);
    /* a valid map when maps exist, else the clean-up's (or the start's)
     * UNSAT */
    cr_expect(!valid || p->truth, "%s: anneal's map valid, 0 maps", p->desc);
    if (p->truth)
      cr_expect(valid && st.violations == 0,
                "%s: anneal's map (clean-up %d, %ld violations) is not valid",
                p->desc, st.cleanup_result, st.violations);
    else
      cr_expect(st.cleanup_result == TILESAT_UNSAT && st.violations > 0,
                "%s: anneal's clean-up says %d (%ld violations), 0 maps",
                p->desc, st.cleanup_result, st.violations);
    if (st.sat_start == TILESAT_UNSAT)
      cr_expect_eq(p->truth, 0, "%s: anneal's start says UNSAT, %ld maps",
                   p->desc, p->truth);
    *sat_starts += st.sat_start != 0;
  }
  tilesat_energy_free(e);
}

/* tilesat_map_verify against the test's own check, on random fillings and
 * on every valid map with one cell changed (near misses). */
static int verify_near(void *user, const int *tiles) {
  const problem *p = user;
  int n = p->o.w * p->o.h, t[OWN_MAX_CELLS];
  for (int c = 0; c < n; c++) {
    if (p->o.masked[c])
      continue;
    for (int u = 0; u < p->T; u++) {
      memcpy(t, tiles, (size_t)n * sizeof *t);
      t[c] = u;
      char why[256];
      cr_expect_eq(tilesat_map_verify(p->m, t, why, sizeof why),
                   own_valid(p->r, &p->o, t),
                   "%s: verify says %s of a map one cell from a valid one",
                   p->desc, why);
    }
  }
  return 0;
}

static void agree_verify(const problem *p) {
  int n = p->o.w * p->o.h, t[OWN_MAX_CELLS];
  for (int k = 0; k < 32; k++) {
    for (int c = 0; c < n; c++)
      t[c] = p->o.masked[c] ? TILESAT_NO_TILE : (int)rnd((unsigned)p->T);
    cr_expect_eq(tilesat_map_verify(p->m, t, NULL, 0),
                 own_valid(p->r, &p->o, t), "%s: verify of a random filling",
                 p->desc);
  }
  tilesat_error err;
  cr_expect_geq(tilesat_enumerate(p->m, NULL, 0, verify_near, (void *)p, &err),
                0, "%s", err.msg);
}

/* Parts: their counts add up to the count, or parts refuse the map. */
static void agree_parts(const problem *p) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_ENUM;
  long sum = 0;
  for (int k = 1; k <= 3; k++) {
    tilesat_count_result res;
    tilesat_error err;
    if (tilesat_count_part(p->m, k, 3, &o, &res, &err)) {
      cr_expect(p->o.nspecs || p->nmasked, "%s: part %d of 3 failed: %s",
                p->desc, k, err.msg);
      expect_refusal(p, "count --part", &err);
      return;
    }
    sum += atol(res.count);
    tilesat_count_result_free(&res);
  }
  cr_expect_eq(sum, p->truth, "%s: the parts add up to %ld, %ld maps", p->desc,
               sum, p->truth);
}

static int cases(int dflt) {
  const char *s = getenv("TILESAT_AGREE_CASES");
  return s && atoi(s) > 0 ? atoi(s) : dflt;
}

/* Every command in the library, on a few hundred problems. */
Test(agree, every_command_answers_as_the_count_of_all_fillings,
     .timeout = 300) {
  test_rng = 2026;
  int n = cases(400);
  long sat = 0, unsat = 0, globals[4] = {0}, masked = 0, sat_starts = 0;
  for (int iter = 0; iter < n; iter++) {
    problem p;
    problem_new(&p, iter);
    agree_check(&p);
    agree_count(&p);
    agree_enum(&p);
    agree_sample(&p);
    agree_explain(&p);
    agree_repair(&p);
    agree_collapse(&p);
    agree_anneal(&p, &sat_starts);
    agree_verify(&p);
    agree_parts(&p);
    sat += p.truth > 0;
    unsat += p.truth == 0;
    masked += p.nmasked > 0;
    for (int i = 0; i < p.o.nspecs; i++)
      globals[p.o.specs[i].kind]++;
    problem_free(&p);
  }
  /* the cases are not all one way: both answers, every kind, masks */
  cr_expect(sat > n / 5 && unsat > n / 10, "SAT %ld, UNSAT %ld", sat, unsat);
  for (int k = 0; k < 4; k++)
    cr_expect_gt(globals[k], n / 20, "constraints of kind %d: %ld", k,
                 globals[k]);
  cr_expect_gt(masked, n / 10);
  /* anneal's own start cannot meet every problem's counts and bans */
  cr_expect_gt(sat_starts, n / 50, "%ld", sat_starts);
}

/* ------------------------------------------------------ the command line */

/* The problem's rules and constraints as files in dir. */
static void write_files(const problem *p, const char *dir, char *rules,
                        char *cons, size_t size) {
  snprintf(rules, size, "%s/r.rules", dir);
  FILE *f = fopen(rules, "w");
  cr_assert(f);
  tilesat_rules_write(p->r, f);
  fclose(f);
  snprintf(cons, size, "%s/c.constraints", dir);
  f = fopen(cons, "w");
  cr_assert(f);
  fprintf(f, "tilesat-constraints 1\n%s", p->lines);
  fclose(f);
}

/* check, count, enum, explain, repair, collapse --guard sat and anneal
 * through the binary: exit 10 / 20 (count: the last line) as the truth
 * says, or a refusal (exit 1, "cannot keep") where the command cannot keep
 * a constraint.  The sanitizer pass (test_cases halved) runs the first
 * half of the problems: every topology and wrap still (they cycle every
 * 6), each command on each. */
Test(agree_cli, the_commands_exit_as_the_count_of_all_fillings,
     .timeout = 300) {
  test_rng = 4242;
  int n = test_cases(cases(400) / 10);
  char *dir = temp_dir();
  for (int iter = 0; iter < n; iter++) {
    problem p;
    problem_new(&p, iter);
    if (p.nmasked) { /* masks come from a file of their own: left to the
                        library half */
      problem_free(&p);
      continue;
    }
    char rules[256], cons[256], size[16];
    write_files(&p, dir, rules, cons, sizeof rules);
    snprintf(size, sizeof size, "%dx%d", p.o.w, p.o.h);
    const char *argv[32];
    int k = 0;
    const char *cmds[] = {"check",    "enum",  "explain", "repair",
                          "collapse", "count", "anneal"};
    for (size_t ci = 0; ci < sizeof cmds / sizeof *cmds; ci++) {
      k = 0;
      argv[k++] = cmds[ci];
      argv[k++] = rules;
      argv[k++] = "--size";
      argv[k++] = size;
      argv[k++] = "--constraints";
      argv[k++] = cons;
      if (p.o.periodic)
        argv[k++] = "--periodic";
      char pins[OWN_MAX_CELLS][32];
      for (int c = 0; c < p.o.w * p.o.h; c++)
        if (p.o.pin[c] >= 0) {
          snprintf(pins[c], sizeof pins[c], "%d,%d=%s", c / p.o.w, c % p.o.w,
                   tilesat_rules_tile_name(p.r, p.o.pin[c]));
          argv[k++] = "--pin";
          argv[k++] = pins[c];
        }
      if (!strcmp(cmds[ci], "collapse")) {
        argv[k++] = "--guard";
        argv[k++] = "sat";
      }
      if (!strcmp(cmds[ci], "anneal")) {
        argv[k++] = "--sweeps";
        argv[k++] = "50";
      }
      argv[k] = NULL;
      run_result r = run_cli(argv);
      /* anneal: a map, exit 0 (README: anneal's exits are 0 / 20) */
      int want = p.truth ? (strcmp(cmds[ci], "anneal") ? 10 : 0) : 20;
      if (!strcmp(cmds[ci], "count")) {
        const char *last = r.out + strlen(r.out);
        while (last > r.out && last[-1] == '\n')
          last--;
        while (last > r.out && last[-1] != '\n')
          last--;
        if (r.code == 0)
          cr_expect_eq(atol(last), p.truth, "%s: count printed %s", p.desc,
                       r.out);
        else
          cr_expect(r.code == 1 && strstr(r.err, "cannot keep"),
                    "%s: count exit %d: %s", p.desc, r.code, r.err);
      } else if (!strcmp(cmds[ci], "repair") && !p.truth) {
        /* repairs found (0), or none exists (20) */
        cr_expect(r.code == 0 || r.code == 20, "%s: repair exit %d: %s%s",
                  p.desc, r.code, r.out, r.err);
      } else if (r.code == 1) {
        cr_expect(strstr(r.err, "cannot keep"), "%s: %s exit 1: %s", p.desc,
                  cmds[ci], r.err);
      } else {
        cr_expect_eq(r.code, want, "%s: %s exit %d, %ld maps: %s%s", p.desc,
                     cmds[ci], r.code, p.truth, r.out, r.err);
      }
      run_free(&r);
    }
    problem_free(&p);
  }
  rm_dir(dir);
}
