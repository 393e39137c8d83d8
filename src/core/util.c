/* util.c: memory, errors, files, UTF-8 and tokens. */
/* POSIX with XSI: realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

_Noreturn void ts_out_of_memory(const char *who, size_t n) {
  fprintf(stderr, "tilesat: out of memory%s%s (allocating %zu bytes)\n",
          who ? " in " : "", who ? who : "", n);
  exit(1);
}

static _Noreturn void out_of_memory(size_t n) { ts_out_of_memory(NULL, n); }

void *ts_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory(n);
  return p;
}

void *ts_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory(n * size);
  return p;
}

void *ts_realloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    out_of_memory(n);
  return q;
}

char *ts_strndup(const char *s, size_t n) {
  char *d = ts_malloc(n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *ts_strdup(const char *s) { return ts_strndup(s, strlen(s)); }

void ts_misuse(const char *func, const char *what) {
  fprintf(stderr, "tilesat: API misuse in %s: %s\n", func, what);
  abort();
}

void ts_error(tilesat_error *err, const char *file, long line, const char *fmt,
              ...) {
  if (!err)
    return;
  char raw[sizeof err->msg], what[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int n = 0;
  if (file && line > 0)
    n = snprintf(raw, sizeof raw, "%s:%ld: ", file, line);
  else if (file)
    n = snprintf(raw, sizeof raw, "%s: ", file);
  if (n < 0 || (size_t)n >= sizeof raw)
    n = 0; /* a file name that long: keep the message, drop the name */
  snprintf(raw + n, sizeof raw - (size_t)n, "%s", what);
  /* names and values from files shown, never controls to a terminal */
  tilesat_shown(err->msg, sizeof err->msg, raw);
  err->param[0] = '\0';
}

