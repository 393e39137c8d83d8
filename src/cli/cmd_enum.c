/* cmd_enum.c: tilesat enum RULES --size WxH: every valid map (or the first
 * --limit N), then 'maps: N'; exit 10 if any, 20 if none.  With --part
 * K/N, the maps of that part only. */
#include "cli.h"

int cmd_enum(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL, *part = NULL;
  tilesat_solve_options so;
  tilesat_error err;
  int rc = load_map(o, &r, &m), k = 0, n = 0;
  if (!rc)
    rc = outputs_ready(o, m, true);
  if (!rc)
    rc = parse_backend(o, &so);
  if (!rc && o->part &&
      (parse_part(o, &k, &n) || tilesat_map_part(m, k, n, &part, &err)))
    rc = EXIT_ERROR; /* parse_part says why; the part is in range */
  if (!rc) {
    lazy_backend(o, m, &so);
    count_progress said;
    progress_start(&said, o->command);
    map_sink ctx = {.m = m,
                    .sheet = sheet_new(o, m),
                    .quiet = o->quiet,
                    .found = &said,
                    .limit = (long)o->limit};
    tilesat_solve_stats stats = {0};
    so.stats = &stats;
    int64_t found =
        k && !part ? 0 /* an empty part */
                   : tilesat_enumerate(k ? part : m, &so, (int64_t)o->limit,
                                       map_sink_print, &ctx, &err);
    cut_report(o, m, &stats);
    if (found < 0 || stop_requested()) {
      rc = fail_solve(o, &err);
    } else {
      answer_begin(); /* the count, when the files are in place */
      printf("maps: %lld\n", (long long)found);
      rc = found > 0 ? TILESAT_SAT : TILESAT_UNSAT;
    }
    if (sheet_end(ctx.sheet))
      rc = EXIT_ERROR;
  }
  tilesat_map_free(part);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
