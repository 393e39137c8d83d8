/* outputs.c: the --png / --tmx / --tmj outputs of the map commands: one
 * map (check, anneal), a sheet of maps (enum, sample), or the domains of a
 * map being explained or traced.  Checked before any work (outputs_ready),
 * written after it to files that wait for the command's end (files.c). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ("-" is a file here, as it always was: a picture is no answer) */
static int open_file(out_file *of, const char *path) {
  return out_open(of, strcmp(path, "-") ? path : "./-");
}

/* How --png draws: --scale, explain's window; pins drawn as their tile
 * and framed, plain colours named in a legend: always on a picture for
 * reading (marked), on a finished map's only with --scale: without it, it
 * is the map alone (colours of a pixel each drawn larger, to be seen),
 * which verify, --pins-from and extract read back (its note says how). */
static tilesat_draw drawing(const options *o, bool marked) {
  bool decorated = marked || GIVEN(o, scale);
  tilesat_draw how = {.scale =
                          decorated ? (int)o->scale : TILESAT_SCALE_READABLE,
                      .pins = decorated,
                      .legend = decorated};
  memcpy(how.window, o->window, sizeof how.window);
  return how;
}

/* Cells of margin around a clash shown cropped. */
#define MARGIN 4

void crop_around(options *o, const tilesat_map *m, const int *cells, size_t n) {
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height;
  int lo[2] = {H, W}, hi[2] = {-1, -1};
  if (!shown_cropped(o, m))
    return;
  for (size_t i = 0; i < n; i++) {
    int rc[2] = {cells[i] / W, cells[i] % W};
    for (int a = 0; a < 2; a++) {
      lo[a] = rc[a] < lo[a] ? rc[a] : lo[a];
      hi[a] = rc[a] > hi[a] ? rc[a] : hi[a];
    }
  }
  if (hi[0] < 0)
    return;
  const int size[2] = {H, W};
  for (int a = 0; a < 2; a++) {
    lo[a] = lo[a] - MARGIN > 0 ? lo[a] - MARGIN : 0;
    hi[a] = hi[a] + MARGIN < size[a] - 1 ? hi[a] + MARGIN : size[a] - 1;
  }
  if (tilesat_rules_topology(map_info(m).rules) == TILESAT_HEX && lo[0] % 2)
    lo[0]--; /* a hex map's rows keep their shifts */
  o->window[0] = lo[0];
  o->window[1] = lo[1];
  o->window[2] = hi[0] - lo[0] + 1;
  o->window[3] = hi[1] - lo[1] + 1;
}

void pins_cut_notice(const options *o, int least) {
  static bool said; /* once a run, however many pictures */
  if (!least || said)
    return;
  said = true;
  char keeps[64];
  if (least > 0)
    snprintf(keeps, sizeof keeps, "at least %d keeps them whole", least);
  else
    snprintf(keeps, sizeof keeps, "no --scale up to 512 keeps them whole");
  if (GIVEN(o, scale))
    fprintf(stderr,
            "tilesat: --scale %d draws pinned tiles smaller than their "
            "pictures (%s)\n",
            (int)o->scale, keeps);
  else
    fprintf(stderr,
            "tilesat: %s: pinned tiles are drawn smaller than their pictures "
            "to keep the picture within 2^26 pixels, 32768 a side (--scale: "
            "%s, on a smaller map or window)\n",
            o->png, keeps);
}

/* A picture this large takes seconds to compress: said before. */
#define BIG_PICTURE ((size_t)1 << 24)

/* img as a PNG file noting what it is (tilesat_png_note; "marked": a
 * picture that explains); 0 or EXIT_ERROR (said). */
static int write_png(const char *path, const tilesat_image *img,
                     const char *note) {
  tilesat_error err;
  out_file of;
  if (!img) {
    fail("%s: the map's picture would be too large (over 2^26 pixels)", path);
    return EXIT_ERROR;
  }
  if (open_file(&of, path))
    return EXIT_ERROR;
  if ((size_t)img->width * (size_t)img->height >= BIG_PICTURE)
    fprintf(stderr, "tilesat: %s: writing a %dx%d-pixel picture\n", path,
            img->width, img->height);
  if (tilesat_image_write_png_noted(img, of.f, path, note, &err)) {
    out_close(&of, false);
    return fail_err(&err);
  }
  return out_close(&of, true);
}

