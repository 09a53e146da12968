/*
 * session.c - the profiling lifecycle: aclprofInit / aclprofFinalize,
 * configurations (aclprofCreateConfig, aclprofSetConfig), aclprofStart /
 * aclprofStop, and the acl.json "profiler" section, which collects from
 * aclInit to aclFinalize.
 *
 * A process is in one mode at a time (reference prof-dump.md §1.4):
 *   OFF        nothing configured
 *   API        after aclprofInit (until aclprofFinalize)
 *   CMD        acl.json profiler.switch "on": the aclprof lifecycle calls fail
 *              with ACL_ERROR_PROF_ALREADY_RUN
 *   SUBSCRIBE  a model subscription is open (subscribe.c)
 * Each first aclprofStart creates a PROF_... directory; aclprofStop of the
 * last running device (or aclprofFinalize, or aclFinalize) writes the
 * files into it (write_csv.c, write_trace.c).
 *
 * Lock: acl__prof_lock guards everything below; the hooks never take it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "acl/acl_rt.h"
#include "common/config.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "prof/prof_internal.h"

#define CONFIG_MAGIC 0x70726f66u /* "prof" */
#define MAX_PATH_LEN 4096
#define MAX_DEVICES 64
#define PROF_AICPU_MODEL 0x4000000000000000ULL

struct aclprofConfig {
  uint32_t magic;
  uint32_t n_devices;
  uint32_t devices[MAX_DEVICES];
  aclprofAicoreMetrics metrics;
  uint64_t bits;
};

enum { MODE_OFF, MODE_API, MODE_CMD };

pthread_mutex_t acl__prof_lock = PTHREAD_MUTEX_INITIALIZER;
static int mode;                     /* MODE_*; SUBSCRIBE is acl__prof_sub_any() */
static char init_path[MAX_PATH_LEN]; /* aclprofInit's, absolute */
static char set_path[MAX_PATH_LEN];  /* ACL_PROF_PATH of aclprofSetConfig, absolute ("" none) */
static int running;                  /* a session collects */
static unsigned start_index;         /* aclprofStart calls that made a directory */
static acl__prof_session sess;
static int tx_on;                    /* msproftx collected (tx.c asks) */

static const uint64_t k_public_bits =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |
    ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 |
    ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR | ACL_PROF_TASK_TIME_L3 |
    ACL_PROF_GE_API_L1 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE | PROF_AICPU_MODEL;

int acl__prof_tx_active(void) { return __atomic_load_n(&tx_on, __ATOMIC_ACQUIRE); }

void acl__prof_flags_update(void) {
  unsigned f = 0;
  if (running) {
    uint64_t b = sess.bits;
    if (b & ACL_PROF_ACL_API)
      f |= ACL__PROF_F_API;
    if (b & ACL_PROF_RUNTIME_API)
      f |= ACL__PROF_F_RT;
    if (b & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3))
      f |= ACL__PROF_F_TASK;
    if (b & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3))
      f |= ACL__PROF_F_OP;
    if (b & ACL_PROF_MSPROFTX)
      f |= ACL__PROF_F_TX;
    if (b & ACL_PROF_TASK_MEMORY)
      f |= ACL__PROF_F_MEM;
  }
  if (acl__prof_sub_any())
    f |= ACL__PROF_F_SUB;
  __atomic_store_n(&tx_on, (f & ACL__PROF_F_TX) != 0, __ATOMIC_RELEASE);
  atomic_store(&acl__prof_flags, f);
}

/* The vendor's adjustments of a data-type set (prof-dump.md §1.1). */
static uint64_t adjust_bits(uint64_t b) {
  if (b & ACL_PROF_API_STATS)
    return ACL_PROF_ACL_API | ACL_PROF_API_STATS;
  b |= PROF_AICPU_MODEL;
  if (b & ACL_PROF_TASK_TIME_L3)
    b |= ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2;
  if (b & (ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR))
    b |= ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0;
  if (b & ACL_PROF_TASK_TIME)
    b |= ACL_PROF_TASK_TIME_L0;
  if (b & ACL_PROF_TASK_TIME_L0)
    b |= ACL_PROF_TRAINING_TRACE;
  return b;
}

static int make_absolute(const char *p, char *out, size_t size) {
  if (p[0] == '/')
    return snprintf(out, size, "%s", p) < (int)size ? 0 : -1;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof(cwd)) == NULL)
    return -1;
  return snprintf(out, size, "%s/%s", cwd, p) < (int)size ? 0 : -1;
}

