/*
 * bench_ipc_signal.c - cross-process hand-off latency of IPC notifies
 * (docs/performance.md, issue 13: goal <= 20 us round trip).
 *
 *   bench_ipc_signal [--runs N] [--reps R]
 *
 * Two processes on device 0, each with one stream and a notify it created
 * and the other imported.  A round trip: this process records the other's
 * notify on its stream, waits on its own notify (which the other process's
 * stream records once its wait has been released), and synchronizes the
 * stream.  The other process queues all its wait -> record pairs up front,
 * so every step is a real cross-process wake-up: record task -> bell ->
 * bell thread -> parked stream -> executor, both ways.
 *
 * IPC events cannot ping-pong that way (a wait waits for the latest record
 * made when it is queued), so their hand-off is timed one way: this process
 * queues a record behind a host function that holds its stream, the other
 * process queues a wait for that record and synchronizes its stream, and
 * the time runs from the end of the host function (on the executor, right
 * before the record) to the return of the other process's synchronisation
 * (CLOCK_MONOTONIC is shared by the two); twice that is the round trip.
 *
 * The peer is the operating system's plain hand-off between the same two
 * processes: one byte written to a pipe and echoed back.  Runs alternate;
 * the table gives the median and best microseconds per round trip over N
 * runs (default 11) of R round trips (default 2000), and the ratio of the
 * medians.
 */
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

#define MAX_RUNS 101

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void check(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS) {
    fprintf(stderr, "bench_ipc_signal: %s failed: %d: %s\n", what, rc, aclGetRecentErrMsg());
    exit(1);
  }
}

static void read_line(FILE *f, char *buf, size_t n) {
  if (fgets(buf, (int)n, f) == NULL) {
    fprintf(stderr, "bench_ipc_signal: the other process ended early\n");
    exit(1);
  }
  buf[strcspn(buf, "\n")] = '\0';
}

/* A host function that holds its stream until the gate opens; the clock
 * starts when it returns, on the executor, just before the record runs. */
static _Atomic uint32_t gate;
static double gate_t0;

