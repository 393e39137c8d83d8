/* cmd_extract.c: tilesat extract SAMPLE...: ESTM rules from sample maps,
 * or with --pattern N the rules of WFC's overlapping model. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* --pattern N: NxN windows of PNG images, pixel by pixel. */
static int extract_patterns(options *o) {
  tilesat_error err;
  if (o->args.n < 1) {
    fail("extract: no sample (see 'tilesat extract --help')");
    return EXIT_ERROR;
  }
  if (GIVEN(o, tile_size) || o->palette ||
      (o->topology && strcmp(o->topology, "square"))) {
    fail("--pattern: patterns are read pixel by pixel on a square grid "
         "(no --tile-size, --palette or hex topology)");
    return EXIT_ERROR;
  }
  size_t n = (size_t)o->args.n;
  tilesat_image **img = calloc(n, sizeof(tilesat_image *));
  tilesat_rules *r = NULL;
  tilesat_pictures *pics = NULL;
  int rc = EXIT_ERROR;
  if (!img) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (size_t i = 0; i < n; i++)
    if (!(img[i] = tilesat_image_read_png(o->args.v[i], &err))) {
      fail_err(&err);
      goto done;
    }
  r = tilesat_extract_patterns((const tilesat_image *const *)img, n,
                               (int)o->pattern, o->periodic_input,
                               (int)o->symmetry, &pics, &err);
  if (!r) {
    fail_err(&err);
    goto done;
  }
  rc = write_rules(o, r);
  if (!rc)
    rc = write_pictures(o, pics);
done:
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
  for (size_t i = 0; i < n; i++)
    tilesat_image_free(img[i]);
  free(img);
  return rc;
}

int cmd_extract(options *o) {
  tilesat_error err;
  if (GIVEN(o, pattern))
    return extract_patterns(o);
  if (o->args.n < 1) {
    fail("extract: no sample (see 'tilesat extract --help')");
    return EXIT_ERROR;
  }
  size_t n = (size_t)o->args.n;
  tilesat_grid **g = calloc(n, sizeof(tilesat_grid *));
  int rc = EXIT_ERROR;
  tilesat_rules *r = NULL;
  if (!g) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (size_t i = 0; i < n; i++)
    if (!(g[i] = load_sample(o, o->args.v[i], &err))) {
      fail_err(&err);
      goto done;
    }
  r = tilesat_extract((const tilesat_grid *const *)g, n,
                      topology_of(o, TILESAT_SQUARE), o->periodic_input, &err);
  if (!r) {
    fail_err(&err);
    goto done;
  }
  rc = write_rules(o, r);
done:
  rc = end_samples(o, rc);
  tilesat_rules_free(r);
  for (size_t i = 0; i < n; i++)
    tilesat_grid_free(g[i]);
  free(g);
  return rc;
}
