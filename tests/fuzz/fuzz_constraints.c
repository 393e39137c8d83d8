/* fuzz_constraints.c: constraints files over a 4x3 map of
 * rules/coast.rules with a pin; what parses is checked (its witness
 * verified, against every constraint by the independent checker),
 * counted by enumeration when small, and, without connected or path
 * constraints, written as DIMACS. */
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tilesat_rules *rules;
  tilesat_error err;
  if (!rules) {
    rules = tilesat_rules_parse(fuzz_coast, strlen(fuzz_coast), "coast", &err);
    FUZZ_CHECK(rules != NULL, "%s", err.msg);
  }
  tilesat_map *map = tilesat_map_new(rules, 4, 3, TILESAT_SQUARE, false, &err);
  FUZZ_CHECK(map && !tilesat_map_pin_spec(map, "0,0=L", &err), "%s", err.msg);
  if (!tilesat_map_constraints_parse(map, (const char *)data, size,
                                     "fuzz.constraints", &err)) {
    bool lazy = false;
    tilesat_map_info mi;
    tilesat_map_get(map, &mi);
    for (int i = 0; i < mi.nglobals; i++) {
      tilesat_global_kind k = tilesat_map_global_kind(map, i);
      lazy |= k == TILESAT_GLOBAL_CONNECTED || k == TILESAT_GLOBAL_PATH;
      FUZZ_CHECK(tilesat_map_global_text(map, i)[0], "no words");
    }
    int tiles[12];
    int res = tilesat_check(map, NULL, tiles, &err);
    FUZZ_CHECK(res == TILESAT_SAT || res == TILESAT_UNSAT, "%s", err.msg);
    if (res == TILESAT_SAT) {
      char why[512];
      FUZZ_CHECK(tilesat_map_verify(map, tiles, why, sizeof why), "%s", why);
    }
    int64_t n = tilesat_enumerate(map, NULL, 50, NULL, NULL, &err);
    FUZZ_CHECK((n > 0) == (res == TILESAT_SAT), "enumerate %lld, check %d",
               (long long)n, res);
    FILE *f = fopen("/dev/null", "w");
    FUZZ_CHECK(f != NULL, "/dev/null");
    FUZZ_CHECK((tilesat_encode_dimacs(map, f) == 0) == !lazy, "encode");
    fclose(f);
  }
  tilesat_map_free(map);
  return 0;
}
