/* extract.c: ESTM rules from sample grids.  Tile b may stand in direction
 * d of tile a iff (a, b) was seen in direction d in some sample; weights
 * count occurrences.  Symmetric by construction: seeing b east of a is
 * seeing a west of b. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

/* The weights and pairs of one sample, its cells as tile indices (-1:
 * excluded). */
static void add_sample(tilesat_rules *rules, const int *id, int w, int h,
                       bool periodic_input) {
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      int a = id[r * w + c];
      if (a < 0) /* excluded cell */
        continue;
      rules->weight[a]++;
      for (int d = 0; d < rules->ndirs; d++) {
        int nr, nc;
        if (tilesat_neighbor(rules->topo, w, h, periodic_input, r, c, d, &nr,
                             &nc) &&
            id[nr * w + nc] >= 0)
          ts_rules_allow(rules, a, d, id[nr * w + nc]);
      }
    }
}

tilesat_rules *tilesat_extract(const tilesat_grid *const *samples,
                               size_t nsamples, tilesat_topology topo,
                               bool periodic_input, tilesat_error *err) {
  if (nsamples == 0)
    ts_misuse(__func__, "no samples");
  ts_names names = {0};
  TS_VEC(int *) ids = {0}; /* per sample: cell -> rule tile index */
  const char *over = NULL; /* the sample that brought too many tiles */
  char msg[256];
  for (size_t s = 0; s < nsamples; s++) {
    const tilesat_grid *g = samples[s];
    int w = tilesat_grid_width(g), h = tilesat_grid_height(g);
    if (topo == TILESAT_HEX && periodic_input && h % 2) {
      ts_error(err, tilesat_grid_filename(g), 0,
               "a periodic hex sample needs an even number of rows (odd-r "
               "rows alternate), this one has %d",
               h);
      goto fail;
    }
    int *id = ts_malloc((size_t)w * (size_t)h * sizeof *id);
    for (int r = 0; r < h; r++)
      for (int c = 0; c < w; c++) {
        const char *name = tilesat_grid_at(g, r, c);
        id[r * w + c] = name ? ts_names_intern(&names, name, strlen(name)) : -1;
      }
    TS_PUSH(ids, id);
    if (!over && ts_rules_too_many(names.v.n, topo, msg, sizeof msg))
      over = tilesat_grid_filename(g);
  }
  if (over) { /* said once every sample is in, with how many tiles in all */
    ts_rules_too_many(names.v.n, topo, msg, sizeof msg);
    ts_error(err, over, 0, "%s", msg);
    goto fail;
  }
  tilesat_rules *rules = ts_rules_new(topo, &names);
  for (size_t s = 0; s < nsamples; s++)
    add_sample(rules, ids.v[s], tilesat_grid_width(samples[s]),
               tilesat_grid_height(samples[s]), periodic_input);
  for (size_t s = 0; s < ids.n; s++)
    free(ids.v[s]);
  free(ids.v);
  return rules;
fail:
  for (size_t s = 0; s < ids.n; s++)
    free(ids.v[s]);
  free(ids.v);
  ts_names_free(&names);
  return NULL;
}
