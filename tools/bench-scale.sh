#!/bin/sh
# Guarded collapse at scale (issues 21 and 32): the exact guard (--guard
# sat), the block guard (--guard blocks), auto and modifying in blocks
# (--guard modify) side by side, CPU time per map.
# Castle without wrap at 128, 256, 512 and 1024 (10, 10, 5 and 3 seeds);
# WFC's Knots (Standard), Circuit (Turnless) and three overlapping samples
# (Rooms, Knot, Village), periodic as samples.xml runs them, at 1024.
# Targets (blocks): Castle 128 median <= 0.5 s, 256 <= 2 s, 512 <= 10 s,
# 1024 <= 60 s, every seed a map; the others 1024 <= 60 s.
# Each cell: median CPU seconds per run (its runs all made a map, else
# "> CAP s" or the maps made), maps/runs, block repairs per map and the
# share of cells they re-solved.  A cell is stopped at CAP CPU seconds a
# run.
#   CAP=90 BACKEND=cadical GUARDS="sat blocks auto modify"
#   SCALE="128 256 512 1024"
#   QUICK=1: Castle at 64 and 128 only, 3 seeds, CAP=20 (a smoke test);
#   SCALE=- OTHERS=0: no Castle rows, no other rows
# Then side by side (SIDE=1024, the sizes; SIDE=-: none): the six rule
# sets, the npm peer `wavefunctioncollapse` (if node and npm are there),
# plain collapse, `collapse --guard auto`, `check --method cnf` and `check`.
# Then check at scale: `check --method cnf` (the whole map's CNF, as check
# always was), `check` (--method auto: windows around the pins, a collapse
# guarded by auto, then the CNF) and `collapse --guard auto` side by side,
# a line per case: CPU time (user + system, one run) and peak RSS from
# /usr/bin/time, each run stopped at CHECK_CAP CPU seconds and at
# --max-memory MAXMEM.  The tilesets (Castle no wrap, Circuit "Turnless"
# and Knots "Standard" periodic, Rooms the tileset, no wrap).  Targets:
# check at 512x512 within 2x the guarded collapse; Knots and Circuit
# 2048x2048 within 60 s and 4 GB; coast 1024x1024 with clashing pins
# UNSAT in 5 s, naming the window.
#   CHECK_CAP=300 MAXMEM=4G CHECKS="castle-512 ..." (names below; none:
#   CHECKS=-); QUICK=1: the coast cases only
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
GUARDS=${GUARDS:-sat blocks auto modify}
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

# Seeds a cell: 10, but 5 at 512 and 3 past it; modify 10 at every size
# (the issue-32 target: Castle 1024x1024, 10/10 seeds, each <= 10 s and
# 500 MB).  The exact guard past 512: not run (the whole map's proof).
runs() {
  case $2 in
  modify) echo 10 ;;
  *) case $1 in 128 | 256) echo 10 ;; 512) echo 5 ;; *) echo 3 ;; esac ;;
  esac
}

# One cell: MODE RULES SIZE[:periodic] RUNS ->
# "SHOWN|MAPS/RUNS|REPAIRS|SHARE|LARGEST|PEAK"
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
    $1 == "peak" { peak = $2 }
    END {
      shown = n == 0 ? "> " cap " s" : sprintf("%.2f s", t[int((n + 1) / 2)])
      if (ok < runs) shown = shown "*"
      printf "%s|%d/%d|%s|%s|%s|%s\n", shown, ok, runs,
        ok ? sprintf("%.1f", rep / ok) : "-",
        ok ? sprintf("%.1f%%", 100 * res / (ok * cells)) : "-",
        n ? sprintf("%.2f s", t[n]) : "-",
        peak ? sprintf("%.0f MB", peak / 1024) : "-"
    }'
}

echo "guarded collapse at scale: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores," \
  "one used; median CPU time per run; cells stopped at $CAP s; backend $BACKEND"
