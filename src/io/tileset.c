/* tileset.c: mxgmn's simple-tiled-model tilesets (tilesets/NAME.xml).
 *
 * This follows the reference SimpleTiledModel.cs step by step, because the
 * point is to check *its* rules: each tile's symmetry class gives a
 * cardinality and two permutations of the tile's orientations, a (rotate by
 * 90 degrees) and b (reflect); orientation t's action row is
 *   t, a t, a a t, a a a t, b t, b a t, b a a t, b a a a t,
 * and a <neighbor left=L right=R/> declares L left of R plus three images of
 * that pair under the symmetry group, and the rotated (vertical) pair with
 * its three images; the other two directions are the transposes.  WFC's
 * directions are 0 left, 1 down (y grows downward), 2 right, 3 up. */
#include "io/io.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

typedef struct tile_class {
  char *name;
  int first, card; /* first oriented index, number of orientations */
} tile_class;

/* The symmetry group acting on one tile's orientations. */
static int sym_a(char sym, int i) {
  switch (sym) {
  case 'L':
  case 'T':
    return (i + 1) % 4;
  case 'I':
  case '\\':
    return 1 - i;
  case 'F':
    return i < 4 ? (i + 1) % 4 : 4 + (i - 1) % 4;
  default:
    return i;
  }
}
static int sym_b(char sym, int i) {
  switch (sym) {
  case 'L':
    return i % 2 == 0 ? i + 1 : i - 1;
  case 'T':
    return i % 2 == 0 ? i : 4 - i;
  case 'I':
    return i;
  case '\\':
    return 1 - i;
  case 'F':
    return i < 4 ? i + 4 : i - 4;
  default:
    return i;
  }
}
static int cardinality(char sym) {
  return sym == 'L' || sym == 'T'    ? 4
         : sym == 'I' || sym == '\\' ? 2
         : sym == 'F'                ? 8
                                     : 1;
}

/* Child elements of `parent` named `name`, in order, via *it (NULL first). */
static xmlNode *next_elem(xmlNode *parent, xmlNode *it, const char *name) {
  for (xmlNode *n = it ? it->next : (parent ? parent->children : NULL); n;
       n = n->next)
    if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
      return n;
  return NULL;
}

