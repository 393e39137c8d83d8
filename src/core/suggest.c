/* suggest.c: "did you mean": the names near a word nobody knows (an
 * unknown command, option or tile), the one place that says it. */
#include "core/core.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_MAX 6   /* "did you mean" names at most this many */
#define LIST_ALL 12  /* no name near: every name when there are so few */
#define LIST_FEW 5   /* else the nearest this many */
#define SHOWN 48     /* a name longer than this is cut, "..." */
#define SPAN 128     /* distances over the first SPAN bytes */
#define DIR_MAX 4096 /* a folder's names looked at for a missing file */

/* Optimal string alignment distance (insertions, deletions, changes and
 * swaps of neighbours), letters compared without case. */
static int distance(const char *a, const char *b) {
  size_t la = strnlen(a, SPAN), lb = strnlen(b, SPAN);
  int *row = ts_malloc(3 * (lb + 1) * sizeof *row);
  int *pp = row, *p = row + lb + 1, *c = row + 2 * (lb + 1);
  for (size_t j = 0; j <= lb; j++)
    p[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    c[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int ai = tolower((unsigned char)a[i - 1]);
      int bj = tolower((unsigned char)b[j - 1]);
      int v = p[j - 1] + (ai != bj);
      v = p[j] + 1 < v ? p[j] + 1 : v;
      v = c[j - 1] + 1 < v ? c[j - 1] + 1 : v;
      if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == bj && pp[j - 2] + 1 < v)
        v = pp[j - 2] + 1;
      c[j] = v;
    }
    int *t = pp;
    pp = p, p = c, c = t;
  }
  int d = p[lb];
  free(row);
  return d;
}

static bool begins_with(const char *name, const char *word) {
  for (; *word; word++, name++)
    if (tolower((unsigned char)*word) != tolower((unsigned char)*name))
      return false;
  return true;
}

/* Near: a few edits away (one per four letters, fewer than the word has),
 * or beginning with the word. */
static bool is_near(const char *word, const char *name, int d) {
  int len = (int)strnlen(word, SPAN);
  return (d <= 1 + len / 4 && d < len) || (*word && begins_with(name, word));
}

typedef struct ranked {
  int d, i;
} ranked;

static int by_distance(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  return x->d != y->d ? (x->d > y->d) - (x->d < y->d)
                      : (x->i > y->i) - (x->i < y->i);
}

typedef struct text {
  char *buf;
  size_t size, n;
} text;

static void put(text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  if (t->n + 1 >= t->size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->buf + t->n, t->size - t->n, fmt, ap);
  va_end(ap);
  if (k > 0)
    t->n += (size_t)k < t->size - t->n ? (size_t)k : t->size - t->n - 1;
}

/* 'a', 'b' or 'c' (last: "or" or "and"), long names cut. */
static void put_names(text *t, const char *const *names, const ranked *r, int k,
                      const char *last) {
  for (int j = 0; j < k; j++) {
    const char *s = names[r[j].i];
    put(t, "%s'%.*s%s'",
        j == 0       ? ""
        : j == k - 1 ? last
                     : ", ",
        SHOWN, s, strlen(s) > SHOWN ? "..." : "");
  }
}

