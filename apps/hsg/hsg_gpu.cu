// hsg_gpu: the 3D Edwards-Anderson Heisenberg spin glass on the GPU, fp32, with device-initiated halos (the
// APEnet+ benchmark). Lattice arithmetic and layout: hsg_gpu.cuh; model and checks: apps/README.md.
//
// Decomposition: z-slabs (the first L % npes PEs own one plane more, at least 2 planes each) with one ghost plane
// per side in the device symmetric heap. Half-sweep k (1, 2, ...) updates colour c = (k - 1) % 2:
//   direct, auto  a boundary kernel of 2 * nch blocks on stream A (high priority), each owning a chunk of boundary
//                 plane 1 or nz: it waits until the neighbour's chunk of half-sweep k - 1 has arrived in the ghost
//                 it reads (signal >= k - 1), updates its chunk, and puts it into the neighbour's ghost with
//                 gshmemx_putmem_signal_nbi_block (signal := k); the bulk kernel runs on stream B meanwhile. direct
//                 requires every neighbour's heap to be mapped (SM stores over NVLink/PCIe or within one GPU);
//                 auto takes whatever path the runtime chose per peer (stores, or the CPU proxy when unmapped).
//   stream        a boundary kernel on stream A, then gshmemx_putmem_signal_on_stream of the two planes (the copy
//                 engine into a mapped peer, the staged pipeline through the proxy otherwise), while the bulk kernel
//                 runs on stream B; the ghosts' signals are waited for on stream A before the next boundary kernel
//                 (gshmemx_signal_wait_until_on_stream: the GPU's front end polls, no SM is held).
//   staged-tx     as stream, but the planes first go to pinned host buffers (device-to-host copy on stream A) and
//                 are put from there into the neighbour's GPU memory: staged send, direct receive.
//   staged        as stream with GSHMEM_P2P=0 set before initialisation: GPU -> pinned host -> peer GPU both ways.
//   --mpi         the twin: the same kernels and streams, halos by MPI_Isend/MPI_Irecv after the boundary kernel
//                 (device buffers when the MPI is CUDA-aware, else staged through pinned host buffers).
// Why one ghost plane per side suffices: half-sweep k writes colour c of the neighbour's ghost, which the
// neighbour last read in its half-sweep k - 1; our boundary chunk waited for the neighbour's signal k - 1, sent
// after that read (the chunk layout is the same on every PE, and a chunk's z neighbours are the same sites). The
// Every variant but the serial reference orders bulk(k) after boundary(k - 1) and boundary(k) after bulk(k - 1)
// with two events, so bulk(k) follows bulk(k - 1) at once and boundary(k) runs beside it.
//
// Output: one line `L, NP, variant, sweeps, ps_per_spin_OR, ps_per_spin_HB, E/N, max||S|-1|` (ps/spin = slowest
// PE's time per sweep / L^3). --bench times pure over-relaxation and heat-bath sweeps after a warm-up and prints
// them against the floor kBytesPerSpin / B (hsg_gpu.cuh), B the device-to-device copy bandwidth measured in the same
// run.
// Checks (PE 0 prints "hsg_gpu check: OK|FAILED"; "check: SKIPPED" without a GPU): --check (spins bit-identical
// to a one-PE GPU run on PE 0), --check-energy (over-relaxation conserves E to 1e-5 of max(|E(0)|, N) and |S| to
// 1e-5), --check-high-t (<E/N> = -beta within 5%), --check-cpu (over-relaxation bit-identical to the CPU, one
// heat-bath sweep within 1e-5), --corrupt-ghost (debug: flips one received ghost plane once; --check-energy must
// fail).
#include <gshmem/device.cuh>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/app_util.hpp"
#include "../common/gpu_probe.cuh"
#include "hsg_gpu.cuh"
#include "hsg_gpu_kernels.cuh"

using hsg_gpu::Geo;
using hsg_gpu::HalfSweep;
using hsg_gpu::kChunkSites;
using hsg_gpu::kThreads;
using namespace hsg_gpu::kernels;

#define HSG_CK(x) APP_CUDA_CK("hsg_gpu", x)

