/* count (dp, enum, approx) and sample: known values, cross-checks between
 * independent methods (the proved bounds contain the dp's count on the
 * cross-checks' cases), the approximation guarantee, uniformity. */
#include "count/approx.h" /* test hooks */
#include "count/count.h"
#include "helpers.h"
#include "png_helpers.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static tilesat_rules *coast(void) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  cr_assert(r, "%s", err.msg);
  return r;
}

/* The count as a decimal string (caller frees). */
static char *count_with(const tilesat_map *m, tilesat_method method,
                        tilesat_backend b) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = method;
  o.solve.backend = b;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_assert_eq(res.method, method);
  return res.count;
}

/* The dp with the plain key (each placed tile's class), which the seen key
 * (what the cells to come can see) must agree with, and the seen key with
 * its candidate sets held as where their numbers cannot be built before
 * the run (count_with's dp builds them): numbered as they are met, and
 * the sets themselves (tilesat-mpi --shard).  All must count `want`. */
static void expect_keys_agree(const tilesat_map *m, const char *want,
                              const char *desc) {
  static const char *const keys[] = {"plain key", "sets numbered as met",
                                     "sets themselves"};
  for (int sets = 0; sets <= 2; sets++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    o.dp_plain_key = !sets;
    o.dp_sets = sets;
    tilesat_count_result res;
    tilesat_error err;
    cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s: %s", desc, err.msg);
    cr_expect_str_eq(res.count, want, "%s: dp (%s) %s, expected %s", desc,
                     keys[sets], res.count, want);
    tilesat_count_result_free(&res);
  }
}

/* count --method bounds at strips 1 and 2 lines wide: the proved bounds
 * contain the exact count `want` (tests/test_bounds.c checks every width
 * on cases of its own). */
static void expect_bounds_contain(const tilesat_map *m, const char *want,
                                  const char *desc) {
  mpz_t n, lo, hi;
  mpz_inits(n, lo, hi, NULL);
  cr_assert_eq(mpz_set_str(n, want, 10), 0);
  for (int width = 1; width <= 2; width++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_BOUNDS;
    o.bounds_width = width;
    tilesat_count_result res;
    tilesat_error err;
    cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s: %s", desc, err.msg);
    mpz_set_str(lo, res.lower, 10);
    mpz_set_str(hi, res.upper, 10);
    cr_expect(mpz_cmp(lo, n) <= 0 && mpz_cmp(n, hi) <= 0,
              "%s, width %d: %s not between %s and %s", desc, width, want,
              res.lower, res.upper);
    tilesat_count_result_free(&res);
  }
  mpz_clears(n, lo, hi, NULL);
}

/* A w x h map of r in r's topology, with an optional pin. */
static tilesat_map *case_map(const tilesat_rules *r, int w, int h,
                             bool periodic, const char *pin) {
  tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), periodic);
  tilesat_error err;
  if (pin)
    cr_assert_eq(tilesat_map_pin_spec(m, pin, &err), 0, "%s: %s", pin, err.msg);
  return m;
}

static void expect_dp(const tilesat_rules *r, int w, int h, const char *want) {
  tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), false);
  char *got = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
  cr_expect_str_eq(got, want, "%dx%d: dp %s, expected %s", w, h, got, want);
  free(got);
  tilesat_map_free(m);
}

Test(count, known_values) {
  tilesat_rules *r = coast();
  const char *nxn[] = {"3", "10", "35", "122", "421", "1436"};
  for (int n = 1; n <= 6; n++)
    expect_dp(r, n, n, nxn[n - 1]);
  expect_dp(r, 10, 10, "176312");
  expect_dp(r, 24, 24, "1945651872306");
  expect_dp(r, 1, 2, "4");
  tilesat_rules_free(r);
  tilesat_error err;
  tilesat_rules *hard = tilesat_rules_read_file("rules/hard.rules", &err);
  expect_dp(hard, 2, 2, "1");
  expect_dp(hard, 3, 3, "0");
  expect_dp(hard, 1, 7, "1");
  tilesat_rules_free(hard);
}

/* dp, enum on both backends, and brute force agree on random rule sets:
 * square and hex, open and periodic, with and without pins. */
