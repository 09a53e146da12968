/* route.h - the routes this process bound (route.c), as acltdtDestroyQueue sees them. */
#ifndef OPENACL_TDT_ROUTE_H
#define OPENACL_TDT_ROUTE_H

#include <stdint.h>

/* 1 when a route bound by this process has qid as its source or
 * destination; *other = the queue at the route's other end. */
int acl__tdt_routes_using(uint32_t qid, uint32_t *other);

#endif
