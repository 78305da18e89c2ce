// ptx-interoperability 2.3 at call sites: arguments and return values are .param variables, as many as the
// callee's prototype has, each agreeing with the callee's parameter in shape, size, type and alignment.
#include "checker/abi/calling_rules.hpp"

#include <fmt/format.h>

namespace ptxcheck::abi::calling {
namespace {
using ptx::ir::Operand;
using ptx::ir::Variable;

const Variable* variable_of(const Context& c, const ptx::ir::Function& fn, const Operand& o) {
  if (o.kind != Operand::Kind::Variable) return nullptr;
  using W = ptx::ir::VarRef::Where;
  switch (o.var.where) {
    case W::Local: return &fn.locals.at(o.var.index);
    case W::Param: return &fn.params.at(o.var.index);
    case W::Return: return &fn.returns.at(o.var.index);
    case W::Global: return &c.module.globals.at(o.var.index);
    default: return nullptr;
  }
}

// Same shape, size and alignment; scalar and vector types equal, or one the untyped .b form of the other's width.
bool agree(const Context& c, const Variable& a, const Variable& p) {
  const bool arr_a = is_array(c, a), arr_p = is_array(c, p);
  if (arr_a != arr_p || a.size_bytes() != p.size_bytes()) return false;
  if (arr_a) return a.type == p.type && a.align == p.align;
  if (a.type == p.type) return true;
  return a.type.vector == p.type.vector && a.type.bits() == p.type.bits() &&
         (ptx::ir::is_bit_type(a.type.scalar) || ptx::ir::is_bit_type(p.type.scalar));
}

struct CallShape {
  const Operand* returns = nullptr;  // the `(r)` list, or none
  const Operand* args = nullptr;     // the `(a, b)` list, or none
  const ptx::ir::Function* callee = nullptr;  // none: an indirect call through a register
};
CallShape shape_of(const Context& c, const ptx::ir::Instruction& ins) {
  CallShape s;
  const auto& ops = ins.operands;
  std::size_t at = !ops.empty() && ops[0].kind == Operand::Kind::List ? 1 : 0;  // ISA 9.7.12.2: call (ret), f, (args)
  if (at == 1) s.returns = &ops[0];
  if (at < ops.size() && ops[at].kind == Operand::Kind::Function && ops[at].target >= 0)
    s.callee = &c.module.functions[static_cast<std::size_t>(ops[at].target)];
  if (at + 1 < ops.size() && ops[at + 1].kind == Operand::Kind::List) s.args = &ops[at + 1];
  return s;
}

// One list (arguments or return values) of a call against the callee's declarations (none: indirect).
void check_list(Context& c, const ptx::ir::Function& fn, const ptx::ir::Instruction& ins, const Operand* list,
                const std::vector<Variable>* want, const char* what, const std::string& callee) {
  const std::size_t n = list ? list->elements.size() : 0;
  const std::uint32_t line = ins.loc.ptx_line;
  if (want && n != want->size()) {
    c.add(line, callee, "call-arity", "2.3", fn.name,
          fmt::format("{} of the call to {}: {} given, its prototype declares {}", what, callee, n, want->size()));
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Operand& o = list->elements[i];
    if (o.kind == Operand::Kind::Sink && std::string_view(what) == "return values") continue;  // chapter 3: `call (_), vprintf`
    const Variable* v = variable_of(c, fn, o);
    const std::string label = fmt::format("{} {}", std::string_view(what).substr(0, std::string_view(what).size() - 1), i);
    if (!v || v->space != ptx::ir::StateSpace::param) {
      c.add(line, callee, "call-arg-space", "2.3", fn.name,
            fmt::format("{} of the call to {} is not a .param variable: all parameters and return values of a device "
                        "function use the parameter state space (2.3)", label, callee));
      continue;
    }
    if (!want) {
      check_declaration(c, fn, *v, label + " of an indirect call");
      continue;
    }
    const Variable& p = (*want)[i];
    if (!agree(c, *v, p))
      c.add(line, callee, "call-arg-mismatch", "2.3", fn.name,
            fmt::format("{} of the call to {} is `{}`, the callee declares `{}`: size, type and alignment must agree "
                        "(2.3 fixes one PTX form per source type)", label, callee, declaration(c, *v), declaration(c, p)));
  }
}
}  // namespace

void check_calls(Context& c, const ptx::ir::Function& fn) {
  for (const auto& ins : fn.body) {
    if (ins.op != ptx::ir::Opcode::call_) continue;
    const CallShape s = shape_of(c, ins);
    if (s.callee) ++c.report.calls;
    else ++c.report.indirect;
    const std::string callee = s.callee ? s.callee->name : std::string("an indirect callee");
    check_list(c, fn, ins, s.returns, s.callee ? &s.callee->returns : nullptr, "return values", callee);
    check_list(c, fn, ins, s.args, s.callee ? &s.callee->params : nullptr, "arguments", callee);
  }
}

}  // namespace ptxcheck::abi::calling
