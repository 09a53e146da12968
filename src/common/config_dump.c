/*
 * config_dump.c - the "dump" section of acl.json: its keys, the dump_list
 * entries, the rules that involve several keys, and what the section turns
 * on (dump_state).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "acl/acl_base.h"
#include "common/config_internal.h"

/* ---- value tables ------------------------------------------------------- */

const char *const acl__cfg_dump_mode_names[] = {"input", "output", "all", NULL};
const char *const acl__cfg_dump_data_names[] = {"tensor", "stats", NULL};
const char *const acl__cfg_dump_level_names[] = {"op", "kernel", "all", NULL};
const char *const acl__cfg_dump_scene_names[] = {"aic_err_brief_dump", "aic_err_norm_dump",
                                                 "aic_err_detail_dump", "lite_exception",
                                                 "watcher", NULL};
const char *const acl__cfg_kernel_data_names[] = {"all", "printf", "tensor", "assert", "timestamp",
                                                  NULL};

const char *const acl__cfg_dump_stats_names[] = {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf",
                                                 "L2norm", NULL};

static const char *const k_dump_keys[] = {"dump_list", "dump_path", "dump_mode", "dump_op_switch",
                                          "dump_data", "dump_level", "dump_debug", "dump_scene",
                                          "dump_kernel_data", "dump_stats", "dump_step", NULL};

/* dump_step: "a|b-c|...", each item a step number or an ascending range,
 * at most 100 items.  0 when well formed, else *why says what is wrong. */
static int step_ok(const char *s, const char **why) {
  int items = 0;
  const char *p = s;
  if (*p == '\0') {
    *why = "is empty";
    return -1;
  }
  for (;;) {
    char *end;
    if (*p < '0' || *p > '9') {
      *why = "has an item that is not a step number or a range such as 10-20";
      return -1;
    }
    unsigned long long a = strtoull(p, &end, 10), b = a;
    p = end;
    if (*p == '-') {
      p++;
      if (*p < '0' || *p > '9') {
        *why = "has a range without its end (write it as 10-20)";
        return -1;
      }
      b = strtoull(p, &end, 10);
      p = end;
      if (b < a) {
        *why = "has a range whose end is below its start";
        return -1;
      }
    }
    if (++items > 100) {
      *why = "has more than 100 items";
      return -1;
    }
    if (*p == '\0')
      return 0;
    if (*p != '|') {
      *why = "is not a list of step numbers and ranges separated by '|', such as 0|5|10-20";
      return -1;
    }
    p++;
  }
}
static const char *const k_entry_keys[] = {"model_name", "layer", "watcher_nodes", NULL};

/* ---- what the section turns on ------------------------------------------ */

/* Fills s from the dump fields of cfg. */
void acl__cfg_dump_state_of(const acl__config *cfg, dump_state *s) {
  memset(s, 0, sizeof(*s));
  s->watcher = cfg->dump_scene == SCENE_WATCHER;
  s->exception = cfg->dump_scene >= SCENE_BRIEF && cfg->dump_scene <= SCENE_LITE;
  s->op = cfg->dump_op_switch;
  s->overflow = cfg->dump_debug;
  if (!s->watcher)
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      if (cfg->dump_list[i].model_name != NULL)
        s->model = 1;
  s->kernel = cfg->kernel_data;
  if (s->kernel == 0 && (s->model || s->op)) {
    s->kernel = KD_ALL;
    s->kernel_implied = 1;
  }
}

int acl__cfg_dump_any_on(const dump_state *s) {
  return s->model || s->op || s->overflow || s->exception || s->watcher || s->kernel;
}

/* ---- the keys and their rules -------------------------------------------- */

#define DUMP_ERR ACL_ERROR_INVALID_DUMP_CONFIG

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A sorted copy of a list's pointers (NULL when empty or out of memory). */
static char **sorted(const strlist *l) {
  if (l->count == 0)
    return NULL;
  char **s = malloc(l->count * sizeof(*s));
  if (s == NULL)
    return NULL;
  memcpy(s, l->items, l->count * sizeof(*s));
  qsort(s, l->count, sizeof(*s), cmp_str);
  return s;
}

static void warn_duplicates(pctx *c, const char *path, const strlist *l) {
  char **s = sorted(l);
  if (s == NULL)
    return;
  for (size_t i = 1; i < l->count; i++)
    if (strcmp(s[i - 1], s[i]) == 0 && (i == 1 || strcmp(s[i - 2], s[i]) != 0))
      acl__cfg_warn(c, path, "\"%.*s\" is listed more than once", CFG_SHOW_MAX, s[i]);
  free(s);
}

