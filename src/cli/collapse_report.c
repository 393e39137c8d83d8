/* collapse_report.c: what `collapse` says about failed runs.  One run
 * (--explain): the point of no return, a minimal doomed set, the
 * propagation chain to the contradiction (trace's), and with --png the
 * wave it left with those cells framed.  Many runs (-n --explain): which
 * tiles and neighbouring pairs doomed the failed runs most often, and
 * the advice for designers.  Each answer described once, as a reply
 * (reply.h): text, or JSON with --format json. */
#include "cli.h"
#include "reply.h"
#include "report.h"

#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- choices */

static const char *tile_name(const tilesat_map *m, int tile) {
  return tilesat_rules_tile_name(map_info(m).rules, tile);
}

/* Choice i (0-based) as {"step": i+1, "row", "col", "tile"}, and in the
 * text as `PREFIXchoice N: (ROW,COL) = "TILE"`, a line. */
static void choice_reply(reply *r, const tilesat_map *m,
                         const tilesat_collapse *c, size_t i,
                         const char *prefix) {
  int cell, tile, w = map_info(m).width;
  tilesat_collapse_choices(c, i, &cell, &tile);
  const char *name = tile_name(m, tile);
  int row = cell / w, col = cell % w;
  reply_number(r, "step", (double)(i + 1), "%schoice %zu: (%d,%d) = %s\n",
               prefix, i + 1, row, col, quoted_text(name));
  reply_number(r, "row", row, NULL);
  reply_number(r, "col", col, NULL);
  reply_string(r, "tile", name, NULL);
}

/* Steps from cell a to cell b through neighbours (wrapping on periodic
 * maps, hex too): a breadth-first search. */
static int cells_apart(const options *o, const tilesat_map *m, int a, int b) {
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height, n = w * h;
  tilesat_topology topo =
      topology_of(o, tilesat_rules_topology(map_info(m).rules));
  int *dist = malloc((size_t)n * sizeof *dist),
      *queue = malloc((size_t)n * sizeof *queue);
  int found = -1, head = 0, tail = 0;
  for (int c = 0; dist && queue && c < n; c++)
    dist[c] = -1;
  if (dist && queue) {
    dist[a] = 0;
    queue[tail++] = a;
  }
  while (head < tail && found < 0) {
    int c = queue[head++];
    if (c == b)
      found = dist[c];
    for (int d = 0; d < tilesat_topology_ndirs(topo); d++) {
      int nr, nc;
      if (tilesat_neighbor(topo, w, h, o->periodic, c / w, c % w, d, &nr,
                           &nc) &&
          dist[nr * w + nc] < 0) {
        dist[nr * w + nc] = dist[c] + 1;
        queue[tail++] = nr * w + nc;
      }
    }
  }
  free(dist);
  free(queue);
  return found;
}

/* ------------------------------------------------------ one failed run */

/* The cell whose contradiction the trace's chain ends at, or -1. */
static int chain_end(const tilesat_trace *t) {
  tilesat_steps *s = tilesat_trace_steps(t);
  size_t n = s ? tilesat_steps_count(s) : 0;
  int cell = -1;
  if (n && tilesat_steps_contradiction(s)) {
    const tilesat_step *last = tilesat_steps_get(s, n - 1);
    cell = last->row * map_info(tilesat_trace_map(t)).width + last->col;
  }
  tilesat_steps_free(s);
  return cell;
}

/* The run's choices i < k with use[i], in the run's order and with its
 * numbers, through trace's propagation (the one collapse runs). */
static tilesat_trace *replay(const tilesat_map *m, const tilesat_collapse *c,
                             const bool *use, size_t k) {
  tilesat_trace *t = tilesat_trace_new(m);
  int w = map_info(m).width, cell, tile;
  for (size_t i = 0; i < k && t; i++) {
    if (!use[i])
      continue;
    tilesat_collapse_choices(c, i, &cell, &tile);
    if (tilesat_trace_choose_as(t, cell / w, cell % w, tile, (int)i + 1) ==
        TILESAT_UNSAT)
      break;
  }
  return t;
}