namespace {

// ------------------------------------------------------------------------------------------------- run state
enum class Variant { Direct, Auto, Stream, StagedTx, Staged, Mpi, Serial };
const char* variantName(Variant v) {
  static const char* n[] = {"direct", "auto", "stream", "staged-tx", "staged", "mpi", "serial"};
  return n[(int)v];
}

struct Params {
  int L = 32, sweeps = 10, n_or = 4;
  float beta = 5.0f;
  uint64_t seed = 1;
  bool or_only = false, hb_only = false, bench = false;
  bool check = false, check_energy = false, check_high_t = false, check_cpu = false, corrupt = false;
  Variant v = Variant::Direct;
};

/** One slab on this GPU with its communication state. The serial reference is a Slab with nz = L on one PE. */
struct Slab {
  Params p;
  Variant v = Variant::Direct;
  Geo g;
  int me = 0, npes = 1, lo = 0, up = 0, nz_lo = 0, nch = 1, nsig = 1;
  float* s = nullptr;      // symmetric (distributed) or cudaMalloc (serial)
  uint8_t* Jb = nullptr;   // bond bytes (cudaMalloc)
  uint64_t* sig = nullptr;
  cudaStream_t a = nullptr, b = nullptr;
  cudaEvent_t ev_bnd = nullptr, ev_bulk = nullptr;
  float* host[4] = {};  // pinned: send plane 1, send plane nz, receive lower, receive upper
  bool cuda_aware = false, corrupt = false;
  uint64_t k = 0, sweep = 0;
};

/** Boundary blocks that signal per chunk (direct, auto), or one signal per ghost plane (the stream variants). */
bool chunked(Variant v) { return v == Variant::Direct || v == Variant::Auto || v == Variant::Serial; }

HalfSweep halfArgs(const Slab& sl, int c, bool hb) {
  HalfSweep a;
  a.g = sl.g, a.s = sl.s, a.Jb = sl.Jb, a.beta = hb ? sl.p.beta : 0.0f;
  a.key = hsg_gpu::hbKey(sl.p.seed, sl.sweep), a.quad = sl.g.H % 4 == 0;
  a.k = sl.k, a.c = c, a.nch = sl.nch, a.chunk = kChunkSites;
  a.sig = sl.sig, a.nsig = sl.nsig, a.lo = sl.lo, a.up = sl.up, a.nz_lo = sl.nz_lo;
  a.wait = sl.k > 1 && (sl.v == Variant::Direct || sl.v == Variant::Auto);
  a.put = sl.v == Variant::Direct || sl.v == Variant::Auto;
  return a;
}

/** Launches the nbnd boundary blocks, then (when bulk is set) the bulk's blocks, in that order on stream st. */
void launchHalf(const HalfSweep& a, bool hb, int nbnd, bool bulk, cudaStream_t st) {
  const size_t per_plane = a.quad ? a.g.H2 / 4 : a.g.H2;  // threads per plane
  const unsigned bpp = (unsigned)((per_plane + kThreads - 1) / kThreads);
  const unsigned nbulk = bulk ? (unsigned)std::max(a.g.nz - 2, 0) * bpp : 0u;
  if (nbnd > 0) {
    if (hb) boundaryKernel<true><<<nbnd, kThreads, 0, st>>>(a);
    else boundaryKernel<false><<<nbnd, kThreads, 0, st>>>(a);
    HSG_CK(cudaGetLastError());
  }
  if (nbulk > 0) {
    if (hb) bulkKernel<true><<<nbulk, kThreads, 0, st>>>(a, bpp);
    else bulkKernel<false><<<nbulk, kThreads, 0, st>>>(a, bpp);
    HSG_CK(cudaGetLastError());
  }
}

/** The MPI twin's exchange of colour c after the boundary kernel (host-synchronous). */
void mpiExchange(Slab& sl, int c) {
  const Geo& g = sl.g;
  const int n = (int)g.colourFloats();
  const size_t nb = g.colourFloats() * sizeof(float);
  float *snd0 = sl.s + g.off(1, c, 0), *snd1 = sl.s + g.off(g.nz, c, 0);
  float *rcv0 = sl.s + g.off(0, c, 0), *rcv1 = sl.s + g.off(g.nz + 1, c, 0);
  HSG_CK(cudaEventSynchronize(sl.ev_bnd));
  if (!sl.cuda_aware) {
    HSG_CK(cudaMemcpyAsync(sl.host[0], snd0, nb, cudaMemcpyDeviceToHost, sl.a));
    HSG_CK(cudaMemcpyAsync(sl.host[1], snd1, nb, cudaMemcpyDeviceToHost, sl.a));
    HSG_CK(cudaStreamSynchronize(sl.a));
    snd0 = sl.host[0], snd1 = sl.host[1], rcv0 = sl.host[2], rcv1 = sl.host[3];
  }
  MPI_Request rq[4];  // tag 0: a plane travelling down (into the receiver's upper ghost); tag 1: up
  MPI_Irecv(rcv1, n, MPI_FLOAT, sl.up, 0, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(rcv0, n, MPI_FLOAT, sl.lo, 1, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(snd0, n, MPI_FLOAT, sl.lo, 0, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(snd1, n, MPI_FLOAT, sl.up, 1, MPI_COMM_WORLD, &rq[3]);
  MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
  if (!sl.cuda_aware) {
    HSG_CK(cudaMemcpyAsync(sl.s + g.off(0, c, 0), rcv0, nb, cudaMemcpyHostToDevice, sl.a));
    HSG_CK(cudaMemcpyAsync(sl.s + g.off(g.nz + 1, c, 0), rcv1, nb, cudaMemcpyHostToDevice, sl.a));
  }
}

/** Enqueues the stream variants' puts of colour c (stream A, after the boundary kernel). */
void streamPuts(Slab& sl, int c) {
  const Geo& g = sl.g;
  const size_t nb = g.colourFloats() * sizeof(float);
  const float *src0 = sl.s + g.off(1, c, 0), *src1 = sl.s + g.off(g.nz, c, 0);
  if (sl.v == Variant::StagedTx) {
    HSG_CK(cudaMemcpyAsync(sl.host[0], src0, nb, cudaMemcpyDeviceToHost, sl.a));
    HSG_CK(cudaMemcpyAsync(sl.host[1], src1, nb, cudaMemcpyDeviceToHost, sl.a));
    src0 = sl.host[0], src1 = sl.host[1];
  }
  gshmemx_putmem_signal_on_stream(sl.s + g.off(sl.nz_lo + 1, c, 0), src0, nb, sl.sig + sl.nsig, sl.k,
                                  GSHMEM_SIGNAL_SET, sl.lo, sl.a);
  gshmemx_putmem_signal_on_stream(sl.s + g.off(0, c, 0), src1, nb, sl.sig, sl.k, GSHMEM_SIGNAL_SET, sl.up, sl.a);
}

/** Half-sweep sl.k + 1 (colour c) in the slab's variant. Apart from the serial reference (one stream, boundary
 *  blocks then bulk, then the self-wrap copies), the boundary kernel runs on stream A (high priority) beside the
 *  bulk on stream B: boundary(k) after bulk(k - 1), bulk(k) after boundary(k - 1), so the bulks follow each other
 *  back to back and the boundary blocks fill the SMs the bulk leaves free. */
void halfSweep(Slab& sl, int c, bool hb) {
  ++sl.k;
  const HalfSweep a = halfArgs(sl, c, hb);
  const int nbnd = 2 * sl.nch;
  if (sl.v == Variant::Serial) {  // periodic self-wrap by local copies
    launchHalf(a, hb, nbnd, true, sl.a);
    const size_t nb = sl.g.colourFloats() * sizeof(float);
    HSG_CK(cudaMemcpyAsync(sl.s + sl.g.off(0, c, 0), sl.s + sl.g.off(sl.g.nz, c, 0), nb, cudaMemcpyDeviceToDevice,
                           sl.a));
    HSG_CK(cudaMemcpyAsync(sl.s + sl.g.off(sl.g.nz + 1, c, 0), sl.s + sl.g.off(1, c, 0), nb,
                           cudaMemcpyDeviceToDevice, sl.a));
  } else {
    HSG_CK(cudaStreamWaitEvent(sl.a, sl.ev_bulk, 0));  // boundary(k) reads what bulk(k - 1) wrote
    HSG_CK(cudaStreamWaitEvent(sl.b, sl.ev_bnd, 0));   // bulk(k) reads what boundary(k - 1) wrote
    const bool on_stream = !chunked(sl.v) && sl.v != Variant::Mpi;
    if (sl.k > 1 && on_stream) {  // the ghosts of half-sweep k - 1, waited for by the GPU's front end
      gshmemx_signal_wait_until_on_stream(sl.sig, GSHMEM_CMP_GE, sl.k - 1, sl.a);
      gshmemx_signal_wait_until_on_stream(sl.sig + sl.nsig, GSHMEM_CMP_GE, sl.k - 1, sl.a);
    }
    launchHalf(a, hb, nbnd, false, sl.a);  // direct, auto: its blocks wait for their chunks and put them
    HSG_CK(cudaEventRecord(sl.ev_bnd, sl.a));
    launchHalf(a, hb, 0, true, sl.b);
    HSG_CK(cudaEventRecord(sl.ev_bulk, sl.b));
    if (sl.v == Variant::Mpi) mpiExchange(sl, c);
    else if (on_stream) streamPuts(sl, c);
  }
  if (sl.corrupt && sl.k == 1) {  // debug: PE 0's lower ghost of colour c, once it has arrived
    HSG_CK(cudaStreamWaitEvent(sl.a, sl.ev_bulk, 0));
    corruptKernel<<<1, kThreads, 0, sl.a>>>(sl.g, sl.s, sl.sig, sl.nsig, 1, c, sl.v != Variant::Mpi);
    HSG_CK(cudaGetLastError());
  }
}

/** Runs `sweeps` sweeps (hb per sweep from the schedule), then waits until every ghost is current. */
void runSweeps(Slab& sl, int sweeps, int mode /* 0 schedule, 1 OR only, 2 HB only */) {
  const int passes = 1 + sl.p.n_or;
  for (int s = 0; s < sweeps; ++s, ++sl.sweep) {
    const bool hb = mode == 2 || (mode == 0 && (sl.p.hb_only || (!sl.p.or_only && s % passes == 0)));
    halfSweep(sl, 0, hb);
    halfSweep(sl, 1, hb);
  }
  HSG_CK(cudaStreamWaitEvent(sl.a, sl.ev_bulk, 0));
  if (sl.v != Variant::Serial && sl.v != Variant::Mpi && sl.k > 0) {
    drainKernel<<<1, 64, 0, sl.a>>>(sl.sig, sl.nsig, sl.k);
    HSG_CK(cudaGetLastError());
  }
  HSG_CK(cudaDeviceSynchronize());
}

}  // namespace

namespace {

// ------------------------------------------------------------------------------------------------- setup
Params parse(int argc, char** argv) {
  Params p;
  apps::ArgParser ap(argc, argv,
                     "[--size L] [--sweeps n] [--or n] [--beta b] [--seed n] [--or-only | --hb-only] "
                     "[--variant direct|auto|stream|staged-tx|staged] [--mpi] [--bench] [--check] [--check-energy] "
                     "[--check-high-t] [--check-cpu] [--corrupt-ghost]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-L", "--size")) p.L = (int)ap.next_int(i);
    else if (ap.is(i, "-s", "--sweeps")) p.sweeps = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--or")) p.n_or = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--beta")) p.beta = (float)ap.next_double(i);
    else if (ap.is(i, nullptr, "--seed")) p.seed = (uint64_t)ap.next_int(i);
    else if (ap.is(i, nullptr, "--or-only")) p.or_only = true;
    else if (ap.is(i, nullptr, "--hb-only")) p.hb_only = true;
    else if (ap.is(i, nullptr, "--bench")) p.bench = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else if (ap.is(i, nullptr, "--check-energy")) p.check_energy = p.or_only = true;
    else if (ap.is(i, nullptr, "--check-high-t")) p.check_high_t = p.hb_only = true;
    else if (ap.is(i, nullptr, "--check-cpu")) p.check_cpu = true;
    else if (ap.is(i, nullptr, "--corrupt-ghost")) p.corrupt = true;
    else if (ap.is(i, nullptr, "--mpi")) p.v = Variant::Mpi;
    else if (ap.is(i, nullptr, "--variant")) {
      const std::string v = ++i < argc ? argv[i] : "";
      const Variant all[] = {Variant::Direct, Variant::Auto, Variant::Stream, Variant::StagedTx, Variant::Staged};
      bool found = false;
      for (Variant x : all) found |= v == variantName(x) && (p.v = x, true);
      if (!found) ap.fail(argv[i - 1]);
    } else ap.fail(argv[i]);
  }
  return p;
}

