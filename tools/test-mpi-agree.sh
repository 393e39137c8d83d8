#!/bin/sh
# tools/test-mpi-agree.sh TILESAT TILESAT_MPI [CASES]: the differential test
# of tilesat-mpi against `tilesat count` (make check-mpi, run by make test).
# Random small problems (seeded, the same every run): random rules of 2 to
# 4 tiles, square or hex, open or periodic, with pins, a mask, a global
# constraint of each kind in turn (count, connected, path, border, from
# the command line or a constraints file) and --by-tile (of a tile, or of a
# class the constraints file names), each on 1, 2 or 3
# ranks by --parts, --shard or neither.  tilesat-mpi must print what count
# prints (every line, with --by-tile the distribution too), or refuse as
# count refuses (the same message, exit 1).  The one refusal of its own it
# may give is --parts on a constraint the parts cannot keep, naming it.
set -eu
bin=$1
mpi=$2
cases=${3:-24}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shared memory between the ranks of this one machine: mpirun starts them
# in half the time it takes probing every transport
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# make_case SEED: $tmp/r.rules, $tmp/mask, $tmp/c.constraints, and the
# arguments on stdout (one line)
make_case() {
  awk -v seed="$1" -v dir="$tmp" 'BEGIN {
    srand(seed)
    hex = rand() < 0.3
    n = 2 + int(rand() * 3)
    w = 2 + int(rand() * 3); h = 2 + int(rand() * 2)
    split("a b c d", name, " ")
    f = dir "/r.rules"
    printf "tilesat-rules 1\ntopology %s\n", hex ? "hex" : "square" > f
    for (t = 1; t <= n; t++) printf "tile %s %d\n", name[t], 1 + int(rand() * 5) > f
    # each pair allowed with probability 0.7, written from both sides
    if (hex) { nd = 3; split("E SE SW", d, " "); split("W NW NE", o, " ") }
    else { nd = 2; split("E S", d, " "); split("W N", o, " ") }
    for (k = 1; k <= nd; k++)
      for (a = 1; a <= n; a++)
        for (b = 1; b <= n; b++)
          if (rand() < 0.7 || a == b) {
            printf "allow %s %s %s\n", name[a], d[k], name[b] > f
            printf "allow %s %s %s\n", name[b], o[k], name[a] > f
          }
    close(f)
    args = sprintf("%s --size %dx%d", f, w, h)
    if (rand() < 0.3) args = args " --periodic"
    if (rand() < 0.4)
      args = args sprintf(" --pin %d,%d=%s", int(rand() * h), int(rand() * w), name[1 + int(rand() * n)])
    if (rand() < 0.25) {
      m = dir "/mask"
      for (y = 0; y < h; y++) {
        line = ""
        for (x = 0; x < w; x++) line = line (rand() < 0.15 ? "#" : ".")
        print line > m
      }
      close(m)
      args = args " --mask " m
    }
    kind = seed % 6
    cls = name[1 + int(rand() * n)]
    if (kind == 0) args = args sprintf(" --count %s=%d", cls, int(rand() * 4))
    if (kind == 1) args = args " --connected " cls
    if (kind == 2) args = args sprintf(" --path 0,0:%d,%d=%s", h - 1, w - 1, cls)
    if (kind == 3) args = args " --border " (rand() < 0.5 ? "all" : "nw") "=" cls
    if (kind == 4) {
      c = dir "/c.constraints"
      print "tilesat-constraints 1" > c
      printf "class pair %s %s\n", name[1], name[2] > c
      # (without a constraint in half of them: the parts keep a class)
      if (rand() < 0.5) printf "count %s <= %d\n", cls, 1 + int(rand() * 3) > c
      close(c)
      args = args " --constraints " c " --by-tile pair"
    }
    else if (rand() < 0.3) args = args " --by-tile " name[1 + int(rand() * n)]
    print args
  }'
}

# the refusal: the first "tilesat: " line (mpirun adds its own lines)
said() { grep -m 1 '^tilesat: ' "$1" | sed 's/^tilesat: //' || true; }

fails=0 agree=0 refused=0 own=0
i=1
while [ "$i" -le "$cases" ]; do
  args=$(make_case "$i")
  np=$((1 + i % 3))
  case $(((i + i / 6) % 3)) in
  0) mode="--parts 5" ;;
  1) mode="--shard" ;;
  *) mode="" ;;
  esac
  # shellcheck disable=SC2086
  "$bin" count $args >"$tmp/want" 2>"$tmp/want.err" && wrc=0 || wrc=$?
  # shellcheck disable=SC2086
  mpirun -np "$np" --oversubscribe "$mpi" $mode $args >"$tmp/got" \
    2>"$tmp/got.err" && grc=0 || grc=$?
  want=$(said "$tmp/want.err") got=$(said "$tmp/got.err")
  if [ "$wrc" -eq 0 ] && [ "$grc" -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
    agree=$((agree + 1))
  elif [ "$wrc" -ne 0 ] && [ "$grc" -ne 0 ] && [ "$want" = "$got" ]; then
    refused=$((refused + 1))
  elif [ "$grc" -ne 0 ] && [ "$mode" = "--parts 5" ] &&
    echo "$got" | grep -q '^tilesat-mpi --parts cannot keep .*; tilesat-mpi --shard (or without --parts) keeps it$'; then
    own=$((own + 1))
  else
    echo "mpi agree: FAILED case $i ($np ranks, ${mode:-default}): count $args"
    echo "  count: exit $wrc: $(tail -n 1 "$tmp/want") $want"
    echo "  tilesat-mpi: exit $grc: $(tail -n 1 "$tmp/got") $got"
    fails=$((fails + 1))
  fi
  i=$((i + 1))
done
echo "mpi agree: $cases random problems: $agree answers as count, $refused refused as count, $own refused by --parts naming the constraint"
[ "$fails" -eq 0 ] && [ "$agree" -ge $((cases / 3)) ]
