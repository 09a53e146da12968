#!/bin/sh
# misc.sh - drives `openacl devices`, `openacl explain`, `openacl config check`
# and the dispatcher as a user would: exit codes, stdout, stderr, JSON.
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

case "$CASE" in
# ---- devices -------------------------------------------------------------
devices/table)
  run devices
  expect_rc 0; err_empty
  expect_out "ID"; expect_out "BACKEND"; expect_out "SOC"; expect_out "MEMORY"; expect_out "THREADS"
  expect_out "openacl-cpu"
  [ "$(wc -l <"$OUT")" -eq 2 ] || fail "expected a header and one device"
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
# ---- the dispatcher -----------------------------------------------------
main/help)
  run --help
  expect_rc 0; err_empty
  for c in infer devices explain config; do expect_out "  $c "; done
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
