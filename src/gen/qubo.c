/* qubo.c: an energy as a QUBO in qbsolv's .qubo format (minimised).
 *
 * Variable i = cell * ntiles + tile is 1 when the cell holds the tile
 * (the seed design's x[i,j,k]).  Terms, for free cells:
 *   one-hot   P (1 - sum_t x[c,t])^2 = P - P sum x + 2P sum_{t<u} x x
 *   adjacency cost(t, d, u) x[c,t] x[n,u] per edge (hard + coherence)
 *   bias      on the diagonal
 *   frequency wf (sum_c x[c,k] + pinned_k - target_k)^2: diagonal
 *             wf (1 + 2 (pinned_k - target_k)), couplers 2 wf between every
 *             two free cells: the seed's A = B (1 - 2 sigma_k N^2), B = wf
 * Pinned cells have no variables: their edges to free cells fold into the
 * free cells' diagonals (the seed's "seeded tiles"), everything else about
 * them into the constant offset.
 *
 * Couplers are written row by row (i ascending, then j ascending), each
 * pair once, in two passes over the same generator: one to count them for
 * the header, one to write them.  No dense matrix is ever built. */
#include "gen/gen.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COUPLERS 50000000.0

typedef struct entry {
  long j;
  double v;
} entry;

static int by_j(const void *a, const void *b) {
  long x = ((const entry *)a)->j, y = ((const entry *)b)->j;
  return (x > y) - (x < y);
}

/* The couplers (i, j > i) of row i = (c, t), local ones (same cell and
 * neighbour cells) merged and sorted in `acc`; returns how many. */
static int local_row(const tilesat_energy *e, int c, int t, entry *acc) {
  const tilesat_map *m = e->map;
  int T = e->ntiles, n = 0;
  for (int u = t + 1; u < T; u++)
    acc[n++] = (entry){(long)c * T + u, 2 * e->onehot};
  for (int d = 0; d < e->ndirs; d++) {
    int nb = ts_map_neighbor(m, c, d);
    if (nb <= c || e->pin_of[nb])
      continue;
    for (int u = 0; u < T; u++) {
      double v = ts_pair_cost(e, t, d, u);
      if (v != 0)
        acc[n++] = (entry){(long)nb * T + u, v};
    }
  }
  qsort(acc, (size_t)n, sizeof *acc, by_j);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (k && acc[k - 1].j == acc[i].j)
      acc[k - 1].v += acc[i].v;
    else
      acc[k++] = acc[i];
  }
  return k;
}

static double diagonal(const tilesat_energy *e, int c, int t) {
  const tilesat_map *m = e->map;
  int T = e->ntiles;
  double v = -e->onehot + e->region_bias[e->region[c] * T + t];
  for (int d = 0; d < e->ndirs; d++) {
    int nb = ts_map_neighbor(m, c, d);
    if (nb >= 0 && nb != c && e->pin_of[nb])
      v += ts_pair_cost(e, t, d, e->pin_tile[nb]);
  }
  for (int f = 0; f < e->nforward; f++)
    if (ts_map_neighbor(m, c, e->forward[f]) == c)
      v += ts_pair_cost(e, t, e->forward[f], t);
  if (e->frequency != 0)
    v += e->frequency * (1 + 2 * (double)(e->pinned[t] - e->target[t]));
  return v;
}

static double constant(const tilesat_energy *e) {
  const tilesat_map *m = e->map;
  int T = e->ntiles;
  double k = 0;
  for (int c = 0; c < m->ncells; c++) {
    if (!e->pin_of[c]) {
      k += e->onehot;
      continue;
    }
    int p = e->pin_tile[c];
    k += e->region_bias[e->region[c] * T + p];
    for (int f = 0; f < e->nforward; f++) {
      int nb = ts_map_neighbor(m, c, e->forward[f]);
      if (nb >= 0 && e->pin_of[nb])
        k += ts_pair_cost(e, p, e->forward[f], e->pin_tile[nb]);
    }
  }
  if (e->frequency != 0)
    for (int t = 0; t < T; t++) {
      double x = (double)(e->pinned[t] - e->target[t]);
      k += e->frequency * x * x;
    }
  return k;
}

/* The couplers of variable i (cell c, tile t) with later variables: its
 * local row acc[0..n-1] merged with the frequency couplers (every free
 * c2 > c, tile t).  Counted, and written when out is not NULL. */
