#!/bin/sh
# The coast example end to end: sample -> rules -> CNF -> check -> enum.
set -u
B=${1:-build/tilesat}
step() { printf '\n$ %s\n' "$*"; "$@"; echo "(exit $?)"; }

echo "The sample map (rules/coast.txt): land L, coast C, sea S"
cat rules/coast.txt
step "$B" extract rules/coast.txt -o build/coast.rules
cat build/coast.rules
step "$B" encode build/coast.rules --size 2x2 --format props
step "$B" check build/coast.rules --size 12x8 --pin 7,0=S --pin 0,11=L
step "$B" enum build/coast.rules --size 3x3 --pin 2,2=L
echo
echo "How many maps? Exactly, by the frontier DP (GMP integers):"
step "$B" count build/coast.rules --size 24x24
echo
echo "Three maps drawn exactly uniformly (same seed, same maps):"
step "$B" sample build/coast.rules --size 16x6 -n 3 --seed 42 --png build/coast-samples.png
echo
echo "The 'hard' sample KB/SB: only one 2x2 map, and no 3x3 map at all"
step "$B" enum rules/hard.rules --size 2x2
step "$B" check rules/hard.rules --size 3x3 --backend cryptominisat
echo
echo "Why not? A minimal set of clashing constraints, in the rules' own terms:"
step "$B" explain rules/hard.rules --size 3x3
echo
echo "Two pins that each allow 5 maps but clash together, as WFC would see it:"
step "$B" trace build/coast.rules --size 3x3 --pin 0,0=S --pin 2,2=L
echo
echo "Pictures written: build/coast-samples.png"
exit 0
