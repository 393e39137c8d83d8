/* global.c: global constraints on a map (count, connected, path, border):
 * the constraints file and the command-line shortcuts that make them,
 * their descriptions, and the independent check of a filled map.  How
 * each engine keeps them: the CNF (sat/encode.c) holds counts (a
 * totalizer), borders (units) and what connected and path constraints
 * force; the cuts that keep a class connected come as models break it
 * (sat/cuts.c).
 *
 * Formats (rules/README.md, "Constraints files"):
 *
 *   tilesat-constraints 1
 *   class floor . + , =
 *   count CLASS =|<=|>= K [rect R0,C0:R1,C1]
 *   connected CLASS [nonempty | at R,C]
 *   path CLASS R,C R,C...
 *   border SIDES CLASS
 *
 * CLASS: a class named by a `class` line, a tile, or tiles joined by
 * commas.  Shortcuts: --connected CLASS, --path R,C:R,C=CLASS,
 * --count CLASS=K (<=K, >=K), --border SIDES=CLASS. */
#include "core/core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "tilesat-constraints"
#define FORMAT_VERSION 1

/* Where a constraint comes from: a file's line or an option. */
typedef struct src {
  tilesat_map *m;
  ts_reader *rd;      /* a file, or NULL */
  const char *option; /* else the option */
  tilesat_error *err;
} src;

