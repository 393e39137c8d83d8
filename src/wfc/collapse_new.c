/* collapse_new.c: making and freeing a collapser (collapse.c runs it): the
 * rules' support lists and weights, the tables of the map's cells, what a
 * guarded collapse keeps, and the memory a collapser needs, refused before
 * anything large is allocated. */
#include "wfc/collapse_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void precompute_pairs(tilesat_collapse *c) {
  const tilesat_rules *r = c->m->rules;
  int T = c->T, D = c->D, W = c->W = (T + 63) / 64;
  c->supp_list = ts_calloc((size_t)D * (size_t)T, sizeof *c->supp_list);
  c->supp_len = ts_calloc((size_t)D * (size_t)T, sizeof *c->supp_len);
  c->abits = ts_calloc((size_t)D * (size_t)T * (size_t)W, sizeof *c->abits);
  int *buf = ts_malloc((size_t)T * sizeof *buf);
  for (int d = 0; d < D; d++)
    for (int a = 0; a < T; a++) {
      const uint64_t *set = ts_allowed(r, a, d);
      int n = 0;
      size_t k = (size_t)d * (size_t)T + (size_t)a;
      for (int b = 0; b < T; b++)
        if (ts_bit(set, b)) {
          buf[n++] = b;
          c->abits[k * (size_t)W + (size_t)(b / 64)] |= 1ull << (b % 64);
        }
      c->supp_len[k] = n;
      c->supp_list[k] = ts_malloc(((size_t)n + 1) * sizeof *buf);
      memcpy(c->supp_list[k], buf, (size_t)n * sizeof *buf);
    }
  free(buf);
}

/* A guarded collapse keeps every global constraint (borders as bans,
 * counts by propagation, connected and path constraints by cut cells and
 * regions cut off: collapse_globals.c) and masks. */
#define KEEPS                                                                  \
  ((1u << TILESAT_GLOBAL_COUNT) | (1u << TILESAT_GLOBAL_CONNECTED) |           \
   (1u << TILESAT_GLOBAL_PATH) | (1u << TILESAT_GLOBAL_BORDER) |               \
   TILESAT_KEEPS_MASK)

bool tilesat_collapse_keeps(const tilesat_map *m) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  return tilesat_map_refuse_globals(m, KEEPS, "collapse", NULL, NULL) == 0;
}

/* ---------------------------------------------------------- its memory */

/* Bytes a cell costs: its neighbours (4D), supports (2TD), possible tiles
 * (T, and 8W as a bitset, W = ceil(T / 64)), the per-cell arrays (44, and
 * 13 for the heap's deferred changes), a
 * choice and a pending removal (pairs in doubling vectors, 32) and the
 * caller's map (4); with a guard, the snapshot of the state (2TD + T + 8W
 * + 44) and the blocks' base wave (T) too.
 * Peak RSS of unguarded runs was within: coast 2000x2000 352 MiB
 * (estimate 469), Circuit 500x500 108 MiB (111), patchwork16 1000x1000
 * 200 MiB (229). */
double ts_collapse_bytes_per_cell(int T, int D, bool guard) {
  int words = (T + 63) / 64;
  double state = 2.0 * T * D + T + 8.0 * words + 44;
  return 4.0 * D + state + 13 + 32 + 4 + (guard ? state + T : 0);
}

int ts_collapse_refuse(const tilesat_map *m, const char *what,
                       tilesat_error *err) {
  double per_cell =
      ts_collapse_bytes_per_cell(m->rules->ntiles, m->rules->ndirs, true);
  return ts_memory_refuse(m, (double)m->ncells * per_cell, 0, what, err);
}

/* What every collapser has: the map (borders as bans), the rules' support
 * lists and weights; no table of the map's cells. */
static tilesat_collapse *collapse_light(const tilesat_map *m) {
  tilesat_collapse *c = ts_calloc(1, sizeof *c);
  c->own = ts_map_lowered(m);
  c->m = m = c->own ? c->own : m;
  c->T = m->rules->ntiles;
  c->D = m->rules->ndirs;
  c->N = m->ncells;
  c->opp = ts_malloc((size_t)c->D * sizeof *c->opp);
  for (int d = 0; d < c->D; d++)
    c->opp[d] = tilesat_dir_opposite(m->topo, d);
  precompute_pairs(c);
  c->map_sat = -1;
  c->level_cap = INT_MAX;
  c->mod_p = -1;
  c->w = ts_malloc((size_t)c->T * sizeof *c->w);
  c->wlogw = ts_malloc((size_t)c->T * sizeof *c->wlogw);
  for (int t = 0; t < c->T; t++) {
    c->w[t] = (double)m->rules->weight[t];
    c->wlogw[t] = c->w[t] > 0 ? c->w[t] * log(c->w[t]) : 0;
  }
  c->failed = -1;
  return c;
}