static long coupler_row(const tilesat_energy *e, long i, int c, int t,
                        const entry *acc, int n, FILE *out) {
  const tilesat_map *m = e->map;
  int T = e->ntiles, a = 0;
  long count = 0;
  int c2 = e->frequency != 0 ? c + 1 : m->ncells;
  for (;;) {
    while (c2 < m->ncells && e->pin_of[c2])
      c2++;
    long jf = c2 < m->ncells ? (long)c2 * T + t : -1;
    long jl = a < n ? acc[a].j : -1;
    if (jf < 0 && jl < 0)
      break;
    long j = jf;
    double v = 0;
    if (jl >= 0 && (jf < 0 || jl <= jf)) {
      j = jl;
      v += acc[a++].v;
    }
    if (j == jf) {
      v += 2 * e->frequency;
      c2++;
    }
    if (v == 0)
      continue;
    count++;
    if (out)
      fprintf(out, "%ld %ld %.17g\n", i, j, v);
  }
  return count;
}

/* One pass over all couplers: count them, or write them too. */
static long couplers(const tilesat_energy *e, FILE *out) {
  const tilesat_map *m = e->map;
  int T = e->ntiles;
  entry *acc = ts_malloc((size_t)(T * (e->ndirs + 1) + 1) * sizeof *acc);
  long count = 0;
  for (int c = 0; c < m->ncells; c++) {
    if (e->pin_of[c])
      continue;
    for (int t = 0; t < T; t++) {
      int n = local_row(e, c, t, acc);
      count += coupler_row(e, (long)c * T + t, c, t, acc, n, out);
    }
  }
  free(acc);
  return count;
}

int tilesat_energy_write_qubo(const tilesat_energy *e, FILE *out,
                              double *offset, tilesat_error *err) {
  if (!e || !out)
    ts_misuse(__func__, "NULL argument");
  if (!e->prepared)
    ts_misuse(__func__, "energy not prepared");
  if (e->palindrome != 0) {
    ts_error_param(
        err, "qubo-out",
        "the palindrome line score is not quadratic (every run of any "
        "length scores), so it has no QUBO; drop it from the energy to "
        "write one");
    return -1;
  }
  if (e->exact) {
    ts_error_param(
        err, "qubo-out",
        "'counts exact' is a hard count constraint, not a QUBO term; use "
        "'frequency W' (a penalty) instead");
    return -1;
  }
  const tilesat_map *m = e->map;
  if (tilesat_map_refuse_globals(
          m, 0, "qubo-out",
          "; a QUBO holds no global constraint, anneal keeps them", err)) {
    ts_error_mark_param(err, "qubo-out");
    return -1;
  }
  int T = e->ntiles;
  double free_cells = 0;
  for (int c = 0; c < m->ncells; c++)
    free_cells += !e->pin_of[c];
  double estimate = free_cells * T * (T - 1) / 2.0 +
                    free_cells * e->ndirs * (double)T * T / 2.0;
  if (e->frequency != 0)
    estimate += free_cells * (free_cells - 1) / 2.0 * T;
  if (estimate > MAX_COUPLERS) {
    ts_error_param(err, "qubo-out",
                   "the QUBO would have up to %.3g couplers (more than %.0f "
                   "million); use a smaller map%s",
                   estimate, MAX_COUPLERS / 1e6,
                   e->frequency != 0 ? " or drop the frequency term (a clique)"
                                     : "");
    return -1;
  }
  double k = constant(e);
  long nnodes = (long)free_cells * T;
  long ncouplers = couplers(e, NULL);
  fprintf(out,
          "c tilesat %s QUBO: %dx%d %s map, %d tiles, variable = cell * %d + "
          "tile (cell = row * %d + col)\n",
          TILESAT_VERSION, m->width, m->height, tilesat_topology_name(m->topo),
          T, T, m->width);
  fprintf(out, "c one-hot penalty %.17g, hard weight %.17g\n", e->onehot,
          e->hard);
  fprintf(out, "c offset %.17g: energy = qubo + offset\n", k);
  fprintf(out, "p qubo 0 %ld %ld %ld\n", (long)m->ncells * T, nnodes,
          ncouplers);
  for (int c = 0; c < m->ncells; c++)
    if (!e->pin_of[c])
      for (int t = 0; t < T; t++) {
        long i = (long)c * T + t;
        fprintf(out, "%ld %ld %.17g\n", i, i, diagonal(e, c, t));
      }
  couplers(e, out);
  if (offset)
    *offset = k;
  if (ferror(out)) {
    ts_error_param(err, "qubo-out", "write error");
    return -1;
  }
  return 0;
}
