/* The Tiled extension (tools/tiled/tilesat.js) in real Tiled, headless:
 * `tiled --export-map tilesat-complete|check|explain|verify|heatmap` on a
 * temporary HOME whose extensions folder holds it.  The completed map
 * keeps every other layer, object and property; its layer is valid by
 * `tilesat verify`; the marks are the cells tilesat itself names. */
/* POSIX with XSI: nftw, realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "helpers.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A level as a designer paints it: "ground" (a at (0,0), c at (2,3)),
 * "decor", an object group and a group with one more tile layer ("inner":
 * c beside a, which nothing completes); tiles from t.tsx, which
 * export-tileset made (a b c are gids 1 2 3).  SETTINGS: more map
 * properties. */
#define LEVEL(SETTINGS)                                                        \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                               \
  "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\" "    \
  "renderorder=\"right-down\" width=\"4\" height=\"3\" tilewidth=\"8\" "       \
  "tileheight=\"8\" infinite=\"0\" nextlayerid=\"6\" nextobjectid=\"3\">\n"    \
  " <properties>\n"                                                            \
  "  <property name=\"note\" value=\"kept\"/>\n" SETTINGS                      \
  "  <property name=\"tilesat-rules\" value=\"line.rules\"/>\n"                \
  " </properties>\n"                                                           \
  " <tileset firstgid=\"1\" source=\"t.tsx\"/>\n"                              \
  " <layer id=\"1\" name=\"ground\" width=\"4\" height=\"3\">\n"               \
  "  <data encoding=\"csv\">\n"                                                \
  "1,0,0,0,\n0,0,0,0,\n0,0,0,3\n"                                              \
  "</data>\n"                                                                  \
  " </layer>\n"                                                                \
  " <layer id=\"2\" name=\"decor\" width=\"4\" height=\"3\" "                  \
  "opacity=\"0.5\">\n"                                                         \
  "  <data encoding=\"csv\">\n"                                                \
  "0,2,0,0,\n0,0,0,0,\n0,0,0,0\n"                                              \
  "</data>\n"                                                                  \
  " </layer>\n"                                                                \
  " <objectgroup id=\"3\" name=\"spawns\">\n"                                  \
  "  <object id=\"1\" name=\"start\" x=\"8\" y=\"8\" width=\"8\" "             \
  "height=\"8\"/>\n"                                                           \
  "  <object id=\"2\" name=\"exit\" x=\"24\" y=\"16\">\n"                      \
  "   <point/>\n"                                                              \
  "  </object>\n"                                                              \
  " </objectgroup>\n"                                                          \
  " <group id=\"4\" name=\"more\">\n"                                          \
  "  <layer id=\"5\" name=\"inner\" width=\"4\" height=\"3\">\n"               \
  "   <data encoding=\"csv\">\n"                                               \
  "3,1,0,0,\n0,0,0,0,\n0,0,0,0\n"                                              \
  "</data>\n"                                                                  \
  "  </layer>\n"                                                               \
  " </group>\n"                                                                \
  "</map>\n"

static char *put(const char *dir, const char *name, const char *text) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  cr_assert(f, "%s", path);
  fputs(text, f);
  fclose(f);
  return path;
}

static char *path_in(const char *dir, const char *name) {
  char *path = malloc(strlen(dir) + strlen(name) + 2);
  sprintf(path, "%s/%s", dir, name);
  return path;
}

/* The test's folder: home/.config/tiled/extensions/tilesat.js, and lvl/
 * with line.rules and t.tsx. */
typedef struct setup {
  char *root, *home, *lvl, *rules, *bindir;
} setup;

static void copy_file(const char *from, const char *to) {
  char *text = slurp(from);
  cr_assert(text, "%s", from);
  FILE *f = fopen(to, "wb");
  cr_assert(f, "%s", to);
  fputs(text, f);
  fclose(f);
  free(text);
}

