/* count.c: counting and sampling, whichever method fits. */
#include "count/count.h"
#include "count/dp.h"
#include "wfc/wfc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_names[] = {
    "auto", "dp", "enum", "approx", "bounds", "chain", "estimate"};

const char *tilesat_method_name(tilesat_method m) { return method_names[m]; }

int tilesat_method_parse(const char *name, tilesat_method *out) {
  for (int i = 0; i < (int)(sizeof method_names / sizeof *method_names); i++)
    if (!strcmp(name, method_names[i])) {
      *out = (tilesat_method)i;
      return 0;
    }
  return -1;
}

void tilesat_count_options_init(tilesat_count_options *o) {
  memset(o, 0, sizeof *o);
  o->method = TILESAT_METHOD_AUTO;
  o->solve.backend = TILESAT_PICOSAT;
  o->epsilon = 0.8;
  o->delta = 0.2;
  o->tolerance = 6;
  o->seed = 1;
  o->max_memory = (size_t)4 << 30;
  o->bounds_seconds = 20;
  o->burn_in = 4;
  o->sweeps = 2;
}

/* A change of method, said to the caller: a notice, not throttled. */
static void tell(const tilesat_count_options *o, const char *line) {
  tilesat_progress_fn fn = o->notice ? o->notice : o->progress;
  if (fn)
    fn(o->progress_user, line);
}

/* auto: the dp failed (dperr) and `method` takes over; said to the
 * caller. */
static void fall_back(const tilesat_count_options *o,
                      const tilesat_error *dperr, const char *method) {
  char line[sizeof dperr->msg + 96];
  snprintf(line, sizeof line, "%s; falling back to %s", dperr->msg, method);
  tell(o, line);
}

/* approx keeps the CNF beside a CryptoMiniSat solver that has it. */
static int approx_fits(const tilesat_map *m, const char *what,
                       tilesat_error *err) {
  tilesat_solve_options cms = {.backend = TILESAT_CRYPTOMINISAT};
  return ts_memory_check(m, &cms, ts_cnf_bytes(ts_cnf_measure(m)), what, err);
}

/* auto's dp is predicted to take at most this long; beyond, bounds. */
#define AUTO_DP_SECONDS 60
/* auto first runs the dp this long (CPU seconds): what it counts by then
 * costs no prediction (timing strips costs up to 0.3 s a width, 10x the dp
 * on small maps); what it does not is at most this much lost. */
#define AUTO_DP_FIRST_SECONDS 0.5

/* The dp's progress lines under auto say why it runs. */
typedef struct why_dp {
  const tilesat_count_options *o;
  char why[160];
} why_dp;

static void dp_progress(void *user, const char *line) {
  const why_dp *w = user;
  char full[384];
  snprintf(full, sizeof full, "%s; %s", w->why, line);
  w->o->progress(w->o->progress_user, full);
}

/* Seconds in words; a prediction past 10^300 years (it overflows on maps
 * a thousand cells wide: "10^inf years" was printed) says so. */
void ts_say_seconds(double s, char *out, size_t len) {
  if (!(s < 1e300 * 365 * 86400))
    snprintf(out, len, "more than 10^300 years");
  else if (s < 120)
    snprintf(out, len, "%.2g s", s);
  else if (s < 7200)
    snprintf(out, len, "%.0f min", s / 60);
  else if (s < 2 * 86400)
    snprintf(out, len, "%.0f h", s / 3600);
  else if (s < 1e3 * 365 * 86400)
    snprintf(out, len, "%.0f days", s / 86400);
  else
    snprintf(out, len, "10^%.0f years", log10(s / (365 * 86400)));
}

/* "about " before a time in words, but "more than 10^300 years". */
static const char *about(const char *when) {
  return strncmp(when, "more ", 5) ? "about " : "";
}

/* The refutation's CPU seconds: half a second, and a little more on large
 * maps (a tenth for the windows at the pins, the rest for a guarded
 * collapse): Circuit 128x128 gets 0.6 s. */
static double refute_budget(const tilesat_map *m) {
  return 0.5 + 5e-8 * (double)m->ncells * (double)m->rules->ntiles;
}

