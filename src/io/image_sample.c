/* image_sample.c: a sample grid from an image, a pixel or an N x N block of
 * pixels per cell.  Tiles are identified by their exact pixels; names come
 * from a palette (or earlier samples' pictures) when they match. */
#include "io/io.h"

#include <stdlib.h>
#include <string.h>

/* The n x n block of pixels of cell (r, c) into px; whether it is of one
 * colour. */
static bool copy_block(const tilesat_image *img, int n, int r, int c,
                       uint8_t *px) {
  for (int y = 0; y < n; y++) {
    const uint8_t *src =
        img->rgba +
        ((size_t)(r * n + y) * (size_t)img->width + (size_t)c * (size_t)n) * 4;
    memcpy(px + (size_t)y * (size_t)n * 4, src, (size_t)n * 4);
  }
  bool uniform = true;
  for (size_t k = 1; k < (size_t)n * (size_t)n && uniform; k++)
    uniform = !memcmp(px, px + 4 * k, 4);
  return uniform;
}

/* Pixels as a hash key: their bytes in hex (2 * nbytes + 1 chars). */
static void hex_key(const uint8_t *px, size_t nbytes, char *key) {
  static const char hex[] = "0123456789abcdef";
  for (size_t k = 0; k < nbytes; k++) {
    key[2 * k] = hex[px[k] >> 4];
    key[2 * k + 1] = hex[px[k] & 15];
  }
  key[2 * nbytes] = 0;
}

/* Pictures by their pixels (the first picture of each), so that a new tile
 * finds its name in one probe rather than a scan of every picture. */
typedef struct pixel_index {
  ts_names keys;
  ts_ints name; /* key index -> the picture's name index in `names` */
  ts_names names;
} pixel_index;

static void index_add(pixel_index *ix, const char *key, size_t keylen,
                      const char *name) {
  int k = ts_names_intern(&ix->keys, key, keylen);
  if ((size_t)k == ix->name.n)
    TS_PUSH(ix->name, ts_names_intern(&ix->names, name, strlen(name)));
}

static void index_pictures(pixel_index *ix, const tilesat_pictures *p,
                           char *key, size_t nbytes) {
  for (int i = 0; p && i < tilesat_pictures_count(p); i++) {
    const char *name = tilesat_pictures_name(p, i);
    hex_key(tilesat_pictures_get(p, name), nbytes, key);
    index_add(ix, key, 2 * nbytes, name);
  }
}

static const char *index_find(const pixel_index *ix, const char *key) {
  int k = ts_names_find(&ix->keys, key);
  return k < 0 ? NULL : ix->names.v.v[ix->name.v[k]];
}

static void index_free(pixel_index *ix) {
  ts_names_free(&ix->keys);
  ts_names_free(&ix->names);
  free(ix->name.v);
}

/* What cutting one image into tiles keeps. */
typedef struct cutter {
  tilesat_pictures *pics;        /* the pictures of the samples' tiles */
  pixel_index known_ix, pics_ix; /* the palette's, the pictures' */
  ts_names names;                /* the grid's tile names */
  ts_names seen;   /* tiles seen in this image, by pixels: repeats are */
  ts_ints seen_id; /* one probe */
  char *key;       /* a tile's pixels in hex */
  size_t nbytes;   /* bytes of a tile's pixels */
} cutter;

/* A new tile's name: the palette's, the pictures', its colour when uniform,
 * else "tK" (K counts the pictures, or the tiles seen so far). */
static const char *new_tile_name(const cutter *cu, const uint8_t *px,
                                 bool uniform, char buf[32]) {
  const char *name = index_find(&cu->known_ix, cu->key);
  if (!name)
    name = index_find(&cu->pics_ix, cu->key);
  if (!name && uniform) {
    ts_colour_name(px, buf);
    name = buf;
  } else if (!name) {
    snprintf(buf, 32, "t%d",
             cu->pics ? tilesat_pictures_count(cu->pics) : (int)cu->seen_id.n);
    name = buf;
  }
  return name;
}

/* The tile of one block of pixels (cu->key already its key). */
static int tile_of(cutter *cu, const uint8_t *px, bool uniform) {
  int s = ts_names_intern(&cu->seen, cu->key, 2 * cu->nbytes);
  if ((size_t)s < cu->seen_id.n)
    return cu->seen_id.v[s];
  char buf[32];
  const char *name = new_tile_name(cu, px, uniform, buf);
  int id = ts_names_intern(&cu->names, name, strlen(name));
  TS_PUSH(cu->seen_id, id);
  if (cu->pics && !tilesat_pictures_get(cu->pics, name)) {
    tilesat_pictures_set(cu->pics, name, px);
    index_add(&cu->pics_ix, cu->key, 2 * cu->nbytes, name);
  }
  return id;
}

tilesat_grid *tilesat_grid_from_image(const tilesat_image *img,
                                      const char *filename, int tile_size,
                                      const tilesat_pictures *known,
                                      tilesat_pictures *pics,
                                      tilesat_error *err) {
  int n = tile_size;
  if (n <= 0)
    ts_misuse(__func__, "tile size must be positive");
  if (pics &&
      (tilesat_pictures_width(pics) != n || tilesat_pictures_height(pics) != n))
    ts_misuse(__func__, "pictures of another size");
  if (img->width % n || img->height % n) {
    ts_error(err, filename, 0,
             "image of %dx%d pixels does not divide into %dx%d tiles",
             img->width, img->height, n, n);
    return NULL;
  }
  if (known && (tilesat_pictures_width(known) != n ||
                tilesat_pictures_height(known) != n)) {
    ts_error(err, filename, 0,
             "the palette's pictures are %dx%d pixels, the tiles %dx%d",
             tilesat_pictures_width(known), tilesat_pictures_height(known), n,
             n);
    return NULL;
  }
  int w = img->width / n, h = img->height / n;
  cutter cu = {.pics = pics, .nbytes = (size_t)n * (size_t)n * 4};
  cu.key = ts_malloc(2 * cu.nbytes + 1);
  index_pictures(&cu.known_ix, known, cu.key, cu.nbytes);
  index_pictures(&cu.pics_ix, pics, cu.key, cu.nbytes);
  int *cells = ts_malloc((size_t)w * (size_t)h * sizeof *cells);
  uint8_t *px = ts_malloc(cu.nbytes);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      bool uniform = copy_block(img, n, r, c, px);
      hex_key(px, cu.nbytes, cu.key);
      cells[r * w + c] = tile_of(&cu, px, uniform);
    }
  index_free(&cu.known_ix);
  index_free(&cu.pics_ix);
  ts_names_free(&cu.seen);
  free(cu.seen_id.v);
  free(cu.key);
  free(px);
  return ts_grid_new(filename, w, h, &cu.names, cells);
}
