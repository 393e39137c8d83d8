/* explain: minimal sets of clashing constraints, checked for minimality on
 * both backends and by a brute-force checker of the constraints' meaning
 * that does not use the encoder. */
#include "helpers.h"
#include "png_helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ an independent checker */

static int opposite(tilesat_topology topo, int d) {
  return tilesat_dir_opposite(topo, d);
}

/* Can the constraints hold together, every other constraint dropped?  A
 * cell without its one-tile constraint may hold any set of tiles; a pair
 * constraint asks every tile on each side to have an allowed partner on
 * the other.  Brute force over tile sets of the cells involved. */
static bool brute_sat(const tilesat_map *m, const tilesat_constraint *cs,
                      size_t n) {
  const tilesat_rules *r = map_info(m).rules;
  int T = tilesat_rules_ntiles(r), W = map_info(m).width;
  tilesat_topology topo = tilesat_rules_topology(r);
  int ncells = 0, slot[4096];
  memset(slot, -1, sizeof slot);
  for (size_t i = 0; i < n; i++) {
    int c[2] = {cs[i].row * W + cs[i].col, cs[i].nrow * W + cs[i].ncol};
    for (int k = 0; k < (cs[i].kind == TILESAT_ADJACENT ? 2 : 1); k++)
      if (slot[c[k]] < 0) {
        cr_assert(ncells < 8, "too many cells for brute force");
        slot[c[k]] = ncells++;
      }
  }
  unsigned set[64] = {0};
  for (;;) {
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
      unsigned s = set[slot[cs[i].row * W + cs[i].col]];
      if (cs[i].kind == TILESAT_ONE_TILE) {
        ok = s && !(s & (s - 1));
      } else if (cs[i].kind == TILESAT_PINNED) {
        ok = s >> cs[i].tile & 1;
      } else {
        unsigned s2 = set[slot[cs[i].nrow * W + cs[i].ncol]];
        for (int t = 0; t < T && ok; t++) {
          bool sup = !(s >> t & 1), sup2 = !(s2 >> t & 1);
          for (int u = 0; u < T; u++) {
            sup |= (s2 >> u & 1) && tilesat_rules_allows(r, t, cs[i].dir, u);
            sup2 |= (s >> u & 1) &&
                    tilesat_rules_allows(r, t, opposite(topo, cs[i].dir), u);
          }
          ok = sup && sup2;
        }
      }
    }
    if (ok)
      return true;
    int k = 0;
    while (k < ncells && ++set[k] == (1u << T))
      set[k++] = 0;
    if (k == ncells)
      return false;
  }
}

/* Minimal: UNSAT as a whole, SAT with any one dropped, on both backends
 * and by brute force when small enough. */
/* The story of every shape of answer holds together: steps refer back
 * only to earlier steps, use the explanation's constraints, name tiles and
 * cells of the map, and end in a contradiction when propagation refutes. */
static void expect_steps_sound(const tilesat_explanation *e) {
  const tilesat_map *m = explanation_info(e).map;
  const tilesat_steps *s = explanation_info(e).steps;
  int T = tilesat_rules_ntiles(map_info(m).rules);
  size_t n = tilesat_steps_count(s);
  cr_expect_eq(tilesat_steps_contradiction(s),
               explanation_info(e).by_propagation);
  for (size_t i = 0; i < n; i++) {
    const tilesat_step *st = tilesat_steps_get(s, i);
    cr_expect(st->row >= 0 && st->row < map_info(m).height && st->col >= 0 &&
              st->col < map_info(m).width);
    for (size_t k = 0; k < st->nafter; k++)
      cr_expect(st->after[k] >= 1 && (size_t)st->after[k] <= i,
                "step %zu follows from step %d", i + 1, st->after[k]);
    for (int k = 0; k < st->nconstraints; k++)
      cr_expect(st->constraints[k] >= 1 &&
                (size_t)st->constraints[k] <= explanation_info(e).size);
    for (size_t k = 0; k < st->ntiles; k++)
      cr_expect(st->tiles[k] >= 0 && st->tiles[k] < T &&
                (k == 0 || st->tiles[k] > st->tiles[k - 1]));
    for (size_t k = 0; k < st->nfrom; k++)
      cr_expect(st->from[k] >= 0 && st->from[k] < T);
    bool last = i + 1 == n;
    bool ends = st->kind == TILESAT_STEP_EMPTY ||
                st->kind == TILESAT_STEP_LOST ||
                st->kind == TILESAT_STEP_MUST_GONE;
    cr_expect(!ends || last, "a contradiction before the last step");
    if (last)
      cr_expect_eq(ends, tilesat_steps_contradiction(s));
  }
}

static void expect_minimal(const tilesat_map *m, const tilesat_explanation *e,
                           bool brute) {
  size_t n = explanation_info(e).size;
  cr_assert(n > 0);
  tilesat_constraint *cs = calloc(n, sizeof *cs), *rest = calloc(n, sizeof *cs);
  for (size_t i = 0; i < n; i++)
    cs[i] = *tilesat_explanation_constraint(e, i);
  tilesat_error err;
  for (int b = 0; b < NBACKENDS; b++) {
    cr_expect_eq(tilesat_constraints_check(m, SOLVE(backends[b]), cs, n, &err),
                 TILESAT_UNSAT, "the set is satisfiable (%s)",
                 tilesat_backend_name(backends[b]));
    for (size_t drop = 0; drop < n; drop++) {
      size_t k = 0;
      for (size_t i = 0; i < n; i++)
        if (i != drop)
          rest[k++] = cs[i];
      cr_expect_eq(
          tilesat_constraints_check(m, SOLVE(backends[b]), rest, k, &err),
          TILESAT_SAT, "still UNSAT without constraint %zu (%s)", drop + 1,
          tilesat_backend_name(backends[b]));
      if (brute && b == 0)
        cr_expect(brute_sat(m, rest, k), "brute force: still UNSAT without %zu",
                  drop + 1);
    }
  }
  if (brute)
    cr_expect(!brute_sat(m, cs, n), "brute force: the set is satisfiable");
  free(cs);
  free(rest);
}

static bool has(const tilesat_explanation *e, tilesat_constraint_kind kind,
                int row, int col, int dir, int tile) {
  for (size_t i = 0; i < explanation_info(e).size; i++) {
    const tilesat_constraint *c = tilesat_explanation_constraint(e, i);
    if (c->kind == kind && c->row == row && c->col == col &&
        (kind != TILESAT_ADJACENT || c->dir == dir) &&
        (kind != TILESAT_PINNED || c->tile == tile))
      return true;
  }
  return false;
}

/* ------------------------------------------------------------------ hard */

