// Pull and push collectives (broadcast, fcollect, alltoall past the mailbox crossover): notices through the
// collective mailboxes, each block copied once through the mapped heap.
//
// Pull (broadcast, fcollect, alltoall):
// Protocol. A member entering the call posts an empty mailbox message, "my source is ready", to every member that
// reads from it. A reader waits for that notice, copies its block straight from the owner's source into its own
// dest, and releases the message, "done with your source". Before it returns, an owner waits until every reader
// has released its notice, so the caller may change source once the call is over.
//
// Push (every block stored by its owner into the reader's dest, then "your block is in" posted; a member returns
// when every block for it is in). Active sets: the specification makes the caller guarantee that every member's
// dest is ready before any member calls, so the owner stores at once and no member waits for another to enter
// (broadcast: the root stores into the dest of every member of its node and of one leader per other node, and
// each leader, once its block is in, into the dests of its node's other members: one transfer per remote node). Teams: the library answers for readiness, so a member entering
// the call first posts "my dest is ready" to every other member and the owners store on that notice (fcollect,
// alltoall; team broadcast pulls). The two notices of a team call on one channel arrive in that order (the
// mailbox's per-pair order). A block for a peer behind the remote transport and its notice travel as one
// put-with-signal (mailbox::sendData), so push also serves members on other nodes.
//
// Contract. Every block is copied once: by its reader (pull) or by its owner (push). dest is written only by its
// owner (pull) or once its owner has entered the call or, on an active set, by the caller's guarantee (push); no
// pSync word is touched and no barrier runs before or after. A member waits only for the members whose data or
// readiness it needs, and back-to-back calls on one team need nothing between them (the notices follow the
// mailbox's per-pair order, mailbox.hpp); back-to-back calls on one active set need what the specification asks
// (every dest ready before any member calls). Pull requires every member's heap to be mapped here (pullUsable), push
// only a usable mailbox (pushUsable); callers fall back to the synchronized algorithms otherwise.
#include <cstring>
#include <vector>

#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"

namespace gshmem::coll {

namespace {
char* at(void* p, std::size_t off) { return static_cast<char*>(p) + off; }
const char* at(const void* p, std::size_t off) { return static_cast<const char*>(p) + off; }

/// Take the next message of every member but me, in whatever order they arrive (a member descheduled on an
/// oversubscribed node does not hold up the others): take(j) runs once per member j, after its message has arrived;
/// take receives and releases it. Members are tried from me-1 downwards, so at each step members look at distinct
/// peers.
template <typename F>
void takeEach(const Group& g, F&& take) {
  constexpr int kMaxBatch = 64;  // members tracked per pass; larger groups go in batches of this many
  for (int base = 1; base < g.size; base += kMaxBatch) {
    int left[kMaxBatch], n = 0;
    for (int k = base; k < g.size && n < kMaxBatch; ++k) left[n++] = (g.me + g.size - k) % g.size;
    while (n > 0) {
      int i = 0;
      waitFor([&] {
        for (i = 0; i < n; ++i)
          if (mailbox::arrived(g.worldPe(left[i]))) return true;
        return false;
      }, g.call);
      take(left[i]);
      left[i] = left[--n];
    }
  }
}

}  // namespace

bool pullUsable(const Group& g) { return mailbox::usable() && !anyUnmapped(g.start, g.stride, g.size); }

bool pushUsable() { return mailbox::usable(); }

void broadcastPull(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  if (g.me == root) {
    for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((root + k) % g.size), g.sig, nullptr, 0);
    if (write_root && dest != source) std::memmove(dest, source, bytes);
    for (int k = 1; k < g.size; ++k) mailbox::waitReleased(g.call, g.worldPe((root + k) % g.size));
    return;
  }
  const int from = g.worldPe(root);
  mailbox::receive(g.call, from, g.sig);
  copyBytes(dest, peerPtr(g.call, "source", source, bytes, from), bytes);
  mailbox::release(g.call, from);
}