/* A map check refutes has no valid map: 0, exactly, by every method (the
 * bounds and the estimate could not see it: "between 0 and 10^22").
 * Check's windows at the pins and its guarded collapse, within
 * refute_budget.  1 (refuted: n is 0, said on stderr), 0 (not), or -1 with
 * err (interrupted). */
static int refute(const tilesat_map *m, const tilesat_count_options *o, mpz_t n,
                  char *why, size_t whylen, tilesat_error *err) {
  char line[600];
  int res = ts_check_refute(m, &o->solve, refute_budget(m), why, whylen,
                            "count", err);
  if (res < 0)
    return -1;
  if (res != TILESAT_UNSAT)
    return 0;
  snprintf(line, sizeof line, "no valid map (%s): the count is 0", why);
  tell(o, line);
  mpz_set_ui(n, 0);
  return 1;
}

/* auto: the exact dp if it is predicted to finish soon (or has finished:
 * a map narrow enough is one of the strips probed), else bounds, else
 * approx.  Returns the method chosen; with DP, n holds the count. */
static tilesat_method auto_choose(const tilesat_map *m,
                                  const tilesat_count_options *o, ts_bounds *b,
                                  mpz_t n, int *rc, tilesat_error *err) {
  double seconds;
  char why[160], line[sizeof(tilesat_error){0}.msg + 64], when[48];
  tilesat_error perr;
  *rc = 0;
  int quick = ts_bounds_try_dp(b, AUTO_DP_FIRST_SECONDS, n, &perr);
  if (quick) {
    if (quick < 0) {
      *rc = -1;
      if (err)
        *err = perr;
    }
    return TILESAT_METHOD_DP;
  }
  if (ts_bounds_predict(b, &seconds, why, sizeof why, &perr)) {
    if (ts_terminated(&o->solve)) {
      *rc = -1;
      if (err)
        *err = perr;
      return TILESAT_METHOD_DP;
    }
    fall_back(o, &perr, "approx");
    return TILESAT_METHOD_APPROX;
  }
  if (ts_bounds_whole(b, n))
    return TILESAT_METHOD_DP;
  ts_say_seconds(seconds, when, sizeof when);
  if (seconds > AUTO_DP_SECONDS) {
    snprintf(line, sizeof line,
             "auto: the exact dp would take %s%s (%s): proved bounds "
             "instead",
             about(when), when, why);
    tell(o, line);
    return TILESAT_METHOD_BOUNDS;
  }
  tilesat_count_options dpo = *o;
  why_dp w = {o, ""};
  snprintf(w.why, sizeof w.why, "auto: the exact dp, predicted %s", when);
  if (o->progress) {
    dpo.progress = dp_progress;
    dpo.progress_user = &w;
  }
  tilesat_error dperr;
  if (!ts_dp_count(m, &dpo, n, &dperr))
    return TILESAT_METHOD_DP;
  if (ts_terminated(&o->solve)) {
    *rc = -1;
    if (err)
      *err = dperr;
    return TILESAT_METHOD_DP;
  }
  snprintf(line, sizeof line, "%s; proved bounds instead", dperr.msg);
  tell(o, line);
  return TILESAT_METHOD_BOUNDS;
}

static char *decimal(const mpz_t z) { return mpz_get_str(NULL, 10, z); }

static int count_bounds(ts_bounds *b, tilesat_count_result *res,
                        tilesat_error *err) {
  ts_bounds_result br;
  mpz_inits(br.lower, br.upper, NULL);
  int rc = ts_bounds_compute(b, &br, err);
  if (!rc) {
    res->lower = decimal(br.lower);
    res->upper = decimal(br.upper);
    res->lower_log2 = ts_log2(br.lower);
    res->upper_log2 = ts_log2(br.upper);
    snprintf(res->lower_why, sizeof res->lower_why, "%s", br.lower_why);
    snprintf(res->upper_why, sizeof res->upper_why, "%s", br.upper_why);
    if (!mpz_cmp(br.lower, br.upper))
      res->count = decimal(br.upper);
    /* The estimate (a point and its 95% error bar, by sampling) joins
     * here, beside the bounds: res->estimated, estimate_log10,
     * estimate_halfwidth. */
  }
  mpz_clears(br.lower, br.upper, NULL);
  return rc;
}

