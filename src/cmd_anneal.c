/* cmd_anneal.c: tilesat anneal RULES --size WxH [...]: a low-energy map.
 *
 * Standard output: the best map as a text grid, then
 *   energy: E
 *   violations: V
 *   count T: n (target t)       one line per tile
 * Standard error: progress (sweep, beta, energy, violations), what the SAT
 * repair changed, and the QUBO's offset.  Exit 0, or 20 when violations
 * remain because no valid map exists with these pins, 1 on error. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool parse_long(const char *s, long lo, long hi, long *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

static bool parse_beta(const char *s, double *lo, double *hi) {
  const char *colon = strchr(s, ':');
  if (!colon || colon == s || !colon[1])
    return false;
  char *end;
  errno = 0;
  *lo = strtod(s, &end);
  if (end != colon || errno)
    return false;
  *hi = strtod(colon + 1, &end);
  if (*end || errno)
    return false;
  return isfinite(*lo) && isfinite(*hi) && *lo > 0 && *hi >= *lo;
}

static void progress(void *user, int restart, long sweep, double beta,
                     double energy, long violations) {
  const options *o = user;
  if (o->restarts)
    fprintf(stderr, "restart %d ", restart + 1);
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
    char buf[512];
    if (strchr(lines[i].val, ' ') || strchr(lines[i].val, '\t') ||
        (size_t)snprintf(buf, sizeof buf, "%s %s", lines[i].kw, lines[i].val) >=
            sizeof buf) {
      fail("%s: '%s' is not a number", lines[i].opt, lines[i].val);
      return EXIT_ERROR;
    }
    if (tilesat_energy_option(e, lines[i].opt, buf, &err))
      return fail_err(&err);
  }
  if (tilesat_energy_prepare(e, &err))
    return fail_err(&err);
  return 0;
}

static int parse_run_options(const options *o, tilesat_anneal_opts *ao) {
  tilesat_anneal_defaults(ao);
  long v;
  if (o->sweeps) {
    if (!parse_long(o->sweeps, 1, 1000000000L, &v)) {
      fail("--sweeps: '%s' is not a whole number from 1 to 1000000000",
           o->sweeps);
      return EXIT_ERROR;
    }
    ao->sweeps = v;
  }
  if (o->restarts) {
    if (!parse_long(o->restarts, 1, 1000000, &v)) {
      fail("--restarts: '%s' is not a whole number from 1 to 1000000",
           o->restarts);
      return EXIT_ERROR;
    }
    ao->restarts = (int)v;
  }
  if (o->replicas) {
    if (!parse_long(o->replicas, 1, 64, &v)) {
      fail("--replicas: '%s' is not a whole number from 1 to 64", o->replicas);
      return EXIT_ERROR;
    }
    ao->replicas = (int)v;
  }
  if (o->seed) {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(o->seed, &end, 10);
    if (*o->seed < '0' || *o->seed > '9' || *end || errno) {
      fail("--seed: '%s' is not a whole number from 0 to 2^64-1", o->seed);
      return EXIT_ERROR;
    }
    ao->seed = s;
  }
  if (o->beta && !parse_beta(o->beta, &ao->beta_lo, &ao->beta_hi)) {
    fail("--beta: '%s' is not LO:HI with 0 < LO <= HI (inverse "
         "temperatures, e.g. 0.1:10)",
         o->beta);
    return EXIT_ERROR;
  }
  return parse_backend(o, &ao->backend);
}

static int write_qubo(const options *o, const tilesat_energy *e) {
  tilesat_error err;
  FILE *f = fopen(o->qubo_out, "w");
  if (!f) {
    fail("--qubo-out: %s: cannot open for writing: %s", o->qubo_out,
         strerror(errno));
    return EXIT_ERROR;
  }
  double offset;
  int rc = tilesat_energy_write_qubo(e, f, &offset, &err);
  if (fclose(f) && !rc) {
    fail("--qubo-out: %s: write error", o->qubo_out);
    rc = -1;
  } else if (rc) {
    fail_err(&err);
  }
  if (rc) {
    remove(o->qubo_out);
    return EXIT_ERROR;
  }
  fprintf(stderr, "qubo: %s: energy = qubo + %.17g\n", o->qubo_out, offset);
  return 0;
}

/* What the repair changed, cell by cell (the first 20). */
static void report_repair(const tilesat_map *m, const tilesat_anneal_stats *s,
                          const int *before, const int *after) {
  const tilesat_rules *r = tilesat_map_rules(m);
  int w = tilesat_map_width(m), n = w * tilesat_map_height(m), shown = 0;
  fprintf(stderr,
          "repair: %ld violation%s after annealing; %ld cell%s changed in %d "
          "region%s (%s)\n",
          s->violations_annealed, s->violations_annealed == 1 ? "" : "s",
          s->repaired_cells, s->repaired_cells == 1 ? "" : "s",
          s->repair_regions, s->repair_regions == 1 ? "" : "s",
          s->repair_result != TILESAT_UNSAT ? "the map is valid"
          : tilesat_map_npins(m) ? "no valid map exists with these pins"
                                 : "no valid map exists");
  for (int c = 0; c < n; c++)
    if (before[c] != after[c] && shown++ < 20)
      fprintf(stderr, "repair: (%d,%d) %s -> %s\n", c / w, c % w,
              tilesat_rules_tile_name(r, before[c]),
              tilesat_rules_tile_name(r, after[c]));
  if (shown > 20)
    fprintf(stderr, "repair: ... and %d more cells\n", shown - 20);
}

int cmd_anneal(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_energy *e = NULL;
  int *tiles = NULL, *before = NULL;
  tilesat_anneal_opts ao;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_run_options(o, &ao);
  if (!rc) {
    e = tilesat_energy_new(m);
    rc = load_energy(o, e);
  }
  if (!rc && o->qubo_out)
    rc = write_qubo(o, e);
  if (!rc) {
    size_t n = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
    tiles = malloc(n * sizeof *tiles);
    before = malloc(n * sizeof *before);
    if (!tiles || !before) {
      fail("out of memory");
      rc = EXIT_ERROR;
    }
  }
  if (!rc) {
    tilesat_error err;
    tilesat_anneal_stats st;
    ao.progress = progress;
    ao.progress_user = o;
    ao.annealed = before;
    if (tilesat_anneal(e, &ao, tiles, &st, &err)) {
      rc = fail_err(&err);
    } else {
      if (st.repair_regions)
        report_repair(m, &st, before, tiles);
      tilesat_map_write(m, tiles, stdout);
      printf("energy: %.10g\nviolations: %ld\n", st.energy, st.violations);
      size_t n = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
      int T = tilesat_rules_ntiles(r);
      for (int t = 0; t < T; t++) {
        long count = 0;
        for (size_t c = 0; c < n; c++)
          count += tiles[c] == t;
        printf("count %s: %ld (target %" PRId64 ")\n",
               tilesat_rules_tile_name(r, t), count,
               tilesat_energy_target(e, t));
      }
      rc = st.violations ? TILESAT_UNSAT : 0;
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
