# Copies beyond aclrtMemcpy and the memory queries (api/memory_batch/*):
# batches, conditional copies, copy descriptors, pointer-held copies, cache
# operations, aclrtCheckMemType, aclrtGetMemUsageInfo, aclrtFreeWithDevSync;
# two devices where it matters.
openacl_test(api_memory_batch GROUP api/memory_batch SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory_batch.c LABELS threads)
