/*
 * rt_stream_tasks.c - the device's built-in stream tasks (rt-breadth §1):
 * aclrtValueWrite / aclrtValueWait, aclrtReduceAsync, aclrtRandomNumAsync.
 * Black-box: public API only.
 */
#include <math.h>

#include "rt_common.h"

#if defined(__SANITIZE_THREAD__)
#define RT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RT_TSAN 1
#endif
#endif
#ifndef RT_TSAN
#define RT_TSAN 0
#endif

static void count_fn(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

static void *dev_alloc(size_t n) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
  return p;
}

static void to_dev(void *d, const void *h, size_t n) {
  CHECK_INT_EQ(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void from_dev(void *h, const void *d, size_t n) {
  CHECK_INT_EQ(aclrtMemcpy(h, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static uint64_t read_word(const void *d) {
  uint64_t v = 0;
  from_dev(&v, d, 8);
  return v;
}

/* ---- values --------------------------------------------------------------------------- */

/* The vendor's sample 1_basic_features/memory/9_multistream_sync_memory:
 * thread A waits for 100 on its stream, thread B writes a flag the host way
 * and then 100 on its own stream; A reads the flag after its wait. */
typedef struct ms_job {
  aclrtContext ctx;
  void *word;
  atomic_int *host_flag;
  int seen;
  int rc;
} ms_job;

static void read_flag_fn(void *arg) {
  ms_job *j = arg;
  j->seen = atomic_load(j->host_flag);
}

static void write_flag_fn(void *arg) { atomic_store((atomic_int *)arg, 123); }

static void *waiter_thread(void *arg) {
  ms_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(j->word, 100, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, read_flag_fn, j), ACL_SUCCESS);
  j->rc = aclrtSynchronizeStream(s);
  printf("stream A met the condition, all tasks are complete\n");
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  return NULL;
}

static void *writer_thread(void *arg) {
  ms_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_sleep_ms(30); /* the waiter is parked by now */
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, write_flag_fn, j->host_flag), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(j->word, 100, 0, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  printf("stream B met the condition, all tasks are complete\n");
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  return NULL;
}

TEST(value_write_wait_between_threads_sample) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  atomic_int flag = 0;
  ms_job j = {NULL, dev_alloc(64), &flag, 0, -1};
  CHECK_INT_EQ(aclrtGetCurrentContext(&j.ctx), ACL_SUCCESS);
  pthread_t a, b;
  pthread_create(&a, NULL, waiter_thread, &j);
  pthread_create(&b, NULL, writer_thread, &j);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  CHECK_INT_EQ(j.rc, ACL_SUCCESS);
  printf("Flag value read by the waiting thread: %d\n", j.seen);
  CHECK_INT_EQ(j.seen, 123);
  CHECK_INT_EQ(read_word(j.word), 100);
  CHECK_INT_EQ(aclrtFree(j.word), ACL_SUCCESS);
  rt_down();
}

/* Each condition: holds at once, or holds after a write. */
TEST(value_wait_conditions) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  void *w = dev_alloc(64);
  aclrtStream s, writer;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&writer), ACL_SUCCESS);
  struct {
    uint64_t start, value;
    uint32_t flag;
    int holds;
    uint64_t fix; /* a value that makes it hold */
  } cases[] = {
      {10, 10, ACL_STREAM_WAIT_VALUE_GEQ, 1, 0},
      {9, 10, ACL_STREAM_WAIT_VALUE_GEQ, 0, 11},
      {UINT64_MAX, 1, ACL_STREAM_WAIT_VALUE_GEQ, 0, 1}, /* as a sequence number, -1 is before 1 */
      {5, 5, ACL_STREAM_WAIT_VALUE_EQ, 1, 0},
      {4, 5, ACL_STREAM_WAIT_VALUE_EQ, 0, 5},
      {6, 2, ACL_STREAM_WAIT_VALUE_AND, 1, 0},
      {4, 2, ACL_STREAM_WAIT_VALUE_AND, 0, 3},
      {1, 2, ACL_STREAM_WAIT_VALUE_NOR, 1, 0},
      {~(uint64_t)2, 2, ACL_STREAM_WAIT_VALUE_NOR, 0, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    to_dev(w, &cases[i].start, 8);
    atomic_int ran = 0;
    CHECK_INT_EQ(aclrtValueWait(w, cases[i].value, cases[i].flag, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
    if (cases[i].holds) {
      CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS);
      CHECK_INT_EQ(atomic_load(&ran), 1);
      continue;
    }
    CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_INT_EQ(atomic_load(&ran), 0);
    CHECK_INT_EQ(aclrtValueWrite(w, cases[i].fix, 0, writer), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS);
    CHECK_INT_EQ(atomic_load(&ran), 1);
    CHECK_INT_EQ(aclrtSynchronizeStream(writer), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(writer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  rt_down();
}

/* A wait holds only its own stream: the executors go on with the others,
 * even with a single executor. */
TEST(value_wait_parks_only_its_stream) {
  setenv("OPENACL_EXECUTOR_THREADS", "1", 1);
  rt_up();
  void *w = dev_alloc(64);
  aclrtStream waiting, other;
  CHECK_INT_EQ(aclrtCreateStream(&waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtValueWait(w, 1, ACL_STREAM_WAIT_VALUE_EQ, waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(waiting, count_fn, &ran), ACL_SUCCESS);
  for (int i = 0; i < 100; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(other, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 100);
  /* the wait is real: it ends with the write, from the same thread */
  CHECK_INT_EQ(aclrtValueWrite(w, 1, 0, other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(waiting), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 101);
  /* and a wait that never ends goes with an abort */
  CHECK_INT_EQ(aclrtValueWait(w, 2, ACL_STREAM_WAIT_VALUE_EQ, waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamAbort(waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(waiting), ACL_ERROR_RT_STREAM_ABORT);
  CHECK_INT_EQ(aclrtValueWait(w, 3, ACL_STREAM_WAIT_VALUE_EQ, waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(waiting), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  rt_down();
}

/* A word written by other means than aclrtValueWrite (here a copy from the
 * host) is seen too: the device polls watched words. */
TEST(value_wait_sees_a_host_copy) {
  if (RT_TSAN)
    return; /* the copy and the device's poll touch the word at once, as on a card: a race by design */
  rt_up();
  void *w = dev_alloc(64);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(w, 7, ACL_STREAM_WAIT_VALUE_GEQ, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  uint64_t v = 9;
  to_dev(w, &v, 8);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS);
  printf("the wait saw the host's copy after %.2f ms\n", (double)(th_now_ns() - t0) / 1e6);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  rt_down();
}

TEST(value_arguments) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  char *w = dev_alloc(64);
  uint64_t host = 0;
  CHECK_INT_EQ(aclrtValueWrite(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtValueWrite failed");
  CHECK_INT_EQ(aclrtValueWait(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtValueWrite(w, 1, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtValueWait(w, 1, 4, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtValueWrite(&host, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "host memory");
  CHECK_INT_EQ(aclrtValueWrite(w + 4, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "8-byte aligned");
  CHECK_INT_EQ(aclrtValueWait(w + 64, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID); /* past the end */
  CHECK_INT_EQ(aclrtValueWrite(w, 5, 0, NULL), ACL_SUCCESS); /* NULL: the default stream */
  CHECK_INT_EQ(aclrtValueWait(w, 5, ACL_STREAM_WAIT_VALUE_EQ, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  /* memory of another device works (peer memory), a freed word does not */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream s1;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(w, 6, 0, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(read_word(w), 6);
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(w, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  rt_down();
}

/* Many streams hand a token around in a ring through value words. */
TEST(value_ring_of_streams) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  enum { N = 8, ROUNDS = 50 };
  uint64_t *w = dev_alloc(N * 8);
  aclrtStream s[N];
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtCreateStream(&s[i]), ACL_SUCCESS);
  /* round r: stream i waits until word i reached r (stream 0: until the
   * ring came round, r - 1), then writes r to word i + 1 */
  for (uint64_t r = 1; r <= ROUNDS; r++)
    for (int i = 0; i < N; i++) {
      if (i > 0 || r > 1)
        CHECK_INT_EQ(aclrtValueWait(&w[i], i > 0 ? r : r - 1, ACL_STREAM_WAIT_VALUE_GEQ, s[i]), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtValueWrite(&w[(i + 1) % N], r, 0, s[i]), ACL_SUCCESS);
    }
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s[i], 10000), ACL_SUCCESS);
  for (int i = 0; i < N; i++) {
    CHECK_INT_EQ(read_word(&w[i]), ROUNDS);
    CHECK_INT_EQ(aclrtDestroyStream(s[i]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  rt_down();
}

/* ---- reduction -------------------------------------------------------------------------- */

/* The vendor's sample 2_advanced_features/built_in_task/0_reduce_task. */
TEST(reduce_sum_sample) {
  rt_up();
  float h[4] = {1, 2, 3, 4};
  float *dst = dev_alloc(sizeof(h)), *src = dev_alloc(sizeof(h));
  to_dev(dst, h, sizeof(h));
  to_dev(src, h, sizeof(h));
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReduceAsync(dst, src, sizeof(h), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  float out[4];
  from_dev(out, dst, sizeof(out));
  for (int i = 0; i < 4; i++) {
    printf("Reduce SUM result[%d] = %f\n", i, out[i]);
    CHECK(out[i] == 2.0f * h[i]);
  }
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dst), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(src), ACL_SUCCESS);
  rt_down();
}

static void reduce_check(aclDataType t, aclrtReduceKind k, const void *a, const void *b, const void *want, size_t n) {
  void *dst = dev_alloc(n), *src = dev_alloc(n);
  to_dev(dst, a, n);
  to_dev(src, b, n);
  CHECK_INT_EQ(aclrtReduceAsync(dst, src, n, k, t, NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  unsigned char got[64];
  from_dev(got, dst, n);
  if (memcmp(got, want, n) != 0) {
    for (size_t i = 0; i < n; i++)
      printf("%02x/%02x ", got[i], ((const unsigned char *)want)[i]);
    printf("\n");
  }
  CHECK(memcmp(got, want, n) == 0);
  CHECK_INT_EQ(aclrtFree(dst), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(src), ACL_SUCCESS);
}

TEST(reduce_kinds_and_types) {
  rt_up();
  {
    float a[4] = {1, -2, 3, 5}, b[4] = {4, -5, 3, 0};
    float mx[4] = {4, -2, 3, 5}, mn[4] = {1, -5, 3, 0}, eq[4] = {0, 0, 1, 0};
    reduce_check(ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, a, b, mx, sizeof(a));
    reduce_check(ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, a, b, mn, sizeof(a));
    reduce_check(ACL_FLOAT, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, a, b, eq, sizeof(a));
  }
  {
    int8_t a[4] = {100, -100, 1, 2}, b[4] = {100, -100, -1, 3}, sum[4] = {-56, 56, 0, 5}; /* wraps */
    reduce_check(ACL_INT8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a, b, sum, sizeof(a));
  }
  {
    uint32_t a[2] = {0xffffffffu, 7}, b[2] = {1, 9}, sum[2] = {0, 16}, mx[2] = {0xffffffffu, 9};
    reduce_check(ACL_UINT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a, b, sum, sizeof(a));
    reduce_check(ACL_UINT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, a, b, mx, sizeof(a));
  }
  {
    int16_t a[2] = {-3, 4}, b[2] = {2, 4}, mn[2] = {-3, 4};
    int32_t a32[2] = {-3, 1 << 30}, b32[2] = {2, 1 << 30}, s32[2] = {-1, INT32_MIN};
    uint16_t ua[2] = {65535, 1}, ub[2] = {2, 1}, us[2] = {1, 2};
    uint8_t a8[2] = {200, 3}, b8[2] = {100, 3}, e8[2] = {0, 1};
    reduce_check(ACL_INT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, a, b, mn, sizeof(a));
    reduce_check(ACL_INT32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a32, b32, s32, sizeof(a32));
    reduce_check(ACL_UINT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ua, ub, us, sizeof(ua));
    reduce_check(ACL_UINT8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, a8, b8, e8, sizeof(a8));
  }
  {
    /* float16: 1.5 + 2.25 = 3.75; bfloat16: 1.0 + 2.0 = 3.0 */
    uint16_t a[2] = {0x3e00, 0xc000}, b[2] = {0x4080, 0x3c00}, s[2] = {0x4380, 0xbc00};
    reduce_check(ACL_FLOAT16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a, b, s, sizeof(a));
    uint16_t ba[2] = {0x3f80, 0x4000}, bb[2] = {0x4000, 0x4000}, bs[2] = {0x4040, 0x4080};
    reduce_check(ACL_BF16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ba, bb, bs, sizeof(ba));
  }
  {
    /* int4, low nibble first: (7, -8) + (1, -1) = (-8, 7) wrapping */
    uint8_t a[1] = {0x87}, b[1] = {0xf1}, s[1] = {0x78};
    reduce_check(ACL_INT4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, a, b, s, 1);
  }
  rt_down();
}

TEST(reduce_arguments) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  float *d = dev_alloc(64), *s = dev_alloc(64);
  float host[16];
  const aclrtReduceKind SUM = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
  CHECK_INT_EQ(aclrtReduceAsync(NULL, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtReduceAsync failed");
  CHECK_INT_EQ(aclrtReduceAsync(d, NULL, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 16, SUM, ACL_FLOAT, NULL, d), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 16, SUM, ACL_DOUBLE, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 16, SUM, ACL_INT64, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 16, (aclrtReduceKind)14, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 6, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 0, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 128, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReduceAsync(host, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  /* memory of another device than the stream's */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 16, SUM, ACL_FLOAT, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "device 0");
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReduceAsync(d, s, 64, SUM, ACL_FLOAT, NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  rt_down();
}

/* ---- random numbers ------------------------------------------------------------------------ */

static aclrtRandomParaInfo para_value(const void *v, uint8_t size) {
  aclrtRandomParaInfo p;
  memset(&p, 0, sizeof(p));
  p.isAddr = 0;
  memcpy(p.valueOrAddr, v, size);
  p.size = size;
  return p;
}

static aclrtRandomParaInfo para_addr(const void *dev_addr, uint8_t size) {
  aclrtRandomParaInfo p;
  memset(&p, 0, sizeof(p));
  p.isAddr = 1;
  uint64_t a = (uint64_t)(uintptr_t)dev_addr;
  memcpy(p.valueOrAddr, &a, 8);
  p.size = size;
  return p;
}

static aclrtRandomNumTaskInfo task_info(aclDataType t, aclrtRandomNumFuncType f, void *result, void *counter,
                                        uint64_t seed, uint64_t num) {
  aclrtRandomNumTaskInfo ti;
  memset(&ti, 0, sizeof(ti));
  ti.dataType = t;
  ti.randomNumFuncParaInfo.funcType = f;
  ti.randomResultAddr = result;
  ti.randomCounterAddr = counter;
  ti.randomSeed = para_value(&seed, 8);
  ti.randomNum = para_value(&num, 8);
  return ti;
}

static float half_to_float(uint16_t h) {
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float f = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 0x400), (int)e - 25);
  return (h >> 15) ? -f : f;
}

static float bf16_to_float(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* The vendor's sample 2_advanced_features/built_in_task/1_random_num_task,
 * with the results checked. */
TEST(random_numbers_sample) {
  rt_up();
  enum { N = 4096 };
  void *result = dev_alloc(N * 8), *counter = dev_alloc(16);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);

  /* normal float, mean 1, stddev 2 */
  float mean = 1.0f, sd = 2.0f;
  aclrtRandomNumTaskInfo ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, result, counter, 42, N);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = para_value(&mean, 4);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = para_value(&sd, 4);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  static float f[N];
  from_dev(f, result, sizeof(f));
  double sum = 0, sq = 0;
  for (int i = 0; i < N; i++) {
    sum += f[i];
    sq += (double)f[i] * f[i];
  }
  double m = sum / N, var = sq / N - m * m;
  printf("normal: mean %.3f, stddev %.3f; first %f %f %f %f %f\n", m, sqrt(var), f[0], f[1], f[2], f[3], f[4]);
  CHECK(fabs(m - 1.0) < 0.15 && fabs(sqrt(var) - 2.0) < 0.15);

  /* the counter advanced: the same call gives other numbers; rewinding it gives the same */
  static float g[N];
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  from_dev(g, result, sizeof(g));
  CHECK(memcmp(f, g, sizeof(f)) != 0);
  CHECK_INT_EQ(aclrtMemset(counter, 16, 0, 16), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  from_dev(g, result, sizeof(g));
  CHECK(memcmp(f, g, sizeof(f)) == 0);

  /* truncated normal bfloat16: within two standard deviations */
  uint16_t bmean = 0x0000, bsd = 0x3f80; /* 0, 1 */
  ti = task_info(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, result, counter, 7, N);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = para_value(&bmean, 2);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = para_value(&bsd, 2);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  static uint16_t h[N];
  from_dev(h, result, sizeof(h));
  for (int i = 0; i < N; i++)
    CHECK(fabsf(bf16_to_float(h[i])) <= 2.01f);

  /* uniform float16 in [-1, 1), min and max read from device memory */
  uint16_t hmin = 0xbc00, hmax = 0x3c00;
  uint16_t *pm = dev_alloc(4);
  to_dev(pm, &hmin, 2);
  to_dev(pm + 1, &hmax, 2);
  ti = task_info(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, result, counter, 9, N);
  ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = para_addr(pm, 2);
  ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = para_addr(pm + 1, 2);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  from_dev(h, result, sizeof(h));
  int neg = 0;
  for (int i = 0; i < N; i++) {
    float v = half_to_float(h[i]);
    CHECK(v >= -1.0f && v <= 1.0f);
    neg += v < 0;
  }
  CHECK(neg > N / 3 && neg < 2 * N / 3);

  /* uniform int32 in [-5, 5) */
  int32_t imin = -5, imax = 5;
  ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, result, counter, 11, N);
  ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = para_value(&imin, 4);
  ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = para_value(&imax, 4);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  static int32_t iv[N];
  from_dev(iv, result, sizeof(iv));
  int seen[10] = {0};
  for (int i = 0; i < N; i++) {
    CHECK(iv[i] >= -5 && iv[i] < 5);
    seen[iv[i] + 5] = 1;
  }
  for (int i = 0; i < 10; i++)
    CHECK(seen[i]);

  /* dropout bitmask, ratio 0.25: about 3/4 of the bits kept */
  float ratio = 0.25f;
  ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, result, counter, 13, N);
  ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation = para_value(&ratio, 4);
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  static uint8_t bits[N / 8];
  from_dev(bits, result, sizeof(bits));
  int kept = 0;
  for (int i = 0; i < N / 8; i++)
    kept += __builtin_popcount(bits[i]);
  printf("dropout: %d of %d kept\n", kept, N);
  CHECK(kept > N * 0.70 && kept < N * 0.80);
  printf("Sample Run Successfully.\n");
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(pm), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(result), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  rt_down();
}

TEST(random_arguments) {
  rt_up();
  void *result = dev_alloc(64), *counter = dev_alloc(16);
  float mean = 0, sd = 1;
  aclrtRandomNumTaskInfo ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, result, counter, 1, 16);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean = para_value(&mean, 4);
  ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev = para_value(&sd, 4);
  CHECK_INT_EQ(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtRandomNumAsync failed");
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, NULL, result), ACL_ERROR_RT_PARAM_INVALID);
  aclrtRandomNumTaskInfo bad = ti;
  bad.dataType = ACL_DOUBLE;
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  bad = ti;
  bad.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)4;
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  bad = ti;
  bad.dataType = ACL_INT32; /* a normal distribution of integers */
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  bad = ti;
  bad.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean.size = 2; /* not a float's size */
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  bad = ti;
  bad.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean.isAddr = 2;
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  bad = ti;
  bad.randomResultAddr = NULL;
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  bad = ti;
  bad.randomCounterAddr = &mean; /* host memory */
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  bad = ti;
  uint64_t too_many = 17;
  bad.randomNum = para_value(&too_many, 8); /* 68 bytes into 64 */
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  /* a count in device memory too large for the output fails when the task runs */
  uint64_t *num = dev_alloc(8);
  to_dev(num, &too_many, 8);
  bad = ti;
  bad.randomNum = para_addr(num, 8);
  CHECK_INT_EQ(aclrtRandomNumAsync(&bad, NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "random numbers");
  CHECK_INT_EQ(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(num), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(result), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  rt_down();
}
