/* test_modify.c: modifying in blocks (issue 32).  collapse --guard modify
 * never fails: on random small problems (square and hex, open and
 * periodic, pins, masks, borders, counts) it gives a map the test's own
 * checker passes exactly when the test's own enumeration finds one, else
 * UNSAT; on larger random maps (pins, borders and counts taken from a
 * valid map, so that one exists) and on Castle 128x128 a valid map,
 * checked here from the rules' pairs alone, and where the counts are
 * drawn at random, UNSAT exactly when check finds no map.  tilesat world:
 * chunks asked in different orders are the same bytes, a 3x3 set of chunks
 * asked one by one is valid whole and is what --span 3x3 gives, far coordinates
 * work; connected and path constraints (modify) and rules with no periodic
 * pattern (world) are refused by name.  Past the whole map's bound (2^28
 * cells times tiles) modify and auto make a valid map, and what needs the
 * whole map's tables is refused by name. */
#include "own_check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every pair of neighbouring cells (brute_neighbor's geometry, masked
 * cells holding TILESAT_NO_TILE have none) allowed by the rules' pairs, and
 * every pin (pin[cell] >= 0) and border class (border[tile], on the cells
 * of the map's edge; NULL: none) kept. */
static bool own_ok(const tilesat_rules *r, int w, int h, tilesat_topology topo,
                   bool periodic, const int *pin, const bool *border,
                   const int *tiles) {
  int D = topo == TILESAT_HEX ? 6 : 4;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int t = tiles[y * w + x];
      if (t == TILESAT_NO_TILE)
        continue;
      if (pin && pin[y * w + x] >= 0 && pin[y * w + x] != t)
        return false;
      bool edge = y == 0 || x == 0 || y == h - 1 || x == w - 1;
      if (border && edge && !periodic && !border[t])
        return false;
      for (int d = 0; d < D; d++) {
        int ny, nx;
        if (!brute_neighbor(topo, w, h, periodic, y, x, d, &ny, &nx))
          continue;
        int u = tiles[ny * w + nx];
        if (u != TILESAT_NO_TILE && !tilesat_rules_allows(r, t, d, u))
          return false;
      }
    }
  return true;
}

/* What the run under way is, for its failures. */
static char current[600];

/* One modify run of m (seed): its result, the map in tiles, what it did
 * in *st (NULL: not asked). */
static int modify_stats_run(const tilesat_map *m, uint64_t seed, int *tiles,
                            tilesat_modify_stats *st) {
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.seed = seed;
  o.guard = TILESAT_GUARD_MODIFY;
  int res = tilesat_collapse_run(c, &o, tiles, &err);
  cr_assert_geq(res, 0, "%s: %s", current, err.msg);
  if (st)
    *st = collapse_info(c).modify;
  tilesat_collapse_free(c);
  return res;
}

static int modify_run(const tilesat_map *m, uint64_t seed, int *tiles) {
  return modify_stats_run(m, seed, tiles, NULL);
}

/* A random small problem: the test's own reading and the library's map. */
typedef struct small {
  tilesat_rules *r;
  tilesat_map *m;
  own_map o;
  char desc[600];
} small;

