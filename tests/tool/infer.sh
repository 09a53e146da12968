#!/bin/sh
# infer.sh - drives `openacl infer` as a user would: exit codes, stdout,
# stderr, the files written (compared with numpy) and the JSON summary.
#
#   sh infer.sh OPENACL_BINARY SOURCE_DIR CASE
#
# Each case runs in an empty working directory with HOME and the log path in
# a scratch directory; afterwards that directory must hold only what the case
# asked for (--output, --summary-json and the inputs it made).  A failed
# check prints what was expected and what came, and exits 1.
set -u
BIN=$1
SRC=$2
CASE=$3
PY=/usr/bin/python3
DYN=$SRC/tests/data/tool/dyn_batch.onnx   # x: float32 [N,4] -> y = relu(x)*2+1 [N,4], z:0 = -x (shape undeclared)
ADD=/usr/share/libonnx-testdata/data/node/test_add/model.onnx   # x, y: float32 [3,4,5] -> sum

. "$(dirname "$0")/lib.sh"
tool_case_setup infer

run() {
  "$BIN" infer "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

# A usage or runtime error: the exit code, one line on stderr starting with
# "openacl: error:", holding every given text, and nothing on stdout.
expect_error() {
  code=$1
  shift
  expect_rc "$code"
  [ "$(wc -l <"$ERR")" -eq 1 ] || fail "stderr should be one line"
  grep -q '^openacl: error: ' "$ERR" || fail "stderr should start with 'openacl: error: '"
  for t in "$@"; do expect_err "$t"; done
  [ ! -s "$OUT" ] || fail "stdout should be empty on an error"
  if [ "$code" -eq 2 ]; then expect_err "see 'openacl infer --help'"; fi
}
# Only these names (and what is below them) in the working directory.
expect_only() {
  extra=$(ls -A | while read -r f; do
    keep=0
    for k in "$@"; do [ "$f" = "$k" ] && keep=1; done
    [ $keep -eq 1 ] || echo "$f"
  done)
  [ -z "$extra" ] || fail "unexpected files written: $extra"
}
py() { "$PY" -c "$1" || fail "check failed: $1"; }

need_add() { [ -f "$ADD" ] || { echo "libonnx-testdata missing ($ADD): scripts/install-deps.sh installs it"; exit 1; }; }

# in0..in(N-1).npy in folder $1: rows [0,1,2,3] - i, float32, shape [4] (or $3 for a full batch)
make_items() {
  mkdir -p "$1"
  $PY -c "
import numpy as np
for i in range($2): np.save('$1/in%d.npy' % i, np.arange(4, dtype=np.float32) - i)
" || fail "numpy could not write inputs"
}

case $CASE in
help)
  run --help
  expect_rc 0
  for o in --model --input --output --outfmt --device --loop --warmup --batchsize --dym-batch --dym-shape --dym-hw \
    --output-size --summary-json --quiet --debug --seed --recipe --output_dirname --profiler; do expect_out "$o"; done
  ;;
add_npy)
  need_add
  $PY -c "
import numpy as np
np.save('a.npy', np.arange(60, dtype=np.float32).reshape(3,4,5)); np.save('b.npy', np.full((3,4,5), 0.5, np.float32))"
  run --model "$ADD" --input a.npy,b.npy --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
r = np.load('out/a_sum.npy'); assert r.shape == (3,4,5) and r.dtype == np.float32, r.shape
assert np.array_equal(r, np.arange(60, dtype=np.float32).reshape(3,4,5) + 0.5)"
  expect_out "first inference"
  expect_only a.npy b.npy out
  ;;
add_bin_txt)
  need_add
  $PY -c "
import numpy as np
np.arange(60, dtype=np.float32).tofile('a.bin'); np.ones(60, np.float32).tofile('b.bin')"
  run --model "$ADD" --input a.bin,b.bin --output out --outfmt TXT
  expect_rc 0
  [ "$(wc -l <out/a_sum.txt)" -eq 12 ] || fail "TXT should hold 12 rows of 5"
  py "
