/*
 * progress.c - the progress engine: one thread per process that moves the
 * messages of every operation, so that neither the application's threads
 * nor the device executors ever wait on MPI.
 *
 * An op's task function stages its buffers and hands the op here
 * (hccl__engine_post), then parks its stream.  An op whose peers are all in
 * other processes is first posted and driven by its task function itself
 * (hccl__engine_try): a small operation then finishes without waking this
 * thread and the stream's executor twice; one still running after
 * HCCL__TRY_NS comes here with its messages posted.  The thread posts the op's
 * messages - local ones into the group's mailboxes (transport_local.c),
 * remote ones as MPI_Isend / MPI_Irecv on the group's communicator with the
 * tag (src rank * nranks + dst rank), which with MPI's non-overtaking rule
 * pairs the k-th send from a to b with the k-th receive (a large one between
 * processes of one host goes as a description the receiver copies the data
 * by: transport_shm.c; its reply is a second request of the message) - then
 * tests them
 * until all are done, an MPI call fails (the peer's process is gone:
 * ACL_ERROR_RT_SUSPECT_REMOTE_ERROR) or HCCL_EXEC_TIMEOUT passes
 * (ACL_ERROR_RT_STREAM_SYNC_TIMEOUT), and wakes the task.  The failure
 * names the peer rank, in the task's name, so the stream's synchronisation
 * reports it.
 *
 * A two-phase op (AllReduce as reduce-scatter + all-gather) posts its
 * phase-1 messages when phase 0's are done and its reduction has run, in
 * whichever thread drives it.
 *
 * Receives of a failed op are cancelled; sends MPI cannot cancel keep the op
 * alive as a zombie (its staging memory with it) until MPI lets go, and mark
 * the group's MPI communicator broken (never freed).  A direct message's
 * memory is the application's device memory, which a zombie cannot keep:
 * a receive Open MPI could not cancel (one it had started to match) may
 * still write its part of the output buffer (docs/distributed.md).
 *
 * Locks: the engine lock guards the queue of new ops; the thread's active
 * list is its own.  The op lock is taken to finish an op (then the stream
 * lock, inside openaclStreamTaskWake).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#include "hccl/hccl_transport.h"

static pthread_mutex_t hccl__eng_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hccl__eng_cond = PTHREAD_COND_INITIALIZER;
static hccl__op *hccl__eng_new, **hccl__eng_new_tail = &hccl__eng_new; /* engine lock */
static int hccl__eng_started;                                        /* engine lock */

/* Ends an op: records the outcome and wakes its task (if it still has one). */
static void hccl__op_end(hccl__op *op, int error, const char *what) {
  pthread_mutex_lock(&op->lock);
  op->state = HCCL__OP_DONE;
  op->error = error;
  if (what != NULL)
    snprintf(op->errwhat, sizeof(op->errwhat), "%s", what);
  if (op->task != NULL)
    openaclStreamTaskWake(op->task);
  pthread_mutex_unlock(&op->lock);
}

static int hccl__mpi_tag_of(hccl__op *op, hccl__msg *m) {
  uint32_t n = op->g->nranks, me = op->comm->rank;
  uint64_t t = m->send ? (uint64_t)me * n + m->peer : (uint64_t)m->peer * n + me;
  return (int)(t % 32000u); /* under the smallest MPI_TAG_UB MPI allows */
}

/* Posts messages [from, to) of an op (one phase).  0, or -1 after ending the op. */
static int hccl__post(hccl__op *op, uint32_t from, uint32_t to) {
  char what[64];
  op->pending = to - from;
  for (uint32_t i = from; i < to; i++) {
    hccl__msg *m = &op->msgs[i];
    if (m->local) {
      if (hccl__local_post(m) != 0) {
        snprintf(what, sizeof(what), "%s: rank %u and rank %u disagree on the count", op->api, op->comm->rank,
                 m->peer);
        for (uint32_t j = from; j < i; j++)
          if (op->msgs[j].local && !op->msgs[j].done)
            hccl__local_cancel(&op->msgs[j]);
        /* remote ones already posted are left to finish as a zombie below */
        op->zombie = 1;
        hccl__op_end(op, ACL_ERROR_RT_PARAM_INVALID, what);
        return -1;
      }
      continue;
    }
    int rc = hccl__shm_post(op, m, hccl__mpi_tag_of(op, m));
    if (rc != MPI_SUCCESS) {
      m->done = -1;
      m->posted = 0;
      op->pending--;
    } else {
      m->posted = 1;
    }
  }
  return 0;
}

