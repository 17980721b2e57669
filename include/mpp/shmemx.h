/* <mpp/shmemx.h>: the extensions header under its older path; gshmem's <shmemx.h>. */
#ifndef GSHMEM_MPP_SHMEMX_H
#define GSHMEM_MPP_SHMEMX_H
#include "../shmemx.h"
#endif
