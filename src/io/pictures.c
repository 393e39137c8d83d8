/* pictures.c: what each tile looks like, by name, and its text file.
 *
 *   tilesat-pictures 1
 *   size 14 14
 *   overlap 0
 *   picture "corner 0" #ffffff #000000 ...   (width * height colours)
 *
 * Colours are #rrggbb (opaque) or #rrggbbaa.  Lines starting with '#' are
 * comments, as in the other tilesat-KIND formats (core/reader.c).  Kept
 * apart from the rules file on purpose: rules say what may stand where;
 * pictures only say how to draw it. */
#include "io/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "tilesat-pictures"

struct tilesat_pictures {
  int width, height, overlap;
  ts_names names;
  TS_VEC(uint8_t *) pix; /* by name index */
};

tilesat_pictures *tilesat_pictures_new(int width, int height, int overlap) {
  if (width <= 0 || height <= 0 || overlap < 0)
    ts_misuse(__func__, "bad picture size");
  tilesat_pictures *p = ts_calloc(1, sizeof *p);
  p->width = width;
  p->height = height;
  p->overlap = overlap;
  return p;
}

void tilesat_pictures_free(tilesat_pictures *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->pix.n; i++)
    free(p->pix.v[i]);
  free(p->pix.v);
  ts_names_free(&p->names);
  free(p);
}

int tilesat_pictures_width(const tilesat_pictures *p) { return p->width; }
int tilesat_pictures_height(const tilesat_pictures *p) { return p->height; }
int tilesat_pictures_overlap(const tilesat_pictures *p) { return p->overlap; }
int tilesat_pictures_count(const tilesat_pictures *p) { return (int)p->pix.n; }

const char *tilesat_pictures_name(const tilesat_pictures *p, int i) {
  if (i < 0 || (size_t)i >= p->pix.n)
    ts_misuse(__func__, "picture index out of range");
  return p->names.v.v[i];
}

static size_t nbytes(const tilesat_pictures *p) {
  return (size_t)p->width * (size_t)p->height * 4;
}

int tilesat_pictures_set(tilesat_pictures *p, const char *name,
                         const uint8_t *rgba) {
  int i = ts_names_intern(&p->names, name, strlen(name));
  if ((size_t)i == p->pix.n)
    TS_PUSH(p->pix, ts_malloc(nbytes(p)));
  memcpy(p->pix.v[i], rgba, nbytes(p));
  return i;
}

const uint8_t *tilesat_pictures_get(const tilesat_pictures *p,
                                    const char *name) {
  int i = ts_names_find(&p->names, name);
  return i < 0 ? NULL : p->pix.v[i];
}

const char *tilesat_pictures_find_pixels(const tilesat_pictures *p,
                                         const uint8_t *rgba) {
  for (size_t i = 0; i < p->pix.n; i++)
    if (!memcmp(p->pix.v[i], rgba, nbytes(p)))
      return p->names.v.v[i];
  return NULL;
}

/* ---------------------------------------------------------------- colours */

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

bool ts_parse_colour(const char *s, uint8_t rgba[4]) {
  size_t n = strlen(s);
  if (s[0] != '#' || (n != 7 && n != 9))
    return false;
  rgba[3] = 255;
  for (size_t i = 0; i < (n - 1) / 2; i++) {
    int hi = hexval(s[1 + 2 * i]), lo = hexval(s[2 + 2 * i]);
    if (hi < 0 || lo < 0)
      return false;
    rgba[i] = (uint8_t)(hi * 16 + lo);
  }
  return true;
}

void ts_colour_name(const uint8_t rgba[4], char out[10]) {
  if (rgba[3] == 255)
    snprintf(out, 10, "#%02x%02x%02x", rgba[0], rgba[1], rgba[2]);
  else
    snprintf(out, 10, "#%02x%02x%02x%02x", rgba[0], rgba[1], rgba[2], rgba[3]);
}

/* Kenneth Kelly's 22 colours of maximum contrast ("Twenty-two colors of
 * maximum contrast", Color Engineering 3(6), 1965), in the order a greedy
 * max-min search gives (by the "redmean" RGB distance) after the first
 * three, which draw coast's land, coast and sea as green, sand and blue:
 * any two of the first 16 are at least 48 apart in RGB. */
static const uint32_t palette[] = {
    0x008856, 0xf3c300, 0x0067a5, 0xbe0032, 0xf2f3f4, 0x222222,
    0xe68fac, 0x875692, 0xe25822, 0x8db600, 0xa1caf1, 0x882d17,
    0xc2b280, 0xf38400, 0xb3446c, 0x848482, 0xf99379, 0x654522,
    0x604e97, 0xf6a600, 0x2b3d26, 0xdcd300,
};
#define NPALETTE (int)(sizeof palette / sizeof *palette)

/* Past the palette: hues a golden angle apart, at three values in turn. */
static void hue_colour(int k, uint8_t rgba[4]) {
  double hue = fmod(k * 0.6180339887498949, 1.0) * 6.0;
  double v = 0.9 - 0.2 * (k % 3), c = v * 0.7;
  double x = c * (1 - fabs(fmod(hue, 2) - 1));
  const double rgb[6][3] = {{c, x, 0}, {x, c, 0}, {0, c, x},
                            {0, x, c}, {x, 0, c}, {c, 0, x}};
  const double *f = rgb[(int)hue % 6];
  for (int i = 0; i < 3; i++)
    rgba[i] = (uint8_t)((f[i] + v - c) * 255 + 0.5);
  rgba[3] = 255;
}

