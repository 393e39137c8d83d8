/* cmd_collapse.c: tilesat collapse RULES --size WxH: Wave Function Collapse
 * as WFC runs it.  One run: SAT and the map (exit 10), or where it hit a
 * contradiction (exit 0: a failed run proves nothing about the rules).
 * -n RUNS: seeds S, S+1, ...: successes, contradictions with a 95%
 * interval, the median time of a run, and with --png a heat map of where
 * the contradictions happened. */
#include "cli.h"
#include "reply.h"
#include "report.h"

#include <cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Where the contradictions happened: tilesat_heat_map (16x16 pixels a
 * cell, white to red, with its colour scale), at most 2^26 pixels as every
 * picture: checked before the runs. */
static bool heat_map_fits(const options *o, const tilesat_map *m) {
  return tilesat_heat_map_drawn_fits(m, (long)o->nsamples, (int)o->scale);
}

static int heat_map(options *o, const tilesat_map *m, const long *hits) {
  const tilesat_pictures *pics;
  if (load_pictures(o, &pics))
    return EXIT_ERROR;
  tilesat_image *img =
      tilesat_heat_map_drawn(m, pics, hits, (long)o->nsamples, (int)o->scale);
  if (img)
    pins_cut_notice(o, tilesat_heat_map_pins_cut(m, pics, (long)o->nsamples,
                                                 (int)o->scale));
  int rc = image_png(o->png, img);
  tilesat_image_free(img);
  return rc;
}

static bool json_output(const options *o) {
  return o->format && !strcmp(o->format, "json");
}

/* What the map's constraints ask of the run: the guard's solver keeps
 * connected and path constraints best with CaDiCaL (unless --backend
 * says otherwise); --explain replays doomed sets through trace, which
 * keeps borders alone.  0, or EXIT_ERROR (said). */
static int collapse_map_ok(const options *o, const tilesat_map *m,
                           tilesat_collapse_options *co) {
  lazy_backend(o, m, &co->solve);
  tilesat_error err;
  if (o->explain &&
      tilesat_map_refuse_globals(m, 1u << TILESAT_GLOBAL_BORDER,
                                 "collapse --explain", NULL, &err))
    return fail_err(&err);
  return 0;
}

/* The map's collapser: for --guard modify (and auto past the whole map's
 * bound, which goes by modify at once) one without a table of the map's
 * cells; NULL with err. */
static tilesat_collapse *collapser(const tilesat_map *m,
                                   const tilesat_collapse_options *co,
                                   tilesat_error *err) {
  bool modify = co->guard == TILESAT_GUARD_MODIFY ||
                (co->guard == TILESAT_GUARD_AUTO && map_info(m).large);
  return modify ? tilesat_collapse_new_modify(m, err)
                : tilesat_collapse_new(m, err);
}

/* How one run ended: its result, and (UNKNOWN) a global constraint it could
 * not keep, and a finished map that breaks one (an unguarded run's
 * connected or path constraint). */
typedef struct run_end {
  int res, bad;  /* bad: the contradiction's cell, or -1 */
  int chain_end; /* --explain: where its steps end, or -1 */
  size_t choices;
  const char *why;
  bool broken;
} run_end;

/* A run that found no map writes no Tiled map: said, not skipped. */
static void say_no_map(const options *o, const run_end *e) {
  if (o->tmx || o->tmj)
    fail("collapse: %s%s%s not written: %s", o->tmx ? o->tmx : "",
         o->tmx && o->tmj ? " and " : "", o->tmj ? o->tmj : "",
         e->res == TILESAT_UNSAT ? "there is no map"
         : e->broken             ? "the map breaks a constraint"
                                 : "the run contradicted, there is no map");
  if (o->png && e->bad < 0 && !e->broken) /* no wave to draw either */
    fprintf(stderr,
            "tilesat: --png: no map to draw: %s not written (tilesat explain "
            "says why there is none)\n",
            o->png);
}

