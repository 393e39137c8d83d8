/* options.c: the table of options.h made code: defaults, parsing, range
 * checks with one error format, and the --help lines.  Every number on
 * the command line goes through scan_uint or scan_real. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum kind {
  FLAG,
  UINT,
  REAL,
  BYTES,
  CHOICE,
  STRING,
  LIST,
  WXH,
  SPAN,
  TERM
} kind;

/* What an option is, whatever the command (a row says what it does). */
typedef struct option_info {
  const char *name;
  kind kind;
  size_t offset;
  uint64_t ulo, uhi; /* UINT */
  double dlo, dhi;   /* REAL, SPAN */
} option_info;

#define RANGE_FLAG(lo, hi)
#define RANGE_UINT(lo, hi) .ulo = (lo), .uhi = (hi)
#define RANGE_REAL(lo, hi) .dlo = (lo), .dhi = (hi)
#define RANGE_BYTES(lo, hi)
#define RANGE_CHOICE(lo, hi)
#define RANGE_STRING(lo, hi)
#define RANGE_LIST(lo, hi)
#define RANGE_WXH(lo, hi)
#define RANGE_SPAN(lo, hi) .dlo = (lo), .dhi = (hi)
#define RANGE_TERM(lo, hi)

#define OPT(id, flag, k, def, lo, hi, ...)                                     \
  [OPTION_##id] = {flag, k, offsetof(options, id), RANGE_##k(lo, hi)},
#define ALSO(...)
static const option_info info[NOPTIONS] = {OPTIONS};
#undef OPT
#undef ALSO

#define OPT(id, flag, k, def, lo, hi, metavar, commands, help)                 \
  {OPTION_##id, metavar, commands, help},
#define ALSO(id, metavar, commands, help)                                      \
  {OPTION_##id, metavar, commands, help},
const option_row option_rows[] = {OPTIONS};
#undef OPT
#undef ALSO
const size_t noption_rows = sizeof option_rows / sizeof option_rows[0];

#define OPT(id, flag, k, def, ...) .id = def,
#define ALSO(...)
static const options defaults = {OPTIONS};
#undef OPT
#undef ALSO

const char *option_name(enum option_id id) { return info[id].name; }

bool option_row_for(const option_row *row, const char *cmd) {
  char key[32];
  snprintf(key, sizeof key, " %s ", cmd);
  return strstr(row->commands, key) != NULL;
}

/* ------------------------------------------------------------- numbers */

/* Decimal digits (no sign, no space) that fit 64 bits; *end after them. */
static bool scan_uint(const char *s, const char **end, uint64_t *out) {
  if (*s < '0' || *s > '9')
    return false;
  char *e;
  errno = 0;
  *out = strtoull(s, &e, 10);
  *end = e;
  return !errno;
}

/* A finite decimal number (no leading space, no hexadecimal); *end after
 * it. */
static bool scan_real(const char *s, const char **end, double *out) {
  const char *digits = s + (*s == '+' || *s == '-');
  if (!(isdigit((unsigned char)*digits) || *digits == '.') ||
      strpbrk(digits, "xX"))
    return false;
  char *e;
  errno = 0;
  *out = strtod(s, &e);
  *end = e;
  return e != s && !errno && isfinite(*out);
}

static bool parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  const char *end;
  return scan_uint(s, &end, out) && !*end && *out >= lo && *out <= hi;
}

static bool parse_real(const char *s, double lo, double hi, double *out) {
  const char *end;
  return scan_real(s, &end, out) && !*end && *out > lo && *out < hi;
}

/* "512M", "4G", "100000K" or bytes. */
static bool parse_bytes(const char *s, size_t *out) {
  const char *end;
  uint64_t v;
  if (!scan_uint(s, &end, &v))
    return false;
  int shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10, end++;
  else if (*end == 'M' || *end == 'm')
    shift = 20, end++;
  else if (*end == 'G' || *end == 'g')
    shift = 30, end++;
  if (*end || v == 0 || v > (SIZE_MAX >> shift))
    return false;
  *out = (size_t)v << shift;
  return true;
}

/* LO:HI with lo < LO <= HI. */
static bool parse_span(const char *s, double lo, real_span *out) {
  const char *end;
  if (!scan_real(s, &end, &out->lo) || *end != ':' ||
      !scan_real(end + 1, &end, &out->hi) || *end)
    return false;
  return out->lo > lo && out->hi >= out->lo;
}

/* One of the words of "a|b|c". */
static bool is_choice(const char *s, const char *choices) {
  size_t n = strlen(s);
  if (strchr(s, '|')) /* "a|b" is two words of "a|b|c", not one */
    return false;
  for (const char *p = choices;; p++) {
    if (n && !strncmp(p, s, n) && (p[n] == '|' || !p[n]))
      return true;
    if (!(p = strchr(p, '|')))
      return false;
  }
}

/* ---------------------------------------------------------- the errors */

/* 2^64-1 reads better than 18446744073709551615. */
static void bound(char *buf, size_t size, uint64_t v) {
  int bits = 0;
  for (uint64_t x = v; x & 1; x >>= 1)
    bits++;
  if (v >= UINT32_MAX && (v & (v + 1)) == 0)
    snprintf(buf, size, "2^%d-1", bits);
  else
    snprintf(buf, size, "%llu", (unsigned long long)v);
}

/* "a, b or c" from "a|b|c". */
static void choices_text(char *buf, size_t size, const char *choices) {
  size_t n = 0;
  for (const char *p = choices; *p && n + 5 < size; p++) {
    if (*p != '|') {
      buf[n++] = *p;
      continue;
    }
    const char *sep = strchr(p + 1, '|') ? ", " : " or ";
    n += (size_t)snprintf(buf + n, size - n, "%s", sep);
  }
  buf[n < size ? n : size - 1] = 0;
}

/* A choice asked for by what it does: "exact" (or "exactly", "precise")
 * names the exact methods among the choices, dp and enum (count; a
 * command that draws maps, CMD_DRAWS: dp),
 * or cnf (check, whose every method answers exactly: cnf alone is the
 * whole map's CNF).  0 when the word is no such one, else its length. */
static size_t exact_hint(const char *cmd, const char *val,
                         const char *const *words, int n, char *hint,
                         size_t size) {
  if (strncasecmp(val, "exact", 5) && strcasecmp(val, "precise"))
    return 0;
  const command *c = cmd ? command_find(cmd) : NULL;
  bool draws = c && (c->traits & CMD_DRAWS);
  const char *found[2];
  int k = 0;
  /* the exact methods; the last lists maps, it does not draw them */
  static const char *const exact[] = {"dp", "cnf", "enum"};
  int nexact = draws ? 2 : 3;
  for (int i = 0; i < n; i++)
    for (int e = 0; e < nexact && k < 2; e++)
      if (!strcmp(words[i], exact[e]))
        found[k++] = words[i];
  if (k == 2)
    return (size_t)snprintf(hint, size,
                            "did you mean '%s' or '%s'? the exact ones",
                            found[0], found[1]);
  if (k == 1 && !strcmp(found[0], "dp"))
    return (size_t)snprintf(hint, size,
                            "did you mean 'dp'? the exact one, exactly "
                            "uniform");
  if (k == 1 && !strcmp(found[0], "cnf"))
    return (size_t)snprintf(hint, size,
                            "did you mean 'cnf'? every method answers "
                            "exactly; cnf is the whole map's CNF alone");
  return 0;
}

/* The one error for a value that does not parse or is out of range:
 * "OPTION: 'VALUE' is not WHAT". */
static int bad_value(const char *cmd, const option_info *in,
                     const option_row *row, const char *val) {
  char what[512], lo[32], hi[32];
  switch (in->kind) {
  case UINT:
    bound(lo, sizeof lo, in->ulo);
    bound(hi, sizeof hi, in->uhi);
    snprintf(what, sizeof what, "a whole number from %s to %s", lo, hi);
    break;
  case REAL:
    if (isinf(in->dhi))
      snprintf(what, sizeof what, "a number above %g", in->dlo);
    else
      snprintf(what, sizeof what, "a number between %g and %g", in->dlo,
               in->dhi);
    break;
  case BYTES:
    snprintf(what, sizeof what, "a size such as 512M or 4G");
    break;
  case CHOICE: {
    choices_text(what, sizeof what, row->metavar);
    const char *words[16];
    char copy[160];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", row->metavar);
    for (char *p = copy; p && n < 16; n++) {
      words[n] = p;
      if ((p = strchr(p, '|')))
        *p++ = 0;
    }
    char hint[256]; /* not for "a|b": two words at once */
    if (!strchr(val, '|') &&
        (tilesat_suggest(val, words, n, NULL, hint, sizeof hint) ||
         exact_hint(cmd, val, words, n, hint, sizeof hint))) {
      size_t at = strlen(what);
      snprintf(what + at, sizeof what - at, " (%s)", hint);
    }
    break;
  }
  case SPAN:
    snprintf(what, sizeof what, "%s with %g < LO <= HI", row->metavar, in->dlo);
    break;
  default: /* TERM: a weight, more of it read by the energy reader */
    snprintf(what, sizeof what, "a number");
  }
  fail("%s: '%s' is not %s", in->name, val, what);
  return EXIT_ERROR;
}

/* --------------------------------------------------------- the parsing */

static void list_add(string_list *l, const char *s) {
  const char **v = realloc(l->v, ((size_t)l->n + 1) * sizeof *v);
  if (!v) {
    fail("out of memory");
    abort();
  }
  v[l->n++] = s;
  l->v = v;
}

/* --png, --tmx, --tmj: a name with another extension is refused (the
 * bytes would not be what the name says); a name with none is taken.
 * 0 or EXIT_ERROR (said). */
static int output_extension(enum option_id id, const char *val) {
  static const struct {
    enum option_id id;
    const char *ext, *also, *what;
  } outs[] = {
      {OPTION_png, ".png", NULL, "a PNG picture"},
      {OPTION_tmx, ".tmx", NULL, "a Tiled map in XML"},
      {OPTION_tmj, ".tmj", ".json", "a Tiled map in JSON"},
  };
  for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
    if (outs[i].id != id)
      continue;
    const char *base = strrchr(val, '/');
    base = base ? base + 1 : val;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || !strcasecmp(dot, outs[i].ext) ||
        (outs[i].also && !strcasecmp(dot, outs[i].also)))
      return 0;
    char shown[256], ext[64], stem[256], want[256];
    tilesat_shown(shown, sizeof shown, val);
    tilesat_shown(ext, sizeof ext, dot);
    snprintf(want, sizeof want, "%.*s", (int)(dot - val), val);
    tilesat_shown(stem, sizeof stem, want);
    fail("%s: %s: %s writes %s, not a %s file: name it %s%s", info[id].name,
         shown, info[id].name, outs[i].what, ext, stem, outs[i].ext);
    return EXIT_ERROR;
  }
  return 0;
}

