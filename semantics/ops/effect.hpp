// What kind of effect each PTX instruction has: the one switch over opcodes that every engine dispatches through
// (issue 33, "one dispatcher on the opcode"). An engine decides per kind how it performs the effect (the interpreter
// on bytes and lanes, the race encoder as symbolic accesses, the litmus builder as events); the meaning inside a kind
// is defined once in semantics/ops (execute.hpp for values, memory_access.hpp and atomic.hpp for memory, warp.hpp
// for lane exchange) or semantics/ir (fence_order, mbarrier_order, cta_barrier_operands).
// Every opcode of semantics/ir/opcodes.def that is not listed here is a value instruction; test_effect.cpp checks
// that against ops::is_value_opcode for every row, so a new opcode must be placed.
#pragma once

#include "semantics/ir/ir.hpp"

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
                 // griddepcontrol, setmaxnreg (register allocation, a warpgroup rendezvous), createpolicy (an opaque
                 // cache-policy value)
};

inline Effect effect_of(ir::Opcode op) {
  using O = ir::Opcode;
  switch (op) {
    case O::ld_: case O::ldu_: case O::st_: case O::atom_: case O::red_: return Effect::memory;
    case O::multimem_: return Effect::multimem;
    case O::cvta_: case O::isspacep_: case O::mapa_: case O::getctarank_: return Effect::address;
    case O::cp_: return Effect::async_copy;
    case O::tensormap_: return Effect::tensormap;
    case O::tex_: case O::tld4_: case O::txq_: case O::istypep_: case O::suld_: case O::sust_: case O::sured_: case O::suq_:
      return Effect::texture;
    case O::bra_: case O::brx_: case O::call_: case O::ret_: case O::exit_: case O::trap_: return Effect::control;
    case O::membar_: case O::fence_: return Effect::fence;
    case O::bar_: case O::barrier_: return Effect::barrier;
    case O::shfl_: case O::vote_: case O::match_: case O::activemask_: case O::redux_: case O::elect_: return Effect::warp;
    case O::mbarrier_: return Effect::mbarrier;
    case O::clusterlaunchcontrol_: return Effect::cluster_launch_control;
    case O::mma_: case O::wmma_: case O::ldmatrix_: case O::stmatrix_: case O::movmatrix_: case O::wgmma_: case O::tcgen05_:
      return Effect::matrix;
    case O::alloca_: case O::stacksave_: case O::stackrestore_: return Effect::stack;
    case O::nanosleep_: case O::prefetch_: case O::prefetchu_: case O::applypriority_: case O::discard_: case O::pmevent_:
    case O::brkpt_: case O::griddepcontrol_: case O::setmaxnreg_: case O::createpolicy_:
      return Effect::hint;
    default: break;
  }
  return Effect::value;
}

}  // namespace ptx::ops
