/* rt_memory.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_rt_memory_methods[] = {{NULL, NULL, 0, NULL}};
