// The wgmma forms (wgmma_form.hpp), from the syntax blocks of ISA 9.7.15.5.2, 9.7.15.6.3 and 9.7.15.7.1-3.
#include "semantics/ir/wgmma_form.hpp"
#include "semantics/ir/word_sets.hpp"
#include "semantics/ir/matrix_shape.hpp"

#include <fmt/format.h>

#include <string_view>
#include <vector>

namespace ptx::ir {
namespace {


// A wgmma.mma_async form: its element types, K, whether .satfinite or .and.popc belong, and its operand count with
// A from a descriptor and from registers (sparse forms add sp-meta and sp-sel).
std::string mma_async_error(const Instruction& ins, const std::vector<std::string>& types, unsigned n, unsigned k,
                            bool sparse, bool satfinite, bool bit_and, bool popc) {
  if (types.size() != 3) return "wgmma.mma_async names .dtype.atype.btype";
  const std::string &d = types[0], &a = types[1], &b = types[2];
  unsigned want_k = 0, desc_operands = 0, reg_operands = 0;
  bool integer = false, single_bit = false;
  if (a == "f16" && b == "f16" && is_one_of(d, {"f16", "f32"})) want_k = 16, desc_operands = 8, reg_operands = 7;
  else if (a == "bf16" && b == "bf16" && d == "f32") want_k = 16, desc_operands = 8, reg_operands = 7;
  else if (a == "tf32" && b == "tf32" && d == "f32") want_k = 8, desc_operands = reg_operands = 6;
  else if (is_one_of(a, {"e4m3", "e5m2"}) && is_one_of(b, {"e4m3", "e5m2"}) && is_one_of(d, {"f16", "f32"})) want_k = 32, desc_operands = reg_operands = 6;
  else if (is_one_of(a, {"s8", "u8"}) && is_one_of(b, {"s8", "u8"}) && d == "s32") want_k = 32, desc_operands = reg_operands = 4, integer = true;
  else if (a == "b1" && b == "b1" && d == "s32" && !sparse) want_k = 256, desc_operands = reg_operands = 4, integer = single_bit = true;
  else return "these types are no combination the syntax lists";
  if (sparse) want_k *= 2, desc_operands += 2, reg_operands += 2;
  if (k != want_k || !wgmma_n_listed(n, integer))
    return fmt::format(".m64n{}k{} is no shape of these types (K is {})", n, k, want_k);
  if (satfinite && (!integer || single_bit)) return ".satfinite is a qualifier of the .s8/.u8 forms only";
  if (single_bit != (bit_and && popc)) return single_bit ? "the .b1 forms name .and.popc" : ".and and .popc belong to the .b1 forms";
  const bool reg_a = ins.operands.size() > 1 && ins.operands[1].kind == Operand::Kind::Vector;
  const unsigned want = reg_a ? reg_operands : desc_operands;
  if (ins.operands.size() != want)
    return "this form takes " + std::to_string(want) + " operands with A " + (reg_a ? "in registers" : "from a descriptor");
  return "";
}

std::string decode(const Instruction& ins) {
  std::vector<std::string> types;
  unsigned ops = 0, n = 0, k = 0, shapes = 0;
  bool sync = false, aligned = false, sparse = false, satfinite = false, bit_and = false, popc = false, mma = false;
  for (const auto& w : ins.q.words) {
    if (w == "mma_async" || w == "fence" || w == "commit_group" || w == "wait_group") ++ops, mma = w == "mma_async";
    else if (w == "sync") sync = true;
    else if (w == "aligned") aligned = true;
    else if (w == "sp") sparse = true;
    else if (w == "satfinite") satfinite = true;
    else if (w == "and") bit_and = true;
    else if (w == "popc") popc = true;
    else if (const auto s = matrix_shape(w); s && s->m == 64) n = s->n, k = s->k, ++shapes;
    else if (is_one_of(w, {"f16", "f32", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "s32", "b1"})) types.push_back(w);
    else return "'." + w + "' is no qualifier of wgmma";
  }
  if (ops != 1) return "wgmma names one of .mma_async, .fence, .commit_group and .wait_group";
  if (!sync || !aligned) return "wgmma needs .sync and .aligned";
  if (!mma) return types.empty() && shapes == 0 && !sparse && !satfinite && !bit_and && !popc ? "" : "wgmma.fence, .commit_group and .wait_group take no other qualifier";
  if (shapes != 1) return "wgmma.mma_async names one shape (.m64nNkK)";
  return mma_async_error(ins, types, n, k, sparse, satfinite, bit_and, popc);
}

}  // namespace

std::string wgmma_form_error(const Instruction& ins) {
  if (ins.op != Opcode::wgmma_) return "";
  const std::string why = decode(ins);
  if (why.empty()) return "";
  return "not a form of wgmma: " + why + (ins.q.has_word("sp") ? " (ISA 9.7.15.6.3)" : " (ISA 9.7.15.5.2, 9.7.15.7)");
}

bool wgmma_n_listed(unsigned n, bool integer) {
  if (n < 8 || n > 256 || n % 8) return false;
  return !integer || n <= 32 || n % 16 == 0;
}

}  // namespace ptx::ir
