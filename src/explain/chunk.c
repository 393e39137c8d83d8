/* chunk.c: chunks that never fail (analyze --chunk K).  Chunked and
 * endless worlds are generated a K x K chunk at a time, inside a border of
 * cells the neighbouring chunks already hold.  Is every border the rules
 * allow completed by some filling of the chunk?  Then chunked generation at
 * size K never contradicts for lack of an inner filling.
 *
 * The border is the ring of cells around the chunk: the outermost cells of
 * the (K+2) x (K+2) frame, its corners included.  A corner touches no cell
 * of the chunk, but it is a cell the neighbouring chunks hold, beside two
 * border cells: the rules must allow it next to both, so two sides whose
 * ends no tile can join never meet around a real chunk and are not asked
 * about.  The border is valid when every two neighbouring ring cells hold
 * an allowed pair and every ring tile has some tile it allows on its
 * outer side (the chunk sits inside an endless world: a tile that can only
 * stand on a map's border cannot be around it).
 *
 * "For every valid border there is a filling" is a 2QBF, answered by a
 * counterexample-guided loop of two solvers, never by listing borders:
 *  - the guesser holds the ring (the frame with the chunk masked, outer-
 *    side bans) and proposes a valid border no filling found so far fits;
 *  - the checker holds the whole frame and, the border's tiles assumed,
 *    looks for a filling.  None: that border is the counterexample.  One
 *    (F): every border F fits is refuted at once.  F fits a border iff
 *    each ring cell's tile allows F's tiles on its neighbouring chunk cells,
 *    so the guesser learns the clause "some ring cell holds a tile outside
 *    A_r", A_r the tiles that allow F's neighbours of r (corners, with no
 *    chunk neighbour, have every tile in A_r and add nothing).  F is first
 *    widened (see widen): some of its cells may hold several tiles, and A_r
 *    grows to what any of them allows.  An empty clause: F fits every
 *    border, the chunk is complete.
 * The guesser running out of borders proves completeness. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_MAX 64

static bool on_ring(const tilesat_map *frame, int cell) {
  int row = cell / frame->width, col = cell % frame->width;
  return row == 0 || col == 0 || row == frame->height - 1 ||
         col == frame->width - 1;
}

tilesat_map *tilesat_chunk_frame(const tilesat_rules *r, int k,
                                 tilesat_topology topo, tilesat_error *err) {
  if (!r)
    ts_misuse(__func__, "NULL rules");
  if (topo == TILESAT_HEX) {
    ts_error_param(err, "chunk",
                   "hex chunks are not supported yet (square topology only)");
    return NULL;
  }
  if (k < 1 || k > CHUNK_MAX) {
    ts_error_param(err, "chunk", "%d is not from 1 to %d", k, CHUNK_MAX);
    return NULL;
  }
  return tilesat_map_new(r, k + 2, k + 2, topo, false, err);
}

/* The guesser's map: the frame with the chunk masked, so that its CNF says
 * "a valid ring", and each ring tile banned that allows nothing on one of
 * the cell's outer sides. */
static tilesat_map *ring_map(const tilesat_map *frame, tilesat_error *err) {
  const tilesat_rules *r = frame->rules;
  tilesat_map *g =
      tilesat_map_new(r, frame->width, frame->height, frame->topo, false, err);
  for (int c = 0; g && c < frame->ncells; c++) {
    int row = c / frame->width, col = c % frame->width;
    if (!on_ring(frame, c)) {
      tilesat_map_mask(g, row, col, NULL);
      continue;
    }
    for (int t = 0; t < r->ntiles; t++)
      for (int d = 0; d < r->ndirs; d++)
        if (ts_map_neighbor(frame, c, d) < 0 && ts_allows_nothing(r, t, d)) {
          tilesat_map_ban(g, row, col, t, NULL);
          break;
        }
  }
  return g;
}

