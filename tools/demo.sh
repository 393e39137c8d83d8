#!/bin/sh
# The coast example end to end: sample -> rules -> CNF -> check -> enum;
# then WFC runs (collapse) on real tilesets.
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
step "$B" explain rules/hard.rules --size 3x3 --png build/hard-explain.png
echo
echo "Two pins that each allow 5 maps but clash together, as WFC would see it:"
step "$B" trace build/coast.rules --size 3x3 --pin 0,0=S --pin 2,2=L
echo
echo "Wave Function Collapse as WFC runs it, on mxgmn's Knots tileset and Castle:"
step "$B" import-tileset tests/data/wfc/tilesets/Knots.xml -o build/knots.rules
step "$B" collapse build/knots.rules --size 32x32 --seed 2 --png build/knots-collapse.png
step "$B" import-tileset tests/data/wfc/tilesets/Castle.xml -o build/castle.rules
echo "At which size does WFC start to fail on Castle?"
step "$B" collapse build/castle.rules --sizes 8,16,24 -n 50
echo "A failed run, and why: its point of no return and a minimal doomed set"
step "$B" collapse build/castle.rules --size 16x16 --seed 3 --explain --png build/castle-explain.png
echo "The same run, guarded by a SAT solver: it never fails"
step "$B" collapse build/castle.rules --size 16x16 --seed 3 --guard sat --png build/castle-collapse.png
echo
echo "Where 50 runs on Castle 24x24 contradict (a heat map with its scale):"
step "$B" collapse build/castle.rules --size 24x24 -n 50 --png build/castle-heat.png
echo
echo "Pictures written: build/coast-samples.png (land green, coast sand, sea blue),"
echo "build/hard-explain.png (the explanation's cells framed in red, the rest faded),"
echo "build/knots-collapse.png and build/castle-collapse.png (collapsed maps, drawn"
echo "with the tilesets' images), build/castle-explain.png (the failed run: doomed"
echo "choices and the contradiction framed) and build/castle-heat.png; each marked"
echo "picture has its legend below it"
exit 0
