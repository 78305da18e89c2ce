// Symbolic execution of one thread (see encode.hpp): forward over the acyclic order of the CFG, values merged
// with ite at joins, integer arithmetic through semantics/ops over the symbolic domain (one semantics); what is
// not modelled as a value gets a fresh symbol, which only adds behaviours (sound for race freedom).
#include "checker/race/encode.hpp"
#include "checker/race/budget.hpp"
#include "checker/race/describe.hpp"
#include "checker/race/pipeline.hpp"
#include "checker/race/recurrence.hpp"
#include "checker/race/strength.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/ir/address.hpp"
#include "semantics/support/resource_guard.hpp"

#include "semantics/domain/symbolic.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/execute.hpp"
#include "semantics/ops/memory_access.hpp"
#include "semantics/ops/effect.hpp"
#include "semantics/ops/warp.hpp"
#include "semantics/ir/matrix_rows.hpp"
#include "semantics/ir/wmma_form.hpp"

#include <bit>
#include <optional>
#include <unordered_set>

namespace ptxcheck::race {
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using ptx::ir::ScalarType;
using ptx::ir::StateSpace;
using OK = Operand::Kind;
namespace ops = ptx::ops;

const char* space_name(Space s) {
  switch (s) {
    case Space::global: return "global";
    case Space::shared: return "shared";
    case Space::local: return "local";
    case Space::param: return "param";
    case Space::const_: return "const";
    default: return "generic";
  }
}

std::string argument_symbol(const std::string& param, std::int64_t offset) { return "arg." + param + "+" + std::to_string(offset); }

std::string field_object_name(const std::string& param, std::int64_t offset) { return param + "@" + std::to_string(offset); }

std::optional<std::pair<std::string, std::uint32_t>> parse_argument_symbol(const std::string& symbol) {
  const auto plus = symbol.rfind('+');
  if (symbol.rfind("arg.", 0) != 0 || plus == std::string::npos || plus + 1 == symbol.size()) return std::nullopt;
  const std::string digits = symbol.substr(plus + 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return std::nullopt;
  return std::pair{symbol.substr(4, plus - 4), static_cast<std::uint32_t>(std::stoul(digits))};
}

bool integer_add(const Instruction& in) {
  if ((in.op != Opcode::atom_ && in.op != Opcode::red_) || in.q.atom_op != ptx::ir::AtomOp::add || in.q.types.empty()) return false;
  return !ptx::ir::is_float(in.q.types.back().scalar) && in.q.vector_width <= 1;
}

// Operand b of an atom/red (ops::memory_access).
static std::size_t add_amount_operand(const Instruction& in) { return static_cast<std::size_t>(ptx::ops::memory_access(in)->source); }

bool positive_add(const Instruction& in) {
  if (!integer_add(in) || in.operands.size() <= add_amount_operand(in)) return false;
  const ScalarType t = in.q.types.back().scalar;
  const Operand& v = in.operands[add_amount_operand(in)];  // b, not a cache-policy after it (ISA 9.7.13.5-6)
  const unsigned w = ptx::ir::scalar_bits(t);
  const std::uint64_t x = w >= 64 ? static_cast<std::uint64_t>(v.imm) : static_cast<std::uint64_t>(v.imm) & ((std::uint64_t(1) << w) - 1);
  // Positive and below half the range, also for unsigned types: adding 0xffffffff to a .u32 is a decrement.
  return v.kind == OK::Immediate && x != 0 && !((x >> (w - 1)) & 1);
}

std::unordered_set<unsigned> constants_of(const z3::expr& e) {
  std::unordered_set<unsigned> out, seen;
  std::vector<z3::expr> todo{e};
  while (!todo.empty()) {
    z3::expr x = todo.back();
    todo.pop_back();
    if (!x.is_app() || !seen.insert(x.id()).second) continue;
    if (x.num_args() == 0) {
      if (!x.is_numeral()) out.insert(x.id());
      continue;
    }
    for (unsigned i = 0; i < x.num_args(); ++i) todo.push_back(x.arg(i));
  }
  return out;
}

Launch make_launch(z3::context& c, const Shape& block, const Shape& grid) {
  Launch l;
  const char* dims[] = {"x", "y", "z"};
  auto dim = [&](const Shape& fixed, const char* name, int d) {
    return fixed ? c.bv_val((*fixed)[d], 32) : c.bv_const((std::string(name) + "." + dims[d]).c_str(), 32);
  };
  for (int d = 0; d < 3; ++d) {
    l.ntid.push_back(dim(block, "ntid", d));
    l.nctaid.push_back(dim(grid, "nctaid", d));
  }
  return l;
}

z3::expr launch_shape_constraints(const Launch& launch, const Shape& block, const Shape& grid, bool x_only, const ptx::ir::Function& f) {
  z3::context& c = launch.ntid[0].ctx();
  auto u32 = [&](std::uint64_t v) { return c.bv_val(v, 32); };
  z3::expr e = c.bool_val(true);
  for (int d = 0; d < 3; ++d) {
    if (!block && x_only && d > 0) e = e && launch.ntid[d] == u32(1);
    if (!grid && x_only && d > 0) e = e && launch.nctaid[d] == u32(1);
    e = e && z3::uge(launch.ntid[d], u32(1)) && z3::uge(launch.nctaid[d], u32(1));
  }
  // A symbolic shape is one a GPU launches (ptx::interp::launch_shape_error has the limits, and the kernel's
  // .reqntid / .maxntid, ISA 11.4.2-3).
  if (!block) {
    using ptx::interp::max_ntid;
    e = e && z3::ule(launch.ntid[0], u32(max_ntid[0])) && z3::ule(launch.ntid[1], u32(max_ntid[1])) && z3::ule(launch.ntid[2], u32(max_ntid[2]));
    const z3::expr threads = z3::zext(launch.ntid[0], 32) * z3::zext(launch.ntid[1], 32) * z3::zext(launch.ntid[2], 32);
    e = e && z3::ule(threads, c.bv_val(ptx::interp::max_threads_per_cta, 64));
    if (auto req = ptx::interp::block_directive(f, "reqntid"))
      for (std::size_t d = 0; d < 3; ++d) e = e && launch.ntid[d] == u32((*req)[d]);
    if (auto max = ptx::interp::block_directive(f, "maxntid"))
      e = e && z3::ule(threads, c.bv_val(std::uint64_t((*max)[0]) * (*max)[1] * (*max)[2], 64));
  }
  if (!grid) {
    using ptx::interp::max_nctaid;
    e = e && z3::ule(launch.nctaid[0], u32(max_nctaid[0])) && z3::ule(launch.nctaid[1], u32(max_nctaid[1])) &&
        z3::ule(launch.nctaid[2], u32(max_nctaid[2]));
  }
  return e;
}

z3::expr linear_tid(const std::vector<z3::expr>& tid, const Launch& l) {
  return tid[0] + l.ntid[0] * (tid[1] + l.ntid[1] * tid[2]);
}

namespace {
// A plain register operand.
Operand reg_operand(int r) {
  Operand o;
  o.kind = OK::Register;
  o.reg = r;
  return o;
}

Space space_of(StateSpace s) {
  switch (s) {
    case StateSpace::global: return Space::global;
    case StateSpace::shared: case StateSpace::shared_cluster: return Space::shared;
    case StateSpace::local: return Space::local;
    case StateSpace::param: return Space::param;
    case StateSpace::const_: return Space::const_;
    default: return Space::unknown;
  }
}

int join_prov(int a, int b) {
  if (a == -3) return b;  // unset
  if (b == -3) return a;
  return a == b ? a : -1;
}
}  // namespace

// Opcodes whose only effect is on registers (or nothing at all), by their kind (semantics/ops/effect.hpp): modelled
// as values or fresh symbols. Warp exchanges are forwarded (shuffle, vote) or fresh; barriers and fences order
// (check_ordering.cpp), they write no memory.
bool register_only(Opcode op) {
  using ptx::ops::Effect;
  switch (ptx::ops::effect_of(op)) {
    case Effect::value:    // ISA 9.7.1-9.7.8, mov, prmt, cvt, video (semantics/ops/execute.hpp)
    case Effect::warp: case Effect::fence: case Effect::barrier:
    case Effect::hint:     // setmaxnreg (9.7.19.5): register allocation only; createpolicy's value a fresh symbol
    // ISA 9.7.17: the stack pointer and alloca's local address are fresh symbols; local memory is thread-private,
    // so what is accessed through them cannot race.
    case Effect::stack:
      return true;
    // brx (9.7.12.4): its edges are the CFG's (cfg.cpp), conditions on the index (walk). A call is inlined before
    // encoding (inline.cpp); one left is not encodable.
    case Effect::control: return op != Opcode::call_;
    // mapa / getctarank name another CTA's shared memory: not modelled here (clusters: the dynamic engine).
    case Effect::address: return op == Opcode::cvta_ || op == Opcode::isspacep_;
    case Effect::matrix: return op == Opcode::mma_;  // ISA 9.7.14.5.14 mma.sync: registers only (results not modelled)
    default: return false;
  }
}

bool matrix_memory_op(const ptx::ir::Instruction& in) {
  if (in.op == Opcode::wmma_) return wmma_geometry(in).has_value();
  return ptx::ir::matrix_rows_form(in).has_value();  // ldmatrix / stmatrix as the interpreter runs them
}

bool matrix_register_op(const ptx::ir::Instruction& in) {
  if (in.op != Opcode::wmma_) return false;
  const auto f = ptx::ir::wmma_form(in);
  return f && f->op == ptx::ir::WmmaForm::Op::mma;
}

bool encodable(const ptx::ir::Instruction& in) {
  // st.async / red.async (ISA 9.7.9.12, 9.7.13.7) complete after the thread goes on: not the ordinary accesses
  // the encoding makes of st and red.
  // st.bulk (9.7.9.13) has no description: it is refused with them.
  const auto access = ptx::ops::memory_access(in);
  if (ptx::ops::memory_access_opcode(in.op) && (!access || access->asynchronous)) return false;
  if (access || register_only(in.op) || matrix_memory_op(in) || matrix_register_op(in)) return true;
  if (ptx::ir::async_copy_role(in) != ptx::ir::AsyncCopyRole::none) return true;
  return ptx::ir::mbarrier_op(in) != ptx::ir::MbarrierOp::none;  // (Encoder::step, may_synchronize)
}

std::optional<WmmaGeometry> wmma_geometry(const ptx::ir::Instruction& in) {
  // The form as the interpreter reads it (semantics/ir/wmma_form.hpp, ISA 9.7.14.4.3-4): A is m x k, B k x n, C and
  // D m x n; a .row matrix is laid out by rows.
  const auto f = ptx::ir::wmma_form(in);
  if (!f || f->op == ptx::ir::WmmaForm::Op::mma) return std::nullopt;
  const ptx::ir::WmmaDims dims = ptx::ir::wmma_dims(*f, f->matrix);
  WmmaGeometry g;
  g.load = f->op == ptx::ir::WmmaForm::Op::load;
  g.lines = f->row ? dims.rows : dims.cols;
  g.line_length = f->row ? dims.cols : dims.rows;
  g.element_bits = ptx::ir::wmma_element_bits(f->type);
  // load: {r...}, [p] {, stride}; store: [p], {r...} {, stride}.
  g.address_operand = g.load ? 1 : 0;
  if (in.operands.size() > 2) g.stride_operand = 2;
  return g;
}

Prepared prepare(const ptx::ir::Module& m, const ptx::ir::Function& f, const std::map<std::uint32_t, std::string>& calls) {
  Prepared p;
  p.cfg = build_cfg(f);
  p.uni = analyse_uniformity(f, p.cfg);
  p.warp_uni = analyse_warp_uniformity(f, p.cfg);
  std::map<std::string, int> obj_index;
  auto object = [&](const std::string& key, const std::string& name, Space s, std::string base = "") {
    auto it = obj_index.find(key);
    if (it != obj_index.end()) return it->second;
    if (base.empty()) base = key.rfind("p:", 0) == 0 ? argument_symbol(name, 0) : "&" + name;
    p.objects.push_back({name, s, base});
    return obj_index[key] = static_cast<int>(p.objects.size() - 1);
  };
  auto var_object = [&](const ptx::ir::VarRef& v) -> int {
    using W = ptx::ir::VarRef::Where;
    if (v.where == W::Global) { const auto& g = m.globals[v.index]; return object("g:" + g.name, g.name, space_of(g.space)); }
    if (v.where == W::Local) { const auto& g = f.locals[v.index]; return object("l:" + g.name, g.name, space_of(g.space)); }
    if (v.where == W::Param) return -2;
    return -1;
  };
  // A variable used directly as an address (`st.global.u32 [dummy], r`) is an allocation too.
  for (const auto& in : f.body)
    for (const auto& o : in.operands)
      if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Variable) var_object(o.var);
  // Flow-insensitive provenance: which allocation each register's value can point into.
  p.prov.assign(f.registers.size(), -3);
  auto src_prov = [&](const Operand& o) -> int {
    switch (o.kind) {
      case OK::Register: return o.reg >= 0 ? p.prov[o.reg] : -2;
      case OK::Variable: return var_object(o.var);
      default: return -2;
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& in : f.body) {
      auto outs = written_registers(in);
      if (outs.empty()) continue;
      int v = -2;
      switch (in.op) {
        case Opcode::ld_: case Opcode::ldu_: case Opcode::ldmatrix_: {
          const auto access = ptx::ops::memory_access(in);
          const std::size_t ai = access ? access->address : 1;  // ldmatrix d, [a] (9.7.14.5.15)
          const Operand* a = in.operands.size() > ai ? &in.operands[ai] : nullptr;
          bool param = a && a->kind == OK::Address && a->base_kind == Operand::BaseKind::Variable &&
                       a->var.where == ptx::ir::VarRef::Where::Param;
          if (param) {
            const auto& pv = f.params[a->var.index];
            const bool scalar64 = in.operands[0].kind == OK::Register && !in.q.types.empty() && ptx::ir::scalar_bits(in.q.types[0].scalar) == 64;
            if (pv.size_bytes() == 8) {
              v = object("p:" + pv.name, pv.name, Space::global);
            } else if (scalar64 && a->offset >= 0 && static_cast<std::uint64_t>(a->offset) + 8 <= pv.size_bytes()) {
              // A 64-bit field of a struct argument (`struct { float* x; float* y; }`): an allocation of its own, as
              // a pointer argument is (the no-alias assumption extends to pointers passed inside structs).
              v = object("p:" + field_object_name(pv.name, a->offset), field_object_name(pv.name, a->offset), Space::global,
                         argument_symbol(pv.name, a->offset));
            } else {
              v = -2;
            }
          } else {
            unsigned bits = in.q.types.empty() ? 32 : ptx::ir::scalar_bits(in.q.types[0].scalar);
            v = bits == 64 ? -1 : -2;  // a loaded 64-bit value may be a pointer to anything
          }
          break;
        }
        case Opcode::mov_: case Opcode::cvta_: case Opcode::cvt_:
          v = in.operands.size() > 1 ? src_prov(in.operands[1]) : -2;
          if (v == -3) v = -2;
          break;
        // Products and shifts of a pointer are not pointers into it (the rule object_term in check_overlap.cpp follows): a
        // 64-bit integer argument is an allocation here until used so (`row * n` with a `long long n`).
        case Opcode::mul_: case Opcode::shl_:
          v = -2;
          break;
        case Opcode::add_: case Opcode::sub_: case Opcode::mad_: case Opcode::selp_: {
          int acc = -2;
          bool two = false;
          // (mad's first two operands are multiplied: only the addend may be a pointer.)
          for (std::size_t k = in.op == Opcode::mad_ ? 3 : 1; k < in.operands.size(); ++k) {
            int s = src_prov(in.operands[k]);
            if (s == -3 || s == -2) continue;
            if (acc != -2) two = true;
            acc = acc == -2 ? s : (acc == s && in.op == Opcode::selp_ ? s : -1);
          }
          v = two && in.op != Opcode::selp_ ? -1 : acc;
          break;
        }
        default: {
          for (std::size_t k = 1; k < in.operands.size(); ++k) {
            int s = src_prov(in.operands[k]);
            if (s >= 0 || s == -1) v = -1;  // arithmetic on a pointer we do not follow
          }
        }
      }
      for (int r : outs) {
        int n = join_prov(p.prov[r], v);
        if (n != p.prov[r]) { p.prov[r] = n; changed = true; }
      }
    }
  }
  for (auto& x : p.prov) if (x == -3) x = -2;
  for (std::uint32_t i = 0; i < f.body.size(); ++i) {
    const auto& in = f.body[i];
    if (encodable(in)) continue;
    if (in.op == Opcode::call_) {
      // The inliner left this call: modelled (a pure or output-only callee, see inline.hpp) unless it says why not.
      if (auto it = calls.find(i); it != calls.end()) p.unsupported.push_back({i, it->second});
      continue;
    }
    p.unsupported.push_back({i, ptx::ir::opcode_text(in)});  // the whole opcode: cp.async.ca.shared.global, not cp
  }
  return p;
}

namespace {
class Encoder {
 public:
  Encoder(z3::context& c, const ptx::ir::Module& m, const ptx::ir::Function& f, const Prepared& p, const Launch& l, int t)
      : c_(c), d_(c), m_(m), f_(f), p_(p), l_(l), t_(t), pre_("t" + std::to_string(t) + "."), forms_(f.body.size()) {
    for (const auto& [load, b] : p.broadcasts) broadcast_stores_.insert(b.store);
  }

