/*
 * kernel.c - kernel binaries, the argument builder and launches on the cpu
 * device (public API only).  The kernels are tests/api/kernel_kernels.c,
 * built as a shared object whose path is OPENACL_TEST_KERNELS.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "openacl/openacl.h"

#define TK OPENACL_TEST_KERNELS

/* Receives parameter handles a test does not use again. */
static _Thread_local aclrtParamHandle ph_;

/* Blocks only meet if the device has several executor threads. */
static void up(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void down(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static aclrtBinHandle load_tk(void) {
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, NULL, &bin), ACL_SUCCESS);
  CHECK_NOT_NULL(bin);
  return bin;
}

static aclrtFuncHandle func_of(aclrtBinHandle bin, const char *name) {
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, name, &f), ACL_SUCCESS);
  CHECK_NOT_NULL(f);
  return f;
}

static void *dev_alloc(size_t size) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}

static void to_dev(void *dst, const void *src, size_t n) {
  CHECK_INT_EQ(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void from_dev(void *dst, const void *src, size_t n) {
  CHECK_INT_EQ(aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static void zero_dev(void *p, size_t n) { CHECK_INT_EQ(aclrtMemset(p, n, 0, n), ACL_SUCCESS); }

/* Builds finalized args from a list of (pointer, size) pairs. */
static aclrtArgsHandle args_of(aclrtFuncHandle f, int count, const void *const *vals, const size_t *sizes) {
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  for (int i = 0; i < count; i++)
    CHECK_INT_EQ(aclrtKernelArgsAppend(a, (void *)vals[i], sizes[i], &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  return a;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  CHECK_NOT_NULL(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(fread(buf, 1, (size_t)n, f), n);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Runs tk_vadd over n floats in `blocks` blocks with the args builder and
 * checks the result. */
static void vadd_check(aclrtFuncHandle f, aclrtStream s, uint64_t n, uint32_t blocks) {
  size_t bytes = n * sizeof(float);
  float *hx = malloc(bytes), *hy = malloc(bytes), *hz = malloc(bytes);
  CHECK(hx && hy && hz);
  for (uint64_t i = 0; i < n; i++) {
    hx[i] = (float)i;
    hy[i] = (float)(2 * i + 1);
  }
  void *dx = dev_alloc(bytes), *dy = dev_alloc(bytes), *dz = dev_alloc(bytes);
  to_dev(dx, hx, bytes);
  to_dev(dy, hy, bytes);
  zero_dev(dz, bytes);
  const void *vals[] = {&dx, &dy, &dz, &n};
  size_t sizes[] = {8, 8, 8, 8};
  aclrtArgsHandle a = args_of(f, 4, vals, sizes);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  from_dev(hz, dz, bytes);
  for (uint64_t i = 0; i < n; i++)
    if (hz[i] != (float)(3 * i + 1))
      th_fail(__FILE__, __LINE__, "z[%llu] = %g, expected %g", (unsigned long long)i, (double)hz[i],
              (double)(3 * i + 1));
  CHECK_INT_EQ(aclrtFree(dx), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dy), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dz), ACL_SUCCESS);
  free(hx);
  free(hy);
  free(hz);
}

/* ---- binaries ------------------------------------------------------------ */

TEST(binary_load_unload) {
  up();
  for (int i = 0; i < 3; i++) {
    aclrtBinHandle bin = load_tk();
    func_of(bin, "tk_vadd");
    CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  }
  /* Two loads of one file are two handles. */
  aclrtBinHandle a = load_tk(), b = load_tk();
  CHECK(a != b);
  CHECK_INT_EQ(aclrtBinaryUnLoad(a), ACL_SUCCESS);
  vadd_check(func_of(b, "tk_vadd"), NULL, 1000, 4);
  CHECK_INT_EQ(aclrtBinaryUnLoad(b), ACL_SUCCESS);
  down();
}

TEST(binary_missing_file) {
  up();
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile("/nonexistent/libnothing.so", NULL, &bin), ACL_ERROR_RT_FILE_OPEN);
  CHECK_NULL(bin);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "aclrtBinaryLoadFromFile");
  CHECK_STR_HAS(m, "/nonexistent/libnothing.so");
  CHECK_STR_HAS(m, "No such file");
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  down();
}

TEST(binary_not_elf) {
  up();
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "kernel.so", "this is not a shared object\n");
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(path, NULL, &bin), ACL_ERROR_INVALID_FILE);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "not an ELF file");
  CHECK_STR_HAS(m, path);
  /* From memory too. */
  CHECK_INT_EQ(aclrtBinaryLoadFromData("garbage", 7, NULL, &bin), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not an ELF file");
  /* An ELF object file (.o), not a shared object. */
  unsigned char rel[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  rel[16] = 1; /* ET_REL */
  CHECK_INT_EQ(aclrtBinaryLoadFromData(rel, sizeof rel, NULL, &bin), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a shared object");
  /* A shared object header with a broken body: the loader's own words. */
  unsigned char dyn[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  dyn[16] = 3; /* ET_DYN */
  CHECK_INT_EQ(aclrtBinaryLoadFromData(dyn, sizeof dyn, NULL, &bin), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "dynamic loader rejected");
  /* A directory. */
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(dir, NULL, &bin), ACL_ERROR_RT_FILE_OPEN);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a regular file");
  th_rmtree(dir);
  free(path);
  free(dir);
  down();
}

TEST(binary_from_data) {
  up();
  size_t len = 0;
  char *data = read_all(TK, &len);
  aclrtBinHandle a = NULL, b = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromData(data, len, NULL, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryLoadFromData(data, len, NULL, &b), ACL_SUCCESS);
  memset(data, 0, len); /* the runtime keeps no reference to the caller's bytes */
  free(data);
  vadd_check(func_of(a, "tk_vadd"), NULL, 4096, 8);
  vadd_check(func_of(b, "tk_vadd"), NULL, 4096, 3);
  CHECK_INT_EQ(aclrtBinaryUnLoad(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryLoadFromData(NULL, 5, NULL, &a), ACL_ERROR_INVALID_PARAM);
  down();
}

TEST(binary_create_load) {
  up();
  size_t len = 0;
  char *data = read_all(TK, &len);
  aclrtBinary blob = aclrtCreateBinary(data, len);
  CHECK_NOT_NULL(blob);
  free(data);
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoad(blob, &bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyBinary(blob), ACL_SUCCESS);
  vadd_check(func_of(bin, "tk_vadd"), NULL, 100, 7);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyBinary(blob), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtBinaryLoad(blob, &bin), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_NULL(aclrtCreateBinary(NULL, 3));
  down();
}

TEST(binary_options) {
  up();
  aclrtBinaryLoadOption opt[2];
  memset(opt, 0, sizeof opt);
  opt[0].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  opt[0].value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
  opt[1].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  opt[1].value.isLazyLoad = 1;
  aclrtBinaryLoadOptions opts = {opt, 2};
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, &opts, &bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  opt[0].value.magic = 0x1234;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, &opts, &bin), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "magic");
  opt[0].value.magic = ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE;
  opt[1].type = (aclrtBinaryLoadOptionType)99;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, &opts, &bin), ACL_ERROR_INVALID_PARAM);
  aclrtBinaryLoadOptions bad = {NULL, 1};
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, &bad, &bin), ACL_ERROR_INVALID_PARAM);
  down();
}

