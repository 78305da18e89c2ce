// Runs litmus thread code with semantics/ops over the symbolic (Z3) domain: register arithmetic and branch
// comparisons are the ISA's own definitions; reads take each value of a candidate set (one trace per choice).
#include "litmus/build/threads.hpp"

#include "litmus/build/cell_text.hpp"

#include "litmus/build/async_proxy.hpp"
#include "litmus/build/cluster_barrier_cells.hpp"
#include "litmus/build/dialect_words.hpp"
#include "litmus/build/mbarrier_cells.hpp"
#include "litmus/build/mbarrier_counter.hpp"
#include "memmodel/graph/bulk_copy_events.hpp"
#include "memmodel/graph/mbarrier_events.hpp"

#include "semantics/domain/symbolic.hpp"
#include "semantics/ir/memory_order.hpp"
#include "semantics/ir/misc_forms.hpp"
#include "semantics/ir/opcode_operands.hpp"
#include "semantics/ir/video_select.hpp"
#include "semantics/ops/execute.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/compare.hpp"
#include "semantics/ops/effect.hpp"
#include "semantics/ops/integer.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/memory_access.hpp"

#include <algorithm>
#include <functional>
#include <optional>

namespace ptxcheck::litmus {
namespace {
constexpr unsigned kWidth = 64;

// Whether the builder runs cells of this opcode: by its kind of effect (ptx::ops::effect_of), and within a kind
// the opcodes it models. Anything else is unsupported, named with its location before any trace runs, so unreachable
// code cannot hide it.
bool builder_runs(const CellOpcode& c) {
  using ptx::ir::Opcode;
  using ptx::ops::Effect;
  switch (ptx::ops::effect_of(c.op)) {
    case Effect::value: return true;  // ISA 9.7.1-9.7.9, 9.7.18 (semantics/ops/execute.hpp), form by form in run_value
    case Effect::memory: return c.op == Opcode::ld_ || c.op == Opcode::st_ || c.op == Opcode::atom_ || c.op == Opcode::red_;
    case Effect::fence: case Effect::barrier: case Effect::mbarrier: return true;  // chapter 8's, form by form
    case Effect::async_copy: return true;  // the bulk copies of async_proxy.hpp (bulk_cell refuses the rest)
    case Effect::control: return c.op == Opcode::bra_;  // and the dialect's branches (dialect_words.hpp)
    case Effect::multimem: case Effect::address: case Effect::tensormap: case Effect::texture: case Effect::warp:
    case Effect::cluster_launch_control: case Effect::matrix: case Effect::stack: case Effect::hint: return false;
  }
  return false;
}
// Where a memory cell's operands are, as semantics/ops/memory_access.hpp places them for the PTX instruction it is (a
// cell's qualifiers move no operand but .cas's c, which comes after the address and b); nullopt for other cells.
std::optional<ptx::ops::MemoryAccessForm> cell_access(const CellOpcode& c) {
  if (ptx::ops::effect_of(c.op) != ptx::ops::Effect::memory) return std::nullopt;
  return ptx::ops::memory_access(c.op, ptx::ir::Qualifiers{});
}
// mbarrier.init / expect_tx / complete_tx name the object first ([a], n); arrive and the waits after d (9.7.13.15).
bool mbarrier_object_first(const std::vector<std::string>& parts) {
  return parts.size() > 1 && (parts[1] == "init" || parts[1] == "expect_tx" || parts[1] == "complete_tx");
}
}  // namespace

bool build_program(const Test& t, Program& p, std::vector<Diagnostic>& diags) {
  auto add_phys = [&](const std::string& n) {
    if (p.vloc_of.count(n)) return;
    int ph = static_cast<int>(p.pnames.size());
    p.pnames.push_back(n);
    p.init.push_back(t.mem_init.count(n) ? t.mem_init.at(n) : 0);
    p.vloc_of[n] = static_cast<int>(p.vnames.size());
    p.va_of.push_back(static_cast<int>(p.vnames.size()));
    p.vnames.push_back(n);
    p.phys_of.push_back(ph);
  };
  for (auto& n : t.mem_order) add_phys(n);
  // Aliases: a new virtual name mapped onto the target's physical location (chains resolve in order).
  for (auto& a : t.aliases) {
    auto it = p.vloc_of.find(a.target);
    if (it == p.vloc_of.end()) add_phys(a.target), it = p.vloc_of.find(a.target);
    int ph = p.phys_of[it->second];
    // A generic alias is a new virtual address of the same memory; a surface/texture/constant alias names
    // the target's generic address through another proxy (8.6 "overlap completely" is per virtual address).
    p.va_of.push_back(a.proxy == "generic" ? static_cast<int>(p.vnames.size()) : p.va_of[it->second]);
    if (a.proxy != "generic" && a.proxy != "surface" && a.proxy != "texture" && a.proxy != "constant") {
      diags.push_back(make_diagnostic(t.text, t.file, a.offset, "unsupported proxy '" + a.proxy + "'"));
      return false;
    }
    p.vloc_of[a.name] = static_cast<int>(p.vnames.size());
    p.vnames.push_back(a.name);
    p.phys_of.push_back(ph);
  }
  for (std::size_t ti = 0; ti < t.threads.size(); ++ti) {
    Program::Thread th;
    auto& d = t.threads[ti];
    th.id = d.id;
    for (auto& [k, v] : d.place) {
      if (k == "cta") th.cta = v;
      else if (k == "gpu") th.gpu = v;
      else if (k == "cluster") th.cluster = v;
      else {
        diags.push_back(make_diagnostic(t.text, t.file, d.offset, "unsupported scope level '" + k + "'"));
        return false;
      }
    }
    // A thread without a cluster runs in an implicit cluster of its CTA alone (ISA 2.2.2), and `cta` numbers the
    // CTAs of a named cluster: mixing the two would leave open whether `cta 0` names one CTA or two.
    if (ti > 0 && (th.cluster < 0) != (p.threads[0].cluster < 0)) {
      diags.push_back(make_diagnostic(t.text, t.file, d.offset, "a test that places a thread in a cluster must place every thread in one"));
      return false;
    }
    for (auto& row : t.rows) {
      if (ti >= row.size()) continue;
      auto& c = row[ti];
      if (!c.label.empty()) th.labels[c.label] = static_cast<int>(th.code.size());
      if (c.has_instr) th.code.push_back(c.instr);
    }
    p.threads.push_back(std::move(th));
  }
  // Locations used by instructions but not declared start at 0 (herd convention).
  for (auto& th : p.threads)
    for (auto& in : th.code) {
      const auto parts = split_dots(in.opcode);
      const auto cell = cell_opcode(in);
      if (!cell || !builder_runs(*cell)) {
        diags.push_back(make_diagnostic(t.text, t.file, in.offset, "unsupported instruction '" + in.opcode + "'"));
        return false;
      }
      // Selectors and `-` belong to the video instructions (ISA 9.7.18), which run_value checks operand by operand.
      const bool video = ptx::ir::video_kind(cell->op) != ptx::ir::VideoKind::none;
      for (std::size_t k = 0; k < in.operands.size() && !video; ++k)
        if ((k < in.selects.size() && !in.selects[k].empty()) || (k < in.minus.size() && in.minus[k])) {
          diags.push_back(make_diagnostic(t.text, t.file, in.offset, "'" + in.opcode + "': only video instructions take operand selectors or '-' (ISA 9.7.18)"));
          return false;
        }
      const auto effect = ptx::ops::effect_of(cell->op);
      const auto access = cell_access(*cell);
      if (access && access->address < in.operands.size()) {
        auto n = strip_brackets(in.operands[access->address]);
        if (!is_integer(n) && !(n.size() > 1 && n[0] == 'r' && is_integer(n.substr(1))) && !p.vloc_of.count(n)) add_phys(n);
      }
      if (effect == ptx::ops::Effect::async_copy)  // a bulk copy's [dst], [src]{, size, [mbar]} (async_proxy.hpp)
        for (std::size_t k = 0; k < in.operands.size(); ++k)
          if (auto n = strip_brackets(in.operands[k]); k != 2 && !is_integer(n) && !p.vloc_of.count(n)) add_phys(n);
      if (effect == ptx::ops::Effect::mbarrier && in.operands.size() >= 2) {  // the object
        const auto n = strip_brackets(in.operands[mbarrier_object_first(parts) ? 0 : 1]);
        if (!p.vloc_of.count(n)) add_phys(n);
      }
    }
  return note_mbarrier_objects(t, p, diags) && check_async_proxy(t, p, diags);
}

namespace {
struct Runner {
  const Test& t;
  const Program& p;
  const Program::Thread& th;
  const std::vector<std::set<std::int64_t>>& values;
  int unroll;
  bool stuck;  // also emit the stuck prefixes (Trace::End::spin / barrier) for the liveness check
  bool compact;  // leave reads whose value no instruction uses free (Trace::free) instead of branching
  std::vector<Trace>& out;
  std::vector<Diagnostic>& diags;
  z3::context& ctx;
  ptx::domain::Symbolic d;
  bool error = false;

