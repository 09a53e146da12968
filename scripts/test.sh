#!/bin/sh
# test.sh - builds openacl and runs the whole test suite the way CI does:
#   1. gcc, -Werror, every test (ctest), then the ONNX conformance counts
#   2. ASan + UBSan (leak checking on), every test
#   3. ThreadSanitizer, the threaded tests
#   4. clang, -Werror, every test
#   5. the libFuzzer targets for a bounded time (OPENACL_FUZZ_SECONDS, default 60)
# Build folders: build-test/{gcc,asan,tsan,clang}.  Exits non-zero on the first failure.
set -eu
cd "$(dirname "$0")/.."
jobs=${OPENACL_JOBS:-2}
root=build-test

step() { printf '\n=== %s ===\n' "$*"; }

build() { # dir, cmake args...
  dir=$1
  shift
  cmake -S . -B "$root/$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_WERROR=ON "$@" >/dev/null
  cmake --build "$root/$dir" -j "$jobs"
}

step "gcc build and tests"
CC=gcc build gcc
(cd "$root/gcc" && ctest --output-on-failure -j "$jobs")

step "ONNX conformance counts (libonnx-testdata, reference executor)"
"$root/gcc/tests/unit_conformance" onnx_backend_test_data | grep -v '^REGRESSION' || true

step "ASan+UBSan build and tests"
CC=gcc build asan -DOPENACL_SANITIZE=address
(cd "$root/asan" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")

step "ThreadSanitizer build and threaded tests"
CC=clang build tsan -DOPENACL_SANITIZE=thread -DOPENACL_BUILD_BENCH=OFF
(cd "$root/tsan" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 OPENACL_STRESS_TASKS=500 \
  ctest --output-on-failure -j "$jobs" -L threads)

step "clang build and tests"
CC=clang build clang
(cd "$root/clang" && ctest --output-on-failure -j "$jobs")

step "fuzzing"
if [ -x tests/fuzz/run_fuzz.sh ]; then
  tests/fuzz/run_fuzz.sh "${OPENACL_FUZZ_SECONDS:-60}"
else
  echo "no fuzz targets"
fi
echo
echo "test.sh: all steps passed"
