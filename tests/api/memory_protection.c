/*
 * memory_protection.c - host code cannot touch device memory, whatever the
 * mechanism (api/memory_protection/...; docs/memory.md "Host access to
 * device memory").
 *
 * Each test runs under the mechanism OPENACL_MEMORY_PROTECTION names (unset:
 * auto, the best this machine offers); memory_protection.cmake registers
 * every test once per mechanism.  A pkeys run on a machine without
 * protection keys says so and passes.  What is checked in each:
 *   - a host read or write of device memory stops the process with SIGSEGV
 *     and a message naming the allocation (off: it succeeds);
 *   - everything the runtime does with device memory still works: copies
 *     of every kind and direction, fills, 2-D copies, asynchronous copies,
 *     peer copies between two devices, kernels (arguments from device
 *     memory, host memory and an argument handle; a kernel following
 *     device pointers it read from device memory), models (inputs, outputs,
 *     weights and work memory in device memory), registered host memory
 *     reached by a kernel through its device-side address;
 *   - the device-side address of registered host memory traps host code in
 *     every mode.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "model_helpers.h"

#ifndef OPENACL_TEST_KERNELS
#error "OPENACL_TEST_KERNELS must name the test kernel binary"
#endif
#ifndef OPENACL_MEMORY_KERNELS
#error "OPENACL_MEMORY_KERNELS must name the memory test kernels"
#endif

/* ---- the mechanism of this run --------------------------------------------------- */

static const char *mode(void) {
  const char *m = getenv("OPENACL_MEMORY_PROTECTION");
  return m != NULL && *m != '\0' ? m : "auto";
}

static int pkeys_here(void) {
  int k = pkey_alloc(0, 0);
  if (k < 0)
    return 0;
  pkey_free(k);
  return 1;
}

/* 1: this run cannot test what it is for (printed). */
static int skip_run(void) {
  if (strcmp(mode(), "pkeys") == 0 && !pkeys_here()) {
    printf("skipped: OPENACL_MEMORY_PROTECTION=pkeys, but this machine has no memory protection keys\n");
    return 1;
  }
  const char *b = getenv("OPENACL_BACKEND");
  if (b != NULL && strcmp(b, "cpu") != 0) {
    printf("skipped: only the cpu backend protects device memory\n");
    return 1;
  }
  return 0;
}

/* Host accesses trap in every mode but off (alias works on any Linux). */
static int traps(void) { return strcmp(mode(), "off") != 0; }

