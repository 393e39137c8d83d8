/* Messages that say what to do (issue 33): a file of the wrong kind named
 * as what it is with the command that reads it, suggestions for help, the
 * words of stderr, quiet mode. */
#include "helpers.h"

#include <cJSON.h>

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A PNG given as rules said "invalid UTF-8 (byte 0x89)": it is a picture,
 * and extract (or --pictures) is what reads one. */
Test(words, png_as_rules_says_it_is_a_picture) {
  expect_cli_error(
      "tilesat: docs/coast-check.png: a PNG picture, not a rules file: make "
      "rules from a sample picture with 'tilesat extract docs/coast-check.png "
      "--tile-size N -o coast-check.rules' (WFC's overlapping model: "
      "--pattern N); the rules' tile pictures are given with --pictures "
      "FILE\n",
      "check", "docs/coast-check.png", "--size", "3x3");
  expect_cli_error("tilesat: docs/coast-check.png: a PNG picture, not a "
                   "pictures file: a pictures file is text (rules/README.md); "
                   "'tilesat extract docs/coast-check.png --tile-size N -o "
                   "coast-check.rules' writes one beside the rules\n",
                   "check", "rules/coast.rules", "--size", "2x2", "--pictures",
                   "docs/coast-check.png", "--png", "never-written.png");
}

/* A WFC tileset given as rules said "the first line must be
 * 'tilesat-rules 1'", and to extract "ragged grid": import-tileset reads
 * it. */
Test(words, wfc_tileset_names_import_tileset) {
  const char *castle = "tests/data/wfc/tilesets/Castle.xml";
  expect_cli_error("tilesat: tests/data/wfc/tilesets/Castle.xml: a WFC "
                   "simple-tiled tileset, not a rules file: make its rules "
                   "with 'tilesat import-tileset "
                   "tests/data/wfc/tilesets/Castle.xml -o Castle.rules'\n",
                   "collapse", castle, "--size", "8x8");
  expect_cli_error("tilesat: tests/data/wfc/tilesets/Castle.xml: a WFC "
                   "simple-tiled tileset, not a map: make its rules with "
                   "'tilesat import-tileset tests/data/wfc/tilesets/Castle.xml "
                   "-o Castle.rules'\n",
                   "extract", castle);
  /* with an XML declaration it is read as a Tiled map, which said "root
   * element <set>, expected <map>" */
  char *text = slurp(castle);
  char with_decl[16384];
  snprintf(with_decl, sizeof with_decl,
           "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n%s", text);
  char *f = temp_file(with_decl, -1);
  char want[1024];
  /* the temporary file's base name makes the rules' name */
  const char *base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
  char stem[256];
  snprintf(stem, sizeof stem, "%.*s.rules",
           (int)(strrchr(base, '.') && strrchr(base, '.') > base
                     ? strrchr(base, '.') - base
                     : (long)strlen(base)),
           base);
  snprintf(want, sizeof want,
           "tilesat: %s:2: a WFC simple-tiled tileset, not a Tiled map: make "
           "its rules with 'tilesat import-tileset %s -o %s'\n",
           f, f, stem);
  expect_cli_error(want, "extract", f);
  expect_cli_error(want, "check", "rules/coast.rules", "--pins-from", f);
  free(text);
  remove(f);
  free(f);
}

/* A Tiled map as rules: extract makes rules from it, --pins-from takes it
 * as a level; the run list and the tileset go to their own commands. */
Test(words, tiled_map_and_run_list_name_their_commands) {
  expect_cli_error(
      "tilesat: tests/data/tiled-csv.tmx: a Tiled map, not a rules file: "
      "'tilesat extract tests/data/tiled-csv.tmx -o tiled-csv.rules' makes "
      "rules from the tiles painted in it, and --pins-from "
      "tests/data/tiled-csv.tmx completes it as a level\n",
      "check", "tests/data/tiled-csv.tmx", "--size", "4x3");
  expect_cli_error(
      "tilesat: tests/data/tiled-array.tmj: a Tiled map, not a rules file: "
      "'tilesat extract tests/data/tiled-array.tmj -o tiled-array.rules' "
      "makes rules from the tiles painted in it, and --pins-from "
      "tests/data/tiled-array.tmj completes it as a level\n",
      "check", "tests/data/tiled-array.tmj", "--size", "4x3");
  expect_cli_error("tilesat: tests/data/wfc/samples.xml:1: a WFC run list "
                   "(samples.xml), not a WFC simple-tiled tileset: 'tilesat "
                   "run-samples tests/data/wfc/samples.xml' runs it; 'tilesat "
                   "import-tileset' reads the tilesets it names\n",
                   "import-tileset", "tests/data/wfc/samples.xml");
  expect_cli_error("tilesat: tests/data/wfc/tilesets/Castle.xml:1: a WFC "
                   "simple-tiled tileset, not a WFC run list (samples.xml): "
                   "make its rules with 'tilesat import-tileset "
                   "tests/data/wfc/tilesets/Castle.xml -o Castle.rules'\n",
                   "run-samples", "tests/data/wfc/tilesets/Castle.xml");
}

/* tilesat's own files in each other's places: a rules file as a map said
 * "blank line inside the grid", a constraints file as rules "the first
 * line must be 'tilesat-rules 1'". */
Test(words, own_formats_in_the_wrong_place) {
  const char *as_map =
      "tilesat: rules/coast.rules: a rules file, not a map: rules go first, "
      "as in 'tilesat check RULES --pins-from MAP'; a map or sample is a "
      "text grid, a PNG or a Tiled map\n";
  expect_cli_error(as_map, "verify", "rules/coast.rules", "rules/coast.rules");
  expect_cli_error(as_map, "check", "rules/coast.rules", "--pins-from",
                   "rules/coast.rules");
  expect_cli_error(as_map, "extract", "rules/coast.rules");
  expect_cli_error("tilesat: rules/dungeon8.constraints: a constraints file, "
                   "not a rules file: give it with --constraints "
                   "rules/dungeon8.constraints, after the rules\n",
                   "check", "rules/dungeon8.constraints", "--size", "4x4");
  expect_cli_error("tilesat: rules/coast.rules: a rules file, not a "
                   "constraints file: rules go first, as in 'tilesat check "
                   "RULES --size WxH'\n",
                   "check", "rules/coast.rules", "--size", "4x4",
                   "--constraints", "rules/coast.rules");
  expect_cli_error("tilesat: rules/coast.rules: a rules file, not a WFC "
                   "simple-tiled tileset: these are rules already: 'tilesat "
                   "check rules/coast.rules --size WxH' reads them\n",
                   "import-tileset", "rules/coast.rules");
  expect_cli_error("tilesat: rules/coast.rules: a rules file, not a WFC run "
                   "list (samples.xml): these are rules already: 'tilesat "
                   "check rules/coast.rules --size WxH' reads them\n",
                   "run-samples", "rules/coast.rules");
  expect_cli_error("tilesat: rules/entropy7.energy: an energy file, not a "
                   "rules file: give it to 'tilesat anneal RULES --energy "
                   "rules/entropy7.energy'\n",
                   "check", "rules/entropy7.energy", "--size", "4x4");
}

/* Text that only looks like another kind stays what it is: a grid whose
 * rows start with '<' or '{', a rules file that starts with comments. */
