#!/bin/sh
# tools/bench-shard.sh: one dp over MPI ranks (tilesat-mpi --shard, issue
# 24) against one process (count --method dp), side by side in one run:
# wall time, each rank's CPU time and peak resident memory (the largest
# over the ranks), and their ratios to one process.  Targets: 2 ranks on
# the 2-core machine at least 1.6x faster than one process, each rank's
# peak memory at most 0.6x; 4 ranks printed for a larger machine (on 2
# cores their wall time says little, their CPU and memory a rank do).
# The machine is shared and noisy: every run is repeated SHARD_REPEAT
# times (default 3), the runs of one round back to back, and each figure
# is the median over the rounds; the ratios are medians of each round's
# own ratios.  SHARD_RULES and SHARD_SIZE pick the map (default Circuit
# 6x6, whole); SHARD_RANKS the rank counts (default "1 2 4").
set -eu
cd "$(dirname "$0")/.."
rules=${SHARD_RULES:-build/circuit.rules}
size=${SHARD_SIZE:-6x6}
ranks=${SHARD_RANKS:-1 2 4}
repeat=${SHARD_REPEAT:-3}
[ -r "$rules" ] || build/tilesat import-tileset \
  tests/data/wfc/tilesets/Circuit.xml -o "$rules" 2>/dev/null
# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the wall time of a command, its standard output to $tmp/NAME.out
timed() { # timed NAME COMMAND...
  name=$1
  shift
  start=$(date +%s.%N)
  "$@" >"$tmp/$name.out" 2>/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "one dp over MPI ranks: $(date -u '+%Y-%m-%d %H:%M'), $(nproc) cores, $rules $size, median of $repeat rounds"
# each round: one process, then each rank count; a row per run in
# $tmp/ROW: "wall cpu kib speedup cpu-ratio memory-ratio"
for round in $(seq "$repeat"); do
  wall=$(timed one /usr/bin/time -o "$tmp/rank.one" -f '%U %S %M' \
    build/tilesat count "$rules" --size "$size" --method dp)
  read -r u s kb <"$tmp/rank.one"
  one_cpu=$(echo "$u + $s" | bc) one_kb=$kb one_wall=$wall
  echo "$wall $one_cpu $kb 1 1 1" >>"$tmp/row.one"
  for np in $ranks; do
    rm -f "$tmp"/rank.r*
    wall=$(timed np$np mpirun -np "$np" --oversubscribe sh -c \
      '/usr/bin/time -o "$0.$OMPI_COMM_WORLD_RANK" -f "%U %S %M" "$@"' \
      "$tmp/rank.r" build/tilesat-mpi --shard "$rules" --size "$size")
    worst=$(cat "$tmp"/rank.r.* | awk '{ c = $1 + $2; if (c > cpu) cpu = c;
      if ($3 > kb) kb = $3 } END { print cpu, kb }')
    cpu=${worst% *} kb=${worst#* }
    echo "$wall $cpu $kb $(echo "$one_wall / $wall" | bc -l)" \
      "$(echo "$cpu / $one_cpu" | bc -l) $(echo "$kb / $one_kb" | bc -l)" \
      >>"$tmp/row.np$np"
    [ "$(tail -n 1 "$tmp/np$np.out")" = "$(tail -n 1 "$tmp/one.out")" ] ||
      echo "bench-shard: $np ranks counted $(tail -n 1 "$tmp/np$np.out")," \
        "one process $(tail -n 1 "$tmp/one.out")" >&2
  done
done
col() { cut -d' ' -f"$1" "$tmp/row.$2" | median; }
printf '%-22s %8s %10s %10s %8s %8s %8s  %s\n' run "wall s" "CPU s/rank" \
  "MiB/rank" speedup "CPU x" "mem x" count
for row in one $(for np in $ranks; do echo "np$np"; done); do
  case $row in
  one) name="one process" ;;
  *) name="--shard, ${row#np} rank(s)" ;;
  esac
  printf '%-22s %8.1f %10.1f %10.0f %8.2f %8.2f %8.2f  %s\n' "$name" \
    "$(col 1 "$row")" "$(col 2 "$row")" "$(($(col 3 "$row") / 1024))" \
    "$(col 4 "$row")" "$(col 5 "$row")" "$(col 6 "$row")" \
    "$(tail -n 1 "$tmp/$row.out")"
done
echo "speedup of 2 ranks, each round: $(cut -d' ' -f4 "$tmp/row.np2" 2>/dev/null |
  xargs printf '%.2f ')"