static int say(const src *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int say(const src *s, const char *fmt, ...) {
  char msg[sizeof s->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (s->rd)
    return ts_reader_error(s->rd, "%s", msg);
  ts_error(s->err, s->option, 0, "%s", msg);
  return -1;
}

static char *origin_of(const src *s) {
  if (!s->rd)
    return ts_strdup(s->option);
  char buf[1200];
  snprintf(buf, sizeof buf, "%s:%ld", s->rd->file, s->rd->it.lineno);
  return ts_strdup(buf);
}

/* ------------------------------------------------------------- classes */

static uint64_t *new_set(const tilesat_rules *r) {
  return ts_calloc((size_t)r->words, sizeof(uint64_t));
}

static int find_tile_n(const tilesat_rules *r, const char *s, size_t n) {
  return ts_names_find_n(&r->names, s, n);
}

/* The most commas a tile name holds, and the longest name's bytes. */
static void name_bounds(const tilesat_rules *r, size_t *commas,
                        size_t *longest) {
  *commas = *longest = 0;
  for (size_t t = 0; t < r->names.v.n; t++) {
    const char *name = r->names.v.v[t];
    size_t c = 0, len = strlen(name);
    for (const char *p = name; (p = strchr(p, ',')); p++)
      c++;
    *commas = c > *commas ? c : *commas;
    *longest = len > *longest ? len : *longest;
  }
}

/* How many ways s[0..n) reads as tile names joined by commas (0, 1, or 2
 * for more); next[i], for i where a name may start, the end of the first
 * name of a way that reads s[i..n). From the end backwards, one loop (no
 * recursion: a line of any length takes constant stack), and a name that
 * starts at i ends at one of the next commas + 1 commas of the rules'
 * names within the longest name's bytes, so the work is linear in n (times
 * the most commas a name holds, 0 in most rules). */
static int ways(const tilesat_rules *r, const char *s, size_t n, size_t *next) {
  size_t commas, longest;
  name_bounds(r, &commas, &longest);
  signed char *w = ts_calloc(n + 1, 1); /* ways to read s[i..n) */
  for (size_t i = n; i-- > 0;) {
    if (i > 0 && s[i - 1] != ',')
      continue;
    int total = 0;
    size_t j = i;
    for (size_t c = 0; c <= commas && j < n && j - i <= longest && total < 2;
         c++) {
      const char *comma = memchr(s + j + 1, ',', n - j - 1);
      j = comma ? (size_t)(comma - s) : n;
      if (j - i > longest || find_tile_n(r, s + i, j - i) < 0)
        continue;
      int rest = j == n ? 1 : w[j + 1];
      if (rest && !total)
        next[i] = j;
      total += rest;
    }
    w[i] = (signed char)(total > 2 ? 2 : total);
  }
  int total = n ? w[0] : 0;
  free(w);
  return total;
}

#define SHOWN 64 /* a word longer than this is cut in messages */

/* The word quoted for a message, its first SHOWN bytes (whole UTF-8
 * characters) and its length when longer: a line of 100000 names would
 * otherwise fill the message and cut what it says. */
static void show(const char *word, char out[SHOWN + 32]) {
  size_t n = strlen(word), cut = SHOWN;
  if (n <= SHOWN) {
    snprintf(out, SHOWN + 32, "'%s'", word);
    return;
  }
  while (cut > 0 && ((unsigned char)word[cut] & 0xc0) == 0x80)
    cut--;
  snprintf(out, SHOWN + 32, "'%.*s...' (%zu bytes)", (int)cut, word, n);
}

/* A class name, a tile, or tiles joined by commas (a tile whose name holds
 * a comma is found when only one reading fits). */
static uint64_t *parse_class(const src *s, const char *word) {
  const tilesat_rules *r = s->m->rules;
  uint64_t *set = new_set(r);
  int k = ts_names_find(&s->m->class_names, word);
  if (k >= 0) {
    memcpy(set, s->m->classes.v[k].tiles, (size_t)r->words * sizeof *set);
    return set;
  }
  int t = tilesat_rules_find_tile(r, word);
  if (t >= 0) {
    set[t >> 6] |= (uint64_t)1 << (t & 63);
    return set;
  }
  size_t n = strlen(word);
  size_t *next = ts_calloc(n + 1, sizeof *next);
  int w = ways(r, word, n, next);
  for (size_t i = 0; w == 1 && i < n; i = next[i] + 1) {
    t = find_tile_n(r, word + i, next[i] - i);
    set[t >> 6] |= (uint64_t)1 << (t & 63);
  }
  free(next);
  if (w == 1)
    return set;
  free(set);
  char hint[TS_HINT], shown[SHOWN + 32];
  show(word, shown);
  if (w == 0 && !strchr(word, ','))
    ts_names_hint(&r->names, word, "tiles", hint, sizeof hint);
  if (w == 0 && !strchr(word, ','))
    say(s, "unknown tile or class %s%s", shown, hint);
  else if (w == 0)
    say(s, "%s is not tiles joined by commas (an unknown tile)", shown);
  else
    say(s, "%s reads as tiles joined by commas in more than one way", shown);
  return NULL;
}

static int class_line(const src *s) {
  ts_reader *rd = s->rd;
  if (rd->nt < 3)
    return say(s, "expected 'class NAME TILE...'");
  const char *name = rd->tok[1];
  if (tilesat_rules_find_tile(s->m->rules, name) >= 0)
    return say(s, "class '%s': a tile has that name", name);
  if (ts_names_find(&s->m->class_names, name) >= 0)
    return say(s, "class '%s' is already named", name);
  ts_class c = {NULL, new_set(s->m->rules)};
  for (int i = 2; i < rd->nt; i++) {
    int t = tilesat_rules_find_tile(s->m->rules, rd->tok[i]);
    if (t < 0) {
      free(c.tiles);
      char hint[TS_HINT];
      ts_names_hint(&s->m->rules->names, rd->tok[i], "tiles", hint,
                    sizeof hint);
      return say(s, "unknown tile '%s'%s", rd->tok[i], hint);
    }
    c.tiles[t >> 6] |= (uint64_t)1 << (t & 63);
  }
  int k = ts_names_intern(&s->m->class_names, name, strlen(name));
  c.name = s->m->class_names.v.v[k];
  TS_PUSH(s->m->classes, c);
  return 0;
}

/* ------------------------------------------------------------ numbers */

/* "R,C" (decimal digits) of a cell of the map, into *cell. */
static int parse_cell(const src *s, const char *text, size_t n, int *cell) {
  char buf[64];
  uint64_t r, c;
  const char *comma = memchr(text, ',', n);
  if (n >= sizeof buf || !comma)
    return say(s, "'%.*s' is not a cell ROW,COL", (int)n, text);
  memcpy(buf, text, n);
  buf[n] = 0;
  buf[comma - text] = 0;
  if (!ts_parse_whole(buf, 1 << 30, &r) ||
      !ts_parse_whole(buf + (comma - text) + 1, 1 << 30, &c))
    return say(s, "'%.*s' is not a cell ROW,COL", (int)n, text);
  if ((int)r >= s->m->height || (int)c >= s->m->width)
    return say(s, "cell (%d,%d) is outside the %dx%d map", (int)r, (int)c,
               s->m->width, s->m->height);
  *cell = (int)r * s->m->width + (int)c;
  return 0;
}

/* "all", or letters of "nesw" (each once, commas between allowed). */
static int parse_sides(const src *s, const char *text, size_t n,
                       unsigned *sides) {
  static const char letters[] = "nesw";
  *sides = 0;
  if (n == 3 && !strncmp(text, "all", 3)) {
    *sides = 15;
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    const char *p = text[i] ? strchr(letters, text[i]) : NULL;
    unsigned bit = p ? 1u << (p - letters) : 0;
    if (text[i] == ',' && i > 0 && i + 1 < n && text[i + 1] != ',')
      continue;
    if (!bit || (*sides & bit))
      return say(s, "'%.*s' is not sides: n, e, s and w (each once), or all",
                 (int)n, text);
    *sides |= bit;
  }
  if (!*sides)
    return say(s, "no sides: n, e, s and w (each once), or all");
  return 0;
}

#define MAX_COUNT (1 << 30)

static int parse_k(const src *s, const char *text, int *k) {
  uint64_t v;
  if (*text && strspn(text, "0123456789") == strlen(text) &&
      !ts_parse_whole(text, MAX_COUNT, &v))
    return say(s,
               "'%s' is too large a count: at most %d (the map has %d "
               "cells)",
               text, MAX_COUNT, s->m->ncells);
  if (!ts_parse_whole(text, MAX_COUNT, &v))
    return say(s, "'%s' is not a count (a whole number)", text);
  *k = (int)v;
  return 0;
}

static int parse_cmp(const char *text, ts_cmp *cmp) {
  if (!strcmp(text, "<="))
    *cmp = TS_AT_MOST;
  else if (!strcmp(text, ">="))
    *cmp = TS_AT_LEAST;
  else if (!strcmp(text, "="))
    *cmp = TS_EXACTLY;
  else
    return -1;
  return 0;
}

/* ---------------------------------------------------------- in words */

static void write_class(const tilesat_rules *r, const uint64_t *set,
                        const char *sep, FILE *out) {
  bool first = true;
  for (int t = 0; t < r->ntiles; t++)
    if (ts_bit(set, t)) {
      fputs(first ? "" : sep, out);
      ts_write_token(out, r->names.v.v[t]);
      first = false;
    }
}

/* Does the word name a class of the map ("class floor ...")? */
static bool class_named(const tilesat_map *m, const char *word) {
  return ts_names_find(&m->class_names, word) >= 0;
}

/* The class as named: "floor", "T", or its tiles "{. + , =}"; with
 * `tiles`, a named class's tiles too: "floor (. + , =)". */
static void write_name(const tilesat_map *m, const ts_global *g,
                       const char *word, bool tiles, FILE *out) {
  if (class_named(m, word)) {
    fputs(word, out);
    if (tiles) {
      fputs(" (", out);
      write_class(m->rules, g->class, " ", out);
      fputc(')', out);
    }
    return;
  }
  fputs(g->ntiles > 1 ? "{" : "", out);
  write_class(m->rules, g->class, " ", out);
  fputs(g->ntiles > 1 ? "}" : "", out);
}

static void write_cell(const tilesat_map *m, int cell, FILE *out) {
  fprintf(out, "(%d,%d)", cell / m->width, cell % m->width);
}

/* " on the north and south sides", " on every side". */
static void write_sides(unsigned sides, FILE *out) {
  static const char *const side[] = {"north", "east", "south", "west"};
  int n = 0, k = 0;
  for (int i = 0; i < 4; i++)
    n += (int)((sides >> i) & 1);
  if (n == 4) {
    fputs(" on every side", out);
    return;
  }
  for (int i = 0; i < 4; i++)
    if ((sides >> i) & 1) {
      k++;
      fprintf(out, "%s%s",
              k == 1   ? " on the "
              : k == n ? " and "
                       : ", ",
              side[i]);
    }
  fputs(n > 1 ? " sides" : " side", out);
}

static void describe(const tilesat_map *m, ts_global *g, const char *word) {
  static const char *const cmp[] = {"at most", "at least", "exactly"};
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (!out)
    ts_misuse(__func__, "out of memory");
  switch (g->kind) {
  case TILESAT_GLOBAL_COUNT:
    fputs("the count of ", out);
    write_name(m, g, word, true, out);
    if (g->r0 || g->c0 || g->r1 < m->height - 1 || g->c1 < m->width - 1)
      fprintf(out, " in rows %d-%d, columns %d-%d", g->r0, g->r1, g->c0, g->c1);
    fprintf(out, " is %s %d", cmp[g->cmp], g->k);
    break;
  case TILESAT_GLOBAL_CONNECTED:
    write_name(m, g, word, false, out);
    fputs(" connected: the cells holding ", out);
    write_class(m->rules, g->class, " ", out);
    fputs(" form one region", out);
    if (g->nonempty)
      fputs(", of at least one cell", out);
    if (g->at >= 0) {
      fputs(" that holds ", out);
      write_cell(m, g->at, out);
    }
    break;
  case TILESAT_GLOBAL_PATH:
    fputs("a path of ", out);
    write_name(m, g, word, true, out);
    fputs(" joins ", out);
    for (size_t i = 0; i < g->cells.n; i++) {
      fputs(i == 0 ? "" : i + 1 == g->cells.n ? " and " : ", ", out);
      write_cell(m, g->cells.v[i], out);
    }
    break;
  case TILESAT_GLOBAL_BORDER:
    fputs("only ", out);
    write_name(m, g, word, true, out);
    write_sides(g->sides, out);
    break;
  }
  fclose(out);
  g->text = buf;
}

/* ------------------------------------------------------- constraints */

/* A new constraint of the class `word`, pushed once complete (push). */
static int start(const src *s, ts_global *g, tilesat_global_kind kind,
                 const char *word) {
  memset(g, 0, sizeof *g);
  g->kind = kind;
  g->at = -1;
  g->class = parse_class(s, word);
  if (!g->class)
    return -1;
  for (int t = 0; t < s->m->rules->ntiles; t++)
    if (ts_bit(g->class, t)) {
      g->ntiles++;
      g->tile = t;
    }
  g->r1 = s->m->height - 1;
  g->c1 = s->m->width - 1;
  return 0;
}

static void drop(ts_global *g) {
  free(g->class);
  free(g->text);
  free(g->origin);
  free(g->cells.v);
}

static int push(const src *s, ts_global *g, const char *word, int rc) {
  if (rc) {
    drop(g);
    return -1;
  }
  g->origin = origin_of(s);
  describe(s->m, g, word);
  TS_PUSH(s->m->globals, *g);
  return 0;
}

static int add_count(const src *s, const char *word, ts_cmp cmp, int k,
                     const char *rect) {
  ts_global g;
  if (start(s, &g, TILESAT_GLOBAL_COUNT, word))
    return -1;
  g.cmp = cmp;
  g.k = k;
  int rc = 0;
  if (rect) {
    const char *colon = strchr(rect, ':');
    int a = 0, b = 0;
    rc = !colon ? say(s, "rect wants R0,C0:R1,C1 (corners, inclusive)")
                : parse_cell(s, rect, (size_t)(colon - rect), &a) ||
                      parse_cell(s, colon + 1, strlen(colon + 1), &b);
    g.r0 = a / s->m->width;
    g.c0 = a % s->m->width;
    g.r1 = b / s->m->width;
    g.c1 = b % s->m->width;
    if (!rc && (g.r0 > g.r1 || g.c0 > g.c1))
      rc = say(s,
               "rect %s: the first corner is not above and left of the "
               "second",
               rect);
  }
  return push(s, &g, word, rc);
}

static int add_connected(const src *s, const char *word, bool nonempty,
                         const char *at) {
  ts_global g;
  if (start(s, &g, TILESAT_GLOBAL_CONNECTED, word))
    return -1;
  g.nonempty = nonempty;
  int rc = at ? parse_cell(s, at, strlen(at), &g.at) : 0;
  return push(s, &g, word, rc);
}

/* cells: "R,C" strings, n of them. */
static int add_path(const src *s, const char *word, const char *const *cells,
                    const size_t *lens, int n) {
  ts_global g;
  if (start(s, &g, TILESAT_GLOBAL_PATH, word))
    return -1;
  int rc = n < 2 ? say(s, "a path joins two cells or more") : 0;
  for (int i = 0; i < n && !rc; i++) {
    int cell;
    rc = parse_cell(s, cells[i], lens[i], &cell);
    if (!rc)
      TS_PUSH(g.cells, cell);
  }
  return push(s, &g, word, rc);
}

static int add_border(const src *s, const char *sides, size_t n,
                      const char *word) {
  ts_global g;
  if (start(s, &g, TILESAT_GLOBAL_BORDER, word))
    return -1;
  int rc = parse_sides(s, sides, n, &g.sides);
  if (!rc && s->m->periodic)
    rc = say(s, "a periodic map has no sides to border");
  return push(s, &g, word, rc);
}

/* ---------------------------------------------------------- the file */

static int unexpected_word(const src *s, int at) {
  return say(s, "unexpected word '%s' after '%s'", s->rd->tok[at],
             s->rd->tok[at - 1]);
}

static int count_line(const src *s) {
  ts_reader *rd = s->rd;
  ts_cmp cmp;
  int k = 0;
  if (rd->nt != 4 && rd->nt != 6)
    return rd->nt > 6 ? unexpected_word(s, 6)
                      : say(s, "expected 'count CLASS =|<=|>= K [rect "
                               "R0,C0:R1,C1]'");
  if (parse_cmp(rd->tok[2], &cmp))
    return say(s, "'%s' is not =, <= or >=", rd->tok[2]);
  if (parse_k(s, rd->tok[3], &k))
    return -1;
  if (rd->nt == 6 && strcmp(rd->tok[4], "rect"))
    return say(s, "expected 'rect R0,C0:R1,C1' after the count, not '%s'",
               rd->tok[4]);
  return add_count(s, rd->tok[1], cmp, k, rd->nt == 6 ? rd->tok[5] : NULL);
}

static int connected_line(const src *s) {
  ts_reader *rd = s->rd;
  if (rd->nt < 2)
    return say(s, "expected 'connected CLASS [nonempty | at R,C]'");
  if (rd->nt == 2)
    return add_connected(s, rd->tok[1], false, NULL);
  if (!strcmp(rd->tok[2], "nonempty"))
    return rd->nt > 3 ? unexpected_word(s, 3)
                      : add_connected(s, rd->tok[1], true, NULL);
  if (!strcmp(rd->tok[2], "at") && rd->nt == 4)
    return add_connected(s, rd->tok[1], false, rd->tok[3]);
  if (rd->nt > 4)
    return unexpected_word(s, 4);
  return say(s, "expected 'nonempty' or 'at R,C' after the class, not '%s'",
             rd->tok[2]);
}

static int path_line(const src *s) {
  ts_reader *rd = s->rd;
  if (rd->nt < 4)
    return say(s, "expected 'path CLASS R,C R,C...' (two cells or more)");
  int n = rd->nt - 2;
  size_t *lens = ts_malloc((size_t)n * sizeof *lens);
  for (int i = 0; i < n; i++)
    lens[i] = strlen(rd->tok[i + 2]);
  int rc = add_path(s, rd->tok[1], (const char *const *)rd->tok + 2, lens, n);
  free(lens);
  return rc;
}

static int border_line(const src *s) {
  ts_reader *rd = s->rd;
  if (rd->nt != 3)
    return rd->nt > 3 ? unexpected_word(s, 3)
                      : say(s, "expected 'border SIDES CLASS' (SIDES: "
                               "letters of nesw, or all)");
  return add_border(s, rd->tok[1], strlen(rd->tok[1]), rd->tok[2]);
}

static const struct line {
  const char *name;
  int (*read)(const src *s);
} lines[] = {
    {"class", class_line},         {"count", count_line},
    {"connected", connected_line}, {"path", path_line},
    {"border", border_line},
};

static int read_line(const src *s) {
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
    if (!strcmp(s->rd->tok[0], lines[i].name))
      return lines[i].read(s);
  return say(s,
             "unknown constraint '%s' (class, count, connected, path, "
             "border)",
             s->rd->tok[0]);
}

int tilesat_map_constraints_parse(tilesat_map *m, const char *text, size_t len,
                                  const char *filename, tilesat_error *err) {
  if (!m || !text || !filename)
    ts_misuse(__func__, "NULL map, text or file name");
  ts_reader rd;
  if (!ts_reader_open(&rd, text, len, filename, TS_KIND_CONSTRAINTS, false,
                      err))
    return -1;
  src s = {m, &rd, NULL, err};
  bool header = false;
  int more;
  while ((more = ts_reader_next(&rd)) > 0) {
    if (header ? read_line(&s) : ts_reader_header(&rd, HEADER, FORMAT_VERSION))
      break;
    header = true;
  }
  ts_reader_close(&rd);
  if (more)
    return -1;
  if (!header) {
    ts_error(err, filename, 0,
             "empty constraints file (the first line must be '%s %d')", HEADER,
             FORMAT_VERSION);
    return -1;
  }
  return 0;
}

int tilesat_map_constraints_read_file(tilesat_map *m, const char *path,
                                      tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return -1;
  int rc = tilesat_map_constraints_parse(m, text, len, path, err);
  free(text);
  return rc;
}

/* --------------------------------------------------------- shortcuts */

/* CLASS=K, CLASS<=K, CLASS>=K: K the digits at the end. */
static int count_option(const src *s, const char *v) {
  size_t n = strlen(v), d = n;
  while (d > 0 && v[d - 1] >= '0' && v[d - 1] <= '9')
    d--;
  if (d == n || d == 0 || v[d - 1] != '=')
    return say(s, "'%s' is not CLASS=K, CLASS<=K or CLASS>=K", v);
  ts_cmp cmp = TS_EXACTLY;
  size_t end = d - 1; /* the class ends here */
  if (end >= 2 && (v[end - 1] == '<' || v[end - 1] == '>')) {
    cmp = v[end - 1] == '<' ? TS_AT_MOST : TS_AT_LEAST;
    end--;
  }
  int k = 0;
  char *word = ts_strndup(v, end);
  int rc = parse_k(s, v + d, &k) ? -1 : add_count(s, word, cmp, k, NULL);
  free(word);
  return rc;
}

/* R,C:R,C...=CLASS: the cells are digits, commas and colons. */
static int path_option(const src *s, const char *v) {
  size_t n = strspn(v, "0123456789,:");
  if (v[n] != '=' || !n)
    return say(s, "'%s' is not R1,C1:R2,C2=CLASS", v);
  TS_VEC(const char *) cells = {0};
  TS_VEC(size_t) lens = {0};
  for (const char *p = v; p < v + n;) {
    const char *colon = memchr(p, ':', (size_t)(v + n - p));
    const char *end = colon ? colon : v + n;
    TS_PUSH(cells, p);
    TS_PUSH(lens, (size_t)(end - p));
    p = end + 1;
  }
  int rc = add_path(s, v + n + 1, cells.v, lens.v, (int)cells.n);
  free(cells.v);
  free(lens.v);
  return rc;
}

int tilesat_map_constraint_add(tilesat_map *m, tilesat_global_kind kind,
                               const char *spec, const char *origin,
                               tilesat_error *err) {
  if (!m || !spec || !origin)
    ts_misuse(__func__, "NULL map, spec or origin");
  src s = {m, NULL, origin, err};
  switch (kind) {
  case TILESAT_GLOBAL_CONNECTED:
    return add_connected(&s, spec, false, NULL);
  case TILESAT_GLOBAL_COUNT:
    return count_option(&s, spec);
  case TILESAT_GLOBAL_PATH:
    return path_option(&s, spec);
  case TILESAT_GLOBAL_BORDER: {
    const char *eq = strchr(spec, '=');
    if (!eq)
      return say(&s, "'%s' is not SIDES=CLASS", spec);
    return add_border(&s, spec, (size_t)(eq - spec), eq + 1);
  }
  }
  ts_misuse(__func__, "not a kind of global constraint");
}

uint64_t *ts_class_parse(const tilesat_map *m, const char *word,
                         const char *option, tilesat_error *err) {
  /* parse_class only reads the map (its rules and named classes) */
  src s = {(tilesat_map *)m, NULL, option, err};
  return parse_class(&s, word);
}

/* -------------------------------------------------------- accessors */

static const ts_global *global_at(const tilesat_map *m, int i,
                                  const char *func) {
  if (!m || i < 0 || (size_t)i >= m->globals.n)
    ts_misuse(func, "NULL map, or index out of range");
  return &m->globals.v[i];
}

tilesat_global_kind tilesat_map_global_kind(const tilesat_map *m, int i) {
  return global_at(m, i, __func__)->kind;
}

const char *tilesat_map_global_text(const tilesat_map *m, int i) {
  return global_at(m, i, __func__)->text;
}

const char *tilesat_map_global_origin(const tilesat_map *m, int i) {
  return global_at(m, i, __func__)->origin;
}

void ts_globals_free(tilesat_map *m) {
  for (size_t i = 0; i < m->globals.n; i++)
    drop(&m->globals.v[i]);
  for (size_t i = 0; i < m->classes.n; i++)
    free(m->classes.v[i].tiles);
  free(m->globals.v);
  free(m->classes.v);
  ts_names_free(&m->class_names);
}

bool ts_global_covers(const tilesat_map *m, const ts_global *g, int cell) {
  int r = cell / m->width, c = cell % m->width;
  if (g->kind == TILESAT_GLOBAL_BORDER)
    return ((g->sides & TS_SIDE_N) && r == 0) ||
           ((g->sides & TS_SIDE_S) && r == m->height - 1) ||
           ((g->sides & TS_SIDE_W) && c == 0) ||
           ((g->sides & TS_SIDE_E) && c == m->width - 1);
  return r >= g->r0 && r <= g->r1 && c >= g->c0 && c <= g->c1;
}

bool ts_map_has_lazy(const tilesat_map *m) {
  for (size_t i = 0; i < m->globals.n; i++)
    if (ts_global_lazy(&m->globals.v[i]))
      return true;
  return false;
}

int ts_regions(const tilesat_map *m, const int *nbr, const uint8_t *in,
               int *comp, int *queue) {
  int D = m->rules->ndirs, n = 0;
  for (int c = 0; c < m->ncells; c++)
    comp[c] = -1;
  for (int c = 0; c < m->ncells; c++) {
    if (!in[c] || comp[c] >= 0)
      continue;
    int head = 0, tail = 0;
    comp[c] = n;
    queue[tail++] = c;
    while (head < tail) {
      int u = queue[head++];
      for (int d = 0; d < D; d++) {
        int v = nbr ? nbr[(size_t)u * (size_t)D + (size_t)d]
                    : ts_map_neighbor(m, u, d);
        if (v >= 0 && in[v] && comp[v] < 0) {
          comp[v] = n;
          queue[tail++] = v;
        }
      }
    }
    n++;
  }
  return n;
}

static const char *const kind_names[] = {"count", "connected", "path",
                                         "border"};

int tilesat_map_refuse_globals(const tilesat_map *m, unsigned kinds,
                               const char *what, const char *hint,
                               tilesat_error *err) {
  if (m->nmasked && !(kinds & TILESAT_KEEPS_MASK)) {
    ts_error(err, NULL, 0,
             "%s cannot keep masked cells yet (%d of the map's cells are "
             "masked)%s",
             what, m->nmasked, hint ? hint : "");
    return -1;
  }
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (kinds & (1u << g->kind))
      continue;
    ts_error(err, NULL, 0, "%s cannot keep %s constraints yet (%s: %s)%s", what,
             kind_names[g->kind], g->origin, g->text, hint ? hint : "");
    return -1;
  }
  return 0;
}

/* A copy of g (its own class, words and cells) into low's constraints. */
static void copy_global(const tilesat_map *m, const ts_global *g,
                        tilesat_map *low) {
  ts_global c = *g;
  c.class = new_set(m->rules);
  memcpy(c.class, g->class, (size_t)m->rules->words * sizeof *c.class);
  c.text = ts_strdup(g->text);
  c.origin = ts_strdup(g->origin);
  memset(&c.cells, 0, sizeof c.cells);
  for (size_t k = 0; k < g->cells.n; k++)
    TS_PUSH(c.cells, g->cells.v[k]);
  TS_PUSH(low->globals, c);
}

tilesat_map *ts_map_lowered(const tilesat_map *m) {
  bool any = false;
  for (size_t i = 0; i < m->globals.n; i++)
    any |= m->globals.v[i].kind == TILESAT_GLOBAL_BORDER;
  if (!any)
    return NULL;
  tilesat_map *low = ts_calloc(1, sizeof *low);
  low->rules = m->rules;
  low->topo = m->topo;
  low->periodic = m->periodic;
  low->width = m->width;
  low->height = m->height;
  low->ncells = m->ncells;
  low->max_memory = m->max_memory;
  if (m->masked) {
    low->masked = ts_malloc((size_t)m->ncells);
    memcpy(low->masked, m->masked, (size_t)m->ncells);
    low->nmasked = m->nmasked;
  }
  for (size_t i = 0; i < m->pins.n; i++)
    TS_PUSH(low->pins, m->pins.v[i]);
  for (size_t i = 0; i < m->bans.n; i++)
    TS_PUSH(low->bans, m->bans.v[i]);
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (g->kind != TILESAT_GLOBAL_BORDER) {
      copy_global(m, g, low);
      continue;
    }
    for (int c = 0; c < m->ncells; c++)
      for (int t = 0; t < m->rules->ntiles && ts_global_covers(m, g, c) &&
                      !ts_masked(m, c);
           t++)
        if (!ts_bit(g->class, t))
          TS_PUSH(low->bans, ((ts_pin){c, t}));
  }
  return low;
}

