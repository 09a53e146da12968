/*
 * config_json.c - the effective acl.json configuration (defaults, file,
 * environment, rounding) as JSON for acl__config_to_json, and
 * acl__config_diff, which compares two configurations on that JSON.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/config_internal.h"

/* ---- the effective configuration ---------------------------------------- */

/* json_object_set_new that tolerates NULL values (out of memory). */
static void put(json_t *obj, const char *key, json_t *v) {
  if (obj != NULL && v != NULL)
    json_object_set_new(obj, key, v);
  else
    json_decref(v);
}

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *uint_json(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *strlist_json(const strlist *l) {
  json_t *a = json_array();
  for (size_t i = 0; a != NULL && i < l->count; i++)
    json_array_append_new(a, json_string(l->items[i]));
  return a;
}

static json_t *dump_json(const acl__config *cfg, int derived) {
  dump_state st;
  acl__cfg_dump_state_of(cfg, &st);
  json_t *d = json_object();
  json_t *list = json_array();
  for (size_t i = 0; list != NULL && i < cfg->dump_list_count; i++) {
    const dump_entry *e = &cfg->dump_list[i];
    json_t *o = json_object();
    if (e->model_name != NULL)
      put(o, "model_name", json_string(e->model_name));
    if (e->has_layer)
      put(o, "layer", strlist_json(&e->layer));
    if (e->has_watcher_nodes)
      put(o, "watcher_nodes", strlist_json(&e->watcher_nodes));
    if (o != NULL)
      json_array_append_new(list, o);
  }
  put(d, "dump_list", list);
  put(d, "dump_path", str_or_null(cfg->dump_path));
  put(d, "dump_mode", json_string(acl__cfg_dump_mode_names[cfg->dump_mode]));
  put(d, "dump_op_switch", json_string(cfg->dump_op_switch ? "on" : "off"));
  put(d, "dump_data", json_string(acl__cfg_dump_data_names[cfg->dump_data]));
  put(d, "dump_level", json_string(acl__cfg_dump_level_names[cfg->dump_level]));
  put(d, "dump_debug", json_string(cfg->dump_debug ? "on" : "off"));
  put(d, "dump_scene",
      cfg->dump_scene >= 0 ? json_string(acl__cfg_dump_scene_names[cfg->dump_scene]) : json_null());
  if (cfg->dump_stats != 0) {
    json_t *ds = json_array();
    for (int i = 0; acl__cfg_dump_stats_names[i] != NULL; i++)
      if (cfg->dump_stats & (1u << i))
        json_array_append_new(ds, json_string(acl__cfg_dump_stats_names[i]));
    put(d, "dump_stats", ds);
  }
  if (cfg->dump_step != NULL)
    put(d, "dump_step", json_string(cfg->dump_step));
  if (st.kernel != 0) {
    char kd[128] = "";
    for (int i = 0; acl__cfg_kernel_data_names[i] != NULL; i++)
      if (st.kernel & (1u << i)) {
        if (kd[0] != '\0')
          acl__cfg_append(kd, sizeof(kd), ",");
        acl__cfg_append(kd, sizeof(kd), acl__cfg_kernel_data_names[i]);
      }
    put(d, "dump_kernel_data", json_string(kd));
  } else {
    put(d, "dump_kernel_data", json_null());
  }
  if (!derived)
    return d;
  json_t *on = json_object();
  put(on, "model_dump", json_boolean(st.model));
  put(on, "op_dump", json_boolean(st.op));
  put(on, "overflow_dump", json_boolean(st.overflow));
  put(on, "exception_dump", json_boolean(st.exception));
  put(on, "watcher", json_boolean(st.watcher));
  put(on, "kernel_data", json_boolean(st.kernel != 0));
  put(on, "kernel_data_implied", json_boolean(st.kernel_implied));
  put(d, "enabled", on);
  json_t *paths = json_object();
  put(paths, "dump_path", str_or_null(cfg->dump_path_abs));
  put(paths, "exception_dump_path", str_or_null(cfg->exception_path));
  put(paths, "exception_dump_path_from", str_or_null(cfg->exception_path_source));
  put(paths, "kernel_data_path", str_or_null(cfg->kernel_data_path));
  put(paths, "kernel_data_path_from", str_or_null(cfg->kernel_data_path_source));
  put(d, "resolved", paths);
  return d;
}

static json_t *env_json(const acl__env *env) {
  json_t *e = json_object();
  put(e, "ASCEND_GLOBAL_LOG_LEVEL", json_integer(env->global_log_level));
  put(e, "ASCEND_SLOG_PRINT_TO_STDOUT", json_integer(env->print_to_stdout));
  put(e, "ASCEND_PROCESS_LOG_PATH", str_or_null(env->process_log_path));
  put(e, "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", json_integer(env->log_flush_timeout_ms));
  put(e, "ASCEND_WORK_PATH", str_or_null(env->work_path));
  put(e, "NPU_COLLECT_PATH", str_or_null(env->npu_collect_path));
  put(e, "ASCEND_DUMP_PATH", str_or_null(env->dump_path));
  put(e, "ASCEND_RT_VISIBLE_DEVICES",
      str_or_null(env->rt_visible_devices.set ? env->rt_visible_devices.raw : NULL));
  put(e, "ASCEND_VISIBLE_DEVICES",
      str_or_null(env->visible_devices.set ? env->visible_devices.raw : NULL));
  put(e, "ASCEND_HOST_LOG_FILE_NUM", json_integer(env->host_log_file_num));
  json_t *mods = json_object();
  static const char *const mod_names[ACL__MOD_COUNT] = {
#define CONFIG_MOD_NAME(name) #name,
      ACL__LOG_MODULES(CONFIG_MOD_NAME)
#undef CONFIG_MOD_NAME
  };
  for (int m = 0; m < ACL__MOD_COUNT; m++)
    put(mods, mod_names[m],
        json_integer(env->module_log_level[m] >= 0 ? env->module_log_level[m] : env->global_log_level));
  put(e, "ASCEND_MODULE_LOG_LEVEL (effective)", mods);
  put(e, "OPENACL_DEVICE_COUNT", json_integer(env->device_count));
  put(e, "OPENACL_SOC_NAME", str_or_null(env->soc_name));
  put(e, "OPENACL_BACKEND", str_or_null(env->backend));
  put(e, "OPENACL_LOG_FILE_SIZE", json_integer((json_int_t)env->log_file_size));
  return e;
}

/* The effective configuration as a JSON tree.  `full` adds what is derived
 * or resolved (dump.enabled, dump.resolved, profiler.output_resolved) and
 * "environment"; without it only what a file configures is left, which is
 * what two configurations are compared on. */
static json_t *config_json(const acl__config *cfg, const acl__env *env, int full) {
  json_t *root = json_object();
  if (root == NULL)
    return NULL;
  put(root, "dump", dump_json(cfg, full));

  json_t *prof = json_object();
  put(prof, "switch", json_string(cfg->prof[PROF_SWITCH] ? cfg->prof[PROF_SWITCH] : "off"));
  for (size_t i = 1; i < PROF_KEY_COUNT; i++)
    put(prof, acl__cfg_prof_keys[i].key, str_or_null(cfg->prof[i]));
  if (full)
    put(prof, "output_resolved", str_or_null(cfg->prof_output_abs));
  put(root, "profiler", prof);

  put(root, "max_opqueue_num", uint_json(cfg->max_opqueue_num));
  put(root, "err_msg_mode", json_string(cfg->err_msg_mode ? "1" : "0"));
  json_t *dev = json_object();
  put(dev, "default_device",
      cfg->default_device >= 0 ? json_integer(cfg->default_device) : json_null());
  put(root, "defaultDevice", dev);
  json_t *stack = json_object();
  put(stack, "aicore_stack_size", uint_json(cfg->aicore_stack_size));
  put(stack, "simt_stack_size",
      cfg->simt_stack_size ? uint_json(cfg->simt_stack_size) : json_null());
  put(stack, "simt_divergence_stack_size",
      cfg->simt_divergence_stack_size ? uint_json(cfg->simt_divergence_stack_size)
                                      : json_null());
  put(root, "StackSize", stack);
  put(root, "simt_printf_fifo_size", uint_json(cfg->simt_printf_fifo_size));
  put(root, "simd_printf_fifo_size_per_core", uint_json(cfg->simd_printf_fifo_size_per_core));
  json_t *graph = json_object();
  put(graph, "event_mode", json_string(cfg->event_mode ? "1" : "0"));
  put(root, "acl_graph", graph);
  if (full)
    put(root, "environment", env ? env_json(env) : json_null());
  return root;
}

char *acl__config_to_json(const acl__config *cfg, const acl__env *env, int compact) {
  if (cfg == NULL)
    return NULL;
  json_t *root = config_json(cfg, env, 1);
  if (root == NULL)
    return NULL;
  char *text = json_dumps(root, (compact ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER);
  json_decref(root);
  return text;
}

/* ---- differences --------------------------------------------------------- */

typedef struct strbuf {
  char *data;
  size_t len, cap;
  int oom;
} strbuf;

static void sb_add(strbuf *b, const char *s) {
  size_t n = strlen(s);
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *d = realloc(b->data, cap);
    if (d == NULL) {
      b->oom = 1;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

static void diff_one(strbuf *b, const char *path, const json_t *x, const json_t *y) {
  if (json_is_object(x) && json_is_object(y)) {
    const char *key;
    json_t *v;
    char child[CFG_PATH_MAX];
    json_object_foreach((json_t *)x, key, v) {
      acl__cfg_path_key(child, sizeof(child), path, key);
      json_t *w = json_object_get(y, key);
      diff_one(b, child, v, w ? w : json_null());
    }
    json_object_foreach((json_t *)y, key, v) {
      if (json_object_get(x, key) != NULL)
        continue;
      acl__cfg_path_key(child, sizeof(child), path, key);
      diff_one(b, child, json_null(), v);
    }
    return;
  }
  if (json_equal(x, y))
    return;
  shown sx, sy;
  if (b->len > 0)
    sb_add(b, "; ");
  sb_add(b, path);
  sb_add(b, ": ");
  sb_add(b, acl__cfg_show(&sx, x));
  sb_add(b, " -> ");
  sb_add(b, acl__cfg_show(&sy, y));
}

char *acl__config_diff(const acl__config *a, const acl__config *b) {
  if (a == NULL || b == NULL)
    return NULL;
  json_t *x = config_json(a, NULL, 0), *y = config_json(b, NULL, 0);
  char *out = NULL;
  if (x != NULL && y != NULL) {
    strbuf sb = {NULL, 0, 0, 0};
    diff_one(&sb, "", x, y);
    if (sb.oom)
      free(sb.data);
    else
      out = sb.data ? sb.data : strdup("");
  }
  json_decref(x);
  json_decref(y);
  return out;
}