  struct State {
    std::map<std::string, z3::expr> regs;
    std::map<std::string, std::set<int>> taint;  // register -> reads it depends on
    std::set<int> ctrl;                           // reads the path so far depends on
    std::vector<TEvent> events;
    std::map<int, int> visits;                    // backward-jump counts per target
    struct Head { std::size_t events = 0; std::map<std::string, std::pair<std::int64_t, std::set<int>>> live; };
    std::map<int, Head> heads;                    // the state at the last arrival at each loop head
    std::vector<FreeRead> free;                   // compact traces: the reads left free so far
    std::map<std::string, std::size_t> free_reg;  // register -> the free read whose value it still holds
    std::map<std::string, int> arrive_state;      // register -> the mbarrier object an arrive returned it for
    // Bulk_group copies (run_bulk_group_copy): each an operation of the trace (TEvent::op, its index here), its
    // write held back until the copy completes (a wait_group, or the end of the thread).
    struct Copy { TEvent write; bool written = false; };
    std::vector<Copy> copies;
    std::vector<int> uncommitted;                 // copies not yet in a bulk async-group
    std::vector<std::vector<int>> groups;         // committed bulk async-groups not yet complete, oldest first
    std::size_t groups_read = 0;                  // how many of them (the oldest) a wait_group.read completed
    bool cluster_arrived = false;                 // a barrier.cluster.arrive not yet followed by its wait
  };

  // ---- Spin-loop reduction. A loop iteration that only reads memory (no write, fence or barrier) and leaves
  // every register live at the loop head with the value and dependencies it had when the iteration began can
  // be deleted from any execution: its reads have no outgoing rf, deleting them only removes edges, and the
  // rest of the execution is the path that skips the iteration with the same later read values. So such a
  // back jump is dropped instead of counting toward the unroll bound (Dat3M's spin-loop treatment). This
  // relies on the model's axioms being monotone under removing read events, which holds for models whose set
  // differences subtract base relations or event properties only (ptx.cat and both reference models).
  std::vector<std::set<std::string>> live_in{};  // per pc; live_in[code.size()] = registers the condition reads
  std::vector<std::set<std::string>> used_later{};  // per pc: registers some instruction from pc on may read
  std::vector<char> is_head{};
  void uses(const Instr& in, std::set<std::string>& gen, std::string& def, std::vector<int>& succ, int pc) {
    using ptx::ops::Effect;
    const auto parts = split_dots(in.opcode);
    const auto cell = cell_opcode(in);
    auto& o = in.operands;
    auto reg_from = [&](std::size_t k) { for (; k < o.size(); ++k) if (is_reg(o[k])) gen.insert(o[k]); };
    bool falls_through = true;
    auto target = [&](const std::string& l) { auto it = th.labels.find(l); if (it != th.labels.end()) succ.push_back(it->second); };
    switch (cell ? ptx::ops::effect_of(cell->op) : Effect::hint) {
      case Effect::memory: {  // d = *a / *a = b / d = *a, *a = op(*a, b{, c})
        const auto access = cell_access(*cell);
        if (access->returns_value() && static_cast<std::size_t>(access->destination) < o.size()) def = o[static_cast<std::size_t>(access->destination)];
        if (access->source >= 0) reg_from(static_cast<std::size_t>(access->source));
        break;
      }
      case Effect::value:
        if (!o.empty()) def = o[0];  // run_value's destination, read operands after it
        reg_from(1);
        break;
      case Effect::control:  // beq / bne a, b, L read a and b and may fall through; bra / goto L only when guarded
        if (cell->branch && o.size() >= 2) { if (is_reg(o[0])) gen.insert(o[0]); if (is_reg(o[1])) gen.insert(o[1]); }
        target(branch_target(in, *cell));
        falls_through = cell->branch.has_value() || !in.guard.empty();
        break;
      case Effect::barrier: reg_from(0); break;
      case Effect::mbarrier:  // init / expect_tx / complete_tx [a], n; arrive / waits d, [a], operand{, hint}
        if (!mbarrier_object_first(parts) && !o.empty() && o[0] != "_") def = o[0];
        reg_from(mbarrier_object_first(parts) ? 1 : 2);
        break;
      default: break;
    }
    if (!in.guard.empty()) { gen.insert(in.guard); def.clear(); }  // a guarded write may not happen
    if (falls_through) succ.push_back(pc + 1);
  }
  void compute_liveness() {
    int n = static_cast<int>(th.code.size());
    std::vector<std::set<std::string>> gen(n);
    std::vector<std::string> def(n);
    std::vector<std::vector<int>> succ(n);
    for (int i = 0; i < n; ++i) uses(th.code[i], gen[i], def[i], succ[i], i);
    live_in.assign(n + 1, {});
    std::function<void(const CondPtr&)> cond_regs = [&](const CondPtr& c) {
      if (!c) return;
      for (auto* term : {&c->lhs, &c->rhs})
        if ((c->kind == Cond::eq || c->kind == Cond::ne) && term->kind == Term::reg && term->thread == th.id)
          live_in[n].insert(term->name);
      cond_regs(c->a);
      cond_regs(c->b);
    };
    cond_regs(t.cond);
    auto solve = [&](std::vector<std::set<std::string>>& live) {
      for (bool changed = true; changed;) {
        changed = false;
        for (int i = n - 1; i >= 0; --i) {
          std::set<std::string> in = gen[i];
          for (int j : succ[i])
            for (auto& r : live[std::min(j, n)]) if (r != def[i]) in.insert(r);
          if (in != live[i]) live[i] = std::move(in), changed = true;
        }
      }
    };
    solve(live_in);
    used_later.assign(n + 1, {});
    solve(used_later);
    is_head.assign(n + 1, 0);
    for (auto& [l, pc] : th.labels) if (pc <= n) is_head[pc] = 1;
  }
  State::Head head_of(State& s, int pc) {
    State::Head h;
    h.events = s.events.size();
    for (auto& r : live_in[pc]) h.live[r] = {concrete(reg(s, r)), s.taint.count(r) ? s.taint[r] : std::set<int>{}};
    return h;
  }
  // How the iteration ending at a back jump to `head` repeats: 0 not (it wrote, fenced, waited, or changed the
  // live state), 1 reads only (dropped, see above), 2 reads and RMW pairs only (an atom.exch / atom.cas spin:
  // kept and unrolled, its writes matter; a candidate stuck iteration for the liveness check).
  int repeating_iteration(State& s, int head) {
    auto it = s.heads.find(head);
    if (it == s.heads.end()) return 0;
    bool rmw = false;
    for (std::size_t k = it->second.events; k < s.events.size(); ++k) {
      const TEvent& e = s.events[k];
      if (e.rmw && e.kind == EvKind::write) {
        // It can repeat for ever only by reading back what it writes (liveness.cpp's condition).
        if (s.events[k - 1].value != e.value) return 0;
        rmw = true;
      } else if (e.kind != EvKind::read) return 0;
    }
    if (head_of(s, head).live != it->second.live) return 0;
    return rmw ? 2 : 1;
  }

