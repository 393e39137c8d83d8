/* tiled.c: Tiled maps (mapeditor.org) as samples and as outputs.
 *
 * A tile layer is width*height global tile ids (gids): the top four bits
 * are flip flags, the rest index the map's tilesets (0 = empty).  Reading
 * keeps flips apart ("12:h" is not "12"), because a flipped tile is a
 * different picture with different neighbours.  Writing makes one tileset
 * image of our own and names every tile in a "tilesat" property, so a map
 * written here reads back to the same grid of names. */
/* POSIX with XSI: realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "io/io.h"

#include <cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define FLIP_MASK 0xF0000000u
#define PROPERTY "tilesat"
#define MAX_CELLS (1 << 24)

/* gid -> name for tiles that carry a "tilesat" property. */
typedef struct named_gid {
  uint32_t gid;
  char *name;
} named_gid;
typedef TS_VEC(named_gid) named_gids;

/* The folder part of a path, with its '/' ("" for none; malloc'd). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? ts_strndup(path, (size_t)(slash - path + 1)) : ts_strdup("");
}

static void named_free(named_gids *v) {
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
static void no_layer(const char *path, const char *want, tilesat_error *err) {
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

static long int_attr(xmlNode *n, const char *name, long def) {
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

static bool is_elem(xmlNode *n, const char *name) {
  return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* The tilesat name property of one <tile>'s <properties>, as gid GID. */
