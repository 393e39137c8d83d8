/* legend.c: what a designer reads beside a picture: the legend of marked
 * maps, the heat map and its colour scale, and the one tiny bitmap font
 * they are written in (3x5 glyphs, drawn TEXT_SCALE times larger). */
#include "io/io.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ font */

/* Each glyph: five rows top to bottom, each an octal digit whose bits 4, 2,
 * 1 are its left, middle and right pixels ("75557" is a 0).  Letters are
 * capitals (lower case is drawn as upper case); anything else is '?'. */
static const struct {
  char c;
  char rows[6];
} glyphs[] = {
    {'0', "75557"}, {'1', "26227"}, {'2', "71747"}, {'3', "71317"},
    {'4', "55711"}, {'5', "74717"}, {'6', "74757"}, {'7', "71122"},
    {'8', "75757"}, {'9', "75717"}, {'A', "25755"}, {'B', "65656"},
    {'C', "34443"}, {'D', "65556"}, {'E', "74647"}, {'F', "74644"},
    {'G', "34553"}, {'H', "55755"}, {'I', "72227"}, {'J', "11152"},
    {'K', "55655"}, {'L', "44447"}, {'M', "57755"}, {'N', "65555"},
    {'O', "25552"}, {'P', "65644"}, {'Q', "25563"}, {'R', "65655"},
    {'S', "34216"}, {'T', "72222"}, {'U', "55557"}, {'V', "55552"},
    {'W', "55775"}, {'X', "55255"}, {'Y', "55222"}, {'Z', "71247"},
    {' ', "00000"}, {'.', "00002"}, {',', "00024"}, {':', "02020"},
    {'-', "00700"}, {'%', "51245"}, {'(', "24442"}, {')', "21112"},
    {'/', "11244"}, {'+', "02720"}, {'=', "07070"}, {'\'', "22000"},
    {'"', "55000"}, {'#', "57575"}, {'<', "12421"}, {'>', "42124"},
    {'_', "00007"}, {'[', "64446"}, {']', "31113"}, {'~', "00360"},
    {'*', "05250"}, {'!', "22202"}, {';', "02024"}, {'|', "22222"},
    {'^', "25000"}, {'@', "75744"}, {'$', "36736"}, {'&', "25353"},
    {'{', "32623"}, {'}', "62326"}, {'`', "42000"}, {'\\', "44211"},
    {'?', "71302"},
};

#define TEXT_SCALE 2
#define GLYPH_W 3
#define GLYPH_H 5
#define ADVANCE ((GLYPH_W + 1) * TEXT_SCALE)
#define TEXT_H (GLYPH_H * TEXT_SCALE)

static const char *glyph(char c) {
  c = (char)toupper((unsigned char)c);
  for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++)
    if (glyphs[i].c == c)
      return glyphs[i].rows;
  return glyph('?');
}

int ts_text_width(const char *s) {
  size_t n = strlen(s);
  return n ? (int)n * ADVANCE - TEXT_SCALE : 0;
}

int ts_text_height(void) { return TEXT_H; }

static void put(tilesat_image *img, int x, int y, const uint8_t rgba[4]) {
  if (x >= 0 && y >= 0 && x < img->width && y < img->height)
    memcpy(img->rgba + 4 * ((size_t)y * (size_t)img->width + (size_t)x), rgba,
           4);
}

void ts_fill_rect(tilesat_image *img, int x, int y, int w, int h,
                  const uint8_t rgba[4]) {
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++)
      put(img, x + i, y + j, rgba);
}

void ts_frame_rect(tilesat_image *img, int x, int y, int w, int h, int b,
                   const uint8_t rgba[4]) {
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++)
      if (j < b || i < b || j >= h - b || i >= w - b)
        put(img, x + i, y + j, rgba);
}

void ts_text_draw(tilesat_image *img, int x, int y, const char *s,
                  const uint8_t rgba[4]) {
  for (; *s; s++, x += ADVANCE) {
    const char *g = glyph(*s);
    for (int r = 0; r < GLYPH_H; r++)
      for (int c = 0; c < GLYPH_W; c++)
        if ((g[r] - '0') & (4 >> c))
          ts_fill_rect(img, x + c * TEXT_SCALE, y + r * TEXT_SCALE, TEXT_SCALE,
                       TEXT_SCALE, rgba);
  }
}

