#!/usr/bin/env bash
# run.sh - the model benchmark: openacl (aclmdlExecute) against ONNX Runtime (the anchor), PyTorch eager and
# OpenCV DNN on the same ONNX files, each side in its own process with the same thread count, rows
# interleaved over several runs.  Prints a markdown table (bench/models/table.py); exits non-zero if
# openacl, PyTorch or ONNX Runtime fails or the sides' outputs disagree (OpenCV DNN cannot read every model:
# its failures are reported, not fatal).  Without ONNX Runtime installed it says so and runs the others,
# unless --require-ort.  See docs/performance.md, "Models".
#
#   bench/models/run.sh [--build DIR] [--onnx DIR] [--ort DIR] [--require-ort | --no-ort] [--runs N]
#                       [--iters N] [--warmup N] [--threads N] [--models LIST] [--batches LIST] [--quick]
#                       [--no-check] [--keep DIR] [--precision MODE | --precision none] [--no-int8]
#                       [--peers LIST] [--min-time MS]
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
prog=run.sh
py=/usr/bin/python3

build=$repo/build
onnx=
runs=5
iters=20
warmup=3
# timed executions go on until this many milliseconds were timed: a 2 ms model gets 500 samples, so its 99th
# percentile is one and not the slowest of 20
min_time=1000
threads=2
# every model scripts/models/export_models.py has; the default runs all of them but the two-layer BERT of
# the real-model tests (bert_base has the same layers, twelve of them)
all_models=resnet18,resnet50,mobilenet_v2,efficientnet_b0,shufflenet_v2_x1_0,tiny_transformer,densenet121,convnext_tiny,mobilenet_v3_large,regnet_y_400mf,resnext50_32x4d,bert_base,bert_base_l2
models=resnet18,resnet50,mobilenet_v2,efficientnet_b0,shufflenet_v2_x1_0,tiny_transformer,densenet121,convnext_tiny,mobilenet_v3_large,regnet_y_400mf,resnext50_32x4d,bert_base
# ONNX Runtime: the npm package onnxruntime-node that scripts/install-deps.sh --bench installs here
ort_version=1.30.0
ort=${OPENACL_ORT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/openacl/onnxruntime-node-$ort_version}
use_ort=auto
peers=,torch,cv2,ort,
batches="1 8"
# the reduced-precision side: openacl again with OPENACL_PRECISION_MODE set, in rows of its own
precision=allow_mix_precision
# quantised rows: the CNNs quantised by scripts/models/quantize_qdq.py, run by openacl and ONNX Runtime
int8=1
int8_models=resnet18,resnet50,mobilenet_v2,efficientnet_b0,shufflenet_v2_x1_0,densenet121,mobilenet_v3_large,regnet_y_400mf,resnext50_32x4d
check=1
keep=

usage() {
  cat >&2 <<EOF
usage: $prog [options]
  --build DIR     build tree with bench/bench_model and bench/fma_peak (default: $repo/build)
  --onnx DIR      model directory: DIR/opset13/<model>.onnx and DIR/opset10/mobilenet_v2.onnx; files that
                  are missing are exported with scripts/models/export_models.py (default: BUILD/bench/onnx)
  --ort DIR       where onnxruntime-node is installed: DIR/node_modules/onnxruntime-node (default:
                  \$OPENACL_ORT_DIR, else ~/.cache/openacl/onnxruntime-node-$ort_version, where
                  scripts/install-deps.sh --bench puts it)
  --require-ort   fail if ONNX Runtime is not installed (default: say so and run without it)
  --no-ort        leave ONNX Runtime out
  --runs N        processes per side and row, interleaved (default $runs)
  --iters N       timed executions per process (default $iters), at least
  --min-time MS   ... and more until MS milliseconds were timed (default $min_time; 0: exactly --iters)
  --warmup N      untimed executions after the first (default $warmup)
  --threads N     threads for every side (default $threads)
  --models LIST   comma-separated, from: $all_models
                  (default: all but bert_base_l2)
  --batches LIST  space- or comma-separated batch sizes (default "1 8")
  --quick         smoke test: resnet18, batch 1, 1 run, 1 iteration, no warm-up
  --no-check      skip the cross-check of the sides' outputs (done in run 1)
  --keep DIR      keep the raw JSON lines, outputs and logs in DIR
  --precision M   also run openacl in precision mode M (default $precision: bfloat16 convolutions and
                  matrix products where the CPU has bfloat16 units); its rows (speed, top-1 agreement and
                  error against openacl in float32) form a table of their own. none: leave it out
  --peers LIST    comma-separated peers to run, from: torch,cv2,ort (default all three; the PyTorch eager
                  side of BERT and ConvNeXt at batch 8 takes most of a full run's time, so the >= 5 runs the
                  ONNX Runtime goal asks for can be had with --peers ort, and the others in a shorter run)
  --no-int8       leave out the quantised rows (by default the CNNs among the models are quantised with
                  scripts/models/quantize_qdq.py into ONNX/int8/ and run by openacl and ONNX Runtime
                  too, in a table of their own)
EOF
  exit 2
}

