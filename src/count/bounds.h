/* count/bounds.h: the bounds' state (bounds.c), shared with the
 * reflection bound (bounds_reflection.c). */
#ifndef TILESAT_COUNT_BOUNDS_H
#define TILESAT_COUNT_BOUNDS_H

#include "count/count.h"

#include <stdio.h>

typedef struct cached {
  uint64_t hash;
  ts_ints sig;
  mpz_t count;
} cached;

struct ts_bounds {
  const tilesat_map *m;
  const tilesat_count_options *o;
  tilesat_count_options dpo; /* o with bounds' terminate and progress */
  double start, deadline;    /* deadline: of the dp calls, 0 none */
  bool out_of_time;          /* the last dp call ran past the deadline */
  const char *prefix;        /* of progress lines: "bounds: " */
  char phase[96];            /* what is being counted, for progress */
  /* pins and bans of each cell: [start[c], start[c+1]) */
  int *pin_start, *pin_tile, *ban_start, *ban_tile;
  TS_VEC(cached) cache;
  /* free strips probed across the axis: seconds[k], strip[k] (k lines) */
  int axis, probed;
  double seconds[TS_BOUNDS_MAX_WIDTH + 1];
  mpz_t strip[TS_BOUNDS_MAX_WIDTH + 1];
  char why_not[sizeof(((tilesat_error *)0)->msg)]; /* the last dp failure */
  double budget;      /* seconds of CPU for the bounds, 0: no limit */
  int *wmap;          /* a valid map, for cut lines */
  bool tried_witness; /* wmap was looked for */
};

/* Along the axis: columns (axis 0: strips of columns, cut columns) or rows
 * (axis 1). */
static inline int along(const tilesat_map *m, int axis) {
  return axis ? m->height : m->width;
}

static inline const char *line_name(int axis, int n) {
  return axis ? (n == 1 ? "row" : "rows") : (n == 1 ? "column" : "columns");
}

/* The upper bound is the count itself: so is the lower. */
static inline void exact(ts_bounds_result *res, const char *why) {
  mpz_set(res->lower, res->upper);
  res->have_upper = true;
  if (why != res->upper_why)
    snprintf(res->upper_why, sizeof res->upper_why, "%s", why);
  snprintf(res->lower_why, sizeof res->lower_why, "%s", res->upper_why);
}

/* The reflection bound (bounds_reflection.c): does it hold across this
 * axis, and its value from the free strips counted across it. */
bool ts_bounds_reflection_applies(const tilesat_map *m, int axis);
void ts_bounds_reflection_bound(ts_bounds *b, int axis, mpz_t lower, char *why,
                                size_t whylen);

#endif
