#!/bin/sh
# bench-rates.sh: WFC's failure rate on Castle by size, RUNS runs a size
# (seeds 1 to RUNS), as `collapse --sizes` prints it; the table of
# tools/README.md, "WFC's failure rate by size".  `make bench-rates`.
set -eu
B=${1:-build/tilesat}
RUNS=${RUNS:-1000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesat-rates.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$B" import-tileset tests/data/wfc/tilesets/Castle.xml -o "$tmp/castle.rules" 2>/dev/null
echo "Castle, $RUNS runs a size, $(date -u +%Y-%m-%d), $(uname -m), $(nproc) cores"
"$B" collapse "$tmp/castle.rules" --sizes 8,16,24,32 -n "$RUNS"