  ThreadEncoding run() {
    for (const char* dim : {"x", "y", "z"}) {
      out_.tid.push_back(c_.bv_const((pre_ + "tid." + dim).c_str(), 32));
      out_.ctaid.push_back(c_.bv_const((pre_ + "ctaid." + dim).c_str(), 32));
    }
    for (std::size_t L = 0; L < p_.cfg.loops.size(); ++L)
      out_.k.emplace(static_cast<int>(L), c_.bv_const((pre_ + "k" + std::to_string(L)).c_str(), 64));
    State start{c_.bool_val(true), std::vector<std::optional<z3::expr>>(f_.registers.size())};
    for (std::size_t r = 0; r < f_.registers.size(); ++r)
      if (is_pipeline_counter(f_.registers[r])) {
        start.reg[r] = c_.bv_val(0, 32);  // (no arrive yet)
        pipeline_counters_[f_.registers[r].name == pipeline_counter_name(true) ? 0 : 1] = static_cast<int>(r);
      }
    walk(0, std::move(start), nullptr, nullptr);
    out_.fresh_symbols = n_;
    return std::move(out_);
  }

 private:
  struct State {
    z3::expr pc;
    std::vector<std::optional<z3::expr>> reg;
  };

  // Runs the blocks of the forward order from `entry` (with state `start`), all of them or only those in
  // `within`; a block's state is the merge of its incoming forward edges. Back edges are summarised by the
  // loop header's havoc; when `back` is given, the states and branch conditions of the back edges to `entry`
  // are collected there.
  struct BackEdge {
    State state;
    z3::expr cond;  // the branch condition that takes this edge
  };
  void walk(int entry, State start, const std::set<int>* within, std::vector<BackEdge>* back) {
    const auto& g = p_.cfg;
    std::vector<std::vector<std::pair<z3::expr, State>>> incoming(g.blocks.size());
    bool started = false;
    for (int b : g.order) {
      if (within && !within->count(b)) continue;
      if (b == entry) started = true;
      if (!started) continue;
      // (Merges and steps of a block in no loop run once per thread: their symbols are ThreadEncoding::once_symbols.)
      current_loops_.clear();
      for (std::size_t L = 0; L < g.loops.size(); ++L)
        if (g.loops[L].body.count(b)) current_loops_.push_back(static_cast<int>(L));
      in_loop_ = !current_loops_.empty();
      State s = b == entry ? start : merge(incoming[b]);
      incoming[b].clear();
      for (std::size_t L = 0; L < g.loops.size(); ++L)
        if (g.loops[L].header == b && !(within && b == entry)) havoc(s, static_cast<int>(L));
      for (auto i = g.blocks[b].begin; i < g.blocks[b].end; ++i) step(s, i);
      const auto& bl = g.blocks[b];
      if (bl.end == bl.begin) continue;
      const auto& last = f_.body[bl.end - 1];
      for (int succ : bl.succ) {
        if (within && !within->count(succ)) continue;
        const bool is_back = g.back.count({b, succ}) > 0;
        if (is_back && !(back && succ == entry)) continue;
        z3::expr cond = c_.bool_val(true);
        if (last.op == Opcode::bra_ && last.guard >= 0) {
          z3::expr gv = guard(s, last);
          bool taken = last.operands[0].target >= 0 && g.block_of[last.operands[0].target] == succ;
          bool falls = bl.end < f_.body.size() && g.block_of[bl.end] == succ;
          if (taken && !falls) cond = gv;
          else if (!taken && falls) cond = !gv;
        } else if ((last.op == Opcode::ret_ || last.op == Opcode::exit_ || last.op == Opcode::trap_) && last.guard >= 0) {
          cond = !guard(s, last);
        } else if (last.op == Opcode::brx_) {
          cond = indexed_branch_condition(s, last, succ, bl.end < f_.body.size() && g.block_of[bl.end] == succ);
        }
        if (is_back) {
          back->push_back({s, cond});
        } else {
          incoming[succ].push_back({s.pc && cond, s});
        }
      }
    }
  }

  // ISA 9.7.12.4 `@p brx.idx index, tlist`: "if (p) { if (index < length(tlist)) pc = tlist[index]; ... }". The
  // edge to block `succ` is taken when the guard holds and the index names a label of succ (an index past the list
  // is undefined: no edge), or, for the fall-through block, when the guard does not hold.
  z3::expr indexed_branch_condition(State& s, const Instruction& last, int succ, bool falls_to_succ) {
    const z3::expr index = read(s, last.operands[0], 32, false);
    z3::expr names_succ = c_.bool_val(false);
    const auto& list = last.operands[1].elements;
    for (std::size_t k = 0; k < list.size(); ++k)
      if (list[k].target >= 0 && p_.cfg.block_of[static_cast<std::size_t>(list[k].target)] == succ)
        names_succ = names_succ || index == c_.bv_val(static_cast<std::uint64_t>(k), 32);
    if (last.guard < 0) return names_succ;
    const z3::expr taken = guard(s, last);
    return (taken && names_succ) || (falls_to_succ ? !taken : c_.bool_val(false));
  }

  State merge(std::vector<std::pair<z3::expr, State>>& ins) {
    if (ins.empty()) return State{c_.bool_val(false), std::vector<std::optional<z3::expr>>(f_.registers.size())};
    State s = ins[0].second;
    s.pc = ins[0].first;
    for (std::size_t k = 1; k < ins.size(); ++k) {
      const auto& [cond, o] = ins[k];
      for (std::size_t r = 0; r < s.reg.size(); ++r) {
        if (!o.reg[r] && !s.reg[r]) continue;
        z3::expr a = o.reg[r] ? *o.reg[r] : fresh_reg(static_cast<int>(r));
        z3::expr b = s.reg[r] ? *s.reg[r] : fresh_reg(static_cast<int>(r));
        if (z3::eq(a, b)) { s.reg[r] = a; continue; }
        s.reg[r] = z3::ite(cond, a, b);
      }
      s.pc = s.pc || cond;
    }
    s.pc = s.pc.simplify();
    return s;
  }

  unsigned reg_bits(int r) const {
    const auto& t = f_.registers[r].type;
    return t.scalar == ScalarType::pred ? 1 : ptx::ir::scalar_bits(t.scalar) * t.vector;
  }
  z3::expr fresh(const std::string& what, unsigned w) {
    z3::expr e = c_.bv_const((pre_ + what + "#" + std::to_string(n_++)).c_str(), w);
    if (probing_) probe_made_.insert(e.id());
    else if (!in_loop_) out_.once_symbols.push_back(e);
    else made_in_loops_.emplace(e.id(), current_loops_);
    return e;
  }
  z3::expr fresh_reg(int r) { return fresh("undef." + f_.registers[r].name, reg_bits(r)); }

  // Loop header: registers the loop modifies take their value at an arbitrary iteration k. While probing a
  // loop body (induction_steps) an inner loop simply makes everything it modifies unknown.
  void havoc(State& s, int L) {
    const auto& loop = p_.cfg.loops[L];
    if (probing_) {
      // With a pipeline's arrive counters, an inner loop's induction variables keep their steps (over an iteration
      // count of their own), so that an outer loop sees a counter advance with the register that numbers the stages.
      std::optional<Induction> inner;
      if (pipeline_counters_[0] >= 0 && probing_ < 4) inner = induction_steps(s, L);
      const z3::expr k = fresh("probe.k", 64);
      for (int r : loop.modified) {
        const unsigned w = reg_bits(r);
        auto step = inner ? inner->steps.find(r) : std::map<int, z3::expr>::iterator{};
        if (inner && step != inner->steps.end() && s.reg[r] && w <= 64) s.reg[r] = *s.reg[r] + k.extract(w - 1, 0) * step->second;
        else s.reg[r] = fresh("loop." + f_.registers[r].name, w);
      }
      return;
    }
    if (auto it = out_.entered.find(L); it != out_.entered.end()) it->second = it->second || s.pc;
    else out_.entered.emplace(L, s.pc);
    const Induction ind = induction_steps(s, L);
    const std::map<int, z3::expr>& steps = ind.steps;
    const z3::expr from_latch = latch_facts(L, ind, s);  // over the entry values, before they are replaced
    std::map<int, unsigned> recurrent;  // registers with a closed form by `recurrence` -> Recurrence::settles
    std::vector<z3::expr> args;
    for (int d = 0; d < 3; ++d) args.push_back(out_.ctaid[d]);
    for (std::size_t M = 0; M < p_.cfg.loops.size(); ++M)
      if (p_.cfg.loops[M].body.count(loop.header)) args.push_back(out_.k.at(static_cast<int>(M)));
    std::map<int, z3::expr> closed;  // registers whose value is a closed form of k (induction or recurrence)
    const std::map<int, Recurrence> rotations = rotation_recurrences(ind, L, s);
    const std::vector<std::optional<z3::expr>> entry_values = s.reg;
    for (int r : loop.modified) {
      unsigned w = reg_bits(r);
      std::optional<z3::expr> init = s.reg[r];
      bool shrinks = init && w <= 64 && only_shrinks(L, r);
      if (auto step = steps.find(r); step != steps.end() && init) {
        // r at iteration k is init + k*step modulo 2^w (ISA 9.7.1: integer add/sub wrap).
        z3::expr k = w <= 64 ? out_.k.at(L).extract(w - 1, 0) : z3::zext(out_.k.at(L), w - 64);
        s.reg[r] = *init + k * step->second;
        closed.emplace(r, *s.reg[r]);
        continue;
      }
      if (auto it = rotations.find(r); it != rotations.end()) {
        s.reg[r] = it->second.value;
        closed.emplace(r, it->second.value);
        recurrent.emplace(r, it->second.settles);
        continue;
      }
      if (auto form = init ? recurrence(ind, L, r, *init) : std::nullopt) {
        s.reg[r] = form->value;
        closed.emplace(r, form->value);
        recurrent.emplace(r, form->settles);
        continue;
      }
      if (p_.uni.reg[r] && w <= 64) {
        // CTA-uniform: the same value in every thread of a CTA at the same iteration (a function of both).
        z3::sort_vector dom(c_);
        for (const auto& a : args) dom.push_back(a.get_sort());
        z3::func_decl fn = c_.function(("uni.L" + std::to_string(L) + "." + f_.registers[r].name).c_str(), dom, c_.bv_sort(w));
        z3::expr_vector av(c_);
        for (const auto& a : args) av.push_back(a);
        s.reg[r] = fn(av);
      } else if (auto carried = carried_counter(s, L, r)) {
        s.reg[r] = *carried;
      } else {
        s.reg[r] = fresh("loop." + f_.registers[r].name, w);
      }
      // Iteration 0 is the loop's entry: the register still holds its value from before the loop.
      if (init && init->get_sort().is_bv() && init->get_sort().bv_size() == w)
        s.reg[r] = z3::ite(out_.k.at(L) == c_.bv_val(0, 64), *init, *s.reg[r]);
      // Invariant: a register the loop only shifts right (unsigned) or masks never grows: v <= its entry value.
      if (shrinks) s.pc = s.pc && z3::ule(*s.reg[r], *init);
    }
    s.pc = s.pc && from_latch && recurrence_latch_facts(L, ind, closed, recurrent) && counters_in_step(L, ind, entry_values, s);
    // A pipeline's arrive count starts at 0 and grows by 1 per arrive: below 2^31 (the note's assumption).
    for (int g : pipeline_counters_)
      if (g >= 0 && loop.modified.count(g) && s.reg[g]) s.pc = s.pc && z3::ult(*s.reg[g], c_.bv_val(std::uint64_t{1} << 31, 32));
    if (ind.latch) {
      // The back edge's condition over the probe symbols, at iteration k's header values.
      z3::expr_vector from(c_), to(c_);
      for (const auto& [r, x] : ind.start)
        if (s.reg[static_cast<std::size_t>(r)]) { from.push_back(x); to.push_back(*s.reg[static_cast<std::size_t>(r)]); }
      z3::expr latch = *ind.latch;
      out_.last_iteration.insert_or_assign(L, (!latch.substitute(from, to)).simplify());
    }
  }

