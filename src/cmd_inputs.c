/* cmd_inputs.c: real inputs and pictures on the command line: samples of
 * every kind for extract, the overlapping model, tileset import, and the
 * --png / --tmx / --tmj outputs of the map commands. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct inputs {
  tilesat_pictures *palette; /* --palette */
  tilesat_pictures *pics;    /* pictures of the image samples' tiles */
  int tile_size;
};

/* A whole number in [lo, hi] from an option's value, or -1 after an error. */
static int int_option(const char *name, const char *val, int lo, int hi) {
  char *end;
  errno = 0;
  long v = strtol(val, &end, 10);
  if (*val < '0' || *val > '9' || *end || errno || v < lo || v > hi) {
    fail("%s: '%s' is not a whole number from %d to %d", name, val, lo, hi);
    return -1;
  }
  return (int)v;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* X.rules -> X.pictures (malloc'd), or NULL. */
static char *sidecar(const char *rules_path) {
  if (!rules_path || !ends_with(rules_path, ".rules"))
    return NULL;
  size_t n = strlen(rules_path) - strlen(".rules");
  char *p = malloc(n + sizeof ".pictures");
  if (p) {
    memcpy(p, rules_path, n);
    strcpy(p + n, ".pictures");
  }
  return p;
}

typedef enum kind { TEXT, PNG, TILED } kind;

/* What a sample file holds, by its first bytes (the extension only breaks
 * the tie for text that happens to start like XML or JSON). */
static kind sample_kind(const char *path) {
  if (!strcmp(path, "-"))
    return TEXT;
  FILE *f = fopen(path, "rb");
  if (!f)
    return TEXT; /* the text reader reports why it cannot open it */
  unsigned char head[64];
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (tilesat_is_png(head, n))
    return PNG;
  if (ends_with(path, ".png"))
    return PNG; /* not a PNG inside: the PNG reader says so */
  if (ends_with(path, ".tmx") || ends_with(path, ".tmj"))
    return TILED;
  size_t i = n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3) ? 3 : 0;
  while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' ||
                   head[i] == '\t'))
    i++;
  bool xml = n - i >= 4 &&
             (!memcmp(head + i, "<?xm", 4) || !memcmp(head + i, "<map", 4));
  bool json = i < n && head[i] == '{';
  if ((xml || json) && !ends_with(path, ".txt"))
    return TILED;
  return TEXT;
}

static struct inputs *inputs_of(options *o) {
  if (!o->inputs) {
    o->inputs = calloc(1, sizeof *o->inputs);
    if (!o->inputs) {
      fail("out of memory");
      abort();
    }
  }
  return o->inputs;
}

tilesat_grid *load_sample(options *o, const char *path, tilesat_error *err) {
  struct inputs *in = inputs_of(o);
  kind k = sample_kind(path);
  if (o->symmetry) {
    snprintf(err->msg, sizeof err->msg, "--symmetry needs --pattern N");
    return NULL;
  }
  if (k != PNG && (o->tile_size || o->palette)) {
    snprintf(err->msg, sizeof err->msg,
             "%s: --tile-size and --palette are for image samples", path);
    return NULL;
  }
  if (k == TEXT)
    return tilesat_grid_read_file(path, err);
  if (k == TILED) {
    tilesat_empty empty = TILESAT_EMPTY_TILE;
    if (o->empty && !strcmp(o->empty, "exclude"))
      empty = TILESAT_EMPTY_EXCLUDE;
    else if (o->empty && strcmp(o->empty, "tile")) {
      snprintf(err->msg, sizeof err->msg,
               "--empty: '%s' is not tile or exclude", o->empty);
      return NULL;
    }
    return tilesat_tiled_read(path, o->layer, empty, err);
  }
  if (!in->pics) {
    long ts = 1;
    if (o->tile_size) {
      char *end;
      errno = 0;
      ts = strtol(o->tile_size, &end, 10);
      if (*o->tile_size < '0' || *o->tile_size > '9' || *end || errno ||
          ts < 1 || ts > 4096) {
        snprintf(err->msg, sizeof err->msg,
                 "--tile-size: '%s' is not a whole number from 1 to 4096",
                 o->tile_size);
        return NULL;
      }
    }
    if (o->palette &&
        !(in->palette = tilesat_pictures_read_file(o->palette, err)))
      return NULL;
    in->tile_size = (int)ts;
    in->pics = tilesat_pictures_new(in->tile_size, in->tile_size, 0);
  }
  tilesat_image *img = tilesat_image_read_png(path, err);
  if (!img)
    return NULL;
  tilesat_grid *g = tilesat_grid_from_image(img, path, in->tile_size,
                                            in->palette, in->pics, err);
  tilesat_image_free(img);
  return g;
}

