/* energy.c: soft constraints over a map's fillings, their file format
 * (rules/README.md, "Energy files") and a from-scratch evaluator.
 *
 *   tilesat-energy 1
 *   hard 1000                    # per disallowed adjacent pair
 *   frequency 1                  # (n_k - target_k)^2 per tile
 *   target S 30                  # explicit target count
 *   counts exact                 # counts fixed at the targets: swap moves
 *   coherence 0.5 L S            # -J per adjacent equal pair of L or S
 *   bias S -2 border             # S costs -2 on border cells
 *   palindrome 1                 # minus the line score of rows and columns
 *   onehot 5000                  # one-hot penalty of the QUBO
 *
 * The evaluator reads the rules and the map directly, so the sampler's
 * incremental bookkeeping and the QUBO writer are both checked against it. */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "tilesat-energy"
#define FORMAT_VERSION 1
#define MAX_BIAS_LINES 64

tilesat_energy *tilesat_energy_new(const tilesat_map *m) {
  if (!m)
    ts_misuse(__func__, "NULL map");
  tilesat_energy *e = ts_calloc(1, sizeof *e);
  e->map = m;
  e->ntiles = m->rules->ntiles;
  e->ndirs = m->rules->ndirs;
  e->hard = -1;
  e->onehot = -1;
  e->coherence = ts_calloc((size_t)e->ntiles, sizeof *e->coherence);
  e->explicit_target = ts_malloc((size_t)e->ntiles * sizeof(int64_t));
  for (int t = 0; t < e->ntiles; t++)
    e->explicit_target[t] = -1;
  return e;
}

void tilesat_energy_free(tilesat_energy *e) {
  if (!e)
    return;
  free(e->coherence);
  free(e->explicit_target);
  free(e->biases.v);
  free(e->target);
  free(e->pinned);
  free(e->region);
  free(e->region_bias);
  free(e->pin_of);
  free(e->pin_tile);
  free(e);
}

static void check_prepared(const char *func, const tilesat_energy *e,
                           bool want) {
  if (!e)
    ts_misuse(func, "NULL energy");
  if (e->prepared != want)
    ts_misuse(func, want ? "energy not prepared" : "energy already prepared");
}

/* ---------------------------------------------------------------- parser */

/* Weights are bounded: the sampler keeps its running energy in floats, and
 * larger weights (1e9 hard) lose the small terms to rounding. */
#define MAX_WEIGHT 1e6

static bool parse_real(const char *s, double *out) {
  if (!*s)
    return false;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || !isfinite(v) || fabs(v) > MAX_WEIGHT)
    return false;
  *out = v;
  return true;
}

static bool parse_count(const char *s, int64_t *out) {
  if (*s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  long long v = strtoll(s, &end, 10);
  if (*end || errno == ERANGE)
    return false;
  *out = v;
  return true;
}

static bool parse_cell(const char *s, int *row, int *col) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9')
    return false;
  long r = strtol(s, &end, 10);
  if (*end != ',' || end[1] < '0' || end[1] > '9' || errno || r > 1 << 30)
    return false;
  long c = strtol(end + 1, &end, 10);
  if (*end || errno || c > 1 << 30)
    return false;
  *row = (int)r;
  *col = (int)c;
  return true;
}

static int find_tile(tilesat_energy *e, const char *name, const char *file,
                     long line, tilesat_error *err) {
  int t = tilesat_rules_find_tile(e->map->rules, name);
  if (t < 0)
    ts_error(err, file, line, "unknown tile '%s'", name);
  return t;
}

