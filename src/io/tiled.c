/* tiled.c: Tiled maps (mapeditor.org) as samples and as outputs.
 *
 * A tile layer is width*height global tile ids (gids): the top four bits
 * are flip flags, the rest index the map's tilesets (0 = empty).  Reading
 * keeps flips apart ("12:h" is not "12"), because a flipped tile is a
 * different picture with different neighbours.  Writing makes one tileset
 * image of our own and names every tile in a "tilesat" property, so a map
 * written here reads back to the same grid of names. */
#include "io/tiled.h"

#include <errno.h>
#include <math.h>

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

/* Why a layer's gids were refused (MSG_SIZE bytes, the readers' msg). */
#define MSG_SIZE 256
#define MAX_GID_TEXT 24 /* digits of an out-of-range gid shown */

/* A gid in decimal at p: "-" allowed (to say it is out of range), digits
 * required.  *end past it; false with msg when it is out of range or not a
 * number (then `what` says what was expected). */
static bool gid_text(const char *p, const char **end, uint32_t *gid,
                     const char *what, char *msg) {
  const char *d = p + (*p == '-');
  size_t n = strspn(d, "0123456789");
  *end = d + n;
  if (!n) {
    snprintf(msg, MSG_SIZE, "%s", what);
    return false;
  }
  const char *nz = d;
  while (nz < d + n - 1 && *nz == '0')
    nz++;
  size_t digits = (size_t)(d + n - nz);
  bool big = *p == '-' || digits > 10 ||
             (digits == 10 && strncmp(nz, "4294967295", 10) > 0);
  if (big) {
    snprintf(msg, MSG_SIZE, "gid %s%.*s%s is out of range (0 to 4294967295)",
             *p == '-' ? "-" : "",
             (int)(digits > MAX_GID_TEXT ? MAX_GID_TEXT : digits), nz,
             digits > MAX_GID_TEXT ? "..." : "");
    return false;
  }
  *gid = (uint32_t)strtoul(nz, NULL, 10);
  return true;
}

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
    p++;
  return p;
}

#define BAD_CSV "bad CSV data (expected numbers and commas)"

/* CSV layer data: exactly n gids. */
static bool decode_csv(const char *text, uint32_t *gids, size_t n, char *msg) {
  const char *p = text;
  size_t k = 0;
  for (;;) {
    p = skip_space(p);
    if (!*p)
      break;
    const char *end;
    uint32_t gid;
    if (!gid_text(p, &end, &gid, BAD_CSV, msg))
      return false;
    if (k == n) {
      snprintf(msg, MSG_SIZE, "more tiles than the layer's width x height");
      return false;
    }
    gids[k++] = gid;
    p = skip_space(end);
    if (*p == ',')
      p++;
    else if (*p) {
      snprintf(msg, MSG_SIZE, BAD_CSV);
      return false;
    }
  }
  if (k != n) {
    snprintf(msg, MSG_SIZE, "fewer tiles than the layer's width x height");
    return false;
  }
  return true;
}

