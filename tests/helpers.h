/* helpers.h: what the test suites share. */
#ifndef TILESAT_TEST_HELPERS_H
#define TILESAT_TEST_HELPERS_H

#include "tilesat.h"
#include "tilesat_io.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

/* Every backend: every test that solves runs on each and compares. */
#define NBACKENDS 3
extern const tilesat_backend backends[NBACKENDS];
/* Solve options for backend b (a compound literal: lives in the caller's
 * block). */
#define SOLVE(b) (&(tilesat_solve_options){.backend = (b)})

/* The result of running the real tilesat binary. */
typedef struct run_result {
  int code; /* exit code, or 128+signal */
  char *out, *err;
  double stopped; /* seconds from the signal sent (if any) to the exit */
} run_result;

/* Run build/tilesat (or $TILESAT_BIN) with a NULL-terminated argv (without
 * the program name), standard input from /dev/null. */
run_result run_cli(const char *const *args);
void run_free(run_result *r);
/* The same, sending SIGINT after `ms` milliseconds (as Ctrl-C would). */
run_result run_cli_interrupted(const char *const *args, int ms);
/* The most general form: `sig` after `ms` milliseconds (none when ms is 0),
 * and `setup`, when not NULL, called in the child just before exec (with
 * standard output already on the file r.out is read from: it may move it,
 * r.out is then empty). */
run_result run_cli_with(const char *const *args, int ms, int sig,
                        void (*setup)(void));
/* A fresh temporary folder (malloc'd); rm_dir removes it and all it holds
 * (files only) and frees the path; what is left is removed at exit. */
char *temp_dir(void);
/* WFC's Castle imported into dir (castle.rules, castle.pictures beside
 * it): the rules' path into rules. */
void import_castle(const char *dir, char *rules, size_t len);
/* How many random cases a cross-check draws: n; half of n when
 * TILESAT_TEST_QUICK is set (`make test`'s sanitizer pass runs every test
 * with the same assertions on fewer random cases); 4n when
 * TILESAT_TEST_LONG is set (`make test-long`). */
int test_cases(int n);
/* roff (tilesat --man) back to text, malloc'd: \- is '-', \e is '\', \& is
 * nothing. */
char *unroff(const char *s);
/* Rules of three tiles a, b, c in a line: a cell's neighbour is the same
 * tile or the next one (a beside c never), in every direction. */
extern const char line_rules[];
void rm_dir(char *dir);
/* How many entries a folder holds (besides . and ..). */
int dir_entries(const char *dir);
#define RUN(...) run_cli((const char *const[]){__VA_ARGS__, NULL})
/* Run the CLI and expect what every bad input gets: exit 1, exactly
 * `expected_stderr` on stderr, nothing on stdout.  A macro, so that a
 * failure names the caller's file and line. */
#define expect_cli_error(expected_stderr, ...)                                 \
  do {                                                                         \
    const char *cli_want_ = (expected_stderr);                                 \
    run_result cli_got_ = RUN(__VA_ARGS__);                                    \
    cr_expect_eq(cli_got_.code, 1, "exit %d for %s", cli_got_.code,            \
                 cli_want_);                                                   \
    cr_expect_str_eq(cli_got_.err, cli_want_);                                 \
    cr_expect_str_eq(cli_got_.out, "");                                        \
    run_free(&cli_got_);                                                       \
  } while (0)

/* The same for a message only partly known (one that quotes a library):
 * exit 1, stderr beginning "tilesat: PATH" and holding `part`, nothing on
 * stdout. */
#define expect_cli_file_error(path, part, ...)                                 \
  do {                                                                         \
    const char *cli_part_ = (part);                                            \
    char cli_prefix_[256];                                                     \
    snprintf(cli_prefix_, sizeof cli_prefix_, "tilesat: %s", (path));          \
    run_result cli_got_ = RUN(__VA_ARGS__);                                    \
    cr_expect_eq(cli_got_.code, 1, "%s: exit %d", cli_part_, cli_got_.code);   \
    cr_expect_eq(strncmp(cli_got_.err, cli_prefix_, strlen(cli_prefix_)), 0,   \
                 "%s", cli_got_.err);                                          \
    cr_expect(strstr(cli_got_.err, cli_part_), "want '%s' in %s", cli_part_,   \
              cli_got_.err);                                                   \
    cr_expect_str_eq(cli_got_.out, "");                                        \
    run_free(&cli_got_);                                                       \
  } while (0)

/* A fresh temporary file holding `text` (len bytes, or strlen when -1);
 * returns its path (malloc'd; removed at exit). */
