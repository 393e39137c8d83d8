/* test_outputs.c: outputs are never lost or half-written: files go to a
 * temporary and are renamed, a failed write leaves the old file (and a
 * device node) where it was, an output that is an input is refused, and a
 * write error on standard output is an error of every command. */
/* POSIX with XSI: mknod (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* A private "full" device in a new folder, as /dev/full is: every write
 * fails with ENOSPC.  NULL (the test skipped) where mknod is not allowed. */
static char *full_node(const char *dir) {
  char *path = malloc(strlen(dir) + 8);
  sprintf(path, "%s/full", dir);
  if (mknod(path, S_IFCHR | 0666, makedev(1, 7))) {
    free(path);
    cr_skip_test("mknod: %s (needs root)", strerror(errno));
  }
  return path;
}

static bool is_char_device(const char *path) {
  struct stat st;
  return !stat(path, &st) && S_ISCHR(st.st_mode);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

static char *join(const char *dir, const char *name) {
  char *p = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(p, "%s/%s", dir, name);
  return p;
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && !strcmp(s + n - k, tail);
}

/* ------------------------------------------------------------ the library */

/* libpng's png_image_write_to_file removes the path when a write fails: a
 * device node, as root.  Now the node stays and the error says why. */
Test(outputs, failed_png_write_keeps_the_device_node) {
  char *dir = temp_dir(), *full = full_node(dir);
  tilesat_image *img = tilesat_image_new(64, 64);
  tilesat_error err;
  cr_expect_eq(tilesat_image_write_png(img, full, &err), -1);
  char want[256];
  snprintf(want, sizeof want, "%s: write error: No space left on device", full);
  cr_expect_str_eq(err.msg, want);
  cr_expect(is_char_device(full), "the device node was removed");
  cr_expect_eq(dir_entries(dir), 1, "something was left beside it");
  tilesat_image_free(img);
  free(full);
  rm_dir(dir);
}

/* What a committed output holds replaces the file (its mode kept); a
 * discarded one leaves it as it was; neither leaves a temporary. */
Test(outputs, commit_replaces_discard_keeps) {
  char *dir = temp_dir(), *path = join(dir, "out.txt");
  write_text(path, "old\n");
  chmod(path, 0640);
  tilesat_error err;
  tilesat_output *o = tilesat_output_open(path, &err);
  cr_assert(o, "%s", err.msg);
  cr_expect_neq(tilesat_output_temp(o), NULL);
  fputs("half", tilesat_output_file(o));
  tilesat_output_discard(o);
  char *text = slurp(path);
  cr_expect_str_eq(text, "old\n");
  free(text);
  cr_expect_eq(dir_entries(dir), 1);
  o = tilesat_output_open(path, &err);
  cr_assert(o, "%s", err.msg);
  fputs("new\n", tilesat_output_file(o));
  cr_expect_eq(tilesat_output_commit(o, &err), 0, "%s", err.msg);
  text = slurp(path);
  cr_expect_str_eq(text, "new\n");
  free(text);
  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  cr_expect_eq(st.st_mode & 0777, 0640);
  cr_expect_eq(dir_entries(dir), 1);
  free(path);
  rm_dir(dir);
}

/* ------------------------------------------------------- CLI file outputs */

/* --qubo-out on a full device: the error, and the node still there (it
 * used to be removed). */
Test(outputs, failed_qubo_keeps_the_device_node) {
  char *dir = temp_dir(), *full = full_node(dir);
  run_result r = RUN("anneal", "rules/coast.rules", "--size", "3x3",
                     "--qubo-out", full, "--sweeps", "10");
  char want[256];
  snprintf(want, sizeof want,
           "tilesat: %s: write error: No space left on device\n", full);
  cr_expect_eq(r.code, 1);
  cr_expect_str_eq(r.err, want);
  cr_expect(is_char_device(full), "the device node was removed");
  run_free(&r);
  free(full);
  rm_dir(dir);
}

/* A file size limit makes writes to a regular file fail (EFBIG): every
 * file output then fails, and leaves the file that was there as it was,
 * with no temporary beside it. */
static void small_files(void) {
  int null = open("/dev/null", O_WRONLY); /* a device has no size limit */
  dup2(null, 1);
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit rl = {200, 200};
  setrlimit(RLIMIT_FSIZE, &rl);
}

static void expect_kept(const char *dir, const char *path, const char *want,
                        int entries, const char *const *args) {
  run_result r = run_cli_with(args, 0, 0, small_files);
  cr_expect_eq(r.code, 1, "%s: exit %d", args[0], r.code);
  cr_expect(strstr(r.err, "write error: File too large\n"), "%s: %s", args[0],
            r.err);
  char *text = slurp(path);
  cr_expect_str_eq(text, want, "%s changed it", args[0]);
  free(text);
  cr_expect_eq(dir_entries(dir), entries, "%s left a file behind", args[0]);
  run_free(&r);
}

Test(outputs, failed_writes_keep_the_old_file) {
  char *dir = temp_dir(), *old = join(dir, "old.out"),
       *old_png = join(dir, "old.png");
  write_text(old, "old\n");
  write_text(old_png, "old\n");
  const char *const cases[][12] = {
      {"encode", "rules/coast.rules", "--size", "9x9", "-o", old, NULL},
      {"check", "rules/coast.rules", "--size", "30x30", "--png", old_png, NULL},
      {"extract", "rules/coast.txt", "rules/dungeon8.txt", "-o", old, NULL},
      {"enum", "rules/coast.rules", "--size", "3x3", "--png", old_png, NULL},
      {"anneal", "rules/coast.rules", "--size", "9x9", "--frequency", "1",
       "--qubo-out", old, "--sweeps", "10", NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    expect_kept(dir, !strcmp(cases[i][4], "--png") ? old_png : old, "old\n", 2,
                cases[i]);
  /* a Tiled map and its tileset picture: both kept */
  char *tmx = join(dir, "m.tmx"), *tiles = join(dir, "m.tmx.png");
  write_text(tmx, "old map\n");
  write_text(tiles, "old tiles\n");
  const char *const tiled[] = {
      "check", "rules/coast.rules", "--size", "40x40", "--tmx",
      tmx,     "--force",           NULL};
  expect_kept(dir, tmx, "old map\n", 4, tiled);
  char *text = slurp(tiles);
  cr_expect_str_eq(text, "old tiles\n");
  free(text);
  free(tmx);
  free(tiles);
  free(old);
  free(old_png);
  rm_dir(dir);
}

/* An output that is an input of the same command is refused before any
 * work, whatever name it goes by. */
Test(outputs, output_that_is_an_input_is_refused) {
  char *dir = temp_dir(), *sample = join(dir, "s.txt");
  char *link = join(dir, "same.txt");
  write_text(sample, "LCS\nCSS\n");
  cr_assert_eq(symlink(sample, link), 0);
  char want[512];
  snprintf(want, sizeof want,
           "tilesat: -o: %s is also an input of this command; refusing to "
           "overwrite it\n",
           link);
  expect_cli_error(want, "extract", sample, "-o", link);
  char *text = slurp(sample);
  cr_expect_str_eq(text, "LCS\nCSS\n");
  free(text);
  char *energy = join(dir, "e.energy");
  write_text(energy, "tilesat-energy 1\nfrequency 1\n");
  /* by other names (--png and --tmx refuse .energy) */
  char *as_png = join(dir, "e.png"), *bare = join(dir, "e");
  cr_assert_eq(symlink(energy, as_png), 0);
  cr_assert_eq(symlink(energy, bare), 0);
  snprintf(want, sizeof want,
           "tilesat: --png: %s is also the --energy file; refusing to "
           "overwrite an input\n",
           as_png);
  expect_cli_error(want, "anneal", "rules/coast.rules", "--size", "3x3",
                   "--energy", energy, "--png", as_png);
  snprintf(want, sizeof want, "tilesat: --tmx: %s is also written by --png\n",
           bare);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "3x3", "--png",
                   bare, "--tmx", bare);
  free(as_png);
  free(bare);
  text = slurp(energy);
  cr_expect_str_eq(text, "tilesat-energy 1\nfrequency 1\n");
  free(text);
  free(energy);
  free(sample);
  free(link);
  rm_dir(dir);
}

/* ------------------------------------------------ errors on standard output */

static const char *stdout_path;

static void stdout_to(void) {
  int fd = open(stdout_path, O_WRONLY);
  dup2(fd, 1);
  close(fd);
}

/* Every command, with standard output on a full device: the error, exit 1
 * (check, enum, sample and explain used to exit 10 or 20 in silence,
 * encode and extract 1 without a word). */
Test(outputs, write_error_on_stdout_for_every_command) {
  char *dir = temp_dir(), *full = full_node(dir);
  stdout_path = full;
  const char *const cases[][10] = {
      {"check", "rules/coast.rules", "--size", "3x3", NULL},
      {"check", "rules/hard.rules", "--size", "3x3", NULL},
      {"enum", "rules/coast.rules", "--size", "2x2", NULL},
      {"count", "rules/coast.rules", "--size", "3x3", NULL},
      {"sample", "rules/coast.rules", "--size", "3x3", NULL},
      {"explain", "rules/hard.rules", "--size", "3x3", NULL},
      {"explain", "rules/coast.rules", "--size", "3x3", NULL},
      {"encode", "rules/coast.rules", "--size", "3x3", NULL},
      {"extract", "rules/coast.txt", NULL},
      {"import-tileset", "tests/data/wfc/tilesets/Knots.xml", NULL},
      {"trace", "rules/coast.rules", "--size", "3x3", NULL},
      {"analyze", "rules/coast.rules", NULL},
      {"anneal", "rules/coast.rules", "--size", "3x3", NULL},
      {"check", "--help", NULL},
      {"--version", NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_result r = run_cli_with(cases[i], 0, 0, stdout_to);
    cr_expect_eq(r.code, 1, "%s %s: exit %d", cases[i][0], cases[i][1], r.code);
    cr_expect(ends_with(r.err, "tilesat: write error on standard output: No "
                               "space left on device\n"),
              "%s %s: %s", cases[i][0], cases[i][1], r.err);
    run_free(&r);
  }
  cr_expect(is_char_device(full));
  free(full);
  rm_dir(dir);
}

/* With SIGPIPE ignored, a reader that went away stops enum and sample with
 * an error (enum used to enumerate on for ever, sample to exit 10). */
static void closed_pipe(void) {
  struct rlimit cpu = {20, 20}; /* should it run on: killed, not hung */
  setrlimit(RLIMIT_CPU, &cpu);
  signal(SIGPIPE, SIG_IGN);
  int p[2];
  if (pipe(p))
    _exit(126);
  close(p[0]);
  dup2(p[1], 1);
  close(p[1]);
}

Test(outputs, closed_pipe_stops_with_an_error) {
  const char *const cases[][8] = {
      {"enum", "rules/coast.rules", "--size", "30x30", NULL},
      {"sample", "rules/coast.rules", "--size", "30x30", "-n", "100000", NULL}};
  for (size_t i = 0; i < 2; i++) {
    run_result r = run_cli_with(cases[i], 0, 0, closed_pipe);
    cr_expect_eq(r.code, 1, "%s: exit %d", cases[i][0], r.code);
    /* the error, after at most the dp's progress lines (a sampler that
     * draws in batches reports while it walks back) */
    const char *want = "tilesat: write error on standard output: Broken pipe\n";
    size_t n = strlen(r.err), k = strlen(want);
    cr_expect(n >= k && !strcmp(r.err + n - k, want), "%s", r.err);
    for (const char *line = r.err; *line && line < r.err + n - k;
         line = strchr(line, '\n') + 1)
      cr_expect(!strncmp(line, "tilesat: dp: ", 13), "%s", r.err);
    run_free(&r);
  }
}

/* -------------------------------------------------------- --tilesets-from */

/* The image a Tiled map names in `attr="..."`/`"attr": "..."`, resolved
 * from the map's folder, read back. */
static tilesat_image *image_named_in(const char *map, const char *dir,
                                     const char *key) {
  char *text = slurp(map);
  const char *p = strstr(text, key);
  cr_assert(p, "no %s in %s", key, text);
  p += strlen(key);
  const char *end = strchr(p, '"');
  char path[4096];
  cr_expect_neq(*p, '/', "an absolute path: %.*s", (int)(end - p), p);
  snprintf(path, sizeof path, "%s/%.*s", dir, (int)(end - p), p);
  free(text);
  tilesat_error err;
  tilesat_image *img = tilesat_image_read_png(path, &err);
  cr_expect(img, "%s", err.msg);
  return img;
}

/* A map written with the tilesets of a map in another folder: its image
 * paths are relative and resolve from the output's own folder (an embedded
 * tileset's image used to point nowhere). */
Test(outputs, tilesets_from_another_folder_resolve) {
  char *a = temp_dir(), *b = temp_dir();
  char *tmx = join(a, "m.tmx"), *tmj = join(a, "m.tmj");
  run_result r = RUN("check", "rules/coast.rules", "--size", "3x2", "--tmx",
                     tmx, "--tmj", tmj);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *out_tmx = join(b, "o.tmx"), *out_tmj = join(b, "o.tmj");
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--tmx", out_tmx,
          "--tilesets-from", tmx);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("check", "rules/coast.rules", "--size", "4x3", "--tmj", out_tmj,
          "--tilesets-from", tmj);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *tiles = join(a, "m.tmx.png");
  tilesat_error err;
  tilesat_image *want = tilesat_image_read_png(tiles, &err);
  cr_assert(want, "%s", err.msg);
  tilesat_image *got[2] = {image_named_in(out_tmx, b, "<image source=\""),
                           image_named_in(out_tmj, b, "\"image\":\t\"")};
  for (int i = 0; i < 2; i++) {
    cr_assert(got[i]);
    cr_expect_eq(got[i]->width, want->width);
    cr_expect_eq(got[i]->height, want->height);
    cr_expect_eq(memcmp(got[i]->rgba, want->rgba,
                        (size_t)want->width * (size_t)want->height * 4),
                 0);
    tilesat_image_free(got[i]);
  }
  tilesat_image_free(want);
  /* an external tileset (tiled-csv.tmx's terrain.tsx, not in the tree):
   * relative too, naming the file beside that map */
  char *rules = join(a, "r.rules"), *ext = join(b, "x.tmx");
  r = RUN("extract", "tests/data/tiled-gzip.tmx", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("check", rules, "--size", "5x3", "--tmx", ext, "--tilesets-from",
          "tests/data/tiled-csv.tmx");
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  char *text = slurp(ext);
  const char *p = strstr(text, "source=\"");
  cr_assert(p, "%s", text);
  p += strlen("source=\"");
  cr_expect_neq(*p, '/', "%s", text);
  char tsx[4096];
  snprintf(tsx, sizeof tsx, "%s/%.*s", b, (int)(strchr(p, '"') - p), p);
  cr_assert(ends_with(tsx, "/terrain.tsx"), "%s", tsx);
  tsx[strlen(tsx) - strlen("/terrain.tsx")] = 0;
  char *got_dir = realpath(tsx, NULL), *want_dir = realpath("tests/data", NULL);
  cr_expect(got_dir && !strcmp(got_dir, want_dir), "%s is not %s", tsx,
            want_dir);
  free(got_dir);
  free(want_dir);
  free(text);
  const char *files[] = {tmx, tmj, out_tmx, out_tmj, tiles, rules, ext};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    free((char *)files[i]);
  rm_dir(a);
  rm_dir(b);
}

/* Found in review: past 16 named files the check let inputs through, and a
 * new file named two ways by two outputs was not seen as one. */
Test(outputs, any_number_of_inputs_and_any_spelling) {
  char *dir = temp_dir();
  char paths[17][4096];
  const char *args[24] = {"extract"};
  int n = 1;
  for (int i = 0; i < 17; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/s%d.txt", dir, i);
    FILE *f = fopen(paths[i], "w");
    cr_assert(f);
    fputs("LC\nCS\n", f);
    fclose(f);
    args[n++] = paths[i];
  }
  args[n++] = "-o";
  args[n++] = paths[16];
  args[n] = NULL;
  run_result r = run_cli(args);
  cr_expect_eq(r.code, 1);
  char want[4200];
  snprintf(want, sizeof want,
           "tilesat: -o: %s is also an input of this command; refusing to "
           "overwrite it\n",
           paths[16]);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  char *text = slurp(paths[16]);
  cr_expect_str_eq(text, "LC\nCS\n");
  free(text);
  char png[4200], tmx[4200];
  snprintf(png, sizeof png, "%s/./o.tmx.png", dir);
  snprintf(tmx, sizeof tmx, "%s/o.tmx", dir);
  r = RUN("check", "rules/coast.rules", "--size", "2x2", "--png", png, "--tmx",
          tmx);
  cr_expect_eq(r.code, 1, "%s", r.err);
  cr_expect(strstr(r.err, "o.tmx.png is also written by --png"), "%s", r.err);
  run_free(&r);
  rm_dir(dir);
}

/* ------------------------------------------- inputs of every kind (issue 20)
 */

static void expect_text(const char *path, const char *want) {
  char *text = slurp(path);
  cr_expect_str_eq(text, want, "%s was changed", path);
  free(text);
}

/* --pins-from, --mask and --constraints name inputs too: an output on one
 * of them (by its name, a symbolic link or a hard link) is refused before
 * any work.  They used to be overwritten: `check --pins-from p.txt --png
 * p.txt` made p.txt a PNG. */
Test(outputs, pins_mask_and_constraints_are_inputs) {
  /* (names without an extension: --png and --tmx refuse .txt) */
  char *dir = temp_dir(), *pins = join(dir, "p"), *mask = join(dir, "m");
  char *cons = join(dir, "c.constraints"), *soft = join(dir, "link");
  char *hard = join(dir, "hard");
  const char *pins_text = "L...\n....\n....\n",
             *mask_text = "....\n....\n....\n";
  const char *cons_text = "tilesat-constraints 1\ncount L >= 1\n";
  write_text(pins, pins_text);
  write_text(mask, mask_text);
  write_text(cons, cons_text);
  cr_assert_eq(symlink(pins, soft), 0);
  cr_assert_eq(link(mask, hard), 0);
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: --png: %s is also the --pins-from file; refusing to "
           "overwrite an input\n",
           pins);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "4x3",
                   "--pins-from", pins, "--png", pins);
  snprintf(want, sizeof want,
           "tilesat: --tmx: %s is also the --pins-from file; refusing to "
           "overwrite an input\n",
           soft);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "4x3",
                   "--pins-from", pins, "--tmx", soft);
  snprintf(want, sizeof want,
           "tilesat: --png: %s is also the --mask file; refusing to "
           "overwrite an input\n",
           hard);
  expect_cli_error(want, "enum", "rules/coast.rules", "--size", "4x3", "--mask",
                   mask, "--png", hard);
  snprintf(want, sizeof want,
           "tilesat: -o: %s is also the --constraints file; refusing to "
           "overwrite an input\n",
           cons);
  expect_cli_error(want, "repair", "rules/hard.rules", "--size", "3x3",
                   "--constraints", cons, "-o", cons);
  snprintf(want, sizeof want,
           "tilesat: -o: %s is also the --pins-from file; refusing to "
           "overwrite an input\n",
           pins);
  expect_cli_error(want, "repair", "rules/coast.rules", "--size", "4x3",
                   "--pins-from", pins, "--pin", "0,1=S", "-o", pins);
  expect_text(pins, pins_text);
  expect_text(mask, mask_text);
  expect_text(cons, cons_text);
  cr_expect_eq(dir_entries(dir), 5, "something was left behind");
  free(pins);
  free(mask);
  free(cons);
  free(soft);
  free(hard);
  rm_dir(dir);
}

