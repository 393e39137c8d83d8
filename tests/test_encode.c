/* The CNF as other tools see it: DIMACS with named variables, the
 * reference instances in cnf/, and the readable propositions. */
#include "helpers.h"

#include <picosat/picosat.h>
#include <stdlib.h>
#include <string.h>

/* A DIMACS file read by this test alone: clauses, and which variables are
 * tile variables (from the "c var" comments). */
typedef struct dimacs {
  int nvars, nclauses, ntilevars;
  int *lits; /* clauses, each ended by 0 */
  size_t nlits;
} dimacs;

static dimacs read_dimacs(const char *text) {
  dimacs d = {0};
  size_t cap = 1024;
  d.lits = malloc(cap * sizeof *d.lits);
  const char *p = text;
  int clauses = 0;
  while (*p) {
    const char *eol = strchr(p, '\n');
    cr_assert(eol, "unterminated line");
    if (!strncmp(p, "c var ", 6) && p[6] >= '0' && p[6] <= '9') {
      d.ntilevars++;
    } else if (!strncmp(p, "p cnf ", 6)) {
      cr_assert_eq(sscanf(p, "p cnf %d %d", &d.nvars, &d.nclauses), 2);
    } else if (*p != 'c') {
      char *end;
      for (;;) {
        long l = strtol(p, &end, 10);
        cr_assert(end != p, "bad clause line");
        if (d.nlits == cap)
          d.lits = realloc(d.lits, (cap *= 2) * sizeof *d.lits);
        d.lits[d.nlits++] = (int)l;
        cr_assert(labs(l) <= d.nvars, "literal out of range");
        p = end;
        if (l == 0)
          break;
      }
      clauses++;
    }
    p = eol + 1;
  }
  cr_expect_eq(clauses, d.nclauses, "p line says %d clauses, file has %d",
               d.nclauses, clauses);
  return d;
}

/* Count models projected on the tile variables with PicoSAT directly. */
static long count_dimacs(const dimacs *d) {
  PicoSAT *ps = picosat_init();
  for (size_t i = 0; i < d->nlits; i++)
    picosat_add(ps, d->lits[i]);
  long n = 0;
  int *block = malloc((size_t)d->ntilevars * sizeof *block);
  while (picosat_sat(ps, -1) == PICOSAT_SATISFIABLE) {
    n++;
    int k = 0; /* copy the model out before adding: picosat_add resets it */
    for (int v = 1; v <= d->ntilevars; v++)
      if (picosat_deref(ps, v) > 0)
        block[k++] = -v;
    for (int i = 0; i < k; i++)
      picosat_add(ps, block[i]);
    picosat_add(ps, 0);
  }
  free(block);
  picosat_reset(ps);
  return n;
}

static const struct {
  const char *file, *rules, *size, *extra;
  long maps;
} references[] = {
    {"cnf/coast-1x2.cnf", "rules/coast.rules", "1x2", NULL, 4},
    {"cnf/coast-3x3.cnf", "rules/coast.rules", "3x3", NULL, 35},
    {"cnf/coast-3x3-pin.cnf", "rules/coast.rules", "3x3", "--pin=2,2=L", 5},
    {"cnf/hard-2x2.cnf", "rules/hard.rules", "2x2", NULL, 1},
    {"cnf/hard-3x3.cnf", "rules/hard.rules", "3x3", NULL, 0},
    {"cnf/coast-hex-3x4.cnf", "rules/coast-hex.rules", "3x4", NULL, -1},
    {"cnf/coast-12x12-periodic.cnf", "rules/coast.rules", "12x12", "--periodic",
     -1},
};

/* The committed instances are what the encoder writes today (regenerate
 * with `make cnf` after a deliberate change), and an external solver reading
 * them finds the known number of maps. */
Test(cnf_reference, match_the_encoder_and_count_right) {
  for (size_t i = 0; i < sizeof references / sizeof references[0]; i++) {
    run_result r =
        references[i].extra
            ? RUN("encode", references[i].rules, "--size", references[i].size,
                  references[i].extra)
            : RUN("encode", references[i].rules, "--size", references[i].size);
    cr_assert_eq(r.code, 0, "%s", r.err);
    char *committed = slurp(references[i].file);
    cr_expect_str_eq(r.out, committed,
                     "%s differs from the encoder's output: run make cnf",
                     references[i].file);
    dimacs d = read_dimacs(committed);
    long n = count_dimacs(&d);
    if (references[i].maps >= 0) {
      cr_expect_eq(n, references[i].maps, "%s: %ld maps", references[i].file,
                   n);
    } else { /* cross-check with brute force (hex) or the frontier DP */
      tilesat_error err;
      tilesat_rules *rules = tilesat_rules_read_file(references[i].rules, &err);
      cr_assert(rules, "%s", err.msg);
      bool periodic = references[i].extra != NULL;
      int w, h;
      tilesat_parse_size(references[i].size, &w, &h, &err);
      long want;
      if (periodic) {
        tilesat_map *m = map_new(rules, w, h, TILESAT_SQUARE, true);
        tilesat_count_options o;
        tilesat_count_options_init(&o);
        o.method = TILESAT_METHOD_DP;
        tilesat_count_result res;
        cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
        want = strtol(res.count, NULL, 10);
        tilesat_count_result_free(&res);
        tilesat_map_free(m);
      } else {
        want = brute_count(rules, w, h, tilesat_rules_topology(rules), false,
                           NULL, 0);
      }
      cr_expect_eq(n, want, "%s: %ld maps, expected %ld", references[i].file, n,
                   want);
      cr_expect_gt(n, 0);
      tilesat_rules_free(rules);
    }
    free(d.lits);
    free(committed);
    run_free(&r);
  }
}

