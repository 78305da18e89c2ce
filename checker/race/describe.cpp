// See describe.hpp.
#include "checker/race/describe.hpp"

#include "checker/race/strength.hpp"
#include "semantics/support/names.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

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

namespace {
bool cuda_source_path(const std::string& path) { return path.ends_with(".cu") || path.ends_with(".cuh"); }

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  if (in) s << in.rdbuf();
  return s.str();
}

// The bytes of one element of the variable an access reaches, or 0 (bytes): its PTX type where it is typed, else the
// access's own scalar type (nvcc declares arrays as `.b8`).
unsigned element_bytes(const ptx::ir::Variable* var, const ptx::ir::Instruction& in) {
  if (var && var->type.size_bytes() > 1) return var->type.size_bytes();
  if (in.q.types.empty()) return 0;
  return ptx::ir::scalar_bits(in.q.types[0].scalar) / 8;
}

const ptx::ir::Variable* variable_named(const ptx::ir::Module& m, const ptx::ir::Function& kernel, std::string_view name) {
  for (const auto& v : kernel.locals)
    if (v.name == name) return &v;
  return m.find_global(name);
}
}  // namespace

std::vector<std::string> source_parameter_names(const ptx::ir::Module& m, const ptx::ir::Function& kernel) {
  static std::mutex lock;
  static std::map<std::pair<std::string, std::string>, std::vector<std::string>> cache;  // (PTX file, kernel) -> names
  const std::lock_guard<std::mutex> guard(lock);
  const auto key = std::make_pair(m.file, kernel.name);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::vector<std::string> names;
  const std::string base = ptxcheck::names::kernel_base_name(kernel.name);
  for (const auto& [id, path] : m.source_files) {
    if (!cuda_source_path(path)) continue;
    names = ptxcheck::names::cuda_parameter_names(file_text(path), base, kernel.params.size());
    if (!names.empty()) break;
  }
  return cache[key] = names;
}

std::string cuda_object_name(const ptx::ir::Module& m, const ptx::ir::Function& kernel, std::string_view object, std::int64_t offset,
                             const ptx::ir::Instruction& in) {
  if (object.empty() || object == "?") return "";
  const std::vector<std::string> types = ptxcheck::names::kernel_cxx_parameter_types(kernel.name);
  for (std::size_t p = 0; p < kernel.params.size(); ++p) {
    const std::string& name = kernel.params[p].name;
    const bool whole = name == object;
    const bool field = !whole && object.size() > name.size() && object.starts_with(name) && object[name.size()] == '@';
    if (!whole && !field) continue;
    const std::vector<std::string> source = source_parameter_names(m, kernel);
    // A hand-written PTX kernel's parameter names are its own; nvcc's are `<symbol>_param_<N>`.
    const std::string own = name.find("_param_") == std::string::npos ? name : "";
    const std::string argument = ptxcheck::names::argument_name(p + 1, p < source.size() ? source[p] : own);
    const std::string type = types.size() == kernel.params.size() ? types[p] : "";
    if (field)  // a pointer field of a struct argument (encode.hpp field_object_name): its pointee is not known
      return "the pointer at byte " + std::string(object.substr(name.size() + 1)) + " of " + argument +
             ptxcheck::names::element_text(offset, element_bytes(nullptr, in), true);
    // A pointer's elements: its pointee's (0 for a struct: bytes); a typeless C kernel's: the access's.
    const std::string pointee = ptxcheck::names::pointee_type(type);
    const unsigned bytes = pointee.empty() ? element_bytes(nullptr, in) : ptxcheck::names::cxx_type_bytes(pointee);
    return argument + ptxcheck::names::element_text(offset, bytes, true);
  }
  const ptx::ir::Variable* var = variable_named(m, kernel, object);
  const bool array = !var || var->count != 1;
  return ptxcheck::names::variable_cxx_name(object) + ptxcheck::names::element_text(offset, element_bytes(var, in), array);
}

}  // namespace ptxcheck::race
