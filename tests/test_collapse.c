/* collapse: WFC runs give valid maps on every kind of rules, pins hold,
 * same seed same run, and the run statistics (failure rate, tile
 * frequencies) agree with a second WFC written here from the public API
 * alone, deliberately simple: domains as byte arrays, AC-3 with a queue of
 * cells, entropies recomputed from scratch, the reference's tie-break. */
#include "helpers.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Runs seeds 1..runs: every success verified, every failure names a
 * contradiction cell; returns the number of successes. */
static int run_seeds(const tilesat_map *m, int runs, tilesat_heuristic h) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  const tilesat_map_info mi = map_info(m);
  int n = mi.width * mi.height, ok = 0;
  int *tiles = malloc((size_t)n * sizeof *tiles);
  for (int s = 1; s <= runs; s++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = (uint64_t)s;
    o.heuristic = h;
    int res = tilesat_collapse_run(c, &o, tiles, &err);
    cr_assert(res == TILESAT_SAT || res == TILESAT_UNKNOWN, "%s", err.msg);
    if (res == TILESAT_SAT) {
      ok++;
      char why[256];
      cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s", why);
      cr_expect_eq(collapse_info(c).contradiction, -1);
    } else {
      int cell = collapse_info(c).contradiction;
      cr_expect(cell >= 0 && cell < n);
    }
    int cell, tile;
    size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
    cr_expect(k >= 1 && k <= (size_t)n);
  }
  free(tiles);
  tilesat_collapse_free(c);
  return ok;
}

Test(collapse, valid_maps_from_every_kind_of_rules) {
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  tilesat_rules *hex = rules_from_file("rules/coast-hex.rules");
  tilesat_rules *knots = tileset("Knots"), *circuit = tileset("Circuit");
  struct {
    const tilesat_rules *r;
    int w, h;
    bool periodic;
  } cases[] = {{coast, 20, 12, false},  {coast, 8, 8, true},
               {hex, 9, 8, false},      {hex, 8, 6, true},
               {knots, 16, 16, false},  {knots, 12, 12, true},
               {circuit, 24, 24, false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int h = 0; h < 3; h++) {
      tilesat_map *m =
          map_new(cases[i].r, cases[i].w, cases[i].h,
                  tilesat_rules_topology(cases[i].r), cases[i].periodic);
      int ok = run_seeds(m, 10, (tilesat_heuristic)h);
      cr_expect_gt(ok, 0, "case %zu, %s: no run succeeded", i,
                   tilesat_heuristic_name((tilesat_heuristic)h));
      tilesat_map_free(m);
    }
  tilesat_rules_free(coast);
  tilesat_rules_free(hex);
  tilesat_rules_free(knots);
  tilesat_rules_free(circuit);
}

Test(collapse, pins_hold_and_same_seed_same_run) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 12, 10, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin_spec(m, "0,5=S", &err), 0, "%s", err.msg);
  cr_assert_eq(tilesat_map_pin_spec(m, "9,0=L", &err), 0, "%s", err.msg);
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  int a[120], b[120];
  int S = tilesat_rules_find_tile(r, "S"), L = tilesat_rules_find_tile(r, "L");
  for (uint64_t s = 1; s <= 20; s++) {
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = s;
    int ra = tilesat_collapse_run(c, &o, a, &err);
    int rb = tilesat_collapse_run(c, &o, b, &err);
    cr_assert_eq(ra, rb);
    if (ra != TILESAT_SAT)
      continue;
    cr_expect_eq(memcmp(a, b, sizeof a), 0, "seed %llu", (unsigned long long)s);
    cr_expect_eq(a[5], S);
    cr_expect_eq(a[9 * 12], L);
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Each ban of a guarded run is a doom: check (on another backend) finds
 * no map with the run's choices before it and the banned tile pinned, and
 * finds one with the choices before it alone. */
static void expect_bans_proved(const tilesat_rules *r, int w, int h,
                               const tilesat_collapse *c, tilesat_backend b) {
  tilesat_error err;
  for (size_t i = 0; i < (size_t)collapse_info(c).banned; i++) {
    size_t step;
    int bcell, btile;
    tilesat_collapse_ban(c, i, &step, &bcell, &btile);
    for (int with = 0; with < 2; with++) {
      tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, false);
      for (size_t k = 0; k < step; k++) {
        int cell, tile;
        tilesat_collapse_choices(c, k, &cell, &tile);
        cr_assert_eq(tilesat_map_pin(m, cell / w, cell % w,
                                     tilesat_rules_tile_name(r, tile), &err),
                     0, "%s", err.msg);
      }
      if (with)
        cr_assert_eq(tilesat_map_pin(m, bcell / w, bcell % w,
                                     tilesat_rules_tile_name(r, btile), &err),
                     0, "%s", err.msg);
      cr_expect_eq(tilesat_check(m, SOLVE(b), NULL, &err),
                   with ? TILESAT_UNSAT : TILESAT_SAT, "ban %zu, with %d", i,
                   with);
      tilesat_map_free(m);
    }
  }
}

/* --guard sat: on Castle 10x10, whose plain runs sometimes fail, every
 * guarded run gives a valid map, on every backend; with no valid map at
 * all the run ends UNSAT. */
