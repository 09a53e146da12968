# The Python layer's tests (docs/python.md), label "python":
#   python/<stem>         every tests/python/test_*.py, run by pytest under
#                         Debian's /usr/bin/python3 (numpy, PyTorch, Pillow)
#   python/import/<name>  smoke_import.py under each interpreter the module
#                         was built for, numpy or not: `import acl` needs
#                         neither a device nor numpy
# PYTHONPATH points at the build tree's python/ (the module and a link to
# the openacl package).  Tests that compare with exported networks read
# OPENACL_MODELS_DIR and skip without it (scripts/test.sh sets it).
if(NOT OPENACL_PYTHON_BUILT)
  return()
endif()
set(py_env "PYTHONPATH=${OPENACL_PYTHON_DIR}" "ASCEND_PROCESS_LOG_PATH=${PROJECT_BINARY_DIR}/test-logs"
  "PYTHONDONTWRITEBYTECODE=1")

foreach(py ${OPENACL_PYTHON_BUILT})
  string(MAKE_C_IDENTIFIER "${py}" py_id)
  add_test(NAME python/import/${py_id} COMMAND ${py} ${CMAKE_CURRENT_LIST_DIR}/smoke_import.py)
  set_tests_properties(python/import/${py_id} PROPERTIES TIMEOUT 60 ENVIRONMENT "${py_env}" LABELS python)
endforeach()

set(pytest_python /usr/bin/python3)
if(NOT pytest_python IN_LIST OPENACL_PYTHON_BUILT)
  message(STATUS "openacl Python tests: the module is not built for ${pytest_python}; pytest files skipped")
  return()
endif()
execute_process(COMMAND ${pytest_python} -c "import pytest, numpy" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(STATUS "openacl Python tests: ${pytest_python} lacks pytest or numpy (python3-pytest, python3-numpy); skipped")
  return()
endif()
# Generated files stay in step with the inventory and the module.
add_test(NAME python/generated/acl_stubs
  COMMAND ${pytest_python} ${PROJECT_SOURCE_DIR}/scripts/python/gen_acl_stubs.py --check)
add_test(NAME python/generated/inventory_doc
  COMMAND ${pytest_python} ${PROJECT_SOURCE_DIR}/scripts/python/inventory_table.py --check)
set_tests_properties(python/generated/acl_stubs python/generated/inventory_doc PROPERTIES
  TIMEOUT 60 ENVIRONMENT "${py_env}" LABELS python)

file(GLOB py_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_*.py)
foreach(t ${py_tests})
  get_filename_component(stem ${t} NAME_WE)
  string(REGEX REPLACE "^test_" "" stem ${stem})
  add_test(NAME python/${stem}
    COMMAND ${pytest_python} -m pytest -q -p no:cacheprovider ${t}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # a shared device of its own: test files running at once (and other builds'
  # tests) never meet in one registry (docs/processes.md)
  set_tests_properties(python/${stem} PROPERTIES TIMEOUT 600
    ENVIRONMENT "${py_env};OPENACL_SHARED_DEVICE_NAME=py_${stem}" LABELS python)
endforeach()
