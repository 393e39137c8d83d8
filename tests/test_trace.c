/* trace: WFC propagation with reasons.  Exact outputs, and two
 * cross-checks: propagation removes exactly what unit propagation on the
 * CNF (an implementation written here, reading the DIMACS text) makes
 * false, and never a tile that some valid map uses. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

Test(trace, coast_pins_chain_from_both_pins_to_the_empty_cell) {
  run_result r = RUN("trace", "rules/coast.rules", "--size", "3x3", "--pin",
                     "0,0=S", "--pin", "2,2=L");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(
      r.out,
      "contradiction: the steps that lead to it:\n"
      "   1. (0,0) is pinned to S, so it loses {L, C}\n"
      "   2. (2,2) is pinned to L, so it loses {C, S}\n"
      "   3. (0,1) loses {L}: (0,0) holds only {S}, and S allows only {C, S} "
      "to its east\n"
      "   4. (1,2) loses {C, S}: (2,2) holds only {L}, and L allows only {L} "
      "to its north\n"
      "   5. (1,1) loses {L, C}: (0,1) holds only {C, S}, and C, S allow "
      "only {S} to their south\n"
      "   6. (1,1) loses {S}: (1,2) holds only {L}, and L allows only {L, C} "
      "to its west\n"
      "   7. (1,1) has no tile left, but it must hold one: contradiction\n");
  cr_expect_str_eq(r.err, "");
  run_free(&r);
  r = RUN("trace", "rules/coast.rules", "--size", "3x3", "--pin", "0,0=S",
          "--pin", "2,2=L", "--format", "json");
  cr_expect_eq(r.code, 20);
  expect_json_eq(
      r.out,
      "{\n  \"result\": \"contradiction\",\n  \"steps\": [\n"
      "    {\"step\": 1, \"kind\": \"pin\", \"cell\": [0, 0], \"tile\": \"S\", "
      "\"loses\": [\"L\", \"C\"], \"after\": []},\n"
      "    {\"step\": 2, \"kind\": \"pin\", \"cell\": [2, 2], \"tile\": \"L\", "
      "\"loses\": [\"C\", \"S\"], \"after\": []},\n"
      "    {\"step\": 3, \"kind\": \"support\", \"cell\": [0, 1], \"loses\": "
      "[\"L\"], \"neighbor\": [0, 0], \"neighbor_holds\": [\"S\"], "
      "\"direction_from_neighbor\": \"E\", \"after\": [1]},\n"
      "    {\"step\": 4, \"kind\": \"support\", \"cell\": [1, 2], \"loses\": "
      "[\"C\", \"S\"], \"neighbor\": [2, 2], \"neighbor_holds\": [\"L\"], "
      "\"direction_from_neighbor\": \"N\", \"after\": [2]},\n"
      "    {\"step\": 5, \"kind\": \"support\", \"cell\": [1, 1], \"loses\": "
      "[\"L\", \"C\"], \"neighbor\": [0, 1], \"neighbor_holds\": [\"C\", "
      "\"S\"], \"direction_from_neighbor\": \"S\", \"after\": [3]},\n"
      "    {\"step\": 6, \"kind\": \"support\", \"cell\": [1, 1], \"loses\": "
      "[\"S\"], \"neighbor\": [1, 2], \"neighbor_holds\": [\"L\"], "
      "\"direction_from_neighbor\": \"W\", \"after\": [4]},\n"
      "    {\"step\": 7, \"kind\": \"empty\", \"cell\": [1, 1], \"after\": [5, "
      "6]}\n  ]\n}\n");
  run_free(&r);
}

/* The same chain as data (tilesat_trace_steps): kinds, cells, tile sets
 * as indices of coast's tiles (L 0, C 1, S 2), and what each follows
 * from. */
