/* cleanup.c: keep hard rules hard.  When annealing ends with disallowed
 * pairs, the cells at both ends of every such pair, grown by a margin, are
 * handed to the SAT backend with every other cell pinned.  Each connected
 * piece of that region is solved on its own small map: its bounding box
 * plus a one-cell ring of pinned context (the box of a hex map starts on an
 * even row, so odd-r offsets stay the same).  A piece the backend cannot
 * fill doubles the margin, up to the whole map, where UNSAT means no valid
 * map exists with these pins at all.  On a periodic map a piece is solved
 * on the whole (periodic) map, every cell outside it pinned.
 *
 * Global constraints are kept: a piece's small map has the map's masked
 * cells, bans for the tiles a border (or a path's cell) forbids, and each
 * count with the cells outside its box taken off the bound.  Connected and
 * path constraints are not local: when the map still breaks one after the
 * pieces, the whole map is solved with them (the encoder's CNF and lazy
 * cuts, sat/cuts.c), keeping as many annealed tiles as it can. */
#include "gen/gen.h"

#include <stdlib.h>
#include <string.h>

/* Cells on a disallowed edge. */
static int mark_bad(const tilesat_map *m, const int *tiles, uint8_t *bad) {
  int nbad = 0;
  memset(bad, 0, (size_t)m->ncells);
  for (int c = 0; c < m->ncells; c++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int n = ts_map_neighbor(m, c, d);
      if (n >= 0 && !ts_bit(ts_allowed(m->rules, tiles[c], d), tiles[n])) {
        nbad += !bad[c] + !bad[n];
        bad[c] = bad[n] = 1;
      }
    }
  return nbad;
}

/* Grow the marked set by `margin` steps (breadth first). */
static void grow(const tilesat_map *m, uint8_t *in, int margin, int *queue) {
  int *dist = ts_malloc((size_t)m->ncells * sizeof *dist);
  int head = 0, tail = 0;
  for (int c = 0; c < m->ncells; c++) {
    dist[c] = in[c] ? 0 : -1;
    if (in[c])
      queue[tail++] = c;
  }
  while (head < tail) {
    int c = queue[head++];
    if (dist[c] == margin)
      continue;
    for (int d = 0; d < m->rules->ndirs; d++) {
      int n = ts_map_neighbor(m, c, d);
      if (n >= 0 && dist[n] < 0) {
        dist[n] = dist[c] + 1;
        in[n] = 1;
        queue[tail++] = n;
      }
    }
  }
  free(dist);
}

#define MAX_ROUNDS 32

/* How long a piece may take.  A piece whose pinned ring of annealed
 * context admits no fill can be very hard for CDCL to refute (Castle 24x24:
 * a 162-cell piece ran for minutes, while checking the whole map takes
 * 0.13 s), so "no answer within this budget" counts as "cannot fill", the
 * margin doubles, and the pins that made it hard give way.  The whole map
 * with only the user's pins is solved without a budget: it is then the
 * plain check.  Each keep-most round has the budget as well. */
#define PIECE_CONFLICTS 1000

/* The solver's map into sol (the sub-map's cells). */
static void read_solution(const tilesat_map *sub, ts_solver *s, int *sol) {
  int T = sub->rules->ntiles;
  for (int c = 0; c < sub->ncells; c++) {
    sol[c] = -1;
    for (int t = 0; t < T; t++)
      if (ts_solver_value(s, ts_var(sub, c, t)))
        sol[c] = t;
  }
}

/* Solve with the assumptions lit[0..kept-1], within budget when it is
 * positive.  UNKNOWN is an error only if the user asked to stop. */
static int solve_within(ts_solver *s, ts_cuts *cuts,
                        const tilesat_solve_options *so, const int *lit,
                        int kept, int budget) {
  int res = ts_solve_cut_assuming(s, cuts, lit, kept, budget, NULL);
  return res == TILESAT_UNKNOWN && ts_terminated(so) ? -1 : res;
}

/* After a first model: solve again keeping as many of the piece's current
 * tiles (lit[0..n-1]) as it can.  PicoSAT is told to prefer them (decision
 * phases); CryptoMiniSat and CaDiCaL have no such hint in their C APIs.  On
 * every backend they are assumed, and the assumptions it reports as failed
 * are dropped (half of them when it runs out of budget) until it finds a
 * map, at most MAX_ROUNDS times, each within the budget; the first model
 * stays when no round finds one.  Without this
 * a SAT solver fills the region with whatever its first model holds, and
 * the tile counts the annealer balanced are lost. */