Test(collapse, the_guard_never_fails) {
  tilesat_rules *r = tileset("Castle");
  tilesat_map *m = map_new(r, 10, 10, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *plain = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[100], failed = 0, banned = 0;
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    for (uint64_t s = 1; s <= 40; s++) {
      o.seed = s;
      o.guard = TILESAT_GUARD_NONE;
      if (tilesat_collapse_run(plain, &o, tiles, &err) == TILESAT_SAT)
        continue;
      failed++;
      o.guard = TILESAT_GUARD_SAT;
      o.solve.backend = backends[b];
      cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT,
                   "seed %llu on %s: %s", (unsigned long long)s,
                   tilesat_backend_name(backends[b]), err.msg);
      cr_expect(tilesat_map_verify(m, tiles, NULL, 0));
      cr_expect_eq(collapse_info(c).contradiction, -1);
      banned += collapse_info(c).banned > 0;
      cr_expect_gt(collapse_info(c).solver_calls, 0);
      expect_bans_proved(r, 10, 10, c, backends[(b + 1) % NBACKENDS]);
    }
    tilesat_collapse_free(c);
  }
  cr_expect_gt(failed, 0, "no plain run failed: the test proves nothing");
  cr_expect_gt(banned, 0, "the guard never had to ban a choice");
  tilesat_collapse_free(plain);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  /* no valid map: UNSAT, on the rules alone or with clashing pins */
  tilesat_rules *hard = rules_from_file("rules/hard.rules");
  tilesat_rules *coast = rules_from_file("rules/coast.rules");
  tilesat_map *h3 = map_new(hard, 3, 3, TILESAT_SQUARE, false);
  tilesat_map *c3 = map_new(coast, 3, 3, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_pin_spec(c3, "0,0=S", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(c3, "2,2=L", &err), 0);
  tilesat_map *maps[] = {h3, c3};
  o.guard = TILESAT_GUARD_SAT;
  for (int i = 0; i < 2; i++) {
    tilesat_collapse *c = tilesat_collapse_new(maps[i], &err);
    cr_expect_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_UNSAT,
                 "case %d", i);
    tilesat_collapse_free(c);
    tilesat_map_free(maps[i]);
  }
  tilesat_rules_free(hard);
  tilesat_rules_free(coast);
}

/* Is there a valid map of r at w x h with the run's choices idx[0..n)
 * pinned?  Asked of check, on a map of its own. */
static int check_with_choices(const tilesat_rules *r, int w, int h,
                              const tilesat_collapse *c, const size_t *idx,
                              size_t n, tilesat_backend b) {
  tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, false);
  tilesat_error err;
  for (size_t i = 0; i < n; i++) {
    int cell, tile;
    tilesat_collapse_choices(c, idx[i], &cell, &tile);
    cr_assert_eq(tilesat_map_pin(m, cell / w, cell % w,
                                 tilesat_rules_tile_name(r, tile), &err),
                 0, "%s", err.msg);
  }
  int res = tilesat_check(m, SOLVE(b), NULL, &err);
  tilesat_map_free(m);
  return res;
}

/* For failed runs on Castle 16x16: with the choices up to the point of no
 * return pinned, check finds no map, and with one fewer it finds one; the
 * doomed set leaves no map, and dropping any one of its choices does. */