printf '%-8s %-10s' rules size
for g in $GUARDS; do printf ' | %-48s' "$g: median (largest) maps rep re-solved peak"; done
echo
# One row: NAME LABEL SIZE[:periodic] SIDE (SIDE: runs() by guard; 1: one
# run a guard).  A guard's cell: median CPU (largest), maps/runs, block
# repairs a map, cells re-solved, peak RSS of the process (every run).
row() {
  printf '%-8s %-10s' "$1" "$2"
  for g in $GUARDS; do
    if [ "$g" = sat ] && [ "$4" != 1 ] && [ "$4" -gt 512 ]; then
      printf ' | %-48s' "not run (the whole map's proof)"
      continue
    fi
    n=1
    [ "$4" != 1 ] && n=$(runs "$4" "$g")
    c=$(cell "$g" "$W/$1.rules" "$3" "$n")
    printf ' | %-9s (%-7s) %-6s %-5s %-6s %-7s' "$(echo "$c" | cut -d'|' -f1)" \
      "$(echo "$c" | cut -d'|' -f5)" "$(echo "$c" | cut -d'|' -f2)" \
      "$(echo "$c" | cut -d'|' -f3)" "$(echo "$c" | cut -d'|' -f4)" \
      "$(echo "$c" | cut -d'|' -f6)"
  done
  echo
}
[ "$SCALE" = - ] && SCALE=""
for s in $SCALE; do
  row Castle "${s}x$s" "${s}x$s" "$s"
done
if [ "$OTHERS" = 1 ]; then
  for name in Knots Circuit Rooms Knot Village; do
    row "$name" 1024x1024p 1024x1024:periodic 1
  done
fi
echo "*: not every run made a map within the cap (maps/runs); the median is"
echo "of the runs that ended.  rep: block repairs per map; re-solved: cells"
echo "re-solved by them, over the cells of the maps."

# ------------------------------------------------------- check at scale
CHECK_CAP=${CHECK_CAP:-300}
MAXMEM=${MAXMEM:-4G}
[ "${QUICK:-0}" = 1 ] && CHECKS=${CHECKS:-coast-1024-clash coast-1024-far}
"$B" import-tileset $T/Rooms.xml -o $W/RoomsTiles.rules 2>/dev/null

# One run: "CPU|PEAK|ANSWER" (ANSWER: SAT, UNSAT, > CAP s, refused, error).
run() {
  rc=0
  {
    (
      # shellcheck disable=SC3045 # dash and bash have it
      ulimit -t "$CHECK_CAP" 2>/dev/null || true
      exec /usr/bin/time -f '%U %S %M' -o $W/time "$@" --max-memory "$MAXMEM"
    ) >$W/out 2>$W/err || rc=$?
  } 2>/dev/null
  cpu=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.2f s", $1 + $2 }')
  mem=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.0f MB", $3 / 1024 }')
  case $rc in
  10) ans=SAT ;;
  20) ans=UNSAT ;;
  137 | 152) ans="> $CHECK_CAP s" cpu="-" mem="-" ;;
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

# ------------------------------------------------------- side by side
# The six rule sets at SIDE (default 1024; SIDE=-: none), one line each:
# the npm peer `wavefunctioncollapse` (as tools/bench-collapse.sh runs it,
# when node and npm are there; PEER=0: not), plain collapse (WFC: fails
# are contradictions), `collapse --guard auto`, each SIDE_RUNS seeds
# (default 3) capped at CAP CPU seconds a run; then one run each of
# `check --method cnf` and `check` (auto), capped at CHECK_CAP and MAXMEM.
SIDE=${SIDE:-1024}
SIDE_RUNS=${SIDE_RUNS:-3}
[ "${QUICK:-0}" = 1 ] && SIDE=${SIDE_QUICK:-64}
PEER_DIR=""
PEER_NOTE="peer: not available (no node/npm)"
if [ "$SIDE" = - ]; then
  :
elif [ "${PEER:-1}" = 0 ]; then
  PEER_NOTE="peer: not available (PEER=0)"
elif command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 1' INT TERM
  if npm install --prefix "$tmp" --no-save --no-package-lock --no-audit \
    --no-fund --silent wavefunctioncollapse@2.1.0 >/dev/null 2>&1; then
    PEER_DIR=$tmp/node_modules
    PEER_NOTE="peer: wavefunctioncollapse 2.1.0 (npm) on node $(node --version)"
  else
    PEER_NOTE="peer: not available (npm install wavefunctioncollapse failed)"
  fi
