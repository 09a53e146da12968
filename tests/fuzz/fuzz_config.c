/*
 * fuzz_config.c - libFuzzer target for the acl.json reader.
 *
 * Feeds arbitrary bytes to acl__config_parse and, when they parse, runs the
 * rest of what aclInit does with a configuration (environment paths, the
 * effective-configuration JSON, a diff against the defaults).  Any crash,
 * leak, sanitizer report or slow input is a bug.  Built by tests/fuzz/fuzz.cmake
 * (OPENACL_FUZZ=ON, clang); run by tests/fuzz/run_fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "common/diag.h"
#include "common/env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* Alternate between no environment and one with every path variable set,
   * chosen by the input so that runs are reproducible. */
  acl__env env;
  memset(&env, 0, sizeof(env));
  env.global_log_level = 3;
  env.log_flush_timeout_ms = 2000;
  env.device_count = 1;
  int with_env = size > 0 && (data[size - 1] & 1);
  if (with_env) {
    env.work_path = "/tmp/openacl-fuzz-work";
    env.npu_collect_path = (data[0] & 2) ? "relative/npu" : NULL;
    env.dump_path = "/proc/openacl-not-writable";
    env.rt_visible_devices.set = 1;
    env.rt_visible_devices.raw = "0,1";
  }

  acl__diags diags = {0};
  acl__config *cfg = acl__config_new();
  acl__config *defaults = acl__config_new();
  if (cfg == NULL || defaults == NULL)
    abort();
  int rc = acl__config_parse(cfg, (const char *)data, size, &diags);
  /* the code is the first error's, and errors carry their code */
  const acl__diag *first = acl__diags_first_error(&diags);
  if ((rc == 0) != (first == NULL) || (first != NULL && first->code != rc))
    abort();
  for (size_t i = 0; i < diags.count; i++)
    if (diags.items[i].path == NULL || diags.items[i].message == NULL)
      abort();
  if (rc == 0) {
    acl__config_apply_env(cfg, with_env ? &env : NULL, &diags);
    char *json = acl__config_to_json(cfg, with_env ? &env : NULL, (int)(size & 1));
    char *diff = acl__config_diff(defaults, cfg);
    free(json);
    free(diff);
    (void)acl__config_err_msg_mode(cfg);
    (void)acl__config_default_device(cfg);
  }
  acl__diags_free(&diags);
  acl__config_free(cfg);
  acl__config_free(defaults);
  return 0;
}
