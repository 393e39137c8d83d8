#!/bin/sh
# test-install.sh: `make install` into a temporary prefix, then build and run
# tools/example.c as a user of the installed library would, with nothing but
# pkg-config: against the shared libraries and statically, from C and C++.
# Its maps must be the installed CLI's.  Writes only in its temporary folder
# (and build/, through make).  Run by `make check-install` and `make test`.
# Flag lists ($CFLAGS, pkg-config's output) are split into words on purpose.
# shellcheck disable=SC2046,SC2086
set -eu
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
CC=${CC:-cc}
CXX=${CXX:-c++}
BUILD=${BUILD:-build}
export LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesat-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
root=$tmp/usr
pass=0
failed=0
CFLAGS="-std=c11 -Wall -Wextra -Wpedantic -Werror"
# rules file:size pairs the examples check (SAT, hex, UNSAT, many tiles).
CASES="coast:4x3 coast-hex:4x4 hard:3x3 patchwork16:6x5"

# make TARGET VAR=...: quiet unless it fails.
mk() {
  "$MAKE" --no-print-directory BUILD="$BUILD" "$@" >"$tmp/make.log" 2>&1 || {
    cat "$tmp/make.log" >&2
    echo "install: make $* failed" >&2
    return 1
  }
}

# Every installed path below a prefix, symlinks with their targets.
listing() {
  (cd "$1" && find . ! -type d | sort | while read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f"; fi
  done)
}

# What `make install` puts under PREFIX, with LIBDIR as $1.
expected() {
  echo "./bin/tilesat"
  # the MPI driver, when Open MPI's mpicc built it
  if command -v mpicc >/dev/null 2>&1; then echo "./bin/tilesat-mpi"; fi
  echo "./include/tilesat.h"
  echo "./include/tilesat_gen.h"
  echo "./include/tilesat_io.h"
  for l in libtilesat libtilesat-io; do
    echo "./$1/$l.a"
    echo "./$1/$l.so -> $l.so.$major"
    echo "./$1/$l.so.$major -> $l.so.$version"
    echo "./$1/$l.so.$version"
  done
  echo "./$1/pkgconfig/tilesat-io.pc"
  echo "./$1/pkgconfig/tilesat.pc"
  echo "./share/man/man1/tilesat.1"
  # a page per command of `tilesat --help`
  for c in $commands; do echo "./share/man/man1/tilesat-$c.1"; done
  echo "./share/tilesat/tiled/tilesat.js"
}

pc() { PKG_CONFIG_PATH=$root/lib/pkgconfig pkg-config "$@"; }

# Link flags that take the archives: pkg-config's -ltilesat would pick the
# .so beside them.
static_libs() {
  pc --static --libs "$1" | sed -e 's/-ltilesat-io\( \|$\)/-l:libtilesat-io.a\1/' \
    -e 's/-ltilesat\( \|$\)/-l:libtilesat.a\1/'
}

needs_libtilesat() { readelf -d "$1" | grep -q 'NEEDED.*libtilesat'; }
# A static link must not need the shared libraries.
static_only() {
  if needs_libtilesat "$1"; then
    echo "install: $1 needs a shared libtilesat" >&2
    return 1
  fi
}