Test(collapse, a_failed_run_explained) {
  tilesat_rules *r = tileset("Castle");
  tilesat_map *m = map_new(r, 16, 16, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[256], explained = 0;
  for (uint64_t s = 1; explained < 3 && s < 100; s++) {
    o.seed = s;
    if (tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_UNKNOWN)
      continue;
    tilesat_backend b = backends[explained % NBACKENDS];
    cr_assert_eq(tilesat_collapse_explain(c, SOLVE(b), &err), 0, "%s", err.msg);
    long nr = collapse_info(c).no_return;
    int cell, tile;
    size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
    cr_assert(nr >= 0 && (size_t)nr < k, "seed %llu: %ld of %zu",
              (unsigned long long)s, nr, k);
    size_t *all = malloc(k * sizeof *all);
    for (size_t i = 0; i < k; i++)
      all[i] = i;
    cr_expect_eq(check_with_choices(r, 16, 16, c, all, (size_t)nr + 1, b),
                 TILESAT_UNSAT);
    cr_expect_eq(check_with_choices(r, 16, 16, c, all, (size_t)nr, b),
                 TILESAT_SAT);
    free(all);
    const size_t *d = collapse_info(c).doomed;
    size_t n = collapse_info(c).ndoomed;
    cr_assert_gt(n, 0);
    cr_expect_eq(d[n - 1], (size_t)nr, "the point of no return is doomed");
    cr_expect_eq(check_with_choices(r, 16, 16, c, d, n, b), TILESAT_UNSAT);
    size_t *less = malloc(n * sizeof *less);
    for (size_t drop = 0; drop < n; drop++) {
      size_t j = 0;
      for (size_t i = 0; i < n; i++)
        if (i != drop)
          less[j++] = d[i];
      cr_expect_eq(check_with_choices(r, 16, 16, c, less, n - 1, b),
                   TILESAT_SAT, "seed %llu: choice %zu is not needed",
                   (unsigned long long)s, d[drop]);
    }
    free(less);
    explained++;
  }
  cr_expect_eq(explained, 3);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------ a second, simple WFC */

typedef struct simple {
  const tilesat_map *m;
  const tilesat_rules *r;
  int w, h, T, D;
  bool periodic;
  tilesat_topology topo;
  unsigned char *dom; /* [cell][tile] */
  unsigned char *inq; /* [cell]: in the queue */
  double *wt, *wlogw; /* [tile] */
  /* read once from the library, which the runs ask millions of times:
   * allow[(t * D + d) * T + u] (tilesat_rules_allows), nbr[cell * D + d]
   * (tilesat_neighbor, -1 for none) */
  bool *allow;
  int *nbr;
  /* [cell]: its entropy and tile count, as entropy() last computed them,
   * and whether its domain changed since (stale) */
  double *ent;
  int *cnt;
  unsigned char *stale;
  uint64_t rng;
  int first[2]; /* the first two cells observed, or -1 */
} simple;

static double uniform(simple *s) { /* splitmix64, 53 bits */
  uint64_t z = (s->rng += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static int nb(const simple *s, int cell, int d) {
  int nr, nc;
  if (!tilesat_neighbor(s->topo, s->w, s->h, s->periodic, cell / s->w,
                        cell % s->w, d, &nr, &nc))
    return -1;
  return nr * s->w + nc;
}

/* s->allow and s->nbr from the library (s's map and rules set). */
static void simple_tables(simple *s) {
  int T = s->T, D = s->D, N = s->w * s->h;
  s->allow = malloc((size_t)T * (size_t)D * (size_t)T * sizeof *s->allow);
  s->nbr = malloc((size_t)N * (size_t)D * sizeof *s->nbr);
  for (int t = 0; t < T; t++)
    for (int d = 0; d < D; d++)
      for (int u = 0; u < T; u++)
        s->allow[(t * D + d) * T + u] = tilesat_rules_allows(s->r, t, d, u);
  for (int c = 0; c < N; c++)
    for (int d = 0; d < D; d++)
      s->nbr[c * D + d] = nb(s, c, d);
}

/* Drop from cell c the tiles no tile of its neighbour in direction d
 * allows; true if c changed. */
static bool revise(simple *s, int c, int d, int n) {
  bool changed = false;
  for (int t = 0; t < s->T; t++) {
    if (!s->dom[c * s->T + t])
      continue;
    bool ok = false;
    const bool *allow = s->allow + (t * s->D + d) * s->T;
    for (int u = 0; u < s->T && !ok; u++)
      ok = s->dom[n * s->T + u] && allow[u];
    if (!ok) {
      s->dom[c * s->T + t] = 0;
      changed = true;
    }
  }
  s->stale[c] |= changed;
  return changed;
}

/* AC-3 from the cells in queue[0..n); false when a cell is empty. */
static bool ac3(simple *s, int *queue, int n) {
  for (int i = 0; i < n; i++)
    s->inq[queue[i]] = 1;
  while (n > 0) {
    int x = queue[--n];
    s->inq[x] = 0;
    for (int d = 0; d < s->D; d++) {
      int c = s->nbr[x * s->D + d];
      if (c < 0)
        continue;
      int back = tilesat_dir_opposite(s->topo, d); /* from c to x */
      if (!revise(s, c, back, x))
        continue;
      int left = 0;
      for (int t = 0; t < s->T; t++)
        left += s->dom[c * s->T + t];
      if (!left) {
        memset(s->inq, 0, (size_t)(s->w * s->h));
        return false;
      }
      if (!s->inq[c]) {
        s->inq[c] = 1;
        queue[n++] = c;
      }
    }
  }
  return true;
}

static double entropy(const simple *s, int c, int *count) {
  if (!s->stale[c]) { /* its domain as when last computed: the same value */
    *count = s->cnt[c];
    return s->ent[c];
  }
  double sw = 0, swl = 0;
  *count = 0;
  for (int t = 0; t < s->T; t++)
    if (s->dom[c * s->T + t]) {
      sw += s->wt[t];
      swl += s->wlogw[t];
      ++*count;
    }
  s->stale[c] = 0;
  s->cnt[c] = *count;
  return s->ent[c] = log(sw) - swl / sw;
}

/* One run: true with tiles filled, false on a contradiction. */
static bool simple_run(simple *s, uint64_t seed, int *tiles, int *queue) {
  int N = s->w * s->h;
  s->rng = seed * 0x2545f4914f6cdd1du;
  memset(s->dom, 1, (size_t)N * (size_t)s->T);
  memset(s->stale, 1, (size_t)N);
  for (int c = 0; c < N; c++)
    queue[c] = c;
  s->first[0] = s->first[1] = -1;
  if (!ac3(s, queue, N))
    return false;
  for (int step = 0;; step++) {
    int best = -1, count;
    double min = 1e4;
    for (int c = 0; c < N; c++) {
      double e = entropy(s, c, &count);
      if (count > 1 && e <= min) {
        double noise = 1e-6 * uniform(s);
        if (e + noise < min) {
          min = e + noise;
          best = c;
        }
      }
    }
    if (best < 0)
      break;
    if (step < 2)
      s->first[step] = best;
    double sw = 0;
    for (int t = 0; t < s->T; t++)
      sw += s->dom[best * s->T + t] ? (double)tilesat_rules_weight(s->r, t) : 0;
    double x = uniform(s) * sw;
    int pick = -1;
    for (int t = 0; t < s->T && (pick < 0 || x >= 0); t++)
      if (s->dom[best * s->T + t]) {
        pick = t;
        x -= (double)tilesat_rules_weight(s->r, t);
      }
    for (int t = 0; t < s->T; t++)
      s->dom[best * s->T + t] = t == pick;
    s->stale[best] = 1;
    queue[0] = best;
    if (!ac3(s, queue, 1))
      return false;
  }
  for (int c = 0; c < N; c++)
    for (int t = 0; t < s->T; t++)
      if (s->dom[c * s->T + t])
        tiles[c] = t;
  return true;
}

/* Chi-square of homogeneity of two count vectors (categories with fewer
 * than 10 in both pooled), as a z-score by Wilson and Hilferty. */
static double homogeneity_z(const long *a, const long *b, int k) {
  long na = 0, nb_ = 0, pa = 0, pb = 0;
  for (int i = 0; i < k; i++) {
    na += a[i];
    nb_ += b[i];
  }
  double chi = 0;
  int df = -1;
  for (int i = 0; i <= k; i++) {
    long x = i < k ? a[i] : pa, y = i < k ? b[i] : pb;
    if (i < k && x + y < 10) {
      pa += x;
      pb += y;
      continue;
    }
    if (x + y == 0)
      continue;
    double ea = (double)(x + y) * (double)na / (double)(na + nb_);
    double eb = (double)(x + y) * (double)nb_ / (double)(na + nb_);
    chi += (x - ea) * (x - ea) / ea + (y - eb) * (y - eb) / eb;
    df++;
  }
  if (df < 1)
    return 0;
  double q = 2.0 / (9.0 * df);
  return (cbrt(chi / df) - (1 - q)) / sqrt(q);
}

/* Where cell b lies from cell a: one of the 25 offsets within two rows and
 * columns, or 25 for anywhere farther (an order-sensitive statistic: the
 * heuristic decides it). */
static int offset_class(int a, int b, int w) {
  int dr = b / w - a / w, dc = b % w - a % w;
  if (abs(dr) > 2 || abs(dc) > 2)
    return 25;
  return (dr + 2) * 5 + (dc + 2);
}

/* Runs seeds 1..runs of both implementations on r at w x h: the failure
 * rates (two proportions) and the tiles at the centre and at a corner of
 * the maps that succeed, and where the second cell observed lies from the
 * first (chi-square of homogeneity), must agree. */
static void expect_same_statistics(const tilesat_rules *r, int W, int H,
                                   int runs, int min_fails) {
  tilesat_map *m = map_new(r, W, H, TILESAT_SQUARE, false);
  int T = tilesat_rules_ntiles(r), N = W * H;
  simple s = {
      .m = m, .r = r, .w = W, .h = H, .T = T, .D = 4, .topo = TILESAT_SQUARE};
  s.dom = malloc((size_t)(N * T));
  s.inq = calloc((size_t)N, 1);
  s.ent = malloc((size_t)N * sizeof *s.ent);
  s.cnt = malloc((size_t)N * sizeof *s.cnt);
  s.stale = malloc((size_t)N);
  simple_tables(&s);
  s.wt = malloc((size_t)T * sizeof *s.wt);
  s.wlogw = malloc((size_t)T * sizeof *s.wlogw);
  for (int t = 0; t < T; t++) {
    s.wt[t] = (double)tilesat_rules_weight(r, t);
    s.wlogw[t] = s.wt[t] > 0 ? s.wt[t] * log(s.wt[t]) : 0;
  }
  int *queue = malloc((size_t)N * sizeof *queue);
  int *tiles[2] = {malloc((size_t)N * sizeof(int)),
                   malloc((size_t)N * sizeof(int))};
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  long fails[2] = {0, 0};
  long *at[2][2];
  int cells[2] = {(H / 2) * W + W / 2, 0};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      at[i][j] = calloc((size_t)T, sizeof **at[i]);
  long order[2][26] = {{0}}; /* where the 2nd observation lies from the 1st */
  for (int run = 1; run <= runs; run++) {
    bool ok[2];
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = (uint64_t)run;
    ok[0] = tilesat_collapse_run(c, &o, tiles[0], &err) == TILESAT_SAT;
    ok[1] = simple_run(&s, (uint64_t)run, tiles[1], queue);
    if (ok[1])
      cr_expect(tilesat_map_verify(m, tiles[1], NULL, 0));
    int a, b, t;
    if (tilesat_collapse_choices(c, 0, &a, &t) >= 2) {
      tilesat_collapse_choices(c, 1, &b, &t);
      order[0][offset_class(a, b, W)]++;
    }
    if (s.first[1] >= 0)
      order[1][offset_class(s.first[0], s.first[1], W)]++;
    for (int i = 0; i < 2; i++) {
      fails[i] += !ok[i];
      for (int j = 0; ok[i] && j < 2; j++)
        at[i][j][tiles[i][cells[j]]]++;
    }
  }
  double p0 = (double)fails[0] / runs, p1 = (double)fails[1] / runs;
  double p = (p0 + p1) / 2, se = sqrt(2 * p * (1 - p) / runs);
  cr_expect_geq(fails[0], min_fails, "only %ld of %d runs failed", fails[0],
                runs);
  cr_expect_lt(fabs(p0 - p1) / se, 3.5, "failure rates %.3f and %.3f", p0, p1);
  for (int j = 0; j < 2; j++) {
    double z = homogeneity_z(at[0][j], at[1][j], T);
    cr_expect_lt(z, 3.5, "tiles at cell %d differ (z %.2f)", cells[j], z);
  }
  double z = homogeneity_z(order[0], order[1], 26);
  cr_expect_lt(z, 3.5, "the second observation lies elsewhere (z %.2f)", z);
  for (int i = 0; i < 2; i++) {
    free(tiles[i]);
    for (int j = 0; j < 2; j++)
      free(at[i][j]);
  }
  tilesat_collapse_free(c);
  free(queue);
  free(s.dom);
  free(s.inq);
  free(s.ent);
  free(s.cnt);
  free(s.stale);
  free(s.allow);
  free(s.nbr);
  free(s.wt);
  free(s.wlogw);
  tilesat_map_free(m);
}

/* dungeon8 (9 tiles of unequal weights) fails in about one run in
 * sixteen at 24x24; Castle (29 oriented tiles of equal weight) in one in
 * seven at 16x16. */
Test(collapse, statistics_match_a_simple_wfc) {
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  expect_same_statistics(r, 24, 24, test_cases(800), test_cases(20));
  tilesat_rules_free(r);
  r = tileset("Castle");
  expect_same_statistics(r, 16, 16, test_cases(400), test_cases(20));
  tilesat_rules_free(r);
}

/* ------------------------------------------------------------- the CLI */

/* One run: SAT and a map that reads back and satisfies the rules, the same
 * for the same seed; a failed run names its contradiction, exit 0. */
Test(collapse_cli, one_run_prints_the_map_or_the_contradiction) {
  run_result a = RUN("collapse", "rules/coast.rules", "--size", "9x6", "--seed",
                     "5", "--pin", "0,0=S");
  run_result b = RUN("collapse", "rules/coast.rules", "--size", "9x6", "--seed",
                     "5", "--pin", "0,0=S");
  cr_assert_eq(a.code, 10, "%s", a.err);
  cr_expect_str_eq(a.out, b.out);
  cr_assert_eq(strncmp(a.out, "SAT\nS", 5), 0, "%s", a.out);
  tilesat_error err;
  tilesat_grid *g =
      tilesat_grid_parse(a.out + 4, strlen(a.out + 4), "out", &err);
  cr_assert(g, "%s", err.msg);
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 9, 6, TILESAT_SQUARE, false);
  int tiles[54];
  for (int c = 0; c < 54; c++)
    tiles[c] = tilesat_rules_find_tile(r, tilesat_grid_at(g, c / 9, c % 9));
  cr_expect(tilesat_map_verify(m, tiles, NULL, 0));
  run_free(&a);
  run_free(&b);
  /* Castle 16x16: the first seed whose run fails; what it says is the
   * library's */
  tilesat_rules *castle = tileset("Castle");
  tilesat_map *cm = map_new(castle, 16, 16, TILESAT_SQUARE, false);
  tilesat_collapse *c = tilesat_collapse_new(cm, &err);
  int out[256], seed = 1;
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  for (;; seed++) {
    o.seed = (uint64_t)seed;
    if (tilesat_collapse_run(c, &o, out, &err) != TILESAT_SAT)
      break;
  }
  int cell, tile, bad = collapse_info(c).contradiction;
  size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
  char *rules = rules_file(castle);
  char seedarg[16], want[128];
  snprintf(seedarg, sizeof seedarg, "%d", seed);
  snprintf(want, sizeof want,
           "contradiction at (%d,%d) after %zu choices (seed %d)\n", bad / 16,
           bad % 16, k, seed);
  run_result x = RUN("collapse", rules, "--size", "16x16", "--seed", seedarg);
  cr_expect_eq(x.code, 0, "%s", x.err);
  cr_expect_str_eq(x.out, want);
  run_free(&x);
  /* --explain says what the library finds */
  cr_assert_eq(tilesat_collapse_explain(c, NULL, &err), 0, "%s", err.msg);
  size_t nd = collapse_info(c).ndoomed;
  char nrline[96], dline[96];
  snprintf(nrline, sizeof nrline, "\npoint of no return: choice %ld: ",
           collapse_info(c).no_return + 1);
  snprintf(dline, sizeof dline, "\ndoomed set: %zu choices that together", nd);
  x = RUN("collapse", rules, "--size", "16x16", "--seed", seedarg, "--explain");
  cr_expect_eq(x.code, 0, "%s", x.err);
  /* the same headline, then where the explanation's steps end */
  cr_expect_eq(strncmp(x.out, want, strlen(want) - 1), 0, "%s", x.out);
  cr_expect(
      x.out[strlen(want) - 1] == '\n' ||
          !strncmp(x.out + strlen(want) - 1, "; the steps below end at", 24),
      "%s", x.out);
  cr_expect(strstr(x.out, nrline), "%s", x.out);
  cr_expect(strstr(x.out, dline), "%s", x.out);
  run_free(&x);
  /* -n: the counts are the library's over the same seeds */
  run_result n = RUN("collapse", rules, "--size", "16x16", "-n", "50");
  cr_expect_eq(n.code, 10, "%s", n.err);
  long fails = 0;
  for (int s = 1; s <= 50; s++) {
    o.seed = (uint64_t)s;
    fails += tilesat_collapse_run(c, &o, out, &err) != TILESAT_SAT;
  }
  char line[96];
  snprintf(line, sizeof line, "runs: 50 (seeds 1 to 50)\nsuccesses: %ld\n",
           50 - fails);
  cr_expect_eq(strncmp(n.out, line, strlen(line)), 0, "%s", n.out);
  cr_expect(strstr(n.out, "95% interval"), "%s", n.out);
  cr_expect(strstr(n.out, "median time per run: "), "%s", n.out);
  run_free(&n);
  remove(rules);
  free(rules);
  tilesat_collapse_free(c);
  tilesat_map_free(cm);
  tilesat_rules_free(castle);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  tilesat_grid_free(g);
}

Test(collapse_cli, the_guard_and_its_answers) {
  run_result r =
      RUN("collapse", "rules/hard.rules", "--size", "3x3", "--guard", "sat");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  r = RUN("collapse", "rules/coast.rules", "--size", "6x5", "--guard", "sat",
          "--backend", "cadical", "--seed", "9");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_eq(strncmp(r.out, "SAT\n", 4), 0, "%s", r.out);
  cr_expect(strstr(r.err, " exact bans, 0 block repairs (0 cells re-solved, "
                          "0.0% of the map), "),
            "%s", r.err);
  run_free(&r);
  r = RUN("collapse", "rules/coast.rules", "--size", "6x5", "--guard", "sat",
          "-n", "5");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(strstr(r.out, "successes: 5\ncontradictions: 0 (0.0%"), "%s",
            r.out);
  cr_expect(strstr(r.out, "banned choices: "), "%s", r.out);
  run_free(&r);
  expect_cli_error(
      "tilesat: --guard: 'maybe' is not none, sat, blocks, auto or modify\n",
      "collapse", "rules/coast.rules", "--size", "3x3", "--guard", "maybe");
}

/* --sizes: a row per size whose failures are the library's over the same
 * seeds. */
Test(collapse_cli, sizes_table) {
  tilesat_rules *r = tileset("Castle");
  char *rules = rules_file(r);
  run_result x = RUN("collapse", rules, "--sizes", "6,16x12", "-n", "30");
  cr_assert_eq(x.code, 10, "%s", x.err);
  const char *head = "size          runs failures    rate  95% interval      "
                     "median ms\n";
  cr_expect_eq(strncmp(x.out, head, strlen(head)), 0, "%s", x.out);
  int sizes[2][2] = {{6, 6}, {16, 12}};
  long fails_at[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    tilesat_map *m =
        map_new(r, sizes[i][0], sizes[i][1], TILESAT_SQUARE, false);
    tilesat_error err;
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    int tiles[16 * 12];
    long fails = 0;
    for (int s = 1; s <= 30; s++) {
      o.seed = (uint64_t)s;
      fails += tilesat_collapse_run(c, &o, tiles, &err) == TILESAT_UNKNOWN;
    }
    char size[16], row[64];
    snprintf(size, sizeof size, "%dx%d", sizes[i][0], sizes[i][1]);
    snprintf(row, sizeof row, "\n%-11s %6d %8ld ", size, 30, fails);
    cr_expect(strstr(x.out, row), "no row '%s' in\n%s", row + 1, x.out);
    fails_at[i] = fails;
    tilesat_collapse_free(c);
    tilesat_map_free(m);
  }
  /* the JSON rows have the table's failures and their interval (they had
   * only the contradictions and the broken maps apart) */
  run_result j = RUN("collapse", rules, "--sizes", "6,16x12", "-n", "30",
                     "--format", "json");
  cJSON *doc = cJSON_Parse(j.out);
  cr_assert(doc, "%s", j.out);
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "sizes");
  cr_assert_eq(cJSON_GetArraySize(rows), 2, "%s", j.out);
  for (int i = 0; i < 2; i++) {
    const cJSON *row = cJSON_GetArrayItem(rows, i);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(row, "failures");
    const cJSON *iv =
        cJSON_GetObjectItemCaseSensitive(row, "failures_interval95");
    cr_assert(cJSON_IsNumber(f) && cJSON_GetArraySize(iv) == 2, "%s", j.out);
    cr_expect_eq((long)f->valuedouble, fails_at[i]);
    char cols[96];
    snprintf(cols, sizeof cols, " %8ld %6.1f%%  %.1f%% to %.1f%% ", fails_at[i],
             100.0 * (double)fails_at[i] / 30,
             100 * cJSON_GetArrayItem(iv, 0)->valuedouble,
             100 * cJSON_GetArrayItem(iv, 1)->valuedouble);
    cr_expect(strstr(x.out, cols), "no '%s' in\n%s", cols, x.out);
  }
  cJSON_Delete(doc);
  run_free(&j);
  run_free(&x);
  expect_cli_error("tilesat: --sizes: 'big' is not a size (N or WxH)\n",
                   "collapse", rules, "--sizes", "8,big");
  remove(rules);
  free(rules);
  tilesat_rules_free(r);
}

/* ------------------------------------------------------------- verify */

/* A hand-broken coast map: the exact pairs that break the rules, each once
 * (worked out by hand from rules/coast.rules); a valid one is VALID. */
Test(verify, lists_the_exact_violating_pairs) {
  char *bad = temp_file("LLL\nCSC\nSLS\n", -1);
  run_result r = RUN("verify", "rules/coast.rules", bad);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(
      r.out, "INVALID: 4 pairs of neighbouring cells break the rules\n"
             "(1,1) \"S\" and its north neighbour (0,1) \"L\": not an allowed "
             "pair\n"
             "(2,0) \"S\" and its east neighbour (2,1) \"L\": not an allowed "
             "pair\n"
             "(2,1) \"L\" and its north neighbour (1,1) \"S\": not an allowed "
             "pair\n"
             "(2,1) \"L\" and its east neighbour (2,2) \"S\": not an allowed "
             "pair\n");
  run_free(&r);
  char *good = temp_file("LLL\nCCC\nSSS\n", -1);
  r = RUN("verify", "rules/coast.rules", good);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  /* periodic: the wrap-around pairs count too (S above L, column by
   * column, and nothing else) */
  r = RUN("verify", "rules/coast.rules", good, "--periodic");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strncmp(r.out, "INVALID: 3 pairs", 16) == 0, "%s", r.out);
  run_free(&r);
  char *alien = temp_file("LLX\n", -1);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s: (0,2) holds \"X\", a tile the rules do not have "
           "(the tiles are 'L', 'C' and 'S')\n",
           alien);
  expect_cli_error(want, "verify", "rules/coast.rules", alien);
  char *made[] = {bad, good, alien};
  for (int i = 0; i < 3; i++) {
    remove(made[i]);
    free(made[i]);
  }
}