/* What --guard modify did (or auto, by modify), on stderr. */
static void say_modify(const tilesat_modify_stats *stp, tilesat_guard g) {
  tilesat_modify_stats st = *stp;
  char from[64] = "the whole map's SAT";
  if (st.pattern_rows)
    snprintf(from, sizeof from, "a %dx%d periodic pattern", st.pattern_cols,
             st.pattern_rows);
  char counts[64] = "", went[160] = "";
  if (g != TILESAT_GUARD_MODIFY && st.past_bound)
    snprintf(went, sizeof went,
             "auto went by modify (the map is too large for the whole map's "
             "tables): ");
  else if (g != TILESAT_GUARD_MODIFY)
    snprintf(went, sizeof went,
             "auto went on by modify (%s): ", st.auto_why ? st.auto_why : "");
  if (st.count_windows)
    snprintf(counts, sizeof counts, ", %ld count windows", st.count_windows);
  fprintf(stderr,
          "tilesat: collapse: guard: %smodify from %s, %ld pin and border "
          "windows%s, %ld blocks redone (%ld by WFC, %ld by SAT), %ld kept\n",
          went, from, st.pin_windows, counts, st.wfc + st.sat, st.wfc, st.sat,
          st.kept);
}

/* What the guard did in the last run, on stderr. */
static void say_guard(const tilesat_map *m, const tilesat_collapse *c,
                      tilesat_guard g) {
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  if (ci.modify.used) {
    say_modify(&ci.modify, g);
    return;
  }
  const tilesat_map_info mi = map_info(m);
  long cells = (long)mi.width * mi.height;
  long resolved = ci.resolved;
  long starts = ci.restarts;
  char more[256] = "";
  const char *why = ci.restart_why;
  if (starts)
    snprintf(more, sizeof more, ", %ld new %s from another seed (%s%s)", starts,
             starts == 1 ? "start" : "starts",
             starts == 1 ? "" : "the last: ", why ? why : "");
  long bans = ci.banned, repairs = ci.repairs;
  fprintf(stderr,
          "tilesat: collapse: guard: %ld exact ban%s, %ld block repair%s (%ld "
          "cells re-solved, %.1f%% of the map), %ld solver calls%s\n",
          bans, plural((double)bans), repairs, plural((double)repairs),
          resolved, 100.0 * (double)resolved / (double)cells, ci.solver_calls,
          more);
}

/* A guarded run found no map: where, as check says it (the window with no
 * filling that refutes it, found by check's windows when the run's guard
 * had none), the pins in that window, and what says why. */
static void say_unsat(const options *o, const tilesat_map *m,
                      const tilesat_collapse *c,
                      const tilesat_collapse_options *co) {
  tilesat_check_answer how = {.by = TILESAT_BY_CNF, .cell = -1};
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  int w[4] = {0, 0, 0, 0};
  if (ci.unsat_window) {
    how.by = TILESAT_BY_WINDOW;
    w[0] = ci.row0;
    w[1] = ci.col0;
    w[2] = ci.rows;
    w[3] = ci.cols;
  } else if (map_info(m).npins) { /* windows around the pins first */
    tilesat_check_options ch;
    tilesat_check_options_init(&ch);
    ch.solve = co->solve;
    ch.solve.progress = NULL;
    ch.seed = o->seed;
    tilesat_error err;
    if (tilesat_check_portfolio(m, &ch, NULL, &how, &err) != TILESAT_UNSAT)
      how.by = TILESAT_BY_CNF;
    w[0] = how.row0;
    w[1] = how.col0;
    w[2] = how.rows;
    w[3] = how.cols;
  }
  how.row0 = w[0];
  how.col0 = w[1];
  how.rows = w[2];
  how.cols = w[3];
  char *text = unsat_words(m, &how);
  if (!text)
    return;
  fail("collapse: UNSAT: %s; 'tilesat explain' with the same options says "
       "why",
       text);
  free(text);
}

/* One run's answer, described once: the text's lines and the JSON
 * document's members. */
