/*
 * transport_shm.c - same-host transfers: a rank reads the device memory of a
 * rank in another process on this machine directly, the way NCCL uses CUDA
 * IPC inside a node, instead of having MPI copy it (Open MPI's single copy,
 * process_vm_readv, pins the pages of every message anew, which costs more
 * than the copy on shared memory without huge pages).
 *
 * A send of at least HCCL__SHM_MIN bytes whose data is device memory of the
 * sender (op->direct, openaclDeviceMemoryLocate) goes as a description in
 * place of the data, on the same tag: this host's id, the sender's pid, the
 * descriptor and inode of the shared-memory object behind its device
 * memory, the data's offset and size.  The receiver posted its receive of
 * the data as for any message; a completion of exactly a description's size
 * with the magic (the receive's size is far larger) is one: it maps the
 * sender's whole object once (open /proc/<pid>/fd/<fd>, read-only; kept
 * until the group is freed, so a peer that dies leaves valid memory behind:
 * the mapping holds the object), copies the data into its buffer, and
 * replies 0 on the group's ack communicator.  A receive that is a whole
 * block of a reduction is held instead of copied: the reduction reads the
 * block in place, in the sender's memory, and replies when done (op.c
 * hccl__op_reduce, run as soon as the phase's receives are done, whoever
 * drives the op, since the senders wait for the replies).  The sender's
 * message is done when the reply came: until then the receiver may read it.
 *
 * A receiver that cannot map (another host, another user, the object gone)
 * or will not (OPENACL_HCCL_PEER_MEMORY=0 in its process, or a process that
 * stages its messages) replies 1 and receives the data by MPI on the ack
 * communicator instead; the sender sends it there, and sends every later
 * message to that peer as plain data.
 *
 * Replies and the data after a refusal travel on the ack communicator with
 * the tag 2 (seq % 16000) (+1 for data), seq being the message's number
 * between the two ranks in its direction (hccl__comm.seq): so they pair by
 * message, whatever order the two processes finish their messages in.
 *
 * Protection: the mapping is plain host memory, read-only, known to libhccl
 * alone, as the alias mechanism's own mapping is to the runtime; under
 * protection keys no message is direct (op.c), so no description is sent
 * from there, and such a process refuses the descriptions of others: it
 * maps nothing.  OPENACL_HCCL_PEER_MEMORY=0 turns the path off.
 *
 * Threads: whoever drives the op (the progress thread or the task in
 * hccl__engine_try) copies; the group lock guards the list of mappings.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hccl/hccl_transport.h"
#include "openacl/openacl.h"
#include "openacl/stream_task.h"

#define HCCL__SHM_MAGIC 0x4d485348434c4f41ull /* "AOLCHSHM" */
#define HCCL__SHM_SEQS 16000u

/* One peer process's device memory, mapped here. */
typedef struct hccl__peermap {
  struct hccl__peermap *next;
  int32_t pid, fd;
  uint64_t inode, size;
  const char *base;
} hccl__peermap;

static pthread_once_t hccl__shm_once = PTHREAD_ONCE_INIT;
static uint64_t hccl__shm_host_id;

static uint64_t hccl__fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  return h;
}

/* This machine and boot: the host name and the kernel's boot id. */
static void hccl__shm_host_init(void) {
  char buf[256] = "";
  uint64_t h = 0xcbf29ce484222325ull;
  if (gethostname(buf, sizeof(buf) - 1) == 0)
    h = hccl__fnv(h, buf, strlen(buf));
  int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n > 0)
      h = hccl__fnv(h, buf, (size_t)n);
    close(fd);
  }
  hccl__shm_host_id = h;
}

static uint64_t hccl__shm_host(void) {
  pthread_once(&hccl__shm_once, hccl__shm_host_init);
  return hccl__shm_host_id;
}

static int hccl__shm_tag(const hccl__msg *m, int data) { return (int)(2u * (m->seq % HCCL__SHM_SEQS)) + data; }

int hccl__shm_post(hccl__op *op, hccl__msg *m, int tag) {
  hccl__group *g = op->g;
  int peer = g->proc[m->peer], rc;
  m->shm = 0;
  if (m->send && op->direct && m->dev != NULL && m->bytes >= HCCL__SHM_MIN && op->comm->peer_memory &&
      g->ack != MPI_COMM_NULL) {
    pthread_mutex_lock(&g->lock);
    int refused = g->shm_refused[m->peer];
    pthread_mutex_unlock(&g->lock);
    openaclDeviceMemoryLocation loc;
    if (!refused && openaclDeviceMemoryLocate(m->dev, m->bytes, &loc) == 0) {
      hccl__shm_desc *d = &m->desc;
      *d = (hccl__shm_desc){HCCL__SHM_MAGIC, hccl__shm_host(), loc.pid, loc.fd, loc.inode, loc.objectSize,
                            loc.offset, m->bytes};
      hccl__mpi_lock();
      rc = MPI_Irecv(&m->reply, 1, MPI_INT32_T, peer, hccl__shm_tag(m, 0), g->ack, &m->req2);
      if (rc == MPI_SUCCESS) {
        m->posted2 = 1;
        rc = MPI_Isend(d, (int)sizeof(*d), MPI_BYTE, peer, tag, g->mpi, &m->req);
      }
      hccl__mpi_unlock();
      m->shm = 1;
      return rc;
    }
  }
  hccl__mpi_lock();
  if (m->send)
    rc = MPI_Isend(m->buf, (int)m->bytes, MPI_BYTE, peer, tag, g->mpi, &m->req);
  else
    rc = MPI_Irecv(m->buf, (int)m->bytes, MPI_BYTE, peer, tag, g->mpi, &m->req);
  hccl__mpi_unlock();
  return rc;
}

