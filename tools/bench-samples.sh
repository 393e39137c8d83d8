#!/bin/sh
# bench-samples.sh REF [TILESAT]: mxgmn's whole run list through
# `tilesat run-samples`, from a checkout of the reference
# (https://github.com/mxgmn/WaveFunctionCollapse: REF holds samples.xml,
# samples/ and tilesets/), which this script does not fetch.  Every entry
# runs cut to MAX_SIZE (default 12) with RUNS runs (default 1), its maps in
# a temporary folder removed at exit; prints each entry that could not run
# and the last line, "entries: E, ran: R, ...".  Exit: run-samples's.
# tools/README.md, "mxgmn's whole run list".
set -eu
REF=${1:?usage: tools/bench-samples.sh REF [TILESAT]   (REF: a checkout of mxgmn/WaveFunctionCollapse)}
B=${2:-build/tilesat}
MAX_SIZE=${MAX_SIZE:-12}
RUNS=${RUNS:-1}
[ -f "$REF/samples.xml" ] || { echo "bench-samples: $REF/samples.xml: not there" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesat-samples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
commit=$( [ -e "$REF/.git" ] && git -C "$REF" rev-parse --short HEAD || echo "commit unknown")
echo "mxgmn's samples.xml ($commit), --max-size $MAX_SIZE -n $RUNS, $(date -u +%Y-%m-%d), $(uname -m), $(nproc) cores"
rc=0
"$B" run-samples "$REF/samples.xml" --max-size "$MAX_SIZE" -n "$RUNS" \
  --out-dir "$tmp/out" >"$tmp/lines" 2>"$tmp/err" || rc=$?
grep 'cannot run' "$tmp/lines" || true
tail -n 1 "$tmp/lines"
grep -v 'run-samples: ' "$tmp/err" >&2 || true
exit "$rc"
