/*
 * devshare.h - one simulated device shared by the processes of a user
 * (docs/processes.md): a registry per device in POSIX shared memory that
 * records which processes use the device, how much of its memory each
 * holds, the IPC export keys and the shareable physical-memory handles;
 * the device's capacity is charged there,
 * so every process sees the same free memory.
 *
 * The registry is /dev/shm/openacl-u<uid>[-<OPENACL_SHARED_DEVICE_NAME>]-dev<id>,
 * mode 0600, guarded by a robust process-shared mutex: a process killed
 * while holding it (kill -9) leaves it to the next locker, which recovers
 * it.  Every locker sweeps the process table: an entry whose process is
 * gone (or whose pid was reused: the start time differs) gives its bytes
 * back and its export keys die.  The last process to leave unlinks the
 * registry.
 *
 * Charging is lock-free (one atomic compare-and-swap on the shared counter
 * and a plain store of the process's total in its entry), so aclrtMalloc and aclrtFree
 * stay as fast as with a private device.
 *
 * OPENACL_SHARED_DEVICE=0 keeps the old per-process device: no registry,
 * acl__ds_open returns NULL, and callers charge nothing here.
 */
#ifndef OPENACL_RT_DEVSHARE_H
#define OPENACL_RT_DEVSHARE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct acl__ds acl__ds; /* this process's handle on one device's registry */

#define ACL__DS_SLOTS 64     /* processes per device */
#define ACL__DS_EXPORTS 256  /* live IPC export keys per device */
#define ACL__DS_PIDS 32      /* whitelist entries per key */
#define ACL__DS_KEY_LEN 64   /* key characters (the vendor's buffer is 65 with the NUL) */

/* 1 when devices are shared between processes (OPENACL_SHARED_DEVICE unset or 1). */
int acl__ds_enabled(void);

/* Joins device `dev_id`'s registry (creating it with `capacity` when no
 * live process uses the device) and records this process with its device
 * memory object `mem_fd`.  *capacity_out receives the device's capacity,
 * which the first process set.  NULL with a message in why when sharing is
 * off or the registry cannot be used (the caller then keeps a private
 * device). */
acl__ds *acl__ds_open(int dev_id, uint64_t capacity, int mem_fd, uint64_t *capacity_out, char *why, size_t why_len);
/* Leaves the registry: gives back what this process still holds, kills its
 * keys and shareable handles (their bytes stay charged while other
 * processes hold imports of them), unlinks the registry when it was the
 * last process. */
void acl__ds_close(acl__ds *ds);
/* Maps device dev_id's registry without joining it (no process entry, no
 * charge): for the keys of a device this process does not use, when it
 * imports memory another device exported.  NULL when nobody uses the
 * device.  acl__ds_detach unmaps it. */
acl__ds *acl__ds_attach(int dev_id);
void acl__ds_detach(acl__ds *ds);
/* fork child: forgets the parent's handles without touching the registry
 * (the parent still owns its entry). */
void acl__ds_atfork_child(void);

/* Charges `bytes` against the device's capacity for this process, which
 * then holds `mine` bytes: 0, or -1 when that would exceed the capacity
 * (*in_use_out: bytes in use by all).  Called under the caller's space lock
 * (the process's entry has that one writer). */
int acl__ds_charge(acl__ds *ds, uint64_t bytes, uint64_t mine, uint64_t *in_use_out);
void acl__ds_uncharge(acl__ds *ds, uint64_t bytes, uint64_t mine);
/* Bytes in use on the device by all processes. */
uint64_t acl__ds_in_use(acl__ds *ds);

/* ---- IPC export keys (src/rt/mem_ipc.c) ----------------------------------- */

typedef struct acl__ds_export_info {
  pid_t owner_pid;
  int owner_fd;     /* the exporter's memory object, in the exporter */
  uint64_t off;     /* offset of the exported range in that object */
  uint64_t size;
  int dev_id;
} acl__ds_export_info;

/* Results of the key functions besides 0. */
#define ACL__DS_NO_KEY 1      /* no live key of that name (never made, closed, or its exporter died) */
#define ACL__DS_DENIED 2      /* the caller is not on the key's whitelist */
#define ACL__DS_FULL 3        /* no free key or whitelist entry */
#define ACL__DS_NOT_OWNER 4   /* the caller did not export the key */
#define ACL__DS_SELF 5        /* the caller made it: nothing to import */

/* Creates a key for [off, off + size) of this process's memory object. */
int acl__ds_export(acl__ds *ds, uint64_t off, uint64_t size, int check_pid, char key[ACL__DS_KEY_LEN + 1]);
/* The exporter adds pids to its key's whitelist. */
int acl__ds_export_allow(acl__ds *ds, const char *key, const int32_t *pids, size_t n);
/* Looks the key up for an import by this process (whitelist checked) and
 * counts the import. */
int acl__ds_import(acl__ds *ds, const char *key, acl__ds_export_info *info);
/* An importer closed its import of key (the key may be gone already). */
void acl__ds_import_done(acl__ds *ds, const char *key);
/* The exporter destroys its key; *imports_out: imports still open. */
int acl__ds_export_close(acl__ds *ds, const char *key, uint32_t *imports_out);
/* The exporter freed [off, off + size): its keys inside die (count returned). */
int acl__ds_export_drop_range(acl__ds *ds, uint64_t off, uint64_t size);

/* ---- shared signals: IPC notifies and IPC events (src/rt/ipc_signal.c) ---- */

/* The registry that holds them is not a device's: acl__ds_open(ACL__DS_HOST,
 * 0, -1, ...) opens /dev/shm/openacl-u<uid>[-<name>]-ipc, which every
 * process of the user that exchanges signals joins, whatever its devices. */
