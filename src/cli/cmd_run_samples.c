/* cmd_run_samples.c: tilesat run-samples SAMPLES.xml: mxgmn's run list, as
 * his reference program runs it (Program.cs), through tilesat.  For every
 * <overlapping> and <simpletiled> entry, with its own settings: the rules
 * (samples/NAME.png through the overlapping model, tilesets/NAME.xml
 * through the tileset import, both beside SAMPLES.xml), a SAT check of the
 * map, -n RUNS plain collapse runs for WFC's failure rate, the entry's
 * `screenshots` maps saved as PNGs (each from at most 10 tries, as the
 * reference), and one line: what ran, sat/unsat, the failure rate with its
 * 95% interval, time.  An entry that cannot run is listed with the reason
 * and the others go on; exit 1 if any could not run. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reference's tries per saved map: for (k = 0; k < 10; k++). */
#define TRIES_PER_SHOT 10

/* ------------------------------------------------------------- one entry */

/* What an entry needs and makes. */
typedef struct entry_run {
  options *o;
  const tilesat_wfc_entry *e;
  size_t number; /* 1-based, in the file */
  int width, height;
  tilesat_rules *rules;
  tilesat_pictures *pics;
  tilesat_map *map;
  tilesat_collapse *c;
  int *tiles;
  char why[1200]; /* why it cannot run, when it cannot */
  char check[1200];
  double check_seconds;
  long runs, failures, images;
  double median;
} entry_run;

static void entry_free(entry_run *r) {
  tilesat_collapse_free(r->c);
  tilesat_map_free(r->map);
  tilesat_pictures_free(r->pics);
  tilesat_rules_free(r->rules);
  free(r->tiles);
}

/* FOLDER/SUB/NAME.EXT, FOLDER the run list's own (malloc'd). */
static char *beside(const char *list, const char *sub, const char *name,
                    const char *ext) {
  const char *slash = strrchr(list, '/');
  int dirlen = slash ? (int)(slash - list + 1) : 0;
  size_t n = (size_t)dirlen + strlen(sub) + strlen(name) + strlen(ext) + 4;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%.*s%s/%s%s", dirlen, list, sub, name, ext);
  return p;
}

/* The rules and pictures of the entry, as the reference builds its model. */
static int load_rules(entry_run *r, const char *list) {
  const tilesat_wfc_entry *e = r->e;
  tilesat_error err;
  char *path = beside(list, e->overlapping ? "samples" : "tilesets", e->name,
                      e->overlapping ? ".png" : ".xml");
  if (!path) {
    snprintf(r->why, sizeof r->why, "out of memory");
    return -1;
  }
  if (e->overlapping) {
    tilesat_image *img = tilesat_image_read_png(path, &err);
    if (img)
      r->rules = tilesat_extract_patterns((const tilesat_image *const *)&img, 1,
                                          e->n, e->periodic_input, e->symmetry,
                                          &r->pics, &err);
    tilesat_image_free(img);
  } else {
    r->rules = tilesat_import_tileset(path, e->subset, &r->pics, &err);
  }
  free(path);
  if (!r->rules)
    snprintf(r->why, sizeof r->why, "%s", err_said(&err));
  return r->rules ? 0 : -1;
}

/* The reference's ground (OverlappingModel.cs, Model.Clear): the last
 * pattern found in the sample, T-1, is the ground.  The wave's bottom row
 * holds it alone and no other row holds it.  Without periodic output the
 * reference's wave is N-1 cells larger than the cells it observes (this
 * map), and its bottom row lies among the cells it never observes: its
 * bans still reach the last row of the map when N is 2 (the cells of that
 * row keep the patterns that may stand above the ground), and nothing at
 * all when N is 3 or more; the ban of T-1 everywhere else holds in every
 * case. */
