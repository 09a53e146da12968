# Host callbacks on streams (api/callback/*): aclrtSubscribeReport,
# aclrtProcessReport, aclrtUnSubscribeReport, aclrtLaunchCallback and
# aclrtLaunchHostFunc - thread model, ordering, error codes, forbidden calls
# from inside callbacks, teardown with callbacks pending, stress.
openacl_test(api_callback GROUP api/callback SOURCES ${CMAKE_CURRENT_LIST_DIR}/callback.c LABELS threads)
