#!/bin/sh
# run_hccl.sh BIN_DIR MODE OP|- NRANKS - runs an HCCL sample program as the
# vendor's README would and checks what it prints (reference §4):
#   threads OP N   sample_threads OP: one process, a thread per device (B)
#   initall OP N   sample_threads OP initall: HcclCommInitAll (D)
#   mpi OP N       mpirun -n N sample_mpi OP: MPI_Init + MPI_Bcast (A)
#   config OP N    the same with HcclCommInitRootInfoConfig
#   ranktable OP N mpirun -n N sample_mpi OP ranktable PATH: a rank table (C)
#   file OP N      mpirun -n N sample_mpi OP file PATH: the program never
#                  calls MPI; the root info goes through a file
#   order - N      mpirun -n N mpi_checks order: stream order, events
#   subcomm - N    mpirun -n N mpi_checks subcomm: sub-communicators
#   mixed - N      mpirun -n N mpi_checks mixed: 2 threads (ranks) per process
#   stall - N      the last rank stalls: the others fail in time, naming it
#   kill - N       the last rank is killed: the others fail, naming it
#   connect - N    the last rank never joins: init fails in time, naming it
#   sizes - N      mpirun -n N mpi_checks sizes: every algorithm and path, 1
#                  element to past 4 MiB, in place too
#   staged - N     the same with OPENACL_HCCL_ZERO_COPY=0
#   plain - N      the same with OPENACL_HCCL_PEER_MEMORY=0: no rank maps
#                  another's device memory, every byte goes through MPI
#   refusing - N   sizes with rank 0 alone running OPENACL_HCCL_PEER_MEMORY=0:
#                  it refuses the others' descriptions (the fallback by MPI)
#   refusing_staged - N  the same with rank 0 alone staging every message
#                  (OPENACL_HCCL_ZERO_COPY=0), as under protection keys
#   stall_split - N, kill_split - N   stall and kill with a two-phase AllReduce
#   kill_mapped - N  the last rank is killed after every rank has mapped
#                  every other's device memory (a large AllGather first)
#   hccltest NAME N [ARGS]  mpirun -n N <build>/tools/hccl_test/bin/NAME with
#                  small sizes (or ARGS): the table, every row "success"
# Every mpirun runs on loopback only (as root in CI, hence
# --allow-run-as-root).  Exits 1 on the first difference, with the output.
set -eu
bin=$1
mode=$2
op=$3
n=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/stdout.txt

fail() {
  echo "run_hccl.sh $mode $op $n: $*" >&2
  echo "--- output ---" >&2
  cat "$out" >&2 || true
  exit 1
}
expect_line() { grep -qxF -- "$1" "$out" || fail "no line '$1'"; }

export OPENACL_DEVICE_COUNT=$n
export OPENACL_SHARED_DEVICE_NAME="hccl_${mode}_${op}_$n"
export HCCL_EXEC_TIMEOUT=${HCCL_EXEC_TIMEOUT:-20}
export HCCL_CONNECT_TIMEOUT=${HCCL_CONNECT_TIMEOUT:-20}
# Open MPI in a container: loopback TCP and shared memory without
# cross-process copies (CMA needs ptrace rights containers often lack).
export OMPI_MCA_btl=self,vader,tcp
export OMPI_MCA_btl_tcp_if_include=lo
export OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_plm_rsh_agent=false
mpirun_n() { mpirun --allow-run-as-root --oversubscribe --bind-to none -n "$n" "$@"; }
# every rank 0 .. $1 - 1 printed "rank R: ok $2"
ranks_ok() {
  local r=0
  while [ "$r" -lt "$1" ]; do
    grep -q "^rank $r: ok $2" "$out" || fail "rank $r did not report"
    r=$((r + 1))
  done
}

# The line rank r prints for `op` with n ranks (inputs as the samples fill them).
expected() {
  r=$1
  awk -v op="$op" -v n="$n" -v r="$r" 'BEGIN {
    line = "rankId: " r ", output: ["
    if (op == "allreduce" || (op == "reduce" && r == 0)) for (i = 0; i < n; i++) line = line " " i * n
    else if (op == "reduce") for (i = 0; i < n; i++) line = line " 0"
    else if (op == "reducescatter") line = line " " n * r
    else if (op == "scatter") line = line " " r
    else if (op == "sendrecv") for (i = 0; i < n; i++) line = line " " r - 1
    else if (op == "batchsendrecv") for (i = 0; i < n; i++) line = line " " (r + n - 1) % n
    else for (i = 0; i < n; i++) line = line " " i
    print line " ]"
  }'
}

check_samples() {
  r=0
  while [ "$r" -lt "$n" ]; do
    if [ "$op" != sendrecv ] || [ $((r % 2)) -eq 1 ]; then
      expect_line "$(expected "$r")"
    fi
    r=$((r + 1))
  done
}

case $mode in
threads | initall)
  extra=""
  [ "$mode" = initall ] && extra=initall
  # shellcheck disable=SC2086
  "$bin/hccl_sample_threads" "$op" $extra > "$out" 2>&1 || fail "exited with status $?"
  expect_line "Found $n NPU device(s) available"
  check_samples
  ;;
