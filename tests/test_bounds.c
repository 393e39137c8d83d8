/* count --method bounds: the proved bounds contain the exact count (dp,
 * enumeration, brute force) on square, hex, periodic, pinned and banned
 * maps, meet it when the map is one block, and auto turns to them beyond
 * the dp. */
#include "count/count.h"
#include "helpers.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The exact count by the dp. */
static void exact(const tilesat_map *m, mpz_t n) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_DP;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  mpz_set_str(n, res.count, 10);
  tilesat_count_result_free(&res);
}

/* Bounds with strips and pieces `width` lines wide; lower and upper set. */
static void bounds(const tilesat_map *m, int width, mpz_t lower, mpz_t upper,
                   tilesat_count_result *res) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_BOUNDS;
  o.bounds_width = width;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, res, &err), 0, "%s", err.msg);
  cr_assert_eq(res->method, TILESAT_METHOD_BOUNDS);
  mpz_set_str(lower, res->lower, 10);
  mpz_set_str(upper, res->upper, 10);
  /* the log2 the output prints are those of the bounds */
  if (mpz_sgn(lower))
    cr_expect_lt(fabs(res->lower_log2 - ts_log2(lower)), 1e-9);
  if (mpz_sgn(upper))
    cr_expect_lt(fabs(res->upper_log2 - ts_log2(upper)), 1e-9);
}

typedef struct tally {
  int cases, strict, reflection;
} tally;

/* lower <= count <= upper at every width from 1 to the map's; when the
 * bounds meet, the count is the exact one.  Past the width that counts
 * the map whole, every width does the same (the width is clamped to the
 * map's): one more is checked, then no wider (wholes 2; 1: none more). */
static void expect_contained(const tilesat_map *m, const mpz_t want,
                             const char *desc, tally *t, int wholes) {
  mpz_t lo, hi;
  mpz_inits(lo, hi, NULL);
  const tilesat_map_info mi = map_info(m);
  int most = mi.width > mi.height ? map_info(m).width : map_info(m).height;
  int whole = 0;
  for (int k = 1; k <= most && whole < wholes; k++) {
    tilesat_count_result res;
    bounds(m, k, lo, hi, &res);
    whole += strstr(res.lower_why, "counted whole") != NULL;
    cr_expect_leq(mpz_cmp(lo, want), 0, "%s, width %d: lower %s above %s", desc,
                  k, res.lower, mpz_get_str(NULL, 10, want));
    cr_expect_geq(mpz_cmp(hi, want), 0, "%s, width %d: upper %s below %s", desc,
                  k, res.upper, mpz_get_str(NULL, 10, want));
    if (!mpz_cmp(lo, hi)) {
      cr_expect(res.count, "%s, width %d", desc, k);
    } else {
      cr_expect_null(res.count, "%s, width %d", desc, k);
      t->strict += mpz_sgn(lo) > 0;
    }
    t->reflection += strstr(res.lower_why, "reflection") != NULL;
    t->cases++;
    tilesat_count_result_free(&res);
  }
  mpz_clears(lo, hi, NULL);
}

/* Random rule sets on maps up to 6x6: square and hex, open and periodic,
 * with a pin, with bans, or both. */
