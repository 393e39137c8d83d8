/* report.c: explanations, traces and repairs in words, and the first two
 * as replies (reply.h: the text and the JSON from one description), from
 * the data the library returns. */
#include "report.h"
#include "cli.h"

#include <cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Zeroed memory for n things of `size` bytes, or the end (out of
 * memory). */
static void *zalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  return p;
}

/* --------------------------------------------------------------- words */

const char *report_dir_words(tilesat_topology topo, int dir) {
  static const char *const square[] = {"north", "east", "south", "west"};
  static const char *const hex[] = {"east",       "west",       "north-east",
                                    "north-west", "south-east", "south-west"};
  return topo == TILESAT_HEX ? hex[dir] : square[dir];
}

static tilesat_topology map_topo(const tilesat_map *m) {
  return tilesat_rules_topology(map_info(m).rules);
}

/* A set of tiles: indices in increasing order. */
typedef struct tset {
  const int *v;
  size_t n;
} tset;

/* Names a list shows before "and N more" (report_trace_cut's). */
static size_t list_cut = SIZE_MAX;

static void write_names(const tilesat_rules *r, tset s, FILE *out) {
  for (size_t i = 0; i < s.n && i < list_cut; i++) {
    if (i)
      fputs(", ", out);
    fputs(listed_name(r, s.v[i]), out);
  }
  if (s.n > list_cut)
    fprintf(out, " and %zu more", s.n - list_cut);
}

/* "{A, B}". */
static void write_tileset(const tilesat_rules *r, tset s, FILE *out) {
  fputc('{', out);
  write_names(r, s, out);
  fputc('}', out);
}

/* "S" for one tile, "one of {C, S}" for several. */
static void write_one_of(const tilesat_rules *r, tset s, FILE *out) {
  if (s.n == 1) {
    write_names(r, s, out);
    return;
  }
  fputs("one of ", out);
  write_tileset(r, s, out);
}

/* "only {A, B}" or "nothing". */
static void write_only(const tilesat_rules *r, tset s, FILE *out) {
  if (s.n) {
    fputs("only ", out);
    write_tileset(r, s, out);
  } else {
    fputs("nothing", out);
  }
}

/* The tiles that the tiles of s allow in direction d, into buf (ntiles
 * ints). */
static tset allowed_by(const tilesat_rules *r, tset s, int d, int *buf) {
  tset out = {buf, 0};
  int T = tilesat_rules_ntiles(r);
  for (int u = 0; u < T; u++) {
    bool any = false;
    for (size_t i = 0; i < s.n && !any; i++)
      any = tilesat_rules_allows(r, s.v[i], d, u);
    if (any)
      buf[out.n++] = u;
  }
  return out;
}

static void write_pin(const tilesat_rules *r, const tilesat_step *s,
                      FILE *out) {
  fputs(s->choice ? " is chosen to be " : " is pinned to ", out);
  fputs(listed_name(r, s->tile), out);
  if (s->choice)
    fprintf(out, " (choice %d)", s->choice);
  if (s->ntiles) {
    fputs(", so it loses ", out);
    write_tileset(r, (tset){s->tiles, s->ntiles}, out);
  }
}

/* A support step's reason: the lost tiles allow nothing toward the
 * neighbour, or (without its one-tile constraint, in explain) nothing it
 * has left, or its tiles allow none of them. */
static void write_support(const tilesat_map *m, const tilesat_step *s,
                          FILE *out) {
  const tilesat_rules *r = map_info(m).rules;
  tilesat_topology topo = map_topo(m);
  tset lost = {s->tiles, s->ntiles}, nd = {s->from, s->nfrom};
  int back = tilesat_dir_opposite(topo, s->dir);
  bool one = lost.n == 1;
  size_t n = nd.n;
  int *buf = zalloc((size_t)tilesat_rules_ntiles(r), sizeof *buf);
  fputs(" loses ", out);
  write_tileset(r, lost, out);
  fputs(": ", out);
  tset need = allowed_by(r, lost, back, buf);
  if (!need.n) { /* the lost tiles allow nothing that way */
    write_names(r, lost, out);
    fprintf(out, " %s nothing to %s %s, where (%d,%d) is",
            one ? "allows" : "allow", one ? "its" : "their",
            report_dir_words(topo, back), s->nrow, s->ncol);
  } else if (n == 0) {
    fprintf(out, "to %s %s %s ", one ? "its" : "their",
            report_dir_words(topo, back),
            one ? "it allows only" : "they allow only");
    write_tileset(r, need, out);
    fprintf(out, ", and (%d,%d) has none of them left", s->nrow, s->ncol);
  } else {
    fprintf(out, "(%d,%d)", s->nrow, s->ncol);
    if (n == (size_t)tilesat_rules_ntiles(r)) {
      fputs(" may hold any tile, and ", out);
    } else {
      fputs(" holds only ", out);
      write_tileset(r, nd, out);
      fputs(", and ", out);
    }
    write_names(r, nd, out);
    fputs(n == 1 ? " allows " : " allow ", out);
    write_only(r, allowed_by(r, nd, s->dir, buf), out);
    fprintf(out, " to %s %s", n == 1 ? "its" : "their",
            report_dir_words(topo, s->dir));
  }
  free(buf);
}

