/*
 * tilesat_io.h: the public header of libtilesat-io: PNG images, image
 * samples, WFC's overlapping model and simple-tiled tilesets, Tiled maps,
 * tile pictures and rendering.  It links libpng, libxml2, zlib and cJSON;
 * libtilesat (tilesat.h) needs none of them.  The conventions of tilesat.h
 * hold here too.
 */
#ifndef TILESAT_IO_H
#define TILESAT_IO_H

#include "tilesat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------- images and tile pictures */

/* An RGBA picture, 8 bits per channel, rows top to bottom, 4 bytes a pixel. */
typedef struct tilesat_image {
  int width, height;
  uint8_t *rgba; /* width * height * 4 bytes */
} tilesat_image;

/* A transparent black width x height image (both positive). */
TILESAT_API tilesat_image *tilesat_image_new(int width, int height);
TILESAT_API void tilesat_image_free(tilesat_image *img);
/* Do these bytes start with the PNG signature?  Inputs are recognised by
 * their content, not their file name. */
TILESAT_API bool tilesat_is_png(const void *data, size_t len);
/* Decode a PNG (any colour type and depth, through libpng) to RGBA.  A
 * truncated or corrupt file is an error naming it. */
TILESAT_API tilesat_image *tilesat_image_read_png(const char *path,
                                                  tilesat_error *err);
TILESAT_API tilesat_image *tilesat_image_parse_png(const void *data, size_t len,
                                                   const char *filename,
                                                   tilesat_error *err);
/* Write a PNG file whole or not at all (see tilesat_output): on failure the
 * file that was there is untouched.  0, or -1 with err. */
TILESAT_API int tilesat_image_write_png(const tilesat_image *img,
                                        const char *path, tilesat_error *err);
/* Encode img as PNG into a stream the caller puts in place (a
 * tilesat_output's), `name` naming it in errors.  0, or -1 with err. */
TILESAT_API int tilesat_image_write_png_stream(const tilesat_image *img,
                                               FILE *f, const char *name,
                                               tilesat_error *err);
/* Was the PNG file at path written by tilesat?  Every PNG tilesat writes
 * carries a text chunk "Software" = "tilesat" (before its image data); a
 * file without it (or not a PNG, or unreadable) was not: false. */
TILESAT_API bool tilesat_png_by_tilesat(const char *path);
/* A PNG's note of what it shows: tilesat_image_write_png_noted writes it
 * as a second text chunk, TILESAT_PNG_NOTE = note (at most 79 bytes), and
 * tilesat_png_note reads it back into note (len bytes with its NUL); false
 * when the file has none. */
#define TILESAT_PNG_NOTE "tilesat-picture"
TILESAT_API int tilesat_image_write_png_noted(const tilesat_image *img, FILE *f,
                                              const char *name,
                                              const char *note,
                                              tilesat_error *err);
TILESAT_API bool tilesat_png_note(const char *path, char *note, size_t len);
/* The picture img was drawn from, when img is it scaled by nearest
 * neighbour xn/xd across and yn/yd down (tilesat_render_drawn's scaling,
 * not smaller): every pixel of img its source's; NULL when it is not. */
TILESAT_API tilesat_image *tilesat_image_unscale(const tilesat_image *img,
                                                 long long xn, long long xd,
                                                 long long yn, long long yd);

/* Tile pictures: for each tile name a width x height RGBA picture, all of
 * one size.  With `overlap` N > 0 the tiles are N x N patterns of the
 * overlapping model: neighbouring cells share pixels, so a map of patterns is
 * drawn one pixel per cell (see tilesat_render).  A pictures file, written
 * and read by the functions below, is text (format in README.md): "size W
 * H" of every picture, "overlap N" (the pattern size, or 0), then a
 * "picture NAME COLOUR..." line per tile, W*H colours row by row:
 *
 *   tilesat-pictures 1
 *   size 2 2
 *   overlap 0
 *   picture "corner 0" #ff0000 #00ff00 #0000ff #000000
 *
 * A palette is a pictures file of size 1 1: it names colours. */
typedef struct tilesat_pictures tilesat_pictures;

TILESAT_API tilesat_pictures *tilesat_pictures_new(int width, int height,
                                                   int overlap);