void ts_error_param(tilesat_error *err, const char *param, const char *fmt,
                    ...) {
  if (!err)
    return;
  char what[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  ts_error(err, param, 0, "%s", what);
  ts_error_mark_param(err, param);
}

void ts_error_mark_param(tilesat_error *err, const char *param) {
  size_t n = strlen(param);
  if (err && n < sizeof err->param && !strncmp(err->msg, param, n) &&
      (err->msg[n] == ':' || err->msg[n] == ' '))
    memcpy(err->param, param, n + 1);
}

/* Read a whole stream; NULL and an error on failure. */
static char *read_stream(FILE *f, const char *path, size_t *len,
                         tilesat_error *err) {
  size_t cap = 4096, n = 0;
  char *buf = ts_malloc(cap);
  errno = 0;
  for (;;) {
    if (n == cap)
      buf = ts_realloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  bool bad = ferror(f);
  int e = errno; /* a directory: EISDIR, which says more than "read error" */
  if (bad) {
    free(buf);
    ts_error(err, path, 0, "cannot read: %s", e ? strerror(e) : "read error");
    return NULL;
  }
  *len = n;
  return buf;
}

/* Standard input, read once: every later read of "-" gets the same bytes
 * (a map's size and its pins are read from one --pins-from, the map's
 * kind sniffed before). */
static char *stdin_bytes;
static size_t stdin_len;

static void stdin_release(void) { free(stdin_bytes); }

char *ts_read_file(const char *path, size_t *len, tilesat_error *err) {
  if (!strcmp(path, "-")) {
    if (!stdin_bytes) {
      stdin_bytes = read_stream(stdin, path, &stdin_len, err);
      if (!stdin_bytes)
        return NULL;
      atexit(stdin_release);
    }
    char *copy = ts_malloc(stdin_len + 1);
    memcpy(copy, stdin_bytes, stdin_len);
    *len = stdin_len;
    return copy;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    char hint[TS_HINT] = "";
    if (e == ENOENT)
      ts_path_hint(path, hint, sizeof hint);
    ts_error(err, path, 0, "cannot open: %s%s", strerror(e), hint);
    return NULL;
  }
  char *buf = read_stream(f, path, len, err);
  fclose(f);
  return buf;
}

char *tilesat_read_file(const char *path, size_t *len, tilesat_error *err) {
  return ts_read_file(path, len, err);
}

size_t ts_bom_len(const char *text, size_t len) {
  return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

size_t ts_text_start(const char *text, size_t len) {
  size_t i = ts_bom_len(text, len);
  while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                     text[i] == '\t'))
    i++;
  return i;
}

/* ------------------------------------------------ files written whole */

struct tilesat_output {
  FILE *f;
  char *name; /* the path as given, for messages */
  char *path; /* the target, a symbolic link resolved */
  char *temp; /* NULL: the target is written directly */
  int dir;    /* the target's folder, opened once: every later step (the
                 temporary, the owner check, the rename) happens in this
                 folder even if a path to it is swapped meanwhile; or -1 */
  const char *base, *tempbase; /* names in that folder */
  int error; /* the errno of the first write error seen, or 0 */
};

/* A new file in folder `dir` beside `base`, named ".BASE.XXXXXX.tmp" (the
 * full path in *temp, its name in *tempbase), created with O_EXCL (as
 * mkstemp does) but with the mode a plain fopen would give, so the umask
 * applies; the old target's permission bits when it exists, never its
 * set-id bits.  The descriptor, or -1 with errno. */
static int create_temp(int dir, const char *target, const char *base,
                       const struct stat *old, char **temp,
                       const char **tempbase) {
  size_t dlen = (size_t)(base - target);
  const char *name = strlen(base) > 200 ? "tilesat" : base;
  size_t size = dlen + strlen(name) + 32;
  char *t = ts_malloc(size);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t x = ((uint64_t)getpid() << 32) ^ (uint64_t)now.tv_nsec ^
               (uint64_t)now.tv_sec * 0x9E3779B97F4A7C15u;
  mode_t mode = old ? old->st_mode & 0777 : 0666;
  int fd = -1;
  for (int i = 0; i < 100 && fd < 0; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    snprintf(t, size, "%.*s.%s.%06llx.tmp", (int)dlen, target, name,
             (unsigned long long)(x >> 40));
    fd = openat(dir, t + dlen, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  struct stat again;
  if (fd >= 0 && old) {
    /* keep the old file's mode and, where allowed, its owner: only if the
     * target is still that file */
    (void)fchmod(fd, mode);
    if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
        !fstatat(dir, base, &again, AT_SYMLINK_NOFOLLOW) &&
        again.st_dev == old->st_dev && again.st_ino == old->st_ino)
      (void)!fchown(fd, old->st_uid, old->st_gid);
  }
  if (fd < 0) {
    int e = errno;
    free(t);
    errno = e;
    return -1;
  }
  *temp = t;
  *tempbase = t + dlen;
  return fd;
}

static void output_free(tilesat_output *o) {
  if (o->dir >= 0)
    close(o->dir);
  free(o->temp);
  free(o->name);
  free(o->path);
  free(o);
}

/* The folder of o->path, opened; o->base its file's name there. */
static int open_folder(tilesat_output *o) {
  const char *slash = strrchr(o->path, '/');
  o->base = slash ? slash + 1 : o->path;
  if (!slash)
    return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  char *dir =
      ts_strndup(o->path, slash == o->path ? 1 : (size_t)(slash - o->path));
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(dir);
  return fd;
}

/* The file that writing `path` writes (malloc'd): symbolic links
 * followed, a dangling one too (the file is made where it points, as a
 * shell's `>` makes it, not put in place of the link); a new file is the
 * path itself.  NULL with errno ELOOP for a loop of links. */
static char *target_of(const char *path) {
  char *p = realpath(path, NULL);
  if (p)
    return p;
  p = ts_strdup(path);
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    char link[4096];
    ssize_t n;
    if (lstat(p, &st) || !S_ISLNK(st.st_mode) ||
        (n = readlink(p, link, sizeof link - 1)) < 0)
      return p;
    link[n] = 0;
    const char *slash = strrchr(p, '/');
    size_t dir = link[0] != '/' && slash ? (size_t)(slash - p + 1) : 0;
    char *next = ts_malloc(dir + (size_t)n + 1);
    memcpy(next, p, dir);
    memcpy(next + dir, link, (size_t)n + 1);
    free(p);
    p = next;
  }
  free(p);
  errno = ELOOP;
  return NULL;
}

int tilesat_output_check(const char *path, tilesat_error *err) {
  char *target = target_of(path);
  int e = target ? 0 : errno;
  struct stat st;
  bool exists = target && !stat(target, &st);
  if (exists && S_ISDIR(st.st_mode)) {
    e = EISDIR;
  } else if (exists && !S_ISREG(st.st_mode)) {
    if (access(target, W_OK)) /* written in place */
      e = errno;
  } else if (target) { /* a new file, or one replaced: made in its folder */
    const char *slash = strrchr(target, '/');
    char *dir = !slash ? ts_strdup(".")
                : slash == target
                    ? ts_strdup("/")
                    : ts_strndup(target, (size_t)(slash - target));
    if (stat(dir, &st) || (S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK)))
      e = errno;
    else if (!S_ISDIR(st.st_mode))
      e = ENOTDIR;
    free(dir);
  }
  free(target);
  if (e)
    ts_error(err, path, 0, "cannot open for writing: %s", strerror(e));
  return e ? -1 : 0;
}

