#!/bin/sh
# Peers of tilesat's large maps (issue 32), from tools/bench-scale.sh:
# fast-wfc (math-fehr/fast-wfc, C++ WFC) and POMS (zzyzek/
# PunchOutModelSynthesis, C++ modify in blocks) beside `tilesat collapse
# --guard modify` on Castle (open), Knots (Standard) and Circuit
# (Turnless) at PEER_SIZES (default "256 1024"): CPU time (user + system)
# per attempt, peak RSS and maps made / attempts, from /usr/bin/time.
#
# This script downloads nothing: FASTWFC_GIT and POMS_GIT name git
# directories brought here beforehand (e.g. by the session's fetch tool);
# each is exported (git archive HEAD) into build/bench-peers/NAME and
# built there with Debian's g++ (POMS needs libyajl-dev; fast-wfc
# nothing more); a peer already built there is reused.  Neither's code is
# in this repository.
#   fast-wfc: its own example program (example/src/lib/main.cpp) on a
#     samples.xml of one entry, its own copy of mxgmn's tilesets: up to 10
#     attempts with random seeds, stopping at the first map; Knots and
#     Circuit periodic as samples.xml runs them, Castle open.
#   POMS: the rules as a POMS config (tools/bench-poms-rules.c), with
#     the options of its own runs/pillMortal/run.sh (-s 48,48,1 -b 1
#     -B 8,8,1 -P min -O patch-policy=pending, -J 100000), seed 1, open
#     maps (its boundary is an outside tile); a map when every cell is
#     resolved (its "FIN" line).
#   modify: tilesat collapse --guard modify, seed 1, Knots and Circuit
#     periodic (as fast-wfc), the whole process.
# Each run stopped at PEER_CAP CPU seconds (default 60).
#   FASTWFC_GIT=DIR POMS_GIT=DIR PEER_SIZES="256 1024" PEER_CAP=60
set -eu
B=${1:-build/tilesat}
cd "$(dirname "$0")/.."
W=build/bench-scale.d
P=build/bench-peers
CAP=${PEER_CAP:-60}
SIZES=${PEER_SIZES:-256 1024}
mkdir -p $W $P
T=tests/data/wfc/tilesets
"$B" import-tileset $T/Castle.xml -o $W/Castle.rules 2>/dev/null
"$B" import-tileset $T/Knots.xml --subset Standard -o $W/Knots.rules 2>/dev/null
"$B" import-tileset $T/Circuit.xml --subset Turnless -o $W/Circuit.rules 2>/dev/null

# PEER NAME: export and build into $P/NAME, unless built; "" or a reason.
build_fastwfc() {
  d=$P/fast-wfc
  [ -x $d/wfc_demo ] && return 0
  [ -n "${FASTWFC_GIT:-}" ] || { echo "no FASTWFC_GIT" && return 0; }
  rm -rf $d && mkdir -p $d/inc
  git --git-dir="$FASTWFC_GIT" archive HEAD | tar -x -C $d
  ln -s ../src/include $d/inc/fastwfc # its example includes fastwfc/...
  g++ -O3 -std=c++17 -I$d/inc -I$d/src/include -I$d/example/src/include \
    $d/src/lib/wave.cpp $d/src/lib/propagator.cpp $d/src/lib/wfc.cpp \
    $d/example/src/lib/main.cpp -o $d/wfc_demo >$d/build.log 2>&1 ||
    echo "g++ failed: $d/build.log"
}
build_poms() {
  d=$P/poms
  [ -x $d/bin/poms ] && return 0
  [ -n "${POMS_GIT:-}" ] || { echo "no POMS_GIT" && return 0; }
  [ -f /usr/include/yajl/yajl_parse.h ] || {
    echo "no libyajl-dev (apt-get install libyajl-dev)" && return 0
  }
  rm -rf $d && mkdir -p $d
  git --git-dir="$POMS_GIT" archive HEAD src | tar -x -C $d
  make -C $d/src -j2 poms >$d/build.log 2>&1 || echo "make failed: $d/build.log"
}
fw_why=$(build_fastwfc)
poms_why=$(build_poms)
# shellcheck disable=SC2046 # the link flags, one word each
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-poms-rules.c \
  build/libtilesat.a $(make -s print-libs) -o build/bench-poms-rules

