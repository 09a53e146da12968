/*
 * group_api.c - compute groups (aclrtSetGroup, aclrtGetGroupCount, the
 * aclrtGroupInfo functions).  A card's cores can be split into groups that
 * streams are then confined to; the simulated device has exactly one group,
 * id 0, that holds all its cores, so a program that enumerates groups and
 * picks one works unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "prof/prof.h"

#define GROUPINFO_MAGIC 0x47525049u /* "GRPI" */
#define GROUP_COUNT 1

/* One group's attributes, by aclrtGroupAttr. */
typedef struct group_entry {
  int32_t attr[ACL_GROUP_GROUPID_INT + 1];
  int filled;
} group_entry;

struct tagRtGroupInfo {
  uint32_t magic;
  uint32_t count;
  group_entry groups[GROUP_COUNT];
};

static int info_valid(const aclrtGroupInfo *g) { return g != NULL && g->magic == GROUPINFO_MAGIC; }

aclError aclrtGetGroupCount(uint32_t *count) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (count == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "count is NULL");
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  *count = GROUP_COUNT;
  return 0;
}

aclError aclrtSetGroup(int32_t groupId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  if (groupId < 0 || groupId >= GROUP_COUNT)
    return ACL__FAIL(ACL_ERROR_RT_GROUP_NOT_CREATE,
                     "group %d does not exist: the simulated device has one group, id 0, holding all its cores. "
                     "Remedy: pass a group id from aclrtGetAllGroupInfo (ACL_GROUP_GROUPID_INT)",
                     (int)groupId);
  return 0;
}

aclrtGroupInfo *aclrtCreateGroupInfo(void) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (acl__context_current(__func__, &rc) == NULL)
    return NULL;
  aclrtGroupInfo *g = calloc(1, sizeof *g);
  if (g == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for the group information");
    return NULL;
  }
  g->magic = GROUPINFO_MAGIC;
  g->count = GROUP_COUNT;
  return g;
}

aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo) {
  ACL__PROF_API_SCOPE();
  if (groupInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupInfo is NULL");
  if (!info_valid(groupInfo))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupInfo %p was not made by aclrtCreateGroupInfo, or was destroyed",
                     (void *)groupInfo);
  groupInfo->magic = 0;
  free(groupInfo);
  return 0;
}

aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (groupInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupInfo is NULL");
  if (!info_valid(groupInfo))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupInfo %p was not made by aclrtCreateGroupInfo, or was destroyed",
                     (void *)groupInfo);
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  const acl__device_props *p = &c->dev->props;
  group_entry *e = &groupInfo->groups[0];
  memset(e, 0, sizeof *e);
  e->attr[ACL_GROUP_AICORE_INT] = p->ai_core_num;
  e->attr[ACL_GROUP_AIV_INT] = p->vector_core_num;
  e->attr[ACL_GROUP_AIC_INT] = p->ai_core_num;
  e->attr[ACL_GROUP_SDMANUM_INT] = 1;  /* copies run on the executors: one engine's worth */
  e->attr[ACL_GROUP_ASQNUM_INT] = 1;
  e->attr[ACL_GROUP_GROUPID_INT] = 0;
  e->filled = 1;
  return 0;
}

aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                 void *attrValue, size_t valueLen, size_t *paramRetSize) {
  ACL__PROF_API_SCOPE();
  if (groupInfo == NULL || attrValue == NULL || paramRetSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     groupInfo == NULL ? "groupInfo" : attrValue == NULL ? "attrValue" : "paramRetSize");
  if (!info_valid(groupInfo))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupInfo %p was not made by aclrtCreateGroupInfo, or was destroyed",
                     (const void *)groupInfo);
  if (groupIndex < 0 || (uint32_t)groupIndex >= groupInfo->count)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "groupIndex %d is out of range: there %s %u group%s",
                     (int)groupIndex, groupInfo->count == 1 ? "is" : "are", groupInfo->count,
                     groupInfo->count == 1 ? "" : "s");
  if ((int)attr < ACL_GROUP_AICORE_INT || (int)attr > ACL_GROUP_GROUPID_INT)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtGroupAttr value (0..5)", (int)attr);
  if (valueLen < sizeof(int32_t))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "valueLen %zu is too small: the attribute is an int32_t (4 bytes)",
                     valueLen);
  const group_entry *e = &groupInfo->groups[groupIndex];
  if (!e->filled)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "groupInfo holds no information yet. Remedy: call aclrtGetAllGroupInfo(groupInfo) first");
  memcpy(attrValue, &e->attr[attr], sizeof(int32_t));
  *paramRetSize = sizeof(int32_t);
  return 0;
}
