/* cmd_sum.c: tilesat sum FILE...: the exact total of the parts of one
 * problem, from what `count --part K/N` printed (a line naming the part
 * and a check, then its count; a file may hold several).  Refuses, before
 * printing anything, a part missing or given twice, parts of different
 * problems and parts of different cuts (another N), and a count that is
 * not plain digits or does not match its check. */
#include "cli.h"

#include <errno.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Where a part was read. */
typedef struct place {
  const char *file;
  long line;
} place;

typedef struct sum {
  mpz_t total;
  int n;       /* parts in the cut (0: none read yet) */
  char id[17]; /* the problem */
  place first; /* the first part read */
  place *at;   /* [n]: where each part was read (file NULL: not yet) */
} sum;

/* "part K/N of problem ID, check C" exactly as count --part prints it:
 * true with k, n, id and the check. */
static bool part_line(const char *s, int *k, int *n, char id[17],
                      unsigned long *check) {
  char c[9], again[128];
  if (sscanf(s, "part %7d/%7d of problem %16[0-9a-f], check %8[0-9a-f]", k, n,
             id, c) != 4 ||
      strlen(id) != 16 || strlen(c) != 8)
    return false;
  *check = strtoul(c, NULL, 16);
  /* nothing more, nothing spelt otherwise ("+1", "01", spaces) */
  snprintf(again, sizeof again, PART_LINE, *k, *n, id, *check);
  return !strcmp(again, s) && *k >= 1 && *k <= *n && *n <= TILESAT_MAX_PARTS;
}

/* A count as count prints it: decimal digits, no leading zero. */
static bool plain_count(const char *s) {
  size_t n = strlen(s);
  return n && strspn(s, "0123456789") == n && (s[0] != '0' || n == 1);
}

/* One part read at p: checked against those before it, its count added.
 * count: its line (NULL: none); bad: what that line holds that no count
 * does, or NULL. */
static int add_part(sum *s, place p, int k, int n, const char *id,
                    unsigned long check, const char *count, const char *bad) {
  if (!s->n) {
    s->n = n;
    memcpy(s->id, id, sizeof s->id);
    s->first = p;
    s->at = calloc((size_t)n, sizeof *s->at);
    if (!s->at) {
      fail("out of memory");
      return EXIT_ERROR;
    }
  } else if (strcmp(id, s->id)) {
    fail("%s:%ld: part %d/%d of problem %s, but %s:%ld is of problem %s",
         p.file, p.line, k, n, id, s->first.file, s->first.line, s->id);
    return EXIT_ERROR;
  } else if (n != s->n) {
    fail("%s:%ld: part %d/%d, but %s:%ld is a part of %d: parts of "
         "different cuts",
         p.file, p.line, k, n, s->first.file, s->first.line, s->n);
    return EXIT_ERROR;
  } else if (s->at[k - 1].file) {
    fail("%s:%ld: part %d/%d again (also %s:%ld)", p.file, p.line, k, n,
         s->at[k - 1].file, s->at[k - 1].line);
    return EXIT_ERROR;
  }
  if (!count) {
    fail("%s:%ld: no count after part %d/%d", p.file, p.line, k, n);
    return EXIT_ERROR;
  }
  if (bad) {
    fail("%s:%ld: not a count after part %d/%d: the line holds %s", p.file,
         p.line + 1, k, n, bad);
    return EXIT_ERROR;
  }
  if (!plain_count(count)) {
    fail("%s:%ld: not a count after part %d/%d: '%s'", p.file, p.line + 1, k, n,
         count);
    return EXIT_ERROR;
  }
  if (part_check(k, n, id, count) != check) {
    fail("%s:%ld: the count of part %d/%d does not match its check "
         "(%08lx): edited or damaged",
         p.file, p.line + 1, k, n, check);
    return EXIT_ERROR;
  }
  mpz_t c;
  mpz_init_set_str(c, count, 10);
  mpz_add(s->total, s->total, c);
  mpz_clear(c);
  s->at[k - 1] = p;
  return 0;
}

/* A line read by getline (len bytes) without its end (LF or CRLF).  NULL,
 * or what is left holds that no line of count's does: a NUL byte (which
 * would end the text early) or a carriage return. */
static const char *chomp(char *line, ssize_t len) {
  size_t n = (size_t)len;
  if (n && line[n - 1] == '\n')
    n--;
  if (n && line[n - 1] == '\r')
    n--;
  line[n] = 0;
  return memchr(line, 0, n)      ? "a NUL byte"
         : memchr(line, '\r', n) ? "a carriage return"
                                 : NULL;
}

/* Every part of one file; 0 or EXIT_ERROR (said). */
static int read_parts(sum *s, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fail("%s: cannot open: %s", path, strerror(errno));
    return EXIT_ERROR;
  }
  char *line = NULL, *count = NULL;
  size_t cap = 0, ccap = 0;
  long lineno = 0;
  int rc = 0, parts = 0;
  ssize_t len;
  while (!rc && (len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    bool clean = !chomp(line, len);
    int k, n;
    char id[17];
    unsigned long check;
    if (clean && !*line)
      continue;
    if (!clean || !part_line(line, &k, &n, id, &check)) {
      fail("%s:%ld: not a part of a count: 'part K/N of problem ID, check C' "
           "and its count, as count --part K/N prints them",
           path, lineno);
      rc = EXIT_ERROR;
      break;
    }
    ssize_t clen = getline(&count, &ccap, f);
    const char *bad = clen >= 0 ? chomp(count, clen) : NULL;
    rc = add_part(s, (place){path, lineno}, k, n, id, check,
                  clen >= 0 ? count : NULL, bad);
    lineno += clen >= 0;
    parts++;
  }
  if (!rc && ferror(f)) {
    fail("%s: cannot read: %s", path, strerror(errno));
    rc = EXIT_ERROR;
  } else if (!rc && !parts) {
    fail("%s: no part in it (count --part K/N prints one)", path);
    rc = EXIT_ERROR;
  }
  free(line);
  free(count);
  fclose(f);
  return rc;
}

/* "part 3 of 8 is missing", "parts 3, 5 and 7 of 8 are missing", the
 * first ten named. */
static int missing(const sum *s) {
  int gone = 0;
  for (int k = 0; k < s->n; k++)
    gone += !s->at[k].file;
  if (!gone)
    return 0;
  char list[160];
  size_t len = 0;
  int named = 0;
  for (int k = 0; k < s->n && named < 10; k++) {
    if (s->at[k].file)
      continue;
    named++;
    const char *sep = named == 1                    ? ""
                      : named == gone && gone <= 10 ? " and "
                                                    : ", ";
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", sep, k + 1);
  }
  if (gone > 10)
    snprintf(list + len, sizeof list - len, " and %d more", gone - 10);
  fail("sum: %s %s of %d %s missing (problem %s)", gone == 1 ? "part" : "parts",
       list, s->n, gone == 1 ? "is" : "are", s->id);
  return EXIT_ERROR;
}

int cmd_sum(options *o) {
  if (o->args.n < 1) {
    fail("sum takes the files count --part K/N wrote (see 'tilesat sum "
         "--help')");
    return EXIT_ERROR;
  }
  sum s = {.n = 0};
  mpz_init(s.total);
  int rc = 0;
  for (int i = 0; i < o->args.n && !rc; i++)
    rc = read_parts(&s, o->args.v[i]);
  if (!rc)
    rc = missing(&s);
  if (!rc)
    gmp_printf("%Zd\n", s.total);
  mpz_clear(s.total);
  free(s.at);
  return rc;
}
