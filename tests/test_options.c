/* The option table (src/cli/options.h) through the real binary: every
 * number option parses one way, errors share one format, and --seed means
 * the same for every command that takes it. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* Run `cmd ARGS... OPT VALUE`, both as two words and as OPT=VALUE, and
 * expect exactly `want` on stderr and exit 1 from each. */
static void expect_option_error(const char *cmd, const char *opt,
                                const char *val, const char *want) {
  const char *args[3][3] = {{"rules/coast.txt", NULL, NULL},
                            {"rules/coast.rules", NULL, NULL},
                            {"rules/coast.rules", "--size", "3x3"}};
  int a = !strcmp(cmd, "extract") ? 0 : !strcmp(cmd, "analyze") ? 1 : 2;
  char joined[256];
  snprintf(joined, sizeof joined, "%s=%s", opt, val);
  for (int form = 0; form < 2; form++) {
    const char *argv[8] = {cmd};
    int n = 1;
    for (int i = 0; i < 3 && args[a][i]; i++)
      argv[n++] = args[a][i];
    argv[n++] = form ? joined : opt;
    if (!form)
      argv[n++] = val;
    run_result r = run_cli(argv);
    cr_expect_eq(r.code, 1, "%s %s '%s': exit %d", cmd, opt, val, r.code);
    cr_expect_str_eq(r.err, want, "%s %s '%s' (form %d)", cmd, opt, val, form);
    cr_expect_str_eq(r.out, "");
    run_free(&r);
  }
}

/* One format, "OPTION: 'VALUE' is not WHAT", for every kind of value. */
Test(options, errors_share_one_format) {
  struct {
    const char *cmd, *opt, *val, *what;
  } bad[] = {
      {"analyze", "--max", "0", "a whole number from 1 to 64"},
      {"analyze", "--max", "+8", "a whole number from 1 to 64"},
      {"anneal", "--sweeps", "1e3", "a whole number from 1 to 1000000000"},
      {"anneal", "--restarts", "1000001", "a whole number from 1 to 1000000"},
      {"anneal", "--replicas", " 2", "a whole number from 1 to 64"},
      {"enum", "--limit", "9223372036854775808",
       "a whole number from 1 to 2^63-1"},
      {"sample", "-n", "0x10", "a whole number from 1 to 1000000000"},
      {"extract", "--tile-size", "4097", "a whole number from 1 to 4096"},
      {"extract", "--pattern", "0", "a whole number from 1 to 8"},
      {"extract", "--symmetry", "9", "a whole number from 1 to 8"},
      {"count", "--epsilon", "inf", "a number above 0"},
      {"count", "--epsilon", "0", "a number above 0"},
      {"count", "--delta", "1", "a number between 0 and 1"},
      {"count", "--delta", "0.5x", "a number between 0 and 1"},
      {"count", "--max-memory", "0", "a size such as 512M or 4G"},
      {"count", "--max-memory", "99999999999999G", "a size such as 512M or 4G"},
      {"anneal", "--beta", "1:nan", "LO:HI with 0 < LO <= HI"},
      {"anneal", "--beta", "1:", "LO:HI with 0 < LO <= HI"},
      {"anneal", "--coherence", "1 L", "a number"},
      {"check", "--topology", "", "square or hex"},
      {"count", "--method", "dp2",
       "auto, dp, enum, approx, bounds, chain or estimate (did you mean "
       "'dp'?)"},
      {"encode", "--format", "json", "dimacs or props"},
      {"trace", "--format", "props", "text or json"},
      {"extract", "--empty", "none", "tile or exclude"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[256];
    snprintf(want, sizeof want, "tilesat: %s: '%s' is not %s\n", bad[i].opt,
             bad[i].val, bad[i].what);
    expect_option_error(bad[i].cmd, bad[i].opt, bad[i].val, want);
  }
}

/* count and sample used to take seeds up to 2^63-1 ("is not a whole
 * number" above), anneal up to 2^64-1: the library's seed is a uint64_t
 * everywhere, so every command takes 0..2^64-1. */
Test(options, seed_is_one_range_for_every_command) {
  const char *cmds[] = {"count", "sample", "anneal"};
  const char *bad[] = {"18446744073709551616", "-1", "+1", "1.0", ""};
  for (size_t c = 0; c < 3; c++)
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      char want[256];
      snprintf(want, sizeof want,
               "tilesat: --seed: '%s' is not a whole number from 0 to "
               "2^64-1\n",
               bad[i]);
      expect_option_error(cmds[c], "--seed", bad[i], want);
    }
  const char *good[] = {"0", "9223372036854775808", "18446744073709551615"};
  for (size_t i = 0; i < 3; i++) {
    run_result r = RUN("count", "rules/coast.rules", "--size", "2x2",
                       "--method", "approx", "--seed", good[i]);
    cr_expect_eq(r.code, 0, "count --seed %s: %s", good[i], r.err);
    cr_expect_str_eq(r.out, "approx: 10 (epsilon 0.8, delta 0.2)\n");
    run_free(&r);
    r = RUN("anneal", "rules/coast.rules", "--size", "4x4", "--sweeps", "50",
            "--seed", good[i]);
    cr_expect_eq(r.code, 0, "anneal --seed %s: %s", good[i], r.err);
    run_free(&r);
    /* the same seed, the same maps */
    run_result s[2];
    for (int k = 0; k < 2; k++) {
      s[k] = RUN("sample", "rules/coast.rules", "--size", "4x4", "-n", "3",
                 "--method", "approx", "--seed", good[i]);
      cr_expect_eq(s[k].code, 10, "sample --seed %s: %s", good[i], s[k].err);
    }
    cr_expect_str_eq(s[0].out, s[1].out);
    cr_expect_eq(strlen(s[0].out), 3 * (4 * 5 + 1));
    run_free(&s[0]);
    run_free(&s[1]);
  }
}

