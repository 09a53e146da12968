/* util.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_util_methods[] = {{NULL, NULL, 0, NULL}};