Test(explain, hard_names_one_middle_cell_and_its_two_pairs) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/hard.rules", &err);
  cr_assert(r, "%s", err.msg);
  int sizes[][2] = {{3, 1}, {3, 3}};
  for (int s = 0; s < 2; s++)
    for (int b = 0; b < NBACKENDS; b++) {
      tilesat_map *m =
          map_new(r, sizes[s][0], sizes[s][1], TILESAT_SQUARE, false);
      tilesat_explanation *e = NULL;
      cr_assert_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                   TILESAT_UNSAT, "%s", err.msg);
      cr_assert_eq(explanation_info(e).size, 3);
      const tilesat_constraint *c = tilesat_explanation_constraint(e, 0);
      int row = c->row;
      cr_expect_eq(c->kind, TILESAT_ONE_TILE);
      cr_expect_eq(c->col, 1, "not the middle column");
      cr_expect(has(e, TILESAT_ADJACENT, row, 1, 1, -1), "no east pair");
      cr_expect(has(e, TILESAT_ADJACENT, row, 1, 3, -1), "no west pair");
      cr_expect_eq(explanation_info(e).ncells, 3);
      cr_expect(explanation_info(e).by_propagation);
      expect_minimal(m, e, true);
      tilesat_explanation_free(e);
      tilesat_map_free(m);
    }
  tilesat_rules_free(r);
}

static const char *hard_3x1_text =
    "UNSAT: no valid 3x1 map.\n"
    "These 3 constraints (of 5 in the map) cannot all hold, and dropping any "
    "one\nof them leaves a satisfiable set (checked):\n"
    "  [1] (0,1) holds exactly one tile\n"
    "  [2] (0,1) and its east neighbour (0,2) hold an allowed pair\n"
    "  [3] (0,1) and its west neighbour (0,0) hold an allowed pair\n"
    "\n"
    "Why (propagation on these constraints alone; [n] the constraints "
    "used):\n"
    "  [3]     (0,1) loses {K, S}: K, S allow nothing to their west, where "
    "(0,0) is\n"
    "  [2]     (0,1) loses {B}: B allows nothing to its east, where (0,2) "
    "is\n"
    "  [1]     (0,1) has no tile left, but it must hold one: contradiction\n"
    "\n"
    "The map (# a cell that must hold one tile, P a pin, o a cell only in "
    "an\nadjacency, . not involved; - and | adjacency constraints):\n"
    "  o-#-o\n";

Test(explain, cli_text_and_json) {
  for (int b = 0; b < NBACKENDS; b++) {
    run_result r = RUN("explain", "rules/hard.rules", "--size", "3x1",
                       "--backend", tilesat_backend_name(backends[b]));
    cr_expect_eq(r.code, 20);
    cr_expect_str_eq(r.out, hard_3x1_text);
    cr_expect_str_eq(r.err, "");
    run_free(&r);
  }
  run_result r =
      RUN("explain", "rules/hard.rules", "--size", "3x1", "--format", "json");
  cr_expect_eq(r.code, 20);
  expect_json_eq(
      r.out,
      "{\n"
      "  \"result\": \"UNSAT\",\n"
      "  \"map\": {\"width\": 3, \"height\": 1, \"topology\": \"square\", "
      "\"periodic\": false},\n"
      "  \"total_constraints\": 5,\n"
      "  \"minimal\": true,\n"
      "  \"constraints\": [\n"
      "    {\"id\": 1, \"kind\": \"one_tile\", \"cell\": [0, 1]},\n"
      "    {\"id\": 2, \"kind\": \"adjacent\", \"cell\": [0, 1], "
      "\"direction\": \"E\", \"neighbor\": [0, 2]},\n"
      "    {\"id\": 3, \"kind\": \"adjacent\", \"cell\": [0, 1], "
      "\"direction\": \"W\", \"neighbor\": [0, 0]}\n"
      "  ],\n"
      "  \"cells\": [[0, 0], [0, 1], [0, 2]],\n"
      "  \"propagation_refutes\": true,\n"
      "  \"steps\": [\n"
      "    {\"step\": 1, \"constraints\": [3], \"kind\": \"support\", "
      "\"cell\": [0, 1], \"loses\": [\"K\", \"S\"], \"neighbor\": [0, 0], "
      "\"neighbor_holds\": [\"K\", \"B\", \"S\"], "
      "\"direction_from_neighbor\": \"E\", \"after\": []},\n"
      "    {\"step\": 2, \"constraints\": [2], \"kind\": \"support\", "
      "\"cell\": [0, 1], \"loses\": [\"B\"], \"neighbor\": [0, 2], "
      "\"neighbor_holds\": [], \"direction_from_neighbor\": \"W\", "
      "\"after\": []},\n"
      "    {\"step\": 3, \"constraints\": [1], \"kind\": \"empty\", "
      "\"cell\": [0, 1], \"after\": [1, 2]}\n"
      "  ]\n"
      "}\n");
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "3x3");
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(r.out, "SAT: a valid 3x3 map exists, nothing to explain "
                          "(see 'tilesat check').\n");
  run_free(&r);
  r = RUN("explain", "rules/coast.rules", "--size", "2x1", "--format", "json");
  cr_expect_eq(r.code, 10);
  expect_json_eq(r.out, "{\n  \"result\": \"SAT\",\n  \"map\": {\"width\": "
                        "2, \"height\": 1, \"topology\": \"square\", "
                        "\"periodic\": false},\n  \"total_constraints\": 3\n"
                        "}\n");
  run_free(&r);
}

/* ----------------------------------------------------------------- coast */

/* Propagation with positive facts ("must hold") tells the story even
 * though the cells between the pins have no one-tile constraint. */
static const char *coast_pins_text =
    "UNSAT: no valid 3x3 map.\n"
    "These 7 constraints (of 23 in the map) cannot all hold, and dropping any "
    "one\nof them leaves a satisfiable set (checked):\n"
    "  [1] (0,0) is pinned to S\n"
    "  [2] (0,0) and its south neighbour (1,0) hold an allowed pair\n"
    "  [3] (1,1) holds exactly one tile\n"
    "  [4] (1,1) and its south neighbour (2,1) hold an allowed pair\n"
    "  [5] (1,1) and its west neighbour (1,0) hold an allowed pair\n"
    "  [6] (2,2) is pinned to L\n"
    "  [7] (2,2) and its west neighbour (2,1) hold an allowed pair\n"
    "\n"
    "Why (propagation on these constraints alone; [n] the constraints "
    "used):\n"
    "  [1]     (0,0) is pinned to S\n"
    "  [6]     (2,2) is pinned to L\n"
    "  [2]     (1,0) must hold S: (0,0) holds S, and S allows only {S} to its "
    "south\n"
    "  [7]     (2,1) must hold one of {L, C}: (2,2) holds L, and L allows "
    "only {L, C} to its west\n"
    "  [5]     (1,1) must hold one of {C, S}: (1,0) holds S, and S allows "
    "only {C, S} to its east\n"
    "  [3]     (1,1) loses {L}: it holds only one tile, and that must be one "
    "of {C, S}\n"
    "  [4]     (1,1) must hold L: (2,1) holds one of {L, C}, and L, C allow "
    "only {L} to their north\n"
    "          (1,1) must hold L, but that is ruled out: contradiction\n"
    "\n"
    "The map (# a cell that must hold one tile, P a pin, o a cell only in "
    "an\nadjacency, . not involved; - and | adjacency constraints):\n"
    "  P . .\n"
    "  |\n"
    "  o-# .\n"
    "    |\n"
    "  . o-P\n";

