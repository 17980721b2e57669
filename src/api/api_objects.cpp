// Public C API: the objects behind SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and SHMEM_CTX_DEFAULT (gshmem/c/types.h),
// exported data. Every init entry point hands their addresses to the core (runtimeInit), which fills them.
#include "api/api_common.hpp"

extern "C" {
__attribute__((visibility("default"))) gshmem_team gshmem_team_world_obj;
__attribute__((visibility("default"))) gshmem_team gshmem_team_shared_obj;
__attribute__((visibility("default"))) gshmem_ctx gshmem_ctx_default_obj;
}
