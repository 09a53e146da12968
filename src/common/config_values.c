/*
 * config_values.c - what every acl.json section parser uses: reporting
 * errors and warnings (with a cap per parse), key paths, showing a bad value
 * as the user wrote it, "did you mean" suggestions, and the readers of
 * strings, enums, integers, name sets and objects.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "acl/acl_base.h"
#include "common/config_internal.h"

#define CFG_KEY_SHOW_MAX 64               /* keys in paths are shown up to this many bytes */
#define DIAG_CAP 100                      /* entries of each kind listed per parse */

const char *const acl__cfg_on_off_names[] = {"on", "off", NULL};

/* ---- reporting, paths, value display ------------------------------------ */

static void vreport(pctx *c, acl__diag_kind kind, int code, const char *path, const char *fmt,
                    va_list ap) {
  size_t *n = kind == ACL__DIAG_ERROR ? &c->errors : &c->warnings;
  if (kind == ACL__DIAG_ERROR && c->first_error == 0)
    c->first_error = code;
  if (*n >= DIAG_CAP) {
    if (!c->capped)
      acl__diags_add(c->diags, ACL__DIAG_WARNING, 0, "",
                     "more than %d problems of one kind; the rest are not listed", DIAG_CAP);
    c->capped = 1;
    return;
  }
  (*n)++;
  char *msg = NULL;
  if (vasprintf(&msg, fmt, ap) < 0)
    msg = NULL;
  acl__diags_add(c->diags, kind, kind == ACL__DIAG_ERROR ? code : 0, path, "%s",
                 msg ? msg : "(out of memory formatting the message)");
  free(msg);
}

void acl__cfg_err(pctx *c, int code, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(c, ACL__DIAG_ERROR, code, path, fmt, ap);
  va_end(ap);
}

void acl__cfg_warn(pctx *c, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(c, ACL__DIAG_WARNING, 0, path, fmt, ap);
  va_end(ap);
}

/* Appends src to dst (capacity n), keeping dst NUL-terminated. */
void acl__cfg_append(char *dst, size_t n, const char *src) {
  size_t used = strlen(dst);
  if (used + 1 >= n)
    return;
  snprintf(dst + used, n - used, "%s", src);
}

/* out = parent.key, with unprintable bytes of the key shown as \xNN and long
 * keys shortened. */
void acl__cfg_path_key(char *out, size_t n, const char *parent, const char *key) {
  out[0] = '\0';
  if (parent[0] != '\0') {
    acl__cfg_append(out, n, parent);
    acl__cfg_append(out, n, ".");
  }
  size_t done = 0;  /* key bytes shown so far */
  for (const unsigned char *p = (const unsigned char *)key; *p; p++, done++) {
    if (done == CFG_KEY_SHOW_MAX) {
      acl__cfg_append(out, n, "...");
      break;
    }
    char tmp[8];
    if (*p >= 0x20 && *p < 0x7f) {
      tmp[0] = (char)*p;
      tmp[1] = '\0';
    } else {
      snprintf(tmp, sizeof(tmp), "\\x%02X", *p);
    }
    acl__cfg_append(out, n, tmp);
  }
}

void acl__cfg_path_index(char *out, size_t n, const char *parent, size_t i) {
  snprintf(out, n, "%s[%zu]", parent, i);
}

const char *acl__cfg_show(shown *s, const json_t *v) {
  char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
  if (d == NULL) {
    snprintf(s->text, sizeof(s->text), "(value)");
    return s->text;
  }
  size_t len = strlen(d);
  if (len <= CFG_SHOW_MAX) {
    memcpy(s->text, d, len + 1);
  } else {
    size_t cut = CFG_SHOW_MAX - 3;
    /* do not end inside a \uXXXX escape */
    for (size_t back = 0; back < 6 && back < cut; back++)
      if (d[cut - back - 1] == '\\') {
        cut -= back + 1;
        break;
      }
    memcpy(s->text, d, cut);
    memcpy(s->text + cut, "...", 4);
  }
  free(d);
  return s->text;
}

const char *acl__cfg_type_name(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER:
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  case JSON_NULL: return "null";
  }
  return "a value";
}

/* "a, b, c" from a NULL-terminated table. */
static void join_names(char *out, size_t n, const char *const *names) {
  out[0] = '\0';
  for (size_t i = 0; names[i] != NULL; i++) {
    if (i > 0)
      acl__cfg_append(out, n, ", ");
    acl__cfg_append(out, n, names[i]);
  }
}

static int name_index(const char *const *names, const char *s) {
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], s) == 0)
      return i;
  return -1;
}

