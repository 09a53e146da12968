/*
 * cpu_module.c - kernel binaries of the cpu backend: ELF shared objects of C
 * kernels (ABI in include/openacl/kernel.h, docs/kernels.md).
 *
 * A module is one dlopen handle.  Binaries given as memory are written to a
 * private anonymous file (memfd_create; a deleted temporary file where that
 * is missing) and opened through its /proc/self/fd path, so no named file is
 * left behind.  The descriptor stays open while the module is loaded: the
 * error path of get_function reads the binary's dynamic symbol table from it
 * to list the kernels the binary does export.
 *
 * Lifetime: the runtime (src/rt/kernel.c) counts the launches that use a
 * module and calls unload only when none is queued or running, so dlclose
 * never pulls code from under a kernel.  Two loads of the same path share the
 * loader's object (and its static data); each load still needs its unload.
 *
 * Symbols (backend version 3): a device global is an exported variable of
 * the module, a kernel an exported function; both are found with dlsym and
 * measured with dladdr1 (the ELF symbol's st_size).  Only symbols the
 * module defines itself count: dlsym on a handle also searches the
 * libraries the module links, so the object that defines the address is
 * compared with the module's.
 *
 * Threads: every function may be called from any thread, with no runtime
 * lock held; the dynamic loader serialises itself.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/log.h"
#include "hal/cpu/cpu.h"

typedef struct cpu_module {
  void *dl;        /* dlopen handle */
  int fd;          /* open descriptor of the binary (file or memfd); -1 when none */
  char label[PATH_MAX]; /* path, or "<memory>" for data */
} cpu_module;

/* ---- ELF checks ---------------------------------------------------------- */

/* 0 when the first bytes are those of a loadable shared object; otherwise
 * writes why into `why` and returns ACL_ERROR_INVALID_FILE. */
static int elf_check(const unsigned char *head, size_t len, const char *label, char *why, size_t why_len) {
  if (len < EI_NIDENT || memcmp(head, ELFMAG, SELFMAG) != 0) {
    snprintf(why, why_len,
             "'%s' is not a kernel binary: it is not an ELF file (a cpu-device kernel binary is a shared object "
             "built with -shared -fPIC, see docs/kernels.md)",
             label);
    return ACL_ERROR_INVALID_FILE;
  }
  if (len < sizeof(Elf64_Ehdr) || head[EI_CLASS] != ELFCLASS64) {
    snprintf(why, why_len, "'%s' is a 32-bit or truncated ELF file; build the kernel as a 64-bit shared object",
             label);
    return ACL_ERROR_INVALID_FILE;
  }
  Elf64_Ehdr eh;
  memcpy(&eh, head, sizeof eh);
  if (eh.e_type != ET_DYN) {
    const char *kind = eh.e_type == ET_REL ? "an object file (.o)" : eh.e_type == ET_EXEC ? "an executable" : "an ELF file";
    snprintf(why, why_len,
             "'%s' is %s, not a shared object; link the kernel with -shared -fPIC (on real Ascend hardware "
             "kernels are .o files of another instruction set; on openacl's cpu device they are host shared "
             "objects)",
             label, kind);
    return ACL_ERROR_INVALID_FILE;
  }
  return 0;
}

/* ---- symbol listing (error path only) ----------------------------------- */

static int read_at(int fd, void *buf, size_t len, off_t off) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = pread(fd, (char *)buf + done, len - done, off + (off_t)done);
    if (n <= 0) {
      if (n < 0 && errno == EINTR)
        continue;
      return -1;
    }
    done += (size_t)n;
  }
  return 0;
}

/* Writes "a, b, c" (the defined, exported functions of the binary's dynamic
 * symbol table) into buf; returns how many it found. */