  // A register whose only write in loop L is an integer atom.add at an address and of an amount the loop does not
  // change (`while ((i = atomicAdd(&next, 1)) < n)`, a persistent-threads work queue): at the header of iteration k
  // it holds its value from before the loop, or what that add returned in an earlier iteration, a counter read of
  // its own (CounterRead: two threads' adds take disjoint ranges, so their work items stay distinct).
  std::optional<z3::expr> carried_counter(State& entry, int L, int r) {
    const auto& loop = p_.cfg.loops[L];
    std::optional<std::uint32_t> writer;
    for (int b : loop.body)
      for (std::uint32_t i = p_.cfg.blocks[static_cast<std::size_t>(b)].begin; i < p_.cfg.blocks[static_cast<std::size_t>(b)].end; ++i)
        if (writes_register(f_.body[i], r)) {
          if (writer) return std::nullopt;
          writer = i;
        }
    if (!writer || !entry.reg[r]) return std::nullopt;
    const Instruction& in = f_.body[*writer];
    const auto& o = in.operands;
    auto unchanged = [&](int reg) { return reg >= 0 && !loop.modified.count(reg) && entry.reg[static_cast<std::size_t>(reg)]; };
    auto invariant = [&](const Operand& x) {
      if (x.kind == OK::Immediate) return true;
      if (x.kind == OK::Register) return x.component < 0 && unchanged(x.reg);
      return x.kind == OK::Address && (x.base_kind != Operand::BaseKind::Register || unchanged(x.reg));
    };
    if (in.op != Opcode::atom_ || !integer_add(in) || in.guard >= 0 || o.size() != 3 || o[0].kind != OK::Register ||
        o[0].component >= 0 || o[0].reg != r || !invariant(o[1]) || !invariant(o[2]))
      return std::nullopt;
    const unsigned w = reg_bits(r);
    if (w != ptx::ir::scalar_bits(in.q.types.back().scalar)) return std::nullopt;
    const Access at = access_at(entry, *writer, in, o[1], w / 8, true, true, true);
    const z3::expr ret = fresh("atom.ret", w);
    const z3::expr earlier = (fresh("loop.carried", 1) == c_.bv_val(1, 1)) && out_.k.at(L) != c_.bv_val(0, 64);
    out_.counters.push_back({*writer, at.object, at.addr, ret, read(entry, o[2], w, false), entry.pc && earlier, at.scope});
    return z3::ite(earlier, ret, *entry.reg[static_cast<std::size_t>(r)]);
  }

  // The loop's induction variables and their steps. The body is run once (recording nothing) from the header
  // with every register the loop modifies set to a fresh symbol x_r; r is an induction variable when, on every
  // back edge, r - x_r simplifies to one term that uses nothing the loop computes: then r advances by that
  // loop-invariant step in every iteration. Copies and round trips through other registers (cvt.s64.s32 then
  // cvt.u32.u64, as nvcc emits for `i += stride`) fold away in Z3's simplifier.
  struct Induction {
    std::map<int, z3::expr> steps;         // induction register -> step
    std::map<int, z3::expr> start;         // loop-modified register -> its probe symbol x_r
    std::map<int, z3::expr> next;          // loop-modified register -> its value on every back edge, over the probe symbols
    std::optional<z3::expr> latch;         // the condition of the only back edge, over the probe symbols
    std::optional<z3::expr> latch_raw;     // the same before Z3's simplifier (which may turn `i + 1 < 2` into an interval)
  };
  Induction induction_steps(const State& entry, int L) {
    const auto& loop = p_.cfg.loops[L];
    State h = entry;
    Induction ind;
    auto& start = ind.start;
    ++probing_;
    for (int r : loop.modified) {
      z3::expr x = fresh("probe." + f_.registers[r].name, reg_bits(r));
      h.reg[r] = x;
      if (reg_bits(r) <= 64) start.emplace(r, x);
    }
    std::vector<BackEdge> back;
    walk(loop.header, h, &loop.body, &back);
    --probing_;
    auto& steps = ind.steps;
    if (back.empty()) return ind;
    if (back.size() == 1) {
      ind.latch_raw = back[0].state.pc && back[0].cond;
      ind.latch = ind.latch_raw->simplify();
    }
    for (const auto& [r, x] : start) {
      std::optional<z3::expr> next;
      for (const BackEdge& e : back) {
        const State& b = e.state;
        if (!b.reg[r] || (next && !z3::eq(*next, b.reg[r]->simplify()))) { next.reset(); break; }
        next = b.reg[r]->simplify();
      }
      if (next) ind.next.emplace(r, *next);
      std::optional<z3::expr> step;
      for (const BackEdge& e : back) {
        const State& b = e.state;
        if (!b.reg[r]) { step.reset(); break; }
        z3::expr d = (*b.reg[r] - x).simplify();
        if (made_by_probe(d) || (step && !z3::eq(*step, d))) { step.reset(); break; }
        step = d;
      }
      if (step) steps.emplace(r, *step);
    }
    return ind;
  }

  // A pipeline's arrive counter (pipeline.hpp) that loop L changes by what it changes another register by, on every
  // back edge (the same term over the probe, up to the two probe symbols), keeps its difference to that register
  // from the loop's entry: at
  // iteration k's header counter - r = its value at entry - r's. (The register numbering the stages a thread
  // fills is such a one; without it, both would be unrelated after a loop with an inner loop.)
  z3::expr counters_in_step(int L, const Induction& ind, const std::vector<std::optional<z3::expr>>& entry, const State& s) {
    z3::expr facts = c_.bool_val(true);
    if (pipeline_counters_[0] < 0) return facts;
    const auto& loop = p_.cfg.loops[L];
    for (int g : pipeline_counters_) {
      auto g_next = ind.next.find(g);
      auto g_start = ind.start.find(g);
      if (!loop.modified.count(g) || g_next == ind.next.end() || g_start == ind.start.end() || !entry[g] || !s.reg[g]) continue;
      z3::expr g_delta = g_next->second - g_start->second;
      for (int r : loop.modified) {
        auto r_next = ind.next.find(r);
        auto r_start = ind.start.find(r);
        if (r == g || reg_bits(r) != 32 || r_next == ind.next.end() || r_start == ind.start.end() || !entry[r] || !s.reg[r]) continue;
        const z3::expr r_delta = r_next->second - r_start->second;
        // (The same term with the counter's probe symbol for r's: the loop treats both alike.)
        z3::expr_vector from(c_), to(c_);
        from.push_back(g_start->second);
        to.push_back(r_start->second);
        if (z3::eq(g_delta.substitute(from, to).simplify(), r_delta.simplify()))
          facts = facts && (*s.reg[g] - *s.reg[r] == *entry[g] - *entry[r]);
      }
    }
    return facts;
  }

  // A register whose value on every back edge of loop L is a function g of its own value at the header alone (no
  // other register the loop modifies, no value it loads), of a form whose k-fold application has a closed form: at
  // the header of iteration k it is g^k(init). An involution (g(g(x)) = x: `pout = 1 - pout`, `flag ^= 1`) gives
  // init in even iterations and g(init) in odd ones; a shift by a constant c (`stride <<= 1`, `s >>= 1`, unsigned or
  // arithmetic: ISA 9.7.8.7-8, a shift by the width or more gives 0 or the sign) gives init shifted by k*c, which past
  // the width stays 0 or the sign. Each form is proved of g by Z3 (a short query; unknown: no closed form).
  struct Recurrence {
    z3::expr value;    // at the header of iteration k (out_.k)
    unsigned settles;  // the iterations 0 .. settles take every value it ever has (1 for an involution, w for a shift)
  };
  std::optional<Recurrence> recurrence(const Induction& ind, int L, int r, const z3::expr& init) {
    auto next = ind.next.find(r);
    auto start = ind.start.find(r);
    if (next == ind.next.end() || start == ind.start.end()) return std::nullopt;
    const z3::expr x = start->second, g = next->second;
    for (unsigned id : constants_of(g))
      if (probe_made_.count(id) && id != x.id()) return std::nullopt;
    if (!constants_of(g).count(x.id())) return std::nullopt;  // (constant: not a recurrence of this kind)
    const unsigned w = x.get_sort().bv_size();
    if (w < 8 || w > 64 || init.get_sort().bv_size() != w) return std::nullopt;
    auto apply = [&](const z3::expr& v) {
      z3::expr_vector from(c_), to(c_);
      from.push_back(x);
      to.push_back(v);
      return z3::expr(g).substitute(from, to);
    };
    auto always = [&](const z3::expr& claim) {
      z3::solver q(c_);
      return solver::always(q, claim, kShortQuery);
    };
    const z3::expr k = out_.k.at(L);
    if (always(apply(apply(x)) == x)) return Recurrence{repeated_involution(init, apply(init), k), 1};
    // The shift amount: g(1) = 2^c for a left shift, g(2^(w-2)) = 2^(w-2-c) for a right one.
    auto log2_of = [&](const z3::expr& v) -> std::optional<unsigned> {
      const z3::expr e = v.simplify();
      if (!e.is_numeral()) return std::nullopt;
      const std::uint64_t n = e.get_numeral_uint64();
      if (n == 0 || (n & (n - 1)) != 0) return std::nullopt;
      return static_cast<unsigned>(std::countr_zero(n));
    };
    auto shift = [&](ShiftKind kind, unsigned c) -> std::optional<Recurrence> {
      if (c == 0 || c >= w || !always(g == shift_step(kind, x, c))) return std::nullopt;
      return Recurrence{repeated_shift(kind, init, c, k), w};
    };
    if (auto c = log2_of(apply(c_.bv_val(1, w))))
      if (auto form = shift(ShiftKind::left, *c)) return form;
    if (auto high = log2_of(apply(c_.bv_val(std::uint64_t{1} << (w - 2), w))); high && *high < w - 2) {
      for (ShiftKind kind : {ShiftKind::logical_right, ShiftKind::arithmetic_right})
        if (auto form = shift(kind, w - 2 - *high)) return form;
    }
    return std::nullopt;
  }

  // Registers that the back edges of loop L rotate among themselves (`float* t = cur; cur = next; next = t;`, ping-pong
  // buffers): each one's value on every back edge is another's value at the header, p registers in a cycle. At the
  // header of iteration k register r holds the entry value of the register k mod p steps along the cycle from it
  // (value_k+1(r) = value_k(next(r))). Cycles of up to 4 registers of one width.
  std::map<int, Recurrence> rotation_recurrences(const Induction& ind, int L, const State& entry) {
    std::map<int, Recurrence> out;
    std::map<unsigned, int> register_of;  // probe symbol id -> its register
    for (const auto& [r, x] : ind.start) register_of.emplace(x.id(), r);
    std::map<int, int> next;  // register -> the register whose header value it takes on the back edges
    for (const auto& [r, g] : ind.next)
      if (g.is_const())
        if (auto it = register_of.find(g.id()); it != register_of.end() && it->second != r) next.emplace(r, it->second);
    const z3::expr k = out_.k.at(L);
    for (const auto& [r, first] : next) {
      std::vector<int> cycle{r};
      for (int at = first; at != r && cycle.size() <= 4;) {
        cycle.push_back(at);
        auto it = next.find(at);
        if (it == next.end()) { cycle.clear(); break; }
        at = it->second;
      }
      if (cycle.size() < 2 || cycle.size() > 4) continue;
      const unsigned w = reg_bits(r);
      bool usable = true;
      for (int q : cycle) usable = usable && entry.reg[q] && reg_bits(q) == w;
      if (!usable) continue;
      std::vector<z3::expr> inits;
      for (int q : cycle) inits.push_back(*entry.reg[q]);
      out.emplace(r, Recurrence{rotated(inits, k), static_cast<unsigned>(cycle.size()) - 1});
    }
    return out;
  }

