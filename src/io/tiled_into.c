/* tiled_into.c: a map written into the layer of the Tiled map it was
 * painted in, and the entry points of the writers. */
#include "io/tiled.h"

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
  ts_tiled_index ix;
  ts_tiled_named_index(named, &ix);
  for (int t = 0; t < r->ntiles; t++)
    if (!ts_tiled_name_gid(&ix, r->names.v.v[t], &gid[t])) {
      ts_error(err, base, 0,
               "tile '%s' is neither a tile id (\"12\", \"12:h\") nor a "
               "named tile (a \"tilesat\" property) of this map's tilesets",
               r->names.v.v[t]);
      ts_tiled_named_index_free(&ix);
      free(gid);
      return NULL;
    }
  ts_tiled_named_index_free(&ix);
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
  if (!enc) { /* <tile gid=".."/> elements, in order */
    size_t k = 0;
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
    char *text = encode_gids(gids, n, ts_tiled_json_str(layer, "compression"));
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
                    const char *rules, const char *path, char **out,
                    size_t *outlen, tilesat_error *err) {
  xmlDoc *doc = ts_xml_parse(text, len, base, err);
  if (!doc)
    return -1;
  xmlNode *root = xmlDocGetRootElement(doc);
  named_gids named = {0};
  uint32_t *gids = NULL;
  int rc = -1;
  if (!ts_tiled_is_elem(root, "map")) {
    if (!ts_xml_known_root(root, base, TS_KIND_TILED_MAP, err))
      ts_error(err, base, xmlGetLineNo(root),
               "not a Tiled map: root element <%s>, expected <map>",
               (const char *)root->name);
    goto done;
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (ts_tiled_is_elem(n, "tileset") &&
        ts_tiled_tmx_tileset_names(base, n, &named, err))
      goto done;
  xmlNode *layer = ts_tiled_tmx_find_layer(root, want);
  if (!layer) {
    ts_tiled_no_layer(base, want, err);
    goto done;
  }
  long w =
      ts_tiled_int_attr(layer, "width", ts_tiled_int_attr(root, "width", -1));
  long h =
      ts_tiled_int_attr(layer, "height", ts_tiled_int_attr(root, "height", -1));
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
  tmx_rules_property(root, rules, base, path);
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
  ts_tiled_named_free(&named);
  xmlFreeDoc(doc);
  return rc;
}

static int into_tmj(const tilesat_map *m, const int *tiles, const char *text,
                    size_t len, const char *base, const char *want,
                    const char *rules, const char *path, char **out,
                    size_t *outlen, tilesat_error *err) {
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
    if (ts_tiled_tmj_tileset_names(base, ts, &named, err))
      goto done;
  }
  cJSON *layer = ts_tiled_tmj_find_layer(layers, want);
  if (!layer) {
    ts_tiled_no_layer(base, want, err);
    goto done;
  }
  long w = 0, h = 0;
  ts_tiled_json_int(layer, "width", &w);
  ts_tiled_json_int(layer, "height", &h);
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
  tmj_rules_property(root, rules, base, path);
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
  ts_tiled_named_free(&named);
  cJSON_Delete(root);
  return rc;
}

int tilesat_tiled_write_into(const tilesat_map *m, const int *tiles,
                             const char *base, const char *layer,
                             const char *path, tilesat_error *err) {
  return tilesat_tiled_write_into_rules(m, tiles, base, layer, NULL, path, err);
}

int tilesat_tiled_write_into_rules(const tilesat_map *m, const int *tiles,
                                   const char *base, const char *layer,
                                   const char *rules, const char *path,
                                   tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(base, &len, err);
  if (!text)
    return -1;
  size_t i = ts_text_start(text, len);
  bool json =
      ts_tiled_ends_with(path, ".tmj") || ts_tiled_ends_with(path, ".json");
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
    rc = into_tmx(m, tiles, text, len, base, layer, rules, path, &out, &outlen,
                  err);
  else
    rc = into_tmj(m, tiles, text + i, len - i, base, layer, rules, path, &out,
                  &outlen, err);
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
  ts_tiled_layers l = {maps, nmaps, NULL, NULL};
  return like ? ts_tiled_write_like(m, &l, like, path, err)
              : ts_tiled_write_own(m, &l, pics, path, err);
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
