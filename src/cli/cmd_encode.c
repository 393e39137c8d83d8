/* cmd_encode.c: tilesat encode RULES --size WxH: the map as CNF, DIMACS
 * with named variables or readable propositions. */
#include "cli.h"

#include <string.h>

int cmd_encode(options *o) {
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  int rc = load_map(o, &r, &m);
  tilesat_error err;
  if (!rc && tilesat_map_refuse_globals(
                 m,
                 1u << TILESAT_GLOBAL_COUNT | 1u << TILESAT_GLOBAL_BORDER |
                     TILESAT_KEEPS_MASK,
                 "encode",
                 "; they are kept by cuts added as models break them, which "
                 "no CNF written beforehand holds",
                 &err))
    rc = fail_err(&err);
  if (!rc) {
    bool props = o->format && !strcmp(o->format, "props");
    out_file of;
    rc = out_open(&of, o->output);
    if (!rc) {
      /* a write error: out_close says it (stdout_end for standard output) */
      props ? tilesat_encode_props(m, of.f) : tilesat_encode_dimacs(m, of.f);
      rc = out_close(&of, true);
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