/* A collapsed map read back from its PNG, drawn with the tileset's
 * pictures, is VALID. */
Test(verify, a_png_through_the_pictures) {
  char *dir = temp_dir();
  char rules[4096], png[4096];
  snprintf(rules, sizeof rules, "%s/knots.rules", dir);
  snprintf(png, sizeof png, "%s/knots.png", dir);
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Knots.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "12x10", "--seed", "3", "--png", png);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("verify", rules, png);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  rm_dir(dir);
}

/* ---------------------------------------------------------- --pins-from */

/* A half-painted level: its painted cells are pins on check, explain and
 * collapse, from a text grid and from a Tiled map; "." cells are free. */
Test(pins_from, a_painted_level_on_check_explain_collapse) {
  char *clash = temp_file("S...\n....\n...L\n", -1);
  char *fine = temp_file("L...\n....\n...S\n", -1);
  run_result r =
      RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from", clash);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "4x3", "--pins-from",
          clash);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.out, "(0,0) is pinned to S"), "%s", r.out);
  cr_expect(strstr(r.out, "(2,3) is pinned to L"), "%s", r.out);
  run_free(&r);
  r = RUN("collapse", "rules/coast.rules", "--size", "4x3", "--pins-from", fine,
          "--guard", "sat");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(!strncmp(r.out, "SAT\nL", 5), "%s", r.out);
  cr_expect_eq(r.out[strlen(r.out) - 2], 'S', "%s", r.out);
  run_free(&r);
  /* a Tiled map: tiles named by their gids, the empty cells (gid 0) free */
  char *dir = temp_dir(), tmx[4096];
  snprintf(tmx, sizeof tmx, "%s/paint.tmx", dir);
  FILE *f = fopen(tmx, "w");
  cr_assert(f);
  fputs("<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" "
        "width=\"4\" height=\"3\" tilewidth=\"8\" tileheight=\"8\">\n"
        "<tileset firstgid=\"1\" name=\"t\" tilewidth=\"8\" tileheight=\"8\">"
        "<tile id=\"0\"><properties><property name=\"tilesat\" value=\"S\"/>"
        "</properties></tile>"
        "<tile id=\"1\"><properties><property name=\"tilesat\" value=\"L\"/>"
        "</properties></tile></tileset>\n"
        "<layer name=\"paint\" width=\"4\" height=\"3\"><data encoding=\"csv\">"
        "1,0,0,0,\n0,0,0,0,\n0,0,0,2</data></layer>\n</map>\n",
        f);
  fclose(f);
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from", tmx);
  cr_expect_eq(r.code, 20, "%s", r.err);
  run_free(&r);
  char want[4200];
  snprintf(want, sizeof want,
           "tilesat: --pins-from: %s is 4x3, the map 5x3"
           ": drop --size (the map then takes the level's size) or give --size "
           "4x3\n",
           clash);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "5x3",
                   "--pins-from", clash);
  rm_dir(dir);
  remove(clash);
  remove(fine);
  free(clash);
  free(fine);
}

