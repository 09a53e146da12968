#!/bin/sh
# bench/hccl/run.sh [BUILD] - bench_hccl (HCCL collectives against plain MPI)
# with each rank count of NS, REPEAT times, then one table: per operator,
# size and rank count the median and minimum time of each side over the
# runs, the ratio of the medians (hccl / mpi: below 1 is faster) and the
# bus bandwidth of the medians.  Issue 15's goals: bus bandwidth >= 0.9 x
# MPI's from 1 MiB, and small messages within 10 us of MPI.
#   NS="2 4" (rank counts; --oversubscribe past the cores), REPEAT=5,
#   ITERS=20 (operations per timing), SIZES=8,4K,256K,1M,16M (bench_hccl -s:
#   the issue's whole range is 8,4K,64K,256K,1M,4M,16M,64M,256M),
#   OPS (bench_hccl -o, default all)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${1:-$src/build}
bin=$build/bench/bench_hccl
NS=${NS:-"2 4"}
REPEAT=${REPEAT:-5}
ITERS=${ITERS:-20}
SIZES=${SIZES:-8,4K,256K,1M,16M}
OPS=${OPS:-allreduce,allgather,reducescatter,broadcast,alltoall}
[ -x "$bin" ] || { echo "run.sh: no $bin (build first, or give the build folder)" >&2; exit 1; }
command -v mpirun > /dev/null || { echo "run.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
export OPENACL_SHARED_DEVICE_NAME="bench_hccl_$$"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for n in $NS; do
  i=0
  while [ "$i" -lt "$REPEAT" ]; do
    mpirun --allow-run-as-root --oversubscribe --bind-to none -n "$n" "$bin" "$ITERS" -s "$SIZES" -o "$OPS" \
      > "$work/out.txt" 2>&1 || { cat "$work/out.txt" >&2; exit 1; }
    # rows: op bytes hccl_us mpi_us ratio hccl_busbw mpi_busbw
    awk -v n="$n" '$2 ~ /^[0-9]+$/ && NF == 7 { print n, $1, $2, $3, $4 }' "$work/out.txt" >> "$work/rows.txt"
    i=$((i + 1))
  done
done

# per (n, op, bytes): median and min of each side; bus bandwidth of the
# medians, as bench_hccl counts it (nccl-tests' factors).
sort -k1,1n -k2,2 -k3,3n "$work/rows.txt" | awk '
function median(a, k,   i, j, t) {
  for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function flush() {
  if (k == 0) return
  mh = median(h, k); mm = median(m, k)
  printf "| %d | %s | %s | %.1f / %.1f | %.1f / %.1f | %.2f | %.3f | %.3f |\n", key_n, key_op, key_b, mh, h[1], mm,
         m[1], mh / mm, moved / mh * 1e-3, moved / mm * 1e-3
  k = 0
}
BEGIN {
  print "| ranks | op | bytes | hccl us (median / min) | mpi us (median / min) | ratio | hccl busbw GB/s | mpi busbw GB/s |"
  print "|---:|---|---:|---:|---:|---:|---:|---:|"
}
{
  if ($1 != key_n || $2 != key_op || $3 != key_b) { flush(); key_n = $1; key_op = $2; key_b = $3 }
  k++; h[k] = $4; m[k] = $5
  moved = $2 == "allreduce" ? 2 * ($1 - 1) / $1 * $3 : $2 == "broadcast" ? $3 : ($1 - 1) / $1 * $3
}
END { flush() }'