static int write_pictures(options *o, const tilesat_pictures *p) {
  char *side = NULL;
  const char *path = o->pictures;
  if (!path)
    path = side = sidecar(o->output);
  int rc = 0;
  if (path) {
    FILE *f = fopen(path, "w");
    if (!f || (tilesat_pictures_write(p, f) | ferror(f)) || fclose(f)) {
      fail("%s: cannot write pictures: %s", path, strerror(errno));
      rc = EXIT_ERROR;
    }
  }
  free(side);
  return rc;
}

int end_samples(options *o, int rc) {
  struct inputs *in = o->inputs;
  if (!in)
    return rc;
  if (!rc && in->pics && tilesat_pictures_count(in->pics))
    rc = write_pictures(o, in->pics);
  tilesat_pictures_free(in->palette);
  tilesat_pictures_free(in->pics);
  free(in);
  o->inputs = NULL;
  return rc;
}

static int write_rules(options *o, const tilesat_rules *r) {
  FILE *out = open_output(o);
  if (!out)
    return EXIT_ERROR;
  tilesat_rules_write(r, out);
  return close_output(o, out);
}

int cmd_extract_patterns(options *o) {
  tilesat_error err;
  int n = int_option("--pattern", o->pattern, 1, 8), sym = 1;
  if (n < 0 ||
      (o->symmetry && (sym = int_option("--symmetry", o->symmetry, 1, 8)) < 0))
    return EXIT_ERROR;
  if (o->nargs < 1) {
    fail("extract: no sample (see 'tilesat extract --help')");
    return EXIT_ERROR;
  }
  if (o->tile_size || o->palette ||
      (o->topology && strcmp(o->topology, "square"))) {
    fail("--pattern: patterns are read pixel by pixel on a square grid "
         "(no --tile-size, --palette or hex topology)");
    return EXIT_ERROR;
  }
  tilesat_image **img = calloc((size_t)o->nargs, sizeof *img);
  tilesat_rules *r = NULL;
  tilesat_pictures *pics = NULL;
  int rc = EXIT_ERROR;
  if (!img) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  for (int i = 0; i < o->nargs; i++)
    if (!(img[i] = tilesat_image_read_png(o->args[i], &err))) {
      fail_err(&err);
      goto done;
    }
  r = tilesat_extract_patterns((const tilesat_image *const *)img,
                               (size_t)o->nargs, n, o->periodic_input, sym,
                               &pics, &err);
  if (!r) {
    fail_err(&err);
    goto done;
  }
  rc = write_rules(o, r);
  if (!rc)
    rc = write_pictures(o, pics);
done:
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
  for (int i = 0; i < o->nargs; i++)
    tilesat_image_free(img[i]);
  free(img);
  return rc;
}

int cmd_import_tileset(options *o) {
  tilesat_error err;
  if (o->nargs != 1) {
    fail("import-tileset takes one tileset file (see 'tilesat "
         "import-tileset --help')");
    return EXIT_ERROR;
  }
  char *side = o->pictures ? NULL : sidecar(o->output);
  bool want_pics = o->pictures || side;
  free(side);
  tilesat_pictures *pics = NULL;
  tilesat_rules *r = tilesat_import_tileset(o->args[0], o->subset,
                                            want_pics ? &pics : NULL, &err);
  if (!r && want_pics && !o->pictures) {
    /* pictures were only implied by -o X.rules: rules without them are
     * still worth having (the images may simply not be there) */
    tilesat_error err2;
    r = tilesat_import_tileset(o->args[0], o->subset, NULL, &err2);
    if (r)
      fprintf(stderr, "tilesat: warning: no pictures written: %s\n", err.msg);
  }
  if (!r)
    return fail_err(&err);
  int rc = write_rules(o, r);
  if (!rc && pics)
    rc = write_pictures(o, pics);
  tilesat_pictures_free(pics);
  tilesat_rules_free(r);
  return rc;
}

