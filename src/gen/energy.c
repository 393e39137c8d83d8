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
 *   connectivity 100             # per missing join of a connected or path
 *                                # constraint (default: the hard weight)
 *
 * The evaluator reads the rules and the map directly, so the sampler's
 * incremental bookkeeping and the QUBO writer are both checked against it. */
#include "gen/gen.h"

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
  e->connectivity = -1;
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
  for (size_t i = 0; i < e->files.n; i++)
    free(e->files.v[i]);
  free(e->files.v);
  free(e->target);
  free(e->pinned);
  free(e->region);
  free(e->region_bias);
  free(e->pin_of);
  free(e->pin_tile);
  free(e->region_ban);
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
  return ts_parse_decimal(s, MAX_WEIGHT, out);
}

/* "R,C": a cell's row and column. */
static bool parse_cell(const char *s, int *row, int *col) {
  const char *comma = strchr(s, ',');
  char first[64];
  size_t n = comma ? (size_t)(comma - s) : 0;
  uint64_t r, c;
  if (!comma || n >= sizeof first)
    return false;
  memcpy(first, s, n);
  first[n] = 0;
  if (!ts_parse_whole(first, 1 << 30, &r) ||
      !ts_parse_whole(comma + 1, 1 << 30, &c))
    return false;
  *row = (int)r;
  *col = (int)c;
  return true;
}

/* What a '#' after a term would be taken for: say what comments are. */
static const char *comment_hint(const char *word) {
  return word[0] == '#' ? " (a comment is a line of its own, starting with '#')"
                        : "";
}

static int find_tile(tilesat_energy *e, ts_reader *rd, const char *name) {
  int t = tilesat_rules_find_tile(e->map->rules, name);
  char hint[TS_HINT] = "";
  if (t < 0 && !*comment_hint(name))
    ts_names_hint(&e->map->rules->names, name, "tiles", hint, sizeof hint);
  if (t < 0)
    ts_reader_error(rd, "unknown tile '%s'%s%s", name, comment_hint(name),
                    hint);
  return t;
}

/* A line longer than its term: the first word too many, not the number
 * before it, is what is wrong. */
static int unexpected_word(ts_reader *rd, int at) {
  return ts_reader_error(rd, "unexpected word '%s' after '%s'%s", rd->tok[at],
                         rd->tok[at - 1], comment_hint(rd->tok[at]));
}

/* Where the current line is, for errors found later. */
static ts_origin origin(const tilesat_energy *e, const ts_reader *rd) {
  return (ts_origin){e->files.v[e->files.n - 1],
                     rd->no_lines ? 0 : rd->it.lineno};
}

static double *weight_of(tilesat_energy *e, const char *kw) {
  if (!strcmp(kw, "hard"))
    return &e->hard;
  if (!strcmp(kw, "frequency"))
    return &e->frequency;
  if (!strcmp(kw, "connectivity"))
    return &e->connectivity;
  return !strcmp(kw, "palindrome") ? &e->palindrome : &e->onehot;
}

/* hard, frequency, palindrome, onehot: one weight each. */
static int weight_term(tilesat_energy *e, ts_reader *rd) {
  const char *kw = rd->tok[0];
  double w;
  if (rd->nt > 2)
    return unexpected_word(rd, 2);
  if (rd->nt != 2 || !parse_real(rd->tok[1], &w))
    return ts_reader_error(
        rd, "expected '%s WEIGHT' with a number of size at most 1e6", kw);
  bool positive = !strcmp(kw, "hard") || !strcmp(kw, "onehot") ||
                  !strcmp(kw, "connectivity");
  if (positive ? w <= 0 : w < 0)
    return ts_reader_error(rd, "the %s weight must be %s, not %s", kw,
                           positive ? "positive" : "zero or positive",
                           rd->tok[1]);
  *weight_of(e, kw) = w;
  if (!strcmp(kw, "palindrome"))
    e->palindrome_at = origin(e, rd);
  return 0;
}

static int target_term(tilesat_energy *e, ts_reader *rd) {
  uint64_t n;
  if (rd->nt > 3)
    return unexpected_word(rd, 3);
  if (rd->nt != 3 || !ts_parse_whole(rd->tok[2], INT64_MAX, &n))
    return ts_reader_error(
        rd, "expected 'target TILE COUNT' (a whole number of cells)");
  int t = find_tile(e, rd, rd->tok[1]);
  if (t < 0)
    return -1;
  e->explicit_target[t] = (int64_t)n;
  e->target_at = origin(e, rd);
  return 0;
}