/* ---- "did you mean" ------------------------------------------------------ */

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch; }

/* Case-insensitive edit distance, or a large number for long strings. */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 48 || lb > 48)
    return 1000;
  size_t row[49];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t cost = lower((unsigned char)a[i - 1]) == lower((unsigned char)b[j - 1]) ? 0 : 1;
      size_t best = diag + cost;
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

static const char *suggest(const char *key, const char *const *known) {
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  for (size_t i = 0; known[i] != NULL; i++) {
    size_t d = edit_distance(key, known[i]);
    if (d < best_d) {
      best_d = d;
      best = known[i];
    }
  }
  size_t len = strlen(key);
  size_t limit = len <= 4 ? 1 : len <= 10 ? 2 : 3;
  return best_d <= limit ? best : NULL;
}

static void unknown_key(pctx *c, const char *path, const char *key, const char *const *known) {
  const char *s = suggest(key, known);
  if (s != NULL)
    acl__cfg_warn(c, path, "unknown key, ignored; did you mean \"%s\"?", s);
  else
    acl__cfg_warn(c, path, "unknown key, ignored");
}

/* ---- scalar readers ------------------------------------------------------ */

/* A non-empty string without embedded NULs; else an error (returns NULL). */
const char *acl__cfg_get_string(pctx *c, int code, const char *path, const json_t *v,
                                const char *what) {
  shown s;
  if (!json_is_string(v)) {
    acl__cfg_err(c, code, path, "%s is %s; expected %s", acl__cfg_show(&s, v),
                 acl__cfg_type_name(v), what);
    return NULL;
  }
  const char *str = json_string_value(v);
  if (json_string_length(v) != strlen(str)) {
    acl__cfg_err(c, code, path, "%s contains a NUL character; expected %s", acl__cfg_show(&s, v),
                 what);
    return NULL;
  }
  if (str[0] == '\0') {
    acl__cfg_err(c, code, path, "\"\" is empty; expected %s", what);
    return NULL;
  }
  return str;
}