  // A prefix after which the thread may make no progress: a repeating spin iteration (its events are those
  // from `from` on) or a waiting barrier (the last event).
  void emit_stuck(const State& s, Trace::End end, int pc, std::size_t from) {
    Trace tr;
    tr.events = s.events;
    tr.end = end;
    tr.stuck_pc = pc;
    if (end == Trace::End::spin)
      for (std::size_t k = from; k < s.events.size(); ++k) tr.spin_events.push_back(static_cast<int>(k));
    for (auto& [r, v] : s.regs) tr.regs[r] = concrete(v);
    out.push_back(std::move(tr));
  }

  void fail(const Instr& in, const std::string& msg) {
    if (!error) diags.push_back(make_diagnostic(t.text, t.file, in.offset, msg));
    error = true;
  }
  bool is_reg(const std::string& s) const {
    return !s.empty() && !is_integer(s) && !p.vloc_of.count(strip_brackets(s));
  }
  z3::expr reg(State& s, const std::string& r) {
    auto it = s.regs.find(r);
    if (it != s.regs.end()) return it->second;
    auto ri = t.reg_init.find({th.id, r});
    return d.lit(kWidth, static_cast<std::uint64_t>(ri == t.reg_init.end() ? 0 : ri->second));
  }
  z3::expr value(State& s, const std::string& o, std::set<int>& deps) {
    if (is_integer(o)) return d.lit(kWidth, static_cast<std::uint64_t>(std::stoll(o)));
    if (s.taint.count(o)) deps.insert(s.taint[o].begin(), s.taint[o].end());
    return reg(s, o);
  }
  static std::int64_t concrete(const z3::expr& e) {
    z3::expr v = e.simplify();
    std::uint64_t x = 0;
    v.is_numeral_u64(x);
    return static_cast<std::int64_t>(x);
  }
  // Litmus values are 64-bit; an atomic computes in its type's width and its result is extended back by the
  // type's signedness.
  z3::expr narrow(const ptx::ops::AtomicForm& f, const z3::expr& v) { return f.bits < kWidth ? d.zext(v, f.bits) : v; }
  z3::expr in_type(const ptx::ops::AtomicForm& f, const z3::expr& v) {
    if (f.bits >= kWidth) return v;
    return f.is_signed ? d.sext(v, kWidth) : d.zext(v, kWidth);
  }
  int vloc(const Instr& in, const std::string& o) {
    auto n = strip_brackets(o);
    auto it = p.vloc_of.find(n);
    if (it == p.vloc_of.end()) { fail(in, "unknown location '" + n + "'"); return -1; }
    return it->second;
  }
  void set_reg(State& s, const std::string& r, z3::expr v, std::set<int> deps) {
    s.free_reg.erase(r);
    s.arrive_state.erase(r);
    s.regs.insert_or_assign(r, v);
    s.taint[r] = std::move(deps);
  }

  // Qualifiers of a memory instruction, decoded by the IR's own decoder and read by the one definition of an
  // instruction's memory order (semantics/ir/memory_order.hpp), so that a litmus cell means what the same PTX
  // means to the race checker. The dialect's extra words: `.gen` (generic addressing), `.plus` for `.add`, and
  // `.sub`/`.minus` (an add of the negated operand; PTX has no atom.sub). Untyped cells compute in .s64.
  struct Quals {
    Sem sem = Sem::weak;
    Scope scope = Scope::none;
    ptx::ops::MemoryAccessForm access;  // its operands and order (semantics/ops/memory_access.hpp)
    ptx::ops::AtomicForm form;
    bool negate = false;  // the dialect's atom.sub
  };
  static Quals order_of(Sem sem, Scope scope) {  // an event's semantics and scope only (mbarrier events)
    Quals q;
    q.sem = sem;
    q.scope = scope;
    return q;
  }
  // `decode_as`: the PTX opcode whose qualifiers the cell's words are (suld/tld/cold read like ld, sust like st).
  std::optional<ptx::ir::Qualifiers> decode(const Instr& in, const std::vector<std::string>& parts, ptx::ir::Opcode decode_as,
                                            bool& negate) {
    std::vector<std::string> words;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string& w = parts[i];
      if (w == "gen") continue;
      if (w == "plus") words.push_back("add");
      else if (w == "sub" || w == "minus") words.push_back("add"), negate = true;
      else words.push_back(w);
    }
    ptx::ir::Qualifiers q;
    for (const auto& w : ptx::ir::decode_qualifiers(decode_as, words, q)) {
      fail(in, "unsupported qualifier '." + w + "' in '" + in.opcode + "'");
      return std::nullopt;
    }
    if (q.vector_width != 1 || q.types.size() > 1 || (!q.types.empty() && ptx::ir::scalar_bits(q.types[0].scalar) > kWidth)) {
      fail(in, "unsupported instruction '" + in.opcode + "' (one scalar type of at most 64 bits)");
      return std::nullopt;
    }
    const bool access = decode_as == ptx::ir::Opcode::ld_ || decode_as == ptx::ir::Opcode::st_ ||
                        decode_as == ptx::ir::Opcode::atom_ || decode_as == ptx::ir::Opcode::red_;
    for (const auto f : q.flags)
      if (access && !ptx::ir::performance_hint(f)) {  // .nc, .async, .bulk: an access of another kind
        fail(in, "unsupported qualifier '." + std::string(ptx::ir::flag_name(f)) + "' in '" + in.opcode + "'");
        return std::nullopt;
      }
    if (q.types.empty()) q.types.push_back({ptx::ir::ScalarType::s64, 1});
    return q;
  }
  Quals quals(const Instr& in, const std::vector<std::string>& parts, ptx::ir::Opcode decode_as) {
    Quals r;
    auto q = decode(in, parts, decode_as, r.negate);
    if (!q) return r;
    const auto access = ptx::ops::memory_access(decode_as, *q);  // (decode refused .bulk and .async)
    if (!access) {
      fail(in, "unsupported instruction '" + in.opcode + "' (red has no .cas or .exch, ISA 9.7.13.6)");
      return r;
    }
    r.access = *access;
    const bool rmw = r.access.atomic();
    if (rmw && !q->atom_op) fail(in, "unsupported atomic operation in '" + in.opcode + "'");
    if (rmw && ptx::ir::is_float(q->types.back().scalar)) fail(in, "unsupported float atomic '" + in.opcode + "'");
    const ptx::ir::MemoryOrder m = r.access.order;
    r.sem = mm::sem_of(m.sem);
    r.scope = m.strong ? mm::scope_of(m.scope) : Scope::none;
    if (rmw) r.form = ptx::ops::atomic_form(q->atom_op.value_or(ptx::ir::AtomOp::exch), q->types.back().scalar);
    return r;
  }
  std::set<int> guard_ctrl{};  // reads the current instruction's `@p` guard depends on
  TEvent mem_event(State& s, EvKind k, const Quals& q, Proxy px, int vl, const Instr& in) {
    TEvent e;
    e.kind = k;
    e.sem = q.sem;
    e.scope = q.scope;
    e.proxy = px;
    e.vloc = vl;
    e.loc = vl >= 0 ? p.phys_of[vl] : -1;
    e.ctrl = s.ctrl;
    e.ctrl.insert(guard_ctrl.begin(), guard_ctrl.end());
    e.text = in.opcode;
    return e;
  }