/* ---------------------------------- outputs checked before solving (20) */

/* The width and height in a PNG's header (IHDR), read by hand. */
static void png_size(const char *path, unsigned *w, unsigned *h) {
  unsigned char b[24];
  FILE *f = fopen(path, "rb");
  cr_assert(f, "no %s", path);
  cr_assert_eq(fread(b, 1, sizeof b, f), sizeof b);
  fclose(f);
  cr_assert_eq(memcmp(b + 12, "IHDR", 4), 0);
  *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 |
       b[19];
  *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 |
       b[23];
}

/* An output that cannot be written is refused before the map is solved,
 * with nothing on stdout: a picture over 2^26 pixels (coast's tiles are
 * 8x8 squares: 1500x1500 cells are 12000x12000 pixels), a folder, a path
 * through a file, a size of --sizes after good ones.  Each used to print
 * the answer (SAT and the map, the first rows of the table) and then fail. */
Test(outputs, outputs_are_checked_before_solving) {
  char *dir = temp_dir(), *png = join(dir, "w.png"), *file = join(dir, "f");
  char *through = join(dir, "f/x.tmx");
  write_text(file, "a file\n");
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: %s: the map's picture would be too large (over 2^26 "
           "pixels): --scale N draws fewer pixels a cell\n",
           png);
  const char *const big[][10] = {
      {"check", "rules/coast.rules", "--size", "1500x1500", "--png", png, NULL},
      {"enum", "rules/coast.rules", "--size", "1500x1500", "--png", png,
       "--limit", "1", NULL},
      {"collapse", "rules/coast.rules", "--size", "1500x1500", "--png", png,
       NULL},
      {"anneal", "rules/coast.rules", "--size", "1500x1500", "--png", png,
       NULL}};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    run_result r = run_cli(big[i]);
    cr_expect_eq(r.code, 1, "%s: exit %d", big[i][0], r.code);
    cr_expect_str_eq(r.err, want, "%s", big[i][0]);
    cr_expect_str_eq(r.out, "", "%s", big[i][0]);
    run_free(&r);
  }
  /* collapse -n's heat map: 8x8 pixels a cell */
  snprintf(want, sizeof want,
           "tilesat: %s: the heat map's picture would be too large (over 2^26 "
           "pixels)\n",
           png);
  expect_cli_error(want, "collapse", "rules/coast.rules", "--size", "1100x1100",
                   "-n", "2", "--png", png);
  snprintf(want, sizeof want,
           "tilesat: %s: cannot open for writing: Is a directory\n", dir);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "3x3", "--png",
                   dir);
  snprintf(want, sizeof want,
           "tilesat: %s: cannot open for writing: Not a directory\n", through);
  expect_cli_error(want, "collapse", "rules/coast.rules", "--size", "3x3",
                   "--tmx", through);
  expect_cli_error("tilesat: --size: 70000x70000 with 3 tiles is too large "
                   "(at most 268435456 cells times tiles)\n",
                   "collapse", "rules/coast.rules", "--sizes", "3,70000", "-n",
                   "2");
  expect_cli_error(
      "tilesat: --pin: cell (3,3) is outside the 3x3 map: a cell is "
      "ROW,COL, rows 0-2 and columns 0-2\n",
      "collapse", "rules/coast.rules", "--sizes", "4,3", "-n", "2", "--pin",
      "3,3=S");
  expect_cli_error(
      "tilesat: --sizes: no size given (N or WxH, comma-separated)\n",
      "collapse", "rules/coast.rules", "--sizes", "");
  expect_cli_error("tilesat: --sizes: '' is not a size (N or WxH)\n",
                   "collapse", "rules/coast.rules", "--sizes", "3,,4");
  cr_expect_eq(dir_entries(dir), 1, "something was written");
  free(png);
  free(file);
  free(through);
  rm_dir(dir);
}