/* The map property tilesat-rules of a Tiled map written to path: the rules
 * file seen from there, for Tiled's extension (malloc'd), or NULL: none
 * (rules from standard input; a path no Tiled file can hold, said). */
static char *rules_property(const options *o, const char *path) {
  const char *rules = o->args.n > 0 ? o->args.v[0] : NULL;
  char *v = tilesat_tiled_rules_property(rules, path);
  struct stat st;
  if (!v && rules && !stat(rules, &st) && S_ISREG(st.st_mode))
    fail("%s: no map property tilesat-rules: the path of %s from there is "
         "not plain UTF-8; set the property in Tiled",
         path, rules);
  return v;
}

/* maps as a Tiled map at path: with our own tileset, its picture beside it
 * (PATH.png), else with --tilesets-from's.  0 or EXIT_ERROR. */
static int write_tiled(options *o, const tilesat_map *m, const int *const *maps,
                       size_t n, const tilesat_pictures *pics,
                       const char *path) {
  char *png = o->tilesets_from ? NULL : tiled_image(path);
  if (!o->tilesets_from && !png) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  tilesat_error err;
  const tilesat_tiled_doc *like =
      o->tilesets_from ? tiled_doc(o, o->tilesets_from, &err) : NULL;
  if (o->tilesets_from && !like) {
    free(png);
    return fail_err(&err);
  }
  char *rules = rules_property(o, path);
  out_file img = {NULL, NULL, -1, NULL}, map = {NULL, NULL, -1, NULL};
  int rc = png && open_file(&img, png) ? EXIT_ERROR : 0;
  if (!rc && open_file(&map, path))
    rc = EXIT_ERROR;
  if (!rc &&
      tilesat_tiled_doc_write_maps_to(m, maps, n, pics, like, rules, path,
                                      map.f, png ? img.f : NULL, &err))
    rc = fail_err(&err);
  /* the picture first: a write error there drops the map too */
  if (img.out && out_close(&img, !rc))
    rc = EXIT_ERROR;
  if (map.out && out_close(&map, !rc))
    rc = EXIT_ERROR;
  free(rules);
  free(png);
  return rc;
}

/* The map painted in `base` with its layer filled, to path. */
static int write_into(options *o, const tilesat_map *m, const int *tiles,
                      const char *base, const char *path) {
  tilesat_error err;
  const tilesat_tiled_doc *doc = tiled_doc(o, base, &err);
  if (!doc)
    return fail_err(&err);
  char *rules = rules_property(o, path);
  int rc =
      tilesat_tiled_doc_write_into(m, tiles, doc, o->layer, rules, path, &err)
          ? fail_err(&err)
          : (said_written(path), 0);
  free(rules);
  return rc;
}

/* --tilesets-from: can that map lend its tilesets to this one's tiles?
 * Tried on a blank map, written nowhere. */
static int tilesets_ready(options *o, const tilesat_map *m) {
  const tilesat_map_info mi = map_info(m);
  size_t cells = (size_t)mi.width * (size_t)mi.height;
  int *blank = calloc(cells, sizeof *blank);
  FILE *null = fopen("/dev/null", "w");
  int rc = 0;
  if (!blank || !null) {
    fail("out of memory");
    rc = EXIT_ERROR;
  }
  const int *maps[1] = {blank};
  const char *tiled[2] = {o->tmx, o->tmj};
  tilesat_error err;
  const tilesat_tiled_doc *like =
      rc ? NULL : tiled_doc(o, o->tilesets_from, &err);
  if (!rc && !like)
    rc = fail_err(&err);
  for (int i = 0; i < 2 && !rc; i++)
    if (tiled[i] &&
        tilesat_tiled_doc_write_maps_to(m, maps, 1, NULL, like, NULL, tiled[i],
                                        null, NULL, &err))
      rc = fail_err(&err);
  if (null)
    fclose(null);
  free(blank);
  return rc;
}

int outputs_ready(options *o, const tilesat_map *m, bool on_sheet) {
  if (!o->png && !o->tmx && !o->tmj)
    return 0;
  const tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  int rc = 0;
  /* explain, trace and verify draw marked pictures, larger */
  bool marked = command_does(o, CMD_MARKS);
  tilesat_draw how = drawing(o, marked);
  bool cropped = command_does(o, CMD_CROPS) && shown_cropped(o, m);
  if (o->png && !cropped &&
      !(on_sheet ? tilesat_render_sheet_drawn_fits(m, pics, 1, &how) > 0
        : marked ? tilesat_render_marked_drawn_fits(m, pics, &how)
                 : tilesat_render_drawn_fits(m, pics, &how))) {
    fail("%s: the map's picture would be too large (over 2^26 pixels): "
         "--scale N draws fewer pixels a cell%s",
         o->png, command_does(o, CMD_CROPS) ? ", or leave out --whole" : "");
    rc = EXIT_ERROR;
  }
  if (!rc && o->tilesets_from && (o->tmx || o->tmj))
    rc = tilesets_ready(o, m);
  return rc;
}

