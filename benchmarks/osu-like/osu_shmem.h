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

/* Buffer allocator per memory kind (UCX ucx_perf_allocator style): host (the symmetric heap) everywhere; cuda
 * (GPU symmetric memory) when built against gshmem, whose <shmemx.h> has the device heap. `read` copies a buffer's
 * bytes into host memory for the correctness checks (device memory is not host-readable). */
typedef struct {
  osu_mem_kind_t kind;
  const char* name;
  void* (*alloc)(size_t bytes); /* symmetric allocation, collective */
  void (*release)(void* p);     /* collective */
  void (*fill)(void* p, int byte, size_t bytes);
  void (*read)(void* host, const void* p, size_t bytes);
} osu_shmem_allocator_t;

static void* osu_host_alloc(size_t bytes) { return shmem_align(4096, bytes ? bytes : 1); }
static void osu_host_release(void* p) { shmem_free(p); }
static void osu_host_fill(void* p, int byte, size_t bytes) { memset(p, byte, bytes); }
static void osu_host_read(void* host, const void* p, size_t bytes) { memcpy(host, p, bytes); }

#if defined(__has_include)
#if __has_include(<shmemx.h>)
#include <shmemx.h>
#endif
#endif
#ifdef GSHMEMX_HAVE_DEVICE_MALLOC /* gshmem: the device symmetric heap; this PE's own copies go through shmem_putmem/getmem */
static void* osu_cuda_alloc(size_t bytes) { return gshmemx_device_available() ? gshmemx_malloc_device(bytes ? bytes : 1) : NULL; }
static void osu_cuda_fill(void* p, int byte, size_t bytes) {
  char* t = (char*)malloc(bytes ? bytes : 1);
  if (!t) shmem_global_exit(1);
  memset(t, byte, bytes);
  shmem_putmem(p, t, bytes, shmem_my_pe());
  shmem_quiet();
  free(t);
}
static void osu_cuda_read(void* host, const void* p, size_t bytes) { shmem_getmem(host, p, bytes, shmem_my_pe()); }
#endif

static const osu_shmem_allocator_t osu_shmem_allocators[] = {
    {OSU_MEM_HOST, "host", osu_host_alloc, osu_host_release, osu_host_fill, osu_host_read},
#ifdef GSHMEMX_HAVE_DEVICE_MALLOC
    {OSU_MEM_CUDA, "cuda", osu_cuda_alloc, osu_host_release, osu_cuda_fill, osu_cuda_read},
#endif
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
#ifdef GSHMEMX_HAVE_DEVICE_MALLOC
  if (o->mem == OSU_MEM_CUDA && !gshmemx_device_available()) {
    if (me == 0) fprintf(stderr, "%s: -d cuda: this PE has no GPU symmetric heap (no GPU, or GSHMEM_SYMMETRIC_SIZE_DEVICE=0)\n", b->prog);
    *rc = 1;
    shmem_finalize();
    return 0;
  }
#endif
  if (!osu_shmem_allocator(o->mem)) {
    if (me == 0) fprintf(stderr, "%s: memory kind not available in this library (-d cuda needs gshmem with CUDA)\n", b->prog);
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

/* Untimed correctness check after a size: the first `bytes` of `buf` (of the kind -d chose) must all be `byte`,
 * then the buffer is refilled with `refill` (< 0: left as is). Ends the job (shmem_global_exit) with a message when
 * not, so a broken put/get can never report a good latency. */
static inline void osu_shmem_check_kind(const osu_opts_t* o, const char* what, char* buf, int byte, size_t bytes,
                                        int refill) {
  const osu_shmem_allocator_t* a = osu_shmem_allocator(o->mem);
  char* h = buf;
  if (o->mem != OSU_MEM_HOST) {
    h = (char*)malloc(bytes ? bytes : 1);
    if (!h) shmem_global_exit(1);
    a->read(h, buf, bytes);
  }
  for (size_t i = 0; i < bytes; ++i) {
    if (h[i] != (char)byte) {
      fprintf(stderr, "PE %d: %s: VALIDATION FAILED at byte %zu of %zu (got 0x%02x, want 0x%02x)\n", shmem_my_pe(),
              what, i, bytes, (unsigned char)h[i], (unsigned char)byte);
      shmem_global_exit(2);
    }
  }
  if (h != buf) free(h);
  if (refill >= 0) a->fill(buf, refill, bytes);
}

/* Host-buffer form, for tests without -d cuda. */
static inline void osu_shmem_check(const char* what, const char* buf, int byte, size_t bytes) {
  osu_opts_t host;
  memset(&host, 0, sizeof(host));
  host.mem = OSU_MEM_HOST;
  osu_shmem_check_kind(&host, what, (char*)buf, byte, bytes, -1);
}

static inline void osu_shmem_release(const osu_opts_t* o, void* p) { osu_shmem_allocator(o->mem)->release(p); }

#endif /* GSHMEM_OSU_SHMEM_H */
