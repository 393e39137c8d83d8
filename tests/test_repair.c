/* repair: the fewest pairs to allow or pins to drop, cross-checked
 * against brute force (every subset of changes, every filling counted
 * without the encoder), and the command's allow lines pasted into the
 * rules file and checked with `tilesat check`. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ brute force */

/* A candidate pair (a, d, b), d the lower of d and its opposite. */
typedef struct pair {
  int a, d, b;
} pair;

static int candidates(const tilesat_rules *r, pair *out) {
  tilesat_topology topo = tilesat_rules_topology(r);
  int T = tilesat_rules_ntiles(r), n = 0;
  for (int d = 0; d < tilesat_topology_ndirs(topo); d++)
    if (d < tilesat_dir_opposite(topo, d))
      for (int a = 0; a < T; a++)
        for (int b = 0; b < T; b++)
          if (!tilesat_rules_allows(r, a, d, b))
            out[n++] = (pair){a, d, b};
  return n;
}

/* The candidate a change of the library is (its pair or the mirror). */
static int candidate_of(const tilesat_rules *r, const pair *c, int n,
                        const tilesat_change *ch) {
  tilesat_topology topo = tilesat_rules_topology(r);
  int o = tilesat_dir_opposite(topo, ch->dir);
  pair p =
      ch->dir < o ? (pair){ch->a, ch->dir, ch->b} : (pair){ch->b, o, ch->a};
  for (int i = 0; i < n; i++)
    if (c[i].a == p.a && c[i].d == p.d && c[i].b == p.b)
      return i;
  cr_assert_fail("change (%d,%d,%d) is not a candidate", ch->a, ch->dir, ch->b);
  return -1;
}

/* The rules with the candidates of `mask` allowed too, as a rules file
 * says it (both halves of each pair). */
static tilesat_rules *rules_plus(const tilesat_rules *r, const pair *c, int n,
                                 unsigned mask) {
  tilesat_topology topo = tilesat_rules_topology(r);
  int T = tilesat_rules_ntiles(r), nd = tilesat_topology_ndirs(topo);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  fprintf(f, "tilesat-rules 1\ntopology %s\n", tilesat_topology_name(topo));
  for (int t = 0; t < T; t++)
    fprintf(f, "tile %s 1\n", tilesat_rules_tile_name(r, t));
  for (int a = 0; a < T; a++)
    for (int d = 0; d < nd; d++) {
      fprintf(f, "allow %s %s", tilesat_rules_tile_name(r, a),
              tilesat_dir_name(topo, d));
      for (int b = 0; b < T; b++) {
        bool ok = tilesat_rules_allows(r, a, d, b);
        for (int i = 0; i < n; i++)
          if (mask >> i & 1)
            ok |= (c[i].a == a && c[i].d == d && c[i].b == b) ||
                  (c[i].b == a && c[i].a == b &&
                   tilesat_dir_opposite(topo, c[i].d) == d);
        if (ok)
          fprintf(f, " %s", tilesat_rules_tile_name(r, b));
      }
      fputc('\n', f);
    }
  fclose(f);
  tilesat_rules *out = rules_from_text(text);
  free(text);
  return out;
}

typedef struct shape {
  int w, h;
  tilesat_topology topo;
  bool periodic;
} shape;

static long count_plus(const tilesat_rules *r, const pair *c, int n,
                       unsigned mask, const shape *s, const int *pins,
                       int npins) {
  tilesat_rules *x = rules_plus(r, c, n, mask);
  long k = brute_count(x, s->w, s->h, s->topo, s->periodic, pins, npins);
  tilesat_rules_free(x);
  return k;
}

static int cmp_unsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* Every minimal set of changes (bits of n) that `works`, by brute force
 * over all subsets (works is monotone: a superset of a repair repairs). */
static int brute_minimal(int n, bool (*works)(void *, unsigned), void *user,
                         unsigned *out) {
  uint8_t *ok = calloc((size_t)1 << n, 1);
  int k = 0;
  for (unsigned m = 0; m < 1u << n; m++)
    ok[m] = works(user, m);
  for (unsigned m = 0; m < 1u << n; m++) {
    bool minimal = ok[m];
    for (int i = 0; i < n && minimal; i++)
      if (m >> i & 1)
        minimal = !ok[m & ~(1u << i)];
    if (minimal)
      out[k++] = m;
  }
  free(ok);
  return k;
}

