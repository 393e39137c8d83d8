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
  /* anneal (cmd_anneal.c) */
  const char *energy, *sweeps, *beta, *seed, *restarts, *replicas, *qubo_out,
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

int cmd_extract(options *o);
int cmd_encode(options *o);
int cmd_check(options *o);
int cmd_enum(options *o);
int cmd_anneal(options *o);

#endif