import numpy as np
r = np.loadtxt('out/a_sum.txt', dtype=np.float32); assert r.shape == (12,5)
assert np.array_equal(r.ravel(), np.arange(60, dtype=np.float32) + 1)"
  ;;
outfmt_bin)
  make_items d 1
  run --model "$DYN" --input d/in0.npy --output out --outfmt bin
  expect_rc 0
  py "
import numpy as np
assert np.array_equal(np.fromfile('out/in0_y.bin', np.float32), [1,3,5,7])
assert np.array_equal(np.fromfile('out/in0_z_0.bin', np.float32), [0,-1,-2,-3])"
  ;;
zeros_random)
  need_add
  run --model "$ADD" --input zeros,random --seed 7 --output o1 --outfmt NPY
  expect_rc 0
  run --model "$ADD" --input zeros,random --seed 7 --output o2 --outfmt NPY
  expect_rc 0
  run --model "$ADD" --input zeros,random --seed 8 --output o3 --outfmt NPY
  expect_rc 0
  run --model "$ADD" --output o4 --outfmt NPY
  expect_rc 0
  py "
import numpy as np
a, b, c, z = (np.load('o%d/run0_sum.npy' % i) for i in (1, 2, 3, 4))
assert np.array_equal(a, b), 'same seed, different data'
assert not np.array_equal(a, c), 'different seed, same data'
assert (a >= 0).all() and (a < 1).all() and len(np.unique(a)) > 50
assert not z.any(), 'no --input means zeros'"
  ;;
folder_order)
  mkdir d
  for n in c a b; do $PY -c "import numpy as np; np.save('d/$n.npy', np.full(4, ord('$n') - 96, np.float32))"; done
  echo ignored >d/notes.txt
  run --model "$DYN" --input d --output out --outfmt NPY --debug
  expect_rc 0
  [ "$(ls out | tr '\n' ' ')" = "a_y.npy a_z_0.npy b_y.npy b_z_0.npy c_y.npy c_z_0.npy " ] || fail "outputs: $(ls out)"
  py "
import numpy as np
for n, v in (('a', 1), ('b', 2), ('c', 3)): assert np.array_equal(np.load('out/%s_y.npy' % n), np.full((1,4), 2*v+1, np.float32))"
  # executions in name order
  [ "$(grep -c 'execution . run 0' "$ERR")" -eq 3 ] || fail "three executions expected"
  ;;
dym_batch_folder)
  make_items d 5
  run --model "$DYN" --input d --dym-batch 2 --output out --outfmt NPY --summary-json s.json
  expect_rc 0
  [ "$(ls out | tr '\n' ' ')" = "in0_y.npy in0_z_0.npy in2_y.npy in2_z_0.npy in4_y.npy in4_z_0.npy " ] ||
    fail "outputs: $(ls out)"
  py "
import numpy as np, json
x = np.stack([np.arange(4, dtype=np.float32) - i for i in range(5)])
y = np.maximum(x, 0) * 2 + 1
assert np.array_equal(np.load('out/in0_y.npy'), y[0:2])
assert np.array_equal(np.load('out/in2_y.npy'), y[2:4])
assert np.array_equal(np.load('out/in4_y.npy'), y[4:5]), 'the short last batch runs with 1 item'
assert np.array_equal(np.load('out/in4_z_0.npy'), -x[4:5])
s = json.load(open('s.json')); assert s['distinct_inputs'] == 3 and s['items_per_execution'] == 2, s"
  ;;
dym_batch_bin)
  $PY -c "import numpy as np; np.arange(12, dtype=np.float32).tofile('x.bin')"
  run --model "$DYN" --input x.bin --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
r = np.load('out/x_y.npy'); assert r.shape == (3,4), 'the file size sets the symbolic batch: %s' % (r.shape,)"
  run --model "$DYN" --input x.bin --dym-batch 3 --output out2 --outfmt NPY
  expect_rc 0
  run --model "$DYN" --input x.bin --dym-batch 2
  expect_error 1 "input 'x'" "x.bin" "48 bytes" "32"
  ;;