static void ground_bans(entry_run *r) {
  const tilesat_rules *rules = r->rules;
  int T = tilesat_rules_ntiles(rules), g = T - 1, n = r->e->n;
  int w = map_info(r->map).width, h = map_info(r->map).height;
  bool bottom_here = r->e->periodic || n == 1;
  int north = tilesat_dir_find(TILESAT_SQUARE, "N");
  for (int row = 0; row < h; row++)
    for (int col = 0; col < w; col++)
      for (int t = 0; t < T; t++) {
        bool ban;
        if (bottom_here && row == h - 1)
          ban = t != g;
        else
          ban = t == g || (!bottom_here && n == 2 && row == h - 1 &&
                           !tilesat_rules_allows(rules, g, north, t));
        if (ban)
          tilesat_map_ban(r->map, row, col, t, NULL);
      }
}

/* The map the reference's wave observes: W x H, or W-N+1 x H-N+1 cells of
 * patterns without periodic output (drawn N-1 pixels larger, W x H). */
static int make_map(entry_run *r) {
  const tilesat_wfc_entry *e = r->e;
  tilesat_error err;
  int w = r->width, h = r->height;
  if (e->overlapping && !e->periodic) {
    w -= e->n - 1;
    h -= e->n - 1;
  }
  if (w < 1 || h < 1) {
    snprintf(r->why, sizeof r->why,
             "a %dx%d picture has no %dx%d pattern without periodic output",
             r->width, r->height, e->n, e->n);
    return -1;
  }
  r->map = tilesat_map_new(r->rules, w, h, TILESAT_SQUARE, e->periodic, &err);
  if (r->map && GIVEN(r->o, max_memory))
    tilesat_map_set_max_memory(r->map, r->o->max_memory);
  if (r->map && e->ground)
    ground_bans(r);
  if (r->map)
    r->c = tilesat_collapse_new(r->map, &err);
  r->tiles = malloc((size_t)w * (size_t)h * sizeof *r->tiles);
  /* too large for the memory bound: refused, the others go on */
  if (!r->map || !r->c)
    err_said(&err);
  if (r->map && !r->c && !strncmp(err.msg, "collapse: ", 10) &&
      strstr(err.msg, "--max-memory"))
    snprintf(r->why, sizeof r->why, "too large: %s", err.msg + 10);
  else if (!r->map || !r->c || !r->tiles)
    snprintf(r->why, sizeof r->why, "%s", r->tiles ? err.msg : "out of memory");
  return r->map && r->c && r->tiles ? 0 : -1;
}

/* The SAT check stops at Ctrl-C, or when --check-time has passed. */
typedef struct deadline {
  double at;
  bool passed;
} deadline;

static int check_terminate(void *user) {
  deadline *d = user;
  if (!d->passed && mono_seconds() > d->at)
    d->passed = true;
  return d->passed || stop_terminate(NULL);
}

/* Is there a map at all?  "sat", "unsat" or "unknown (why)"; -1 only when
 * Ctrl-C stopped it. */
static int sat_check(entry_run *r, const tilesat_solve_options *base) {
  tilesat_solve_options so = *base;
  deadline d = {mono_seconds() + (double)r->o->check_time, false};
  so.terminate = check_terminate;
  so.terminate_user = &d;
  tilesat_error err;
  double t0 = mono_seconds();
  int res = tilesat_check(r->map, &so, NULL, &err);
  r->check_seconds = mono_seconds() - t0;
  if (res == TILESAT_SAT || res == TILESAT_UNSAT) {
    snprintf(r->check, sizeof r->check, "%s",
             res == TILESAT_SAT ? "sat" : "unsat");
    return 0;
  }
  if (stop_requested())
    return -1;
  err_said(&err);
  const char *msg = strncmp(err.msg, "check: ", 7) ? err.msg : err.msg + 7;
  if (d.passed)
    snprintf(r->check, sizeof r->check, "unknown (no answer within %llu s)",
             (unsigned long long)r->o->check_time);
  else if (strstr(msg, "--max-memory"))
    snprintf(r->check, sizeof r->check, "unknown (too large: %s)", msg);
  else
    snprintf(r->check, sizeof r->check, "unknown (%s)", msg);
  return 0;
}

