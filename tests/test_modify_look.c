/* test_modify_look.c: does collapse --guard modify keep WFC's look (issue
 * 32, "WFC's look kept")?  Statistics that can fail, on Castle, Knots
 * (Standard) and Circuit (Turnless), 20 maps each way, fixed seeds.
 *
 * - tile shares: each tile's mean share over modify's maps (seeds 1-20)
 *   within 1 point of the reference's: plain WFC's successful runs
 *   (seeds 1.. until 20 succeeded) on Knots and Circuit, 128x128
 *   periodic; --guard blocks' maps on Castle 128x128 (plain WFC makes
 *   none that large), the target at its size;
 * - seams: tests/look_seams.h's test (pairs across the seams of the blocks
 *   that made each cell last against the pairs beside the blocks' middle
 *   lines, maps as units, a permutation test), p > 0.01.  Its checks
 *   first: on plain WFC's maps, which have no seams, its p-values are
 *   those of a test that holds its level (20 replicate sets of 20 maps:
 *   at most 1 under 0.01 and 3 under 0.05), and on maps whose blocks are
 *   made apart (each block's content from another plain map) it rejects.
 *   modify's maps pass it at 32x32 and 64x64 (below: where it holds); at
 *   128x128 they fail it, the target `make check-look` runs
 *   (TILESAT_LOOK_TARGETS=1) with the shares. */
#include "helpers.h"
#include "look_seams.h"

#include "wfc/modify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAPS 20
#define ALPHA 0.01
#define PERMS 9999

Test(look, chi_square_p_values) {
  /* chi-square survival values from tables: df 1 at 3.841 is 0.05, df 2
   * at 9.210 is 0.01, df 100 at 135.807 is 0.01, df 10 at 2.558 is
   * 0.99 */
  cr_expect(fabs(look_chi2_p(3.841459, 1) - 0.05) < 1e-5);
  cr_expect(fabs(look_chi2_p(9.210340, 2) - 0.01) < 1e-6);
  cr_expect(fabs(look_chi2_p(135.8067, 100) - 0.01) < 1e-5);
  cr_expect(fabs(look_chi2_p(2.558212, 10) - 0.99) < 1e-5);
}

/* The maps of one kind, w x w: tiles[map][cell]. */
typedef struct maps {
  int n, T, w;
  int *tiles;
  long runs;
  uint64_t next; /* the seed after the last run */
} maps;

/* MAPS maps w x w by guard g (NONE: plain WFC's successful runs), seeds
 * from seed0. */
static void make(const tilesat_rules *r, tilesat_guard g, int w, bool periodic,
                 uint64_t seed0, maps *out) {
  tilesat_map *m = map_new(r, w, w, TILESAT_SQUARE, periodic);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  *out = (maps){.T = tilesat_rules_ntiles(r), .w = w};
  out->tiles = malloc((size_t)MAPS * w * w * sizeof *out->tiles);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = g;
  uint64_t s = seed0;
  for (; out->n < MAPS && s < seed0 + 5000; s++) {
    o.seed = s;
    out->runs++;
    int res =
        tilesat_collapse_run(c, &o, out->tiles + (size_t)out->n * w * w, &err);
    cr_assert_geq(res, 0, "%s", err.msg);
    cr_assert(g == TILESAT_GUARD_NONE || res == TILESAT_SAT);
    out->n += res == TILESAT_SAT;
  }
  out->next = s;
  cr_assert_eq(out->n, MAPS, "%d maps in %ld runs", out->n, out->runs);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
}

/* The seams' test on the maps (modify's seams for seed 1), perms swaps. */
static look_result seams(const maps *m, bool periodic, int perms) {
  look_seams s;
  look_seams_init(&s, m->T, m->w, m->w, periodic, 1);
  for (int i = 0; i < m->n; i++)
    look_seams_add(&s, m->tiles + (size_t)i * m->w * m->w);
  look_result res = look_seams_test(&s, perms, 1);
  look_seams_free(&s);
  return res;
}

/* Blocks made apart: each region that one block of modify's layers made
 * last taken from another plain map, so that seams join unrelated
 * content. */
static void blocky(const maps *plain, maps *out) {
  int w = plain->w, n = w * w;
  int *id = malloc((size_t)n * sizeof *id);
  ts_mod_rect *in = malloc((size_t)n * sizeof *in);
  ts_mod_last_blocks(w, w, true, false, 1, id, in);
  *out = *plain;
  out->tiles = malloc((size_t)MAPS * n * sizeof *out->tiles);
  for (int i = 0; i < MAPS; i++)
    for (int c = 0; c < n; c++) {
      int from = (i + (id[c] < 0 ? 0 : id[c])) % MAPS;
      out->tiles[(size_t)i * n + c] = plain->tiles[(size_t)from * n + c];
    }
  free(id);
  free(in);
}

static tilesat_rules *import(const char *name, const char *subset) {
  char path[128];
  snprintf(path, sizeof path, "tests/data/wfc/tilesets/%s.xml", name);
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(path, subset, NULL, &err);
  cr_assert(r, "%s", err.msg);
  return r;
}

typedef struct set {
  const char *name, *subset;
} set;

static const set sets[] = {
    {"Castle", NULL}, {"Knots", "Standard"}, {"Circuit", "Turnless"}};

/* The instrument on every tileset, 32x32 periodic: plain WFC's maps pass
 * it, blocks made apart fail it. */