fi

# Runs of a command printing "ok|fail|unsat SECONDS ..." lines, capped at
# CAP CPU seconds a run: "MEDIAN s per map (fails/runs)".
runs_of() {
  n=$1
  shift
  {
    (
      # shellcheck disable=SC3045 # dash and bash have it
      ulimit -t $((CAP * n)) 2>/dev/null || true
      exec timeout $((3 * CAP * n)) "$@"
    ) >$W/side.out 2>$W/side.err || true
  } 2>/dev/null
  sort -k2 -g $W/side.out | awk -v runs="$n" -v cap="$CAP" '
    $1 == "ok" { ok++; t[ok] = $2 }
    $1 == "fail" || $1 == "unsat" { bad++ }
    END {
      done = ok + bad
      shown = ok ? sprintf("%.2f s", t[int((ok + 1) / 2)]) \
        : done ? "no map" : "> " cap " s"
      printf "%s (%d/%d fail)\n", shown, runs - ok, runs
    }'
}

# one "CPU MEM ANSWER" of a check run
brief() { echo "$(f "$1" 1) $(f "$1" 2) $(f "$1" 3)"; }

if [ "$SIDE" != - ]; then
  echo
  echo "side by side: median CPU time per map over $SIDE_RUNS seeds" \
    "(capped at $CAP s a run; fail: no map), check one run (CPU, peak RSS," \
    "answer; cap $CHECK_CAP s, --max-memory $MAXMEM); $PEER_NOTE"
  printf '%-8s %-11s | %-20s | %-20s | %-20s | %-26s | %s\n' rules size peer \
    "collapse (plain)" "collapse --guard auto" "check --method cnf" "check"
  # NAME KIND SOURCE A B PERIODIC (tileset: SUBSET|-; overlapping: N SYMMETRY)
  SIDES="Castle simple $T/Castle.xml - - 0
Knots simple $T/Knots.xml Standard - 1
Circuit simple $T/Circuit.xml Turnless - 1
Rooms overlapping $S/Rooms.png 3 8 1
Knot overlapping $S/Knot.png 3 8 1
Village overlapping $S/Village.png 3 2 1"
  for s in $SIDE; do
    echo "$SIDES" | while read -r name kind src a b per; do
      size=${s}x$s
      map=$size
      pflag=
      if [ "$per" = 1 ]; then
        map=$size:periodic
        pflag=--periodic
      fi
      if [ -z "$PEER_DIR" ]; then
        peer=n/a
      elif [ "$kind" = simple ]; then
        peer=$(runs_of "$SIDE_RUNS" node tools/bench-collapse-peer.js \
          "$PEER_DIR" simple "$src" "$a" "$size" "$per" "$SIDE_RUNS" 1000000)
      else
        peer=$(runs_of "$SIDE_RUNS" node tools/bench-collapse-peer.js \
          "$PEER_DIR" overlapping "$src" "$a" "$b" "$size" "$per" \
          "$SIDE_RUNS" 1000000)
      fi
      plain=$(runs_of "$SIDE_RUNS" build/bench-collapse plain $W/$name.rules \
        "$map" "$SIDE_RUNS" 1000000 4096 "$BACKEND")
      guard=$(runs_of "$SIDE_RUNS" build/bench-collapse auto $W/$name.rules \
        "$map" "$SIDE_RUNS" 1000000 4096 "$BACKEND")
      # shellcheck disable=SC2086 # pflag: none or one word
      cnf=$(run "$B" check $W/$name.rules --size "$size" $pflag --method cnf)
      # shellcheck disable=SC2086
      auto=$(run "$B" check $W/$name.rules --size "$size" $pflag)
      printf '%-8s %-11s | %-20s | %-20s | %-20s | %-26s | %s\n' "$name" \
        "$size$([ "$per" = 1 ] && echo p)" "$peer" "$plain" "$guard" \
        "$(brief "$cnf")" "$(brief "$auto")"
    done
  done
fi

