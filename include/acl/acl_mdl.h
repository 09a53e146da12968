/*
 * acl/acl_mdl.h - the model API's types: model, dataset and AIPP handles,
 * the model constants, the configuration enums and the public structs that
 * describe inputs and outputs (aclmdlIODims and friends), the dataset
 * functions, and model loading and descriptions.  openacl runs models from
 * ONNX files; the other aclmdl* functions are declared here once openacl
 * implements them.
 */
#ifndef INC_EXTERNAL_ACL_ACL_MDL_H_
#define INC_EXTERNAL_ACL_ACL_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_MAX_SHAPE_COUNT 128
#define ACL_DIM_ENDPOINTS 2
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

/* Load types (ACL_MDL_LOAD_TYPE_SIZET of aclmdlSetConfigOpt). */
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

/* Names of the extra inputs of dynamic-shape and dynamic-AIPP models. */
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
#define ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES "_datadump_original_op_names"

/* Values of ACL_MDL_WORKSPACE_MEM_OPTIMIZE. */
#define ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT 0
#define ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT 1

#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

/* Opaque handles. */
typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlAIPP aclmdlAIPP;
typedef struct aclAippExtendInfo aclAippExtendInfo;
typedef struct aclmdlConfigHandle aclmdlConfigHandle;
typedef struct aclmdlExecConfigHandle aclmdlExecConfigHandle;
typedef struct aclmdlBundleQueryInfo aclmdlBundleQueryInfo;
typedef void *aclmdlModel;

typedef enum aclAippInputFormat {
  ACL_YUV420SP_U8 = 1,
  ACL_XRGB8888_U8 = 2,
  ACL_RGB888_U8 = 3,
  ACL_YUV400_U8 = 4,
  ACL_NC1HWC0DI_FP16 = 5,
  ACL_NC1HWC0DI_S8 = 6,
  ACL_ARGB8888_U8 = 7,
  ACL_YUYV_U8 = 8,
  ACL_YUV422SP_U8 = 9,
  ACL_AYUV444_U8 = 10,
  ACL_RAW10 = 11,
  ACL_RAW12 = 12,
  ACL_RAW16 = 13,
  ACL_RAW24 = 14,
  ACL_AIPP_RESERVED = 0xFFFF
} aclAippInputFormat;

typedef enum aclmdlConfigAttr {
  ACL_MDL_PRIORITY_INT32 = 0,
  ACL_MDL_LOAD_TYPE_SIZET = 1,
  ACL_MDL_PATH_PTR = 2,
  ACL_MDL_MEM_ADDR_PTR = 3,
  ACL_MDL_MEM_SIZET = 4,
  ACL_MDL_WEIGHT_ADDR_PTR = 5,
  ACL_MDL_WEIGHT_SIZET = 6,
  ACL_MDL_WORKSPACE_ADDR_PTR = 7,
  ACL_MDL_WORKSPACE_SIZET = 8,
  ACL_MDL_INPUTQ_NUM_SIZET = 9,
  ACL_MDL_INPUTQ_ADDR_PTR = 10,
  ACL_MDL_OUTPUTQ_NUM_SIZET = 11,
  ACL_MDL_OUTPUTQ_ADDR_PTR = 12,
  ACL_MDL_WORKSPACE_MEM_OPTIMIZE = 13,
  ACL_MDL_WEIGHT_PATH_PTR = 14,
  ACL_MDL_MODEL_DESC_PTR = 15,
  ACL_MDL_MODEL_DESC_SIZET = 16,
  ACL_MDL_KERNEL_PTR = 17,
  ACL_MDL_KERNEL_SIZET = 18,
  ACL_MDL_KERNEL_ARGS_PTR = 19,
  ACL_MDL_KERNEL_ARGS_SIZET = 20,
  ACL_MDL_STATIC_TASK_PTR = 21,
  ACL_MDL_STATIC_TASK_SIZET = 22,
  ACL_MDL_DYNAMIC_TASK_PTR = 23,
  ACL_MDL_DYNAMIC_TASK_SIZET = 24,
  ACL_MDL_MEM_MALLOC_POLICY_SIZET = 25,
  ACL_MDL_FIFO_PTR = 26,
  ACL_MDL_FIFO_SIZET = 27,
  ACL_MDL_WITHOUT_GRAPH_INT32 = 28,
  ACL_NPU_PERF_MODE = 29,
  ACL_MDL_RESERVED = 0xFFFF
} aclmdlConfigAttr;

typedef enum aclmdlAttr {
  ACL_MDL_ATTR_PRIORITY_INT32 = 0
} aclmdlAttr;

