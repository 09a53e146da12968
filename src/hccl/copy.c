/*
 * copy.c - the copy of a large block that nothing reads soon: a same-host
 * transfer's data (transport_shm.c) and a rank's own block of an exchange
 * (op.c).  From HCCL__COPY_STREAM_MIN bytes on x86 it uses non-temporal
 * stores, which write around the caches: the copy then reads the source
 * and writes the destination once each, where a plain memcpy (glibc's
 * `rep movsb` up to its non-temporal threshold, which it sets from the
 * cache size the machine reports, 288 MiB on a VM that reports 384 MiB of
 * L3) first reads every destination line in.  Two ranks copying 8 MiB each
 * at once out of device memory took 456 us instead of 605 this way (2-core
 * EPYC VM).  Smaller blocks, which the caller may read while they are still
 * in the caches, and other machines use memcpy.
 */
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "hccl/hccl_int.h"

void hccl__copy_large(void *dst, const void *src, size_t n) {
#if defined(__SSE2__)
  if (n >= HCCL__COPY_STREAM_MIN) {
    char *d = dst;
    const char *s = src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    for (; n >= 64; d += 64, s += 64, n -= 64) {
      __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 16));
      __m128i c = _mm_loadu_si128((const __m128i *)(s + 32)), e = _mm_loadu_si128((const __m128i *)(s + 48));
      _mm_stream_si128((__m128i *)d, a);
      _mm_stream_si128((__m128i *)(d + 16), b);
      _mm_stream_si128((__m128i *)(d + 32), c);
      _mm_stream_si128((__m128i *)(d + 48), e);
    }
    _mm_sfence(); /* the stores are seen before whatever says the copy is done */
    memcpy(d, s, n);
    return;
  }
#endif
  memcpy(dst, src, n);
}
