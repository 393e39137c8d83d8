/* reader.c: the line reader every `tilesat-KIND VERSION` text format
 * shares, so that they agree on comments, quoting, numbers and errors. */
#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ts_text_check(const char *text, size_t len, const char *file,
                   bool no_lines, tilesat_error *err) {
  long bad_line;
  char msg[256];
  if (ts_utf8_check(text, len, &bad_line, msg, sizeof msg))
    return true;
  ts_error(err, file, no_lines ? 0 : bad_line, "%s", msg);
  return false;
}

bool ts_reader_open(ts_reader *rd, const char *text, size_t len,
                    const char *file, ts_kind want, bool no_lines,
                    tilesat_error *err) {
  memset(rd, 0, sizeof *rd);
  rd->file = file;
  rd->err = err;
  rd->text = text + ts_bom_len(text, len);
  rd->len = len - ts_bom_len(text, len);
  rd->no_lines = no_lines;
  ts_reader_rewind(rd);
  if (!no_lines && want != TS_KIND_OTHER &&
      !ts_kind_check(text, len, file, want, err))
    return false;
  return ts_text_check(text, len, file, no_lines, err);
}

static bool comment_or_blank(const char *line, size_t n) {
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i == n || line[i] == '#';
}

static void drop_tokens(ts_reader *rd) {
  if (rd->tok)
    ts_tokens_free(rd->tok, rd->nt);
  rd->tok = NULL;
  rd->nt = 0;
}

int ts_reader_next(ts_reader *rd) {
  drop_tokens(rd);
  const char *line;
  size_t n;
  while (ts_next_line(&rd->it, &line, &n)) {
    if (comment_or_blank(line, n))
      continue;
    const char *msg;
    int nt = ts_tokenize(line, n, &rd->tok, &msg);
    if (nt < 0) {
      rd->tok = NULL;
      return ts_reader_error(rd, "%s", msg);
    }
    rd->nt = nt;
    return 1;
  }
  return 0;
}

void ts_reader_rewind(ts_reader *rd) {
  drop_tokens(rd);
  rd->it = (ts_lines){rd->text, rd->text + rd->len, 0};
}

void ts_reader_close(ts_reader *rd) { drop_tokens(rd); }

int ts_reader_error(ts_reader *rd, const char *fmt, ...) {
  char msg[sizeof rd->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ts_error(rd->err, rd->file, rd->no_lines ? 0 : rd->it.lineno, "%s", msg);
  return -1;
}

int ts_reader_header(ts_reader *rd, const char *header, int version) {
  const char *kind = header + strlen("tilesat-");
  uint64_t v;
  if (strcmp(rd->tok[0], header) || rd->nt != 2 ||
      !ts_parse_whole(rd->tok[1], UINT64_MAX, &v))
    return ts_reader_error(rd, "not %s %s file: the first line must be '%s %d'",
                           strchr("aeiou", kind[0]) ? "an" : "a", kind, header,
                           version);
  if (v != (uint64_t)version)
    return ts_reader_error(rd,
                           "%s format version %llu is not supported (this "
                           "tilesat reads version %d)",
                           kind, (unsigned long long)v, version);
  return 0;
}

bool ts_parse_whole(const char *s, uint64_t max, uint64_t *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE || v > max)
    return false;
  *out = v;
  return true;
}

bool ts_parse_decimal(const char *s, double maxabs, double *out) {
  if (!*s)
    return false;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || !isfinite(v) || fabs(v) > maxabs)
    return false;
  *out = v;
  return true;
}
