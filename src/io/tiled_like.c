/* tiled_like.c: Tiled maps written like a sample map: its tilesets, tile
 * size and orientation. */
/* POSIX with XSI: realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "io/tiled.h"

#include <limits.h>

/* ------------------------------------------------- writing like a sample */

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

/* Can `like` lend its tilesets and map attributes?  Its tilesets are
 * there, and the numbers a .tmj copy writes as numbers are numbers
 * (checked, not atoi'd); 0 or -1 and *err. */
static int like_check(const ts_tiled_doc *like, tilesat_error *err) {
  xmlNode *root = ts_tiled_doc_map(like);
  static const char *const sizes[] = {"tilewidth", "tileheight",
                                      "hexsidelength"};
  for (size_t k = 0; root && k < sizeof sizes / sizeof *sizes; k++) {
    long v = ts_tiled_int_attr(root, sizes[k], 0);
    if (v < 0 || v > INT_MAX) {
      xmlChar *x = xmlGetProp(root, (const xmlChar *)sizes[k]);
      ts_error(err, like->path, xmlGetLineNo(root),
               "%s '%.40s' is not a whole number from 0 to %d", sizes[k],
               (const char *)x, INT_MAX);
      xmlFree(x);
      return -1;
    }
  }
  if (!like->sets.n) {
    ts_error(err, like->path, 0, "has no tilesets");
    return -1;
  }
  return 0;
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

/* Each tile's gid by the names of d's tilesets (malloc'd), or NULL and
 * *err for a tile they do not name. */
uint32_t *ts_tiled_doc_gids(const ts_tiled_doc *d, const tilesat_rules *r,
                            tilesat_error *err) {
  uint32_t *gid = ts_malloc((size_t)r->ntiles * sizeof *gid + 1);
  ts_tiled_index ix;
  ts_tiled_named_index(&d->named, &ix);
  for (int t = 0; t < r->ntiles; t++)
    if (!ts_tiled_name_gid(&ix, r->names.v.v[t], &gid[t])) {
      ts_error(err, d->path, 0,
               "tile '%s' is neither a tile id (\"12\", \"12:h\") nor a "
               "named tile (a \"tilesat\" property) of this map's tilesets",
               r->names.v.v[t]);
      free(gid);
      gid = NULL;
      break;
    }
  ts_tiled_named_index_free(&ix);
  return gid;
}

/* Inline tilesets only travel within one format. */
static int like_sets_travel(const ts_tiled_doc *l, bool json,
                            tilesat_error *err) {
  for (size_t i = 0; i < l->sets.n; i++) {
    bool external =
        l->json ? ts_tiled_json_str(l->sets.v[i], "source") != NULL
                : xmlHasProp(l->sets.v[i], (const xmlChar *)"source") != NULL;
    if (!external && l->json != json) {
      ts_error(err, l->path, 0,
               "an embedded tileset cannot be copied between .tmx and .tmj: "
               "write %s",
               l->json ? ".tmj" : ".tmx");
      return -1;
    }
  }
  return 0;
}

/* like_attrs[k] of `like`'s map as text (malloc'd), or NULL. */
static char *like_attr_text(const ts_tiled_doc *l, size_t k) {
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
    xmlChar *x = xmlGetProp(xmlDocGetRootElement(l->xml),
                            (const xmlChar *)like_attrs[k]);
    if (x)
      v = ts_strdup((const char *)x);
    xmlFree(x);
  }
  return v;
}

/* `like`'s tilesets as TMX: a TMJ set by its source, a copy of a TMX one
 * as it was (its source or images moved to be seen from `path`). */
static void tmx_like_sets(xmlNode *map, const ts_tiled_doc *l,
                          const char *path) {
  for (size_t i = 0; i < l->sets.n; i++) {
    if (l->json) {
      long first = 1;
      ts_tiled_json_int(l->sets.v[i], "firstgid", &first);
      char *src = ts_tiled_moved_source(
          l->path, path, ts_tiled_json_str(l->sets.v[i], "source"));
      xmlNode *ts = ts_tiled_elem(map, "\n ", "tileset");
      ts_tiled_attr_long(ts, "firstgid", first);
      ts_tiled_attr(ts, "source", src);
      free(src);
      continue;
    }
    xmlNode *n = xmlDocCopyNode(l->sets.v[i], map->doc, 1);
    if (!n) {
      fprintf(stderr, "tilesat: out of memory (copying a tileset)\n");
      abort();
    }
    if (!tmx_move_source(n, l->path, path)) /* external, or embedded */
      tmx_move_images(n, l->path, path);
    ts_tiled_text(map, "\n ");
    xmlAddChild(map, n);
  }
}

