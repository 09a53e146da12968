# Data dump (api/dump/*, docs/dump.md): the acl.json dump section and the
# runtime dump API on small ONNX models written by dump_util.c, the dump
# callback, path queries and exception-info helpers, through the public API.
openacl_test(api_dump GROUP api/dump SOURCES ${CMAKE_CURRENT_LIST_DIR}/dump.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_dump PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/dump_util.c)
target_include_directories(api_dump PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_dump openacl_objects)

# Exception dump of a failing kernel launch: the test kernels of rt_breadth.cmake.
openacl_test(api_dump_kernel GROUP api/dump_kernel SOURCES ${CMAKE_CURRENT_LIST_DIR}/dump_kernel.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
target_sources(api_dump_kernel PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/dump_util.c)
target_include_directories(api_dump_kernel PRIVATE ${OPENACL_GEN_DIR})
target_compile_definitions(api_dump_kernel PRIVATE OPENACL_TEST_EXT_KERNELS="$<TARGET_FILE:openacl_test_ext_kernels>")
add_dependencies(api_dump_kernel openacl_objects openacl_test_ext_kernels)

# Dump of aclnn operators: dump_op_switch and aclDumpOpTensors.
openacl_test(api_dump_aclnn GROUP api/dump_aclnn SOURCES ${CMAKE_CURRENT_LIST_DIR}/dump_aclnn.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
target_sources(api_dump_aclnn PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/dump_util.c)
target_include_directories(api_dump_aclnn PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_dump_aclnn openacl_objects)
