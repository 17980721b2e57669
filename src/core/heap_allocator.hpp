// Old location of core/memory/heap_allocator.hpp, kept for core/device and core/protocols until they include the new path.
#pragma once
#include "core/memory/heap_allocator.hpp"
