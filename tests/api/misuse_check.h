/*
 * misuse_check.h - the checks the misuse matrices share (misuse.c,
 * misuse_streams.c, misuse_devices.c, misuse_memory.c): a misuse must
 * return the expected code and leave a message naming the API; a setup step
 * must succeed.  Each check returns 1 from the calling case on failure, so
 * a case is an int function that returns 0 when everything held; a case
 * ends with finish() (or finish_init() when it left the runtime
 * uninitialised), which checks the runtime still works.
 */
#ifndef OPENACL_TESTS_MISUSE_CHECK_H
#define OPENACL_TESTS_MISUSE_CHECK_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

static inline const char *msg_or_none(void) {
  const char *m = aclGetRecentErrMsg();
  return m ? m : "(no message)";
}

/* Checks a misuse's outcome: the code, and a message naming the API. */
static inline int expect_fail(const char *what, int got, int want, const char *api) {
  const char *msg = aclGetRecentErrMsg();
  int ok = 1;
  if (got != want) {
    fprintf(stderr, "    %s returned %d, expected %d (%s)\n", what, got, want, msg ? msg : "(no message)");
    ok = 0;
  }
  if (msg == NULL) {
    fprintf(stderr, "    %s: aclGetRecentErrMsg() is NULL after the failure\n", what);
    ok = 0;
  } else {
    char needle[160];
    snprintf(needle, sizeof(needle), "%s failed", api);
    if (strstr(msg, needle) == NULL) {
      fprintf(stderr, "    %s: the message does not contain \"%s\": %s\n", what, needle, msg);
      ok = 0;
    }
  }
  return ok;
}

/* Performs the misuse (after clearing older messages) and checks it. */
#define MISUSE(call, want, api)                                                \
  do {                                                                         \
    (void)aclGetRecentErrMsg();                                                \
    int m_rc_ = (int)(call);                                                   \
    if (!expect_fail(#call, m_rc_, (int)(want), (api)))                        \
      return 1;                                                                \
  } while (0)

/* A setup step that must succeed. */
#define OK(call)                                                               \
  do {                                                                         \
    int ok_rc_ = (int)(call);                                                  \
    if (ok_rc_ != 0) {                                                         \
      fprintf(stderr, "    setup %s returned %d: %s\n", #call, ok_rc_, msg_or_none()); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

#define REQUIRE(cond)                                                          \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "    %s:%d: %s is false\n", __FILE__, __LINE__, #cond);  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/* Host functions the cases queue: a flag to set, and a gate that holds an
 * executor until the case opens it. */
static inline void set_flag(void *arg) { atomic_store((atomic_int *)arg, 1); }

typedef struct gate {
  atomic_int open;
  atomic_int entered;
} gate;

static inline void gate_wait(void *arg) {
  gate *g = arg;
  atomic_store(&g->entered, 1);
  while (!atomic_load(&g->open)) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

/* Each matrix defines alive(): after a case, the runtime still works
 * (device, stream, memory, copies) and is left reset. */
static int alive(void);

/* The end of every case that ran with the runtime initialised. */
static inline int finish(void) {
  if (alive() != 0)
    return 1;
  OK(aclFinalize());
  return 0;
}

/* The end of a case that ran before aclInit or after aclFinalize. */
static inline int finish_init(void) {
  OK(aclInit(NULL));
  return finish();
}

/* Runs fn(arg) in a new thread (which has no current context). */
typedef struct thread_job {
  int (*fn)(void *);
  void *arg;
  int rc;
} thread_job;

static inline void *thread_main(void *p) {
  thread_job *j = p;
  j->rc = j->fn(j->arg);
  return NULL;
}

static inline int in_thread(int (*fn)(void *), void *arg) {
  thread_job j = {fn, arg, 1};
  pthread_t t;
  if (pthread_create(&t, NULL, thread_main, &j) != 0)
    return 1;
  pthread_join(t, NULL);
  return j.rc;
}

/* Runs body(c) in a forked child (a crash or a hang fails the case, not
 * the whole test) and prints "PASS|FAIL <matrix>/<group>/<name>"; 1 when
 * it passed. */
static inline int misuse_in_child(const char *matrix, const char *group, const char *name,
                                  int (*body)(const void *), const void *c) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 0;
  }
  if (pid == 0) {
    alarm(60); /* a hang fails the case instead of the whole test */
    int rc = body(c);
    fflush(NULL);
    _exit(rc == 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok)
    printf("PASS %s/%s/%s\n", matrix, group, name);
  else if (WIFSIGNALED(status))
    printf("FAIL %s/%s/%s (crashed: signal %d)\n", matrix, group, name, WTERMSIG(status));
  else
    printf("FAIL %s/%s/%s\n", matrix, group, name);
  fflush(stdout);
  return ok;
}

#endif
