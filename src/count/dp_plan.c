/* dp_plan.c: the frontier DP's plan (dp.c counts by it): the order of the
 * cells, the key window and the anchors, each position's earlier
 * neighbours, the masks of what a position still needs, and what leaves
 * the key when a cell is placed. */
#include "count/dp.h"

#include <stdlib.h>
#include <string.h>

void ts_dp_plan_free(ts_dp_plan *p) {
  free(p->cell);
  free(p->pos);
  free(p->nb_start);
  free(p->nb_slot);
  free(p->nb_dir);
  free(p->nb_pos);
  free(p->anchor_slot);
  free(p->pin);
  free(p->ban);
  free(p->place_mask);
  free(p->nb_mask);
  free(p->rm_start);
  free(p->rm_wslot);
  free(p->rm_aslot);
  free(p->rm_from);
  free(p->rm_to);
  free(p->rm_pos);
  free(p->nbr);
}

int ts_dp_pending(const ts_dp_plan *p, int q, int after) {
  int mask = 0;
  for (int d = 0; d < p->ndirs; d++)
    if (p->nbr[q * p->ndirs + d] > after)
      mask |= 1 << d;
  return mask;
}

/* The key window K (the largest gap to an earlier neighbour, leaving out
 * the long wrap-around edges, gap > 2 lines, whose earlier ends become
 * anchors) and the anchors' slots after it. */
static void plan_window(const tilesat_map *m, const int *pos, int stride,
                        ts_dp_plan *p) {
  int n = p->ncells, K = 0;
  bool *anchor = ts_calloc((size_t)n, sizeof *anchor);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < m->rules->ndirs; d++) {
      int nb = ts_map_neighbor(m, p->cell[i], d);
      if (nb < 0 || pos[nb] >= i)
        continue;
      int gap = i - pos[nb];
      if (gap > 2 * stride)
        anchor[pos[nb]] = true;
      else if (gap > K)
        K = gap;
    }
  p->K = K > 0 ? K : 1; /* the last placed tile always stays in the key */
  K = p->K;
  p->anchor_slot = ts_malloc((size_t)n * sizeof *p->anchor_slot);
  for (int i = 0; i < n; i++)
    p->anchor_slot[i] = anchor[i] ? K + p->nanchor++ : -1;
  p->L = K + p->nanchor;
  p->keywords = (p->L + 7) / 8;
  free(anchor);
}

/* Position i's earlier (or own) neighbours: key slot, direction and
 * position. */
static void neighbours_at(const tilesat_map *m, const int *pos, int stride,
                          int i, const ts_dp_plan *p, ts_ints *slots,
                          ts_ints *dirs, ts_ints *npos) {
  for (int d = 0; d < m->rules->ndirs; d++) {
    int nb = ts_map_neighbor(m, p->cell[i], d);
    if (nb < 0 || pos[nb] > i)
      continue;
    int gap = i - pos[nb];
    int slot = gap == 0           ? -1
               : gap > 2 * stride ? p->anchor_slot[pos[nb]]
                                  : p->K - gap;
    TS_PUSH(*slots, slot);
    TS_PUSH(*dirs, d);
    TS_PUSH(*npos, pos[nb]);
  }
}

static void plan_neighbours(const tilesat_map *m, const int *pos, int stride,
                            ts_dp_plan *p) {
  int n = p->ncells;
  p->nb_start = ts_malloc((size_t)(n + 1) * sizeof *p->nb_start);
  ts_ints slots = {0}, dirs = {0}, npos = {0};
  for (int i = 0; i < n; i++) {
    p->nb_start[i] = (int)slots.n;
    neighbours_at(m, pos, stride, i, p, &slots, &dirs, &npos);
  }
  p->nb_start[n] = (int)slots.n;
  p->nb_slot = slots.v;
  p->nb_dir = dirs.v;
  p->nb_pos = npos.v;
}

static void push_removal(ts_ints rm[5], int wslot, int aslot, int from, int to,
                         int pos) {
  TS_PUSH(rm[0], wslot);
  TS_PUSH(rm[1], aslot);
  TS_PUSH(rm[2], from);
  TS_PUSH(rm[3], to);
  TS_PUSH(rm[4], pos);
}

/* What placing position i takes out of the key: each earlier neighbour
 * once, its window and anchor slots (rm[0], rm[1]), its ts_dp_pending mask
 * before and after (rm[2], rm[3]) and its position (rm[4]); and the
 * neighbours' masks before it. */
