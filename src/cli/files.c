/* files.c: the files a command writes, and its standard output.
 *
 * A file output is written whole or not at all (tilesat_output: a
 * temporary beside it, renamed at the end), and a signal that ends the
 * process removes the temporaries (stop.c).  The files wait, written,
 * until the command has ended well and has not been stopped (answer_end):
 * then they are put in place together and its answer printed, which also
 * waits (in memory) since answer_begin.  An output that is also an input
 * of the same command is refused before any work, as is one that cannot
 * be written, and a write error on standard output is an error of every
 * command. */
/* memfd_create (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The files written and waiting to be put in place, in order, with their
 * temporaries' slots in stop.c. */
typedef struct waiting_file {
  tilesat_output *out;
  int slot;
  char *path; /* named on stderr once in place */
} waiting_file;
static struct {
  waiting_file *v;
  int n, cap;
} waiting;

void said_written(const char *path) {
  fprintf(stderr, "tilesat: wrote %s\n", path);
}

int out_open(out_file *of, const char *path) {
  of->out = NULL;
  of->f = stdout;
  of->slot = -1;
  of->path = NULL;
  if (!path || !strcmp(path, "-"))
    return 0;
  tilesat_error err;
  if (!(of->out = tilesat_output_open(path, &err)))
    return fail_err(&err);
  if (!(of->path = strdup(path))) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  of->f = tilesat_output_file(of->out);
  const char *temp = tilesat_output_temp(of->out);
  if (temp && (of->slot = stop_temp_add(temp)) < 0) {
    tilesat_output_discard(of->out);
    of->out = NULL;
    free(of->path);
    of->path = NULL;
    fail("%s: too many files written at once", path);
    return EXIT_ERROR;
  }
  return 0;
}

/* Put one output in place now and say so (or drop it); 0 or EXIT_ERROR
 * (said).  Frees path. */
static int put(tilesat_output *out, int slot, char *path, bool ok) {
  tilesat_error err;
  int rc = 0;
  stop_hold(); /* the rename is not cut, nor its temporary left behind */
  if (!ok)
    tilesat_output_discard(out);
  else if (tilesat_output_commit(out, &err))
    rc = fail_err(&err);
  else
    said_written(path);
  stop_temp_remove(slot);
  stop_release();
  free(path);
  return rc;
}

int out_close(out_file *of, bool ok) {
  if (!of->out)
    return ok ? 0 : EXIT_ERROR; /* standard output: stdout_end checks it */
  tilesat_output *out = of->out;
  char *path = of->path;
  of->out = NULL;
  of->path = NULL;
  /* a write error now, before the answer: committing says why (and drops
   * the file) */
  errno = 0;
  if (!ok || fflush(of->f) || ferror(of->f)) {
    put(out, of->slot, path, ok);
    return EXIT_ERROR;
  }
  if (waiting.n == waiting.cap) {
    int cap = waiting.cap ? 2 * waiting.cap : 8;
    waiting_file *v = realloc(waiting.v, (size_t)cap * sizeof *v);
    if (!v) {
      fail("out of memory");
      exit(EXIT_ERROR);
    }
    waiting.v = v;
    waiting.cap = cap;
  }
  waiting.v[waiting.n++] = (waiting_file){out, of->slot, path};
  return 0;
}

int out_close_now(out_file *of, bool ok) {
  if (!of->out)
    return ok ? 0 : EXIT_ERROR;
  tilesat_output *out = of->out;
  char *path = of->path;
  of->out = NULL;
  of->path = NULL;
  return put(out, of->slot, path, ok) || !ok ? EXIT_ERROR : 0;
}

/* Every waiting output put in place (ok) or dropped; after the first that
 * cannot be, the others are dropped.  0 or EXIT_ERROR (said). */
