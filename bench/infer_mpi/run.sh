#!/bin/sh
# bench/infer_mpi/run.sh [BUILD] - sharded offline inference throughput:
# `mpirun -n N openacl infer` with each rank bound to one core, against N
# times one rank's throughput on one core (issue 15's goal: ratio >= 0.9).
#
# The work: the shapes model (models/shapes) over its 12 pictures with the
# classify recipe, each picture run LOOP times; throughput is what rank 0's
# job summary prints, items run / the slowest rank's wall time (decoding,
# copies, executions and output files included), so both sides are measured
# alike: the one-core side is `mpirun -n 1` with the same binding.  A third
# side tells the machine from the sharding: N independent one-rank runs at
# once, each pinned to its own core (taskset), their throughputs summed; on
# a VM whose cores share a physical core or a cache, that side loses too.
# Each side runs REPEAT times; the table shows the median and the minimum.
#   NS="1 2" (rank counts), LOOP=2000, REPEAT=5
# (LOOP 2000: each side runs ~2 s; with 200, a 0.2 s job, the start-up of the
# first executions cost the N-rank side ~10 %)
# Open MPI settings as the tests use them (loopback, no cross-process copies).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
tool=$build/openacl
NS=${NS:-"1 2"}
LOOP=${LOOP:-2000}
REPEAT=${REPEAT:-5}
[ -x "$tool" ] || { echo "run.sh: no $tool (build first, or give the build folder)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "run.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=false
export OPENACL_SHARED_DEVICE_NAME="bench_infer_mpi_$$"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one job of n ranks, one core each: prints its throughput (items/s)
job() {
  mpirun --allow-run-as-root --oversubscribe --bind-to core --map-by core -n "$1" "$tool" infer \
    --model "$src/models/shapes/shapes.onnx" --input "$src/models/shapes/images" --recipe classify \
    --loop "$LOOP" > "$work/out.txt" 2>&1 || { cat "$work/out.txt" >&2; exit 1; }
  sed -n 's/^throughput  *\([0-9.]*\) items\/s.*/\1/p' "$work/out.txt"
}

# n independent one-rank runs at the same time, run i on core i: prints
# their summed throughput.  They look like `mpirun -n 1` to the tool (the
# launcher's variables), so they report the same figure.
apart() {
  core=0
  while [ "$core" -lt "$1" ]; do
    OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 taskset -c "$core" "$tool" infer \
      --model "$src/models/shapes/shapes.onnx" --input "$src/models/shapes/images" --recipe classify \
      --loop "$LOOP" > "$work/apart$core.txt" 2>&1 &
    core=$((core + 1))
  done
  wait
  cat "$work"/apart*.txt | sed -n 's/^throughput  *\([0-9.]*\) items\/s.*/\1/p' | awk '{ s += $1 } END { print s }'
  rm -f "$work"/apart*.txt
}

# median and minimum of the numbers on stdin: "MEDIAN MIN"
med_min() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1] }'; }

echo "sharded openacl infer: shapes model, 12 pictures x $LOOP runs, classify recipe; $REPEAT runs per side"
echo "machine: $(nproc) cores, $(uname -m); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$REPEAT" ]; do
  job 1 >> "$work/one"
  i=$((i + 1))
done
set -- $(med_min < "$work/one")
one_med=$1
one_min=$2
printf '%-5s | %-22s | %-22s | %-22s | %-9s | %s\n' "ranks" "N ranks, items/s" "N x 1 rank, items/s" \
  "N runs at once, items/s" "ratio" "ratio to"
printf '%-5s | %-22s | %-22s | %-22s | %-9s | %s\n' "" "median / min" "median / min" "median / min" \
  "N/(Nx1)" "at once"
for n in $NS; do
  : > "$work/n$n"
  : > "$work/a$n"
  i=0
  while [ "$i" -lt "$REPEAT" ]; do
    job "$n" >> "$work/n$n"
    apart "$n" >> "$work/a$n"
    i=$((i + 1))
  done
  set -- $(med_min < "$work/n$n") $(med_min < "$work/a$n")
  printf '%-5s | %9.1f / %-10.1f | %9.1f / %-10.1f | %9.1f / %-10.1f | %-9.3f | %.3f\n' "$n" "$1" "$2" \
    "$(echo "$n * $one_med" | bc -l)" "$(echo "$n * $one_min" | bc -l)" "$3" "$4" \
    "$(echo "$1 / ($n * $one_med)" | bc -l)" "$(echo "$1 / $3" | bc -l)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
