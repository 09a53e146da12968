/*
 * securectype.h - the types and limits of the bounds-checked C library
 * (securec.h), as the vendor's toolkit ships them: errno_t, the result
 * codes and the largest sizes the functions accept.
 */
#ifndef OPENACL_SECURECTYPE_H
#define OPENACL_SECURECTYPE_H

#include <stddef.h>
#include <stdarg.h>
#include <errno.h>

/* C11 Annex K's name; glibc does not define it (repeating the same typedef is
 * valid C11 and C++). */
typedef int errno_t;

/* Success, and the failures: a plain code when nothing was written, the
 * same code with 128 set ("_AND_RESET") when the destination was cleared. */
#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

/* The largest destination sizes accepted: anything above is taken for a
 * negative number converted to size_t, a bug. */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

#endif
