/* Parts (count --part K/N, enum --part, tilesat sum, sample --part-split):
 * the parts of a problem are disjoint and their union is the problem, so
 * their counts add up to the count (square, hex, periodic, pinned, more
 * parts than maps) and their maps to enum's; the cut is the problem's;
 * sum refuses what does not add up, with exact messages; sampling through
 * the parts is exactly uniform. */
#include "helpers.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static tilesat_count_options dp_options(tilesat_method method) {
  tilesat_count_options o;
  tilesat_count_options_init(&o);
  o.method = method;
  return o;
}

/* The count of part k of n (mpz), by method. */
static void part_count(const tilesat_map *m, int k, int n,
                       tilesat_method method, mpz_t out) {
  tilesat_count_options o = dp_options(method);
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count_part(m, k, n, &o, &res, &err), 0, "%d/%d: %s", k,
               n, err.msg);
  mpz_set_str(out, res.count, 10);
  tilesat_count_result_free(&res);
}

static void whole_count(const tilesat_map *m, mpz_t out) {
  tilesat_count_options o = dp_options(TILESAT_METHOD_DP);
  tilesat_count_result res;
  tilesat_error err;
  cr_assert_eq(tilesat_count(m, &o, &res, &err), 0, "%s", err.msg);
  mpz_set_str(out, res.count, 10);
  tilesat_count_result_free(&res);
}

/* The n parts' counts add up to the whole's; returns how many are 0. */
static int expect_parts_sum(const tilesat_map *m, int n, tilesat_method method,
                            const char *what) {
  mpz_t whole, sum, c;
  mpz_inits(whole, sum, c, NULL);
  whole_count(m, whole);
  int empty = 0;
  for (int k = 1; k <= n; k++) {
    part_count(m, k, n, method, c);
    empty += !mpz_sgn(c);
    mpz_add(sum, sum, c);
  }
  cr_expect_eq(mpz_cmp(sum, whole), 0, "%s, %d parts (%s): %s, whole %s", what,
               n, tilesat_method_name(method), mpz_get_str(NULL, 10, sum),
               mpz_get_str(NULL, 10, whole));
  mpz_clears(whole, sum, c, NULL);
  return empty;
}

Test(part, counts_add_up_on_square_hex_periodic_and_pinned_maps) {
  map_case cases[] = {
      {"rules/coast.rules", 10, 10, false, NULL},
      {"rules/coast.rules", 12, 7, false, "3,5=C"}, /* wider: by columns */
      {"rules/coast.rules", 6, 6, true, NULL},
      {"rules/coast-hex.rules", 6, 6, false, NULL},
      {"rules/coast-hex.rules", 5, 4, false, "1,1=L"},
      {"rules/dungeon8.rules", 5, 4, true, NULL},
      {"rules/dungeon8.rules", 6, 6, false, "2,2=."},
      {"rules/hard.rules", 3, 3, false, NULL}, /* no map: every part 0 */
  };
  int ns[] = {1, 2, 3, 8, 33};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++)
      expect_parts_sum(m, ns[j], TILESAT_METHOD_DP, cases[i].rules);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
  /* bans (the library's "cell X cannot hold tile T") */
  map_case banned = {"rules/coast.rules", 5, 4, false, "2,2=C"};
  tilesat_rules *r;
  tilesat_map *b = case_open(&banned, &r);
  tilesat_error err;
  for (int c = 0; c < 5; c++)
    cr_assert_eq(tilesat_map_ban(b, 0, c, 2, &err), 0); /* no sea on top */
  cr_assert_eq(tilesat_map_ban(b, 3, 4, 0, &err), 0);
  expect_parts_sum(b, 7, TILESAT_METHOD_DP, "coast 5x4 with bans");
  expect_parts_sum(b, 7, TILESAT_METHOD_ENUM, "coast 5x4 with bans");
  tilesat_map_free(b);
  tilesat_rules_free(r);
  /* a WFC tileset, with a pin */
  tilesat_rules *knots = tileset("Knots");
  tilesat_map *m = map_new(knots, 7, 7, TILESAT_SQUARE, false);
  cr_assert_eq(tilesat_map_pin(m, 3, 3, "cross 1", &err), 0, "%s", err.msg);
  expect_parts_sum(m, 8, TILESAT_METHOD_DP, "Knots 7x7");
  expect_parts_sum(m, 40, TILESAT_METHOD_DP, "Knots 7x7");
  tilesat_map_free(m);
  tilesat_rules_free(knots);
}