  // A value cell as the PTX instruction it is: the IR's qualifier decoder reads its words (an untyped cell is
  // .s64), its operands are the cell's (registers by position, integers as immediates), and the one dispatcher
  // semantics/ops/execute.hpp computes it as the interpreter and the race checker do. Litmus values are 64-bit:
  // an operand is read in the instruction's type width, a result extended back by its signedness.
  struct CellFrame {
    static constexpr bool models_float = true;
    Runner& r;
    State& s;
    const Instr& in;
    std::set<int> deps;  // the registers read so far carry their dependencies to the results
    z3::expr read(const ptx::ir::Operand& o, unsigned w, bool sgn) {
      const z3::expr v = o.kind == ptx::ir::Operand::Kind::Immediate ? r.d.lit(kWidth, o.imm)
                                                                     : r.value(s, in.operands[static_cast<std::size_t>(o.reg)], deps);
      return w < kWidth ? r.d.extract(v, w - 1, 0) : sgn ? r.d.sext(v, w) : r.d.zext(v, w);
    }
    void write(const ptx::ir::Operand& o, const z3::expr& v, bool sgn) {
      if (o.kind == ptx::ir::Operand::Kind::Register) write_register(o.reg, v, sgn);
    }
    void write_register(std::int32_t reg, const z3::expr& v, bool sgn = false) {
      const unsigned w = r.d.width(v);
      const z3::expr wide = (w >= kWidth ? r.d.extract(v, kWidth - 1, 0) : sgn ? r.d.sext(v, kWidth) : r.d.zext(v, kWidth)).simplify();
      if (!wide.is_numeral()) return r.fail(in, "'" + in.opcode + "': an approximate result (.approx) is not modelled");
      r.set_reg(s, in.operands[static_cast<std::size_t>(reg)], wide, deps);
    }
    z3::expr carry() { return r.d.lit(1, 0); }  // (run_value refuses the carry forms)
    void set_carry(const z3::expr&) {}
  };
  bool run_value(State& s, const Instr& in, const std::vector<std::string>& parts, ptx::ir::Opcode op) {
    ptx::ir::Instruction ins;
    ins.op = op;
    const std::vector<std::string> words(parts.begin() + 1, parts.end());
    for (const auto& w : ptx::ir::decode_qualifiers(op, words, ins.q)) {
      fail(in, "unsupported qualifier '." + w + "' in '" + in.opcode + "'");
      return false;
    }
    if (ins.q.types.empty()) ins.q.types.push_back({ptx::ir::ScalarType::s64, 1});
    const auto [min_ops, max_ops] = ptx::ir::opcode_operand_range(op);
    if (in.operands.size() < min_ops || in.operands.size() > max_ops) {
      fail(in, "'" + in.opcode + "' expects " + std::to_string(min_ops) + (min_ops == max_ops ? "" : " to " + std::to_string(max_ops)) + " operands");
      return false;
    }
    for (const auto& t : ins.q.types)
      if (ptx::ir::scalar_bits(t.scalar) > kWidth || ins.q.vector_width != 1) {
        fail(in, "unsupported instruction '" + in.opcode + "' (scalar types of at most 64 bits)");
        return false;
      }
    if (op == ptx::ir::Opcode::addc_ || op == ptx::ir::Opcode::subc_ || op == ptx::ir::Opcode::madc_ || ins.q.has(ptx::ir::Flag::cc)) {
      fail(in, "unsupported instruction '" + in.opcode + "' (the carry flag is not modelled)");
      return false;
    }
    for (std::size_t k = 0; k < in.operands.size(); ++k) {
      ptx::ir::Operand o;
      if (is_integer(in.operands[k])) o.imm = static_cast<std::uint64_t>(std::stoll(in.operands[k]));  // (an Immediate)
      else o.kind = ptx::ir::Operand::Kind::Register, o.reg = static_cast<std::int32_t>(k);
      if (k < in.selects.size() && !in.selects[k].empty()) {  // a video selector (ISA 9.7.18), checked below
        const auto sel = ptx::ir::parse_video_select(in.selects[k]);
        if (!sel) {
          fail(in, "unknown video selector '." + in.selects[k] + "' in '" + in.opcode + "'");
          return false;
        }
        o.select = *sel;
      }
      o.minus = k < in.minus.size() && in.minus[k];
      ins.operands.push_back(o);
    }
    for (std::size_t k = 0; k <= ins.operands.size(); ++k) {  // each operand, then the form as a whole
      const auto why = k < ins.operands.size() ? ptx::ir::video_operand_error(ins, k) : ptx::ir::video_form_error(ins);
      if (!why.empty()) {
        fail(in, why);
        return false;
      }
    }
    CellFrame frame{*this, s, in, {}};
    const ptx::ops::Executed e = ptx::ops::execute_value(d, frame, ins, ptx::ops::form_of(ins));
    if (e != ptx::ops::Executed::done && !error) fail(in, "unsupported instruction '" + in.opcode + "' (a form semantics/ops does not model)");
    return !error;
  }

  // ld / suld / tld / cold of a location: one branch per value the location may hold (values[loc]).