dym_shape_bin)
  $PY -c "import numpy as np; np.arange(8, dtype=np.float32).tofile('x.bin')"
  run --model "$DYN" --input x.bin --dym-shape "x:2,4" --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
assert np.load('out/x_y.npy').shape == (2,4)"
  ;;
npy_shape_sets_batch)
  $PY -c "import numpy as np; np.save('x.npy', np.ones((6,4), np.float32))"
  run --model "$DYN" --input x.npy --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
assert np.array_equal(np.load('out/x_y.npy'), np.full((6,4), 3, np.float32))"
  ;;
batch_open_item_shape)
  # [N,L]: the first item sets L for the batch; items of another L are refused before anything runs
  D2=$SRC/tests/data/tool/dyn_2d.onnx
  mkdir d e
  $PY -c "
import numpy as np
for i in range(3): np.save('d/%d.npy' % i, np.arange(3, dtype=np.float32) - i)
np.save('e/0.npy', np.zeros(3, np.float32)); np.save('e/1.npy', np.zeros(5, np.float32))"
  run --model "$D2" --input d --dym-batch 2 --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
assert np.array_equal(np.load('out/0_y.npy'), [[0,1,2],[0,0,1]])
assert np.array_equal(np.load('out/2_y.npy'), [[0,0,0]])"
  run --model "$D2" --input e --dym-batch 2 --output out2
  expect_error 1 "input 'x': 'e/1.npy' has shape [5] but the model expects [2,3]"
  [ ! -e out2 ] || fail "nothing may be written when a check fails"
  ;;
output_grows)
  # z:0 has no declared shape: the tool estimates its buffer; --output-size can set it (grown if too small)
  $PY -c "import numpy as np; np.save('x.npy', np.ones((3000,4), np.float32))"
  run --model "$DYN" --input x.npy --output out --outfmt NPY --output-size 48000,16
  expect_rc 0
  py "
import numpy as np
assert np.array_equal(np.load('out/x_z_0.npy'), -np.ones((3000,4), np.float32))"
  ;;
summary_json)
  need_add
  run --model "$ADD" --loop 20 --warmup 3 --summary-json s.json
  expect_rc 0
  py "
import json
s = json.load(open('s.json'))
assert s['executions'] == 23 and s['loop'] == 20 and s['warmup'] == 3, s
assert s['steady_state']['runs'] == 19, s['steady_state']
assert s['inputs'] == ['x', 'y'] and s['outputs'] == ['sum'] and s['device'] == 0
assert s['load_ms'] > 0 and s['first_inference']['end_to_end_ms'] >= s['first_inference']['compute_ms'] > 0
for k in ('end_to_end', 'compute'):
  st = s['steady_state'][k]
  assert 0 < st['min_ms'] <= st['p50_ms'] <= st['p90_ms'] <= st['p99_ms'] <= st['max_ms'], st
  assert st['min_ms'] <= st['mean_ms'] <= st['max_ms'] and st['items_per_s'] > 0, st
assert s['items_per_execution'] == 3"
  expect_out "steady state     19 runs after 3 warm-up"
  expect_out "end-to-end"
  expect_out "compute"
  # one run only: no steady state, JSON null
  run --model "$ADD" --summary-json one.json
  expect_rc 0
  expect_out "no runs after the first"
  py "
import json
s = json.load(open('one.json')); assert s['steady_state']['runs'] == 0 and s['steady_state']['compute'] is None"
  expect_only s.json one.json
  ;;
quiet)
  need_add
  run --model "$ADD" --loop 3 --quiet --summary-json s.json
  expect_rc 0
  [ ! -s "$OUT" ] && [ ! -s "$ERR" ] || fail "--quiet should print nothing"
  py "
import json
assert json.load(open('s.json'))['executions'] == 3"
  ;;
