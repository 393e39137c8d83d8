/* analyze.c: a report on a rule set itself, for a designer deciding
 * whether to fix the rules or the map: tiles that can only stand on one
 * border, tiles that appear in no valid map, which sizes work, and, when
 * large maps fail ("hard" rules), the explanation for the smallest size
 * that fails. */
#include "explain/explain.h"

#include <stdlib.h>
#include <string.h>

#define MAX_MAX 64

struct tilesat_analysis {
  const tilesat_rules *r;
  int max;
  tilesat_topology topo;
  bool periodic;
  int *result;      /* [(h-1) * max + (w-1)] */
  uint8_t *appears; /* per tile, in maps from least x least */
  int least;
  tilesat_map *hard; /* the smallest unsatisfiable size, when hard */
  tilesat_explanation *why;
};

/* Is there a valid map of m with `tile` somewhere?  The witness is checked
 * like every other one. */
static int appears_in(const tilesat_map *m, const tilesat_solve_options *so,
                      int tile, tilesat_error *err) {
  ts_cnf cnf;
  ts_encode(m, &cnf);
  ts_solver *s = ts_solver_new(m, so);
  ts_solver_load(s, &cnf);
  ts_ints cl = {0};
  for (int c = 0; c < m->ncells; c++)
    TS_PUSH(cl, ts_var(m, c, tile));
  ts_solver_add_clause(s, cl.v, cl.n);
  int res = ts_solver_solve(s);
  if (res == TILESAT_SAT) {
    int *tiles = ts_malloc((size_t)m->ncells * sizeof *tiles);
    for (int c = 0; c < m->ncells; c++) {
      tiles[c] = -1;
      for (int t = 0; t < m->rules->ntiles; t++)
        if (ts_solver_value(s, ts_var(m, c, t)))
          tiles[c] = t;
    }
    char why[256];
    if (!tilesat_map_verify(m, tiles, why, sizeof why)) {
      ts_error(err, NULL, 0, "internal error: invalid witness: %s", why);
      res = -1;
    }
    free(tiles);
  } else if (res != TILESAT_UNSAT) {
    res = ts_solver_unknown(s, "analyze", err);
  }
  free(cl.v);
  ts_solver_free(s);
  ts_cnf_free(&cnf);
  return res;
}

/* Check every size up to max x max, noting the tiles the witnesses use. */
static bool check_sizes(tilesat_analysis *a, const tilesat_solve_options *so,
                        tilesat_error *err) {
  int max = a->max;
  int *tiles = ts_malloc((size_t)max * (size_t)max * sizeof *tiles);
  bool ok = true;
  for (int h = 1; h <= max && ok; h++)
    for (int w = 1; w <= max && ok; w++) {
      int *res = &a->result[(h - 1) * max + (w - 1)];
      if (a->topo == TILESAT_HEX && a->periodic && h % 2) {
        *res = TILESAT_UNKNOWN;
        continue;
      }
      tilesat_map *m = tilesat_map_new(a->r, w, h, a->topo, a->periodic, err);
      if (!m) {
        ok = false;
        break;
      }
      *res = tilesat_check(m, so, tiles, err);
      if (*res < 0)
        ok = false;
      else if (*res == TILESAT_SAT && w >= a->least && h >= a->least)
        for (int c = 0; c < w * h; c++)
          a->appears[tiles[c]] = 1;
      tilesat_map_free(m);
    }
  free(tiles);
  return ok;
}

/* Tile t, used by no witness: ask for it directly, small maps first. */
static bool find_tile(tilesat_analysis *a, int t,
                      const tilesat_solve_options *so, tilesat_error *err) {
  int max = a->max;
  bool ok = true;
  for (int area = 1; area <= max * max && ok && !a->appears[t]; area++)
    for (int w = 1; w <= max && ok && !a->appears[t]; w++) {
      int h = area / w;
      if (area % w || h > max || w < a->least || h < a->least ||
          a->result[(h - 1) * max + (w - 1)] != TILESAT_SAT)
        continue;
      tilesat_map *m = tilesat_map_new(a->r, w, h, a->topo, a->periodic, err);
      int res = appears_in(m, so, t, err);
      if (res < 0)
        ok = false;
      else
        a->appears[t] = res == TILESAT_SAT;
      tilesat_map_free(m);
    }
  return ok;
}

