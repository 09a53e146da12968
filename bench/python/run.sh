#!/usr/bin/env bash
# run.sh - the Python binding benchmark: the same calls from C (call_overhead.c) and through `import acl`
# and openacl.Session (run.py), each side in its own process, alternating, several runs; prints a markdown
# table of per-call costs (median / min over the runs), what the binding adds and the ratio, then the
# ResNet-18 end-to-end loop.  Exits non-zero if a side fails or the sides' ResNet-18 outputs disagree.
# See docs/performance.md, "Python binding overhead".
#
#   bench/python/run.sh [options] [BUILD_DIR [PYTHON_DIR]]
#
# BUILD_DIR (default build/, or $BUILD_DIR) holds bench/bench_call_overhead (built here when missing) and
# libascendcl; PYTHON_DIR (default BUILD_DIR/python, or $PYTHON_DIR) holds the acl extension (and the openacl
# package; the source tree's python/ is on the path after it).  scripts/dev-pyacl.sh DIR builds one quickly.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
prog=run.sh
py=/usr/bin/python3

runs=7
iters=100000
batches=7
rn_iters=40
warmup=3
threads=2
model=
bin=
skip_resnet=0
skip_micro=0
skip_session=0
keep=

usage() {
  cat >&2 <<EOF
usage: $prog [options] [BUILD_DIR [PYTHON_DIR]]
  --runs N          processes per side, alternating (default $runs; medians need at least 5)
  --iters N         calls per batch for the single calls (default $iters; acl.mdl.execute makes N/20)
  --batches N       timed batches per process for the single calls (default $batches)
  --resnet-iters N  timed ResNet-18 iterations per process (default $rn_iters)
  --warmup N        untimed ResNet-18 iterations after the first (default $warmup)
  --threads N       OPENACL_EXECUTOR_THREADS for every side (default $threads)
  --model PATH      ResNet-18 ONNX file (default BUILD_DIR/models/resnet18.onnx, else
                    BUILD_DIR/bench/onnx/opset13/resnet18.onnx, exported when missing)
  --bin PATH        the C side (default BUILD_DIR/bench/bench_call_overhead)
  --no-resnet       single calls only
  --no-micro        ResNet-18 only
  --no-session      leave out openacl.Session.run
  --quick           smoke test: 1 run, few iterations
  --keep DIR        keep the raw JSON lines and logs in DIR
EOF
  exit 2
}
need_count() {
  case ${2:-} in '' | *[!0-9]*) echo "$prog: $1 needs a non-negative integer, got '${2:-}'" >&2; usage ;; esac
}

pos=()
while [ $# -gt 0 ]; do
  case $1 in
  --runs) need_count "$1" "${2:-}"; runs=$2; shift 2 ;;
  --iters) need_count "$1" "${2:-}"; iters=$2; shift 2 ;;
  --batches) need_count "$1" "${2:-}"; batches=$2; shift 2 ;;
  --resnet-iters) need_count "$1" "${2:-}"; rn_iters=$2; shift 2 ;;
  --warmup) need_count "$1" "${2:-}"; warmup=$2; shift 2 ;;
  --threads) need_count "$1" "${2:-}"; threads=$2; shift 2 ;;
  --model) [ $# -ge 2 ] || usage; model=$2; shift 2 ;;
  --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
  --no-resnet) skip_resnet=1; shift ;;
  --no-micro) skip_micro=1; shift ;;
  --no-session) skip_session=1; shift ;;
  --quick) runs=1; iters=20000; batches=3; rn_iters=3; warmup=1; shift ;;
  --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
  -h | --help) usage ;;
  -*) echo "$prog: unknown option '$1'" >&2; usage ;;
  *) pos+=("$1"); shift ;;
  esac