static void tmx_tile_names(xmlNode *ps, uint32_t gid, named_gids *named) {
  for (xmlNode *p = ps->children; p; p = p->next) {
    if (!is_elem(p, "property"))
      continue;
    xmlChar *name = xmlGetProp(p, (const xmlChar *)"name");
    xmlChar *value = xmlGetProp(p, (const xmlChar *)"value");
    if (name && value && !strcmp((const char *)name, PROPERTY) && *value) {
      named_gid g = {gid, ts_strdup((char *)value)};
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
    if (!is_elem(t, "tile"))
      continue;
    long id = int_attr(t, "id", -1);
    if (id < 0 || first < 0 || first + id > 0x0FFFFFFF)
      continue;
    for (xmlNode *ps = t->children; ps; ps = ps->next)
      if (is_elem(ps, "properties"))
        tmx_tile_names(ps, (uint32_t)(first + id), named);
  }
}

static int external_names(const char *map, const char *source, long first,
                          named_gids *named, tilesat_error *err);

/* The names of one of a .tmx map's tilesets: an embedded one's tiles, or
 * an external one's (its source="..."); 0 or -1. */
static int tmx_tileset_names(const char *path, xmlNode *ts, named_gids *named,
                             tilesat_error *err) {
  long first = int_attr(ts, "firstgid", 1);
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
static xmlNode *tmx_find_layer(xmlNode *parent, const char *want) {
  for (xmlNode *n = parent->children; n; n = n->next) {
    if (is_elem(n, "group")) {
      xmlNode *l = tmx_find_layer(n, want);
      if (l)
        return l;
    } else if (is_elem(n, "layer")) {
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
    if (is_elem(c, "data"))
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
      if (is_elem(t, "chunk")) {
        *msg = "chunks (infinite maps) are not supported";
        ok = false;
      } else if (is_elem(t, "tile")) {
        long gid = int_attr(t, "gid", 0);
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
  if (!is_elem(root, "map")) {
    ts_error(err, path, xmlGetLineNo(root),
             "not a Tiled map: root element <%s>, expected <map>",
             (const char *)root->name);
    goto done;
  }
  if (int_attr(root, "infinite", 0) == 1) {
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
    if (is_elem(n, "tileset") && tmx_tileset_names(path, n, &named, err))
      goto done;
  xmlNode *layer = tmx_find_layer(root, want);
  if (!layer) {
    no_layer(path, want, err);
    goto done;
  }
  long line = xmlGetLineNo(layer);
  long w = int_attr(layer, "width", int_attr(root, "width", -1));
  long h = int_attr(layer, "height", int_attr(root, "height", -1));
  if (!dim(w) || !dim(h)) {
    ts_error(err, path, line, "layer needs a width and height (1 to %d)",
             MAX_CELLS);
    goto done;
  }
  g = layer_grid(path, line, w, h, tmx_gids, layer, &named, empty, err);
done:
  named_free(&named);
  xmlFreeDoc(doc);
  return g;
}

/* ------------------------------------------------------------------ TMJ */

static bool json_int(const cJSON *o, const char *key, long *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long)v->valuedouble)
    return false;
  *out = (long)v->valuedouble;
  return true;
}

static const char *json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The named tiles of a JSON tileset (a map's, or a .tsj file), as gids
 * from `first`. */
static void tmj_tile_list(const cJSON *ts, long first, named_gids *named) {
  const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(ts, "tiles"), *t;
  cJSON_ArrayForEach(t, tiles) {
    long id;
    if (!json_int(t, "id", &id) || id < 0 || first + id > 0x0FFFFFFF)
      continue;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(t, "properties"), *p;
    cJSON_ArrayForEach(p, props) {
      const char *name = json_str(p, "name"), *value = json_str(p, "value");
      if (name && value && !strcmp(name, PROPERTY) && *value) {
        named_gid g = {(uint32_t)(first + id), ts_strdup(value)};
        TS_PUSH(*named, g);
      }
    }
  }
}

/* The names of one of a .tmj map's tilesets, embedded or external; 0 or
 * -1. */
static int tmj_tileset_names(const char *path, const cJSON *ts,
                             named_gids *named, tilesat_error *err) {
  long first;
  if (!json_int(ts, "firstgid", &first) || first < 0)
    return 0;
  const char *src = json_str(ts, "source");
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
    char *dir = dir_of(map);
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
  size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                     text[i] == '\t'))
    i++;
  if (i < len && text[i] == '<') {
    xmlDoc *doc = ts_xml_parse(text, len, file, err);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root)
      rc = -1;
    else if (!is_elem(root, "tileset")) {
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
static cJSON *tmj_find_layer(const cJSON *layers, const char *want) {
  cJSON *l;
  cJSON_ArrayForEach(l, layers) {
    const char *type = json_str(l, "type"), *name = json_str(l, "name");
    if (type && !strcmp(type, "group")) {
      cJSON *in =
          tmj_find_layer(cJSON_GetObjectItemCaseSensitive(l, "layers"), want);
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
    ok = decode_data(data->valuestring, json_str(tl, "encoding"),
                     json_str(tl, "compression"), gids, n, msg);
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
  const char *stagger = stagger_refused(json_str(root, "orientation"),
                                        json_str(root, "staggeraxis"),
                                        json_str(root, "staggerindex"));
  if (stagger) {
    ts_error(err, path, 0, "%s", stagger);
    goto done;
  }
  const cJSON *ts;
  cJSON_ArrayForEach(ts, cJSON_GetObjectItemCaseSensitive(root, "tilesets")) {
    if (tmj_tileset_names(path, ts, &named, err))
      goto done;
  }
  const cJSON *layer = tmj_find_layer(layers, want);
  if (!layer) {
    no_layer(path, want, err);
    goto done;
  }
  long w, h;
  if (!json_int(layer, "width", &w) || !json_int(layer, "height", &h) ||
      !dim(w) || !dim(h)) {
    ts_error(err, path, 0, "tile layer needs a width and height (1 to %d)",
             MAX_CELLS);
    goto done;
  }
  g = layer_grid(path, 0, w, h, tmj_gids, layer, &named, empty, err);
done:
  named_free(&named);
  cJSON_Delete(root);
  return g;
}

tilesat_grid *tilesat_tiled_read(const char *path, const char *layer,
                                 tilesat_empty empty, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                     text[i] == '\t'))
    i++;
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

static void xml_escaped(FILE *f, const char *s) {
  for (; *s; s++)
    switch (*s) {
    case '&':
      fputs("&amp;", f);
      break;
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    default:
      fputc(*s, f);
    }
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The layers written: one per map, named "tilesat" (one map) or "map K",
 * tile t as gid[t] (or t + 1 in our own tileset). */
typedef struct layers_in {
  const int *const *maps;
  size_t n;
  const uint32_t *gid;
} layers_in;

static unsigned long gid_of(const layers_in *l, int t) {
  if (t < 0) /* a masked cell: empty */
    return 0;
  return l->gid ? (unsigned long)l->gid[t] : (unsigned long)t + 1;
}

static void layer_name(const layers_in *l, size_t k, char buf[32]) {
  if (l->n == 1)
    snprintf(buf, 32, "tilesat");
  else
    snprintf(buf, 32, "map %zu", k + 1);
}

static void tmx_layers(FILE *f, const tilesat_map *m, const layers_in *l) {
  for (size_t k = 0; k < l->n; k++) {
    char name[32];
    layer_name(l, k, name);
    fprintf(f,
            " <layer id=\"%zu\" name=\"%s\" width=\"%d\" height=\"%d\">\n"
            "  <data encoding=\"csv\">\n",
            k + 1, name, m->width, m->height);
    for (int row = 0; row < m->height; row++) {
      for (int c = 0; c < m->width; c++)
        fprintf(f, "%lu%s", gid_of(l, l->maps[k][row * m->width + c]),
                row == m->height - 1 && c == m->width - 1 ? "" : ",");
      fputc('\n', f);
    }
    fprintf(f, "</data>\n </layer>\n");
  }
}

static void tmj_layers(cJSON *root, const tilesat_map *m, const layers_in *l) {
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

/* A JSON document and a newline to f; the document is freed.  Running out
 * of memory aborts, as everywhere in the library. */
static void json_write(FILE *f, cJSON *root) {
  char *s = cJSON_Print(root);
  cJSON_Delete(root);
  if (!s) {
    fprintf(stderr, "tilesat: out of memory (writing JSON)\n");
    abort();
  }
  fputs(s, f);
  fputc('\n', f);
  cJSON_free(s);
}

/* A <tileset>'s attributes after its name, its image and its tiles, each
 * named in a "tilesat" property, and the closing tag; `ind` indents the
 * element. */
static void tsx_body(FILE *f, const tilesat_rules *r, const atlas *a,
                     const char *image, const char *ind) {
  fprintf(f,
          " tilewidth=\"%d\" tileheight=\"%d\" tilecount=\"%d\" "
          "columns=\"%d\">\n%s <image source=\"",
          a->tw, a->th, r->ntiles, a->cols, ind);
  xml_escaped(f, image);
  fprintf(f, "\" width=\"%d\" height=\"%d\"/>\n", a->img->width,
          a->img->height);
  for (int t = 0; t < r->ntiles; t++) {
    fprintf(f,
            "%s <tile id=\"%d\">\n%s  <properties>\n%s   <property "
            "name=\"%s\" value=\"",
            ind, t, ind, ind, PROPERTY);
    xml_escaped(f, r->names.v.v[t]);
    fprintf(f, "\"/>\n%s  </properties>\n%s </tile>\n", ind, ind);
  }
  fprintf(f, "%s</tileset>\n", ind);
}

static void write_tmx(FILE *f, const tilesat_map *m, const layers_in *l,
                      const atlas *a, const char *image) {
  const tilesat_rules *r = m->rules;
  bool hex = m->topo == TILESAT_HEX;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"%s\" "
          "renderorder=\"right-down\" width=\"%d\" height=\"%d\" "
          "tilewidth=\"%d\" tileheight=\"%d\" infinite=\"0\"",
          hex ? "hexagonal" : "orthogonal", m->width, m->height, a->tw, a->th);
  if (hex)
    fprintf(f, " hexsidelength=\"%d\" staggeraxis=\"y\" staggerindex=\"odd\"",
            a->th / 2);
  fprintf(f, " nextlayerid=\"%zu\" nextobjectid=\"1\">\n", l->n + 1);
  fprintf(f, " <tileset firstgid=\"1\" name=\"tilesat\"");
  tsx_body(f, r, a, image, " ");
  tmx_layers(f, m, l);
  fprintf(f, "</map>\n");
}

static void tmj_tileset_body(cJSON *ts, const tilesat_rules *r, const atlas *a,
                             const char *image);

static void write_tmj(FILE *f, const tilesat_map *m, const layers_in *l,
                      const atlas *a, const char *image) {
  const tilesat_rules *r = m->rules;
  bool hex = m->topo == TILESAT_HEX;
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "type", "map");
  cJSON_AddStringToObject(root, "version", "1.10");
  cJSON_AddStringToObject(root, "tiledversion", "1.10.2");
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
  tmj_layers(root, m, l);
  cJSON *tilesets = cJSON_AddArrayToObject(root, "tilesets");
  cJSON *ts = cJSON_CreateObject();
  cJSON_AddItemToArray(tilesets, ts);
  cJSON_AddNumberToObject(ts, "firstgid", 1);
  cJSON_AddStringToObject(ts, "name", "tilesat");
  tmj_tileset_body(ts, r, a, image);
  json_write(f, root);
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
    cJSON_AddStringToObject(p, "value", r->names.v.v[t]);
    cJSON_AddItemToArray(props, p);
    cJSON_AddItemToArray(tl, tile);
  }
}

/* PATH without extension + "-tiles.png": the tileset image of our own
 * maps (malloc'd). */
static char *tiles_png_of(const char *path) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  size_t stem =
      dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  char *png = ts_malloc(stem + sizeof "-tiles.png");
  snprintf(png, stem + sizeof "-tiles.png", "%.*s-tiles.png", (int)stem, path);
  return png;
}

/* Our own tileset: its image into img, the map into f. */
static int write_own_to(const tilesat_map *m, const layers_in *l,
                        const tilesat_pictures *pics, const char *path, FILE *f,
                        FILE *img, tilesat_error *err) {
  bool json = ends_with(path, ".tmj") || ends_with(path, ".json");
  char *png = tiles_png_of(path);
  const char *image = strrchr(png, '/') ? strrchr(png, '/') + 1 : png;
  atlas a;
  make_atlas(m->rules, pics, &a);
  int rc = ts_png_write_stream(a.img, img, png, err);
  if (!rc && json)
    write_tmj(f, m, l, &a, image);
  else if (!rc)
    write_tmx(f, m, l, &a, image);
  tilesat_image_free(a.img);
  free(png);
  return rc;
}

static int write_own(const tilesat_map *m, const layers_in *l,
                     const tilesat_pictures *pics, const char *path,
                     tilesat_error *err) {
  char *png = tiles_png_of(path);
  /* both files written before either replaces what was there */
  tilesat_output *img = tilesat_output_open(png, err), *map = NULL;
  int rc = img ? 0 : -1;
  if (!rc && !(map = tilesat_output_open(path, err)))
    rc = -1;
  if (!rc)
    rc = write_own_to(m, l, pics, path, tilesat_output_file(map),
                      tilesat_output_file(img), err);
  /* the map's write error first, which then keeps the old picture too */
  if (!rc && ts_output_flush(map)) {
    tilesat_output_commit(map, err); /* fails, says why, removes it */
    map = NULL;
    rc = -1;
  }
  if (!rc)
    rc = tilesat_output_commit(img, err);
  else
    tilesat_output_discard(img);
  if (!rc)
    rc = tilesat_output_commit(map, err);
  else
    tilesat_output_discard(map);
  free(png);
  return rc;
}

int tilesat_tiled_write_tileset(const tilesat_rules *r,
                                const tilesat_pictures *pics, const char *path,
                                tilesat_error *err) {
  bool json = ends_with(path, ".tsj") || ends_with(path, ".json");
  /* the image: PATH without extension + ".png"; the name: its stem */
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  const char *base = slash ? slash + 1 : path;
  size_t stem =
      dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  char *png = ts_malloc(stem + sizeof ".png");
  snprintf(png, stem + sizeof ".png", "%.*s.png", (int)stem, path);
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
    cJSON_AddStringToObject(ts, "version", "1.8");
    cJSON_AddStringToObject(ts, "tiledversion", "1.8.2");
    cJSON_AddStringToObject(ts, "name", name);
    tmj_tileset_body(ts, r, &a, image);
    json_write(tilesat_output_file(set), ts);
  } else if (!rc) {
    FILE *f = tilesat_output_file(set);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tileset "
               "version=\"1.8\" tiledversion=\"1.8.2\" name=\"");
    xml_escaped(f, name);
    fputc('"', f);
    tsx_body(f, r, &a, image, "");
  }
  /* the tileset's write error first, which then keeps the old picture */
  if (!rc && ts_output_flush(set)) {
    tilesat_output_commit(set, err);
    set = NULL;
    rc = -1;
  }
  if (!rc)
    rc = tilesat_output_commit(img, err);
  else
    tilesat_output_discard(img);
  if (!rc)
    rc = tilesat_output_commit(set, err);
  else
    tilesat_output_discard(set);
  tilesat_image_free(a.img);
  free(png);
  free(name);
  return rc;
}

/* ------------------------------------------------- writing like a sample */

/* What a map written "like" another takes from it: its tile size and
 * orientation, its tilesets (XML text or JSON objects), and the gids of its
 * named tiles. */
typedef struct like_map {
  bool json;
  xmlDoc *doc;         /* TMX */
  cJSON *root;         /* TMJ */
  TS_VEC(void *) sets; /* xmlNode* or cJSON* */
  named_gids named;
} like_map;

/* The folder of a file (of the file a symbolic link names, as the writers
 * replace that file) as a canonical absolute path ending in '/'
 * (malloc'd), or NULL when it does not exist. */
static char *real_dir(const char *path) {
  char *file = realpath(path, NULL); /* NULL for a file not there yet */
  char *d = dir_of(file ? file : path);
  free(file);
  char *r = realpath(d[0] ? d : ".", NULL);
  free(d);
  if (!r)
    return NULL;
  size_t n = strlen(r);
  char *res = ts_malloc(n + 2);
  snprintf(res, n + 2, "%s%s", r, r[n - 1] == '/' ? "" : "/");
  free(r);
  return res;
}

/* A path `src` written in `like` (relative to its folder) as it must be
 * written in `out` to name the same file: relative to out's folder, so
 * the two files can move together.  An absolute src stays as it is. */
static char *moved_source(const char *like, const char *out, const char *src) {
  char *from = real_dir(out), *to = real_dir(like);
  char *res;
  if (src[0] == '/' || !from || !to) {
    /* as it was (out's folder does not exist: nothing will be written) */
    res = ts_strdup(src);
  } else {
    size_t common = 0; /* the folders' common prefix, whole components */
    for (size_t i = 0; from[i] && from[i] == to[i]; i++)
      if (from[i] == '/')
        common = i + 1;
    size_t up = 0;
    for (const char *p = from + common; *p; p++)
      up += *p == '/';
    size_t n = 3 * up + strlen(to + common) + strlen(src) + 1;
    res = ts_malloc(n);
    size_t at = 0;
    for (size_t i = 0; i < up; i++)
      at += (size_t)snprintf(res + at, n - at, "../");
    snprintf(res + at, n - at, "%s%s", to + common, src);
  }
  free(from);
  free(to);
  return res;
}

/* An element's source="..." re-pointed to be seen from `out`; false when
 * it has none. */
static bool tmx_move_source(xmlNode *n, const char *like, const char *out) {
  xmlChar *src = xmlGetProp(n, (const xmlChar *)"source");
  if (!src)
    return false;
  char *moved = moved_source(like, out, (const char *)src);
  xmlSetProp(n, (const xmlChar *)"source", (const xmlChar *)moved);
  free(moved);
  xmlFree(src);
  return true;
}

/* The images of an embedded TMX tileset (the tileset's and its tiles'),
 * re-pointed to be seen from `out`. */
static void tmx_move_images(xmlNode *n, const char *like, const char *out) {
  for (xmlNode *c = n->children; c; c = c->next) {
    if (is_elem(c, "tile"))
      tmx_move_images(c, like, out);
    if (is_elem(c, "image"))
      tmx_move_source(c, like, out);
  }
}

/* The same for an embedded TMJ tileset: its "image" and its tiles'. */
static void tmj_move_image(cJSON *o, const char *like, const char *out) {
  const char *src = json_str(o, "image");
  if (!src)
    return;
  char *moved = moved_source(like, out, src);
  cJSON_ReplaceItemInObjectCaseSensitive(o, "image", cJSON_CreateString(moved));
  free(moved);
}

static void tmj_move_images(cJSON *ts, const char *like, const char *out) {
  tmj_move_image(ts, like, out);
  cJSON *tile;
  cJSON_ArrayForEach(tile, cJSON_GetObjectItemCaseSensitive(ts, "tiles"))
      tmj_move_image(tile, like, out);
}

static void like_free(like_map *l) {
  free(l->sets.v);
  named_free(&l->named);
  if (l->doc)
    xmlFreeDoc(l->doc);
  cJSON_Delete(l->root);
}

static int like_read_tmx(const char *text, size_t len, const char *like,
                         like_map *l, tilesat_error *err) {
  l->doc = ts_xml_parse(text, len, like, err);
  xmlNode *root = l->doc ? xmlDocGetRootElement(l->doc) : NULL;
  if (!root)
    return -1;
  if (!is_elem(root, "map")) {
    ts_error(err, like, 0, "not a Tiled map");
    return -1;
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (is_elem(n, "tileset")) {
      if (tmx_tileset_names(like, n, &l->named, err))
        return -1;
      TS_PUSH(l->sets, n);
    }
  return 0;
}

static int like_read_tmj(const char *text, size_t len, const char *like,
                         like_map *l, tilesat_error *err) {
  l->json = true;
  l->root = cJSON_ParseWithLength(text, len);
  const cJSON *sets = cJSON_GetObjectItemCaseSensitive(l->root, "tilesets");
  if (!cJSON_IsObject(l->root)) {
    ts_error(err, like, 0, "bad JSON");
    return -1;
  }
  cJSON *ts;
  cJSON_ArrayForEach(ts, sets) {
    if (tmj_tileset_names(like, ts, &l->named, err))
      return -1;
    TS_PUSH(l->sets, ts);
  }
  return 0;
}

static int like_read(const char *like, like_map *l, tilesat_error *err) {
  memset(l, 0, sizeof *l);
  size_t len;
  char *text = ts_read_file(like, &len, err);
  if (!text)
    return -1;
  size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                     text[i] == '\t'))
    i++;
  int rc = -1;
  if (i < len && text[i] == '<')
    rc = like_read_tmx(text, len, like, l, err);
  else if (i < len && text[i] == '{')
    rc = like_read_tmj(text + i, len - i, like, l, err);
  else
    ts_error(err, like, 0, "not a Tiled map (neither XML nor JSON)");
  free(text);
  if (!rc && !l->sets.n) {
    ts_error(err, like, 0, "has no tilesets");
    rc = -1;
  }
  return rc;
}

/* A tile name as a gid: a "tilesat" property of a tileset's tile, or
 * "ID", either with flip letters after a ':' ("12:hd", "corner:h"), as
 * the readers name a flipped tile. */
static bool name_gid(const named_gids *named, const char *name, uint32_t *gid) {
  for (size_t i = 0; i < named->n; i++)
    if (!strcmp(named->v[i].name, name)) {
      *gid = named->v[i].gid;
      return true;
    }
  const char *colon = strrchr(name, ':');
  uint32_t flags = 0;
  if (colon) {
    static const char letters[] = "hvdx";
    if (!colon[1])
      return false;
    for (const char *p = colon + 1; *p; p++) {
      const char *k = strchr(letters, *p);
      if (!k)
        return false;
      flags |= 0x80000000u >> (k - letters);
    }
  }
  size_t n = colon ? (size_t)(colon - name) : strlen(name);
  for (size_t i = 0; i < named->n && colon; i++)
    if (strlen(named->v[i].name) == n && !memcmp(named->v[i].name, name, n)) {
      *gid = named->v[i].gid | flags;
      return true;
    }
  if (*name < '0' || *name > '9')
    return false;
  char *end;
  unsigned long id = strtoul(name, &end, 10);
  if (id > 0x0FFFFFFF || end != name + n || (flags && !id))
    return false;
  *gid = (uint32_t)id | flags;
  return true;
}

/* Map attributes copied from `like`: numbers and strings. */
static const char *const like_attrs[] = {"orientation", "tilewidth",
                                         "tileheight",  "hexsidelength",
                                         "staggeraxis", "staggerindex"};

#define NLIKE_ATTRS (sizeof like_attrs / sizeof *like_attrs)

/* Each tile's gid in `like` (-1 and *err if one has none). */
static int like_gids(const like_map *l, const tilesat_rules *r,
                     const char *like, uint32_t *gid, tilesat_error *err) {
  for (int t = 0; t < r->ntiles; t++)
    if (!name_gid(&l->named, r->names.v.v[t], &gid[t])) {
      ts_error(err, like, 0,
               "tile '%s' is neither a tile id (\"12\", \"12:h\") nor a "
               "named tile of this map's tilesets",
               r->names.v.v[t]);
      return -1;
    }
  return 0;
}

/* Inline tilesets only travel within one format. */
static int like_sets_travel(const like_map *l, bool json, const char *like,
                            tilesat_error *err) {
  for (size_t i = 0; i < l->sets.n; i++) {
    bool external =
        l->json ? json_str(l->sets.v[i], "source") != NULL
                : xmlHasProp(l->sets.v[i], (const xmlChar *)"source") != NULL;
    if (!external && l->json != json) {
      ts_error(err, like, 0,
               "an embedded tileset cannot be copied between .tmx and .tmj: "
               "write %s",
               l->json ? ".tmj" : ".tmx");
      return -1;
    }
  }
  return 0;
}

/* like_attrs[k] of `like`'s map as text (malloc'd), or NULL. */
static char *like_attr_text(const like_map *l, size_t k) {
  char *v = NULL;
  if (l->json) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(l->root, like_attrs[k]);
    if (cJSON_IsString(x))
      v = ts_strdup(x->valuestring);
    else if (cJSON_IsNumber(x)) {
      v = ts_malloc(24);
      snprintf(v, 24, "%d", x->valueint);
    }
  } else {
    xmlChar *x = xmlGetProp(xmlDocGetRootElement(l->doc),
                            (const xmlChar *)like_attrs[k]);
    if (x)
      v = ts_strdup((const char *)x);
    xmlFree(x);
  }
  return v;
}