int map_outputs(options *o, const tilesat_map *m, const int *tiles) {
  if (!o->png && !o->tmx && !o->tmj)
    return 0;
  const tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  int rc = 0;
  if (o->png) {
    tilesat_draw how = drawing(o, false);
    tilesat_image *img = tilesat_render_drawn(m, pics, tiles, NULL, &how);
    if (img)
      pins_cut_notice(o, tilesat_render_pins_cut(m, pics, &how, false));
    char note[80];
    tilesat_render_drawn_note(m, pics, &how, 1, note, sizeof note);
    rc = write_png(o->png, img, note);
    tilesat_image_free(img);
  }
  const char *tiled[2] = {o->tmx, o->tmj};
  const int *maps[1] = {tiles};
  /* a painted Tiled map is written back whole, its layer filled */
  const char *base = o->tilesets_from ? NULL : tiled_pins(o);
  for (int i = 0; i < 2 && !rc; i++)
    if (tiled[i])
      rc = !base ? write_tiled(o, m, maps, 1, pics, tiled[i])
                 : write_into(o, m, tiles, base, tiled[i]);
  return rc;
}

int domains_png(options *o, const tilesat_map *m, cell_has has,
                const void *user, const uint8_t *marks, const int *pairs,
                size_t npairs) {
  if (!o->png)
    return 0;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  int T = tilesat_rules_ntiles(map_info(m).rules), words = (T + 63) / 64;
  uint64_t *dom = calloc((size_t)w * (size_t)h * (size_t)words, sizeof *dom);
  const tilesat_pictures *pics = NULL;
  if (!dom) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int c = 0; c < w * h; c++)
    for (int k = 0; k < T; k++)
      if (!has || has(user, c, k))
        dom[(size_t)c * (size_t)words + (size_t)(k / 64)] |= (uint64_t)1
                                                             << (k % 64);
  int rc = load_pictures(o, &pics);
  if (!rc) {
    tilesat_draw how = drawing(o, true);
    tilesat_image *img = tilesat_render_marked_drawn(m, pics, NULL, dom, marks,
                                                     pairs, npairs, &how);
    if (img)
      pins_cut_notice(o, tilesat_render_pins_cut(m, pics, &how, true));
    rc = write_png(o->png, img, "marked");
    tilesat_image_free(img);
  }
  free(dom);
  return rc;
}

int image_png(const char *path, const tilesat_image *img) {
  return write_png(path, img, "marked");
}

/* ------------------------------------- enum / sample --png / --tmx / --tmj */

/* At most this many maps go on a contact sheet or into a Tiled map. */
#define SHEET_MAX 256

struct sheet {
  options *o;
  const tilesat_map *m;
  const tilesat_pictures *pics; /* o's */
  int **maps;
  size_t n, fit; /* maps kept; of them, how many the sheet has room for */
  bool failed;
};

sheet *sheet_new(options *o, const tilesat_map *m) {
  if (!o->png && !o->tmx && !o->tmj)
    return NULL;
  sheet *s = calloc(1, sizeof *s);
  if (!s || !(s->maps = calloc(SHEET_MAX, sizeof *s->maps))) {
    fail("out of memory");
    abort();
  }
  s->o = o;
  s->m = m;
  s->failed = load_pictures(o, &s->pics) != 0;
  /* as many maps as a picture of at most 2^26 pixels holds */
  tilesat_draw how = drawing(o, false);
  s->fit = s->failed
               ? 0
               : tilesat_render_sheet_drawn_fits(m, s->pics, SHEET_MAX, &how);
  return s;
}

void sheet_add(sheet *s, const int *tiles) {
  if (!s || s->n == SHEET_MAX)
    return;
  size_t n = (size_t)map_info(s->m).width * (size_t)map_info(s->m).height;
  if (!(s->maps[s->n] = malloc(n * sizeof *tiles))) {
    fail("out of memory");
    abort();
  }
  memcpy(s->maps[s->n++], tiles, n * sizeof *tiles);
}

