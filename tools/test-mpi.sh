#!/bin/sh
# tools/test-mpi.sh TILESAT TILESAT_MPI: the MPI driver on this one machine
# (make check-mpi, run by make test): 3 ranks (a master, two workers), more
# parts than workers, each total against `tilesat count` of the same map in
# one process; the sharded dp (--shard) on 2, 3 and 4 ranks against count
# --method dp and enum, with rounds of exchange mid-step (small outboxes)
# and past the memory bound; a bad argument said once, exit 1; a write
# error on standard output said, exit 1; Ctrl-C to the parts and to
# --shard said, exit 1.
set -eu
bin=$1
mpi=$2
# Open MPI refuses root without these, and more ranks than cores without
# --oversubscribe (the test machine has 2 cores).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() { mpirun -np 3 --oversubscribe "$mpi" "$@"; }

fails=0
check() { # check NAME PARTS ARGS...: the driver's total is count's
  name=$1
  parts=$2
  shift 2
  want=$("$bin" count "$@" | tail -n 1)
  if [ "$parts" = default ]; then
    got=$(run "$@" 2>/dev/null | tail -n 1) || got="exit $?"
  else
    got=$(run --parts "$parts" "$@" 2>/dev/null | tail -n 1) || got="exit $?"
  fi
  if [ "$got" = "$want" ]; then
    echo "mpi: $name: $got, as count"
  else
    echo "mpi: $name: FAILED: $got, count says $want"
    fails=$((fails + 1))
  fi
}

check "coast 12x12 pinned, 16 parts" default rules/coast.rules --size 12x12 \
  --pin 3,3=C
check "dungeon8 5x4 periodic, 40 parts" 40 rules/dungeon8.rules --size 5x4 \
  --periodic
check "coast-hex 5x4 by enum, 24 parts" 24 rules/coast-hex.rules --size 5x4 \
  --method enum
# --by-tile of a class a constraints file names: the parts' maps keep no
# class of their own (it was refused, "unknown tile or class 'land'")
cls=$(mktemp)
printf 'tilesat-constraints 1\nclass land L C\n' >"$cls"
check "coast 3x3 by the class land, 8 parts" 8 rules/coast.rules --size 3x3 \
  --constraints "$cls" --by-tile land

# --shard: one dp whose states the ranks share, against the dp and enum in
# one process (square, hex, periodic, pins, count and connected constraints,
# a mask)
shard() { # shard NAME NP ARGS...
  name=$1
  np=$2
  shift 2
  want=$("$bin" count "$@" --method dp | tail -n 1)
  en=$("$bin" count "$@" --method enum | tail -n 1)
  got=$(mpirun -np "$np" --oversubscribe "$mpi" --shard "$@" 2>/dev/null |
    tail -n 1) || got="exit $?"
  if [ "$got" = "$want" ] && [ "$en" = "$want" ]; then
    echo "mpi: --shard $name on $np ranks: $got, as dp and enum"
  else
    echo "mpi: --shard $name on $np ranks: FAILED: $got, dp $want, enum $en"
    fails=$((fails + 1))
  fi
}
tmp=$(mktemp -d)
printf '....\n.#..\n....\n..#.\n....\n' >"$tmp/mask"
shard "coast 6x6 pinned" 3 rules/coast.rules --size 6x6 --pin 2,2=C
shard "coast 7x5" 2 rules/coast.rules --size 7x5
shard "coast-hex 5x4" 4 rules/coast-hex.rules --size 5x4
shard "dungeon8 3x3 periodic" 4 rules/dungeon8.rules --size 3x3 --periodic
shard "coast 5x4 land connected" 3 rules/coast.rules --size 5x4 \
  --connected L
shard "coast 4x5 masked, 6 land" 4 rules/coast.rules --size 4x5 \
  --mask "$tmp/mask" --count L=6
rm -rf "$tmp"

# A small memory bound makes the outboxes small (a 64th of it): rounds of
# exchange then come mid-step as well as at each step's end, on 2 and 3
# ranks; the count is the dp's.  A bound the frontier outgrows stops every
# rank, said once.
want=$("$bin" count rules/dungeon8.rules --size 6x6 --method dp | tail -n 1)
for np in 2 3; do
  err=$(mktemp)
  got=$(TILESAT_PROGRESS=all mpirun -np $np --oversubscribe \
    -x TILESAT_PROGRESS "$mpi" --shard rules/dungeon8.rules --size 6x6 \
    --max-memory 1M 2>"$err" | tail -n 1) || got="exit $?"
  rounds=$(sed -n 's/.*36 steps, \([0-9]*\) rounds.*/\1/p' "$err")
  if [ "$got" = "$want" ] && [ "${rounds:-0}" -gt 36 ]; then
    echo "mpi: --shard dungeon8 6x6 on $np ranks, outboxes of 16 KiB: $got in $rounds rounds, as dp"
  else
    echo "mpi: --shard dungeon8 6x6 on $np ranks: FAILED: $got in ${rounds:-no} rounds, dp $want"
    fails=$((fails + 1))
  fi
  rm -f "$err"