/* The mapping of the object d describes (made on first use), or NULL. */
static const char *hccl__shm_map(hccl__group *g, const hccl__shm_desc *d) {
  const char *base = NULL;
  pthread_mutex_lock(&g->lock);
  for (hccl__peermap *p = g->peermaps; p != NULL && base == NULL; p = p->next)
    if (p->pid == d->pid && p->fd == d->fd && p->inode == d->inode && d->offset <= p->size &&
        d->bytes <= p->size - d->offset)
      base = p->base;
  pthread_mutex_unlock(&g->lock);
  if (base != NULL)
    return base;
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)d->pid, (int)d->fd);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  void *m = MAP_FAILED;
  /* the inode tells the object from whatever now has that descriptor */
  if (fstat(fd, &st) == 0 && (uint64_t)st.st_ino == d->inode && d->offset <= (uint64_t)st.st_size &&
      d->bytes <= (uint64_t)st.st_size - d->offset) /* (no wrap-around from a bad description) */
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
  close(fd);
  hccl__peermap *p = m != MAP_FAILED ? malloc(sizeof(*p)) : NULL;
  if (p == NULL) {
    if (m != MAP_FAILED)
      munmap(m, (size_t)st.st_size);
    return NULL;
  }
  madvise(m, (size_t)st.st_size, MADV_DONTFORK);
  *p = (hccl__peermap){NULL, d->pid, d->fd, d->inode, (uint64_t)st.st_size, m};
  pthread_mutex_lock(&g->lock);
  p->next = g->peermaps; /* another thread may have mapped it meanwhile: both stay, harmless */
  g->peermaps = p;
  pthread_mutex_unlock(&g->lock);
  return p->base;
}

int hccl__shm_step(hccl__op *op, hccl__msg *m, int which, MPI_Status *st) {
  hccl__group *g = op->g;
  int peer = g->proc[m->peer], rc = MPI_SUCCESS;
  if (which == 2) { /* req2: a send's reply came, or a receive's reply went */
    m->posted2 = 0;
    if (!m->send || m->reply == 0)
      return !m->posted;
    if (m->shm == 2 || m->reply != 1)
      return -1;
    /* refused: the data follows, and later messages to that peer go plain */
    pthread_mutex_lock(&g->lock);
    g->shm_refused[m->peer] = 1;
    pthread_mutex_unlock(&g->lock);
    m->shm = 2;
    hccl__mpi_lock();
    rc = MPI_Isend(m->buf, (int)m->bytes, MPI_BYTE, peer, hccl__shm_tag(m, 1), g->ack, &m->req);
    hccl__mpi_unlock();
    if (rc != MPI_SUCCESS)
      return -1;
    m->posted = 1;
    return 0;
  }
  m->posted = 0;
  if (m->send)
    return !m->posted2;
  int got = 0;
  MPI_Get_count(st, MPI_BYTE, &got);
  if ((size_t)got == m->bytes)
    return !m->posted2;
  if (m->shm != 0 || m->bytes < HCCL__SHM_MIN || got != (int)sizeof(hccl__shm_desc))
    return -1;
  hccl__shm_desc d;
  memcpy(&d, m->buf, sizeof(d));
  if (d.magic != HCCL__SHM_MAGIC || d.bytes != m->bytes)
    return -1;
  /* a process with the path off takes none, nor one whose device memory is
   * under protection keys or staged (its comm not direct): a plain mapping
   * would carry no key.  The data then comes by MPI. */
  const char *base = d.host == hccl__shm_host() && op->comm->peer_memory && atomic_load(&op->comm->direct) == 1
                         ? hccl__shm_map(g, &d)
                         : NULL;
  if (base != NULL && m->red_block != 0) {
    /* held: the reduction reads it in place, then replies */
    m->held = base + d.offset;
    m->shm = 3;
    return 1;
  }
  if (base != NULL)
    hccl__copy_large(m->buf, base + d.offset, m->bytes);
  m->shm = base != NULL ? 1 : 2;
  m->reply = base != NULL ? 0 : 1;
  hccl__mpi_lock();
  if (base == NULL) {
    rc = MPI_Irecv(m->buf, (int)m->bytes, MPI_BYTE, peer, hccl__shm_tag(m, 1), g->ack, &m->req);
    m->posted = rc == MPI_SUCCESS;
  }
  if (rc == MPI_SUCCESS) {
    rc = MPI_Isend(&m->reply, 1, MPI_INT32_T, peer, hccl__shm_tag(m, 0), g->ack, &m->req2);
    m->posted2 = rc == MPI_SUCCESS;
  }
  hccl__mpi_unlock();
  return rc == MPI_SUCCESS ? 0 : -1;
}

void hccl__shm_release(hccl__op *op, hccl__msg *m) {
  static const int32_t done = 0;
  MPI_Request req;
  /* nothing waits for the reply to go (its buffer is static): a peer that
   * is gone fails its own operation */
  hccl__mpi_lock();
  if (MPI_Isend(&done, 1, MPI_INT32_T, op->g->proc[m->peer], hccl__shm_tag(m, 0), op->g->ack, &req) == MPI_SUCCESS)
    MPI_Request_free(&req);
  hccl__mpi_unlock();
  m->held = NULL;
}

void hccl__shm_group_free(hccl__group *g) {
  while (g->peermaps != NULL) {
    hccl__peermap *p = g->peermaps;
    g->peermaps = p->next;
    munmap((void *)(uintptr_t)p->base, (size_t)p->size);
    free(p);
  }
  free(g->shm_refused);
}
