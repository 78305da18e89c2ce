// The operand selectors and negations of the video instructions (ISA 9.7.18): which instruction takes which
// selector on which operand, read from each instruction's syntax block, and the video form rules the builder checks.
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ptx::ir {

// How a video opcode reads its operands: scalar (9.7.18.1.1, .2, .4), vmad (9.7.18.1.3), SIMD on half-word pairs
// (9.7.18.2.1-2) or byte quads (9.7.18.2.3-4).
enum class VideoKind : std::uint8_t { none, scalar, mad, simd2, simd4 };
VideoKind video_kind(Opcode op);

// A selector's text as the parser keeps it ("b0", "h10", "b7654") read into a VideoSelect; nullopt unless it is `b`
// or `h` and one to four digits.
std::optional<VideoSelect> parse_video_select(std::string_view text);

// Why operand `pos` of `in` may not carry its selector or its `-` (empty when it may):
//   scalar  d.dsel, a.asel, b.bsel with .dsel = .asel = .bsel = { .b0, .b1, .b2, .b3, .h0, .h1 } (9.7.18.1)
//   vmad    a.asel, b.bsel of the same set, {-}a, {-}b, {-}c, no negation with .po (9.7.18.1.3)
//   SIMD x2 d.mask = { .h0, .h1, .h10 }, a.asel, b.bsel = .hxy, x, y in 0..3 (9.7.18.2.1-2)
//   SIMD x4 d.mask = .b0 ... .b3210 (digits descending), a.asel, b.bsel = .bxyzw, x..w in 0..7 (9.7.18.2.3-4)
// and c never takes one. Any other instruction takes neither.
std::string video_operand_error(const Instruction& in, std::size_t pos);

// Why a video instruction's form is not one its syntax block allows (empty when it is): its types (.u32/.s32, three
// or vset's two), vset's comparison, vshl/vshr's one mode and .u32 amount; a secondary operation needs c and a
// destination selector merges into c, so not both (9.7.18.1); the SIMD forms' only secondary operation is .add,
// which excludes .sat (9.7.18.2); vset has no .sat (9.7.18.1.4); vmad negates the product or c, scales once.
std::string video_form_error(const Instruction& in);

}  // namespace ptx::ir
