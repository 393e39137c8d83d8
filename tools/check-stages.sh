#!/bin/sh
# check-stages.sh STAGE...: the stages of src/ in calling order, lowest
# first (the Makefile's STAGES; `make lint` runs this).  Reads every
# `#include "..."` in src/ and fails, naming the file, the line and both
# stages, when a stage includes a header of a stage after it in the order,
# or when a file of src/ lies in no stage.
#
# A quoted include is looked for beside the including file first, then
# under src/ (the build's -Isrc).  The public headers at the top of src/
# belong to the stage that implements them: tilesat.h and tilesat_gen.h
# are libtilesat's API, declarations only, which every stage may include
# (they count as the bottom, below the first stage); tilesat_io.h is
# libtilesat-io's and counts as io.
set -u
[ $# -gt 0 ] || { echo "usage: $0 STAGE... (lowest first)" >&2; exit 2; }
order="$*"
cd "$(dirname "$0")/.." || exit 2

find src -name '*.[ch]' | sort | awk -v order="$order" '
  BEGIN {
    n = split(order, st, " ")
    for (i = 1; i <= n; i++) rank[st[i]] = i
    bad = 0
  }
  # the stage of a file of src/: its folder, or for the public headers the
  # bottom (rank 0) or io
  function stage_of(path,   a, k) {
    k = split(path, a, "/")
    if (k == 2) return (a[2] == "tilesat_io.h") ? "io" : "(public API)"
    return a[2]
  }
  function rank_of(s) { return (s == "(public API)") ? 0 : ((s in rank) ? rank[s] : -1) }
  function exists(p,   line, r) {
    r = (getline line < p) >= 0
    close(p)
    return r
  }
  {
    file = $0
    from = stage_of(file)
    if (rank_of(from) < 0) {
      printf "%s: in no stage (src/%s/ is not in the order: %s)\n", file, from, order
      bad++
      next
    }
    dir = file; sub(/\/[^\/]*$/, "", dir)
    lineno = 0
    while ((getline text < file) > 0) {
      lineno++
      if (text !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
      inc = text
      sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
      target = (exists(dir "/" inc)) ? dir "/" inc : "src/" inc
      if (!exists(target)) {
        printf "%s:%d: includes \"%s\", which is no file of src/\n", file, lineno, inc
        bad++
        continue
      }
      to = stage_of(target)
      if (rank_of(to) < 0) {
        printf "%s:%d: includes \"%s\" of src/%s/, which is in no stage (order: %s)\n", \
          file, lineno, inc, to, order
        bad++
      } else if (rank_of(to) > rank_of(from)) {
        printf "%s:%d: stage %s includes \"%s\" of stage %s, which is above it (order, lowest first: %s)\n", \
          file, lineno, from, inc, to, order
        bad++
      }
    }
    close(file)
  }
  END {
    if (bad) { printf "check-stages: %d against the stage order\n", bad; exit 1 }
    print "lint: stages in order (" order ")"
  }'