/* A contact sheet holds as many of the maps as a picture may (2^26 pixels,
 * 32768 a side): 5 maps 11000 pixels wide go 3 a row, 33004 pixels, too
 * wide; 4 go 2 a row, 2 * 11000 + 2 (the gap) = 22002.  It used to be an
 * error after the maps were printed. */
Test(outputs, a_contact_sheet_holds_what_fits) {
  char *dir = temp_dir(), *rules = join(dir, "bw.rules");
  char *png = join(dir, "s.png");
  write_text(rules, "tilesat-rules 1\ntopology square\n"
                    "tile #000000 1\ntile #ffffff 1\n"
                    "allow #000000 N #000000 #ffffff\n"
                    "allow #000000 E #000000 #ffffff\n"
                    "allow #000000 S #000000 #ffffff\n"
                    "allow #000000 W #000000 #ffffff\n"
                    "allow #ffffff N #000000 #ffffff\n"
                    "allow #ffffff E #000000 #ffffff\n"
                    "allow #ffffff S #000000 #ffffff\n"
                    "allow #ffffff W #000000 #ffffff\n");
  run_result r =
      RUN("enum", rules, "--size", "11000x1", "--limit", "5", "--png", png);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect(ends_with(r.out, "\nmaps: 5\n"), "%.40s", r.out);
  unsigned w = 0, h = 0;
  png_size(png, &w, &h);
  cr_expect_eq(w, 2 * 11000 + 2);
  cr_expect_eq(h, 2 * 1 + 2);
  run_free(&r);
  free(rules);
  free(png);
  rm_dir(dir);
}