/* ----------------------------------------------------------- checking */

/* What a cell holds, in words. */
static const char *held(const tilesat_map *m, int tile) {
  return tile < 0 ? "no tile (it is masked)" : m->rules->names.v.v[tile];
}

/* A tile of the class (a masked cell's TILESAT_NO_TILE is none). */
static bool in_class(const ts_global *g, int tile) {
  return tile >= 0 && ts_bit(g->class, tile);
}

static int count_cells(const tilesat_map *m, const ts_global *g,
                       const int *tiles) {
  int n = 0;
  for (int c = 0; c < m->ncells; c++)
    n += ts_global_covers(m, g, c) && in_class(g, tiles[c]);
  return n;
}

/* Why a filled map breaks g, into why; false if it keeps it. */
static bool broken(const tilesat_map *m, const ts_global *g, const int *tiles,
                   char *why, size_t whylen) {
  int W = m->width;
  if (g->kind == TILESAT_GLOBAL_COUNT) {
    int n = count_cells(m, g, tiles);
    bool ok = g->cmp == TS_AT_MOST    ? n <= g->k
              : g->cmp == TS_AT_LEAST ? n >= g->k
                                      : n == g->k;
    if (!ok)
      snprintf(why, whylen, "%d cells hold them", n);
    return !ok;
  }
  if (g->kind == TILESAT_GLOBAL_BORDER) {
    for (int c = 0; c < m->ncells; c++)
      if (ts_global_covers(m, g, c) && !in_class(g, tiles[c]) &&
          !ts_masked(m, c)) {
        snprintf(why, whylen, "(%d,%d) holds %s", c / W, c % W,
                 held(m, tiles[c]));
        return true;
      }
    return false;
  }
  uint8_t *in = ts_malloc((size_t)m->ncells);
  int *comp = ts_malloc((size_t)m->ncells * sizeof *comp);
  int *queue = ts_malloc((size_t)m->ncells * sizeof *queue);
  for (int c = 0; c < m->ncells; c++)
    in[c] = in_class(g, tiles[c]);
  int n = ts_regions(m, NULL, in, comp, queue);
  bool bad = false;
  if (g->kind == TILESAT_GLOBAL_CONNECTED) {
    int first = -1, other = -1;
    for (int c = 0; c < m->ncells; c++) {
      if (comp[c] == 0 && first < 0)
        first = c;
      if (comp[c] > 0 && other < 0)
        other = c;
    }
    if (g->at >= 0 && !in[g->at]) {
      snprintf(why, whylen, "(%d,%d) holds %s", g->at / W, g->at % W,
               held(m, tiles[g->at]));
      bad = true;
    } else if (g->nonempty && n == 0) {
      snprintf(why, whylen, "no cell holds one");
      bad = true;
    } else if (n > 1) {
      snprintf(why, whylen, "(%d,%d) and (%d,%d) are in separate regions",
               first / W, first % W, other / W, other % W);
      bad = true;
    }
  }
  for (size_t i = 0; i < g->cells.n && !bad; i++) {
    int c = g->cells.v[i];
    if (!in[c]) {
      snprintf(why, whylen, "(%d,%d) holds %s", c / W, c % W,
               held(m, tiles[c]));
      bad = true;
    } else if (comp[c] != comp[g->cells.v[0]]) {
      snprintf(why, whylen, "(%d,%d) and (%d,%d) are not joined",
               g->cells.v[0] / W, g->cells.v[0] % W, c / W, c % W);
      bad = true;
    }
  }
  free(in);
  free(comp);
  free(queue);
  return bad;
}

bool ts_global_broken(const tilesat_map *m, int i, const int *tiles, char *why,
                      size_t whylen) {
  const ts_global *g = &m->globals.v[i];
  char what[256];
  if (!broken(m, g, tiles, what, sizeof what))
    return false;
  snprintf(why, whylen, "%s: %s, but %s", g->origin, g->text, what);
  return true;
}

int ts_globals_broken(const tilesat_map *m, const int *tiles, char *why,
                      size_t whylen) {
  char later[512] = ""; /* after the first: counted, not said */
  int n = 0;
  for (int i = 0; i < (int)m->globals.n; i++) {
    char *to = n ? later : why;
    if (ts_global_broken(m, i, tiles, to, n ? sizeof later : whylen))
      n++;
  }
  return n;
}

bool ts_globals_verify(const tilesat_map *m, const int *tiles, char *why,
                       size_t whylen) {
  return !ts_globals_broken(m, tiles, why, whylen);
}
