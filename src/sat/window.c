/* window.c: a window of a map, a small map of its own whose cells lose
 * their neighbours outside it.  A relaxation: every valid map, cut to the
 * window, fills it, so a window with no filling proves that the map has
 * none.  The collapse's guard proves dooms in windows around its
 * contradictions; check's portfolio refutes pins in windows around them.
 *
 * The window keeps what of the map it can keep: the pins and bans inside,
 * and, on each side where the map goes on, a ban of the tiles that allow
 * nothing on that side (in the map the cell has a neighbour there, which
 * must hold a tile the cell's allows; a tile that can only stand on the
 * map's border cannot stand there).  Without these bans a window of
 * border-only tiles' rules would always have a filling at its edge.  The
 * map's masked cells it keeps; its global constraints it leaves out (a
 * relaxation still): callers that keep borders pass the map with them as
 * bans (ts_map_lowered). */
#include "sat/sat.h"

#include <stdlib.h>
#include <string.h>

/* Does tile t allow no tile at all in direction d? */
static bool allows_nothing(const tilesat_rules *r, int t, int d) {
  const uint64_t *al = ts_allowed(r, t, d);
  for (int k = 0; k < r->words; k++)
    if (al[k])
      return false;
  return true;
}

/* An empty window of m, h by w, at rows y0.. and columns x0... */
static void make(const tilesat_map *m, int x0, int y0, int ww, int hh,
                 ts_window *w) {
  memset(w, 0, sizeof *w);
  w->m.rules = m->rules;
  w->m.topo = m->topo;
  w->m.width = ww;
  w->m.height = hh;
  w->m.ncells = ww * hh;
  w->m.max_memory = m->max_memory;
  w->x0 = x0;
  w->y0 = y0;
}

bool ts_window_place(const tilesat_map *m, int cell, int r, ts_window *w) {
  int W = m->width, H = m->height, side = 2 * r + 1;
  bool hex = m->topo == TILESAT_HEX;
  if (m->periodic ? side >= W || side >= H || (hex && H % 2)
                  : side >= W && side >= H)
    return false;
  int ww = side < W ? side : W, hh = side < H ? side : H;
  int x0 = cell % W - r, y0 = cell / W - r;
  if (!m->periodic) {
    x0 = x0 < 0 ? 0 : x0 > W - ww ? W - ww : x0;
    y0 = y0 < 0 ? 0 : y0 > H - hh ? H - hh : y0;
  } else {
    x0 = (x0 % W + W) % W;
    y0 = (y0 % H + H) % H;
  }
  if (hex && y0 % 2) { /* odd-r rows: keep the window's rows' parity */
    y0--;
    if (y0 < 0)
      y0 += H;
    if (!m->periodic && hh < H)
      hh++;
  }
  make(m, x0, y0, ww, hh, w);
  return true;
}

bool ts_window_rect(const tilesat_map *m, int x0, int y0, int ww, int hh,
                    ts_window *w) {
  int W = m->width, H = m->height;
  bool hex = m->topo == TILESAT_HEX;
  if (!m->periodic) { /* cut at the map's edges */
    int x1 = x0 + ww < W ? x0 + ww : W, y1 = y0 + hh < H ? y0 + hh : H;
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    if (hex && y0 % 2)
      y0--; /* odd-r rows: keep the window's rows' parity */
    ww = x1 - x0;
    hh = y1 - y0;
    if (ww >= W && hh >= H)
      return false;
  } else {
    if (ww >= W || hh >= H || (hex && H % 2))
      return false;
    x0 = (x0 % W + W) % W;
    y0 = (y0 % H + H) % H;
    if (hex && y0 % 2)
      y0 = y0 ? y0 - 1 : H - 1;
  }
  make(m, x0, y0, ww, hh, w);
  return true;
}

int ts_window_cell(const tilesat_map *m, const ts_window *w, int cell) {
  int W = m->width, H = m->height;
  int dx = cell % W - w->x0, dy = cell / W - w->y0;
  if (m->periodic) {
    dx = (dx % W + W) % W;
    dy = (dy % H + H) % H;
  }
  if (dx < 0 || dy < 0 || dx >= w->m.width || dy >= w->m.height)
    return -1;
  return dy * w->m.width + dx;
}

int ts_window_map_cell(const tilesat_map *m, const ts_window *w, int wcell) {
  int row = (w->y0 + wcell / w->m.width) % m->height;
  int col = (w->x0 + wcell % w->m.width) % m->width;
  return row * m->width + col;
}

void ts_window_mask(const tilesat_map *m, ts_window *w) {
  if (!m->masked)
    return;
  w->m.masked = ts_calloc((size_t)w->m.ncells, 1);
  for (int lc = 0; lc < w->m.ncells; lc++)
    if (ts_masked(m, ts_window_map_cell(m, w, lc))) {
      w->m.masked[lc] = 1;
      w->m.nmasked++;
    }
}

bool ts_window_at(const tilesat_map *m, int cell, int r, ts_window *w) {
  if (!ts_window_place(m, cell, r, w))
    return false;
  ts_window_mask(m, w);
  for (size_t i = 0; i < m->pins.n; i++) {
    int lc = ts_window_cell(m, w, m->pins.v[i].cell);
    if (lc >= 0)
      TS_PUSH(w->m.pins, ((ts_pin){lc, m->pins.v[i].tile}));
  }
  for (size_t i = 0; i < m->bans.n; i++) {
    int lc = ts_window_cell(m, w, m->bans.v[i].cell);
    if (lc >= 0)
      TS_PUSH(w->m.bans, ((ts_pin){lc, m->bans.v[i].tile}));
  }
  const tilesat_rules *rules = m->rules;
  for (int lc = 0; lc < w->m.ncells; lc++)
    for (int d = 0; d < rules->ndirs; d++) {
      if (ts_map_neighbor(&w->m, lc, d) >= 0 ||
          ts_map_neighbor(m, ts_window_map_cell(m, w, lc), d) < 0)
        continue; /* inside the window, or the map's own border */
      for (int t = 0; t < rules->ntiles; t++)
        if (allows_nothing(rules, t, d))
          TS_PUSH(w->m.bans, ((ts_pin){lc, t}));
    }
  return true;
}

int ts_window_solve(const ts_window *w, const tilesat_solve_options *so,
                    int conflicts) {
  tilesat_solve_options quiet = *so;
  quiet.progress = NULL;
  quiet.backend = TILESAT_CADICAL;
  ts_solver *s = ts_solver_for_map(&w->m, &quiet);
  ts_solver_limit(s, conflicts);
  int res = ts_solver_solve(s);
  ts_solver_free(s);
  return res;
}

void ts_window_free(ts_window *w) {
  free(w->m.pins.v);
  free(w->m.bans.v);
  free(w->m.masked);
  memset(&w->m.pins, 0, sizeof w->m.pins);
  memset(&w->m.bans, 0, sizeof w->m.bans);
  w->m.masked = NULL;
  w->m.nmasked = 0;
}
