/* tiled_into.c: a map written into the layer of the Tiled map it was
 * painted in (a copy of its document, the layer replaced), and the entry
 * points of the writers. */
#include "io/tiled.h"

/* The document `base` with its layer `want` holding the filled map, its
 * paths re-pointed from `path` and its rules named: a copy (malloc'd), or
 * NULL and *err. */
static ts_tiled_doc *filled(const tilesat_map *m, const int *tiles,
                            const ts_tiled_doc *base, const char *want,
                            const char *rules, const char *path,
                            tilesat_error *err) {
  void *layer = ts_tiled_doc_layer(base, want);
  if (!layer) {
    ts_tiled_no_layer(base->path, want, err);
    return NULL;
  }
  long line = base->json ? 0 : xmlGetLineNo(layer), w, h;
  ts_tiled_doc_layer_size(base, layer, &w, &h);
  if (w != m->width || h != m->height) {
    ts_error(err, base->path, line,
             "the layer is %ldx%ld, the map written %dx%d", w, h, m->width,
             m->height);
    return NULL;
  }
  uint32_t *gid = ts_tiled_doc_gids(base, m->rules, err);
  if (!gid)
    return NULL;
  uint32_t *cells = ts_malloc((size_t)m->ncells * sizeof *cells + 1);
  for (int c = 0; c < m->ncells; c++)
    cells[c] = tiles[c] < 0 ? 0 : gid[tiles[c]];
  free(gid);
  ts_tiled_doc *d = ts_tiled_doc_copy(base);
  const char *why = ts_tiled_doc_put_layer(d, ts_tiled_doc_layer(d, want),
                                           cells, m->width, m->height);
  free(cells);
  if (why) {
    ts_error(err, base->path, line, "%s", why);
    ts_tiled_doc_free(d);
    return NULL;
  }
  ts_tiled_doc_move_paths(d, path);
  ts_tiled_doc_rules(d, rules, path);
  return d;
}

int tilesat_tiled_doc_write_into(const tilesat_map *m, const int *tiles,
                                 const tilesat_tiled_doc *base,
                                 const char *layer, const char *rules,
                                 const char *path, tilesat_error *err) {
  if (!m || !tiles || !base || !path)
    ts_misuse(__func__, "no map, tiles, document or path");
  bool json =
      ts_tiled_ends_with(path, ".tmj") || ts_tiled_ends_with(path, ".json");
  bool xml = !base->json;
  if (xml == json) {
    ts_error(err, path, 0,
             "%s is a %s map: its completed copy is written as %s too (%s)",
             base->path, xml ? ".tmx" : ".tmj", xml ? ".tmx" : ".tmj",
             xml ? "--tmx" : "--tmj");
    return -1;
  }
  ts_tiled_doc *d = filled(m, tiles, base, layer, rules, path, err);
  tilesat_output *o = d ? tilesat_output_open(path, err) : NULL;
  int rc = -1;
  if (o && ts_tiled_doc_write(d, tilesat_output_file(o), path, err))
    tilesat_output_discard(o);
  else if (o)
    rc = tilesat_output_commit(o, err);
  ts_tiled_doc_free(d);
  return rc;
}

int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                        const tilesat_pictures *pics, const char *path,
                        tilesat_error *err) {
  const int *maps[1] = {tiles};
  ts_tiled_layers l = {maps, 1, NULL, NULL};
  return ts_tiled_write_own(m, &l, pics, path, err);
}
