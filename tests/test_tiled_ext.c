/* The Tiled extension (tools/tiled/tilesat.js) in real Tiled, headless:
 * `tiled --export-map tilesat-complete|check|explain|verify|heatmap` on a
 * temporary HOME whose extensions folder holds it.  The completed map
 * keeps every other layer, object and property; its layer is valid by
 * `tilesat verify`; the marks are the cells tilesat itself names. */
/* POSIX with XSI: nftw, realpath (a feature macro, reserved by design) */
/* NOLINTNEXTLINE(bugprone-reserved-identifier) */
#define _XOPEN_SOURCE 700
#include "helpers.h"

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

/* tiled --export-map FORMAT IN OUT in lvl/, HOME the test's, offscreen,
 * tilesat on PATH (unless path_has_tilesat is false); at most 120 s. */
static run_result tiled_export(const setup *s, const char *format,
                               const char *in, const char *out,
                               bool path_has_tilesat) {
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
    const char *old = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
    char path[8192];
    if (path_has_tilesat)
      snprintf(path, sizeof path, "%s:%s", s->bindir, old);
    else
      snprintf(path, sizeof path, "%s", old);
    setenv("PATH", path, 1);
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
  /* tilesat not on PATH, named by tilesat-command; the inner layer */
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "  <property name=\"tilesat-command\" value=\"%s/tilesat\"/>\n"
           "  <property name=\"tilesat-layer\" value=\"inner\"/>\n",
           s.bindir);
  char *level = malloc(sizeof LEVEL("") + strlen(cmd));
  const char *split = strstr(LEVEL(""), "  <property name=\"tilesat-rules\"");
  sprintf(level, "%.*s%s%s", (int)(split - LEVEL("")), LEVEL(""), cmd, split);
  char *in2 = put(s.lvl, "inner.tmx", level);
  r = tiled_export(&s, "tilesat-check", in2, report, false);
  cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
  run_free(&r);
  text = slurp(report);
  cr_expect_str_eq(text, "UNSAT\n");
  free(text);
  /* without it, tilesat is not found: said */
  char *in3 = put(s.lvl, "plain.tmx", LEVEL(""));
  r = tiled_export(&s, "tilesat-check", in3, report, false);
  cr_expect_eq(r.code, 1);
  cr_expect(strstr(r.err, "tilesat: cannot run 'tilesat': is tilesat "
                          "installed? (map property tilesat-command)"),
            "%s", r.err);
  run_free(&r);
  free(level);
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