/* auto, beyond the dp: the estimate beside the proved bounds (a failed
 * estimate said, not an error).  0, or -1 with err (interrupted). */
static int estimate_beside(const tilesat_map *m, const tilesat_count_options *o,
                           tilesat_count_result *res, tilesat_error *err) {
  ts_estimate e;
  tilesat_error eerr;
  tilesat_count_options eo = *o;
  if (eo.estimate_seconds <= 0)
    eo.estimate_seconds = AUTO_DP_SECONDS;
  int R, n;
  ts_estimate_size(m, o, &R, &n);
  char line[sizeof eerr.msg + 32], limit[48], low[32] = "0";
  ts_say_seconds(eo.estimate_seconds, limit, sizeof limit);
  if (res->lower_log2 > -INFINITY)
    snprintf(low, sizeof low, "10^%.1f",
             floor(res->lower_log2 * log10(2.0) * 10) / 10);
  snprintf(line, sizeof line,
           "auto: proved bounds ready (between %s and 10^%.1f); an "
           "estimate beside them next: %d replicates of %d particles over "
           "%d cells, left out if predicted past %s (--method bounds "
           "answers with the bounds alone)",
           low, ceil(res->upper_log2 * log10(2.0) * 10) / 10, R, n, m->ncells,
           limit);
  tell(o, line);
  if (!ts_estimate_count(m, &eo, &e, &eerr)) {
    res->estimated = true;
    res->estimate_log10 = e.log10;
    res->estimate_halfwidth = e.half_width;
  } else if (ts_terminated(&o->solve)) {
    if (err)
      *err = eerr;
    return -1;
  } else if (e.over_time) { /* said as auto's, without "count: " */
    const char *msg = eerr.msg;
    tell(o, strncmp(msg, "count: ", 7) ? msg : msg + 7);
  } else {
    snprintf(line, sizeof line, "%s; no estimate", eerr.msg);
    tell(o, line);
  }
  return 0;
}

static int count_method(const tilesat_map *m, const tilesat_count_options *o,
                        tilesat_count_result *res, tilesat_error *err) {
  memset(res, 0, sizeof *res);
  mpz_t n;
  mpz_init(n);
  int rc = -1;
  tilesat_method method = o->method;
  ts_bounds *b = NULL;
  bool one_line =
      (method == TILESAT_METHOD_AUTO || method == TILESAT_METHOD_DP) &&
      m->rules->ntiles > DP_MAX_TILES;
  if (one_line) {
    /* past the dp's tiles: a line exactly, or a refusal, never approx
     * without a time bound */
    rc = ts_line_count(m, o, method == TILESAT_METHOD_AUTO, n, err);
    if (!rc)
      res->count = decimal(n);
    method = TILESAT_METHOD_DP;
  } else if (method == TILESAT_METHOD_AUTO || method == TILESAT_METHOD_BOUNDS) {
    b = ts_bounds_new(m, o);
  }
  if (method == TILESAT_METHOD_AUTO) {
    method = auto_choose(m, o, b, n, &rc, err);
    if (rc)
      method = TILESAT_METHOD_AUTO; /* interrupted: nothing more */
    else if (method == TILESAT_METHOD_DP)
      res->count = decimal(n);
  } else if (method == TILESAT_METHOD_DP && !one_line) {
    rc = ts_dp_count(m, o, n, err);
    if (!rc)
      res->count = decimal(n);
  }
  if (method == TILESAT_METHOD_CHAIN)
    ts_error(err, "count", 0,
             "count takes --method auto, dp, enum, approx, bounds or "
             "estimate");
  if (method == TILESAT_METHOD_ENUM) {
    int64_t k = tilesat_enumerate(m, &o->solve, 0, NULL, NULL, err);
    rc = k < 0 ? -1 : 0;
    if (ts_terminated(&o->solve)) {
      ts_error(err, "count", 0, "interrupted");
      rc = -1;
    }
    if (!rc) {
      mpz_set_si(n, (long)k);
      res->count = decimal(n);
    }
  }
  if (method == TILESAT_METHOD_ESTIMATE) {
    ts_estimate e;
    rc = ts_estimate_count(m, o, &e, err);
    res->estimated = true;
    res->estimate_log10 = e.log10;
    res->estimate_halfwidth = e.half_width;
  }
  if (method == TILESAT_METHOD_APPROX) {
    rc = approx_fits(m, "count", err) ? -1 : ts_approx_count(m, o, n, err);
    res->approximate = true;
    if (!rc)
      res->count = decimal(n);
  }
  if (method == TILESAT_METHOD_BOUNDS)
    rc = count_bounds(b, res, err);
  ts_bounds_free(b);
  /* auto, beyond the dp: the estimate beside the proved bounds */
  if (!rc && method == TILESAT_METHOD_BOUNDS &&
      o->method == TILESAT_METHOD_AUTO && !res->count)
    rc = estimate_beside(m, o, res, err);
  mpz_clear(n);
  if (rc)
    tilesat_count_result_free(res);
  else
    res->method = method;
  return rc;
}