Test(explain, coast_two_pins_clash_though_each_alone_leaves_five_maps) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  cr_assert(r, "%s", err.msg);
  const char *pins[] = {"0,0=S", "2,2=L"};
  for (int b = 0; b < NBACKENDS; b++) {
    for (int p = 0; p < 2; p++) {
      tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
      cr_assert_eq(tilesat_map_pin_spec(m, pins[p], &err), 0);
      cr_expect_eq(enum_count(m, backends[b]), 5, "pin %s", pins[p]);
      tilesat_map_free(m);
    }
    tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
    cr_assert_eq(tilesat_map_pin_spec(m, pins[0], &err), 0);
    cr_assert_eq(tilesat_map_pin_spec(m, pins[1], &err), 0);
    tilesat_explanation *e = NULL;
    cr_assert_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                 TILESAT_UNSAT);
    cr_expect(has(e, TILESAT_PINNED, 0, 0, -1, tilesat_rules_find_tile(r, "S")),
              "pin (0,0)=S missing");
    cr_expect(has(e, TILESAT_PINNED, 2, 2, -1, tilesat_rules_find_tile(r, "L")),
              "pin (2,2)=L missing");
    cr_expect(explanation_info(e).by_propagation);
    expect_minimal(m, e, true);
    tilesat_explanation_free(e);
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
  for (int b = 0; b < NBACKENDS; b++) {
    run_result c =
        RUN("explain", "rules/coast.rules", "--size", "3x3", "--pin", "0,0=S",
            "--pin", "2,2=L", "--backend", tilesat_backend_name(backends[b]));
    cr_expect_eq(c.code, 20);
    cr_expect_str_eq(c.out, coast_pins_text);
    run_free(&c);
  }
}

/* A far-apart clash (62 cells apart) on a large map: minimal, and about
 * the pins. */
Test(explain, coast_32x32_far_pins) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  tilesat_map *m = map_new(r, 32, 32, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_pin_spec(m, "0,0=S", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(m, "31,31=L", &err), 0);
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_explanation *e = NULL;
    cr_assert_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                 TILESAT_UNSAT, "%s", tilesat_backend_name(backends[b]));
    cr_expect(
        has(e, TILESAT_PINNED, 0, 0, -1, tilesat_rules_find_tile(r, "S")));
    cr_expect(
        has(e, TILESAT_PINNED, 31, 31, -1, tilesat_rules_find_tile(r, "L")));
    cr_expect(explanation_info(e).by_propagation);
    expect_minimal(m, e, false);
    tilesat_explanation_free(e);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------- random rules, topologies */

static unsigned lcg(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

Test(explain, random_rules_every_explanation_is_minimal) {
  unsigned seed = 4;
  int unsat = 0;
  for (int round = 0; round < 40; round++) {
    /* a random 3x3 sample over 4 tiles: sparse rules, often UNSAT maps */
    char sample[16];
    int k = 0;
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++)
        sample[k++] = (char)('a' + lcg(&seed) % 4);
      sample[k++] = '\n';
    }
    sample[k] = 0;
    tilesat_topology topo = round % 4 == 3 ? TILESAT_HEX : TILESAT_SQUARE;
    bool periodic = round % 5 == 4;
    tilesat_rules *r = rules_from_sample(sample, topo, false);
    int w = 2 + (int)(lcg(&seed) % 3), h = 2 + 2 * (int)(lcg(&seed) % 2);
    tilesat_map *m = map_new(r, w, h, topo, periodic);
    for (int p = (int)(lcg(&seed) % 3); p > 0; p--) {
      char pin[32];
      snprintf(pin, sizeof pin, "%d,%d=%c", (int)(lcg(&seed) % (unsigned)h),
               (int)(lcg(&seed) % (unsigned)w),
               sample[lcg(&seed) % 3 * 4 + lcg(&seed) % 3]);
      tilesat_error err;
      cr_assert_eq(tilesat_map_pin_spec(m, pin, &err), 0, "%s", err.msg);
    }
    for (int b = 0; b < NBACKENDS; b++) {
      tilesat_error err;
      tilesat_explanation *e = NULL;
      int res = tilesat_explain(m, SOLVE(backends[b]), &e, &err);
      cr_assert(res == TILESAT_SAT || res == TILESAT_UNSAT, "%s", err.msg);
      cr_expect_eq(res, tilesat_check(m, SOLVE(backends[b]), NULL, &err));
      if (res == TILESAT_UNSAT) {
        unsat++;
        expect_minimal(m, e, explanation_info(e).ncells <= 5);
        expect_steps_sound(e);
      }
      tilesat_explanation_free(e);
    }
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect(unsat >= 20, "only %d UNSAT cases: the test tests little", unsat);
}

/* ------------------------------------------------------------------- JSON */

/* Does a "tile" field of the JSON text hold exactly `escaped` (as
 * written, escapes and all)? */
static bool has_tile(const char *json, const char *escaped) {
  for (const char *p = json; (p = strstr(p, "\"tile\":")); p++) {
    const char *v = p + strlen("\"tile\":");
    v += strspn(v, " \t");
    if (!strncmp(v, escaped, strlen(escaped)))
      return true;
  }
  return false;
}

Test(explain, json_escapes_tile_names) {
  const char *rules = "tilesat-rules 1\n"
                      "tile \"a\\\"q\" 1\n"
                      "tile \"b\\\\s\" 1\n"
                      "tile \xc3\xa9 1\n"
                      "allow \"a\\\"q\" E \"a\\\"q\" \"b\\\\s\"\n"
                      "allow \"a\\\"q\" W \"a\\\"q\"\n"
                      "allow \"b\\\\s\" W \"a\\\"q\"\n"
                      "allow \xc3\xa9 N \xc3\xa9\n"
                      "allow \xc3\xa9 S \xc3\xa9\n";
  char *path = temp_file(rules, -1);
  run_result r = RUN("explain", path, "--size", "2x1", "--pin", "0,0=\xc3\xa9",
                     "--format", "json");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(has_tile(r.out, "\"\xc3\xa9\""), "%s", r.out);
  run_free(&r);
  r = RUN("explain", path, "--size", "2x1", "--pin", "0,0=a\"q", "--pin",
          "0,0=b\\s", "--format", "json");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(has_tile(r.out, "\"a\\\"q\""), "%s", r.out);
  /* the names' encoding doubles a backslash (src/io/README.md): b\\s */
  cr_expect(has_tile(r.out, "\"b\\\\\\\\s\""), "%s", r.out);
  run_free(&r);
  remove(path);
  free(path);
}

