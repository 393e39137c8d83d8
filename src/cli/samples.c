/* samples.c: the samples extract reads, of every kind: text grids, PNG
 * images cut into tiles, and Tiled maps. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

struct inputs {
  tilesat_pictures *palette; /* --palette */
  tilesat_pictures *pics;    /* pictures of the image samples' tiles */
};

typedef enum kind { TEXT, PNG, TILED, UNREADABLE } kind;

/* The first bytes of a file (of standard input for "-", which the library
 * reads once and keeps for the reader that follows): how many, or -1 when
 * it cannot be opened. */
static long head_of(const char *path, unsigned char *head, size_t size) {
  if (!strcmp(path, "-")) {
    size_t len;
    tilesat_error err;
    char *all = tilesat_read_file(path, &len, &err);
    if (!all)
      return -1; /* the reader says why */
    size_t n = len < size ? len : size;
    memcpy(head, all, n);
    free(all);
    return (long)n;
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  size_t n = fread(head, 1, size, f);
  fclose(f);
  return (long)n;
}

/* What a sample file holds, by its first bytes (the extension only breaks
 * the tie for text that happens to start like XML or JSON). */
static kind sample_kind(const char *path) {
  unsigned char head[64];
  long got = head_of(path, head, sizeof head);
  if (got < 0)
    return UNREADABLE;
  size_t n = (size_t)got;
  if (tilesat_is_png(head, n))
    return PNG;
  if (ends_with(path, ".png"))
    return PNG; /* not a PNG inside: the PNG reader says so */
  if (ends_with(path, ".tmx") || ends_with(path, ".tmj"))
    return TILED;
  size_t i = n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' ||
                   head[i] == '\t'))
    i++;
  bool xml = n - i >= 4 &&
             (!memcmp(head + i, "<?xm", 4) || !memcmp(head + i, "<map", 4));
  bool json = i < n && head[i] == '{';
  if ((xml || json) && !ends_with(path, ".txt"))
    return TILED;
  return TEXT;
}

bool is_tiled_map(const char *path) { return sample_kind(path) == TILED; }

bool tiled_is_json(const char *path) {
  unsigned char head[4096];
  long n = head_of(path, head, sizeof head), i = 0;
  if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3)) /* a byte order mark */
    i = 3;
  while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' ||
                   head[i] == '\t'))
    i++;
  return i < n && head[i] == '{';
}

/* The document of path when the run has read it (tiled_doc), or NULL:
 * a file known to be a Tiled map, not opened again to say so. */
struct tiled_docs {
  size_t n;
  struct {
    char *path;
    tilesat_tiled_doc *doc;
  } v[];
};

static tilesat_tiled_doc *doc_read(const options *o, const char *path) {
  const struct tiled_docs *d = o->tiled_docs;
  for (size_t i = 0; d && i < d->n; i++)
    if (!strcmp(d->v[i].path, path))
      return d->v[i].doc;
  return NULL;
}

const char *tiled_pins(const options *o) {
  for (int i = 0; i < o->pins_from.n; i++)
    if (doc_read(o, o->pins_from.v[i]) || is_tiled_map(o->pins_from.v[i]))
      return o->pins_from.v[i];
  return NULL;
}

const tilesat_tiled_doc *tiled_doc(options *o, const char *path,
                                   tilesat_error *err) {
  tilesat_tiled_doc *doc = doc_read(o, path);
  if (doc)
    return doc;
  if (!(doc = tilesat_tiled_doc_read(path, err)))
    return NULL;
  struct tiled_docs *d = o->tiled_docs;
  size_t n = d ? d->n : 0;
  d = realloc(d, sizeof *d + (n + 1) * sizeof d->v[0]);
  char *copy = strdup(path);
  if (!d || !copy) {
    fail("out of memory");
    abort();
  }
  d->v[n].path = copy;
  d->v[n].doc = doc;
  d->n = n + 1;
  o->tiled_docs = d;
  return doc;
}

void tiled_docs_free(options *o) {
  struct tiled_docs *d = o->tiled_docs;
  for (size_t i = 0; d && i < d->n; i++) {
    free(d->v[i].path);
    tilesat_tiled_doc_free(d->v[i].doc);
  }
  free(d);
  o->tiled_docs = NULL;
}

