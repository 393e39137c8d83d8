/* io/tiled_doc.h: one Tiled document (tiled_doc.c), the model every
 * reader and writer of Tiled maps works on: a map read once (.tmx as a
 * libxml2 tree, .tmj as a cJSON tree) with its tilesets' named tiles, or a
 * map made anew (our own tileset, or a sample's); its layers found by name,
 * a layer's data replaced in the encoding it has, the map property
 * tilesat-rules set, its paths re-pointed, and the whole written by one
 * writer per format (ts_tiled_doc_write). */
#ifndef TILESAT_IO_TILED_DOC_H
#define TILESAT_IO_TILED_DOC_H

#include "io/io.h"

#include <cJSON.h>
#include <libxml/tree.h>

/* gid -> name for tiles that carry a "tilesat" property. */
typedef struct ts_tiled_gid {
  uint32_t gid;
  char *name;
} ts_tiled_gid;
typedef TS_VEC(ts_tiled_gid) named_gids;

/* The document (tilesat_tiled_doc of the API). */
struct tilesat_tiled_doc {
  char *path;          /* the file it was read from (messages, and the
                          folder its paths are relative to); NULL: new */
  bool json;           /* .tmj (root), else .tmx (xml) */
  xmlDoc *xml;         /* TMX */
  cJSON *root;         /* TMJ */
  TS_VEC(void *) sets; /* the map's tilesets: xmlNode* or cJSON*, in order */
  named_gids named;    /* the tiles they name ("tilesat" properties) */
};
typedef struct tilesat_tiled_doc ts_tiled_doc;

/* A map or tileset file read and parsed once, its root checked to be a
 * Tiled map and its tilesets' names read (external ones beside it); NULL
 * and *err (FILE:LINE: what) otherwise. */
ts_tiled_doc *ts_tiled_doc_read(const char *path, tilesat_error *err);
/* A new document around a tree made here (owned from then on). */
ts_tiled_doc *ts_tiled_doc_new_xml(xmlDoc *xml);
ts_tiled_doc *ts_tiled_doc_new_json(cJSON *root);
/* A copy of d's tree to change (its path too; no tilesets or names). */
ts_tiled_doc *ts_tiled_doc_copy(const ts_tiled_doc *d);
void ts_tiled_doc_free(ts_tiled_doc *d);
/* The map element (TMX) or object (TMJ). */
xmlNode *ts_tiled_doc_map(const ts_tiled_doc *d);
/* The tile layer named `want` (NULL: the first), depth first through
 * group layers: an xmlNode* or a cJSON*, or NULL. */
void *ts_tiled_doc_layer(const ts_tiled_doc *d, const char *want);
/* The layer's width and height as the file says (-1 when it does not). */
void ts_tiled_doc_layer_size(const ts_tiled_doc *d, void *layer, long *w,
                             long *h);
/* The layer's data replaced by w*h gids in the encoding and compression
 * it had; NULL, or why not. */
const char *ts_tiled_doc_put_layer(ts_tiled_doc *d, void *layer,
                                   const uint32_t *gids, int w, int h);
/* Every relative path the map holds (tileset sources, images, templates,
 * file properties) re-pointed from the folder of `out`. */
void ts_tiled_doc_move_paths(ts_tiled_doc *d, const char *out);
/* The map property tilesat-rules = rules (NULL: none) unless the map has
 * one with a value (re-pointed from `out`, relative to the map). */
void ts_tiled_doc_rules(ts_tiled_doc *d, const char *rules, const char *out);
/* The writer: the document as TMX (libxml2) or TMJ (cJSON and a newline)
 * into f, the stream of `path`; 0, or -1 and *err for a write that failed.
 * Running out of memory aborts, as everywhere in the library. */
int ts_tiled_doc_write(const ts_tiled_doc *d, FILE *f, const char *path,
                       tilesat_error *err);

/* Layer data: w*h gids as CSV as Tiled writes it (a newline, rows, each
 * ending in a newline, commas between all), or base64 of their bytes,
 * zlib- or gzip-compressed as `compression` says (NULL/"": not); malloc'd,
 * or NULL for a compression tilesat does not write. */
char *ts_tiled_csv(const uint32_t *gids, int w, int h);
char *ts_tiled_base64_gids(const uint32_t *gids, size_t n,
                           const char *compression);

/* Building TMX trees: a new element `name` as parent's last child, after
 * the text `ind` (the line end and indentation Tiled writes; NULL: none). */
xmlNode *ts_tiled_elem(xmlNode *parent, const char *ind, const char *name);
void ts_tiled_text(xmlNode *parent, const char *text);
void ts_tiled_attr(xmlNode *n, const char *name, const char *value);
void ts_tiled_attr_long(xmlNode *n, const char *name, long value);
/* A new TMX document: its root element `name`. */
xmlDoc *ts_tiled_xml_new(const char *name);

#endif
