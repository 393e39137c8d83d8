/* Documentation that cannot go stale.  Every line of every ```sh block of
 * README.md and rules/README.md, and every example of the man pages
 * (tilesat --man COMMAND, EXAMPLES), runs as written: by sh, in order, in a
 * temporary folder holding a copy of rules/, tests/data/ and tools/tiled/,
 * with the binary under test first on PATH and HOME a folder of its own
 * (README.md's Tiled lines link the extension into ~/.config/tiled/ and
 * run headless Tiled).  What a line's trailing comment names is
 * compared:
 *   exit N        its exit code must be N;
 *   "text"        its output (stdout, then stderr) must hold text;
 * and without "exit N" a line must answer (exit 0, 10 or 20), never fail
 * with exit 1 (the READMEs once named samples/Chess.png, a placeholder
 * level.png, and a failed run that succeeded).  Blocks not tagged sh
 * (```make, ``` plain) are instructions for the machine (build, install)
 * and do not run here: `make test` runs those itself. */
#include "helpers.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct doc_run {
  const char *dir, *bindir; /* where lines run; the binary's folder */
  int commands, mismatches;
  char report[16384]; /* a line per mismatch */
  /* the line that is `keep` up to its comment, if one runs: its output
   * (malloc'd) */
  const char *keep;
  char *kept;
} doc_run;

static void report(doc_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void report(doc_run *r, const char *fmt, ...) {
  size_t len = strlen(r->report);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->report + len, sizeof r->report - len, fmt, ap);
  va_end(ap);
  r->mismatches++;
}

/* The comment of a shell line: after the first " #" outside quotes. */
static const char *shell_comment(const char *line) {
  char quote = 0;
  for (const char *p = line; *p; p++) {
    if (quote) {
      quote = *p == quote ? 0 : quote;
    } else if (*p == '\'' || *p == '"') {
      quote = *p;
    } else if (*p == '#' && p > line && p[-1] == ' ') {
      return p + 1;
    }
  }
  return NULL;
}

/* Run one line (from `where`) and compare what its comment names. */
static void run_line(doc_run *r, const char *where, const char *line) {
  char sh[16384];
  /* HOME is the folder's own home/ (the README's Tiled lines link the
   * extension into ~/.config/tiled/extensions/), never the user's */
  snprintf(sh, sizeof sh,
           "cd '%s' && PATH='%s':\"$PATH\" && HOME='%s/home' && "
           "XDG_RUNTIME_DIR=\"$HOME\" && export HOME XDG_RUNTIME_DIR && "
           "unset XDG_CONFIG_HOME && exec >out.txt 2>err.txt </dev/null && %s",
           r->dir, r->bindir, r->dir, line);
  int status = system(sh);
  r->commands++;
  if (!WIFEXITED(status)) {
    report(r, "%s: %s: no exit\n", where, line);
    return;
  }
  int code = WEXITSTATUS(status);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/out.txt", r->dir);
  char *out = slurp(path);
  snprintf(path, sizeof path, "%s/err.txt", r->dir);
  char *err = slurp(path);
  const char *c = shell_comment(line);
  size_t bare = c ? (size_t)(c - 1 - line) : strlen(line);
  while (bare && line[bare - 1] == ' ')
    bare--;
  if (r->keep && !r->kept && bare == strlen(r->keep) &&
      !strncmp(line, r->keep, bare))
    r->kept = strdup(out);
  const char *ex = c ? strstr(c, "exit ") : NULL;
  if (ex && ex[5] >= '0' && ex[5] <= '9') {
    int want = atoi(ex + 5);
    if (code != want)
      report(r, "%s: %s: exit %d, the comment says exit %d: %.300s\n", where,
             line, code, want, err);
  } else if (code != 0 && code != 10 && code != 20) {
    report(r, "%s: %s: exit %d: %.300s\n", where, line, code, err);
  }
  for (const char *q = c ? strchr(c, '"') : NULL; q; q = strchr(q, '"')) {
    const char *end = strchr(q + 1, '"');
    if (!end)
      break;
    char want[512];
    snprintf(want, sizeof want, "%.*s", (int)(end - q - 1), q + 1);
    if (!strstr(out, want) && !strstr(err, want))
      report(r, "%s: %s: \"%s\" is not in its output: %.300s%.300s\n", where,
             line, want, out, err);
    q = end + 1;
  }
  free(out);
  free(err);
}

