/* rules.c: the rule-set model and its text format (see rules/README.md).
 *
 *   tilesat-rules 1
 *   topology square
 *   tile L 54              # tile NAME WEIGHT
 *   allow L S L C          # allow A DIR B...: each B may stand DIR of A
 *
 * Lines starting with '#' are comments.  Tiles may be declared in any order
 * relative to allow lines (the file is read in two passes), and rules must
 * be symmetric: the reader names the missing half of a pair. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "tilesat-rules"
#define FORMAT_VERSION 1

tilesat_rules *ts_rules_new(tilesat_topology topo, ts_names *names) {
  tilesat_rules *r = ts_calloc(1, sizeof *r);
  r->topo = topo;
  r->names = *names;
  memset(names, 0, sizeof *names);
  r->ntiles = (int)r->names.v.n;
  r->ndirs = tilesat_topology_ndirs(topo);
  r->words = (r->ntiles + 63) / 64;
  r->weight = ts_calloc((size_t)r->ntiles, sizeof *r->weight);
  r->allow = ts_calloc((size_t)r->ntiles * (size_t)r->ndirs * (size_t)r->words,
                       sizeof *r->allow);
  return r;
}

void ts_rules_allow(tilesat_rules *r, int a, int d, int b) {
  uint64_t *set = (uint64_t *)ts_allowed(r, a, d);
  set[b >> 6] |= (uint64_t)1 << (b & 63);
}

void tilesat_rules_free(tilesat_rules *r) {
  if (!r)
    return;
  ts_names_free(&r->names);
  free(r->weight);
  free(r->allow);
  free(r);
}

int tilesat_rules_ntiles(const tilesat_rules *r) { return r->ntiles; }
tilesat_topology tilesat_rules_topology(const tilesat_rules *r) {
  return r->topo;
}

static void check_tile(const char *func, const tilesat_rules *r, int t) {
  if (t < 0 || t >= r->ntiles)
    ts_misuse(func, "tile index out of range");
}

const char *tilesat_rules_tile_name(const tilesat_rules *r, int tile) {
  check_tile(__func__, r, tile);
  return r->names.v.v[tile];
}

uint64_t tilesat_rules_weight(const tilesat_rules *r, int tile) {
  check_tile(__func__, r, tile);
  return r->weight[tile];
}

int tilesat_rules_find_tile(const tilesat_rules *r, const char *name) {
  return ts_names_find(&r->names, name);
}

bool tilesat_rules_allows(const tilesat_rules *r, int a, int dir, int b) {
  check_tile(__func__, r, a);
  check_tile(__func__, r, b);
  if (dir < 0 || dir >= r->ndirs)
    ts_misuse(__func__, "direction out of range");
  return ts_bit(ts_allowed(r, a, dir), b);
}

int tilesat_rules_write(const tilesat_rules *r, FILE *out) {
  fprintf(out, "%s %d\n", HEADER, FORMAT_VERSION);
  fprintf(out, "topology %s\n", tilesat_topology_name(r->topo));
  fprintf(out, "\n# tile NAME WEIGHT (weight: occurrences in the samples)\n");
  for (int t = 0; t < r->ntiles; t++) {
    fputs("tile ", out);
    ts_write_token(out, r->names.v.v[t]);
    fprintf(out, " %llu\n", (unsigned long long)r->weight[t]);
  }
  fprintf(out,
          "\n# allow A DIR B...: each B may stand in direction DIR of A\n");
  for (int a = 0; a < r->ntiles; a++) {
    for (int d = 0; d < r->ndirs; d++) {
      fputs("allow ", out);
      ts_write_token(out, r->names.v.v[a]);
      fprintf(out, " %s", tilesat_dir_name(r->topo, d));
      for (int b = 0; b < r->ntiles; b++)
        if (ts_bit(ts_allowed(r, a, d), b)) {
          fputc(' ', out);
          ts_write_token(out, r->names.v.v[b]);
        }
      fputc('\n', out);
    }
  }
  return ferror(out) ? -1 : 0;
}

/* ---------------------------------------------------------------- reader */

typedef struct parser {
  const char *file;
  tilesat_error *err;
} parser;

static bool parse_u64(const char *s, uint64_t *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE)
    return false;
  *out = v;
  return true;
}

static bool comment_or_blank(const char *line, size_t n) {
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i == n || line[i] == '#';
}