  // Facts at the header of iteration k from the back edge's condition (the only back edge's), for the conjuncts that
  // test a register with a closed form by `recurrence` and otherwise only registers with closed forms and
  // loop-invariant values: every iteration j < k took the back edge, so the conjunct held for the values of iteration
  // j. Instances: j = k - 1, and each constant j up to the iterations in which the recurrences take all their values
  // (Recurrence::settles): `s << 1 < n` for s = 1 << j, j = 0 .. 32, bounds s by n even though s becomes 0 and
  // stays 0 past 32 shifts. (latch_facts gives those of the induction variables.)
  z3::expr recurrence_latch_facts(int L, const Induction& ind, const std::map<int, z3::expr>& closed, const std::map<int, unsigned>& recurrent) {
    z3::expr facts = c_.bool_val(true);
    if (!ind.latch || recurrent.empty()) return facts;
    const z3::expr k = out_.k.at(L), one = c_.bv_val(1, 64), zero = c_.bv_val(0, 64);
    // Each closed-form register's probe symbol, and its value at iteration j.
    z3::expr_vector from(c_);
    std::vector<z3::expr> values;
    std::unordered_set<unsigned> known;
    std::unordered_map<unsigned, unsigned> settles;  // a recurrence's probe symbol -> Recurrence::settles
    for (const auto& [r, value] : closed) {
      auto x = ind.start.find(r);
      if (x == ind.start.end()) continue;
      from.push_back(x->second);
      values.push_back(value);
      known.insert(x->second.id());
      if (auto it = recurrent.find(r); it != recurrent.end()) settles[x->second.id()] = it->second;
    }
    auto at_iteration = [&](const z3::expr& e, const z3::expr& j) {
      z3::expr_vector kk(c_), jj(c_), to(c_);
      kk.push_back(k);
      jj.push_back(j);
      for (const auto& v : values) to.push_back(z3::expr(v).substitute(kk, jj));
      return z3::expr(e).substitute(from, to);
    };
    std::vector<z3::expr> todo{*ind.latch};
    while (!todo.empty()) {
      z3::expr e = todo.back();
      todo.pop_back();
      if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
        for (unsigned a = 0; a < e.num_args(); ++a) todo.push_back(e.arg(a));
        continue;
      }
      bool usable = true;
      std::optional<unsigned> instances;  // the constant iterations to instantiate (none: no recurrence tested)
      for (unsigned id : constants_of(e)) {
        if (probe_made_.count(id) && !known.count(id)) usable = false;
        if (auto it = settles.find(id); it != settles.end()) instances = std::max(instances.value_or(0), it->second);
      }
      if (!usable || !instances) continue;
      facts = facts && z3::implies(k != zero, at_iteration(e, k - one));
      for (unsigned j = 0; j <= *instances; ++j)
        facts = facts && z3::implies(z3::ult(c_.bv_val(j, 64), k), at_iteration(e, c_.bv_val(j, 64)).simplify());
    }
    return facts;
  }

  // Facts at the header of iteration k >= 1 from a loop with one back edge: the condition under which an
  // iteration reaches the back edge (the path condition inside the body and the latch branch's condition) held in
  // iterations 0 .. k-1. Each conjunct of it that tests one induction variable i against loop-invariant values
  // gives two facts: the test held for i in iteration k-1, and, when i moves by a constant towards the bound it is
  // tested against, i never wrapped around (ISA 9.7.1: integer add/sub wrap modulo 2^w), so i stays
  // init + k*step without overflow in the comparison's order. The tested value is i_next = i + step in nvcc's
  // rotated loops (`add i, i, step; setp.lt i_next, n; @p bra HEADER`) or i itself where the test is at the
  // header (the loops of -O0 code: `setp.lt i, n; @!p bra EXIT; ... bra HEADER`).
  z3::expr latch_facts(int L, const Induction& ind, const State& entry) {
    z3::expr facts = c_.bool_val(true);
    if (!ind.latch) return facts;
    std::vector<z3::expr> parts;
    // The conjuncts of the simplified condition, and the comparisons of the raw one with their operands simplified:
    // the simplifier may rewrite a comparison with a constant into an interval test (`i + 1 < 2` as `!(1 <= i <=
    // 0xfffffffe)`), a shape test_facts does not read.
    for (bool raw : {false, true}) {
      std::vector<z3::expr> todo{raw ? *ind.latch_raw : *ind.latch};
      while (!todo.empty()) {
        z3::expr e = todo.back();
        todo.pop_back();
        const auto kind = e.is_app() ? e.decl().decl_kind() : Z3_OP_UNINTERPRETED;
        if (kind == Z3_OP_AND) {
          for (unsigned a = 0; a < e.num_args(); ++a) todo.push_back(e.arg(a));
        } else if (kind == Z3_OP_NOT && e.arg(0).is_app() && e.arg(0).decl().decl_kind() == Z3_OP_OR) {
          for (unsigned a = 0; a < e.arg(0).num_args(); ++a) todo.push_back(!e.arg(0).arg(a));
        } else if (!raw) {
          parts.push_back(e);
        } else if (auto c = raw_comparison(e)) {
          parts.push_back(*c);
        }
      }
    }
    for (const auto& p : parts) facts = facts && test_facts(L, ind, entry, p);
    return facts;
  }

  // A predicate of the raw encoding as a comparison with simplified operands: a predicate register's value is
  // `ite(cmp, 1, 0) == 1` (setp); nullopt for another shape.
  std::optional<z3::expr> raw_comparison(const z3::expr& e) {
    if (!e.is_app()) return std::nullopt;
    switch (e.decl().decl_kind()) {
      case Z3_OP_EQ:
        for (int side = 0; side < 2; ++side) {
          const z3::expr v = e.arg(side), one = e.arg(1 - side);
          if (one.is_numeral() && one.get_sort().is_bv() && one.get_sort().bv_size() == 1 && one.get_numeral_uint64() == 1 && v.is_app() &&
              v.decl().decl_kind() == Z3_OP_ITE && v.arg(1).is_numeral() && v.arg(1).get_numeral_uint64() == 1 && v.arg(2).is_numeral() &&
              v.arg(2).get_numeral_uint64() == 0)
            return raw_comparison(v.arg(0));
        }
        return std::nullopt;
      case Z3_OP_ULEQ: case Z3_OP_SLEQ: case Z3_OP_ULT: case Z3_OP_SLT: case Z3_OP_UGEQ: case Z3_OP_SGEQ: case Z3_OP_UGT: case Z3_OP_SGT:
        return e.decl()(e.arg(0).simplify(), e.arg(1).simplify());
      case Z3_OP_NOT:
        if (auto c = raw_comparison(e.arg(0))) return !*c;
        return std::nullopt;
      default: return std::nullopt;
    }
  }

  // latch_facts for one conjunct `cond` of the back edge's condition.
  z3::expr test_facts(int L, const Induction& ind, const State& entry, const z3::expr& cond) {
    z3::expr facts = c_.bool_val(true);
    const int r = single_probe_symbol(cond, ind);
    if (r < 0 || !entry.reg[r]) return facts;
    const z3::expr x = ind.start.at(r), step = ind.steps.at(r), init = *entry.reg[r];
    const unsigned w = x.get_sort().bv_size();
    const z3::expr k = out_.k.at(L), one64 = c_.bv_val(1, 64);
    const z3::expr later = k != c_.bv_val(0, 64);
    const z3::expr km1 = (k - one64).extract(w - 1, 0);
    z3::expr_vector from(c_), to(c_);
    from.push_back(x);
    to.push_back(init + km1 * step);
    z3::expr tested = cond;
    facts = facts && z3::implies(later, tested.substitute(from, to));  // the test that led to iteration k
    // The comparison's shape: lo < hi or lo <= hi (negations swapped away), one side the tested value T, which
    // is i_next = x + step (T_j = i_{j+1}) or x (T_j = i_j) in iteration j.
    z3::expr t = cond;
    bool neg = false;
    while (t.is_app() && t.decl().decl_kind() == Z3_OP_NOT) { neg = !neg; t = t.arg(0); }
    if (!t.is_app() || t.num_args() != 2) return facts;
    const z3::expr next = (x + step).simplify();
    auto same = [&](const z3::expr& e, const z3::expr& v) { return e.get_sort().is_bv() && e.get_sort().bv_size() == w && z3::eq((e - v).simplify(), c_.bv_val(0, w)); };
    auto is_tested = [&](const z3::expr& e) { return same(e, next) || same(e, x); };
    const std::uint64_t all = w >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1;
    const unsigned W = 130;  // holds k*c and a w <= 64-bit value without overflow
    if (!step.is_numeral() || w > 64) return facts;
    // The step as a signed constant c: i moves up by c or down.
    const std::uint64_t st = step.get_numeral_uint64() & all;
    const bool up = ((st >> (w - 1)) & 1) == 0;
    const std::uint64_t c = up ? st : (all - st + 1) & all;
    if (c == 0) return facts;
    const z3::expr cw = c_.bv_val(c, W);
    if (t.decl().decl_kind() == Z3_OP_EQ && neg) {
      // T != bound: T_0 .. T_{k-1} all differ from the bound. T_j = T_0 + j*c modulo 2^w; when c divides the
      // distance d from T_0 to the bound (in i's direction, modulo 2^w), the first T_j equal to it is j = d / c, so
      // (k-1)*c < d. The simplifier moves terms across `=` (x - 1 != 0 becomes x != 1; nvcc's remainder-peeled loops
      // test `x + (n & 3) - n != 0`): the bound is what T is compared with, T - (lhs - rhs), exactly when it does not
      // depend on x (then lhs - rhs = T - bound).
      for (const z3::expr& tv : {next, x}) {
        const z3::expr bound = (tv - (t.arg(0) - t.arg(1))).simplify();
        if (!bound.get_sort().is_bv() || bound.get_sort().bv_size() != w || constants_of(bound).count(x.id())) continue;
        const z3::expr t0 = z3::eq(tv, x) ? init : init + step;
        const z3::expr dist = up ? bound - t0 : t0 - bound;
        const z3::expr divides = z3::urem(dist, c_.bv_val(c, w)) == c_.bv_val(0, w);
        return facts && z3::implies(later && divides, z3::ult(z3::zext(k - one64, W - 64) * cw, z3::zext(dist, W - w)));
      }
      return facts;
    }
    bool sgn = false, strict = false, swap = false;
    switch (t.decl().decl_kind()) {
      case Z3_OP_ULEQ: break;
      case Z3_OP_SLEQ: sgn = true; break;
      case Z3_OP_ULT: strict = true; break;
      case Z3_OP_SLT: sgn = true; strict = true; break;
      case Z3_OP_UGEQ: swap = true; break;
      case Z3_OP_SGEQ: sgn = true; swap = true; break;
      case Z3_OP_UGT: strict = true; swap = true; break;
      case Z3_OP_SGT: sgn = true; strict = true; swap = true; break;
      default: return facts;
    }
    z3::expr lo = t.arg(swap ? 1 : 0), hi = t.arg(swap ? 0 : 1);
    if (neg) { std::swap(lo, hi); strict = !strict; }  // not(a <= b) is b < a
    const bool upper = is_tested(lo), lower = is_tested(hi);  // T < bound, or bound < T
    if (upper == lower || up != upper) return facts;
    const z3::expr tv = upper ? lo : hi;
    const bool tests_next = same(tv, next);
    const z3::expr bound = upper ? hi : lo;
    if (constants_of(bound).count(x.id())) return facts;
    auto ext = [&](const z3::expr& v) { return sgn ? z3::sext(v, W - w) : z3::zext(v, W - w); };
    const z3::expr max = ext(sgn ? c_.bv_val(all >> 1, w) : c_.bv_val(all, w));
    const z3::expr min = ext(sgn ? c_.bv_val(~(all >> 1) & all, w) : c_.bv_val(0, w));
    const z3::expr onew = c_.bv_val(1, W);
    // T passed the test in every iteration before k; to wrap, i must have stood within c of the extreme value
    // of the comparison's order, which the bound excludes: T < bound <= max - c + 1 (T <= bound <= max - c).
    // Then i_k, the tested value of iteration k-1 (i_next) or one step past it (i), is T_0 + k'*c without
    // overflow, k' = k-1 steps from T_0 = i_1 or k steps from T_0 = i_0.
    const z3::expr slack = strict ? cw - onew : cw;
    const z3::expr premise = upper ? z3::sle(ext(bound), max - slack) : z3::sge(ext(bound), min + slack);
    const z3::expr steps = tests_next ? z3::zext(k - one64, W - 64) * cw : z3::zext(k, W - 64) * cw;
    const z3::expr t0 = ext(tests_next ? init + step : init);
    const z3::expr ideal = upper ? t0 + steps : t0 - steps;
    const z3::expr in_range = upper ? z3::sle(ideal, max) : z3::sge(ideal, min);
    return facts && z3::implies(later && premise, in_range);
  }

  // The register whose probe symbol is the only symbol of the probe that `e` uses, when it is an induction
  // variable; else -1 (also when `e` uses what the probe made otherwise: loads, inner loops).
  int single_probe_symbol(const z3::expr& e, const Induction& ind) const {
    int found = -1;
    for (unsigned id : constants_of(e)) {
      if (!probe_made_.count(id)) continue;
      if (found >= 0) return -1;  // a second symbol of the probe
      for (const auto& [r, x] : ind.start)
        if (x.id() == id && ind.steps.count(r)) found = r;
      if (found < 0) return -1;  // a load, an inner loop's value or a register that is no induction variable
    }
    return found;
  }

