/* util.c: what every command shares: errors, outputs, loading a map. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every message to stderr: what it echoes from a file or the command line
 * (a name, a value) shown with escapes (tilesat_shown), one line. */
void fail(const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  size_t size = n > 0 ? 4 * (size_t)n + 1 : 1;
  char *raw = malloc((size_t)(n > 0 ? n : 0) + 1), *shown = malloc(size);
  if (raw && shown) {
    vsnprintf(raw, (size_t)(n > 0 ? n : 0) + 1, fmt, again);
    tilesat_shown(shown, size, raw);
  }
  va_end(again);
  fprintf(stderr, "tilesat: %s\n", raw && shown ? shown : "out of memory");
  free(shown);
  free(raw);
}

const char *shown_text(const char *s) {
  static char *pool[4];
  static size_t cap[4], next;
  size_t k = next++ % 4, need = 4 * strlen(s) + 1;
  if (cap[k] < need) {
    free(pool[k]);
    pool[k] = malloc(need);
    cap[k] = pool[k] ? need : 0;
    if (!pool[k])
      return "?";
  }
  tilesat_shown(pool[k], cap[k], s);
  return pool[k];
}

const char *quoted_text(const char *s) {
  static char *pool[4];
  static size_t cap[4], next;
  const char *shown = shown_text(s);
  size_t k = next++ % 4, need = 2 * strlen(shown) + 3;
  if (cap[k] < need) {
    free(pool[k]);
    pool[k] = malloc(need);
    cap[k] = pool[k] ? need : 0;
    if (!pool[k])
      return "?";
  }
  char *o = pool[k];
  *o++ = '"';
  for (const char *p = shown; *p; p++) {
    if (*p == '"' || *p == '\\')
      *o++ = '\\';
    *o++ = *p;
  }
  *o++ = '"';
  *o = '\0';
  return pool[k];
}

/* Is every name of r a plain word (letters, digits, '_', '-', or any
 * byte past ASCII)? */
static bool plain_names(const tilesat_rules *r) {
  for (int t = 0; t < tilesat_rules_ntiles(r); t++) {
    const char *name = tilesat_rules_tile_name(r, t);
    if (!*name)
      return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
      if (*p < 0x80 && !isalnum(*p) && *p != '_' && *p != '-')
        return false;
  }
  return true;
}

tilesat_map_info map_info(const tilesat_map *m) {
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  return mi;
}

tilesat_explanation_info explanation_info(const tilesat_explanation *e) {
  tilesat_explanation_info ei;
  tilesat_explanation_get(e, &ei);
  return ei;
}

const char *listed_name(const tilesat_rules *r, int t) {
  static const tilesat_rules *last; /* asked name after name of the same */
  static const char *first;         /* rules: their first name's text */
  static bool plain;
  if (r != last || tilesat_rules_tile_name(r, 0) != first) {
    last = r;
    first = tilesat_rules_tile_name(r, 0);
    plain = plain_names(r);
  }
  const char *name = tilesat_rules_tile_name(r, t);
  return plain ? name : quoted_text(name);
}

const char *err_said(tilesat_error *err) {
  size_t n = strnlen(err->param, sizeof err->param);
  if (n && n < sizeof err->param && !strncmp(err->msg, err->param, n) &&
      (err->msg[n] == ':' || err->msg[n] == ' ')) {
    /* the parameter by its option's name: "size: ..." as "--size: ..." */
    size_t len = strlen(err->msg);
    len = len + 2 < sizeof err->msg ? len : sizeof err->msg - 3;
    memmove(err->msg + 2, err->msg, len);
    err->msg[len + 2] = '\0';
    memcpy(err->msg, "--", 2);
  }
  err->param[0] = '\0';
  return err->msg;
}

int fail_err(const tilesat_error *err) {
  tilesat_error said = *err;
  fail("%s", err_said(&said));
  return EXIT_ERROR;
}

