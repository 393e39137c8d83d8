/* cmd_core.c: the core commands: extract, encode, check, enum. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cmd_extract(options *o) {
  tilesat_error err;
  if (o->pattern)
    return cmd_extract_patterns(o);
  if (o->nargs < 1) {
    fail("extract: no sample (see 'tilesat extract --help')");
    return EXIT_ERROR;
  }
  tilesat_topology topo = TILESAT_SQUARE;
  if (o->topology && tilesat_topology_parse(o->topology, &topo)) {
    fail("--topology: '%s' is not square or hex", o->topology);
    return EXIT_ERROR;
  }
  tilesat_grid **g = calloc((size_t)o->nargs, sizeof *g);
  int rc = EXIT_ERROR;
  tilesat_rules *r = NULL;
  if (!g) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int i = 0; i < o->nargs; i++)
    if (!(g[i] = load_sample(o, o->args[i], &err))) {
      fail_err(&err);
      goto done;
    }
  r = tilesat_extract((const tilesat_grid *const *)g, (size_t)o->nargs, topo,
                      o->periodic_input, &err);
  if (!r) {
    fail_err(&err);
    goto done;
  }
  FILE *out = open_output(o);
  if (out) {
    tilesat_rules_write(r, out);
    rc = close_output(o, out);
  }
done:
  rc = end_samples(o, rc);
  tilesat_rules_free(r);
  for (int i = 0; i < o->nargs; i++)
    tilesat_grid_free(g[i]);
  free(g);
  return rc;
}

int cmd_encode(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc) {
    bool props = o->format && !strcmp(o->format, "props");
    if (o->format && !props && strcmp(o->format, "dimacs")) {
      fail("--format: '%s' is not dimacs or props", o->format);
      rc = EXIT_ERROR;
    } else {
      FILE *out = open_output(o);
      rc = EXIT_ERROR;
      if (out) {
        props ? tilesat_encode_props(m, out) : tilesat_encode_dimacs(m, out);
        rc = close_output(o, out);
      }
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

int cmd_check(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_backend b;
  int *tiles = NULL;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &b);
  if (!rc) {
    tilesat_error err;
    size_t n = (size_t)tilesat_map_width(m) * (size_t)tilesat_map_height(m);
    tiles = malloc(n * sizeof *tiles);
    rc = tiles ? tilesat_check(m, b, tiles, &err) : -1;
    if (rc == TILESAT_SAT) {
      printf("SAT\n");
      tilesat_map_write(m, tiles, stdout);
      if (map_outputs(o, m, tiles))
        rc = EXIT_ERROR;
    } else if (rc == TILESAT_UNSAT) {
      printf("UNSAT\n");
    } else {
      rc = tiles ? fail_err(&err) : EXIT_ERROR;
    }
  }
  free(tiles);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}

int map_sink_print(void *user, const int *tiles) {
  map_sink *ctx = user;
  tilesat_map_write(ctx->m, tiles, stdout);
  putchar('\n');
  sheet_add(ctx->sheet, tiles);
  return 0;
}

int cmd_enum(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_backend b;
  long long limit = 0;
  int rc = load_map(o, &r, &m);
  if (!rc)
    rc = parse_backend(o, &b);
  if (!rc && o->limit && !parse_whole(o->limit, 1, INT64_MAX, &limit)) {
    fail("--limit: '%s' is not a positive whole number", o->limit);
    rc = EXIT_ERROR;
  }
  if (!rc) {
    tilesat_error err;
    map_sink ctx = {m, sheet_new(o, m)};
    int64_t n = tilesat_enumerate(m, b, limit, map_sink_print, &ctx, &err);
    if (n < 0) {
      rc = fail_err(&err);
    } else {
      printf("maps: %lld\n", (long long)n);
      rc = n > 0 ? TILESAT_SAT : TILESAT_UNSAT;
    }
    if (sheet_end(ctx.sheet))
      rc = EXIT_ERROR;
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
