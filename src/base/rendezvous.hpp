// The unique id and the rendezvous behind it: how the PEs of a job started without a launcher find each other.
//
// uniqueIdMake, on one process, opens a TCP listener and starts a background thread (the rendezvous root) that
// serves one job: it accepts one check-in per rank (rank, nranks, the id's nonce, and the address the rank listens
// on), then tells every rank the address of the next rank of the ring and exits. The id written for the program to
// hand out holds a magic, a format version, the job's random nonce and the root's address. The root checks every
// check-in: a foreign nonce is turned away (that process alone fails); a second process with a rank already taken,
// or an nranks other than the first check-in's, fails the whole rendezvous: each rank waiting and each arriving
// later gets one line naming the offender. Once the first rank has checked in, the others have GSHMEM_TIMEOUT to
// follow; then every waiting rank is told which ranks never came. The API layer makes ids (gshmemx_uniqueid_make);
// the rest is the socket bootstrap's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/socket.hpp"
#include "base/status.hpp"

namespace gshmem {

/// Bytes of the id that gshmem uses (the rest of the caller's buffer is zeroed).
constexpr std::size_t kUniqueIdBytes = 48;

/// What an id holds, read back on every rank.
struct UniqueIdInfo {
  uint64_t nonce = 0;
  SockAddr root;
};

/// Make an id into @p id (@p bytes >= kUniqueIdBytes) and start its rendezvous root in this process. @p timeout_s
/// bounds the wait for the other ranks once the first has checked in (0: no bound); @p ifname chooses the address
/// (localAddressChoose). On failure *err is one line with the cause and the fix.
Status uniqueIdMake(long timeout_s, const std::string& ifname, void* id, std::size_t bytes, std::string* err);

/// Read an id made by uniqueIdMake; InvalidArgument (and *err) when @p id is not one.
Status uniqueIdRead(const void* id, std::size_t bytes, UniqueIdInfo* out, std::string* err);

/// Check in as @p rank of @p nranks, offering @p mine, and wait for the root's answer: *next is the address of rank
/// (rank + 1) % nranks. Bounded by @p timeout_s (plus a grace for the root's own answer); on failure *err is the
/// root's line or the local cause, with the fix.
Status rendezvousCheckIn(const UniqueIdInfo& id, int rank, int nranks, const SockAddr& mine, long timeout_s,
                         SockAddr* next, std::string* err);

}  // namespace gshmem
