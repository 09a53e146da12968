/*
 * bench_streams.c - stream control and stream-to-stream signalling
 * (rt-breadth §1-2): what they cost, next to what they replace.
 *
 *   bench_streams [--runs N] [--rounds N] [--queued N]
 *
 * Public ACL API only.  Both sides run in the same process, on device 0:
 *
 *   (a) hand-off between two streams, ping-pong: stream A signals B, B
 *       signals A back, `rounds` times (2 hand-offs a round).  Everything is
 *       queued while both streams wait behind a gate; the time runs from
 *       opening the gate to the end of both streams' work, so it is the
 *       device side alone.  Time per hand-off.
 *         openacl: aclrtValueWrite -> aclrtValueWait (GEQ) on a device word
 *         peer:    aclrtRecordEvent -> aclrtStreamWaitEvent (one event per
 *                  direction, reused)
 *       goal: no slower than events (ratio <= 1).
 *   (b) aclrtStreamStop, (c) aclrtStreamAbort, (d) aclrtDestroyStreamForce
 *       with `queued` (10,000) tasks queued behind a running host function:
 *       the time the call takes.
 *         peer: running those tasks instead (aclrtSynchronizeStream after
 *               the host function returns): what the call saves.
 *       goal: the call returns in under 1 ms.
 *
 * Every case runs a warm-up, then N runs (default 11; the two sides of (a)
 * alternate, so that both see the same load); the table gives the
 * median and the minimum, the ratio of medians openacl / peer, the goal and
 * whether it is met.  The exit status is 1 when a goal is missed.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define MAX_RUNS 101

static int g_runs = 11;
static int g_rounds = 20000;
static int g_queued = 10000;
static int g_missed;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
  nanosleep(&ts, NULL);
}

#define CHECK(call)                                                                          \
  do {                                                                                       \
    aclError rc_ = (call);                                                                   \
    if (rc_ != ACL_SUCCESS) {                                                                \
      const char *m_ = aclGetRecentErrMsg();                                                 \
      fprintf(stderr, "bench_streams: %s failed with %d: %s\n", #call, (int)rc_, m_ ? m_ : ""); \
      exit(2);                                                                               \
    }                                                                                        \
  } while (0)

/* ---- statistics -------------------------------------------------------------- */

typedef struct {
  double med, min; /* ns per operation */
  int n;
} stat_t;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static stat_t summarize(uint64_t *v, int n, double per) {
  stat_t s = {0, 0, n};
  qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
  s.med = (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / per;
  s.min = (double)v[0] / per;
  return s;
}

/* One run: `iters` operations; returns the nanoseconds they took. */
typedef uint64_t (*run_fn)(void *env, int iters);

/* Two cases measured in alternation, so that both see the same load. */
static void measure_pair(run_fn a, run_fn b, void *env, int iters, stat_t *sa, stat_t *sb) {
  uint64_t va[MAX_RUNS], vb[MAX_RUNS];
  (void)a(env, iters / 10 + 1);
  (void)b(env, iters / 10 + 1);
  for (int r = 0; r < g_runs; r++) {
    va[r] = a(env, iters);
    vb[r] = b(env, iters);
  }
  *sa = summarize(va, g_runs, (double)iters);
  *sb = summarize(vb, g_runs, (double)iters);
}

static stat_t measure(run_fn fn, void *env, int iters) {
  uint64_t v[MAX_RUNS];
  (void)fn(env, iters / 10 + 1); /* warm-up */
  for (int r = 0; r < g_runs; r++)
    v[r] = fn(env, iters);
  return summarize(v, g_runs, (double)iters);
}

/* ---- the table ------------------------------------------------------------------ */

static void header(void) {
  printf("| %-52s | %-22s | %-44s | %-7s | %-16s | %-4s |\n", "case", "openacl (median / min)",
         "peer (median / min)", "ratio", "goal", "met?");
  printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------------------------------------",
         "------------------------", "----------------------------------------------", "---------",
         "------------------", "------");
}