tilesat_output *tilesat_output_open(const char *path, tilesat_error *err) {
  tilesat_output *o = ts_calloc(1, sizeof *o);
  o->name = ts_strdup(path);
  o->path = target_of(path);
  if (!o->path) {
    ts_error(err, path, 0, "cannot open for writing: %s", strerror(errno));
    free(o->name);
    free(o);
    return NULL;
  }
  o->dir = open_folder(o);
  struct stat st;
  bool exists = o->dir >= 0 && !fstatat(o->dir, o->base, &st, 0);
  if (o->dir < 0) {
    o->f = NULL;
  } else if (exists && !S_ISREG(st.st_mode)) {
    /* a device or FIFO: written in place, never replaced */
    int fd = openat(o->dir, o->base, O_WRONLY | O_CLOEXEC);
    o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !o->f)
      close(fd);
  } else {
    int fd = create_temp(o->dir, o->path, o->base, exists ? &st : NULL,
                         &o->temp, &o->tempbase);
    o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !o->f) {
      close(fd);
      unlinkat(o->dir, o->tempbase, 0);
    }
  }
  if (!o->f) {
    ts_error(err, path, 0, "cannot open for writing: %s", strerror(errno));
    output_free(o);
    return NULL;
  }
  return o;
}

FILE *tilesat_output_file(const tilesat_output *o) { return o->f; }

const char *tilesat_output_temp(const tilesat_output *o) { return o->temp; }

int ts_output_flush(tilesat_output *o) {
  int before = errno;
  errno = 0;
  if (!fflush(o->f) && !ferror(o->f)) {
    errno = before;
    return 0;
  }
  if (!o->error)
    o->error = errno ? errno : before ? before : EIO;
  return -1;
}

int tilesat_output_commit(tilesat_output *o, tilesat_error *err) {
  /* (an error flag set by an earlier write: errno at this call says why,
   * as a rule) */
  ts_output_flush(o);
  int e = o->error;
  /* the data on disk before the name points at it: a crash leaves the old
   * file or the new, never an empty one */
  if (!e && o->temp && fsync(fileno(o->f)) && errno != EINVAL)
    e = errno;
  if (fclose(o->f) && !e)
    e = errno ? errno : EIO;
  if (!e && o->temp && renameat(o->dir, o->tempbase, o->dir, o->base))
    e = errno;
  if (e && o->temp)
    unlinkat(o->dir, o->tempbase, 0);
  if (e)
    ts_error(err, o->name, 0, "write error: %s", strerror(e));
  output_free(o);
  return e ? -1 : 0;
}