static void run_reply(reply *rp, const options *o, const tilesat_map *m,
                      const tilesat_collapse *c,
                      const tilesat_collapse_options *co, const int *tiles,
                      const run_end *e) {
  int w = map_info(m).width;
  if (e->res == TILESAT_SAT) {
    reply_string(rp, "result", "SAT", "SAT\n");
  } else if (e->res == TILESAT_UNSAT) {
    reply_string(rp, "result", "UNSAT", "UNSAT\n");
  } else if (e->broken) { /* the map WFC made, and what it breaks */
    reply_string(rp, "result", "broken",
                 "broken after %zu choice%s (seed %" PRIu64 "): %s\n",
                 e->choices, plural((double)e->choices), o->seed, e->why);
  } else {
    reply_string(rp, "result", "contradiction",
                 "contradiction at (%d,%d) after %zu choice%s (seed %" PRIu64
                 ")%s%s",
                 e->bad / w, e->bad % w, e->choices, plural((double)e->choices),
                 o->seed, e->why ? ": " : "", e->why ? e->why : "");
    if (e->chain_end >= 0 && e->chain_end != e->bad)
      reply_text(rp,
                 "; the steps below end at (%d,%d), where propagation from "
                 "its doomed set alone first empties a cell",
                 e->chain_end / w, e->chain_end % w);
    reply_text(rp, "\n");
  }
  reply_number(rp, "seed", (double)o->seed, NULL);
  reply_number(rp, "choices", (double)e->choices, NULL);
  if (co->guard) {
    tilesat_collapse_info ci;
    tilesat_collapse_get(c, &ci);
    reply_number(rp, "banned", (double)ci.banned, NULL);
    reply_number(rp, "solver_calls", (double)ci.solver_calls, NULL);
    reply_number(rp, "repairs", (double)ci.repairs, NULL);
    reply_number(rp, "resolved", (double)ci.resolved, NULL);
    reply_number(rp, "restarts", (double)ci.restarts, NULL);
  }
  if (e->res == TILESAT_SAT || e->broken)
    reply_map(rp, "map", m, tiles, !o->quiet);
  if (e->why)
    reply_string(rp, "why", e->why, NULL);
  if (e->bad >= 0)
    reply_cell(rp, "contradiction", e->bad / w, e->bad % w, NULL);
}

/* One run: the map, UNSAT, or where it contradicted (and --explain); a
 * map that breaks a constraint is printed and drawn (--png), not written
 * as a Tiled map. */
static int one_run(options *o, const tilesat_map *m, tilesat_collapse *c,
                   const tilesat_collapse_options *co, int *tiles) {
  tilesat_error err;
  run_end e = {.res = tilesat_collapse_run(c, co, tiles, &err)};
  if (e.res < 0)
    return fail_solve(o, &err);
  if (co->guard)
    say_guard(m, c, co->guard);
  if (e.res == TILESAT_UNSAT)
    say_unsat(o, m, c, co);
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  e.choices = ci.choices;
  e.bad = ci.contradiction;
  e.why = e.res == TILESAT_UNKNOWN ? ci.why : NULL;
  e.broken = e.why && e.bad < 0;
  bool explain = e.res != TILESAT_SAT && e.bad >= 0 && o->explain;
  char cost[512];
  if (explain &&
      tilesat_collapse_explain_cost(c, &co->solve, cost, sizeof cost))
    fprintf(stderr, "tilesat: %s\n", cost);
  if (explain && tilesat_collapse_explain(c, &co->solve, &err))
    return fail_solve(o, &err);
  e.chain_end = explain ? collapse_chain_end(m, c) : -1;
  cJSON *doc = json_output(o) ? cJSON_CreateObject() : NULL;
  stop_hold(); /* the map whole */
  reply rp = reply_for(doc);
  run_reply(&rp, o, m, c, co, tiles, &e);
  reply_end(&rp);
  stop_release();
  int out = 0;
  if (e.res != TILESAT_SAT)
    say_no_map(o, &e);
  if (e.res == TILESAT_SAT)
    out = map_outputs(o, m, tiles);
  else if (explain)
    out = collapse_explain(o, m, c, doc);
  else if ((e.bad >= 0 || e.broken) && o->png)
    out = collapse_failure_png(o, m, c);
  if (doc && !out)
    out = report_json_print(doc);
  else
    cJSON_Delete(doc);
  int rc = e.res == TILESAT_SAT || e.res == TILESAT_UNSAT ? e.res : 0;
  return out ? EXIT_ERROR : rc;
}