Test(options, both_value_forms) {
  run_result a = RUN("check", "rules/hard.rules", "--size", "2x2");
  run_result b = RUN("check", "rules/hard.rules", "--size=2x2");
  cr_expect_eq(a.code, 10);
  cr_expect_eq(b.code, 10);
  cr_expect_str_eq(a.out, "SAT\nKB\nSB\n");
  cr_expect_str_eq(b.out, a.out);
  run_free(&a);
  run_free(&b);
  a = RUN("enum", "rules/coast.rules", "--size", "2x2", "--limit=2");
  cr_expect_eq(a.code, 10);
  cr_expect(strstr(a.out, "maps: 2\n"), "%s", a.out);
  run_free(&a);
  /* a value that starts with '-' is still the option's value */
  expect_cli_error("tilesat: --max: '-3' is not a whole number from 1 to 64\n",
                   "analyze", "rules/coast.rules", "--max", "-3");
  expect_cli_error("tilesat: option '--periodic' takes no value\n", "check",
                   "rules/coast.rules", "--size", "2x2", "--periodic=yes");
}

/* Found by the bad-input audit (issue 20): an option of one value given
 * twice kept the last and dropped the first without a word (two
 * --constraints printed a map breaking the first file's).  Now, for every
 * option of every command whose --help does not say "repeatable", an
 * error before any value is read; a flag twice is still the flag. */