  void run_load(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts, int pc) {
    auto& ops = in.operands;
    Quals q = quals(in, parts, cell.op);
    if (error) return;
    const std::string& dst = ops[static_cast<std::size_t>(q.access.destination)];
    int vl = vloc(in, ops[q.access.address]);
    if (error) return;
    if (q.sem == Sem::release || q.sem == Sem::acq_rel || q.sem == Sem::sc) return fail(in, "unsupported load semantics in '" + in.opcode + "'");
    TEvent e = mem_event(s, EvKind::read, q, cell.proxy, vl, in);
    int idx = static_cast<int>(s.events.size());
    const auto& vals = values[e.loc];
    if (compact && vals.size() > 1 && !used_later[pc + 1].count(dst)) {
      // No instruction reads the value: every choice gives the same path, so one trace with the read free.
      e.value = *vals.begin();
      s.events.push_back(e);
      set_reg(s, dst, d.lit(kWidth, static_cast<std::uint64_t>(e.value)), {idx});
      s.free_reg[dst] = s.free.size();
      s.free.push_back(FreeRead{idx, std::vector<std::int64_t>(vals.begin(), vals.end()), {}});
      return run(std::move(s), pc + 1);
    }
    for (auto v : vals) {
      State s2 = s;
      TEvent e2 = e;
      e2.value = v;
      s2.events.push_back(e2);
      set_reg(s2, dst, d.lit(kWidth, static_cast<std::uint64_t>(v)), {idx});
      run(std::move(s2), pc + 1);
    }
  }
  // st / sust: a write of operand b to the location at [a]; false (after failing) when unsupported.
  bool run_store(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts) {
    Quals q = quals(in, parts, cell.op);
    if (error) return false;
    int vl = vloc(in, in.operands[q.access.address]);
    if (error) return false;
    if (q.sem == Sem::acquire || q.sem == Sem::acq_rel || q.sem == Sem::sc) {
      fail(in, "unsupported store semantics in '" + in.opcode + "'");
      return false;
    }
    TEvent e = mem_event(s, EvKind::write, q, cell.proxy, vl, in);
    e.value = concrete(value(s, in.operands[static_cast<std::size_t>(q.access.source)], e.data));
    s.events.push_back(e);
    return true;
  }
  // atom / red: a read of each value the location may hold, and the write ISA 9.7.13.5 computes from it
  // (semantics/ops/atomic.hpp); a failed CAS is a read only.
  void run_rmw(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts, int pc) {
    auto& ops = in.operands;
    Quals q = quals(in, parts, cell.op);
    if (error) return;
    const ptx::ops::MemoryAccessForm& m = q.access;  // atom d, [a], b{, c}; red [a], b (9.7.13.5-6)
    const bool cas = m.swap >= 0;
    if (!need_operands(in, m.operands)) return;
    int vl = vloc(in, ops[m.address]);
    if (error) return;
    const auto sems = mm::rmw_sems(q.sem);
    if (!sems) return fail(in, "unsupported RMW semantics in '" + in.opcode + "'");
    Quals rq = q, wq = q;
    rq.sem = sems->read;
    wq.sem = sems->write;
    TEvent r = mem_event(s, EvKind::read, rq, Proxy::generic, vl, in);
    r.rmw = true;
    std::set<int> deps;
    z3::expr a = value(s, ops[static_cast<std::size_t>(m.source)], deps);
    if (q.negate) a = ptx::ops::neg(d, a);
    std::set<int> deps2;
    z3::expr b = cas ? value(s, ops[static_cast<std::size_t>(m.swap)], deps2) : a;
    int idx = static_cast<int>(s.events.size());
    for (auto v : values[r.loc]) {
      State s2 = s;
      TEvent r2 = r;
      r2.value = v;
      z3::expr old = d.lit(kWidth, static_cast<std::uint64_t>(v));
      // ISA 9.7.13.5, in the instruction's type (semantics/ops/atomic.hpp); a failed CAS is a read only.
      const z3::expr old_t = narrow(q.form, old), a_t = narrow(q.form, a);
      s2.events.push_back(r2);
      if (concrete(ptx::ops::atomic_writes(d, q.form, old_t, a_t)) != 0) {
        TEvent w = mem_event(s2, EvKind::write, wq, Proxy::generic, vl, in);
        w.rmw = true;
        w.value = concrete(in_type(q.form, ptx::ops::atomic_written(d, q.form, old_t, a_t, narrow(q.form, b))));
        w.data = deps;
        w.data.insert(deps2.begin(), deps2.end());
        w.data.insert(idx);
        s2.events.push_back(w);
      } else {
        s2.events.back().rmw = false;
      }
      if (m.returns_value()) set_reg(s2, ops[static_cast<std::size_t>(m.destination)], old, {idx});
      run(std::move(s2), pc + 1);
    }
  }
  // An RMW pair on mbarrier object location `vl` reading `v` and writing `after`, with the read's and write's
  // semantics and the scope of `ev` (mm::mbarrier_events: a .release operation's write releases, ISA 8.8 item 1).
  void mbarrier_rmw(State& s, const Instr& in, const mm::MbarrierEvents& ev, int vl, std::int64_t v, std::int64_t after,
                    const std::set<int>& deps) {
    const int idx = static_cast<int>(s.events.size());
    TEvent r = mem_event(s, EvKind::read, order_of(*ev.read, ev.scope), Proxy::generic, vl, in),
           w = mem_event(s, EvKind::write, order_of(*ev.write, ev.scope), Proxy::generic, vl, in);
    r.rmw = w.rmw = true;
    r.value = v;
    w.value = after;
    w.data = deps;
    w.data.insert(idx);
    s.events.push_back(r);
    s.events.push_back(w);
  }
  // mbarrier cells on the object's state value (mbarrier_cells.hpp, mbarrier_counter.hpp): init a weak write of 0;
  // an arrive-on, expect-tx or complete-tx an RMW pair writing the state after it (9.7.13.15.5-.7), with the
  // instruction's semantics and scope; a wait a read with its own (an .acquire one is an acquire operation, 8.8 item
  // 1) whose waitComplete is computed from the value read.
  void run_mbarrier(State& s, const Instr& in, int pc) {
    using ptx::ir::MbarrierOp;
    std::string why;
    const auto cell = decode_mbarrier_cell(in, why);
    if (!cell) return fail(in, why);
    const auto& ops = in.operands;
    const int vl = vloc(in, ops[cell->object]);
    if (error) return;
    const int object = p.phys_of[vl];
    const std::int64_t expected = p.mbarrier_expected.at(object);
    // The events and their semantics and scope: mm::mbarrier_events (memmodel/graph/mbarrier_events.hpp).
    const auto ev = mm::mbarrier_events(cell->op, cell->order);
    if (!ev) return fail(in, "'" + in.opcode + "' has no reading as memory events (ISA 9.7.13.15)");
    Quals q;
    q.sem = cell->op == MbarrierOp::init ? *ev->write : *ev->read;
    q.scope = ev->scope;
    if (cell->op == MbarrierOp::init) {
      TEvent w = mem_event(s, EvKind::write, q, Proxy::generic, vl, in);
      w.value = 0;
      s.events.push_back(w);
      return run(std::move(s), pc + 1);
    }
    std::set<int> deps;  // the count, txCount, state or phaseParity operand's
    const std::size_t operand_at = cell->object + 1;
    const std::int64_t operand = ops.size() > operand_at ? concrete(value(s, ops[operand_at], deps)) : 1;
    const int idx = static_cast<int>(s.events.size());
    if (cell->op == MbarrierOp::wait && !cell->parity) {
      auto st = s.arrive_state.find(ops[2]);
      if (st == s.arrive_state.end() || st->second != object)
        return fail(in, "'" + in.opcode + "': the state operand must be the result of this thread's mbarrier.arrive on '" + p.pnames[object] + "' (ISA 9.7.13.15.16)");
    }
    MbarrierChange change;  // 9.7.13.15.13: with .expect_tx, "the count argument of the arrive-on operation is assumed to be 1"
    if (cell->op == MbarrierOp::arrive) change.arrivals = cell->expect_tx ? 1 : operand, change.expect = cell->expect_tx ? operand : 0;
    if (cell->op == MbarrierOp::expect_tx) change.expect = operand;
    if (cell->op == MbarrierOp::complete_tx) change.complete = operand;
    if (cell->op == MbarrierOp::arrive && change.arrivals < 1)
      return fail(in, "'" + in.opcode + "': an arrive count below 1 (ISA 9.7.13.15.2)");
    for (auto v : values[object]) {
      State s2 = s;
      if (cell->op != MbarrierOp::wait) {
        const auto after = mbarrier_after(v, expected, change, why);
        if (!after) {
          TEvent r = mem_event(s2, EvKind::read, order_of(*ev->read, ev->scope), Proxy::generic, vl, in);
          r.value = v;
          emit_undefined(s2, in, r, why);
          continue;
        }
        mbarrier_rmw(s2, in, *ev, vl, v, *after, deps);
        if (cell->op == MbarrierOp::arrive && ops[0] != "_") {  // the state: the phase it arrived in (its contents are the implementation's, 9.7.13.15.13)
          set_reg(s2, ops[0], d.lit(kWidth, static_cast<std::uint64_t>(mbarrier_phase(v, expected))), {idx});
          s2.arrive_state[ops[0]] = object;
        }
      } else {
        TEvent r = mem_event(s2, EvKind::read, q, Proxy::generic, vl, in);
        r.value = v;
        const auto complete = cell->parity ? mbarrier_parity_complete(v, expected, operand) : mbarrier_state_complete(v, expected, operand);
        if (!complete) {
          emit_undefined(s2, in, r, cell->parity ? "phaseParity " + std::to_string(operand) + " is neither 0 nor 1 (undefined, ISA 9.7.13.15.16)"
                                                 : "may test a phase that is neither the current nor the immediately preceding one (undefined, ISA 9.7.13.15.16)");
          continue;
        }
        s2.events.push_back(r);
        std::set<int> rdeps = deps;
        rdeps.insert(idx);
        set_reg(s2, ops[0], d.lit(kWidth, *complete ? 1 : 0), rdeps);
      }
      run(std::move(s2), pc + 1);
    }
  }
  // An event of the shared vocabulary (memmodel/graph/bulk_copy_events.hpp) in this trace, of operation `op`.
  TEvent graph_event(const mm::BaseEvent& b, const std::string& text, int op) {
    TEvent e;
    e.kind = b.kind;
    e.sem = b.sem;
    e.scope = b.scope;
    e.proxy = b.proxy;
    e.proxy_fence = b.proxy_fence;
    e.op = op;
    e.async_edge = b.kind == EvKind::barrier;
    e.text = text;
    return e;
  }
  // cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size: a weak read of src and a weak write of its value
  // to dst, both in the async proxy (9.7.9.25.2; "The copy operation in cp.async.bulk is treated as a weak memory
  // operation", 9.7.9.25.4.1), as operation `k` of the trace (8.9.1.1: ordered after the thread's prior
  // instructions, not in its program order): the issue edge (mm::async_edge_from in the thread, async_edge_to
  // starting the operation), the read; the write waits in s.copies until the copy completes (bulk_group_wait).
  void run_bulk_group_copy(State& s, const Instr& in, int pc) {
    const int dst = vloc(in, in.operands[0]), src = vloc(in, in.operands[1]);
    if (error) return;
    const int k = static_cast<int>(s.copies.size());
    for (auto v : values[p.phys_of[src]]) {
      State s2 = s;
      const int issue = static_cast<int>(s2.events.size());
      TEvent from = graph_event(mm::async_edge_from(-1), in.opcode, -1), start = graph_event(mm::async_edge_to(-1), in.opcode, k);
      from.ctrl = start.ctrl = s2.ctrl;
      start.sync_from = {issue};
      s2.events.push_back(from);
      s2.events.push_back(start);
      TEvent r = mem_event(s2, EvKind::read, Quals{}, mm::kBulkCopyProxy, src, in), w = mem_event(s2, EvKind::write, Quals{}, mm::kBulkCopyProxy, dst, in);
      r.op = w.op = k;
      r.value = w.value = v;
      w.data = {static_cast<int>(s2.events.size())};
      s2.events.push_back(r);
      s2.copies.push_back(State::Copy{w});
      s2.uncommitted.push_back(k);
      run(std::move(s2), pc + 1);
    }
  }
  // Copy `k` has completed (9.7.9.25.6.2): its write, then mm::bulk_completion_events (the implicit proxy fence of
  // 9.7.9.25.2 and the edge to the wait); the index of that edge. At the end of the thread a copy no wait_group
  // completed completes too (its write is in the final state) but synchronizes with nothing: its edge is unused.
  int complete_copy(State& s, int k) {
    State::Copy& c = s.copies[static_cast<std::size_t>(k)];
    c.written = true;
    s.events.push_back(c.write);
    for (const mm::BaseEvent& b : mm::bulk_completion_events(-1)) s.events.push_back(graph_event(b, c.write.text, k));
    return static_cast<int>(s.events.size()) - 1;
  }
  void complete_pending_copies(State& s) {
    for (std::size_t k = 0; k < s.copies.size(); ++k)
      if (!s.copies[k].written) complete_copy(s, static_cast<int>(k));
  }
  // cp.async.bulk.wait_group{.read} N (9.7.9.25.6.2): "wait until only N or fewer of the most recent bulk
  // async-groups are pending". Without .read the older groups' copies complete (complete_copy) and the wait, an
  // mm::async_edge_to of the thread, synchronizes with each completion. With .read their copies only "have completed
  // ... the reading from their source locations": an edge from after each copy's read (its write still to come in
  // the operation), preceded by the implicit proxy fence only under Program::fence_after_read_completion, the
  // reading of a question chapter 8 leaves open (memmodel/models/NOTES.md, "Async proxy"; run_test answers under
  // both). A copy's reads are done before its write in every case, so the groups whose reads are done are the
  // oldest ones, and "pending" may count groups or reads alike.
  void bulk_group_wait(State& s, const Instr& in, bool reads_only) {
    const std::size_t n = static_cast<std::size_t>(std::stoll(in.operands[0]));
    auto& g = s.groups;
    const std::size_t from = reads_only ? s.groups_read : 0;  // the oldest group still pending for this wait
    const std::size_t done = g.size() - from > n ? g.size() - from - n : 0;
    TEvent wait = graph_event(mm::async_edge_to(-1), in.opcode, -1);
    wait.ctrl = s.ctrl;
    for (std::size_t i = from; i < from + done; ++i)
      for (int k : g[i]) {
        if (!reads_only) { wait.sync_from.push_back(complete_copy(s, k)); continue; }
        const std::string& text = s.copies[static_cast<std::size_t>(k)].write.text;
        if (p.fence_after_read_completion) s.events.push_back(graph_event(mm::async_proxy_fence(-1), text, k));
        s.events.push_back(graph_event(mm::async_edge_from(-1), text, k));
        wait.sync_from.push_back(static_cast<int>(s.events.size()) - 1);
      }
    if (reads_only) s.groups_read += done;
    else {
      g.erase(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(done));
      s.groups_read -= std::min(s.groups_read, done);
    }
    if (!wait.sync_from.empty()) s.events.push_back(wait);
  }
  // A cell of the bulk-copy family (BulkCell): the copies, commit_group (the uncommitted copies become the newest
  // bulk async-group, 9.7.9.25.6.1) and wait_group.
  void run_bulk_cell(State& s, const Instr& in, int pc) {
    std::string why;
    const BulkCell kind = bulk_cell(in, why);
    if (kind == BulkCell::copy) return run_bulk_group_copy(s, in, pc);
    if (kind == BulkCell::commit) {
      s.groups.push_back(std::move(s.uncommitted));
      s.uncommitted.clear();
    } else if (kind == BulkCell::wait) {
      bulk_group_wait(s, in, split_dots(in.opcode).back() == "read");
    } else if (kind == BulkCell::copy_mbarrier) {
      return run_bulk_copy(s, in, pc);
    }
    run(std::move(s), pc + 1);
  }
  // cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]: the copy's read and
  // write as a bulk_group copy's, in program order where the instruction is; after the write the implicit
  // generic-async proxy fence that follows the completion (9.7.9.25.2) and the complete-tx of `size` on [mbar], an
  // RMW pair with ".release semantics at the .cluster scope" (9.7.9.25.4.1) in the generic proxy (it comes after
  // that fence); check_async_proxy refused what its place in program order would order wrongly (8.9.1.1).
  void run_bulk_copy(State& s, const Instr& in, int pc) {
    std::string why;
    const int dst = vloc(in, in.operands[0]), src = vloc(in, in.operands[1]);
    const int mbar = vloc(in, in.operands[kBulkMbarrierOperand]);
    if (error) return;
    Quals weak;
    const int idx = static_cast<int>(s.events.size());
    for (auto v : values[p.phys_of[src]]) {
      State s2 = s;
      TEvent r = mem_event(s2, EvKind::read, weak, mm::kBulkCopyProxy, src, in), w = mem_event(s2, EvKind::write, weak, mm::kBulkCopyProxy, dst, in);
      r.value = w.value = v;
      w.data = {idx};
      s2.events.push_back(r);
      s2.events.push_back(w);
      TEvent f = graph_event(mm::async_proxy_fence(-1), in.opcode, -1);  // (memmodel/graph/bulk_copy_events.hpp)
      f.ctrl = w.ctrl;
      s2.events.push_back(f);
      // "the complete-tx operation on the mbarrier has .release semantics at the .cluster scope" (9.7.9.25.4.1).
      const std::optional<mm::MbarrierEvents> ev = mm::bulk_complete_tx_events();
      MbarrierChange change;
      change.complete = std::stoll(in.operands[2]);
      const int object = p.phys_of[mbar];
      for (auto m : values[object]) {
        State s3 = s2;
        const auto after = mbarrier_after(m, p.mbarrier_expected.at(object), change, why);
        if (!after) {
          TEvent r = mem_event(s3, EvKind::read, order_of(*ev->read, ev->scope), Proxy::generic, mbar, in);
          r.value = m;
          emit_undefined(s3, in, r, "its complete-tx: " + why);
          continue;
        }
        mbarrier_rmw(s3, in, *ev, mbar, m, *after, {});
        run(std::move(s3), pc + 1);
      }
    }
  }
  // fence / membar / fence.proxy as a fence event of this thread; false (after failing) when unsupported. The
  // cell's words are read as PTX's (ir::fence_form, the IR checker's rules), except the dialect's proxy fences.
  bool fence_event(State& s, const Instr& in, const std::vector<std::string>& parts, ptx::ir::Opcode fop) {
    using Kind = ptx::ir::FenceForm::Kind;
    TEvent e;
    e.kind = EvKind::fence;
    e.ctrl = s.ctrl;
    e.ctrl.insert(guard_ctrl.begin(), guard_ctrl.end());
    e.text = in.opcode;
    const std::vector<std::string> words(parts.begin() + 1, parts.end());
    // A proxy fence orders proxies only; it is no release/acquire fence (8.4).
    auto proxy_event = [&](Proxy proxy, bool alias) {
      e.proxy_fence = true, e.proxy = proxy, e.alias_fence = alias;
      e.sem = Sem::weak, e.scope = Scope::cta;
    };
    if (const auto dialect = dialect_proxy_fence(words)) {
      proxy_event(*dialect, false);
      s.events.push_back(e);
      return true;
    }
    ptx::ir::Instruction ins;
    ins.op = fop;
    if (const auto unknown = ptx::ir::decode_qualifiers(fop, words, ins.q); !unknown.empty())
      return fail(in, "unsupported qualifier '." + unknown.front() + "' in '" + in.opcode + "'"), false;
    std::string why = ptx::ir::memory_order_error(ins);
    if (why.empty()) why = ptx::ir::fence_form_error(ins);
    if (!why.empty()) return fail(in, "'" + in.opcode + "': " + why), false;
    const auto f = ptx::ir::fence_form(fop, ins.q);
    if (f->kind == Kind::proxy && !f->space) {
      // 9.7.13.4: .alias orders virtually aliased addresses; .async the async and the generic proxy.
      proxy_event(f->proxy == ptx::ir::FenceForm::Proxy::async ? Proxy::async : Proxy::generic, f->proxy == ptx::ir::FenceForm::Proxy::alias);
    } else if (const auto m = ptx::ir::fence_order(fop, ins.q)) {
      e.sem = mm::sem_of(m->sem);
      e.scope = mm::scope_of(m->scope);
    } else {
      // fence.proxy.async.global / .shared::{cta,cluster} order one state space only (9.7.13.4), and the litmus
      // engine's locations have none; neither do the uni-directional, .mbarrier_init and .sync_restrict forms.
      return fail(in, "unsupported fence '" + in.opcode + "' (of the proxy fences, the litmus engine models fence.proxy.alias, "
                      ".surface, .texture, .constant and .async, over all state spaces)"), false;
    }
    s.events.push_back(e);
    return true;
  }

