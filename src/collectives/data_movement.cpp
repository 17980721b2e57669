// Data-movement collectives: broadcast, collect, fcollect, alltoall, alltoalls (team-based and active-set).
// Five kinds of algorithm, chosen per call by chooseMove (select.cpp):
//   - tree (broadcast and fcollect over members on more than one node, small blocks): tree.cpp.
//   - mailbox (one round): every block travels as one message into the receiver's mailbox (mailbox.hpp), whose
//     flag sits with the data; the receiver copies it into its own dest. No member waits for another to enter the
//     call, dest is written only by its owner, and no pSync word is touched, so back-to-back calls on one team or
//     active set need no synchronization between them.
//   - pull and push (larger blocks, every member mapped): notices through the mailboxes, each block copied once
//     from its owner's source into its reader's dest (pull.cpp).
//   - sync (sync -> move -> sync; members behind the remote transport, or forced): the first sync guarantees every
//     member has entered the call, so its dest may be written and its source read; the second guarantees every
//     transfer touching this PE's buffers is done before it returns. broadcast pulls from the root (each non-root
//     reads the root's source once); the others push their blocks into the peers' dest, starting with the next
//     member so that members do not all hammer the same peer at once.
#include <cstring>

#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"
#include "gshmem/c/collectives.h"

namespace gshmem::coll {

namespace {
char* at(void* p, std::size_t off) { return static_cast<char*>(p) + off; }
const char* at(const void* p, std::size_t off) { return static_cast<const char*>(p) + off; }

/// Mailbox broadcast: the root posts its source to every other member, which copies it into its dest.
void broadcastMailbox(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  if (g.me == root) {
    for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((root + k) % g.size), g.sig, source, bytes);
    if (write_root && dest != source) std::memmove(dest, source, bytes);
    return;
  }
  const int from = g.worldPe(root);
  std::memcpy(dest, mailbox::receive(g.call, from, g.sig), bytes);
  mailbox::release(g.call, from);
}

/// Mailbox fcollect / alltoall: member j's message to member i is the `bytes` at i * `stride` in j's source, and
/// lands in block j of i's dest (fcollect: stride 0, every member gets the same block; alltoall: stride bytes).
void exchangeMailbox(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride) {
  checkSymmetric(g, "dest", dest, bytes * g.size);
  for (int k = 1; k < g.size; ++k) {
    const int j = (g.me + k) % g.size;
    mailbox::send(g.call, g.worldPe(j), g.sig, at(source, j * stride), bytes);
  }
  std::memmove(at(dest, g.me * bytes), at(source, g.me * stride), bytes);
  for (int k = 1; k < g.size; ++k) {
    const int j = (g.me + g.size - k) % g.size;
    std::memcpy(at(dest, j * bytes), mailbox::receive(g.call, g.worldPe(j), g.sig), bytes);
    mailbox::release(g.call, g.worldPe(j));
  }
}

/// Mailbox collect: each member posts [its byte count][its block when count + 8 fits a message] to every other;
/// the counts give every member the same offsets. A block that did not fit: with every member mapped (pullUsable),
/// its readers copy it from the owner's source before releasing the owner's message, and the owner waits for
/// every release before it returns (the pull protocol, pull.cpp); otherwise (every member learns it from the
/// counts) the members synchronize, the owners put those blocks into every dest, and they synchronize.
void collectMailbox(const Group& g, void* dest, const void* source, std::size_t bytes) {
  const std::size_t cap = mailbox::capacity() - sizeof(uint64_t);
  const uint64_t mine = bytes;
  const bool pull = pullUsable(g);
  // dest is checked for each non-empty block as it lands: a member that contributes nothing may pass NULL buffers
  // when the others contribute nothing too.
  if (bytes) checkSymmetric(g, "dest", dest, bytes);
  for (int k = 1; k < g.size; ++k)
    mailbox::send(g.call, g.worldPe((g.me + k) % g.size), g.sig, &mine, sizeof mine, source,
                  bytes <= cap ? bytes : 0);
  std::size_t off = 0, my_off = 0;
  bool spill = false;
  for (int j = 0; j < g.size; ++j) {
    std::size_t n = bytes;
    if (j != g.me) {
      const int pe = g.worldPe(j);
      const char* m = mailbox::receive(g.call, pe, g.sig);
      uint64_t c;
      std::memcpy(&c, m, sizeof c);
      n = static_cast<std::size_t>(c);
      if (n) {  // an empty block touches neither dest nor the peer's source (either may be NULL)
        checkSymmetric(g, "dest", dest, off + n);
        if (n <= cap) std::memcpy(at(dest, off), m + sizeof c, n);
        else if (pull) copyBytes(at(dest, off), peerPtr(g.call, "source", source, n, pe), n);
      }
      mailbox::release(g.call, pe);
    } else {
      my_off = off;
    }
    spill |= n > cap;
    off += n;
  }
  if (bytes) std::memmove(at(dest, my_off), source, bytes);
  if (pull && bytes > cap)
    for (int k = 1; k < g.size; ++k) mailbox::waitReleased(g.call, g.worldPe((g.me + k) % g.size));
  if (!spill || pull) return;
  groupSync(g);  // every member has taken its messages: dest may be written
  if (bytes > cap)
    for (int k = 1; k < g.size; ++k)
      ops::put(g.call, ctxDefault(), at(dest, my_off), source, bytes, g.worldPe((g.me + k) % g.size));
  groupSync(g);
}

}  // namespace