need_arg() { [ $# -ge 2 ] || { echo "$prog: $1 needs a value" >&2; usage; }; }
need_count() {
  case $2 in '' | *[!0-9]*) echo "$prog: $1 must be a non-negative integer, got '$2'" >&2; exit 2 ;; esac
}

while [ $# -gt 0 ]; do
  case $1 in
  --build) need_arg "$@"; build=$2; shift 2 ;;
  --onnx) need_arg "$@"; onnx=$2; shift 2 ;;
  --ort) need_arg "$@"; ort=$2; shift 2 ;;
  --require-ort) use_ort=yes; shift ;;
  --no-ort) use_ort=no; shift ;;
  --runs) need_arg "$@"; need_count "$1" "$2"; runs=$2; shift 2 ;;
  --iters) need_arg "$@"; need_count "$1" "$2"; iters=$2; shift 2 ;;
  --min-time) need_arg "$@"; need_count "$1" "$2"; min_time=$2; shift 2 ;;
  --warmup) need_arg "$@"; need_count "$1" "$2"; warmup=$2; shift 2 ;;
  --threads) need_arg "$@"; need_count "$1" "$2"; threads=$2; shift 2 ;;
  --models) need_arg "$@"; models=$2; shift 2 ;;
  --batches) need_arg "$@"; batches=${2//,/ }; shift 2 ;;
  --quick) models=resnet18; batches=1; runs=1; iters=1; warmup=0; min_time=0; shift ;;
  --no-check) check=0; shift ;;
  --keep) need_arg "$@"; keep=$2; shift 2 ;;
  --precision) need_arg "$@"; precision=$2; shift 2 ;;
  --no-int8) int8=0; shift ;;
  --peers) need_arg "$@"; peers=",$2,"; shift 2 ;;
  -h | --help) usage ;;
  *) echo "$prog: unknown option '$1'" >&2; usage ;;
  esac
done
if [ "$runs" -lt 1 ] || [ "$iters" -lt 1 ] || [ "$threads" -lt 1 ]; then
  echo "$prog: --runs, --iters and --threads must be at least 1" >&2
  exit 2
fi
for b in $batches; do need_count --batches "$b"; [ "$b" -ge 1 ] || { echo "$prog: batch 0" >&2; exit 2; }; done
IFS=, read -r -a model_list <<<"$models"
for m in "${model_list[@]}"; do
  case ",$all_models," in *",$m,"*) ;; *) echo "$prog: unknown model '$m' ($all_models)" >&2; exit 2 ;; esac
done

bench_model=$build/bench/bench_model
fma_peak=$build/bench/fma_peak
for t in "$bench_model" "$fma_peak"; do
  [ -x "$t" ] || { echo "$prog: $t not found; build it: cmake --build $build --target bench_model fma_peak" >&2; exit 1; }
done
want_peer() { [[ $peers == *",$1,"* ]]; }
for mod in torch torchvision onnx numpy $(want_peer cv2 && echo cv2); do
  "$py" -c "import $mod" 2>/dev/null ||
    { echo "$prog: $py cannot import $mod; install the peers with scripts/install-deps.sh --bench" >&2; exit 1; }
done

