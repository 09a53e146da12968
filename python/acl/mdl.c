/* mdl.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_mdl_methods[] = {{NULL, NULL, 0, NULL}};
