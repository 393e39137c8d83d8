/* io/tiled.h: what the Tiled document (tiled_doc.c), its reader (tiled.c)
 * and the documents made for writing (tiled_write.c: our own tileset,
 * tiled_like.c: a sample's, tiled_into.c: the painted map's) share. */
#ifndef TILESAT_IO_TILED_H
#define TILESAT_IO_TILED_H

#include "io/io.h"
#include "io/tiled_doc.h"

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

/* The layers written: one per map, named "tilesat" (one map) or "map K",
 * tile t as gid[t] (or t + 1 in our own tileset); and the map property
 * tilesat-rules (RULES_PROPERTY) when rules is not NULL. */
typedef struct ts_tiled_layers {
  const int *const *maps;
  size_t n;
  const uint32_t *gid;
  const char *rules;
} ts_tiled_layers;

/* the map property Tiled's extension (tools/tiled/tilesat.js) reads */
#define RULES_PROPERTY "tilesat-rules"
/* The format version and the Tiled every writer's files say (maps and
 * tilesets alike): Debian's tiled, which opens them as they are. */
#define TILED_FORMAT "1.8"
#define TILED_VERSION "1.8.2"

char *ts_tiled_dir_of(const char *path);
void ts_tiled_named_free(named_gids *v);
void ts_tiled_no_layer(const char *path, const char *want, tilesat_error *err);
long ts_tiled_int_attr(xmlNode *n, const char *name, long def);
bool ts_tiled_is_elem(xmlNode *n, const char *name);
int ts_tiled_tmx_tileset_names(const char *path, xmlNode *ts, named_gids *named,
                               tilesat_error *err);
xmlNode *ts_tiled_tmx_find_layer(xmlNode *parent, const char *want);
bool ts_tiled_json_int(const cJSON *o, const char *key, long *out);
const char *ts_tiled_json_str(const cJSON *o, const char *key);
int ts_tiled_tmj_tileset_names(const char *path, const cJSON *ts,
                               named_gids *named, tilesat_error *err);
cJSON *ts_tiled_tmj_find_layer(const cJSON *layers, const char *want);
bool ts_tiled_ends_with(const char *s, const char *suffix);
void ts_tiled_tmx_layers(xmlNode *map, const tilesat_map *m,
                         const ts_tiled_layers *l);
void ts_tiled_tmj_layers(cJSON *root, const tilesat_map *m,
                         const ts_tiled_layers *l);
/* A new map's <properties> (a TMX map's first child) or "properties"
 * holding tilesat-rules, when l->rules is set. */
void ts_tiled_tmx_properties(xmlNode *map, const ts_tiled_layers *l);
void ts_tiled_tmj_properties(cJSON *root, const ts_tiled_layers *l);
/* A tree made here written (ts_tiled_doc_write) and freed. */
int ts_tiled_json_write(FILE *f, cJSON *root, const char *path,
                        tilesat_error *err);
int ts_tiled_xml_write(FILE *f, xmlDoc *doc, const char *path,
                       tilesat_error *err);
int ts_tiled_write_own_to(const tilesat_map *m, const ts_tiled_layers *l,
                          const tilesat_pictures *pics, const char *path,
                          FILE *f, FILE *img, tilesat_error *err);
int ts_tiled_write_own(const tilesat_map *m, const ts_tiled_layers *l,
                       const tilesat_pictures *pics, const char *path,
                       tilesat_error *err);
char *ts_tiled_moved_source(const char *like, const char *out, const char *src);
/* The named gids hashed by name: the gid of each name's first entry. */
typedef struct ts_tiled_index {
  ts_names names;
  uint32_t *gid; /* by the names' index */
} ts_tiled_index;
void ts_tiled_named_index(const named_gids *named, ts_tiled_index *ix);
void ts_tiled_named_index_free(ts_tiled_index *ix);
bool ts_tiled_name_gid(const ts_tiled_index *ix, const char *name,
                       uint32_t *gid);
/* Each tile of r as a gid of d's tilesets (malloc'd), or NULL and *err. */
uint32_t *ts_tiled_doc_gids(const ts_tiled_doc *d, const tilesat_rules *r,
                            tilesat_error *err);
/* A map written with like's tilesets into f; -1 and *err (nothing
 * written) when like cannot lend them. */
int ts_tiled_write_like_to(const tilesat_map *m, const ts_tiled_layers *lin,
                           const ts_tiled_doc *like, const char *path, FILE *f,
                           tilesat_error *err);

#endif