/* Every method but enum (itself a refutation): a map check refutes counts
 * 0, exactly (auto's answer then by the dp). */
static int count_map(const tilesat_map *m, const tilesat_count_options *o,
                     tilesat_count_result *res, tilesat_error *err) {
  if (o->method == TILESAT_METHOD_ENUM || o->method == TILESAT_METHOD_CHAIN)
    return count_method(m, o, res, err);
  memset(res, 0, sizeof *res);
  mpz_t n;
  mpz_init(n);
  char why[300];
  int refuted = refute(m, o, n, why, sizeof why, err);
  if (refuted > 0) {
    /* what the method says, met: bounds 0 and 0, an estimate of 0 */
    res->count = decimal(n);
    res->method =
        o->method == TILESAT_METHOD_AUTO ? TILESAT_METHOD_DP : o->method;
    if (o->method == TILESAT_METHOD_BOUNDS) {
      res->lower = decimal(n);
      res->upper = decimal(n);
      res->lower_log2 = res->upper_log2 = -INFINITY;
      snprintf(res->lower_why, sizeof res->lower_why, "trivial");
      snprintf(res->upper_why, sizeof res->upper_why,
               "proved: no valid map (%s)", why);
    }
    if (o->method == TILESAT_METHOD_ESTIMATE) {
      res->estimated = true;
      res->estimate_log10 = -INFINITY;
    }
  }
  mpz_clear(n);
  return refuted ? (refuted < 0 ? -1 : 0) : count_method(m, o, res, err);
}

void tilesat_count_result_free(tilesat_count_result *res) {
  if (!res)
    return;
  /* mpz_get_str allocates with GMP's allocator, the default being malloc */
  free(res->count);
  free(res->lower);
  free(res->upper);
  res->count = res->lower = res->upper = NULL;
}

/* Counts the maps handed on, so that auto falls back only when none were. */
typedef struct relay {
  tilesat_map_fn fn;
  void *user;
  int delivered;
} relay;

static int relay_map(void *user, const int *tiles) {
  relay *r = user;
  r->delivered++;
  return r->fn ? r->fn(r->user, tiles) : 0;
}

/* An exact draw predicted this long is said before it starts. */
#define SAY_DP_SECONDS 10

/* The dp's memory bound: the smaller of the options' and the map's. */
static size_t dp_bound(const tilesat_map *m, const tilesat_count_options *o) {
  return o->max_memory < m->max_memory ? o->max_memory : m->max_memory;
}

/* The exact draw's cost, predicted (dp_cost.c): *over is 0 when it fits
 * the memory bound and a minute, 1 past the memory, 2 past the minute;
 * line says so.  0, 1 (no prediction: the dp refuses a strip) or -1
 * (interrupted, err). */
