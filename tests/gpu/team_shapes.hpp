// Team shapes for the GPU team tests: each splits the world (NVSHMEM names for some, the OpenSHMEM splits plus
// gshmemx_team_id for others) and says what this PE's team must be. Every PE calls make() with the same shape.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <gshmem/nvshmem_compat.h>

#include <string>

namespace gshmem_test {

enum class Shape { Even, OddReversed, ReversedWorld, Single, Pairs, Columns, Node };

inline std::string shapeName(Shape s) {
  switch (s) {
    case Shape::Even: return "Even";
    case Shape::OddReversed: return "OddReversed";
    case Shape::ReversedWorld: return "ReversedWorld";
    case Shape::Single: return "Single";
    case Shape::Pairs: return "Pairs";
    case Shape::Columns: return "Columns";
    case Shape::Node: return "Node";
  }
  return "?";
}

/// This PE's team of a shape: its id (NVSHMEM_TEAM_INVALID when not a member) and the members it must have
/// (world PE of member k = start + k * stride).
struct ShapeTeam {
  gshmem_team_t id = NVSHMEM_TEAM_INVALID;
  int start = 0, stride = 1, size = 0, my_index = -1;
  bool destroy = false;  ///< made by a split: destroy() releases it
  gshmem_team_t other = NVSHMEM_TEAM_INVALID;  ///< the other team of a 2-D split, destroyed with it
  int pe(int k) const { return start + k * stride; }
  bool member() const { return id != NVSHMEM_TEAM_INVALID; }
};

/// Whether the shape can be formed at @p npes (else the test skips on every PE): the odd PEs need two PEs; every
/// other shape exists at any count (some as teams of one).
inline bool shapeFormable(Shape s, int npes) { return s != Shape::OddReversed || npes >= 2; }

/// Collective over the world: make the shape's team (nothing for Node, a predefined team).
inline ShapeTeam shapeMake(Shape s, int me, int npes) {
  ShapeTeam t;
  shmem_team_t st = SHMEM_TEAM_INVALID;
  switch (s) {
    case Shape::Even:  // members 0, 2, 4, ...
      t.start = 0, t.stride = 2, t.size = (npes + 1) / 2;
      nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 2, t.size, nullptr, 0, &t.id);
      t.destroy = true;
      break;
    case Shape::OddReversed: {  // the odd PEs, highest first
      const int last = (npes % 2 == 0) ? npes - 1 : npes - 2;
      t.start = last, t.stride = -2, t.size = npes / 2;
      shmem_team_split_strided(SHMEM_TEAM_WORLD, last, -2, t.size, nullptr, 0, &st);
      t.id = st != SHMEM_TEAM_INVALID ? gshmemx_team_id(st) : NVSHMEM_TEAM_INVALID;
      t.destroy = true;
      break;
    }
    case Shape::ReversedWorld:
      t.start = npes - 1, t.stride = -1, t.size = npes;
      nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, npes - 1, -1, npes, nullptr, 0, &t.id);
      t.destroy = true;
      break;
    case Shape::Single:  // rows of one PE: every PE alone
      t.start = me, t.stride = 1, t.size = 1;
      nvshmem_team_split_2d(NVSHMEM_TEAM_WORLD, 1, nullptr, 0, &t.id, nullptr, 0, &t.other);
      t.destroy = true;
      break;
    case Shape::Pairs:  // rows of two: {0, 1}, {2, 3}, ...
    case Shape::Columns: {  // the columns of the same grid: {0, 2, ...}, {1, 3, ...}
      gshmem_team_t x = NVSHMEM_TEAM_INVALID, y = NVSHMEM_TEAM_INVALID;
      nvshmem_team_split_2d(NVSHMEM_TEAM_WORLD, 2, nullptr, 0, &x, nullptr, 0, &y);
      if (s == Shape::Pairs) {
        t.start = me / 2 * 2, t.stride = 1, t.size = npes - t.start < 2 ? npes - t.start : 2;
        t.id = x, t.other = y;
      } else {
        t.start = me % 2, t.stride = 2, t.size = (npes - t.start + 1) / 2;
        t.id = y, t.other = x;
      }
      t.destroy = true;
      break;
    }
    case Shape::Node:
      t.id = NVSHMEMX_TEAM_NODE;
      st = gshmemx_team_from_id(NVSHMEMX_TEAM_NODE);
      t.size = shmem_team_n_pes(st);
      t.start = shmem_team_translate_pe(st, 0, SHMEM_TEAM_WORLD);
      t.stride = t.size > 1 ? shmem_team_translate_pe(st, 1, SHMEM_TEAM_WORLD) - t.start : 1;
      break;
  }
  if (t.member()) {
    const int rel = me - t.start;
    t.my_index = t.size == 1 ? 0 : rel / t.stride;
  }
  return t;
}

/// Every PE calls it; the members of each team destroy it together (2-D: the row first, then the column).
inline void shapeDestroy(const ShapeTeam& t) {
  if (!t.destroy) return;
  if (t.id != NVSHMEM_TEAM_INVALID) nvshmem_team_destroy(t.id);
  if (t.other != NVSHMEM_TEAM_INVALID) nvshmem_team_destroy(t.other);
}

}  // namespace gshmem_test