/* The filling widened: a chunk cell next to exactly one ring cell, and to
 * no chunk cell widened before it, may hold any tile its chunk neighbours'
 * tiles allow (alt, a bitset of words per cell, wide[cell] set).  No two
 * widened cells are neighbours, so any choice for each, the other cells
 * kept, is still a filling: one refutation covers every border that some
 * such choice fits.  (Tiles that match edge to edge exactly, as Knots',
 * make a plain filling fit one interface only: widening every other cell of
 * a side covers 2^(cells widened) interfaces at once.) */
static void widen(const tilesat_map *frame, const int *filling, uint64_t *alt,
                  uint8_t *wide) {
  const tilesat_rules *r = frame->rules;
  int W = r->words;
  memset(wide, 0, (size_t)frame->ncells);
  for (int n = 0; n < frame->ncells; n++) {
    if (on_ring(frame, n))
      continue;
    uint64_t *a = alt + (size_t)n * (size_t)W;
    int rings = 0, count = 0;
    bool beside_wide = false;
    memset(a, 0xff, (size_t)W * sizeof *a);
    for (int d = 0; d < r->ndirs; d++) {
      int m = ts_map_neighbor(frame, n, d);
      if (m < 0)
        continue;
      if (on_ring(frame, m)) {
        rings++;
        continue;
      }
      beside_wide = beside_wide || wide[m];
      const uint64_t *al =
          ts_allowed(r, filling[m], tilesat_dir_opposite(frame->topo, d));
      for (int w = 0; w < W; w++)
        a[w] &= al[w];
    }
    for (int t = 0; t < r->ntiles; t++)
      count += ts_bit(a, t);
    wide[n] = rings == 1 && !beside_wide && count > 1;
  }
}

/* Does tile t at ring cell c allow the (widened) filling next to it? */
static bool fits(const tilesat_map *frame, const int *filling,
                 const uint64_t *alt, const uint8_t *wide, int c, int t) {
  const tilesat_rules *r = frame->rules;
  for (int d = 0; d < r->ndirs; d++) {
    int n = ts_map_neighbor(frame, c, d);
    if (n < 0 || on_ring(frame, n))
      continue;
    const uint64_t *al = ts_allowed(r, t, d);
    bool ok = !wide[n] && ts_bit(al, filling[n]);
    for (int w = 0; w < r->words && wide[n] && !ok; w++)
      ok = (al[w] & alt[(size_t)n * (size_t)r->words + (size_t)w]) != 0;
    if (!ok)
      return false;
  }
  return true;
}

/* The symmetries of the square the rules keep.  A rotation or reflection
 * g of the frame, with a permutation p of the tiles such that a allows b
 * in direction d iff p(a) allows p(b) in direction g(d), maps fillings to
 * fillings and valid borders to valid borders (the outer-side bans follow
 * the pairs).  So the borders with a filling are a set g keeps, and the
 * image of a refutation clause (ring cell c holding t -> g(c) holding p(t))
 * refutes only borders with a filling too: the guesser learns every image.
 * The permutation is searched for exactly, from the allowed pairs. */
#define SYM_NODES 1000000 /* give a symmetry up beyond this: still sound */

typedef struct chunk_sym {
  int nsym;     /* symmetries kept, the identity first */
  int *cell[8]; /* frame cell -> its image */
  int *tile[8]; /* tile -> its image */
} chunk_sym;

/* Frame cell c under symmetry s: s & 3 quarter turns, then a mirror. */
static int sym_cell(const tilesat_map *frame, int s, int c) {
  int n = frame->width, row = c / n, col = c % n;
  for (int i = 0; i < (s & 3); i++) {
    int t = row;
    row = col;
    col = n - 1 - t;
  }
  if (s & 4)
    col = n - 1 - col;
  return row * n + col;
}

/* Does p (tiles 0..t assigned) keep every pair among them under gd? */
static bool sym_keeps(const tilesat_rules *r, const int *gd, const int *p,
                      int t) {
  for (int u = 0; u <= t; u++)
    for (int d = 0; d < r->ndirs; d++)
      if (ts_bit(ts_allowed(r, t, d), u) !=
              ts_bit(ts_allowed(r, p[t], gd[d]), p[u]) ||
          ts_bit(ts_allowed(r, u, d), t) !=
              ts_bit(ts_allowed(r, p[u], gd[d]), p[t]))
        return false;
  return true;
}

