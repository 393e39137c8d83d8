/* fuzz_tmj.c: Tiled maps read from a .tmj file, then the sample written as
 * .tmj (JSON) and read back (common.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_tiled(data, size, ".tmj");
}
