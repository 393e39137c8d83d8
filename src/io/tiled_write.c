/* tiled_write.c: Tiled maps and tilesets written with a tileset image of
 * our own. */
#include "io/tiled.h"

/* ---------------------------------------------------------------- write */

/* Each tile's picture, scaled up to at least 8 pixels a side so the map is
 * usable in an editor; patterns of the overlapping model show their
 * top-left pixel, the one they stand for in a map. */
typedef struct atlas {
  int tw, th, cols, rows;
  tilesat_image *img;
} atlas;

static void make_atlas(const tilesat_rules *r, const tilesat_pictures *pics,
                       atlas *a) {
  int pw = 1, ph = 1;
  bool patterns = pics && tilesat_pictures_overlap(pics) > 0;
  if (pics && !patterns) {
    pw = tilesat_pictures_width(pics);
    ph = tilesat_pictures_height(pics);
  }
  int big = pw > ph ? pw : ph, k = (8 + big - 1) / big;
  if (k < 1)
    k = 1;
  a->tw = pw * k;
  a->th = ph * k;
  a->cols = 1;
  while (a->cols * a->cols < r->ntiles)
    a->cols++;
  a->rows = (r->ntiles + a->cols - 1) / a->cols;
  a->img = tilesat_image_new(a->cols * a->tw, a->rows * a->th);
  int sw = pics ? tilesat_pictures_width(pics) : 1;
  for (int t = 0; t < r->ntiles; t++) {
    const uint8_t *p =
        pics ? tilesat_pictures_get(pics, r->names.v.v[t]) : NULL;
    uint8_t solid[4];
    if (!p)
      tilesat_tile_colour(r, t, solid);
    int x0 = (t % a->cols) * a->tw, y0 = (t / a->cols) * a->th;
    for (int y = 0; y < a->th; y++)
      for (int x = 0; x < a->tw; x++) {
        const uint8_t *src =
            !p ? solid
            : patterns
                ? p
                : p + ((size_t)(y / k) * (size_t)sw + (size_t)(x / k)) * 4;
        memcpy(a->img->rgba + ((size_t)(y0 + y) * (size_t)a->img->width +
                               (size_t)(x0 + x)) *
                                  4,
               src, 4);
      }
  }
}

/* A name as an XML attribute: encoded (tilesat_name_encode: no control
 * byte, nothing that is not UTF-8); libxml2 escapes it on writing. */
static void xml_name(xmlNode *n, const char *attr, const char *name) {
  char *e = tilesat_name_encode(name);
  ts_tiled_attr(n, attr, e);
  free(e);
}

/* A name as a JSON string member: encoded, so that the file is UTF-8. */
static void json_name(cJSON *o, const char *key, const char *name) {
  char *e = tilesat_name_encode(name);
  cJSON_AddStringToObject(o, key, e);
  free(e);
}

bool ts_tiled_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static unsigned long gid_of(const ts_tiled_layers *l, int t) {
  if (t < 0) /* a masked cell: empty */
    return 0;
  return l->gid ? (unsigned long)l->gid[t] : (unsigned long)t + 1;
}

static void layer_name(const ts_tiled_layers *l, size_t k, char buf[32]) {
  if (l->n == 1)
    snprintf(buf, 32, "tilesat");
  else
    snprintf(buf, 32, "map %zu", k + 1);
}

void ts_tiled_tmx_layers(xmlNode *map, const tilesat_map *m,
                         const ts_tiled_layers *l) {
  uint32_t *gids = ts_malloc((size_t)m->ncells * sizeof *gids + 1);
  for (size_t k = 0; k < l->n; k++) {
    char name[32];
    layer_name(l, k, name);
    xmlNode *layer = ts_tiled_elem(map, "\n ", "layer");
    ts_tiled_attr_long(layer, "id", (long)k + 1);
    ts_tiled_attr(layer, "name", name);
    ts_tiled_attr_long(layer, "width", m->width);
    ts_tiled_attr_long(layer, "height", m->height);
    xmlNode *data = ts_tiled_elem(layer, "\n  ", "data");
    ts_tiled_attr(data, "encoding", "csv");
    for (int c = 0; c < m->ncells; c++)
      gids[c] = (uint32_t)gid_of(l, l->maps[k][c]);
    char *csv = ts_tiled_csv(gids, m->width, m->height);
    ts_tiled_text(data, csv);
    free(csv);
    ts_tiled_text(layer, "\n ");
  }
  free(gids);
}

