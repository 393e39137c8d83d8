/* count.c: counting and sampling, whichever method fits. */
#include "count/count.h"

#include <stdlib.h>
#include <string.h>

static const char *const method_names[] = {"auto", "dp", "enum", "approx"};

const char *tilesat_method_name(tilesat_method m) { return method_names[m]; }

int tilesat_method_parse(const char *name, tilesat_method *out) {
  for (int i = 0; i < 4; i++)
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
}

/* auto: the dp failed (dperr) and approx takes over; said to the caller. */
static void fall_back(const tilesat_count_options *o,
                      const tilesat_error *dperr) {
  tilesat_progress_fn fn = o->notice ? o->notice : o->progress;
  if (!fn)
    return;
  char line[sizeof dperr->msg + 64];
  snprintf(line, sizeof line, "%s; falling back to approx", dperr->msg);
  fn(o->progress_user, line);
}

/* approx keeps the CNF beside a CryptoMiniSat solver that has it. */
static int approx_fits(const tilesat_map *m, const char *what,
                       tilesat_error *err) {
  tilesat_solve_options cms = {.backend = TILESAT_CRYPTOMINISAT};
  return ts_memory_check(m, &cms, ts_cnf_bytes(ts_cnf_measure(m)), what, err);
}

static int count_map(const tilesat_map *m, const tilesat_count_options *o,
                     tilesat_count_result *res, tilesat_error *err) {
  memset(res, 0, sizeof *res);
  mpz_t n;
  mpz_init(n);
  int rc = -1;
  tilesat_method method = o->method;
  if (method == TILESAT_METHOD_AUTO || method == TILESAT_METHOD_DP) {
    tilesat_error dperr;
    rc = ts_dp_count(m, o, n, &dperr);
    method = TILESAT_METHOD_DP;
    if (rc && o->method == TILESAT_METHOD_AUTO && !ts_terminated(&o->solve)) {
      fall_back(o, &dperr);
      method = TILESAT_METHOD_APPROX;
    } else if (rc && err) {
      *err = dperr;
    }
  }
  if (method == TILESAT_METHOD_ENUM) {
    int64_t k = tilesat_enumerate(m, &o->solve, 0, NULL, NULL, err);
    rc = k < 0 ? -1 : 0;
    if (ts_terminated(&o->solve)) {
      ts_error(err, "count", 0, "interrupted");
      rc = -1;
    }
    if (!rc)
      mpz_set_si(n, (long)k);
  }
  if (method == TILESAT_METHOD_APPROX) {
    rc = approx_fits(m, "count", err) ? -1 : ts_approx_count(m, o, n, err);
    res->approximate = true;
  }
  if (!rc) {
    res->count = mpz_get_str(NULL, 10, n);
    res->method = method;
  }
  mpz_clear(n);
  return rc;
}

void tilesat_count_result_free(tilesat_count_result *res) {
  if (!res)
    return;
  /* mpz_get_str allocates with GMP's allocator, the default being malloc */
  free(res->count);
  res->count = NULL;
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
  case TILESAT_METHOD_ENUM:
    ts_error(err, "sample", 0, "sample takes --method auto, dp or approx");
    return -1;
  case TILESAT_METHOD_AUTO:
    break;
  }
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
  fall_back(o, &dperr);
  return approx_fits(m, "sample", err) ? -1
                                       : ts_xor_sample(m, o, n, fn, user, err);
}

/* Global constraints: enumeration keeps every kind; the dp and approx keep
 * borders, as bans (ts_map_lowered), and refuse the rest. */
#define BORDERS (1u << TILESAT_GLOBAL_BORDER)

int tilesat_count(const tilesat_map *m, const tilesat_count_options *o,
                  tilesat_count_result *res, tilesat_error *err) {
  if (o->method == TILESAT_METHOD_ENUM)
    return count_map(m, o, res, err);
  memset(res, 0, sizeof *res);
  if (tilesat_map_refuse_globals(m, BORDERS, "count with the dp or approx",
                                 "; count --method enum can", err))
    return -1;
  tilesat_map *low = ts_map_lowered(m);
  int rc = count_map(low ? low : m, o, res, err);
  tilesat_map_free(low);
  return rc;
}

int tilesat_sample(const tilesat_map *m, const tilesat_count_options *o, int n,
                   tilesat_map_fn fn, void *user, tilesat_error *err) {
  if (tilesat_map_refuse_globals(m, BORDERS, "sample", NULL, err))
    return -1;
  tilesat_map *low = ts_map_lowered(m);
  int rc = sample_map(low ? low : m, o, n, fn, user, err);
  tilesat_map_free(low);
  return rc;
}
