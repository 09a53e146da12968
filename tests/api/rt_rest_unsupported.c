/*
 * rt_rest_unsupported.c - every function docs/rt-functions.md lists as not
 * supported returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) for valid-looking
 * arguments, and the message aclGetRecentErrMsg gives names it; NULL pointer
 * arguments are refused first with ACL_ERROR_INVALID_PARAM, as on a card.
 * A function that becomes implemented must leave this list (its test then
 * fails here with its new result).
 */
#include <string.h>

#include "rt_common.h"

/* Checks that `call` gave 207000 and a message naming `name`. */
#define NS(name, call)                                                      \
  do {                                                                      \
    CHECK_INT_EQ((call), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);                 \
    const char *m_ = aclGetRecentErrMsg();                                  \
    CHECK_NOT_NULL(m_);                                                     \
    CHECK_STR_HAS(m_, name " failed: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)"); \
    n_checked++;                                                            \
  } while (0)

static int n_checked;

static uint32_t snap_cb(int32_t deviceId, void *args) {
  (void)deviceId;
  (void)args;
  return 0;
}

TEST(every_unsupported_function_says_so) {
  rt_up();
  char buf[128];
  void *p = buf, *q = NULL;
  size_t sz = 0;
  int32_t pid = 1;
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void *h = buf; /* a non-NULL stand-in for handles the functions never reach */
  aclrtServerPid sp = {0, &pid, 1};
  aclrtMemUceInfo uce;
  memset(&uce, 0, sizeof uce);
  dim3 d3 = {1, 1, 1};
  int64_t i64 = 0;
  (void)i64;


  /* IPC, notifies, VMM (issue 13) */
  NS("aclrtIpcMemSetAttr", aclrtIpcMemSetAttr("k", ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0));
  NS("aclrtIpcMemImportPidInterServer", aclrtIpcMemImportPidInterServer("k", &sp, 1));
  NS("aclrtNotifySetImportPidInterServer", aclrtNotifySetImportPidInterServer(h, &sp, 1));
  NS("aclrtReserveMemAddressNoUCMemory", aclrtReserveMemAddressNoUCMemory(&q, 1 << 30, 0, p, 0));
  NS("aclrtMemMapSelectedLink", aclrtMemMapSelectedLink(p, 1 << 21, p, ACL_RT_MEM_LINK_IDX_0));
  NS("aclrtMemMapSetLink", aclrtMemMapSetLink(p, 1 << 21, ACL_RT_MEM_ACCESS_LINK_HCCS));
  NS("aclrtMemP2PMap", aclrtMemP2PMap(p, 1 << 21, 0, 0));

  /* dump and profiling (issue 12) */
  NS("aclrtProfTrace", aclrtProfTrace(buf, 8, s));

  /* issue 10: kernel format and loader, descriptor cache operations */

  /* what the simulated device cannot mean */
  NS("aclrtFunctionGetAvailDynUbufPerBlock", aclrtFunctionGetAvailDynUbufPerBlock(h, 1, &sz));
  NS("aclrtLaunchSIMTKernelWithArgsArray", aclrtLaunchSIMTKernelWithArgsArray(h, d3, d3, 0, s, NULL, &q));
  NS("aclrtLaunchSIMTKernelWithHostArgs", aclrtLaunchSIMTKernelWithHostArgs(h, d3, d3, 0, s, NULL, buf, 8, NULL, 0));
  NS("aclrtBinaryGetDevAddress", aclrtBinaryGetDevAddress(h, &q, &sz));
  NS("aclrtCtxGetFloatOverflowAddr", aclrtCtxGetFloatOverflowAddr(&q));
  NS("aclrtGetHardwareSyncAddr", aclrtGetHardwareSyncAddr(&q));
  NS("aclrtMemUceRepair", aclrtMemUceRepair(0, &uce, 1));
  NS("aclrtSnapShotProcessLock", aclrtSnapShotProcessLock());
  NS("aclrtSnapShotProcessUnlock", aclrtSnapShotProcessUnlock());
  NS("aclrtSnapShotProcessBackup", aclrtSnapShotProcessBackup());
  NS("aclrtSnapShotProcessRestore", aclrtSnapShotProcessRestore());
  NS("aclrtSnapShotCallbackRegister",
     aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb, NULL));
  NS("aclrtSnapShotCallbackUnregister",
     aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cb));

  /* The count docs/rt-functions.md gives: every not-supported function above. */
  CHECK_INT_EQ(n_checked, 21);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(null_pointers_come_first) {
  rt_up();
  CHECK_INT_EQ(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo((void *)1, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlRIBuildEnd((void *)1, (void *)1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocPhysical(NULL, 1, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetSymbolAddress(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoGetDescSize(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
  CHECK_INT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE); /* after aclFinalize */
}
