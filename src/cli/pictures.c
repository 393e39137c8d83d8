/* pictures.c: the pictures file that goes with a rules file (X.rules,
 * X.pictures): written after extraction, read to draw maps. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

char *sidecar(const char *rules_path) {
  if (!rules_path || !ends_with(rules_path, ".rules"))
    return NULL;
  size_t n = strlen(rules_path) - strlen(".rules");
  char *p = malloc(n + sizeof ".pictures");
  if (p)
    snprintf(p, n + sizeof ".pictures", "%.*s.pictures", (int)n, rules_path);
  return p;
}

int write_pictures(const options *o, const tilesat_pictures *p) {
  char *side = NULL;
  const char *path = o->pictures;
  if (!path)
    path = side = sidecar(o->output);
  int rc = 0;
  out_file of;
  if (path && !(rc = out_open(&of, path))) {
    tilesat_pictures_write(p, of.f); /* a write error: out_close says it */
    rc = out_close(&of, true);
  }
  free(side);
  return rc;
}

int load_pictures(options *o, const tilesat_pictures **pics) {
  tilesat_error err;
  *pics = o->pics;
  if (o->pics_read)
    return 0;
  char *side = NULL;
  const char *path = o->pictures;
  if (!path && o->args.n > 0) {
    side = sidecar(o->args.v[0]);
    FILE *f = side ? fopen(side, "rb") : NULL;
    if (f) {
      fclose(f);
      path = side;
    }
  }
  if (path && !(o->pics = tilesat_pictures_read_file(path, &err))) {
    free(side);
    return fail_err(&err);
  }
  free(side);
  o->pics_read = true;
  *pics = o->pics;
  return 0;
}

int check_pictures(options *o) {
  if (!o->pictures || command_does(o, CMD_MAKES_RULES))
    return 0; /* --pictures is what those write */
  const tilesat_pictures *p;
  return load_pictures(o, &p); /* kept for the command */
}
