/* cmd_verify.c: tilesat verify RULES MAP: does a finished map (a text
 * grid, a Tiled map, or a PNG drawn with the rules' pictures) keep the
 * rules, and the global constraints given?  VALID (exit 10), or INVALID
 * and every pair of neighbouring cells that breaks them, or the first
 * global constraint it breaks (exit 20). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* What each cell may be: tile[start[c] .. start[c+1]), one tile for a
 * name, several for a PNG cell whose picture several tiles share. */
typedef struct cells {
  int *start, *tile;
  long shared; /* cells of several tiles */
  long empty;  /* cells of no tile (a Tiled map's unpainted cells) */
  int first_empty;
} cells;

static void cells_free(cells *cs) {
  free(cs->start);
  free(cs->tile);
}

/* The map's cells (an empty one holds no tile, and is counted); 0, or
 * EXIT_ERROR and a message for a cell that is not a tile of the rules. */
static int cells_of(const map_in *in, const tilesat_rules *r, int w, int h,
                    cells *cs) {
  int T = tilesat_rules_ntiles(r);
  cs->shared = cs->empty = 0;
  cs->first_empty = -1;
  cs->start = malloc(((size_t)w * (size_t)h + 1) * sizeof *cs->start);
  int *buf = malloc((size_t)T * sizeof *buf);
  size_t cap = (size_t)w * (size_t)h, n = 0;
  cs->tile = malloc(cap * sizeof *cs->tile);
  if (!cs->start || !buf || !cs->tile) {
    fail("out of memory");
    abort();
  }
  int rc = 0;
  for (int c = 0; c < w * h && !rc; c++) {
    cs->start[c] = (int)n;
    int k = map_in_tiles(in, c / w, c % w, buf);
    const char *name = tilesat_grid_at(in->grid, c / w, c % w);
    char hint[512] = "";
    if (!k && name)
      tilesat_rules_tile_hint(r, name, hint, sizeof hint);
    if (!k && !name && !cs->empty++)
      cs->first_empty = c;
    if (!k && name) {
      fail("%s: (%d,%d) holds \"%s\", a tile the rules do not have%s",
           tilesat_grid_filename(in->grid), c / w, c % w, name, hint);
      rc = EXIT_ERROR;
      break;
    }
    if (n + (size_t)k > cap) {
      cap = 2 * cap + (size_t)k;
      int *v = realloc(cs->tile, cap * sizeof *v);
      if (!v) {
        fail("out of memory");
        abort();
      }
      cs->tile = v;
    }
    memcpy(cs->tile + n, buf, (size_t)k * sizeof *buf);
    n += (size_t)k;
    cs->shared += k > 1;
  }
  cs->start[(size_t)w * (size_t)h] = (int)n;
  free(buf);
  return rc;
}

/* A cell in words: "tower 0", or one of "tower 0", "tower 1". */
static void print_cell(const tilesat_rules *r, const cells *cs, int c) {
  int a = cs->start[c], b = cs->start[c + 1];
  if (b - a > 1)
    fputs("one of ", stdout);
  for (int i = a; i < b; i++)
    printf("%s\"%s\"", i > a ? ", " : "",
           shown_text(tilesat_rules_tile_name(r, cs->tile[i])));
}

/* May cells c and n (its neighbour in direction d) hold an allowed pair? */
static bool some_pair(const tilesat_rules *r, const cells *cs, int c, int d,
                      int n) {
  for (int i = cs->start[c]; i < cs->start[c + 1]; i++)
    for (int j = cs->start[n]; j < cs->start[n + 1]; j++)
      if (tilesat_rules_allows(r, cs->tile[i], d, cs->tile[j]))
        return true;
  return false;
}

/* Every edge once: from each cell, the directions whose opposite comes
 * later in the topology's order.  An edge breaks the rules when no tiles
 * its cells may hold make an allowed pair; its two cells go to `pairs`
 * (when not NULL: room for two ints an edge). */