/* The chain printed: the doomed set's choices alone, in the run's order,
 * through trace's propagation; often they reach a contradiction by
 * themselves, and trace keeps the steps that lead to it.  Its cell may
 * not be the run's: propagation from a doomed set empties every cell in
 * the end, and which first depends on what else was chosen and on the
 * order cells are propagated in (Castle 16x16 seed 3: (6,13) from its
 * doomed set alone; the run's 154 choices replayed in trace empty (5,13)
 * first; the run emptied (5,14)), so the text names both.  t is NULL when
 * out of memory. */
typedef struct chain {
  tilesat_trace *t;
  int end; /* the cell the chain ends at, or -1 */
} chain;

static chain chain_of(const tilesat_map *m, const tilesat_collapse *c) {
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  size_t k = ci.choices, n = ci.ndoomed;
  const size_t *doomed = ci.doomed;
  chain ch = {NULL, -1};
  bool *in = calloc(k ? k : 1, 1);
  if (!in)
    return ch;
  for (size_t i = 0; i < n; i++)
    in[doomed[i]] = true;
  ch.t = replay(m, c, in, k);
  if (ch.t && tilesat_trace_status(ch.t) == TILESAT_UNSAT)
    ch.end = chain_end(ch.t);
  free(in);
  return ch;
}

/* --png of a failed run: the wave it left (decided cells as their tile,
 * others as blends, the empty cell black), the contradiction and the
 * doomed set framed; on a map larger than 32x32 (without --whole) only
 * around them, as explain draws such a map. */
static bool wave_has(const void *c, int cell, int tile) {
  return tilesat_collapse_possible(c, cell, tile);
}

static int wave_png(options *o, const tilesat_map *m, const tilesat_collapse *c,
                    const size_t *doomed, size_t n) {
  const tilesat_map_info mi = map_info(m);
  size_t cells = (size_t)mi.width * (size_t)mi.height;
  uint8_t *mark = calloc(cells, sizeof *mark);
  if (!mark) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  int *shown = malloc((n + 1) * sizeof *shown), ns = 0;
  for (size_t i = 0; i < n; i++) {
    int cell, tile;
    tilesat_collapse_choices(c, doomed[i], &cell, &tile);
    mark[cell] = TILESAT_MARK_DOOMED;
    if (shown)
      shown[ns++] = cell;
  }
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  if (ci.contradiction >= 0) {
    mark[ci.contradiction] = TILESAT_MARK_EMPTY;
    if (shown)
      shown[ns++] = ci.contradiction;
  }
  crop_around(o, m, shown, shown ? (size_t)ns : 0); /* on a large map */
  int rc = domains_png(o, m, wave_has, c, mark, NULL, 0);
  free(shown);
  free(mark);
  return rc;
}

int collapse_failure_png(options *o, const tilesat_map *m,
                         const tilesat_collapse *c) {
  return wave_png(o, m, c, NULL, 0);
}

/* The explanation, described once; the chain of steps as trace shows
 * it: in the text whole on maps up to SHOWN_WHOLE (cli.h) a side (or
 * --whole), cut around the clash on larger ones, as explain shows such
 * maps. */
