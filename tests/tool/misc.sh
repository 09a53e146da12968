#!/bin/sh
# misc.sh - drives `openacl devices`, `openacl explain`, `openacl config check`,
# `openacl prof` and the dispatcher as a user would: exit codes, stdout,
# stderr, JSON.
#
#   sh misc.sh OPENACL_BINARY SOURCE_DIR AREA/CASE
#
# Each case runs in an empty working directory with HOME and the log path in
# a scratch directory; the working directory must still be empty afterwards
# (these commands write nothing).  A failed check prints what was expected
# and what came, and exits 1.
set -u
BIN=$1
SRC=$2
CASE=$3
CFG=$SRC/tests/data/config
PY=/usr/bin/python3

. "$(dirname "$0")/lib.sh"
tool_case_setup misc

# run ARGS...: the binary with ARGS, stdout/stderr/exit code kept.
run() {
  "$BIN" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

out_empty() { [ ! -s "$OUT" ] || fail "stdout is not empty"; }
err_empty() { [ ! -s "$ERR" ] || fail "stderr is not empty"; }
# Every stderr line is one of the tool's own: "openacl: error|warning: ...".
err_lines_ok() {
  if grep -v '^openacl: \(error\|warning\): ' "$ERR" | grep -q .; then fail "stderr has a line not in the tool's format"; fi
}
err_line_count() {
  n=$(grep -c '^openacl: error: ' "$ERR")
  [ "$n" -eq "$1" ] || fail "$n error lines on stderr, expected $1"
}
# json_check 'PYTHON EXPRESSION over d': stdout parsed as JSON into d.
json_check() {
  "$PY" -c "import json,sys
d = json.load(open(sys.argv[1]))
ok = $1
sys.exit(0 if ok else 1)" "$OUT" || fail "JSON check failed: $1"
}

# make_prof DIR NAME: a PROF_ directory NAME under DIR with hand-made tables
# (times in µs from 1000000): stream 1 runs [0,100] and [150,250]; stream 2
# runs [0,50], waits on an event [50,200] and runs [300,400]: a 400 us
# window, stream 1 busy 200 (50.0%), stream 2 busy 150 (37.5%) with 150 of
# wait and a 100 us gap at 200.  Operators: model 2 conv1 100 us, model 1
# conv1 10+20+30, model 1 relu 5+5.
make_prof() {
  d="$1/$2/mindstudio_profiler_output"
  mkdir -p "$d" "$1/$2/host/data"
  cat >"$d/task_time_20260101000000.csv" <<'CSV'
Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)
0,execution of model 1,MODEL_EXECUTE,1,1,100.000,1000000.000,1000100.000
0,"copy of 64 bytes, host to device",MEMCPY_ASYNC,2,1,50.000,1000000.000,1000050.000
0,wait for event 3,EVENT_WAIT,2,2,150.000,1000050.000,1000200.000
0,execution of model 1,MODEL_EXECUTE,1,2,100.000,1000150.000,1000250.000
0,execution of model 2,MODEL_EXECUTE,2,3,100.000,1000300.000,1000400.000
CSV
  cat >"$d/op_summary_20260101000000.csv" <<'CSV'
Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,Implementation
0,1,1,1,conv1,Conv,static,AI_CORE,1000000.000,10.000,0.000,1,0,NO,"1,3,8,8;4,3,3,3",DT_FLOAT;DT_FLOAT,NCHW;NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,brg:avx2
0,1,1,1,relu,Relu,static,AI_CORE,1000010.000,5.000,0.000,1,0,NO,"1,4,6,6",DT_FLOAT,NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,reference kernel
0,1,2,1,conv1,Conv,static,AI_CORE,1000150.000,20.000,0.000,1,0,NO,"1,3,8,8;4,3,3,3",DT_FLOAT;DT_FLOAT,NCHW;NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,brg:avx2
0,1,2,1,relu,Relu,static,AI_CORE,1000170.000,5.000,0.000,1,0,NO,"1,4,6,6",DT_FLOAT,NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,reference kernel
0,1,3,1,conv1,Conv,static,AI_CORE,1000180.000,30.000,0.000,1,0,NO,"1,3,8,8;4,3,3,3",DT_FLOAT;DT_FLOAT,NCHW;NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,brg:avx2
0,2,3,2,conv1,Conv,static,AI_CORE,1000300.000,100.000,0.000,1,0,NO,"1,3,8,8;4,3,3,3",DT_FLOAT;DT_FLOAT,NCHW;NCHW,"1,4,6,6",DT_FLOAT,NCHW,N/A,jit:avx2
CSV
}
# out_line TEXT...: some line of stdout holds every TEXT, or fail.
out_line() {
  f=$(cat "$OUT")
  for t in "$@"; do f=$(printf '%s\n' "$f" | grep -F -- "$t"); done
  [ -n "$f" ] || fail "no stdout line holds all of: $*"
}