static void write_must(const tilesat_map *m, const tilesat_step *s, FILE *out) {
  const tilesat_rules *r = map_info(m).rules;
  tset lost = {s->tiles, s->ntiles}, from = {s->from, s->nfrom};
  fputs(" must hold ", out);
  write_one_of(r, lost, out);
  fprintf(out, ": (%d,%d) holds ", s->nrow, s->ncol);
  write_one_of(r, from, out);
  fputs(", and ", out);
  write_names(r, from, out);
  fprintf(out, " %s ", from.n == 1 ? "allows" : "allow");
  write_only(r, lost, out);
  fprintf(out, " to %s %s", from.n == 1 ? "its" : "their",
          report_dir_words(map_topo(m), s->dir));
}

/* A step in words ("(1,2) loses {S}: (0,2) holds only {L}, and L allows
 * only {L, C} to its south"), without a newline. */
static void write_step(const tilesat_map *m, const tilesat_step *s, FILE *out) {
  const tilesat_rules *r = map_info(m).rules;
  tset tiles = {s->tiles, s->ntiles};
  fprintf(out, "(%d,%d)", s->row, s->col);
  switch (s->kind) {
  case TILESAT_STEP_PIN:
    write_pin(r, s, out);
    break;
  case TILESAT_STEP_SUPPORT:
    write_support(m, s, out);
    break;
  case TILESAT_STEP_EMPTY:
    fputs(" has no tile left, but it must hold one: contradiction", out);
    break;
  case TILESAT_STEP_MUST:
    write_must(m, s, out);
    break;
  case TILESAT_STEP_ONE:
    fputs(" loses ", out);
    write_tileset(r, tiles, out);
    fputs(": it holds only one tile, and that must be ", out);
    write_one_of(r, (tset){s->from, s->nfrom}, out);
    break;
  case TILESAT_STEP_MUST_GONE:
    fputs(" must hold ", out);
    write_one_of(r, tiles, out);
    fputs(", but that is ruled out: contradiction", out);
    break;
  case TILESAT_STEP_LOST:
    fprintf(out, " %s ", s->choice ? "was chosen to be" : "is pinned to");
    fputs(listed_name(r, s->tile), out);
    if (s->choice)
      fprintf(out, " (choice %d)", s->choice);
    fputs(", which is ruled out: contradiction", out);
    break;
  }
}

/* The steps that matter most, in keep: the pins and choices, the steps
 * at the cell the last one empties, and the steps those follow from
 * directly (the neighbours that emptied it); how many. */
static size_t steps_that_matter(const tilesat_steps *steps, bool *keep) {
  size_t k = tilesat_steps_count(steps), n = 0;
  const tilesat_step *last = tilesat_steps_get(steps, k - 1);
  for (size_t i = k; i-- > 0;) {
    const tilesat_step *s = tilesat_steps_get(steps, i);
    bool end = s->row == last->row && s->col == last->col;
    if (end || s->kind == TILESAT_STEP_PIN)
      keep[i] = true;
    for (size_t j = 0; end && j < s->nafter; j++)
      if (s->after[j] >= 1 && (size_t)s->after[j] <= i)
        keep[s->after[j] - 1] = true;
  }
  for (size_t i = 0; i < k; i++)
    n += keep[i];
  return n;
}

/* A support step made short: what the cell loses, and the neighbour
 * whose tiles allow none of it ("(3,4) loses {A, B}: none of them may
 * stand south of (2,4), which holds only {C}"); the full words when the
 * reason is another. */
static void write_step_short(const tilesat_map *m, const tilesat_step *s,
                             FILE *out) {
  const tilesat_rules *r = map_info(m).rules;
  int T = tilesat_rules_ntiles(r);
  if (s->kind != TILESAT_STEP_SUPPORT || !s->nfrom || s->nfrom == (size_t)T) {
    write_step(m, s, out);
    return;
  }
  int *buf = zalloc((size_t)T, sizeof *buf);
  tset lost = {s->tiles, s->ntiles};
  int back = tilesat_dir_opposite(map_topo(m), s->dir);
  bool some = allowed_by(r, lost, back, buf).n > 0;
  free(buf);
  if (!some) { /* the lost tiles allow nothing that way */
    write_step(m, s, out);
    return;
  }
  fprintf(out, "(%d,%d) loses ", s->row, s->col);
  write_tileset(r, lost, out);
  fprintf(out, ": %s stand %s of (%d,%d), which holds only ",
          lost.n == 1 ? "it may not" : "none of them may",
          report_dir_words(map_topo(m), s->dir), s->nrow, s->ncol);
  write_tileset(r, (tset){s->from, s->nfrom}, out);
}