static int put_waiting(bool ok) {
  int rc = 0;
  for (int i = 0; i < waiting.n; i++)
    if (put(waiting.v[i].out, waiting.v[i].slot, waiting.v[i].path, ok && !rc))
      rc = EXIT_ERROR;
  free(waiting.v);
  memset(&waiting, 0, sizeof waiting);
  return rc;
}

/* ------------------------------------------------------- standard output */

static int stdout_errno;
/* Since answer_begin: standard output (descriptor 1) is `answer`, a file
 * in memory, and `real` the one it was. */
static int answer = -1, real = -1;

bool stdout_failed(void) {
  if (stdout_errno)
    return true;
  if (!ferror(stdout))
    return false;
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

void answer_begin(void) {
  if (answer >= 0)
    return;
  fflush(stdout);
  int mem = memfd_create("tilesat-answer", MFD_CLOEXEC);
  int fd = mem >= 0 ? fcntl(1, F_DUPFD_CLOEXEC, 3) : -1;
  if (fd < 0 || dup2(mem, 1) < 0) { /* printed as it comes, then */
    if (mem >= 0)
      close(mem);
    if (fd >= 0)
      close(fd);
    return;
  }
  answer = mem;
  real = fd;
}

/* The answer to the real standard output (keep), or dropped. */
static void answer_put(bool keep) {
  if (answer < 0)
    return;
  errno = 0;
  if ((fflush(stdout) || ferror(stdout)) && !stdout_errno)
    stdout_errno = errno ? errno : EIO; /* memory ran out: said as such */
  dup2(real, 1);
  close(real);
  char buf[65536];
  off_t at = 0;
  ssize_t n;
  bool failed = stdout_errno != 0;
  while (keep && !failed && (n = pread(answer, buf, sizeof buf, at)) > 0) {
    for (ssize_t done = 0, k; done < n && !failed; done += k > 0 ? k : 0)
      if ((k = write(1, buf + done, (size_t)(n - done))) < 0 && errno != EINTR)
        failed = (stdout_errno = errno) != 0;
    at += n;
  }
  close(answer);
  answer = real = -1;
}

int answer_end(const options *o, int rc) {
  stop_hold(); /* all or nothing: a signal now waits for the end */
  if (stop_requested())
    rc = stop_end(o, rc); /* "interrupted", once */
  /* (a reader gone: stdout_end says so) */
  bool ok = rc != EXIT_ERROR && !stdout_failed();
  if (put_waiting(ok))
    rc = EXIT_ERROR;
  answer_put(ok && rc != EXIT_ERROR);
  if (ok && rc != EXIT_ERROR)
    stop_commit();
  stop_release();
  return rc;
}

/* ------------------------------------------------- outputs that are inputs */

/* A file by the option that names it ("" for an argument); owned: the
 * path when it was made here (a sidecar), malloc'd; beside: for a picture
 * written beside another output, that output's path. */
typedef struct named_file {
  const char *option, *path;
  char *owned;
  const char *beside;
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
    push(l, (named_file){option, path, NULL, NULL});
}

/* A sidecar (malloc'd, or NULL), which the list then owns. */
static void add_owned(file_list *l, const char *option, char *path) {
  if (path)
    push(l, (named_file){option, path, path, NULL});
}

/* The picture of tiles written beside the Tiled file `main` (-o, --tmx or
 * --tmj), which the list then owns. */
static void add_picture(file_list *l, const char *option, const char *main) {
  if (!main)
    return;
  char *p = tiled_image(main);
  if (!p) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  push(l, (named_file){option, p, p, main});
}

char *tiled_image(const char *map) { return tilesat_tiled_picture_path(map); }

/* What the command writes and what it reads, by option. */
static void list_files(const options *o, file_list *in, file_list *out) {
  bool makes_rules = command_does(o, CMD_MAKES_RULES);
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
      !o->tilesets_from && (!tiled_pins(o) || command_does(o, CMD_SHEET));
  if (own_set) {
    add_picture(out, "--tmx", o->tmx);
    add_picture(out, "--tmj", o->tmj);
  }
  if (command_does(o, CMD_TILESET_OUT) && o->output &&
      strcmp(o->output, "-")) /* (refused: export-tileset writes files) */
    add_picture(out, "-o", o->output);
  if (makes_rules) {
    add(out, "--pictures", o->pictures);
    char *side = o->pictures ? NULL : sidecar(o->output);
    if (side) /* beside -o: never over a file tilesat did not write */
      push(out, (named_file){"-o", side, side, o->output});
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

/* A picture written beside another output may replace only a file tilesat
 * wrote (a PNG marked as tilesat's), never a user's (a sample the rules
 * came from); a file that is not a regular one is written as any output
 * is (files.c's top). */
/* A pictures file tilesat writes starts with its format's first line. */
static bool pictures_by_tilesat(const char *path) {
  static const char head[] = "tilesat-pictures 1\n";
  char buf[sizeof head] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, sizeof head - 1, f) : 0;
  if (f)
    fclose(f);
  return n == sizeof head - 1 && !memcmp(buf, head, n);
}

static int check_not_users(const named_file *w) {
  struct stat st;
  bool pictures = ends_with(w->path, ".pictures");
  if (stat(w->path, &st) || !S_ISREG(st.st_mode) ||
      (pictures ? pictures_by_tilesat(w->path)
                : tilesat_png_by_tilesat(w->path)))
    return 0;
  fail("%s: exists and was not written by tilesat (%s %s writes its %s "
       "there); --force replaces it",
       w->path, w->option, w->beside,
       pictures ? "pictures file" : "picture of tiles");
  return EXIT_ERROR;
}

/* A painted Tiled map's copy is written in its own format. */
static int check_copy_format(const options *o) {
  const char *base = o->tilesets_from ? NULL : tiled_pins(o);
  if (!base || command_does(o, CMD_SHEET))
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

/* A Tiled file names its picture (FILE.png) inside it: a name that is not
 * plain UTF-8 (control bytes, bytes not UTF-8) could not be read back. */
static int check_tiled_name(const char *option, const char *path) {
  if (!path)
    return 0;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char *enc = tilesat_name_encode(base);
  bool same = enc && !strcmp(enc, base);
  free(enc);
  if (same)
    return 0;
  fail("%s: %s: a Tiled file names its picture inside it, so its name must "
       "be UTF-8 without control bytes or backslashes",
       option, path);
  return EXIT_ERROR;
}

int check_outputs(const options *o) {
  if (check_copy_format(o) || check_tiled_name("--tmx", o->tmx) ||
      check_tiled_name("--tmj", o->tmj) ||
      (command_does(o, CMD_TILESET_OUT) && check_tiled_name("-o", o->output)))
    return EXIT_ERROR;
  file_list in = {.n = 0}, out = {.n = 0};
  list_files(o, &in, &out);
  int rc = 0;
  for (int i = 0; i < out.n && !rc; i++) {
    const char *p = out.v[i].path;
    for (int k = 0; k < in.n && !rc; k++)
      if (same_file(p, in.v[k].path))
        rc = refuse(&out.v[i], &in.v[k], true);
    for (int k = 0; k < i && !rc; k++)
      if (same_file(p, out.v[k].path))
        rc = refuse(&out.v[i], &out.v[k], false);
  }
  for (int i = 0; i < out.n && !rc && !o->force; i++)
    if (out.v[i].beside)
      rc = check_not_users(&out.v[i]);
  /* an output that cannot be written: said now, not after the answer */
  tilesat_error err;
  for (int i = 0; i < out.n && !rc; i++)
    if (tilesat_output_check(out.v[i].path, &err))
      rc = fail_err(&err);
  for (int i = 0; i < in.n; i++)
    free(in.v[i].owned);
  for (int i = 0; i < out.n; i++)
    free(out.v[i].owned);
  free(in.v);
  free(out.v);
  return rc;
}
