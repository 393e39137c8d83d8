#!/bin/sh
# Collapse (issue 13): plain collapse, guarded collapse (--guard sat, and
# --guard blocks: the block guard, issue 21; tools/bench-scale.sh), check
# and anneal side by side, and a peer, the npm package wavefunctioncollapse
# (a JavaScript port of mxgmn's WFC), on the same rules and sizes: WFC's
# Circuit ("Turnless") and Knots ("Standard") tilesets and three overlapping
# samples (Knot, Rooms, Village: 3x3 patterns, periodic input), every map
# periodic, as mxgmn's samples.xml runs them, at 48x48, 128x128 and 512x512.
# Each cell: CPU time per successful map (the total of its runs over the
# runs that made a map) and failures/runs.  Seeds 1, 2, ...; a cell stops
# starting runs after BUDGET CPU seconds, and is stopped at CAP CPU seconds
# ("> CAP s").  Targets: plain 128x128 Circuit under 0.3 s a map (the
# JavaScript port needs about 1.3 s); guarded never more than 3x plain;
# 512x512 guarded under 10 s.
#   CAP=20 MAXMEM=4096 (MiB: check's, the guard's and the clean-up's bound)
#   BACKEND=auto (check, the guard's whole-map solver, anneal's clean-up)
#   SIZES="48 128 512" (N: NxN); PEER=0: no peer column
#   QUICK=1: 8x8 and 16x16, 5 runs a cell (a smoke test)
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
if [ "${QUICK:-0}" = 1 ]; then
  SIZES=${SIZES:-8 16}
  CAP=${CAP:-10}
fi
CAP=${CAP:-20}
SIZES=${SIZES:-48 128 512}
MAXMEM=${MAXMEM:-4096}
BACKEND=${BACKEND:-auto}
W=build/bench-collapse.d
mkdir -p $W
rm -f $W/notes
# shellcheck disable=SC2046 # the link flags, one word each
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-collapse.c \
  build/libtilesat.a $(make -s print-libs) -o build/bench-collapse

# runs and CPU budget (seconds) of a cell, by size
runs() { case $1 in 48) echo 50 ;; 128) echo 20 ;; 512) echo 5 ;; *) echo 5 ;; esac; }
budget() { case $1 in 48) echo 2 ;; 128) echo 4 ;; 512) echo 8 ;; *) echo 1 ;; esac; }

T=tests/data/wfc/tilesets
S=tests/data/wfc/samples
# NAME KIND SOURCE (tileset: SUBSET; overlapping: N SYMMETRY)
CASES="Circuit simple $T/Circuit.xml Turnless
Knots simple $T/Knots.xml Standard
Knot overlapping $S/Knot.png 3 8
Rooms overlapping $S/Rooms.png 3 8
Village overlapping $S/Village.png 3 2"
echo "$CASES" | while read -r name kind src a b; do
  if [ "$kind" = simple ]; then
    "$B" import-tileset "$src" --subset "$a" -o "$W/$name.rules" 2>/dev/null
  else
    "$B" extract --pattern "$a" --symmetry "$b" --periodic-input "$src" \
      -o "$W/$name.rules" 2>/dev/null
  fi
done

# The peer, installed at bench time into a temporary folder (never into the
# repository), when node and npm are there.
PEER_DIR=""
PEER_NOTE="peer: not available (no node/npm; tools/install-deps.sh bench)"
if [ "${PEER:-1}" = 0 ]; then
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

# Run a cell's command under the CPU cap (and a wall cap of 3x, in case the
# machine stalls), then sum its runs up as "SHOWN|SECONDS|FAILS|BANS":
# SHOWN is the time per successful map as printed, SECONDS the number (or
# -), FAILS failures/runs, BANS banned choices per map (guard).
cell() {
  rc=0
  # (the shell would say "Killed" of a capped run: hence the outer 2>)
  {
    (
      # shellcheck disable=SC3045 # dash and bash have it; without it, the
      # wall cap alone
      ulimit -t "$CAP" 2>/dev/null || true
      exec timeout $((3 * CAP)) "$@"
    ) >$W/cell.out 2>$W/cell.err || rc=$?
  } 2>/dev/null
  awk -v rc="$rc" -v cap="$CAP" -v notes="$W/notes" -v errfile=$W/cell.err '
    function human(s) {
      return s < 0.01 ? sprintf("%.2f ms", 1000 * s) : s < 1 ? sprintf("%.1f ms", 1000 * s) : sprintf("%.2f s", s)
    }
    $1 == "ok" { n++; ok++; t += $2; if (NF > 2) bans += $3; next }
    $1 == "fail" { n++; t += $2; next }
    $1 == "unsat" { n++; unsat++; t += $2; next }
    $1 == "error" { sub(/^error /, ""); err = $0 }
    END {
      # 124: timeout; 128 + 24 (SIGXCPU), 128 + 9: the CPU cap
      cut = rc == 124 || rc == 152 || rc == 137
      if (rc != 0 && !cut && err == "" && (getline line < errfile) > 0)
        err = line
      sec = "-"
      if (err != "" && match(err, /needs about [0-9.]+ [GM]iB/)) {
        shown = "refused: needs " substr(err, RSTART + 12, RLENGTH - 12)
      } else if (err != "") {
        shown = "error*"; print "* " err >> notes
      } else if (n == 0) {
        shown = cut ? "> " cap " s" : "-"
      } else if (ok == 0) {
        shown = unsat ? "UNSAT" : "> " human(t)
      } else {
        sec = t / ok; shown = human(sec)
      }
      if (cut && n > 0) shown = shown "+"
      printf "%s|%s|%s|%s|%s\n", shown, sec, n ? (n - ok) "/" n : "",
        ok && bans != "" ? sprintf("%.1f", bans / ok) : "", n ? t / n : ""
    }' $W/cell.out
}

