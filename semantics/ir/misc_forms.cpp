// The form rules of misc_forms.hpp, each from its instruction's section of ISA 9.0 chapter 9.7.
#include "semantics/ir/misc_forms.hpp"

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
    case Opcode::mbarrier_:
      if (mbarrier_op(in) == MbarrierOp::arrive) ok = among({M::release, M::relaxed}), where = "mbarrier.arrive (ISA 9.7.13.15.13)";
      else if (mbarrier_op(in) == MbarrierOp::wait) ok = among({M::acquire, M::relaxed}), where = "mbarrier.test_wait/try_wait (ISA 9.7.13.15.16)";
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

}  // namespace ptx::ir