/* The smallest unsatisfiable size (by area, then narrower first) and why. */
static bool explain_hard(tilesat_analysis *a, const tilesat_solve_options *so,
                         tilesat_error *err) {
  int max = a->max, bw = 0, bh = 0;
  for (int h = 1; h <= max; h++)
    for (int w = 1; w <= max; w++)
      if (a->result[(h - 1) * max + (w - 1)] == TILESAT_UNSAT &&
          (!bw || w * h < bw * bh || (w * h == bw * bh && w < bw))) {
        bw = w;
        bh = h;
      }
  a->hard = tilesat_map_new(a->r, bw, bh, a->topo, a->periodic, err);
  return a->hard && tilesat_explain(a->hard, so, &a->why, err) == TILESAT_UNSAT;
}

tilesat_analysis *tilesat_analyze(const tilesat_rules *r, int max,
                                  tilesat_topology topo, bool periodic,
                                  const tilesat_solve_options *so,
                                  tilesat_error *err) {
  if (!r)
    ts_misuse(__func__, "NULL rules");
  if (max < 1 || max > MAX_MAX) {
    ts_error(err, "--max", 0, "%d is not from 1 to %d", max, MAX_MAX);
    return NULL;
  }
  tilesat_analysis *a = ts_calloc(1, sizeof *a);
  a->r = r;
  a->max = max;
  a->topo = topo;
  a->periodic = periodic;
  a->result = ts_calloc((size_t)max * (size_t)max, sizeof *a->result);
  a->appears = ts_calloc((size_t)r->ntiles, 1);
  /* a 1x1 open map takes any tile, so unused tiles are counted from 2x2
   * (from 1x1 only when --max is 1) */
  a->least = max >= 2 ? 2 : 1;
  bool ok = check_sizes(a, so, err);
  for (int t = 0; t < r->ntiles && ok; t++)
    ok = find_tile(a, t, so, err);
  if (ok && tilesat_analysis_hard(a))
    ok = explain_hard(a, so, err);
  if (!ok) {
    if (ts_terminated(so)) /* said as analyze, not as the check it stopped */
      ts_error(err, "analyze", 0, "interrupted");
    tilesat_analysis_free(a);
    return NULL;
  }
  return a;
}

void tilesat_analysis_free(tilesat_analysis *a) {
  if (!a)
    return;
  tilesat_explanation_free(a->why);
  tilesat_map_free(a->hard);
  free(a->result);
  free(a->appears);
  free(a);
}

int tilesat_analysis_result(const tilesat_analysis *a, int width, int height) {
  if (width < 1 || width > a->max || height < 1 || height > a->max)
    ts_misuse(__func__, "size out of range");
  return a->result[(height - 1) * a->max + (width - 1)];
}

bool tilesat_analysis_tile_appears(const tilesat_analysis *a, int tile) {
  if (tile < 0 || tile >= a->r->ntiles)
    ts_misuse(__func__, "tile out of range");
  return a->appears[tile];
}

bool tilesat_analysis_hard(const tilesat_analysis *a) {
  int last = a->max;
  /* periodic hex: the largest even height */
  if (a->topo == TILESAT_HEX && a->periodic && last % 2)
    last--;
  return last >= 1 &&
         a->result[(last - 1) * a->max + (a->max - 1)] == TILESAT_UNSAT;
}

/* The satisfiable heights of a width as text: "1..8", "1, 2", "none". */
static void heights_text(const tilesat_analysis *a, int w, char *buf,
                         size_t len) {
  int n = 0, valid = 0;
  for (int h = 1; h <= a->max; h++) {
    n += tilesat_analysis_result(a, w, h) == TILESAT_SAT;
    valid += tilesat_analysis_result(a, w, h) != TILESAT_UNKNOWN;
  }
  if (n == 0) {
    snprintf(buf, len, "no height");
    return;
  }
  if (n == valid && n == a->max) {
    snprintf(buf, len, "every height (1..%d)", a->max);
    return;
  }
  size_t at = (size_t)snprintf(buf, len, n == 1 ? "height " : "heights ");
  const char *sep = "";
  for (int h = 1; h <= a->max && at < len; h++) {
    if (tilesat_analysis_result(a, w, h) != TILESAT_SAT)
      continue;
    int e = h;
    while (e + 1 <= a->max &&
           tilesat_analysis_result(a, w, e + 1) == TILESAT_SAT)
      e++;
    if (e - h >= 2)
      at += (size_t)snprintf(buf + at, len - at, "%s%d..%d", sep, h, e);
    else
      for (int k = h; k <= e && at < len; k++)
        at +=
            (size_t)snprintf(buf + at, len - at, "%s%d", k > h ? ", " : sep, k);
    sep = ", ";
    h = e;
  }
}

