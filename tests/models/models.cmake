# Real networks exported from PyTorch (models/real/*): each model run at
# batch 1 and 8 through the public API and compared with PyTorch's outputs,
# and one model on two streams at once.  The models and references come
# from scripts/models/export_models.py --refs; OPENACL_MODELS_DIR names their
# directory (scripts/test.sh sets it); without it the tests skip and pass.
# See docs/model-tests.md.
openacl_test(models_real GROUP models/real SOURCES ${CMAKE_CURRENT_LIST_DIR}/real_models.c LIBS m)
# Each test takes seconds on the oneDNN engine, but minutes on the plain-C
# reference executor (OPENACL_MODEL_ENGINE=reference; ResNet-50 about 2
# minutes at batch 1 on a loaded two-core machine, far more at batch 8):
# a limit that lets the reference run too, not the default 120 s.
foreach(t resnet18 resnet50 mobilenet_v2 efficientnet_b0 shufflenet_v2_x1_0 tiny_transformer densenet121
          convnext_tiny mobilenet_v3_large regnet_y_400mf resnext50_32x4d bert_base_l2 two_streams
          resnext50_32x4d_mixed convnext_tiny_mixed bert_base_l2_mixed resnet18_int8 resnext50_32x4d_int8)
  set_tests_properties(models/real/${t} PROPERTIES TIMEOUT 1800)
endforeach()