/* One line of tokens. */
static int parse_line(tilesat_energy *e, char **tok, int nt, const char *file,
                      long line, tilesat_error *err) {
  const char *kw = tok[0];
  double w;
  if (!strcmp(kw, "hard") || !strcmp(kw, "frequency") ||
      !strcmp(kw, "palindrome") || !strcmp(kw, "onehot")) {
    if (nt != 2 || !parse_real(tok[1], &w)) {
      ts_error(err, file, line,
               "expected '%s WEIGHT' with a number of size at most 1e6", kw);
      return -1;
    }
    bool positive = !strcmp(kw, "hard") || !strcmp(kw, "onehot");
    if (positive ? w <= 0 : w < 0) {
      ts_error(err, file, line, "the %s weight must be %s, not %s", kw,
               positive ? "positive" : "zero or positive", tok[1]);
      return -1;
    }
    if (!strcmp(kw, "hard"))
      e->hard = w;
    else if (!strcmp(kw, "frequency"))
      e->frequency = w;
    else if (!strcmp(kw, "palindrome"))
      e->palindrome = w;
    else
      e->onehot = w;
    return 0;
  }
  if (!strcmp(kw, "target")) {
    int64_t n;
    if (nt != 3 || !parse_count(tok[2], &n)) {
      ts_error(err, file, line,
               "expected 'target TILE COUNT' (a whole "
               "number of cells)");
      return -1;
    }
    int t = find_tile(e, tok[1], file, line, err);
    if (t < 0)
      return -1;
    e->explicit_target[t] = n;
    return 0;
  }
  if (!strcmp(kw, "counts")) {
    if (nt != 2 || strcmp(tok[1], "exact")) {
      ts_error(err, file, line, "expected 'counts exact'");
      return -1;
    }
    e->exact = true;
    return 0;
  }
  if (!strcmp(kw, "coherence")) {
    if (nt < 2 || !parse_real(tok[1], &w)) {
      ts_error(
          err, file, line,
          "expected 'coherence J [TILE...]' with a number of size at most 1e6");
      return -1;
    }
    if (nt == 2) {
      for (int t = 0; t < e->ntiles; t++)
        e->coherence[t] = w;
      return 0;
    }
    for (int i = 2; i < nt; i++) {
      int t = find_tile(e, tok[i], file, line, err);
      if (t < 0)
        return -1;
      e->coherence[t] = w;
    }
    return 0;
  }
  if (!strcmp(kw, "bias")) {
    ts_bias b = {.kind = TS_REGION_ALL};
    if (nt < 3 || nt > 5 || !parse_real(tok[2], &b.weight)) {
      ts_error(err, file, line,
               "expected 'bias TILE WEIGHT [all|border|interior|rect "
               "R0,C0:R1,C1]'");
      return -1;
    }
    if ((b.tile = find_tile(e, tok[1], file, line, err)) < 0)
      return -1;
    if (nt >= 4) {
      if (!strcmp(tok[3], "all") && nt == 4)
        b.kind = TS_REGION_ALL;
      else if (!strcmp(tok[3], "border") && nt == 4)
        b.kind = TS_REGION_BORDER;
      else if (!strcmp(tok[3], "interior") && nt == 4)
        b.kind = TS_REGION_INTERIOR;
      else if (!strcmp(tok[3], "rect") && nt == 5) {
        b.kind = TS_REGION_RECT;
        const char *c = strchr(tok[4], ':');
        char first[64];
        size_t n = c ? (size_t)(c - tok[4]) : 0;
        if (!c || n >= sizeof first) {
          ts_error(err, file, line,
                   "rect wants R0,C0:R1,C1 (corners, inclusive), not '%s'",
                   tok[4]);
          return -1;
        }
        memcpy(first, tok[4], n);
        first[n] = 0;
        if (!parse_cell(first, &b.r0, &b.c0) ||
            !parse_cell(c + 1, &b.r1, &b.c1) || b.r0 > b.r1 || b.c0 > b.c1) {
          ts_error(err, file, line,
                   "rect wants R0,C0:R1,C1 (corners, inclusive), not '%s'",
                   tok[4]);
          return -1;
        }
      } else {
        ts_error(err, file, line,
                 "unknown region '%s' (all, border, interior or rect "
                 "R0,C0:R1,C1)",
                 tok[3]);
        return -1;
      }
    }
    if (e->biases.n == MAX_BIAS_LINES) {
      ts_error(err, file, line, "at most %d bias lines", MAX_BIAS_LINES);
      return -1;
    }
    TS_PUSH(e->biases, b);
    return 0;
  }
  ts_error(err, file, line,
           "unknown term '%s' (hard, frequency, target, counts, coherence, "
           "bias, palindrome, onehot)",
           kw);
  return -1;
}

static bool comment_or_blank(const char *line, size_t n) {
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i == n || line[i] == '#';
}

/* `cli`: the text is one command-line option's value, reported as
 * "--option: message" and without a header. */
