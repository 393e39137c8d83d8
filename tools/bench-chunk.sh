#!/bin/sh
# analyze --chunk K (issue 16, "chunks that never fail"): for the text rule
# sets and the four shared WFC tilesets, at K = 3..8, the answer (complete,
# or a border with no filling), how many fillings refuted borders on the
# way, and the CPU time (median of 3 runs when a run takes under 2 s, else
# one run).  A run is stopped after LIMIT seconds of wall time (default 60,
# the first argument after the binary): "no answer".
set -eu
B=${1:-build/tilesat}
LIMIT=${2:-60}
KS=${KS:-3 4 5 6 7 8}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in Knots Circuit Castle Rooms; do
  "$B" import-tileset tests/data/wfc/tilesets/$t.xml -o "$tmp/$t.rules" \
    2>/dev/null
done

# CPU seconds (user + system) of one run into $tmp/cpu; its first line of
# output into $tmp/line; 0, or 1 when it was stopped.
run() {
  if /usr/bin/time -f '%U %S' -o "$tmp/time" timeout "$LIMIT" \
    "$B" analyze "$1" --chunk "$2" > "$tmp/out" 2>/dev/null; then
    awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/time" | tail -1 > "$tmp/cpu"
    head -1 "$tmp/out" > "$tmp/line"
    return 0
  fi
  return 1
}

echo
echo "analyze --chunk K: every valid border of a KxK chunk has a filling?"
echo "(CPU seconds, median of 3 under 2 s; refutations: fillings found)"
printf '  %-12s %2s  %-9s %12s %9s\n' rules K answer refutations cpu
for f in rules/coast.rules rules/hard.rules rules/dungeon8.rules \
  rules/entropy7.rules rules/patchwork16.rules "$tmp/Knots.rules" \
  "$tmp/Circuit.rules" "$tmp/Castle.rules" "$tmp/Rooms.rules"; do
  name=$(basename "$f" .rules)
  for k in $KS; do
    if ! run "$f" "$k"; then
      printf '  %-12s %2d  %-9s %12s %9s\n' "$name" "$k" "no answer" "-" \
        ">${LIMIT}s"
      continue
    fi
    cpu=$(cat "$tmp/cpu")
    if [ "$(echo "$cpu < 2" | bc)" = 1 ]; then
      run "$f" "$k" && cat "$tmp/cpu" >> "$tmp/cpus"
      run "$f" "$k" && cat "$tmp/cpu" >> "$tmp/cpus"
      echo "$cpu" >> "$tmp/cpus"
      cpu=$(sort -n "$tmp/cpus" | sed -n 2p)
      rm -f "$tmp/cpus"
    fi
    line=$(cat "$tmp/line")
    case $line in
    complete*) answer=complete ;;
    *) answer="not" ;;
    esac
    n=$(printf '%s\n' "$line" | sed 's/.*(\([0-9]*\) refutation.*/\1/')
    printf '  %-12s %2d  %-9s %12s %8ss\n' "$name" "$k" "$answer" "$n" "$cpu"
  done
done