void wilson95(long k, long n, double *lo, double *hi) {
  const double z = 1.959964;
  double p = (double)k / (double)n, z2n = z * z / (double)n;
  double centre = (p + z2n / 2) / (1 + z2n);
  double half =
      z * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n)) / (1 + z2n);
  *lo = centre - half > 0 ? centre - half : 0;
  *hi = centre + half < 1 ? centre + half : 1;
}

double mono_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median_sorted(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

int write_rules(const options *o, const tilesat_rules *r) {
  out_file of;
  if (out_open(&of, o->output))
    return EXIT_ERROR;
  tilesat_rules_write(r, of.f); /* a write error: out_close says it */
  return out_close(&of, true);
}

/* Cells of a painted level left free though their name, the free cell's
 * default, is also a tile of the rules (dungeon8's floor "."): said once. */
static void say_left_free(const options *o, const tilesat_rules *r,
                          const tilesat_grid *g, const char *path) {
  if (GIVEN(o, free_tile) || tilesat_rules_find_tile(r, o->free_tile) < 0)
    return;
  long left = 0;
  int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
  for (int c = 0; c < w * h; c++) {
    const char *name = tilesat_grid_at(g, c / w, c % w);
    left += name && !strcmp(name, o->free_tile);
  }
  if (left)
    fprintf(stderr,
            "tilesat: --pins-from: %s: %ld %s '%s', the free cell, which is "
            "also a tile of the rules: left free (--free-tile with another "
            "name pins them)\n",
            path, left, left == 1 ? "cell holds" : "cells hold", o->free_tile);
}

/* A --pins-from map of another size than the map's: what to give instead
 * (without --size the map has the first one's size).  0 or EXIT_ERROR. */
static int pins_same_size(const options *o, const char *path,
                          const tilesat_grid *g, int w, int h) {
  int gw = tilesat_grid_width(g), gh = tilesat_grid_height(g);
  if (gw == w && gh == h)
    return 0;
  if (GIVEN(o, size))
    fail("--pins-from: %s is %dx%d, the map %dx%d: drop --size (the map "
         "then takes the level's size) or give --size %dx%d",
         path, gw, gh, w, h, gw, gh);
  else
    fail("--pins-from: %s is %dx%d, the map %dx%d (the size of %s): give "
         "maps of one size",
         path, gw, gh, w, h, o->pins_from.v[0]);
  return EXIT_ERROR;
}

/* --pins-from MAP: every painted cell of a map of the same size is a pin;
 * cells holding --free-tile (default ".") and Tiled's empty cells stay
 * free.  A PNG cell whose picture several tiles share is held to them (the
 * other tiles banned), not pinned to one.  Pins of several maps add up (a
 * cell pinned to two tiles: no valid map, as with --pin).  0 or EXIT_ERROR
 * (said). */
static int pins_from(options *o, const char *path, tilesat_map *m) {
  const tilesat_rules *r = map_info(m).rules;
  bool empty_given = GIVEN(o, empty);
  if (!empty_given)
    o->empty = "free"; /* a Tiled map's empty cells are free */
  map_in in;
  int rc = map_in_read(o, path, r, &in);
  if (!empty_given)
    o->empty = NULL;
  if (rc)
    return rc;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  rc = pins_same_size(o, path, in.grid, w, h);
  int T = tilesat_rules_ntiles(r);
  int *tiles = malloc((size_t)T * sizeof *tiles);
  bool *keep = calloc((size_t)T, 1);
  if (!tiles || !keep) {
    fail("out of memory");
    abort();
  }
  tilesat_error err;
  int held = 0; /* cells held to several tiles */
  for (int c = 0; c < w * h && !rc; c++) {
    const char *name = tilesat_grid_at(in.grid, c / w, c % w);
    if (!name || !strcmp(name, o->free_tile))
      continue;
    int n = map_in_tiles(&in, c / w, c % w, tiles);
    if (n <= 1) { /* none: the pin says the tile is unknown */
      if (tilesat_map_pin(m, c / w, c % w,
                          n ? tilesat_rules_tile_name(r, tiles[0]) : name,
                          &err)) {
        const char *why = err_said(&err);
        why = strncmp(why, "--pin: ", 7) ? why : why + 7;
        fail("--pins-from: %s: (%d,%d): %s", path, c / w, c % w, why);
        rc = EXIT_ERROR;
      }
      continue;
    }
    if (tilesat_map_masked(m, c / w, c % w)) {
      fail("--pins-from: %s: (%d,%d): cell (%d,%d) is masked: not part of "
           "the map",
           path, c / w, c % w, c / w, c % w);
      rc = EXIT_ERROR;
      continue;
    }
    held++;
    for (int k = 0; k < n; k++)
      keep[tiles[k]] = true;
    for (int t = 0; t < T; t++) {
      if (!keep[t])
        tilesat_map_ban(m, c / w, c % w, t, &err); /* a cell of the map */
      keep[t] = false;
    }
  }
  if (!rc)
    say_left_free(o, r, in.grid, path);
  /* what bans would be refused for later, said in the terms given here */
  if (!rc && held && command_does(o, CMD_PINS_ONLY)) {
    fail("--pins-from: %s: %d %s a picture several tiles share, held to "
         "them by bans, which %s does not take: give the map as a text grid",
         path, held, held == 1 ? "cell shows" : "cells show", o->command);
    rc = EXIT_ERROR;
  }
  free(tiles);
  free(keep);
  map_in_free(&in);
  return rc;
}

/* Without --size: the size of the first --pins-from map. */
static int pins_size(options *o, const tilesat_rules *r) {
  bool empty_given = GIVEN(o, empty);
  if (!empty_given)
    o->empty = "free"; /* an empty Tiled map is still a size */
  map_in in;
  int rc = map_in_read(o, o->pins_from.v[0], r, &in);
  if (!empty_given)
    o->empty = NULL;
  if (rc)
    return rc;
  o->size.w = tilesat_grid_width(in.grid);
  o->size.h = tilesat_grid_height(in.grid);
  map_in_free(&in);
  return 0;
}

int load_constraints(const options *o, tilesat_map *m) {
  tilesat_error err;
  for (int i = 0; i < o->constraints.n; i++)
    if (tilesat_map_constraints_read_file(m, o->constraints.v[i], &err))
      return fail_err(&err);
  const struct {
    enum option_id id;
    tilesat_global_kind kind;
    const string_list *values;
  } shortcuts[] = {{OPTION_connected, TILESAT_GLOBAL_CONNECTED, &o->connected},
                   {OPTION_path, TILESAT_GLOBAL_PATH, &o->path},
                   {OPTION_count_of, TILESAT_GLOBAL_COUNT, &o->count_of},
                   {OPTION_border, TILESAT_GLOBAL_BORDER, &o->border}};
  for (size_t i = 0; i < sizeof shortcuts / sizeof *shortcuts; i++)
    for (int k = 0; k < shortcuts[i].values->n; k++)
      if (tilesat_map_constraint_add(m, shortcuts[i].kind,
                                     shortcuts[i].values->v[k],
                                     option_name(shortcuts[i].id), &err))
        return fail_err(&err);
  return 0;
}

/* Standard input ("-") is read once, so it may be one input only. */
static int stdin_once(const options *o) {
  const char *first = !strcmp(o->args.v[0], "-") ? "the rules file" : NULL;
  const struct {
    const char *option;
    const string_list *v;
  } lists[] = {{"--pins-from", &o->pins_from},
               {"--constraints", &o->constraints}};
  for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
    for (int i = 0; i < lists[l].v->n; i++) {
      if (strcmp(lists[l].v->v[i], "-"))
        continue;
      if (first) {
        fail("%s: - (standard input) is also %s: standard input can be "
             "read once",
             lists[l].option, first);
        return EXIT_ERROR;
      }
      first = lists[l].option == lists[0].option ? "a --pins-from map"
                                                 : "a --constraints file";
    }
  if (first && o->mask && !strcmp(o->mask, "-")) {
    fail("--mask: - (standard input) is also %s: standard input can be "
         "read once",
         first);
    return EXIT_ERROR;
  }
  return 0;
}

/* Read the rules and build the map the options describe. */
int load_map(options *o, tilesat_rules **rules, tilesat_map **map) {
  tilesat_error err;
  if (o->args.n > 1 && o->split_word) {
    fail("%s takes one rules file: '%s' after %s '%s' is another argument "
         "(quote a tile name with spaces whole: %s '%s %s')",
         o->command, o->split_word, o->split_option, o->split_value,
         o->split_option, o->split_value, o->split_word);
    return EXIT_ERROR;
  }
  if (o->args.n != 1) {
    fail("%s takes one rules file (see 'tilesat %s --help')", o->command,
         o->command);
    return EXIT_ERROR;
  }
  if (!GIVEN(o, size) && !o->pins_from.n) {
    fail("%s: missing --size WxH (or --pins-from MAP, whose size it takes)",
         o->command);
    return EXIT_ERROR;
  }
  if (stdin_once(o))
    return EXIT_ERROR;
  if (GIVEN(o, layer) && !tiled_pins(o)) {
    fail("--layer: no Tiled map to read it from (--pins-from MAP.tmx)");
    return EXIT_ERROR;
  }
  *rules = tilesat_rules_read_file(o->args.v[0], &err);
  if (!*rules)
    return fail_err(&err);
  if (!GIVEN(o, size) && pins_size(o, *rules))
    return EXIT_ERROR;
  return map_of_rules(o, *rules, map);
}

int map_of_rules(options *o, const tilesat_rules *rules, tilesat_map **map) {
  tilesat_error err;
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(rules));
  /* collapse --guard modify (and auto, which goes by modify there) fills a
   * map past the whole map's bound; a run that needs the whole map's tables
   * refuses it, naming --guard modify (tilesat_collapse_new) */
  bool large = command_does(o, CMD_LARGE_GUARD) && o->guard &&
               (!strcmp(o->guard, "modify") || !strcmp(o->guard, "auto"));
  *map = large ? tilesat_map_new_large(rules, o->size.w, o->size.h, topo,
                                       o->periodic, &err)
               : tilesat_map_new(rules, o->size.w, o->size.h, topo, o->periodic,
                                 &err);
  if (!*map)
    return fail_err(&err);
  /* count and sample: the dp's bound (counting.c), which auto falls back
   * from; approx and enum keep the default bound */
  if (GIVEN(o, max_memory) && !command_does(o, CMD_DP_MEMORY))
    tilesat_map_set_max_memory(*map, o->max_memory);
  if (o->mask && load_mask(o, *map)) /* before the pins, which it refuses */
    return EXIT_ERROR;
  for (int i = 0; i < o->pins.n; i++) {
    /* the option's own name in the pin's errors and hints (--pin) */
    int row, col, t;
    if (tilesat_map_parse_cell(*map, o->pins.v[i], "--pin", &row, &col, &t,
                               &err) ||
        tilesat_map_pin(*map, row, col,
                        tilesat_rules_tile_name(map_info(*map).rules, t), &err))
      return fail_err(&err);
  }
  for (int i = 0; i < o->pins_from.n; i++)
    if (pins_from(o, o->pins_from.v[i], *map))
      return EXIT_ERROR;
  return load_constraints(o, *map);
}