TILESAT_API void tilesat_pictures_free(tilesat_pictures *p);
TILESAT_API int tilesat_pictures_width(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_height(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_overlap(const tilesat_pictures *p);
TILESAT_API int tilesat_pictures_count(const tilesat_pictures *p);
TILESAT_API const char *tilesat_pictures_name(const tilesat_pictures *p, int i);
/* Add (or replace) the picture of `name`: width*height*4 RGBA bytes, copied.
 * Returns its index. */
TILESAT_API int tilesat_pictures_set(tilesat_pictures *p, const char *name,
                                     const uint8_t *rgba);
/* The picture of a tile name (width*height*4 bytes), or NULL. */
TILESAT_API const uint8_t *tilesat_pictures_get(const tilesat_pictures *p,
                                                const char *name);
/* The name of the first picture with exactly these pixels, or NULL. */
TILESAT_API const char *tilesat_pictures_find_pixels(const tilesat_pictures *p,
                                                     const uint8_t *rgba);
TILESAT_API tilesat_pictures *tilesat_pictures_parse(const char *text,
                                                     size_t len,
                                                     const char *filename,
                                                     tilesat_error *err);
TILESAT_API tilesat_pictures *tilesat_pictures_read_file(const char *path,
                                                         tilesat_error *err);
TILESAT_API int tilesat_pictures_write(const tilesat_pictures *p, FILE *out);

/* The colour tile `tile` of r is drawn in when it has no picture: a name
 * "#rrggbb" (or "#rrggbbaa") is that colour; any other tile gets the colour
 * of its index from a fixed palette of well-separated colours (Kelly's 22,
 * then hues a golden angle apart), so that neighbouring tiles of a small
 * set never look alike.  rgba: 4 bytes. */
TILESAT_API void tilesat_tile_colour(const tilesat_rules *r, int tile,
                                     uint8_t rgba[4]);
/* The pictures maps of r are drawn with when they have none (tilesat_render
 * with pics NULL): each tile a solid square of its tilesat_tile_colour, a
 * pixel when every tile is named by a colour on a square map, else 8x8.
 * Cutting a map's picture by them reads the map back (a hex map's picture
 * shifts its odd rows: not so). */
TILESAT_API tilesat_pictures *tilesat_pictures_drawn(const tilesat_rules *r,
                                                     tilesat_topology topo);

/* ------------------------------------------------------- samples as images */

/* A sample grid from an image.  With tile_size 1 every pixel is a cell; with
 * tile_size N the image (whose sides must be multiples of N) is cut into
 * N x N tiles, identical tile images being one tile.  A tile is named by
 * `known` when one of its pictures has exactly its pixels (a palette, or the
 * pictures of an earlier sample), else "#rrggbb" when it is one colour
 * ("#rrggbbaa" when not opaque), else "tK" (K counting the new tiles of
 * `pics`).  When `pics` is not NULL each new tile's picture is added to it,
 * so several samples share names; its size must be tile_size. */
TILESAT_API tilesat_grid *
tilesat_grid_from_image(const tilesat_image *img, const char *filename,
                        int tile_size, const tilesat_pictures *known,
                        tilesat_pictures *pics, tilesat_error *err);

/* WFC's overlapping model: every N x N window of each image (wrapping with
 * `periodic_input`, else only windows inside the image) is a tile, named
 * "pK" in order of first appearance and weighted by its count; with
 * `symmetry` S in 1..8 the first S of the window's 8 rotations/reflections
 * (WFC's order: p, reflect p, rotate p, ...) count too.  Pattern b may stand
 * in direction d of a iff they agree where they overlap when b is shifted one
 * pixel in direction d.  Square topology.  *pics (if not NULL) receives the
 * patterns' pictures, with overlap N. */
TILESAT_API tilesat_rules *
tilesat_extract_patterns(const tilesat_image *const *images, size_t nimages,
                         int n, bool periodic_input, int symmetry,
                         tilesat_pictures **pics, tilesat_error *err);

/* --------------------------------------------------------- WFC tilesets */

/* Import one of mxgmn's simple-tiled-model tilesets (XML: <set> with
 * <tiles>, <neighbors>, <subsets>).  Each tile is expanded into its oriented
 * variants by its symmetry class (X: 1, I and \: 2, T and L: 4, F: 8), named
 * "NAME K"; every <neighbor left= right=> is expanded into its rotated and
 * reflected pairs in all four directions exactly as the reference
 * SimpleTiledModel does.  `subset` (or NULL) keeps only that subset's tiles.
 * Weights (decimal numbers) are scaled to whole numbers by one common power
 * of ten.  When `pics` is not NULL the tile images (NAME.png beside the XML in
 * a folder named after it, or "NAME K.png" for unique="True" sets) are loaded,
 * rotated and reflected into *pics. */
TILESAT_API tilesat_rules *tilesat_import_tileset(const char *path,
                                                  const char *subset,
                                                  tilesat_pictures **pics,
                                                  tilesat_error *err);

/* ------------------------------------------------------- WFC run lists */

/* One entry of mxgmn's samples.xml, the reference program's run list: an
 * <overlapping> (an image samples/NAME.png) or <simpletiled> (a tileset
 * tilesets/NAME.xml) element, with its attributes and the defaults of the
 * reference's Program.cs for those it lacks. */
typedef struct tilesat_wfc_entry {
  bool overlapping;            /* <overlapping>, else <simpletiled> */
  long line;                   /* the element's line in the file */
  char *name;                  /* name= ("" if missing: then error is set) */
  char *subset;                /* simpletiled: subset=, or NULL */
  int n;                       /* overlapping: N= (default 3) */
  int width, height;           /* width=, height=, else size= (default 48
                                  overlapping, 24 simpletiled) */
  bool periodic_input;         /* overlapping: periodicInput= (default True) */
  bool periodic;               /* periodic= (default False) */
  int symmetry;                /* overlapping: symmetry= (default 8) */
  bool ground;                 /* overlapping: ground= (default False) */
  tilesat_heuristic heuristic; /* heuristic= Entropy (default), MRV,
                                  Scanline */
  int screenshots;             /* screenshots=: maps to save (default 2) */
  long limit;                  /* limit=: at most so many choices, or -1 */
  long seed;                   /* seed=: the first seed, or -1 (none) */
  bool text_output;            /* simpletiled: textOutput= (default False) */
  bool black_background; /* simpletiled: blackBackground= (default False) */
  /* Why the entry cannot run as written ("FILE:LINE: symmetry '9' is not
   * a whole number from 1 to 8", an attribute the reference does not read
   * for this element, a heuristic it does not know), or NULL. */
  char *error;
} tilesat_wfc_entry;

/* Read a samples.xml: its entries in order (other elements are skipped, as
 * the reference skips them), *n of them; an entry's own problems are in
 * its `error`, so one bad entry does not hide the others.  NULL with err
 * when the file cannot be read, is not XML or its root is not <samples>. */
TILESAT_API tilesat_wfc_entry *
tilesat_wfc_samples_read(const char *path, size_t *n, tilesat_error *err);
TILESAT_API void tilesat_wfc_samples_free(tilesat_wfc_entry *entries, size_t n);

/* ----------------------------------------------------------- Tiled maps */

/* How a Tiled map's empty cells (global id 0) are read. */
typedef enum tilesat_empty {
  TILESAT_EMPTY_TILE = 0,    /* a tile of its own, named "0" */
  TILESAT_EMPTY_EXCLUDE = 1, /* not part of the sample: no tile, no pairs */
  TILESAT_EMPTY_FREE = 2,    /* as EXCLUDE, and a layer with no tile at all
                                is a map with nothing painted (the pins of
                                --pins-from), not an error */
} tilesat_empty;

/* Read the first tile layer (or the one named `layer`) of a Tiled map,
 * .tmx (XML: csv, base64, base64+zlib/gzip data, or <tile> elements) or
 * .tmj (JSON), recognised by content, as a sample grid.  A cell's tile is
 * named by its tileset tile's "tilesat" property when it has one (maps
 * written by tilesat do), else by its global id in decimal; flip bits add a
 * suffix ":" + letters of h (horizontal), v (vertical), d (diagonal), x (hex
 * 120 degrees), e.g. "12:hd".  Excluded cells read as NULL names from
 * tilesat_grid_at. */
TILESAT_API tilesat_grid *tilesat_tiled_read(const char *path,
                                             const char *layer,
                                             tilesat_empty empty,
                                             tilesat_error *err);
/* Write a filled map as a Tiled map, .tmj (JSON) when `path` ends in
 * ".tmj" or ".json", else .tmx (XML, CSV data).  Tile k is global id k+1 of
 * one tileset whose image, PATH + ".png" (tilesat_tiled_picture_path), is
 * written too (the pictures, or tilesat_tile_colour squares), and whose tiles
 * carry their names as the "tilesat" property, so tilesat_tiled_read gives back
 * the same grid.  Hex maps are written as staggered, odd-r, pointy-top. */
TILESAT_API int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                                    const tilesat_pictures *pics,
                                    const char *path, tilesat_error *err);
/* The picture of tiles tilesat writes beside a Tiled map or tileset it
 * writes to `path`: path + ".png" ("level.tmx" -> "level.tmx.png",
 * "village.tsx" -> "village.tsx.png"), a name no sample has by accident,
 * one per file (malloc'd). */
TILESAT_API char *tilesat_tiled_picture_path(const char *path);
/* Write the rules' tiles as a Tiled tileset to paint maps with: .tsx (XML),
 * or .tsj (JSON) when `path` ends in ".tsj" or ".json", and its image PATH
 * + ".png" (tilesat_tiled_picture_path), the tiles drawn as tilesat_tiled_write
 * draws them (pictures, or tilesat_tile_colour squares, at least 8 pixels a
 * side), tile k of the rules tile id k, each carrying its name as its
 * "tilesat" property: a map painted with it reads back by those names. */
TILESAT_API int tilesat_tiled_write_tileset(const tilesat_rules *r,
                                            const tilesat_pictures *pics,
                                            const char *path,
                                            tilesat_error *err);
/* Write a filled map as a Tiled map using the tilesets of the Tiled map
 * `like` (typically the sample the rules came from), so it shows the same
 * tile images: each tile must be named by a global id with optional flip
 * suffix ("12", "12:hd", "0" for empty) or by a "tilesat" property of one
 * of like's tiles.  The map takes like's tile size and orientation; its
 * tilesets are copied (external sources re-pointed from the new file's
 * folder; embedded ones only between files of one format).  No image is
 * written. */
TILESAT_API int tilesat_tiled_write_like(const tilesat_map *m, const int *tiles,
                                         const char *like, const char *path,
                                         tilesat_error *err);
/* Write a filled map into a copy of the Tiled map `base` (the painted map
 * its pins came from): the tile layer `layer` (NULL: the first, depth first
 * through group layers) gets the map's tiles, in the encoding it had (CSV,
 * base64, zlib, gzip, <tile> elements; a JSON array or base64); every other
 * layer, object, property, tileset (an external one stays external) and
 * attribute is kept as it was.  A .tmx (XML) is copied through libxml2,
 * byte for byte but the layer's data when written to base's folder; a
 * .tmj (JSON, when `path` ends in ".tmj" or ".json") through cJSON.  The
 * paths the map holds (tileset sources, images, templates, file
 * properties) are re-pointed from path's folder.  Tiles are named as by
 * tilesat_tiled_write_like: a gid ("12", "12:h") or a "tilesat" property
 * of one of base's tilesets ("corner", "corner:h"). */
TILESAT_API int tilesat_tiled_write_into(const tilesat_map *m, const int *tiles,
                                         const char *base, const char *layer,
                                         const char *path, tilesat_error *err);
/* Several filled maps (nmaps > 0) as the layers of one Tiled map, "map 1"
 * to "map N" (only the first visible), with our own tileset (like NULL) or
 * like's, as above.  One map is the same as the functions above. */
TILESAT_API int tilesat_tiled_write_maps(const tilesat_map *m,
                                         const int *const *maps, size_t nmaps,
                                         const tilesat_pictures *pics,
                                         const char *like, const char *path,
                                         tilesat_error *err);
/* The same into streams the caller opened and puts in place (whole or not
 * at all, as a tilesat_output does): the map into `map`, and with our own
 * tileset (like NULL) its image into `image`, the picture the map names
 * (tilesat_tiled_picture_path; NULL with like).  `path` is where
 * the map will be: its references are made from there.  0, or -1 with err
 * (the streams then hold nothing to keep). */
TILESAT_API int
tilesat_tiled_write_maps_to(const tilesat_map *m, const int *const *maps,
                            size_t nmaps, const tilesat_pictures *pics,
                            const char *like, const char *path, FILE *map,
                            FILE *image, tilesat_error *err);

/* The map property "tilesat-rules" that names the rules file `rules` in a
 * Tiled map written to `path`, as Tiled's extension (tools/tiled/tilesat.js)
 * reads it: the file's path relative to path's folder (malloc'd); NULL
 * when rules is not a regular file (standard input, a pipe) or that path
 * is not plain UTF-8 (tilesat_name_encode would change it: a Tiled file
 * cannot hold its control bytes). */
TILESAT_API char *tilesat_tiled_rules_property(const char *rules,
                                               const char *path);
/* tilesat_tiled_write_maps_to and tilesat_tiled_write_into, the map given
 * the property "tilesat-rules" with the value `rules` (NULL: none; see
 * tilesat_tiled_rules_property), unless base already has it with a value,
 * which is kept.  A new <properties> is the map's first child. */
TILESAT_API int tilesat_tiled_write_maps_rules_to(
    const tilesat_map *m, const int *const *maps, size_t nmaps,
    const tilesat_pictures *pics, const char *like, const char *rules,
    const char *path, FILE *map, FILE *image, tilesat_error *err);
TILESAT_API int tilesat_tiled_write_into_rules(
    const tilesat_map *m, const int *tiles, const char *base, const char *layer,
    const char *rules, const char *path, tilesat_error *err);

/* A Tiled map read once (.tmx or .tmj, by content), to read layers from
 * and write answers with, as often as needed: its tilesets (external ones
 * read beside it) and the names of their tiles with it.  The functions
 * above taking a path read one of these each call. */
typedef struct tilesat_tiled_doc tilesat_tiled_doc;
/* NULL and *err when path is not a Tiled map (or cannot be read). */
TILESAT_API tilesat_tiled_doc *tilesat_tiled_doc_read(const char *path,
                                                      tilesat_error *err);
TILESAT_API void tilesat_tiled_doc_free(tilesat_tiled_doc *doc);
/* tilesat_tiled_read of the document. */
TILESAT_API tilesat_grid *tilesat_tiled_doc_grid(const tilesat_tiled_doc *doc,
                                                 const char *layer,
                                                 tilesat_empty empty,
                                                 tilesat_error *err);
/* tilesat_tiled_write_maps_rules_to with like's tilesets (like NULL: our
 * own) and tilesat_tiled_write_into_rules into a copy of base: the
 * documents are not changed. */
TILESAT_API int
tilesat_tiled_doc_write_maps_to(const tilesat_map *m, const int *const *maps,
                                size_t nmaps, const tilesat_pictures *pics,
                                const tilesat_tiled_doc *like,
                                const char *rules, const char *path, FILE *map,
                                FILE *image, tilesat_error *err);
TILESAT_API int tilesat_tiled_doc_write_into(
    const tilesat_map *m, const int *tiles, const tilesat_tiled_doc *base,
    const char *layer, const char *rules, const char *path, tilesat_error *err);

/* -------------------------------------------------------------- rendering */

/* Draw a map.  Each cell shows, in this order of preference:
 *  - `tiles` (width*height indices, or NULL): that tile;
 *  - else `domains` (per cell, (ntiles+63)/64 words of a tile bitset, cell
 *    after cell): the average of its tiles' pictures weighted by the tiles'
 *    weights, as WFC draws its wave (a blend; an empty domain is black);
 * with `highlight` (per cell, or NULL) drawing a red frame inside marked
 * cells (two pixels wide on pictures of 8 or more, one below; pictures
 * under 3 pixels are tinted red instead) and washing every other cell out
 * two thirds of the way to white, so the marked ones stand out.
 * Pictures come from `pics` (may be NULL) by tile name, else
 * tilesat_tile_colour: one pixel per cell when every tile name is a colour
 * and the map is square, 8 x 8 squares otherwise.  A square map is W*tw x H*th
 * pixels; a hex map is tw/2 wider, odd rows shifted right by tw/2.  Overlapping
 * patterns (overlap N) draw cell (r, c)'s top-left pixel at (r, c); a map that
 * does not wrap is N-1 pixels larger, its last row and column of cells drawing
 * their whole pattern, as WFC does.  Returns NULL when the image would be
 * larger than 2^26 pixels, as large as tilesat reads a PNG
 * (tilesat_render_png then reports an error). */
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
/* A contact sheet of nmaps filled maps: ceil(sqrt(nmaps)) maps a row, map k
 * at column k % cols and row k / cols, each rendered as above, separated by
 * TILESAT_SHEET_GAP pixels of grey (#808080).  NULL when the sheet would
 * be larger than 32768 pixels a side or 2^26 pixels in all. */
#define TILESAT_SHEET_GAP 2
TILESAT_API tilesat_image *tilesat_render_sheet(const tilesat_map *m,
                                                const tilesat_pictures *pics,
                                                const int *const *maps,
                                                size_t nmaps);
/* Before any work: does tilesat_render draw m with these pictures, or is
 * its picture too large?  And the most maps, up to nmaps, whose contact
 * sheet tilesat_render_sheet draws (0: not even one). */
TILESAT_API bool tilesat_render_fits(const tilesat_map *m,
                                     const tilesat_pictures *pics);
TILESAT_API size_t tilesat_render_sheet_fits(const tilesat_map *m,
                                             const tilesat_pictures *pics,
                                             size_t nmaps);

/* How the command line draws a map, beyond tilesat_render's defaults (a
 * NULL tilesat_draw is tilesat_render's picture):
 * - scale: pixels a cell (its width; its height keeps the tile pictures'
 *   proportions), pictures resized by nearest neighbour; 0: as drawn today
 *   (tilesat_render's size; tilesat_render_marked's own scale);
 *   TILESAT_SCALE_READABLE: tiles of one pixel (plain colours named by
 *   their colour, as extract names them) drawn up to 8 pixels a cell, the
 *   picture (a sheet: all its maps) at most 1024 pixels a side, other
 *   tiles at their pictures' size (tilesat_render_marked: its own).
 * - pins: a pinned cell is drawn as its pinned tile (not the blend of its
 *   domain, while the domain holds that tile) and framed, black outside,
 *   white inside (cells of 4 or more pixels a side).
 * - legend: when every tile is drawn in one colour (no picture, or a
 *   picture of one colour) and a name is not its colour ("#rrggbb"), a
 *   legend below the map: each tile's colour and name (the tiles the map
 *   shows, at most TILESAT_LEGEND_TILES, then how many more), and the pin
 *   frame's when a pinned cell is framed.
 * - window: the part of the map drawn, {row, column, height, width}
 *   ({0,0,0,0}: all of it); a hex map's window starts on an even row. */
#define TILESAT_LEGEND_TILES 32
#define TILESAT_SCALE_READABLE (-1)
typedef struct tilesat_draw {
  int scale;
  bool pins;
  bool legend;
  int window[4];
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
/* What the picture of nmaps maps (0 or 1: tilesat_render_drawn's) drawn
 * as `how` says is, as a PNG's note (tilesat_image_write_png_noted):
 * "scaled XN/XD YN/YD" (the map alone, XN/XD output pixels a pixel of
 * its tile pictures across, YN/YD down: tilesat_image_unscale gives it
 * back), else "legend" (a legend or framed pins beside the map),
 * "sheet" (several maps) or "smaller" (drawn smaller than its pictures). */
TILESAT_API void tilesat_render_drawn_note(const tilesat_map *m,
                                           const tilesat_pictures *pics,
                                           const tilesat_draw *how,
                                           size_t nmaps, char *note,
                                           size_t len);

/* ------------------------------------------------- pictures for designers */

/* What a mark on a cell of tilesat_render_marked means; each is drawn its
 * own way and named in the picture's legend. */
typedef enum tilesat_mark {
  TILESAT_MARK_NONE,   /* not involved: washed out when any cell is marked */
  TILESAT_MARK_CLASH,  /* a cell a minimal clash names (explain): red frame */
  TILESAT_MARK_DOOMED, /* a choice of a doomed set (collapse): orange frame */
  TILESAT_MARK_EMPTY,  /* no tile left (trace, a contradiction): black,
                          magenta frame */
  TILESAT_MARK_BROKEN, /* a cell of a broken pair (verify): red frame, a red
                          dot on the edge between the two cells */
  TILESAT_NMARKS
} tilesat_mark;

/* At least this many pixels a side for a cell of a marked picture. */
#define TILESAT_MARK_PIXELS 16

/* A map drawn for a designer: as tilesat_render draws it (tiles, or
 * domains as blends), scaled up by the smallest whole factor that gives
 * each cell at least TILESAT_MARK_PIXELS pixels a side (an overlapping
 * map's one pixel a cell, too), or larger while the map stays at most 192
 * pixels wide and a cell at most 48 pixels (drawn as tilesat_draw says with
 * pins: larger, while the picture fits, until each pinned tile shows whole
 * inside its frames, tilesat_render_pins_cut), `marks` (per cell a
 * tilesat_mark, or NULL) drawn as frames 2 pixels wide (a cell of 32 or more:
 * 1/8 of its side), `pairs` (npairs pairs of cells, a broken pair each) as dots
 * on the edge between them (cells apart on the picture, wrapped: none), and
 * below the map a legend: a sample cell and its meaning for every kind of mark
 * used, the washed-out cells, the blends (when a cell may hold several tiles).
 * NULL when the picture would be larger than 32768 pixels a side or 2^26 pixels
 * in all. */
TILESAT_API tilesat_image *
tilesat_render_marked(const tilesat_map *m, const tilesat_pictures *pics,
                      const int *tiles, const uint64_t *domains,
                      const uint8_t *marks, const int *pairs, size_t npairs);
/* Before any work: does tilesat_render_marked draw m (with any marks)? */
TILESAT_API bool tilesat_render_marked_fits(const tilesat_map *m,
                                            const tilesat_pictures *pics);
/* The same drawn as `how` says (tilesat_draw; NULL: as above). */
TILESAT_API tilesat_image *
tilesat_render_marked_drawn(const tilesat_map *m, const tilesat_pictures *pics,
                            const int *tiles, const uint64_t *domains,
                            const uint8_t *marks, const int *pairs,
                            size_t npairs, const tilesat_draw *how);
TILESAT_API bool tilesat_render_marked_drawn_fits(const tilesat_map *m,
                                                  const tilesat_pictures *pics,
                                                  const tilesat_draw *how);
/* A heat map of how often something happened in each cell of a width x
 * height map, of `runs` runs: TILESAT_HEAT_CELL pixels a cell, white
 * (never) to red (the most hits), and below it its title ("contradictions
 * per cell (N runs)") and colour scale, numbered 0, half the most and the
 * most.  NULL when too large (tilesat_heat_map_fits). */
#define TILESAT_HEAT_CELL 16
TILESAT_API tilesat_image *tilesat_heat_map(int width, int height,
                                            const long *hits, long runs);
TILESAT_API bool tilesat_heat_map_fits(int width, int height, long runs);
/* The same at `cell` pixels a cell (0: TILESAT_HEAT_CELL). */
TILESAT_API tilesat_image *tilesat_heat_map_scaled(int width, int height,
                                                   const long *hits, long runs,
                                                   int cell);
TILESAT_API bool tilesat_heat_map_scaled_fits(int width, int height, long runs,
                                              int cell);
/* The heat map of the map m's cells (cell 0: TILESAT_HEAT_CELL, larger
 * while it fits until pinned tiles show whole), its edge drawn all round, with
 * m's pins drawn on it as their tiles (pics' pictures, or their colours), each
 * in a frame black then white (on cells of 6 or more pixels), and a line below
 * the scale saying what the frame means. */
TILESAT_API tilesat_image *tilesat_heat_map_drawn(const tilesat_map *m,
                                                  const tilesat_pictures *pics,
                                                  const long *hits, long runs,
                                                  int cell);
TILESAT_API bool tilesat_heat_map_drawn_fits(const tilesat_map *m, long runs,
                                             int cell);
/* Does a picture hide pins? 0 when each pinned tile it draws shows whole
 * (every pixel of its picture, inside the widest frames its cell can get),
 * else the least --scale (tilesat_draw's scale, the heat map's cell) from
 * which on up to 512 they all do (-1: none does).  Without a scale the
 * pictures that frame pins are drawn large enough for that (marked
 * pictures' own scale, the heat map's 16, grown), unless the picture would
 * then be too large: drawn as before, the pins smaller, and this says so.
 * marked: tilesat_render_marked_drawn's picture, else tilesat_render_drawn's
 * or a sheet's. */
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