/* Tests an op's MPI messages.  Returns the first failed message, or NULL. */
static hccl__msg *hccl__test(hccl__op *op) {
  hccl__msg *bad = NULL;
  for (uint32_t i = 0; i < op->nmsgs; i++) {
    hccl__msg *m = &op->msgs[i];
    if (m->done < 0 && bad == NULL)
      bad = m;
    if (m->local || m->done || (!m->posted && !m->posted2))
      continue;
    int r = 0;
    for (int which = 1; which <= 2 && r == 0; which++) {
      MPI_Request *req = which == 1 ? &m->req : &m->req2;
      if (!(which == 1 ? m->posted : m->posted2))
        continue;
      int flag = 0;
      MPI_Status st;
      hccl__mpi_lock();
      int rc = MPI_Test(req, &flag, &st);
      hccl__mpi_unlock();
      if (rc != MPI_SUCCESS) {
        *(which == 1 ? &m->posted : &m->posted2) = 0;
        r = -1;
      } else if (flag) {
        r = hccl__shm_step(op, m, which, &st); /* a -1 leaves the other request to the op's failure */
      }
    }
    if (r != 0) {
      m->done = r;
      op->pending--;
      if (r < 0 && bad == NULL)
        bad = m;
    }
  }
  if (bad == NULL)
    hccl__op_reduce_early(op); /* releases held receives, whose senders wait for that */
  return bad;
}

/* Gives up the messages of an op that failed: local ones leave the
 * mailboxes, MPI receives are cancelled.  1 when MPI requests remain. */
static int hccl__abandon(hccl__op *op) {
  int left = 0;
  for (uint32_t i = 0; i < op->nmsgs; i++) {
    hccl__msg *m = &op->msgs[i];
    if (m->local) {
      if (!m->done)
        hccl__local_cancel(m);
      continue;
    }
    for (int which = 1; which <= 2; which++) {
      int *posted = which == 1 ? &m->posted : &m->posted2;
      MPI_Request *req = which == 1 ? &m->req : &m->req2;
      if (!*posted)
        continue;
      hccl__mpi_lock();
      MPI_Cancel(req);
      int flag = 0;
      MPI_Test(req, &flag, MPI_STATUS_IGNORE);
      hccl__mpi_unlock();
      if (flag)
        *posted = 0;
      else
        left = 1;
    }
  }
  return left;
}

/* 1 when an abandoned op's MPI requests have all finished (or were cancelled). */
static int hccl__zombie_done(hccl__op *op) {
  int left = 0;
  for (uint32_t i = 0; i < op->nmsgs; i++) {
    hccl__msg *m = &op->msgs[i];
    for (int which = 1; which <= 2 && !m->local; which++) {
      int *posted = which == 1 ? &m->posted : &m->posted2;
      if (!*posted)
        continue;
      int flag = 0;
      hccl__mpi_lock();
      int rc = MPI_Test(which == 1 ? &m->req : &m->req2, &flag, MPI_STATUS_IGNORE);
      hccl__mpi_unlock();
      if (rc != MPI_SUCCESS || flag)
        *posted = 0;
      else
        left = 1;
    }
  }
  return !left;
}

/* The peer to blame for a timeout: the first receive still waiting, else
 * the first send.  A send may wait on a healthy peer whose reduction waits
 * for a receive from the one that stalled (held receives, transport_shm.c). */
static hccl__msg *hccl__first_pending(hccl__op *op) {
  for (int send = 0; send < 2; send++)
    for (uint32_t i = 0; i < op->nmsgs; i++)
      if (!op->msgs[i].done && op->msgs[i].send == send)
        return &op->msgs[i];
  return NULL;
}

/* Phase 0 of a two-phase op is done: its step, then phase 1's messages. */
static void hccl__next_phase(hccl__op *op) {
  hccl__op_step(op);
  op->phase = 1;
  hccl__post(op, op->nphase0, op->nmsgs);
}

