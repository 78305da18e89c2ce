// Which instructions the interpreter's fast path runs (fast.cpp), asked from outside the machine: the forms it
// takes, by kind, so that a test can cross-check every one of them against semantics/ops (the general path).
#pragma once

#include "semantics/ir/ir.hpp"

#include <cstdint>
#include <vector>

namespace ptx::interp {

// The fast forms: integer add/sub/mul.lo/mad.lo/mul.wide, logic, shifts, mov, setp, selp, integer cvt; f32
// add/sub/mul/fma in round-to-nearest; scalar ld/st; mov from a special register or a variable's address.
enum class FastKind : std::uint8_t {
  none, add, sub, mul_lo, mad_lo, mul_wide_u, mul_wide_s, and_, or_, xor_, not_, shl, shr_u, shr_s, mov, setp, selp,
  cvt_zext, cvt_sext, cvt_trunc, fadd32, fsub32, fmul32, ffma32, ld, st,
  mov_read  // mov from a special register or a variable's address: Machine::read per lane
};
const char* fast_kind_name(FastKind k);

// Machine::plan_fast's decision for each instruction of `fn`, made as a launch with Options::fast_path (and no
// observer) makes it: the fast form it runs as, FastKind::none where exec_lane (semantics/ops) runs it.
std::vector<FastKind> fast_path_plan(const ir::Function& fn);

}  // namespace ptx::interp