/* `like`'s tilesets as TMX: a TMJ set by its source, a TMX one as it was
 * (its source moved to be seen from `path`). */
static void tmx_like_sets(FILE *f, const like_map *l, const char *like,
                          const char *path) {
  for (size_t i = 0; i < l->sets.n; i++) {
    if (l->json) {
      long first = 1;
      json_int(l->sets.v[i], "firstgid", &first);
      char *src = moved_source(like, path, json_str(l->sets.v[i], "source"));
      fprintf(f, " <tileset firstgid=\"%ld\" source=\"", first);
      xml_escaped(f, src);
      fprintf(f, "\"/>\n");
      free(src);
      continue;
    }
    xmlNode *n = l->sets.v[i];
    if (!tmx_move_source(n, like, path)) /* external, or embedded */
      tmx_move_images(n, like, path);
    xmlBuffer *buf = xmlBufferCreate();
    xmlNodeDump(buf, l->doc, n, 1, 0);
    fprintf(f, " %s\n", (const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
  }
}

static void write_like_tmx(FILE *f, const tilesat_map *m, const layers_in *lin,
                           const like_map *l, const char *like,
                           const char *path) {
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map "
             "version=\"1.10\" tiledversion=\"1.10.2\"");
  for (size_t k = 0; k < NLIKE_ATTRS; k++) {
    char *v = like_attr_text(l, k);
    if (v) {
      fprintf(f, " %s=\"", like_attrs[k]);
      xml_escaped(f, v);
      fputc('"', f);
    }
    free(v);
  }
  fprintf(f,
          " renderorder=\"right-down\" width=\"%d\" height=\"%d\" "
          "infinite=\"0\" nextlayerid=\"%zu\" nextobjectid=\"1\">\n",
          m->width, m->height, lin->n + 1);
  tmx_like_sets(f, l, like, path);
  tmx_layers(f, m, lin);
  fprintf(f, "</map>\n");
}

/* The map attributes of `like` into a TMJ root: TMX's numbers as numbers. */
static void tmj_like_attrs(cJSON *root, const like_map *l) {
  for (size_t k = 0; k < NLIKE_ATTRS; k++) {
    if (l->json) {
      const cJSON *x = cJSON_GetObjectItemCaseSensitive(l->root, like_attrs[k]);
      if (x)
        cJSON_AddItemToObject(root, like_attrs[k], cJSON_Duplicate(x, true));
      continue;
    }
    xmlChar *x = xmlGetProp(xmlDocGetRootElement(l->doc),
                            (const xmlChar *)like_attrs[k]);
    if (x && (k == 0 || k >= 4))
      cJSON_AddStringToObject(root, like_attrs[k], (const char *)x);
    else if (x)
      cJSON_AddNumberToObject(root, like_attrs[k], atoi((const char *)x));
    xmlFree(x);
  }
}

/* `like`'s tilesets as TMJ: a TMJ set copied, a TMX one by its source (both
 * sources moved to be seen from `path`). */
static void tmj_like_sets(cJSON *root, const like_map *l, const char *like,
                          const char *path) {
  cJSON *sets = cJSON_AddArrayToObject(root, "tilesets");
  for (size_t i = 0; i < l->sets.n; i++) {
    cJSON *ts;
    char *src;
    if (l->json) {
      ts = cJSON_Duplicate(l->sets.v[i], true);
      const char *s = json_str(ts, "source");
      src = s ? moved_source(like, path, s) : NULL;
      if (src)
        cJSON_ReplaceItemInObjectCaseSensitive(ts, "source",
                                               cJSON_CreateString(src));
      else
        tmj_move_images(ts, like, path);
    } else {
      ts = cJSON_CreateObject();
      long first = int_attr(l->sets.v[i], "firstgid", 1);
      xmlChar *s = xmlGetProp(l->sets.v[i], (const xmlChar *)"source");
      src = moved_source(like, path, (const char *)s);
      xmlFree(s);
      cJSON_AddNumberToObject(ts, "firstgid", (double)first);
      cJSON_AddStringToObject(ts, "source", src);
    }
    free(src);
    cJSON_AddItemToArray(sets, ts);
  }
}

static void write_like_tmj(FILE *f, const tilesat_map *m, const layers_in *lin,
                           const like_map *l, const char *like,
                           const char *path) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "type", "map");
  cJSON_AddStringToObject(root, "version", "1.10");
  cJSON_AddStringToObject(root, "tiledversion", "1.10.2");
  tmj_like_attrs(root, l);
  cJSON_AddStringToObject(root, "renderorder", "right-down");
  cJSON_AddNumberToObject(root, "width", m->width);
  cJSON_AddNumberToObject(root, "height", m->height);
  cJSON_AddBoolToObject(root, "infinite", false);
  cJSON_AddNumberToObject(root, "nextlayerid", (double)(lin->n + 1));
  cJSON_AddNumberToObject(root, "nextobjectid", 1);
  tmj_layers(root, m, lin);
  tmj_like_sets(root, l, like, path);
  json_write(f, root);
}

