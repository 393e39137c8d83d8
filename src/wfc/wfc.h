/* wfc/wfc.h: the WFC engine's entry points for the stages above it: check's
 * portfolio (windows, a guarded collapse, the whole CNF) and the collapse's
 * memory bound.  The collapser's own state is wfc/collapse_internal.h. */
#ifndef TILESAT_WFC_H
#define TILESAT_WFC_H

#include "core/rng.h"
#include "sat/sat.h"

/* ------------------------------------------ check as a portfolio */

/* The CPU seconds check --method auto gives the windows and the collapse
 * before the whole CNF (portfolio.c): 5 plus 2e-6 per cell and tile. */
double ts_check_budget(const tilesat_map *m);
/* Refuse m if a guarded collapse's tables would not fit its memory bound
 * (collapse_new.c): 0, or -1 with "WHAT: a WxH map ... needs about ...". */
int ts_collapse_refuse(const tilesat_map *m, const char *what,
                       tilesat_error *err);
/* A quick SAT answer before a command builds the whole map's CNF: the
 * guarded collapse of check's portfolio (seed 1, windows only, within
 * ts_check_budget), when the map is one it keeps.  TILESAT_SAT (its map
 * verified), TILESAT_UNKNOWN (no map from it: the caller's CNF decides,
 * UNSAT included), or -1 with err ("WHAT: interrupted" when so's
 * terminate stopped it, or an internal error). */
int ts_check_collapse_first(const tilesat_map *m,
                            const tilesat_solve_options *so, const char *what,
                            tilesat_error *err);
/* A cheap refutation (count, before its methods): the windows around the
 * pins and the guarded collapse of check's portfolio within `budget` CPU
 * seconds, never the whole map's CNF.  TILESAT_UNSAT (why: what proved
 * it, as check says it), TILESAT_UNKNOWN (not refuted), or -1 with err
 * ("WHAT: interrupted" when so's terminate stopped it). */
int ts_check_refute(const tilesat_map *m, const tilesat_solve_options *so,
                    double budget, char *why, size_t whylen, const char *what,
                    tilesat_error *err);

/* Check's windows around the pins alone, within `budget` CPU seconds:
 * true with *how (TILESAT_BY_WINDOW: the first window with no filling). */
bool ts_check_pin_window(const tilesat_map *m, const tilesat_solve_options *so,
                         double budget, tilesat_check_answer *how);

#endif