/** Allocates and initialises a slab. Distributed slabs are symmetric (sized for the largest slab); the serial
 *  reference (v == Serial) is private to the calling PE. */
void setupSlab(Slab& sl, const Params& p, Variant v, const std::vector<int>& nz_of) {
  sl.p = p, sl.v = v, sl.me = shmem_my_pe(), sl.npes = v == Variant::Serial ? 1 : shmem_n_pes();
  int z0 = 0;
  for (int q = 0; q < sl.me && v != Variant::Serial; ++q) z0 += nz_of[q];
  sl.g = hsg_gpu::makeGeo(p.L, v == Variant::Serial ? p.L : nz_of[sl.me], z0);
  sl.lo = (sl.me + sl.npes - 1) % sl.npes, sl.up = (sl.me + 1) % sl.npes;
  sl.nz_lo = v == Variant::Serial ? sl.g.nz : nz_of[sl.lo];
  sl.nch = (int)((sl.g.H2 + kChunkSites - 1) / kChunkSites);
  sl.nsig = chunked(v) ? sl.nch : 1;
  const Geo gmax = hsg_gpu::makeGeo(p.L, v == Variant::Serial ? p.L : nz_of[0], 0);
  const size_t bytes = gmax.slabFloats() * sizeof(float);
  if (v == Variant::Serial) {
    HSG_CK(cudaMalloc(&sl.s, bytes));
  } else {
    sl.s = static_cast<float*>(gshmemx_malloc_device(bytes));
    sl.sig = static_cast<uint64_t*>(gshmemx_calloc_device(2 * (size_t)sl.nch, sizeof(uint64_t)));
    if (!sl.s || !sl.sig) {
      std::fprintf(stderr, "hsg_gpu: PE %d: gshmemx_malloc_device of %zu bytes failed; raise "
                           "GSHMEM_SYMMETRIC_SIZE_DEVICE\n", sl.me, bytes);
      shmem_global_exit(1);
    }
  }
  HSG_CK(cudaMalloc(&sl.Jb, sl.g.slabBonds()));
  int lo_prio = 0, hi_prio = 0, dev = 0, sms = 0;
  HSG_CK(cudaDeviceGetStreamPriorityRange(&lo_prio, &hi_prio));
  HSG_CK(cudaStreamCreateWithPriority(&sl.a, cudaStreamNonBlocking, hi_prio));
  HSG_CK(cudaStreamCreateWithPriority(&sl.b, cudaStreamNonBlocking, lo_prio));
  HSG_CK(cudaEventCreateWithFlags(&sl.ev_bnd, cudaEventDisableTiming));
  HSG_CK(cudaEventCreateWithFlags(&sl.ev_bulk, cudaEventDisableTiming));
  HSG_CK(cudaGetDevice(&dev));
  HSG_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  sl.cuda_aware = v == Variant::Mpi && MPIX_Query_cuda_support() == 1 && !std::getenv("HSG_MPI_STAGED");
#endif
  if (v == Variant::StagedTx || (v == Variant::Mpi && !sl.cuda_aware))
    for (float*& h : sl.host) HSG_CK(cudaMallocHost(&h, sl.g.colourFloats() * sizeof(float)));
  initKernel<<<sms * 4, kThreads, 0, sl.a>>>(sl.g, sl.s, sl.Jb, p.seed);
  HSG_CK(cudaGetLastError());
  HSG_CK(cudaDeviceSynchronize());
}