/* ----------------------------------------------------------------- errors */

Test(explain, help) {
  run_result r = RUN("explain", "--help");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "usage: tilesat explain RULES --size WxH"));
  cr_expect(strstr(r.out, "--format text|json"));
  cr_expect(strstr(r.out, "--pin ROW,COL=TILE"));
  run_free(&r);
  r = RUN("trace", "--help");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "--choose ROW,COL=TILE"));
  cr_expect(!strstr(r.out, "--backend"));
  run_free(&r);
  r = RUN("analyze", "--help");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "--max N"));
  run_free(&r);
  r = RUN("--help");
  cr_expect(strstr(r.out, "  explain  ") && strstr(r.out, "  trace    ") &&
            strstr(r.out, "  analyze  "));
  run_free(&r);
}

Test(explain, errors) {
  expect_cli_error("tilesat: --format: 'xml' is not text or json\n", "explain",
                   "rules/hard.rules", "--size", "3x1", "--format", "xml");
  expect_cli_error("tilesat: explain: missing --size WxH (or "
                   "--pins-from MAP, whose size it takes)\n",
                   "explain", "rules/hard.rules");
  expect_cli_error("tilesat: --pin: unknown tile 'X' (the tiles are 'K', 'B' "
                   "and 'S')\n",
                   "explain", "rules/hard.rules", "--size", "3x1", "--pin",
                   "0,0=X");
  expect_cli_error("tilesat: --backend: 'minisat' is not picosat, "
                   "cryptominisat, cadical or auto\n",
                   "explain", "rules/hard.rules", "--size", "3x1", "--backend",
                   "minisat");
  expect_cli_error(
      "tilesat: unknown option '--choose' for 'explain': it is an option of "
      "trace (see 'tilesat explain --help')\n",
      "explain", "rules/hard.rules", "--size", "3x1", "--choose", "0,0=K");
}

Test(explain, constraints_check_rejects_foreign_constraints) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/hard.rules", &err);
  tilesat_map *m = map_new(r, 3, 1, TILESAT_SQUARE, false);
  tilesat_constraint c = {TILESAT_ADJACENT, 0, 0, 0, -1, 0, -1, -1, -1};
  cr_expect_eq(
      tilesat_constraints_check(m, SOLVE(TILESAT_PICOSAT), &c, 1, &err), -1);
  cr_expect_str_eq(err.msg,
                   "constraint: (0,0) has no neighbour (-1,0) in direction 0");
  c = (tilesat_constraint){TILESAT_PINNED, 0, 0, -1, -1, -1, 0, 0, -1};
  cr_expect_eq(
      tilesat_constraints_check(m, SOLVE(TILESAT_PICOSAT), &c, 1, &err), -1);
  cr_expect_eq(tilesat_constraint_count(m), 5);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Hex and periodic maps: directions in words, pictures with odd rows
 * shifted, wrap-around pairs on the margin. */
static const char *hex_text =
    "UNSAT: no valid 4x4 map.\n"
    "These 8 constraints (of 51 in the map) cannot all hold, and dropping any "
    "one\n"
    "of them leaves a satisfiable set (checked):\n"
    "  [1] (0,0) is pinned to S\n"
    "  [2] (0,0) and its south-east neighbour (1,0) hold an allowed pair\n"
    "  [3] (1,0) and its east neighbour (1,1) hold an allowed pair\n"
    "  [4] (2,2) holds exactly one tile\n"
    "  [5] (2,2) and its north-west neighbour (1,1) hold an allowed pair\n"
    "  [6] (2,2) and its south-east neighbour (3,2) hold an allowed pair\n"
    "  [7] (3,3) is pinned to L\n"
    "  [8] (3,3) and its west neighbour (3,2) hold an allowed pair\n"
    "\n"
    "Why (propagation on these constraints alone; [n] the constraints used):\n"
    "  [1]     (0,0) is pinned to S\n"
    "  [7]     (3,3) is pinned to L\n"
    "  [2]     (1,0) must hold S: (0,0) holds S, and S allows only {S} to its "
    "south-east\n"
    "  [8]     (3,2) must hold one of {L, C}: (3,3) holds L, and L allows only "
    "{L, C} to its west\n"
    "  [3]     (1,1) must hold one of {C, S}: (1,0) holds S, and S allows only "
    "{C, S} to its east\n"
    "  [6]     (2,2) must hold L: (3,2) holds one of {L, C}, and L, C allow "
    "only {L} to their north-west\n"
    "  [4]     (2,2) loses {C, S}: it holds only one tile, and that must be L\n"
    "  [5]     (2,2) must hold S: (1,1) holds one of {C, S}, and C, S allow "
    "only {S} to their south-east\n"
    "          (2,2) must hold S, but that is ruled out: contradiction\n"
    "\n"
    "The map (# a cell that must hold one tile, P a pin, o a cell only in an\n"
    "adjacency, . not involved; hex rows, odd rows shifted right):\n"
    "  P . . .\n"
    "   o o . .\n"
    "  . . # .\n"
    "   . . o P\n";
static const char *periodic_text =
    "UNSAT: no valid 2x4 map.\n"
    "These 3 constraints (of 24 in the map) cannot all hold, and dropping any "
    "one\n"
    "of them leaves a satisfiable set (checked):\n"
    "  [1] (0,0) holds exactly one tile\n"
    "  [2] (0,0) and its east neighbour (0,1) hold an allowed pair\n"
    "  [3] (0,0) and its west neighbour (0,1) hold an allowed pair\n"
    "\n"
    "Why (propagation on these constraints alone; [n] the constraints used):\n"
    "  [2]     (0,1) loses {K, S}: K, S allow nothing to their west, where "
    "(0,0) is\n"
    "  [3]     (0,0) loses {K, B, S}: to their west they allow only {K, S}, "
    "and (0,1) has none of them left\n"
    "  [1]     (0,0) has no tile left, but it must hold one: contradiction\n"
    "\n"
    "The map (# a cell that must hold one tile, P a pin, o a cell only in an\n"
    "adjacency, . not involved; - and | adjacency constraints):\n"
    "  -#-o-\n"
    "\n"
    "   . .\n"
    "\n"
    "   . .\n"
    "\n"
    "   . .\n";

Test(explain, hex_and_periodic) {
  for (int b = 0; b < NBACKENDS; b++) {
    const char *be = tilesat_backend_name(backends[b]);
    run_result r = RUN("explain", "rules/coast-hex.rules", "--size", "4x4",
                       "--pin", "0,0=S", "--pin", "3,3=L", "--backend", be);
    cr_expect_eq(r.code, 20);
    cr_expect_str_eq(r.out, hex_text);
    run_free(&r);
    r = RUN("explain", "rules/hard.rules", "--size", "2x4", "--periodic",
            "--backend", be);
    cr_expect_eq(r.code, 20);
    cr_expect_str_eq(r.out, periodic_text);
    run_free(&r);
  }
}

