// Node-aware tree collectives for groups whose members live on more than one node (contract in coll.hpp).
//
// Every member computes the same node layout from g_rt.node_of (the launcher's placement): the group's nodes are
// numbered 0..K-1 in the order of their lowest member, and each node's leader is its lowest member (for a
// broadcast, the root leads its own node). All traffic is mailbox messages (mailbox.hpp), so no member waits for
// another to enter the call and no synchronization is needed; a member sends any one peer at most one message per
// call, so the per-pair order the mailbox contract asks for is the program order of the call.
//
// Reduce: every member posts its source to its node's leader, which combines its node in member order; the leaders
// run recursive doubling over the node numbers (with K not a power of two, leader i >= P, P the largest power of two
// <= K, first folds into leader i - P and gets the result back at the end); each leader posts the result to its node.
// In every combining step the partial of the lower numbers is the left operand on both sides of a pair, so both
// partners hold the same bits after it, and every member ends with the bits of the last step: the result is bitwise
// the same on every member, floating point included (the order differs from the one-node algorithms' member order,
// which is allowed: those run only when the whole group is on one node).
//
// Fcollect: every member posts its block to its node's leader; each leader posts its node's blocks, as one message,
// to every other leader (one round between nodes, K - 1 messages per leader), assembles the whole result in its
// dest and stores it into each node member's dest with a notice (mailbox::sendData). A member's dest is written only
// after its block reached the leader, so the member has entered the call.
//
// Broadcast: a k-nomial tree of radix kRadix over the node leaders rooted at the root's node (ranks taken relative
// to it; up to kRadix nodes the root posts to every leader), larger subtrees served first; each leader then posts
// the block to the other members of its node.
#include <algorithm>
#include <cstring>
#include <vector>

#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"

