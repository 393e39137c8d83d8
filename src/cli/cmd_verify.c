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
  const tilesat_rules *r = map_info(m).rules;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
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

/* The local check of the cells of several tiles: arc consistency over
 * the neighbours, then a small search in each group of touching cells
 * still of several tiles.  No whole-map solver: a map's pairs are local. */
typedef struct local {
  const tilesat_rules *r;
  tilesat_topology topo;
  bool per;
  int w, h, nd;
  const cells *cs;
  uint8_t *alive; /* each of cs->tile's entries still possible */
  int *left;      /* each cell's tiles still possible */
  int *queue;     /* a ring of cells to revise, then a group's cells */
  uint8_t *queued;
  int *val; /* the search: each cell's chosen entry, or -1 */
  long budget;
} local;

/* Budget of the searches (candidate tiles tried) before the solver. */
#define LOCAL_TRIES 2000000L

static int nb(const local *L, int c, int d) {
  int nr, nc;
  if (!tilesat_neighbor(L->topo, L->w, L->h, L->per, c / L->w, c % L->w, d, &nr,
                        &nc))
    return -1;
  return nr * L->w + nc;
}

/* Has entry i of cell c a possible partner in its neighbour n (in d)? */
static bool supported(const local *L, int i, int d, int n) {
  const cells *cs = L->cs;
  for (int j = cs->start[n]; j < cs->start[n + 1]; j++)
    if (L->alive[j] && tilesat_rules_allows(L->r, cs->tile[i], d, cs->tile[j]))
      return true;
  return false;
}

/* Drop c's tiles that some neighbour leaves without a partner: any? */
static bool revise(local *L, int c) {
  bool changed = false;
  for (int i = L->cs->start[c]; i < L->cs->start[c + 1]; i++)
    for (int d = 0; d < L->nd && L->alive[i]; d++) {
      int n = nb(L, c, d);
      if (n >= 0 && !supported(L, i, d, n)) {
        L->alive[i] = 0;
        L->left[c]--;
        changed = true;
      }
    }
  return changed;
}

/* Arc consistency from the cells of several tiles and their neighbours:
 * false when some cell is left no tile. */
static bool propagate(local *L) {
  long n = (long)L->w * L->h, head = 0, count = 0;
  for (int c = 0; c < n; c++)
    for (int d = -1; d < L->nd && L->left[c] > 1; d++) {
      int x = d < 0 ? c : nb(L, c, d);
      if (x >= 0 && !L->queued[x]) {
        L->queued[x] = 1;
        L->queue[(head + count++) % n] = x;
      }
    }
  while (count) {
    int c = L->queue[head];
    head = (head + 1) % n;
    count--;
    L->queued[c] = 0;
    if (!revise(L, c))
      continue;
    if (!L->left[c])
      return false;
    for (int d = 0; d < L->nd; d++) {
      int x = nb(L, c, d);
      if (x >= 0 && !L->queued[x]) {
        L->queued[x] = 1;
        L->queue[(head + count++) % n] = x;
      }
    }
  }
  return true;
}

/* May cell c hold entry i beside its neighbours already chosen? */
static bool fits(const local *L, int c, int i) {
  for (int d = 0; d < L->nd; d++) {
    int n = nb(L, c, d);
    int j = n == c ? i : n >= 0 ? L->val[n] : -1;
    if (j >= 0 &&
        !tilesat_rules_allows(L->r, L->cs->tile[i], d, L->cs->tile[j]))
      return false;
  }
  return true;
}

/* A choice for the group's k cells, in order, by backtracking: 1 found,
 * 0 none, -1 out of budget. */
static int search(local *L, const int *group, int k) {
  int pos = 0;
  while (pos >= 0 && pos < k) {
    int c = group[pos];
    int i = L->val[c] < 0 ? L->cs->start[c] : L->val[c] + 1;
    L->val[c] = -1;
    for (; i < L->cs->start[c + 1]; i++) {
      if (--L->budget < 0)
        return -1;
      if (L->alive[i] && fits(L, c, i))
        break;
    }
    if (i < L->cs->start[c + 1]) {
      L->val[c] = i;
      pos++;
    } else
      pos--;
  }
  return pos == k;
}

/* Cell c's group: the cells of several tiles that touch it, breadth
 * first into L->queue (marked in queued); their number. */
static int group_of(local *L, int c) {
  int k = 0;
  L->queue[k++] = c;
  L->queued[c] = 1;
  for (int at = 0; at < k; at++)
    for (int d = 0; d < L->nd; d++) {
      int x = nb(L, L->queue[at], d);
      if (x >= 0 && L->left[x] > 1 && !L->queued[x]) {
        L->queued[x] = 1;
        L->queue[k++] = x;
      }
    }
  return k;
}