/* What -n RUNS found. */
typedef struct stats {
  long n, ok, unsat, banned, repairs, resolved, broken;
  double median, lo, hi;    /* seconds; the contradiction rate's interval */
  double blo, bhi;          /* the broken maps' */
  long *hits;               /* per cell: contradictions there */
  doom_summary *doomed;     /* -n --explain: the failed runs' doomed sets */
  tilesat_advisor *advisor; /* and what to change (tilesat_advise) */
} stats;

/* -n: each progress line says which run it is ("run k of N, about T
 * left"), the run's own lines after it. */
typedef struct run_say {
  void *pr; /* parse_backend's count_progress: one clock */
  char head[128];
} run_say;

static void say_in_run(void *user, const char *line) {
  const run_say *s = user;
  char buf[512];
  snprintf(buf, sizeof buf, "%s; %s", s->head, line);
  progress_report(s->pr, buf);
}

/* Runs seeds S .. S+n-1 of c, "[LABEL: ]run k of N" on the progress
 * lines; 0 or EXIT_ERROR (said). */
static int run_many(options *o, const tilesat_map *m, tilesat_collapse *c,
                    tilesat_collapse_options *co, long n, stats *st,
                    const char *label) {
  const tilesat_map_info mi = map_info(m);
  size_t cells = (size_t)mi.width * (size_t)mi.height;
  memset(st, 0, sizeof *st);
  st->n = n;
  st->hits = calloc(cells, sizeof *st->hits);
  double *times = malloc((size_t)n * sizeof *times);
  int *tiles = malloc(cells * sizeof *tiles);
  tilesat_error err;
  if (o->explain) {
    st->doomed = doom_summary_new(o, m, n);
    st->advisor = tilesat_advisor_new(m);
  }
  int rc = st->hits && times && tiles && (st->doomed || !o->explain)
               ? 0
               : EXIT_ERROR;
  if (rc)
    fail("out of memory");
  char what[64];
  snprintf(what, sizeof what, "%s%srun", label ? label : "", label ? ": " : "");
  double started = mono_seconds();
  tilesat_solve_options was = co->solve; /* given back at the end */
  run_say say = {co->solve.progress_user, ""};
  co->solve.progress = say_in_run;
  co->solve.progress_user = &say;
  for (long done = 0; done < n && !rc; done++) {
    if (co->solve.terminate(co->solve.terminate_user)) {
      snprintf(err.msg, sizeof err.msg, "collapse: interrupted");
      rc = fail_solve(o, &err);
      break;
    }
    runs_line(say.head, sizeof say.head, what, done + 1, n,
              done ? (mono_seconds() - started) / (double)done : -1);
    progress_report(say.pr, say.head);
    double t0 = mono_seconds();
    co->seed = o->seed + (uint64_t)done;
    int res = tilesat_collapse_run(c, co, tiles, &err);
    times[done] = mono_seconds() - t0;
    tilesat_collapse_info ci;
    tilesat_collapse_get(c, &ci);
    st->banned += ci.banned;
    st->repairs += ci.repairs;
    st->resolved += ci.resolved;
    if (res < 0)
      rc = fail_solve(o, &err);
    else if (res == TILESAT_SAT)
      st->ok++;
    else if (res == TILESAT_UNSAT)
      st->unsat++;
    else if (ci.contradiction < 0 && ci.why)
      st->broken++;
    else if (ci.contradiction >= 0) {
      st->hits[ci.contradiction]++;
      if (st->doomed && tilesat_collapse_explain(c, &co->solve, &err))
        rc = fail_solve(o, &err);
      else if (st->doomed) {
        doom_summary_add(st->doomed, o, c);
        tilesat_advisor_add(st->advisor, c);
      }
    }
  }
  if (!rc) {
    wilson95(n - st->ok - st->unsat - st->broken, n, &st->lo, &st->hi);
    wilson95(st->broken, n, &st->blo, &st->bhi);
    st->median = median_sorted(times, (size_t)n);
  }
  co->solve.progress = was.progress;
  co->solve.progress_user = was.progress_user;
  free(times);
  free(tiles);
  return rc;
}