/* "  T: nothing may stand to its left, top or right" for each such tile;
 * whether there was one. */
static bool write_border_tiles(const tilesat_analysis *a, FILE *out) {
  const tilesat_rules *r = a->r;
  bool any = false;
  for (int t = 0; t < r->ntiles; t++) {
    bool first = true;
    for (int d = 0; d < r->ndirs; d++) {
      if (!ts_allows_nothing(r, t, d))
        continue;
      if (first) {
        fputs("  ", out);
        ts_write_token(out, r->names.v.v[t]);
        fputs(": nothing may stand to its ", out);
      }
      int more = 0; /* directions after this one that also have nothing */
      for (int d2 = d + 1; d2 < r->ndirs; d2++)
        more += ts_allows_nothing(r, t, d2);
      fprintf(out, "%s%s",
              first  ? ""
              : more ? ", "
                     : " or ",
              ts_dir_words(a->topo, d));
      first = false;
      any = true;
    }
    if (!first)
      fputc('\n', out);
  }
  return any;
}

/* The table of sizes: + satisfiable, . not, - no such periodic hex map. */
static void write_size_table(const tilesat_analysis *a, FILE *out) {
  int N = a->max;
  fprintf(out,
          "\nSatisfiable sizes up to %dx%d (+ yes, . no%s; width across, "
          "height down):\n     ",
          N, N,
          a->topo == TILESAT_HEX && a->periodic ? ", - odd height: no "
                                                  "periodic hex map"
                                                : "");
  for (int w = 1; w <= N; w++)
    fprintf(out, "%3d", w);
  fputc('\n', out);
  for (int h = 1; h <= N; h++) {
    fprintf(out, "  %3d", h);
    for (int w = 1; w <= N; w++) {
      int res = tilesat_analysis_result(a, w, h);
      fprintf(out, "  %c",
              res == TILESAT_SAT     ? '+'
              : res == TILESAT_UNSAT ? '.'
                                     : '-');
    }
    fputc('\n', out);
  }
}

/* Widths with the same satisfiable heights, on one line. */
static void write_by_width(const tilesat_analysis *a, FILE *out) {
  int N = a->max;
  fputs("\nBy width, the heights that have a map:\n", out);
  char buf[1024], next[1024];
  for (int w = 1; w <= N;) {
    heights_text(a, w, buf, sizeof buf);
    int e = w;
    while (e + 1 <= N) {
      heights_text(a, e + 1, next, sizeof next);
      if (strcmp(buf, next))
        break;
      e++;
    }
    if (e > w)
      fprintf(out, "  widths %d..%d: %s\n", w, e, buf);
    else
      fprintf(out, "  width %d: %s\n", w, buf);
    w = e + 1;
  }
}

int tilesat_analysis_write(const tilesat_analysis *a, FILE *out) {
  const tilesat_rules *r = a->r;
  int T = r->ntiles, N = a->max;
  fprintf(out, "%d tiles, %s topology%s:", T, tilesat_topology_name(a->topo),
          a->periodic ? " (periodic)" : "");
  for (int t = 0; t < T; t++) {
    fputc(' ', out);
    ts_write_token(out, r->names.v.v[t]);
  }
  fputs(a->periodic ? "\n\nTiles with no neighbour in some direction (a "
                      "periodic map has no border, so\nthey can stand "
                      "nowhere):\n"
                    : "\n\nTiles with no neighbour in some direction (they "
                      "can only stand on that border):\n",
        out);
  if (!write_border_tiles(a, out))
    fputs("  none\n", out);
  fprintf(out,
          "\nTiles that appear in no valid map from %dx%d to %dx%d:", a->least,
          a->least, N, N);
  bool any = false;
  for (int t = 0; t < T; t++)
    if (!a->appears[t]) {
      fputc(' ', out);
      ts_write_token(out, r->names.v.v[t]);
      any = true;
    }
  fputs(any ? "\n" : " none\n", out);
  write_size_table(a, out);
  write_by_width(a, out);
  if (!tilesat_analysis_hard(a)) {
    fprintf(out, "\nNot hard: %dx%d maps exist.\n", N, N);
    return ferror(out) ? -1 : 0;
  }
  fprintf(out,
          "\nHard: no %dx%d map exists.  The smallest size without a map is "
          "%dx%d:\n\n",
          N, N, tilesat_map_width(a->hard), tilesat_map_height(a->hard));
  tilesat_explanation_write(a->why, out);
  return ferror(out) ? -1 : 0;
}
