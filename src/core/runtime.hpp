// Old location of core/runtime/runtime.hpp, kept for core/device and core/protocols until they include the new path.
#pragma once
#include "core/runtime/runtime.hpp"
