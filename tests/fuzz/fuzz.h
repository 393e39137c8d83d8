/* fuzz.h: what the libFuzzer harnesses of tests/fuzz/ share.  Each
 * fuzz_NAME.c defines LLVMFuzzerTestOneInput; it is linked either with
 * libFuzzer (make fuzz: clang, ASan+UBSan) or with replay.c, a plain main()
 * that feeds it the stored corpus (make test). */
#ifndef TILESAT_FUZZ_H
#define TILESAT_FUZZ_H

#include "tilesat.h"
#include "tilesat_io.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A round trip broke or a result makes no sense: report it and abort, so
 * libFuzzer keeps the input as a crash. */
#define FUZZ_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__,   \
              #cond);                                                          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* rules/coast.rules: three tiles, land, coast and sea. */
extern const char fuzz_coast[];

/* A path in this process's own temporary folder (made on first use,
 * removed at exit): the path-based readers get their input there. */
const char *fuzz_path(const char *name);
/* Write size bytes to path (replacing it); aborts if it cannot. */
void fuzz_write_file(const char *path, const void *data, size_t size);

/* A stream into memory (open_memstream): after fclose, *buf (malloc'd,
 * NUL-terminated) holds *len bytes.  Aborts if it cannot be opened. */
FILE *fuzz_memory(char **buf, size_t *len);

/* Rules written and read back are the same rule set: tiles (names, in
 * order), weights, topology and every allowed pair. */
void fuzz_rules_roundtrip(const tilesat_rules *r);

/* Each cell's tile index in r for grid g (names must all be r's tiles), or
 * NULL when some cell is excluded (a NULL name).  malloc'd. */
int *fuzz_grid_tiles(const tilesat_grid *g, const tilesat_rules *r);

/* The Tiled harnesses: read data as a Tiled map (a file named "in" + ext,
 * beside the external tilesets coast.tsx and coast.tsj it may name), then
 * write its sample as ext and read it back. */
int fuzz_tiled(const uint8_t *data, size_t size, const char *ext);

#endif
