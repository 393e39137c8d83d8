#!/bin/sh
# Counting (issue 3): dp vs enum vs approx side by side, in-process times.
# Then (issue 14) count vs sample with the dp, CPU time and peak memory of
# each in a process of its own, on every case where the dp finishes.
# Target: sample within 3x the time and 3x the memory of count.
# Targets: coast 10x10 exact under 10 ms; 100x faster than SharpSAT-TD
# (1.1 s for coast 10x10, 7.6 s for coast 24x24 on a 2-core machine, as
# reported in the issue: no generic model counter is packaged in Debian, so
# it is not run here); 12-wide maps of an 8-tile rule set in seconds (Knots
# Dense, 8 tiles; dungeon8, 9 tiles, is denser); approx
# on a 32x32 map of 8 tiles under a minute (missed: see the last column,
# the XOR rows approx needs grow with log2 of the count, and Knots Dense
# has about 2^1260 maps at 32x32, extrapolated from the dp's exact counts
# at 16x16 and 16x32).
set -eu
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60}
# count vs sample: each run at most this (Circuit 6x6 counts in about a
# minute)
SAMPLE_LIMIT=${SAMPLE_LIMIT:-600}
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-count.c build/libtilesat.a \
  $(make -s print-libs) -o build/bench-count
# Knots' "Dense" subset: a real WFC tileset of exactly 8 oriented tiles;
# Circuit (41 oriented tiles) and Castle (29)
build/tilesat import-tileset tests/data/wfc/tilesets/Knots.xml --subset Dense \
  -o build/knots-dense.rules
for t in Circuit Castle; do
  build/tilesat import-tileset tests/data/wfc/tilesets/$t.xml \
    -o build/$(echo $t | tr A-Z a-z).rules 2> /dev/null
done
# count's default (auto) against --method dp, CPU seconds of the whole
# process, median of 5 (target: auto within 1.1x dp on coast 24x24 and
# dungeon8 8x8)
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ print $1 + $2 }'; }
median5() { for _ in 1 2 3 4 5; do cpu "$@"; done | sort -n | sed -n 3p; }
echo "count auto vs dp: $(date -u '+%Y-%m-%d %H:%M'), CPU s, median of 5"
printf '%-22s %8s %8s %6s\n' map auto dp ratio
for c in coast:24x24 dungeon8:8x8 coast:64x64 dungeon8:10x10; do
  r=${c%%:*} z=${c#*:}
  a=$(median5 build/tilesat count rules/$r.rules --size "$z")
  d=$(median5 build/tilesat count rules/$r.rules --size "$z" --method dp)
  printf '%-22s %8.3f %8.3f %6s\n' "$r $z" "$a" "$d" \
    "$(awk -v a="$a" -v d="$d" 'BEGIN { if (d > 0) printf "%.2f", a / d; else print "-" }')"
done
echo
echo "count bench: $(date -u '+%Y-%m-%d %H:%M'), one core, each method at most ${LIMIT}s"
build/bench-count "$LIMIT" \
  rules/coast.rules 3x3 rules/coast.rules 6x6 rules/coast.rules 10x10 \
  rules/coast.rules 12x12 rules/coast.rules 16x16 rules/coast.rules 24x24 rules/coast.rules 32x32 \
  rules/dungeon8.rules 4x4 rules/dungeon8.rules 5x5 rules/dungeon8.rules 6x6 rules/dungeon8.rules 8x8 \
  rules/dungeon8.rules 10x10 rules/dungeon8.rules 12x12 \
  rules/dungeon8.rules 32x32 \
  build/knots-dense.rules 4x4 build/knots-dense.rules 5x5 \
  build/knots-dense.rules 8x8 build/knots-dense.rules 12x12 \
  build/knots-dense.rules 16x16 build/knots-dense.rules 12x64 \
  build/knots-dense.rules 32x32
echo
# issue 24: peak states a layer, the plain key (each placed tile's class)
# against the seen key (the next cell's candidate set and the classes the
# cells after it can see); Circuit as samples.xml has it (Turnless,
# periodic; 4x4 is already past a minute) and whole, Castle, Rooms, Knots Standard (periodic)
tilesat=build/tilesat
$tilesat import-tileset tests/data/wfc/tilesets/Circuit.xml --subset Turnless \
  -o build/circuit-turnless.rules 2>/dev/null
$tilesat import-tileset tests/data/wfc/tilesets/Rooms.xml -o build/rooms.rules \
  2>/dev/null
$tilesat import-tileset tests/data/wfc/tilesets/Knots.xml --subset Standard \
  -o build/knots-standard.rules 2>/dev/null
echo "peak states, plain vs seen key: $(date -u '+%Y-%m-%d %H:%M'), one core, each at most ${LIMIT}s"
build/bench-count --states "$LIMIT" \
  build/circuit.rules 5x5 build/circuit.rules 6x6 build/circuit-turnless.rules 3x3p \
  build/castle.rules 6x6 build/castle.rules 7x7 \
  build/rooms.rules 6x6 build/rooms.rules 8x8 \
  build/knots-standard.rules 6x6p build/knots-standard.rules 8x8p
echo
echo "count vs sample, dp: $(date -u '+%Y-%m-%d %H:%M'), one core, each run at most ${SAMPLE_LIMIT}s"
build/bench-count --sample "$SAMPLE_LIMIT" \
  rules/coast.rules 24x24 rules/coast.rules 64x64 \
  rules/dungeon8.rules 8x8 rules/dungeon8.rules 10x10 \
  build/knots-dense.rules 8x8 build/knots-dense.rules 10x10 \
  build/knots-dense.rules 16x16 build/knots-dense.rules 12x64 \
  build/circuit.rules 5x5 build/circuit.rules 6x6 \
  build/castle.rules 6x6 build/castle.rules 7x7
