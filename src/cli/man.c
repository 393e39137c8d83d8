/* man.c: tilesat --man, the man page tilesat.1 in roff, made from the
 * command table and the option table so that it cannot fall behind
 * --help (a test checks that it lists what --help lists). */
#include "cli.h"

/* Text for roff: '-' as \- (a real minus: options stay copyable), '\' as
 * \e, and a '.' or '\'' that would start a line made harmless. */
static void roff(const char *s, FILE *out) {
  if (*s == '.' || *s == '\'')
    fputs("\\&", out);
  for (; *s; s++)
    if (*s == '-')
      fputs("\\-", out);
    else if (*s == '\\')
      fputs("\\e", out);
    else
      fputc(*s, out);
}

/* "Options: --size, --topology, ..., --help." for a command. */
static void option_names(const char *cmd, FILE *out) {
  const char *sep = "Options: ";
  for (size_t k = 0; k < noption_rows; k++)
    if (option_row_for(&option_rows[k], cmd)) {
      fputs(sep, out);
      roff(option_name(option_rows[k].id), out);
      sep = ", ";
    }
  fputs(".\n", out);
}

static void man_commands(FILE *out) {
  fputs(".SH COMMANDS\n", out);
  for (size_t i = 0; i < ncommands; i++) {
    const command *c = &commands[i];
    fprintf(out, ".TP\n\\fB%s\\fR ", c->name);
    roff(c->usage, out);
    fputs("\n", out);
    roff(c->summary, out);
    fputs(".\n.br\n", out);
    option_names(c->name, out);
  }
}

static void man_options(FILE *out) {
  fputs(".SH OPTIONS\n"
        "An option's value follows it (\\fB\\-\\-size 8x8\\fR) or an equals "
        "sign (\\fB\\-\\-size=8x8\\fR).\n",
        out);
  for (size_t k = 0; k < noption_rows; k++) {
    const option_row *r = &option_rows[k];
    fputs(".TP\n\\fB", out);
    roff(option_name(r->id), out);
    fputs("\\fR", out);
    if (r->metavar) {
      fputs(" \\fI", out);
      roff(r->metavar, out);
      fputs("\\fR", out);
    }
    fputs("\n", out);
    roff(r->help, out);
    fputs("\n.br\n(", out);
    /* the commands, without the spaces that wrap each in the table */
    const char *s = r->commands;
    while (*s == ' ')
      s++;
    for (; *s; s++)
      if (*s != ' ' || s[1])
        fputs(*s == ' ' ? ", " : (char[]){*s, 0}, out);
    fputs(")\n", out);
  }
}

int write_man(FILE *out) {
  fprintf(out,
          ".TH TILESAT 1 \"\" \"tilesat %s\" \"User Commands\"\n"
          ".nh\n.ad l\n"
          ".SH NAME\n"
          "tilesat \\- a SAT\\-based model checker for tiled\\-map rules "
          "(WFC / ESTM)\n"
          ".SH SYNOPSIS\n"
          ".B tilesat\n"
          ".I COMMAND\n"
          "[\\fIARGS\\fR] [\\fIOPTIONS\\fR]\n"
          ".br\n"
          ".B tilesat\n"
          "\\fICOMMAND\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-help\\fR | "
          "\\fB\\-\\-version\\fR\n"
          ".SH DESCRIPTION\n"
          "tilesat reads the rules of tiled maps (which tiles may sit next "
          "to which, and how often) from samples, and answers questions "
          "about the maps they allow with a SAT solver: is there one, how "
          "many, why not, and a good one.\n",
          TILESAT_VERSION);
  man_commands(out);
  man_options(out);
  fputs(".SH EXIT STATUS\n"
        "10 satisfiable, 20 unsatisfiable, 0 other success, 1 error "
        "(the message on standard error, as \\fBtilesat: FILE:LINE: "
        "what\\fR when a file is at fault).  A write error on standard "
        "output and a stop by SIGINT or SIGTERM (\\fBtilesat: COMMAND: "
        "interrupted\\fR) are errors: exit 1, and no file is left half "
        "written.\n"
        ".SH ENVIRONMENT\n"
        ".TP\n\\fBTILESAT_PROGRESS\\fR\n"
        "Progress goes to standard error, the first line after a second, "
        "then at most one a second (\\fIrun 3 of 100, about 12 s "
        "left\\fR); \\fBall\\fR: every line, at once.\n"
        ".SH SEE ALSO\n"
        "README.md, and rules/README.md for the file formats (rules, "
        "pictures, energy), in tilesat's source.\n",
        out);
  return fflush(out) ? EXIT_ERROR : 0;
}
