/* util.c: memory, errors, files, UTF-8 and tokens. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(size_t n) {
  fprintf(stderr, "tilesat: out of memory (allocating %zu bytes)\n", n);
  abort();
}

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
  size_t size = sizeof err->msg;
  int n = 0;
  if (file && line > 0)
    n = snprintf(err->msg, size, "%s:%ld: ", file, line);
  else if (file)
    n = snprintf(err->msg, size, "%s: ", file);
  if (n < 0 || (size_t)n >= size)
    n = 0; /* a file name that long: keep the message, drop the name */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg + n, size - (size_t)n, fmt, ap);
  va_end(ap);
}

char *ts_read_file(const char *path, size_t *len, tilesat_error *err) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) {
    ts_error(err, path, 0, "cannot open: %s", strerror(errno));
    return NULL;
  }
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
  if (f != stdin)
    fclose(f);
  if (bad) {
    free(buf);
    ts_error(err, path, 0, "cannot read: %s", e ? strerror(e) : "read error");
    return NULL;
  }
  *len = n;
  return buf;
}

int ts_utf8_len(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

bool ts_utf8_check(const char *text, size_t len, long *line, char *msg,
                   size_t msglen) {
  const unsigned char *s = (const unsigned char *)text;
  long ln = 1;
  for (size_t i = 0; i < len;) {
    unsigned c = s[i];
    if (c == '\n') {
      ln++;
      i++;
      continue;
    }
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        *line = ln;
        snprintf(msg, msglen, "control character 0x%02x (not text)", c);
        return false;
      }
      i++;
      continue;
    }
    /* Valid sequences per RFC 3629: no overlongs, no surrogates, <= U+10FFFF */
    int n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
      n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0)
        lo = 0xA0;
      if (c == 0xED)
        hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0)
        lo = 0x90;
      if (c == 0xF4)
        hi = 0x8F;
    } else {
      *line = ln;
      snprintf(msg, msglen, "invalid UTF-8 (byte 0x%02x)", c);
      return false;
    }
    if (i + (size_t)n > len) {
      *line = ln;
      snprintf(msg, msglen,
               "invalid UTF-8 (truncated sequence at end of file)");
      return false;
    }
    for (int k = 1; k < n; k++) {
      unsigned b = s[i + (size_t)k];
      if (b < lo || b > hi) {
        *line = ln;
        snprintf(msg, msglen, "invalid UTF-8 (byte 0x%02x after 0x%02x)", b, c);
        return false;
      }
      lo = 0x80;
      hi = 0xBF;
    }
    i += (size_t)n;
  }
  return true;
}

bool ts_next_line(ts_lines *it, const char **line, size_t *len) {
  if (it->p >= it->end)
    return false;
  const char *nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
  const char *stop = nl ? nl : it->end;
  *line = it->p;
  *len = (size_t)(stop - it->p);
  if (*len && (*line)[*len - 1] == '\r')
    (*len)--;
  it->p = nl ? nl + 1 : it->end;
  it->lineno++;
  return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

int ts_tokenize(const char *line, size_t len, char ***tokens,
                const char **msg) {
  TS_VEC(char *) toks = {0};
  TS_VEC(char) buf = {0};
  size_t i = 0;
  for (;;) {
    while (i < len && is_space(line[i]))
      i++;
    if (i == len)
      break;
    buf.n = 0;
    if (line[i] == '"') {
      i++;
      for (;;) {
        if (i == len) {
          *msg = "unterminated quoted name";
          goto fail;
        }
        char c = line[i++];
        if (c == '"')
          break;
        if (c == '\\') {
          if (i == len || (line[i] != '"' && line[i] != '\\')) {
            *msg = "bad escape in quoted name (only \\\" and \\\\)";
            goto fail;
          }
          c = line[i++];
        }
        TS_PUSH(buf, c);
      }
      if (i < len && !is_space(line[i])) {
        *msg = "quoted name must be followed by a space";
        goto fail;
      }
    } else {
      while (i < len && !is_space(line[i]))
        TS_PUSH(buf, line[i++]);
    }
    TS_PUSH(toks, ts_strndup(buf.v ? buf.v : "", buf.n));
  }
  free(buf.v);
  *tokens = toks.v;
  return (int)toks.n;
fail:
  free(buf.v);
  ts_tokens_free(toks.v, (int)toks.n);
  return -1;
}

void ts_tokens_free(char **tokens, int n) {
  for (int i = 0; i < n; i++)
    free(tokens[i]);
  free(tokens);
}

bool ts_token_needs_quotes(const char *name) {
  if (!*name || *name == '"')
    return true;
  for (const char *p = name; *p; p++)
    if (is_space(*p) || *p == '\\' || *p == '"')
      return true;
  return false;
}

void ts_write_token(FILE *out, const char *name) {
  if (!ts_token_needs_quotes(name)) {
    fputs(name, out);
    return;
  }
  fputc('"', out);
  for (const char *p = name; *p; p++) {
    if (*p == '"' || *p == '\\')
      fputc('\\', out);
    fputc(*p, out);
  }
  fputc('"', out);
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
  if (!t->nslots)
    return -1;
  return t->slot[names_probe(t, name, strlen(name))] - 1;
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
