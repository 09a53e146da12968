/*
 * securec.h - bounds-checked memory and string functions (the vendor
 * toolkit's libc_sec): every destination comes with its size, and a call
 * that would overflow it, read a NULL or copy onto itself fails with a code
 * instead of corrupting memory.  openacl's own implementation; link with
 * -lc_sec.
 *
 * Return codes (securectype.h): EOK on success; EINVAL / ERANGE when the
 * destination is unusable (NULL, size 0 or above SECUREC_*_MAX_LEN) and was
 * not touched; EINVAL_AND_RESET, ERANGE_AND_RESET, EOVERLAP_AND_RESET when
 * the source was NULL, too long, or overlapped the destination, and the
 * destination was cleared (its first byte for strings, all destMax bytes
 * for memory) so no half-copied data is left behind.  The formatting
 * functions return the number of characters written, or -1.
 */
#ifndef OPENACL_SECUREC_H
#define OPENACL_SECUREC_H

#include "securectype.h"

#ifdef __cplusplus
extern "C" {
#endif

SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);

SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API char *strtok_s(char *strToken, const char *strDelimit, char **context);

SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
/* At most count characters (and the NUL) into destMax bytes: -1 when the
 * output was cut, at count or at destMax - 1. */
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList)
    __attribute__((format(printf, 4, 0)));
/* Cuts to destMax - 1 characters and returns how many were written. */
SECUREC_API int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
SECUREC_API int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));

#ifdef __cplusplus
}
#endif

#endif