static int keep_most(const tilesat_map *sub, ts_solver *s, ts_cuts *cuts,
                     const tilesat_solve_options *so, int *lit, int n,
                     int *sol) {
  int kept = n;
  for (int rounds = 0; rounds < MAX_ROUNDS && kept > 0; rounds++) {
    int res = solve_within(s, cuts, so, lit, kept, PIECE_CONFLICTS);
    if (res == TILESAT_SAT)
      read_solution(sub, s, sol);
    if (res == TILESAT_SAT || res < 0)
      return res < 0 ? -1 : 0;
    int k = 0;
    for (int i = 0; i < kept && res == TILESAT_UNSAT; i++)
      if (!ts_solver_failed(s, lit[i]))
        lit[k++] = lit[i];
    /* every assumption blamed, or out of budget: keep half */
    kept = k == kept || res == TILESAT_UNKNOWN ? kept / 2 : k;
  }
  return 0;
}

/* Fill the small map `sub` (box at r0, c0 of the big map) within `budget`
 * conflicts (0: none), then keep as many of the piece's current tiles as
 * it can.  TILESAT_SAT (sol filled), TILESAT_UNSAT (no fill, or none found
 * within the budget), or -1. */
static int fill(const tilesat_map *sub, const tilesat_solve_options *so,
                const int *tiles, int width, int r0, int c0, const int *piece,
                int n, int budget, int *sol, tilesat_error *err) {
  if (ts_memory_check(sub, so, ts_cnf_bytes(ts_cnf_measure(sub)), "anneal",
                      err))
    return -1;
  ts_cnf cnf;
  ts_encode(sub, &cnf);
  ts_solver *s = ts_solver_new(sub, so);
  ts_solver_load(s, &cnf);
  ts_cnf_free(&cnf);
  ts_cuts *cuts = ts_cuts_new(sub); /* the whole map's connectivity */
  int *lit = ts_malloc((size_t)n * sizeof *lit);
  for (int i = 0; i < n; i++) {
    int r = piece[i] / width - r0, c = piece[i] % width - c0;
    lit[i] = ts_var(sub, r * sub->width + c, tiles[piece[i]]);
    /* PicoSAT also takes them as polarity hints, for the cells whose
     * assumptions get dropped */
    ts_solver_prefer(s, lit[i]);
  }
  int res = solve_within(s, cuts, so, lit, 0, budget);
  if (res == TILESAT_UNKNOWN) /* out of budget: as good as no fill */
    res = budget > 0 ? TILESAT_UNSAT : -1;
  if (res == TILESAT_SAT) {
    read_solution(sub, s, sol);
    res = keep_most(sub, s, cuts, so, lit, n, sol) < 0 ? -1 : res;
  }
  char why[512];
  if (res < 0) {
    ts_solver_unknown(s, "anneal", err);
  } else if (res == TILESAT_SAT &&
             !tilesat_map_verify(sub, sol, why, sizeof why)) {
    ts_error(err, NULL, 0,
             "internal error: the cleaned-up region is not valid: %s", why);
    res = -1;
  }
  free(lit);
  ts_cuts_free(cuts);
  ts_solver_free(s);
  return res;
}

/* The map's masks, bans and counts on the small map `sub`, its box from
 * (r0, c0) (its pins are set: the cells outside the piece); nonzero when a
 * count cannot be met whatever the piece holds. */
