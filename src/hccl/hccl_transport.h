/*
 * hccl_transport.h - the two ways a message travels, used by the progress
 * engine (progress.c) only: the group's mailboxes for ranks of this process
 * (transport_local.c) and MPI for ranks of other processes.
 */
#ifndef OPENACL_HCCL_TRANSPORT_H
#define OPENACL_HCCL_TRANSPORT_H

#include "hccl/hccl_int.h"

/* Posts a local message: matched at once when its partner waits (done set
 * on both, both ops' pending decremented), else queued.  -1 when the partner
 * has another size (both marked failed, done = -1). */
int hccl__local_post(hccl__msg *m);
/* Takes a message that was not matched out of its mailbox. */
void hccl__local_cancel(hccl__msg *m);

#endif