case "$CASE" in
# ---- devices -------------------------------------------------------------
devices/table)
  # a registry name of this test's own: no other process uses "its" device
  OPENACL_SHARED_DEVICE_NAME=tool$$ run devices
  expect_rc 0; err_empty
  expect_out "ID"; expect_out "BACKEND"; expect_out "SOC"; expect_out "MEMORY"; expect_out "THREADS"
  expect_out "openacl-cpu"
  [ "$(head -n 2 "$OUT" | wc -l)" -eq 2 ] && [ "$(sed -n 3p "$OUT")" = "" ] || fail "expected a header and one device"
  expect_out "no process of this user uses a device now"
  ;;
devices/processes)
  # a process holding device memory shows under the table, as npu-smi lists them
  export OPENACL_SHARED_DEVICE_NAME=tool$$
  "$BIN" infer --model "$SRC/models/shapes/shapes.onnx" --dym-batch 8 --input random --loop 100000 --quiet &
  holder=$!
  found=0
  for _ in $(seq 1 100); do
    run devices --json
    if "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(p['pid'] == $holder and p['memory_bytes'] > 0 for p in d[0]['processes']) else 1)" "$OUT"; then
      found=1
      break
    fi
    sleep 0.1
  done
  run devices
  kill "$holder"; wait "$holder" 2>/dev/null
  [ "$found" = 1 ] || fail "openacl devices --json never listed process $holder"
  expect_out "PID"; expect_out "$holder"
  unset OPENACL_SHARED_DEVICE_NAME
  ;;
devices/json)
  OPENACL_DEVICE_COUNT=3 OPENACL_DEVICE_MEMORY=1G OPENACL_EXECUTOR_THREADS=3 OPENACL_SOC_NAME='Ascend"910B1' run devices --json
  expect_rc 0; err_empty
  json_check 'len(d) == 3 and [x["id"] for x in d] == [0, 1, 2] and [x["physical_id"] for x in d] == [0, 1, 2]'
  json_check 'all(x["memory_bytes"] == 1 << 30 and x["executor_threads"] == 3 and x["backend"] == "cpu" for x in d)'
  json_check 'all(x["soc_name"] == "Ascend\"910B1" and x["ai_cores"] == 3 and x["vector_cores"] == 3 for x in d)'
  ;;
devices/visible)
  # ASCEND_RT_VISIBLE_DEVICES renumbers in the listed order.
  OPENACL_DEVICE_COUNT=4 ASCEND_RT_VISIBLE_DEVICES=3,1 run devices --json
  expect_rc 0; err_empty
  json_check '[(x["id"], x["physical_id"]) for x in d] == [(0, 3), (1, 1)]'
  OPENACL_DEVICE_COUNT=4 ASCEND_VISIBLE_DEVICES=1-3 ASCEND_RT_VISIBLE_DEVICES=2 run devices --json
  expect_rc 0
  json_check '[(x["id"], x["physical_id"]) for x in d] == [(0, 3)]'
  ;;
devices/memory_units)
  OPENACL_DEVICE_MEMORY=1536M run devices
  expect_rc 0; expect_out "1.5 GiB"
  ;;
devices/backend_null)
  OPENACL_BACKEND=null run devices --json
  expect_rc 0
  json_check 'len(d) >= 1 and d[0]["backend"] == "null"'
  ;;
