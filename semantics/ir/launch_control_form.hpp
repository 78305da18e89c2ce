// The forms of clusterlaunchcontrol (ISA 9.7.13.17-18): try_cancel `.async{.shared::cta}.mbarrier::complete_tx::bytes
// {.multicast::cluster::all}.b128`; query_cancel `.is_canceled.pred.b128`, `.get_first_ctaid.v4.b32.b128` and
// `.get_first_ctaid{::x, ::y, ::z}.b32.b128`. The IR checker's error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why a clusterlaunchcontrol instruction is no form of 9.7.13.17-18, or "" (also for other opcodes).
std::string launch_control_form_error(const Instruction& in);

}  // namespace ptx::ir
