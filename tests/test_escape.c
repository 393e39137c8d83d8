/* Names that hold anything a rules file allows (control bytes, quotes,
 * <&>, backslashes, bytes that are not UTF-8): every file tilesat writes
 * (.tmx, .tmj, .tsx, .tsj, JSON outputs) reads back to the same names, by
 * tilesat and by real headless Tiled, and messages show such names with
 * escapes, never raw controls. */
/* POSIX with XSI: setenv in the child (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "helpers.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The names as a rules file quotes them (rules/README.md), in order. */
#define NNAMES 12
static const char *const quoted[NNAMES] = {
    "\"a\\x1b[31mb\"",                         /* ESC: a colour change */
    "\"bell\\x07\"",                           /* BEL */
    "\"two\\nlines\"",                         /* a line end */
    "\"q\\\"uote'\"",                          /* both quotes */
    "<&>",                                     /* XML's own */
    "\"bad\\xff\\xfe\"",                       /* not UTF-8 */
    "\"\\xc3\"",                               /* a sequence cut short */
    "\"back\\\\slash\\\\x41\"",                /* backslashes, "\x41" */
    "\"c1\\xc2\\x85 nonchar\\xef\\xbf\\xbe\"", /* U+0085, U+FFFE */
    "\"del\\x7f\"",                            /* DEL */
    "\"tab\\tcr\\r\"",
    "caf\xc3\xa9", /* plain UTF-8 stays as it is */
};

/* A chain: tile k may stand only west of tile k + 1, so the NNAMESx1 map
 * has one filling, the tiles in order. */
static char *chain_rules_text(void) {
  size_t cap = 8192, n = 0;
  char *t = malloc(cap);
  n += (size_t)snprintf(t + n, cap - n, "tilesat-rules 1\ntopology square\n");
  for (int k = 0; k < NNAMES; k++)
    n += (size_t)snprintf(t + n, cap - n, "tile %s\n", quoted[k]);
  for (int k = 0; k < NNAMES; k++) {
    n += (size_t)snprintf(t + n, cap - n, "allow %s E %s\nallow %s W %s\n",
                          quoted[k], k + 1 < NNAMES ? quoted[k + 1] : "",
                          quoted[k], k ? quoted[k - 1] : "");
    n += (size_t)snprintf(t + n, cap - n, "allow %s N\nallow %s S\n", quoted[k],
                          quoted[k]);
  }
  cr_assert_lt(n, cap);
  return t;
}

typedef struct fixture {
  char *dir, *rules_path;
  tilesat_rules *rules;
} fixture;

static char *in_dir(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert(f, "%s", path);
  fputs(text, f);
  cr_assert_eq(fclose(f), 0);
}

static fixture fixture_new(void) {
  fixture fx;
  fx.dir = temp_dir();
  fx.rules_path = in_dir(fx.dir, "names.rules");
  char *text = chain_rules_text();
  put(fx.rules_path, text);
  tilesat_error err;
  fx.rules = tilesat_rules_parse(text, strlen(text), "names.rules", &err);
  cr_assert(fx.rules, "%s", err.msg);
  cr_assert_eq(tilesat_rules_ntiles(fx.rules), NNAMES);
  free(text);
  return fx;
}

static void fixture_free(fixture *fx) {
  tilesat_rules_free(fx->rules);
  free(fx->rules_path);
  /* Tiled's own folders, if any, go with the temporary root at exit */
  free(fx->dir);
}

/* Is text valid UTF-8?  Asked of glibc's iconv, not of tilesat. */
static bool valid_utf8(const char *text) {
  iconv_t cd = iconv_open("UTF-8", "UTF-8");
  cr_assert(cd != (iconv_t)-1);
  size_t inleft = strlen(text), outleft = inleft + 16;
  char *buf = malloc(outleft), *inp = (char *)text, *outp = buf;
  size_t rc = iconv(cd, &inp, &inleft, &outp, &outleft);
  iconv_close(cd);
  free(buf);
  return rc != (size_t)-1 && !inleft;
}

/* The encoding itself: every byte but NUL, alone and in company, reads
 * back; plain names (and backslashes that escape nothing, as a hand-made
 * map may hold) are left as they are. */
