/*
 * rt_label.c - labels and label lists (rt-breadth §7) through the public
 * API: creation and destruction, the context a label belongs to, list
 * rules, and SetLabel / SwitchLabelByIndex, which need a stream bound to a
 * model runtime instance (none exists on openacl yet: 107005).
 */
#include <string.h>
#include <sys/wait.h>

#include "rt_ext_common.h"

TEST(labels_and_lists_are_made_and_destroyed) {
  rt_up();
  aclrtLabel l[2] = {NULL, NULL};
  CHECK_INT_EQ(aclrtCreateLabel(&l[0]), ACL_SUCCESS);
  printf("Created label 0.\n");
  CHECK_INT_EQ(aclrtCreateLabel(&l[1]), ACL_SUCCESS);
  printf("Created label 1.\n");
  CHECK(l[0] != NULL && l[1] != NULL && l[0] != l[1]);
  aclrtLabelList list = NULL;
  CHECK_INT_EQ(aclrtCreateLabelList(l, 2, &list), ACL_SUCCESS);
  printf("Created label list with 2 labels.\n");
  CHECK_INT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabel(l[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l[1]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l[1]), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

TEST(a_label_may_go_before_its_list) {
  rt_up();
  aclrtLabel l;
  CHECK_INT_EQ(aclrtCreateLabel(&l), ACL_SUCCESS);
  aclrtLabelList list;
  CHECK_INT_EQ(aclrtCreateLabelList(&l, 1, &list), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l), ACL_SUCCESS);            /* the list keeps its target */
  aclrtLabelList list2;
  CHECK_INT_EQ(aclrtCreateLabelList(&l, 1, &list2), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  rt_down();
}

TEST(label_errors) {
  rt_up();
  aclrtLabel l;
  aclrtLabelList list;
  CHECK_INT_EQ(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateLabel(&l), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabelList(NULL, 1, &list), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateLabelList(&l, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateLabelList(&l, 0, &list), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCreateLabelList(&l, 65536, &list), ACL_ERROR_RT_PARAM_INVALID);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtLabel mixed[2] = {l, (aclrtLabel)s};
  CHECK_INT_EQ(aclrtCreateLabelList(mixed, 2, &list), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "labels[1]");
  CHECK_INT_EQ(aclrtDestroyLabel(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyLabel((aclrtLabel)s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabelList(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetLabel(NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetLabel(l, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l), ACL_SUCCESS);
  rt_down();
}

TEST(set_and_switch_need_a_model_bound_stream) {
  rt_up();
  aclrtLabel l[2];
  CHECK_INT_EQ(aclrtCreateLabel(&l[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabel(&l[1]), ACL_SUCCESS);
  aclrtLabelList list;
  CHECK_INT_EQ(aclrtCreateLabelList(l, 2, &list), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
  void *idx = NULL;
  CHECK_INT_EQ(aclrtMalloc(&idx, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t one = 1;
  CHECK_INT_EQ(aclrtMemcpy(idx, 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 2, list, s), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlRIBindStream");
  CHECK_INT_EQ(aclrtSetLabel(l[0], s), ACL_ERROR_RT_STREAM_MODEL);
  /* the checks before it */
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 3, list, s), ACL_ERROR_RT_PARAM_INVALID); /* maxValue = count */
  uint32_t host = 1;
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(&host, 2, list, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(NULL, 2, list, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 2, NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 2, list, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 2, (aclrtLabelList)l[0], s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtFree(idx), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l[0], s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l[1]), ACL_SUCCESS);
  rt_down();
}

TEST(a_label_belongs_to_its_context) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  aclrtContext c0, c1;
  CHECK_INT_EQ(aclrtGetCurrentContext(&c0), ACL_SUCCESS);
  aclrtLabel l0;
  CHECK_INT_EQ(aclrtCreateLabel(&l0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateContext(&c1, 1), ACL_SUCCESS);
  aclrtLabelList list;
  CHECK_INT_EQ(aclrtCreateLabelList(&l0, 1, &list), ACL_ERROR_RT_LABEL_CONTEXT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetCurrentContext");
  aclrtStream s1;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l0, s1), ACL_ERROR_RT_LABEL_CONTEXT);
  /* a label of a context that goes goes with it */
  aclrtLabel l1;
  CHECK_INT_EQ(aclrtCreateLabel(&l1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabelList(&l1, 1, &list), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(c1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetCurrentContext(c0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l1), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyLabel(l0), ACL_SUCCESS);
  rt_down();
}

TEST(labels_need_a_context_and_init) {
  aclrtLabel l;
  CHECK_INT_EQ(aclrtCreateLabel(&l), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabel(&l), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabel(&l), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS); /* released with the default context */
  CHECK_INT_EQ(aclrtDestroyLabel(l), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyLabel(l), ACL_ERROR_UNINITIALIZE);
}

TEST(at_most_65535_labels) {
  rt_up();
  enum { N = 65535 };
  aclrtLabel *l = calloc(N, sizeof(*l));
  CHECK_NOT_NULL(l);
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtCreateLabel(&l[i]), ACL_SUCCESS);
  aclrtLabel extra;
  CHECK_INT_EQ(aclrtCreateLabel(&extra), ACL_ERROR_RT_RESOURCE_ALLOC_FAIL);
  CHECK_INT_EQ(aclrtDestroyLabel(l[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabel(&l[0]), ACL_SUCCESS);
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtDestroyLabel(l[i]), ACL_SUCCESS);
  free(l);
  rt_down();
}

static void *label_churn(void *arg) {
  aclrtContext ctx = arg;
  aclrtSetCurrentContext(ctx);
  for (int i = 0; i < 300; i++) {
    aclrtLabel l[3];
    aclrtLabelList list;
    for (int k = 0; k < 3; k++)
      aclrtCreateLabel(&l[k]);
    aclrtCreateLabelList(l, 3, &list);
    aclrtDestroyLabel(l[1]);
    aclrtDestroyLabelList(list);
    aclrtDestroyLabel(l[0]);
    aclrtDestroyLabel(l[2]);
  }
  return NULL;
}

TEST(labels_from_many_threads) {
  rt_up();
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&t[i], NULL, label_churn, ctx), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  rt_down();
}

/* A forked child starts afresh: the parent's labels, stream limits and
 * allocator registrations are not its own, and its locks are free even if
 * another thread of the parent held them at the fork. */
static atomic_int g_churn_stop;
static void *churn_until_stopped(void *arg) {
  aclrtContext ctx = arg;
  aclrtSetCurrentContext(ctx);
  while (!atomic_load(&g_churn_stop)) {
    aclrtLabel l;
    if (aclrtCreateLabel(&l) == ACL_SUCCESS)
      aclrtDestroyLabel(l);
    uint32_t v;
    aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, 1);
    aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v);
  }
  return NULL;
}

TEST(forked_child_starts_without_labels) {
#if TH_SANITIZED
  printf("skipped under a sanitizer (fork with threads running)\n");
  return;
#endif
  rt_up();
  aclrtLabel keep;
  CHECK_INT_EQ(aclrtCreateLabel(&keep), ACL_SUCCESS);
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, churn_until_stopped, ctx), 0);
  for (int round = 0; round < 5; round++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      alarm(10);
      if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        _exit(11);
      if (aclrtDestroyLabel(keep) != ACL_ERROR_RT_INVALID_HANDLE)
        _exit(12);
      aclrtLabel l;
      aclrtLabelList list;
      if (aclrtCreateLabel(&l) != ACL_SUCCESS || aclrtCreateLabelList(&l, 1, &list) != ACL_SUCCESS ||
          aclrtDestroyLabelList(list) != ACL_SUCCESS || aclrtDestroyLabel(l) != ACL_SUCCESS)
        _exit(13);
      uint32_t v = 0;
      if (aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, &v) != ACL_SUCCESS || v < 1)
        _exit(14);
      if (aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS)
        _exit(15);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK_INT_EQ(WEXITSTATUS(status), 0);
  }
  atomic_store(&g_churn_stop, 1);
  pthread_join(t, NULL);
  CHECK_INT_EQ(aclrtDestroyLabel(keep), ACL_SUCCESS);
  rt_down();
}
