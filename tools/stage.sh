#!/bin/sh
# tools/stage.sh FILE NAME COMMAND...: runs COMMAND, then appends its wall
# time, "NAME: S s", to FILE (make test's stages, printed at its end);
# exits with COMMAND's status.  (date's %N, nanoseconds, is GNU date's.)
file=$1 name=$2
shift 2
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v n="$name" \
  'BEGIN { printf "%-18s %6.1f s\n", n ":", b - a }' >>"$file"
exit $rc