/* A map with like's tilesets into f, or -1 (nothing written) when like
 * cannot lend them. */
static int write_like_to(const tilesat_map *m, const layers_in *lin,
                         const char *like, const char *path, FILE *f,
                         tilesat_error *err) {
  like_map l;
  if (like_read(like, &l, err)) {
    like_free(&l);
    return -1;
  }
  bool json = ends_with(path, ".tmj") || ends_with(path, ".json");
  uint32_t *gid = ts_malloc((size_t)m->rules->ntiles * sizeof *gid);
  int rc = like_gids(&l, m->rules, like, gid, err);
  if (!rc)
    rc = like_sets_travel(&l, json, like, err);
  layers_in with = *lin;
  with.gid = gid;
  if (!rc && !json)
    write_like_tmx(f, m, &with, &l, like, path);
  else if (!rc)
    write_like_tmj(f, m, &with, &l, like, path);
  free(gid);
  like_free(&l);
  return rc;
}

static int write_like(const tilesat_map *m, const layers_in *lin,
                      const char *like, const char *path, tilesat_error *err) {
  tilesat_output *out = tilesat_output_open(path, err);
  if (!out)
    return -1;
  if (write_like_to(m, lin, like, path, tilesat_output_file(out), err)) {
    tilesat_output_discard(out);
    return -1;
  }
  return tilesat_output_commit(out, err);
}

