/*
 * rt_allocator.c - custom allocators (rt-breadth §6) through the public API:
 * descriptors, registration per stream, the rules of GetByStream and
 * Unregister, and the vendor's 0_custom_allocator sample with its output.
 */
#include <string.h>

#include "rt_ext_common.h"

/* The sample's allocator: device memory from aclrtMalloc, counted. */
typedef struct custom_alloc {
  int alloc_count, free_count;
} custom_alloc;

typedef struct custom_block {
  void *addr;
  size_t size;
} custom_block;

static void *custom_alloc_fn(aclrtAllocator allocator, size_t size) {
  custom_alloc *a = allocator;
  custom_block *b = calloc(1, sizeof(*b));
  if (b == NULL || aclrtMalloc(&b->addr, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    free(b);
    return NULL;
  }
  b->size = size;
  a->alloc_count++;
  printf("CustomAlloc size=%zu\n", size);
  return b;
}

static void custom_free_fn(aclrtAllocator allocator, aclrtAllocatorBlock block) {
  custom_alloc *a = allocator;
  custom_block *b = block;
  aclrtFree(b->addr);
  free(b);
  a->free_count++;
  printf("CustomFree invoked\n");
}

static void *custom_advise_fn(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr) {
  (void)addr; /* a hint: this allocator has no reuse, so it allocates afresh */
  printf("CustomAllocAdvise size=%zu\n", size);
  return custom_alloc_fn(allocator, size);
}

static void *custom_get_addr_fn(aclrtAllocatorBlock block) { return ((custom_block *)block)->addr; }

static aclrtAllocatorDesc full_desc(custom_alloc *obj) {
  aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(d, obj), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetAllocFuncToDesc(d, custom_alloc_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetFreeFuncToDesc(d, custom_free_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(d, custom_advise_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, custom_get_addr_fn), ACL_SUCCESS);
  return d;
}

TEST(sample_custom_allocator) {
  /* E/3_memory_advanced/allocator/0_custom_allocator */
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  custom_alloc obj = {0, 0};
  aclrtAllocatorDesc desc = full_desc(&obj);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);
  aclrtAllocatorDesc desc_out = NULL;
  aclrtAllocator obj_out = NULL;
  aclrtAllocatorAllocFunc alloc = NULL;
  aclrtAllocatorFreeFunc freef = NULL;
  aclrtAllocatorAllocAdviseFunc advise = NULL;
  aclrtAllocatorGetAddrFromBlockFunc get_addr = NULL;
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &desc_out, &obj_out, &alloc, &freef, &advise, &get_addr), ACL_SUCCESS);
  CHECK(desc_out == desc && obj_out == &obj);
  CHECK(alloc == custom_alloc_fn && freef == custom_free_fn && advise == custom_advise_fn &&
        get_addr == custom_get_addr_fn);
  /* use it as a consumer does: block -> device address */
  aclrtAllocatorBlock b1 = alloc(obj_out, 256);
  CHECK_NOT_NULL(b1);
  void *addr = get_addr(b1);
  CHECK_INT_EQ(aclrtMemset(addr, 256, 0xAB, 256), ACL_SUCCESS);
  unsigned char h[256];
  CHECK_INT_EQ(aclrtMemcpy(h, 256, addr, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(h[0], 0xAB);
  CHECK_INT_EQ(h[255], 0xAB);
  aclrtAllocatorBlock b2 = advise(obj_out, 128, NULL);
  CHECK_NOT_NULL(b2);
  freef(obj_out, b2);
  freef(obj_out, b1);
  printf("Allocator desc queried: descOut=%p, allocCount=%d, freeCount=%d\n", desc_out, obj.alloc_count,
         obj.free_count);
  CHECK_INT_EQ(obj.alloc_count, 2);
  CHECK_INT_EQ(obj.free_count, 2);
  CHECK_INT_EQ(aclrtAllocatorUnregister(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(registration_keeps_a_copy) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  custom_alloc obj = {0, 0}, other = {0, 0};
  aclrtAllocatorDesc desc = full_desc(&obj);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);
  /* later changes to the descriptor do not matter */
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(desc, &other), ACL_SUCCESS);
  aclrtAllocatorDesc d = NULL;
  aclrtAllocator o = NULL;
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &d, &o, NULL, NULL, NULL, NULL), ACL_SUCCESS);
  CHECK(o == &obj);
  CHECK(d == desc);
  /* registering again replaces */
  CHECK_INT_EQ(aclrtAllocatorRegister(s, desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &d, &o, NULL, NULL, NULL, NULL), ACL_SUCCESS);
  CHECK(o == &other);
  /* the descriptor may go; the registration stays */
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  aclrtAllocatorFreeFunc ff = NULL;
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &d, NULL, NULL, &ff, NULL, NULL), ACL_SUCCESS);
  CHECK(ff == custom_free_fn);
  CHECK_INT_EQ(aclrtAllocatorUnregister(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorUnregister(s), ACL_SUCCESS); /* none registered: fine */
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &d, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(advise_is_optional) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  custom_alloc obj = {0, 0};
  aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(d, &obj), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetAllocFuncToDesc(d, custom_alloc_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorSetFreeFuncToDesc(d, custom_free_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM); /* no get-address function yet */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "get-address");
  CHECK_INT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, custom_get_addr_fn), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, d), ACL_SUCCESS);
  aclrtAllocatorDesc out = NULL;
  aclrtAllocatorAllocAdviseFunc adv = custom_advise_fn;
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &out, NULL, NULL, NULL, &adv, NULL), ACL_SUCCESS);
  CHECK(adv == NULL);
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS); /* the registration goes with the stream */
  rt_down();
}

