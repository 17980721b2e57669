// Global and static variables of the executable made symmetric.
#pragma once
#include "base/status.hpp"
#include "transports/transport.hpp"

namespace gshmem {

/// Re-back the executable's writable data (.data, .bss, excluding RELRO) with a memfd so peers on the node can
/// map it: a put to a peer's global then is a memcpy, as fast as the heap. The contents are copied first and the
/// memfd is mapped over the same addresses (MAP_FIXED), so the program sees no change.
/// Cost: one copy of the non-zero pages of .data+.bss at init (zero pages stay unallocated), and after it a fork() without exec shares globals with
/// the child. Must run while no other thread of the program writes its globals.
/// On success `out` describes the region (base/size/fd); when the executable has no writable segment, size is 0.
Status symmetricDataCreate(LocalRegion* out);

}  // namespace gshmem