int tilesat_tiled_write_maps_to(const tilesat_map *m, const int *const *maps,
                                size_t nmaps, const tilesat_pictures *pics,
                                const char *like, const char *path, FILE *map,
                                FILE *image, tilesat_error *err) {
  if (nmaps == 0 || !map || (!like && !image))
    ts_misuse(__func__, nmaps ? "no stream" : "no maps");
  layers_in l = {maps, nmaps, NULL};
  return like ? write_like_to(m, &l, like, path, map, err)
              : write_own_to(m, &l, pics, path, map, image, err);
}

/* ------------------------------------------ writing into the painted map */

static const char b64chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* n bytes as base64 (malloc'd). */
static char *base64_encode(const uint8_t *in, size_t n) {
  char *out = ts_malloc((n + 2) / 3 * 4 + 1), *o = out;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)in[i + 1] << 8;
    if (i + 2 < n)
      v |= in[i + 2];
    o[0] = b64chars[v >> 18 & 63];
    o[1] = b64chars[v >> 12 & 63];
    o[2] = o[3] = '=';
    if (i + 1 < n)
      o[2] = b64chars[v >> 6 & 63];
    if (i + 2 < n)
      o[3] = b64chars[v & 63];
    o += 4;
  }
  *o = 0;
  return out;
}