static void *hccl__engine_main(void *arg) {
  (void)arg;
  hccl__op *active = NULL; /* this thread's */
  uint64_t last_progress = hccl__now_ns();
  for (;;) {
    pthread_mutex_lock(&hccl__eng_lock);
    if (active == NULL) {
      while (hccl__eng_new == NULL)
        pthread_cond_wait(&hccl__eng_cond, &hccl__eng_lock);
    } else if (hccl__eng_new == NULL) {
      /* Something in flight.  Open MPI moves large messages only inside MPI
       * calls, so test again at once while transfers are recent (yielding
       * the core), then every 20 us, and every millisecond once nothing
       * has moved for 50 ms (a stalled peer must not cost a core). */
      uint64_t quiet = hccl__now_ns() - last_progress;
      if (quiet < 1000000u) {
        pthread_mutex_unlock(&hccl__eng_lock);
        sched_yield();
        pthread_mutex_lock(&hccl__eng_lock);
      } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += quiet < 50000000u ? 20000 : 1000000;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&hccl__eng_cond, &hccl__eng_lock, &ts);
      }
    }
    hccl__op *fresh = hccl__eng_new;
    hccl__eng_new = NULL;
    hccl__eng_new_tail = &hccl__eng_new;
    pthread_mutex_unlock(&hccl__eng_lock);

    int progressed = 0;
    while (fresh != NULL) {
      hccl__op *op = fresh;
      fresh = op->eng_next;
      op->eng_next = NULL;
      progressed = 1;
      if (!op->posted_by_task)
        hccl__post(op, 0, op->nphase0);
      op->eng_next = active;
      active = op;
    }
    uint64_t now = hccl__now_ns();
    for (hccl__op **pp = &active; *pp != NULL;) {
      hccl__op *op = *pp;
      int drop = 0;
      if (op->zombie) {
        drop = hccl__zombie_done(op);
      } else {
        uint32_t before = op->pending;
        hccl__msg *bad = hccl__test(op);
        if (op->pending != before)
          progressed = 1;
        char what[64];
        if (bad != NULL) {
          snprintf(what, sizeof(what), "%s: rank %u lost peer rank %u", op->api, op->comm->rank, bad->peer);
          fprintf(stderr, "hccl: %s on communicator %s, rank %u: the transfer %s rank %u failed: its process is "
                          "gone or the counts differ\n",
                  op->api, op->comm->name, op->comm->rank, bad->send ? "to" : "from", bad->peer);
          op->zombie = hccl__abandon(op);
          if (op->zombie)
            op->g->mpi_broken = 1;
          atomic_store(&op->comm->async_error, HCCL_E_REMOTE);
          hccl__op_end(op, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, what);
          drop = !op->zombie;
        } else if (op->pending == 0 && op->phase == 0 && op->nphase0 < op->nmsgs) {
          hccl__next_phase(op); /* a failure there ends the op as a zombie: dropped once MPI lets go */
          progressed = 1;
        } else if (op->pending == 0) {
          hccl__op_end(op, 0, NULL);
          drop = 1;
        } else if (op->deadline_ns != 0 && now >= op->deadline_ns) {
          hccl__msg *m = hccl__first_pending(op);
          uint32_t peer = m != NULL ? m->peer : 0;
          snprintf(what, sizeof(what), "%s: rank %u timed out on peer rank %u", op->api, op->comm->rank, peer);
          fprintf(stderr, "hccl: %s on communicator %s, rank %u: no %s rank %u within HCCL_EXEC_TIMEOUT (%d s): "
                          "the peer stalled, died, or issued another operation\n",
                  op->api, op->comm->name, op->comm->rank, m != NULL && m->send ? "receive by" : "data from", peer,
                  op->comm->exec_timeout_s);
          op->zombie = hccl__abandon(op);
          if (op->zombie)
            op->g->mpi_broken = 1;
          atomic_store(&op->comm->async_error, HCCL_E_TIMEOUT);
          hccl__op_end(op, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, what);
          drop = !op->zombie;
        }
      }
      if (drop) {
        *pp = op->eng_next;
        hccl__op_unref(op);
      } else {
        pp = &op->eng_next;
      }
    }
    if (progressed)
      last_progress = hccl__now_ns();
  }
  return NULL;
}

static void hccl__set_deadline(hccl__op *op) {
  if (op->comm->exec_timeout_s > 0)
    op->deadline_ns = hccl__now_ns() + (uint64_t)op->comm->exec_timeout_s * 1000000000u;
}

int hccl__engine_try(hccl__op *op) {
  hccl__set_deadline(op);
  hccl__post(op, 0, op->nphase0); /* MPI messages only: a failure is a message marked failed */
  op->posted_by_task = 1;
  uint64_t start = hccl__now_ns();
  do {
    if (hccl__test(op) != NULL)
      break; /* the engine reports it, as for any op */
    if (op->pending == 0) {
      if (op->phase == 1 || op->nphase0 == op->nmsgs)
        return 1;
      hccl__next_phase(op);
      continue;
    }
    sched_yield();
  } while (hccl__now_ns() - start < HCCL__TRY_NS);
  hccl__engine_post(op);
  return 0;
}

void hccl__engine_post(hccl__op *op) {
  if (!op->posted_by_task)
    hccl__set_deadline(op);
  pthread_mutex_lock(&op->lock);
  op->refs++; /* the engine's */
  pthread_mutex_unlock(&op->lock);
  pthread_mutex_lock(&hccl__eng_lock);
  if (!hccl__eng_started) {
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &attr, hccl__engine_main, NULL) == 0)
      hccl__eng_started = 1;
    pthread_attr_destroy(&attr);
  }
  int started = hccl__eng_started;
  if (started) {
    op->eng_next = NULL;
    *hccl__eng_new_tail = op;
    hccl__eng_new_tail = &op->eng_next;
    pthread_cond_signal(&hccl__eng_cond);
  }
  pthread_mutex_unlock(&hccl__eng_lock);
  if (!started) {
    hccl__op_end(op, ACL_ERROR_INTERNAL_ERROR, "HCCL: could not start the progress thread");
    hccl__op_unref(op);
  }
}