static void up(int devices) {
  char n[8];
  snprintf(n, sizeof(n), "%d", devices);
  setenv("OPENACL_DEVICE_COUNT", n, 1);
  setenv("OPENACL_DEVICE_MEMORY", "256M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void down(int devices) {
  for (int i = devices - 1; i >= 0; i--)
    CHECK_INT_EQ(aclrtResetDevice(i), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* Runs fn(arg) in a forked child with stderr captured; returns the wait
 * status and the child's stderr in buf. */
static int in_child(void (*fn)(void *), void *arg, char *buf, size_t cap) {
  int fds[2];
  CHECK_INT_EQ(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    fn(arg);
    _exit(0);
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(fds[0], buf + n, cap - 1 - n)) > 0)
    n += (size_t)r;
  buf[n] = '\0';
  close(fds[0]);
  int status = 0;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  return status;
}

/* ---- host accesses ------------------------------------------------------------------ */

static void read_byte(void *p) {
  volatile char *d = p;
  char c = d[100];
  fprintf(stderr, "read %d without a fault\n", c);
}

static void write_byte(void *p) {
  volatile char *d = p;
  d[200] = 7;
  fprintf(stderr, "wrote without a fault\n");
}

static void check_access(void (*fn)(void *), size_t at) {
  up(1);
  char *d = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char buf[4096];
  int status = in_child(fn, d, buf, sizeof(buf));
  if (traps()) {
    CHECK(WIFSIGNALED(status));
    CHECK_INT_EQ(WTERMSIG(status), SIGSEGV);
    char where[64];
    snprintf(where, sizeof(where), "at %p", (void *)(d + at));
    CHECK_STR_HAS(buf, "openacl: host code accessed device memory ");
    CHECK_STR_HAS(buf, where);
    CHECK_STR_HAS(buf, "(device 0, inside a 1000-byte allocation at ");
    CHECK_STR_HAS(buf, "made by aclrtMalloc from ");
    CHECK_STR_HAS(buf, "mechanism");
    if (strcmp(mode(), "auto") != 0) {
      char mech[64];
      snprintf(mech, sizeof(mech), "trapped by the %s mechanism", mode());
      CHECK_STR_HAS(buf, mech);
    }
  } else {
    CHECK(WIFEXITED(status));
    CHECK_INT_EQ(WEXITSTATUS(status), 0);
  }
  /* The parent is unaffected. */
  CHECK_INT_EQ(aclrtMemset(d, 1000, 3, 1000), ACL_SUCCESS);
  char h[1000];
  CHECK_INT_EQ(aclrtMemcpy(h, sizeof(h), d, 1000, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(h[999], 3);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  down(1);
}

TEST(host_read_of_device_memory_traps) {
  if (skip_run())
    return;
  check_access(read_byte, 100);
}

TEST(host_write_of_device_memory_traps) {
  if (skip_run())
    return;
  check_access(write_byte, 200);
}

/* ---- copies and fills ---------------------------------------------------------------- */

TEST(copies_and_fills_work) {
  if (skip_run())
    return;
  up(2);
  enum { N = 1 << 16 };
  unsigned char *h = malloc(N), *back = malloc(N), *pin = NULL;
  CHECK(h != NULL && back != NULL);
  for (int i = 0; i < N; i++)
    h[i] = (unsigned char)(i * 31 + 7);
  void *a = NULL, *b = NULL, *c = NULL;
  CHECK_INT_EQ(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&b, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost((void **)&pin, N), ACL_SUCCESS);
  /* synchronous, every direction */
  CHECK_INT_EQ(aclrtMemcpy(a, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(h, back, N) == 0);
  /* overlapping device-to-device */
  CHECK_INT_EQ(aclrtMemcpy((char *)b + 1, N - 1, b, N - 1, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N, b, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(h, back + 1, N - 1) == 0);
  /* fills */
  CHECK_INT_EQ(aclrtMemset(a, N, 0x5a, N), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetD32((char *)a + 64, N - 64, 0x01020304u, 4), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 0x5a);
  CHECK_INT_EQ(back[64], 0x04);
  CHECK_INT_EQ(back[79], 0x01);
  CHECK_INT_EQ(back[80], 0x5a);
  /* 2-D: 16 rows of 100 bytes, pitch 128 on the device */
  CHECK_INT_EQ(aclrtMemcpy2d(a, 128, h, 100, 100, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy2d(back, 100, a, 128, 100, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(h, back, 1600) == 0);
  /* asynchronous: pinned (queued) and pageable (done on return) */
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  memcpy(pin, h, N);
  CHECK_INT_EQ(aclrtMemcpyAsync(b, N, pin, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 0, N, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(a, N, b, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(back, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK(memcmp(h, back, N) == 0); /* pageable: complete on return */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  /* device 1: a peer copy in and out */
  CHECK_INT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&c, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(c, N, a, N, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_SUCCESS);
  memset(back, 0, N);
  CHECK_INT_EQ(aclrtMemcpy(back, N, c, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(h, back, N) == 0);
  CHECK_INT_EQ(aclrtFree(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  free(h);
  free(back);
  down(2);
}

/* ---- kernels --------------------------------------------------------------------------- */

struct scale_args {
  const float *in;
  float *out;
  uint64_t n;
};

static aclrtFuncHandle load_fn(aclrtBinHandle *bin, const char *path, const char *name) {
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(path, NULL, bin), ACL_SUCCESS);
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(*bin, name, &f), ACL_SUCCESS);
  return f;
}

static void check_scaled(const float *out, const float *in, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (out[i] != in[i] * 2.0f + 1.0f)
      th_fail(__FILE__, __LINE__, "out[%zu] is %g, expected %g", i, (double)out[i], (double)(in[i] * 2.0f + 1.0f));
}

TEST(kernels_reach_device_memory) {
  if (skip_run())
    return;
  up(1);
  enum { N = 10000 };
  float *h = malloc(N * sizeof(float)), *back = malloc(N * sizeof(float));
  CHECK(h != NULL && back != NULL);
  for (int i = 0; i < N; i++)
    h[i] = (float)(i % 977) - 300.0f;
  void *in = NULL, *out = NULL, *dargs = NULL;
  CHECK_INT_EQ(aclrtMalloc(&in, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&out, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(in, N * sizeof(float), h, N * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle f = load_fn(&bin, OPENACL_MEMORY_KERNELS, "mk_scale");
  struct scale_args a = {in, out, N};
  /* 1. arguments in device memory */
  CHECK_INT_EQ(aclrtMalloc(&dargs, sizeof(a), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(dargs, sizeof(a), &a, sizeof(a), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernel(f, 8, dargs, sizeof(a), NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N * sizeof(float), out, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  check_scaled(back, h, N);
  /* 2. arguments in host memory */
  CHECK_INT_EQ(aclrtMemset(out, N * sizeof(float), 0, N * sizeof(float)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 4, NULL, NULL, &a, sizeof(a), NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N * sizeof(float), out, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  check_scaled(back, h, N);
  /* 3. an argument handle */
  CHECK_INT_EQ(aclrtMemset(out, N * sizeof(float), 0, N * sizeof(float)), ACL_SUCCESS);
  aclrtArgsHandle args = NULL;
  aclrtParamHandle p = NULL;
  uint64_t n = N;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(args, &in, sizeof(in), &p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(args, &out, sizeof(out), &p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(args, &n, sizeof(n), &p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 3, NULL, NULL, args, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N * sizeof(float), out, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  check_scaled(back, h, N);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dargs), ACL_SUCCESS);
  free(h);
  free(back);
  down(1);
}

/* A kernel that reads device pointers from device memory (a pointer table)
 * and follows them.  With pkeys or off that is plain; with alias the
 * runtime cannot translate them, and the fault handler opens the
 * allocation for the kernel (docs/memory.md): it still works. */
TEST(kernel_follows_pointers_read_from_device_memory) {
  if (skip_run())
    return;
  up(1);
  enum { K = 4 };
  void *rows[K], *table = NULL, *out = NULL;
  for (int i = 0; i < K; i++) {
    float v[K];
    for (int j = 0; j < K; j++)
      v[j] = (float)(10 * i + j);
    CHECK_INT_EQ(aclrtMalloc(&rows[i], sizeof(v), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpy(rows[i], sizeof(v), v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtMalloc(&table, sizeof(rows), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(table, sizeof(rows), rows, sizeof(rows), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&out, K * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle f = load_fn(&bin, OPENACL_MEMORY_KERNELS, "mk_gather");
  struct {
    void *table, *out;
    uint64_t n;
  } a = {table, out, K};
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, NULL, NULL, &a, sizeof(a), NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  float back[K];
  CHECK_INT_EQ(aclrtMemcpy(back, sizeof(back), out, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < K; i++)
    CHECK_INT_EQ((int)back[i], 11 * i);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  for (int i = 0; i < K; i++)
    CHECK_INT_EQ(aclrtFree(rows[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(table), ACL_SUCCESS);
  /* Freed memory is closed again: a host access to a fresh allocation at
   * the same place still traps. */
  char buf[4096];
  void *again = NULL;
  CHECK_INT_EQ(aclrtMalloc(&again, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int status = in_child(read_byte, again, buf, sizeof(buf));
  CHECK(traps() ? WIFSIGNALED(status) : WIFEXITED(status));
  CHECK_INT_EQ(aclrtFree(again), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  down(1);
}

/* ---- registered host memory ---------------------------------------------------------------- */

TEST(kernel_reaches_registered_host_memory) {
  if (skip_run())
    return;
  up(1);
  enum { N = 4096 };
  float *hin = NULL, *hout = NULL;
  CHECK_INT_EQ(posix_memalign((void **)&hin, 4096, N * sizeof(float)), 0);
  CHECK_INT_EQ(posix_memalign((void **)&hout, 4096, N * sizeof(float)), 0);
  for (int i = 0; i < N; i++) {
    hin[i] = (float)i;
    hout[i] = -1.0f;
  }
  void *din = NULL, *dout = NULL;
  CHECK_INT_EQ(aclrtHostRegister(hin, N * sizeof(float), ACL_HOST_REGISTER_MAPPED, &din), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostRegisterV2(hout, N * sizeof(float), ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostGetDevicePointer(hout, &dout, 0), ACL_SUCCESS);
  CHECK(din != (void *)hin);
  CHECK(dout != (void *)hout);
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle f = load_fn(&bin, OPENACL_MEMORY_KERNELS, "mk_scale");
  struct scale_args a = {din, dout, N};
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 4, NULL, NULL, &a, sizeof(a), NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  check_scaled(hout, hin, N);
  /* an interior pointer maps to the same place */
  void *d100 = NULL;
  CHECK_INT_EQ(aclrtHostGetDevicePointer(hout + 100, &d100, 0), ACL_SUCCESS);
  CHECK((char *)d100 == (char *)dout + 100 * sizeof(float));
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostUnregister(hin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostUnregister(hout), ACL_SUCCESS);
  free(hin);
  free(hout);
  down(1);
}

TEST(host_access_to_a_registered_device_address_traps) {
  if (skip_run())
    return;
  up(1);
  char *h = NULL;
  CHECK_INT_EQ(aclrtMallocHost((void **)&h, 8192), ACL_SUCCESS);
  void *d = NULL;
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 8192, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &d, 0), ACL_SUCCESS);
  char buf[4096];
  int status = in_child(read_byte, d, buf, sizeof(buf));
  CHECK(WIFSIGNALED(status));
  CHECK_INT_EQ(WTERMSIG(status), SIGSEGV);
  CHECK_STR_HAS(buf, "openacl: host code accessed ");
  CHECK_STR_HAS(buf, "the device-side address of registered host memory");
  CHECK_STR_HAS(buf, "registered by aclrtHostRegisterV2");
  CHECK_STR_HAS(buf, "host code uses the host pointer");
  CHECK_INT_EQ(aclrtHostUnregister(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  down(1);
}

/* ---- models ------------------------------------------------------------------------------- */

TEST(models_run_on_device_memory) {
  if (skip_run())
    return;
  up(1);
  static const float bias[4] = {0.5f, -1.0f, 2.0f, 100.0f};
  tw_value x = {"x", 1, {4}, {NULL}}, y = {"y", 1, {4}, {NULL}};
  size_t size = 0;
  uint8_t *onnx = tw_one_node("Add", &x, 1, &y, bias, "memory_protection test", &size);
  /* once with runtime-managed memory, once with weights and work memory in
   * device memory the caller allocated */
  for (int with_mem = 0; with_mem < 2; with_mem++) {
    uint32_t id = 0;
    void *work = NULL, *weight = NULL;
    size_t work_size = 0, weight_size = 0;
    if (with_mem) {
      CHECK_INT_EQ(aclmdlQuerySizeFromMem(onnx, size, &work_size, &weight_size), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtMalloc(&work, work_size ? work_size : 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtMalloc(&weight, weight_size ? weight_size : 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      CHECK_INT_EQ(aclmdlLoadFromMemWithMem(onnx, size, &id, work, work_size ? work_size : 1, weight,
                                            weight_size ? weight_size : 1),
                   ACL_SUCCESS);
    } else {
      CHECK_INT_EQ(aclmdlLoadFromMem(onnx, size, &id), ACL_SUCCESS);
    }
    tw_io in, out;
    tw_io_alloc(&in, 4 * sizeof(float));
    tw_io_alloc(&out, 4 * sizeof(float));
    tw_io_fill(&in, 0, 4);
    aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(di, in.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(dout, out.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlExecute(id, di, dout), ACL_SUCCESS);
    float got[4];
    CHECK_INT_EQ(aclrtMemcpy(got, sizeof(got), out.dev, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 4; i++)
      CHECK_INT_EQ((int)(got[i] * 2), (int)((tw_in_value(0, (size_t)i) + bias[i]) * 2));
    CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyDataset(di);
    aclmdlDestroyDataset(dout);
    tw_io_free(&in);
    tw_io_free(&out);
    if (with_mem) {
      CHECK_INT_EQ(aclrtFree(work), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtFree(weight), ACL_SUCCESS);
    }
  }
  free(onnx);
  down(1);
}

/* ---- threads ------------------------------------------------------------------------------- */

static void *copy_loop(void *arg) {
  (void)arg;
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  enum { N = 4096 };
  unsigned char h[N], back[N];
  void *d = NULL, *pin = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost(&pin, N), ACL_SUCCESS);
  for (int it = 0; it < 200; it++) {
    memset(h, it & 0xff, N);
    CHECK_INT_EQ(aclrtMemcpyAsync(d, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpyAsync(pin, N, d, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    memcpy(back, pin, N);
    CHECK(memcmp(h, back, N) == 0);
  }
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  return NULL;
}

TEST(threads_copy_concurrently) {
  if (skip_run())
    return;
  up(1);
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, copy_loop, NULL), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  down(1);
}