/* A new spec of p's map. */
static spec *small_spec(small *p, tilesat_global_kind kind) {
  spec *s = &p->o.specs[p->o.nspecs++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->topo = p->o.topo;
  s->w = p->o.w;
  s->h = p->o.h;
  s->periodic = p->o.periodic;
  return s;
}

/* A border of every side, its constraints-file line into text. */
static void small_border(small *p, int T, char *text, size_t size) {
  spec *s = small_spec(p, TILESAT_GLOBAL_BORDER);
  for (int i = 0; i < 4; i++)
    s->side[i] = true;
  size_t k = strlen(text);
  k += (size_t)snprintf(text + k, size - k, "border all ");
  for (int t = 0, first = 1; t < T; t++)
    if (rnd(2) || t == T - 1) {
      s->in[t] = true;
      k += (size_t)snprintf(text + k, size - k, "%s%c", first ? "" : ",",
                            'a' + t);
      first = 0;
    }
  snprintf(text + k, size - k, "\n");
}

/* A count of a random class in a random rectangle (the whole map half the
 * time), at most, at least or exactly K (0 to its cells + 1), its line
 * into text. */
static void small_count(small *p, int T, char *text, size_t size) {
  spec *s = small_spec(p, TILESAT_GLOBAL_COUNT);
  bool any = false;
  for (int t = 0; t < T; t++)
    any |= s->in[t] = rnd(3) == 0;
  if (!any)
    s->in[rnd((unsigned)T)] = true;
  s->cmp = (int)rnd(3);
  bool whole = rnd(2);
  s->r0 = whole ? 0 : (int)rnd((unsigned)s->h);
  s->c0 = whole ? 0 : (int)rnd((unsigned)s->w);
  s->r1 = whole ? s->h - 1 : s->r0 + (int)rnd((unsigned)(s->h - s->r0));
  s->c1 = whole ? s->w - 1 : s->c0 + (int)rnd((unsigned)(s->w - s->c0));
  s->k = (int)rnd((unsigned)((s->r1 - s->r0 + 1) * (s->c1 - s->c0 + 1) + 2));
  char cls[32];
  class_word(s, T, cls);
  static const char *const cmps[] = {"<=", ">=", "="};
  size_t k = strlen(text);
  snprintf(text + k, size - k, "count %s %s %d rect %d,%d:%d,%d\n", cls,
           cmps[s->cmp], s->k, s->r0, s->c0, s->r1, s->c1);
}

static void small_new(small *p, int iter) {
  memset(p, 0, sizeof *p);
  own_map *o = &p->o;
  o->topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
  o->periodic = (iter / 2) % 3 == 0;
  int T = 2 + (int)rnd(3), most = T == 2 ? 12 : T == 3 ? 8 : 6;
  do {
    o->w = 1 + (int)rnd(4);
    o->h = 1 + (int)rnd(3);
    if (o->periodic && o->topo == TILESAT_HEX && o->h % 2)
      o->h = o->h == 3 ? 2 : o->h + 1;
  } while (o->w * o->h > most);
  p->r = random_rules(T, o->topo, 3 + (int)rnd(5));
  p->m = map_new(p->r, o->w, o->h, o->topo, o->periodic);
  int n = o->w * o->h, nmasked = 0, npins = 0;
  tilesat_error err;
  for (int c = 0; c < n; c++) {
    o->pin[c] = -1;
    if (iter % 3 == 1 && rnd(4) == 0 && nmasked + 1 < n) {
      o->masked[c] = true;
      nmasked++;
      cr_assert_eq(tilesat_map_mask(p->m, c / o->w, c % o->w, &err), 0, "%s",
                   err.msg);
    }
  }
  for (int i = (int)rnd(4); i > 0; i--) {
    int c = (int)rnd((unsigned)n), t = (int)rnd((unsigned)T);
    if (o->masked[c] || o->pin[c] >= 0)
      continue;
    o->pin[c] = t;
    npins++;
    cr_assert_eq(tilesat_map_pin(p->m, c / o->w, c % o->w,
                                 tilesat_rules_tile_name(p->r, t), &err),
                 0, "%s", err.msg);
  }
  char text[400] = "tilesat-constraints 1\n";
  if (!o->periodic && rnd(3) == 0)
    small_border(p, T, text, sizeof text);
  for (int i = (int)rnd(3); i > 0; i--) /* no count, one or two */
    small_count(p, T, text, sizeof text);
  if (o->nspecs)
    cr_assert_eq(
        tilesat_map_constraints_parse(p->m, text, strlen(text), "test", &err),
        0, "%s", err.msg);
  snprintf(p->desc, sizeof p->desc,
           "case %d: %s %dx%d%s, %d tiles, %d pins, %d masked; %s", iter,
           tilesat_topology_name(o->topo), o->w, o->h,
           o->periodic ? " periodic" : "", T, npins, nmasked,
           text + strlen("tilesat-constraints 1\n"));
}

Test(modify, never_fails_on_small_maps) {
  test_rng = 32;
  int cases = test_cases(160), maps = 0, none = 0;
  int counted[2] = {0, 0}; /* problems with counts: no map, maps */
  for (int i = 0; i < cases; i++) {
    small p;
    small_new(&p, i);
    long truth = own_count(p.r, &p.o);
    int tiles[OWN_MAX_CELLS];
    snprintf(current, sizeof current, "%s", p.desc);
    for (uint64_t seed = 1; seed <= 2; seed++) {
      int res = modify_run(p.m, seed, tiles);
      cr_expect_eq(res, truth ? TILESAT_SAT : TILESAT_UNSAT,
                   "%s: modify says %d, %ld maps", p.desc, res, truth);
      if (res == TILESAT_SAT)
        cr_expect(own_valid(p.r, &p.o, tiles), "%s: seed %d: not valid", p.desc,
                  (int)seed);
    }
    maps += truth > 0;
    none += truth == 0;
    bool counts = false;
    for (int k = 0; k < p.o.nspecs; k++)
      counts |= p.o.specs[k].kind == TILESAT_GLOBAL_COUNT;
    counted[truth > 0] += counts;
    tilesat_map_free(p.m);
    tilesat_rules_free(p.r);
  }
  cr_expect_gt(maps, cases / 4, "%d with maps", maps);
  cr_expect_gt(none, 5, "%d with none", none);
  cr_expect_gt(counted[1], cases / 8, "%d with counts and maps", counted[1]);
  cr_expect_gt(counted[0], 5, "%d with counts and no map", counted[0]);
}

/* A larger random map that has a valid map (check's witness): pins and
 * a border class taken from it, masks at random; modify gives a valid map
 * of it. */
static void larger_case(int iter) {
  tilesat_topology topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
  bool periodic = iter % 4 >= 2;
  int w = 20 + (int)rnd(25), h = 2 * (10 + (int)rnd(12));
  int T = 3 + (int)rnd(3);
  tilesat_rules *r = random_rules(T, topo, 4 + (int)rnd(3));
  tilesat_map *m = map_new(r, w, h, topo, periodic);
  int n = w * h, *witness = malloc((size_t)n * sizeof *witness);
  int *pin = malloc((size_t)n * sizeof *pin), *tiles = malloc((size_t)n * 4);
  tilesat_error err;
  if (iter % 4 == 1) /* masks on a quarter of the maps */
    for (int c = 0; c < n; c++)
      if (rnd(25) == 0)
        cr_assert_eq(tilesat_map_mask(m, c / w, c % w, &err), 0, "%s", err.msg);
  int res = tilesat_check(m, NULL, witness, &err);
  cr_assert_geq(res, 0, "%s", err.msg);
  bool border[8] = {false};
  for (int c = 0; c < n; c++) {
    pin[c] = -1;
    int y = c / w, x = c % w;
    if (res == TILESAT_SAT && witness[c] != TILESAT_NO_TILE && rnd(40) == 0) {
      pin[c] = witness[c];
      cr_assert_eq(tilesat_map_pin(
                       m, y, x, tilesat_rules_tile_name(r, witness[c]), &err),
                   0, "%s", err.msg);
    }
    if (res == TILESAT_SAT && witness[c] != TILESAT_NO_TILE &&
        (y == 0 || x == 0 || y == h - 1 || x == w - 1))
      border[witness[c]] = true;
  }
  bool use_border = res == TILESAT_SAT && !periodic && iter % 3 == 0;
  for (int c = 0; c < n && res == TILESAT_SAT; c++) /* masked: no tile */
    cr_assert_eq(witness[c] == TILESAT_NO_TILE,
                 tilesat_map_masked(m, c / w, c % w));
  if (use_border) {
    char text[128] = "tilesat-constraints 1\nborder all ";
    for (int t = 0, first = 1; t < T; t++)
      if (border[t]) {
        char one[8];
        snprintf(one, sizeof one, "%s%c", first ? "" : ",", 'a' + t);
        strcat(text, one);
        first = 0;
      }
    strcat(text, "\n");
    cr_assert_eq(
        tilesat_map_constraints_parse(m, text, strlen(text), "test", &err), 0,
        "%s", err.msg);
  }
  snprintf(current, sizeof current, "case %d: %s %dx%d%s, %d tiles", iter,
           tilesat_topology_name(topo), w, h, periodic ? " periodic" : "", T);
  int got = modify_run(m, (uint64_t)iter + 1, tiles);
  cr_expect_eq(got, res, "case %d: %s %dx%d%s: modify %d, check %d", iter,
               tilesat_topology_name(topo), w, h, periodic ? " periodic" : "",
               got, res);
  if (got == TILESAT_SAT)
    cr_expect(
        own_ok(r, w, h, topo, periodic, pin, use_border ? border : NULL, tiles),
        "case %d: not valid", iter);
  free(witness);
  free(pin);
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(modify, never_fails_on_larger_maps) {
  test_rng = 3232;
  for (int i = 0; i < test_cases(24); i++)
    larger_case(i);
}

/* Count constraints on a larger random map: a class, a rectangle and K.  From a
 * valid map (check's witness), so that a map exists: exactly its count, at most
 * a little more, at least a little less; or, with random K, whatever check
 * says. */
typedef struct counts_case {
  tilesat_topology topo;
  bool periodic;
  int w, h, T;
  tilesat_rules *r;
  tilesat_map *m;
  spec specs[2];
  int nspecs;
  char lines[256];
} counts_case;

static void counts_spec(counts_case *k, const int *witness, bool from_witness) {
  spec *s = &k->specs[k->nspecs++];
  memset(s, 0, sizeof *s);
  s->kind = TILESAT_GLOBAL_COUNT;
  s->topo = k->topo;
  s->w = k->w;
  s->h = k->h;
  s->periodic = k->periodic;
  bool any = false;
  for (int t = 0; t < k->T - 1; t++) /* never every tile */
    any |= s->in[t] = rnd(3) == 0;
  if (!any)
    s->in[rnd((unsigned)(k->T - 1))] = true;
  s->r0 = (int)rnd((unsigned)k->h / 2);
  s->c0 = (int)rnd((unsigned)k->w / 2);
  s->r1 = s->r0 + k->h / 8 + (int)rnd((unsigned)k->h / 4);
  s->c1 = s->c0 + k->w / 8 + (int)rnd((unsigned)k->w / 4);
  int have = 0, cells = (s->r1 - s->r0 + 1) * (s->c1 - s->c0 + 1);
  for (int c = 0; witness && c < k->w * k->h; c++) {
    int y = c / k->w, x = c % k->w;
    have += y >= s->r0 && y <= s->r1 && x >= s->c0 && x <= s->c1 &&
            witness[c] >= 0 && s->in[witness[c]];
  }
  s->cmp = (int)rnd(3);
  s->k = !from_witness ? (int)rnd((unsigned)cells / 2 + 1)
         : s->cmp == 0 ? have + (int)rnd(3)
         : s->cmp == 1 ? (have > 2 ? have - (int)rnd(3) : have)
                       : have;
  char cls[32];
  class_word(s, k->T, cls);
  static const char *const cmps[] = {"<=", ">=", "="};
  size_t n = strlen(k->lines);
  snprintf(k->lines + n, sizeof k->lines - n,
           "count %s %s %d rect %d,%d:%d,%d\n", cls, cmps[s->cmp], s->k, s->r0,
           s->c0, s->r1, s->c1);
}

/* One case: 1 when modify made again some window for the counts. */
static int counts_one(int iter) {
  counts_case k = {.topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE,
                   .periodic = iter % 4 >= 2,
                   .w = 36 + (int)rnd(30),
                   .h = 2 * (17 + (int)rnd(14)),
                   .T = 3 + (int)rnd(3)};
  k.r = random_rules(k.T, k.topo, 4 + (int)rnd(3));
  k.m = map_new(k.r, k.w, k.h, k.topo, k.periodic);
  int n = k.w * k.h, *witness = malloc((size_t)n * sizeof *witness);
  int *tiles = malloc((size_t)n * sizeof *tiles);
  tilesat_error err;
  if (iter % 3 == 1)
    for (int c = 0; c < n; c++)
      if (rnd(25) == 0)
        cr_assert_eq(tilesat_map_mask(k.m, c / k.w, c % k.w, &err), 0, "%s",
                     err.msg);
  /* CaDiCaL: PicoSAT took 30 s on some of these maps */
  tilesat_solve_options so = {.backend = TILESAT_CADICAL};
  int res = tilesat_check(k.m, &so, witness, &err);
  cr_assert_geq(res, 0, "%s", err.msg);
  bool drawn = iter % 4 == 3 || res != TILESAT_SAT; /* K at random */
  strcpy(k.lines, "tilesat-constraints 1\n");
  for (int i = 1 + (int)rnd(2); i > 0; i--)
    counts_spec(&k, drawn ? NULL : witness, !drawn);
  cr_assert_eq(tilesat_map_constraints_parse(k.m, k.lines, strlen(k.lines),
                                             "test", &err),
               0, "%s", err.msg);
  if (drawn)
    res = tilesat_check(k.m, &so, NULL, &err);
  cr_assert_geq(res, 0, "%s", err.msg);
  snprintf(current, sizeof current, "case %d: %s %dx%d%s, %d tiles, %s", iter,
           tilesat_topology_name(k.topo), k.w, k.h,
           k.periodic ? " periodic" : "", k.T,
           k.lines + strlen("tilesat-constraints 1\n"));
  tilesat_modify_stats st;
  int got = modify_stats_run(k.m, (uint64_t)iter + 1, tiles, &st);
  cr_expect_eq(got, res, "%s: modify %d, check %d", current, got, res);
  if (got == TILESAT_SAT) {
    cr_expect(own_ok(k.r, k.w, k.h, k.topo, k.periodic, NULL, NULL, tiles),
              "%s: breaks the rules", current);
    for (int i = 0; i < k.nspecs; i++)
      cr_expect(keeps_masked(&k.specs[i], tiles), "%s: breaks count %d",
                current, i + 1);
  }
  free(witness);
  free(tiles);
  tilesat_map_free(k.m);
  tilesat_rules_free(k.r);
  return st.count_windows > 0;
}

/* modify keeps counts on maps too large for one window: the counts met
 * first by windows (the whole map's SAT only where they cannot), then kept
 * by every block. */
Test(modify, keeps_counts_on_larger_maps) {
  test_rng = 3233;
  int cases = test_cases(24), windowed = 0;
  for (int i = 0; i < cases; i++)
    windowed += counts_one(i);
  cr_expect_gt(windowed, cases / 3, "%d of %d cases by count windows", windowed,
               cases);
}

Test(modify, castle_128) {
  tilesat_rules *r = tileset("Castle");
  tilesat_map *m = map_new(r, 128, 128, TILESAT_SQUARE, false);
  int *tiles = malloc(128 * 128 * sizeof *tiles);
  cr_assert_eq(modify_run(m, 1, tiles), TILESAT_SAT);
  cr_expect(own_ok(r, 128, 128, TILESAT_SQUARE, false, NULL, NULL, tiles));
  int distinct = 0; /* more than the pattern it started from */
  bool seen[256] = {false};
  for (int c = 0; c < 128 * 128; c++)
    if (!seen[tiles[c]]) {
      seen[tiles[c]] = true;
      distinct++;
    }
  cr_expect_gt(distinct, 10, "%d tiles in the map", distinct);
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Every cell is made again in some layer (inside a block, off its margin),
 * at the map's edges too: from the same pattern, a cell that no block
 * changed would hold the same tile under every seed.  Line rules (a, b, c,
 * equal weights) change a cell with a fair chance each time. */
static void every_cell_changes(int w, int h, bool periodic) {
  tilesat_rules *r = rules_from_text(line_rules);
  tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, periodic);
  int n = w * h, *tiles = malloc((size_t)n * sizeof *tiles);
  int *first = malloc((size_t)n * sizeof *first);
  bool *changed = calloc((size_t)n, 1);
  for (uint64_t seed = 1; seed <= 16; seed++) {
    cr_assert_eq(modify_run(m, seed, seed == 1 ? first : tiles), TILESAT_SAT);
    for (int c = 0; c < n && seed > 1; c++)
      changed[c] |= tiles[c] != first[c];
  }
  for (int c = 0; c < n; c++)
    cr_expect(changed[c], "%dx%d%s: (%d,%d) the same under 16 seeds", w, h,
              periodic ? " periodic" : "", c / w, c % w);
  free(tiles);
  free(first);
  free(changed);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(modify, every_cell_is_made_again) {
  every_cell_changes(41, 37, false);
  every_cell_changes(48, 32, true);
  every_cell_changes(27, 13, true);
  every_cell_changes(9, 6, false);
}

/* The blocks' work: layers 0 and 1 make every cell again but where their
 * margins cross, which 10x10 spot blocks alone make again: each cell of
 * an open map 2.1 times (8548 cells here), not 3.2 times (4 layers of
 * 16x16 blocks: 12996). */
Test(modify, each_cell_is_made_again_about_twice) {
  tilesat_rules *r = rules_from_text(line_rules);
  tilesat_map *m = map_new(r, 64, 64, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  cr_assert(c, "%s", err.msg);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.seed = 7;
  o.guard = TILESAT_GUARD_MODIFY;
  int tiles[64 * 64];
  cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT, "%s",
               err.msg);
  cr_expect(own_ok(r, 64, 64, TILESAT_SQUARE, false, NULL, NULL, tiles));
  tilesat_modify_stats st = collapse_info(c).modify;
  cr_expect_geq(st.cells, 64 * 64, "%lld cells made again", st.cells);
  cr_expect_leq(st.cells, 9 * 64 * 64 / 4, "%lld cells made again", st.cells);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The largest share of one tile in a map of n cells, and how many tiles
 * it holds. */
static double largest_share(const tilesat_rules *r, const int *tiles, int n,
                            int *distinct) {
  int T = tilesat_rules_ntiles(r), most = 0;
  int *seen = calloc((size_t)T, sizeof *seen);
  *distinct = 0;
  for (int c = 0; c < n; c++) {
    *distinct += seen[tiles[c]]++ == 0;
    most = seen[tiles[c]] > most ? seen[tiles[c]] : most;
  }
  free(seen);
  return (double)most / n;
}

/* A periodic map whose side has no divisor from 4 to 16 (34 = 2 x 17,
 * Circuit Turnless's size in samples.xml): the start was a 1x1 or 2x2
 * pattern, and the blocks of a map without edges kept it (every cell
 * "bridge 0"); now a 17x17 torus filled by WFC.  Against --guard sat's
 * maps of the same size and seeds: no tile holds twice its largest share,
 * and at least half as many tiles are in the map. */
Test(modify, odd_periodic_side_starts_varied) {
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(
      "tests/data/wfc/tilesets/Circuit.xml", "Turnless", NULL, &err);
  cr_assert(r, "%s", err.msg);
  enum { S = 34 };
  tilesat_map *m = map_new(r, S, S, TILESAT_SQUARE, true);
  int *tiles = malloc((size_t)S * S * sizeof *tiles);
  for (uint64_t seed = 1; seed <= 2; seed++) {
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    cr_assert(c, "%s", err.msg);
    tilesat_collapse_options o;
    tilesat_collapse_options_init(&o);
    o.seed = seed;
    o.guard = TILESAT_GUARD_SAT;
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT, "%s",
                 err.msg);
    tilesat_collapse_free(c);
    int sat_tiles, mod_tiles;
    double sat_share = largest_share(r, tiles, S * S, &sat_tiles);
    snprintf(current, sizeof current, "Circuit Turnless %dx%d periodic", S, S);
    cr_assert_eq(modify_run(m, seed, tiles), TILESAT_SAT);
    cr_expect(own_ok(r, S, S, TILESAT_SQUARE, true, NULL, NULL, tiles));
    double mod_share = largest_share(r, tiles, S * S, &mod_tiles);
    cr_expect_lt(mod_share, 2 * sat_share,
                 "seed %d: a tile holds %.1f%% of the map (--guard sat: "
                 "%.1f%%)",
                 (int)seed, 100 * mod_share, 100 * sat_share);
    cr_expect_geq(2 * mod_tiles, sat_tiles,
                  "seed %d: %d tiles in the map (--guard sat: %d)", (int)seed,
                  mod_tiles, sat_tiles);
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* A collapser run again after its map's pins changed (modify's windows
 * keep one collapser a size and change its pins and bans block by block):
 * --guard blocks and auto re-decided cells from the wave of the first
 * run's pins, and a repair put back a tile the new pins rule out ("internal
 * error: the collapsed map is not valid"). */
Test(modify, a_reused_collapser_keeps_its_maps_new_pins) {
  test_rng = 3234;
  int runs = 0, maps = 0;
  for (int iter = 0; iter < test_cases(40); iter++) {
    tilesat_topology topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    int T = 3 + (int)rnd(4), w = 8 + (int)rnd(20), h = 2 * (4 + (int)rnd(8));
    tilesat_rules *r = random_rules(T, topo, 4 + (int)rnd(4));
    tilesat_map *m = map_new(r, w, h, topo, iter % 3 == 0);
    int n = w * h, *pin = malloc((size_t)n * sizeof *pin);
    int *tiles = malloc((size_t)n * sizeof *tiles);
    for (int c = 0; c < n; c++)
      pin[c] = -1;
    tilesat_error err;
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    cr_assert(c, "%s", err.msg);
    for (int round = 0; round < 4; round++) {
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.seed = (uint64_t)round + 1;
      o.guard = round % 2 ? TILESAT_GUARD_AUTO : TILESAT_GUARD_BLOCKS;
      int res = tilesat_collapse_run(c, &o, tiles, &err);
      cr_expect_geq(res, 0, "case %d round %d: %s", iter, round, err.msg);
      runs++;
      if (res == TILESAT_SAT) {
        maps++;
        cr_expect(own_ok(r, w, h, topo, iter % 3 == 0, pin, NULL, tiles),
                  "case %d round %d: not valid", iter, round);
      }
      for (int k = 0; k < 1 + (int)rnd(3); k++) { /* pins for the next */
        int cell = (int)rnd((unsigned)n), t = (int)rnd((unsigned)T);
        if (pin[cell] >= 0)
          continue;
        pin[cell] = t;
        cr_assert_eq(tilesat_map_pin(m, cell / w, cell % w,
                                     tilesat_rules_tile_name(r, t), &err),
                     0, "%s", err.msg);
      }
    }
    tilesat_collapse_free(c);
    free(pin);
    free(tiles);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_gt(maps, runs / 4, "%d maps in %d runs", maps, runs);
}

/* How many cells of the map printed after "SAT\n" hold tile ch. */
static int cells_holding(const char *out, char ch) {
  int n = 0;
  for (const char *p = out + 4; *p; p++)
    n += *p == ch;
  return n;
}

/* Counts from the command line are kept (coast: L needs L north of it up
 * to the edge, so few windows can take L away: the whole map's SAT
 * there); a count no map meets is UNSAT (exit 20); connected and path
 * constraints are refused by name. */
Test(modify, keeps_counts_and_refuses_what_it_cannot_keep) {
  run_result got =
      RUN("collapse", "rules/coast.rules", "--size", "40x36", "--count", "L=3",
          "--count", "C>=30", "--guard", "modify", "--seed", "2");
  cr_assert_eq(got.code, 10, "%s", got.err);
  cr_expect_eq(cells_holding(got.out, 'L'), 3, "%s", got.out);
  cr_expect_geq(cells_holding(got.out, 'C'), 30, "%s", got.out);
  cr_expect(strstr(got.err, " count windows, "), "%s", got.err);
  run_free(&got);
  got = RUN("collapse", "rules/coast.rules", "--size", "8x8", "--count",
            "L,C,S<=63", "--guard", "modify");
  cr_expect_eq(got.code, 20, "%s", got.err);
  cr_expect_str_eq(got.out, "UNSAT\n");
  run_free(&got);
  expect_cli_error("tilesat: collapse --guard modify cannot keep connected "
                   "constraints yet (--connected: L connected: the cells "
                   "holding L form one region); --guard sat can\n",
                   "collapse", "rules/coast.rules", "--size", "8x8",
                   "--connected", "L", "--guard", "modify");
  expect_cli_error("tilesat: collapse --guard modify cannot keep path "
                   "constraints yet (--path: a path of {L C} joins (0,0) and "
                   "(7,7)); --guard sat can\n",
                   "collapse", "rules/coast.rules", "--size", "8x8", "--path",
                   "0,0:7,7=L,C", "--guard", "modify");
}

/* ----------------------------------------------------------------- world */

#define N 8 /* a chunk's side */

static tilesat_world *world(const tilesat_rules *r) {
  tilesat_error err;
  tilesat_world *w =
      tilesat_world_new(r, tilesat_rules_topology(r), 7, NULL, &err);
  cr_assert(w, "%s", err.msg);
  return w;
}

/* The 3x3 chunks from (R, C), each asked alone in the order given, into
 * one 3N x 3N map. */
static void stitched(tilesat_world *w, int64_t R, int64_t C, const int *order,
                     int *map) {
  int chunk[N * N];
  tilesat_error err;
  for (int k = 0; k < 9; k++) {
    int i = order[k] / 3, j = order[k] % 3;
    cr_assert_eq(tilesat_world_chunks(w, R + i, C + j, N, 1, 1, chunk, &err), 0,
                 "%s", err.msg);
    for (int y = 0; y < N; y++)
      memcpy(map + (i * N + y) * 3 * N + j * N, chunk + y * N,
             N * sizeof *chunk);
  }
}

/* Chunks asked one by one in two orders (each from a fresh world, the
 * second after other chunks) and all at once are the same bytes, and valid
 * whole. */
static void world_agrees(const tilesat_rules *r, int64_t R, int64_t C) {
  static const int order1[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  static const int order2[9] = {8, 4, 0, 6, 2, 7, 1, 5, 3};
  int a[9 * N * N], b[9 * N * N], span[9 * N * N], other[N * N];
  tilesat_world *w1 = world(r), *w2 = world(r);
  tilesat_error err;
  stitched(w1, R, C, order1, a);
  cr_assert_eq(tilesat_world_chunks(w2, R + 1, C + 1, N, 1, 1, other, &err), 0);
  stitched(w2, R, C, order2, b);
  cr_expect_eq(memcmp(a, b, sizeof a), 0, "(%lld,%lld): orders differ",
               (long long)R, (long long)C);
  cr_assert_eq(tilesat_world_chunks(w1, R, C, N, 3, 3, span, &err), 0, "%s",
               err.msg);
  cr_expect_eq(memcmp(a, span, sizeof a), 0,
               "(%lld,%lld): --span 3x3 differs from its chunks", (long long)R,
               (long long)C);
  cr_expect(
      own_ok(r, 3 * N, 3 * N, tilesat_rules_topology(r), false, NULL, NULL, a),
      "(%lld,%lld): a seam breaks the rules", (long long)R, (long long)C);
  tilesat_world_free(w1);
  tilesat_world_free(w2);
}

Test(world, chunks_agree_in_any_order_and_at_seams) {
  tilesat_rules *r = tileset("Castle");
  world_agrees(r, -2, 5);
  tilesat_rules_free(r);
}

/* Rules of 5 tiles with a periodic pattern and more than two tiles in
 * their chunks. */
static tilesat_rules *five_tiles(tilesat_topology topo) {
  test_rng = 6464;
  for (;;) {
    tilesat_rules *r = random_rules(5, topo, 4);
    tilesat_error err;
    tilesat_world *w = tilesat_world_new(r, topo, 1, NULL, &err);
    int tiles[N * N], distinct = 0;
    bool seen[5] = {false};
    if (w && !tilesat_world_chunks(w, 0, 0, N, 1, 1, tiles, &err))
      for (int c = 0; c < N * N; c++) {
        distinct += !seen[tiles[c]];
        seen[tiles[c]] = true;
      }
    tilesat_world_free(w);
    if (distinct > 2)
      return r;
    tilesat_rules_free(r);
  }
}

Test(world, hex_chunks_agree_at_seams) {
  tilesat_rules *r = five_tiles(TILESAT_HEX);
  world_agrees(r, -3, 2);
  world_agrees(r, 1, -1);
  tilesat_rules_free(r);
}

Test(world, far_coordinates) {
  tilesat_rules *r = five_tiles(TILESAT_SQUARE);
  world_agrees(r, INT64_MAX - 2, INT64_MIN);
  world_agrees(r, INT64_MIN, INT64_MAX - 2);
  tilesat_rules_free(r);
  run_result got = RUN("world", "rules/coast.rules", "--chunk", "16", "--at",
                       "9223372036854775000,-9223372036854775000");
  cr_expect_eq(got.code, 10, "%s", got.err);
  cr_expect_eq(strncmp(got.out, "SAT\n", 4), 0);
  cr_expect_eq(strlen(got.out), 4 + 16 * 17, "%s", got.out);
  run_free(&got);
}

Test(world, cli_is_the_library_and_refuses_by_name) {
  expect_cli_error("tilesat: world: an endless map needs a periodic pattern "
                   "of the rules (a valid map of a small torus), and they "
                   "have none up to 16x16: a finite map may still exist "
                   "('tilesat check RULES --size WxH', or collapse --guard "
                   "sat), or 'tilesat repair RULES --size 4x4 --periodic' "
                   "says which pairs to allow for one\n",
                   "world", "rules/hard.rules", "--chunk", "4", "--at", "0,0");
  expect_cli_error("tilesat: --at: '1,x' is not R,C (two integers of 64 "
                   "bits)\n",
                   "world", "rules/coast.rules", "--chunk", "4", "--at", "1,x");
  expect_cli_error("tilesat: --at: '1,99999999999999999999' is not R,C (two "
                   "integers of 64 bits)\n",
                   "world", "rules/coast.rules", "--chunk", "4", "--at",
                   "1,99999999999999999999");
  expect_cli_error("tilesat: world: missing --chunk N (the side of a chunk, "
                   "in cells)\n",
                   "world", "rules/coast.rules", "--at", "0,0");
  run_result a = RUN("world", "rules/coast.rules", "--chunk", "8", "--at",
                     "-1,3", "--span", "2x1", "--seed", "4");
  run_result b = RUN("world", "rules/coast.rules", "--chunk", "8", "--at",
                     "-1,4", "--seed", "4");
  cr_assert_eq(a.code, 10, "%s", a.err);
  cr_assert_eq(b.code, 10, "%s", b.err);
  /* the second chunk of the span is the chunk east of the first */
  for (int y = 0; y < 8; y++)
    cr_expect_eq(memcmp(a.out + 4 + y * 17 + 8, b.out + 4 + y * 9, 8), 0,
                 "row %d: %.16s vs %.8s", y, a.out + 4 + y * 17,
                 b.out + 4 + y * 9);
  run_free(&a);
  run_free(&b);
}

/* world draws with the pictures it is given, as collapse does (it
 * refused --pictures: the designer's pass); the picture is the one drawn
 * with the same pictures found beside the rules. */
Test(world, draws_with_the_pictures_given) {
  char *art = slurp("rules/dungeon8-art.pictures");
  char *rules = slurp("rules/dungeon8.rules");
  cr_assert(art && rules);
  char *dir = temp_dir();
  char path[4][512];
  const char *name[4] = {"d.rules", "art.pictures", "d.pictures", ""};
  for (int i = 0; i < 3; i++) {
    snprintf(path[i], sizeof path[i], "%s/%s", dir, name[i]);
    FILE *f = fopen(path[i], "w");
    cr_assert(f);
    fputs(i == 0 ? rules : art, f);
    fclose(f);
  }
  char a[512], b[512];
  snprintf(a, sizeof a, "%s/a.png", dir);
  snprintf(b, sizeof b, "%s/b.png", dir);
  remove(path[2]); /* first with --pictures alone */
  run_result x = RUN("world", path[0], "--chunk", "16", "--at", "0,0",
                     "--pictures", path[1], "--png", a, "-q");
  cr_assert_eq(x.code, 10, "%s", x.err);
  FILE *f = fopen(path[2], "w"); /* then the same pictures beside */
  cr_assert(f);
  fputs(art, f);
  fclose(f);
  run_result y =
      RUN("world", path[0], "--chunk", "16", "--at", "0,0", "--png", b, "-q");
  cr_assert_eq(y.code, 10, "%s", y.err);
  cr_expect_str_eq(x.out, "SAT\n");
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  cr_assert(fa && fb);
  int ca, cb;
  long n = 0;
  do {
    ca = getc(fa);
    cb = getc(fb);
    n++;
  } while (ca == cb && ca != EOF);
  cr_expect(ca == EOF && cb == EOF && n > 100,
            "the two pictures differ at byte %ld", n);
  fclose(fa);
  fclose(fb);
  run_free(&x);
  run_free(&y);
  free(art);
  free(rules);
  rm_dir(dir);
}

/* ------------------------------------------- past the whole map's bound */

/* Rules of BIG_T tiles t0, t1, ...: a tile's neighbours, in every
 * direction, are itself and its partner (t0 and t1, t2 and t3, ...); with
 * `east` false, nothing east of any tile (no torus has a map: a map is one
 * column wide).  513x513 cells times BIG_T tiles is past 2^28. */
#define BIG_T 1024
#define BIG_SIDE 513
static char *big_rules(bool east) {
  size_t size = (size_t)BIG_T * 160 + 64, n = 0;
  char *text = malloc(size);
  cr_assert(text);
  n += (size_t)snprintf(text, size, "tilesat-rules 1\ntopology square\n");
  for (int t = 0; t < BIG_T; t++)
    n += (size_t)snprintf(text + n, size - n, "tile t%d 1\n", t);
  for (int t = 0; t < BIG_T; t++)
    for (int d = 0; d < 4; d++)
      if (east || d % 2 == 0)
        n += (size_t)snprintf(text + n, size - n, "allow t%d %c t%d t%d\n", t,
                              "NESW"[d], t, t ^ 1);
  char *path = temp_file(text, (long)n);
  free(text);
  return path;
}

/* The tile t<k> a word names, or -1 ("" or anything else). */
static int big_tile(const char *word, size_t len) {
  if (len < 2 || word[0] != 't' || len > 6)
    return -1;
  int k = 0;
  for (size_t i = 1; i < len; i++) {
    if (word[i] < '0' || word[i] > '9')
      return -1;
    k = k * 10 + (word[i] - '0');
  }
  return k < BIG_T ? k : -1;
}

/* The text map (SAT, tilesat-grid names, then BIG_SIDE rows) read into
 * tiles (-1: "", a masked cell); false when it is not that. */
static bool big_read(const char *out, int *tiles) {
  const char *head = "SAT\ntilesat-grid names\n";
  if (strncmp(out, head, strlen(head)))
    return false;
  const char *p = out + strlen(head);
  for (int y = 0; y < BIG_SIDE; y++) {
    for (int x = 0; x < BIG_SIDE; x++) {
      size_t len = strcspn(p, " \n");
      bool masked = len == 2 && !strncmp(p, "\"\"", 2);
      int t = big_tile(p, len);
      if (!masked && t < 0)
        return false;
      tiles[y * BIG_SIDE + x] = masked ? -1 : t;
      p += len;
      if (*p != (x == BIG_SIDE - 1 ? '\n' : ' '))
        return false;
      p++;
    }
  }
  return *p == '\0';
}

/* A 513x513 map of 1024 tiles (past 2^28 cells times tiles: refused
 * before) by --guard modify and by auto, which goes by modify at once: its
 * unmasked cells (a 40x24 corner: the blocks' work is theirs) each hold a
 * tile, every pair of neighbours is a pair the rules allow (read here from
 * the rules' own shape), the masked cells hold none. */
Test(modify, past_the_whole_maps_bound) {
  char *rules = big_rules(true);
  size_t cells = (size_t)BIG_SIDE * BIG_SIDE, k = 0;
  char *mask = malloc(cells + BIG_SIDE + 1);
  cr_assert(mask);
  for (int y = 0; y < BIG_SIDE; y++) {
    for (int x = 0; x < BIG_SIDE; x++)
      mask[k++] = y < 24 && x < 40 ? '.' : '#';
    mask[k++] = '\n';
  }
  char *mask_path = temp_file(mask, (long)k);
  free(mask);
  int *tiles = malloc(cells * sizeof *tiles);
  cr_assert(tiles);
  const char *guards[2] = {"modify", "auto"};
  for (int g = 0; g < 2; g++) {
    run_result got = RUN("collapse", rules, "--size", "513x513", "--mask",
                         mask_path, "--guard", guards[g], "--seed", "3");
    cr_assert_eq(got.code, 10, "%s: %s", guards[g], got.err);
    cr_expect(strstr(got.err, g ? "guard: auto went by modify (the map is too "
                                  "large for the whole map's tables): modify "
                                  "from a 16x16 periodic pattern"
                                : "guard: modify from a 16x16 periodic "
                                  "pattern"),
              "%s", got.err);
    cr_assert(big_read(got.out, tiles), "%s: not a 513x513 map of t0..t1023",
              guards[g]);
    long made = 0;
    for (int y = 0; y < BIG_SIDE; y++)
      for (int x = 0; x < BIG_SIDE; x++) {
        int t = tiles[y * BIG_SIDE + x];
        bool free_cell = y < 24 && x < 40;
        cr_expect_eq(t >= 0, free_cell, "%s: (%d,%d) holds %d", guards[g], y, x,
                     t);
        made += t >= 0;
        int right = x + 1 < BIG_SIDE ? tiles[y * BIG_SIDE + x + 1] : -1;
        int below = y + 1 < BIG_SIDE ? tiles[(y + 1) * BIG_SIDE + x] : -1;
        cr_expect(t < 0 || right < 0 || right >> 1 == t >> 1,
                  "%s: t%d beside t%d at (%d,%d)", guards[g], t, right, y, x);
        cr_expect(t < 0 || below < 0 || below >> 1 == t >> 1,
                  "%s: t%d above t%d at (%d,%d)", guards[g], t, below, y, x);
      }
    cr_expect_eq(made, 24 * 40);
    run_free(&got);
  }
  free(tiles);
  free(mask_path);
  free(rules);
}

/* Past the bound, what needs the whole map's tables is refused by name:
 * the other guards (the bound's own message), modify's whole-map SAT (rules
 * with no periodic pattern), and in the library check and the plain
 * collapser; past 2^28 cells modify too. */
Test(modify, past_the_bound_whole_map_work_is_refused) {
  char *rules = big_rules(true), *column = big_rules(false);
  expect_cli_error("tilesat: --size: 513x513 with 1024 tiles is too large (at "
                   "most 268435456 cells times tiles)\n",
                   "collapse", rules, "--size", "513x513", "--guard", "blocks");
  expect_cli_error("tilesat: collapse: --guard modify needs the whole map's "
                   "SAT (the rules have no periodic pattern up to 16x16), and "
                   "1x262145 with 1024 tiles is too large for it (at most "
                   "268435456 cells times tiles)\n",
                   "collapse", column, "--size", "1x262145", "--guard",
                   "modify");
  expect_cli_error("tilesat: collapse --guard modify cannot keep connected "
                   "constraints yet (--connected: t0 connected: the cells "
                   "holding t0 form one region); --guard sat can on a map "
                   "within 2^28 cells times tiles\n",
                   "collapse", rules, "--size", "513x513", "--guard", "auto",
                   "--connected", "t0");
  expect_cli_error("tilesat: --size: 16385x16385 is too large (at most "
                   "268435456 cells, even with --guard modify)\n",
                   "collapse", "rules/coast.rules", "--size", "16385x16385",
                   "--guard", "modify");
  tilesat_rules *r = rules_from_file(rules);
  tilesat_error err;
  cr_assert_null(
      tilesat_map_new(r, BIG_SIDE, BIG_SIDE, TILESAT_SQUARE, false, &err));
  tilesat_map *m =
      tilesat_map_new_large(r, BIG_SIDE, BIG_SIDE, TILESAT_SQUARE, false, &err);
  cr_assert(m, "%s", err.msg);
  cr_expect(map_info(m).large);
  cr_expect_null(tilesat_collapse_new(m, &err));
  cr_expect_str_eq(err.msg,
                   "collapse: 513x513 with 1024 tiles is too large for a run "
                   "on the whole map (at most 268435456 cells times tiles); "
                   "--guard modify goes past it");
  cr_expect_eq(tilesat_check(m, NULL, NULL, &err), -1);
  cr_expect_str_eq(err.msg,
                   "check: 513x513 with 1024 tiles is too large for the whole "
                   "map (at most 268435456 cells times tiles); only collapse "
                   "--guard modify goes past it");
  tilesat_collapse *c = tilesat_collapse_new_modify(m, &err);
  cr_assert(c, "%s", err.msg);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = TILESAT_GUARD_BLOCKS;
  int *tiles = malloc((size_t)BIG_SIDE * BIG_SIDE * sizeof *tiles);
  cr_expect_eq(tilesat_collapse_run(c, &o, tiles, &err), -1);
  cr_expect_str_eq(err.msg,
                   "collapse: --guard blocks needs the whole map's collapser, "
                   "and the map is too large for it; --guard modify does not");
  free(tiles);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  free(column);
  free(rules);
}

/* auto on a map larger than 512x512 goes by modify at once, saying why
 * (its blocks there were heavy-tailed: Castle 1024x1024 with a tower pinned
 * gave no answer in 120 s; by modify 10 s): a map whose pin holds and
 * whose every pair of neighbours the line rules allow (a never beside c). */
Test(modify, auto_past_512x512_goes_by_modify_at_once) {
  char *rules = temp_file(line_rules, (long)strlen(line_rules));
  run_result got = RUN("collapse", rules, "--size", "520x513", "--pin", "7,9=c",
                       "--guard", "auto", "--seed", "2");
  cr_assert_eq(got.code, 10, "%s", got.err);
  cr_expect(strstr(got.err, "tilesat: collapse: guard: auto went on by modify "
                            "(the map is larger than 512x512 cells): modify "
                            "from a "),
            "%s", got.err);
  const char *p = strchr(got.out, '\n'); /* past "SAT" */
  cr_assert(p);
  p++;
  int w = 520, h = 513;
  for (int y = 0; y < h; y++, p += w + 1) {
    cr_assert(strlen(p) > (size_t)w && p[w] == '\n', "row %d", y);
    for (int x = 0; x < w; x++) {
      const char *below = y + 1 < h ? p + w + 1 + x : NULL;
      cr_assert(strchr("abc", p[x]), "(%d,%d): %c", y, x, p[x]);
      cr_expect(x + 1 == w || (p[x] ^ p[x + 1]) != ('a' ^ 'c'),
                "(%d,%d): %c beside %c", y, x, p[x], p[x + 1]);
      cr_expect(!below || (p[x] ^ *below) != ('a' ^ 'c'),
                "(%d,%d): %c above %c", y, x, p[x], *below);
    }
    if (y == 7)
      cr_expect_eq(p[9], 'c', "the pin at (7,9)");
  }
  run_free(&got);
  free(rules);
}
