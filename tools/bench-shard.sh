#!/bin/sh
# tools/bench-shard.sh: one dp over MPI ranks (tilesat-mpi --shard, issue
# 24) against one process (count --method dp), side by side in one run:
# wall time, each rank's CPU time and peak resident memory (the largest
# over the ranks), and their ratios to one process.  Targets: 2 ranks on
# the 2-core machine at least 1.6x faster than one process, each rank's
# peak memory at most 0.6x; 4 ranks printed for a larger machine (on 2
# cores their wall time says little, their CPU and memory a rank do).
# SHARD_RULES and SHARD_SIZE pick the map (default Circuit 6x6, whole);
# SHARD_RANKS the rank counts (default "1 2 4").
set -eu
cd "$(dirname "$0")/.."
rules=${SHARD_RULES:-build/circuit.rules}
size=${SHARD_SIZE:-6x6}
[ -r "$rules" ] || build/tilesat import-tileset \
  tests/data/wfc/tilesets/Circuit.xml -o "$rules" 2>/dev/null
# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# each process's "CPU-seconds peak-KiB" to $tmp/rank.*, the wall time out
timed() { # timed NAME COMMAND...
  name=$1
  shift
  start=$(date +%s.%N)
  "$@" >"$tmp/$name.out" 2>/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
echo "one dp over MPI ranks: $(date -u '+%Y-%m-%d %H:%M'), $(nproc) cores, $rules $size"
printf '%-22s %8s %10s %10s %8s %8s %8s  %s\n' run "wall s" "CPU s/rank" \
  "MiB/rank" speedup "CPU x" "mem x" count
wall=$(timed one /usr/bin/time -o "$tmp/rank.one" -f '%U %S %M' \
  build/tilesat count "$rules" --size "$size" --method dp)
read -r u s kb <"$tmp/rank.one"
one_cpu=$(echo "$u + $s" | bc) one_kb=$kb one_wall=$wall
printf '%-22s %8.1f %10.1f %10.0f %8s %8s %8s  %s\n' "one process" "$wall" \
  "$one_cpu" "$((kb / 1024))" 1.00 1.00 1.00 "$(tail -n 1 "$tmp/one.out")"
for np in ${SHARD_RANKS:-1 2 4}; do
  rm -f "$tmp"/rank.r*
  wall=$(timed np$np mpirun -np "$np" --oversubscribe sh -c \
    '/usr/bin/time -o "$0.$OMPI_COMM_WORLD_RANK" -f "%U %S %M" "$@"' \
    "$tmp/rank.r" build/tilesat-mpi --shard "$rules" --size "$size")
  worst=$(cat "$tmp"/rank.r.* | awk '{ c = $1 + $2; if (c > cpu) cpu = c;
    if ($3 > kb) kb = $3 } END { print cpu, kb }')
  cpu=${worst% *} kb=${worst#* }
  printf '%-22s %8.1f %10.1f %10.0f %8.2f %8.2f %8.2f  %s\n' \
    "--shard, $np rank(s)" "$wall" "$cpu" "$((kb / 1024))" \
    "$(echo "$one_wall / $wall" | bc -l)" "$(echo "$cpu / $one_cpu" | bc -l)" \
    "$(echo "$kb / $one_kb" | bc -l)" "$(tail -n 1 "$tmp/np$np.out")"
done
