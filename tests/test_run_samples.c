/* run_samples: mxgmn's samples.xml through tilesat.  The map's bans (the
 * general "cell X cannot hold tile T" that WFC's ground needs) counted
 * three ways and honoured or refused by every function; the run list's
 * reader; extract --pattern's symmetry default of 8 against patterns
 * counted here by brute force; and run-samples end to end on a run list
 * written here: its lines, its pictures, and the ground row of every map
 * it drew, checked against the ground pattern found here independently. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "helpers.h"
#include "png_helpers.h"

#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ bans */

/* Valid maps of a square map (open or periodic) with bans, by trying every
 * filling: neighbours by its own arithmetic. */
static long brute_bans(const tilesat_rules *r, int w, int h, bool periodic,
                       const bool *banned) {
  int T = tilesat_rules_ntiles(r), n = w * h;
  int e = tilesat_dir_find(TILESAT_SQUARE, "E"),
      s = tilesat_dir_find(TILESAT_SQUARE, "S");
  int *t = calloc((size_t)n, sizeof *t);
  long count = 0;
  for (;;) {
    bool ok = true;
    for (int c = 0; c < n && ok; c++) {
      int row = c / w, col = c % w;
      ok = !banned[c * T + t[c]];
      if (ok && (col + 1 < w || periodic))
        ok = tilesat_rules_allows(r, t[c], e, t[row * w + (col + 1) % w]);
      if (ok && (row + 1 < h || periodic))
        ok = tilesat_rules_allows(r, t[c], s, t[((row + 1) % h) * w + col]);
    }
    count += ok;
    int k = 0;
    while (k < n && ++t[k] == T)
      t[k++] = 0;
    if (k == n)
      break;
  }
  free(t);
  return count;
}

typedef struct counter {
  long n;
  const bool *banned;
  int T;
  bool clean; /* no map held a banned tile */
  int cells;
} counter;

static int count_map(void *user, const int *tiles) {
  counter *k = user;
  k->n++;
  for (int c = 0; c < k->cells; c++)
    k->clean &= !k->banned[c * k->T + tiles[c]];
  return 0;
}