/* Store one option's value in its typed field; 0 or EXIT_ERROR. */
static int set_value(options *o, const option_row *row, const char *val) {
  const option_info *in = &info[row->id];
  void *field = (char *)o + in->offset;
  tilesat_error err;
  bool ok = true;
  o->given[row->id] = true;
  switch (in->kind) {
  case FLAG:
    *(bool *)field = true;
    break;
  case UINT:
    ok = parse_uint(val, in->ulo, in->uhi, field);
    break;
  case REAL:
    ok = parse_real(val, in->dlo, in->dhi, field);
    break;
  case BYTES:
    ok = parse_bytes(val, field);
    break;
  case CHOICE:
    ok = is_choice(val, row->metavar);
    *(const char **)field = val;
    break;
  case STRING:
    *(const char **)field = val;
    if (output_extension(row->id, val))
      return EXIT_ERROR;
    break;
  case TERM: /* one word: the energy reader would read more as tiles */
    ok = !val[strcspn(val, " \t")] && strlen(val) < 256;
    *(const char **)field = val;
    break;
  case LIST:
    list_add(field, val);
    break;
  case WXH:
    if (tilesat_parse_size(val, &((map_size *)field)->w,
                           &((map_size *)field)->h, &err))
      return fail_err(&err);
    break;
  case SPAN:
    ok = parse_span(val, in->dlo, field);
    break;
  }
  return ok ? 0 : bad_value(o->command, in, row, val);
}

