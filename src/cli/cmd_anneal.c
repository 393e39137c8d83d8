/* cmd_anneal.c: tilesat anneal RULES --size WxH [...]: a low-energy map.
 *
 * Standard output: the best map as a text grid, then
 *   energy: E
 *   violations: V
 *   count T: n (target t)       one line per tile
 * Standard error: progress (sweep, beta, energy, violations), a start the
 * SAT backend gave, what the SAT clean-up changed, the QUBO's offset, and
 * without a frequency term how far the counts are from their targets.
 * Exit 0 with a map, 20 when violations remain (no clean-up, or no valid
 * map exists with these pins and constraints), 1 on error. */
#include "cli.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void progress(void *user, int restart, long sweep, double beta,
                     double energy, long violations) {
  const options *o = user;
  if (GIVEN(o, restarts))
    fprintf(stderr, "restart %d of %llu ", restart + 1,
            (unsigned long long)o->restarts);
  fprintf(stderr, "sweep %ld beta %.4g energy %.10g violations %ld\n", sweep,
          beta, energy, violations);
}

/* The energy terms the options give, in order: file, then options. */
static int load_energy(const options *o, tilesat_energy *e) {
  tilesat_error err;
  if (o->energy && tilesat_energy_read_file(e, o->energy, &err))
    return fail_err(&err);
  const struct {
    const char *opt, *kw, *val;
  } lines[] = {{"--hard-weight", "hard", o->hard_weight},
               {"--frequency", "frequency", o->frequency},
               {"--coherence", "coherence", o->coherence},
               {"--palindrome", "palindrome", o->palindrome}};
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
    if (!lines[i].val)
      continue;
    char buf[512]; /* a TERM is one word of under 256 bytes */
    snprintf(buf, sizeof buf, "%s %s", lines[i].kw, lines[i].val);
    if (tilesat_energy_parse_line(e, buf, lines[i].opt, &err))
      return fail_err(&err);
  }
  if (tilesat_energy_prepare(e, &err))
    return fail_err(&err);
  return 0;
}

static int parse_run_options(const options *o, tilesat_anneal_opts *ao) {
  tilesat_anneal_defaults(ao);
  ao->sweeps = (long)o->sweeps;
  ao->restarts = (int)o->restarts;
  ao->replicas = (int)o->replicas;
  ao->seed = o->seed;
  if (GIVEN(o, beta)) {
    ao->beta_lo = o->beta.lo;
    ao->beta_hi = o->beta.hi;
  }
  return parse_backend(o, &ao->solve);
}

static int write_qubo(const options *o, const tilesat_energy *e) {
  tilesat_error err;
  out_file of;
  if (out_open(&of, o->qubo_out))
    return EXIT_ERROR;
  double offset;
  if (tilesat_energy_write_qubo(e, of.f, &offset, &err)) {
    if (ferror(of.f)) { /* a write error: out_close says which */
      out_close(&of, true);
      return EXIT_ERROR;
    }
    out_close(&of, false); /* refused: nothing left behind */
    return fail_err(&err);
  }
  if (out_close(&of, true))
    return EXIT_ERROR;
  fprintf(stderr, "qubo: %s: energy = qubo + %.17g\n", o->qubo_out, offset);
  return 0;
}

/* What the clean-up changed, cell by cell (the first 20). */
static void report_cleanup(const tilesat_map *m, const tilesat_anneal_stats *s,
                           const int *before, const int *after) {
  const tilesat_rules *r = map_info(m).rules;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, n = w * mi.height, shown = 0;
  fprintf(stderr,
          "cleanup: %ld violation%s after annealing; %ld cell%s changed in %d "
          "region%s (%s)\n",
          s->violations_annealed, s->violations_annealed == 1 ? "" : "s",
          s->cleaned_cells, s->cleaned_cells == 1 ? "" : "s",
          s->cleanup_regions, s->cleanup_regions == 1 ? "" : "s",
          s->cleanup_result != TILESAT_UNSAT ? "the map is valid"
          : map_info(m).npins ? "no valid map exists with these pins"
                              : "no valid map exists");
  for (int c = 0; c < n; c++)
    if (before[c] != after[c] && shown++ < 20)
      fprintf(stderr, "cleanup: (%d,%d) %s -> %s\n", c / w, c % w,
              shown_text(tilesat_rules_tile_name(r, before[c])),
              shown_text(tilesat_rules_tile_name(r, after[c])));
  if (shown > 20)
    fprintf(stderr, "cleanup: ... and %d more cells\n", shown - 20);
}