/* An array of non-empty operator names. */
static void get_name_list(pctx *c, const char *path, json_t *v, strlist *out) {
  shown s;
  if (!json_is_array(v)) {
    acl__cfg_err(c, DUMP_ERR, path, "%s is %s; expected an array of operator names",
                 acl__cfg_show(&s, v), acl__cfg_type_name(v));
    return;
  }
  size_t n = json_array_size(v);
  if (n == 0)
    return;
  out->items = calloc(n, sizeof(*out->items));
  if (out->items == NULL) {
    acl__cfg_err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
    return;
  }
  for (size_t i = 0; i < n; i++) {
    char child[CFG_PATH_MAX];
    acl__cfg_path_index(child, sizeof(child), path, i);
    const char *name = acl__cfg_get_string(c, DUMP_ERR, child, json_array_get(v, i),
                                           "a non-empty operator name");
    if (name == NULL)
      continue;
    char *d = acl__cfg_dup_str(c, child, name);
    if (d != NULL)
      out->items[out->count++] = d;
  }
  warn_duplicates(c, path, out);
}

static void entry_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                      void *arg) {
  (void)cfg;
  dump_entry *e = arg;
  if (strcmp(key, "model_name") == 0) {
    const char *name = acl__cfg_get_string(c, DUMP_ERR, path, v, "a non-empty model name");
    if (name != NULL)
      e->model_name = acl__cfg_dup_str(c, path, name);
  } else if (strcmp(key, "layer") == 0) {
    e->has_layer = 1;
    get_name_list(c, path, v, &e->layer);
  } else {
    e->has_watcher_nodes = 1;
    get_name_list(c, path, v, &e->watcher_nodes);
  }
}

static void parse_dump_list(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  shown s;
  if (!json_is_array(v)) {
    acl__cfg_err(c, DUMP_ERR, path, "%s is %s; expected an array of objects", acl__cfg_show(&s, v),
                 acl__cfg_type_name(v));
    return;
  }
  cfg->dump_list_present = 1;
  acl__cfg_dump_list_free(cfg);
  size_t n = json_array_size(v);
  if (n == 0)
    return;
  cfg->dump_list = calloc(n, sizeof(*cfg->dump_list));
  if (cfg->dump_list == NULL) {
    acl__cfg_err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
    return;
  }
  cfg->dump_list_count = n;
  for (size_t i = 0; i < n; i++) {
    char child[CFG_PATH_MAX];
    acl__cfg_path_index(child, sizeof(child), path, i);
    json_t *e = json_array_get(v, i);
    if (!json_is_object(e)) {
      acl__cfg_err(c, DUMP_ERR, child,
                   "%s is %s; expected an object such as {\"model_name\": \"...\"}",
                   acl__cfg_show(&s, e), acl__cfg_type_name(e));
      continue;
    }
    acl__cfg_walk_object(c, cfg, child, e, k_entry_keys, entry_key, &cfg->dump_list[i]);
  }
}

/* dump_stats: an array of names from acl__cfg_dump_stats_names. */
static void parse_dump_stats(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  shown s;
  if (!json_is_array(v) || json_array_size(v) == 0) {
    acl__cfg_err(c, DUMP_ERR, path,
                 "%s is %s; expected a non-empty array of statistics such as [\"Max\", \"Min\", \"L2norm\"] "
                 "(Max, Min, Avg, Nan, Negative Inf, Positive Inf, L2norm)",
                 acl__cfg_show(&s, v), acl__cfg_type_name(v));
    return;
  }
  unsigned bits = 0;
  int bad = 0;
  for (size_t i = 0; i < json_array_size(v); i++) {
    char child[CFG_PATH_MAX];
    acl__cfg_path_index(child, sizeof(child), path, i);
    json_t *e = json_array_get(v, i);
    int found = -1;
    for (int k = 0; json_is_string(e) && acl__cfg_dump_stats_names[k] != NULL; k++)
      if (strcmp(json_string_value(e), acl__cfg_dump_stats_names[k]) == 0)
        found = k;
    if (found < 0) {
      acl__cfg_err(c, DUMP_ERR, child,
                   "%s is not a statistic; use one of Max, Min, Avg, Nan, Negative Inf, Positive Inf, L2norm",
                   acl__cfg_show(&s, e));
      bad = 1;
    } else {
      bits |= 1u << found;
    }
  }
  if (!bad)
    cfg->dump_stats = bits;
}

