#!/bin/sh
# Guarded collapse at scale (issue 21): the exact guard (--guard sat), the
# block guard (--guard blocks) and auto side by side, CPU time per map.
# Castle without wrap at 128, 256, 512 and 1024 (10, 10, 5 and 3 seeds);
# WFC's Knots (Standard), Circuit (Turnless) and three overlapping samples
# (Rooms, Knot, Village), periodic as samples.xml runs them, at 1024.
# Targets (blocks): Castle 128 median <= 0.5 s, 256 <= 2 s, 512 <= 10 s,
# 1024 <= 60 s, every seed a map; the others 1024 <= 60 s.
# Each cell: median CPU seconds per run (its runs all made a map, else
# "> CAP s" or the maps made), maps/runs, block repairs per map and the
# share of cells they re-solved.  A cell is stopped at CAP CPU seconds a
# run.
#   CAP=90 BACKEND=cadical GUARDS="sat blocks auto" SCALE="128 256 512 1024"
#   QUICK=1: Castle at 64 and 128 only, 3 seeds, CAP=20 (a smoke test)
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
CAP=${CAP:-90}
SCALE=${SCALE:-128 256 512 1024}
OTHERS=${OTHERS:-1}
if [ "${QUICK:-0}" = 1 ]; then
  SCALE="64 128"
  CAP=20
  OTHERS=0
fi
GUARDS=${GUARDS:-sat blocks auto}
BACKEND=${BACKEND:-cadical}
W=build/bench-scale.d
mkdir -p $W
# shellcheck disable=SC2046 # the link flags, one word each
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-collapse.c \
  build/libtilesat.a $(make -s print-libs) -o build/bench-collapse

T=tests/data/wfc/tilesets
S=tests/data/wfc/samples
"$B" import-tileset $T/Castle.xml -o $W/Castle.rules 2>/dev/null
"$B" import-tileset $T/Knots.xml --subset Standard -o $W/Knots.rules 2>/dev/null
"$B" import-tileset $T/Circuit.xml --subset Turnless -o $W/Circuit.rules 2>/dev/null
"$B" extract --pattern 3 --symmetry 8 --periodic-input $S/Rooms.png -o $W/Rooms.rules 2>/dev/null
"$B" extract --pattern 3 --symmetry 8 --periodic-input $S/Knot.png -o $W/Knot.rules 2>/dev/null
"$B" extract --pattern 3 --symmetry 2 --periodic-input $S/Village.png -o $W/Village.rules 2>/dev/null

runs() { case $1 in 512) echo 5 ;; 1024) echo 3 ;; *) echo 10 ;; esac; }

# One cell: MODE RULES SIZE[:periodic] RUNS -> "SHOWN|MAPS/RUNS|REPAIRS|SHARE"
cell() {
  {
    (
      # shellcheck disable=SC3045 # dash and bash have it
      ulimit -t $((CAP * $4)) 2>/dev/null || true
      exec timeout $((3 * CAP * $4)) build/bench-collapse "$1" "$2" "$3" "$4" \
        1000000 4096 "$BACKEND"
    ) >$W/cell.out 2>$W/cell.err || true
  } 2>/dev/null
  cells=$(echo "$3" | sed 's/:.*//; s/x/ /' | awk '{ print $1 * $2 }')
  sort -k2 -g $W/cell.out | awk -v runs="$4" -v cap="$CAP" -v cells="$cells" '
    $1 == "ok" || $1 == "fail" || $1 == "unsat" { n++; t[n] = $2 }
    $1 == "ok" { ok++; rep += $4; res += $5 }
    END {
      shown = n == 0 ? "> " cap " s" : sprintf("%.2f s", t[int((n + 1) / 2)])
      if (ok < runs) shown = shown "*"
      printf "%s|%d/%d|%s|%s\n", shown, ok, runs,
        ok ? sprintf("%.1f", rep / ok) : "-",
        ok ? sprintf("%.1f%%", 100 * res / (ok * cells)) : "-"
    }'
}

echo "guarded collapse at scale: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores," \
  "one used; median CPU time per run; cells stopped at $CAP s; backend $BACKEND"
printf '%-8s %-10s' rules size
for g in $GUARDS; do printf ' | %-28s' "$g: median maps rep re-solved"; done
echo
row() {
  printf '%-8s %-10s' "$1" "$2"
  for g in $GUARDS; do
    c=$(cell "$g" "$W/$1.rules" "$3" "$4")
    printf ' | %-9s %-6s %-5s %-6s' "$(echo "$c" | cut -d'|' -f1)" \
      "$(echo "$c" | cut -d'|' -f2)" "$(echo "$c" | cut -d'|' -f3)" \
      "$(echo "$c" | cut -d'|' -f4)"
  done
  echo
}
for s in $SCALE; do
  row Castle "${s}x$s" "${s}x$s" "$(runs "$s")"
done
if [ "$OTHERS" = 1 ]; then
  for name in Knots Circuit Rooms Knot Village; do
    row "$name" 1024x1024p 1024x1024:periodic 1
  done
fi
echo "*: not every run made a map within the cap (maps/runs); the median is"
echo "of the runs that ended.  rep: block repairs per map; re-solved: cells"
echo "re-solved by them, over the cells of the maps."