/* More parts than maps: the parts still add up; most are empty. */
Test(part, more_parts_than_maps) {
  map_case c = {"rules/coast.rules", 2, 2, false, NULL}; /* 10 maps */
  tilesat_rules *r;
  tilesat_map *m = case_open(&c, &r);
  int empty = expect_parts_sum(m, 50, TILESAT_METHOD_DP, "coast 2x2");
  cr_expect_geq(empty, 40, "%d of 50 parts empty", empty);
  cr_expect_eq(expect_parts_sum(m, 50, TILESAT_METHOD_ENUM, "coast 2x2"),
               empty);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* Random rule sets, square and hex, open and periodic, pinned or not:
 * the parts add up to brute force, and each part's dp count is its enum
 * count. */
Test(part, random_cases_against_brute_force_and_enum) {
  test_rng = 14;
  for (int iter = 0; iter < 48; iter++) {
    random_case c;
    random_case_new(iter, &c);
    int n = 2 + (int)rnd(20);
    long sum = 0;
    mpz_t dp, en;
    mpz_inits(dp, en, NULL);
    for (int k = 1; k <= n; k++) {
      part_count(c.map, k, n, TILESAT_METHOD_DP, dp);
      part_count(c.map, k, n, TILESAT_METHOD_ENUM, en);
      cr_expect_eq(mpz_cmp(dp, en), 0, "%s: part %d/%d: dp %ld, enum %ld",
                   c.desc, k, n, mpz_get_si(dp), mpz_get_si(en));
      sum += mpz_get_si(dp);
    }
    cr_expect_eq(sum, c.brute, "%s: %d parts add up to %ld, brute force %ld",
                 c.desc, n, sum, c.brute);
    mpz_clears(dp, en, NULL);
    random_case_free(&c);
  }
}

/* ---------------------------------------------------------- enum --part */

typedef struct map_set {
  int ncells, n;
  char **maps;
} map_set;

static int collect(void *user, const int *tiles) {
  map_set *s = user;
  s->maps = realloc(s->maps, (size_t)(s->n + 1) * sizeof *s->maps);
  char *key = malloc((size_t)s->ncells + 1);
  for (int c = 0; c < s->ncells; c++)
    key[c] = (char)('a' + tiles[c]);
  key[s->ncells] = 0;
  s->maps[s->n++] = key;
  return 0;
}

static int find_map(const map_set *s, const char *key) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->maps[i], key))
      return i;
  return -1;
}

static void map_set_free(map_set *s) {
  for (int i = 0; i < s->n; i++)
    free(s->maps[i]);
  free(s->maps);
}

/* Each map of the whole in exactly one part, and nothing else in them. */
static void expect_enum_cover(const tilesat_map *m, int n, const char *what) {
  const tilesat_map_info mi = map_info(m);
  int ncells = mi.width * mi.height;
  map_set whole = {ncells, 0, NULL};
  tilesat_error err;
  cr_assert_geq(tilesat_enumerate(m, NULL, 0, collect, &whole, &err), 0, "%s",
                err.msg);
  int *owner = calloc((size_t)whole.n + 1, sizeof *owner);
  for (int k = 1; k <= n; k++) {
    tilesat_map *p;
    cr_assert_eq(tilesat_map_part(m, k, n, &p, &err), 0, "%s", err.msg);
    map_set part = {ncells, 0, NULL};
    if (p)
      cr_assert_geq(tilesat_enumerate(p, NULL, 0, collect, &part, &err), 0,
                    "%s", err.msg);
    for (int i = 0; i < part.n; i++) {
      int w = find_map(&whole, part.maps[i]);
      cr_expect_geq(w, 0, "%s: part %d/%d has a map enum does not", what, k, n);
      if (w >= 0) {
        cr_expect_eq(owner[w], 0, "%s: map %s in parts %d and %d", what,
                     part.maps[i], owner[w], k);
        owner[w] = k;
      }
    }
    map_set_free(&part);
    tilesat_map_free(p);
  }
  for (int w = 0; w < whole.n; w++)
    cr_expect_neq(owner[w], 0, "%s: map %s in no part of %d", what,
                  whole.maps[w], n);
  free(owner);
  map_set_free(&whole);
}

