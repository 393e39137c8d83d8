/* cmd_analyze.c: tilesat analyze RULES: a report on a rule set (border-only
 * and unused tiles, the sizes from 1x1 to --max that have a map). */
#include "cli.h"

int cmd_analyze(options *o) {
  tilesat_error err;
  tilesat_solve_options so;
  if (o->args.n != 1) {
    fail("analyze takes one rules file (see 'tilesat analyze --help')");
    return EXIT_ERROR;
  }
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  tilesat_rules *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!r)
    return fail_err(&err);
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
  int rc = 0;
  tilesat_analysis *a =
      tilesat_analyze(r, (int)o->max, topo, o->periodic, &so, &err);
  if (!a) {
    rc = fail_solve(o, &err);
  } else {
    stop_hold(); /* the report whole */
    tilesat_analysis_write(a, stdout);
    stop_release();
    tilesat_analysis_free(a);
  }
  tilesat_rules_free(r);
  return rc;
}
