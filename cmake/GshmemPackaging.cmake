# Binary packages of gshmem through CPack (included by cmake/GshmemInstall.cmake, after every install rule).
#   cpack -G DEB      in the build directory: one Debian package per install component, plus -dbgsym packages
#   cpack -G TGZ      one archive of the whole installation
# Debian packages (prefix /usr):
#   libgshmem<soversion>  runtime: libgshmem.so.<soversion>, LICENSE. With CUDA the library carries the CUDA
#                         runtime (linked statically) and needs no CUDA package: it runs on nodes without one
#   libgshmem-dev         devel: headers, the libgshmem.so link, gshmemcc/gshmemc++, CMake and pkg-config files,
#                         man pages gshmemcc(1), gshmemc++(1), gshmem(7), README.md and docs/*.md
#   gshmem-tools          tools: gshmem-info, gshmem-calibrate and their man pages, and the install rules without a
#                         component (CMake's "Unspecified": the OSU-style benchmarks under libexec/gshmem/osu-like)
#   gshmem-examples       apps: the example applications and their sources
#   gshmem-osh-names      osh: oshcc, oshc++, oshCC, oshcxx, oshrun, oshmem_info (GSHMEM_INSTALL_OSH_NAMES)
#   gshmem-nvshmem-compat nvshmem: nvshmem.h, nvshmemx.h, libnvshmem_host.so, libnvshmem_device.a and the CMake
#                         package NVSHMEM (CUDA builds, GSHMEM_INSTALL_NVSHMEM_NAMES); conflicts with nothing known,
#                         but owns names of NVSHMEM's: do not install it next to NVSHMEM in /usr
# Depends come from dpkg-shlibdeps (shared libraries) and from the dependencies between components. Binaries are
# stripped by CPack's Debian generator, which moves their debug information to -dbgsym packages (.ddeb): so
# CPACK_STRIP_FILES stays off (it would strip before the debug information is split out). Needs dpkg-shlibdeps
# (dpkg-dev), file, objcopy and readelf.
#
# The osh* names collide with the package that owns /usr/bin/oshcc on the build machine (Open MPI's openmpi-bin
# on Debian, which also holds mpirun, needed to start gshmem programs). gshmem-osh-names therefore diverts that
# package's files (dpkg-divert, to <name>.<owner>) while installed and gives them back on removal, so both stay
# installable. With GSHMEM_DEB_OSH_CONFLICTS=ON it declares Conflicts: <owner> instead.
set(CPACK_PACKAGE_NAME gshmem)
set(CPACK_PACKAGE_VENDOR "the gshmem authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "PGAS communication runtime (OpenSHMEM 1.5 C API, NVSHMEM-compatible GPU API)")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RPM_PACKAGE_LICENSE "BSD-3-Clause")
set(CPACK_PACKAGE_CONTACT "the gshmem authors")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/" "/\\\\.git/")

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libgshmem is not installed on the build machine: dpkg-shlibdeps finds it in the build tree (the packages that
# need it depend on the runtime package through the component dependencies below).
get_target_property(_gshmem_lib_dir gshmem LIBRARY_OUTPUT_DIRECTORY)
if(NOT _gshmem_lib_dir)
  get_target_property(_gshmem_lib_dir gshmem BINARY_DIR)
endif()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_gshmem_lib_dir})
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
 gshmem implements the OpenSHMEM 1.5 C API over MPI bootstrap, shared memory, UCX and CUDA IPC.
 License: BSD-3-Clause.")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libgshmem${GSHMEM_SOVERSION})
set(CPACK_DEBIAN_DEVEL_PACKAGE_NAME libgshmem-dev)
set(CPACK_DEBIAN_DEVEL_PACKAGE_SECTION libdevel)
# gshmem-tools is the group of the tools component and the Unspecified one; each other component is a package
# of its own. A group gets no Depends from component dependencies: they are written out.
set(CPACK_COMPONENT_TOOLS_GROUP tools_group)
set(CPACK_COMPONENT_UNSPECIFIED_GROUP tools_group)
set(CPACK_DEBIAN_TOOLS_GROUP_PACKAGE_NAME gshmem-tools)
set(CPACK_DEBIAN_TOOLS_GROUP_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOLS_GROUP_PACKAGE_DEPENDS "libgshmem${GSHMEM_SOVERSION} (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_APPS_PACKAGE_NAME gshmem-examples)
set(CPACK_DEBIAN_APPS_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_OSH_PACKAGE_NAME gshmem-osh-names)
set(CPACK_DEBIAN_OSH_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_OSH_PACKAGE_SHLIBDEPS OFF)  # links and a script only
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "gshmem runtime library (libgshmem.so.${GSHMEM_SOVERSION})")
set(CPACK_COMPONENT_DEVEL_DESCRIPTION "gshmem headers, compiler wrappers, CMake and pkg-config files")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "gshmem-info and gshmem-calibrate")
set(CPACK_COMPONENT_APPS_DESCRIPTION "gshmem example applications")
set(CPACK_COMPONENT_OSH_DESCRIPTION "OpenSHMEM command names (oshcc, oshrun, ...) for gshmem")
set(CPACK_COMPONENT_DEVEL_DEPENDS runtime)
set(CPACK_COMPONENT_APPS_DEPENDS runtime)
set(CPACK_COMPONENT_OSH_DEPENDS devel)
set(CPACK_DEBIAN_OSH_PACKAGE_DEPENDS "gshmem-tools (= ${PROJECT_VERSION})")
set(CPACK_COMPONENTS_ALL runtime devel tools Unspecified apps)
if(GSHMEM_INSTALL_OSH_NAMES)
  list(APPEND CPACK_COMPONENTS_ALL osh)
