/*
 * profiling/aprof_pub.h - the part of the vendor's profiling "public
 * package" header (pkg_inc/profiling/aprof_pub.h) that its samples use:
 * MsprofSetDeviceIdByGeModelIdx, which tells the profiler that a model id
 * belongs to a device.  profiling/2_subscribe_model calls it to subscribe
 * model id 0 without loading a model.  The vendor's raw-data report
 * structures and functions of that header are not provided
 * (docs/profiling.md, "Not done yet").
 */
#ifndef OPENACL_PROFILING_APROF_PUB_H
#define OPENACL_PROFILING_APROF_PUB_H

#include <stdint.h>

#ifndef MSVP_PROF_API
#if defined(OPENACL_BUILDING) || defined(FUNC_VISIBILITY)
#define MSVP_PROF_API __attribute__((visibility("default")))
#else
#define MSVP_PROF_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Records that model geModelIdx runs on device deviceId: from then on
 * aclprofModelSubscribe accepts geModelIdx even when no model of that id
 * is loaded (such a subscription receives no records; aclprofModelUnSubscribe
 * still closes its pipe).  Returns 0. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif
