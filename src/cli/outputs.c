/* outputs.c: the --png / --tmx / --tmj outputs of the map commands: one
 * map (check, anneal), a sheet of maps (enum, sample), or the domains of a
 * map being explained or traced. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int map_outputs(options *o, const tilesat_map *m, const int *tiles) {
  if (!o->png && !o->tmx && !o->tmj)
    return 0;
  tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  tilesat_error err;
  int rc = 0;
  stop_hold(); /* a signal leaves no temporary file of the library's */
  if (o->png && tilesat_render_png(m, pics, tiles, NULL, NULL, o->png, &err))
    rc = fail_err(&err);
  const char *tiled[2] = {o->tmx, o->tmj};
  /* a painted Tiled map is written back whole, its layer filled */
  const char *base = o->tilesets_from ? NULL : tiled_pins(o);
  for (int i = 0; i < 2 && !rc; i++)
    if (tiled[i] &&
        (o->tilesets_from ? tilesat_tiled_write_like(m, tiles, o->tilesets_from,
                                                     tiled[i], &err)
         : base ? tilesat_tiled_write_into(m, tiles, base, o->layer, tiled[i],
                                           &err)
                : tilesat_tiled_write(m, tiles, pics, tiled[i], &err)))
      rc = fail_err(&err);
  stop_release();
  tilesat_pictures_free(pics);
  return rc;
}

int domains_png(options *o, const tilesat_map *m, cell_has has,
                const void *user, const bool *mark) {
  if (!o->png)
    return 0;
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  int T = tilesat_rules_ntiles(tilesat_map_rules(m)), words = (T + 63) / 64;
  uint64_t *dom = calloc((size_t)w * (size_t)h * (size_t)words, sizeof *dom);
  tilesat_pictures *pics = NULL;
  if (!dom) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int c = 0; c < w * h; c++)
    for (int k = 0; k < T; k++)
      if (!has || has(user, c, k))
        dom[(size_t)c * (size_t)words + (size_t)(k / 64)] |= (uint64_t)1
                                                             << (k % 64);
  tilesat_error err;
  int rc = load_pictures(o, &pics);
  stop_hold();
  if (!rc && tilesat_render_png(m, pics, NULL, dom, mark, o->png, &err))
    rc = fail_err(&err);
  stop_release();
  tilesat_pictures_free(pics);
  free(dom);
  return rc;
}

/* ------------------------------------- enum / sample --png / --tmx / --tmj */

/* At most this many maps go on a contact sheet or into a Tiled map. */
#define SHEET_MAX 256

struct sheet {
  const options *o;
  const tilesat_map *m;
  tilesat_pictures *pics;
  int **maps;
  size_t n;
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
  return s;
}

void sheet_add(sheet *s, const int *tiles) {
  if (!s || s->n == SHEET_MAX)
    return;
  size_t n = (size_t)tilesat_map_width(s->m) * (size_t)tilesat_map_height(s->m);
  if (!(s->maps[s->n] = malloc(n * sizeof *tiles))) {
    fail("out of memory");
    abort();
  }
  memcpy(s->maps[s->n++], tiles, n * sizeof *tiles);
}

int sheet_end(sheet *s) {
  if (!s)
    return 0;
  const options *o = s->o;
  int rc = s->failed ? EXIT_ERROR : 0;
  tilesat_error err;
  stop_hold();
  if (!rc && o->png) {
    tilesat_image *img =
        tilesat_render_sheet(s->m, s->pics, (const int *const *)s->maps, s->n);
    if (!img) {
      fail("%s: contact sheet too large", o->png);
      rc = EXIT_ERROR;
    } else if (tilesat_image_write_png(img, o->png, &err)) {
      rc = fail_err(&err);
    }
    tilesat_image_free(img);
  }
  /* a Tiled map with one layer per map; nothing to write without maps */
  const char *tiled[2] = {o->tmx, o->tmj};
  for (int i = 0; i < 2 && !rc && s->n; i++)
    if (tiled[i] &&
        tilesat_tiled_write_maps(s->m, (const int *const *)s->maps, s->n,
                                 s->pics, o->tilesets_from, tiled[i], &err))
      rc = fail_err(&err);
  stop_release();
  for (size_t i = 0; i < s->n; i++)
    free(s->maps[i]);
  free(s->maps);
  tilesat_pictures_free(s->pics);
  free(s);
  return rc;
}

int map_sink_print(void *user, const int *tiles) {
  map_sink *ctx = user;
  stop_hold(); /* a map is printed whole or not at all */
  tilesat_map_write(ctx->m, tiles, stdout);
  putchar('\n');
  stop_release();
  sheet_add(ctx->sheet, tiles);
  /* a signal, or a reader that went away (SIGPIPE ignored): stop here */
  return stop_requested() || stdout_failed();
}