Test(part, enum_parts_are_disjoint_and_cover_enum) {
  map_case cases[] = {
      {"rules/coast.rules", 4, 3, false, NULL},
      {"rules/coast.rules", 3, 3, true, NULL},
      {"rules/coast-hex.rules", 3, 3, false, "2,1=S"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tilesat_rules *r;
    tilesat_map *m = case_open(&cases[i], &r);
    for (int n = 1; n <= 13; n += 4)
      expect_enum_cover(m, n, cases[i].rules);
    tilesat_map_free(m);
    tilesat_rules_free(r);
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The maps of `enum` output (blank line after each), sorted, without the
 * closing "maps: N". */
static char **enum_maps(const char *out, int *n) {
  char *text = strdup(out), **maps = NULL;
  *n = 0;
  for (char *p = text, *end; *p; p = end + 2) {
    if (!strncmp(p, "maps: ", 6))
      break;
    end = strstr(p, "\n\n");
    cr_assert(end, "enum output: %s", out);
    maps = realloc(maps, (size_t)(*n + 1) * sizeof *maps);
    maps[(*n)++] = strndup(p, (size_t)(end - p));
  }
  free(text);
  qsort(maps, (size_t)*n, sizeof *maps, cmp_str);
  return maps;
}

Test(part_cli, enum_part_lists_the_parts_maps) {
  run_result all = RUN("enum", "rules/coast.rules", "--size", "3x3");
  cr_assert_eq(all.code, 10, "%s", all.err);
  int nall;
  char **want = enum_maps(all.out, &nall);
  char **got = NULL;
  int ngot = 0;
  for (int k = 1; k <= 4; k++) {
    char part[16];
    snprintf(part, sizeof part, "%d/4", k);
    run_result p =
        RUN("enum", "rules/coast.rules", "--size", "3x3", "--part", part);
    cr_expect(p.code == 10 || p.code == 20, "%s: exit %d %s", part, p.code,
              p.err);
    int n;
    char **maps = enum_maps(p.out, &n);
    char last[32];
    snprintf(last, sizeof last, "maps: %d\n", n);
    cr_expect(strstr(p.out, last), "%s: %s", part, p.out);
    cr_expect_eq(p.code, n ? 10 : 20);
    got = realloc(got, (size_t)(ngot + n) * sizeof *got);
    memcpy(got + ngot, maps, (size_t)n * sizeof *maps);
    ngot += n;
    free(maps);
    run_free(&p);
  }
  qsort(got, (size_t)ngot, sizeof *got, cmp_str);
  cr_assert_eq(ngot, nall, "the parts list %d maps, enum %d", ngot, nall);
  for (int i = 0; i < nall; i++) /* sorted: equal lists, no repeats */
    cr_expect_str_eq(got[i], want[i]);
  for (int i = 0; i < nall; i++) {
    free(got[i]);
    free(want[i]);
  }
  free(got);
  free(want);
  run_free(&all);
}

/* ------------------------------------------------- the cut and its name */

static void fingerprint_of(const char *rules, int w, int h, bool periodic,
                           const char *const *pins, char id[17]) {
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(rules, &err);
  cr_assert(r, "%s", err.msg);
  tilesat_map *m = map_new(r, w, h, tilesat_rules_topology(r), periodic);
  for (int i = 0; pins && pins[i]; i++)
    cr_assert_eq(tilesat_map_pin_spec(m, pins[i], &err), 0, "%s", err.msg);
  tilesat_map_fingerprint(m, id);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

Test(part, the_fingerprint_names_the_problem) {
  const char *ab[] = {"0,0=L", "2,2=S", NULL};
  const char *ba[] = {"2,2=S", "0,0=L", "2,2=S", NULL};
  const char *other[] = {"0,0=L", "2,2=C", NULL};
  char a[17], b[17], c[17];
  fingerprint_of("rules/coast.rules", 4, 3, false, ab, a);
  cr_expect_eq(strlen(a), 16);
  cr_expect_eq(strspn(a, "0123456789abcdef"), 16, "%s", a);
  fingerprint_of("rules/coast.rules", 4, 3, false, ba, b);
  cr_expect_str_eq(a, b, "the pins' order and repeats do not matter");
  fingerprint_of("rules/coast.rules", 4, 3, false, other, c);
  cr_expect_str_neq(a, c, "another pin");
  fingerprint_of("rules/coast.rules", 4, 3, true, ab, c);
  cr_expect_str_neq(a, c, "periodic");
  fingerprint_of("rules/coast.rules", 3, 4, false, ab, c);
  cr_expect_str_neq(a, c, "another size");
  fingerprint_of("rules/coast-hex.rules", 4, 3, false, ab, c);
  cr_expect_str_neq(a, c, "other rules");
  /* a ban is part of it too */
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  for (int i = 0; i < 2; i++)
    tilesat_map_pin_spec(m, ab[i], &err);
  cr_assert_eq(tilesat_map_ban(m, 1, 1, 0, &err), 0);
  tilesat_map_fingerprint(m, c);
  cr_expect_str_neq(a, c, "a ban");
  /* and a part is the same map each time it is asked for */
  for (int k = 1; k <= 6; k++) {
    tilesat_map *p, *q;
    cr_assert_eq(tilesat_map_part(m, k, 6, &p, &err), 0);
    cr_assert_eq(tilesat_map_part(m, k, 6, &q, &err), 0);
    cr_assert_eq(!p, !q);
    if (p) {
      tilesat_map_fingerprint(p, a);
      tilesat_map_fingerprint(q, b);
      cr_expect_str_eq(a, b, "part %d/6", k);
    }
    tilesat_map_free(p);
    tilesat_map_free(q);
  }
  cr_expect_eq(tilesat_map_part(m, 7, 6, &(tilesat_map *){NULL}, &err), -1);
  cr_expect_str_eq(err.msg, "part: part 7 of 6: K/N needs 1 <= K <= N <= "
                            "1000000");
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* ------------------------------------------------- count --part and sum */

/* Write text to DIR/name; returns the path (malloc'd). */
static char *put(const char *dir, const char *name, const char *text) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert(f);
  fputs(text, f);
  fclose(f);
  return path;
}

/* The check count --part prints on a part's line: zlib's CRC-32 of
 * "part K/N of problem ID\nCOUNT" (README, "Beyond one machine"). */
static unsigned long crc_of(int k, int n, const char *id, const char *count) {
  char text[256];
  int len = snprintf(text, sizeof text, "part %d/%d of problem %s\n%s", k, n,
                     id, count);
  return crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)len);
}

/* count --part k/n of coast 12x12 pinned (or of `size`), saved in DIR/pK
 * (the path, malloc'd); *id gets the problem's name. */
static char *count_part_file(const char *dir, const char *size, int k, int n,
                             char id[17]) {
  char part[32], name[32];
  snprintf(part, sizeof part, "%d/%d", k, n);
  snprintf(name, sizeof name, "p%d-%d-%s", k, n, size);
  run_result r = RUN("count", "rules/coast.rules", "--size", size, "--pin",
                     "3,3=C", "--part", part);
  cr_assert_eq(r.code, 0, "%s", r.err);
  int kk, nn;
  char count[64] = "";
  cr_assert_eq(sscanf(r.out,
                      "part %d/%d of problem %16[0-9a-f], check %*x\n%63s", &kk,
                      &nn, id, count),
               4, "%s", r.out);
  cr_expect_eq(kk, k);
  cr_expect_eq(nn, n);
  char want[128];
  snprintf(want, sizeof want, "part %d/%d of problem %s, check %08lx\n%s\n", k,
           n, id, crc_of(k, n, id, count), count);
  cr_expect_str_eq(r.out, want);
  char *path = put(dir, name, r.out);
  run_free(&r);
  return path;
}

Test(part_cli, sum_adds_the_parts_up_to_count) {
  char *dir = temp_dir(), id[17];
  run_result whole =
      RUN("count", "rules/coast.rules", "--size", "12x12", "--pin", "3,3=C");
  cr_assert_eq(whole.code, 0);
  char *paths[5];
  for (int k = 5; k >= 1; k--) /* any order */
    paths[k - 1] = count_part_file(dir, "12x12", k, 5, id);
  run_result sum = RUN("sum", paths[3], paths[1], paths[0], paths[4], paths[2]);
  cr_expect_eq(sum.code, 0, "%s", sum.err);
  cr_expect_str_eq(sum.out, whole.out);
  cr_expect_str_eq(sum.err, "");
  run_free(&sum);
  /* several parts in one file (their outputs one after the other) */
  size_t len = 0;
  char *all = calloc(1, 4096);
  for (int k = 0; k < 5; k++) {
    char *text = slurp(paths[k]);
    len += (size_t)snprintf(all + len, 4096 - len, "%s%s", text,
                            k == 2 ? "\n" : ""); /* a blank line is fine */
    free(text);
  }
  char *one = put(dir, "all", all);
  sum = RUN("sum", one);
  cr_expect_eq(sum.code, 0, "%s", sum.err);
  cr_expect_str_eq(sum.out, whole.out);
  run_free(&sum);

  /* what sum refuses, each with its message */
  char want[1024];
  snprintf(want, sizeof want,
           "tilesat: sum: parts 2, 3 and 5 of 5 are missing (problem %s)\n",
           id);
  expect_cli_error(want, "sum", paths[0], paths[3]);
  snprintf(want, sizeof want,
           "tilesat: sum: part 4 of 5 is missing (problem %s)\n", id);
  expect_cli_error(want, "sum", paths[0], paths[1], paths[2], paths[4]);
  snprintf(want, sizeof want, "tilesat: %s:1: part 2/5 again (also %s:1)\n",
           paths[1], paths[1]);
  expect_cli_error(want, "sum", paths[0], paths[1], paths[1]);
  snprintf(want, sizeof want, "tilesat: %s:5: part 3/5 again (also %s:1)\n",
           one, paths[2]);
  expect_cli_error(want, "sum", paths[2], one);
  char other_id[17];
  char *other = count_part_file(dir, "12x11", 1, 5, other_id);
  snprintf(want, sizeof want,
           "tilesat: %s:1: part 1/5 of problem %s, but %s:1 is of problem "
           "%s\n",
           other, other_id, paths[1], id);
  expect_cli_error(want, "sum", paths[1], other);
  char *four = count_part_file(dir, "12x12", 1, 4, other_id);
  cr_expect_str_eq(other_id, id, "the same problem, another cut");
  snprintf(want, sizeof want,
           "tilesat: %s:1: part 1/4, but %s:1 is a part of 5: parts of "
           "different cuts\n",
           four, paths[0]);
  expect_cli_error(want, "sum", paths[0], four);

  char *junk = put(dir, "junk", "1870220\n");
  snprintf(want, sizeof want,
           "tilesat: %s:1: not a part of a count: 'part K/N of problem ID, "
           "check C' and its count, as count --part K/N prints them\n",
           junk);
  expect_cli_error(want, "sum", junk);
  char *nocount = put(dir, "nocount",
                      "part 1/1 of problem 0123456789abcdef, check 00000000\n");
  snprintf(want, sizeof want, "tilesat: %s:1: no count after part 1/1\n",
           nocount);
  expect_cli_error(want, "sum", nocount);
  char *badcount =
      put(dir, "badcount",
          "part 1/1 of problem 0123456789abcdef, check 00000000\n12x\n");
  snprintf(want, sizeof want,
           "tilesat: %s:2: not a count after part 1/1: '12x'\n", badcount);
  expect_cli_error(want, "sum", badcount);
  char *empty = put(dir, "empty", "");
  snprintf(want, sizeof want,
           "tilesat: %s: no part in it (count --part K/N prints one)\n", empty);
  expect_cli_error(want, "sum", empty);
  snprintf(want, sizeof want,
           "tilesat: %s/none: cannot open: No such file or directory\n", dir);
  char none[4200];
  snprintf(none, sizeof none, "%s/none", dir);
  expect_cli_error(want, "sum", none);
  expect_cli_error("tilesat: sum takes the files count --part K/N wrote (see "
                   "'tilesat sum --help')\n",
                   "sum");
  /* one part of one: the count itself */
  run_result single = RUN("sum", badcount);
  run_free(&single);
  char text1[256];
  snprintf(text1, sizeof text1,
           "part 1/1 of problem 0123456789abcdef, check %08lx\n"
           "123456789012345678901234567890\n",
           crc_of(1, 1, "0123456789abcdef", "123456789012345678901234567890"));
  char *whole1 = put(dir, "whole1", text1);
  single = RUN("sum", whole1);
  cr_expect_eq(single.code, 0);
  cr_expect_str_eq(single.out, "123456789012345678901234567890\n");
  run_free(&single);

  char *all_paths[] = {paths[0], paths[1], paths[2], paths[3], paths[4],
                       one,      other,    four,     junk,     nocount,
                       badcount, empty,    whole1};
  for (size_t i = 0; i < sizeof all_paths / sizeof all_paths[0]; i++)
    free(all_paths[i]);
  free(all);
  run_free(&whole);
  rm_dir(dir);
}

/* Found by the bad-input audit (issue 20): sum read "5\\0999" as 5 (a NUL
 * ended the line) and added an edited count without a word.  A count is
 * plain digits as count prints them, and each part's check (a CRC-32 over
 * the part line and the count) must match its count. */
Test(part_cli, sum_refuses_nul_bytes_and_edited_counts) {
  char *dir = temp_dir(), id[17];
  char *good = count_part_file(dir, "4x4", 1, 1, id);
  char *text = slurp(good);
  char *head = strdup(text), *count = strchr(head, '\n') + 1;
  count[-1] = 0;
  count[strlen(count) - 1] = 0;
  run_result r = RUN("sum", good);
  cr_expect_eq(r.code, 0, "%s", r.err);
  cr_expect_eq(strncmp(r.out, count, strlen(count)), 0, "%s", r.out);
  run_free(&r);
  unsigned long check = crc_of(1, 1, id, count);
  /* the count edited: one more */
  mpz_t c;
  mpz_init_set_str(c, count, 10);
  mpz_add_ui(c, c, 1);
  char *more = mpz_get_str(NULL, 10, c);
  mpz_clear(c);
  char buf[512], want[1024];
  snprintf(buf, sizeof buf, "%s\n%s\n", head, more);
  char *edited = put(dir, "edited", buf);
  snprintf(want, sizeof want,
           "tilesat: %s:2: the count of part 1/1 does not match its check "
           "(%08lx): edited or damaged\n",
           edited, check);
  expect_cli_error(want, "sum", edited);
  /* a NUL byte in the count, and in the part line */
  int len = snprintf(buf, sizeof buf, "%s\n5%c999\n", head, 0);
  char *nul = temp_file(buf, len);
  snprintf(want, sizeof want,
           "tilesat: %s:2: not a count after part 1/1: the line holds a NUL "
           "byte\n",
           nul);
  expect_cli_error(want, "sum", nul);
  len = snprintf(buf, sizeof buf, "%s%cjunk\n%s\n", head, 0, count);
  char *nul_head = temp_file(buf, len);
  snprintf(want, sizeof want,
           "tilesat: %s:1: not a part of a count: 'part K/N of problem ID, "
           "check C' and its count, as count --part K/N prints them\n",
           nul_head);
  expect_cli_error(want, "sum", nul_head);
  /* a carriage return inside the count (a CRLF line end is fine) */
  snprintf(buf, sizeof buf, "%s\r\n5\r999\r\n", head);
  char *cr = put(dir, "cr", buf);
  snprintf(want, sizeof want,
           "tilesat: %s:2: not a count after part 1/1: the line holds a "
           "carriage return\n",
           cr);
  expect_cli_error(want, "sum", cr);
  snprintf(buf, sizeof buf, "%s\r\n%s\r\n", head, count);
  char *crlf = put(dir, "crlf", buf);
  r = RUN("sum", crlf);
  cr_expect_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  /* counts not spelt as count spells them, and a line without its check */
  const char *spelt[] = {"+", "0", " "};
  for (size_t i = 0; i < sizeof spelt / sizeof *spelt; i++) {
    snprintf(buf, sizeof buf, "%s\n%s%s\n", head, spelt[i], count);
    char *f = put(dir, "spelt", buf);
    snprintf(want, sizeof want,
             "tilesat: %s:2: not a count after part 1/1: '%s%s'\n", f, spelt[i],
             count);
    expect_cli_error(want, "sum", f);
    free(f);
  }
  snprintf(buf, sizeof buf, "part 1/1 of problem %s\n%s\n", id, count);
  char *old = put(dir, "old", buf);
  snprintf(want, sizeof want,
           "tilesat: %s:1: not a part of a count: 'part K/N of problem ID, "
           "check C' and its count, as count --part K/N prints them\n",
           old);
  expect_cli_error(want, "sum", old);
  char *made[] = {nul, nul_head};
  for (int i = 0; i < 2; i++) {
    remove(made[i]);
    free(made[i]);
  }
  free(good);
  free(text);
  free(head);
  free(more);
  free(edited);
  free(cr);
  free(crlf);
  free(old);
  rm_dir(dir);
}

Test(part_cli, part_option_errors) {
  const char *bad[] = {"0/4", "5/4", "1/0",  "1/4x",     "a/b",
                       "1/",  "/4",  "-1/4", "1/1000001"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[128];
    snprintf(want, sizeof want,
             "tilesat: --part: '%s' is not K/N with 1 <= K <= N <= 1000000\n",
             bad[i]);
    expect_cli_error(want, "count", "rules/coast.rules", "--size", "3x3",
                     "--part", bad[i]);
    expect_cli_error(want, "enum", "rules/coast.rules", "--size", "3x3",
                     "--part", bad[i]);
  }
  expect_cli_error("tilesat: --part: the parts' counts must be exact: "
                   "--method dp or enum, not approx\n",
                   "count", "rules/coast.rules", "--size", "3x3", "--part",
                   "1/2", "--method", "approx");
  expect_cli_error("tilesat: --part-split: sampling by parts takes the dp "
                   "(--method dp or auto), not approx\n",
                   "sample", "rules/coast.rules", "--size", "3x3",
                   "--part-split", "2", "--method", "approx");
}

/* ------------------------------------------------ sampling by the parts */

typedef struct tally {
  int ncells;
  const tilesat_map *m;
  map_set seen;
  int *hits;
} tally;

static int record(void *user, const int *tiles) {
  tally *t = user;
  char why[256];
  cr_assert(tilesat_map_verify(t->m, tiles, why, sizeof why), "%s", why);
  char key[64] = {0};
  for (int c = 0; c < t->ncells; c++)
    key[c] = (char)('a' + tiles[c]);
  int i = find_map(&t->seen, key);
  if (i < 0) {
    collect(&t->seen, tiles);
    i = t->seen.n - 1;
    t->hits = realloc(t->hits, (size_t)t->seen.n * sizeof *t->hits);
    t->hits[i] = 0;
  }
  t->hits[i]++;
  return 0;
}

/* Drawn through `parts` parts, each of the maps' `nmaps` maps comes about
 * equally often: a chi-square test at the 0.999 quantile `critical` of
 * nmaps - 1 degrees of freedom (fixed seed: deterministic). */
static void expect_uniform(const tilesat_map *m, int parts, int nmaps,
                           double critical) {
  tilesat_count_options o = dp_options(TILESAT_METHOD_AUTO);
  o.seed = 21;
  const tilesat_map_info mi = map_info(m);
  int ncells = mi.width * mi.height;
  tally t = {ncells, m, {ncells, 0, NULL}, NULL};
  int draws = nmaps * 300;
  tilesat_error err;
  cr_assert_eq(tilesat_sample_parts(m, &o, parts, draws, record, &t, &err),
               draws, "%s", err.msg);
  cr_expect_eq(t.seen.n, nmaps, "%d of %d maps drawn", t.seen.n, nmaps);
  double chi = 0, expect = (double)draws / nmaps;
  for (int i = 0; i < t.seen.n; i++)
    chi += (t.hits[i] - expect) * (t.hits[i] - expect) / expect;
  chi += (nmaps - t.seen.n) * expect;
  cr_expect_lt(chi, critical, "%d parts: chi-square %.1f over %d degrees",
               parts, chi, nmaps - 1);
  map_set_free(&t.seen);
  free(t.hits);
}

Test(sample, through_parts_is_exactly_uniform) {
  map_case square = {"rules/coast.rules", 3, 3, false, NULL}; /* 35 maps */
  tilesat_rules *r;
  tilesat_map *m = case_open(&square, &r);
  expect_uniform(m, 4, 35, 65.25);
  expect_uniform(m, 50, 35, 65.25); /* more parts than maps */
  tilesat_map_free(m);
  tilesat_rules_free(r);
  map_case hex = {"rules/coast-hex.rules", 3, 3, false, "1,1=C"};
  m = case_open(&hex, &r);
  mpz_t n;
  mpz_init(n);
  whole_count(m, n);
  cr_assert_eq(mpz_cmp_ui(n, 36), 0, "coast-hex 3x3 pinned: %s maps",
               mpz_get_str(NULL, 10, n));
  expect_uniform(m, 5, 36, 66.62);
  mpz_clear(n);
  tilesat_map_free(m);
  tilesat_rules_free(r);
}

/* sample --part-split: the library's maps, the same seed the same maps. */
typedef struct printer {
  FILE *f;
  const tilesat_map *m;
} printer;

static int print_map(void *user, const int *tiles) {
  printer *p = user;
  tilesat_map_write(p->m, tiles, p->f);
  fputc('\n', p->f);
  return 0;
}

Test(sample_cli, part_split_draws_the_librarys_maps) {
  run_result a = RUN("sample", "rules/coast.rules", "--size", "4x3",
                     "--part-split", "6", "-n", "5", "--seed", "8");
  run_result b = RUN("sample", "rules/coast.rules", "--size", "4x3",
                     "--part-split", "6", "-n", "5", "--seed", "8");
  cr_expect_eq(a.code, 10, "%s", a.err);
  cr_expect_str_eq(a.out, b.out);
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file("rules/coast.rules", &err);
  tilesat_map *m = map_new(r, 4, 3, TILESAT_SQUARE, false);
  tilesat_count_options o = dp_options(TILESAT_METHOD_AUTO);
  o.seed = 8;
  char *want = NULL;
  size_t len = 0;
  printer p = {open_memstream(&want, &len), m};
  cr_assert_eq(tilesat_sample_parts(m, &o, 6, 5, print_map, &p, &err), 5);
  fclose(p.f);
  cr_expect_str_eq(a.out, want);
  free(want);
  tilesat_map_free(m);
  tilesat_rules_free(r);
  run_free(&a);
  run_free(&b);
}