static long report(const tilesat_rules *r, tilesat_topology topo, bool per,
                   int w, int h, const cells *cs, bool print, int *pairs) {
  long bad = 0;
  for (int c = 0; c < w * h; c++)
    for (int d = 0; d < tilesat_topology_ndirs(topo); d++) {
      int nr, nc;
      if (tilesat_dir_opposite(topo, d) < d ||
          !tilesat_neighbor(topo, w, h, per, c / w, c % w, d, &nr, &nc))
        continue;
      int n = nr * w + nc;
      if (cs->start[c] == cs->start[c + 1] ||
          cs->start[n] == cs->start[n + 1] || some_pair(r, cs, c, d, n))
        continue; /* an empty cell breaks no pair: it is said apart */
      if (pairs) {
        pairs[2 * bad] = c;
        pairs[2 * bad + 1] = n;
      }
      bad++;
      if (!print)
        continue;
      printf("(%d,%d) ", c / w, c % w);
      print_cell(r, cs, c);
      printf(" and its %s neighbour (%d,%d) ", report_dir_words(topo, d), nr,
             nc);
      print_cell(r, cs, n);
      bool one = cs->start[c + 1] - cs->start[c] == 1 &&
                 cs->start[n + 1] - cs->start[n] == 1;
      printf(": %s\n", one ? "not an allowed pair" : "no allowed pair");
    }
  return bad;
}

/* The map with each cell held to its tiles: a pin, or bans of the tiles
 * it cannot be; with `globals`, the constraints too.  NULL (said) when the
 * constraints do not fit. */
static tilesat_map *held(const options *o, const tilesat_map *m,
                         const cells *cs, bool globals) {
  const tilesat_rules *r = tilesat_map_rules(m);
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  int T = tilesat_rules_ntiles(r);
  tilesat_error err;
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
  tilesat_map *p = tilesat_map_new(r, w, h, topo, o->periodic, &err);
  if (!p) {
    fail_err(&err);
    return NULL;
  }
  for (int c = 0; c < w * h; c++) {
    int a = cs->start[c], b = cs->start[c + 1];
    if (b - a == 1) {
      tilesat_map_pin(p, c / w, c % w, tilesat_rules_tile_name(r, cs->tile[a]),
                      &err);
      continue;
    }
    for (int t = 0, i = a; t < T; t++) {
      if (i < b && cs->tile[i] == t)
        i++; /* cs's tiles are in the rules' order */
      else
        tilesat_map_ban(p, c / w, c % w, t, &err);
    }
  }
  if (globals && load_constraints(o, p)) {
    tilesat_map_free(p);
    return NULL;
  }
  return p;
}

/* Is there a choice of tiles for the cells of several tiles that keeps
 * the rules and the constraints?  0 with why empty (yes) or saying what no
 * choice keeps; EXIT_ERROR (said). */
static int choose(options *o, const tilesat_map *m, const cells *cs, char *why,
                  size_t whylen) {
  tilesat_solve_options so;
  tilesat_error err;
  why[0] = 0;
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  bool globals = tilesat_map_nglobals(m) > 0, rules_kept = false;
  /* with the constraints, then (none kept) without: which one fails */
  for (int pass = 0; pass < 1 + globals; pass++) {
    tilesat_map *p = held(o, m, cs, globals && pass == 0);
    if (!p)
      return EXIT_ERROR;
    lazy_backend(o, p, &so);
    int res = tilesat_check(p, &so, NULL, &err);
    tilesat_map_free(p);
    if (res < 0)
      return fail_solve(o, &err);
    if (pass == 0 && res == TILESAT_SAT)
      return 0;
    rules_kept = pass == 1 && res == TILESAT_SAT;
  }
  snprintf(why, whylen,
           "no choice among the tiles that share a picture keeps the %s "
           "(%ld %s such a picture)",
           rules_kept ? "constraints" : "rules", cs->shared,
           cs->shared == 1 ? "cell shows" : "cells show");
  return 0;
}

static bool cell_may(const void *user, int cell, int tile) {
  const cells *cs = user;
  for (int i = cs->start[cell]; i < cs->start[cell + 1]; i++)
    if (cs->tile[i] == tile)
      return true;
  return false;
}

/* --png: the map, the cells of each broken pair framed, a dot on their
 * edge.  0 or EXIT_ERROR (said). */
static int draw(options *o, const tilesat_map *m, tilesat_topology topo,
                const cells *cs, long bad) {
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  int *pairs = malloc(2 * ((size_t)bad + 1) * sizeof *pairs);
  uint8_t *marks = calloc((size_t)w * (size_t)h, 1);
  if (!pairs || !marks) {
    fail("out of memory");
    abort();
  }
  report(tilesat_map_rules(m), topo, o->periodic, w, h, cs, false, pairs);
  for (long i = 0; i < 2 * bad; i++)
    marks[pairs[i]] = TILESAT_MARK_BROKEN;
  int rc = domains_png(o, m, cell_may, cs, marks, pairs, (size_t)bad);
  free(pairs);
  free(marks);
  return rc;
}