Test(run_samples, bans_count_alike_by_brute_force_dp_approx_and_every_backend) {
  test_rng = 20261123;
  int nonzero = 0, zero = 0;
  for (int iter = 0; iter < 60; iter++) {
    int T = 2 + (int)rnd(3), w = 1 + (int)rnd(3), h = 1 + (int)rnd(3);
    bool periodic = iter % 3 == 0;
    tilesat_rules *r = random_rules(T, TILESAT_SQUARE, 4 + (int)rnd(4));
    tilesat_map *m = map_new(r, w, h, TILESAT_SQUARE, periodic);
    bool *banned = calloc((size_t)(w * h * T), 1);
    for (int c = 0; c < w * h; c++)
      for (int t = 0; t < T; t++)
        if (rnd(4) == 0) {
          banned[c * T + t] = true;
          cr_assert_eq(tilesat_map_ban(m, c / w, c % w, t, NULL), 0);
          if (rnd(4) == 0) /* the same ban twice is one ban */
            cr_assert_eq(tilesat_map_ban(m, c / w, c % w, t, NULL), 0);
        }
    long brute = brute_bans(r, w, h, periodic, banned);
    brute ? nonzero++ : zero++;
    /* approx too when the count is below its threshold: then its first
     * bounded enumeration is the count */
    const char *methods[] = {"dp", "enum", "approx"};
    for (int k = 0; k < (brute < 50 ? 3 : 2); k++) {
      tilesat_count_options co;
      tilesat_count_options_init(&co);
      tilesat_method_parse(methods[k], &co.method);
      tilesat_count_result res;
      tilesat_error err;
      cr_assert_eq(tilesat_count(m, &co, &res, &err), 0, "%s", err.msg);
      cr_expect_eq(strtol(res.count, NULL, 10), brute, "iter %d %s: %s vs %ld",
                   iter, methods[k], res.count, brute);
      tilesat_count_result_free(&res);
    }
    for (int b = 0; b < NBACKENDS; b++) {
      counter k = {0, banned, T, true, w * h};
      tilesat_error err;
      cr_expect_eq(
          tilesat_enumerate(m, SOLVE(backends[b]), 0, count_map, &k, &err),
          brute, "iter %d backend %d", iter, b);
      cr_expect(k.clean);
      cr_expect_eq(tilesat_check(m, SOLVE(backends[b]), NULL, &err),
                   brute ? TILESAT_SAT : TILESAT_UNSAT);
    }
    /* sampling by the dp draws only maps that keep the bans */
    tilesat_count_options co;
    tilesat_count_options_init(&co);
    co.method = TILESAT_METHOD_DP;
    counter k = {0, banned, T, true, w * h};
    tilesat_error err;
    cr_expect_eq(tilesat_sample(m, &co, 5, count_map, &k, &err), brute ? 5 : 0);
    cr_expect(k.clean);
    /* and so do collapse's maps; never one on a map with no valid map */
    tilesat_collapse *c = tilesat_collapse_new(m, &err);
    int *tiles = malloc((size_t)(w * h) * sizeof *tiles);
    for (int s = 1; s <= 5; s++) {
      tilesat_collapse_options o;
      tilesat_collapse_options_init(&o);
      o.seed = (uint64_t)s;
      int res = tilesat_collapse_run(c, &o, tiles, &err);
      cr_assert(res == TILESAT_SAT || res == TILESAT_UNKNOWN);
      if (res == TILESAT_SAT) {
        cr_expect(brute > 0);
        for (int cell = 0; cell < w * h; cell++)
          cr_expect(!banned[cell * T + tiles[cell]]);
      }
    }
    free(tiles);
    tilesat_collapse_free(c);
    free(banned);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  cr_expect(nonzero > 10 && zero > 5, "%d with maps, %d without", nonzero,
            zero);
}

/* Knots 6x6 with "empty 0" banned everywhere but the corners. */
static tilesat_map *knots_banned(tilesat_rules **r, int *empty) {
  tilesat_error err;
  *r = tilesat_import_tileset("tests/data/wfc/tilesets/Knots.xml", "Standard",
                              NULL, &err);
  cr_assert(*r, "%s", err.msg);
  *empty = tilesat_rules_find_tile(*r, "empty 0");
  cr_assert_geq(*empty, 0);
  tilesat_map *m = map_new(*r, 6, 6, TILESAT_SQUARE, false);
  for (int c = 0; c < 36; c++)
    if (c != 0 && c != 5 && c != 30 && c != 35)
      cr_assert_eq(tilesat_map_ban(m, c / 6, c % 6, *empty, &err), 0);
  cr_expect_eq(map_info(m).nbans, 32);
  return m;
}

Test(run_samples, trace_verify_and_encode_keep_bans) {
  tilesat_rules *r;
  int empty;
  tilesat_map *m = knots_banned(&r, &empty);
  tilesat_trace *t = tilesat_trace_new(m);
  cr_expect_neq(tilesat_trace_status(t), TILESAT_UNSAT);
  cr_expect(!tilesat_trace_possible(t, 2, 3, empty));
  cr_expect(tilesat_trace_possible(t, 0, 0, empty));
  tilesat_trace_free(t);
  /* a map of "empty 0" everywhere: the first banned cell is named */
  int tiles[36];
  for (int c = 0; c < 36; c++)
    tiles[c] = empty;
  char why[256];
  cr_expect(!tilesat_map_verify(m, tiles, why, sizeof why));
  cr_expect_str_eq(why, "cell (0,1) holds empty 0, which is banned there");
  tilesat_error err;
  tilesat_map *one = map_new(r, 2, 1, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_ban(one, 0, 1, empty, &err), 0);
  cr_expect_eq(tilesat_map_ban(one, 1, 0, empty, &err), -1);
  cr_expect_str_eq(err.msg, "ban: cell (1,0) is outside the 2x1 map");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(tilesat_encode_dimacs(one, f), 0);
  fclose(f);
  cr_expect(strstr(text, "\nc bans 1: 0,1!=\"empty 0\"\n"), "%s", text);
  char unit[32];
  int T = tilesat_rules_ntiles(r);
  snprintf(unit, sizeof unit, "\n-%d 0\n", 1 * T + empty + 1);
  cr_expect(strstr(text, unit), "no unit clause %s", unit);
  free(text);
  tilesat_map_free(one);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(run_samples, explain_and_anneal_refuse_bans) {
  tilesat_rules *r;
  int empty;
  tilesat_map *m = knots_banned(&r, &empty);
  tilesat_explanation *e = NULL;
  tilesat_error err;
  cr_expect_eq(tilesat_explain(m, NULL, &e, &err), -1);
  cr_expect_str_eq(err.msg, "explain: the map has 32 banned tiles, which "
                            "explanations do not know yet");
  cr_expect_null(e);
  tilesat_constraint one = {TILESAT_ONE_TILE, 0, 0, -1, -1, -1, -1, -1, -1};
  cr_expect_eq(tilesat_constraints_check(m, NULL, &one, 1, &err), -1);
  tilesat_energy *en = tilesat_energy_new(m);
  cr_expect_eq(tilesat_energy_prepare(en, &err), -1);
  cr_expect_str_eq(err.msg, "anneal: the map has 32 banned tiles, which "
                            "annealing does not know yet");
  tilesat_energy_free(en);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------------ the run list */

static tilesat_wfc_entry *read_list(const char *xml, size_t *n,
                                    tilesat_error *err) {
  char *path = temp_file(xml, -1);
  tilesat_wfc_entry *v = tilesat_wfc_samples_read(path, n, err);
  free(path);
  return v;
}

Test(run_samples, reader_fills_the_reference_defaults) {
  size_t n;
  tilesat_error err;
  tilesat_wfc_entry *v = read_list(
      "<samples>\n"
      "  <overlapping name=\"Chess\" N=\"2\" periodic=\"True\"/>\n"
      "  <!-- a comment --><other name=\"x\"/>\n"
      "  <simpletiled name=\"Knots\" subset=\"Dense Fabric\" size=\"24\" "
      "periodic=\"true\" screenshots=\"1\"/>\n"
      "  <overlapping name=\"Wrinkles\" N=\"3\" periodicInput=\" False \" "
      "heuristic=\"MRV\" width=\"120\" height=\"30\" symmetry=\"1\" "
      "ground=\"TRUE\" limit=\"120\" seed=\"7\"/>\n"
      "  <simpletiled name=\"Summer\" size=\"10\" heuristic=\"Scanline\" "
      "limit=\"-1\" blackBackground=\"True\" textOutput=\"True\"/>\n"
      "</samples>\n",
      &n, &err);
  cr_assert(v, "%s", err.msg);
  cr_assert_eq(n, 4);
  cr_expect(v[0].overlapping);
  cr_expect_str_eq(v[0].name, "Chess");
  cr_expect_eq(v[0].line, 2);
  cr_expect_eq(v[0].n, 2);
  cr_expect_eq(v[0].width, 48);
  cr_expect_eq(v[0].height, 48);
  cr_expect(v[0].periodic && v[0].periodic_input && !v[0].ground);
  cr_expect_eq(v[0].symmetry, 8);
  cr_expect_eq(v[0].heuristic, TILESAT_HEURISTIC_ENTROPY);
  cr_expect_eq(v[0].screenshots, 2);
  cr_expect_eq(v[0].limit, -1);
  cr_expect_eq(v[0].seed, -1);
  cr_expect_null(v[0].subset);
  cr_expect_null(v[0].error);
  cr_expect(!v[1].overlapping);
  cr_expect_str_eq(v[1].subset, "Dense Fabric");
  cr_expect_eq(v[1].width, 24);
  cr_expect(v[1].periodic);
  cr_expect_eq(v[1].screenshots, 1);
  cr_expect_null(v[1].error);
  cr_expect_eq(v[2].width, 120);
  cr_expect_eq(v[2].height, 30);
  cr_expect(!v[2].periodic_input && !v[2].periodic && v[2].ground);
  cr_expect_eq(v[2].symmetry, 1);
  cr_expect_eq(v[2].heuristic, TILESAT_HEURISTIC_MRV);
  cr_expect_eq(v[2].limit, 120);
  cr_expect_eq(v[2].seed, 7);
  cr_expect_null(v[2].error, "%s", v[2].error);
  cr_expect_eq(v[3].width, 10); /* simpletiled default 24, size 10 */
  cr_expect_eq(v[3].heuristic, TILESAT_HEURISTIC_SCANLINE);
  cr_expect(v[3].black_background && v[3].text_output);
  cr_expect_eq(v[3].limit, -1);
  cr_expect_null(v[3].error);
  tilesat_wfc_samples_free(v, n);
  v = read_list("<samples><simpletiled name=\"Knots\"/></samples>", &n, &err);
  cr_assert(v);
  cr_expect_eq(v[0].width, 24);
  tilesat_wfc_samples_free(v, n);
}

Test(run_samples, reader_gives_each_entry_its_own_error) {
  size_t n;
  tilesat_error err;
  char *path = temp_file("<samples>\n"
                         "<overlapping name=\"A\" symmetry=\"9\"/>\n"
                         "<overlapping name=\"B\" periodic=\"yes\"/>\n"
                         "<overlapping name=\"C\" heuristic=\"mrv\"/>\n"
                         "<overlapping name=\"D\" subset=\"x\"/>\n"
                         "<simpletiled name=\"E\" N=\"2\"/>\n"
                         "<overlapping name=\"../F\"/>\n"
                         "<overlapping N=\"2\"/>\n"
                         "<overlapping name=\"G\" size=\"0\"/>\n"
                         "<overlapping name=\"H\" limit=\"0\"/>\n"
                         "<overlapping name=\"I\" peroidic=\"True\"/>\n"
                         "<overlapping name=\"J\" N=\"3\"/>\n"
                         "</samples>\n",
                         -1);
  tilesat_wfc_entry *v = tilesat_wfc_samples_read(path, &n, &err);
  cr_assert(v, "%s", err.msg);
  cr_assert_eq(n, 11);
  const char *want[] = {
      ":2: symmetry '9' is not a whole number from 1 to 8",
      ":3: periodic 'yes' is not True or False",
      ":4: heuristic 'mrv' is not Entropy, MRV or Scanline (the reference "
      "would run it as Entropy)",
      ":5: attribute 'subset' is not one the reference reads for "
      "<overlapping> (it would ignore it)",
      ":6: attribute 'N' is not one the reference reads for <simpletiled> "
      "(it would ignore it)",
      ":7: name '../F': a name is a file name in samples/, so it cannot hold "
      "'/', '\\' or '..'",
      ":8: an entry needs a name",
      ":9: size '0' is not a whole number from 1 to 65535",
      ":10: limit 0 (no choice at all) is not supported",
      ":11: attribute 'peroidic' is not one the reference reads for "
      "<overlapping> (it would ignore it)",
      NULL,
  };
  for (size_t i = 0; i < n; i++) {
    if (!want[i]) {
      cr_expect_null(v[i].error, "%s", v[i].error);
      continue;
    }
    char full[512];
    snprintf(full, sizeof full, "%s%s", path, want[i]);
    cr_expect(v[i].error && !strcmp(v[i].error, full), "entry %zu: %s", i,
              v[i].error ? v[i].error : "(none)");
  }
  tilesat_wfc_samples_free(v, n);
  free(path);
  /* the file itself: not XML, not a run list */
  cr_expect_null(read_list("<samples><overlapping", &n, &err));
  cr_expect(strstr(err.msg, "bad XML"), "%s", err.msg);
  cr_expect_null(read_list("<set/>", &n, &err));
  cr_expect(strstr(err.msg, ":1: a WFC simple-tiled tileset, not a WFC run "
                            "list (samples.xml): make its rules with 'tilesat "
                            "import-tileset "),
            "%s", err.msg);
  cr_expect_null(read_list("<sets/>", &n, &err));
  cr_expect(strstr(err.msg, ":1: not a WFC run list: root element <sets>, "
                            "expected <samples>"),
            "%s", err.msg);
}

/* ------------------------------------------ patterns, counted here */

/* A 6x5 sample: sky, two red pillars, a ground row.  Read (row by row)
 * as colour indices 0 sky, 1 red, 2 ground. */
static const char *const ground_rows[5] = {"000000", "001010", "001010",
                                           "000000", "222222"};
static const char *const ground_hex[3] = {"#80c0ff", "#e02020", "#20a020"};

static void write_ground_png(const char *path) {
  tilesat_image *img = tilesat_image_new(6, 5);
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 6; x++) {
      unsigned v;
      sscanf(ground_hex[ground_rows[y][x] - '0'] + 1, "%x", &v);
      uint8_t *p = img->rgba + 4 * (y * 6 + x);
      p[0] = (uint8_t)(v >> 16);
      p[1] = (uint8_t)(v >> 8);
      p[2] = (uint8_t)v;
      p[3] = 255;
    }
  tilesat_error err;
  cr_assert_eq(tilesat_image_write_png(img, path, &err), 0, "%s", err.msg);
  tilesat_image_free(img);
}

/* The distinct N x N windows of the sample (wrapping with periodic input)
 * and of their first `sym` images, in the reference's order and its
 * formulas (rotate: q[x + yN] = p[N-1-y + xN]; reflect: q[x + yN] =
 * p[N-1-x + yN]): how many, and the last one's colours in *last. */
static int brute_patterns(int n, int sym, bool periodic_input, char *last) {
  int w = 6, h = 5, nn = n * n, count = 0;
  char *seen = malloc(4096 * (size_t)nn);
  int xmax = periodic_input ? w : w - n + 1,
      ymax = periodic_input ? h : h - n + 1;
  for (int y = 0; y < ymax; y++)
    for (int x = 0; x < xmax; x++) {
      char ps[8][64];
      for (int dy = 0; dy < n; dy++)
        for (int dx = 0; dx < n; dx++)
          ps[0][dx + dy * n] = ground_rows[(y + dy) % h][(x + dx) % w];
      for (int k = 1; k < 8; k++)
        for (int yy = 0; yy < n; yy++)
          for (int xx = 0; xx < n; xx++)
            ps[k][xx + yy * n] =
                k % 2 ? ps[k - 1][n - 1 - xx + yy * n]  /* reflect */
                      : ps[k - 2][n - 1 - yy + xx * n]; /* rotate */
      for (int k = 0; k < sym; k++) {
        bool is_new = true;
        for (int i = 0; i < count && is_new; i++)
          is_new = memcmp(seen + i * nn, ps[k], (size_t)nn) != 0;
        if (is_new)
          memcpy(seen + count++ * nn, ps[k], (size_t)nn);
      }
    }
  if (last)
    memcpy(last, seen + (count - 1) * nn, (size_t)nn);
  free(seen);
  return count;
}

/* How many "tile" lines a rules file has. */
static int rules_tiles(const char *path) {
  char *text = slurp(path);
  int n = 0;
  for (char *p = text; (p = strstr(p, "\ntile ")); p++)
    n++;
  free(text);
  return n;
}

Test(run_samples, extract_pattern_symmetry_defaults_to_8) {
  char *png = temp_path(".png"), *rules = temp_path(".rules");
  write_ground_png(png);
  int eight = brute_patterns(2, 8, false, NULL),
      one = brute_patterns(2, 1, false, NULL);
  cr_assert_neq(eight, one);
  run_result r = RUN("extract", "--pattern", "2", png, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect_eq(rules_tiles(rules), eight);
  run_free(&r);
  r = RUN("extract", "--pattern", "2", "--symmetry", "1", png, "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  cr_expect_eq(rules_tiles(rules), one);
  run_free(&r);
  char pics[1024];
  snprintf(pics, sizeof pics, "%.*s.pictures",
           (int)(strrchr(rules, '.') - rules), rules);
  unlink(pics);
  unlink(rules);
  unlink(png);
  free(rules);
  free(png);
}

/* -------------------------------------------------- run-samples itself */

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  cr_assert(in && out, "%s -> %s", from, to);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)))
    cr_assert_eq(fwrite(buf, 1, n, out), n);
  fclose(in);
  cr_assert_eq(fclose(out), 0);
}

