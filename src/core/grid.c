/* grid.c: sample maps as text grids, read and written.
 *
 * Two forms.  A character grid has one tile per UTF-8 code point and one
 * row per line; nothing in it is a comment, since '#' is a common tile.  A
 * name grid starts with the line "tilesat-grid names" and has one row per
 * line of whitespace-separated names, "quoted" where a name has spaces;
 * that is the form for tile sets whose names are words ("corner 1").
 * Blank lines may only end a grid.  A byte-order mark is skipped, CRLF ends
 * are accepted. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#define NAMES_HEADER "tilesat-grid names"

struct tilesat_grid {
  int width, height;
  char *filename;
  ts_names names;
  int *cells; /* width * height indices into names */
};

static bool blank(const char *line, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (line[i] != ' ' && line[i] != '\t')
      return false;
  return true;
}

/* Split a row into tile names: code points, or tokens in a name grid.
 * Returns the number of tiles, appending their indices to cells. */
static int split_row(tilesat_grid *g, bool names_form, const char *line,
                     size_t len, long lineno, ts_ints *cells,
                     tilesat_error *err) {
  int n = 0;
  if (names_form) {
    char **tok;
    const char *msg;
    int nt = ts_tokenize(line, len, &tok, &msg);
    if (nt < 0) {
      ts_error(err, g->filename, lineno, "%s", msg);
      return -1;
    }
    for (int i = 0; i < nt; i++) {
      if (!*tok[i]) {
        ts_error(err, g->filename, lineno, "empty tile name");
        ts_tokens_free(tok, nt);
        return -1;
      }
      TS_PUSH(*cells, ts_names_intern(&g->names, tok[i], strlen(tok[i])));
    }
    ts_tokens_free(tok, nt);
    return nt;
  }
  for (size_t i = 0; i < len; n++) {
    if (line[i] == '\t') {
      ts_error(err, g->filename, lineno,
               "tab at column %d: a character grid has one tile per "
               "character, and a tab is not a tile",
               n + 1);
      return -1;
    }
    int k = ts_utf8_len((unsigned char)line[i]);
    TS_PUSH(*cells, ts_names_intern(&g->names, line + i, (size_t)k));
    i += (size_t)k;
  }
  return n;
}

tilesat_grid *tilesat_grid_parse(const char *text, size_t len,
                                 const char *filename, tilesat_error *err) {
  if (!ts_kind_check(text, len, filename, TS_KIND_GRID, err) ||
      !ts_text_check(text, len, filename, false, err))
    return NULL;
  size_t bom = ts_bom_len(text, len);
  text += bom;
  len -= bom;
  tilesat_grid *g = ts_calloc(1, sizeof *g);
  g->filename = ts_strdup(filename);
  ts_ints cells = {0};
  ts_lines it = {text, text + len, 0};
  const char *line;
  size_t n;
  bool names_form = false;
  long blank_line = 0; /* first blank line seen after the rows began */
  while (ts_next_line(&it, &line, &n)) {
    if (it.lineno == 1 && n == strlen(NAMES_HEADER) &&
        !memcmp(line, NAMES_HEADER, n)) {
      names_form = true;
      continue;
    }
    if (blank(line, n) && (names_form || n == 0)) {
      if (!blank_line)
        blank_line = it.lineno;
      continue;
    }
    if (blank_line) {
      ts_error(err, filename, blank_line,
               "blank line inside the grid (blank lines may only end it)");
      goto fail;
    }
    int w = split_row(g, names_form, line, n, it.lineno, &cells, err);
    if (w < 0)
      goto fail;
    if (g->height == 0) {
      g->width = w;
    } else if (w != g->width) {
      ts_error(err, filename, it.lineno,
               "ragged grid: row has %d tile%s, the rows above have %d", w,
               w == 1 ? "" : "s", g->width);
      goto fail;
    }
    if (g->height == INT32_MAX / 2 ||
        (size_t)g->width * (size_t)(g->height + 1) > (size_t)INT32_MAX / 2) {
      ts_error(err, filename, it.lineno, "grid too large");
      goto fail;
    }
    g->height++;
  }
  if (g->height == 0) {
    ts_error(err, filename, 0, "empty sample: no rows");
    goto fail;
  }
  g->cells = cells.v;
  return g;
fail:
  free(cells.v);
  tilesat_grid_free(g);
  return NULL;
}

tilesat_grid *tilesat_grid_read_file(const char *path, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  tilesat_grid *g = tilesat_grid_parse(text, len, path, err);
  free(text);
  return g;
}

void tilesat_grid_free(tilesat_grid *g) {
  if (!g)
    return;
  ts_names_free(&g->names);
  free(g->filename);
  free(g->cells);
  free(g);
}

int tilesat_grid_width(const tilesat_grid *g) { return g->width; }
int tilesat_grid_height(const tilesat_grid *g) { return g->height; }
const char *tilesat_grid_filename(const tilesat_grid *g) { return g->filename; }

const char *tilesat_grid_at(const tilesat_grid *g, int row, int col) {
  if (row < 0 || row >= g->height || col < 0 || col >= g->width)
    ts_misuse(__func__, "cell outside the grid");
  int id = g->cells[(size_t)row * (size_t)g->width + (size_t)col];
  return id < 0 ? NULL : g->names.v.v[id];
}

/* Can this name stand as one cell of a character grid and read back?  Not
 * a space, tab or line end, nor a byte-order mark (skipped at the start). */
static bool one_char(const char *name) {
  size_t n = strlen(name);
  long line;
  char msg[64];
  return n > 0 && (size_t)ts_utf8_len((unsigned char)name[0]) == n &&
         (unsigned char)name[0] > ' ' && ts_bom_len(name, n) == 0 &&
         ts_utf8_check(name, n, &line, msg, sizeof msg);
}

int tilesat_map_write(const tilesat_map *m, const int *tiles, FILE *out) {
  const tilesat_rules *r = m->rules;
  bool chars = true;
  for (int t = 0; t < r->ntiles; t++)
    chars = chars && one_char(r->names.v.v[t]);
  /* A character grid whose first row spells the name-grid header would read
   * back as a name grid: write that (improbable) map as a name grid. */
  if (chars && m->width == (int)strlen(NAMES_HEADER)) {
    bool same = true;
    for (int c = 0; c < m->width && same; c++)
      same = tiles[c] >= 0 &&
             !strcmp(r->names.v.v[tiles[c]], (char[]){NAMES_HEADER[c], 0});
    chars = !same;
  }
  if (!chars)
    fprintf(out, "%s\n", NAMES_HEADER);
  for (int row = 0; row < m->height; row++) {
    for (int c = 0; c < m->width; c++) {
      int t = tiles[row * m->width + c];
      /* a masked cell: a blank (a name grid's "") */
      const char *name = t < 0 ? (chars ? " " : "") : r->names.v.v[t];
      if (chars) {
        fputs(name, out);
        continue;
      }
      if (c)
        fputc(' ', out);
      ts_write_token(out, name);
    }
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

tilesat_grid *ts_grid_new(const char *filename, int width, int height,
                          ts_names *names, int *cells) {
  tilesat_grid *g = ts_calloc(1, sizeof *g);
  g->filename = ts_strdup(filename);
  g->width = width;
  g->height = height;
  g->names = *names;
  memset(names, 0, sizeof *names);
  g->cells = cells;
  return g;
}