/* Words written to a FILE kept as a string (the text of a fact). */
typedef struct words {
  char *text;
  size_t len;
  FILE *f;
} words;

static FILE *words_begin(words *w) {
  w->text = NULL;
  w->f = open_memstream(&w->text, &w->len);
  if (!w->f) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  return w->f;
}

/* The words, malloc'd. */
static char *words_end(words *w) {
  if (fclose(w->f) || !w->text) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  return w->text;
}

/* ---------------------------------------------------------------- steps */

/* How the text shows a step: not at all, after the tag of its
 * constraints (explain's; the JSON lists them), after its number
 * (trace's), or after its number in short words (a chain cut). */
typedef enum step_say { SAY_NONE, SAY_TAG, SAY_NUMBER, SAY_SHORT } step_say;

static void ints_reply(reply *r, const char *name, const int *v, size_t n) {
  reply *l = reply_list(r, name, NULL);
  for (size_t i = 0; i < n; i++)
    reply_number(l, NULL, v[i], NULL);
}

static void tiles_reply(reply *r, const char *name, const tilesat_rules *rules,
                        const int *v, size_t n) {
  reply *l = reply_list(r, name, NULL);
  for (size_t i = 0; i < n; i++)
    reply_string(l, NULL, tilesat_rules_tile_name(rules, v[i]), NULL);
}

/* "[1,2]", "[1]" or "": the constraints a step uses, as a tag. */
static void step_tag(const tilesat_step *s, char *tag, size_t len) {
  if (s->nconstraints == 2)
    snprintf(tag, len, "[%d,%d]", s->constraints[0], s->constraints[1]);
  else if (s->nconstraints == 1)
    snprintf(tag, len, "[%d]", s->constraints[0]);
  else
    tag[0] = 0;
}

/* The step's number and (explain) constraints, and how the text leads
 * its words in: "  [1,2]   " or "   3. ". */
static void step_head(reply *j, const tilesat_step *s, size_t number,
                      step_say say) {
  if (say == SAY_NUMBER || say == SAY_SHORT)
    reply_number(j, "step", (double)number, "%4zu. ", number);
  else
    reply_number(j, "step", (double)number, NULL);
  if (say == SAY_TAG) {
    char tag[32];
    step_tag(s, tag, sizeof tag);
    reply *l = reply_list(j, "constraints", "  %-7s ", tag);
    for (int i = 0; i < s->nconstraints; i++)
      reply_number(l, NULL, s->constraints[i], NULL);
  }
}

/* A step, {"step", ("constraints"), "kind", "cell", ...}: in the text its
 * words, a line ("(1,2) loses {S}: (0,2) holds only {L}, and L allows
 * only {L, C} to its south"). */
static void step_reply(reply *j, const tilesat_map *m, const tilesat_step *s,
                       size_t number, step_say say) {
  static const char *const kinds[] = {"pin",  "support",  "empty",    "lost",
                                      "must", "one_tile", "must_gone"};
  const tilesat_rules *r = map_info(m).rules;
  tilesat_step_kind k = s->kind;
  step_head(j, s, number, say);
  reply_string(j, "kind",
               s->choice && k == TILESAT_STEP_PIN ? "choice" : kinds[k], NULL);
  reply_pair(j, "cell", s->row, s->col, NULL);
  FILE *out = reply_text_out(j); /* its words, the cell's text */
  if (out && say != SAY_NONE) {
    (say == SAY_SHORT ? write_step_short : write_step)(m, s, out);
    fputc('\n', out);
  }
  if (k == TILESAT_STEP_PIN || k == TILESAT_STEP_LOST) {
    reply_string(j, "tile", tilesat_rules_tile_name(r, s->tile), NULL);
    if (s->choice)
      reply_number(j, "choice", s->choice, NULL);
  }
  if (k == TILESAT_STEP_PIN || k == TILESAT_STEP_SUPPORT ||
      k == TILESAT_STEP_ONE)
    tiles_reply(j, "loses", r, s->tiles, s->ntiles);
  if (k == TILESAT_STEP_MUST || k == TILESAT_STEP_MUST_GONE)
    tiles_reply(j, "must_hold_one_of", r, s->tiles, s->ntiles);
  if (k == TILESAT_STEP_SUPPORT || k == TILESAT_STEP_MUST) {
    reply_pair(j, "neighbor", s->nrow, s->ncol, NULL);
    tiles_reply(
        j, k == TILESAT_STEP_MUST ? "neighbor_holds_one_of" : "neighbor_holds",
        r, s->from, s->nfrom);
    reply_string(j, "direction_from_neighbor",
                 tilesat_dir_name(map_topo(m), s->dir), NULL);
  }
  ints_reply(j, "after", s->after, s->nafter);
}

