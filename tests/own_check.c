/* own_check.c: the tests' own reading of global constraints, masks and
 * pins (own_check.h). */
#include "own_check.h"

#include <stdlib.h>

/* The test's flood fill: regions of the class cells; comp[c] the region
 * or -1; returns how many. */
int own_regions(const spec *s, const int *tiles, int *comp) {
  int n = s->w * s->h, nd = s->topo == TILESAT_HEX ? 6 : 4, R = 0;
  int *stack = malloc((size_t)n * sizeof *stack);
  for (int c = 0; c < n; c++)
    comp[c] = -1;
  for (int c = 0; c < n; c++) {
    if (!s->in[tiles[c]] || comp[c] >= 0)
      continue;
    int top = 0;
    stack[top++] = c;
    comp[c] = R;
    while (top) {
      int u = stack[--top];
      for (int d = 0; d < nd; d++) {
        int nr, nc;
        if (!brute_neighbor(s->topo, s->w, s->h, s->periodic, u / s->w,
                            u % s->w, d, &nr, &nc))
          continue;
        int v = nr * s->w + nc;
        if (s->in[tiles[v]] && comp[v] < 0) {
          comp[v] = R;
          stack[top++] = v;
        }
      }
    }
    R++;
  }
  free(stack);
  return R;
}

bool keeps(void *user, const int *tiles) {
  const spec *s = user;
  int n = s->w * s->h;
  if (s->kind == TILESAT_GLOBAL_COUNT) {
    int k = 0;
    for (int c = 0; c < n; c++) {
      int r = c / s->w, col = c % s->w;
      k += r >= s->r0 && r <= s->r1 && col >= s->c0 && col <= s->c1 &&
           s->in[tiles[c]];
    }
    return s->cmp == 0 ? k <= s->k : s->cmp == 1 ? k >= s->k : k == s->k;
  }
  if (s->kind == TILESAT_GLOBAL_BORDER) {
    for (int c = 0; c < n; c++) {
      int r = c / s->w, col = c % s->w;
      bool on = (s->side[0] && r == 0) || (s->side[2] && r == s->h - 1) ||
                (s->side[3] && col == 0) || (s->side[1] && col == s->w - 1);
      if (on && !s->in[tiles[c]])
        return false;
    }
    return true;
  }
  int *comp = malloc((size_t)n * sizeof *comp);
  int R = own_regions(s, tiles, comp);
  bool ok = true;
  if (s->kind == TILESAT_GLOBAL_CONNECTED) {
    ok = R <= 1 && !(s->nonempty && R == 0) && !(s->at >= 0 && comp[s->at] < 0);
  } else {
    for (int i = 0; i < s->ncells; i++)
      ok = ok && comp[s->cells[i]] >= 0 &&
           comp[s->cells[i]] == comp[s->cells[0]];
  }
  free(comp);
  return ok;
}

/* -------------------------------------------------------- random cases */

/* The class as the file writes it: "a,c". */
void class_word(const spec *s, int T, char *out) {
  int n = 0;
  for (int t = 0; t < T; t++)
    if (s->in[t]) {
      if (n)
        out[n++] = ',';
      out[n++] = (char)('a' + t);
    }
  out[n] = 0;
}

