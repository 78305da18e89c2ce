// The tcgen05 forms (tcgen05_form.hpp), from the syntax blocks of ISA 9.7.16.7.1, 9.7.16.8.3-5, 9.7.16.9.2-3,
// 9.7.16.10.9, 9.7.16.11.1 and 9.7.16.12.1.
#include "semantics/ir/tcgen05_form.hpp"
#include "semantics/ir/word_sets.hpp"

#include "semantics/ir/types.hpp"

#include <initializer_list>
#include <string_view>

namespace ptx::ir {
namespace {

// What an operation's syntax block writes: whether it names a .cta_group, .sync.aligned, and its one type ("" none).
struct Block {
  const char* op;
  const char* section;
  bool cta_group, sync_aligned;
  const char* type;
};

Block block_of(const Instruction& in) {
  if (in.q.has_word("alloc")) return {"alloc", "9.7.16.7.1", true, true, "b32"};
  if (in.q.has_word("dealloc")) return {"dealloc", "9.7.16.7.1", true, true, "b32"};
  if (in.q.has_word("relinquish_alloc_permit")) return {"relinquish_alloc_permit", "9.7.16.7.1", true, true, ""};
  if (in.q.has_word("ld")) return {"ld", "9.7.16.8.3", false, true, in.q.has_word("red") ? "*" : "b32"};
  if (in.q.has_word("st")) return {"st", "9.7.16.8.4", false, true, "b32"};
  if (names_any(in, {"wait::ld", "wait::st"})) return {"wait", "9.7.16.8.5", false, true, ""};
  if (in.q.has_word("cp")) return {"cp", "9.7.16.9.2", true, false, ""};
  if (in.q.has_word("shift")) return {"shift", "9.7.16.9.3", true, false, ""};
  if (in.q.has_word("mma")) return {"mma", "9.7.16.10.9", true, false, ""};
  if (names_any(in, {"fence::before_thread_sync", "fence::after_thread_sync"})) return {"fence", "9.7.16.11.1", false, false, ""};
  if (in.q.has_word("commit")) return {"commit", "9.7.16.12.1", true, false, "b64"};
  return {"", "9.7.16", false, false, ""};
}

// The words an operation requires beyond the block's common ones: ld/st a shape and a .num, ld.red a .min/.max, cp a
// shape, shift .down, mma a .kind (and .block_scale with the .kind::mxf* kinds only), commit .mbarrier::arrive::one.
std::string operation_error(const Instruction& in, const Block& b) {
  const std::string op = b.op;
  if (op == "ld" || op == "st") {
    if (names_count(in, {"16x64b", "16x128b", "16x256b", "32x32b", "16x32bx2"}) != 1) return "tcgen05." + op + " names one shape";
    if (names_count(in, {"x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"}) != 1) return "tcgen05." + op + " names one .num (.x1 ... .x128)";
    if (in.q.has_word("red") && names_count(in, {"min", "max"}) != 1) return "tcgen05.ld.red names one .redOp, .min or .max";
    if (!in.q.has_word("red") && names_any(in, {"min", "max", "abs", "NaN"})) return ".min, .max, .abs and .NaN belong to tcgen05.ld.red";
  } else if (op == "cp") {
    if (names_count(in, {"128x256b", "4x256b", "128x128b", "64x128b", "32x128b"}) != 1) return "tcgen05.cp names one shape";
  } else if (op == "shift") {
    if (!in.q.has_word("down")) return "tcgen05.shift names .down";
  } else if (op == "mma") {
    unsigned kinds = 0;
    bool scaled_kind = false;
    for (const auto& w : in.q.words)
      if (w.rfind("kind::", 0) == 0) ++kinds, scaled_kind = w.rfind("kind::mx", 0) == 0;
    if (kinds != 1) return "tcgen05.mma names one .kind";
    if (scaled_kind != in.q.has_word("block_scale")) return ".block_scale goes with .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4 (and they with it)";
  } else if (op == "commit") {
    if (!in.q.has_word("mbarrier::arrive::one")) return "tcgen05.commit names .mbarrier::arrive::one";
  }
  return "";
}

std::string decode(const Instruction& in) {
  const Block b = block_of(in);
  if (!*b.op) return "tcgen05 names no operation (alloc, dealloc, relinquish_alloc_permit, ld, st, wait, cp, shift, mma, fence, commit)";
  const std::string op = std::string("tcgen05.") + b.op;
  const unsigned groups = names_count(in, {"cta_group::1", "cta_group::2"});
  if (b.cta_group ? groups != 1 : groups != 0)
    return b.cta_group ? op + " names one .cta_group" : op + " takes no .cta_group";
  const bool sync = in.q.has_word("sync"), aligned = in.q.has_word("aligned");
  if (b.sync_aligned ? !(sync && aligned) : (sync || aligned))
    return b.sync_aligned ? op + " needs .sync and .aligned" : op + " takes no .sync or .aligned";
  const std::string type = b.type;
  if (type.empty() && !in.q.types.empty()) return op + " takes no type";
  if (!type.empty() && in.q.types.size() != 1) return op + " names one type";
  if (!type.empty() && type != "*" && type != scalar_type_name(in.q.types[0].scalar)) return op + " names the type ." + type;
  return operation_error(in, b);
}

}  // namespace

std::string tcgen05_form_error(const Instruction& in) {
  if (in.op != Opcode::tcgen05_) return "";
  const Block b = block_of(in);
  const std::string why = decode(in);
  return why.empty() ? "" : "not a form of tcgen05: " + why + " (ISA " + b.section + ")";
}

}  // namespace ptx::ir
