/* rt_stubs.c - placeholder: filled in by its owner. */
#include "pyacl.h"
const pyacl_stub pyacl_rt_stubs[] = {{NULL, NULL, NULL, PYACL_RET}};
