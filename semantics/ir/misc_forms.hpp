// The form rules of the miscellaneous, stack and control forms the builder checks beyond the generic operand checks:
// setmaxnreg's immediate (ISA 9.7.19.5), alloca's alignment (9.7.17.3), the memory-order qualifier each memory and
// synchronization instruction accepts.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why `setmaxnreg.action.sync.aligned.u32 imm-reg-count` is malformed (empty when it is not): .action is .inc or
// .dec, .sync and .aligned are mandatory, and imm-reg-count is an integer constant in 24..256, a multiple of 8.
std::string setmaxnreg_error(const Instruction& in);

// Why a CTA barrier's immediate operands are out of range (empty when they are not, or are registers): the barrier
// 0 through 15, a thread count a multiple of the warp size, non-zero for `.arrive` (9.7.13.1).
std::string barrier_operand_error(const Instruction& in);

// Why `alloca.type ptr, size{, immAlign}`, `stacksave.type d` or `stackrestore.type a` is malformed (empty when it is
// not): .type is .u32 or .u64 (9.7.17.1-3); immAlign "is an integer constant, must be a power of 2 and must not
// exceed 2^23" (9.7.17.3).
std::string stack_form_error(const Instruction& in);

// Why the instruction's memory-order qualifier (.weak .relaxed .acquire .release .acq_rel .sc .volatile .mmio) is
// not one its syntax lists (empty when it is, or when it names none): ld {.weak .relaxed .acquire .volatile .mmio}
// (9.7.9.8), st {.weak .relaxed .release .volatile .mmio} (9.7.9.10), atom {.relaxed .acquire .release .acq_rel}
// (9.7.13.5), red {.relaxed .release} (9.7.13.6), fence {.sc .acq_rel .acquire .release} (9.7.13.4),
// mbarrier.arrive and arrive_drop {.release .relaxed} (.noComplete {.release}), test_wait/try_wait {.acquire
// .relaxed}, expect_tx and complete_tx {.relaxed}, init, inval and pending_count none (9.7.13.15.9-17),
// barrier.cluster.arrive {.release .relaxed} and .wait {.acquire} (9.7.13.3). ptxas refuses the others (e.g.
// `red.acq_rel`, `ld.release`); the engines would otherwise read a release or acquire the spec does not give.
std::string memory_order_error(const Instruction& in);

// Why an ld or st pairs its memory order and scope in a way its syntax does not (empty when it does): a scope only
// with .relaxed or .acquire (ld) / .release (st) (`ld.relaxed.scope`, 9.7.9.8; `st.release.scope`, 9.7.9.10), so
// .weak and .volatile take none; .mmio only as `.mmio.relaxed.sys{.global}`. A .relaxed without its scope is let
// through (the text's own 9.7.16.11.1 example writes one). .volatile, .relaxed, .acquire and
// .release only on .global, .shared or generic addresses and without a cache operation; .nc only as
// ld.global{.cop}.nc without a memory order (9.7.9.9). st.async and st.bulk (9.7.9.12-13) are not checked here.
std::string access_scope_error(const Instruction& in);

// Why an integer mul, mad, mul24, mad24, mad.cc or madc lacks its mode or has two (empty when it has one): `.mode =
// { .hi, .lo, .wide }` (9.7.1.3-4), `{ .hi, .lo }` for the 24-bit forms (9.7.1.5-6), mad.cc and madc
// (9.7.2.5-6). The mode is not optional in any of these syntax lines; the floating-point forms take none.
std::string integer_mode_error(const Instruction& in);

// Why a cvta or isspacep does not name exactly one of its state spaces (empty when it does): `.space = { .const,
// .global, .local, .shared{::cta, ::cluster}, .param{::entry} }` (9.7.9.19-20), written in every syntax line.
std::string address_space_form_error(const Instruction& in);

// Why a cvt.pack is no form of 9.7.9.22 (empty when it is, or for another instruction): `cvt.pack.sat.convertType.s32
// d, a, b` with .convertType .u16/.s16, or with .u2/.s2/.u4/.s4/.u8/.s8 `...s32.b32 d, a, b, c` (ir::cvt_pack_form).
std::string cvt_pack_error(const Instruction& in);

}  // namespace ptx::ir
