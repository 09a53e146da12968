/*
 * label.h - labels and label lists (label.c): jump targets inside the
 * streams of a model runtime instance.  The public entry points are in
 * src/acl/label_api.c; docs/labels.md has the rules.
 */
#ifndef OPENACL_RT_LABEL_H
#define OPENACL_RT_LABEL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

/* The most labels a process holds at once (the vendor's limit), and the
 * most a list holds. */
#define ACL__LABEL_MAX 65535

/* Bodies of the public entry points; arguments other than handles are
 * checked by the caller, failures are recorded for `api`. */
int acl__label_create(const char *api, acl__context *c, aclrtLabel *out);
int acl__label_destroy(const char *api, aclrtLabel label);
int acl__label_list_create(const char *api, acl__context *c, aclrtLabel *labels, size_t num, aclrtLabelList *out);
int acl__label_list_destroy(const char *api, aclrtLabelList list);
int acl__label_set(const char *api, aclrtLabel label, aclrtStream stream);
int acl__label_switch(const char *api, void *ptr, uint32_t max_value, aclrtLabelList list, aclrtStream stream);

/* The places of the first n labels of a list (set by aclrtSetLabel): the
 * opaque lane and position graph.c gave.  0, or a recorded error (the list
 * is gone, or a label was never set). */
int acl__label_targets(const char *api, aclrtLabelList list, uint32_t n, void **lanes, uint32_t *pos);

/* A context is released (context.c): its labels and lists go with it. */
void acl__label_context_gone(acl__context *c);
/* fork(): see callback.h (ACL__FORK_*). */
void acl__label_atfork(int phase);

#endif
