/* cmd_world.c: tilesat world RULES --chunk N --at R,C [--span WxH]: chunks
 * of an endless map (tilesat_world_chunks), printed and drawn as collapse
 * prints and draws a map. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One 64-bit integer, the whole of [s, end). */
static bool parse_i64(const char *s, const char *end, int64_t *out) {
  if (s == end || end - s > 24)
    return false;
  char buf[32];
  memcpy(buf, s, (size_t)(end - s));
  buf[end - s] = '\0';
  if (!strchr("+-0123456789", buf[0]) ||
      strspn(buf + 1, "0123456789") != strlen(buf + 1) ||
      (buf[0] < '0' && !buf[1]))
    return false;
  errno = 0;
  char *stop;
  long long v = strtoll(buf, &stop, 10);
  if (errno || *stop)
    return false;
  *out = (int64_t)v;
  return true;
}

/* --at R,C; 0 or EXIT_ERROR (said). */
static int parse_at(const char *at, int64_t *row, int64_t *col) {
  const char *comma = at ? strchr(at, ',') : NULL;
  if (!at) {
    fail("world: missing --at R,C (the chunk's row and column)");
    return EXIT_ERROR;
  }
  if (!comma || !parse_i64(at, comma, row) ||
      !parse_i64(comma + 1, comma + strlen(comma), col)) {
    fail("--at: '%s' is not R,C (two integers of 64 bits)", at);
    return EXIT_ERROR;
  }
  return 0;
}

/* The options' sizes: 0 or EXIT_ERROR (said). */
static int world_sizes(options *o, tilesat_topology topo) {
  if (!GIVEN(o, chunk)) {
    fail("world: missing --chunk N (the side of a chunk, in cells)");
    return EXIT_ERROR;
  }
  if (!GIVEN(o, span))
    o->span = (map_size){1, 1};
  if ((int64_t)o->chunk * o->span.w > 8000 ||
      (int64_t)o->chunk * o->span.h > 8000) {
    fail("--span: at most 8000 cells a side at once (--chunk times --span), "
         "not %" PRId64 "x%" PRId64,
         (int64_t)o->chunk * o->span.w, (int64_t)o->chunk * o->span.h);
    return EXIT_ERROR;
  }
  if (topo == TILESAT_HEX && o->chunk % 2) {
    fail("--chunk: a hex world's chunks have an even side (odd rows are "
         "shifted), not %" PRIu64,
         o->chunk);
    return EXIT_ERROR;
  }
  o->size = (map_size){(int)o->chunk * o->span.w, (int)o->chunk * o->span.h};
  o->given[OPTION_size] = true;
  return 0;
}

/* The rules and the map the chunks fill: 0 or EXIT_ERROR (said). */
static int world_map(options *o, tilesat_rules **r, tilesat_map **m) {
  if (o->args.n != 1) {
    fail("world takes one rules file (see 'tilesat world --help')");
    return EXIT_ERROR;
  }
  tilesat_error err;
  *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!*r)
    return fail_err(&err);
  if (world_sizes(o, topology_of(o, tilesat_rules_topology(*r))))
    return EXIT_ERROR;
  tilesat_rules_free(*r);
  *r = NULL;
  return load_map(o, r, m);
}

static void say_world(const options *o, const tilesat_world *w, int64_t row,
                      int64_t col) {
  tilesat_modify_stats st;
  tilesat_world_stats(w, &st);
  fprintf(stderr,
          "tilesat: world: chunks %" PRId64 ",%" PRId64 " (%dx%d of %" PRIu64
          "x%" PRIu64 ") from a %dx%d periodic pattern, %ld blocks redone "
          "(%ld by WFC, %ld by SAT), %ld kept\n",
          row, col, o->span.w, o->span.h, o->chunk, o->chunk, st.pattern_cols,
          st.pattern_rows, st.wfc + st.sat, st.wfc, st.sat, st.kept);
}

/* Make, print and draw the chunks: 10, or EXIT_ERROR (said). */
static int world_run(options *o, const tilesat_rules *r, const tilesat_map *m,
                     int64_t row, int64_t col) {
  tilesat_solve_options so;
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  tilesat_error err;
  tilesat_world *w = tilesat_world_new(
      r, topology_of(o, tilesat_rules_topology(r)), o->seed, &so, &err);
  if (!w)
    return fail_err(&err);
  const tilesat_map_info mi = map_info(m);
  size_t n = (size_t)mi.width * (size_t)mi.height;
  int *tiles = malloc(n * sizeof *tiles);
  int rc = tiles ? 0 : EXIT_ERROR;
  if (!rc && tilesat_world_chunks(w, row, col, (int)o->chunk, o->span.w,
                                  o->span.h, tiles, &err))
    rc = fail_err(&err);
  char why[512];
  if (!rc && !tilesat_map_verify(m, tiles, why, sizeof why)) {
    fail("world: the chunks break the rules: %s", why);
    rc = EXIT_ERROR;
  }
  if (!rc) {
    say_world(o, w, row, col);
    stop_hold(); /* the map whole */
    printf("SAT\n");
    if (!o->quiet)
      tilesat_map_write(m, tiles, stdout);
    stop_release();
    rc = map_outputs(o, m, tiles) ? EXIT_ERROR : TILESAT_SAT;
  }
  free(tiles);
  tilesat_world_free(w);
  return rc;
}

int cmd_world(options *o) {
  int64_t row, col;
  if (parse_at(o->at, &row, &col))
    return EXIT_ERROR;
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  int rc = world_map(o, &r, &m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc)
    rc = world_run(o, r, m, row, col);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