static void explain_reply(reply *r, const options *o, const tilesat_map *m,
                          const tilesat_collapse *c, const chain *ch) {
  const tilesat_trace *t = ch->t;
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  long nr = ci.no_return;
  int cell, tile;
  size_t k = tilesat_collapse_choices(c, (size_t)nr, &cell, &tile);
  int bad = ci.contradiction;
  int dist = cells_apart(o, m, cell, bad);
  choice_reply(reply_object(r, "point_of_no_return"), m, c, (size_t)nr,
               "point of no return: ");
  reply_number(r, "choices_after", (double)(k - 1 - (size_t)nr),
               "  no valid map exists after it; %zu more choice%s before the "
               "contradiction, %d %s away from it\n",
               k - 1 - (size_t)nr, plural((double)(k - 1 - (size_t)nr)), dist,
               dist == 1 ? "cell" : "cells");
  reply_number(r, "cells_from_contradiction", dist, NULL);
  const size_t *doomed = ci.doomed;
  size_t n = ci.ndoomed;
  if (n == 1)
    reply_array(r, "doomed_set",
                "doomed set: 1 choice that alone leaves no valid map (without "
                "it a map exists)\n");
  else
    reply_array(r, "doomed_set",
                "doomed set: %zu choices that together leave no valid map "
                "(drop any one and a map exists)\n",
                n);
  for (size_t i = 0; i < n; i++)
    choice_reply(reply_array_item(r), m, c, doomed[i], "  ");
  if (tilesat_trace_status(t) != TILESAT_UNSAT) {
    reply_text(r, "propagation from the doomed set alone reaches no "
                  "contradiction: only search proves that no map completes "
                  "it\n");
    reply_null(r, "chain", NULL);
    reply_null(r, "chain_ends_at", NULL);
    return;
  }
  /* the cell the chain ends at: not always the run's (chain_of) */
  int end = ch->end, w = map_info(m).width;
  if (end == bad)
    reply_text(r,
               "how propagation from the doomed set alone reaches the "
               "contradiction at (%d,%d) (as trace shows it):\n",
               end / w, end % w);
  else
    reply_text(r,
               "how propagation from the doomed set alone reaches a "
               "contradiction at (%d,%d) (as trace shows it; the run, with "
               "its other choices, emptied (%d,%d) first):\n",
               end / w, end % w, bad / w, bad % w);
  int W = map_info(m).width, H = map_info(m).height;
  report_chain_reply(r, "chain", t,
                     !o->whole && (W > SHOWN_WHOLE || H > SHOWN_WHOLE));
  if (end >= 0)
    reply_cell(r, "chain_ends_at", end / w, end % w, NULL);
  else
    reply_null(r, "chain_ends_at", NULL);
}

int collapse_chain_end(const tilesat_map *m, const tilesat_collapse *c) {
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  if (ci.no_return < 0)
    return -1;
  chain ch = chain_of(m, c);
  tilesat_trace_free(ch.t);
  return ch.end;
}

int collapse_explain(options *o, const tilesat_map *m, tilesat_collapse *c,
                     cJSON *doc) {
  reply r = reply_for(doc);
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  if (ci.no_return < 0) {
    reply_string(&r, "explain", "no valid map exists with these rules and pins",
                 "no valid map exists with these rules and pins (see "
                 "explain)\n");
    reply_end(&r);
    return 0;
  }
  chain ch = chain_of(m, c);
  if (!ch.t) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  explain_reply(reply_object(&r, "explain"), o, m, c, &ch);
  reply_end(&r);
  tilesat_trace_free(ch.t);
  return o->png ? wave_png(o, m, c, ci.doomed, ci.ndoomed) : 0;
}

/* ------------------------------------------------------ many failed runs */

/* Which tiles, and which neighbouring pairs of tiles, doomed the failed
 * runs: each counted once a run whose doomed set has it. */
struct doom_summary {
  const tilesat_map *m;
  tilesat_topology topo;
  int T, D;
  long runs;         /* explained failed runs */
  long nomap;        /* of which the rules and pins alone have no map */
  long *tile_runs;   /* [tile] */
  long *border_runs; /* [tile]: with the tile on the map's border */
  long *pair_runs;   /* [a][dir][b]: b in direction dir of a */
  double *sizes, *after, *apart; /* [explained runs]: of each */
  size_t nsized, cap;
  uint8_t *seen; /* scratch: [T + T*D*T] */
};

