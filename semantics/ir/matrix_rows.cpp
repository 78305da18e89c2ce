// The ldmatrix / stmatrix forms the engines run (matrix_rows.hpp), from ISA 9.7.14.5.15-16's syntax blocks.
#include "semantics/ir/matrix_rows.hpp"

namespace ptx::ir {

std::optional<MatrixRows> matrix_rows_form(const Instruction& in) {
  if (in.op != Opcode::ldmatrix_ && in.op != Opcode::stmatrix_) return std::nullopt;
  const bool load = in.op == Opcode::ldmatrix_;
  MatrixRows f;
  bool sync = false, aligned = false, num = false, m8n8 = false, m16n8 = false, b16 = false;
  for (const auto& w : in.q.words) {
    if (w == "sync") sync = true;
    else if (w == "aligned") aligned = true;
    else if (w == "x1" || w == "x2" || w == "x4") num = true, f.matrices = static_cast<unsigned>(w[1] - '0');
    else if (w == "trans") f.trans = true;
    else if (w == "m8n8") m8n8 = true;
    else if (w == "b16") b16 = true;
    else if (!load && w == "m16n8") m16n8 = true;
    else if (!load && w == "b8") f.b8 = true;
    else if (w == "shared" || w == "shared::cta") continue;
    else return std::nullopt;
  }
  const bool shape = (m8n8 && b16 && !m16n8 && !f.b8) || (m16n8 && f.b8 && f.trans && !m8n8 && !b16);
  if (!sync || !aligned || !num || !shape || in.operands.size() != 2) return std::nullopt;
  // ldmatrix r, [p]; stmatrix [p], r: r holds one 32-bit register a matrix.
  const Operand& r = in.operands[load ? 0 : 1];
  const std::size_t registers = r.kind == Operand::Kind::Vector ? r.elements.size() : 1;
  if (registers != f.matrices) return std::nullopt;
  return f;
}

}  // namespace ptx::ir