/* More than 8 tiles: the one-tile constraint is a ladder with auxiliary
 * variables, and still one constraint to drop. */
Test(explain, ladder_encoding) {
  tilesat_rules *r =
      rules_from_sample("abc\ndef\nghi\n", TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_rules_ntiles(r), 9);
  int sizes[][2] = {{4, 3}, {3, 4}, {2, 2}};
  for (int s = 0; s < 3; s++)
    for (int b = 0; b < NBACKENDS; b++) {
      tilesat_map *m =
          map_new(r, sizes[s][0], sizes[s][1], TILESAT_SQUARE, false);
      tilesat_error err;
      if (s == 2)
        cr_assert_eq(tilesat_map_pin_spec(m, "1,1=a", &err), 0);
      tilesat_explanation *e = NULL;
      cr_assert_eq(tilesat_explain(m, SOLVE(backends[b]), &e, &err),
                   TILESAT_UNSAT, "%s", err.msg);
      expect_minimal(m, e, false);
      tilesat_explanation_free(e);
      tilesat_map_free(m);
    }
  tilesat_rules_free(r);
}

/* The side of a cell in a marked picture (tilesat_render_marked): tiles
 * of `side` pixels scaled by the least whole factor that reaches 16, more
 * while the map (`cols` cells) stays within 192 pixels and a cell within
 * 48. */
static int marked_cell(int side, int cols) {
  int s = (16 + side - 1) / side;
  while (cols * side * (s + 1) <= 192 && side * (s + 1) <= 48)
    s++;
  return side * s;
}

/* explain --png marks exactly the cells of the explanation so they stand
 * out: against the same picture drawn without highlights (tilesat_render,
 * 8x8 squares for names that are not colours), scaled to 48 pixels a cell
 * (16 at least), those cells keep their colours inside a red frame 6
 * pixels wide (1/8 of the cell), and every other cell is washed out two
 * thirds of the way to white (hard 3x3: a middle-column cell and its two
 * neighbours).  Below the map, the legend: a sample of each marking. */
Test(explain_png, frames_the_cells_involved) {
  char *a = temp_path(".png"), *b = temp_path(".png");
  run_result r =
      RUN("explain", "rules/hard.rules", "--size", "3x3", "--png", a);
  cr_assert_eq(r.code, 20, "%s", r.err);
  run_free(&r);
  tilesat_error err;
  tilesat_rules *rules = tilesat_rules_read_file("rules/hard.rules", &err);
  tilesat_map *m = map_new(rules, 3, 3, TILESAT_SQUARE, false);
  tilesat_explanation *e;
  cr_assert_eq(tilesat_explain(m, SOLVE(TILESAT_PICOSAT), &e, &err),
               TILESAT_UNSAT);
  const int *cells = explanation_info(e).cells;
  size_t n = explanation_info(e).ncells;
  bool involved[9] = {false};
  for (size_t i = 0; i < n; i++)
    involved[cells[i]] = true;
  cr_assert_eq(n, 3);
  uint64_t full[9];
  for (int c = 0; c < 9; c++)
    full[c] = 7; /* every tile possible in every cell */
  cr_assert_eq(tilesat_render_png(m, NULL, NULL, full, NULL, b, &err), 0, "%s",
               err.msg);
  int wa, ha, wb, hb;
  uint8_t *pa = decode_png(a, &wa, &ha), *pb = decode_png(b, &wb, &hb);
  cr_assert(wb == 24 && hb == 24, "%dx%d", wb, hb);
  int cs = marked_cell(8, 3), k = cs / 8, fw = cs / 8;
  cr_assert_eq(cs, 48);
  /* the map, then at least the legend's three rows (16 pixels each) */
  cr_assert(wa >= 3 * cs && ha >= 3 * cs + 3 * 16, "%dx%d", wa, ha);
  for (int y = 0; y < 3 * cs; y++)
    for (int x = 0; x < 3 * cs; x++) {
      int cell = (y / cs) * 3 + x / cs, dx = x % cs, dy = y % cs;
      bool frame = involved[cell] &&
                   (dy < fw || dy >= cs - fw || dx < fw || dx >= cs - fw);
      const uint8_t *got = pixel_at(pa, wa, x, y),
                    *plain = pixel_at(pb, wb, x / k, y / k);
      uint8_t want[4] = {255, 0, 0, 255};
      if (!involved[cell])
        for (int c = 0; c < 4; c++)
          want[c] = c < 3 ? (uint8_t)((plain[c] + 2 * 255 + 1) / 3) : plain[c];
      else if (!frame)
        memcpy(want, plain, 4);
      cr_expect(!memcmp(got, want, 4), "pixel (%d,%d)", x, y);
    }
  /* the legend: a framed sample cell (red, grey inside), a washed-out one,
   * each with its text in black to its right */
  int y0 = 3 * cs + 6, row = 16 + 6;
  cr_expect(pixel_is(pixel_at(pa, wa, 6, y0), "#ff0000"));
  cr_expect(pixel_is(pixel_at(pa, wa, 6 + 8, y0 + 8), "#c0c0c0"));
  cr_expect(pixel_is(pixel_at(pa, wa, 6 + 8, y0 + row + 8), "#eaeaea"));
  for (int i = 0; i < 3; i++) {
    int black = 0;
    for (int y = y0 + i * row; y < y0 + i * row + 16; y++)
      for (int x = 6 + 16; x < wa; x++)
        black += pixel_is(pixel_at(pa, wa, x, y), "#000000");
    cr_expect_gt(black, 20, "legend row %d has no text", i);
  }
  free(pa);
  free(pb);
  tilesat_explanation_free(e);
  tilesat_map_free(m);
  tilesat_rules_free(rules);
  remove(a);
  remove(b);
  free(a);
  free(b);
}

/* trace --png draws the emptied cell black in a magenta frame, the others
 * not, 48 pixels a cell (coast's 8x8 squares scaled). */
Test(trace_png, the_empty_cell_is_black) {
  char *a = temp_path(".png");
  run_result r = RUN("trace", "rules/coast.rules", "--size", "3x3", "--pin",
                     "0,0=S", "--pin", "2,2=L", "--png", a);
  cr_assert_eq(r.code, 20, "%s", r.err);
  run_free(&r);
  int w, h;
  uint8_t *px = decode_png(a, &w, &h);
  int cs = marked_cell(8, 3);
  cr_assert(w >= 3 * cs && h > 3 * cs);
  for (int c = 0; c < 9; c++) {
    int x0 = (c % 3) * cs, y0 = (c / 3) * cs;
    cr_expect_eq(pixel_is(pixel_at(px, w, x0 + cs / 2, y0 + cs / 2), "#000000"),
                 c == 4, "cell %d", c);
    cr_expect_eq(pixel_is(pixel_at(px, w, x0, y0), "#ff00ff"), c == 4,
                 "cell %d", c);
  }
  free(px);
  remove(a);
  free(a);
}