done
err=$(mktemp)
mpirun -np 3 --oversubscribe "$mpi" --shard rules/dungeon8.rules --size 7x6 \
  --periodic --max-memory 1M >/dev/null 2>"$err" && rc=0 || rc=$?
said=$(grep -c '^tilesat: count: the frontier outgrew --max-memory 1 MiB' "$err" || true)
if [ "$rc" -ne 0 ] && [ "$said" -eq 1 ]; then
  echo "mpi: --shard past the memory bound: exit $rc, said once"
else
  echo "mpi: --shard past the memory bound: FAILED: exit $rc, said $said times"
  fails=$((fails + 1))
fi
rm -f "$err"

# a bad argument: exit 1, said once (by rank 0), nothing on stdout
tmp=$(mktemp -d)
out=$(run --parts 0 rules/coast.rules --size 3x3 2>"$tmp/err") && rc=0 || rc=$?
said=$(grep -c '^tilesat: ' "$tmp/err" || true)
msg=$(grep '^tilesat: ' "$tmp/err" || true)
rm -rf "$tmp"
if [ "$rc" -ne 0 ] && [ "$said" -eq 1 ] && [ -z "$out" ] &&
  [ "$msg" = "tilesat: --parts: '0' is not a whole number from 1 to 1000000" ]; then
  echo "mpi: a bad argument: exit $rc, said once"
else
  echo "mpi: a bad argument: FAILED: exit $rc, said $said times: $msg"
  fails=$((fails + 1))
fi
# refusals said once, before any work, exit 1, nothing on stdout: -o
# naming an input (it overwrote the rules), and "-" on more than one rank
# (standard input reaches rank 0 alone: the others read nothing)
refused() { # refused NAME MESSAGE ARGS...
  name=$1
  want=$2
  shift 2
  t=$(mktemp -d)
  run "$@" >"$t/out" 2>"$t/err" </dev/null && rc=0 || rc=$?
  msg=$(grep '^tilesat: ' "$t/err" || true)
  if [ "$rc" -ne 0 ] && [ ! -s "$t/out" ] && [ "$msg" = "$want" ]; then
    echo "mpi: $name: exit $rc, said once"
  else
    echo "mpi: $name: FAILED: exit $rc: $msg"
    fails=$((fails + 1))
  fi
  rm -rf "$t"
}
rules=$(mktemp)
cp rules/coast.rules "$rules"
refused "-o naming the rules" \
  "tilesat: -o: $rules is also an input of this command; refusing to overwrite it" \
  -o "$rules" "$rules" --size 3x3
cmp -s "$rules" rules/coast.rules || {
  echo "mpi: -o naming the rules: FAILED: the rules were overwritten"
  fails=$((fails + 1))
}
rm -f "$rules"
refused "--pins-from - on 3 ranks" \
  "tilesat: --pins-from: - (standard input) reaches rank 0 alone under mpirun: give a file every rank can read" \
  --shard rules/coast.rules --size 3x3 --pins-from -