/* Every line of the ```sh blocks of markdown `text` (named `name`), in
 * order; a line ending in a backslash goes on on the next. */
static void run_markdown(doc_run *r, const char *name, const char *text) {
  char *copy = strdup(text);
  bool in_sh = false;
  char cmd[8192] = "";
  int first = 0, lineno = 0;
  for (char *line = copy, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    lineno++;
    const char *t = line + strspn(line, " ");
    if (!strncmp(t, "```", 3)) {
      in_sh = !in_sh && !strcmp(t, "```sh");
      continue;
    }
    if (!in_sh || (!*cmd && (!*t || *t == '#')))
      continue;
    if (!*cmd)
      first = lineno;
    size_t len = strlen(t);
    bool more = len && t[len - 1] == '\\';
    strncat(cmd, t, sizeof cmd - strlen(cmd) - 1);
    if (more) {
      cmd[strlen(cmd) - 1] = ' ';
      continue;
    }
    char where[PATH_MAX];
    snprintf(where, sizeof where, "%s:%d", name, first);
    run_line(r, where, cmd);
    cmd[0] = 0;
  }
  free(copy);
}

/* The EXAMPLES of tilesat-CMD(1) as a ```sh block (malloc'd), or NULL. */
static char *man_examples(const char *cmd) {
  run_result m = RUN("--man", cmd);
  cr_assert_eq(m.code, 0, "--man %s: %s", cmd, m.err);
  char *text = unroff(m.out);
  run_free(&m);
  char *ex = strstr(text, ".SH EXAMPLES\n.nf\n");
  char *end = ex ? strstr(ex, "\n.fi\n") : NULL;
  if (!end) {
    free(text);
    return NULL;
  }
  ex += strlen(".SH EXAMPLES\n.nf\n");
  size_t n = (size_t)(end - ex) + 16;
  char *md = malloc(n);
  snprintf(md, n, "```sh\n%.*s\n```\n", (int)(end - ex), ex);
  free(text);
  return md;
}

/* A temporary folder holding a copy of rules/, tests/data/ and
 * tools/tiled/ (the Tiled extension) and an empty home/ (malloc'd), and the
 * binary's folder into bindir. */
static char *doc_folder(char *bindir, size_t cap) {
  const char *bin = getenv("TILESAT_BIN");
  bin = bin ? bin : "build/tilesat";
  char cwd[PATH_MAX];
  cr_assert(getcwd(cwd, sizeof cwd));
  snprintf(bindir, cap, "%s%s%s", bin[0] == '/' ? "" : cwd,
           bin[0] == '/' ? "" : "/", bin);
  *strrchr(bindir, '/') = 0;
  char *dir = temp_dir();
  char sh[4096];
  snprintf(sh, sizeof sh,
           "mkdir '%s/tests' '%s/tools' && mkdir -m 700 '%s/home' && cp -R "
           "rules '%s/' && cp -R tests/data '%s/tests/' && cp -R tools/tiled "
           "'%s/tools/'",
           dir, dir, dir, dir, dir, dir);
  cr_assert_eq(system(sh), 0);
  return dir;
}

static void rm_tree(char *dir) {
  char sh[4096];
  snprintf(sh, sizeof sh, "rm -rf '%s'", dir);
  cr_expect_eq(system(sh), 0);
  free(dir);
}

static void run_markdown_file(doc_run *r, const char *path, int min) {
  char *text = slurp(path);
  int before = r->commands;
  run_markdown(r, path, text);
  cr_expect_geq(r->commands - before, min, "%s: %d commands", path,
                r->commands - before);
  free(text);
}