/* n gids as a layer's encoded data: base64 of their little-endian bytes,
 * zlib- or gzip-compressed as `compression` says (NULL or "": not);
 * malloc'd, or NULL for a compression tilesat does not write. */
static char *encode_gids(const uint32_t *gids, size_t n,
                         const char *compression) {
  uint8_t *raw = ts_malloc(n * 4 + 1);
  for (size_t k = 0; k < n; k++)
    for (int b = 0; b < 4; b++)
      raw[4 * k + (size_t)b] = (uint8_t)(gids[k] >> (8 * b));
  if (!compression || !*compression) {
    char *s = base64_encode(raw, n * 4);
    free(raw);
    return s;
  }
  bool gzip = !strcmp(compression, "gzip");
  if (!gzip && strcmp(compression, "zlib")) {
    free(raw);
    return NULL;
  }
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip ? 31 : 15, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    free(raw);
    return NULL;
  }
  uLong cap = deflateBound(&z, (uLong)(n * 4)) + 32;
  uint8_t *packed = ts_malloc(cap);
  z.next_in = raw;
  z.avail_in = (uInt)(n * 4);
  z.next_out = packed;
  z.avail_out = (uInt)cap;
  int rc = deflate(&z, Z_FINISH);
  size_t len = z.total_out;
  deflateEnd(&z);
  char *s = rc == Z_STREAM_END ? base64_encode(packed, len) : NULL;
  free(packed);
  free(raw);
  return s;
}

/* CSV as Tiled writes it: a newline, rows of w gids, each but the last
 * ending in ",\n", and a newline (malloc'd). */
static char *csv_gids(const uint32_t *gids, int w, int h) {
  size_t cap = (size_t)w * (size_t)h * 12 + 4, at = 0;
  char *s = ts_malloc(cap);
  s[at++] = '\n';
  for (int r = 0; r < h; r++) {
    for (int c = 0; c < w; c++)
      at += (size_t)snprintf(s + at, cap - at, "%lu%s",
                             (unsigned long)gids[r * w + c],
                             c < w - 1 || r < h - 1 ? "," : "");
    s[at++] = '\n';
  }
  s[at] = 0;
  return s;
}

/* The gid of each cell of a filled map, by the names of the base map's
 * tilesets; -1 and *err for a tile none names. */
static uint32_t *cell_gids(const tilesat_map *m, const int *tiles,
                           const named_gids *named, const char *base,
                           tilesat_error *err) {
  const tilesat_rules *r = m->rules;
  uint32_t *gid = ts_malloc((size_t)r->ntiles * sizeof *gid + 1);
  for (int t = 0; t < r->ntiles; t++)
    if (!name_gid(named, r->names.v.v[t], &gid[t])) {
      ts_error(err, base, 0,
               "tile '%s' is neither a tile id (\"12\", \"12:h\") nor a "
               "named tile (a \"tilesat\" property) of this map's tilesets",
               r->names.v.v[t]);
      free(gid);
      return NULL;
    }
  uint32_t *cells = ts_malloc((size_t)m->ncells * sizeof *cells);
  for (int c = 0; c < m->ncells; c++)
    cells[c] = tiles[c] < 0 ? 0 : gid[tiles[c]];
  free(gid);
  return cells;
}

