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
#include "internal.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

typedef struct tile_class {
  char *name;
  int first, card; /* first oriented index, number of orientations */
  long line;
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
  *mant = m;
  *frac = f;
  return digit && m > 0;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Load tile images into *pics, rotating and reflecting like the reference:
 * rotate: out[x + y*s] = in[s-1-y + x*s]; reflect: out[x + y*s] =
 * in[s-1-x + y*s]. */
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
        size_t s = (size_t)size, n = s * s * 4;
        cur[t] = ts_malloc(n);
        const uint8_t *in = cur[t <= 3 ? t - 1 : t - 4];
        for (size_t y = 0; y < s; y++)
          for (size_t x = 0; x < s; x++) {
            size_t from = t <= 3 ? s - 1 - y + x * s : s - 1 - x + y * s;
            memcpy(cur[t] + 4 * (x + y * s), in + 4 * from, 4);
          }
      } else {
        size_t n = dirlen + baselen + strlen(tc->name) + 32;
        char *file = ts_malloc(n);
        if (unique)
          snprintf(file, n, "%.*s%.*s/%s %d.png", (int)dirlen, path,
                   (int)baselen, base, tc->name, t);
        else
          snprintf(file, n, "%.*s%.*s/%s.png", (int)dirlen, path, (int)baselen,
                   base, tc->name);
        tilesat_image *img = tilesat_image_read_png(file, err);
        if (img &&
            (img->width != img->height || (size && img->width != size))) {
          ts_error(err, file, 0,
                   "tile image of %dx%d pixels: tiles must be square and of "
                   "one size (%d)",
                   img->width, img->height, size ? size : img->width);
          tilesat_image_free(img);
          img = NULL;
        }
        free(file);
        if (!img) {
          for (int k = 0; k < t; k++)
            free(cur[k]);
          return -1;
        }
        if (!size) {
          size = img->width;
          *pics = tilesat_pictures_new(size, size, 0);
        }
        cur[t] = img->rgba;
        img->rgba = NULL;
        tilesat_image_free(img);
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

/* Find the oriented tile "NAME" or "NAME K" of a neighbour declaration:
 * its class index and orientation, -1 when the name is unknown. */
static int find_oriented(const tile_class *cls, size_t ncls, const char *spec,
                         int *orient, bool *bad_orient) {
  char *copy = ts_strdup(spec);
  char *tok[3];
  int nt = 0;
  for (char *p = strtok(copy, " "); p && nt < 3; p = strtok(NULL, " "))
    tok[nt++] = p;
  int found = -1;
  *bad_orient = false;
  *orient = 0;
  if (nt == 1 || nt == 2) {
    for (size_t c = 0; c < ncls && found < 0; c++)
      if (!strcmp(cls[c].name, tok[0]))
        found = (int)c;
    if (found >= 0 && nt == 2) {
      char *end;
      long k = strtol(tok[1], &end, 10);
      if (*end || k < 0 || k >= cls[found].card)
        *bad_orient = true;
      else
        *orient = (int)k;
    }
  }
  free(copy);
  return found;
}

static bool in_subset(char **subset, size_t n, const char *name) {
  if (!subset)
    return true;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(subset[i], name))
      return true;
  return false;
}

tilesat_rules *tilesat_import_tileset(const char *path, const char *subset,
                                      tilesat_pictures **pics,
                                      tilesat_error *err) {
  if (pics)
    *pics = NULL;
  xmlDoc *doc = ts_xml_read(path, err);
  if (!doc)
    return NULL;
  xmlNode *root = xmlDocGetRootElement(doc);
  tilesat_rules *r = NULL;
  TS_VEC(tile_class) cls = {0};
  TS_VEC(char *) sub = {0};
  TS_VEC(int *) action = {0};
  TS_VEC(uint64_t) mant = {0};
  TS_VEC(int) frac = {0};
  ts_names names = {0};
  bool *dense = NULL;
  bool unique = false, ok = false;
  char *s = attr(root, "unique");
  unique = s && (!strcmp(s, "True") || !strcmp(s, "true"));
  xmlFree(s);
  if (strcmp((const char *)root->name, "set")) {
    ts_error(err, path, xmlGetLineNo(root),
             "not a WFC tileset: root element <%s>, expected <set>",
             (const char *)root->name);
    goto done;
  }
  if (subset) {
    xmlNode *xs = NULL, *subs = next_elem(root, NULL, "subsets");
    while ((xs = next_elem(subs, xs, "subset"))) {
      char *name = attr(xs, "name");
      bool match = name && !strcmp(name, subset);
      xmlFree(name);
      if (match)
        break;
    }
    if (!xs) {
      ts_error(err, path, 0, "no subset named '%s'", subset);
      goto done;
    }
    for (xmlNode *t = NULL; (t = next_elem(xs, t, "tile"));) {
      char *name = attr(t, "name");
      if (name) {
        TS_PUSH(sub, ts_strdup(name));
        xmlFree(name);
      }
    }
  }
  xmlNode *tiles = next_elem(root, NULL, "tiles");
  for (xmlNode *t = NULL; (t = next_elem(tiles, t, "tile"));) {
    char *name = attr(t, "name"), *sym = attr(t, "symmetry"),
         *w = attr(t, "weight");
    long line = xmlGetLineNo(t);
    bool tile_ok = false;
    uint64_t m = 1;
    int f = 0;
    if (!name || !*name || strchr(name, ' '))
      ts_error(err, path, line, "a <tile> needs a name without spaces");
    else if (sym && (strlen(sym) != 1 || !strchr("LTI\\FX", sym[0])))
      ts_error(err, path, line,
               "tile '%s': symmetry '%s' is not one of L T I \\ F X", name,
               sym);
    else if (w && !parse_weight(w, &m, &f))
      ts_error(err, path, line,
               "tile '%s': weight '%s' is not a positive decimal number", name,
               w);
    else
      tile_ok = true;
    bool keep = tile_ok && in_subset(sub.v, sub.n, name);
    for (size_t c = 0; keep && c < cls.n; c++)
      if (!strcmp(cls.v[c].name, name)) {
        ts_error(err, path, line, "tile '%s' declared twice", name);
        tile_ok = false;
      }
    if (tile_ok && keep) {
      char sc = sym ? sym[0] : 'X';
      tile_class tc = {ts_strdup(name), (int)action.n, cardinality(sc), line};
      TS_PUSH(cls, tc);
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
        TS_PUSH(action, row);
        char buf[64];
        snprintf(buf, sizeof buf, " %d", i);
        size_t nl = strlen(name);
        char *full = ts_malloc(nl + strlen(buf) + 1);
        memcpy(full, name, nl);
        strcpy(full + nl, buf);
        ts_names_intern(&names, full, strlen(full));
        free(full);
        TS_PUSH(mant, m);
        TS_PUSH(frac, f);
      }
    }
    xmlFree(name);
    xmlFree(sym);
    xmlFree(w);
    if (!tile_ok)
      goto done;
  }
  if (action.n == 0) {
    ts_error(err, path, 0, subset ? "subset '%s' has no tiles" : "no tiles",
             subset);
    goto done;
  }
  size_t T = action.n;
  dense = ts_calloc(4 * T * T, sizeof *dense);