/* --------------------------------------------------------------- legends */

static const uint8_t white[4] = {255, 255, 255, 255};
static const uint8_t black[4] = {0, 0, 0, 255};

#define PAD 6     /* around the legend and between its rows */
#define SWATCH 16 /* a row's sample cell */

void ts_legend_size(const ts_legend_row *rows, size_t n, size_t *w, size_t *h) {
  size_t most = 0;
  for (size_t i = 0; i < n; i++) {
    size_t t = (size_t)ts_text_width(rows[i].text);
    most = t > most ? t : most;
  }
  size_t lw = PAD + SWATCH + PAD + most + PAD;
  *w = *w > lw ? *w : lw;
  *h += n * (SWATCH + PAD) + PAD;
}

tilesat_image *ts_legend_add(const tilesat_image *img,
                             const ts_legend_row *rows, size_t n) {
  size_t w = (size_t)img->width, h = (size_t)img->height;
  ts_legend_size(rows, n, &w, &h);
  if (w > ((size_t)1 << 15) || h > ((size_t)1 << 15) ||
      w * h > ((size_t)1 << 26))
    return NULL;
  tilesat_image *out = tilesat_image_new((int)w, (int)h);
  ts_fill_rect(out, 0, 0, out->width, out->height, white);
  for (int y = 0; y < img->height; y++)
    memcpy(out->rgba + 4 * (size_t)y * w,
           img->rgba + 4 * (size_t)y * (size_t)img->width,
           4 * (size_t)img->width);
  int y = img->height + PAD;
  for (size_t i = 0; i < n; i++, y += SWATCH + PAD) {
    ts_fill_rect(out, PAD, y, SWATCH, SWATCH, rows[i].fill);
    if (rows[i].frame)
      ts_frame_rect(out, PAD, y, SWATCH, SWATCH, 2, rows[i].frame);
    if (rows[i].inner)
      ts_frame_rect(out, PAD + 2, y + 2, SWATCH - 4, SWATCH - 4, 2,
                    rows[i].inner);
    if (rows[i].dot)
      ts_fill_rect(out, PAD + SWATCH / 2 - 3, y + SWATCH / 2 - 3, 6, 6,
                   rows[i].dot);
    ts_text_draw(out, PAD + SWATCH + PAD, y + (SWATCH - TEXT_H) / 2,
                 rows[i].text, black);
  }
  return out;
}

/* -------------------------------------------------------------- heat map */

/* A fraction 0..1 of the most hits: white to red. */
static void heat_colour(double f, uint8_t px[4]) {
  px[0] = 255;
  px[1] = px[2] = (uint8_t)lround(255 * (1 - f));
  px[3] = 255;
}

#define HEAT_BAR 160 /* the colour scale's length in pixels */

static void heat_size(int w, int h, long runs, int cell, const char *note,
                      size_t *iw, size_t *ih, char *title, size_t tlen) {
  snprintf(title, tlen, "contradictions per cell (%ld run%s)", runs,
           runs == 1 ? "" : "s");
  size_t mw = (size_t)w * (size_t)cell + 2,
         mh = (size_t)h * (size_t)cell + 2; /* and its edge, all round */
  size_t lw = (size_t)ts_text_width(title) + (size_t)(2 * PAD);
  if (lw < (size_t)(HEAT_BAR + 2 * PAD + 40))
    lw = (size_t)(HEAT_BAR + 2 * PAD + 40);
  if (note && (size_t)ts_text_width(note) + (size_t)(2 * PAD) > lw)
    lw = (size_t)ts_text_width(note) + (size_t)(2 * PAD);
  *iw = mw > lw ? mw : lw;
  /* title, bar, numbers (and the note) */
  *ih = mh + (size_t)(PAD + TEXT_H + PAD + SWATCH + 4 + TEXT_H + PAD) +
        (note ? (size_t)(TEXT_H + PAD) : 0);
}

bool tilesat_heat_map_fits(int width, int height, long runs) {
  return tilesat_heat_map_scaled_fits(width, height, runs, 0);
}