typedef enum aclmdlExecConfigAttr {
  ACL_MDL_STREAM_SYNC_TIMEOUT = 0,
  ACL_MDL_EVENT_SYNC_TIMEOUT = 1,
  ACL_MDL_WORK_ADDR_PTR = 2,
  ACL_MDL_WORK_SIZET = 3,
  ACL_MDL_MPAIMID_SIZET = 4,
  ACL_MDL_AICQOS_SIZET = 5,
  ACL_MDL_AICOST_SIZET = 6,
  ACL_MDL_MEC_TIMETHR_SIZET = 7,
  ACL_MDL_EXEC_PRIORITY_INT32 = 8,
  ACL_MDL_NPU_PERF_MODE = 9
} aclmdlExecConfigAttr;

typedef enum aclmdlInputAippType {
  ACL_DATA_WITHOUT_AIPP = 0,
  ACL_DATA_WITH_STATIC_AIPP = 1,
  ACL_DATA_WITH_DYNAMIC_AIPP = 2,
  ACL_DYNAMIC_AIPP_NODE = 3
} aclmdlInputAippType;

/* Public structs; the field order is the ABI. */

/* The shape of one input or output.  Dynamic dimensions are -1. */
typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

/* [min, max] of each dimension of a dynamic input. */
typedef struct aclmdlIODimsRange {
  size_t rangeCount;
  int64_t range[ACL_MAX_DIM_CNT][ACL_DIM_ENDPOINTS];
} aclmdlIODimsRange;

/* The batch sizes a dynamic-batch model accepts. */
typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

/* The (height, width) pairs a dynamic-resolution model accepts. */
typedef struct aclmdlHW {
  size_t hwCount;
  uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

typedef struct aclAippDims {
  aclmdlIODims srcDims;
  size_t srcSize;
  aclmdlIODims aippOutdims;
  size_t aippOutSize;
} aclAippDims;

/* Memory sizes a model needs (aclmdlQueryExeOMDesc). */
typedef struct aclmdlExeOMDesc {
  size_t workSize;
  size_t weightSize;
  size_t modelDescSize;
  size_t kernelSize;
  size_t kernelArgsSize;
  size_t staticTaskSize;
  size_t dynamicTaskSize;
  size_t fifoTaskSize;
  size_t reserved[8];
} aclmdlExeOMDesc;

/* aclmdlSetAttribute / aclmdlGetAttribute. */
typedef union aclmdlAttrValue {
  uint32_t mdlPriority;
  uint32_t reserved[8];
} aclmdlAttrValue_t;

/* Datasets: the input or output buffers of one execution, each with an
 * optional tensor descriptor.  A dataset never owns its buffers
 * (aclmdlDestroyDataset leaves them alone); it owns copies of the
 * descriptors set with aclmdlSetDatasetTensorDesc. */
ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer);
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc,
                                                        size_t index);
ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index);

/* Loading (ONNX files; see docs/models.md).  Load, execute and unload a
 * model in the same context. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);
/* Loading into caller-provided device memory (aclrtMalloc on the current
 * device): workPtr for the working memory, weightPtr for the weights, each at
 * least the size aclmdlQuerySize reports; NULL with size 0 lets openacl
 * manage that part.  The memory must outlive the model. */
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr,
                                                       size_t workSize, void *weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId,
                                                      void *workPtr, size_t workSize, void *weightPtr,
                                                      size_t weightSize);
/* Loading from a configuration handle (openacl: model_config_api.c). */
ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle);
ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize,
                                                    size_t *weightSize);

/* Execution on the reference executor (see docs/models.md, "Executing
 * models").  Inputs and outputs are device memory (aclrtMalloc), one buffer
 * per model input / output, each exactly the tensor's size.  aclmdlExecute
 * runs on the current context's default stream and waits; aclmdlExecuteAsync
 * queues the run on `stream` (NULL = the default stream). */
ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output);
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream);

/* Model descriptions: the inputs and outputs of a model. */
ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath);
ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
/* The "current" output dims: for a model with gears, those of the gear last chosen on the description's
 * model (the largest before any); otherwise the declared dims, -1 for a symbolic dimension (as
 * aclmdlGetOutputDims).  An execution's actual output shape is the tensor descriptor it leaves in the
 * output dataset (aclmdlGetDatasetTensorDesc). */
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims);
ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index);

/* Gears of dynamic models (the OPENACL_DYNAMIC_BATCH / _HW / _DIMS variables at load; docs/models.md,
 * "Gears").  index arguments marked "reserved" take -1.  A model of another kind reports 0 gears. */
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index,
                                                            size_t *gearCount);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims,
                                                       size_t gearCount);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index,
                                                     aclmdlIODimsRange *dimsRange);
/* Choose the gear of the next executions with `dataset` as input; index is the input named
 * ACL_DYNAMIC_TENSOR_NAME.  ACL_ERROR_MODEL_NOT_DYNAMIC for a model without such gears,
 * ACL_ERROR_INVALID_PARAM for a value that is not a gear. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                    uint64_t height, uint64_t width);
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                                                       const aclmdlIODims *dims);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_MDL_H_ */
