/* test_anneal_global.c: anneal with global constraints (issue 15).  Every
 * map anneal prints is read back and checked by the test's own flood fill
 * and counts, and by `tilesat verify` with the same constraints. */
#include "helpers.h"

#include <stdlib.h>

#define FLOOR ".+,=" /* rules/dungeon8.constraints' class */

/* The map anneal printed: h rows of w one-character tiles (a blank for a
 * masked cell), into grid (w * h chars). */
static void read_grid(const char *out, int w, int h, char *grid) {
  cr_assert_geq(strlen(out), (size_t)((w + 1) * h), "%s", out);
  for (int r = 0; r < h; r++) {
    const char *line = out + r * (w + 1);
    cr_assert_eq(line[w], '\n', "row %d of %s", r, out);
    memcpy(grid + r * w, line, (size_t)w);
  }
}

/* The test's flood fill: the regions the cells holding a character of
 * `cls` form (4 neighbours, not periodic): comp[c] the region or -1 (comp
 * may be NULL); returns how many. */
static int regions_of(const char *grid, int w, int h, const char *cls,
                      int *comp) {
  int n = w * h, R = 0;
  int *seen = malloc((size_t)n * sizeof *seen);
  int *stack = malloc((size_t)n * sizeof *stack);
  for (int c = 0; c < n; c++)
    seen[c] = -1;
  for (int c = 0; c < n; c++) {
    if (seen[c] >= 0 || !strchr(cls, grid[c]))
      continue;
    int top = 0;
    stack[top++] = c;
    seen[c] = R;
    while (top) {
      int u = stack[--top], r = u / w, q = u % w;
      int nb[4] = {r > 0 ? u - w : -1, r < h - 1 ? u + w : -1,
                   q > 0 ? u - 1 : -1, q < w - 1 ? u + 1 : -1};
      for (int d = 0; d < 4; d++)
        if (nb[d] >= 0 && seen[nb[d]] < 0 && strchr(cls, grid[nb[d]])) {
          seen[nb[d]] = R;
          stack[top++] = nb[d];
        }
    }
    R++;
  }
  if (comp)
    memcpy(comp, seen, (size_t)n * sizeof *comp);
  free(seen);
  free(stack);
  return R;
}

static int regions(const char *grid, int w, int h, const char *cls) {
  return regions_of(grid, w, h, cls, NULL);
}

static int count_of(const char *grid, int n, char ch) {
  int k = 0;
  for (int c = 0; c < n; c++)
    k += grid[c] == ch;
  return k;
}

/* `tilesat verify` of anneal's map (its first h lines) with the extra
 * arguments a1, a2 (constraints): its exit code. */
static int verify(const char *rules, const char *out, int h, const char *a1,
                  const char *a2) {
  const char *end = out;
  for (int r = 0; r < h; r++)
    end = strchr(end, '\n') + 1;
  char *map = temp_file(out, end - out);
  run_result v = RUN("verify", rules, map, a1, a2);
  int code = v.code;
  cr_expect_str_eq(v.out, code == 10 ? "VALID\n" : v.out);
  run_free(&v);
  free(map);
  return code;
}

Test(anneal_global, dungeon_floor_is_one_region) {
  int w = 24, h = 16, split = 0;
  char grid[24 * 16];
  for (int seed = 1; seed <= 3; seed++) {
    char s[16];
    snprintf(s, sizeof s, "%d", seed);
    run_result r = RUN("anneal", "rules/dungeon8.rules", "--size", "24x16",
                       "--connected", ".,+,,,=", "--seed", s);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\nviolations: 0\n"), "%s", r.out);
    read_grid(r.out, w, h, grid);
    cr_expect_eq(regions(grid, w, h, FLOOR), 1, "seed %d:\n%s", seed, r.out);
    cr_expect_eq(verify("rules/dungeon8.rules", r.out, h, "--constraints",
                        "rules/dungeon8.constraints"),
                 10);
    run_free(&r);
    /* the same seed without the constraint: the floor falls apart */
    r = RUN("anneal", "rules/dungeon8.rules", "--size", "24x16", "--seed", s);
    cr_assert_eq(r.code, 0, "%s", r.err);
    read_grid(r.out, w, h, grid);
    split += regions(grid, w, h, FLOOR) > 1;
    run_free(&r);
  }
  cr_expect_gt(split, 0, "every unconstrained map was connected anyway");
}