tilesat_image *tilesat_heat_map(int width, int height, const long *hits,
                                long runs) {
  return tilesat_heat_map_scaled(width, height, hits, runs, 0);
}

bool tilesat_heat_map_scaled_fits(int width, int height, long runs, int cell) {
  return ts_heat_map_fits(width, height, runs, cell, NULL);
}

bool ts_heat_map_fits(int width, int height, long runs, int cell,
                      const char *note) {
  size_t w, h;
  char title[96];
  if (cell <= 0)
    cell = TILESAT_HEAT_CELL;
  if (width <= 0 || height <= 0 || cell > (1 << 15) ||
      (size_t)width * (size_t)height > ((size_t)1 << 26))
    return false;
  heat_size(width, height, runs, cell, note, &w, &h, title, sizeof title);
  return w <= ((size_t)1 << 15) && h <= ((size_t)1 << 15) &&
         w * h <= ((size_t)1 << 26);
}

/* The map's cells, white to red, one pixel in from its edge, which is
 * drawn all round (white cells meet the white around them). */
static void heat_cells(tilesat_image *img, int width, int height,
                       const long *hits, long most, int cell) {
  for (int r = 0; r < height; r++)
    for (int c = 0; c < width; c++) {
      uint8_t px[4];
      long k = hits[(size_t)r * (size_t)width + (size_t)c];
      heat_colour(most ? (double)k / (double)most : 0, px);
      ts_fill_rect(img, 1 + c * cell, 1 + r * cell, cell, cell, px);
    }
  static const uint8_t edge[4] = {128, 128, 128, 255};
  ts_frame_rect(img, 0, 0, width * cell + 2, height * cell + 2, 1, edge);
}

/* The scale below the map: white (0) to red (the most), framed, with
 * its numbers; y its top. */
static void heat_scale(tilesat_image *img, int y, long most) {
  for (int i = 0; i < HEAT_BAR; i++) {
    uint8_t px[4];
    heat_colour((double)i / (HEAT_BAR - 1), px);
    ts_fill_rect(img, PAD + i, y, 1, SWATCH, px);
  }
  ts_frame_rect(img, PAD - 1, y - 1, HEAT_BAR + 2, SWATCH + 2, 1, black);
  y += SWATCH + 4;
  char num[32];
  ts_text_draw(img, PAD, y, "0", black);
  if (most >= 2) {
    long half = most / 2; /* a whole number of hits, where it lies */
    snprintf(num, sizeof num, "%ld", half);
    ts_text_draw(img,
                 PAD +
                     (int)lround((HEAT_BAR - 1) * (double)half / (double)most) -
                     ts_text_width(num) / 2,
                 y, num, black);
  }
  if (most >= 1) {
    snprintf(num, sizeof num, "%ld", most);
    ts_text_draw(img, PAD + HEAT_BAR - ts_text_width(num), y, num, black);
  }
}

tilesat_image *tilesat_heat_map_scaled(int width, int height, const long *hits,
                                       long runs, int cell) {
  return ts_heat_map(width, height, hits, runs, cell, NULL);
}

tilesat_image *ts_heat_map(int width, int height, const long *hits, long runs,
                           int cell, const char *note) {
  if (cell <= 0)
    cell = TILESAT_HEAT_CELL;
  if (!ts_heat_map_fits(width, height, runs, cell, note))
    return NULL;
  size_t iw, ih;
  char title[96];
  heat_size(width, height, runs, cell, note, &iw, &ih, title, sizeof title);
  long most = 0;
  for (size_t c = 0; c < (size_t)width * (size_t)height; c++)
    most = hits[c] > most ? hits[c] : most;
  tilesat_image *img = tilesat_image_new((int)iw, (int)ih);
  ts_fill_rect(img, 0, 0, img->width, img->height, white);
  heat_cells(img, width, height, hits, most, cell);
  int y = height * cell + 2 + PAD;
  ts_text_draw(img, PAD, y, title, black);
  y += TEXT_H + PAD;
  heat_scale(img, y, most);
  if (note)
    ts_text_draw(img, PAD, y + SWATCH + 4 + TEXT_H + PAD, note, black);
  return img;
}