/* Is path a map the run writes with (--pins-from's, --tilesets-from's),
 * whose document is kept once read? */
static bool kept_doc(const options *o, const char *path) {
  for (int i = 0; i < o->pins_from.n; i++)
    if (!strcmp(o->pins_from.v[i], path))
      return true;
  return o->tilesets_from && !strcmp(o->tilesets_from, path);
}

static struct inputs *inputs_of(options *o) {
  if (!o->inputs) {
    o->inputs = calloc(1, sizeof *o->inputs);
    if (!o->inputs) {
      fail("out of memory");
      abort();
    }
  }
  return o->inputs;
}

/* What a picture tilesat drew holds beyond its map (tilesat_png_note),
 * and what to do instead. */
static const struct {
  const char *note, *why;
} unreadable[] = {
    {"legend", "is drawn with --scale (a legend below the map, or its pins "
               "framed): draw it without --scale to read it back"},
    {"sheet", "holds several maps: draw one (-n 1) to read it back, or write "
              "them with --tmx"},
    {"smaller", "is drawn smaller than its tiles (--scale under their "
                "pictures' size): draw it without --scale to read it back"},
    {"marked", "explains (marks, faded cells, a legend): it is no map to read "
               "back; give the map itself (check --png, or a text grid)"},
};

/* A PNG as the map it shows: a picture tilesat drew larger (its note
 * "scaled XN/XD YN/YD") back at its tiles' size; one tilesat drew with
 * more than the map refused, saying why; any other as it is (a sample:
 * also one drawn smaller, a picture of its own). */
static tilesat_image *read_map_png(const char *path, bool sample,
                                   tilesat_error *err) {
  tilesat_image *img = tilesat_image_read_png(path, err);
  char note[80];
  if (!img || !tilesat_png_note(path, note, sizeof note) ||
      (sample && !strcmp(note, "smaller")))
    return img;
  long long xn, xd, yn, yd;
  if (sscanf(note, "scaled %lld/%lld %lld/%lld", &xn, &xd, &yn, &yd) == 4) {
    tilesat_image *back = tilesat_image_unscale(img, xn, xd, yn, yd);
    if (!back)
      snprintf(err->msg, sizeof err->msg,
               "%s: its pixels no longer come in the blocks of %lld/%lld "
               "pixels a tile pixel tilesat drew (edited since?): draw it "
               "again without --scale",
               path, xn, xd);
    tilesat_image_free(img);
    return back;
  }
  for (size_t i = 0; i < sizeof unreadable / sizeof *unreadable; i++)
    if (!strcmp(note, unreadable[i].note)) {
      snprintf(err->msg, sizeof err->msg, "%s: this picture %s", path,
               unreadable[i].why);
      tilesat_image_free(img);
      return NULL;
    }
  return img;
}

static tilesat_grid *load_image(options *o, const char *path,
                                tilesat_error *err) {
  struct inputs *in = inputs_of(o);
  int tile_size = (int)o->tile_size;
  if (!in->pics) {
    if (o->palette &&
        !(in->palette = tilesat_pictures_read_file(o->palette, err)))
      return NULL;
    in->pics = tilesat_pictures_new(tile_size, tile_size, 0);
  }
  tilesat_image *img = read_map_png(path, true, err);
  if (!img)
    return NULL;
  tilesat_grid *g =
      tilesat_grid_from_image(img, path, tile_size, in->palette, in->pics, err);
  tilesat_image_free(img);
  return g;
}

