// The mma forms (mma_form.hpp), from the syntax blocks of ISA 9.7.14.5.14 and 9.7.14.6.3, the restrictions below
// them and Table 37 (9.7.14.5.12's block scaling).
#include "semantics/ir/mma_form.hpp"
#include "semantics/ir/word_sets.hpp"
#include "semantics/ir/matrix_shape.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ptx::ir {
namespace {

constexpr std::string_view kF8 = "e4m3 e5m2", kF8F6F4 = "e4m3 e5m2 e3m2 e2m3 e2m1", kHalfOrSingle = "f16 f32";
constexpr std::string_view kTypeWords = "f16 f32 f64 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 u8 s8 u4 s4 b1 s32 ue8m0 ue4m3";

// One syntax line of the text (with its definitions): the types, the shapes, and what else the line allows.
struct Row {
  bool sparse;
  std::string_view kind;  // "" (no .kind), f8f6f4, or a block-scale kind
  std::string_view a, b, c, d, shapes;
  bool any_layout = false;  // .alayout.blayout (m8n8k4 .f16); every other line writes .row.col
  bool a_is_b = false, d_is_c = false, c_f32_d_f32 = false;
  enum Extra { none, satfinite, rounding, bit_op } extra = none;
  std::string_view scales = "";  // block scaling: "1X=ue8m0" (Table 37); "" for the other lines
  bool scale_implicit = true;    // .scale_vec_size may be left out (mxf4: 2X, mxf8f6f4: 1X; not mxf4nvf4)
  bool ordered_only = false;     // .sp::ordered_metadata only
};

// 9.7.14.5.14 (dense) and 9.7.14.6.3 (sparse), line by line.
const std::vector<Row>& rows() {
  static const std::vector<Row> table = [] {
    std::vector<Row> r;
    // Dense. Half precision: m8n8k4 "When .ctype is .f32, .dtype must also be .f32"; m16n8k8 ".dtype must be the
    // same as .ctype", ".atype must be the same as .btype".
    r.push_back({false, "", "f16", "f16", kHalfOrSingle, kHalfOrSingle, "m8n8k4", true, false, false, true});
    r.push_back({false, "", "f16", "f16", kHalfOrSingle, kHalfOrSingle, "m16n8k8", false, true, true});
    r.push_back({false, "", "f16", "f16", kHalfOrSingle, kHalfOrSingle, "m16n8k16"});
    // Alternate floating point types.
    r.push_back({false, "", "tf32", "tf32", "f32", "f32", "m16n8k4"});
    r.push_back({false, "", "bf16 tf32", "bf16 tf32", "f32", "f32", "m16n8k8", false, true});
    r.push_back({false, "", "bf16", "bf16", "f32", "f32", "m16n8k16"});
    r.push_back({false, "", kF8, kF8, kHalfOrSingle, kHalfOrSingle, "m16n8k16 m16n8k32"});
    r.push_back({false, "f8f6f4", kF8F6F4, kF8F6F4, kHalfOrSingle, kHalfOrSingle, "m16n8k32"});
    // Block scaling (Table 37).
    Row mxf4{false, "mxf4", "e2m1", "e2m1", "f32", "f32", "m16n8k64"};
    mxf4.scales = "2X=ue8m0";
    r.push_back(mxf4);
    Row nvf4 = mxf4;
    nvf4.kind = "mxf4nvf4", nvf4.scales = "2X=ue8m0 4X=ue4m3", nvf4.scale_implicit = false;
    r.push_back(nvf4);
    Row mxf8{false, "mxf8f6f4", kF8F6F4, kF8F6F4, "f32", "f32", "m16n8k32"};
    mxf8.scales = "1X=ue8m0";
    r.push_back(mxf8);
    // Double precision (the text writes the first shape `.m8n84`), integer and single-bit types.
    Row f64{false, "", "f64", "f64", "f64", "f64", "m8n8k4 m16n8k4 m16n8k8 m16n8k16"};
    f64.extra = Row::rounding;
    r.push_back(f64);
    Row i8{false, "", "u8 s8", "u8 s8", "s32", "s32", "m8n8k16 m16n8k16 m16n8k32"};
    i8.extra = Row::satfinite;
    r.push_back(i8);
    Row i4 = i8;
    i4.a = i4.b = "u4 s4", i4.shapes = "m8n8k32 m16n8k32 m16n8k64";
    r.push_back(i4);
    Row b1{false, "", "b1", "b1", "s32", "s32", "m8n8k128 m16n8k128 m16n8k256"};
    b1.extra = Row::bit_op;
    r.push_back(b1);
    // Sparse: "In case of shapes .m16n8k16 and .m16n8k32, .dtype must be the same as .ctype".
    r.push_back({true, "", "f16", "f16", kHalfOrSingle, kHalfOrSingle, "m16n8k16 m16n8k32", false, false, true});
    r.push_back({true, "", "bf16", "bf16", "f32", "f32", "m16n8k16 m16n8k32"});
    r.push_back({true, "", "tf32", "tf32", "f32", "f32", "m16n8k8 m16n8k16"});
    r.push_back({true, "", kF8, kF8, "f32", "f32", "m16n8k64"});
    Row sf8{true, "f8f6f4", kF8F6F4, kF8F6F4, kHalfOrSingle, kHalfOrSingle, "m16n8k64"};
    sf8.ordered_only = true;
    r.push_back(sf8);
    for (Row s : {mxf4, nvf4, mxf8}) {
      s.sparse = s.ordered_only = true;
      s.shapes = s.kind == "mxf8f6f4" ? "m16n8k64" : "m16n8k128";
      r.push_back(s);
    }
    Row si8 = i8, si4 = i4;
    si8.sparse = si4.sparse = true;
    si8.shapes = "m16n8k32 m16n8k64", si4.shapes = "m16n8k64 m16n8k128";
    r.push_back(si8);
    r.push_back(si4);
    return r;
  }();
  return table;
}

// What the instruction writes, before any row is consulted; "" or why the words themselves are wrong.
struct Written {
  MmaSyntax s;
  std::vector<std::string> types;
  std::vector<bool> layouts;  // true = .row
  bool sync = false, aligned = false, shape = false, popc = false;
};

// A word naming one of several choices (a shape, a variant, a kind, a scale size, an operation, a rounding) written
// a second time; on/off modifiers written twice are the IR checker's generic rule (build.cpp).
bool second_choice(const Written& w, const std::string& word) {
  if (matrix_shape(word)) return w.shape;
  if (word == "sp" || word == "sp::ordered_metadata") return w.s.sparse;
  if (word.rfind("kind::", 0) == 0) return !w.s.kind.empty();
  if (word.rfind("scale_vec::", 0) == 0) return w.s.scale_vec != 0;
  if (word == "xor" || word == "and") return !w.s.bit_op.empty();
  if (word == "rn" || word == "rz" || word == "rm" || word == "rp") return w.s.rounding.has_value();
  return false;
}

std::string read_words(const Instruction& ins, Written& w) {
  for (const auto& word : ins.q.words) {
    if (second_choice(w, word)) return "'." + word + "' is a second choice of a qualifier mma takes once";
    if (word == "sync") w.sync = true;
    else if (word == "aligned") w.aligned = true;
    else if (word == "sp" || word == "sp::ordered_metadata") w.s.sparse = true, w.s.ordered_metadata = word != "sp";
    else if (word == "row" || word == "col") w.layouts.push_back(word == "row");
    else if (const auto shape = matrix_shape(word)) w.s.m = shape->m, w.s.n = shape->n, w.s.k = shape->k, w.shape = true;
    else if (word == "satfinite") w.s.satfinite = true;
    else if (word == "rn" || word == "rz" || word == "rm" || word == "rp") w.s.rounding = ins.q.rounding;
    else if (word == "xor" || word == "and") w.s.bit_op = word;
    else if (word == "popc") w.popc = true;
    else if (word == "block_scale") w.s.block_scale = true;
    else if (word.rfind("kind::", 0) == 0) w.s.kind = word.substr(6);
    else if (word == "scale_vec::1X" || word == "scale_vec::2X" || word == "scale_vec::4X") w.s.scale_vec = unsigned(word[11] - '0');
    else if (in_word_list(kTypeWords, word)) w.types.push_back(word);
    else return "'." + word + "' is no qualifier of mma";
  }
  if (!w.sync || !w.aligned) return "mma needs .sync and .aligned";
  if (!w.shape) return "mma needs a shape (.mMnNkK)";
  if (w.layouts.size() != 2) return "mma names two layouts, .alayout and .blayout";
  if (w.types.size() != (w.s.block_scale ? 5u : 4u))
    return w.s.block_scale ? "mma with .block_scale names .dtype.atype.btype.ctype.stype" : "mma names .dtype.atype.btype.ctype";
  w.s.d = w.types[0], w.s.a = w.types[1], w.s.b = w.types[2], w.s.c = w.types[3];
  if (w.s.block_scale) w.s.stype = w.types[4];
  w.s.a_row = w.layouts[0], w.s.b_row = w.layouts[1];
  const std::size_t operands = (w.s.sparse ? 6 : 4) + (w.s.block_scale ? 4 : 0);
  if (ins.operands.size() != operands) return "this form takes " + std::to_string(operands) + " operands";
  return "";
}

// Whether row r takes the instruction's types and .kind (shape and the rest aside).
bool types_fit(const Row& r, const MmaSyntax& s) {
  const bool block = !r.scales.empty();
  return r.sparse == s.sparse && r.kind == s.kind && block == s.block_scale && in_word_list(r.a, s.a) && in_word_list(r.b, s.b) &&
         in_word_list(r.c, s.c) && in_word_list(r.d, s.d);
}

// The rest of row r's restrictions, given its types and shape fit.
std::string row_error(const Row& r, const Written& w) {
  const MmaSyntax& s = w.s;
  if (r.ordered_only && !s.ordered_metadata) return "this form is mma.sp::ordered_metadata only";
  if (!r.any_layout && !(s.a_row && !s.b_row)) return "this form is .row.col only";
  if (r.a_is_b && s.a != s.b) return ".atype must be the same as .btype for this shape";
  if (r.d_is_c && s.d != s.c) return ".dtype must be the same as .ctype for this shape";
  if (r.c_f32_d_f32 && s.c == "f32" && s.d != "f32") return "when .ctype is .f32, .dtype must also be .f32";
  if (s.satfinite && r.extra != Row::satfinite) return ".satfinite is a qualifier of the integer forms only";
  if (s.rounding && r.extra != Row::rounding) return "a rounding is a qualifier of the .f64 forms only";
  if ((!s.bit_op.empty() || w.popc) != (r.extra == Row::bit_op) || (r.extra == Row::bit_op && (s.bit_op.empty() || !w.popc)))
    return r.extra == Row::bit_op ? "the .b1 forms name .xor or .and, then .popc" : ".xor, .and and .popc belong to the .b1 forms";
  if (r.scales.empty()) return s.scale_vec ? ".scale_vec_size belongs to .block_scale" : "";
  if (!s.scale_vec && !r.scale_implicit) return ".kind::" + s.kind + " needs a .scale_vec_size";
  for (std::string_view list = r.scales; !list.empty();) {  // "2X=ue8m0 4X=ue4m3"
    const auto end = list.find(' ');
    const auto entry = list.substr(0, end);
    const unsigned vec = unsigned(entry[0] - '0');
    if ((s.scale_vec == vec || (!s.scale_vec && r.scale_implicit)) && entry.substr(3) == s.stype) return "";
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return ".scale_vec_size and .stype are no combination Table 37 lists for .kind::" + s.kind;
}

std::string decode(const Instruction& ins, Written& w) {
  if (auto why = read_words(ins, w); !why.empty()) return why;
  std::vector<const Row*> fitting;
  for (const Row& r : rows())
    if (types_fit(r, w.s)) fitting.push_back(&r);
  if (fitting.empty()) return "these types and .kind are no combination the syntax lists";
  const std::string shape = "m" + std::to_string(w.s.m) + "n" + std::to_string(w.s.n) + "k" + std::to_string(w.s.k);
  std::string first_error, shapes;
  for (const Row* r : fitting) {
    shapes += (shapes.empty() ? "" : " ") + std::string(r->shapes);
    if (!in_word_list(r->shapes, shape)) continue;
    const std::string why = row_error(*r, w);
    if (why.empty()) return "";
    if (first_error.empty()) first_error = why;
  }
  if (!first_error.empty()) return first_error;
  std::vector<std::string> listed;
  for (std::size_t at = 0; at < shapes.size();) {
    const auto end = std::min(shapes.find(' ', at), shapes.size());
    if (const auto one = "." + shapes.substr(at, end - at); std::find(listed.begin(), listed.end(), one) == listed.end()) listed.push_back(one);
    at = end + 1;
  }
  std::string names;
  for (const auto& one : listed) names += (names.empty() ? "" : ", ") + one;
  return "." + shape + " is no shape of these types (the syntax lists " + names + ")";
}

}  // namespace

std::optional<MmaSyntax> mma_syntax(const Instruction& ins) {
  Written w;
  if (ins.op != Opcode::mma_ || !decode(ins, w).empty()) return std::nullopt;
  return w.s;
}

std::string mma_form_error(const Instruction& ins) {
  if (ins.op != Opcode::mma_) return "";
  Written w;
  const std::string why = decode(ins, w);
  if (why.empty()) return "";
  return "not a form of mma: " + why + (w.s.sparse ? " (ISA 9.7.14.6.3)" : " (ISA 9.7.14.5.14)");
}

}  // namespace ptx::ir