namespace gshmem::coll {

namespace {

constexpr int kFlatLeaders = kTreeFlatLeaders;
constexpr int kRadix = kTreeRadix;

/// Where the members of one group live.
struct Layout {
  int start = -1, stride = 0, size = 0;  ///< the group it describes
  int nodes = 0;                          ///< K: distinct nodes among the members
  std::vector<int> node;                  ///< per member: its node number, 0..K-1
  std::vector<int> leader;                ///< per node number: its lowest member
  std::vector<int> members;               ///< members ordered by node, then member number
  std::vector<int> first;                 ///< per node number: its first index in `members` (K + 1 entries)
};

void build(Layout& l, const Group& g) {
  l.start = g.start, l.stride = g.stride, l.size = g.size;
  l.node.assign(g.size, -1);
  l.leader.clear();
  std::vector<int> number_of;  // by node_of value: its node number here, or -1
  for (int m = 0; m < g.size; ++m) {
    const int n = g_rt.node_of[g.worldPe(m)];
    if (n >= static_cast<int>(number_of.size())) number_of.resize(n + 1, -1);
    if (number_of[n] < 0) {
      number_of[n] = static_cast<int>(l.leader.size());
      l.leader.push_back(m);
    }
    l.node[m] = number_of[n];
  }
  l.nodes = static_cast<int>(l.leader.size());
  l.first.assign(l.nodes + 1, 0);
  for (int m = 0; m < g.size; ++m) ++l.first[l.node[m] + 1];
  for (int k = 0; k < l.nodes; ++k) l.first[k + 1] += l.first[k];
  l.members.assign(g.size, -1);
  std::vector<int> fill(l.first.begin(), l.first.end() - 1);
  for (int m = 0; m < g.size; ++m) l.members[fill[l.node[m]]++] = m;
}

/// The layout of `g`, from a small cache of the last groups seen (the tree algorithms run on one thread at a time:
/// mailbox::usable), so a run of calls over a few teams builds each once.
const Layout& layoutOf(const Group& g) {
  constexpr int kEntries = 4;
  static Layout cache[kEntries];
  static int next = 0;
  for (Layout& l : cache)
    if (l.start == g.start && l.stride == g.stride && l.size == g.size) return l;
  Layout& l = cache[next];
  next = (next + 1) % kEntries;
  build(l, g);
  return l;
}

/// Members of node `k` other than `skip`, in member order.
template <typename F> void forMates(const Layout& l, int k, int skip, F&& f) {
  for (int i = l.first[k]; i < l.first[k + 1]; ++i)
    if (l.members[i] != skip) f(l.members[i]);
}

/// The next message from member `m` (valid until done(g, m)), and a message to member `m`.
const char* take(const Group& g, int m) { return mailbox::receive(g.call, g.worldPe(m), g.sig); }
void done(const Group& g, int m) { mailbox::release(g.call, g.worldPe(m)); }
void post(const Group& g, int m, const void* p, std::size_t bytes) {
  mailbox::send(g.call, g.worldPe(m), g.sig, p, bytes);
}

/// Up to kFlatLeaders leaders: each posts its partial to every other and combines all K in node order 0..K-1 (one
/// round between nodes instead of log2 K; every leader combines the same bits in the same order). Returns the
/// buffer holding the result.
unsigned char* leadersAllreduceFlat(const Group& g, const Layout& l, unsigned char* acc, unsigned char* out,
                                    std::size_t bytes, std::size_t nelems, CombineFn combine) {
  const int K = l.nodes, i = l.node[g.me];
  for (int d = 1; d < K; ++d) post(g, l.leader[(i + d) % K], acc, bytes);
  for (int n = 0; n < K; ++n) {
    const void* p = n == i ? static_cast<const void*>(acc) : take(g, l.leader[n]);
    if (n == 0) std::memcpy(out, p, bytes);
    else combine(out, p, nelems);
    if (n != i) done(g, l.leader[n]);
  }
  return out;
}

/// Recursive doubling over the leaders; `acc` holds this leader's node partial, `spare` is a scratch buffer of
/// the same size. Returns the buffer holding the result (acc or spare).
unsigned char* leadersAllreduce(const Group& g, const Layout& l, unsigned char* acc, unsigned char* spare,
                                std::size_t bytes, std::size_t nelems, CombineFn combine) {
  const int K = l.nodes, i = l.node[g.me];
  int P = 1;
  while (P * 2 <= K) P *= 2;
  if (i >= P) {  // fold into i - P, get the result back
    const int low = l.leader[i - P];
    post(g, low, acc, bytes);
    std::memcpy(acc, take(g, low), bytes);
    done(g, low);
    return acc;
  }
  if (i + P < K) {
    const int high = l.leader[i + P];
    combine(acc, take(g, high), nelems);
    done(g, high);
  }
  for (int d = 1; d < P; d *= 2) {
    const int j = i ^ d, peer = l.leader[j];
    post(g, peer, acc, bytes);
    const char* theirs = take(g, peer);
    if (j > i) {
      combine(acc, theirs, nelems);
    } else {  // theirs is the left operand
      std::memcpy(spare, theirs, bytes);
      combine(spare, acc, nelems);
      std::swap(acc, spare);
    }
    done(g, peer);
  }
  if (i + P < K) post(g, l.leader[i + P], acc, bytes);
  return acc;
}

}  // namespace

bool spansNodes(const Group& g) {
  static const bool world_spans = [] {  // a job on one node answers without a layout
    for (int n : g_rt.node_of)
      if (n != g_rt.node_of[0]) return true;
    return false;
  }();
  return world_spans && g.size > 1 && layoutOf(g).nodes > 1;
}

void reduceTree(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t nelems,
                CombineFn combine) {
  if (GSHMEM_UNLIKELY(bytes > kTreeMaxBytes || bytes > mailbox::capacity()))
    fatal(g.call, "a tree reduction of %zu bytes", bytes);
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  const Layout& l = layoutOf(g);
  const int k = l.node[g.me], leader = l.leader[k];
  if (g.me != leader) {
    post(g, leader, source, bytes);
    std::memcpy(dest, take(g, leader), bytes);
    done(g, leader);
    return;
  }
  alignas(64) unsigned char buf0[kTreeMaxBytes];
  alignas(64) unsigned char buf1[kTreeMaxBytes];
  bool first = true;
  for (int i = l.first[k]; i < l.first[k + 1]; ++i) {  // this node, in member order
    const int m = l.members[i];
    const void* p = m == g.me ? source : take(g, m);
    if (first) std::memcpy(buf0, p, bytes);
    else combine(buf0, p, nelems);
    first = false;
    if (m != g.me) done(g, m);
  }
  const unsigned char* result = buf0;
  if (l.nodes > kFlatLeaders) result = leadersAllreduce(g, l, buf0, buf1, bytes, nelems, combine);
  else if (l.nodes > 1) result = leadersAllreduceFlat(g, l, buf0, buf1, bytes, nelems, combine);
  forMates(l, k, g.me, [&](int m) { post(g, m, result, bytes); });
  std::memcpy(dest, result, bytes);
}

void broadcastTree(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  if (GSHMEM_UNLIKELY(bytes > mailbox::capacity())) fatal(g.call, "a tree broadcast of %zu bytes", bytes);
  const Layout& l = layoutOf(g);
  const int K = l.nodes, k = l.node[g.me], root_node = l.node[root];
  const int leader = k == root_node ? root : l.leader[k];
  auto leaderOf = [&](int r) {  // the leader of the node at rank r relative to the root's node
    const int n = (r + root_node) % K;
    return n == root_node ? root : l.leader[n];
  };
  const void* block = source;
  if (g.me != leader) {
    std::memcpy(dest, take(g, leader), bytes);
    done(g, leader);
    return;
  }
  const int r = (k - root_node + K) % K;
  int span = 1;  // the place of r's lowest non-zero digit in base kRadix (the root: past K)
  while (span < K && (r / span) % kRadix == 0) span *= kRadix;
  if (g.me != root) {  // receive from the parent: r with that digit cleared
    const int parent = leaderOf(r - (r / span) % kRadix * span);
    std::memcpy(dest, take(g, parent), bytes);
    done(g, parent);
    block = dest;
  }
  for (int s = span / kRadix; s >= 1; s /= kRadix)  // larger subtrees first
    for (int j = 1; j < kRadix && r + j * s < K; ++j) post(g, leaderOf(r + j * s), block, bytes);
  forMates(l, k, g.me, [&](int m) { post(g, m, block, bytes); });
  if (g.me == root && write_root && dest != source) std::memmove(dest, source, bytes);
}

std::size_t treeBundleBytes(const Group& g, std::size_t bytes) {
  const Layout& l = layoutOf(g);
  int most = 0;
  for (int k = 0; k < l.nodes; ++k) most = std::max(most, l.first[k + 1] - l.first[k]);
  return bytes * static_cast<std::size_t>(most);
}

void fcollectTree(const Group& g, void* dest, const void* source, std::size_t bytes) {
  checkSymmetric(g, "dest", dest, bytes * g.size);
  checkSymmetric(g, "source", source, bytes);
  if (GSHMEM_UNLIKELY(treeBundleBytes(g, bytes) > std::min(mailbox::capacity(), kTreeMaxBytes)))
    fatal(g.call, "a tree fcollect of %zu bytes per member", bytes);
  const Layout& l = layoutOf(g);
  const int k = l.node[g.me], leader = l.leader[k];
  char* out = static_cast<char*>(dest);
  if (g.me != leader) {  // the leader stores the whole result into our dest once it has our block
    post(g, leader, source, bytes);
    take(g, leader);
    done(g, leader);
    return;
  }
  alignas(64) unsigned char bundle[kTreeMaxBytes];  // this node's blocks, in `members` order
  for (int i = l.first[k]; i < l.first[k + 1]; ++i) {
    const int m = l.members[i];
    const void* p = m == g.me ? source : take(g, m);
    std::memcpy(bundle + (i - l.first[k]) * bytes, p, bytes);
    if (m != g.me) done(g, m);
  }
  const std::size_t mine = (l.first[k + 1] - l.first[k]) * bytes;
  for (int d = 1; d < l.nodes; ++d) post(g, l.leader[(k + d) % l.nodes], bundle, mine);
  for (int d = 0; d < l.nodes; ++d) {  // every node's blocks into dest, ours included
    const int n = (k + l.nodes - d) % l.nodes;
    const char* p = d == 0 ? reinterpret_cast<const char*>(bundle) : take(g, l.leader[n]);
    for (int i = l.first[n]; i < l.first[n + 1]; ++i)
      std::memcpy(out + l.members[i] * bytes, p + (i - l.first[n]) * bytes, bytes);
    if (d) done(g, l.leader[n]);
  }
  forMates(l, k, g.me,
           [&](int m) { mailbox::sendData(g.call, g.worldPe(m), g.sig, dest, dest, bytes * g.size); });
}

}  // namespace gshmem::coll