static int dp_cost(const tilesat_map *m, const tilesat_count_options *o,
                   const char *noun, int *over, double *seconds, char *line,
                   size_t len, tilesat_error *err) {
  ts_dp_cost c;
  int rc = ts_dp_sample_cost(m, o, &c, err);
  if (rc)
    return rc;
  *seconds = c.seconds;
  char text[400], when[48], bound[48];
  ts_dp_cost_text(&c, text, sizeof text);
  ts_dp_bytes_text(log10((double)dp_bound(m, o)), bound, sizeof bound);
  ts_say_seconds(c.seconds, when, sizeof when);
  *over = c.log10_bytes > log10((double)dp_bound(m, o)) ? 1
          : c.seconds > AUTO_DP_SECONDS                 ? 2
                                                        : 0;
  if (*over == 1)
    snprintf(line, len,
             "the exact %s (dp) would hold %s, past the dp's --max-memory %s",
             noun, text, bound);
  else
    snprintf(line, len, "the exact %s (dp) would take %s%s, holding %s", noun,
             about(when), when, text);
  return 0;
}

static int sample_cost(const tilesat_map *m, const tilesat_count_options *o,
                       int *over, double *seconds, char *line, size_t len,
                       tilesat_error *err) {
  return dp_cost(m, o, "draw", over, seconds, line, len, err);
}

/* auto: the exact draw's cost predicted first; past the memory bound or
 * a minute, the chain at once, said with the prediction (Knots 32x32
 * spent 60 s and 4 GB in the dp before falling back).  1: the chain, 0:
 * the dp, -1: interrupted (err). */
static int sample_choose(const tilesat_map *m, const tilesat_count_options *o,
                         tilesat_error *err) {
  int over = 0;
  char line[600], full[700];
  double seconds = 0;
  int rc = sample_cost(m, o, &over, &seconds, line, sizeof line, err);
  if (rc)
    return rc < 0 ? -1 : 0;
  if (!over) {
    if (seconds >= SAY_DP_SECONDS) { /* a long draw is said before it */
      snprintf(full, sizeof full, "sample: auto: %s: drawing exactly", line);
      tell(o, full);
    }
    return 0;
  }
  snprintf(full, sizeof full,
           "sample: auto: %s: drawing by the chain (block Markov chain) "
           "instead",
           line);
  tell(o, full);
  return 1;
}

static int sample_map(const tilesat_map *m, const tilesat_count_options *o,
                      int n, tilesat_map_fn fn, void *user,
                      tilesat_error *err) {
  switch (o->method) {
  case TILESAT_METHOD_DP:
    return ts_dp_sample(m, o, n, fn, user, err);
  case TILESAT_METHOD_APPROX:
    return approx_fits(m, "sample", err)
               ? -1
               : ts_xor_sample(m, o, n, fn, user, err);
  case TILESAT_METHOD_CHAIN:
    return ts_chain_sample(m, o, n, fn, user, err);
  case TILESAT_METHOD_ENUM:
  case TILESAT_METHOD_BOUNDS:
  case TILESAT_METHOD_ESTIMATE:
    ts_error(err, "sample", 0,
             "sample takes --method auto, dp, approx or chain");
    return -1;
  case TILESAT_METHOD_AUTO:
    break;
  }
  int pick = sample_choose(m, o, err);
  if (pick)
    return pick < 0 ? -1 : ts_chain_sample(m, o, n, fn, user, err);
  tilesat_error dperr;
  /* the DP fails (memory bound, too many tiles) before it draws anything,
   * as its layers are all built first; after any map, no fall-back */
  relay r = {fn, user, 0};
  int got = ts_dp_sample(m, o, n, relay_map, &r, &dperr);
  if (got >= 0 || r.delivered || ts_terminated(&o->solve)) {
    if (got < 0 && err)
      *err = dperr;
    return got;
  }
  fall_back(o, &dperr, "chain (block Markov chain)");
  return ts_chain_sample(m, o, n, fn, user, err);
}

/* Global constraints: enumeration keeps every kind; the dp counts and
 * samples with borders (as bans, ts_map_lowered), counts, connectivity
 * and masks (dp_global.c); bounds, the estimate, approx and the chain
 * keep borders alone. */