static void expect_one_floor(const char *out, const char *line);

Test(readme, every_command_runs_as_written) {
  char bindir[2 * PATH_MAX];
  char *dir = doc_folder(bindir, sizeof bindir);
  /* the README's dungeon line, whose map is checked below */
  char *text = slurp("README.md");
  const char *at = strstr(text, "\ntilesat check rules/dungeon8.rules ");
  cr_assert(at && strstr(at, "dungeon32.constraints"), "no dungeon line");
  char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
  free(text);
  cr_assert(strstr(line, "--png dungeon.png"), "%s", line);
  cr_assert(strstr(line, "   #"), "%s", line);
  *strstr(line, "   #") = 0; /* the line without its comment */
  doc_run r = {.dir = dir, .bindir = bindir, .keep = line};
  run_markdown_file(&r, "README.md", 20);
  run_markdown_file(&r, "rules/README.md", 5);
  cr_expect_eq(r.mismatches, 0, "%s", r.report);
  cr_assert(r.kept, "the dungeon line did not run: %s", line);
  expect_one_floor(r.kept, line);
  free(r.kept);
  char dcmp[3 * PATH_MAX];
  snprintf(dcmp, sizeof dcmp, "cmp -s '%s/dungeon.png' docs/dungeon.png", dir);
  cr_expect_eq(system(dcmp), 0, "docs/dungeon.png is not what %s draws", line);
  /* the pictures README.md shows, ![...](docs/NAME.png), are the ones
   * its commands draw, byte for byte */
  char *readme = slurp("README.md");
  int pictures = 0;
  for (const char *p = strstr(readme, "](docs/"); p;
       p = strstr(p + 1, "](docs/")) {
    char name[256], a[PATH_MAX], b[PATH_MAX];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(p + 7, ")"), p + 7);
    size_t len = strlen(name);
    if (len < 4 || strcmp(name + len - 4, ".png"))
      continue; /* a link to a document (docs/reference.md), no picture */
    if (!strcmp(name, "tiled.png")) {
      /* the editor's screenshot: tools/screenshot-tiled.sh makes it under
       * Xvfb, which the suite does not need; it must exist */
      cr_expect_eq(access("docs/tiled.png", R_OK), 0);
      continue;
    }
    snprintf(a, sizeof a, "%s/%s", dir, name);
    snprintf(b, sizeof b, "docs/%s", name);
    char cmp[3 * PATH_MAX];
    snprintf(cmp, sizeof cmp, "cmp -s '%s' '%s'", a, b);
    cr_expect_eq(system(cmp), 0,
                 "README.md shows %s, not what its commands "
                 "draw (%s)",
                 b, name);
    pictures++;
  }
  cr_expect_geq(pictures, 5);
  free(readme);
  /* and the rules files shipped are what those commands make */
  const char *made[] = {"coast", "coast-hex", "hard", "patchwork16",
                        "dungeon8"};
  for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
    char a[PATH_MAX], b[PATH_MAX];
    snprintf(a, sizeof a, "%s/%s.rules", dir, made[i]);
    snprintf(b, sizeof b, "rules/%s.rules", made[i]);
    char *got = slurp(a), *want = slurp(b);
    cr_expect_str_eq(got, want, "%s", b);
    free(got);
    free(want);
  }
  rm_tree(dir);
}

Test(readme, every_man_page_example_runs_as_written) {
  char bindir[2 * PATH_MAX];
  char *dir = doc_folder(bindir, sizeof bindir);
  doc_run r = {.dir = dir, .bindir = bindir};
  run_result h = RUN("--help");
  int pages = 0;
  char *p = strstr(h.out, "commands:\n");
  cr_assert(p);
  for (p = strchr(p, '\n') + 1; p[0] == ' ' && p[1] == ' ';) {
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(p + 2, " "), p + 2);
    char *md = man_examples(name);
    cr_expect(md, "tilesat-%s(1) has no examples", name);
    if (md) {
      char where[96];
      snprintf(where, sizeof where, "tilesat-%s(1)", name);
      int before = r.commands;
      run_markdown(&r, where, md);
      cr_expect_gt(r.commands, before, "%s: no example ran", where);
      free(md);
    }
    pages++;
    p = strchr(p, '\n') + 1;
  }
  cr_expect_eq(pages, 18);
  cr_expect_eq(r.mismatches, 0, "%s", r.report);
  run_free(&h);
  rm_tree(dir);
}