# ------------------------------------------------------- endless worlds
# tilesat world (issue 32): Castle, Knots and Circuit chunks of WORLD_CHUNK
# (default 64) at WORLD_PLACES (default 100) places drawn at random (a
# fixed draw) up to 10^12 chunks apart, one process a chunk: median and
# largest CPU time (user + system, the process, the rules and the pattern
# included) and the largest peak RSS, from /usr/bin/time.  Then the same
# places asked again in another order (the reversed list, every second
# place first): the chunks whose bytes are the same; then each place's
# east and south neighbours, asked on their own, glued to it as text and
# checked by `tilesat verify`: the seams that keep the rules.  Targets:
# median <= 0.2 s, every seam valid, the same bytes.  WORLD=0: none.
WORLD_CHUNK=${WORLD_CHUNK:-64}
WORLD_PLACES=${WORLD_PLACES:-100}
[ "${QUICK:-0}" = 1 ] && WORLD_PLACES=${WORLD_PLACES_QUICK:-5}
if [ "${WORLD:-1}" = 1 ]; then
  echo
  echo "tilesat world: ${WORLD_CHUNK}x$WORLD_CHUNK chunks at $WORLD_PLACES" \
    "places up to 10^12 chunks apart, one process each (CPU time and peak RSS)"
  printf '%-8s | %-9s | %-9s | %-8s | %-11s | %-15s | %s\n' rules median \
    largest "peak RSS" "chunks made" "same bytes" "seams valid"
  D=$W/world
  mkdir -p $D
  awk -v n="$WORLD_PLACES" 'BEGIN {
    srand(32)
    for (i = 1; i <= n; i++)
      printf "%d %.0f,%.0f\n", i, int(rand() * 1e12) - 5e11, int(rand() * 1e12) - 5e11
  }' >$D/places
  # NAME AT OUT: one chunk, its CPU time and RSS appended to $D/times
  chunk() {
    rc=0
    {
      /usr/bin/time -f '%U %S %M' -o $D/time "$B" world $W/$1.rules \
        --chunk "$WORLD_CHUNK" --at "$2" >"$3" 2>$D/err || rc=$?
    } 2>/dev/null
    [ "$rc" = 10 ] && tail -n 1 $D/time >>$D/times
    return 0
  }
  for name in Castle Knots Circuit; do
    : >$D/times
    while read -r i at; do chunk "$name" "$at" "$D/a.$i"; done <$D/places
    made=$(wc -l <$D/times)
    stats=$(awk 'NF == 3 { print $1 + $2, $3 }' $D/times | sort -g |
      awk '{ n++; t[n] = $1; if ($2 > mem) mem = $2 }
        END {
          printf "%s|%s|%s", n ? sprintf("%.2f s", t[int((n + 1) / 2)]) : "-",
            n ? sprintf("%.2f s", t[n]) : "-", n ? sprintf("%.0f MB", mem / 1024) : "-"
        }')
    # another order: the reversed list, the even places first
    sort -k1,1nr $D/places | awk '$1 % 2 == 0' >$D/order
    sort -k1,1nr $D/places | awk '$1 % 2 == 1' >>$D/order
    same=0
    while read -r i at; do
      chunk "$name" "$at" "$D/b"
      cmp -s "$D/a.$i" "$D/b" && same=$((same + 1))
    done <$D/order
    seams=0
    while read -r i at; do
      r=${at%,*} c=${at#*,}
      chunk "$name" "$r,$((c + 1))" "$D/e"
      chunk "$name" "$((r + 1)),$c" "$D/s"
      tail -n +3 "$D/a.$i" >$D/a.rows
      tail -n +3 "$D/e" >$D/e.rows
      { echo "tilesat-grid names"; paste -d' ' $D/a.rows $D/e.rows; } >$D/ae
      { echo "tilesat-grid names"; cat $D/a.rows; tail -n +3 "$D/s"; } >$D/as
      for g in ae as; do
        rc=0
        "$B" verify $W/$name.rules $D/$g >/dev/null 2>&1 || rc=$?
        [ "$rc" = 10 ] && seams=$((seams + 1)) # VALID
      done
    done <$D/places
    printf '%-8s | %-9s | %-9s | %-8s | %-11s | %-15s | %s\n' "$name" \
      "$(echo "$stats" | cut -d'|' -f1)" "$(echo "$stats" | cut -d'|' -f2)" \
      "$(echo "$stats" | cut -d'|' -f3)" "$made/$WORLD_PLACES" \
      "$same/$WORLD_PLACES" "$seams/$((2 * WORLD_PLACES))"
  done
  echo "targets: median <= 0.2 s a chunk, every seam valid, the same bytes in" \
    "both orders"
fi

# ------------------------------------------------------- samples.xml
# Every simple-tiled entry of samples.xml at SAMPLES x SAMPLES (issue 32:
# a map each, <= 60 s): one case per tileset, subset and periodic flag
# (the entry's size, heuristic and other settings do not matter here),
# `collapse --guard modify --seed 1`, periodic as the entry says, one run
# each stopped at SAMPLES_CAP CPU seconds: CPU time (user + system) and
# peak RSS from /usr/bin/time, the blocks made again by WFC and by SAT and
# the blocks kept (stderr's guard line), the map checked by `tilesat
# verify`.  SAMPLES_REF: a checkout of mxgmn/WaveFunctionCollapse (its
# samples.xml and tilesets/, 23 simple-tiled entries, 19 cases; not
# fetched here); default tests/data/wfc (12 entries, its Knots and Rooms).
#   SAMPLES=2048 SAMPLES_CAP=300; SAMPLES=-: none; QUICK=1: none
[ "${QUICK:-0}" = 1 ] && SAMPLES=${SAMPLES:--}
SAMPLES=${SAMPLES:-2048}
SAMPLES_REF=${SAMPLES_REF:-tests/data/wfc}
SAMPLES_CAP=${SAMPLES_CAP:-300}
if [ "$SAMPLES" != - ]; then
  echo
  echo "samples.xml's simple-tiled entries ($SAMPLES_REF) at" \
    "${SAMPLES}x$SAMPLES: collapse --guard modify --seed 1, one run each" \
    "(CPU time, peak RSS; cap $SAMPLES_CAP s); blocks by WFC / SAT / kept"
  printf '%-36s | %-9s | %-8s | %-21s | %-14s | %s\n' "entry (tileset, subset)" \
    CPU "peak RSS" "blocks WFC/SAT/kept" map target
  # a line a case, NAME|SUBSET|PERIODIC (periodic="True" or not), as its
  # first entry has them
  awk 'function a(s, k) {
         if (!match(s, "[ \t]" k "=\"[^\"]*\"")) return ""
         return substr(s, RSTART + length(k) + 3, RLENGTH - length(k) - 4)
       }
       /<simpletiled[ \t]/ {
         c = a($0, "name") "|" a($0, "subset") "|" \
           (a($0, "periodic") == "True" ? "True" : "False")
         if (!seen[c]++) print c
       }' "$SAMPLES_REF/samples.xml" >$W/samples.list
  i=0
  while IFS='|' read -r name subset per; do
    i=$((i + 1))
    r=$W/sample$i.rules
    shown=$name${subset:+ ($subset)}
    pflag=
    [ "$per" = True ] && pflag=--periodic && shown="$shown, periodic"
    if ! "$B" import-tileset "$SAMPLES_REF/tilesets/$name.xml" \
      ${subset:+--subset "$subset"} -o "$r" --force >/dev/null 2>$W/err; then
      printf '%-36s | import-tileset: %s\n' "$shown" "$(head -n 1 $W/err)"
      continue
    fi
    rc=0
    {
      (
        # shellcheck disable=SC3045 # dash and bash have it
        ulimit -t "$SAMPLES_CAP" 2>/dev/null || true
        # shellcheck disable=SC2086 # pflag: none or one word
        exec /usr/bin/time -f '%U %S %M' -o $W/time "$B" collapse "$r" \
          --size "${SAMPLES}x$SAMPLES" $pflag --guard modify --seed 1
      ) >$W/out 2>$W/err || rc=$?
    } 2>/dev/null
    cpu=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.2f s", $1 + $2 }')
    mem=$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.0f MB", $3 / 1024 }')
    blocks=$(sed -n 's/.*(\([0-9]*\) by WFC, \([0-9]*\) by SAT), \([0-9]*\) kept.*/\1 \/ \2 \/ \3/p' \
      $W/err | head -n 1)
    case $rc in
    10)
      tail -n +2 $W/out >$W/map.txt # its first line: SAT
      vrc=0 # verify: 10 VALID, 20 the pairs that break the rules
      # shellcheck disable=SC2086
      v=$("$B" verify "$r" $W/map.txt $pflag 2>&1) || vrc=$?
      [ "$vrc" = 10 ] && v=VALID || v="INVALID: $(echo "$v" | head -n 1)"
      ok=$(echo "$cpu" | awk -v v="$v" '{ print v == "VALID" && $1 <= 60 }')
      ;;
    137 | 152) cpu="> $SAMPLES_CAP s" mem=- v="no map" ok=0 ;;
    *) v="no map (exit $rc): $(grep -v 'wrote' $W/err | head -n 1)" ok=0 ;;
    esac
    printf '%-36s | %-9s | %-8s | %-21s | %-14s | %s\n' "$shown" "$cpu" \
      "$mem" "${blocks:--}" "$v" \
      "$([ "$ok" = 1 ] && echo "<= 60 s: met" || echo "<= 60 s: **missed**")"
  done <$W/samples.list
  rm -f $W/out $W/map.txt
