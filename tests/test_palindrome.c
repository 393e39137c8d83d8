/* The Entropy / Hyle 7 palindrome score against the seed's 30-entry table
 * (seeds/002, section 2.6), one test per entry.
 *
 * One entry of the table is wrong: it lists ABABABA as 27, but its own rule
 * (every contiguous palindromic run of length >= 2 scores its length) gives
 * 37: ABABABA itself (7), three runs of 5 (ABABA, BABAB, ABABA: 15) and
 * five of 3 (ABA, BAB, ABA, BAB, ABA: 15).  We assert 37. */
#include "helpers.h"

#include <string.h>

static long score(const char *s) {
  int line[16], n = (int)strlen(s);
  for (int i = 0; i < n; i++)
    line[i] = s[i] - 'A';
  return tilesat_palindrome_score(line, n);
}

#define ENTRY(pattern, value)                                                  \
  Test(palindrome_table, pattern) { cr_expect_eq(score(#pattern), value); }

ENTRY(AA, 2)
ENTRY(ABA, 3)
ENTRY(AAA, 7)
ENTRY(ABAAABA, 25)
ENTRY(AAAA, 16)
ENTRY(ABAABA, 18)
ENTRY(AAAAA, 30)
ENTRY(ABABA, 14)
ENTRY(AAAAAA, 50)
/* the table says 27; its rule gives 7 + 3 * 5 + 5 * 3 = 37 */
ENTRY(ABABABA, 37)
ENTRY(AAAAAAA, 77)
ENTRY(ABACABA, 21)
ENTRY(AAABAAA, 29)
ENTRY(ABBA, 6)
ENTRY(AABAA, 12)
ENTRY(ABBABBA, 27)
ENTRY(AABABAA, 25)
ENTRY(ABBBA, 12)
ENTRY(AABBAA, 16)
ENTRY(ABBBBA, 22)
ENTRY(AABBBAA, 23)
ENTRY(ABBBBBA, 37)
ENTRY(AABCBAA, 19)
ENTRY(ABBCBBA, 19)
ENTRY(ABCACBA, 15)
ENTRY(ABCBA, 8)
ENTRY(ABCBCBA, 21)
ENTRY(ABCCBA, 12)
ENTRY(ABCCCBA, 19)
ENTRY(ABCDCBA, 15)

Test(palindrome, short_and_mixed_lines) {
  cr_expect_eq(tilesat_palindrome_score(NULL, 0), 0);
  cr_expect_eq(score("A"), 0);
  cr_expect_eq(score("AB"), 0);
  cr_expect_eq(score("ABCDEFG"), 0);
  /* the seed's worked examples */
  cr_expect_eq(score("ABCBA"), 5 + 3);
  cr_expect_eq(score("ABABA"), 5 + 3 * 3);
  cr_expect_eq(score("AAAA"), 4 + 2 * 3 + 3 * 2);
  /* runs are scored wherever they are, not only whole lines */
  cr_expect_eq(score("ABBC"), 2);
  cr_expect_eq(score("CABBAD"), 2 + 4);
}

/* Against the seed's O(n^3) definition on every line of 7 over 3 colours. */
Test(palindrome, matches_the_definition_on_all_short_lines) {
  int line[7];
  for (int code = 0; code < 2187; code++) {
    for (int i = 0, x = code; i < 7; i++, x /= 3)
      line[i] = x % 3;
    long want = 0;
    for (int s = 0; s < 7; s++)
      for (int e = s + 1; e < 7; e++) {
        bool pal = true;
        for (int k = 0; k < (e - s + 1) / 2; k++)
          pal &= line[s + k] == line[e - k];
        if (pal)
          want += e - s + 1;
      }
    cr_assert_eq(tilesat_palindrome_score(line, 7), want, "code %d", code);
  }
}
