# libFuzzer targets (OPENACL_FUZZ=ON, clang only).  tests/fuzz/run_fuzz.sh
# builds and runs them.
#
# The library sources are compiled a second time, into openacl_fuzz_objects,
# with -fsanitize=fuzzer-no-link plus ASan/UBSan, so that libFuzzer sees
# coverage inside the library; the normal objects, the shared library and
# the other tests stay as they are.
if(NOT OPENACL_FUZZ)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(WARNING "OPENACL_FUZZ needs clang (CMAKE_C_COMPILER=clang); the fuzz targets are skipped")
  return()
endif()

set(OPENACL_FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)

add_library(openacl_fuzz_objects OBJECT ${OPENACL_SOURCES})
target_include_directories(openacl_fuzz_objects PRIVATE
  $<TARGET_PROPERTY:openacl_objects,INCLUDE_DIRECTORIES>)
# The generated ONNX parser's source is shared with openacl_objects, which
# generates it; build that first.
add_dependencies(openacl_fuzz_objects openacl_objects)
set_source_files_properties(${OPENACL_GEN_DIR}/onnx.pb-c.c PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-w")
target_compile_definitions(openacl_fuzz_objects PRIVATE
  $<TARGET_PROPERTY:openacl_objects,COMPILE_DEFINITIONS>)
target_compile_options(openacl_fuzz_objects PRIVATE ${OPENACL_FUZZ_FLAGS})
target_include_directories(openacl_fuzz_objects SYSTEM PRIVATE ${OPENACL_DNNL_INCLUDE})
target_link_libraries(openacl_fuzz_objects PUBLIC PkgConfig::JANSSON PkgConfig::PROTOBUFC ${OPENACL_DNNL_LIB}
  Threads::Threads)

# openacl_fuzz_target(<name> <source>)
function(openacl_fuzz_target name source)
  add_executable(${name} ${source} $<TARGET_OBJECTS:openacl_fuzz_objects>)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include
    ${OPENACL_GEN_DIR})
  target_compile_definitions(${name} PRIVATE OPENACL_BUILDING=1 _GNU_SOURCE)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE PkgConfig::JANSSON PkgConfig::PROTOBUFC ${OPENACL_DNNL_LIB} Threads::Threads
    ${CMAKE_DL_LIBS} m)
endfunction()

openacl_fuzz_target(fuzz_config ${CMAKE_CURRENT_LIST_DIR}/fuzz_config.c)
openacl_fuzz_target(fuzz_onnx ${CMAKE_CURRENT_LIST_DIR}/fuzz_onnx.c)
