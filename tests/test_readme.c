/* What a newcomer types first: every `tilesat ...` line of a ```sh block in
 * README.md and rules/README.md, run as written by sh from a copy of the
 * repository's root (rules/ and tests/data/, outputs written there), with
 * the binary under test first on PATH.  Each must answer (exit 0, 10 or
 * 20), never fail with exit 1: the READMEs once named samples/Chess.png,
 * tilesets/Knots.xml and a placeholder level.png, none of which exist. */
#include "helpers.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The tilesat command lines of the ```sh blocks of README `path`, one per
 * line, into `out` (the caller frees it); returns how many. */
static int readme_commands(const char *path, char **out) {
  char *text = slurp(path);
  size_t cap = strlen(text) + 1, n = 0;
  char *cmds = calloc(cap, 1);
  int count = 0;
  bool in_sh = false;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    const char *t = line + strspn(line, " ");
    if (!strncmp(t, "```", 3)) {
      in_sh = !in_sh && !strcmp(t, "```sh");
      continue;
    }
    if (in_sh && !strncmp(t, "tilesat ", 8)) {
      n += (size_t)snprintf(cmds + n, cap - n, "%s\n", t);
      count++;
    }
  }
  free(text);
  *out = cmds;
  return count;
}

static void run_readme(const char *readme, const char *dir, const char *bin,
                       int min_commands) {
  char *cmds;
  int count = readme_commands(readme, &cmds);
  cr_expect_geq(count, min_commands, "%s: %d commands", readme, count);
  for (char *line = strtok(cmds, "\n"); line; line = strtok(NULL, "\n")) {
    char sh[4096];
    snprintf(sh, sizeof sh,
             "cd '%s' && PATH='%s':\"$PATH\" && exec >out.txt 2>err.txt && %s",
             dir, bin, line);
    int status = system(sh);
    cr_assert(WIFEXITED(status), "%s: %s: no exit", readme, line);
    int code = WEXITSTATUS(status);
    char errp[PATH_MAX];
    snprintf(errp, sizeof errp, "%s/err.txt", dir);
    char *err = slurp(errp);
    cr_expect(code == 0 || code == 10 || code == 20, "%s: %s: exit %d: %s",
              readme, line, code, err);
    free(err);
  }
  free(cmds);
}

Test(readme, every_command_runs_as_written) {
  const char *bin = getenv("TILESAT_BIN");
  bin = bin ? bin : "build/tilesat";
  char cwd[PATH_MAX], abs[2 * PATH_MAX];
  cr_assert(getcwd(cwd, sizeof cwd));
  snprintf(abs, sizeof abs, "%s/%s", bin[0] == '/' ? "" : cwd, bin);
  *strrchr(abs, '/') = 0; /* its folder, for PATH */
  char tmpl[] = "/tmp/tilesat-readme-XXXXXX";
  cr_assert(mkdtemp(tmpl));
  char sh[4096];
  snprintf(sh, sizeof sh,
           "mkdir '%s/tests' && cp -R rules '%s/' && cp -R tests/data "
           "'%s/tests/'",
           tmpl, tmpl, tmpl);
  cr_assert_eq(system(sh), 0);
  run_readme("README.md", tmpl, abs, 20);
  run_readme("rules/README.md", tmpl, abs, 5);
  /* and the rules files shipped are what those commands make */
  const char *made[] = {"coast", "coast-hex", "hard", "patchwork16",
                        "dungeon8"};
  for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
    char a[PATH_MAX], b[PATH_MAX];
    snprintf(a, sizeof a, "%s/%s.rules", tmpl, made[i]);
    snprintf(b, sizeof b, "rules/%s.rules", made[i]);
    char *got = slurp(a), *want = slurp(b);
    cr_expect_str_eq(got, want, "%s", b);
    free(got);
    free(want);
  }
  snprintf(sh, sizeof sh, "rm -rf '%s'", tmpl);
  cr_expect_eq(system(sh), 0);
}
