/* files.c: the files a command writes, and its standard output.
 *
 * A file output is written whole or not at all (tilesat_output: a
 * temporary beside it, renamed at the end), and a signal that ends the
 * process removes the temporary (stop.c).  An output that is also an input
 * of the same command is refused before any work, and a write error on
 * standard output is an error of every command. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int out_open(out_file *of, const char *path) {
  of->out = NULL;
  of->f = stdout;
  if (!path || !strcmp(path, "-"))
    return 0;
  tilesat_error err;
  if (!(of->out = tilesat_output_open(path, &err)))
    return fail_err(&err);
  of->f = tilesat_output_file(of->out);
  stop_temp(tilesat_output_temp(of->out));
  return 0;
}

int out_close(out_file *of, bool ok) {
  if (!of->out)
    return ok ? 0 : EXIT_ERROR; /* standard output: stdout_end checks it */
  tilesat_error err;
  int rc = 0;
  stop_hold(); /* the rename is not cut, nor its temporary left behind */
  stop_temp(NULL);
  if (!ok)
    tilesat_output_discard(of->out);
  else if (tilesat_output_commit(of->out, &err))
    rc = fail_err(&err);
  of->out = NULL;
  stop_release();
  return ok ? rc : EXIT_ERROR;
}

/* ------------------------------------------------------- standard output */

static int stdout_errno;

bool stdout_failed(void) {
  if (!ferror(stdout))
    return false;
  if (!stdout_errno)
    stdout_errno = errno ? errno : EIO;
  return true;
}

int stdout_end(int rc) {
  errno = 0;
  int e = fflush(stdout) ? errno : 0;
  if (!e && stdout_failed())
    e = stdout_errno;
  if (!e)
    return rc;
  fail("write error on standard output: %s", strerror(e));
  return EXIT_ERROR;
}

/* ------------------------------------------------ JSON on standard output */

/* The length of the UTF-8 character at s (avail bytes; RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF), 0 if none. */
static size_t utf8_char(const unsigned char *s, size_t avail) {
  unsigned char c = s[0];
  size_t n = c < 0x80                 ? 1
             : c >= 0xC2 && c <= 0xDF ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4
                                      : 0;
  if (!n || n > avail)
    return 0;
  unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
  if (c == 0xE0)
    lo = 0xA0;
  else if (c == 0xED)
    hi = 0x9F;
  else if (c == 0xF0)
    lo = 0x90;
  else if (c == 0xF4)
    hi = 0x8F;
  for (size_t i = 1; i < n; i++)
    if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF))
      return 0;
  return n;
}

FILE *json_begin(json_out *j) {
  j->buf = NULL;
  j->len = 0;
  j->f = open_memstream(&j->buf, &j->len);
  if (!j->f) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  return j->f;
}

void json_end(json_out *j) {
  if (fclose(j->f)) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  const unsigned char *s = (const unsigned char *)j->buf;
  stop_hold(); /* the document whole */
  for (size_t i = 0; i < j->len;) {
    size_t n = utf8_char(s + i, j->len - i);
    if (n)
      fwrite(s + i, 1, n, stdout);
    else
      printf("\\u%04x", s[i]); /* only inside a string: the rest is ASCII */
    i += n ? n : 1;
  }
  stop_release();
  free(j->buf);
}

/* ------------------------------------------------- outputs that are inputs */

/* A file by the option that names it ("" for an argument); owned: the
 * path when it was made here (a sidecar), malloc'd. */
typedef struct named_file {
  const char *option, *path;
  char *owned;
} named_file;

typedef struct file_list {
  named_file *v;
  int n, cap;
} file_list;

/* A list holds every file the command names, however many: past its
 * slots it grows (an input it dropped would escape the check). */
static void push(file_list *l, named_file f) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    named_file *v = realloc(l->v, (size_t)l->cap * sizeof *v);
    if (!v) {
      fail("out of memory");
      exit(EXIT_ERROR);
    }
    l->v = v;
  }
  l->v[l->n++] = f;
}

static void add(file_list *l, const char *option, const char *path) {
  if (path && strcmp(path, "-"))
    push(l, (named_file){option, path, NULL});
}

/* A sidecar (malloc'd, or NULL), which the list then owns. */
static void add_owned(file_list *l, const char *option, char *path) {
  if (path)
    push(l, (named_file){option, path, path});
}

/* X.tmx -> X-tiles.png, the tileset picture tilesat writes beside a map. */
static char *tiles_png(const char *map) {
  const char *slash = strrchr(map, '/'), *dot = strrchr(map, '.');
  size_t stem =
      dot && (!slash || dot > slash) ? (size_t)(dot - map) : strlen(map);
  char *p = malloc(stem + sizeof "-tiles.png");
  if (p)
    snprintf(p, stem + sizeof "-tiles.png", "%.*s-tiles.png", (int)stem, map);
  return p;
}

/* X.tsx -> X.png, export-tileset's picture. */
static char *tileset_png(const char *set) {
  const char *slash = strrchr(set, '/'), *dot = strrchr(set, '.');
  size_t stem =
      dot && (!slash || dot > slash) ? (size_t)(dot - set) : strlen(set);
  char *p = malloc(stem + sizeof ".png");
  if (p)
    snprintf(p, stem + sizeof ".png", "%.*s.png", (int)stem, set);
  return p;
}

