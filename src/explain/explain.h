/* explain/explain.h: propagation with reasons, shared by explain, trace and
 * analyze. */
#ifndef TILESAT_EXPLAIN_H
#define TILESAT_EXPLAIN_H

#include "sat/sat.h"

/* ----------------------------------------------------------- propagation */

/* Arc consistency directly on tile domains (WFC's propagation), every
 * reduction recorded with its reason so that a contradiction can be traced
 * back to the pins and choices behind it.  `enabled` (per group id, or NULL
 * for all) restricts it to some constraints: without a cell's "one tile"
 * group a pin does not empty the rest of the cell and an empty cell is no
 * contradiction, as in the CNF. */
typedef enum ts_step_kind {
  TS_STEP_PIN,     /* a pin or a choice keeps one tile: the cell loses others */
  TS_STEP_SUPPORT, /* the neighbour's tiles allow none of the lost ones */
  TS_STEP_EMPTY,   /* contradiction: no tile left in a cell */
  TS_STEP_LOST,    /* contradiction: a pinned or chosen tile is ruled out */
  /* with positive facts (explanations of constraint subsets): */
  TS_STEP_MUST,      /* the cell must hold one of a set (in `lost`) */
  TS_STEP_ONE,       /* it must hold one of a set and holds one tile only:
                        it loses the rest */
  TS_STEP_MUST_GONE, /* contradiction: what it must hold is ruled out */
} ts_step_kind;

typedef struct ts_step {
  ts_step_kind kind;
  int cell;
  int group;    /* the constraint used: pin, edge or cell group; -1 choice */
  int choice;   /* PIN / LOST by a choice: its index, else -1 */
  int tile;     /* PIN / LOST: the pinned or chosen tile */
  int nb, dir;  /* SUPPORT: the neighbour, and the direction from it to cell */
  size_t lost;  /* offset in `sets`: the tiles lost (PIN, SUPPORT, ONE);
                   MUST: the tiles it must hold one of */
  size_t nbdom; /* SUPPORT: offset in `sets`: the neighbour's domain;
                   MUST: what the neighbour must hold one of */
  size_t deps, ndeps; /* offsets in `deps`: earlier steps this one needs */
} ts_step;

typedef struct ts_prop {
  const tilesat_map *m;
  const uint8_t *enabled;
  int words;
  uint64_t *dom;   /* ncells * words */
  int *removed_by; /* cell * ntiles + tile: step id, or -1 */
  int *forced;     /* cell: pinned or chosen tile, or -1 */
  int *forced_by;  /* cell: the step that pinned it */
  TS_VEC(ts_step) steps;
  TS_VEC(uint64_t) sets;
  TS_VEC(int) deps;
  ts_ints queue;
  uint8_t *queued;
  int conflict; /* step id of the contradiction, or -1 */
  /* positive facts: "cell holds at least one tile of must[cell]" */
  bool positive;
  uint64_t *must; /* ncells * words */
  int *must_by;   /* cell: the step that set it, or -1 (no fact) */
} ts_prop;

/* Every cell may hold every tile; then the first round of propagation
 * (tiles with no allowed neighbour where there is one).  false on a
 * contradiction.  With `positive`, also derive facts "c holds one of X"
 * from pins along pairs (a cell may lack its one-tile constraint in a
 * subset, so these say more than domains do). */
bool ts_prop_init(ts_prop *p, const tilesat_map *m, const uint8_t *enabled,
                  bool positive);
void ts_prop_free(ts_prop *p);
/* Keep only `tile` at `cell` (pin group `group`, or choice `choice` >= 0
 * with group -1), then propagate.  false on a contradiction. */
bool ts_prop_pin(ts_prop *p, int cell, int tile, int group, int choice);
/* Apply the map's enabled pins, then propagate. */
bool ts_prop_pins(ts_prop *p);
/* onchain[step] = 1 for the contradiction and every step it depends on. */
void ts_prop_chain(const ts_prop *p, uint8_t *onchain);
static inline bool ts_prop_has(const ts_prop *p, int cell, int tile) {
  return ts_bit(p->dom + (size_t)cell * (size_t)p->words, tile);
}
/* The steps of p with show[step] set, numbered in order; cid (group ->
 * the explanation's constraint number, 0 if none) or NULL. */
tilesat_steps *ts_steps_of(const ts_prop *p, const uint8_t *show,
                           const int *cid);
/* The steps moved drow rows and dcol columns (a window's steps as its
 * map's). */
void ts_steps_shift(tilesat_steps *s, int drow, int dcol);

/* ------------------------------------------------------------- analysis */

/* Does tile t allow no tile at all in direction d (so it can only stand on
 * that border of a map)? */
static inline bool ts_allows_nothing(const tilesat_rules *r, int t, int d) {
  const uint64_t *al = ts_allowed(r, t, d);
  for (int w = 0; w < r->words; w++)
    if (al[w])
      return false;
  return true;
}

#endif
