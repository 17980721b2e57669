# Fails when a source file under src/ outside src/api declares or defines something `extern "C"`: every C entry
# point of libgshmem.so (and the data objects of the public headers) lives in src/api, a thin wrapper over the C++
# of the layers below. The public headers under include/ keep their own `extern "C"` blocks. Comment lines that
# name it are not counted.
#
#   cmake -DSRC=<dir holding base/ transports/ core/ collectives/ api/> -P check_extern_c.cmake
if(NOT DEFINED SRC)
  message(FATAL_ERROR "check_extern_c: give -DSRC=<source tree>")
endif()
get_filename_component(SRC "${SRC}" ABSOLUTE)
file(GLOB_RECURSE _files RELATIVE ${SRC} ${SRC}/*.h ${SRC}/*.hpp ${SRC}/*.c ${SRC}/*.cpp ${SRC}/*.cu ${SRC}/*.cuh
     ${SRC}/*.def ${SRC}/*.inc)
list(SORT _files)
set(_bad 0)
foreach(f IN LISTS _files)
  if(f MATCHES "^api/")
    continue()
  endif()
  file(STRINGS ${SRC}/${f} _lines REGEX "extern[ \t]*\"C\"")
  foreach(line IN LISTS _lines)
    # Code, not a comment: no // or /* before it, and not a continuation line of a block comment.
    if(line MATCHES "^[ \t]*\\*" OR NOT line MATCHES "^([^/]|/[^/*])*extern[ \t]*\"C\"")
      continue()
    endif()
    string(STRIP "${line}" line)
    message("extern \"C\" outside src/api: ${f}: ${line}")
    math(EXPR _bad "${_bad} + 1")
  endforeach()
endforeach()
list(LENGTH _files _n)
if(_bad GREATER 0)
  message(FATAL_ERROR "check_extern_c: ${_bad} extern \"C\" line(s) outside src/api in ${_n} files under ${SRC}: move "
          "the entry point to src/api as a wrapper over a C++ function of its layer")
endif()
message("check_extern_c: OK, ${_n} files, extern \"C\" only in src/api")