  // barrier.cluster.arrive / .wait (cluster_barrier_cells.hpp). 9.7.13.3: "Each thread must arrive at the barrier
  // only once before the barrier completes", and a wait waits for the phase the thread arrived in ("After using
  // barrier.cluster.wait to detect completion of the barrier, a thread may immediately arrive at the barrier once
  // again"): a thread's arrives and waits alternate, starting with an arrive; other orders are refused.
  bool run_cluster_barrier(State& s, const Instr& in, int pc) {
    std::string why;
    const auto cell = decode_cluster_barrier_cell(in, why);
    if (!cell) return fail(in, why), false;
    if (cell->arrive == s.cluster_arrived)
      return fail(in, "'" + in.opcode + (cell->arrive ? "' arrives again before waiting for the phase it arrived in (ISA 9.7.13.3)"
                                                       : "' waits with no barrier.cluster.arrive before it (ISA 9.7.13.3)")), false;
    s.cluster_arrived = cell->arrive;
    TEvent e = cluster_barrier_event(in, *cell);
    e.ctrl = s.ctrl;
    e.ctrl.insert(guard_ctrl.begin(), guard_ctrl.end());
    s.events.push_back(e);
    // Liveness: a wait may never complete (9.7.13.3: it waits for every non-exited thread of the cluster to arrive).
    if (stuck && !cell->arrive) emit_stuck(s, Trace::End::barrier, pc, s.events.size());
    return true;
  }

