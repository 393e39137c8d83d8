/* pictures.c: what each tile looks like, by name, and its text file.
 *
 *   tilesat-pictures 1
 *   size 14 14
 *   overlap 0
 *   picture "corner 0" #ffffff #000000 ...   (width * height colours)
 *
 * Colours are #rrggbb (opaque) or #rrggbbaa.  '#' lines whose first token is
 * not a colour are comments.  Kept apart from the rules file on purpose:
 * rules say what may stand where; pictures only say how to draw it. */
#include "internal.h"

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

void tilesat_tile_colour(const char *name, uint8_t rgba[4]) {
  if (ts_parse_colour(name, rgba))
    return;
  /* FNV-1a, then a hue around the wheel at fixed saturation and value, so
   * distinct names get distinct, readable colours in every run. */
  uint32_t h = 2166136261u;
  for (const unsigned char *s = (const unsigned char *)name; *s; s++)
    h = (h ^ *s) * 16777619u;
  double hue = (double)(h % 360u) / 60.0, v = 0.55 + (double)(h >> 28) / 40.0;
  double c = v * 0.65, x = c * (1 - fabs(fmod(hue, 2) - 1));
  double r = 0, g = 0, b = 0;
  switch ((int)hue) {
  case 0:
    r = c, g = x;
    break;
  case 1:
    r = x, g = c;
    break;
  case 2:
    g = c, b = x;
    break;
  case 3:
    g = x, b = c;
    break;
  case 4:
    r = x, b = c;
    break;
  default:
    r = c, b = x;
    break;
  }
  double m = v - c;
  rgba[0] = (uint8_t)((r + m) * 255 + 0.5);
  rgba[1] = (uint8_t)((g + m) * 255 + 0.5);
  rgba[2] = (uint8_t)((b + m) * 255 + 0.5);
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
  char *end;
  long x = strtol(s, &end, 10);
  if (*s < '0' || *s > '9' || *end || x <= 0 || x > 4096)
    return false;
  *v = (int)x;
  return true;
}

tilesat_pictures *tilesat_pictures_parse(const char *text, size_t len,
                                         const char *filename,
                                         tilesat_error *err) {
  long bad_line;
  char msg[256];
  if (!ts_utf8_check(text, len, &bad_line, msg, sizeof msg)) {
    ts_error(err, filename, bad_line, "%s", msg);
    return NULL;
  }
  tilesat_pictures *p = NULL;
  int w = 0, h = 0, overlap = 0;
  bool header = false;
  uint8_t *buf = NULL;
  ts_lines it = {text, text + len, 0};
  const char *line;
  size_t n;
  while (ts_next_line(&it, &line, &n)) {
    char **tok;
    const char *tmsg;
    int nt = ts_tokenize(line, n, &tok, &tmsg);
    if (nt < 0) {
      ts_error(err, filename, it.lineno, "%s", tmsg);
      goto fail;
    }
    uint8_t c[4];
    bool ok = true;
    if (nt == 0 || (tok[0][0] == '#' && !ts_parse_colour(tok[0], c))) {
      /* blank or comment */
    } else if (!header) {
      ok = nt == 2 && !strcmp(tok[0], HEADER) && !strcmp(tok[1], "1");
      if (!ok)
        ts_error(err, filename, it.lineno, "expected '%s 1'", HEADER);
      header = true;
    } else if (!strcmp(tok[0], "size") && !p) {
      ok = nt == 3 && parse_dim(tok[1], &w) && parse_dim(tok[2], &h);
      if (!ok)
        ts_error(err, filename, it.lineno,
                 "expected 'size WIDTH HEIGHT' (1 to 4096)");
    } else if (!strcmp(tok[0], "overlap") && !p) {
      ok = nt == 2 && (!strcmp(tok[1], "0") || parse_dim(tok[1], &overlap));
      if (!ok)
        ts_error(err, filename, it.lineno, "expected 'overlap N'");
    } else if (!strcmp(tok[0], "picture")) {
      if (!p) {
        if (!w) {
          ts_error(err, filename, it.lineno, "'size' must come first");
          ok = false;
        } else if (overlap && (overlap != w || overlap != h)) {
          ts_error(err, filename, it.lineno,
                   "overlap %d needs pictures of %dx%d", overlap, overlap,
                   overlap);
          ok = false;
        } else {
          p = tilesat_pictures_new(w, h, overlap);
          buf = ts_malloc(nbytes(p));
        }
      }
      if (ok && (nt < 2 || !*tok[1])) {
        ts_error(err, filename, it.lineno, "expected 'picture NAME COLOUR...'");
        ok = false;
      } else if (ok && (size_t)(nt - 2) != (size_t)w * (size_t)h) {
        ts_error(err, filename, it.lineno,
                 "picture '%s' has %d colours, size %dx%d needs %d", tok[1],
                 nt - 2, w, h, w * h);
        ok = false;
      } else if (ok && tilesat_pictures_get(p, tok[1])) {
        ts_error(err, filename, it.lineno, "picture '%s' given twice", tok[1]);
        ok = false;
      }
      for (int i = 2; ok && i < nt; i++)
        if (!ts_parse_colour(tok[i], buf + 4 * (i - 2))) {
          ts_error(err, filename, it.lineno,
                   "'%s' is not a colour (#rrggbb or #rrggbbaa)", tok[i]);
          ok = false;
        }
      if (ok)
        tilesat_pictures_set(p, tok[1], buf);
    } else {
      ts_error(err, filename, it.lineno, "unknown line '%s'", tok[0]);
      ok = false;
    }
    ts_tokens_free(tok, nt);
    if (!ok)
      goto fail;
  }
  if (!p) {
    ts_error(err, filename, 0, header ? "no pictures" : "empty pictures file");
    goto fail;
  }
  free(buf);
  return p;
fail:
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
