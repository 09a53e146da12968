/*
 * ms_tools_ext.c - libms_tools_ext.so: the mstx functions of
 * include/mstx/ms_tools_ext.h compiled once, exported, for programs that
 * define MSTX_NO_IMPL and link -lms_tools_ext instead of using the inline
 * header.  They bind to the tool named by MSTX_INJECTION_PATH on first use,
 * exactly like the header (mstx_detail/mstx_impl.h); this library holds no
 * other code.
 */
#define MSTX_BUILD_LIBRARY 1
#include "mstx/ms_tools_ext.h"
