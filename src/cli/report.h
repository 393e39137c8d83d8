/* report.h: explanations, traces, analyses and repairs in words and in
 * JSON (report.c; the analysis: report_analysis.c), from the data the library
 * returns: an answer given in both forms is described once, as a reply
 * (reply.h).  A JSON document is a cJSON tree the caller prints
 * (report_json_print) or frees. */
#ifndef TILESAT_CLI_REPORT_H
#define TILESAT_CLI_REPORT_H

#include "reply.h"
#include "tilesat.h"

#include <cJSON.h>
#include <stdio.h>

/* explain's answer, described once: SAT (n == 0: {"result": "SAT",
 * "map", "total_constraints"}, a line in the text), or the explanation
 * es[0] (the same head, "UNSAT", then its "minimal", "constraints",
 * "cells", "propagation_refutes", "steps"), or with all the n of them
 * (the head, "complete", "explanations": an array of their members).  In
 * the text each explanation's constraints, what each rules out and why,
 * and a picture of the map marking the cells involved: the part in
 * window (row, col, height, width), or all of it when window is NULL or
 * empty. */
void report_explain_reply(reply *r, const tilesat_map *m,
                          tilesat_explanation *const *es, size_t n, bool all,
                          bool complete, const int *window);
/* One explanation's text (report_explain_reply's) to out. */
int report_explanation(const tilesat_explanation *e, const int *window,
                       FILE *out);
/* trace's answer, described once: {"result": "contradiction" | "decided"
 * | "undecided", "steps", and unless contradicted "domains": rows of
 * cells of tile names}; in the text after a contradiction the chain of
 * steps that led to it (back to the pins and choices that caused it),
 * only those; otherwise every step, then the domains as a grid. */
void report_trace_reply(reply *r, const tilesat_trace *t);
/* The steps of t, contradicted, as the member `name` (trace's "steps"),
 * and with cut made short in the text (collapse --explain on a map larger
 * than 32x32): only those the contradiction follows from, with their
 * numbers in the whole trace, each list of tiles cut to REPORT_LIST_CUT
 * names and "and N more". */
#define REPORT_LIST_CUT 4
void report_chain_reply(reply *r, const char *name, const tilesat_trace *t,
                        bool cut);
/* The analysis (report_analysis.c): tiles, border tiles, tiles that never
 * appear, the table of sizes, and when hard the smallest failing size's
 * explanation. */
int report_analysis(const tilesat_analysis *a, FILE *out);
/* Repair i of m's repairs in the rules' own terms, a line per change:
 * "allow A DIR B" and its mirror "allow B DIR' A" (ready to paste into
 * the rules file), or "--pin ROW,COL=TILE", the pin to drop (in single
 * quotes when the tile's name needs them in a shell). */
int report_repair(const tilesat_repairs *r, size_t i, const tilesat_map *m,
                  FILE *out);
/* The document to standard output (json_out), and free it; 0 or
 * EXIT_ERROR. */
int report_json_print(cJSON *doc);

#endif