void tilesat_tile_colour(const tilesat_rules *r, int tile, uint8_t rgba[4]) {
  if (tile < 0 || tile >= r->ntiles)
    ts_misuse(__func__, "no such tile");
  if (ts_parse_colour(r->names.v.v[tile], rgba))
    return;
  if (tile >= NPALETTE) {
    hue_colour(tile - NPALETTE, rgba);
    return;
  }
  for (int i = 0; i < 3; i++)
    rgba[i] = (uint8_t)(palette[tile] >> (16 - 8 * i));
  rgba[3] = 255;
}

/* ---------------------------------------------------------------- file */

int tilesat_pictures_write(const tilesat_pictures *p, FILE *out) {
  fprintf(out, "%s 1\nsize %d %d\noverlap %d\n", HEADER, p->width, p->height,
          p->overlap);
  for (size_t i = 0; i < p->pix.n; i++) {
    fputs("picture ", out);
    ts_write_token(out, p->names.v.v[i]);
    const uint8_t *px = p->pix.v[i];
    for (size_t k = 0; k < nbytes(p); k += 4) {
      char c[10];
      ts_colour_name(px + k, c);
      fprintf(out, " %s", c);
    }
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

static bool parse_dim(const char *s, int *v) {
  uint64_t x;
  if (!ts_parse_whole(s, TS_MAX_PICTURE_SIDE, &x) || x == 0)
    return false;
  *v = (int)x;
  return true;
}

/* What the lines before the first picture set. */
typedef struct shape {
  int w, h, overlap;
} shape;

static int size_line(ts_reader *rd, shape *s) {
  if (rd->nt != 3 || !parse_dim(rd->tok[1], &s->w) ||
      !parse_dim(rd->tok[2], &s->h))
    return ts_reader_error(rd, "expected 'size WIDTH HEIGHT' (1 to %d)",
                           TS_MAX_PICTURE_SIDE);
  return 0;
}

static int overlap_line(ts_reader *rd, shape *s) {
  if (rd->nt != 2 ||
      (strcmp(rd->tok[1], "0") && !parse_dim(rd->tok[1], &s->overlap)))
    return ts_reader_error(rd, "expected 'overlap N'");
  return 0;
}

/* picture NAME COLOUR...; the first one fixes the shape and makes *p. */
static int picture_line(ts_reader *rd, const shape *s, tilesat_pictures **p,
                        uint8_t **buf) {
  char **tok = rd->tok;
  int nt = rd->nt, w = s->w, h = s->h, ov = s->overlap;
  if (!*p) {
    if (!w)
      return ts_reader_error(rd, "'size' must come first");
    if (ov && (ov != w || ov != h))
      return ts_reader_error(rd, "overlap %d needs pictures of %dx%d", ov, ov,
                             ov);
    *p = tilesat_pictures_new(w, h, ov);
    *buf = ts_malloc(nbytes(*p));
  }
  if (nt < 2 || !*tok[1])
    return ts_reader_error(rd, "expected 'picture NAME COLOUR...'");
  if ((size_t)(nt - 2) != (size_t)w * (size_t)h)
    return ts_reader_error(rd,
                           "picture '%s' has %d colours, size %dx%d "
                           "needs %d",
                           tok[1], nt - 2, w, h, w * h);
  if (tilesat_pictures_get(*p, tok[1]))
    return ts_reader_error(rd, "picture '%s' given twice", tok[1]);
  for (int i = 2; i < nt; i++)
    if (!ts_parse_colour(tok[i], *buf + (size_t)4 * (size_t)(i - 2)))
      return ts_reader_error(rd, "'%s' is not a colour (#rrggbb or #rrggbbaa)",
                             tok[i]);
  tilesat_pictures_set(*p, tok[1], *buf);
  return 0;
}

tilesat_pictures *tilesat_pictures_parse(const char *text, size_t len,
                                         const char *filename,
                                         tilesat_error *err) {
  ts_reader rd;
  if (!ts_reader_open(&rd, text, len, filename, TS_KIND_PICTURES, false, err))
    return NULL;
  tilesat_pictures *p = NULL;
  shape s = {0, 0, 0};
  uint8_t *buf = NULL;
  int more = ts_reader_next(&rd);
  if (more == 0)
    ts_error(err, filename, 0, "empty pictures file");
  if (more <= 0 || ts_reader_header(&rd, HEADER, 1))
    goto fail;
  while ((more = ts_reader_next(&rd)) > 0) {
    const char *kw = rd.tok[0];
    int rc;
    if (!strcmp(kw, "size") && !p)
      rc = size_line(&rd, &s);
    else if (!strcmp(kw, "overlap") && !p)
      rc = overlap_line(&rd, &s);
    else if (!strcmp(kw, "picture"))
      rc = picture_line(&rd, &s, &p, &buf);
    else
      rc = ts_reader_error(&rd, "unknown line '%s'", kw);
    if (rc)
      goto fail;
  }
  if (more < 0)
    goto fail;
  if (!p) {
    ts_error(err, filename, 0, "no pictures");
    goto fail;
  }
  ts_reader_close(&rd);
  free(buf);
  return p;
fail:
  ts_reader_close(&rd);
  free(buf);
  tilesat_pictures_free(p);
  return NULL;
}

tilesat_pictures *tilesat_pictures_read_file(const char *path,
                                             tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  tilesat_pictures *p = tilesat_pictures_parse(text, len, path, err);
  free(text);
  return p;
}
