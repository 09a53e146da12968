#!/bin/sh
# test.sh - builds openacl and runs the whole test suite the way CI does:
#   1. gcc, -Werror, every test (ctest), then the ONNX conformance counts,
#      then the real-model tests against PyTorch's outputs (models exported
#      once into build/models by scripts/models/export_models.py, two of them
#      quantised by scripts/models/quantize_qdq.py), then the
#      Python layer's tests (label python: pytest, vendor-style scripts
#      against the same exports)
#   2. ASan + UBSan (leak checking on), every test; the Python tests with the
#      sanitizer runtime preloaded into the interpreter (leak checks off there:
#      CPython keeps its own allocations until exit)
#   3. ThreadSanitizer, the threaded tests
#   4. clang, -Werror, every test
#   5. the libFuzzer targets for a bounded time (OPENACL_FUZZ_SECONDS, default 60)
# Device-memory protection: the api/memory_protection tests are registered once per
# mechanism (OPENACL_MEMORY_PROTECTION unset, pkeys, alias, off; the pkeys ones say so and
# pass where the CPU has no protection keys), so every step above runs each mechanism
# this machine offers; the rest of the suite runs under the default (auto).
# Build folders: build-test/{gcc,asan,tsan,clang}.  Exits non-zero on the first failure.
set -eu
cd "$(dirname "$0")/.."
jobs=${OPENACL_JOBS:-2}
root=build-test
# The real-model tests run only in the step below that sets this: under the
# sanitizers they would take far too long.
unset OPENACL_MODELS_DIR

step() { printf '\n=== %s ===\n' "$*"; }

build() { # dir, cmake args...
  dir=$1
  shift
  cmake -S . -B "$root/$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_WERROR=ON "$@" >/dev/null
  cmake --build "$root/$dir" -j "$jobs"
}

step "gcc build and tests"
CC=gcc build gcc
(cd "$root/gcc" && ctest --output-on-failure -j "$jobs" -LE python)

step "ONNX conformance counts (libonnx-testdata, through aclmdlExecute)"
"$root/gcc/tests/unit_conformance" onnx_backend_test_data | grep -v '^REGRESSION' || true

step "real models vs PyTorch (tests/models, docs/model-tests.md)"
# exported again only when the export script changes (its checksum is the stamp)
models=build/models
sum=$(sha256sum scripts/models/export_models.py | cut -d' ' -f1)
if [ "$(cat "$models/.stamp" 2>/dev/null)" != "$sum" ] || [ ! -f "$models/manifest.tsv" ]; then
  rm -f "$models/.stamp" "$models/manifest.tsv"
  /usr/bin/python3 scripts/models/export_models.py --out "$models" --batches 1,8 --refs
  echo "$sum" > "$models/.stamp"
else
  echo "models in $models are up to date"
fi
# quantised copies for the int8 tests, calibrated through this build's Python package
qsum=$(cat scripts/models/export_models.py scripts/models/quantize_qdq.py | sha256sum | cut -d' ' -f1)
if [ "$(cat "$models/.qstamp" 2>/dev/null)" != "$qsum" ]; then
  for m in resnet18 resnext50_32x4d; do
    PYTHONPATH="$PWD/$root/gcc/python" /usr/bin/python3 scripts/models/quantize_qdq.py "$models/$m.onnx" \
      "$models/${m}_int8.onnx"
  done
  echo "$qsum" > "$models/.qstamp"
fi
# -V: each case prints its largest errors, wanted in the log even when it passes
(export OPENACL_MODELS_DIR="$PWD/$models" && cd "$root/gcc" && ctest -V -j "$jobs" -R '^models/real/')

step "Python layer: import acl, openacl package, vendor-style scripts (tests/python, docs/python.md)"
(export OPENACL_MODELS_DIR="$PWD/$models" && cd "$root/gcc" && ctest --output-on-failure -j "$jobs" -L python)

step "ASan+UBSan build and tests"
CC=gcc build asan -DOPENACL_SANITIZE=address
(cd "$root/asan" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs" -LE python)
# The interpreter is not instrumented: the runtime is preloaded for the module.
(cd "$root/asan" && LD_PRELOAD="$(gcc -print-file-name=libasan.so)" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs" -L python)

# The Python tests are not run under TSan: CPython is not instrumented, so the
# GIL's ordering is invisible to it; the runtime they drive is covered here.
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
