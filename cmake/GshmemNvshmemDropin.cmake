# NVSHMEM drop-in at the build level (CUDA builds only; included by cmake/GshmemInstall.cmake), install component
# nvshmem, so that an NVSHMEM project builds against gshmem by pointing NVSHMEM_HOME or NVSHMEM_DIR at its prefix:
#   <prefix>/include/{nvshmem.h, nvshmemx.h}       from include/gshmem/nvshmem/dropin/ (NVSHMEM's transitive
#                                                  includes, then gshmem/nvshmem_compat.h)
#   <prefix>/lib/libnvshmem_host.so                a link to libgshmem.so.<soversion>
#   <prefix>/lib/libnvshmem_device.a               empty: gshmem's device API is header-only
#   <prefix>/lib/cmake/NVSHMEM/NVSHMEMConfig.cmake nvshmem::nvshmem, nvshmem::nvshmem_host, nvshmem::nvshmem_device
# These names belong to NVSHMEM: GSHMEM_INSTALL_NVSHMEM_NAMES=OFF leaves them out (for a prefix shared with it).
option(GSHMEM_INSTALL_NVSHMEM_NAMES "Install nvshmem.h, libnvshmem_host.so, libnvshmem_device.a, NVSHMEMConfig"
       ON)
if(NOT GSHMEM_HAVE_CUDA OR NOT GSHMEM_INSTALL_NVSHMEM_NAMES)
  return()
endif()
set(_gshmem_nv_dir ${PROJECT_SOURCE_DIR}/tools/packaging/nvshmem)

install(FILES ${PROJECT_SOURCE_DIR}/include/gshmem/nvshmem/dropin/nvshmem.h
              ${PROJECT_SOURCE_DIR}/include/gshmem/nvshmem/dropin/nvshmemx.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT nvshmem)

add_library(nvshmem_device STATIC ${_gshmem_nv_dir}/nvshmem_device_stub.c)
install(TARGETS nvshmem_device ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nvshmem)

file(CREATE_LINK libgshmem.so.${GSHMEM_SOVERSION} ${PROJECT_BINARY_DIR}/packaging/libnvshmem_host.so SYMBOLIC)
install(FILES ${PROJECT_BINARY_DIR}/packaging/libnvshmem_host.so DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT nvshmem)

set(_gshmem_nv_cmake ${CMAKE_INSTALL_LIBDIR}/cmake/NVSHMEM)
configure_package_config_file(${_gshmem_nv_dir}/NVSHMEMConfig.cmake.in ${PROJECT_BINARY_DIR}/packaging/NVSHMEMConfig.cmake
                              INSTALL_DESTINATION ${_gshmem_nv_cmake}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# The NVSHMEM API generation gshmem's compatibility layer follows (docs/NVSHMEM.md); older requests are accepted.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/packaging/NVSHMEMConfigVersion.cmake VERSION 3.5.0
                                 COMPATIBILITY AnyNewerVersion)
install(FILES ${PROJECT_BINARY_DIR}/packaging/NVSHMEMConfig.cmake
              ${PROJECT_BINARY_DIR}/packaging/NVSHMEMConfigVersion.cmake
        DESTINATION ${_gshmem_nv_cmake} COMPONENT nvshmem)