/* The steps, the member `name` (an array), in the text after `heading`
 * (NULL: none); with keep (a chain cut) only those kept are in the
 * text, in short words and with how many steps lie between. */
static void steps_reply(reply *r, const char *name, const tilesat_map *m,
                        const tilesat_steps *steps, step_say say,
                        const bool *keep, const char *heading) {
  if (heading)
    reply_array(r, name, "%s", heading);
  else
    reply_array(r, name, NULL);
  size_t shown = 0;
  for (size_t i = 0; i < tilesat_steps_count(steps); i++) {
    reply *j = reply_array_item(r);
    bool said = !keep || keep[i];
    if (keep && said && i > shown)
      reply_text(j, "        (%zu step%s on other cells)\n", i - shown,
                 i - shown == 1 ? "" : "s");
    if (said)
      shown = i + 1;
    step_reply(j, m, tilesat_steps_get(steps, i), i + 1, said ? say : SAY_NONE);
  }
}

/* ---------------------------------------------------------------- JSON */

/* Every string of a JSON output in the names' encoding
 * (tilesat_name_encode), so that the output is UTF-8 whatever a name holds,
 * and a name reads back as it is. */
static void json_encode_strings(cJSON *j) {
  for (; j; j = j->next) {
    if (cJSON_IsString(j) && j->valuestring) {
      char *e = tilesat_name_encode(j->valuestring);
      cJSON_free(j->valuestring);
      j->valuestring = e; /* cJSON frees it with free(), its default */
    }
    json_encode_strings(j->child);
  }
}

int report_json_print(cJSON *doc) {
  json_encode_strings(doc);
  char *text = doc ? cJSON_Print(doc) : NULL;
  int rc = 0;
  if (!text) {
    fail("out of memory");
    rc = EXIT_ERROR;
  } else {
    json_out j;
    fputs(text, json_begin(&j));
    fputc('\n', j.f);
    json_end(&j);
  }
  free(text);
  cJSON_Delete(doc);
  return rc;
}

/* ---------------------------------------------------------- explanations */

static void write_constraint(const tilesat_map *m, const tilesat_constraint *c,
                             FILE *out) {
  if (c->kind == TILESAT_GLOBAL) {
    fprintf(out, "%s (%s)", tilesat_map_global_text(m, c->global),
            tilesat_map_global_origin(m, c->global));
    return;
  }
  fprintf(out, "(%d,%d) ", c->row, c->col);
  if (c->kind == TILESAT_ONE_TILE && tilesat_map_masked(m, c->row, c->col)) {
    fputs("is masked: not part of the map, it holds no tile", out);
  } else if (c->kind == TILESAT_ONE_TILE) {
    fputs("holds exactly one tile", out);
  } else if (c->kind == TILESAT_PINNED) {
    fputs("is pinned to ", out);
    fputs(listed_name(map_info(m).rules, c->tile), out);
  } else {
    fprintf(out, "and its %s neighbour (%d,%d) hold an allowed pair",
            report_dir_words(map_topo(m), c->dir), c->nrow, c->ncol);
  }
}

/* The text map's key: a character for each kind of cell and for the
 * adjacency constraints between them, each the first of its candidates
 * that is no tile's name in the rules (dungeon8's '#' and '.' are tiles:
 * '@' and ':' stand in for them), so that a mark never reads as a tile. */
typedef struct key {
  char one, pin, adj, none, east, south;
} key;

static char key_char(const tilesat_rules *r, const char *candidates) {
  for (const char *c = candidates;; c++) {
    char name[2] = {*c, '\0'};
    if (!c[1] || tilesat_rules_find_tile(r, name) < 0)
      return *c;
  }
}

static key key_of(const tilesat_rules *r) {
  return (key){key_char(r, "#@*X"), key_char(r, "PpQ"), key_char(r, "oO0"),
               key_char(r, ".:_"),  key_char(r, "-~"),  key_char(r, "|!")};
}

static char cell_mark(const key *k, const uint8_t *kind, size_t cell) {
  if (kind[cell] & 2)
    return k->pin;
  if (kind[cell] & 1)
    return k->one;
  if (kind[cell] & 4)
    return k->adj;
  return k->none;
}

