/*
 * explain.c - `openacl explain CODE|NAME...` and `openacl explain --list`:
 * what an ACL error code means, its usual causes and the remedy, read from
 * the library's error table (openaclGetErrorInfo and friends), so the tool
 * never carries a second copy of the texts.
 *
 * Names are matched without regard to case, with or without the ACL_,
 * ACL_ERROR_, ACL_ERROR_RT_ or ACL_ERROR_GE_ prefix: people type what they
 * read in a log ("context_null", "107002", "acl_error_rt_context_null").
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "openacl/openacl.h"
#include "tool.h"

static void explain_help(FILE *f) {
  fprintf(f, "usage: openacl explain [--json] CODE|NAME...\n"
             "       openacl explain --list [--json]\n"
             "\n"
             "Explains ACL error codes from openacl's error table: name, code, meaning,\n"
             "likely causes and remedy.\n"
             "\n"
             "  CODE      a decimal code (107002) or a hexadecimal one (0x1a1fa)\n"
             "  NAME      a code's name, in any case, with or without its ACL_, ACL_ERROR_,\n"
             "            ACL_ERROR_RT_ or ACL_ERROR_GE_ prefix (context_null)\n"
             "  --list    every code the table knows, one per line\n"
             "  --json    JSON instead of text: one object per code, in an array\n"
             "  -h, --help  this text\n"
             "\n"
             "Exit status: 0 all found, 1 a code or name is unknown (close names are\n"
             "suggested), 2 usage error.\n");
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* Every name sharing info's code, but info's own: the aliases. */
static size_t aliases_of(const openaclErrorInfo *info, const char **out, size_t max) {
  size_t n = 0, count = openaclGetErrorCount();
  for (size_t i = 0; i < count && n < max; i++) {
    openaclErrorInfo e;
    if (openaclGetErrorInfoByIndex(i, &e) == ACL_SUCCESS && e.code == info->code && strcmp(e.name, info->name) != 0)
      out[n++] = e.name;
  }
  return n;
}

static void print_json(FILE *f, const openaclErrorInfo *info, int with_aliases) {
  fputs("  {\"name\": ", f);
  json_string(f, info->name);
  fprintf(f, ", \"code\": %d, \"meaning\": ", (int)info->code);
  json_string(f, info->meaning);
  fputs(", \"causes\": ", f);
  json_string(f, info->causes);
  fputs(", \"remedy\": ", f);
  json_string(f, info->remedy);
  if (with_aliases) {
    const char *al[8];
    size_t n = aliases_of(info, al, 8);
    fputs(", \"aliases\": [", f);
    for (size_t i = 0; i < n; i++) {
      if (i)
        fputs(", ", f);
      json_string(f, al[i]);
    }
    fputc(']', f);
  }
  fputc('}', f);
}

static void print_text(FILE *f, const openaclErrorInfo *info) {
  const char *al[8];
  size_t n = aliases_of(info, al, 8);
  fprintf(f, "%s (%d)\n", info->name, (int)info->code);
  if (n > 0) {
    fputs("  also named: ", f);
    for (size_t i = 0; i < n; i++)
      fprintf(f, "%s%s", i ? ", " : "", al[i]);
    fputc('\n', f);
  }
  fprintf(f, "  meaning: %s\n  causes:  %s\n  remedy:  %s\n", info->meaning, info->causes, info->remedy);
}

/* ---- lookups ------------------------------------------------------------- */

/* Upper case, '-' and ' ' read as '_': "rt-context-null" -> "RT_CONTEXT_NULL". */
static void normalise(const char *in, char *out, size_t size) {
  size_t i = 0;
  for (; in[i] && i + 1 < size; i++)
    out[i] = (in[i] == '-' || in[i] == ' ') ? '_' : (char)toupper((unsigned char)in[i]);
  out[i] = '\0';
}

/* The table's entry named prefix+key (key already normalised), if any. */
static int find_name(const char *prefix, const char *key, openaclErrorInfo *info) {
  char full[160];
  if ((size_t)snprintf(full, sizeof(full), "%s%s", prefix, key) >= sizeof(full))
    return 0;
  return openaclGetErrorInfoByName(full, info) == ACL_SUCCESS;
}