typedef struct pair_case {
  const tilesat_rules *r;
  const pair *c;
  int n;
  shape s;
  const int *pins;
  int npins;
} pair_case;

static bool pairs_work(void *user, unsigned mask) {
  const pair_case *p = user;
  return count_plus(p->r, p->c, p->n, mask, &p->s, p->pins, p->npins) > 0;
}

typedef struct pin_case {
  const tilesat_rules *r;
  shape s;
  const int *pins;
  int npins;
} pin_case;

static bool pins_work(void *user, unsigned drop) {
  const pin_case *p = user;
  int kept[3 * 8], k = 0;
  for (int i = 0; i < p->npins; i++)
    if (!(drop >> i & 1)) {
      memcpy(kept + 3 * k, p->pins + 3 * i, 3 * sizeof *kept);
      k++;
    }
  return brute_count(p->r, p->s.w, p->s.h, p->s.topo, p->s.periodic, kept, k) >
         0;
}

static int popcount(unsigned m) { return __builtin_popcount(m); }

/* The library's repairs as masks (bits: candidates or pins), in its order:
 * sizes never shrink, every one distinct. */
static int repair_masks(const tilesat_rules *r, const pair *c, int n,
                        const tilesat_repairs *reps, unsigned *out,
                        const char *desc) {
  int k = (int)repairs_info(reps).count;
  for (int i = 0; i < k; i++) {
    unsigned m = 0;
    for (size_t j = 0; j < tilesat_repair_size(reps, (size_t)i); j++) {
      const tilesat_change *ch = tilesat_repair_change(reps, (size_t)i, j);
      m |= 1u << (c ? candidate_of(r, c, n, ch) : ch->pin);
    }
    cr_expect_eq(popcount(m), (int)tilesat_repair_size(reps, (size_t)i),
                 "%s: repair %d has a change twice", desc, i);
    if (i)
      cr_expect_geq(popcount(m), popcount(out[i - 1]),
                    "%s: repair %d is smaller than the one before", desc, i);
    out[i] = m;
  }
  return k;
}

static void expect_same_sets(unsigned *got, int ngot, unsigned *want, int nwant,
                             const char *desc) {
  qsort(got, (size_t)ngot, sizeof *got, cmp_unsigned);
  qsort(want, (size_t)nwant, sizeof *want, cmp_unsigned);
  cr_expect_eq(ngot, nwant, "%s: %d minimal repairs, brute force %d", desc,
               ngot, nwant);
  for (int i = 0; i < ngot && i < nwant; i++)
    cr_expect_eq(got[i], want[i], "%s: repair %d: %#x, brute force %#x", desc,
                 i, got[i], want[i]);
}

/* A random small map with no valid filling; false when the draw has one
 * or too many candidates for brute force. */
static bool draw_unsat(int iter, tilesat_rules **r, shape *s, int *pins,
                       int *npins) {
  s->topo = iter % 3 == 2 ? TILESAT_HEX : TILESAT_SQUARE;
  s->periodic = iter % 5 == 4;
  s->w = 2 + (int)rnd(2);
  s->h = 2 + (int)rnd(2);
  if (s->periodic && s->topo == TILESAT_HEX)
    s->h = 2; /* wrapped hex rows come in pairs */
  int T = 2 + (int)rnd(2);
  *r = random_rules(T, s->topo, 2 + (int)rnd(4));
  *npins = (int)rnd(3);
  for (int i = 0; i < *npins; i++) {
    pins[3 * i] = (int)rnd((unsigned)s->h);
    pins[3 * i + 1] = (int)rnd((unsigned)s->w);
    pins[3 * i + 2] = (int)rnd((unsigned)T);
  }
  pair c[64];
  return candidates(*r, c) <= 11 &&
         brute_count(*r, s->w, s->h, s->topo, s->periodic, pins, *npins) == 0;
}

static tilesat_map *map_of(const tilesat_rules *r, const shape *s,
                           const int *pins, int npins) {
  tilesat_map *m = map_new(r, s->w, s->h, s->topo, s->periodic);
  tilesat_error err;
  for (int i = 0; i < npins; i++)
    cr_assert_eq(tilesat_map_pin(m, pins[3 * i], pins[3 * i + 1],
                                 tilesat_rules_tile_name(r, pins[3 * i + 2]),
                                 &err),
                 0, "%s", err.msg);
  return m;
}

