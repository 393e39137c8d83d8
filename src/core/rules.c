/* rules.c: the rule-set model and its text format (see rules/README.md).
 *
 *   tilesat-rules 1
 *   topology square
 *   tile L 54              # tile NAME WEIGHT
 *   allow L S L C          # allow A DIR B...: each B may stand DIR of A
 *
 * Lines starting with '#' are comments.  Tiles may be declared in any order
 * relative to allow lines (the file is read in passes: declarations, allow
 * lines, then the allow lines again to check that rules are symmetric and
 * name the missing half of a pair). */
#include "core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "tilesat-rules"
#define FORMAT_VERSION 1

uint64_t ts_rules_table_bytes(uint64_t ntiles, int ndirs) {
  return ntiles * (uint64_t)ndirs * ((ntiles + 63) / 64) * 8;
}

bool ts_rules_too_many(uint64_t ntiles, tilesat_topology topo, char *msg,
                       size_t msglen) {
  int ndirs = tilesat_topology_ndirs(topo);
  uint64_t bytes = ts_rules_table_bytes(ntiles, ndirs);
  if (bytes <= TS_MAX_PAIR_BYTES)
    return false;
  uint64_t most = (uint64_t)sqrt((double)TS_MAX_PAIR_BYTES * 8 / ndirs) + 64;
  while (ts_rules_table_bytes(most, ndirs) > TS_MAX_PAIR_BYTES)
    most--;
  snprintf(msg, msglen,
           "too many tiles: %llu tiles need %.2f GiB for the table of allowed "
           "pairs (a bit for each pair of tiles in each of %d directions), "
           "more than its limit of %.0f GiB (at most %llu tiles on a %s map)",
           (unsigned long long)ntiles, (double)bytes / (1 << 30), ndirs,
           (double)TS_MAX_PAIR_BYTES / (1 << 30), (unsigned long long)most,
           tilesat_topology_name(topo));
  return true;
}