/* Does a choice among each cell's tiles keep the rules?  1 yes, 0 no, -1
 * not settled within the budget. */
static int choose_local(const tilesat_rules *r, tilesat_topology topo, bool per,
                        int w, int h, const cells *cs) {
  size_t n = (size_t)w * (size_t)h, slots = (size_t)cs->start[n];
  local L = {r,
             topo,
             per,
             w,
             h,
             tilesat_topology_ndirs(topo),
             cs,
             malloc(slots + 1),
             malloc(n * sizeof(int)),
             malloc(n * sizeof(int)),
             calloc(n, 1),
             malloc(n * sizeof(int)),
             LOCAL_TRIES};
  if (!L.alive || !L.left || !L.queue || !L.queued || !L.val) {
    fail("out of memory");
    abort();
  }
  memset(L.alive, 1, slots + 1);
  for (size_t c = 0; c < n; c++) {
    L.left[c] = cs->start[c + 1] - cs->start[c];
    L.val[c] = -1;
  }
  int res = propagate(&L) ? 1 : 0;
  /* the queue is empty, queued all 0: the groups, one at a time */
  for (size_t c = 0; c < n && res == 1; c++)
    if (L.left[c] > 1 && !L.queued[c])
      res = search(&L, L.queue, group_of(&L, (int)c));
  free(L.alive);
  free(L.left);
  free(L.queue);
  free(L.queued);
  free(L.val);
  return res;
}

/* "no choice among the tiles that share a picture keeps the rules". */
static void no_choice(const cells *cs, bool rules, char *why, size_t whylen) {
  snprintf(why, whylen,
           "no choice among the tiles that share a picture keeps the %s "
           "(%ld %s such a picture)",
           rules ? "rules" : "constraints", cs->shared,
           cs->shared == 1 ? "cell shows" : "cells show");
}

/* Is there a choice of tiles for the cells of several tiles that keeps
 * the rules and the constraints?  The rules are a local check; only the
 * constraints, or cells too tangled for it, need the whole map's solver,
 * said first.  0 with why empty (yes) or saying what no choice keeps;
 * EXIT_ERROR (said). */
static int choose(options *o, const tilesat_map *m, const cells *cs, char *why,
                  size_t whylen) {
  tilesat_solve_options so;
  tilesat_error err;
  why[0] = 0;
  if (parse_backend(o, &so))
    return EXIT_ERROR;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  tilesat_topology topo =
      topology_of(o, tilesat_rules_topology(map_info(m).rules));
  int rules = choose_local(map_info(m).rules, topo, o->periodic, w, h, cs);
  bool globals = map_info(m).nglobals > 0;
  if (rules == 0)
    no_choice(cs, true, why, whylen);
  if (rules == 0 || (rules == 1 && !globals))
    return 0;
  char line[256];
  snprintf(line, sizeof line,
           "%ld %s of shared pictures against %s: one SAT check of the "
           "whole %dx%d map",
           cs->shared, cs->shared == 1 ? "cell" : "cells",
           rules == 1 ? "the constraints"
                      : "the rules (too tangled to settle cell by cell)",
           w, h);
  progress_notice(so.progress_user, line);
  /* with the constraints, then (when the rules were not settled) without:
   * which one fails */
  int passes = globals && rules < 0 ? 2 : 1;
  bool rules_kept = rules == 1;
  for (int pass = 0; pass < passes; pass++) {
    tilesat_map *p = held(o, m, cs, globals && pass == 0);
    if (!p)
      return EXIT_ERROR;
    lazy_backend(o, p, &so);
    int res = tilesat_check(p, &so, NULL, &err);
    tilesat_map_free(p);
    if (res < 0)
      return fail_solve(o, &err);
    if (res == TILESAT_SAT && pass == 0)
      return 0;
    if (pass == 1)
      rules_kept = res == TILESAT_SAT;
  }
  no_choice(cs, !rules_kept, why, whylen);
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
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  int *pairs = malloc(2 * ((size_t)bad + 1) * sizeof *pairs);
  uint8_t *marks = calloc((size_t)w * (size_t)h, 1);
  if (!pairs || !marks) {
    fail("out of memory");
    abort();
  }
  report(map_info(m).rules, topo, o->periodic, w, h, cs, false, pairs);
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
  const tilesat_rules *r = map_info(m).rules;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
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
           map_info(m).nglobals ? " and the constraints" : "");
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
