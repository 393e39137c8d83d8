/* look_seams.h: do collapse --guard modify's seams show (issue 32)?  The
 * measure shared by tests/test_modify_look.c and tools/bench-look.c.
 *
 * Seams: the neighbour pairs (east and south) whose two cells were made
 * last by different blocks of modify's layers (ts_mod_last_blocks; one of
 * them made with the other fixed in its margin).  Middles: the pairs of
 * the two lines either side of each block's middle line, inside the block
 * that made both cells last (as many lines as its two seams).  On a
 * periodic map of 16x16 blocks, the last layer's seams are rows 6|7 and
 * 8|9 and columns 14|15 and 0|1 modulo 16, its middles those lines moved
 * by (8, 8): a translation swaps the two sets.
 *
 * The test: a map's pairs are not independent (a wire of Circuit crosses
 * many lines), so the map is the unit.  Per map, the histogram of its seam
 * pairs and that of its middle pairs (by direction and tiles); the
 * statistic, Pearson's chi-square of homogeneity of the pooled seam
 * histogram against the pooled middle one (pairs whose pooled count is
 * under LOOK_RARE pooled into one column per direction, the directions'
 * statistics summed); its null by swapping the two histograms of each map
 * at random (a sign flip of the map's difference: under the null, on a
 * map whose distribution a translation keeps that swaps seams and
 * middles, a plain WFC torus, the swap changes nothing), p = (1 + #{null
 * >= observed}) / (1 + perms), seeded.  The chi-square's own p (pairs as
 * independent) is given beside it: anti-conservative on maps with long
 * features. */
#ifndef TILESAT_TESTS_LOOK_SEAMS_H
#define TILESAT_TESTS_LOOK_SEAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tilesat.h"

#define LOOK_EDGE 8  /* an open map's pairs this near its edge: left out */
#define LOOK_RARE 10 /* pooled pairs under it: one column per direction */

/* The maps' pair histograms, all of one size and geometry. */
typedef struct look_seams {
  int T, w, h;
  bool periodic;
  int n, cap;    /* maps */
  int *cnt;      /* per map, [kind 0 middle, 1 seam][dir][a * T + b] */
  int *id;       /* ts_mod_last_blocks' */
  void *in;      /* ts_mod_rect per cell */
  long pairs[2]; /* middle and seam pairs a map */
} look_seams;

typedef struct look_result {
  double stat;    /* the chi-square of the pooled histograms */
  int df;         /* its degrees of freedom */
  double p;       /* the permutation's */
  double p_pairs; /* the chi-square's own (pairs as independent) */
  int perms;
} look_result;

/* An empty set of maps w x h (periodic or not) of T tiles, seams where
 * modify with this seed puts them. */
void look_seams_init(look_seams *s, int T, int w, int h, bool periodic,
                     uint64_t seed);
void look_seams_free(look_seams *s);
/* A map's pairs. */
void look_seams_add(look_seams *s, const int *tiles);
/* The test, perms swaps drawn from seed. */
look_result look_seams_test(const look_seams *s, int perms, uint64_t seed);
/* The n pairs that add most to the statistic: direction, tiles, seam
 * count against its expectation. */
void look_seams_top(const look_seams *s, const tilesat_rules *r, int n,
                    FILE *out);

/* Are kind's pairs (0 middles, 1 seams) of a's maps like those of b's?
 * Pearson's chi-square of the pooled histograms, its null by shuffling
 * the maps between a and b (perms times, from seed). */
look_result look_seams_versus(const look_seams *a, const look_seams *b,
                              int kind, int perms, uint64_t seed);

/* Chi-square's survival function: p of x on df degrees of freedom. */
double look_chi2_p(double x, int df);
/* The regularized upper incomplete gamma Q(a, x). */
double look_gamma_q(double a, double x);

#endif
