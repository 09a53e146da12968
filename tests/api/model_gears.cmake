# Gears of dynamic models and loading with caller memory (api/model_gears/*):
# OPENACL_DYNAMIC_BATCH / _HW / _DIMS at load, the description (largest gear,
# the extra input ACL_DYNAMIC_TENSOR_NAME), aclmdlGetDynamicBatch & co.,
# aclmdlSet{DynamicBatchSize,DynamicHWSize,InputDynamicDims}, executions at
# several gears compared with the same model run with tensor descriptors;
# aclmdlQuerySize* and aclmdlLoadFrom{File,Mem}WithMem.  The models are
# written by the test with the protobuf-c structs generated from onnx.proto.
openacl_test(api_model_gears GROUP api/model_gears SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_gears.c
  LIBS PkgConfig::PROTOBUFC)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_model_gears PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c ${CMAKE_CURRENT_LIST_DIR}/model_helpers.c)
target_include_directories(api_model_gears PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_model_gears openacl_objects)