static const option_row *find_row(const char *cmd, const char *name,
                                  size_t len) {
  for (size_t i = 0; i < noption_rows; i++) {
    const char *n = info[option_rows[i].id].name;
    if (strlen(n) == len && !strncmp(n, name, len) &&
        option_row_for(&option_rows[i], cmd))
      return &option_rows[i];
  }
  return NULL;
}

/* "unknown option 'NAME' for 'CMD'", and what it may have meant: the
 * command's options near it, or else the commands it is an option of. */
/* typed: the word as typed when a is its long name (-q: --quiet). */
static int unknown_option(const char *cmd, const char *a, size_t len,
                          const char *typed) {
  char word[128], hint[512] = "";
  snprintf(word, sizeof word, "%.*s", (int)(len < 100 ? len : 100), a);
  const char *names[NOPTIONS] = {NULL};
  int n = 0;
  for (size_t i = 0; i < noption_rows; i++) {
    const char *name = info[option_rows[i].id].name;
    bool dup = false;
    for (int k = 0; k < n && !dup; k++)
      dup = names[k] == name;
    if (!dup && option_row_for(&option_rows[i], cmd))
      names[n++] = name;
  }
  /* the commands that have it, first: an option of another command is
   * that, not a typo of a near name (explain's --whole for --choose) */
  const char *of[64];
  int nof = 0;
  for (size_t i = 0; i < ncommands && nof < 64; i++)
    if (strcmp(commands[i].name, cmd) && find_row(commands[i].name, a, len))
      of[nof++] = commands[i].name;
  if (!nof)
    tilesat_suggest(word, names, n, NULL, hint, sizeof hint);
  int shown = nof > 4 ? 3 : nof; /* then "and N other commands" */
  for (int i = 0; i < shown; i++) {
    size_t at = strlen(hint);
    snprintf(hint + at, sizeof hint - at, "%s%s",
             !i             ? "it is an option of "
             : i == nof - 1 ? " and "
                            : ", ",
             of[i]);
  }
  if (shown < nof) {
    size_t at = strlen(hint);
    snprintf(hint + at, sizeof hint - at, " and %d other commands",
             nof - shown);
  }
  fail("unknown option '%.*s' for '%s'%s%s (see 'tilesat %s --help')",
       typed ? (int)strlen(typed) : (int)len, typed ? typed : a, cmd,
       *hint ? ": " : "", hint, cmd);
  return EXIT_ERROR;
}