devices/bad_visible)
  # A device that does not exist: the API error explained, with the variable.
  ASCEND_RT_VISIBLE_DEVICES=5 run devices
  expect_rc 1; out_empty; err_lines_ok; err_line_count 1
  expect_err "aclrtGetDeviceCount returned ACL_ERROR_RT_INVALID_DEVICEID (107001)"
  expect_err "ASCEND_RT_VISIBLE_DEVICES='5'"
  expect_err "remedy:"
  ;;
devices/malformed_visible)
  ASCEND_RT_VISIBLE_DEVICES=a,b run devices --json
  expect_rc 1; out_empty; err_lines_ok; err_line_count 1
  expect_err "openacl: warning: "
  expect_err "token 1 ('a') is not a device id"
  expect_err "107001"
  ;;
devices/usage)
  run devices --frobnicate
  expect_rc 2; out_empty; err_line_count 1
  expect_err "unknown option '--frobnicate'"; expect_err "openacl devices --help"
  run devices extra
  expect_rc 2; expect_err "takes no arguments"
  run devices --help
  expect_rc 0; err_empty; expect_out "usage: openacl devices"; expect_out "--json"; expect_out "ASCEND_RT_VISIBLE_DEVICES"
  ;;
# ---- explain -------------------------------------------------------------
explain/code)
  run explain 107002
  expect_rc 0; err_empty
  expect_out "ACL_ERROR_RT_CONTEXT_NULL (107002)"
  expect_out "meaning: "; expect_out "causes: "; expect_out "remedy: "
  ;;
explain/name_forms)
  # Any case, with or without the prefixes, '-' for '_'.
  for n in ACL_ERROR_RT_CONTEXT_NULL acl_error_rt_context_null ERROR_RT_CONTEXT_NULL rt_context_null context_null \
    context-null; do
    run explain "$n"
    expect_rc 0; expect_out "ACL_ERROR_RT_CONTEXT_NULL (107002)"
  done
  run explain invalid_param
  expect_rc 0; expect_out "ACL_ERROR_INVALID_PARAM (100000)"
  ;;
explain/hex)
  run explain 0x1A1FA
  expect_rc 0; expect_out "ACL_ERROR_RT_CONTEXT_NULL (107002)"
  ;;
explain/aliases)
  run explain 0
  expect_rc 0; expect_out "ACL_SUCCESS (0)"; expect_out "also named: ACL_ERROR_NONE, ACL_RT_SUCCESS"
  run explain acl_error_none
  expect_rc 0; expect_out "ACL_ERROR_NONE (0)"; expect_out "ACL_SUCCESS"
  ;;
explain/several)
  run explain 100000 107002
  expect_rc 0
  expect_out "ACL_ERROR_INVALID_PARAM (100000)"; expect_out "ACL_ERROR_RT_CONTEXT_NULL (107002)"
  ;;
explain/unknown_code)
  run explain 107999
  expect_rc 1; out_empty; err_line_count 1
  expect_err "107999 is not a code in openacl's error table"
  expect_err "the nearest known codes are"; expect_err "openacl explain --list"
  run explain 99999999999
  expect_rc 1; expect_err "out of the range"
  ;;
explain/unknown_name)
  run explain CONTEXT_NUL
  expect_rc 1; out_empty; err_line_count 1
  expect_err "no error code is named 'CONTEXT_NUL'; did you mean ACL_ERROR_RT_CONTEXT_NULL?"
  run explain zzzzzzzzzzzz
  expect_rc 1; expect_err "no error code is named 'zzzzzzzzzzzz'"; expect_err "openacl explain --list"
  ;;
explain/partly_unknown)
  # The known ones are printed, the unknown one reported, exit 1.
  run explain 100000 nosuchcode
  expect_rc 1; expect_out "ACL_ERROR_INVALID_PARAM (100000)"; expect_err "'nosuchcode'"
  ;;
explain/json)
  run explain --json 107002 acl_success
  expect_rc 0; err_empty
  json_check 'len(d) == 2 and d[0]["name"] == "ACL_ERROR_RT_CONTEXT_NULL" and d[0]["code"] == 107002'
  json_check 'all(d[0][k] for k in ("meaning", "causes", "remedy")) and d[0]["aliases"] == []'
  json_check 'd[1]["code"] == 0 and "ACL_ERROR_NONE" in d[1]["aliases"]'
  ;;