/* A relative path attribute re-pointed to be seen from `out`. */
static void tmx_move_attr(xmlNode *n, const char *attr, const char *base,
                          const char *out) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
  if (v && *v) {
    char *moved = moved_source(base, out, (const char *)v);
    xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)moved);
    free(moved);
  }
  xmlFree(v);
}

/* Every path a .tmx map holds, relative to its folder, re-pointed from
 * `out`: tilesets' sources, images (embedded tilesets', image layers'),
 * object templates and file properties. */
static void tmx_move_paths(xmlNode *parent, const char *base, const char *out) {
  for (xmlNode *n = parent->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (is_elem(n, "tileset") || is_elem(n, "image"))
      tmx_move_attr(n, "source", base, out);
    else if (is_elem(n, "object"))
      tmx_move_attr(n, "template", base, out);
    else if (is_elem(n, "property")) {
      xmlChar *type = xmlGetProp(n, (const xmlChar *)"type");
      if (type && !strcmp((const char *)type, "file"))
        tmx_move_attr(n, "value", base, out);
      xmlFree(type);
    }
    tmx_move_paths(n, base, out);
  }
}

/* The text of n with its leading (lead) or trailing white space only. */
static char *space_of(const xmlChar *text, bool lead) {
  const char *s = text ? (const char *)text : "";
  size_t n = strlen(s), a = 0, b = n;
  while (a < n && strchr(" \t\r\n", s[a]))
    a++;
  while (b > a && strchr(" \t\r\n", s[b - 1]))
    b--;
  return lead ? ts_strndup(s, a) : ts_strdup(s + b);
}

/* The layer's <data> holds `gids` in its own encoding; NULL or why not. */
static const char *tmx_put_gids(xmlNode *layer, const uint32_t *gids, int w,
                                int h) {
  xmlNode *data = NULL;
  for (xmlNode *c = layer->children; c && !data; c = c->next)
    if (is_elem(c, "data"))
      data = c;
  if (!data)
    return "layer has no <data>";
  xmlChar *enc = xmlGetProp(data, (const xmlChar *)"encoding");
  xmlChar *comp = xmlGetProp(data, (const xmlChar *)"compression");
  const char *why = NULL;
  if (!enc) { /* <tile gid=".."/> elements, in order */
    size_t k = 0;
    for (xmlNode *t = data->children; t; t = t->next)
      if (is_elem(t, "tile")) {
        char v[16];
        snprintf(v, sizeof v, "%lu", (unsigned long)gids[k]);
        if (gids[k++])
          xmlSetProp(t, (const xmlChar *)"gid", (const xmlChar *)v);
        else
          xmlUnsetProp(t, (const xmlChar *)"gid");
      }
  } else {
    char *text = NULL;
    if (!strcmp((const char *)enc, "csv")) {
      text = csv_gids(gids, w, h);
    } else {
      text = encode_gids(gids, (size_t)w * (size_t)h, (const char *)comp);
      if (!text)
        why = "unsupported compression (zlib and gzip are)";
      else { /* the white space around the old text, as it was */
        xmlChar *old = xmlNodeGetContent(data);
        char *lead = space_of(old, true), *trail = space_of(old, false);
        size_t n = strlen(lead) + strlen(text) + strlen(trail) + 1;
        char *all = ts_malloc(n);
        snprintf(all, n, "%s%s%s", lead, text, trail);
        free(text);
        text = all;
        free(lead);
        free(trail);
        xmlFree(old);
      }
    }
    if (text) {
      xmlNodeSetContent(data, NULL);
      xmlAddChild(data, xmlNewText((const xmlChar *)text));
    }
    free(text);
  }
  xmlFree(enc);
  xmlFree(comp);
  return why;
}

static void json_move(cJSON *o, const char *key, const char *base,
                      const char *out) {
  const char *v = json_str(o, key);
  if (v && *v) {
    char *moved = moved_source(base, out, v);
    cJSON_ReplaceItemInObjectCaseSensitive(o, key, cJSON_CreateString(moved));
    free(moved);
  }
}

/* The same for a .tmj map: every "source" (tilesets), "image" and
 * "template", and the value of every property of type "file". */
static void tmj_move_paths(cJSON *node, const char *base, const char *out) {
  cJSON *c;
  if (cJSON_IsObject(node)) {
    json_move(node, "source", base, out);
    json_move(node, "image", base, out);
    json_move(node, "template", base, out);
    const char *type = json_str(node, "type");
    if (type && !strcmp(type, "file") && json_str(node, "name"))
      json_move(node, "value", base, out);
  }
  cJSON_ArrayForEach(c, node) {
    if (cJSON_IsObject(c) || cJSON_IsArray(c))
      tmj_move_paths(c, base, out);
  }
}

/* The layer's "data" holds `gids`, as an array or encoded as it was. */
static const char *tmj_put_gids(cJSON *layer, const uint32_t *gids, size_t n) {
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(layer, "data");
  cJSON *now;
  if (cJSON_IsString(data)) {
    char *text = encode_gids(gids, n, json_str(layer, "compression"));
    if (!text)
      return "unsupported compression (zlib and gzip are)";
    now = cJSON_CreateString(text);
    free(text);
  } else {
    now = cJSON_CreateArray();
    for (size_t k = 0; k < n; k++)
      cJSON_AddItemToArray(now, cJSON_CreateNumber((double)gids[k]));
  }
  if (data)
    cJSON_ReplaceItemInObjectCaseSensitive(layer, "data", now);
  else
    cJSON_AddItemToObject(layer, "data", now);
  return NULL;
}

/* The text of the .tmx map `base` (`text`) with the layer filled; malloc'd
 * into *out, or -1 and *err. */