fi

# ------------------------------------------------------- look
# Does --guard modify keep WFC's look (issue 32)?  tools/bench-look.c on
# Castle (open; against --guard blocks, as plain WFC makes no Castle map
# that large), Knots and Circuit (periodic, against plain WFC's successful
# runs) at LOOK_SIZE (default 128), LOOK_MAPS maps each way (default 20):
# the largest difference of a tile's share in points, and the seams' test
# (tests/look_seams.h: maps as units, a permutation test) beside the
# reference's (a control: its maps have no blocks).  LOOK=0: none.
if [ "${LOOK:-1}" = 1 ]; then
  # shellcheck disable=SC2046 # the link flags, one word each
  cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-look.c \
    tests/look_seams.c build/libtilesat.a $(make -s print-libs) -o build/bench-look
  L=${LOOK_SIZE:-128}
  echo
  echo "look: --guard modify against the reference, ${LOOK_MAPS:-20} maps each"
  for c in "Castle ${L}x$L blocks" "Knots ${L}x$L:periodic plain" \
    "Circuit ${L}x$L:periodic plain"; do
    # shellcheck disable=SC2086 # three words
    set -- $c
    build/bench-look "$W/$1.rules" "$2" "${LOOK_MAPS:-20}" "$3" |
      sed "s|^$W/||" || echo "$1: bench-look failed"
  done