static void removals_at(int i, ts_dp_plan *p, ts_ints rm[5]) {
  int K = p->K;
  for (int k = p->nb_start[i]; k < p->nb_start[i + 1]; k++) {
    int j = p->nb_pos[k];
    p->nb_mask[k] = ts_dp_pending(p, j, i - 1);
    if (j == i || seen_before(p, i, k))
      continue;      /* the cell itself is not in the key yet */
    int gap = i - j; /* j's window slot after the shift: K - 1 - gap */
    int wslot = gap <= K - 1 ? K - 1 - gap : -1;
    push_removal(rm, wslot, p->anchor_slot[j], p->nb_mask[k],
                 ts_dp_pending(p, j, i), j);
  }
}

static void plan_masks(ts_dp_plan *p) {
  int n = p->ncells;
  size_t nslots = (size_t)p->nb_start[n];
  p->place_mask = ts_malloc((size_t)n * sizeof *p->place_mask);
  p->nb_mask = ts_malloc((nslots + 1) * sizeof *p->nb_mask);
  p->rm_start = ts_malloc((size_t)(n + 1) * sizeof *p->rm_start);
  ts_ints rm[5] = {{0}, {0}, {0}, {0}, {0}};
  for (int i = 0; i < n; i++) {
    p->place_mask[i] = ts_dp_pending(p, i, i);
    p->rm_start[i] = (int)rm[0].n;
    removals_at(i, p, rm);
  }
  p->rm_start[n] = (int)rm[0].n;
  p->rm_wslot = rm[0].v;
  p->rm_aslot = rm[1].v;
  p->rm_from = rm[2].v;
  p->rm_to = rm[3].v;
  p->rm_pos = rm[4].v;
}

/* Build the plan for one order (row-major or column-major). */
void ts_dp_plan_build(const tilesat_map *m, bool column_major, ts_dp_plan *p) {
  int n = m->ncells, W = m->width, H = m->height;
  memset(p, 0, sizeof *p);
  p->ncells = n;
  p->T = m->rules->ntiles;
  p->cell = ts_malloc((size_t)n * sizeof *p->cell);
  int *pos = ts_malloc((size_t)n * sizeof *pos);
  for (int i = 0; i < n; i++) {
    int cell = column_major ? (i % H) * W + i / H : i;
    p->cell[i] = cell;
    pos[cell] = i;
  }
  p->ndirs = m->rules->ndirs;
  p->nbr = ts_malloc((size_t)n * (size_t)p->ndirs * sizeof *p->nbr);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < p->ndirs; d++) {
      int nb = ts_map_neighbor(m, p->cell[i], d);
      p->nbr[i * p->ndirs + d] = nb >= 0 ? pos[nb] : -1;
    }
  int stride = column_major ? H : W;
  p->stride = stride;
  plan_window(m, pos, stride, p);
  plan_neighbours(m, pos, stride, p);
  plan_masks(p);
  p->pin = ts_malloc((size_t)n * sizeof *p->pin);
  for (int i = 0; i < n; i++)
    p->pin[i] = -1;
  for (size_t k = 0; k < m->pins.n; k++) {
    int *slot = &p->pin[pos[m->pins.v[k].cell]];
    int t = m->pins.v[k].tile;
    *slot = (*slot == -1 || *slot == t) ? t : -2; /* two pins: no tile */
  }
  size_t tw = (size_t)(p->T + 63) / 64;
  p->ban = m->bans.n ? ts_calloc((size_t)n * tw, sizeof *p->ban) : NULL;
  for (size_t k = 0; k < m->bans.n; k++) {
    int t = m->bans.v[k].tile;
    p->ban[(size_t)pos[m->bans.v[k].cell] * tw + (size_t)(t >> 6)] |=
        (uint64_t)1 << (t & 63);
  }
  /* A masked cell has no neighbours (ts_map_neighbor) and one way to be
   * filled: tile 0 stands for its TILESAT_NO_TILE, in no constraint's
   * class (dp_global.c). */
  for (int i = 0; i < n; i++)
    if (ts_masked(m, p->cell[i])) {
      p->pin[i] = 0;
      if (p->ban)
        memset(p->ban + (size_t)i * tw, 0, tw * sizeof *p->ban);
    }
  p->pos = pos;
}
