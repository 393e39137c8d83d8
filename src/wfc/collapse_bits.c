/* collapse_bits.c: propagation by tile bitsets, for the collapsers of
 * modify's blocks (modify.c turns it on for them, but for the blocks of
 * its calibration, which keep AC-4's order and so its weights).
 *
 * The same arc consistency as collapse.c's AC-4 counts, AC-3 style: a
 * cell whose possible set changed is taken from a queue (c->stack, read
 * first in first out: a cell changed from several sides waits for them
 * all, Rooms 512x512 periodic 2.05 s last in first out, 1.40 s so), once
 * for the changes before it is taken, and each neighbour keeps the tiles
 * that some tile still possible at the cell allows in that direction, all
 * the others removed at once (ts_collapse_ban_bits).  That union of allowed
 * sets is OR-ed from a table of the unions of every subset of each chunk of 4
 * or 8 tiles (one line of the table a chunk, every direction in it), or tile by
 * tile for a cell of few tiles (a decided one: one row).  The wave after a
 * propagation is the same (arc consistency has one fixpoint, and a run
 * fails where it has an empty cell either way), but the bans come in
 * another order, one draw of the heap's noise for each word of a cell's
 * removals: the ties between cells of equal entropy break otherwise, so
 * a block's maps are others than AC-4's, equally WFC's.  A block's WFC
 * runs remove nearly every tile of each of its cells one at a time
 * (Rooms: 83 of 84), which AC-4 pays four neighbours for each. */
#include "wfc/collapse_internal.h"

#include <stdlib.h>
#include <string.h>

/* The table's bytes at most: chunks of 8 tiles while it fits in
 * UTAB_BYTES (Rooms, 84 tiles: 180 KB), else of 4 while it fits in
 * UTAB_MOST, else none (tile by tile). */
#define UTAB_BYTES ((size_t)256 * 1024)
#define UTAB_MOST ((size_t)4 * 1024 * 1024)
/* An entry's words: all directions' unions, UTAB_LINE words (a cache line,
 * zeros past D * W) when they fit. */
#define UTAB_LINE 8

static size_t utab_stride(const tilesat_collapse *c) {
  size_t dw = (size_t)c->D * (size_t)c->W;
  return dw <= UTAB_LINE ? UTAB_LINE : dw;
}

static size_t utab_words(const tilesat_collapse *c, int ubit) {
  size_t chunks = (size_t)(c->T + ubit - 1) / (size_t)ubit;
  return chunks * ((size_t)1 << ubit) * utab_stride(c);
}

/* The table: entry (chunk j, subset s) is the union over the tiles
 * j * ubit + i with bit i of s, from the entry of s without its highest
 * bit. */
static void utab_make(tilesat_collapse *c) {
  const size_t W = (size_t)c->W, DW = utab_stride(c), T = (size_t)c->T;
  c->ubit = utab_words(c, 8) * sizeof *c->utab <= UTAB_BYTES  ? 8
            : utab_words(c, 4) * sizeof *c->utab <= UTAB_MOST ? 4
                                                              : 0;
  if (!c->ubit)
    return;
  const size_t n = (size_t)1 << c->ubit;
  c->utab = ts_calloc(utab_words(c, c->ubit), sizeof *c->utab);
  for (size_t j = 0; j * (size_t)c->ubit < T; j++)
    for (size_t s = 1; s < n; s++) {
      size_t hi = 63 - (size_t)__builtin_clzll(s), t = j * (size_t)c->ubit + hi;
      uint64_t *e = c->utab + (j * n + s) * DW;
      const uint64_t *rest = c->utab + (j * n + (s & ~((size_t)1 << hi))) * DW;
      for (size_t d = 0; d < (size_t)c->D && t < T; d++)
        for (size_t k = 0; k < W; k++)
          e[d * W + k] = rest[d * W + k] | c->abits[(d * T + t) * W + k];
    }
}

