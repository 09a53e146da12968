/*
 * config_cmd.c - `openacl config check FILE`: validates an acl.json exactly
 * as aclInit would (openaclCheckConfigFile: the same reader, parser, rules
 * and environment), without initialising anything.  Each problem is printed
 * with its key path; a valid file prints the effective configuration.
 *
 * The library's report is one line per problem, "error|warning <key path>:
 * <message>" ("(file)" when the problem is the file itself), followed by the
 * effective configuration as JSON when the file is valid.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "openacl/openacl.h"
#include "tool.h"

static void config_help(FILE *f) {
  fprintf(f, "usage: openacl config check [--json] FILE\n"
             "\n"
             "Validates an acl.json file exactly as aclInit(FILE) would, with the same\n"
             "environment variables applied, without initialising anything.\n"
             "\n"
             "Valid: the effective configuration (pretty JSON) on stdout, warnings on\n"
             "stderr, exit 0.  Invalid: one line per problem on stderr, naming the key\n"
             "path, then the code aclInit would return, exit 1.\n"
             "\n"
             "  --json      one JSON object on stdout instead: file, valid, code, name,\n"
             "              problems [{severity, key, message}], effective (null when\n"
             "              invalid); the exit status is the same\n"
             "  -h, --help  this text\n"
             "\n"
             "Exit status: 0 valid, 1 problems found, 2 usage error.\n");
}

static void json_string(const char *s, size_t len) {
  putchar('"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

/* Splits a problem line "error <key>: <message>" into its parts; 0 if the
 * line is not one (it is then the start of the JSON). */
typedef struct problem {
  int is_error;
  const char *key, *message;
  size_t key_len, message_len;
} problem;

static int parse_problem(const char *line, size_t len, problem *p) {
  const char *rest;
  if (len > 6 && strncmp(line, "error ", 6) == 0) {
    p->is_error = 1;
    rest = line + 6;
  } else if (len > 8 && strncmp(line, "warning ", 8) == 0) {
    p->is_error = 0;
    rest = line + 8;
  } else {
    return 0;
  }
  const char *end = line + len, *colon = memchr(rest, ':', (size_t)(end - rest));
  if (colon == NULL || colon + 1 >= end)
    return 0;
  p->key = rest;
  p->key_len = (size_t)(colon - rest);
  if (p->key_len == 6 && strncmp(p->key, "(file)", 6) == 0)
    p->key_len = 0; /* the file itself, not a key */
  p->message = colon + 2 <= end ? colon + 2 : end;
  p->message_len = (size_t)(end - p->message);
  return 1;
}

/* Prints the report as text; the JSON part (when valid) goes to stdout. */
static void print_text(const char *file, const char *report, aclError code) {
  const char *line = report;
  while (*line != '\0') {
    size_t len = strcspn(line, "\n");
    problem p;
    if (!parse_problem(line, len, &p)) {
      fputs(line, stdout); /* the effective configuration, to the end */
      if (line[strlen(line) - 1] != '\n')
        putchar('\n');
      break;
    }
    fprintf(stderr, "openacl: %s: %s: ", p.is_error ? "error" : "warning", file);
    if (p.key_len > 0)
      fprintf(stderr, "%.*s: ", (int)p.key_len, p.key);
    fprintf(stderr, "%.*s\n", (int)p.message_len, p.message);
    line += len + (line[len] == '\n');
  }
  if (code != ACL_SUCCESS) {
    openaclErrorInfo info;
    int known = openaclGetErrorInfo(code, &info) == ACL_SUCCESS;
    tool_error("%s is not a valid acl.json: aclInit would return %s (%d): %s", file,
               known ? info.name : "UNKNOWN_ERROR", (int)code, known ? info.meaning : "a code openacl does not know");
  }
}

static void print_json(const char *file, const char *report, aclError code) {
  const char *line = report, *effective = NULL;
  printf("{\n  \"file\": ");
  json_string(file, strlen(file));
  printf(",\n  \"valid\": %s,\n  \"code\": %d,\n  \"name\": ", code == ACL_SUCCESS ? "true" : "false", (int)code);
  const char *name = openaclGetErrorName(code);
  json_string(name, strlen(name));
  printf(",\n  \"problems\": [");
  int n = 0;
  while (*line != '\0') {
    size_t len = strcspn(line, "\n");
    problem p;
    if (!parse_problem(line, len, &p)) {
      effective = line;
      break;
    }
    printf("%s\n    {\"severity\": \"%s\", \"key\": ", n++ ? "," : "", p.is_error ? "error" : "warning");
    json_string(p.key, p.key_len);
    printf(", \"message\": ");
    json_string(p.message, p.message_len);
    putchar('}');
    line += len + (line[len] == '\n');
  }
  printf("%s],\n  \"effective\": ", n ? "\n  " : "");
  if (code == ACL_SUCCESS && effective != NULL) {
    /* The library's JSON, trimmed of its final newline, indented one level. */
    size_t len = strlen(effective);
    while (len > 0 && effective[len - 1] == '\n')
      len--;
    for (size_t i = 0; i < len; i++) {
      putchar(effective[i]);
      if (effective[i] == '\n')
        fputs("  ", stdout);
    }
  } else {
    fputs("null", stdout);
  }
  printf("\n}\n");
}

static int config_check(int argc, char **argv) {
  int json = 0, rc = TOOL_OK;
  const char *file = NULL;
  char *report = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      config_help(stdout);
      return TOOL_OK;
    }
    if (strcmp(a, "--json") == 0)
      json = 1;
    else if (a[0] == '-' && a[1] != '\0')
      return tool_usage_error("config check", "unknown option '%s' for 'openacl config check'", a);
    else if (file != NULL)
      return tool_usage_error("config check", "one FILE at a time ('%s' and '%s' given)", file, a);
    else
      file = a;
  }
  if (file == NULL)
    return tool_usage_error("config check", "no FILE given (e.g. 'openacl config check acl.json')");

  /* Ask for the size, then the report; the report is never an error when it
   * does not fit, so the code of the first call is already the verdict. */
  size_t needed = 0;
  aclError code = openaclCheckConfigFile(file, NULL, 0, &needed);
  report = malloc(needed ? needed : 1);
  if (report == NULL) {
    tool_error("out of host memory for the report on %s (%zu bytes)", file, needed);
    rc = TOOL_FAIL;
    goto cleanup;
  }
  report[0] = '\0';
  if (needed > 0)
    code = openaclCheckConfigFile(file, report, needed, &needed);
  (void)aclGetRecentErrMsg(); /* the report already holds the problems */
  if (json)
    print_json(file, report, code);
  else
    print_text(file, report, code);
  rc = code == ACL_SUCCESS ? TOOL_OK : TOOL_FAIL;

cleanup:
  free(report);
  return rc;
}

int tool_cmd_config(int argc, char **argv) {
  if (argc < 2)
    return tool_usage_error("config", "missing subcommand: 'openacl config check FILE'");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    config_help(stdout);
    return TOOL_OK;
  }
  if (strcmp(argv[1], "check") == 0)
    return config_check(argc - 1, argv + 1);
  return tool_usage_error("config", "unknown subcommand '%s': 'openacl config' has only 'check'", argv[1]);
}
