/* fuzz_energy.c: energy files over a 4x3 map of rules/coast.rules with a
 * pin; what parses is prepared, evaluated and written as a QUBO. */
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tilesat_rules *rules;
  static tilesat_map *map;
  tilesat_error err;
  if (!map) {
    rules = tilesat_rules_parse(fuzz_coast, strlen(fuzz_coast), "coast", &err);
    FUZZ_CHECK(rules != NULL, "%s", err.msg);
    map = tilesat_map_new(rules, 4, 3, TILESAT_SQUARE, false, &err);
    FUZZ_CHECK(map && !tilesat_map_pin_spec(map, "0,0=L", &err), "%s", err.msg);
  }
  tilesat_energy *e = tilesat_energy_new(map);
  if (!tilesat_energy_parse(e, (const char *)data, size, "fuzz.energy", &err) &&
      !tilesat_energy_prepare(e, &err)) {
    int tiles[12] = {0};
    long v = tilesat_energy_violations(e, tiles);
    FUZZ_CHECK(v == 0, "an all-L map has %ld violations", v);
    (void)tilesat_energy_eval(e, tiles);
    tiles[5] = 2; /* S among L: four disallowed pairs */
    FUZZ_CHECK(tilesat_energy_violations(e, tiles) == 4, "S among L");
    (void)tilesat_energy_eval(e, tiles);
    FILE *f = fopen("/dev/null", "w");
    FUZZ_CHECK(f != NULL, "/dev/null");
    double offset;
    (void)tilesat_energy_write_qubo(e, f, &offset, &err);
    fclose(f);
  }
  tilesat_energy_free(e);
  return 0;
}
