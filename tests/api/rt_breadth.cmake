# The runtime breadth of rt-breadth.md, sections 3 (devices), 4 (host-function
# threads, exception callbacks, error details), 6 (custom allocators) and 7
# (labels): black-box tests with small programs in the style of the vendor's
# samples, and the misuse matrix of those functions (api/misuse_devices/*).
# Their kernels are a shared object built here (OPENACL_TEST_EXT_KERNELS).
add_library(openacl_test_ext_kernels SHARED ${CMAKE_CURRENT_LIST_DIR}/rt_ext_kernels.c)
target_include_directories(openacl_test_ext_kernels PRIVATE ${PROJECT_SOURCE_DIR}/include)
set_target_properties(openacl_test_ext_kernels PROPERTIES C_VISIBILITY_PRESET hidden)
target_compile_definitions(openacl_test_ext_kernels PRIVATE _GNU_SOURCE)

foreach(t device_ext exception hostfunc allocator label)
  openacl_test(api_rt_${t} GROUP api/rt/${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/rt_${t}.c LABELS threads)
  target_compile_definitions(api_rt_${t} PRIVATE
    OPENACL_TEST_EXT_KERNELS="$<TARGET_FILE:openacl_test_ext_kernels>")
  add_dependencies(api_rt_${t} openacl_test_ext_kernels)
endforeach()

openacl_test(api_misuse_devices GROUP api/misuse_devices SOURCES ${CMAKE_CURRENT_LIST_DIR}/misuse_devices.c
  LABELS threads)
target_compile_definitions(api_misuse_devices PRIVATE
  OPENACL_TEST_EXT_KERNELS="$<TARGET_FILE:openacl_test_ext_kernels>")
add_dependencies(api_misuse_devices openacl_test_ext_kernels)