Test(words, look_alikes_are_read_as_before) {
  char *grid = temp_file("<set\n<<<<\n", -1);
  char *rules = temp_file("", 0);
  run_result r = RUN("extract", grid, "-o", rules);
  cr_expect_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  char *commented = temp_file("# my rules\n\ntilesat-rules 1\ntile a 1\n"
                              "allow a E a\nallow a W a\nallow a N a\n"
                              "allow a S a\n",
                              -1);
  r = RUN("check", commented, "--size", "2x2");
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  /* and as a map it is a rules file still */
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: %s: a rules file, not a map: rules go first, as in "
           "'tilesat check RULES --pins-from MAP'; a map or sample is a text "
           "grid, a PNG or a Tiled map\n",
           commented);
  expect_cli_error(want, "verify", "rules/coast.rules", commented);
  remove(grid);
  remove(rules);
  remove(commented);
  free(grid);
  free(rules);
  free(commented);
}

/* `tilesat help colapse` said only "unknown command 'colapse'", where
 * `tilesat colapse` suggests collapse. */
Test(words, help_suggests_a_command) {
  const char *want = "tilesat: unknown command 'colapse': did you mean "
                     "'collapse'? (see 'tilesat --help')\n";
  expect_cli_error(want, "help", "colapse");
  expect_cli_error(want, "colapse");
  expect_cli_error("tilesat: unknown command 'chek': did you mean 'check'? "
                   "(see 'tilesat --help')\n",
                   "help", "chek");
}

/* collapse --explain's headline named the run's contradiction, (5,14),
 * and its steps ended at (6,13) without a word: the doomed set alone
 * empties another cell first (the run had 150 more choices).  The lead of
 * the steps names the cell they end at, and the run's. */
Test(words, explain_steps_name_the_cell_they_end_at) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result r =
      RUN("collapse", rules, "--size", "16x16", "--seed", "3", "--explain");
  cr_assert_eq(r.code, 0, "%s", r.err);
  /* the headline names both cells */
  const char *head = "contradiction at (5,14) after 154 choices (seed 3); the "
                     "steps below end at (6,13), where propagation from its "
                     "doomed set alone first empties a cell\n";
  cr_expect(!strncmp(r.out, head, strlen(head)), "%s", r.out);
  cr_expect(strstr(r.out, "\nhow propagation from the doomed set alone "
                          "reaches a contradiction at (6,13) (as trace shows "
                          "it; the run, with its other choices, emptied "
                          "(5,14) first):\n"),
            "%s", r.out);
  /* the last step is the cell the lead names */
  const char *last = strstr(r.out, "41. (6,13) has no tile left");
  cr_expect(last && !strchr(strchr(last, '\n') + 1, '.'), "%s", r.out);
  run_free(&r);
  /* JSON says where the chain ends too */
  r = RUN("collapse", rules, "--size", "16x16", "--seed", "3", "--explain",
          "--format", "json");
  cJSON *doc = cJSON_Parse(r.out);
  cr_assert(doc, "%s", r.out);
  const cJSON *ex = cJSON_GetObjectItem(doc, "explain");
  const cJSON *at = cJSON_GetObjectItem(ex, "chain_ends_at");
  cr_expect(at && cJSON_GetObjectItem(at, "row")->valueint == 6 &&
            cJSON_GetObjectItem(at, "col")->valueint == 13);
  const cJSON *run = cJSON_GetObjectItem(doc, "contradiction");
  cr_expect(run && cJSON_GetObjectItem(run, "row")->valueint == 5 &&
            cJSON_GetObjectItem(run, "col")->valueint == 14);
  cJSON_Delete(doc);
  run_free(&r);
  /* seed 5: another run, another pair of cells */
  r = RUN("collapse", rules, "--size", "16x16", "--seed", "5", "--explain");
  cr_expect(strstr(r.out, "contradiction at (6,0) after 170 choices"), "%s",
            r.out);
  cr_expect(strstr(r.out, "reaches a contradiction at (5,1) (as trace shows "
                          "it; the run, with its other choices, emptied (6,0) "
                          "first):\n"),
            "%s", r.out);
  run_free(&r);
  rm_dir(dir);
}

/* The last line of a text (without its newline), malloc'd. */
static char *last_line(const char *s) {
  size_t n = strlen(s);
  while (n && s[n - 1] == '\n')
    n--;
  size_t b = n;
  while (b && s[b - 1] != '\n')
    b--;
  return strndup(s + b, n - b);
}

static bool same_bytes(const char *p, const char *q) {
  FILE *a = fopen(p, "rb"), *b = fopen(q, "rb");
  bool same = a && b;
  long n = 0;
  for (int x, y; same; n++) {
    x = fgetc(a);
    y = fgetc(b);
    same = x == y;
    if (x == EOF)
      break;
  }
  if (a)
    fclose(a);
  if (b)
    fclose(b);
  return same && n > 8;
}

/* -q/--quiet: the answer line alone on stdout (check, collapse and world
 * printed every map as text, 64 lines of 700 characters at 64x64, also
 * with --png); the map goes to the files as before. */
Test(words, quiet_prints_only_the_answer) {
  char *dir = temp_dir();
  char png[512], png2[512];
  snprintf(png, sizeof png, "%s/q.png", dir);
  snprintf(png2, sizeof png2, "%s/loud.png", dir);
  run_result q = RUN("check", "rules/coast.rules", "--size", "12x8", "--pin",
                     "7,0=S", "-q", "--png", png);
  run_result loud = RUN("check", "rules/coast.rules", "--size", "12x8", "--pin",
                        "7,0=S", "--png", png2);
  cr_expect_eq(q.code, 10, "%s", q.err);
  cr_expect_str_eq(q.out, "SAT\n");
  cr_expect_eq(loud.code, 10);
  cr_expect(!strncmp(loud.out, "SAT\n", 4) && strlen(loud.out) > 4 + 8 * 12,
            "%s", loud.out);
  /* the same map drawn either way */
  cr_expect(same_bytes(png, png2));
  run_free(&q);
  run_free(&loud);
  /* without a file too: just the answer */
  q = RUN("check", "rules/coast.rules", "--size", "4x3", "--quiet");
  cr_expect_eq(q.code, 10);
  cr_expect_str_eq(q.out, "SAT\n");
  run_free(&q);
  q = RUN("check", "rules/hard.rules", "--size", "3x3", "-q");
  cr_expect_eq(q.code, 20);
  cr_expect_str_eq(q.out, "UNSAT\n");
  run_free(&q);
  q = RUN("collapse", "rules/coast.rules", "--size", "16x16", "--seed", "1",
          "--guard", "auto", "-q");
  cr_expect_eq(q.code, 10, "%s", q.err);
  cr_expect_str_eq(q.out, "SAT\n");
  run_free(&q);
  q = RUN("world", "rules/coast.rules", "--chunk", "8", "--at", "0,0", "-q");
  cr_expect_eq(q.code, 10, "%s", q.err);
  cr_expect_str_eq(q.out, "SAT\n");
  run_free(&q);
  /* enum: the count alone, the same as the loud run's last line */
  q = RUN("enum", "rules/coast.rules", "--size", "3x2", "-q");
  loud = RUN("enum", "rules/coast.rules", "--size", "3x2");
  char *want = last_line(loud.out);
  cr_expect(!strncmp(want, "maps: ", 6), "%s", loud.out);
  char line[64];
  snprintf(line, sizeof line, "%s\n", want);
  cr_expect_str_eq(q.out, line);
  cr_expect_eq(q.code, 10);
  free(want);
  run_free(&q);
  run_free(&loud);
  q = RUN("sample", "rules/coast.rules", "--size", "3x3", "-n", "2", "-q");
  cr_expect_eq(q.code, 10, "%s", q.err);
  cr_expect_str_eq(q.out, "SAT\n");
  run_free(&q);
  /* a command without it names -q as typed */
  expect_cli_error("tilesat: unknown option '-q' for 'count': it is an "
                   "option of check, enum, sample and 3 other commands (see "
                   "'tilesat count --help')\n",
                   "count", "rules/coast.rules", "--size", "2x2", "-q");
  /* anneal: its report without the map */
  q = RUN("anneal", "rules/coast.rules", "--size", "4x4", "--seed", "1", "-q");
  loud = RUN("anneal", "rules/coast.rules", "--size", "4x4", "--seed", "1");
  cr_expect_eq(q.code, loud.code);
  const char *report = strstr(loud.out, "energy: ");
  cr_expect(report && !strcmp(q.out, report), "%s\n---\n%s", q.out, loud.out);
  run_free(&q);
  run_free(&loud);
  rm_dir(dir);
}

