/*
 * aclnnop/aclnn_util.h - ACLNN_API, the export attribute of every operator
 * function in the aclnnop/aclnn_<op>.h headers.
 */
#ifndef OP_API_INC_ACLNN_UTIL_H_
#define OP_API_INC_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif /* OP_API_INC_ACLNN_UTIL_H_ */