/* goal_ratio > 0: met when ours/peer <= it; goal_ns > 0: met when ours <= it. */
static void row(const char *name, stat_t ours, const char *peer_name, stat_t peer, const char *goal, double goal_ratio,
                double goal_ns) {
  char o[64], p[96], r[16];
  double ratio = ours.med / peer.med;
  int us = ours.med >= 1000.0;
  snprintf(o, sizeof(o), us ? "%.2f / %.2f us" : "%.0f / %.0f ns", us ? ours.med / 1e3 : ours.med,
           us ? ours.min / 1e3 : ours.min);
  int pus = peer.med >= 1000.0;
  snprintf(p, sizeof(p), pus ? "%s %.2f / %.2f us" : "%s %.0f / %.0f ns", peer_name, pus ? peer.med / 1e3 : peer.med,
           pus ? peer.min / 1e3 : peer.min);
  snprintf(r, sizeof(r), "%.3f", ratio);
  int met = goal_ratio > 0 ? ratio <= goal_ratio : ours.med <= goal_ns;
  if (!met)
    g_missed = 1;
  printf("| %-52s | %-22s | %-44s | %-7s | %-16s | %-4s |\n", name, o, p, r, goal, met ? "yes" : "**no**");
  fflush(stdout);
}

/* ---- (a) hand-off ------------------------------------------------------------------- */

typedef struct {
  atomic_int open, entered, left;
} gate_t;

static void gate_wait(void *arg) {
  gate_t *g = arg;
  atomic_store(&g->entered, 1);
  while (!atomic_load(&g->open))
    sleep_us(20);
  atomic_store(&g->left, 1);
}

typedef struct {
  aclrtStream a, b, g; /* g holds a and b until everything is queued */
  uint64_t *w;         /* two device words: A -> B, B -> A */
  uint64_t next;       /* the value of the next round (GEQ: it only grows) */
  aclrtEvent ab, ba, start;
} handoff_env;

/* Holds streams a and b behind a closed gate on g; returns the gate. */
static void hold(handoff_env *e, gate_t *gate) {
  CHECK(aclrtLaunchHostFunc(e->g, gate_wait, gate));
  CHECK(aclrtRecordEvent(e->start, e->g));
  CHECK(aclrtStreamWaitEvent(e->a, e->start));
  CHECK(aclrtStreamWaitEvent(e->b, e->start));
}

/* Opens the gate and times the two streams' work to its end. */
static uint64_t release(handoff_env *e, gate_t *gate) {
  uint64_t t0 = now_ns();
  atomic_store(&gate->open, 1);
  CHECK(aclrtSynchronizeStream(e->a));
  CHECK(aclrtSynchronizeStream(e->b));
  uint64_t t = now_ns() - t0;
  CHECK(aclrtSynchronizeStream(e->g));
  return t / 2; /* two hand-offs a round */
}

static uint64_t run_values(void *p, int rounds) {
  handoff_env *e = p;
  gate_t gate = {0, 0, 0};
  hold(e, &gate);
  for (int i = 0; i < rounds; i++) {
    uint64_t v = ++e->next;
    CHECK(aclrtValueWrite(&e->w[0], v, 0, e->a));
    CHECK(aclrtValueWait(&e->w[0], v, ACL_STREAM_WAIT_VALUE_GEQ, e->b));
    CHECK(aclrtValueWrite(&e->w[1], v, 0, e->b));
    CHECK(aclrtValueWait(&e->w[1], v, ACL_STREAM_WAIT_VALUE_GEQ, e->a));
  }
  return release(e, &gate);
}

static uint64_t run_events(void *p, int rounds) {
  handoff_env *e = p;
  gate_t gate = {0, 0, 0};
  hold(e, &gate);
  for (int i = 0; i < rounds; i++) {
    CHECK(aclrtRecordEvent(e->ab, e->a));
    CHECK(aclrtStreamWaitEvent(e->b, e->ab));
    CHECK(aclrtRecordEvent(e->ba, e->b));
    CHECK(aclrtStreamWaitEvent(e->a, e->ba));
  }
  return release(e, &gate);
}

/* ---- (b)-(d) stop, abort, destroy by force with a full queue ------------------------- */

enum { OP_STOP, OP_ABORT, OP_DESTROY_FORCE, OP_DRAIN };

typedef struct {
  int op;
  uint64_t *w; /* the queued tasks are value writes: small device tasks */
} queue_env;

/* Queues a host function that holds the stream, then g_queued tasks; times
 * the operation (or, OP_DRAIN, running them: the gate opens, then the
 * synchronisation). */