tilesat_topology topology_of(const options *o, tilesat_topology fallback) {
  tilesat_topology t = fallback;
  if (o->topology) /* one of square|hex: the option table checked it */
    tilesat_topology_parse(o->topology, &t);
  return t;
}

/* --backend (checked against the option table's choices), and signals. */
int parse_backend(const options *o, tilesat_solve_options *so) {
  memset(so, 0, sizeof *so); /* every field the command does not set: none */
  so->backend = TILESAT_PICOSAT;
  if (o->backend && tilesat_backend_parse(o->backend, &so->backend)) {
    fail("--backend: '%s' is not a backend of this build", o->backend);
    return EXIT_ERROR;
  }
  so->terminate = stop_terminate;
  so->terminate_user = NULL;
  stop_polled();
  /* one clock per run: the command solves once parse_backend was called */
  static count_progress solving;
  progress_start(&solving, o->command);
  so->progress = progress_report;
  so->progress_user = &solving;
  return 0;
}

int fail_solve(const options *o, const tilesat_error *err) {
  return stop_requested() ? stop_said(o) : fail_err(err);
}

static bool has_lazy(const tilesat_map *m) {
  for (int i = 0, n = map_info(m).nglobals; i < n; i++) {
    tilesat_global_kind k = tilesat_map_global_kind(m, i);
    if (k == TILESAT_GLOBAL_CONNECTED || k == TILESAT_GLOBAL_PATH)
      return true;
  }
  return false;
}