void freeSlab(Slab& sl) {
  HSG_CK(cudaDeviceSynchronize());
  for (float* h : sl.host)
    if (h) HSG_CK(cudaFreeHost(h));
  cudaEventDestroy(sl.ev_bnd), cudaEventDestroy(sl.ev_bulk), cudaStreamDestroy(sl.a), cudaStreamDestroy(sl.b);
  HSG_CK(cudaFree(sl.Jb));
  if (sl.v == Variant::Serial) {
    HSG_CK(cudaFree(sl.s));
  } else {
    shmem_free(sl.sig);
    shmem_free(sl.s);
  }
}

// ------------------------------------------------------------------------------------------------- observables
struct Obs {
  double energy = 0, dev = 0;
  std::vector<double> e;         // per global plane
  std::vector<uint64_t> hashes;  // per global plane: the bits of its spins in global site order
};

/** Energy of the forward bonds, max | |S| - 1 | and spin-bit hash of local plane lz, from host copies. */
void planeObs(const Geo& g, const std::vector<float>& s, const std::vector<uint8_t>& Jb, int lz, double* e,
              double* dev, uint64_t* hash) {
  const int L = g.L, H = g.H, zg = g.gz(lz);
  uint64_t h = 0x6a09e667f3bcc908ULL;
  double en = 0.0;
  for (int y = 0; y < L; ++y)
    for (int x = 0; x < L; ++x) {
      const int c = (x + y + zg) & 1, oc = 1 - c;
      const size_t i = (size_t)y * H + x / 2, ix = (size_t)y * H + ((x + 1) % L) / 2;
      const size_t iy = (size_t)((y + 1) % L) * H + x / 2;
      double d[3] = {0, 0, 0}, n2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double sk = s[g.off(lz, c, k) + i];
        d[0] += sk * s[g.off(lz, oc, k) + ix];
        d[1] += sk * s[g.off(lz, oc, k) + iy];
        d[2] += sk * s[g.off(lz + 1, oc, k) + i];
        n2 += sk * sk;
        uint32_t bits;
        std::memcpy(&bits, &s[g.off(lz, c, k) + i], sizeof bits);
        h = hsg_gpu::mix64(h ^ bits);
      }
      for (int k = 0; k < 3; ++k) en -= (Jb[g.bondOff(lz, c) + i] >> k & 1 ? -1.0 : 1.0) * d[k];
      *dev = std::fmax(*dev, std::fabs(std::sqrt(n2) - 1.0));
    }
  *e = en, *hash = h;
}

