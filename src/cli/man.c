/* man.c: tilesat --man, the man page tilesat.1 in roff, and tilesat --man
 * COMMAND, the page tilesat-COMMAND.1, made from the command table, the
 * commands' reference (command_docs.c) and the option table so that they
 * cannot fall behind --help (a test checks that they list what --help
 * lists); `tilesat help COMMAND` prints the same page as plain text. */
#include "cli.h"

#include <string.h>

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

/* One option's entry, as in tilesat(1). */
static void man_option(const option_row *r, FILE *out) {
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
  fputs("\n", out);
}

static void man_options(FILE *out) {
  fputs(".SH OPTIONS\n"
        "An option's value follows it (\\fB\\-\\-size 8x8\\fR) or an equals "
        "sign (\\fB\\-\\-size=8x8\\fR).\n",
        out);
  for (size_t k = 0; k < noption_rows; k++) {
    const option_row *r = &option_rows[k];
    man_option(r, out);
    fputs(".br\n(", out);
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
          "many, why not, and a good one.  Each command has a page of its "
          "own, \\fBtilesat\\-COMMAND\\fR(1), which \\fBtilesat help "
          "\\fICOMMAND\\fR prints as text.\n",
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
        "left\\fR); \\fBall\\fR: every line, at once.\n",
        out);
  fputs(".SH SEE ALSO\n", out);
  for (size_t i = 0; i < ncommands; i++) {
    fputs("\\fBtilesat\\-", out);
    roff(commands[i].name, out);
    fputs("\\fR(1), ", out);
  }
  fputs("README.md, and rules/README.md for the file formats (rules, "
        "pictures, energy), in tilesat's source.\n",
        out);
  return fflush(out) ? EXIT_ERROR : 0;
}

/* The exit codes every command shares, after its own. */
static const char common_exit[] =
    "A write error on standard output and a stop by SIGINT or SIGTERM are "
    "errors too (exit 1); errors are one line on standard error.";

int write_man_command(const command *c, FILE *out) {
  const command_doc *d = c->doc;
  char upper[64];
  size_t n = 0;
  for (const char *s = c->name; *s && n + 1 < sizeof upper; s++)
    upper[n++] = (char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s);
  upper[n] = 0;
  fputs(".TH TILESAT\\-", out);
  roff(upper, out);
  fprintf(out, " 1 \"\" \"tilesat %s\" \"User Commands\"\n.nh\n.ad l\n",
          TILESAT_VERSION);
  fputs(".SH NAME\ntilesat\\-", out);
  roff(c->name, out);
  fputs(" \\- ", out);
  roff(c->summary, out);
  fputs("\n.SH SYNOPSIS\n.B tilesat ", out);
  roff(c->name, out);
  fputs("\n", out);
  roff(c->usage, out);
  fputs(" [\\fIOPTIONS\\fR]\n.SH DESCRIPTION\n", out);
  roff(d ? d->description : c->summary, out);
  fputs("\n.SH OPTIONS\n", out);
  for (size_t k = 0; k < noption_rows; k++)
    if (option_row_for(&option_rows[k], c->name))
      man_option(&option_rows[k], out);
  if (d && d->examples[0]) {
    fputs(".SH EXAMPLES\n.nf\n", out);
    for (size_t i = 0; d->examples[i]; i++) {
      roff(d->examples[i], out);
      fputs("\n", out);
    }
    fputs(".fi\n", out);
  }
  fputs(".SH EXIT STATUS\n", out);
  if (d) {
    roff(d->exit_status, out);
    fputs("\n", out);
  }
  roff(common_exit, out);
  fputs("\n.SH SEE ALSO\n\\fBtilesat\\fR(1)\n", out);
  return fflush(out) ? EXIT_ERROR : 0;
}

/* `text` wrapped at 76 columns, each line indented by two spaces. */
static void wrapped(const char *text, FILE *out) {
  const char *s = text;
  while (*s) {
    size_t len = strlen(s);
    size_t cut = len;
    if (len > 74) {
      cut = 74;
      while (cut > 0 && s[cut] != ' ')
        cut--;
      if (!cut)
        cut = strcspn(s, " ");
    }
    fprintf(out, "  %.*s\n", (int)cut, s);
    s += cut;
    while (*s == ' ')
      s++;
  }
}

int write_help_command(const command *c, FILE *out) {
  const command_doc *d = c->doc;
  usage_command(c, out);
  if (d) {
    fputs("\ndescription:\n", out);
    wrapped(d->description, out);
    if (d->examples[0]) {
      fputs("\nexamples:\n", out);
      for (size_t i = 0; d->examples[i]; i++)
        fprintf(out, "  %s\n", d->examples[i]);
    }
    fputs("\nexit status:\n", out);
    wrapped(d->exit_status, out);
  }
  wrapped(common_exit, out);
  return fflush(out) ? EXIT_ERROR : 0;
}
