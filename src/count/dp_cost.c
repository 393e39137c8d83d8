/* dp_cost.c: what the exact draw (sample's dp) would cost on a map,
 * predicted before it starts, from the dp on strips of the map.
 *
 * The dp's largest layer grows about geometrically with its frontier,
 * the line of cells across the map it keeps (the map's width, or its
 * height in column order; twice that on a periodic map, whose first line
 * stays in the key).  Free strips k = 1, 2, ... cells wide and a few
 * lines long (no pins or bans; the map's connected constraints kept, as
 * their labels are much of the key) are drawn by the sampler's own dp
 * with its plain key, in the order whose frontier is k, until the next
 * strip's work would pass a fixed budget of states: their largest layers
 * P_1, P_2, ... give the growth g = P_k / P_(k-1) a cell, and the map's
 * largest layer is about P_k g^(F - k).  Both orders are tried on square
 * maps (coast's columns are nearly free where its rows are not) and the
 * smaller is kept, as the dp keeps the order with fewer states.
 *
 * Everything but the seconds is made of state counts, so the same map
 * gets the same prediction on every machine: memory, the reason that
 * matters most (Knots 32x32 needs 2^33 states), is said exactly. */
#include "count/count.h"
#include "count/dp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* States the strips may build in all (each axis): about 0.2 s. */
#define COST_WORK 1000000.0
/* The draw's time over its largest layer times its cells at the strips'
 * rate: calibrated on Knots 16x16, Castle 6x6 and 7x7, Circuit 5x5 and
 * dungeon8 10x10 (the prediction 0.7 to 1.25 times the CPU the draw
 * took). */
#define SAMPLER_FACTOR 1.4
/* Seconds a state and step at the least (src/count/README.md: about
 * 200 ns on the WFC tilesets; strips in cache run faster). */
#define MIN_STEP_SECONDS 1e-7

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What a strip's dp built: its largest layer, the states of all its
 * layers, and a cap past which it stops. */
typedef struct strip_stats {
  size_t largest;
  double work;
  size_t cap;
  bool capped;
} strip_stats;

static bool strip_built(ts_dp *s, int pos, const ts_dp_layer *l,
                        tilesat_error *err) {
  (void)pos;
  (void)err;
  strip_stats *st = s->built_user;
  if (l->n > st->largest)
    st->largest = l->n;
  st->work += (double)l->n;
  if (l->n <= st->cap)
    return true;
  st->capped = true;
  return false;
}

/* The map's connected constraints on the strip (the class, no cell to
 * hold): their labels make much of the dp's key. */
static void copy_connected(const tilesat_map *m, tilesat_map *strip) {
  size_t words = (size_t)m->rules->words;
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (g->kind != TILESAT_GLOBAL_CONNECTED)
      continue;
    ts_global c = *g;
    c.class = ts_malloc(words * sizeof *c.class);
    memcpy(c.class, g->class, words * sizeof *c.class);
    c.text = ts_strdup(g->text);
    c.origin = ts_strdup(g->origin);
    c.at = -1;
    memset(&c.cells, 0, sizeof c.cells);
    TS_PUSH(strip->globals, c);
  }
}

/* One strip: k cells across (the frontier) and `len` along, drawn by the
 * sampler's dp in the order whose lines are k long.  0 counted (st, *seconds
 * and *log2count set), 1 capped or refused, -1 interrupted (err). */
static int strip_run(const tilesat_map *m, const tilesat_count_options *o,
                     bool columns, int k, int len, strip_stats *st,
                     double *seconds, double *log2count, tilesat_error *err) {
  tilesat_error e;
  int w = columns ? len : k, h = columns ? k : len;
  tilesat_map *strip = tilesat_map_new(m->rules, w, h, m->topo, false, &e);
  if (!strip)
    return 1;
  tilesat_map_set_max_memory(strip, m->max_memory);
  copy_connected(m, strip);
  tilesat_count_options so = *o;
  so.progress = so.notice = NULL;
  ts_dp s;
  double t0 = cpu_now();
  int rc = 1;
  if (!ts_dp_open(&s, strip, &so, columns ? TS_DP_COLUMNS : TS_DP_ROWS,
                  "sample", NULL, &e)) {
    s.built = strip_built;
    s.built_user = st;
    const ts_dp_layer *last = NULL;
    if (ts_dp_start(&s, &s.layers[0], &e))
      last = ts_dp_run(&s, &s.layers[0], 0, strip->ncells, &e);
    if (last) {
      mpz_t total;
      mpz_init(total);
      ts_dp_layer_total_kept(&s, last, total);
      *log2count = ts_log2(total);
      mpz_clear(total);
      rc = 0;
    }
    ts_dp_free(&s);
  }
  *seconds = cpu_now() - t0;
  tilesat_map_free(strip);
  if (rc && ts_terminated(&o->solve)) {
    ts_error(err, "sample", 0, "interrupted");
    return -1;
  }
  return rc;
}

