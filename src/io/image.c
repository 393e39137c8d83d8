/* image.c: RGBA images and PNG files.  Read through libpng's simplified
 * API (png_image), which converts every colour type and bit depth to 8-bit
 * RGBA and reports corrupt or truncated data as a message instead of
 * longjmp'ing into our code; written through its full API, which alone
 * writes the text chunk that marks a PNG as tilesat's. */
#include "io/io.h"

#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tilesat_image *tilesat_image_new(int width, int height) {
  if (width <= 0 || height <= 0)
    ts_misuse(__func__, "image sides must be positive");
  tilesat_image *img = ts_malloc(sizeof *img);
  img->width = width;
  img->height = height;
  img->rgba = ts_calloc((size_t)width * (size_t)height, 4);
  return img;
}

void tilesat_image_free(tilesat_image *img) {
  if (!img)
    return;
  free(img->rgba);
  free(img);
}

bool tilesat_is_png(const void *data, size_t len) {
  static const unsigned char sig[8] = {0x89, 'P',  'N',  'G',
                                       '\r', '\n', 0x1a, '\n'};
  return len >= 8 && !memcmp(data, sig, 8);
}

/* Images larger than this many pixels are refused rather than allocated:
 * a corrupt header must not make us ask for gigabytes. */
#define MAX_PIXELS (1 << 26)

/* The chunk of the PNG in data that claims more bytes than the file has
 * left (libpng allocates a chunk's claimed length before reading it: a
 * 200-byte file could ask for 2 GB), its offset in *at; NULL when every
 * chunk up to IEND fits. */
static const unsigned char *chunk_past_end(const unsigned char *data,
                                           size_t len, size_t *at) {
  size_t pos = 8;
  while (len - pos >= 12) {
    const unsigned char *c = data + pos;
    size_t n =
        (size_t)c[0] << 24 | (size_t)c[1] << 16 | (size_t)c[2] << 8 | c[3];
    if (n > len - pos - 12) {
      *at = pos;
      return c + 4;
    }
    if (!memcmp(c + 4, "IEND", 4))
      return NULL;
    pos += n + 12;
  }
  return NULL; /* (no IEND: libpng says what is missing) */
}

tilesat_image *tilesat_image_parse_png(const void *data, size_t len,
                                       const char *filename,
                                       tilesat_error *err) {
  if (!tilesat_is_png(data, len)) {
    ts_error(err, filename, 0, "not a PNG file (no PNG signature)");
    return NULL;
  }
  size_t at;
  const unsigned char *type = chunk_past_end(data, len, &at);
  if (type) {
    char name[5];
    for (int i = 0; i < 4; i++)
      name[i] = (char)(type[i] >= 0x21 && type[i] < 0x7f ? type[i] : '?');
    name[4] = '\0';
    ts_error(err, filename, 0,
             "bad PNG: its chunk '%s' at byte %zu runs past the end of the "
             "file (cut short or damaged)",
             name, at);
    return NULL;
  }
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&pi, data, len)) {
    ts_error(err, filename, 0, "bad PNG: %s", pi.message);
    png_image_free(&pi);
    return NULL;
  }
  if (pi.width == 0 || pi.height == 0 ||
      (uint64_t)pi.width * pi.height > MAX_PIXELS) {
    ts_error(err, filename, 0, "PNG of %ux%u pixels: too large", pi.width,
             pi.height);
    png_image_free(&pi);
    return NULL;
  }
  pi.format = PNG_FORMAT_RGBA;
  tilesat_image *img = tilesat_image_new((int)pi.width, (int)pi.height);
  if (!png_image_finish_read(&pi, NULL, img->rgba, 0, NULL)) {
    ts_error(err, filename, 0, "bad PNG: %s", pi.message);
    png_image_free(&pi);
    tilesat_image_free(img);
    return NULL;
  }
  png_image_free(&pi);
  return img;
}

tilesat_image *tilesat_image_read_png(const char *path, tilesat_error *err) {
  size_t len;
  char *data = ts_read_file(path, &len, err);
  if (!data)
    return NULL;
  tilesat_image *img = tilesat_image_parse_png(data, len, path, err);
  free(data);
  return img;
}

/* The text chunk of every PNG tilesat writes (PNG's keyword for the
 * program that made the file). */
#define TS_PNG_KEY "Software"
#define TS_PNG_VALUE "tilesat"

/* libpng's full write API (the simplified one writes no text chunks):
 * its errors longjmp back to ts_png_write_stream with their message here
 * (not an automatic variable there, whose value a longjmp may lose). */
static _Thread_local char png_message[128];

static void png_fail(png_structp png, png_const_charp msg) {
  snprintf(png_message, sizeof png_message, "%s", msg);
  png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

/* Every PNG tilesat writes says so: a tEXt chunk "Software" = "tilesat",
 * which tilesat_png_by_tilesat reads before a side picture is replaced. */
int ts_png_write_stream(const tilesat_image *img, FILE *f, const char *path,
                        tilesat_error *err) {
  return ts_png_write_noted(img, f, path, NULL, err);
}

/* The same, with a second text chunk TILESAT_PNG_NOTE = note (NULL:
 * none): what the picture shows, read back by tilesat_png_note. */
int ts_png_write_noted(const tilesat_image *img, FILE *f, const char *path,
                       const char *note, tilesat_error *err) {
  snprintf(png_message, sizeof png_message, "out of memory");
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail, png_warn);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    ts_error(err, path, 0, "cannot write PNG: %s", png_message);
    return -1;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
               PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  char key[] = TS_PNG_KEY, value[] = TS_PNG_VALUE,
       note_key[] = TILESAT_PNG_NOTE, note_value[80];
  snprintf(note_value, sizeof note_value, "%s", note ? note : "");
  png_text text[2];
  memset(text, 0, sizeof text);
  text[0].compression = text[1].compression = PNG_TEXT_COMPRESSION_NONE;
  text[0].key = key;
  text[0].text = value;
  text[1].key = note_key;
  text[1].text = note_value;
  png_set_text(png, info, text, note ? 2 : 1);
  png_write_info(png, info);
  size_t row = (size_t)img->width * 4;
  for (int y = 0; y < img->height; y++)
    png_write_row(png, img->rgba + (size_t)y * row);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return 0;
}