tilesat_rules *ts_rules_new(tilesat_topology topo, ts_names *names) {
  char msg[256];
  if (ts_rules_too_many(names->v.n, topo, msg, sizeof msg))
    ts_misuse(__func__, msg);
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

tilesat_rules *ts_rules_copy(const tilesat_rules *r) {
  ts_names names = {0};
  for (int t = 0; t < r->ntiles; t++)
    ts_names_intern(&names, r->names.v.v[t], strlen(r->names.v.v[t]));
  tilesat_rules *c = ts_rules_new(r->topo, &names);
  memcpy(c->weight, r->weight, (size_t)r->ntiles * sizeof *c->weight);
  c->weights_from = r->weights_from;
  memcpy(c->allow, r->allow,
         (size_t)r->ntiles * (size_t)r->ndirs * (size_t)r->words *
             sizeof *c->allow);
  return c;
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

size_t tilesat_rules_tile_hint(const tilesat_rules *r, const char *name,
                               char *buf, size_t size) {
  return ts_names_hint(&r->names, name, "tiles", buf, size);
}

bool tilesat_rules_allows(const tilesat_rules *r, int a, int dir, int b) {
  check_tile(__func__, r, a);
  check_tile(__func__, r, b);
  if (dir < 0 || dir >= r->ndirs)
    ts_misuse(__func__, "direction out of range");
  return ts_bit(ts_allowed(r, a, dir), b);
}

/* The allow line of (a, d): its set bits only, so that writing costs the
 * table's words and the pairs, not a test of every pair. */
static void write_allow(const tilesat_rules *r, int a, int d, FILE *out) {
  fputs("allow ", out);
  ts_write_token(out, r->names.v.v[a]);
  fprintf(out, " %s", tilesat_dir_name(r->topo, d));
  const uint64_t *set = ts_allowed(r, a, d);
  for (int w = 0; w < r->words; w++)
    for (uint64_t bits = set[w]; bits; bits &= bits - 1) {
      fputc(' ', out);
      ts_write_token(out, r->names.v.v[w * 64 + __builtin_ctzll(bits)]);
    }
  fputc('\n', out);
}

int tilesat_rules_write(const tilesat_rules *r, FILE *out) {
  fprintf(out, "%s %d\n", HEADER, FORMAT_VERSION);
  fprintf(out, "topology %s\n", tilesat_topology_name(r->topo));
  fprintf(out, "\n# tile NAME WEIGHT (weight: %s)\n",
          r->weights_from ? r->weights_from : "occurrences in the samples");
  for (int t = 0; t < r->ntiles; t++) {
    fputs("tile ", out);
    ts_write_token(out, r->names.v.v[t]);
    fprintf(out, " %llu\n", (unsigned long long)r->weight[t]);
  }
  fprintf(out,
          "\n# allow A DIR B...: each B may stand in direction DIR of A\n");
  for (int a = 0; a < r->ntiles; a++)
    for (int d = 0; d < r->ndirs; d++)
      write_allow(r, a, d, out);
  return ferror(out) ? -1 : 0;
}

/* ---------------------------------------------------------------- reader */

/* What pass 1 gathers: the topology and the tiles. */
typedef struct decl {
  tilesat_topology topo;
  ts_names names;
  TS_VEC(uint64_t) weights;
  /* tiles past the most that fit, counted to say how many; the first's line */
  uint64_t over;
  long over_line;
} decl;

static int topology_line(ts_reader *rd, decl *d) {
  if (rd->nt != 2 || tilesat_topology_parse(rd->tok[1], &d->topo))
    return ts_reader_error(rd, "expected 'topology square' or 'topology hex'");
  if (d->names.v.n)
    return ts_reader_error(rd, "the topology line must come before the tiles");
  return 0;
}

static int tile_line(ts_reader *rd, decl *d) {
  char **tok = rd->tok;
  uint64_t w = 1;
  if (rd->nt < 2 || rd->nt > 3 ||
      (rd->nt == 3 && !ts_parse_whole(tok[2], UINT64_MAX, &w)))
    return ts_reader_error(rd, "expected 'tile NAME WEIGHT' (WEIGHT a whole "
                               "number that fits 64 bits)");
  if (!*tok[1])
    return ts_reader_error(rd, "empty tile name");
  if (ts_names_find(&d->names, tok[1]) >= 0)
    return ts_reader_error(rd, "tile '%s' declared twice", tok[1]);
  char msg[256];
  if (d->over ||
      ts_rules_too_many(d->names.v.n + 1, d->topo, msg, sizeof msg)) {
    if (!d->over++)
      d->over_line = rd->it.lineno;
    return 0;
  }
  ts_names_intern(&d->names, tok[1], strlen(tok[1]));
  TS_PUSH(d->weights, w);
  return 0;
}

/* Pass 1: the header, then topology and tile lines; allow lines wait for
 * pass 2, when every tile is known. */
static int read_declarations(ts_reader *rd, decl *d) {
  int more = ts_reader_next(rd);
  if (more == 0)
    ts_error(rd->err, rd->file, 0, "empty rules file");
  if (more <= 0 || ts_reader_header(rd, HEADER, FORMAT_VERSION))
    return -1;
  while ((more = ts_reader_next(rd)) > 0) {
    const char *kw = rd->tok[0];
    int rc = 0;
    if (!strcmp(kw, HEADER))
      rc = ts_reader_error(rd, "repeated '%s' line", HEADER);
    else if (!strcmp(kw, "topology"))
      rc = topology_line(rd, d);
    else if (!strcmp(kw, "tile"))
      rc = tile_line(rd, d);
    else if (strcmp(kw, "allow"))
      rc = ts_reader_error(
          rd, "unknown keyword '%s' (expected topology, tile or allow)", kw);
    if (rc)
      return -1;
  }
  if (more < 0)
    return -1;
  char msg[256];
  if (d->over &&
      ts_rules_too_many(d->names.v.n + d->over, d->topo, msg, sizeof msg)) {
    ts_error(rd->err, rd->file, d->over_line, "%s", msg);
    return -1;
  }
  if (d->names.v.n == 0) {
    ts_error(rd->err, rd->file, 0, "no tiles declared");
    return -1;
  }
  return 0;
}

static int unknown_tile(ts_reader *rd, const tilesat_rules *r,
                        const char *name) {
  char hint[TS_HINT];
  ts_names_hint(&r->names, name, "tiles", hint, sizeof hint);
  return ts_reader_error(rd, "unknown tile '%s'%s", name, hint);
}

/* The tile and direction an allow line starts with; -1 with the error. */
static int allow_head(ts_reader *rd, const tilesat_rules *r, int *a, int *d) {
  if (rd->nt < 3)
    return ts_reader_error(rd, "expected 'allow TILE DIR TILE...'");
  if ((*a = ts_names_find(&r->names, rd->tok[1])) < 0)
    return unknown_tile(rd, r, rd->tok[1]);
  if ((*d = tilesat_dir_find(r->topo, rd->tok[2])) < 0)
    return ts_reader_error(
        rd, "unknown direction '%s' for %s topology (one of %s)", rd->tok[2],
        tilesat_topology_name(r->topo),
        r->topo == TILESAT_HEX ? "E W NE NW SE SW" : "N E S W");
  return 0;
}

/* Pass 2 reads the allow lines into the table; pass 3 (`check`) reads
 * them again and names the first pair whose other half is missing.  Both
 * cost what the lines do, never a walk over every pair of tiles. */
static int read_allows(ts_reader *rd, tilesat_rules *r, bool check) {
  tilesat_topology topo = r->topo;
  ts_reader_rewind(rd);
  int more, a = 0, d = 0;
  while ((more = ts_reader_next(rd)) > 0) {
    if (strcmp(rd->tok[0], "allow"))
      continue;
    if (allow_head(rd, r, &a, &d))
      return -1;
    int o = tilesat_dir_opposite(topo, d);
    for (int i = 3; i < rd->nt; i++) {
      int b = ts_names_find(&r->names, rd->tok[i]);
      if (b < 0)
        return unknown_tile(rd, r, rd->tok[i]);
      if (!check)
        ts_rules_allow(r, a, d, b);
      else if (!ts_bit(ts_allowed(r, b, o), a))
        return ts_reader_error(
            rd,
            "rules must be symmetric: '%s' may stand %s of '%s' but '%s' is "
            "not allowed %s of '%s'",
            rd->tok[i], tilesat_dir_name(topo, d), rd->tok[1], rd->tok[1],
            tilesat_dir_name(topo, o), rd->tok[i]);
    }
  }
  return more;
}

tilesat_rules *tilesat_rules_parse(const char *text, size_t len,
                                   const char *file, tilesat_error *err) {
  ts_reader rd;
  if (!ts_reader_open(&rd, text, len, file, TS_KIND_RULES, false, err))
    return NULL;
  decl d = {.topo = TILESAT_SQUARE};
  tilesat_rules *r = NULL;
  if (read_declarations(&rd, &d))
    goto fail;
  r = ts_rules_new(d.topo, &d.names);
  memcpy(r->weight, d.weights.v, d.weights.n * sizeof *d.weights.v);
  if (read_allows(&rd, r, false) || read_allows(&rd, r, true))
    goto fail;
  ts_reader_close(&rd);
  free(d.weights.v);
  return r;
fail:
  ts_reader_close(&rd);
  free(d.weights.v);
  ts_names_free(&d.names);
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