/* Parses a whole argument as a code: decimal (optionally negative) or 0x hex. */
static int parse_code(const char *s, aclError *code) {
  const char *p = s[0] == '-' ? s + 1 : s;
  int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
  if (!(hex ? isxdigit((unsigned char)p[2]) : isdigit((unsigned char)p[0])))
    return 0;
  char *end;
  errno = 0;
  long v = strtol(s, &end, hex ? 16 : 10);
  if (*end != '\0')
    return 0;
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
    return -1;
  *code = (aclError)v;
  return 1;
}

static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b), row[161];
  if (lb > 160)
    return (size_t)-1;
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The name without the prefixes people leave out. */
static const char *short_name(const char *name) {
  static const char *const prefixes[] = {"ACL_ERROR_RT_", "ACL_ERROR_GE_", "ACL_ERROR_", "ACL_"};
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
    if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
      return name + strlen(prefixes[i]);
  return name;
}

/* "; did you mean A, B or C?" for names close to key, into buf ("" when none). */
static void suggest_names(const char *key, char *buf, size_t size) {
  enum { MAX = 3 };
  const char *best[MAX] = {0};
  size_t dist[MAX], n = 0, count = openaclGetErrorCount();
  size_t limit = strlen(key) / 4 > 2 ? strlen(key) / 4 : 2;
  for (size_t i = 0; i < count; i++) {
    openaclErrorInfo e;
    if (openaclGetErrorInfoByIndex(i, &e) != ACL_SUCCESS)
      continue;
    size_t d = edit_distance(key, short_name(e.name)), d2 = edit_distance(key, e.name);
    if (d2 < d)
      d = d2;
    if (strstr(e.name, key) != NULL && strlen(key) >= 4)
      d = d < 1 ? d : 1; /* a fragment of the name is as good as a typo */
    if (d > limit)
      continue;
    /* keep the MAX closest, in order */
    size_t at = n < MAX ? n++ : MAX;
    while (at > 0 && dist[at - 1] > d) {
      if (at < MAX) {
        best[at] = best[at - 1];
        dist[at] = dist[at - 1];
      }
      at--;
    }
    if (at < MAX) {
      best[at] = e.name;
      dist[at] = d;
    }
  }
  buf[0] = '\0';
  size_t pos = 0;
  for (size_t i = 0; i < n && pos < size; i++)
    pos += (size_t)snprintf(buf + pos, size - pos, "%s%s",
                            i == 0       ? "; did you mean "
                            : i + 1 == n ? " or "
                                         : ", ",
                            best[i]);
  if (n > 0 && pos < size)
    snprintf(buf + pos, size - pos, "?");
}

/* "; the nearest known codes are ..." for codes near an unknown one. */
static void suggest_codes(aclError code, char *buf, size_t size) {
  enum { MAX = 3 };
  openaclErrorInfo best[MAX];
  long dist[MAX];
  size_t n = 0, count = openaclGetErrorCount();
  for (size_t i = 0; i < count; i++) {
    openaclErrorInfo e;
    if (openaclGetErrorInfoByIndex(i, &e) != ACL_SUCCESS)
      continue;
    long d = labs((long)e.code - (long)code);
    if (d >= 1000 || (n > 0 && best[n - 1].code == e.code))
      continue; /* another thousand is another family of codes; skip aliases */
    size_t at = n < MAX ? n++ : MAX;
    while (at > 0 && dist[at - 1] > d) {
      if (at < MAX) {
        best[at] = best[at - 1];
        dist[at] = dist[at - 1];
      }
      at--;
    }
    if (at < MAX) {
      best[at] = e;
      dist[at] = d;
    }
  }
  buf[0] = '\0';
  size_t pos = 0;
  for (size_t i = 0; i < n && pos < size; i++)
    pos += (size_t)snprintf(buf + pos, size - pos, "%s%d (%s)", i == 0 ? "; the nearest known codes are " : ", ",
                            (int)best[i].code, best[i].name);
}

