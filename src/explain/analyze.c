/* analyze.c: a report on a rule set itself, for a designer deciding
 * whether to fix the rules or the map: tiles that can only stand on one
 * border, tiles that appear in no valid map, which sizes work, and, when
 * large maps fail ("hard" rules), the explanation for the smallest size
 * that fails. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

#define MAX_MAX 64

struct tilesat_analysis {
  const tilesat_rules *r;
  int max;
  tilesat_topology topo;
  bool periodic;
  int *result;      /* [(h-1) * max + (w-1)] */
  uint8_t *appears; /* per tile, in maps from least x least */
  int least;
  tilesat_map *hard; /* the smallest unsatisfiable size, when hard */
  tilesat_explanation *why;
};

/* Is there a valid map of m with `tile` somewhere?  The witness is checked
 * like every other one. */
static int appears_in(const tilesat_map *m, const tilesat_solve_options *so,
                      int tile, tilesat_error *err) {
  ts_cnf cnf;
  ts_encode(m, &cnf);
  ts_solver *s = ts_solver_new(m, so);
  ts_solver_load(s, &cnf);
  ts_ints cl = {0};
  for (int c = 0; c < m->ncells; c++)
    TS_PUSH(cl, ts_var(m, c, tile));
  ts_solver_add_clause(s, cl.v, cl.n);
  int res = ts_solver_solve(s);
  if (res == TILESAT_SAT) {
    int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
    for (int c = 0; c < m->ncells; c++) {
      tiles[c] = -1;
      for (int t = 0; t < m->rules->ntiles; t++)
        if (ts_solver_value(s, ts_var(m, c, t)))
          tiles[c] = t;
    }
    char why[256];
    if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: invalid witness: %s", why);
      res = -1;
    }
    free(tiles);
  } else if (res != TILESAT_UNSAT) {
    res = ts_solver_unknown(s, "analyze", err);
  }
  free(cl.v);
  ts_solver_free(s);
  ts_cnf_free(&cnf);
  return res;
}

/* Check every size up to max x max, noting the tiles the witnesses use. */
static bool check_sizes(tilesat_analysis *a, const tilesat_solve_options *so,
                        tilesat_error *err) {
  int max = a->max;
  int *tiles = ts_malloc((size_t)max * (size_t)max * sizeof *tiles);
  bool ok = true;
  for (int h = 1; h <= max && ok; h++)
    for (int w = 1; w <= max && ok; w++) {
      int *res = &a->result[(h - 1) * max + (w - 1)];
      if (a->topo == TILESAT_HEX && a->periodic && h % 2) {
        *res = TILESAT_UNKNOWN;
        continue;
      }
      tilesat_map *m = tilesat_map_new(a->r, w, h, a->topo, a->periodic, err);
      if (!m) {
        ok = false;
        break;
      }
      *res = tilesat_check(m, so, tiles, err);
      if (*res < 0)
        ok = false;
      else if (*res == TILESAT_SAT && w >= a->least && h >= a->least)
        for (int c = 0; c < w * h; c++)
          a->appears[tiles[c]] = 1;
      tilesat_map_free(m);
    }
  free(tiles);
  return ok;
}

/* Tile t, used by no witness: ask for it directly, small maps first. */
static bool find_tile(tilesat_analysis *a, int t,
                      const tilesat_solve_options *so, tilesat_error *err) {
  int max = a->max;
  bool ok = true;
  for (int area = 1; area <= max * max && ok && !a->appears[t]; area++)
    for (int w = 1; w <= max && ok && !a->appears[t]; w++) {
      int h = area / w;
      if (area % w || h > max || w < a->least || h < a->least ||
          a->result[(h - 1) * max + (w - 1)] != TILESAT_SAT)
        continue;
      tilesat_map *m = tilesat_map_new(a->r, w, h, a->topo, a->periodic, err);
      int res = appears_in(m, so, t, err);
      if (res < 0)
        ok = false;
      else
        a->appears[t] = res == TILESAT_SAT;
      tilesat_map_free(m);
    }
  return ok;
}