Test(bounds, contain_the_count_on_random_maps) {
  test_rng = 2027;
  tally t = {0};
  mpz_t want;
  mpz_init(want);
  for (int iter = 0; iter < 48; iter++) {
    tilesat_topology topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    bool periodic = (iter / 2) % 2, pinned = (iter / 4) % 2,
         banned = (iter / 8) % 2;
    int T = 2 + (int)rnd(3), w = 2 + (int)rnd(5), h = 2 + (int)rnd(5);
    if (periodic && topo == TILESAT_HEX && h % 2)
      h++;
    if (periodic && w * h > 24) /* the dp's anchors: keep it quick */
      w = 4, h = 4;
    tilesat_rules *r = random_rules(T, topo, 4 + (int)rnd(4));
    tilesat_map *m = map_new(r, w, h, topo, periodic);
    tilesat_error err;
    if (pinned)
      cr_assert_eq(tilesat_map_pin(m, (int)rnd((unsigned)h),
                                   (int)rnd((unsigned)w),
                                   tilesat_rules_tile_name(r, 0), &err),
                   0, "%s", err.msg);
    for (int i = 0; banned && i < 3; i++)
      cr_assert_eq(tilesat_map_ban(m, (int)rnd((unsigned)h),
                                   (int)rnd((unsigned)w), (int)rnd((unsigned)T),
                                   &err),
                   0, "%s", err.msg);
    exact(m, want);
    if (w * h <= 9 && !banned && !pinned) /* and the dp against brute force */
      cr_expect_eq(mpz_get_si(want),
                   brute_count(r, w, h, topo, periodic, NULL, 0), "iter %d",
                   iter);
    char desc[96];
    snprintf(desc, sizeof desc, "iter %d: %s %dx%d%s%s%s T=%d", iter,
             tilesat_topology_name(topo), w, h, periodic ? " periodic" : "",
             pinned ? " pinned" : "", banned ? " banned" : "", T);
    expect_contained(m, want, desc, &t, 2);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  mpz_clear(want);
  cr_expect_gt(t.strict, 40, "%d of %d bounds strictly between 0 and above",
               t.strict, t.cases);
}

/* The four WFC tilesets of the issue, on maps the dp counts: open,
 * periodic, pinned, banned; Knots' mirror gives the reflection bound.
 * The sanitizer pass (test_cases halved) stops at the width that counts
 * the map whole, without the one past it, which counts it whole again
 * (the clamped width: the random maps above still check it there). */
Test(bounds, contain_the_count_on_wfc_tilesets) {
  struct {
    const char *set;
    int w, h;
    bool periodic;
    const char *pin;
    int ban;
  } cases[] = {
      {"Castle", 6, 5, false, NULL, 0},
      {"Castle", 4, 4, true, NULL, 0},
      {"Rooms", 5, 6, false, "2,2=empty 0", 0},
      {"Rooms", 6, 4, false, NULL, 1},
      {"Circuit", 4, 4, false, NULL, 0},
      {"Knots", 10, 6, false, NULL, 0},
      {"Knots", 7, 10, false, NULL, 0},
  };
  tally t = {0};
  mpz_t want;
  mpz_init(want);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r = tileset(cases[i].set);
    tilesat_map *m =
        map_new(r, cases[i].w, cases[i].h, TILESAT_SQUARE, cases[i].periodic);
    tilesat_error err;
    if (cases[i].pin)
      cr_assert_eq(tilesat_map_pin_spec(m, cases[i].pin, &err), 0, "%s",
                   err.msg);
    for (int c = 0; cases[i].ban && c < cases[i].w; c++) /* a border */
      cr_assert_eq(
          tilesat_map_ban(m, 0, c, tilesat_rules_find_tile(r, "empty 0"), &err),
          0, "%s", err.msg);
    exact(m, want);
    cr_assert_gt(mpz_sgn(want), 0, "%s", cases[i].set);
    char desc[96];
    snprintf(desc, sizeof desc, "%s %dx%d", cases[i].set, cases[i].w,
             cases[i].h);
    expect_contained(m, want, desc, &t, test_cases(2));
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  mpz_clear(want);
  cr_expect_gt(t.reflection, 3, "the reflection bound in %d cases",
               t.reflection);
}

/* Rule sets of edge sockets closed under the east-west mirror: the
 * kernel [e(t) = e(u)] is semidefinite, so the reflection bound applies;
 * it must hold on even and odd widths. */
Test(bounds, reflection_holds_on_mirrored_socket_rules) {
  test_rng = 99;
  tally t = {0};
  mpz_t want;
  mpz_init(want);
  for (int iter = 0; iter < 12; iter++) {
    int n = 2 + (int)rnd(3), S = 2 + (int)rnd(2);
    char text[4096] = "tilesat-rules 1\n";
    int sock[16][4]; /* N E S W */
    int T = 0;
    for (int i = 0; i < n; i++) {
      int s[4] = {(int)rnd((unsigned)S), (int)rnd((unsigned)S),
                  (int)rnd((unsigned)S), (int)rnd((unsigned)S)};
      memcpy(sock[T++], s, sizeof s);
      int mirror[4] = {s[0], s[3], s[2], s[1]};
      if (memcmp(s, mirror, sizeof s))
        memcpy(sock[T++], mirror, sizeof mirror);
    }
    for (int i = 0; i < T; i++)
      snprintf(text + strlen(text), sizeof text - strlen(text), "tile t%d 1\n",
               i);
    static const char *dirs[] = {"N", "E", "S", "W"};
    for (int i = 0; i < T; i++)
      for (int d = 0; d < 4; d++) {
        char line[256];
        snprintf(line, sizeof line, "allow t%d %s", i, dirs[d]);
        bool any = false;
        for (int j = 0; j < T; j++)
          if (sock[i][d] == sock[j][(d + 2) % 4]) {
            snprintf(line + strlen(line), sizeof line - strlen(line), " t%d",
                     j);
            any = true;
          }
        if (any)
          snprintf(text + strlen(text), sizeof text - strlen(text), "%s\n",
                   line);
      }
    tilesat_rules *r = rules_from_text(text);
    int w = 6 + (int)rnd(3), h = w + (int)rnd(3); /* strips of columns */
    tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, false);
    exact(m, want);
    char desc[64];
    snprintf(desc, sizeof desc, "iter %d: %d tiles, %dx%d", iter, T, w, h);
    mpz_t lo, hi;
    mpz_inits(lo, hi, NULL);
    for (int k = 4; k < w; k++) {
      tilesat_count_result res;
      bounds(m, k, lo, hi, &res);
      cr_expect_leq(mpz_cmp(lo, want), 0, "%s, width %d: lower %s (%s)", desc,
                    k, res.lower, res.lower_why);
      cr_expect_geq(mpz_cmp(hi, want), 0, "%s, width %d", desc, k);
      t.reflection += strstr(res.lower_why, "reflection") != NULL;
      tilesat_count_result_free(&res);
    }
    mpz_clears(lo, hi, NULL);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  mpz_clear(want);
  cr_expect_gt(t.reflection, 5, "the reflection bound in %d cases",
               t.reflection);
}

/* A map no wider than a strip is one block: both bounds are the exact
 * count, as the dp gives it (pins, bans and wrap-around kept). */
Test(bounds, meet_when_the_map_is_one_block) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  struct {
    int w, h;
    bool periodic;
    const char *pin;
    bool ban;
  } cases[] = {
      {3, 9, false, NULL, false},  {9, 3, false, "1,4=C", false},
      {4, 6, true, NULL, false},   {5, 5, false, NULL, true},
      {4, 4, true, "0,0=L", true},
  };
  mpz_t want, lo, hi;
  mpz_inits(want, lo, hi, NULL);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_map *m =
        map_new(r, cases[i].w, cases[i].h, TILESAT_SQUARE, cases[i].periodic);
    tilesat_error err;
    if (cases[i].pin)
      cr_assert_eq(tilesat_map_pin_spec(m, cases[i].pin, &err), 0, "%s",
                   err.msg);
    if (cases[i].ban)
      cr_assert_eq(tilesat_map_ban(m, 1, 1, 0, &err), 0, "%s", err.msg);
    exact(m, want);
    tilesat_count_result res;
    bounds(m, 9, lo, hi, &res);
    char *w = mpz_get_str(NULL, 10, want);
    cr_expect_str_eq(res.lower, w, "case %zu", i);
    cr_expect_str_eq(res.upper, w, "case %zu", i);
    cr_expect_str_eq(res.count, w, "case %zu", i);
    /* no map: check's refutation proves it before any strip */
    if (strcmp(w, "0"))
      cr_expect_str_eq(res.upper_why, "exact: the map counted whole");
    else
      cr_expect(!strncmp(res.upper_why, "proved: no valid map (", 22), "%s",
                res.upper_why);
    free(w);
    tilesat_count_result_free(&res);
    tilesat_map_free(m);
  }
  mpz_clears(want, lo, hi, NULL);
  tilesat_rules_free(r);
}

