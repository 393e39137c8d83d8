/* tiled_doc.c: one Tiled document (tiled_doc.h): read once, its layer
 * replaced, its paths re-pointed and its rules named, written by one
 * writer per format. */
#include "io/tiled.h"

#include <errno.h>

/* ------------------------------------------------------------- reading */

static ts_tiled_doc *doc_alloc(const char *path, bool json) {
  ts_tiled_doc *d = ts_calloc(1, sizeof *d);
  d->path = path ? ts_strdup(path) : NULL;
  d->json = json;
  return d;
}

void ts_tiled_doc_free(ts_tiled_doc *d) {
  if (!d)
    return;
  free(d->sets.v);
  ts_tiled_named_free(&d->named);
  if (d->xml)
    xmlFreeDoc(d->xml);
  cJSON_Delete(d->root);
  free(d->path);
  free(d);
}

/* A .tmx document: a <map> root and its <tileset>s' names; 0 or -1. */
static int read_tmx(ts_tiled_doc *d, const char *text, size_t len,
                    tilesat_error *err) {
  d->xml = ts_xml_parse(text, len, d->path, err);
  if (!d->xml)
    return -1;
  xmlNode *root = xmlDocGetRootElement(d->xml);
  if (!ts_tiled_is_elem(root, "map")) {
    if (!ts_xml_known_root(root, d->path, TS_KIND_TILED_MAP, err))
      ts_error(err, d->path, xmlGetLineNo(root),
               "not a Tiled map: root element <%s>, expected <map>",
               (const char *)root->name);
    return -1;
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (ts_tiled_is_elem(n, "tileset")) {
      if (ts_tiled_tmx_tileset_names(d->path, n, &d->named, err))
        return -1;
      TS_PUSH(d->sets, n);
    }
  return 0;
}

/* A .tmj document: an object and its "tilesets"' names; 0 or -1. */
static int read_tmj(ts_tiled_doc *d, const char *text, size_t len,
                    tilesat_error *err) {
  const char *end = NULL;
  d->root = cJSON_ParseWithLengthOpts(text, len, &end, false);
  if (!d->root) {
    long line = 1;
    const char *stop =
        end && end >= text && end <= text + len ? end : text + len;
    for (const char *p = text; p < stop; p++)
      line += *p == '\n';
    ts_error(err, d->path, line, "bad JSON");
    return -1;
  }
  if (!cJSON_IsObject(d->root)) {
    ts_error(err, d->path, 0, "not a Tiled map (no \"layers\" array)");
    return -1;
  }
  cJSON *ts;
  cJSON_ArrayForEach(ts,
                     cJSON_GetObjectItemCaseSensitive(d->root, "tilesets")) {
    if (ts_tiled_tmj_tileset_names(d->path, ts, &d->named, err))
      return -1;
    TS_PUSH(d->sets, ts);
  }
  return 0;
}

ts_tiled_doc *ts_tiled_doc_read(const char *path, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  size_t i = ts_text_start(text, len);
  bool xml = i < len && text[i] == '<', json = i < len && text[i] == '{';
  ts_tiled_doc *d = doc_alloc(path, json);
  int rc = -1;
  if (xml)
    rc = read_tmx(d, text, len, err);
  else if (json)
    rc = read_tmj(d, text + i, len - i, err);
  else
    ts_error(err, path, 0, "not a Tiled map (neither XML nor JSON)");
  free(text);
  if (rc) {
    ts_tiled_doc_free(d);
    return NULL;
  }
  return d;
}

ts_tiled_doc *ts_tiled_doc_new_xml(xmlDoc *xml) {
  ts_tiled_doc *d = doc_alloc(NULL, false);
  d->xml = xml;
  return d;
}

ts_tiled_doc *ts_tiled_doc_new_json(cJSON *root) {
  ts_tiled_doc *d = doc_alloc(NULL, true);
  d->root = root;
  return d;
}

ts_tiled_doc *ts_tiled_doc_copy(const ts_tiled_doc *d) {
  ts_tiled_doc *c = doc_alloc(d->path, d->json);
  if (d->json)
    c->root = cJSON_Duplicate(d->root, true);
  else
    c->xml = xmlCopyDoc(d->xml, 1);
  if ((d->json && !c->root) || (!d->json && !c->xml)) {
    fprintf(stderr, "tilesat: out of memory (copying a Tiled map)\n");
    abort();
  }
  return c;
}

xmlNode *ts_tiled_doc_map(const ts_tiled_doc *d) {
  return d->xml ? xmlDocGetRootElement(d->xml) : NULL;
}

void *ts_tiled_doc_layer(const ts_tiled_doc *d, const char *want) {
  if (d->json)
    return ts_tiled_tmj_find_layer(
        cJSON_GetObjectItemCaseSensitive(d->root, "layers"), want);
  return ts_tiled_tmx_find_layer(ts_tiled_doc_map(d), want);
}

void ts_tiled_doc_layer_size(const ts_tiled_doc *d, void *layer, long *w,
                             long *h) {
  if (d->json) {
    *w = *h = -1;
    ts_tiled_json_int(layer, "width", w);
    ts_tiled_json_int(layer, "height", h);
    return;
  }
  xmlNode *root = ts_tiled_doc_map(d);
  *w = ts_tiled_int_attr(layer, "width", ts_tiled_int_attr(root, "width", -1));
  *h =
      ts_tiled_int_attr(layer, "height", ts_tiled_int_attr(root, "height", -1));
}

/* ------------------------------------------------------------ changing */

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

/* n gids as a layer's encoded data: base64 of their little-endian bytes
 * (tiled_doc.h). */
char *ts_tiled_base64_gids(const uint32_t *gids, size_t n,
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
char *ts_tiled_csv(const uint32_t *gids, int w, int h) {
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

/* A relative path attribute re-pointed to be seen from `out`. */
static void tmx_move_attr(xmlNode *n, const char *attr, const char *base,
                          const char *out) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
  if (v && *v) {
    char *moved = ts_tiled_moved_source(base, out, (const char *)v);
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
    if (ts_tiled_is_elem(n, "tileset") || ts_tiled_is_elem(n, "image"))
      tmx_move_attr(n, "source", base, out);
    else if (ts_tiled_is_elem(n, "object"))
      tmx_move_attr(n, "template", base, out);
    else if (ts_tiled_is_elem(n, "property")) {
      xmlChar *type = xmlGetProp(n, (const xmlChar *)"type");
      if (type && !strcmp((const char *)type, "file"))
        tmx_move_attr(n, "value", base, out);
      xmlFree(type);
    }
    tmx_move_paths(n, base, out);
  }
}

/* n's previous sibling when it is white space only (the indentation
 * before n), or NULL. */
static const xmlChar *indent_before(const xmlNode *n) {
  const xmlNode *t = n ? n->prev : NULL;
  return t && t->type == XML_TEXT_NODE && t->content &&
                 !t->content[strspn((const char *)t->content, " \t\r\n")]
             ? t->content
             : NULL;
}

/* A new <property name="tilesat-rules" value="rules"/>. */
static xmlNode *rules_node(const char *rules) {
  xmlNode *p = xmlNewNode(NULL, (const xmlChar *)"property");
  xmlNewProp(p, (const xmlChar *)"name", (const xmlChar *)RULES_PROPERTY);
  xmlNewProp(p, (const xmlChar *)"value", (const xmlChar *)rules);
  return p;
}

/* The map's <properties>' tilesat-rules with a value (true: the map's own
 * is kept, re-pointed from `out` as the other paths are: it is relative to
 * the map); one without a value gets `rules`. */
static bool tmx_has_rules(xmlNode *props, const char *rules, const char *base,
                          const char *out) {
  for (xmlNode *p = props->children; p; p = p->next) {
    if (!ts_tiled_is_elem(p, "property"))
      continue;
    xmlChar *name = xmlGetProp(p, (const xmlChar *)"name");
    bool ours = name && !strcmp((const char *)name, RULES_PROPERTY);
    xmlFree(name);
    if (!ours)
      continue;
    xmlChar *v = xmlGetProp(p, (const xmlChar *)"value");
    xmlChar *type = xmlGetProp(p, (const xmlChar *)"type");
    bool file = type && !strcmp((const char *)type, "file"); /* moved */
    xmlFree(type);
    if (v && *v && !file)
      tmx_move_attr(p, "value", base, out);
    xmlChar *text = v ? NULL : xmlNodeGetContent(p); /* several lines */
    if ((!v || !*v) && (!text || !*text) && rules)
      xmlSetProp(p, (const xmlChar *)"value", (const xmlChar *)rules);
    xmlFree(v);
    xmlFree(text);
    return true;
  }
  return false;
}

/* The map property tilesat-rules = rules (NULL: none) unless the map has
 * it: added to its <properties>, or in a new <properties> as the map's
 * first child, indented as the map's children are. */
static void tmx_rules_property(xmlNode *root, const char *rules,
                               const char *base, const char *out) {
  xmlNode *props = NULL, *first = NULL, *last = NULL;
  for (xmlNode *n = root->children; n; n = n->next)
    if (n->type == XML_ELEMENT_NODE) {
      first = first ? first : n;
      props = props ? props : ts_tiled_is_elem(n, "properties") ? n : NULL;
    }
  if ((props && tmx_has_rules(props, rules, base, out)) || !rules)
    return;
  xmlNode *p = rules_node(rules);
  if (props) { /* after its last property, indented as that one */
    for (xmlNode *c = props->children; c; c = c->next)
      last = c->type == XML_ELEMENT_NODE ? c : last;
    const xmlChar *ind = indent_before(last);
    if (!last)
      xmlAddChild(props, p);
    else if (!ind)
      xmlAddNextSibling(last, p);
    else /* text before p, which then merges with no other */
      xmlAddPrevSibling(xmlAddNextSibling(last, p), xmlNewText(ind));
    return;
  }
  props = xmlNewNode(NULL, (const xmlChar *)"properties");
  const xmlChar *ind = indent_before(first);
  if (ind) { /* "\n " before the map's children: "\n  " before ours */
    size_t n = strlen((const char *)ind) + 2;
    char *deeper = ts_malloc(n);
    snprintf(deeper, n, "%s ", (const char *)ind);
    xmlAddChild(props, xmlNewText((const xmlChar *)deeper));
    free(deeper);
  }
  xmlAddChild(props, p);
  if (ind)
    xmlAddChild(props, xmlNewText(ind));
  if (!first) {
    xmlAddChild(root, props);
  } else {
    xmlAddPrevSibling(first, props);
    if (ind)
      xmlAddPrevSibling(first, xmlNewText(ind));
  }
}

static void json_move(cJSON *o, const char *key, const char *base,
                      const char *out);

/* The same for a .tmj map: its "properties" array (or the object of
 * Tiled before 1.2, name to value) gets tilesat-rules unless it has one
 * with a value, which is re-pointed from `out`. */
static void tmj_rules_property(cJSON *root, const char *rules, const char *base,
                               const char *out) {
  cJSON *props = cJSON_GetObjectItemCaseSensitive(root, "properties");
  if (!props && !rules)
    return;
  if (!props)
    props = cJSON_AddArrayToObject(root, "properties");
  if (cJSON_IsObject(props)) {
    const cJSON *old = cJSON_GetObjectItemCaseSensitive(props, RULES_PROPERTY);
    bool set = old && (!cJSON_IsString(old) || *old->valuestring);
    if (set && cJSON_IsString(old))
      json_move(props, RULES_PROPERTY, base, out); /* frees old */
    if (set || !rules)
      return;
    cJSON_DeleteItemFromObjectCaseSensitive(props, RULES_PROPERTY);
    cJSON_AddStringToObject(props, RULES_PROPERTY, rules);
    return;
  }
  if (!cJSON_IsArray(props))
    return; /* not Tiled's: left as it is */
  cJSON *p;
  cJSON_ArrayForEach(p, props) {
    const char *name = ts_tiled_json_str(p, "name");
    if (!name || strcmp(name, RULES_PROPERTY))
      continue;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");
    const char *type = ts_tiled_json_str(p, "type");
    bool set = v && (!cJSON_IsString(v) || *v->valuestring);
    if (set && cJSON_IsString(v) && !(type && !strcmp(type, "file")))
      json_move(p, "value", base, out); /* frees v; a file's is moved */
    if (set || !rules)
      return;
    cJSON_DeleteItemFromObjectCaseSensitive(p, "value");
    cJSON_AddStringToObject(p, "value", rules);
    return;
  }
  if (!rules)
    return;
  p = cJSON_CreateObject();
  cJSON_AddStringToObject(p, "name", RULES_PROPERTY);
  cJSON_AddStringToObject(p, "type", "string");
  cJSON_AddStringToObject(p, "value", rules);
  cJSON_AddItemToArray(props, p);
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
    if (ts_tiled_is_elem(c, "data"))
      data = c;
  if (!data)
    return "layer has no <data>";
  xmlChar *enc = xmlGetProp(data, (const xmlChar *)"encoding");
  xmlChar *comp = xmlGetProp(data, (const xmlChar *)"compression");
  const char *why = NULL;
  size_t k = 0, cells = (size_t)w * (size_t)h;
  for (xmlNode *t = enc ? NULL : data->children; t; t = t->next)
    k += ts_tiled_is_elem(t, "tile");
  if (!enc && k != cells) {
    why = "the layer's <tile> elements are not one a cell (width x height)";
  } else if (!enc) { /* <tile gid=".."/> elements, in order */
    k = 0;
    for (xmlNode *t = data->children; t; t = t->next)
      if (ts_tiled_is_elem(t, "tile")) {
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
      text = ts_tiled_csv(gids, w, h);
    } else {
      text =
          ts_tiled_base64_gids(gids, (size_t)w * (size_t)h, (const char *)comp);
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
  const char *v = ts_tiled_json_str(o, key);
  if (v && *v) {
    char *moved = ts_tiled_moved_source(base, out, v);
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
    const char *type = ts_tiled_json_str(node, "type");
    if (type && !strcmp(type, "file") && ts_tiled_json_str(node, "name"))
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
    char *text =
        ts_tiled_base64_gids(gids, n, ts_tiled_json_str(layer, "compression"));
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

const char *ts_tiled_doc_put_layer(ts_tiled_doc *d, void *layer,
                                   const uint32_t *gids, int w, int h) {
  return d->json ? tmj_put_gids(layer, gids, (size_t)w * (size_t)h)
                 : tmx_put_gids(layer, gids, w, h);
}

void ts_tiled_doc_move_paths(ts_tiled_doc *d, const char *out) {
  if (d->json)
    tmj_move_paths(d->root, d->path, out);
  else
    tmx_move_paths(ts_tiled_doc_map(d), d->path, out);
}

void ts_tiled_doc_rules(ts_tiled_doc *d, const char *rules, const char *out) {
  if (d->json)
    tmj_rules_property(d->root, rules, d->path, out);
  else
    tmx_rules_property(ts_tiled_doc_map(d), rules, d->path, out);
}

/* -------------------------------------------------------------- writing */

/* (a write that fails here is said here: what the stream holds when it is
 * committed depends on where its buffer ended, and errno by then on the
 * calls between) */
int ts_tiled_doc_write(const ts_tiled_doc *d, FILE *f, const char *path,
                       tilesat_error *err) {
  char *text = NULL;
  xmlChar *buf = NULL;
  size_t n;
  if (d->json) {
    text = cJSON_Print(d->root);
    n = text ? strlen(text) : 0;
  } else {
    int len = 0;
    xmlDocDumpMemoryEnc(d->xml, &buf, &len, "UTF-8");
    n = len > 0 ? (size_t)len : 0;
  }
  if (!text && !buf) {
    fprintf(stderr, "tilesat: out of memory (writing %s)\n",
            d->json ? "JSON" : "XML");
    abort();
  }
  errno = 0;
  bool ok = fwrite(text ? text : (const char *)buf, 1, n, f) == n &&
            (!d->json || fputc('\n', f) != EOF);
  int e = errno ? errno : EIO;
  cJSON_free(text);
  xmlFree(buf);
  if (!ok)
    ts_error(err, path, 0, "write error: %s", strerror(e));
  return ok ? 0 : -1;
}

xmlDoc *ts_tiled_xml_new(const char *name) {
  xmlDoc *doc = xmlNewDoc((const xmlChar *)"1.0");
  doc->encoding = xmlStrdup((const xmlChar *)"UTF-8");
  xmlDocSetRootElement(doc, xmlNewNode(NULL, (const xmlChar *)name));
  return doc;
}

xmlNode *ts_tiled_elem(xmlNode *parent, const char *ind, const char *name) {
  if (ind)
    ts_tiled_text(parent, ind);
  return xmlNewChild(parent, NULL, (const xmlChar *)name, NULL);
}

void ts_tiled_text(xmlNode *parent, const char *text) {
  xmlAddChild(parent, xmlNewText((const xmlChar *)text));
}

void ts_tiled_attr(xmlNode *n, const char *name, const char *value) {
  xmlNewProp(n, (const xmlChar *)name, (const xmlChar *)value);
}

void ts_tiled_attr_long(xmlNode *n, const char *name, long value) {
  char v[24];
  snprintf(v, sizeof v, "%ld", value);
  ts_tiled_attr(n, name, v);
}
