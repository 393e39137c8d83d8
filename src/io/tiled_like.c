/* tiled_like.c: Tiled maps written like a sample map: its tilesets, tile
 * size and orientation. */
/* POSIX with XSI: realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "io/tiled.h"

#include <limits.h>

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
  char *d = ts_tiled_dir_of(file ? file : path);
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
char *ts_tiled_moved_source(const char *like, const char *out,
                            const char *src) {
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
  char *moved = ts_tiled_moved_source(like, out, (const char *)src);
  xmlSetProp(n, (const xmlChar *)"source", (const xmlChar *)moved);
  free(moved);
  xmlFree(src);
  return true;
}

/* The images of an embedded TMX tileset (the tileset's and its tiles'),
 * re-pointed to be seen from `out`. */
static void tmx_move_images(xmlNode *n, const char *like, const char *out) {
  for (xmlNode *c = n->children; c; c = c->next) {
    if (ts_tiled_is_elem(c, "tile"))
      tmx_move_images(c, like, out);
    if (ts_tiled_is_elem(c, "image"))
      tmx_move_source(c, like, out);
  }
}

/* The same for an embedded TMJ tileset: its "image" and its tiles'. */
static void tmj_move_image(cJSON *o, const char *like, const char *out) {
  const char *src = ts_tiled_json_str(o, "image");
  if (!src)
    return;
  char *moved = ts_tiled_moved_source(like, out, src);
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
  ts_tiled_named_free(&l->named);
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
  if (!ts_tiled_is_elem(root, "map")) {
    ts_error(err, like, 0, "not a Tiled map");
    return -1;
  }
  /* the numbers a .tmj copy writes as numbers: checked, not atoi'd */
  static const char *const sizes[] = {"tilewidth", "tileheight",
                                      "hexsidelength"};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    long v = ts_tiled_int_attr(root, sizes[k], 0);
    if (v < 0 || v > INT_MAX) {
      xmlChar *x = xmlGetProp(root, (const xmlChar *)sizes[k]);
      ts_error(err, like, xmlGetLineNo(root),
               "%s '%.40s' is not a whole number from 0 to %d", sizes[k],
               (const char *)x, INT_MAX);
      xmlFree(x);
      return -1;
    }
  }
  for (xmlNode *n = root->children; n; n = n->next)
    if (ts_tiled_is_elem(n, "tileset")) {
      if (ts_tiled_tmx_tileset_names(like, n, &l->named, err))
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
    if (ts_tiled_tmj_tileset_names(like, ts, &l->named, err))
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
  size_t i = ts_text_start(text, len);
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
void ts_tiled_named_index(const named_gids *named, ts_tiled_index *ix) {
  memset(ix, 0, sizeof *ix);
  ix->gid = ts_malloc((named->n + 1) * sizeof *ix->gid);
  for (size_t i = 0; i < named->n; i++) {
    const char *name = named->v[i].name;
    size_t before = ix->names.v.n;
    int k = ts_names_intern(&ix->names, name, strlen(name));
    if (ix->names.v.n > before) /* the first of a name, as Tiled reads it */
      ix->gid[k] = named->v[i].gid;
  }
}

void ts_tiled_named_index_free(ts_tiled_index *ix) {
  ts_names_free(&ix->names);
  free(ix->gid);
}

/* (a hashed lookup, not a scan of every named tile: 20000 named tiles
 * took 1.5 s through --tilesets-from) */
bool ts_tiled_name_gid(const ts_tiled_index *ix, const char *name,
                       uint32_t *gid) {
  int k = ts_names_find(&ix->names, name);
  if (k >= 0) {
    *gid = ix->gid[k];
    return true;
  }
  const char *colon = strrchr(name, ':');
  uint32_t flags = 0;
  if (colon) {
    static const char letters[] = "hvdx";
    if (!colon[1])
      return false;
    for (const char *p = colon + 1; *p; p++) {
      const char *at = strchr(letters, *p);
      if (!at)
        return false;
      flags |= 0x80000000u >> (at - letters);
    }
  }
  size_t n = colon ? (size_t)(colon - name) : strlen(name);
  k = colon ? ts_names_find_n(&ix->names, name, n) : -1;
  if (k >= 0) {
    *gid = ix->gid[k] | flags;
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
  ts_tiled_index ix;
  ts_tiled_named_index(&l->named, &ix);
  int rc = 0;
  for (int t = 0; t < r->ntiles && !rc; t++)
    if (!ts_tiled_name_gid(&ix, r->names.v.v[t], &gid[t])) {
      ts_error(err, like, 0,
               "tile '%s' is neither a tile id (\"12\", \"12:h\") nor a "
               "named tile of this map's tilesets",
               r->names.v.v[t]);
      rc = -1;
    }
  ts_tiled_named_index_free(&ix);
  return rc;
}

/* Inline tilesets only travel within one format. */
static int like_sets_travel(const like_map *l, bool json, const char *like,
                            tilesat_error *err) {
  for (size_t i = 0; i < l->sets.n; i++) {
    bool external =
        l->json ? ts_tiled_json_str(l->sets.v[i], "source") != NULL
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
      ts_tiled_json_int(l->sets.v[i], "firstgid", &first);
      char *src = ts_tiled_moved_source(
          like, path, ts_tiled_json_str(l->sets.v[i], "source"));
      fprintf(f, " <tileset firstgid=\"%ld\" source=\"", first);
      ts_tiled_xml_escaped(f, src);
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

static void write_like_tmx(FILE *f, const tilesat_map *m,
                           const ts_tiled_layers *lin, const like_map *l,
                           const char *like, const char *path) {
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map "
             "version=\"" TILED_FORMAT "\" tiledversion=\"" TILED_VERSION "\"");
  for (size_t k = 0; k < NLIKE_ATTRS; k++) {
    char *v = like_attr_text(l, k);
    if (v) {
      fprintf(f, " %s=\"", like_attrs[k]);
      ts_tiled_xml_escaped(f, v);
      fputc('"', f);
    }
    free(v);
  }
  fprintf(f,
          " renderorder=\"right-down\" width=\"%d\" height=\"%d\" "
          "infinite=\"0\" nextlayerid=\"%zu\" nextobjectid=\"1\">\n",
          m->width, m->height, lin->n + 1);
  ts_tiled_tmx_properties(f, lin);
  tmx_like_sets(f, l, like, path);
  ts_tiled_tmx_layers(f, m, lin);
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
      cJSON_AddNumberToObject(
          root, like_attrs[k],
          (double)ts_tiled_int_attr(xmlDocGetRootElement(l->doc), like_attrs[k],
                                    0)); /* like_read_tmx */
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
      const char *s = ts_tiled_json_str(ts, "source");
      src = s ? ts_tiled_moved_source(like, path, s) : NULL;
      if (src)
        cJSON_ReplaceItemInObjectCaseSensitive(ts, "source",
                                               cJSON_CreateString(src));
      else
        tmj_move_images(ts, like, path);
    } else {
      ts = cJSON_CreateObject();
      long first = ts_tiled_int_attr(l->sets.v[i], "firstgid", 1);
      xmlChar *s = xmlGetProp(l->sets.v[i], (const xmlChar *)"source");
      src = ts_tiled_moved_source(like, path, (const char *)s);
      xmlFree(s);
      cJSON_AddNumberToObject(ts, "firstgid", (double)first);
      cJSON_AddStringToObject(ts, "source", src);
    }
    free(src);
    cJSON_AddItemToArray(sets, ts);
  }
}

static void write_like_tmj(FILE *f, const tilesat_map *m,
                           const ts_tiled_layers *lin, const like_map *l,
                           const char *like, const char *path) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "type", "map");
  cJSON_AddStringToObject(root, "version", TILED_FORMAT);
  cJSON_AddStringToObject(root, "tiledversion", TILED_VERSION);
  tmj_like_attrs(root, l);
  cJSON_AddStringToObject(root, "renderorder", "right-down");
  cJSON_AddNumberToObject(root, "width", m->width);
  cJSON_AddNumberToObject(root, "height", m->height);
  cJSON_AddBoolToObject(root, "infinite", false);
  cJSON_AddNumberToObject(root, "nextlayerid", (double)(lin->n + 1));
  cJSON_AddNumberToObject(root, "nextobjectid", 1);
  ts_tiled_tmj_properties(root, lin);
  ts_tiled_tmj_layers(root, m, lin);
  tmj_like_sets(root, l, like, path);
  ts_tiled_json_write(f, root);
}

