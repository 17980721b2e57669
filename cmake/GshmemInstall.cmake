# Install layout of gshmem (included at the end of the top-level CMakeLists.txt):
#   <prefix>/lib/libgshmem.so*                          the runtime (target gshmem, exported as gshmem::gshmem)
#   <prefix>/include/{shmem.h, shmemx.h, pshmem.h, pshmemx.h, shmem-compat.h, mpp/, gshmem/**}
#                                                       public headers (every name an OpenSHMEM program may
#                                                       include), plus the generated gshmem/version.h
#   <prefix>/lib/cmake/gshmem/gshmem{Config,ConfigVersion,Targets}.cmake   for find_package(gshmem)
#   <prefix>/lib/pkgconfig/gshmem.pc                    for pkg-config
#   <prefix>/bin/{gshmemcc, gshmemc++, gshmem-info}     compiler wrappers (like oshcc) and the info tool
#   <prefix>/bin/{oshcc, oshc++, oshCC, oshcxx, oshrun, oshmem_info}   with GSHMEM_INSTALL_OSH_NAMES (default ON)
#   <prefix>/share/man/man{1,7}, <prefix>/share/doc/gshmem   man pages; LICENSE, README.md and docs/*.md
# Templates live in tools/packaging/. Everything installed is relocatable: the wrappers, the .pc file and the
# CMake package find the prefix relative to themselves.
# Install components (one Debian package each, cmake/GshmemPackaging.cmake): runtime (the library, LICENSE),
# devel (headers, wrappers, CMake/pkg-config files, man pages of the wrappers, documents), tools (gshmem-info,
# gshmem-calibrate), apps (the example applications), osh (the osh* names), nvshmem (the NVSHMEM drop-in names,
# cmake/GshmemNvshmemDropin.cmake).
include(CMakePackageConfigHelpers)

set(GSHMEM_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/tools/packaging)
set(GSHMEM_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gshmem)