static void dump_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                     void *arg) {
  (void)arg;
  int i;
  if (strcmp(key, "dump_list") == 0) {
    parse_dump_list(c, cfg, path, v);
  } else if (strcmp(key, "dump_path") == 0) {
    const char *p = acl__cfg_get_string(c, DUMP_ERR, path, v, "a directory path");
    if (p != NULL && strlen(p) >= PATH_MAX) {
      shown s;
      acl__cfg_err(c, DUMP_ERR, path, "%s is longer than %d bytes", acl__cfg_show(&s, v),
                   PATH_MAX - 1);
    } else if (p != NULL) {
      free(cfg->dump_path);
      cfg->dump_path = acl__cfg_dup_str(c, path, p);
    }
  } else if (strcmp(key, "dump_mode") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_dump_mode_names)) >= 0) {
      cfg->dump_mode = i;
      cfg->dump_mode_given = 1;
    }
  } else if (strcmp(key, "dump_op_switch") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_on_off_names)) >= 0)
      cfg->dump_op_switch = i == 0;
  } else if (strcmp(key, "dump_data") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_dump_data_names)) >= 0)
      cfg->dump_data = i;
  } else if (strcmp(key, "dump_level") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_dump_level_names)) >= 0)
      cfg->dump_level = i;
  } else if (strcmp(key, "dump_debug") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_on_off_names)) >= 0)
      cfg->dump_debug = i == 0;
  } else if (strcmp(key, "dump_scene") == 0) {
    if ((i = acl__cfg_get_enum(c, DUMP_ERR, path, v, acl__cfg_dump_scene_names)) >= 0)
      cfg->dump_scene = i;
  } else if (strcmp(key, "dump_stats") == 0) {
    parse_dump_stats(c, cfg, path, v);
  } else if (strcmp(key, "dump_step") == 0) {
    const char *p = acl__cfg_get_string(c, DUMP_ERR, path, v, "a list of steps such as \"0|5|10-20\"");
    const char *why = NULL;
    if (p != NULL && step_ok(p, &why) != 0) {
      shown s;
      acl__cfg_err(c, DUMP_ERR, path, "%s %s", acl__cfg_show(&s, v), why);
    } else if (p != NULL) {
      free(cfg->dump_step);
      cfg->dump_step = acl__cfg_dup_str(c, path, p);
    }
  } else { /* dump_kernel_data */
    unsigned bits;
    if (acl__cfg_get_name_set(c, DUMP_ERR, path, v, acl__cfg_kernel_data_names, &bits) == 0) {
      if ((bits & KD_ALL) && bits != KD_ALL)
        acl__cfg_warn(c, path, "\"all\" already includes the other items");
      cfg->kernel_data = bits;
    }
  }
}

/* Names in both lists of a watcher entry: only their watcher output is dumped. */
static void warn_overlap(pctx *c, const char *path, const dump_entry *e) {
  char **a = sorted(&e->layer), **b = sorted(&e->watcher_nodes);
  size_t i = 0, j = 0;
  while (a && b && i < e->layer.count && j < e->watcher_nodes.count) {
    int r = strcmp(a[i], b[j]);
    if (r == 0) {
      acl__cfg_warn(c, path,
                    "\"%.*s\" is in both layer and watcher_nodes; only its watcher output is "
                    "dumped", CFG_SHOW_MAX, a[i]);
      const char *same = a[i];
      while (i < e->layer.count && strcmp(a[i], same) == 0)
        i++;
      while (j < e->watcher_nodes.count && strcmp(b[j], same) == 0)
        j++;
    } else if (r < 0) {
      i++;
    } else {
      j++;
    }
  }
  free(a);
  free(b);
}