Test(escape, name_encoding_round_trips_every_byte) {
  for (int b = 1; b < 256; b++) {
    char name[8] = {'x', (char)b, 'y', (char)b, 0};
    char *e = tilesat_name_encode(name), *d = tilesat_name_decode(e);
    cr_expect_str_eq(d, name, "byte 0x%02x", b);
    cr_expect(valid_utf8(e), "byte 0x%02x: %s", b, e);
    for (const char *p = e; *p; p++)
      cr_expect((unsigned char)*p >= 0x20 && *p != 0x7f, "byte 0x%02x", b);
    free(e);
    free(d);
  }
  char *d = tilesat_name_decode("C:\\tiles\\x4g \\x00 end\\");
  cr_expect_str_eq(d, "C:\\tiles\\x4g \\x00 end\\");
  free(d);
  char *e = tilesat_name_encode("tower 1 caf\xc3\xa9 \xe2\x82\xac");
  cr_expect_str_eq(e, "tower 1 caf\xc3\xa9 \xe2\x82\xac");
  free(e);
}

/* Messages show what a file or the command line holds with escapes: an
 * ESC, a BEL or a line end never reaches the terminal. */
Test(escape, messages_show_control_bytes) {
  fixture fx = fixture_new();
  /* an unknown name on the command line, and the tiles listed */
  char want[2048];
  run_result r = RUN("check", fx.rules_path, "--size", "12x1", "--pin",
                     "0,0=\x1b]0;pwned\x07\nx");
  snprintf(want, sizeof want,
           "tilesat: --pin: unknown tile '\\x1b]0;pwned\\x07\\x0ax' (the "
           "tiles are 'a\\x1b[31mb', 'bell\\x07', 'two\\x0alines', "
           "'q\"uote'', '<&>', 'bad\\xff\\xfe', '\\xc3', "
           "'back\\slash\\x41', 'c1\\xc2\\x85 nonchar\\xef\\xbf\\xbe', "
           "'del\\x7f', 'tab\\x09cr\\x0d' and 'caf\xc3\xa9')\n");
  cr_expect_eq(r.code, 1);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  /* a rules file's unknown name, at its line */
  char *bad = in_dir(fx.dir, "bad.rules");
  put(bad, "tilesat-rules 1\ntile \"a\\x1b[31mb\"\n"
           "allow \"a\\x1b[31mb\" E \"bell\\x07\\nzz\"\n");
  r = RUN("check", bad, "--size", "2x1");
  snprintf(want, sizeof want,
           "tilesat: %s:3: unknown tile 'bell\\x07\\x0azz' (the only tile "
           "is 'a\\x1b[31mb')\n",
           bad);
  cr_expect_eq(r.code, 1);
  cr_expect_str_eq(r.err, want);
  run_free(&r);
  free(bad);
  /* a report on stdout names the tiles of a broken pair the same way */
  char *grid = in_dir(fx.dir, "swapped.txt");
  put(grid, "tilesat-grid names\n\"bell\\x07\" \"a\\x1b[31mb\"\n");
  r = RUN("verify", fx.rules_path, grid);
  cr_expect_eq(r.code, 20, "%s", r.err);
  cr_expect_str_eq(r.out,
                   "INVALID: 1 pair of neighbouring cells breaks the rules\n"
                   "(0,0) \"bell\\x07\" and its east neighbour (0,1) "
                   "\"a\\x1b[31mb\": not an allowed pair\n");
  run_free(&r);
  free(grid);
  fixture_free(&fx);
}
/* The first layer of a Tiled map holds the chain: the names exactly. */
static void expect_chain(const fixture *fx, const char *map) {
  tilesat_error err;
  tilesat_grid *g = tilesat_tiled_read(map, NULL, TILESAT_EMPTY_TILE, &err);
  cr_assert(g, "%s: %s", map, err.msg);
  cr_assert_eq(tilesat_grid_width(g), NNAMES, "%s", map);
  cr_assert_eq(tilesat_grid_height(g), 1, "%s", map);
  for (int k = 0; k < NNAMES; k++)
    cr_expect_str_eq(tilesat_grid_at(g, 0, k),
                     tilesat_rules_tile_name(fx->rules, k), "%s: cell %d (%s)",
                     map, k, quoted[k]);
  tilesat_grid_free(g);
}