/* ------------------------------------ every, smallest, preferred (MARCO) */

/* Every constraint of a small map, listed from the test's own geometry
 * (brute_neighbor): cells, pins (in the order pinned), pairs. */
typedef struct cs_list {
  tilesat_constraint v[64];
  int n;
} cs_list;

typedef struct pin3 {
  int row, col, tile;
} pin3;

static void list_constraints(const tilesat_map *m, bool periodic,
                             const pin3 *pins, int npins, cs_list *a) {
  const tilesat_rules *r = map_info(m).rules;
  tilesat_topology topo = tilesat_rules_topology(r);
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height;
  int ndirs = topo == TILESAT_HEX ? 6 : 4;
  a->n = 0;
  for (int c = 0; c < W * H; c++)
    a->v[a->n++] = (tilesat_constraint){
        TILESAT_ONE_TILE, c / W, c % W, -1, -1, -1, -1, -1, -1};
  for (int p = 0; p < npins; p++)
    a->v[a->n++] = (tilesat_constraint){
        TILESAT_PINNED, pins[p].row, pins[p].col, -1, -1, -1, p,
        pins[p].tile,   -1};
  for (int c = 0; c < W * H; c++)
    for (int d = 0; d < ndirs; d++) {
      int nr, nc;
      if (!brute_neighbor(topo, W, H, periodic, c / W, c % W, d, &nr, &nc))
        continue;
      bool seen = false;
      for (int i = 0; i < a->n; i++)
        seen |= a->v[i].kind == TILESAT_ADJACENT && a->v[i].row == nr &&
                a->v[i].col == nc && a->v[i].dir == opposite(topo, d) &&
                a->v[i].nrow == c / W && a->v[i].ncol == c % W;
      if (!seen) {
        cr_assert_lt(a->n, 64);
        a->v[a->n++] = (tilesat_constraint){
            TILESAT_ADJACENT, c / W, c % W, d, nr, nc, -1, -1, -1};
      }
    }
  cr_assert_eq(a->n, tilesat_constraint_count(m), "the test lists %d", a->n);
}

/* The list's index of an explanation's constraint (a pair may be seen from
 * either side). */
static int cs_index(const cs_list *a, const tilesat_constraint *c,
                    tilesat_topology topo) {
  for (int i = 0; i < a->n; i++) {
    const tilesat_constraint *v = &a->v[i];
    if (v->kind != c->kind)
      continue;
    if (c->kind == TILESAT_PINNED ? v->pin == c->pin
        : c->kind == TILESAT_ONE_TILE
            ? v->row == c->row && v->col == c->col
            : (v->row == c->row && v->col == c->col && v->dir == c->dir) ||
                  (v->row == c->nrow && v->col == c->ncol &&
                   v->dir == opposite(topo, c->dir) && v->nrow == c->row &&
                   v->ncol == c->col))
      return i;
  }
  cr_assert_fail("a constraint not in the test's list");
  return -1;
}

static uint64_t mask_of(const cs_list *a, const tilesat_explanation *e,
                        tilesat_topology topo) {
  uint64_t mask = 0;
  for (size_t i = 0; i < explanation_info(e).size; i++)
    mask |= 1ull << cs_index(a, tilesat_explanation_constraint(e, i), topo);
  return mask;
}

/* The library's constraints check on the subset `mask` of the list. */
static int check_mask(const tilesat_map *m, const cs_list *a, uint64_t mask) {
  tilesat_constraint cs[64];
  size_t k = 0;
  for (int i = 0; i < a->n; i++)
    if (mask >> i & 1)
      cs[k++] = a->v[i];
  tilesat_error err;
  int res = tilesat_constraints_check(m, NULL, cs, k, &err);
  cr_assert(res == TILESAT_SAT || res == TILESAT_UNSAT, "%s", err.msg);
  return res;
}

/* The next subset of the same size (Gosper's hack). */
static uint64_t next_subset(uint64_t x) {
  uint64_t c = x & -x, r = x + c;
  return (((r ^ x) >> 2) / c) | r;
}

/* Can a subset be minimal?  It must be connected (cells joined through
 * its pairs: else a part alone is UNSAT), and hold a one-tile constraint
 * or a pin (else every cell empty satisfies it). */
static bool may_be_minimal(const cs_list *a, uint64_t s, int W) {
  int comp[64], ncells = 0, cells[64];
  bool anchor = false;
  for (int i = 0; i < 64; i++)
    comp[i] = -1;
  for (int i = 0; i < a->n; i++) {
    if (!(s >> i & 1))
      continue;
    const tilesat_constraint *c = &a->v[i];
    anchor |= c->kind != TILESAT_ADJACENT;
    int x = c->row * W + c->col;
    if (comp[x] < 0)
      comp[x] = x, cells[ncells++] = x;
  }
  for (int i = 0; i < a->n; i++)
    if ((s >> i & 1) && a->v[i].kind == TILESAT_ADJACENT) {
      int y = a->v[i].nrow * W + a->v[i].ncol;
      if (comp[y] < 0)
        comp[y] = y, cells[ncells++] = y;
    }
  /* join the ends of each pair until nothing changes */
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < a->n; i++) {
      if (!(s >> i & 1) || a->v[i].kind != TILESAT_ADJACENT)
        continue;
      int x = a->v[i].row * W + a->v[i].col,
          y = a->v[i].nrow * W + a->v[i].ncol;
      int lo = comp[x] < comp[y] ? comp[x] : comp[y];
      changed |= comp[x] != lo || comp[y] != lo;
      comp[x] = comp[y] = lo;
    }
  }
  for (int i = 1; i < ncells; i++)
    if (comp[cells[i]] != comp[cells[0]])
      return false;
  return anchor;
}

/* Every minimal UNSAT subset, by size: a subset that holds no smaller
 * one found and is UNSAT is minimal.  Sizes up to max_size (all: the
 * list's size); returns how many (at most 256). */
static int brute_muses(const tilesat_map *m, const cs_list *a, int max_size,
                       uint64_t *muses) {
  int found = 0;
  for (int k = 1; k <= max_size && k <= a->n; k++)
    for (uint64_t s = (1ull << k) - 1; s < 1ull << a->n; s = next_subset(s)) {
      bool covers = false;
      for (int i = 0; i < found && !covers; i++)
        covers = (s & muses[i]) == muses[i];
      if (!covers && may_be_minimal(a, s, map_info(m).width) &&
          check_mask(m, a, s) == TILESAT_UNSAT) {
        cr_assert_lt(found, 256);
        muses[found++] = s;
      }
    }
  return found;
}

/* The smallest UNSAT subset's size, by increasing size (the first found
 * is minimal); 0 if none. */
