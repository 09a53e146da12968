/* mdl_dims.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_mdl_dims_methods[] = {{NULL, NULL, 0, NULL}};
const pyacl_stub pyacl_mdl_stubs[] = {{NULL, NULL, NULL, PYACL_RET}};