explain/list)
  run explain --list
  expect_rc 0; err_empty
  expect_out "ACL_ERROR_RT_CONTEXT_NULL"; expect_out "107002"
  TEXT_LINES=$(wc -l <"$OUT")
  run explain --list --json
  expect_rc 0
  json_check "len(d) == $TEXT_LINES and len(d) > 200 and len(set(x['name'] for x in d)) == len(d)"
  json_check 'all(isinstance(x["code"], int) and x["meaning"] and x["remedy"] for x in d)'
  ;;
explain/usage)
  run explain
  expect_rc 2; out_empty; expect_err "no CODE or NAME given"; expect_err "openacl explain --help"
  run explain --bogus
  expect_rc 2; expect_err "unknown option '--bogus'"
  run explain --list 5
  expect_rc 2; expect_err "--list takes no CODE or NAME"
  run explain --help
  expect_rc 0; err_empty; expect_out "usage: openacl explain"; expect_out "--list"; expect_out "--json"
  ;;
# ---- config check --------------------------------------------------------
config/valid)
  run config check "$CFG/valid_empty_object.json"
  expect_rc 0; err_empty
  json_check 'd["max_opqueue_num"] == 20000 and "environment" in d and "dump" in d'
  ;;
config/valid_with_warning)
  run config check "$CFG/valid_watcher_overlap.json"
  expect_rc 0; err_lines_ok
  expect_err "openacl: warning: $CFG/valid_watcher_overlap.json: dump.dump_list[0]: \"C\" is in both layer and watcher_nodes"
  json_check '"dump" in d'
  ;;
config/cases)
  # Every case of tests/data/config/cases.tsv: the exit code follows the
  # expected aclInit code, and an error's fragment appears on stderr.
  TAB=$(printf '\t')
  n=0
  while IFS="$TAB" read -r file code fragment; do
    case "$file" in '#'*|'') continue ;; esac
    run config check "$CFG/$file"
    n=$((n + 1))
    if [ "$code" = 0 ]; then
      expect_rc 0
      cat "$OUT" "$ERR" | grep -qF -- "$fragment" || fail "neither stdout nor stderr has '$fragment'"
    else
      expect_rc 1; err_lines_ok
      expect_err "aclInit would return"; expect_err "($code)"
      expect_err "$fragment"
    fi
  done <"$CFG/cases.tsv"
  [ "$n" -gt 50 ] || fail "only $n cases read from cases.tsv"
  ;;
config/key_path)
  run config check "$CFG/dump_mode_bad.json"
  expect_rc 1; out_empty; err_lines_ok; err_line_count 2
  expect_err "openacl: error: $CFG/dump_mode_bad.json: dump.dump_mode: \"everything\" is not one of input, output, all"
  expect_err "ACL_ERROR_INVALID_DUMP_CONFIG (100009)"
  ;;
config/missing_file)
  run config check "$SCRATCH/nothing-here.json"
  expect_rc 1; out_empty; err_lines_ok
  expect_err "nothing-here.json: cannot read the configuration file: No such file or directory"
  expect_err "ACL_ERROR_INVALID_FILE (100003)"
  run config check "$SCRATCH"
  expect_rc 1; expect_err "is a directory"
  ;;
config/unreadable)
  # A file that exists but cannot be read: /proc/self/mem fails every read
  # (even for root); a mode-000 file is tried too unless root can read it.
  if [ -e /proc/self/mem ]; then
    run config check /proc/self/mem
    expect_rc 1; out_empty; err_lines_ok
    expect_err "/proc/self/mem: cannot read the configuration file: "; expect_err "(100003)"
  fi
  f=$SCRATCH/secret.json
  echo '{}' >"$f"; chmod 000 "$f"
  if [ ! -r "$f" ]; then
    run config check "$f"
    expect_rc 1; expect_err "Permission denied"; expect_err "(100003)"
  fi
  ;;
config/env_applies)
  # The environment is applied as aclInit would: it shows in the result.
  OPENACL_SOC_NAME=Ascend310P3 run config check "$CFG/valid_empty_object.json"
  expect_rc 0
  json_check 'd["environment"]["OPENACL_SOC_NAME"] == "Ascend310P3"'
  ;;
