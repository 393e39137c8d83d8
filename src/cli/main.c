/* main.c: the tilesat command line.  Uses only the public headers.  Exit
 * codes: 10 satisfiable, 20 unsatisfiable, 0 other success, 1 error (a
 * write error on standard output and a stop by a signal included). */
#include "cli.h"

#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    usage_main(stderr);
    return EXIT_ERROR;
  }
  const char *name = argv[1];
  /* tilesat help COMMAND, tilesat --man COMMAND: one command's reference */
  if ((!strcmp(name, "help") || !strcmp(name, "--man")) && argc >= 3) {
    const command *c = command_find(argv[2]);
    if (!c || argc > 3) {
      if (c)
        fail("%s: one command at a time", name);
      else
        unknown_command(argv[2]); /* with "did you mean" */
      return EXIT_ERROR;
    }
    return stdout_end(name[0] == 'h' ? write_help_command(c, stdout)
                                     : write_man_command(c, stdout));
  }
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage_main(stdout);
    return stdout_end(0);
  }
  if (!strcmp(name, "--version")) {
    printf("tilesat %s\n", TILESAT_VERSION);
    return stdout_end(0);
  }
  if (!strcmp(name, "--man")) /* for make man; not in --help */
    return stdout_end(write_man(stdout));
  const command *c = command_find(name);
  if (!c) {
    unknown_command(name);
    return EXIT_ERROR;
  }
  options o;
  int rc = options_parse(&o, c->name, argc - 2, argv + 2);
  if (!rc && o.help) {
    usage_command(c, stdout);
    rc = stdout_end(0);
  } else if (!rc && !(rc = check_outputs(&o)) && !(rc = check_pictures(&o))) {
    stop_install(c->name);
    /* the answer whole or not at all, but maps printed as they come */
    if (!(c->traits & CMD_STREAMS))
      answer_begin();
    rc = stdout_end(answer_end(&o, c->run(&o)));
  }
  options_free(&o);
  return rc;
}