/* A dangling symbolic link as an output is written through, as a shell's
 * `>` does: the file it names is made and the link stays (it used to be
 * replaced by a regular file). */
Test(outputs, a_dangling_link_is_written_through) {
  char *dir = temp_dir(), *link = join(dir, "out.png");
  char *target = join(dir, "target.png");
  cr_assert_eq(symlink("target.png", link), 0);
  run_result r =
      RUN("check", "rules/coast.rules", "--size", "3x2", "--png", link);
  cr_expect_eq(r.code, 10, "%s", r.err);
  struct stat st;
  cr_expect(!lstat(link, &st) && S_ISLNK(st.st_mode), "the link was replaced");
  unsigned w = 0, h = 0;
  png_size(target, &w, &h);
  cr_expect_eq(w, 3 * 8);
  cr_expect_eq(h, 2 * 8);
  cr_expect_eq(dir_entries(dir), 2);
  run_free(&r);
  free(link);
  free(target);
  rm_dir(dir);
}

/* Do two files hold the same bytes? */
static bool same_bytes(const char *a, const char *b) {
  FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
  cr_assert(f && g);
  int c, d;
  do {
    c = fgetc(f);
    d = fgetc(g);
  } while (c == d && c != EOF);
  fclose(f);
  fclose(g);
  return c == d;
}

