/* tiled.c: Tiled maps (mapeditor.org) as samples and as outputs.
 *
 * A tile layer is width*height global tile ids (gids): the top four bits
 * are flip flags, the rest index the map's tilesets (0 = empty).  Reading
 * keeps flips apart ("12:h" is not "12"), because a flipped tile is a
 * different picture with different neighbours.  Writing makes one tileset
 * image of our own and names every tile in a "tilesat" property, so a map
 * written here reads back to the same grid of names. */
#include "io/tiled.h"

/* The folder part of a path, with its '/' ("" for none; malloc'd). */
char *ts_tiled_dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? ts_strndup(path, (size_t)(slash - path + 1)) : ts_strdup("");
}

void ts_tiled_named_free(named_gids *v) {
  for (size_t i = 0; i < v->n; i++)
    free(v->v[i].name);
  free(v->v);
}

/* ------------------------------------------------------------ decoding */

static int b64val(unsigned char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 (whitespace ignored) into a malloc'd buffer; NULL on bad input. */
static uint8_t *base64_decode(const char *s, size_t *outlen) {
  size_t n = strlen(s);
  uint8_t *out = ts_malloc(n / 4 * 3 + 3);
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0, pad = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    if (c == '=') {
      pad++;
      continue;
    }
    int v = b64val(c);
    if (v < 0 || pad) {
      free(out);
      return NULL;
    }
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(acc >> bits);
    }
  }
  if (pad > 2) {
    free(out);
    return NULL;
  }
  *outlen = o;
  return out;
}

/* zlib or gzip (detected) into exactly `want` bytes; false otherwise. */
static bool inflate_exact(const uint8_t *in, size_t inlen, uint8_t *out,
                          size_t want) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 32) != Z_OK)
    return false;
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)inlen;
  z.next_out = out;
  z.avail_out = (uInt)want;
  int rc = inflate(&z, Z_FINISH);
  bool ok = rc == Z_STREAM_END && z.total_out == want;
  inflateEnd(&z);
  return ok;
}

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
    p++;
  return p;
}

/* CSV layer data: exactly n gids. */
static bool decode_csv(const char *text, uint32_t *gids, size_t n,
                       const char **msg) {
  const char *p = text;
  size_t k = 0;
  for (;;) {
    p = skip_space(p);
    if (!*p)
      break;
    if (*p < '0' || *p > '9' || k == n) {
      *msg = k == n ? "more tiles than the layer's width x height"
                    : "bad CSV data (expected numbers and commas)";
      return false;
    }
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (v > UINT32_MAX) {
      *msg = "tile id out of range";
      return false;
    }
    gids[k++] = (uint32_t)v;
    p = skip_space(end);
    if (*p == ',')
      p++;
    else if (*p) {
      *msg = "bad CSV data (expected numbers and commas)";
      return false;
    }
  }
  if (k != n) {
    *msg = "fewer tiles than the layer's width x height";
    return false;
  }
  return true;
}

/* base64 layer data, zlib- or gzip-compressed or not: n little-endian gids. */
static bool decode_base64(const char *text, const char *compression,
                          uint32_t *gids, size_t n, const char **msg) {
  size_t len;
  uint8_t *raw = base64_decode(text, &len);
  if (!raw) {
    *msg = "bad base64 data";
    return false;
  }
  uint8_t *bytes = raw;
  uint8_t *plain = NULL;
  bool ok = true;
  if (compression && *compression) {
    if (strcmp(compression, "zlib") && strcmp(compression, "gzip")) {
      *msg = "unsupported compression (zlib and gzip are)";
      ok = false;
    } else {
      plain = ts_malloc(n * 4);
      ok = inflate_exact(raw, len, plain, n * 4);
      if (!ok)
        *msg = "bad compressed data, or not width x height tiles";
      bytes = plain;
      len = n * 4;
    }
  }
  if (ok && len != n * 4) {
    *msg = "data is not width x height tiles";
    ok = false;
  }
  for (size_t k = 0; ok && k < n; k++)
    gids[k] = (uint32_t)bytes[4 * k] | (uint32_t)bytes[4 * k + 1] << 8 |
              (uint32_t)bytes[4 * k + 2] << 16 |
              (uint32_t)bytes[4 * k + 3] << 24;
  free(raw);
  free(plain);
  return ok;
}