tilesat_grid *load_sample(options *o, const char *path, tilesat_error *err) {
  kind k = doc_read(o, path) ? TILED : sample_kind(path);
  if (GIVEN(o, symmetry)) {
    snprintf(err->msg, sizeof err->msg, "--symmetry needs --pattern N");
    return NULL;
  }
  if (k == UNREADABLE) /* the text reader says why it cannot open it */
    return tilesat_grid_read_file(path, err);
  if (k != PNG && (GIVEN(o, tile_size) || o->palette)) {
    snprintf(err->msg, sizeof err->msg,
             "%s: --tile-size and --palette are for image samples", path);
    return NULL;
  }
  if (k == TEXT)
    return tilesat_grid_read_file(path, err);
  if (k == TILED) {
    /* "free": --pins-from's own reading (util.c), a layer with nothing
     * painted being a map with no pins */
    tilesat_empty e = !o->empty                      ? TILESAT_EMPTY_TILE
                      : !strcmp(o->empty, "free")    ? TILESAT_EMPTY_FREE
                      : !strcmp(o->empty, "exclude") ? TILESAT_EMPTY_EXCLUDE
                                                     : TILESAT_EMPTY_TILE;
    if (!kept_doc(o, path))
      return tilesat_tiled_read(path, o->layer, e, err);
    const tilesat_tiled_doc *doc = tiled_doc(o, path, err);
    return doc ? tilesat_tiled_doc_grid(doc, o->layer, e, err) : NULL;
  }
  return load_image(o, path, err);
}

int end_samples(options *o, int rc) {
  struct inputs *in = o->inputs;
  if (!in)
    return rc;
  if (!rc && in->pics && tilesat_pictures_count(in->pics))
    rc = write_pictures(o, in->pics);
  tilesat_pictures_free(in->palette);
  tilesat_pictures_free(in->pics);
  free(in);
  o->inputs = NULL;
  return rc;
}

static bool is_png_file(const char *path) {
  unsigned char head[8];
  long n = head_of(path, head, sizeof head);
  return n > 0 && tilesat_is_png(head, (size_t)n);
}

/* Rules without pictures draw each tile as a square of its own colour
 * (tilesat_pictures_drawn): a picture so drawn is cut by those squares,
 * unless they are single pixels named by their colours (read as such).
 * A hex map's picture shifts its odd rows and is not read back: -1, *err
 * saying what to give instead. */
static int drawn_pictures(const options *o, const char *path,
                          const tilesat_rules *r, tilesat_pictures **pics,
                          tilesat_error *err) {
  tilesat_topology topo = topology_of(o, tilesat_rules_topology(r));
  if (topo == TILESAT_HEX) {
    snprintf(err->msg, sizeof err->msg,
             "%s: a hex map's picture cannot be read back (its odd rows are "
             "shifted by half a cell): give the map as a text grid (what "
             "check prints) or write it with --tmx",
             path);
    return -1;
  }
  *pics = tilesat_pictures_drawn(r, topo);
  if (tilesat_pictures_width(*pics) == 1) {
    tilesat_pictures_free(*pics);
    *pics = NULL;
  }
  return 0;
}

/* A finished map as a grid (verify, --pins-from).  A PNG is cut into tiles the
 * size of the rules' pictures (--pictures, or RULES's X.pictures) and named by
 * them (*pics gets them); without pictures by the squares the rules' maps
 * are drawn with (drawn_pictures), or every pixel a cell named by its
 * colour when the tiles are colours, as extract does.  A file that is not a PNG
 * inside but is named X.png is refused as the PNG reader refuses it. */
static tilesat_grid *read_map_grid(options *o, const char *path,
                                   const tilesat_rules *r,
                                   const tilesat_pictures **pics,
                                   tilesat_pictures **own, tilesat_error *err) {
  *pics = NULL;
  if (doc_read(o, path) || (!is_png_file(path) && sample_kind(path) != PNG))
    return load_sample(o, path, err);
  if (load_pictures(o, pics))
    return NULL;
  if (!*pics && drawn_pictures(o, path, r, own, err))
    return NULL;
  if (!*pics)
    *pics = *own;
  if (*pics && tilesat_pictures_overlap(*pics) > 0) {
    snprintf(err->msg, sizeof err->msg,
             "%s: a map of overlapping patterns cannot be read back from "
             "its picture: give it as a text grid",
             path);
    return NULL;
  }
  tilesat_image *img = read_map_png(path, false, err);
  tilesat_grid *g = NULL;
  if (img) {
    int size = *pics ? tilesat_pictures_width(*pics) : 1;
    g = tilesat_grid_from_image(img, path, size, *pics, NULL, err);
  }
  tilesat_image_free(img);
  return g;
}