typedef struct given_value {
  const option_row *row;
  const char *val;
} given_value;

/* The syntax alone: which option each word is, and its value.  Unknown
 * options and missing values are found before any value is checked. */
static int split(options *o, int argc, char **argv, given_value *seen,
                 int *nseen) {
  bool only_args = false;
  const given_value *cell = NULL; /* the word before was a cell's value */
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (only_args || a[0] != '-' || !strcmp(a, "-")) {
      if (cell && !o->split_word) {
        o->split_option = info[cell->row->id].name;
        o->split_value = cell->val;
        o->split_word = a;
      }
      cell = NULL;
      list_add(&o->args, a);
      continue;
    }
    cell = NULL;
    if (!strcmp(a, "--")) {
      only_args = true;
      continue;
    }
    if (!strcmp(a, "-h"))
      a = "--help";
    else if (!strcmp(a, "-q"))
      a = "--quiet";
    const char *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    const option_row *row = find_row(o->command, a, len);
    if (!row) /* -h, -q: named as typed */
      return unknown_option(o->command, a, len, a != argv[i] ? argv[i] : NULL);
    const char *name = info[row->id].name, *val = NULL;
    bool flag = info[row->id].kind == FLAG;
    if (flag && eq) {
      fail("option '%s' takes no value", name);
      return EXIT_ERROR;
    }
    if (!flag)
      val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
    if (!flag && !val) {
      fail("option '%s' needs a value (%s)", name, row->metavar);
      return EXIT_ERROR;
    }
    seen[(*nseen)++] = (given_value){row, val};
    if (row->id == OPTION_pins || row->id == OPTION_chooses)
      cell = &seen[*nseen - 1];
  }
  return 0;
}

int options_parse(options *o, const char *cmd, int argc, char **argv) {
  *o = defaults;
  o->command = cmd;
  given_value *seen = calloc((size_t)argc + 1, sizeof *seen);
  int nseen = 0;
  if (!seen) {
    fail("out of memory");
    return EXIT_ERROR;
  }
  int rc = split(o, argc, argv, seen, &nseen);
  for (int i = 0; i < nseen && !rc; i++)
    o->help |= seen[i].row->id == OPTION_help;
  /* with --help, print the help whatever else is wrong; an option of one
   * value given twice (the first would be dropped without a word) before
   * any value is checked */
  bool had[NOPTIONS] = {false};
  for (int i = 0; i < nseen && !rc && !o->help; i++) {
    const option_info *in = &info[seen[i].row->id];
    if (had[seen[i].row->id] && in->kind != LIST && in->kind != FLAG) {
      fail("%s given twice (it takes one value)", in->name);
      rc = EXIT_ERROR;
    }
    had[seen[i].row->id] = true;
  }
  for (int i = 0; i < nseen && !rc && !o->help; i++)
    rc = set_value(o, seen[i].row, seen[i].val);
  free(seen);
  return rc;
}

int options_refuse_unkept(const options *o, const char *door,
                          const enum option_id *keeps, size_t n,
                          const char *why) {
  for (int id = 0; id < NOPTIONS; id++) {
    bool kept = id == OPTION_help;
    for (size_t i = 0; i < n && !kept; i++)
      kept = keeps[i] == (enum option_id)id;
    if (o->given[id] && !kept) {
      fail("%s: %s does not keep it: %s", info[id].name, door, why);
      return EXIT_ERROR;
    }
  }
  return 0;
}

void options_free(options *o) {
  for (int id = 0; id < NOPTIONS; id++)
    if (info[id].kind == LIST)
      free(((string_list *)((char *)o + info[id].offset))->v);
  free(o->args.v);
  tilesat_pictures_free(o->pics);
  o->pics = NULL;
  o->pics_read = false;
  tiled_docs_free(o);
}

void options_help(const char *cmd, FILE *out) {
  for (size_t i = 0; i < noption_rows; i++) {
    const option_row *r = &option_rows[i];
    if (!option_row_for(r, cmd))
      continue;
    char lhs[64];
    snprintf(lhs, sizeof lhs, "%s%s%s", info[r->id].name, r->metavar ? " " : "",
             r->metavar ? r->metavar : "");
    /* help in column 37, or two spaces after a longer left side */
    fprintf(out, "  %-34s %s%s\n", lhs, strlen(lhs) >= 34 ? " " : "", r->help);
  }
}
