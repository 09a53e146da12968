/*
 * device_query_api.c - the public device queries of rt-breadth §3:
 * utilisation, capability and architecture compatibility, UUID, PCI bus
 * ids, topology, peer access status, the user / logical / physical id
 * mappings and the bare process id.  What each reports on the simulated
 * device: docs/devices.md; the data: src/rt/device_query.c.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl/process.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/device_query.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (utilizationInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "utilizationInfo is NULL. Remedy: pass an aclrtUtilizationInfo to fill");
  if (utilizationInfo->utilizationExtend != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "utilizationInfo->utilizationExtend is %p; it is reserved and must be NULL. Remedy: zero the "
                     "struct before the call",
                     (void *)utilizationInfo->utilizationExtend);
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  /* Cube, vector and AI CPU work all run on the executors: one figure. */
  int32_t pct = acl__devstat_utilization(d);
  utilizationInfo->cubeUtilization = pct;
  utilizationInfo->vectorUtilization = pct;
  utilizationInfo->aicpuUtilization = pct;
  utilizationInfo->memoryUtilization = -1; /* the vendor never reports it */
  return 0;
}

aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  /* runtime-layer checks: 107000, not 100000 (the vendor's) */
  if (socVersion == NULL || socVersion[0] == '\0')
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "socVersion is %s. Remedy: pass a SoC name such as \"Ascend910B3\"",
                     socVersion == NULL ? "NULL" : "empty");
  if (canCompatible == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "canCompatible is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  const acl__hal_info *hal = acl__process_hal_info();
  const char *running = hal != NULL ? hal->soc_name : "openacl-cpu";
  const char *want = acl__soc_arch(socVersion);
  if (want == NULL && strcmp(socVersion, running) != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "\"%s\" is not a SoC name openacl knows. Remedy: pass a name as aclrtGetSocName reports it, "
                     "e.g. Ascend910B3, Ascend910_9362, Ascend310P3 or Ascend310B1",
                     socVersion);
  /* an unknown running SoC (OPENACL_SOC_NAME set to another name) is an
   * architecture of its own */
  const char *have = acl__soc_arch(running);
  *canCompatible = strcmp(want != NULL ? want : socVersion, have != NULL ? have : running) == 0;
  return 0;
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (acl__device_get(__func__, deviceId, &rc) == NULL)
    return rc;
  switch (devFeatureType) {
  case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
    /* updating a kernel task of a model runtime instance (aclrtTaskUpdateAsync
     * with ACL_RT_UPDATE_AIC_AIV_TASK): no instances exist on openacl yet */
  case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
    /* memory-queue events across devices: openacl has no memory queues */
    *value = ACL_DEV_FEATURE_NOT_SUPPORT;
    return 0;
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "devFeatureType %d is not an aclrtDevFeatureType (ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV "
                     "= 1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21)",
                     (int)devFeatureType);
  }
}

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (uuid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "uuid is NULL");
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  unsigned char b[16];
  acl__device_uuid(d, b);
  memcpy(uuid->bytes, b, sizeof(b));
  return 0;
}

#define ACL__PCI_BUS_ID_LEN 13 /* "0000:01:00.0" and the NUL */

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (pciBusId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pciBusId is NULL");
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  if (len < ACL__PCI_BUS_ID_LEN)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "len is %d; the id \"dddd:bb:dd.f\" needs %d bytes with its NUL. Remedy: pass a buffer of at "
                     "least %d bytes",
                     (int)len, ACL__PCI_BUS_ID_LEN, ACL__PCI_BUS_ID_LEN);
  acl__device_pci_bus_id(d, pciBusId, (size_t)len);
  return 0;
}

aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (pciBusId == NULL || deviceId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", pciBusId == NULL ? "pciBusId" : "deviceId");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  for (int32_t i = 0; i < acl__device_count(); i++) {
    char id[32];
    acl__device_pci_bus_id(acl__device_peek(i), id, sizeof(id));
    if (strcmp(id, pciBusId) == 0) { /* exact, as the vendor compares */
      *deviceId = i;
      return 0;
    }
  }
  return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                   "no visible device has PCI bus id \"%s\". Remedy: pass an id aclrtDeviceGetPCIBusId gave, "
                   "exactly (lower-case hex, \"dddd:bb:dd.f\")",
                   pciBusId);
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (acl__device_get(__func__, (int32_t)deviceId, &rc) == NULL ||
      acl__device_get(__func__, (int32_t)otherDeviceId, &rc) == NULL)
    return rc;
  if (deviceId == otherDeviceId)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "deviceId and otherDeviceId are both %u; a topology links two different devices",
                     deviceId);
  /* Simulated devices sit on their own buses under the host's bridge (see
   * aclrtDeviceGetPCIBusId): traffic between them crosses the host bridge. */
  *value = ACL_RT_DEVS_TOPOLOGY_PHB;
  return 0;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__device *d = acl__device_peek(deviceId);
  if (d == NULL || acl__device_peek(peerDeviceId) == NULL || deviceId == peerDeviceId)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "%s %d %s. Remedy: pass two different ids below aclrtGetDeviceCount()",
                     d == NULL ? "deviceId" : "peerDeviceId", (int)(d == NULL ? deviceId : peerDeviceId),
                     deviceId == peerDeviceId && d != NULL ? "is the device itself, not a peer" : "does not exist");
  pthread_mutex_lock(&d->lock);
  *status = (int32_t)((d->peer_mask >> peerDeviceId) & 1);
  pthread_mutex_unlock(&d->lock);
  return 0;
}

/* ---- id mappings ------------------------------------------------------------------
 * User id: what aclrtSetDevice takes (index after the visibility
 * variables).  Logical id: its ASCEND_RT_VISIBLE_DEVICES entry.  Physical
 * id: the chip's (ASCEND_VISIBLE_DEVICES picks them as a container would).
 * As the vendor documents, the "logic" id of the two *ByPhyDevId /
 * PhyDevIdByLogic* calls is really the user id: they are the same calls as
 * the UserDevId ones. */

typedef enum { ID_USER, ID_LOGIC, ID_PHY } id_kind;

static const char *id_name(id_kind k) { return k == ID_USER ? "user" : k == ID_LOGIC ? "logical" : "physical"; }

static int32_t id_of(const acl__device *d, id_kind k) {
  return k == ID_USER ? d->id : k == ID_LOGIC ? d->logic_id : d->phys_id;
}

static int id_map(const char *api, id_kind from, int32_t in, id_kind to, int32_t *out) {
  int rc = 0;
  if (out == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "the output pointer is NULL");
  if (!acl__rt_live(api, &rc))
    return rc;
  for (int32_t i = 0; i < acl__device_count(); i++) {
    acl__device *d = acl__device_peek(i);
    if (id_of(d, from) == in) {
      *out = id_of(d, to);
      return 0;
    }
  }
  return acl__fail(api, ACL_ERROR_RT_INVALID_DEVICEID, __FILE__, __LINE__,
                   "no visible device has %s id %d (this process sees %d device%s). Remedy: check "
                   "ASCEND_RT_VISIBLE_DEVICES and ASCEND_VISIBLE_DEVICES, which map the ids",
                   id_name(from), (int)in, acl__device_count(), acl__device_count() == 1 ? "" : "s");
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_USER, userDevid, ID_LOGIC, logicDevId);
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_LOGIC, logicDevId, ID_USER, userDevid);
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_PHY, phyDevId, ID_USER, logicDevId);
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_USER, logicDevId, ID_PHY, phyDevId);
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_PHY, phyDevId, ID_USER, userDevId);
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId) {
  ACL__PROF_API_SCOPE();
  return id_map(__func__, ID_USER, userDevId, ID_PHY, phyDevId);
}

aclError aclrtDeviceGetBareTgid(int32_t *pid) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pid is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  /* openacl runs in the program's own process: its id as the host sees it
   * is getpid() unless the program itself runs in a pid namespace, where the
   * host's id cannot be known from inside. */
  *pid = (int32_t)getpid();
  return 0;
}