/* The map (but with --quiet), its energy, violations and tile counts,
 * whole. */
static void print_answer(const options *o, const tilesat_energy *e,
                         const tilesat_anneal_stats *st, const int *tiles) {
  tilesat_energy_info ei;
  tilesat_energy_get(e, &ei);
  const tilesat_map *m = ei.map;
  const tilesat_rules *r = map_info(m).rules;
  stop_hold(); /* the map and its report whole */
  if (!o->quiet)
    tilesat_map_write(m, tiles, stdout);
  printf("energy: %.10g\nviolations: %ld\n", st->energy, st->violations);
  const tilesat_map_info mi = map_info(m);
  size_t n = (size_t)mi.width * (size_t)mi.height;
  int T = tilesat_rules_ntiles(r);
  for (int t = 0; t < T; t++) {
    long count = 0;
    for (size_t c = 0; c < n; c++)
      count += tiles[c] == t;
    printf("count %s: %ld (target %" PRId64 ")\n",
           tilesat_rules_tile_name(r, t), count, tilesat_energy_target(e, t));
  }
  stop_release();
}

/* Without a frequency term the energy does not weigh the tiles' counts,
 * so it can be 0 with the counts far from their targets: said, with how
 * far (the cells that would have to change tile) and what weighs them. */
static void say_counts_unweighed(const tilesat_energy *e, const int *tiles) {
  tilesat_energy_info ei;
  tilesat_energy_get(e, &ei);
  const tilesat_map *m = ei.map;
  if (ei.frequency != 0 || ei.exact)
    return;
  const tilesat_map_info mi = map_info(m);
  size_t n = (size_t)mi.width * (size_t)mi.height;
  int T = tilesat_rules_ntiles(map_info(m).rules);
  int64_t off = 0;
  for (int t = 0; t < T; t++) {
    int64_t count = 0;
    for (size_t c = 0; c < n; c++)
      count += tiles[c] == t;
    int64_t d = count - tilesat_energy_target(e, t);
    off += d < 0 ? -d : d;
  }
  if (off)
    fprintf(stderr,
            "anneal: the tile counts are not in the energy (it has no "
            "frequency term): %" PRId64 " cell%s would have to change tile "
            "to meet their targets (the rules' weights, scaled to the map); "
            "--frequency W (or 'frequency W' in the energy file) weighs "
            "them\n",
            (off + 1) / 2, (off + 1) / 2 == 1 ? "" : "s");
}

int cmd_anneal(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_energy *e = NULL;
  int *tiles = NULL, *before = NULL;
  tilesat_anneal_opts ao;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc)
    rc = parse_run_options(o, &ao);
  tilesat_error err;
  if (!rc && tilesat_anneal_fits(m, &ao, &err))
    rc = fail_err(&err);
  if (!rc) {
    e = tilesat_energy_new(m);
    rc = load_energy(o, e);
  }
  if (!rc && o->qubo_out)
    rc = write_qubo(o, e);
  if (!rc) {
    const tilesat_map_info mi = map_info(m);
    size_t n = (size_t)mi.width * (size_t)mi.height;
    tiles = malloc(n * sizeof *tiles);
    before = malloc(n * sizeof *before);
    if (!tiles || !before) {
      fail("out of memory");
      rc = EXIT_ERROR;
    }
  }
  if (!rc) {
    tilesat_anneal_stats st;
    ao.progress = progress;
    ao.progress_user = o;
    ao.annealed = before;
    if (tilesat_anneal(e, &ao, tiles, &st, &err)) {
      rc = fail_solve(o, &err);
    } else {
      const char *none = map_info(m).npins
                             ? "no valid map exists with these pins"
                             : "no valid map exists";
      if (st.sat_start == TILESAT_SAT)
        fprintf(stderr, "anneal: no random start meets the global "
                        "constraints: the runs start from the SAT backend's "
                        "map\n");
      else if (st.sat_start)
        fprintf(stderr,
                "anneal: no random start meets the global constraints, and "
                "the SAT backend says %s\n",
                none);
      if (st.cleanup_regions)
        report_cleanup(m, &st, before, tiles);
      print_answer(o, e, &st, tiles);
      if (!st.violations && st.cleanup_result != TILESAT_UNSAT)
        say_counts_unweighed(e, tiles);
      rc = st.violations || st.cleanup_result == TILESAT_UNSAT ? TILESAT_UNSAT
                                                               : 0;
      if (map_outputs(o, m, tiles))
        rc = EXIT_ERROR;
    }
  }
  free(tiles);
  free(before);
  tilesat_energy_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