/* The pictures for drawing the map commands' results: --pictures, else the
 * rules file's X.pictures when there is one.  0 or EXIT_ERROR. */
static int load_pictures(const options *o, tilesat_pictures **pics) {
  tilesat_error err;
  *pics = NULL;
  char *side = NULL;
  const char *path = o->pictures;
  if (!path && o->nargs > 0) {
    side = sidecar(o->args[0]);
    FILE *f = side ? fopen(side, "rb") : NULL;
    if (f) {
      fclose(f);
      path = side;
    }
  }
  if (path && !(*pics = tilesat_pictures_read_file(path, &err))) {
    free(side);
    return fail_err(&err);
  }
  free(side);
  return 0;
}

int map_outputs(options *o, const tilesat_map *m, const int *tiles) {
  if (!o->png && !o->tmx && !o->tmj)
    return 0;
  tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  tilesat_error err;
  int rc = 0;
  if (o->png && tilesat_render_png(m, pics, tiles, NULL, NULL, o->png, &err))
    rc = fail_err(&err);
  const char *tiled[2] = {o->tmx, o->tmj};
  for (int i = 0; i < 2 && !rc; i++)
    if (tiled[i] && (o->tilesets_from
                         ? tilesat_tiled_write_like(m, tiles, o->tilesets_from,
                                                    tiled[i], &err)
                         : tilesat_tiled_write(m, tiles, pics, tiled[i], &err)))
      rc = fail_err(&err);
  tilesat_pictures_free(pics);
  return rc;
}

int domains_png(options *o, const tilesat_map *m, const uint64_t *domains,
                const bool *highlight) {
  if (!o->png)
    return 0;
  tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  tilesat_error err;
  int rc = 0;
  if (tilesat_render_png(m, pics, NULL, domains, highlight, o->png, &err))
    rc = fail_err(&err);
  tilesat_pictures_free(pics);
  return rc;
}

/* ------------------------------------------- enum --png / --tmx / --tmj */

/* At most this many maps go on a contact sheet or into a Tiled map. */
#define SHEET_MAX 256

struct sheet {
  const options *o;
  const tilesat_map *m;
  tilesat_pictures *pics;
  int **maps;
  size_t n;
  bool failed;
};

sheet *sheet_new(options *o, const tilesat_map *m) {
  if (!o->png && !o->tmx && !o->tmj)
    return NULL;
  sheet *s = calloc(1, sizeof *s);
  if (!s || !(s->maps = calloc(SHEET_MAX, sizeof *s->maps))) {
    fail("out of memory");
    abort();
  }
  s->o = o;
  s->m = m;
  s->failed = load_pictures(o, &s->pics) != 0;
  return s;
}

void sheet_add(sheet *s, const int *tiles) {
  if (!s || s->n == SHEET_MAX)
    return;
  size_t n = (size_t)tilesat_map_width(s->m) * (size_t)tilesat_map_height(s->m);
  if (!(s->maps[s->n] = malloc(n * sizeof *tiles))) {
    fail("out of memory");
    abort();
  }
  memcpy(s->maps[s->n++], tiles, n * sizeof *tiles);
}

int sheet_end(sheet *s) {
  if (!s)
    return 0;
  const options *o = s->o;
  int rc = s->failed ? EXIT_ERROR : 0;
  tilesat_error err;
  if (!rc && o->png) {
    tilesat_image *img =
        tilesat_render_sheet(s->m, s->pics, (const int *const *)s->maps, s->n);
    if (!img) {
      fail("%s: contact sheet too large", o->png);
      rc = EXIT_ERROR;
    } else if (tilesat_image_write_png(img, o->png, &err)) {
      rc = fail_err(&err);
    }
    tilesat_image_free(img);
  }
  /* a Tiled map with one layer per map; nothing to write without maps */
  const char *tiled[2] = {o->tmx, o->tmj};
  for (int i = 0; i < 2 && !rc && s->n; i++)
    if (tiled[i] &&
        tilesat_tiled_write_maps(s->m, (const int *const *)s->maps, s->n,
                                 s->pics, o->tilesets_from, tiled[i], &err))
      rc = fail_err(&err);
  for (size_t i = 0; i < s->n; i++)
    free(s->maps[i]);
  free(s->maps);
  tilesat_pictures_free(s->pics);
  free(s);
  return rc;
}
