# The optimised model engine against the reference executor, on graphs built
# in memory: fusions, layouts, fallbacks, a plan per shape, threads.
openacl_test(unit_engine INTERNAL GROUP unit/engine SOURCES ${CMAKE_CURRENT_LIST_DIR}/engine.c LIBS m
  LABELS threads)
