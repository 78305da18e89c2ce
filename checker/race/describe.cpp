// See describe.hpp.
#include "checker/race/describe.hpp"

#include "checker/race/strength.hpp"

namespace ptxcheck::race {

Where where_of(const ptx::ir::Module& m, const ptx::ir::Instruction& in) {
  Where w;
  // An inlined instruction is reported at the innermost position in the kernel's own file (that of the outermost
  // call site): a __device__ function's line there, the calling line for a header's (atomicAdd, __syncthreads,
  // __pipeline_memcpy_async ...).
  const auto& outermost = in.loc.inlined_at.empty() ? in.loc.pos : in.loc.inlined_at.back();
  ptx::ir::SourcePos pos = outermost;
  for (auto it = in.loc.inlined_at.rbegin(); it != in.loc.inlined_at.rend(); ++it)
    if (it->file == outermost.file) pos = *it;
  if (in.loc.pos.file == outermost.file) pos = in.loc.pos;
  if (pos.file) {
    auto it = m.source_files.find(pos.file);
    w.file = it == m.source_files.end() ? "file" + std::to_string(pos.file) : it->second;
    w.line = pos.line;
    w.column = pos.column;
  }
  w.ptx_file = m.file;
  w.ptx_line = in.loc.ptx_line;
  return w;
}

const char* scope_name(ptx::ir::Scope s) {
  switch (s) {
    case ptx::ir::Scope::cta: return "cta";
    case ptx::ir::Scope::cluster: return "cluster";
    case ptx::ir::Scope::gpu: return "gpu";
    default: return "sys";
  }
}

std::string strength_text(const ptx::ir::Instruction& in, bool atomic) {
  const Strength s = strength_of(in, atomic);
  if (!s.strong) return "weak";
  const char* kind = atomic ? "atomic" : in.q.semantics == ptx::ir::MemorySemantics::volatile_ ? "volatile" : "strong";
  return std::string(kind) + "." + scope_name(s.scope);
}

std::string argument_text(const ptx::ir::Function& kernel, std::string_view object) {
  const std::vector<std::string> types = ptx::ir::kernel_cxx_parameter_types(kernel.name);
  for (std::size_t p = 0; p < kernel.params.size() && types.size() == kernel.params.size(); ++p) {
    const std::string& name = kernel.params[p].name;
    if (name == object) return "argument " + std::to_string(p + 1) + ", " + types[p];
    // A pointer field of a struct argument (encode.hpp field_object_name).
    if (object.size() > name.size() && object.compare(0, name.size(), name) == 0 && object[name.size()] == '@')
      return "the pointer at byte " + std::string(object.substr(name.size() + 1)) + " of argument " + std::to_string(p + 1) + ", " + types[p];
  }
  return "";
}

}  // namespace ptxcheck::race
