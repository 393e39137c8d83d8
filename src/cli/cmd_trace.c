/* cmd_trace.c: tilesat trace RULES --size WxH: WFC propagation with its
 * reasons, after the pins and each --choose; on a contradiction, its
 * chain (exit 20). */
#include "cli.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

typedef struct traced {
  const tilesat_trace *t;
  int w;
} traced;

static bool trace_has(const void *user, int cell, int tile) {
  const traced *x = user;
  return tilesat_trace_possible(x->t, cell / x->w, cell % x->w, tile);
}

/* The cells left with no tile, framed in --png. */
static int draw_empty(options *o, const tilesat_map *m,
                      const tilesat_trace *t) {
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  int T = tilesat_rules_ntiles(map_info(m).rules);
  uint8_t *empty = calloc((size_t)w * (size_t)h, sizeof *empty);
  for (int c = 0; empty && c < w * h; c++) {
    bool none = true;
    for (int k = 0; k < T && none; k++)
      none = !tilesat_trace_possible(t, c / w, c % w, k);
    empty[c] = none ? TILESAT_MARK_EMPTY : TILESAT_MARK_NONE;
  }
  traced x = {t, w};
  int rc = domains_png(o, m, trace_has, &x, empty, NULL, 0);
  free(empty);
  return rc;
}

/* --choose ROW,COL=TILE, as (row, col, tile) triples; NULL after an
 * error. */
static int *parse_choices(const options *o, const tilesat_map *m) {
  int *choice = calloc(3 * (size_t)o->chooses.n + 1, sizeof *choice);
  if (!choice) {
    fail("out of memory");
    return NULL;
  }
  for (int i = 0; i < o->chooses.n; i++) {
    tilesat_error err;
    int *c = choice + (size_t)3 * (size_t)i; /* row, column, tile */
    if (tilesat_map_parse_cell(m, o->chooses.v[i], "--choose", &c[0], &c[1],
                               &c[2], &err)) {
      fail_err(&err);
      free(choice);
      return NULL;
    }
  }
  return choice;
}

int cmd_trace(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  bool json = o->format && !strcmp(o->format, "json");
  int *choice = NULL;
  int rc = load_map(o, &r, &m);
  tilesat_error err;
  if (!rc && tilesat_map_refuse_globals(m, 1u << TILESAT_GLOBAL_BORDER, "trace",
                                        NULL, &err))
    rc = fail_err(&err);
  if (!rc && tilesat_trace_fits(m, &err))
    rc = fail_err(&err);
  if (!rc && !(choice = parse_choices(o, m)))
    rc = EXIT_ERROR;
  if (!rc)
    rc = outputs_ready(o, m, false);
  if (!rc) {
    tilesat_trace *t = tilesat_trace_new(m);
    for (int i = 0; i < o->chooses.n; i++) {
      const int *c = choice + (size_t)3 * (size_t)i;
      if (tilesat_trace_choose(t, c[0], c[1], c[2]))
        break;
    }
    int status = tilesat_trace_status(t);
    rc = status == TILESAT_UNKNOWN ? 0 : status;
    cJSON *doc = json ? cJSON_CreateObject() : NULL;
    reply rp = reply_for(doc);
    report_trace_reply(&rp, t);
    reply_end(&rp);
    if (doc && report_json_print(doc))
      rc = EXIT_ERROR;
    if (draw_empty(o, m, t))
      rc = EXIT_ERROR;
    tilesat_trace_free(t);
  }
  free(choice);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
