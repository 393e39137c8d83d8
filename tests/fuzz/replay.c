/* replay.c: the plain driver of a harness (make test): each file named on
 * the command line is fed to LLVMFuzzerTestOneInput once, in a child
 * process of its own, so one crash names its file and the rest still run.
 * Prints "NAME: P passed, F failed" and exits 1 if any failed. */
#include "fuzz.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int replay(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  uint8_t *data = NULL;
  size_t len = 0, cap = 0, n;
  do {
    if (len == cap) {
      cap = cap ? 2 * cap : 4096;
      uint8_t *grown = realloc(data, cap);
      FUZZ_CHECK(grown != NULL, "out of memory");
      data = grown;
    }
    n = fread(data + len, 1, cap - len, f);
    len += n;
  } while (n > 0);
  fclose(f);
  /* a copy of exactly len bytes, so ASan sees a read past the end */
  uint8_t *exact = malloc(len ? len : 1);
  FUZZ_CHECK(exact != NULL, "out of memory");
  memcpy(exact, data, len);
  free(data);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  const char *name = argc > 0 ? strrchr(argv[0], '/') : NULL;
  name = name ? name + 1 : argv[0];
  for (int i = 1; i < argc; i++) {
    fflush(stderr);
    pid_t pid = fork();
    FUZZ_CHECK(pid >= 0, "fork");
    if (pid == 0)
      exit(replay(argv[i]));
    int status;
    FUZZ_CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      passed++;
    } else {
      failed++;
      fprintf(stderr, "%s: FAILED: %s\n", name, argv[i]);
    }
  }
  printf("%s: %d passed, %d failed\n", name, passed, failed);
  return failed > 0;
}