# ---- library and headers
# ABI policy: 0.x releases promise nothing across minor versions, so the soname carries major.minor
# (libgshmem.so.0.1); from 1.0 it carries the major version only (libgshmem.so.1).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(GSHMEM_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(GSHMEM_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()
set_target_properties(gshmem PROPERTIES SOVERSION ${GSHMEM_SOVERSION})
install(TARGETS gshmem EXPORT gshmemTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT devel
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# shmem.h, shmemx.h, pshmem.h, pshmemx.h, shmem-compat.h, mpp/ and include/gshmem/** (templates such as
# version.h.in are not headers and are skipped).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh")
install(FILES ${PROJECT_BINARY_DIR}/include/gshmem/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gshmem
        COMPONENT devel)

# ---- CMake package: find_package(gshmem) -> gshmem::gshmem
install(EXPORT gshmemTargets NAMESPACE gshmem:: DESTINATION ${GSHMEM_CMAKE_INSTALL_DIR} COMPONENT devel)
configure_package_config_file(${GSHMEM_PACKAGING_DIR}/gshmemConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/packaging/gshmemConfig.cmake
                              INSTALL_DESTINATION ${GSHMEM_CMAKE_INSTALL_DIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# 0.x releases promise nothing across minor versions; from 1.0 the major version is the compatibility line.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_gshmem_compat SameMinorVersion)
else()
  set(_gshmem_compat SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/packaging/gshmemConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY ${_gshmem_compat})
install(FILES ${PROJECT_BINARY_DIR}/packaging/gshmemConfig.cmake
              ${PROJECT_BINARY_DIR}/packaging/gshmemConfigVersion.cmake
        DESTINATION ${GSHMEM_CMAKE_INSTALL_DIR} COMPONENT devel)

# ---- MPI flags recorded at configure time from FindMPI (the MPI libgshmem was built against), as text for
# the wrappers and the .pc file. A full library path becomes -L<dir> -l<name> so --showme reads like mpicc's.
function(_gshmem_mpi_flags lang out_compile out_link)
  # MPI's include directories are searched after gshmem's and after the system's (-idirafter): Open MPI's holds
  # its own OpenSHMEM headers (shmem.h, mpp/shmem.h, pshmem.h, ...), which must never be found before gshmem's.
  # Programs still find mpi.h there.
  set(compile "")
  foreach(dir IN LISTS MPI_${lang}_INCLUDE_DIRS)
    list(APPEND compile "-idirafter ${dir}")
  endforeach()
  foreach(def IN LISTS MPI_${lang}_COMPILE_DEFINITIONS)
    list(APPEND compile "-D${def}")
  endforeach()
  list(APPEND compile ${MPI_${lang}_COMPILE_OPTIONS})
  set(link ${MPI_${lang}_LINK_FLAGS})
  set(libs "")
  foreach(lib IN LISTS MPI_${lang}_LIBRARIES)
    if(lib MATCHES "^(.*)/lib([^/]+)\\.(so|a)(\\.[0-9.]+)?$")
      list(APPEND link "-L${CMAKE_MATCH_1}")
      list(APPEND libs "-l${CMAKE_MATCH_2}")
    else()
      list(APPEND libs "${lib}")
    endif()
  endforeach()
  list(APPEND link ${libs})
  list(REMOVE_DUPLICATES compile)
  list(REMOVE_DUPLICATES link)
  list(JOIN compile " " compile)
  list(JOIN link " " link)
  set(${out_compile} "${compile}" PARENT_SCOPE)
  set(${out_link} "${link}" PARENT_SCOPE)
endfunction()
_gshmem_mpi_flags(C GSHMEM_WRAPPER_MPI_COMPILE_C GSHMEM_WRAPPER_MPI_LINK_C)
_gshmem_mpi_flags(CXX GSHMEM_WRAPPER_MPI_COMPILE_CXX GSHMEM_WRAPPER_MPI_LINK_CXX)

# ---- pkg-config file; the prefix is found from the .pc file's own location. Only flags nvcc accepts as well as
# the C compilers: MPI's include directories as plain -I in the mpi_cflags variable (not in Cflags), MPI's
# libraries as -L/-l; MPI's other link flags (which may be -Wl,... or -pthread) only in Libs.private.
set(GSHMEM_PC_MPI_CFLAGS "")
foreach(dir IN LISTS MPI_C_INCLUDE_DIRS)
  string(APPEND GSHMEM_PC_MPI_CFLAGS " -I${dir}")
endforeach()
set(GSHMEM_PC_MPI_LIBS "")
foreach(lib IN LISTS MPI_C_LIBRARIES)
  if(lib MATCHES "^(.*)/lib([^/]+)\\.(so|a)(\\.[0-9.]+)?$")
    string(APPEND GSHMEM_PC_MPI_LIBS " -L${CMAKE_MATCH_1} -l${CMAKE_MATCH_2}")
  endif()
endforeach()
string(STRIP "${GSHMEM_PC_MPI_CFLAGS}" GSHMEM_PC_MPI_CFLAGS)
string(STRIP "${GSHMEM_PC_MPI_LIBS}" GSHMEM_PC_MPI_LIBS)
list(JOIN MPI_C_LINK_FLAGS " " GSHMEM_PC_MPI_LINK_FLAGS)
file(RELATIVE_PATH GSHMEM_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" GSHMEM_PC_TO_PREFIX "${GSHMEM_PC_TO_PREFIX}")
configure_file(${GSHMEM_PACKAGING_DIR}/gshmem.pc.in ${PROJECT_BINARY_DIR}/packaging/gshmem.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/gshmem.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT devel)

# ---- compiler wrappers gshmemcc (C) and gshmemc++ (C++)
file(RELATIVE_PATH GSHMEM_BIN_TO_PREFIX /p/${CMAKE_INSTALL_BINDIR} /p)
string(REGEX REPLACE "/$" "" GSHMEM_BIN_TO_PREFIX "${GSHMEM_BIN_TO_PREFIX}")
foreach(lang C CXX)
  if(lang STREQUAL "C")
    set(GSHMEM_WRAPPER_NAME gshmemcc)
    set(GSHMEM_WRAPPER_ENV GSHMEMCC_COMPILER)
  else()
    set(GSHMEM_WRAPPER_NAME gshmemc++)
    set(GSHMEM_WRAPPER_ENV GSHMEMCXX_COMPILER)
  endif()
  set(GSHMEM_WRAPPER_LANG ${lang})
  set(GSHMEM_WRAPPER_COMPILER ${CMAKE_${lang}_COMPILER})
  set(GSHMEM_WRAPPER_MPI_COMPILE ${GSHMEM_WRAPPER_MPI_COMPILE_${lang}})
  set(GSHMEM_WRAPPER_MPI_LINK ${GSHMEM_WRAPPER_MPI_LINK_${lang}})
  configure_file(${GSHMEM_PACKAGING_DIR}/gshmem-wrapper.in ${PROJECT_BINARY_DIR}/packaging/${GSHMEM_WRAPPER_NAME}
                 @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/packaging/${GSHMEM_WRAPPER_NAME} DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT devel)
endforeach()

# ---- tools
if(TARGET gshmem-calibrate)
  install(TARGETS gshmem-calibrate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  install(FILES ${PROJECT_SOURCE_DIR}/man/gshmem-calibrate.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
endif()
if(TARGET gshmem-info)
  install(TARGETS gshmem-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  install(FILES ${PROJECT_SOURCE_DIR}/man/gshmem-info.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
endif()

# ---- licence, man pages of the wrappers and the overview, documents
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/man/gshmemcc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT devel)
install(FILES ${PROJECT_SOURCE_DIR}/man/gshmem.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7 COMPONENT devel)
file(CREATE_LINK gshmemcc.1 ${PROJECT_BINARY_DIR}/packaging/gshmemc++.1 SYMBOLIC)
install(FILES ${PROJECT_BINARY_DIR}/packaging/gshmemc++.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT devel)
file(GLOB _gshmem_docs ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${_gshmem_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT devel)

# ---- the OpenSHMEM reference names (oshcc, oshc++, oshCC, oshcxx, oshrun, oshmem_info), as links to gshmem's
# wrappers and gshmem-info, and oshrun, which runs the MPI launcher gshmem was built with. Open MPI installs the same
# names (its own OpenSHMEM): turn this off to install gshmem next to it in one prefix.
option(GSHMEM_INSTALL_OSH_NAMES "Install oshcc, oshc++, oshCC, oshcxx, oshrun and oshmem_info" ON)
if(GSHMEM_INSTALL_OSH_NAMES)
  set(_gshmem_osh_dir ${PROJECT_BINARY_DIR}/packaging/osh)
  file(MAKE_DIRECTORY ${_gshmem_osh_dir})
  foreach(pair oshcc:gshmemcc oshc++:gshmemc++ oshCC:gshmemc++ oshcxx:gshmemc++ oshmem_info:gshmem-info)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 _name)
    list(GET pair 1 _target)
    file(CREATE_LINK ${_target} ${_gshmem_osh_dir}/${_name} SYMBOLIC)
    install(FILES ${_gshmem_osh_dir}/${_name} DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT osh)
  endforeach()
  set(GSHMEM_OSHRUN_LAUNCHER ${MPIEXEC_EXECUTABLE})
  if(NOT GSHMEM_OSHRUN_LAUNCHER)
    set(GSHMEM_OSHRUN_LAUNCHER mpirun)
  endif()
  configure_file(${GSHMEM_PACKAGING_DIR}/oshrun.in ${PROJECT_BINARY_DIR}/packaging/oshrun @ONLY)
  install(PROGRAMS ${PROJECT_BINARY_DIR}/packaging/oshrun DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT osh)
endif()

# ---- example applications (apps/): the programs under <prefix>/libexec/gshmem/apps/{hsg,stencil,bfs}, and
# their sources with the shared header under <prefix>/share/gshmem/apps, whose CMakeLists.txt builds them
# against the installed package: cmake -S <prefix>/share/gshmem/apps -B build -DCMAKE_PREFIX_PATH=<prefix>.
if(TARGET gshmem_app_hsg)
  set(_gshmem_apps_bindir ${CMAKE_INSTALL_LIBEXECDIR}/gshmem/apps)
  file(RELATIVE_PATH _gshmem_apps_to_lib /p/${_gshmem_apps_bindir} /p/${CMAKE_INSTALL_LIBDIR})
  foreach(app hsg stencil bfs)
    set_target_properties(gshmem_app_${app} PROPERTIES INSTALL_RPATH "$ORIGIN/${_gshmem_apps_to_lib}")
    install(TARGETS gshmem_app_${app} RUNTIME DESTINATION ${_gshmem_apps_bindir} COMPONENT apps)
  endforeach()
  foreach(app IN LISTS GSHMEM_BUILT_GPU_APPS)
    set_target_properties(gshmem_app_${app}_gpu PROPERTIES INSTALL_RPATH "$ORIGIN/${_gshmem_apps_to_lib}")
    install(TARGETS gshmem_app_${app}_gpu RUNTIME DESTINATION ${_gshmem_apps_bindir} COMPONENT apps)
  endforeach()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/apps/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gshmem/apps COMPONENT apps
          FILES_MATCHING PATTERN "*.cpp" PATTERN "*.hpp" PATTERN "*.cu" PATTERN "*.cuh" PATTERN "CMakeLists.txt" PATTERN "README.md")
endif()

include(GshmemNvshmemDropin)
include(GshmemPackaging)