Test(options, a_value_given_twice_is_an_error) {
  const char *cmds[] = {"extract", "import-tileset", "encode", "check",
                        "enum",    "count",          "sample", "sum",
                        "explain", "repair",         "trace",  "analyze",
                        "anneal",  "collapse",       "verify", "run-samples"};
  int once = 0, repeatable = 0;
  char tried[4096] = " "; /* each option once, with the first command */
  for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
    run_result h = RUN(cmds[c], "--help");
    cr_assert_eq(h.code, 0, "%s --help", cmds[c]);
    for (char *line = strtok(h.out, "\n"); line; line = strtok(NULL, "\n")) {
      char name[64];
      /* "  --name METAVAR   help": one space between name and metavar */
      if (strncmp(line, "  -", 3) || sscanf(line + 2, "%63s", name) != 1)
        continue;
      const char *after = line + 2 + strlen(name);
      char key[80];
      snprintf(key, sizeof key, " %s ", name);
      if (after[0] != ' ' || after[1] == ' ' || strstr(tried, key))
        continue; /* a flag, or tried */
      snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s ",
               name);
      const char *args[] = {cmds[c], name, "x", name, "x", NULL};
      run_result r = run_cli(args);
      char want[128];
      snprintf(want, sizeof want,
               "tilesat: %s given twice (it takes one value)\n", name);
      if (strstr(line, "repeatable")) {
        cr_expect_str_neq(r.err, want, "%s %s", cmds[c], name);
        repeatable++;
      } else {
        cr_expect_eq(r.code, 1, "%s %s x %s x: exit %d", cmds[c], name, name,
                     r.code);
        cr_expect_str_eq(r.err, want, "%s %s", cmds[c], name);
        cr_expect_str_eq(r.out, "");
        once++;
      }
      run_free(&r);
    }
    run_free(&h);
  }
  /* the table has dozens of these (not a help format the loop misread) */
  cr_expect_gt(once, 50, "%d", once);
  cr_expect_gt(repeatable, 8, "%d", repeatable);
  /* the --name=VALUE form too, and flags twice */
  expect_cli_error("tilesat: --limit given twice (it takes one value)\n",
                   "enum", "rules/coast.rules", "--size", "2x2", "--limit", "1",
                   "--limit=2");
  run_result r = RUN("check", "rules/coast.rules", "--size", "2x2",
                     "--periodic", "--periodic");
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
}

/* Found by the bad-input audit (issue 20): two --constraints or two
 * --pins-from kept only the last.  Every constraints file applies, and
 * the pins of several maps add up (two on one cell: UNSAT, as --pin). */
Test(options, repeated_constraints_and_pins_from_add_up) {
  char *no_sea = temp_file("tilesat-constraints 1\ncount S = 0\n", -1);
  char *no_land = temp_file("tilesat-constraints 1\ncount L = 0\n", -1);
  char *few_coast = temp_file("tilesat-constraints 1\ncount C <= 9\n", -1);
  /* each alone has a map; no sea and no land together none (coast needs
   * land north of it) */
  const char *one[] = {no_sea, no_land, few_coast};
  for (int i = 0; i < 3; i++) {
    run_result r = RUN("check", "rules/coast.rules", "--size", "3x3",
                       "--constraints", one[i]);
    cr_expect_eq(r.code, 10, "%s: %s", one[i], r.err);
    run_free(&r);
  }
  run_result r = RUN("check", "rules/coast.rules", "--size", "3x3",
                     "--constraints", no_sea, "--constraints", no_land);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  /* the witness keeps both files, as verify (which takes both too) says */
  r = RUN("check", "rules/coast.rules", "--size", "3x3", "--constraints",
          no_sea, "--constraints", few_coast);
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_expect_null(strchr(r.out + 4, 'S'), "%s", r.out);
  char *map = temp_file(r.out + 4, -1); /* past "SAT\n" */
  run_free(&r);
  for (int i = 0; i < 3; i++) {
    r = RUN("verify", "rules/coast.rules", map, "--constraints", one[i]);
    cr_expect_eq(r.code, i == 1 ? 20 : 10, "%s: %s", one[i], r.out);
    run_free(&r);
  }
  r = RUN("verify", "rules/coast.rules", map, "--constraints", few_coast,
          "--constraints", no_land);
  cr_expect_eq(r.code, 20, "%s", r.out);
  run_free(&r);
  /* pins from two half-painted maps: sea at one corner, land at the other
   * clash (test_collapse.c, pins_from), each alone has a map */
  char *sea = temp_file("S...\n....\n....\n", -1);
  char *land = temp_file("....\n....\n...L\n", -1);
  char *land00 = temp_file("L...\n....\n....\n", -1);
  const char *painted[] = {sea, land, land00};
  for (int i = 0; i < 3; i++) {
    r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from",
            painted[i]);
    cr_expect_eq(r.code, 10, "%s: %s", painted[i], r.err);
    run_free(&r);
  }
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from", sea,
          "--pins-from", land);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out, "UNSAT\n");
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from", sea,
          "--pins-from", land00); /* (0,0) pinned to S and to L */
  cr_expect_eq(r.code, 20, "%s", r.err);
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--pins-from", sea,
          "--pins-from", sea);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_eq(r.out[4], 'S', "%s", r.out);
  run_free(&r);
  /* each is an input: an output over it is refused, as over the rules */
  char msg[4200];
  snprintf(msg, sizeof msg,
           "tilesat: --png: %s is also the --pins-from file; refusing to "
           "overwrite an input\n",
           land);
  expect_cli_error(msg, "check", "rules/coast.rules", "--size", "4x3",
                   "--pins-from", sea, "--pins-from", land, "--png", land);
  snprintf(msg, sizeof msg,
           "tilesat: --png: %s is also the --constraints file; refusing to "
           "overwrite an input\n",
           no_land);
  expect_cli_error(msg, "check", "rules/coast.rules", "--size", "3x3",
                   "--constraints", no_sea, "--constraints", no_land, "--png",
                   no_land);
  char *made[] = {no_sea, no_land, few_coast, map, sea, land, land00};
  for (int i = 0; i < 7; i++) {
    remove(made[i]);
    free(made[i]);
  }
}

