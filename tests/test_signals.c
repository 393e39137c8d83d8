/* test_signals.c: Ctrl-C (SIGINT) and SIGTERM stop every long command
 * within a second, with "tilesat: COMMAND: interrupted" and exit 1, and
 * leave only whole maps on standard output and no file behind. */
#include "helpers.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* Standard output holds only whole WxH maps, each followed by a blank
 * line. */
static void expect_whole_maps(const char *out, int w, int h, const char *cmd) {
  const char *p = out;
  while (*p) {
    for (int row = 0; row < h; row++) {
      const char *nl = strchr(p, '\n');
      cr_assert(nl && nl - p == w, "%s: a cut-off map: '%.40s'", cmd, p);
      p = nl + 1;
    }
    cr_assert_eq(*p, '\n', "%s: no blank line after a map", cmd);
    p++;
  }
}

/* Should a command not stop, it is killed after 30 s of CPU, not hung. */
static void cpu_limit(void) {
  struct rlimit cpu = {30, 30};
  setrlimit(RLIMIT_CPU, &cpu);
}

static void expect_stopped(const char *const *args, int sig, int w, int h) {
  run_result r = run_cli_with(args, 300, sig, cpu_limit);
  char want[128];
  snprintf(want, sizeof want, "tilesat: %s: interrupted\n", args[0]);
  cr_expect_eq(r.code, 1, "%s: exit %d", args[0], r.code);
  /* anneal prints progress lines first */
  size_t n = strlen(r.err), k = strlen(want);
  cr_expect(n >= k && !strcmp(r.err + n - k, want), "%s: %s", args[0], r.err);
  /* within a second when measured (README); 5 s here, so that a loaded
   * machine under ASan does not fail a run that stopped as it should */
  cr_expect_lt(r.stopped, 5.0, "%s took %.2f s to stop", args[0], r.stopped);
  if (w)
    expect_whole_maps(r.out, w, h, args[0]);
  else
    cr_expect_str_eq(r.out, "", "%s printed part of an answer", args[0]);
  run_free(&r);
}

/* Every long command, solving or not (trace used to be killed outright,
 * count and explain to finish and answer). */
Test(signals, ctrl_c_stops_every_long_command) {
  static const char *const jobs[][10] = {
      {"check", "rules/patchwork16.rules", "--size", "200x200", NULL},
      {"count", "rules/coast.rules", "--size", "300x300", NULL},
      {"explain", "rules/hard.rules", "--size", "400x400", NULL},
      {"analyze", "rules/patchwork16.rules", "--max", "40", NULL},
      {"anneal", "rules/coast.rules", "--size", "100x100", "--sweeps",
       "100000000", NULL},
      {"trace", "rules/coast.rules", "--size", "2000x2000", NULL}};
  for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
    expect_stopped(jobs[i], SIGINT, 0, 0);
}

/* The commands that print maps as they go: whole maps only. */
Test(signals, ctrl_c_leaves_whole_maps) {
  static const char *const enum_job[] = {"enum", "rules/coast.rules", "--size",
                                         "30x30", NULL};
  static const char *const sample_job[] = {
      "sample", "rules/coast.rules", "--size", "20x20", "-n", "100000", NULL};
  expect_stopped(enum_job, SIGINT, 30, 30);
  expect_stopped(sample_job, SIGINT, 20, 20);
  /* SIGTERM the same way */
  expect_stopped(enum_job, SIGTERM, 30, 30);
  expect_stopped(sample_job, SIGTERM, 20, 20);
}

/* encode -o: stopped half way, the old file as it was and nothing beside
 * it (the file used to be left empty or cut off). */
Test(signals, ctrl_c_during_encode_keeps_the_old_file) {
  char *dir = temp_dir();
  char path[4096];
  snprintf(path, sizeof path, "%s/map.cnf", dir);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs("old\n", f);
  fclose(f);
  const char *const job[] = {
      "encode", "rules/coast.rules", "--size", "1000x1000", "-o", path, NULL};
  expect_stopped(job, SIGINT, 0, 0);
  char *text = slurp(path);
  cr_expect_str_eq(text, "old\n");
  free(text);
  cr_expect_eq(dir_entries(dir), 1, "a temporary file was left behind");
  rm_dir(dir);
}

/* A command with no solver, waiting on its input: stopped at once. */
static void endless_stdin(void) {
  int p[2];
  if (pipe(p))
    _exit(126);
  dup2(p[0], 0); /* the write end stays open: reading never ends */
}

Test(signals, ctrl_c_stops_extract_reading) {
  run_result r = run_cli_with((const char *const[]){"extract", "-", NULL}, 300,
                              SIGINT, endless_stdin);
  cr_expect_eq(r.code, 1);
  cr_expect_str_eq(r.err, "tilesat: extract: interrupted\n");
  cr_expect_lt(r.stopped, 5.0, "took %.2f s", r.stopped);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
}
