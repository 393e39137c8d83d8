/* collapse's reports: --explain in JSON says what the library finds, its
 * propagation chain starts from the doomed set and ends in an empty cell,
 * --png frames exactly the doomed cells and the contradiction; -n
 * --explain counts the tiles of the doomed sets as the library's runs do;
 * a rule set where WFC fails often (Castle 24x24) reports its rate and the
 * guard makes 200 maps of 200. */
#include "helpers.h"
#include "png_helpers.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static int num(const cJSON *o, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  cr_assert(cJSON_IsNumber(j), "no number '%s'", key);
  return j->valueint;
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  cr_assert(cJSON_IsString(j), "no string '%s'", key);
  return j->valuestring;
}

/* A JSON choice is the library's choice i. */
static void expect_choice(const cJSON *j, const tilesat_collapse *c,
                          const tilesat_rules *r, size_t i) {
  int cell, tile;
  tilesat_collapse_choices(c, i, &cell, &tile);
  cr_expect_eq(num(j, "step"), (int)i + 1);
  cr_expect_eq(num(j, "row"), cell / 16);
  cr_expect_eq(num(j, "col"), cell % 16);
  cr_expect_str_eq(str(j, "tile"), tilesat_rules_tile_name(r, tile));
}

/* Castle 16x16, the first three failed seeds: the JSON document and the
 * picture against the library's own explanation. */
Test(collapse_report, explain_json_and_picture_are_the_librarys) {
  tilesat_rules *r = tileset("Castle");
  char *rules = rules_file(r);
  tilesat_map *m = map_new(r, 16, 16, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[256], found = 0, chains = 0;
  char *png = temp_path(".png");
  for (uint64_t s = 1; s < 100 && found < 3; s++) {
    o.seed = s;
    if (tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_UNKNOWN)
      continue;
    found++;
    cr_assert_eq(tilesat_collapse_explain(c, NULL, &err), 0, "%s", err.msg);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s);
    run_result x = RUN("collapse", rules, "--size", "16x16", "--seed", seed,
                       "--explain", "--format", "json", "--png", png);
    cr_assert_eq(x.code, 0, "%s", x.err);
    cJSON *doc = cJSON_Parse(x.out);
    cr_assert(doc, "not JSON:\n%s", x.out);
    int cell, tile, bad = collapse_info(c).contradiction;
    size_t k = tilesat_collapse_choices(c, 0, &cell, &tile);
    cr_expect_str_eq(str(doc, "result"), "contradiction");
    cr_expect_eq(num(doc, "seed"), (int)s);
    cr_expect_eq(num(doc, "choices"), (int)k);
    const cJSON *at = cJSON_GetObjectItem(doc, "contradiction");
    cr_expect_eq(num(at, "row"), bad / 16);
    cr_expect_eq(num(at, "col"), bad % 16);
    const cJSON *ex = cJSON_GetObjectItem(doc, "explain");
    long nr = collapse_info(c).no_return;
    expect_choice(cJSON_GetObjectItem(ex, "point_of_no_return"), c, r,
                  (size_t)nr);
    cr_expect_eq(num(ex, "choices_after"), (int)(k - 1 - (size_t)nr));
    const size_t *d = collapse_info(c).doomed;
    size_t nd = collapse_info(c).ndoomed;
    const cJSON *ds = cJSON_GetObjectItem(ex, "doomed_set");
    cr_assert_eq(cJSON_GetArraySize(ds), (int)nd);
    const char *mark[256] = {NULL}; /* the frame's colour */
    for (size_t i = 0; i < nd; i++) {
      expect_choice(cJSON_GetArrayItem(ds, (int)i), c, r, d[i]);
      tilesat_collapse_choices(c, d[i], &cell, &tile);
      mark[cell] = "#ff8c00";
    }
    mark[bad] = "#ff00ff";
    /* the chain: from the doomed set's choices (numbered as in the run)
     * to a cell with no tile */
    const cJSON *chain = cJSON_GetObjectItem(ex, "chain");
    if (cJSON_IsArray(chain)) {
      chains++;
      int n = cJSON_GetArraySize(chain);
      cr_assert_gt(n, 0);
      cr_expect_str_eq(str(cJSON_GetArrayItem(chain, n - 1), "kind"), "empty");
      const cJSON *step;
      cJSON_ArrayForEach(step, chain) {
        if (strcmp(str(step, "kind"), "choice"))
          continue;
        int number = num(step, "choice");
        bool in = false;
        for (size_t i = 0; i < nd; i++)
          in |= number == (int)d[i] + 1;
        cr_expect(in, "seed %s: choice %d is not in the doomed set", seed,
                  number);
      }
    } else {
      cr_expect(cJSON_IsNull(chain));
    }
    /* the picture: 8x8 squares drawn 16x16, an orange frame on the
     * doomed cells, a magenta one on the contradiction's; a legend below */
    int w, h;
    uint8_t *rgba = decode_png(png, &w, &h);
    cr_assert_geq(w, 256);
    cr_assert_gt(h, 256);
    for (int cl = 0; cl < 256; cl++) {
      const uint8_t *corner =
          pixel_at(rgba, w, 16 * (cl % 16) + 1, 16 * (cl / 16) + 1);
      cr_expect(mark[cl] ? pixel_is(corner, mark[cl])
                         : !pixel_is(corner, "#ff8c00") &&
                               !pixel_is(corner, "#ff00ff"),
                "seed %s: cell (%d,%d)", seed, cl / 16, cl % 16);
    }
    free(rgba);
    cJSON_Delete(doc);
    run_free(&x);
  }
  cr_expect_eq(found, 3);
  cr_expect_gt(chains, 0, "no doomed set propagated to its contradiction");
  remove(png);
  free(png);
  remove(rules);
  free(rules);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* -n 60 --explain on Castle 16x16: the tiles most often in a doomed set,
 * counted here from the library's runs and explanations (the sanitizer
 * pass, test_cases halved: -n 30, the same 30 seeds both ways). */