/* ------------------------------------------------------------------ pairs */

Test(repair, pairs_match_brute_force_on_small_random_maps) {
  test_rng = 16;
  int cases = 0;
  for (int iter = 0; cases < 30 && iter < 3000; iter++) {
    tilesat_rules *r;
    shape s;
    int pins[6], npins;
    if (!draw_unsat(iter, &r, &s, pins, &npins)) {
      tilesat_rules_free(r);
      continue;
    }
    cases++;
    pair c[64];
    int n = candidates(r, c);
    pair_case pc = {r, c, n, s, pins, npins};
    unsigned want[2048], got[2048];
    int nwant = brute_minimal(n, pairs_work, &pc, want);
    char desc[128];
    snprintf(desc, sizeof desc, "iter %d: %s %dx%d%s, %d candidates, %d pins",
             iter, tilesat_topology_name(s.topo), s.w, s.h,
             s.periodic ? " periodic" : "", n, npins);
    tilesat_map *m = map_of(r, &s, pins, npins);
    tilesat_backend b = backends[iter % NBACKENDS];
    tilesat_error err;
    tilesat_repairs *reps = NULL;
    /* the minimum alone */
    cr_assert_eq(tilesat_repair(m, SOLVE(b), false, 1, &reps, &err),
                 TILESAT_UNSAT, "%s: %s", desc, err.msg);
    int ngot = repair_masks(r, c, n, reps, got, desc);
    int least = 64;
    for (int i = 0; i < nwant; i++)
      least = popcount(want[i]) < least ? popcount(want[i]) : least;
    if (!nwant) {
      cr_expect_eq(ngot, 0, "%s: a repair where none exists", desc);
      cr_expect(repairs_info(reps).complete, "%s", desc);
    } else {
      cr_expect_eq(ngot, 1, "%s", desc);
      cr_expect_eq(popcount(got[0]), least, "%s: %d pairs, the fewest %d", desc,
                   popcount(got[0]), least);
      cr_expect(pairs_work(&pc, got[0]), "%s: the repair does not repair",
                desc);
    }
    tilesat_repairs_free(reps);
    /* every minimal one */
    cr_assert_eq(tilesat_repair(m, SOLVE(b), false, 4096, &reps, &err),
                 TILESAT_UNSAT, "%s: %s", desc, err.msg);
    cr_expect(repairs_info(reps).complete, "%s", desc);
    ngot = repair_masks(r, c, n, reps, got, desc);
    if (ngot)
      cr_expect_eq(popcount(got[0]), least, "%s", desc);
    expect_same_sets(got, ngot, want, nwant, desc);
    tilesat_repairs_free(reps);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_eq(cases, 30);
}

Test(repair, pins_match_brute_force_on_small_random_maps) {
  test_rng = 61;
  int cases = 0;
  for (int iter = 0; cases < 30 && iter < 3000; iter++) {
    shape s = {2 + (int)rnd(2), 2 + (int)rnd(2),
               iter % 3 == 2 ? TILESAT_HEX : TILESAT_SQUARE, iter % 4 == 3};
    if (s.periodic && s.topo == TILESAT_HEX)
      s.h = 2; /* wrapped hex rows come in pairs */
    int T = 2 + (int)rnd(2), npins = 2 + (int)rnd(3), pins[3 * 4];
    tilesat_rules *r = random_rules(T, s.topo, 3 + (int)rnd(4));
    for (int i = 0; i < npins; i++) {
      pins[3 * i] = (int)rnd((unsigned)s.h);
      pins[3 * i + 1] = (int)rnd((unsigned)s.w);
      pins[3 * i + 2] = (int)rnd((unsigned)T);
    }
    pin_case pc = {r, s, pins, npins};
    if (pins_work(&pc, 0)) {
      tilesat_rules_free(r);
      continue;
    }
    cases++;
    unsigned want[16], got[16];
    int nwant = brute_minimal(npins, pins_work, &pc, want);
    char desc[96];
    snprintf(desc, sizeof desc, "iter %d: %dx%d, %d pins", iter, s.w, s.h,
             npins);
    tilesat_map *m = map_of(r, &s, pins, npins);
    tilesat_backend b = backends[iter % NBACKENDS];
    tilesat_error err;
    tilesat_repairs *reps = NULL;
    cr_assert_eq(tilesat_repair(m, SOLVE(b), true, 100, &reps, &err),
                 TILESAT_UNSAT, "%s: %s", desc, err.msg);
    cr_expect(repairs_info(reps).complete, "%s", desc);
    int ngot = repair_masks(r, NULL, 0, reps, got, desc);
    expect_same_sets(got, ngot, want, nwant, desc);
    /* each pin to drop names its cell and tile as pinned */
    for (size_t i = 0; i < repairs_info(reps).count; i++)
      for (size_t j = 0; j < tilesat_repair_size(reps, i); j++) {
        const tilesat_change *ch = tilesat_repair_change(reps, i, j);
        const int *p = pins + 3 * ch->pin;
        cr_expect(ch->row == p[0] && ch->col == p[1] && ch->tile == p[2] &&
                      ch->a == -1,
                  "%s: pin %d", desc, ch->pin);
      }
    tilesat_repairs_free(reps);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_eq(cases, 30);
}

/* ---------------------------------------------------------- the command */

/* The lines of `out` that start with `prefix`, joined (malloc'd). */
static char *lines_with(const char *out, const char *prefix, int *count) {
  char *res = calloc(strlen(out) + 1, 1);
  *count = 0;
  for (const char *l = out; *l;) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l + 1) : strlen(l);
    if (!strncmp(l, prefix, strlen(prefix))) {
      strncat(res, l, len);
      ++*count;
    }
    l += len;
  }
  return res;
}

