/* Names a user mistyped: "did you mean" for commands, options and tiles,
 * and the tile names listed (all when few, else the nearest), through one
 * helper (tilesat_suggest). */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* Castle's 29 oriented tiles ("tower 0".."tower 3", "t 0".."t 3", ...)
 * as a rules file (a temporary, removed at exit). */
static char *castle_rules(void) {
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(
      "tests/data/wfc/tilesets/Castle.xml", NULL, NULL, &err);
  cr_assert(r, "%s", err.msg);
  char *path = temp_file("", 0);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  cr_assert_eq(tilesat_rules_write(r, f), 0);
  cr_assert_eq(fclose(f), 0);
  tilesat_rules_free(r);
  return path;
}

Test(names, unknown_command_did_you_mean) {
  expect_cli_error("tilesat: unknown command 'chek': did you mean 'check'? "
                   "(see 'tilesat --help')\n",
                   "chek");
  expect_cli_error("tilesat: unknown command 'colapse': did you mean "
                   "'collapse'? (see 'tilesat --help')\n",
                   "colapse", "rules/coast.rules");
  /* a swap of neighbours is one edit */
  expect_cli_error("tilesat: unknown command 'cehck': did you mean 'check'? "
                   "(see 'tilesat --help')\n",
                   "cehck");
  /* the beginning of several */
  expect_cli_error("tilesat: unknown command 'co': did you mean 'count' or "
                   "'collapse'? (see 'tilesat --help')\n",
                   "co");
  /* nothing near: no guess */
  expect_cli_error("tilesat: unknown command 'solve' (see 'tilesat --help')\n",
                   "solve");
}

Test(names, unknown_option_did_you_mean) {
  expect_cli_error("tilesat: unknown option '--sise' for 'check': did you "
                   "mean '--size'? (see 'tilesat check --help')\n",
                   "check", "rules/coast.rules", "--sise", "3x3");
  /* the same mistake in --name=VALUE form */
  expect_cli_error("tilesat: unknown option '--sise' for 'check': did you "
                   "mean '--size'? (see 'tilesat check --help')\n",
                   "check", "rules/coast.rules", "--sise=3x3");
  /* collapse has both --size and --sizes */
  expect_cli_error("tilesat: unknown option '--sise' for 'collapse': did you "
                   "mean '--size' or '--sizes'? (see 'tilesat collapse "
                   "--help')\n",
                   "collapse", "rules/coast.rules", "--sise", "3x3");
  /* nothing near, but another command's option */
  expect_cli_error("tilesat: unknown option '--limit' for 'check': it is an "
                   "option of enum, explain and repair (see 'tilesat check "
                   "--help')\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--limit",
                   "3");
  expect_cli_error("tilesat: unknown option '--bogus' for 'check' (see "
                   "'tilesat check --help')\n",
                   "check", "rules/coast.rules", "--bogus");
}

Test(names, unknown_tile_lists_the_tiles) {
  char *castle = castle_rules();
  /* the beginning of a name with spaces: every tile it begins */
  expect_cli_error("tilesat: --pin: unknown tile 'tower' (did you mean "
                   "'tower 0', 'tower 1', 'tower 2' or 'tower 3'?)\n",
                   "check", castle, "--size", "20x20", "--pin", "10,10=tower");
  /* a typo: the nearest first */
  expect_cli_error("tilesat: --pin: unknown tile 'towr 1' (did you mean "
                   "'tower 1', 'tower 0', 'tower 2' or 'tower 3'?)\n",
                   "check", castle, "--size", "20x20", "--pin", "10,10=towr 1");
  /* "t" begins 't 0'..'t 3' and 'tower 0'..'tower 3': the nearer four */
  expect_cli_error("tilesat: --choose: unknown tile 't' (did you mean 't 0', "
                   "'t 1', 't 2' or 't 3'?)\n",
                   "trace", castle, "--size", "20x20", "--choose", "1,1=t");
  /* nothing near among many: the nearest five of them */
  expect_cli_error("tilesat: --pin: unknown tile 'xyzzy' (the nearest of the "
                   "29 tiles are 't 0', 't 1', 't 2', 't 3' and 'road 0')\n",
                   "check", castle, "--size", "20x20", "--pin", "10,10=xyzzy");
  /* nothing near among few: all of them */
  expect_cli_error("tilesat: --pin: unknown tile 'X' (the tiles are 'L', 'C' "
                   "and 'S')\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--pin",
                   "0,0=X");
  /* letters without case */
  expect_cli_error("tilesat: --pin: unknown tile 'l' (did you mean 'L'?)\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--pin",
                   "0,0=l");
  /* the rules file's quotes */
  expect_cli_error("tilesat: --pin: unknown tile '\"tower 0\"' (without the "
                   "rules file's quotes: --pin '10,10=tower 0')\n",
                   "check", castle, "--size", "20x20", "--pin",
                   "10,10=\"tower 0\"");
  /* the shell split the name: its second word is an argument */
  expect_cli_error("tilesat: check takes one rules file: '0' after --pin "
                   "'10,10=tower' is another argument (quote a tile name with "
                   "spaces whole: --pin '10,10=tower 0')\n",
                   "check", castle, "--size", "20x20", "--pin", "10,10=tower",
                   "0");
  /* quoted whole, it is found */
  run_result r = RUN("check", castle, "--size", "6x6", "--pin", "2,2=tower 0",
                     "--method", "cnf");
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  free(castle);
}

