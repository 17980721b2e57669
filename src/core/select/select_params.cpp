// The one place path selection reads its parameters (declared in src/base/params.def).
#include "base/config.hpp"
#include "core/select/selector.hpp"

namespace gshmem {

SelectParams selectParamsCurrent() {
  const Params& P = params();
  SelectParams p;
  p.profile = P.PROFILE;
  p.path = P.PATH;
  p.tune = P.TUNE;
  return p;
}

}  // namespace gshmem