/* A random constraint over T tiles and the constraints-file line for it. */
void random_spec(spec *s, int T, char *line, size_t size) {
  char cls[32];
  bool any = false;
  for (int t = 0; t < T; t++)
    any |= s->in[t] = rnd(2);
  if (!any)
    s->in[rnd((unsigned)T)] = true;
  class_word(s, T, cls);
  int kinds = s->periodic ? 3 : 4; /* no border on a periodic map */
  s->kind = (tilesat_global_kind)rnd((unsigned)kinds);
  s->at = -1;
  int n = s->w * s->h;
  static const char *const cmps[] = {"<=", ">=", "="};
  if (s->kind == TILESAT_GLOBAL_COUNT) {
    s->cmp = (int)rnd(3);
    s->r0 = (int)rnd((unsigned)s->h);
    s->c0 = (int)rnd((unsigned)s->w);
    s->r1 = s->r0 + (int)rnd((unsigned)(s->h - s->r0));
    s->c1 = s->c0 + (int)rnd((unsigned)(s->w - s->c0));
    int cells = (s->r1 - s->r0 + 1) * (s->c1 - s->c0 + 1);
    s->k = (int)rnd((unsigned)cells + 2);
    snprintf(line, size, "count %s %s %d rect %d,%d:%d,%d", cls, cmps[s->cmp],
             s->k, s->r0, s->c0, s->r1, s->c1);
  } else if (s->kind == TILESAT_GLOBAL_CONNECTED) {
    int mode = (int)rnd(3);
    s->nonempty = mode == 1;
    s->at = mode == 2 ? (int)rnd((unsigned)n) : -1;
    if (mode == 2)
      snprintf(line, size, "connected %s at %d,%d", cls, s->at / s->w,
               s->at % s->w);
    else
      snprintf(line, size, "connected %s%s", cls, mode ? " nonempty" : "");
  } else if (s->kind == TILESAT_GLOBAL_PATH) {
    s->ncells = 2 + (int)rnd(2);
    int k = snprintf(line, size, "path %s", cls);
    for (int i = 0; i < s->ncells; i++) {
      s->cells[i] = (int)rnd((unsigned)n);
      k += snprintf(line + k, size - (size_t)k, " %d,%d", s->cells[i] / s->w,
                    s->cells[i] % s->w);
    }
  } else {
    static const char letters[] = "nesw";
    char sides[8];
    int k = 0;
    for (int i = 0; i < 4; i++)
      if ((s->side[i] = rnd(2)))
        sides[k++] = letters[i];
    if (!k)
      s->side[0] = true, sides[k++] = 'n';
    sides[k] = 0;
    snprintf(line, size, "border %s %s", sides, cls);
  }
}

/* keeps() with a masked cell (TILESAT_NO_TILE) in no class (tile 15), but
 * on a border no cell of the map: it keeps the border whatever its class
 * (a tile of the class stands in for it). */
bool keeps_masked(void *user, const int *tiles) {
  spec *s = user;
  int n = s->w * s->h, some = 0;
  while (!s->in[some])
    some++;
  int *t = malloc((size_t)n * sizeof *t);
  for (int c = 0; c < n; c++)
    t[c] = tiles[c] >= 0                      ? tiles[c]
           : s->kind == TILESAT_GLOBAL_BORDER ? some
                                              : 15;
  bool ok = keeps(s, t);
  free(t);
  return ok;
}

bool own_valid(const tilesat_rules *r, const own_map *o, const int *tiles) {
  int n = o->w * o->h, nd = tilesat_topology_ndirs(o->topo);
  for (int c = 0; c < n; c++) {
    if ((tiles[c] < 0) != o->masked[c])
      return false;
    if (o->masked[c])
      continue;
    if (o->pin[c] >= 0 && tiles[c] != o->pin[c])
      return false;
    for (int d = 0; d < nd; d++) {
      int nr, nc;
      if (brute_neighbor(o->topo, o->w, o->h, o->periodic, c / o->w, c % o->w,
                         d, &nr, &nc) &&
          !o->masked[nr * o->w + nc] &&
          !tilesat_rules_allows(r, tiles[c], d, tiles[nr * o->w + nc]))
        return false;
    }
  }
  for (int i = 0; i < o->nspecs; i++)
    if (!keeps_masked((void *)&o->specs[i], tiles))
      return false;
  return true;
}

long own_count(const tilesat_rules *r, const own_map *o) {
  int n = o->w * o->h, T = tilesat_rules_ntiles(r);
  int tiles[OWN_MAX_CELLS];
  for (int c = 0; c < n; c++)
    tiles[c] = o->masked[c] ? -1 : 0;
  long count = 0;
  for (;;) {
    count += own_valid(r, o, tiles);
    int k = 0;
    while (k < n && (o->masked[k] || ++tiles[k] == T)) {
      if (!o->masked[k])
        tiles[k] = 0;
      k++;
    }
    if (k == n)
      return count;
  }
}
