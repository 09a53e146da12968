/*
 * hccl_api.c - the HCCL entry points that are neither communicator set-up
 * (comm_api.c) nor operators (ops.c): error strings, process-wide config,
 * capability, the fault-recovery state switches, and the functions that
 * need hardware openacl does not simulate, which return HCCL_E_NOT_SUPPORT
 * with a message that says so.  Also the error recording and the
 * environment variables the rest of the library reads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hccl/hccl_int.h"
#include "openacl/openacl.h"

/* ---- errors ---------------------------------------------------------------- */

static const char *const hccl__strings[] = {
    "no error", "parameter error", "empty pointer", "memory error", "internal error", "not support feature",
    "not found specific resource", "resource unavailable", "call system interface error", "timeout",
    "open file fail", "tcp connect fail", "roce connect fail", "tcp transfer fail", "roce transfer fail",
    "call runtime api fail", "call driver api fail", "call profiling api fail", "call cce api fail",
    "call network api fail", "try again", "error cqe", "error communicator suspending", "retry constraint",
    "out of memory"};
static const char *const hccl__names[] = {
    "HCCL_SUCCESS", "HCCL_E_PARA", "HCCL_E_PTR", "HCCL_E_MEMORY", "HCCL_E_INTERNAL", "HCCL_E_NOT_SUPPORT",
    "HCCL_E_NOT_FOUND", "HCCL_E_UNAVAIL", "HCCL_E_SYSCALL", "HCCL_E_TIMEOUT", "HCCL_E_OPEN_FILE_FAILURE",
    "HCCL_E_TCP_CONNECT", "HCCL_E_ROCE_CONNECT", "HCCL_E_TCP_TRANSFER", "HCCL_E_ROCE_TRANSFER", "HCCL_E_RUNTIME",
    "HCCL_E_DRV", "HCCL_E_PROFILING", "HCCL_E_CCE", "HCCL_E_NETWORK", "HCCL_E_AGAIN", "HCCL_E_REMOTE",
    "HCCL_E_SUSPENDING", "HCCL_E_OPRETRY_FAIL", "HCCL_E_OOM"};
#define HCCL__NCODES (sizeof(hccl__names) / sizeof(hccl__names[0]))

const char *hccl__result_name(HcclResult code) {
  if ((unsigned)code < HCCL__NCODES)
    return hccl__names[code];
  return code == HCCL_E_IN_STATUS ? "HCCL_E_IN_STATUS" : "HCCL_E_UNKNOWN";
}

const char *HcclGetErrorString(HcclResult code) {
  if ((int)code < 0 || (int)code >= (int)HCCL_E_RESERVED)
    return "unknown error";
  if ((unsigned)code < HCCL__NCODES)
    return hccl__strings[code];
  if (code == HCCL_E_IN_STATUS)
    return "communicator in a status that does not allow the call";
  return "unknown error";
}

/* The ACL code whose table entry fits an HCCL result, so that the message
 * aclGetRecentErrMsg returns reads in the same terms as the runtime's. */
static aclError hccl__acl_code(HcclResult code) {
  switch (code) {
  case HCCL_E_PARA: case HCCL_E_PTR: return ACL_ERROR_INVALID_PARAM;
  case HCCL_E_MEMORY: case HCCL_E_OOM: return ACL_ERROR_BAD_ALLOC;
  case HCCL_E_NOT_SUPPORT: return ACL_ERROR_FEATURE_UNSUPPORTED;
  case HCCL_E_TIMEOUT: return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
  case HCCL_E_REMOTE: case HCCL_E_TCP_CONNECT: case HCCL_E_TCP_TRANSFER: case HCCL_E_NETWORK:
    return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
  default: return ACL_ERROR_INTERNAL_ERROR;
  }
}

HcclResult hccl__fail(const char *api, HcclResult code, const char *fmt, ...) {
  char detail[768];
  int n = snprintf(detail, sizeof(detail), "%s (%d): ", hccl__result_name(code), (int)code);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof(detail))
    vsnprintf(detail + n, sizeof(detail) - (size_t)n, fmt, ap);
  va_end(ap);
  openaclRecordError(api, hccl__acl_code(code), detail);
  return code;
}

/* ---- environment ------------------------------------------------------------- */

static int hccl__env_int(const char *name, int def, int lo, int hi) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0')
    return def;
  char *end;
  errno = 0;
  long x = strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || x < lo || x > hi) {
    fprintf(stderr, "hccl: %s=\"%s\" is not an integer in [%d, %d]; using %d\n", name, v, lo, hi, def);
    return def;
  }
  return (int)x;
}

