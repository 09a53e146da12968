/*
 * rt_device_ext.c - the device functions of rt-breadth §3 through the public
 * API: utilisation, core limits (device, stream, thread), device limits,
 * capability and architecture compatibility, UUID, PCI bus ids, topology,
 * peer access status, id mappings, the bare process id, saturation mode and
 * overflow detection; and small programs in the style of the vendor's
 * samples (§3.3) with the output their READMEs show.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_ext_common.h"

static void up4(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  rt_up();
}

/* ---- utilisation ------------------------------------------------------------------ */

TEST(utilization_reports_percentages_and_no_memory_figure) {
  up4();
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof(u));
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
  CHECK(u.cubeUtilization >= 0 && u.cubeUtilization <= 100);
  CHECK_INT_EQ(u.vectorUtilization, u.cubeUtilization);
  CHECK_INT_EQ(u.aicpuUtilization, u.cubeUtilization);
  CHECK_INT_EQ(u.memoryUtilization, -1);
  rt_down();
}

TEST(utilization_rises_while_kernels_run) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtFuncHandle f = rx_func("rx_spin", NULL);
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof(u));
  rt_sleep_ms(50);
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS); /* starts a sample */
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct rx_spin_args a = {300};
  CHECK_INT_EQ(rx_launch(f, 2, &a, sizeof(a), s), ACL_SUCCESS);
  /* poll instead of synchronising: a synchronising thread would run blocks
   * itself, and its time is not the device's */
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  while (aclrtStreamQuery(s, &st) == ACL_SUCCESS && st != ACL_STREAM_STATUS_COMPLETE)
    rt_sleep_ms(10);
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_SUCCESS);
  /* two blocks of 300 ms CPU each on two executors: well above an idle device
   * (a loaded machine stretches the wall time, so the bar is low) */
  printf("busy: %d%%\n", u.cubeUtilization);
  CHECK(u.cubeUtilization >= 10);
  rt_sleep_ms(300);
  aclrtUtilizationInfo idle;
  memset(&idle, 0, sizeof(idle));
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, &idle), ACL_SUCCESS);
  CHECK(idle.cubeUtilization < u.cubeUtilization);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(utilization_of_a_device_not_open_is_zero) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof(u));
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(1, &u), ACL_SUCCESS);
  CHECK_INT_EQ(u.cubeUtilization, 0);
  rt_down();
}

TEST(utilization_argument_errors) {
  rt_up();
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof(u));
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM);
  u.utilizationExtend = (aclrtUtilizationExtendInfo *)&u;
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(0, &u), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "utilizationExtend");
  u.utilizationExtend = NULL;
  CHECK_INT_EQ(aclrtGetDeviceUtilizationRate(7, &u), ACL_ERROR_RT_INVALID_DEVICEID);
  rt_down();
}

/* ---- core limits --------------------------------------------------------------------- */

TEST(device_res_limit_defaults_to_the_hardware_and_can_be_set) {
  up4();
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS); /* last call wins */
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  rt_down();
}

TEST(device_res_limit_errors) {
  up4();
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 5), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "outside 1..4");
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(3, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtResetDeviceResLimit(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  rt_down();
}

static void *read_limit_main(void *arg) {
  uint32_t *v = arg;
  /* another thread, without a device of its own: the limit is the process's */
  if (aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, v) != ACL_SUCCESS)
    *v = 0;
  return NULL;
}

TEST(device_res_limit_is_process_wide) {
  up4();
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
  uint32_t v = 0;
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, read_limit_main, &v), 0);
  pthread_join(t, NULL);
  CHECK_INT_EQ(v, 1);
  rt_down();
}