TEST(descriptor_and_registry_errors) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  custom_alloc obj = {0, 0};
  aclrtAllocatorDesc d = full_desc(&obj);
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(NULL, &obj), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetFreeFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM); /* not the default stream */
  CHECK_INT_EQ(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorGetByStream(NULL, &d, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorGetByStream(s, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
  /* stale and foreign handles */
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(d), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtAllocatorSetObjToDesc(d, &obj), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, d), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, s), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtAllocatorDesc d2 = full_desc(&obj);
  CHECK_INT_EQ(aclrtAllocatorRegister(d2, d2), ACL_ERROR_RT_INVALID_HANDLE); /* a descriptor is no stream */
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocatorRegister(s, d2), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(d2), ACL_SUCCESS);
  rt_down();
}

TEST(a_new_stream_at_an_old_address_has_no_allocator) {
  rt_up();
  custom_alloc obj = {0, 0};
  aclrtAllocatorDesc d = full_desc(&obj);
  for (int i = 0; i < 8; i++) {
    aclrtStream s;
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    aclrtAllocatorDesc out = NULL;
    CHECK_INT_EQ(aclrtAllocatorGetByStream(s, &out, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_INT_EQ(aclrtAllocatorRegister(s, d), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
  rt_down();
}

typedef struct reg_job {
  aclrtContext ctx;
  aclrtStream s;
  aclrtAllocatorDesc d;
  atomic_int *errors;
} reg_job;

static void *reg_main(void *arg) {
  reg_job *j = arg;
  if (aclrtSetCurrentContext(j->ctx) != ACL_SUCCESS)
    atomic_fetch_add(j->errors, 1);
  for (int i = 0; i < 300; i++) {
    aclrtAllocatorDesc out = NULL;
    if (aclrtAllocatorRegister(j->s, j->d) != 0 ||
        aclrtAllocatorGetByStream(j->s, &out, NULL, NULL, NULL, NULL, NULL) != 0 || out != j->d ||
        aclrtAllocatorUnregister(j->s) != 0)
      atomic_fetch_add(j->errors, 1);
  }
  return NULL;
}

TEST(registry_from_many_threads) {
  rt_up();
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  custom_alloc obj = {0, 0};
  atomic_int errors = 0;
  reg_job j[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    j[i].ctx = ctx;
    j[i].errors = &errors;
    j[i].d = full_desc(&obj);
    CHECK_INT_EQ(aclrtCreateStream(&j[i].s), ACL_SUCCESS);
    CHECK_INT_EQ(pthread_create(&t[i], NULL, reg_main, &j[i]), 0);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  CHECK_INT_EQ(atomic_load(&errors), 0);
  for (int i = 0; i < 4; i++) {
    CHECK_INT_EQ(aclrtAllocatorDestroyDesc(j[i].d), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStream(j[i].s), ACL_SUCCESS);
  }
  rt_down();
}
