// ISA 9.0 8.5, Table 21, written out by hand: for each scope a thread may specify and each place of another thread
// relative to it, whether the scope includes that thread. The tests of both consumers of semantics/ir/scope.hpp
// (the litmus engine: tests/unit/memmodel/test_scope.cpp; the race checker: tests/unit/race/test_scope.cpp) check
// their answers against it.
#pragma once

#include "semantics/ir/types.hpp"

#include <array>
#include <cstddef>

namespace scope_table {

// The places of the other thread, nearest first.
enum Relation : std::size_t { same_cta, same_cluster_other_cta, same_gpu_other_cluster, other_gpu };
inline constexpr std::array<const char*, 4> relation_names{"same CTA", "same cluster, other CTA",
                                                           "same GPU, other cluster", "other GPU"};
inline constexpr std::array<ptx::ir::Scope, 4> scopes{ptx::ir::Scope::cta, ptx::ir::Scope::cluster, ptx::ir::Scope::gpu,
                                                      ptx::ir::Scope::sys};
inline constexpr std::array<const char*, 4> scope_names{"cta", "cluster", "gpu", "sys"};

// includes[scope][relation]. ".cta: the set of all threads executing in the same CTA as the current thread";
// ".cluster: ... in the same cluster"; ".gpu: ... in the current program executing on the same compute device";
// ".sys: ... in the current program, including all kernel grids ... on all compute devices".
inline constexpr std::array<std::array<bool, 4>, 4> includes{{
    //  same CTA  same cluster  same GPU  other GPU
    {{true, false, false, false}},  // .cta
    {{true, true, false, false}},   // .cluster
    {{true, true, true, false}},    // .gpu
    {{true, true, true, true}},     // .sys
}};

}  // namespace scope_table