static int brute_smallest(const tilesat_map *m, const cs_list *a) {
  for (int k = 1; k <= a->n; k++)
    for (uint64_t s = (1ull << k) - 1; s < 1ull << a->n; s = next_subset(s))
      if (may_be_minimal(a, s, map_info(m).width) &&
          check_mask(m, a, s) == TILESAT_UNSAT)
        return k;
  return 0;
}

/* A random small case: rules from a random 3x3 sample of 5 tiles (sparse
 * rules), a map w x h, two or three pins on distinct cells: often UNSAT. */
static tilesat_map *small_random_case(unsigned *seed, int w, int h,
                                      tilesat_topology topo, tilesat_rules **r,
                                      pin3 *pins, int *npins) {
  char sample[16];
  int k = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      sample[k++] = (char)('a' + lcg(seed) % 5);
    sample[k++] = '\n';
  }
  sample[k] = 0;
  *r = rules_from_sample(sample, topo, false);
  tilesat_map *m = map_new(*r, w, h, topo, false);
  *npins = 0;
  for (int p = 2 + (int)(lcg(seed) % 2); p > 0; p--) {
    int row = (int)(lcg(seed) % (unsigned)h),
        col = (int)(lcg(seed) % (unsigned)w);
    char name[2] = {sample[lcg(seed) % 3 * 4 + lcg(seed) % 3], 0};
    bool taken = false;
    for (int i = 0; i < *npins; i++)
      taken |= pins[i].row == row && pins[i].col == col;
    if (taken)
      continue;
    tilesat_error err;
    cr_assert_eq(tilesat_map_pin(m, row, col, name, &err), 0, "%s", err.msg);
    pins[(*npins)++] = (pin3){row, col, tilesat_rules_find_tile(*r, name)};
  }
  return m;
}

static bool has_pin_at(const tilesat_explanation *e, int row, int col) {
  for (size_t i = 0; i < explanation_info(e).size; i++) {
    const tilesat_constraint *c = tilesat_explanation_constraint(e, i);
    if (c->kind == TILESAT_PINNED && c->row == row && c->col == col)
      return true;
  }
  return false;
}

/* Two pairs of clashing pins far apart: --all lists the clashes of both,
 * each explanation minimal, no two alike, smallest first. */
Test(explain_all, two_far_clashes_on_coast_both_listed) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, 24, 24, TILESAT_SQUARE, false);
  const char *pins[] = {"0,0=S", "0,1=L", "18,18=S", "18,19=L"};
  for (int p = 0; p < 4; p++)
    cr_assert_eq(tilesat_map_pin_spec(m, pins[p], &err), 0);
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_explanation **es = NULL;
    size_t n = 0;
    bool complete = true;
    cr_assert_eq(tilesat_explain_all(m, SOLVE(backends[b]), 10, &es, &n,
                                     &complete, &err),
                 TILESAT_UNSAT, "%s", err.msg);
    cr_expect_eq(n, 10, "%s", tilesat_backend_name(backends[b]));
    cr_expect(!complete, "the staircases from one clash to the other are "
                         "more explanations");
    bool first = false, second = false;
    for (size_t i = 0; i < n; i++) {
      first |= has_pin_at(es[i], 0, 0) && has_pin_at(es[i], 0, 1);
      second |= has_pin_at(es[i], 18, 18) && has_pin_at(es[i], 18, 19);
      if (i)
        cr_expect_leq(explanation_info(es[i - 1]).size,
                      explanation_info(es[i]).size, "not smallest first");
      if (explanation_info(es[i]).size <= 6)
        expect_minimal(m, es[i], false);
      for (size_t j = 0; j < i; j++) {
        bool same =
            explanation_info(es[i]).size == explanation_info(es[j]).size;
        for (size_t k = 0; same && k < explanation_info(es[i]).size; k++)
          same = !memcmp(tilesat_explanation_constraint(es[i], k),
                         tilesat_explanation_constraint(es[j], k),
                         sizeof(tilesat_constraint));
        cr_expect(!same, "explanations %zu and %zu are the same", j + 1, i + 1);
      }
    }
    cr_expect(first && second, "not both clashes (%s)",
              tilesat_backend_name(backends[b]));
    /* the smallest: 4 constraints, the two pins, their pair and one cell */
    cr_expect_eq(explanation_info(es[0]).size, 4);
    tilesat_explanations_free(es, n);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* On small random maps, --all with a high limit is every minimal
 * explanation there is: the brute-force set over all subsets, checked by
 * the library's constraints check (14 maps, 7 in the sanitizer pass). */
Test(explain_all, small_cases_equal_brute_force) {
  unsigned seed = 11;
  int unsat = 0, several = 0, rounds = test_cases(14);
  for (int round = 0; round < rounds; round++) {
    tilesat_topology topo = round % 5 == 4 ? TILESAT_HEX : TILESAT_SQUARE;
    int w = 2, h = round % 2 ? 3 : 2;
    tilesat_rules *r;
    pin3 pins[3];
    int npins;
    tilesat_map *m = small_random_case(&seed, w, h, topo, &r, pins, &npins);
    cs_list a;
    list_constraints(m, false, pins, npins, &a);
    uint64_t muses[256];
    int nb = brute_muses(m, &a, a.n, muses);
    tilesat_error err;
    for (int b = 0; b < NBACKENDS; b++) {
      tilesat_explanation **es = NULL;
      size_t n = 0;
      bool complete = false;
      int res = tilesat_explain_all(m, SOLVE(backends[b]), 1000, &es, &n,
                                    &complete, &err);
      cr_assert_eq(res, nb ? TILESAT_UNSAT : TILESAT_SAT, "%s", err.msg);
      cr_expect(complete);
      cr_expect_eq((int)n, nb, "round %d, %s: %zu explanations, brute force %d",
                   round, tilesat_backend_name(backends[b]), n, nb);
      for (size_t i = 0; i < n; i++) {
        uint64_t s = mask_of(&a, es[i], topo);
        bool known = false;
        for (int k = 0; k < nb; k++)
          known |= muses[k] == s;
        cr_expect(known,
                  "round %d: explanation %zu is not one of brute "
                  "force's",
                  round, i + 1);
        if (i)
          cr_expect_neq(s, mask_of(&a, es[i - 1], topo), "a repeat");
      }
      tilesat_explanations_free(es, n);
    }
    unsat += nb > 0;
    several += nb > 1;
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_geq(unsat, 3 * rounds / 7, "only %d UNSAT cases", unsat);
  cr_expect_geq(several, 2 * rounds / 7,
                "only %d cases with several explanations", several);
  cr_log_info("--all: %d UNSAT cases, %d with several explanations", unsat,
              several);
}

/* --smallest against brute force on random 2x2, 2x3 and 3x3 maps, and
 * cases where the plain explanation is minimal but not the smallest. */
Test(explain_smallest, matches_brute_force) {
  unsigned seed = 6;
  int unsat = 0, larger = 0;
  int sizes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}};
  for (int round = 0; round < 40; round++) {
    int w = sizes[round % 4][0], h = sizes[round % 4][1];
    tilesat_rules *r;
    pin3 pins[3];
    int npins;
    tilesat_map *m =
        small_random_case(&seed, w, h, TILESAT_SQUARE, &r, pins, &npins);
    cs_list a;
    list_constraints(m, false, pins, npins, &a);
    tilesat_error err;
    tilesat_explanation *plain = NULL;
    int res = tilesat_explain(m, NULL, &plain, &err);
    cr_assert(res == TILESAT_SAT || res == TILESAT_UNSAT, "%s", err.msg);
    if (res == TILESAT_UNSAT) {
      unsat++;
      int k = brute_smallest(m, &a);
      for (int b = 0; b < NBACKENDS; b++) {
        tilesat_explanation *e = NULL;
        cr_assert_eq(tilesat_explain_smallest(m, SOLVE(backends[b]), &e, &err),
                     TILESAT_UNSAT, "%s", err.msg);
        cr_expect_eq((int)explanation_info(e).size, k,
                     "round %d (%dx%d, %s): %zu, brute force %d", round, w, h,
                     tilesat_backend_name(backends[b]),
                     explanation_info(e).size, k);
        cr_expect_eq(check_mask(m, &a, mask_of(&a, e, TILESAT_SQUARE)),
                     TILESAT_UNSAT);
        tilesat_explanation_free(e);
      }
      larger += (int)explanation_info(plain).size > k;
    }
    tilesat_explanation_free(plain);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect_geq(unsat, 20, "only %d UNSAT cases", unsat);
  cr_expect_geq(larger, 1, "no case where the plain explanation is larger");
  cr_log_info("--smallest: %d UNSAT cases, the plain explanation larger in %d",
              unsat, larger);
}

