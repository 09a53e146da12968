/*
 * acl/acl_dump.h - the dump API (docs/dump.md): the dump-data callback,
 * the dump path query, the exception-info helpers and the operator info
 * record switch, with the vendor's names, values and layouts.
 */
#ifndef INC_EXTERNAL_ACL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_ACL_DUMP_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACL_DUMP_API
#define ACL_DUMP_API __attribute__((visibility("default")))
#endif
#ifndef ACL_DUMP_WEAK
#define ACL_DUMP_WEAK __attribute__((weak))
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096
#define ACL_DUMP_MAX_SHAPE_NUM 25
#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/* One piece of a dump file handed to the acldumpRegCallback callback
 * (sizeof 4120 on LP64; dataBuf holds bufLen bytes). */
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* absolute path of the file this piece belongs to */
  uint32_t bufLen;                              /* bytes in dataBuf */
  uint32_t isLastChunk;                         /* 1 on the file's last piece */
  int64_t offset;                               /* where the piece goes in the file */
  int32_t flag;                                 /* reserved, 0 */
#if defined(__GNUC__) || defined(__clang__)
  __extension__ uint8_t dataBuf[0];
#else
  uint8_t dataBuf[];
#endif
} acldumpChunk;

typedef enum acldumpType {
  AIC_ERR_BRIEF_DUMP = 1,
  AIC_ERR_NORM_DUMP = 2,
  AIC_ERR_DETAIL_DUMP = 3,
  DATA_DUMP = 4,
  OVERFLOW_DUMP = 5
} acldumpType;

typedef enum acldumpTensorType {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT = 1,
  ACL_DUMP_TENSOR_WORKSPACE = 2
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
  ACL_DUMP_ADDR_PTR = 0,
  ACL_DUMP_ADDR_PTR_PTR = 1,
  ACL_DUMP_ADDR_RAW = 2
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST = 1,
  ACL_DUMP_PLACEMENT_END = 2
} acldumpTensorPlacement;

typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;
  int32_t format;
  int32_t dataType;
  int64_t *tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;
  uint32_t shapeNum;
  uint32_t originShapeNum;
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

ACL_DUMP_API aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t),
                                         int32_t flag);
ACL_DUMP_API void acldumpUnregCallback(void);
ACL_DUMP_API const char *acldumpGetPath(acldumpType dumpType);
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                                                    const acldumpTensorInfo *tensors,
                                                                    size_t tensorCount);
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);
ACL_DUMP_API aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);
ACL_DUMP_API aclError aclopStopDumpArgs(uint32_t dumpType);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_DUMP_H_ */
