/*
 * proc_driver.h - drives a helper process of the multi-process tests
 * (fork+exec, commands on its stdin, one answer line each on its stdout),
 * in the spirit of the vendor's proc_a / proc_b samples.  The helper's
 * first line is "pid <pid>" once its device is set.
 */
#ifndef OPENACL_TEST_PROC_DRIVER_H
#define OPENACL_TEST_PROC_DRIVER_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

typedef struct proc {
  pid_t pid;
  FILE *in, *out;
  int dev_pid; /* what it reported */
} proc;

/* Starts `path` with one optional argument (NULL: none). */
static inline void proc_start_args(proc *p, const char *path, const char *arg) {
  int to[2], from[2];
  /* close-on-exec: a helper started later must not hold this one's pipes
   * open (it would never see the end of its input); dup2 clears it on 0 and 1 */
  CHECK(pipe2(to, O_CLOEXEC) == 0 && pipe2(from, O_CLOEXEC) == 0);
  fflush(NULL);
  p->pid = fork();
  CHECK(p->pid >= 0);
  if (p->pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    execl(path, path, arg, (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  p->in = fdopen(to[1], "w");
  p->out = fdopen(from[0], "r");
  setvbuf(p->in, NULL, _IOLBF, 0);
  char line[128] = "";
  CHECK(fgets(line, sizeof(line), p->out) != NULL);
  CHECK(sscanf(line, "pid %d", &p->dev_pid) == 1);
}

/* Sends a command without waiting for its answer. */
static inline void proc_send(proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void proc_send(proc *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(p->in, fmt, ap);
  va_end(ap);
  fputc('\n', p->in);
  fflush(p->in);
}

/* The next answer line (without the newline); "(no answer)" at end of output. */
static inline const char *proc_answer(proc *p) {
  static char line[512];
  line[0] = '\0';
  if (fgets(line, sizeof(line), p->out) == NULL)
    return "(no answer)";
  line[strcspn(line, "\n")] = '\0';
  return line;
}

/* Sends a command and returns its answer. */
#define proc_cmd(p, ...) (proc_send((p), __VA_ARGS__), proc_answer(p))

/* Closes its input (the helper cleans up and exits) and reaps it. */
static inline int proc_end(proc *p) {
  fclose(p->in);
  fclose(p->out);
  int st = 0;
  waitpid(p->pid, &st, 0);
  return st;
}

#endif
