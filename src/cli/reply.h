/* reply.h: one answer described once, as a list of facts (a name, a kind,
 * a value, and the line the text shows it by), and written by one builder
 * as text or as the members of a JSON object (--format json): no pair of
 * writers, one per form, to keep in step.  collapse's answers, explain's
 * and trace's (report.h) are replies. */
#ifndef TILESAT_CLI_REPLY_H
#define TILESAT_CLI_REPLY_H

#include "tilesat.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum reply_kind {
  REPLY_NUMBER, /* num[0] */
  REPLY_STRING, /* str */
  REPLY_PAIR,   /* [num[0], num[1]] */
  REPLY_CELL,   /* {"row": num[0], "col": num[1]} */
  REPLY_MAP,    /* rows of tile names; the text prints the map itself */
  REPLY_BOOL,   /* true or false: num[0] */
  REPLY_NULL,   /* null */
  REPLY_TEXT,   /* a line of the text alone */
  REPLY_OBJECT, /* an object: items[0]'s facts (the text: theirs, inline) */
  REPLY_ARRAY,  /* an array of objects, items[] (the text: a heading, then
                   each item's) */
  REPLY_LIST,   /* an array of items[0]'s facts, their names unused (the
                   text: a heading, then theirs) */
} reply_kind;

struct reply;

typedef struct reply_field {
  const char *name; /* its JSON member (NULL: REPLY_TEXT, a list's) */
  reply_kind kind;
  double num[2];
  const char *str;
  const tilesat_map *m; /* REPLY_MAP */
  const int *tiles;
  bool show;  /* REPLY_MAP: printed in the text (not --quiet) */
  char *text; /* what the text shows for it (malloc'd); NULL: JSON only */
  struct reply *items; /* REPLY_OBJECT, REPLY_ARRAY, REPLY_LIST */
  size_t nitems;
} reply_field;

/* The form reply_end will write, when known (reply_for): the facts only
 * the other form shows are not kept (a large trace's tile names in the
 * text, its words in the JSON). */
typedef enum reply_form {
  REPLY_BOTH,
  REPLY_TEXT_FORM,
  REPLY_JSON_FORM
} reply_form;

typedef struct reply {
  reply_field *v;
  size_t n, cap;
  reply_form form; /* its objects' and lists' too */
} reply;

/* An empty reply to be written into doc (NULL: as text). */
reply reply_for(const cJSON *doc);

/* Each adds a fact; `text` (printf, NULL: none) is what the text form
 * shows for it, newlines included. */
void reply_number(reply *r, const char *name, double v, const char *text, ...)
    __attribute__((format(printf, 4, 5)));
void reply_string(reply *r, const char *name, const char *s, const char *text,
                  ...) __attribute__((format(printf, 4, 5)));
void reply_pair(reply *r, const char *name, double a, double b,
                const char *text, ...) __attribute__((format(printf, 5, 6)));
void reply_cell(reply *r, const char *name, int row, int col, const char *text,
                ...) __attribute__((format(printf, 5, 6)));
/* The map: in the text as tilesat_map_write writes it, when print. */
void reply_map(reply *r, const char *name, const tilesat_map *m,
               const int *tiles, bool print);
void reply_bool(reply *r, const char *name, bool v, const char *text, ...)
    __attribute__((format(printf, 4, 5)));
void reply_null(reply *r, const char *name, const char *text, ...)
    __attribute__((format(printf, 3, 4)));
void reply_text(reply *r, const char *text, ...)
    __attribute__((format(printf, 2, 3)));
/* A member that is an object: its facts are added to the reply returned
 * (r's, until reply_end). */
reply *reply_object(reply *r, const char *name);
/* A member that is an array of objects, its text a heading (or none), and
 * a new object at the end of it (r's last fact, an array): its facts are
 * added to the reply returned (r's, until reply_end; the pointer lasts
 * until the next reply_array_item on r). */
void reply_array(reply *r, const char *name, const char *text, ...)
    __attribute__((format(printf, 3, 4)));
reply *reply_array_item(reply *r);
/* A member that is an array of values (numbers, strings, objects, lists),
 * its text a heading (or none): the facts added to the reply returned
 * are its elements, in order, their names unused (NULL). */
reply *reply_list(reply *r, const char *name, const char *text, ...)
    __attribute__((format(printf, 3, 4)));
/* The facts as members of doc (the caller prints it; an array: as its
 * elements), or with doc NULL as text on standard output, in their
 * order; frees them. */
void reply_end(reply *r, cJSON *doc);
/* The facts as text on out; frees them. */
void reply_print(reply *r, FILE *out);

#endif
