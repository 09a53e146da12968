# libc_sec (securec.h): every function's result codes and what it leaves in
# the destination, against the documented behaviour.
openacl_test(api_securec GROUP api/securec SOURCES ${CMAKE_CURRENT_LIST_DIR}/securec.c LIBS c_sec)
