/* check as a portfolio (check --method auto|cnf|collapse): its answers
 * against the whole CNF's and brute force, its witnesses against the
 * test's own neighbours, the window it names, and what goes to the CNF. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Does the filled map keep the rules and pins, by brute_neighbor's
 * geometry (not the library's)?  hole: a masked cell (no tile, no
 * neighbours), or -1. */
static bool own_valid(const tilesat_rules *r, int w, int h,
                      tilesat_topology topo, bool periodic, const int *tiles,
                      const int *pins, int npins, int hole) {
  int nd = topo == TILESAT_SQUARE ? 4 : 6;
  for (int c = 0; c < w * h; c++) {
    if (c == hole) {
      if (tiles[c] != TILESAT_NO_TILE)
        return false;
      continue;
    }
    if (tiles[c] < 0 || tiles[c] >= tilesat_rules_ntiles(r))
      return false;
    for (int d = 0; d < nd; d++) {
      int nr, nc;
      if (brute_neighbor(topo, w, h, periodic, c / w, c % w, d, &nr, &nc) &&
          nr * w + nc != hole &&
          !tilesat_rules_allows(r, tiles[c], d, tiles[nr * w + nc]))
        return false;
    }
  }
  for (int i = 0; i < npins; i++)
    if (tiles[pins[3 * i] * w + pins[3 * i + 1]] != pins[3 * i + 2])
      return false;
  return true;
}

static int portfolio(const tilesat_map *m, tilesat_check_method method,
                     tilesat_backend b, int *tiles, tilesat_check_answer *how) {
  tilesat_check_options o;
  tilesat_check_options_init(&o);
  o.method = method;
  o.solve.backend = b;
  tilesat_error err;
  int res = tilesat_check_portfolio(m, &o, tiles, how, &err);
  cr_assert(res == TILESAT_SAT || res == TILESAT_UNSAT, "%s", err.msg);
  return res;
}

/* Random rule sets (some tiles allow nothing in a direction: border-only
 * tiles, which the windows ban at their edges), 4x4 to 16x16, square and
 * hex, open and periodic, up to four pins, sometimes a border, a masked
 * cell or a count: auto and
 * collapse answer as the whole CNF does (and as brute force where it can
 * count), every witness keeps the rules by the test's own neighbours, and
 * every UNSAT a window gave is the whole CNF's too. */