Test(trace, coast_pins_chain_as_steps) {
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  tilesat_error err;
  cr_assert_eq(tilesat_map_pin_spec(m, "0,0=S", &err), 0);
  cr_assert_eq(tilesat_map_pin_spec(m, "2,2=L", &err), 0);
  tilesat_trace *t = tilesat_trace_new(m);
  cr_expect_eq(tilesat_trace_map(t), m);
  tilesat_steps *s = tilesat_trace_steps(t);
  cr_assert_eq(tilesat_steps_count(s), 7);
  cr_expect(tilesat_steps_contradiction(s));
  const tilesat_step *p = tilesat_steps_get(s, 0);
  cr_expect_eq(p->kind, TILESAT_STEP_PIN);
  cr_expect(p->row == 0 && p->col == 0 && p->tile == 2 && p->choice == 0);
  cr_expect(p->ntiles == 2 && p->tiles[0] == 0 && p->tiles[1] == 1);
  cr_expect_eq(p->nafter, 0);
  const tilesat_step *u = tilesat_steps_get(s, 4); /* (1,1) loses L, C */
  cr_expect_eq(u->kind, TILESAT_STEP_SUPPORT);
  cr_expect(u->row == 1 && u->col == 1 && u->nrow == 0 && u->ncol == 1);
  cr_expect_str_eq(tilesat_dir_name(TILESAT_SQUARE, u->dir), "S");
  cr_expect(u->ntiles == 2 && u->tiles[0] == 0 && u->tiles[1] == 1);
  cr_expect(u->nfrom == 2 && u->from[0] == 1 && u->from[1] == 2);
  cr_expect(u->nafter == 1 && u->after[0] == 3);
  const tilesat_step *e = tilesat_steps_get(s, 6);
  cr_expect_eq(e->kind, TILESAT_STEP_EMPTY);
  cr_expect(e->row == 1 && e->col == 1 && e->ntiles == 0 && e->tile == -1);
  cr_expect(e->nafter == 2 && e->after[0] == 5 && e->after[1] == 6);
  tilesat_steps_free(s);
  tilesat_trace_free(t);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(trace, a_choice_that_is_ruled_out) {
  run_result r = RUN("trace", "rules/coast.rules", "--size", "3x3", "--pin",
                     "2,2=L", "--choose", "0,0=S");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(
      r.out,
      "contradiction: the steps that lead to it:\n"
      "   1. (2,2) is pinned to L, so it loses {C, S}\n"
      "   2. (1,2) loses {C, S}: (2,2) holds only {L}, and L allows only {L} "
      "to its north\n"
      "   3. (0,2) loses {C, S}: (1,2) holds only {L}, and L allows only {L} "
      "to its north\n"
      "   4. (1,1) loses {S}: (1,2) holds only {L}, and L allows only {L, C} "
      "to its west\n"
      "   5. (0,1) loses {S}: (0,2) holds only {L}, and L allows only {L, C} "
      "to its west\n"
      "   6. (0,1) loses {C}: (1,1) holds only {L}, and L allows only {L} to "
      "its north\n"
      "   7. (0,0) loses {S}: (0,1) holds only {L}, and L allows only {L, C} "
      "to its west\n"
      "   8. (0,0) was chosen to be S (choice 1), which is ruled out: "
      "contradiction\n");
  run_free(&r);
  /* the start alone: hard has no middle column */
  r = RUN("trace", "rules/hard.rules", "--size", "3x3");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(r.out,
                   "contradiction: the steps that lead to it:\n"
                   "   1. (0,1) loses {K, S}: K, S allow nothing to their "
                   "west, where (0,0) is\n"
                   "   2. (0,2) loses {K, B, S}: (0,1) holds only {B}, and B "
                   "allows nothing to its east\n"
                   "   3. (0,2) has no tile left, but it must hold one: "
                   "contradiction\n");
  run_free(&r);
}

Test(trace, every_step_then_the_domains) {
  run_result r = RUN("trace", "rules/coast.rules", "--size", "2x2", "--choose",
                     "0,0=L", "--choose", "1,1=S");
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(
      r.out,
      "propagation steps:\n"
      "   1. (0,0) is chosen to be L (choice 1), so it loses {C, S}\n"
      "   2. (0,1) loses {S}: (0,0) holds only {L}, and L allows only {L, C} "
      "to its east\n"
      "   3. (1,0) loses {S}: (0,0) holds only {L}, and L allows only {L, C} "
      "to its south\n"
      "   4. (1,1) is chosen to be S (choice 2), so it loses {L, C}\n"
      "   5. (0,1) loses {L}: (1,1) holds only {S}, and S allows only {C, S} "
      "to its north\n"
      "   6. (1,0) loses {L}: (1,1) holds only {S}, and S allows only {C, S} "
      "to its west\n"
      "\n"
      "domains (4 of 4 cells decided):\n"
      "L C\n"
      "C S\n");
  run_free(&r);
  r = RUN("trace", "rules/coast.rules", "--size", "3x2");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.out, "propagation steps:\n"
                          "  (none)\n"
                          "\n"
                          "domains (0 of 6 cells decided):\n"
                          "{L,C,S} {L,C,S} {L,C,S}\n"
                          "{L,C,S} {L,C,S} {L,C,S}\n");
  run_free(&r);
  r = RUN("trace", "rules/coast.rules", "--size", "2x1", "--choose", "0,0=S",
          "--format", "json");
  cr_expect_eq(r.code, 0);
  expect_json_eq(r.out,
                 "{\n  \"result\": \"undecided\",\n  \"steps\": [\n"
                 "    {\"step\": 1, \"kind\": \"choice\", \"cell\": [0, 0], "
                 "\"tile\": \"S\", \"choice\": 1, \"loses\": [\"L\", "
                 "\"C\"], \"after\": []},\n"
                 "    {\"step\": 2, \"kind\": \"support\", \"cell\": [0, 1], "
                 "\"loses\": [\"L\"], \"neighbor\": [0, 0], "
                 "\"neighbor_holds\": [\"S\"], \"direction_from_neighbor\": "
                 "\"E\", \"after\": [1]}\n  ],\n"
                 "  \"domains\": [\n    [[\"S\"], [\"C\", \"S\"]]\n  ]\n}\n");
  run_free(&r);
}

