#!/bin/sh
# The annealer against issue 5's targets, on one core (CPU time of the
# sampling thread; the machine may be shared):
#   >= 1e8 site updates/s for up to 16 tiles;
#   100x100, 16 tiles: zero violations, median 50 ms;
#   1024x1024, 16 tiles: zero violations under 10 s;
#   coast and 16 tiles at 100x100: zero violations on 99 of 100 seeds;
#   counts within 1 of their targets with a frequency term.
# Then global constraints (issue 15): the rate with none, with a count that
# always holds (the kernel that keeps counts and checks them per move) and
# with "floor connected" (that kernel plus the incremental regions), and
# the time to a valid connected dungeon and an exact Entropy board.
# QUICK=1 runs 10 seeds instead of 100 and skips 1024x1024.
set -eu
cd "$(dirname "$0")/.."
mkdir -p build
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-anneal.c \
  build/libtilesat.a $(make -s print-libs) -o build/bench-anneal
# a 4-tile rule set: the coast sample with a deep sea (D) below the sea
cat > build/anneal4.txt <<'SAMPLE'
LLLLLLLLLL
LLLLLLLLLL
LLLLLCLLCC
LLLLCSCCSS
LLLCSSSSSS
LLCSSSDSSS
LCSSSDDDSS
CSSSDDDDDS
SSSDDDDDDD
SSDDDDDDDD
SAMPLE
build/tilesat extract build/anneal4.txt -o build/anneal4.rules
B=build/bench-anneal
SEEDS=100
[ "${QUICK:-0}" = 1 ] && SEEDS=10
echo "tilesat anneal bench: $(date -u '+%Y-%m-%d %H:%M') on $(nproc) cores, one used"
echo "site updates per second (heat-bath, fixed beta, 256x256, 50 sweeps):"
$B rate rules/coast.rules 256x256 50
$B rate build/anneal4.rules 256x256 50
$B rate rules/patchwork16.rules 256x256 50
echo "time to zero violations (hard rules only, $SEEDS seeds; the SAT clean-up"
echo "counted for seeds that annealing alone left with violations):"
# few sweeps plus a small clean-up, or 100-150 sweeps that mostly reach zero
# by annealing alone; 1000 is the command's default
$B zero rules/coast.rules 100x100 $SEEDS 100
$B zero rules/coast.rules 100x100 $SEEDS 1000
$B zero rules/patchwork16.rules 100x100 $SEEDS 60
$B zero rules/patchwork16.rules 100x100 $SEEDS 100
$B zero rules/patchwork16.rules 100x100 $SEEDS 150
$B zero rules/patchwork16.rules 100x100 $SEEDS 1000
if [ "${QUICK:-0}" != 1 ]; then
  $B zero rules/patchwork16.rules 1024x1024 1 60
  $B zero rules/patchwork16.rules 1024x1024 1 100
fi
echo "tile counts with a frequency term (1000 sweeps):"
$B counts rules/patchwork16.rules 20x20 10 1000
$B counts rules/patchwork16.rules 30x30 10 1000
$B counts rules/patchwork16.rules 100x100 3 1000
echo "global constraints (dungeon8: 9 tiles; rate at 256x256, 50 sweeps):"
printf 'tilesat-constraints 1\ncount # >= 0\n' > build/anneal-anycount.constraints
$B rate rules/dungeon8.rules 256x256 50
$B rate rules/dungeon8.rules 256x256 50 build/anneal-anycount.constraints
$B rate rules/dungeon8.rules 256x256 50 rules/dungeon8.constraints
$B zero rules/dungeon8.rules 64x64 10 300 rules/dungeon8.constraints
$B zero rules/dungeon8.rules 64x64 10 1000 rules/dungeon8.constraints
$B zero rules/dungeon8.rules 128x128 3 1000 rules/dungeon8.constraints
$B zero rules/entropy7.rules 7x7 10 1000 rules/entropy7.constraints
