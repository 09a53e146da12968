# lib.sh - what the tool's test scripts share (sourced by infer.sh, recipe.sh
# and misc.sh): a scratch directory per case, a clean environment, and the
# checks.  After `tool_case_setup NAME`: the case runs in the empty directory
# $SCRATCH/cwd with HOME and the library's log path inside $SCRATCH (removed
# at exit); OUT and ERR are the files a run's stdout and stderr go to, RC its
# exit code.

tool_case_setup() {
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/openacl-$1.XXXXXX") || exit 1
  trap 'rm -rf "$SCRATCH"' EXIT
  mkdir "$SCRATCH/cwd" "$SCRATCH/home"
  cd "$SCRATCH/cwd" || exit 1
  export HOME="$SCRATCH/home" ASCEND_PROCESS_LOG_PATH="$SCRATCH/log"
  # The environment of the machine must not leak into the cases.
  unset ASCEND_RT_VISIBLE_DEVICES ASCEND_VISIBLE_DEVICES OPENACL_DEVICE_COUNT OPENACL_SOC_NAME OPENACL_BACKEND \
    OPENACL_DEVICE_MEMORY OPENACL_EXECUTOR_THREADS ASCEND_GLOBAL_LOG_LEVEL ASCEND_SLOG_PRINT_TO_STDOUT \
    OPENACL_DYNAMIC_BATCH OPENACL_DYNAMIC_HW OPENACL_DYNAMIC_DIMS
  OUT=$SCRATCH/stdout
  ERR=$SCRATCH/stderr
  RC=0
}

# fail MESSAGE: prints the case, the message, the exit code and both outputs; exits 1.
fail() {
  echo "FAIL [$CASE]: $*"
  echo "--- exit code: $RC"
  echo "--- stdout:"; head -c 4000 "$OUT"
  echo "--- stderr:"; head -c 4000 "$ERR"
  exit 1
}

expect_rc() { [ "$RC" -eq "$1" ] || fail "exit code $RC, expected $1"; }
expect_err() { grep -qF -- "$1" "$ERR" || fail "stderr lacks '$1'"; }
expect_out() { grep -qF -- "$1" "$OUT" || fail "stdout lacks '$1'"; }
