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