Test(count, dp_agrees_with_enum_and_brute_force) {
  test_rng = 4242;
  int nonzero = 0;
  for (int iter = 0; iter < 120; iter++) {
    random_case c;
    random_case_new(iter, &c);
    nonzero += c.brute > 0;
    char want[32];
    snprintf(want, sizeof want, "%ld", c.brute);
    char *dp = count_with(c.map, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    cr_expect_str_eq(dp, want, "%s: dp %s", c.desc, dp);
    free(dp);
    expect_keys_agree(c.map, want, c.desc);
    expect_bounds_contain(c.map, want, c.desc);
    for (int b = 0; b < NBACKENDS; b++) {
      char *en = count_with(c.map, TILESAT_METHOD_ENUM, backends[b]);
      cr_expect_str_eq(en, want, "%s: enum on %s %s", c.desc,
                       tilesat_backend_name(backends[b]), en);
      free(en);
    }
    random_case_free(&c);
  }
  cr_expect_gt(nonzero, 30);
}

/* Larger than brute force reaches: dp against enumeration, including the
 * frontier's anchors on periodic maps and the column-major order. */
Test(count, dp_agrees_with_enum_on_larger_maps) {
  tilesat_rules *r = coast();
  tilesat_error err;
  tilesat_rules *hex = tilesat_rules_read_file("rules/coast-hex.rules", &err);
  struct {
    tilesat_rules *r;
    int w, h;
    bool periodic;
    const char *pin;
  } cases[] = {
      {r, 7, 3, false, NULL},   {r, 3, 7, false, "6,1=S"},
      {r, 4, 4, true, NULL},    {r, 5, 3, true, NULL},
      {r, 2, 6, true, "1,1=S"}, {hex, 4, 4, false, NULL},
      {hex, 5, 4, true, NULL},  {hex, 3, 6, false, "0,2=L"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_map *m = case_map(cases[i].r, cases[i].w, cases[i].h,
                              cases[i].periodic, cases[i].pin);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    char desc[32];
    snprintf(desc, sizeof desc, "case %zu", i);
    expect_keys_agree(m, dp, desc);
    expect_bounds_contain(m, dp, desc);
    for (int b = 0; b < NBACKENDS; b++) {
      char *en = count_with(m, TILESAT_METHOD_ENUM, backends[b]);
      cr_expect_str_eq(dp, en, "case %zu: dp %s, enum on %s %s", i, dp,
                       tilesat_backend_name(backends[b]), en);
      free(en);
    }
    cr_expect_str_neq(dp, "0", "case %zu should have maps", i);
    free(dp);
    tilesat_map_free(m);
  }
  tilesat_rules_free(hex);
  tilesat_rules_free(r);
}

/* The DP keeps a frontier cell only as the class of tiles its later
 * neighbours can tell apart, coarsened as they are placed: on WFC
 * tilesets, whose rules are edge sockets, that is one socket per edge.
 * enum has no such shortcut. */
Test(count, dp_agrees_with_enum_on_wfc_tilesets) {
  struct {
    const char *set, *subset;
    int w, h;
    bool periodic;
    const char *pin;
  } cases[] = {
      {"Knots", "Dense", 3, 2, false, NULL},
      {"Knots", "Dense", 3, 3, true, NULL},
      {"Knots", "Dense", 2, 3, false, "1,0=cross 1"},
      {"Castle", NULL, 2, 2, false, NULL},
      {"Castle", NULL, 3, 3, true, NULL},
      {"Castle", NULL, 4, 3, true, "0,0=river 0"},
      {"Rooms", NULL, 3, 2, false, NULL},
      {"Rooms", NULL, 4, 3, true, NULL},
      {"Circuit", NULL, 2, 2, true, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/wfc/tilesets/%s.xml", cases[i].set);
    tilesat_error err;
    tilesat_rules *r =
        tilesat_import_tileset(path, cases[i].subset, NULL, &err);
    cr_assert(r, "%s", err.msg);
    tilesat_map *m =
        case_map(r, cases[i].w, cases[i].h, cases[i].periodic, cases[i].pin);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    char desc[64];
    snprintf(desc, sizeof desc, "%s %dx%d", cases[i].set, cases[i].w,
             cases[i].h);
    expect_keys_agree(m, dp, desc);
    expect_bounds_contain(m, dp, cases[i].set);
    for (int b = 0; b < NBACKENDS; b++) {
      char *en = count_with(m, TILESAT_METHOD_ENUM, backends[b]);
      cr_expect_str_eq(dp, en, "%s %dx%d: dp %s, enum on %s %s", cases[i].set,
                       cases[i].w, cases[i].h, dp,
                       tilesat_backend_name(backends[b]), en);
      free(en);
    }
    cr_expect_str_neq(dp, "0", "case %zu should have maps", i);
    free(dp);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* Counts far wider than T^cells' floor(log2 T) bits a cell: 3 tiles that
 * allow everything have exactly 3^cells maps. */
Test(count, dp_counts_need_every_bit) {
  tilesat_rules *r = rules_from_text("tilesat-rules 1\n"
                                     "tile A 1\ntile B 1\ntile C 1\n"
                                     "allow A N A B C\nallow A E A B C\n"
                                     "allow A S A B C\nallow A W A B C\n"
                                     "allow B N A B C\nallow B E A B C\n"
                                     "allow B S A B C\nallow B W A B C\n"
                                     "allow C N A B C\nallow C E A B C\n"
                                     "allow C S A B C\nallow C W A B C\n");
  tilesat_map *m = map_new(r, 40, 25, TILESAT_SQUARE, false);
  char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
  mpz_t want;
  mpz_init(want);
  mpz_ui_pow_ui(want, 3, 1000);
  char *w = mpz_get_str(NULL, 10, want);
  cr_expect_str_eq(dp, w);
  free(w);
  free(dp);
  mpz_clear(want);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* A layer's count width comes from the layer before's total, which can drop
 * sharply: R only follows R, so of the 18^p-odd prefixes before the gate G
 * only R...R survives it, and the states after G (count 1) must not be
 * added with the wide prefixes' limbs into their narrow entries (that
 * wrote past the last entry).  After G: F0..F7, then Fk is followed by any
 * F or by Hk: 8 * 9 maps wherever G stands. */
Test(count, dp_counts_shrink_across_limbs) {
  char text[4096] = "tilesat-rules 1\n";
  char all[256] = "", fs[64] = "";
  for (int k = 0; k < 8; k++) {
    snprintf(fs + strlen(fs), sizeof fs - strlen(fs), " F%d", k);
    snprintf(text + strlen(text), sizeof text - strlen(text),
             "tile F%d 1\ntile H%d 1\n", k, k);
  }
  strcat(text, "tile R 1\ntile G 1\n");
  snprintf(all, sizeof all, "%s H0 H1 H2 H3 H4 H5 H6 H7 R G", fs);
  const char *tiles[] = {"F0", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "H0",
                         "H1", "H2", "H3", "H4", "H5", "H6", "H7", "R",  "G"};
  for (int t = 0; t < 18; t++) {
    char *e = text + strlen(text);
    size_t room = sizeof text - strlen(text);
    if (t < 8) /* Fk: E any F or Hk; W any F or H, or G */
      snprintf(e, room,
               "allow %s E%s H%d\nallow %s W%s H0 H1 H2 H3 H4 H5 "
               "H6 H7 G\n",
               tiles[t], fs, t, tiles[t], fs);
    else if (t < 16) /* Hk: W Fk; E any F */
      snprintf(e, room, "allow %s W F%d\nallow %s E%s\n", tiles[t], t - 8,
               tiles[t], fs);
    else if (t == 16) /* R: only after R; G or R after it */
      snprintf(e, room, "allow R W R\nallow R E R G\n");
    else
      snprintf(e, room, "allow G W R\nallow G E%s\n", fs);
    e = text + strlen(text);
    room = sizeof text - strlen(text);
    snprintf(e, room, "allow %s N%s\nallow %s S%s\n", tiles[t], all, tiles[t],
             all);
  }
  tilesat_rules *r = rules_from_text(text);
  for (int p = 20; p <= 400; p += 20) {
    tilesat_map *m = map_new(r, p + 3, 1, TILESAT_SQUARE, false);
    char pin[32];
    snprintf(pin, sizeof pin, "0,%d=G", p);
    tilesat_error err;
    cr_assert_eq(tilesat_map_pin_spec(m, pin, &err), 0, "%s", err.msg);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    cr_expect_str_eq(dp, "72", "gate at %d: dp %s", p, dp);
    free(dp);
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

static double approx_of(const tilesat_map *m, double eps, double delta,
                        uint64_t seed) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_APPROX;
  o.epsilon = eps;
  o.delta = delta;
  o.seed = seed;
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.approximate);
  double v = strtod(res.count, NULL);
  tilesat_count_result_free(&res);
  return v;
}

/* ApproxMC's guarantee: within a factor 1+epsilon (fixed seeds). */
Test(count, approx_within_its_factor) {
  tilesat_rules *r = coast();
  int sizes[][2] = {{6, 6}, {8, 7}};
  const double exact[] = {1436, 0};
  for (int i = 0; i < 2; i++) {
    tilesat_map *m =
        map_new(r, sizes[i][0], sizes[i][1], TILESAT_SQUARE, false);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    double want = exact[i] ? exact[i] : strtod(dp, NULL);
    double got = approx_of(m, 0.8, 0.2, 7 + (uint64_t)i);
    cr_expect(got >= want / 1.8 && got <= want * 1.8,
              "%dx%d: approx %.0f, exact %.0f", sizes[i][0], sizes[i][1], got,
              want);
    free(dp);
    tilesat_map_free(m);
  }
  /* fewer maps than the threshold: the bounded count is exact */
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_expect_eq(approx_of(m, 0.8, 0.2, 1), 35);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The number of estimates, read from the progress lines. */
static void last_estimate_line(void *user, const char *line) {
  if (strstr(line, "approx: estimate"))
    snprintf(user, 160, "%s", line);
}

/* ApproxMC6 (Yang, Meel, CAV 2023): the smallest odd t whose two binomial
 * tails, at the paper's per-estimate bounds Pr[L] and Pr[U], sum to at most
 * delta.  Expected values computed independently of the library (exact
 * binomial sums in Python) for one epsilon of each row of the paper's
 * table. */
Test(count, approx_estimates_follow_approxmc6) {
  tilesat_rules *r = coast();
  tilesat_map *m = map_new(r, 7, 3, TILESAT_SQUARE, false);
  const struct {
    double eps, delta;
    int t;
  } cases[] = {{0.8, 0.2, 3}, {0.8, 0.05, 7}, {0.8, 0.001, 19}, {0.3, 0.2, 5},
               {2, 0.1, 3},   {4, 0.01, 5},   {6, 0.2, 1},      {6, 0.001, 5}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_APPROX;
    o.epsilon = cases[i].eps;
    o.delta = cases[i].delta;
    char line[160] = "";
    o.progress = last_estimate_line;
    o.progress_user = line;
    tilesat_count_result res;
    tilesat_error err;
    cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
    tilesat_count_result_free(&res);
    char want[32];
    snprintf(want, sizeof want, "estimate %d of %d:", cases[i].t, cases[i].t);
    cr_expect(strstr(line, want), "epsilon %g delta %g: '%s', want '%s'",
              cases[i].eps, cases[i].delta, line, want);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* approx hashes the tile bits of each cell (auxiliary variables defined
 * from the tile variables) when they are fewer than T-1: counting the
 * distinct bit vectors must count the maps exactly (the bits are functions
 * of the tiles and determine them).  Enumerated with blocking clauses over
 * the support alone, against the dp, on square, hex, periodic and pinned
 * maps, pairwise and ladder encodings (8 and 9 tiles), 16 tiles, and a
 * 3-tile rule set where the tile variables are kept. */
Test(count, approx_bit_support_counts_the_maps) {
  tilesat_error err;
  const char *files[] = {"rules/dungeon8.rules", "rules/patchwork16.rules",
                         "rules/entropy7.rules", "rules/coast-hex.rules",
                         "rules/coast.rules"};
  tilesat_rules *r[5];
  for (int i = 0; i < 5; i++) {
    r[i] = tilesat_rules_read_file(files[i], &err);
    cr_assert(r[i], "%s", err.msg);
  }
  struct {
    int rules, w, h;
    bool periodic;
    const char *pin;
    bool bits;
  } cases[] = {
      {0, 2, 2, false, NULL, true},    {0, 3, 2, true, NULL, true},
      {0, 3, 2, false, "0,1=#", true}, {1, 2, 2, false, NULL, true},
      {1, 1, 3, false, NULL, true},    {2, 2, 2, false, NULL, true},
      {2, 3, 1, true, NULL, true},     {3, 3, 3, false, NULL, false},
      {4, 4, 3, false, NULL, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *rr = r[cases[i].rules];
    tilesat_map *m =
        case_map(rr, cases[i].w, cases[i].h, cases[i].periodic, cases[i].pin);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    long want = strtol(dp, NULL, 10);
    cr_assert(want > 0 && want < 20000, "case %zu: %s maps", i, dp);
    bool bits;
    long got = ts_approx_support_count(m, want + 10, &bits);
    cr_expect_eq(got, want, "case %zu (%s %dx%d): %ld support vectors, dp %s",
                 i, files[cases[i].rules], cases[i].w, cases[i].h, got, dp);
    cr_expect_eq(bits, cases[i].bits, "case %zu: bits %d", i, bits);
    free(dp);
    tilesat_map_free(m);
  }
  for (int i = 0; i < 5; i++)
    tilesat_rules_free(r[i]);
}

/* Maps listed by PicoSAT, for checks of approx's cells. */
typedef struct map_list {
  const tilesat_map *m;
  TS_VEC(int) tiles;
  long n;
} map_list;

static int list_map(void *user, const int *tiles) {
  map_list *l = user;
  for (int c = 0; c < l->m->ncells; c++)
    TS_PUSH(l->tiles, tiles[c]);
  l->n++;
  return 0;
}

/* Every bounded enumeration of approx (CryptoMiniSat, XORs, maps read
 * from the support) is exact: it finds min(thresh, maps in the cell),
 * where the maps in the cell are those of an independent enumeration on
 * PicoSAT that satisfy the same rows.  A missed map (a wrong UNSAT) would
 * lower the estimate without any error.  Row counts are visited galloping
 * up then down and again in order, as find_rows does, so that maps saved
 * earlier and a completely enumerated cell are reused; both supports
 * (tile variables, tile bits), hex, periodic and pinned maps. */
Test(count, approx_cells_are_counted_exactly) {
  tilesat_error err;
  map_case cases[] = {
      {"rules/coast.rules", 5, 4, false, NULL},
      {"rules/coast-hex.rules", 4, 3, false, NULL},
      {"rules/dungeon8.rules", 3, 3, true, NULL},
      {"rules/dungeon8.rules", 3, 3, false, "1,1=#"},
      {"rules/patchwork16.rules", 2, 2, false, NULL},
  };
  int order[] = {1, 2, 4, 8, 16, 12, 10, 11, 9, 0, 3, 5, 6, 7, 13, 14, 15};
  int n = (int)(sizeof order / sizeof order[0]);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    map_list all = {m, {0}, 0};
    cr_assert_geq(tilesat_enumerate(m, SOLVE(backends[i % NBACKENDS]), 0,
                                    list_map, &all, &err),
                  0, "%s", err.msg);
    cr_assert_gt(all.n, 40, "case %zu: %ld maps, too few", i, all.n);
    for (uint64_t seed = 1; seed <= 3; seed++) {
      long got[17], want[17];
      int thresh = 20;
      ts_approx_cells(m, seed, thresh, order, n, all.tiles.v, all.n, got, want);
      for (int k = 0; k < n; k++)
        cr_expect_eq(got[k], want[k] < thresh ? want[k] : thresh,
                     "case %zu seed %d, %d rows: %ld maps, %ld in the cell", i,
                     (int)seed, order[k], got[k], want[k]);
    }
    free(all.tiles.v);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* Within the factor on every kind of map, against the dp's exact counts
 * (all above the threshold, so they are estimated); and the same seed
 * gives the same answer.  Seeds 1 and 2; the sanitizer pass (test_cases
 * halved) seed 1 alone. */
Test(count, approx_within_its_factor_on_every_topology) {
  map_case cases[] = {
      {"rules/coast.rules", 7, 3, false, NULL},
      {"rules/coast-hex.rules", 4, 4, false, NULL},
      {"rules/coast-hex.rules", 6, 6, false, NULL},
      {"rules/coast-hex.rules", 3, 6, false, "0,2=L"},
      {"rules/dungeon8.rules", 3, 3, true, NULL},
      {"rules/dungeon8.rules", 4, 3, false, "1,1=#"},
      {"rules/dungeon8.rules", 4, 3, false, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    char *dp = count_with(m, TILESAT_METHOD_DP, TILESAT_PICOSAT);
    double want = strtod(dp, NULL);
    cr_assert_gt(want, 72, "case %zu: %s maps, not estimated", i, dp);
    for (uint64_t seed = 1; seed <= (uint64_t)test_cases(2); seed++) {
      double got = approx_of(m, 0.8, 0.2, seed);
      cr_expect(got >= want / 1.8 && got <= want * 1.8,
                "case %zu seed %d: approx %.0f, exact %s", i, (int)seed, got,
                dp);
      cr_expect_eq(approx_of(m, 0.8, 0.2, seed), got, "case %zu: same seed", i);
    }
    free(dp);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

typedef struct tally {
  const tilesat_map *map;
  int w, h, n;
  char **seen;
  int *hits, nseen;
} tally;

static int record(void *user, const int *tiles) {
  tally *t = user;
  char key[64] = {0};
  for (int c = 0; c < t->w * t->h; c++)
    key[c] = (char)('a' + tiles[c]);
  for (int i = 0; i < t->nseen; i++)
    if (!strcmp(t->seen[i], key)) {
      t->hits[i]++;
      return 0;
    }
  t->seen[t->nseen] = strdup(key);
  t->hits[t->nseen++] = 1;
  return 0;
}

/* Every map of a case, listed by enumeration (PicoSAT) as strings of
 * tiles, sorted; draws are tallied against them. */
typedef struct census {
  const tilesat_map *map;
  TS_VEC(char *) maps;
  long *hits, draws, strangers;
} census;

static char *map_string(const tilesat_map *m, const int *tiles) {
  char *s = malloc((size_t)m->ncells + 1);
  for (int c = 0; c < m->ncells; c++)
    s[c] = (char)('A' + tiles[c]);
  s[m->ncells] = 0;
  return s;
}

static int census_list(void *user, const int *tiles) {
  census *c = user;
  TS_PUSH(c->maps, map_string(c->map, tiles));
  return 0;
}

static int cmp_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void census_new(census *c, const tilesat_map *m) {
  memset(c, 0, sizeof *c);
  c->map = m;
  tilesat_error err;
  cr_assert_geq(
      tilesat_enumerate(m, SOLVE(TILESAT_PICOSAT), 0, census_list, c, &err), 0,
      "%s", err.msg);
  qsort(c->maps.v, c->maps.n, sizeof *c->maps.v, cmp_string);
  c->hits = calloc(c->maps.n, sizeof *c->hits);
}

static int census_draw(void *user, const int *tiles) {
  census *c = user;
  char *s = map_string(c->map, tiles);
  char **at = bsearch(&s, c->maps.v, c->maps.n, sizeof *c->maps.v, cmp_string);
  if (at)
    c->hits[at - c->maps.v]++;
  else
    c->strangers++;
  c->draws++;
  free(s);
  return 0;
}

/* Pearson's chi-square of the draws against the uniform distribution. */
static double census_chi_square(const census *c) {
  double chi = 0, expect = (double)c->draws / (double)c->maps.n;
  for (size_t i = 0; i < c->maps.n; i++)
    chi +=
        ((double)c->hits[i] - expect) * ((double)c->hits[i] - expect) / expect;
  return chi;
}

/* The chi-square distribution's 0.999 quantile for k degrees of freedom
 * (Wilson and Hilferty's approximation, within 0.5% from k = 30 up). */
static double chi_square_999(double k) {
  double v = 2 / (9 * k), z = 3.0902;
  return k * pow(1 - v + z * sqrt(v), 3);
}

static void census_free(census *c) {
  for (size_t i = 0; i < c->maps.n; i++)
    free(c->maps.v[i]);
  free(c->maps.v);
  free(c->hits);
}

/* Exactly uniform, however little the sampler may keep: a chi-square test
 * of 20 draws a map against every map listed by enumeration, on square,
 * hex, periodic and pinned maps and on WFC tilesets (whose frontier keeps
 * tile classes, the walk choosing the tile), with the sampler's own memory
 * share, with nothing stored (every walk rebuilds from layer 0), and with
 * room for a few layers (several stretches, stored as they fit).  With
 * fixed seeds this is deterministic.  The sanitizer pass (test_cases
 * halved) keeps the sampler's own share on every case and takes each
 * other bound on every other case (nothing stored: square, hex pinned,
 * Knots; a few layers: square, periodic, Circuit periodic): the walks are
 * the same code whatever is stored, and each check keeps its 20 draws a
 * map. */
Test(sample, is_uniform_whatever_it_stores) {
  map_case cases[] = {
      {"rules/coast.rules", 3, 3, false, NULL},
      {"rules/coast.rules", 6, 2, false, NULL},
      {"rules/coast-hex.rules", 3, 6, false, "0,2=L"},
      {"rules/dungeon8.rules", 3, 2, true, NULL},
      {"Knots.xml", 2, 2, false, NULL},
      {"Circuit.xml", 2, 2, true, NULL},
  };
  size_t keeps[] = {0, 1, 200};
  bool every = test_cases(2) == 2; /* else the sanitizer pass's rotation */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m;
    tilesat_error err;
    if (strstr(cases[i].rules, ".xml")) {
      char path[256];
      snprintf(path, sizeof path, "tests/data/wfc/tilesets/%s", cases[i].rules);
      r = tilesat_import_tileset(path, strstr(path, "Knots") ? "Dense" : NULL,
                                 NULL, &err);
      cr_assert(r, "%s", err.msg);
      m = case_map(r, cases[i].w, cases[i].h, cases[i].periodic, NULL);
    } else {
      m = case_open(&cases[i], &r);
    }
    census c;
    census_new(&c, m);
    cr_assert_gt(c.maps.n, 30, "case %zu: %zu maps", i, c.maps.n);
    for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++) {
      if (!every && k > 0 && (k - 1) != i % 2)
        continue;
      tilesat_count_options o;
      tilesat_count_options_init(&o);
      o.seed = 100 + k;
      memset(c.hits, 0, c.maps.n * sizeof *c.hits);
      c.draws = c.strangers = 0;
      int draws = 20 * (int)c.maps.n;
      cr_assert_eq(
          ts_dp_sample_with(m, &o, draws, keeps[k], 97, census_draw, &c, &err),
          draws, "%s", err.msg);
      cr_expect_eq(c.strangers, 0, "case %zu: maps enumeration does not list",
                   i);
      long missed = 0;
      for (size_t j = 0; j < c.maps.n; j++)
        missed += !c.hits[j];
      cr_expect_eq(missed, 0, "case %zu keep %zu: %ld maps never drawn", i,
                   keeps[k], missed);
      double chi = census_chi_square(&c),
             limit = chi_square_999((double)c.maps.n - 1);
      cr_expect_lt(chi, limit,
                   "case %zu keep %zu: chi-square %.1f over %zu maps (0.999 "
                   "quantile %.1f)",
                   i, keeps[k], chi, c.maps.n, limit);
    }
    census_free(&c);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* Maps as drawn, in order. */
typedef struct drawn {
  const tilesat_map *map;
  TS_VEC(int) tiles;
  int n, invalid;
} drawn;

static int keep_draw(void *user, const int *tiles) {
  drawn *d = user;
  for (int c = 0; c < d->map->ncells; c++)
    TS_PUSH(d->tiles, tiles[c]);
  d->invalid += !tilesat_map_verify(d->map, tiles, NULL, 0);
  d->n++;
  return 0;
}

static bool same_draws(const drawn *a, const drawn *b) {
  return a->n == b->n && (!a->n || !memcmp(a->tiles.v, b->tiles.v,
                                           a->tiles.n * sizeof *a->tiles.v));
}

/* n maps drawn with seed 7 and the sampler's memory and batch forced. */
static drawn draw_with(const tilesat_map *m, int n, size_t keep, int batch) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.seed = 7;
  drawn d = {m, {0}, 0, 0};
  tilesat_error err;
  int got = ts_dp_sample_with(m, &o, n, keep, batch, keep_draw, &d, &err);
  cr_assert_geq(got, 0, "%s", err.msg);
  cr_assert_eq(got, d.n);
  return d;
}

/* What the sampler stores, and how many walkers go together, change how
 * often layers are rebuilt, never the maps: each map depends on the seed
 * and its number alone.  Random rule sets (square and hex, open and
 * periodic, pinned or not) and larger fixed cases, with nothing stored,
 * a few layers, and the default; one walker at a time, a few, and all.
 * The sanitizer pass (test_cases halved) compares each larger case with
 * one of its three bounds, in turn (each bound and batch on a case or
 * two); the random cases with all three. */
Test(sample, same_maps_whatever_it_stores) {
  test_rng = 77;
  for (int iter = 0; iter < 48; iter++) {
    random_case c;
    random_case_new(iter, &c);
    drawn ref = draw_with(c.map, 12, 0, 0);
    cr_expect_eq(ref.n, c.brute ? 12 : 0, "%s: %d maps", c.desc, ref.n);
    cr_expect_eq(ref.invalid, 0, "%s", c.desc);
    size_t keeps[] = {1, 40, 300};
    int batches[] = {1, 5, 0};
    for (int k = 0; k < 3; k++) {
      drawn d = draw_with(c.map, 12, keeps[k], batches[k]);
      cr_expect(same_draws(&d, &ref), "%s: keep %zu, batch %d: other maps",
                c.desc, keeps[k], batches[k]);
      free(d.tiles.v);
    }
    free(ref.tiles.v);
    random_case_free(&c);
  }
  map_case cases[] = {
      {"rules/coast.rules", 9, 7, false, "3,4=L"},
      {"rules/coast.rules", 4, 11, true, NULL},
      {"rules/coast-hex.rules", 7, 6, true, NULL},
      {"rules/dungeon8.rules", 5, 4, true, "2,2=#"},
      {"rules/dungeon8.rules", 6, 5, false, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    drawn ref = draw_with(m, 20, 0, 0);
    cr_expect_eq(ref.invalid, 0, "case %zu", i);
    size_t keeps[] = {1, 2000, 20000};
    for (int k = 0; k < 3; k++) {
      if (test_cases(2) < 2 && k != (int)i % 3)
        continue;
      drawn d = draw_with(m, 20, keeps[k], k + 1);
      cr_expect(same_draws(&d, &ref), "case %zu: keep %zu: other maps", i,
                keeps[k]);
      free(d.tiles.v);
    }
    free(ref.tiles.v);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* The sampler keeps close to the counter's memory: on Knots "Dense" 10x10
 * (where keeping every layer took 844 MB at 8x8), with a memory bound 1.5
 * times the smallest one count needs (found by bisection), sample still
 * draws its maps, valid and the same as with the default bound. */
Test(sample, knots_dense_10x10_in_the_memory_count_needs) {
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset("tests/data/wfc/tilesets/Knots.xml",
                                            "Dense", NULL, &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, 10, 10, TILESAT_SQUARE, false);
  size_t lo = 1024, hi = (size_t)64 << 20; /* count fails at lo, works at hi */
  while (hi - lo > 1024) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = TILESAT_METHOD_DP;
    o.max_memory = lo + (hi - lo) / 2;
    tilesat_count_result res;
    if (tilesat_count(m, &o, &res, &err)) {
      cr_assert(strstr(err.msg, "--max-memory"), "%s", err.msg);
      lo = o.max_memory;
    } else {
      hi = o.max_memory;
      tilesat_count_result_free(&res);
    }
  }
  drawn ref = draw_with(m, 10, 0, 0);
  tilesat_map_set_max_memory(m, hi + hi / 2);
  drawn d = draw_with(m, 10, 0, 0);
  cr_expect_eq(d.n, 10, "%d maps within %zu bytes (count needs %zu)", d.n,
               hi + hi / 2, hi);
  cr_expect_eq(d.invalid, 0);
  cr_expect(same_draws(&d, &ref), "other maps under the bound");
  free(d.tiles.v);
  free(ref.tiles.v);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

static int first_map(void *user, const int *tiles) {
  int *out = user;
  for (int c = 0; c < 12; c++)
    out[c] = tiles[c];
  return 1;
}

/* Both samplers: the same seed gives the same map, and none on UNSAT. */
Test(sample, same_seed_same_map_and_unsat) {
  tilesat_method methods[] = {TILESAT_METHOD_DP, TILESAT_METHOD_APPROX};
  for (int k = 0; k < 2; k++) {
    tilesat_rules *r = coast();
    tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, true);
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    o.method = methods[k];
    o.seed = 5;
    int a[12], b[12];
    tilesat_error err;
    cr_assert_eq(tilesat_sample(m, &o, 1, first_map, a, &err), 1, "%s",
                 err.msg);
    cr_assert_eq(tilesat_sample(m, &o, 1, first_map, b, &err), 1, "%s",
                 err.msg);
    cr_expect_arr_eq(a, b, sizeof a, "%s", tilesat_method_name(methods[k]));
    tilesat_map_free(m);
    tilesat_rules_free(r);
    tilesat_rules *hard = tilesat_rules_read_file("rules/hard.rules", &err);
    m = map_new(hard, 3, 3, TILESAT_SQUARE, false);
    cr_expect_eq(tilesat_sample(m, &o, 3, first_map, a, &err), 0);
    tilesat_map_free(m);
    tilesat_rules_free(hard);
  }
}

/* Chi-square of t's tallies against the uniform distribution on n maps. */
static double chi_square(const tally *t, int draws, int n) {
  double chi = 0, expect = (double)draws / n;
  for (int i = 0; i < t->nseen; i++)
    chi += (t->hits[i] - expect) * (t->hits[i] - expect) / expect;
  return chi + (n - t->nseen) * expect; /* maps never drawn */
}

static void tally_free(tally *t) {
  for (int i = 0; i < t->nseen; i++)
    free(t->seen[i]);
  free(t->seen);
  free(t->hits);
}

/* Sampling by XOR hashing (UniGen), which sample uses beyond the DP.
 * coast 4x4 has 122 maps, more than the 63 a cell may hold at tolerance 6,
 * so the hash path runs: every draw is a valid map, each map's frequency
 * is within the guarantee's factor 7 of uniform, and in fact the draws
 * pass a uniformity test (fixed seed: deterministic).  coast 3x3's 35 maps
 * fit in one cell: listed and drawn exactly uniformly. */
Test(sample, approx_is_near_uniform) {
  tilesat_rules *r = coast();
  tilesat_map *m = map_new(r, 4, 4, TILESAT_SQUARE, false);
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = TILESAT_METHOD_APPROX;
  o.seed = 11;
  tally t = {m, 4, 4, 0, calloc(128, sizeof(char *)), calloc(128, sizeof(int)),
             0};
  int draws = 600;
  tilesat_error err;
  cr_assert_eq(tilesat_sample(m, &o, draws, record, &t, &err), draws, "%s",
               err.msg);
  cr_expect_geq(t.nseen, 115, "%d of 122 maps drawn", t.nseen);
  for (int i = 0; i < t.nseen; i++)
    cr_expect_leq(t.hits[i], 7.0 * draws / 122, "map %s drawn %d times",
                  t.seen[i], t.hits[i]);
  double chi = chi_square(&t, draws, 122);
  cr_expect_lt(chi, 173.6, "chi-square %.1f over 121 degrees of freedom", chi);
  tally_free(&t);
  tilesat_map_free(m);

  m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  tally few = {m, 3, 3, 0, calloc(64, sizeof(char *)), calloc(64, sizeof(int)),
               0};
  draws = 35 * 100;
  cr_assert_eq(tilesat_sample(m, &o, draws, record, &few, &err), draws, "%s",
               err.msg);
  chi = chi_square(&few, draws, 35);
  cr_expect_lt(chi, 65.25, "chi-square %.1f over 34 degrees of freedom", chi);
  tally_free(&few);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

typedef struct lines {
  int progress, notice, fell_back_in_progress, fell_back_in_notice;
  const char *expect; /* what the change of method says */
} lines;

static void on_progress(void *user, const char *line) {
  lines *l = user;
  l->progress++;
  l->fell_back_in_progress += strstr(line, l->expect) != NULL;
}

static void on_notice(void *user, const char *line) {
  lines *l = user;
  l->notice++;
  l->fell_back_in_notice += strstr(line, l->expect) != NULL;
}

/* auto's change of method is said once through notice, not progress:
 * count's from the dp to bounds (the dp outgrows 1 KiB, strips do not) and
 * to approx (not even a strip of one line fits in 1 byte), sample's from
 * the dp to the chain (whose report is a notice too); without a notice
 * callback it goes to progress. */
Test(count, fall_back_is_a_notice) {
  tilesat_rules *r = coast();
  tilesat_map *m = case_map(r, 6, 6, false, NULL);
  for (int with_notice = 0; with_notice < 2; with_notice++)
    for (int mode = 0; mode < 3; mode++) {
      tilesat_count_options o;
      tilesat_count_options_init(&o);
      /* 8 KiB: the bounds' strips fit, the whole map's dp (its plan
       * alone: 36 cells of 402 bytes) does not */
      o.max_memory = mode == 2 ? 1 : 8192;
      lines l = {.expect = mode == 0   ? "falling back to chain"
                           : mode == 1 ? "proved bounds instead"
                                       : "falling back to approx"};
      o.progress = on_progress;
      o.notice = with_notice ? on_notice : NULL;
      o.progress_user = &l;
      tilesat_error err;
      if (mode == 0) {
        cr_assert_eq(tilesat_sample(m, &o, 1, NULL, NULL, &err), 1, "%s",
                     err.msg);
      } else {
        tilesat_count_result res;
        cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
        cr_expect_eq(res.approximate, mode == 2);
        cr_expect_eq(res.method,
                     mode == 1 ? TILESAT_METHOD_BOUNDS : TILESAT_METHOD_APPROX);
        if (mode == 1) { /* 1436 maps */
          cr_expect_leq(atol(res.lower), 1436);
          cr_expect_geq(atol(res.upper), 1436);
        }
        tilesat_count_result_free(&res);
      }
      cr_expect_eq(l.fell_back_in_notice, with_notice, "mode %d", mode);
      cr_expect_eq(l.fell_back_in_progress, !with_notice, "mode %d", mode);
      if (mode != 1) /* the estimate beside the bounds may say more */
        cr_expect_eq(l.notice, with_notice * (mode == 0 ? 2 : 1), "mode %d",
                     mode);
    }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(sample_cli, falls_back_to_the_chain_and_checks_its_options) {
  run_result r = RUN("sample", "rules/coast.rules", "--size", "6x6",
                     "--max-memory", "1K", "-n", "2");
  cr_expect_eq(r.code, 10);
  cr_expect(strstr(r.err, "falling back to chain"), "%s", r.err);
  cr_expect_eq(strlen(r.out), 2 * (6 * 7 + 1), "%s", r.out);
  run_free(&r);
  expect_cli_error("tilesat: sample: the frontier outgrew --max-memory 1 MiB "
                   "(5727 states at a frontier of 40 cells): raise "
                   "--max-memory or use --method approx\n",
                   "sample", "rules/patchwork16.rules", "--size", "40x40",
                   "--method", "dp", "--max-memory", "1M");
  expect_cli_error("tilesat: --method: sample takes auto, dp, approx or "
                   "chain\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--method",
                   "enum");
  expect_cli_error("tilesat: --epsilon: sampling needs a tolerance of "
                   "at least 1.71, not 1.5\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--method",
                   "approx", "--epsilon", "1.5");
  expect_cli_error("tilesat: unknown option '--delta' for 'sample': it is an "
                   "option of count (see 'tilesat sample --help')\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--method",
                   "approx", "--delta", "0.1");
}

Test(count_cli, prints_the_count_as_its_last_line) {
  run_result r = RUN("count", "rules/coast.rules", "--size", "10x10");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.out, "176312\n");
  run_free(&r);
  r = RUN("count", "rules/coast.rules", "--size", "3x3", "--pin", "2,2=L",
          "--method", "enum", "--backend", "cryptominisat");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.out, "5\n");
  run_free(&r);
  r = RUN("count", "rules/coast.rules", "--size", "2x2", "--method", "approx");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.out, "approx: 10 (epsilon 0.8, delta 0.2)\n");
  run_free(&r);
  r = RUN("sample", "rules/hard.rules", "--size", "2x2", "-n", "2");
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(r.out, "KB\nSB\n\nKB\nSB\n\n");
  run_free(&r);
  r = RUN("sample", "rules/hard.rules", "--size", "3x2");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
}

Test(count_cli, memory_bound_and_errors) {
  run_result r = RUN("count", "rules/patchwork16.rules", "--size", "40x40",
                     "--method", "dp", "--max-memory", "1M");
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: count: the frontier outgrew --max-memory "
                          "1 MiB ("),
            "%s", r.err);
  cr_expect(strstr(r.err, "raise --max-memory or use --method approx\n"));
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  struct {
    const char *opt, *val, *msg;
  } bad[] = {
      {"--method", "magic",
       "tilesat: --method: 'magic' is not auto, dp, enum, approx, "
       "bounds, chain or estimate\n"},
      {"--epsilon", "-1", "tilesat: --epsilon: '-1' is not a number above 0\n"},
      {"--delta", "1.5",
       "tilesat: --delta: '1.5' is not a number between 0 and 1\n"},
      {"--seed", "x",
       "tilesat: --seed: 'x' is not a whole number from 0 to 2^64-1\n"},
      {"--max-memory", "lots",
       "tilesat: --max-memory: 'lots' is not a size such as 512M or 4G\n"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    r = RUN("count", "rules/coast.rules", "--size", "3x3", bad[i].opt,
            bad[i].val);
    cr_expect_eq(r.code, 1);
    cr_expect_str_eq(r.err, bad[i].msg);
    run_free(&r);
  }
  expect_cli_error("tilesat: --epsilon and --delta go with --method approx\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--method",
                   "dp", "--epsilon", "0.5");
  expect_cli_error("tilesat: --backend goes with --method enum (approx "
                   "always uses cryptominisat's XORs, dp no solver)\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--method",
                   "approx", "--backend", "picosat");
  expect_cli_error("tilesat: -n: '0' is not a whole number from 1 "
                   "to 1000000000\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "-n", "0");
}

/* sample --png draws the same contact sheet enum draws: hard 2x2 has
 * exactly one map, so one drawn map of each must be the same picture. */
/* The line of err that starts with `start`, without the clock a notice
 * ends with (" (N s)"); malloc'd, or NULL when there is none. */
static char *line_of(const char *err, const char *start) {
  const char *at = strstr(err, start);
  if (!at)
    return NULL;
  const char *end = strchr(at, '\n');
  size_t n = end ? (size_t)(end - at) : strlen(at);
  char *line = strndup(at, n);
  char *clock = strrchr(line, '(');
  if (clock && clock > line && clock[-1] == ' ' && strstr(clock, " s)"))
    clock[-1] = '\0';
  return line;
}

/* The largest layer the dp builds (its progress lines, one a layer). */
static void largest_layer(void *user, const char *line) {
  size_t *most = user, states;
  int cell, of;
  if (sscanf(line, "dp: cell %d of %d, %zu states", &cell, &of, &states) == 3 &&
      states > *most)
    *most = states;
}

static bool m_is_hex(const tilesat_rules *r) {
  return tilesat_rules_topology(r) == TILESAT_HEX;
}

/* sample's prediction of the exact draw (dp_cost.c: strips of the map,
 * extrapolated) against the largest layer the dp then builds, on maps it
 * draws in a second: within a factor of 3 (half a digit) on square, hex,
 * socket (Knots), hand-written (Castle) and loose (dungeon8) rules, and
 * with a connected constraint, whose labels join the key. */
Test(sample, predicts_the_exact_draws_largest_layer) {
  struct {
    const char *rules, *tileset;
    int w, h;
    bool connected;
  } cases[] = {
      {NULL, "Knots", 12, 12, false},
      {NULL, "Castle", 5, 5, false},
      {"rules/dungeon8.rules", NULL, 7, 7, false},
      {"rules/dungeon8.rules", NULL, 6, 6, true},
      {"rules/coast.rules", NULL, 12, 9, false},
      {"rules/coast-hex.rules", NULL, 8, 8, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_rules *r = cases[i].tileset ? tileset(cases[i].tileset)
                                        : rules_from_file(cases[i].rules);
    tilesat_error err;
    tilesat_map *m = tilesat_map_new(r, cases[i].w, cases[i].h,
                                     tilesat_rules_topology(r), false, &err);
    cr_assert(m, "%s", err.msg);
    const char *floor = "tilesat-constraints 1\nclass floor . + , =\n"
                        "connected floor\n";
    if (cases[i].connected)
      cr_assert_eq(
          tilesat_map_constraints_parse(m, floor, strlen(floor), "floor", &err),
          0, "%s", err.msg);
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    ts_dp_cost c;
    cr_assert_eq(ts_dp_sample_cost(m, &o, &c, &err), 0, "%s", err.msg);
    /* the dp in each order (hex: rows), the smaller kept, as the dp's
     * probe of both keeps the order with fewer states */
    size_t most = 0, least = SIZE_MAX;
    o.progress = largest_layer;
    o.progress_user = &most;
    for (int col = 0; col < (m_is_hex(r) ? 1 : 2); col++) {
      most = 0;
      cr_assert_eq(ts_dp_sample_ordered(m, &o, col ? TS_DP_COLUMNS : TS_DP_ROWS,
                                        1, NULL, NULL, &err),
                   1, "%s", err.msg);
      least = most < least ? most : least;
    }
    most = least;
    cr_expect(fabs(c.log10_states - log10((double)most)) < log10(3.0),
              "case %zu: predicted 10^%.2f states, the dp held %zu", i,
              c.log10_states, most);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* sample's auto predicts the exact draw's cost before it starts (issue
 * 33): Knots 32x32 would hold 2^33 states (each cell of its frontier
 * doubles them), far past the bound: the chain at once, said with the
 * prediction, where the dp spent 60 s and about 4 GB before falling back;
 * --method dp still takes the dp (and outgrows the bound); a map the dp
 * draws at once keeps auto's maps the dp's (same seed, same maps). */
Test(sample_cli, auto_predicts_the_exact_draw_and_picks_the_chain) {
  tilesat_rules *r = tileset("Knots");
  char *path = rules_file(r);
  run_result a = RUN("sample", path, "--size", "32x32", "--max-memory", "256M",
                     "--burn-in", "0", "--sweeps", "1");
  cr_expect_eq(a.code, 10, "%s", a.err);
  char *line = line_of(a.err, "tilesat: sample: auto:");
  cr_expect_str_eq(
      line ? line : a.err,
      "tilesat: sample: auto: the exact draw (dp) would hold "
      "about 10^9.9 states in its largest layer, 5069 GiB "
      "(strips 1 to 10 cells wide, drawn in row order: 2048 "
      "states at 10, 2.00x more a cell, to the map's 32), past "
      "the dp's --max-memory 256 MiB: drawing by the chain (block Markov "
      "chain) instead");
  cr_expect_eq(strstr(a.err, "tilesat: sample: auto:"), a.err, "said first: %s",
               a.err);
  cr_expect(!strstr(a.err, "falling back"), "%s", a.err);
  size_t rows = 0;
  for (const char *c = a.out; *c; c++)
    rows += *c == '\n';
  cr_expect_eq(rows, 34, "%s", a.out); /* a header, 32 rows, a blank line */
  free(line);
  run_free(&a);
  run_result d = RUN("sample", path, "--size", "32x32", "--max-memory", "64M",
                     "--method", "dp");
  cr_expect_eq(d.code, 1);
  cr_expect(strstr(d.err, "tilesat: sample: the frontier outgrew "
                          "--max-memory 64 MiB"),
            "%s", d.err);
  cr_expect(!strstr(d.err, "would hold"), "%s", d.err);
  run_free(&d);
  run_result x = RUN("sample", "rules/coast.rules", "--size", "16x6", "-n", "3",
                     "--seed", "42");
  run_result y = RUN("sample", "rules/coast.rules", "--size", "16x6", "-n", "3",
                     "--seed", "42", "--method", "dp");
  cr_expect_eq(x.code, 10);
  cr_expect_str_eq(x.out, y.out);
  cr_expect_str_eq(x.err, "");
  run_free(&x);
  run_free(&y);
  unlink(path);
  free(path);
  tilesat_rules_free(r);
}

/* A map only the dp keeps (a connected constraint) and the dp would
 * outgrow: refused at once, saying so (dungeon8 16x12 reached 2.5 GB at
 * cell 16 of 192 without a word); --method dp tries it regardless. */
Test(sample_cli, refuses_at_once_what_only_the_dp_keeps_and_would_not_fit) {
  expect_cli_error(
      "tilesat: sample: the exact draw (dp) would hold about 10^7.6 states "
      "in its largest layer, 6.36 GiB (strips 1 to 6 cells wide, drawn in "
      "column order: 11412 states at 6, 3.97x more a cell, to the map's "
      "12), past the dp's --max-memory 600 MiB; the dp is the one method that "
      "keeps "
      "these constraints: raise --max-memory, draw a smaller map, or try it "
      "regardless with --method dp\n",
      "sample", "rules/dungeon8.rules", "--size", "16x12", "--constraints",
      "rules/dungeon8.constraints", "--max-memory", "600M");
  run_result d = RUN("sample", "rules/dungeon8.rules", "--size", "16x12",
                     "--constraints", "rules/dungeon8.constraints",
                     "--max-memory", "30M", "--method", "dp");
  cr_expect_eq(d.code, 1);
  cr_expect(strstr(d.err, "the frontier outgrew --max-memory 30 MiB"), "%s",
            d.err);
  run_free(&d);
}

Test(sample_cli, png_matches_enum) {
  char *a = temp_path(".png"), *b = temp_path(".png");
  run_result r = RUN("sample", "rules/hard.rules", "--size", "2x2", "--png", a);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("enum", "rules/hard.rules", "--size", "2x2", "--png", b);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  expect_same_png(a, b);
  remove(a);
  remove(b);
  free(a);
  free(b);
}

/* Ctrl-C stops a long count or sample cleanly: in the dp between cells, in
 * approx within a solve (CryptoMiniSat solves in half-second slices), in
 * enum between maps or within a solve. */
Test(count_cli, ctrl_c_stops_cleanly) {
  const char *methods[] = {"dp", "approx", "enum"};
  for (int i = 0; i < 3; i++) {
    run_result r = run_cli_interrupted(
        (const char *const[]){"count", "rules/dungeon8.rules", "--size",
                              "14x14", "--method", methods[i], NULL},
        500); /* mid-run: each method takes minutes here */
    cr_expect_eq(r.code, 1, "%s: exit %d", methods[i], r.code);
    cr_expect(strstr(r.err, "tilesat: count: interrupted\n"), "%s: %s",
              methods[i], r.err);
    cr_expect_str_eq(r.out, "");
    run_free(&r);
  }
  /* sample by approx is stopped in UniGen's first estimate: it says so as
   * sample, not count, last, after its progress lines (one a second, the
   * first after a second: "tilesat: approx: ... (1 s)", or, on a slow
   * machine, the solver's own "tilesat: solving with cryptominisat (2 s)") */
  run_result r = run_cli_interrupted(
      (const char *const[]){"sample", "rules/dungeon8.rules", "--size", "14x14",
                            "--method", "approx", NULL},
      1500);
  cr_expect_eq(r.code, 1, "exit %d", r.code);
  const char *last = "tilesat: sample: interrupted\n";
  size_t n = strlen(r.err), k = strlen(last);
  cr_expect(n >= k && !strcmp(r.err + n - k, last), "%s", r.err);
  for (const char *line = r.err; line < r.err + n - k;
       line = strchr(line, '\n') + 1) {
    size_t len = (size_t)(strchr(line, '\n') - line);
    cr_expect((!strncmp(line, "tilesat: approx: ", 17) ||
               !strncmp(line, "tilesat: solving with cryptominisat (", 37)) &&
                  len > 3 && !strncmp(line + len - 3, " s)", 3),
              "not a progress line: %.*s", (int)len, line);
  }
  cr_expect_str_eq(r.out, "");
  run_free(&r);
}

/* Issue 31: dungeon8 8x8, wrapped, a wall in (0,0) and water in (4,4):
 * check refutes it at once, but count said "between 0 and
 * 207170904376218669356043; estimate 10^-inf" after 74 s.  A map check
 * refutes counts 0 by every method, at once, and enum (the SAT solver's
 * own enumeration, no refutation first) agrees; hard 6x6 (no map, no pin)
 * alike. */
Test(count_cli, a_map_check_refutes_counts_0_by_every_method) {
  const char *const maps[][8] = {{"rules/dungeon8.rules", "--size", "8x8",
                                  "--periodic", "--pin", "0,0=#", "--pin",
                                  "4,4=~"},
                                 {"rules/hard.rules", "--size", "6x6", NULL}};
  const char *methods[] = {"auto",     "dp",     "bounds",
                           "estimate", "approx", "enum"};
  for (size_t k = 0; k < 2; k++) {
    const char *argv[16] = {"check"};
    int n = 1;
    for (int i = 0; i < 8 && maps[k][i]; i++)
      argv[n++] = maps[k][i];
    argv[n] = NULL;
    run_result r = run_cli(argv);
    cr_expect_eq(r.code, 20, "%s: %s", maps[k][0], r.err);
    cr_expect_str_eq(r.out, "UNSAT\n");
    run_free(&r);
    argv[0] = "count";
    argv[n] = "--method";
    argv[n + 2] = NULL;
    for (size_t j = 0; j < sizeof methods / sizeof *methods; j++) {
      argv[n + 1] = methods[j];
      r = run_cli(argv);
      cr_expect_eq(r.code, 0, "%s %s: %s", maps[k][0], methods[j], r.err);
      cr_expect_str_eq(r.out, "0\n", "%s %s", maps[k][0], methods[j]);
      if (strcmp(methods[j], "enum"))
        cr_expect(strstr(r.err, "tilesat: no valid map ("), "%s %s: %s",
                  maps[k][0], methods[j], r.err);
      run_free(&r);
    }
  }
  /* the library alike: its answer exact, from the dp for auto */
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = map_new(r, 8, 8, TILESAT_SQUARE, true);
  tilesat_error err;
  cr_assert(!tilesat_map_pin(m, 0, 0, "#", &err), "%s", err.msg);
  cr_assert(!tilesat_map_pin(m, 4, 4, "~", &err), "%s", err.msg);
  for (size_t j = 0; j < 5; j++) {
    tilesat_count_options o;
    tilesat_count_options_init(&o);
    cr_assert(!tilesat_method_parse(methods[j], &o.method));
    tilesat_count_result res;
    cr_assert(!tilesat_count(m, &o, &res, &err), "%s", err.msg);
    cr_expect_str_eq(res.count, "0", "%s", methods[j]);
    cr_expect(!res.approximate, "%s", methods[j]);
    /* bounds that meet at 0, an estimate of 0 (10^-inf) */
    bool bounds = o.method == TILESAT_METHOD_BOUNDS;
    cr_expect(bounds ? res.lower && !strcmp(res.lower, "0") && res.upper &&
                           !strcmp(res.upper, "0")
                     : !res.lower && !res.upper,
              "%s", methods[j]);
    cr_expect(o.method == TILESAT_METHOD_ESTIMATE
                  ? res.estimated && isinf(res.estimate_log10) &&
                        res.estimate_log10 < 0
                  : !res.estimated,
              "%s", methods[j]);
    tilesat_count_result_free(&res);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* count on a map only the dp keeps (dungeon8's connected floor) said no
 * word of its cost and reached 1.9 GB at 12x12; its --max-memory advice
 * named --method approx, which refuses the constraint.  It predicts the
 * cost first, as sample does, and its advice names only what keeps the
 * constraints. */
Test(count, kept_constraints_predicted_and_advised) {
  const char *const args[] = {"count",
                              "rules/dungeon8.rules",
                              "--size",
                              "12x12",
                              "--constraints",
                              "rules/dungeon8.constraints",
                              "--max-memory",
                              "20M",
                              NULL};
  run_result r = run_cli(args);
  cr_expect_eq(r.code, 1, "%s", r.err);
  cr_expect_str_eq(r.out, "");
  const char *first = "tilesat: count: auto: the exact count (dp) would hold "
                      "about 10^";
  cr_expect(!strncmp(r.err, first, strlen(first)), "%s", r.err);
  const char *nl = strchr(r.err, '\n');
  cr_assert(nl, "%s", r.err);
  cr_expect(strstr(r.err, "past the dp's --max-memory 20 MiB") &&
                strstr(r.err, "past the dp's --max-memory 20 MiB") < nl,
            "%s", r.err);
  cr_expect(strstr(r.err, "; the dp is the one method that counts these "
                          "constraints (--method enum keeps them too, "
                          "listing every map): it will likely stop there; "
                          "raise --max-memory or count a smaller map ("),
            "%s", r.err);
  cr_expect(strstr(r.err, "): raise --max-memory or count a smaller map (the "
                          "dp is the one method that counts these "
                          "constraints; --method enum keeps them too, "
                          "listing every map)\n"),
            "%s", r.err);
  cr_expect(!strstr(r.err, "approx"), "%s", r.err);
  run_free(&r);
  /* approx indeed refuses them */
  r = RUN("count", "rules/dungeon8.rules", "--size", "12x12", "--constraints",
          "rules/dungeon8.constraints", "--method", "approx");
  cr_expect_eq(r.code, 1, "%s", r.err);
  cr_expect(strstr(r.err, "cannot keep connected constraints"), "%s", r.err);
  run_free(&r);
  /* a map without them: approx is still the advice */
  r = RUN("count", "rules/dungeon8.rules", "--size", "12x12", "--method", "dp",
          "--max-memory", "20M");
  cr_expect_eq(r.code, 1, "%s", r.err);
  cr_expect(strstr(r.err, "raise --max-memory or use --method approx\n"), "%s",
            r.err);
  run_free(&r);
}

/* A prediction that overflows (Castle 1024x1024: strips 7.3x more a line
 * over 1024 lines) is said in words, not as "10^inf years". */
Test(count, overflowed_prediction_said_sanely) {
  char buf[48];
  ts_say_seconds(INFINITY, buf, sizeof buf);
  cr_expect_str_eq(buf, "more than 10^300 years");
  ts_say_seconds(NAN, buf, sizeof buf);
  cr_expect_str_eq(buf, "more than 10^300 years");
  ts_say_seconds(1e200, buf, sizeof buf);
  cr_expect_str_eq(buf, "10^193 years");
  ts_say_seconds(42, buf, sizeof buf);
  cr_expect_str_eq(buf, "42 s");
}