/* Layer data as gids: `text` (CSV, or base64 with optional compression). */
static bool decode_data(const char *text, const char *encoding,
                        const char *compression, uint32_t *gids, size_t n,
                        const char **msg) {
  if (!encoding || !strcmp(encoding, "csv")) {
    if (compression && *compression) {
      *msg = "CSV data cannot be compressed";
      return false;
    }
    return decode_csv(text, gids, n, msg);
  }
  if (strcmp(encoding, "base64")) {
    *msg = "unknown data encoding (csv or base64)";
    return false;
  }
  return decode_base64(text, compression, gids, n, msg);
}

/* The grid: names by gid (property, or decimal id, plus flip letters). */
static tilesat_grid *grid_of(const char *path, int w, int h,
                             const uint32_t *gids, const named_gids *named,
                             tilesat_empty empty, tilesat_error *err) {
  ts_names names = {0};
  int *cells = ts_malloc((size_t)w * (size_t)h * sizeof *cells);
  size_t kept = 0;
  for (size_t k = 0; k < (size_t)w * (size_t)h; k++) {
    uint32_t id = gids[k] & ~FLIP_MASK, flips = gids[k] & FLIP_MASK;
    if (id == 0 && empty != TILESAT_EMPTY_TILE) {
      cells[k] = -1;
      continue;
    }
    kept++;
    const char *base = NULL;
    for (size_t i = 0; i < named->n && !base; i++)
      if (named->v[i].gid == id)
        base = named->v[i].name;
    char num[16];
    if (!base) {
      snprintf(num, sizeof num, "%u", (unsigned)id);
      base = num;
    }
    size_t bl = strlen(base);
    char *name = ts_malloc(bl + 6);
    memcpy(name, base, bl + 1);
    char *q = name + bl;
    if (flips && id) {
      *q++ = ':';
      if (flips & 0x80000000u)
        *q++ = 'h';
      if (flips & 0x40000000u)
        *q++ = 'v';
      if (flips & 0x20000000u)
        *q++ = 'd';
      if (flips & 0x10000000u)
        *q++ = 'x';
    }
    *q = 0;
    cells[k] = ts_names_intern(&names, name, strlen(name));
    free(name);
  }
  if (!kept && empty != TILESAT_EMPTY_FREE) {
    ts_error(err, path, 0, "the layer has no tiles (every cell is empty)");
    ts_names_free(&names);
    free(cells);
    return NULL;
  }
  return ts_grid_new(path, w, h, &names, cells);
}

static bool dim(long v) { return v > 0 && v <= MAX_CELLS; }

/* Why a reader found no tile layer to read. */
void ts_tiled_no_layer(const char *path, const char *want, tilesat_error *err) {
  if (want)
    ts_error(err, path, 0, "no tile layer named '%s'", want);
  else
    ts_error(err, path, 0, "no tile layer");
}

/* How a format reads its layer's n gids: false, with the reason, when they
 * are not n good gids; `line` starts as the layer's and may be moved to
 * the data's. */
typedef bool gids_reader(const void *layer, uint32_t *gids, size_t n,
                         const char **msg, long *line);

/* The end the readers share, once a format has found its layer and its
 * width and height: the size checked, the gids read, the grid made. */
static tilesat_grid *layer_grid(const char *path, long line, long w, long h,
                                gids_reader *read, const void *layer,
                                const named_gids *named, tilesat_empty empty,
                                tilesat_error *err) {
  if (w * h > MAX_CELLS) {
    ts_error(err, path, line, "a %ldx%ld layer is too large (at most %d cells)",
             w, h, MAX_CELLS);
    return NULL;
  }
  size_t n = (size_t)w * (size_t)h;
  uint32_t *gids = ts_calloc(n, sizeof *gids);
  const char *msg = NULL;
  tilesat_grid *g = NULL;
  if (read(layer, gids, n, &msg, &line))
    g = grid_of(path, (int)w, (int)h, gids, named, empty, err);
  else
    ts_error(err, path, line, "%s", msg);
  free(gids);
  return g;
}

/* ------------------------------------------------------------------ TMX */

