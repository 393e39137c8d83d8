/* version.c: the version of the library as built, which a program compiled
 * against one header may find differs from the TILESAT_VERSION it saw. */
#include "tilesat.h"

const char *tilesat_version(void) { return TILESAT_VERSION; }