/* DIR/samples/Ground.png and Chess.png, DIR/tilesets/Knots.xml and its
 * pictures. */
static void make_inputs(const char *dir) {
  char p[1024], q[1024];
  snprintf(p, sizeof p, "%s/samples", dir);
  cr_assert_eq(mkdir(p, 0777), 0);
  snprintf(p, sizeof p, "%s/tilesets", dir);
  cr_assert_eq(mkdir(p, 0777), 0);
  snprintf(p, sizeof p, "%s/tilesets/Knots", dir);
  cr_assert_eq(mkdir(p, 0777), 0);
  snprintf(p, sizeof p, "%s/samples/Ground.png", dir);
  write_ground_png(p);
  snprintf(p, sizeof p, "%s/samples/Chess.png", dir);
  copy_file("tests/data/wfc/samples/Chess.png", p);
  snprintf(p, sizeof p, "%s/tilesets/Knots.xml", dir);
  copy_file("tests/data/wfc/tilesets/Knots.xml", p);
  const char *tiles[] = {"corner", "cross", "empty", "line", "t"};
  for (int i = 0; i < 5; i++) {
    snprintf(p, sizeof p, "tests/data/wfc/tilesets/Knots/%s.png", tiles[i]);
    snprintf(q, sizeof q, "%s/tilesets/Knots/%s.png", dir, tiles[i]);
    copy_file(p, q);
  }
}

