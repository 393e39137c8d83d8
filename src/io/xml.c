/* xml.c: reading XML files through libxml2, with errors that name the file
 * and line, no network access and nothing printed. */
#include "io/io.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

xmlDoc *ts_xml_parse(const char *text, size_t len, const char *path,
                     tilesat_error *err) {
  if (len > INT32_MAX) {
    ts_error(err, path, 0, "file too large");
    return NULL;
  }
  xmlParserCtxt *ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    ts_error(err, path, 0, "cannot make an XML parser");
    return NULL;
  }
  /* BIG_LINES: lines past 65535 keep their number (errors name them) */
  xmlDoc *doc =
      xmlCtxtReadMemory(ctxt, text, (int)len, path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                            XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
  if (!doc || !xmlDocGetRootElement(doc)) {
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[256] = "no root element";
    long line = 0;
    if (e && e->message) {
      snprintf(msg, sizeof msg, "%s", e->message);
      /* one line: libxml2 adds a second ("Bytes: 0xFF ...") to some */
      msg[strcspn(msg, "\n")] = 0;
      size_t n = strlen(msg);
      while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = 0;
      line = e->line;
      int depth;
      /* libxml2 advises an option only a program can give */
      if (sscanf(msg, "Excessive depth in document: %d", &depth) == 1)
        snprintf(msg, sizeof msg,
                 "elements nested more than %d deep, which the XML reader "
                 "refuses (Tiled maps and WFC tilesets nest a few levels: is "
                 "the file damaged or generated wrong?)",
                 depth);
    }
    ts_error(err, path, line, "bad XML: %s", msg);
    xmlFreeDoc(doc);
    doc = NULL;
  }
  xmlFreeParserCtxt(ctxt);
  return doc;
}

xmlDoc *ts_xml_read(const char *path, ts_kind want, tilesat_error *err) {
  size_t len;
  char *text = ts_read_file(path, &len, err);
  if (!text)
    return NULL;
  /* an XML root of another kind is named by its caller, with its line */
  ts_kind is = ts_kind_of(text, len);
  bool xml = is == TS_KIND_WFC_TILESET || is == TS_KIND_WFC_SAMPLES ||
             is == TS_KIND_TILED_MAP || is == TS_KIND_TILED_TILESET;
  if (!xml && !ts_kind_check(text, len, path, want, err)) {
    free(text);
    return NULL;
  }
  xmlDoc *doc = ts_xml_parse(text, len, path, err);
  free(text);
  return doc;
}

bool ts_xml_known_root(const xmlNode *root, const char *path, ts_kind want,
                       tilesat_error *err) {
  const char *name = (const char *)root->name;
  ts_kind is = ts_kind_of_root(name, strlen(name));
  if (is != TS_KIND_OTHER && is != want) {
    ts_kind_refuse(is, want, path, xmlGetLineNo(root), err);
    return true;
  }
  return false;
}