#define DENSE(d, a, b) dense[((size_t)(d)*T + (size_t)(a)) * T + (size_t)(b)]
  xmlNode *nbs = next_elem(root, NULL, "neighbors");
  for (xmlNode *x = NULL; (x = next_elem(nbs, x, "neighbor"));) {
    char *left = attr(x, "left"), *right = attr(x, "right");
    long line = xmlGetLineNo(x);
    bool nb_ok = false, skip = false;
    if (!left || !right) {
      ts_error(err, path, line, "a <neighbor> needs left= and right=");
    } else {
      int lo, ro;
      bool lbad, rbad;
      int lc = find_oriented(cls.v, cls.n, left, &lo, &lbad);
      int rc = find_oriented(cls.v, cls.n, right, &ro, &rbad);
      char lname[256], rname[256];
      sscanf(left, "%255s", lname);
      sscanf(right, "%255s", rname);
      skip = subset && (!in_subset(sub.v, sub.n, lname) ||
                        !in_subset(sub.v, sub.n, rname));
      if (skip) {
        nb_ok = true;
      } else if (lc < 0 || rc < 0) {
        ts_error(err, path, line, "unknown tile '%s'", lc < 0 ? left : right);
      } else if (lbad || rbad) {
        ts_error(err, path, line, "tile '%s' has no such orientation",
                 lbad ? left : right);
      } else {
        int L = action.v[cls.v[lc].first][lo], D = action.v[L][1];
        int R = action.v[cls.v[rc].first][ro], U = action.v[R][1];
        DENSE(0, R, L) = true;
        DENSE(0, action.v[R][6], action.v[L][6]) = true;
        DENSE(0, action.v[L][4], action.v[R][4]) = true;
        DENSE(0, action.v[L][2], action.v[R][2]) = true;
        DENSE(1, U, D) = true;
        DENSE(1, action.v[D][6], action.v[U][6]) = true;
        DENSE(1, action.v[U][4], action.v[D][4]) = true;
        DENSE(1, action.v[D][2], action.v[U][2]) = true;
        nb_ok = true;
      }
    }
    xmlFree(left);
    xmlFree(right);
    if (!nb_ok)
      goto done;
  }
  for (size_t t2 = 0; t2 < T; t2++)
    for (size_t t1 = 0; t1 < T; t1++) {
      DENSE(2, t2, t1) = DENSE(0, t1, t2);
      DENSE(3, t2, t1) = DENSE(1, t1, t2);
    }
  if (pics && load_images(path, unique, cls.v, cls.n, &names, pics, err) < 0) {
    tilesat_pictures_free(*pics);
    *pics = NULL;
    goto done;
  }
  r = ts_rules_new(TILESAT_SQUARE, &names);
  /* WFC's direction d as ours: left W, down S, right E, up N. */
  static const char *const dirname[4] = {"W", "S", "E", "N"};
  for (int d = 0; d < 4; d++) {
    int ours = tilesat_dir_find(TILESAT_SQUARE, dirname[d]);
    for (size_t a = 0; a < T; a++)
      for (size_t b = 0; b < T; b++)
        if (DENSE(d, a, b))
          ts_rules_allow(r, (int)a, ours, (int)b);
  }
#undef DENSE
  /* weights: one power of ten for all, then divided by their gcd */
  int maxf = 0;
  for (size_t t = 0; t < T; t++)
    maxf = frac.v[t] > maxf ? frac.v[t] : maxf;
  uint64_t g = 0;
  for (size_t t = 0; t < T; t++) {
    uint64_t w = mant.v[t];
    for (int k = frac.v[t]; k < maxf; k++)
      w *= 10;
    r->weight[t] = w;
    g = gcd(g, w);
  }
  for (size_t t = 0; t < T; t++)
    r->weight[t] /= g;
  ok = true;
done:
  if (!ok)
    ts_names_free(&names);
  for (size_t c = 0; c < cls.n; c++)
    free(cls.v[c].name);
  free(cls.v);
  for (size_t i = 0; i < sub.n; i++)
    free(sub.v[i]);
  free(sub.v);
  for (size_t i = 0; i < action.n; i++)
    free(action.v[i]);
  free(action.v);
  free(mant.v);
  free(frac.v);
  free(dense);
  xmlFreeDoc(doc);
  return r;
}
