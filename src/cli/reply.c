/* reply.c: one builder for an answer's text and JSON forms (reply.h): a
 * fact is written as it is added, the text to its FILE, the JSON into its
 * cJSON tree, and not kept. */
#include "reply.h"

#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

reply reply_for(cJSON *doc) {
  if (!doc)
    return reply_to(stdout);
  return (reply){REPLY_JSON_FORM, NULL, doc, NULL, NULL};
}

reply reply_to(FILE *out) {
  return (reply){REPLY_TEXT_FORM, out, NULL, NULL, NULL};
}

FILE *reply_text_out(const reply *r) {
  return r->form == REPLY_TEXT_FORM ? r->out : NULL;
}

/* The text of a fact (printf, NULL: none), written when r is text. */
static void say(reply *r, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void say(reply *r, const char *fmt, va_list ap) {
  if (fmt && r->form == REPLY_TEXT_FORM)
    vfprintf(r->out, fmt, ap);
}

/* say() the text of a fact, in a function whose last named parameter is
 * `text`, followed by its printf arguments. */
#define SAY(r, text)                                                           \
  do {                                                                         \
    va_list ap_;                                                               \
    va_start(ap_, text);                                                       \
    say(r, text, ap_);                                                         \
    va_end(ap_);                                                               \
  } while (0)

static bool json(const reply *r) { return r->form == REPLY_JSON_FORM; }

/* v, the member `name` of r's JSON (an element, when r is a list). */
static void put(reply *r, const char *name, cJSON *v) {
  if (cJSON_IsArray(r->doc))
    cJSON_AddItemToArray(r->doc, v);
  else
    cJSON_AddItemToObject(r->doc, name, v);
}

void reply_number(reply *r, const char *name, double v, const char *text, ...) {
  SAY(r, text);
  if (json(r))
    put(r, name, cJSON_CreateNumber(v));
}

void reply_string(reply *r, const char *name, const char *s, const char *text,
                  ...) {
  SAY(r, text);
  if (json(r))
    put(r, name, cJSON_CreateString(s));
}

void reply_pair(reply *r, const char *name, double a, double b,
                const char *text, ...) {
  SAY(r, text);
  if (!json(r))
    return;
  cJSON *v = cJSON_CreateArray();
  cJSON_AddItemToArray(v, cJSON_CreateNumber(a));
  cJSON_AddItemToArray(v, cJSON_CreateNumber(b));
  put(r, name, v);
}

void reply_cell(reply *r, const char *name, int row, int col, const char *text,
                ...) {
  SAY(r, text);
  if (!json(r))
    return;
  cJSON *v = cJSON_CreateObject();
  cJSON_AddNumberToObject(v, "row", row);
  cJSON_AddNumberToObject(v, "col", col);
  put(r, name, v);
}

/* A map in the JSON: rows of tile names, null for a masked cell (the
 * text: tilesat_map_write, which leaves it blank). */
static cJSON *map_json(const tilesat_map *m, const int *tiles) {
  const tilesat_map_info mi = map_info(m);
  const tilesat_rules *r = mi.rules;
  cJSON *rows = cJSON_CreateArray();
  for (int row = 0; row < mi.height; row++) {
    cJSON *cells = cJSON_CreateArray();
    for (int col = 0; col < mi.width; col++) {
      int t = tiles[row * mi.width + col];
      cJSON_AddItemToArray(
          cells, t < 0 ? cJSON_CreateNull()
                       : cJSON_CreateString(tilesat_rules_tile_name(r, t)));
    }
    cJSON_AddItemToArray(rows, cells);
  }
  return rows;
}

void reply_map(reply *r, const char *name, const tilesat_map *m,
               const int *tiles, bool print) {
  if (json(r))
    put(r, name, map_json(m, tiles));
  else if (print)
    tilesat_map_write(m, tiles, r->out);
}

void reply_bool(reply *r, const char *name, bool v, const char *text, ...) {
  SAY(r, text);
  if (json(r))
    put(r, name, cJSON_CreateBool(v));
}

void reply_null(reply *r, const char *name, const char *text, ...) {
  SAY(r, text);
  if (json(r))
    put(r, name, cJSON_CreateNull());
}

void reply_text(reply *r, const char *text, ...) { SAY(r, text); }

/* r's reply for an object or a list, its JSON doc (in the text, NULL):
 * the one of the last made again, and the one it kept for its own. */
static reply *kid(reply *r, cJSON *doc) {
  if (!r->kid) {
    r->kid = malloc(sizeof *r->kid);
    if (!r->kid) {
      fail("out of memory");
      abort();
    }
    r->kid->kid = NULL;
  }
  reply *k = r->kid;
  *k = (reply){r->form, r->out, doc, NULL, k->kid};
  return k;
}

reply *reply_object(reply *r, const char *name) {
  cJSON *v = NULL;
  if (json(r))
    put(r, name, v = cJSON_CreateObject());
  return kid(r, v);
}

void reply_array(reply *r, const char *name, const char *text, ...) {
  SAY(r, text);
  if (json(r))
    put(r, name, r->array = cJSON_CreateArray());
}

reply *reply_array_item(reply *r) {
  cJSON *v = NULL;
  if (json(r))
    cJSON_AddItemToArray(r->array, v = cJSON_CreateObject());
  return kid(r, v);
}

reply *reply_list(reply *r, const char *name, const char *text, ...) {
  SAY(r, text);
  cJSON *v = NULL;
  if (json(r))
    put(r, name, v = cJSON_CreateArray());
  return kid(r, v);
}

void reply_end(reply *r) {
  for (reply *k = r->kid; k;) {
    reply *next = k->kid;
    free(k);
    k = next;
  }
  memset(r, 0, sizeof *r);
}
