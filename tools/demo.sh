#!/bin/sh
# The coast example end to end: sample -> rules -> CNF -> check -> enum;
# then WFC runs (collapse) on real tilesets.  Each step asserts what it
# announces: its exit code, and for some a line of its output; the demo
# goes on after a step that does not, names it, and exits 1 at the end.
set -u
B=${1:-build/tilesat}
# where its files go (the tests give it a temporary folder)
D=${DEMO_OUT:-build}
out=$(mktemp "${TMPDIR:-/tmp}/tilesat-demo.XXXXXX")
trap 'rm -f "$out"' EXIT
bad=0
# step EXIT COMMAND...: run it, show it, and check its exit code.
step() {
  want=$1
  shift
  printf '\n$ %s\n' "$*"
  "$@" >"$out" 2>&1
  rc=$?
  cat "$out"
  echo "(exit $rc)"
  if [ "$rc" != "$want" ]; then
    echo "demo: FAILED: exit $rc, not $want: $*" >&2
    bad=$((bad + 1))
  fi
}
# says TEXT: the last step's output holds TEXT.
says() {
  if ! grep -qF -- "$1" "$out"; then
    echo "demo: FAILED: the last step did not say \"$1\"" >&2
    bad=$((bad + 1))
  fi
}

echo "The sample map (rules/coast.txt): land L, coast C, sea S"
cat rules/coast.txt
step 0 "$B" extract rules/coast.txt -o "$D/coast.rules"
cat "$D/coast.rules"
step 0 "$B" encode "$D/coast.rules" --size 2x2 --format props
step 10 "$B" check "$D/coast.rules" --size 12x8 --pin 7,0=S --pin 0,11=L
step 10 "$B" enum "$D/coast.rules" --size 3x3 --pin 2,2=L
says "maps: 5"
echo
echo "How many maps? Exactly, by the frontier DP (GMP integers):"
step 0 "$B" count "$D/coast.rules" --size 24x24
says "1945651872306"
echo
echo "Three maps drawn exactly uniformly (same seed, same maps):"
step 10 "$B" sample "$D/coast.rules" --size 16x6 -n 3 --seed 42 --png "$D/coast-samples.png"
echo
echo "The 'hard' sample KB/SB: only one 2x2 map, and no 3x3 map at all"
step 10 "$B" enum rules/hard.rules --size 2x2
says "maps: 1"
step 20 "$B" check rules/hard.rules --size 3x3 --backend cryptominisat
echo
echo "Why not? A minimal set of clashing constraints, in the rules' own terms:"
step 20 "$B" explain rules/hard.rules --size 3x3 --png "$D/hard-explain.png"
echo
echo "Two pins that each allow 5 maps but clash together, as WFC would see it:"
step 20 "$B" trace "$D/coast.rules" --size 3x3 --pin 0,0=S --pin 2,2=L
echo
echo "Wave Function Collapse as WFC runs it, on mxgmn's Knots tileset and Castle:"
step 0 "$B" import-tileset tests/data/wfc/tilesets/Knots.xml -o "$D/knots.rules"
step 10 "$B" collapse "$D/knots.rules" --size 32x32 --seed 2 --png "$D/knots-collapse.png"
step 0 "$B" import-tileset tests/data/wfc/tilesets/Castle.xml -o "$D/castle.rules"
echo "At which size does WFC start to fail on Castle?"
step 10 "$B" collapse "$D/castle.rules" --sizes 8,16,24 -n 50
echo "A failed run, and why: its point of no return and a minimal doomed set"
step 0 "$B" collapse "$D/castle.rules" --size 16x16 --seed 3 --explain
says "contradiction at (5,14) after 154 choices"
says "doomed set: 4 choices"
echo "The same run, guarded by a SAT solver: it never fails"
step 10 "$B" collapse "$D/castle.rules" --size 16x16 --seed 3 --guard sat --png "$D/castle-collapse.png"
echo "Where 50 runs on Castle 24x24 contradict (a heat map with its scale):"
step 10 "$B" collapse "$D/castle.rules" --size 24x24 -n 50 --png "$D/castle-heat.png"
echo
echo "Pictures written: $D/coast-samples.png (land green, coast sand, sea blue),"
echo "$D/hard-explain.png (the explanation's cells framed in red, the rest faded),"
echo "$D/knots-collapse.png and $D/castle-collapse.png (collapsed maps, drawn"
echo "with the tilesets' images) and $D/castle-heat.png (where runs contradict,"
echo "with its colour scale); marked pictures have their legend below them"
echo
echo "tilesat is $B. To have it on PATH, with its manual (man tilesat,"
echo "man tilesat-check, ...; also $B help check):"
echo "  make install PREFIX=$HOME/.local    # make uninstall PREFIX=$HOME/.local removes it"
if [ $bad -ne 0 ]; then
  echo "demo: $bad step(s) did not do what they announce" >&2
  exit 1
fi
exit 0
