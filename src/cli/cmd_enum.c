/* cmd_enum.c: tilesat enum RULES --size WxH: every valid map (or the first
 * --limit N), then 'maps: N'; exit 10 if any, 20 if none. */
#include "cli.h"

int cmd_enum(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_solve_options so;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &so);
  if (!rc) {
    lazy_backend(o, m, &so);
    tilesat_error err;
    map_sink ctx = {m, sheet_new(o, m)};
    tilesat_solve_stats stats = {0};
    so.stats = &stats;
    int64_t n = tilesat_enumerate(m, &so, (int64_t)o->limit, map_sink_print,
                                  &ctx, &err);
    cut_report(o, m, &stats);
    if (n < 0 || stop_requested()) {
      rc = fail_solve(o, &err);
    } else {
      printf("maps: %lld\n", (long long)n);
      rc = n > 0 ? TILESAT_SAT : TILESAT_UNSAT;
    }
    if (sheet_end(ctx.sheet))
      rc = EXIT_ERROR;
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
