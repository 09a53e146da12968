/*
 * config_paths.c - acl__config_apply_env: the dump, exception-dump,
 * kernel-data and profiling paths resolved with their documented
 * environment priority, made absolute, and checked for writability (a
 * warning when a directory cannot be written or created).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/config_internal.h"

/* path made absolute against the current directory (malloc'd). */
static char *absolute(const char *path) {
  if (path == NULL)
    return NULL;
  if (path[0] == '/')
    return strdup(path);
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof(cwd)) == NULL)
    return strdup(path);
  if (strcmp(path, ".") == 0)
    return strdup(cwd);
  const char *rel = path;
  while (rel[0] == '.' && rel[1] == '/')
    rel += 2;
  char *out = NULL;
  if (asprintf(&out, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/", rel) < 0)
    return NULL;
  return out;
}

/* NULL when dir exists and is writable or could be created below a writable
 * ancestor; otherwise why not (static text in buf). */
static const char *not_writable(const char *dir, char *buf, size_t n) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return "it exists and is not a directory";
    if (access(dir, W_OK | X_OK) != 0) {
      snprintf(buf, n, "it is not writable (%s)", strerror(errno));
      return buf;
    }
    return NULL;
  }
  if (errno != ENOENT && errno != ENOTDIR) {
    snprintf(buf, n, "%s", strerror(errno));
    return buf;
  }
  /* Find the closest existing ancestor: it must be a writable directory. */
  char *copy = strdup(dir);
  if (copy == NULL)
    return NULL;
  const char *why = NULL;
  for (;;) {
    char *slash = strrchr(copy, '/');
    if (slash == NULL)
      break;
    if (slash == copy)
      slash[1] = '\0';
    else
      *slash = '\0';
    if (stat(copy, &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        snprintf(buf, n, "it cannot be created: %.200s is not a directory", copy);
      else if (access(copy, W_OK | X_OK) != 0)
        snprintf(buf, n, "it cannot be created: %.200s is not writable", copy);
      else
        break;
      why = buf;
      break;
    }
    if (errno != ENOENT && errno != ENOTDIR) {
      snprintf(buf, n, "it cannot be created: %.200s: %s", copy, strerror(errno));
      why = buf;
      break;
    }
    if (strcmp(copy, "/") == 0)
      break;
  }
  free(copy);
  return why;
}

static void check_dir(acl__diags *diags, const char *path, const char *dir, const char *use) {
  char buf[512];
  const char *why = not_writable(dir, buf, sizeof(buf));
  if (why != NULL)
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, path, "%s directory \"%.300s\": %s", use, dir,
                   why);
}

static int set_env(const char *v) { return v != NULL && v[0] != '\0'; }

void acl__config_apply_env(acl__config *cfg, const acl__env *env, acl__diags *diags) {
  if (cfg == NULL)
    return;
  acl__cfg_resolved_free(cfg);
  cfg->env_applied = 1;
  const char *npu = env ? env->npu_collect_path : NULL;
  const char *work = env ? env->work_path : NULL;
  const char *dump_env = env ? env->dump_path : NULL;
  dump_state st;
  acl__cfg_dump_state_of(cfg, &st);

  int dump_path_checked = 0;
  if (cfg->dump_path != NULL) {
    cfg->dump_path_abs = absolute(cfg->dump_path);
    if (cfg->dump_path_abs != NULL && (st.model || st.op || st.overflow || st.watcher)) {
      check_dir(diags, "dump.dump_path", cfg->dump_path_abs, "dump");
      dump_path_checked = 1;
    }
  }
  if (st.exception) {
    const char *src = NULL, *val = NULL;
    if (set_env(npu)) {
      src = "NPU_COLLECT_PATH";
      val = npu;
    } else if (set_env(work)) {
      src = "ASCEND_WORK_PATH";
      val = work;
    } else if (cfg->dump_path != NULL) {
      src = "dump.dump_path";
      val = cfg->dump_path;
    } else {
      src = "current directory";
      val = ".";
    }
    cfg->exception_path = absolute(val);
    cfg->exception_path_source = src;
    int from_file = strcmp(src, "dump.dump_path") == 0;
    if (cfg->exception_path != NULL && !(from_file && dump_path_checked))
      check_dir(diags, val == npu || val == work ? src : "dump.dump_scene", cfg->exception_path,
                "exception dump");
    dump_path_checked |= from_file;
  }
  if (st.kernel) {
    const char *src = NULL, *val = NULL;
    if (set_env(dump_env)) {
      src = "ASCEND_DUMP_PATH";
      val = dump_env;
    } else if (set_env(work)) {
      src = "ASCEND_WORK_PATH";
      val = work;
    } else if (cfg->dump_path != NULL) {
      src = "dump.dump_path";
      val = cfg->dump_path;
    }
    if (val != NULL) {
      cfg->kernel_data_path = absolute(val);
      cfg->kernel_data_path_source = src;
      int from_file = strcmp(src, "dump.dump_path") == 0;
      if (cfg->kernel_data_path != NULL && !(from_file && dump_path_checked))
        check_dir(diags, src, cfg->kernel_data_path, "kernel data");
    }
  }
  if (cfg->prof[PROF_OUTPUT] != NULL) {
    cfg->prof_output_abs = absolute(cfg->prof[PROF_OUTPUT]);
    if (cfg->prof_output_abs != NULL && cfg->prof[PROF_SWITCH] != NULL &&
        strcmp(cfg->prof[PROF_SWITCH], "on") == 0)
      check_dir(diags, "profiler.output", cfg->prof_output_abs, "profiling output");
  }
}