long ts_tiled_int_attr(xmlNode *n, const char *name, long def) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
  if (!v)
    return def;
  char *end;
  long x = strtol((const char *)v, &end, 10);
  if (*end || end == (char *)v)
    x = -1;
  xmlFree(v);
  return x;
}

bool ts_tiled_is_elem(xmlNode *n, const char *name) {
  return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* The tilesat name property of one <tile>'s <properties>, as gid GID. */
static void tmx_tile_names(xmlNode *ps, uint32_t gid, named_gids *named) {
  for (xmlNode *p = ps->children; p; p = p->next) {
    if (!ts_tiled_is_elem(p, "property"))
      continue;
    xmlChar *name = xmlGetProp(p, (const xmlChar *)"name");
    xmlChar *value = xmlGetProp(p, (const xmlChar *)"value");
    if (name && value && !strcmp((const char *)name, PROPERTY) && *value) {
      named_gid g = {gid, tilesat_name_decode((char *)value)};
      TS_PUSH(*named, g);
    }
    xmlFree(name);
    xmlFree(value);
  }
}

/* The named <tile>s of a <tileset> (a map's, or a .tsx file's root), as
 * gids from `first`. */
static void tmx_tile_list(xmlNode *ts, long first, named_gids *named) {
  for (xmlNode *t = ts->children; t; t = t->next) {
    if (!ts_tiled_is_elem(t, "tile"))
      continue;
    long id = ts_tiled_int_attr(t, "id", -1);
    if (id < 0 || first < 0 || first + id > 0x0FFFFFFF)
      continue;
    for (xmlNode *ps = t->children; ps; ps = ps->next)
      if (ts_tiled_is_elem(ps, "properties"))
        tmx_tile_names(ps, (uint32_t)(first + id), named);
  }
}

static int external_names(const char *map, const char *source, long first,
                          named_gids *named, tilesat_error *err);

/* The names of one of a .tmx map's tilesets: an embedded one's tiles, or
 * an external one's (its source="..."); 0 or -1. */
int ts_tiled_tmx_tileset_names(const char *path, xmlNode *ts, named_gids *named,
                               tilesat_error *err) {
  long first = ts_tiled_int_attr(ts, "firstgid", 1);
  xmlChar *src = xmlGetProp(ts, (const xmlChar *)"source");
  int rc = 0;
  if (src)
    rc = external_names(path, (const char *)src, first, named, err);
  else
    tmx_tile_list(ts, first, named);
  xmlFree(src);
  return rc;
}

/* The tile layer named `want` (NULL: the first) among parent's children,
 * depth first through group layers, in the file's order. */
xmlNode *ts_tiled_tmx_find_layer(xmlNode *parent, const char *want) {
  for (xmlNode *n = parent->children; n; n = n->next) {
    if (ts_tiled_is_elem(n, "group")) {
      xmlNode *l = ts_tiled_tmx_find_layer(n, want);
      if (l)
        return l;
    } else if (ts_tiled_is_elem(n, "layer")) {
      xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
      bool match = !want || (name && !strcmp((const char *)name, want));
      xmlFree(name);
      if (match)
        return n;
    }
  }
  return NULL;
}

/* A <layer>'s gids: <tile> elements, or encoded text in its <data>. */
static bool tmx_gids(const void *layer, uint32_t *gids, size_t n,
                     const char **msg, long *line) {
  xmlNode *data = NULL;
  for (xmlNode *c = ((const xmlNode *)layer)->children; c && !data; c = c->next)
    if (ts_tiled_is_elem(c, "data"))
      data = c;
  if (!data) {
    *msg = "layer has no <data>";
    return false;
  }
  *line = xmlGetLineNo(data);
  xmlChar *enc = xmlGetProp(data, (const xmlChar *)"encoding");
  xmlChar *comp = xmlGetProp(data, (const xmlChar *)"compression");
  bool ok;
  if (!enc) {
    /* <tile gid=".."/> elements; <chunk>s belong to infinite maps */
    size_t k = 0;
    ok = true;
    for (xmlNode *t = data->children; t && ok; t = t->next) {
      if (ts_tiled_is_elem(t, "chunk")) {
        *msg = "chunks (infinite maps) are not supported";
        ok = false;
      } else if (ts_tiled_is_elem(t, "tile")) {
        long gid = ts_tiled_int_attr(t, "gid", 0);
        if (k == n || gid < 0) {
          *msg =
              k == n ? "more tiles than the layer's width x height" : "bad gid";
          ok = false;
        } else {
          gids[k++] = (uint32_t)gid;
        }
      }
    }
    if (ok && k != n) {
      *msg = "fewer tiles than the layer's width x height";
      ok = false;
    }
  } else {
    xmlChar *content = xmlNodeGetContent(data);
    ok = decode_data(content ? (const char *)content : "", (const char *)enc,
                     (const char *)comp, gids, n, msg);
    xmlFree(content);
  }
  xmlFree(enc);
  xmlFree(comp);
  return ok;
}

/* tilesat's hex maps are Tiled's pointy-top maps staggered on the odd
 * rows (staggeraxis "y", staggerindex "odd": Tiled's defaults); read as
 * such, a hexagonal map staggered another way would have other
 * neighbours.  NULL, or why it is refused. */
static const char *stagger_refused(const char *orientation, const char *axis,
                                   const char *index) {
  if (!orientation || strcmp(orientation, "hexagonal"))
    return NULL;
  if (axis && strcmp(axis, "y"))
    return "a hexagonal map staggered along x (flat-top): tilesat's hex "
           "maps are pointy-top, their odd rows shifted (staggeraxis \"y\", "
           "staggerindex \"odd\")";
  if (index && strcmp(index, "odd"))
    return "a hexagonal map whose even rows are shifted (staggerindex "
           "\"even\"): tilesat's hex maps shift their odd rows (staggeraxis "
           "\"y\", staggerindex \"odd\")";
  return NULL;
}

static const char *tmx_stagger_refused(xmlNode *root) {
  xmlChar *o = xmlGetProp(root, (const xmlChar *)"orientation");
  xmlChar *a = xmlGetProp(root, (const xmlChar *)"staggeraxis");
  xmlChar *i = xmlGetProp(root, (const xmlChar *)"staggerindex");
  const char *why =
      stagger_refused((const char *)o, (const char *)a, (const char *)i);
  xmlFree(o);
  xmlFree(a);
  xmlFree(i);
  return why;
}

static tilesat_grid *read_tmx(const char *path, const char *text, size_t len,
                              const char *want, tilesat_empty empty,
                              tilesat_error *err) {
  xmlDoc *doc = ts_xml_parse(text, len, path, err);
  if (!doc)
    return NULL;
  xmlNode *root = xmlDocGetRootElement(doc);
  tilesat_grid *g = NULL;
  named_gids named = {0};
  if (!ts_tiled_is_elem(root, "map")) {
    ts_error(err, path, xmlGetLineNo(root),
             "not a Tiled map: root element <%s>, expected <map>",
             (const char *)root->name);
    goto done;
  }
  if (ts_tiled_int_attr(root, "infinite", 0) == 1) {
    ts_error(err, path, xmlGetLineNo(root),
             "infinite Tiled maps are not supported (resize to a fixed map)");
    goto done;
  }
  const char *stagger = tmx_stagger_refused(root);
  if (stagger) {
    ts_error(err, path, xmlGetLineNo(root), "%s", stagger);
    goto done;
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (ts_tiled_is_elem(n, "tileset") &&
        ts_tiled_tmx_tileset_names(path, n, &named, err))
      goto done;
  xmlNode *layer = ts_tiled_tmx_find_layer(root, want);
  if (!layer) {
    ts_tiled_no_layer(path, want, err);
    goto done;
  }
  long line = xmlGetLineNo(layer);
  long w =
      ts_tiled_int_attr(layer, "width", ts_tiled_int_attr(root, "width", -1));
  long h =
      ts_tiled_int_attr(layer, "height", ts_tiled_int_attr(root, "height", -1));
  if (!dim(w) || !dim(h)) {
    ts_error(err, path, line, "layer needs a width and height (1 to %d)",
             MAX_CELLS);
    goto done;
  }
  g = layer_grid(path, line, w, h, tmx_gids, layer, &named, empty, err);
done:
  ts_tiled_named_free(&named);
  xmlFreeDoc(doc);
  return g;
}

/* ------------------------------------------------------------------ TMJ */

bool ts_tiled_json_int(const cJSON *o, const char *key, long *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long)v->valuedouble)
    return false;
  *out = (long)v->valuedouble;
  return true;
}