/* "(1 runs)", "doomed sets of 1 failed runs", "1 cells from it": one is
 * singular. */
Test(words, one_run_is_one_run) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result r = RUN("collapse", rules, "--size", "16x16", "-n", "2", "--seed",
                     "3", "--explain");
  cr_expect_eq(r.code, 10, "%s", r.err); /* one run made a map */
  cr_expect(strstr(r.out, "contradictions: 1 (50.0%"), "%s", r.out);
  cr_expect(strstr(r.out, "doomed sets of 1 failed run (each minimal"), "%s",
            r.out);
  cr_expect(strstr(r.out, "median 0 choices before the contradiction, 1 cell "
                          "from it\n"),
            "%s", r.out);
  cr_expect(strstr(r.out, "\"wall 1\" (1 run)\n"), "%s", r.out);
  cr_expect(!strstr(r.out, " 1 runs") && !strstr(r.out, "(1 runs"), "%s",
            r.out);
  run_free(&r);
  rm_dir(dir);
}

/* Help text with its lines joined (a newline and the indent: a space). */
static char *flat(const char *s) {
  char *f = strdup(s), *o = f;
  for (const char *c = s; *c; c++) {
    if (*c == '\n') {
      while (c[1] == ' ')
        c++;
      *o++ = ' ';
    } else {
      *o++ = *c;
    }
  }
  *o = 0;
  return f;
}

/* The words of count's and sample's stderr (dp, frontier, burn-in,
 * autocorrelation) are said plainly in their help. */
Test(words, stderr_words_are_explained_in_help) {
  run_result r = RUN("help", "count");
  char *f = flat(r.out);
  cr_expect(strstr(f, "its frontier is the row's worth of cells between the "
                      "part counted and the rest"),
            "%s", f);
  free(f);
  run_free(&r);
  r = RUN("help", "sample");
  f = flat(r.out);
  cr_expect(strstr(f, "its burn-in is the first sweeps, dropped so that the "
                      "maps forget where the chain started"),
            "%s", f);
  cr_expect(strstr(f, "near 0 the maps drawn are nearly independent, near 1 "
                      "the chain barely moves"),
            "%s", f);
  free(f);
  run_free(&r);
}

/* The colours of one tile's picture in a pictures file ("#rrggbb" each,
 * row by row), into px[s*s][8]; the side s. */
static int picture_of(const char *pictures, const char *tile, char px[][8],
                      int max) {
  char key[128];
  snprintf(key, sizeof key, "picture \"%s\" ", tile);
  const char *p = strstr(pictures, key);
  cr_assert(p, "no picture of %s", tile);
  p += strlen(key);
  int n = 0;
  while (*p == '#' && n < max) {
    memcpy(px[n], p, 7);
    px[n++][7] = 0;
    p += 7;
    while (*p == ' ')
      p++;
  }
  int s = 0;
  while ((s + 1) * (s + 1) <= n)
    s++;
  cr_assert_eq(s * s, n, "%s: %d pixels", tile, n);
  return s;
}

/* README: "NAME 1, NAME 2 and NAME 3 are NAME 0 turned a quarter, a half
 * and three quarters counterclockwise; with symmetry F, NAME 4 to NAME 7
 * are NAME 0 to NAME 3 mirrored left to right".  Checked on the pictures
 * import-tileset writes: Castle's tower (L), and a tileset of one F tile
 * whose 3x3 picture has nine colours. */
static void expect_turns(const char *pictures, const char *name, int n) {
  char a[64][8], b[64][8];
  for (int t = 1; t < n; t++) {
    char prev[64], cur[64];
    snprintf(prev, sizeof prev, "%s %d", name, t < 4 ? t - 1 : t - 4);
    snprintf(cur, sizeof cur, "%s %d", name, t);
    int s = picture_of(pictures, prev, a, 64);
    cr_assert_eq(picture_of(pictures, cur, b, 64), s);
    for (int y = 0; y < s; y++)
      for (int x = 0; x < s; x++) {
        /* a quarter turn counterclockwise takes the top right corner to
         * the top left; the mirror, left to right */
        int fx = t < 4 ? s - 1 - y : s - 1 - x, fy = t < 4 ? x : y;
        cr_expect_str_eq(b[x + y * s], a[fx + fy * s], "%s (%d,%d)", cur, x, y);
      }
  }
}

