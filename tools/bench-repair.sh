#!/bin/sh
# repair on large maps (issue 16): the fewest pairs to allow, every minimal
# repair (--all, 10), and the fewest pins to drop, on 64x64 maps of two WFC
# tilesets with two clashes far apart (pins two cells apart that no
# filling joins), and hard.rules at 3x3.  Median CPU time (user + system)
# of 3 runs, and the size of the first repair; --all on picosat only.
set -eu
B=$(realpath "${1:-build/tilesat}")
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for t in Castle Circuit; do
  "$B" import-tileset tests/data/wfc/tilesets/$t.xml -o "$T/$t.rules" \
    2>/dev/null
done
# median CPU seconds of 3 runs of the command; its first repair's size in $T/k
cpu3() {
  for i in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$T/t" "$@" >"$T/out" 2>/dev/null || true
    awk '{ printf "%.3f\n", $1 + $2 }' "$T/t"
  done | sort -n | sed -n 2p
  sed -n 's/^# repair: \([0-9]*\) .*/\1/p; s/^# repair 1: \([0-9]*\) .*/\1/p' \
    "$T/out" >"$T/k"
}
row() { # label, then the command
  label=$1
  shift
  c=$(cpu3 "$@")
  n=$(grep -c '^# repair [0-9]*:' "$T/out" || true)
  printf '  %-44s %7ss  first %s, %s listed\n' "$label" "$c" \
    "$(cat "$T/k")" "$([ "$n" -gt 0 ] && echo $n || echo 1)"
}
echo
echo "repair: median CPU of 3 runs (user + system), every repair checked by"
echo "solving the changed map anew:"
row "hard 3x3 picosat" "$B" repair rules/hard.rules --size 3x3
row "hard 3x3 --all picosat" "$B" repair rules/hard.rules --size 3x3 --all
for t in Castle Circuit; do
  for b in picosat cadical; do
    set -- --size 64x64 --backend $b --pin "7,7=bridge 0" --pin \
      "7,9=bridge 1" --pin "50,50=bridge 0" --pin "50,52=bridge 1"
    row "$t 64x64 pairs $b" "$B" repair "$T/$t.rules" "$@"
    [ $b = picosat ] || continue
    row "$t 64x64 pairs --all $b" "$B" repair "$T/$t.rules" "$@" --all
    row "$t 64x64 --keep-rules --all $b" "$B" repair "$T/$t.rules" "$@" \
      --keep-rules --all
  done
done
