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