/* The -n report, described once: the text's lines (unless a --sizes
 * row says them its own way: !say) and the JSON members (m: the map of
 * each run). */
static void stats_reply(reply *rp, const stats *st, uint64_t seed,
                        tilesat_guard guard, const tilesat_map *m, bool say) {
  long n = st->n, bad = n - st->ok - st->unsat - st->broken;
  uint64_t last = seed + (uint64_t)(n - 1);
  reply_number(rp, "runs", (double)n,
               say ? "runs: %ld (seeds %" PRIu64 " to %" PRIu64 ")\n" : NULL, n,
               seed, last);
  reply_number(rp, "first_seed", (double)seed, NULL);
  reply_number(rp, "successes", (double)st->ok, say ? "successes: %ld\n" : NULL,
               st->ok);
  reply_number(rp, "contradictions", (double)bad,
               say ? "contradictions: %ld (%.1f%%, 95%% interval %.1f%% to "
                     "%.1f%%)\n"
                   : NULL,
               bad, 100.0 * (double)bad / (double)n, 100 * st->lo,
               100 * st->hi);
  reply_number(rp, "rate", (double)bad / (double)n, NULL);
  reply_pair(rp, "interval95", st->lo, st->hi, NULL);
  reply_number(rp, "broken", (double)st->broken,
               say && st->broken
                   ? "broken: %ld (%.1f%%, 95%% interval %.1f%% to %.1f%%): "
                     "finished maps that break a connected or path "
                     "constraint\n"
                   : NULL,
               st->broken, 100.0 * (double)st->broken / (double)n,
               100 * st->blo, 100 * st->bhi);
  if (st->broken)
    reply_pair(rp, "broken_interval95", st->blo, st->bhi, NULL);
  reply_number(rp, "median_ms", 1000 * st->median,
               say ? "median time per run: %.3f ms\n" : NULL,
               1000 * st->median);
  if (guard)
    reply_number(rp, "banned", (double)st->banned,
                 say ? "banned choices: %ld\n" : NULL, st->banned);
  if (guard == TILESAT_GUARD_BLOCKS || guard == TILESAT_GUARD_AUTO) {
    reply_number(rp, "repairs", (double)st->repairs,
                 say ? "block repairs: %ld (%ld cells re-solved, %.1f%% of "
                       "the maps)\n"
                     : NULL,
                 st->repairs, st->resolved,
                 100.0 * (double)st->resolved /
                     ((double)n * map_info(m).width * map_info(m).height));
    reply_number(rp, "resolved", (double)st->resolved, NULL);
  }
}

/* The heat map's numbers, "contradiction_cells": where the contradictions
 * happened, [{"cell": [row, col], "count"}] (the text: the picture, --png). */
static void hits_reply(reply *rp, const tilesat_map *m, const long *hits) {
  const tilesat_map_info mi = map_info(m);
  int w = mi.width, cells = w * mi.height;
  reply_array(rp, "contradiction_cells", NULL);
  for (int k = 0; k < cells; k++)
    if (hits[k]) {
      reply *one = reply_array_item(rp);
      int row = k / w, col = k % w;
      reply_pair(one, "cell", row, col, NULL);
      reply_number(one, "count", (double)hits[k], NULL);
    }
}