fi

# ------------------------------------------------------- peers
# fast-wfc (math-fehr/fast-wfc, C++) and POMS (zzyzek/PunchOutModelSynthesis,
# C++), built beside the project in build/bench-peers/NAME from a git
# directory the caller brought here (FASTWFC_GIT, POMS_GIT: the script
# downloads nothing): tools/bench-peers.sh.  PEERS=0: none.
if [ "${PEERS:-1}" = 1 ]; then
  echo
  tools/bench-peers.sh "$B" || echo "peers: tools/bench-peers.sh failed"
fi

# ------------------------------------------------------- big maps
# --guard modify at BIG (default 4096; BIG=-: none) a side, one process a
# map, text output to /dev/null: Castle without wrap, seeds 1-3; Knots
# (Standard), Circuit (Turnless) and Rooms (N=3, symmetry 8) periodic,
# seed 1.  CPU time (user + system) and peak RSS from /usr/bin/time, each
# run stopped at BIG_CAP CPU seconds (default 600), the issue's targets
# (2-core machine) beside.  QUICK=1: none.
BIG=${BIG:-4096}
[ "${QUICK:-0}" = 1 ] && BIG=-
if [ "$BIG" != - ]; then
  echo
  echo "big maps: collapse --guard modify ${BIG}x$BIG, CPU time and peak RSS" \
    "of one run (cap ${BIG_CAP:-600} s)"
  printf '%-8s %-5s | %-9s | %-8s | %-7s | %s\n' rules seed CPU "peak RSS" \
    answer "target (4096x4096)"
  # NAME SEED PERIODIC TARGET
  echo "Castle 1 0 <= 180 s, <= 2 GB
