# Fails on an upward #include under a source tree: the layers, lowest first, are
#   base <- transports <- core <- collectives <- api
# (core/device and core/protocols are core). A file of layer L may include headers of L and of the layers below.
# The public API headers (shmem.h, shmemx.h, gshmem/...) count as core: base and transports never include them (a
# transport never calls the public API). Exempt: gshmem/version.h (the build's feature macros) and the plain-data
# type headers gshmem/device/impl/*__types.cuh. Includes without a layer prefix (system headers, files next to the
# includer) are not checked.
#
#   cmake -DSRC=<dir holding base/ transports/ core/ collectives/ api/> -P check_layers.cmake
if(NOT DEFINED SRC)
  message(FATAL_ERROR "check_layers: give -DSRC=<source tree>")
endif()
get_filename_component(SRC "${SRC}" ABSOLUTE)
set(_layers base transports core collectives api)

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

file(GLOB_RECURSE _files RELATIVE ${SRC} ${SRC}/*.h ${SRC}/*.hpp ${SRC}/*.c ${SRC}/*.cpp ${SRC}/*.cu ${SRC}/*.cuh
     ${SRC}/*.def)
set(_bad 0)
set(_checked 0)
foreach(f IN LISTS _files)
  _layer_of("${f}" mine)
  if(mine LESS 0)
    continue()
  endif()
  list(GET _layers ${mine} mine_name)
  file(STRINGS ${SRC}/${f} _incs REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  foreach(line IN LISTS _incs)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" inc "${line}")
    _layer_of("${inc}" theirs)
    math(EXPR _checked "${_checked} + 1")
    if(theirs GREATER mine)
      list(GET _layers ${theirs} theirs_name)
      message("upward include: ${f} (${mine_name}) includes \"${inc}\" (${theirs_name})")
      math(EXPR _bad "${_bad} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH _files _n)
if(_bad GREATER 0)
  message(FATAL_ERROR "check_layers: ${_bad} upward include(s) in ${_n} files under ${SRC}")
endif()
message("check_layers: OK, ${_checked} includes in ${_n} files, none upward")
