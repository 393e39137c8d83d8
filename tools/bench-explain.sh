#!/bin/sh
# explain on large maps: two pins far apart that clash (issue 4: "a 64x64
# coast map with two clashing pins far apart is explained (minimal) in
# seconds").  Prints wall time and the size of the minimal explanation.
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
echo
echo "explain: coast NxN, pins (0,0)=S and (N-1,N-1)=L (they clash: sea in a"
echo "corner forces sea down the diagonal), minimal set checked, each backend:"
for n in 64 128; do
  for b in picosat cryptominisat cadical; do
    s=$(date +%s.%N)
    out=$("$B" explain rules/coast.rules --size ${n}x$n --pin 0,0=S \
      --pin $((n - 1)),$((n - 1))=L --backend $b) || [ $? -eq 20 ]
    e=$(date +%s.%N)
    k=$(printf '%s\n' "$out" | sed -n 's/^These \([0-9]*\) constraints (of \([0-9]*\).*/\1 of \2/p')
    printf '  coast %-9s %-13s %.3fs  (%s constraints)\n' "${n}x$n" $b \
      "$(echo "$e - $s" | bc)" "$k"
  done
done
s=$(date +%s.%N)
"$B" explain rules/hard.rules --size 64x64 > /dev/null || [ $? -eq 20 ]
e=$(date +%s.%N)
printf '  hard  64x64     picosat       %.3fs  (3 constraints)\n' "$(echo "$e - $s" | bc)"

# Every reason, the smallest, a preferred one (issue 16): two clashes far
# apart on coast 64x64; CPU seconds (user + system), median of 3 runs.
echo
echo "explain --all / --smallest / --prefer: coast 64x64, pins 0,0=S 0,1=L and"
echo "40,40=S 40,41=L (two clashes far apart), CPU s, median of 3, each backend:"
t=$(mktemp)
cpu_median() { # command...: the median CPU time of 3 runs
  for i in 1 2 3; do
    /usr/bin/time -f '%U %S' -o "$t" "$@" > /dev/null 2>&1 || true
    tail -n 1 "$t" | awk '{ printf "%.3f\n", $1 + $2 }' # after "exited 20"
  done | sort -n | sed -n 2p
}
pins="--pin 0,0=S --pin 0,1=L --pin 40,40=S --pin 40,41=L"
for mode in "--all" "--all --limit 30" "--smallest" "--prefer pins,rules"; do
  for b in picosat cryptominisat cadical; do
    # shellcheck disable=SC2086
    c=$(cpu_median "$B" explain rules/coast.rules --size 64x64 $pins $mode \
      --backend $b)
    # shellcheck disable=SC2086
    out=$("$B" explain rules/coast.rules --size 64x64 $pins $mode \
      --backend $b 2> /dev/null) || [ $? -eq 20 ]
    sizes=$(printf '%s\n' "$out" | sed -n 's/^These \([0-9]*\) constraints.*/\1/p' |
      tr '\n' ' ')
    printf '  %-18s %-13s %6ss  sizes: %s\n' "$mode" $b "$c" "$sizes"
  done
done
rm -f "$t"
