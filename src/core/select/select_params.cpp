// The one place path selection reads its environment variables. When GSHMEM_PROFILE, GSHMEM_PATH and
// GSHMEM_TUNE are in src/base/params.def, this becomes a copy of params().PROFILE / PATH / TUNE.
#include <cstdlib>

#include "core/select/selector.hpp"

namespace gshmem {

SelectParams selectParamsCurrent() {
  SelectParams p;
  if (const char* v = getenv("GSHMEM_PROFILE")) p.profile = v;
  if (const char* v = getenv("GSHMEM_PATH")) p.path = v;
  if (const char* v = getenv("GSHMEM_TUNE")) p.tune = v;
  return p;
}

}  // namespace gshmem
