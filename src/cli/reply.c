/* reply.c: one builder for an answer's text and JSON forms (reply.h). */
#include "reply.h"

#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static reply_field *push(reply *r, const char *name, reply_kind kind) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 4;
    reply_field *v = realloc(r->v, r->cap * sizeof *v);
    if (!v) {
      fail("out of memory");
      abort();
    }
    r->v = v;
  }
  reply_field *f = &r->v[r->n++];
  memset(f, 0, sizeof *f);
  f->name = name;
  f->kind = kind;
  return f;
}

reply reply_for(const cJSON *doc) {
  return (reply){NULL, 0, 0, doc ? REPLY_JSON_FORM : REPLY_TEXT_FORM};
}

/* A fact of r with no text is no use to the text alone: taken back. */
static void keep(reply *r, const reply_field *f) {
  if (r->form == REPLY_TEXT_FORM && !f->text)
    r->n--;
}

static char *format(const reply *r, const char *fmt, va_list ap) {
  if (!fmt || r->form == REPLY_JSON_FORM)
    return NULL;
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s) {
    fail("out of memory");
    abort();
  }
  vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

void reply_number(reply *r, const char *name, double v, const char *text, ...) {
  reply_field *f = push(r, name, REPLY_NUMBER);
  f->num[0] = v;
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_string(reply *r, const char *name, const char *s, const char *text,
                  ...) {
  reply_field *f = push(r, name, REPLY_STRING);
  f->str = s;
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_pair(reply *r, const char *name, double a, double b,
                const char *text, ...) {
  reply_field *f = push(r, name, REPLY_PAIR);
  f->num[0] = a;
  f->num[1] = b;
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_cell(reply *r, const char *name, int row, int col, const char *text,
                ...) {
  reply_field *f = push(r, name, REPLY_CELL);
  f->num[0] = row;
  f->num[1] = col;
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_map(reply *r, const char *name, const tilesat_map *m,
               const int *tiles, bool print) {
  reply_field *f = push(r, name, REPLY_MAP);
  f->m = m;
  f->tiles = tiles;
  f->show = print;
}

void reply_bool(reply *r, const char *name, bool v, const char *text, ...) {
  reply_field *f = push(r, name, REPLY_BOOL);
  f->num[0] = v;
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_null(reply *r, const char *name, const char *text, ...) {
  reply_field *f = push(r, name, REPLY_NULL);
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

void reply_text(reply *r, const char *text, ...) {
  reply_field *f = push(r, NULL, REPLY_TEXT);
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  keep(r, f);
}

reply *reply_object(reply *r, const char *name) {
  push(r, name, REPLY_OBJECT);
  return reply_array_item(r);
}

void reply_array(reply *r, const char *name, const char *text, ...) {
  reply_field *f = push(r, name, REPLY_ARRAY);
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
}

reply *reply_array_item(reply *r) {
  reply_field *f = &r->v[r->n - 1];
  reply *items = realloc(f->items, (f->nitems + 1) * sizeof *items);
  if (!items) {
    fail("out of memory");
    abort();
  }
  f->items = items;
  memset(&items[f->nitems], 0, sizeof *items);
  items[f->nitems].form = r->form;
  return &items[f->nitems++];
}

reply *reply_list(reply *r, const char *name, const char *text, ...) {
  reply_field *f = push(r, name, REPLY_LIST);
  va_list ap;
  va_start(ap, text);
  f->text = format(r, text, ap);
  va_end(ap);
  return reply_array_item(r);
}

/* A map in the JSON: rows of tile names (the text: tilesat_map_write). */
static cJSON *map_json(const tilesat_map *m, const int *tiles) {
  const tilesat_map_info mi = map_info(m);
  const tilesat_rules *r = mi.rules;
  cJSON *rows = cJSON_CreateArray();
  for (int row = 0; row < mi.height; row++) {
    cJSON *cells = cJSON_CreateArray();
    for (int col = 0; col < mi.width; col++)
      cJSON_AddItemToArray(cells, cJSON_CreateString(tilesat_rules_tile_name(
                                      r, tiles[row * mi.width + col])));
    cJSON_AddItemToArray(rows, cells);
  }
  return rows;
}

static void add_json(cJSON *doc, reply_field *f);
static void finish(reply *r, cJSON *doc, FILE *out);

/* A reply's facts as the members of a new object. */
static cJSON *object_of(reply *r) {
  cJSON *j = cJSON_CreateObject();
  reply_end(r, j);
  return j;
}

static void add_json(cJSON *doc, reply_field *f) {
  cJSON *v = NULL;
  switch (f->kind) {
  case REPLY_NUMBER:
    v = cJSON_CreateNumber(f->num[0]);
    break;
  case REPLY_STRING:
    v = cJSON_CreateString(f->str);
    break;
  case REPLY_PAIR:
    v = cJSON_CreateArray();
    cJSON_AddItemToArray(v, cJSON_CreateNumber(f->num[0]));
    cJSON_AddItemToArray(v, cJSON_CreateNumber(f->num[1]));
    break;
  case REPLY_BOOL:
    v = cJSON_CreateBool(f->num[0] != 0);
    break;
  case REPLY_NULL:
    v = cJSON_CreateNull();
    break;
  case REPLY_CELL:
    v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "row", f->num[0]);
    cJSON_AddNumberToObject(v, "col", f->num[1]);
    break;
  case REPLY_MAP:
    v = map_json(f->m, f->tiles);
    break;
  case REPLY_OBJECT:
    v = object_of(&f->items[0]);
    break;
  case REPLY_ARRAY:
    v = cJSON_CreateArray();
    for (size_t i = 0; i < f->nitems; i++)
      cJSON_AddItemToArray(v, object_of(&f->items[i]));
    break;
  case REPLY_LIST:
    v = cJSON_CreateArray();
    finish(&f->items[0], v, NULL);
    break;
  case REPLY_TEXT:
    return;
  }
  if (cJSON_IsArray(doc))
    cJSON_AddItemToArray(doc, v);
  else
    cJSON_AddItemToObject(doc, f->name, v);
}

static void put_text(reply_field *f, FILE *out) {
  if (f->text)
    fputs(f->text, out);
  if (f->kind == REPLY_MAP && f->show)
    tilesat_map_write(f->m, f->tiles, out);
  for (size_t i = 0; i < f->nitems; i++)
    finish(&f->items[i], NULL, out);
}

void reply_end(reply *r, cJSON *doc) { finish(r, doc, stdout); }

void reply_print(reply *r, FILE *out) { finish(r, NULL, out); }

static void finish(reply *r, cJSON *doc, FILE *out) {
  for (size_t i = 0; i < r->n; i++) {
    reply_field *f = &r->v[i];
    if (doc)
      add_json(doc, f);
    else
      put_text(f, out);
    free(f->text);
    free(f->items); /* each written (and emptied) above */
  }
  free(r->v);
  memset(r, 0, sizeof *r);
}