endif()
if(GSHMEM_HAVE_CUDA AND GSHMEM_INSTALL_NVSHMEM_NAMES)
  list(APPEND CPACK_COMPONENTS_ALL nvshmem)
  set(CPACK_DEBIAN_NVSHMEM_PACKAGE_NAME gshmem-nvshmem-compat)
  set(CPACK_DEBIAN_NVSHMEM_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_NVSHMEM_PACKAGE_SHLIBDEPS OFF)  # headers, a link and an empty archive
  set(CPACK_COMPONENT_NVSHMEM_DESCRIPTION "NVSHMEM names (nvshmem.h, libnvshmem_host, NVSHMEMConfig) for gshmem")
  set(CPACK_COMPONENT_NVSHMEM_DEPENDS devel)
endif()

# Packages that a component needs beyond shared libraries, found on the build machine through dpkg: the MPI
# development package (mpi.h, for the wrappers), the launcher's package (oshrun), the CUDA runtime.
function(_gshmem_deb_owner path out)
  set(${out} "" PARENT_SCOPE)
  find_program(_gshmem_dpkg dpkg)
  if(_gshmem_dpkg AND EXISTS "${path}")
    execute_process(COMMAND ${_gshmem_dpkg} -S "${path}" OUTPUT_VARIABLE o ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND o MATCHES "^([^:, ]+)[:,]")
      set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
    endif()
  endif()
endfunction()
find_file(_gshmem_mpi_h mpi.h PATHS ${MPI_C_INCLUDE_DIRS} NO_DEFAULT_PATH NO_CACHE)
_gshmem_deb_owner("${_gshmem_mpi_h}" _gshmem_mpi_dev)
if(_gshmem_mpi_dev)
  set(CPACK_DEBIAN_DEVEL_PACKAGE_DEPENDS "${_gshmem_mpi_dev}")
endif()
if(GSHMEM_HAVE_CUDA AND CUDAToolkit_VERSION_MAJOR)
  # libcudart comes from NVIDIA's packages, which dpkg-shlibdeps does not know. The library and the tools carry
  # the runtime statically; the GPU examples link the shared one and name its package.
  set(_gshmem_cudart "cuda-cudart-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
  set(CPACK_DEBIAN_APPS_PACKAGE_DEPENDS ${_gshmem_cudart})
endif()

option(GSHMEM_DEB_OSH_CONFLICTS "gshmem-osh-names conflicts with the owner of /usr/bin/oshcc instead of diverting" OFF)
if(GSHMEM_INSTALL_OSH_NAMES)
  _gshmem_deb_owner(/usr/bin/oshcc _gshmem_osh_owner)
  if(NOT _gshmem_osh_owner)
    set(_gshmem_osh_owner openmpi-bin)
  endif()
  get_filename_component(_gshmem_launcher "${MPIEXEC_EXECUTABLE}" REALPATH)
  _gshmem_deb_owner("${_gshmem_launcher}" _gshmem_launcher_pkg)
  if(_gshmem_launcher_pkg AND NOT GSHMEM_DEB_OSH_CONFLICTS)
    string(APPEND CPACK_DEBIAN_OSH_PACKAGE_DEPENDS ", ${_gshmem_launcher_pkg}")
  endif()
  if(GSHMEM_DEB_OSH_CONFLICTS)
    set(CPACK_DEBIAN_OSH_PACKAGE_CONFLICTS "${_gshmem_osh_owner}")
  else()
    set(GSHMEM_OSH_OWNER ${_gshmem_osh_owner})
    set(GSHMEM_OSH_NAMES "oshcc oshc++ oshCC oshcxx oshrun oshmem_info")
    foreach(script preinst postrm)
      configure_file(${GSHMEM_PACKAGING_DIR}/deb-osh-${script}.in ${PROJECT_BINARY_DIR}/packaging/deb-osh/${script}
                     @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                     WORLD_READ WORLD_EXECUTE)
    endforeach()
    set(CPACK_DEBIAN_OSH_PACKAGE_CONTROL_EXTRA
        ${PROJECT_BINARY_DIR}/packaging/deb-osh/preinst ${PROJECT_BINARY_DIR}/packaging/deb-osh/postrm)
  endif()
endif()

include(CPack)
