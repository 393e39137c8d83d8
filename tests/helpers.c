/* helpers.c: running the CLI, temp files, and an independent brute-force
 * map counter for cross-checks. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "helpers.h"

#include <cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const tilesat_backend backends[NBACKENDS] = {
    TILESAT_PICOSAT, TILESAT_CRYPTOMINISAT, TILESAT_CADICAL};

char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert(f, "cannot open %s", path);
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = realloc(buf, (cap *= 2) + 1);
  }
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* Every temporary file and folder of a test process lives in one folder
 * of its own, made on first use ($TMPDIR or /tmp) and removed with all it
 * holds when the process exits (Criterion runs each test in a process of
 * its own and calls exit, pass or fail), so the suite leaves nothing. */
static char temp_root[200];
static pid_t temp_owner;

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

static void remove_temp_root(void) {
  if (getpid() == temp_owner) /* not a forked child that exits */
    nftw(temp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *temp_root_path(void) {
  if (!temp_root[0] || temp_owner != getpid()) {
    const char *tmp = getenv("TMPDIR");
    snprintf(temp_root, sizeof temp_root, "%s/tilesat-test-XXXXXX",
             tmp && *tmp && strlen(tmp) < 100 ? tmp : "/tmp");
    cr_assert(mkdtemp(temp_root), "cannot make a temporary folder");
    if (!temp_owner)
      atexit(remove_temp_root);
    temp_owner = getpid();
  }
  return temp_root;
}

char *temp_file(const char *text, long len) {
  char tmpl[256];
  snprintf(tmpl, sizeof tmpl, "%s/fXXXXXX", temp_root_path());
  int fd = mkstemp(tmpl);
  cr_assert(fd >= 0);
  size_t n = len < 0 ? strlen(text) : (size_t)len;
  cr_assert(write(fd, text, n) == (ssize_t)n);
  close(fd);
  return strdup(tmpl);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

run_result run_cli_with(const char *const *args, int ms, int sig,
                        void (*setup)(void)) {
  const char *bin = getenv("TILESAT_BIN");
  if (!bin)
    bin = "build/tilesat";
  char *outp = temp_file("", 0), *errp = temp_file("", 0);
  int argc = 0;
  while (args[argc])
    argc++;
  const char **argv = calloc((size_t)argc + 2, sizeof *argv);
  argv[0] = bin;
  memcpy(argv + 1, args, (size_t)argc * sizeof *argv);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    int out = open(outp, O_WRONLY | O_TRUNC);
    int err = open(errp, O_WRONLY | O_TRUNC);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    /* the signals as a terminal leaves them: the suite may run as a
     * background job with SIGINT ignored, which tilesat keeps (nohup) */
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
      signal(sigs[i], SIG_DFL);
    if (setup)
      setup();
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  double sent = 0;
  if (ms > 0) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    sent = now();
    kill(pid, sig);
  }
  int status;
  waitpid(pid, &status, 0);
  run_result r;
  r.stopped = ms > 0 ? now() - sent : 0;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(outp);
  r.err = slurp(errp);
  unlink(outp);
  unlink(errp);
  free(outp);
  free(errp);
  free(argv);
  return r;
}

run_result run_cli_interrupted(const char *const *args, int ms) {
  return run_cli_with(args, ms, SIGINT, NULL);
}

/* a, b, c in a line: a cell's neighbour is the same tile or the next one
 * (a beside c never), in every direction. */
const char line_rules[] = "tilesat-rules 1\ntopology square\n"
                          "tile a 1\ntile b 1\ntile c 1\n"
                          "allow a N a b\nallow a E a b\n"
                          "allow a S a b\nallow a W a b\n"
                          "allow b N a b c\nallow b E a b c\n"
                          "allow b S a b c\nallow b W a b c\n"
                          "allow c N b c\nallow c E b c\n"
                          "allow c S b c\nallow c W b c\n";

/* roff back to text: \- is '-', \e is '\', \& is nothing. */
char *unroff(const char *s) {
  char *t = malloc(strlen(s) + 1), *p = t;
  for (; *s; s++) {
    if (s[0] == '\\' && (s[1] == '-' || s[1] == 'e' || s[1] == '&')) {
      if (s[1] != '&')
        *p++ = s[1] == 'e' ? '\\' : '-';
      s++;
      continue;
    }
    *p++ = *s;
  }
  *p = 0;
  return t;
}

int test_cases(int n) {
  const char *q = getenv("TILESAT_TEST_QUICK"),
             *l = getenv("TILESAT_TEST_LONG");
  if (l && *l)
    return 4 * n;
  return q && *q && n >= 2 ? n / 2 : n;
}

void import_castle(const char *dir, char *rules, size_t len) {
  snprintf(rules, len, "%s/castle.rules", dir);
  run_result r =
      RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", rules);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
}

char *temp_dir(void) {
  char tmpl[256];
  snprintf(tmpl, sizeof tmpl, "%s/dXXXXXX", temp_root_path());
  cr_assert(mkdtemp(tmpl));
  return strdup(tmpl);
}

void rm_dir(char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  if (d)
    closedir(d);
  rmdir(dir);
  free(dir);
}

int dir_entries(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert(d, "cannot open %s", dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

run_result run_cli(const char *const *args) {
  return run_cli_interrupted(args, 0);
}

void run_free(run_result *r) {
  free(r->out);
  free(r->err);
}

tilesat_rules *rules_from_text(const char *text) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_parse(text, strlen(text), "test", &err);
  cr_assert(r, "rules did not parse: %s", err.msg);
  return r;
}

tilesat_rules *rules_from_file(const char *path) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(path, &err);
  cr_assert(r, "rules did not load: %s", err.msg);
  return r;
}

tilesat_rules *rules_from_sample(const char *grid, tilesat_topology topo,
                                 bool periodic) {
  tilesat_error err;
  tilesat_grid *g = tilesat_grid_parse(grid, strlen(grid), "sample", &err);
  cr_assert(g, "sample did not parse: %s", err.msg);
  const tilesat_grid *gs[1] = {g};
  tilesat_rules *r = tilesat_extract(gs, 1, topo, periodic, &err);
  cr_assert(r, "extract failed: %s", err.msg);
  tilesat_grid_free(g);
  return r;
}

tilesat_map *map_new(const tilesat_rules *r, int w, int h,
                     tilesat_topology topo, bool periodic) {
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, w, h, topo, periodic, &err);
  cr_assert(m, "map_new failed: %s", err.msg);
  return m;
}

tilesat_map_info map_info(const tilesat_map *m) {
  tilesat_map_info mi;
  tilesat_map_get(m, &mi);
  return mi;
}

tilesat_explanation_info explanation_info(const tilesat_explanation *e) {
  tilesat_explanation_info ei;
  tilesat_explanation_get(e, &ei);
  return ei;
}

tilesat_repairs_info repairs_info(const tilesat_repairs *r) {
  tilesat_repairs_info ri;
  tilesat_repairs_get(r, &ri);
  return ri;
}

tilesat_energy_info energy_info(const tilesat_energy *e) {
  tilesat_energy_info ei;
  tilesat_energy_get(e, &ei);
  return ei;
}

tilesat_collapse_info collapse_info(const tilesat_collapse *c) {
  tilesat_collapse_info ci;
  tilesat_collapse_get(c, &ci);
  return ci;
}

/* Neighbours, written from scratch.  Square: plain offsets.  Hex odd-r:
 * offset -> axial (q, r), step, back (Red Blob Games' conversions). */
static int floor_div2(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

bool brute_neighbor(tilesat_topology topo, int w, int h, bool periodic, int row,
                    int col, int dir, int *nr, int *nc) {
  int r2, c2;
  if (topo == TILESAT_SQUARE) {
    static const int dr[] = {-1, 0, 1, 0}, dc[] = {0, 1, 0, -1}; /* N E S W */
    r2 = row + dr[dir];
    c2 = col + dc[dir];
  } else {
    /* E W NE NW SE SW as axial steps */
    static const int dq[] = {1, -1, 1, 0, 0, -1}, dra[] = {0, 0, -1, -1, 1, 1};
    int q = col - floor_div2(row - (row & 1)), r = row;
    q += dq[dir];
    r += dra[dir];
    r2 = r;
    c2 = q + floor_div2(r - (r & 1));
  }
  if (periodic) {
    r2 = ((r2 % h) + h) % h;
    c2 = ((c2 % w) + w) % w;
    *nr = r2;
    *nc = c2;
    return true;
  }
  if (r2 < 0 || r2 >= h || c2 < 0 || c2 >= w)
    return false;
  *nr = r2;
  *nc = c2;
  return true;
}

long brute_count(const tilesat_rules *r, int w, int h, tilesat_topology topo,
                 bool periodic, const int *pins, int npins) {
  return brute_count_if(r, w, h, topo, periodic, pins, npins, NULL, NULL);
}

long brute_count_if(const tilesat_rules *r, int w, int h, tilesat_topology topo,
                    bool periodic, const int *pins, int npins,
                    bool (*keep)(void *user, const int *tiles), void *user) {
  int T = tilesat_rules_ntiles(r), n = w * h;
  int ndirs = topo == TILESAT_HEX ? 6 : 4;
  int *tiles = calloc((size_t)n, sizeof *tiles);
  /* the neighbours and the rules' pairs, read once: the loop below asks
   * for them T^n times */
  int *nb = malloc((size_t)n * (size_t)ndirs * sizeof *nb);
  bool *allow = malloc((size_t)T * (size_t)ndirs * (size_t)T * sizeof *allow);
  for (int c = 0; c < n; c++)
    for (int d = 0; d < ndirs; d++) {
      int nr, nc;
      nb[c * ndirs + d] =
          brute_neighbor(topo, w, h, periodic, c / w, c % w, d, &nr, &nc)
              ? nr * w + nc
              : -1;
    }
  for (int a = 0; a < T; a++)
    for (int d = 0; d < ndirs; d++)
      for (int b = 0; b < T; b++)
        allow[(a * ndirs + d) * T + b] = tilesat_rules_allows(r, a, d, b);
  long count = 0;
  for (;;) {
    bool ok = true;
    for (int i = 0; i < npins && ok; i++)
      ok = tiles[pins[3 * i] * w + pins[3 * i + 1]] == pins[3 * i + 2];
    for (int c = 0; c < n && ok; c++)
      for (int d = 0; d < ndirs && ok; d++) {
        int to = nb[c * ndirs + d];
        if (to >= 0)
          ok = allow[(tiles[c] * ndirs + d) * T + tiles[to]];
      }
    count += ok && (!keep || keep(user, tiles));
    int k = 0;
    while (k < n && ++tiles[k] == T)
      tiles[k++] = 0;
    if (k == n)
      break;
  }
  free(tiles);
  free(nb);
  free(allow);
  return count;
}

tilesat_map *case_open(const map_case *c, tilesat_rules **r) {
  tilesat_error err;
  *r = tilesat_rules_read_file(c->rules, &err);
  cr_assert(*r, "%s: %s", c->rules, err.msg);
  tilesat_map *m =
      map_new(*r, c->w, c->h, tilesat_rules_topology(*r), c->periodic);
  if (c->pin)
    cr_assert_eq(tilesat_map_pin_spec(m, c->pin, &err), 0, "%s: %s", c->pin,
                 err.msg);
  return m;
}

long enum_count(const tilesat_map *m, tilesat_backend b) {
  tilesat_error err;
  int64_t n = tilesat_enumerate(m, SOLVE(b), 0, NULL, NULL, &err);
  cr_assert(n >= 0, "enumerate failed: %s", err.msg);
  return (long)n;
}

/* A tiny deterministic generator, so failures reproduce. */
unsigned long long test_rng = 1;
unsigned rnd(unsigned n) {
  test_rng = test_rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((test_rng >> 33) % n);
}

/* A random symmetric rule set of T tiles, each pair allowed with p/8. */
tilesat_rules *random_rules(int T, tilesat_topology topo, int p) {
  int nd = tilesat_topology_ndirs(topo);
  bool allow[8][6][8] = {{{false}}};
  for (int a = 0; a < T; a++)
    for (int d = 0; d < nd; d++)
      for (int b = 0; b < T; b++) {
        int o = tilesat_dir_opposite(topo, d);
        if (d < o && rnd(8) < (unsigned)p)
          allow[a][d][b] = allow[b][o][a] = true;
      }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  fprintf(f, "tilesat-rules 1\ntopology %s\n", tilesat_topology_name(topo));
  for (int t = 0; t < T; t++)
    fprintf(f, "tile %c\n", 'a' + t);
  for (int a = 0; a < T; a++)
    for (int d = 0; d < nd; d++) {
      fprintf(f, "allow %c %s", 'a' + a, tilesat_dir_name(topo, d));
      for (int b = 0; b < T; b++)
        if (allow[a][d][b])
          fprintf(f, " %c", 'a' + b);
      fputc('\n', f);
    }
  fclose(f);
  tilesat_rules *r = rules_from_text(text);
  free(text);
  return r;
}

void random_case_new(int iter, random_case *c) {
  c->topo = (iter % 2) ? TILESAT_HEX : TILESAT_SQUARE;
  c->periodic = (iter / 2) % 2;
  c->T = 2 + (int)rnd(3);
  c->w = 1 + (int)rnd(3);
  c->h = 1 + (int)rnd(3);
  if (c->T == 4 && c->w * c->h > 6)
    c->w = 2, c->h = 3;
  if (c->periodic && c->topo == TILESAT_HEX && c->h % 2)
    c->h = c->h == 3 ? 2 : c->h + 1;
  c->rules = random_rules(c->T, c->topo, 3 + (int)rnd(4));
  int pin[3] = {(int)rnd((unsigned)c->h), (int)rnd((unsigned)c->w),
                (int)rnd((unsigned)c->T)};
  c->npins = (iter / 4) % 2;
  c->brute =
      brute_count(c->rules, c->w, c->h, c->topo, c->periodic, pin, c->npins);
  c->map = map_new(c->rules, c->w, c->h, c->topo, c->periodic);
  tilesat_error err;
  if (c->npins)
    cr_assert_eq(tilesat_map_pin(c->map, pin[0], pin[1],
                                 tilesat_rules_tile_name(c->rules, pin[2]),
                                 &err),
                 0, "%s", err.msg);
  snprintf(c->desc, sizeof c->desc, "iter %d: %s %dx%d%s T=%d pins=%d", iter,
           tilesat_topology_name(c->topo), c->w, c->h,
           c->periodic ? " periodic" : "", c->T, c->npins);
}

void random_case_free(random_case *c) {
  tilesat_map_free(c->map);
  tilesat_rules_free(c->rules);
}

tilesat_rules *tileset(const char *name) {
  char path[128];
  snprintf(path, sizeof path, "tests/data/wfc/tilesets/%s.xml", name);
  tilesat_error err;
  tilesat_rules *r = tilesat_import_tileset(path, NULL, NULL, &err);
  cr_assert(r, "%s", err.msg);
  return r;
}

char *rules_file(const tilesat_rules *r) {
  char *path = temp_file("", 0);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  cr_assert_eq(tilesat_rules_write(r, f), 0);
  cr_assert_eq(fclose(f), 0);
  return path;
}

/* ------------------------------------------------ draws against maps */

static void key_of(const int *tiles, int cells, char *key) {
  for (int c = 0; c < cells; c++)
    key[c] = (char)('A' + tiles[c]);
  key[cells] = 0;
}

int atlas_add(void *user, const int *tiles) {
  atlas *a = user;
  a->key = realloc(a->key, (size_t)(a->n + 1) * sizeof *a->key);
  a->hits = realloc(a->hits, (size_t)(a->n + 1) * sizeof *a->hits);
  a->key[a->n] = malloc((size_t)a->cells + 1);
  key_of(tiles, a->cells, a->key[a->n]);
  a->hits[a->n++] = 0;
  return 0;
}

int atlas_hit(void *user, const int *tiles) {
  atlas *a = user;
  char key[256];
  key_of(tiles, a->cells, key);
  for (int i = 0; i < a->n; i++)
    if (!strcmp(a->key[i], key)) {
      a->hits[i]++;
      return 0;
    }
  a->strays++;
  return 0;
}

void atlas_free(atlas *a) {
  for (int i = 0; i < a->n; i++)
    free(a->key[i]);
  free(a->key);
  free(a->hits);
}

/* The chi-square quantile of probability 0.999 with k degrees of freedom
 * (Wilson and Hilferty's approximation, within 1% from k = 10). */
double chi2_999(int k) {
  double a = 2.0 / (9.0 * k), z = 3.0902;
  return k * pow(1 - a + z * sqrt(a), 3);
}

void expect_json_eq(const char *got, const char *want) {
  cJSON *g = cJSON_Parse(got), *w = cJSON_Parse(want);
  cr_assert(w != NULL, "the expected JSON does not parse: %s", want);
  cr_expect(g != NULL, "not JSON: %s", got);
  cr_expect(g && cJSON_Compare(g, w, true), "got %s\nwanted %s", got, want);
  cJSON_Delete(g);
  cJSON_Delete(w);
}
