// Message passing through flags in a kernel's pair check (kernel_check.hpp, flags.hpp): the sites, what a consumer's
// read of the flag can have read, the orderings they give a pair, and the notes.
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

void KernelCheck::find_flags() {
  // ---- message passing through flags (flags.hpp): the sites in pointer arguments whose W has one writer per
  // location, and per consumer access whether, when it runs, the site's R can only have read W's value.
  for (const FlagSite& site : find_flag_sites(f, prep, T1)) {
    // A buffer or module variable whose content at launch an --assume can name (assume.hpp).
    const Object& flag = prep.objects[static_cast<std::size_t>(site.object)];
    const ptx::ir::Variable* variable = m.find_global(flag.name);
    if (!pointer_params.count(flag.name) && !(variable && variable->space == ptx::ir::StateSpace::global && flag.base_symbol == "&" + flag.name)) continue;
    const Access *w1 = access_of(T1, site.write), *w2 = access_of(T2, site.write);
    if (w1 && w2 && std::get<0>(check(w1->pc && w2->pc && w1->addr == w2->addr)) == z3::unsat) flag_sites.push_back(site);
  }
  flag_used.assign(flag_sites.size(), false);
  flag_needs_initial.assign(flag_sites.size(), false);
}

// The byte offset of `addr` in an object (its base symbol's), where assume.hpp initial_memory names the content.
z3::expr KernelCheck::offset_in(int object, const z3::expr& addr) {
  return addr - c.bv_const(prep.objects[static_cast<std::size_t>(object)].base_symbol.c_str(), 64);
}

KernelCheck::FlagRead KernelCheck::flag_read(std::size_t k, std::uint32_t consumer) {
  if (auto it = flag_reads.find({k, consumer}); it != flag_reads.end()) return it->second;
  // With the full budget whatever the pass (an answer is kept for every pair).
  const QueryBudget before = current;
  set_budget(o.query);
  const FlagSite& site = flag_sites[k];
  const Access &a = *access_of(T1, consumer), &r = *access_of(T1, site.read);
  const z3::expr runs = a.pc && r.pc;
  const z3::expr read = r.value->extract(8 * r.size - 1, 0);
  const z3::expr offset = offset_in(site.object, r.addr);
  const z3::expr initial = initial_memory(c, prep.objects[static_cast<std::size_t>(site.object)].name, r.size, offset);
  const z3::expr r_size = c.bv_val(r.size, 64);
  // The assumptions about every index (`arg2[*] == 0`), at the element R reads.
  z3::expr each = c.bool_val(true);
  for (const Assumption& x : o.assumptions) {
    std::string error;
    if (x.for_each_index)
      if (auto term = assumption_term(c, x, f, &m, launch.ntid, launch.nctaid, argument_reads, error, z3::udiv(offset, r_size))) each = each && *term;
  }
  FlagRead verdict = FlagRead::settled;
  if (std::get<0>(check(runs && each && read == initial)) != z3::unsat) verdict = FlagRead::initial_content;
  // Another thread's write that may give the value (every thread but T1 is a T2), or any write of T1's own.
  for (const ThreadEncoding* t : {&T2, &T1})
    for (const Access& x : t->accesses) {
      if (verdict != FlagRead::settled) break;
      if (!x.write || (t == &T2 && x.instr == site.write) || never_conflict(x, r)) continue;
      z3::expr gives = x.pc && accesses_overlap(x.addr, c.bv_val(x.size, 64), r.addr, r_size);
      std::optional<z3::expr> written = x.stored;
      if (const AtomicUpdate* u = update_of(*t, x.instr)) written = u->written;
      if (t == &T2 && written && x.size == r.size && written->get_sort().bv_size() >= 8 * r.size)
        gives = gives && !(x.addr == r.addr && written->extract(8 * r.size - 1, 0) != read);
      if (std::get<0>(check(runs && gives)) != z3::unsat) verdict = FlagRead::other_write;
    }
  set_budget(before);
  return flag_reads.emplace(std::make_pair(k, consumer), verdict).first->second;
}

// When the producer's access pb (of encoding P) comes before site k's W and the consumer's access ca (of C) after its
// R (flags.hpp: the structure), and the memory model orders them in that place of the two threads when R reads W's
// value (flag_model.hpp): the executions in which P is the thread whose W the R read, which order pb before ca.
z3::expr KernelCheck::flag_orders(std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P) {
  const FlagSite& site = flag_sites[k];
  if (!precedes_write(prep.cfg, site, pb.instr) || !follows_read(prep.cfg, site, ca.instr)) return c.bool_val(false);
  const auto& ordered = model_flag_orders(k, ca, pb);
  // The places in which the model orders them: same CTA, same cluster (another CTA), another cluster.
  const std::array<z3::expr, 3> place = {same_cta, same_cluster && !same_cta, !same_cluster};
  z3::expr places = c.bool_val(false);
  bool any = false;
  for (std::size_t n = 0; n < place.size(); ++n)
    if (ordered[n] == true) places = places || place[n], any = true;
  if (!any) return c.bool_val(false);
  const FlagRead fr = flag_read(k, ca.instr);
  if (fr == FlagRead::initial_content) flag_needs_initial[k] = true;
  if (fr != FlagRead::settled) return c.bool_val(false);
  flag_used[k] = true;
  const Access &w = *access_of(P, site.write), &r = *access_of(C, site.read);
  // (r.pc: a path to ca that does not pass R waits for nothing; flag_read's answer is about the runs that pass R.)
  return w.pc && r.pc && w.addr == r.addr && places;
}

// An --assume that states an object's content at launch: `argN[index] == 0`, or `name == 0` for a module variable.
std::string KernelCheck::assume_example(int object, const std::string& index) {
  const std::string& name = prep.objects[static_cast<std::size_t>(object)].name;
  for (std::size_t arg = 0; arg < f.params.size(); ++arg)
    if (f.params[arg].name == name) return "arg" + std::to_string(arg + 1) + "[" + index + "] == 0";
  const ptx::ir::Variable* v = m.find_global(name);
  return index == "0" || (v && v->count == 1) ? name + " == 0" : name + "[" + index + "] == 0";
}

void KernelCheck::note_flags() {
  for (std::size_t k = 0; k < flag_sites.size(); ++k) {
    const std::string site = note::flag_site(where_of(m, f.body[flag_sites[k].write]).text(), where_of(m, f.body[flag_sites[k].read]).text());
    if (flag_used[k])
      res.notes.push_back(note::flag_orders(site));
    else if (flag_needs_initial[k])
      res.notes.push_back(note::flag_needs_initial(site, assume_example(flag_sites[k].object, "*")));
    if (auto it = flag_unanswered.find(k); it != flag_unanswered.end()) res.notes.push_back(note::flag_unanswered(site, it->second));
  }
}

}  // namespace ptxcheck::race
