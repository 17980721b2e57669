// The GPU -> proxy ring's format and consumer (handle__types.cuh, core/protocols/proxy_ring.hpp), driven by a host
// producer that follows detail::proxyPost: requests come out in order with their fields, a slot is taken only
// once its phase matches the ticket's lap (stale and zeroed slots are not), one retire publishes a whole batch,
// and the ring wraps many times.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/protocols/proxy_ring.hpp"

namespace {

using namespace gshmem;
using gshmem::protocols::ProxyReq;
using gshmem::protocols::ProxyRingConsumer;

constexpr uint32_t kSlots = 16;

struct Ring {
  std::vector<ProxyRequest> slots = std::vector<ProxyRequest>(kSlots);
  std::vector<uint64_t> args = std::vector<uint64_t>(kSlots);
  unsigned long long done = 0;
  std::vector<unsigned long long> results = std::vector<unsigned long long>(kProxyResults);
  unsigned long long head = 0;
  ProxyRingConsumer c;
  Ring() { c.attach(slots.data(), args.data(), kSlots, &done, results.data()); }

  /// proxyPost without the wait for room (the tests keep at most kSlots in flight).
  unsigned long long post(uint32_t op, uint32_t aux, int pe, uint64_t off, uint64_t value, uint64_t arg, bool has) {
    const unsigned long long t = head++;
    const uint32_t i = t & (kSlots - 1);
    if (has) args[i] = arg;
    slots[i].value = value;
    __atomic_store_n(&slots[i].header, proxyHeader(op, aux, pe, off) | proxyPhase(t, kSlots), __ATOMIC_RELEASE);
    return t;
  }
};

TEST(ProxyRing, HeaderFieldsRoundTrip) {
  const uint64_t off = (uint64_t(1) << kProxyOffsetBits) - 8;
  const uint64_t h = proxyHeader(kProxyAmo, 0x1f, (1u << kProxyPeBits) - 1, off);
  EXPECT_EQ(proxyOpOf(h), kProxyAmo);
  EXPECT_EQ(proxyAuxOf(h), 0x1fu);
  EXPECT_EQ(proxyPeOf(h), (1 << kProxyPeBits) - 1);
  EXPECT_EQ(proxyOffsetOf(h), off);
  EXPECT_EQ(h & kProxyPhaseBit, 0u);
  EXPECT_NE(proxyPhase(0, kSlots), proxyPhase(kSlots, kSlots));
  EXPECT_EQ(proxyPhase(0, kSlots), proxyPhase(2 * kSlots, kSlots));
}

TEST(ProxyRing, ZeroedRingHasNothing) {
  Ring r;
  EXPECT_EQ(r.c.take(8, [](const ProxyReq&) { FAIL() << "took a zeroed slot"; }), 0u);
}

TEST(ProxyRing, TakesInOrderWithFieldsAndArgs) {
  Ring r;
  r.post(kProxyPutV, 7, 3, 4096, 0x1122334455667788ull, 0, false);
  r.post(kProxyPut, 0, 1, 64, 0xdead0000ull, 1ull << 33, true);
  r.post(kProxyAmo, static_cast<uint32_t>(AmoOp::CompareSwap) | 0x10, 2, 8, 5, 9, true);
  r.post(kProxyAmo, static_cast<uint32_t>(AmoOp::FetchAdd) | 0x10, 2, 8, 5, 77, false);
  std::vector<ProxyReq> got;
  EXPECT_EQ(r.c.take(16, [&](const ProxyReq& q) { got.push_back(q); }), 4u);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].ticket, 0u);
  EXPECT_EQ(got[0].op, kProxyPutV);
  EXPECT_EQ(got[0].aux, 7u);
  EXPECT_EQ(got[0].pe, 3);
  EXPECT_EQ(got[0].off, 4096u);
  EXPECT_EQ(got[0].value, 0x1122334455667788ull);
  EXPECT_EQ(got[1].arg, 1ull << 33);  // a put's length
  EXPECT_EQ(got[2].arg, 9u);          // a CAS compare value
  EXPECT_EQ(got[3].arg, 0u);          // no third word for other AMOs
  EXPECT_EQ(r.done, 0u) << "nothing is retired before retire()";
  r.c.retire();
  EXPECT_EQ(r.done, 4u);
}

