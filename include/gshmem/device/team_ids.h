/* Team ids: a team as device code names it (gshmem_team_t), a small integer that means the same team on the host
 * (gshmemx_team_id / gshmemx_team_from_id in <shmemx.h>) and on the device (DeviceHandle::teams), and on every
 * member of the team. C and C++; included by the device API and by gshmem/nvshmem_compat.h.
 *   - GSHMEM_TEAM_WORLD: every PE.
 *   - GSHMEM_TEAM_SHARED: SHMEM_TEAM_SHARED, the PEs whose symmetric heap this PE maps (the PEs of the node unless
 *     GSHMEM_TRANSPORTS=ucx); only this PE when they are not a strided set.
 *   - GSHMEMX_TEAM_NODE: the PEs of this node; only this PE when they are not a strided set.
 *   - GSHMEMX_TEAM_SAME_MYPE_NODE: the PEs whose index among their node's PEs is this PE's (one per node); only
 *     this PE when they are not a strided set.
 *   - ids from GSHMEMI_TEAM_FIRST_USER up to GSHMEMI_TEAM_IDS - 1: teams made by a split (the team's
 *     synchronization slot, which every member agrees on when the team is made). With GSHMEM_MAX_TEAMS above 64 a
 *     split may give a higher id: the host knows that team, device code does not. An id is reused once its team is
 *     destroyed; teams with no common member may hold the same id at the same time. */
#ifndef GSHMEM_DEVICE_TEAM_IDS_H
#define GSHMEM_DEVICE_TEAM_IDS_H
#include <stdint.h>

typedef int32_t gshmem_team_t;
#define GSHMEM_TEAM_INVALID (-1)
#define GSHMEM_TEAM_WORLD 0
#define GSHMEM_TEAM_SHARED 1
#define GSHMEMX_TEAM_NODE 2
#define GSHMEMX_TEAM_SAME_MYPE_NODE 3
#define GSHMEMI_TEAM_FIRST_USER 4 /* the first id a split can give */
#define GSHMEMI_TEAM_IDS 64       /* device ids are below this; host slots from here up (GSHMEM_MAX_TEAMS > 64) are
                                     host-only teams */

#endif /* GSHMEM_DEVICE_TEAM_IDS_H */