static uint64_t run_queue_op(void *p, int iters) {
  queue_env *q = p;
  uint64_t total = 0;
  for (int it = 0; it < iters; it++) {
    aclrtStream s;
    CHECK(aclrtCreateStream(&s));
    gate_t g = {0, 0, 0};
    CHECK(aclrtLaunchHostFunc(s, gate_wait, &g));
    for (int i = 0; i < g_queued; i++)
      CHECK(aclrtValueWrite(q->w, (uint64_t)i, 0, s));
    while (!atomic_load(&g.entered))
      sleep_us(20);
    uint64_t t0 = now_ns(), t1;
    switch (q->op) {
    case OP_STOP:
      CHECK(aclrtStreamStop(s));
      t1 = now_ns();
      atomic_store(&g.open, 1);
      CHECK(aclrtStreamAbort(s));
      (void)aclrtSynchronizeStream(s);
      CHECK(aclrtDestroyStream(s));
      break;
    case OP_ABORT:
      CHECK(aclrtStreamAbort(s));
      t1 = now_ns();
      atomic_store(&g.open, 1);
      (void)aclrtSynchronizeStream(s);
      CHECK(aclrtDestroyStream(s));
      break;
    case OP_DESTROY_FORCE:
      CHECK(aclrtDestroyStreamForce(s));
      t1 = now_ns();
      atomic_store(&g.open, 1);
      break;
    default: /* OP_DRAIN */
      atomic_store(&g.open, 1);
      CHECK(aclrtSynchronizeStream(s));
      t1 = now_ns();
      CHECK(aclrtDestroyStream(s));
      break;
    }
    total += t1 - t0;
    while (!atomic_load(&g.left)) /* the gate lives on this stack */
      sleep_us(20);
  }
  /* let streams destroyed by force finish before the next run */
  CHECK(aclrtSynchronizeDevice());
  return total;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      g_runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      g_rounds = atoi(argv[++i]);
    else if (strcmp(argv[i], "--queued") == 0 && i + 1 < argc)
      g_queued = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_streams [--runs N] [--rounds N] [--queued N]\n");
      return 2;
    }
  }
  if (g_runs < 1 || g_runs > MAX_RUNS || g_rounds < 10 || g_queued < 1) {
    fprintf(stderr, "bench_streams: --runs 1..%d, --rounds >= 10, --queued >= 1\n", MAX_RUNS);
    return 2;
  }
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));

  handoff_env h;
  memset(&h, 0, sizeof(h));
  CHECK(aclrtCreateStream(&h.a));
  CHECK(aclrtCreateStream(&h.b));
  CHECK(aclrtMalloc((void **)&h.w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemset(h.w, 64, 0, 64));
  CHECK(aclrtCreateEventWithFlag(&h.ab, ACL_EVENT_SYNC));
  CHECK(aclrtCreateEventWithFlag(&h.ba, ACL_EVENT_SYNC));
  CHECK(aclrtCreateEventWithFlag(&h.start, ACL_EVENT_SYNC));
  CHECK(aclrtCreateStream(&h.g));

  queue_env q = {0, h.w};
  printf("bench_streams: %d runs; (a) %d rounds; (b)-(d) %d queued tasks\n\n", g_runs, g_rounds, g_queued);
  header();
  stat_t val, ev;
  measure_pair(run_values, run_events, &h, g_rounds, &val, &ev);
  row("(a) hand-off A -> B: aclrtValueWrite -> aclrtValueWait", val, "events", ev, "ratio <= 1", 1.0, 0);
  q.op = OP_DRAIN;
  stat_t drain = measure(run_queue_op, &q, 3);
  const char *ops[] = {"(b) aclrtStreamStop, 10,000 queued", "(c) aclrtStreamAbort, 10,000 queued",
                       "(d) aclrtDestroyStreamForce, 10,000 queued"};
  for (int op = OP_STOP; op <= OP_DESTROY_FORCE; op++) {
    q.op = op;
    stat_t s = measure(run_queue_op, &q, 3);
    char name[96];
    snprintf(name, sizeof(name), "%s", ops[op]);
    if (g_queued != 10000)
      snprintf(name, sizeof(name), "%.*s %d queued", (int)(strchr(ops[op], ',') - ops[op] + 1), ops[op], g_queued);
    row(name, s, "running them", drain, "< 1 ms", 0, 1e6);
  }

  CHECK(aclrtDestroyEvent(h.ab));
  CHECK(aclrtDestroyEvent(h.ba));
  CHECK(aclrtDestroyEvent(h.start));
  CHECK(aclrtDestroyStream(h.g));
  CHECK(aclrtFree(h.w));
  CHECK(aclrtDestroyStream(h.a));
  CHECK(aclrtDestroyStream(h.b));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return g_missed;
}