Test(portfolio, agrees_with_the_whole_cnf) {
  test_rng = 2027;
  int windows = 0, collapses = 0, sat = 0, unsat = 0;
  for (int iter = 0; iter < 160; iter++) {
    tilesat_topology topo = iter % 2 ? TILESAT_HEX : TILESAT_SQUARE;
    bool periodic = (iter / 2) % 3 == 0;
    int T = 2 + (int)rnd(4), w = 4 + (int)rnd(13), h = 4 + (int)rnd(13);
    if (periodic && topo == TILESAT_HEX && h % 2)
      h++;
    tilesat_rules *r = random_rules(T, topo, 2 + (int)rnd(5));
    tilesat_map *m = map_new(r, w, h, topo, periodic);
    int npins = (int)rnd(5), pins[12];
    tilesat_error err;
    for (int i = 0; i < npins; i++) {
      pins[3 * i] = (int)rnd((unsigned)h);
      pins[3 * i + 1] = (int)rnd((unsigned)w);
      if (rnd(2)) /* on the map's border, where border-only tiles can be */
        pins[3 * i + rnd(2)] = 0;
      pins[3 * i + 2] = (int)rnd((unsigned)T);
      tilesat_map_pin(m, pins[3 * i], pins[3 * i + 1],
                      tilesat_rules_tile_name(r, pins[3 * i + 2]), &err);
    }
    /* a later pin of a cell replaces an earlier one: keep the last */
    for (int i = 0; i < npins; i++)
      for (int j = i + 1; j < npins; j++)
        if (pins[3 * i] == pins[3 * j] && pins[3 * i + 1] == pins[3 * j + 1])
          pins[3 * i + 2] = pins[3 * j + 2];
    if (!periodic && rnd(4) == 0)
      cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "n=a",
                                              "--border", &err),
                   0, "%s", err.msg);
    int hole = -1, cap = -1; /* a masked cell, at most cap cells of a */
    if (rnd(4) == 0) {
      hole = (int)rnd((unsigned)(w * h));
      for (int i = 0; i < npins; i++)
        if (pins[3 * i] * w + pins[3 * i + 1] == hole)
          hole = -1;
      if (hole >= 0)
        cr_assert_eq(tilesat_map_mask(m, hole / w, hole % w, &err), 0, "%s",
                     err.msg);
    }
    if (rnd(5) == 0) {
      cap = (int)rnd((unsigned)(w * h / 2));
      char spec[32];
      snprintf(spec, sizeof spec, "a<=%d", cap);
      cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, spec,
                                              "--count", &err),
                   0, "%s", err.msg);
    }
    char desc[128];
    snprintf(desc, sizeof desc,
             "iter %d: %s %dx%d%s T=%d pins=%d hole=%d a<=%d", iter,
             tilesat_topology_name(topo), w, h, periodic ? " periodic" : "", T,
             npins, hole, cap);
    int *tiles = malloc((size_t)(w * h) * sizeof *tiles);
    tilesat_backend b = backends[iter % NBACKENDS];
    tilesat_check_answer how;
    int want = portfolio(m, TILESAT_CHECK_CNF, b, tiles, &how);
    cr_expect_eq(how.by, TILESAT_BY_CNF, "%s", desc);
    tilesat_check_method methods[] = {TILESAT_CHECK_AUTO,
                                      TILESAT_CHECK_COLLAPSE};
    for (int k = 0; k < 2; k++) {
      int got = portfolio(m, methods[k], b, tiles, &how);
      cr_expect_eq(got, want, "%s, %s: %d, the CNF %d", desc,
                   tilesat_check_method_name(methods[k]), got, want);
      if (got == TILESAT_SAT) {
        cr_expect(own_valid(r, w, h, topo, periodic, tiles, pins, npins, hole),
                  "%s: an invalid witness", desc);
        int as = 0;
        for (int c = 0; c < w * h; c++)
          as += tiles[c] == 0;
        cr_expect(cap < 0 || as <= cap, "%s: %d cells of a, at most %d", desc,
                  as, cap);
        cr_expect(tilesat_map_verify(m, tiles, NULL, 0), "%s", desc);
      }
      if (methods[k] == TILESAT_CHECK_COLLAPSE)
        cr_expect_neq(how.by, TILESAT_BY_CNF, "%s", desc);
      windows += got == TILESAT_UNSAT && how.by == TILESAT_BY_WINDOW;
      collapses += got == TILESAT_SAT && how.by == TILESAT_BY_COLLAPSE;
    }
    sat += want == TILESAT_SAT;
    unsat += want == TILESAT_UNSAT;
    free(tiles);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  /* the cases reach every engine */
  cr_expect_gt(sat, 20, "%d satisfiable cases", sat);
  cr_expect_gt(unsat, 20, "%d unsatisfiable cases", unsat);
  cr_expect_gt(windows, 5, "%d UNSAT answers from windows", windows);
  cr_expect_gt(collapses, 20, "%d SAT answers from the collapse", collapses);
}

/* The small random cases of the other suites (up to 3x3, brute-force
 * counts): no window fits, auto answers as brute force does. */
Test(portfolio, agrees_with_brute_force_on_small_maps) {
  test_rng = 7;
  for (int iter = 0; iter < 120; iter++) {
    random_case c;
    random_case_new(iter, &c);
    int tiles[9];
    tilesat_check_answer how;
    int got = portfolio(c.map, TILESAT_CHECK_AUTO, backends[iter % NBACKENDS],
                        tiles, &how);
    cr_expect_eq(got, c.brute ? TILESAT_SAT : TILESAT_UNSAT, "%s: %ld maps",
                 c.desc, c.brute);
    random_case_free(&c);
  }
}

/* Two clashing pins at a corner of a 1024x1024 coast map (S can have only
 * C and S to its east, L only L to its north): a window says so at once,
 * named; two at the ends of a column, propagation; the whole CNF of a
 * smaller map agrees, and says nothing on stderr. */