doom_summary *doom_summary_new(const options *o, const tilesat_map *m,
                               long runs) {
  doom_summary *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->cap = (size_t)runs;
  s->sizes = calloc(s->cap + 1, sizeof *s->sizes);
  s->after = calloc(s->cap + 1, sizeof *s->after);
  s->apart = calloc(s->cap + 1, sizeof *s->apart);
  s->m = m;
  s->T = tilesat_rules_ntiles(map_info(m).rules);
  s->topo = topology_of(o, tilesat_rules_topology(map_info(m).rules));
  s->D = tilesat_topology_ndirs(s->topo);
  size_t T = (size_t)s->T, pairs = T * (size_t)s->D * T;
  s->tile_runs = calloc(T, sizeof *s->tile_runs);
  s->border_runs = calloc(T, sizeof *s->border_runs);
  s->pair_runs = calloc(pairs, sizeof *s->pair_runs);
  s->seen = calloc(T + pairs, 1);
  if (!s->tile_runs || !s->border_runs || !s->pair_runs || !s->seen ||
      !s->sizes || !s->after || !s->apart) {
    doom_summary_free(s);
    return NULL;
  }
  return s;
}

void doom_summary_free(doom_summary *s) {
  if (!s)
    return;
  free(s->tile_runs);
  free(s->border_runs);
  free(s->pair_runs);
  free(s->seen);
  free(s->sizes);
  free(s->after);
  free(s->apart);
  free(s);
}

static bool on_border(const options *o, const tilesat_map *m, int cell) {
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  int r = cell / w, col = cell % w;
  return !o->periodic && (r == 0 || col == 0 || r == h - 1 || col == w - 1);
}

void doom_summary_add(doom_summary *s, const options *o,
                      const tilesat_collapse *c) {
  const tilesat_map *m = s->m;
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, h = mi.height;
  tilesat_topology topo = s->topo;
  s->runs++;
  if (s->nsized == s->cap)
    return; /* more runs than said: not counted */
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  long nr = ci.no_return;
  if (nr < 0) {
    s->nomap++;
    return;
  }
  const size_t *d = ci.doomed;
  size_t n = ci.ndoomed;
  int cell, tile;
  size_t k = tilesat_collapse_choices(c, (size_t)nr, &cell, &tile);
  s->sizes[s->nsized] = (double)n;
  s->after[s->nsized] = (double)(k - 1 - (size_t)nr);
  s->apart[s->nsized++] = (double)cells_apart(o, m, cell, ci.contradiction);
  size_t T = (size_t)s->T, D = (size_t)s->D;
  memset(s->seen, 0, T + T * D * T);
  uint8_t *pair_seen = s->seen + T;
  for (size_t i = 0; i < n; i++) {
    int a, ta;
    tilesat_collapse_choices(c, d[i], &a, &ta);
    if (!(s->seen[ta] & 1)) {
      s->seen[ta] |= 1;
      s->tile_runs[ta]++;
    }
    if (on_border(o, m, a) && !(s->seen[ta] & 2)) {
      s->seen[ta] |= 2;
      s->border_runs[ta]++;
    }
    for (size_t j = 0; j < n; j++) {
      int b, tb;
      tilesat_collapse_choices(c, d[j], &b, &tb);
      for (int dir = 0; dir < s->D; dir++) {
        int nr_, nc;
        if (!tilesat_neighbor(topo, w, h, o->periodic, a / w, a % w, dir, &nr_,
                              &nc) ||
            nr_ * w + nc != b)
          continue;
        /* each unordered pair once: from the lower tile (or direction) */
        int odir = tilesat_dir_opposite(topo, dir);
        if (ta > tb || (ta == tb && dir > odir))
          continue;
        size_t key = ((size_t)ta * D + (size_t)dir) * T + (size_t)tb;
        if (!pair_seen[key]) {
          pair_seen[key] = 1;
          s->pair_runs[key]++;
        }
      }
    }
  }
}

/* The indexes of the top `most` nonzero entries of v[0..n), largest first
 * (ties by index); returns how many. */
static size_t top(const long *v, size_t n, size_t *idx, size_t most) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!v[i] || (k == most && v[idx[k - 1]] >= v[i]))
      continue;
    size_t j = k < most ? k++ : most - 1;
    for (; j > 0 && v[idx[j - 1]] < v[i]; j--)
      idx[j] = idx[j - 1];
    idx[j] = i;
  }
  return k;
}

#define TOP 10