/* The vendor's default; 0 waits forever. */
int hccl__env_exec_timeout(void) { return hccl__env_int("HCCL_EXEC_TIMEOUT", 1836, 0, 2147483647); }
/* The vendor accepts [120, 7200]; shorter values are allowed here so that
 * tests of missing ranks finish quickly. */
int hccl__env_connect_timeout(void) { return hccl__env_int("HCCL_CONNECT_TIMEOUT", 120, 1, 7200); }

int hccl__env_zero_copy(void) { return hccl__env_int("OPENACL_HCCL_ZERO_COPY", 1, 0, 1); }

int hccl__env_peer_memory(void) { return hccl__env_int("OPENACL_HCCL_PEER_MEMORY", 1, 0, 1); }

uint64_t hccl__now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- process-wide config ------------------------------------------------------ */

static atomic_int hccl__deterministic;

HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) {
  if (config != HCCL_DETERMINISTIC)
    return hccl__fail(__func__, HCCL_E_NOT_SUPPORT, "config %d is not supported (only HCCL_DETERMINISTIC, 0)",
                      (int)config);
  if (configValue.value < 0 || configValue.value > 2)
    return hccl__fail(__func__, HCCL_E_PARA,
                      "HCCL_DETERMINISTIC value %d is not 0 (off), 1 (on) or 2 (strict)", (int)configValue.value);
  /* Results are always computed in rank order here, so every setting is met. */
  atomic_store(&hccl__deterministic, configValue.value);
  return HCCL_SUCCESS;
}

HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue *configValue) {
  if (configValue == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "configValue is NULL. Remedy: pass a HcclConfigValue to fill");
  if (config != HCCL_DETERMINISTIC)
    return hccl__fail(__func__, HCCL_E_NOT_SUPPORT, "config %d is not supported (only HCCL_DETERMINISTIC, 0)",
                      (int)config);
  configValue->value = atomic_load(&hccl__deterministic);
  return HCCL_SUCCESS;
}

uint32_t HcclGetCommConfigCapability(void) { return HCCL_COMM_CONFIG_RESERVED; }


/* ---- not supported: hardware features openacl does not simulate ---------------- */

#define HCCL__UNSUPPORTED(why) hccl__fail(__func__, HCCL_E_NOT_SUPPORT, "%s", why)

HcclResult HcclCommRegCommStateCallback(const char *regName, HcclCommStateCallback cb, void *args) {
  (void)regName, (void)cb, (void)args;
  return HCCL__UNSUPPORTED("communicator state callbacks belong to the device fault recovery openacl's simulated "
                           "devices do not have");
}
HcclResult HcclCommSetMemoryRange(HcclComm comm, void *baseVirPtr, size_t size, size_t alignment, uint64_t flags) {
  (void)comm, (void)baseVirPtr, (void)size, (void)alignment, (void)flags;
  return HCCL__UNSUPPORTED("zero-copy memory ranges need the card's memory mapping; pass aclrtMalloc buffers");
}
HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void *baseVirPtr) {
  (void)comm, (void)baseVirPtr;
  return HCCL__UNSUPPORTED("zero-copy memory ranges need the card's memory mapping");
}
HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr, size_t size, size_t offset,
                                      aclrtDrvMemHandle handle, uint64_t flags) {
  (void)comm, (void)virPtr, (void)size, (void)offset, (void)handle, (void)flags;
  return HCCL__UNSUPPORTED("zero-copy communicator memory needs the card's memory mapping");
}
HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void *virPtr) {
  (void)comm, (void)virPtr;
  return HCCL__UNSUPPORTED("zero-copy communicator memory needs the card's memory mapping");
}
HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t *ranks, bool *useBackup, uint32_t nRanks) {
  (void)comm, (void)ranks, (void)useBackup, (void)nRanks;
  return HCCL__UNSUPPORTED("device NIC selection: simulated devices have no NICs (MPI picks the network)");
}
HcclResult HcclCommSymWinRegister(HcclComm comm, void *addr, uint64_t size, HcclCommSymWindow *winHandle,
                                  uint32_t flag) {
  (void)comm, (void)addr, (void)size, (void)winHandle, (void)flag;
  return HCCL__UNSUPPORTED("symmetric memory windows need the card's memory mapping");
}
HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle) {
  (void)winHandle;
  return HCCL__UNSUPPORTED("symmetric memory windows need the card's memory mapping");
}
HcclResult HcclCommSymWinGet(HcclComm comm, void *ptr, size_t size, HcclCommSymWindow *winHandle, size_t *offset) {
  (void)comm, (void)ptr, (void)size, (void)winHandle, (void)offset;
  return HCCL__UNSUPPORTED("symmetric memory windows need the card's memory mapping");
}