static void setup_new(setup *s) {
  s->root = temp_dir();
  s->home = path_in(s->root, "home");
  char ext[4096];
  snprintf(ext, sizeof ext, "%s/.config/tiled/extensions", s->home);
  for (char *p = ext + strlen(s->root) + 1; (p = strchr(p, '/')); p++) {
    *p = 0;
    mkdir(ext, 0700);
    *p = '/';
  }
  cr_assert_eq(mkdir(ext, 0700), 0, "%s", ext);
  char js[4200];
  snprintf(js, sizeof js, "%s/tilesat.js", ext);
  copy_file("tools/tiled/tilesat.js", js);
  s->lvl = path_in(s->root, "lvl");
  cr_assert_eq(mkdir(s->lvl, 0700), 0);
  s->rules = put(s->lvl, "line.rules", line_rules);
  char *tsx = path_in(s->lvl, "t.tsx");
  run_result r = RUN("export-tileset", s->rules, "-o", tsx);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  free(tsx);
  const char *bin =
      getenv("TILESAT_BIN") ? getenv("TILESAT_BIN") : "build/tilesat";
  char *abs = realpath(bin, NULL);
  cr_assert(abs, "%s", bin);
  *strrchr(abs, '/') = 0;
  s->bindir = abs;
}

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw) {
  (void)st;
  (void)ftw;
  return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void setup_free(setup *s) {
  nftw(s->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(s->root);
  free(s->home);
  free(s->lvl);
  free(s->rules);
  free(s->bindir);
}

/* tiled --export-map FORMAT IN OUT in lvl/, HOME the test's, offscreen;
 * PATH is `path` then the system's (NULL: the system's alone), TILESAT
 * `tilesat` (NULL: unset); at most 120 s. */
static run_result tiled_run(const setup *s, const char *format, const char *in,
                            const char *out, const char *path,
                            const char *tilesat) {
  char *outp = temp_file("", 0), *errp = temp_file("", 0);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    int fi = open("/dev/null", O_RDONLY);
    int fo = open(outp, O_WRONLY | O_TRUNC);
    int fe = open(errp, O_WRONLY | O_TRUNC);
    dup2(fi, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    if (chdir(s->lvl))
      _exit(126);
    setenv("HOME", s->home, 1);
    setenv("XDG_RUNTIME_DIR", s->home, 1);
    unsetenv("XDG_CONFIG_HOME");
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    if (tilesat)
      setenv("TILESAT", tilesat, 1);
    else
      unsetenv("TILESAT");
    const char *old = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
    char full[8192];
    if (path)
      snprintf(full, sizeof full, "%s:%s", path, old);
    else
      snprintf(full, sizeof full, "%s", old);
    setenv("PATH", full, 1);
    execlp("timeout", "timeout", "120", "tiled", "--export-map", format, in,
           out, (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  run_result r = {0};
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(outp);
  r.err = slurp(errp);
  unlink(outp);
  unlink(errp);
  free(outp);
  free(errp);
  return r;
}

/* tilesat on PATH (unless path_has_tilesat is false), TILESAT unset. */
static run_result tiled_export(const setup *s, const char *format,
                               const char *in, const char *out,
                               bool path_has_tilesat) {
  return tiled_run(s, format, in, out, path_has_tilesat ? s->bindir : NULL,
                   NULL);
}

/* ------------------------------------------------- comparing the maps */

static xmlDoc *read_xml(const char *path) {
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  cr_assert(doc, "%s", path);
  return doc;
}

/* A top-level child of <map> by element and name attribute. */
static xmlNode *child(xmlDoc *doc, const char *elem, const char *name) {
  for (xmlNode *n = xmlDocGetRootElement(doc)->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, elem))
      continue;
    xmlChar *v = xmlGetProp(n, (const xmlChar *)"name");
    bool match = !name || (v && !strcmp((const char *)v, name));
    xmlFree(v);
    if (match)
      return n;
  }
  return NULL;
}

static char *dump(xmlDoc *doc, xmlNode *n) {
  xmlBuffer *b = xmlBufferCreate();
  xmlNodeDump(b, doc, n, 0, 0);
  char *s = strdup((const char *)xmlBufferContent(b));
  xmlBufferFree(b);
  return s;
}

/* The map property `name` (malloc'd), or NULL. */
static char *property(xmlDoc *doc, const char *name) {
  xmlNode *ps = child(doc, "properties", NULL);
  for (xmlNode *p = ps ? ps->children : NULL; p; p = p->next) {
    if (p->type != XML_ELEMENT_NODE)
      continue;
    xmlChar *n = xmlGetProp(p, (const xmlChar *)"name");
    bool match = n && !strcmp((const char *)n, name);
    xmlFree(n);
    if (match) {
      xmlChar *v = xmlGetProp(p, (const xmlChar *)"value");
      char *s = strdup((const char *)v);
      xmlFree(v);
      return s;
    }
  }
  return NULL;
}

/* Everything of `in` but its ground layer is in `out` as it was: the
 * tileset, decor, the object group, the group and its layer, the map's
 * attributes and properties. */
static void expect_kept(const char *in, const char *out, bool added) {
  xmlDoc *a = read_xml(in), *b = read_xml(out);
  static const char *const kept[][2] = {{"tileset", NULL},
                                        {"layer", "decor"},
                                        {"objectgroup", "spawns"},
                                        {"group", "more"}};
  for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
    xmlNode *x = child(a, kept[i][0], kept[i][1]),
            *y = child(b, kept[i][0], kept[i][1]);
    cr_assert(x && y, "%s %s", kept[i][0], kept[i][1]);
    char *dx = dump(a, x), *dy = dump(b, y);
    cr_expect_str_eq(dy, dx, "%s", kept[i][0]);
    free(dx);
    free(dy);
  }
  xmlNode *ra = xmlDocGetRootElement(a), *rb = xmlDocGetRootElement(b);
  for (xmlAttr *at = ra->properties; at; at = at->next) {
    xmlChar *va = xmlGetProp(ra, at->name), *vb = xmlGetProp(rb, at->name);
    /* a layer of marks added: the next ids count it */
    if (added && !strncmp((const char *)at->name, "next", 4))
      cr_expect(vb && atoi((const char *)vb) > atoi((const char *)va), "%s",
                (const char *)at->name);
    else
      cr_expect(vb && !strcmp((const char *)va, (const char *)vb), "%s",
                (const char *)at->name);
    xmlFree(va);
    xmlFree(vb);
  }
  char *note = property(b, "note");
  cr_expect(note && !strcmp(note, "kept"));
  free(note);
  xmlFreeDoc(a);
  xmlFreeDoc(b);
}

/* ----------------------------------------------------------------- tests */

Test(tiled_ext, complete_keeps_every_other_layer_and_object) {
  setup s;
  setup_new(&s);
  char *in = put(s.lvl, "level.tmx", LEVEL(""));
  char *out = path_in(s.lvl, "done.tmx");
  run_result r = tiled_export(&s, "tilesat-complete", in, out, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  expect_kept(in, out, false);
  /* the ground layer: its painted cells kept, every cell filled, valid */
  tilesat_error err;
  tilesat_grid *g = tilesat_tiled_read(out, "ground", TILESAT_EMPTY_TILE, &err);
  cr_assert(g, "%s", err.msg);
  cr_expect_str_eq(tilesat_grid_at(g, 0, 0), "a");
  cr_expect_str_eq(tilesat_grid_at(g, 2, 3), "c");
  tilesat_grid_free(g);
  r = RUN("verify", s.rules, out, "--layer", "ground");
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  cr_expect_str_eq(r.out, "VALID\n");
  run_free(&r);
  /* the other tile layers as they were, by tilesat's reading too */
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "inner" : "decor";
    tilesat_grid *x = tilesat_tiled_read(in, name, TILESAT_EMPTY_TILE, &err),
                 *y = tilesat_tiled_read(out, name, TILESAT_EMPTY_TILE, &err);
    cr_assert(x && y, "%s", name);
    for (int c = 0; c < 12; c++)
      cr_expect_str_eq(tilesat_grid_at(y, c / 4, c % 4),
                       tilesat_grid_at(x, c / 4, c % 4), "%s %d", name, c);
    tilesat_grid_free(x);
    tilesat_grid_free(y);
  }
  /* tilesat-options with a global constraint (completed by check):
   * b's cells one region, which verify confirms */
  char *conn = put(s.lvl, "conn.tmx",
                   LEVEL("  <property name=\"tilesat-options\" "
                         "value=\"--connected b\"/>\n"));
  char *out2 = path_in(s.lvl, "conn-done.tmx");
  r = tiled_export(&s, "tilesat-complete", conn, out2, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  expect_kept(conn, out2, false);
  r = RUN("verify", s.rules, out2, "--connected", "b");
  cr_expect_eq(r.code, 10, "%s%s", r.out, r.err);
  run_free(&r);
  /* the painted cells of "inner" cannot be completed: Tiled fails, says
   * why, and writes nothing */
  char *bad = put(s.lvl, "bad.tmx",
                  LEVEL("  <property name=\"tilesat-layer\" "
                        "value=\"inner\"/>\n"));
  char *out3 = path_in(s.lvl, "bad-done.tmx");
  r = tiled_export(&s, "tilesat-complete", bad, out3, true);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: the painted cells of layer 'inner' "
                          "cannot be completed (UNSAT)"),
            "%s", r.err);
  cr_expect_neq(access(out3, F_OK), 0);
  run_free(&r);
  cr_expect_eq(dir_entries(s.lvl), 8); /* no copy left behind */
  free(in);
  free(out);
  free(conn);
  free(out2);
  free(bad);
  free(out3);
  setup_free(&s);
}

Test(tiled_ext, check_report) {
  setup s;
  setup_new(&s);
  char *in = put(s.lvl, "level.tmx", LEVEL(""));
  char *report = path_in(s.lvl, "report.txt");
  run_result r = tiled_export(&s, "tilesat-check", in, report, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  /* the report is tilesat check's own answer on the painted map */
  char *text = slurp(report);
  r = RUN("check", s.rules, "--pins-from", in);
  cr_expect_eq(r.code, 10);
  cr_expect_str_eq(text, r.out);
  cr_expect(!strncmp(text, "SAT\n", 4), "%s", text);
  run_free(&r);
  free(text);
  /* tilesat not on PATH, named by TILESAT (the user's setting); the inner
   * layer */
  char *in2 = put(s.lvl, "inner.tmx",
                  LEVEL("  <property name=\"tilesat-layer\" "
                        "value=\"inner\"/>\n"));
  char *bin = path_in(s.bindir, "tilesat");
  r = tiled_run(&s, "tilesat-check", in2, report, NULL, bin);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  text = slurp(report);
  cr_expect_str_eq(text, "UNSAT\n");
  free(text);
  /* without it, tilesat is not found: said */
  char *in3 = put(s.lvl, "plain.tmx", LEVEL(""));
  r = tiled_export(&s, "tilesat-check", in3, report, false);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: tilesat is not on PATH: install tilesat, "
                          "or set the environment variable TILESAT to its "
                          "absolute path\n"),
            "%s", r.err);
  run_free(&r);
  free(bin);
  free(in);
  free(in2);
  free(in3);
  free(report);
  setup_free(&s);
}