/* Which error comes first: unknown options and missing values (the words
 * alone) before any value is checked; --help before both values and the
 * command's own checks. */
Test(options, what_is_said_first) {
  expect_cli_error("tilesat: unknown option '--sise' for 'count': did you "
                   "mean '--size'? (see 'tilesat count --help')\n",
                   "count", "rules/coast.rules", "--seed", "x", "--sise", "3");
  expect_cli_error("tilesat: option '--seed' needs a value (S)\n", "count",
                   "rules/coast.rules", "--max-memory", "lots", "--seed");
  run_result r = RUN("check", "--size", "0x4", "--help", "--backend", "x");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "usage: tilesat check RULES --size WxH"), "%s",
            r.out);
  cr_expect_str_eq(r.err, "");
  run_free(&r);
  r = RUN("anneal", "-h");
  cr_expect_eq(r.code, 0);
  cr_expect(strstr(r.out, "usage: tilesat anneal "), "%s", r.out);
  run_free(&r);
}

/* Found in review: two choices joined by '|' were taken as one (and
 * --heuristic's then silently fell back to entropy); hexadecimal and
 * vertical-tab-led numbers passed as decimals. */
Test(options, only_one_word_of_a_choice_and_plain_decimals) {
  expect_cli_error("tilesat: --topology: 'square|hex' is not square or hex\n",
                   "encode", "rules/coast.rules", "--size", "2x2", "--topology",
                   "square|hex");
  expect_cli_error(
      "tilesat: --heuristic: 'mrv|scanline' is not entropy, mrv or scanline\n",
      "collapse", "rules/coast.rules", "--size", "2x2", "--heuristic",
      "mrv|scanline");
  expect_cli_error(
      "tilesat: --beta: '0x1:0x2' is not LO:HI with 0 < LO <= HI\n", "anneal",
      "rules/coast.rules", "--size", "2x2", "--beta", "0x1:0x2");
  /* a control character in the value is shown, not sent to the terminal */
  expect_cli_error("tilesat: --epsilon: '\\x0b2' is not a number above 0\n",
                   "count", "rules/coast.rules", "--size", "2x2", "--epsilon",
                   "\v2");
}