# standard output on a full device (a private node, never /dev/full): the
# total lost is an error, said once, exit 1 (it used to exit 0).  One rank
# without mpirun, whose standard output is the device itself (mpirun's
# forwarding does not report a write error to the ranks).
tmp=$(mktemp -d)
if mknod "$tmp/full" c 1 7 2>/dev/null; then
  "$mpi" rules/coast.rules --size 3x3 >"$tmp/full" 2>"$tmp/err" && rc=0 || rc=$?
  msg=$(grep '^tilesat: ' "$tmp/err" || true)
  if [ "$rc" -eq 1 ] &&
    [ "$msg" = "tilesat: write error on standard output: No space left on device" ]; then
    echo "mpi: a full standard output: exit 1, said once"
  else
    echo "mpi: a full standard output: FAILED: exit $rc: $msg"
    fails=$((fails + 1))
  fi
  # under mpirun the answer goes to -o FILE, its write checked there: the
  # same device, exit 1, said once (on stdout through mpirun, the total
  # would be lost and the run exit 0)
  run -o "$tmp/full" rules/coast.rules --size 3x3 >"$tmp/out" 2>"$tmp/err" &&
    rc=0 || rc=$?
  msg=$(grep '^tilesat: ' "$tmp/err" || true)
  if [ "$rc" -ne 0 ] && [ ! -s "$tmp/out" ] &&
    [ "$msg" = "tilesat: $tmp/full: write error: No space left on device" ]; then
    echo "mpi: -o on a full device under mpirun: exit $rc, said once"
  else
    echo "mpi: -o on a full device under mpirun: FAILED: exit $rc: $msg"
    fails=$((fails + 1))
  fi
  run -o "$tmp/total" --shard rules/coast.rules --size 3x3 >"$tmp/out" \
    2>"$tmp/err"
  want=$("$bin" count rules/coast.rules --size 3x3)
  if [ "$(cat "$tmp/total")" = "$want" ] && [ ! -s "$tmp/out" ] &&
    [ "$(cat "$tmp/err")" = "tilesat: wrote $tmp/total" ]; then
    echo "mpi: -o FILE: $want there, as count, nothing on stdout, its name on stderr"
  else
    echo "mpi: -o FILE: FAILED: $(cat "$tmp/total"), count $want"
    fails=$((fails + 1))
  fi
else
  echo "mpi: a full standard output: skipped (mknod needs root)"
fi

# Ctrl-C to mpirun (which sends the ranks SIGTERM): "interrupted", said
# once, exit 1, nothing on stdout (it used to exit 1 in silence), for the
# parts and for --shard (whose ranks then agree to stop in their next
# round of exchange).  mpirun itself in the background ($! its pid), on a
# count of minutes.  The signal goes once the three ranks run (on a loaded
# machine mpirun may still be launching them after 3 s).
interrupt() { # interrupt NAME ARGS...
  name=$1
  shift
  mpirun -np 3 --oversubscribe "$mpi" "$@" >"$tmp/out" 2>"$tmp/err" &
  job=$!
  for _ in $(seq 120); do
    [ "$(pgrep -c -P "$job" tilesat-mpi)" -ge 3 ] && break
    sleep 0.5
  done
  sleep 1
  kill -INT "$job"
  # Open MPI 4.1's mpirun now and then (1 run in 25 to 60 here) leaves its
  # ranks, ended as they should, unreaped (zombies) and waits for ever; a
  # second SIGINT does not help, and SIGTERM not always.  So once every
  # rank has ended, and mpirun has not after 10 s, it is killed, said so,
  # and its exit code (lost with it) is not checked: what tilesat does (the
  # ranks ended, "interrupted" said once, nothing on stdout) still is.  A
  # rank still running after 60 s is tilesat's fault: the case fails.
  killed=0
  for tenth in $(seq 600); do
    kill -0 "$job" 2>/dev/null || break
    if [ "$tenth" -ge 100 ] && ended; then
      echo "mpi: Ctrl-C $name: the ranks ended, mpirun did not reap them (Open MPI): killed"
      kill -KILL "$job"
      killed=1
      break
    fi
    sleep 0.1
  done
  if kill -0 "$job" 2>/dev/null && [ "$killed" = 0 ]; then
    echo "mpi: Ctrl-C $name: a rank still running after 60 s: killed"
    pkill -KILL -P "$job" tilesat-mpi
    kill -KILL "$job"
  fi
  wait "$job" && rc=0 || rc=$?
  [ "$killed" = 1 ] && rc=1
  msg=$(grep '^tilesat: ' "$tmp/err" | grep -v '^tilesat: dp: ' || true)
  if [ "$rc" -eq 1 ] && [ "$msg" = "tilesat: count: interrupted" ] &&
    [ ! -s "$tmp/out" ]; then
    echo "mpi: Ctrl-C $name: exit 1, interrupted"
  else
    echo "mpi: Ctrl-C $name: FAILED: exit $rc: $msg; stdout: $(head -c 80 "$tmp/out")"
    # mpirun's own words (which rank ended how) for the next look
    tail -n 20 "$tmp/err" | sed 's/^/  | /'
    fails=$((fails + 1))
  fi
}
ended() { ! ps -o stat= --ppid "$job" | grep -qv '^Z'; }
interrupt "(parts)" rules/dungeon8.rules --size 10x10
interrupt "(--shard)" --shard rules/dungeon8.rules --size 12x12
rm -rf "$tmp" "$cls"
[ "$fails" -eq 0 ]