static int counts_term(tilesat_energy *e, ts_reader *rd) {
  if (rd->nt > 2)
    return unexpected_word(rd, 2);
  if (rd->nt != 2 || strcmp(rd->tok[1], "exact"))
    return ts_reader_error(rd, "expected 'counts exact'");
  e->exact = true;
  e->counts_at = origin(e, rd);
  return 0;
}

static int coherence_term(tilesat_energy *e, ts_reader *rd) {
  double w;
  if (rd->nt < 2 || !parse_real(rd->tok[1], &w))
    return ts_reader_error(
        rd,
        "expected 'coherence J [TILE...]' with a number of size at most 1e6");
  for (int t = 0; rd->nt == 2 && t < e->ntiles; t++)
    e->coherence[t] = w;
  for (int i = 2; i < rd->nt; i++) {
    int t = find_tile(e, rd, rd->tok[i]);
    if (t < 0)
      return -1;
    e->coherence[t] = w;
  }
  return 0;
}

/* "R0,C0:R1,C1" into b's corners. */
static bool parse_rect(const char *s, ts_bias *b) {
  const char *c = strchr(s, ':');
  char first[64];
  size_t n = c ? (size_t)(c - s) : 0;
  if (!c || n >= sizeof first)
    return false;
  memcpy(first, s, n);
  first[n] = 0;
  return parse_cell(first, &b->r0, &b->c0) &&
         parse_cell(c + 1, &b->r1, &b->c1) && b->r0 <= b->r1 && b->c0 <= b->c1;
}

/* The region of a bias line: tokens 3 and on, if any. */
static int bias_region(ts_reader *rd, ts_bias *b) {
  static const struct {
    const char *name;
    ts_region_kind kind;
  } kinds[] = {{"all", TS_REGION_ALL},
               {"border", TS_REGION_BORDER},
               {"interior", TS_REGION_INTERIOR},
               {"rect", TS_REGION_RECT}};
  const char *kind = rd->nt >= 4 ? rd->tok[3] : "all";
  size_t k = 0;
  while (k < 4 && strcmp(kind, kinds[k].name))
    k++;
  if (k == 4)
    return ts_reader_error(
        rd, "unknown region '%s' (all, border, interior or rect R0,C0:R1,C1)%s",
        kind, comment_hint(kind));
  b->kind = kinds[k].kind;
  int words = b->kind == TS_REGION_RECT ? 5 : 4; /* the line's, at most */
  if (rd->nt > words)
    return unexpected_word(rd, words);
  if (b->kind == TS_REGION_RECT && rd->nt < 5)
    return ts_reader_error(rd, "rect wants R0,C0:R1,C1 (corners, inclusive)");
  if (b->kind == TS_REGION_RECT && !parse_rect(rd->tok[4], b))
    return ts_reader_error(
        rd, "rect wants R0,C0:R1,C1 (corners, inclusive), not '%s'",
        rd->tok[4]);
  return 0;
}

static int bias_term(tilesat_energy *e, ts_reader *rd) {
  ts_bias b = {.kind = TS_REGION_ALL, .at = origin(e, rd)};
  if (rd->nt < 3 || !parse_real(rd->tok[2], &b.weight))
    return ts_reader_error(rd, "expected 'bias TILE WEIGHT "
                               "[all|border|interior|rect R0,C0:R1,C1]'");
  if ((b.tile = find_tile(e, rd, rd->tok[1])) < 0 || bias_region(rd, &b))
    return -1;
  if (e->biases.n == MAX_BIAS_LINES)
    return ts_reader_error(rd, "at most %d bias lines", MAX_BIAS_LINES);
  TS_PUSH(e->biases, b);
  return 0;
}

static const struct term {
  const char *name;
  int (*read)(tilesat_energy *e, ts_reader *rd);
} terms[] = {
    {"hard", weight_term},         {"frequency", weight_term},
    {"target", target_term},       {"counts", counts_term},
    {"coherence", coherence_term}, {"bias", bias_term},
    {"palindrome", weight_term},   {"onehot", weight_term},
    {"connectivity", weight_term},
};

