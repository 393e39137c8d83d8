/* samples_xml.c: mxgmn's run list, samples.xml: one <overlapping> or
 * <simpletiled> element per run of the reference program, each with its own
 * settings.  The attributes and their defaults are Program.cs's (Get(NAME,
 * DEFAULT) there); values are read as its TypeDescriptor converters read
 * them (booleans "True"/"False" in any case, whole numbers in decimal,
 * both with surrounding spaces).  Where the reference would quietly do
 * something else than the file says (a heuristic it does not know runs as
 * Entropy; an attribute it does not read is ignored), the entry carries an
 * error instead, so a run never claims settings it did not use. */
#include "io/io.h"

#include <ctype.h>
#include <errno.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The attributes the reference reads, and for which elements. */
enum { BOTH, OVERLAPPING, SIMPLETILED };
static const struct known {
  const char *name;
  int kind;
} known_attrs[] = {
    {"name", BOTH},
    {"size", BOTH},
    {"width", BOTH},
    {"height", BOTH},
    {"periodic", BOTH},
    {"heuristic", BOTH},
    {"seed", BOTH},
    {"screenshots", BOTH},
    {"limit", BOTH},
    {"N", OVERLAPPING},
    {"periodicInput", OVERLAPPING},
    {"symmetry", OVERLAPPING},
    {"ground", OVERLAPPING},
    {"subset", SIMPLETILED},
    {"blackBackground", SIMPLETILED},
    {"textOutput", SIMPLETILED},
};

/* One element being read: its attributes' errors go to the entry. */
typedef struct reading {
  const char *path;
  xmlNode *node;
  tilesat_wfc_entry *e;
} reading;

