# Device and pinned host memory (api/memory/*): sizing, capacity, frees,
# copies of every kind, fills, asynchronous copies, peers, the host-access
# trap, the caching allocator, leak reports.  Several tests use threads.
openacl_test(api_memory GROUP api/memory SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory.c LABELS threads)
