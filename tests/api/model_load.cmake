# Loading and describing models (api/model_load/*): aclmdlLoadFrom*, aclmdlUnload,
# aclmdlDesc and its queries.  Public API only; the test writes its models with
# the protobuf-c structs generated from onnx.proto (compiled into the test; the
# library's own copy is hidden), and reads a few of libonnx-testdata's.
openacl_test(api_model_load GROUP api/model_load SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_load.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
# Added here, not in SOURCES: openacl_test scans its sources for TEST() at
# configure time, before the parser is generated.
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_model_load PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c)
target_include_directories(api_model_load PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_model_load openacl_objects)
