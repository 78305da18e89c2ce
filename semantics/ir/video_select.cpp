// Operand selectors of the video instructions (ISA 9.7.18): parsing the selector words and checking them against
// each instruction's syntax block (video_select.hpp).
#include "semantics/ir/video_select.hpp"

namespace ptx::ir {
namespace {

std::string text_of(const VideoSelect& s) {
  std::string t = {'.', s.unit};
  for (unsigned i = 0; i < s.count; ++i) t += static_cast<char>('0' + s.digit[i]);
  return t;
}

// `.b0`-`.b3`, `.h0`, `.h1`: one byte or half-word of a 32-bit operand (9.7.18.1).
bool is_part_select(const VideoSelect& s) { return s.count == 1 && s.digit[0] < (s.unit == 'b' ? 4 : 2); }

// A SIMD source selector: `.hxy` over the four half-words, `.bxyzw` over the eight bytes of {b, a} (9.7.18.2).
bool is_lane_select(const VideoSelect& s, VideoKind k) {
  const bool x2 = k == VideoKind::simd2;
  if (s.unit != (x2 ? 'h' : 'b') || s.count != (x2 ? 2 : 4)) return false;
  for (unsigned i = 0; i < s.count; ++i)
    if (s.digit[i] > (x2 ? 3 : 7)) return false;
  return true;
}

// A SIMD mask: lane numbers of the destination, written highest first without repeats (`.h10`, `.b310`); ptxas
// rejects `.b01` and `.b00` (the example `r1.b00` of 9.7.18.2.3 is not in the syntax's list).
bool is_mask(const VideoSelect& s, VideoKind k) {
  const bool x2 = k == VideoKind::simd2;
  if (s.unit != (x2 ? 'h' : 'b') || s.count > (x2 ? 2 : 4)) return false;
  for (unsigned i = 0; i < s.count; ++i)
    if (s.digit[i] > (x2 ? 1 : 3) || (i > 0 && s.digit[i] >= s.digit[i - 1])) return false;
  return true;
}

}  // namespace

VideoKind video_kind(Opcode op) {
  switch (op) {
    case Opcode::vadd_: case Opcode::vsub_: case Opcode::vabsdiff_: case Opcode::vmin_: case Opcode::vmax_:
    case Opcode::vshl_: case Opcode::vshr_: case Opcode::vset_:
      return VideoKind::scalar;
    case Opcode::vmad_: return VideoKind::mad;
    case Opcode::vadd2_: case Opcode::vsub2_: case Opcode::vavrg2_: case Opcode::vabsdiff2_: case Opcode::vmin2_:
    case Opcode::vmax2_: case Opcode::vset2_:
      return VideoKind::simd2;
    case Opcode::vadd4_: case Opcode::vsub4_: case Opcode::vavrg4_: case Opcode::vabsdiff4_: case Opcode::vmin4_:
    case Opcode::vmax4_: case Opcode::vset4_:
      return VideoKind::simd4;
    default: return VideoKind::none;
  }
}

std::optional<VideoSelect> parse_video_select(std::string_view text) {
  if (text.size() < 2 || text.size() > 5 || (text[0] != 'b' && text[0] != 'h')) return std::nullopt;
  VideoSelect s;
  s.unit = text[0];
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    s.digit[s.count++] = static_cast<std::uint8_t>(c - '0');
  }
  return s;
}

std::string video_operand_error(const Instruction& in, std::size_t pos) {
  const Operand& o = in.operands[pos];
  if (!o.minus && o.select.empty()) return {};  // (every operand of every instruction comes here)
  const VideoKind k = video_kind(in.op);
  const std::string name = opcode_name(in.op);
  if (o.minus && (k != VideoKind::mad || pos == 0))
    return "operand negation '-' is not allowed here: only vmad negates its sources (ISA 9.7.18.1.3)";
  if (o.minus && in.q.has(Flag::po)) return "vmad.po does not allow operand negation (ISA 9.7.18.1.3)";
  if (o.select.empty()) return {};  // a vmad source's `-` alone
  const std::string sel = text_of(o.select);
  if (k == VideoKind::none) return "video selector '" + sel + "' on an operand of '" + name + "': only video instructions take selectors (ISA 9.7.18)";
  if (pos >= 3) return "video selector '" + sel + "' on operand c: c takes no selector (ISA 9.7.18)";
  bool ok = false;
  switch (k) {
    case VideoKind::scalar: ok = is_part_select(o.select); break;
    case VideoKind::mad: ok = pos > 0 && is_part_select(o.select); break;
    default: ok = pos == 0 ? is_mask(o.select, k) : is_lane_select(o.select, k); break;
  }
  if (ok) return {};
  static const char* const kWant[] = {"", ".b0, .b1, .b2, .b3, .h0 or .h1", ".b0, .b1, .b2, .b3, .h0 or .h1 (sources only)",
                                      "a mask .h0, .h1 or .h10 on d, .hxy (x, y in 0..3) on a and b",
                                      "a mask of descending byte numbers .b0 ... .b3210 on d, .bxyzw (x..w in 0..7) on a and b"};
  return "video selector '" + sel + "' is not allowed on operand " + std::to_string(pos) + " of '" + name + "': it takes " +
         kWant[static_cast<int>(k)] + " (ISA 9.7.18)";
}