static int into_tmx(const tilesat_map *m, const int *tiles, const char *text,
                    size_t len, const char *base, const char *want,
                    const char *path, char **out, size_t *outlen,
                    tilesat_error *err) {
  xmlDoc *doc = ts_xml_parse(text, len, base, err);
  if (!doc)
    return -1;
  xmlNode *root = xmlDocGetRootElement(doc);
  named_gids named = {0};
  uint32_t *gids = NULL;
  int rc = -1;
  if (!is_elem(root, "map")) {
    ts_error(err, base, xmlGetLineNo(root),
             "not a Tiled map: root element <%s>, expected <map>",
             (const char *)root->name);
    goto done;
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (is_elem(n, "tileset") && tmx_tileset_names(base, n, &named, err))
      goto done;
  xmlNode *layer = tmx_find_layer(root, want);
  if (!layer) {
    no_layer(base, want, err);
    goto done;
  }
  long w = int_attr(layer, "width", int_attr(root, "width", -1));
  long h = int_attr(layer, "height", int_attr(root, "height", -1));
  if (w != m->width || h != m->height) {
    ts_error(err, base, xmlGetLineNo(layer),
             "the layer is %ldx%ld, the map written %dx%d", w, h, m->width,
             m->height);
    goto done;
  }
  if (!(gids = cell_gids(m, tiles, &named, base, err)))
    goto done;
  const char *why = tmx_put_gids(layer, gids, m->width, m->height);
  if (why) {
    ts_error(err, base, xmlGetLineNo(layer), "%s", why);
    goto done;
  }
  tmx_move_paths(root, base, path);
  xmlChar *buf = NULL;
  int n = 0;
  xmlDocDumpMemoryEnc(doc, &buf, &n, "UTF-8");
  if (!buf) {
    fprintf(stderr, "tilesat: out of memory (writing XML)\n");
    abort();
  }
  *out = ts_strndup((const char *)buf, (size_t)n);
  *outlen = (size_t)n;
  xmlFree(buf);
  rc = 0;
done:
  free(gids);
  named_free(&named);
  xmlFreeDoc(doc);
  return rc;
}

static int into_tmj(const tilesat_map *m, const int *tiles, const char *text,
                    size_t len, const char *base, const char *want,
                    const char *path, char **out, size_t *outlen,
                    tilesat_error *err) {
  cJSON *root = cJSON_ParseWithLength(text, len);
  cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
  named_gids named = {0};
  uint32_t *gids = NULL;
  int rc = -1;
  if (!cJSON_IsObject(root) || !cJSON_IsArray(layers)) {
    ts_error(err, base, 0, "not a Tiled map (no \"layers\" array)");
    goto done;
  }
  const cJSON *ts;
  cJSON_ArrayForEach(ts, cJSON_GetObjectItemCaseSensitive(root, "tilesets")) {
    if (tmj_tileset_names(base, ts, &named, err))
      goto done;
  }
  cJSON *layer = tmj_find_layer(layers, want);
  if (!layer) {
    no_layer(base, want, err);
    goto done;
  }
  long w = 0, h = 0;
  json_int(layer, "width", &w);
  json_int(layer, "height", &h);
  if (w != m->width || h != m->height) {
    ts_error(err, base, 0, "the layer is %ldx%ld, the map written %dx%d", w, h,
             m->width, m->height);
    goto done;
  }
  if (!(gids = cell_gids(m, tiles, &named, base, err)))
    goto done;
  const char *why = tmj_put_gids(layer, gids, (size_t)m->ncells);
  if (why) {
    ts_error(err, base, 0, "%s", why);
    goto done;
  }
  tmj_move_paths(root, base, path);
  char *s = cJSON_Print(root);
  if (!s) {
    fprintf(stderr, "tilesat: out of memory (writing JSON)\n");
    abort();
  }
  *outlen = strlen(s) + 1;
  *out = ts_malloc(*outlen + 1);
  snprintf(*out, *outlen + 1, "%s\n", s);
  cJSON_free(s);
  rc = 0;
done:
  free(gids);
  named_free(&named);
  cJSON_Delete(root);
  return rc;
}

int tilesat_tiled_write_into(const tilesat_map *m, const int *tiles,
                             const char *base, const char *layer,
                             const char *path, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(base, &len, err);
  if (!text)
    return -1;
  size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                     text[i] == '\t'))
    i++;
  bool json = ends_with(path, ".tmj") || ends_with(path, ".json");
  bool xml = i < len && text[i] == '<', is_json = i < len && text[i] == '{';
  char *out = NULL;
  size_t outlen = 0;
  int rc = -1;
  if (!xml && !is_json)
    ts_error(err, base, 0, "not a Tiled map (neither XML nor JSON)");
  else if (xml == json)
    ts_error(err, path, 0,
             "%s is a %s map: its completed copy is written as %s too "
             "(%s)",
             base, xml ? ".tmx" : ".tmj", xml ? ".tmx" : ".tmj",
             xml ? "--tmx" : "--tmj");
  else if (xml)
    rc = into_tmx(m, tiles, text, len, base, layer, path, &out, &outlen, err);
  else
    rc = into_tmj(m, tiles, text + i, len - i, base, layer, path, &out, &outlen,
                  err);
  free(text);
  tilesat_output *o = rc ? NULL : tilesat_output_open(path, err);
  if (o) {
    fwrite(out, 1, outlen, tilesat_output_file(o));
    rc = tilesat_output_commit(o, err);
  } else {
    rc = -1;
  }
  free(out);
  return rc;
}

int tilesat_tiled_write_maps(const tilesat_map *m, const int *const *maps,
                             size_t nmaps, const tilesat_pictures *pics,
                             const char *like, const char *path,
                             tilesat_error *err) {
  if (nmaps == 0)
    ts_misuse(__func__, "no maps");
  layers_in l = {maps, nmaps, NULL};
  return like ? write_like(m, &l, like, path, err)
              : write_own(m, &l, pics, path, err);
}

int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                        const tilesat_pictures *pics, const char *path,
                        tilesat_error *err) {
  const int *maps[1] = {tiles};
  return tilesat_tiled_write_maps(m, maps, 1, pics, NULL, path, err);
}

int tilesat_tiled_write_like(const tilesat_map *m, const int *tiles,
                             const char *like, const char *path,
                             tilesat_error *err) {
  const int *maps[1] = {tiles};
  return tilesat_tiled_write_maps(m, maps, 1, NULL, like, path, err);
}
