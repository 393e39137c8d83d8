/* report_analysis.c: analyze's report in words (report.c has the others):
 * the tiles, border tiles, tiles in no map, the table of satisfiable sizes
 * and the smallest failing size's explanation. */
#include "cli.h"
#include "report.h"

#include <string.h>

/* -------------------------------------------------------------- analysis */

/* The satisfiable heights of a width as text: "1..8", "1, 2", "none". */
static void heights_text(const tilesat_analysis *a, int w, char *buf,
                         size_t len) {
  tilesat_analysis_info ai;
  tilesat_analysis_get(a, &ai);
  int max = ai.max, n = 0, valid = 0;
  for (int h = 1; h <= max; h++) {
    n += tilesat_analysis_result(a, w, h) == TILESAT_SAT;
    valid += tilesat_analysis_result(a, w, h) != TILESAT_UNKNOWN;
  }
  if (n == 0) {
    snprintf(buf, len, "no height");
    return;
  }
  if (n == valid && n == max) {
    snprintf(buf, len, "every height (1..%d)", max);
    return;
  }
  size_t at = (size_t)snprintf(buf, len, n == 1 ? "height " : "heights ");
  const char *sep = "";
  for (int h = 1; h <= max && at < len; h++) {
    if (tilesat_analysis_result(a, w, h) != TILESAT_SAT)
      continue;
    int e = h;
    while (e + 1 <= max && tilesat_analysis_result(a, w, e + 1) == TILESAT_SAT)
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

/* Does tile t allow no tile at all in direction d (so it can only stand on
 * that border of a map)? */
static bool allows_nothing(const tilesat_rules *r, int t, int d) {
  for (int u = 0; u < tilesat_rules_ntiles(r); u++)
    if (tilesat_rules_allows(r, t, d, u))
      return false;
  return true;
}

/* "  T: nothing may stand to its left, top or right" for each such tile;
 * whether there was one. */
static bool write_border_tiles(const tilesat_analysis *a, FILE *out) {
  tilesat_analysis_info ai;
  tilesat_analysis_get(a, &ai);
  const tilesat_rules *r = ai.rules;
  tilesat_topology topo = ai.topo;
  int D = tilesat_topology_ndirs(topo);
  bool any = false;
  for (int t = 0; t < tilesat_rules_ntiles(r); t++) {
    bool first = true;
    for (int d = 0; d < D; d++) {
      if (!allows_nothing(r, t, d))
        continue;
      if (first) {
        fputs("  ", out);
        fputs(listed_name(r, t), out);
        fputs(": nothing may stand to its ", out);
      }
      int more = 0; /* directions after this one that also have nothing */
      for (int d2 = d + 1; d2 < D; d2++)
        more += allows_nothing(r, t, d2);
      fprintf(out, "%s%s",
              first  ? ""
              : more ? ", "
                     : " or ",
              report_dir_words(topo, d));
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
  tilesat_analysis_info ai;
  tilesat_analysis_get(a, &ai);
  int N = ai.max;
  fprintf(out,
          "\nSatisfiable sizes up to %dx%d (+ yes, . no%s; width across, "
          "height down):\n     ",
          N, N,
          ai.topo == TILESAT_HEX && ai.periodic
              ? ", - odd height: no periodic hex map"
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
  tilesat_analysis_info ai;
  tilesat_analysis_get(a, &ai);
  int N = ai.max;
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

int report_analysis(const tilesat_analysis *a, FILE *out) {
  tilesat_analysis_info ai;
  tilesat_analysis_get(a, &ai);
  const tilesat_rules *r = ai.rules;
  int T = tilesat_rules_ntiles(r), N = ai.max;
  int least = ai.least;
  bool periodic = ai.periodic;
  fprintf(out, "%d tiles, %s topology%s:", T, tilesat_topology_name(ai.topo),
          periodic ? " (periodic)" : "");
  for (int t = 0; t < T; t++) {
    fputc(' ', out);
    fputs(listed_name(r, t), out);
  }
  fputs(periodic ? "\n\nTiles with no neighbour in some direction (a "
                   "periodic map has no border, so\nthey can stand "
                   "nowhere):\n"
                 : "\n\nTiles with no neighbour in some direction (they "
                   "can only stand on that border):\n",
        out);
  if (!write_border_tiles(a, out))
    fputs("  none\n", out);
  fprintf(out,
          "\nTiles that appear in no valid map from %dx%d to %dx%d:", least,
          least, N, N);
  bool any = false;
  for (int t = 0; t < T; t++)
    if (!tilesat_analysis_tile_appears(a, t)) {
      fputc(' ', out);
      fputs(listed_name(r, t), out);
      any = true;
    }
  fputs(any ? "\n" : " none\n", out);
  write_size_table(a, out);
  write_by_width(a, out);
  const tilesat_explanation *why = ai.explanation;
  if (!ai.hard) {
    fprintf(out,
            "\nEvery square size up to %dx%d has a map: these rules can fill "
            "a level that large (--max N asks about larger ones).\n",
            N, N);
    return ferror(out) ? -1 : 0;
  }
  const tilesat_map *hard = explanation_info(why).map;
  fprintf(out,
          "\nHard: no %dx%d map exists.  The smallest size without a map is "
          "%dx%d:\n\n",
          N, N, map_info(hard).width, map_info(hard).height);
  report_explanation(why, NULL, out);
  return ferror(out) ? -1 : 0;
}
