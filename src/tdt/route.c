/*
 * route.c - queue routes: a route forwards what is enqueued into its
 * source queue to its destination queue (several routes from one source
 * fan out: every destination gets a copy).  Route objects, route lists and
 * query descriptions are plain objects; acltdtBindQueueRoutes records a
 * route in the source queue's shared header (shmq.c forwards at enqueue,
 * whichever process enqueues) and in this process's table of bound routes,
 * which acltdtQueryQueueRoutes searches.
 *
 * Statuses: ACL_TDT_QUEUE_ROUTE_UNBIND 0, _BIND 1, _BIND_ABNORMAL 2 (bound,
 * but an end queue has been destroyed since; or a route that could not be
 * bound / unbound).  Bind and unbind write each route's status back into
 * the list and fail with 500001 unless every route succeeded.
 *
 * Lock: route_lock guards `bound`; it is taken before a queue's shared
 * lock (shmq.c), never after.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/route.h"
#include "tdt/shmq.h"
#include "tdt/tdt.h"

struct acltdtQueueRoute { /* the vendor's layout */
  uint32_t srcId;
  uint32_t dstId;
  int32_t status;
};

struct acltdtQueueRouteList {
  acltdtQueueRoute *routes;
  size_t n, cap;
};

struct acltdtQueueRouteQueryInfo {
  int32_t mode;
  uint32_t src, dst;
  int has_mode, has_src, has_dst;
};

typedef struct bound_route {
  uint32_t src, dst;
} bound_route;

static pthread_mutex_t route_lock = PTHREAD_MUTEX_INITIALIZER;
static bound_route *bound; /* route_lock */
static size_t nbound, capbound; /* route_lock */

/* ---- route objects ------------------------------------------------------- */

acltdtQueueRoute *acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
  acltdtQueueRoute *r = calloc(1, sizeof *r);
  if (r == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a route");
    return NULL;
  }
  r->srcId = srcId;
  r->dstId = dstId;
  r->status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  acl__handle_register(r, ACL__H_TDT_ROUTE);
  return r;
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute *route) {
  int rc = acl__tdt_check(__func__, "route", route, ACL__H_TDT_ROUTE, "acltdtCreateQueueRoute");
  if (rc != 0)
    return rc;
  acl__handle_unregister((void *)route);
  free((void *)route);
  return 0;
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute *route, acltdtQueueRouteParamType type, size_t len,
                                  size_t *paramRetSize, void *param) {
  int rc = acl__tdt_check(__func__, "route", route, ACL__H_TDT_ROUTE, "acltdtCreateQueueRoute");
  if (rc != 0)
    return rc;
  if (param == NULL || paramRetSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", param == NULL ? "param" : "paramRetSize");
  const void *v;
  switch (type) {
  case ACL_TDT_QUEUE_ROUTE_SRC_UINT32: v = &route->srcId; break;
  case ACL_TDT_QUEUE_ROUTE_DST_UINT32: v = &route->dstId; break;
  case ACL_TDT_QUEUE_ROUTE_STATUS_INT32: v = &route->status; break;
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "type %d is not an acltdtQueueRouteParamType (SRC 0, DST 1, STATUS 2)", (int)type);
  }
  if (len < 4)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len is %zu; the value takes 4 bytes", len);
  memcpy(param, v, 4);
  *paramRetSize = 4;
  return 0;
}

/* ---- route lists ----------------------------------------------------------- */

acltdtQueueRouteList *acltdtCreateQueueRouteList(void) {
  acltdtQueueRouteList *l = calloc(1, sizeof *l);
  if (l == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a route list");
    return NULL;
  }
  acl__handle_register(l, ACL__H_TDT_ROUTE_LIST);
  return l;
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList *routeList) {
  int rc = acl__tdt_check(__func__, "routeList", routeList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc != 0)
    return rc;
  acl__handle_unregister((void *)routeList);
  free(routeList->routes);
  free((void *)routeList);
  return 0;
}

static int list_append(const char *api, acltdtQueueRouteList *l, const acltdtQueueRoute *r) {
  if (l->n == l->cap) {
    size_t cap = l->cap == 0 ? 8 : l->cap * 2;
    acltdtQueueRoute *a = realloc(l->routes, cap * sizeof *a);
    if (a == NULL)
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for %zu routes", cap);
    l->routes = a;
    l->cap = cap;
  }
  l->routes[l->n++] = *r;
  return 0;
}

aclError acltdtAddQueueRoute(acltdtQueueRouteList *routeList, const acltdtQueueRoute *route) {
  int rc = acl__tdt_check(__func__, "routeList", routeList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc == 0)
    rc = acl__tdt_check(__func__, "route", route, ACL__H_TDT_ROUTE, "acltdtCreateQueueRoute");
  if (rc == 0)
    rc = list_append(__func__, routeList, route);
  return rc;
}

