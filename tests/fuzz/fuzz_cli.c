/* fuzz_cli.c: the command line, in process.  The input is the arguments,
 * one a line: the first the command (or --help, --version), the rest its
 * arguments.  Options are always parsed; the command runs when its
 * arguments name no path outside the harness's own folder (no '/') and
 * its work is small (a map of at most 64 cells, few sweeps, samples and
 * maps), in that folder, which holds a few inputs (c.rules: coast, x.rules:
 * hard, s.txt, s.png, s.tmx, e.energy, k.xml) and loses whatever the
 * command wrote after each run.  The command's standard output and error
 * go to /dev/null (the stderr stream only: sanitizer reports, written to
 * file descriptor 2, still show). */
#include "cli/cli.h"
#include "fuzz.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

static const char hard[] = "tilesat-rules 1\ntopology square\n"
                           "tile K 1\ntile B 2\ntile S 1\n"
                           "allow K E B\nallow K S S\nallow B N B\n"
                           "allow B S B\nallow B W K S\nallow S N K\n"
                           "allow S E B\n";
static const char sample[] = "LLLLL\nLLLLC\nLLLCS\nLLCSS\nLCSSS\n";
static const char energy[] = "tilesat-energy 1\nfrequency 1\ncoherence 1\n"
                             "bias L 2 rect 0,0:1,1\n";
static const char tileset[] =
    "<set>\n<tiles>\n<tile name=\"a\" symmetry=\"X\"/>\n"
    "<tile name=\"b\" symmetry=\"L\" weight=\"0.5\"/>\n</tiles>\n"
    "<neighbors>\n<neighbor left=\"a\" right=\"b 1\"/>\n"
    "<neighbor left=\"b\" right=\"b\"/>\n</neighbors>\n"
    "<subsets><subset name=\"A\"><tile name=\"a\"/></subset></subsets>\n"
    "</set>\n";
static const char *const inputs[] = {"c.rules", "x.rules",  "s.txt", "s.png",
                                     "s.tmx",   "e.energy", "k.xml"};

static void write_text(const char *name, const char *text) {
  fuzz_write_file(fuzz_path(name), text, strlen(text));
}

/* s.png: the sample as pixels; s.tmx: as a Tiled map. */
static void write_images(void) {
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(sample, strlen(sample), "s", &err);
  const tilesat_grid *one[1] = {g};
  tilesat_rules *r = tilesat_extract(one, 1, TILESAT_SQUARE, false, &err);
  tilesat_map *m = tilesat_map_new(r, 5, 5, TILESAT_SQUARE, false, &err);
  int *tiles = fuzz_grid_tiles(g, r);
  FUZZ_CHECK(m &&
                 !tilesat_tiled_write(m, tiles, NULL, fuzz_path("s.tmx"), &err),
             "%s", err.msg);
  remove(fuzz_path("s.tmx.png"));
  tilesat_image *img = tilesat_image_new(5, 5);
  for (int i = 0; i < 25; i++) {
    img->rgba[4 * i + tiles[i]] = 255;
    img->rgba[4 * i + 3] = 255;
  }
  FUZZ_CHECK(!tilesat_image_write_png(img, fuzz_path("s.png"), &err), "%s",
             err.msg);
  tilesat_image_free(img);
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  tilesat_grid_free(g);
}

static FILE *quiet;

static void setup(void) {
  write_text("c.rules", fuzz_coast);
  write_text("x.rules", hard);
  write_text("s.txt", sample);
  write_text("e.energy", energy);
  write_text("k.xml", tileset);
  write_images();
  char dir[288];
  snprintf(dir, sizeof dir, "%s", fuzz_path("c.rules"));
  *strrchr(dir, '/') = 0;
  FUZZ_CHECK(chdir(dir) == 0, "chdir %s", dir);
  FUZZ_CHECK(freopen("/dev/null", "w", stdout) != NULL, "/dev/null");
  quiet = fopen("/dev/null", "w");
  FUZZ_CHECK(quiet != NULL, "/dev/null");
}

/* Remove what a command wrote: everything but the inputs, and the hidden
 * temporaries its outputs wait in (the CLI's main renames them into place
 * after the command; run() calls the command alone). */
static void clean(void) {
  DIR *d = opendir(".");
  FUZZ_CHECK(d != NULL, "opendir");
  struct dirent *e;
  while ((e = readdir(d))) {
    bool keep = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
      keep |= !strcmp(e->d_name, inputs[i]);
    if (!keep)
      remove(e->d_name);
  }
  closedir(d);
}

/* Is the command's work small enough to run on every input? */
static bool small(const options *o) {
  const char *c = o->command;
  uint64_t cells = (uint64_t)o->size.w * (uint64_t)o->size.h;
  bool count = !strcmp(c, "count") || !strcmp(c, "sample");
  bool slow_method = o->method && strcmp(o->method, "dp");
  return cells <= 64 && o->nsamples <= 50 && o->restarts <= 20 &&
         o->sweeps * o->restarts * o->replicas <= 20000 && o->max <= 8 &&
         (strcmp(c, "enum") || (GIVEN(o, limit) && o->limit <= 50)) &&
         (!count || !slow_method || cells <= 16);
}

static int run(int argc, char **argv) {
  bool local = true;
  for (int i = 0; i < argc; i++)
    local &= !strchr(argv[i], '/');
  const command *c = command_find(argv[0]);
  if (!c) {
    if (!strcmp(argv[0], "--help"))
      usage_main(stdout);
    return 0;
  }
  options o;
  FILE *err = stderr;
  stderr = quiet;
  int rc = options_parse(&o, c->name, argc - 1, argv + 1);
  if (!rc && !o.help && local && small(&o)) {
    rc = c->run(&o);
    fflush(stdout);
    clean();
  }
  options_free(&o);
  stderr = err;
  FUZZ_CHECK(rc == 0 || rc == 1 || rc == 10 || rc == 20, "exit %d", rc);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool ready;
  if (!ready)
    setup();
  ready = true;
  char *text = malloc(size + 1);
  char *argv[65];
  int argc = 0;
  FUZZ_CHECK(text != NULL, "out of memory");
  memcpy(text, data, size);
  text[size] = 0;
  for (char *p = text; argc < 64 && p < text + size;) {
    argv[argc++] = p;
    p += strcspn(p, "\n");
    *p++ = 0;
  }
  argv[argc] = NULL;
  if (argc > 0)
    (void)run(argc, argv);
  free(text);
  return 0;
}