/* "the map is incomplete: ...": how many cells are empty, the first. */
static void incomplete(const cells *cs, int w, int h, char *why,
                       size_t whylen) {
  long all = (long)w * h;
  int r0 = cs->first_empty / w, c0 = cs->first_empty % w;
  if (cs->empty == all)
    snprintf(why, whylen, "the map is incomplete: all of its %ld %s empty", all,
             all == 1 ? "cell is" : "cells are");
  else if (cs->empty == 1)
    snprintf(why, whylen,
             "the map is incomplete: 1 of its %ld cells is empty: (%d,%d)", all,
             r0, c0);
  else
    snprintf(why, whylen,
             "the map is incomplete: %ld of its %ld cells are empty, the "
             "first (%d,%d)",
             cs->empty, all, r0, c0);
}

/* The answer on standard output: VALID, or INVALID and why, then every
 * broken pair; TILESAT_SAT or TILESAT_UNSAT. */
static int verdict(const options *o, const tilesat_map *m,
                   tilesat_topology topo, const cells *cs, long bad,
                   const char *why) {
  const tilesat_rules *r = tilesat_map_rules(m);
  int w = tilesat_map_width(m), h = tilesat_map_height(m);
  stop_hold(); /* the report whole */
  if (cs->empty)
    printf("INVALID: %s\n", why);
  if (bad)
    printf("%s%ld %s of neighbouring cells %s the rules\n",
           cs->empty ? "" : "INVALID: ", bad, bad == 1 ? "pair" : "pairs",
           bad == 1 ? "breaks" : "break");
  else if (why[0] && !cs->empty)
    printf("INVALID: %s\n", why);
  else if (!cs->empty)
    printf("VALID\n");
  if (!bad && !why[0] && cs->shared)
    printf("%ld %s a picture several tiles share, read as any of them: "
           "a choice among them keeps the rules%s\n",
           cs->shared, cs->shared == 1 ? "cell shows" : "cells show",
           tilesat_map_nglobals(m) ? " and the constraints" : "");
  report(r, topo, o->periodic, w, h, cs, true, NULL);
  stop_release();
  return bad || why[0] ? TILESAT_UNSAT : TILESAT_SAT;
}

int cmd_verify(options *o) {
  if (o->args.n != 2) {
    fail("verify takes a rules file and a map (see 'tilesat verify --help')");
    return EXIT_ERROR;
  }
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(o->args.v[0], &err);
  if (!r)
    return fail_err(&err);
  map_in in;
  /* a Tiled map's empty cells are empty (the map incomplete), unless
   * --empty tile makes them the tile "0" */
  bool empty_given = GIVEN(o, empty);
  if (!empty_given)
    o->empty = "free";
  int rc = map_in_read(o, o->args.v[1], r, &in);
  if (!empty_given)
    o->empty = NULL;
  tilesat_map *m = NULL;
  cells cs = {NULL, NULL, 0, 0, -1};
  int w = 0, h = 0;
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
  if (!rc) {
    w = tilesat_grid_width(in.grid);
    h = tilesat_grid_height(in.grid);
    /* the map check would solve: the same topology and wrap, refused alike */
    m = tilesat_map_new(r, w, h, topo, o->periodic, &err);
    rc = m ? cells_of(&in, r, w, h, &cs) : fail_err(&err);
  }
  if (!rc)
    rc = load_constraints(o, m);
  if (!rc)
    rc = outputs_ready(o, m, false);
  char why[1024] = "";
  long bad = 0;
  if (!rc) {
    bad = report(r, topo, o->periodic, w, h, &cs, false, NULL);
    if (cs.empty)
      incomplete(&cs, w, h, why, sizeof why);
    else if (!bad && cs.shared)
      rc = choose(o, m, &cs, why, sizeof why);
    else if (!bad && !tilesat_map_verify(m, cs.tile, why, sizeof why) &&
             !why[0])
      snprintf(why, sizeof why, "the map breaks a constraint");
  }
  if (!rc)
    rc = verdict(o, m, topo, &cs, bad, why);
  if ((rc == TILESAT_SAT || rc == TILESAT_UNSAT) && o->png &&
      draw(o, m, topo, &cs, bad))
    rc = EXIT_ERROR;
  cells_free(&cs);
  tilesat_map_free(m);
  map_in_free(&in);
  tilesat_rules_free(r);
  return rc;
}