/* run-samples never writes through a symbolic link in --out-dir (tilesat
 * makes none there): the entry cannot run, and the file the link names (a
 * sample, here) is untouched.  It used to be overwritten with a map. */
Test(outputs, run_samples_does_not_follow_links) {
  char *dir = temp_dir(), *samples = join(dir, "samples");
  char *out = join(dir, "out"), *list = join(dir, "samples.xml");
  char *sample = join(samples, "Chess.png"), path[1024];
  cr_assert_eq(mkdir(samples, 0777), 0);
  cr_assert_eq(mkdir(out, 0777), 0);
  tilesat_error err;
  tilesat_image *chess =
      tilesat_image_read_png("tests/data/wfc/samples/Chess.png", &err);
  cr_assert(chess, "%s", err.msg);
  cr_assert_eq(tilesat_image_write_png(chess, sample, &err), 0, "%s", err.msg);
  char *copy = join(dir, "copy.png");
  cr_assert_eq(tilesat_image_write_png(chess, copy, &err), 0, "%s", err.msg);
  write_text(list, "<samples>\n  <overlapping name=\"Chess\" N=\"2\" "
                   "size=\"6\" periodic=\"True\" screenshots=\"1\"/>\n"
                   "</samples>\n");
  for (int seed = 1; seed <= 10; seed++) {
    snprintf(path, sizeof path, "%s/01-Chess-%d.png", out, seed);
    cr_assert_eq(symlink("../samples/Chess.png", path), 0);
  }
  run_result r = RUN("run-samples", list, "-n", "1", "--out-dir", out);
  cr_expect_eq(r.code, 1, "%s", r.err);
  char want[2048];
  snprintf(want, sizeof want,
           "01 Chess (overlapping N=2 symmetry=8 periodic 6x6 screenshots=1): "
           "cannot run: %s/01-Chess-1.png: a symbolic link; refusing to write "
           "through it\nentries: 1, ran: 0, could not run: 1,",
           out);
  cr_expect_eq(strncmp(r.out, want, strlen(want)), 0, "%s", r.out);
  cr_expect(same_bytes(sample, copy), "the sample was changed");
  cr_expect_eq(dir_entries(out), 10);
  cr_expect_eq(dir_entries(samples), 1);
  tilesat_image_free(chess);
  free(copy);
  free(sample);
  free(list);
  run_free(&r);
  rm_dir(out);
  rm_dir(samples);
  rm_dir(dir);
}