# ONNX Runtime runs in Node.js (bench/models/peer_ort.js), found through NODE_PATH.
for p in ${peers//,/ }; do
  case $p in torch | cv2 | ort) ;; *) echo "$prog: --peers: unknown peer '$p' (torch, cv2, ort)" >&2; exit 2 ;; esac
done
sides=(openacl)
want_peer torch && sides+=(torch)
want_peer cv2 && sides+=(cv2)
want_peer ort || use_ort=no
if [ "$use_ort" != no ]; then
  if command -v node >/dev/null && [ -d "$ort/node_modules/onnxruntime-node" ] &&
    NODE_PATH=$ort/node_modules node -e 'require("onnxruntime-node")' 2>/dev/null; then
    sides+=(ort)
  elif [ "$use_ort" = yes ]; then
    echo "$prog: ONNX Runtime (node + $ort/node_modules/onnxruntime-node) is not installed; install it with scripts/install-deps.sh --bench or pass --ort DIR" >&2
    exit 1
  else
    echo "$prog: note: ONNX Runtime is not installed (no node, or no $ort/node_modules/onnxruntime-node): running without it; scripts/install-deps.sh --bench installs it" >&2
  fi
fi
[ "$precision" != none ] && sides+=(openacl_lowp)
if [ "$int8" = 1 ]; then
  sides+=(openacl_int8)
  [[ " ${sides[*]} " == *" ort "* ]] && sides+=(ort_int8)
fi
nsides=${#sides[@]}

[ -n "$onnx" ] || onnx=$build/bench/onnx
if [ -n "$keep" ]; then
  work=$keep
  mkdir -p "$work" || exit 1
else
  work=$(mktemp -d) || exit 1
  trap 'rm -rf "$work"' EXIT
fi
: >"$work/results.jsonl"
: >"$work/flops.jsonl"
: >"$work/failures.txt"
: >"$work/peer-failures.txt"
: >"$work/accuracy.jsonl"

# ---- the models ----------------------------------------------------------------------------------------
# Every side reads opset 13, except OpenCV for MobileNetV2: OpenCV 4.6 cannot read Clip from opset 11 on.
# The input: [batch, 3, 224, 224] images, or [batch, 128, 768] token embeddings for the BERT encoders; the
# peers are told the model's dimensions after the batch (bench_model.c reads them from the model).
export_missing() { # DIR OPSET MODELS...
  local dir=$1 opset=$2 missing=
  shift 2
  for m in "$@"; do [ -s "$dir/$m.onnx" ] || missing=${missing:+$missing,}$m; done
  [ -z "$missing" ] && return 0
  local script=$repo/scripts/models/export_models.py
  [ -f "$script" ] || { echo "$prog: $script not found and $dir lacks $missing; pass --onnx DIR with the files" >&2; exit 1; }
  echo "$prog: exporting $missing at opset $opset into $dir" >&2
  "$py" "$script" --out "$dir" --opset "$opset" --models "$missing" >&2 ||
    { echo "$prog: export_models.py failed for $missing (opset $opset)" >&2; exit 1; }
  for m in "$@"; do [ -s "$dir/$m.onnx" ] || { echo "$prog: the export wrote no $dir/$m.onnx" >&2; exit 1; }; done
}
export_missing "$onnx/opset13" 13 "${model_list[@]}"
for m in "${model_list[@]}"; do
  [ "$m" = mobilenet_v2 ] && export_missing "$onnx/opset10" 10 mobilenet_v2
done
input_shape() { # MODEL
  case $1 in bert_*) echo 128,768 ;; *) echo 3,224,224 ;; esac
}
model_file() { # SIDE MODEL
  if [ "$1" = cv2 ] && [ "$2" = mobilenet_v2 ]; then echo "$onnx/opset10/$2.onnx"
  elif [[ $1 == *_int8 ]]; then echo "$onnx/int8/$2.onnx"
  else echo "$onnx/opset13/$2.onnx"; fi
}
has_int8() { [[ ",$int8_models," == *",$1,"* ]]; }
# The quantised copies, calibrated through this build's Python package.
if [ "$int8" = 1 ]; then
  mkdir -p "$onnx/int8" || exit 1
  for m in "${model_list[@]}"; do
    has_int8 "$m" || continue
    [ -s "$onnx/int8/$m.onnx" ] && continue
    echo "$prog: quantising $m into $onnx/int8" >&2
    PYTHONPATH=$build/python "$py" "$repo/scripts/models/quantize_qdq.py" "$onnx/opset13/$m.onnx" \
      "$onnx/int8/$m.onnx" >&2 || { echo "$prog: quantize_qdq.py failed for $m" >&2; exit 1; }
  done