/* mkdir -p; 0 or an errno. */
static int mkdirs(const char *path) {
  char tmp[MAX_PATH_LEN];
  if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
    return ENAMETOOLONG;
  for (char *p = tmp + 1; *p != '\0'; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0750) != 0 && errno != EEXIST)
      return errno;
    *p = '/';
  }
  if (mkdir(tmp, 0750) != 0 && errno != EEXIST)
    return errno;
  struct stat st;
  if (stat(tmp, &st) != 0)
    return errno;
  if (!S_ISDIR(st.st_mode))
    return ENOTDIR;
  if (access(tmp, W_OK | X_OK) != 0)
    return errno;
  return 0;
}

/* Starts a session into root: PROF_<index>_<time>_<pid><letters>/ with
 * host/data, device_<id>/data and mindstudio_profiler_output.  0, or an errno. */
static int session_begin(const char *root, uint64_t bits, uint64_t devices, unsigned index) {
  int err = mkdirs(root);
  if (err != 0)
    return err;
  struct timespec rt, mt;
  clock_gettime(CLOCK_REALTIME, &rt);
  clock_gettime(CLOCK_MONOTONIC, &mt);
  struct tm tmv;
  localtime_r(&rt.tv_sec, &tmv);
  char when[32];
  strftime(when, sizeof(when), "%Y%m%d%H%M%S", &tmv);
  char letters[9];
  unsigned seed = (unsigned)(rt.tv_nsec ^ (long)getpid());
  for (int i = 0; i < 8; i++)
    letters[i] = (char)('A' + rand_r(&seed) % 18);
  letters[8] = '\0';
  memset(&sess, 0, sizeof(sess));
  if (snprintf(sess.dir, sizeof(sess.dir), "%s/PROF_%06u_%s%03ld_%08d%s", root, (index % 999999) + 1, when,
               rt.tv_nsec / 1000000, (int)getpid(), letters) >= (int)sizeof(sess.dir))
    return ENAMETOOLONG;
  char sub[MAX_PATH_LEN + 64];
  snprintf(sub, sizeof(sub), "%s/host/data", sess.dir);
  if ((err = mkdirs(sub)) != 0)
    return err;
  for (int d = 0; d < MAX_DEVICES; d++)
    if (devices & (1ull << d)) {
      snprintf(sub, sizeof(sub), "%s/device_%d/data", sess.dir, d);
      if ((err = mkdirs(sub)) != 0)
        return err;
    }
  snprintf(sub, sizeof(sub), "%s/mindstudio_profiler_output", sess.dir);
  if ((err = mkdirs(sub)) != 0)
    return err;
  sess.bits = bits;
  sess.devices = devices;
  sess.mono0 = (uint64_t)mt.tv_sec * 1000000000u + (uint64_t)mt.tv_nsec;
  sess.real0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
  sess.pid = (int)getpid();
  acl__prof_recorder_reset();
  if (bits & ACL_PROF_MSPROFTX)
    acl__prof_mstx_advertise();
  running = 1;
  acl__prof_flags_update();
  ACL__LOGI(ACL__MOD_ASCENDCL, "profiling started into %s (data types 0x%llx)", sess.dir,
            (unsigned long long)bits);
  return 0;
}

/* Stops the session and writes its files.  0, or an errno of the writing. */
static int session_end(void) {
  if (!running)
    return 0;
  running = 0;
  acl__prof_flags_update();
  sess.mono_end = acl__prof_now();
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  struct tm tmv;
  localtime_r(&rt.tv_sec, &tmv);
  strftime(sess.stamp, sizeof(sess.stamp), "%Y%m%d%H%M%S", &tmv);
  size_t n = 0;
  acl__prof_rec *recs = acl__prof_collect(&n);
  char out[MAX_PATH_LEN + 64], trace[MAX_PATH_LEN + 128];
  snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", sess.dir);
  snprintf(trace, sizeof(trace), "%s/msprof_%s.json", out, sess.stamp);
  int err = acl__prof_write_csv(&sess, recs, n, out);
  int err2 = acl__prof_write_trace(&sess, recs, n, trace);
  free(recs);
  if (err == 0)
    err = err2;
  if (err == 0)
    ACL__LOGI(ACL__MOD_ASCENDCL, "profiling data written to %s (%zu records)", sess.dir, n);
  else
    ACL__LOGE(ACL__MOD_ASCENDCL, "profiling data could not be written to %s: %s", sess.dir, strerror(err));
  return err;
}