/* A line of | under the cells whose south pair is a constraint (trailing
 * blanks trimmed). */
static void vertical_line(const key *k, const char *lead, const uint8_t *south,
                          int w, FILE *out) {
  int last = -1;
  for (int c = 0; c < w; c++)
    if (south[c])
      last = c;
  fputs(last < 0 ? "" : lead, out);
  for (int c = 0; c <= last; c++)
    fprintf(out, "%c%s", south[c] ? k->south : ' ', c < last ? " " : "");
  fputc('\n', out);
}

/* Per cell: kind (1 must hold one tile, 2 pinned, 4 in an adjacency) and,
 * on square maps, whether its east and south pairs are constraints. */
static void mark_cells(const tilesat_explanation *e, uint8_t *kind,
                       uint8_t *east, uint8_t *south) {
  const tilesat_map *m = explanation_info(e).map;
  size_t W = (size_t)map_info(m).width;
  bool square = map_topo(m) == TILESAT_SQUARE;
  for (size_t i = 0; i < explanation_info(e).size; i++) {
    const tilesat_constraint *c = tilesat_explanation_constraint(e, i);
    if (c->kind == TILESAT_GLOBAL)
      continue; /* the whole map's */
    size_t cell = (size_t)c->row * W + (size_t)c->col;
    if (c->kind == TILESAT_ONE_TILE)
      kind[cell] |= 1;
    else if (c->kind == TILESAT_PINNED)
      kind[cell] |= 2;
    else {
      size_t n = (size_t)c->nrow * W + (size_t)c->ncol;
      kind[cell] |= 4;
      kind[n] |= 4;
      if (square) {
        /* N and W are the S and E pairs of the neighbour */
        if (c->dir == 1)
          east[cell] = 1;
        else if (c->dir == 3)
          east[n] = 1;
        else if (c->dir == 2)
          south[cell] = 1;
        else
          south[n] = 1;
      }
    }
  }
}

/* Row r of a square map, - between cells whose east pair is a constraint
 * (on the margin for a wrap-around pair). */
static void square_row(const key *k, int W, const uint8_t *kind,
                       const uint8_t *east, bool wrap, FILE *out) {
  bool wrapped = wrap && east[W - 1];
  fputs(wrap ? (wrapped ? "  " : "   ") : "  ", out);
  if (wrapped)
    fputc(k->east, out);
  for (int c = 0; c < W; c++) {
    fputc(cell_mark(k, kind, (size_t)c), out);
    if (c + 1 < W)
      fputc(east[c] ? k->east : ' ', out);
  }
  if (wrapped)
    fputc(k->east, out);
  fputc('\n', out);
}

/* The part of the map shown: window (row, col, height, width; NULL or
 * empty: all of it) clamped to the map, in box. */
static void shown_box(const tilesat_map *m, const int *window, int box[4]) {
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height;
  box[0] = box[1] = 0;
  box[2] = H;
  box[3] = W;
  if (!window || window[2] <= 0 || window[3] <= 0)
    return;
  box[0] = window[0] < 0 ? 0 : window[0] < H ? window[0] : H - 1;
  box[1] = window[1] < 0 ? 0 : window[1] < W ? window[1] : W - 1;
  box[2] = window[2] < H - box[0] ? window[2] : H - box[0];
  box[3] = window[3] < W - box[1] ? window[3] : W - box[1];
}

/* The picture's heading: what the marks mean, and the part shown. */
static void picture_heading(const tilesat_map *m, const key *k,
                            const int box[4], bool square, FILE *out) {
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height;
  fputs("\nThe map", out);
  fprintf(out,
          " (%c a cell that must hold one tile, %c a pin, %c a cell only in "
          "an\nadjacency, %c not involved",
          k->one, k->pin, k->adj, k->none);
  if (square)
    fprintf(out, "; %c and %c adjacency constraints):\n", k->east, k->south);
  else
    fputs("; hex rows, odd rows shifted right):\n", out);
  if (box[2] < H || box[3] < W)
    fprintf(out,
            "  rows %d to %d, columns %d to %d of %dx%d, around the clash "
            "(--whole: all of it)\n",
            box[0], box[0] + box[2] - 1, box[1], box[1] + box[3] - 1, W, H);
}

/* The map (or the part of it in window) with the cells involved marked; on
 * square maps the adjacency constraints are drawn as - and | between cells
 * (on the margin for the wrap-around pairs of a periodic map shown
 * whole). */
