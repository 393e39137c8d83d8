#!/bin/sh
# check-api.sh: the library stays a small public library (make lint runs
# this; src/core/README.md, "The installed library").
#  1. The shared libraries export tilesat_* functions only, each in its
#     library's one version node (TILESAT_MAJOR, TILESAT_IO_MAJOR): no ts_*
#     helper, no private node.
#  2. The static archives define no global name outside tilesat_* and ts_*
#     (a program linking them may have its own cg_free or mod_window).
#  3. Library code (every stage but the command line, src/cli, and the MPI
#     driver, src/mpi) holds no "--flag" string literal and no --%s: its
#     messages name parameters (tilesat_error.param), and the command line
#     names its options.  The exceptions are listed, each with its reason,
#     in tools/lint/flag-literals.txt as FILE<TAB>LINE'S TEXT<TAB># REASON.
# Usage: tools/check-api.sh BUILD (the folder of the built libraries).
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
export LC_ALL=C
version=$(sed -n 's/^#define TILESAT_VERSION "\(.*\)"/\1/p' src/tilesat.h)
major=${version%%.*}
bad=0

exports() { # LIB NODE
  nm -D --defined-only "$1" | awk -v node="$2" '
    $2 == "A" { if ($3 != node) print "a version node " $3; next }
    $3 !~ ("^tilesat_[a-z0-9_]*@@" node "$") { print $3 }'
}
for pair in "libtilesat:TILESAT_$major" "libtilesat-io:TILESAT_IO_$major"; do
  lib=$BUILD/${pair%%:*}.so.$version
  out=$(exports "$lib" "${pair#*:}")
  if [ -n "$out" ]; then
    echo "check-api: $lib exports what is not public:" >&2
    printf '%s\n' "$out" | sed 's/^/  /' >&2
    bad=1
  fi
done

out=$(nm -A "$BUILD/libtilesat.a" "$BUILD/libtilesat-io.a" 2>/dev/null |
  awk '$2 ~ /^[TDBRCVWG]$/ && $3 !~ /^(tilesat_|ts_)/ { print $1 " " $3 }')
if [ -n "$out" ]; then
  echo "check-api: the archives define names without tilesat_ or ts_:" >&2
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  bad=1
fi

allow=tools/lint/flag-literals.txt
found=$(for d in src/*/; do
  case $d in src/cli/ | src/mpi/) continue ;; esac
  grep -Hn -e '"--[a-z]' -e '--%s' "$d"*.[ch] 2>/dev/null || true
done | awk -F: '{
    text = $0; sub(/^[^:]*:[^:]*:/, "", text)
    t = text; sub(/^[ \t]+/, "", t)
    if (t ~ /^(\/\*|\*)/) next          # a comment
    print $1 "\t" t
  }')
out=$(printf '%s\n' "$found" | while IFS= read -r line; do
  [ -n "$line" ] || continue
  if ! cut -f1,2 "$allow" | grep -qxF "$line"; then echo "$line"; fi
done)
if [ -n "$out" ]; then
  echo "check-api: a command-line flag in library code (name the parameter" >&2
  echo "  with ts_error_param, or give the advice in src/cli; or list it with" >&2
  echo "  its reason in $allow):" >&2
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  bad=1
fi
stale=$(grep -v '^#' "$allow" | cut -f1,2 | while IFS= read -r line; do
  [ -n "$line" ] || continue
  printf '%s\n' "$found" | grep -qxF "$line" || echo "$line"
done)
if [ -n "$stale" ]; then
  echo "check-api: $allow lists lines no longer there (remove them):" >&2
  printf '%s\n' "$stale" | sed 's/^/  /' >&2
  bad=1
fi
[ $bad -eq 0 ] && echo "check-api: exports tilesat_* only, archives prefixed, $(printf '%s\n' "$found" | grep -c . || true) listed flag literals"
exit $bad