/* One entry's line: `head` exactly, then the fields of a run that ran. */
typedef struct line_fields {
  int tiles;
  char check[16];
  double check_s, rate, lo, hi, median, secs;
  long failed, runs, images;
  int shots;
} line_fields;

static void parse_line(const char *line, const char *head, line_fields *f) {
  size_t k = strlen(head);
  cr_assert(!strncmp(line, head, k), "want '%s' in '%s'", head, line);
  char kind[16];
  int end = -1;
  int got = sscanf(line + k,
                   "%d %15s %15[a-z] (%lf s), WFC failed %ld of %ld (%lf%%, "
                   "95%% interval %lf%% to %lf%%), median run %lf ms, %ld of "
                   "%d images, %lf s%n",
                   &f->tiles, kind, f->check, &f->check_s, &f->failed, &f->runs,
                   &f->rate, &f->lo, &f->hi, &f->median, &f->images, &f->shots,
                   &f->secs, &end);
  cr_assert_eq(got, 13, "%s", line);
  cr_assert_eq(line[k + (size_t)end], '\0', "%s", line);
  cr_expect(!strcmp(kind, "patterns,") || !strcmp(kind, "tiles,"));
  /* the rate and Wilson's 95% interval, recomputed */
  double n = (double)f->runs, p = (double)f->failed / n, z = 1.959964;
  double c = (p + z * z / (2 * n)) / (1 + z * z / n),
         half =
             z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  cr_expect(fabs(f->rate - 100 * p) < 0.051, "%s", line);
  cr_expect(fabs(f->lo - 100 * fmax(0, c - half)) < 0.051, "%s", line);
  cr_expect(fabs(f->hi - 100 * fmin(1, c + half)) < 0.051, "%s", line);
}