  // What a step leaves to do: the pc to go on at in the same state, or kStop (the rest of the trace was run by a
  // recursive call per read value, was cut, or failed).
  static constexpr int kStop = -1;

  void run(State s, int pc) {
    if (error) return;
    while (pc < static_cast<int>(th.code.size())) {
      if (is_head[pc]) s.heads[pc] = head_of(s, pc);
      const Instr& in = th.code[pc];
      const auto cell = cell_opcode(in);
      if (!cell || !builder_runs(*cell)) return fail(in, "unsupported instruction '" + in.opcode + "'");
      // `@p` / `@!p` (ISA 9.7: the instruction executes when the predicate holds). A guarded branch makes
      // everything after it control dependent, taken or not; another guarded instruction only itself.
      guard_ctrl.clear();
      if (!in.guard.empty()) {
        std::set<int> deps;
        bool on = (concrete(value(s, in.guard, deps)) != 0) != in.guard_negated;
        if (ptx::ops::effect_of(cell->op) == ptx::ops::Effect::control) s.ctrl.insert(deps.begin(), deps.end());
        else guard_ctrl = deps;
        if (!on) { ++pc; continue; }
      }
      pc = step(s, in, *cell, pc);
      if (pc == kStop) return;
    }
    complete_pending_copies(s);
    out.push_back(finished(s));
  }
  // One cell, by its kind of effect (ptx::ops::effect_of, the switch the interpreter and the race encoder use).
  int step(State& s, const Instr& in, const CellOpcode& cell, int pc) {
    using ptx::ops::Effect;
    const auto parts = split_dots(in.opcode);
    switch (ptx::ops::effect_of(cell.op)) {
      case Effect::memory: return step_memory(s, in, cell, parts, pc);
      // Arithmetic, comparison, logic, mov, prmt, cvt (ISA 9.7.1-9.7.9), video (9.7.18): the PTX instruction the
      // cell is, run by the interpreter's dispatcher on the cell's values.
      case Effect::value: return run_value(s, in, parts, cell.op) ? pc + 1 : kStop;
      case Effect::fence: return fence_event(s, in, parts, cell.op) ? pc + 1 : kStop;
      case Effect::barrier: return step_barrier(s, in, cell, parts, pc);
      case Effect::mbarrier: return run_mbarrier(s, in, pc), kStop;
      case Effect::async_copy: return run_bulk_cell(s, in, pc), kStop;
      case Effect::control: return step_branch(s, in, cell, parts, pc);
      case Effect::multimem: case Effect::address: case Effect::tensormap: case Effect::texture: case Effect::warp:
      case Effect::cluster_launch_control: case Effect::matrix: case Effect::stack: case Effect::hint: break;
    }
    fail(in, "unsupported instruction '" + in.opcode + "'");  // (build_program refused these already)
    return kStop;
  }
  bool need_operands(const Instr& in, std::size_t n) {
    if (in.operands.size() != n) fail(in, "'" + in.opcode + "' expects " + std::to_string(n) + " operands");
    return !error;
  }
  // ld / st / atom / red, and the dialect's loads and stores through other proxies (dialect_words.hpp).
  int step_memory(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts, int pc) {
    const auto access = cell_access(cell);
    if (access->kind == ptx::ops::AccessKind::load) {
      if (!need_operands(in, access->operands)) return kStop;
      const std::string& a = in.operands[access->address];
      if (cell.proxy == Proxy::generic && is_integer(a)) {  // `ld r, 1`: the dialect's move of an immediate
        set_reg(s, in.operands[static_cast<std::size_t>(access->destination)], d.lit(kWidth, static_cast<std::uint64_t>(std::stoll(a))), {});
        return pc + 1;
      }
      return run_load(s, in, cell, parts, pc), kStop;
    }
    if (access->kind == ptx::ops::AccessKind::store)
      return need_operands(in, access->operands) && run_store(s, in, cell, parts) ? pc + 1 : kStop;
    return run_rmw(s, in, cell, parts, pc), kStop;
  }
  // bar / barrier (ISA 9.7.13.1) and barrier.cluster (9.7.13.3).
  int step_barrier(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts, int pc) {
    if (cell.op == ptx::ir::Opcode::barrier_ && parts.size() > 1 && parts[1] == "cluster")
      return run_cluster_barrier(s, in, pc) ? pc + 1 : kStop;
    const auto& ops = in.operands;
    // The qualifiers as the IR decodes them: bar{.cta}.sync / .arrive, barrier{.cta}.sync / .arrive {.aligned}.
    const std::vector<std::string> words(parts.begin() + 1, parts.end());
    ptx::ir::Qualifiers q;
    const bool unknown_words = !ptx::ir::decode_qualifiers(cell.op, words, q).empty();
    const bool arrive = q.has(ptx::ir::Flag::arrive);
    const bool other_flags = std::any_of(q.flags.begin(), q.flags.end(), [](ptx::ir::Flag f) {
      return f != ptx::ir::Flag::arrive && f != ptx::ir::Flag::sync && f != ptx::ir::Flag::aligned;
    });
    if (unknown_words || other_flags || arrive == q.has(ptx::ir::Flag::sync) || q.scope.value_or(ptx::ir::Scope::cta) != ptx::ir::Scope::cta ||
        !q.types.empty() || q.semantics)
      return fail(in, "unsupported barrier '" + in.opcode + "' (the builder runs bar{.cta}.sync / .arrive and barrier{.cta}.sync / .arrive{.aligned}, ISA 9.7.13.1)"), kStop;
    if (ops.empty() || ops.size() > 3) return fail(in, "'" + in.opcode + "' expects 1 to 3 operands"), kStop;
    TEvent e;
    e.kind = EvKind::barrier;
    e.sem = mm::barrier_sem(arrive);  // ISA 9.7.13.1 (base_graph.hpp)
    e.bar_arrive = arrive;
    e.scope = Scope::cta;
    e.ctrl = s.ctrl;
    e.ctrl.insert(guard_ctrl.begin(), guard_ctrl.end());
    e.text = in.opcode;
    std::set<int> deps;
    e.bar_id = static_cast<int>(concrete(value(s, ops[0], deps)));
    // Dialect: `bar.cta.sync id[, instance[, count]]` (corpus Barrier/ and Manual/barrier-*-id tests), and
    // `bar.cta.arrive` with the same operands.
    if (ops.size() >= 2) e.bar_instance = static_cast<int>(concrete(value(s, ops[1], deps)));
    if (ops.size() >= 3) e.bar_count = static_cast<int>(concrete(value(s, ops[2], deps)));
    s.events.push_back(e);
    // Liveness: a waiting barrier may never complete (ISA 9.7.13.1: bar.sync waits for the count of threads).
    if (stuck && !arrive) emit_stuck(s, Trace::End::barrier, pc, s.events.size());
    return pc + 1;
  }
  // bra{.uni} L (ISA 9.7.12.1) and the dialect's goto / b L and compare-and-branch beq / bne a, b, L.
  int step_branch(State& s, const Instr& in, const CellOpcode& cell, const std::vector<std::string>& parts, int pc) {
    if (cell.op != ptx::ir::Opcode::bra_ || !(parts.size() == 1 || (parts.size() == 2 && parts[1] == "uni")))
      return fail(in, "unsupported instruction '" + in.opcode + "'"), kStop;
    if (!need_operands(in, cell.branch ? 3 : 1)) return kStop;
    if (cell.branch) {
      std::set<int> deps;
      const z3::expr a = value(s, in.operands[0], deps), b = value(s, in.operands[1], deps);
      s.ctrl.insert(deps.begin(), deps.end());
      if (concrete(ptx::ops::compare_int(d, *cell.branch, false, a, b)) != 1) return pc + 1;
    }
    const std::string target = branch_target(in, cell);
    auto it = th.labels.find(target);
    if (it == th.labels.end()) return fail(in, "unknown label '" + target + "'"), kStop;
    const int repeats = it->second <= pc ? repeating_iteration(s, it->second) : 0;
    if (repeats > 0 && stuck) emit_stuck(s, Trace::End::spin, it->second, s.heads[it->second].events);
    if (repeats == 1) return kStop;  // see "Spin-loop reduction"
    if (it->second <= pc && ++s.visits[it->second] > unroll) {
      // The writes so far happen in every execution that runs on past the bound: they feed the value sets.
      complete_pending_copies(s);
      Trace tr;
      tr.cut = true;
      tr.events = s.events;
      out.push_back(std::move(tr));
      return kStop;
    }
    return it->second;
  }
  Trace finished(State& s) {
    Trace tr;
    tr.events = std::move(s.events);
    for (auto& [r, v] : s.regs)
      if (auto f = s.free_reg.find(r); f != s.free_reg.end()) s.free[f->second].regs.push_back(r);
      else tr.regs[r] = concrete(v);
    tr.free = std::move(s.free);
    return tr;
  }
  // The operation of `in` reading `read` is undefined (Trace::undefined): the trace ends with that read.
  void emit_undefined(State& s, const Instr& in, TEvent read, const std::string& why) {
    read.rmw = false;  // (its write is not performed)
    s.events.push_back(read);
    Trace tr = finished(s);
    tr.undefined = "'" + in.opcode + "': " + why;
    tr.regs[kUndefinedRegister] = 1;
    out.push_back(std::move(tr));
  }
};

// A jump to an earlier instruction (a loop): its reads feed the spin-loop reduction, so none is left free.
bool has_backward_jump(const Program::Thread& th) {
  for (std::size_t pc = 0; pc < th.code.size(); ++pc) {
    const Instr& in = th.code[pc];
    const auto cell = cell_opcode(in);
    if (!cell || ptx::ops::effect_of(cell->op) != ptx::ops::Effect::control) continue;
    auto it = th.labels.find(branch_target(in, *cell));
    if (it != th.labels.end() && it->second <= static_cast<int>(pc)) return true;
  }
  return false;
}
}  // namespace

