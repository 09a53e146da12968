/*
 * memory.c - black-box tests of device and pinned host memory (api/memory/...):
 * sizing and alignment, policies, capacity, frees, copies of every kind,
 * kind and bounds checks, fills, 2-D copies, asynchronous copies (pinned:
 * queued; pageable: complete on return), peer copies, the host-access trap,
 * the debug switch, the caching allocator, leak reports, threads.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "openacl/openacl.h"

#define MiB ((size_t)1 << 20)

static void mem_up(const char *memory) {
  if (memory != NULL)
    setenv("OPENACL_DEVICE_MEMORY", memory, 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void mem_down(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static size_t mem_free_now(void) {
  size_t f = 0, t = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
  return f;
}

static size_t mem_total(void) {
  size_t f = 0, t = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
  return t;
}

/* Tests of the simulated device's own behaviour (capacity from
 * OPENACL_DEVICE_MEMORY, protection) skip on other backends. */
static int backend_is_cpu(void) {
  const char *b = getenv("OPENACL_BACKEND");
  return b == NULL || *b == '\0' || strcmp(b, "cpu") == 0;
}

static const char *last_msg(void) {
  const char *m = aclGetRecentErrMsg();
  return m ? m : "";
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* ---- sizing, alignment, policies ---------------------------------------- */

TEST(sizing_and_alignment) {
  mem_up("64M");
  size_t f0 = 0, total = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &total), ACL_SUCCESS);
  CHECK_INT_EQ(total, 64 * MiB);
  CHECK_INT_EQ(f0, total);
  static const size_t sizes[] = {1, 31, 32, 33, 63, 64, 65, 100, 4095, 4096, 100000, 3 * MiB + 7};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    size_t before = mem_free_now();
    void *p = NULL;
    CHECK_INT_EQ(aclrtMalloc(&p, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_INT_EQ((uintptr_t)p % 64, 0);
    CHECK_INT_EQ(before - mem_free_now(), (sizes[i] + 31) / 32 * 32 + 32);
    void *q = NULL;
    CHECK_INT_EQ(aclrtMallocAlign32(&q, sizes[i], ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    CHECK_INT_EQ((uintptr_t)q % 64, 0);
    CHECK_INT_EQ(before - mem_free_now(), (sizes[i] + 31) / 32 * 32 + 32 + (sizes[i] + 31) / 32 * 32);
    CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtFree(q), ACL_SUCCESS);
    CHECK_INT_EQ(mem_free_now(), before);
  }
  mem_down();
}

TEST(every_policy_is_accepted) {
  mem_up("3G");
  static const uint32_t policies[] = {ACL_MEM_MALLOC_HUGE_FIRST,          ACL_MEM_MALLOC_HUGE_ONLY,
                                      ACL_MEM_MALLOC_NORMAL_ONLY,         ACL_MEM_MALLOC_HUGE_FIRST_P2P,
                                      ACL_MEM_MALLOC_HUGE_ONLY_P2P,       ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
                                      ACL_MEM_TYPE_LOW_BAND_WIDTH,        ACL_MEM_TYPE_HIGH_BAND_WIDTH,
                                      ACL_MEM_ACCESS_USER_SPACE_READONLY, 99};
  for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
    void *p = NULL;
    size_t before = mem_free_now();
    CHECK_INT_EQ(aclrtMalloc(&p, 1000, (aclrtMemMallocPolicy)policies[i]), ACL_SUCCESS);
    CHECK_INT_EQ(before - mem_free_now(), 1056);
    CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  /* 1 GiB pages: the size is rounded up to 1 GiB, without padding. */
  void *g = NULL;
  if (mem_total() >= ((size_t)2 << 30)) {
    size_t before = mem_free_now();
    CHECK_INT_EQ(aclrtMalloc(&g, 1000, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_SUCCESS);
    CHECK_INT_EQ(before - mem_free_now(), (size_t)1 << 30);
    aclrtPtrAttributes at;
    CHECK_INT_EQ(aclrtPointerGetAttributes(g, &at), ACL_SUCCESS);
    CHECK_INT_EQ(at.pageSize, 1u << 30);
    CHECK_INT_EQ(aclrtFree(g), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMalloc(&g, 5, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtFree(g), ACL_SUCCESS);
  } else {
    CHECK_INT_EQ(aclrtMalloc(&g, 1000, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
  }
  /* Cached memory and the configuration variant. */
  CHECK_INT_EQ(aclrtMallocCached(&g, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemFlush(g, 4096), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemInvalidate(g, 100), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemFlush(g, 4097), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemFlush(NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFree(g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocWithCfg(&g, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(g), ACL_SUCCESS);
  aclrtMallocConfig bad = {NULL, 1};
  CHECK_INT_EQ(aclrtMallocWithCfg(&g, 64, ACL_MEM_MALLOC_HUGE_FIRST, &bad), ACL_ERROR_INVALID_PARAM);
  aclrtMallocAttribute attr;
  memset(&attr, 0, sizeof(attr));
  attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attr.value.moduleId = 7;
  aclrtMallocConfig cfg = {&attr, 1};
  CHECK_INT_EQ(aclrtMallocWithCfg(&g, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(g), ACL_SUCCESS);
  mem_down();
}

TEST(invalid_arguments) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  void *p = NULL;
  /* No device set: no current context. */
  CHECK_INT_EQ(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
  size_t f, t;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(last_msg(), "devPtr");
  CHECK_INT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(last_msg(), "size is 0");
  CHECK_INT_EQ(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMalloc(&p, SIZE_MAX - 10, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocHost(NULL, 16), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtPointerGetAttributes(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemset(NULL, 1, 0, 1), ACL_ERROR_INVALID_PARAM);
  mem_down();
}

/* ---- capacity --------------------------------------------------------------- */

TEST(capacity_exhaustion_then_recovery) {
  mem_up("64M");
  void *blocks[8] = {0};
  int n = 0;
  for (; n < 8; n++) {
    aclError rc = aclrtMalloc(&blocks[n], 15 * MiB, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) {
      CHECK_INT_EQ(rc, ACL_ERROR_RT_MEMORY_ALLOCATION);
      break;
    }
  }
  CHECK_INT_EQ(n, 4); /* 4 x (15 MiB + 32) fit in 64 MiB, a fifth does not */
  const char *m = last_msg();
  CHECK_STR_HAS(m, "ACL_ERROR_RT_MEMORY_ALLOCATION (207001)");
  CHECK_STR_HAS(m, "15728640 bytes were requested");
  CHECK_STR_HAS(m, "of its 67108864 bytes are in use");
  /* Still usable: smaller allocations fit, and freeing makes room again. */
  void *small = NULL;
  CHECK_INT_EQ(aclrtMalloc(&small, MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(blocks[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&blocks[0], 15 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char host[64] = "still works";
  char back[64] = "";
  CHECK_INT_EQ(aclrtMemcpy(blocks[0], 64, host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, sizeof(back), blocks[0], 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_STR_EQ(back, "still works");
  /* Larger than the whole device. */
  void *huge = NULL;
  CHECK_INT_EQ(aclrtMalloc(&huge, 65 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  for (int i = 0; i < n; i++)
    CHECK_INT_EQ(aclrtFree(blocks[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(small), ACL_SUCCESS);
  CHECK_INT_EQ(mem_free_now(), 64 * MiB);
  mem_down();
}

TEST(memory_is_released_at_reset) {
  mem_up("64M");
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, 10 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(mem_free_now(), 64 * MiB);
  mem_down();
}

/* ---- frees ---------------------------------------------------------------------- */

TEST(bad_frees_are_errors) {
  mem_up("64M");
  void *d = NULL, *h = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost(&h, 256), ACL_SUCCESS);
  char *foreign = malloc(64);
  CHECK_INT_EQ(aclrtFree(foreign), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(last_msg(), "is not device memory");
  CHECK_INT_EQ(aclrtFree((char *)d + 16), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(last_msg(), "16 bytes into the 256-byte allocation");
  CHECK_INT_EQ(aclrtFree(h), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(last_msg(), "aclrtFreeHost");
  CHECK_INT_EQ(aclrtFreeHost(d), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(last_msg(), "aclrtFree");
  CHECK_INT_EQ(aclrtFreeHost(foreign), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(last_msg(), "freed already");
  CHECK_INT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(h), ACL_ERROR_RT_MEMORY_FREE);
  free(foreign);
  /* The runtime is still fine. */
  CHECK_INT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeWithDevSync(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost(&h, 10), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHostWithDevSync(h), ACL_SUCCESS);
  mem_down();
}

/* ---- copies ---------------------------------------------------------------------- */

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(seed + i * 7);
}

TEST(memcpy_every_kind) {
  mem_up("64M");
  enum { N = 5000 };
  unsigned char *h1 = malloc(N), *h2 = malloc(N);
  void *pin = NULL, *d1 = NULL, *d2 = NULL;
  CHECK_INT_EQ(aclrtMallocHost(&pin, N), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&d1, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&d2, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  static const aclrtMemcpyKind h2d[] = {ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEFAULT,
                                        ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE};
  static const aclrtMemcpyKind d2d[] = {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT,
                                        ACL_MEMCPY_INNER_DEVICE_TO_DEVICE};
  for (int k = 0; k < 3; k++) {
    fill_pattern(h1, N, (unsigned)k);
    memset(h2, 0, N);
    CHECK_INT_EQ(aclrtMemcpy(pin, N, h1, N, k == 1 ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(d1, N, pin, N, h2d[k]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(d2, N, d1, N, d2d[k]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(h2, N, d2, N, k == 1 ? ACL_MEMCPY_DEFAULT : ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK(memcmp(h1, h2, N) == 0);
  }
  /* Interior pointers and overlapping device copies. */
  CHECK_INT_EQ(aclrtMemcpy((char *)d1 + 1, N - 1, d1, N - 1, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(h2, N, d1, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(h2[1], h1[0]);
  CHECK_INT_EQ(h2[N - 1], h1[N - 2]);
  /* count 0 returns at once, whatever the rest. */
  CHECK_INT_EQ(aclrtMemcpy(NULL, 0, NULL, 0, (aclrtMemcpyKind)42), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  free(h1);
  free(h2);
  mem_down();
}

TEST(memcpy_kind_must_match_pointers) {
  mem_up("64M");
  char h[64] = {0}, h2[64] = {0};
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(h, 64, h2, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "HOST_TO_HOST");
  CHECK_INT_EQ(aclrtMemcpy(h, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "DEVICE_TO_HOST");
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, d, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy(h, 64, h2, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpy(NULL, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  /* count > destMax */
  CHECK_INT_EQ(aclrtMemcpy(d, 32, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "count 64 is larger than destMax 32");
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  mem_down();
}

TEST(copies_past_an_allocation_are_rejected) {
  mem_up("64M");
  char h[256] = {0};
  void *d = NULL, *pin = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(d, 256, h, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(d, 256, h, 101, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "100-byte allocation");
  CHECK_INT_EQ(aclrtMemcpy(h, 256, (char *)d + 50, 60, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "50 bytes into the 100-byte allocation");
  CHECK_INT_EQ(aclrtMemset((char *)d + 99, 10, 0, 2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMallocHost(&pin, 64), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(pin, 256, d, 65, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "pinned host allocation");
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  /* A freed allocation is no longer a valid target. */
  CHECK_INT_EQ(aclrtMemcpy(d, 256, h, 10, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "no live allocation");
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  mem_down();
}

/* ---- fills and 2-D copies ------------------------------------------------------------ */

TEST(memset_and_memset_d32) {
  mem_up("64M");
  enum { N = 1000 };
  unsigned char h[N];
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(d, N, 0x1AB, N), ACL_SUCCESS); /* low byte only */
  CHECK_INT_EQ(aclrtMemcpy(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(h[i], 0xAB);
  CHECK_INT_EQ(aclrtMemset(d, N, 0, N + 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemset(d, N, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetD32(d, N, 0x11223344u, N / 4), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(h, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  uint32_t w;
  memcpy(&w, h + 996, 4);
  CHECK_INT_EQ(w, 0x11223344u);
  CHECK_INT_EQ(aclrtMemsetD32(d, N, 1, N / 4 + 1), ACL_ERROR_RT_PARAM_INVALID);
  /* Host memory may be set too. */
  memset(h, 0, N);
  CHECK_INT_EQ(aclrtMemset(h, N, 7, 10), ACL_SUCCESS);
  CHECK_INT_EQ(h[9], 7);
  CHECK_INT_EQ(h[10], 0);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  mem_down();
}

TEST(memcpy_2d) {
  mem_up("64M");
  enum { W = 10, H = 6, SP = 16, DP = 64 };
  unsigned char src[SP * H], back[SP * H];
  fill_pattern(src, sizeof(src), 3);
  memset(back, 0, sizeof(back));
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, DP * H, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(d, DP * H, 0xEE, DP * H), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy2d(d, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy2d(back, SP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int r = 0; r < H; r++)
    for (int c = 0; c < SP; c++)
      CHECK_INT_EQ(back[r * SP + c], c < W ? src[r * SP + c] : 0);
  unsigned char whole[DP * H];
  CHECK_INT_EQ(aclrtMemcpy(whole, sizeof(whole), d, DP * H, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(whole[DP + W], 0xEE); /* the gap between rows is untouched */
  CHECK_INT_EQ(aclrtMemcpy2d(back, SP, d, DP, W, H, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy2d(d, DP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy2d(d, DP, src, SP, SP + 1, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpy2d(d, DP, src, SP, W, H + 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "past the end");
  CHECK_INT_EQ(aclrtMemcpy2d(d, DP, src, SP, W, H, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  mem_down();
}

/* ---- asynchronous copies ------------------------------------------------------------- */

typedef struct gate {
  atomic_int open;
  atomic_int entered;
} gate;

static void gate_wait(void *arg) {
  gate *g = arg;
  atomic_fetch_add(&g->entered, 1);
  while (!atomic_load(&g->open))
    sleep_ms(1);
}

TEST(async_with_pinned_memory_is_queued_in_order) {
  mem_up("64M");
  enum { N = 4096 };
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  unsigned char *in = NULL, *out = NULL;
  CHECK_INT_EQ(aclrtMallocHost((void **)&in, N), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost((void **)&out, N), ACL_SUCCESS);
  fill_pattern(in, N, 9);
  memset(out, 0, N);
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 0, N, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(d, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetD32Async((char *)d + 8, 8, 0xDEADBEEFu, 2, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  /* Every call returned while the stream is held: nothing has run yet. */
  sleep_ms(20);
  CHECK_INT_EQ(out[0], 0);
  CHECK_INT_EQ(out[N - 1], 0);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  uint32_t w;
  memcpy(&w, out + 12, 4);
  CHECK_INT_EQ(w, 0xDEADBEEFu);
  CHECK_INT_EQ(out[7], in[7]);
  CHECK(memcmp(out + 16, in + 16, N - 16) == 0);
  /* 2-D, asynchronously. */
  memset(out, 0, N);
  CHECK_INT_EQ(aclrtMemcpy2dAsync(out, 64, d, 128, 32, 8, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(out[64 * 7 + 31], in[128 * 7 + 31]);
  /* Host to host cannot go on a stream, as on a card. */
  CHECK_INT_EQ(aclrtMemcpyAsync(out, N, in, N, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtMemcpyAsync(out, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyAsync(out, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE, (aclrtStream)in),
               ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(out), ACL_SUCCESS);
  mem_down();
}

static void *open_gate_later(void *arg) {
  sleep_ms(100);
  atomic_store(&((gate *)arg)->open, 1);
  return NULL;
}

TEST(async_with_pageable_memory_is_done_on_return) {
  mem_up("64M");
  enum { N = 8192 };
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  unsigned char *in = malloc(N), *out = malloc(N);
  fill_pattern(in, N, 5);
  memset(out, 0, N);
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  /* The stream is held for ~100 ms; the pageable copy waits its turn and is
   * complete when the call returns. */
  gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 0x5A, N, s), ACL_SUCCESS);
  pthread_t th;
  pthread_create(&th, NULL, open_gate_later, &g);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtMemcpyAsync(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK(th_now_ns() - t0 >= 50u * 1000000u);
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(out[i], 0x5A);
  pthread_join(th, NULL);
  /* Host to device from pageable memory, then read back synchronously. */
  CHECK_INT_EQ(aclrtMemcpyAsync(d, N, in, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  memset(in, 0, N); /* the copy is done: changing the source has no effect */
  CHECK_INT_EQ(aclrtMemcpy(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(out[N - 1], (unsigned char)(5 + (N - 1) * 7));
  /* Staged copy: the source may be reused at once even though it is queued. */
  fill_pattern(in, N, 77);
  CHECK_INT_EQ(aclrtMemcpyAsync(d, N, in, N, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s), ACL_SUCCESS);
  memset(in, 0, N);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(out, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(out[100], (unsigned char)(77 + 100 * 7));
  /* Pageable memset on the default stream. */
  CHECK_INT_EQ(aclrtMemsetAsync(in, N, 3, N, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(in[N - 1], 3);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  free(in);
  free(out);
  mem_down();
}

/* ---- peers ------------------------------------------------------------------------------ */

TEST(peer_copies_need_peer_access) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("OPENACL_DEVICE_MEMORY", "64M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  void *a = NULL, *b = NULL;
  char h[128], back[128];
  fill_pattern((unsigned char *)h, sizeof(h), 11);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&a, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(a, 128, h, 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&b, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(b, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  CHECK_INT_EQ(at.location.id, 1);
  CHECK_INT_EQ(aclrtMemcpy(b, 128, a, 128, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(last_msg(), "peer access");
  CHECK_INT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(b, 128, a, 128, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(b, 128, a, 128, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(b, 128, a, 128, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyAsync(b, 128, a, 128, ACL_MEMCPY_DEFAULT, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, 128, b, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(back, h, 128) == 0);
  CHECK_INT_EQ(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(b, 128, a, 128, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(a), ACL_SUCCESS); /* a pointer of another device frees fine */
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- host access ------------------------------------------------------------------------- */

TEST(host_dereference_of_device_memory_traps) {
  if (!backend_is_cpu()) {
    printf("skipped: only the cpu backend protects device memory\n");
    return;
  }
  /* Trapped with protection keys, or else with the alias mechanism, which
   * every Linux has (memory_protection.c tests each mechanism). */
  const char *mech = getenv("OPENACL_MEMORY_PROTECTION");
  if (mech != NULL && strcmp(mech, "off") == 0) {
    printf("skipped: OPENACL_MEMORY_PROTECTION=off\n");
    return;
  }
  mem_up("64M");
  volatile char *d = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int fds[2];
  CHECK_INT_EQ(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    char c = d[100]; /* must fault */
    printf("read %d without a fault\n", c);
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  size_t n = 0;
  ssize_t r;
  while ((r = read(fds[0], buf + n, sizeof(buf) - 1 - n)) > 0)
    n += (size_t)r;
  buf[n] = '\0';
  close(fds[0]);
  int status = 0;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFSIGNALED(status));
  CHECK_INT_EQ(WTERMSIG(status), SIGSEGV);
  char where[64];
  snprintf(where, sizeof(where), "at %p", (void *)(d + 100));
  CHECK_STR_HAS(buf, "openacl: host code accessed device memory ");
  CHECK_STR_HAS(buf, where);
  CHECK_STR_HAS(buf, "(device 0, inside a 1000-byte allocation at ");
  CHECK_STR_HAS(buf, "made by aclrtMalloc from ");
  CHECK_STR_HAS(buf, "OPENACL_DEVICE_MEMORY_HOST_ACCESS=1");
  /* The parent is unaffected. */
  CHECK_INT_EQ(aclrtFree((void *)d), ACL_SUCCESS);
  mem_down();
}

TEST(host_access_switch_allows_dereference) {
  setenv("OPENACL_DEVICE_MEMORY_HOST_ACCESS", "1", 1);
  mem_up("64M");
  char *d = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  d[3] = 42;
  char h[64];
  CHECK_INT_EQ(aclrtMemcpy(h, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(h[3], 42);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  mem_down();
}

/* ---- queries ------------------------------------------------------------------------------- */

TEST(meminfo_and_pointer_attributes) {
  mem_up("128M");
  size_t f = 1, t = 1;
  int64_t total = 0;
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total), ACL_SUCCESS);
  if (backend_is_cpu())
    CHECK_INT_EQ(total, 128 * MiB);
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t), ACL_SUCCESS);
  CHECK_INT_EQ(t, total);
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM_P2P_NORMAL, &f, &t), ACL_SUCCESS);
  CHECK_INT_EQ(t, total);
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_MEM_HUGE1G, &f, &t), ACL_SUCCESS);
  CHECK_INT_EQ(f, 0);
  CHECK_INT_EQ(t, 0);
  CHECK_INT_EQ(aclrtGetMemInfo((aclrtMemAttr)1234, &f, &t), ACL_SUCCESS);
  CHECK_INT_EQ(t, 0);
  void *d = NULL, *pin = NULL;
  char stack[8];
  CHECK_INT_EQ(aclrtMalloc(&d, 3 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost(&pin, 100), ACL_SUCCESS);
  CHECK_INT_EQ((uintptr_t)pin % (uintptr_t)sysconf(_SC_PAGESIZE), 0);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes((char *)d + 5, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  CHECK_INT_EQ(at.location.id, 0);
  CHECK_INT_EQ(at.pageSize, 2u << 20);
  CHECK_INT_EQ(aclrtPointerGetAttributes(pin, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  CHECK_INT_EQ(aclrtPointerGetAttributes(stack, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  mem_down();
}

/* ---- the caching allocator ------------------------------------------------------------------- */

static long status_kib(const char *field) {
  char *text = th_read_file("/proc/self/status");
  CHECK_NOT_NULL(text);
  const char *p = strstr(text, field);
  long v = p ? strtol(p + strlen(field), NULL, 10) : -1;
  free(text);
  return v;
}

TEST(repeated_malloc_free_does_not_grow_memory) {
  mem_up("256M");
  unsigned seed = 1;
  void *keep[16];
  for (int i = 0; i < 16; i++)
    CHECK_INT_EQ(aclrtMalloc(&keep[i], 4096 * (size_t)(i + 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  long vm0 = 0, rss0 = 0;
  for (int i = 0; i < 100000; i++) {
    if (i == 1000) {
      vm0 = status_kib("VmSize:");
      rss0 = status_kib("VmRSS:");
    }
    size_t size = 16384 + (size_t)(rand_r(&seed) % 49152);
    void *p = NULL;
    CHECK_INT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (i % 16 == 0)
      CHECK_INT_EQ(aclrtMemset(p, size, i & 0xff, size), ACL_SUCCESS); /* touch the pages */
    CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  long vm1 = status_kib("VmSize:"), rss1 = status_kib("VmRSS:");
  printf("VmSize %ld -> %ld KiB, VmRSS %ld -> %ld KiB\n", vm0, vm1, rss0, rss1);
#if !TH_SANITIZED /* a sanitizer's own shadow and quarantine memory grows meanwhile */
  CHECK(vm1 - vm0 < 8192);
  CHECK(rss1 - rss0 < 8192);
#endif
  for (int i = 0; i < 16; i++)
    CHECK_INT_EQ(aclrtFree(keep[i]), ACL_SUCCESS);
  mem_down();
}

/* ---- leak report -------------------------------------------------------------------------------- */

TEST(reset_reports_leaked_allocations) {
  char *dir = th_tmpdir();
  setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
  mem_up("64M");
  void *a = NULL, *b = NULL;
  CHECK_INT_EQ(aclrtMalloc(&a, 1234, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&b, 99, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  const char *path = openaclGetLogFilePath();
  char *copy = path ? strdup(path) : NULL;
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_NOT_NULL(copy);
  char *log = th_read_file(copy);
  CHECK_NOT_NULL(log);
  char where[64];
  snprintf(where, sizeof(where), "%p (1234 bytes, aclrtMalloc from ", a);
  CHECK_STR_HAS(log, "device 0 was reset with 2 device allocations not freed (1333 bytes)");
  CHECK_STR_HAS(log, where);
  free(log);
  free(copy);
  th_rmtree(dir);
  free(dir);
}

/* ---- threads ------------------------------------------------------------------------------------- */

static void *churn(void *arg) {
  aclrtContext ctx = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
  unsigned seed = (unsigned)(uintptr_t)&seed;
  unsigned char h[512], back[512];
  void *live[32] = {0};
  for (int i = 0; i < 20000; i++) {
    int k = (int)(rand_r(&seed) % 32);
    if (live[k] != NULL) {
      CHECK_INT_EQ(aclrtFree(live[k]), ACL_SUCCESS);
      live[k] = NULL;
    } else {
      size_t size = 1 + (size_t)(rand_r(&seed) % 8192);
      CHECK_INT_EQ(aclrtMalloc(&live[k], size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      if (size >= sizeof(h) && i % 8 == 0) {
        fill_pattern(h, sizeof(h), (unsigned)i);
        CHECK_INT_EQ(aclrtMemcpy(live[k], size, h, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        CHECK_INT_EQ(aclrtMemcpy(back, sizeof(back), live[k], sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        CHECK(memcmp(h, back, sizeof(h)) == 0);
      }
    }
  }
  for (int k = 0; k < 32; k++)
    if (live[k] != NULL)
      CHECK_INT_EQ(aclrtFree(live[k]), ACL_SUCCESS);
  return NULL;
}

TEST(threads_allocate_copy_and_free) {
  mem_up("256M");
  aclrtContext ctx = NULL;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, churn, ctx), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  CHECK_INT_EQ(mem_free_now(), mem_total());
  mem_down();
}

TEST(freed_memory_goes_back_to_the_system) {
  mem_up("256M");
  if (mem_total() < 256 * MiB) {
    printf("skipped: the device has less than 256 MiB\n");
    mem_down();
    return;
  }
  void *p = NULL;
  size_t n = 160 * MiB;
  long rss0 = status_kib("VmRSS:");
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 1, n), ACL_SUCCESS);
  long rss1 = status_kib("VmRSS:");
  CHECK(rss1 - rss0 > 150 * 1024);
  /* More than the cache budget (a quarter of the capacity) was freed: the
   * pages are returned at once. */
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  long rss2 = status_kib("VmRSS:");
  printf("VmRSS %ld -> %ld -> %ld KiB\n", rss0, rss1, rss2);
  CHECK(rss1 - rss2 > 150 * 1024);
  /* The memory is usable again, zero-filled or not. */
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 2, 4096), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  mem_down();
}

TEST(forked_child_starts_with_its_own_memory) {
#if TH_SANITIZED /* a child forked from a threaded process cannot re-initialise here */
  printf("skipped: sanitizers do not support re-initialising in a forked child\n");
  return;
#endif
  mem_up("64M");
  void *parent_ptr = NULL;
  CHECK_INT_EQ(aclrtMalloc(&parent_ptr, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    /* The parent's device memory is not the child's: it must start over. */
    CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    char h[128] = "child", back[128] = "";
    CHECK_INT_EQ(aclrtMemcpy(h, 128, parent_ptr, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
    CHECK_INT_EQ(aclrtFree(parent_ptr), ACL_ERROR_RT_MEMORY_FREE);
    void *d = NULL;
    CHECK_INT_EQ(aclrtMalloc(&d, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(d, 128, h, 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(back, 128, d, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    CHECK_STR_EQ(back, "child");
    CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
    fflush(NULL);
    _exit(0);
  }
  int status = 0;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  CHECK_INT_EQ(aclrtFree(parent_ptr), ACL_SUCCESS);
  mem_down();
}