void exchangePull(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride) {
  checkSymmetric(g, "dest", dest, bytes * g.size);
  checkSymmetric(g, "source", source, stride ? stride * g.size : bytes);
  for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((g.me + k) % g.size), g.sig, nullptr, 0);
  std::memmove(at(dest, g.me * bytes), at(source, g.me * stride), bytes);
  takeEach(g, [&](int j) {
    const int pe = g.worldPe(j);
    mailbox::receive(g.call, pe, g.sig);
    copyBytes(at(dest, j * bytes), peerPtr(g.call, "source", at(source, g.me * stride), bytes, pe), bytes);
    mailbox::release(g.call, pe);
  });
  for (int k = 1; k < g.size; ++k) mailbox::waitReleased(g.call, g.worldPe((g.me + k) % g.size));
}

namespace {

bool sameNode(const Group& g, int a, int b) { return g_rt.node_of[g.worldPe(a)] == g_rt.node_of[g.worldPe(b)]; }

/// Who stores the root's block into each member's dest in a push broadcast: the root for the members of its node
/// and for one leader per other node (its lowest-numbered member), the leader for the rest of its node. Every member
/// computes the same answer (node_of is the launcher's placement). Kept for the last group and root, so a run of
/// calls over one active set computes it once (push runs on one thread: mailbox::usable).
const std::vector<int>& pushParents(const Group& g, int root) {
  static struct {
    int start = -1, stride = 0, size = 0, root = -1;
    std::vector<int> parent;
  } c;
  if (c.start == g.start && c.stride == g.stride && c.size == g.size && c.root == root) return c.parent;
  c.start = g.start, c.stride = g.stride, c.size = g.size, c.root = root;
  c.parent.assign(g.size, root);
  std::vector<int> leader_of_node;  // by node_of value: the first member seen there
  for (int m = 0; m < g.size; ++m) {
    if (sameNode(g, m, root)) continue;
    const int node = g_rt.node_of[g.worldPe(m)];
    if (node >= static_cast<int>(leader_of_node.size())) leader_of_node.resize(node + 1, -1);
    if (leader_of_node[node] < 0) leader_of_node[node] = m;
    else c.parent[m] = leader_of_node[node];
  }
  return c.parent;
}

}  // namespace

void broadcastPush(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  const std::vector<int>& parent = pushParents(g, root);
  if (g.me != root) {
    mailbox::receive(g.call, g.worldPe(parent[g.me]), g.sig);
    mailbox::release(g.call, g.worldPe(parent[g.me]));
    source = dest;  // a leader forwards the block it now holds
  }
  // Members this one serves: other nodes' leaders first (their transfer crosses the network, so it starts first),
  // then its own node's members.
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 1; k < g.size; ++k) {
      const int j = (g.me + k) % g.size;
      if (j != root && parent[j] == g.me && sameNode(g, j, g.me) == (pass == 1))
        mailbox::sendData(g.call, g.worldPe(j), g.sig, dest, source, bytes);
    }
  if (g.me == root && write_root && dest != source) std::memmove(dest, source, bytes);
}

void exchangePush(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride) {
  checkSymmetric(g, "dest", dest, bytes * g.size);
  checkSymmetric(g, "source", source, stride ? stride * g.size : bytes);
  auto put = [&](int j) {
    mailbox::sendData(g.call, g.worldPe(j), g.sig, at(dest, g.me * bytes), at(source, j * stride), bytes);
  };
  if (g.team) {  // the library answers for dest readiness: wait for each member's "my dest is ready"
    for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((g.me + k) % g.size), g.sig, nullptr, 0);
    std::memmove(at(dest, g.me * bytes), at(source, g.me * stride), bytes);
    takeEach(g, [&](int j) {
      mailbox::receive(g.call, g.worldPe(j), g.sig);
      mailbox::release(g.call, g.worldPe(j));
      put(j);
    });
  } else {  // active set: the caller guarantees every dest is ready; member me writes to me+1, me+2, ...
    for (int k = 1; k < g.size; ++k) put((g.me + k) % g.size);
    std::memmove(at(dest, g.me * bytes), at(source, g.me * stride), bytes);
  }
  takeEach(g, [&](int j) {
    mailbox::receive(g.call, g.worldPe(j), g.sig);
    mailbox::release(g.call, g.worldPe(j));
  });
}

}  // namespace gshmem::coll