static void gate_wait(void *arg) {
  (void)arg;
  while (atomic_load(&gate) == 0)
    syscall(SYS_futex, (uint32_t *)&gate, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
  gate_t0 = now_us();
}

static void gate_open(void) {
  atomic_store(&gate, 1);
  syscall(SYS_futex, (uint32_t *)&gate, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* The other process: stdin / stdout are pipes to the parent. */
static int child(long total) {
  aclrtStream s;
  aclrtNotify mine, theirs;
  char key[128], theirs_key[128];
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  check(aclrtCreateStream(&s), "aclrtCreateStream");
  check(aclrtCreateNotify(&mine, 0), "aclrtCreateNotify");
  check(aclrtNotifyGetExportKey(mine, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), "export");
  read_line(stdin, theirs_key, sizeof(theirs_key));
  check(aclrtNotifyImportByKey(&theirs, theirs_key, 0), "import");
  printf("%s\n", key);
  fflush(stdout);
  /* every round trip: wait for the parent's record, then record back */
  for (long i = 0; i < total; i++) {
    check(aclrtWaitAndResetNotify(mine, s, 0), "aclrtWaitAndResetNotify");
    check(aclrtRecordNotify(theirs, s), "aclrtRecordNotify");
  }
  check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  /* the pipe peer: echo bytes until the parent sends 'e' */
  char c;
  while (read(0, &c, 1) == 1 && c != 'e')
    if (write(1, &c, 1) != 1)
      break;
  /* the IPC event: open the parent's, then per round: wait, report the time */
  char handle_key[128];
  read_line(stdin, handle_key, sizeof(handle_key));
  aclrtIpcEventHandle h;
  memset(&h, 0, sizeof h);
  memcpy(h.reserved, handle_key, strlen(handle_key));
  aclrtEvent ev;
  check(aclrtIpcOpenEventHandle(h, &ev), "aclrtIpcOpenEventHandle");
  char line[64];
  while (fgets(line, sizeof(line), stdin) != NULL && line[0] == 'g') {
    check(aclrtStreamWaitEvent(s, ev), "aclrtStreamWaitEvent");
    printf("ready\n");
    fflush(stdout);
    check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    printf("%.3f\n", now_us());
    fflush(stdout);
  }
  aclrtDestroyEvent(ev);
  aclrtDestroyNotify(theirs);
  aclrtDestroyNotify(mine);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}

int main(int argc, char **argv) {
  int runs = 11, reps = 2000, warm = 200;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--child") == 0 && i + 1 < argc)
      return child(atol(argv[i + 1]));
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
      reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_ipc_signal [--runs N] [--reps R]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS || reps < 1) {
    fprintf(stderr, "bench_ipc_signal: --runs 1..%d, --reps >= 1\n", MAX_RUNS);
    return 2;
  }
  long total = (long)runs * reps + warm;
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0)
    return 1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    char n[32];
    snprintf(n, sizeof(n), "%ld", total);
    execl("/proc/self/exe", argv[0], "--child", n, (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  FILE *out = fdopen(from[0], "r");

  aclrtStream s;
  aclrtNotify mine, theirs;
  char key[128], theirs_key[128];
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  check(aclrtCreateStream(&s), "aclrtCreateStream");
  check(aclrtCreateNotify(&mine, 0), "aclrtCreateNotify");
  check(aclrtNotifyGetExportKey(mine, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), "export");
  dprintf(to[1], "%s\n", key);
  read_line(out, theirs_key, sizeof(theirs_key));
  check(aclrtNotifyImportByKey(&theirs, theirs_key, 0), "import");

  double notify_us[MAX_RUNS], pipe_us[MAX_RUNS];
  for (int i = 0; i < warm; i++) {
    check(aclrtRecordNotify(theirs, s), "aclrtRecordNotify");
    check(aclrtWaitAndResetNotify(mine, s, 0), "aclrtWaitAndResetNotify");
    check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  }
  for (int r = 0; r < runs; r++) {
    double t0 = now_us();
    for (int i = 0; i < reps; i++) {
      check(aclrtRecordNotify(theirs, s), "aclrtRecordNotify");
      check(aclrtWaitAndResetNotify(mine, s, 0), "aclrtWaitAndResetNotify");
      check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    }
    notify_us[r] = (now_us() - t0) / reps;
  }
  /* the child is in its echo loop once its stream is done */
  for (int r = 0; r < runs; r++) {
    double t0 = now_us();
    for (int i = 0; i < reps; i++) {
      char c = 'x';
      if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
        return 1;
    }
    pipe_us[r] = (now_us() - t0) / reps;
  }
  /* IPC event, one way */
  if (write(to[1], "e", 1) != 1)
    return 1;
  aclrtEvent ev;
  aclrtIpcEventHandle h;
  check(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), "aclrtCreateEventExWithFlag");
  check(aclrtIpcGetEventHandle(ev, &h), "aclrtIpcGetEventHandle");
  dprintf(to[1], "%.64s\n", h.reserved);
  int ev_reps = reps / 10 > 0 ? reps / 10 : 1;
  double event_us[MAX_RUNS];
  for (int r = 0; r < runs; r++) {
    double sum = 0;
    for (int i = 0; i < ev_reps; i++) {
      char line[64];
      atomic_store(&gate, 0);
      check(aclrtLaunchHostFunc(s, gate_wait, NULL), "aclrtLaunchHostFunc");
      check(aclrtRecordEvent(ev, s), "aclrtRecordEvent");
      dprintf(to[1], "go\n");
      read_line(out, line, sizeof(line)); /* "ready": its wait is queued */
      gate_open();
      read_line(out, line, sizeof(line));
      check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream"); /* gate_t0 is written */
      sum += atof(line) - gate_t0;
    }
    event_us[r] = sum / ev_reps;
  }
  check(aclrtDestroyEvent(ev), "destroy");
  close(to[1]);
  fclose(out);
  int st = 0;
  waitpid(pid, &st, 0);
  check(aclrtDestroyNotify(theirs), "destroy");
  check(aclrtDestroyNotify(mine), "destroy");
  check(aclrtDestroyStream(s), "destroy");
  aclrtResetDevice(0);
  aclFinalize();

  qsort(notify_us, (size_t)runs, sizeof(double), cmp_double);
  qsort(pipe_us, (size_t)runs, sizeof(double), cmp_double);
  double nm = notify_us[runs / 2], pm = pipe_us[runs / 2];
  printf("cross-process round trip, %d runs x %d round trips (microseconds)\n", runs, reps);
  printf("%-44s %10s %10s %8s\n", "side", "median", "best", "ratio");
  printf("%-44s %10.2f %10.2f %8.2f\n", "IPC notify (record -> wait -> record back)", nm, notify_us[0], nm / pm);
  printf("%-44s %10.2f %10.2f %8.2f\n", "pipe, one byte there and back (peer)", pm, pipe_us[0], 1.0);
  qsort(event_us, (size_t)runs, sizeof(double), cmp_double);
  double em = event_us[runs / 2];
  printf("%-44s %10.2f %10.2f %8.2f\n", "IPC event, one way x 2 (record -> other's wait)", 2 * em, 2 * event_us[0],
         2 * em / pm);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