/* OUT/NN-NAME-SEED.EXT (malloc'd): the reference's NAME-SEED, numbered by
 * the entry, since a run list names a sample more than once. */
static char *out_path(const entry_run *r, uint64_t seed, const char *ext) {
  const char *dir = r->o->out_dir;
  size_t n = strlen(dir) + strlen(r->e->name) + strlen(ext) + 64;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%02zu-%s-%llu%s", dir, r->number, r->e->name,
             (unsigned long long)seed, ext);
  return p;
}

/* The wave as the run left it (a run stopped at its limit), as domains for
 * tilesat_render. */
static uint64_t *wave(const entry_run *r, size_t *cells) {
  int w = map_info(r->map).width, h = map_info(r->map).height;
  int T = tilesat_rules_ntiles(r->rules), words = (T + 63) / 64;
  *cells = (size_t)w * (size_t)h;
  uint64_t *dom = calloc(*cells * (size_t)words, sizeof *dom);
  for (size_t c = 0; dom && c < *cells; c++)
    for (int k = 0; k < T; k++)
      if (tilesat_collapse_possible(r->c, (int)c, k))
        dom[c * (size_t)words + (size_t)(k / 64)] |= (uint64_t)1 << (k % 64);
  return dom;
}

/* blackBackground (SimpleTiledModel.Save): in a wave drawn unfinished,
 * cells that still have every tile are black. */
static void black_background(const entry_run *r, const uint64_t *dom,
                             tilesat_image *img) {
  int w = map_info(r->map).width, h = map_info(r->map).height;
  int T = tilesat_rules_ntiles(r->rules), words = (T + 63) / 64;
  int tw = img->width / w, th = img->height / h;
  for (int c = 0; c < w * h; c++) {
    int n = 0;
    for (int k = 0; k < T; k++)
      n += (int)((dom[(size_t)c * (size_t)words + (size_t)(k / 64)] >>
                  (k % 64)) &
                 1);
    for (int y = 0; n == T && y < th; y++)
      for (int x = 0; x < tw; x++) {
        uint8_t *px =
            img->rgba + 4 * ((size_t)((c / w) * th + y) * (size_t)img->width +
                             (size_t)((c % w) * tw + x));
        px[0] = px[1] = px[2] = 0;
        px[3] = 255;
      }
  }
}

/* A file of ours in --out-dir, being written (its temporary removed
 * should a signal end the process). */
typedef struct out_entry {
  tilesat_output *out;
  int slot;
} out_entry;

/* Open path, or -1 with why.  Never through a symbolic link: tilesat makes
 * none there, and one may point at a sample. */
static int open_out(entry_run *r, const char *path, out_entry *oe) {
  struct stat st;
  tilesat_error err;
  if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
    snprintf(r->why, sizeof r->why,
             "%s: a symbolic link; refusing to write through it", path);
    return -1;
  }
  if (!(oe->out = tilesat_output_open(path, &err))) {
    snprintf(r->why, sizeof r->why, "%s", err.msg);
    return -1;
  }
  const char *temp = tilesat_output_temp(oe->out);
  oe->slot = temp ? stop_temp_add(temp) : -1;
  if (temp && oe->slot < 0) {
    tilesat_output_discard(oe->out);
    snprintf(r->why, sizeof r->why, "%s: too many files written at once", path);
    return -1;
  }
  return 0;
}

/* Put it in place (ok), or drop it; 0, or -1 with why. */
static int close_out(entry_run *r, out_entry *oe, bool ok) {
  tilesat_error err;
  int rc = 0;
  stop_hold(); /* the rename is not cut, nor its temporary left behind */
  if (!ok)
    tilesat_output_discard(oe->out);
  else if ((rc = tilesat_output_commit(oe->out, &err)))
    snprintf(r->why, sizeof r->why, "%s", err.msg);
  stop_temp_remove(oe->slot);
  stop_release();
  return rc;
}

/* textOutput (SimpleTiledModel.TextOutput): "NAME K, " per cell, a line a
 * row. */
