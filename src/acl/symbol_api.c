/*
 * symbol_api.c - device symbols: the globals of kernel binaries, found by
 * the host through their symbol (aclrtGetSymbolAddress/Size) and copied to
 * and from (aclrtMemcpyTo/FromSymbol[Async]).  openacl's kernel loader does
 * not look up data symbols in a binary yet (that needs a backend hook), so
 * these check their arguments and say they are not implemented.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"

aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr) {
  if (symbol == NULL || devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "devPtr");
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtGetSymbolSize(const void *symbol, size_t *size) {
  if (symbol == NULL || size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "size");
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, aclrtMemcpyKind kind) {
  if (symbol == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "src");
  (void)count;
  (void)offset;
  (void)kind;
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind) {
  if (dst == NULL || symbol == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", dst == NULL ? "dst" : "symbol");
  (void)count;
  (void)offset;
  (void)kind;
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  if (symbol == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "src");
  (void)count;
  (void)offset;
  (void)kind;
  (void)stream;
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind,
                                    aclrtStream stream) {
  if (dst == NULL || symbol == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", dst == NULL ? "dst" : "symbol");
  (void)count;
  (void)offset;
  (void)kind;
  (void)stream;
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}