aclError acltdtGetQueueRoute(const acltdtQueueRouteList *routeList, size_t index, acltdtQueueRoute *route) {
  int rc = acl__tdt_check(__func__, "routeList", routeList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc == 0)
    rc = acl__tdt_check(__func__, "route", route, ACL__H_TDT_ROUTE, "acltdtCreateQueueRoute");
  if (rc != 0)
    return rc;
  if (index >= routeList->n)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index %zu is out of range: the list holds %zu routes", index,
                     routeList->n);
  *route = routeList->routes[index];
  return 0;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList *routeList) {
  return routeList != NULL && acl__handle_valid(routeList, ACL__H_TDT_ROUTE_LIST) ? routeList->n : 0;
}

/* ---- query descriptions ------------------------------------------------------ */

acltdtQueueRouteQueryInfo *acltdtCreateQueueRouteQueryInfo(void) {
  acltdtQueueRouteQueryInfo *q = calloc(1, sizeof *q);
  if (q == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a route query");
    return NULL;
  }
  acl__handle_register(q, ACL__H_TDT_ROUTE_QUERY);
  return q;
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo *info) {
  int rc = acl__tdt_check(__func__, "info", info, ACL__H_TDT_ROUTE_QUERY, "acltdtCreateQueueRouteQueryInfo");
  if (rc != 0)
    return rc;
  acl__handle_unregister((void *)info);
  free((void *)info);
  return 0;
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo *param, acltdtQueueRouteQueryInfoParamType type,
                                      size_t len, const void *value) {
  int rc = acl__tdt_check(__func__, "param", param, ACL__H_TDT_ROUTE_QUERY, "acltdtCreateQueueRouteQueryInfo");
  if (rc != 0)
    return rc;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (len == 0 || len > 4)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len is %zu; each query value is 4 bytes (1 to 4 accepted)", len);
  uint32_t v = 0;
  memcpy(&v, value, len);
  switch (type) {
  case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
    param->mode = (int32_t)v;
    param->has_mode = 1;
    break;
  case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
    param->src = v;
    param->has_src = 1;
    break;
  case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
    param->dst = v;
    param->has_dst = 1;
    break;
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "type %d is not an acltdtQueueRouteQueryInfoParamType (MODE_ENUM 0, SRC_ID 1, DST_ID 2)",
                     (int)type);
  }
  return 0;
}

/* ---- bind, unbind, query ----------------------------------------------------- */

static long find_bound_locked(uint32_t src, uint32_t dst) {
  for (size_t i = 0; i < nbound; i++)
    if (bound[i].src == src && bound[i].dst == dst)
      return (long)i;
  return -1;
}

/* 1 when `to` is reachable from `from` through bound routes. */
static int reaches_locked(uint32_t from, uint32_t to, int depth) {
  if (from == to)
    return 1;
  if (depth > 64)
    return 1; /* deeper than any sane graph: treat as a cycle */
  for (size_t i = 0; i < nbound; i++)
    if (bound[i].src == from && reaches_locked(bound[i].dst, to, depth + 1))
      return 1;
  return 0;
}

int acl__tdt_routes_using(uint32_t qid, uint32_t *other) {
  int found = 0;
  pthread_mutex_lock(&route_lock);
  for (size_t i = 0; i < nbound && !found; i++)
    if (bound[i].src == qid || bound[i].dst == qid) {
      *other = bound[i].src == qid ? bound[i].dst : bound[i].src;
      found = 1;
    }
  pthread_mutex_unlock(&route_lock);
  return found;
}

static int bind_one_locked(const char *api, acltdtQueueRoute *r, char *why, size_t whylen) {
  int rc = 0;
  if (r->srcId == r->dstId) {
    snprintf(why, whylen, "source and destination are both queue %u", r->srcId);
    return -1;
  }
  if (find_bound_locked(r->srcId, r->dstId) >= 0)
    return 0; /* bound already */
  if (reaches_locked(r->dstId, r->srcId, 0)) {
    snprintf(why, whylen, "queue %u already forwards to queue %u: the route would close a cycle", r->dstId, r->srcId);
    return -1;
  }
  acl__shmq *s = acl__shmq_acquire_internal(api, r->srcId, &rc);
  acl__shmq *d = s == NULL ? NULL : acl__shmq_acquire_internal(api, r->dstId, &rc);
  if (s == NULL || d == NULL || acl__shmq_destroyed(s) || acl__shmq_destroyed(d)) {
    snprintf(why, whylen, "queue %u does not exist", s == NULL || acl__shmq_destroyed(s) ? r->srcId : r->dstId);
    acl__shmq_release(s);
    acl__shmq_release(d);
    return -1;
  }
  acl__shmq_release(d);
  if (nbound == capbound) {
    size_t cap = capbound == 0 ? 8 : capbound * 2;
    bound_route *b = realloc(bound, cap * sizeof *b);
    if (b == NULL) {
      acl__shmq_release(s);
      snprintf(why, whylen, "out of host memory");
      return -1;
    }
    bound = b;
    capbound = cap;
  }
  rc = acl__shmq_route_add(api, s, r->dstId);
  acl__shmq_release(s);
  if (rc != 0) {
    snprintf(why, whylen, "the source queue has too many routes");
    return -1;
  }
  bound[nbound].src = r->srcId;
  bound[nbound].dst = r->dstId;
  nbound++;
  return 0;
}