static int read_term(tilesat_energy *e, ts_reader *rd) {
  for (size_t i = 0; i < sizeof terms / sizeof *terms; i++)
    if (!strcmp(rd->tok[0], terms[i].name))
      return terms[i].read(e, rd);
  return ts_reader_error(rd,
                         "unknown term '%s' (hard, frequency, target, counts, "
                         "coherence, bias, palindrome, onehot, connectivity)",
                         rd->tok[0]);
}

/* `cli`: the text is one command-line option's value, reported as
 * "--option: message" and without a header. */
static int parse_text(tilesat_energy *e, const char *text, size_t len,
                      const char *file, bool cli, tilesat_error *err) {
  check_prepared("tilesat_energy_parse", e, false);
  ts_reader rd;
  if (!ts_reader_open(&rd, text, len, file, TS_KIND_ENERGY, cli, err))
    return -1;
  TS_PUSH(e->files, ts_strdup(file));
  bool header = cli;
  int more;
  while ((more = ts_reader_next(&rd)) > 0) {
    if (header ? read_term(e, &rd)
               : ts_reader_header(&rd, HEADER, FORMAT_VERSION))
      break;
    header = true;
  }
  ts_reader_close(&rd);
  if (more)
    return -1;
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

int tilesat_energy_parse_line(tilesat_energy *e, const char *line,
                              const char *origin, tilesat_error *err) {
  if (strpbrk(line, "\r\n")) { /* either would end the line */
    ts_error(err, origin, 0, "one line expected");
    return -1;
  }
  return parse_text(e, line, strlen(line), origin, true, err);
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

/* Options the map cannot hold: a palindrome on hex, a rect outside. */
static int check_fits(const tilesat_energy *e, tilesat_error *err) {
  const tilesat_map *m = e->map;
  if (e->palindrome != 0 && m->topo != TILESAT_SQUARE) {
    ts_error(err, e->palindrome_at.file, e->palindrome_at.line,
             "the palindrome line score needs a square map (rows and "
             "columns)");
    return -1;
  }
  for (size_t i = 0; i < e->biases.n; i++) {
    const ts_bias *b = &e->biases.v[i];
    if (b->kind == TS_REGION_RECT &&
        (b->r1 >= m->height || b->c1 >= m->width)) {
      ts_error(err, b->at.file, b->at.line,
               "rect %d,%d:%d,%d is outside the %dx%d map", b->r0, b->c0, b->r1,
               b->c1, m->width, m->height);
      return -1;
    }
  }
  return 0;
}

/* pin_of, pin_tile and the pinned count of each tile. */
static int prepare_pins(tilesat_energy *e, tilesat_error *err) {
  const tilesat_map *m = e->map;
  int N = m->ncells;
  e->pin_of = ts_calloc((size_t)N, sizeof *e->pin_of);
  e->pin_tile = ts_malloc((size_t)N * sizeof *e->pin_tile);
  e->pinned = ts_calloc((size_t)e->ntiles, sizeof *e->pinned);
  for (int c = 0; c < N; c++) {
    e->pin_tile[c] = -1;
    e->pin_of[c] =
        (int8_t)(ts_masked(m, c) ? 1 : 0); /* masked: held, with no tile */
  }
  for (size_t i = 0; i < m->pins.n; i++) {
    ts_pin p = m->pins.v[i];
    if (e->pin_of[p.cell] && e->pin_tile[p.cell] != p.tile) {
      ts_error_param(err, "pin", "cell (%d,%d) is pinned to both %s and %s",
                     p.cell / m->width, p.cell % m->width,
                     m->rules->names.v.v[e->pin_tile[p.cell]],
                     m->rules->names.v.v[p.tile]);
      return -1;
    }
    if (!e->pin_of[p.cell])
      e->pinned[p.tile]++;
    e->pin_of[p.cell] = 1;
    e->pin_tile[p.cell] = p.tile;
  }
  return 0;
}

/* Targets: the explicit ones, the rest of the cells shared out by weight;
 * with exact counts they must add up and leave room for the pins. */
static int prepare_targets(tilesat_energy *e, tilesat_error *err) {
  const tilesat_rules *r = e->map->rules;
  int T = e->ntiles, N = e->map->ncells - e->map->nmasked;
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
    ts_error(err, e->target_at.file, e->target_at.line,
             "the targets add up to %lld cells but the map has %d",
             (long long)fixed, N);
    return -1;
  }
  share_out(r, want, N - fixed, e->target);
  free(want);
  if (!e->exact)
    return 0;
  int64_t sum = 0;
  for (int t = 0; t < T; t++)
    sum += e->target[t];
  if (sum != N) {
    ts_error(err, e->counts_at.file, e->counts_at.line,
             "counts exact: the targets add up to %lld cells but the map has "
             "%d",
             (long long)sum, N);
    return -1;
  }
  for (int t = 0; t < T; t++)
    if (e->pinned[t] > e->target[t]) {
      ts_error(err, e->counts_at.file, e->counts_at.line,
               "counts exact: %lld cells are pinned to %s but its target is "
               "%lld",
               (long long)e->pinned[t], r->names.v.v[t],
               (long long)e->target[t]);
      return -1;
    }
  return 0;
}

/* The tiles a global constraint bans at a cell, into ban (T bytes): a
 * border's cells, a path's cells and a connected region's given cell hold
 * only tiles of the class.  Annealing never draws a banned tile. */
static void cell_bans(const tilesat_map *m, int c, uint8_t *ban) {
  int T = m->rules->ntiles;
  memset(ban, 0, (size_t)T);
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    bool on = g->kind == TILESAT_GLOBAL_BORDER      ? ts_global_covers(m, g, c)
              : g->kind == TILESAT_GLOBAL_CONNECTED ? g->at == c
                                                    : false;
    for (size_t k = 0; g->kind == TILESAT_GLOBAL_PATH && k < g->cells.n; k++)
      on |= g->cells.v[k] == c;
    for (int t = 0; on && t < T; t++)
      ban[t] |= !ts_bit(g->class, t);
  }
}