# Runs "$@" in $DIR under the cap: "CPU|PEAK" into $W/peer.time, its
# output into $W/peer.out.
timed() {
  dir=$1
  shift
  {
    (
      cd "$dir"
      # shellcheck disable=SC3045 # dash and bash have it
      ulimit -t "$CAP" 2>/dev/null || true
      exec /usr/bin/time -f '%U %S %M' -o "$OLDPWD/$W/peer.time" "$@"
    ) >$W/peer.out 2>&1 || true
  } 2>/dev/null
  tail -n 1 $W/peer.time | awk 'NF == 3 { printf "%.2f|%.0f", $1 + $2, $3 / 1024 }'
}

fastwfc() { # NAME SIZE: "CPU s/attempt PEAK MB MAPS/ATTEMPTS"
  case $1 in
  Castle) e='Castle"' ;;
  Knots) e='Knots" subset="Standard" periodic="True"' ;;
  *) e='Circuit" subset="Turnless" periodic="True"' ;;
  esac
  r=$P/fast-wfc/run
  mkdir -p $r/results
  ln -sfn ../example/samples $r/samples
  printf '<samples><simpletiled name="%s width="%s" height="%s"/></samples>\n' \
    "$e" "$2" "$2" >$r/samples.xml
  t=$(timed $r ../wfc_demo)
  ok=$(grep -c 'finished!' $W/peer.out || true)
  bad=$(grep -c 'failed!' $W/peer.out || true)
  n=$((ok + bad))
  if [ -z "$t" ] || ! grep -q 'All samples done' $W/peer.out; then
    echo "> $CAP s ($ok/$((n + 1)))"
  else
    echo "$t" | awk -F'|' -v n="$n" -v ok="$ok" \
      '{ printf "%.2f s %s MB %d/%d", $1 / n, $2, ok, n }'
  fi
}

poms() { # NAME SIZE
  r=$P/poms/run
  mkdir -p $r
  build/bench-poms-rules "$W/$1.rules" "$2" "$2" >$r/config.json
  t=$(timed $r ../bin/poms -C config.json -s 48,48,1 -q "$2,$2,1" -b 1 \
    -B 8,8,1 -J 100000 -P min -O patch-policy=pending -S 1 -1 map.json -V 1)
  cells=$(($2 * $2))
  if grep -q "FIN.*resolved:$cells/$cells" $W/peer.out; then
    echo "$t" | awk -F'|' '{ printf "%.2f s %s MB 1/1", $1, $2 }'
  elif [ -n "$t" ] && grep -q FIN $W/peer.out; then
    echo "$t" | awk -F'|' '{ printf "%.2f s %s MB 0/1", $1, $2 }'
  else
    echo "> $CAP s (0/1)"
  fi
}

modify() { # NAME SIZE
  p=--periodic
  [ "$1" = Castle ] && p=
  # shellcheck disable=SC2086 # p: none or one word
  t=$(timed . "$B" collapse $W/$1.rules --size "$2x$2" $p \
    --guard modify --seed 1 --max-memory 4G)
  if grep -q '^SAT' $W/peer.out; then
    echo "$t" | awk -F'|' '{ printf "%.2f s %s MB 1/1", $1, $2 }'
  else
    echo "> $CAP s (0/1)"
  fi
}

echo "peers: CPU time per attempt, peak RSS, maps/attempts; runs stopped at" \
  "$CAP s; fast-wfc: ${fw_why:-built in $P/fast-wfc}; POMS: ${poms_why:-built in $P/poms}"
printf '%-8s %-10s | %-28s | %-28s | %s\n' rules size fast-wfc POMS \
  "collapse --guard modify"
for s in $SIZES; do
  for name in Castle Knots Circuit; do
    a=n/a b=n/a
    [ -z "$fw_why" ] && a=$(fastwfc $name "$s")
    [ -z "$poms_why" ] && b=$(poms $name "$s")
    printf '%-8s %-10s | %-28s | %-28s | %s\n' $name "${s}x$s" "$a" "$b" \
      "$(modify $name "$s")"
  done
done