done
[ ${#pos[@]} -le 2 ] || usage
build=${pos[0]:-${BUILD_DIR:-$repo/build}}
build=$(cd "$build" 2>/dev/null && pwd) || { echo "$prog: no build directory '${pos[0]:-${BUILD_DIR:-$repo/build}}'" >&2; exit 1; }
pydir=${pos[1]:-${PYTHON_DIR:-$build/python}}
for v in "$runs" "$iters" "$batches" "$rn_iters" "$threads"; do
  [ "$v" -ge 1 ] || { echo "$prog: --runs, --iters, --batches, --resnet-iters and --threads must be at least 1" >&2; exit 2; }
done

# ---- the two sides ---------------------------------------------------------------------------------------
[ -n "$bin" ] || bin=$build/bench/bench_call_overhead
if [ ! -x "$bin" ]; then
  echo "$prog: building $bin" >&2
  cmake --build "$build" --target bench_call_overhead >&2 ||
    { echo "$prog: cannot build bench_call_overhead in $build" >&2; exit 1; }
fi
export PYTHONPATH=$pydir:$repo/python${PYTHONPATH:+:$PYTHONPATH}
export OPENACL_EXECUTOR_THREADS=$threads
# (the source tree's python/acl, C files only, would import as an empty namespace package: ask for acl.rt)
"$py" -c 'import acl, numpy; acl.rt.get_device' 2>/dev/null || {
  echo "$prog: $py cannot import acl from $pydir (PYTHONPATH=$PYTHONPATH); build it (cmake --build $build," \
    "or scripts/dev-pyacl.sh DIR and pass DIR as PYTHON_DIR)" >&2
  exit 1
}
if [ "$skip_session" = 0 ] && [ "$skip_resnet" = 0 ] && ! "$py" -c 'import openacl; openacl.Session' 2>/dev/null; then
  echo "$prog: openacl.Session is not importable; its row is left out" >&2
  skip_session=1
fi

if [ -n "$keep" ]; then
  work=$keep
  mkdir -p "$work" || exit 1
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/bench-python.XXXXXX") || exit 1
  trap 'rm -rf "$work"' EXIT
fi
: >"$work/results.jsonl"
: >"$work/failures.txt"

tiny=$work/tiny_relu.onnx
"$py" "$here/run.py" make-tiny "$tiny" || { echo "$prog: cannot write the one-node model (needs python3-onnx)" >&2; exit 1; }

if [ "$skip_resnet" = 0 ] && [ -z "$model" ]; then
  for m in "$build/models/resnet18.onnx" "$build/bench/onnx/opset13/resnet18.onnx"; do
    [ -s "$m" ] && { model=$m; break; }
  done
  if [ -z "$model" ]; then
    model=$build/bench/onnx/opset13/resnet18.onnx
    echo "$prog: exporting ResNet-18 into $(dirname "$model")" >&2
    "$py" "$repo/scripts/models/export_models.py" --out "$(dirname "$model")" --opset 13 --models resnet18 >&2 ||
      { echo "$prog: export_models.py failed" >&2; exit 1; }
  fi
fi
[ "$skip_resnet" = 1 ] || [ -s "$model" ] || { echo "$prog: no model $model" >&2; exit 1; }

# ---- the runs --------------------------------------------------------------------------------------------
side() { # NAME: one process of that side; its JSON lines go to results.jsonl
  local name=$1 log=$work/log-$1-$2.txt
  case $name in
  c-micro) set -- "$bin" micro "$tiny" --iters "$iters" --batches "$batches" ;;
  py-micro) set -- "$py" "$here/run.py" micro "$tiny" --iters "$iters" --batches "$batches" ;;
  c-resnet) set -- "$bin" resnet "$model" --iters "$rn_iters" --warmup "$warmup" ;;
  py-resnet-acl) set -- "$py" "$here/run.py" resnet-acl "$model" --iters "$rn_iters" --warmup "$warmup" ;;
  py-resnet-session) set -- "$py" "$here/run.py" resnet-session "$model" --iters "$rn_iters" --warmup "$warmup" ;;
  esac
  if ! "$@" >"$log.out" 2>"$log"; then
    echo "$prog: $name failed (run $r):" >&2
    sed 's/^/  /' "$log" "$log.out" >&2
    echo "$name run $r: exit status" >>"$work/failures.txt"
    return
  fi
  local lines
  lines=$(grep '^{' "$log.out") || { echo "$name run $r: no result" >>"$work/failures.txt"; return; }
  # each JSON line gets the run's number, so that the table can pair the sides of a run
  # shellcheck disable=SC2001
  sed "s/}\$/, \"run\": $r}/" <<<"$lines" >>"$work/results.jsonl"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
micro_sides=(c-micro py-micro)
resnet_sides=(c-resnet py-resnet-acl)
[ "$skip_session" = 1 ] || resnet_sides+=(py-resnet-session)
for ((r = 1; r <= runs; r++)); do
  # The order rotates from run to run, so that no side always runs first.
  for ((k = 0; k < 2 * (1 - skip_micro); k++)); do
    s=${micro_sides[$(((k + r - 1) % 2))]}
    echo "$prog: run $r/$runs: $s" >&2
    side "$s" "$r"
  done
  [ "$skip_resnet" = 1 ] && continue
  n=${#resnet_sides[@]}
  for ((k = 0; k < n; k++)); do
    s=${resnet_sides[$(((k + r - 1) % n))]}
    echo "$prog: run $r/$runs: $s" >&2
    side "$s" "$r"
  done
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo
echo "Machine: ${cpu:-unknown CPU}, $(nproc) cores; $("$py" -c 'import platform; print("Python", platform.python_version())');" \
  "load average (1/5/15 min) $load_before before, $load_after after."
echo
"$py" "$here/table.py" "$work/results.jsonl" "$runs" "$threads" || exit 1
if [ -s "$work/failures.txt" ]; then
  echo >&2
  echo "$prog: FAILED:" >&2
  sed 's/^/  /' "$work/failures.txt" >&2
  exit 1
fi