Test(words, rotations_turn_counterclockwise) {
  char *dir = temp_dir();
  char rules[512], pics[512];
  snprintf(rules, sizeof rules, "%s/castle.rules", dir);
  snprintf(pics, sizeof pics, "%s/castle.pictures", dir);
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  char *text = slurp(pics);
  expect_turns(text, "tower", 4);
  expect_turns(text, "riverturn", 4);
  free(text);
  /* an F tile: eight orientations */
  char xml[512], folder[512], png[600];
  snprintf(xml, sizeof xml, "%s/flag.xml", dir);
  snprintf(folder, sizeof folder, "%s/flag", dir);
  snprintf(png, sizeof png, "%s/flag/f.png", dir);
  cr_assert_eq(mkdir(folder, 0700), 0);
  FILE *f = fopen(xml, "w");
  cr_assert(f);
  fputs("<set><tiles><tile name=\"f\" symmetry=\"F\"/></tiles><neighbors>"
        "<neighbor left=\"f\" right=\"f\"/></neighbors></set>\n",
        f);
  fclose(f);
  tilesat_image *img = tilesat_image_new(3, 3);
  for (int i = 0; i < 9; i++) {
    img->rgba[4 * i] = (uint8_t)(20 * i + 10);
    img->rgba[4 * i + 1] = (uint8_t)(200 - 20 * i);
    img->rgba[4 * i + 2] = (uint8_t)(i * 7);
    img->rgba[4 * i + 3] = 255;
  }
  tilesat_error err;
  cr_assert_eq(tilesat_image_write_png(img, png, &err), 0, "%s", err.msg);
  tilesat_image_free(img);
  snprintf(rules, sizeof rules, "%s/flag.rules", dir);
  snprintf(pics, sizeof pics, "%s/flag.pictures", dir);
  r = RUN("import-tileset", xml, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  text = slurp(pics);
  expect_turns(text, "f", 8);
  /* what the README and help import-tileset say */
  char *readme = slurp("README.md");
  char *flat_readme = flat(readme);
  cr_expect(strstr(flat_readme,
                   "`tower 0` is the tile as its picture is drawn, and "
                   "`tower 1`, `tower 2` and `tower 3` are `tower 0` turned a "
                   "quarter, a half and three quarters counterclockwise"));
  cr_expect(strstr(flat_readme, "has `NAME 4` to `NAME 7` too, `NAME 0` to "
                                "`NAME 3` mirrored left to right"));
  free(flat_readme);
  free(readme);
  r = RUN("help", "import-tileset");
  char *h = flat(r.out);
  cr_expect(strstr(h, "NAME 1, NAME 2 and NAME 3 are it turned a quarter, a "
                      "half and three quarters counterclockwise; with "
                      "symmetry F, NAME 4 to NAME 7 are NAME 0 to NAME 3 "
                      "mirrored left to right"),
            "%s", h);
  free(h);
  run_free(&r);
  /* and f 0 is the picture as drawn: its top left pixel first */
  char px[9][8];
  picture_of(text, "f 0", px, 9);
  cr_expect_str_eq(px[0], "#0ac800");
  free(text);
  rm_dir(dir);
}

/* The number of clauses in `tilesat encode`'s header "p cnf V C" (and of
 * variables in *vars). */
static long encoded_clauses(const char *rules, const char *size, bool periodic,
                            long *vars) {
  run_result r = periodic ? RUN("encode", rules, "--size", size, "--periodic")
                          : RUN("encode", rules, "--size", size);
  cr_assert_eq(r.code, 0, "%s", r.err);
  const char *p = strstr(r.out, "\np cnf ");
  long v = 0, c = -1;
  cr_assert(p && sscanf(p, "\np cnf %ld %ld", &v, &c) == 2);
  run_free(&r);
  *vars = v;
  return c;
}

/* The exact guard reached the whole map's solver without a word (Castle
 * 128x128: 3.7 M clauses loaded after 24 s, then only "solving with
 * picosat"); it says so first, with the size (the clauses encode counts)
 * and what would do without it.  And its count of decided cells ran
 * backwards (16163, 10555, 16108) with no word of why. */
Test(words, guard_says_what_it_does) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result r = RUN("collapse", rules, "--size", "16x16", "--periodic",
                     "--guard", "sat", "--seed", "2", "-q");
  cr_expect_eq(r.code, 10, "%s", r.err);
  char want[512];
  long vars, clauses = encoded_clauses(rules, "16x16", true, &vars);
  snprintf(want, sizeof want,
           "tilesat: collapse: guard: no window refutes the run: the exact "
           "guard needs the whole map's solver (%ld clauses, %ld variables, "
           "16x16 cells); --guard auto, the fast guard, never fails either "
           "and would not (nor would modify) (",
           clauses, vars);
  cr_expect(strstr(r.err, want), "%s\nwant %s", r.err, want);
  cr_expect(strstr(r.err, "tilesat: collapse: guard: 4 exact bans, "), "%s",
            r.err);
  run_free(&r);
  /* auto on the same map: no whole-map solver, no such line */
  r = RUN("collapse", rules, "--size", "16x16", "--periodic", "--guard", "auto",
          "--seed", "2", "-q");
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(!strstr(r.err, "whole map's solver"), "%s", r.err);
  run_free(&r);
  /* every line of progress whose count is below one said before says
   * why, and from how many */
  setenv("TILESAT_PROGRESS", "all", 1);
  r = RUN("collapse", rules, "--size", "64x64", "--guard", "sat", "--seed", "1",
          "-q");
  unsetenv("TILESAT_PROGRESS");
  cr_expect_eq(r.code, 10, "%s", r.err);
  long most = 0, back = 0;
  for (const char *l = r.err; (l = strstr(l, "tilesat: collapse: ")); l++) {
    long k, n;
    if (sscanf(l, "tilesat: collapse: %ld of %ld cells decided", &k, &n) != 2)
      continue;
    const char *end = strchr(l, '\n');
    const char *why = strstr(l, "; back from ");
    if (why && end && why > end)
      why = NULL;
    if (k < most) {
      back++;
      long from = -1;
      cr_expect(why && sscanf(why, "; back from %ld decided: ", &from) == 1,
                "%.*s", (int)(end ? end - l : 80), l);
      cr_expect(from > k && from <= most, "%ld, back from %ld (most %ld)", k,
                from, most);
      cr_expect(why && (!strncmp(strstr(why, ": ") + 2,
                                 "an exact ban replays the run from before "
                                 "the choice it bans (",
                                 58)),
                "%.*s", (int)(end ? end - l : 80), l);
    }
    most = k > most ? k : most;
  }
  cr_expect_gt(back, 0, "the count never went back: the test tests nothing");
  run_free(&r);
  rm_dir(dir);
}

/* --guard sat on Castle 128x128 said only "solving with picosat (N s)" for
 * 110 s: it says first, before its first run, what it may solve (the
 * whole map's clauses and variables: a periodic map's are 64 times its
 * 16x16 one's) and that --guard auto is the fast guard; stopped after a
 * second, it has said it once. */