const char *ts_tiled_json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The named tiles of a JSON tileset (a map's, or a .tsj file), as gids
 * from `first`. */
static void tmj_tile_list(const cJSON *ts, long first, named_gids *named) {
  const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(ts, "tiles"), *t;
  cJSON_ArrayForEach(t, tiles) {
    long id;
    if (!ts_tiled_json_int(t, "id", &id) || id < 0 || first + id > 0x0FFFFFFF)
      continue;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(t, "properties"), *p;
    cJSON_ArrayForEach(p, props) {
      const char *name = ts_tiled_json_str(p, "name"),
                 *value = ts_tiled_json_str(p, "value");
      if (name && value && !strcmp(name, PROPERTY) && *value) {
        named_gid g = {(uint32_t)(first + id), tilesat_name_decode(value)};
        TS_PUSH(*named, g);
      }
    }
  }
}

/* The names of one of a .tmj map's tilesets, embedded or external; 0 or
 * -1. */
int ts_tiled_tmj_tileset_names(const char *path, const cJSON *ts,
                               named_gids *named, tilesat_error *err) {
  long first;
  if (!ts_tiled_json_int(ts, "firstgid", &first) || first < 0)
    return 0;
  const char *src = ts_tiled_json_str(ts, "source");
  if (src)
    return external_names(path, src, first, named, err);
  tmj_tile_list(ts, first, named);
  return 0;
}

/* An external tileset's names: `source` (a .tsx, or a .tsj: recognised by
 * content) relative to the folder of the map `map`.  A tileset file that
 * is not there names no tile: its tiles read by gid, as before the
 * tileset's file was made; one that is there must be a tileset.  0 or
 * -1. */
static int external_names(const char *map, const char *source, long first,
                          named_gids *named, tilesat_error *err) {
  char *file;
  if (source[0] == '/') {
    file = ts_strdup(source);
  } else {
    char *dir = ts_tiled_dir_of(map);
    size_t n = strlen(dir) + strlen(source) + 1;
    file = ts_malloc(n);
    snprintf(file, n, "%s%s", dir, source);
    free(dir);
  }
  int rc = 0;
  size_t len;
  struct stat st;
  if (stat(file, &st)) { /* not there */
    free(file);
    return 0;
  }
  if (!S_ISREG(st.st_mode)) { /* a device or a pipe would never end */
    ts_error(err, file, 0, "not a Tiled tileset (not a regular file)");
    free(file);
    return -1;
  }
  char *text = ts_read_file(file, &len, err);
  if (!text) {
    free(file);
    return -1;
  }
  size_t i = ts_text_start(text, len);
  if (i < len && text[i] == '<') {
    xmlDoc *doc = ts_xml_parse(text, len, file, err);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root)
      rc = -1;
    else if (!ts_tiled_is_elem(root, "tileset")) {
      ts_error(err, file, xmlGetLineNo(root),
               "not a Tiled tileset: root element <%s>, expected <tileset>",
               (const char *)root->name);
      rc = -1;
    } else {
      tmx_tile_list(root, first, named);
    }
    xmlFreeDoc(doc);
  } else {
    cJSON *ts = i < len && text[i] == '{'
                    ? cJSON_ParseWithLength(text + i, len - i)
                    : NULL;
    if (cJSON_IsObject(ts))
      tmj_tile_list(ts, first, named);
    else {
      ts_error(err, file, 0, "not a Tiled tileset (neither XML nor JSON)");
      rc = -1;
    }
    cJSON_Delete(ts);
  }
  free(text);
  free(file);
  return rc;
}