/* The first error of the entry, "FILE:LINE: message". */
static void entry_error(reading *rd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void entry_error(reading *rd, const char *fmt, ...) {
  if (rd->e->error)
    return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tilesat_error err;
  ts_error(&err, rd->path, rd->e->line, "%s", msg);
  rd->e->error = ts_strdup(err.msg);
}

/* The attribute's value with surrounding spaces cut (malloc'd), or NULL. */
static char *value_of(reading *rd, const char *name) {
  xmlChar *v = xmlGetProp(rd->node, (const xmlChar *)name);
  if (!v)
    return NULL;
  const char *s = (const char *)v;
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  char *out = ts_strndup(s, n);
  xmlFree(v);
  return out;
}

/* A boolean attribute: "True" or "False" in any case. */
static void get_bool(reading *rd, const char *name, bool *out) {
  char *v = value_of(rd, name);
  if (!v)
    return;
  if (!strcasecmp(v, "true"))
    *out = true;
  else if (!strcasecmp(v, "false"))
    *out = false;
  else
    entry_error(rd, "%s '%s' is not True or False", name, v);
  free(v);
}

/* A whole-number attribute in [lo, hi]: what `hint` says if not. */
static void get_long(reading *rd, const char *name, long lo, long hi,
                     const char *hint, long *out) {
  char *v = value_of(rd, name);
  if (!v)
    return;
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (!*v || *end || errno || x < lo || x > hi)
    entry_error(rd, "%s '%s' is not %s", name, v, hint);
  else
    *out = x;
  free(v);
}

static void get_int(reading *rd, const char *name, int lo, int hi,
                    const char *hint, int *out) {
  long x = *out;
  get_long(rd, name, lo, hi, hint, &x);
  *out = (int)x;
}

/* Does the element carry only attributes the reference reads for it? */
static void check_attrs(reading *rd, bool overlapping) {
  for (xmlAttr *a = rd->node->properties; a; a = a->next) {
    const char *name = (const char *)a->name;
    size_t k = 0, nk = sizeof known_attrs / sizeof *known_attrs;
    while (k < nk && strcmp(known_attrs[k].name, name))
      k++;
    int kind = k < nk ? known_attrs[k].kind : -1;
    if (kind == BOTH || kind == (overlapping ? OVERLAPPING : SIMPLETILED))
      continue;
    entry_error(rd,
                "attribute '%s' is not one the reference reads for "
                "<%s> (it would ignore it)",
                name, overlapping ? "overlapping" : "simpletiled");
  }
}

/* The name: a file name inside samples/ or tilesets/. */
static void get_name(reading *rd) {
  tilesat_wfc_entry *e = rd->e;
  e->name = value_of(rd, "name");
  if (!e->name || !*e->name) {
    free(e->name);
    e->name = ts_strdup("");
    entry_error(rd, "an entry needs a name");
  } else if (strpbrk(e->name, "/\\") || strstr(e->name, "..")) {
    entry_error(rd,
                "name '%s': a name is a file name in %s, so it cannot hold "
                "'/', '\\' or '..'",
                e->name, e->overlapping ? "samples/" : "tilesets/");
  }
}

static void read_entry(reading *rd) {
  tilesat_wfc_entry *e = rd->e;
  bool ov = e->overlapping;
  get_name(rd);
  check_attrs(rd, ov);
  int size = ov ? 48 : 24;
  get_int(rd, "size", 1, 65535, "a whole number from 1 to 65535", &size);
  e->width = e->height = size;
  get_int(rd, "width", 1, 65535, "a whole number from 1 to 65535", &e->width);
  get_int(rd, "height", 1, 65535, "a whole number from 1 to 65535", &e->height);
  get_bool(rd, "periodic", &e->periodic);
  char *h = value_of(rd, "heuristic");
  if (h && !strcmp(h, "MRV"))
    e->heuristic = TILESAT_HEURISTIC_MRV;
  else if (h && !strcmp(h, "Scanline"))
    e->heuristic = TILESAT_HEURISTIC_SCANLINE;
  else if (h && strcmp(h, "Entropy"))
    entry_error(rd,
                "heuristic '%s' is not Entropy, MRV or Scanline (the "
                "reference would run it as Entropy)",
                h);
  free(h);
  long seed = -1;
  get_long(rd, "seed", -2147483647L - 1, 2147483647L,
           "a whole number from -2147483648 to 2147483647 (below 0: none)",
           &seed);
  e->seed = seed;
  get_int(rd, "screenshots", 0, 1000000, "a whole number from 0 to 1000000",
          &e->screenshots);
  long limit = -1;
  get_long(rd, "limit", -2147483647L - 1, 2147483647L,
           "a whole number from -2147483648 to 2147483647 (below 0: none)",
           &limit);
  if (limit == 0)
    entry_error(rd, "limit 0 (no choice at all) is not supported");
  e->limit = limit < 0 ? -1 : limit;
  if (ov) {
    get_int(rd, "N", 1, 8, "a whole number from 1 to 8", &e->n);
    get_bool(rd, "periodicInput", &e->periodic_input);
    get_int(rd, "symmetry", 1, 8, "a whole number from 1 to 8", &e->symmetry);
    get_bool(rd, "ground", &e->ground);
  } else {
    e->subset = value_of(rd, "subset");
    get_bool(rd, "blackBackground", &e->black_background);
    get_bool(rd, "textOutput", &e->text_output);
  }
}

tilesat_wfc_entry *tilesat_wfc_samples_read(const char *path, size_t *n,
                                            tilesat_error *err) {
  if (!path || !n)
    ts_misuse(__func__, "NULL path or count");
  *n = 0;
  xmlDoc *doc = ts_xml_read(path, TS_KIND_WFC_SAMPLES, err);
  if (!doc)
    return NULL;
  xmlNode *root = xmlDocGetRootElement(doc);
  if (strcmp((const char *)root->name, "samples")) {
    if (!ts_xml_known_root(root, path, TS_KIND_WFC_SAMPLES, err))
      ts_error(err, path, xmlGetLineNo(root),
               "not a WFC run list: root element <%s>, expected <samples>",
               (const char *)root->name);
    xmlFreeDoc(doc);
    return NULL;
  }
  TS_VEC(tilesat_wfc_entry) v = {0};
  for (xmlNode *x = root->children; x; x = x->next) {
    if (x->type != XML_ELEMENT_NODE)
      continue;
    const char *el = (const char *)x->name;
    bool ov = !strcmp(el, "overlapping");
    if (!ov && strcmp(el, "simpletiled"))
      continue; /* as the reference: only these two */
    tilesat_wfc_entry e = {
        .overlapping = ov,
        .line = xmlGetLineNo(x),
        .n = 3,
        .periodic_input = true,
        .symmetry = 8,
        .heuristic = TILESAT_HEURISTIC_ENTROPY,
        .screenshots = 2,
    };
    reading rd = {path, x, &e};
    read_entry(&rd);
    TS_PUSH(v, e);
  }
  xmlFreeDoc(doc);
  *n = v.n;
  return v.v ? v.v : ts_calloc(1, sizeof *v.v);
}

void tilesat_wfc_samples_free(tilesat_wfc_entry *entries, size_t n) {
  for (size_t i = 0; entries && i < n; i++) {
    free(entries[i].name);
    free(entries[i].subset);
    free(entries[i].error);
  }
  free(entries);
}
