/* fuzz_rules.c: rules files; what parses is written and read back the
 * same, and analysed on small maps (its pair table used). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilesat_error err;
  tilesat_rules *r =
      tilesat_rules_parse((const char *)data, size, "fuzz.rules", &err);
  if (!r)
    return 0;
  fuzz_rules_roundtrip(r);
  tilesat_map *m =
      tilesat_map_new(r, 3, 2, tilesat_rules_topology(r), false, &err);
  if (m && tilesat_rules_ntiles(r) <= 64) {
    tilesat_solve_options so = {0};
    int *tiles = calloc(6, sizeof *tiles);
    FUZZ_CHECK(tiles != NULL, "out of memory");
    int rc = tilesat_check(m, &so, tiles, &err);
    FUZZ_CHECK(rc == TILESAT_SAT || rc == TILESAT_UNSAT, "check: %s", err.msg);
    char why[256];
    FUZZ_CHECK(rc != TILESAT_SAT ||
                   tilesat_map_verify(m, tiles, why, sizeof why),
               "the witness is not valid: %s", why);
    free(tiles);
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  return 0;
}
