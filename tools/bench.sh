#!/bin/sh
# Encode size and check time, every backend side by side, phase by phase,
# on a hand-made rule set (coast, 3 tiles), a WFC simple-tiled tileset
# (Knots, 14 tiles) and a WFC overlapping model (SimpleMaze, 3x3 patterns,
# 17 tiles), at 32x32, 100x100 and 300x300.  The figures behind
# `--backend auto` (README, "Backends").  One run takes a few minutes.
# Target (issue 2): coast 300x300 checked, witness verified, under 1 s.
set -eu
B=${1:-build/tilesat}
LIMIT=${LIMIT:-20} # seconds a solve may take before it is stopped
cd "$(dirname "$0")/.."
mkdir -p build
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench.c build/libtilesat.a \
  $(make -s print-libs) -o build/bench
"$B" import-tileset tests/data/wfc/tilesets/Knots.xml -o build/bench-knots.rules \
  2>/dev/null
"$B" extract --pattern 3 --symmetry 1 --periodic-input tests/data/wfc/samples/SimpleMaze.png \
  -o build/bench-maze.rules 2>/dev/null
echo "tilesat bench: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores, one used;" \
  "solves stopped after ${LIMIT} s"
cases=""
for r in rules/coast.rules build/bench-knots.rules build/bench-maze.rules; do
  for s in 32x32 100x100 300x300; do
    cases="$cases $r $s"
  done
done
# shellcheck disable=SC2086
build/bench "$LIMIT" $cases rules/coast.rules 300x300:periodic \
  rules/patchwork16.rules 200x200
if command -v cadical >/dev/null; then
  echo
  echo "the cadical binary on the same CNF (maze 300x300):"
  "$B" encode build/bench-maze.rules --size 300x300 -o build/bench-maze.cnf
  s=$(date +%s.%N)
  cadical -q build/bench-maze.cnf >/dev/null || true
  e=$(date +%s.%N)
  printf '  cadical %.3fs\n' "$(echo "$e - $s" | bc)"
fi
echo
echo "end to end through the CLI (parse, encode, solve, verify, print):"
for b in picosat cryptominisat cadical auto; do
  s=$(date +%s.%N)
  "$B" check rules/coast.rules --size 300x300 --backend $b > /dev/null || [ $? -eq 10 ]
  e=$(date +%s.%N)
  printf '  coast 300x300 %-13s %.3fs\n' $b "$(echo "$e - $s" | bc)"
done