warmup_loop_counts)
  make_items d 4
  run --model "$DYN" --input d --loop 5 --warmup 2 --batchsize 8 --summary-json s.json
  expect_rc 0
  py "
import json
s = json.load(open('s.json'))
assert s['executions'] == 22 and s['steady_state']['runs'] == 19, s
assert s['items_per_execution'] == 8"
  ;;
equals_form)
  need_add
  run --model="$ADD" --loop=4 --warmup=1 --outfmt=NPY --output=out --summary-json=s.json --input=zeros,zeros --quiet=true
  expect_rc 0
  [ -f out/run0_sum.npy ] || fail "no output"
  py "
import json
s = json.load(open('s.json')); assert s['executions'] == 5"
  ;;
msame_spellings)
  make_items d 4
  run --model "$DYN" --input d --output out --outfmt TXT --loop 2 --dymBatch 2 --debug true --outputSize 32,32
  expect_rc 0
  [ -f out/in0_y.txt ] && [ -f out/in2_y.txt ] || fail "msame spellings: $(ls out)"
  py "
import numpy as np
assert np.loadtxt('out/in2_y.txt').shape == (2,4)"
  expect_err "openacl: debug: execution 1 run 1"
  run --model "$DYN" --input d --dymDims "x:2,4" --auto_set_dymdims_mode 1 --quiet
  expect_rc 0
  ;;
ais_bench_spellings)
  make_items d 4
  run --model "$DYN" --input d --output res --output_dirname sub --outfmt NPY --loop 3 --warmup_count 2 \
    --dymShape "x:2,4" --display_all_summary True --batchsize 2 --auto_set_dymshape_mode false --summary-json s.json
  expect_rc 0
  [ -f res/sub/in0_y.npy ] && [ -f res/sub/in2_y.npy ] || fail "ais_bench output_dirname: $(ls -R res)"
  py "
import json
s = json.load(open('s.json')); assert s['executions'] == 8 and s['warmup'] == 2, s"
  expect_only d res s.json
  ;;
only_output_written)
  make_items d 3
  run --model "$DYN" --input d --output out --loop 2 --debug
  expect_rc 0
  expect_only d out
  [ -z "$(ls -A "$HOME")" ] || fail "files written in HOME: $(ls -A "$HOME")"
  [ "$(ls out | wc -l)" -eq 6 ] || fail "outputs: $(ls out)"
  ;;
no_progress_when_not_tty)
  make_items d 12
  run --model "$DYN" --input d --output out
  expect_rc 0
  [ ! -s "$ERR" ] || fail "no progress bar when stderr is not a terminal"
  [ "$(ls out | wc -l)" -eq 24 ] || fail "12 executions should write 24 files: $(ls out)"
  ;;
progress_on_tty)
  make_items d 12
  command -v script >/dev/null || { echo "script(1) missing: cannot fake a terminal"; exit 1; }
  script -qec "'$BIN' infer --model '$DYN' --input d 2>&1 >/dev/null" /dev/null >"$ERR" 2>&1
  RC=$?
  expect_rc 0
  expect_err "12/12 ["
  ;;
recipe_folder_batch)
  # the tool's side of a recipe: a folder of pictures batched 4 at a time, the recipe's option, one answer
  # per picture, one output file per batch, the recipe's files only (labels.txt is skipped)
  SHAPES=$SRC/models/shapes
  n=$(ls "$SHAPES/images" | grep -c -e '\.png$' -e '\.jpg$')
  run --model "$SHAPES/shapes.onnx" --input "$SHAPES/images" --recipe classify --labels "$SHAPES/labels.txt" \
    --topk 1 --dym-batch 4 --output out --outfmt NPY --summary-json s.json
  expect_rc 0
  [ "$(grep -c 'top-1 of' "$OUT")" -eq "$n" ] || fail "one answer per picture ($n) expected"
  expect_out "star_1.png: top-1"
  py "