config/json)
  run config check --json "$CFG/dump_mode_bad.json"
  expect_rc 1; err_empty
  json_check 'd["valid"] is False and d["code"] == 100009 and d["name"] == "ACL_ERROR_INVALID_DUMP_CONFIG"'
  json_check 'd["problems"][0] == {"severity": "error", "key": "dump.dump_mode", "message": "\"everything\" is not one of input, output, all"}'
  json_check 'd["effective"] is None'
  run config check --json "$CFG/valid_watcher_overlap.json"
  expect_rc 0; err_empty
  json_check 'd["valid"] is True and d["code"] == 0 and d["problems"][0]["severity"] == "warning"'
  json_check 'd["effective"]["max_opqueue_num"] == 20000'
  run config check --json "$CFG/syntax_trailing_comma.json"
  expect_rc 1
  json_check 'd["problems"][0]["key"] == "" and "line 3, column 1" in d["problems"][0]["message"]'
  ;;
config/usage)
  run config
  expect_rc 2; out_empty; expect_err "missing subcommand"; expect_err "openacl config --help"
  run config frob x.json
  expect_rc 2; expect_err "unknown subcommand 'frob'"
  run config check
  expect_rc 2; expect_err "no FILE given"; expect_err "openacl config check --help"
  run config check a.json b.json
  expect_rc 2; expect_err "one FILE at a time"
  run config check --strict a.json
  expect_rc 2; expect_err "unknown option '--strict'"
  run config check --help
  expect_rc 0; err_empty; expect_out "usage: openacl config check"
  ;;
# ---- prof ----------------------------------------------------------------
prof/summary)
  make_prof "$SCRATCH" PROF_000001_20260101000000000_00001234ABCDEFGH
  run prof "$SCRATCH/PROF_000001_20260101000000000_00001234ABCDEFGH"
  expect_rc 0; err_empty
  expect_out "mindstudio_profiler_output"
  expect_out "6 runs of 3 operators, 170.000 us in all"
  # by total time: model 2 conv1, then model 1 conv1, then relu
  order=$(grep -E '^  [12] ' "$OUT" | awk '{print $1 "/" $2}' | tr '\n' ' ')
  [ "$order" = "2/conv1 1/conv1 1/relu " ] || fail "operator order '$order'"
  out_line "2     conv1" "100.000" "58.8%" "jit:avx2"
  out_line "1     conv1" "      3 " "60.000" "20.000" "30.000" "35.3%" "brg:avx2"
  out_line "1     relu" "reference kernel" "5.9%"
  out_line "  Conv " "      4 " "160.000" "94.1%"
  expect_out "the 400.000 us window"
  out_line "  0      1 " "      2 " "200.000" "0.000" "200.000" "50.0%"
  out_line "  0      2 " "      3 " "150.000" "150.000" "100.000" "37.5%"
  # the longest gap: stream 2, after the wait (ends at 200), 100 us, before model 2
  l=$(sed -n '/longest idle gaps/{n;n;p;}' "$OUT")
  printf '%s\n' "$l" | grep -q "^  0      2 .* 200.000 .* 100.000  wait for event 3 .*execution of model 2$" \
    || fail "first gap line '$l'"
  out_line "  0      1 " "100.000" "50.000" "execution of model 1"
  # the same from the folder above and from the tables' folder
  run prof "$SCRATCH"
  expect_rc 0; expect_out "6 runs of 3 operators"
  run prof --top 1 "$SCRATCH/PROF_000001_20260101000000000_00001234ABCDEFGH/mindstudio_profiler_output"
  expect_rc 0; expect_out "... 2 more (--top)"; expect_out "... 1 more (--top)"
  ;;
