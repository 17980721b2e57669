// Layer 1: the device handle. Contract:
// - A DeviceHandle is valid from shmem_init (when the PE has a GPU and GSHMEM_SYMMETRIC_SIZE_DEVICE > 0) to
//   shmem_finalize, on the GPU the runtime chose for this PE (gshmemx_device_id()).
// - Translation is offset arithmetic: a symmetric device address `a` on PE p is peer_base[p] + (a - heap_base).
// - peer_base[p] == nullptr means PE p's heap is not mapped here (no P2P, or GSHMEM_P2P=0): operations on it
//   post requests to the proxy ring and complete at quiet / on return for blocking calls.
#pragma once
#include "gshmem/device/macros.hpp"
#include "gshmem/device/impl/handle__types.cuh"
