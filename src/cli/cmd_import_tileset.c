/* cmd_import_tileset.c: tilesat import-tileset TILESET.xml: rules from a
 * WFC simple-tiled tileset, and the tiles' pictures. */
#include "cli.h"

#include <stdlib.h>

int cmd_import_tileset(options *o) {
  tilesat_error err;
  if (o->args.n != 1) {
    fail("import-tileset takes one tileset file (see 'tilesat "
         "import-tileset --help')");
    return EXIT_ERROR;
  }
  const char *path = o->args.v[0];
  char *side = o->pictures ? NULL : sidecar(o->output);
  bool want_pics = o->pictures || side;
  free(side);
  tilesat_pictures *pics = NULL;
  tilesat_rules *r =
      tilesat_import_tileset(path, o->subset, want_pics ? &pics : NULL, &err);
  if (!r && want_pics && !o->pictures) {
    /* pictures were only implied by -o X.rules: rules without them are
     * still worth having (the images may simply not be there) */
    tilesat_error err2;
    r = tilesat_import_tileset(path, o->subset, NULL, &err2);
    if (r)
      fprintf(stderr, "tilesat: warning: no pictures written: %s\n",
              err_said(&err));
  }
  if (!r)
    return fail_err(&err);
  int rc = write_rules(o, r);
  if (!rc && pics)
    rc = write_pictures(o, pics);
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
  return rc;
}
