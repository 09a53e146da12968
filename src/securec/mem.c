/*
 * mem.c - memset_s, memcpy_s, memmove_s.
 *
 * The checks come in a fixed order, so the result says the first thing
 * wrong: an unusable destination (NULL, size 0, size above
 * SECUREC_MEM_MAX_LEN) is reported without touching it; after that every
 * failure clears the destination's destMax bytes, so a caller that ignores
 * the code reads zeros, not half a copy.
 */
#include <stdint.h>
#include <string.h>

#include "securec.h"

static int dest_size_bad(size_t destMax) { return destMax == 0 || destMax > SECUREC_MEM_MAX_LEN; }

static int overlaps(const void *a, size_t an, const void *b, size_t bn) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return x < y + bn && y < x + an;
}

errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (dest == NULL)
    return EINVAL;
  if (count > destMax) {
    memset(dest, c, destMax); /* fill what fits, and say it did not all fit */
    return ERANGE_AND_RESET;
  }
  memset(dest, c, count);
  return EOK;
}

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (dest == NULL)
    return EINVAL;
  if (count == 0)
    return EOK;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (dest == src)
    return EOK;
  if (overlaps(dest, count, src, count)) {
    memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (dest_size_bad(destMax))
    return ERANGE;
  if (dest == NULL)
    return EINVAL;
  if (count == 0)
    return EOK;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  memmove(dest, src, count); /* overlap is what memmove is for */
  return EOK;
}
