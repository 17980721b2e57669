/* Shared options parser, timer and OSU-format reporter for the gshmem osu-like benchmarks.
 *
 * Plain C11 with no dependency on OpenSHMEM or MPI, so the same file is linked into the OpenSHMEM
 * programs (built against gshmem or any other OpenSHMEM 1.4/1.5 library, e.g. Open MPI's oshcc) and
 * into the MPI-RMA twins. Written for gshmem; the output format follows OSU's conventions
 * (`# ` header lines, 10-wide size column, 20-wide value columns) so results diff directly against OSU.
 */
#ifndef GSHMEM_OSU_UTIL_H
#define GSHMEM_OSU_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OSU_LIKE_VERSION "v7.x (gshmem osu-like 0.1)"

/* Size of the static global target used by --global (a symmetric data-segment object). */
#define OSU_GLOBAL_MAX ((size_t)1 << 20)

/* Which options a program accepts, beyond the common ones (-m -i -x -d -f -p --batches -h). */
enum {
  OSU_ACCEPT_NBI = 1 << 0,    /* --nbi: use the _nbi variant of the call */
  OSU_ACCEPT_GLOBAL = 1 << 1, /* --global: target is a static global, not heap memory */
  OSU_ACCEPT_WINDOW = 1 << 2, /* -W N: operations per completion (bandwidth / rate tests) */
  OSU_ACCEPT_SKIP = 1 << 3,   /* --skip a,b: rows to leave out (atomics) */
  OSU_ACCEPT_SIZES = 1 << 4,  /* -m / -b / -e / -f: the test has a message-size axis */
  OSU_ACCEPT_CUDA = 1 << 5,   /* -d cuda: buffers in GPU symmetric memory (gshmem's device heap) */
};

/* What the value column(s) mean. */
typedef enum { OSU_METRIC_LATENCY, OSU_METRIC_BW, OSU_METRIC_RATE, OSU_METRIC_ATOMIC } osu_metric_t;

/* Static description of one benchmark program. */
typedef struct {
  const char* prog;        /* binary name, for usage */
  const char* title;       /* e.g. "OpenSHMEM Put Latency Test" */
  osu_metric_t metric;     /* value column(s) */
  unsigned accept;         /* OSU_ACCEPT_* bits */
  size_t def_min, def_max; /* default size range */
  long iters_small;        /* default iterations for size <= OSU_LARGE_SIZE */
  long iters_large;        /* default iterations above it */
  long warmup_small, warmup_large;
  long def_window;         /* default -W (0 when not applicable) */
} osu_bench_t;

#define OSU_LARGE_SIZE ((size_t)8192)

/* Memory kinds for buffers (-d). cuda: the test accepts it (OSU_ACCEPT_CUDA) and the library has a device heap. */
typedef enum { OSU_MEM_HOST = 0, OSU_MEM_CUDA = 1 } osu_mem_kind_t;

/* Parsed command line. */
typedef struct {
  size_t min_size, max_size;
  unsigned factor;  /* size step multiplier (-f), default 2 */
  long iters;       /* -i / -n; <= 0 means "per-size default" */
  long warmup;      /* -x / -w; < 0 means "per-size default" */
  long window;      /* -W */
  int batches;      /* --batches: timed loop split in this many batches; the median batch is reported */
  int precision;    /* -p / --precision: decimals printed (default 2, as OSU) */
  int nbi;          /* --nbi */
  int global;       /* --global */
  osu_mem_kind_t mem;
  char skip[1024];  /* --skip list, comma-separated, stored with surrounding commas */
} osu_opts_t;

/* Result of osu_parse. */
enum { OSU_PARSE_OK = 0, OSU_PARSE_EXIT = 1, OSU_PARSE_ERROR = 2 };

/* Parse argv. `verbose` (normally: this is PE/rank 0) controls whether usage and errors are printed.
 * Every PE must call it with the same argv; all PEs get the same verdict. */
int osu_parse(int argc, char** argv, const osu_bench_t* bench, osu_opts_t* opts, int verbose);

/* Iterations / warm-up iterations to run for one message size, honouring -i/-x. */
long osu_iters(const osu_bench_t* bench, const osu_opts_t* opts, size_t size);
long osu_warmup(const osu_bench_t* bench, const osu_opts_t* opts, size_t size);

/* Number of timed batches to use for `iters` iterations (never more batches than iterations). */
int osu_batches(const osu_opts_t* opts, long iters);

/* Next size in the sweep after `size` (factor -f); returns 0 when past max. */
size_t osu_next_size(const osu_opts_t* opts, size_t size);

/* 1 when row `name` was listed in --skip. */
int osu_skipped(const osu_opts_t* opts, const char* name);

/* Monotonic wall clock in microseconds (clock_gettime(CLOCK_MONOTONIC)). */
double osu_now_us(void);

/* Median of n values (sorts v in place). */
double osu_median(double* v, int n);

/* Print the "# ..." header block: title, library, mode line, and the column header. */
void osu_print_header(const osu_bench_t* bench, const osu_opts_t* opts, const char* library, const char* mode);

/* One result row keyed by message size / by name. Values are in the metric's unit
 * (latency us, bandwidth MB/s with MB = 1e6 bytes, rate messages/s). */
void osu_print_row(const osu_opts_t* opts, size_t size, double value);
void osu_print_named_row(const osu_opts_t* opts, const char* name, double value, double value2);

/* Convert a measured time to the printed value. */
double osu_bw_mbs(size_t bytes_total, double us);
double osu_rate(double ops, double us);

/* Run `body` `warm` times untimed, then `iters` times split in `nb` timed batches (nb <= 1000);
 * *out_us = median over batches of the time per iteration, in us. Only the calling PE times. */
#define OSU_TIMED(warm, iters, nb, out_us, body)                                 \
  do {                                                                           \
    double osu_t_[1000];                                                         \
    long osu_per_ = (iters) / (nb);                                              \
    for (long osu_k_ = 0; osu_k_ < (long)(warm); ++osu_k_) {                     \
      body;                                                                      \
    }                                                                            \
    for (int osu_b_ = 0; osu_b_ < (nb); ++osu_b_) {                              \
      double osu_t0_ = osu_now_us();                                             \
      for (long osu_k_ = 0; osu_k_ < osu_per_; ++osu_k_) {                       \
        body;                                                                    \
      }                                                                          \
      osu_t_[osu_b_] = (osu_now_us() - osu_t0_) / (double)osu_per_;              \
    }                                                                            \
    *(out_us) = osu_median(osu_t_, (nb));                                        \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif /* GSHMEM_OSU_UTIL_H */