bool thread_traces(const Test& t, const Program& p, int ti, const std::vector<std::set<std::int64_t>>& values,
                   int unroll, std::vector<Trace>& out, std::vector<Diagnostic>& diags, bool stuck, bool compact) {
  z3::context ctx;
  const auto& th = p.threads[ti];
  Runner r{t, p, th, values, unroll, stuck, compact && !stuck && !has_backward_jump(th), out, diags, ctx,
           ptx::domain::Symbolic(ctx)};
  r.compute_liveness();
  r.run(Runner::State{}, 0);
  return !r.error;
}

bool has_blocking_code(const Program& p) {
  for (auto& th : p.threads) {
    if (has_backward_jump(th)) return true;
    for (const Instr& in : th.code) {
      const auto cell = cell_opcode(in);
      const auto parts = split_dots(in.opcode);
      if (cell && ptx::ops::effect_of(cell->op) == ptx::ops::Effect::barrier &&
          std::find(parts.begin(), parts.end(), "arrive") == parts.end())
        return true;
    }
  }
  return false;
}

std::size_t expanded_count(const Trace& tr, std::size_t max) {
  std::size_t n = 1;
  for (auto& f : tr.free) {
    if (n > max / f.values.size()) return max;
    n *= f.values.size();
  }
  return std::min(n, max);
}

void expand_free_reads(const Trace& tr, std::vector<Trace>& out) {
  Trace base = tr;
  base.free.clear();
  std::vector<std::size_t> at(tr.free.size(), 0);  // per free read, the index of its value: an odometer
  for (;;) {
    Trace one = base;
    for (std::size_t k = 0; k < tr.free.size(); ++k) {
      const std::int64_t v = tr.free[k].values[at[k]];
      one.events[static_cast<std::size_t>(tr.free[k].event)].value = v;
      for (auto& r : tr.free[k].regs) one.regs[r] = v;
    }
    out.push_back(std::move(one));
    std::size_t k = 0;
    for (; k < at.size(); ++k) {
      if (++at[k] < tr.free[k].values.size()) break;
      at[k] = 0;
    }
    if (k == at.size()) return;
  }
}

int free_read_of_event(const Trace& tr, int event) {
  for (std::size_t k = 0; k < tr.free.size(); ++k)
    if (tr.free[k].event == event) return static_cast<int>(k);
  return -1;
}

int free_read_of_register(const Trace& tr, const std::string& reg) {
  for (std::size_t k = 0; k < tr.free.size(); ++k)
    if (std::find(tr.free[k].regs.begin(), tr.free[k].regs.end(), reg) != tr.free[k].regs.end()) return static_cast<int>(k);
  return -1;
}

}  // namespace ptxcheck::litmus