field() { echo "$1" | cut -d'|' -f"$2"; }
# Is A * B > C?
over() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { exit !(a * b > c) }'; }

echo "collapse bench: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores, one used;" \
  "CPU time per successful map; cells stopped at $CAP s of CPU;" \
  "--max-memory ${MAXMEM}M; backend $BACKEND"
echo "$PEER_NOTE"
printf '%-8s %-7s | %-9s %-6s | %-9s %-5s | %-5s | %-9s | %-23s | %-9s | %-9s %-6s\n' \
  rules size plain fails guarded bans g/p blocks check anneal peer fails
echo "$CASES" | while read -r name kind src a b; do
  prev=""
  peer_prev=""
  anneal_prev=""
  for s in $SIZES; do
    R=$(runs "$s")
    BU=$(budget "$s")
    map="$W/$name.rules ${s}x$s:periodic"
    # shellcheck disable=SC2086
    plain=$(cell build/bench-collapse plain $map "$R" "$BU" "$MAXMEM" "$BACKEND")
    # shellcheck disable=SC2086
    guard=$(cell build/bench-collapse guard $map "$R" "$BU" "$MAXMEM" "$BACKEND")
    # shellcheck disable=SC2086
    blocks=$(cell build/bench-collapse blocks $map "$R" "$BU" "$MAXMEM" "$BACKEND")
    # shellcheck disable=SC2086
    check=$(cell build/bench-collapse check $map 1 "$BU" "$MAXMEM" "$BACKEND")
    # Anneal and the peer take at least (cells ratio) times their time at
    # the size before (every cell is swept, or decided): when that is past
    # the cap, the cell is not run.
    ratio=1
    [ -n "$prev" ] && ratio=$((s * s / (prev * prev)))
    if [ -n "$anneal_prev" ] && over "$anneal_prev" "$ratio" "$CAP"; then
      anneal="> $CAP s*|-|||$(awk -v a="$anneal_prev" -v r="$ratio" 'BEGIN { print a * r }')"
    else
      # shellcheck disable=SC2086
      anneal=$(cell build/bench-collapse anneal $map 3 "$BU" "$MAXMEM" "$BACKEND")
    fi
    if [ -z "$PEER_DIR" ]; then
      peer="n/a|-|||"
    elif [ -n "$peer_prev" ] && over "$peer_prev" "$ratio" "$CAP"; then
      peer="> $CAP s*|-|||$(awk -v a="$peer_prev" -v r="$ratio" 'BEGIN { print a * r }')"
    elif [ "$kind" = simple ]; then
      peer=$(cell node tools/bench-collapse-peer.js "$PEER_DIR" simple "$src" "$a" \
        "${s}x$s" 1 "$R" "$BU")
    else
      peer=$(cell node tools/bench-collapse-peer.js "$PEER_DIR" overlapping "$src" \
        "$a" "$b" "${s}x$s" 1 "$R" "$BU")
    fi
    gp=$(field "$guard" 2)
    pp=$(field "$plain" 2)
    if [ "$gp" != - ] && [ "$pp" != - ] && over "$pp" 1 0; then
      gratio=$(awk -v g="$gp" -v p="$pp" 'BEGIN { printf "%.2f", g / p }')
    else
      gratio=-
    fi
    # a lower bound for the next size: the time per run (a failed run too;
    # of a cell not run, its own lower bound)
    anneal_prev=$(field "$anneal" 5)
    peer_prev=$(field "$peer" 5)
    prev=$s
    printf '%-8s %-7s | %-9s %-6s | %-9s %-5s | %-5s | %-9s | %-23s | %-9s | %-9s %-6s\n' \
      "$name" "${s}x$s" "$(field "$plain" 1)" "$(field "$plain" 3)" \
      "$(field "$guard" 1)" "$(field "$guard" 4)" "$gratio" \
      "$(field "$blocks" 1)" "$(field "$check" 1)" \
      "$(field "$anneal" 1)" "$(field "$peer" 1)" "$(field "$peer" 3)"
  done
done
echo "> T: no map in T seconds (the cap, or runs that all failed).  g/p: guarded"
echo "over plain time per map.  +: the cap stopped a run, not counted.  *: not run:"
echo "at least (cells ratio) x its time at the size before, past the cap."
[ -f $W/notes ] && cat $W/notes
exit 0