/* Three sweeps leave violations and a broken floor: the SAT clean-up
 * solves the whole map with the constraint (cuts) and says so. */
Test(anneal_global, cleanup_keeps_the_floor_connected) {
  int w = 20, h = 12;
  char grid[20 * 12];
  run_result r =
      RUN("anneal", "rules/dungeon8.rules", "--size", "20x12", "--constraints",
          "rules/dungeon8.constraints", "--sweeps", "3", "--seed", "5");
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.err, "cleanup: "), "%s", r.err);
  cr_expect(strstr(r.out, "\nviolations: 0\n"), "%s", r.out);
  read_grid(r.out, w, h, grid);
  cr_expect_eq(regions(grid, w, h, FLOOR), 1, "%s", r.out);
  cr_expect_eq(verify("rules/dungeon8.rules", r.out, h, "--constraints",
                      "rules/dungeon8.constraints"),
               10);
  run_free(&r);
}

/* A path between two corners: the test's flood fill joins them. */
Test(anneal_global, path_joins_its_cells) {
  int w = 16, h = 10;
  char grid[16 * 10];
  run_result r = RUN("anneal", "rules/dungeon8.rules", "--size", "16x10",
                     "--path", "0,0:9,15=.,+,,,=", "--seed", "2");
  cr_assert_eq(r.code, 0, "%s", r.err);
  read_grid(r.out, w, h, grid);
  int comp[16 * 10];
  regions_of(grid, w, h, FLOOR, comp);
  cr_expect(comp[0] >= 0 && comp[0] == comp[w * h - 1], "%s", r.out);
  cr_expect_eq(
      verify("rules/dungeon8.rules", r.out, h, "--path", "0,0:9,15=.,+,,,="),
      10);
  run_free(&r);
}

/* Seed 002's board: exactly 7 of each of 7 colours, with and without the
 * palindrome energy, and a count in a rectangle too. */
Test(anneal_global, entropy_board_has_seven_of_each_colour) {
  char *cons = temp_file("tilesat-constraints 1\n"
                         "count A = 7\ncount B = 7\ncount C = 7\n"
                         "count D = 7\ncount E = 7\ncount F = 7\n"
                         "count G = 7\ncount A = 3 rect 0,0:2,2\n",
                         -1);
  for (int run = 0; run < 6; run++) {
    char s[16], grid[49];
    snprintf(s, sizeof s, "%d", run / 3 + 1);
    const char *file = run % 3 == 2 ? cons : "rules/entropy7.constraints";
    run_result r = run % 3 == 1
                       ? RUN("anneal", "rules/entropy7.rules", "--size", "7x7",
                             "--constraints", file, "--energy",
                             "rules/entropy7.energy", "--seed", s)
                       : RUN("anneal", "rules/entropy7.rules", "--size", "7x7",
                             "--constraints", file, "--seed", s);
    cr_assert_eq(r.code, 0, "%s", r.err);
    read_grid(r.out, 7, 7, grid);
    for (char ch = 'A'; ch <= 'G'; ch++)
      cr_expect_eq(count_of(grid, 49, ch), 7, "%c in run %d:\n%s", ch, run,
                   r.out);
    if (file == cons) {
      int k = 0;
      for (int c = 0; c < 49; c++)
        k += c / 7 <= 2 && c % 7 <= 2 && grid[c] == 'A';
      cr_expect_eq(k, 3, "%s", r.out);
    }
    cr_expect_eq(
        verify("rules/entropy7.rules", r.out, 7, "--constraints", file), 10);
    run_free(&r);
  }
  free(cons);
}

/* Borders and masks through the library: masked cells hold no tile, the
 * border sides only their tiles, and the library's checker agrees. */