/* Bias regions: cells with the same set of bias lines and the same banned
 * tiles share a region. */
static int prepare_regions(tilesat_energy *e, tilesat_error *err) {
  const tilesat_map *m = e->map;
  int T = e->ntiles, N = m->ncells, nb = (int)e->biases.n;
  e->region = ts_calloc((size_t)N, 1);
  uint64_t masks[TS_MAX_REGIONS];
  uint8_t *bans = ts_calloc((size_t)TS_MAX_REGIONS * (size_t)T, 1);
  uint8_t *ban = ts_calloc((size_t)T, 1);
  e->nregions = 1;
  masks[0] = 0;
  for (int c = 0; c < N && (nb || m->globals.n); c++) {
    uint64_t mask = 0;
    for (int i = 0; i < nb; i++)
      if (in_region(m, &e->biases.v[i], c / m->width, c % m->width))
        mask |= (uint64_t)1 << i;
    cell_bans(m, c, ban);
    int k = 0;
    while (k < e->nregions &&
           (masks[k] != mask || memcmp(bans + (size_t)k * T, ban, (size_t)T)))
      k++;
    if (k == e->nregions) {
      if (k == TS_MAX_REGIONS) {
        free(bans);
        free(ban);
        ts_error(err, nb ? e->biases.v[nb - 1].at.file : NULL,
                 nb ? e->biases.v[nb - 1].at.line : 0,
                 "the bias lines%s cut the map into more than %d regions",
                 m->globals.n ? " and global constraints" : "", TS_MAX_REGIONS);
        return -1;
      }
      masks[e->nregions] = mask;
      memcpy(bans + (size_t)k * T, ban, (size_t)T);
      e->nregions++;
    }
    e->region[c] = (uint8_t)k;
  }
  free(ban);
  e->region_ban = ts_malloc((size_t)e->nregions * (size_t)T);
  memcpy(e->region_ban, bans, (size_t)e->nregions * (size_t)T);
  free(bans);
  e->region_bias =
      ts_calloc((size_t)e->nregions * (size_t)T, sizeof *e->region_bias);
  for (int k = 0; k < e->nregions; k++)
    for (int i = 0; i < nb; i++)
      if (masks[k] >> i & 1)
        e->region_bias[k * T + e->biases.v[i].tile] += e->biases.v[i].weight;
  return 0;
}

/* The soft scale, and the default hard weight: more than any single cell
 * (or swap) can win. */
static void default_weights(tilesat_energy *e) {
  const tilesat_map *m = e->map;
  int T = e->ntiles;
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
  double line = e->palindrome *
                (double)(max_line_score(m->width) + max_line_score(m->height));
  double soft = e->ndirs * maxj + maxb +
                e->frequency * (4.0 * (double)m->ncells + 2) + line;
  e->soft_scale = e->ndirs * maxj + maxb + 6 * e->frequency + line;
  e->hard_default = e->hard < 0;
  if (e->hard_default)
    e->hard = 1 + 2 * soft;
  if (e->onehot < 0)
    e->onehot = (e->ndirs + 1) * e->hard;
}

