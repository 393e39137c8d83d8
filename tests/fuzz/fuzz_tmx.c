/* fuzz_tmx.c: Tiled maps read from a .tmx file, then the sample written as
 * .tmx and read back (common.c). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_tiled(data, size, ".tmx");
}