/* ------------------------------------------------ unit propagation on CNF */

typedef struct cnf {
  int nvars;
  int *lits; /* clauses, each ended by 0 */
  size_t nlits;
} cnf;

static cnf read_dimacs(const tilesat_map *m) {
  FILE *f = tmpfile();
  cr_assert(f);
  cr_assert_eq(tilesat_encode_dimacs(m, f), 0);
  rewind(f);
  cnf c = {0};
  size_t cap = 1024;
  c.lits = malloc(cap * sizeof *c.lits);
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == 'c')
      continue;
    if (line[0] == 'p') {
      cr_assert_eq(sscanf(line, "p cnf %d", &c.nvars), 1);
      continue;
    }
    char *p = line, *end;
    for (long v = strtol(p, &end, 10); end != p; v = strtol(p, &end, 10)) {
      if (c.nlits == cap)
        c.lits = realloc(c.lits, (cap *= 2) * sizeof *c.lits);
      c.lits[c.nlits++] = (int)v;
      p = end;
    }
  }
  fclose(f);
  return c;
}

/* Unit propagation to a fixpoint: val[v] = 1 true, -1 false, 0 open.
 * Returns false on a conflict. */
static bool unit_propagate(const cnf *c, const int *units, int nunits,
                           int *val) {
  memset(val, 0, ((size_t)c->nvars + 1) * sizeof *val);
  for (int i = 0; i < nunits; i++) {
    int l = units[i], v = abs(l);
    if (val[v] == (l > 0 ? -1 : 1))
      return false;
    val[v] = l > 0 ? 1 : -1;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < c->nlits; i++) {
      int open = 0, last = 0;
      bool sat = false;
      for (; c->lits[i]; i++) {
        int l = c->lits[i], x = val[abs(l)] * (l > 0 ? 1 : -1);
        if (x > 0)
          sat = true;
        else if (x == 0) {
          open++;
          last = l;
        }
      }
      if (sat)
        continue;
      if (open == 0)
        return false;
      if (open == 1) {
        val[abs(last)] = last > 0 ? 1 : -1;
        changed = true;
      }
    }
  }
  return true;
}