# Run example binary $1 (with env $2) on every case (against the CLI's
# check --method cnf: the library's tilesat_check); with $3, also write a
# PNG per case and compare it with the CLI's.
run_cases() {
  for c in $CASES; do
    rules=rules/${c%%:*}.rules size=${c#*:}
    png=
    [ -z "${3:-}" ] || png=$tmp/ex.png
    { echo "libtilesat $version"; cli check "$rules" --size "$size" --method cnf ${png:+--png "$tmp/cli.png"}; } >"$tmp/want"
    env $2 "$1" "$rules" "$size" $png >"$tmp/got"
    diff -u "$tmp/want" "$tmp/got"
    if [ -n "$png" ] && grep -q '^SAT$' "$tmp/want"; then cmp "$tmp/cli.png" "$png"; fi
  done
}

# The installed CLI; exit 10 or 20 are answers, not failures.
cli() {
  rc=0
  "$root/bin/tilesat" "$@" || rc=$?
  [ $rc -eq 10 ] || [ $rc -eq 20 ]
}

t_layout() {
  listing "$root" >"$tmp/got"
  expected lib | sort >"$tmp/want"
  diff -u "$tmp/want" "$tmp/got"
  for l in libtilesat libtilesat-io; do
    readelf -d "$root/lib/$l.so.$version" | grep -q "SONAME.*\[$l\.so\.$major\]"
  done
  [ "$(pc --modversion tilesat-io)" = "$version" ]
  [ -x "$root/bin/tilesat" ]
}

# The man pages as a user reads them: man(1) finds tilesat and
# tilesat-check under the prefix (MANPATH, as with PREFIX=~/.local), and
# each command's page names its options as `tilesat help COMMAND` does.
t_man() {
  command -v man >/dev/null 2>&1 || { echo "install: man: not installed, pages only listed" >&2; return 0; }
  MANPATH=$root/share/man man -w tilesat | grep -qx "$root/share/man/man1/tilesat.1"
  for c in $commands; do
    page=$(MANPATH=$root/share/man MANWIDTH=200 man "tilesat-$c" 2>/dev/null | col -b)
    printf '%s\n' "$page" | grep -q "^NAME" || { echo "install: man tilesat-$c: no page" >&2; return 1; }
    printf '%s\n' "$page" | grep -q "EXAMPLES" || { echo "install: man tilesat-$c: no examples" >&2; return 1; }
  done
  "$root/bin/tilesat" help check | grep -q '^examples:'
}

# The shared libraries export exactly the functions the headers declare,
# each in its library's one version node, and nothing else: no internal
# ts_* helper, no private node (tools/check-api.sh checks the same on the
# build's libraries, for make lint).
t_symbols() {
  grep -oh '\btilesat_[a-z0-9_]*(' "$root/include/tilesat.h" "$root/include/tilesat_gen.h" "$root/include/tilesat_io.h" |
    tr -d '(' | sort -u >"$tmp/want"
  nm -D --defined-only "$root/lib/libtilesat.so.$version" "$root/lib/libtilesat-io.so.$version" |
    awk '$3 ~ /^tilesat_/ { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/got"
  diff -u "$tmp/want" "$tmp/got"
  nm -D --defined-only "$root/lib/libtilesat.so.$version" | awk '$2 != "A" { print $3 }' |
    grep -v -e "^tilesat_[a-z0-9_]*@@TILESAT_$major\$" >"$tmp/other" || true
  nm -D --defined-only "$root/lib/libtilesat-io.so.$version" | awk '$2 != "A" { print $3 }' |
    grep -v -e "^tilesat_[a-z0-9_]*@@TILESAT_IO_$major\$" >>"$tmp/other" || true
  if [ -s "$tmp/other" ]; then
    echo "install: exported but not public:" >&2
    cat "$tmp/other" >&2
    return 1
  fi
}

t_shared() {
  "$CC" $CFLAGS tools/example.c $(pc --cflags --libs tilesat) -o "$tmp/ex"
  needs_libtilesat "$tmp/ex"
  run_cases "$tmp/ex" "LD_LIBRARY_PATH=$root/lib"
}

t_static() {
  "$CC" $CFLAGS tools/example.c $(pc --static --cflags tilesat) $(static_libs tilesat) -o "$tmp/exs"
  static_only "$tmp/exs"
  run_cases "$tmp/exs" ""
}

t_io_shared() {
  "$CC" $CFLAGS -DWITH_PNG tools/example.c $(pc --cflags --libs tilesat-io) -o "$tmp/exio"
  run_cases "$tmp/exio" "LD_LIBRARY_PATH=$root/lib" png
}

t_io_static() {
  "$CC" $CFLAGS -DWITH_PNG tools/example.c $(pc --static --cflags tilesat-io) \
    $(static_libs tilesat-io) -o "$tmp/exios"
  static_only "$tmp/exios"
  run_cases "$tmp/exios" "" png
}

# Both headers from C++: the extern "C" guards.
t_cplusplus() {
  cat >"$tmp/ex.cc" <<'EOF'
#include <cstdio>
#include <tilesat_io.h>
int main() {
  tilesat_image *img = tilesat_image_new(2, 3);
  std::printf("%s %d\n", tilesat_version(), img->width * img->height);
  tilesat_image_free(img);
  return 0;
}
EOF
  "$CXX" -Wall -Wextra -Werror "$tmp/ex.cc" $(pc --cflags --libs tilesat-io) -o "$tmp/excc"
  [ "$(LD_LIBRARY_PATH=$root/lib "$tmp/excc")" = "$version 6" ]
}

# A staged install for packaging: everything under DESTDIR, the .pc files
# naming the final PREFIX, then uninstall leaves no file behind.
t_destdir() {
  stage=$tmp/stage
  mk install DESTDIR="$stage" PREFIX=/usr LIBDIR=/usr/lib64
  listing "$stage/usr" >"$tmp/got"
  expected lib64 | sort >"$tmp/want"
  diff -u "$tmp/want" "$tmp/got"
  grep -qxF 'prefix=/usr' "$stage/usr/lib64/pkgconfig/tilesat.pc"
  # shellcheck disable=SC2016
  grep -qxF 'libdir=${prefix}/lib64' "$stage/usr/lib64/pkgconfig/tilesat.pc"
  mk uninstall DESTDIR="$stage" PREFIX=/usr LIBDIR=/usr/lib64
  [ -z "$(find "$stage" ! -type d)" ]
}

t_uninstall() {
  mk uninstall PREFIX="$root"
  [ -z "$(find "$root" ! -type d)" ]
}

# One check in a subshell that stops at its first failing command.
run() {
  set +e
  (set -e; "t_$1")
  rc=$?
  set -e
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
  else
    failed=$((failed + 1))
    echo "install: $1 FAILED" >&2
  fi
}

mk install PREFIX="$root"
version=$(sed -n 's/^#define TILESAT_VERSION "\(.*\)"/\1/p' "$root/include/tilesat.h")
major=${version%%.*}
commands=$("$root/bin/tilesat" --help | sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
for t in layout man symbols shared static io_shared io_static cplusplus destdir uninstall; do
  run $t
done
echo "install: $pass passed, $failed failed"
[ $failed -eq 0 ]