/* One axis: strips whose frontier runs across the map (columns false:
 * along its rows, `across` = the width).  0 with c filled, 1 when not
 * even a strip one cell wide could be drawn, -1 interrupted. */
static int axis_cost(const tilesat_map *m, const tilesat_count_options *o,
                     bool columns, ts_dp_cost *c, tilesat_error *err) {
  int across = columns ? m->height : m->width;
  int along = columns ? m->width : m->height;
  int F = m->periodic ? 2 * across : across;
  double spent = 0, bits_per_cell = 0, step = MIN_STEP_SECONDS;
  double ratio = 1; /* a strip's mean layer over its largest */
  memset(c, 0, sizeof *c);
  for (int k = 1; k <= across && k <= TS_BOUNDS_MAX_WIDTH; k++) {
    int len = along < k + 4 ? along : k + 4;
    double g = k >= 3 ? c->growth : 0;
    double guess = k == 1 ? 0 : (double)c->strip_states * (g > 1 ? g : 1);
    if (k > 2 && spent + guess * k * len > COST_WORK)
      break;
    strip_stats st = {0, 0, (size_t)(COST_WORK / 4), false};
    double secs, lg;
    int rc = strip_run(m, o, columns, k, len, &st, &secs, &lg, err);
    if (rc < 0)
      return -1;
    if (rc)
      break;
    spent += st.work;
    double prev = (double)c->strip_states;
    c->strip_states = st.largest;
    c->lines = k;
    c->growth = k == 1 ? (double)st.largest : (double)st.largest / prev;
    bits_per_cell = lg / ((double)k * len);
    ratio = st.work / ((double)st.largest * k * len);
    if (st.work > 1000)
      step = fmax(secs / st.work, MIN_STEP_SECONDS);
  }
  if (!c->lines)
    return 1;
  c->columns = columns;
  c->frontier = F;
  if (c->growth < 1)
    c->growth = 1;
  c->log10_states =
      log10((double)c->strip_states) + (F - c->lines) * log10(c->growth);
  /* two working layers of the largest: each entry its key (the frontier's
   * classes, a byte a cell, and a connected constraint's labels: as
   * many again) and its count (as wide as the map's count), and 8 bytes
   * of index at a load of 5/8 */
  int conn = 0;
  for (size_t i = 0; i < m->globals.n; i++)
    conn += m->globals.v[i].kind == TILESAT_GLOBAL_CONNECTED;
  double key = 8 * ceil((F + 2.0 + conn * (F + 1.0)) / 8);
  double limbs = ceil((bits_per_cell * m->ncells + 1) / 64);
  double per_state = 2 * (key + 8 * limbs + 8 / 0.625);
  c->log10_bytes = c->log10_states + log10(per_state);
  c->seconds = SAMPLER_FACTOR * step * ratio * (double)m->ncells *
               pow(10, fmin(c->log10_states, 300));
  return 0;
}

int ts_dp_sample_cost(const tilesat_map *m, const tilesat_count_options *o,
                      ts_dp_cost *out, tilesat_error *err) {
  ts_dp_cost rows, cols;
  int r = axis_cost(m, o, false, &rows, err);
  if (r < 0)
    return -1;
  /* hex maps: strips of columns only (a strip of rows starts on an even
   * row; the dp's column order is square maps') */
  int c = m->topo == TILESAT_SQUARE ? axis_cost(m, o, true, &cols, err) : 1;
  if (c < 0)
    return -1;
  if (r && c)
    return 1;
  *out = r ? cols : c || rows.log10_states <= cols.log10_states ? rows : cols;
  return 0;
}

/* 512 MiB, 14.2 GiB, 10^14.3 GiB */
void ts_dp_bytes_text(double log10_bytes, char *buf, size_t len) {
  double gib = log10_bytes - 30 * log10(2.0);
  if (log10_bytes < log10(1 << 30))
    snprintf(buf, len, "%.0f MiB", pow(10, log10_bytes) / (1 << 20));
  else if (gib < 3)
    snprintf(buf, len, "%.3g GiB", pow(10, gib));
  else if (gib < 6)
    snprintf(buf, len, "%.0f GiB", pow(10, gib));
  else
    snprintf(buf, len, "10^%.1f GiB", gib);
}

void ts_dp_cost_text(const ts_dp_cost *c, char *buf, size_t len) {
  char bytes[48];
  ts_dp_bytes_text(c->log10_bytes, bytes, sizeof bytes);
  const char *line = c->columns ? "column" : "row";
  snprintf(buf, len,
           "about 10^%.1f states in its largest layer, %s (strips 1 to %d "
           "cells wide, drawn in %s order: %zu states at %d, %.2fx more a "
           "cell, to the map's %d)",
           c->log10_states, bytes, c->lines, line, c->strip_states, c->lines,
           c->growth, c->frontier);
}
