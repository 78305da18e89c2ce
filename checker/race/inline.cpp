// Inlining for the race engine (see inline.hpp). A call (ISA 9.7.12.2 `call`) passes its arguments and results in
// `.param` variables of the call site (PTX interoperability guide 2.3): the callee's `ld.param [p_i]` reads what
// the caller stored into its i-th argument variable, and the caller's `ld.param [retval]` reads what the callee
// stored into its return parameter. Spliced in, the callee's parameter and return references become references
// to the call site's variables, so the value flow is that of the memory they name (private.hpp makes it register
// flow); `ret` becomes a branch to the instruction after the call.
#include "checker/race/inline.hpp"
#include "checker/race/notes.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace ptxcheck::race {
using ptx::ir::Function;
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using ptx::ir::StateSpace;
using ptx::ir::VarRef;
using OK = Operand::Kind;

bool output_only_system_call(const std::string& name) { return name == "vprintf" || name == "__assertfail"; }

namespace {
// A function's parameter sizes in bytes.
struct Signature {
  std::vector<std::uint64_t> rets, params;
};

Signature signature_of(const Function& f) {
  Signature s;
  for (const auto& v : f.returns) s.rets.push_back(v.size_bytes());
  for (const auto& v : f.params) s.params.push_back(v.size_bytes());
  return s;
}

// The signature of a `.callprototype` (ISA 11.4.5): `[(ret-list)] _ (param-list)`, each element
// `.param [.align N] .type _[[N]]` (or `.reg .type _`). nullopt when the text has another shape.
std::optional<Signature> parse_prototype(const std::string& text) {
  // Split at the `_` that stands for the name: the first `_` outside parentheses.
  int depth = 0;
  std::size_t name = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '(') ++depth;
    else if (ch == ')') --depth;
    else if (ch == '_' && depth == 0) { name = i; break; }
  }
  if (name == std::string::npos) return std::nullopt;
  auto list = [](std::string part, std::vector<std::uint64_t>& out) -> bool {
    auto open = part.find('('), close = part.rfind(')');
    if (open == std::string::npos) return part.find_first_not_of(" \t\r\n") == std::string::npos;
    if (close == std::string::npos || close < open) return false;
    std::string in = part.substr(open + 1, close - open - 1);
    if (in.find_first_not_of(" \t\r\n") == std::string::npos) return true;
    std::size_t pos = 0;
    while (pos <= in.size()) {
      auto comma = in.find(',', pos);
      std::string e = in.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      unsigned bits = 0;
      std::uint64_t count = 1;
      bool param = false, reg = false;
      std::size_t k = 0;
      while (k < e.size()) {
        if (e[k] == '.') {
          std::size_t j = k + 1;
          while (j < e.size() && std::isalnum(static_cast<unsigned char>(e[j]))) ++j;
          std::string w = e.substr(k + 1, j - k - 1);
          if (w == "param") param = true;
          else if (w == "reg") reg = true;
          else if (w.size() >= 2 && (w[0] == 'b' || w[0] == 'u' || w[0] == 's' || w[0] == 'f') &&
                   std::all_of(w.begin() + 1, w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            bits = static_cast<unsigned>(std::stoul(w.substr(1)));
          else if (w == "pred") bits = 8;
          k = j;
        } else if (e[k] == '[') {
          auto end = e.find(']', k);
          if (end == std::string::npos) return false;
          try { count = std::stoull(e.substr(k + 1, end - k - 1)); } catch (...) { return false; }
          k = end + 1;
        } else {
          ++k;
        }
      }
      if (bits == 0 || bits % 8 || (!param && !reg)) return false;
      out.push_back(bits / 8 * count);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return true;
  };
  Signature s;
  if (!list(text.substr(0, name), s.rets) || !list(text.substr(name + 1), s.params)) return std::nullopt;
  return s;
}

bool same_sizes(const Signature& a, const Signature& b) { return a.rets == b.rets && a.params == b.params; }

// The parts of a call instruction: `call{.uni} [(rets),] target, [(args)][, prototype-or-targets]`.
struct CallShape {
  const Operand* rets = nullptr;
  const Operand* target = nullptr;
  const Operand* args = nullptr;
  const Operand* extra = nullptr;  // a label: `.callprototype` or `.calltargets`
};
std::optional<CallShape> shape_of(const Instruction& in) {
  CallShape c;
  std::size_t k = 0;
  const auto& o = in.operands;
  if (k < o.size() && o[k].kind == OK::List) c.rets = &o[k++];
  if (k >= o.size() || (o[k].kind != OK::Function && o[k].kind != OK::Register)) return std::nullopt;
  c.target = &o[k++];
  if (k < o.size() && o[k].kind == OK::List) c.args = &o[k++];
  if (k < o.size() && o[k].kind == OK::Label) c.extra = &o[k++];
  if (k != o.size()) return std::nullopt;
  return c;
}

// Functions whose address the module takes: a function name used as an operand other than a direct call's
// target (`mov.u64 %rd, f`), or a variable initializer that holds it (ISA 5.4.4).
std::set<std::size_t> address_taken(const ptx::ir::Module& m) {
  std::set<std::size_t> out;
  std::function<void(const Operand&)> visit = [&](const Operand& o) {
    if (o.kind == OK::Function && o.target >= 0) out.insert(static_cast<std::size_t>(o.target));
    for (const auto& e : o.elements) visit(e);
  };
  for (const auto& f : m.functions)
    for (const auto& in : f.body)
      for (std::size_t k = 0; k < in.operands.size(); ++k) {
        if (in.op == Opcode::call_) {
          auto sh = shape_of(in);
          if (sh && sh->target == &in.operands[k]) continue;  // the direct target itself
        }
        visit(in.operands[k]);
      }
  auto by_name = [&](const std::string& n) {
    for (std::size_t i = 0; i < m.functions.size(); ++i) if (m.functions[i].name == n) out.insert(i);
  };
  for (const auto& g : m.globals) for (const auto& r : g.relocations) by_name(r.symbol);
  for (const auto& f : m.functions) for (const auto& l : f.locals) for (const auto& r : l.relocations) by_name(r.symbol);
  return out;
}

std::string where_text(const ptx::ir::Module& m, const Instruction& in) {
  const auto& p = in.loc.pos;
  std::string s;
  if (p.file) {
    auto it = m.source_files.find(p.file);
    s = (it == m.source_files.end() ? "file" + std::to_string(p.file) : it->second) + ":" + std::to_string(p.line) + " ";
  }
  return s + "(ptx line " + std::to_string(in.loc.ptx_line) + ")";
}

class Inliner {
 public:
  Inliner(const ptx::ir::Module& m, const Function& kernel, const InlineOptions& o) : m_(m), o_(o) {
    out_.function = kernel;
    out_.function.body.clear();
    out_.function.labels.clear();
    out_.function.locals.clear();
    out_.function.registers.clear();
    taken_ = address_taken(m);
    // Another module can take the address of a .visible/.weak function or define an .extern one: the set of
    // possible targets of an indirect call is then open (separate compilation, ISA 11.6 linking directives).
    for (const auto& f : m.functions)
      if (!f.is_entry && (f.is_visible || f.is_weak || (f.is_extern && !output_only_system_call(f.name)))) open_ = true;
  }

  Inlined run(const Function& kernel) {
    Frame top;
    top.fn = &kernel;
    for (std::size_t r = 0; r < kernel.registers.size(); ++r) top.reg.push_back(static_cast<int>(r));
    for (std::size_t i = 0; i < kernel.params.size(); ++i) top.param.push_back(VarRef{VarRef::Where::Param, std::uint32_t(i)});
    out_.function.registers = kernel.registers;
    for (std::size_t l = 0; l < kernel.locals.size(); ++l) top.local.push_back(VarRef{VarRef::Where::Local, add_local(kernel.locals[l], "")});
    stack_.push_back(&kernel);
    splice(top, 0, "");
    for (const auto& n : notes_) out_.notes.push_back(n);
    return std::move(out_);
  }

 private:
  struct Frame {
    const Function* fn = nullptr;
    std::vector<int> reg;          // callee register -> kernel register
    std::vector<VarRef> local, param, ret;
  };
  struct Fixup {
    std::uint32_t instr;
    std::vector<std::size_t> path;  // operand, then element indices
    std::uint32_t target;           // instruction index in the frame's function (its size = after the body)
  };

  std::uint32_t add_local(ptx::ir::Variable v, const std::string& suffix) {
    // Module-lifetime variables declared in a body (.shared/.global/.const, ISA 5.1) are one allocation however
    // often the function is called; .local and .param ones are one per call (per activation).
    if (!suffix.empty()) {
      if (v.space == StateSpace::local || v.space == StateSpace::param) v.name += suffix;
      else {
        std::string key = v.name + "@" + std::to_string(v.ptx_line);
        if (auto it = shared_locals_.find(key); it != shared_locals_.end()) return it->second;
        v.name += "@" + std::to_string(v.ptx_line);
        out_.function.locals.push_back(v);
        return shared_locals_[key] = static_cast<std::uint32_t>(out_.function.locals.size() - 1);
      }
    }
    out_.function.locals.push_back(std::move(v));
    return static_cast<std::uint32_t>(out_.function.locals.size() - 1);
  }

  VarRef map_var(const Frame& fr, const VarRef& v) const {
    switch (v.where) {
      case VarRef::Where::Local: return fr.local.at(v.index);
      case VarRef::Where::Param: return fr.param.at(v.index);
      case VarRef::Where::Return: return fr.ret.at(v.index);
      default: return v;
    }
  }

  Operand map_operand(const Frame& fr, Operand o, std::uint32_t at, std::vector<std::size_t>& path, std::vector<Fixup>& fix) const {
    auto reg = [&](std::int32_t r) { return r < 0 ? r : fr.reg.at(static_cast<std::size_t>(r)); };
    switch (o.kind) {
      case OK::Register: case OK::PredPair: o.reg = reg(o.reg); o.reg2 = reg(o.reg2); break;
      case OK::Variable: o.var = map_var(fr, o.var); break;
      case OK::Address:
        if (o.base_kind == Operand::BaseKind::Register) o.reg = reg(o.reg);
        if (o.base_kind == Operand::BaseKind::Variable) o.var = map_var(fr, o.var);
        break;
      case OK::Label:
        if (o.target >= 0) fix.push_back({at, path, static_cast<std::uint32_t>(o.target)});
        break;
      default: break;
    }
    for (std::size_t k = 0; k < o.elements.size(); ++k) {
      path.push_back(k);
      o.elements[k] = map_operand(fr, o.elements[k], at, path, fix);
      path.pop_back();
    }
    return o;
  }

  Instruction map_instruction(const Frame& fr, const Instruction& in, std::uint32_t at, std::vector<Fixup>& fix) const {
    Instruction o = in;
    if (o.guard >= 0) o.guard = fr.reg.at(static_cast<std::size_t>(o.guard));
    std::vector<std::size_t> path;
    for (std::size_t k = 0; k < o.operands.size(); ++k) {
      path.assign(1, k);
      o.operands[k] = map_operand(fr, o.operands[k], at, path, fix);
    }
    return o;
  }

  std::uint32_t emit(Instruction in) {
    out_.function.body.push_back(std::move(in));
    return static_cast<std::uint32_t>(out_.function.body.size() - 1);
  }

  // A branch to be patched: `@guard bra` (guard -1 = unconditional), at the location of `like`.
  std::uint32_t emit_branch(const Instruction& like, int guard, bool negated) {
    Instruction b;
    b.op = Opcode::bra_;
    b.q = {};
    b.q.words.push_back("uni");
    b.guard = guard;
    b.guard_negated = negated;
    b.loc = like.loc;
    Operand t;
    t.kind = OK::Label;
    t.target = -1;
    b.operands.push_back(t);
    return emit(std::move(b));
  }
  void patch(std::uint32_t branch, std::uint32_t target) { out_.function.body[branch].operands[0].target = static_cast<std::int32_t>(target); }

  static Operand register_operand(int reg) {
    Operand o;
    o.kind = OK::Register;
    o.reg = reg;
    return o;
  }
  // `mov.TYPE to, from` at the position of `like` (a call's parameter passing).
  void emit_move(const Instruction& like, const ptx::ir::Type& type, const Operand& to, const Operand& from) {
    Instruction mv;
    mv.op = Opcode::mov_;
    mv.q.types.push_back(type);
    mv.q.words = {ptx::ir::scalar_type_name(type.scalar)};
    mv.loc = like.loc;
    mv.operands = {to, from};
    emit(std::move(mv));
  }

  int new_register(const std::string& name, ptx::ir::Type t) {
    out_.function.registers.push_back({name, t});
    return static_cast<int>(out_.function.registers.size() - 1);
  }

  void unsupported(std::uint32_t at, std::string why) { out_.unsupported.emplace(at, std::move(why)); }

  // Splices the frame's function body; `ret` (in a callee) branches to the instruction after it.
  void splice(const Frame& fr, unsigned depth, const std::string& suffix) {
    const Function& fn = *fr.fn;
    const auto n = static_cast<std::uint32_t>(fn.body.size());
    std::vector<std::uint32_t> start(n + 1, 0);
    std::vector<Fixup> fix;
    std::vector<std::uint32_t> returns;  // branches to the end
    for (std::uint32_t i = 0; i < n; ++i) {
      start[i] = static_cast<std::uint32_t>(out_.function.body.size());
      const Instruction& in = fn.body[i];
      if (out_.function.body.size() > o_.max_instructions) {
        too_big_ = true;
        emit(map_instruction(fr, in, static_cast<std::uint32_t>(out_.function.body.size()), fix));
        continue;
      }
      if (in.op == Opcode::ret_ && depth > 0) {
        returns.push_back(emit_branch(in, in.guard >= 0 ? fr.reg.at(in.guard) : -1, in.guard_negated));
        continue;
      }
      if (in.op == Opcode::call_) { call(fr, in, depth, fix); continue; }
      emit(map_instruction(fr, in, static_cast<std::uint32_t>(out_.function.body.size()), fix));
    }
    start[n] = static_cast<std::uint32_t>(out_.function.body.size());
    for (const auto& f : fix) {
      Operand* o = &out_.function.body[f.instr].operands[f.path[0]];
      for (std::size_t k = 1; k < f.path.size(); ++k) o = &o->elements[f.path[k]];
      o->target = static_cast<std::int32_t>(start.at(f.target));
    }
    for (auto b : returns) patch(b, start[n]);
    for (const auto& [label, idx] : fn.labels)
      if (idx <= n) out_.function.labels[label + suffix] = start[idx];
  }

  // An indirect call's candidate targets (ISA 9.7.12.2): functions whose address the program took, with the
  // call's prototype; `.calltargets` names the list itself. A reason when the call must stay unsupported.
  std::optional<std::string> indirect_targets(const Frame& fr, const Instruction& in, const CallShape& sh, std::vector<std::size_t>& targets) {
    if (open_) return "indirect call (the module has .visible, .weak or .extern functions, so its targets are not all known)";
    const std::string* proto_name = nullptr;
    std::optional<Signature> proto;
    const std::vector<std::string>* listed = nullptr;
    if (sh.extra && in.operands.back().kind == OK::Label) {
      const auto idx = static_cast<std::uint32_t>(in.operands.back().target);
      for (const auto& [name, text] : fr.fn->prototypes)
        if (auto it = fr.fn->labels.find(name); it != fr.fn->labels.end() && it->second == idx) { proto_name = &name; proto = parse_prototype(text); }
      for (const auto& [name, list] : fr.fn->branch_targets)
        if (auto it = fr.fn->labels.find(name); it != fr.fn->labels.end() && it->second == idx) listed = &list;
    }
    if (listed) {
      for (const auto& nm : *listed)
        for (std::size_t k = 0; k < m_.functions.size(); ++k) if (m_.functions[k].name == nm) targets.push_back(k);
    } else {
      if (!proto_name || !proto) return "indirect call without a readable .callprototype";
      for (std::size_t k : taken_) {
        const auto& g = m_.functions[k];
        if (!g.is_entry && same_sizes(signature_of(g), *proto)) targets.push_back(k);
      }
    }
    return std::nullopt;
  }

  // Why a call with these candidates cannot be spliced (each must be modelled), or nullopt.
  std::optional<std::string> why_not_spliced(const std::vector<std::size_t>& targets, const std::vector<Operand>& args,
                                             const std::vector<Operand>& rets, unsigned depth) const {
    for (std::size_t k : targets) {
      const Function& g = m_.functions[k];
      if (!g.has_body) {
        if (output_only_system_call(g.name)) continue;
        if (o_.assume_pure_externs) continue;
        return "call of " + g.name + " (declared without a body)";
      }
      if (std::find(stack_.begin(), stack_.end(), &g) != stack_.end()) return "recursive call of " + g.name;
      if (depth + 1 > o_.max_depth) return "call of " + g.name + " nested deeper than " + std::to_string(o_.max_depth);
      if (g.params.size() != args.size() || g.returns.size() > rets.size())
        return "call of " + g.name + " whose arguments do not match its parameters";
      // A .param parameter is passed as a .param variable; a legacy .reg one (ISA 7.1) as a register or value.
      for (std::size_t k = 0; k < args.size(); ++k) {
        const bool reg = g.params[k].space == StateSpace::reg;
        if (reg ? args[k].kind != OK::Register && args[k].kind != OK::Immediate : args[k].kind != OK::Variable)
          return "call of " + g.name + " with argument " + std::to_string(k + 1) + " not in its parameter's state space";
      }
      for (std::size_t k = 0; k < g.returns.size(); ++k) {
        const bool reg = g.returns[k].space == StateSpace::reg;
        if (rets[k].kind != (reg ? OK::Register : OK::Variable) && rets[k].kind != OK::Sink)
          return "call of " + g.name + " with result " + std::to_string(k + 1) + " not in its parameter's state space";
      }
    }
    return std::nullopt;
  }

  // The body of `g` spliced in for the call `in`: its registers and locals renamed, arguments in, results out.
  void splice_call(const Instruction& in, const Function& g, const std::vector<Operand>& args, const std::vector<Operand>& rets, unsigned depth) {
    Frame callee;
    callee.fn = &g;
    const std::string suffix = "@" + std::to_string(++calls_);
    for (const auto& r : g.registers) callee.reg.push_back(new_register(r.name + suffix, r.type));
    for (const auto& l : g.locals) callee.local.push_back(VarRef{VarRef::Where::Local, add_local(l, suffix)});
    // Legacy .reg parameters are the callee's first registers, parameters then results (ir/build.cpp): an
    // argument is moved into its register before the body, a result out of its register after it.
    int next_reg = 0;
    std::vector<std::pair<Operand, int>> results_out;  // caller's register <- callee's
    for (std::size_t k = 0; k < g.params.size(); ++k) {
      if (g.params[k].space != StateSpace::reg) { callee.param.push_back(args[k].var); continue; }
      callee.param.push_back(VarRef{});
      emit_move(in, g.params[k].type, register_operand(callee.reg.at(static_cast<std::size_t>(next_reg++))), args[k]);
    }
    for (std::size_t k = 0; k < g.returns.size(); ++k) {
      if (g.returns[k].space == StateSpace::reg) {
        const int from = callee.reg.at(static_cast<std::size_t>(next_reg++));
        if (rets[k].kind == OK::Register) results_out.emplace_back(rets[k], from);
        callee.ret.push_back(VarRef{});
        continue;
      }
      if (rets[k].kind == OK::Variable) { callee.ret.push_back(rets[k].var); continue; }
      // A result the caller discards (`_`): the callee still stores it, into a variable of its own.
      ptx::ir::Variable v = g.returns[k];
      v.space = StateSpace::param;
      callee.ret.push_back(VarRef{VarRef::Where::Local, add_local(v, suffix)});
    }
    stack_.push_back(&g);
    splice(callee, depth + 1, suffix);
    stack_.pop_back();
    for (const auto& [to, from] : results_out)
      emit_move(in, out_.function.registers.at(static_cast<std::size_t>(from)).type, to, register_operand(from));
  }

  // The call at `in` (of the frame's function): spliced, or kept with a reason (unsupported) or as pure.
  void call(const Frame& fr, const Instruction& in, unsigned depth, std::vector<Fixup>& fix) {
    const auto at = static_cast<std::uint32_t>(out_.function.body.size());
    std::vector<Fixup> own;  // the call's own label operands: patched only if the call is kept
    Instruction mapped = map_instruction(fr, in, at, own);
    auto keep = [&](std::optional<std::string> why) {
      auto idx = emit(mapped);
      for (auto f : own) { f.instr = idx; fix.push_back(f); }
      if (why) unsupported(idx, *why);
    };
    auto sh = shape_of(mapped);
    if (!sh) return keep("call of an unrecognised form");
    std::vector<Operand> rets = sh->rets ? sh->rets->elements : std::vector<Operand>{};
    const std::vector<Operand> args = sh->args ? sh->args->elements : std::vector<Operand>{};
    const int guard = mapped.guard;
    const bool negated = mapped.guard_negated;

    // Candidate targets.
    std::vector<std::size_t> targets;
    if (sh->target->kind == OK::Function) {
      targets.push_back(static_cast<std::size_t>(sh->target->target));
    } else {
      if (auto why = indirect_targets(fr, in, *sh, targets)) return keep(*why);
      if (targets.empty()) {
        // No function of the program can be called here: a call through this pointer has no defined behaviour,
        // and no execution of the program continues past it.
        notes_.insert(note::indirect_call_undefined(where_text(m_, in)));
        Instruction t;
        t.op = Opcode::trap_;
        t.guard = guard;
        t.guard_negated = negated;
        t.loc = in.loc;
        emit(std::move(t));
        return;
      }
      notes_.insert(note::indirect_calls_resolved());
    }

    // Every candidate must be modelled, else the call stays unsupported.
    if (auto why = why_not_spliced(targets, args, rets, depth)) return keep(*why);

    // One arm per candidate: `@p_k bra ARM_k` on the pointer's value, the last candidate taking the rest (the
    // pointer holds one of their addresses, so this covers every possibility).
    std::uint32_t skip = 0;
    const bool guarded = guard >= 0;
    if (guarded) skip = emit_branch(in, guard, !negated);
    std::vector<std::uint32_t> to_arm, to_end;
    if (targets.size() > 1) {
      for (std::size_t t = 0; t + 1 < targets.size(); ++t) {
        int p = new_register("%callsel" + std::to_string(++calls_) , {ptx::ir::ScalarType::pred, 1});
        Instruction cmp;
        cmp.op = Opcode::setp_;
        cmp.q.types.push_back({ptx::ir::ScalarType::u64, 1});
        cmp.q.compare = ptx::ir::CompareOp::eq;
        cmp.q.words = {"eq", "u64"};
        cmp.loc = in.loc;
        Operand d;
        d.kind = OK::Register;
        d.reg = p;
        Operand fnop;
        fnop.kind = OK::Function;
        fnop.target = static_cast<std::int32_t>(targets[t]);
        cmp.operands = {d, *sh->target, fnop};
        emit(std::move(cmp));
        to_arm.push_back(emit_branch(in, p, false));
      }
    }
    for (std::size_t t = 0; t < targets.size(); ++t) {
      const auto arm_start = static_cast<std::uint32_t>(out_.function.body.size());
      if (t > 0) patch(to_arm[t - 1], arm_start);
      const Function& g = m_.functions[targets[t]];
      if (!g.has_body) {
        // Pure by assumption (or an output-only system call): the call stays; it writes no memory, and its
        // results are what the caller's later loads of the result variables read: unknown values.
        Instruction c = mapped;
        c.guard = -1;
        c.operands.clear();
        if (sh->rets) c.operands.push_back(*sh->rets);
        Operand fnop;
        fnop.kind = OK::Function;
        fnop.target = static_cast<std::int32_t>(targets[t]);
        c.operands.push_back(fnop);
        if (sh->args) c.operands.push_back(*sh->args);
        emit(std::move(c));
        if (!output_only_system_call(g.name)) pure_.insert(g.name);
      } else {
        splice_call(in, g, args, rets, depth);
      }
      if (t + 1 < targets.size()) to_end.push_back(emit_branch(in, -1, false));
    }
    const auto end = static_cast<std::uint32_t>(out_.function.body.size());
    for (auto b : to_end) patch(b, end);
    if (guarded) patch(skip, end);
    if (!pure_.empty()) {
      std::string names;
      for (const auto& nm : pure_) names += (names.empty() ? "" : ", ") + nm;
      pure_note_ = note::pure_externs(names);
    }
  }

 public:
  std::string pure_note_;
  bool too_big_ = false;

 private:
  const ptx::ir::Module& m_;
  const InlineOptions& o_;
  Inlined out_;
  std::set<std::size_t> taken_;
  bool open_ = false;
  std::vector<const Function*> stack_;
  std::map<std::string, std::uint32_t> shared_locals_;
  std::set<std::string> notes_, pure_;
  unsigned calls_ = 0;
};
}  // namespace

Inlined inline_calls(const ptx::ir::Module& m, const Function& kernel, const InlineOptions& o) {
  bool any = false;
  for (const auto& in : kernel.body) any |= in.op == Opcode::call_;
  if (!any) {
    Inlined same;
    same.function = kernel;
    return same;
  }
  Inliner in(m, kernel, o);
  Inlined r = in.run(kernel);
  if (!in.pure_note_.empty()) r.notes.push_back(in.pure_note_);
  if (in.too_big_) r.unsupported.emplace(0, "calls inlined past " + std::to_string(o.max_instructions) + " instructions");
  return r;
}

}  // namespace ptxcheck::race