static unsigned lcg(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

typedef struct seen {
  int ncells;
  unsigned char *used; /* cell * ntiles + tile */
  int ntiles;
} seen;

static int mark(void *user, const int *tiles) {
  seen *s = user;
  for (int c = 0; c < s->ncells; c++)
    s->used[c * s->ntiles + tiles[c]] = 1;
  return 0;
}

/* Random rule sets, sizes, topologies, pins and choices: the domains left
 * equal unit propagation on the CNF, and keep every tile a valid map uses. */
/* The same with more than 8 tiles (the ladder at-most-one encoding). */
Test(trace, propagation_is_unit_propagation_with_the_ladder) {
  tilesat_rules *r =
      rules_from_sample("abcd\nefgh\nijkl\nmnop\n", TILESAT_SQUARE, true);
  const char *pins[][2] = {
      {"0,0=a", NULL}, {"1,1=f", "2,3=a"}, {"3,3=p", NULL}};
  for (int k = 0; k < 3; k++) {
    tilesat_map *m = map_new(r, 4, 4, TILESAT_SQUARE, false);
    tilesat_error err;
    for (int i = 0; i < 2 && pins[k][i]; i++)
      cr_assert_eq(tilesat_map_pin_spec(m, pins[k][i], &err), 0);
    tilesat_trace *t = tilesat_trace_new(m);
    cnf c = read_dimacs(m);
    int *val = calloc((size_t)c.nvars + 1, sizeof *val);
    bool ok = unit_propagate(&c, NULL, 0, val);
    cr_expect_eq(!ok, tilesat_trace_status(t) == TILESAT_UNSAT, "case %d", k);
    for (int cell = 0; ok && cell < 16; cell++)
      for (int tile = 0; tile < 16; tile++)
        cr_expect_eq(val[cell * 16 + tile + 1] >= 0,
                     tilesat_trace_possible(t, cell / 4, cell % 4, tile),
                     "case %d: (%d,%d) tile %d", k, cell / 4, cell % 4, tile);
    free(val);
    free(c.lits);
    tilesat_trace_free(t);
    tilesat_map_free(m);
  }
  tilesat_rules_free(r);
}

Test(trace, propagation_is_unit_propagation_and_keeps_every_valid_map) {
  unsigned seed = 11;
  int contradictions = 0, open = 0;
  for (int round = 0; round < 60; round++) {
    char sample[32];
    int k = 0, T = 3 + round % 2;
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++)
        sample[k++] = (char)('a' + lcg(&seed) % (unsigned)T);
      sample[k++] = '\n';
    }
    sample[k] = 0;
    tilesat_topology topo = round % 3 == 2 ? TILESAT_HEX : TILESAT_SQUARE;
    bool periodic = round % 4 == 3;
    tilesat_rules *r = rules_from_sample(sample, topo, round % 5 == 0);
    int ntiles = tilesat_rules_ntiles(r);
    int w = 2 + (int)(lcg(&seed) % 2), h = 2 + (int)(lcg(&seed) % 2);
    if (periodic && topo == TILESAT_HEX)
      h = 2;
    tilesat_map *m = map_new(r, w, h, topo, periodic);
    /* pins go into the map; choices are pins too for unit propagation */
    tilesat_map *all = map_new(r, w, h, topo, periodic);
    int npins = (int)(lcg(&seed) % 2), nchoices = (int)(lcg(&seed) % 3);
    int pick[8][3];
    for (int i = 0; i < npins + nchoices; i++) {
      pick[i][0] = (int)(lcg(&seed) % (unsigned)h);
      pick[i][1] = (int)(lcg(&seed) % (unsigned)w);
      pick[i][2] = (int)(lcg(&seed) % (unsigned)ntiles);
      const char *name = tilesat_rules_tile_name(r, pick[i][2]);
      tilesat_error err;
      if (i < npins)
        cr_assert_eq(tilesat_map_pin(m, pick[i][0], pick[i][1], name, &err), 0);
      cr_assert_eq(tilesat_map_pin(all, pick[i][0], pick[i][1], name, &err), 0);
    }
    tilesat_trace *t = tilesat_trace_new(m);
    for (int i = npins; i < npins + nchoices; i++)
      tilesat_trace_choose(t, pick[i][0], pick[i][1], pick[i][2]);
    cnf c = read_dimacs(all);
    int *val = calloc((size_t)c.nvars + 1, sizeof *val);
    bool ok = unit_propagate(&c, NULL, 0, val);
    int status = tilesat_trace_status(t);
    cr_expect_eq(!ok, status == TILESAT_UNSAT,
                 "round %d: unit propagation %s, trace %d", round,
                 ok ? "open" : "conflict", status);
    if (ok && status != TILESAT_UNSAT) {
      open++;
      for (int cell = 0; cell < w * h; cell++)
        for (int tile = 0; tile < ntiles; tile++)
          cr_expect_eq(val[cell * ntiles + tile + 1] >= 0,
                       tilesat_trace_possible(t, cell / w, cell % w, tile),
                       "round %d: (%d,%d) tile %d", round, cell / w, cell % w,
                       tile);
      /* every tile some valid map uses is still possible */
      seen s = {w * h, calloc((size_t)(w * h * ntiles), 1), ntiles};
      tilesat_error err;
      cr_assert(tilesat_enumerate(all, SOLVE(backends[round % NBACKENDS]), 2000,
                                  mark, &s, &err) >= 0);
      for (int cell = 0; cell < w * h; cell++)
        for (int tile = 0; tile < ntiles; tile++)
          if (s.used[cell * ntiles + tile])
            cr_expect(tilesat_trace_possible(t, cell / w, cell % w, tile),
                      "round %d: a valid map has tile %d at (%d,%d)", round,
                      tile, cell / w, cell % w);
      free(s.used);
    } else {
      contradictions++;
      /* a contradiction found by propagation: no valid map either */
      tilesat_error err;
      if (status == TILESAT_UNSAT)
        cr_expect_eq(
            tilesat_check(all, SOLVE(backends[round % NBACKENDS]), NULL, &err),
            TILESAT_UNSAT);
    }
    free(val);
    free(c.lits);
    tilesat_trace_free(t);
    tilesat_map_free(all);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect(contradictions >= 5 && open >= 20, "%d contradictions, %d open",
            contradictions, open);
}