/* A map with like's tilesets into f, or -1 (nothing written) when like
 * cannot lend them. */
static int write_like_to(const tilesat_map *m, const ts_tiled_layers *lin,
                         const char *like, const char *path, FILE *f,
                         tilesat_error *err) {
  like_map l;
  if (like_read(like, &l, err)) {
    like_free(&l);
    return -1;
  }
  bool json =
      ts_tiled_ends_with(path, ".tmj") || ts_tiled_ends_with(path, ".json");
  uint32_t *gid = ts_malloc((size_t)m->rules->ntiles * sizeof *gid);
  int rc = like_gids(&l, m->rules, like, gid, err);
  if (!rc)
    rc = like_sets_travel(&l, json, like, err);
  ts_tiled_layers with = *lin;
  with.gid = gid;
  if (!rc && !json)
    write_like_tmx(f, m, &with, &l, like, path);
  else if (!rc)
    write_like_tmj(f, m, &with, &l, like, path);
  free(gid);
  like_free(&l);
  return rc;
}

int ts_tiled_write_like(const tilesat_map *m, const ts_tiled_layers *lin,
                        const char *like, const char *path,
                        tilesat_error *err) {
  tilesat_output *out = tilesat_output_open(path, err);
  if (!out)
    return -1;
  if (write_like_to(m, lin, like, path, tilesat_output_file(out), err)) {
    tilesat_output_discard(out);
    return -1;
  }
  return tilesat_output_commit(out, err);
}

