/* commands.c: the table of commands (name, usage, summary, what runs it,
 * its traits) and the usage texts made from it and the option table.  A
 * command's behaviour that differs from the others' is chosen by its
 * traits (command_does), never by its name (tests/test_commands.c). */
#include "cli.h"

#include <string.h>

const command commands[] = {
    {"extract", "SAMPLE...",
     "ESTM rules (tiles, weights, allowed pairs) "
     "from sample maps",
     cmd_extract, CMD_MAKES_RULES, &command_doc_extract},
    {"encode", "RULES --size WxH",
     "a map as CNF: DIMACS with named variables, or propositions", cmd_encode,
     CMD_STREAMS, &command_doc_encode},
    {"check", "RULES --size WxH",
     "is there a valid map? SAT and a witness (exit 10) or UNSAT (exit 20)",
     cmd_check, 0, &command_doc_check},
    {"enum", "RULES --size WxH",
     "every valid map, then 'maps: N' (exit 10 if any, 20 if none)", cmd_enum,
     CMD_STREAMS | CMD_SHEET, &command_doc_enum},
    {"count", "RULES --size WxH",
     "the number of valid maps, exact, approximate or between proved bounds "
     "(last line)",
     cmd_count, CMD_DP_MEMORY, &command_doc_count},
    {"sample", "RULES --size WxH",
     "valid maps drawn uniformly at random (dp: exactly; approx: by XOR "
     "hashing)",
     cmd_sample, CMD_STREAMS | CMD_SHEET | CMD_DP_MEMORY | CMD_DRAWS,
     &command_doc_sample},
    {"sum", "FILE...",
     "the exact total of the parts 'count --part K/N' counted (refuses a "
     "part missing or twice, parts of different problems, or a count that "
     "does not match its check)",
     cmd_sum, 0, &command_doc_sum},
    {"import-tileset", "TILESET.xml",
     "rules from a WFC simple-tiled tileset (oriented tiles, pairs, weights)",
     cmd_import_tileset, CMD_MAKES_RULES, &command_doc_import_tileset},
    {"export-tileset", "RULES -o X.tsx",
     "the rules' tiles as a Tiled tileset (X.tsx and its picture X.tsx.png), "
     "each tile named by its 'tilesat' property, to paint maps with",
     cmd_export_tileset, CMD_TILESET_OUT, &command_doc_export_tileset},
    {"explain", "RULES --size WxH",
     "why no map exists: a minimal set of clashing constraints (exit 20)",
     cmd_explain, CMD_MARKS | CMD_PINS_ONLY | CMD_CROPS, &command_doc_explain},
    {"repair", "RULES --size WxH",
     "for a map with no valid filling: the fewest pairs to allow (allow "
     "lines), or pins to drop; every minimal repair with --all",
     cmd_repair, 0, &command_doc_repair},
    {"trace", "RULES --size WxH",
     "WFC propagation with reasons; on a contradiction, its chain (20)",
     cmd_trace, CMD_MARKS, &command_doc_trace},
    {"analyze", "RULES",
     "a report on a rule set: border-only and unused tiles, sizes that work; "
     "--chunk K: whether every valid border of a KxK chunk has a filling",
     cmd_analyze, 0, &command_doc_analyze},
    {"anneal", "RULES --size WxH",
     "a low-energy map by annealing soft terms, hard rules restored by SAT",
     cmd_anneal, CMD_PINS_ONLY, &command_doc_anneal},
    {"collapse", "RULES --size WxH",
     "run Wave Function Collapse as WFC does: a map (exit 10), or where it "
     "contradicted",
     cmd_collapse, CMD_LARGE_GUARD, &command_doc_collapse},
    {"world", "RULES --chunk N --at R,C",
     "chunks of an endless map, made by modifying in blocks: the same chunk "
     "whatever is asked before, valid across every seam (exit 10)",
     cmd_world, 0, &command_doc_world},
    {"verify", "RULES MAP",
     "does a finished map keep the rules? VALID (exit 10), or every pair of "
     "cells that breaks them (20)",
     cmd_verify, CMD_MARKS, &command_doc_verify},
    {"run-samples", "SAMPLES.xml",
     "mxgmn's run list through tilesat: per entry, sat or not, WFC's failure "
     "rate, time, and its maps as PNGs",
     cmd_run_samples, CMD_STREAMS, &command_doc_run_samples},
};
const size_t ncommands = sizeof commands / sizeof commands[0];

const command *command_find(const char *name) {
  for (size_t i = 0; i < ncommands; i++)
    if (!strcmp(commands[i].name, name))
      return &commands[i];
  return NULL;
}

bool command_does(const options *o, unsigned traits) {
  const command *c = o->command ? command_find(o->command) : NULL;
  return c && (c->traits & traits);
}

void unknown_command(const char *name) {
  const char *names[sizeof commands / sizeof commands[0]];
  for (size_t i = 0; i < ncommands; i++)
    names[i] = commands[i].name;
  char hint[512];
  tilesat_suggest(name, names, (int)ncommands, NULL, hint, sizeof hint);
  fail("unknown command '%s'%s%s (see 'tilesat --help')", name,
       *hint ? ": " : "", hint);
}

void usage_main(FILE *out) {
  fprintf(out,
          "tilesat %s: a SAT-based model checker for tiled-map rules (WFC / "
          "ESTM)\n\n"
          "usage: tilesat COMMAND [ARGS] [OPTIONS]\n\ncommands:\n",
          TILESAT_VERSION);
  for (size_t i = 0; i < ncommands; i++)
    fprintf(out, "  %-14s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\n'tilesat COMMAND --help' lists a command's options, "
               "'tilesat help COMMAND' its reference.\n"
               "Exit codes: 10 satisfiable, 20 unsatisfiable, 0 other "
               "success, 1 error.\n"
               "Progress on standard error: after a second, at most once a "
               "second (TILESAT_PROGRESS=all: every line).\n");
}

void usage_command(const command *c, FILE *out) {
  fprintf(out, "usage: tilesat %s %s [OPTIONS]\n%s\n\noptions:\n", c->name,
          c->usage, c->summary);
  options_help(c->name, out);
}
