/* What cmake/GshmemPshmem.cmake preprocesses: the C API whose routines get profiling names. */
#include <shmem.h>
#include <shmemx.h>
