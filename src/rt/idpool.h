/*
 * idpool.h - small lock-free sets of ids (a bitmap of atomics): stream ids
 * and event ids per device.  The lowest free id is handed out, so a fresh
 * device numbers its streams 0, 1, 2 ... as a card does, and ids come back
 * when their objects go.
 */
#ifndef OPENACL_RT_IDPOOL_H
#define OPENACL_RT_IDPOOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Takes the lowest free id below nwords * 64; -1 when all are in use. */
int32_t acl__idpool_take(_Atomic uint64_t *bits, size_t nwords);
/* Gives id back (it must have been taken). */
void acl__idpool_give(_Atomic uint64_t *bits, int32_t id);

#endif