/* check --tmx/--tmj writes the one map; it reads back, and verify
 * agrees. */
static char *checked_map(const fixture *fx, const char *opt, const char *name) {
  char *map = in_dir(fx->dir, name);
  run_result r = RUN("check", fx->rules_path, "--size", "12x1", opt, map);
  cr_assert_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  expect_chain(fx, map);
  r = RUN("verify", fx->rules_path, map);
  cr_expect_eq(r.code, 10, "%s: %s%s", map, r.out, r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  return map;
}

Test(escape, check_tmx_and_tmj_read_back_every_name) {
  fixture fx = fixture_new();
  free(checked_map(&fx, "--tmx", "m.tmx"));
  free(checked_map(&fx, "--tmj", "m.tmj"));
  fixture_free(&fx);
}

/* A map of the chain over an external tileset (gids 1..NNAMES). */
static const char tmx_over[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<map version=\"1.8\" orientation=\"orthogonal\" "
    "renderorder=\"right-down\" width=\"12\" height=\"1\" tilewidth=\"8\" "
    "tileheight=\"8\" infinite=\"0\" nextlayerid=\"2\" nextobjectid=\"1\">\n"
    " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"
    " <layer id=\"1\" name=\"ground\" width=\"12\" height=\"1\">\n"
    "  <data encoding=\"csv\">1,2,3,4,5,6,7,8,9,10,11,12</data>\n"
    " </layer>\n"
    "</map>\n";
static const char tmj_over[] =
    "{\"type\": \"map\", \"version\": \"1.8\", \"orientation\": "
    "\"orthogonal\", \"renderorder\": \"right-down\", \"width\": 12, "
    "\"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"infinite\": "
    "false, \"nextlayerid\": 2, \"nextobjectid\": 1, \"tilesets\": "
    "[{\"firstgid\": 1, \"source\": \"t.tsj\"}], \"layers\": [{\"id\": 1, "
    "\"name\": \"ground\", \"type\": \"tilelayer\", \"width\": 12, "
    "\"height\": 1, \"x\": 0, \"y\": 0, \"opacity\": 1, \"visible\": true, "
    "\"data\": [1,2,3,4,5,6,7,8,9,10,11,12]}]}\n";

/* export-tileset to .tsx and .tsj, and maps that use them. */
static void tilesets_and_maps(const fixture *fx, char **tmx, char **tmj) {
  const char *sets[] = {"t.tsx", "t.tsj"};
  for (int i = 0; i < 2; i++) {
    char *set = in_dir(fx->dir, sets[i]);
    run_result r = RUN("export-tileset", fx->rules_path, "-o", set);
    cr_assert_eq(r.code, 0, "%s", r.err);
    run_free(&r);
    free(set);
  }
  *tmx = in_dir(fx->dir, "over.tmx");
  *tmj = in_dir(fx->dir, "over.tmj");
  put(*tmx, tmx_over);
  put(*tmj, tmj_over);
}

Test(escape, export_tileset_reads_back_every_name) {
  fixture fx = fixture_new();
  char *tmx, *tmj;
  tilesets_and_maps(&fx, &tmx, &tmj);
  expect_chain(&fx, tmx);
  expect_chain(&fx, tmj);
  /* and the commands take them as pins: the same map, VALID */
  run_result r = RUN("verify", fx.rules_path, tmx);
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  run_free(&r);
  free(tmx);
  free(tmj);
  fixture_free(&fx);
}

/* tiled --export-map [--embed-tilesets] IN OUT, headless, HOME the
 * fixture's folder; Tiled's exit code, its stderr in *err (malloc'd). */
static int tiled_export(const fixture *fx, const char *in, const char *out,
                        char **err) {
  char *errp = in_dir(fx->dir, "tiled.err");
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    int fi = open("/dev/null", O_RDONLY);
    int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fi, 0);
    dup2(fe, 1);
    dup2(fe, 2);
    if (chdir(fx->dir))
      _exit(126);
    setenv("HOME", fx->dir, 1);
    setenv("XDG_RUNTIME_DIR", fx->dir, 1);
    unsetenv("XDG_CONFIG_HOME");
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    execlp("timeout", "timeout", "120", "tiled", "--export-map",
           "--embed-tilesets", in, out, (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  *err = slurp(errp);
  unlink(errp);
  free(errp);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Tiled reads every file tilesat wrote (the maps of check, the tilesets of
 * export-tileset) and writes it in the other format, tilesets embedded;
 * tilesat reads Tiled's file to the same names. */
Test(escape, tiled_reads_back_every_name, .timeout = 240) {
  fixture fx = fixture_new();
  char *tmx, *tmj;
  tilesets_and_maps(&fx, &tmx, &tmj);
  char *mtmx = checked_map(&fx, "--tmx", "m.tmx");
  char *mtmj = checked_map(&fx, "--tmj", "m.tmj");
  const char *in[] = {tmx, tmj, mtmx, mtmj};
  const char *out[] = {"tiled-a.tmj", "tiled-b.tmx", "tiled-c.tmj",
                       "tiled-d.tmx"};
  for (int i = 0; i < 4; i++) {
    char *copy = in_dir(fx.dir, out[i]), *err;
    int code = tiled_export(&fx, in[i], copy, &err);
    cr_expect_eq(code, 0, "tiled %s -> %s: exit %d: %s", in[i], out[i], code,
                 err);
    cr_expect_null(strstr(err, "rror"), "tiled %s: %s", in[i], err);
    free(err);
    if (!access(copy, F_OK))
      expect_chain(&fx, copy);
    else
      cr_expect_fail("tiled wrote no %s", out[i]);
    free(copy);
  }
  free(mtmx);
  free(mtmj);
  free(tmx);
  free(tmj);
  fixture_free(&fx);
}

/* A JSON output: UTF-8, and the names under `path` (an array of strings
 * reached by following object keys and array indexes) decode to the
 * chain. */
static void expect_json_chain(const fixture *fx, const char *what,
                              const char *out, const cJSON *names) {
  cr_assert(cJSON_IsArray(names), "%s: %s", what, out);
  cr_assert_eq(cJSON_GetArraySize(names), NNAMES, "%s", what);
  for (int k = 0; k < NNAMES; k++) {
    const cJSON *s = cJSON_GetArrayItem(names, k);
    cr_assert(cJSON_IsString(s), "%s: item %d", what, k);
    char *name = tilesat_name_decode(s->valuestring);
    cr_expect_str_eq(name, tilesat_rules_tile_name(fx->rules, k),
                     "%s: item %d (%s)", what, k, quoted[k]);
    free(name);
  }
}

Test(escape, json_outputs_are_utf8_and_read_back) {
  fixture fx = fixture_new();
  /* collapse's map */
  run_result r = RUN("collapse", fx.rules_path, "--size", "12x1", "--seed", "1",
                     "--format", "json");
  cr_assert_eq(r.code, 10, "%s", r.err);
  cr_expect(valid_utf8(r.out), "collapse --format json is not UTF-8");
  cJSON *doc = cJSON_Parse(r.out);
  cr_assert(doc, "%s", r.out);
  expect_json_chain(&fx, "collapse", r.out,
                    cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "map"), 0));
  cJSON_Delete(doc);
  run_free(&r);
  /* trace's domains: one tile left in each cell, the chain's */
  r = RUN("trace", fx.rules_path, "--size", "12x1", "--pin", "0,11=caf\xc3\xa9",
          "--format", "json");
  cr_expect(valid_utf8(r.out), "trace --format json is not UTF-8");
  doc = cJSON_Parse(r.out);
  cr_assert(doc, "exit %d: %s%s", r.code, r.out, r.err);
  const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "domains"), 0);
  cJSON *names = cJSON_CreateArray();
  for (int k = 0; k < cJSON_GetArraySize(row); k++) {
    const cJSON *d = cJSON_GetArrayItem(row, k);
    cr_expect_eq(cJSON_GetArraySize(d), 1, "cell %d", k);
    cJSON_AddItemToArray(names, cJSON_Duplicate(cJSON_GetArrayItem(d, 0), 1));
  }
  expect_json_chain(&fx, "trace", r.out, names);
  cJSON_Delete(names);
  cJSON_Delete(doc);
  run_free(&r);
  fixture_free(&fx);
}