int tilesat_tiled_write_maps_rules_to(const tilesat_map *m,
                                      const int *const *maps, size_t nmaps,
                                      const tilesat_pictures *pics,
                                      const char *like, const char *rules,
                                      const char *path, FILE *map, FILE *image,
                                      tilesat_error *err) {
  if (nmaps == 0 || !map || (!like && !image))
    ts_misuse(__func__, nmaps ? "no stream" : "no maps");
  ts_tiled_layers l = {maps, nmaps, NULL, rules};
  return like ? write_like_to(m, &l, like, path, map, err)
              : ts_tiled_write_own_to(m, &l, pics, path, map, image, err);
}

int tilesat_tiled_write_maps_to(const tilesat_map *m, const int *const *maps,
                                size_t nmaps, const tilesat_pictures *pics,
                                const char *like, const char *path, FILE *map,
                                FILE *image, tilesat_error *err) {
  return tilesat_tiled_write_maps_rules_to(m, maps, nmaps, pics, like, NULL,
                                           path, map, image, err);
}

char *tilesat_tiled_rules_property(const char *rules, const char *path) {
  struct stat st;
  if (!rules || stat(rules, &st) || !S_ISREG(st.st_mode))
    return NULL; /* standard input, a pipe: nothing to name */
  char *real = realpath(rules, NULL);
  if (!real)
    return NULL;
  /* the file's own name in its folder, seen from path's */
  char *v = ts_tiled_moved_source(real, path, strrchr(real, '/') + 1);
  free(real);
  char *enc = tilesat_name_encode(v);
  bool plain = !strcmp(enc, v);
  free(enc);
  if (!plain) {
    free(v);
    return NULL;
  }
  return v;
}
