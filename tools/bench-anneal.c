/* bench-anneal.c: the annealer's speed and reliability (issue 5 targets).
 *
 *   bench-anneal rate RULES WxH SWEEPS [C]    site updates per second at a
 *                                             fixed beta (one core)
 *   bench-anneal zero RULES WxH SEEDS SWEEPS [C]  time to zero violations over
 *                                             seeds: median, worst, how many
 *                                             reached zero by annealing
 *                                             alone and after the clean-up
 *   bench-anneal counts RULES WxH SEEDS SWEEPS  with a frequency term:
 *                                             largest |count - target|
 * C: a constraints file (global constraints: counts, connectivity; zero
 * then means a map that keeps them too).  Uses only the public header. */
#include "tilesat.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this thread (the machine may be shared). */
static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static tilesat_energy *load(const char *rules, const char *size,
                            const char *terms, const char *constraints,
                            tilesat_rules **r, tilesat_map **m) {
  tilesat_error err;
  int w, h;
  *r = tilesat_rules_read_file(rules, &err);
  if (!*r || tilesat_parse_size(size, &w, &h, &err))
    goto fail;
  *m = tilesat_map_new(*r, w, h, tilesat_rules_topology(*r), false, &err);
  if (!*m ||
      (constraints && tilesat_map_constraints_read_file(*m, constraints, &err)))
    goto fail;
  tilesat_energy *e = tilesat_energy_new(*m);
  if ((terms && tilesat_energy_parse_line(e, terms, "bench", &err)) ||
      tilesat_energy_prepare(e, &err))
    goto fail;
  return e;
fail:
  fprintf(stderr, "bench-anneal: %s\n", err.msg);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: bench-anneal rate RULES WxH SWEEPS | zero RULES "
                    "WxH SEEDS SWEEPS\n");
    return 1;
  }
  tilesat_rules *r;
  tilesat_map *m;
  bool counts = !strcmp(argv[1], "counts");
  tilesat_energy *e = load(argv[2], argv[3], counts ? "frequency 1" : NULL,
                           argc > (!strcmp(argv[1], "rate") ? 5 : 6)
                               ? argv[!strcmp(argv[1], "rate") ? 5 : 6]
                               : NULL,
                           &r, &m);
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  int n = mi.width * mi.height;
  int *tiles = malloc((size_t)n * sizeof *tiles);
  tilesat_anneal_opts o;
  tilesat_anneal_defaults(&o);
  tilesat_anneal_stats st;
  tilesat_error err;
  if (!strcmp(argv[1], "rate")) {
    o.sweeps = atol(argv[4]);
    tilesat_energy_info ei;
    tilesat_energy_get(e, &ei);
    o.beta_lo = o.beta_hi = 2.0 / ei.hard_weight;
    o.cleanup = false;
    o.stop_at_zero = false;
    if (tilesat_anneal(e, &o, tiles, &st, &err)) {
      fprintf(stderr, "bench-anneal: %s\n", err.msg);
      return 1;
    }
    printf("  %-24s %-9s %2d tiles %-28s %6.1f M site updates/s  (%.0f "
           "updates in %.2f s)\n",
           argv[2], argv[3], tilesat_rules_ntiles(r), argc > 5 ? argv[5] : "",
           st.site_updates / st.seconds / 1e6, st.site_updates, st.seconds);
  } else if (counts) {
    int seeds = atoi(argv[4]), T = tilesat_rules_ntiles(r);
    o.sweeps = argc > 5 ? atol(argv[5]) : 1000;
    printf("  %-24s %-9s %2d tiles  frequency 1: largest |count - target| "
           "by seed:",
           argv[2], argv[3], T);
    for (int s = 0; s < seeds; s++) {
      o.seed = (uint64_t)s + 1;
      if (tilesat_anneal(e, &o, tiles, &st, &err)) {
        fprintf(stderr, "bench-anneal: %s\n", err.msg);
        return 1;
      }
      long worst = 0;
      for (int t = 0; t < T; t++) {
        long c = 0;
        for (int i = 0; i < n; i++)
          c += tiles[i] == t;
        long d = labs(c - (long)tilesat_energy_target(e, t));
        worst = d > worst ? d : worst;
      }
      printf(" %ld%s", worst, st.cleanup_regions ? "r" : "");
    }
    printf("  (r: after a SAT clean-up)\n");
  } else {
    int seeds = atoi(argv[4]);
    o.sweeps = argc > 5 ? atol(argv[5]) : 1000;
    double *t = calloc((size_t)seeds, sizeof *t);
    int alone = 0, after = 0;
    double total = 0;
    long left = 0; /* violations annealing left, over all seeds */
    for (int s = 0; s < seeds; s++) {
      o.seed = (uint64_t)s + 1;
      double c0 = cpu();
      if (tilesat_anneal(e, &o, tiles, &st, &err)) {
        fprintf(stderr, "bench-anneal: %s\n", err.msg);
        return 1;
      }
      double c1 = cpu();
      alone += st.violations_annealed == 0;
      left += st.violations_annealed;
      after += st.violations == 0;
      /* time to zero: annealing until the first zero-violation sweep, or
       * the whole call (set-up, annealing, SAT clean-up) */
      t[s] = st.violations_annealed == 0 && st.zero_seconds >= 0
                 ? st.zero_seconds
                 : c1 - c0;
      total += st.seconds;
    }
    qsort(t, (size_t)seeds, sizeof *t, cmp);
    printf("  %-24s %-9s %2d tiles %s zero violations: %d/%d by annealing, "
           "%d/%d after clean-up; time to zero median %.0f ms, worst %.0f ms "
           "(%ld sweeps; annealing %.0f ms a seed, %ld violations left to "
           "clean-up in all)\n",
           argv[2], argv[3], tilesat_rules_ntiles(r), argc > 6 ? argv[6] : "",
           alone, seeds, after, seeds, 1e3 * t[seeds / 2], 1e3 * t[seeds - 1],
           o.sweeps, 1e3 * total / seeds, left);
    free(t);
  }
  free(tiles);
  tilesat_energy_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return 0;
}
