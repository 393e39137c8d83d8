#!/bin/sh
# The ten slowest tests of each Criterion XML report given (make test
# writes build/tests.xml and build-asan/tests.xml): seconds, suite/test.
for xml in "$@"; do
  [ -r "$xml" ] || continue
  echo "ten slowest tests ($xml):"
  awk '
    /<testsuite / { match($0, /name="[^"]*"/); suite = substr($0, RSTART + 6, RLENGTH - 7) }
    /<testcase / {
      match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
      match($0, /time="[^"]*"/); t = substr($0, RSTART + 6, RLENGTH - 7)
      printf "%8.2f s  %s/%s\n", t, suite, name
    }' "$xml" | sort -rn | head -10
done
