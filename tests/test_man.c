/* The man page (tilesat --man, made from the command and option tables)
 * against what the binary's --help says, and rendered by groff. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

/* The command names of `tilesat --help`, NULL-terminated (malloc'd; the
 * names point into `help`, which is cut into lines). */
static char **help_commands(char *help) {
  char **names = calloc(64, sizeof *names);
  char *p = strstr(help, "commands:\n");
  cr_assert(p, "%s", help);
  int n = 0;
  for (p = strchr(p, '\n') + 1; p[0] == ' ' && p[1] == ' ' && n < 63;) {
    char *end = strchr(p + 2, ' '), *next = strchr(p, '\n');
    *end = 0;
    names[n++] = p + 2;
    p = next + 1;
  }
  return names;
}

/* Each option line of `tilesat CMD --help` ("  --size WxH   help") must be
 * an entry of the man page's OPTIONS (name, metavar, help) and a word of
 * the command's "Options:" line. */
static void expect_command_in_man(const char *man, const char *cmd) {
  char head[64];
  snprintf(head, sizeof head, ".TP\n\\fB%s\\fR ", cmd);
  const char *entry = strstr(man, head);
  cr_assert(entry, "man page has no entry for %s", cmd);
  const char *opts = strstr(entry, "\nOptions: ");
  cr_assert(opts);
  const char *opts_end = strchr(opts + 1, '\n');
  run_result h = RUN(cmd, "--help");
  cr_assert_eq(h.code, 0);
  int listed = 0;
  for (char *line = strtok(h.out, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "  -", 3))
      continue;
    char *gap = strstr(line + 2, "  ");
    cr_assert(gap, "%s", line);
    char *help = gap + 2;
    *gap = 0;
    while (*help == ' ')
      help++;
    char *sp = strchr(line + 2, ' ');
    const char *metavar = sp ? sp + 1 : NULL;
    if (sp)
      *sp = 0;
    char want[512], word[64];
    snprintf(want, sizeof want, ".TP\n\\fB%s\\fR%s%s%s\n%s\n", line + 2,
             metavar ? " \\fI" : "", metavar ? metavar : "",
             metavar ? "\\fR" : "", help);
    cr_expect(strstr(man, want), "%s: no man entry\n%s", cmd, want);
    snprintf(word, sizeof word, " %s", line + 2);
    const char *w = strstr(opts, word);
    size_t len = strlen(word);
    while (w && w < opts_end && w[len] != ',' && w[len] != '.')
      w = strstr(w + 1, word);
    cr_expect(w && w < opts_end, "%s: %s missing from %.*s", cmd, line + 2,
              (int)(opts_end - opts), opts);
    listed++;
  }
  /* and nothing more: one comma fewer than the options */
  int commas = 0;
  for (const char *c = opts; c < opts_end; c++)
    commas += *c == ',';
  cr_expect_eq(commas + 1, listed, "%s: %.*s", cmd, (int)(opts_end - opts),
               opts);
  run_free(&h);
}

Test(man, lists_every_command_and_option_of_help) {
  run_result m = RUN("--man");
  cr_assert_eq(m.code, 0, "%s", m.err);
  cr_expect_str_eq(m.err, "");
  cr_expect(!strncmp(m.out, ".TH TILESAT 1 ", 14), "%.40s", m.out);
  char *man = unroff(m.out);
  run_result h = RUN("--help");
  char **cmds = help_commands(h.out);
  int n = 0;
  for (; cmds[n]; n++)
    expect_command_in_man(man, cmds[n]);
  cr_expect_eq(n, 18);
  /* hidden: --man is for make, not a command line users type */
  cr_expect_null(strstr(h.out, "--man"));
  free(cmds);
  free(man);
  run_free(&h);
  run_free(&m);
}

Test(man, renders_without_warnings) {
  if (system("command -v groff >/dev/null 2>&1"))
    cr_skip_test("groff is not installed");
  run_result m = RUN("--man");
  cr_assert_eq(m.code, 0);
  char *page = temp_file(m.out, -1), *err = temp_file("", 0);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "groff -man -Tutf8 -ww -z %s 2>%s", page, err);
  cr_expect_eq(system(cmd), 0);
  char *warnings = slurp(err);
  cr_expect_str_eq(warnings, "");
  free(warnings);
  remove(page);
  remove(err);
  free(page);
  free(err);
  run_free(&m);
}