void broadcastBytes(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkRoot(g, root);
  checkAgreement(g, bytes, static_cast<uint64_t>(root));
  if (bytes == 0) return;
  g.sig = sig::make(sig::kBroadcast, bytes / g.esize, g.esize);
  leadNextSync(g, root);
  const Algo algo = chooseMove(g, Family::kBroadcast, bytes);
  if (algo == Algo::kTree) return broadcastTree(g, dest, source, bytes, root, write_root);
  if (algo == Algo::kMailbox) return broadcastMailbox(g, dest, source, bytes, root, write_root);
  if (algo == Algo::kPull) return broadcastPull(g, dest, source, bytes, root, write_root);
  if (algo == Algo::kPush) return broadcastPush(g, dest, source, bytes, root, write_root);
  groupSync(g);
  if (g.me != root)
    ops::get(g.call, ctxDefault(), dest, source, bytes, g.worldPe(root));
  else if (write_root && dest != source)
    std::memmove(dest, source, bytes);
  groupSync(g);  // the root's source stays untouched until every member has read it
}

void fcollectBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  checkAgreement(g, bytes);
  if (bytes == 0) return;
  g.sig = sig::make(sig::kFcollect, bytes / g.esize, g.esize);
  const Algo algo = chooseMove(g, Family::kCollect, bytes);
  if (algo == Algo::kTree) return fcollectTree(g, dest, source, bytes);
  if (algo == Algo::kMailbox) return exchangeMailbox(g, dest, source, bytes, 0);
  if (algo == Algo::kPull) return exchangePull(g, dest, source, bytes, 0);
  if (algo == Algo::kPush) return exchangePush(g, dest, source, bytes, 0);
  groupSync(g);
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::put(g.call, ctxDefault(), at(dest, g.me * bytes), source, bytes, g.worldPe(j));
  }
  groupSync(g);
}

void collectBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  // Counts differ per member, so no member may skip the syncs even with nothing to send.
  checkAgreement(g, agree::kNotApplicable);  // the counts may differ
  g.sig = sig::make(sig::kCollect, sig::kNotCounted, g.esize);
  // The choice may not depend on this member's count: the mailbox form carries any count (see collectMailbox).
  if (g.size > 1 && chooseAlgo(Family::kCollect, 0) == Algo::kMailbox) return collectMailbox(g, dest, source, bytes);
  std::size_t off = exclusivePrefix(g, bytes);  // contains the first sync
  if (bytes)
    for (int k = 1; k <= g.size; ++k) {
      int j = (g.me + k) % g.size;
      ops::put(g.call, ctxDefault(), at(dest, off), source, bytes, g.worldPe(j));
    }
  groupSync(g);
}

void alltoallBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  checkAgreement(g, bytes);
  if (bytes == 0) return;
  g.sig = sig::make(sig::kAlltoall, bytes / g.esize, g.esize);
  const Algo algo = chooseMove(g, Family::kAlltoall, bytes);
  if (algo == Algo::kMailbox) return exchangeMailbox(g, dest, source, bytes, bytes);
  if (algo == Algo::kPull) return exchangePull(g, dest, source, bytes, bytes);
  if (algo == Algo::kPush) return exchangePush(g, dest, source, bytes, bytes);
  groupSync(g);
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::put(g.call, ctxDefault(), at(dest, g.me * bytes), at(source, j * bytes), bytes, g.worldPe(j));
  }
  groupSync(g);
}

void alltoallsBytes(const Group& g, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                    std::size_t nelems, std::size_t esize) {
  checkAgreement(g, nelems * esize);
  if (nelems == 0) return;
  if (GSHMEM_UNLIKELY(dst < 1 || sst < 1)) fatal(g.call, "strides dst %td and sst %td must be at least 1", dst, sst);
  groupSync(g);
  const std::size_t dblock = nelems * static_cast<std::size_t>(dst) * esize;
  const std::size_t sblock = nelems * static_cast<std::size_t>(sst) * esize;
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::iput(g.call, ctxDefault(), at(dest, g.me * dblock), at(source, j * sblock), dst, sst, nelems, esize,
              g.worldPe(j));
  }
  groupSync(g);
}

}  // namespace gshmem::coll