static size_t list_functions(int fd, char *buf, size_t len) {
  size_t count = 0, used = 0;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  Elf64_Sym *syms = NULL;
  char *strs = NULL;
  buf[0] = '\0';
  if (fd < 0 || read_at(fd, &eh, sizeof eh, 0) != 0 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
      eh.e_shnum > 4096)
    goto out;
  sh = calloc(eh.e_shnum, sizeof *sh);
  if (sh == NULL || read_at(fd, sh, eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff) != 0)
    goto out;
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh.e_shnum)
      continue;
    const Elf64_Shdr *ss = &sh[sh[i].sh_link];
    size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
    if (nsym == 0 || nsym > (1u << 20) || ss->sh_size == 0 || ss->sh_size > (64u << 20))
      break;
    syms = malloc(nsym * sizeof *syms);
    strs = malloc(ss->sh_size + 1);
    if (syms == NULL || strs == NULL || read_at(fd, syms, nsym * sizeof *syms, (off_t)sh[i].sh_offset) != 0 ||
        read_at(fd, strs, ss->sh_size, (off_t)ss->sh_offset) != 0)
      break;
    strs[ss->sh_size] = '\0';
    for (size_t k = 0; k < nsym; k++) {
      const Elf64_Sym *s = &syms[k];
      int bind = ELF64_ST_BIND(s->st_info);
      if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF || s->st_name >= ss->sh_size ||
          (bind != STB_GLOBAL && bind != STB_WEAK) || ELF64_ST_VISIBILITY(s->st_other) != STV_DEFAULT)
        continue;
      const char *name = strs + s->st_name;
      if (strcmp(name, "_init") == 0 || strcmp(name, "_fini") == 0)
        continue;
      int n = snprintf(buf + used, len - used, "%s%s", count ? ", " : "", name);
      count++;
      if (n < 0 || (size_t)n >= len - used) {
        buf[used] = '\0';
        if (len - used > 5)
          snprintf(buf + used, len - used, ", ...");
        break;
      }
      used += (size_t)n;
    }
    break;
  }
out:
  free(sh);
  free(syms);
  free(strs);
  return count;
}

/* ---- load ----------------------------------------------------------------- */

/* An anonymous file holding the data; -1 with errno set on failure. */
static int write_private_file(const void *data, size_t len) {
  int fd = memfd_create("openacl-kernel", MFD_CLOEXEC);
  if (fd < 0) {
    /* No memfd (old kernel, seccomp): a temporary file, deleted at once. */
    const char *dir = getenv("TMPDIR");
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof tmpl, "%s/openacl-kernel-XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkostemp(tmpl, O_CLOEXEC);
    if (fd < 0)
      return -1;
    unlink(tmpl);
  }
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, (const char *)data + done, len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int e = n < 0 ? errno : ENOSPC;
      close(fd);
      errno = e;
      return -1;
    }
    done += (size_t)n;
  }
  return fd;
}

int acl__cpu_module_load(acl__backend_dev *dev, const char *path, const void *data, size_t len, void **module,
                         char *why, size_t why_len) {
  (void)dev;
  int rc = 0;
  cpu_module *m = calloc(1, sizeof *m);
  if (m == NULL) {
    snprintf(why, why_len, "out of host memory for the module record");
    return ACL_ERROR_BAD_ALLOC;
  }
  m->fd = -1;
  char open_path[PATH_MAX + 8];
  unsigned char head[sizeof(Elf64_Ehdr)];
  if (path != NULL) {
    snprintf(m->label, sizeof m->label, "%s", path);
    m->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (m->fd < 0 || fstat(m->fd, &st) != 0) {
      snprintf(why, why_len, "cannot open kernel binary '%s': %s", path, strerror(errno));
      rc = ACL_ERROR_RT_FILE_OPEN;
      goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
      snprintf(why, why_len, "kernel binary '%s' is not a regular file", path);
      rc = ACL_ERROR_RT_FILE_OPEN;
      goto fail;
    }
    ssize_t n = pread(m->fd, head, sizeof head, 0);
    rc = elf_check(head, n > 0 ? (size_t)n : 0, path, why, why_len);
    if (rc != 0)
      goto fail;
    /* A name without '/' would make dlopen search the library path instead
     * of opening the file we just checked. */
    snprintf(open_path, sizeof open_path, "%s%s", strchr(path, '/') ? "" : "./", path);
  } else {
    snprintf(m->label, sizeof m->label, "<memory, %zu bytes>", len);
    rc = elf_check(data, len < sizeof head ? len : sizeof head, m->label, why, why_len);
    if (rc != 0)
      goto fail;
    m->fd = write_private_file(data, len);
    if (m->fd < 0) {
      snprintf(why, why_len, "cannot stage the %zu-byte kernel binary in a private file: %s", len, strerror(errno));
      rc = ACL_ERROR_RT_FILE_WRITE;
      goto fail;
    }
    snprintf(open_path, sizeof open_path, "/proc/self/fd/%d", m->fd);
  }
  /* RTLD_NOW: an unresolved symbol fails here, with its name, instead of in
   * the middle of a launch.  RTLD_LOCAL: kernels of different binaries may
   * share names. */
  m->dl = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  if (m->dl == NULL) {
    const char *e = dlerror();
    snprintf(why, why_len, "the dynamic loader rejected kernel binary '%s': %s", m->label, e ? e : "unknown error");
    rc = ACL_ERROR_INVALID_FILE;
    goto fail;
  }
  ACL__LOGI(ACL__MOD_DRV, "loaded kernel binary %s", m->label);
  *module = m;
  return 0;
fail:
  if (m->fd >= 0)
    close(m->fd);
  free(m);
  return rc;
}