Test(words, exact_guard_says_its_size_first) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result r;
  long vars, clauses = encoded_clauses(rules, "16x16", true, &vars);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: collapse: guard: the exact guard proves each doom in a "
           "window around it, else on the whole 128x128 map (%.1f M clauses, "
           "%.1f M variables: minutes to load and solve); --guard auto is the "
           "fast guard and never fails either (",
           64.0 * (double)clauses / 1e6, 64.0 * (double)vars / 1e6);
  r = run_cli_interrupted(
      (const char *const[]){"collapse", rules, "--size", "128x128",
                            "--periodic", "--guard", "sat", "-q", NULL},
      2500); /* (the line comes first: slack for a loaded sanitizer run) */
  const char *at = strstr(r.err, want);
  cr_expect(at == r.err, "%s\nwant %s", r.err, want);
  cr_expect(!at || !strstr(at + 1, want), "said twice: %s", r.err);
  run_free(&r);
  /* a small map's whole solver loads in a moment: no such line */
  r = RUN("collapse", rules, "--size", "16x16", "--guard", "sat", "-q");
  cr_expect(!strstr(r.err, "minutes to load"), "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* collapse --explain on Castle 256x256 said only "loading 14942209
 * clauses into picosat" and "solving" for 35 s (1.95 GB): on a map of a
 * million clauses or more it says first what it loads, how much memory
 * and what is cheaper; stopped after a second, it has said it
 * once.  A small map's explanation says nothing of it. */
Test(words, collapse_explain_says_its_size_first) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result r = run_cli_interrupted(
      (const char *const[]){"collapse", rules, "--size", "128x128", "--seed",
                            "1", "--explain", "-q", NULL},
      1000);
  const char *want =
      "tilesat: collapse: --explain: the run contradicted at (108,79); "
      "explaining it loads and solves the whole 128x128 map's CNF (3.7 M "
      "clauses, 0.9 M variables, up to 650 MiB in picosat) before it "
      "answers; a failure on a smaller map (--size 64x64 has 4 times fewer "
      "clauses) is explained in seconds\n";
  const char *at = strstr(r.err, want);
  cr_expect(at == r.err, "%s\nwant %s", r.err, want);
  cr_expect(!at || !strstr(at + 1, want), "said twice: %s", r.err);
  run_free(&r);
  r = RUN("collapse", rules, "--size", "16x16", "--seed", "3", "--explain",
          "-q");
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect(!strstr(r.err, "before it answers"), "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* A painted level's "." is dungeon8's floor and the free cell's default
 * name: those cells are left free (a designer's floor, silently), so it is
 * said once; with --free-tile another name, they are pinned to the floor
 * and the map keeps them. */
Test(words, a_free_cell_that_is_a_tile_is_said) {
  static const char level[] = "##########\n#........#\n##########\n";
  char *path = temp_file(level, (long)strlen(level));
  run_result a = RUN("check", "rules/dungeon8.rules", "--pins-from", path);
  cr_assert_eq(a.code, 10, "%s", a.err);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: --pins-from: %s: 8 cells hold '.', the free cell, which "
           "is also a tile of the rules: left free (--free-tile with another "
           "name pins them)\n",
           path);
  cr_expect(strstr(a.err, want), "%s", a.err);
  run_result b = RUN("check", "rules/dungeon8.rules", "--pins-from", path,
                     "--free-tile", "?");
  cr_assert_eq(b.code, 10, "%s", b.err);
  cr_expect_null(strstr(b.err, "the free cell"), "%s", b.err);
  /* pinned now: row 1 of the map printed after "SAT\n" is the level's */
  const char *row1 = strchr(strchr(b.out, '\n') + 1, '\n') + 1;
  cr_expect_eq(strncmp(row1, "#........#\n", 11), 0, "%s", b.out);
  run_free(&a);
  run_free(&b);
  free(path);
}

/* No map, no picture: sample and enum wrote a blank grey PNG on UNSAT
 * (the designer's pass); now nothing is written, and stderr says why. */
Test(words, no_map_no_picture) {
  char *dir = temp_dir();
  char png[512];
  snprintf(png, sizeof png, "%s/x.png", dir);
  const char *cmd[2] = {"sample", "enum"};
  for (int i = 0; i < 2; i++) {
    run_result a = RUN(cmd[i], "rules/coast.rules", "--size", "4x4", "--pin",
                       "0,0=S", "--pin", "0,1=L", "--png", png);
    cr_expect_eq(a.code, 20, "%s", a.err);
    char want[640];
    snprintf(want, sizeof want,
             "tilesat: --png: no map to draw: %s not written (tilesat "
             "explain says why there is none)\n",
             png);
    cr_expect_str_eq(a.err, want);
    cr_expect_eq(dir_entries(dir), 0, "%s wrote a picture", cmd[i]);
    run_free(&a);
  }
  rm_dir(dir);
}

/* A guarded collapse on pins that clash said only UNSAT (the designer's
 * pass): now which pins clash and where, as check finds it, and what says
 * why. */
Test(words, guarded_collapse_names_the_clashing_pins) {
  const char *guards[] = {"sat", "auto", "blocks", "modify"};
  for (size_t i = 0; i < sizeof guards / sizeof *guards; i++) {
    run_result a =
        RUN("collapse", "rules/coast.rules", "--size", "8x4", "--pin", "0,0=S",
            "--pin", "0,1=L", "--guard", guards[i]);
    cr_expect_eq(a.code, 20, "%s: %s", guards[i], a.err);
    cr_expect_str_eq(a.out, "UNSAT\n");
    cr_expect(strstr(a.err, "tilesat: collapse: UNSAT: the pins (0,0)=S and "
                            "(0,1)=L clash: no filling of the 5x4 window at "
                            "rows 0-3, columns 0-4 keeps them; 'tilesat "
                            "explain' with the same options says why\n"),
              "%s: %s", guards[i], a.err);
    run_free(&a);
  }
  /* no pins: the rules alone */
  run_result b =
      RUN("collapse", "rules/hard.rules", "--size", "3x3", "--guard", "sat");
  cr_expect_eq(b.code, 20, "%s", b.err);
  cr_expect(strstr(b.err, "tilesat: collapse: UNSAT: no map of this size "
                          "exists with these rules; 'tilesat explain' with "
                          "the same options says why\n"),
            "%s", b.err);
  run_free(&b);
}

/* "1 new start" said nothing of why the run started again. */
Test(words, a_new_start_says_why) {
  run_result a = RUN("collapse", "rules/dungeon8.rules", "--size", "32x32",
                     "--constraints", "rules/dungeon32.constraints", "--guard",
                     "sat", "--seed", "1", "-q");
  cr_expect_eq(a.code, 10, "%s", a.err);
  cr_expect(strstr(a.err, ", 1 new start from another seed (its count, "
                          "connected and path constraints sent it back to "
                          "undo earlier choices too often)\n"),
            "%s", a.err);
  run_free(&a);
}

/* export-tileset wrote Tiled 1.8.2's version, --tmx and --tmj 1.10.2's:
 * every writer now says Debian's tiled, 1.8.2 (format 1.8). */
Test(words, every_tiled_writer_says_one_version) {
  char *dir = temp_dir();
  char tsx[512], tsj[512], tmx[512], tmj[512], like[512], level[512];
  snprintf(tsx, sizeof tsx, "%s/t.tsx", dir);
  snprintf(tsj, sizeof tsj, "%s/t.tsj", dir);
  snprintf(tmx, sizeof tmx, "%s/a.tmx", dir);
  snprintf(tmj, sizeof tmj, "%s/a.tmj", dir);
  snprintf(like, sizeof like, "%s/b.tmx", dir);
  snprintf(level, sizeof level, "%s/level.txt", dir);
  FILE *f = fopen(level, "w");
  cr_assert(f);
  fputs("S.......\n........\n........\n.......L\n", f);
  fclose(f);
  run_result r[5] = {RUN("export-tileset", "rules/coast.rules", "-o", tsx),
                     RUN("export-tileset", "rules/coast.rules", "-o", tsj),
                     RUN("check", "rules/coast.rules", "--pins-from", level,
                         "--tmx", tmx, "--tmj", tmj, "-q"),
                     {0},
                     {0}};
  r[3] = RUN("check", "rules/coast.rules", "--pins-from", tmx, "--tmx", like,
             "-q");
  for (int i = 0; i < 4; i++) {
    cr_expect(r[i].code == 0 || r[i].code == 10, "%d: %s", i, r[i].err);
    run_free(&r[i]);
  }
  const char *xml[] = {tsx, tmx, like};
  for (int i = 0; i < 3; i++) {
    char *text = slurp(xml[i]);
    cr_expect(strstr(text, " version=\"1.8\" tiledversion=\"1.8.2\""), "%s: %s",
              xml[i], text);
    free(text);
  }
  const char *json[] = {tsj, tmj};
  for (int i = 0; i < 2; i++) {
    char *text = slurp(json[i]);
    cJSON *doc = cJSON_Parse(text);
    cr_assert(doc, "%s", json[i]);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "version")),
                     "1.8");
    cr_expect_str_eq(
        cJSON_GetStringValue(cJSON_GetObjectItem(doc, "tiledversion")),
        "1.8.2");
    cJSON_Delete(doc);
    free(text);
  }
  rm_dir(dir);
}