void tilesat_output_discard(tilesat_output *o) {
  if (!o)
    return;
  fclose(o->f);
  if (o->temp)
    unlinkat(o->dir, o->tempbase, 0);
  output_free(o);
}

int ts_utf8_len(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* The multi-byte sequence at s (lead byte s[0] >= 0x80, `avail` bytes
 * left), valid per RFC 3629 (no overlongs, no surrogates, <= U+10FFFF): its
 * length, or 0 with a message. */
static int utf8_seq(const unsigned char *s, size_t avail, char *msg,
                    size_t msglen) {
  unsigned c = s[0], lo = 0x80, hi = 0xBF;
  int n = c >= 0xC2 && c <= 0xDF   ? 2
          : c >= 0xE0 && c <= 0xEF ? 3
          : c >= 0xF0 && c <= 0xF4 ? 4
                                   : 0;
  if (c == 0xE0 || c == 0xF0)
    lo = c == 0xE0 ? 0xA0 : 0x90;
  if (c == 0xED || c == 0xF4)
    hi = c == 0xED ? 0x9F : 0x8F;
  if (!n) {
    snprintf(msg, msglen, "invalid UTF-8 (byte 0x%02x)", c);
    return 0;
  }
  if ((size_t)n > avail) {
    snprintf(msg, msglen, "invalid UTF-8 (truncated sequence at end of file)");
    return 0;
  }
  for (int k = 1; k < n; k++, lo = 0x80, hi = 0xBF)
    if (s[k] < lo || s[k] > hi) {
      snprintf(msg, msglen, "invalid UTF-8 (byte 0x%02x after 0x%02x)", s[k],
               c);
      return 0;
    }
  return n;
}

static bool control(unsigned c) { return c < 0x20 || c == 0x7f; }

bool ts_utf8_check(const char *text, size_t len, long *line, char *msg,
                   size_t msglen) {
  const unsigned char *s = (const unsigned char *)text;
  long ln = 1;
  for (size_t i = 0; i < len;) {
    unsigned c = s[i];
    int n = 1;
    if (c == '\n' || (c == '\r' && (i + 1 == len || s[i + 1] != '\n')))
      ln++; /* LF, CRLF (at its LF) and a lone CR each end a line */
    else if (control(c) && c != '\t' && c != '\r')
      n = 0, snprintf(msg, msglen, "control character 0x%02x (not text)", c);
    else if (c >= 0x80)
      n = utf8_seq(s + i, len - i, msg, msglen);
    if (!n) {
      *line = ln;
      return false;
    }
    i += (size_t)n;
  }
  return true;
}

bool ts_next_line(ts_lines *it, const char **line, size_t *len) {
  if (it->p >= it->end)
    return false;
  /* A line ends at LF, CRLF or a lone CR (old Mac files): a CR is never
   * part of a line, where it would become a tile. */
  const char *stop = it->p;
  while (stop < it->end && *stop != '\n' && *stop != '\r')
    stop++;
  *line = it->p;
  *len = (size_t)(stop - it->p);
  if (stop + 1 < it->end && stop[0] == '\r' && stop[1] == '\n')
    stop++;
  it->p = stop < it->end ? stop + 1 : it->end;
  it->lineno++;
  return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

typedef TS_VEC(char) charbuf;

static int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* The escape after a backslash at line[*k]: \" \\ \n \r \t or \xHH (not
 * \x00), which ts_write_token writes for what would not read back. */
static bool unescape(const char *line, size_t len, size_t *k, char *out) {
  static const char from[] = "\"\\nrt", to[] = "\"\\\n\r\t";
  const char *e = *k < len && line[*k] ? strchr(from, line[*k]) : NULL;
  if (e) {
    *out = to[e - from];
    (*k)++;
    return true;
  }
  if (len - *k < 3 || line[*k] != 'x')
    return false;
  int hi = hex_digit(line[*k + 1]), lo = hex_digit(line[*k + 2]);
  if (hi < 0 || lo < 0 || hi + lo == 0)
    return false;
  *out = (char)(hi * 16 + lo);
  *k += 3;
  return true;
}

/* A "quoted" token from line[*i] (the opening quote) into buf, escapes
 * undone; false with a message. */
static bool quoted(const char *line, size_t len, size_t *i, charbuf *buf,
                   const char **msg) {
  size_t k = *i + 1;
  for (;;) {
    if (k == len) {
      *msg = "unterminated quoted name";
      return false;
    }
    char c = line[k++];
    if (c == '"')
      break;
    if (c == '\\' && !unescape(line, len, &k, &c)) {
      *msg = "bad escape in quoted name (\\\", \\\\, \\n, \\r, \\t or "
             "\\xHH)";
      return false;
    }
    TS_PUSH(*buf, c);
  }
  if (k < len && !is_space(line[k])) {
    *msg = "quoted name must be followed by a space";
    return false;
  }
  *i = k;
  return true;
}

int ts_tokenize(const char *line, size_t len, char ***tokens,
                const char **msg) {
  TS_VEC(char *) toks = {0};
  charbuf buf = {0};
  size_t i = 0;
  for (;;) {
    while (i < len && is_space(line[i]))
      i++;
    if (i == len)
      break;
    buf.n = 0;
    if (line[i] != '"') {
      while (i < len && !is_space(line[i]))
        TS_PUSH(buf, line[i++]);
    } else if (!quoted(line, len, &i, &buf, msg)) {
      free(buf.v);
      ts_tokens_free(toks.v, (int)toks.n);
      return -1;
    }
    TS_PUSH(toks, ts_strndup(buf.v ? buf.v : "", buf.n));
  }
  free(buf.v);
  *tokens = toks.v;
  return (int)toks.n;
}

void ts_tokens_free(char **tokens, int n) {
  for (int i = 0; i < n; i++)
    free(tokens[i]);
  free(tokens);
}

/* Bytes of name[0..] that stand for themselves in a quoted name: a valid
 * UTF-8 character that is not a control character, a quote or a
 * backslash; 0 for a byte that needs an escape. */
static int plain(const char *name) {
  unsigned char c = (unsigned char)*name;
  if (c >= 0x80) { /* the NUL ends a sequence cut short as a bad byte would */
    char msg[64];
    return utf8_seq((const unsigned char *)name, 4, msg, sizeof msg);
  }
  return control(c) || c == '"' || c == '\\' ? 0 : 1;
}

bool ts_token_needs_quotes(const char *name) {
  if (!*name || *name == '"')
    return true;
  for (const char *p = name; *p;) {
    int n = plain(p);
    if (!n || *p == ' ')
      return true;
    p += n;
  }
  return false;
}

/* Every name reads back as written: spaces and tabs quoted, quotes and
 * backslashes escaped, and so are line ends, other control characters and
 * bytes that are not UTF-8, which the readers would take for a line end or
 * refuse. */
void ts_write_token(FILE *out, const char *name) {
  if (!ts_token_needs_quotes(name)) {
    fputs(name, out);
    return;
  }
  fputc('"', out);
  for (const char *p = name; *p;) {
    int n = plain(p);
    unsigned char c = (unsigned char)*p;
    if (n)
      fwrite(p, 1, (size_t)n, out);
    else if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n' || c == '\r' || c == '\t')
      fprintf(out, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
    else
      fprintf(out, "\\x%02x", c);
    p += n ? n : 1;
  }
  fputc('"', out);
}

void tilesat_write_name(FILE *out, const char *name) {
  ts_write_token(out, name);
}

/* Bytes of s[0..] that a Tiled file, a JSON output or a message holds as
 * they are: a UTF-8 character that is neither a control (C0, DEL, C1) nor
 * U+FFFE/U+FFFF (not XML 1.0 characters); 0 for a byte to escape. */
static int kept(const unsigned char *s) {
  if (*s < 0x80)
    return control(*s) ? 0 : 1;
  char msg[64]; /* the NUL ends a sequence cut short as a bad byte would */
  int n = utf8_seq(s, 4, msg, sizeof msg);
  if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0)
    return 0;
  if (n == 3 && s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE)
    return 0;
  return n;
}

char *tilesat_name_encode(const char *name) {
  char *out = ts_malloc(4 * strlen(name) + 1), *o = out;
  for (const unsigned char *p = (const unsigned char *)name; *p;) {
    int n = kept(p);
    if (*p == '\\') {
      *o++ = '\\';
      *o++ = '\\';
      p++;
    } else if (n) {
      memcpy(o, p, (size_t)n);
      o += n;
      p += n;
    } else {
      o += snprintf(o, 5, "\\x%02x", *p++);
    }
  }
  *o = 0;
  return out;
}

char *tilesat_name_decode(const char *text) {
  char *out = ts_malloc(strlen(text) + 1), *o = out;
  while (*text) {
    int hi = text[0] == '\\' && text[1] == 'x' ? hex_digit(text[2]) : -1;
    int lo = hi < 0 ? -1 : hex_digit(text[3]);
    if (text[0] == '\\' && text[1] == '\\') {
      *o++ = '\\';
      text += 2;
    } else if (lo >= 0 && hi + lo) {
      *o++ = (char)(hi * 16 + lo);
      text += 4;
    } else {
      *o++ = *text++;
    }
  }
  *o = 0;
  return out;
}

void tilesat_shown(char *out, size_t size, const char *s) {
  size_t k = 0;
  if (!size)
    return;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int n = kept(p);
    size_t need = n ? (size_t)n : 4;
    if (k + need >= size)
      break;
    if (n)
      memcpy(out + k, p, need);
    else
      snprintf(out + k, 5, "\\x%02x", *p);
    k += need;
    p += n ? n : 1;
  }
  out[k] = 0;
}

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static size_t names_probe(const ts_names *t, const char *s, size_t n) {
  size_t mask = t->nslots - 1, i = (size_t)hash_bytes(s, n) & mask;
  while (t->slot[i]) {
    const char *x = t->v.v[t->slot[i] - 1];
    if (strlen(x) == n && !memcmp(x, s, n))
      break;
    i = (i + 1) & mask;
  }
  return i;
}

