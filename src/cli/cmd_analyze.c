/* cmd_analyze.c: tilesat analyze RULES: a report on a rule set (border-only
 * and unused tiles, the sizes from 1x1 to --max that have a map); with
 * --chunk K, whether every valid border of a KxK chunk has a filling. */
#include "cli.h"
#include "report.h"

#include <stdlib.h>

/* One chunk size: its line, and the border that has no filling (kept in
 * *frame and *border for --png).  1 complete, 0 not, or EXIT_ERROR. */
static int chunk_size(options *o, const tilesat_rules *r, int k,
                      tilesat_topology topo, tilesat_solve_options *so,
                      tilesat_map **frame, int **border) {
  tilesat_error err;
  tilesat_map *f = tilesat_chunk_frame(r, k, topo, &err);
  if (!f) {
    fail_err(&err);
    return -1;
  }
  int *b = malloc((size_t)(k + 2) * (size_t)(k + 2) * sizeof *b);
  if (!b) {
    fail("out of memory");
    abort();
  }
  long n;
  int res = tilesat_chunk_check(r, k, topo, so, b, &n, &err);
  if (res < 0) {
    free(b);
    tilesat_map_free(f);
    fail_solve(o, &err);
    return -1;
  }
  stop_hold(); /* the answer whole */
  if (res) {
    printf("complete at %d: every valid border of a %dx%d chunk has a filling "
           "(%ld refutation%s%s)\n",
           k, k, k, n, n == 1 ? "" : "s",
           n ? "" : ": the rules allow no border at all");
    free(b);
    tilesat_map_free(f);
  } else {
    printf("not complete at %d: no filling completes this border of a %dx%d "
           "chunk (%ld refutation%s before it; %s marks the chunk):\n",
           k, k, k, n, n == 1 ? "" : "s", tilesat_chunk_free_name(r));
    tilesat_chunk_write(f, b, stdout);
    tilesat_map_free(*frame);
    free(*border);
    *frame = f;
    *border = b;
  }
  stop_release();
  return res;
}

/* --chunk K [--chunk-max M]: each size from K until one is complete. */
static int chunks(options *o, const tilesat_rules *r, tilesat_topology topo,
                  tilesat_solve_options *so) {
  int k0 = (int)o->chunk, k1 = GIVEN(o, chunk_max) ? (int)o->chunk_max : k0;
  if (k1 < k0) {
    fail("--chunk-max: %d is less than --chunk %d", k1, k0);
    return EXIT_ERROR;
  }
  if (o->png) { /* the largest frame drawn, before any work */
    tilesat_error err;
    tilesat_map *f = tilesat_chunk_frame(r, k1, topo, &err);
    int rc = f ? outputs_ready(o, f, false) : fail_err(&err);
    tilesat_map_free(f);
    if (rc)
      return EXIT_ERROR;
  }
  tilesat_map *frame = NULL;
  int *border = NULL, complete = 0, res = 0;
  for (int k = k0; k <= k1 && !complete && res >= 0; k++) {
    res = chunk_size(o, r, k, topo, so, &frame, &border);
    if (res > 0)
      complete = k;
  }
  int rc = res < 0 ? EXIT_ERROR : 0;
  if (!rc && k1 > k0) {
    if (complete)
      printf("smallest complete chunk: %dx%d\n", complete, complete);
    else
      printf("no chunk size from %d to %d is complete\n", k0, k1);
  }
  if (!rc && frame)
    rc = map_outputs(o, frame, border);
  free(border);
  tilesat_map_free(frame);
  return rc;
}

int cmd_analyze(options *o) {
  tilesat_error err;
  tilesat_solve_options so;
  if (o->args.n != 1) {
    fail("analyze takes one rules file (see 'tilesat analyze --help')");
    return EXIT_ERROR;
  }
  if (GIVEN(o, chunk) && (o->periodic || GIVEN(o, max))) {
    fail("%s: not with --chunk (a chunk is not a map of its own)",
         o->periodic ? "--periodic" : "--max");
    return EXIT_ERROR;
  }
  if (!GIVEN(o, chunk) && (GIVEN(o, chunk_max) || o->png)) {
    fail("%s: only with --chunk K", o->png ? "--png" : "--chunk-max");
    return EXIT_ERROR;
  }
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  tilesat_rules *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!r)
    return fail_err(&err);
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
  int rc = 0;
  if (GIVEN(o, chunk)) {
    rc = chunks(o, r, topo, &so);
    tilesat_rules_free(r);
    return rc;
  }
  tilesat_analysis *a =
      tilesat_analyze(r, (int)o->max, topo, o->periodic, &so, &err);
  if (!a) {
    rc = fail_solve(o, &err);
  } else {
    stop_hold(); /* the report whole */
    report_analysis(a, stdout);
    stop_release();
    tilesat_analysis_free(a);
  }
  tilesat_rules_free(r);
  return rc;
}