prof/newest)
  make_prof "$SCRATCH/p" PROF_000002_20260101000000000_00001234ABCDEFGH
  make_prof "$SCRATCH/p" PROF_000001_20260102000000000_00001234ABCDEFGH
  rm "$SCRATCH/p/PROF_000001_20260102000000000_00001234ABCDEFGH/mindstudio_profiler_output/op_summary_20260101000000.csv"
  run prof "$SCRATCH/p"
  expect_rc 0; err_empty
  expect_out "2 profiles in $SCRATCH/p; reading the newest, PROF_000001_20260102000000000_00001234ABCDEFGH"
  # task time only (l0): said so, the streams still summarised
  expect_out "operators: no op_summary table"
  expect_out "50.0%"
  ;;
prof/not_profile)
  mkdir "$SCRATCH/empty"
  run prof "$SCRATCH/empty"
  expect_rc 1; out_empty; err_line_count 1; err_lines_ok; expect_err "holds no profile"; expect_err "Remedy:"
  run prof "$SCRATCH/missing"
  expect_rc 1; out_empty; err_line_count 1; expect_err "'$SCRATCH/missing' is not a directory"
  mkdir -p "$SCRATCH/unwritten/PROF_000001_20260101000000000_00001234ABCDEFGH/mindstudio_profiler_output"
  run prof "$SCRATCH/unwritten"
  expect_rc 1; err_line_count 1; expect_err "the profile was not written"
  ;;
prof/bad_table)
  make_prof "$SCRATCH" PROF_000001_20260101000000000_00001234ABCDEFGH
  t="$SCRATCH/PROF_000001_20260101000000000_00001234ABCDEFGH/mindstudio_profiler_output/task_time_20260101000000.csv"
  sed -i '3s/1000050.000$/soon/' "$t"
  run prof "$SCRATCH/PROF_000001_20260101000000000_00001234ABCDEFGH"
  expect_rc 1; err_line_count 1; err_lines_ok
  expect_err "task_time_20260101000000.csv line 3: task_start(us) / task_stop(us) are not times"
  printf 'Device_id,stream_id\n0,1\n' >"$t"
  run prof "$SCRATCH/PROF_000001_20260101000000000_00001234ABCDEFGH"
  expect_rc 1; expect_err "the header lacks stream_id, task_start(us) or task_stop(us)"
  ;;
prof/usage)
  run prof
  expect_rc 2; out_empty; err_line_count 1; expect_err "no DIR given"; expect_err "see 'openacl prof --help'"
  for bad in 0 -1 x 10001 ''; do
    run prof --top "$bad" "$SCRATCH"
    expect_rc 2; expect_err "is not a count from 1 to 10000"
  done
  run prof --top
  expect_rc 2; expect_err "--top needs a value"
  run prof --bogus "$SCRATCH"
  expect_rc 2; expect_err "unknown option '--bogus'"
  run prof "$SCRATCH" "$SCRATCH/x"
  expect_rc 2; expect_err "one DIR only"
  run prof --help
  expect_rc 0; err_empty; expect_out "usage: openacl prof"; expect_out "--top"
  run help prof
  expect_rc 0; expect_out "usage: openacl prof"
  ;;
# ---- the dispatcher -----------------------------------------------------
main/help)
  run --help
  expect_rc 0; err_empty
  for c in infer devices explain config prof; do expect_out "  $c "; done
  run help explain
  expect_rc 0; expect_out "usage: openacl explain"
  ;;
main/no_args)
  run
  expect_rc 2; out_empty; expect_err "usage: openacl <command>"
  ;;
main/version)
  run --version
  expect_rc 0; err_empty
  grep -q '^openacl [0-9][0-9.]*$' "$OUT" || fail "no 'openacl X.Y.Z' line"
  expect_out "ACL API "
  ;;
main/unknown)
  run devcies
  expect_rc 2; out_empty; err_line_count 1; expect_err "unknown command 'devcies'"
  run explai
  expect_rc 2; expect_err "did you mean 'explain'?"
  run --json
  expect_rc 2; expect_err "options go after the command"
  run help nothing
  expect_rc 2; expect_err "unknown command 'nothing'"
  ;;
*)
  echo "misc.sh: no case '$CASE'"
  exit 2
  ;;
esac

# Nothing may be written in the working directory.
[ -z "$(ls -A "$SCRATCH/cwd")" ] || fail "files written in the working directory: $(ls -A "$SCRATCH/cwd")"
echo "ok [$CASE]"
exit 0
