# The misuse matrix of rt-breadth section 5's memory families
# (api/misuse_memory/*): registration, managed memory, batches,
# descriptors, pointer-held copies, cache operations, queries.  Each case
# runs in its own forked child; one ctest entry per area.
openacl_test(api_misuse_memory GROUP api/misuse_memory SOURCES ${CMAKE_CURRENT_LIST_DIR}/misuse_memory.c)