static double median_of(double *v, size_t n) {
  return n ? median_sorted(v, n) : 0;
}

/* The doomed sets' summary, described once: the text's lines and the
 * JSON members. */
static void summary_reply(reply *r, const doom_summary *s, const size_t *idx,
                          size_t nt, const size_t *pidx, size_t np,
                          double msize, double mafter, double mapart) {
  long ex = s->runs - s->nomap;
  reply_number(r, "failed_runs", (double)s->runs,
               "doomed sets of %ld failed run%s (each minimal, found by "
               "SAT):\n",
               s->runs, plural((double)s->runs));
  if (s->nomap)
    reply_number(r, "no_map", (double)s->nomap,
                 "  %ld run%s: no valid map exists with these rules and "
                 "pins\n",
                 s->nomap, plural((double)s->nomap));
  else
    reply_number(r, "no_map", 0, NULL);
  if (ex)
    reply_number(r, "median_size", msize,
                 "  median size %.0f choice%s; the point of no return: "
                 "median %.0f choice%s before the contradiction, %.0f "
                 "cell%s from it\n",
                 msize, plural(round(msize)), mafter, plural(round(mafter)),
                 mapart, plural(round(mapart)));
  else
    reply_number(r, "median_size", msize, NULL);
  reply_number(r, "median_choices_after", mafter, NULL);
  reply_number(r, "median_cells_from_contradiction", mapart, NULL);
  /* (no tile or pair without a run explained: nt and np are 0) */
  if (ex)
    reply_array(r, "tiles",
                "  tiles most often in a doomed set (%% of these runs):\n");
  else
    reply_array(r, "tiles", NULL);
  for (size_t i = 0; i < nt; i++) {
    long n = s->tile_runs[idx[i]], b = s->border_runs[idx[i]];
    const char *name = tile_name(s->m, (int)idx[i]);
    reply *t = reply_array_item(r);
    reply_string(t, "tile", name, "    %5.1f%%  %s (%ld run%s",
                 100.0 * (double)n / (double)ex, quoted_text(name), n,
                 plural((double)n));
    reply_number(t, "runs", (double)n, NULL);
    if (b)
      reply_number(t, "on_border", (double)b, "; on the border in %ld)\n", b);
    else
      reply_number(t, "on_border", 0, ")\n");
  }
  if (np)
    reply_array(r, "pairs",
                "  neighbouring pairs most often in a doomed "
                "set:\n");
  else
    reply_array(r, "pairs", NULL);
  size_t T = (size_t)s->T;
  for (size_t i = 0; i < np; i++) {
    size_t key = pidx[i];
    const char *a = tile_name(s->m, (int)(key / T / (size_t)s->D));
    const char *b = tile_name(s->m, (int)(key % T));
    const char *dir = tilesat_dir_name(s->topo, (int)(key / T % (size_t)s->D));
    reply *p = reply_array_item(r);
    reply_string(p, "tile", a,
                 "    %5.1f%%  %s with %s to its %s (%ld run%s)\n",
                 100.0 * (double)s->pair_runs[key] / (double)ex, quoted_text(a),
                 quoted_text(b), dir, s->pair_runs[key],
                 plural((double)s->pair_runs[key]));
    reply_string(p, "dir", dir, NULL);
    reply_string(p, "neighbour", b, NULL);
    reply_number(p, "runs", (double)s->pair_runs[key], NULL);
  }
}

void doom_summary_report(doom_summary *s, cJSON *doc) {
  size_t idx[TOP], pidx[TOP];
  size_t T = (size_t)s->T;
  size_t nt = top(s->tile_runs, T, idx, TOP);
  size_t np = top(s->pair_runs, T * (size_t)s->D * T, pidx, TOP);
  double msize = median_of(s->sizes, s->nsized),
         mafter = median_of(s->after, s->nsized),
         mapart = median_of(s->apart, s->nsized);
  reply r = reply_for(doc);
  summary_reply(reply_object(&r, "doomed"), s, idx, nt, pidx, np, msize, mafter,
                mapart);
  reply_end(&r);
}

