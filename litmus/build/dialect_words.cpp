// The litmus dialect's opcode words (dialect_words.hpp).
#include "litmus/build/dialect_words.hpp"

#include <array>

namespace ptxcheck::litmus {

namespace {
using ptx::ir::CompareOp;
using ptx::ir::Opcode;
using mm::Proxy;

constexpr std::array<DialectWord, 8> kWords{{
    {"suld", {Opcode::ld_, Proxy::surface, std::nullopt}},   // a load through the surface proxy
    {"tld", {Opcode::ld_, Proxy::texture, std::nullopt}},    // a load through the texture proxy
    {"cold", {Opcode::ld_, Proxy::constant, std::nullopt}},  // a load through the constant proxy
    {"sust", {Opcode::st_, Proxy::surface, std::nullopt}},   // a store through the surface proxy
    {"beq", {Opcode::bra_, Proxy::generic, CompareOp::eq}},  // beq a, b, L: bra L when a == b
    {"bne", {Opcode::bra_, Proxy::generic, CompareOp::ne}},  // bne a, b, L: bra L when a != b
    {"goto", {Opcode::bra_, Proxy::generic, std::nullopt}},  // goto L: bra L
    {"b", {Opcode::bra_, Proxy::generic, std::nullopt}},     // b L: bra L
}};
}  // namespace

std::span<const DialectWord> dialect_words() { return kWords; }

std::optional<CellOpcode> cell_opcode(std::string_view word) {
  for (const DialectWord& w : kWords)
    if (w.word == word) return w.meaning;
  if (const auto op = ptx::ir::opcode_from_name(word)) return CellOpcode{*op, Proxy::generic, std::nullopt};
  return std::nullopt;
}

std::optional<CellOpcode> cell_opcode(const Instr& in) {
  return cell_opcode(std::string_view(in.opcode).substr(0, in.opcode.find('.')));
}

std::optional<mm::Proxy> dialect_proxy_fence(std::span<const std::string> words) {
  if (words.size() != 2 || words[0] != "proxy") return std::nullopt;
  if (words[1] == "surface") return Proxy::surface;
  if (words[1] == "texture") return Proxy::texture;
  if (words[1] == "constant") return Proxy::constant;
  return std::nullopt;
}

std::string branch_target(const Instr& in, const CellOpcode& c) {
  const std::size_t at = c.branch ? 2 : 0;
  return at < in.operands.size() ? in.operands[at] : std::string();
}

}  // namespace ptxcheck::litmus
