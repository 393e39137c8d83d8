#include "internal.h"
tilesat_grid *tilesat_tiled_read(const char *path, const char *layer,
                                 tilesat_empty empty, tilesat_error *err) {
  (void)layer; (void)empty;
  ts_error(err, path, 0, "todo");
  return NULL;
}
int tilesat_tiled_write(const tilesat_map *m, const int *tiles,
                        const tilesat_pictures *pics, const char *path,
                        tilesat_error *err) {
  (void)m; (void)tiles; (void)pics;
  ts_error(err, path, 0, "todo");
  return -1;
}
