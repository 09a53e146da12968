/* log_modules.h - the logger's modules, shared by log.h and env.h. */
#ifndef OPENACL_COMMON_LOG_MODULES_H
#define OPENACL_COMMON_LOG_MODULES_H

/* Modules, named as CANN names them in ASCEND_MODULE_LOG_LEVEL. */
#define ACL__LOG_MODULES(XX) \
  XX(ASCENDCL) /* the API layer: init, errors, configuration */ \
  XX(RUNTIME)  /* devices, contexts, streams, events, memory */ \
  XX(GE)       /* models */ \
  XX(DRV)      /* backends (hal) */ \
  XX(APP)      /* aclAppLog: the application's own lines */

typedef enum acl__log_module {
#define ACL__LOG_MOD_ENUM(name) ACL__MOD_##name,
  ACL__LOG_MODULES(ACL__LOG_MOD_ENUM)
#undef ACL__LOG_MOD_ENUM
  ACL__MOD_COUNT
} acl__log_module;

#endif