/* A collapse run that contradicted writes no --tmx / --tmj (there is no
 * map) and says so; it used to skip them in silence. */
Test(outputs, a_failed_collapse_says_no_map_was_written) {
  char *dir = temp_dir(), *tmx = join(dir, "m.tmx"), *tmj = join(dir, "m.tmj");
  run_result r = RUN("collapse", "rules/hard.rules", "--size", "3x3", "--tmx",
                     tmx, "--tmj", tmj);
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect_str_eq(r.out, "contradiction at (0,1) after 0 choices (seed 1)\n");
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: collapse: %s and %s not written: the run contradicted, "
           "there is no map\n",
           tmx, tmj);
  cr_expect_str_eq(r.err, want);
  cr_expect_eq(dir_entries(dir), 0);
  run_free(&r);
  free(tmx);
  free(tmj);
  rm_dir(dir);
}

/* ----------------------------- pictures written beside another (issue 31) */

/* A whole file (malloc'd), its length in *len; NULL if it cannot be read. */
static char *read_bytes(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0;
  *len = 0;
  if (!f)
    return NULL;
  for (size_t n; (buf = realloc(buf, cap += 65536)) &&
                 (n = fread(buf + *len, 1, cap - *len, f)) > 0;)
    *len += n;
  fclose(f);
  return buf;
}