static void write_picture(const tilesat_explanation *e, const int *window,
                          FILE *out) {
  const tilesat_map *m = explanation_info(e).map;
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height, box[4];
  size_t N = (size_t)W * (size_t)H;
  uint8_t *kind = zalloc(N, 1), *east = zalloc(N, 1), *south = zalloc(N, 1);
  bool square = map_topo(m) == TILESAT_SQUARE;
  mark_cells(e, kind, east, south);
  shown_box(m, window, box);
  key k = key_of(map_info(m).rules);
  picture_heading(m, &k, box, square, out);
  int r0 = box[0], c0 = box[1], w = box[3];
  bool wrap = map_info(m).periodic && square && w == W;
  const char *lead = wrap ? "   " : "  ";
  const uint8_t *last = south + (size_t)(H - 1) * (size_t)W + (size_t)c0;
  bool wrap_south = false; /* the last row's south pairs wrap to the top */
  for (int c = 0; wrap && box[2] == H && c < w; c++)
    wrap_south |= last[c];
  if (wrap_south)
    vertical_line(&k, lead, last, w, out);
  for (int r = r0; r < r0 + box[2]; r++) {
    size_t row = (size_t)r * (size_t)W + (size_t)c0;
    if (!square) {
      fputs(r & 1 ? "   " : "  ", out);
      for (int c = 0; c < w; c++)
        fprintf(out, "%s%c", c ? " " : "",
                cell_mark(&k, kind, row + (size_t)c));
      fputc('\n', out);
      continue;
    }
    square_row(&k, w, kind + row, east + row, wrap, out);
    if (r + 1 < r0 + box[2])
      vertical_line(&k, lead, south + row, w, out);
  }
  if (wrap_south)
    vertical_line(&k, lead, last, w, out);
  free(kind);
  free(east);
  free(south);
}

/* {"result", "map": {"width", "height", "topology", "periodic"},
 * "total_constraints"}: the answer's head; in the text (say) the line
 * that gives the result. */
static void head_reply(reply *r, const tilesat_map *m, const char *result,
                       bool say) {
  int W = map_info(m).width, H = map_info(m).height;
  if (!say)
    reply_string(r, "result", result, NULL);
  else if (!strcmp(result, "SAT"))
    reply_string(r, "result", result,
                 "SAT: a valid %dx%d map exists, nothing to explain (see "
                 "'tilesat check').\n",
                 W, H);
  else
    reply_string(r, "result", result, "UNSAT: no valid %dx%d map.\n", W, H);
  reply *map = reply_object(r, "map");
  reply_number(map, "width", W, NULL);
  reply_number(map, "height", H, NULL);
  reply_string(map, "topology", tilesat_topology_name(map_topo(m)), NULL);
  reply_bool(map, "periodic", map_info(m).periodic, NULL);
  reply_number(r, "total_constraints", tilesat_constraint_count(m), NULL);
}

/* Constraint `id` of an explanation: {"id", "kind", ...}; in the text
 * "  [id] " and its words, a line. */
static void constraint_reply(reply *j, const tilesat_map *m,
                             const tilesat_constraint *c, size_t id) {
  static const char *const kinds[] = {"one_tile", "pin", "adjacent", "global"};
  static const char *const gk[] = {"count", "connected", "path", "border"};
  words w;
  write_constraint(m, c, words_begin(&w));
  char *text = words_end(&w);
  reply_number(j, "id", (double)id, "  [%zu] %s\n", id, text);
  free(text);
  reply_string(j, "kind", kinds[c->kind], NULL);
  if (c->kind == TILESAT_GLOBAL) {
    reply_number(j, "global", c->global, NULL);
    reply_string(j, "type", gk[tilesat_map_global_kind(m, c->global)], NULL);
    reply_string(j, "text", tilesat_map_global_text(m, c->global), NULL);
    reply_string(j, "origin", tilesat_map_global_origin(m, c->global), NULL);
    return;
  }
  reply_pair(j, "cell", c->row, c->col, NULL);
  if (c->kind == TILESAT_PINNED) {
    reply_string(j, "tile", tilesat_rules_tile_name(map_info(m).rules, c->tile),
                 NULL);
  } else if (c->kind == TILESAT_ADJACENT) {
    reply_string(j, "direction", tilesat_dir_name(map_topo(m), c->dir), NULL);
    reply_pair(j, "neighbor", c->nrow, c->ncol, NULL);
  }
}

/* An explanation: "minimal", "constraints", "cells", "propagation_refutes",
 * "steps"; in the text the constraints, the steps, and the cells as a
 * picture of the map (the part in window). */
