/* The tilesat command line, end to end: outputs, exit codes, errors. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Test(cli, check_sat_prints_a_witness_that_reads_back) {
  for (int i = 0; i < NBACKENDS; i++) {
    run_result r =
        RUN("check", "rules/hard.rules", "--size", "2x2", "--backend",
            tilesat_backend_name(backends[i]), "--method", "cnf");
    cr_expect_eq(r.code, 10);
    cr_expect_str_eq(r.out, "SAT\nKB\nSB\n");
    cr_expect_str_eq(r.err, "");
    run_free(&r);
  }
  /* the witness grid is a sample: extract reads it back */
  run_result r =
      RUN("check", "rules/coast.rules", "--size", "7x5", "--pin", "4,6=S");
  cr_assert_eq(r.code, 10);
  cr_assert_eq(strncmp(r.out, "SAT\n", 4), 0);
  char *grid = temp_file(r.out + 4, -1);
  run_result e = RUN("extract", grid);
  cr_expect_eq(e.code, 0, "%s", e.err);
  cr_expect(strstr(e.out, "tilesat-rules 1\n"));
  run_free(&e);
  run_free(&r);
  remove(grid);
  free(grid);
}

Test(cli, check_unsat) {
  for (int i = 0; i < NBACKENDS; i++) {
    run_result r =
        RUN("check", "rules/hard.rules", "--size", "3x3", "--backend",
            tilesat_backend_name(backends[i]), "--method", "cnf");
    cr_expect_eq(r.code, 20);
    cr_expect_str_eq(r.out, "UNSAT\n");
    run_free(&r);
  }
}

Test(cli, enum_prints_every_map_then_the_count) {
  run_result r = RUN("enum", "rules/coast.rules", "--size", "1x2");
  cr_expect_eq(r.code, 10);
  /* the order is the solver's; check the set */
  const char *maps[] = {"L\nL\n\n", "L\nC\n\n", "C\nS\n\n", "S\nS\n\n"};
  for (int i = 0; i < 4; i++)
    cr_expect(strstr(r.out, maps[i]), "missing map %s", maps[i]);
  size_t n = strlen(r.out);
  cr_expect(n > 8 && !strcmp(r.out + n - 8, "maps: 4\n"), "%s", r.out);
  cr_expect_eq(n, 4 * 5 + 8);
  run_free(&r);
  r = RUN("enum", "rules/coast.rules", "--size", "3x3", "--pin", "2,2=L",
          "--backend", "cryptominisat");
  cr_expect_eq(r.code, 10);
  cr_expect(strstr(r.out, "maps: 5\n"));
  run_free(&r);
  r = RUN("enum", "rules/hard.rules", "--size", "3x1");
  cr_expect_eq(r.code, 20);
  cr_expect_str_eq(r.out, "maps: 0\n");
  run_free(&r);
  r = RUN("enum", "rules/coast.rules", "--size", "4x4", "--limit", "3");
  cr_expect_eq(r.code, 10);
  cr_expect(strstr(r.out, "maps: 3\n"));
  run_free(&r);
}

Test(cli, extract_writes_the_committed_rules) {
  const char *pairs[][2] = {{"rules/coast.txt", "rules/coast.rules"},
                            {"rules/hard.txt", "rules/hard.rules"}};
  for (int i = 0; i < 2; i++) {
    run_result r = RUN("extract", pairs[i][0]);
    cr_assert_eq(r.code, 0, "%s", r.err);
    char *want = slurp(pairs[i][1]);
    cr_expect_str_eq(r.out, want);
    free(want);
    run_free(&r);
  }
  char *out = temp_file("", 0);
  run_result r =
      RUN("extract", "rules/coast.txt", "--topology", "hex", "-o", out);
  cr_assert_eq(r.code, 0);
  cr_expect_str_eq(r.out, "");
  char *got = slurp(out), *want = slurp("rules/coast-hex.rules");
  cr_expect_str_eq(got, want);
  free(got);
  free(want);
  run_free(&r);
  remove(out);
  free(out);
}

