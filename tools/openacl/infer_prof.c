/*
 * infer_prof.c - `openacl infer --profiler` (msame: --profiler true,
 * ais_bench: --profiler 1): the run is profiled through the public aclprof
 * API (docs/profiling.md) from before the model is loaded to after the last
 * execution, into OUTPUT/profiler, or ./profiler without --output.  The end
 * prints the PROF_... directory written, which `openacl prof` summarises.
 *
 * Collected: AscendCL API calls, runtime task submissions, every task of
 * every stream with the model's operators, and device memory in use.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "infer_job.h"

#define PROF_DATA (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API | ACL_PROF_TASK_MEMORY)

static aclprofConfig *cfg; /* set while profiling runs */
static int initialised;    /* aclprofInit succeeded */
static char root[4096];    /* the directory given to aclprofInit */
static char *before;       /* "\n"-joined PROF_ names in root before the start */

/* The PROF_ entries of root, each followed by '\n' (NULL when unreadable). */
static char *list_profiles(void) {
  DIR *d = opendir(root);
  size_t len = 0, cap = 256;
  char *s = malloc(cap);
  if (s == NULL) {
    if (d != NULL)
      closedir(d);
    return NULL;
  }
  s[0] = '\0';
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "PROF_", 5) != 0)
      continue;
    if (len + n + 2 > cap) {
      char *t = realloc(s, cap = 2 * (len + n + 2));
      if (t == NULL)
        break;
      s = t;
    }
    memcpy(s + len, e->d_name, n);
    s[len + n] = '\n';
    len += n + 1;
    s[len] = '\0';
  }
  if (d != NULL)
    closedir(d);
  return s;
}

int infer_prof_begin(const infer_opts *o) {
  if (!o->profiler)
    return 0;
  int ret = tool_acl_init();
  if (ret != 0)
    return ret;
  snprintf(root, sizeof(root), "%s/profiler", o->output != NULL ? o->output : ".");
  before = list_profiles();
  aclError rc = aclprofInit(root, strlen(root));
  if (rc != ACL_SUCCESS)
    return tool_acl_error("--profiler: starting the profiler", "aclprofInit", rc);
  initialised = 1;
  uint32_t dev = (uint32_t)o->device;
  cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, PROF_DATA);
  if (cfg == NULL)
    return tool_acl_error("--profiler: configuring the profiler", "aclprofCreateConfig", ACL_ERROR_INVALID_PARAM);
  rc = aclprofStart(cfg);
  if (rc != ACL_SUCCESS) {
    aclprofDestroyConfig(cfg);
    cfg = NULL;
    return tool_acl_error("--profiler: starting the profiler", "aclprofStart", rc);
  }
  return 0;
}

/* The PROF_ directory of root that was not there before the start. */
static void print_written(void) {
  char *after = list_profiles();
  const char *found = NULL;
  size_t flen = 0;
  for (const char *p = after; p != NULL && *p != '\0';) {
    const char *nl = strchr(p, '\n');
    size_t n = (size_t)(nl - p);
    char name[512];
    snprintf(name, sizeof(name), "\n%.*s\n", (int)(n < 500 ? n : 500), p);
    int old = before != NULL && (strncmp(before, name + 1, n + 1) == 0 || strstr(before, name) != NULL);
    if (!old) {
      found = p;
      flen = n;
    }
    p = nl + 1;
  }
  if (found != NULL)
    printf("profiler: profile written to %s/%.*s (summary: openacl prof %s)\n", root, (int)flen, found, root);
  else
    printf("profiler: profile written under %s (summary: openacl prof %s)\n", root, root);
  free(after);
}

int infer_prof_end(const infer_opts *o, int ran) {
  if (!o->profiler)
    return 0;
  int ret = 0;
  if (cfg != NULL) {
    aclError rc = aclprofStop(cfg);
    if (rc != ACL_SUCCESS && ran)
      ret = tool_acl_error("--profiler: writing the profile", "aclprofStop", rc);
    aclprofDestroyConfig(cfg);
    cfg = NULL;
    if (rc == ACL_SUCCESS && ran)
      print_written();
  }
  if (initialised) {
    aclError rc = aclprofFinalize();
    if (rc != ACL_SUCCESS && ret == 0 && ran)
      ret = tool_acl_error("--profiler: finishing the profiler", "aclprofFinalize", rc);
    initialised = 0;
  }
  free(before);
  before = NULL;
  return ret;
}