typedef struct heard {
  char notice[4096];
  int auto_dp; /* progress lines of auto choosing and running the dp */
} heard;

static void hear_notice(void *user, const char *line) { /* every notice */
  heard *h = user;
  size_t at = strlen(h->notice);
  snprintf(h->notice + at, sizeof h->notice - at, "%s\n", line);
}

static void hear_progress(void *user, const char *line) {
  heard *h = user;
  h->auto_dp += !strncmp(line, "auto: ", 6);
}

/* auto: the dp, saying so in its progress, where it is predicted to
 * finish soon; proved bounds, said in a notice, where it is not (Knots
 * 32x32: the dp's frontier of 32 cells). */
Test(bounds, auto_says_which_method_and_why) {
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(coast, 10, 10, TILESAT_SQUARE, false);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  heard h = {0};
  o.progress = hear_progress;
  o.notice = hear_notice;
  o.progress_user = &h;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_expect_eq(res.method, TILESAT_METHOD_DP);
  cr_expect_str_eq(res.count, "176312");
  cr_expect_gt(h.auto_dp, 0);
  cr_expect_str_eq(h.notice, "");
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(coast);

  tilesat_rules *knots = tileset("Knots");
  m = map_new(knots, 32, 32, TILESAT_SQUARE, false);
  o.bounds_width = 3;
  o.particles = 1000; /* the estimate beside the bounds, kept cheap */
  o.replicates = 3;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_expect_eq(res.method, TILESAT_METHOD_BOUNDS);
  cr_expect_null(res.count);
  cr_expect(res.estimated, "auto gives no estimate beside its bounds");
  /* the estimate's interval meets the proved one */
  cr_expect(res.estimate_log10 + res.estimate_halfwidth >=
                    res.lower_log2 * log10(2.0) &&
                res.estimate_log10 - res.estimate_halfwidth <=
                    res.upper_log2 * log10(2.0),
            "estimate 10^%.1f +- %.1f outside the bounds", res.estimate_log10,
            res.estimate_halfwidth);
  cr_expect(strstr(h.notice, "auto: the exact dp would take about "), "%s",
            h.notice);
  cr_expect(strstr(h.notice, "proved bounds instead"), "%s", h.notice);
  cr_expect_lt(res.lower_log2, res.upper_log2);
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(knots);
}

