/*
 * aprof.c - MsprofSetDeviceIdByGeModelIdx (profiling/aprof_pub.h): model
 * ids declared to the profiler without a loaded model.  The vendor's
 * profiling/2_subscribe_model sample declares model 0 on device 0 and
 * subscribes it; aclprofModelSubscribe (subscribe.c) accepts a declared id.
 * A later declaration of the same id replaces its device.
 *
 * Lock: ge_lock guards the table (a leaf).
 */
#include <pthread.h>
#include <stdlib.h>

#include "common/log.h"
#include "prof/prof_internal.h"
#include "profiling/aprof_pub.h"

typedef struct ge_model {
  uint32_t model, device;
} ge_model;

static pthread_mutex_t ge_lock = PTHREAD_MUTEX_INITIALIZER;
static ge_model *ge_models; /* ge_lock */
static size_t n_ge, cap_ge; /* ge_lock */

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
  pthread_mutex_lock(&ge_lock);
  size_t i = 0;
  while (i < n_ge && ge_models[i].model != geModelIdx)
    i++;
  if (i == n_ge) {
    if (n_ge == cap_ge) {
      size_t nc = cap_ge ? cap_ge * 2 : 8;
      ge_model *bigger = realloc(ge_models, nc * sizeof(*bigger));
      if (bigger == NULL) {
        pthread_mutex_unlock(&ge_lock);
        /* the vendor's call has no failure a caller checks; subscription then
         * needs a loaded model */
        ACL__LOGE(ACL__MOD_ASCENDCL, "MsprofSetDeviceIdByGeModelIdx: out of host memory; model %u is not declared",
                  geModelIdx);
        return 0;
      }
      ge_models = bigger;
      cap_ge = nc;
    }
    n_ge++;
  }
  ge_models[i].model = geModelIdx;
  ge_models[i].device = deviceId;
  pthread_mutex_unlock(&ge_lock);
  ACL__LOGI(ACL__MOD_ASCENDCL, "profiling: model id %u declared on device %u", geModelIdx, deviceId);
  return 0;
}

int acl__prof_ge_model_declared(uint32_t model) {
  pthread_mutex_lock(&ge_lock);
  int found = 0;
  for (size_t i = 0; i < n_ge && !found; i++)
    found = ge_models[i].model == model;
  pthread_mutex_unlock(&ge_lock);
  return found;
}
