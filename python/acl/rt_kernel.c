/* rt_kernel.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_rt_kernel_methods[] = {{NULL, NULL, 0, NULL}};
