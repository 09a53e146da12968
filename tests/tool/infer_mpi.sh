#!/bin/sh
# infer_mpi.sh OPENACL SRC CASE [PYTHON] - offline inference sharded under
# mpirun (docs/infer.md "Under mpirun", docs/python.md): the shapes model over
# its 12 pictures, as one run and as a job of N ranks.
#   c_N         `openacl infer --recipe classify`: -n N writes the single run's
#               files (names and bytes); rank 0's summary counts all 12
#   c_fail_run  a picture in the last rank's share is not one: that rank's
#               error, a non-zero exit, in bounded time
#   c_fail_load one rank (mpirun's a:b form) cannot load its model: every rank
#               stops before running, non-zero exit
#   py_N        `python3 -m openacl.infer`: the single run's stdout, files and
#               results.json; rank 0's summary counts all 12
#   py_fail     as c_fail_run (MPI_Abort)
# Exit 77 (skipped) without mpirun, or for py_* without mpi4py.
set -eu
tool=$1
src=$2
case=$3
py=${4:-/usr/bin/python3}
command -v mpirun > /dev/null 2>&1 || { echo "mpirun not found: skipped"; exit 77; }
model=$src/models/shapes/shapes.onnx
images=$src/models/shapes/images
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "infer_mpi.sh $case: $*" >&2
  for f in "$work"/*.txt; do
    [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }
  done
  exit 1
}

export OPENACL_SHARED_DEVICE_NAME="infer_mpi_$case"
export HCCL_EXEC_TIMEOUT=30 HCCL_CONNECT_TIMEOUT=30
# loopback only, no cross-process copies (as tests/hccl/run_hccl.sh)
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=false
mpirun_n() { timeout 60 mpirun --allow-run-as-root --oversubscribe --bind-to none "$@"; }

# a copy of the pictures with one that is not a picture, sorted last
bad_inputs() {
  mkdir "$work/bad"
  cp "$images"/* "$work/bad/"
  echo "not a picture" > "$work/bad/zz_bad.png"
}

# runs "$@", failing the case unless it exits non-zero within 30 s
expect_stop() {
  start=$(date +%s)
  if "$@" > "$work/job.txt" 2>&1; then
    fail "the job succeeded"
  fi
  took=$(($(date +%s) - start))
  [ "$took" -lt 30 ] || fail "the job took $took s to stop"
}

case $case in
c_[0-9])
  n=${case#c_}
  "$tool" infer --model "$model" --input "$images" --recipe classify --loop 2 --output "$work/one" \
    > "$work/one.txt" 2>&1 || fail "single run failed"
  mpirun_n -n "$n" "$tool" infer --model "$model" --input "$images" --recipe classify --loop 2 \
    --output "$work/job" --summary-json "$work/job.json" > "$work/job.txt" 2>&1 || fail "mpirun -n $n failed"
  [ "$(ls "$work/one" | wc -l)" -eq 12 ] || fail "the single run wrote $(ls "$work/one" | wc -l) files, not 12"
  diff -r "$work/one" "$work/job" > "$work/diff.txt" 2>&1 || fail "the outputs differ"
  [ "$(grep -c '^job ' "$work/job.txt")" -eq 1 ] || fail "not one summary"
  grep -q "^job  *$n ranks, 12 executions of 12 items split between them, 24 runs in all" "$work/job.txt" ||
    fail "the summary does not count 12 executions on $n ranks"
  grep -q '^throughput  *[0-9.]* items/s' "$work/job.txt" || fail "no throughput line"
  [ "$(grep -cE '^ +[0-9]+ +0 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$work/job.txt")" -eq "$n" ] ||
    fail "not one row per rank"
  grep -q "\"ranks\": $n," "$work/job.json" || fail "--summary-json lacks the ranks"
  grep -q '"items": 12,' "$work/job.json" || fail "--summary-json lacks the items"
  ;;
c_fail_run)
  bad_inputs
  expect_stop mpirun_n -n 3 "$tool" infer --model "$model" --input "$work/bad" --recipe classify --loop 50 --quiet
  grep -q "openacl: rank 2: error: .*zz_bad.png: not a JPEG or PNG file" "$work/job.txt" ||
    fail "no error from rank 2"
  ;;
c_fail_load)
  args="--input $images --recipe classify --quiet"
  # shellcheck disable=SC2086
  expect_stop mpirun_n -n 1 "$tool" infer --model "$model" $args : -n 1 "$tool" infer --model "$work/missing.onnx" \
    $args : -n 1 "$tool" infer --model "$model" $args
  grep -q "openacl: rank 1: error: loading model '.*missing.onnx'" "$work/job.txt" || fail "no error from rank 1"
  grep -q "openacl: rank 0: error: rank 1 failed before running" "$work/job.txt" || fail "rank 0 did not say why it stopped"
  ;;
py_[0-9] | py_fail)
  "$py" -c "import mpi4py" 2> /dev/null || { echo "$py lacks mpi4py (python3-mpi4py): skipped"; exit 77; }
  if [ "$case" = py_fail ]; then
    bad_inputs
    expect_stop mpirun_n -n 3 "$py" -m openacl.infer --model "$model" --input "$work/bad"
    grep -q "openacl.infer: rank 2: error: .*zz_bad.png: not a JPEG or PNG file" "$work/job.txt" ||
      fail "no error from rank 2"
    exit 0
  fi
  n=${case#py_}
  "$py" -m openacl.infer --model "$model" --input "$images" --output "$work/one" > "$work/one.txt" 2> "$work/one_err.txt" ||
    fail "single run failed"
  mpirun_n -n "$n" "$py" -m openacl.infer --model "$model" --input "$images" --output "$work/job" \
    > "$work/job.txt" 2> "$work/job_err.txt" || fail "mpirun -n $n failed"
  cmp "$work/one.txt" "$work/job.txt" > "$work/diff.txt" 2>&1 || fail "stdout differs from the single run's"
  [ -f "$work/job/results.json" ] || fail "no results.json"
  diff -r "$work/one" "$work/job" > "$work/diff.txt" 2>&1 || fail "the outputs differ"
  [ "$(grep -c 'openacl.infer: [0-9]* files' "$work/job_err.txt")" -eq 1 ] || fail "not one summary"
  grep -q "^openacl.infer: 12 files in 12 executions on $n ranks" "$work/job_err.txt" ||
    fail "the summary does not count 12 files on $n ranks"
  [ "$(grep -c '^openacl.infer:   rank [0-9]*: device 0, [0-9]* files' "$work/job_err.txt")" -eq "$n" ] ||
    fail "not one line per rank"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "infer_mpi.sh $case: ok"
