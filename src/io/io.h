/* io/io.h: what the file formats and pictures of libtilesat-io share. */
#ifndef TILESAT_IO_INTERNAL_H
#define TILESAT_IO_INTERNAL_H

#include "core/core.h"
#include "tilesat_io.h"

/* "#rrggbb" / "#rrggbbaa" to RGBA; false if not a colour. */
bool ts_parse_colour(const char *s, uint8_t rgba[4]);
/* RGBA to "#rrggbb" (opaque) or "#rrggbbaa". */
void ts_colour_name(const uint8_t rgba[4], char out[10]);
/* Encode img as PNG into f (an output being written to `path`, named in
 * the error); 0 or -1. */
int ts_png_write_stream(const tilesat_image *img, FILE *f, const char *path,
                        tilesat_error *err);
/* Parse an XML file with libxml2 (no network); NULL and "FILE:LINE: bad
 * XML: ..." on failure.  The caller frees it with xmlFreeDoc.
 * (struct _xmlDoc is libxml2's own name for xmlDoc, reserved or not.) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
struct _xmlDoc *ts_xml_read(const char *path, tilesat_error *err);
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
struct _xmlDoc *ts_xml_parse(const char *text, size_t len, const char *path,
                             tilesat_error *err);

#endif