fi

# ---- the yardsticks: FMA peak and FLOPs ----------------------------------------------------------------
echo "$prog: measuring the FMA peak with $threads threads" >&2
"$fma_peak" --threads "$threads" >"$work/fma.json" || { echo "$prog: fma_peak failed" >&2; exit 1; }
for m in "${model_list[@]}"; do
  for b in $batches; do
    # a model whose shapes flops.py cannot infer gets no count: the GFLOP/s column says n/a
    "$py" "$here/flops.py" "$onnx/opset13/$m.onnx" "$b" >>"$work/flops.jsonl" 2>"$work/flops-err.txt" ||
      echo "$prog: note: no FLOP count for $m batch $b: $(tail -n 1 "$work/flops-err.txt")" >&2
  done
done

# ---- the runs ------------------------------------------------------------------------------------------
# One process per side, row and run; the order of the sides rotates from run to run so that none always
# runs first (or right after a heavy neighbour).
# The engine takes the device's executor threads as its thread budget; OMP_NUM_THREADS keeps the peers'
# OpenMP pools at the same size as the thread counts they are given.
run_side() { # SIDE MODEL BATCH DUMP (or "")
  local file args
  file=$(model_file "$1" "$2")
  args=("$file" "$3" "$iters" "$warmup" --threads "$threads" --min-time "$min_time")
  [ -n "$4" ] && args+=(--dump "$4")
  case $1 in
  openacl) OPENACL_EXECUTOR_THREADS=$threads "$bench_model" "${args[@]}" ;;
  openacl_lowp) OPENACL_EXECUTOR_THREADS=$threads OPENACL_PRECISION_MODE=$precision "$bench_model" "${args[@]}" |
    sed "s/\"side\": \"openacl\"/\"side\": \"openacl_lowp\", \"precision\": \"$precision\"/" ;;
  openacl_int8) OPENACL_EXECUTOR_THREADS=$threads "$bench_model" "${args[@]}" |
    sed 's/"side": "openacl"/"side": "openacl_int8"/' ;;
  ort_int8) NODE_PATH=$ort/node_modules OMP_NUM_THREADS=$threads node "$here/peer_ort.js" "${args[@]}" \
    --input-shape "$(input_shape "$2")" | sed 's/"side":"ort"/"side":"ort_int8"/' ;;
  torch) OMP_NUM_THREADS=$threads "$py" "$here/peer_torch.py" "${args[@]}" --input-shape "$(input_shape "$2")" ;;
  cv2) OMP_NUM_THREADS=$threads "$py" "$here/peer_cv2.py" "${args[@]}" --input-shape "$(input_shape "$2")" ;;
  ort) NODE_PATH=$ort/node_modules OMP_NUM_THREADS=$threads node "$here/peer_ort.js" "${args[@]}" \
    --input-shape "$(input_shape "$2")" ;;
  esac
}