static char *attr(xmlNode *n, const char *name) {
  return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* Parse the reference's `Get("weight", 1.0)`: a decimal number, kept exactly
 * as mantissa * 10^-frac. */
static bool parse_weight(const char *s, uint64_t *mant, int *frac) {
  uint64_t m = 0;
  int f = 0;
  bool dot = false, digit = false;
  for (; *s; s++) {
    if (*s == '.' && !dot) {
      dot = true;
    } else if (*s >= '0' && *s <= '9') {
      if (m > UINT64_MAX / 100 || f > 9)
        return false;
      m = m * 10 + (uint64_t)(*s - '0');
      f += dot;
      digit = true;
    } else {
      return false;
    }
  }
  for (; f > 0 && m % 10 == 0; f--) /* "0.50" is "0.5": the least scale */
    m /= 10;
  *mant = m;
  *frac = f;
  return digit && m > 0;
}

/* mant * 10^-frac in decimal, for a message. */
static void weight_text(uint64_t mant, int frac, char out[32]) {
  char digits[24];
  int n = snprintf(digits, sizeof digits, "%0*llu", frac + 1,
                   (unsigned long long)mant);
  snprintf(out, 32, "%.*s%s%s", n - frac, digits, frac ? "." : "",
           digits + n - frac);
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Orientation t > 0 of a tile of s x s pixels from `in`, orientation t - 1
 * (t <= 3) or t - 4, like the reference: rotate: out[x + y*s] =
 * in[s-1-y + x*s]; reflect: out[x + y*s] = in[s-1-x + y*s]. */
static uint8_t *turn_image(const uint8_t *in, int t, size_t s) {
  uint8_t *out = ts_malloc(s * s * 4);
  for (size_t y = 0; y < s; y++)
    for (size_t x = 0; x < s; x++) {
      size_t from = t <= 3 ? s - 1 - y + x * s : s - 1 - x + y * s;
      memcpy(out + 4 * (x + y * s), in + 4 * from, 4);
    }
  return out;
}

/* Read DIR/BASE/NAME.png (unique: "NAME T.png"), square and of *size pixels
 * (the first sets *size); its RGBA, or NULL and *err. */
static uint8_t *read_tile_image(const char *dir, size_t dirlen,
                                const char *base, size_t baselen,
                                const char *name, int t, bool unique, int *size,
                                tilesat_error *err) {
  size_t n = dirlen + baselen + strlen(name) + 32;
  char *file = ts_malloc(n);
  if (unique)
    snprintf(file, n, "%.*s%.*s/%s %d.png", (int)dirlen, dir, (int)baselen,
             base, name, t);
  else
    snprintf(file, n, "%.*s%.*s/%s.png", (int)dirlen, dir, (int)baselen, base,
             name);
  tilesat_image *img = tilesat_image_read_png(file, err);
  if (img && (img->width != img->height || (*size && img->width != *size))) {
    ts_error(err, file, 0,
             "tile image of %dx%d pixels: tiles must be square and of "
             "one size (%d)",
             img->width, img->height, *size ? *size : img->width);
    tilesat_image_free(img);
    img = NULL;
  }
  if (img && img->width > TS_MAX_PICTURE_SIDE) {
    ts_error(err, file, 0,
             "tile image of %dx%d pixels: larger than a pictures file holds "
             "(at most %d pixels a side)",
             img->width, img->height, TS_MAX_PICTURE_SIDE);
    tilesat_image_free(img);
    img = NULL;
  }
  free(file);
  if (!img)
    return NULL;
  *size = img->width;
  uint8_t *rgba = img->rgba;
  img->rgba = NULL;
  tilesat_image_free(img);
  return rgba;
}

/* Load tile images into *pics, one file per class (the other orientations
 * turned from it) or, for a `unique` set, one per orientation. */
static int load_images(const char *path, bool unique, const tile_class *cls,
                       size_t ncls, const ts_names *names,
                       tilesat_pictures **pics, tilesat_error *err) {
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
  const char *base = slash ? slash + 1 : path;
  size_t baselen = strlen(base);
  if (baselen > 4 && !strcmp(base + baselen - 4, ".xml"))
    baselen -= 4;
  int size = 0;
  uint8_t *cur[8] = {0};
  for (size_t c = 0; c < ncls; c++) {
    const tile_class *tc = &cls[c];
    for (int t = 0; t < tc->card; t++) {
      if (t > 0 && !unique) {
        cur[t] = turn_image(cur[t <= 3 ? t - 1 : t - 4], t, (size_t)size);
      } else {
        cur[t] = read_tile_image(path, dirlen, base, baselen, tc->name, t,
                                 unique, &size, err);
        if (!cur[t]) {
          for (int k = 0; k < t; k++)
            free(cur[k]);
          return -1;
        }
        if (!*pics)
          *pics = tilesat_pictures_new(size, size, 0);
      }
      tilesat_pictures_set(*pics, names->v.v[tc->first + t], cur[t]);
    }
    for (int t = 0; t < tc->card; t++) {
      free(cur[t]);
      cur[t] = NULL;
    }
  }
  return 0;
}

/* One side of a <neighbor>: "NAME" or "NAME K", split at spaces as the
 * reference splits it.  K (0 when absent) is not an orientation but one of
 * the eight actions of the square's symmetry group, applied to the tile's
 * orientation 0: the reference's action[first][K], for every symmetry
 * class.  So "b_i 3" (I) is b_i turned three times, orientation 1, and
 * "corner 4" (L) is corner reflected, orientation 1. */
typedef struct nb_side {
  char *copy;       /* the words, split in place */
  const char *name; /* the first word, or NULL when there are none */
  int words;        /* how many (the reference reads the first two) */
  int act;          /* K, 0..7, or -1 when the second word is not one */
} nb_side;

static nb_side nb_split(const char *spec) {
  nb_side s = {ts_strdup(spec), NULL, 0, 0};
  char *save = NULL, *num = NULL;
  for (char *p = strtok_r(s.copy, " ", &save); p;
       p = strtok_r(NULL, " ", &save)) {
    if (s.words == 0)
      s.name = p;
    else if (s.words == 1)
      num = p;
    s.words++;
  }
  if (num) {
    char *end;
    long k = strtol(num, &end, 10);
    s.act = *end || k < 0 || k > 7 ? -1 : (int)k;
  }
  return s;
}

/* Everything is in the set when there is no subset. */
static bool in_subset(const ts_names *sub, bool subset, const char *name) {
  return !subset || ts_names_find(sub, name) >= 0;
}

/* What the import gathers from the XML before it builds the rules. */
typedef struct import {
  const char *path;
  tilesat_error *err;
  TS_VEC(tile_class) cls;
  ts_names cls_names;    /* class index by name */
  bool subset;           /* only the tiles of a subset */
  ts_names sub;          /* the subset's tile names */
  TS_VEC(int *) action;  /* oriented tile -> its 8 images, as above */
  TS_VEC(uint64_t) mant; /* oriented tile's weight, mant * 10^-frac */
  TS_VEC(int) frac;
  ts_names names;       /* "NAME K" for orientation K, until rules take them */
  tilesat_rules *rules; /* once the tiles are known */
} import;

/* The tile names of <subset name=SUBSET> into imp->sub; -1 if none. */
static int read_subset(import *imp, xmlNode *root, const char *subset) {
  xmlNode *xs = NULL, *subs = next_elem(root, NULL, "subsets");
  while ((xs = next_elem(subs, xs, "subset"))) {
    char *name = attr(xs, "name");
    bool match = name && !strcmp(name, subset);
    xmlFree(name);
    if (match)
      break;
  }
  if (!xs) {
    ts_error(imp->err, imp->path, 0, "no subset named '%s'", subset);
    return -1;
  }
  for (xmlNode *t = NULL; (t = next_elem(xs, t, "tile"));) {
    char *name = attr(t, "name");
    if (name) {
      ts_names_intern(&imp->sub, name, strlen(name));
      xmlFree(name);
    }
  }
  return 0;
}

/* Add tile class NAME of symmetry SYM: its orientations' action rows, names
 * and weights. */
static void add_class(import *imp, const char *name, const char *sym,
                      uint64_t m, int f) {
  char sc = sym[0];
  tile_class tc = {ts_strdup(name), (int)imp->action.n, cardinality(sc)};
  TS_PUSH(imp->cls, tc);
  ts_names_intern(&imp->cls_names, name, strlen(name));
  for (int i = 0; i < tc.card; i++) {
    int *row = ts_malloc(8 * sizeof *row);
    row[0] = i;
    row[1] = sym_a(sc, i);
    row[2] = sym_a(sc, sym_a(sc, i));
    row[3] = sym_a(sc, sym_a(sc, sym_a(sc, i)));
    row[4] = sym_b(sc, i);
    row[5] = sym_b(sc, sym_a(sc, i));
    row[6] = sym_b(sc, sym_a(sc, sym_a(sc, i)));
    row[7] = sym_b(sc, sym_a(sc, sym_a(sc, sym_a(sc, i))));
    for (int k = 0; k < 8; k++)
      row[k] += tc.first;
    TS_PUSH(imp->action, row);
    size_t n = strlen(name) + 16;
    char *full = ts_malloc(n);
    snprintf(full, n, "%s %d", name, i);
    ts_names_intern(&imp->names, full, strlen(full));
    free(full);
    TS_PUSH(imp->mant, m);
    TS_PUSH(imp->frac, f);
  }
}

/* One <tile>: checked, then added unless the subset leaves it out. */
static bool read_tile(import *imp, xmlNode *t) {
  char *name = attr(t, "name"), *sym = attr(t, "symmetry"),
       *w = attr(t, "weight");
  long line = xmlGetLineNo(t);
  bool tile_ok = false;
  uint64_t m = 1;
  int f = 0;
  if (!name || !*name || strchr(name, ' '))
    ts_error(imp->err, imp->path, line, "a <tile> needs a name without spaces");
  else if (strpbrk(name, "/\\") || strstr(name, ".."))
    ts_error(imp->err, imp->path, line,
             "tile '%s': a tile's name is its image's file name in the "
             "tileset's folder, so it cannot hold '/', '\\' or '..'",
             name);
  else if (sym && (strlen(sym) != 1 || !strchr("LTI\\FX", sym[0])))
    ts_error(imp->err, imp->path, line,
             "tile '%s': symmetry '%s' is not one of L T I \\ F X", name, sym);
  else if (w && !parse_weight(w, &m, &f))
    ts_error(imp->err, imp->path, line,
             "tile '%s': weight '%s' is not a positive decimal number", name,
             w);
  else
    tile_ok = true;
  bool keep = tile_ok && in_subset(&imp->sub, imp->subset, name);
  if (keep && ts_names_find(&imp->cls_names, name) >= 0) {
    ts_error(imp->err, imp->path, line, "tile '%s' declared twice", name);
    tile_ok = false;
  }
  if (tile_ok && keep)
    add_class(imp, name, sym ? sym : "X", m, f);
  xmlFree(name);
  xmlFree(sym);
  xmlFree(w);
  return tile_ok;
}

/* b may be a's neighbour in WFC direction d (0 left, 1 down), and so a is
 * b's the other way: WFC's left W, down S, right E, up N. */
static void allow_wfc(import *imp, int d, int a, int b) {
  tilesat_rules *r = imp->rules;
  int dir = tilesat_dir_find(TILESAT_SQUARE, d == 0 ? "W" : "S");
  ts_rules_allow(r, a, dir, b);
  ts_rules_allow(r, b, tilesat_dir_opposite(TILESAT_SQUARE, dir), a);
}

/* Oriented tile L left of R, the three images of that pair under the
 * symmetry group, and the same for the pair turned upright. */
static void allow_pair(import *imp, int L, int R) {
  int *const *act = imp->action.v;
  int D = act[L][1], U = act[R][1];
  allow_wfc(imp, 0, R, L);
  allow_wfc(imp, 0, act[R][6], act[L][6]);
  allow_wfc(imp, 0, act[L][4], act[R][4]);
  allow_wfc(imp, 0, act[L][2], act[R][2]);
  allow_wfc(imp, 1, U, D);
  allow_wfc(imp, 1, act[D][6], act[U][6]);
  allow_wfc(imp, 1, act[U][4], act[D][4]);
  allow_wfc(imp, 1, act[D][2], act[U][2]);
}

/* The oriented tile a checked side names, or -1 with the error said. */
static int nb_tile(import *imp, const nb_side *s, const char *spec, long line) {
  int c = ts_names_find(&imp->cls_names, s->name);
  if (c < 0) {
    char hint[TS_HINT];
    ts_names_hint(&imp->cls_names, s->name, "tiles", hint, sizeof hint);
    ts_error(imp->err, imp->path, line, "unknown tile '%s'%s", spec, hint);
    return -1;
  }
  if (s->act < 0) {
    ts_error(imp->err, imp->path, line,
             "tile '%s': the number after a tile's name is one of the "
             "square's 8 turns and reflections, 0 to 7",
             spec);
    return -1;
  }
  return imp->action.v[imp->cls.v[c].first][s->act];
}

/* Both sides of a <neighbor>, allowed, or skipped when the subset leaves a
 * side out (as the reference, before it reads the numbers). */
static bool neighbor_pair(import *imp, const char *left, const char *right,
                          long line) {
  nb_side ls = nb_split(left), rs = nb_split(right);
  bool ok = false;
  if (!ls.name || !rs.name || ls.words > 2 || rs.words > 2) {
    const nb_side *bad = !ls.name || ls.words > 2 ? &ls : &rs;
    ts_error(imp->err, imp->path, line,
             "%s='%s' is not a tile's name and at most one number",
             bad == &ls ? "left" : "right", bad == &ls ? left : right);
  } else if (!in_subset(&imp->sub, imp->subset, ls.name) ||
             !in_subset(&imp->sub, imp->subset, rs.name)) {
    ok = true;
  } else {
    int L = nb_tile(imp, &ls, left, line);
    int R = L < 0 ? -1 : nb_tile(imp, &rs, right, line);
    if (R >= 0)
      allow_pair(imp, L, R);
    ok = R >= 0;
  }
  free(ls.copy);
  free(rs.copy);
  return ok;
}

/* One <neighbor left=L right=R/>; a pair outside the subset is skipped. */
static bool read_neighbor(import *imp, xmlNode *x) {
  char *left = attr(x, "left"), *right = attr(x, "right");
  long line = xmlGetLineNo(x);
  bool nb_ok = false;
  if (!left || !right)
    ts_error(imp->err, imp->path, line, "a <neighbor> needs left= and right=");
  else
    nb_ok = neighbor_pair(imp, left, right, line);
  xmlFree(left);
  xmlFree(right);
  return nb_ok;
}

/* The weights of the rules: the tiles' decimal weights as whole numbers,
 * or NULL when they are too far apart for 64 bits (a weight of 10^17 and
 * one of 10^-9 would be 10^26 to 1: it wrapped). */
static tilesat_rules *build_rules(import *imp) {
  size_t T = imp->action.n;
  tilesat_rules *r = imp->rules;
  imp->rules = NULL;
  /* weights: one power of ten for all, then divided by their gcd */
  int maxf = 0;
  size_t finest = 0;
  for (size_t t = 0; t < T; t++)
    if (imp->frac.v[t] > maxf) {
      maxf = imp->frac.v[t];
      finest = t;
    }
  uint64_t g = 0;
  for (size_t t = 0; t < T; t++) {
    uint64_t w = imp->mant.v[t];
    for (int k = imp->frac.v[t]; k < maxf && w; k++)
      w = w > UINT64_MAX / 10 ? 0 : w * 10;
    if (!w) {
      char a[32], b[32];
      weight_text(imp->mant.v[t], imp->frac.v[t], a);
      weight_text(imp->mant.v[finest], maxf, b);
      ts_error(imp->err, imp->path, 0,
               "weights %s (tile '%s') and %s (tile '%s') are too far apart: "
               "as whole numbers in the same ratio, the larger would pass "
               "2^64-1",
               a, r->names.v.v[t], b, r->names.v.v[finest]);
      tilesat_rules_free(r);
      return NULL;
    }
    r->weight[t] = w;
    g = gcd(g, w);
  }
  for (size_t t = 0; t < T; t++)
    r->weight[t] /= g;
  r->weights_from = "the tileset's weight of each tile, scaled to whole "
                    "numbers";
  return r;
}

static void import_free(import *imp) {
  for (size_t c = 0; c < imp->cls.n; c++)
    free(imp->cls.v[c].name);
  free(imp->cls.v);
  ts_names_free(&imp->cls_names);
  ts_names_free(&imp->sub);
  tilesat_rules_free(imp->rules);
  for (size_t i = 0; i < imp->action.n; i++)
    free(imp->action.v[i]);
  free(imp->action.v);
  free(imp->mant.v);
  free(imp->frac.v);
}

/* Tiles, then neighbours, then the images: the first error stops it. */
static tilesat_rules *import_doc(import *imp, xmlNode *root, const char *subset,
                                 tilesat_pictures **pics) {
  char *s = attr(root, "unique");
  bool unique = s && (!strcmp(s, "True") || !strcmp(s, "true"));
  xmlFree(s);
  if (strcmp((const char *)root->name, "set")) {
    if (!ts_xml_known_root(root, imp->path, TS_KIND_WFC_TILESET, imp->err))
      ts_error(imp->err, imp->path, xmlGetLineNo(root),
               "not a WFC tileset: root element <%s>, expected <set>",
               (const char *)root->name);
    return NULL;
  }
  imp->subset = subset != NULL;
  if (subset && read_subset(imp, root, subset) < 0)
    return NULL;
  xmlNode *tiles = next_elem(root, NULL, "tiles");
  for (xmlNode *t = NULL; (t = next_elem(tiles, t, "tile"));)
    if (!read_tile(imp, t))
      return NULL;
  if (imp->action.n == 0) {
    ts_error(imp->err, imp->path, 0,
             subset ? "subset '%s' has no tiles" : "no tiles", subset);
    return NULL;
  }
  char msg[256];
  if (ts_rules_too_many(imp->action.n, TILESAT_SQUARE, msg, sizeof msg)) {
    ts_error(imp->err, imp->path, 0, "%zu oriented tiles: %s", imp->action.n,
             msg);
    return NULL;
  }
  imp->rules = ts_rules_new(TILESAT_SQUARE, &imp->names);
  xmlNode *nbs = next_elem(root, NULL, "neighbors");
  for (xmlNode *x = NULL; (x = next_elem(nbs, x, "neighbor"));)
    if (!read_neighbor(imp, x))
      return NULL;
  if (pics && load_images(imp->path, unique, imp->cls.v, imp->cls.n,
                          &imp->rules->names, pics, imp->err) < 0) {
    tilesat_pictures_free(*pics);
    *pics = NULL;
    return NULL;
  }
  tilesat_rules *r = build_rules(imp);
  if (!r && pics) {
    tilesat_pictures_free(*pics);
    *pics = NULL;
  }
  return r;
}

tilesat_rules *tilesat_import_tileset(const char *path, const char *subset,
                                      tilesat_pictures **pics,
                                      tilesat_error *err) {
  if (pics)
    *pics = NULL;
  xmlDoc *doc = ts_xml_read(path, TS_KIND_WFC_TILESET, err);
  if (!doc)
    return NULL;
import imp = {.path = path, .err = err };
  tilesat_rules *r = import_doc(&imp, xmlDocGetRootElement(doc), subset, pics);
  if (!r)
    ts_names_free(&imp.names);
  import_free(&imp);
  xmlFreeDoc(doc);
  return r;
}