static void explanation_reply(reply *r, const tilesat_explanation *e,
                              const int *window) {
  const tilesat_map *m = explanation_info(e).map;
  size_t n = explanation_info(e).size;
  int W = map_info(m).width;
  reply_bool(r, "minimal", true,
             "These %zu constraints (of %d in the map) cannot all hold, and "
             "dropping any one\nof them leaves a satisfiable set "
             "(checked):\n",
             n, tilesat_constraint_count(m));
  reply_array(r, "constraints", NULL);
  for (size_t i = 0; i < n; i++)
    constraint_reply(reply_array_item(r), m,
                     tilesat_explanation_constraint(e, i), i + 1);
  const int *cells = explanation_info(e).cells;
  reply *cl = reply_list(r, "cells", NULL);
  for (size_t i = 0; i < explanation_info(e).ncells; i++) {
    int row = cells[i] / W, col = cells[i] % W;
    reply_pair(cl, NULL, row, col, NULL);
  }
  const tilesat_steps *steps = explanation_info(e).steps;
  bool refutes = tilesat_steps_contradiction(steps);
  reply_bool(r, "propagation_refutes", refutes, NULL);
  steps_reply(r, "steps", m, steps, SAY_TAG, NULL,
              "\nWhy (propagation on these constraints alone; [n] the "
              "constraints used):\n");
  if (!refutes) /* (propagation_refutes, in the text after the steps) */
    reply_text(r, "  Propagation stops here without a contradiction; the SAT "
                  "solver's search\n  shows that no filling satisfies all of "
                  "these constraints together.\n");
  words w;
  write_picture(e, window, words_begin(&w)); /* the cells, drawn */
  char *picture = words_end(&w);
  reply_text(r, "%s", picture);
  free(picture);
}

/* One explanation's answer, its head in the text too. */
static void unsat_reply(reply *r, const tilesat_explanation *e,
                        const int *window) {
  head_reply(r, explanation_info(e).map, "UNSAT", true);
  explanation_reply(r, e, window);
}

void report_explain_reply(reply *r, const tilesat_map *m,
                          tilesat_explanation *const *es, size_t n, bool all,
                          bool complete, const int *window) {
  if (!n) {
    head_reply(r, m, "SAT", true);
    return;
  }
  if (!all) {
    unsat_reply(r, es[0], window);
    return;
  }
  head_reply(r, explanation_info(es[0]).map, "UNSAT", false);
  reply_bool(r, "complete", complete,
             "%zu distinct minimal explanation%s, smallest first%s", n,
             n == 1 ? "" : "s",
             complete
                 ? ": all there are.\n"
                 : ": the limit is reached, there may be more (--limit).\n");
  reply_array(r, "explanations", NULL);
  for (size_t i = 0; i < n; i++) {
    reply *x = reply_array_item(r);
    const tilesat_map *mi = explanation_info(es[i]).map;
    reply_text(x, "\n=== Explanation %zu of %zu ===\n", i + 1, n);
    reply_text(x, "UNSAT: no valid %dx%d map.\n", map_info(mi).width,
               map_info(mi).height); /* (the head's, again) */
    explanation_reply(x, es[i], window);
  }
}

int report_explanation(const tilesat_explanation *e, const int *window,
                       FILE *out) {
  reply r = reply_to(out);
  unsat_reply(&r, e, window);
  reply_end(&r);
  return ferror(out) ? -1 : 0;
}

/* ---------------------------------------------------------------- traces */

/* A cell's domain as a name ("L") when decided, else "{L,C}". */
static void domain_text(const tilesat_trace *t, int row, int col, char *buf,
                        size_t len) {
  const tilesat_rules *r = map_info(tilesat_trace_map(t)).rules;
  int T = tilesat_rules_ntiles(r), n = 0;
  for (int k = 0; k < T; k++)
    n += tilesat_trace_possible(t, row, col, k);
  size_t at = 0;
  buf[0] = 0;
  if (n != 1)
    at += (size_t)snprintf(buf, len, "{");
  bool first = true;
  for (int k = 0; k < T && at < len; k++)
    if (tilesat_trace_possible(t, row, col, k)) {
      at += (size_t)snprintf(buf + at, len - at, "%s%s", first ? "" : ",",
                             tilesat_rules_tile_name(r, k));
      first = false;
    }
  if (n != 1 && at < len)
    snprintf(buf + at, len - at, "}");
}

/* The remaining domains, "domains": rows of cells of tile names; in the
 * text a grid, its columns aligned. */