/* Files name the tile that is near too, at its line. */
Test(names, unknown_tile_in_files) {
  tilesat_error err;
  const char *text = "tilesat-rules 1\ntile grass\ntile water\n"
                     "allow grass N watr\n";
  cr_expect_null(tilesat_rules_parse(text, strlen(text), "r.rules", &err));
  cr_expect_str_eq(err.msg,
                   "r.rules:4: unknown tile 'watr' (did you mean 'water'?)");
  tilesat_rules *r = rules_from_file("rules/coast.rules");
  tilesat_map *m = map_new(r, 3, 3, TILESAT_SQUARE, false);
  cr_expect_neq(tilesat_map_constraint_add(m, TILESAT_GLOBAL_COUNT, "s<=2",
                                           "--count", &err),
                0);
  cr_expect_str_eq(err.msg, "--count: unknown tile or class 's' (did you mean "
                            "'S'?)");
  /* the hint the command line's own messages append (verify's) */
  char hint[512];
  cr_expect_eq(tilesat_rules_tile_hint(r, "c", hint, sizeof hint),
               strlen(" (did you mean 'C'?)"));
  cr_expect_str_eq(hint, " (did you mean 'C'?)");
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* The helper itself: groups of equal distance kept whole, long names cut,
 * a small buffer cut cleanly. */
Test(names, suggest_helper) {
  char buf[512];
  const char *nine[] = {"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b"};
  cr_expect_eq(tilesat_suggest("a", nine, 9, NULL, buf, sizeof buf),
               strlen(buf));
  cr_expect_str_eq(buf, "did you mean 'a1', 'a2', 'a3', 'a4', 'a5' or 'a6'? "
                        "(and 2 more)");
  const char *one[] = {"only"};
  cr_expect_eq(tilesat_suggest("zzz", one, 1, NULL, buf, sizeof buf), 0);
  cr_expect_str_eq(buf, "");
  tilesat_suggest("zzz", one, 1, "tiles", buf, sizeof buf);
  cr_expect_str_eq(buf, "the only tile is 'only'");
  char longname[100];
  memset(longname, 'x', 99);
  longname[99] = 0;
  const char *lng[] = {longname};
  tilesat_suggest("xxxxxxxxxxxxxxxxxxxx", lng, 1, NULL, buf, sizeof buf);
  cr_expect_str_eq(buf, "did you mean "
                        "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
                        "'?");
  char small[16];
  tilesat_suggest("chek", (const char *[]){"check"}, 1, NULL, small,
                  sizeof small);
  cr_expect_str_eq(small, "did you mean 'c"); /* 15 bytes and the NUL */
}

/* A choice's value mistyped: its choices, and the one near. */
Test(names, choice_did_you_mean) {
  expect_cli_error("tilesat: --guard: 'atuo' is not none, sat, blocks, auto or "
                   "modify (did you mean 'auto'?)\n",
                   "collapse", "rules/coast.rules", "--size", "3x3", "--guard",
                   "atuo");
  expect_cli_error("tilesat: --heuristic: 'MRV' is not entropy, mrv or "
                   "scanline (did you mean 'mrv'?)\n",
                   "collapse", "rules/coast.rules", "--size", "3x3",
                   "--heuristic", "MRV");
  expect_cli_error("tilesat: --guard: 'maybe' is not none, sat, blocks, auto "
                   "or modify\n",
                   "collapse", "rules/coast.rules", "--size", "3x3", "--guard",
                   "maybe");
}
