// Anonymous shared memory files: what the symmetric heap, the data segment and the request channel are made of.
#pragma once
#include <cstddef>

#include "base/status.hpp"

namespace gshmem {

/// A memory file of @p bytes for sharing by descriptor: memfd_create(@p name), close-on-exec, mode 0600 (peers
/// receive the descriptor itself over SCM_RIGHTS; nobody opens it by path). *fd is set only on success. A failure
/// is logged once, naming @p what ("the symmetric heap"): SystemError when no file could be made, NoMemory when it
/// could not be sized.
Status memfdCreate(const char* name, const char* what, std::size_t bytes, int* fd);

}  // namespace gshmem