/* The tile layer named `want` (NULL: the first) of a "layers" array, depth
 * first through group layers. */
cJSON *ts_tiled_tmj_find_layer(const cJSON *layers, const char *want) {
  cJSON *l;
  cJSON_ArrayForEach(l, layers) {
    const char *type = ts_tiled_json_str(l, "type"),
               *name = ts_tiled_json_str(l, "name");
    if (type && !strcmp(type, "group")) {
      cJSON *in = ts_tiled_tmj_find_layer(
          cJSON_GetObjectItemCaseSensitive(l, "layers"), want);
      if (in)
        return in;
    } else if (type && !strcmp(type, "tilelayer") &&
               (!want || (name && !strcmp(name, want)))) {
      return l;
    }
  }
  return NULL;
}

/* A tile layer's gids: its "data", an array of numbers or encoded text. */
static bool tmj_gids(const void *layer, uint32_t *gids, size_t n,
                     const char **msg, long *line) {
  (void)line; /* the messages of JSON maps name no line */
  const cJSON *tl = layer;
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(tl, "data");
  bool ok = true;
  if (cJSON_IsArray(data)) {
    size_t k = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, data) {
      if (!ok)
        break;
      if (k == n || !cJSON_IsNumber(v) || v->valuedouble < 0 ||
          v->valuedouble > (double)UINT32_MAX ||
          v->valuedouble != (double)(uint32_t)v->valuedouble) {
        *msg = k == n ? "more tiles than the layer's width x height"
                      : "tile data must be whole numbers from 0 to 4294967295";
        ok = false;
      } else {
        gids[k++] = (uint32_t)v->valuedouble;
      }
    }
    if (ok && k != n) {
      *msg = "fewer tiles than the layer's width x height";
      ok = false;
    }
  } else if (cJSON_IsString(data)) {
    ok = decode_data(data->valuestring, ts_tiled_json_str(tl, "encoding"),
                     ts_tiled_json_str(tl, "compression"), gids, n, msg);
  } else {
    *msg = "tile layer has no \"data\" (chunks of infinite maps are not "
           "supported)";
    ok = false;
  }
  return ok;
}