TEST(ProxyRing, BatchLimitAndStaleSlots) {
  Ring r;
  for (int i = 0; i < 10; ++i) r.post(kProxyPutV, 0, 0, i * 8, i, 0, false);
  unsigned seen = 0;
  EXPECT_EQ(r.c.take(4, [&](const ProxyReq& q) { EXPECT_EQ(q.value, seen++); }), 4u);
  EXPECT_EQ(r.c.take(16, [&](const ProxyReq& q) { EXPECT_EQ(q.value, seen++); }), 6u);
  r.c.retire();
  EXPECT_EQ(r.done, 10u);
  // Slots 0..9 still hold lap-0 headers; after the tail passes slot 15, lap 1 must not take them.
  for (int i = 10; i < 16; ++i) r.post(kProxyPutV, 0, 0, 0, i, 0, false);
  EXPECT_EQ(r.c.take(16, [&](const ProxyReq& q) { EXPECT_EQ(q.value, seen++); }), 6u);
  EXPECT_EQ(r.c.take(16, [](const ProxyReq&) { FAIL() << "took a slot of the previous lap"; }), 0u);
}

TEST(ProxyRing, OneTakeCrossesTheRingEnd) {
  Ring r;
  for (uint32_t i = 0; i < kSlots - 2; ++i) r.post(kProxyPutV, 0, 0, 0, i, 0, false);
  EXPECT_EQ(r.c.take(kSlots, [](const ProxyReq&) {}), kSlots - 2);
  r.c.retire();
  // Two requests in the last slots of lap 0, three in the first slots of lap 1: one take, in ticket order.
  for (int i = 0; i < 5; ++i) r.post(kProxyPut, 0, 1, 64 * i, 100 + i, 8 * (i + 1), true);
  uint64_t expect = kSlots - 2;
  EXPECT_EQ(r.c.take(kSlots, [&](const ProxyReq& q) {
    EXPECT_EQ(q.ticket, expect);
    EXPECT_EQ(q.value, 100 + (expect - (kSlots - 2)));
    EXPECT_EQ(q.arg, 8 * (expect - (kSlots - 2) + 1));
    ++expect;
  }), 5u);
  EXPECT_EQ(r.c.tail(), kSlots + 3u);
  // A take limited to the run before the ring's end stops there; the next one goes on from slot 0.
  for (uint32_t i = 0; i < kSlots - 3; ++i) r.post(kProxyPutV, 0, 0, 0, i, 0, false);
  EXPECT_EQ(r.c.take(kSlots - 3, [](const ProxyReq&) {}), kSlots - 3);
  EXPECT_EQ(r.c.tail(), 2u * kSlots);
  r.post(kProxyPutV, 0, 0, 0, 7, 0, false);
  EXPECT_EQ(r.c.take(kSlots, [](const ProxyReq& q) { EXPECT_EQ(q.ticket, 2u * kSlots); }), 1u);
}

TEST(ProxyRing, ThirdWordOnlyForRequestsThatCarryOne) {
  Ring r;
  for (uint32_t i = 0; i < kSlots; ++i) r.args[i] = 0xbad0000 + i;  // left by requests of an earlier lap
  r.post(kProxyPutV, 7, 1, 8, 1, 0, false);
  r.post(kProxyGetV, 7, 1, 8, 0, 0, false);
  r.post(kProxyAmo, static_cast<uint32_t>(AmoOp::FetchAdd) | 0x10, 1, 8, 1, 0, false);
  r.post(kProxyAmo, static_cast<uint32_t>(AmoOp::Set), 1, 8, 1, 0, false);  // 4-byte operand
  r.post(kProxyGet, 0, 1, 8, 0x1000, 24, true);
  r.post(kProxyAmo, static_cast<uint32_t>(AmoOp::CompareSwap), 1, 8, 1, 3, true);
  const uint64_t want[] = {0, 0, 0, 0, 24, 3};
  unsigned k = 0;
  EXPECT_EQ(r.c.take(kSlots, [&](const ProxyReq& q) { EXPECT_EQ(q.arg, want[k++]) << "request " << q.ticket; }), 6u);
}

TEST(ProxyRing, WrapsManyLaps) {
  Ring r;
  uint64_t next = 0, expect = 0;
  for (int round = 0; round < 1000; ++round) {
    const int n = 1 + round % kSlots;
    for (int i = 0; i < n; ++i) r.post(kProxyGetV, 7, 1, 8, next++, 0, false);
    EXPECT_EQ(r.c.take(kSlots, [&](const ProxyReq& q) {
      EXPECT_EQ(q.ticket, expect);
      EXPECT_EQ(q.value, expect++);
    }), static_cast<unsigned>(n));
    r.c.retire();
    EXPECT_EQ(r.done, next);
  }
  EXPECT_EQ(r.c.result(kProxyResults + 5), r.c.result(5));
}

}  // namespace