/* base64 layer data, zlib- or gzip-compressed or not: n little-endian gids. */
static bool decode_base64(const char *text, const char *compression,
                          uint32_t *gids, size_t n, char *msg) {
  size_t len;
  uint8_t *raw = base64_decode(text, &len);
  if (!raw) {
    snprintf(msg, MSG_SIZE, "bad base64 data");
    return false;
  }
  uint8_t *bytes = raw;
  uint8_t *plain = NULL;
  bool ok = true;
  if (compression && *compression) {
    if (strcmp(compression, "zlib") && strcmp(compression, "gzip")) {
      snprintf(msg, MSG_SIZE, "unsupported compression (zlib and gzip are)");
      ok = false;
    } else {
      plain = ts_malloc(n * 4);
      ok = inflate_exact(raw, len, plain, n * 4);
      if (!ok)
        snprintf(msg, MSG_SIZE,
                 "bad compressed data, or not width x height tiles");
      bytes = plain;
      len = n * 4;
    }
  }
  if (ok && len != n * 4) {
    snprintf(msg, MSG_SIZE, "data is not width x height tiles");
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
                        char *msg) {
  if (!encoding || !strcmp(encoding, "csv")) {
    if (compression && *compression) {
      snprintf(msg, MSG_SIZE, "CSV data cannot be compressed");
      return false;
    }
    return decode_csv(text, gids, n, msg);
  }
  if (strcmp(encoding, "base64")) {
    snprintf(msg, MSG_SIZE, "unknown data encoding (csv or base64)");
    return false;
  }
  return decode_base64(text, compression, gids, n, msg);
}

/* The named gids hashed: a gid's decimal text -> the first of `named`
 * that names it (a lookup a cell, not a scan of every named tile). */
typedef struct gid_names {
  ts_names gids;     /* decimal text of each named gid */
  const char **name; /* by the same index */
} gid_names;

static void gid_names_init(gid_names *t, const named_gids *named) {
  memset(t, 0, sizeof *t);
  t->name = ts_malloc((named->n + 1) * sizeof *t->name);
  for (size_t i = 0; i < named->n; i++) {
    char num[16];
    snprintf(num, sizeof num, "%u", (unsigned)named->v[i].gid);
    size_t before = t->gids.v.n;
    int k = ts_names_intern(&t->gids, num, strlen(num));
    if (t->gids.v.n > before)
      t->name[k] = named->v[i].name;
  }
}

static const char *gid_name(const gid_names *t, uint32_t id) {
  char num[16];
  snprintf(num, sizeof num, "%u", (unsigned)id);
  int k = ts_names_find(&t->gids, num);
  return k < 0 ? NULL : t->name[k];
}

static void gid_names_free(gid_names *t) {
  ts_names_free(&t->gids);
  free(t->name);
}

/* The grid: names by gid (property, or decimal id, plus flip letters). */
static tilesat_grid *grid_of(const char *path, int w, int h,
                             const uint32_t *gids, const named_gids *named,
                             tilesat_empty empty, tilesat_error *err) {
  ts_names names = {0};
  gid_names by_gid;
  gid_names_init(&by_gid, named);
  int *cells = ts_malloc((size_t)w * (size_t)h * sizeof *cells);
  size_t kept = 0;
  for (size_t k = 0; k < (size_t)w * (size_t)h; k++) {
    uint32_t id = gids[k] & ~FLIP_MASK, flips = gids[k] & FLIP_MASK;
    if (id == 0 && empty != TILESAT_EMPTY_TILE) {
      cells[k] = -1;
      continue;
    }
    kept++;
    const char *base = gid_name(&by_gid, id);
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
  gid_names_free(&by_gid);
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
typedef bool gids_reader(const void *layer, uint32_t *gids, size_t n, char *msg,
                         long *line);

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
  char msg[MSG_SIZE] = "";
  tilesat_grid *g = NULL;
  if (read(layer, gids, n, msg, &line))
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
  errno = 0;
  long x = strtol((const char *)v, &end, 10);
  if (*end || end == (char *)v || errno == ERANGE)
    x = -1; /* not a number, or beyond a long: out of every range */
  xmlFree(v);
  return x;
}

bool ts_tiled_is_elem(xmlNode *n, const char *name) {
  return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* A <property>'s value: its value attribute, or the text Tiled writes
 * instead for a string of several lines (a .tsj has it as "value", like
 * any other); NULL for neither (a class property holds <properties>). */
static xmlChar *tmx_property_value(xmlNode *p) {
  xmlChar *value = xmlGetProp(p, (const xmlChar *)"value");
  if (value)
    return value;
  for (xmlNode *c = p->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE)
      return NULL;
  return xmlNodeGetContent(p);
}

/* The tilesat name property of one <tile>'s <properties>, as gid GID. */
static void tmx_tile_names(xmlNode *ps, uint32_t gid, named_gids *named) {
  for (xmlNode *p = ps->children; p; p = p->next) {
    if (!ts_tiled_is_elem(p, "property"))
      continue;
    xmlChar *name = xmlGetProp(p, (const xmlChar *)"name");
    xmlChar *value = tmx_property_value(p);
    if (name && value && !strcmp((const char *)name, PROPERTY) && *value) {
      ts_tiled_gid g = {gid, tilesat_name_decode((char *)value)};
      TS_PUSH(*named, g);
    }
    xmlFree(name);
    xmlFree(value);
  }
}

/* The largest tile id a gid holds: 28 bits, below the 4 flip flags. */
#define MAX_TILE_GID 0x0FFFFFFF

/* A tileset's firstgid: 1 to MAX_TILE_GID (0 would name the empty cell). */
static bool first_ok(long first) { return first >= 1 && first <= MAX_TILE_GID; }

static int bad_first(const char *path, long line, const char *text,
                     tilesat_error *err) {
  ts_error(err, path, line,
           "tileset firstgid %s is out of range (1 to %d: a gid's tile id "
           "has 28 bits, 0 is the empty cell)",
           text, MAX_TILE_GID);
  return -1;
}

/* A tileset tile's id: 0 to MAX_TILE_GID - first, so that its gid, first
 * + id, is a tile id of a gid; else -1 and *err at `line`.  text: the id
 * as written (NULL: none), whole: a whole number (perhaps out of range). */
static int tile_gid(const char *path, long line, long first, long id,
                    const char *text, bool whole, uint32_t *gid,
                    tilesat_error *err) {
  if (!text) {
    ts_error(err, path, line, "a tileset's tile has no id");
    return -1;
  }
  if (!whole) {
    ts_error(err, path, line, "tile id '%.40s' is not a whole number", text);
    return -1;
  }
  if (id < 0 || id > MAX_TILE_GID - first) {
    ts_error(err, path, line,
             "tile id %s is out of range (0 to %ld: with firstgid %ld its gid "
             "must be at most %d, a gid's 28 bits of tile id)",
             text, MAX_TILE_GID - first, first, MAX_TILE_GID);
    return -1;
  }
  *gid = (uint32_t)(first + id);
  return 0;
}

/* The named <tile>s of a <tileset> (a map's, or a .tsx file's root), as
 * gids from `first` (checked: first_ok); 0, or -1 for a tile id out of
 * range. */
static int tmx_tile_list(const char *path, xmlNode *ts, long first,
                         named_gids *named, tilesat_error *err) {
  for (xmlNode *t = ts->children; t; t = t->next) {
    if (!ts_tiled_is_elem(t, "tile"))
      continue;
    xmlChar *text = xmlGetProp(t, (const xmlChar *)"id");
    long id = ts_tiled_int_attr(t, "id", -1);
    uint32_t gid = 0;
    const char *digits = text ? (const char *)text + (*text == '-') : "";
    bool whole = *digits && !digits[strspn(digits, "0123456789")];
    int rc = tile_gid(path, xmlGetLineNo(t), first, id, (const char *)text,
                      whole, &gid, err);
    xmlFree(text);
    if (rc)
      return -1;
    for (xmlNode *ps = t->children; ps; ps = ps->next)
      if (ts_tiled_is_elem(ps, "properties"))
        tmx_tile_names(ps, gid, named);
  }
  return 0;
}

static int external_names(const char *map, const char *source, long first,
                          named_gids *named, tilesat_error *err);

/* The names of one of a .tmx map's tilesets: an embedded one's tiles, or
 * an external one's (its source="..."); 0 or -1. */
int ts_tiled_tmx_tileset_names(const char *path, xmlNode *ts, named_gids *named,
                               tilesat_error *err) {
  long first = ts_tiled_int_attr(ts, "firstgid", 1);
  if (!first_ok(first)) {
    xmlChar *text = xmlGetProp(ts, (const xmlChar *)"firstgid");
    bad_first(path, xmlGetLineNo(ts), (const char *)text, err);
    xmlFree(text);
    return -1;
  }
  xmlChar *src = xmlGetProp(ts, (const xmlChar *)"source");
  int rc = 0;
  if (src)
    rc = external_names(path, (const char *)src, first, named, err);
  else
    rc = tmx_tile_list(path, ts, first, named, err);
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

/* A <tile gid="..."/> of a layer's <data> (no gid: 0, an empty cell), read
 * as CSV reads a gid; into *gid unless it is NULL (one tile too many). */
#define BAD_GID "bad gid (expected a whole number)"
static bool tmx_tile_gid(xmlNode *t, uint32_t *gid, char *msg) {
  xmlChar *v = xmlGetProp(t, (const xmlChar *)"gid");
  uint32_t g = 0;
  const char *end;
  bool ok = !v || gid_text((const char *)v, &end, &g, BAD_GID, msg);
  if (ok && v && *end) {
    snprintf(msg, MSG_SIZE, BAD_GID);
    ok = false;
  }
  if (ok && gid)
    *gid = g;
  xmlFree(v);
  return ok;
}

/* A <layer>'s gids: <tile> elements, or encoded text in its <data>. */
static bool tmx_gids(const void *layer, uint32_t *gids, size_t n, char *msg,
                     long *line) {
  xmlNode *data = NULL;
  for (xmlNode *c = ((const xmlNode *)layer)->children; c && !data; c = c->next)
    if (ts_tiled_is_elem(c, "data"))
      data = c;
  if (!data) {
    snprintf(msg, MSG_SIZE, "layer has no <data>");
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
        snprintf(msg, MSG_SIZE, "chunks (infinite maps) are not supported");
        ok = false;
      } else if (ts_tiled_is_elem(t, "tile")) {
        ok = tmx_tile_gid(t, k < n ? &gids[k] : NULL, msg);
        k += ok;
        if (ok && k > n) {
          snprintf(msg, MSG_SIZE, "more tiles than the layer's width x height");
          ok = false;
        }
        if (!ok)
          *line = xmlGetLineNo(t);
      }
    }
    if (ok && k != n) {
      snprintf(msg, MSG_SIZE, "fewer tiles than the layer's width x height");
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

/* The layer `want` of a .tmx document as a grid. */
static tilesat_grid *tmx_grid(const ts_tiled_doc *d, const char *want,
                              tilesat_empty empty, tilesat_error *err) {
  xmlNode *root = ts_tiled_doc_map(d);
  if (ts_tiled_int_attr(root, "infinite", 0) == 1) {
    ts_error(err, d->path, xmlGetLineNo(root),
             "infinite Tiled maps are not supported (resize to a fixed map)");
    return NULL;
  }
  const char *stagger = tmx_stagger_refused(root);
  if (stagger) {
    ts_error(err, d->path, xmlGetLineNo(root), "%s", stagger);
    return NULL;
  }
  xmlNode *layer = ts_tiled_doc_layer(d, want);
  if (!layer) {
    ts_tiled_no_layer(d->path, want, err);
    return NULL;
  }
  long line = xmlGetLineNo(layer), w, h;
  ts_tiled_doc_layer_size(d, layer, &w, &h);
  if (!dim(w) || !dim(h)) {
    ts_error(err, d->path, line, "layer needs a width and height (1 to %d)",
             MAX_CELLS);
    return NULL;
  }
  return layer_grid(d->path, line, w, h, tmx_gids, layer, &d->named, empty,
                    err);
}

/* ------------------------------------------------------------------ TMJ */

/* A whole number within +-2^53 (where doubles are exact; a cast of a
 * larger one to long could overflow). */
bool ts_tiled_json_int(const cJSON *o, const char *key, long *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || !(fabs(v->valuedouble) <= 9007199254740992.0) ||
      v->valuedouble != floor(v->valuedouble))
    return false;
  *out = (long)v->valuedouble;
  return true;
}

/* The text of a JSON member for a message (its number, or "(not a
 * number)"); false when there is none. */
static bool json_text(const cJSON *o, const char *key, char *buf, size_t size) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (cJSON_IsNumber(v))
    snprintf(buf, size, "%.17g", v->valuedouble);
  else if (cJSON_IsString(v))
    snprintf(buf, size, "%s", v->valuestring);
  else
    snprintf(buf, size, "(not a number)");
  return v != NULL;
}

const char *ts_tiled_json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The named tiles of a JSON tileset (a map's, or a .tsj file), as gids
 * from `first` (checked: first_ok); 0, or -1 for a tile id out of
 * range. */
static int tmj_tile_list(const char *path, const cJSON *ts, long first,
                         named_gids *named, tilesat_error *err) {
  const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(ts, "tiles"), *t;
  cJSON_ArrayForEach(t, tiles) {
    long id = -1;
    uint32_t gid = 0;
    char text[32];
    bool has = json_text(t, "id", text, sizeof text);
    if (!ts_tiled_json_int(t, "id", &id))
      id = -1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(t, "id");
    bool whole = cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
                 v->valuedouble == floor(v->valuedouble);
    if (tile_gid(path, 0, first, id, has ? text : NULL, whole, &gid, err))
      return -1;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(t, "properties"), *p;
    cJSON_ArrayForEach(p, props) {
      const char *name = ts_tiled_json_str(p, "name"),
                 *value = ts_tiled_json_str(p, "value");
      if (name && value && !strcmp(name, PROPERTY) && *value) {
        ts_tiled_gid g = {gid, tilesat_name_decode(value)};
        TS_PUSH(*named, g);
      }
    }
  }
  return 0;
}

/* The names of one of a .tmj map's tilesets, embedded or external; 0 or
 * -1. */
int ts_tiled_tmj_tileset_names(const char *path, const cJSON *ts,
                               named_gids *named, tilesat_error *err) {
  long first = 0;
  if (!cJSON_GetObjectItemCaseSensitive(ts, "firstgid"))
    return 0; /* no gids: it names no tile of the map */
  if (!ts_tiled_json_int(ts, "firstgid", &first) || !first_ok(first)) {
    char text[32];
    json_text(ts, "firstgid", text, sizeof text);
    return bad_first(path, 0, text, err);
  }
  const char *src = ts_tiled_json_str(ts, "source");
  if (src)
    return external_names(path, src, first, named, err);
  return tmj_tile_list(path, ts, first, named, err);
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
      rc = tmx_tile_list(file, root, first, named, err);
    }
    xmlFreeDoc(doc);
  } else {
    cJSON *ts = i < len && text[i] == '{'
                    ? cJSON_ParseWithLength(text + i, len - i)
                    : NULL;
    if (cJSON_IsObject(ts))
      rc = tmj_tile_list(file, ts, first, named, err);
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

/* A gid of a JSON array as a gid of CSV or XML: a whole number, refused
 * out of range with the same message. */
static bool json_gid(const cJSON *v, uint32_t *gid, char *msg) {
  double d = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
  if (d != floor(d) || !isfinite(d)) {
    snprintf(msg, MSG_SIZE, "tile data must be whole numbers");
    return false;
  }
  if (d < 0 || d > (double)UINT32_MAX) {
    snprintf(msg, MSG_SIZE, "gid %.17g is out of range (0 to 4294967295)", d);
    return false;
  }
  if (gid)
    *gid = (uint32_t)d;
  return true;
}

/* A tile layer's gids: its "data", an array of numbers or encoded text. */
static bool tmj_gids(const void *layer, uint32_t *gids, size_t n, char *msg,
                     long *line) {
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
      ok = json_gid(v, k < n ? &gids[k] : NULL, msg);
      if (ok && k++ == n) {
        snprintf(msg, MSG_SIZE, "more tiles than the layer's width x height");
        ok = false;
      }
    }
    if (ok && k != n) {
      snprintf(msg, MSG_SIZE, "fewer tiles than the layer's width x height");
      ok = false;
    }
  } else if (cJSON_IsString(data)) {
    ok = decode_data(data->valuestring, ts_tiled_json_str(tl, "encoding"),
                     ts_tiled_json_str(tl, "compression"), gids, n, msg);
  } else {
    snprintf(msg, MSG_SIZE,
             "tile layer has no \"data\" (chunks of infinite maps are not "
             "supported)");
    ok = false;
  }
  return ok;
}

/* The layer `want` of a .tmj document as a grid. */
static tilesat_grid *tmj_grid(const ts_tiled_doc *d, const char *want,
                              tilesat_empty empty, tilesat_error *err) {
  const cJSON *root = d->root;
  if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "layers"))) {
    ts_error(err, d->path, 0, "not a Tiled map (no \"layers\" array)");
    return NULL;
  }
  const cJSON *infinite = cJSON_GetObjectItemCaseSensitive(root, "infinite");
  if (cJSON_IsTrue(infinite)) {
    ts_error(err, d->path, 0,
             "infinite Tiled maps are not supported (resize to a fixed map)");
    return NULL;
  }
  const char *stagger =
      stagger_refused(ts_tiled_json_str(root, "orientation"),
                      ts_tiled_json_str(root, "staggeraxis"),
                      ts_tiled_json_str(root, "staggerindex"));
  if (stagger) {
    ts_error(err, d->path, 0, "%s", stagger);
    return NULL;
  }
  const cJSON *layer = ts_tiled_doc_layer(d, want);
  if (!layer) {
    ts_tiled_no_layer(d->path, want, err);
    return NULL;
  }
  long w, h;
  if (!ts_tiled_json_int(layer, "width", &w) ||
      !ts_tiled_json_int(layer, "height", &h) || !dim(w) || !dim(h)) {
    ts_error(err, d->path, 0, "tile layer needs a width and height (1 to %d)",
             MAX_CELLS);
    return NULL;
  }
  return layer_grid(d->path, 0, w, h, tmj_gids, layer, &d->named, empty, err);
}

tilesat_grid *tilesat_tiled_doc_grid(const tilesat_tiled_doc *doc,
                                     const char *layer, tilesat_empty empty,
                                     tilesat_error *err) {
  if (!doc)
    ts_misuse(__func__, "no document");
  return doc->json ? tmj_grid(doc, layer, empty, err)
                   : tmx_grid(doc, layer, empty, err);
}

tilesat_tiled_doc *tilesat_tiled_doc_read(const char *path,
                                          tilesat_error *err) {
  return ts_tiled_doc_read(path, err);
}

void tilesat_tiled_doc_free(tilesat_tiled_doc *doc) { ts_tiled_doc_free(doc); }

tilesat_grid *tilesat_tiled_read(const char *path, const char *layer,
                                 tilesat_empty empty, tilesat_error *err) {
  ts_tiled_doc *d = ts_tiled_doc_read(path, err);
  tilesat_grid *g = d ? tilesat_tiled_doc_grid(d, layer, empty, err) : NULL;
  ts_tiled_doc_free(d);
  return g;
}
