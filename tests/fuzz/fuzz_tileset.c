/* fuzz_tileset.c: WFC simple-tiled tilesets (XML), read from a file
 * set.xml beside a folder set/ of 3x3 pictures named after Knots.xml's
 * tiles: imported whole, by the first subset the input names, and with
 * pictures; every rule set is written and read back. */
#include "fuzz.h"

#include <string.h>
#include <sys/stat.h>

static const char *const names[] = {"corner", "cross", "empty", "line", "t"};

static void make_pictures(void) {
  FUZZ_CHECK(mkdir(fuzz_path("set"), 0700) == 0, "mkdir");
  tilesat_image *img = tilesat_image_new(3, 3);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char file[24];
    snprintf(file, sizeof file, "set/%s.png", names[i]);
    img->rgba[4 * i] = 255; /* each its own: one red pixel */
    img->rgba[4 * i + 3] = 255;
    tilesat_error err;
    FUZZ_CHECK(tilesat_image_write_png(img, fuzz_path(file), &err) == 0, "%s",
               err.msg);
  }
  tilesat_image_free(img);
}

/* The name of the input's first <subset name="...">, or NULL (malloc'd). */
static char *first_subset(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  FUZZ_CHECK(text != NULL, "out of memory");
  memcpy(text, data, size);
  text[size] = 0;
  const char *key = "<subset name=\"";
  char *p = strstr(text, key), *name = NULL;
  if (p) {
    p += strlen(key);
    size_t n = strcspn(p, "\"");
    name = malloc(n + 1);
    FUZZ_CHECK(name != NULL, "out of memory");
    memcpy(name, p, n);
    name[n] = 0;
  }
  free(text);
  return name;
}

static void import(const char *path, const char *subset, bool pictures) {
  tilesat_error err;
  tilesat_pictures *pics = NULL;
  tilesat_rules *r =
      tilesat_import_tileset(path, subset, pictures ? &pics : NULL, &err);
  if (r) {
    fuzz_rules_roundtrip(r);
    FUZZ_CHECK(!pictures ||
                   tilesat_pictures_count(pics) == tilesat_rules_ntiles(r),
               "%d tiles, %d pictures", tilesat_rules_ntiles(r),
               tilesat_pictures_count(pics));
  }
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_path("set.xml");
  static bool ready;
  if (!ready)
    make_pictures();
  ready = true;
  fuzz_write_file(path, data, size);
  import(path, NULL, false);
  import(path, NULL, true);
  char *subset = first_subset(data, size);
  if (subset)
    import(path, subset, false);
  free(subset);
  return 0;
}