/* The pictures an entry wrote: NN-NAME-SEED.png with SEED from first on,
 * how many; each decoded and handed to fn. */
static int entry_pngs(const char *out, const char *prefix, uint64_t first,
                      uint64_t last, void (*fn)(const char *, void *),
                      void *user) {
  int n = 0;
  for (uint64_t s = first; s <= last; s++) {
    char p[2200];
    snprintf(p, sizeof p, "%s/%s-%llu.png", out, prefix, (unsigned long long)s);
    if (access(p, F_OK) == 0) {
      fn(p, user);
      n++;
    }
  }
  return n;
}

/* A periodic 10x10 picture of the Ground sample's patterns: pixel (r, c)
 * is the top-left of cell (r, c)'s pattern, whose N x N window (wrapping)
 * the picture shows whole.  The ground pattern stands in every cell of the
 * bottom row and nowhere else. */
static void expect_ground(const char *path, void *user) {
  const char *ground = user;
  int w, h;
  uint8_t *px = decode_png(path, &w, &h);
  cr_assert_eq(w, 10);
  cr_assert_eq(h, 10);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      bool same = true;
      for (int dy = 0; dy < 3 && same; dy++)
        for (int dx = 0; dx < 3 && same; dx++)
          same = pixel_is(pixel_at(px, w, (c + dx) % w, (r + dy) % h),
                          ground_hex[ground[dx + 3 * dy] - '0']);
      cr_expect_eq(same, r == h - 1, "%s: cell (%d,%d)", path, r, c);
    }
  free(px);
}