static int text_output(entry_run *r, uint64_t seed) {
  char *path = out_path(r, seed, ".txt");
  out_entry oe;
  if (!path)
    snprintf(r->why, sizeof r->why, "out of memory");
  if (!path || open_out(r, path, &oe)) {
    free(path);
    return -1;
  }
  FILE *f = tilesat_output_file(oe.out);
  int w = map_info(r->map).width, h = map_info(r->map).height;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++)
      fprintf(f, "%s, ",
              tilesat_rules_tile_name(r->rules, r->tiles[y * w + x]));
    fputc('\n', f);
  }
  free(path);
  return close_out(r, &oe, true);
}

/* Save the run just made: its map, or (stopped at the limit) its wave. */
static int save(entry_run *r, uint64_t seed, bool finished) {
  char *path = out_path(r, seed, ".png");
  if (!path) {
    snprintf(r->why, sizeof r->why, "out of memory");
    return -1;
  }
  tilesat_error err;
  uint64_t *dom = NULL;
  tilesat_image *img = NULL;
  if (finished) {
    img = tilesat_render(r->map, r->pics, r->tiles, NULL, NULL);
  } else {
    size_t cells;
    dom = wave(r, &cells);
    img = dom ? tilesat_render(r->map, r->pics, NULL, dom, NULL) : NULL;
    if (img && r->e->black_background)
      black_background(r, dom, img);
  }
  out_entry oe;
  int rc = -1;
  if (!img)
    snprintf(r->why, sizeof r->why, "%s: %s", path,
             finished || dom ? "the picture would be too large"
                             : "out of memory");
  else if (!open_out(r, path, &oe)) {
    bool ok = !tilesat_image_write_png_stream(img, tilesat_output_file(oe.out),
                                              path, &err);
    if (!ok)
      snprintf(r->why, sizeof r->why, "%s", err.msg);
    rc = close_out(r, &oe, ok) || !ok ? -1 : 0;
  }
  tilesat_image_free(img);
  free(dom);
  free(path);
  if (rc)
    return -1;
  r->images++;
  return finished && r->e->text_output ? text_output(r, seed) : 0;
}

/* Runs seeds S, S+1, ...: the first -n RUNS give the failure rate, and as
 * many as the entry's screenshots need (each from at most 10 tries, the
 * reference's loop) give its pictures.  0, or -1 (why said, or Ctrl-C). */
static int runs(entry_run *r, count_progress *pr) {
  const tilesat_wfc_entry *e = r->e;
  long n = GIVEN(r->o, nsamples) ? (long)r->o->nsamples : 10;
  uint64_t seed0 = e->seed >= 0 ? (uint64_t)e->seed : r->o->seed;
  double *times = malloc((size_t)n * sizeof *times);
  if (!times) {
    snprintf(r->why, sizeof r->why, "out of memory");
    return -1;
  }
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.heuristic = e->heuristic;
  co.limit = e->limit > 0 ? e->limit : 0;
  int shot = 0, tries = 0, rc = 0;
  double started = mono_seconds();
  for (long k = 0; !rc && (k < n || shot < e->screenshots); k++) {
    if (stop_requested()) {
      rc = -1;
      break;
    }
    char what[300], line[400];
    snprintf(what, sizeof what, "%02zu %s: run", r->number, e->name);
    if (k < n)
      runs_line(line, sizeof line, what, k + 1, n,
                k ? (mono_seconds() - started) / (double)k : -1);
    else
      snprintf(line, sizeof line, "%s %ld (for its pictures)", what, k + 1);
    progress_report(pr, line);
    co.seed = seed0 + (uint64_t)k;
    tilesat_error err;
    double t0 = mono_seconds();
    int res = tilesat_collapse_run(r->c, &co, r->tiles, &err);
    double dt = mono_seconds() - t0;
    if (res < 0) {
      snprintf(r->why, sizeof r->why, "%s", err_said(&err));
      rc = -1;
      break;
    }
    /* a run stopped at its limit did not fail: the reference saves it */
    tilesat_collapse_info ci;
    tilesat_collapse_get(r->c, &ci);
    bool ok = res == TILESAT_SAT || ci.contradiction < 0;
    if (k < n) {
      times[k] = dt;
      r->failures += !ok;
      r->runs++;
    }
    if (shot < e->screenshots) {
      tries++;
      if (ok)
        rc = save(r, co.seed, res == TILESAT_SAT);
      if (ok || tries == TRIES_PER_SHOT) {
        shot++;
        tries = 0;
      }
    }
  }
  if (!rc && n > 0) {
    r->median = median_sorted(times, (size_t)n);
  }
  free(times);
  return rc;
}