static int many_runs(options *o, const tilesat_map *m, tilesat_collapse *c,
                     tilesat_collapse_options *co) {
  stats st;
  long n = (long)o->nsamples;
  int rc = run_many(o, m, c, co, n, &st, NULL);
  const tilesat_advice *advice = NULL;
  if (!rc && st.advisor) { /* the same seeds again, with each change */
    tilesat_error err;
    co->seed = o->seed;
    if (tilesat_advise(st.advisor, co, n, &advice, &err))
      rc = fail_solve(o, &err);
  }
  if (!rc) {
    cJSON *doc = json_output(o) ? cJSON_CreateObject() : NULL;
    stop_hold(); /* the report whole */
    reply rp = reply_for(doc);
    stats_reply(&rp, &st, o->seed, co->guard, m, true);
    hits_reply(&rp, m, st.hits);
    reply_end(&rp);
    if (st.doomed)
      doom_summary_report(st.doomed, doc);
    if (advice)
      advice_report(m, advice, doc);
    stop_release();
    if (doc)
      rc = report_json_print(doc);
  }
  if (!rc && o->png && heat_map(o, m, st.hits))
    rc = EXIT_ERROR;
  else if (!rc)
    rc = st.ok ? TILESAT_SAT : st.unsat ? TILESAT_UNSAT : 0;
  free(st.hits);
  doom_summary_free(st.doomed);
  tilesat_advisor_free(st.advisor);
  return rc;
}

/* The sizes of --sizes ("N" is NxN), all checked before any run: a
 * malloc'd array of *n, or NULL (said). */
static map_size *parse_sizes(const char *list, int *n) {
  map_size *v = calloc(strlen(list) / 2 + 1, sizeof *v);
  *n = 0;
  if (!v) {
    fail("out of memory");
    return NULL;
  }
  for (const char *tok = list; v; tok++) {
    size_t len = strcspn(tok, ",");
    char spec[64];
    if (len < 30)
      snprintf(spec, sizeof spec, memchr(tok, 'x', len) ? "%.*s" : "%.*sx%.*s",
               (int)len, tok, (int)len, tok);
    tilesat_error err;
    if (len == 0 || len >= 30 ||
        tilesat_parse_size(spec, &v[*n].w, &v[*n].h, &err)) {
      if (!*list)
        fail("--sizes: no size given (N or WxH, comma-separated)");
      else
        fail("--sizes: '%.*s' is not a size (N or WxH)", (int)len, tok);
      free(v);
      v = NULL;
    } else {
      ++*n;
    }
    tok += len;
    if (!*tok)
      break;
  }
  return v;
}

/* One row of the --sizes table, on the rules read once. */
static int size_row(options *o, const tilesat_rules *r,
                    tilesat_collapse_options *co, long n, bool *any,
                    cJSON *rows) {
  tilesat_map *m = NULL;
  tilesat_collapse *c = NULL;
  tilesat_error err;
  stats st = {0};
  int rc = map_of_rules(o, r, &m);
  if (!rc)
    rc = collapse_map_ok(o, m, co);
  if (!rc && !(c = collapser(m, co, &err)))
    rc = fail_err(&err);
  char size[32];
  snprintf(size, sizeof size, "%dx%d", o->size.w, o->size.h);
  if (!rc)
    rc = run_many(o, m, c, co, n, &st, size);
  if (!rc) { /* a row: in the text a line of the table, its columns */
    long bad = n - st.ok - st.unsat; /* contradictions and broken maps */
    double lo, hi;
    wilson95(bad, n, &lo, &hi);
    char iv[32];
    snprintf(iv, sizeof iv, "%.1f%% to %.1f%%", 100 * lo, 100 * hi);
    cJSON *row = rows ? cJSON_CreateObject() : NULL;
    stop_hold(); /* the row whole */
    reply rp = reply_for(row);
    reply_string(&rp, "size", size, "%-11s %6ld %8ld %6.1f%%  %-17s %.3f\n",
                 size, n, bad, 100.0 * (double)bad / (double)n, iv,
                 1000 * st.median);
    stats_reply(&rp, &st, o->seed, co->guard, m, false);
    reply_number(&rp, "failures", (double)bad, NULL);
    reply_pair(&rp, "failures_interval95", lo, hi, NULL);
    reply_end(&rp);
    stop_release();
    if (row)
      cJSON_AddItemToArray(rows, row);
    *any |= st.ok > 0;
  }
  free(st.hits);
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  return rc;
}

