#!/bin/sh
# run.sh - the overhead of `openacl infer` against a plain C loop over the
# library (bench_tool_loop.c) on the same model: both run N executions of
# zero-filled inputs after one unmeasured first execution; each side runs R
# times, alternating, and the table gives the median and the best of the R
# per-iteration means, end-to-end and compute-only, and the ratio tool / C;
# then what each side spends around aclmdlExecute (end-to-end - compute).
# compute-only is aclmdlExecute on both sides, so its ratio shows how much of
# a difference is the machine rather than the tool.
#
#   bench/tool/run.sh BUILD_DIR [MODEL...]     (env: N=1000 R=7)
#
# Default models: the small convolution of libonnx-testdata (the worst case:
# the least work per iteration) and, when scripts/models/export_models.py
# has written them into BUILD_DIR/models, ResNet-18.
set -eu
BUILD=$1
shift
N=${N:-1000}
R=${R:-7}
PY=/usr/bin/python3
if [ $# -eq 0 ]; then
  set -- /usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding/model.onnx
  [ -f "$BUILD/models/resnet18.onnx" ] && set -- "$@" "$BUILD/models/resnet18.onnx"
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-tool.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
for model in "$@"; do
  name=$(basename "$(dirname "$model")")/$(basename "$model")
  : >"$TMP/c.jsonl"
  : >"$TMP/tool.jsonl"
  i=0
  while [ $i -lt "$R" ]; do
    "$BUILD/bench/bench_tool_loop" "$model" "$N" 1 >>"$TMP/c.jsonl"
    "$BUILD/openacl" infer --model "$model" --loop "$N" --dym-batch 1 --quiet --summary-json "$TMP/s.json"
    cat "$TMP/s.json" | tr -d '\n' >>"$TMP/tool.jsonl"
    echo >>"$TMP/tool.jsonl"
    i=$((i + 1))
  done
  $PY - "$name" "$N" "$R" "$TMP/c.jsonl" "$TMP/tool.jsonl" <<'PYEOF'
import json, statistics, sys
name, n, r, cf, tf = sys.argv[1:]
c = [json.loads(l) for l in open(cf) if l.strip()]
t = [json.loads(l)["steady_state"] for l in open(tf) if l.strip()]
print(f"\n{name}: --loop {n}, {r} runs of each, per-iteration mean latency (ms)")
print(f"  {'':11} {'C loop med':>11} {'tool med':>11} {'ratio':>7}   {'C loop min':>11} {'tool min':>11} {'ratio':>7}")
for k in ("end_to_end", "compute"):
    cm = [x[k]["mean_ms"] for x in c]
    tm = [x[k]["mean_ms"] for x in t]
    a, b = statistics.median(cm), statistics.median(tm)
    print(f"  {k:11} {a:11.4f} {b:11.4f} {b / a:7.3f}   {min(cm):11.4f} {min(tm):11.4f} {min(tm) / min(cm):7.3f}")
# what each side adds around aclmdlExecute (copies, bookkeeping): end-to-end - compute, per run
co = [x["end_to_end"]["mean_ms"] - x["compute"]["mean_ms"] for x in c]
to = [x["end_to_end"]["mean_ms"] - x["compute"]["mean_ms"] for x in t]
print(f"  {'e2e-compute':11} {statistics.median(co):11.4f} {statistics.median(to):11.4f} {'':7}   "
      f"{min(co):11.4f} {min(to):11.4f}")
PYEOF
done
