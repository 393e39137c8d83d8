/* kind.c: what kind of file a reader was given, by its first bytes, so
 * that a picture, a WFC tileset or a Tiled map given where rules (or a map)
 * belong is named as what it is, with the command that reads it, rather
 * than failing on its first byte or line. */
#include "core/core.h"

#include <string.h>

static bool starts(const char *s, size_t n, const char *prefix) {
  size_t k = strlen(prefix);
  return n >= k && !memcmp(s, prefix, k);
}

static size_t skip_space(const char *s, size_t n, size_t i) {
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
    i++;
  return i;
}

/* The index just past `end` from i on, or n. */
static size_t past(const char *s, size_t n, size_t i, const char *end) {
  size_t k = strlen(end);
  for (; i + k <= n; i++)
    if (!memcmp(s + i, end, k))
      return i + k;
  return n;
}

/* Past blank lines and the comment lines ('#') a tilesat text format may
 * start with. */
static size_t skip_comments(const char *s, size_t n, size_t i) {
  for (i = skip_space(s, n, i); i < n && s[i] == '#';)
    i = skip_space(s, n, past(s, n, i, "\n"));
  return i;
}

static bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == ':';
}

ts_kind ts_kind_of_root(const char *name, size_t len) {
  static const struct {
    const char *root;
    ts_kind kind;
  } roots[] = {{"set", TS_KIND_WFC_TILESET},
               {"samples", TS_KIND_WFC_SAMPLES},
               {"map", TS_KIND_TILED_MAP},
               {"tileset", TS_KIND_TILED_TILESET}};
  for (size_t r = 0; r < sizeof roots / sizeof *roots; r++)
    if (len == strlen(roots[r].root) && !memcmp(name, roots[r].root, len))
      return roots[r].kind;
  return TS_KIND_OTHER;
}

/* The root element of an XML document: its kind, by its name followed by
 * a space, '>' or '/' on its line (a text grid's row "<set" is not). */
static ts_kind xml_kind(const char *s, size_t n, size_t i) {
  for (int guard = 0; guard < 64 && i < n && s[i] == '<'; guard++) {
    if (starts(s + i, n - i, "<?"))
      i = past(s, n, i, "?>");
    else if (starts(s + i, n - i, "<!--"))
      i = past(s, n, i, "-->");
    else if (starts(s + i, n - i, "<!"))
      i = past(s, n, i, ">");
    else
      break;
    i = skip_space(s, n, i);
  }
  if (i >= n || s[i] != '<')
    return TS_KIND_OTHER;
  size_t b = ++i;
  while (i < n && name_char(s[i]))
    i++;
  if (i >= n || !(s[i] == ' ' || s[i] == '>' || s[i] == '/'))
    return TS_KIND_OTHER;
  return ts_kind_of_root(s + b, i - b);
}

static bool has(const char *s, size_t n, const char *what) {
  size_t k = strlen(what);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(s + i, what, k))
      return true;
  return false;
}

/* A Tiled JSON map or tileset: an object with Tiled's keys near its top. */
static ts_kind json_kind(const char *s, size_t n) {
  static const struct {
    const char *key;
    ts_kind kind;
  } keys[] = {{"\"layers\"", TS_KIND_TILED_MAP},
              {"\"type\": \"map\"", TS_KIND_TILED_MAP},
              {"\"type\":\"map\"", TS_KIND_TILED_MAP},
              {"\"tilecount\"", TS_KIND_TILED_TILESET},
              {"\"type\": \"tileset\"", TS_KIND_TILED_TILESET},
              {"\"type\":\"tileset\"", TS_KIND_TILED_TILESET}};
  size_t k = n < 4096 ? n : 4096;
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (has(s, k, keys[i].key))
      return keys[i].kind;
  return TS_KIND_OTHER;
}

ts_kind ts_kind_of(const char *text, size_t len) {
  static const struct {
    const char *magic;
    ts_kind kind;
  } magics[] = {{"\x89PNG\r\n\x1a\n", TS_KIND_PNG},
                {"\xff\xd8\xff", TS_KIND_JPEG},
                {"GIF87a", TS_KIND_GIF},
                {"GIF89a", TS_KIND_GIF}};
  for (size_t m = 0; m < sizeof magics / sizeof *magics; m++)
    if (starts(text, len, magics[m].magic))
      return magics[m].kind;
  if (len >= 12 && starts(text, len, "RIFF") && !memcmp(text + 8, "WEBP", 4))
    return TS_KIND_WEBP;
  size_t i = skip_comments(text, len, ts_bom_len(text, len));
  static const struct {
    const char *header;
    ts_kind kind;
  } headers[] = {{"tilesat-rules ", TS_KIND_RULES},
                 {"tilesat-pictures ", TS_KIND_PICTURES},
                 {"tilesat-constraints ", TS_KIND_CONSTRAINTS},
                 {"tilesat-energy ", TS_KIND_ENERGY}};
  for (size_t h = 0; h < sizeof headers / sizeof *headers; h++)
    if (starts(text + i, len - i, headers[h].header))
      return headers[h].kind;
  if (i < len && text[i] == '<')
    return xml_kind(text, len, i);
  if (i < len && text[i] == '{')
    return json_kind(text + i, len - i);
  return TS_KIND_OTHER;
}