Test(cli, help_and_version) {
  run_result r = RUN("--help");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "usage: tilesat COMMAND"));
  run_free(&r);
  r = RUN("check", "--help");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "--backend picosat|cryptominisat"));
  cr_expect(strstr(r.out, "--pin ROW,COL=TILE"));
  run_free(&r);
  /* every command listed answers --help with its own usage */
  const char *cmds[] = {"extract", "import-tileset", "encode", "check",
                        "enum",    "count",          "sample", "explain",
                        "trace",   "analyze",        "anneal"};
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    run_result h = RUN(cmds[i], "--help");
    char want[64];
    snprintf(want, sizeof want, "usage: tilesat %s ", cmds[i]);
    cr_expect_eq(h.code, 0, "%s --help: exit %d", cmds[i], h.code);
    cr_expect(strstr(h.out, want), "%s --help: %s", cmds[i], h.out);
    cr_expect(strstr(h.out, "--help"), "%s --help lists --help", cmds[i]);
    run_free(&h);
  }
  r = RUN("--version");
  cr_expect_eq(r.code, 0);
  cr_expect_str_eq(r.out, "tilesat " TILESAT_VERSION "\n");
  run_free(&r);
}

Test(cli, errors) {
  char *ragged = temp_file("LLL\nLL\n", -1);
  char *empty = temp_file("", -1);
  char *badutf = temp_file("LL\nL\xff\n", -1);
  char *cut = temp_file("tilesat-rules 1\ntile L\nallow L", -1);
  char *notrules = temp_file("LLC\nCSS\n", -1);
  char msg[512];
  snprintf(msg, sizeof msg,
           "tilesat: %s:2: ragged grid: row has 2 tiles, the rows above have "
           "3\n",
           ragged);
  expect_cli_error(msg, "extract", ragged);
  snprintf(msg, sizeof msg, "tilesat: %s: empty sample: no rows\n", empty);
  expect_cli_error(msg, "extract", "rules/coast.txt", empty);
  snprintf(msg, sizeof msg, "tilesat: %s:2: invalid UTF-8 (byte 0xff)\n",
           badutf);
  expect_cli_error(msg, "extract", badutf);
  snprintf(msg, sizeof msg,
           "tilesat: %s:3: expected 'allow TILE DIR TILE...'\n", cut);
  expect_cli_error(msg, "check", cut, "--size", "2x2");
  snprintf(msg, sizeof msg,
           "tilesat: %s:1: not a rules file: the first line must be "
           "'tilesat-rules 1'\n",
           notrules);
  expect_cli_error(msg, "check", notrules, "--size", "2x2");
  expect_cli_error(
      "tilesat: /nonexistent.rules: cannot open: No such file or directory\n",
      "check", "/nonexistent.rules", "--size", "2x2");
  expect_cli_error("tilesat: --pin: unknown tile 'X' (the tiles are 'L', 'C' "
                   "and 'S')\n",
                   "check", "rules/coast.rules", "--size", "3x3", "--pin",
                   "0,0=X");
  expect_cli_error(
      "tilesat: --pin: cell (0,3) is outside the 3x3 map: a cell is "
      "ROW,COL, rows 0-2 and columns 0-2\n",
      "enum", "rules/coast.rules", "--size", "3x3", "--pin", "0,3=L");
  expect_cli_error(
      "tilesat: --size: '0x4': width and height must be positive\n", "check",
      "rules/coast.rules", "--size", "0x4");
  expect_cli_error(
      "tilesat: --size: '-2x4' is not WIDTHxHEIGHT with whole numbers that "
      "fit an int (e.g. 10x8)\n",
      "check", "rules/coast.rules", "--size", "-2x4");
  expect_cli_error(
      "tilesat: --size: '4294967297x1' is not WIDTHxHEIGHT with whole "
      "numbers that fit an int (e.g. 10x8)\n",
      "check", "rules/coast.rules", "--size", "4294967297x1");
  expect_cli_error(
      "tilesat: --size: 65536x65536 with 3 tiles is too large (at most "
      "268435456 cells times tiles)\n",
      "encode", "rules/coast.rules", "--size", "65536x65536");
  expect_cli_error("tilesat: check: missing --size WxH (or "
                   "--pins-from MAP, whose size it takes)\n",
                   "check", "rules/coast.rules");
  expect_cli_error(
      "tilesat: unknown option '--sise' for 'check': did you mean '--size'? "
      "(see 'tilesat check --help')\n",
      "check", "rules/coast.rules", "--sise", "3x3");
  expect_cli_error(
      "tilesat: unknown option '--limit' for 'check': it is an option of "
      "enum, explain and repair (see 'tilesat check --help')\n",
      "check", "rules/coast.rules", "--size", "3x3", "--limit", "3");
  expect_cli_error("tilesat: option '--size' needs a value (WxH)\n", "check",
                   "rules/coast.rules", "--size");
  expect_cli_error("tilesat: unknown command 'solve' (see 'tilesat --help')\n",
                   "solve");
  expect_cli_error("tilesat: --backend: 'minisat' is not picosat, "
                   "cryptominisat, cadical or auto\n",
                   "check", "rules/coast.rules", "--size", "2x2", "--backend",
                   "minisat");
  expect_cli_error("tilesat: --topology: 'tri' is not square or hex\n", "check",
                   "rules/coast.rules", "--size", "2x2", "--topology", "tri");
  expect_cli_error(
      "tilesat: --topology: the rules are for a square grid and cannot be "
      "used on a hex grid\n",
      "check", "rules/coast.rules", "--size", "2x2", "--topology", "hex");
  expect_cli_error(
      "tilesat: --limit: '0' is not a whole number from 1 to 2^63-1\n", "enum",
      "rules/coast.rules", "--size", "2x2", "--limit", "0");
  expect_cli_error("tilesat: --format: 'xml' is not dimacs or props\n",
                   "encode", "rules/coast.rules", "--size", "2x2", "--format",
                   "xml");
  expect_cli_error(
      "tilesat: extract: no sample (see 'tilesat extract --help')\n",
      "extract");
  expect_cli_error(
      "tilesat: check takes one rules file (see 'tilesat check --help')\n",
      "check", "rules/coast.rules", "rules/hard.rules", "--size", "2x2");
  expect_cli_error(
      "tilesat: /nonexistent/dir/x.rules: cannot open for writing: No such "
      "file or directory\n",
      "extract", "rules/coast.txt", "-o", "/nonexistent/dir/x.rules");
  char *odd = temp_file("ab\ncd\nef\n", -1);
  snprintf(msg, sizeof msg,
           "tilesat: %s: a periodic hex sample needs an even number of rows "
           "(odd-r rows alternate), this one has 3\n",
           odd);
  expect_cli_error(msg, "extract", odd, "--topology", "hex",
                   "--periodic-input");
  expect_cli_error(
      "tilesat: --periodic: a periodic hex map needs an even height (odd-r "
      "rows alternate), not 3\n",
      "check", "rules/coast-hex.rules", "--size", "4x3", "--periodic");
  char *files[] = {ragged, empty, badutf, cut, notrules, odd};
  for (int i = 0; i < 6; i++) {
    remove(files[i]);
    free(files[i]);
  }
  run_result r = run_cli((const char *const[]){NULL});
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "usage: tilesat COMMAND"));
  run_free(&r);
}

/* A --pictures file that cannot be read is refused before the answer is
 * printed (check used to print SAT and the map, then fail). */
Test(cli, unreadable_pictures_refused_before_any_answer) {
  expect_cli_error(
      "tilesat: tests/data/no-such.pictures: cannot open: No such file or "
      "directory\n",
      "check", "rules/coast.rules", "--size", "2x2", "--pictures",
      "tests/data/no-such.pictures");
}
