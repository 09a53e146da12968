/* acl_tensor.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_acl_tensor_methods[] = {{NULL, NULL, 0, NULL}};
const pyacl_stub pyacl_acl_stubs[] = {{NULL, NULL, NULL, PYACL_RET}};
