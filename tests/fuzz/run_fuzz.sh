#!/bin/sh
# run_fuzz.sh [SECONDS] - builds openacl's libFuzzer targets with clang in their
# own build directory and runs fuzz_config for SECONDS (default 60).
#
# Environment: OPENACL_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# JOBS (parallel build jobs, default 2), CC (default clang).
# New inputs go to tests/fuzz/corpus-run/config (ignored by git); a crashing
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
cmake --build "$build" --target fuzz_config -j "${JOBS:-2}"

work=$root/tests/fuzz/corpus-run/config
artifacts=$build/fuzz-artifacts
mkdir -p "$work" "$artifacts"

echo "run_fuzz.sh: fuzz_config for ${secs}s"
# The first directory receives new inputs; the seed corpus is only read.
"$build/tests/fuzz_config" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 \
  -dict="$root/tests/fuzz/config.dict" \
  -artifact_prefix="$artifacts/" \
  "$work" "$root/tests/fuzz/corpus/config"
echo "run_fuzz.sh: fuzz_config found nothing in ${secs}s"
