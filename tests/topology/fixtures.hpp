// The hwloc XML fixtures of tests/topology/fixtures, for every test that loads a saved topology.
#pragma once
#include <gshmem/version.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "base/topology/topology.hpp"

namespace gshmem {

/// Path of fixture @p name: in GSHMEM_TOPO_FIXTURE_DIR when the build defines it, else next to this header.
inline std::string topologyFixture(const char* name) {
#ifdef GSHMEM_TOPO_FIXTURE_DIR
  std::string dir = GSHMEM_TOPO_FIXTURE_DIR;
#else
  std::string dir = __FILE__;
  dir = dir.substr(0, dir.find_last_of('/') + 1) + "fixtures";
#endif
  return dir + "/" + name;
}

/// Load fixture @p name into *t (with @p nvlinks injected as CUDA would report them); topologyLoad's status.
inline Status loadFixture(const char* name, Topology* t, std::vector<NvLinkPair> nvlinks = {}) {
  TopologySource src;
  src.xmlPath = topologyFixture(name);
  src.nvlinks = std::move(nvlinks);
  return topologyLoad(src, t);
}

}  // namespace gshmem

/// The fixtures need hwloc's XML import: without hwloc a test that loads one is skipped.
#define SKIP_WITHOUT_HWLOC() \
  if (!GSHMEM_HAVE_HWLOC) GTEST_SKIP() << "built without hwloc"