/* The objects of the object layer `name`: their names and rectangles. */
typedef struct mark {
  char *name;
  double x, y, w, h;
} mark;

static int marks_of(const char *path, const char *name, mark *m, int max) {
  xmlDoc *doc = read_xml(path);
  xmlNode *g = child(doc, "objectgroup", name);
  cr_assert(g, "no object layer '%s' in %s", name, path);
  int n = 0;
  for (xmlNode *o = g->children; o; o = o->next) {
    if (o->type != XML_ELEMENT_NODE || strcmp((const char *)o->name, "object"))
      continue;
    cr_assert(n < max);
    const char *keys[] = {"x", "y", "width", "height"};
    double *v[] = {&m[n].x, &m[n].y, &m[n].w, &m[n].h};
    for (int k = 0; k < 4; k++) {
      xmlChar *a = xmlGetProp(o, (const xmlChar *)keys[k]);
      *v[k] = a ? atof((const char *)a) : 0;
      xmlFree(a);
    }
    xmlChar *a = xmlGetProp(o, (const xmlChar *)"name");
    m[n++].name = strdup((const char *)a);
    xmlFree(a);
  }
  xmlFreeDoc(doc);
  return n;
}

Test(tiled_ext, explain_marks_the_clashing_cells) {
  setup s;
  setup_new(&s);
  char *in = put(s.lvl, "level.tmx",
                 LEVEL("  <property name=\"tilesat-layer\" "
                       "value=\"inner\"/>\n"));
  char *out = path_in(s.lvl, "why.tmx");
  run_result r = tiled_export(&s, "tilesat-explain", in, out, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  expect_kept(in, out, true);
  /* an object per constraint of tilesat explain's own answer, named by
   * its line, framing the cells it names: (0,0) c beside (0,1) a */
  r = RUN("explain", s.rules, "--pins-from", in, "--layer", "inner");
  cr_assert_eq(r.code, 20, "%s", r.err);
  mark m[16];
  int n = marks_of(out, "tilesat: why", m, 16);
  cr_expect_eq(n, 4);
  const char *want[4][2] = {{"[1] (0,0) is pinned to c", "0 0 8 8"},
                            {"[2] (0,0) and its east neighbour (0,1) hold an "
                             "allowed pair",
                             "0 0 16 8"},
                            {"[3] (0,1) holds exactly one tile", "8 0 8 8"},
                            {"[4] (0,1) is pinned to a", "8 0 8 8"}};
  for (int i = 0; i < n && i < 4; i++) {
    char line[256], rect[64];
    snprintf(line, sizeof line, "  %s\n", want[i][0]);
    cr_expect(strstr(r.out, line), "%s not in %s", want[i][0], r.out);
    cr_expect_str_eq(m[i].name, want[i][0]);
    snprintf(rect, sizeof rect, "%g %g %g %g", m[i].x, m[i].y, m[i].w, m[i].h);
    cr_expect_str_eq(rect, want[i][1], "%s", want[i][0]);
    free(m[i].name);
  }
  run_free(&r);
  free(in);
  free(out);
  setup_free(&s);
}

Test(tiled_ext, verify_marks_broken_pairs_and_heat_map_counts) {
  setup s;
  setup_new(&s);
  /* ground filled, with a beside c twice on the top row */
  char *level = strdup(LEVEL(""));
  char *data = strstr(level, "1,0,0,0,\n0,0,0,0,\n0,0,0,3");
  memcpy(data, "1,3,1,2,\n2,2,2,2,\n2,2,2,3", 24);
  char *in = put(s.lvl, "level.tmx", level);
  char *out = path_in(s.lvl, "broken.tmx");
  run_result r = tiled_export(&s, "tilesat-verify", in, out, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  expect_kept(in, out, true);
  mark m[16];
  int n = marks_of(out, "tilesat: broken pairs", m, 16);
  cr_expect_eq(n, 2);
  r = RUN("verify", s.rules, in);
  cr_expect_eq(r.code, 20);
  for (int i = 0; i < n; i++) {
    cr_expect(strstr(r.out, m[i].name), "%s", m[i].name);
    cr_expect(m[i].x == 8 * i && m[i].y == 0 && m[i].w == 16 && m[i].h == 8,
              "%s", m[i].name);
    free(m[i].name);
  }
  run_free(&r);
  /* the heat map: Castle on an unpainted 12x12 map, 30 runs */
  char *castle = path_in(s.lvl, "castle.rules");
  char *tsx = path_in(s.lvl, "castle.tsx");
  r = RUN("import-tileset", "tests/data/wfc/tilesets/Castle.xml", "-o", castle);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  r = RUN("export-tileset", castle, "-o", tsx);
  cr_assert_eq(r.code, 0, "%s", r.err);
  run_free(&r);
  char map[8192] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<map version=\"1.8\" orientation=\"orthogonal\" "
                   "width=\"12\" height=\"12\" tilewidth=\"7\" "
                   "tileheight=\"7\" infinite=\"0\" nextlayerid=\"2\" "
                   "nextobjectid=\"1\">\n <properties>\n"
                   "  <property name=\"tilesat-rules\" "
                   "value=\"castle.rules\"/>\n"
                   "  <property name=\"tilesat-runs\" value=\"30\"/>\n"
                   " </properties>\n"
                   " <tileset firstgid=\"1\" source=\"castle.tsx\"/>\n"
                   " <layer id=\"1\" name=\"l\" width=\"12\" height=\"12\">\n"
                   "  <data encoding=\"csv\">\n";
  for (int c = 0; c < 144; c++)
    strcat(map, c < 143 ? (c % 12 == 11 ? "0,\n" : "0,") : "0\n");
  strcat(map, "</data>\n </layer>\n</map>\n");
  char *hin = put(s.lvl, "castle.tmx", map);
  char *hout = path_in(s.lvl, "heat.tmx");
  r = tiled_export(&s, "tilesat-heatmap", hin, hout, true);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  /* the same runs by the command line: contradictions, and at which cells */
  r = RUN("collapse", castle, "--size", "12x12", "-n", "30");
  cr_assert_eq(r.code, 10, "%s", r.err);
  const char *line = strstr(r.out, "contradictions: ");
  cr_assert(line, "%s", r.out);
  long bad = atol(line + strlen("contradictions: "));
  run_free(&r);
  mark h[64];
  n = marks_of(hout, "tilesat: heat map", h, 64);
  long sum = 0;
  for (int i = 0; i < n; i++) {
    long k = atol(h[i].name);
    cr_expect(k > 0, "%s", h[i].name);
    char tail[64];
    snprintf(tail, sizeof tail, "%ld of 30 runs (%.1f%%) contradict here", k,
             100.0 * (double)k / 30);
    cr_expect_str_eq(h[i].name, tail);
    cr_expect(h[i].w == 7 && h[i].h == 7 && (long)h[i].x % 7 == 0 &&
                  (long)h[i].y % 7 == 0,
              "%s", h[i].name);
    sum += k;
    free(h[i].name);
  }
  cr_expect_gt(bad, 0);
  cr_expect_eq(sum, bad);
  free(level);
  free(in);
  free(out);
  free(castle);
  free(tsx);
  free(hin);
  free(hout);
  setup_free(&s);
}

/* ------------------------------------------------- hostile maps (issue 31)
 * A map may come from anyone: it never chooses the program to run, nor a
 * file to write.  Tiled runs with "." and an empty entry first on PATH, in
 * the map's folder, beside an executable named tilesat: the naive lookup
 * would run it. */

/* LEVEL with more properties made at run time, before tilesat-rules. */
static char *level_with(const char *props) {
  const char *whole = LEVEL("");
  const char *split = strstr(whole, "  <property name=\"tilesat-rules\"");
  char *level = malloc(strlen(whole) + strlen(props) + 1);
  sprintf(level, "%.*s%s%s", (int)(split - whole), whole, props, split);
  return level;
}

/* A map property's line, its value written as it is (no XML specials). */
static char *property_line(const char *name, const char *value) {
  char *line = malloc(strlen(name) + strlen(value) + 64);
  sprintf(line, "  <property name=\"%s\" value=\"%s\"/>\n", name, value);
  return line;
}

/* lvl/NAME.tmx, LEVEL with the property `name` set to `value`. */
static char *hostile_map(const setup *s, const char *file, const char *name,
                         const char *value) {
  char *line = property_line(name, value), *level = level_with(line);
  char *in = put(s->lvl, file, level);
  free(line);
  free(level);
  return in;
}

/* An executable script `name` in `dir` that leaves the file `marker`. */
static void put_marker_script(const char *dir, const char *name,
                              const char *marker) {
  char text[4400];
  snprintf(text, sizeof text, "#!/bin/sh\necho \"$0\" >> '%s'\n", marker);
  char *path = put(dir, name, text);
  cr_assert_eq(chmod(path, 0755), 0, "%s", path);
  free(path);
}

/* A folder's entries, sorted, each with its size: one a line. */
static char *listing(const char *dir) {
  struct dirent **e;
  int n = scandir(dir, &e, NULL, alphasort);
  cr_assert(n >= 0, "%s", dir);
  size_t len = 0;
  char *out = calloc(1, 1);
  for (int i = 0; i < n; i++) {
    if (strcmp(e[i]->d_name, ".") && strcmp(e[i]->d_name, "..")) {
      char *path = path_in(dir, e[i]->d_name);
      struct stat st;
      if (lstat(path, &st))
        st.st_size = -1; /* gone meanwhile: differs from any listing */
      char line[600];
      int k = snprintf(line, sizeof line, "%s %lld\n", e[i]->d_name,
                       (long long)st.st_size);
      out = realloc(out, len + (size_t)k + 1);
      memcpy(out + len, line, (size_t)k + 1);
      len += (size_t)k;
      free(path);
    }
    free(e[i]);
  }
  free(e);
  return out;
}

/* Did the extension run a program?  It says so first, every time. */
static bool ran(const char *err) {
  return strstr(err, "tilesat: running ") != NULL;
}

/* The console's line for the command tilesat ran, "tilesat: running ...",
 * with the copy's random name (".tilesat-N-N.tmx") made ".tilesat-X.tmx";
 * NULL when nothing ran. */
static char *ran_line(const char *err) {
  const char *at = strstr(err, "tilesat: running ");
  if (!at)
    return NULL;
  char *line = strndup(at, strcspn(at, "\n"));
  const char *copy = strstr(line, "/.tilesat-");
  const char *end = copy ? strstr(copy, ".tmx") : NULL;
  if (!end)
    return line;
  char *named = malloc(strlen(line) + 1);
  sprintf(named, "%.*s/.tilesat-X%s", (int)(copy - line), line, end);
  free(line);
  return named;
}

/* The extension's headless actions: its map formats. */
static const char *const formats[] = {"tilesat-check", "tilesat-complete",
                                      "tilesat-explain", "tilesat-verify",
                                      "tilesat-heatmap"};

#define COMMAND_REFUSED                                                        \
  "tilesat: map property tilesat-command refused: a map cannot choose the "    \
  "program to run; it is your setting (the environment variable TILESAT, "     \
  "else tilesat on PATH). Remove the property to go on\n"

Test(tiled_ext, map_cannot_choose_the_program) {
  setup s;
  setup_new(&s);
  char *marker = path_in(s.root, "ran");
  put_marker_script(s.lvl, "evil.sh", marker);
  put_marker_script(s.lvl, "tilesat", marker); /* beside the map */
  char *evil = path_in(s.lvl, "evil.sh");
  char *user = path_in(s.bindir, "tilesat");
  char path[8192]; /* ".", "", then the user's tilesat, then the system */
  snprintf(path, sizeof path, ".::%s", s.bindir);
  char *report = path_in(s.lvl, "report.txt");
  char *done = path_in(s.lvl, "done.tmx");
  /* tilesat-command: relative, absolute, even the user's own tilesat, or
   * empty: refused for every action, before anything runs or is written */
  const char *const commands[] = {"evil.sh", evil, user, ""};
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    char *in = hostile_map(&s, "hostile.tmx", "tilesat-command", commands[i]);
    char *before = listing(s.lvl);
    /* every format for the first; check for the others (the same code) */
    for (int f = 0; f < (i ? 1 : 5); f++) {
      run_result r =
          tiled_run(&s, formats[f], in, f ? done : report, path, NULL);
      cr_expect_eq(r.code, 1, "%s %s: %s", commands[i], formats[f], r.err);
      cr_expect(strstr(r.err, COMMAND_REFUSED), "%s %s: %s", commands[i],
                formats[f], r.err);
      cr_expect(!ran(r.err), "%s: %s", commands[i], r.err);
      run_free(&r);
    }
    char *after = listing(s.lvl);
    cr_expect_str_eq(after, before, "%s", commands[i]);
    cr_expect_neq(access(marker, F_OK), 0, "%s ran", commands[i]);
    free(before);
    free(after);
    free(in);
  }
  /* no tilesat-command: the user's tilesat runs, found on PATH past "."
   * and the empty entry (which mean the map's folder here); its answer is
   * tilesat check's, and the console shows the whole command */
  char *in = put(s.lvl, "level.tmx", LEVEL(""));
  run_result r = tiled_run(&s, "tilesat-check", in, report, path, NULL);
  cr_expect_eq(r.code, 0, "%s", r.err);
  char want[16384];
  snprintf(want, sizeof want,
           "tilesat: running %s check %s/line.rules --pins-from "
           "%s/.tilesat-X.tmx --layer ground (in %s)",
           user, s.lvl, s.lvl, s.lvl);
  char *line = ran_line(r.err);
  cr_expect(line && !strcmp(line, want), "%s\nwant %s", r.err, want);
  free(line);
  run_free(&r);
  char *text = slurp(report);
  r = RUN("check", s.rules, "--pins-from", in);
  cr_expect_eq(r.code, 10);
  cr_expect(text && !strcmp(text, r.out), "%s", text);
  run_free(&r);
  free(text);
  cr_expect_neq(access(marker, F_OK), 0, "the tilesat beside the map ran");
  /* not on PATH but in the map's folder: not found, said; nothing ran */
  char *before = listing(s.lvl);
  r = tiled_run(&s, "tilesat-check", in, done, ".:", NULL);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: tilesat is not on PATH: install tilesat, "
                          "or set the environment variable TILESAT to its "
                          "absolute path\n"),
            "%s", r.err);
  run_free(&r);
  /* TILESAT is the user's, but relative to nothing sure: refused */
  r = tiled_run(&s, "tilesat-check", in, done, path, "./tilesat");
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: TILESAT='./tilesat' must be an absolute "
                          "path or a program name on PATH\n"),
            "%s", r.err);
  run_free(&r);
  /* nor a file that is no program */
  r = tiled_run(&s, "tilesat-check", in, done, path, s.rules);
  cr_expect_eq(r.code, 1);
  char notexe[4400];
  snprintf(notexe, sizeof notexe,
           "tilesat: TILESAT='%s' is not an executable file\n", s.rules);
  cr_expect(strstr(r.err, notexe), "%s", r.err);
  run_free(&r);
  char *after = listing(s.lvl);
  cr_expect_str_eq(after, before);
  cr_expect_neq(access(marker, F_OK), 0, "the tilesat beside the map ran");
  free(before);
  free(after);
  free(in);
  free(marker);
  free(evil);
  free(user);
  free(report);
  free(done);
  setup_free(&s);
}