aclError acltdtBindQueueRoutes(acltdtQueueRouteList *qRouteList) {
  int rc = acl__tdt_check(__func__, "qRouteList", qRouteList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc != 0)
    return rc;
  char why[160] = "", first_why[160] = "";
  size_t failed = 0, first = 0;
  pthread_mutex_lock(&route_lock);
  for (size_t i = 0; i < qRouteList->n; i++) {
    acltdtQueueRoute *r = &qRouteList->routes[i];
    if (bind_one_locked(__func__, r, why, sizeof why) == 0) {
      r->status = ACL_TDT_QUEUE_ROUTE_BIND;
    } else {
      r->status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
      if (failed++ == 0) {
        first = i;
        memcpy(first_why, why, sizeof why);
      }
    }
  }
  pthread_mutex_unlock(&route_lock);
  if (failed != 0)
    return ACL__FAIL(ACL_ERROR_FAILURE,
                     "%zu of %zu routes were not bound; the first, route %zu (%u -> %u): %s. Remedy: read each "
                     "route's status (ACL_TDT_QUEUE_ROUTE_STATUS_INT32) and fix those with status 2",
                     failed, qRouteList->n, first, qRouteList->routes[first].srcId, qRouteList->routes[first].dstId,
                     first_why);
  return 0;
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList *qRouteList) {
  int rc = acl__tdt_check(__func__, "qRouteList", qRouteList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc != 0)
    return rc;
  size_t failed = 0, first = 0;
  pthread_mutex_lock(&route_lock);
  for (size_t i = 0; i < qRouteList->n; i++) {
    acltdtQueueRoute *r = &qRouteList->routes[i];
    long at = find_bound_locked(r->srcId, r->dstId);
    if (at < 0) {
      r->status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
      if (failed++ == 0)
        first = i;
      continue;
    }
    bound[at] = bound[--nbound];
    int lrc = 0;
    acl__shmq *s = acl__shmq_exists(r->srcId) ? acl__shmq_acquire_internal(__func__, r->srcId, &lrc) : NULL;
    if (s != NULL) { /* a source that is gone has nothing to remove */
      acl__shmq_route_remove(s, r->dstId);
      acl__shmq_release(s);
    }
    r->status = ACL_TDT_QUEUE_ROUTE_UNBIND;
  }
  pthread_mutex_unlock(&route_lock);
  if (failed != 0)
    return ACL__FAIL(ACL_ERROR_FAILURE,
                     "%zu of %zu routes were not bound by this process, so not unbound; the first, route %zu "
                     "(%u -> %u). Remedy: unbind only routes acltdtBindQueueRoutes bound",
                     failed, qRouteList->n, first, qRouteList->routes[first].srcId, qRouteList->routes[first].dstId);
  return 0;
}

aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo *queryInfo, acltdtQueueRouteList *qRouteList) {
  int rc = acl__tdt_check(__func__, "queryInfo", queryInfo, ACL__H_TDT_ROUTE_QUERY, "acltdtCreateQueueRouteQueryInfo");
  if (rc == 0)
    rc = acl__tdt_check(__func__, "qRouteList", qRouteList, ACL__H_TDT_ROUTE_LIST, "acltdtCreateQueueRouteList");
  if (rc != 0)
    return rc;
  qRouteList->n = 0; /* the vendor clears the list first */
  const acltdtQueueRouteQueryInfo *q = queryInfo;
  if (!q->has_mode)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "the query has no mode. Remedy: set ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM with "
                     "acltdtSetQueueRouteQueryInfo");
  int need_src = q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  int need_dst = q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST || q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  if (!need_src && !need_dst && q->mode != ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "query mode %d is not an acltdtQueueRouteQueryMode (SRC 0, DST 1, SRC_AND_DST 2, ABNORMAL 100)",
                     (int)q->mode);
  if ((need_src && !q->has_src) || (need_dst && !q->has_dst))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "query mode %d needs the %s id. Remedy: set ACL_TDT_QUEUE_ROUTE_QUERY_%s_ID_UINT32", (int)q->mode,
                     need_src && !q->has_src ? "source" : "destination", need_src && !q->has_src ? "SRC" : "DST");
  pthread_mutex_lock(&route_lock);
  for (size_t i = 0; i < nbound && rc == 0; i++) {
    const bound_route *b = &bound[i];
    if ((need_src && b->src != q->src) || (need_dst && b->dst != q->dst))
      continue;
    acltdtQueueRoute r = {b->src, b->dst, ACL_TDT_QUEUE_ROUTE_BIND};
    if (!acl__shmq_exists(b->src) || !acl__shmq_exists(b->dst))
      r.status = ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL;
    if (q->mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL && r.status != ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL)
      continue;
    rc = list_append(__func__, qRouteList, &r);
  }
  pthread_mutex_unlock(&route_lock);
  return rc;
}