void ts_tiled_tmj_layers(cJSON *root, const tilesat_map *m,
                         const ts_tiled_layers *l) {
  cJSON *layers = cJSON_AddArrayToObject(root, "layers");
  for (size_t k = 0; k < l->n; k++) {
    char name[32];
    layer_name(l, k, name);
    cJSON *layer = cJSON_CreateObject();
    cJSON_AddItemToArray(layers, layer);
    cJSON_AddNumberToObject(layer, "id", (double)(k + 1));
    cJSON_AddStringToObject(layer, "name", name);
    cJSON_AddStringToObject(layer, "type", "tilelayer");
    cJSON_AddBoolToObject(layer, "visible", k == 0);
    cJSON_AddNumberToObject(layer, "opacity", 1);
    cJSON_AddNumberToObject(layer, "x", 0);
    cJSON_AddNumberToObject(layer, "y", 0);
    cJSON_AddNumberToObject(layer, "width", m->width);
    cJSON_AddNumberToObject(layer, "height", m->height);
    cJSON *data = cJSON_AddArrayToObject(layer, "data");
    for (int c = 0; c < m->ncells; c++)
      cJSON_AddItemToArray(
          data, cJSON_CreateNumber((double)gid_of(l, l->maps[k][c])));
  }
}

void ts_tiled_tmx_properties(xmlNode *map, const ts_tiled_layers *l) {
  if (!l->rules)
    return;
  xmlNode *props = ts_tiled_elem(map, "\n ", "properties");
  xmlNode *p = ts_tiled_elem(props, "\n  ", "property");
  ts_tiled_attr(p, "name", RULES_PROPERTY);
  ts_tiled_attr(p, "value", l->rules);
  ts_tiled_text(props, "\n ");
}

void ts_tiled_tmj_properties(cJSON *root, const ts_tiled_layers *l) {
  if (!l->rules)
    return;
  cJSON *props = cJSON_AddArrayToObject(root, "properties");
  cJSON *p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "name", RULES_PROPERTY);
  cJSON_AddStringToObject(p, "type", "string");
  cJSON_AddStringToObject(p, "value", l->rules);
  cJSON_AddItemToArray(props, p);
}

/* A document made here to f through the writer; the tree is freed. */
int ts_tiled_json_write(FILE *f, cJSON *root, const char *path,
                        tilesat_error *err) {
  ts_tiled_doc *d = ts_tiled_doc_new_json(root);
  int rc = ts_tiled_doc_write(d, f, path, err);
  ts_tiled_doc_free(d);
  return rc;
}

int ts_tiled_xml_write(FILE *f, xmlDoc *doc, const char *path,
                       tilesat_error *err) {
  ts_tiled_doc *d = ts_tiled_doc_new_xml(doc);
  int rc = ts_tiled_doc_write(d, f, path, err);
  ts_tiled_doc_free(d);
  return rc;
}

/* A <tileset>'s attributes after its name, its image and its tiles, each
 * named in a "tilesat" property, and the line end before its closing tag;
 * `ind` indents the element. */
static void tsx_body(xmlNode *ts, const tilesat_rules *r, const atlas *a,
                     const char *image, const char *ind) {
  char in[4][16]; /* "\n" and ind, then 1, 2, 3 spaces deeper */
  for (int k = 0; k < 4; k++)
    snprintf(in[k], sizeof in[k], "\n%s%.*s", ind, k, "   ");
  ts_tiled_attr_long(ts, "tilewidth", a->tw);
  ts_tiled_attr_long(ts, "tileheight", a->th);
  ts_tiled_attr_long(ts, "tilecount", r->ntiles);
  ts_tiled_attr_long(ts, "columns", a->cols);
  xmlNode *img = ts_tiled_elem(ts, in[1], "image");
  ts_tiled_attr(img, "source", image);
  ts_tiled_attr_long(img, "width", a->img->width);
  ts_tiled_attr_long(img, "height", a->img->height);
  for (int t = 0; t < r->ntiles; t++) {
    xmlNode *tile = ts_tiled_elem(ts, in[1], "tile");
    ts_tiled_attr_long(tile, "id", t);
    xmlNode *props = ts_tiled_elem(tile, in[2], "properties");
    xmlNode *p = ts_tiled_elem(props, in[3], "property");
    ts_tiled_attr(p, "name", PROPERTY);
    xml_name(p, "value", r->names.v.v[t]);
    ts_tiled_text(props, in[2]);
    ts_tiled_text(tile, in[1]);
  }
  ts_tiled_text(ts, in[0]);
}

