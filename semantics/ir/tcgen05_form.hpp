// The qualifiers each tcgen05 operation requires and admits (ISA 9.7.16.7-12): alloc, dealloc and
// relinquish_alloc_permit name a .cta_group and .sync.aligned; ld and st .sync.aligned, a shape and a .num (ld.red a
// .min / .max); wait::ld / wait::st .sync.aligned; cp a .cta_group and a shape; shift a .cta_group and .down; mma a
// .cta_group and a .kind (.block_scale exactly with the .kind::mxf* kinds); commit a .cta_group and
// .mbarrier::arrive::one; the fences nothing else. The IR checker's error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why a tcgen05 instruction's qualifiers are no form of its syntax block, or "" (also for other opcodes).
std::string tcgen05_form_error(const Instruction& in);

}  // namespace ptx::ir
