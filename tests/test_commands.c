/* The command table (src/cli/commands.c) decides what a command does that
 * others do not: each row carries its traits, and code asks for a trait
 * (command_does), never for a command by its name.  These tests read the
 * command line's sources (run from the repository's root, as every test)
 * and fail on a command's name compared again, or listed outside the
 * table. */
#include "helpers.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* The commands `tilesat help` lists, NULL-terminated (malloc'd). */
static char **command_names(void) {
  const char *argv[] = {"help", NULL};
  run_result r = run_cli(argv);
  cr_assert_eq(r.code, 0);
  char **names = calloc(64, sizeof *names);
  int n = 0;
  const char *at = strstr(r.out, "\ncommands:\n");
  cr_assert(at, "no commands in 'tilesat help'");
  at += strlen("\ncommands:\n");
  while (n < 63 && at[0] == ' ' && at[1] == ' ' && at[2] != ' ') {
    size_t len = strcspn(at + 2, " \n");
    names[n++] = strndup(at + 2, len);
    at = strchr(at, '\n');
    if (!at)
      break;
    at++;
  }
  run_free(&r);
  cr_assert_gt(n, 10, "'tilesat help' lists %d commands", n);
  return names;
}

static void names_free(char **names) {
  for (char **p = names; *p; p++)
    free(*p);
  free(names);
}

/* How many of the commands' names stand as a whole string literal in
 * text[0..len). */
static int name_literals(const char *text, size_t len, char **names) {
  int n = 0;
  for (char **p = names; *p; p++) {
    size_t k = strlen(*p);
    for (size_t i = 0; i + k + 2 <= len; i++)
      if (text[i] == '"' && !memcmp(text + i + 1, *p, k) &&
          text[i + 1 + k] == '"')
        n++;
  }
  return n;
}

/* Does word stand in text[0..len), not followed by more of a name? */
static bool has(const char *text, size_t len, const char *word) {
  static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz_";
  size_t k = strlen(word);
  bool whole = strchr(name_chars, word[k - 1]) != NULL;
  for (size_t i = 0; i + k <= len; i++)
    if (!memcmp(text + i, word, k) &&
        (!whole || i + k == len || !strchr(name_chars, text[i + k])))
      return true;
  return false;
}

/* A statement (the text between ';', '{' and '}') that chooses by a
 * command's name: a name or the options' command compared (strcmp and its
 * kin, ==, !=), or several names listed. */
static bool by_name(const char *text, size_t len, char **names) {
  bool compares = has(text, len, "strcmp(") || has(text, len, "strncmp(") ||
                  has(text, len, "strcasecmp(") || has(text, len, "memcmp(");
  int literals = name_literals(text, len, names);
  bool command = has(text, len, "->command") || has(text, len, ".command");
  return (compares && (literals || command)) ||
         has(text, len, "->command ==") || has(text, len, "->command !=") ||
         literals > 1;
}

/* The statements of src that choose by name, each said; how many. */
static int scan(const char *path, const char *src, char **names) {
  int found = 0, line = 1;
  const char *start = src;
  int start_line = 1;
  for (const char *p = src;; p++) {
    if (*p == '\n')
      line++;
    if (*p && !strchr(";{}", *p))
      continue;
    size_t len = (size_t)(p - start);
    if (by_name(start, len, names)) {
      found++;
      cr_log_error("%s:%d: a command chosen by its name: %.*s (give its row "
                   "in src/cli/commands.c a trait and ask command_does)",
                   path, start_line, (int)(len < 200 ? len : 200), start);
    }
    if (!*p)
      break;
    start = p + 1;
    start_line = line;
  }
  return found;
}

/* The detector itself finds the ways code used to choose. */
Test(commands, the_check_sees_a_name_compared) {
  char **names = command_names();
  const char *old[] = {
      "if (!strcmp(o->command, \"enum\")) x();",
      "bool m = !strcmp(o->command, \"explain\") ||\n"
      "  !strcmp(o->command, \"trace\");",
      "static const char *const s[] = {\"enum\", \"sample\"};",
      "if (strcmp(c->name, \"run-samples\")) y();",
      "if (o->command == other) z();",
  };
  for (size_t i = 0; i < sizeof old / sizeof *old; i++)
    cr_expect(by_name(old[i], strlen(old[i]), names), "not seen: %s", old[i]);
  const char *fine[] = {
      "progress_start(&pr, o->command);",
      "cJSON_AddStringToObject(doc, \"explain\", why);",
      "fail(\"%s: interrupted\", o->command);",
      "rc = options_parse(&j->o, \"count\", argc, argv);",
  };
  for (size_t i = 0; i < sizeof fine / sizeof *fine; i++)
    cr_expect(!by_name(fine[i], strlen(fine[i]), names), "seen: %s", fine[i]);
  names_free(names);
}

/* No code outside the table's lookup chooses a command by its name: what
 * a command does that others do not is a trait on its row. */
Test(commands, no_behaviour_is_chosen_by_name) {
  char **names = command_names();
  const char *dirs[] = {"src/cli", "src/mpi"};
  /* the table and its lookup; the references (text by command) */
  const char *table[] = {"commands.c", "command_docs.c"};
  int found = 0, files = 0;
  for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
    DIR *dir = opendir(dirs[d]);
    cr_assert(dir, "%s: run the tests from the repository's root", dirs[d]);
    for (struct dirent *e; (e = readdir(dir));) {
      size_t n = strlen(e->d_name);
      bool source = n > 2 && e->d_name[n - 2] == '.' &&
                    (e->d_name[n - 1] == 'c' || e->d_name[n - 1] == 'h');
      bool skip = false;
      for (size_t t = 0; t < sizeof table / sizeof *table; t++)
        skip |= !strcmp(e->d_name, table[t]);
      if (!source || skip)
        continue;
      char path[512];
      snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
      char *src = slurp(path);
      cr_assert(src, "%s: cannot read", path);
      found += scan(path, src, names);
      files++;
      free(src);
    }
    closedir(dir);
  }
  cr_expect_gt(files, 20, "only %d sources read", files);
  cr_expect_eq(found, 0, "%d places choose a command by its name", found);
  names_free(names);
}