/* collapse --explain's chain joins the collapse's JSON document: its
 * names are encoded once, with the document (they were encoded by the
 * trace's writer and again by the collapse's: "b\c" read back "b\\c").
 * Castle's tiles renamed "tower\0" (a backslash for the space). */
Test(escape, explain_chain_names_are_encoded_once) {
  tilesat_rules *cr = tileset("Castle");
  char *plain = rules_file(cr), *text = slurp(plain);
  tilesat_rules_free(cr);
  size_t n = strlen(text);
  char *renamed = malloc(2 * n + 1), *o = renamed;
  for (size_t i = 0; i < n; i++)
    if (text[i] == ' ' && i + 2 < n && text[i + 1] >= '0' &&
        text[i + 1] <= '9' && text[i + 2] == '"') {
      *o++ = '\\';
      *o++ = '\\';
    } else {
      *o++ = text[i];
    }
  *o = 0;
  char *rules = temp_file(renamed, -1);
  run_result r = RUN("collapse", rules, "--size", "16x16", "--seed", "3",
                     "--explain", "--format", "json");
  cr_assert_eq(r.code, 0, "%s", r.err);
  cJSON *doc = cJSON_Parse(r.out);
  cr_assert(doc, "%s", r.out);
  /* every string of the document decodes to a tile name, or holds none */
  int names = 0, wrong = 0;
  char *printed = cJSON_PrintUnformatted(doc);
  tilesat_rules *back = tilesat_rules_read_file(rules, NULL);
  cr_assert(back);
  for (const char *p = printed; (p = strstr(p, "\\\\")); p += 2) {
    const char *s = p;
    while (s > printed && s[-1] != '"')
      s--;
    const char *e = strchr(p, '"');
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(e - s), s);
    /* the JSON text's "\\\\" is one encoded backslash: "\\" decoded */
    char raw[128], *w = raw;
    for (const char *q = word; *q; q++) {
      *w++ = *q;
      if (q[0] == '\\' && q[1] == '\\')
        q++;
    }
    *w = 0;
    char *name = tilesat_name_decode(raw);
    names++;
    wrong += tilesat_rules_find_tile(back, name) < 0;
    free(name);
    p = e;
  }
  cr_expect_gt(names, 0, "no tile name in %s", r.out);
  cr_expect_eq(wrong, 0, "%d of %d names are no tile: %s", wrong, names, r.out);
  tilesat_rules_free(back);
  free(printed);
  cJSON_Delete(doc);
  run_free(&r);
  free(renamed);
  free(text);
  free(plain);
  free(rules);
}

/* A Tiled file names its picture inside it: an output name that is not
 * plain UTF-8 is refused before any work (tilesat could not read the file
 * back: "bad XML"). */
Test(escape, tiled_output_names_must_be_utf8) {
  char *dir = temp_dir(), path[4096], shown[4096], want[8192];
  snprintf(path, sizeof path, "%s/caf\xe9.tmx", dir);
  snprintf(shown, sizeof shown, "%s/caf\\xe9.tmx", dir);
  snprintf(want, sizeof want,
           "tilesat: --tmx: %s: a Tiled file names its picture inside it, so "
           "its name must be UTF-8 without control bytes or backslashes\n",
           shown);
  expect_cli_error(want, "check", "rules/coast.rules", "--size", "3x3", "--tmx",
                   path);
  snprintf(path, sizeof path, "%s/caf\xc3\xa9.tmx", dir);
  run_result r =
      RUN("check", "rules/coast.rules", "--size", "3x3", "--tmx", path);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  r = RUN("verify", "rules/coast.rules", path);
  cr_expect_eq(r.code, 10, "%s", r.err);
  run_free(&r);
  free(dir);
}