/* rules/hard.rules with `extra` appended, in a fresh file. */
static char *hard_plus(const char *extra) {
  char *base = slurp("rules/hard.rules");
  size_t n = strlen(base) + strlen(extra) + 1;
  char *text = malloc(n);
  snprintf(text, n, "%s%s", base, extra);
  char *path = temp_file(text, -1);
  free(base);
  free(text);
  return path;
}

static int check_code(const char *rules, const char *size) {
  run_result r = RUN("check", rules, "--size", size);
  int code = r.code;
  run_free(&r);
  return code;
}

Test(repair, hard_3x3_allow_lines_pasted_make_it_satisfiable) {
  cr_assert_eq(check_code("rules/hard.rules", "3x3"), 20);
  for (int b = 0; b < NBACKENDS; b++) {
    run_result r = RUN("repair", "rules/hard.rules", "--size", "3x3",
                       "--backend", tilesat_backend_name(backends[b]));
    cr_expect_eq(r.code, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "");
    int nallow, ncomment;
    char *allow = lines_with(r.out, "allow ", &nallow);
    free(lines_with(r.out, "# ", &ncomment));
    int nlines = 0;
    for (const char *c = r.out; *c; c++)
      nlines += *c == '\n';
    cr_expect_eq(nallow + ncomment, nlines, "every line allow or comment");
    /* one pair, both halves: the fewest, since 3x3 has no map as it is */
    cr_expect_eq(nallow, 2, "%s", r.out);
    cr_expect(strstr(r.out, "# repair: 1 pair, the fewest; checked: with it "
                            "a valid 3x3 map exists, and without it none "
                            "does\n"),
              "%s", r.out);
    char *fixed = hard_plus(allow);
    cr_expect_eq(check_code(fixed, "3x3"), 10, "%s", allow);
    remove(fixed);
    free(fixed);
    /* the whole output pastes too: its other lines are comments */
    fixed = hard_plus(r.out);
    cr_expect_eq(check_code(fixed, "3x3"), 10);
    remove(fixed);
    free(fixed);
    free(allow);
    run_free(&r);
  }
}

/* Each listed repair, pasted, makes 3x3 satisfiable, and each one with
 * any pair left out does not. */