#define ALLOWED_OPTIONS                                                        \
  "--backend --border --connected --constraints --count --free-tile "          \
  "--guard --heuristic --mask --max-memory --method --path --periodic "        \
  "--pin --prefer --seed --smallest --topology"

Test(tiled_ext, map_options_cannot_write_files) {
  setup s;
  setup_new(&s);
  char *victim = put(s.lvl, "victim.txt", "mine\n");
  char *outside = put(s.root, "outside.constraints",
                      "tilesat-constraints 1\ncount c = 1\n");
  char *link = path_in(s.lvl, "link.constraints");
  cr_assert_eq(symlink(outside, link), 0);
  char abs[4200];
  snprintf(abs, sizeof abs, "--constraints %s", outside);
  char abs_refused[4400];
  snprintf(abs_refused, sizeof abs_refused,
           "--constraints '%s' refused: an absolute path", outside);
  /* tilesat-options, and what the refusal says after "map property
   * tilesat-options: " */
  const char *const cases[][2] = {
      {"--png victim.txt",
       "'--png' is not an option a map may set (only " ALLOWED_OPTIONS
       "; never a file to write)\n"},
      {"--png=victim.txt", "'--png=victim.txt' is not an option"},
      {"-o victim.txt", "'-o' is not an option"},
      {"--tmx victim.txt", "'--tmx' is not an option"},
      {"--tmj victim.txt", "'--tmj' is not an option"},
      {"--seed 3 --qubo-out victim.txt", "'--qubo-out' is not an option"},
      /* --connected takes the next word as tilesat does: then a stray word */
      {"--connected --png victim.txt", "'victim.txt' is not an option"},
      {"-- --png victim.txt", "'--' is not an option"},
      {"--seed", "--seed needs a value\n"},
      {abs, abs_refused},
      {"--constraints ../outside.constraints",
       "--constraints '../outside.constraints' refused: it leaves the map's "
       "folder (..); a file a map names must be inside the map's folder\n"},
      {"--mask=sub/../../m.txt", "--mask 'sub/../../m.txt' refused: it "
                                 "leaves the map's folder (..)"},
      {"--constraints link.constraints",
       "--constraints 'link.constraints' refused: it leads out of the map's "
       "folder"},
  };
  char *report = path_in(s.lvl, "report.txt");
  char *done = path_in(s.lvl, "done.tmx");
  char *before = NULL;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *in = hostile_map(&s, "hostile.tmx", "tilesat-options", cases[i][0]);
    free(before);
    before = listing(s.lvl);
    char want[8192];
    snprintf(want, sizeof want, "tilesat: map property tilesat-options: %s",
             cases[i][1]);
    for (int f = 0; f < (i ? 1 : 5); f++) {
      run_result r = tiled_export(&s, formats[f], in, f ? done : report, true);
      cr_expect_eq(r.code, 1, "%s: %s", cases[i][0], r.err);
      cr_expect(strstr(r.err, want), "%s: %s\nwant %s", cases[i][0], r.err,
                want);
      cr_expect(!ran(r.err), "%s: %s", cases[i][0], r.err);
      run_free(&r);
    }
    char *after = listing(s.lvl);
    cr_expect_str_eq(after, before, "%s", cases[i][0]);
    free(after);
    free(in);
  }
  /* tilesat-rules names a file, never an option, even where Tiled gives
   * the folder as "." (a relative output) */
  char *level = strdup(LEVEL(""));
  char *rules = strstr(level, "value=\"line.rules\"");
  char *swapped = malloc(strlen(level) + 16);
  sprintf(swapped, "%.*svalue=\"--png=victim.txt\"%s", (int)(rules - level),
          level, rules + strlen("value=\"line.rules\""));
  char *in = put(s.lvl, "rules.tmx", swapped);
  run_result r = tiled_export(&s, "tilesat-check", in, "report.txt", true);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, " check ./--png=victim.txt --pins-from "), "%s",
            r.err);
  cr_expect(strstr(r.err, "tilesat: ./--png=victim.txt: cannot open"), "%s",
            r.err);
  run_free(&r);
  free(level);
  free(swapped);
  free(in);
  char *text = slurp(victim);
  cr_expect_str_eq(text, "mine\n");
  free(text);
  free(before);
  free(victim);
  free(outside);
  free(link);
  free(report);
  free(done);
  setup_free(&s);
}