static bool same_picture(const tilesat_pictures *p, const uint8_t *a,
                         const uint8_t *b) {
  size_t n = (size_t)tilesat_pictures_width(p) *
             (size_t)tilesat_pictures_height(p) * 4;
  return a && b && !memcmp(a, b, n);
}

int map_in_read(options *o, const char *path, const tilesat_rules *r,
                map_in *in) {
  tilesat_error err;
  memset(in, 0, sizeof *in);
  in->rules = r;
  in->grid = read_map_grid(o, path, r, &in->pics, &in->own_pics, &err);
  if (!in->grid) {
    map_in_free(in);
    return fail_err(&err);
  }
  if (!in->pics)
    return 0;
  /* which tiles share a picture: first[t], the first tile with t's */
  int T = tilesat_rules_ntiles(r);
  in->first = malloc((size_t)T * sizeof *in->first);
  in->shared = calloc((size_t)T, 1);
  const uint8_t **px = malloc((size_t)T * sizeof *px);
  if (!in->first || !in->shared || !px) {
    fail("out of memory");
    abort();
  }
  for (int t = 0; t < T; t++) {
    px[t] = tilesat_pictures_get(in->pics, tilesat_rules_tile_name(r, t));
    in->first[t] = t;
    for (int u = 0; u < t && in->first[t] == t; u++)
      if (in->first[u] == u && same_picture(in->pics, px[u], px[t])) {
        in->first[t] = u;
        in->shared[u] = in->shared[t] = true;
      }
  }
  free(px);
  return 0;
}

void map_in_free(map_in *in) {
  tilesat_grid_free(in->grid);
  tilesat_pictures_free(in->own_pics);
  free(in->first);
  free(in->shared);
  memset(in, 0, sizeof *in);
}

int map_in_tiles(const map_in *in, int row, int col, int *tiles) {
  const char *name = tilesat_grid_at(in->grid, row, col);
  if (!name)
    return 0;
  int t = tilesat_rules_find_tile(in->rules, name);
  if (t >= 0 && !(in->shared && in->shared[t])) {
    tiles[0] = t;
    return 1;
  }
  int n = 0, T = tilesat_rules_ntiles(in->rules);
  if (t >= 0) {
    for (int u = 0; u < T; u++)
      if (in->first[u] == in->first[t])
        tiles[n++] = u;
    return n;
  }
  /* a picture of no tile of the rules: the tiles that look the same */
  const uint8_t *px = in->pics ? tilesat_pictures_get(in->pics, name) : NULL;
  for (int u = 0; px && u < T; u++)
    if (same_picture(in->pics, px,
                     tilesat_pictures_get(
                         in->pics, tilesat_rules_tile_name(in->rules, u))))
      tiles[n++] = u;
  return n;
}

/* --mask FILE: a text grid of the map's size, '.' a cell of the map and
 * any other character a cell that is not; or a PNG, a pixel a cell,
 * transparent or black pixels not part of the map. */
int load_mask(const options *o, tilesat_map *m) {
  tilesat_error err;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height, gw, gh;
  tilesat_image *img = NULL;
  tilesat_grid *g = NULL;
  if (is_png_file(o->mask)) {
    img = tilesat_image_read_png(o->mask, &err);
    if (!img)
      return fail_err(&err);
    gw = img->width;
    gh = img->height;
  } else {
    g = tilesat_grid_read_file(o->mask, &err);
    if (!g)
      return fail_err(&err);
    gw = tilesat_grid_width(g);
    gh = tilesat_grid_height(g);
  }
  int rc = 0;
  if (gw != w || gh != h) {
    fail("--mask: %s is %dx%d, the map %dx%d", o->mask, gw, gh, w, h);
    rc = EXIT_ERROR;
  }
  for (int c = 0; c < w * h && !rc; c++) {
    bool out;
    if (img) {
      const uint8_t *px = img->rgba + 4 * (size_t)c;
      out = px[3] == 0 || (px[0] == 0 && px[1] == 0 && px[2] == 0);
    } else {
      const char *name = tilesat_grid_at(g, c / w, c % w);
      out = !name || strcmp(name, ".");
    }
    if (out && tilesat_map_mask(m, c / w, c % w, &err))
      rc = fail_err(&err);
  }
  tilesat_image_free(img);
  tilesat_grid_free(g);
  return rc;
}