Test(anneal_global, borders_and_masks_are_kept) {
  tilesat_error err;
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  for (int seed = 1; seed <= 3; seed++) {
    tilesat_map *m = tilesat_map_new(r, 10, 8, TILESAT_SQUARE, false, &err);
    cr_assert(m);
    static const int holes[][2] = {{3, 3}, {3, 4}, {4, 3}, {4, 4}, {7, 0}};
    for (int i = 0; i < 5; i++)
      cr_assert_eq(tilesat_map_mask(m, holes[i][0], holes[i][1], &err), 0);
    cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "n=L",
                                            "--border", &err),
                 0);
    cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_BORDER, "s=S",
                                            "--border", &err),
                 0);
    tilesat_energy *e = tilesat_energy_new(m);
    cr_assert_eq(
        tilesat_energy_parse_line(e, "coherence 1", "--coherence", &err), 0,
        "%s", err.msg);
    cr_assert_eq(tilesat_energy_prepare(e, &err), 0, "%s", err.msg);
    tilesat_anneal_opts o;
    tilesat_anneal_defaults(&o);
    o.seed = (uint64_t)seed;
    tilesat_anneal_stats st;
    int tiles[80];
    cr_assert_eq(tilesat_anneal(e, &o, tiles, &st, &err), 0, "%s", err.msg);
    cr_expect_eq(st.violations, 0);
    int L = tilesat_rules_find_tile(r, "L"),
        S = tilesat_rules_find_tile(r, "S");
    for (int c = 0; c < 80; c++) {
      bool hole = false;
      for (int i = 0; i < 5; i++)
        hole |= c == holes[i][0] * 10 + holes[i][1];
      if (hole) {
        cr_expect_eq(tiles[c], TILESAT_NO_TILE, "(%d,%d)", c / 10, c % 10);
        continue;
      }
      cr_expect_geq(tiles[c], 0);
      if (c < 10)
        cr_expect_eq(tiles[c], L, "(%d,%d)", c / 10, c % 10);
      if (c >= 70)
        cr_expect_eq(tiles[c], S, "(%d,%d)", c / 10, c % 10);
    }
    char why[256];
    cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s", why);
    tilesat_energy_free(e);
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

/* The energy counts each missing join at the connectivity weight: two
 * floor regions cost one join more than one region. */
Test(anneal_global, energy_counts_missing_joins) {
  tilesat_error err;
  tilesat_rules *r = rules_from_file("rules/dungeon8.rules");
  tilesat_map *m = tilesat_map_new(r, 5, 1, TILESAT_SQUARE, false, &err);
  cr_assert(m);
  cr_assert_eq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_CONNECTED, ".",
                                          "--connected", &err),
               0);
  tilesat_energy *e = tilesat_energy_new(m);
  cr_assert_eq(tilesat_energy_parse_line(e, "connectivity 7", "--x", &err), 0,
               "%s", err.msg);
  cr_assert_eq(tilesat_energy_prepare(e, &err), 0, "%s", err.msg);
  int dot = tilesat_rules_find_tile(r, "."),
      wall = tilesat_rules_find_tile(r, "#");
  int apart[5] = {dot, wall, dot, wall, dot},
      walls[5] = {wall, wall, wall, wall, wall};
  double hard = energy_info(e).hard_weight;
  char grid[5];
  for (int c = 0; c < 5; c++)
    grid[c] = apart[c] == dot ? '.' : '#';
  double want = 7.0 * (regions(grid, 5, 1, ".") - 1) +
                hard * (double)tilesat_energy_violations(e, apart);
  cr_expect_float_eq(tilesat_energy_eval(e, apart), want, 1e-9);
  cr_expect_float_eq(tilesat_energy_eval(e, walls),
                     hard * (double)tilesat_energy_violations(e, walls), 1e-9);
  tilesat_energy_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(anneal_global, what_anneal_cannot_keep_is_refused) {
  char *dir = temp_dir();
  char q[4096];
  snprintf(q, sizeof q, "%s/out.qubo", dir);
  expect_cli_error("tilesat: --qubo-out cannot keep border constraints yet "
                   "(--border: only L on the north side); a QUBO holds no "
                   "global constraint, anneal keeps them\n",
                   "anneal", "rules/coast.rules", "--size", "3x3", "--border",
                   "n=L", "--qubo-out", q);
  cr_expect_eq(dir_entries(dir), 0);
  rm_dir(dir);
}

/* ------------------------------------------- starts that must be solved */

/* A map of rules where every pair is allowed, with constraints `text`
 * (without the first line), through the library. */
