/*
 * errmsg.h - recording failures for aclGetRecentErrMsg, aclrtGetLastError
 * and the log.
 *
 * Every failing public call records one message:
 *   "<api> failed: <NAME> (<code>): <cause in the user's terms>. <remedy>"
 * Messages are kept per thread (default) or per process (acl.json
 * err_msg_mode "1"); aclGetRecentErrMsg returns them newest first and clears
 * them.  Recording also sets the calling thread's last error code and logs
 * the message at ERROR.
 */
#ifndef OPENACL_COMMON_ERRMSG_H
#define OPENACL_COMMON_ERRMSG_H

/* Records a failure of `api` and returns `code` so callers can write
 *   return acl__fail("aclInit", ACL_ERROR_INVALID_FILE, "config file '%s' ...", path);
 * The message should name the argument or key, the bad value and the rule;
 * the remedy from the error table is appended when fmt ends without one
 * (pass a remedy explicitly by ending the text with "Remedy: ..."). */
int acl__fail(const char *api, int code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The same, logged at DEBUG instead of ERROR: for the outcomes a caller
 * polls for in a loop (aclrtProcessReport's timeout), which would otherwise
 * fill the log with errors nobody made. */
int acl__fail_polled(const char *api, int code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Records with the calling function's name as the API: use it directly in
 * the public entry points.  It returns the code; it never returns for you. */
#define ACL__FAIL(code, ...) acl__fail(__func__, (code), __FILE__, __LINE__, __VA_ARGS__)

/* 0: messages are per thread; 1: per process.  Set by aclInit. */
void acl__errmsg_set_mode(int process_wide);
/* aclGetRecentErrMsg: all messages not read yet, newest first, then clears
 * them.  The pointer stays valid until the thread's next call. NULL if none. */
const char *acl__errmsg_take(void);
/* Drops every stored message (aclFinalize, fork child). */
void acl__errmsg_clear_all(void);

/* The calling thread's last error (aclrtGetLastError / PeekAtLastError). */
int acl__last_error_get(int clear);

void acl__errmsg_atfork_prepare(void);
void acl__errmsg_atfork_parent(void);
void acl__errmsg_atfork_child(void);

#endif