static int write_like_tmx(FILE *f, const tilesat_map *m,
                          const ts_tiled_layers *lin, const ts_tiled_doc *l,
                          const char *path, tilesat_error *err) {
  xmlDoc *doc = ts_tiled_xml_new("map");
  xmlNode *map = xmlDocGetRootElement(doc);
  ts_tiled_attr(map, "version", TILED_FORMAT);
  ts_tiled_attr(map, "tiledversion", TILED_VERSION);
  for (size_t k = 0; k < NLIKE_ATTRS; k++) {
    char *v = like_attr_text(l, k);
    if (v)
      ts_tiled_attr(map, like_attrs[k], v);
    free(v);
  }
  ts_tiled_attr(map, "renderorder", "right-down");
  ts_tiled_attr_long(map, "width", m->width);
  ts_tiled_attr_long(map, "height", m->height);
  ts_tiled_attr(map, "infinite", "0");
  ts_tiled_attr_long(map, "nextlayerid", (long)lin->n + 1);
  ts_tiled_attr(map, "nextobjectid", "1");
  ts_tiled_tmx_properties(map, lin);
  tmx_like_sets(map, l, path);
  ts_tiled_tmx_layers(map, m, lin);
  ts_tiled_text(map, "\n");
  return ts_tiled_xml_write(f, doc, path, err);
}

/* The map attributes of `like` into a TMJ root: TMX's numbers as numbers. */
static void tmj_like_attrs(cJSON *root, const ts_tiled_doc *l) {
  for (size_t k = 0; k < NLIKE_ATTRS; k++) {
    if (l->json) {
      const cJSON *x = cJSON_GetObjectItemCaseSensitive(l->root, like_attrs[k]);
      if (x)
        cJSON_AddItemToObject(root, like_attrs[k], cJSON_Duplicate(x, true));
      continue;
    }
    xmlChar *x = xmlGetProp(xmlDocGetRootElement(l->xml),
                            (const xmlChar *)like_attrs[k]);
    if (x && (k == 0 || k >= 4))
      cJSON_AddStringToObject(root, like_attrs[k], (const char *)x);
    else if (x)
      cJSON_AddNumberToObject(
          root, like_attrs[k],
          (double)ts_tiled_int_attr(xmlDocGetRootElement(l->xml), like_attrs[k],
                                    0)); /* like_check */
    xmlFree(x);
  }
}

/* `like`'s tilesets as TMJ: a TMJ set copied, a TMX one by its source (both
 * sources moved to be seen from `path`). */
static void tmj_like_sets(cJSON *root, const ts_tiled_doc *l,
                          const char *path) {
  const char *like = l->path;
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

static int write_like_tmj(FILE *f, const tilesat_map *m,
                          const ts_tiled_layers *lin, const ts_tiled_doc *l,
                          const char *path, tilesat_error *err) {
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
  tmj_like_sets(root, l, path);
  return ts_tiled_json_write(f, root, path, err);
}

/* A map with like's tilesets into f, or -1 (nothing written) when like
 * cannot lend them. */
int ts_tiled_write_like_to(const tilesat_map *m, const ts_tiled_layers *lin,
                           const ts_tiled_doc *like, const char *path, FILE *f,
                           tilesat_error *err) {
  bool json =
      ts_tiled_ends_with(path, ".tmj") || ts_tiled_ends_with(path, ".json");
  if (like_check(like, err) || like_sets_travel(like, json, err))
    return -1;
  uint32_t *gid = ts_tiled_doc_gids(like, m->rules, err);
  if (!gid)
    return -1;
  ts_tiled_layers with = *lin;
  with.gid = gid;
  int rc = json ? write_like_tmj(f, m, &with, like, path, err)
                : write_like_tmx(f, m, &with, like, path, err);
  free(gid);
  return rc;
}

int tilesat_tiled_doc_write_maps_to(const tilesat_map *m,
                                    const int *const *maps, size_t nmaps,
                                    const tilesat_pictures *pics,
                                    const tilesat_tiled_doc *like,
                                    const char *rules, const char *path,
                                    FILE *map, FILE *image,
                                    tilesat_error *err) {
  if (nmaps == 0 || !map || (!like && !image))
    ts_misuse(__func__, nmaps ? "no stream" : "no maps");
  ts_tiled_layers l = {maps, nmaps, NULL, rules};
  return like ? ts_tiled_write_like_to(m, &l, like, path, map, err)
              : ts_tiled_write_own_to(m, &l, pics, path, map, image, err);
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
