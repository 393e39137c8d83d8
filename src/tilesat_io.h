/* tilesat_io.h: libtilesat-io: PNG images, image samples, WFC's tilesets
 * and run lists, Tiled maps, tile pictures and rendering (libpng, libxml2,
 * zlib, cJSON).  tilesat.h's contract holds; docs/reference.md says more:
 * the pictures format, what each picture shows. */
#ifndef TILESAT_IO_H
#define TILESAT_IO_H

#include "tilesat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- images: RGBA, 8 bits a channel, rows top to bottom */
typedef struct tilesat_image {
  int width, height;
  uint8_t *rgba; /* width * height * 4 bytes */
} tilesat_image;
TILESAT_API tilesat_image *tilesat_image_new(int width, int height);
TILESAT_API void tilesat_image_free(tilesat_image *img);
TILESAT_API bool tilesat_is_png(const void *data, size_t len);
TILESAT_API tilesat_image *tilesat_image_read_png(const char *path,
                                                  tilesat_error *err);
TILESAT_API tilesat_image *tilesat_image_parse_png(const void *data, size_t len,
                                                   const char *filename,
                                                   tilesat_error *err);
/* Writers: 0, or -1 with err (a file: whole or not at all). */
TILESAT_API int tilesat_image_write_png(const tilesat_image *img,
                                        const char *path, tilesat_error *err);
TILESAT_API int tilesat_image_write_png_stream(const tilesat_image *img,
                                               FILE *f, const char *name,
                                               tilesat_error *err);
TILESAT_API bool tilesat_png_by_tilesat(const char *path);
/* A PNG's note of what it shows (at most 79 bytes); false: none. */
#define TILESAT_PNG_NOTE "tilesat-picture"
TILESAT_API int tilesat_image_write_png_noted(const tilesat_image *img, FILE *f,
                                              const char *name,
                                              const char *note,
                                              tilesat_error *err);
TILESAT_API bool tilesat_png_note(const char *path, char *note, size_t len);
/* The picture img was scaled from (xn/xd, yn/yd), or NULL. */
TILESAT_API tilesat_image *tilesat_image_unscale(const tilesat_image *img,
                                                 long long xn, long long xd,
                                                 long long yn, long long yd);

/* ---- tile pictures: one RGBA picture a tile name, all one size */
typedef struct tilesat_pictures tilesat_pictures;
TILESAT_API tilesat_pictures *tilesat_pictures_new(int width, int height,
                                                   int overlap);