static int piece_globals(const tilesat_energy *e, const int *tiles,
                         tilesat_map *sub, int r0, int c0) {
  const tilesat_map *m = e->map;
  int T = e->ntiles, bw = sub->width, bh = sub->height;
  for (int l = 0; l < sub->ncells; l++) {
    int cell = (r0 + l / bw) * m->width + c0 + l % bw;
    if (ts_masked(m, cell)) {
      if (!sub->masked)
        sub->masked = ts_calloc((size_t)sub->ncells, 1);
      sub->masked[l] = 1;
      sub->nmasked++;
    }
    for (int t = 0; t < T && !ts_masked(m, cell); t++)
      if (e->region_ban[e->region[cell] * T + t])
        TS_PUSH(sub->bans, ((ts_pin){l, t}));
  }
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (g->kind != TILESAT_GLOBAL_COUNT)
      continue;
    int k = g->k, inside = 0;
    for (int c = 0; c < m->ncells; c++) {
      int r = c / m->width, q = c % m->width;
      bool in = r >= r0 && r < r0 + bh && q >= c0 && q < c0 + bw;
      if (!ts_global_covers(m, g, c))
        continue;
      inside += in && !ts_masked(m, c);
      k -= !in && tiles[c] >= 0 && ts_bit(g->class, tiles[c]);
    }
    if (!inside) /* the piece does not change it */
      continue;
    if ((g->cmp != TS_AT_LEAST && k < 0) ||
        (g->cmp != TS_AT_MOST && k > inside))
      return -1;
    ts_global lg = *g;
    lg.class = ts_malloc((size_t)m->rules->words * sizeof *lg.class);
    memcpy(lg.class, g->class, (size_t)m->rules->words * sizeof *lg.class);
    lg.text = ts_strdup(g->text);
    lg.origin = ts_strdup(g->origin);
    lg.cells = (ts_ints){0};
    lg.k = k < 0 ? 0 : k;
    lg.r0 = (g->r0 > r0 ? g->r0 : r0) - r0;
    lg.c0 = (g->c0 > c0 ? g->c0 : c0) - c0;
    lg.r1 = (g->r1 < r0 + bh - 1 ? g->r1 : r0 + bh - 1) - r0;
    lg.c1 = (g->c1 < c0 + bw - 1 ? g->c1 : c0 + bw - 1) - c0;
    TS_PUSH(sub->globals, lg);
  }
  return 0;
}

/* Solve one connected piece (cells piece[0..n-1], all marked in `in`)
 * within `budget` conflicts (0: none).  Returns TILESAT_SAT (tiles
 * updated), TILESAT_UNSAT (no fill found), or -1. */
static int solve_piece(const tilesat_energy *e, const tilesat_solve_options *so,
                       int *tiles, const int *piece, int n, int budget,
                       tilesat_error *err) {
  const tilesat_map *m = e->map;
  int r0 = m->height, r1 = -1, c0 = m->width, c1 = -1;
  for (int i = 0; i < n; i++) {
    int r = piece[i] / m->width, c = piece[i] % m->width;
    r0 = r < r0 ? r : r0;
    r1 = r > r1 ? r : r1;
    c0 = c < c0 ? c : c0;
    c1 = c > c1 ? c : c1;
  }
  bool whole = m->periodic;
  if (whole) {
    r0 = c0 = 0;
    r1 = m->height - 1;
    c1 = m->width - 1;
  } else {
    r0 = r0 > 0 ? r0 - 1 : 0;
    c0 = c0 > 0 ? c0 - 1 : 0;
    r1 = r1 < m->height - 1 ? r1 + 1 : r1;
    c1 = c1 < m->width - 1 ? c1 + 1 : c1;
    if (m->topo == TILESAT_HEX)
      r0 -= r0 & 1;
  }
  int bw = c1 - c0 + 1, bh = r1 - r0 + 1;
  tilesat_map *sub =
      tilesat_map_new(m->rules, bw, bh, m->topo, m->periodic, err);
  if (!sub)
    return -1;
  sub->max_memory = m->max_memory;
  /* everything but the piece is pinned; so are the piece's own pins */
  uint8_t *mine = ts_calloc((size_t)m->ncells, 1);
  for (int i = 0; i < n; i++)
    mine[piece[i]] = 1;
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++) {
      int cell = r * m->width + c, local = (r - r0) * bw + (c - c0);
      if (ts_masked(m, cell))
        continue;
      if (!mine[cell] || e->pin_of[cell]) {
        ts_pin p = {local, mine[cell] ? e->pin_tile[cell] : tiles[cell]};
        TS_PUSH(sub->pins, p);
      }
    }
  int res = piece_globals(e, tiles, sub, r0, c0) ? TILESAT_UNSAT : 0;
  int *sol = ts_malloc((size_t)bw * (size_t)bh * sizeof *sol);
  if (!res)
    res = fill(sub, so, tiles, m->width, r0, c0, piece, n, budget, sol, err);
  if (res == TILESAT_SAT)
    for (int i = 0; i < n; i++) {
      int r = piece[i] / m->width, c = piece[i] % m->width;
      tiles[piece[i]] = sol[(r - r0) * bw + (c - c0)];
    }
  free(sol);
  free(mine);
  tilesat_map_free(sub);
  return res;
}

/* The connected piece of marked cells (in) around s, into piece; seen
 * marks them.  Returns how many. */
