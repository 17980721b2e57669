// Collective mailboxes: one-round, flag-in-destination messages between two PEs, the transport of the small
// collectives (broadcast, collect, fcollect, alltoall and reduce up to capacity() bytes per message).
//
// Every ordered pair of PEs (s, d) has a channel: two slots in d's control area that only s writes, and one
// acknowledgement cell in s's control area that only d writes (core/runtime/runtime.hpp: mailboxSlot,
// mailboxAck). Message k from s to d (k = 1, 2, ...) goes into slot k & 1: s copies the payload into the slot and
// then stores k into the slot's sequence word with release order (one cache line when the payload is small: the
// flag travels with the data). d waits until the word reads k, uses the payload in place, and stores k into its
// acknowledgement cell at s. s waits for the acknowledgement of message k - 2 before it overwrites that slot, so a
// sender may run at most two messages ahead of its receiver and never needs a barrier.
//
// Contract: two PEs make the collectives they share in the same order (as the specification requires of teams and
// active sets), so the k-th message s sends to d is the one d expects k-th. Sequence numbers live in this process
// (sent/received per peer), so a channel must not be used by two threads at once: usable() is false under
// SHMEM_THREAD_MULTIPLE and the callers fall back to algorithms that need no per-pair order.
// Peers reached through the remote transport get the payload and the sequence word in one put-with-signal.
// The sequence word holds k modulo 2^40 in its low 40 bits and the sending call's summary (signature.hpp) in the upper 24, so
// the agreement check rides on the flag the receiver waits for.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem::coll::mailbox {

/// Payload bytes one message may carry; the same on every PE.
std::size_t capacity();
/// Heap bytes of this process's per-peer sequence counters, per world PE (for the scale model).
std::size_t bytesPerPeer();
/// False when channels may be used by several threads at once (SHMEM_THREAD_MULTIPLE).
bool usable();
/// Post one message to world PE `pe`: `hn` bytes from `head`, then `bn` bytes from `body` (hn + bn <=
/// capacity()). Waits only while `pe` has not consumed this PE's message before the previous one.
/// `sig` summarizes the call (signature.hpp), checked by the receiver.
void send(const char* call, int pe, uint32_t sig, const void* head, std::size_t hn, const void* body = nullptr,
          std::size_t bn = 0);
/// Post one empty message to world PE `pe` after storing `n` bytes from `src` at symmetric `dest` on `pe`: when
/// receive(pe) returns there, the bytes are in its dest (a mapped peer: a copy, then the release store of the
/// sequence word; a remote peer: one put-with-signal, the signal landing after the data). Waits as send() does.
void sendData(const char* call, int pe, uint32_t sig, void* dest, const void* src, std::size_t n);
/// Wait for the next message from world PE `pe`; returns its payload, valid until release(pe). With GSHMEM_CHECK >= 1
/// fatal (naming `call`, this PE and `pe`) when the message's summary is not `sig` (0 on either side: not checked).
const char* receive(const char* call, int pe, uint32_t sig);
/// True when the next message from world PE `pe` has arrived (receive(pe) would not wait). Does not wait.
bool arrived(int pe);
/// Done with the payload receive(pe) returned: the sender may reuse its slot.
void release(const char* call, int pe);
/// Wait until world PE `pe` has released every message this PE has sent it. With empty messages used as "my
/// buffer is ready" notices (the pull algorithms), this is the sender's "every reader is done with it".
void waitReleased(const char* call, int pe);

}  // namespace gshmem::coll::mailbox