static int sym_degree(const tilesat_rules *r, int t, int d) {
  int n = 0;
  for (int u = 0; u < r->ntiles; u++)
    n += ts_bit(ts_allowed(r, t, d), u);
  return n;
}

/* A permutation p of the tiles for direction map gd, by backtracking from
 * tile t on; false when there is none (or the search gave up). */
static bool sym_search(const tilesat_rules *r, const int *gd, int *p,
                       bool *used, int t, long *nodes) {
  if (t == r->ntiles)
    return true;
  for (int u = 0; u < r->ntiles; u++) {
    if (used[u] || ++*nodes > SYM_NODES)
      continue;
    bool ok = true;
    for (int d = 0; d < r->ndirs && ok; d++)
      ok = sym_degree(r, t, d) == sym_degree(r, u, gd[d]);
    p[t] = u;
    if (!ok || !sym_keeps(r, gd, p, t))
      continue;
    used[u] = true;
    if (sym_search(r, gd, p, used, t + 1, nodes))
      return true;
    used[u] = false;
  }
  return false;
}

static void sym_find(const tilesat_map *frame, chunk_sym *sy) {
  const tilesat_rules *r = frame->rules;
  int n = frame->width, centre = n + 1; /* (1,1): every neighbour there */
  sy->nsym = 0;
  bool *used = ts_malloc((size_t)r->ntiles * sizeof *used);
  for (int s = 0; s < 8; s++) {
    int gd[8], gc = sym_cell(frame, s, centre);
    for (int d = 0; d < r->ndirs; d++) {
      int m = sym_cell(frame, s, ts_map_neighbor(frame, centre, d));
      for (int e = 0; e < r->ndirs; e++)
        if (ts_map_neighbor(frame, gc, e) == m)
          gd[d] = e;
    }
    int *p = ts_malloc((size_t)r->ntiles * sizeof *p);
    long nodes = 0;
    memset(used, 0, (size_t)r->ntiles * sizeof *used);
    if (!sym_search(r, gd, p, used, 0, &nodes)) {
      free(p);
      continue;
    }
    int *cells = ts_malloc((size_t)frame->ncells * sizeof *cells);
    for (int c = 0; c < frame->ncells; c++)
      cells[c] = sym_cell(frame, s, c);
    sy->cell[sy->nsym] = cells;
    sy->tile[sy->nsym++] = p;
  }
  free(used);
}

static void sym_free(chunk_sym *sy) {
  for (int i = 0; i < sy->nsym; i++) {
    free(sy->cell[i]);
    free(sy->tile[i]);
  }
}

int tilesat_chunk_symmetries(const tilesat_rules *r, tilesat_error *err) {
  tilesat_map *frame = tilesat_chunk_frame(r, 1, TILESAT_SQUARE, err);
  if (!frame)
    return -1;
  chunk_sym sy;
  sym_find(frame, &sy);
  int n = sy.nsym;
  sym_free(&sy);
  tilesat_map_free(frame);
  return n;
}

/* The refutation of every border the widened filling fits, and its images
 * under the rules' symmetries, into the guesser: the ring literals "holds
 * a tile the filling does not fit".  False when the filling fits every
 * border (an empty clause). */
static bool refute(const tilesat_map *frame, const int *filling,
                   const uint64_t *alt, const uint8_t *wide,
                   const chunk_sym *sy, ts_solver *guess, ts_ints *cl) {
  for (int s = 0; s < sy->nsym; s++) {
    cl->n = 0;
    for (int c = 0; c < frame->ncells; c++)
      for (int t = 0; on_ring(frame, c) && t < frame->rules->ntiles; t++)
        if (!fits(frame, filling, alt, wide, c, t))
          TS_PUSH(*cl, ts_var(frame, sy->cell[s][c], sy->tile[s][t]));
    if (!cl->n)
      return false;
    ts_solver_add_clause(guess, cl->v, cl->n);
  }
  return true;
}

