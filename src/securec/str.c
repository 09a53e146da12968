/*
 * str.c - strcpy_s, strncpy_s, strcat_s, strncat_s, strtok_s.
 *
 * As for the memory functions: an unusable destination (NULL, size 0, size
 * above SECUREC_STRING_MAX_LEN) is reported untouched; every later failure
 * leaves an empty string in it (strDest[0] = '\0'), never a cut one.  A copy
 * "fits" when the result and its NUL take at most destMax bytes.
 */
#include <stdint.h>
#include <string.h>

#include "securec.h"

static int dest_size_bad(size_t destMax) { return destMax == 0 || destMax > SECUREC_STRING_MAX_LEN; }

static int overlaps(const char *a, size_t an, const char *b, size_t bn) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return x < y + bn && y < x + an;
}

/* Appends src[0..n) (n already known to fit) at strDest + at, checking for overlap. */
static errno_t put(char *strDest, size_t destMax, size_t at, const char *src, size_t n) {
  if (overlaps(strDest, destMax, src, n + 1) || overlaps(strDest + at, n + 1, src, n)) {
    strDest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  memcpy(strDest + at, src, n);
  strDest[at + n] = '\0';
  return EOK;
}

errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (strDest == NULL)
    return EINVAL;
  if (strSrc == NULL) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  if (strDest == strSrc)
    return strnlen(strSrc, destMax) < destMax ? EOK : ERANGE;
  size_t n = strnlen(strSrc, destMax);
  if (n >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return put(strDest, destMax, 0, strSrc, n);
}

errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (strDest == NULL)
    return EINVAL;
  if (strSrc == NULL || count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return strSrc == NULL ? EINVAL_AND_RESET : ERANGE_AND_RESET;
  }
  size_t n = strnlen(strSrc, count < destMax ? count : destMax);
  if (n >= destMax) { /* count characters (or all of a shorter source) must fit with the NUL */
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (strDest == strSrc)
    return EOK;
  return put(strDest, destMax, 0, strSrc, n);
}

errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (strDest == NULL)
    return EINVAL;
  if (strSrc == NULL) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  size_t at = strnlen(strDest, destMax);
  if (at == destMax) { /* the destination is not a string within destMax */
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  size_t n = strnlen(strSrc, destMax - at);
  if (at + n >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return put(strDest, destMax, at, strSrc, n);
}

errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (strDest == NULL)
    return EINVAL;
  if (strSrc == NULL || count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return strSrc == NULL ? EINVAL_AND_RESET : ERANGE_AND_RESET;
  }
  size_t at = strnlen(strDest, destMax);
  if (at == destMax) {
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  size_t room = destMax - at;
  size_t n = strnlen(strSrc, count < room ? count : room);
  if (n >= room) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return put(strDest, destMax, at, strSrc, n);
}

char *strtok_s(char *strToken, const char *strDelimit, char **context) {
  if (context == NULL || strDelimit == NULL)
    return NULL;
  char *s = strToken != NULL ? strToken : *context;
  if (s == NULL)
    return NULL;
  s += strspn(s, strDelimit);
  if (*s == '\0') {
    *context = s;
    return NULL;
  }
  char *end = s + strcspn(s, strDelimit);
  if (*end != '\0')
    *end++ = '\0';
  *context = end;
  return s;
}