aclError aclprofInit(const char *profilerResultPath, size_t length) {
  int rc = 0;
  pthread_mutex_lock(&acl__prof_lock);
  if (profilerResultPath == NULL) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "profilerResultPath is NULL. Remedy: pass the directory that is to "
                                            "hold the PROF_... results, and its length");
    goto out;
  }
  if (length == 0 || length >= MAX_PATH_LEN || strnlen(profilerResultPath, MAX_PATH_LEN) != length) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "length %zu does not match profilerResultPath (strlen %zu); it must "
                   "be strlen(path), from 1 to %d. Remedy: pass strlen(path)", length,
                   strnlen(profilerResultPath, MAX_PATH_LEN), MAX_PATH_LEN - 1);
    goto out;
  }
  const char *pm = getenv("PROFILING_MODE");
  if (pm != NULL && strcmp(pm, "dynamic") == 0) {
    rc = ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED, "PROFILING_MODE=dynamic is set, which leaves profiling to the "
                   "msprof launcher. Remedy: unset PROFILING_MODE to use the aclprof API");
    goto out;
  }
  if (mode == MODE_CMD) {
    rc = ACL__FAIL(ACL_ERROR_PROF_ALREADY_RUN, "the acl.json profiler section already profiles this process. "
                   "Remedy: turn profiler.switch off in acl.json to use the aclprof API");
    goto out;
  }
  if (mode == MODE_API) {
    rc = ACL__FAIL(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit was already called (path '%s'). Remedy: call "
                   "aclprofFinalize before initialising again with another path", init_path);
    goto out;
  }
  if (acl__prof_sub_any()) {
    rc = ACL__FAIL(ACL_ERROR_PROF_API_CONFLICT, "a model subscription (aclprofModelSubscribe) is open; the "
                   "subscription and aclprofInit..Finalize cannot be mixed. Remedy: aclprofModelUnSubscribe first");
    goto out;
  }
  for (size_t i = 0; i < length; i++)
    if ((unsigned char)profilerResultPath[i] < 0x20 || profilerResultPath[i] == 0x7f) {
      rc = ACL__FAIL(ACL_ERROR_INVALID_FILE, "profilerResultPath holds a control character at byte %zu. Remedy: "
                     "use a plain directory path", i);
      goto out;
    }
  if (make_absolute(profilerResultPath, init_path, sizeof(init_path)) != 0) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "profilerResultPath '%s' is too long once made absolute (limit %d). "
                   "Remedy: use a shorter path", profilerResultPath, MAX_PATH_LEN - 1);
    goto out;
  }
  mode = MODE_API;
out:
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

aclError aclprofFinalize(void) {
  int rc = 0;
  pthread_mutex_lock(&acl__prof_lock);
  if (mode == MODE_CMD) {
    rc = ACL__FAIL(ACL_ERROR_PROF_ALREADY_RUN, "the acl.json profiler section profiles this process; it ends at "
                   "aclFinalize. Remedy: do not call aclprofFinalize with profiler.switch on");
    goto out;
  }
  if (mode != MODE_API) {
    rc = ACL__FAIL(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called. Remedy: call aclprofInit first");
    goto out;
  }
  int err = session_end();
  mode = MODE_OFF;
  init_path[0] = '\0';
  if (err != 0)
    rc = ACL__FAIL(ACL_ERROR_PROFILING_FAILURE, "the profile of the running session could not be written to "
                   "'%s': %s. Remedy: check the directory's permissions and free space", sess.dir, strerror(err));
out:
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig) {
  uint32_t count = 0;
  aclprofConfig *c = NULL;
  if (aicoreEvents != NULL) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "aicoreEvents must be NULL (no AI Core events are collected)");
    goto out;
  }
  if (deviceNums > 0 && deviceIdList == NULL) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceIdList is NULL with deviceNums %u", deviceNums);
    goto out;
  }
  if (deviceNums == 0 && !(dataTypeConfig & ACL_PROF_MSPROFTX)) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceNums is 0; only a configuration with ACL_PROF_MSPROFTX may name no "
              "device. Remedy: list the devices to profile");
    goto out;
  }
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS)
    count = 0;
  if (deviceNums > MAX_DEVICES || deviceNums > count) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceNums %u is more than the %u devices of this process", deviceNums,
              count);
    goto out;
  }
  for (uint32_t i = 0; i < deviceNums; i++) {
    if (deviceIdList[i] >= count) {
      ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceIdList[%u] = %u is no device (there are %u)", i, deviceIdList[i],
                count);
      goto out;
    }
    for (uint32_t j = 0; j < i; j++)
      if (deviceIdList[j] == deviceIdList[i]) {
        ACL__FAIL(ACL_ERROR_INVALID_PARAM, "device %u is listed twice in deviceIdList", deviceIdList[i]);
        goto out;
      }
  }
  c = calloc(1, sizeof(*c));
  if (c == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a profiling configuration");
    goto out;
  }
  c->magic = CONFIG_MAGIC;
  c->n_devices = deviceNums;
  for (uint32_t i = 0; i < deviceNums; i++)
    c->devices[i] = deviceIdList[i];
  c->metrics = aicoreMetrics;
  c->bits = dataTypeConfig == 0 ? 0 : adjust_bits(dataTypeConfig);
