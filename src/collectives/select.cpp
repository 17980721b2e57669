// Algorithm choice of the collectives (contract in coll.hpp). GSHMEM_COLL_<FAMILY> forces one; auto takes the
// node-aware trees (tree.cpp) for small reduce, broadcast and fcollect blocks of groups spanning nodes, else the
// mailbox for small blocks, as it costs one round with the flag in the destination's memory, and past each family's
// crossover the one-copy algorithms (pull.cpp): on teams pull (autoMailboxMax; push for fcollect and alltoall when
// some member is remote, sync for broadcast), on active sets push (activeSetMailboxMax).
#include <algorithm>
#include <cstdio>

#include "base/config.hpp"
#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"

namespace gshmem::coll {

namespace {

constexpr std::size_t kDirectMaxBytes = 4096;  ///< reduce: direct below, reduce-scatter above

const std::string& forcedName(Family f) {
  const Params& p = params();
  switch (f) {
    case Family::kBroadcast: return p.COLL_BROADCAST;
    case Family::kCollect: return p.COLL_COLLECT;
    case Family::kAlltoall: return p.COLL_ALLTOALL;
    case Family::kReduce: return p.COLL_REDUCE;
  }
  return p.COLL_REDUCE;
}

Algo fallback(Family f, std::size_t bytes) {
  if (f != Family::kReduce) return mailbox::usable() ? Algo::kPull : Algo::kSync;
  return bytes <= kDirectMaxBytes ? Algo::kDirect : Algo::kScatter;
}

Algo fromName(const std::string& s) {
  if (s == "mailbox") return Algo::kMailbox;
  if (s == "direct") return Algo::kDirect;
  if (s == "scatter") return Algo::kScatter;
  if (s == "pull") return Algo::kPull;
  if (s == "push") return Algo::kPush;
  if (s == "tree") return Algo::kTree;
  return Algo::kSync;
}

/// GSHMEM_COLL_<FAMILY> of one family, decided once: auto, or the algorithm it forces. The parameters are fixed
/// from init on, so a call compares no strings.
struct Forced {
  bool automatic = true;
  Algo algo = Algo::kSync;  ///< when not automatic
  bool is(Algo a) const { return !automatic && algo == a; }
};
const Forced& forced(Family f) {
  static const Forced* table = [] {
    static Forced t[4];
    for (Family g : {Family::kBroadcast, Family::kCollect, Family::kAlltoall, Family::kReduce}) {
      const std::string& s = forcedName(g);
      t[static_cast<int>(g)] = Forced{s == "auto", fromName(s)};
    }
    return t;
  }();
  return table[static_cast<int>(f)];
}

/// Where auto stops taking the mailbox. Past it the synchronized algorithms win on the reference machine (2 PEs,
/// one node): the mailbox copies each block twice (into the slot, out of it), they copy it once, so their fixed
/// cost of two synchronizations is repaid from about these sizes on. With more PEs than cores a synchronization
/// waits for descheduled PEs and costs far more than a copy: then the mailbox carries all it can.
std::size_t autoMailboxMax(Family f) {
  if (params().COLL_MAILBOX_MAX) return params().COLL_MAILBOX_MAX;
  if (g_rt.oversubscribed) return mailbox::capacity();
  switch (f) {
    case Family::kBroadcast: return 2048;
    case Family::kCollect: return 1024;
    case Family::kAlltoall: return 512;
    case Family::kReduce: return 512;
  }
  return 512;
}

/// Active sets: where auto stops taking the mailbox for the push (pull.cpp), which stores
/// each block once into its dest and waits for no member to enter. Measured on the reference machine (2 PEs one per
/// core, and 4 PEs on 2 cores): push is as fast from these sizes on, and faster past them at both PE counts.
std::size_t activeSetMailboxMax(Family f) {
  if (params().COLL_MAILBOX_MAX) return params().COLL_MAILBOX_MAX;
  return f == Family::kAlltoall ? 64 : 256;
}

}  // namespace

Algo chooseAlgo(Family family, std::size_t bytes) {
  const Forced& want = forced(family);
  const bool fits = mailbox::usable() && bytes <= mailbox::capacity();
  if (want.automatic) return fits && bytes <= autoMailboxMax(family) ? Algo::kMailbox : fallback(family, bytes);
  const Algo a = want.algo;
  if (a == Algo::kTree) return fits ? a : fallback(family, bytes);  // tree: reduce and broadcast only
  if ((a == Algo::kPull || a == Algo::kPush) && !mailbox::usable()) return Algo::kSync;
  return a == Algo::kMailbox && !fits ? fallback(family, bytes) : a;
}

namespace {

/// Whether auto may take family f's tree for a group of `members`. Each hop of a tree waits for its receiver to
/// run; with more PEs than cores that wait is a scheduler turn. So is each of the flat mailbox's N - 1 messages per
/// PE: on namespace hosts sharing two cores the reduce and broadcast trees were as fast at 8 members and 8 to 75
/// times faster from 16 on, so crowded machines take them from kCrowdedTreeMembers. fcollect's tree was not
/// measured there: crowded machines keep its flat mailbox (one hop, every message sent at once).
bool treeAuto(Family f, int members) {
  if (!g_rt.oversubscribed) return true;
  return f != Family::kCollect && members >= kCrowdedTreeMembers;
}

}  // namespace

std::size_t treeMax() {
  const std::size_t cap = std::min(mailbox::capacity(), kTreeMaxBytes);
  return params().COLL_TREE_MAX ? std::min<std::size_t>(params().COLL_TREE_MAX, cap) : cap;
}

Algo chooseAlgo(Family family, std::size_t bytes, bool spans_nodes, int members) {
  const bool tree_family = family == Family::kReduce || family == Family::kBroadcast;
  if (tree_family && mailbox::usable() && bytes <= std::min(mailbox::capacity(), kTreeMaxBytes)) {
    const Forced& want = forced(family);
    if (want.is(Algo::kTree) || (want.automatic && spans_nodes && treeAuto(family, members) && bytes <= treeMax()))
      return Algo::kTree;
  }
  return chooseAlgo(family, bytes);
}

Algo chooseReduce(const Group& g, std::size_t bytes) {
  return chooseAlgo(Family::kReduce, bytes, spansNodes(g), g.size);
}

Algo chooseMove(const Group& g, Family family, std::size_t bytes) {
  const Forced& want = forced(family);
  // The trees: forced, or auto over a group spanning nodes (on one node this is one test per call).
  const bool tree_asked = (family == Family::kBroadcast || family == Family::kCollect) &&
                          (want.is(Algo::kTree) || (want.automatic && spansNodes(g)));
  if (tree_asked && family == Family::kBroadcast &&
      chooseAlgo(family, bytes, spansNodes(g), g.size) == Algo::kTree)
    return Algo::kTree;
  if (tree_asked && family == Family::kCollect && mailbox::usable() &&
      (want.is(Algo::kTree) || treeAuto(family, g.size))) {  // fcollect: the largest node's blocks in one message
    const std::size_t bundle = treeBundleBytes(g, bytes);
    if (bundle <= std::min(mailbox::capacity(), kTreeMaxBytes) && (want.is(Algo::kTree) || bundle <= treeMax()))
      return Algo::kTree;
  }
  if (g.team == nullptr && family != Family::kReduce && want.automatic && mailbox::usable())
    return bytes <= activeSetMailboxMax(family) && bytes <= mailbox::capacity() ? Algo::kMailbox : Algo::kPush;
  Algo a = chooseAlgo(family, bytes);
  if (a == Algo::kTree && family == Family::kCollect) a = fallback(family, bytes);  // forced, does not fit
  if (a != Algo::kPull && a != Algo::kPush) return a;
  if (a == Algo::kPush && family == Family::kBroadcast && g.team) a = Algo::kPull;
  if (a == Algo::kPull && !pullUsable(g)) a = family == Family::kBroadcast ? Algo::kSync : Algo::kPush;
  return a == Algo::kPush && !pushUsable() ? Algo::kSync : a;
}

const char* algoName(Algo a) {
  switch (a) {
    case Algo::kMailbox: return "mailbox";
    case Algo::kSync: return "sync";
    case Algo::kDirect: return "direct";
    case Algo::kScatter: return "scatter";
    case Algo::kPull: return "pull";
    case Algo::kPush: return "push";
    case Algo::kTree: return "tree";
  }
  return "?";
}

std::string describeAlgos(const char* prefix) {
  static const char* const kNames[] = {"broadcast", "collect/fcollect", "alltoall", "reduce"};
  static const char* const kVars[] = {"BROADCAST", "COLLECT", "ALLTOALL", "REDUCE"};
  static const std::size_t kSizes[] = {8, 1024, 4096, 8192, 65536, std::size_t(1) << 20};
  std::string out;
  char line[160];
  for (int f = 0; f < 4; ++f) {
    const Family fam = static_cast<Family>(f);
    snprintf(line, sizeof line, "%scollective %s (GSHMEM_COLL_%s=%s, mailbox %zu bytes):", prefix, kNames[f],
             kVars[f], forcedName(fam).c_str(), mailbox::capacity());
    out += line;
    for (std::size_t b : kSizes) {
      snprintf(line, sizeof line, " %zu B %s%s", b, algoName(chooseAlgo(fam, b)), b == kSizes[5] ? "\n" : ",");
      out += line;
    }
    if (fam != Family::kAlltoall && forced(fam).automatic && mailbox::usable()) {
      if (treeAuto(fam, 0))
        snprintf(line, sizeof line, "%s  groups spanning nodes: tree up to %zu B%s (GSHMEM_COLL_TREE_MAX)\n",
                 prefix, treeMax(), fam == Family::kCollect ? " per node (fcollect)" : "");
      else if (treeAuto(fam, kCrowdedTreeMembers))
        snprintf(line, sizeof line, "%s  groups spanning nodes: tree up to %zu B from %d members (GSHMEM_COLL_TREE_MAX;"
                 " more PEs than cores)\n", prefix, treeMax(), kCrowdedTreeMembers);
      else
        snprintf(line, sizeof line, "%s  groups spanning nodes: no tree (more PEs than cores)\n", prefix);
      out += line;
    }
    if (fam != Family::kReduce && forced(fam).automatic && mailbox::usable()) {
      snprintf(line, sizeof line, "%s  active sets: mailbox up to %zu B, then push\n", prefix,
               std::min(activeSetMailboxMax(fam), mailbox::capacity()));
      out += line;
    }
  }
  return out;
}

void infoReport() {
  static bool done = false;
  if (done || !params().INFO || g_rt.my_pe != 0) return;
  done = true;
  fputs(describeAlgos("gshmem:   ").c_str(), stderr);
  fprintf(stderr, "gshmem:   barrier of the world team (GSHMEM_BARRIER=%s): %s\n", params().BARRIER.c_str(),
          teamSyncAlgoName(teamWorld()));
}

}  // namespace gshmem::coll