void no_map_no_picture(const options *o) {
  const char *flag[3] = {"--png", "--tmx", "--tmj"};
  const char *path[3] = {o->png, o->tmx, o->tmj};
  for (int i = 0; i < 3; i++)
    if (path[i])
      fprintf(stderr,
              "tilesat: %s: no map to %s: %s not written (tilesat explain "
              "says why there is none)\n",
              flag[i], i ? "write" : "draw", path[i]);
}

int sheet_end(sheet *s) {
  if (!s)
    return 0;
  options *o = s->o;
  int rc = s->failed ? EXIT_ERROR : 0;
  if (!rc && o->png && !s->n) /* no map: no blank picture */
    no_map_no_picture(o);
  else if (!rc && o->png) {
    size_t n = s->n < s->fit ? s->n : s->fit;
    tilesat_draw how = drawing(o, false);
    tilesat_image *img = tilesat_render_sheet_drawn(
        s->m, s->pics, (const int *const *)s->maps, n, &how);
    if (img)
      pins_cut_notice(o, tilesat_render_pins_cut(s->m, s->pics, &how, false));
    char note[80];
    tilesat_render_drawn_note(s->m, s->pics, &how, n, note, sizeof note);
    rc = write_png(o->png, img, note);
    tilesat_image_free(img);
  }
  /* a Tiled map with one layer per map; nothing to write without maps */
  const char *tiled[2] = {o->tmx, o->tmj};
  for (int i = 0; i < 2 && !rc && s->n; i++)
    if (tiled[i])
      rc = write_tiled(o, s->m, (const int *const *)s->maps, s->n, s->pics,
                       tiled[i]);
  for (size_t i = 0; i < s->n; i++)
    free(s->maps[i]);
  free(s->maps);
  free(s);
  return rc;
}

static void print_map(const tilesat_map *m, const int *tiles) {
  stop_hold(); /* a map is printed whole or not at all */
  tilesat_map_write(m, tiles, stdout);
  putchar('\n');
  stop_release();
}

/* enum's maps so far, their rate since the first, and how to have fewer
 * (the caller throttles). */
static void say_found(map_sink *ctx) {
  double now = mono_seconds();
  if (ctx->seen == 1)
    ctx->first = now;
  char line[256];
  int n = snprintf(line, sizeof line, "%ld map%s so far", ctx->seen,
                   plural((double)ctx->seen));
  if (ctx->limit > 0)
    n += snprintf(line + n, sizeof line - (size_t)n, " of at most %ld",
                  ctx->limit);
  if (now - ctx->first >= 0.5)
    n += snprintf(line + n, sizeof line - (size_t)n, ", %.0f a second",
                  (double)(ctx->seen - 1) / (now - ctx->first));
  if (ctx->limit <= 0)
    snprintf(line + n, sizeof line - (size_t)n,
             "; --limit N stops after N, and 'tilesat count' gives how many "
             "without listing them");
  progress_report(ctx->found, line);
}

int map_sink_print(void *user, const int *tiles) {
  map_sink *ctx = user;
  if (++ctx->seen == ctx->hold_at) { /* the last: kept for map_sink_end */
    size_t n = (size_t)map_info(ctx->m).width * (size_t)map_info(ctx->m).height;
    if (!(ctx->last = malloc(n * sizeof *tiles))) {
      fail("out of memory");
      abort();
    }
    memcpy(ctx->last, tiles, n * sizeof *tiles);
  } else if (!ctx->quiet) {
    print_map(ctx->m, tiles);
  }
  sheet_add(ctx->sheet, tiles);
  if (ctx->found)
    say_found(ctx);
  if (ctx->progress && ctx->seen < ctx->hold_at) {
    double now = mono_seconds();
    if (ctx->seen == 1 && !ctx->found)
      ctx->first = now;
    char line[128];
    runs_line(line, sizeof line, "map", ctx->seen + 1, ctx->hold_at,
              ctx->seen > 1 ? (now - ctx->first) / (double)(ctx->seen - 1)
                            : -1);
    progress_report(ctx->progress, line);
  }
  /* a signal, or a reader that went away (SIGPIPE ignored): stop here */
  return stop_requested() || stdout_failed();
}

void map_sink_end(map_sink *ctx, bool print) {
  if (print && ctx->last && !ctx->quiet)
    print_map(ctx->m, ctx->last);
  free(ctx->last);
  ctx->last = NULL;
}