/** Observables of the slab; collective over all PEs when the slab is distributed (sym: symmetric scratch of
 *  4 L + 2 words). Energies are summed in global plane order, so every decomposition sums the same terms. */
Obs measure(const Slab& sl, double* sym) {
  const Geo& g = sl.g;
  std::vector<float> s(g.slabFloats());
  std::vector<uint8_t> Jb(g.slabBonds());
  HSG_CK(cudaMemcpy(s.data(), sl.s, s.size() * sizeof(float), cudaMemcpyDeviceToHost));
  HSG_CK(cudaMemcpy(Jb.data(), sl.Jb, Jb.size(), cudaMemcpyDeviceToHost));
  Obs o;
  o.e.resize(g.L), o.hashes.resize(g.L);
  std::vector<double> e(g.nz);
  std::vector<uint64_t> hs(g.nz);
  for (int lz = 1; lz <= g.nz; ++lz) planeObs(g, s, Jb, lz, &e[lz - 1], &o.dev, &hs[lz - 1]);
  if (sl.v == Variant::Serial) {
    o.e = e, o.hashes = hs;
  } else {  // sym: [0, L) energies, [L, 2L) hashes, [2L, 4L) their sources, then the reduction pair
    double* src = sym + 2 * g.L;
    std::memcpy(src, e.data(), g.nz * sizeof(double));
    std::memcpy(src + g.L, hs.data(), g.nz * sizeof(uint64_t));
    shmem_double_collect(SHMEM_TEAM_WORLD, sym, src, g.nz);
    shmem_uint64_collect(SHMEM_TEAM_WORLD, reinterpret_cast<uint64_t*>(sym + g.L),
                         reinterpret_cast<uint64_t*>(src + g.L), g.nz);
    sym[4 * g.L] = o.dev;
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, sym + 4 * g.L + 1, sym + 4 * g.L, 1);
    std::memcpy(o.e.data(), sym, g.L * sizeof(double));
    std::memcpy(o.hashes.data(), sym + g.L, g.L * sizeof(uint64_t));
    o.dev = sym[4 * g.L + 1];
  }
  for (double v : o.e) o.energy += v;
  return o;
}

