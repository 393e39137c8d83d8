/* example.c: libtilesat used from outside, as an installed library.  Is
 * there a WxH map that obeys RULES?  Prints the library's version, then SAT
 * and a witness map, or UNSAT.  Build it with
 *   cc example.c $(pkg-config --cflags --libs tilesat)
 * or, to draw the witness into PNG with libtilesat-io as well,
 *   cc -DWITH_PNG example.c $(pkg-config --cflags --libs tilesat-io) */
#include <stdio.h>
#include <stdlib.h>
#ifdef WITH_PNG
#include <tilesat_io.h>
#define USAGE "usage: example RULES WxH PNG\n"
#define NARGS 4
#else
#include <tilesat.h>
#define USAGE "usage: example RULES WxH\n"
#define NARGS 3
#endif

int main(int argc, char **argv) {
  tilesat_error err;
  int w, h, res = -1, *tiles = NULL;
  if (argc != NARGS) {
    fprintf(stderr, USAGE);
    return 1;
  }
  printf("libtilesat %s\n", tilesat_version());
  tilesat_rules *r = tilesat_rules_read_file(argv[1], &err);
  tilesat_map *m = NULL;
  if (r && !tilesat_parse_size(argv[2], &w, &h, &err))
    m = tilesat_map_new(r, w, h, tilesat_rules_topology(r), false, &err);
  if (m && (tiles = calloc((size_t)w * (size_t)h, sizeof *tiles)))
    res = tilesat_check(m, TILESAT_PICOSAT, tiles, &err);
  if (res == TILESAT_SAT) {
    printf("SAT\n");
    tilesat_map_write(m, tiles, stdout);
#ifdef WITH_PNG
    if (tilesat_render_png(m, NULL, tiles, NULL, NULL, argv[3], &err))
      res = -1;
#endif
  } else if (res == TILESAT_UNSAT) {
    printf("UNSAT\n");
  }
  if (res < 0)
    fprintf(stderr, "example: %s\n", m && !tiles ? "out of memory" : err.msg);
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return res < 0;
}
