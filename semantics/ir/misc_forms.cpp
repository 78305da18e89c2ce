// The form rules of misc_forms.hpp, each from its instruction's section of ISA 9.0 chapter 9.7.
#include "semantics/ir/misc_forms.hpp"

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

}  // namespace ptx::ir
