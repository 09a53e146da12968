/*
 * discover.c - device discovery at aclInit: count the simulated devices and
 * apply the two visibility variables, in the order a container sees them:
 * ASCEND_VISIBLE_DEVICES picks physical devices (as a container runtime
 * mounts them, renumbered from 0), then ASCEND_RT_VISIBLE_DEVICES picks and
 * renumbers among those, in the listed order.
 */
#include "hal/hal.h"

#include <stdio.h>
#include <string.h>

static void acl__hal_invalid(acl__hal_info *info, const char *fmt, const char *var, const char *raw,
                             const char *why) {
  info->visible_count = 0;
  snprintf(info->visibility_error, sizeof(info->visibility_error), fmt, var, raw ? raw : "", why);
}

void acl__hal_discover(const acl__env *env, acl__hal_info *info) {
  memset(info, 0, sizeof(*info));
  info->ops = (env->backend != NULL && strcmp(env->backend, "null") == 0) ? &acl__backend_null : &acl__backend_cpu;
  if (info->ops->probe(env, &info->physical_count, info->props, ACL__ENV_MAX_DEVICES) != 0)
    info->physical_count = 0;
  snprintf(info->soc_name, sizeof(info->soc_name), "%.63s", env->soc_name ? env->soc_name : "openacl-cpu");

  int32_t mounted[ACL__ENV_MAX_DEVICES];
  int n = 0;
  const acl__device_list *vis = &env->visible_devices;
  if (vis->set) {
    if (!vis->valid) {
      acl__hal_invalid(info, "%s='%s' is invalid: %s", "ASCEND_VISIBLE_DEVICES", vis->raw, vis->error);
      return;
    }
    for (size_t i = 0; i < vis->count; i++) {
      if (vis->ids[i] >= info->physical_count) {
        char why[96];
        snprintf(why, sizeof(why), "device %d does not exist (there are %d)", vis->ids[i], info->physical_count);
        acl__hal_invalid(info, "%s='%s' is invalid: %s", "ASCEND_VISIBLE_DEVICES", vis->raw, why);
        return;
      }
      mounted[n++] = vis->ids[i];
    }
  } else {
    for (int i = 0; i < info->physical_count; i++)
      mounted[n++] = i;
  }

  const acl__device_list *rt = &env->rt_visible_devices;
  if (rt->set) {
    if (!rt->valid) {
      acl__hal_invalid(info, "%s='%s' is invalid: %s", "ASCEND_RT_VISIBLE_DEVICES", rt->raw, rt->error);
      return;
    }
    for (size_t i = 0; i < rt->count; i++) {
      if (rt->ids[i] >= n) {
        char why[96];
        snprintf(why, sizeof(why), "device %d does not exist (%d visible)", rt->ids[i], n);
        acl__hal_invalid(info, "%s='%s' is invalid: %s", "ASCEND_RT_VISIBLE_DEVICES", rt->raw, why);
        return;
      }
      info->user_to_physical[i] = mounted[rt->ids[i]];
      info->user_to_logical[i] = rt->ids[i];
    }
    info->visible_count = (int)rt->count;
  } else {
    memcpy(info->user_to_physical, mounted, (size_t)n * sizeof(mounted[0]));
    for (int i = 0; i < n; i++)
      info->user_to_logical[i] = i;
    info->visible_count = n;
  }
  /* aclrtGetSocName reports the first visible device's SoC. */
  if (info->visible_count > 0)
    memcpy(info->soc_name, info->props[info->user_to_physical[0]].soc_name, sizeof(info->soc_name));
}
