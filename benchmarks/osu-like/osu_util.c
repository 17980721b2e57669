/* Shared options parser, timer and OSU-format reporter; see osu_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "osu_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OSU_SIZE_WIDTH 10
#define OSU_FIELD_WIDTH 20
#define OSU_NAME_WIDTH 32

static void usage(const osu_bench_t* b) {
  printf("Usage: %s [options]\n", b->prog);
  printf("%s, written to the standard OpenSHMEM/MPI API (gshmem osu-like benchmarks).\n\n", b->title);
  if (b->accept & OSU_ACCEPT_SIZES) {
    printf("  -m [MIN:]MAX        message sizes MIN..MAX bytes (K/M/G suffixes ok; default %zu:%zu)\n", b->def_min,
           b->def_max);
    printf("  -b MIN, -e MAX      same as -m, NVSHMEM perftest spelling\n");
    printf("  -f FACTOR           size step multiplier (default 2)\n");
  }
  printf("  -i N, -n N          timed iterations per size (default %ld for <= %zu B, %ld above)\n", b->iters_small,
         OSU_LARGE_SIZE, b->iters_large);
  printf("  -x N, -w N          warm-up iterations per size (default %ld / %ld)\n", b->warmup_small, b->warmup_large);
  printf("  -d host|cuda        buffer memory kind (only host is implemented)\n");
  if (b->accept & OSU_ACCEPT_WINDOW) printf("  -W N                operations per completion/quiet (default %ld)\n", b->def_window);
  if (b->accept & OSU_ACCEPT_NBI) printf("  --nbi               use the non-blocking (_nbi) call followed by quiet\n");
  if (b->accept & OSU_ACCEPT_GLOBAL)
    printf("  --global            target a static global array (symmetric data object, max %zu B)\n", OSU_GLOBAL_MAX);
  if (b->accept & OSU_ACCEPT_SKIP) printf("  --skip A,B          leave out the named rows (e.g. int_compare_swap)\n");
  printf("  --batches N         split the timed loop in N batches, report the median batch (default 5)\n");
  printf("  -p N, --precision N decimals printed (default 2 as OSU; use 3+ for sub-0.1 us latencies)\n");
  printf("  -h, --help          this text\n");
}

static int parse_size(const char* s, size_t* out) {
  char* end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return 0;
  switch (toupper((unsigned char)*end)) {
    case 'K': v <<= 10; ++end; break;
    case 'M': v <<= 20; ++end; break;
    case 'G': v <<= 30; ++end; break;
    default: break;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0') return 0;
  *out = (size_t)v;
  return 1;
}

static int parse_long(const char* s, long* out) {
  char* end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end != '\0') return 0;
  *out = v;
  return 1;
}

/* Fetch an option's argument: attached ("-m1:8", "--skip=x") or the next argv entry. */
static const char* opt_arg(int argc, char** argv, int* i, const char* attached) {
  if (attached && *attached) return attached;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

int osu_parse(int argc, char** argv, const osu_bench_t* b, osu_opts_t* o, int verbose) {
  memset(o, 0, sizeof(*o));
  o->min_size = b->def_min;
  o->max_size = b->def_max;
  o->factor = 2;
  o->iters = 0;
  o->warmup = -1;
  o->window = b->def_window;
  o->batches = 5;
  o->precision = 2;
  o->mem = OSU_MEM_HOST;
  strcpy(o->skip, ",");

#define OSU_FAIL(...)                                   \
  do {                                                  \
    if (verbose) {                                      \
      fprintf(stderr, "%s: ", b->prog);                 \
      fprintf(stderr, __VA_ARGS__);                     \
      fprintf(stderr, " (try %s --help)\n", b->prog);   \
    }                                                   \
    return OSU_PARSE_ERROR;                             \
  } while (0)

  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* val = NULL;
    if (a[0] == '-' && a[1] == '-') {
      const char* name = a + 2;
      const char* eq = strchr(name, '=');
      size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
#define LONG_IS(s) (nlen == strlen(s) && strncmp(name, s, nlen) == 0)
      if (LONG_IS("help")) {
        if (verbose) usage(b);
        return OSU_PARSE_EXIT;
      } else if (LONG_IS("nbi") && (b->accept & OSU_ACCEPT_NBI)) {
        o->nbi = 1;
      } else if (LONG_IS("global") && (b->accept & OSU_ACCEPT_GLOBAL)) {
        o->global = 1;
      } else if (LONG_IS("skip") && (b->accept & OSU_ACCEPT_SKIP)) {
        if (!(val = opt_arg(argc, argv, &i, eq ? eq + 1 : NULL))) OSU_FAIL("--skip needs a list");
        if (strlen(o->skip) + strlen(val) + 2 >= sizeof(o->skip)) OSU_FAIL("--skip list too long");
        strcat(o->skip, val);
        strcat(o->skip, ",");
      } else if (LONG_IS("precision")) {
        long p;
        if (!(val = opt_arg(argc, argv, &i, eq ? eq + 1 : NULL)) || !parse_long(val, &p) || p < 0 || p > 9)
          OSU_FAIL("--precision needs an integer 0..9");
        o->precision = (int)p;
      } else if (LONG_IS("batches")) {
        long n;
        if (!(val = opt_arg(argc, argv, &i, eq ? eq + 1 : NULL)) || !parse_long(val, &n) || n < 1 || n > 1000)
          OSU_FAIL("--batches needs an integer 1..1000");
        o->batches = (int)n;
      } else {
        OSU_FAIL("unknown option '%s'", a);
      }
#undef LONG_IS
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') OSU_FAIL("unexpected argument '%s'", a);
    char c = a[1];
    const char* attached = a[2] ? a + 2 : NULL;
    if (c == 'h') {
      if (verbose) usage(b);
      return OSU_PARSE_EXIT;
    }
    if (!strchr("mbefinxwdWp", c)) OSU_FAIL("unknown option '%s'", a);
    if (!(val = opt_arg(argc, argv, &i, attached))) OSU_FAIL("option -%c needs a value", c);
    long n = 0;
    switch (c) {
      case 'm': {
        if (!(b->accept & OSU_ACCEPT_SIZES)) OSU_FAIL("this test has no message-size axis (-m)");
        char buf[128];
        snprintf(buf, sizeof(buf), "%s", val);
        char* colon = strchr(buf, ':');
        if (colon) {
          *colon = '\0';
          if ((buf[0] && !parse_size(buf, &o->min_size)) || !parse_size(colon + 1, &o->max_size))
            OSU_FAIL("bad -m '%s' (want [MIN:]MAX)", val);
        } else if (!parse_size(buf, &o->max_size)) {
          OSU_FAIL("bad -m '%s' (want [MIN:]MAX)", val);
        }
        break;
      }
      case 'b':
      case 'e':
        if (!(b->accept & OSU_ACCEPT_SIZES)) OSU_FAIL("this test has no message-size axis (-%c)", c);
        if (!parse_size(val, c == 'b' ? &o->min_size : &o->max_size)) OSU_FAIL("bad size '%s'", val);
        break;
      case 'f':
        if (!parse_long(val, &n) || n < 2 || n > 1024) OSU_FAIL("-f needs an integer 2..1024");
        o->factor = (unsigned)n;
        break;
      case 'i':
      case 'n':
        if (!parse_long(val, &n) || n < 1) OSU_FAIL("-%c needs a positive integer", c);
        o->iters = n;
        break;
      case 'x':
      case 'w':
        if (!parse_long(val, &n) || n < 0) OSU_FAIL("-%c needs a non-negative integer", c);
        o->warmup = n;
        break;
      case 'W':
        if (!(b->accept & OSU_ACCEPT_WINDOW)) OSU_FAIL("this test has no window (-W)");
        if (!parse_long(val, &n) || n < 1 || n > 1 << 20) OSU_FAIL("-W needs an integer 1..1048576");
        o->window = n;
        break;
      case 'p':
        if (!parse_long(val, &n) || n < 0 || n > 9) OSU_FAIL("-p needs an integer 0..9");
        o->precision = (int)n;
        break;
      case 'd':
        if (strcmp(val, "host") == 0) {
          o->mem = OSU_MEM_HOST;
        } else if (strcmp(val, "cuda") == 0) {
          if (!(b->accept & OSU_ACCEPT_CUDA)) OSU_FAIL("this test has no -d cuda (host buffers only)");
          o->mem = OSU_MEM_CUDA;
        } else {
          OSU_FAIL("unknown memory kind '-d %s' (host|cuda)", val);
        }
        break;
    }
  }
  if (o->min_size < 1) o->min_size = 1;
  if (o->min_size > o->max_size) OSU_FAIL("minimum size %zu is above maximum %zu", o->min_size, o->max_size);
  if (o->global && o->max_size > OSU_GLOBAL_MAX) {
    if (verbose) printf("# note: --global caps the maximum size at %zu bytes\n", OSU_GLOBAL_MAX);
    o->max_size = OSU_GLOBAL_MAX;
    if (o->min_size > o->max_size) o->min_size = o->max_size;
  }
#undef OSU_FAIL
  return OSU_PARSE_OK;
}

long osu_iters(const osu_bench_t* b, const osu_opts_t* o, size_t size) {
  if (o->iters > 0) return o->iters;
  return size <= OSU_LARGE_SIZE ? b->iters_small : b->iters_large;
}

long osu_warmup(const osu_bench_t* b, const osu_opts_t* o, size_t size) {
  if (o->warmup >= 0) return o->warmup;
  return size <= OSU_LARGE_SIZE ? b->warmup_small : b->warmup_large;
}

int osu_batches(const osu_opts_t* o, long iters) { return iters < o->batches ? (int)iters : o->batches; }

size_t osu_next_size(const osu_opts_t* o, size_t size) {
  if (size >= o->max_size) return 0;
  size_t next = size * o->factor;
  if (next > o->max_size || next <= size) return 0;
  return next;
}

int osu_skipped(const osu_opts_t* o, const char* name) {
  char key[128];
  snprintf(key, sizeof(key), ",%s,", name);
  return strstr(o->skip, key) != NULL;
}

double osu_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

double osu_median(double* v, int n) {
  if (n <= 0) return 0.0;
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char* metric_column(osu_metric_t m) {
  switch (m) {
    case OSU_METRIC_LATENCY: return "Latency (us)";
    case OSU_METRIC_BW: return "Bandwidth (MB/s)";
    case OSU_METRIC_RATE: return "Messages/s";
    case OSU_METRIC_ATOMIC: return "Latency (us)";
  }
  return "Value";
}

void osu_print_header(const osu_bench_t* b, const osu_opts_t* o, const char* library, const char* mode) {
  printf("# OSU-like %s %s\n", b->title, OSU_LIKE_VERSION);
  printf("# Library: %s\n", library && *library ? library : "unknown");
  if (mode && *mode) printf("# Mode: %s\n", mode);
  printf("# Memory: %s; iterations: ", o->mem == OSU_MEM_HOST ? "host" : "cuda");
  if (o->iters > 0) {
    printf("%ld", o->iters);
  } else {
    printf("%ld (<= %zu B) / %ld", b->iters_small, OSU_LARGE_SIZE, b->iters_large);
  }
  printf("; median of %d timed batches\n", o->batches);
  if ((b->accept & OSU_ACCEPT_WINDOW) && o->window > 0) printf("# Window: %ld operations per completion (quiet / flush)\n", o->window);
  if (b->metric == OSU_METRIC_LATENCY) printf("# Lower is better\n");
  else printf("# %s\n", b->metric == OSU_METRIC_ATOMIC ? "Latency: lower is better; rate: higher is better"
                                                         : "Higher is better");
  if (b->metric == OSU_METRIC_ATOMIC) {
    printf("%-*s%*s%*s\n", OSU_NAME_WIDTH, "# Operation", OSU_FIELD_WIDTH, "Latency (us)", OSU_FIELD_WIDTH,
           "Rate (ops/s)");
  } else if (!(b->accept & OSU_ACCEPT_SIZES)) {
    printf("%-*s%*s\n", OSU_SIZE_WIDTH, "# PEs", OSU_FIELD_WIDTH, metric_column(b->metric));
  } else {
    printf("%-*s%*s\n", OSU_SIZE_WIDTH, "# Size", OSU_FIELD_WIDTH, metric_column(b->metric));
  }
  fflush(stdout);
}

void osu_print_row(const osu_opts_t* o, size_t size, double value) {
  printf("%-*zu%*.*f\n", OSU_SIZE_WIDTH, size, OSU_FIELD_WIDTH, o->precision, value);
  fflush(stdout);
}

void osu_print_named_row(const osu_opts_t* o, const char* name, double value, double value2) {
  printf("%-*s%*.*f%*.*f\n", OSU_NAME_WIDTH, name, OSU_FIELD_WIDTH, o->precision, value, OSU_FIELD_WIDTH,
         o->precision, value2);
  fflush(stdout);
}

double osu_bw_mbs(size_t bytes_total, double us) { return us > 0 ? (double)bytes_total / us : 0.0; }

double osu_rate(double ops, double us) { return us > 0 ? ops * 1e6 / us : 0.0; }