int acl__cpu_module_get_function(void *module, const char *name, acl__kernel_entry *fn) {
  cpu_module *m = module;
  /* dlsym returns a data pointer; the loader guarantees it is the function's
   * address, and POSIX requires the conversion to work. */
  void *sym = dlsym(m->dl, name);
  if (sym == NULL) {
    char names[512];
    size_t n = list_functions(m->fd, names, sizeof names);
    ACL__LOGE(ACL__MOD_DRV, "kernel binary %s exports no function '%s'; it exports %zu function%s%s%s", m->label,
              name, n, n == 1 ? "" : "s", n ? ": " : "", names);
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
  }
  memcpy(fn, &sym, sizeof *fn);
  return 0;
}

void acl__cpu_module_unload(void *module) {
  cpu_module *m = module;
  if (m == NULL)
    return;
  if (dlclose(m->dl) != 0) {
    const char *e = dlerror();
    ACL__LOGW(ACL__MOD_DRV, "unloading kernel binary %s: %s", m->label, e ? e : "unknown error");
  } else {
    ACL__LOGI(ACL__MOD_DRV, "unloaded kernel binary %s", m->label);
  }
  if (m->fd >= 0)
    close(m->fd);
  free(m);
}

/* ---- symbols (backend version 3) ------------------------------------------ */

/* The ELF symbol of `m` that dladdr1 finds for addr: 0 and the symbol when
 * addr lies in the module itself, -1 otherwise. */
static int symbol_of(const cpu_module *m, const void *addr, const ElfW(Sym) **sym, ElfW(Addr) *bias) {
  struct link_map *mine = NULL, *owner = NULL;
  Dl_info info;
  if (dlinfo(m->dl, RTLD_DI_LINKMAP, &mine) != 0 || mine == NULL)
    return -1;
  if (dladdr1(addr, &info, (void **)&owner, RTLD_DL_LINKMAP) == 0 || owner != mine)
    return -1;
  *sym = NULL;
  if (dladdr1(addr, &info, (void **)sym, RTLD_DL_SYMENT) == 0 || *sym == NULL)
    return -1;
  *bias = mine->l_addr;
  return 0;
}

int acl__cpu_module_symbol(void *module, const char *name, int kind, void **addr, size_t *size, char *why,
                           size_t why_len) {
  cpu_module *m = module;
  void *p = dlsym(m->dl, name);
  const ElfW(Sym) *sym = NULL;
  ElfW(Addr) bias = 0;
  if (p == NULL || symbol_of(m, p, &sym, &bias) != 0) {
    snprintf(why, why_len, "kernel binary %s exports no %s named '%s'", m->label,
             kind == ACL__SYM_FUNC ? "function" : "variable", name);
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
  }
  int type = ELF64_ST_TYPE(sym->st_info);
  int want = kind == ACL__SYM_FUNC ? STT_FUNC : STT_OBJECT;
  if ((type != want && !(kind == ACL__SYM_DATA && type == STT_COMMON)) || (uintptr_t)(sym->st_value + bias) != (uintptr_t)p) {
    snprintf(why, why_len, "'%s' in kernel binary %s is %s, not a %s", name, m->label,
             type == STT_FUNC ? "a function" : type == STT_TLS ? "a thread-local variable" : type == STT_OBJECT ? "a variable" : "neither a variable nor a function",
             kind == ACL__SYM_FUNC ? "function" : "variable");
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
  }
  *addr = p;
  *size = (size_t)sym->st_size;
  return 0;
}

int acl__cpu_module_symbol_at(void *module, const void *addr, void **start, size_t *size) {
  cpu_module *m = module;
  const ElfW(Sym) *sym = NULL;
  ElfW(Addr) bias = 0;
  if (symbol_of(m, addr, &sym, &bias) != 0)
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
  int type = ELF64_ST_TYPE(sym->st_info);
  uintptr_t b = (uintptr_t)(sym->st_value + bias), a = (uintptr_t)addr;
  if ((type != STT_OBJECT && type != STT_COMMON) || a < b || a - b >= (uintptr_t)sym->st_size)
    return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
  *start = (void *)b;
  *size = (size_t)sym->st_size;
  return 0;
}