/* Finds arg in the table; 0 found, TOOL_FAIL not found (message printed). */
static int lookup(const char *arg, openaclErrorInfo *info) {
  char key[128], hint[512];
  aclError code = 0;
  int pc = parse_code(arg, &code);
  if (pc < 0) {
    tool_error("'%s' is out of the range of ACL error codes (a 32-bit int); 'openacl explain --list' lists them", arg);
    return TOOL_FAIL;
  }
  if (pc > 0) {
    if (openaclGetErrorInfo(code, info) == ACL_SUCCESS)
      return 0;
    suggest_codes(code, hint, sizeof(hint));
    tool_error("%d is not a code in openacl's error table%s; 'openacl explain --list' lists them all", (int)code, hint);
    return TOOL_FAIL;
  }
  if (strlen(arg) >= sizeof(key) - 16) {
    tool_error("'%.40s...' is too long to be an error name", arg);
    return TOOL_FAIL;
  }
  normalise(arg, key, sizeof(key));
  /* The full name and the prefixes that leave no doubt come first. */
  static const char *const exact[] = {"", "ACL_", "ACL_ERROR_"};
  for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
    if (find_name(exact[i], key, info))
      return 0;
  /* Then the runtime and graph-engine families, which may both have it. */
  openaclErrorInfo rt, ge;
  int in_rt = find_name("ACL_ERROR_RT_", key, &rt), in_ge = find_name("ACL_ERROR_GE_", key, &ge);
  if (in_rt && in_ge) {
    tool_error("'%s' is ambiguous: %s (%d) or %s (%d)?", arg, rt.name, (int)rt.code, ge.name, (int)ge.code);
    return TOOL_FAIL;
  }
  if (in_rt || in_ge) {
    *info = in_rt ? rt : ge;
    return 0;
  }
  suggest_names(key, hint, sizeof(hint));
  tool_error("no error code is named '%s'%s", arg, hint[0] ? hint : "; 'openacl explain --list' lists every name");
  return TOOL_FAIL;
}

static int list_all(int json) {
  size_t count = openaclGetErrorCount();
  if (json)
    fputs("[\n", stdout);
  for (size_t i = 0; i < count; i++) {
    openaclErrorInfo e;
    if (openaclGetErrorInfoByIndex(i, &e) != ACL_SUCCESS)
      return tool_acl_error("cannot read the error table", "openaclGetErrorInfoByIndex", ACL_ERROR_INVALID_PARAM);
    if (json) {
      print_json(stdout, &e, 0);
      fputs(i + 1 < count ? ",\n" : "\n", stdout);
    } else {
      printf("%-7d %-44s %s\n", (int)e.code, e.name, e.meaning);
    }
  }
  if (json)
    fputs("]\n", stdout);
  return TOOL_OK;
}

int tool_cmd_explain(int argc, char **argv) {
  int json = 0, list = 0, n_args = 0, options_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options_done || a[0] != '-' || (a[1] != '-' && a[1] != 'h' && a[1] != '\0')) {
      n_args++; /* codes may be negative: "-1" is a code, not an option */
      continue;
    }
    if (strcmp(a, "--") == 0)
      options_done = 1;
    else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      explain_help(stdout);
      return TOOL_OK;
    } else if (strcmp(a, "--json") == 0)
      json = 1;
    else if (strcmp(a, "--list") == 0)
      list = 1;
    else
      return tool_usage_error("explain", "unknown option '%s' for 'openacl explain'", a);
  }
  if (list && n_args > 0)
    return tool_usage_error("explain", "--list takes no CODE or NAME (got %d)", n_args);
  if (list)
    return list_all(json);
  if (n_args == 0)
    return tool_usage_error("explain", "no CODE or NAME given (e.g. 'openacl explain 107002')");

  int rc = TOOL_OK, printed = 0;
  options_done = 0;
  if (json)
    fputs("[\n", stdout);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!options_done && a[0] == '-' && (a[1] == '-' || a[1] == 'h' || a[1] == '\0')) {
      options_done = strcmp(a, "--") == 0;
      continue;
    }
    openaclErrorInfo info;
    if (lookup(a, &info) != 0) {
      rc = TOOL_FAIL;
      continue;
    }
    if (json) {
      fputs(printed ? ",\n" : "", stdout);
      print_json(stdout, &info, 1);
    } else {
      if (printed)
        fputc('\n', stdout);
      print_text(stdout, &info);
    }
    printed++;
  }
  if (json)
    fputs(printed ? "\n]\n" : "]\n", stdout);
  return rc;
}