/* --------------------------------------------------- advice for designers */

static const char *kind_name(tilesat_advice_kind k) {
  static const char *const names[] = {"allow", "weight", "wrap", "border"};
  return names[k];
}

static double pct(long k, long n) {
  return n ? 100.0 * (double)k / (double)n : 0;
}

/* The change, as a phrase: `allowing "A" next to "B" (east)`. */
static void write_change(const tilesat_map *m, const tilesat_advice_change *c,
                         FILE *out) {
  tilesat_topology topo = tilesat_rules_topology(map_info(m).rules);
  switch (c->kind) {
  case TILESAT_ADVICE_ALLOW:
    fprintf(out, "allowing %s next to %s (%s)", quoted_text(tile_name(m, c->a)),
            quoted_text(tile_name(m, c->b)), report_dir_words(topo, c->dir));
    break;
  case TILESAT_ADVICE_WEIGHT:
    if (c->others > 1) /* a weight of 1: the others raised instead */
      fprintf(out,
              "lowering the weight of %s to a quarter (every other "
              "weight times %" PRIu64 ")",
              quoted_text(tile_name(m, c->a)), c->others);
    else
      fprintf(out, "lowering the weight of %s from %" PRIu64 " to %" PRIu64,
              quoted_text(tile_name(m, c->a)), c->from, c->to);
    break;
  case TILESAT_ADVICE_WRAP:
    fputs("wrapping the map (--periodic)", out);
    break;
  case TILESAT_ADVICE_BORDER:
    fprintf(out, "a border of %s (--border all=%s)",
            quoted_text(tile_name(m, c->a)), shown_text(tile_name(m, c->a)));
    break;
  }
}

/* Change i and what it does, a line, malloc'd. */
static char *change_line(const tilesat_map *m, const tilesat_advice *v,
                         long i) {
  const tilesat_advice_change *c = &v->changes[i];
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  write_change(m, c, f);
  fprintf(f, " drops failures from %.1f%% to %.1f%% (%ld run%s)\n",
          pct(v->failures, v->runs), pct(c->failures, v->runs), v->runs,
          plural((double)v->runs));
  if (fclose(f) || !text) {
    fail("out of memory");
    exit(EXIT_ERROR);
  }
  return text;
}

/* The best change (i, or none: -1) as the member "best", in the text
 * (say) after lead, or the words for none. */
static void best_reply(reply *r, const tilesat_map *m, const tilesat_advice *v,
                       long i, const char *lead, const char *none) {
  if (i < 0 && none)
    reply_null(r, "best", "%s", none);
  else if (i < 0)
    reply_null(r, "best", NULL);
  else if (!lead)
    reply_number(r, "best", (double)i, NULL);
  else {
    char *line = change_line(m, v, i);
    reply_number(r, "best", (double)i, "%s%s", lead, line);
    free(line);
  }
}

/* A change tried: {"change", "tile", ..., "failures", "rate"}. */
static void change_reply(reply *j, const tilesat_map *m,
                         const tilesat_advice *v,
                         const tilesat_advice_change *c) {
  tilesat_topology topo = tilesat_rules_topology(map_info(m).rules);
  reply_string(j, "change", kind_name(c->kind), NULL);
  if (c->a >= 0)
    reply_string(j, "tile", tile_name(m, c->a), NULL);
  if (c->kind == TILESAT_ADVICE_ALLOW) {
    reply_string(j, "dir", tilesat_dir_name(topo, c->dir), NULL);
    reply_string(j, "neighbour", tile_name(m, c->b), NULL);
    reply_number(j, "repairs", (double)c->repairs, NULL);
  }
  if (c->kind == TILESAT_ADVICE_WEIGHT) {
    reply_number(j, "from", (double)c->from, NULL);
    reply_number(j, "to", (double)c->to, NULL);
    reply_number(j, "others", (double)c->others, NULL);
  }
  reply_number(j, "failures", (double)c->failures, NULL);
  reply_number(j, "rate", (double)c->failures / (double)v->runs, NULL);
}

