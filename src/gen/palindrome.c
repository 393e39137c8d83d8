/* palindrome.c: the Entropy / Hyle 7 line score.  Every contiguous run that
 * reads the same both ways and is at least 2 long scores its length, and
 * runs inside longer ones score again: AAA is AA + AA + AAA = 7.
 *
 * Expanding around each of the 2n-1 centres finds every palindromic run
 * exactly once (a run has one centre), in O(n + number of runs). */
#include "gen/gen.h"

long tilesat_palindrome_score(const int *line, int n) {
  if (n < 0 || (n > 0 && !line))
    ts_misuse(__func__, "bad line");
  long score = 0;
  for (int centre = 0; centre < 2 * n - 1; centre++) {
    int lo = centre / 2, hi = lo + centre % 2;
    /* odd centres (hi == lo) start from a length-1 run, which scores 0 */
    if (lo == hi) {
      lo--;
      hi++;
    }
    while (lo >= 0 && hi < n && line[lo] == line[hi]) {
      score += hi - lo + 1;
      lo--;
      hi++;
    }
  }
  return score;
}