/* The rules that involve several dump keys; run after every key is read. */
static void dump_cross_rules(pctx *c, acl__config *cfg) {
  dump_state st;
  acl__cfg_dump_state_of(cfg, &st);
  char path[CFG_PATH_MAX];
  const char *scene = cfg->dump_scene >= 0 ? acl__cfg_dump_scene_names[cfg->dump_scene] : "";

  if (cfg->dump_stats != 0 && cfg->dump_data != DUMP_DATA_STATS)
    acl__cfg_warn(c, "dump.dump_stats", "ignored: it chooses the columns of dump_data \"stats\", and dump_data is "
                                        "\"tensor\"");
  for (size_t i = 0; i < cfg->dump_list_count; i++) {
    const dump_entry *e = &cfg->dump_list[i];
    char entry[CFG_PATH_MAX];
    acl__cfg_path_index(entry, sizeof(entry), "dump.dump_list", i);
    if (st.watcher) {
      if (e->model_name != NULL) {
        acl__cfg_path_key(path, sizeof(path), entry, "model_name");
        acl__cfg_err(c, DUMP_ERR, path,
                     "\"%.*s\": model_name is not allowed with dump_scene \"watcher\"",
                     CFG_SHOW_MAX, e->model_name);
      }
      warn_overlap(c, entry, e);
    } else {
      if (e->has_watcher_nodes) {
        acl__cfg_path_key(path, sizeof(path), entry, "watcher_nodes");
        acl__cfg_warn(c, path, "ignored: watcher_nodes applies only with dump_scene \"watcher\"");
      }
      if (e->model_name == NULL && e->has_layer) {
        acl__cfg_path_key(path, sizeof(path), entry, "layer");
        acl__cfg_err(c, DUMP_ERR, path,
                     "layer without model_name; a model dump entry needs "
                     "\"model_name\" (layer alone is for dump_scene \"watcher\")");
      }
    }
  }
  if (st.exception && (st.model || st.op))
    acl__cfg_err(c, DUMP_ERR, "dump.dump_scene",
                 "\"%s\" (exception dump) cannot be combined with %s", scene,
                 st.model ? "model dump (dump_list with model_name)"
                 : "single-operator dump (dump_op_switch \"on\")");
  if (st.overflow && (st.model || st.op))
    acl__cfg_err(c, DUMP_ERR, "dump.dump_debug",
                 "\"on\" (overflow dump) cannot be combined with %s",
                 st.model ? "model dump (dump_list with model_name)"
                 : "single-operator dump (dump_op_switch \"on\")");
  if (st.watcher) {
    if (st.overflow)
      acl__cfg_err(c, DUMP_ERR, "dump.dump_debug",
                   "\"on\" cannot be combined with dump_scene \"watcher\"");
    if (st.op)
      acl__cfg_err(c, DUMP_ERR, "dump.dump_op_switch",
                   "\"on\" cannot be combined with dump_scene \"watcher\"");
    if (cfg->dump_mode_given && cfg->dump_mode != DUMP_MODE_OUTPUT)
      acl__cfg_err(c, DUMP_ERR, "dump.dump_mode",
                   "\"%s\" is not allowed with dump_scene \"watcher\"; only output",
                   acl__cfg_dump_mode_names[cfg->dump_mode]);
    int nodes = 0;
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      nodes |= cfg->dump_list[i].watcher_nodes.count > 0;
    if (!nodes)
      acl__cfg_err(c, DUMP_ERR, "dump.dump_list",
                   "dump_scene \"watcher\" needs a dump_list entry with watcher_nodes");
  }
  if (cfg->dump_path == NULL) {
    const char *need = st.model      ? "model dump (dump_list with model_name)"
                       : st.op       ? "single-operator dump (dump_op_switch \"on\")"
                       : st.overflow ? "overflow dump (dump_debug \"on\")"
                       : st.watcher  ? "dump_scene \"watcher\""
                       : cfg->kernel_data ? "dump_kernel_data"
                                          : NULL;
    if (need != NULL)
      acl__cfg_err(c, DUMP_ERR, "dump.dump_path", "missing; required with %s", need);
  }
  if (cfg->dump_list_count > 0 && !st.model && !st.op && !st.watcher) {
    int only_empty = 1;
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      only_empty &= cfg->dump_list[i].model_name == NULL && !cfg->dump_list[i].has_layer;
    if (only_empty)
      acl__cfg_warn(c, "dump.dump_list", "no entry names a model and dump_op_switch is off; "
                                         "no model or operator is dumped");
  }
}

void acl__cfg_parse_dump(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  if (!acl__cfg_need_object(c, DUMP_ERR, path, v))
    return;
  cfg->dump_present = 1;
  acl__cfg_walk_object(c, cfg, path, v, k_dump_keys, dump_key, NULL);
  dump_cross_rules(c, cfg);
}