void ts_collapse_bits_on(tilesat_collapse *c) {
  if (c->cg || c->light || c->done)
    return;
  /* set by each start (and restore) */
  c->done = ts_malloc((size_t)c->N * (size_t)c->W * sizeof *c->done);
  c->ubits = ts_malloc((size_t)c->D * (size_t)c->W * sizeof *c->ubits);
  utab_make(c);
}

/* u: the table's entries of poss's chunks OR-ed. */
static void unions_table(const tilesat_collapse *c, const uint64_t *poss,
                         uint64_t *u) {
  const size_t T = (size_t)c->T, ubit = (size_t)c->ubit, n = (size_t)1 << ubit,
               S = utab_stride(c);
  if (S == UTAB_LINE) { /* a line a chunk, OR-ed in registers */
    uint64_t acc[UTAB_LINE] = {0};
    for (size_t j = 0; j * ubit < T; j++) {
      size_t s = (size_t)(poss[j * ubit / 64] >> (j * ubit % 64)) & (n - 1);
      const uint64_t *e = c->utab + (j * n + s) * UTAB_LINE;
      for (size_t k = 0; k < UTAB_LINE; k++)
        acc[k] |= e[k];
    }
    memcpy(u, acc, (size_t)c->D * (size_t)c->W * sizeof *u);
    return;
  }
  memset(u, 0, S * sizeof *u);
  for (size_t j = 0; j * ubit < T; j++) {
    size_t s = (size_t)(poss[j * ubit / 64] >> (j * ubit % 64)) & (n - 1);
    const uint64_t *e = c->utab + (j * n + s) * S;
    for (size_t k = 0; k < S; k++)
      u[k] |= e[k];
  }
}

/* u[d][w]: the tiles the tiles possible at cell allow in direction d. */
static void unions(const tilesat_collapse *c, int cell, uint64_t *u) {
  const size_t W = (size_t)c->W, DW = (size_t)c->D * W, T = (size_t)c->T;
  const size_t ubit = (size_t)c->ubit;
  const uint64_t *poss = c->pbits + (size_t)cell * W;
  if (ubit && (size_t)c->count[cell] * 2 > (T + ubit - 1) / ubit) {
    unions_table(c, poss, u);
    return;
  }
  memset(u, 0, DW * sizeof *u);
  for (size_t w = 0; w < W; w++)
    for (uint64_t m = poss[w]; m; m &= m - 1) {
      size_t t = w * 64 + (size_t)__builtin_ctzll(m);
      for (size_t d = 0; d < (size_t)c->D; d++) {
        const uint64_t *a = c->abits + (d * T + t) * W;
        for (size_t k = 0; k < W; k++)
          u[d * W + k] |= a[k];
      }
    }
}

/* Has cell changed since it was last propagated? (done := its set) */
static bool changed(tilesat_collapse *c, int cell) {
  const size_t W = (size_t)c->W;
  uint64_t *poss = c->pbits + (size_t)cell * W,
           *done = c->done + (size_t)cell * W;
  bool ch = false;
  for (size_t w = 0; w < W; w++) {
    ch |= poss[w] != done[w];
    done[w] = poss[w];
  }
  return ch;
}

void ts_collapse_propagate_bits(tilesat_collapse *c) {
  const size_t W = (size_t)c->W, D = (size_t)c->D;
  for (size_t q = 0; q < c->stack.n && c->contradiction < 0; q++) {
    int cell = c->stack.v[q].cell;
    if (!changed(c, cell))
      continue; /* propagated as it is */
    unions(c, cell, c->ubits);
    for (size_t d = 0; d < D && c->contradiction < 0; d++) {
      int n = c->nbr[(size_t)cell * D + d];
      if (n < 0)
        continue;
      for (size_t w = 0; w < W && c->contradiction < 0; w++) {
        uint64_t gone = c->pbits[(size_t)n * W + w] & ~c->ubits[d * W + w];
        if (gone)
          ts_collapse_ban_bits(c, n, (int)w, gone);
      }
    }
  }
  c->stack.n = 0;
}