// ------------------------------------------------------------------------------------------------- checks
/** Runs the slab's schedule: `iters` iterations (pure sweeps with --or-only / --hb-only). */
void runSchedule(Slab& sl, int iters) {
  const Params& p = sl.p;
  runSweeps(sl, (p.or_only || p.hb_only) ? iters : iters * (1 + p.n_or), p.or_only ? 1 : p.hb_only ? 2 : 0);
}

/** The CPU reference of --check-cpu: the serial slab's arithmetic on host copies (same functions). */
void cpuSweeps(const Geo& g, std::vector<float>& s, const std::vector<uint8_t>& Jb, const Params& p, int sweeps,
               bool hb) {
  for (int sw = 0; sw < sweeps; ++sw)
    for (int c = 0; c < 2; ++c) {
      for (int lz = 1; lz <= g.nz; ++lz)
        for (unsigned i = 0; i < g.H2; ++i)
          hb ? hsg_gpu::updateSite<true>(g, s.data(), Jb.data(), lz, g.gz(lz), c, i, p.beta, hsg_gpu::hbKey(p.seed, sw))
             : hsg_gpu::updateSite<false>(g, s.data(), Jb.data(), lz, g.gz(lz), c, i, 0.0f, hsg_gpu::HbKey());
      std::memcpy(&s[g.off(0, c, 0)], &s[g.off(g.nz, c, 0)], g.colourFloats() * sizeof(float));
      std::memcpy(&s[g.off(g.nz + 1, c, 0)], &s[g.off(1, c, 0)], g.colourFloats() * sizeof(float));
    }
}

