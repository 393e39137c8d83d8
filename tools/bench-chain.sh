#!/bin/sh
# Beyond the exact dp (issue 14): the block chain (sample --method chain)
# and the sequential Monte Carlo estimate (count --method estimate), CPU
# time of one process on a shared machine.  Targets:
#   10 uniform-in-the-limit samples of a 64x64 Circuit map under 10 s, and
#   of 512x512 under a minute (512x512: a few sweeps measured, the rest
#   extrapolated, as the whole run takes tens of minutes);
#   the estimate's 95% half width at most 1% of log10 of the count for
#   32x32 and 128x128 maps of Knots, Circuit, Castle and Rooms, each in
#   under a minute;
#   where the dp knows the count, the estimate within its error bar in at
#   least 18 of 20 seeds.
set -eu
cd "$(dirname "$0")/.."
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Isrc tools/bench-chain.c \
  build/libtilesat-io.a build/libtilesat.a $(make -s print-libs) \
  -o build/bench-chain
W=tests/data/wfc/tilesets
echo "chain bench: $(date -u '+%Y-%m-%d %H:%M'), one core, CPU time"
build/bench-chain chain $W/Circuit.xml 64x64 10 0
build/bench-chain chain $W/Circuit.xml 512x512 10 2
echo
build/bench-chain estimate $W/Knots.xml 32x32 $W/Knots.xml 128x128 \
  $W/Circuit.xml 32x32 $W/Circuit.xml 128x128 \
  $W/Castle.xml 32x32 $W/Castle.xml 128x128 \
  $W/Rooms.xml 32x32 $W/Rooms.xml 128x128
echo
build/tilesat extract rules/dungeon8.txt --topology hex -o build/dungeon8-hex.rules
build/bench-chain calibrate 20 $W/Knots.xml 10x10 - $W/Knots.xml 8x8p - \
  $W/Castle.xml 6x6 - $W/Castle.xml 6x6 '2,2=wall 0' $W/Castle.xml 5x5p - \
  $W/Rooms.xml 8x8 - $W/Rooms.xml 6x4p - $W/Circuit.xml 5x5 - \
  $W/Circuit.xml 16x3 - rules/dungeon8.rules 8x8 - \
  build/dungeon8-hex.rules 6x6 - build/dungeon8-hex.rules 6x4p '2,2=#' \
  rules/coast-hex.rules 8x8 -
