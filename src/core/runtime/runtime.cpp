// The process-wide runtime state (runtime.hpp): its one instance. The lifecycle (core/lifecycle) fills it at init.
#include "core/runtime/runtime.hpp"

namespace gshmem {

Runtime g_rt;

}  // namespace gshmem
