// The tensor-map instructions in the interpreter: tensormap.replace (ISA 9.7.9.26) edits a field of a tensor map
// in global or shared memory, in the interpreter's layout (bulk_copy.cpp, replace_tensor_map_field);
// tensormap.cp_fenceproxy (9.7.13.16) copies a tensor map from shared to global memory. The tensormap proxy is not
// modelled apart (a bulk tensor copy reads its map when it is issued), so the proxy release pattern these set up
// for later tensor copies has nothing more to do here.
#include "semantics/interp/launch.hpp"
#include "semantics/interp/machine.hpp"

#include <array>
#include <string>

namespace ptx::interp {

namespace {
// The .field qualifier of a tensormap.replace (one of the words Table 33 and the syntax name).
std::string replaced_field(const Instruction& ins) {
  static constexpr const char* kFields[] = {"global_address", "rank", "box_dim", "global_dim", "global_stride", "element_stride",
                                            "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
                                            "swizzle_atomicsity", "fill_mode"};
  for (const char* f : kFields)
    if (ins.q.has_word(f)) return f;
  return "";
}
}  // namespace

bool tensormap_supported(const Instruction& ins) {
  if (ins.q.has_word("replace")) return ins.q.has_word("tile") && !replaced_field(ins).empty();
  return ins.q.has_word("cp_fenceproxy");
}

void Machine::exec_tensormap(Thread& t, const Instruction& ins) {
  const auto& o = ins.operands;
  const std::string what = ir::opcode_text(ins);
  if (ins.q.has_word("cp_fenceproxy")) {
    // 9.7.13.16: [dst] global, [src] shared::cta, size 128 (the only valid value).
    const std::uint64_t size = read(t, o[2], 32).u64();
    if (size != 128) return fail(Problem::Kind::illegal, what + ": size " + std::to_string(size) + " (the valid value is 128)", {&t});
    const std::uint64_t dst = address(t, o[0]), src = address(t, o[1]);
    const std::uint8_t* from = locate(t, StateSpace::shared, src, size, false);
    if (!from) return;
    const std::array<std::uint8_t, 128> bytes = [&] { std::array<std::uint8_t, 128> b{}; std::copy(from, from + 128, b.begin()); return b; }();
    std::uint8_t* to = locate(t, StateSpace::global, dst, size, true);
    if (!to) return;
    std::copy(bytes.begin(), bytes.end(), to);
    if (opt_.observer) {
      observe(t, ins, MemoryAccess::Kind::read, StateSpace::shared, src, 128);
      observe(t, ins, MemoryAccess::Kind::write, StateSpace::global, dst, 128);
    }
    return;
  }
  // 9.7.9.26: tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val; a weak access of the whole
  // 1024-bit object.
  const std::string field = replaced_field(ins);
  const std::uint64_t addr = address(t, o[0]);
  const unsigned bits = ins.q.has_word("b64") ? 64 : 32;
  const unsigned ord = o.size() == 3 ? static_cast<unsigned>(read(t, o[1], 32).u64()) : 0;
  const std::uint64_t value = read(t, o.back(), bits).u64();
  const StateSpace space = ins.q.space.value_or(StateSpace::generic);
  std::uint8_t* map = locate(t, space, addr, 128, true);
  if (!map) return;
  const std::string error = replace_tensor_map_field(map, field, ord, value);
  if (!error.empty()) return fail(Problem::Kind::illegal, what + ": " + error, {&t});
  if (opt_.observer) observe(t, ins, MemoryAccess::Kind::write, space, addr, 128);
}

}  // namespace ptx::interp