Test(collapse_report, doomed_tiles_over_many_runs) {
  tilesat_rules *r = tileset("Castle");
  char *rules = rules_file(r);
  tilesat_map *m = map_new(r, 16, 16, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int T = tilesat_rules_ntiles(r), tiles[256];
  long *runs = calloc((size_t)T, sizeof *runs), failed = 0;
  int nruns = test_cases(60);
  char n[16];
  snprintf(n, sizeof n, "%d", nruns);
  for (uint64_t s = 1; s <= (uint64_t)nruns; s++) {
    o.seed = s;
    if (tilesat_collapse_run(c, &o, tiles, &err) != TILESAT_UNKNOWN)
      continue;
    failed++;
    cr_assert_eq(tilesat_collapse_explain(c, NULL, &err), 0, "%s", err.msg);
    const size_t *d = collapse_info(c).doomed;
    size_t nd = collapse_info(c).ndoomed;
    bool *seen = calloc((size_t)T, sizeof *seen);
    for (size_t i = 0; i < nd; i++) {
      int cell, tile;
      tilesat_collapse_choices(c, d[i], &cell, &tile);
      if (!seen[tile])
        runs[tile]++;
      seen[tile] = true;
    }
    free(seen);
  }
  cr_assert_gt(failed, 0);
  run_result x =
      RUN("collapse", rules, "--size", "16x16", "-n", n, "--explain");
  cr_assert_eq(x.code, 10, "%s", x.err);
  char head[96];
  snprintf(head, sizeof head,
           "doomed sets of %ld failed runs (each minimal, found by SAT):\n",
           failed);
  cr_expect(strstr(x.out, head), "want '%s' in\n%s", head, x.out);
  /* every tile line the report prints has the library's count */
  const char *at = strstr(x.out, "tiles most often in a doomed set");
  cr_assert(at, "%s", x.out);
  int lines = 0;
  for (int t = 0; t < T; t++) {
    char line[128];
    snprintf(line, sizeof line, "%%  \"%s\" (%ld runs",
             tilesat_rules_tile_name(r, t), runs[t]);
    lines += strstr(at, line) != NULL;
  }
  cr_expect_gt(lines, 0, "no tile line with the library's count in\n%s", at);
  /* the first tile line is a tile with the most runs */
  long most = 0;
  for (int t = 0; t < T; t++)
    most = runs[t] > most ? runs[t] : most;
  const char *first = strchr(strchr(at, '\n') + 1, '"');
  const char *open = strstr(first, " (");
  cr_assert(first && open);
  cr_expect_eq(strtol(open + 2, NULL, 10), most, "%s", at);
  run_free(&x);
  free(runs);
  remove(rules);
  free(rules);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The rule set where WFC fails often though maps exist (README): Castle
 * 24x24.  -n 200 reports the library's failures with their interval;
 * --guard sat makes 200 maps of 200 and says how many choices it banned
 * (100 in the sanitizer pass, test_cases). */
Test(collapse_report, fails_often_and_the_guard_never) {
  tilesat_rules *r = tileset("Castle");
  char *rules = rules_file(r);
  tilesat_map *m = map_new(r, 24, 24, TILESAT_SQUARE, false);
  tilesat_error err;
  tilesat_collapse *c = tilesat_collapse_new(m, &err);
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  int tiles[576];
  long failed = 0;
  int runs = test_cases(200);
  char n[16];
  snprintf(n, sizeof n, "%d", runs);
  for (uint64_t s = 1; s <= (uint64_t)runs; s++) {
    o.seed = s;
    failed += tilesat_collapse_run(c, &o, tiles, &err) == TILESAT_UNKNOWN;
  }
  cr_expect_gt(failed, runs / 5, "WFC fails in %ld of %d runs only", failed,
               runs);
  run_result x = RUN("collapse", rules, "--size", "24x24", "-n", n);
  cr_expect_eq(x.code, 10, "%s", x.err);
  char want[64];
  snprintf(want, sizeof want, "\ncontradictions: %ld (", failed);
  cr_expect(strstr(x.out, want), "want '%s' in\n%s", want + 1, x.out);
  cr_expect(strstr(x.out, "%, 95% interval "), "%s", x.out);
  run_free(&x);
  x = RUN("collapse", rules, "--size", "24x24", "-n", n, "--guard", "sat",
          "--format", "json");
  cr_expect_eq(x.code, 10, "%s", x.err);
  cJSON *doc = cJSON_Parse(x.out);
  cr_assert(doc, "not JSON:\n%s", x.out);
  cr_expect_eq(num(doc, "runs"), runs);
  cr_expect_eq(num(doc, "successes"), runs);
  cr_expect_eq(num(doc, "contradictions"), 0);
  long banned = 0;
  o.guard = TILESAT_GUARD_SAT;
  for (uint64_t s = 1; s <= (uint64_t)runs; s++) {
    o.seed = s;
    cr_assert_eq(tilesat_collapse_run(c, &o, tiles, &err), TILESAT_SAT);
    banned += collapse_info(c).banned;
  }
  cr_expect_gt(banned, 0);
  cr_expect_eq(num(doc, "banned"), banned);
  cJSON_Delete(doc);
  run_free(&x);
  remove(rules);
  free(rules);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* One successful run in JSON: the map's rows are the text output's. */
Test(collapse_report, a_map_in_json) {
  run_result t =
      RUN("collapse", "rules/coast.rules", "--size", "7x4", "--seed", "2");
  run_result j = RUN("collapse", "rules/coast.rules", "--size", "7x4", "--seed",
                     "2", "--format", "json");
  cr_assert_eq(t.code, 10, "%s", t.err);
  cr_assert_eq(j.code, 10, "%s", j.err);
  cJSON *doc = cJSON_Parse(j.out);
  cr_assert(doc, "not JSON:\n%s", j.out);
  cr_expect_str_eq(str(doc, "result"), "SAT");
  const cJSON *rows = cJSON_GetObjectItem(doc, "map");
  cr_assert_eq(cJSON_GetArraySize(rows), 4);
  char text[64] = "SAT\n";
  const cJSON *row, *cell;
  cJSON_ArrayForEach(row, rows) {
    cJSON_ArrayForEach(cell, row) strcat(text, cell->valuestring);
    strcat(text, "\n");
  }
  cr_expect_str_eq(t.out, text);
  cJSON_Delete(doc);
  run_free(&t);
  run_free(&j);
}
