# Fails on an upward #include under a source tree (.h, .hpp, .c, .cpp, .cu, .cuh, .def), and prints how many
# upward includes the tree holds. The layers, lowest first, are
#   base <- transports <- core <- collectives <- api
# A file of layer L may include headers of L and of the layers below. The public API headers (shmem.h, shmemx.h,
# gshmem/...) count as core: base and transports never include them (a transport never calls the public API).
# Exempt: gshmem/version.h (the build's feature macros) and the plain-data type headers
# gshmem/device/impl/*__types.cuh. Includes without a layer prefix (system headers, files next to the includer) are
# not checked.
#
# Inside the core, its folders are ordered the same way, lowest first:
#   select      path selection: cost model, protocol table, selector (no other part of the core)
#   runtime     the process-wide state g_rt, regions and peers, the one-line errors; it calls nothing above it
#   rma         the inline RMA/AMO operations over the state, the remote path, the fault handler
#   sync        barriers and locks over the team slots' cells, agreement checks, the liveness watchdog
#   team        teams and contexts (a split syncs the parent team)
#   memory      the symmetric heap and data segment (allocation is collective: a sync of the world team)
#   protocols   the device data paths: dispatch, staged pipelines, proxy, service thread
#   device      the device heap, its kernels and the stream-ordered calls (over protocols, memory, sync, team)
#   lifecycle   core/lifecycle: init (every part's init phase and its undo) and the entry points over it; and
#               core/api.hpp, the entry points of the layers above (it includes every part's header)
# The public headers count as no core folder (any core file may include them).
#
# The upward includes that remain are listed in ALLOWED ("includer -> included", ARCHITECTURE.md says why each
# stays). Any other upward include fails, and so does an entry that no longer occurs: remove it from the list, so
# the count only goes down. A run over another tree (the lint fixtures) passes -DALLOWED= (none).
#
#   cmake -DSRC=<dir holding base/ transports/ core/ collectives/ api/> [-DALLOWED=<list>] -P check_layers.cmake
if(NOT DEFINED SRC)
  message(FATAL_ERROR "check_layers: give -DSRC=<source tree>")
endif()
get_filename_component(SRC "${SRC}" ABSOLUTE)
set(_layers base transports core collectives api)
set(_core_parts select runtime rma sync team memory protocols device lifecycle)
if(NOT DEFINED ALLOWED)
  set(ALLOWED)
endif()

# Index of the layer that `path` (relative to SRC, or an include name) belongs to, or -1.
function(_layer_of path out)
  set(idx -1)
  if(path STREQUAL "gshmem/version.h" OR path MATCHES "^gshmem/device/impl/[a-z_]+__types\\.cuh$")
    set(idx -1)
  elseif(path MATCHES "^(shmem\\.h|shmemx\\.h|gshmem/)")
    set(idx 2)
  else()
    string(REGEX MATCH "^[a-z_]+/" top "${path}")
    string(REGEX REPLACE "/$" "" top "${top}")
    if(top)
      list(FIND _layers "${top}" idx)
    endif()
  endif()
  set(${out} ${idx} PARENT_SCOPE)
endfunction()

# Index of the core part that `path` (under core/) belongs to, or -1 (outside the core, or a public header).
function(_core_part_of path out)
  set(idx -1)
  if(path STREQUAL "core/api.hpp")
    list(FIND _core_parts lifecycle idx)
  elseif(path MATCHES "^core/([a-z_]+)/")
    list(FIND _core_parts "${CMAKE_MATCH_1}" idx)
  endif()
  set(${out} ${idx} PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE _files RELATIVE ${SRC} ${SRC}/*.h ${SRC}/*.hpp ${SRC}/*.c ${SRC}/*.cpp ${SRC}/*.cu ${SRC}/*.cuh
     ${SRC}/*.def)
list(SORT _files)
set(_bad 0)
set(_known 0)
set(_up 0)
set(_checked 0)
set(_seen)
foreach(f IN LISTS _files)
  _layer_of("${f}" mine)
  if(mine LESS 0)
    continue()
  endif()
  list(GET _layers ${mine} mine_name)
  _core_part_of("${f}" mine_part)
  file(STRINGS ${SRC}/${f} _incs REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line IN LISTS _incs)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" inc "${line}")
    _layer_of("${inc}" theirs)
    math(EXPR _checked "${_checked} + 1")
    set(why "")
    if(theirs GREATER mine)
      list(GET _layers ${theirs} theirs_name)
      set(why "${mine_name} includes ${theirs_name}")
    elseif(mine_part GREATER -1)
      _core_part_of("${inc}" theirs_part)
      if(theirs_part GREATER mine_part)
        list(GET _core_parts ${mine_part} a)
        list(GET _core_parts ${theirs_part} b)
        set(why "core/${a} includes core/${b}")
      endif()
    endif()
    if(why STREQUAL "")
      continue()
    endif()
    set(edge "${f} -> ${inc}")
    list(FIND ALLOWED "${edge}" _i)
    if(_i LESS 0)
      message("upward include: ${f} includes \"${inc}\" (${why})")
      math(EXPR _bad "${_bad} + 1")
      math(EXPR _up "${_up} + 1")
    else()
      message("upward include (listed): ${edge} (${why})")
      list(APPEND _seen "${edge}")
      math(EXPR _known "${_known} + 1")
    endif()
  endforeach()
endforeach()
foreach(edge IN LISTS ALLOWED)
  list(FIND _seen "${edge}" _i)
  if(_i LESS 0)
    message("listed upward include no longer found: ${edge}; remove it from ALLOWED in check_layers.cmake and from "
            "docs/ARCHITECTURE.md")
    math(EXPR _bad "${_bad} + 1")
  endif()
endforeach()
list(LENGTH _files _n)
math(EXPR _total "${_up} + ${_known}")
message("check_layers: ${_total} upward include(s) in ${_n} files under ${SRC} (${_known} listed)")
if(_bad GREATER 0)
  message(FATAL_ERROR "check_layers: ${_bad} problem(s): an upward include that is not listed, or a listed one "
          "that is gone")
endif()
message("check_layers: OK, ${_checked} includes checked")