#define BORDERS (1u << TILESAT_GLOBAL_BORDER)
#define DP_COUNTS                                                              \
  (BORDERS | 1u << TILESAT_GLOBAL_COUNT | 1u << TILESAT_GLOBAL_CONNECTED |     \
   TILESAT_KEEPS_MASK)

/* Refuse what cmd ("count" or "sample") by o's method cannot keep; 0 when
 * it can, with *method o's, or the dp when auto must take it (it alone
 * keeps some of m's constraints). */
static int refuse_for(const tilesat_map *m, const tilesat_count_options *o,
                      const char *cmd, tilesat_method *method,
                      tilesat_error *err) {
  char what[96], hint[64];
  bool count = !strcmp(cmd, "count");
  const char *others =
      count ? "bounds, the estimate or approx" : "approx or the chain";
  *method = o->method;
  snprintf(what, sizeof what, "%s with the dp, %s", cmd, others);
  snprintf(hint, sizeof hint, "; %s --method enum can", cmd);
  if (tilesat_map_refuse_globals(m, DP_COUNTS, count ? what : cmd,
                                 count ? hint : NULL, err))
    return -1;
  if (!tilesat_map_refuse_globals(m, BORDERS, "", NULL, NULL))
    return 0;
  if (o->method == TILESAT_METHOD_AUTO || o->method == TILESAT_METHOD_DP) {
    *method = TILESAT_METHOD_DP;
    return 0;
  }
  snprintf(what, sizeof what, "%s with %s", cmd, others);
  snprintf(hint, sizeof hint, "; %s --method dp%s can", cmd,
           count ? " or enum" : "");
  return tilesat_map_refuse_globals(m, BORDERS, what, hint, err);
}

/* auto on a map only the dp keeps (its constraints), as sample_kept: the
 * cost predicted first (the sampler's dp on strips: count's seen key
 * merges more, so it holds at most that) and said before a long count,
 * with what else keeps the constraints (dungeon8 12x12, connected,
 * reached 1.9 GB without a word).  Never refused on the prediction: count
 * stops at --max-memory itself.  0 (go on), or -1 with err. */
static int count_kept(const tilesat_map *m, const tilesat_count_options *o,
                      tilesat_error *err) {
  int over = 0;
  double seconds = 0;
  char line[600], full[1000];
  int rc = dp_cost(m, o, "count", &over, &seconds, line, sizeof line, err);
  if (rc || (!over && seconds < SAY_DP_SECONDS))
    return rc < 0 ? -1 : 0;
  snprintf(full, sizeof full,
           "count: auto: %s (the sampler's dp: count's merges more states, "
           "so this is an upper bound); the dp is the one method that counts "
           "these constraints (--method enum keeps them too, listing every "
           "map)%s",
           line,
           over == 1 ? ": it will likely stop there; raise --max-memory or "
                       "count a smaller map"
                     : "");
  tell(o, full);
  return 0;
}

int tilesat_count(const tilesat_map *m, const tilesat_count_options *o,
                  tilesat_count_result *res, tilesat_error *err) {
  if (o->method == TILESAT_METHOD_ENUM)
    return count_map(m, o, res, err);
  memset(res, 0, sizeof *res);
  tilesat_count_options co = *o;
  if (refuse_for(m, o, "count", &co.method, err))
    return -1;
  tilesat_map *low = ts_map_lowered(m);
  int rc = 0;
  if (o->method == TILESAT_METHOD_AUTO && co.method == TILESAT_METHOD_DP)
    rc = count_kept(low ? low : m, &co, err);
  if (!rc)
    rc = count_map(low ? low : m, &co, res, err);
  tilesat_map_free(low);
  return rc;
}

int ts_count_dp_map(const tilesat_map *m, const tilesat_count_options *o,
                    tilesat_map **low, tilesat_error *err) {
  tilesat_method method;
  *low = NULL;
  if (refuse_for(m, o, "count", &method, err))
    return -1;
  *low = ts_map_lowered(m);
  return 0;
}