/* --sizes: one -n RUNS experiment per size, a table row each. */
static int sizes_table(options *o, tilesat_collapse_options *co) {
  long n = GIVEN(o, nsamples) ? (long)o->nsamples : 100;
  int nsizes;
  map_size *sizes = parse_sizes(o->sizes, &nsizes);
  if (!sizes)
    return EXIT_ERROR;
  /* every size's map made (its size, pins, mask, constraints checked)
   * before the first run, not after some rows; the rules read once */
  tilesat_rules *r = NULL;
  for (int i = 0; i < nsizes; i++) {
    tilesat_map *m = NULL;
    o->size = sizes[i];
    o->given[OPTION_size] = true;
    int rc = r ? map_of_rules(o, r, &m) : load_map(o, &r, &m);
    tilesat_map_free(m);
    if (rc) {
      tilesat_rules_free(r);
      free(sizes);
      return EXIT_ERROR;
    }
  }
  cJSON *doc = json_output(o) ? cJSON_CreateObject() : NULL;
  cJSON *rows = doc ? cJSON_AddArrayToObject(doc, "sizes") : NULL;
  if (!doc)
    printf("%-11s %6s %8s %7s  %-17s %s\n", "size", "runs", "failures", "rate",
           "95% interval", "median ms");
  int rc = 0;
  bool any = false;
  for (int i = 0; i < nsizes && !rc; i++) {
    o->size = sizes[i];
    o->given[OPTION_size] = true;
    rc = size_row(o, r, co, n, &any, rows);
  }
  tilesat_rules_free(r);
  free(sizes);
  if (doc && !rc)
    rc = report_json_print(doc);
  else
    cJSON_Delete(doc);
  return rc ? rc : any ? TILESAT_SAT : 0;
}

int cmd_collapse(options *o) {
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.notice = progress_notice;
  if (parse_backend(o, &co.solve)) /* the guard's, and Ctrl-C */
    return EXIT_ERROR;
  if (o->heuristic) /* one of the table's choices */
    tilesat_heuristic_parse(o->heuristic, &co.heuristic);
  co.seed = o->seed;
  if (o->guard) /* one of the table's choices */
    tilesat_guard_parse(o->guard, &co.guard);
  bool many = o->nsamples > 1 || o->sizes;
  if (many && (o->tmx || o->tmj)) {
    fail("--tmx and --tmj are for one run, not -n or --sizes");
    return EXIT_ERROR;
  }
  if (o->sizes) {
    if (GIVEN(o, size) || o->png || o->explain) {
      fail("--sizes runs its own sizes: no --size, --png or --explain with "
           "it");
      return EXIT_ERROR;
    }
    return sizes_table(o, &co);
  }
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_collapse *c = NULL;
  tilesat_error err;
  int rc = load_map(o, &r, &m);
  if (!rc && !many)
    rc = outputs_ready(o, m, false);
  if (!rc && many && o->png && !heat_map_fits(o, m)) {
    fail("%s: the heat map's picture would be too large (over 2^26 pixels)",
         o->png);
    rc = EXIT_ERROR;
  }
  if (!rc)
    rc = collapse_map_ok(o, m, &co);
  if (!rc && !(c = collapser(m, &co, &err)))
    rc = fail_err(&err);
  if (!rc && many) {
    rc = many_runs(o, m, c, &co);
  } else if (!rc) {
    const tilesat_map_info mi = map_info(m);
    size_t n = (size_t)mi.width * (size_t)mi.height;
    int *tiles = malloc(n * sizeof *tiles);
    rc = tiles ? one_run(o, m, c, &co, tiles) : EXIT_ERROR;
    free(tiles);
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return rc;
}