Test(portfolio, the_window_is_named) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  run_result r = RUN("check", "rules/coast.rules", "--size", "1024x1024",
                     "--pin", "0,0=S", "--pin", "1,1=L");
  clock_gettime(CLOCK_MONOTONIC, &t1);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: the pins (0,0)=S and (1,1)=L "
                          "clash: no filling of the 5x5 window at rows 0-4, "
                          "columns 0-4 keeps them; 'tilesat explain' with "
                          "the same options says why\n");
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  cr_expect_lt(s, 5.0, "%.2f s", s);
  run_free(&r);
  /* far from the edges, and across the wrap of a periodic map */
  r = RUN("check", "rules/coast.rules", "--size", "1024x1024", "--pin",
          "600,300=S", "--pin", "601,301=L");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: the pins (600,300)=S and "
                          "(601,301)=L clash: no filling of the 5x5 window at "
                          "rows 598-602, columns 298-302 keeps them; 'tilesat "
                          "explain' with the same options says why\n");
  run_free(&r);
  /* far apart: below S only S, above L only L, down the whole column;
   * no window short of it refutes them, propagation does */
  r = RUN("check", "rules/coast.rules", "--size", "1024x1024", "--pin", "0,0=S",
          "--pin", "1023,0=L");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: propagating the rules and "
                          "pins leaves no tile at (1023,0); 'tilesat explain' "
                          "with the same options says why\n");
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "40x30", "--periodic",
          "--pin", "29,39=S", "--pin", "0,0=L");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: the pins (29,39)=S and "
                          "(0,0)=L clash: no filling of the 5x5 window at "
                          "rows 27-29 and 0-1, columns 37-39 and 0-1 keeps "
                          "them; 'tilesat explain' with the same options says "
                          "why\n");
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "40x30", "--periodic",
          "--pin", "29,39=S", "--pin", "0,0=L", "--method", "cnf");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  cr_expect_str_eq(r.err, "");
  run_free(&r);
}

/* A half-painted level whose painted tiles clash (check --pins-from):
 * the window around them is named; a level that can be completed is, and
 * keeps its paint. */
Test(portfolio, pins_from_a_painted_level) {
  char level[64 * 65 + 1], *p = level;
  for (int row = 0; row < 64; row++) {
    for (int col = 0; col < 64; col++)
      *p++ = row == 40 && col == 20 ? 'S' : row == 41 && col == 21 ? 'L' : '.';
    *p++ = '\n';
  }
  *p = 0;
  char *clash = temp_file(level, -1);
  run_result r = RUN("check", "rules/coast.rules", "--size", "64x64",
                     "--pins-from", clash);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: the pins (40,20)=S and "
                          "(41,21)=L clash: no filling of the 5x5 window at "
                          "rows 38-42, columns 18-22 keeps them; 'tilesat "
                          "explain' with the same options says why\n");
  run_free(&r);
  level[41 * 65 + 21] = '.'; /* the L painted out: fine */
  level[45 * 65 + 30] = 'L';
  char *fine = temp_file(level, -1);
  r = RUN("check", "rules/coast.rules", "--size", "64x64", "--pins-from", fine);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_eq(r.out[4 + 40 * 65 + 20], 'S', "%s", r.out);
  cr_expect_eq(r.out[4 + 45 * 65 + 30], 'L', "%s", r.out);
  run_free(&r);
  remove(clash);
  remove(fine);
  free(clash);
  free(fine);
}

static int distinct_tiles(const char *out) {
  bool seen[256] = {false};
  int n = 0;
  for (const char *p = strchr(out, '\n'); p && *p; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch != '\n' && ch != ' ' && !seen[ch]) {
      seen[ch] = true;
      n++;
    }
  }
  return n;
}

/* Knots 20x20, periodic: the whole CNF's witness is one tile everywhere;
 * auto's is the guarded collapse's map (the same as collapse --guard auto
 * with the same seed), as varied as WFC's; --method cnf is check as it
 * was, the library's tilesat_check witness. */