/* auto beside its bounds: says what the estimate will run and that
 * --method bounds answers without it, then leaves the estimate out,
 * saying so, once it is predicted past its limit (a minute by default:
 * Castle 1024x1024's gave no answer in 180 s; here 1 ms). */
Test(bounds, auto_leaves_out_an_estimate_past_its_limit) {
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(coast, 12, 12, TILESAT_SQUARE, false);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  heard h = {0};
  o.notice = hear_notice;
  o.progress = hear_progress;
  o.progress_user = &h;
  o.max_memory = 8192; /* the strips fit, the whole map's dp does not */
  o.bounds_width = 3;
  o.particles = 1000;
  o.replicates = 3;
  o.estimate_seconds = 1e-6;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_expect_eq(res.method, TILESAT_METHOD_BOUNDS);
  cr_expect(!res.estimated, "an estimate past its limit was made");
  cr_expect(strstr(h.notice, "auto: proved bounds ready (between 10^"), "%s",
            h.notice);
  cr_expect(strstr(h.notice, "); an estimate beside them next: 3 replicates "
                             "of 1000 particles over 144 cells, left out if "
                             "predicted past 1e-06 s (--method bounds answers "
                             "with the bounds alone)\n"),
            "%s", h.notice);
  cr_expect(strstr(h.notice,
                   "auto: the estimate beside the bounds would take about "),
            "%s", h.notice);
  cr_expect(strstr(h.notice, " (3 replicates of 1000 particles over 144 "
                             "cells; "),
            "%s", h.notice);
  cr_expect(strstr(h.notice, "), past 1e-06 s: left out, the bounds answer "
                             "alone (--method estimate makes it)\n"),
            "%s", h.notice);
  cr_expect(!strstr(h.notice, "no estimate"), "%s", h.notice);
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(coast);
}

typedef struct left_heard {
  int lines, with_left;
} left_heard;

static void hear_left(void *user, const char *line) {
  left_heard *h = user;
  h->lines += !strncmp(line, "estimate: ", 10);
  h->with_left += !strncmp(line, "estimate: replicate ", 20) &&
                  strstr(line, " left") && strstr(line, ", about ");
}

