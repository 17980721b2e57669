/* libnvshmem_device.a of gshmem's NVSHMEM drop-in: gshmem's device API is header-only (gshmem/device.cuh), so
 * this archive holds no code; it exists so that link lines written for NVSHMEM (-lnvshmem_device) keep working. */
int gshmemi_nvshmem_device_stub = 0;