static int write_tmx(FILE *f, const tilesat_map *m, const ts_tiled_layers *l,
                     const atlas *a, const char *image, const char *path,
                     tilesat_error *err) {
  bool hex = m->topo == TILESAT_HEX;
  xmlDoc *doc = ts_tiled_xml_new("map");
  xmlNode *map = xmlDocGetRootElement(doc);
  ts_tiled_attr(map, "version", TILED_FORMAT);
  ts_tiled_attr(map, "tiledversion", TILED_VERSION);
  ts_tiled_attr(map, "orientation", hex ? "hexagonal" : "orthogonal");
  ts_tiled_attr(map, "renderorder", "right-down");
  ts_tiled_attr_long(map, "width", m->width);
  ts_tiled_attr_long(map, "height", m->height);
  ts_tiled_attr_long(map, "tilewidth", a->tw);
  ts_tiled_attr_long(map, "tileheight", a->th);
  ts_tiled_attr(map, "infinite", "0");
  if (hex) {
    ts_tiled_attr_long(map, "hexsidelength", a->th / 2);
    ts_tiled_attr(map, "staggeraxis", "y");
    ts_tiled_attr(map, "staggerindex", "odd");
  }
  ts_tiled_attr_long(map, "nextlayerid", (long)l->n + 1);
  ts_tiled_attr(map, "nextobjectid", "1");
  ts_tiled_tmx_properties(map, l);
  xmlNode *ts = ts_tiled_elem(map, "\n ", "tileset");
  ts_tiled_attr(ts, "firstgid", "1");
  ts_tiled_attr(ts, "name", "tilesat");
  tsx_body(ts, m->rules, a, image, " ");
  ts_tiled_tmx_layers(map, m, l);
  ts_tiled_text(map, "\n");
  return ts_tiled_xml_write(f, doc, path, err);
}

static void tmj_tileset_body(cJSON *ts, const tilesat_rules *r, const atlas *a,
                             const char *image);

static int write_tmj(FILE *f, const tilesat_map *m, const ts_tiled_layers *l,
                     const atlas *a, const char *image, const char *path,
                     tilesat_error *err) {
  const tilesat_rules *r = m->rules;
  bool hex = m->topo == TILESAT_HEX;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "type", "map");
  cJSON_AddStringToObject(root, "version", TILED_FORMAT);
  cJSON_AddStringToObject(root, "tiledversion", TILED_VERSION);
  cJSON_AddStringToObject(root, "orientation",
                          hex ? "hexagonal" : "orthogonal");
  if (hex) {
    int side = a->th / 2; /* whole pixels, as the TMX writer's */
    cJSON_AddNumberToObject(root, "hexsidelength", side);
    cJSON_AddStringToObject(root, "staggeraxis", "y");
    cJSON_AddStringToObject(root, "staggerindex", "odd");
  }
  cJSON_AddStringToObject(root, "renderorder", "right-down");
  cJSON_AddNumberToObject(root, "width", m->width);
  cJSON_AddNumberToObject(root, "height", m->height);
  cJSON_AddNumberToObject(root, "tilewidth", a->tw);
  cJSON_AddNumberToObject(root, "tileheight", a->th);
  cJSON_AddBoolToObject(root, "infinite", false);
  cJSON_AddNumberToObject(root, "nextlayerid", (double)(l->n + 1));
  cJSON_AddNumberToObject(root, "nextobjectid", 1);
  cJSON_AddNumberToObject(root, "compressionlevel", -1);
  ts_tiled_tmj_properties(root, l);
  ts_tiled_tmj_layers(root, m, l);
  cJSON *tilesets = cJSON_AddArrayToObject(root, "tilesets");
  cJSON *ts = cJSON_CreateObject();
  cJSON_AddItemToArray(tilesets, ts);
  cJSON_AddNumberToObject(ts, "firstgid", 1);
  cJSON_AddStringToObject(ts, "name", "tilesat");
  tmj_tileset_body(ts, r, a, image);
  return ts_tiled_json_write(f, root, path, err);
}

/* A JSON tileset's fields after its name: sizes, image, named tiles. */
static void tmj_tileset_body(cJSON *ts, const tilesat_rules *r, const atlas *a,
                             const char *image) {
  cJSON_AddNumberToObject(ts, "tilewidth", a->tw);
  cJSON_AddNumberToObject(ts, "tileheight", a->th);
  cJSON_AddNumberToObject(ts, "tilecount", r->ntiles);
  cJSON_AddNumberToObject(ts, "columns", a->cols);
  cJSON_AddNumberToObject(ts, "margin", 0);
  cJSON_AddNumberToObject(ts, "spacing", 0);
  cJSON_AddStringToObject(ts, "image", image);
  cJSON_AddNumberToObject(ts, "imagewidth", a->img->width);
  cJSON_AddNumberToObject(ts, "imageheight", a->img->height);
  cJSON *tl = cJSON_AddArrayToObject(ts, "tiles");
  for (int t = 0; t < r->ntiles; t++) {
    cJSON *tile = cJSON_CreateObject(), *props, *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(tile, "id", t);
    props = cJSON_AddArrayToObject(tile, "properties");
    cJSON_AddStringToObject(p, "name", PROPERTY);
    cJSON_AddStringToObject(p, "type", "string");
    json_name(p, "value", r->names.v.v[t]);
    cJSON_AddItemToArray(props, p);
    cJSON_AddItemToArray(tl, tile);
  }
}

