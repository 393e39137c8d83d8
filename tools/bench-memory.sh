#!/bin/sh
# Memory of check (issue 12).  First the estimate a refusal quotes (a run
# with --max-memory 1K) against the real peak RSS (/usr/bin/time) of the
# whole solve (sizes below the 1 GiB where strips begin), on every backend:
# the ratio must stay above 1.  Then peak
# RSS and CPU time of check on large maps with the defaults (strips above
# 1 GiB).  One run at a time: the large ones take gigabytes.
#   tools/bench-memory.sh [BIN] [quick]   (quick: the estimate table only)
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B" import-tileset tests/data/wfc/tilesets/Circuit.xml -o "$T/Circuit.rules" \
  2> /dev/null

# run RULES SIZE [OPTIONS...]: sets rss (MiB), cpu (s), code
run() {
  r=$1 s=$2
  shift 2
  code=0
  /usr/bin/time -f '%M %U %S' -o "$T/time" "$B" check "$r" --size "$s" "$@" \
    > /dev/null 2> "$T/err" || code=$?
  set -- $(tail -n 1 "$T/time")
  rss=$(echo "$1 / 1024" | bc)
  cpu=$(echo "$2 + $3" | bc)
}

# estimate RULES SIZE BACKEND: sets est (MiB), from the refusal
estimate() {
  "$B" check "$1" --size "$2" --backend "$3" --max-memory 1K 2> "$T/err" \
    > /dev/null || true
  est=$(sed -n 's/.*needs about \([0-9.]*\) \([MG]\)iB.*/\1 \2/p' "$T/err" |
    awk '{ printf "%.0f\n", $2 == "G" ? $1 * 1024 : $1 }')
}

echo
echo "estimate / peak RSS of a whole check (MiB), each backend:"
for c in rules/coast.rules:300x300 rules/coast.rules:600x600 \
  rules/patchwork16.rules:150x150 "$T/Circuit.rules:64x64" \
  "$T/Circuit.rules:100x100"; do
  r=${c%:*} s=${c##*:}
  for b in picosat cryptominisat cadical; do
    estimate "$r" "$s" "$b"
    run "$r" "$s" --backend "$b"
    printf '  %-12s %-8s %-13s estimate %6s  peak %6s  ratio %s\n' \
      "$(basename "$r" .rules)" "$s" "$b" "$est" "$rss" \
      "$(echo "scale=2; $est / $rss" | bc)"
  done
done
[ "${2:-}" = quick ] && exit 0

echo
echo "check with the defaults (PicoSAT; strips above 1 GiB): peak RSS, CPU"
for c in rules/coast.rules:1000x1000 rules/coast.rules:2000x2000 \
  "$T/Circuit.rules:256x256" "$T/Circuit.rules:1000x1000"; do
  r=${c%:*} s=${c##*:}
  run "$r" "$s"
  printf '  %-8s %-10s peak %6s MiB  CPU %7ss  exit %s\n' \
    "$(basename "$r" .rules)" "$s" "$rss" "$cpu" "$code"
done
