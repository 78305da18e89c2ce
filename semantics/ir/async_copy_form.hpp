// The qualifiers of the cp.async family (ISA 9.7.9.25): every form writes .async; the non-bulk copy (9.7.9.25.3.1)
// names .ca or .cg and the spaces .shared{::cta}.global; the group controls (9.7.9.25.3.2-3, 9.7.9.25.4.3-4) name
// no space; a non-tensor cp.async.bulk copy (9.7.9.25.4.1) names one of its four destination / source pairs with
// that pair's completion mechanism, .multicast::cluster only from global to shared::cluster; only
// cp.reduce.async.bulk{.tensor} and cp.async.mbarrier.arrive (.b64, 9.7.13.15.15) take a type. The IR checker's
// error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why a cp instruction's qualifiers are no form of 9.7.9.25's syntax blocks, or "" (also for other opcodes).
std::string async_copy_form_error(const Instruction& in);

}  // namespace ptx::ir
