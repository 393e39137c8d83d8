/* Progress reports of long runs: the library's side (the solve options'
 * progress callback, called unthrottled; the CLI prints at most one line a
 * second, the first after a second).  check of a large map loaded its
 * clauses and solved in silence for a minute, and so did explain and
 * approx. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

typedef struct lines {
  int n, loading, shrinking, minimal, approx;
  int last_percent;
  bool percent_down;
} lines;

static void record(void *user, const char *line) {
  lines *l = user;
  l->n++;
  int pct;
  const char *p = strstr(line, ": ");
  if (!strncmp(line, "loading ", 8) && strstr(line, " clauses into ") && p &&
      sscanf(p + 2, "%d%%", &pct) == 1) {
    l->loading++;
    l->percent_down |= pct < l->last_percent;
    l->last_percent = pct;
  }
  l->shrinking += !strncmp(line, "shrinking around (", 18);
  l->minimal += !strncmp(line, "checking that the ", 18) &&
                strstr(line, " constraints are minimal: ") != NULL;
  l->approx +=
      !strncmp(line, "approx: ", 8) && strstr(line, " XOR rows: ") != NULL;
}

/* coast 300x300: over a million clauses, loaded with a report every 2^20
 * literals, in order. */
Test(progress, check_reports_loading_its_clauses) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 300, 300, TILESAT_SQUARE, false);
  for (int b = 0; b < NBACKENDS; b++) {
    lines l = {0};
    tilesat_solve_options so = {
        .backend = backends[b], .progress = record, .progress_user = &l};
    tilesat_error err;
    cr_assert_eq(tilesat_check(m, &so, NULL, &err), TILESAT_SAT, "%s", err.msg);
    cr_expect_geq(l.loading, 3, "%s: %d loading lines",
                  tilesat_backend_name(backends[b]), l.loading);
    cr_expect(!l.percent_down);
    cr_expect_lt(l.last_percent, 100);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* explain says which constraints it is shrinking and checking (the
 * search's own "solving with" lines: tests/test_backends.c). */
Test(progress, explain_reports_its_steps) {
  tilesat_rules *r = rules_from_file("rules/hard.rules");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  for (int b = 0; b < NBACKENDS; b++) {
    lines l = {0};
    tilesat_solve_options so = {
        .backend = backends[b], .progress = record, .progress_user = &l};
    tilesat_explanation *e;
    tilesat_error err;
    cr_assert_eq(tilesat_explain(m, &so, &e, &err), TILESAT_UNSAT, "%s",
                 err.msg);
    cr_expect_gt(l.shrinking, 0);
    cr_expect_gt(l.minimal, 0);
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* approx says how far each bounded enumeration has got. */
Test(progress, approx_reports_its_cells) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 4, 4, TILESAT_SQUARE, false);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_APPROX;
  lines l = {0};
  o.progress = record;
  o.progress_user = &l;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_expect_gt(l.approx, 0);
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

typedef struct collapse_lines {
  int n, cells, windows, blocks;
  long most_repairs, N;
  bool over;
} collapse_lines;

static void record_collapse(void *user, const char *line) {
  collapse_lines *l = user;
  l->n++;
  long k, n, repairs;
  if (sscanf(line, "%ld of %ld cells decided", &k, &n) == 2) {
    l->cells++;
    l->over |= k < 0 || k > l->N || n != l->N;
  }
  /* ", B exact ban(s), R block repair(s)" */
  const char *bans = strstr(line, " exact ban");
  const char *comma = bans ? strchr(bans, ',') : NULL;
  if (comma && sscanf(comma, ", %ld block repair", &repairs) == 1 &&
      repairs > l->most_repairs)
    l->most_repairs = repairs;
  l->windows += strstr(line, "; the guard: looking for a doom in a ") != NULL;
  l->blocks += strstr(line, "; the guard: repairing blocks") != NULL;
}

/* A guarded collapse says where it is (cells decided, exact bans, block
 * repairs) and what the guard is doing, through the solve options'
 * progress; a block's own collapser speaks as the run it repairs.  The
 * callback changes nothing: the same maps without it.  (A guarded 256x256
 * Castle was silent for 11 s of block repairs.) */
Test(progress, guarded_collapse_reports_its_cells_and_the_guard) {
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(
      "tests/data/wfc/tilesets/Castle.xml", NULL, NULL, &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, 32, 32, TILESAT_SQUARE, false);
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  int quiet[1024], told[1024];
  collapse_lines l = {.N = 1024};
  long repairs = 0;
  for (uint64_t seed = 1; seed <= 10; seed++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = seed;
    o.guard = TILESAT_GUARD_AUTO;
    o.guard_budget = 1;
    int a = tilesat_collapse_run(c, &o, quiet, &err);
    cr_assert_geq(a, 0, "%s", err.msg);
    o.solve.progress = record_collapse;
    o.solve.progress_user = &l;
    int b = tilesat_collapse_run(c, &o, told, &err);
    cr_expect_eq(a, b, "seed %llu", (unsigned long long)seed);
    if (a == TILESAT_SAT && b == TILESAT_SAT)
      cr_expect_eq(memcmp(quiet, told, sizeof quiet), 0, "seed %llu",
                   (unsigned long long)seed);
    repairs += collapse_info(c).repairs;
  }
  cr_expect_gt(repairs, 0, "no block repair: the test tests nothing");
  cr_expect_gt(l.cells, 10, "%d lines of cells decided", l.cells);
  cr_expect(!l.over, "a count of cells outside 0..1024");
  cr_expect_gt(l.windows, 0, "never said it looked for a doom");
  cr_expect_gt(l.blocks, 0, "never said it repaired blocks");
  cr_expect_gt(l.most_repairs, 0, "never counted a block repair");
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------ the command line's -n runs */

/* Every progress line at once (TILESAT_PROGRESS=all), not the first after
 * a second: no test waits for one. */
static void every_line(void) { setenv("TILESAT_PROGRESS", "all", 1); }

static run_result run_every(const char *const *args) {
  return run_cli_with(args, 0, 0, every_line);
}

/* The lines "PREFIX k of N[, about T s left] (S s)" in err (a run's own
 * lines after "; " are not counted), the time left from k = `from` on:
 * their k in order into ks (at most 16), how many; -1 if one is not of
 * that form. */
static int runs_said(const char *err, const char *prefix, long n, long from,
                     long *ks) {
  int count = 0;
  size_t plen = strlen(prefix);
  for (const char *line = err; *line; line = strchr(line, '\n') + 1) {
    size_t len = strcspn(line, "\n");
    if (!line[len])
      return -1; /* a line without its end */
    if (strncmp(line, prefix, plen) || memchr(line, ';', len))
      continue;
    long k, of;
    double left = -1, secs;
    int end = 0;
    const char *p = line + plen;
    if (sscanf(p, "%ld of %ld, about %lf s left (%lf s)%n", &k, &of, &left,
               &secs, &end) != 4 &&
        sscanf(p, "%ld of %ld (%lf s)%n", &k, &of, &secs, &end) != 3)
      return -1;
    if (p + end != line + len || of != n || count == 16 ||
        (k >= from) != (left >= 0))
      return -1;
    ks[count++] = k;
  }
  return count;
}

/* collapse -n, --sizes, sample -n and run-samples say which run (map) of
 * how many they are at, and from the second on the time left; the output
 * is the same as without. */
Test(progress, runs_say_run_k_of_n) {
  const char *const collapse[] = {
      "collapse", "rules/coast.rules", "--size", "4x4", "-n", "3", NULL};
  run_result quiet = run_cli(collapse), r = run_every(collapse);
  cr_expect_eq(r.code, quiet.code);
  const char *median = "median time per run: "; /* the rest is the same */
  cr_assert(strstr(r.out, median) && strstr(quiet.out, median));
  cr_expect_eq(strstr(r.out, median) - r.out,
               strstr(quiet.out, median) - quiet.out);
  cr_expect_eq(
      strncmp(r.out, quiet.out, (size_t)(strstr(r.out, median) - r.out)), 0,
      "%s", r.out);
  cr_expect_str_eq(quiet.err, "");
  long ks[16];
  cr_expect_eq(runs_said(r.err, "tilesat: collapse: run ", 3, 2, ks), 3, "%s",
               r.err);
  cr_expect(ks[0] == 1 && ks[1] == 2 && ks[2] == 3, "%s", r.err);
  /* the run's own lines say which run they are of */
  cr_expect(strstr(r.err, "tilesat: collapse: run 1 of 3; 0 of 16 cells "
                          "decided (") != NULL,
            "%s", r.err);
  run_free(&quiet);
  run_free(&r);

  r = run_every((const char *const[]){"collapse", "rules/coast.rules",
                                      "--sizes", "3,4", "-n", "2", NULL});
  cr_expect_eq(runs_said(r.err, "tilesat: collapse: 3x3: run ", 2, 2, ks), 2,
               "%s", r.err);
  cr_expect_eq(runs_said(r.err, "tilesat: collapse: 4x4: run ", 2, 2, ks), 2,
               "%s", r.err);
  run_free(&r);

  const char *const sample[] = {
      "sample", "rules/coast.rules", "--size", "3x3", "-n", "3", NULL};
  quiet = run_cli(sample);
  r = run_every(sample);
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(r.out, quiet.out);
  /* said as map k starts (after k-1), the time left from the third */
  cr_expect_eq(runs_said(r.err, "tilesat: map ", 3, 3, ks), 2, "%s", r.err);
  cr_expect(ks[0] == 2 && ks[1] == 3, "%s", r.err);
  run_free(&quiet);
  run_free(&r);

  char *dir = temp_dir();
  r = run_every((const char *const[]){
      "run-samples", "tests/data/wfc/samples.xml", "--only", "Knots",
      "--max-size", "3", "-n", "2", "--out-dir", dir, NULL});
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect_eq(
      runs_said(r.err, "tilesat: run-samples: 05 Knots: run ", 2, 2, ks), 2,
      "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* check on a large map modifies in blocks (as collapse --guard modify),
 * and says so before it starts, then which block of how many it is at:
 * a 256x256 map of two tiles that allow each other everywhere (fast, no
 * calibration to speak of) with a pin answers SAT, its pin kept, and no
 * line goes without the block it is at. */
Test(progress, check_says_it_modifies_in_blocks) {
  char *rules = temp_file("tilesat-rules 1\ntopology square\ntile A 1\n"
                          "tile B 1\nallow A N A B\nallow A E A B\n"
                          "allow A S A B\nallow A W A B\nallow B N A B\n"
                          "allow B E A B\nallow B S A B\nallow B W A B\n",
                          -1);
  run_result r = run_every((const char *const[]){
      "check", rules, "--size", "256x256", "--pin", "100,100=B", NULL});
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_eq(r.out[4 + 100 * 257 + 100], 'B');
  cr_expect(strstr(r.err, "tilesat: check: a 256x256 map: modifying in "
                          "blocks (collapse --guard modify, seed 1) (") != NULL,
            "%.2000s", r.err);
  long last = 0, of = -1, said = 0;
  const char *key = "tilesat: check: modifying in blocks: block ";
  for (const char *p = strstr(r.err, key); p; p = strstr(p + 1, key)) {
    long k, n;
    int layer, layers;
    cr_assert_eq(sscanf(p + strlen(key), "%ld of %ld (layer %d of %d;", &k, &n,
                        &layer, &layers),
                 4, "%.200s", p);
    cr_expect(k == last + 1 && (of < 0 || n == of), "%.200s", p);
    cr_expect(layer >= 1 && layer <= layers && layers == 4, "%.200s", p);
    last = k;
    of = n;
    said++;
  }
  cr_expect_gt(said, 100, "%.2000s", r.err);
  cr_expect_eq(last, of, "the last block said is the last of them");
  run_free(&r);
  remove(rules);
  free(rules);
}

/* enum said nothing while it listed (Castle 4x4 -q: 111 M maps, silent
 * for minutes): it says how many maps so far, the rate once it has one,
 * and what stops it early or counts them instead; with --limit, of how
 * many at most.  -q leaves stdout's maps off, not stderr's progress. */
Test(progress, enum_says_maps_so_far) {
  const char *const args[] = {
      "enum", "rules/coast.rules", "--size", "3x3", "--pin", "2,2=L", "-q",
      NULL};
  run_result quiet = run_cli(args), r = run_every(args);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, quiet.out);
  cr_expect_str_eq(quiet.out, "maps: 5\n");
  const char *hint = "; --limit N stops after N, and 'tilesat count' gives "
                     "how many without listing them (";
  long k = 0;
  for (const char *p = r.err; (p = strstr(p, "tilesat: enum: ")); p++) {
    long n;
    int end = 0;
    sscanf(p, "tilesat: enum: %ld maps so far%n", &n, &end);
    if (!end)
      sscanf(p, "tilesat: enum: %ld map so far%n", &n, &end);
    if (!end)
      continue;
    cr_expect_eq(n, k + 1, "%.200s", p);
    const char *rest = p + end;
    if (!strncmp(rest, ", ", 2)) /* the rate, once half a second passed */
      rest = strchr(rest, ';');
    cr_expect(rest && !strncmp(rest, hint, strlen(hint)), "%.200s", p);
    k = n;
  }
  cr_expect_eq(k, 5, "%s", r.err);
  run_free(&quiet);
  run_free(&r);
  const char *const limited[] = {
      "enum",  "rules/coast.rules", "--size", "3x3", "--pin",
      "2,2=L", "--limit",           "2",      "-q",  NULL};
  r = run_every(limited);
  cr_expect_str_eq(r.out, "maps: 2\n");
  cr_expect(strstr(r.err, "tilesat: enum: 1 map so far of at most 2 (") &&
                strstr(r.err, "tilesat: enum: 2 maps so far of at most 2 ("),
            "%s", r.err);
  cr_expect(!strstr(r.err, "--limit N"), "%s", r.err);
  run_free(&r);
}
