/* io/io.h: what the file formats and pictures of libtilesat-io share. */
#ifndef TILESAT_IO_INTERNAL_H
#define TILESAT_IO_INTERNAL_H

#include "core/core.h"
#include "tilesat_io.h"

/* A pictures file's `size W H`: each at most this (pictures.c); a tileset
 * whose tile images are larger is refused (tileset.c), as it could not
 * read back the pictures it would write. */
#define TS_MAX_PICTURE_SIDE 4096

/* "#rrggbb" / "#rrggbbaa" to RGBA; false if not a colour. */
bool ts_parse_colour(const char *s, uint8_t rgba[4]);
/* RGBA to "#rrggbb" (opaque) or "#rrggbbaa". */
void ts_colour_name(const uint8_t rgba[4], char out[10]);
/* Encode img as PNG into f (an output being written to `path`, named in
 * the error); 0 or -1. */
int ts_png_write_noted(const tilesat_image *img, FILE *f, const char *path,
                       const char *note, tilesat_error *err);
/* ts_png_write_noted to a file put in place whole (tilesat_output). */
int ts_png_write_file_noted(const tilesat_image *img, const char *path,
                            const char *note, tilesat_error *err);
int ts_png_write_stream(const tilesat_image *img, FILE *f, const char *path,
                        tilesat_error *err);
/* Parse an XML file with libxml2 (no network); NULL and "FILE:LINE: bad
 * XML: ..." on failure (ts_xml_read: first "FILE: a KIND, not a WANT: ..."
 * for a picture or one of tilesat's text files, ts_kind_check).  The caller
 * frees it with xmlFreeDoc. (struct _xmlDoc is libxml2's own name for xmlDoc,
 * reserved or not.) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
struct _xmlDoc *ts_xml_read(const char *path, ts_kind want, tilesat_error *err);
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
struct _xmlDoc *ts_xml_parse(const char *text, size_t len, const char *path,
                             tilesat_error *err);
/* A root element of another kind than `want` that tilesat knows (a WFC
 * tileset's <set>, a run list's <samples>, a Tiled <map> or <tileset>):
 * true with "FILE:LINE: a KIND, not a WANT: what to do" (ts_kind_refuse);
 * false for any other root, which the caller names. */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
struct _xmlNode;
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
bool ts_xml_known_root(const struct _xmlNode *root, const char *path,
                       ts_kind want, tilesat_error *err);

/* Drawing into an image (clipped to it), and text in the one tiny bitmap
 * font (legend.c): 3x5 glyphs drawn two pixels a dot. */
void ts_fill_rect(tilesat_image *img, int x, int y, int w, int h,
                  const uint8_t rgba[4]);
void ts_frame_rect(tilesat_image *img, int x, int y, int w, int h, int b,
                   const uint8_t rgba[4]);
void ts_text_draw(tilesat_image *img, int x, int y, const char *s,
                  const uint8_t rgba[4]);
int ts_text_width(const char *s);
int ts_text_height(void);
/* A row of a legend: a sample cell (fill, a frame, a dot and a frame
 * inside the frame if not NULL) and its text. */
typedef struct ts_legend_row {
  const uint8_t *fill, *frame, *dot;
  const char *text;
  const uint8_t *inner;
} ts_legend_row;
/* The size of an image w x h with these rows of legend below it. */
void ts_legend_size(const ts_legend_row *rows, size_t n, size_t *w, size_t *h);
/* img with the legend below it (white around); NULL when larger than
 * 32768 pixels a side or 2^26 pixels. */
tilesat_image *ts_legend_add(const tilesat_image *img,
                             const ts_legend_row *rows, size_t n);
/* tilesat_heat_map_scaled with a line of text below its scale (NULL:
 * none), and whether it fits. */
tilesat_image *ts_heat_map(int width, int height, const long *hits, long runs,
                           int cell, const char *note);
bool ts_heat_map_fits(int width, int height, long runs, int cell,
                      const char *note);

#endif