#define ACL__DS_HOST (-1)
#define ACL__DS_SIGS 256     /* live shared signals */
#define ACL__DS_SIG_NOTIFY 1u
#define ACL__DS_SIG_EVENT 2u

/* What the processes read and write without the registry's lock. */
typedef struct acl__ds_sig {
  _Atomic uint64_t word;     /* notify: nonzero = set; event: the highest record executed */
  _Atomic uint64_t recorded; /* event: records submitted, by every process */
  _Atomic uint64_t waiting;  /* process slots with a wait parked on it: rung when it changes */
  _Atomic uint64_t attached; /* process slots holding a handle on it, the creator's included */
  _Atomic uint32_t had_peer; /* another process than the creator attached once */
} acl__ds_sig;

/* Creates a signal held by this process with its key ("oacl-n-" or
 * "oacl-e-" and 32 hex digits); *index names it in this registry. */
int acl__ds_sig_create(acl__ds *ds, uint32_t kind, int check_pid, uint64_t word, uint64_t recorded,
                       char key[ACL__DS_KEY_LEN + 1], int32_t *index);
/* The creator adds pids to the signal's whitelist. */
int acl__ds_sig_allow(acl__ds *ds, int32_t index, const int32_t *pids, size_t n);
/* Attaches this process to the signal of that key and kind, while its
 * creator still holds it (whitelist checked). */
int acl__ds_sig_open(acl__ds *ds, const char *key, uint32_t kind, int32_t *index);
acl__ds_sig *acl__ds_sig_at(acl__ds *ds, int32_t index);
/* This process lets go; the last to let go frees it. */
void acl__ds_sig_close(acl__ds *ds, int32_t index);
/* Wakes the bells of the other processes waiting on s (after changing it). */
void acl__ds_sig_ring(acl__ds *ds, acl__ds_sig *s);
/* 0 when processes other than this one did attach to the signal and all
 * of them are gone: nobody is left to signal it. */
int acl__ds_sig_peers(acl__ds *ds, int32_t index);
/* This process's bit in `waiting` / `attached`, and its bell: a futex word
 * the other processes bump and wake. */
uint64_t acl__ds_my_bit(acl__ds *ds);
_Atomic uint32_t *acl__ds_bell(acl__ds *ds);
void acl__ds_bell_ring(_Atomic uint32_t *bell);
/* Sleeps until the bell moves from `seen`, timeout_ms passes (-1: no
 * limit) or a spurious wake-up. */
void acl__ds_bell_wait(_Atomic uint32_t *bell, uint32_t seen, int timeout_ms);

/* ---- shareable physical-memory handles (src/rt/vmm.c) --------------------------
 * A table of its own beside the IPC keys: each entry is one physical
 * allocation (aclrtMallocPhysical, its own memfd) that its exporter turned
 * into a 64-bit random handle.  Importers open the exporter's memfd through
 * /proc/<pid>/fd/<fd> while the registry is locked (so the fd number cannot
 * have been reused meanwhile) and keep their own descriptor: the pages live
 * until every process closed its one.  The bytes stay charged against the
 * device until then too: when the exporter frees (or dies) while importers
 * hold the memory, its charge moves into the entry, and the last importer's
 * free (or death) gives it back. */

#define ACL__DS_SHARES 256 /* live shareable handles per device */

typedef struct acl__ds_share_info {
  pid_t owner_pid;
  uint64_t size;  /* bytes of the allocation */
  uint64_t gran;  /* its granularity */
  uint32_t attr;  /* the aclrtMemAttr it was allocated with */
} acl__ds_share_info;

/* Results of the share functions besides 0 and the ACL__DS_* key results. */
#define ACL__DS_SELF 5 /* the caller exported that handle itself */
#define ACL__DS_GONE 6 /* the exporter's memory can no longer be opened (ending) */

/* Registers this process's allocation `fd` (size bytes, of which `charged`
 * are charged against the device) under a new random handle. */
int acl__ds_share_export(acl__ds *ds, int fd, uint64_t size, uint64_t gran, uint32_t attr, uint64_t charged,
                         int check_pid, uint64_t *handle_out);
/* The exporter adds pids to its handle's whitelist. */
int acl__ds_share_allow(acl__ds *ds, uint64_t handle, const int32_t *pids, size_t n);
/* An import by this process: whitelist checked, the exporter's memory
 * opened (*fd_out, O_CLOEXEC, the caller's to close) and the import
 * counted. */
int acl__ds_share_import(acl__ds *ds, uint64_t handle, acl__ds_share_info *info, int *fd_out);
/* An importer freed its import of handle. */
void acl__ds_share_import_done(acl__ds *ds, uint64_t handle);
/* The exporter frees its allocation: no new imports.  1 when imports are
 * still open: the `charged` bytes then stay in use on the device (the caller
 * gives back only its own share) until the last importer frees; else 0. */
int acl__ds_share_release(acl__ds *ds, uint64_t handle);

/* ---- listing (openacl devices, docs/processes.md) ----------------------- */

typedef struct acl__ds_proc {
  pid_t pid;
  uint64_t bytes;
  char comm[16];
} acl__ds_proc;

/* Reads device dev_id's registry without joining it (dead entries are
 * swept first).  Returns the number of processes (up to max filled), -1
 * when there is no registry; *capacity and *in_use are set. */
int acl__ds_list(int dev_id, acl__ds_proc *out, int max, uint64_t *capacity, uint64_t *in_use);
/* The registry's path for dev_id (for messages and the tool). */
void acl__ds_path(int dev_id, char *buf, size_t len);

#endif