  bool made_by_probe(const z3::expr& e) const {
    for (unsigned id : constants_of(e))
      if (probe_made_.count(id)) return true;
    return false;
  }

  bool only_shrinks(int L, int r) const {
    const auto& loop = p_.cfg.loops[L];
    bool any = false;
    for (int b : loop.body)
      for (auto i = p_.cfg.blocks[b].begin; i < p_.cfg.blocks[b].end; ++i) {
        const auto& in = f_.body[i];
        if (!writes_register(in, r)) continue;
        any = true;
        bool uns = !in.q.types.empty() && !ptx::ir::is_signed_int(in.q.types[0].scalar) && !ptx::ir::is_float(in.q.types[0].scalar);
        bool self = in.operands.size() >= 2 && in.operands[1].kind == OK::Register && in.operands[1].reg == r;
        if (!(uns && self && (in.op == Opcode::shr_ || in.op == Opcode::and_))) return false;
      }
    return any;
  }

  z3::expr guard(State& s, const Instruction& in) {
    z3::expr g = read(s, reg_operand(in.guard), 1, false) == c_.bv_val(1, 1);
    return in.guard_negated ? !g : g;
  }

  z3::expr fit(z3::expr v, unsigned w, bool sgn) {
    unsigned vw = v.get_sort().bv_size();
    if (vw == w) return v;
    if (vw > w) return v.extract(w - 1, 0);
    return sgn ? z3::sext(v, w - vw) : z3::zext(v, w - vw);
  }

  z3::expr special(const Operand& o) {
    int comp = o.component < 0 ? 0 : o.component;
    using SR = ptx::ir::SpecialRegister;
    if (comp < 3) {
      if (o.special == SR::tid) return out_.tid[comp];
      if (o.special == SR::ctaid) return out_.ctaid[comp];
      if (o.special == SR::ntid) return l_.ntid[comp];
      if (o.special == SR::nctaid) return l_.nctaid[comp];
    }
    // ISA 10.3 %laneid and 10.11-15 %lanemask_*: from the linear thread id (warps are consecutive linear ids).
    const z3::expr lane = lane_id(), one = c_.bv_val(1, 32);
    switch (o.special) {
      case SR::laneid: return lane;
      case SR::lanemask_eq: return z3::shl(one, lane);
      case SR::lanemask_lt: return z3::shl(one, lane) - one;
      case SR::lanemask_le: return z3::shl(z3::shl(one, lane), one) - one;
      case SR::lanemask_gt: return ~(z3::shl(z3::shl(one, lane), one) - one);
      case SR::lanemask_ge: return ~(z3::shl(one, lane) - one);
      default: break;
    }
    // One value per CTA (uniform.hpp): a function of the CTA id, so that two threads of one CTA read the same.
    if (special_uniform(o.special)) {
      std::string name = std::string("sreg.") + ptx::ir::special_register_name(o.special) + std::to_string(o.imm) + "." + std::to_string(comp);
      z3::sort u32 = c_.bv_sort(32);
      return c_.function(name.c_str(), u32, u32, u32, c_.bv_sort(64))(out_.ctaid[0], out_.ctaid[1], out_.ctaid[2]);
    }
    return fresh(std::string("sreg.") + ptx::ir::special_register_name(o.special), 64);
  }

  z3::expr var_address(const ptx::ir::VarRef& v) {
    using W = ptx::ir::VarRef::Where;
    std::string name = v.where == W::Global ? m_.globals[v.index].name : v.where == W::Local ? f_.locals[v.index].name
                     : v.where == W::Param ? f_.params[v.index].name : "?";
    // Declared variables sit at distinct, widely separated (shared by both threads) base addresses.
    return c_.bv_const(("&" + name).c_str(), 64);
  }

  z3::expr read(State& s, const Operand& o, unsigned w, bool sgn) {
    switch (o.kind) {
      case OK::Register: {
        if (o.reg < 0) return abstracted(fresh("reg", w), "operand");
        if (o.component >= 0 || f_.registers[o.reg].type.vector > 1) return abstracted(fresh("vec", w), "vector operand");
        if (!s.reg[o.reg]) s.reg[o.reg] = fresh_reg(o.reg);
        // `!p` (setp's third operand, vote's source): the negated predicate.
        if (o.negated) return fit(~*s.reg[o.reg], w, sgn);
        return fit(*s.reg[o.reg], w, sgn);
      }
      case OK::Special: return fit(special(o), w, false);
      case OK::Immediate: return fit(c_.bv_val(static_cast<std::uint64_t>(o.imm), 64), w, true);
      case OK::FloatImm: return fit(c_.bv_val(static_cast<std::uint64_t>(o.imm), 64), w, false);
      case OK::Variable: return fit(var_address(o.var), w, false);
      // A function's address (ISA 9.7.12.2 indirect call targets): one symbol per function, shared by all threads.
      case OK::Function: return fit(c_.bv_const(("&fn." + m_.functions[o.target].name).c_str(), 64), w, false);
      default: return abstracted(fresh("opnd", w), "operand");
    }
  }

  void write(State& s, const Instruction& in, const Operand& o, z3::expr v, bool sgn) {
    auto put = [&](int r, z3::expr val) {
      if (r < 0) return;
      unsigned w = reg_bits(r);
      if (f_.registers[r].type.vector > 1) return;
      val = fit(val, w, sgn);
      if (in.guard >= 0) {
        z3::expr old = s.reg[r] ? *s.reg[r] : fresh_reg(r);
        val = z3::ite(guard(s, in), val, old);
      }
      s.reg[r] = val;
    };
    if (o.kind == OK::Register && o.component < 0) put(o.reg, v);
    else if (o.kind == OK::Vector)
      for (const auto& e : o.elements) if (e.kind == OK::Register) put(e.reg, fresh("elem", reg_bits(e.reg)));
  }

  // ISA 9.7.9.10 mov.{b16,b32,b64,b128} d, {a, b, ...} packs scalars (element 0 lowest) and mov d-vector, a unpacks
  // one: cooperative groups pack a tile's type and size into a 64-bit group word this way. False for other movs.
  bool move_vector(State& s, const Instruction& in) {
    const auto& o = in.operands;
    if (o.size() != 2 || in.q.vector_width > 1 || in.q.types.empty() || !ptx::ir::is_bit_type(in.q.types[0].scalar)) return false;
    const unsigned w = ptx::ir::scalar_bits(in.q.types[0].scalar);
    const Operand& vec = o[1].kind == OK::Vector ? o[1] : o[0];
    const Operand& scalar = o[1].kind == OK::Vector ? o[0] : o[1];
    if (vec.kind != OK::Vector || scalar.kind == OK::Vector || vec.elements.empty() || w % vec.elements.size() || w > 64) return false;
    const unsigned ew = w / static_cast<unsigned>(vec.elements.size());
    if (o[1].kind == OK::Vector) {  // pack
      if (scalar.kind != OK::Register) return false;
      std::optional<z3::expr> v;
      for (const Operand& e : vec.elements) {
        const z3::expr x = read(s, e, ew, false);
        v = v ? z3::concat(x, *v) : x;
      }
      write(s, in, scalar, *v, false);
      return true;
    }
    const z3::expr v = read(s, scalar, w, false);  // unpack
    for (std::size_t k = 0; k < vec.elements.size(); ++k) {
      const unsigned lo = static_cast<unsigned>(k) * ew;
      if (vec.elements[k].kind == OK::Register) write(s, in, vec.elements[k], v.extract(lo + ew - 1, lo), false);
    }
    return true;
  }

  // `unmodelled_load`: the instruction is a load whose value is not an input either (shared_load_note).
  void havoc_outputs(State& s, const Instruction& in, bool unmodelled_load = false) {
    for (int r : written_registers(in)) {
      const z3::expr v = fresh(std::string(ptx::ir::opcode_name(in.op)), reg_bits(r));
      // A load's value is memory content, an input; so, for this purpose, is a shuffle's from a lane that may not
      // take part (membermask lanes that do not execute it make shfl.sync undefined, ISA 9.7.9.6).
      if (unmodelled_load) abstracted(v, shared_load_note);
      else if (!ptx::ops::memory_access_opcode(in.op) && !matrix_memory_op(in) && in.op != Opcode::shfl_) abstracted(v, ptx::ir::opcode_name(in.op));
      write(s, in, reg_operand(r), v, false);
    }
  }
  // A symbol standing for a value the encoding does not model (ThreadEncoding::abstracted).
  z3::expr abstracted(const z3::expr& v, const std::string& what) {
    if (!probing_) out_.abstracted.emplace(v.id(), what);
    return v;
  }

  // `space`: the address's state space where it is not the instruction's first (cp.async's source, .global).
  void access(State& s, std::uint32_t i, const Instruction& in, const Operand& addr, unsigned size, bool rd, bool wr, bool atomic,
              std::optional<StateSpace> space = std::nullopt) {
    const Access a = access_at(s, i, in, addr, size, rd, wr, atomic, space);
    if (probing_) return;
    out_.accesses.push_back(a);
    if (pipeline_counters_[0] >= 0)
      for (int r : pipeline_counters_) out_.accesses.back().pipeline_arrives.push_back(read(s, reg_operand(r), 32, false));
  }
  // The access instruction i makes in state s (not recorded).
  Access access_at(State& s, std::uint32_t i, const Instruction& in, const Operand& addr, unsigned size, bool rd, bool wr,
                   bool atomic, std::optional<StateSpace> space = std::nullopt) {
    Access a{i, rd, wr, atomic, atomic, ptx::ir::Scope::gpu, Space::unknown, -1, c_.bv_val(0, 64), size, s.pc, std::nullopt, std::nullopt, false, false, {}};
    if (in.guard >= 0) a.pc = s.pc && guard(s, in);
    const Strength st = strength_of(in, atomic);
    a.strong = st.strong;
    a.scope = st.scope;
    StateSpace sp = space.value_or(in.q.space.value_or(StateSpace::generic));
    a.space = space_of(sp);
    z3::expr base = c_.bv_val(0, 64);
    unsigned base_bits = 64;
    if (addr.base_kind == Operand::BaseKind::Register && addr.reg >= 0) {
      base = read(s, reg_operand(addr.reg), 64, false);
      base_bits = reg_bits(addr.reg);
      a.object = p_.prov[addr.reg];
    } else if (addr.base_kind == Operand::BaseKind::Variable) {
      base = var_address(addr.var);
      using W = ptx::ir::VarRef::Where;
      if (addr.var.where == W::Param) { a.space = Space::param; }
      else {
        const auto& v = addr.var.where == W::Global ? m_.globals[addr.var.index] : f_.locals[addr.var.index];
        if (a.space == Space::unknown) a.space = space_of(v.space);
        for (std::size_t k = 0; k < p_.objects.size(); ++k) if (p_.objects[k].name == v.name) a.object = static_cast<int>(k);
      }
    } else if (addr.base_kind == Operand::BaseKind::Immediate) {
      base = c_.bv_val(static_cast<std::uint64_t>(addr.imm), 64);
    }
    if (a.object < 0) a.object = -1;
    if (a.space == Space::unknown && a.object >= 0) a.space = p_.objects[a.object].space;
    z3::expr sum = base + c_.bv_val(static_cast<std::uint64_t>(addr.offset), 64);
    // A 32-bit address register's sum wraps modulo 2^32 (ISA 6.4.1, semantics/ir/address.hpp).
    if (ptx::ir::address_bits(base_bits) == 32 && addr.offset != 0) sum = z3::zext(sum.extract(31, 0), 32);
    a.addr = sum.simplify();
    return a;
  }

  // ISA 9.7.9.25.3.1 cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}: a weak read of the
  // first src-size bytes at src (none when ignore-src is true) and a weak write of cp-size bytes at dst, both in
  // flight until the copy's group completes (Access::async).
  void async_copy(State& s, std::uint32_t i, const Instruction& in) {
    const auto& o = in.operands;
    const unsigned size = o[2].kind == OK::Immediate ? static_cast<unsigned>(o[2].imm) : 16;
    z3::expr reads_source = c_.bool_val(true);
    if (const ptx::ir::AsyncCopySource source = ptx::ir::async_copy_source(f_, in); source.operand >= 0) {
      const Operand& x = o[static_cast<std::size_t>(source.operand)];
      // src-size below cp-size reads fewer bytes: the read is kept whole (over-approximated) unless it is none.
      reads_source = source.ignore_src ? read(s, x, 1, false) == c_.bv_val(0, 1) : read(s, x, 32, false) != c_.bv_val(0, 32);
    }
    access(s, i, in, o[1], size, true, false, false, StateSpace::global);
    if (!probing_) {
      out_.accesses.back().pc = (out_.accesses.back().pc && reads_source).simplify();
      out_.accesses.back().async = true;
    }
    access(s, i, in, o[0], size, false, true, false, StateSpace::shared);
    if (!probing_) out_.accesses.back().async = true;
  }