/* A checkerboard on a periodic map of odd width: every window of it has
 * a filling, the whole map none, so only the guard's solver on the whole
 * map can say so: UNSAT; that solver keeps to --max-memory, as check
 * does; with an even width the guard never needs it. */
Test(collapse_cli, a_doom_no_window_sees) {
  char *rules = temp_file("tilesat-rules 1\ntile A 1\ntile B 1\n"
                          "allow A N B\nallow A E B\nallow A S B\n"
                          "allow A W B\nallow B N A\nallow B E A\n"
                          "allow B S A\nallow B W A\n",
                          -1);
  run_result r =
      RUN("collapse", rules, "--size", "41x40", "--periodic", "--guard", "sat");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  r = RUN("collapse", rules, "--size", "41x40", "--periodic", "--guard", "sat",
          "--max-memory", "1M");
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: collapse: a 41x40 map of 2 tiles needs "
                          "about "),
            "%s", r.err);
  cr_expect(strstr(r.err, ", more than --max-memory 1 MiB"), "%s", r.err);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  r = RUN("collapse", rules, "--size", "40x40", "--periodic", "--guard", "sat",
          "--max-memory", "1M");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(strstr(r.err, "tilesat: collapse: guard: 0 exact bans, 0 block "
                          "repairs (0 cells re-solved, 0.0% of the map), 0 "
                          "solver calls\n"),
            "%s", r.err);
  run_free(&r);
  remove(rules);
  free(rules);
}