/* The smallest unsatisfiable size (by area, then narrower first) and why. */
static bool explain_hard(tilesat_analysis *a, const tilesat_solve_options *so,
                         tilesat_error *err) {
  int max = a->max, bw = 0, bh = 0;
  for (int h = 1; h <= max; h++)
    for (int w = 1; w <= max; w++)
      if (a->result[(h - 1) * max + (w - 1)] == TILESAT_UNSAT &&
          (!bw || w * h < bw * bh || (w * h == bw * bh && w < bw))) {
        bw = w;
        bh = h;
      }
  a->hard = tilesat_map_new(a->r, bw, bh, a->topo, a->periodic, err);
  return a->hard && tilesat_explain(a->hard, so, &a->why, err) == TILESAT_UNSAT;
}

/* Is max x max unsatisfiable? */
static bool analysis_hard(const tilesat_analysis *a);

tilesat_analysis *tilesat_analyze(const tilesat_rules *r, int max,
                                  tilesat_topology topo, bool periodic,
                                  const tilesat_solve_options *so,
                                  tilesat_error *err) {
  if (!r)
    ts_misuse(__func__, "NULL rules");
  if (max < 1 || max > MAX_MAX) {
    ts_error_param(err, "max", "%d is not from 1 to %d", max, MAX_MAX);
    return NULL;
  }
  tilesat_analysis *a = ts_calloc(1, sizeof *a);
  a->r = r;
  a->max = max;
  a->topo = topo;
  a->periodic = periodic;
  a->result = ts_calloc((size_t)max * (size_t)max, sizeof *a->result);
  a->appears = ts_calloc((size_t)r->ntiles, 1);
  /* a 1x1 open map takes any tile, so unused tiles are counted from 2x2
   * (from 1x1 only when --max is 1) */
  a->least = max >= 2 ? 2 : 1;
  bool ok = check_sizes(a, so, err);
  for (int t = 0; t < r->ntiles && ok; t++)
    ok = find_tile(a, t, so, err);
  if (ok && analysis_hard(a))
    ok = explain_hard(a, so, err);
  if (!ok) {
    if (ts_terminated(so)) /* said as analyze, not as the check it stopped */
      ts_error(err, "analyze", 0, "interrupted");
    tilesat_analysis_free(a);
    return NULL;
  }
  return a;
}

void tilesat_analysis_free(tilesat_analysis *a) {
  if (!a)
    return;
  tilesat_explanation_free(a->why);
  tilesat_map_free(a->hard);
  free(a->result);
  free(a->appears);
  free(a);
}

int tilesat_analysis_result(const tilesat_analysis *a, int width, int height) {
  if (width < 1 || width > a->max || height < 1 || height > a->max)
    ts_misuse(__func__, "size out of range");
  return a->result[(height - 1) * a->max + (width - 1)];
}

bool tilesat_analysis_tile_appears(const tilesat_analysis *a, int tile) {
  if (tile < 0 || tile >= a->r->ntiles)
    ts_misuse(__func__, "tile out of range");
  return a->appears[tile];
}

static bool analysis_hard(const tilesat_analysis *a) {
  int last = a->max;
  /* periodic hex: the largest even height */
  if (a->topo == TILESAT_HEX && a->periodic && last % 2)
    last--;
  return last >= 1 &&
         a->result[(last - 1) * a->max + (a->max - 1)] == TILESAT_UNSAT;
}

void tilesat_analysis_get(const tilesat_analysis *a,
                          tilesat_analysis_info *info) {
  if (!a || !info)
    ts_misuse(__func__, "NULL argument");
  *info = (tilesat_analysis_info){
      a->r, a->max, a->topo, a->periodic, a->least, analysis_hard(a), a->why};
}