  // ldmatrix / stmatrix (matrix_memory_op): each lane's line of the matrix.
  void matrix_rows(State& s, std::uint32_t i, const Instruction& in) {
    // ISA 9.7.14.5.15-16: matrix j of .x1/.x2/.x4 has its 8 lines (of 16 bytes in the forms ir::matrix_rows_form
    // takes) at the addresses lanes 8j .. 8j+7 give. Which thread of the warp-collective operation reads (writes)
    // which line the spec leaves open: each is taken as accessed by the lane that gives its address, so the warp
    // accesses every line.
    const auto& o = in.operands;
    const ptx::ir::MatrixRows form = *ptx::ir::matrix_rows_form(in);
    const bool load = in.op == Opcode::ldmatrix_;
    access(s, i, in, load ? o[1] : o[0], form.line_bytes, load, !load, false);
    if (!probing_) out_.accesses.back().pc = out_.accesses.back().pc && z3::ult(lane_id(), c_.bv_val(8 * form.matrices, 32));
    if (load) write(s, in, o[0], fresh("ldmatrix", 32), false);  // memory content, as a load's (not abstracted)
  }

  // wmma.load / wmma.store (ISA 9.7.14.4.3-4): each thread accesses one element of the matrix, any one (which
  // lane takes which element is unspecified): element `at` of line `line`, the lines `stride` elements apart.
  // Sub-byte elements (.s4/.u4/.b1) are accessed as the byte holding them.
  void wmma_access(State& s, std::uint32_t i, const Instruction& in, const WmmaGeometry& g) {
    const auto& o = in.operands;
    const unsigned bytes = std::max(1u, g.element_bits / 8);
    access(s, i, in, o[g.address_operand], bytes, g.load, !g.load, false);
    if (!probing_) {
      Access& a = out_.accesses.back();
      const z3::expr line = fresh("wmma.line", 32), at = fresh("wmma.element", 32);
      const z3::expr stride = g.stride_operand >= 0 ? read(s, o[static_cast<std::size_t>(g.stride_operand)], 32, false)
                                                    : c_.bv_val(g.line_length, 32);
      const z3::expr element = z3::zext(line, 32) * z3::zext(stride, 32) + z3::zext(at, 32);
      const z3::expr offset = g.element_bits >= 8 ? element * c_.bv_val(bytes, 64)
                                                  : z3::lshr(element * c_.bv_val(g.element_bits, 64), c_.bv_val(3, 64));
      a.addr = (a.addr + offset).simplify();
      a.pc = a.pc && z3::ult(line, c_.bv_val(g.lines, 32)) && z3::ult(at, c_.bv_val(g.line_length, 32));
      a.collective = true;
    }
    if (g.load) havoc_outputs(s, in);  // the fragment: memory content
  }

  // ld, ldu (ISA 9.7.9.8-10): `m` says which operands are the address and the destination and how many bytes it
  // reads. Kernel arguments are symbols, broadcast loads the value a store made; other values are fresh.
  void memory_load(State& s, std::uint32_t i, const Instruction& in, const ptx::ops::MemoryAccessForm& m) {
    const auto& o = in.operands;
    const unsigned w = m.element_bits;
    const unsigned size = m.bytes();
    const Operand& ad = o[m.address];
    const Operand& d = o[static_cast<std::size_t>(m.destination)];
    bool param = ad.base_kind == Operand::BaseKind::Variable && ad.var.where == ptx::ir::VarRef::Where::Param;
    if (param) {
      // Kernel arguments: the same symbols in every thread.
      const auto& pv = f_.params[ad.var.index];
      auto arg = [&](std::int64_t offset) {
        out_.argument_reads.push_back(c_.bv_const(argument_symbol(pv.name, offset).c_str(), std::max(1u, w)));
        return out_.argument_reads.back();
      };
      if (d.kind == OK::Register) write(s, in, d, arg(ad.offset), false);
      else if (d.kind == OK::Vector) {
        // ld.param.v2/.v4: element k is the argument's bytes at offset + k * element size.
        for (std::size_t k = 0; k < d.elements.size(); ++k)
          write(s, in, d.elements[k], arg(ad.offset + static_cast<std::int64_t>(k * m.element_bytes())), false);
      } else havoc_outputs(s, in);
      return;
    }
    if (auto b = p_.broadcasts.find(i); b != p_.broadcasts.end()) {
      // One value per CTA and iteration (broadcast.hpp): the store's, as the CTA's writing thread made it, or
      // the content before it.
      // While probing a loop (the value changes per iteration of the phase loops), a symbol the probe made.
      const Broadcast& bc = b->second;
      z3::expr v = c_.bv_val(0, 1);
      if (probing_ && !bc.phase_loops.empty()) v = fresh("probe.broadcast", 8 * size);
      else if (bc.reads == Broadcast::Reads::stored_value) v = broadcast_value(bc.store);
      else if (bc.reads == Broadcast::Reads::initial_content) v = initial_content(bc.store);
      else v = per_instance("shared.phase." + std::to_string(i), c_.bv_sort(8 * size), bc.phase_loops);
      if (!probing_) {
        access(s, i, in, ad, size, m.returns_value(), m.writes(), m.atomic());
        out_.accesses.back().value = v;
      }
      write(s, in, d, v, ptx::ir::is_signed_int(in.q.types.empty() ? ScalarType::b32 : in.q.types[0].scalar));
      return;
    }
    access(s, i, in, ad, size, m.returns_value(), m.writes(), m.atomic());
    // Shared memory is no input of a launch: what a load of it returns was written by the kernel (or is undefined),
    // which the encoding does not follow and a replay cannot set, so a race that needs some value of it is at
    // most possible (a CUB radix sort's ranks from its shared-memory scan).
    const bool from_shared = !probing_ && out_.accesses.back().space == Space::shared;
    if (d.kind == OK::Register && d.reg >= 0 && d.component < 0 && f_.registers[d.reg].type.vector <= 1 && !probing_) {
      z3::expr v = fresh(std::string(ptx::ir::opcode_name(in.op)), reg_bits(d.reg));
      if (from_shared) abstracted(v, shared_load_note);
      write(s, in, d, v, false);
      out_.accesses.back().value = v;
      return;
    }
    havoc_outputs(s, in, from_shared);
  }
  // st (ISA 9.7.9.11): a write of m.bytes() at the address operand; a scalar's stored value is kept.
  void memory_store(State& s, std::uint32_t i, const Instruction& in, const ptx::ops::MemoryAccessForm& m) {
    const auto& o = in.operands;
    const std::size_t b = static_cast<std::size_t>(m.source);
    access(s, i, in, o[m.address], m.bytes(), m.returns_value(), m.writes(), m.atomic());
    if (!probing_ && m.count == 1 && o[b].kind != OK::Vector) out_.accesses.back().stored = read(s, o[b], m.element_bits, false);
    if (broadcast_stores_.count(i) && !probing_) stored_.insert_or_assign(i, Stored{read(s, o[b], m.element_bits, false), out_.accesses.back().pc});
  }
  // atom / red (ISA 9.7.13.5-6): an atomic access of m.bytes(); an integer scalar's update is recorded as
  // ops::atomic_written computes it, from operand b (and c of .cas) as `m` places them.
  void memory_atomic(State& s, std::uint32_t i, const Instruction& in, const ptx::ops::MemoryAccessForm& m) {
    const auto& o = in.operands;
    const unsigned ww = m.element_bits;
    access(s, i, in, o[m.address], m.bytes(), m.returns_value(), m.writes(), m.atomic());
    std::optional<z3::expr> b;  // operand b, read when needed (a vector operand's read makes a symbol)
    auto amount = [&] { return b ? *b : *(b = read(s, o[static_cast<std::size_t>(m.source)], ww, false)); };
    if (integer_add(in) && !probing_) out_.add_amounts.insert_or_assign(i, amount());
    const Operand* d = m.returns_value() ? &o[static_cast<std::size_t>(m.destination)] : nullptr;
    const bool returns = d && d->kind == OK::Register && d->component < 0;
    const bool integer_scalar = !in.q.types.empty() && !ptx::ir::is_float(in.q.types.back().scalar) && m.count == 1;
    if (integer_scalar && in.q.atom_op && !probing_ && (returns || !d || d->kind != OK::Register)) {
      // The value it read: memory content, as a load's (a red's, or an atom's into `_`, only for `written`).
      const z3::expr old = fresh(returns ? "atom.ret" : "atom.old", ww);
      const Access& a = out_.accesses.back();
      const bool cas = m.swap >= 0 && o.size() > static_cast<std::size_t>(m.swap);
      const z3::expr operand = amount();
      const auto swap = cas ? std::optional(read(s, o[static_cast<std::size_t>(m.swap)], ww, false)) : std::nullopt;
      out_.updates.push_back({i, a.addr, old, ptx::ops::atomic_written(d_, ptx::ops::atomic_form(in), old, operand, cas ? *swap : old), a.pc, a.object,
                              cas ? std::optional(operand) : std::nullopt, swap, a.scope, std::nullopt, {}});
      if (returns) {
        write(s, in, *d, old, false);
        if (integer_add(in)) out_.counters.push_back({i, a.object, a.addr, old, out_.add_amounts.at(i), a.pc, a.scope});
        return;
      }
    }
    if (m.returns_value()) havoc_outputs(s, in);
  }

  void step(State& s, std::uint32_t i) {
    ptxcheck::ResourceGuard::checkpoint();  // the kernel's budget holds while encoding too
    const Instruction& in = f_.body[i];
    const auto& o = in.operands;
    const ScalarType t0 = in.q.types.empty() ? ScalarType::b32 : in.q.types[0].scalar;
    const unsigned w = ptx::ir::scalar_bits(t0);
    const bool isf = ptx::ir::is_float(t0);
    auto R = [&](std::size_t k, unsigned width, bool sgn = false) { return read(s, o[k], width, sgn); };
    auto W = [&](z3::expr v, bool sgn = false) { write(s, in, o[0], v, sgn); };
    // By kind (semantics/ops/effect.hpp); value instructions and the rest below the switch.
    using ptx::ops::Effect;
    switch (ptx::ops::effect_of(in.op)) {
      case Effect::memory: {
        const auto m = ptx::ops::memory_access(in);  // (st.bulk: none; encodable refuses it)
        if (!m) return;
        if (m->kind == ptx::ops::AccessKind::store) return memory_store(s, i, in, *m);
        if (m->atomic()) return memory_atomic(s, i, in, *m);
        return memory_load(s, i, in, *m);
      }
      case Effect::async_copy:
        if (ptx::ir::async_copy_role(in) == ptx::ir::AsyncCopyRole::copy) async_copy(s, i, in);
        return;  // the group controls have no effect on registers or memory of their own
      case Effect::matrix:
        if (in.op == Opcode::wmma_) {
          if (const auto g = wmma_geometry(in)) {
            wmma_access(s, i, in, *g);
            return;
          }
          break;  // wmma.mma: results not modelled
        }
        if ((in.op == Opcode::ldmatrix_ || in.op == Opcode::stmatrix_) && matrix_memory_op(in)) return matrix_rows(s, i, in);
        break;  // mma, movmatrix: registers only; wgmma, tcgen05: not encodable
      case Effect::mbarrier:
        // ISA 9.7.13.15: the state an arrive returns and whether a wait finds its phase complete depend on the
        // other threads and the schedule, so every value is possible (not an abstraction); the ordering the object
        // gives is taken as possible (check_ordering.cpp, may_synchronize). Its 8 bytes are not data.
        for (int r : written_registers(in)) write(s, in, reg_operand(r), fresh("mbarrier", reg_bits(r)), false);
        if (!probing_ && in.q.has(ptx::ir::Flag::init)) out_.mbarrier_inits.push_back({i, in.guard >= 0 ? (s.pc && guard(s, in)) : s.pc});
        return;
      case Effect::barrier:
        if (!probing_) out_.barriers.push_back({i, in.guard >= 0 ? (s.pc && guard(s, in)) : s.pc});
        // bar.warp.sync's membermask as this thread passes it (check_encode.cpp orders the lanes of one mask).
        if (!probing_ && in.q.has(ptx::ir::Flag::warp) && !in.operands.empty())
          out_.warp_masks.insert_or_assign(i, read(s, in.operands[0], 32, false));
        havoc_outputs(s, in);
        return;
      case Effect::control:
        if (in.op != Opcode::trap_) break;  // branches: the CFG's edges (walk)
        if (!probing_) out_.traps.push_back(in.guard >= 0 ? (s.pc && guard(s, in)) : s.pc);
        return;
      case Effect::warp:  // shfl and vote forward the other lanes' values, elect its leader; the others' results are fresh
        if (in.op == Opcode::shfl_ && shuffle(s, i, in)) return;
        if (in.op == Opcode::vote_ && vote(s, i, in)) return;
        if (in.op == Opcode::elect_ && elect(s, i, in)) return;
        break;
      default: break;
    }
    if (written_registers(in).empty()) return;
    if (in.op == Opcode::mov_ && move_vector(s, in)) return;
    if (in.op == Opcode::cvta_ && o.size() == 2 && o[0].kind == OK::Register && !isf) {  // addresses are one space here
      W(R(1, w));
      return;
    }
    ValueFrame frame{*this, s, in};
    if (ptx::ops::execute_value(d_, frame, in, form(i)) == ptx::ops::Executed::done) return;
    havoc_outputs(s, in);
  }

  // Instruction i's decoded form, decoded on its first step (as the interpreter's Decoded is): loops and probes
  // step an instruction many times.
  const ptx::ops::Form& form(std::uint32_t i) {
    std::optional<ptx::ops::Form>& f = forms_[i];
    if (!f) f = ptx::ops::form_of(f_.body[i]);
    return *f;
  }