static int count_of(const char *s, const char *what) {
  int n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
    n++;
  return n;
}

/* The command line's --all: as many explanations as brute force finds,
 * numbered, in text and JSON; --limit cuts them and says so. */
Test(explain_all, cli_counts_match_brute_force) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/hard.rules", &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, 3, 2, TILESAT_SQUARE, false);
  cs_list a;
  list_constraints(m, false, NULL, 0, &a);
  uint64_t muses[256];
  int nb = brute_muses(m, &a, a.n, muses);
  cr_assert_gt(nb, 2, "hard 3x2 has several explanations");
  char head[128];
  snprintf(head, sizeof head,
           "%d distinct minimal explanations, smallest first: all there "
           "are.\n",
           nb);
  run_result c = RUN("explain", "rules/hard.rules", "--size", "3x2", "--all",
                     "--limit", "1000");
  cr_expect_eq(c.code, 20);
  cr_expect(!strncmp(c.out, head, strlen(head)), "%s", c.out);
  cr_expect_eq(count_of(c.out, "=== Explanation "), nb);
  cr_expect_eq(count_of(c.out, "\nUNSAT: no valid 3x2 map.\n"), nb);
  run_free(&c);
  c = RUN("explain", "rules/hard.rules", "--size", "3x2", "--all", "--limit",
          "1000", "--format", "json");
  cr_expect_eq(c.code, 20);
  cJSON *doc = cJSON_Parse(c.out);
  cr_assert(doc != NULL, "%s", c.out);
  cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
  cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "explanations")),
               nb);
  cJSON_Delete(doc);
  run_free(&c);
  c = RUN("explain", "rules/hard.rules", "--size", "3x2", "--all", "--limit",
          "2");
  cr_expect_eq(c.code, 20);
  const char *cut = "2 distinct minimal explanations, smallest first: the "
                    "limit is reached, there may be more (--limit).\n";
  cr_expect(!strncmp(c.out, cut, strlen(cut)), "%s", c.out);
  cr_expect_eq(count_of(c.out, "=== Explanation "), 2);
  run_free(&c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* hard.rules 3x3 has no valid map by its rules alone (a middle cell and
 * its two pairs), and a pin of B in the corner clashes with its east pair
 * by itself: blaming pins first gives the pin, blaming rules and cells
 * first gives the rules' own reason. */
Test(explain_prefer, pins_before_rules) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/hard.rules", &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_pin_spec(m, "0,0=B", &err), 0);
  tilesat_blame pins_first[TILESAT_NBLAMES], rules_first[TILESAT_NBLAMES];
  cr_assert_eq(tilesat_blame_parse("pins", pins_first, &err), 0);
  cr_assert_eq(tilesat_blame_parse("rules,cells", rules_first, &err), 0);
  cr_expect_eq(pins_first[1], TILESAT_BLAME_CELLS, "the others follow");
  cr_expect_eq(rules_first[2], TILESAT_BLAME_PINS);
  int B = tilesat_rules_find_tile(r, "B");
  for (int b = 0; b < NBACKENDS; b++) {
    tilesat_explanation *e = NULL;
    cr_assert_eq(
        tilesat_explain_preferred(m, SOLVE(backends[b]), pins_first, &e, &err),
        TILESAT_UNSAT, "%s", err.msg);
    cr_expect(has(e, TILESAT_PINNED, 0, 0, -1, B), "the pin is not blamed");
    cr_expect_eq(explanation_info(e).size, 2, "the pin and its east pair");
    expect_minimal(m, e, true);
    tilesat_explanation_free(e);
    cr_assert_eq(
        tilesat_explain_preferred(m, SOLVE(backends[b]), rules_first, &e, &err),
        TILESAT_UNSAT, "%s", err.msg);
    cr_expect(!has(e, TILESAT_PINNED, 0, 0, -1, B), "the pin is blamed");
    expect_minimal(m, e, true);
    tilesat_explanation_free(e);
  }
  run_result c = RUN("explain", "rules/hard.rules", "--size", "3x3", "--pin",
                     "0,0=B", "--prefer", "pins,borders,rules");
  cr_expect_eq(c.code, 20);
  cr_expect(strstr(c.out, "These 2 constraints (of 22 in the map)"));
  cr_expect(strstr(c.out, "  [1] (0,0) is pinned to B\n"));
  run_free(&c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(explain_prefer, bad_options) {
  expect_cli_error("tilesat: --prefer: 'foo' is not a group of constraints "
                   "(pins, cells, rules, borders, counts, connected, paths)\n",
                   "explain", "rules/hard.rules", "--size", "3x3", "--prefer",
                   "pins,foo");
  expect_cli_error("tilesat: --prefer: 'pins' is named twice\n", "explain",
                   "rules/hard.rules", "--size", "3x3", "--prefer",
                   "pins,rules,pins");
  expect_cli_error("tilesat: explain: --all, --smallest and --prefer are "
                   "three ways to explain; give one\n",
                   "explain", "rules/hard.rules", "--size", "3x3", "--all",
                   "--smallest");
  expect_cli_error("tilesat: explain: --limit goes with --all\n", "explain",
                   "rules/hard.rules", "--size", "3x3", "--limit", "3");
}
