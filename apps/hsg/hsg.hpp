// hsg: declarations shared by the files of the Heisenberg spin glass app (host version).
//
// Lattice: L x L x L (L even), periodic; site (x, y, z) has global index x + L * (y + L * z) and colour
// (x + y + z) mod 2. A z-slab holds planes 0..nz+1 (0 and nz+1 are ghost planes: copies of the global
// planes z0 - 1 and z0 + nz).
//
// Colour-split layout: plane lz holds two halves, colour 0 then colour 1, each L/2 sites per row in
// L rows: the site (x, y) of colour c in plane lz is element j = x / 2 of row y of half (lz, c); in that
// row x = 2 j + p with p = (c + y + z) mod 2. A spin is 3 doubles; a coupling record is 3 int8 (+-1)
// for the forward bonds +x, +y, +z of the site, stored in the same layout. So one colour of one plane
// is a contiguous block: the halo exchange sends exactly the L^2 / 2 spins the neighbour reads.
#ifndef GSHMEM_APPS_HSG_HSG_HPP
#define GSHMEM_APPS_HSG_HSG_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hsg {

struct Params {
  int L = 32;
  int sweeps = 10;       // iterations of the schedule (pure sweeps with --or-only / --hb-only)
  int n_or = 4;          // over-relaxation sweeps per heat-bath sweep
  double beta = 5.0;     // inverse temperature (units of |J|)
  uint64_t seed = 1;
  bool or_only = false;  // pure over-relaxation
  bool hb_only = false;  // pure heat bath
  bool check = false;    // bitwise comparison with a serial run on PE 0
  bool check_energy = false;  // over-relaxation conserves energy and |S| (implies or_only)
  bool check_high_t = false;  // <E/N> = -beta within 5% (implies hb_only)
  bool corrupt_ghost = false; // debug: corrupt one ghost plane once (check_energy must then fail)
  bool mpi = false;           // the MPI twin: halos by MPI_Isend / MPI_Irecv
};

enum Stream : uint64_t { kCoupling = 1, kInit = 2, kHeatBath = 3 };

/** One z-slab in the colour-split layout. */
struct Slab {
  int L = 0, nz = 0, z0 = 0;
  double *s = nullptr;         // (nz + 2) * L * L * 3 doubles; symmetric in the distributed run
  std::vector<int8_t> j;       // (nz + 2) * L * L * 3 couplings
  size_t half() const { return (size_t)L * L / 2; }              // sites of one colour in one plane
  size_t half_index(int lz, int c) const { return ((size_t)lz * 2 + c) * half(); }
  double *spins(int lz, int c) const { return s + 3 * half_index(lz, c); }
  /** Global z of local plane lz (0..nz+1), periodic. */
  int gz(int lz) const { return ((z0 + lz - 1) % L + L) % L; }
};

/** Fills couplings and initial spins of every plane (ghosts included) from the global hash. */
void init_slab(const Params &p, Slab &sl);

/** Updates the sites of colour c in plane lz (1..nz): heat bath at beta if hb, else over-relaxation.
 *  Reads the other colour of planes lz - 1..lz + 1; writes only colour c of plane lz. The random numbers
 *  are a pure function of (seed, global site, sweep), so the result does not depend on the slab split. */
void update_plane(const Params &p, Slab &sl, int lz, int c, bool hb, uint64_t sweep);

/** Observables of plane lz (1..nz): energy of the forward bonds of its sites, max | |S| - 1 |, and a
 *  64-bit hash of the bits of its spins in global site order. */
struct PlaneObs {
  double energy = 0, norm_dev = 0;
  uint64_t hash = 0;
};
PlaneObs plane_observables(const Slab &sl, int lz);

}  // namespace hsg

#endif  // GSHMEM_APPS_HSG_HSG_HPP