import json, os
s = json.load(open('s.json'))
assert s['distinct_inputs'] == ($n + 3) // 4 and s['items_per_execution'] == 4, s
assert len(os.listdir('out')) == s['distinct_inputs'] * len(s['outputs']), os.listdir('out')"
  ;;
err_unknown_option)
  run --model "$DYN" --frobnicate 3
  expect_error 2 "unknown option '--frobnicate'"
  ;;
err_missing_value)
  run --model "$DYN" --loop
  expect_error 2 "option --loop needs a value"
  ;;
err_bad_number)
  run --model "$DYN" --loop 3x
  expect_error 2 "option --loop: '3x' is not a whole number"
  run --model "$DYN" --dym-batch 0
  expect_error 2 "option --dym-batch: '0'"
  run --model "$DYN" --device -1
  expect_error 2 "option --device"
  ;;
err_missing_model)
  run --input zeros
  expect_error 2 "--model FILE is required"
  ;;
err_unreadable_model)
  run --model nothere.onnx
  expect_error 1 "loading model 'nothere.onnx'" "aclmdlLoadFromFile returned ACL_ERROR_READ_MODEL_FAILURE (100014)"
  ;;
err_bad_model)
  echo "not a model" >bad.onnx
  run --model bad.onnx
  expect_error 1 "loading model 'bad.onnx'" "aclmdlLoadFromFile returned ACL_ERROR_PARSE_MODEL (100013): the model could not be parsed; details: model file 'bad.onnx'" "Remedy:"
  ;;
err_unreadable_input)
  run --model "$DYN" --input missing.npy
  expect_error 1 "input 'x': cannot read 'missing.npy': No such file or directory"
  ;;
err_input_count)
  need_add
  run --model "$ADD" --input zeros
  expect_error 1 "--input gives 1 input but model" "has 2 ('x', 'y')"
  run --model "$ADD" --input zeros,zeros,zeros
  expect_error 1 "--input gives 3 inputs"
  ;;
err_input_bytes)
  need_add
  head -c 236 /dev/zero >a.bin
  run --model "$ADD" --input a.bin,zeros --output out
  expect_error 1 "input 'x': 'a.bin' holds 236 bytes but the model expects 240 (float32 [3,4,5])"
  [ ! -e out ] || fail "nothing may be written when a check fails"
  ;;
err_input_shape)
  need_add
  $PY -c "import numpy as np; np.save('a.npy', np.zeros((3,5,4), np.float32))"
  run --model "$ADD" --input zeros,a.npy
  expect_error 1 "input 'y': 'a.npy' has shape [3,5,4] but the model expects [3,4,5]"
  ;;
err_input_dtype)
  need_add
  $PY -c "import numpy as np; np.save('a.npy', np.zeros((3,4,5), np.int64))"
  run --model "$ADD" --input a.npy,zeros
  expect_error 1 "input 'x': 'a.npy' holds int64 (<i8) but the model expects float32"
  ;;
err_output_folder)
  need_add
  echo x >file
  run --model "$ADD" --output file/sub
  expect_error 1 "cannot create output folder 'file/sub'"
  ;;
err_unsupported_peer_option)
  run --model "$DYN" --acl_json_path acl.json
  expect_error 2 "option --acl_json_path (msame / ais_bench) is not supported by openacl"
  run --model "$DYN" --aipp=1
  expect_error 2 "option --aipp"
  run --model "$DYN" --profiler=maybe
  expect_error 2 "option --profiler: 'maybe' is not true or false"
  ;;
