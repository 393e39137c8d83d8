#!/bin/sh
# Install the Debian packages tilesat needs to build and test, only when
# something is missing. Idempotent; safe to run on every `make`.
set -eu

# `install-deps.sh fuzz` (make fuzz) adds clang and its libFuzzer runtime,
# which Debian's clang only recommends.
PKGS="build-essential pkg-config clang-format picosat libcryptominisat5-dev libcriterion-dev libgmp-dev libpng-dev libxml2-dev zlib1g-dev libcjson-dev libcadical-dev clang-tidy cppcheck libopenmpi-dev openmpi-bin procps tiled"
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-dev"
# `install-deps.sh bench` (make bench-collapse) adds node and npm for the
# peer column (a JavaScript WFC from npm), unless node and npm are already
# there from elsewhere (NodeSource's nodejs bundles npm and conflicts with
# Debian's npm package).
if [ "${1:-}" = bench ] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
  PKGS="$PKGS nodejs npm"
fi

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $p"
  fi
done

[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root (or sudo) to install:$missing" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq </dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing </dev/null