TEST(stream_res_limit_falls_back_to_the_device) {
  up4();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 2);
  /* checked against the hardware, not the device's limit */
  CHECK_INT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 9), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtResetStreamResLimit(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 2);
  /* NULL: the default stream */
  CHECK_INT_EQ(aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_VECTOR_CORE, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

TEST(stream_created_at_a_destroyed_streams_address_has_no_limit) {
  up4();
  for (int i = 0; i < 8; i++) {
    aclrtStream s;
    uint32_t v = 0;
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
    CHECK_INT_EQ(v, 4);
    CHECK_INT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  }
  rt_down();
}

TEST(thread_uses_its_streams_limits) {
  up4();
  aclrtStream s, other;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3); /* no stream: the process limit */
  CHECK_INT_EQ(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3); /* only used after aclrtUseStreamResInCurrentThread */
  CHECK_INT_EQ(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4); /* not set on the stream for vector cores: the process's, then the hardware's */
  CHECK_INT_EQ(aclrtUnuseStreamResInCurrentThread(other), ACL_SUCCESS); /* not the thread's: no-op */
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  CHECK_INT_EQ(aclrtUnuseStreamResInCurrentThread(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  /* a destroyed stream stops counting */
  CHECK_INT_EQ(aclrtUseStreamResInCurrentThread(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetResInCurrentThread((aclrtDevResLimitType)5, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  rt_down();
}

static void *no_context_main(void *arg) {
  uint32_t v = 0;
  *(int *)arg = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v);
  return NULL;
}

TEST(thread_limit_without_a_context_is_107002) {
  up4();
  int rc = 0;
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, no_context_main, &rc), 0);
  pthread_join(t, NULL);
  CHECK_INT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
  rt_down();
}

/* ---- device limits (aclrtDeviceSetLimit) ------------------------------------------------ */

TEST(device_limits_have_the_vendors_defaults_and_rules) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  size_t v = 0;
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 32768);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 32768);
  /* rounded up to 16 KiB; up to 32 KiB means 32 KiB */
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 49152);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 1000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 32768);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196608), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 196609), ACL_ERROR_RT_PARAM_INVALID);
  /* printf FIFO: [1 KiB, 64 MiB], rounded to 8 */
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1025), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1032);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, (size_t)65 << 20),
               ACL_ERROR_RT_PARAM_INVALID);
  /* no SIMT cores on the simulated device */
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 2048), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "SIMT");
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  /* argument errors */
  CHECK_INT_EQ(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, (size_t)UINT32_MAX + 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
  /* process-wide and kept across a device's use */
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 196608);
  rt_down();
  CHECK_INT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v), ACL_ERROR_UNINITIALIZE);
}

/* ---- capability and architecture ------------------------------------------------------- */

TEST(device_capability_reports_the_features) {
  rt_up();
  int32_t v = -1;
  CHECK_INT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, ACL_DEV_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, ACL_DEV_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)2, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceCapability(4, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v), ACL_ERROR_RT_INVALID_DEVICEID);
  rt_down();
}

TEST(arch_compatibility_of_the_default_device) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t ok = -1;
  CHECK_INT_EQ(aclrtCheckArchCompatibility("openacl-cpu", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 1);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 0); /* host kernels run no Ascend binary */
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend9000", &ok), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "Ascend9000");
  CHECK_INT_EQ(aclrtCheckArchCompatibility("", &ok), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCheckArchCompatibility(NULL, &ok), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B3", NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &ok), ACL_ERROR_UNINITIALIZE);
}

