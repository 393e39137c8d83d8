/* bounds_reflection.c: the reflection lower bound (bounds.c says when it
 * holds and why, at the top): a mirror of the rules with a positive
 * semidefinite kernel, checked exactly, makes log Z convex in the width, so
 * the free strips' exact counts bound the whole map's from below. */
#include "count/bounds.h"

#include <stdlib.h>

/* Directions (square): N E S W = 0 1 2 3.  Across axis 0 the cuts are
 * between columns (E), the lines kept are columns (N); axis 1: S and E. */
static void axis_dirs(int axis, int *across, int *keep) {
  *across = axis ? 2 : 1;
  *keep = axis ? 1 : 0;
}

static bool al(const tilesat_rules *r, int a, int d, int b) {
  return ts_bit(ts_allowed(r, a, d), b);
}

/* Is tile a's image s[a] consistent with every tile already mapped? */
static bool mirror_fits(const tilesat_rules *r, int across, int keep,
                        const int *s, int a) {
  for (int b = 0; b < r->ntiles; b++) {
    if (s[b] < 0)
      continue;
    if (al(r, a, across, b) != al(r, s[b], across, s[a]) ||
        al(r, b, across, a) != al(r, s[a], across, s[b]) ||
        al(r, a, keep, b) != al(r, s[a], keep, s[b]) ||
        al(r, b, keep, a) != al(r, s[b], keep, s[a]))
      return false;
  }
  return true;
}

/* Backtracking for an involution s with a X b <=> s(b) X s(a) across and
 * a Y b <=> s(a) Y s(b) along the kept lines; at most *budget steps. */
static bool mirror_search(const tilesat_rules *r, int across, int keep, int *s,
                          int a, long *budget) {
  int T = r->ntiles;
  while (a < T && s[a] >= 0)
    a++;
  if (a == T)
    return true;
  for (int t = a; t < T; t++) {
    if (s[t] >= 0 || --*budget < 0)
      continue;
    s[a] = t;
    s[t] = a;
    if (mirror_fits(r, across, keep, s, a) &&
        mirror_fits(r, across, keep, s, t) &&
        mirror_search(r, across, keep, s, a + 1, budget))
      return true;
    s[a] = s[t] = -1;
  }
  return false;
}

/* Is the symmetric 0/1 matrix k (n x n) positive semidefinite?  Exactly:
 * symmetric elimination over the rationals. */
static bool psd(const char *k, int n) {
  mpq_t *a = ts_malloc((size_t)n * (size_t)n * sizeof *a), f, p;
  for (int i = 0; i < n * n; i++)
    mpq_init(a[i]), mpq_set_ui(a[i], (unsigned long)k[i], 1);
  mpq_init(f);
  mpq_init(p);
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    mpq_set(p, a[i * n + i]);
    if (mpq_sgn(p) < 0) {
      ok = false;
    } else if (!mpq_sgn(p)) { /* a zero pivot needs a zero row */
      for (int j = i + 1; j < n; j++)
        ok = ok && !mpq_sgn(a[i * n + j]);
    } else {
      for (int j = i + 1; j < n; j++) {
        mpq_div(f, a[j * n + i], p);
        for (int l = i; l < n; l++) {
          mpq_t t;
          mpq_init(t);
          mpq_mul(t, f, a[i * n + l]);
          mpq_sub(a[j * n + l], a[j * n + l], t);
          mpq_clear(t);
        }
      }
    }
  }
  for (int i = 0; i < n * n; i++)
    mpq_clear(a[i]);
  free(a);
  mpq_clear(f);
  mpq_clear(p);
  return ok;
}

/* Does the reflection bound hold across this axis (see the top)? */
bool ts_bounds_reflection_applies(const tilesat_map *m, int axis) {
  const tilesat_rules *r = m->rules;
  if (m->topo != TILESAT_SQUARE || m->periodic || m->pins.n || m->bans.n)
    return false;
  int T = r->ntiles, across, keep;
  axis_dirs(axis, &across, &keep);
  int *s = ts_malloc((size_t)T * sizeof *s);
  for (int t = 0; t < T; t++)
    s[t] = -1;
  long budget = 1000000;
  bool found = mirror_search(r, across, keep, s, 0, &budget);
  /* K(t,u) = [t across s(u)], one row per distinct row (a repeated row and
   * column leaves the semidefiniteness as it is) */
  char *k = NULL;
  int n = 0;
  if (found) {
    k = ts_malloc((size_t)T * (size_t)T);
    int *rep = ts_malloc((size_t)T * sizeof *rep);
    for (int t = 0; t < T; t++) {
      bool seen = false;
      for (int i = 0; i < n && !seen; i++) {
        seen = true;
        for (int u = 0; u < T && seen; u++)
          seen = al(r, t, across, s[u]) == al(r, rep[i], across, s[u]);
      }
      if (!seen)
        rep[n++] = t;
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        k[i * n + j] = (char)al(r, rep[i], across, s[rep[j]]);
    free(rep);
  }
  bool ok = found && psd(k, n);
  free(k);
  free(s);
  return ok;
}

/* The reflection bound from the free strips counted across the axis
 * (b->strip[1..probed]); 0 if they are too few. */
void ts_bounds_reflection_bound(ts_bounds *b, int axis, mpz_t lower, char *why,
                                size_t whylen) {
  const tilesat_map *m = b->m;
  int W = along(m, axis), even = W % 2 ? W + 1 : W;
  int k = b->probed < even ? b->probed : even;
  k -= k % 2;
  mpz_set_ui(lower, 0);
  if (k < 4 || !mpz_sgn(b->strip[k - 2]))
    return;
  /* Z(even) >= ceil(Z(k)^(j+1) / Z(k-2)^j), j = (even - k) / 2 */
  unsigned long j = (unsigned long)(even - k) / 2;
  mpz_t num, den;
  mpz_inits(num, den, NULL);
  mpz_pow_ui(num, b->strip[k], j + 1);
  mpz_pow_ui(den, b->strip[k - 2], j);
  mpz_cdiv_q(lower, num, den);
  if (even != W) /* Z(W) >= Z(W+1) / Z(1) */
    mpz_cdiv_q(lower, lower, b->strip[1]);
  mpz_clears(num, den, NULL);
  snprintf(why, whylen,
           "proved: reflection (the rules' mirror has a positive "
           "semidefinite kernel, so log Z is convex in the %s): from the "
           "exact counts of strips of %d and %d %s%s",
           axis ? "height" : "width", k - 2, k, line_name(axis, 2),
           even != W ? " and of one" : "");
}
