/* rt_callback.c - placeholder: filled in by its owner. */
#include "pyacl.h"
PyMethodDef pyacl_rt_callback_methods[] = {{NULL, NULL, 0, NULL}};