static tilesat_map *free_map(tilesat_rules *r, int w, int h,
                             tilesat_topology topo, const char *text) {
  tilesat_map *m = map_new(r, w, h, topo, false);
  char full[512];
  snprintf(full, sizeof full, "tilesat-constraints 1\n%s", text);
  tilesat_error err;
  cr_assert_eq(
      tilesat_map_constraints_parse(m, full, strlen(full), "test", &err), 0,
      "%s", err.msg);
  return m;
}

static int anneal_map(const tilesat_map *m, uint64_t seed, int *tiles,
                      tilesat_anneal_stats *st, tilesat_error *err) {
  tilesat_energy *e = tilesat_energy_new(m);
  cr_assert_eq(tilesat_energy_prepare(e, err), 0, "%s", err->msg);
  tilesat_anneal_opts o;
  tilesat_anneal_defaults(&o);
  o.seed = seed;
  o.sweeps = 50;
  int rc = tilesat_anneal(e, &o, tiles, st, err);
  tilesat_energy_free(e);
  return rc;
}

/* Two cells, tiles a b c: no c, the first cell no a, one a or c in all:
 * the only map is b a (enum agrees).  Changing one cell at a time, or
 * swapping two, gets stuck short of the counts (anneal used to give up:
 * "found no start that meets the counts"); the start then comes from the
 * SAT backend, and the runs keep every count from there. */
static const char STUCK[] = "count a,c = 1 rect 0,0:0,1\n"
                            "count a <= 0 rect 0,0:0,0\n"
                            "count c = 0 rect 0,0:0,1\n";

Test(anneal_global, a_start_the_counts_block_is_solved) {
  tilesat_rules *r = random_rules(3, TILESAT_SQUARE, 8); /* every pair */
  tilesat_map *m = free_map(r, 2, 1, TILESAT_SQUARE, STUCK);
  cr_expect_eq(enum_count(m, TILESAT_PICOSAT), 1);
  int a = tilesat_rules_find_tile(r, "a"), b = tilesat_rules_find_tile(r, "b");
  int solved = 0;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    int tiles[2];
    tilesat_anneal_stats st;
    tilesat_error err;
    cr_assert_eq(anneal_map(m, seed, tiles, &st, &err), 0, "seed %d: %s",
                 (int)seed, err.msg);
    cr_expect(tiles[0] == b && tiles[1] == a, "seed %d: %d %d", (int)seed,
              tiles[0], tiles[1]);
    cr_expect_eq(st.violations, 0);
    cr_expect_neq(st.sat_start, TILESAT_UNSAT);
    solved += st.sat_start == TILESAT_SAT;
  }
  cr_expect_gt(solved, 0, "every random start met the counts");
  /* the command line: the map, exit 0, and a line about the start */
  char *rules = rules_file(r), *cons = temp_file("", 0);
  FILE *f = fopen(cons, "w");
  fprintf(f, "tilesat-constraints 1\n%s", STUCK);
  fclose(f);
  run_result c = RUN("anneal", rules, "--size", "2x1", "--constraints", cons,
                     "--sweeps", "50");
  cr_expect_eq(c.code, 0, "%s", c.err);
  cr_expect(strncmp(c.out, "ba\nenergy: ", 11) == 0, "%s", c.out);
  cr_expect(strstr(c.err, "anneal: no random start meets the global "
                          "constraints: the runs start from the SAT "
                          "backend's map\n"),
            "%s", c.err);
  run_free(&c);
  remove(rules);
  free(rules);
  free(cons);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Constraints that leave a cell no tile: two borders with no tile in
 * common meet at a corner of a 3x1 map; a path and a connected region's
 * `at` name one cell of a hex map with classes apart.  The sampler drew a
 * banned tile there, its running energy held the ban's 1e30 and anneal
 * failed with "internal error: the sampler's running energy ... disagrees
 * with a fresh evaluation".  No valid map exists (check agrees): the
 * answer is UNSAT, the CLI exits 20.  A pin on a tile a border forbids is
 * the same (it used to be an error, exit 1). */