Test(repair, all_lists_distinct_minimal_repairs) {
  run_result r = RUN("repair", "rules/hard.rules", "--size", "3x3", "--all",
                     "--limit", "6");
  cr_expect_eq(r.code, 0, "%s", r.err);
  int nrep;
  free(lines_with(r.out, "# repair ", &nrep));
  cr_expect_eq(nrep, 6, "%s", r.out);
  cr_expect(strstr(r.out, "# 6 minimal repairs (the limit), smallest first"),
            "%s", r.out);
  /* split into repairs: the allow lines after each "# repair N" */
  char *text = strdup(r.out), *reps[8] = {0};
  int k = 0;
  for (char *p = strstr(text, "# repair "); p && k < 8;
       p = strstr(p + 1, "# repair "))
    reps[k++] = strchr(p, '\n') + 1;
  for (int i = 0; i < k; i++) {
    char *end = strstr(reps[i], "# ");
    if (end)
      *end = 0;
  }
  int prev = 0;
  for (int i = 0; i < k; i++) {
    int n;
    free(lines_with(reps[i], "allow ", &n));
    cr_expect_geq(n, prev, "repair %d is smaller than the one before", i + 1);
    prev = n;
    for (int j = 0; j < i; j++)
      cr_expect_str_neq(reps[i], reps[j], "repairs %d and %d", j + 1, i + 1);
    char *fixed = hard_plus(reps[i]);
    cr_expect_eq(check_code(fixed, "3x3"), 10, "repair %d: %s", i + 1, reps[i]);
    remove(fixed);
    free(fixed);
    /* every pair left out in turn (its two lines) */
    for (int p = 0; p < n / 2; p++) {
      char less[1024] = "";
      int line = 0;
      for (const char *l = reps[i]; *l; line++) {
        const char *e = strchr(l, '\n');
        if (line / 2 != p)
          strncat(less, l, (size_t)(e - l + 1));
        l = e + 1;
      }
      fixed = hard_plus(less);
      cr_expect_eq(check_code(fixed, "3x3"), 20,
                   "repair %d without pair %d: %s", i + 1, p + 1, less);
      remove(fixed);
      free(fixed);
    }
  }
  free(text);
  run_free(&r);
}

/* The coast sample pinned S at one corner and L at the other: each pin
 * alone leaves 5 maps (test_explain), together none; drop one. */
Test(repair, coast_keep_rules_drops_one_of_two_clashing_pins) {
  for (int b = 0; b < NBACKENDS; b++) {
    run_result r = RUN("repair", "rules/coast.rules", "--size", "3x3", "--pin",
                       "0,0=S", "--pin", "2,2=L", "--keep-rules", "--backend",
                       tilesat_backend_name(backends[b]));
    cr_expect_eq(r.code, 0, "%s", r.err);
    int n;
    char *pins = lines_with(r.out, "--pin ", &n);
    cr_expect_eq(n, 1, "%s", r.out);
    bool first = !strcmp(pins, "--pin 0,0=S\n");
    cr_expect(first || !strcmp(pins, "--pin 2,2=L\n"), "%s", pins);
    cr_expect(strstr(r.out, "# repair: 1 pin, the fewest; checked: without "
                            "it a valid 3x3 map exists, and with it none "
                            "does\n"),
              "%s", r.out);
    run_result c = RUN("check", "rules/coast.rules", "--size", "3x3", "--pin",
                       first ? "2,2=L" : "0,0=S");
    cr_expect_eq(c.code, 10);
    run_free(&c);
    free(pins);
    run_free(&r);
  }
  /* --all: both, each alone */
  run_result r = RUN("repair", "rules/coast.rules", "--size", "3x3", "--pin",
                     "0,0=S", "--pin", "2,2=L", "--keep-rules", "--all");
  cr_expect_eq(r.code, 0);
  int n;
  free(lines_with(r.out, "--pin ", &n));
  cr_expect_eq(n, 2, "%s", r.out);
  cr_expect(strstr(r.out, "# 2 minimal repairs (all there are)"), "%s", r.out);
  run_free(&r);
}

Test(repair, output_writes_rules_that_parse_and_check_sat) {
  char *dir = temp_dir();
  char path[512];
  snprintf(path, sizeof path, "%s/fixed.rules", dir);
  run_result r = RUN("repair", "rules/hard.rules", "--size", "3x3", "-o", path);
  cr_expect_eq(r.code, 0, "%s", r.err);
  tilesat_error err;
  tilesat_rules *fixed = tilesat_rules_read_file(path, &err);
  cr_assert(fixed, "%s", err.msg);
  cr_expect_eq(check_code(path, "3x3"), 10);
  /* exactly the old pairs and the printed ones */
  int n;
  char *allow = lines_with(r.out, "allow ", &n);
  char *pasted = hard_plus(allow);
  tilesat_rules *want = rules_from_file(pasted),
                *old = rules_from_file("rules/hard.rules");
  int T = tilesat_rules_ntiles(old), grew = 0;
  cr_assert_eq(tilesat_rules_ntiles(fixed), T);
  for (int a = 0; a < T; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < T; b++) {
        cr_expect_eq(tilesat_rules_allows(fixed, a, d, b),
                     tilesat_rules_allows(want, a, d, b));
        grew += tilesat_rules_allows(fixed, a, d, b) &&
                !tilesat_rules_allows(old, a, d, b);
      }
  cr_expect_eq(grew, n);
  remove(pasted);
  free(pasted);
  free(allow);
  tilesat_rules_free(fixed);
  tilesat_rules_free(want);
  tilesat_rules_free(old);
  run_free(&r);
  rm_dir(dir);
}