char *tilesat_tiled_picture_path(const char *path) {
  size_t n = strlen(path) + sizeof ".png";
  char *png = ts_malloc(n);
  snprintf(png, n, "%s.png", path);
  return png;
}

/* Our own tileset: its image into img, the map into f. */
int ts_tiled_write_own_to(const tilesat_map *m, const ts_tiled_layers *l,
                          const tilesat_pictures *pics, const char *path,
                          FILE *f, FILE *img, tilesat_error *err) {
  bool json =
      ts_tiled_ends_with(path, ".tmj") || ts_tiled_ends_with(path, ".json");
  char *png = tilesat_tiled_picture_path(path);
  const char *image = strrchr(png, '/') ? strrchr(png, '/') + 1 : png;
  atlas a;
  make_atlas(m->rules, pics, &a);
  int rc = ts_png_write_stream(a.img, img, png, err);
  if (!rc && json)
    rc = write_tmj(f, m, l, &a, image, path, err);
  else if (!rc)
    rc = write_tmx(f, m, l, &a, image, path, err);
  tilesat_image_free(a.img);
  free(png);
  return rc;
}

/* Commit a Tiled file and the picture it names together, after rc (0 so
 * far, or -1: both discarded).  The file's own write error comes first,
 * and then the old picture stays too. */
static int commit_with_picture(int rc, tilesat_output *file,
                               tilesat_output *img, tilesat_error *err) {
  if (!rc && ts_output_flush(file)) {
    tilesat_output_commit(file, err); /* fails, says why, removes it */
    file = NULL;
    rc = -1;
  }
  if (!rc)
    rc = tilesat_output_commit(img, err);
  else
    tilesat_output_discard(img);
  if (!rc)
    rc = tilesat_output_commit(file, err);
  else
    tilesat_output_discard(file);
  return rc;
}

int ts_tiled_write_own(const tilesat_map *m, const ts_tiled_layers *l,
                       const tilesat_pictures *pics, const char *path,
                       tilesat_error *err) {
  char *png = tilesat_tiled_picture_path(path);
  /* both files written before either replaces what was there */
  tilesat_output *img = tilesat_output_open(png, err), *map = NULL;
  int rc = img ? 0 : -1;
  if (!rc && !(map = tilesat_output_open(path, err)))
    rc = -1;
  if (!rc)
    rc = ts_tiled_write_own_to(m, l, pics, path, tilesat_output_file(map),
                               tilesat_output_file(img), err);
  rc = commit_with_picture(rc, map, img, err);
  free(png);
  return rc;
}

int tilesat_tiled_write_tileset(const tilesat_rules *r,
                                const tilesat_pictures *pics, const char *path,
                                tilesat_error *err) {
  bool json =
      ts_tiled_ends_with(path, ".tsj") || ts_tiled_ends_with(path, ".json");
  /* the image: PATH + ".png"; the name: its stem */
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  const char *base = slash ? slash + 1 : path;
  size_t stem =
      dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  char *png = tilesat_tiled_picture_path(path);
  char *name = ts_strndup(base, stem - (size_t)(base - path));
  const char *image = strrchr(png, '/') ? strrchr(png, '/') + 1 : png;
  atlas a;
  make_atlas(r, pics, &a);
  tilesat_output *img = tilesat_output_open(png, err), *set = NULL;
  int rc =
      img ? ts_png_write_stream(a.img, tilesat_output_file(img), png, err) : -1;
  if (!rc && !(set = tilesat_output_open(path, err)))
    rc = -1;
  if (!rc && json) {
    cJSON *ts = cJSON_CreateObject();
    cJSON_AddStringToObject(ts, "type", "tileset");
    cJSON_AddStringToObject(ts, "version", TILED_FORMAT);
    cJSON_AddStringToObject(ts, "tiledversion", TILED_VERSION);
    json_name(ts, "name", name);
    tmj_tileset_body(ts, r, &a, image);
    rc = ts_tiled_json_write(tilesat_output_file(set), ts, path, err);
  } else if (!rc) {
    xmlDoc *doc = ts_tiled_xml_new("tileset");
    xmlNode *ts = xmlDocGetRootElement(doc);
    ts_tiled_attr(ts, "version", TILED_FORMAT);
    ts_tiled_attr(ts, "tiledversion", TILED_VERSION);
    xml_name(ts, "name", name);
    tsx_body(ts, r, &a, image, "");
    rc = ts_tiled_xml_write(tilesat_output_file(set), doc, path, err);
  }
  rc = commit_with_picture(rc, set, img, err);
  tilesat_image_free(a.img);
  free(png);
  free(name);
  return rc;
}