/* What the command writes and what it reads, by option. */
static void list_files(const options *o, file_list *in, file_list *out) {
  bool makes_rules =
      !strcmp(o->command, "extract") || !strcmp(o->command, "import-tileset");
  for (int i = 0; i < o->args.n; i++)
    add(in, "", o->args.v[i]);
  add(in, "--energy", o->energy);
  add(in, "--palette", o->palette);
  add(in, "--tilesets-from", o->tilesets_from);
  add(in, "--mask", o->mask);
  for (int i = 0; i < o->pins_from.n; i++)
    add(in, "--pins-from", o->pins_from.v[i]);
  for (int i = 0; i < o->constraints.n; i++)
    add(in, "--constraints", o->constraints.v[i]);
  add(out, "-o", o->output);
  add(out, "--png", o->png);
  add(out, "--tmx", o->tmx);
  add(out, "--tmj", o->tmj);
  add(out, "--qubo-out", o->qubo_out);
  /* the tileset picture, unless the tilesets come from a map (or the map
   * is a painted one's copy: map_outputs) */
  bool own_set =
      !o->tilesets_from && (!tiled_pins(o) || !strcmp(o->command, "enum") ||
                            !strcmp(o->command, "sample"));
  if (own_set) {
    add_owned(out, "--tmx", o->tmx ? tiles_png(o->tmx) : NULL);
    add_owned(out, "--tmj", o->tmj ? tiles_png(o->tmj) : NULL);
  }
  if (!strcmp(o->command, "export-tileset") && o->output)
    add_owned(out, "-o", tileset_png(o->output));
  if (makes_rules) {
    add(out, "--pictures", o->pictures);
    add_owned(out, "-o", o->pictures ? NULL : sidecar(o->output));
    return;
  }
  add(in, "--pictures", o->pictures);
  /* the rules file's X.pictures, read when it exists */
  char *side = o->pictures || !o->args.n ? NULL : sidecar(o->args.v[0]);
  struct stat st;
  if (side && stat(side, &st)) {
    free(side);
    side = NULL;
  }
  add_owned(in, "", side);
}

/* The folder a path names its file in: stat'd into *st; false if it
 * cannot be. */
static bool folder_of(const char *path, struct stat *st, const char **base) {
  const char *slash = strrchr(path, '/');
  *base = slash ? slash + 1 : path;
  char dir[4096];
  int n = slash ? (int)(slash - path) : 1;
  if (n >= (int)sizeof dir)
    return false;
  snprintf(dir, sizeof dir, "%.*s", n ? n : 1, slash ? path : ".");
  return !stat(dir, st);
}

/* Do a and b name one file, by any spelling?  A file that does not exist
 * yet (a new output) is the same as another when both name it in the same
 * folder. */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (!stat(a, &sa) && !stat(b, &sb))
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
           S_ISREG(sa.st_mode);
  const char *ba, *bb;
  if (folder_of(a, &sa, &ba) && folder_of(b, &sb, &bb))
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !strcmp(ba, bb);
  return !strcmp(a, b);
}

static int refuse(const named_file *w, const named_file *r, bool input) {
  if (!input)
    fail("%s: %s is also written by %s", w->option, w->path, r->option);
  else if (r->option[0])
    fail("%s: %s is also the %s file; refusing to overwrite an input",
         w->option, w->path, r->option);
  else
    fail("%s: %s is also an input of this command; refusing to overwrite it",
         w->option, w->path);
  return EXIT_ERROR;
}

/* A painted Tiled map's copy is written in its own format. */
static int check_copy_format(const options *o) {
  const char *base = o->tilesets_from ? NULL : tiled_pins(o);
  if (!base || !strcmp(o->command, "enum") || !strcmp(o->command, "sample"))
    return 0;
  bool json = tiled_is_json(base);
  const char *other = json ? o->tmx : o->tmj;
  if (!other)
    return 0;
  fail("%s: %s is a %s map: its completed copy is written as %s too (%s)",
       other, base, json ? ".tmj" : ".tmx", json ? ".tmj" : ".tmx",
       json ? "--tmj" : "--tmx");
  return EXIT_ERROR;
}

int check_outputs(const options *o) {
  if (check_copy_format(o))
    return EXIT_ERROR;
  file_list in = {.n = 0}, out = {.n = 0};
  list_files(o, &in, &out);
  int rc = 0;
  for (int i = 0; i < out.n && !rc; i++) {
    const char *p = out.v[i].path;
    for (int k = 0; k < in.n && !rc; k++)
      if (same_file(p, in.v[k].path))
        rc = refuse(&out.v[i], &in.v[k], true);
    /* (X.tmx and X.tmj both write the same X-tiles.png, alike) */
    for (int k = 0; k < i && !rc; k++)
      if (!(out.v[i].owned && out.v[k].owned) && same_file(p, out.v[k].path))
        rc = refuse(&out.v[i], &out.v[k], false);
  }
  for (int i = 0; i < in.n; i++)
    free(in.v[i].owned);
  for (int i = 0; i < out.n; i++)
    free(out.v[i].owned);
  free(in.v);
  free(out.v);
  return rc;
}