out:
  return c;
}

static int config_check(const char *api, const aclprofConfig *c) {
  if (c == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "profilerConfig is NULL. Remedy: pass the config aclprofCreateConfig returned");
  if (c->magic != CONFIG_MAGIC)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "profilerConfig %p is no live profiling configuration (destroyed already, or not made by "
                     "aclprofCreateConfig)", (const void *)c);
  return 0;
}

aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig) {
  int rc = config_check(__func__, profilerConfig);
  if (rc == 0) {
    aclprofConfig *c = (aclprofConfig *)profilerConfig;
    c->magic = 0;
    free(c);
  }
  return rc;
}

static int parse_uint(const char *s, uint64_t lo, uint64_t hi) {
  if (s[0] == '\0')
    return 0;
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || v > UINT64_MAX / 10)
      return 0;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  return v >= lo && v <= hi;
}

static int in_list(const char *v, const char *const *names, int multi) {
  char buf[257];
  snprintf(buf, sizeof(buf), "%s", v);
  char *save = NULL;
  int n = 0;
  for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save), n++) {
    int ok = 0;
    for (int i = 0; names[i] != NULL; i++)
      ok |= strcmp(tok, names[i]) == 0;
    if (!ok || (!multi && n > 0))
      return 0;
  }
  return n > 0;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength) {
  static const char *const host_sys[] = {"cpu", "mem", "disk", "network", "osrt", "numa", NULL};
  static const char *const usage[] = {"cpu", "mem", NULL};
  static const char *const llc[] = {"read", "write", NULL};
  int rc = 0;
  if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX || configType == 2)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "configType %d is not an aclprofConfigType (1, 3..16)", (int)configType);
  if (config == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "config is NULL");
  if (configLength > 256 || strnlen(config, 257) != configLength)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "configLength %zu must be strlen(config) (%zu) and at most 256",
                     configLength, strnlen(config, 257));
  int ok = 1;
  const char *rule = "";
  switch (configType) {
  case ACL_PROF_STORAGE_LIMIT: {
    size_t n = strlen(config);
    char num[32] = "";
    ok = n > 2 && n < sizeof(num) + 2 && strcmp(config + n - 2, "MB") == 0;
    if (ok) {
      memcpy(num, config, n - 2);
      ok = parse_uint(num, 200, 4294967295ull);
    }
    rule = "a size \"<N>MB\" with N from 200 to 4294967295";
    break;
  }
  case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
  case ACL_PROF_SYS_IO_FREQ:
  case ACL_PROF_DVPP_FREQ:
  case ACL_PROF_LOW_POWER_FREQ:
    ok = parse_uint(config, 1, 100);
    rule = "a frequency from 1 to 100";
    break;
  case ACL_PROF_SYS_INTERCONNECTION_FREQ:
  case ACL_PROF_HOST_SYS_USAGE_FREQ:
  case ACL_PROF_SYS_CPU_FREQ:
    ok = parse_uint(config, 1, 50);
    rule = "a frequency from 1 to 50";
    break;
  case ACL_PROF_LLC_MODE:
    ok = in_list(config, llc, 0);
    rule = "\"read\" or \"write\"";
    break;
  case ACL_PROF_HOST_SYS:
    ok = in_list(config, host_sys, 1);
    rule = "a comma list of cpu, mem, disk, network, osrt, numa";
    break;
  case ACL_PROF_HOST_SYS_USAGE:
    ok = in_list(config, usage, 1);
    rule = "\"cpu\" or \"mem\"";
    break;
  case ACL_PROF_SYS_MEM_SERVICEFLOW:
  case ACL_PROF_OPTYPE:
    ok = config[0] != '\0';
    rule = "a non-empty string";
    break;
  case ACL_PROF_NTS_METRICS:
    if (strcmp(config, "PipeUtilization") != 0 && strncmp(config, "Custom:", 7) != 0)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ACL_PROF_NTS_METRICS value '%s' must be \"PipeUtilization\" or "
                       "\"Custom:<event>[,<event>...]\"", config);
    break;
  case ACL_PROF_PATH:
    ok = config[0] != '\0';
    rule = "a directory path";
    break;
  default:
    break;
  }
  if (!ok)
    return ACL__FAIL(ACL_ERROR_INVALID_PROFILING_CONFIG, "value '%s' of configType %d is not %s", config,
                     (int)configType, rule);
  if (configType == ACL_PROF_PATH) {
    pthread_mutex_lock(&acl__prof_lock);
    if (make_absolute(config, set_path, sizeof(set_path)) != 0)
      rc = ACL__FAIL(ACL_ERROR_INVALID_PROFILING_CONFIG, "ACL_PROF_PATH '%s' is too long once made absolute",
                     config);
    pthread_mutex_unlock(&acl__prof_lock);
  } else {
    ACL__LOGI(ACL__MOD_ASCENDCL, "aclprofSetConfig: type %d = '%s' accepted; the simulated device has no such "
              "sampling, so it changes nothing", (int)configType, config);
  }
  return rc;
}