static void domains_reply(reply *r, const tilesat_trace *t) {
  const tilesat_map *m = tilesat_trace_map(t);
  const tilesat_map_info mi = map_info(m);
  int W = mi.width, H = mi.height, T = tilesat_rules_ntiles(mi.rules);
  bool text = reply_text_out(r); /* (the JSON needs no words) */
  char buf[4096];
  int width = 1, decided = 0;
  for (int row = 0; text && row < H; row++)
    for (int col = 0; col < W; col++) {
      domain_text(t, row, col, buf, sizeof buf);
      int w = (int)strlen(buf);
      width = w > width ? w : width;
      decided += buf[0] != '{';
    }
  reply *rows = reply_list(
      r, "domains", "\ndomains (%d of %d cells decided):\n", decided, W * H);
  for (int row = 0; row < H; row++) {
    reply *cells = reply_list(
        rows, NULL, "%s", map_topo(m) == TILESAT_HEX && (row & 1) ? "  " : "");
    for (int col = 0; col < W; col++) {
      if (text)
        domain_text(t, row, col, buf, sizeof buf);
      reply *d =
          text ? reply_list(cells, NULL, "%-*s%s", col + 1 < W ? width : 0, buf,
                            col + 1 < W ? " " : "")
               : reply_list(cells, NULL, NULL);
      for (int k = 0; k < T; k++)
        if (tilesat_trace_possible(t, row, col, k))
          reply_string(d, NULL, tilesat_rules_tile_name(mi.rules, k), NULL);
    }
    reply_text(cells, "\n");
  }
}

void report_trace_reply(reply *r, const tilesat_trace *t) {
  const tilesat_map *m = tilesat_trace_map(t);
  int status = tilesat_trace_status(t);
  if (status == TILESAT_UNSAT)
    reply_string(r, "result", "contradiction",
                 "contradiction: the steps that lead to it:\n");
  else
    reply_string(r, "result", status == TILESAT_SAT ? "decided" : "undecided",
                 "propagation steps:\n");
  tilesat_steps *steps = tilesat_trace_steps(t);
  steps_reply(r, "steps", m, steps, SAY_NUMBER, NULL,
              tilesat_steps_count(steps) ? NULL : "  (none)\n");
  tilesat_steps_free(steps);
  if (status != TILESAT_UNSAT)
    domains_reply(r, t);
}

void report_chain_reply(reply *r, const char *name, const tilesat_trace *t,
                        bool cut) {
  const tilesat_map *m = tilesat_trace_map(t);
  tilesat_steps *steps = tilesat_trace_steps(t);
  size_t k = tilesat_steps_count(steps);
  if (!cut || !k) {
    steps_reply(r, name, m, steps, SAY_NUMBER, NULL,
                k ? "contradiction: the steps that lead to it:\n"
                  : "contradiction: the steps that lead to it:\n  (none)\n");
    tilesat_steps_free(steps);
    return;
  }
  bool *keep = zalloc(k, sizeof *keep);
  size_t n = steps_that_matter(steps, keep);
  char heading[256];
  snprintf(heading, sizeof heading,
           "contradiction: %zu of the %zu steps that lead to it: the choices, "
           "the steps at the cell it empties and those they follow from, "
           "lists cut to %d tiles (--whole: every step, every tile):\n",
           n, k, REPORT_LIST_CUT);
  list_cut = REPORT_LIST_CUT;
  steps_reply(r, name, m, steps, SAY_SHORT, keep, heading);
  list_cut = SIZE_MAX;
  free(keep);
  tilesat_steps_free(steps);
}

/* --------------------------------------------------------------- repairs */

/* "--pin ROW,COL=TILE", quoted for a shell when the name needs it. */
static void write_pin_option(FILE *out, const char *name, int row, int col) {
  bool quote = false;
  for (const char *c = name; *c; c++)
    quote |= !(isalnum((unsigned char)*c) || strchr("_.,=+-:@%/", *c));
  fprintf(out, "--pin %s%d,%d=", quote ? "'" : "", row, col);
  for (const char *c = name; *c; c++)
    if (*c == '\'')
      fputs("'\\''", out); /* ' ends the quote, \' is one, ' goes on */
    else
      fputc(*c, out);
  fputs(quote ? "'\n" : "\n", out);
}

int report_repair(const tilesat_repairs *r, size_t i, const tilesat_map *m,
                  FILE *out) {
  const tilesat_rules *rules = map_info(m).rules;
  tilesat_topology topo = map_topo(m);
  for (size_t j = 0; j < tilesat_repair_size(r, i); j++) {
    const tilesat_change *c = tilesat_repair_change(r, i, j);
    if (c->pin >= 0) {
      write_pin_option(out, tilesat_rules_tile_name(rules, c->tile), c->row,
                       c->col);
      continue;
    }
    int a[2] = {c->a, c->b}, b[2] = {c->b, c->a};
    int d[2] = {c->dir, tilesat_dir_opposite(topo, c->dir)};
    for (int k = 0; k < 2; k++) {
      fputs("allow ", out);
      tilesat_write_name(out, tilesat_rules_tile_name(rules, a[k]));
      fprintf(out, " %s ", tilesat_dir_name(topo, d[k]));
      tilesat_write_name(out, tilesat_rules_tile_name(rules, b[k]));
      fputc('\n', out);
    }
  }
  return ferror(out) ? -1 : 0;
}
