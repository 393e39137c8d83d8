/* cmd_sample.c: tilesat sample RULES --size WxH: valid maps drawn
 * uniformly at random (dp: exactly; approx: within a tolerance; with
 * --part-split N, exactly, a part at a time). */
#include "cli.h"

int cmd_sample(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  count_progress pr = {0};
  int rc = counting_setup(o, &r, &m, &co, &pr);
  if (!rc &&
      (co.method == TILESAT_METHOD_ENUM || co.method == TILESAT_METHOD_BOUNDS ||
       co.method == TILESAT_METHOD_ESTIMATE)) {
    fail("--method: sample takes auto, dp, approx or chain");
    rc = EXIT_ERROR;
  }
  if (!rc && GIVEN(o, epsilon)) {
    if (co.epsilon < 1.71) {
      fail("--epsilon: sampling needs a tolerance of at least 1.71, not %g",
           o->epsilon);
      rc = EXIT_ERROR;
    }
    co.tolerance = co.epsilon;
  }
  if (!rc)
    rc = outputs_ready(o, m, true);
  if (!rc) {
    tilesat_error err;
    /* the last map goes out with the files, or not at all */
    map_sink sink = {.m = m,
                     .sheet = sheet_new(o, m),
                     .hold_at = (long)o->nsamples,
                     .progress = &pr,
                     .quiet = o->quiet};
    int got = o->part_split ? tilesat_sample_parts(m, &co, (int)o->part_split,
                                                   (int)o->nsamples,
                                                   map_sink_print, &sink, &err)
                            : tilesat_sample(m, &co, (int)o->nsamples,
                                             map_sink_print, &sink, &err);
    bool ok = got >= 0 && !stop_requested();
    if (ok)
      answer_begin();
    map_sink_end(&sink, ok);
    if (!ok) {
      rc = fail_solve(o, &err);
    } else if (got == 0) {
      printf("UNSAT\n");
      rc = 20;
    } else {
      if (o->quiet) /* the answer line, for the maps not printed */
        printf("SAT\n");
      rc = 10;
    }
    if (sheet_end(sink.sheet))
      rc = EXIT_ERROR;
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