profiler)
  # msame's spelling with --output: OUTPUT/profiler/PROF_..., a sound trace,
  # the model's operators in the tables, and `openacl prof` reads it back
  run --model "$DYN" --dym-batch 2 --loop 3 --profiler true --output out --quiet
  expect_rc 0
  expect_out "profiler: profile written to out/profiler/PROF_"
  p=$(ls -d out/profiler/PROF_*)
  [ "$(echo "$p" | wc -l)" -eq 1 ] || fail "expected one PROF_ directory: $p"
  grep -qF "$p" "$OUT" || fail "stdout does not name $p"
  for t in op_summary task_time api_statistic op_statistic; do
    ls "$p"/mindstudio_profiler_output/${t}_*.csv >/dev/null 2>&1 || fail "no ${t}_*.csv in $p"
  done
  "$PY" "$SRC/tests/api/prof_trace_check.py" "$p" >"$SCRATCH/trace" 2>&1 || { cat "$SCRATCH/trace"; fail "trace check"; }
  grep -q "^0,execution of model 1,MODEL_EXECUTE," "$p"/mindstudio_profiler_output/task_time_*.csv \
    || fail "no model execution task"
  # 3 executions: each operator of the model ran 3 times
  py "
import csv, glob, collections
rows = list(csv.DictReader(open(glob.glob('$p/mindstudio_profiler_output/op_summary_*.csv')[0])))
n = collections.Counter(r['Op Name'] for r in rows)
assert n and set(n.values()) == {3}, n"
  "$BIN" prof out/profiler >"$SCRATCH/prof" 2>&1 || { cat "$SCRATCH/prof"; fail "openacl prof failed"; }
  grep -q "top operators by total time" "$SCRATCH/prof" || fail "openacl prof printed no operators"
  expect_only out
  # ais_bench's spelling without --output: ./profiler; 0 turns it off
  run --model "$DYN" --dym-batch 2 --profiler 1
  expect_rc 0
  expect_out "profiler: profile written to ./profiler/PROF_"
  expect_out "steady state"
  run --model "$DYN" --dym-batch 2 --profiler 0
  expect_rc 0
  grep -q "profiler" "$OUT" && fail "--profiler 0 still profiled"
  [ "$(ls -d profiler/PROF_* | wc -l)" -eq 1 ] || fail "--profiler 0 wrote a profile"
  expect_only out profiler
  ;;
