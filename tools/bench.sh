#!/bin/sh
# Encode size and check time, both backends side by side, phase by phase.
# Target (issue 2): coast 300x300 checked, witness verified, under 1 s.
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
mkdir -p build
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 tools/bench.c build/libtilesat.a \
  $(make -s print-libs) -o build/bench
# rules/patchwork16.rules: 16 tiles, the coast sample with each of L, C, S
# split into 4, 4 and 8 variants (rules/patchwork16.txt).
echo "tilesat bench: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores, one used"
build/bench rules/coast.rules 100x100 rules/coast.rules 300x300 \
  rules/patchwork16.rules 100x100 rules/patchwork16.rules 200x200
echo
echo "end to end through the CLI (parse, encode, solve, verify, print):"
for b in picosat cryptominisat; do
  s=$(date +%s.%N)
  "$B" check rules/coast.rules --size 300x300 --backend $b > /dev/null || [ $? -eq 10 ]
  e=$(date +%s.%N)
  printf '  coast 300x300 %-13s %.3fs\n' $b "$(echo "$e - $s" | bc)"
done