/* The ground layer of a Tiled map as text, a row a line. */
static char *ground_of(const char *path) {
  tilesat_error err;
  tilesat_grid *g =
      tilesat_tiled_read(path, "ground", TILESAT_EMPTY_TILE, &err);
  cr_assert(g, "%s: %s", path, err.msg);
  char *text = calloc(3 * 5 + 1, 1);
  for (int y = 0; y < 3; y++) {
    for (int x = 0; x < 4; x++)
      strcat(text, tilesat_grid_at(g, y, x));
    strcat(text, "\n");
  }
  tilesat_grid_free(g);
  return text;
}

Test(tiled_ext, allowed_options_still_work) {
  setup s;
  setup_new(&s);
  char *sub = path_in(s.lvl, "sub");
  cr_assert_eq(mkdir(sub, 0700), 0);
  free(sub);
  char *cons = put(s.lvl, "sub/one-c.constraints",
                   "tilesat-constraints 1\ncount c = 1\n");
  /* --seed: the completion is collapse's with that seed (not seed 1's);
   * with a constraints file inside the map's folder: check's, which keeps
   * it */
  /* (the map's words, the command, the words run: quoted and plain pieces
   * side by side are one word, as a shell joins them) */
  const char *const cases[][3] = {
      {"--seed 7", "collapse", "--seed 7"},
      {"--constraints='sub/one-c.constraints' --seed=7", "check",
       "--constraints=sub/one-c.constraints --seed=7"}};
  for (int i = 0; i < 2; i++) {
    char *in = hostile_map(&s, "level.tmx", "tilesat-options", cases[i][0]);
    char *out = path_in(s.lvl, "done.tmx");
    run_result r = tiled_export(&s, "tilesat-complete", in, out, true);
    cr_assert_eq(r.code, 0, "%s: %s", cases[i][0], r.err);
    char want[16384];
    snprintf(want, sizeof want,
             "tilesat: running %s/tilesat %s %s/line.rules%s --pins-from "
             "%s/.tilesat-X.tmx --layer ground --tmx %s %s (in %s)",
             s.bindir, cases[i][1], s.lvl, i ? "" : " --guard sat", s.lvl, out,
             cases[i][2], s.lvl);
    char *line = ran_line(r.err);
    cr_expect(line && !strcmp(line, want), "%s\nwant %s", r.err, want);
    free(line);
    run_free(&r);
    /* the same by the command line, and seed 1's differs */
    char *got = ground_of(out), *cli[2];
    for (int k = 0; k < 2; k++) {
      char *o = path_in(s.lvl, k ? "cli1.tmx" : "cli7.tmx");
      r = i ? RUN("check", s.rules, "--pins-from", in, "--layer", "ground",
                  "--tmx", o, "--constraints", cons, "--seed", k ? "1" : "7")
            : RUN("collapse", s.rules, "--pins-from", in, "--layer", "ground",
                  "--guard", "sat", "--tmx", o, "--seed", k ? "1" : "7");
      cr_assert_eq(r.code, 10, "%s", r.err);
      run_free(&r);
      cli[k] = ground_of(o);
      unlink(o);
      free(o);
    }
    cr_expect_str_eq(got, cli[0], "%s", cases[i][0]);
    cr_expect_str_neq(cli[1], cli[0], "%s", cases[i][0]);
    if (i) { /* exactly one c */
      cr_expect_eq(strchr(got, 'c'), strrchr(got, 'c'), "%s", got);
      cr_expect(strchr(got, 'c'), "%s", got);
    }
    free(got);
    free(cli[0]);
    free(cli[1]);
    free(in);
    unlink(out);
    free(out);
  }
  free(cons);
  setup_free(&s);
}