Test(anneal_global, a_cell_the_bans_leave_no_tile_is_unsat) {
  static const struct {
    int T, w, h;
    tilesat_topology topo;
    const char *cons, *pin;
  } cases[] = {
      {3, 3, 1, TILESAT_SQUARE, "border e b\nborder ns c\n", NULL},
      {4, 1, 2, TILESAT_HEX, "connected d at 1,0\npath a 1,0 1,0 0,0\n", NULL},
      {3, 3, 3, TILESAT_SQUARE, "border n a\n", "0,1=b"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_rules *r = random_rules(cases[i].T, cases[i].topo, 8);
    tilesat_map *m =
        free_map(r, cases[i].w, cases[i].h, cases[i].topo, cases[i].cons);
    tilesat_error err;
    if (cases[i].pin)
      cr_assert_eq(tilesat_map_pin(m, 0, 1, "b", &err), 0, "%s", err.msg);
    int tiles[9];
    cr_expect_eq(tilesat_check(m, NULL, tiles, &err), TILESAT_UNSAT);
    tilesat_anneal_stats st;
    cr_assert_eq(anneal_map(m, 1, tiles, &st, &err), 0, "%s: %s", cases[i].cons,
                 err.msg);
    cr_expect_eq(st.cleanup_result, TILESAT_UNSAT, "%s", cases[i].cons);
    cr_expect_eq(st.sat_start, TILESAT_UNSAT, "%s", cases[i].cons);
    cr_expect_gt(st.violations, 0, "%s", cases[i].cons);
    char *rules = rules_file(r), *cons = temp_file("", 0), size[16];
    FILE *f = fopen(cons, "w");
    fprintf(f, "tilesat-constraints 1\n%s", cases[i].cons);
    fclose(f);
    snprintf(size, sizeof size, "%dx%d", cases[i].w, cases[i].h);
    run_result c =
        cases[i].pin
            ? RUN("anneal", rules, "--size", size, "--constraints", cons,
                  "--pin", cases[i].pin)
            : RUN("anneal", rules, "--size", size, "--constraints", cons);
    cr_expect_eq(c.code, 20, "%s: %s", cases[i].cons, c.err);
    char want[200];
    snprintf(want, sizeof want,
             "anneal: no random start meets the global constraints, and the "
             "SAT backend says no valid map exists%s\n",
             cases[i].pin ? " with these pins" : "");
    cr_expect_str_eq(c.err, want);
    cr_expect(strstr(c.out, "\nviolations: ") &&
                  !strstr(c.out, "\nviolations: 0\n"),
              "%s", c.out);
    run_free(&c);
    remove(rules);
    free(rules);
    free(cons);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

/* A count and connectivity at once (the swaps that keep the count move
 * the regions too), square and periodic: exactly 20 rooms, one floor. */
Test(anneal_global, count_and_connected_together) {
  char grid[16 * 8];
  for (int run = 0; run < 4; run++) {
    char s[16];
    snprintf(s, sizeof s, "%d", run / 2 + 1);
    bool periodic = run % 2;
    run_result r = periodic
                       ? RUN("anneal", "rules/dungeon8.rules", "--size", "16x8",
                             "--constraints", "rules/dungeon8.constraints",
                             "--count", ".=20", "--seed", s, "--periodic")
                       : RUN("anneal", "rules/dungeon8.rules", "--size", "16x8",
                             "--constraints", "rules/dungeon8.constraints",
                             "--count", ".=20", "--seed", s);
    cr_assert_eq(r.code, 0, "%s", r.err);
    read_grid(r.out, 16, 8, grid);
    cr_expect_eq(count_of(grid, 16 * 8, '.'), 20, "%s", r.out);
    if (!periodic) /* the test's flood fill does not wrap */
      cr_expect_eq(regions(grid, 16, 8, FLOOR), 1, "%s", r.out);
    run_result v;
    const char *end = r.out;
    for (int row = 0; row < 8; row++)
      end = strchr(end, '\n') + 1;
    char *map = temp_file(r.out, end - r.out);
    v = periodic
            ? RUN("verify", "rules/dungeon8.rules", map, "--constraints",
                  "rules/dungeon8.constraints", "--count", ".=20", "--periodic")
            : RUN("verify", "rules/dungeon8.rules", map, "--constraints",
                  "rules/dungeon8.constraints", "--count", ".=20");
    cr_expect_eq(v.code, 10, "%s%s", v.out, v.err);
    run_free(&v);
    free(map);
    run_free(&r);
  }
}

/* A swap tries a path's cell at a tile outside the class (the ban makes
 * the energy refuse it) and puts it back: the cell leaves its region and
 * joins it again.  The sampler counted the cell that joins as a region of
 * its own (and one that leaves as still in its region), so after the
 * swap it saw a missing join the map does not have, and anneal failed
 * with "internal error: the sampler's running energy ... disagrees".
 * A count makes every sweep add swaps; no soft term, so the runs go on. */
Test(anneal_global, a_path_cell_tried_and_put_back_keeps_its_region) {
  tilesat_rules *r = random_rules(2, TILESAT_SQUARE, 8); /* every pair */
  static const struct {
    int w, h;
    bool periodic;
    const char *cons;
  } cases[] = {
      {3, 1, false, "path b 0,0 0,1\ncount b >= 1\n"},
      {3, 2, true, "path b 0,1 0,2 0,1\ncount b >= 1 rect 0,2:1,2\n"},
      {4, 4, false, "path b 0,0 3,3\ncount a >= 3\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tilesat_map *m =
        map_new(r, cases[i].w, cases[i].h, TILESAT_SQUARE, cases[i].periodic);
    char full[256];
    snprintf(full, sizeof full, "tilesat-constraints 1\n%s", cases[i].cons);
    tilesat_error err;
    cr_assert_eq(
        tilesat_map_constraints_parse(m, full, strlen(full), "test", &err), 0,
        "%s", err.msg);
    for (uint64_t seed = 1; seed <= 5; seed++) {
      tilesat_energy *e = tilesat_energy_new(m);
      cr_assert_eq(tilesat_energy_prepare(e, &err), 0, "%s", err.msg);
      tilesat_anneal_opts o;
      tilesat_anneal_defaults(&o);
      o.seed = seed;
      o.sweeps = 100;
      o.stop_at_zero = false;
      tilesat_anneal_stats st;
      int tiles[16];
      cr_expect_eq(tilesat_anneal(e, &o, tiles, &st, &err), 0, "%s seed %d: %s",
                   cases[i].cons, (int)seed, err.msg);
      char why[256];
      cr_expect(tilesat_map_verify(m, tiles, why, sizeof why), "%s: %s",
                cases[i].cons, why);
      tilesat_energy_free(e);
    }
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

/* `connected a at R,C` on a masked cell: no map holds a there (check says
 * UNSAT).  The energy counted an empty class as a missing join only for
 * `nonempty`, the sampler for `at` too: on such a map they disagreed and
 * anneal failed.  An empty class with `at` misses one join, as with
 * `nonempty` (the dp counts it so too); anneal says UNSAT. */
Test(anneal_global, an_empty_class_misses_its_at_cell) {
  tilesat_rules *r = random_rules(2, TILESAT_SQUARE, 8);
  tilesat_map *m = map_new(r, 3, 1, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_mask(m, 0, 1, &err), 0, "%s", err.msg);
  const char *text = "tilesat-constraints 1\nconnected a at 0,1\n";
  cr_assert_eq(
      tilesat_map_constraints_parse(m, text, strlen(text), "test", &err), 0,
      "%s", err.msg);
  int tiles[3];
  cr_expect_eq(tilesat_check(m, NULL, tiles, &err), TILESAT_UNSAT);
  tilesat_energy *e = tilesat_energy_new(m);
  cr_assert_eq(tilesat_energy_parse_line(e, "connectivity 7", "--x", &err), 0,
               "%s", err.msg);
  cr_assert_eq(tilesat_energy_prepare(e, &err), 0, "%s", err.msg);
  int a = tilesat_rules_find_tile(r, "a"), b = tilesat_rules_find_tile(r, "b");
  int none[3] = {b, TILESAT_NO_TILE, b}, two[3] = {a, TILESAT_NO_TILE, a};
  cr_expect_float_eq(tilesat_energy_eval(e, none), 7.0, 1e-9);
  cr_expect_float_eq(tilesat_energy_eval(e, two), 7.0, 1e-9); /* 2 regions */
  for (uint64_t seed = 1; seed <= 3; seed++) {
    tilesat_anneal_opts o;
    tilesat_anneal_defaults(&o);
    o.seed = seed;
    o.sweeps = 50;
    tilesat_anneal_stats st;
    cr_assert_eq(tilesat_anneal(e, &o, tiles, &st, &err), 0, "%s", err.msg);
    cr_expect_eq(st.cleanup_result, TILESAT_UNSAT);
    cr_expect_gt(st.violations, 0);
  }
  tilesat_energy_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}