/* What annealing cannot keep: bans (from collapse's guard), the palindrome
 * line score across masked cells. */
static int check_map(const tilesat_energy *e, tilesat_error *err) {
  if (e->map->bans.n) {
    ts_error(err, "anneal", 0,
             "the map has %zu banned tiles, which annealing does not know "
             "yet",
             e->map->bans.n);
    return -1;
  }
  if (e->map->nmasked && e->palindrome != 0) {
    ts_error(err, e->palindrome_at.file, e->palindrome_at.line,
             "the palindrome line score needs whole rows and columns, and "
             "the map has masked cells");
    return -1;
  }
  return 0;
}

int tilesat_energy_prepare(tilesat_energy *e, tilesat_error *err) {
  check_prepared(__func__, e, false);
  if (check_map(e, err))
    return -1;
  if (check_fits(e, err) || prepare_pins(e, err) || prepare_targets(e, err) ||
      prepare_regions(e, err))
    return -1;
  e->nforward = ts_forward_dirs(e->map->topo, e->forward);
  default_weights(e);
  if (e->connectivity < 0)
    e->connectivity = e->hard;
  e->prepared = true;
  return 0;
}

/* -------------------------------------------------------------- queries */

void tilesat_energy_get(const tilesat_energy *e, tilesat_energy_info *info) {
  check_prepared(__func__, e, true);
  if (!info)
    ts_misuse(__func__, "NULL info");
  *info = (tilesat_energy_info){e->map, e->hard, e->frequency, e->exact,
                                e->palindrome != 0};
}

int64_t tilesat_energy_target(const tilesat_energy *e, int tile) {
  check_prepared(__func__, e, true);
  if (tile < 0 || tile >= e->ntiles)
    ts_misuse(__func__, "tile index out of range");
  return e->target[tile];
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
    if (ts_masked(e->map, c) ? tiles[c] != TILESAT_NO_TILE
                             : tiles[c] < 0 || tiles[c] >= e->ntiles)
      ts_misuse(func, "a cell holds no tile, or a masked cell holds one");
}

long ts_missing_joins(const tilesat_map *m, const ts_global *g,
                      const int *tiles) {
  if (!ts_global_lazy(g))
    return 0;
  int N = m->ncells;
  uint8_t *in = ts_malloc((size_t)N);
  int *comp = ts_malloc((size_t)N * sizeof *comp);
  int *queue = ts_malloc((size_t)N * sizeof *queue);
  for (int c = 0; c < N; c++)
    in[c] = tiles[c] >= 0 && ts_bit(g->class, tiles[c]);
  int n = ts_regions(m, NULL, in, comp, queue);
  long missing = 0;
  if (g->kind == TILESAT_GLOBAL_CONNECTED) {
    /* `at` a cell: not empty either (the cell may be masked) */
    missing = n > 1 ? n - 1 : (g->nonempty || g->at >= 0) && n == 0;
  } else { /* the regions the path's cells are in (queue: seen marks) */
    memset(queue, 0, (size_t)N * sizeof *queue);
    for (size_t i = 0; i < g->cells.n; i++) {
      int c = g->cells.v[i];
      missing += comp[c] < 0 || !queue[comp[c]]++;
    }
    missing--;
  }
  free(in);
  free(comp);
  free(queue);
  return missing;
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
    if (tiles[c] < 0) /* masked */
      continue;
    E += e->region_bias[e->region[c] * T + tiles[c]];
    for (int f = 0; f < e->nforward; f++) {
      int d = e->forward[f], n = ts_map_neighbor(m, c, d);
      if (n >= 0)
        E += ts_pair_cost(e, tiles[c], d, tiles[n]);
    }
  }
  if (e->frequency != 0) {
    int64_t *count = ts_calloc((size_t)T + 1, sizeof *count);
    for (int c = 0; c < m->ncells; c++)
      count[tiles[c] < 0 ? T : tiles[c]]++;
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
  for (size_t i = 0; i < m->globals.n; i++)
    E += e->connectivity * (double)ts_missing_joins(m, &m->globals.v[i], tiles);
  return E;
}
