#!/bin/sh
# Global constraints (issue 15): check without and with them, side by side,
# CPU time (median of RUNS runs; one run at 256x256), and what the cuts of
# connected and path constraints took.  Targets: a connected 128x128
# dungeon in under 5 s; lazy connectivity at 64x64 and 256x256 and a
# cardinality-constrained check at 128x128 measured.  Then the dp's exact
# counts without and with count and connected constraints (target: the
# connectivity-aware count of dungeon8 at width 8 in seconds).  LIMIT
# (default 30) stops a run after that many seconds: "> LIMIT s".  With
# the argument dp, the dp's table alone.
set -eu
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-30}
RUNS=${RUNS:-3}
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-global.c \
  build/libtilesat.a $(make -s print-libs) -o build/bench-global
echo
echo "global constraints: $(date -u '+%Y-%m-%d %H:%M'), one core, CPU time, median of $RUNS, at most ${LIMIT}s a run"
build/bench-global "$LIMIT" "$RUNS" ${1:-}