static int parse_text(tilesat_energy *e, const char *text, size_t len,
                      const char *file, bool cli, tilesat_error *err) {
  check_prepared("tilesat_energy_parse", e, false);
  long bad_line;
  char msg[256];
  if (!ts_utf8_check(text, len, &bad_line, msg, sizeof msg)) {
    ts_error(err, file, cli ? 0 : bad_line, "%s", msg);
    return -1;
  }
  ts_lines it = {text, text + len, 0};
  const char *line;
  size_t n;
  bool header = cli;
  while (ts_next_line(&it, &line, &n)) {
    if (comment_or_blank(line, n))
      continue;
    long lineno = cli ? 0 : it.lineno;
    char **tok;
    const char *tmsg;
    int nt = ts_tokenize(line, n, &tok, &tmsg);
    if (nt < 0) {
      ts_error(err, file, lineno, "%s", tmsg);
      return -1;
    }
    int rc = 0;
    if (!header) {
      int64_t v;
      if (strcmp(tok[0], HEADER) || nt != 2 || !parse_count(tok[1], &v)) {
        ts_error(err, file, lineno,
                 "not an energy file: the first line must be '%s %d'", HEADER,
                 FORMAT_VERSION);
        rc = -1;
      } else if (v != FORMAT_VERSION) {
        ts_error(err, file, lineno,
                 "energy format version %lld is not supported (this "
                 "tilesat reads version %d)",
                 (long long)v, FORMAT_VERSION);
        rc = -1;
      }
      header = true;
    } else {
      rc = parse_line(e, tok, nt, file, lineno, err);
    }
    ts_tokens_free(tok, nt);
    if (rc)
      return -1;
  }
  if (!header) {
    ts_error(err, file, 0, "empty energy file (the first line must be '%s %d')",
             HEADER, FORMAT_VERSION);
    return -1;
  }
  return 0;
}

int tilesat_energy_parse(tilesat_energy *e, const char *text, size_t len,
                         const char *filename, tilesat_error *err) {
  return parse_text(e, text, len, filename, false, err);
}

int tilesat_energy_read_file(tilesat_energy *e, const char *path,
                             tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return -1;
  int rc = parse_text(e, text, len, path, false, err);
  free(text);
  return rc;
}

int tilesat_energy_option(tilesat_energy *e, const char *option,
                          const char *line, tilesat_error *err) {
  if (strchr(line, '\n')) {
    ts_error(err, option, 0, "one line expected");
    return -1;
  }
  return parse_text(e, line, strlen(line), option, true, err);
}

/* --------------------------------------------------------------- prepare */

static bool in_region(const tilesat_map *m, const ts_bias *b, int row,
                      int col) {
  bool border = !m->periodic && (row == 0 || col == 0 || row == m->height - 1 ||
                                 col == m->width - 1);
  switch (b->kind) {
  case TS_REGION_ALL:
    return true;
  case TS_REGION_BORDER:
    return border;
  case TS_REGION_INTERIOR:
    return !border;
  case TS_REGION_RECT:
    return row >= b->r0 && row <= b->r1 && col >= b->c0 && col <= b->c1;
  }
  return false;
}

/* Largest remainders: share `total` over the tiles in `want` in proportion
 * to their weights (equal shares when the weights are all 0). */
static void share_out(const tilesat_rules *r, const bool *want, int64_t total,
                      int64_t *out) {
  int T = r->ntiles;
  double wsum = 0;
  int nwant = 0;
  for (int t = 0; t < T; t++)
    if (want[t]) {
      wsum += (double)r->weight[t];
      nwant++;
    }
  if (!nwant)
    return;
  double *rem = ts_malloc((size_t)T * sizeof *rem);
  int64_t given = 0;
  for (int t = 0; t < T; t++) {
    if (!want[t])
      continue;
    double share = wsum > 0 ? (double)total * (double)r->weight[t] / wsum
                            : (double)total / nwant;
    out[t] = (int64_t)floor(share);
    rem[t] = share - (double)out[t];
    given += out[t];
  }
  while (given < total) { /* the largest remainder, lowest index first */
    int best = -1;
    for (int t = 0; t < T; t++)
      if (want[t] && (best < 0 || rem[t] > rem[best]))
        best = t;
    out[best]++;
    rem[best] = -1;
    given++;
  }
  free(rem);
}

static long max_line_score(int n) {
  long s = 0;
  for (int k = 2; k <= n; k++)
    s += (long)k * (n - k + 1);
  return s;
}

