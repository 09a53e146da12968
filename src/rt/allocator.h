/*
 * allocator.h - user allocators registered for streams (allocator.c):
 * descriptors (aclrtAllocatorCreateDesc ...) and the registry behind
 * aclrtAllocatorRegister / GetByStream / Unregister.  The public entry
 * points are in src/acl/allocator_api.c; docs/allocators.md has the rules.
 */
#ifndef OPENACL_RT_ALLOCATOR_H
#define OPENACL_RT_ALLOCATOR_H

#include "acl/acl.h"
#include "rt/rt.h"

/* What a descriptor holds, and what a registration copies. */
typedef struct acl__allocator {
  aclrtAllocator obj;
  aclrtAllocatorAllocFunc alloc;
  aclrtAllocatorFreeFunc free;
  aclrtAllocatorAllocAdviseFunc alloc_advise;     /* may be NULL */
  aclrtAllocatorGetAddrFromBlockFunc get_addr;
} acl__allocator;

/* Descriptors: a live descriptor is a registered handle. */
aclrtAllocatorDesc acl__allocator_desc_create(void);
/* The descriptor behind a handle, or NULL after recording why for `api`. */
acl__allocator *acl__allocator_desc_get(const char *api, aclrtAllocatorDesc desc, int *rc);
void acl__allocator_desc_destroy(acl__allocator *a);

/* The registry, keyed by stream. */
int acl__allocator_register(const char *api, const acl__stream *s, aclrtAllocatorDesc desc, const acl__allocator *a);
/* 1 and the registration when s has one; 0 when not. */
int acl__allocator_lookup(const acl__stream *s, aclrtAllocatorDesc *desc, acl__allocator *out);
void acl__allocator_unregister(const acl__stream *s);
/* The stream is going away (callback.c's acl__callback_stream_gone). */
void acl__allocator_stream_gone(const acl__stream *s);
/* fork(): see callback.h (ACL__FORK_*). */
void acl__allocator_atfork(int phase);

#endif
