/* reply.h: one answer described once, as a list of facts (a name, a kind,
 * a value, and the line the text shows it by), and written by one builder
 * as text or as the members of a JSON object (--format json): no pair of
 * writers, one per form, to keep in step.  A fact is written as it is
 * added (the text streams; the JSON grows), not kept.  collapse's answers,
 * explain's and trace's (report.h) are replies. */
#ifndef TILESAT_CLI_REPLY_H
#define TILESAT_CLI_REPLY_H

#include "tilesat.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* The form the reply is written in: each fact is written as it is added
 * (the text to out, the JSON into doc), and nothing is kept but the
 * reply a fact of an object or a list goes to. */
typedef enum reply_form { REPLY_TEXT_FORM, REPLY_JSON_FORM } reply_form;

typedef struct reply {
  reply_form form;
  FILE *out;         /* REPLY_TEXT_FORM */
  cJSON *doc;        /* REPLY_JSON_FORM: an object, or an array (a list) */
  cJSON *array;      /* the last array of objects (reply_array) */
  struct reply *kid; /* the reply of the last object, list or array item */
} reply;

/* An empty reply written into doc (NULL: as text on standard output). */
reply reply_for(cJSON *doc);
/* An empty reply written as text on out. */
reply reply_to(FILE *out);
/* Where r's text goes (NULL: r is JSON): a fact's words may be written
 * there in its place, after the fact (with no text) is added. */
FILE *reply_text_out(const reply *r);

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
 * (r's; it lasts until the next object, list or array item on r, or
 * reply_end: an object's facts are added before r's next ones, as the
 * text shows them in their order). */
reply *reply_object(reply *r, const char *name);
/* A member that is an array of objects, its text a heading (or none), and
 * a new object at the end of it (r's last array): its facts are added to
 * the reply returned (r's, as an object's). */
void reply_array(reply *r, const char *name, const char *text, ...)
    __attribute__((format(printf, 3, 4)));
reply *reply_array_item(reply *r);
/* A member that is an array of values (numbers, strings, objects, lists),
 * its text a heading (or none): the facts added to the reply returned
 * (r's, as an object's) are its elements, in order, their names unused
 * (NULL). */
reply *reply_list(reply *r, const char *name, const char *text, ...)
    __attribute__((format(printf, 3, 4)));
/* The end of the reply (its facts all written, into the doc it was made
 * for or as text): frees what it kept. */
void reply_end(reply *r);

#endif