dump)
  # every layer in the vendor's dump format, read back with the real protobuf
  # library and compared with the .npy beside each tensor (dump_read.py)
  run --model "$DYN" --dym-batch 2 --dump --output out --quiet
  expect_rc 0
  expect_out "dump: every layer's inputs and outputs written under"
  n=0
  for f in $(find out/dump -type f ! -name '*.npy'); do
    case "$f" in out/dump/[0-9]*/0/dyn_batch/1/0/*.*.*.*.*) ;; *) fail "dump layout: $f" ;; esac
    "$PY" "$(dirname "$0")/dump_read.py" "$f" >/dev/null || fail "dump_read.py $f"
    n=$((n + 1))
  done
  [ "$n" -ge 2 ] || fail "only $n dump files: $(find out -type f)"
  ;;
err_bad_outfmt)
  run --model "$DYN" --outfmt JPG
  expect_error 2 "option --outfmt: 'JPG' is not an output format (BIN, NPY or TXT)"
  ;;
err_dym_shape_name)
  run --model "$DYN" --dym-shape "input:1,4"
  expect_error 2 "option --dym-shape: the model has no input 'input' (its inputs: 'x')"
  ;;
err_dym_shape_static)
  run --model "$DYN" --dym-shape "x:2,5"
  expect_error 2 "input 'x' is [-1,4], the option gives [2,5]"
  run --model "$DYN" --dym-shape "x:2"
  expect_error 2 "input 'x' has 2 dimensions"
  run --model "$DYN" --dym-shape "x=2,4"
  expect_error 2 "is not name:d1,d2"
  ;;
err_open_shape_generated)
  run --model "$DYN" --input zeros
  expect_error 2 "input 'x' has the open shape [-1,4]: give --dym-shape x:"
  run --model "$DYN" --input random --dym-batch 3 --output out --outfmt NPY
  expect_rc 0
  ;;
err_folder_counts)
  need_add
  mkdir a b
  $PY -c "
import numpy as np
for i in range(3): np.zeros((3,4,5), np.float32).tofile('a/%d.bin' % i)
for i in range(2): np.zeros((3,4,5), np.float32).tofile('b/%d.bin' % i)"
  run --model "$ADD" --input a,b
  expect_error 1 "input 'x' has 3 files (3 executions) but input 'y' has 2 (2)"
  ;;
err_summary_json)
  need_add
  run --model "$ADD" --summary-json nodir/s.json
  expect_rc 1
  expect_err "cannot write --summary-json file 'nodir/s.json'"
  ;;
err_output_size)
  run --model "$DYN" --output-size 16
  expect_error 2 "option --output-size: 1 size given but the model has 2 outputs"
  run --model "$DYN" --output-size 16,abc
  expect_error 2 "is not a list of byte counts"
  ;;
gear_batch)
  # a model loaded with batch gears: the tool chooses the gear with
  # aclmdlSetDynamicBatchSize and feeds x only (the gear input is its own)
  $PY -c "
import numpy as np
np.save('a.npy', (np.arange(8, dtype=np.float32) - 3).reshape(2, 4))"
  run --model "$DYN" --input a.npy --output plain --outfmt NPY
  expect_rc 0
  OPENACL_DYNAMIC_BATCH=1,2,4 run --model "$DYN" --input a.npy --dymBatch 2 --output gear --outfmt NPY
  expect_rc 0
  OPENACL_DYNAMIC_BATCH=1,2,4 run --model "$DYN" --input a.npy --dym-batch 2 --output gear2 --outfmt NPY \
    --loop 3 --summary-json s.json
  expect_rc 0
  py "
import json, numpy as np
for d in ('gear', 'gear2'):
  for n in ('a_y', 'a_z_0'):
    a, b = np.load('%s/%s.npy' % (d, n)), np.load('plain/%s.npy' % n)
    assert a.shape == (2, 4) and np.array_equal(a, b), (d, n, a, b)
assert np.array_equal(np.load('gear/a_y.npy'), np.maximum(np.load('a.npy'), 0) * 2 + 1)
assert json.load(open('s.json'))['executions'] == 3"
  # a folder of single items: batches of the gear, the last one padded
  make_items d 3
  OPENACL_DYNAMIC_BATCH=1,2,4 run --model "$DYN" --input d --dymBatch 2 --output items --outfmt NPY
  expect_rc 0
  [ "$(ls items | tr '\n' ' ')" = "in0_y.npy in0_z_0.npy in2_y.npy in2_z_0.npy " ] || fail "outputs: $(ls items)"
  py "
import numpy as np
a = np.load('items/in2_y.npy'); assert a.shape == (2, 4) and np.array_equal(a, [[1, 1, 1, 3], [1, 1, 1, 1]]), a"
  expect_only a.npy plain gear gear2 s.json d items
  ;;
err_gear_not_a_gear)
  make_items d 1
  OPENACL_DYNAMIC_BATCH=1,2,4 run --model "$DYN" --input d/in0.npy --dymBatch 3
  expect_error 2 "option --dym-batch: 3 is not one of the gears of model" "(OPENACL_DYNAMIC_BATCH: 1, 2, 4)"
  ;;
err_gear_no_option)
  make_items d 1
  OPENACL_DYNAMIC_BATCH=1,2,4 run --model "$DYN" --input d/in0.npy
  expect_error 2 "was loaded with gears (OPENACL_DYNAMIC_BATCH: 1, 2, 4): choose one with --dym-batch N" "--dymBatch"
  OPENACL_DYNAMIC_DIMS='1,4;2,8' run --model "$SRC/tests/data/tool/dyn_2d.onnx" --input d/in0.npy
  expect_error 2 "(OPENACL_DYNAMIC_DIMS: \"x:1,4\", \"x:2,8\"): choose one with --dym-shape" "--dymDims"
  ;;
gear_dims)
  $PY -c "
import numpy as np
np.save('b.npy', (np.arange(16, dtype=np.float32) - 5).reshape(2, 8))"
  OPENACL_DYNAMIC_DIMS='1,4;2,8' run --model "$SRC/tests/data/tool/dyn_2d.onnx" --input b.npy --dymDims 'x:2,8' \
    --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
a = np.load('out/b_y.npy'); assert a.shape == (2, 8) and np.array_equal(a, np.maximum(np.load('b.npy'), 0)), a"
  OPENACL_DYNAMIC_DIMS='1,4;2,8' run --model "$SRC/tests/data/tool/dyn_2d.onnx" --input b.npy --dymDims 'x:2,4'
  expect_error 2 "option --dym-shape: 'x:2,4' is not one of the gears" "\"x:1,4\", \"x:2,8\""
  # the file is checked against the gear chosen
  OPENACL_DYNAMIC_DIMS='1,4;2,8' run --model "$SRC/tests/data/tool/dyn_2d.onnx" --input b.npy --dymShape 'x:1,4'
  expect_error 1 "input 'x': 'b.npy' has shape [2,8] but the model expects [1,4]"
  ;;
gear_hw)
  # x: float32 [1,3,H,W] -> y = relu(x), with HW gears 2,2 and 4,4
  $PY -c "
import numpy as np, onnx
from onnx import helper, TensorProto
x = helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3, 'H', 'W'])
y = helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 3, 'H', 'W'])
g = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'hw', [x], [y])
m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)]); m.ir_version = 8
onnx.save(m, 'hw.onnx')
np.save('p.npy', (np.arange(12, dtype=np.float32) - 6).reshape(1, 3, 2, 2))"
  OPENACL_DYNAMIC_HW='2,2;4,4' run --model hw.onnx --input p.npy --dymHW 2,2 --output out --outfmt NPY
  expect_rc 0
  py "
import numpy as np
a = np.load('out/p_y.npy'); assert a.shape == (1, 3, 2, 2) and np.array_equal(a, np.maximum(np.load('p.npy'), 0)), a"
  OPENACL_DYNAMIC_HW='2,2;4,4' run --model hw.onnx --input p.npy --dym-hw 3,3
  expect_error 2 "option --dym-hw: 3,3 is not one of the gears" "(OPENACL_DYNAMIC_HW: 2,2; 4,4)"
  OPENACL_DYNAMIC_HW='2,2;4,4' run --model hw.onnx --input p.npy
  expect_error 2 "choose one with --dym-hw H,W" "--dymHW"
  ;;
err_empty_folder)
  mkdir d
  echo x >d/readme.md
  run --model "$DYN" --input d
  expect_error 1 "input 'x': folder 'd' holds no .bin or .npy files"
  ;;
err_bad_npy)
  printf 'not numpy' >x.npy
  run --model "$DYN" --input x.npy
  expect_error 1 "input 'x': 'x.npy': not a .npy file"
  $PY -c "import numpy as np; np.save('big.npy', np.zeros((2,4), '>f4'))"
  run --model "$DYN" --input big.npy
  expect_error 1 "big-endian"
  ;;
err_stray_argument)
  run --model "$DYN" model.onnx
  expect_error 2 "unexpected argument 'model.onnx'"
  ;;
precision_mode)
  # the model converter's names; the summary says which mode ran
  need_add
  run --model "$ADD" --precision_mode allow_mix_precision --summary-json s.json
  expect_rc 0
  grep -q '^precision mode   allow_mix_precision$' "$OUT" || fail "the summary should name the precision mode"
  py "
import json
s = json.load(open('s.json'))
assert s['precision_mode'] == 'allow_mix_precision', s
"
  run --model "$ADD" --precision-mode=fastest
  expect_error 1 "aclmdlSetConfigOpt returned ACL_ERROR_INVALID_PARAM" "'fastest' is not a precision mode"
  ;;
err_unknown_recipe)
  run --model "$DYN" --recipe nosuch
  expect_error 2 "option --recipe: no recipe named 'nosuch'"
  ;;
*)
  echo "unknown case '$CASE'"
  exit 1
  ;;
esac
echo "ok [$CASE]"