Test(dimacs, names_every_variable) {
  run_result r =
      RUN("encode", "rules/coast.rules", "--size", "2x3", "--pin", "1,0=C");
  cr_assert_eq(r.code, 0);
  cr_expect(strstr(r.out, "c tilesat map 2x3 topology square periodic no\n"));
  cr_expect(strstr(r.out, "c tiles 3: L C S\n"));
  cr_expect(strstr(r.out, "c pins 1: 1,0=C\n"));
  cr_expect(strstr(r.out, "c var 1 0 0 L\n"));
  cr_expect(strstr(r.out, "c var 8 1 0 C\n"));
  cr_expect(strstr(r.out, "c var 18 2 1 S\n"));
  cr_expect(strstr(r.out, "\n8 0\n"), "the pin is a unit clause");
  dimacs d = read_dimacs(r.out);
  cr_expect_eq(d.ntilevars, 18);
  cr_expect_eq(d.nvars, 18);
  free(d.lits);
  run_free(&r);
}

Test(dimacs, many_tiles_use_determined_auxiliaries) {
  /* 12 tiles: ladder at-most-one; models must equal maps (12^1 for 1x1) */
  char text[1024] = "tilesat-rules 1\n";
  for (int t = 0; t < 12; t++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "tile t%d\n", t);
  char *path = temp_file(text, -1);
  run_result r = RUN("encode", path, "--size", "1x1");
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "c aux 13..23: at-most-one ladder"));
  dimacs d = read_dimacs(r.out);
  cr_expect_eq(d.nvars, 23);
  PicoSAT *ps = picosat_init();
  for (size_t i = 0; i < d.nlits; i++)
    picosat_add(ps, d.lits[i]);
  long models = 0; /* over all variables, auxiliaries included */
  int block[23];
  while (picosat_sat(ps, -1) == PICOSAT_SATISFIABLE) {
    models++;
    /* copy the model out first: picosat_add resets it */
    for (int v = 1; v <= d.nvars; v++)
      block[v - 1] = picosat_deref(ps, v) > 0 ? -v : v;
    for (int v = 1; v <= d.nvars; v++)
      picosat_add(ps, block[v - 1]);
    picosat_add(ps, 0);
  }
  cr_expect_eq(models, 12);
  picosat_reset(ps);
  free(d.lits);
  run_free(&r);
  remove(path);
  free(path);
}

Test(props, coast_1x2_in_the_seed_notation) {
  run_result r =
      RUN("encode", "rules/coast.rules", "--size", "1x2", "--format", "props");
  cr_assert_eq(r.code, 0);
  cr_expect_str_eq(r.out,
                   "# tilesat propositions: 1x2 square map, 3 tiles\n"
                   "# T_r_c: tile T stands at row r, column c.  ~ not, & and, "
                   "| or, -> implies\n"
                   "\n# (0,0) holds exactly one tile\n"
                   "L_0_0 | C_0_0 | S_0_0\n"
                   "~(L_0_0 & C_0_0)\n~(L_0_0 & S_0_0)\n~(C_0_0 & S_0_0)\n"
                   "\n# (0,0) and its S neighbour (1,0) hold an allowed pair\n"
                   "L_0_0 -> L_1_0 | C_1_0\n"
                   "C_0_0 -> S_1_0\n"
                   "S_0_0 -> S_1_0\n"
                   "\n# (1,0) holds exactly one tile\n"
                   "L_1_0 | C_1_0 | S_1_0\n"
                   "~(L_1_0 & C_1_0)\n~(L_1_0 & S_1_0)\n~(C_1_0 & S_1_0)\n"
                   "\n# (0,0) and its S neighbour (1,0) hold an allowed pair\n"
                   "L_1_0 -> L_0_0\n"
                   "C_1_0 -> L_0_0\n"
                   "S_1_0 -> C_0_0 | S_0_0\n");
  run_free(&r);
}

Test(props, indices_past_nine_stay_unambiguous) {
  run_result r =
      RUN("encode", "rules/coast.rules", "--size", "12x1", "--format", "props");
  cr_assert_eq(r.code, 0);
  cr_expect(strstr(r.out, "L_0_11 | C_0_11 | S_0_11\n"));
  cr_expect(strstr(r.out, "C_0_10 -> L_0_11 | C_0_11 | S_0_11\n") == NULL,
            "C allows every tile east: no clause needed");
  cr_expect(strstr(r.out, "S_0_10 -> C_0_11 | S_0_11\n"));
  run_free(&r);
}
