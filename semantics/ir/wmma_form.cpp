// The wmma instruction forms (wmma_form.hpp), from ISA 9.7.14.4.3-5's syntax blocks.
#include "semantics/ir/wmma_form.hpp"
#include "semantics/ir/matrix_shape.hpp"

#include <string>
#include <vector>

namespace ptx::ir {
namespace {
using ST = ScalarType;

// Whether (matrix, shape, type, layout) is one 9.7.14.4.3-4 lists for wmma.load / wmma.store.
bool memory_form_exists(const WmmaForm& f) {
  const bool ab = f.matrix == 'a' || f.matrix == 'b';
  const ST t = f.type;
  if (f.k == 16)  // m16n16k16, m8n32k16, m32n8k16
    return ab ? (t == ST::f16 || t == ST::bf16 || t == ST::s8 || t == ST::u8) : (t == ST::f16 || t == ST::f32 || t == ST::s32);
  if (f.k == 8) return ab ? t == ST::tf32 : t == ST::f32;  // m16n16k8
  if (f.k == 4) return t == ST::f64;                       // m8n8k4
  // m8n8k32 (.s4/.u4) and m8n8k128 (.b1): A only .row, B only .col
  const ST want = f.k == 32 ? ST::s4 : kWmmaB1;
  if (!ab) return t == ST::s32;
  if (f.matrix == 'a' ? !f.row : f.row) return false;
  return t == want || (f.k == 32 && t == ST::u4);
}

// Whether the types of a wmma.mma are one of 9.7.14.4.5's forms for its shape.
bool mma_form_exists(const WmmaForm& f) {
  auto f16_or_f32 = [](ST t) { return t == ST::f16 || t == ST::f32; };
  if (f.k == 16) {
    if (f.a == ST::f16) return f16_or_f32(f.d) && f16_or_f32(f.c) && !f.satfinite;
    if (f.a == ST::bf16) return f.b == ST::bf16 && f.d == ST::f32 && f.c == ST::f32 && !f.satfinite;
    // "the values for .atype and .btype must be the same, i.e., either both are .s8 or both are .u8"
    return (f.a == ST::s8 || f.a == ST::u8) && f.b == f.a && f.d == ST::s32 && f.c == ST::s32;
  }
  if (f.k == 8) return f.a == ST::tf32 && f.b == ST::tf32 && f.d == ST::f32 && f.c == ST::f32 && !f.satfinite;
  if (f.k == 4) return f.a == ST::f64 && f.b == ST::f64 && f.d == ST::f64 && f.c == ST::f64 && !f.satfinite;
  if (f.d != ST::s32 || f.c != ST::s32 || f.b != f.a) return false;
  return f.k == 32 ? (f.a == ST::s4 || f.a == ST::u4) : f.a == kWmmaB1 && !f.satfinite;
}

}  // namespace

unsigned wmma_element_bits(ST t) {
  switch (t) {
    case ST::f64: return 64;
    case ST::f32: case ST::s32: case ST::tf32: return 32;
    case ST::f16: case ST::bf16: return 16;
    case ST::s8: case ST::u8: return 8;
    case ST::s4: case ST::u4: return 4;
    default: return 1;  // b1
  }
}

WmmaDims wmma_dims(const WmmaForm& f, char x) { return x == 'a' ? WmmaDims{f.m, f.k} : x == 'b' ? WmmaDims{f.k, f.n} : WmmaDims{f.m, f.n}; }

namespace {
// Decodes `ins` into f; "" when it is a form 9.7.14.4.3-5 define, else why not.
std::string decode(const Instruction& ins, WmmaForm& f, unsigned ptx_version) {
  std::vector<bool> layouts;  // true = .row
  std::vector<ST> types;
  bool sync = false, aligned = false, shape = false, popc = false, logic = false, rounding = false, matrix = false;
  int ops = 0, spaces = 0;
  for (const auto& w : ins.q.words) {
    if (w == "load" || w == "store" || w == "mma") {
      f.op = w == "load" ? WmmaForm::Op::load : w == "store" ? WmmaForm::Op::store : WmmaForm::Op::mma;
      ++ops;
    } else if (w == "a" || w == "b" || w == "c" || w == "d") f.matrix = w[0], matrix = true;
    else if (w == "sync") sync = true;
    else if (w == "aligned") aligned = true;
    else if (w == "row" || w == "col") layouts.push_back(w == "row");
    else if (w == "satfinite") f.satfinite = true;
    else if (w == "popc") popc = true;
    else if (w == "xor" || w == "and") logic = true, f.popc_and = w == "and";
    else if (w == "rn" || w == "rz" || w == "rm" || w == "rp") rounding = true;
    else if (w == "global" || w == "shared" || w == "shared::cta") ++spaces;
    else if (const auto s = matrix_shape(w)) f.m = s->m, f.n = s->n, f.k = s->k, shape = true;
    else if (w == "b1") types.push_back(kWmmaB1);
    else if (auto t = ir::scalar_type_from_name(w); t && w != "pred") types.push_back(*t);
    else return "'." + w + "' is no qualifier of wmma";
  }
  // .aligned is "required from PTX ISA version 6.3 onwards, and considered implicit" before (9.7.14.4.3-5): the
  // meaning is the same either way, so both spellings run where the module's version allows them.
  if (ops != 1) return "wmma names one of .load, .store and .mma";
  if (!sync) return "wmma needs .sync";
  if (!aligned && ptx_version >= 63) return ".aligned is required from PTX ISA version 6.3 onwards";
  if (spaces > 1) return "wmma.load / wmma.store name one state space at most";
  if (f.op != WmmaForm::Op::mma && !matrix) return "wmma.load / wmma.store name the matrix (.a, .b, .c or .d)";
  const bool known_shape = (f.k == 16 && ((f.m == 16 && f.n == 16) || (f.m == 8 && f.n == 32) || (f.m == 32 && f.n == 8))) ||
                           (f.m == 16 && f.n == 16 && f.k == 8) || (f.m == 8 && f.n == 8 && (f.k == 4 || f.k == 32 || f.k == 128));
  if (!shape || !known_shape) return "wmma needs one of the shapes .m16n16k16, .m8n32k16, .m32n8k16, .m16n16k8, .m8n8k4, .m8n8k32, .m8n8k128";
  if (f.op != WmmaForm::Op::mma) {
    const bool load = f.op == WmmaForm::Op::load;
    if (load ? f.matrix == 'd' : f.matrix != 'd') return load ? "wmma.load names the matrix .a, .b or .c" : "wmma.store names the matrix .d";
    if (layouts.size() != 1) return "wmma.load / wmma.store name one layout, .row or .col";
    if (types.size() != 1) return "wmma.load / wmma.store name one element type";
    if (f.satfinite || popc || logic || rounding) return "wmma.load / wmma.store take no .satfinite, .popc, .xor, .and or rounding";
    f.row = layouts[0], f.type = types[0];
    if (!memory_form_exists(f)) return "this matrix, shape, layout and element type are no combination the syntax lists";
    if (ins.operands.size() < 2 || ins.operands.size() > 3) return "wmma.load / wmma.store take 2 or 3 operands";
    return "";
  }
  if (spaces) return "wmma.mma takes no state space";
  if (layouts.size() != 2) return "wmma.mma names two layouts, .alayout and .blayout";
  if (ins.operands.size() != 4) return "wmma.mma takes 4 operands, d, a, b, c";
  if (types.size() == 2) f.d = types[0], f.a = f.b = ST::f16, f.c = types[1];  // .atype/.btype implicitly .f16
  else if (types.size() == 4) f.d = types[0], f.a = types[1], f.b = types[2], f.c = types[3];
  else return "wmma.mma names .dtype.ctype (.f16 multiplicands) or .dtype.atype.btype.ctype";
  if (types.size() == 4 && f.a == ST::f16) return "the .f16 form of wmma.mma names only .dtype.ctype";
  if (!mma_form_exists(f)) return "these types are no combination the syntax lists for this shape";
  if ((f.k == 32 || f.k == 128) && (!layouts[0] || layouts[1])) return "the sub-byte and single-bit forms are .row.col only";
  if ((f.k == 128) != (popc && logic)) return f.k == 128 ? "the .b1 form names .xor or .and, then .popc" : "only the .b1 form takes .xor, .and and .popc";
  if (rounding) {
    if (f.d != ST::f64 || !ins.q.rounding) return "only the .f64 form takes a rounding";
    f.rounding = ins.q.rounding;
  }
  return "";
}
}  // namespace

std::optional<WmmaForm> wmma_form(const Instruction& ins) {
  WmmaForm f;
  if (!decode(ins, f, 0).empty()) return std::nullopt;
  return f;
}

std::string wmma_form_error(const Instruction& ins, unsigned ptx_version) {
  if (ins.op != Opcode::wmma_) return "";
  WmmaForm f;
  const std::string why = decode(ins, f, ptx_version);
  return why.empty() ? "" : "not a form of wmma: " + why + " (ISA 9.7.14.4.3-5)";
}

}  // namespace ptx::ir