/* import-tileset's rules said their weights were "occurrences in the
 * samples": a tileset's come from its XML. */
Test(words, tileset_weights_say_where_they_come_from) {
  char *dir = temp_dir();
  char out[512];
  snprintf(out, sizeof out, "%s/castle.rules", dir);
  run_result a =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", out);
  cr_assert_eq(a.code, 0, "%s", a.err);
  char *text = slurp(out);
  cr_expect(strstr(text, "\n# tile NAME WEIGHT (weight: the tileset's weight "
                         "of each tile, scaled to whole numbers)\n"),
            "%s", text);
  free(text);
  run_free(&a);
  /* extract's are the samples' */
  snprintf(out, sizeof out, "%s/coast.rules", dir);
  a = RUN("extract", "rules/coast.txt", "-o", out);
  cr_assert_eq(a.code, 0, "%s", a.err);
  text = slurp(out);
  cr_expect(strstr(text, "\n# tile NAME WEIGHT (weight: occurrences in the "
                         "samples)\n"),
            "%s", text);
  free(text);
  run_free(&a);
  rm_dir(dir);
}

/* count printed an estimate's error bar to a tenth, "+- 0.0" when narrow,
 * which reads as exact: now two significant digits, and the error bar as
 * a factor or a share, named an estimate; an exact count stays a bare
 * number. */
Test(words, an_estimate_says_its_error) {
  run_result a = RUN("count", "rules/coast.rules", "--size", "3x3", "--method",
                     "estimate");
  cr_assert_eq(a.code, 0, "%s", a.err);
  double l10, h10, l2, h2;
  char digits[32] = "";
  cr_assert_eq(sscanf(a.out, "estimate 10^%lf +- %31[0-9.]", &l10, digits), 2,
               "%s", a.out);
  h10 = strtod(digits, NULL);
  cr_assert_eq(sscanf(a.out, "estimate 10^%lf +- %lf (95%%); 2^%lf +- %lf",
                      &l10, &h10, &l2, &h2),
               4, "%s", a.out);
  cr_expect_gt(h10, 0, "%s", a.out);
  /* two significant digits: "0.021", not "0.0" */
  size_t lead = strspn(digits, "0.");
  cr_expect_eq(strlen(digits) - lead, 2, "%s", a.out);
  cr_expect_leq(fabs(l10 - log10(35.0)), h10, "%s", a.out);
  cr_expect(strstr(a.out, "either way (an estimate, not exact)\n"), "%s",
            a.out);
  run_free(&a);
  run_result b = RUN("count", "rules/coast.rules", "--size", "3x3");
  cr_expect_str_eq(b.out, "35\n");
  run_free(&b);
}

/* anneal without a frequency term said "energy: 0" with the counts far
 * from their targets: the energy does not weigh them, and stderr now says
 * so, how far they are (from the counts printed) and what weighs them. */
Test(words, anneal_says_its_counts_are_not_weighed) {
  run_result a =
      RUN("anneal", "rules/coast.rules", "--size", "8x8", "--seed", "1", "-q");
  cr_assert_eq(a.code, 0, "%s", a.err);
  long off = 0;
  for (const char *p = strstr(a.out, "count "); p;
       p = strstr(p + 1, "count ")) {
    long n, t;
    cr_assert_eq(sscanf(p, "count %*s %ld (target %ld)", &n, &t), 2, "%s", p);
    off += labs(n - t);
  }
  cr_assert_gt(off, 0, "%s", a.out);
  char want[512];
  snprintf(want, sizeof want,
           "anneal: the tile counts are not in the energy (it has no "
           "frequency term): %ld cell%s would have to change tile to meet "
           "their targets (the rules' weights, scaled to the map); "
           "--frequency W (or 'frequency W' in the energy file) weighs them\n",
           (off + 1) / 2, (off + 1) / 2 == 1 ? "" : "s");
  cr_expect(strstr(a.err, want), "%s", a.err);
  run_free(&a);
  run_result b = RUN("anneal", "rules/coast.rules", "--size", "8x8", "--seed",
                     "1", "-q", "--frequency", "1");
  cr_assert_eq(b.code, 0, "%s", b.err);
  cr_expect_null(strstr(b.err, "not in the energy"), "%s", b.err);
  run_free(&b);
}

/* dungeon8's tiles are punctuation: lists printed {"\"", ,}, a name a
 * designer cannot pick out.  Now every name of such rules is quoted, the
 * same way, escapes only where needed; coast's L, C, S stay bare. */
Test(words, punctuation_names_are_quoted_in_lists) {
  run_result a = RUN("trace", "rules/dungeon8.rules", "--size", "3x3", "--pin",
                     "0,0=\"", "--pin", "0,1=,");
  cr_expect_eq(a.code, 20, "%s", a.err);
  cr_expect_str_eq(
      a.out,
      "contradiction: the steps that lead to it:\n"
      "   1. (0,0) is pinned to \"\\\"\", so it loses {\"#\", \"~\", \"T\", "
      "\".\", \"+\", \",\", \"=\", \"%\"}\n"
      "   2. (0,1) is pinned to \",\", so it loses {\"#\", \"~\", \"\\\"\", "
      "\"T\", \".\", \"+\", \"=\", \"%\"}\n"
      "   3. (0,1) loses {\",\"}: (0,0) holds only {\"\\\"\"}, and \"\\\"\" "
      "allows only {\"\\\"\", \"T\"} to its east\n"
      "   4. (0,1) is pinned to \",\", which is ruled out: contradiction\n");
  run_free(&a);
  run_result b = RUN("analyze", "rules/dungeon8.rules", "--max", "2");
  cr_expect_eq(strncmp(b.out,
                       "9 tiles, square topology: \"#\" \"~\" \"\\\"\" \"T\" "
                       "\".\" \"+\" \",\" \"=\" \"%\"\n",
                       strlen("9 tiles, square topology: \"#\" \"~\" \"\\\"\" "
                              "\"T\" \".\" \"+\" \",\" \"=\" \"%\"\n")),
               0, "%s", b.out);
  run_free(&b);
  run_result c = RUN("trace", "rules/coast.rules", "--size", "3x3", "--pin",
                     "0,0=S", "--pin", "0,1=L");
  cr_expect(strstr(c.out, "   1. (0,0) is pinned to S, so it loses {L, C}\n"),
            "%s", c.out);
  run_free(&c);
}

/* explain's text map marked cells with '#' and '.', two of dungeon8's
 * tiles: its key now takes characters no tile is named, and says them. */