/** PE 0: over-relaxation sweeps bit-identical between this GPU and the CPU; one heat-bath sweep within 1e-5. */
bool checkCpu(const Params& p, const std::vector<int>& nz_of) {
  Slab sl;
  setupSlab(sl, p, Variant::Serial, nz_of);
  const size_t n = sl.g.slabFloats();
  std::vector<float> s0(n), gpu(n);
  std::vector<uint8_t> Jb(sl.g.slabBonds());
  HSG_CK(cudaMemcpy(s0.data(), sl.s, n * sizeof(float), cudaMemcpyDeviceToHost));
  HSG_CK(cudaMemcpy(Jb.data(), sl.Jb, Jb.size(), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int hb = 0; hb < 2; ++hb) {
    const int sweeps = hb ? 1 : p.sweeps;
    HSG_CK(cudaMemcpy(sl.s, s0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    sl.sweep = 0, sl.k = 0;
    runSweeps(sl, sweeps, hb ? 2 : 1);
    HSG_CK(cudaMemcpy(gpu.data(), sl.s, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> cpu = s0;
    cpuSweeps(sl.g, cpu, Jb, p, sweeps, hb);
    size_t differ = 0;
    double maxd = 0;
    for (size_t i = 0; i < n; ++i) {
      differ += std::memcmp(&cpu[i], &gpu[i], sizeof(float)) != 0;
      maxd = std::fmax(maxd, std::fabs((double)cpu[i] - gpu[i]));
    }
    std::printf("hsg_gpu check-cpu: %d %s sweep(s): %zu of %zu floats differ in some bit, max |difference| %.3g\n",
                sweeps, hb ? "heat-bath" : "over-relaxation", differ, n, maxd);
    ok &= hb ? maxd <= 1e-5 : differ == 0;
  }
  freeSlab(sl);
  return ok;
}

/** Agrees on PE 0's verdict, prints "check: OK|FAILED" and returns the exit status. */
int verdict(bool ok_on_pe0, int* flag) {
  flag[1] = ok_on_pe0 ? 1 : 0;
  shmem_int_broadcast(SHMEM_TEAM_WORLD, flag, flag + 1, 1, 0);
  if (shmem_my_pe() == 0) std::printf("hsg_gpu check: %s\n", flag[0] ? "OK" : "FAILED");
  return flag[0] ? 0 : 1;
}

/** PE 0: the distributed result against a one-PE run of the same schedule on this GPU, bit for bit. */
bool checkSerial(const Params& p, const std::vector<int>& nz_of, const Obs& o) {
  Slab sl;
  setupSlab(sl, p, Variant::Serial, nz_of);
  runSchedule(sl, p.sweeps);
  const Obs ref = measure(sl, nullptr);
  freeSlab(sl);
  int planes = 0;
  for (int z = 0; z < p.L; ++z) planes += ref.hashes[z] != o.hashes[z];
  const bool ebits = std::memcmp(&ref.energy, &o.energy, sizeof(double)) == 0;
  std::printf("hsg_gpu check: one-PE E %.17g distributed E %.17g (bitwise %s); %d of %d planes differ\n",
              ref.energy, o.energy, ebits ? "yes" : "no", planes, p.L);
  return ebits && planes == 0;
}

// ------------------------------------------------------------------------------------------------- timing
/** Seconds of `sweeps` sweeps in `mode` (1 OR, 2 HB), the slowest PE's. */
double timeSweeps(Slab& sl, int sweeps, int mode, double* sym) {
  HSG_CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  const double t0 = apps::wtime();
  runSweeps(sl, sweeps, mode);
  sym[0] = apps::wtime() - t0;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, sym + 1, sym, 1);
  return sym[1];
}

/** --bench: warm-up, then pure OR and pure HB sweeps timed apart; prints the floor comparison. */
void bench(Slab& sl, double* sym, double* ps_or, double* ps_hb) {
  double B = 0;
  HSG_CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (sl.me == 0) B = apps::copyBandwidth(sl.a, nullptr);
  runSweeps(sl, 2, 1);
  const double n3 = (double)sl.p.L * sl.p.L * sl.p.L, floor_ps = hsg_gpu::kBytesPerSpin / B * 1e12;
  *ps_or = timeSweeps(sl, sl.p.sweeps, 1, sym) / sl.p.sweeps / n3 * 1e12;
  *ps_hb = timeSweeps(sl, sl.p.sweeps, 2, sym) / sl.p.sweeps / n3 * 1e12;
  if (sl.me == 0 && B > 0)
    std::printf("hsg_gpu bench: copy probe B %.1f GB/s, floor %d B/spin / B = %.2f ps; OR %.2f ps = %.3f x floor; "
                "HB %.2f ps = %.3f x floor\n", B / 1e9, hsg_gpu::kBytesPerSpin, floor_ps, *ps_or, *ps_or / floor_ps,
                *ps_hb, *ps_hb / floor_ps);
}

/** Every check asked for; each prints its line and "check: OK|FAILED" on PE 0. Returns the exit status. */
int checks(const Params& p, const std::vector<int>& nz_of, const Obs& o0, const Obs& o, double mean_en, int e_n,
           int* flag) {
  const int me = shmem_my_pe();
  int rc = 0;
  if (p.check) rc |= verdict(me == 0 && checkSerial(p, nz_of, o), flag);
  if (p.check_energy) {
    const double rel = apps::energyDrift(o0.energy, o.energy, (double)p.L * p.L * p.L);
    if (me == 0)
      std::printf("hsg_gpu check-energy: E(0) %.17g E(%d) %.17g |dE|/max(|E(0)|, N) %.3g max||S|-1| %.3g\n",
                  o0.energy, p.sweeps, o.energy, rel, o.dev);
    rc |= verdict(rel <= 1e-5 && o.dev <= 1e-5, flag);
  }
  if (p.check_high_t) {
    const double dev = std::fabs(mean_en + p.beta) / p.beta;
    if (me == 0) std::printf("hsg_gpu check-high-t: <E/N> over %d sweeps %.6f, -beta %.6f, deviation %.2f%%\n",
                             e_n, mean_en, -p.beta, 100 * dev);
    rc |= verdict(e_n > 0 && dev <= 0.05, flag);
  }
  if (p.check_cpu) rc |= verdict(me == 0 && checkCpu(p, nz_of), flag);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  const Params p = parse(argc, argv);
  if (p.v == Variant::Staged) setenv("GSHMEM_P2P", "0", 1);  // fully staged: GPU -> pinned host -> peer GPU
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (!gshmemx_device_available()) {
    if (me == 0) std::printf("hsg_gpu check: SKIPPED (no GPU)\n");
    shmem_finalize();
    return 0;
  }
  if (p.L < 2 || p.L % 2 || p.L < 2 * npes || p.sweeps < 1 || p.n_or < 0 || !(p.beta > 0) ||
      (p.or_only && p.hb_only)) {
    if (me == 0)
      std::fprintf(stderr, "hsg_gpu: need an even L >= 2 * npes (%d), sweeps >= 1, --or >= 0, beta > 0, and not "
                           "both --or-only and --hb-only\n", 2 * npes);
    shmem_finalize();
    return 2;
  }
  std::vector<int> nz_of(npes);
  for (int q = 0; q < npes; ++q) nz_of[q] = p.L / npes + (q < p.L % npes ? 1 : 0);
  Slab sl;
  setupSlab(sl, p, p.v, nz_of);
  sl.corrupt = p.corrupt && me == 0;
  if (p.v == Variant::Direct && (!shmem_ptr(sl.s, sl.lo) || !shmem_ptr(sl.s, sl.up))) {
    std::fprintf(stderr, "hsg_gpu: PE %d: --variant direct needs the neighbours' device heaps mapped (P2P on, "
                         "same node); use --variant auto or stream\n", me);
    shmem_global_exit(2);
  }
  double* sym = static_cast<double*>(shmem_calloc(4 * (size_t)p.L + 2, sizeof(double)));
  int* flag = static_cast<int*>(shmem_calloc(2, sizeof(int)));
  const Obs o0 = measure(sl, sym);
  if (me == 0)
    std::printf("hsg_gpu: L=%d npes=%d planes/PE=%d..%d variant %s%s, %d %s, beta %g, seed %" PRIu64 "\n", p.L, npes,
                nz_of[npes - 1], nz_of[0], variantName(p.v),
                p.v == Variant::Mpi ? (sl.cuda_aware ? " (CUDA-aware MPI, device buffers)"
                                                     : " (MPI staged through pinned host buffers)") : "",
                p.sweeps, p.or_only ? "over-relaxation sweeps" : p.hb_only ? "heat-bath sweeps"
                : "iterations (1 heat-bath + over-relaxation sweeps)", p.beta, p.seed);
  double e_sum = 0, ps_or = 0, ps_hb = 0;
  int e_n = 0;
  const double n3 = (double)p.L * p.L * p.L;
  timeSweeps(sl, 0, 1, sym);  // aligns the PEs
  const double t0 = apps::wtime();
  if (p.check_high_t) {
    for (int it = 0; it < p.sweeps; ++it) {
      runSchedule(sl, 1);
      const Obs o = measure(sl, sym);
      if (it >= p.sweeps / 4) e_sum += o.energy, ++e_n;
    }
  } else {
    runSchedule(sl, p.sweeps);
  }
  sym[0] = apps::wtime() - t0;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, sym + 1, sym, 1);
  if (p.or_only) ps_or = sym[1] / p.sweeps / n3 * 1e12;
  if (p.hb_only) ps_hb = sym[1] / p.sweeps / n3 * 1e12;
  const Obs o = measure(sl, sym);
  const int rc = checks(p, nz_of, o0, o, e_n ? e_sum / e_n / n3 : 0.0, e_n, flag);
  if (p.bench) bench(sl, sym, &ps_or, &ps_hb);
  if (me == 0) {
    std::printf("# L, NP, variant, sweeps, ps_per_spin_OR, ps_per_spin_HB, E/N, max||S|-1|\n");
    std::printf("%d, %d, %s, %d, %.2f, %.2f, %.9f, %.3g\n", p.L, npes, variantName(p.v), p.sweeps, ps_or, ps_hb,
                o.energy / n3, o.dev);
  }
  shmem_barrier_all();
  freeSlab(sl);
  shmem_free(flag);
  shmem_free(sym);
  shmem_finalize();
  return rc;
}