static const char *kind_name(ts_kind k) {
  switch (k) {
  case TS_KIND_PNG:
    return "a PNG picture";
  case TS_KIND_JPEG:
    return "a JPEG picture";
  case TS_KIND_GIF:
    return "a GIF picture";
  case TS_KIND_WEBP:
    return "a WebP picture";
  case TS_KIND_WFC_TILESET:
    return "a WFC simple-tiled tileset";
  case TS_KIND_WFC_SAMPLES:
    return "a WFC run list (samples.xml)";
  case TS_KIND_TILED_MAP:
    return "a Tiled map";
  case TS_KIND_TILED_TILESET:
    return "a Tiled tileset";
  case TS_KIND_RULES:
    return "a rules file";
  case TS_KIND_PICTURES:
    return "a pictures file";
  case TS_KIND_CONSTRAINTS:
    return "a constraints file";
  case TS_KIND_ENERGY:
    return "an energy file";
  case TS_KIND_GRID:
    return "a map";
  default:
    return "a file of another kind";
  }
}

/* The file's name as a shell word: quoted when it has other characters
 * than letters, digits and ./_+-. */
static void shell_word(const char *file, char *out, size_t size) {
  bool plain = *file != 0;
  for (const char *c = file; *c && plain; c++)
    plain = name_char(*c) || strchr("./+", *c);
  if (plain || strchr(file, '\''))
    snprintf(out, size, "%s", file);
  else
    snprintf(out, size, "'%s'", file);
}

/* The rules file a command makes from this one: its base name with
 * .rules for its extension. */
static void rules_name(const char *file, char *out, size_t size) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
  if (!n || n > 64 || !name_char(*base) || *base == '-') { /* "-": stdin */
    snprintf(out, size, "X.rules");
    return;
  }
  snprintf(out, size, "%.*s.rules", (int)n, base);
  for (char *c = out; *c; c++)
    if (!name_char(*c) && *c != '.')
      *c = '_';
}

static void picture_advice(ts_kind want, const char *f, const char *r,
                           char *out, size_t size) {
  if (want == TS_KIND_PICTURES)
    snprintf(out, size,
             "a pictures file is text (rules/README.md); 'tilesat extract %s "
             "--tile-size N -o %s' writes one beside the rules",
             f, r);
  else
    snprintf(out, size,
             "make rules from a sample picture with 'tilesat extract %s "
             "--tile-size N -o %s' (WFC's overlapping model: --pattern N); "
             "the rules' tile pictures are given with --pictures FILE",
             f, r);
}

/* What to do with a file of kind `is` where one of kind `want` was
 * expected: a command that reads it, or where it goes. */
static void advice(ts_kind is, ts_kind want, const char *file, char *out,
                   size_t size) {
  char f[300], r[80];
  shell_word(file, f, sizeof f);
  rules_name(file, r, sizeof r);
  switch (is) {
  case TS_KIND_PNG:
    picture_advice(want, f, r, out, size);
    break;
  case TS_KIND_JPEG:
  case TS_KIND_GIF:
  case TS_KIND_WEBP:
    snprintf(out, size,
             "tilesat reads PNG pictures only: save it as PNG, then 'tilesat "
             "extract FILE.png --tile-size N' makes rules from it");
    break;
  case TS_KIND_WFC_TILESET:
    snprintf(out, size, "make its rules with 'tilesat import-tileset %s -o %s'",
             f, r);
    break;
  case TS_KIND_WFC_SAMPLES:
    snprintf(out, size,
             "'tilesat run-samples %s' runs it; 'tilesat import-tileset' "
             "reads the tilesets it names",
             f);
    break;
  case TS_KIND_TILED_MAP:
    snprintf(out, size,
             "'tilesat extract %s -o %s' makes rules from the tiles painted in "
             "it, and --pins-from %s completes it as a level",
             f, r, f);
    break;
  case TS_KIND_TILED_TILESET:
    snprintf(out, size,
             "it holds no rules: 'tilesat extract MAP.tmx' makes rules from a "
             "map painted with it");
    break;
  case TS_KIND_RULES:
    if (want != TS_KIND_GRID && want != TS_KIND_CONSTRAINTS &&
        want != TS_KIND_PICTURES && want != TS_KIND_ENERGY) {
      snprintf(out, size,
               "these are rules already: 'tilesat check %s --size WxH' reads "
               "them",
               f);
      break;
    }
    snprintf(out, size, "%s",
             want == TS_KIND_GRID
                 ? "rules go first, as in 'tilesat check RULES --pins-from "
                   "MAP'; a map or sample is a text grid, a PNG or a Tiled map"
                 : "rules go first, as in 'tilesat check RULES --size WxH'");
    break;
  case TS_KIND_PICTURES:
    snprintf(out, size, "give it with --pictures %s", f);
    break;
  case TS_KIND_CONSTRAINTS:
    snprintf(out, size, "give it with --constraints %s, after the rules", f);
    break;
  case TS_KIND_ENERGY:
    snprintf(out, size, "give it to 'tilesat anneal RULES --energy %s'", f);
    break;
  default:
    out[0] = 0;
  }
}

bool ts_kind_check(const char *text, size_t len, const char *file, ts_kind want,
                   tilesat_error *err) {
  ts_kind is = ts_kind_of(text, len);
  if (is == TS_KIND_OTHER || is == want)
    return true;
  ts_kind_refuse(is, want, file, 0, err);
  return false;
}

void ts_kind_refuse(ts_kind is, ts_kind want, const char *file, long line,
                    tilesat_error *err) {
  char what[1024];
  advice(is, want, file, what, sizeof what);
  ts_error(err, file, line, "%s, not %s%s%s", kind_name(is), kind_name(want),
           what[0] ? ": " : "", what);
}
