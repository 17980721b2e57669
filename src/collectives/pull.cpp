// Pull collectives (broadcast, fcollect, alltoall past the mailbox crossover): one round of notices through the
// collective mailboxes, the data read in place from its owner's source through the mapped heap.
//
// Protocol. A member entering the call posts an empty mailbox message, "my source is ready", to every member that
// reads from it. A reader waits for that notice, copies its block straight from the owner's source into its own
// dest, and releases the message, "done with your source". Before it returns, an owner waits until every reader
// has released its notice, so the caller may change source once the call is over.
//
// Contract. Every block is copied once, by the member whose dest it lands in; dest is written only by its owner,
// and no pSync word is touched. So no member waits for another to enter the call except where it needs that
// member's data, no barrier runs before or after, and back-to-back calls on one team or active set need nothing
// between them (the notices follow the mailbox's per-pair order, mailbox.hpp). Requires every member's heap to be
// mapped here and the mailbox to be usable (pullUsable); callers fall back to the synchronized algorithms
// otherwise.
#include <cstring>

#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"

namespace gshmem::coll {

namespace {
char* at(void* p, std::size_t off) { return static_cast<char*>(p) + off; }
const char* at(const void* p, std::size_t off) { return static_cast<const char*>(p) + off; }
}  // namespace

bool pullUsable(const Group& g) { return mailbox::usable() && !anyUnmapped(g.start, g.stride, g.size); }

void broadcastPull(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  if (g.me == root) {
    for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((root + k) % g.size), nullptr, 0);
    if (write_root && dest != source) std::memmove(dest, source, bytes);
    for (int k = 1; k < g.size; ++k) mailbox::waitReleased(g.call, g.worldPe((root + k) % g.size));
    return;
  }
  const int from = g.worldPe(root);
  mailbox::receive(g.call, from);
  copyBytes(dest, peerPtr(g.call, "source", source, bytes, from), bytes);
  mailbox::release(g.call, from);
}

void exchangePull(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride) {
  checkSymmetric(g, "dest", dest, bytes * g.size);
  checkSymmetric(g, "source", source, stride ? stride * g.size : bytes);
  for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((g.me + k) % g.size), nullptr, 0);
  std::memmove(at(dest, g.me * bytes), at(source, g.me * stride), bytes);
  // Member me reads from me-1, me-2, ...: at each step the members read from distinct owners.
  for (int k = 1; k < g.size; ++k) {
    const int j = (g.me + g.size - k) % g.size;
    const int pe = g.worldPe(j);
    mailbox::receive(g.call, pe);
    copyBytes(at(dest, j * bytes), peerPtr(g.call, "source", at(source, g.me * stride), bytes, pe), bytes);
    mailbox::release(g.call, pe);
  }
  for (int k = 1; k < g.size; ++k) mailbox::waitReleased(g.call, g.worldPe((g.me + k) % g.size));
}

}  // namespace gshmem::coll
