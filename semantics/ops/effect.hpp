// What kind of effect each PTX instruction has: the one switch over opcodes that every engine dispatches through
// (issue 33, "one dispatcher on the opcode"). An engine decides per kind how it performs the effect (the interpreter
// on bytes and lanes, the race encoder as symbolic accesses, the litmus builder as events); the meaning inside a kind
// is defined once in semantics/ops (execute.hpp for values, memory_access.hpp and atomic.hpp for memory, warp.hpp
// for lane exchange) or semantics/ir (fence_order, mbarrier_order, cta_barrier_operands).
// Each opcode's kind is a column of semantics/ir/opcodes.def, so a new opcode is placed where it is declared;
// test_effect.cpp checks the column against ISA 9.7's grouping and sections.
#pragma once

#include "semantics/ir/ir.hpp"

#include <cstddef>
#include <cstdint>

namespace ptx::ops {

enum class Effect : std::uint8_t {
  value,         // registers from registers (9.7.1-9.7.9 value forms, 9.7.18): ops::execute_value
  memory,        // ld, ldu, st, atom, red (9.7.9.8-13, 9.7.13.5-7): ops::memory_access
  multimem,      // multimem.* (9.7.9.14): memory of several devices
  address,       // cvta, isspacep, mapa, getctarank (9.7.9.17-24): addresses of state spaces and CTAs
  async_copy,    // cp.async*, cp.reduce.async.bulk*, their groups (9.7.9.25)
  tensormap,     // tensormap.replace, tensormap.cp_fenceproxy (9.7.9.26, 9.7.13.16)
  texture,       // tex, tld4, txq, istypep, suld, sust, sured, suq (9.7.10-11)
  control,       // bra, brx, call, ret, exit (9.7.12), trap (9.7.19)
  fence,         // membar, fence (9.7.13.4): ir::fence_order
  barrier,       // bar, barrier (9.7.13.1-3): CTA, named, warp and cluster barriers
  warp,          // shfl, vote, match, activemask, redux, elect (9.7.9.6, 9.7.13.8-13): ops/warp.hpp
  mbarrier,      // mbarrier.* (9.7.13.15): ir::mbarrier_order
  cluster_launch_control,  // clusterlaunchcontrol.* (9.7.13.17-18)
  matrix,        // mma, wmma, ldmatrix, stmatrix, movmatrix, wgmma, tcgen05 (9.7.14-16)
  stack,         // alloca, stacksave, stackrestore (9.7.17)
  hint,          // no effect on memory or other values: nanosleep, prefetch(u), applypriority, discard, pmevent, brkpt,
                 // griddepcontrol, setmaxnreg (register allocation; the warp waits for its lanes), createpolicy (an opaque
                 // cache-policy value)
};

// The `effect` column of semantics/ir/opcodes.def, one row per opcode.
inline Effect effect_of(ir::Opcode op) {
  static constexpr Effect kEffects[] = {
#define PTX_OPCODE(name, min_ops, max_ops, group, effect) Effect::effect,
#include "semantics/ir/opcodes.def"
#undef PTX_OPCODE
  };
  return kEffects[static_cast<std::size_t>(op)];
}

}  // namespace ptx::ops