/* The test of the test: a snippet whose comments are wrong is reported,
 * line by line; the right ones (counted by enum, another method) pass. */
Test(readme, a_wrong_output_or_exit_is_reported) {
  char bindir[2 * PATH_MAX];
  char *dir = doc_folder(bindir, sizeof bindir);
  run_result e = RUN("enum", "rules/coast.rules", "--size", "2x2");
  cr_assert_eq(e.code, 10);
  const char *maps = strstr(e.out, "maps: ");
  cr_assert(maps, "%s", e.out);
  long count = atol(maps + 6);
  cr_assert_gt(count, 1);
  run_free(&e);
  char md[2048];
  snprintf(md, sizeof md,
           "Text between blocks.\n"
           "```sh\n"
           "tilesat count rules/coast.rules --size 2x2   # \"%ld\"\n"
           "tilesat count rules/coast.rules --size 2x2   # \"%ld\"\n"
           "tilesat check rules/hard.rules --size 3x3   # exit 20\n"
           "tilesat check rules/hard.rules --size 3x3   # exit 10\n"
           "tilesat check rules/hard.rules \\\n"
           "  --size 2x2   # exit 10, \"SAT\"\n"
           "tilesat check rules/none.rules --size 3x3\n"
           "```\n"
           "```\n"
           "tilesat check rules/none.rules --size 3x3   # not run: not sh\n"
           "```\n",
           count, count + 1);
  doc_run r = {.dir = dir, .bindir = bindir};
  run_markdown(&r, "snippet", md);
  cr_expect_eq(r.commands, 6);
  cr_expect_eq(r.mismatches, 3, "%s", r.report);
  char want[512];
  snprintf(want, sizeof want,
           "snippet:4: tilesat count rules/coast.rules --size 2x2   # "
           "\"%ld\": \"%ld\" is not in its output: %ld\n",
           count + 1, count + 1, count);
  cr_expect(strstr(r.report, want), "want\n%s\nin\n%s", want, r.report);
  cr_expect(strstr(r.report, "snippet:6: tilesat check rules/hard.rules "
                             "--size 3x3   # exit 10: exit 20, the comment "
                             "says exit 10: "),
            "%s", r.report);
  cr_expect(strstr(r.report,
                   "snippet:9: tilesat check rules/none.rules --size 3x3: "
                   "exit 1: tilesat: rules/none.rules: "),
            "%s", r.report);
  rm_tree(dir);
}

/* make demo's steps assert what they announce: the real binary passes
 * them all; one whose "failed run" succeeds (seed 3 made seed 4, as the
 * README's example once did) fails the demo, which names the step. */
