/* report.h: explanations, traces, analyses and repairs in words and in
 * JSON (report.c; the analysis: report_analysis.c), from the data the library
 * returns.  A JSON document is a cJSON tree the caller prints
 * (report_json_print) or frees. */
#ifndef TILESAT_CLI_REPORT_H
#define TILESAT_CLI_REPORT_H

#include "tilesat.h"

#include <cJSON.h>
#include <stdio.h>

/* The constraints, what each rules out and why, and a picture of the map
 * marking the cells involved: the part in window (row, col, height, width),
 * or all of it when window is NULL or empty. */
int report_explanation(const tilesat_explanation *e, const int *window,
                       FILE *out);
/* Numbered, each as report_explanation, after a line saying how many and
 * whether they are all there are. */
int report_explanations(tilesat_explanation *const *es, size_t n, bool complete,
                        const int *window, FILE *out);
/* {"result": "UNSAT", "map", "total_constraints", then the explanation's
 * fields: "minimal", "constraints", "cells", "propagation_refutes",
 * "steps"}. */
cJSON *report_explanation_json(const tilesat_explanation *e);
/* The same head, "complete", and "explanations": an array of their
 * fields. */
cJSON *report_explanations_json(tilesat_explanation *const *es, size_t n,
                                bool complete);
/* {"result": "SAT", "map", "total_constraints"}. */
cJSON *report_explain_sat_json(const tilesat_map *m);
/* {"result": "contradiction" | "decided" | "undecided", "steps", and
 * unless contradicted "domains": rows of cells of tile names}. */
cJSON *report_trace_json(const tilesat_trace *t);
/* A contradiction's steps made short (collapse --explain on a map larger
 * than 32x32): only those the contradiction follows from, with their
 * numbers in the whole trace, each list of tiles cut to REPORT_LIST_CUT
 * names and "and N more"; report_trace when there is no contradiction. */
#define REPORT_LIST_CUT 4
int report_trace_cut(const tilesat_trace *t, FILE *out);
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