/* ----------------------------------------------------------------- errors */

Test(trace, errors) {
  expect_cli_error("tilesat: --choose: '1;1=L' is not ROW,COL=TILE\n", "trace",
                   "rules/coast.rules", "--size", "3x3", "--choose", "1;1=L");
  expect_cli_error("tilesat: --choose: '1,1=' is not ROW,COL=TILE\n", "trace",
                   "rules/coast.rules", "--size", "3x3", "--choose", "1,1=");
  expect_cli_error("tilesat: --choose: cell (3,0) is outside the 3x3 map: a "
                   "cell is ROW,COL, rows 0-2 and columns 0-2\n",
                   "trace", "rules/coast.rules", "--size", "3x3", "--choose",
                   "0,0=L", "--choose", "3,0=L");
  expect_cli_error("tilesat: --choose: unknown tile 'X' (the tiles are 'L', "
                   "'C' and 'S')\n",
                   "trace", "rules/coast.rules", "--size", "3x3", "--choose",
                   "0,0=X");
  expect_cli_error("tilesat: --format: 'yaml' is not text or json\n", "trace",
                   "rules/coast.rules", "--size", "3x3", "--format", "yaml");
  expect_cli_error("tilesat: --pin: cell (0,9) is outside the 3x3 map: a cell "
                   "is ROW,COL, rows 0-2 and columns 0-2\n",
                   "trace", "rules/coast.rules", "--size", "3x3", "--pin",
                   "0,9=L");
  expect_cli_error("tilesat: option '--choose' needs a value (ROW,COL=TILE)\n",
                   "trace", "rules/coast.rules", "--size", "3x3", "--choose");
}
