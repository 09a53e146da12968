/* rt_device.c - devices: discovery, visibility, set/reset counting, info, peers, teardown. */
#include <sys/wait.h>
#include <unistd.h>

#include "rt_common.h"

TEST(count_defaults_to_one) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(count_from_environment) {
  setenv("OPENACL_DEVICE_COUNT", "3", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 3);
  CHECK_INT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  int32_t id = -1;
  CHECK_INT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  CHECK_INT_EQ(id, 2);
  CHECK_INT_EQ(aclrtResetDevice(2), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(calls_before_init_say_so) {
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclInit");
  uint32_t n;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_ERROR_UNINITIALIZE);
}

TEST(calls_after_finalize_fail_cleanly) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS); /* device still set, stream leaked: both released */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_ERROR_UNINITIALIZE);
}

TEST(get_device_without_one_is_107002) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t id;
  CHECK_INT_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetDevice");
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(invalid_device_id_is_107001) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "device 1 does not exist");
  CHECK_INT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtResetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(rt_visible_devices_renumber_in_listed_order) {
  setenv("OPENACL_DEVICE_COUNT", "3", 1);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "2,0", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint32_t n;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  int64_t phys = -1;
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &phys), ACL_SUCCESS);
  CHECK_INT_EQ(phys, 2);
  CHECK_INT_EQ(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &phys), ACL_SUCCESS);
  CHECK_INT_EQ(phys, 0);
  CHECK_INT_EQ(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(container_visible_devices_take_ranges) {
  setenv("OPENACL_DEVICE_COUNT", "6", 1);
  setenv("ASCEND_VISIBLE_DEVICES", "0-2,4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint32_t n;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 4);
  int64_t phys = -1;
  CHECK_INT_EQ(aclrtGetDeviceInfo(3, ACL_DEV_ATTR_PHY_CHIP_ID, &phys), ACL_SUCCESS);
  CHECK_INT_EQ(phys, 4);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(malformed_visibility_is_never_silent) {
  setenv("OPENACL_DEVICE_COUNT", "4", 1);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "1, 2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint32_t n;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_ERROR_RT_INVALID_DEVICEID);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "ASCEND_RT_VISIBLE_DEVICES");
  CHECK_STR_HAS(m, "' 2'");
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(visible_id_that_does_not_exist) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("ASCEND_VISIBLE_DEVICES", "0,7", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "ASCEND_VISIBLE_DEVICES");
  CHECK_STR_HAS(m, "device 7 does not exist");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(set_device_is_counted) {
  rt_up();
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS); /* still set once */
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not set");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(reset_force_ignores_the_count) {
  rt_up();
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  int32_t id;
  CHECK_INT_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void *set_and_stream(void *arg) {
  aclrtContext *out = arg;
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetCurrentContext(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  return NULL;
}

TEST(threads_share_the_default_context) {
  rt_up();
  aclrtContext mine, theirs;
  CHECK_INT_EQ(aclrtGetCurrentContext(&mine), ACL_SUCCESS);
  pthread_t t;
  pthread_create(&t, NULL, set_and_stream, &theirs);
  pthread_join(t, NULL);
  CHECK(mine == theirs);
  rt_down();
}

TEST(device_info) {
  setenv("OPENACL_EXECUTOR_THREADS", "3", 1);
  setenv("OPENACL_DEVICE_MEMORY", "256M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int64_t v = 0;
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 256 << 20);
  CHECK_INT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, (aclrtDevAttr)12345, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
  aclrtDeviceStatus st;
  CHECK_INT_EQ(aclrtQueryDeviceStatus(0, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);
  int32_t lo, hi;
  CHECK_INT_EQ(aclrtDeviceGetStreamPriorityRange(&lo, &hi), ACL_SUCCESS);
  CHECK_INT_EQ(lo, 7);
  CHECK_INT_EQ(hi, 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(soc_name_is_configurable) {
  setenv("OPENACL_SOC_NAME", "Ascend310P3", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_STR_EQ(aclrtGetSocName(), "Ascend310P3");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(peer_access) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  int32_t can = 0;
  CHECK_INT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  CHECK_INT_EQ(can, 1);
  CHECK_INT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceEnablePeerAccess(1, 5), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  rt_down();
}

TEST(default_device_from_acl_json) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  char *dir = th_tmpdir();
  char *cfg = th_write_file(dir, "acl.json", "{\"defaultDevice\": {\"default_device\": \"1\"}}");
  CHECK_INT_EQ(aclInit(cfg), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS); /* no aclrtSetDevice: device 1 by default */
  int32_t id = -1;
  CHECK_INT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  CHECK_INT_EQ(id, 1);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS); /* an explicit choice wins */
  CHECK_INT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  CHECK_INT_EQ(id, 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  th_rmtree(dir);
  free(cfg);
  free(dir);
}

TEST(synchronize_device_waits_for_every_stream) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  rt_up();
  aclrtStream a, b;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(b, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeDeviceWithTimeout(50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  rt_down();
}

TEST(reset_waits_for_pending_work) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {1, 0};
  for (int i = 0; i < 100; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS); /* stream leaked on purpose: reset syncs and frees it */
  CHECK_INT_EQ(atomic_load(&g.entered), 100);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(forked_child_can_use_devices) {
#if TH_SANITIZED
  /* GCC 12's ASan allocator is not fork-safe while other threads allocate
   * (here: the executors), and TSan refuses to start threads in a child of
   * a multi-threaded process: the child's executors. */
  printf("skipped under a sanitizer\n");
  return;
#endif
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(5);
    if (aclrtSetDevice(0) != ACL_ERROR_UNINITIALIZE)
      _exit(10);
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
      _exit(11);
    aclrtStream cs;
    rt_gate g = {1, 0};
    if (aclrtCreateStream(&cs) != ACL_SUCCESS || aclrtLaunchHostFunc(cs, rt_gate_wait, &g) != ACL_SUCCESS ||
        aclrtSynchronizeStream(cs) != ACL_SUCCESS || atomic_load(&g.entered) != 1)
      _exit(12);
    if (aclrtDestroyStream(cs) != ACL_SUCCESS || aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS)
      _exit(13);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}