int tilesat_energy_prepare(tilesat_energy *e, tilesat_error *err) {
  check_prepared(__func__, e, false);
  const tilesat_map *m = e->map;
  const tilesat_rules *r = m->rules;
  int T = e->ntiles, N = m->ncells;
  if (e->palindrome != 0 && m->topo != TILESAT_SQUARE) {
    ts_error(err, "palindrome", 0,
             "the line score needs a square map (rows and columns)");
    return -1;
  }
  for (size_t i = 0; i < e->biases.n; i++) {
    ts_bias *b = &e->biases.v[i];
    if (b->kind == TS_REGION_RECT &&
        (b->r1 >= m->height || b->c1 >= m->width)) {
      ts_error(err, "bias", 0, "rect %d,%d:%d,%d is outside the %dx%d map",
               b->r0, b->c0, b->r1, b->c1, m->width, m->height);
      return -1;
    }
  }
  /* pins */
  e->pin_of = ts_calloc((size_t)N, sizeof *e->pin_of);
  e->pin_tile = ts_malloc((size_t)N * sizeof *e->pin_tile);
  e->pinned = ts_calloc((size_t)T, sizeof *e->pinned);
  for (int c = 0; c < N; c++)
    e->pin_tile[c] = -1;
  for (size_t i = 0; i < m->pins.n; i++) {
    ts_pin p = m->pins.v[i];
    if (e->pin_of[p.cell] && e->pin_tile[p.cell] != p.tile) {
      ts_error(err, "--pin", 0, "cell (%d,%d) is pinned to both %s and %s",
               p.cell / m->width, p.cell % m->width,
               r->names.v.v[e->pin_tile[p.cell]], r->names.v.v[p.tile]);
      return -1;
    }
    if (!e->pin_of[p.cell])
      e->pinned[p.tile]++;
    e->pin_of[p.cell] = 1;
    e->pin_tile[p.cell] = p.tile;
  }
  /* targets */
  e->target = ts_calloc((size_t)T, sizeof *e->target);
  bool *want = ts_calloc((size_t)T, sizeof *want);
  int64_t fixed = 0;
  for (int t = 0; t < T; t++) {
    if (e->explicit_target[t] >= 0) {
      e->target[t] = e->explicit_target[t];
      fixed += e->target[t];
    } else {
      want[t] = true;
    }
  }
  if (fixed > N) {
    free(want);
    ts_error(err, "target", 0,
             "the targets add up to %lld cells but the map has %d",
             (long long)fixed, N);
    return -1;
  }
  share_out(r, want, N - fixed, e->target);
  free(want);
  if (e->exact) {
    int64_t sum = 0;
    for (int t = 0; t < T; t++)
      sum += e->target[t];
    if (sum != N) {
      ts_error(err, "counts exact", 0,
               "the targets add up to %lld cells but the map has %d",
               (long long)sum, N);
      return -1;
    }
    for (int t = 0; t < T; t++)
      if (e->pinned[t] > e->target[t]) {
        ts_error(err, "counts exact", 0,
                 "%lld cells are pinned to %s but its target is %lld",
                 (long long)e->pinned[t], r->names.v.v[t],
                 (long long)e->target[t]);
        return -1;
      }
  }
  /* bias regions: cells with the same set of bias lines share a region */
  e->region = ts_calloc((size_t)N, 1);
  uint64_t masks[TS_MAX_REGIONS];
  e->nregions = 1;
  masks[0] = 0;
  int nb = (int)e->biases.n;
  for (int c = 0; c < N && nb; c++) {
    uint64_t mask = 0;
    for (int i = 0; i < nb; i++)
      if (in_region(m, &e->biases.v[i], c / m->width, c % m->width))
        mask |= (uint64_t)1 << i;
    int k = 0;
    while (k < e->nregions && masks[k] != mask)
      k++;
    if (k == e->nregions) {
      if (k == TS_MAX_REGIONS) {
        ts_error(err, "bias", 0,
                 "the bias lines cut the map into more than %d regions",
                 TS_MAX_REGIONS);
        return -1;
      }
      masks[e->nregions++] = mask;
    }
    e->region[c] = (uint8_t)k;
  }
  e->region_bias =
      ts_calloc((size_t)e->nregions * (size_t)T, sizeof *e->region_bias);
  for (int k = 0; k < e->nregions; k++)
    for (int i = 0; i < nb; i++)
      if (masks[k] >> i & 1)
        e->region_bias[k * T + e->biases.v[i].tile] += e->biases.v[i].weight;
  /* forward directions: every edge once, as (cell, forward direction) */
  if (m->topo == TILESAT_HEX) {
    e->nforward = 3;
    e->forward[0] = tilesat_dir_find(TILESAT_HEX, "E");
    e->forward[1] = tilesat_dir_find(TILESAT_HEX, "SE");
    e->forward[2] = tilesat_dir_find(TILESAT_HEX, "SW");
  } else {
    e->nforward = 2;
    e->forward[0] = tilesat_dir_find(TILESAT_SQUARE, "E");
    e->forward[1] = tilesat_dir_find(TILESAT_SQUARE, "S");
  }
  /* default hard weight: more than any single cell (or swap) can win */
  {
    double maxj = 0, maxb = 0;
    for (int t = 0; t < T; t++)
      maxj = fmax(maxj, fabs(e->coherence[t]));
    for (int k = 0; k < e->nregions; k++) {
      double lo = 0, hi = 0;
      for (int t = 0; t < T; t++) {
        lo = fmin(lo, e->region_bias[k * T + t]);
        hi = fmax(hi, e->region_bias[k * T + t]);
      }
      maxb = fmax(maxb, hi - lo);
    }
    double line = e->palindrome * (double)(max_line_score(m->width) +
                                           max_line_score(m->height));
    double soft =
        e->ndirs * maxj + maxb + e->frequency * (4.0 * (double)N + 2) + line;
    e->soft_scale = e->ndirs * maxj + maxb + 6 * e->frequency + line;
    e->hard_default = e->hard < 0;
    if (e->hard_default)
      e->hard = 1 + 2 * soft;
  }
  if (e->onehot < 0)
    e->onehot = (e->ndirs + 1) * e->hard;
  e->prepared = true;
  return 0;
}

