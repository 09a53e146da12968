/*
 * main.c - `openacl <command> [options]`: dispatches to the subcommands.
 * Each subcommand parses its own options and returns the exit code
 * (tool.h): 0 success, 1 failure, 2 usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "tool.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} commands[] = {
    {"infer", tool_cmd_infer, "run a model on input files, print latency and throughput (msame / ais_bench)"},
    {"devices", tool_cmd_devices, "list the visible devices"},
    {"explain", tool_cmd_explain, "explain an ACL error code or name"},
    {"config", tool_cmd_config, "check an acl.json file as aclInit would ('openacl config check FILE')"},
    {"prof", tool_cmd_prof, "summarise a profile: top operators, stream utilisation, idle gaps"},
};
enum { N_COMMANDS = sizeof(commands) / sizeof(commands[0]) };

static void usage(FILE *f) {
  fprintf(f, "usage: openacl <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n"
             "  openacl --version   the tool's version and the ACL API level it implements\n"
             "  openacl help CMD    the same as 'openacl CMD --help'\n"
             "\n"
             "'openacl <command> --help' describes a command's options.  Exit status: 0 success,\n"
             "1 failure, 2 usage error.  Documentation: docs/tool.md.\n");
}

static int find_command(const char *name) {
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      return (int)i;
  return -1;
}

/* A command that starts like `name` or that `name` starts like ("dev",
 * "devices-list"), for "did you mean"; -1 when none. */
static int close_command(const char *name) {
  size_t len = strlen(name);
  for (size_t i = 0; i < N_COMMANDS; i++) {
    size_t clen = strlen(commands[i].name), n = len < clen ? len : clen;
    if (n >= 3 && strncmp(name, commands[i].name, n) == 0)
      return (int)i;
  }
  return -1;
}

static int version(void) {
  int32_t major = 0, minor = 0, patch = 0;
  printf("openacl %s\n", OPENACL_TOOL_VERSION);
  if (aclrtGetVersion(&major, &minor, &patch) == ACL_SUCCESS)
    printf("ACL API %d.%d.%d\n", (int)major, (int)minor, (int)patch);
  return TOOL_OK;
}

int main(int argc, char **argv) {
  /* The tool reports every failure on stderr itself; the library's log files
   * would land outside --output (in $HOME/ascend/log).  A user who wants them
   * sets ASCEND_GLOBAL_LOG_LEVEL (and ASCEND_PROCESS_LOG_PATH) explicitly. */
  if (getenv("ASCEND_GLOBAL_LOG_LEVEL") == NULL)
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
  if (argc < 2) {
    usage(stderr);
    return TOOL_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || (strcmp(cmd, "help") == 0 && argc == 2)) {
    usage(stdout);
    return TOOL_OK;
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0 || strcmp(cmd, "version") == 0)
    return version();
  if (strcmp(cmd, "help") == 0) {
    /* `openacl help CMD` runs `openacl CMD --help`. */
    int i = find_command(argv[2]);
    if (i < 0) {
      tool_error("unknown command '%s'; the commands are infer, devices, explain, config, prof (see 'openacl --help')",
                 argv[2]);
      return TOOL_USAGE;
    }
    char *help_argv[] = {argv[2], "--help", NULL};
    return commands[i].run(2, help_argv);
  }
  int i = find_command(cmd);
  if (i >= 0)
    return commands[i].run(argc - 1, argv + 1);
  int close = close_command(cmd);
  if (cmd[0] == '-')
    tool_error("'%s' is not a command; options go after the command, e.g. 'openacl infer %s ...' (see 'openacl "
               "--help')",
               cmd, cmd);
  else if (close >= 0)
    tool_error("unknown command '%s'; did you mean '%s'? (see 'openacl --help')", cmd, commands[close].name);
  else
    tool_error("unknown command '%s'; the commands are infer, devices, explain, config, prof (see 'openacl --help')", cmd);
  return TOOL_USAGE;
}