  // This thread's registers as semantics/ops/execute.hpp's frame. Floats are not computed (a float result is a
  // fresh symbol, as an unmodelled instruction's): they rarely reach an address, and their terms are costly.
  struct ValueFrame {
    static constexpr bool models_float = false;
    Encoder& e;
    State& s;
    const Instruction& in;
    z3::expr read(const Operand& o, unsigned w, bool sgn) { return e.read(s, o, w, sgn); }
    void write(const Operand& o, const z3::expr& v, bool sgn) {
      if (in.op == Opcode::popc_) e.record_popcount(s, in, v);
      e.write(s, in, o, v, sgn);
    }
    void write_register(std::int32_t r, const z3::expr& v) { e.write(s, in, reg_operand(r), v, false); }
    // CC.CF is not kept across instructions: a carry-in is any bit.
    z3::expr carry() { return e.abstracted(e.fresh("carry", 1), "the carry flag"); }
    void set_carry(const z3::expr&) {}
  };
  // popc's operand and result, for the facts the pair search adds about population counts.
  void record_popcount(State& s, const Instruction& in, const z3::expr& count) {
    const z3::expr bits = read(s, in.operands[1], ptx::ir::scalar_bits(in.q.types.at(0).scalar), false);
    if (!probing_ && popcount_ids_.insert(count.id()).second) out_.popcounts.push_back({bits, count});
  }

  // ---- shared-memory broadcasts (broadcast.hpp)
  // The word a broadcast store writes, in this thread's CTA before the store: one value per CTA (and iteration of
  // the loops around the store).
  z3::expr initial_content(std::uint32_t store) {
    const unsigned w = ptx::ir::scalar_bits(f_.body[store].q.types.at(0).scalar);
    return per_instance("shared.before." + std::to_string(store), c_.bv_sort(w), loops_of(store));
  }
  std::vector<int> loops_of(std::uint32_t i) const {
    const std::set<int> loops = loops_around(p_.cfg, i);
    return {loops.begin(), loops.end()};
  }
  // This thread's iteration of each of `loops`: the same for every thread of the CTA in one phase, the loops
  // being aligned (broadcast.hpp).
  std::vector<z3::expr> iteration_of(const std::vector<int>& loops) const {
    std::vector<z3::expr> out;
    for (int L : loops) out.push_back(out_.k.at(L));
    return out;
  }
  // A value of one instance of a broadcast: a function of the CTA id, the iteration of `loops` and `key` (a
  // shuffle's source thread).
  z3::expr per_instance(const std::string& name, const z3::sort& range, const std::vector<int>& loops,
                        const std::vector<z3::expr>& key = {}) {
    z3::sort_vector dom(c_);
    z3::expr_vector args(c_);
    for (int d = 0; d < 3; ++d) { dom.push_back(c_.bv_sort(32)); args.push_back(out_.ctaid[d]); }
    for (const z3::expr& k : iteration_of(loops)) { dom.push_back(k.get_sort()); args.push_back(k); }
    for (const z3::expr& k : key) { dom.push_back(k.get_sort()); args.push_back(k); }
    return c_.function(name.c_str(), dom, range)(args);
  }

  // The word after the broadcast store `store` in this thread's CTA: the value its writing thread W stored when
  // W ran the store, else the content before it. W's symbols are those of this thread's terms with every
  // thread-specific constant (this thread's loads, other loops' iterations, ...) a function of the CTA id and the
  // iteration of the loops around the store instead, so that both checked threads see one W when they share a CTA
  // and iteration; W's tid components that the store's path condition
  // fixes (`tid.x == 0`) take that value (W is a thread that ran the store if any did: the other components are
  // free, and where they leave W not running it, the content before it is a possible value too, which only adds
  // executions).
  z3::expr broadcast_value(std::uint32_t store) {
    if (auto it = broadcast_memo_.find(store); it != broadcast_memo_.end()) return it->second;
    auto st = stored_.find(store);
    if (st == stored_.end()) return initial_content(store);  // the store is on no path walked before the load
    const std::string writer = "w" + std::to_string(store) + ".";
    const Stored& at = st->second;
    const std::vector<int> loops = loops_of(store);
    const std::vector<z3::expr> iteration = iteration_of(loops);
    const ForwardedAtomics atomics = atomics_in(at.value, loops);
    // The CTA barriers outside loops this thread has passed (on the paths walked so far), for a store outside loops:
    // the writer passes them too when this thread does (barrier divergence is reported on its own, check_barriers.cpp), so
    // its path conditions there hold for it, which settles what the loops before them left it (their exits) and
    // so whether it ran the store (`for (...) { reduce; __syncthreads(); } if (tid == 0) amLast = ...;`).
    std::vector<z3::expr> passed;
    if (loops.empty())
      for (const Barrier& b : out_.barriers)
        if (loops_of(b.instr).empty() && separating_cta_barrier(f_.body[b.instr])) passed.push_back(b.pc);
    std::vector<z3::expr> terms = forwarded_terms(at.value, at.pc, atomics);
    terms.insert(terms.end(), passed.begin(), passed.end());
    const WriterMap w = as_writer(at.pc, terms, writer, loops, iteration);
    auto as_w = [&](z3::expr e) { return e.substitute(w.from, w.to); };
    // W is a thread of the CTA; a tid component the path condition fixes may be out of range (then no thread ran
    // the store, and the barriers say nothing of it).
    z3::expr exists = c_.bool_val(true);
    for (int d = 0; d < 3; ++d) {
      const z3::expr in_range = z3::ult(w.tid[d], l_.ntid[d]);
      if (w.fixed[d]) exists = exists && in_range;
      else out_.facts.push_back(in_range);
    }
    const z3::expr runs = exists && as_w(at.pc);
    for (const z3::expr& pc : passed) add_fact(z3::implies(pc && exists, as_w(pc)));
    const z3::expr v = z3::ite(runs, as_w(at.value), initial_content(store)).simplify();
    add_writer_atomics(atomics, w.from, w.to, store, iteration, w.tid);
    return broadcast_memo_.emplace(store, v).first->second;
  }
  // The counter reads and atomic updates a forwarded value is computed from, in `loops` (those of the forwarding
  // instruction, so that an iteration of them names one instance of each).
  struct ForwardedAtomics {
    std::vector<const CounterRead*> counters;
    std::vector<const AtomicUpdate*> updates;
  };
  ForwardedAtomics atomics_in(const z3::expr& value, const std::vector<int>& loops) const {
    ForwardedAtomics out;
    const auto used = constants_of(value);
    for (const auto& cr : out_.counters)
      if (used.count(cr.ret.id()) && loops_of(cr.instr) == loops) out.counters.push_back(&cr);
    for (const auto& u : out_.updates)
      if (used.count(u.ret.id()) && loops_of(u.instr) == loops) out.updates.push_back(&u);
    return out;
  }
  // What a forwarded value depends on: the value, the forwarding thread's path condition, and the fields of the
  // atomics the value is computed from.
  static std::vector<z3::expr> forwarded_terms(const z3::expr& value, const z3::expr& pc, const ForwardedAtomics& atomics) {
    std::vector<z3::expr> terms{value, pc};
    for (const auto* cr : atomics.counters) terms.insert(terms.end(), {cr->addr, cr->ret, cr->inc, cr->pc});
    for (const auto* u : atomics.updates) terms.insert(terms.end(), {u->addr, u->ret, u->written, u->pc});
    return terms;
  }
  // The forwarding thread's counter reads and atomic updates (this thread's under the substitution from -> to), for
  // the facts between the forwarders of two threads (check_tickets.cpp).
  void add_writer_atomics(const ForwardedAtomics& atomics, const z3::expr_vector& from, const z3::expr_vector& to,
                          std::uint32_t via, const std::vector<z3::expr>& instance, const std::vector<z3::expr>& forwarder_tid) {
    auto as = [&](z3::expr e) { return e.substitute(from, to); };
    for (const auto* cr : atomics.counters)
      out_.writer_counters.push_back({{cr->instr, cr->object, as(cr->addr), as(cr->ret), as(cr->inc), as(cr->pc), cr->scope}, via, instance});
    for (const auto* u : atomics.updates)
      out_.writer_updates.push_back({u->instr, as(u->addr), as(u->ret), as(u->written), as(u->pc), u->object,
                                     u->compare ? std::optional(as(*u->compare)) : std::nullopt, u->swap ? std::optional(as(*u->swap)) : std::nullopt,
                                     u->scope, via, forwarder_tid});
    // The forwarding thread's population counts too (a leader's `atomicAdd(count, __popc(ballot))`), each once.
    for (std::size_t n = 0, taken = out_.popcounts.size(); n < taken; ++n) {
      const ThreadEncoding::Popcount forwarder{as(out_.popcounts[n].bits).simplify(), as(out_.popcounts[n].count).simplify()};
      if (popcount_ids_.insert(forwarder.count.id()).second) out_.popcounts.push_back(forwarder);
    }
  }
  // ---- shuffles
  z3::expr lane_id() const { return z3::urem(linear_tid(out_.tid, l_), c_.bv_val(32, 32)); }

  // A warp-level instruction whose lanes' values the encoding forwards: a .sync form (with its membermask) in a
  // block every lane of the warp reaches alike (uniform.hpp analyse_warp_uniformity), unguarded, so that every lane
  // of the warp runs it, once per iteration of the loops around it, and the lanes' runs pair up. Not while probing
  // a loop.
  bool forwarded(std::uint32_t i, const Instruction& in, std::size_t operands) const {
    return forwardable(in, operands) && !divergent(i);
  }
  bool forwardable(const Instruction& in, std::size_t operands) const {
    const auto& o = in.operands;
    return !probing_ && in.q.has(ptx::ir::Flag::sync) && o.size() == operands && in.guard < 0 && o[0].reg >= 0 && o[0].component < 0 &&
           (o[0].kind == OK::Register || o[0].kind == OK::PredPair);
  }
  bool divergent(std::uint32_t i) const { return p_.warp_uni.divergent[static_cast<std::size_t>(p_.cfg.block_of[i])]; }
  // The thread of this thread's warp at `lane` (32-bit): its tid, and whether it takes part in an instruction with
  // `membermask` (it exists, the CTA possibly ending mid-warp, and is in the mask).
  struct LaneThread {
    std::vector<z3::expr> tid;
    z3::expr takes_part;
  };
  LaneThread lane_thread(const z3::expr& lane, const z3::expr& membermask) {
    const z3::expr lin = (linear_tid(out_.tid, l_) - lane_id() + lane).simplify();
    LaneThread t{{z3::urem(lin, l_.ntid[0]), z3::urem(z3::udiv(lin, l_.ntid[0]), l_.ntid[1]), z3::udiv(lin, l_.ntid[0] * l_.ntid[1])},
                 z3::ult(lin, l_.ntid[0] * l_.ntid[1] * l_.ntid[2]) && (z3::lshr(membermask, lane) & c_.bv_val(1, 32)) == c_.bv_val(1, 32)};
    for (auto& x : t.tid) x = x.simplify();
    return t;
  }

  // ISA 9.7.9.6 shfl.sync (forwarded): the destination is `a` as the source lane's thread had it (source_value),
  // when that lane takes part; sourcing from another lane is undefined, a fresh value.
  // A broadcast (.idx) in a block some lanes may skip, outside loops (so that the lanes' runs still pair up), forwards
  // the source lane's value when that lane also reaches the shfl (its path condition, with the ballots it took part
  // in as facts: `if (!pred) return; ... __shfl_sync(ballot(pred), base, leader)`); where it does not, it has exited
  // (a lane of membermask that has not waits for it, 9.7.9.6) and the value is undefined, a fresh one. (Other modes
  // there stay fresh values: a butterfly reduction's chain of them would make terms of every lane's values.)
  bool shuffle(State& s, std::uint32_t i, const Instruction& in) {
    const bool may_skip = divergent(i);
    if (!forwardable(in, 5) || (may_skip && (!loops_of(i).empty() || ops::shfl_mode(in.q) != ops::ShflMode::idx))) return false;
    const auto& o = in.operands;
    const auto [j, in_range] = ops::shfl_source(d_, ops::shfl_mode(in.q), lane_id(), read(s, o[2], 32, false), read(s, o[3], 32, false));
    const z3::expr a = read(s, o[1], 32, false);
    const LaneThread source = lane_thread(j, read(s, o[4], 32, false));
    const Forwarded from_source = source_value(i, s.pc, a, source.tid, may_skip);
    write(s, in, reg_operand(o[0].reg), z3::ite(source.takes_part && from_source.reaches, from_source.value, fresh("shfl", 32)), false);
    if (o[0].kind == OK::PredPair && o[0].reg2 >= 0) write(s, in, reg_operand(o[0].reg2), in_range, false);
    return true;
  }

  // ISA 9.7.13.9 vote.sync (forwarded): one ballot per warp and instance, a function of the CTA id, the iteration
  // of the loops around the vote and the warp, whose bit for a lane that takes part is that lane's predicate (a
  // fact for this thread's own bit) and for any other lane 0.
  bool vote(State& s, std::uint32_t i, const Instruction& in) {
    if (!forwarded(i, in, 3) || in.operands[0].kind != OK::Register) return false;
    const auto& o = in.operands;
    const z3::expr a = read(s, o[1], 1, false), mask = read(s, o[2], 32, false);
    z3::expr group = c_.bv_val(0, 32);
    for (unsigned j = 0; j < 32; ++j)
      group = group | z3::ite(lane_thread(c_.bv_val(j, 32), mask).takes_part, c_.bv_val(1u << j, 32), c_.bv_val(0, 32));
    group = group.simplify();
    const z3::expr warp = z3::udiv(linear_tid(out_.tid, l_), c_.bv_val(32, 32)).simplify();
    const z3::expr ballot = per_instance("vote." + std::to_string(i), c_.bv_sort(32), loops_of(i), {warp});
    const z3::expr own_bit = z3::lshr(ballot, lane_id()).extract(0, 0);
    add_fact((ballot & ~group) == c_.bv_val(0, 32));
    add_fact(z3::implies(s.pc && lane_thread(lane_id(), mask).takes_part, own_bit == a));
    // Every other lane's bit is that lane's predicate too: the warp reaches the vote alike (forwarded), so a lane
    // that takes part votes in this instance (with `a` as it has it, lane_view). Each once (a loop body is walked
    // more than once).
    for (unsigned j = 0; j < 32; ++j) {
      const LaneThread lane = lane_thread(c_.bv_val(j, 32), mask);
      const LaneView view = lane_view("v" + std::to_string(i) + ".", loops_of(i), {a}, lane.tid);
      const z3::expr bit = z3::implies(s.pc && lane.takes_part, z3::lshr(ballot, c_.bv_val(j, 32)).extract(0, 0) == z3::expr(a).substitute(view.from, view.to));
      if (!probing_ && lane_fact_ids_.insert(bit.id()).second) out_.lane_facts.push_back(bit);
    }
    if (loops_of(i).empty()) ballots_.push_back({ballot, s.pc, a, mask});
    write(s, in, o[0], ops::vote_result(d_, ops::vote_mode(in.q), ballot, group), false);
    return true;
  }