Test(words, explain_key_is_no_tile_name) {
  run_result a = RUN("explain", "rules/dungeon8.rules", "--size", "3x3",
                     "--pin", "0,0=\"", "--pin", "0,1=,");
  cr_expect_eq(a.code, 20, "%s", a.err);
  const char *want =
      "\nThe map (@ a cell that must hold one tile, P a pin, o a cell only in "
      "an\nadjacency, : not involved; - and | adjacency constraints):\n"
      "  P-P :\n\n  : : :\n\n  : : :\n";
  const char *map = strstr(a.out, "\nThe map");
  cr_assert(map, "%s", a.out);
  cr_expect_str_eq(map, want);
  run_free(&a);
}

/* How many numbered steps ("  12. ") a text holds, and the text of step
 * `number`'s line up to its first ':' or ',' (its cell and what happens
 * there), into buf; 0 when it has none. */
static int numbered_steps(const char *text) {
  int n = 0;
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
    int num, used = 0;
    if (sscanf(p, "%d. %n", &num, &used) == 1 && used > 0)
      n++;
  }
  return n;
}

static bool step_head(const char *text, int number, char *buf, size_t len) {
  char tag[32];
  snprintf(tag, sizeof tag, "%4d. (", number);
  const char *p = strstr(text, tag);
  if (!p)
    return false;
  size_t n = strcspn(p, ":,\n");
  snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
  return true;
}

/* collapse --explain printed every propagation step with every tile named
 * (16.5 KB for a 64x64 failure): on a map larger than 32x32 it now shows
 * the steps that matter (the choices, the steps at the cell emptied and
 * those they follow from), lists cut to 4 tiles; --whole all of it, as
 * before. */
Test(words, collapse_explain_is_short_on_large_maps) {
  char *dir = temp_dir();
  char rules[512];
  import_castle(dir, rules, sizeof rules);
  run_result s =
      RUN("collapse", rules, "--size", "33x33", "--seed", "2", "--explain");
  run_result w = RUN("collapse", rules, "--size", "33x33", "--seed", "2",
                     "--explain", "--whole");
  cr_assert_eq(s.code, 0, "%s", s.err);
  cr_assert_eq(w.code, 0, "%s", w.err);
  const char *whole =
      strstr(w.out, "contradiction: the steps that lead to it:\n");
  cr_assert(whole, "%s", w.out);
  int all = numbered_steps(whole);
  size_t shown, of;
  const char *cut = strstr(s.out, "contradiction: ");
  cr_assert(cut, "%s", s.out);
  cr_assert_eq(sscanf(cut, "contradiction: %zu of the %zu steps", &shown, &of),
               2, "%s", cut);
  cr_expect_eq(of, (size_t)all, "%s", cut);
  cr_expect_lt(shown, of);
  cr_expect_eq(numbered_steps(cut), (int)shown, "%s", cut);
  cr_expect(strstr(cut, "steps that lead to it: the choices, the steps at the "
                        "cell it empties and those they follow from, lists "
                        "cut to 4 tiles (--whole: every step, every tile):\n"),
            "%s", cut);
  cr_expect(strstr(cut, " more}"), "%s", cut);
  cr_expect_lt(strlen(s.out) * 2, strlen(w.out), "%zu against %zu bytes",
               strlen(s.out), strlen(w.out));
  /* each step shown is the whole trace's step of that number */
  for (int i = 1; i <= all; i++) {
    char a[256], b[256];
    if (step_head(cut, i, a, sizeof a)) {
      cr_assert(step_head(whole, i, b, sizeof b));
      cr_expect_str_eq(a, b);
    }
  }
  /* both end with the contradiction itself, and the text before the steps
   * is the same */
  cr_expect_str_eq(strrchr(cut, '.'), strrchr(whole, '.'));
  cr_expect_eq(cut - s.out, whole - w.out);
  cr_expect_eq(strncmp(s.out, w.out, (size_t)(cut - s.out)), 0);
  run_free(&s);
  run_free(&w);
  rm_dir(dir);
}

/* A pin outside the map says what a cell is (ROW,COL) and the ranges, and
 * the swapped cell when it is inside (issue: a designer's first hour). */
Test(words, a_pin_outside_says_row_col_and_the_ranges) {
  expect_cli_error("tilesat: --pin: cell (10,1) is outside the 12x4 map: a "
                   "cell is ROW,COL, rows 0-3 and columns 0-11 (did you mean "
                   "1,10?)\n",
                   "check", "rules/coast.rules", "--size", "12x4", "--pin",
                   "10,1=S");
  expect_cli_error("tilesat: --pin: cell (10,20) is outside the 12x4 map: a "
                   "cell is ROW,COL, rows 0-3 and columns 0-11\n",
                   "check", "rules/coast.rules", "--size", "12x4", "--pin",
                   "10,20=S");
}

/* --pins-from a level of another size than --size says to drop --size or
 * give the level's; several levels of different sizes, to give one size. */
Test(words, pins_from_of_another_size_says_what_to_give) {
  char *dir = temp_dir(), a[4096], b[4096], msg[10000];
  snprintf(a, sizeof a, "%s/level.txt", dir);
  snprintf(b, sizeof b, "%s/small.txt", dir);
  FILE *f = fopen(a, "w");
  cr_assert(f);
  fputs("S.......\n........\n........\n.......L\n", f);
  fclose(f);
  f = fopen(b, "w");
  cr_assert(f);
  fputs("S..\n...\n", f);
  fclose(f);
  snprintf(msg, sizeof msg,
           "tilesat: --pins-from: %s is 8x4, the map 5x5: drop --size (the "
           "map then takes the level's size) or give --size 8x4\n",
           a);
  expect_cli_error(msg, "check", "rules/coast.rules", "--pins-from", a,
                   "--size", "5x5");
  snprintf(msg, sizeof msg,
           "tilesat: --pins-from: %s is 3x2, the map 8x4 (the size of %s): "
           "give maps of one size\n",
           b, a);
  expect_cli_error(msg, "check", "rules/coast.rules", "--pins-from", a,
                   "--pins-from", b);
  rm_dir(dir);
}

/* A file that does not exist names the files of its folder near its name,
 * nearest first, with the folder as given; none near: no hint. */
Test(words, a_missing_file_names_a_near_one) {
  char *dir = temp_dir(), path[4096], msg[10000];
  const char *files[] = {"coast.rules", "coast-hex.rules", "dungeon8.txt",
                         "level-painted-by-hand-for-the-coast-of-the-north-"
                         "island.txt"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fclose(f);
  }
  snprintf(path, sizeof path, "%s/coasts.rules", dir);
  snprintf(msg, sizeof msg,
           "tilesat: %s: cannot open: No such file or directory (did you "
           "mean '%s/coast.rules' or '%s/coast-hex.rules'?)\n",
           path, dir, dir);
  expect_cli_error(msg, "check", path, "--size", "3x3");
  snprintf(path, sizeof path, "%s/dungen8.txt", dir);
  snprintf(msg, sizeof msg,
           "tilesat: %s: cannot open: No such file or directory (did you "
           "mean '%s/dungeon8.txt'?)\n",
           path, dir);
  expect_cli_error(msg, "verify", "rules/coast.rules", path);
  /* a long name whole: a path cut short would not be one */
  snprintf(path, sizeof path,
           "%s/level-painted-by-hand-for-the-coast-of-the-north-islnd.txt",
           dir);
  snprintf(msg, sizeof msg,
           "tilesat: %s: cannot open: No such file or directory (did you "
           "mean '%s/level-painted-by-hand-for-the-coast-of-the-north-"
           "island.txt'?)\n",
           path, dir);
  expect_cli_error(msg, "verify", "rules/coast.rules", path);
  snprintf(path, sizeof path, "%s/zzz.rules", dir);
  snprintf(msg, sizeof msg,
           "tilesat: %s: cannot open: No such file or directory\n", path);
  expect_cli_error(msg, "check", path, "--size", "3x3");
  rm_dir(dir);
}