Test(portfolio, the_witness_is_the_collapses) {
  tilesat_rules *k = tileset("Knots");
  char *rules = rules_file(k);
  run_result a = RUN("check", rules, "--size", "20x20", "--periodic");
  run_result c = RUN("collapse", rules, "--size", "20x20", "--periodic",
                     "--guard", "auto");
  run_result f =
      RUN("check", rules, "--size", "20x20", "--periodic", "--method", "cnf");
  cr_expect_eq(a.code, 10, "%s", a.err);
  cr_expect_str_eq(a.out, c.out);
  cr_expect_str_eq(a.err, "");
  cr_expect_eq(f.code, 10, "%s", f.err);
  cr_expect_gt(distinct_tiles(a.out), 5, "%s", a.out);
  run_result s =
      RUN("check", rules, "--size", "20x20", "--periodic", "--seed", "2");
  cr_expect_eq(s.code, 10, "%s", s.err);
  cr_expect_str_neq(s.out, a.out, "the seed is the collapse's");
  /* --method cnf: the library's tilesat_check, as check always printed */
  tilesat_map *m = map_new(k, 20, 20, TILESAT_SQUARE, true);
  int tiles[400];
  tilesat_error err;
  cr_assert_eq(tilesat_check(m, NULL, tiles, &err), TILESAT_SAT, "%s", err.msg);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  fputs("SAT\n", mem);
  tilesat_map_write(m, tiles, mem);
  fclose(mem);
  cr_expect_str_eq(f.out, text);
  free(text);
  tilesat_map_free(m);
  run_free(&a);
  run_free(&c);
  run_free(&f);
  run_free(&s);
  remove(rules);
  free(rules);
  tilesat_rules_free(k);
}

/* The collapse keeps counts and masks too (its map verified, the count
 * counted here); a map it does not settle within the budget goes to the
 * CNF.  A doom no window sees (a checkerboard around an odd torus: every
 * window has a filling, the map none) the guard proves on the whole map. */
Test(portfolio, the_cnf_when_the_collapse_cannot) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 12, 10, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "C=2",
                                          "--count", &err),
               0);
  int tiles[120];
  tilesat_check_answer how;
  cr_expect_eq(portfolio(m, TILESAT_CHECK_AUTO, TILESAT_PICOSAT, tiles, &how),
               TILESAT_SAT);
  int cs = 0;
  for (int c = 0; c < 120; c++)
    cs += !strcmp(tilesat_rules_tile_name(r, tiles[c]), "C");
  cr_expect_eq(cs, 2);
  cr_expect(tilesat_map_verify(m, tiles, NULL, 0));
  tilesat_map_free(m);
  /* a mask: no tile there */
  m = map_new(r, 12, 10, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_mask(m, 3, 3, &err), 0);
  cr_expect_eq(portfolio(m, TILESAT_CHECK_AUTO, TILESAT_PICOSAT, tiles, &how),
               TILESAT_SAT);
  cr_expect_eq(tiles[3 * 12 + 3], TILESAT_NO_TILE);
  cr_expect(tilesat_map_verify(m, tiles, NULL, 0));
  tilesat_check_options o;
  tilesat_check_options_init(&o);
  /* the budget spent: the CNF */
  tilesat_map_free(m);
  m = map_new(r, 30, 30, TILESAT_SQUARE, false);
  o.method = TILESAT_CHECK_AUTO;
  o.budget = 1e-9;
  int big[900];
  cr_expect_eq(tilesat_check_portfolio(m, &o, big, &how, &err), TILESAT_SAT,
               "%s", err.msg);
  cr_expect_eq(how.by, TILESAT_BY_CNF);
  o.budget = 0;
  cr_expect_eq(tilesat_check_portfolio(m, &o, big, &how, &err), TILESAT_SAT,
               "%s", err.msg);
  cr_expect_eq(how.by, TILESAT_BY_COLLAPSE);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  char *board = temp_file("tilesat-rules 1\ntile A 1\ntile B 1\n"
                          "allow A N B\nallow A E B\nallow A S B\n"
                          "allow A W B\nallow B N A\nallow B E A\n"
                          "allow B S A\nallow B W A\n",
                          -1);
  r = rules_from_file(board);
  m = map_new(r, 41, 40, TILESAT_SQUARE, true);
  int *t = malloc(41 * 40 * sizeof *t);
  for (int k = 0; k < 2; k++) { /* auto, collapse: the guard's whole map */
    tilesat_check_method method[] = {TILESAT_CHECK_AUTO,
                                     TILESAT_CHECK_COLLAPSE};
    cr_expect_eq(portfolio(m, method[k], TILESAT_PICOSAT, t, &how),
                 TILESAT_UNSAT);
    cr_expect_eq(how.by, TILESAT_BY_COLLAPSE);
  }
  free(t);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  remove(board);
  free(board);
}