static void expect_size(const char *path, void *user) {
  const int *size = user;
  int w, h;
  free(decode_png(path, &w, &h));
  cr_expect(w == size[0] && h == size[1], "%s: %dx%d", path, w, h);
}

/* An unfinished Knots wave with blackBackground: some 10x10 tiles black,
 * not all. */
static void expect_black_tiles(const char *path, void *user) {
  (void)user;
  int w, h, black = 0;
  uint8_t *px = decode_png(path, &w, &h);
  cr_assert(w == 60 && h == 60, "%dx%d", w, h);
  for (int cell = 0; cell < 36; cell++) {
    bool all = true;
    for (int y = 0; y < 10 && all; y++)
      for (int x = 0; x < 10 && all; x++)
        all =
            pixel_is(pixel_at(px, w, (cell % 6) * 10 + x, (cell / 6) * 10 + y),
                     "#000000");
    black += all;
  }
  cr_expect(black > 0 && black < 36, "%d black tiles", black);
  free(px);
}

/* The text of a textOutput map: 6 lines of 6 "NAME K, " each. */
static void expect_text(const char *png, void *user) {
  (void)user;
  char path[2300];
  snprintf(path, sizeof path, "%s", png);
  strcpy(strrchr(path, '.'), ".txt");
  char *text = slurp(path);
  int lines = 0;
  for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"), lines++) {
    int cells = 0;
    for (char *p = l; (p = strstr(p, ", ")); p += 2)
      cells++;
    cr_expect_eq(cells, 6, "%s", l);
    cr_expect(!strncmp(l, "corner ", 7) || !strncmp(l, "cross ", 6) ||
                  !strncmp(l, "empty ", 6) || !strncmp(l, "line ", 5) ||
                  !strncmp(l, "t ", 2),
              "%s", l);
  }
  cr_expect_eq(lines, 6);
  free(text);
}