/* --method exact names the exact methods: dp and enum for count, dp for
 * sample (enum draws none), cnf for check (every one answers exactly). */
Test(words, method_exact_names_the_exact_ones) {
  expect_cli_error("tilesat: --method: 'exact' is not auto, dp, enum, approx, "
                   "bounds, chain or estimate (did you mean 'dp' or 'enum'? "
                   "the exact ones)\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--method",
                   "exact");
  expect_cli_error("tilesat: --method: 'exact' is not auto, dp, enum, approx, "
                   "bounds, chain or estimate (did you mean 'dp'? the exact "
                   "one, exactly uniform)\n",
                   "sample", "rules/coast.rules", "--size", "3x3", "--method",
                   "exact");
  expect_cli_error("tilesat: --method: 'Exactly' is not auto, cnf or collapse "
                   "(did you mean 'cnf'? every method answers exactly; cnf is "
                   "the whole map's CNF alone)\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--method",
                   "Exactly");
}

/* A PNG's width and height, from its IHDR (0 0: unreadable). */
static void png_size(const char *path, unsigned *w, unsigned *h) {
  unsigned char b[24] = {0};
  FILE *f = fopen(path, "rb");
  *w = *h = 0;
  if (!f)
    return;
  if (fread(b, 1, sizeof b, f) == sizeof b) {
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 |
         b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 |
         b[23];
  }
  fclose(f);
}

/* Two clashing pins on Castle 1024x1024 (the designer's pass): explain
 * was refused ("needs about 71.1 GiB, more than --max-memory"), and its
 * --png before that (over 2^26 pixels), though check's windows find the
 * clash in a 5x5 window at once.  Now explain works within that window
 * and draws around the clash; here the whole map passes a --max-memory
 * of 100M on 40x40, the same path. */
Test(words, explain_past_max_memory_works_in_the_clash_window) {
  char *dir = temp_dir();
  char rules[512], png[512];
  snprintf(rules, sizeof rules, "%s/castle.rules", dir);
  snprintf(png, sizeof png, "%s/ex.png", dir);
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("explain", rules, "--size", "40x40", "--pin", "20,20=river 0",
          "--pin", "20,21=river 1", "--max-memory", "100M", "--png", png);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.err,
                   "tilesat: explain: the whole 40x40 map's solver would not "
                   "fit in --max-memory: explaining within the 5x5 window at "
                   "rows 18-22, columns 18-22 that refutes the pins\n"),
            "%s", r.err);
  cr_expect(strstr(r.out, "[1] (20,20) is pinned to \"river 0\"\n"), "%s",
            r.out);
  cr_expect(strstr(r.out, "rows 16 to 24, columns 16 to 25 of 40x40, around "
                          "the clash"),
            "%s", r.out);
  unsigned w, h;
  png_size(png, &w, &h);
  cr_expect(w > 0 && w < 40 * 16, "%ux%u: not cropped to the clash", w, h);
  run_free(&r);
  r = RUN("explain", rules, "--size", "40x40", "--pin", "20,20=river 0",
          "--pin", "20,21=river 1", "--max-memory", "100M", "--all");
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect(strstr(r.err, "explaining within the 5x5 window at rows 18-22, "
                          "columns 18-22 that refutes the pins\n"),
            "%s", r.err);
  cr_expect(strstr(r.out, "(20,21) is pinned to \"river 1\"\n"), "%s", r.out);
  run_free(&r);
  rm_dir(dir);
}

/* check on pins that clash said only which window had no filling (the
 * designer's pass), and with --png wrote nothing without a word: now it
 * names the pins and what says why, as collapse does, and says that no
 * picture was written (as sample and enum do). */
Test(words, check_unsat_names_the_pins_and_writes_no_picture) {
  char *dir = temp_dir();
  char png[512];
  snprintf(png, sizeof png, "%s/clash.png", dir);
  run_result a = RUN("check", "rules/coast.rules", "--size", "12x12", "--pin",
                     "5,5=S", "--pin", "5,6=L", "--png", png);
  cr_expect_eq(a.code, 20, "%s", a.err);
  cr_expect_str_eq(a.out, "UNSAT\n");
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: check: UNSAT: the pins (5,5)=S and (5,6)=L clash: no "
           "filling of the 5x5 window at rows 3-7, columns 3-7 keeps them; "
           "'tilesat explain' with the same options says why\n"
           "tilesat: --png: no map to draw: %s not written (tilesat explain "
           "says why there is none)\n",
           png);
  cr_expect_str_eq(a.err, want);
  cr_expect_eq(dir_entries(dir), 0, "check wrote a picture");
  run_free(&a);
  rm_dir(dir);
}

/* A failed run's picture on a large map was the whole map, mostly faded
 * (5376x5492 at 256x256; at 1024x1024 over 2^26 pixels: exit 1, no
 * answer): now it is drawn around the contradiction past 32x32, as explain
 * draws a clash (--whole: all of it); a guarded run that finds no map has
 * no wave to draw and says so, still UNSAT. */
Test(words, failed_collapse_picture_crops_to_the_clash) {
  char *dir = temp_dir();
  char png[512];
  snprintf(png, sizeof png, "%s/c.png", dir);
  unsigned w, h;
  run_result a = RUN("collapse", "rules/coast.rules", "--size", "40x40",
                     "--pin", "20,20=S", "--pin", "20,21=L", "--png", png);
  cr_expect_eq(a.code, 0, "%s", a.err);
  png_size(png, &w, &h);
  cr_expect(w > 0 && w < 40 * 16 && h < 40 * 16, "%ux%u: not cropped", w, h);
  run_free(&a);
  a = RUN("collapse", "rules/coast.rules", "--size", "40x40", "--pin",
          "20,20=S", "--pin", "20,21=L", "--png", png, "--whole");
  cr_expect_eq(a.code, 0, "%s", a.err);
  png_size(png, &w, &h);
  cr_expect(w >= 40 * 16 && h >= 40 * 16, "%ux%u: not whole", w, h);
  run_free(&a);
  remove(png);
  a = RUN("collapse", "rules/coast.rules", "--size", "40x40", "--pin",
          "20,20=S", "--pin", "21,21=L", "--guard", "modify", "-q", "--png",
          png);
  cr_expect_eq(a.code, 20, "%s", a.err);
  cr_expect_str_eq(a.out, "UNSAT\n");
  char want[640];
  snprintf(want, sizeof want,
           "tilesat: --png: no map to draw: %s not written (tilesat explain "
           "says why there is none)\n",
           png);
  cr_expect(strstr(a.err, want), "%s", a.err);
  cr_expect_eq(dir_entries(dir), 0, "a picture written");
  run_free(&a);
  rm_dir(dir);
}
