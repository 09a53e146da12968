# Executing models (api/model_exec/*): aclmdlExecute, aclmdlExecuteAsync on
# the reference executor, through the public API only, with libonnx-testdata
# models and their reference inputs and outputs (.pb files read with the
# protobuf-c structs generated from onnx.proto).
openacl_test(api_model_exec GROUP api/model_exec SOURCES ${CMAKE_CURRENT_LIST_DIR}/model_exec.c
  LIBS PkgConfig::PROTOBUFC LABELS threads)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_sources(api_model_exec PRIVATE ${OPENACL_GEN_DIR}/onnx.pb-c.c)
target_include_directories(api_model_exec PRIVATE ${OPENACL_GEN_DIR})
add_dependencies(api_model_exec openacl_objects)