namespace {

bool is_vset(Opcode op) { return op == Opcode::vset_ || op == Opcode::vset2_ || op == Opcode::vset4_; }

// The type qualifiers and modes every syntax block names: .dtype.atype.btype (vset: .atype.btype), each .u32 or
// .s32; vset's .cmp of { .eq, .ne, .lt, .le, .gt, .ge }; vshl/vshr's .mode of { .clamp, .wrap } and a .u32 b.
std::string video_type_error(const Instruction& in) {
  const std::string name = opcode_name(in.op);
  const std::size_t want = is_vset(in.op) ? 2 : 3;
  if (in.q.types.size() != want)
    return "'" + name + "' takes " + std::to_string(want) + " type qualifiers (" + (want == 2 ? ".atype.btype" : ".dtype.atype.btype") +
           "), not " + std::to_string(in.q.types.size()) + " (ISA 9.7.18)";
  for (const auto& t : in.q.types)
    if (t.scalar != ScalarType::u32 && t.scalar != ScalarType::s32) return "the video instructions' types are .u32 and .s32 (ISA 9.7.18)";
  if (is_vset(in.op)) {
    const auto c = in.q.compare;
    if (!c || !(*c == CompareOp::eq || *c == CompareOp::ne || *c == CompareOp::lt || *c == CompareOp::le || *c == CompareOp::gt ||
                *c == CompareOp::ge))
      return "'" + name + "' needs one of .eq, .ne, .lt, .le, .gt, .ge (ISA 9.7.18.1.4, 9.7.18.2.2, 9.7.18.2.4)";
  }
  const bool shift = in.op == Opcode::vshl_ || in.op == Opcode::vshr_;
  const bool clamp = in.q.has(Flag::clamp), wrap = in.q.has(Flag::wrap);
  if (shift && clamp == wrap) return "'" + name + "' needs one mode, .clamp or .wrap (ISA 9.7.18.1.2)";
  if (!shift && (clamp || wrap)) return "only vshl and vshr take .clamp or .wrap (ISA 9.7.18.1.2)";
  if (shift && in.q.types[2].scalar != ScalarType::u32) return "the shift amount of '" + name + "' is .u32 (ISA 9.7.18.1.2)";
  return {};
}

}  // namespace

std::string video_form_error(const Instruction& in) {
  const VideoKind k = video_kind(in.op);
  if (k == VideoKind::none || in.operands.empty()) return {};
  if (auto why = video_type_error(in); !why.empty()) return why;
  const bool sat = in.q.has(Flag::sat);
  if (k == VideoKind::scalar && in.q.atom_op && in.operands.size() != 4) return "a secondary operation needs c (ISA 9.7.18.1)";
  if (k == VideoKind::scalar && !in.operands[0].select.empty()) {
    if (in.operands.size() != 4) return "a destination selector merges into c, which is missing (ISA 9.7.18.1)";
    if (in.q.atom_op) return "a video instruction takes a destination selector or a secondary operation, not both (ISA 9.7.18.1)";
  }
  if (in.op == Opcode::vset_ && sat) return "vset has no .sat (ISA 9.7.18.1.4)";
  if (k == VideoKind::mad && in.operands.size() == 4) {
    // "PTX allows negation of either (a*b) or c" (9.7.18.1.3); ptxas rejects both at once.
    if ((in.operands[1].minus != in.operands[2].minus) && in.operands[3].minus)
      return "vmad negates either the product (a xor b) or c, not both (ISA 9.7.18.1.3)";
    if (in.q.has(Flag::shr7) && in.q.has(Flag::shr15)) return "vmad takes one scale, .shr7 or .shr15 (ISA 9.7.18.1.3)";
  }
  if (k == VideoKind::simd2 || k == VideoKind::simd4) {
    if (in.q.atom_op && *in.q.atom_op != AtomOp::add) return "the SIMD video instructions' only secondary operation is .add (ISA 9.7.18.2)";
    if (in.q.atom_op && sat) return "saturation cannot be used with the secondary accumulate operation .add (ISA 9.7.18.2.1)";
  }
  return {};
}

}  // namespace ptx::ir