Castle 2 0 <= 180 s, <= 2 GB
Castle 3 0 <= 180 s, <= 2 GB
Knots 1 1 <= 120 s
Circuit 1 1 <= 120 s
Rooms 1 1 <= 120 s" | while read -r name seed per target; do
    pflag=
    [ "$per" = 1 ] && pflag=--periodic
    rc=0
    {
      (
        # shellcheck disable=SC3045 # dash and bash have it
        ulimit -t "${BIG_CAP:-600}" 2>/dev/null || true
        # shellcheck disable=SC2086 # pflag: none or one word
        exec /usr/bin/time -f '%U %S %M' -o $W/time "$B" collapse \
          $W/$name.rules --size "${BIG}x$BIG" $pflag --guard modify \
          --seed "$seed"
      ) >/dev/null 2>$W/err || rc=$?
    } 2>/dev/null
    case $rc in
    10) ans=SAT ;;
    137 | 152) ans="> ${BIG_CAP:-600} s" ;;
    *) ans="error: $(grep -v '%' $W/err | head -n 1)" ;;
    esac
    printf '%-8s %-5s | %-9s | %-8s | %-7s | %s\n' "$name" "$seed" \
      "$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.1f s", $1 + $2 }')" \
      "$(tail -n 1 $W/time | awk 'NF == 3 { printf "%.0f MB", $3 / 1024 }')" \
      "$ans" "$target"
  done
fi

[ "${CHECKS:-}" = - ] && exit 0
echo
echo "check at scale: CPU time and peak RSS of one run; cap $CHECK_CAP s," \
  "--max-memory $MAXMEM"
printf '%-30s | %-23s | %-20s | %-20s | %s\n' case "check --method cnf" \
  "check (auto)" "collapse --guard auto" "auto's answer"
# NAME RULES SIZE FLAGS (FLAGS: - for none; pins as --pin=R,C=T)
ALL="castle-512 Castle 512x512 -
circuit-512 Circuit 512x512 --periodic
knots-512 Knots 512x512 --periodic
rooms-512 RoomsTiles 512x512 -
knots-2048 Knots 2048x2048 --periodic
circuit-2048 Circuit 2048x2048 --periodic
coast-1024-clash coast 1024x1024 --pin=0,0=S,--pin=1,1=L
coast-1024-far coast 1024x1024 --pin=600,300=S,--pin=601,301=L
coast-1024-column coast 1024x1024 --pin=0,0=S,--pin=1023,0=L"
echo "$ALL" | while read -r name rules size flags; do
  if [ -n "${CHECKS:-}" ] && ! echo " $CHECKS " | grep -q " $name "; then
    continue
  fi
  r=$W/$rules.rules
  [ "$rules" = coast ] && r=rules/coast.rules
  # shellcheck disable=SC2046 # flags: words, commas between them
  set -- $(echo "$flags" | sed 's/^-$//; s/,--/ --/g; s/--pin=/--pin /g')
  cnf=$(run "$B" check "$r" --size "$size" "$@" --method cnf)
  auto=$(run "$B" check "$r" --size "$size" "$@")
  why=$(named)
  if [ "$rules" = coast ]; then
    guard="-|-|-" # the collapse has no windows at the pins: not the point
  else
    guard=$(run "$B" collapse "$r" --size "$size" "$@" --guard auto)
  fi
  printf '%-30s | %-23s | %-20s | %-20s | %s\n' "$name ($size)" \
    "$(f "$cnf" 1) $(f "$cnf" 2)" "$(f "$auto" 1) $(f "$auto" 2)" \
    "$(f "$guard" 1) $(f "$guard" 2)" "$(f "$auto" 3)${why:+: $why}"
  for x in "$cnf" "$guard"; do
    a=$(f "$x" 3)
    case $a in SAT | UNSAT | "> "* | - | refused) ;; *) echo "  $a" ;; esac
  done
done