static uint64_t device_mask(const aclprofConfig *c) {
  uint64_t m = 0;
  for (uint32_t i = 0; i < c->n_devices; i++)
    m |= 1ull << c->devices[i];
  return m;
}

static int bits_check(const char *api, const aclprofConfig *c) {
  if (c->bits == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "the configuration's dataTypeConfig is 0: nothing to collect. Remedy: set ACL_PROF_* bits in "
                     "aclprofCreateConfig");
  if (c->bits & ~k_public_bits)
    return acl__fail(api, ACL_ERROR_PROF_MODULES_UNSUPPORTED, __FILE__, __LINE__,
                     "dataTypeConfig 0x%llx has bits no ACL_PROF_* constant names (0x%llx)",
                     (unsigned long long)c->bits, (unsigned long long)(c->bits & ~k_public_bits));
  return 0;
}

aclError aclprofStart(const aclprofConfig *profilerConfig) {
  pthread_mutex_lock(&acl__prof_lock);
  int rc = config_check(__func__, profilerConfig);
  if (rc != 0)
    goto out;
  if ((rc = bits_check(__func__, profilerConfig)) != 0)
    goto out;
  if (mode == MODE_CMD) {
    rc = ACL__FAIL(ACL_ERROR_PROF_ALREADY_RUN, "the acl.json profiler section already profiles this process");
    goto out;
  }
  if (acl__prof_sub_any()) {
    rc = ACL__FAIL(ACL_ERROR_PROF_API_CONFLICT, "a model subscription is open; aclprofStart cannot run with it. "
                   "Remedy: aclprofModelUnSubscribe first");
    goto out;
  }
  if (mode != MODE_API) {
    rc = ACL__FAIL(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called. Remedy: call aclprofInit(path, "
                   "strlen(path)) before aclprofStart");
    goto out;
  }
  uint64_t devs = device_mask(profilerConfig);
  if (running) {
    if (devs & sess.devices) {
      rc = ACL__FAIL(ACL_ERROR_PROF_ALREADY_RUN, "a device of this configuration (mask 0x%llx) is already being "
                     "profiled. Remedy: aclprofStop it first", (unsigned long long)(devs & sess.devices));
    } else if (profilerConfig->bits != sess.bits) {
      rc = ACL__FAIL(ACL_ERROR_INVALID_PROFILING_CONFIG, "profiling already runs with data types 0x%llx; another "
                     "start must use the same data types (got 0x%llx)", (unsigned long long)sess.bits,
                     (unsigned long long)profilerConfig->bits);
    } else {
      sess.devices |= devs; /* more devices into the same session */
    }
    goto out;
  }
  const char *root = set_path[0] ? set_path : init_path;
  int err = session_begin(root, profilerConfig->bits, devs, start_index);
  if (err != 0) {
    rc = ACL__FAIL(ACL_ERROR_PROFILING_FAILURE, "cannot create the profiling directory under '%s': %s. Remedy: "
                   "pass aclprofInit a directory this process can create and write", root, strerror(err));
    goto out;
  }
  start_index++;
out:
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

aclError aclprofStop(const aclprofConfig *profilerConfig) {
  pthread_mutex_lock(&acl__prof_lock);
  int rc = config_check(__func__, profilerConfig);
  if (rc != 0)
    goto out;
  if ((rc = bits_check(__func__, profilerConfig)) != 0)
    goto out;
  if (mode == MODE_CMD) {
    rc = ACL__FAIL(ACL_ERROR_PROF_ALREADY_RUN, "the acl.json profiler section profiles this process; it stops at "
                   "aclFinalize");
    goto out;
  }
  if (mode != MODE_API) {
    rc = ACL__FAIL(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called");
    goto out;
  }
  uint64_t devs = device_mask(profilerConfig);
  if (!running || (devs != 0 && (devs & sess.devices) != devs)) {
    rc = ACL__FAIL(ACL_ERROR_PROF_NOT_RUN, "profiling is not running on every device of this configuration "
                   "(running: mask 0x%llx). Remedy: pass aclprofStop the config given to aclprofStart",
                   running ? (unsigned long long)sess.devices : 0ull);
    goto out;
  }
  sess.devices &= ~devs;
  if (sess.devices == 0) {
    int err = session_end();
    if (err != 0)
      rc = ACL__FAIL(ACL_ERROR_PROFILING_FAILURE, "the profile could not be written to '%s': %s. Remedy: check the "
                     "directory's permissions and free space", sess.dir, strerror(err));
  }
out:
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

/* ---- acl.json --------------------------------------------------------------- */

static int key_on(const struct acl__config *cfg, const char *key, int dflt) {
  const char *v = acl__config_prof(cfg, key);
  if (v == NULL)
    return dflt;
  return strcmp(v, "off") != 0;
}

void acl__prof_process_start(const struct acl__config *cfg) {
  const char *sw = acl__config_prof(cfg, "switch");
  if (sw == NULL || strcmp(sw, "on") != 0)
    return;
  const char *out = acl__config_prof_output(cfg);
  char root[MAX_PATH_LEN];
  const char *wp = getenv("ASCEND_WORK_PATH");
  if (out != NULL)
    snprintf(root, sizeof(root), "%s", out);
  else if (wp != NULL && wp[0] != '\0')
    snprintf(root, sizeof(root), "%s/profiling_data", wp);
  else if (getcwd(root, sizeof(root)) == NULL)
    return;
  uint64_t bits = 0;
  if (key_on(cfg, "ascendcl", 1) && key_on(cfg, "acl_api", 1))
    bits |= ACL_PROF_ACL_API;
  const char *tt = acl__config_prof(cfg, "task_time");
  if (tt == NULL || strcmp(tt, "on") == 0 || strcmp(tt, "l1") == 0)
    bits |= ACL_PROF_TASK_TIME;
  else if (strcmp(tt, "l0") == 0)
    bits |= ACL_PROF_TASK_TIME_L0;
  else if (strcmp(tt, "l2") == 0)
    bits |= ACL_PROF_TASK_TIME_L2;
  if (key_on(cfg, "runtime_api", 1))
    bits |= ACL_PROF_RUNTIME_API;
  if (key_on(cfg, "msproftx", 0))
    bits |= ACL_PROF_MSPROFTX;
  if (key_on(cfg, "task_memory", 0))
    bits |= ACL_PROF_TASK_MEMORY;
  if (key_on(cfg, "aicpu", 0))
    bits |= ACL_PROF_AICPU;
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || count == 0)
    count = 1;
  uint64_t devs = count >= 64 ? UINT64_MAX : (1ull << count) - 1;
  pthread_mutex_lock(&acl__prof_lock);
  if (mode == MODE_OFF) {
    int err = session_begin(root, adjust_bits(bits), devs, 0);
    if (err != 0)
      ACL__LOGE(ACL__MOD_ASCENDCL, "acl.json profiler: cannot create the profiling directory under '%s': %s; "
                "this run is not profiled", root, strerror(err));
    else
      mode = MODE_CMD;
  }
  pthread_mutex_unlock(&acl__prof_lock);
}

void acl__prof_process_stop(void) {
  pthread_mutex_lock(&acl__prof_lock);
  if (running)
    session_end();
  mode = MODE_OFF;
  init_path[0] = '\0';
  set_path[0] = '\0';
  pthread_mutex_unlock(&acl__prof_lock);
}
