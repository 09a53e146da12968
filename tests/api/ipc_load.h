/*
 * ipc_load.h - the load that api/ipc/eight_processes_* (tests/api/ipc.c)
 * puts on device 0 from each helper process (ipc_proc.c): the commands
 * load, finish and unload (ipc_load.c says what each does).  Each prints
 * its answer lines on stdout.
 */
#ifndef OPENACL_TESTS_IPC_LOAD_H
#define OPENACL_TESTS_IPC_LOAD_H

/* "load <id> <dir> <ms> <seed> <full|noalloc> <pid>...": answers "started",
 * then "done <counts>" (or "FAILED: <why>" at any point). */
void ipc_load(const char *line);
/* Checks the other processes' writes and closes the imports: "ok" or "FAILED: <why>". */
void ipc_load_finish(void);
/* Closes this process's key, frees its buffer: "ok" or "FAILED: <why>". */
void ipc_load_unload(void);

#endif
