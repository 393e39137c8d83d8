/* overlap.c: WFC's overlapping model as a rule set.  Every N x N window of
 * the samples is a tile ("pattern"); pattern b may stand next to pattern a
 * in direction d iff the two agree on the N x (N-1) pixels they share when b
 * is shifted one pixel in direction d (OverlappingModel.cs's `agrees`).  The
 * rotations and reflections are the reference's, in its order. */
#include "io/io.h"

#include <stdlib.h>
#include <string.h>

static void rotate(const int *p, int *out, int n) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      out[x + y * n] = p[n - 1 - y + x * n];
}

static void reflect(const int *p, int *out, int n) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      out[x + y * n] = p[n - 1 - x + y * n];
}

/* The patterns seen so far, and scratch space for one window. */
typedef struct patterns {
  int n;                    /* N */
  size_t nn;                /* N * N */
  TS_VEC(uint32_t) colours; /* distinct RGBA values, packed */
  ts_names colour_ids;      /* colour -> index, by its hex */
  ts_names keys;            /* pattern -> index, by its colour ids */
  TS_VEC(int *) pats;       /* by index: N * N colour ids */
  TS_VEC(uint64_t) count;   /* by index: times seen */
  int *ps[8];               /* one window, turned and reflected */
  char *key;
} patterns;

/* The image's pixels as colour ids (new colours added). */
static int *colour_ids(patterns *pt, const tilesat_image *img) {
  size_t npx = (size_t)img->width * (size_t)img->height;
  int *ids = ts_malloc(npx * sizeof *ids);
  for (size_t k = 0; k < npx; k++) {
    const uint8_t *px = img->rgba + 4 * k;
    uint32_t c = (uint32_t)px[0] << 24 | (uint32_t)px[1] << 16 |
                 (uint32_t)px[2] << 8 | px[3];
    char hex[9];
    snprintf(hex, sizeof hex, "%08x", (unsigned)c);
    int j = ts_names_intern(&pt->colour_ids, hex, 8);
    if ((size_t)j == pt->colours.n)
      TS_PUSH(pt->colours, c);
    ids[k] = j;
  }
  return ids;
}

/* Count the window at (x, y) (wrapping) and its first `symmetry` images. */
static void add_window(patterns *pt, const int *ids, int w, int h, int x, int y,
                       int symmetry) {
  int n = pt->n;
  int *const *ps = pt->ps;
  for (int dy = 0; dy < n; dy++)
    for (int dx = 0; dx < n; dx++)
      ps[0][dx + dy * n] = ids[((y + dy) % h) * w + (x + dx) % w];
  reflect(ps[0], ps[1], n);
  rotate(ps[0], ps[2], n);
  reflect(ps[2], ps[3], n);
  rotate(ps[2], ps[4], n);
  reflect(ps[4], ps[5], n);
  rotate(ps[4], ps[6], n);
  reflect(ps[6], ps[7], n);
  for (int k = 0; k < symmetry; k++) {
    size_t len = 0;
    for (size_t j = 0; j < pt->nn; j++)
      len += (size_t)sprintf(pt->key + len, "%x.", (unsigned)ps[k][j]);
    int id = ts_names_intern(&pt->keys, pt->key, len);
    if ((size_t)id == pt->pats.n) {
      int *copy = ts_malloc(pt->nn * sizeof *copy);
      memcpy(copy, ps[k], pt->nn * sizeof *copy);
      TS_PUSH(pt->pats, copy);
      TS_PUSH(pt->count, 0);
    }
    pt->count.v[id]++;
  }
}

static void sample_patterns(patterns *pt, const tilesat_image *img,
                            bool periodic_input, int symmetry) {
  int w = img->width, h = img->height, n = pt->n;
  int *ids = colour_ids(pt, img);
  int ymax = periodic_input ? h : h - n + 1;
  int xmax = periodic_input ? w : w - n + 1;
  for (int y = 0; y < ymax; y++)
    for (int x = 0; x < xmax; x++)
      add_window(pt, ids, w, h, x, y, symmetry);
  free(ids);
}

/* The colours pattern p shows in the part two patterns share when the
 * second stands (dx, dy) from the first: as the first (`second` false) or
 * as the second.  Two patterns agree (the reference's `agrees`: equal on
 * every shared pixel) iff the first's key is the second's. */
static size_t overlap_key(const int *p, int n, int dx, int dy, bool second,
                          char *key) {
  int xmin = dx < 0 ? 0 : dx, xmax = dx < 0 ? dx + n : n;
  int ymin = dy < 0 ? 0 : dy, ymax = dy < 0 ? dy + n : n;
  size_t len = 0;
  key[0] = 0;
  for (int y = ymin; y < ymax; y++)
    for (int x = xmin; x < xmax; x++) {
      int v = second ? p[x - dx + n * (y - dy)] : p[x + n * y];
      len += (size_t)sprintf(key + len, "%x.", (unsigned)v);
    }
  return len;
}

/* The pairs of one direction: the patterns grouped by their key as the
 * second, then each pattern as the first finds its group by hash; time
 * for the patterns and the pairs, not for every pair of patterns. */