int ts_count_by_set(const tilesat_map *m, const uint64_t *by,
                    const tilesat_count_options *o, tilesat_count_result *res,
                    char ***dist, tilesat_error *err) {
  memset(res, 0, sizeof *res);
  *dist = NULL;
  tilesat_count_options co = *o;
  if (o->method != TILESAT_METHOD_AUTO && o->method != TILESAT_METHOD_DP) {
    ts_error_param(err, "by-tile", "counts with the dp: --method auto or dp");
    return -1;
  }
  tilesat_map *low;
  if (ts_count_dp_map(m, &co, &low, err))
    return -1;
  int n = m->ncells;
  mpz_t count, *d = ts_malloc((size_t)(n + 1) * sizeof *d);
  mpz_init(count);
  for (int k = 0; k <= n; k++)
    mpz_init(d[k]);
  int rc = ts_dp_count_by_tile(low ? low : m, &co, by, count, d, err);
  if (!rc) {
    res->method = TILESAT_METHOD_DP;
    res->count = decimal(count);
    *dist = ts_malloc((size_t)(n + 1) * sizeof **dist);
    for (int k = 0; k <= n; k++)
      (*dist)[k] = decimal(d[k]);
  }
  for (int k = 0; k <= n; k++)
    mpz_clear(d[k]);
  free(d);
  mpz_clear(count);
  tilesat_map_free(low);
  return rc;
}

int tilesat_count_by_tile(const tilesat_map *m, const char *cls,
                          const tilesat_count_options *o,
                          tilesat_count_result *res, char ***dist,
                          tilesat_error *err) {
  memset(res, 0, sizeof *res);
  *dist = NULL;
  if (o->method != TILESAT_METHOD_AUTO && o->method != TILESAT_METHOD_DP) {
    ts_error_param(err, "by-tile", "counts with the dp: --method auto or dp");
    return -1;
  }
  uint64_t *by = ts_class_parse(m, cls, "by-tile", err);
  if (!by) {
    ts_error_mark_param(err, "by-tile");
    return -1;
  }
  int rc = ts_count_by_set(m, by, o, res, dist, err);
  free(by);
  return rc;
}

void tilesat_count_by_tile_free(const tilesat_map *m, char **dist) {
  for (int k = 0; dist && k <= m->ncells; k++)
    free(dist[k]);
  free(dist);
}

/* auto on a map only the dp keeps (its constraints): the cost predicted
 * first, refused at once past the memory bound, said past a minute
 * (dungeon8 16x12, connected, reached 2.5 GB at cell 16 of 192 without a
 * word).  0 (go on), or -1 with err. */
static int sample_kept(const tilesat_map *m, const tilesat_count_options *o,
                       tilesat_error *err) {
  int over = 0;
  double seconds = 0;
  char line[600], full[700];
  int rc = sample_cost(m, o, &over, &seconds, line, sizeof line, err);
  if (rc || (!over && seconds < SAY_DP_SECONDS))
    return rc < 0 ? -1 : 0;
  if (over == 1) {
    ts_error(err, "sample", 0,
             "%s; the dp is the one method that keeps these constraints: "
             "raise --max-memory, draw a smaller map, or try it regardless "
             "with --method dp",
             line);
    return -1;
  }
  snprintf(full, sizeof full,
           "sample: auto: %s; the dp is the one method that keeps these "
           "constraints",
           line);
  if (!over)
    snprintf(full, sizeof full, "sample: auto: %s: drawing exactly", line);
  tell(o, full);
  return 0;
}

int tilesat_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                   tilesat_map_fn fn, void *user, tilesat_error *err) {
  tilesat_count_options so = *o;
  if (refuse_for(m, o, "sample", &so.method, err))
    return -1;
  tilesat_map *low = ts_map_lowered(m);
  int rc = 0;
  if (o->method == TILESAT_METHOD_AUTO && so.method == TILESAT_METHOD_DP)
    rc = sample_kept(low ? low : m, &so, err);
  if (!rc)
    rc = sample_map(low ? low : m, &so, n, fn, user, err);
  tilesat_map_free(low);
  return rc;
}
