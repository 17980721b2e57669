/* OpenSHMEM-side helpers shared by the osu_oshm_* programs: start-up, library identification and the
 * per-memory-kind buffer allocator table. Standard OpenSHMEM 1.4/1.5 API only (<shmem.h>). */
#ifndef GSHMEM_OSU_SHMEM_H
#define GSHMEM_OSU_SHMEM_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osu_util.h"

#if defined(SHMEM_MAJOR_VERSION) && defined(SHMEM_MINOR_VERSION)
#define OSU_SHMEM_SPEC (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION)
#else
#define OSU_SHMEM_SPEC 0
#endif

/* Buffer allocator per memory kind (UCX ucx_perf_allocator style). Only host is implemented; the
 * option parser rejects -d cuda before anything is allocated. */
typedef struct {
  osu_mem_kind_t kind;
  const char* name;
  void* (*alloc)(size_t bytes); /* symmetric allocation, collective */
  void (*release)(void* p);     /* collective */
  void (*fill)(void* p, int byte, size_t bytes);
} osu_shmem_allocator_t;

static void* osu_host_alloc(size_t bytes) { return shmem_align(4096, bytes ? bytes : 1); }
static void osu_host_release(void* p) { shmem_free(p); }
static void osu_host_fill(void* p, int byte, size_t bytes) { memset(p, byte, bytes); }

static const osu_shmem_allocator_t osu_shmem_allocators[] = {
    {OSU_MEM_HOST, "host", osu_host_alloc, osu_host_release, osu_host_fill},
};

static inline const osu_shmem_allocator_t* osu_shmem_allocator(osu_mem_kind_t kind) {
  for (size_t i = 0; i < sizeof(osu_shmem_allocators) / sizeof(osu_shmem_allocators[0]); ++i)
    if (osu_shmem_allocators[i].kind == kind) return &osu_shmem_allocators[i];
  return NULL;
}

/* "name (OpenSHMEM x.y)" of the library actually linked, from the standard info calls. */
static inline void osu_shmem_library(char* out, size_t n) {
  char name[SHMEM_MAX_NAME_LEN + 1];
  int major = 0, minor = 0;
  memset(name, 0, sizeof(name));
  shmem_info_get_name(name);
  shmem_info_get_version(&major, &minor);
  snprintf(out, n, "%.200s (OpenSHMEM %d.%d)", name, major, minor);
}

/* The OSU header lines, printed once (by PE 0), naming the library actually linked. */
static inline void osu_shmem_header(const osu_bench_t* b, const osu_opts_t* o, const char* mode) {
  if (shmem_my_pe() != 0) return;
  char lib[256];
  osu_shmem_library(lib, sizeof(lib));
  osu_print_header(b, o, lib, mode);
}

/* shmem_init + parse + sanity checks. Returns 1 to run, 0 to exit with *rc (after shmem_finalize). */
static inline int osu_shmem_start(int argc, char** argv, const osu_bench_t* b, osu_opts_t* o, int* rc) {
  shmem_init();
  int me = shmem_my_pe();
  int r = osu_parse(argc, argv, b, o, me == 0);
  if (r != OSU_PARSE_OK) {
    *rc = r == OSU_PARSE_EXIT ? 0 : 1;
    shmem_finalize();
    return 0;
  }
  if (shmem_n_pes() < 2) {
    if (me == 0) fprintf(stderr, "%s: needs at least 2 PEs (PE 0 and PE 1 take part, others idle)\n", b->prog);
    *rc = 1;
    shmem_finalize();
    return 0;
  }
  if (!osu_shmem_allocator(o->mem)) {
    if (me == 0) fprintf(stderr, "%s: memory kind not available\n", b->prog);
    *rc = 1;
    shmem_finalize();
    return 0;
  }
  return 1;
}

/* Allocate a symmetric buffer or abort all PEs with a message. */
static inline void* osu_shmem_buffer(const osu_opts_t* o, size_t bytes, int fill) {
  const osu_shmem_allocator_t* a = osu_shmem_allocator(o->mem);
  void* p = a->alloc(bytes);
  if (!p) {
    fprintf(stderr, "PE %d: cannot allocate %zu symmetric bytes (%s); raise the symmetric heap size\n",
            shmem_my_pe(), bytes, a->name);
    shmem_global_exit(1);
  }
  a->fill(p, fill, bytes);
  return p;
}

/* Untimed correctness check after a size: the first `bytes` of `buf` must all be `byte`. Ends the job
 * (shmem_global_exit) with a message when not, so a broken put/get can never report a good latency. */
static inline void osu_shmem_check(const char* what, const char* buf, int byte, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) {
    if (buf[i] != (char)byte) {
      fprintf(stderr, "PE %d: %s: VALIDATION FAILED at byte %zu of %zu (got 0x%02x, want 0x%02x)\n", shmem_my_pe(),
              what, i, bytes, (unsigned char)buf[i], (unsigned char)byte);
      shmem_global_exit(2);
    }
  }
}

static inline void osu_shmem_release(const osu_opts_t* o, void* p) { osu_shmem_allocator(o->mem)->release(p); }

#endif /* GSHMEM_OSU_SHMEM_H */
