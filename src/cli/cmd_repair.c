/* cmd_repair.c: tilesat repair RULES --size WxH: for a map with no valid
 * filling, the fewest pairs to allow (allow lines to paste, -o the
 * repaired rules file) or with --keep-rules the fewest pins to drop (the
 * pins too by default when they alone clash: the rules alone have a map;
 * --change-rules the pairs regardless); with --all every minimal repair
 * up to --limit.  Repairs: exit 0; the map
 * already has a filling: 10; no repair exists: 20. */
#include "cli.h"
#include "report.h"

#include <string.h>

#define DEFAULT_LIMIT 10

static void say_checked(const options *o, bool pins,
                        const tilesat_repairs *reps, const tilesat_map *m) {
  tilesat_repairs_info ri;
  tilesat_repairs_get(reps, &ri);
  size_t n = ri.count;
  const char *what = pins ? "pin" : "pair";
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  if (!o->all) {
    size_t k = tilesat_repair_size(reps, 0);
    const char *it = k > 1 ? "them" : "it";
    printf("# repair: %zu %s%s, the fewest; checked: %s %s a valid %dx%d map "
           "exists, and %s none does\n",
           k, what, k > 1 ? "s" : "", pins ? "without" : "with", it, w, h,
           pins ? (k > 1 ? "keeping any one of them" : "with it")
                : (k > 1 ? "without any one of them" : "without it"));
    if (*ri.found_in)
      printf("# found in %s, which has no filling with these pins\n",
             ri.found_in);
    return;
  }
  printf("# %zu minimal repair%s (%s), smallest first; each checked: a valid "
         "%dx%d map exists with it, and none with any one of its changes "
         "undone\n",
         n, n > 1 ? "s" : "", ri.complete ? "all there are" : "the limit", w,
         h);
}

static void print_repairs(const options *o, bool pins,
                          const tilesat_repairs *reps, const tilesat_map *m) {
  tilesat_repairs_info ri;
  tilesat_repairs_get(reps, &ri);
  size_t n = ri.count;
  const char *what = pins ? "pin" : "pair";
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  if (pins && !o->keep_rules)
    printf("# No valid %dx%d map with these pins, but the rules alone have "
           "one: %s (--change-rules: pairs to allow instead).\n",
           w, h,
           o->all ? "without the pins of any one repair below there is one"
                  : "without the pins below there is one");
  else if (pins)
    printf("# No valid %dx%d map with these pins; %s.\n", w, h,
           o->all ? "without the pins of any one repair below there is one"
                  : "without the pins below there is one");
  else
    printf("# No valid %dx%d map with these rules; allow the pairs %s (paste "
           "into %s).\n",
           w, h, o->all ? "of any one repair below" : "below", o->args.v[0]);
  for (size_t i = 0; i < n; i++) {
    size_t k = tilesat_repair_size(reps, i);
    if (o->all)
      printf("# repair %zu: %zu %s%s\n", i + 1, k, what, k > 1 ? "s" : "");
    report_repair(reps, i, m, stdout);
  }
  say_checked(o, pins, reps, m);
}

/* -o: the rules file with the first repair's pairs allowed. */
static int write_repaired(const options *o, const tilesat_repairs *reps) {
  if (!o->output)
    return 0;
  tilesat_rules *fixed = tilesat_rules_repaired(reps, 0);
  int rc = write_rules(o, fixed);
  tilesat_rules_free(fixed);
  return rc;
}

/* Pins first: without --keep-rules, -o or --change-rules, a map whose
 * pins alone clash (the rules alone have a map) gets the pins to drop.
 * 1 pins, 0 pairs, -1 error (said). */
static int pins_first(const options *o, const tilesat_map *m,
                      const tilesat_solve_options *so) {
  if (o->keep_rules)
    return 1;
  if (o->output || o->change_rules || !map_info(m).npins)
    return 0;
  tilesat_error err;
  int alone = tilesat_repair_rules_alone(m, so, &err);
  if (alone < 0)
    return fail_solve(o, &err), -1;
  return alone == TILESAT_SAT;
}

static bool repairs_none(const tilesat_repairs *reps) {
  tilesat_repairs_info ri;
  tilesat_repairs_get(reps, &ri);
  return ri.count == 0;
}

static int repair_map(options *o, const tilesat_map *m,
                      tilesat_solve_options *so) {
  int limit = !o->all ? 1 : GIVEN(o, limit) ? (int)o->limit : DEFAULT_LIMIT;
  tilesat_error err;
  tilesat_repairs *reps = NULL;
  /* pins that clash in a window first: their repair proves the rules
   * alone have a map, without pins_first's whole-map check (Castle
   * 1024x1024: 13 s of silence before the windows) */
  int rc = 0;
  if (limit == 1 && !o->output && !o->change_rules && map_info(m).npins)
    rc = tilesat_repair_pins_by_windows(m, so, &reps, &err);
  if (rc < 0)
    return fail_solve(o, &err);
  int first = rc ? 1 : pins_first(o, m, so);
  if (first < 0)
    return EXIT_ERROR;
  bool pins = first == 1;
  if (!rc)
    rc = tilesat_repair(m, so, pins, limit, &reps, &err);
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  if (rc == TILESAT_SAT) {
    printf("SAT: a valid %dx%d map exists, nothing to repair (see 'tilesat "
           "check').\n",
           w, h);
  } else if (rc == TILESAT_UNSAT && repairs_none(reps)) {
    if (pins)
      printf("UNSAT: no valid %dx%d map even with every pin dropped (%d "
             "pin%s): no repair by pins; try without --keep-rules.\n",
             w, h, map_info(m).npins, map_info(m).npins == 1 ? "" : "s");
    else
      printf("UNSAT: no valid %dx%d map even with every pair allowed: the "
             "pins, masks or global constraints clash on their own; try "
             "--keep-rules.\n",
             w, h);
  } else if (rc == TILESAT_UNSAT) {
    stop_hold(); /* the repairs whole */
    print_repairs(o, pins, reps, m);
    stop_release();
    rc = write_repaired(o, reps) ? EXIT_ERROR : 0;
  } else {
    rc = fail_solve(o, &err);
  }
  tilesat_repairs_free(reps);
  return rc;
}

int cmd_repair(options *o) {
  if (o->keep_rules && o->output) {
    fail("-o: --keep-rules changes no rules, there is no rules file to "
         "write");
    return EXIT_ERROR;
  }
  if (o->keep_rules && o->change_rules) {
    fail("--change-rules: --keep-rules keeps them; give one or the other");
    return EXIT_ERROR;
  }
  if (GIVEN(o, limit) && !o->all) {
    fail("--limit: only with --all");
    return EXIT_ERROR;
  }
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_solve_options so;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &so);
  if (!rc) {
    lazy_backend(o, m, &so);
    rc = repair_map(o, m, &so);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