/* ----------------------------------------------------------- the line */

static const char *reference_heuristic(tilesat_heuristic h) {
  return h == TILESAT_HEURISTIC_MRV        ? "MRV"
         : h == TILESAT_HEURISTIC_SCANLINE ? "Scanline"
                                           : "Entropy";
}

/* Append to a settings text (cut at its size). */
typedef struct text {
  char *buf;
  size_t size, n;
} text;

static void add(text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (t->n < t->size)
    t->n += (size_t)vsnprintf(t->buf + t->n, t->size - t->n, fmt, ap);
  va_end(ap);
}

/* The entry's settings in the reference's words: what it runs with,
 * defaults filled in, the rest only when set. */
static void settings(const entry_run *r, char *buf, size_t size) {
  const tilesat_wfc_entry *e = r->e;
  text t = {buf, size, 0};
  buf[0] = 0;
  if (e->overlapping)
    add(&t, "overlapping N=%d symmetry=%d%s%s", e->n, e->symmetry,
        e->ground ? " ground" : "",
        e->periodic_input ? "" : " periodicInput=False");
  else if (e->subset)
    add(&t, "simpletiled subset=\"%s\"", e->subset);
  else
    add(&t, "simpletiled");
  add(&t, "%s %dx%d", e->periodic ? " periodic" : "", r->width, r->height);
  if (r->width != e->width || r->height != e->height)
    add(&t, " (of %dx%d)", e->width, e->height);
  if (e->heuristic != TILESAT_HEURISTIC_ENTROPY)
    add(&t, " heuristic=%s", reference_heuristic(e->heuristic));
  if (e->limit > 0)
    add(&t, " limit=%ld", e->limit);
  if (e->seed >= 0)
    add(&t, " seed=%ld", e->seed);
  if (e->screenshots != 2)
    add(&t, " screenshots=%d", e->screenshots);
  add(&t, "%s%s", e->black_background ? " blackBackground" : "",
      e->text_output ? " textOutput" : "");
}

static void print_line(const entry_run *r, bool ran, double seconds) {
  char set[400];
  settings(r, set, sizeof set);
  stop_hold(); /* the line whole */
  printf("%02zu %s (%s): ", r->number,
         r->e->name[0] ? shown_text(r->e->name) : "?", shown_text(set));
  if (!ran) {
    printf("cannot run: %s\n", r->why);
  } else {
    double lo, hi;
    wilson95(r->failures, r->runs, &lo, &hi);
    int T = tilesat_rules_ntiles(r->rules);
    printf("%d %s, %s (%.2f s), WFC failed %ld of %ld (%.1f%%, 95%% interval "
           "%.1f%% to %.1f%%), median run %.1f ms, %ld of %d images, %.2f s\n",
           T, r->e->overlapping ? "patterns" : "tiles", r->check,
           r->check_seconds, r->failures, r->runs,
           100.0 * (double)r->failures / (double)r->runs, 100 * lo, 100 * hi,
           1000 * r->median, r->images, r->e->screenshots, seconds);
  }
  fflush(stdout);
  stop_release();
}

/* One entry, start to end: its line printed.  1 if it ran, 0 if it could
 * not, -1 on Ctrl-C. */