Test(run_samples, runs_a_run_list_end_to_end) {
  char *dir = temp_dir();
  make_inputs(dir);
  char list[1024], out[1024];
  snprintf(list, sizeof list, "%s/samples.xml", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(list, "w");
  cr_assert(f);
  fputs("<samples>\n"
        "  <overlapping name=\"Ground\" N=\"3\" symmetry=\"2\" "
        "ground=\"True\" periodic=\"True\" size=\"10\" screenshots=\"3\"/>\n"
        "  <overlapping name=\"Ground\" N=\"2\" size=\"8\"/>\n"
        "  <simpletiled name=\"Knots\" subset=\"Standard\" size=\"6\" "
        "periodic=\"True\" textOutput=\"True\"/>\n"
        "  <simpletiled name=\"Knots\" subset=\"Standard\" size=\"6\" "
        "limit=\"2\" blackBackground=\"True\" screenshots=\"1\"/>\n"
        "  <overlapping name=\"Chess\" N=\"2\" size=\"5\" periodic=\"True\" "
        "screenshots=\"1\"/>\n"
        "  <overlapping name=\"Missing\" N=\"3\"/>\n"
        "</samples>\n",
        f);
  cr_assert_eq(fclose(f), 0);
  run_result r =
      RUN("run-samples", list, "-n", "6", "--seed", "3", "--out-dir", out);
  cr_expect_eq(r.code, 1, "%s", r.err);
  char want_err[2048];
  snprintf(want_err, sizeof want_err,
           "tilesat: %s: 1 of 6 entries could not run (see above)\n", list);
  size_t le = strlen(r.err), lw = strlen(want_err);
  cr_expect(le >= lw && !strcmp(r.err + le - lw, want_err), "%s", r.err);
  char *lines[8] = {0};
  int nl = 0;
  for (char *l = strtok(r.out, "\n"); l && nl < 8; l = strtok(NULL, "\n"))
    lines[nl++] = l;
  cr_assert_eq(nl, 7, "%s", r.out);

  /* 1: ground, symmetry 2, periodic output: the ground row */
  line_fields lf;
  char ground[9];
  int n_ground = brute_patterns(3, 2, true, ground);
  parse_line(lines[0],
             "01 Ground (overlapping N=3 symmetry=2 ground periodic 10x10 "
             "screenshots=3): ",
             &lf);
  cr_expect_eq(lf.tiles, n_ground);
  cr_expect_str_eq(lf.check, "sat");
  cr_expect_eq(lf.runs, 6);
  cr_expect_eq(lf.shots, 3);
  cr_expect_eq(lf.images, 3);
  cr_expect_eq(entry_pngs(out, "01-Ground", 3, 100, expect_ground, ground), 3);

  /* 2: no symmetry attribute: 8, as the reference; no periodic output:
   * a 7x7 map drawn 8x8 */
  int size8[2] = {8, 8};
  parse_line(lines[1], "02 Ground (overlapping N=2 symmetry=8 8x8): ", &lf);
  cr_expect_eq(lf.tiles, brute_patterns(2, 8, true, NULL));
  cr_expect_neq(lf.tiles, brute_patterns(2, 1, true, NULL));
  cr_expect_eq(lf.images, 2);
  cr_expect_eq(entry_pngs(out, "02-Ground", 3, 100, expect_size, size8), 2);

  /* 3: a tileset's subset, with the reference's text output */
  int size60[2] = {60, 60};
  parse_line(lines[2],
             "03 Knots (simpletiled subset=\"Standard\" periodic 6x6 "
             "textOutput): ",
             &lf);
  cr_expect_eq(lf.tiles, 9);
  cr_expect_str_eq(lf.check, "sat");
  cr_expect_eq(entry_pngs(out, "03-Knots", 3, 100, expect_size, size60),
               lf.images);
  cr_expect_eq(entry_pngs(out, "03-Knots", 3, 100, expect_text, NULL),
               lf.images);

  /* 4: stopped after 2 choices: the unfinished wave, black where every
   * tile is still possible; such a run is no failure */
  parse_line(lines[3],
             "04 Knots (simpletiled subset=\"Standard\" 6x6 limit=2 "
             "screenshots=1 blackBackground): ",
             &lf);
  cr_expect_eq(lf.failed, 0);
  cr_expect_eq(lf.images, 1);
  cr_expect_eq(entry_pngs(out, "04-Knots", 3, 3, expect_black_tiles, NULL), 1);

  /* 5: a checkerboard cannot wrap around 5 cells: no map, and every run
   * fails (the reference's Chess 47x47 shows it); 10 tries, no picture */
  parse_line(lines[4],
             "05 Chess (overlapping N=2 symmetry=8 periodic 5x5 "
             "screenshots=1): ",
             &lf);
  cr_expect_eq(lf.tiles, 2);
  cr_expect_str_eq(lf.check, "unsat");
  cr_expect_eq(lf.failed, 6);
  cr_expect_eq(lf.images, 0);
  cr_expect_eq(entry_pngs(out, "05-Chess", 0, 100, expect_size, size8), 0);

  /* 6: its sample is missing: listed with the reason */
  char want[2048];
  snprintf(want, sizeof want,
           "06 Missing (overlapping N=3 symmetry=8 48x48): cannot run: "
           "%s/samples/Missing.png: cannot open: No such file or directory",
           dir);
  cr_expect_str_eq(lines[5], want);
  double secs;
  int end = -1;
  cr_expect_eq(sscanf(lines[6], "entries: 6, ran: 5, could not run: 1, %lf s%n",
                      &secs, &end),
               1, "%s", lines[6]);
  cr_expect_eq(lines[6][end], '\0');
  run_free(&r);

  /* --only, --max-size; exit 0 when every entry ran */
  r = RUN("run-samples", list, "-n", "2", "--only", "Knots", "--max-size", "4",
          "--out-dir", out);
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect(strstr(r.out, "03 Knots (simpletiled subset=\"Standard\" "
                          "periodic 4x4 (of 6x6) textOutput): 9 tiles, sat"),
            "%s", r.out);
  cr_expect(!strstr(r.out, "Ground"), "%s", r.out);
  cr_expect(strstr(r.out, "\nentries: 2, ran: 2, could not run: 0, "), "%s",
            r.out);
  run_free(&r);
  snprintf(want, sizeof want, "tilesat: --only: no entry named 'Nope' in %s\n",
           list);
  expect_cli_error(want, "run-samples", list, "--only", "Nope", "--out-dir",
                   out);
  cr_expect_eq(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
  free(dir);
}
