// Reports of a kernel's pair check (kernel_check.hpp): a race's witness (launch, arguments, loaded values), its
// accesses and notes, and the kernel's closing notes, replay and verdict.
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

#include <fmt/format.h>

namespace ptxcheck::race {
using ptx::ir::Opcode;

namespace {

std::string witness_text(const ptx::ir::Function& kernel, const Witness& w) {
  std::string text = "block " + dims_text(w.block) + ", grid " + dims_text(w.grid);
  for (std::size_t k = 0; k < kernel.params.size(); ++k) {
    const auto& p = kernel.params[k];
    auto it = w.args.find(p.name);
    if (it == w.args.end() || w.pointers.count(p.name)) continue;
    const std::string name = "arg" + std::to_string(k + 1);
    std::string unused;
    const auto is_signed = integer_argument(kernel, k + 1, unused);
    const auto& [offset, arg] = *it->second.begin();
    if (is_signed && it->second.size() == 1 && offset == 0 && arg.bits == 8 * p.size_bytes()) {
      std::int64_t v = static_cast<std::int64_t>(arg.value);
      if (*is_signed && arg.bits < 64) v = static_cast<std::int64_t>(arg.value << (64 - arg.bits)) >> (64 - arg.bits);
      text += ", " + name + " = " + (*is_signed ? std::to_string(v) : std::to_string(arg.value));
      continue;
    }
    for (const auto& [at, bytes] : it->second) text += ", " + name + "+" + std::to_string(at) + " = " + fmt::format("{:#x}", bytes.value);
  }
  return text;
}

}  // namespace

ThreadIds ids_of(const z3::model& m, const ThreadEncoding& t) {
  ThreadIds r;
  for (int d = 0; d < 3; ++d) {
    r.tid[d] = m.eval(t.tid[d], true).get_numeral_uint64();
    r.ctaid[d] = m.eval(t.ctaid[d], true).get_numeral_uint64();
  }
  return r;
}

AccessReport KernelCheck::describe(const Access& a, const z3::model& mdl) {
  AccessReport r;
  r.instr = a.instr;
  r.kind = a.atomic ? "atomic" : a.write ? "write" : "read";
  const auto& in = f.body[a.instr];
  r.strength = strength_text(in, a.atomic) + (a.async ? ", asynchronous" : "");
  r.space = space_name(a.space);
  r.object = a.object >= 0 ? prep.objects[a.object].name : "?";
  r.argument = argument_text(f, r.object);
  r.size = a.size;
  r.opcode = ptx::ir::opcode_text(in);
  z3::expr base = a.object >= 0 ? c.bv_const(prep.objects[a.object].base_symbol.c_str(), 64) : c.bv_val(0, 64);
  r.offset = static_cast<std::int64_t>(mdl.eval(a.addr - base, true).get_numeral_uint64());
  r.where = where_of(m, in);
  r.cuda_name = cuda_object_name(m, f, r.object, r.offset, in);
  return r;
}

// Witnesses (check.hpp Witness): the model's launch shape and kernel arguments (argument_symbol).
std::vector<std::tuple<std::string, std::uint32_t, z3::expr>> KernelCheck::arg_symbols(const z3::model& mdl) {
  std::vector<std::tuple<std::string, std::uint32_t, z3::expr>> out;  // parameter, offset, symbol
  for (unsigned i = 0; i < mdl.num_consts(); ++i) {
    z3::func_decl d = mdl.get_const_decl(i);
    auto arg = parse_argument_symbol(d.name().str());
    if (arg && d.range().is_bv()) out.emplace_back(arg->first, arg->second, d());
  }
  return out;
}

// Small: at most 256 threads per CTA and 8 CTAs per dimension where the shape is open, scalar arguments
// below 64 (they are often loop bounds, and a replay runs every iteration); `nonzero`: and at least 1 (sizes and
// counts, where a zero often skips the work the race is in).
z3::expr KernelCheck::small_witness(const z3::model& mdl, bool nonzero) {
  z3::expr e = c.bool_val(true);
  if (!o.block) e = e && z3::ule(z3::zext(launch.ntid[0], 32) * z3::zext(launch.ntid[1], 32) * z3::zext(launch.ntid[2], 32), c.bv_val(256, 64));
  if (!o.grid) for (int d = 0; d < 3; ++d) e = e && z3::ule(launch.nctaid[d], u32(8));
  for (const auto& [param, offset, sym] : arg_symbols(mdl)) {
    if (pointer_params.count(param)) continue;
    const unsigned w = sym.get_sort().bv_size();
    e = e && z3::ult(sym, c.bv_val(64, w));
    if (nonzero) e = e && sym != c.bv_val(0, w);
  }
  return e;
}

// The pair's offsets into pointer parameters below what a replay allocates (ReplayOptions::max_buffer_bytes).
z3::expr KernelCheck::replayable_offsets(const Access& a, const Access& b) {
  z3::expr e = c.bool_val(true);
  for (const Access* x : {&a, &b}) {
    if (x->object < 0 || !pointer_params.count(prep.objects[x->object].name)) continue;
    const z3::expr base = c.bv_const(prep.objects[x->object].base_symbol.c_str(), 64);
    e = e && z3::ult(x->addr - base, c.bv_val(ReplayOptions{}.max_buffer_bytes - x->size, 64));
  }
  return e;
}

// The pair's accesses lie inside their objects of known size: a witness should respect the objects' bounds.
z3::expr KernelCheck::within_objects(const Access& a, const Access& b) {
  z3::expr e = c.bool_val(true);
  for (const Access* x : {&a, &b}) {
    if (x->object < 0 || !object_bytes[x->object]) continue;
    const std::uint64_t bytes = *object_bytes[x->object];
    if (bytes < x->size) return c.bool_val(false);
    const z3::expr base = c.bv_const(prep.objects[x->object].base_symbol.c_str(), 64);
    e = e && z3::ule(x->addr - base, c.bv_val(bytes - x->size, 64));
  }
  return e;
}

// What the pair's addresses and conditions depend on that the encoding does not model (ThreadEncoding::abstracted).
// Values loaded from shared memory count where they make an address (ranks from a scan, an index read from a table
// the kernel built): where the accesses fall then rests on memory the engine does not follow. Under a condition
// they are taken as the inputs they derive from.
std::set<std::string> KernelCheck::unmodelled_values(const Access& a, const Access& b) {
  std::set<std::string> out;
  for (const z3::expr& e : {a.addr, a.pc, b.addr, b.pc}) {
    const bool address = z3::eq(e, a.addr) || z3::eq(e, b.addr);
    for (unsigned id : constants_of(e))
      for (const ThreadEncoding* t : {&T1, &T2})
        if (auto it = t->abstracted.find(id); it != t->abstracted.end() && (address || it->second != shared_load_note))
          out.insert(it->second);
  }
  return out;
}

// "'temp' (2336 bytes) at offset 2133220320": a reported access outside its object, or empty.
std::string KernelCheck::outside_object(const Access& a, const AccessReport& r) {
  if (a.object < 0 || !object_bytes[a.object]) return "";
  const std::uint64_t bytes = *object_bytes[a.object];
  if (r.offset >= 0 && static_cast<std::uint64_t>(r.offset) + r.size <= bytes) return "";
  return "'" + r.object + "' (" + std::to_string(bytes) + " bytes) at offset " + std::to_string(r.offset);
}

Witness KernelCheck::witness_of(const z3::model& mdl) {
  Witness w;
  for (int d = 0; d < 3; ++d) {
    w.block[d] = static_cast<std::uint32_t>(mdl.eval(launch.ntid[d], true).get_numeral_uint64());
    w.grid[d] = static_cast<std::uint32_t>(mdl.eval(launch.nctaid[d], true).get_numeral_uint64());
  }
  for (const auto& [param, offset, sym] : arg_symbols(mdl)) {
    z3::expr v = mdl.eval(sym, true);
    if (sym.get_sort().bv_size() <= 64) w.args[param][offset] = {v.get_numeral_uint64(), sym.get_sort().bv_size()};
  }
  w.pointers = pointer_params;
  w.text = witness_text(f, w);
  for (const ThreadEncoding* t : {&T1, &T2})
    for (const auto& x : t->accesses) {
      if (!x.value || x.object < 0 || !pointer_params.count(prep.objects[x.object].name) || !mdl.eval(x.pc, true).is_true()) continue;
      const z3::expr base = c.bv_const(prep.objects[x.object].base_symbol.c_str(), 64);
      const z3::expr value = mdl.eval(*x.value, true);
      if (!value.is_numeral() || value.get_sort().bv_size() > 64) continue;
      const unsigned bytes = std::min(x.size, value.get_sort().bv_size() / 8);
      w.loaded.push_back({prep.objects[x.object].name, mdl.eval(x.addr - base, true).get_numeral_uint64(), value.get_numeral_uint64(), bytes});
    }
  return w;
}

// The witness of a race found: in the objects' bounds, small, with offsets a replay can allocate, where it can be.
void KernelCheck::choose_witness(PairQuery& p) {
  const Access &a = p.a, &b = p.b;
  z3::expr& q = p.q;
  std::optional<z3::model>& model = p.model;
  // A witness inside the objects' bounds when there is one; a race only outside them is at most possible (below).
  if (const z3::expr inside = within_objects(a, b); !model->eval(inside, true).is_true() && !over_budget())
    if (auto [r7, in_bounds, why7] = check(q && inside); r7 == z3::sat) {
      q = q && inside;
      model = in_bounds;
    }
  // Prefer a small witness (a short replay), with nonzero scalar arguments and offsets a replay can allocate if
  // it can; the first model when there is none or no time is left.
  for (auto [nonzero, offsets] : {std::pair{true, true}, {false, true}, {false, false}}) {
    if (over_budget()) break;
    if (auto [r2, small, why2] = check(q && small_witness(*model, nonzero) && (offsets ? replayable_offsets(a, b) : c.bool_val(true)));
        r2 == z3::sat) {
      model = small;
      break;
    }
  }
}

// The report of a race found, with the notes on why it is only possible where it is.
RaceReport KernelCheck::explain_race(const PairQuery& p) {
  const Access &a = p.a, &b = p.b;
  const std::optional<z3::model>& model = p.model;
  const std::set<std::string>& unmodelled = p.unmodelled;
  const bool possible = p.possible, in_first_iteration = p.in_first_iteration, loads_unsettled = p.loads_unsettled,
             ballots_unsettled = p.ballots_unsettled, needs_atomics_between = p.needs_atomics_between,
             across_loop = p.across_loop, lane_unspecified = p.lane_unspecified;
  const std::string async_note = "a cp.async copies at some point between the instruction and the completion of its group "
                                 "(cp.async.wait_group or wait_all, ISA 9.7.9.25.3.3); barriers and fences on the way do not order it";
  RaceReport rr;
  rr.first = describe(a, *model);
  rr.second = describe(b, *model);
  rr.t1 = ids_of(*model, T1);
  rr.t2 = ids_of(*model, T2);
  rr.witness = witness_of(*model);
  if (!unmodelled.empty()) {
    rr.possible = true;
    std::string what;
    for (const auto& u : unmodelled) what += (what.empty() ? "" : ", ") + u;
    rr.note = "the accesses' addresses or conditions depend on values the symbolic engine does not model (" + what + ")";
  } else if (possible) {
    rr.possible = true;
    rr.note = "fences, release/acquire operations, partial barriers, mbarriers or strong reads observing a strong write on "
              "paths between them may order them (ISA 8.8-8.9; the symbolic engine orders only spin locks' critical sections, "
              "flags with one writer, flags.hpp, and last-block tickets, tickets.hpp)";
    for (const auto& why : mbarriers.rejected) rr.note += "; mbarrier not taken as a CTA barrier: " + why;
  }
  else if (!res.unsupported.empty()) { rr.possible = true; rr.note = "the kernel has unsupported instructions that may order these accesses"; }
  else if (in_first_iteration)
    rr.note = "in the first iteration of the loops around them, before any fence, release/acquire operation or strong read "
              "that could order them in a later one (ISA 8.9.5)";
  // A definite verdict needs evidence (issue 37): an access the witness places outside its object (its index built
  // from values the engine cannot bound, such as ranks read from memory) is at most a possible race.
  // Each reason below makes the race possible, not definite, and goes before the notes already there.
  const auto possible_because = [&rr](const std::string& why) {
    rr.possible = true;
    rr.note = why + (rr.note.empty() ? "" : "; " + rr.note);
  };
  for (const auto& [x, xr] : {std::pair{&a, &rr.first}, std::pair{&b, &rr.second}})
    if (const std::string outside = outside_object(*x, *xr); !outside.empty()) {
      possible_because("the witness places an access outside its object (" + outside + "): no execution within the objects' "
                       "bounds was found to race");
      break;
    }
  if (loads_unsettled)
    possible_because("the race needs the thread to read two values from one location between its own accesses, which the "
                     "solver could not rule out in its budget");
  if (ballots_unsettled)
    possible_because("the race needs ballot bits of other lanes (ISA 9.7.13.9) that the solver could not settle in its budget");
  if (needs_atomics_between)
    possible_because("the two threads' atomics on one location return the values the race needs only with other threads' "
                     "atomics between them (ISA 8.10 Atomicity), which the symbolic engine does not count");
  if (across_loop)
    possible_because("the cp.async may be in flight there only on paths that skip or leave a barrier loop the other access is in "
                     "(the copy's span is followed without branch conditions)");
  if (lane_unspecified) {
    possible_because("both in one warp, and which lane accesses which element of a wmma matrix is unspecified (ISA 9.7.14.4.1): "
                     "the two may be one thread's");
  } else if (a.collective || b.collective) {
    rr.note += (rr.note.empty() ? "" : "; ") + std::string("a wmma.load/store: the warp's lanes together access every element of the "
                                                           "matrix, and the thread shown stands for its warp (ISA 9.7.14.4.1)");
  }
  if (rr.note.empty() && (a.async || b.async)) rr.note = async_note;
  return rr;
}

void KernelCheck::finish() {
  if (timed_out) res.unknown_reasons.push_back(budget_reason() + " before every access pair was checked");
  if (budget) res.unknown_reasons.push_back("query budget of " + std::to_string(o.max_queries) + " solver calls reached");

  if (!prep.cfg.loops.empty())
    res.notes.push_back(note::loops_abstracted(prep.cfg.loops.size()));
  res.notes.push_back(note::no_aliasing());
  for (const auto& n : inl.notes) res.notes.push_back(n);
  if (claims_used)
    res.notes.push_back(note::claims());
  if (counters_assumed)
    res.notes.push_back(note::atomic_counters());

  if (o.replay) {
    ReplayOptions ro;
    ro.cooperative = reads_envreg(f);  // the grid workspace: as the grid-sync notes assume
    ro.assumptions = o.assumptions;
    replay_races(m, kernel, res.races, ro);
    if (auto why = guard.exhausted()) res.notes.push_back(note::replay_stopped(*why));
  }
  bool definite = false;
  for (const auto& r : res.races) if (!r.possible) definite = true;
  if (definite || !res.divergences.empty()) res.verdict = KernelResult::Verdict::race;
  else if (!res.races.empty() || !res.unknown_reasons.empty() || !res.unsupported.empty()) {
    res.verdict = KernelResult::Verdict::unknown;
    if (!res.races.empty()) res.unknown_reasons.push_back("possible race: " + res.races.front().note);
    if (!res.unsupported.empty()) res.unknown_reasons.push_back("unsupported instructions: " + res.unsupported.front());
  }
}

}  // namespace ptxcheck::race