/* One of names (a string); the index, or -1 after an error. */
int acl__cfg_get_enum(pctx *c, int code, const char *path, const json_t *v,
                      const char *const *names) {
  char list[256];
  join_names(list, sizeof(list), names);
  shown s;
  if (!json_is_string(v) || json_string_length(v) != strlen(json_string_value(v))) {
    acl__cfg_err(c, code, path, "%s is %s; expected a string, one of %s", acl__cfg_show(&s, v),
                 acl__cfg_type_name(v), list);
    return -1;
  }
  int i = name_index(names, json_string_value(v));
  if (i < 0) {
    const char *near = suggest(json_string_value(v), names);
    acl__cfg_err(c, code, path, "%s is not one of %s%s%s%s", acl__cfg_show(&s, v), list,
                 near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
  }
  return i;
}

/* A non-negative integer written as a JSON number or a string of decimal
 * digits, within [min, max].  Returns 0 and sets *out, or -1 after an error.
 * `what` describes the rule ("a positive integer"). */
int acl__cfg_get_uint(pctx *c, int code, const char *path, const json_t *v, uint64_t min,
                      uint64_t max, const char *what, uint64_t *out) {
  shown s;
  uint64_t val = 0;
  if (json_is_integer(v)) {
    json_int_t i = json_integer_value(v);
    if (i < 0) {
      acl__cfg_err(c, code, path, "%s is negative; expected %s", acl__cfg_show(&s, v), what);
      return -1;
    }
    val = (uint64_t)i;
  } else if (json_is_real(v)) {
    double d = json_real_value(v);
    if (d < 0) {
      acl__cfg_err(c, code, path, "%s is negative; expected %s", acl__cfg_show(&s, v), what);
      return -1;
    }
    if (d != d || d >= 18446744073709551616.0) {
      acl__cfg_err(c, code, path, "%s is out of range; expected %s", acl__cfg_show(&s, v), what);
      return -1;
    }
    val = (uint64_t)d;
    if ((double)val != d) {
      acl__cfg_err(c, code, path, "%s is not an integer; expected %s", acl__cfg_show(&s, v), what);
      return -1;
    }
  } else if (json_is_string(v)) {
    const char *str = json_string_value(v);
    size_t len = json_string_length(v);
    if (len == 0) {
      acl__cfg_err(c, code, path, "\"\" is empty; expected %s", what);
      return -1;
    }
    if (str[0] == '-' && len > 1) {
      int digits = 1;
      for (size_t k = 1; k < len; k++)
        digits &= str[k] >= '0' && str[k] <= '9';
      if (digits) {
        acl__cfg_err(c, code, path, "%s is negative; expected %s", acl__cfg_show(&s, v), what);
        return -1;
      }
    }
    for (size_t k = 0; k < len; k++) {
      if (str[k] < '0' || str[k] > '9') {
        acl__cfg_err(c, code, path, "%s is not a string of decimal digits; expected %s",
                     acl__cfg_show(&s, v), what);
        return -1;
      }
      unsigned digit = (unsigned)(str[k] - '0');
      if (val > (UINT64_MAX - digit) / 10) {
        acl__cfg_err(c, code, path, "%s is out of range; expected %s", acl__cfg_show(&s, v), what);
        return -1;
      }
      val = val * 10 + digit;
    }
  } else {
    acl__cfg_err(c, code, path, "%s is %s; expected %s (a number or a string of digits)",
                 acl__cfg_show(&s, v), acl__cfg_type_name(v), what);
    return -1;
  }
  if (val < min || val > max) {
    acl__cfg_err(c, code, path, "%s is out of range; expected %s", acl__cfg_show(&s, v), what);
    return -1;
  }
  *out = val;
  return 0;
}

/* "0" or "1" (string or number); the value or -1 after an error. */
int acl__cfg_get_zero_one(pctx *c, int code, const char *path, const json_t *v) {
  uint64_t val;
  shown s;
  if (json_is_string(v) || json_is_integer(v) || json_is_real(v)) {
    /* check form quietly first so that the message names the two values */
    pctx quiet = {NULL, 0, 0, 0, 1};
    if (acl__cfg_get_uint(&quiet, code, path, v, 0, 1, "", &val) == 0)
      return (int)val;
  }
  acl__cfg_err(c, code, path, "%s is not one of \"0\", \"1\"", acl__cfg_show(&s, v));
  return -1;
}

/* A comma-separated subset of names ("printf,assert"); bit i = names[i]. */
int acl__cfg_get_name_set(pctx *c, int code, const char *path, const json_t *v,
                          const char *const *names, unsigned *out) {
  char list[256];
  join_names(list, sizeof(list), names);
  const char *str = acl__cfg_get_string(c, code, path, v, "a comma-separated list");
  if (str == NULL)
    return -1;
  unsigned bits = 0;
  int bad = 0;
  const char *p = str;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    /* items may be padded with spaces: "printf, assert" */
    while (len > 0 && *p == ' ') {
      p++;
      len--;
    }
    while (len > 0 && p[len - 1] == ' ')
      len--;
    int found = -1;
    for (int i = 0; names[i] != NULL; i++)
      if (strlen(names[i]) == len && strncmp(names[i], p, len) == 0)
        found = i;
    if (len == 0) {
      acl__cfg_err(c, code, path,
                   "\"%.*s\" has an empty item; expected a comma-separated list of %s",
                   CFG_SHOW_MAX, str, list);
      bad = 1;
    } else if (found < 0) {
      int shown_len = len > CFG_SHOW_MAX ? CFG_SHOW_MAX : (int)len;
      acl__cfg_err(c, code, path, "item \"%.*s\" is not one of %s", shown_len, p, list);
      bad = 1;
    } else if (bits & (1u << found)) {
      acl__cfg_warn(c, path, "item \"%s\" is listed more than once", names[found]);
    } else {
      bits |= 1u << found;
    }
    if (end == NULL)
      break;
    p = end + 1;
  }
  if (bad)
    return -1;
  *out = bits;
  return 0;
}

/* Copies a string; a failed allocation is an out-of-memory error. */
char *acl__cfg_dup_str(pctx *c, const char *path, const char *s) {
  char *d = strdup(s);
  if (d == NULL)
    acl__cfg_err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
  return d;
}

/* Walks the keys of an object: calls fn for known ones, warns about others. */
void acl__cfg_walk_object(pctx *c, acl__config *cfg, const char *path, json_t *obj,
                          const char *const *known, key_fn fn, void *arg) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    char child[CFG_PATH_MAX];
    acl__cfg_path_key(child, sizeof(child), path, key);
    if (name_index(known, key) >= 0)
      fn(c, cfg, key, child, v, arg);
    else
      unknown_key(c, child, key, known);
  }
}

/* An object section; an error with `code` when v is something else. */
int acl__cfg_need_object(pctx *c, int code, const char *path, const json_t *v) {
  if (json_is_object(v))
    return 1;
  shown s;
  acl__cfg_err(c, code, path, "%s is %s; expected an object", acl__cfg_show(&s, v),
               acl__cfg_type_name(v));
  return 0;
}