int ts_names_find(const ts_names *t, const char *name) {
  return ts_names_find_n(t, name, strlen(name));
}

int ts_names_find_n(const ts_names *t, const char *name, size_t len) {
  if (!t->nslots)
    return -1;
  return t->slot[names_probe(t, name, len)] - 1;
}

int ts_names_intern(ts_names *t, const char *name, size_t len) {
  if (2 * (t->v.n + 1) > t->nslots) {
    size_t old = t->nslots;
    int *oldslot = t->slot;
    t->nslots = old ? 2 * old : 16;
    t->slot = ts_calloc(t->nslots, sizeof *t->slot);
    for (size_t i = 0; i < old; i++)
      if (oldslot[i]) {
        const char *x = t->v.v[oldslot[i] - 1];
        t->slot[names_probe(t, x, strlen(x))] = oldslot[i];
      }
    free(oldslot);
  }
  size_t i = names_probe(t, name, len);
  if (!t->slot[i]) {
    TS_PUSH(t->v, ts_strndup(name, len));
    t->slot[i] = (int)t->v.n;
  }
  return t->slot[i] - 1;
}

void ts_names_free(ts_names *t) {
  for (size_t i = 0; i < t->v.n; i++)
    free(t->v.v[i]);
  free(t->v.v);
  free(t->slot);
  memset(t, 0, sizeof *t);
}