static int gather(const tilesat_map *m, const uint8_t *in, uint8_t *seen, int s,
                  int *piece) {
  int n = 0, head = 0;
  piece[n++] = s;
  seen[s] = 1;
  while (head < n) {
    int c = piece[head++];
    for (int d = 0; d < m->rules->ndirs; d++) {
      int nb = ts_map_neighbor(m, c, d);
      if (nb >= 0 && in[nb] && !seen[nb]) {
        seen[nb] = 1;
        piece[n++] = nb;
      }
    }
  }
  return n;
}

/* What the pieces did not mend (connectivity; violations that growing
 * cannot join to the rest, masks cutting the map): the whole map, with its
 * constraints and cuts, keeping what it can of the map (cells: scratch). */
static int whole_map(const tilesat_energy *e, const tilesat_solve_options *so,
                     int *tiles, int *cells, tilesat_anneal_stats *st,
                     tilesat_error *err) {
  const tilesat_map *m = e->map;
  int N = m->ncells, n = 0;
  for (int c = 0; c < N; c++)
    if (!e->pin_of[c] && !ts_masked(m, c))
      cells[n++] = c;
  st->cleanup_regions++;
  int *sol = ts_malloc((size_t)N * sizeof *sol);
  int res = fill(m, so, tiles, m->width, 0, 0, cells, n, 0, sol, err);
  if (res == TILESAT_SAT)
    memcpy(tiles, sol, (size_t)N * sizeof *tiles);
  st->cleanup_result = res == TILESAT_UNSAT ? TILESAT_UNSAT : TILESAT_SAT;
  free(sol);
  return res < 0 ? -1 : 0;
}

int ts_anneal_solve_whole(const tilesat_energy *e,
                          const tilesat_solve_options *options, int *tiles,
                          tilesat_error *err) {
  const tilesat_map *m = e->map;
  tilesat_solve_options so = ts_solve_for(m, options);
  tilesat_anneal_stats st = {0};
  int *cells = ts_malloc((size_t)m->ncells * sizeof *cells);
  int rc = whole_map(e, &so, tiles, cells, &st, err);
  free(cells);
  return rc < 0 ? -1 : st.cleanup_result;
}

int ts_anneal_cleanup(const tilesat_energy *e,
                      const tilesat_solve_options *options, int *tiles,
                      tilesat_anneal_stats *st, tilesat_error *err) {
  const tilesat_map *m = e->map;
  /* auto chooses for the whole map, not for each small region */
  tilesat_solve_options so = ts_solve_for(m, options);
  int N = m->ncells;
  if (N <= 0)
    return 0;
  int *before = ts_malloc((size_t)N * sizeof *before);
  memcpy(before, tiles, (size_t)N * sizeof *before);
  uint8_t *in = ts_malloc((size_t)N);
  uint8_t *seen = ts_malloc((size_t)N);
  int *queue = ts_malloc((size_t)N * sizeof *queue);
  int *piece = ts_malloc((size_t)N * sizeof *piece);
  int rc = 0, live = N - m->nmasked, last = -1;
  bool whole = false;
  st->cleanup_result = TILESAT_SAT;
  for (int margin = 2;; margin *= 2) {
    if (!mark_bad(m, tiles, in))
      break;
    grow(m, in, margin, queue);
    int nin = 0;
    for (int c = 0; c < N; c++)
      nin += in[c] && !ts_masked(m, c);
    /* Every cell, or every cell the violations reach (masks can cut the
     * map in pieces that growing never joins): the whole map, with only
     * the user's pins and every constraint, says whether a map exists. */
    if (nin >= live || nin == last) {
      whole = true;
      rc = whole_map(e, &so, tiles, piece, st, err);
      break;
    }
    last = nin;
    memset(seen, 0, (size_t)N);
    bool failed = false;
    for (int s = 0; s < N && !failed && rc == 0; s++) {
      if (!in[s] || seen[s])
        continue;
      int n = gather(m, in, seen, s, piece);
      st->cleanup_regions++;
      int res = solve_piece(e, &so, tiles, piece, n, PIECE_CONFLICTS, err);
      if (res < 0)
        rc = -1;
      else if (res == TILESAT_UNSAT)
        failed = true;
    }
    if (rc < 0 || !failed)
      break;
  }
  char why[8];
  if (rc == 0 && !whole && st->cleanup_result == TILESAT_SAT &&
      ts_globals_broken(m, tiles, why, sizeof why))
    rc = whole_map(e, &so, tiles, piece, st, err);
  st->cleaned_cells = 0;
  for (int c = 0; c < N; c++)
    st->cleaned_cells += tiles[c] != before[c];
  free(before);
  free(in);
  free(seen);
  free(queue);
  free(piece);
  return rc;
}