  // ISA 9.7.13.14 elect.sync d|p (forwarded, so every lane of the warp runs it alike): one leader per warp and
  // membermask, "the same leader thread ... for the same membermask every time", a lane that takes part: a function
  // of the CTA id, the warp and the mask, shared by every thread encoded. d is its laneid, p whether this lane is it.
  // (Unforwarded, both stay fresh: lanes that exited or diverged may leave another lane to lead.)
  bool elect(State& s, std::uint32_t i, const Instruction& in) {
    const auto& o = in.operands;
    if (probing_ || !in.q.has(ptx::ir::Flag::sync) || o.size() != 2 || in.guard >= 0 || o[0].kind != OK::PredPair || divergent(i))
      return false;
    const z3::expr mask = read(s, o[1], 32, false);
    const z3::expr warp = z3::udiv(linear_tid(out_.tid, l_), c_.bv_val(32, 32)).simplify();
    const z3::expr leader = per_instance("elect", c_.bv_sort(32), {}, {warp, mask});
    add_fact(z3::ult(leader, c_.bv_val(32, 32)) && lane_thread(leader, mask).takes_part);
    const auto elected = ops::elect_result(d_, leader, lane_id());
    if (o[0].reg >= 0) write(s, in, reg_operand(o[0].reg), elected.leader, false);
    if (o[0].reg2 >= 0) write(s, in, reg_operand(o[0].reg2), elected.is_leader, false);
    return true;
  }

  // Each fact once (a loop body is walked more than once).
  void add_fact(const z3::expr& fact) {
    if (fact_ids_.insert(fact.id()).second) out_.facts.push_back(fact);
  }
  // The substitution that gives `terms` (of this thread, at an instance of an instruction in `loops`) as the thread
  // with tid `lane` of this thread's CTA has them at the same instance: every thread-specific constant of this
  // thread but its CTA id and those iterations becomes a function (named `name` + the constant's name) of them and
  // the thread's tid, equal to this thread's own constant at its own tid (a fact).
  struct LaneView {
    z3::expr_vector from, to;
  };
  LaneView lane_view(const std::string& name, const std::vector<int>& loops, const std::vector<z3::expr>& terms,
                     const std::vector<z3::expr>& lane) {
    LaneView v{z3::expr_vector(c_), z3::expr_vector(c_)};
    const std::vector<z3::expr> iteration = iteration_of(loops);
    for (int d = 0; d < 3; ++d) { v.from.push_back(out_.tid[d]); v.to.push_back(lane[d]); }
    for (const z3::expr& x : thread_constants(terms)) {
      if (names_instance(x, iteration)) continue;
      const std::string of = name + x.decl().name().str().substr(pre_.size());
      v.from.push_back(x);
      v.to.push_back(per_instance(of, x.get_sort(), loops, lane));
      // This thread's own constant is the function's value at its tid, unless it stands for some iteration of a loop
      // `via` is not in (that loop's iteration symbol, or a value made in its body): the thread's accesses in that
      // loop use it for their iteration, while at `via` the loop has run to its end. Tying the two would hold this
      // thread's accesses in the loop to its last iteration, and a race in an earlier one would be missed.
      bool per_thread = true;
      for (const auto& [L, k] : out_.k)
        if (z3::eq(x, k) && std::find(loops.begin(), loops.end(), L) == loops.end()) per_thread = false;
      if (auto it = made_in_loops_.find(x.id()); it != made_in_loops_.end())
        for (int L : it->second)
          if (std::find(loops.begin(), loops.end(), L) == loops.end()) per_thread = false;
      if (per_thread) add_fact(per_instance(of, x.get_sort(), loops, out_.tid) == x);
    }
    return v;
  }

  // `value` (a term of this thread at forwarding instruction `via`, which it reaches under `pc`) as the thread with
  // tid `source` of this thread's CTA has it at the same instance (the same iteration of the loops around `via`):
  // every thread-specific constant of this thread but its CTA id and those iterations is a function of them and
  // the thread's tid, equal to this thread's own constant at its own tid (a fact: the source may be this thread, or
  // the other checked one). The source reaches `via` too (the control flow to it is uniform): a fact on those
  // functions.
  // `may_skip`: the source need not reach `via`; `reaches` says when it does, and the ballots before (outside loops)
  // give their facts for the source's lane as for this thread's.
  struct Forwarded {
    z3::expr value, reaches;
  };
  Forwarded source_value(std::uint32_t via, const z3::expr& pc, const z3::expr& value, const std::vector<z3::expr>& source,
                         bool may_skip = false) {
    const std::vector<int> loops = loops_of(via);
    const std::vector<z3::expr> iteration = iteration_of(loops);
    const ForwardedAtomics atomics = atomics_in(value, loops);
    std::vector<z3::expr> terms = forwarded_terms(value, pc, atomics);
    if (may_skip)
      for (const Ballot& b : ballots_) terms.insert(terms.end(), {b.pc, b.predicate, b.mask});
    const LaneView view = lane_view("s" + std::to_string(via) + ".", loops, terms, source);
    const z3::expr_vector &from = view.from, &to = view.to;
    auto as_source = [&](z3::expr e) { return e.substitute(from, to); };
    if (!may_skip) add_fact(z3::implies(pc, as_source(pc)));
    // The source's bit of each ballot (of its warp: this thread's) is its predicate when it took part.
    if (may_skip)
      for (const Ballot& b : ballots_) {
        const z3::expr lane = z3::urem(linear_tid(source, l_), c_.bv_val(32, 32));
        const z3::expr in_mask = (z3::lshr(as_source(b.mask), lane) & c_.bv_val(1, 32)) == c_.bv_val(1, 32);
        add_fact(z3::implies(as_source(b.pc) && in_mask, z3::lshr(b.ballot, lane).extract(0, 0) == as_source(b.predicate)));
      }
    std::vector<z3::expr> instance = iteration;
    instance.insert(instance.end(), source.begin(), source.end());
    add_writer_atomics(atomics, from, to, via, instance, source);
    return {as_source(value).simplify(), may_skip ? as_source(pc).simplify() : c_.bool_val(true)};
  }

  // The substitution from this thread's constants in `terms` to the writer's (see broadcast_value), and the
  // writer's tid: a component the path condition `pc` fixes to a value e that is the same for every thread of
  // the CTA (a conjunct `tid.d == e`) is e. `loops`: those around the store, `iteration` this thread's in them.
  struct WriterMap {
    z3::expr_vector from, to;
    std::vector<z3::expr> tid;
    std::vector<bool> fixed;  // tid component fixed by the path condition
  };
  WriterMap as_writer(const z3::expr& pc, const std::vector<z3::expr>& terms, const std::string& writer,
                      const std::vector<int>& loops, const std::vector<z3::expr>& iteration) {
    WriterMap w{z3::expr_vector(c_), z3::expr_vector(c_), {}, {}};
    std::vector<std::optional<z3::expr>> fixed(3);
    std::vector<z3::expr> todo{pc.simplify()};
    while (!todo.empty()) {
      const z3::expr e = todo.back();
      todo.pop_back();
      if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
        for (unsigned a = 0; a < e.num_args(); ++a) todo.push_back(e.arg(a));
        continue;
      }
      if (!e.is_app() || e.decl().decl_kind() != Z3_OP_EQ) continue;
      for (int d = 0; d < 3; ++d)
        for (int side = 0; side < 2; ++side)
          if (z3::eq(e.arg(side), out_.tid[d]) && thread_constants({e.arg(1 - side)}).empty()) fixed[d] = e.arg(1 - side);
    }
    // A component the condition fixes to a constant in another form (`(tid.x | tid.y) == 0`): one value it allows,
    // and no other (a short query; unknown fixes nothing).
    for (int d = 0; d < 3; ++d) {
      if (fixed[d]) continue;
      z3::solver q(c_);
      q.add(pc);
      if (!solver::check(q, kShortQuery).sat()) continue;
      const z3::expr value = q.get_model().eval(out_.tid[d], true);
      q.add(out_.tid[d] != value);
      if (value.is_numeral() && solver::check(q, kShortQuery).unsat()) fixed[d] = value;
    }
    for (int d = 0; d < 3; ++d) {
      w.fixed.push_back(fixed[d].has_value());
      w.tid.push_back(fixed[d] ? *fixed[d] : per_instance(writer + "tid." + std::to_string(d), out_.tid[d].get_sort(), loops));
      w.from.push_back(out_.tid[d]);
      w.to.push_back(w.tid[d]);
    }
    for (const z3::expr& x : thread_constants(terms)) {
      // tid: above; ctaid and the iteration of the loops around the store: the writer's are this thread's.
      if (names_instance(x, iteration)) continue;
      w.from.push_back(x);
      w.to.push_back(per_instance(writer + x.decl().name().str().substr(pre_.size()), x.get_sort(), loops));
    }
    return w;
  }
  // A constant a forwarding thread's substitution handles apart: a tid or CTA id component (the writer's tid is
  // set apart, its CTA is this thread's) or this thread's iteration of the loops around the forwarding instruction.
  bool names_instance(const z3::expr& x, const std::vector<z3::expr>& iteration) const {
    for (int d = 0; d < 3; ++d) if (z3::eq(x, out_.tid[d]) || z3::eq(x, out_.ctaid[d])) return true;
    for (const z3::expr& k : iteration) if (z3::eq(x, k)) return true;
    return false;
  }
  // The constants of this thread (named with its prefix) the terms are built from.
  std::vector<z3::expr> thread_constants(const std::vector<z3::expr>& terms) const {
    std::vector<z3::expr> out, todo = terms;
    std::unordered_set<unsigned> seen;
    while (!todo.empty()) {
      const z3::expr x = todo.back();
      todo.pop_back();
      if (!x.is_app() || !seen.insert(x.id()).second) continue;
      for (unsigned a = 0; a < x.num_args(); ++a) todo.push_back(x.arg(a));
      if (x.num_args() == 0 && !x.is_numeral() && x.decl().name().str().rfind(pre_, 0) == 0) out.push_back(x);
    }
    return out;
  }

  using domain_t = ptx::domain::Symbolic;
  z3::context& c_;
  domain_t d_;
  const ptx::ir::Module& m_;
  const ptx::ir::Function& f_;
  const Prepared& p_;
  const Launch& l_;
  int t_;
  std::string pre_;
  std::vector<std::optional<ptx::ops::Form>> forms_;  // instruction index -> its form, once decoded (form)
  ThreadEncoding out_;
  unsigned n_ = 0;
  bool in_loop_ = false;  // the block being encoded is in a loop body (walk)
  std::vector<int> current_loops_;  // the loops whose bodies hold the block being encoded (walk)
  std::unordered_map<unsigned, std::vector<int>> made_in_loops_;  // a symbol made in a loop body -> those loops
  std::array<int, 2> pipeline_counters_{-1, -1};  // the registers counting arrives on "full" and "empty" (pipeline.hpp)
  int probing_ = 0;                        // inside induction_steps: record no accesses or barriers
  struct Stored {
    z3::expr value, pc;  // what a broadcast store writes, and when this thread runs it
  };
  std::map<std::uint32_t, Stored> stored_;                // broadcast store -> as this thread ran it
  std::map<std::uint32_t, z3::expr> broadcast_memo_;      // broadcast store -> broadcast_value
  std::set<std::uint32_t> broadcast_stores_;
  std::unordered_set<unsigned> probe_made_;  // ids of the symbols made while probing
  std::unordered_set<unsigned> fact_ids_;    // ids of the facts pushed (add_fact)
  std::unordered_set<unsigned> popcount_ids_;  // ids of the popc results recorded (ThreadEncoding::popcounts)
  // The forwarded votes outside loops (vote): the warp's ballot, and this thread's path condition, predicate and
  // membermask there.
  struct Ballot {
    z3::expr ballot, pc, predicate, mask;
  };
  std::vector<Ballot> ballots_;
  std::unordered_set<unsigned> lane_fact_ids_;
};
}  // namespace

const Access* access_of(const ThreadEncoding& t, std::uint32_t instr) {
  for (const auto& a : t.accesses)
    if (a.instr == instr) return &a;
  return nullptr;
}

const AtomicUpdate* update_of(const ThreadEncoding& t, std::uint32_t instr) {
  for (const auto& u : t.updates)
    if (u.instr == instr) return &u;
  return nullptr;
}

ThreadEncoding encode_thread(z3::context& c, const ptx::ir::Module& m, const ptx::ir::Function& f, const Prepared& p,
                             const Launch& launch, int thread) {
  return Encoder(c, m, f, p, launch, thread).run();
}

}  // namespace ptxcheck::race
