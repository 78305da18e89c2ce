// Instructions whose qualifier words the ISA's syntax lines fix completely (semantics/ir/syntax_forms.def): which
// words, in which order, which are optional. And one rule every syntax line of chapter 9.7 keeps: the types come
// after the memory order, scope, state space, `.sync` and `.aligned`.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why the instruction is written as none of the syntax lines syntax_forms.def gives for it (empty when it matches
// one, or when the table has no line for its form): `tex.1d.s32.s32` (no `.v4`), `ldmatrix.sync.aligned.m8n8.x4
// .shared.b16.f32` (a second type), `szext.u32` (no mode). The words may come in another order than the line's
// (ptxas takes them so); each is used once.
std::string syntax_form_error(const Instruction& in);

// Why a memory order, scope, state space, `.sync` or `.aligned` follows a type word (`ld.global.u32.acquire`,
// `mbarrier.try_wait.shared::cta.b64.relaxed`): no syntax line of ISA 9.0 chapter 9.7 writes one there.
std::string word_order_error(const Instruction& in);

}  // namespace ptx::ir
