/*
 * hccl_transport.h - the ways a message travels, used by the progress engine
 * (progress.c) and the op's reduction (op.c) only: the group's mailboxes for
 * ranks of this process (transport_local.c), MPI for ranks of other
 * processes, and for large messages between processes of one host a copy
 * out of the receiver's mapping of the sender's device memory, with MPI
 * carrying a description and a reply (transport_shm.c).
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

/* Same-host transfers (transport_shm.c): a send of at least HCCL__SHM_MIN
 * bytes of device memory to a rank of another process goes as a short
 * description of where the data lies in this process's device memory; the
 * receiver copies it out of its mapping of that memory and replies on the
 * group's ack communicator.  */
#define HCCL__SHM_MIN ((size_t)64 << 10)
/* Posts a remote message (MPI lock not held): a same-host description or
 * the data itself.  MPI's return code. */
int hccl__shm_post(hccl__op *op, hccl__msg *m, int tag);
/* A remote message's request completed with status st: advances the
 * transfer.  Returns 1 when the message is done, 0 while more is pending,
 * -1 failed. */
int hccl__shm_step(hccl__op *op, hccl__msg *m, int which, MPI_Status *st);
/* Replies to a held receive, whose data the reduction has read. */
void hccl__shm_release(hccl__op *op, hccl__msg *m);
/* Unmaps the peers' memory of a group being freed. */
void hccl__shm_group_free(hccl__group *g);

#endif
