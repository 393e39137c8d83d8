/* cmd_explain.c: tilesat explain RULES --size WxH: why no map exists, a
 * minimal set of clashing constraints (exit 20), or SAT (exit 10); with
 * --all every minimal set (up to --limit), with --smallest one of the
 * fewest constraints, with --prefer the one an order of blame picks. */
#include "cli.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_LIMIT 10 /* --all's */

/* o->window: the cells the explanations name and a margin around them,
 * on a map larger than 32x32 without --whole; a global constraint (the
 * whole map's) names no cell of its own: the cells of the rest of the
 * clash are shown (the whole map when it has none). */
static void clash_window(options *o, const tilesat_map *m,
                         tilesat_explanation *const *es, size_t n) {
  struct {
    int *v;
    size_t n;
  } all = {NULL, 0};
  for (size_t k = 0; k < n; k++) {
    const int *cells = explanation_info(es[k]).cells;
    size_t nc = explanation_info(es[k]).ncells;
    int *more = realloc(all.v, (all.n + nc + 1) * sizeof *more);
    if (!more)
      break;
    all.v = more;
    if (nc) /* (a global constraint names no cell: cells may be NULL) */
      memcpy(all.v + all.n, cells, nc * sizeof *cells);
    all.n += nc;
  }
  crop_around(o, m, all.v, all.n);
  free(all.v);
}

/* explain's progress: the solver's "solving with NAME", polled all along
 * each solve, is said as part of the step explain is at ("STEP; solving
 * with cadical"), and a line the same as the last one said waits
 * SAME_LINE_SECONDS (a dungeon 64x64 with a connected floor said "solving
 * with cadical" 34 times over, one a second). */
#define SAME_LINE_SECONDS 10

typedef struct explain_said {
  count_progress p;
  char step[160], last[320];
  double last_at;
} explain_said;

static void explain_progress(void *user, const char *line) {
  explain_said *s = user;
  char full[320];
  if (!strncmp(line, "solving with ", 13) && *s->step)
    snprintf(full, sizeof full, "%s; %s", s->step, line);
  else
    snprintf(full, sizeof full, "%s", line);
  if (strncmp(line, "solving with ", 13))
    snprintf(s->step, sizeof s->step, "%s", line);
  double now = mono_seconds();
  if (!strcmp(full, s->last) && now - s->last_at < SAME_LINE_SECONDS)
    return;
  struct timespec before = s->p.last;
  bool printed = s->p.printed;
  progress_report(&s->p, full);
  if (s->p.printed != printed || before.tv_sec != s->p.last.tv_sec ||
      before.tv_nsec != s->p.last.tv_nsec) {
    snprintf(s->last, sizeof s->last, "%s", full);
    s->last_at = now;
  }
}

/* The cells the explanations name, framed in --png. */
static int draw_cells(options *o, const tilesat_map *m,
                      tilesat_explanation *const *es, size_t n) {
  const tilesat_map_info mi = map_info(m);
  size_t ncells = (size_t)mi.width * (size_t)mi.height;
  uint8_t *mark = calloc(ncells, sizeof *mark);
  for (size_t k = 0; mark && k < n; k++) {
    const int *cells = explanation_info(es[k]).cells;
    size_t nc = explanation_info(es[k]).ncells;
    for (size_t i = 0; i < nc; i++)
      mark[cells[i]] = TILESAT_MARK_CLASH;
  }
  int rc = domains_png(o, m, NULL, NULL, mark, NULL, 0);
  free(mark);
  return rc;
}

/* --smallest or --prefer (at most one), or the plain explanation. */
static int explain_one(const options *o, const tilesat_map *m,
                       const tilesat_solve_options *so, tilesat_explanation **e,
                       tilesat_error *err) {
  if (o->smallest)
    return tilesat_explain_smallest(m, so, e, err);
  if (!o->prefer)
    return tilesat_explain(m, so, e, err);
  tilesat_blame order[TILESAT_NBLAMES];
  if (tilesat_blame_parse(o->prefer, order, err))
    return -1;
  return tilesat_explain_preferred(m, so, order, e, err);
}

/* The answer (rc: TILESAT_SAT, or TILESAT_UNSAT with the n
 * explanations es) in words or JSON, and the cells drawn; rc, or
 * EXIT_ERROR. */
static int print_answer(options *o, const tilesat_map *m, int rc,
                        tilesat_explanation *const *es, size_t n,
                        bool complete) {
  cJSON *doc =
      o->format && !strcmp(o->format, "json") ? cJSON_CreateObject() : NULL;
  reply r = reply_for(doc);
  if (rc == TILESAT_SAT) {
    report_explain_reply(&r, m, es, 0, false, false, NULL);
    reply_end(&r);
    return doc && report_json_print(doc) ? EXIT_ERROR : rc;
  }
  tilesat_explanation_info ei = {0};
  if (n)
    ei = explanation_info(es[0]);
  if (ei.window)
    fprintf(stderr,
            "tilesat: explain: the whole %dx%d map's solver would not fit in "
            "--max-memory: explaining within the %dx%d window at rows %d-%d, "
            "columns %d-%d that refutes the pins\n",
            map_info(m).width, map_info(m).height, ei.cols, ei.rows, ei.row0,
            ei.row0 + ei.rows - 1, ei.col0, ei.col0 + ei.cols - 1);
  clash_window(o, m, es, n);
  report_explain_reply(&r, m, es, n, o->all, complete, o->window);
  reply_end(&r);
  if (doc && report_json_print(doc))
    rc = EXIT_ERROR;
  if (draw_cells(o, m, es, n))
    rc = EXIT_ERROR;
  return rc;
}

int cmd_explain(options *o) {
  const char *bad = o->all + o->smallest + (o->prefer != NULL) > 1
                        ? "--all, --smallest and --prefer are three ways to "
                          "explain; give one"
                    : GIVEN(o, limit) && !o->all ? "--limit goes with --all"
                                                 : NULL;
  if (bad) {
    fail("explain: %s", bad);
    return EXIT_ERROR;
  }
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_solve_options so;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc)
    rc = parse_backend(o, &so);
  static explain_said said; /* the progress lines' */
  if (!rc) {
    progress_start(&said.p, o->command);
    so.progress = explain_progress;
    so.progress_user = &said;
    lazy_backend(o, m, &so);
    tilesat_error err;
    tilesat_explanation *one = NULL, **es = &one;
    size_t n = 0;
    bool complete = true;
    if (o->all) {
      rc = tilesat_explain_all(m, &so,
                               GIVEN(o, limit) ? o->limit : DEFAULT_LIMIT, &es,
                               &n, &complete, &err);
    } else {
      rc = explain_one(o, m, &so, &one, &err);
      n = one != NULL;
    }
    if (rc == TILESAT_SAT || rc == TILESAT_UNSAT)
      rc = print_answer(o, m, rc, es, n, complete);
    else
      rc = fail_solve(o, &err);
    if (o->all)
      tilesat_explanations_free(es, n);
    else
      tilesat_explanation_free(one);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