static void allow_agreeing(const patterns *pt, tilesat_rules *r, int d, int dx,
                           int dy, char *key) {
  size_t P = pt->pats.n;
  ts_names groups = {0};
  int *group = ts_malloc(P * sizeof *group);
  for (size_t b = 0; b < P; b++)
    group[b] = ts_names_intern(
        &groups, key, overlap_key(pt->pats.v[b], pt->n, dx, dy, true, key));
  size_t ng = groups.v.n;
  size_t *start = ts_calloc(ng + 1, sizeof *start);
  for (size_t b = 0; b < P; b++)
    start[group[b] + 1]++;
  for (size_t g = 0; g < ng; g++)
    start[g + 1] += start[g];
  int *member = ts_malloc(P * sizeof *member);
  size_t *fill = ts_malloc(ng * sizeof *fill);
  memcpy(fill, start, ng * sizeof *fill);
  for (size_t b = 0; b < P; b++)
    member[fill[group[b]]++] = (int)b;
  for (size_t a = 0; a < P; a++) {
    overlap_key(pt->pats.v[a], pt->n, dx, dy, false, key);
    int g = ts_names_find(&groups, key);
    for (size_t i = g < 0 ? 0 : start[g]; g >= 0 && i < start[g + 1]; i++)
      ts_rules_allow(r, (int)a, d, member[i]);
  }
  free(fill);
  free(member);
  free(start);
  free(group);
  ts_names_free(&groups);
}

/* Patterns p0, p1, ... weighted by their counts, allowed side by side where
 * they agree. */
static tilesat_rules *pattern_rules(const patterns *pt) {
  ts_names names = {0};
  for (size_t p = 0; p < pt->pats.n; p++) {
    char buf[32];
    int len = snprintf(buf, sizeof buf, "p%zu", p);
    ts_names_intern(&names, buf, (size_t)len);
  }
  tilesat_rules *r = ts_rules_new(TILESAT_SQUARE, &names);
  static const char *const dname[4] = {"N", "E", "S", "W"};
  static const int ddx[4] = {0, 1, 0, -1}, ddy[4] = {-1, 0, 1, 0};
  char *key = ts_malloc(pt->nn * 12 + 1);
  for (int k = 0; k < 4; k++)
    allow_agreeing(pt, r, tilesat_dir_find(TILESAT_SQUARE, dname[k]), ddx[k],
                   ddy[k], key);
  free(key);
  for (size_t p = 0; p < pt->pats.n; p++)
    r->weight[p] = pt->count.v[p];
  return r;
}

/* Each pattern's N x N pixels, drawn with a cell of one pixel (period N). */
static tilesat_pictures *pattern_pictures(const patterns *pt,
                                          const tilesat_rules *r) {
  tilesat_pictures *pics = tilesat_pictures_new(pt->n, pt->n, pt->n);
  uint8_t *px = ts_malloc(pt->nn * 4);
  for (size_t p = 0; p < pt->pats.n; p++) {
    for (size_t j = 0; j < pt->nn; j++) {
      uint32_t c = pt->colours.v[pt->pats.v[p][j]];
      px[4 * j] = (uint8_t)(c >> 24);
      px[4 * j + 1] = (uint8_t)(c >> 16);
      px[4 * j + 2] = (uint8_t)(c >> 8);
      px[4 * j + 3] = (uint8_t)c;
    }
    tilesat_pictures_set(pics, r->names.v.v[p], px);
  }
  free(px);
  return pics;
}

tilesat_rules *tilesat_extract_patterns(const tilesat_image *const *images,
                                        size_t nimages, int n,
                                        bool periodic_input, int symmetry,
                                        tilesat_pictures **pics,
                                        tilesat_error *err) {
  if (nimages == 0 || n < 1 || n > 16 || symmetry < 1 || symmetry > 8)
    ts_misuse(__func__, "no images, or N or symmetry out of range");
  if (pics)
    *pics = NULL;
  patterns pt = {.n = n, .nn = (size_t)n * (size_t)n};
  for (int k = 0; k < 8; k++)
    pt.ps[k] = ts_malloc(pt.nn * sizeof(int));
  pt.key = ts_malloc(pt.nn * 12 + 1);
  for (size_t i = 0; i < nimages; i++)
    sample_patterns(&pt, images[i], periodic_input, symmetry);
  tilesat_rules *r = NULL;
  char msg[256];
  if (pt.pats.n == 0) {
    ts_error_param(
        err, "pattern",
        "no %dx%d window fits in the samples (try --periodic-input or "
        "a smaller --pattern)",
        n, n);
  } else if (ts_rules_too_many(pt.pats.n, TILESAT_SQUARE, msg, sizeof msg)) {
    ts_error_param(err, "pattern", "%zu patterns, a tile each: %s", pt.pats.n,
                   msg);
  } else {
    r = pattern_rules(&pt);
    if (pics)
      *pics = pattern_pictures(&pt, r);
  }
  for (int k = 0; k < 8; k++)
    free(pt.ps[k]);
  free(pt.key);
  for (size_t p = 0; p < pt.pats.n; p++)
    free(pt.pats.v[p]);
  free(pt.pats.v);
  free(pt.count.v);
  free(pt.colours.v);
  ts_names_free(&pt.colour_ids);
  ts_names_free(&pt.keys);
  return r;
}