Test(repair, satisfiable_none_possible_and_misuse) {
  run_result r = RUN("repair", "rules/hard.rules", "--size", "2x2");
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(r.out, "SAT: a valid 2x2 map exists, nothing to repair "
                          "(see 'tilesat check').\n");
  run_free(&r);
  r = RUN("repair", "rules/hard.rules", "--size", "3x3", "--keep-rules");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(r.out, "UNSAT: no valid 3x3 map even with every pin "
                          "dropped (0 pins): no repair by pins; try without "
                          "--keep-rules.\n");
  run_free(&r);
  /* two tiles pinned to one cell: no pair helps (asked for pairs: by
   * default the pins, which alone clash, come first) */
  r = RUN("repair", "rules/coast.rules", "--size", "2x2", "--pin", "0,0=S",
          "--pin", "0,0=L", "--change-rules");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(r.out, "UNSAT: no valid 2x2 map even with every pair "
                          "allowed: the pins, masks or global constraints "
                          "clash on their own; try --keep-rules.\n");
  run_free(&r);
  expect_cli_error("tilesat: -o: --keep-rules changes no rules, there is no "
                   "rules file to write\n",
                   "repair", "rules/hard.rules", "--size", "3x3",
                   "--keep-rules", "-o", "x.rules");
  expect_cli_error("tilesat: --limit: only with --all\n", "repair",
                   "rules/hard.rules", "--size", "3x3", "--limit", "3");
  expect_cli_error("tilesat: --change-rules: --keep-rules keeps them; give "
                   "one or the other\n",
                   "repair", "rules/coast.rules", "--size", "3x3",
                   "--keep-rules", "--change-rules");
}

/* Castle 128x128 with three clashing pins around (61,60) (issue 33):
 * the rules alone have a map, so the pins to drop come first, found in
 * the 5x5 window where check refutes them: under a second, where the
 * whole map's CNF took 4 s at 64x64 already (and some 15 s here), and
 * the rule change proposed before ("allow riverturn 1 S bridge 0") was a
 * seam in a picture tileset.  Checked by check too: the three together
 * have no map, the two others have one. */
Test(repair, clashing_pins_dropped_from_their_window_first) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  const char *pins[] = {"60,60=river 0", "62,60=bridge 0", "61,59=bridge 1"};
  run_result r = RUN("repair", rules, "--size", "128x128", "--pin", pins[0],
                     "--pin", pins[1], "--pin", pins[2]);
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect_str_eq(
      r.out, "# No valid 128x128 map with these pins, but the rules alone "
             "have one: without the pins below there is one (--change-rules: "
             "pairs to allow instead).\n"
             "--pin '62,60=bridge 0'\n"
             "# repair: 1 pin, the fewest; checked: without it a valid "
             "128x128 map exists, and with it none does\n"
             "# found in the 5x5 window at rows 58-62, columns 58-62, "
             "which has no filling with these pins\n");
  run_free(&r);
  run_result c = RUN("check", rules, "--size", "128x128", "--pin", pins[0],
                     "--pin", pins[1], "--pin", pins[2]);
  cr_expect_eq(c.code, 20, "%s", c.err);
  run_free(&c);
  c = RUN("check", rules, "--size", "128x128", "--pin", pins[0], "--pin",
          pins[2]);
  cr_expect_eq(c.code, 10, "%s", c.err);
  run_free(&c);
  /* pairs when asked */
  r = RUN("repair", "rules/coast.rules", "--size", "3x3", "--pin", "0,0=S",
          "--pin", "2,2=L", "--change-rules");
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "allow "), "%s", r.out);
  run_free(&r);
  rm_dir(dir);
}

static void every_line(void) { setenv("TILESAT_PROGRESS", "all", 1); }