/* tilesat-COMMAND(1) for every command: its NAME line is the summary, its
 * OPTIONS exactly the lines of `COMMAND --help`, in order; it has
 * examples and exit codes; groff reads it without a warning; and `tilesat
 * help COMMAND` prints the same usage, options and examples as text. */
Test(man, a_page_per_command_lists_its_help) {
  bool groff = !system("command -v groff >/dev/null 2>&1");
  run_result h = RUN("--help");
  char **cmds = help_commands(h.out);
  int n = 0;
  for (; cmds[n]; n++) {
    const char *cmd = cmds[n];
    run_result m = RUN("--man", cmd);
    cr_assert_eq(m.code, 0, "%s: %s", cmd, m.err);
    char *man = unroff(m.out);
    char head[128];
    snprintf(head, sizeof head, ".SH NAME\ntilesat-%s - ", cmd);
    cr_expect(strstr(man, head), "%s", man);
    cr_expect(strstr(man, "\n.SH EXAMPLES\n.nf\ntilesat "), "%s", cmd);
    cr_expect(strstr(man, "\n.SH EXIT STATUS\n"), "%s", cmd);
    /* OPTIONS: the --help lines, in order, nothing more */
    run_result o = RUN(cmd, "--help");
    const char *at = strstr(man, "\n.SH OPTIONS\n");
    cr_assert(at, "%s", cmd);
    int listed = 0;
    for (char *line = strtok(o.out, "\n"); line; line = strtok(NULL, "\n")) {
      if (strncmp(line, "  -", 3))
        continue;
      char *gap = strstr(line + 2, "  ");
      char *help = gap + 2;
      *gap = 0;
      while (*help == ' ')
        help++;
      char *sp = strchr(line + 2, ' ');
      if (sp)
        *sp = 0;
      char want[1024];
      snprintf(want, sizeof want, ".TP\n\\fB%s\\fR%s%s%s\n%s\n", line + 2,
               sp ? " \\fI" : "", sp ? sp + 1 : "", sp ? "\\fR" : "", help);
      const char *next = strstr(at, want);
      cr_expect(next, "%s: no entry in order\n%s", cmd, want);
      if (next)
        at = next + strlen(want);
      listed++;
    }
    int entries = 0;
    const char *end = strstr(man, "\n.SH EXAMPLES");
    for (const char *p = strstr(man, "\n.SH OPTIONS\n");
         (p = strstr(p + 1, "\n.TP\n")) && p < end;)
      entries++;
    cr_expect_eq(entries, listed, "%s", cmd);
    run_free(&o);
    /* help COMMAND: usage and options as --help, then the examples */
    run_result t = RUN("help", cmd);
    run_result u = RUN(cmd, "--help");
    cr_expect_eq(t.code, 0);
    cr_expect(!strncmp(t.out, u.out, strlen(u.out)), "%s", cmd);
    cr_expect(strstr(t.out, "\nexamples:\n  tilesat "), "%s", t.out);
    run_free(&t);
    run_free(&u);
    if (groff) {
      char *page = temp_file(m.out, -1), *err = temp_file("", 0);
      char sh[512];
      snprintf(sh, sizeof sh, "groff -man -Tutf8 -ww -z %s 2>%s", page, err);
      cr_expect_eq(system(sh), 0);
      char *warnings = slurp(err);
      cr_expect_str_eq(warnings, "", "%s", cmd);
      free(warnings);
      remove(page);
      remove(err);
      free(page);
      free(err);
    }
    free(man);
    run_free(&m);
  }
  cr_expect_eq(n, 18);
  free(cmds);
  run_free(&h);
}

Test(man, help_of_a_command_that_is_not) {
  expect_cli_error("tilesat: unknown command 'chek': did you mean 'check'? "
                   "(see 'tilesat --help')\n",
                   "help", "chek");
  expect_cli_error("tilesat: unknown command 'solve' (see 'tilesat --help')\n",
                   "help", "solve");
  expect_cli_error("tilesat: help: one command at a time\n", "help", "check",
                   "count");
  expect_cli_error("tilesat: unknown command 'chek': did you mean 'check'? "
                   "(see 'tilesat --help')\n",
                   "--man", "chek");
  /* tilesat help alone is the list of commands */
  run_result h = RUN("help");
  cr_expect_eq(h.code, 0);
  cr_expect(strstr(h.out, "'tilesat help COMMAND' its reference"), "%s", h.out);
  run_free(&h);
}
