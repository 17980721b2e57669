// gshmem-info -b: how this gshmem was built (values recorded at configure time, see build_info.h.in).
#define OMPI_SKIP_MPICXX 1  // the C API only: MPI's C++ bindings are not linked
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gshmem/version.h"
#include "gshmem_info_build.h"
#include "info.hpp"

namespace gshmem_info {
namespace {

const char* orUnknown(const char* s) { return s && *s ? s : "unknown"; }

/// The prefix this gshmem-info runs from: the directory above the one holding the executable.
std::string runningPrefix() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "unknown";
  std::string exe(buf, static_cast<size_t>(n));
  std::string dir = exe.substr(0, exe.find_last_of('/'));
  return dir.substr(0, dir.find_last_of('/'));
}

/// MPI_Get_library_version may be called before MPI_Init; the first line is enough.
std::string mpiRuntimeVersion() {
  char v[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0;
  if (MPI_Get_library_version(v, &len) != MPI_SUCCESS) return "unknown";
  std::string s(v, static_cast<size_t>(len));
  size_t cut = s.find_first_of(",\n");
  return cut == std::string::npos ? s : s.substr(0, cut);
}

}  // namespace

void printBuild() {
  std::printf("# gshmem version:     %s\n", GSHMEM_VERSION_STRING);
  std::printf("# git revision:       %s\n", orUnknown(GSHMEM_INFO_GIT_REVISION));
  std::printf("# configured prefix:  %s\n", GSHMEM_INFO_PREFIX);
  std::printf("# running from:       %s\n", runningPrefix().c_str());
  std::printf("# build type:         %s\n", orUnknown(GSHMEM_INFO_BUILD_TYPE));
  std::printf("# compiler:           %s\n", GSHMEM_INFO_COMPILER);
  std::printf("# MPI (built with):   %s\n", orUnknown(GSHMEM_INFO_MPI));
  std::printf("# MPI (loaded):       %s\n", mpiRuntimeVersion().c_str());
  std::printf("# UCX:                %s\n", GSHMEM_HAVE_UCX ? orUnknown(GSHMEM_INFO_UCX) : "not built in");
  std::printf("# hwloc:              %s\n", GSHMEM_HAVE_HWLOC ? orUnknown(GSHMEM_INFO_HWLOC) : "not built in");
  std::printf("# CUDA:               %s\n", GSHMEM_HAVE_CUDA ? orUnknown(GSHMEM_INFO_CUDA) : "not built in");
  std::printf("# transports:         %s\n", GSHMEM_INFO_TRANSPORTS);
  std::printf("# memory kinds:       %s\n", GSHMEM_INFO_MEMORY_KINDS);
}

}  // namespace gshmem_info