/* A designer's pass: repair on Castle 1024x1024 with two clashing rivers
 * said nothing for 13 s (a whole-map check of the rules alone, before the
 * windows), then "windows of 5x5 around the pins", then nothing for 12 s
 * (the map checked without the pin, its lines dropped).  The window comes
 * first (its repair shows the rules alone have a map), and the check
 * after it says what it checks: 42 s -> 29 s there. */
Test(repair, clashing_pins_windows_first_and_the_check_said) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  const char *args[] = {"repair", rules,           "--size",
                        "32x32",  "--pin",         "10,10=river 0",
                        "--pin",  "10,11=river 1", NULL};
  run_result r = run_cli_with(args, 0, 0, every_line);
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "# found in the 5x5 window at rows 8-12, columns "
                          "8-12, which has no filling with these pins\n"),
            "%s", r.out);
  const char *first = "tilesat: repair: windows of 5x5 around the pins (0 s)\n";
  cr_expect(!strncmp(r.err, first, strlen(first)), "%s", r.err);
  cr_expect(strstr(r.err, "\ntilesat: repair: checking the 32x32 map "
                          "without 1 pin: a guarded collapse (seed 1) (0 s)\n"),
            "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* The window route against the whole map's search (tilesat_repair with a
 * limit of 2 searches the whole map; its first repair is a fewest): the
 * same number of pins on random clashing pins near the middle of coast 32x32,
 * every repair checked by the library both ways, and some of them found in a
 * window. */
Test(repair, pins_from_windows_are_as_few_as_the_whole_maps) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  test_rng = 3333;
  int windowed = 0, cases_seen = 0;
  for (int iter = 0; iter < 40 && cases_seen < 12; iter++) {
    tilesat_error err;
    tilesat_map *m = tilesat_map_new(r, 32, 32, TILESAT_SQUARE, false, &err);
    int npins = 2 + (int)rnd(4);
    for (int k = 0; k < npins; k++) {
      const char *tiles[] = {"L", "C", "S"};
      tilesat_map_pin(m, 12 + (int)rnd(5), 12 + (int)rnd(5), tiles[rnd(3)],
                      &err);
    }
    tilesat_repairs *a = NULL, *b = NULL;
    if (tilesat_check(m, NULL, NULL, &err) != TILESAT_UNSAT ||
        tilesat_repair_rules_alone(m, NULL, &err) != TILESAT_SAT) {
      tilesat_map_free(m);
      continue;
    }
    cases_seen++;
    cr_assert_eq(tilesat_repair(m, NULL, true, 1, &a, &err), TILESAT_UNSAT,
                 "%s", err.msg);
    cr_assert_eq(tilesat_repair(m, NULL, true, 2, &b, &err), TILESAT_UNSAT,
                 "%s", err.msg);
    cr_expect_eq(tilesat_repair_size(a, 0), tilesat_repair_size(b, 0),
                 "iter %d: %s", iter, repairs_info(a).found_in);
    cr_expect_str_eq(repairs_info(b).found_in, "");
    windowed += *repairs_info(a).found_in != 0;
    tilesat_repairs_free(a);
    tilesat_repairs_free(b);
    tilesat_map_free(m);
  }
  cr_expect_geq(cases_seen, 8);
  cr_expect_geq(windowed, 4, "%d of %d from windows", windowed, cases_seen);
  tilesat_rules_free(r);
}

/* A pin to drop pastes into a shell: a name with a space or a quote is
 * quoted. */
Test(repair, pins_to_drop_are_quoted_for_a_shell) {
  char *path = temp_file("tilesat-rules 1\ntile \"a'b c\" 1\ntile d 1\n"
                         "allow \"a'b c\" E \"a'b c\"\n"
                         "allow \"a'b c\" W \"a'b c\"\n"
                         "allow d E d\nallow d W d\n",
                         -1);
  run_result r = RUN("repair", path, "--size", "2x1", "--pin", "0,0=a'b c",
                     "--pin", "0,1=d", "--keep-rules", "--all");
  cr_expect_eq(r.code, 0, "%s", r.err);
  int n;
  char *pins = lines_with(r.out, "--pin ", &n);
  cr_expect_eq(n, 2);
  cr_expect(strstr(pins, "--pin '0,0=a'\\''b c'\n"), "%s", pins);
  cr_expect(strstr(pins, "--pin 0,1=d\n"), "%s", pins);
  free(pins);
  run_free(&r);
  remove(path);
  free(path);
}
