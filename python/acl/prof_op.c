/* prof_op.c - placeholder: filled in by its owner. */
#include "pyacl.h"
const pyacl_stub pyacl_prof_stubs[] = {{NULL, NULL, NULL, PYACL_RET}};
const pyacl_stub pyacl_op_stubs[] = {{NULL, NULL, NULL, PYACL_RET}};