static void copy_file(const char *from, const char *to) {
  size_t len;
  char *data = read_bytes(from, &len);
  cr_assert(data, "cannot read %s", from);
  FILE *f = fopen(to, "wb");
  cr_assert(f, "cannot write %s", to);
  cr_assert_eq(fwrite(data, 1, len, f), len);
  fclose(f);
  free(data);
}

#define VILLAGE "tests/data/wfc/samples/Village.png"

/* extract village.png -o village.rules; export-tileset village.rules -o
 * village.tsx replaced the sample village.png with the tileset's picture.
 * The picture is village.tsx.png now, and the sample stays byte for byte;
 * stderr names both files written. */
Test(outputs, export_tileset_keeps_the_sample) {
  char *dir = temp_dir(), *png = join(dir, "village.png");
  char *rules = join(dir, "village.rules"), *tsx = join(dir, "village.tsx");
  char *pic = join(dir, "village.tsx.png");
  copy_file(VILLAGE, png);
  run_result r = RUN("extract", png, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("export-tileset", rules, "-o", tsx);
  cr_expect_eq(r.code, 0, "%s", r.err);
  char want[1024];
  snprintf(want, sizeof want, "tilesat: wrote %s\ntilesat: wrote %s\n", pic,
           tsx);
  cr_expect_str_eq(r.err, want);
  cr_expect_str_eq(r.out, "");
  run_free(&r);
  cr_expect(same_bytes(png, VILLAGE), "the sample village.png was replaced");
  char *text = slurp(tsx);
  cr_expect(strstr(text, "<image source=\"village.tsx.png\""), "%s", text);
  free(text);
  cr_expect(tilesat_png_by_tilesat(pic));
  cr_expect(!tilesat_png_by_tilesat(png));
  free(pic);
  free(tsx);
  free(rules);
  free(png);
  rm_dir(dir);
}

/* extract's pictures file beside -o X.rules (X.pictures) replaces only
 * one of tilesat's (its first line): a user's file of that name is
 * refused before any work, --force replaces it, and tilesat's own is
 * replaced without it. */
Test(outputs, a_users_pictures_file_is_not_replaced) {
  char *dir = temp_dir(), *png = join(dir, "village.png");
  char *rules = join(dir, "village.rules"),
       *pics = join(dir, "village.pictures");
  copy_file(VILLAGE, png);
  FILE *f = fopen(pics, "w");
  cr_assert(f);
  fputs("MY PRECIOUS\n", f);
  fclose(f);
  run_result r = RUN("extract", png, "-o", rules);
  cr_expect_eq(r.code, 1);
  char want[2048];
  snprintf(want, sizeof want,
           "tilesat: %s: exists and was not written by tilesat (-o %s writes "
           "its pictures file there); --force replaces it\n",
           pics, rules);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  char *text = slurp(pics);
  cr_expect_str_eq(text, "MY PRECIOUS\n");
  free(text);
  cr_expect(access(rules, F_OK) != 0, "the rules were written");
  for (int pass = 0; pass < 2; pass++) { /* --force, then over its own */
    r = pass ? RUN("extract", png, "-o", rules)
             : RUN("extract", png, "-o", rules, "--force");
    cr_expect_eq(r.code, 0, "%s", r.err);
    run_free(&r);
    text = slurp(pics);
    cr_expect(!strncmp(text, "tilesat-pictures 1\n", 19), "%s", text);
    free(text);
  }
  free(pics);
  free(rules);
  free(png);
  rm_dir(dir);
}

/* A file tilesat did not write where the picture goes is refused before
 * any work: exit 1, the file named with the option that writes there and
 * --force, nothing written, the file byte for byte as it was. */
Test(outputs, a_users_file_is_not_replaced_by_a_picture) {
  char *dir = temp_dir(), *rules = join(dir, "v.rules");
  char *tsx = join(dir, "v.tsx"), *tsx_png = join(dir, "v.tsx.png");
  char *tmx = join(dir, "map.tmx"), *tmx_png = join(dir, "map.tmx.png");
  char *old = join(dir, "map-tiles.png");
  run_result r = RUN("extract", VILLAGE, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  copy_file(VILLAGE, tsx_png);
  copy_file(VILLAGE, tmx_png);
  copy_file(VILLAGE, old); /* the old name of a map's picture */
  int entries = dir_entries(dir);
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: %s: exists and was not written by tilesat (-o %s writes "
           "its picture of tiles there); --force replaces it\n",
           tsx_png, tsx);
  expect_cli_error(want, "export-tileset", rules, "-o", tsx);
  snprintf(want, sizeof want,
           "tilesat: %s: exists and was not written by tilesat (--tmx %s "
           "writes its picture of tiles there); --force replaces it\n",
           tmx_png, tmx);
  expect_cli_error(want, "check", rules, "--size", "4x4", "--tmx", tmx);
  /* (a text file too: not a PNG tilesat wrote) */
  char *tmj = join(dir, "m.tmj"), *tmj_png = join(dir, "m.tmj.png");
  write_text(tmj_png, "notes\n");
  snprintf(want, sizeof want,
           "tilesat: %s: exists and was not written by tilesat (--tmj %s "
           "writes its picture of tiles there); --force replaces it\n",
           tmj_png, tmj);
  expect_cli_error(want, "sample", rules, "--size", "4x4", "--tmj", tmj);
  cr_expect(same_bytes(tsx_png, VILLAGE));
  cr_expect(same_bytes(tmx_png, VILLAGE));
  char *text = slurp(tmj_png);
  cr_expect_str_eq(text, "notes\n");
  free(text);
  cr_expect_eq(dir_entries(dir), entries + 1, "a file was written");
  /* a map-tiles.png is no longer a map's picture: kept as it was */
  unlink(tmx_png);
  r = RUN("check", rules, "--size", "4x4", "--tmx", tmx);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  cr_expect(same_bytes(old, VILLAGE), "map-tiles.png was replaced");
  free(tmj);
  free(tmj_png);
  free(old);
  free(tmx_png);
  free(tmx);
  free(tsx_png);
  free(tsx);
  free(rules);
  rm_dir(dir);
}

/* --force replaces a file tilesat did not write; without it, a picture
 * tilesat wrote is replaced by the next run (a new file in its place). */
Test(outputs, force_and_own_pictures_are_replaced) {
  char *dir = temp_dir(), *rules = join(dir, "v.rules");
  char *tmx = join(dir, "map.tmx"), *pic = join(dir, "map.tmx.png");
  char *tsx = join(dir, "v.tsx"), *tsx_png = join(dir, "v.tsx.png");
  run_result r = RUN("extract", VILLAGE, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  copy_file(VILLAGE, pic);
  r = RUN("check", rules, "--size", "4x4", "--tmx", tmx, "--force");
  cr_expect_eq(r.code, 10, "%s", r.err);
  char want[1024];
  snprintf(want, sizeof want, "tilesat: wrote %s\ntilesat: wrote %s\n", pic,
           tmx);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  cr_expect(!same_bytes(pic, VILLAGE), "--force did not replace it");
  cr_expect(tilesat_png_by_tilesat(pic));
  /* the picture is the one the map names, the tileset's tiles */
  char *text = slurp(tmx);
  cr_expect(strstr(text, "<image source=\"map.tmx.png\""), "%s", text);
  free(text);
  struct stat before, after;
  cr_assert_eq(stat(pic, &before), 0);
  r = RUN("check", rules, "--size", "4x4", "--tmx", tmx);
  cr_expect_eq(r.code, 10, "%s", r.err);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  cr_assert_eq(stat(pic, &after), 0);
  cr_expect_neq(before.st_ino, after.st_ino, "tilesat's picture not replaced");
  /* export-tileset: the same, twice over its own picture, then forced */
  for (int i = 0; i < 2; i++) {
    r = RUN("export-tileset", rules, "-o", tsx);
    cr_expect_eq(r.code, 0, "run %d: %s", i, r.err);
    run_free(&r);
  }
  copy_file(VILLAGE, tsx_png);
  r = RUN("export-tileset", rules, "-o", tsx, "--force");
  cr_expect_eq(r.code, 0, "%s", r.err);
  snprintf(want, sizeof want, "tilesat: wrote %s\ntilesat: wrote %s\n", tsx_png,
           tsx);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  cr_expect(tilesat_png_by_tilesat(tsx_png));
  free(tsx_png);
  free(tsx);
  free(pic);
  free(tmx);
  free(rules);
  rm_dir(dir);
}

/* The mark tilesat reads: every PNG it writes carries it (through the
 * library too), a PNG from elsewhere, a damaged one or none does not. */
Test(outputs, a_png_says_it_was_written_by_tilesat) {
  char *dir = temp_dir(), *png = join(dir, "a.png"), *cut = join(dir, "c.png");
  tilesat_image *img = tilesat_image_new(3, 2);
  tilesat_error err;
  cr_assert_eq(tilesat_image_write_png(img, png, &err), 0, "%s", err.msg);
  tilesat_image_free(img);
  cr_expect(tilesat_png_by_tilesat(png));
  img = tilesat_image_read_png(png, &err); /* and it still reads */
  cr_expect(img && img->width == 3 && img->height == 2, "%s", err.msg);
  tilesat_image_free(img);
  size_t len;
  char *data = read_bytes(png, &len);
  cr_assert(data && len > 60);
  /* cut inside the mark's chunk: no mark read */
  char *mark = NULL;
  for (size_t i = 0; !mark && i + 12 <= len; i++)
    if (!memcmp(data + i, "tEXtSoftware", 12))
      mark = data + i;
  cr_assert(mark);
  FILE *f = fopen(cut, "wb");
  cr_assert(f);
  fwrite(data, 1, (size_t)(mark - data) + 10, f);
  fclose(f);
  cr_expect(!tilesat_png_by_tilesat(cut));
  free(data);
  cr_expect(!tilesat_png_by_tilesat(VILLAGE));
  cr_expect(!tilesat_png_by_tilesat("rules/coast.rules"));
  cr_expect(!tilesat_png_by_tilesat(dir)); /* a folder */
  char *none = join(dir, "none.png");
  cr_expect(!tilesat_png_by_tilesat(none));
  free(none);
  free(cut);
  free(png);
  rm_dir(dir);
}
