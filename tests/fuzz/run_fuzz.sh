#!/bin/sh
# run_fuzz.sh [SECONDS] - builds openacl's libFuzzer targets with clang in their
# own build directory and runs them for SECONDS in all (default 60), split
# between fuzz_config (the acl.json reader) and fuzz_onnx (the ONNX loader).
#
# Environment: OPENACL_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# JOBS (parallel build jobs, default 2), CC (default clang).
# New inputs go to tests/fuzz/corpus-run/<target> (ignored by git); a crashing
# input is saved in the build directory's fuzz-artifacts/ and the script
# exits non-zero.
set -eu

usage() {
  echo "usage: run_fuzz.sh [SECONDS]" >&2
  exit 2
}
secs=${1:-60}
case $secs in
  ''|*[!0-9]*) usage ;;
esac
[ "$secs" -gt 0 ] || usage

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${OPENACL_FUZZ_BUILD_DIR:-$root/build-fuzz}
cc=${CC:-clang}

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" -DOPENACL_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target fuzz_config fuzz_onnx -j "${JOBS:-2}"

artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
onnx_secs=$((secs / 2))
[ "$onnx_secs" -gt 0 ] || onnx_secs=1
config_secs=$((secs - onnx_secs))
[ "$config_secs" -gt 0 ] || config_secs=1

# run_one TARGET SECONDS CORPUS [extra libFuzzer flags...]
run_one() {
  target=$1 t=$2 corpus=$3
  shift 3
  work=$root/tests/fuzz/corpus-run/$corpus
  mkdir -p "$work"
  echo "run_fuzz.sh: $target for ${t}s"
  # The first directory receives new inputs; the seed corpus is only read.
  "$build/tests/$target" \
    -max_total_time="$t" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" \
    "$work" "$root/tests/fuzz/corpus/$corpus"
  echo "run_fuzz.sh: $target found nothing in ${t}s"
}

run_one fuzz_config "$config_secs" config -dict="$root/tests/fuzz/config.dict"
run_one fuzz_onnx "$onnx_secs" onnx
