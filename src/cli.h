/* cli.h: the command line's own header (the library's is tilesat.h).
 * Each command lives in a cmd_*.c file and is listed in cli.c's tables. */
#ifndef TILESAT_CLI_H
#define TILESAT_CLI_H

#include "tilesat.h"

#define EXIT_ERROR 1

typedef struct options {
  const char *command; /* the command's name */
  const char *size, *topology, *backend, *output, *format, *limit;
  bool periodic, periodic_input, help;
  const char **pins;
  int npins;
  const char **args;
  int nargs;
  /* count and sample */
  const char *method, *epsilon, *delta, *seed, *max_memory, *nsamples;
  /* Inputs and pictures (cmd_inputs.c). */
  const char *tile_size, *pattern, *symmetry, *palette, *pictures, *png, *tmx,
      *tmj, *empty, *layer, *subset, *tilesets_from;
  struct inputs *inputs; /* what a command's samples share; end_samples */
  /* explain, trace, analyze */
  const char **chooses; /* --choose ROW,COL=TILE, in order */
  int nchooses;
  const char *max;
  /* anneal (cmd_anneal.c) */
  const char *energy, *sweeps, *beta, *restarts, *replicas, *qubo_out,
      *hard_weight, *frequency, *coherence, *palindrome;
} options;

/* "tilesat: " + message on stderr. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a library error; returns EXIT_ERROR. */
int fail_err(const tilesat_error *err);
/* -o FILE (or stdout); NULL after printing an error. */
FILE *open_output(const options *o);
int close_output(const options *o, FILE *f);
/* Read the rules file argument and build the map the options describe. */
int load_map(options *o, tilesat_rules **rules, tilesat_map **map);
int parse_backend(const options *o, tilesat_backend *b);
/* A whole decimal number in [lo, hi], digits only. */
bool parse_whole(const char *s, long long lo, long long hi, long long *out);

int cmd_extract(options *o);
int cmd_encode(options *o);
int cmd_check(options *o);
int cmd_enum(options *o);
int cmd_count(options *o);
int cmd_sample(options *o);

/* Inputs and pictures (cmd_inputs.c). */
/* A sample of any kind, recognised by content: PNG image (--tile-size,
 * --palette), Tiled .tmx/.tmj (--layer, --empty) or text grid. */
tilesat_grid *load_sample(options *o, const char *path, tilesat_error *err);
/* After extraction: write the samples' pictures (--pictures FILE, or beside
 * -o X.rules as X.pictures) when rc is 0, free what load_sample kept.
 * Returns rc, or EXIT_ERROR if writing failed. */
int end_samples(options *o, int rc);
int cmd_extract_patterns(options *o);
int cmd_import_tileset(options *o);
/* --png for explain / trace: cells drawn as blends of their domains (per
 * cell, (ntiles+63)/64 words), highlighted cells framed; 0 or EXIT_ERROR. */
int domains_png(options *o, const tilesat_map *m, const uint64_t *domains,
                const bool *highlight);
/* --png / --tmx / --tmj for one filled map; 0 or EXIT_ERROR. */
int map_outputs(options *o, const tilesat_map *m, const int *tiles);
/* enum --png / --tmx / --tmj: a contact sheet, or a Tiled map with a layer
 * per map, of the first 256 maps. */
typedef struct sheet sheet;
sheet *sheet_new(options *o, const tilesat_map *m);
void sheet_add(sheet *s, const int *tiles);
/* Write the sheet (if any) and free it; 0 or EXIT_ERROR. */
int sheet_end(sheet *s);
/* Print each map of enum or sample (blank line after each) and add it to
 * the --png / --tmx / --tmj sheet, if any. */
typedef struct map_sink {
  const tilesat_map *m;
  sheet *sheet;
} map_sink;
int map_sink_print(void *user, const int *tiles);
int cmd_explain(options *o);
int cmd_trace(options *o);
int cmd_analyze(options *o);
int cmd_anneal(options *o);

#endif