TEST(binary_needs_context) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, NULL, &bin), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- functions ------------------------------------------------------------ */

TEST(function_missing_symbol) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "tk_vad", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "'tk_vad'");
  CHECK_STR_HAS(m, "libopenacl_test_kernels.so");
  /* Hidden functions are not kernels. */
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "tk_helper", &f), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "", &f), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, NULL, &f), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(function_same_handle_and_name) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f1 = func_of(bin, "tk_echo"), f2 = func_of(bin, "tk_echo"), f3 = func_of(bin, "tk_nop");
  CHECK(f1 == f2);
  CHECK(f1 != f3);
  char name[16];
  CHECK_INT_EQ(aclrtGetFunctionName(f1, sizeof name, name), ACL_SUCCESS);
  CHECK_STR_EQ(name, "tk_echo");
  CHECK_INT_EQ(aclrtGetFunctionName(f1, 7, name), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

/* ---- the argument builder ------------------------------------------------- */

TEST(args_layout) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_echo");
  void *out = dev_alloc(256);
  zero_dev(out, 256);
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  uint8_t u8 = 0xab;
  uint32_t u32 = 0x01020304;
  uint16_t u16 = 0x0506;
  double d = 2.5;
  unsigned char three[3] = {7, 8, 9};
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &out, sizeof out, &ph_), ACL_SUCCESS); /* 0..7 */
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &u8, 1, &ph_), ACL_SUCCESS);         /* 8 */
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &u32, 4, &ph_), ACL_SUCCESS);        /* 12..15 */
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &u16, 2, &ph_), ACL_SUCCESS);        /* 16..17 */
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &d, 8, &ph_), ACL_SUCCESS);          /* 24..31 */
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, three, 3, &ph_), ACL_SUCCESS);       /* 32..34 */
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, NULL, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  unsigned char got[256];
  from_dev(got, out, sizeof got);
  uint64_t size;
  memcpy(&size, got, 8);
  CHECK_INT_EQ(size, 40); /* 35 bytes, padded to 8 */
  const unsigned char *p = got + 8;
  void *ptr;
  memcpy(&ptr, p, 8);
  /* The kernel sees `out` as device code addresses it: the host's address,
   * or under the alias protection mechanism its alias (docs/memory.md). */
  const char *mech = NULL;
  CHECK_INT_EQ(openaclGetMemoryProtection(0, &mech), ACL_SUCCESS);
  if (strcmp(mech, "alias") != 0) {
    CHECK(ptr == out);
  } else {
    aclrtPtrAttributes at;
    CHECK_INT_EQ(aclrtPointerGetAttributes(ptr, &at), ACL_SUCCESS);
    CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  }
  CHECK_INT_EQ(p[8], 0xab);
  uint32_t g32;
  memcpy(&g32, p + 12, 4);
  CHECK_INT_EQ(g32, u32);
  uint16_t g16;
  memcpy(&g16, p + 16, 2);
  CHECK_INT_EQ(g16, u16);
  double gd;
  memcpy(&gd, p + 24, 8);
  CHECK(gd == 2.5);
  CHECK_INT_EQ(p[32], 7);
  CHECK_INT_EQ(p[34], 9);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(args_placeholder_and_update) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_deref");
  float *out = dev_alloc(64);
  aclrtArgsHandle a = NULL;
  aclrtParamHandle pout = NULL, ph = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &out, sizeof out, &pout), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppendPlaceHolder(a, &ph), ACL_SUCCESS);
  float *buf = NULL;
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 2 * sizeof(float), (void **)&buf), ACL_SUCCESS);
  CHECK_NOT_NULL(buf);
  buf[0] = 2.5f;
  buf[1] = 7.0f;
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 4, NULL, NULL, a, NULL), ACL_SUCCESS);
  /* Arguments are copied at launch: changing them now affects only the
   * next launch. */
  float upd[2] = {1.0f, 3.0f};
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, ph, upd, sizeof upd), ACL_SUCCESS);
  float *out2 = dev_alloc(64);
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, pout, &out2, sizeof out2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, NULL, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  float got[2];
  from_dev(got, out, sizeof got);
  CHECK(got[0] == 10.0f && got[1] == 7.0f);
  from_dev(got, out2, sizeof got);
  CHECK(got[0] == 2.0f && got[1] == 3.0f);
  /* The same buffer comes back; it cannot grow. */
  float *again = NULL;
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 4, (void **)&again), ACL_SUCCESS);
  CHECK(again == buf);
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 64, (void **)&again), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(out2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(args_misuse) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_echo"), g = func_of(bin, "tk_nop");
  void *out = dev_alloc(64);
  aclrtArgsHandle a = NULL, b = NULL;
  aclrtParamHandle p = NULL, ph = NULL, pb = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &out, sizeof out, &p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(b, &out, sizeof out, &pb), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, NULL, 4, &ph_), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &out, 0, &ph_), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &out, sizeof out, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsAppendPlaceHolder(a, NULL), ACL_ERROR_INVALID_PARAM);
  /* Not finalized yet. */
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, a, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtKernelArgsFinalize");
  /* Wrong sizes and foreign parameter handles. */
  uint32_t small = 1;
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, p, &small, sizeof small), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, pb, &out, sizeof out), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, (aclrtParamHandle)&small, &out, sizeof out), ACL_ERROR_INVALID_PARAM);
  void *buf = NULL;
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, p, 8, &buf), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a placeholder");
  /* A placeholder without data cannot be finalized. */
  CHECK_INT_EQ(aclrtKernelArgsAppendPlaceHolder(a, &ph), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "placeholder without data");
  CHECK_INT_EQ(aclrtKernelArgsParaUpdate(a, ph, &small, sizeof small), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 0, &buf), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(a, ph, 4, &buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  /* Finalized: no more parameters, no second finalize. */
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &small, sizeof small, &ph_), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "finalized");
  CHECK_INT_EQ(aclrtKernelArgsAppendPlaceHolder(a, &ph), ACL_ERROR_RT_PARAM_INVALID);
  /* Args of another function. */
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(g, 1, NULL, NULL, a, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "tk_echo");
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, a, &small), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  /* Handles of the wrong kind. */
  CHECK_INT_EQ(aclrtKernelArgsAppend(f, &small, sizeof small, &ph_), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "function handle");
  CHECK_INT_EQ(aclrtKernelArgsInit(a, &b), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(args_user_mem) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_echo");
  void *out = dev_alloc(64);
  size_t hsize = 0, msize = 0;
  CHECK_INT_EQ(aclrtKernelArgsGetHandleMemSize(f, &hsize), ACL_SUCCESS);
  CHECK(hsize > 0);
  CHECK_INT_EQ(aclrtKernelArgsGetMemSize(f, 12, &msize), ACL_SUCCESS);
  CHECK(msize >= 12);
  void *hmem = malloc(hsize), *amem = malloc(msize);
  CHECK(hmem && amem);
  for (int round = 0; round < 3; round++) {
    CHECK_INT_EQ(aclrtKernelArgsInitByUserMem(f, hmem, amem, msize), ACL_SUCCESS);
    uint32_t v = 100 + (uint32_t)round;
    CHECK_INT_EQ(aclrtKernelArgsAppend(hmem, &out, sizeof out, &ph_), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtKernelArgsAppend(hmem, &v, sizeof v, &ph_), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtKernelArgsFinalize(hmem), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 1, NULL, NULL, hmem, NULL), ACL_SUCCESS);
    memset(amem, 0xee, msize); /* copied at launch: the kernel sees the old bytes */
    CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    unsigned char got[32];
    from_dev(got, out, sizeof got);
    uint32_t g;
    memcpy(&g, got + 8 + 8, 4);
    CHECK_INT_EQ(g, v);
  }
  /* Too little memory for the parameters. */
  unsigned char tiny[8];
  CHECK_INT_EQ(aclrtKernelArgsInitByUserMem(f, hmem, tiny, sizeof tiny), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(hmem, &out, sizeof out, &ph_), ACL_SUCCESS);
  uint32_t v = 1;
  CHECK_INT_EQ(aclrtKernelArgsAppend(hmem, &v, sizeof v, &ph_), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtKernelArgsGetMemSize");
  /* Runtime-owned handles are not user memory. */
  aclrtArgsHandle own = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &own), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsInitByUserMem(f, own, amem, msize), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtKernelArgsInitByUserMem(f, (char *)hmem + 1, amem, msize), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  /* After unload openacl has let go of the memory: it is the caller's. */
  CHECK_INT_EQ(aclrtKernelArgsFinalize(hmem), ACL_ERROR_RT_INVALID_HANDLE);
  free(hmem);
  free(amem);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  down();
}

