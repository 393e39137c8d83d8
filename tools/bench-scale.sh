#!/bin/sh
# check at scale (issue 21): `check --method cnf` (the whole map's CNF, as
# check always was), `check` (--method auto: windows around the pins, a
# guarded collapse, then the CNF) and the guarded collapse alone
# (`collapse --guard sat`) side by side, a line per case: CPU time (user +
# system, one run) and peak RSS, from /usr/bin/time.  Each run is stopped
# at CAP CPU seconds ("> CAP s") and at --max-memory MAXMEM.  The tilesets
# with mxgmn's samples.xml settings: Castle (no wrap), Circuit "Turnless"
# and Knots "Standard" (periodic), Rooms (no wrap).  Targets: check at
# 512x512 within 2x the guarded collapse; Knots and Circuit 2048x2048
# within 60 s and 4 GB; coast 1024x1024 with clashing pins UNSAT in 5 s,
# naming the window.
#   CAP=300 MAXMEM=4G; CASES="..." to run some only (names below)
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
CAP=${CAP:-300}
MAXMEM=${MAXMEM:-4G}
T=tests/data/wfc/tilesets
W=build/bench-scale.d
mkdir -p $W
"$B" import-tileset $T/Castle.xml -o $W/castle.rules 2>/dev/null
"$B" import-tileset $T/Circuit.xml --subset Turnless -o $W/circuit.rules \
  2>/dev/null
"$B" import-tileset $T/Knots.xml --subset Standard -o $W/knots.rules \
  2>/dev/null
"$B" import-tileset $T/Rooms.xml -o $W/rooms.rules 2>/dev/null

# One run: "CPU PEAK ANSWER" (ANSWER: SAT, UNSAT, > CAP s, or error).
run() {
  rc=0
  {
    (
      # shellcheck disable=SC3045 # dash and bash have it
      ulimit -t "$CAP" 2>/dev/null || true
      exec /usr/bin/time -f '%U %S %M' -o $W/time "$@" --max-memory "$MAXMEM"
    ) >$W/out 2>$W/err || rc=$?
  } 2>/dev/null
  cpu=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.2f s", $1 + $2 }')
  mem=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.0f MB", $3 / 1024 }')
  case $rc in
  10) ans=SAT ;;
  20) ans=UNSAT ;;
  137 | 152) ans="> $CAP s" cpu="-" mem="-" ;;
  *) ans="error: $(grep -v '%\|([0-9]* s)$' $W/err | head -n 1)" ;;
  esac
  need=$(sed -n 's/.*needs about \([0-9.]* [GM]iB\).*/\1/p' $W/err | head -n 1)
  if [ "$rc" = 1 ] && [ -n "$need" ]; then # refused by --max-memory
    cpu="refused:" mem="needs $need" ans=refused
  fi
  echo "$cpu|$mem|$ans"
}

# The line of stderr that names a window, if any.
named() { grep 'UNSAT: ' $W/err | sed 's/^tilesat: check: UNSAT: //' || true; }

f() { echo "$1" | cut -d'|' -f"$2"; }

echo "bench-scale: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores; CPU time" \
  "and peak RSS of one run; cap $CAP s, --max-memory $MAXMEM"
printf '%-30s | %-23s | %-20s | %-20s | %s\n' case "check --method cnf" \
  "check (auto)" "collapse --guard sat" "auto's answer"
# NAME RULES SIZE FLAGS (FLAGS: - for none; pins as --pin=R,C=T)
ALL="castle-512 castle 512x512 -
circuit-512 circuit 512x512 --periodic
knots-512 knots 512x512 --periodic
rooms-512 rooms 512x512 -
knots-2048 knots 2048x2048 --periodic
circuit-2048 circuit 2048x2048 --periodic
coast-1024-clash coast 1024x1024 --pin=0,0=S,--pin=1,1=L
coast-1024-far coast 1024x1024 --pin=600,300=S,--pin=601,301=L
coast-1024-column coast 1024x1024 --pin=0,0=S,--pin=1023,0=L"
echo "$ALL" | while read -r name rules size flags; do
  if [ -n "${CASES:-}" ] && ! echo " $CASES " | grep -q " $name "; then
    continue
  fi
  r=$W/$rules.rules
  [ "$rules" = coast ] && r=rules/coast.rules
  # shellcheck disable=SC2086 # flags: words, commas between them
  set -- $(echo "$flags" | sed 's/^-$//; s/,--/ --/g; s/--pin=/--pin /g')
  cnf=$(run "$B" check "$r" --size "$size" "$@" --method cnf)
  auto=$(run "$B" check "$r" --size "$size" "$@")
  why=$(named)
  if [ "$rules" = coast ]; then
    guard="-|-|-" # the collapse's guard has no pin windows: not the point
  else
    guard=$(run "$B" collapse "$r" --size "$size" "$@" --guard sat)
  fi
  printf '%-30s | %-23s | %-20s | %-20s | %s\n' "$name ($size)" \
    "$(f "$cnf" 1) $(f "$cnf" 2)" "$(f "$auto" 1) $(f "$auto" 2)" \
    "$(f "$guard" 1) $(f "$guard" 2)" "$(f "$auto" 3)${why:+: $why}"
  for x in "$cnf" "$guard"; do
    a=$(f "$x" 3)
    case $a in SAT | UNSAT | "> "* | - | refused) ;; *) echo "  $a" ;; esac
  done
done