for ((r = 1; r <= runs; r++)); do
  for m in "${model_list[@]}"; do
    for b in $batches; do
      for ((k = 0; k < nsides; k++)); do
        s=${sides[$(((k + r - 1) % nsides))]}
        [[ $s == *_int8 ]] && ! has_int8 "$m" && continue
        dump=
        [ "$check" = 1 ] && [ "$r" = 1 ] && dump=$work/out-$m-$b-$s.bin
        echo "$prog: run $r/$runs $m batch $b: $s" >&2
        log=$work/log-$m-$b-$s-$r.txt
        if ! run_side "$s" "$m" "$b" "$dump" >"$log.out" 2>"$log"; then
          echo "$prog: $s failed on $m batch $b (run $r):" >&2
          sed 's/^/  /' "$log" | tail -n 20 >&2
          # OpenCV DNN 4.6 cannot read every model of the zoo: its failures are noted, not fatal
          if [ "$s" = cv2 ]; then
            echo "cv2 $m $b run $r: $(grep -m1 -o 'error: .*\|failed: .*' "$log" | cut -c1-160)" >>"$work/peer-failures.txt"
          else
            echo "$s $m $b run $r: exit status" >>"$work/failures.txt"
          fi
          continue
        fi
        line=$(grep '^{' "$log.out" | tail -n 1)
        if [ -z "$line" ]; then
          echo "$prog: $s printed no result on $m batch $b (run $r)" >&2
          echo "$s $m $b run $r: no result" >>"$work/failures.txt"
          continue
        fi
        echo "$line" >>"$work/results.jsonl"
      done
      if [ "$check" = 1 ] && [ "$r" = 1 ]; then
        # The sides must compute the same function: outputs within 1e-3 of the largest torch output (relative,
        # with no floor: a model with uncalibrated BatchNorms has tiny outputs, where a floor would pass anything).
        "$py" - "$work" "$m" "$b" <<'EOF' || echo "$m $b: outputs disagree" >>"$work/failures.txt"
import json, os, sys
import numpy as np
work, m, b = sys.argv[1:]
# the reduced-precision and quantised sides are measured against openacl in float32, not held to
# float32's tolerance: top-1 agreement (the arg-max over the last axis of every row) and the largest error
# relative to the largest float32 output
fp = os.path.join(work, f"out-{m}-{b}-openacl.bin")
for side in ("openacl_lowp", "openacl_int8", "ort_int8"):
    lp = os.path.join(work, f"out-{m}-{b}-{side}.bin")
    if not (os.path.exists(lp) and os.path.exists(fp)):
        continue
    lo, hi = np.fromfile(lp, np.float32), np.fromfile(fp, np.float32)
    if lo.shape == hi.shape:
        last = {"bert_base": 768, "bert_base_l2": 768, "tiny_transformer": None}.get(m, 1000)
        if last is None or lo.size % last:
            last = lo.size // int(b)
        agree = float(np.mean(lo.reshape(-1, last).argmax(1) == hi.reshape(-1, last).argmax(1)))
        err = float(np.abs(lo - hi).max() / max(float(np.abs(hi).max()), 1e-30))
        with open(os.path.join(work, "accuracy.jsonl"), "a") as f:
            f.write(json.dumps({"model": m, "batch": int(b), "side": side, "top1_agree": agree,
                                "rows": lo.size // last, "max_rel_err": err}) + "\n")
outs = {}
for s in ("openacl", "torch", "cv2", "ort"):
    p = os.path.join(work, f"out-{m}-{b}-{s}.bin")
    if os.path.exists(p):
        outs[s] = np.fromfile(p, np.float32)
# PyTorch is the reference; ONNX Runtime where PyTorch was left out (--peers)
refside = "torch" if "torch" in outs else "ort" if "ort" in outs else None
if refside is None:
    sys.exit(0)  # a failure is already recorded, or there is no peer to compare with
ref = outs[refside]
tol = max(1e-3 * float(np.abs(ref).max()), 1e-30)
bad = False
for s, o in outs.items():
    if s == refside:
        continue
    diff = float(np.abs(o - ref).max()) if o.shape == ref.shape else float("inf")
    print(f"run.sh: {m} batch {b}: {s} vs {refside}: max |diff| {diff:.3g} (tolerance {tol:.3g})", file=sys.stderr)
    bad |= not diff <= tol
sys.exit(1 if bad else 0)
EOF
      fi
    done
  done
done

echo
"$py" "$here/table.py" "$work/results.jsonl" "$work/fma.json" "$work/flops.jsonl" "$runs" "$work/accuracy.jsonl" ||
  exit 1
if [ -s "$work/peer-failures.txt" ]; then
  echo >&2
  echo "$prog: OpenCV DNN could not run (not counted as a failure):" >&2
  sort -u "$work/peer-failures.txt" | sed 's/^/  /' >&2
fi
if [ -s "$work/failures.txt" ]; then
  echo >&2
  echo "$prog: FAILED:" >&2
  sed 's/^/  /' "$work/failures.txt" >&2
  exit 1
fi