void cut_report(const options *o, const tilesat_map *m,
                const tilesat_solve_stats *stats) {
  if (has_lazy(m))
    fprintf(stderr, "tilesat: %s: %ld solves, %ld cut rounds, %ld cuts\n",
            o->command, stats->solves, stats->cut_rounds, stats->cuts);
}

void lazy_backend(const options *o, const tilesat_map *m,
                  tilesat_solve_options *so) {
  if (!o->backend && has_lazy(m))
    so->backend = TILESAT_BACKEND_AUTO; /* CaDiCaL, for these */
}

const char *plural(double n) { return n == 1 ? "" : "s"; }

/* Is cell in the window (rows row0.., columns col0.., modulo the size)? */
static bool in_window(const tilesat_map *m, int cell, const int w[4]) {
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height;
  int dr = (cell / W - w[0] + H) % H, dc = (cell % W - w[1] + W) % W;
  return dr < w[2] && dc < w[3];
}

/* The pins in the window, as "the pins (0,0)=S and (0,1)=L" (the first
 * 6), into f; how many there are. */
static int window_pins(const tilesat_map *m, const int w[4], FILE *f) {
  const tilesat_rules *r = map_info(m).rules;
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, n = 0, total = 0, np = mi.npins;
  for (int i = 0; i < np; i++) {
    int cell, tile;
    tilesat_map_pin_get(m, i, &cell, &tile);
    total += in_window(m, cell, w);
  }
  for (int i = 0; i < np && n < 6; i++) {
    int cell, tile;
    tilesat_map_pin_get(m, i, &cell, &tile);
    if (!in_window(m, cell, w))
      continue;
    n++;
    fputs(n == 1       ? (total == 1 ? "the pin " : "the pins ")
          : n == total ? " and "
                       : ", ",
          f);
    fprintf(f, "(%d,%d)=", cell / W, cell % W);
    tilesat_write_name(f, tilesat_rules_tile_name(r, tile));
  }
  if (total > n)
    fprintf(f, " and %d more", total - n);
  return total;
}

char *unsat_words(const tilesat_map *m, const tilesat_check_answer *how) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return NULL;
  char where[256];
  if (how->by == TILESAT_BY_WINDOW || how->by == TILESAT_BY_PROPAGATION)
    tilesat_check_answer_text(m, how, where, sizeof where);
  const int w[4] = {how->row0, how->col0, how->rows, how->cols};
  if (how->by == TILESAT_BY_WINDOW) {
    if (window_pins(m, w, f))
      fprintf(f, " clash: %s keeps them", where);
    else
      fprintf(f, "the rules: %s", where);
  } else if (how->by == TILESAT_BY_PROPAGATION) {
    fprintf(f, "%s", where);
  } else {
    fprintf(f, "no map of this size exists with these rules%s",
            map_info(m).npins ? " and pins" : "");
  }
  fclose(f);
  return text;
}