/* A big-endian 32-bit number. */
static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         (uint32_t)p[3];
}

/* The chunks before the image data, read one by one (a file of any size
 * costs at most this many reads); a text chunk is as long as ours. */
#define PNG_CHUNKS_READ 256

bool tilesat_png_by_tilesat(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  static const char want[] = TS_PNG_KEY "\0" TS_PNG_VALUE;
  unsigned char head[8], body[sizeof want - 1]; /* (no final NUL) */
  bool ours = fread(head, 1, 8, f) == 8 && tilesat_is_png(head, 8);
  bool found = false;
  for (int i = 0; ours && !found && i < PNG_CHUNKS_READ; i++) {
    if (fread(head, 1, 8, f) != 8 || !memcmp(head + 4, "IDAT", 4) ||
        !memcmp(head + 4, "IEND", 4))
      break;
    uint32_t len = be32(head);
    if (len == sizeof body && !memcmp(head + 4, "tEXt", 4)) {
      if (fread(body, 1, len, f) != len)
        break;
      found = !memcmp(body, want, len);
      len = 0;
    }
    /* past the data (what is left of it) and the CRC */
    if (len > INT32_MAX || fseek(f, (long)len + 4, SEEK_CUR))
      break;
  }
  fclose(f);
  return found;
}

int tilesat_image_write_png_stream(const tilesat_image *img, FILE *f,
                                   const char *name, tilesat_error *err) {
  return ts_png_write_stream(img, f, name, err);
}

int tilesat_image_write_png_noted(const tilesat_image *img, FILE *f,
                                  const char *name, const char *note,
                                  tilesat_error *err) {
  return ts_png_write_noted(img, f, name, note, err);
}

bool tilesat_png_note(const char *path, char *note, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f || !len)
    return f ? fclose(f), false : false;
  static const char key[] = TILESAT_PNG_NOTE; /* then a NUL, the text */
  unsigned char head[8], body[sizeof key + 80];
  bool png = fread(head, 1, 8, f) == 8 && tilesat_is_png(head, 8);
  bool found = false;
  for (int i = 0; png && !found && i < PNG_CHUNKS_READ; i++) {
    if (fread(head, 1, 8, f) != 8 || !memcmp(head + 4, "IDAT", 4) ||
        !memcmp(head + 4, "IEND", 4))
      break;
    uint32_t n = be32(head);
    if (n > sizeof key && n <= sizeof body && !memcmp(head + 4, "tEXt", 4)) {
      if (fread(body, 1, n, f) != n)
        break;
      if (!memcmp(body, key, sizeof key)) { /* the key and its NUL */
        size_t k = n - sizeof key < len - 1 ? n - sizeof key : len - 1;
        memcpy(note, body + sizeof key, k);
        note[k] = '\0';
        found = true;
      }
      n = 0;
    }
    if (n > INT32_MAX || fseek(f, (long)n + 4, SEEK_CUR))
      break;
  }
  fclose(f);
  return found;
}

/* The first output pixel of source pixel v, scaled by num/den. */
static long long first_of(long long v, long long num, long long den) {
  return (v * num + den - 1) / den;
}

tilesat_image *tilesat_image_unscale(const tilesat_image *img, long long xn,
                                     long long xd, long long yn, long long yd) {
  /* (numbers from the file's own note: bounded before any product) */
  const long long most = 1 << 16;
  if (xd <= 0 || yd <= 0 || xn > most || yn > most)
    return NULL;
  if (xn < xd || yn < yd)
    return NULL; /* drawn smaller: pixels were dropped */
  long long w = (long long)img->width * xd / xn,
            h = (long long)img->height * yd / yn;
  if (w <= 0 || h <= 0 || first_of(w, xn, xd) != img->width ||
      first_of(h, yn, yd) != img->height)
    return NULL;
  tilesat_image *out = tilesat_image_new((int)w, (int)h);
  for (long long y = 0; y < h; y++)
    for (long long x = 0; x < w; x++)
      memcpy(out->rgba + 4 * (y * w + x),
             img->rgba +
                 4 * (first_of(y, yn, yd) * img->width + first_of(x, xn, xd)),
             4);
  /* every pixel of img is its source's, by nearest neighbour */
  for (long long Y = 0; Y < img->height; Y++)
    for (long long X = 0; X < img->width; X++)
      if (memcmp(img->rgba + 4 * (Y * img->width + X),
                 out->rgba + 4 * (Y * yd / yn * w + X * xd / xn), 4)) {
        tilesat_image_free(out);
        return NULL;
      }
  return out;
}

/* Not png_image_write_to_file, which removes the path when it fails: a
 * device node, as root, included. */
int tilesat_image_write_png(const tilesat_image *img, const char *path,
                            tilesat_error *err) {
  tilesat_output *out = tilesat_output_open(path, err);
  if (!out)
    return -1;
  if (ts_png_write_stream(img, tilesat_output_file(out), path, err)) {
    tilesat_output_discard(out);
    return -1;
  }
  return tilesat_output_commit(out, err);
}
