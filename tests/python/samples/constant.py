"""constant.py - the constants of the vendor samples (Ascend/samples
resnet50_imagenet_classification/src/constant.py): pyACL defines none, so
every script carries its own."""
# error code
ACL_SUCCESS = 0

# data format
NPY_FLOAT32 = 11
NPY_FLOAT16 = 23

# rule for mem
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2

# rule for memory copy
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3

# run mode
ACL_DEVICE = 0
ACL_HOST = 1

# callback
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1

# aclDataType
ACL_DT_UNDEFINED = -1
ACL_FLOAT = 0
ACL_FLOAT16 = 1
ACL_INT8 = 2
ACL_INT32 = 3
ACL_UINT8 = 4
ACL_INT16 = 6
ACL_UINT16 = 7
ACL_UINT32 = 8
ACL_INT64 = 9
ACL_UINT64 = 10
ACL_DOUBLE = 11
ACL_BOOL = 12

# aclFormat
ACL_FORMAT_NCHW = 0
ACL_FORMAT_NHWC = 1
ACL_FORMAT_ND = 2

# dynamic batch / image size (acllite_model.py)
ACL_DYNAMIC_TENSOR_NAME = "ascend_mbatch_shape_data"