mpi | config)
  extra=""
  [ "$mode" = config ] && extra=config
  # shellcheck disable=SC2086
  mpirun_n "$bin/hccl_sample_mpi" "$op" $extra > "$out" 2>&1 || fail "mpirun exited with status $?"
  check_samples
  ;;
ranktable)
  # the vendor's version 1.0 shape, one server, every value a string
  {
    printf '{"status": "completed", "version": "1.0", "server_count": "1",\n'
    printf ' "server_list": [{"server_id": "node_0", "device": [\n'
    r=0
    while [ "$r" -lt "$n" ]; do
      sep=","
      [ "$r" -eq $((n - 1)) ] && sep=""
      printf '  {"device_id": "%d", "device_ip": "192.168.1.%d", "rank_id": "%d"}%s\n' "$r" $((r + 8)) "$r" "$sep"
      r=$((r + 1))
    done
    printf ' ]}]}\n'
  } > "$work/rank_table.json"
  mpirun_n "$bin/hccl_sample_mpi" "$op" ranktable "$work/rank_table.json" > "$out" 2>&1 ||
    fail "mpirun exited with status $?"
  check_samples
  ;;
file)
  mpirun_n "$bin/hccl_sample_mpi" "$op" file "$work/rootinfo.bin" > "$out" 2>&1 || fail "mpirun exited with status $?"
  check_samples
  ;;
mixed)
  mpirun_n "$bin/hccl_mpi_checks" mixed > "$out" 2>&1 || fail "mpirun exited with status $?"
  ranks_ok $((2 * n)) mixed
  ;;
order | subcomm)
  mpirun_n "$bin/hccl_mpi_checks" "$mode" > "$out" 2>&1 || fail "mpirun exited with status $?"
  ranks_ok "$n" "$mode"
  ;;
sizes | staged | plain)
  # staged: every message through host memory, as under protection keys;
  # plain: through MPI, no rank reading another's device memory
  [ "$mode" != staged ] || export OPENACL_HCCL_ZERO_COPY=0
  [ "$mode" != plain ] || export OPENACL_HCCL_PEER_MEMORY=0
  mpirun_n -x OPENACL_HCCL_ZERO_COPY -x OPENACL_HCCL_PEER_MEMORY "$bin/hccl_mpi_checks" sizes > "$out" 2>&1 ||
    fail "mpirun exited with status $?"
  ranks_ok "$n" sizes
  ;;
refusing | refusing_staged)
  var=OPENACL_HCCL_PEER_MEMORY
  [ "$mode" = refusing ] || var=OPENACL_HCCL_ZERO_COPY
  mpirun --allow-run-as-root --oversubscribe --bind-to none -n 1 env "$var=0" \
    "$bin/hccl_mpi_checks" sizes refusing : -n $((n - 1)) "$bin/hccl_mpi_checks" sizes refusing > "$out" 2>&1 ||
    fail "mpirun exited with status $?"
  ranks_ok "$n" sizes
  ;;
hccltest)
  tool=$bin/../tools/hccl_test/bin/$op
  if [ $# -eq 0 ]; then
    set -- -b 1K -e 64K -f 4 -n 3 -w 1
  fi
  mpirun_n "$tool" "$@" > "$out" 2>&1 || fail "mpirun exited with status $?"
  grep -q "^the minbytes is " "$out" || fail "no parameter line"
  expect_line "data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:"
  rows=$(grep -cE '^[0-9]+ +\| [0-9.]+ +\| [0-9.]+ +\| (success|NULL)$' "$out" || true)
  [ "$rows" -ge 1 ] || fail "no result rows"
  ! grep -q "failed" "$out" || fail "a check failed"
  ;;
connect)
  export HCCL_CONNECT_TIMEOUT=2
  mpirun_n "$bin/hccl_mpi_checks" connect > "$out" 2>&1 || true
  r=0
  while [ "$r" -lt $((n - 1)) ]; do
    grep -q "^rank $r: ok connect" "$out" || fail "rank $r did not fail as expected"
    r=$((r + 1))
  done
  ;;
stall | kill | stall_split | kill_split | kill_mapped)
  # The survivors leave without MPI_Finalize and the victim is gone, so
  # mpirun's status says failure: what counts is each survivor's line, in time.
  export HCCL_EXEC_TIMEOUT=2
  start=$(date +%s)
  mpirun_n --enable-recovery "$bin/hccl_mpi_checks" "$mode" > "$out" 2>&1 || true
  took=$(($(date +%s) - start))
  r=0
  while [ "$r" -lt $((n - 1)) ]; do
    grep -q "^rank $r: ok $mode .*naming peer rank $((n - 1))" "$out" || fail "rank $r did not fail as expected"
    r=$((r + 1))
  done
  [ "$took" -lt 30 ] || fail "took $took s"
  ;;
*)
  fail "unknown mode"
  ;;
esac
echo "run_hccl.sh $mode $op $n: ok"
