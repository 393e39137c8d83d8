/* cmd_export_tileset.c: tilesat export-tileset RULES -o X.tsx: the rules'
 * tiles as a Tiled tileset, drawn with their pictures, each tile named by
 * its "tilesat" property, so that a map painted with it in Tiled reads
 * back (--pins-from, verify, extract) by the rules' own names.  Its
 * picture, X.tsx.png, replaces only a picture tilesat wrote (files.c). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cmd_export_tileset(options *o) {
  if (o->args.n != 1) {
    fail("export-tileset takes one rules file (see 'tilesat export-tileset "
         "--help')");
    return EXIT_ERROR;
  }
  if (!o->output || !strcmp(o->output, "-")) {
    fail("export-tileset: missing -o X.tsx (the tileset and its picture "
         "X.tsx.png are files)");
    return EXIT_ERROR;
  }
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!r)
    return fail_err(&err);
  const tilesat_pictures *pics = NULL;
  int rc = load_pictures(o, &pics);
  if (!rc) {
    stop_hold(); /* no temporary file of the library's left behind */
    if (tilesat_tiled_write_tileset(r, pics, o->output, &err))
      rc = fail_err(&err);
    stop_release();
  }
  if (!rc) { /* the picture is put in place first (files.c says the same) */
    char *png = tilesat_tiled_picture_path(o->output);
    said_written(png);
    said_written(o->output);
    free(png);
  }
  tilesat_rules_free(r);
  return rc;
}
