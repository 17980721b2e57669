/* The profiling interface: every routine of shmem.h and shmemx.h has its pshmem name (pshmem.h declares them all;
 * this program links only if libgshmem defines them all), each at the same address as its shmem name inside
 * libgshmem, and a program (or a profiling library) that defines shmem_X itself sees its own definition called
 * while it reaches gshmem through pshmem_X. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pshmem.h>
#include <stdio.h>
#include <string.h>

#include "pshmem_names.h"

#ifndef GSHMEM_PSHMEM
#error "<pshmem.h> is not gshmem's"
#endif

typedef void (*fn_t)(void);
struct pair {
  const char *name, *pname;
  fn_t paddr;
};
#define GSHMEM_PAIR(N, P) {#N, #P, (fn_t)P},
static const struct pair kPairs[] = {GSHMEM_PSHMEM_NAMES(GSHMEM_PAIR)};

/* A profiler's wrapper: the program's own shmem_barrier_all interposes on the library's weak one. */
static int g_barriers;
void shmem_barrier_all(void) {
  ++g_barriers;
  pshmem_barrier_all();
}

int main(void) {
  pshmem_init();
  int me = pshmem_my_pe(), errors = 0;
  shmem_pcontrol(1);
  /* The library's own symbols: look them up in libgshmem, not in this program. */
  Dl_info info;
  void *lib = NULL;
  if (dladdr((void *)pshmem_init, &info) && info.dli_fname) lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!lib) printf("pshmem_surface: PE %d: cannot find libgshmem: %s\n", me, dlerror()), ++errors;
  const int n = (int)(sizeof kPairs / sizeof kPairs[0]);
  for (int i = 0; lib && i < n; ++i) {
    void *s = dlsym(lib, kPairs[i].name), *p = dlsym(lib, kPairs[i].pname);
    if (!s || !p || s != p || p != (void *)kPairs[i].paddr) {
      if (errors++ < 10)
        printf("pshmem_surface: PE %d: %s at %p, %s at %p (linked %p)\n", me, kPairs[i].name, s, kPairs[i].pname, p,
               (void *)kPairs[i].paddr);
    }
  }
  shmem_barrier_all();
  pshmem_barrier_all();
  shmem_barrier_all();
  if (g_barriers != 2) printf("pshmem_surface: PE %d: the wrapper saw %d barriers, want 2\n", me, g_barriers), ++errors;
  if (me == 0)
    printf("pshmem_surface: %d routines, each with its pshmem name: %s\n", n, errors ? "FAILED" : "SUCCESS");
  pshmem_finalize();
  return errors != 0;
}