TILESAT_API void tilesat_pictures_free(tilesat_pictures *p);
TILESAT_API int tilesat_pictures_width(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_height(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_overlap(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_count(const tilesat_pictures *p);
TILESAT_API const char *tilesat_pictures_name(const tilesat_pictures *p, int i);
/* Add (copied) or replace: its index.  Lookups: NULL when none. */
TILESAT_API int tilesat_pictures_set(tilesat_pictures *p, const char *name,
                                     const uint8_t *rgba);
TILESAT_API const uint8_t *tilesat_pictures_get(const tilesat_pictures *p,
                                                const char *name);
TILESAT_API const char *tilesat_pictures_find_pixels(const tilesat_pictures *p,
                                                     const uint8_t *rgba);
TILESAT_API tilesat_pictures *tilesat_pictures_parse(const char *text,
                                                     size_t len,
                                                     const char *filename,
                                                     tilesat_error *err);
TILESAT_API tilesat_pictures *tilesat_pictures_read_file(const char *path,
                                                         tilesat_error *err);
TILESAT_API int tilesat_pictures_write(const tilesat_pictures *p, FILE *out);
/* A tile's colour without a picture, and the pictures drawn so. */
TILESAT_API void tilesat_tile_colour(const tilesat_rules *r, int tile,
                                     uint8_t rgba[4]);
TILESAT_API tilesat_pictures *tilesat_pictures_drawn(const tilesat_rules *r,
                                                     tilesat_topology topo);

/* ---- samples: images, WFC's overlapping model, its tilesets */
TILESAT_API tilesat_grid *
tilesat_grid_from_image(const tilesat_image *img, const char *filename,
                        int tile_size, const tilesat_pictures *known,
                        tilesat_pictures *pics, tilesat_error *err);
TILESAT_API tilesat_rules *
tilesat_extract_patterns(const tilesat_image *const *images, size_t nimages,
                         int n, bool periodic_input, int symmetry,
                         tilesat_pictures **pics, tilesat_error *err);
/* A simple-tiled-model tileset (XML); *pics its pictures when not NULL. */
TILESAT_API tilesat_rules *tilesat_import_tileset(const char *path,
                                                  const char *subset,
                                                  tilesat_pictures **pics,
                                                  tilesat_error *err);
/* An entry of mxgmn's samples.xml, with the reference's defaults. */
typedef struct tilesat_wfc_entry {
  bool overlapping; /* else simpletiled */
  long line;
  char *name, *subset;
  int n;
  int width, height;
  bool periodic_input, periodic;
  int symmetry;
  bool ground;
  tilesat_heuristic heuristic;
  int screenshots;
  long limit, seed; /* -1: none */
  bool text_output, black_background;
  char *error; /* why it cannot run as written, or NULL */
} tilesat_wfc_entry;
/* The entries, *n of them; NULL with err when the file is unreadable. */
TILESAT_API tilesat_wfc_entry *
tilesat_wfc_samples_read(const char *path, size_t *n, tilesat_error *err);
TILESAT_API void tilesat_wfc_samples_free(tilesat_wfc_entry *entries, size_t n);

/* ---- Tiled maps (.tmx, .tmj) and tilesets (.tsx, .tsj) */
typedef enum tilesat_empty { /* how empty cells (gid 0) are read */
                             TILESAT_EMPTY_TILE = 0, /* a tile named "0" */
                             TILESAT_EMPTY_EXCLUDE =
                                 1, /* not part of the sample */
                             TILESAT_EMPTY_FREE =
                                 2, /* excluded; no tile at all is no error */
} tilesat_empty;
TILESAT_API tilesat_grid *tilesat_tiled_read(const char *path,
                                             const char *layer,
                                             tilesat_empty empty,
                                             tilesat_error *err);
/* Writers: 0, or -1 with err; read back by tilesat_tiled_read. */
TILESAT_API int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                                    const tilesat_pictures *pics,
                                    const char *path, tilesat_error *err);
/* The tileset's picture written beside path: path + ".png" (malloc'd). */
TILESAT_API char *tilesat_tiled_picture_path(const char *path);
TILESAT_API int tilesat_tiled_write_tileset(const tilesat_rules *r,
                                            const tilesat_pictures *pics,
                                            const char *path,
                                            tilesat_error *err);
/* The "tilesat-rules" map property (malloc'd, or NULL). */
TILESAT_API char *tilesat_tiled_rules_property(const char *rules,
                                               const char *path);

/* ---- a Tiled map read once (by content): its tilesets and named tiles;
 * tilesat_tiled_read reads one a call (NULL and *err: not a map) */
typedef struct tilesat_tiled_doc tilesat_tiled_doc;
TILESAT_API tilesat_tiled_doc *tilesat_tiled_doc_read(const char *path,
                                                      tilesat_error *err);
TILESAT_API void tilesat_tiled_doc_free(tilesat_tiled_doc *doc);
TILESAT_API tilesat_grid *tilesat_tiled_doc_grid(const tilesat_tiled_doc *doc,
                                                 const char *layer,
                                                 tilesat_empty empty,
                                                 tilesat_error *err);
/* Maps as layers with like's tilesets (NULL: our own, its picture to
 * image), into streams the caller puts in place; a map into a copy of base
 * keeping all but the layer; rules: the tilesat-rules property or NULL.
 * 0, or -1 with err; the documents stay unchanged. */
TILESAT_API int
tilesat_tiled_doc_write_maps_to(const tilesat_map *m, const int *const *maps,
                                size_t nmaps, const tilesat_pictures *pics,
                                const tilesat_tiled_doc *like,
                                const char *rules, const char *path, FILE *map,
                                FILE *image, tilesat_error *err);
TILESAT_API int tilesat_tiled_doc_write_into(
    const tilesat_map *m, const int *tiles, const tilesat_tiled_doc *base,
    const char *layer, const char *rules, const char *path, tilesat_error *err);

/* ---- rendering: tiles, else domains blended; images NULL when too large,
 * which the _fits functions tell before any work */
TILESAT_API tilesat_image *tilesat_render(const tilesat_map *m,
                                          const tilesat_pictures *pics,
                                          const int *tiles,
                                          const uint64_t *domains,
                                          const bool *highlight);
TILESAT_API int tilesat_render_png(const tilesat_map *m,
                                   const tilesat_pictures *pics,
                                   const int *tiles, const uint64_t *domains,
                                   const bool *highlight, const char *path,
                                   tilesat_error *err);
#define TILESAT_SHEET_GAP 2
TILESAT_API tilesat_image *tilesat_render_sheet(const tilesat_map *m,
                                                const tilesat_pictures *pics,
                                                const int *const *maps,
                                                size_t nmaps);
TILESAT_API bool tilesat_render_fits(const tilesat_map *m,
                                     const tilesat_pictures *pics);
TILESAT_API size_t tilesat_render_sheet_fits(const tilesat_map *m,
                                             const tilesat_pictures *pics,
                                             size_t nmaps);
/* How the command line draws (NULL: tilesat_render's picture). */
#define TILESAT_LEGEND_TILES 32
#define TILESAT_SCALE_READABLE (-1)
typedef struct tilesat_draw {
  int scale; /* pixels a cell; 0: as drawn; or TILESAT_SCALE_READABLE */
  bool pins;
  bool legend;
  int window[4]; /* row, column, height, width; all 0: the whole map */
} tilesat_draw;
TILESAT_API tilesat_image *tilesat_render_drawn(const tilesat_map *m,
                                                const tilesat_pictures *pics,
                                                const int *tiles,
                                                const uint64_t *domains,
                                                const tilesat_draw *how);
TILESAT_API tilesat_image *
tilesat_render_sheet_drawn(const tilesat_map *m, const tilesat_pictures *pics,
                           const int *const *maps, size_t nmaps,
                           const tilesat_draw *how);
TILESAT_API bool tilesat_render_drawn_fits(const tilesat_map *m,
                                           const tilesat_pictures *pics,
                                           const tilesat_draw *how);
TILESAT_API size_t tilesat_render_sheet_drawn_fits(const tilesat_map *m,
                                                   const tilesat_pictures *pics,
                                                   size_t nmaps,
                                                   const tilesat_draw *how);
/* What such a picture shows, as a PNG note, into note. */
TILESAT_API void tilesat_render_drawn_note(const tilesat_map *m,
                                           const tilesat_pictures *pics,
                                           const tilesat_draw *how,
                                           size_t nmaps, char *note,
                                           size_t len);

/* ---- pictures for designers: marked cells, heat maps */
typedef enum tilesat_mark {
  TILESAT_MARK_NONE,
  TILESAT_MARK_CLASH,  /* explain */
  TILESAT_MARK_DOOMED, /* collapse */
  TILESAT_MARK_EMPTY,  /* trace */
  TILESAT_MARK_BROKEN, /* verify */
  TILESAT_NMARKS
} tilesat_mark;
#define TILESAT_MARK_PIXELS 16
TILESAT_API tilesat_image *
tilesat_render_marked(const tilesat_map *m, const tilesat_pictures *pics,
                      const int *tiles, const uint64_t *domains,
                      const uint8_t *marks, const int *pairs, size_t npairs);
TILESAT_API bool tilesat_render_marked_fits(const tilesat_map *m,
                                            const tilesat_pictures *pics);
TILESAT_API tilesat_image *
tilesat_render_marked_drawn(const tilesat_map *m, const tilesat_pictures *pics,
                            const int *tiles, const uint64_t *domains,
                            const uint8_t *marks, const int *pairs,
                            size_t npairs, const tilesat_draw *how);
TILESAT_API bool tilesat_render_marked_drawn_fits(const tilesat_map *m,
                                                  const tilesat_pictures *pics,
                                                  const tilesat_draw *how);
#define TILESAT_HEAT_CELL 16
TILESAT_API tilesat_image *tilesat_heat_map(int width, int height,
                                            const long *hits, long runs);
TILESAT_API bool tilesat_heat_map_fits(int width, int height, long runs);
TILESAT_API tilesat_image *tilesat_heat_map_scaled(int width, int height,
                                                   const long *hits, long runs,
                                                   int cell);
TILESAT_API bool tilesat_heat_map_scaled_fits(int width, int height, long runs,
                                              int cell);
TILESAT_API tilesat_image *tilesat_heat_map_drawn(const tilesat_map *m,
                                                  const tilesat_pictures *pics,
                                                  const long *hits, long runs,
                                                  int cell);
TILESAT_API bool tilesat_heat_map_drawn_fits(const tilesat_map *m, long runs,
                                             int cell);
/* Does a picture hide pins?  0: no; else the least scale that shows them
 * (-1: none). */
TILESAT_API int tilesat_render_pins_cut(const tilesat_map *m,
                                        const tilesat_pictures *pics,
                                        const tilesat_draw *how, bool marked);
TILESAT_API int tilesat_heat_map_pins_cut(const tilesat_map *m,
                                          const tilesat_pictures *pics,
                                          long runs, int cell);

#ifdef __cplusplus
}
#endif

#endif