/* ---- launches ------------------------------------------------------------- */

TEST(launch_vadd_many_blocks) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_vadd");
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  vadd_check(f, s, 1u << 20, 256);
  vadd_check(f, s, 1000, 1);
  vadd_check(f, s, 10, 64); /* more blocks than elements */
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_device_args) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_vadd");
  uint64_t n = 5000;
  size_t bytes = n * sizeof(float);
  float *h = malloc(bytes);
  for (uint64_t i = 0; i < n; i++)
    h[i] = (float)i;
  void *dx = dev_alloc(bytes), *dz = dev_alloc(bytes), *dargs = dev_alloc(64);
  to_dev(dx, h, bytes);
  struct {
    void *x, *y, *z;
    uint64_t n;
  } args = {dx, dx, dz, n};
  to_dev(dargs, &args, sizeof args);
  CHECK_INT_EQ(aclrtLaunchKernel(f, 16, dargs, sizeof args, NULL), ACL_SUCCESS);
  /* Read at launch: overwriting the device arguments now changes nothing. */
  zero_dev(dargs, sizeof args);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  float *got = malloc(bytes);
  from_dev(got, dz, bytes);
  for (uint64_t i = 0; i < n; i++)
    CHECK(got[i] == 2.0f * (float)i);
  /* V2 with a configuration (checked, ignored on the cpu device). */
  to_dev(dargs, &args, sizeof args);
  zero_dev(dz, bytes);
  aclrtLaunchKernelAttr attrs[3];
  memset(attrs, 0, sizeof attrs);
  attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attrs[0].value.engineType = ACL_RT_ENGINE_TYPE_AIV;
  attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
  attrs[1].value.timeout = 10;
  attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  aclrtLaunchKernelCfg cfg = {attrs, 3};
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 3, dargs, sizeof args, &cfg, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 3, dargs, sizeof args, NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  from_dev(got, dz, bytes);
  CHECK(got[n - 1] == 2.0f * (float)(n - 1));
  /* Host memory, too-small allocations and NULL with a size are refused. */
  CHECK_INT_EQ(aclrtLaunchKernel(f, 1, &args, sizeof args, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "host memory");
  CHECK_INT_EQ(aclrtLaunchKernel(f, 1, (char *)dargs + 60, sizeof args, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernel(f, 1, NULL, 8, NULL), ACL_ERROR_INVALID_PARAM);
  /* No arguments at all is fine. */
  CHECK_INT_EQ(aclrtLaunchKernel(func_of(bin, "tk_nop"), 1, NULL, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  free(h);
  free(got);
  CHECK_INT_EQ(aclrtFree(dx), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dz), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dargs), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_host_args) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_deref");
  float *out = dev_alloc(64);
  unsigned char host[32];
  memset(host, 0, sizeof host);
  memcpy(host, &out, 8);
  float data[2] = {4.0f, 9.0f};
  memcpy(host + 16, data, sizeof data);
  aclrtPlaceHolderInfo ph = {8, 16};
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 3, NULL, NULL, host, 24, &ph, 1), ACL_SUCCESS);
  memset(host, 0, sizeof host); /* copied at launch */
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  float got[2];
  from_dev(got, out, sizeof got);
  CHECK(got[0] == 12.0f && got[1] == 9.0f);
  aclrtPlaceHolderInfo bad = {20, 16};
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 3, NULL, NULL, host, 24, &bad, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "placeHolderArray[0]");
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 3, NULL, NULL, host, 24, NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_cfg_checks) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_nop");
  aclrtLaunchKernelAttr at;
  memset(&at, 0, sizeof at);
  aclrtLaunchKernelCfg cfg = {&at, 1};
  at.id = (aclrtLaunchKernelAttrId)77;
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 1, NULL, 0, &cfg, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "cfg->attrs[0]");
  at.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  at.value.engineType = (aclrtEngineType)5;
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 1, NULL, 0, &cfg, NULL), ACL_ERROR_INVALID_PARAM);
  at.id = ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP;
  at.value.isDataDump = 2;
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 1, NULL, 0, &cfg, NULL), ACL_ERROR_INVALID_PARAM);
  at.value.isDataDump = 1;
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 1, NULL, 0, &cfg, NULL), ACL_SUCCESS);
  aclrtLaunchKernelCfg none = {NULL, 2};
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 1, NULL, 0, &none, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_num_blocks_zero) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_nop");
  CHECK_INT_EQ(aclrtLaunchKernel(f, 0, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "numBlocks");
  CHECK_INT_EQ(aclrtLaunchKernelV2(f, 0, NULL, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 0, NULL, NULL, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernel(NULL, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_blocks_parallel) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_meet");
  enum { BLOCKS = 16 };
  int32_t *tids = dev_alloc(BLOCKS * sizeof(int32_t));
  uint32_t *counter = dev_alloc(64);
  zero_dev(tids, BLOCKS * sizeof(int32_t));
  zero_dev(counter, 64);
  uint32_t want = 2; /* block 0 waits until another block runs beside it */
  const void *vals[] = {&tids, &counter, &want};
  size_t sizes[] = {8, 8, 4};
  aclrtArgsHandle a = args_of(f, 3, vals, sizes);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, BLOCKS, NULL, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  int32_t got[BLOCKS];
  from_dev(got, tids, sizeof got);
  int distinct = 0;
  for (int i = 0; i < BLOCKS; i++) {
    CHECK(got[i] != 0);
    int seen = 0;
    for (int j = 0; j < i; j++)
      seen |= got[j] == got[i];
    distinct += !seen;
  }
  CHECK(distinct >= 2);
  CHECK_INT_EQ(aclrtFree(tids), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_failure_reported) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_fail");
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct {
    uint32_t bad;
    int32_t status;
  } args = {3, 42};
  const void *vals[] = {&args.bad, &args.status};
  size_t sizes[] = {4, 4};
  aclrtArgsHandle a = args_of(f, 2, vals, sizes);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 8, s, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "kernel tk_fail (8 blocks)");
  CHECK_STR_HAS(m, "block 3 returned 42");
  /* Reported once; the stream works again. */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  vadd_check(func_of(bin, "tk_vadd"), s, 100, 2);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(launch_ordering) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_axpb");
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint64_t n = 1 << 16;
  size_t bytes = n * sizeof(float);
  float *h = NULL;
  CHECK_INT_EQ(aclrtMallocHost((void **)&h, bytes), ACL_SUCCESS);
  for (uint64_t i = 0; i < n; i++)
    h[i] = 1.0f;
  float *z = dev_alloc(bytes);
  /* copy in, z = 2z + 1, z = 3z - 4, copy out: (1*2+1)*3-4 = 5; any
   * reordering gives another number. */
  CHECK_INT_EQ(aclrtMemcpyAsync(z, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  unsigned char host[24];
  float mul = 2.0f, add = 1.0f;
  memcpy(host, &z, 8);
  memcpy(host + 8, &n, 8);
  memcpy(host + 16, &mul, 4);
  memcpy(host + 20, &add, 4);
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 8, s, NULL, host, sizeof host, NULL, 0), ACL_SUCCESS);
  mul = 3.0f, add = -4.0f;
  memcpy(host + 16, &mul, 4);
  memcpy(host + 20, &add, 4);
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 5, s, NULL, host, sizeof host, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(h, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  for (uint64_t i = 0; i < n; i++)
    if (h[i] != 5.0f)
      th_fail(__FILE__, __LINE__, "z[%llu] = %g, expected 5", (unsigned long long)i, (double)h[i]);
  CHECK_INT_EQ(aclrtFree(z), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(unload_while_queued) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_slow");
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t *counter = dev_alloc(64);
  zero_dev(counter, 64);
  uint32_t ms = 30;
  const void *vals[] = {&counter, &ms};
  size_t sizes[] = {8, 4};
  aclrtArgsHandle a = args_of(f, 2, vals, sizes);
  for (int i = 0; i < 5; i++)
    CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, s, NULL, a, NULL), ACL_SUCCESS);
  /* Returns at once; the queued launches keep the code loaded. */
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK((th_now_ns() - t0) < 100u * 1000 * 1000);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, s, NULL, a, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  uint32_t got = 0;
  from_dev(&got, counter, sizeof got);
  CHECK_INT_EQ(got, 10);
  /* And a fresh load after the last launch works. */
  aclrtBinHandle again = load_tk();
  vadd_check(func_of(again, "tk_vadd"), s, 64, 4);
  CHECK_INT_EQ(aclrtBinaryUnLoad(again), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  down();
}

TEST(stale_handles) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_nop");
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  aclrtFuncHandle g = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "tk_nop", &g), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "binHandle");
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtLaunchKernel(f, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "funcHandle");
  uint32_t v = 1;
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &v, sizeof v, &ph_), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_ERROR_RT_INVALID_HANDLE);
  char name[32];
  CHECK_INT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_ERROR_RT_INVALID_HANDLE);
  /* Garbage and handles of other kinds. */
  uint64_t junk[8] = {0};
  CHECK_INT_EQ(aclrtLaunchKernel(junk, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtBinaryUnLoad(junk), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernel(s, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is a stream handle");
  CHECK_INT_EQ(aclrtBinaryUnLoad(s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM);
  down();
}

TEST(finalize_with_binary_loaded) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_nop");
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernel(f, 4, NULL, 0, NULL), ACL_SUCCESS);
  down(); /* the program forgot aclrtBinaryUnLoad: nothing leaks or crashes */
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- threads ---------------------------------------------------------- */

enum { MT_THREADS = 8, MT_LAUNCHES = 20 };

typedef struct mt_arg {
  aclrtBinHandle bin;
  atomic_int failures;
} mt_arg;

static void *mt_worker(void *p) {
  mt_arg *m = p;
  if (aclrtSetDevice(0) != ACL_SUCCESS) {
    atomic_fetch_add(&m->failures, 1);
    return NULL;
  }
  aclrtStream s = NULL;
  aclrtFuncHandle f = NULL;
  int bad = aclrtCreateStream(&s) != ACL_SUCCESS || aclrtBinaryGetFunction(m->bin, "tk_axpb", &f) != ACL_SUCCESS;
  uint64_t n = 4096;
  size_t bytes = n * sizeof(float);
  float *z = NULL, *h = malloc(bytes);
  bad |= aclrtMalloc((void **)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
  bad |= aclrtMemset(z, bytes, 0, bytes) != ACL_SUCCESS;
  aclrtArgsHandle a = NULL;
  aclrtParamHandle padd = NULL;
  float mul = 1.0f, add = 1.0f;
  bad |= aclrtKernelArgsInit(f, &a) != ACL_SUCCESS;
  bad |= aclrtKernelArgsAppend(a, &z, sizeof z, &ph_) != ACL_SUCCESS;
  bad |= aclrtKernelArgsAppend(a, &n, sizeof n, &ph_) != ACL_SUCCESS;
  bad |= aclrtKernelArgsAppend(a, &mul, sizeof mul, &ph_) != ACL_SUCCESS;
  bad |= aclrtKernelArgsAppend(a, &add, sizeof add, &padd) != ACL_SUCCESS;
  bad |= aclrtKernelArgsFinalize(a) != ACL_SUCCESS;
  for (int i = 0; i < MT_LAUNCHES && !bad; i++) {
    add = (float)(i + 1);
    bad |= aclrtKernelArgsParaUpdate(a, padd, &add, sizeof add) != ACL_SUCCESS;
    bad |= aclrtLaunchKernelWithConfig(f, 1 + (uint32_t)(i % 5), s, NULL, a, NULL) != ACL_SUCCESS;
  }
  bad |= aclrtSynchronizeStream(s) != ACL_SUCCESS;
  bad |= aclrtMemcpy(h, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS;
  float want = (float)(MT_LAUNCHES * (MT_LAUNCHES + 1) / 2);
  for (uint64_t i = 0; i < n && !bad; i++)
    bad |= h[i] != want;
  aclrtFree(z);
  free(h);
  aclrtDestroyStream(s);
  aclrtResetDevice(0);
  if (bad)
    atomic_fetch_add(&m->failures, 1);
  return NULL;
}

TEST(launch_many_threads) {
  up();
  mt_arg m = {load_tk(), 0};
  pthread_t th[MT_THREADS];
  for (int i = 0; i < MT_THREADS; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, mt_worker, &m), 0);
  for (int i = 0; i < MT_THREADS; i++)
    pthread_join(th[i], NULL);
  CHECK_INT_EQ(atomic_load(&m.failures), 0);
  CHECK_INT_EQ(aclrtBinaryUnLoad(m.bin), ACL_SUCCESS);
  down();
}

/* Loads and unloads in several threads while others launch from the same
 * binary: no crash, no leak; launches either succeed or see a dead handle. */
typedef struct churn_arg {
  atomic_int stop;
  atomic_int failures;
} churn_arg;

static void *churn_loader(void *p) {
  churn_arg *c = p;
  if (aclrtSetDevice(0) != ACL_SUCCESS) {
    atomic_fetch_add(&c->failures, 1);
    return NULL;
  }
  for (int i = 0; i < 30; i++) {
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle f = NULL;
    if (aclrtBinaryLoadFromFile(TK, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "tk_nop", &f) != ACL_SUCCESS ||
        aclrtLaunchKernel(f, 3, NULL, 0, NULL) != ACL_SUCCESS || aclrtBinaryUnLoad(bin) != ACL_SUCCESS)
      atomic_fetch_add(&c->failures, 1);
  }
  if (aclrtSynchronizeStream(NULL) != ACL_SUCCESS)
    atomic_fetch_add(&c->failures, 1);
  aclrtResetDevice(0);
  return NULL;
}

TEST(load_unload_many_threads) {
  up();
  churn_arg c = {0, 0};
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, churn_loader, &c), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  CHECK_INT_EQ(atomic_load(&c.failures), 0);
  down();
}

static void count_call(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

/* The failure mode decides whether the work queued after a failing kernel runs. */
static void failure_mode_case(uint64_t mode, int want_later_runs) {
  up();
  aclrtBinHandle bin = load_tk();
  aclrtFuncHandle f = func_of(bin, "tk_fail");
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamFailureMode(s, mode), ACL_SUCCESS);
  struct {
    uint32_t bad;
    int32_t status;
  } args = {0, 7};
  const void *vals[] = {&args.bad, &args.status};
  size_t sizes[] = {4, 4};
  aclrtArgsHandle a = args_of(f, 2, vals, sizes);
  static atomic_int later;
  atomic_store(&later, 0);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, s, NULL, a, NULL), ACL_SUCCESS);
  for (int i = 0; i < 5; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &later), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "kernel tk_fail (2 blocks)");
  CHECK_INT_EQ(atomic_load(&later), want_later_runs);
  /* once reported, the stream takes new work either way */
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &later), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&later), want_later_runs + 1);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  down();
}

TEST(failure_mode_continue_runs_later_work) { failure_mode_case(ACL_CONTINUE_ON_FAILURE, 5); }
TEST(failure_mode_stop_drops_later_work) { failure_mode_case(ACL_STOP_ON_FAILURE, 0); }