Test(look, seams_test_passes_plain_wfc_and_fails_blocks_made_apart) {
  for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
    tilesat_rules *r = import(sets[s].name, sets[s].subset);
    maps plain, bad;
    make(r, TILESAT_GUARD_NONE, 32, true, 1, &plain);
    blocky(&plain, &bad);
    look_result pp = seams(&plain, true, PERMS), pb = seams(&bad, true, PERMS);
    cr_expect_gt(pp.p, ALPHA, "%s: plain WFC's maps rejected, p %.3g",
                 sets[s].name, pp.p);
    cr_expect_lt(pb.p, ALPHA, "%s: blocks made apart pass, p %.3g (chi2 %.1f)",
                 sets[s].name, pb.p, pb.stat);
    free(plain.tiles);
    free(bad.tiles);
    tilesat_rules_free(r);
  }
}

/* The instrument holds its level where pairs are dependent: 10 replicate
 * sets of 20 plain maps each on Knots and Circuit (long wires), 32x32
 * periodic.  A valid test's p-values are uniform: 2 or more of 20 under
 * 0.01, or 4 or more under 0.05, happen 1.7% and 1.6% of the time.  (The
 * chi-square's own p, pairs as independent, gave 0.002 on plain WFC's
 * Circuit maps at 128x128.) */
Test(look, seams_test_p_values_on_plain_wfc_are_uniform) {
  int under1 = 0, under5 = 0;
  char ps[512] = "";
  for (size_t s = 1; s < sizeof sets / sizeof *sets; s++) {
    tilesat_rules *r = import(sets[s].name, sets[s].subset);
    uint64_t seed = 1;
    for (int k = 0; k < 10; k++) {
      maps plain;
      make(r, TILESAT_GUARD_NONE, 32, true, seed, &plain);
      seed = plain.next;
      double p = seams(&plain, true, 1999).p; /* p to 0.0005 */
      under1 += p < 0.01;
      under5 += p < 0.05;
      snprintf(ps + strlen(ps), sizeof ps - strlen(ps), " %.3g", p);
      free(plain.tiles);
    }
    tilesat_rules_free(r);
  }
  cr_expect_leq(under1, 1, "p-values:%s", ps);
  cr_expect_leq(under5, 3, "p-values:%s", ps);
}

/* Modify's seams where the target holds: Castle and Circuit 32x32, Knots
 * 64x64, periodic (p 0.024, 0.77 and 0.86 today; at 128x128, with 16
 * times the seam pairs, it fails: check-look). */
Test(look, modify_seams_pass_at_small_sizes) {
  const int side[3] = {32, 64, 32};
  for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
    tilesat_rules *r = import(sets[s].name, sets[s].subset);
    maps mod;
    make(r, TILESAT_GUARD_MODIFY, side[s], true, 1, &mod);
    look_result res = seams(&mod, true, PERMS);
    cr_expect_gt(res.p, ALPHA, "%s %dx%d: modify's seams differ, p %.3g",
                 sets[s].name, side[s], side[s], res.p);
    free(mod.tiles);
    tilesat_rules_free(r);
  }
}

/* Each tile's mean share over the maps. */
static void mean_shares(const maps *m, double *out) {
  int n = m->w * m->w;
  memset(out, 0, (size_t)m->T * sizeof *out);
  for (int i = 0; i < m->n; i++)
    for (int c = 0; c < n; c++)
      out[m->tiles[(size_t)i * n + c]] += 1.0 / n / m->n;
}

/* The targets at the size, 128x128: shares within a point of the
 * reference's (make test); seams, p > 0.01, with TILESAT_LOOK_TARGETS=1
 * (make check-look): missed today, the figures in tools/README.md. */
static void at_128(const set *st, bool periodic, tilesat_guard ref) {
  tilesat_rules *r = import(st->name, st->subset);
  maps mod, other;
  make(r, TILESAT_GUARD_MODIFY, 128, periodic, 1, &mod);
  make(r, ref, 128, periodic, 1, &other);
  double *a = malloc(2 * (size_t)mod.T * sizeof *a), *b = a + mod.T;
  mean_shares(&mod, a);
  mean_shares(&other, b);
  for (int t = 0; t < mod.T; t++)
    cr_expect_lt(fabs(a[t] - b[t]), 0.01,
                 "%s: '%s' %.2f%% of modify's maps, %.2f%% of the reference's",
                 st->name, tilesat_rules_tile_name(r, t), 100 * a[t],
                 100 * b[t]);
  const char *v = getenv("TILESAT_LOOK_TARGETS");
  if (v && *v == '1') {
    look_result res = seams(&mod, periodic, PERMS),
                ctl = seams(&other, periodic, PERMS);
    cr_expect_gt(res.p, ALPHA,
                 "%s 128x128: modify's seams differ, p %.3g (chi2 %.1f on %d; "
                 "the reference's maps, a control: p %.3g)",
                 st->name, res.p, res.stat, res.df, ctl.p);
  }
  free(a);
  free(mod.tiles);
  free(other.tiles);
  tilesat_rules_free(r);
}

Test(look, castle_128_against_blocks) {
  at_128(&sets[0], false, TILESAT_GUARD_BLOCKS);
}

Test(look, knots_128_against_plain_wfc) {
  at_128(&sets[1], true, TILESAT_GUARD_NONE);
}

Test(look, circuit_128_against_plain_wfc) {
  at_128(&sets[2], true, TILESAT_GUARD_NONE);
}