TEST(arch_compatibility_of_an_imitated_product) {
  setenv("OPENACL_SOC_NAME", "Ascend910_9362", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t ok = -1;
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &ok), ACL_SUCCESS); /* A2 and A3: one architecture */
  CHECK_INT_EQ(ok, 1);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B4-1", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 1);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910A", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 0);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend310P3", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 0);
  CHECK_INT_EQ(aclrtCheckArchCompatibility("openacl-cpu", &ok), ACL_SUCCESS);
  CHECK_INT_EQ(ok, 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- identity ------------------------------------------------------------------------------ */

TEST(uuid_is_stable_and_distinct_per_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtUuid a, b, a2;
  CHECK_INT_EQ(aclrtDeviceGetUuid(0, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetUuid(1, &b), ACL_SUCCESS);
  CHECK(memcmp(a.bytes, b.bytes, 16) != 0);
  CHECK_INT_EQ((unsigned char)a.bytes[6] >> 4, 5);       /* version 5 */
  CHECK_INT_EQ((unsigned char)a.bytes[8] >> 6, 2);       /* RFC 4122 variant */
  CHECK_INT_EQ(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetUuid(2, &a2), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtDeviceGetUuid(-1, &a2), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetUuid(0, &a2), ACL_SUCCESS);
  CHECK(memcmp(a.bytes, a2.bytes, 16) == 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(uuid_follows_the_physical_device) {
  setenv("OPENACL_DEVICE_COUNT", "3", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtUuid phys2;
  CHECK_INT_EQ(aclrtDeviceGetUuid(2, &phys2), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtUuid u0;
  CHECK_INT_EQ(aclrtDeviceGetUuid(0, &u0), ACL_SUCCESS);
  CHECK(memcmp(u0.bytes, phys2.bytes, 16) == 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(pci_bus_ids_round_trip) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  char id0[13], id1[64];
  CHECK_INT_EQ(aclrtDeviceGetPCIBusId(0, id0, (int32_t)sizeof(id0)), ACL_SUCCESS);
  CHECK_STR_EQ(id0, "0000:01:00.0");
  CHECK_INT_EQ(aclrtDeviceGetPCIBusId(1, id1, (int32_t)sizeof(id1)), ACL_SUCCESS);
  CHECK_STR_EQ(id1, "0000:02:00.0");
  int32_t dev = -1;
  CHECK_INT_EQ(aclrtDeviceGetByPCIBusId(id1, &dev), ACL_SUCCESS);
  CHECK_INT_EQ(dev, 1);
  CHECK_INT_EQ(aclrtDeviceGetByPCIBusId("0000:09:00.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDeviceGetByPCIBusId("0000:02:00.0 ", &dev), ACL_ERROR_RT_PARAM_INVALID); /* exact */
  CHECK_INT_EQ(aclrtDeviceGetByPCIBusId(NULL, &dev), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetByPCIBusId(id1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetPCIBusId(0, id0, 12), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDeviceGetPCIBusId(0, NULL, 13), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetPCIBusId(2, id0, 13), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(topology_between_two_devices) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  uint64_t v = 0;
  CHECK_INT_EQ(aclrtGetDevicesTopo(0, 1, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, ACL_RT_DEVS_TOPOLOGY_PHB);
  CHECK_INT_EQ(aclrtGetDevicesTopo(1, 0, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, ACL_RT_DEVS_TOPOLOGY_PHB);
  CHECK_INT_EQ(aclrtGetDevicesTopo(0, 0, &v), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetDevicesTopo(0, 2, &v), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(peer_access_status_follows_enable_and_disable) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  int32_t st = -1;
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, 0);
  CHECK_INT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, 1);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(1, 0, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, 0); /* one direction */
  CHECK_INT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 1, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, 0);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 0, &st), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 5, &st), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
}

TEST(id_mappings_are_identities_without_the_variables) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t out = -1;
  for (int32_t i = 0; i < 2; i++) {
    CHECK_INT_EQ(aclrtGetLogicDevIdByUserDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
    CHECK_INT_EQ(aclrtGetUserDevIdByLogicDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
    CHECK_INT_EQ(aclrtGetPhyDevIdByUserDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
    CHECK_INT_EQ(aclrtGetUserDevIdByPhyDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
    CHECK_INT_EQ(aclrtGetLogicDevIdByPhyDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
    CHECK_INT_EQ(aclrtGetPhyDevIdByLogicDevId(i, &out), ACL_SUCCESS);
    CHECK_INT_EQ(out, i);
  }
  /* still range-checked */
  CHECK_INT_EQ(aclrtGetLogicDevIdByUserDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtGetPhyDevIdByUserDevId(-1, &out), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtGetUserDevIdByPhyDevId(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(id_mappings_in_a_container) {
  /* the sheet's example: "1,2" visible to the runtime, inside a container
   * that mounted physical devices 4, 6 and 7: user 0 -> logical 1 -> physical 6 */
  setenv("OPENACL_DEVICE_COUNT", "8", 1);
  setenv("ASCEND_VISIBLE_DEVICES", "4,6,7", 1);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "1,2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t out = -1;
  CHECK_INT_EQ(aclrtGetLogicDevIdByUserDevId(0, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 1);
  CHECK_INT_EQ(aclrtGetLogicDevIdByUserDevId(1, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 2);
  CHECK_INT_EQ(aclrtGetUserDevIdByLogicDevId(2, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 1);
  CHECK_INT_EQ(aclrtGetUserDevIdByLogicDevId(0, &out), ACL_ERROR_RT_INVALID_DEVICEID); /* not visible */
  CHECK_INT_EQ(aclrtGetPhyDevIdByUserDevId(0, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 6);
  CHECK_INT_EQ(aclrtGetPhyDevIdByUserDevId(1, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 7);
  CHECK_INT_EQ(aclrtGetUserDevIdByPhyDevId(7, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 1);
  CHECK_INT_EQ(aclrtGetUserDevIdByPhyDevId(4, &out), ACL_ERROR_RT_INVALID_DEVICEID);
  /* the vendor's "logic" id of these two is the user id */
  CHECK_INT_EQ(aclrtGetLogicDevIdByPhyDevId(6, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 0);
  CHECK_INT_EQ(aclrtGetPhyDevIdByLogicDevId(1, &out), ACL_SUCCESS);
  CHECK_INT_EQ(out, 7);
  int64_t chip = -1;
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &chip), ACL_SUCCESS);
  CHECK_INT_EQ(chip, 6);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(bare_tgid_is_the_process_id) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int32_t pid = 0;
  CHECK_INT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
  CHECK_INT_EQ(pid, getpid());
  CHECK_INT_EQ(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_ERROR_UNINITIALIZE);
}

/* ---- saturation and overflow ------------------------------------------------------------- */

TEST(sat_mode_is_infnan_only) {
  rt_up();
  aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
  CHECK_INT_EQ(aclrtGetDeviceSatMode(&m), ACL_SUCCESS);
  CHECK_INT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
  CHECK_INT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetDeviceSatMode failed");
  CHECK_INT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetDeviceSatMode(&m), ACL_SUCCESS);
  CHECK_INT_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN);
  rt_down();
}

TEST(stream_overflow_switch) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t f = 7;
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(s, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, 0);
  CHECK_INT_EQ(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(s, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, 1);
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(NULL, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, 0);
  CHECK_INT_EQ(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* Runs rx_square(x) on s and returns the device's overflow status word. */
static uint32_t square_then_status(aclrtFuncHandle f, aclrtStream s, float x, void *out_dev, void *status_dev) {
  struct rx_square_args a;
  memset(&a, 0, sizeof(a)); /* no stack bytes in the padding */
  a.out = (float *)out_dev;
  a.x = x;
  CHECK_INT_EQ(rx_launch(f, 4, &a, sizeof(a), s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOverflowStatus(status_dev, 64, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  uint32_t st[16];
  memset(st, 0xff, sizeof(st));
  CHECK_INT_EQ(aclrtMemcpy(st, sizeof(st), status_dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 1; i < 16; i++)
    CHECK_INT_EQ(st[i], 0);
  return st[0];
}

TEST(overflow_is_detected_on_streams_with_the_switch_on) {
  up4();
  aclrtFuncHandle f = rx_func("rx_square", NULL);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void *out = NULL, *status = NULL;
  CHECK_INT_EQ(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  /* switch off: an overflow is not detected */
  CHECK_INT_EQ(square_then_status(f, s, 1e30f, out, status), 0);
  CHECK_INT_EQ(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(square_then_status(f, s, 2.0f, out, status), 0);    /* no overflow */
  CHECK_INT_EQ(square_then_status(f, s, 1e30f, out, status), 1);   /* inf */
  CHECK_INT_EQ(square_then_status(f, s, 2.0f, out, status), 1);    /* sticky until reset */
  CHECK_INT_EQ(aclrtResetOverflowStatus(s), ACL_SUCCESS);
  CHECK_INT_EQ(square_then_status(f, s, 2.0f, out, status), 0);
  float h[4];
  CHECK_INT_EQ(aclrtMemcpy(h, sizeof(h), out, sizeof(h), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(h[0] == 4.0f);
  /* the vendor's other names */
  CHECK_INT_EQ(square_then_status(f, s, 1e30f, out, status), 1);
  CHECK_INT_EQ(aclrtResetFloatOverflowStatus(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetFloatOverflowStatus(status, 64, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  uint32_t w = 9;
  CHECK_INT_EQ(aclrtMemcpy(&w, 4, status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(w, 0);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(status), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(overflow_status_argument_errors) {
  rt_up();
  void *status = NULL;
  CHECK_INT_EQ(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char host[64];
  CHECK_INT_EQ(aclrtGetOverflowStatus(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetFloatOverflowStatus(NULL, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetOverflowStatus(status, 32, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "64 bytes");
  CHECK_INT_EQ(aclrtGetOverflowStatus(host, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "host memory");
  CHECK_INT_EQ(aclrtGetOverflowStatus((char *)status + 8, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(status), ACL_SUCCESS);
  rt_down();
}

/* ---- samples (rt-breadth §3.3) --------------------------------------------------------------
 * Each prints what the vendor's sample prints and checks the lines its
 * README shows. */

typedef struct mt_worker {
  int rc;
  char soc[64];
  int32_t status;
  uint32_t limit;
  int32_t out[10];
} mt_worker;

static void *mt_worker_main(void *arg) {
  mt_worker *w = arg;
  w->rc = -1;
  if (aclrtSetDevice(0) != ACL_SUCCESS)
    return NULL;
  const char *soc = aclrtGetSocName();
  snprintf(w->soc, sizeof(w->soc), "%s", soc != NULL ? soc : "(null)");
  printf("Current Ascend chipset platform is: %s.\n", w->soc);
  aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_ABNORMAL;
  if (aclrtQueryDeviceStatus(0, &st) != ACL_SUCCESS)
    return NULL;
  w->status = (int32_t)st;
  printf("Query device status success. deviceStatus: %d.\n", (int)st);
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof(u));
  if (aclrtGetDeviceUtilizationRate(0, &u) != ACL_SUCCESS)
    return NULL;
  printf("Device utilization: cube %d%%, vector %d%%, aicpu %d%%.\n", u.cubeUtilization, u.vectorUtilization,
         u.aicpuUtilization);
  if (aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &w->limit) != ACL_SUCCESS)
    return NULL;
  printf("Get device resLimit success. VECTOR_CORE %u.\n", w->limit);
  /* the kernel: out[i] = 2 * in[i] */
  aclrtBinHandle bin;
  aclrtFuncHandle f = rx_func("rx_double", &bin);
  int32_t in[10];
  for (int i = 0; i < 10; i++)
    in[i] = i;
  void *din = NULL, *dout = NULL;
  aclrtMalloc(&din, sizeof(in), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dout, sizeof(in), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(din, sizeof(in), in, sizeof(in), ACL_MEMCPY_HOST_TO_DEVICE);
  struct rx_double_args a = {din, dout, 10};
  if (rx_launch(f, w->limit, &a, sizeof(a), NULL) != ACL_SUCCESS || aclrtSynchronizeStream(NULL) != ACL_SUCCESS)
    return NULL;
  aclrtMemcpy(w->out, sizeof(w->out), dout, sizeof(in), ACL_MEMCPY_DEVICE_TO_HOST);
  for (int i = 0; i < 10; i++)
    printf("%d ", (int)w->out[i]);
  printf("\n");
  aclrtFree(din);
  aclrtFree(dout);
  aclrtBinaryUnLoad(bin);
  if (aclrtResetDeviceResLimit(0) != ACL_SUCCESS)
    return NULL;
  w->rc = aclrtResetDevice(0);
  return NULL;
}

TEST(sample_device_multi_thread) {
  /* E/1_basic_features/device/1_device_multi_thread */
  setenv("OPENACL_SOC_NAME", "Ascend910_9362", 1);
  up4();
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
  mt_worker w;
  memset(&w, 0, sizeof(w));
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, mt_worker_main, &w), 0);
  pthread_join(t, NULL);
  CHECK_INT_EQ(w.rc, ACL_SUCCESS);
  CHECK_STR_EQ(w.soc, "Ascend910_9362");
  CHECK_INT_EQ(w.status, 0);
  CHECK_INT_EQ(w.limit, 1);
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(w.out[i], 2 * i);
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4); /* the worker reset it */
  rt_down();
}

TEST(sample_launch_kernel_with_reslimit) {
  /* E/2_advanced_features/kernel/1_launch_kernel_with_reslimit: a device with
   * 8 or more cube cores; prints "Hello World" once per block */
  setenv("OPENACL_EXECUTOR_THREADS", "8", 1);
  rt_up();
  CHECK_INT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_SUCCESS);
  printf("Device resource limit type %d set to %u.\n", (int)ACL_RT_DEV_RES_CUBE_CORE, 8u);
  uint32_t limit = 0;
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &limit), ACL_SUCCESS);
  printf("Current device resource limit type %d is %u.\n", (int)ACL_RT_DEV_RES_CUBE_CORE, limit);
  CHECK_INT_EQ(limit, 8);
  aclrtBinHandle bin;
  aclrtFuncHandle f = rx_func("rx_hello", &bin);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(rx_launch(f, limit, NULL, 0, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  rt_down();
}

TEST(sample_context_query) {
  /* E/1_basic_features/context/0_context_query: the thread's limits */
  up4();
  uint32_t cube = 0, vector = 0;
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vector), ACL_SUCCESS);
  printf("Current thread resource: CUBE_CORE %u, VECTOR_CORE %u.\n", cube, vector);
  CHECK_INT_EQ(cube, 4);
  CHECK_INT_EQ(vector, 4);
  rt_down();
}

TEST(sample_runtime_compatibility) {
  /* E/0_quickstart/3_cross_version/0_runtime_compatibility, on a device
   * imitating an Atlas A2 (the README's expected "1" for the capability
   * needs aclrtTaskUpdateAsync, which openacl lacks: it reports 0) */
  setenv("OPENACL_SOC_NAME", "Ascend910B3", 1);
  rt_up();
  int32_t ok = -1, cap = -1;
  CHECK_INT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &ok), ACL_SUCCESS);
  printf("Architecture compatibility for Ascend910B3: %d\n", (int)ok);
  CHECK_INT_EQ(ok, 1);
  CHECK_INT_EQ(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap), ACL_SUCCESS);
  printf("Device capability ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV: %d\n", (int)cap);
  rt_down();
}

static const char *mode_name(aclrtFloatOverflowMode m) {
  return m == ACL_RT_OVERFLOW_MODE_SATURATION ? "ACL_RT_OVERFLOW_MODE_SATURATION"
         : m == ACL_RT_OVERFLOW_MODE_INFNAN   ? "ACL_RT_OVERFLOW_MODE_INFNAN"
                                              : "ACL_RT_OVERFLOW_MODE_UNDEF";
}

TEST(sample_overflow_detection) {
  /* E/4_reliability/overflow_detection/0_overflow_detection: a 207000 from
   * these APIs is logged as a warning and the sample goes on */
  rt_up();
  aclrtFloatOverflowMode before = ACL_RT_OVERFLOW_MODE_UNDEF, after = ACL_RT_OVERFLOW_MODE_UNDEF;
  CHECK_INT_EQ(aclrtGetDeviceSatMode(&before), ACL_SUCCESS);
  int rc = aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION);
  if (rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    printf("[WARN] aclrtSetDeviceSatMode is not supported on this device (207000).\n");
  else
    CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetDeviceSatMode(&after), ACL_SUCCESS);
  printf("Device saturation mode %s %s.\n", mode_name(before), mode_name(after));
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamOverflowSwitch(s, 1), ACL_SUCCESS);
  uint32_t sw = 0;
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(s, &sw), ACL_SUCCESS);
  printf("Overflow switch=%u\n", sw);
  CHECK_INT_EQ(sw, 1);
  void *status = NULL;
  CHECK_INT_EQ(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t word = 9;
  CHECK_INT_EQ(aclrtGetOverflowStatus(status, 64, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(&word, 4, status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  printf("Overflow status before reset=%u\n", word);
  CHECK_INT_EQ(word, 0);
  CHECK_INT_EQ(aclrtResetOverflowStatus(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOverflowStatus(status, 64, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(&word, 4, status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  printf("Overflow status after reset=%u\n", word);
  CHECK_INT_EQ(word, 0);
  CHECK_INT_EQ(aclrtFree(status), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* ---- two devices ------------------------------------------------------------------------------ */

TEST(limits_and_overflow_are_per_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  CHECK_INT_EQ(aclrtSetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 2);
  CHECK_INT_EQ(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  /* an overflow on device 1 does not show on device 0 */
  aclrtContext c0;
  CHECK_INT_EQ(aclrtGetCurrentContext(&c0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtFuncHandle f1 = rx_func("rx_square", NULL);
  aclrtStream s1;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  void *out1 = NULL, *st1 = NULL;
  CHECK_INT_EQ(aclrtMalloc(&out1, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&st1, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamOverflowSwitch(s1, 1), ACL_SUCCESS);
  CHECK_INT_EQ(square_then_status(f1, s1, 1e30f, out1, st1), 1);
  /* the status buffer must be memory of the stream's device */
  CHECK_INT_EQ(aclrtSetCurrentContext(c0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOverflowStatus(st1, 64, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "another device");
  void *st0 = NULL;
  CHECK_INT_EQ(aclrtMalloc(&st0, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOverflowStatus(st0, 64, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  uint32_t w = 9;
  CHECK_INT_EQ(aclrtMemcpy(&w, 4, st0, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(w, 0);
  CHECK_INT_EQ(aclrtFree(st0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS); /* frees device 1's memory and stream */
  rt_down();
}

/* ---- threads ------------------------------------------------------------------------------------ */

typedef struct hammer {
  aclrtContext ctx;
  aclrtStream s;
  int id;
  atomic_int *errors;
} hammer;

static void *hammer_main(void *arg) {
  hammer *h = arg;
  if (aclrtSetCurrentContext(h->ctx) != ACL_SUCCESS) {
    atomic_fetch_add(h->errors, 1);
    return NULL;
  }
  for (int i = 0; i < 200; i++) {
    uint32_t v = 0, lim = (uint32_t)(1 + (i + h->id) % 4);
    aclrtUtilizationInfo u;
    memset(&u, 0, sizeof(u));
    if (aclrtSetStreamResLimit(h->s, ACL_RT_DEV_RES_CUBE_CORE, lim) != 0 ||
        aclrtUseStreamResInCurrentThread(h->s) != 0 ||
        aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v) != 0 || v != lim ||
        aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, lim) != 0 ||
        aclrtGetDeviceUtilizationRate(0, &u) != 0 || aclrtSetStreamOverflowSwitch(h->s, (uint32_t)(i & 1)) != 0)
      atomic_fetch_add(h->errors, 1);
  }
  aclrtUnuseStreamResInCurrentThread(h->s);
  return NULL;
}

TEST(limits_from_many_threads) {
  up4();
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  atomic_int errors = 0;
  hammer h[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    h[i].ctx = ctx;
    h[i].id = i;
    h[i].errors = &errors;
    CHECK_INT_EQ(aclrtCreateStream(&h[i].s), ACL_SUCCESS);
    CHECK_INT_EQ(pthread_create(&t[i], NULL, hammer_main, &h[i]), 0);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  CHECK_INT_EQ(atomic_load(&errors), 0);
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(aclrtDestroyStream(h[i].s), ACL_SUCCESS);
  rt_down();
}