size_t tilesat_suggest(const char *word, const char *const *names, int n,
                       const char *noun, char *buf, size_t size) {
  if (!buf || !size)
    return 0;
  buf[0] = 0;
  if (!word || !names || n <= 0)
    return 0;
  ranked *r = ts_malloc((size_t)n * sizeof *r);
  int near = 0;
  for (int i = 0; i < n; i++) {
    int d = distance(word, names[i]);
    if (is_near(word, names[i], d))
      r[near++] = (ranked){d, i};
  }
  text t = {buf, size, 0};
  if (near) {
    qsort(r, (size_t)near, sizeof *r, by_distance);
    int k = near;
    if (k > NEAR_MAX) {
      /* a group of equal distance whole or not at all, if one fits */
      k = NEAR_MAX;
      while (k > 0 && r[k - 1].d == r[k].d)
        k--;
      k = k ? k : NEAR_MAX;
    }
    put(&t, "did you mean ");
    put_names(&t, names, r, k, " or ");
    put(&t, "?");
    if (k < near && r[k].d == r[k - 1].d)
      put(&t, " (and %d more)", near - k);
  } else if (noun && n <= LIST_ALL) {
    for (int i = 0; i < n; i++)
      r[i] = (ranked){0, i};
    if (n == 1)
      put(&t, "the only %.*s is ", (int)strlen(noun) - 1, noun);
    else
      put(&t, "the %s are ", noun);
    put_names(&t, names, r, n, " and ");
  } else if (noun) {
    for (int i = 0; i < n; i++)
      r[i] = (ranked){distance(word, names[i]), i};
    qsort(r, (size_t)n, sizeof *r, by_distance);
    put(&t, "the nearest of the %d %s are ", n, noun);
    put_names(&t, names, r, LIST_FEW, " and ");
  }
  free(r);
  return t.n;
}

size_t ts_names_hint(const ts_names *names, const char *word, const char *noun,
                     char *buf, size_t size) {
  if (size < 4) {
    if (size)
      buf[0] = 0;
    return 0;
  }
  size_t k = tilesat_suggest(word, (const char *const *)names->v.v,
                             (int)names->v.n, noun, buf + 2, size - 3);
  if (!k) {
    buf[0] = 0;
    return 0;
  }
  buf[0] = ' ';
  buf[1] = '(';
  buf[k + 2] = ')';
  buf[k + 3] = 0;
  return k + 3;
}

/* The names in dir (at most DIR_MAX, not hidden unless the word is), each
 * with its prefix as the path gave it, near `word`, into r and names. */
static int near_files(const char *prefix, size_t plen, const char *word,
                      char ***names, ranked **r) {
  char *dir = ts_strndup(plen ? prefix : ".", plen ? plen : 1);
  DIR *d = opendir(dir);
  free(dir);
  int n = 0, cap = 0;
  *names = NULL;
  *r = NULL;
  if (!d)
    return 0;
  for (struct dirent *e; n < DIR_MAX && (e = readdir(d));) {
    if (e->d_name[0] == '.' && word[0] != '.')
      continue;
    int dist = distance(word, e->d_name);
    if (!is_near(word, e->d_name, dist) || !strcmp(word, e->d_name))
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 8;
      *names = ts_realloc(*names, (size_t)cap * sizeof **names);
      *r = ts_realloc(*r, (size_t)cap * sizeof **r);
    }
    size_t len = strlen(e->d_name);
    (*names)[n] = ts_malloc(plen + len + 1);
    memcpy((*names)[n], prefix, plen);
    memcpy((*names)[n] + plen, e->d_name, len + 1);
    (*r)[n] = (ranked){dist, n};
    n++;
  }
  closedir(d);
  return n;
}

size_t ts_path_hint(const char *path, char *buf, size_t size) {
  if (!buf || size < 4)
    return 0;
  buf[0] = 0;
  const char *slash = strrchr(path, '/');
  const char *word = slash ? slash + 1 : path;
  if (!*word)
    return 0;
  char **names;
  ranked *r;
  int n = near_files(path, (size_t)(word - path), word, &names, &r);
  text t = {buf, size, 0};
  if (n) {
    for (int i = 1; i < n; i++) /* nearest first, ties by name */
      for (int j = i; j > 0 && (r[j - 1].d > r[j].d ||
                                (r[j - 1].d == r[j].d &&
                                 strcmp(names[r[j - 1].i], names[r[j].i]) > 0));
           j--) {
        ranked x = r[j];
        r[j] = r[j - 1];
        r[j - 1] = x;
      }
    int k = n < NEAR_MAX ? n : NEAR_MAX;
    put(&t, " (did you mean ");
    for (int j = 0; j < k; j++) /* whole: a path cut would not be one */
      put(&t, "%s'%s'",
          j == 0       ? ""
          : j == k - 1 ? " or "
                       : ", ",
          names[r[j].i]);
    put(&t, "?)");
  }
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
  free(r);
  return t.n;
}
