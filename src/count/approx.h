/* count/approx.h: test hooks into approx.c, for tests/test_count.c only.
 * No library code calls them; they look inside one ApproxMC estimate, which
 * the public API cannot. */
#ifndef TILESAT_COUNT_APPROX_H
#define TILESAT_COUNT_APPROX_H

#include "count/count.h"

/* For the tests: distinct assignments of approx's independent support over
 * all maps, up to limit (-1: no answer); *bits: the tile-bit support. */
long ts_approx_support_count(const tilesat_map *m, long limit, bool *bits);
/* For the tests: one estimate's bounded enumerations at order[0..n-1] rows
 * (got) and how many of the given maps lie in each cell (want). */
void ts_approx_cells(const tilesat_map *m, uint64_t seed, int thresh,
                     const int *order, int n, const int *maps, long nmaps,
                     long *got, long *want);

#endif