/* The estimate's progress says the time left once it has a measure of it
 * (Castle 256x256's said none for 43 s). */
Test(bounds, estimate_progress_says_the_time_left) {
  tilesat_rules *knots = tileset("Knots");
  tilesat_map *m = map_new(knots, 16, 16, TILESAT_SQUARE, false);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_ESTIMATE;
  left_heard h = {0};
  o.progress = hear_left;
  o.progress_user = &h;
  o.particles = 1000;
  o.replicates = 2;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_expect(res.estimated);
  cr_expect_gt(h.lines, 0);
  cr_expect_gt(h.with_left, 0, "%d lines, none with the time left", h.lines);
  tilesat_count_result_free(&res);
  tilesat_map_free(m);
  tilesat_rules_free(knots);
}

/* The last line of `count --method bounds` and the two before it: each
 * bound with what it guarantees, whole when short; 10^ and 2^ rounded
 * away from the count when long. */
Test(bounds_cli, prints_both_bounds_and_what_they_guarantee) {
  run_result r = RUN("count", "rules/coast.rules", "--size", "10x10",
                     "--method", "bounds", "--strip-width", "3");
  cr_assert_eq(r.code, 0, "%s", r.err);
  long lo, hi, lo2, hi2;
  char why_lo[256], why_hi[256];
  cr_assert_eq(sscanf(r.out,
                      "lower: %ld (10^%*f, 2^%*f): %255[^\n]\n"
                      "upper: %ld (10^%*f, 2^%*f): %255[^\n]\n"
                      "between %ld and %ld\n",
                      &lo, why_lo, &hi, why_hi, &lo2, &hi2),
               6, "%s", r.out);
  cr_expect(lo <= 176312 && 176312 <= hi, "%ld %ld", lo, hi);
  cr_expect_eq(lo, lo2);
  cr_expect_eq(hi, hi2);
  cr_expect(!strncmp(why_lo, "proved: ", 8), "%s", why_lo);
  cr_expect(!strncmp(why_hi, "proved: ", 8), "%s", why_hi);
  run_free(&r);

  /* Knots 40x4: about 10^118 maps, counted exactly by the dp */
  char *dir = temp_dir(), rules[512];
  snprintf(rules, sizeof rules, "%s/knots.rules", dir);
  r = RUN("import-tileset", "tests/data/wfc/tilesets/Knots.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("count", rules, "--size", "40x4", "--method", "dp");
  cr_assert_eq(r.code, 0, "%s", r.err);
  mpz_t n;
  mpz_init_set_str(n, r.out, 10);
  double l2 = ts_log2(n), l10 = l2 * log10(2.0);
  mpz_clear(n);
  run_free(&r);
  r = RUN("count", rules, "--size", "40x4", "--method", "bounds",
          "--strip-width", "2");
  cr_assert_eq(r.code, 0, "%s", r.err);
  const char *last = strstr(r.out, "\nbetween ");
  cr_assert(last++, "%s", r.out);
  double a, b, c, d;
  cr_assert_eq(sscanf(last, "between 10^%lf and 10^%lf (2^%lf and 2^%lf)\n", &a,
                      &b, &c, &d),
               4, "%s", last);
  cr_expect(a <= l10 && l10 <= b, "10^%.3f outside [%g, %g]", l10, a, b);
  cr_expect(c <= l2 && l2 <= d, "2^%.3f outside [%g, %g]", l2, c, d);
  char label[128];
  snprintf(label, sizeof label, "lower: 10^%.1f (2^%.1f): proved: ", a, c);
  cr_expect(strstr(r.out, label), "want '%s' in %s", label, r.out);
  snprintf(label, sizeof label, "upper: 10^%.1f (2^%.1f): proved: ", b, d);
  cr_expect(strstr(r.out, label), "want '%s' in %s", label, r.out);
  run_free(&r);
  rm_dir(dir);

  expect_cli_error("tilesat: --strip-width goes with --method bounds\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--method",
                   "dp", "--strip-width", "2");
  expect_cli_error(
      "tilesat: --method: sample takes auto, dp, approx or chain\n", "sample",
      "rules/coast.rules", "--size", "3x3", "--method", "bounds");
}