int tilesat_chunk_check(const tilesat_rules *r, int k, tilesat_topology topo,
                        const tilesat_solve_options *so, int *border,
                        long *refutations, tilesat_error *err) {
  tilesat_map *frame = tilesat_chunk_frame(r, k, topo, err);
  if (!frame)
    return -1;
  tilesat_map *ring = ring_map(frame, err);
  tilesat_solve_options o = ts_solve_for(frame, so);
  ts_solver *guess = ts_solver_for_map(ring, &o);
  ts_solver *fill = ts_solver_for_map(frame, &o);
  int n = frame->ncells, res = -1;
  int *bt = ts_malloc((size_t)n * sizeof *bt);
  int *ft = ts_malloc((size_t)n * sizeof *ft);
  uint64_t *alt = ts_malloc((size_t)n * (size_t)r->words * sizeof *alt);
  uint8_t *wide = ts_malloc((size_t)n);
  ts_ints cl = {0};
  long refuted = 0;
  chunk_sym sy;
  sym_find(frame, &sy);
  for (;;) {
    if (ts_terminated(&o)) { /* between solves too short to poll */
      ts_error(err, "analyze", 0, "interrupted");
      break;
    }
    int g = ts_solver_solve(guess);
    if (g == TILESAT_UNSAT) { /* no valid border is left unrefuted */
      res = 1;
      break;
    }
    if (g != TILESAT_SAT) {
      ts_solver_unknown(guess, "analyze", err);
      break;
    }
    if (ts_read_map(ring, guess, bt, err) < 0)
      break;
    for (int c = 0; c < n; c++)
      if (on_ring(frame, c))
        ts_solver_assume(fill, ts_var(frame, c, bt[c]));
    int f = ts_solver_solve(fill);
    if (f == TILESAT_UNSAT) { /* a counterexample */
      if (border)
        memcpy(border, bt, (size_t)n * sizeof *bt);
      res = 0;
      break;
    }
    if (f != TILESAT_SAT) {
      ts_solver_unknown(fill, "analyze", err);
      break;
    }
    if (ts_read_map(frame, fill, ft, err) < 0)
      break;
    widen(frame, ft, alt, wide);
    refuted++;
    ts_say(&o, "chunk %dx%d: %ld borders refuted by fillings", k, k, refuted);
    if (!refute(frame, ft, alt, wide, &sy, guess, &cl)) {
      res = 1; /* this filling fits every border */
      break;
    }
  }
  if (refutations)
    *refutations = refuted;
  sym_free(&sy);
  free(cl.v);
  free(wide);
  free(alt);
  free(ft);
  free(bt);
  ts_solver_free(fill);
  ts_solver_free(guess);
  tilesat_map_free(ring);
  tilesat_map_free(frame);
  return res;
}

const char *tilesat_chunk_free_name(const tilesat_rules *r) {
  static const char *const marks[] = {".", "?", "_", "*", "~"};
  for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
    if (tilesat_rules_find_tile(r, marks[i]) < 0)
      return marks[i];
  return "(chunk)"; /* a name grid's token */
}

int tilesat_chunk_write(const tilesat_map *frame, const int *border,
                        FILE *out) {
  const tilesat_rules *r = frame->rules;
  const char *free_name = tilesat_chunk_free_name(r);
  bool chars = strlen(free_name) == 1;
  for (int t = 0; t < r->ntiles && chars; t++) {
    const char *name = r->names.v.v[t];
    chars =
        name[0] && (size_t)ts_utf8_len((unsigned char)name[0]) == strlen(name);
  }
  if (!chars)
    fputs("tilesat-grid names\n", out);
  for (int row = 0; row < frame->height; row++) {
    for (int col = 0; col < frame->width; col++) {
      int c = row * frame->width + col;
      const char *name =
          on_ring(frame, c) ? r->names.v.v[border[c]] : free_name;
      if (chars) {
        fputs(name, out);
        continue;
      }
      if (col)
        fputc(' ', out);
      ts_write_token(out, name);
    }
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}
