// Decodes the ordering instructions of a PTX module and attributes each to a user-source position through the
// `.loc` inlined_at chain the IR keeps for every instruction.
#include "checker/abi/ptx_ops.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace ptxcheck::abi {
namespace {
namespace fs = std::filesystem;
using ptx::ir::Opcode;
using ptx::ir::SourcePos;

std::optional<PtxClass> classify(const ptx::ir::Instruction& ins, MemorySemantics& sem, Scope& scope) {
  using S = MemorySemantics;
  const auto& q = ins.q;
  switch (ins.op) {
    case Opcode::membar_:  // ISA 9.7.13.4: on sm_70+ membar.{cta,gl,sys} is fence.sc.{cta,gpu,sys}
      if (q.words.empty() || q.words[0] == "proxy") return std::nullopt;
      sem = S::sc;
      scope = q.scope.value_or(Scope::gpu);
      return PtxClass::fence;
    case Opcode::fence_:
      for (const auto& w : q.words)
        if (w == "proxy" || w == "mbarrier_init" || w == "op_restrict" || w == "sync_restrict") return std::nullopt;
      sem = q.semantics.value_or(S::acq_rel);  // ISA 9.7.13.4: .acq_rel when .sem is absent
      scope = q.scope.value_or(Scope::sys);
      return PtxClass::fence;
    case Opcode::atom_:
    case Opcode::red_:  // ISA 9.7.13.5-6: .relaxed and .gpu when absent
      sem = q.semantics.value_or(S::relaxed);
      scope = q.scope.value_or(Scope::gpu);
      return PtxClass::atom;
    case Opcode::ld_:
    case Opcode::st_: {
      if (q.space && (*q.space == ptx::ir::StateSpace::param || *q.space == ptx::ir::StateSpace::const_))
        return std::nullopt;  // .param/.const accesses are read-only or private to the thread
      sem = q.semantics.value_or(S::weak);
      if (sem == S::volatile_ || sem == S::mmio) scope = Scope::sys;  // ISA 8.4.1, 8.4.2
      else scope = q.scope.value_or(Scope::gpu);
      auto cls = ins.op == Opcode::ld_ ? PtxClass::ld : PtxClass::st;
      return sem == S::weak ? std::optional<PtxClass>() : cls;
    }
    default: return std::nullopt;
  }
}

bool weak_access(const ptx::ir::Instruction& ins) {
  return (ins.op == Opcode::ld_ || ins.op == Opcode::st_) && !ins.q.semantics &&
         (!ins.q.space || *ins.q.space == ptx::ir::StateSpace::global || *ins.q.space == ptx::ir::StateSpace::shared);
}

struct Collector {
  const ptx::ir::Module& module;
  std::vector<std::uint32_t> user_files;
  PtxOps out;

  bool is_user(std::uint32_t file) const {
    for (auto f : user_files) if (f == file) return true;
    return false;
  }

  // A body without branches (and calling only such bodies) runs the same instructions on every call.
  bool straight(const ptx::ir::Function& f, int depth) const {
    if (depth > 16) return false;
    for (const auto& ins : f.body) {
      if (ins.op == Opcode::bra_ || ins.op == Opcode::brx_) return false;
      if (ins.op == Opcode::call_)
        for (const auto& o : ins.operands)
          if (o.kind == ptx::ir::Operand::Kind::Function && o.target >= 0 &&
              !straight(module.functions[static_cast<std::size_t>(o.target)], depth + 1))
            return false;
    }
    return true;
  }

  // `via_call`: reached through a call to a body with branches (see PtxOp::via_call).
  void walk(const ptx::ir::Function& f, const std::vector<SourcePos>& context, bool via_call, int depth) {
    for (std::size_t i = 0; i < f.body.size(); ++i) {
      const auto& ins = f.body[i];
      std::vector<SourcePos> chain{ins.loc.pos};  // innermost first
      chain.insert(chain.end(), ins.loc.inlined_at.begin(), ins.loc.inlined_at.end());
      chain.insert(chain.end(), context.begin(), context.end());
      if (ins.op == Opcode::call_) {
        for (const auto& o : ins.operands) {
          if (o.kind != ptx::ir::Operand::Kind::Function || o.target < 0) continue;
          const auto& callee = module.functions[static_cast<std::size_t>(o.target)];
          if (callee.has_body && depth < 16) walk(callee, chain, via_call || !straight(callee, 0), depth + 1);
        }
        continue;
      }
      PtxOp op;
      MemorySemantics sem = MemorySemantics::weak;
      Scope scope = Scope::gpu;
      op.cls = classify(ins, sem, scope);
      if (!op.cls && !weak_access(ins)) continue;
      op.sem = sem;
      op.scope = scope;
      op.atom_op = ins.q.atom_op;
      op.text = ptx::ir::opcode_text(ins);
      op.ptx_line = ins.loc.ptx_line;
      op.function = f.name;
      // Innermost user-file position; when it comes from a call site (the callee has none of its own) the
      // callee's code serves every order it was called with, so the operation is marked via_call.
      const std::size_t own = chain.size() - context.size();
      for (std::size_t k = 0; k < chain.size(); ++k)
        if (chain[k].line != 0 && is_user(chain[k].file)) {
          op.line = chain[k].line;
          op.column = chain[k].column;
          op.via_call = via_call && k >= own;
          break;
        }
      out.ops.push_back(std::move(op));
    }
  }
};

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  auto ca = fs::weakly_canonical(a, ec), cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}
}  // namespace

PtxOps collect_ptx_ops(const ptx::ir::Module& module, const std::string& user_source) {
  Collector c{module, {}, {}};
  for (const auto& [index, path] : module.source_files)
    if (same_file(path, user_source)) c.user_files.push_back(index);
  if (c.user_files.empty())  // hand-written or relocated PTX: fall back to the file name
    for (const auto& [index, path] : module.source_files)
      if (fs::path(path).filename() == fs::path(user_source).filename()) c.user_files.push_back(index);
  auto kernels = module.kernels();
  if (kernels.empty())
    for (const auto& f : module.functions) if (f.has_body) kernels.push_back(&f);
  for (const auto* k : kernels) c.walk(*k, {}, false, 0);
  c.out.user_files = c.user_files;
  return std::move(c.out);
}

}  // namespace ptxcheck::abi