static tilesat_grid *read_tmj(const char *path, const char *text, size_t len,
                              const char *want, tilesat_empty empty,
                              tilesat_error *err) {
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
  if (!root) {
    long line = 1;
    const char *stop =
        end && end >= text && end <= text + len ? end : text + len;
    for (const char *p = text; p < stop; p++)
      line += *p == '\n';
    ts_error(err, path, line, "bad JSON");
    return NULL;
  }
  tilesat_grid *g = NULL;
  named_gids named = {0};
  const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
  if (!cJSON_IsObject(root) || !cJSON_IsArray(layers)) {
    ts_error(err, path, 0, "not a Tiled map (no \"layers\" array)");
    goto done;
  }
  const cJSON *infinite = cJSON_GetObjectItemCaseSensitive(root, "infinite");
  if (cJSON_IsTrue(infinite)) {
    ts_error(err, path, 0,
             "infinite Tiled maps are not supported (resize to a fixed map)");
    goto done;
  }
  const char *stagger =
      stagger_refused(ts_tiled_json_str(root, "orientation"),
                      ts_tiled_json_str(root, "staggeraxis"),
                      ts_tiled_json_str(root, "staggerindex"));
  if (stagger) {
    ts_error(err, path, 0, "%s", stagger);
    goto done;
  }
  const cJSON *ts;
  cJSON_ArrayForEach(ts, cJSON_GetObjectItemCaseSensitive(root, "tilesets")) {
    if (ts_tiled_tmj_tileset_names(path, ts, &named, err))
      goto done;
  }
  const cJSON *layer = ts_tiled_tmj_find_layer(layers, want);
  if (!layer) {
    ts_tiled_no_layer(path, want, err);
    goto done;
  }
  long w, h;
  if (!ts_tiled_json_int(layer, "width", &w) ||
      !ts_tiled_json_int(layer, "height", &h) || !dim(w) || !dim(h)) {
    ts_error(err, path, 0, "tile layer needs a width and height (1 to %d)",
             MAX_CELLS);
    goto done;
  }
  g = layer_grid(path, 0, w, h, tmj_gids, layer, &named, empty, err);
done:
  ts_tiled_named_free(&named);
  cJSON_Delete(root);
  return g;
}

tilesat_grid *tilesat_tiled_read(const char *path, const char *layer,
                                 tilesat_empty empty, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  size_t i = ts_text_start(text, len);
  tilesat_grid *g;
  if (i < len && text[i] == '<')
    g = read_tmx(path, text, len, layer, empty, err);
  else if (i < len && text[i] == '{')
    g = read_tmj(path, text + i, len - i, layer, empty, err);
  else {
    ts_error(err, path, 0, "not a Tiled map (neither XML nor JSON)");
    g = NULL;
  }
  free(text);
  return g;
}