/* --explain counts the cells between the point of no return and the
 * contradiction through the map's own neighbours, across the wrap on a
 * periodic map: the torus distance, worked out here from the library's
 * cells (Castle 16x16 periodic, the first three failed runs). */
Test(collapse_cli, explain_distance_wraps) {
  tilesat_rules *r = tileset("Castle");
  char *rules = rules_file(r);
  tilesat_map *m = map_new(r, 16, 16, TILESAT_SQUARE, true);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[256], found = 0;
  for (uint64_t s = 1; s < 200 && found < 3; s++) {
    o.seed = s;
    if (tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_UNKNOWN)
      continue;
    cr_assert_eq(tilesat_collapse_explain(c, NULL, &err), 0, "%s", err.msg);
    int cell, tile, bad = collapse_info(c).contradiction;
    tilesat_collapse_choices(c, (size_t)collapse_info(c).no_return, &cell,
                             &tile);
    int dr = abs(cell / 16 - bad / 16), dc = abs(cell % 16 - bad % 16);
    int d = (dr < 16 - dr ? dr : 16 - dr) + (dc < 16 - dc ? dc : 16 - dc);
    char seed[24], want[64];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s);
    snprintf(want, sizeof want, ", %d %s away from it\n", d,
             d == 1 ? "cell" : "cells");
    run_result x = RUN("collapse", rules, "--size", "16x16", "--periodic",
                       "--seed", seed, "--explain");
    cr_expect_eq(x.code, 0, "%s", x.err);
    cr_expect(strstr(x.out, want), "seed %s: want '%s' in\n%s", seed, want,
              x.out);
    run_free(&x);
    found++;
  }
  cr_expect_eq(found, 3);
  remove(rules);
  free(rules);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* A masked cell in the JSON map is null, where the text leaves it blank
 * (it aborted: a masked cell's tile, -1, asked for its name), by the plain
 * run and by modify alike; every other cell the text's tile. */
Test(collapse_cli, masked_cells_are_null_in_json) {
  char *mask = temp_file("....\n.#..\n....\n", 15);
  const char *guards[2] = {"none", "modify"};
  for (int g = 0; g < 2; g++) {
    run_result t = RUN("collapse", "rules/coast.rules", "--size", "4x3",
                       "--mask", mask, "--seed", "1", "--guard", guards[g]);
    run_result j =
        RUN("collapse", "rules/coast.rules", "--size", "4x3", "--mask", mask,
            "--seed", "1", "--guard", guards[g], "--format", "json");
    cr_assert_eq(t.code, 10, "%s: %s", guards[g], t.err);
    cr_assert_eq(j.code, 10, "%s: %s", guards[g], j.err);
    cJSON *doc = cJSON_Parse(j.out);
    cr_assert(doc, "%s", j.out);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "map");
    cr_assert_eq(cJSON_GetArraySize(rows), 3, "%s", j.out);
    const char *line = strchr(t.out, '\n') + 1; /* after SAT */
    for (int y = 0; y < 3; y++, line = strchr(line, '\n') + 1)
      for (int x = 0; x < 4; x++) {
        const cJSON *cell = cJSON_GetArrayItem(cJSON_GetArrayItem(rows, y), x);
        if (y == 1 && x == 1) {
          cr_expect(cJSON_IsNull(cell), "%s: masked (1,1) in\n%s", guards[g],
                    j.out);
        } else {
          cr_assert(cJSON_IsString(cell), "%s", j.out);
          cr_expect_eq(cell->valuestring[0], line[x], "%s: (%d,%d)", guards[g],
                       y, x);
        }
      }
    cJSON_Delete(doc);
    run_free(&t);
    run_free(&j);
  }
  remove(mask);
  free(mask);
}
