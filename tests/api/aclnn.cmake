# The aclnn operator API (issue 14 section 2, docs/aclnn.md): every
# operator on every listed type against references computed in the tests
# (api/aclnn/ops/*), the rules of promotion, casting, broadcasting, views
# and alpha (api/aclnn/semantics/*), and the common layer: objects and
# status codes (api/aclnn/objects/*), executors and phase 2 on streams
# (api/aclnn/common/*).
foreach(t objects ops semantics common activation compare matmul conv norm reduce pool scan clamp)
  openacl_test(api_aclnn_${t} GROUP api/aclnn/${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/aclnn_${t}.c LABELS threads)
  target_link_libraries(api_aclnn_${t} PRIVATE m)
endforeach()
# Indexing, gather / scatter, selection (reference aclnn.md 8.9); attention (8.14).
foreach(t index attention)
  openacl_test(api_aclnn_${t} GROUP api/aclnn/${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/aclnn_${t}.c LABELS threads)
  target_link_libraries(api_aclnn_${t} PRIVATE m)
endforeach()
# The shape, fill / creation and random operators (reference 8.8, 8.12, 8.13).
foreach(t shape fill random)
  openacl_test(api_aclnn_${t} GROUP api/aclnn/${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/aclnn_${t}.c LABELS threads)
  target_link_libraries(api_aclnn_${t} PRIVATE m)
endforeach()
