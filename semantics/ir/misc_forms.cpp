// The form rules of misc_forms.hpp, each from its instruction's section of ISA 9.0 chapter 9.7.
#include "semantics/ir/misc_forms.hpp"

#include "semantics/ir/types.hpp"
#include "semantics/ir/word_sets.hpp"

#include <algorithm>
#include <initializer_list>

namespace ptx::ir {

std::string setmaxnreg_error(const Instruction& in) {
  // ISA 9.7.19.5: setmaxnreg.action.sync.aligned.u32 imm-reg-count; .action = { .inc, .dec }.
  const bool inc = in.q.has(Flag::maxnreg_inc), dec = in.q.has(Flag::maxnreg_dec);
  if (inc == dec) return "'setmaxnreg' needs exactly one of .inc and .dec (ISA 9.7.19.5)";
  if (!in.q.has(Flag::sync) || !in.q.has(Flag::aligned)) return "'setmaxnreg' needs .sync and .aligned (ISA 9.7.19.5)";
  if (in.q.types.size() != 1 || in.q.types[0].scalar != ScalarType::u32) return "'setmaxnreg' takes the type .u32 (ISA 9.7.19.5)";
  if (in.operands.size() != 1 || in.operands[0].kind != Operand::Kind::Immediate)
    return "the register count of 'setmaxnreg' must be an integer constant (ISA 9.7.19.5)";
  // "The value of imm-reg-count must be in the range 24 to 256 (both inclusive) and must be a multiple of 8."
  const auto n = static_cast<std::int64_t>(in.operands[0].imm);
  if (n < 24 || n > 256 || n % 8 != 0)
    return "the register count of 'setmaxnreg' is " + std::to_string(n) + "; it must be in 24..256 and a multiple of 8 (ISA 9.7.19.5)";
  return {};
}

std::string barrier_operand_error(const Instruction& in) {
  const auto ops = cta_barrier_operands(in);
  if (!ops || ops->name >= in.operands.size()) return {};
  // ISA 9.7.13.1: "Source operand a specifies a logical barrier resource as an immediate constant or register with
  // value 0 through 15 ... When specifying a thread count, the value must be a multiple of the warp size. Note that a
  // non-zero thread count is required for barrier{.cta}.arrive." Immediates are checked here, registers when run.
  const Operand& a = in.operands[ops->name];
  if (a.kind == Operand::Kind::Immediate && (a.imm < 0 || a.imm > 15))
    return "barrier " + std::to_string(a.imm) + " of '" + opcode_text(in) + "' is outside 0 through 15 (ISA 9.7.13.1)";
  if (ops->count < 0) return {};
  const Operand& b = in.operands[static_cast<std::size_t>(ops->count)];
  if (b.kind != Operand::Kind::Immediate) return {};
  if (b.imm < 0 || b.imm % 32 != 0)
    return "the thread count " + std::to_string(b.imm) + " of '" + opcode_text(in) + "' is not a multiple of the warp size (ISA 9.7.13.1)";
  if (b.imm == 0 && in.q.has(Flag::arrive))
    return "'" + opcode_text(in) + "' needs a non-zero thread count (ISA 9.7.13.1)";
  return {};
}

std::string stack_form_error(const Instruction& in) {
  const std::string name = opcode_name(in.op);
  if (in.q.types.size() != 1 || (in.q.types[0].scalar != ScalarType::u32 && in.q.types[0].scalar != ScalarType::u64))
    return "'" + name + "' takes the type .u32 or .u64 (ISA 9.7.17)";
  if (in.op != Opcode::alloca_ || in.operands.size() < 3) return {};
  const Operand& align = in.operands[2];
  if (align.kind != Operand::Kind::Immediate || align.imm == 0 || (align.imm & (align.imm - 1)) != 0 || align.imm > (1u << 23))
    return "the alignment of 'alloca' must be an integer constant, a power of 2 not above 2^23 (ISA 9.7.17.3)";
  return {};
}

std::string memory_order_error(const Instruction& in) {
  if (!in.q.semantics) return {};
  using M = MemorySemantics;
  const M sem = *in.q.semantics;
  auto among = [sem](std::initializer_list<M> allowed) { return std::find(allowed.begin(), allowed.end(), sem) != allowed.end(); };
  bool ok = true;
  const char* where = "";
  switch (in.op) {
    case Opcode::ld_: ok = among({M::weak, M::relaxed, M::acquire, M::volatile_, M::mmio}), where = "ld (ISA 9.7.9.8)"; break;
    case Opcode::st_: ok = among({M::weak, M::relaxed, M::release, M::volatile_, M::mmio}), where = "st (ISA 9.7.9.10)"; break;
    case Opcode::atom_: ok = among({M::relaxed, M::acquire, M::release, M::acq_rel}), where = "atom (ISA 9.7.13.5)"; break;
    case Opcode::red_: ok = among({M::relaxed, M::release}), where = "red (ISA 9.7.13.6)"; break;
    case Opcode::fence_: ok = among({M::sc, M::acq_rel, M::acquire, M::release}), where = "fence (ISA 9.7.13.4)"; break;
    case Opcode::mbarrier_:  // each operation's .sem set (9.7.13.15.9-17); init, inval and pending_count have none
      switch (mbarrier_op(in)) {
        case MbarrierOp::arrive:
          if (in.q.has_word("noComplete")) ok = among({M::release}), where = "mbarrier.arrive.noComplete (ISA 9.7.13.15.13-14)";
          else ok = among({M::release, M::relaxed}), where = "mbarrier.arrive (ISA 9.7.13.15.13-14)";
          break;
        case MbarrierOp::wait: ok = among({M::acquire, M::relaxed}), where = "mbarrier.test_wait/try_wait (ISA 9.7.13.15.16)"; break;
        case MbarrierOp::expect_tx: ok = among({M::relaxed}), where = "mbarrier.expect_tx (ISA 9.7.13.15.11)"; break;
        case MbarrierOp::complete_tx: ok = among({M::relaxed}), where = "mbarrier.complete_tx (ISA 9.7.13.15.12)"; break;
        case MbarrierOp::init: ok = false, where = "mbarrier.init (ISA 9.7.13.15.9)"; break;
        case MbarrierOp::inval: ok = false, where = "mbarrier.inval (ISA 9.7.13.15.10)"; break;
        case MbarrierOp::pending_count: ok = false, where = "mbarrier.pending_count (ISA 9.7.13.15.17)"; break;
        default: break;
      }
      break;
    case Opcode::barrier_:
      if (is_cluster_barrier(in) && in.q.has(Flag::arrive)) ok = among({M::release, M::relaxed}), where = "barrier.cluster.arrive (ISA 9.7.13.3)";
      else if (is_cluster_barrier(in)) ok = among({M::acquire}), where = "barrier.cluster.wait (ISA 9.7.13.3)";
      break;
    default: break;
  }
  if (ok) return {};
  return std::string("'.") + memory_semantics_name(sem) + "' is no memory-order qualifier of " + where;
}

std::string access_scope_error(const Instruction& in) {
  if ((in.op != Opcode::ld_ && in.op != Opcode::st_) || in.q.has(Flag::async) || in.q.has(Flag::bulk)) return {};
  using M = MemorySemantics;
  const bool ld = in.op == Opcode::ld_;
  const char* where = ld ? "ld (ISA 9.7.9.8)" : "st (ISA 9.7.9.10)";
  const std::string text = opcode_text(in);
  const bool mmio = in.q.has_word("mmio");
  if (mmio) {
    // ld.mmio.relaxed.sys{.global}.type / st.mmio.relaxed.sys{.global}.type
    const bool ok = in.q.has_word("relaxed") && in.q.scope == Scope::sys && in.q.space.value_or(StateSpace::global) == StateSpace::global;
    return ok ? std::string() : "'" + text + "': .mmio is written .mmio.relaxed.sys{.global} in " + where;
  }
  const M sem = in.q.semantics.value_or(M::weak);
  const bool ordered = sem == M::relaxed || sem == (ld ? M::acquire : M::release);
  // A missing scope is not refused: the syntax writes `ld.relaxed.scope`, but the text's own example in 9.7.16.11.1
  // writes `st.relaxed.b32 [flag], 1;` (ptxas refuses it). The engines take it at .sys (memory_order.hpp).
  if (!ordered && in.q.scope)
    return "'" + text + "': a .scope goes only with .relaxed or " + (ld ? ".acquire" : ".release") + " in " + where;
  // "The qualifiers .volatile, .relaxed and .acquire [.release] may be used only with .global and .shared spaces and
  // with generic addressing ... Cache operations are not permitted with these qualifiers."
  if (ordered || sem == M::volatile_) {
    const auto space = in.q.space;
    if (space && *space != StateSpace::global && *space != StateSpace::shared && *space != StateSpace::shared_cluster)
      return "'" + text + "': ." + memory_semantics_name(sem) + " goes only with .global, .shared or generic addressing in " + where;
    for (const char* cop : {"ca", "cg", "cs", "lu", "cv", "wb", "wt"})
      if (in.q.has_word(cop)) return "'" + text + "': no cache operation goes with ." + memory_semantics_name(sem) + " in " + where;
  }
  // ld.global{.cop}.nc (9.7.9.9): .nc only on .global, without a memory order.
  if (ld && in.q.has_word("nc") && (in.q.space != StateSpace::global || (in.q.semantics && sem != M::weak)))
    return "'" + text + "': .nc is written ld.global{.cop}.nc, without a memory order (ISA 9.7.9.9)";
  return {};
}

std::string integer_mode_error(const Instruction& in) {
  const char* section = nullptr;
  switch (in.op) {
    case Opcode::mul_: section = "9.7.1.3"; break;
    case Opcode::mad_: section = in.q.has(Flag::cc) ? "9.7.2.5" : "9.7.1.4"; break;
    case Opcode::mul24_: section = "9.7.1.5"; break;
    case Opcode::mad24_: section = "9.7.1.6"; break;
    case Opcode::madc_: section = "9.7.2.6"; break;
    default: return {};
  }
  if (in.q.types.size() != 1 || !is_integer(in.q.types[0].scalar)) return {};
  const bool narrow = in.op == Opcode::mul24_ || in.op == Opcode::mad24_ || in.op == Opcode::madc_ || in.q.has(Flag::cc);
  const int modes = int(in.q.has(Flag::hi)) + int(in.q.has(Flag::lo)) + int(!narrow && in.q.has(Flag::wide));
  if (modes == 1 && !(narrow && in.q.has(Flag::wide))) return {};
  return "'" + opcode_text(in) + "' needs one mode of " + (narrow ? ".hi and .lo" : ".hi, .lo and .wide") + " (ISA " + section + ")";
}

std::string address_space_form_error(const Instruction& in) {
  if (in.op != Opcode::cvta_ && in.op != Opcode::isspacep_) return {};
  unsigned spaces = 0;  // (a second one is the IR checker's qualifier-class rule)
  for (const auto& w : in.q.words) {
    const bool listed = w == "const" || w == "global" || w == "local" || w == "shared" || w == "shared::cta" ||
                        w == "shared::cluster" || w == "param" || w == "param::entry";
    if (listed) ++spaces;
    else if (state_space_word(w)) spaces = 0;  // another space: no form
  }
  if (spaces >= 1) return {};
  return std::string(opcode_name(in.op)) + " names one state space of .const, .global, .local, .shared{::cta, ::cluster}, " +
         ".param{::entry} (ISA " + (in.op == Opcode::cvta_ ? "9.7.9.20)" : "9.7.9.19)");
}

std::string cvt_pack_error(const Instruction& in) {
  if (in.op != Opcode::cvt_ || !in.q.has(Flag::pack) || cvt_pack_form(in)) return {};
  return "not a form of cvt.pack: cvt.pack.sat.convertType.s32 d, a, b with .convertType .u16 or .s16, or "
         "cvt.pack.sat.convertType.s32.b32 d, a, b, c with .u2, .s2, .u4, .s4, .u8 or .s8 (ISA 9.7.9.22)";
}

}  // namespace ptx::ir
