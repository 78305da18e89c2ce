// brx.idx (ISA 9.7.12.4) in the interpreter: each active lane continues at the label its index selects from the
// instruction's .branchtargets list (the builder resolved the list into the operand's elements).
#include "semantics/interp/machine.hpp"

namespace ptx::interp {

// @p brx.idx{.uni} index, tlist: "if (p) { if (index < length(tlist)) pc = tlist[index]; else pc = undefined; }".
// An index past the list is undefined behaviour: reported, and the run stops. .uni (a promise that the branch does
// not diverge) is not checked, as bra.uni is not; lanes that choose differently diverge as they would under bra.
bool Machine::exec_brx(Warp& w, Group& g, const Instruction& ins, std::uint32_t active) {
  const std::uint32_t mask = g.mask, pc = g.pc;
  const auto& list = ins.operands[1].elements;
  sync_pc(g);
  std::array<std::uint32_t, 32> next{};
  std::uint32_t first_target = 0;
  bool uniform = true, any = false, ok = true;
  g.each(mask, [&](std::uint32_t k, unsigned lane) {
    if (!ok) return;
    if (!((active >> lane) & 1)) {
      next[k] = pc + 1;
    } else {
      Thread& t = *g.thread[k];
      const std::uint64_t index = read(t, ins.operands[0], 32).u64();
      if (index >= list.size()) {
        fail(Problem::Kind::illegal, "brx.idx index " + std::to_string(index) + " is not below the length " + std::to_string(list.size()) +
                                         " of its .branchtargets list: the branch target is undefined (ISA 9.7.12.4)", {&t});
        ok = false;
        return;
      }
      next[k] = static_cast<std::uint32_t>(list[index].target);
    }
    if (!any) first_target = next[k];
    uniform = uniform && next[k] == first_target;
    any = true;
  });
  if (!ok) return false;
  if (uniform && !(w.diverged && active)) {  // the whole group goes one way and stays together (as bra)
    g.pc = first_target;
    g.pc_ahead = true;
    return true;
  }
  // A split warp chooses again, so that a group behind this one can catch up; a lane looping back yields (as bra).
  g.each(mask, [&](std::uint32_t k, unsigned lane) {
    g.thread[k]->top->pc = next[k];
    if (w.diverged && ((active >> lane) & 1) && next[k] <= pc) w.yielded |= 1u << lane;
  });
  g.pc_ahead = false;
  if (!uniform) ++result_.stats.divergent_branches;
  return false;
}

}  // namespace ptx::interp