/* A suspect: {"tile", "dir", "neighbour", "runs", "on_border", "best"};
 * in the text (say) where it was and the change that helps it most. */
static void suspect_reply(reply *j, const tilesat_map *m,
                          const tilesat_advice *v,
                          const tilesat_advice_suspect *s, bool say) {
  tilesat_topology topo = tilesat_rules_topology(map_info(m).rules);
  long ex = v->explained - v->no_map;
  const char *a = tile_name(m, s->a);
  if (say)
    reply_string(j, "tile", a, "  %s", quoted_text(a));
  else
    reply_string(j, "tile", a, NULL);
  if (s->b >= 0) {
    reply_string(j, "dir", tilesat_dir_name(topo, s->dir), NULL);
    if (say)
      reply_string(j, "neighbour", tile_name(m, s->b), " with %s to its %s",
                   quoted_text(tile_name(m, s->b)),
                   report_dir_words(topo, s->dir));
    else
      reply_string(j, "neighbour", tile_name(m, s->b), NULL);
  }
  if (say)
    reply_number(j, "runs", (double)s->runs,
                 " in %.1f%% of the doomed sets (%ld on the border, %ld "
                 "inside):\n    ",
                 pct(s->runs, ex), s->border, s->runs - s->border);
  else
    reply_number(j, "runs", (double)s->runs, NULL);
  reply_number(j, "on_border", (double)s->border, NULL);
  best_reply(j, m, v, s->best, say ? "" : NULL,
             say ? "no change tried lowers the failures\n" : NULL);
}

/* The advice, described once: {"runs", "first_seed", "failures", "rate",
 * "changes", "suspects", "best"}; the text says what each suspect's best
 * change does and which helps most, or why there is nothing to say. */
static void advice_reply(reply *r, const tilesat_map *m,
                         const tilesat_advice *v) {
  uint64_t last = v->first_seed + (uint64_t)(v->runs - 1);
  bool nomap = v->explained && v->no_map == v->explained;
  bool say = v->failures && !nomap;
  if (!v->failures)
    reply_number(r, "runs", (double)v->runs,
                 "advice for designers: no run failed (%ld run%s, seeds "
                 "%" PRIu64 " to %" PRIu64 "): nothing to change\n",
                 v->runs, plural((double)v->runs), v->first_seed, last);
  else if (nomap)
    reply_number(r, "runs", (double)v->runs,
                 "advice for designers: no valid map exists with these "
                 "rules and pins, so every run fails; tilesat repair says "
                 "what to allow\n");
  else
    reply_number(r, "runs", (double)v->runs,
                 "advice for designers (the same %ld seed%s run again with "
                 "each change; %zu change%s tried):\n",
                 v->runs, plural((double)v->runs), v->nchanges,
                 plural((double)v->nchanges));
  reply_number(r, "first_seed", (double)v->first_seed, NULL);
  reply_number(r, "failures", (double)v->failures, NULL);
  reply_number(r, "rate", (double)v->failures / (double)v->runs, NULL);
  reply_array(r, "changes", NULL);
  for (size_t i = 0; i < v->nchanges; i++)
    change_reply(reply_array_item(r), m, v, &v->changes[i]);
  if (say && !v->nsuspects)
    reply_array(r, "suspects",
                "  no tile or pair is in more than one doomed set\n");
  else
    reply_array(r, "suspects", NULL);
  for (size_t i = 0; i < v->nsuspects; i++)
    suspect_reply(reply_array_item(r), m, v, &v->suspects[i], say);
  char none[128];
  snprintf(none, sizeof none,
           "  none of the changes tried lowers the failures (%.1f%%)\n",
           pct(v->failures, v->runs));
  best_reply(r, m, v, v->best, say ? "  the change that helps most: " : NULL,
             say ? none : NULL);
}

void advice_report(const tilesat_map *m, const tilesat_advice *v, cJSON *doc) {
  reply r = reply_for(doc);
  advice_reply(reply_object(&r, "advice"), m, v);
  reply_end(&r);
}
