#!/bin/sh
# Proved bounds beyond the exact dp (issue 14, item 3): `count --method
# bounds` on 32x32 and 128x128 maps of the four WFC tilesets of the issue
# (all their tiles), side by side.  Target: the gap (log10 upper - log10
# lower) at most 10% of log10 of the count, each map under a minute.  The
# last columns say why a map misses it: each cut line of either bound costs
# about the entropy that crosses it, measured here in columns of entropy.
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=${SECONDS_EACH:-20}
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-bounds.c build/libtilesat.a \
  $(make -s print-libs) -o build/bench-bounds
cases=""
for t in Knots Circuit Castle Rooms; do
  build/tilesat import-tileset "tests/data/wfc/tilesets/$t.xml" \
    -o "build/bench-bounds-$t.rules" 2>/dev/null
done
for s in 32x32 128x128; do
  for t in Knots Circuit Castle Rooms; do
    cases="$cases $t build/bench-bounds-$t.rules $s"
  done
done
echo "bounds bench: $(date -u '+%Y-%m-%d %H:%M'), one core, ${SECONDS_EACH} s a map"
# shellcheck disable=SC2086
build/bench-bounds "$SECONDS_EACH" $cases