Test(readme, the_demo_does_what_it_announces) {
  char bindir[2 * PATH_MAX];
  char *dir = doc_folder(bindir, sizeof bindir);
  const char *bin = getenv("TILESAT_BIN");
  bin = bin ? bin : "build/tilesat";
  char sh[16384];
  snprintf(sh, sizeof sh,
           "DEMO_OUT='%s' tools/demo.sh '%s' >'%s/demo.txt' 2>&1", dir, bin,
           dir);
  int status = system(sh);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/demo.txt", dir);
  char *out = slurp(path);
  cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", out);
  const char *failed = strstr(out, "--seed 3 --explain\n");
  cr_expect(failed && strstr(failed, "contradiction at (5,14) after 154 "
                                     "choices (seed 3); the steps below end "
                                     "at (6,13), where "),
            "%s", out);
  cr_expect_null(strstr(out, "FAILED"), "%s", out);
  free(out);
  /* the same binary, but seed 3 is seed 4: its run succeeds */
  char fake[PATH_MAX];
  snprintf(fake, sizeof fake, "%s/fake.sh", dir);
  FILE *f = fopen(fake, "w");
  cr_assert(f);
  fprintf(f,
          "#!/bin/sh\nfor a; do shift; [ \"$a\" = 3 ] && a=4; set -- \"$@\" "
          "\"$a\"; done\nexec '%s%s%s' \"$@\"\n",
          bin[0] == '/' ? "" : getcwd(path, sizeof path),
          bin[0] == '/' ? "" : "/", bin);
  fclose(f);
  snprintf(sh, sizeof sh,
           "chmod +x '%s' && DEMO_OUT='%s' tools/demo.sh '%s' >/dev/null "
           "2>'%s/demo.txt'",
           fake, dir, fake, dir);
  status = system(sh);
  snprintf(path, sizeof path, "%s/demo.txt", dir);
  out = slurp(path);
  cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s", out);
  char want[12288];
  snprintf(want, sizeof want,
           "demo: FAILED: exit 10, not 0: %s collapse %s/castle.rules --size "
           "16x16 --seed 3 --explain\n"
           "demo: FAILED: the last step did not say \"contradiction at (5,14) "
           "after 154 choices\"\n",
           fake, dir);
  cr_expect(strstr(out, want), "want\n%s\nin\n%s", want, out);
  cr_expect(strstr(out, "demo: 3 step(s) did not do what they announce\n"),
            "%s", out);
  free(out);
  rm_tree(dir);
}

/* The README's dungeon is a real one: the map its dungeon32 line makes
 * (out, that line's output, as every_command_runs_as_written ran it, so
 * that the line runs once) has a floor (rooms ".", doors "+", corridors
 * ",", bridges "=") of at least a third of the map, all one region by the
 * test's own flood fill (4 neighbours); the picture the README shows,
 * docs/dungeon.png, is the one that line draws (compared with every
 * picture above).  (The dungeon it once showed was two corridor cells.) */
static void expect_one_floor(const char *out, const char *line) {
  cr_assert(!strncmp(out, "SAT\n", 4), "%s: %s", line, out);
  enum { N = 32 };
  char map[N][N + 1];
  const char *p = out + 4;
  for (int row = 0; row < N; row++) {
    size_t len = strcspn(p, "\n");
    cr_assert_eq(len, (size_t)N, "row %d: %.*s", row, (int)len, p);
    memcpy(map[row], p, N);
    map[row][N] = 0;
    p += len + 1;
  }
  cr_expect_eq(*p, 0, "more than 32 rows: %s", p);
  int floor = 0, reached = 0, stack[N * N], top = 0;
  bool seen[N * N] = {false};
  for (int c = 0; c < N * N; c++)
    if (strchr(".+,=", map[c / N][c % N])) {
      floor++;
      if (!top && !reached) { /* the flood from the first floor cell */
        seen[c] = true;
        stack[top++] = c;
        while (top) {
          int k = stack[--top], row = k / N, col = k % N;
          reached++;
          const int nb[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
          for (int d = 0; d < 4; d++) {
            int rr = row + nb[d][0], cc = col + nb[d][1];
            if (rr < 0 || rr >= N || cc < 0 || cc >= N || seen[rr * N + cc] ||
                !strchr(".+,=", map[rr][cc]))
              continue;
            seen[rr * N + cc] = true;
            stack[top++] = rr * N + cc;
          }
        }
      }
    }
  cr_expect_geq(3 * floor, N * N, "floor %d of %d cells", floor, N * N);
  cr_expect_eq(reached, floor, "one region: %d of %d floor cells reached",
               reached, floor);
  /* rooms and corridors both: each kind of floor is there */
  for (const char *k = ".+,"; *k; k++)
    cr_expect(memchr(&map[0][0], *k, sizeof map), "no '%c'", *k);
}
