// Shared-memory segments after shmem_init: every gshmem memfd mapped here (this PE's and the peers' it received)
// is mode 0600, the PEs of the node are mapped, and no memfd descriptor or gshmem Unix socket is left open.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

struct Mapping {
  std::string range;  ///< "start-end", as /proc/self/map_files names it
  unsigned long inode;
  std::string path;   ///< "/memfd:gshmem-heap (deleted)"
};

/// The mappings of gshmem memfds in this process.
std::vector<Mapping> gshmemMappings() {
  std::vector<Mapping> out;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream in(line);
    Mapping m;
    std::string perms, offset, dev;
    in >> m.range >> perms >> offset >> dev >> m.inode;
    std::getline(in >> std::ws, m.path);
    if (m.path.rfind("/memfd:gshmem-", 0) == 0) out.push_back(m);
  }
  return out;
}

/// Where each descriptor of this process points (readlink of /proc/self/fd/N).
std::vector<std::string> openDescriptors() {
  std::vector<std::string> out;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    char link[512];
    ssize_t n = readlinkat(dirfd(d), e->d_name, link, sizeof link - 1);
    if (n > 0) out.emplace_back(link, static_cast<std::size_t>(n));
  }
  closedir(d);
  return out;
}

/// Inodes of the Unix sockets of this network namespace bound to a gshmem name ("@gshmem-...").
std::set<std::string> gshmemSocketInodes() {
  std::set<std::string> out;
  std::ifstream unix_sockets("/proc/net/unix");
  std::string line;
  std::getline(unix_sockets, line);  // header
  while (std::getline(unix_sockets, line)) {
    std::istringstream in(line);
    std::string num, refs, proto, flags, type, state, inode, path;
    in >> num >> refs >> proto >> flags >> type >> state >> inode >> path;
    if (path.rfind("@gshmem-", 0) == 0) out.insert("socket:[" + inode + "]");
  }
  return out;
}

class Segments : public PeTest {};

TEST_F(Segments, EveryMappedMemfdIsMode0600) {
  std::vector<Mapping> maps = gshmemMappings();
  ASSERT_FALSE(maps.empty()) << "no gshmem memfd is mapped";
  int checked = 0;
  for (const Mapping& m : maps) {
    struct stat st;
    std::string file = "/proc/self/map_files/" + m.range;
    if (stat(file.c_str(), &st) != 0) {
      if (errno == EPERM || errno == EACCES) GTEST_SKIP() << "cannot stat " << file << ": " << strerror(errno);
      ADD_FAILURE() << "stat " << file << ": " << strerror(errno);
      continue;
    }
    EXPECT_EQ(st.st_mode & 07777, 0600u) << m.path << " mapped at " << m.range;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST_F(Segments, TheHeapOfEveryPeOfTheNodeIsMapped) {
  long* probe = static_cast<long*>(shmem_malloc(sizeof(long)));
  ASSERT_NE(probe, nullptr);
  int reachable = 0;  // PEs whose heap is mapped here, this PE included
  for (int pe = 0; pe < npes_; ++pe) reachable += shmem_ptr(probe, pe) != nullptr;
  std::set<unsigned long> heaps;
  for (const Mapping& m : gshmemMappings())
    if (m.path.rfind("/memfd:gshmem-heap", 0) == 0) heaps.insert(m.inode);
  EXPECT_EQ(static_cast<int>(heaps.size()), reachable);  // one memfd per mapped PE, received from its owner
  EXPECT_GE(reachable, 1);
  // and the mapping carries data: each PE writes its number into the right neighbour's word through it
  *probe = -1;
  shmem_barrier_all();
  if (long* peer = static_cast<long*>(shmem_ptr(probe, right()))) *peer = me_;
  else shmem_long_p(probe, me_, right());
  shmem_barrier_all();
  EXPECT_EQ(*probe, left());
  shmem_free(probe);
}

TEST_F(Segments, NoMemfdDescriptorOrGshmemSocketIsLeftOpen) {
  const std::set<std::string> sockets = gshmemSocketInodes();  // of every job in this network namespace
  for (const std::string& link : openDescriptors()) {
    EXPECT_NE(link.rfind("/memfd:gshmem-", 0), 0u) << "descriptor left open: " << link;
    EXPECT_EQ(sockets.count(link), 0u) << "gshmem Unix socket left open: " << link;
  }
}

}  // namespace
}  // namespace gshmem_test