/* A window keeps the map's masked cells: S at (0,0) and L at (1,1) clash
 * through (0,1) and (1,0); masked, those cells are no neighbours, and the
 * map has a filling (the window around the pins must say so too). */
Test(portfolio, windows_keep_masks) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 40, 30, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin_spec(m, "0,0=S", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(m, "1,1=L", &err), 0);
  int tiles[1200];
  tilesat_check_answer how;
  cr_expect_eq(portfolio(m, TILESAT_CHECK_AUTO, TILESAT_PICOSAT, tiles, &how),
               TILESAT_UNSAT);
  cr_assert_eq(tilesat_map_mask(m, 0, 1, &err), 0);
  cr_assert_eq(tilesat_map_mask(m, 1, 0, &err), 0);
  for (int k = 0; k < 3; k++) {
    tilesat_check_method method[] = {TILESAT_CHECK_AUTO, TILESAT_CHECK_CNF,
                                     TILESAT_CHECK_COLLAPSE};
    cr_expect_eq(portfolio(m, method[k], TILESAT_PICOSAT, tiles, &how),
                 TILESAT_SAT, "%s", tilesat_check_method_name(method[k]));
    cr_expect_eq(tiles[1], TILESAT_NO_TILE);
    cr_expect(tilesat_map_verify(m, tiles, NULL, 0));
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The rules alone: hard.rules ("KB" over "SB") has no map 3 or more wide;
 * at 10x10 auto names a window, and --method is checked.  A window bans
 * border-only tiles only where the map goes on: B, which allows nothing
 * east or west, fills a map one column wide. */
Test(portfolio, the_cli) {
  run_result b = RUN("check", "rules/hard.rules", "--size", "1x200", "--pin",
                     "100,0=B", "--pin", "0,0=B");
  cr_expect_eq(b.code, 10, "%s", b.err);
  for (int row = 0; row < 200 && b.code == 10; row++)
    cr_expect_eq(b.out[4 + 2 * row], 'B', "row %d", row);
  run_free(&b);
  run_result r = RUN("check", "rules/hard.rules", "--size", "10x10");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  cr_expect_str_eq(r.err, "tilesat: check: UNSAT: the rules: no filling of "
                          "the 5x5 window at rows 0-4, columns 0-4; 'tilesat "
                          "explain' with the same options says why\n");
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "3x3", "--pin", "0,0=S",
          "--pin", "1,1=L");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.err,
                   "tilesat: check: UNSAT: propagating the rules and pins "
                   "leaves no tile at (1,1); 'tilesat explain' with "
                   "the same options says why\n");
  run_free(&r);
  expect_cli_error("tilesat: --method: 'dp' is not auto, cnf or collapse\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--method",
                   "dp");
  r = RUN("check", "--help");
  cr_expect(strstr(r.out, "--method auto|cnf|collapse"), "%s", r.out);
  run_free(&r);
}

/* explain's first question, whether the map has a valid map at all, is the
 * portfolio's collapse first: a map too large for explain's CNF within
 * --max-memory, but not for the collapse, is SAT at once. */
Test(portfolio, explain_answers_sat_from_the_collapse) {
  run_result r = RUN("explain", "rules/coast.rules", "--size", "300x300",
                     "--max-memory", "40M");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.out, "SAT: a valid 300x300 map exists, nothing to "
                          "explain (see 'tilesat check').\n");
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "300x300", "--max-memory",
          "40M", "--pin", "0,0=S", "--pin", "1,1=L");
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: explain: a 300x300 map of 3 tiles "
                          "needs about "),
            "%s", r.err);
  run_free(&r);
}
