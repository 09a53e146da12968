/*
 * module.c - PyInit_acl: the `acl` module and its sub-modules.
 *
 * As pyACL: single-phase init, nine sub-modules added in the vendor's order
 * (rt, mdl, media, op, blas, util, prof, himpi, fv), each a plain module
 * registered in sys.modules as "acl.<name>" and set as an attribute of acl,
 * so `import acl.rt`, `from acl import rt` and `acl.rt.x` all work.  Import
 * has no side effects: no aclInit, no device, no numpy.  media, blas, himpi
 * and fv (image/video processing, BLAS, media drivers, feature retrieval)
 * are out of scope and stay empty: calling into them raises AttributeError.
 * acl._openacl, last, holds openacl's own extensions (acl_ext.c).
 */
#include "pyacl.h"

typedef struct submodule {
  const char *name;
  PyMethodDef *tables[12];      /* NULL-terminated list of method tables */
  const pyacl_stub *stubs[2];   /* NULL-terminated list of stub tables */
} submodule;

static const submodule submodules[] = {
    {"rt",
     {pyacl_rt_device_methods, pyacl_rt_stream_methods, pyacl_rt_callback_methods, pyacl_rt_memory_methods,
      pyacl_rt_kernel_methods, pyacl_rt_device_ctl_methods, pyacl_rt_stream_ctl_methods, pyacl_rt_host_mem_methods,
      pyacl_rt_allocator_methods, pyacl_rt_params_methods, pyacl_rt_notify_methods, NULL},
     {pyacl_rt_stubs, NULL}},
    {"mdl", {pyacl_mdl_methods, pyacl_mdl_dims_methods, pyacl_mdl_dump_methods, NULL}, {pyacl_mdl_stubs, NULL}},
    {"media", {NULL}, {NULL}},
    {"op", {pyacl_op_dump_methods, NULL}, {pyacl_op_stubs, NULL}},
    {"blas", {NULL}, {NULL}},
    {"util", {pyacl_util_methods, pyacl_util_thread_methods, NULL}, {NULL}},
    {"prof", {pyacl_prof_methods, NULL}, {NULL}},
    {"himpi", {NULL}, {NULL}},
    {"fv", {NULL}, {NULL}},
    /* Not pyACL's: openacl's extensions for the openacl package. */
    {"_openacl", {pyacl_ext_methods, NULL}, {NULL}},
};

static struct PyModuleDef acl_module = {
    PyModuleDef_HEAD_INIT, "acl", NULL, -1, NULL, NULL, NULL, NULL, NULL,
};

static int add_submodule(PyObject *acl, const submodule *sm) {
  char dotted[32];
  snprintf(dotted, sizeof dotted, "acl.%s", sm->name);
  PyObject *m = PyImport_AddModule(dotted); /* borrowed, owned by sys.modules */
  if (!m)
    return -1;
  for (int i = 0; sm->tables[i]; i++)
    if (PyModule_AddFunctions(m, sm->tables[i]) < 0)
      return -1;
  for (int i = 0; sm->stubs[i]; i++)
    if (pyacl_add_stubs(m, dotted, sm->stubs[i]) < 0)
      return -1;
  Py_INCREF(m);
  if (PyModule_AddObject(acl, sm->name, m) < 0) {
    Py_DECREF(m);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit_acl(void); /* the one exported symbol */
PyMODINIT_FUNC PyInit_acl(void) {
  PyObject *acl = PyModule_Create(&acl_module);
  if (!acl)
    return NULL;
  if (PyModule_AddFunctions(acl, pyacl_acl_methods) < 0 || PyModule_AddFunctions(acl, pyacl_acl_tensor_methods) < 0 ||
      pyacl_add_stubs(acl, "acl", pyacl_acl_stubs) < 0)
    goto fail;
  for (size_t i = 0; i < sizeof submodules / sizeof submodules[0]; i++)
    if (add_submodule(acl, &submodules[i]) < 0)
      goto fail;
  return acl;
fail:
  Py_DECREF(acl);
  return NULL;
}