/* Pass 1: header, topology, tiles.  Pass 2: allow lines. */
tilesat_rules *tilesat_rules_parse(const char *text, size_t len,
                                   const char *file, tilesat_error *err) {
  long bad_line;
  char msg[256];
  if (!ts_utf8_check(text, len, &bad_line, msg, sizeof msg)) {
    ts_error(err, file, bad_line, "%s", msg);
    return NULL;
  }
  tilesat_topology topo = TILESAT_SQUARE;
  ts_names names = {0};
  TS_VEC(uint64_t) weights = {0};
  tilesat_rules *r = NULL;
  long *allow_line = NULL; /* [a * ndirs + d]: last line that allowed (a,d) */
  bool header = false, seen_tile = false;
  char **tok = NULL;
  int nt = 0;
  for (int pass = 1; pass <= 2; pass++) {
    ts_lines it = {text, text + len, 0};
    const char *line;
    size_t n;
    while (ts_next_line(&it, &line, &n)) {
      if (comment_or_blank(line, n))
        continue;
      const char *tmsg;
      nt = ts_tokenize(line, n, &tok, &tmsg);
      if (nt < 0) {
        tok = NULL;
        ts_error(err, file, it.lineno, "%s", tmsg);
        goto fail;
      }
      const char *kw = tok[0];
      if (!header) {
        uint64_t v;
        if (strcmp(kw, HEADER) || nt != 2 || !parse_u64(tok[1], &v)) {
          ts_error(err, file, it.lineno,
                   "not a rules file: the first line must be '%s %d'", HEADER,
                   FORMAT_VERSION);
          goto fail;
        }
        if (v != FORMAT_VERSION) {
          ts_error(err, file, it.lineno,
                   "rules format version %llu is not supported (this "
                   "tilesat reads version %d)",
                   (unsigned long long)v, FORMAT_VERSION);
          goto fail;
        }
        header = true;
      } else if (!strcmp(kw, HEADER)) {
        if (pass == 1) {
          ts_error(err, file, it.lineno, "repeated '%s' line", HEADER);
          goto fail;
        }
      } else if (!strcmp(kw, "topology")) {
        if (pass == 1) {
          if (nt != 2 || tilesat_topology_parse(tok[1], &topo)) {
            ts_error(err, file, it.lineno,
                     "expected 'topology square' or 'topology hex'");
            goto fail;
          }
          if (seen_tile) {
            ts_error(err, file, it.lineno,
                     "the topology line must come before the tiles");
            goto fail;
          }
        }
      } else if (!strcmp(kw, "tile")) {
        if (pass == 1) {
          uint64_t w = 1;
          if (nt < 2 || nt > 3 || (nt == 3 && !parse_u64(tok[2], &w))) {
            ts_error(err, file, it.lineno,
                     "expected 'tile NAME WEIGHT' (WEIGHT a whole number "
                     "that fits 64 bits)");
            goto fail;
          }
          if (!*tok[1]) {
            ts_error(err, file, it.lineno, "empty tile name");
            goto fail;
          }
          if (ts_names_find(&names, tok[1]) >= 0) {
            ts_error(err, file, it.lineno, "tile '%s' declared twice", tok[1]);
            goto fail;
          }
          if (names.v.n >= (1u << 20)) {
            ts_error(err, file, it.lineno, "too many tiles (at most %u)",
                     1u << 20);
            goto fail;
          }
          ts_names_intern(&names, tok[1], strlen(tok[1]));
          TS_PUSH(weights, w);
          seen_tile = true;
        }
      } else if (!strcmp(kw, "allow")) {
        if (pass == 2) {
          if (nt < 3) {
            ts_error(err, file, it.lineno, "expected 'allow TILE DIR TILE...'");
            goto fail;
          }
          int a = ts_names_find(&r->names, tok[1]);
          if (a < 0) {
            ts_error(err, file, it.lineno, "unknown tile '%s'", tok[1]);
            goto fail;
          }
          int d = tilesat_dir_find(topo, tok[2]);
          if (d < 0) {
            ts_error(err, file, it.lineno,
                     "unknown direction '%s' for %s topology (one of %s)",
                     tok[2], tilesat_topology_name(topo),
                     topo == TILESAT_HEX ? "E W NE NW SE SW" : "N E S W");
            goto fail;
          }
          for (int i = 3; i < nt; i++) {
            int b = ts_names_find(&r->names, tok[i]);
            if (b < 0) {
              ts_error(err, file, it.lineno, "unknown tile '%s'", tok[i]);
              goto fail;
            }
            ts_rules_allow(r, a, d, b);
          }
          allow_line[a * r->ndirs + d] = it.lineno;
        }
      } else if (pass == 1) {
        ts_error(err, file, it.lineno,
                 "unknown keyword '%s' (expected topology, tile or allow)", kw);
        goto fail;
      }
      ts_tokens_free(tok, nt);
      tok = NULL;
    }
    if (pass == 1) {
      if (!header) {
        ts_error(err, file, 0, "empty rules file");
        goto fail;
      }
      if (names.v.n == 0) {
        ts_error(err, file, 0, "no tiles declared");
        goto fail;
      }
      r = ts_rules_new(topo, &names);
      memcpy(r->weight, weights.v, weights.n * sizeof *weights.v);
      allow_line =
          ts_calloc((size_t)r->ntiles * (size_t)r->ndirs, sizeof *allow_line);
    }
  }
  for (int a = 0; a < r->ntiles; a++)
    for (int d = 0; d < r->ndirs; d++)
      for (int b = 0; b < r->ntiles; b++) {
        int o = tilesat_dir_opposite(topo, d);
        if (ts_bit(ts_allowed(r, a, d), b) && !ts_bit(ts_allowed(r, b, o), a)) {
          ts_error(err, file, allow_line[a * r->ndirs + d],
                   "rules must be symmetric: '%s' may stand %s of '%s' but "
                   "'%s' is not allowed %s of '%s'",
                   r->names.v.v[b], tilesat_dir_name(topo, d), r->names.v.v[a],
                   r->names.v.v[a], tilesat_dir_name(topo, o), r->names.v.v[b]);
          goto fail;
        }
      }
  free(allow_line);
  free(weights.v);
  return r;
fail:
  if (tok)
    ts_tokens_free(tok, nt);
  free(allow_line);
  free(weights.v);
  ts_names_free(&names);
  tilesat_rules_free(r);
  return NULL;
}

tilesat_rules *tilesat_rules_read_file(const char *path, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  tilesat_rules *r = tilesat_rules_parse(text, len, path, err);
  free(text);
  return r;
}