/* -------------------------------------------------------------- queries */

const tilesat_map *tilesat_energy_map(const tilesat_energy *e) {
  if (!e)
    ts_misuse(__func__, "NULL energy");
  return e->map;
}

double tilesat_energy_hard_weight(const tilesat_energy *e) {
  check_prepared(__func__, e, true);
  return e->hard;
}

int64_t tilesat_energy_target(const tilesat_energy *e, int tile) {
  check_prepared(__func__, e, true);
  if (tile < 0 || tile >= e->ntiles)
    ts_misuse(__func__, "tile index out of range");
  return e->target[tile];
}

bool tilesat_energy_exact(const tilesat_energy *e) {
  check_prepared(__func__, e, true);
  return e->exact;
}

bool tilesat_energy_has_line_term(const tilesat_energy *e) {
  check_prepared(__func__, e, true);
  return e->palindrome != 0;
}

long ts_line_score(const tilesat_energy *e, const int *tiles, int line,
                   int *buf) {
  const tilesat_map *m = e->map;
  int n;
  if (line < m->height) {
    n = m->width;
    for (int c = 0; c < n; c++)
      buf[c] = tiles[line * m->width + c];
  } else {
    n = m->height;
    for (int r = 0; r < n; r++)
      buf[r] = tiles[r * m->width + (line - m->height)];
  }
  return tilesat_palindrome_score(buf, n);
}

static void check_tiles(const char *func, const tilesat_energy *e,
                        const int *tiles) {
  check_prepared(func, e, true);
  if (!tiles)
    ts_misuse(func, "NULL tiles");
  for (int c = 0; c < e->map->ncells; c++)
    if (tiles[c] < 0 || tiles[c] >= e->ntiles)
      ts_misuse(func, "a cell holds no tile");
}

long tilesat_energy_violations(const tilesat_energy *e, const int *tiles) {
  check_tiles(__func__, e, tiles);
  const tilesat_map *m = e->map;
  long v = 0;
  for (int c = 0; c < m->ncells; c++)
    for (int f = 0; f < e->nforward; f++) {
      int d = e->forward[f], n = ts_map_neighbor(m, c, d);
      if (n >= 0 && !ts_bit(ts_allowed(m->rules, tiles[c], d), tiles[n]))
        v++;
    }
  return v;
}

double tilesat_energy_eval(const tilesat_energy *e, const int *tiles) {
  check_tiles(__func__, e, tiles);
  const tilesat_map *m = e->map;
  int T = e->ntiles;
  double E = 0;
  for (int c = 0; c < m->ncells; c++) {
    E += e->region_bias[e->region[c] * T + tiles[c]];
    for (int f = 0; f < e->nforward; f++) {
      int d = e->forward[f], n = ts_map_neighbor(m, c, d);
      if (n >= 0)
        E += ts_pair_cost(e, tiles[c], d, tiles[n]);
    }
  }
  if (e->frequency != 0) {
    int64_t *count = ts_calloc((size_t)T, sizeof *count);
    for (int c = 0; c < m->ncells; c++)
      count[tiles[c]]++;
    for (int t = 0; t < T; t++) {
      double x = (double)(count[t] - e->target[t]);
      E += e->frequency * x * x;
    }
    free(count);
  }
  if (e->palindrome != 0) {
    int *buf = ts_malloc((size_t)(m->width > m->height ? m->width : m->height) *
                         sizeof *buf);
    long s = 0;
    for (int line = 0; line < m->height + m->width; line++)
      s += ts_line_score(e, tiles, line, buf);
    free(buf);
    E -= e->palindrome * (double)s;
  }
  return E;
}
