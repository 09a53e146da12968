/*
 * print.c - sprintf_s, snprintf_s and their va_list and truncating forms.
 *
 * On top of vsnprintf: an unusable destination or a NULL format is -1 with
 * the destination untouched (or cleared when it is usable); output that
 * does not fit is -1 with an empty destination, except that snprintf_s,
 * asked for at most count characters with count below destMax, leaves the
 * output cut at count (and still returns -1, as the caller may want to
 * know).
 */
#include <stdio.h>

#include "securec.h"

static int dest_size_bad(size_t destMax) { return destMax == 0 || destMax > SECUREC_STRING_MAX_LEN; }

int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList) {
  if (strDest == NULL || dest_size_bad(destMax))
    return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  int n = vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || (size_t)n >= destMax) {
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

int sprintf_s(char *strDest, size_t destMax, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsprintf_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList) {
  if (strDest == NULL || dest_size_bad(destMax) || count > SECUREC_STRING_MAX_LEN)
    return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  /* Room for count characters and the NUL, at most destMax bytes. */
  size_t room = count < destMax ? count + 1 : destMax;
  int n = vsnprintf(strDest, room, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if ((size_t)n >= room) {
    if (count >= destMax) /* it did not fit the buffer: an overflow, not a cut */
      strDest[0] = '\0';
    return -1;
  }
  return n;
}

int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_s(strDest, destMax, count, format, ap);
  va_end(ap);
  return n;
}

int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList) {
  if (strDest == NULL || dest_size_bad(destMax))
    return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  int n = vsnprintf(strDest, destMax, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return (size_t)n >= destMax ? (int)(destMax - 1) : n;
}

int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_truncated_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}