char *temp_file(const char *text, long len);
/* Read a whole file (malloc'd, NUL-terminated). */
char *slurp(const char *path);
/* Expect two JSON documents to say the same (cJSON_Compare: the same
 * values, objects' keys in any order); both must parse. */
void expect_json_eq(const char *got, const char *want);

tilesat_rules *rules_from_text(const char *text);
/* tilesat_map_get's struct, as a value. */
tilesat_map_info map_info(const tilesat_map *m);
/* tilesat_explanation_get's, tilesat_repairs_get's and tilesat_energy_get's
 * structs, as values. */
tilesat_explanation_info explanation_info(const tilesat_explanation *e);
tilesat_repairs_info repairs_info(const tilesat_repairs *r);
tilesat_energy_info energy_info(const tilesat_energy *e);
/* tilesat_collapse_get's struct, as a value (c's last run). */
tilesat_collapse_info collapse_info(const tilesat_collapse *c);
/* One of the bundled WFC tilesets, tests/data/wfc/tilesets/NAME.xml. */
tilesat_rules *tileset(const char *name);
/* r written to a fresh temporary rules file, for the command line (the
 * path is malloc'd; remove it and free it). */
char *rules_file(const tilesat_rules *r);
tilesat_rules *rules_from_file(const char *path);
tilesat_rules *rules_from_sample(const char *grid, tilesat_topology topo,
                                 bool periodic);
tilesat_map *map_new(const tilesat_rules *r, int w, int h,
                     tilesat_topology topo, bool periodic);

/* Count valid maps by enumerating all ntiles^(w*h) fillings, with its own
 * neighbour geometry (hex through cube coordinates), independent of the
 * library's topology and encoder.  pins: npins (row, col, tile) triples. */
long brute_count(const tilesat_rules *r, int w, int h, tilesat_topology topo,
                 bool periodic, const int *pins, int npins);
/* The same, counting only the maps `keep` keeps (a filter written in the
 * test: global constraints checked by the test's own code). */
long brute_count_if(const tilesat_rules *r, int w, int h, tilesat_topology topo,
                    bool periodic, const int *pins, int npins,
                    bool (*keep)(void *user, const int *tiles), void *user);
/* brute_count's own neighbour geometry: the neighbour of (row, col) in
 * direction dir (the library's numbering), false where the map ends. */
bool brute_neighbor(tilesat_topology topo, int w, int h, bool periodic, int row,
                    int col, int dir, int *nr, int *nc);

/* A map to solve or count: rules file, size, wrap, optional pin. */
typedef struct map_case {
  const char *rules;
  int w, h;
  bool periodic;
  const char *pin;
} map_case;
/* The map of a case, in its rules' topology; *r gets its rules (the caller
 * frees both). */
tilesat_map *case_open(const map_case *c, tilesat_rules **r);

/* Count maps with tilesat_enumerate on a backend. */
long enum_count(const tilesat_map *m, tilesat_backend b);

/* A deterministic generator (test_rng is its state), so failures
 * reproduce; rnd(n) is uniform in 0..n-1. */
extern unsigned long long test_rng;
unsigned rnd(unsigned n);
/* A random symmetric rule set of T <= 8 tiles, each pair allowed with
 * probability p/8. */
tilesat_rules *random_rules(int T, tilesat_topology topo, int p);

/* A random small case for cross-checks, drawn with test_rng: square or
 * hex (iter odd), open or periodic, 2..4 tiles, up to 3x3, one pin or
 * none, and its count by brute force. */
typedef struct random_case {
  tilesat_rules *rules;
  tilesat_map *map; /* pinned as described */
  tilesat_topology topo;
  bool periodic;
  int w, h, T, npins;
  long brute;     /* brute_count of the case */
  char desc[128]; /* for failure messages */
} random_case;
void random_case_new(int iter, random_case *c);
void random_case_free(random_case *c);

/* Every valid map of a small case, each with how often it was drawn:
 * atlas_add (a tilesat_enumerate callback) lists the maps, atlas_hit (a
 * tilesat_sample callback) counts a draw (strays: draws that are none of
 * them; a masked cell's TILESAT_NO_TILE is a tile like the others). */
typedef struct atlas {
  int cells, n;
  char **key;
  int *hits;
  int strays; /* draws that are none of the maps */
} atlas;
int atlas_add(void *user, const int *tiles);
int atlas_hit(void *user, const int *tiles);
void atlas_free(atlas *a);
/* The chi-square quantile of probability 0.999 with k degrees of freedom
 * (Wilson and Hilferty's approximation, within 1% from k = 10). */
double chi2_999(int k);

#endif
