/* fuzz_pictures.c: pictures files; what parses is written and read back
 * the same (size, overlap, names in order, pixels). */
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilesat_error err;
  tilesat_pictures *p =
      tilesat_pictures_parse((const char *)data, size, "fuzz.pictures", &err);
  if (!p)
    return 0;
  char *text;
  size_t len;
  FILE *f = fuzz_memory(&text, &len);
  FUZZ_CHECK(tilesat_pictures_write(p, f) == 0, "tilesat_pictures_write");
  fclose(f);
  tilesat_pictures *back = tilesat_pictures_parse(text, len, "written", &err);
  FUZZ_CHECK(back != NULL, "written pictures do not read back: %s\n%s", err.msg,
             text);
  int w = tilesat_pictures_width(p), h = tilesat_pictures_height(p);
  FUZZ_CHECK(tilesat_pictures_width(back) == w &&
                 tilesat_pictures_height(back) == h &&
                 tilesat_pictures_overlap(back) == tilesat_pictures_overlap(p),
             "size or overlap changed");
  int n = tilesat_pictures_count(p);
  FUZZ_CHECK(tilesat_pictures_count(back) == n, "%d pictures read back as %d",
             n, tilesat_pictures_count(back));
  for (int i = 0; i < n; i++) {
    const char *name = tilesat_pictures_name(p, i);
    FUZZ_CHECK(!strcmp(name, tilesat_pictures_name(back, i)),
               "picture %d '%s' read back as '%s'", i, name,
               tilesat_pictures_name(back, i));
    const uint8_t *a = tilesat_pictures_get(p, name),
                  *b = tilesat_pictures_get(back, name);
    FUZZ_CHECK(a && b && !memcmp(a, b, (size_t)w * (size_t)h * 4),
               "the pixels of '%s' changed", name);
  }
  tilesat_pictures_free(back);
  tilesat_pictures_free(p);
  free(text);
  return 0;
}