static bool tiles_ok(const tilesat_map *m, tilesat_error *err) {
  if (m->rules->ntiles <= 65535)
    return true;
  ts_error(err, "collapse", 0, "at most 65535 tiles, not %d", m->rules->ntiles);
  return false;
}

tilesat_collapse *tilesat_collapse_new_modify(const tilesat_map *m,
                                              tilesat_error *err) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  if (!tiles_ok(m, err))
    return NULL;
  tilesat_collapse *c = collapse_light(m);
  c->light = true;
  return c;
}

tilesat_collapse *tilesat_collapse_new(const tilesat_map *m,
                                       tilesat_error *err) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  if (!tiles_ok(m, err))
    return NULL;
  if (ts_map_large(m)) {
    ts_error(err, "collapse", 0,
             "%dx%d with %d tiles is too large for a run on the whole map (at "
             "most %d cells times tiles); --guard modify goes past it",
             m->width, m->height, m->rules->ntiles, TILESAT_MAX_CELL_TILES);
    return NULL;
  }
  if (collapse_refuse(m, false, err)) /* memory */
    return NULL;
  tilesat_collapse *c = collapse_light(m);
  m = c->m;
  int T = c->T, D = c->D, N = c->N;
  c->nbr = ts_malloc((size_t)N * (size_t)D * sizeof *c->nbr);
  for (int cell = 0; cell < N; cell++)
    for (int d = 0; d < D; d++)
      c->nbr[(size_t)cell * (size_t)D + (size_t)d] =
          ts_map_neighbor(m, cell, d);
  size_t NT = (size_t)N * (size_t)T;
  c->support = ts_malloc(NT * (size_t)D * sizeof *c->support);
  c->possible = ts_malloc(NT);
  c->pbits = ts_malloc((size_t)N * (size_t)c->W * sizeof *c->pbits);
  c->count = ts_malloc((size_t)N * sizeof *c->count);
  c->sum_w = ts_malloc((size_t)N * sizeof *c->sum_w);
  c->sum_wlogw = ts_malloc((size_t)N * sizeof *c->sum_wlogw);
  c->entropy = ts_malloc((size_t)N * sizeof *c->entropy);
  c->key = ts_malloc((size_t)N * sizeof *c->key);
  c->heap = ts_malloc((size_t)N * sizeof *c->heap);
  c->pos = ts_malloc((size_t)N * sizeof *c->pos);
  c->pend = ts_malloc((size_t)N * sizeof *c->pend);
  c->dirty = ts_malloc((size_t)N * sizeof *c->dirty);
  c->dirty_on = ts_calloc((size_t)N, sizeof *c->dirty_on);
  c->cg = ts_cg_new(c); /* borders are bans (ts_map_lowered); the others */
  return c;
}

void tilesat_collapse_free(tilesat_collapse *c) {
  if (!c)
    return;
  tilesat_map_free(c->own);
  for (size_t k = 0; k < (size_t)c->D * (size_t)c->T; k++)
    free(c->supp_list[k]);
  free(c->supp_list);
  free(c->supp_len);
  free(c->abits);
  free(c->nbr);
  free(c->opp);
  free(c->support);
  free(c->possible);
  free(c->pbits);
  free(c->done);
  free(c->ubits);
  free(c->utab);
  free(c->count);
  free(c->sum_w);
  free(c->sum_wlogw);
  free(c->entropy);
  free(c->key);
  free(c->heap);
  free(c->pos);
  free(c->pend);
  free(c->dirty);
  free(c->dirty_on);
  free(c->w);
  free(c->wlogw);
  free(c->stack.v);
  free(c->choices.v);
  ts_solver_free(c->solver);
  ts_cuts_free(c->cuts);
  ts_cg_free(c->cg);
  free(c->dooms.v);
  free(c->doomed.v);
  ts_collapse_snapshot *snaps[4] = {&c->snap, &c->old, &c->probe,
                                    &c->start_snap};
  for (int i = 0; i < 4; i++) {
    free(snaps[i]->support);
    free(snaps[i]->possible);
    free(snaps[i]->pbits);
    free(snaps[i]->count);
    free(snaps[i]->heap);
    free(snaps[i]->pos);
    free(snaps[i]->sum_w);
    free(snaps[i]->sum_wlogw);
    free(snaps[i]->entropy);
    free(snaps[i]->key);
  }
  free(c->empties.v);
  free(c->base);
  free(c->mod_tiles);
  free(c->mod_w);
  free(c->open_memo);
  free(c->open_seen);
  free(c);
}