static int run_entry(options *o, const char *list, const tilesat_wfc_entry *e,
                     size_t number, const tilesat_solve_options *so,
                     count_progress *pr) {
  entry_run r = {.o = o, .e = e, .number = number};
  double t0 = mono_seconds();
  uint64_t cut = GIVEN(o, max_size) ? o->max_size : 65535;
  r.width = e->width > (int)cut ? (int)cut : e->width;
  r.height = e->height > (int)cut ? (int)cut : e->height;
  int rc = 0;
  if (e->error) {
    snprintf(r.why, sizeof r.why, "%s", e->error);
    rc = -1;
  }
  if (!rc)
    rc = load_rules(&r, list);
  if (!rc)
    rc = make_map(&r);
  bool stopped = !rc && sat_check(&r, so);
  if (!rc && !stopped && runs(&r, pr)) {
    stopped = !r.why[0]; /* else a file could not be written */
    rc = -1;
  }
  if (!stopped)
    print_line(&r, !rc, mono_seconds() - t0);
  entry_free(&r);
  return stopped ? -1 : !rc;
}

/* ------------------------------------------------------------ the command */

/* Are all --only names in the list? */
static bool only_known(const options *o, const tilesat_wfc_entry *v, size_t n) {
  for (int i = 0; i < o->only.n; i++) {
    bool found = false;
    for (size_t k = 0; k < n && !found; k++)
      found = !strcmp(v[k].name, o->only.v[i]);
    if (!found) {
      fail("--only: no entry named '%s' in %s", o->only.v[i], o->args.v[0]);
      return false;
    }
  }
  return true;
}

static bool wanted(const options *o, const tilesat_wfc_entry *e) {
  for (int i = 0; i < o->only.n; i++)
    if (!strcmp(e->name, o->only.v[i]))
      return true;
  return o->only.n == 0;
}

int cmd_run_samples(options *o) {
  if (o->args.n != 1) {
    fail("run-samples: one run list (samples.xml), not %d (see 'tilesat "
         "run-samples --help')",
         o->args.n);
    return EXIT_ERROR;
  }
  const char *list = o->args.v[0];
  tilesat_solve_options so;
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  tilesat_error err;
  size_t n;
  tilesat_wfc_entry *v = tilesat_wfc_samples_read(list, &n, &err);
  if (!v)
    return fail_err(&err);
  int rc = only_known(o, v, n) ? 0 : EXIT_ERROR;
  if (!rc && mkdir(o->out_dir, 0777) && errno != EEXIST) {
    fail("--out-dir: %s: cannot create: %s", o->out_dir, strerror(errno));
    rc = EXIT_ERROR;
  }
  struct stat st; /* a folder we may write in, before any entry runs */
  int e = rc                                ? 0
          : stat(o->out_dir, &st)           ? errno
          : !S_ISDIR(st.st_mode)            ? ENOTDIR
          : access(o->out_dir, W_OK | X_OK) ? errno
                                            : 0;
  if (e) {
    fail("--out-dir: %s: cannot write there: %s", o->out_dir, strerror(e));
    rc = EXIT_ERROR;
  }
  count_progress pr;
  progress_start(&pr, "run-samples");
  size_t failed = 0, done = 0;
  double t0 = mono_seconds();
  for (size_t i = 0; i < n && !rc; i++) {
    if (!wanted(o, &v[i]))
      continue;
    int res = run_entry(o, list, &v[i], i + 1, &so, &pr);
    if (res < 0)
      rc = stop_said(o);
    failed += res == 0;
    done++;
  }
  if (!rc) { /* the last line, or "interrupted"; once it is out, too late */
    stop_hold();
    if (stop_requested()) {
      rc = stop_said(o);
    } else {
      printf("entries: %zu, ran: %zu, could not run: %zu, %.1f s\n", done,
             done - failed, failed, mono_seconds() - t0);
      stop_commit();
    }
    stop_release();
  }
  if (!rc && failed) {
    fail("%s: %zu of %zu entries could not run (see above)", list, failed,
         done);
    rc = EXIT_ERROR;
  }
  tilesat_wfc_samples_free(v, n);
  return rc;
}
