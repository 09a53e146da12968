/*
 * io_data.c - the handle check of aclDataBuffer (io_data.h), which the API
 * layer and an execution's argument checks share.
 */
#include "model/io_data.h"

#include "common/errmsg.h"
#include "rt/rt.h"

int acl__data_buffer_check(const char *api, const char *arg, const aclDataBuffer *buf) {
  if (buf == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", arg);
  if (acl__handle_valid(buf, ACL__H_DATA_BUFFER))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(buf, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s %p is a %s handle, not an aclDataBuffer",
                       arg, (const void *)buf, acl__handle_type_name((acl__handle_type)t));
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "%s %p is not a live aclDataBuffer (it was destroyed, or never created by aclCreateDataBuffer)",
                   arg, (const void *)buf);
}
