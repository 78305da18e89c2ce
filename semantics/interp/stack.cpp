// The stack manipulation instructions (ISA 9.7.17) in the interpreter: each thread's alloca stack grows down from
// kAllocaTop in its local space (memory.hpp); stacksave reads its stack pointer, stackrestore sets it, alloca moves
// it down. A frame's allocations are freed when it returns (do_return).
#include "semantics/interp/machine.hpp"

#include <algorithm>

namespace ptx::interp {

using domain::Concrete;

void Machine::release_alloca(Thread& t, std::uint64_t sp) {
  if (sp <= t.sp) return;
  t.alloca_mem.erase(t.alloca_mem.begin(), t.alloca_mem.begin() + static_cast<std::ptrdiff_t>(sp - t.sp));
  t.sp = sp;
}

void Machine::exec_stack(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const unsigned w = d.w0;  // .u32 or .u64: ptr, size, d and a have the instruction type
  switch (ins.op) {
    case ir::Opcode::stacksave_:  // 9.7.17.1: d = stackptr;
      write(t, o[0], Concrete::lit(w, t.sp));
      return;
    case ir::Opcode::stackrestore_: {  // 9.7.17.2: stackptr = a;
      // "if stackrestore is used with an arbitrary value of a, it may cause corruption of stack pointer": a value
      // below the stack pointer, or above the one the executing function started with, is reported.
      const std::uint64_t a = read(t, o[0], w).u64();
      if (a < t.sp || a > t.frames.back().entry_sp) {
        fail(Problem::Kind::illegal, "stackrestore to " + std::to_string(a) + ", which is not a stack pointer this function's stack has had (" +
                                         std::to_string(t.sp) + ".." + std::to_string(t.frames.back().entry_sp) +
                                         "): the stack pointer is corrupted (ISA 9.7.17.2)", {&t});
        return;
      }
      release_alloca(t, a);
      return;
    }
    default: break;
  }
  // 9.7.17.3 alloca.type ptr, size{, immAlign}: a = max(immAlign, frame_align), immAlign 8 by default, "the minimum
  // guaranteed alignment"; stackptr = alloc_stack_mem(size, a), the stack growing down; ptr = the new stackptr.
  // size = 0 "may not lead to a valid memory allocation": here it aligns the stack pointer and allocates nothing.
  const std::uint64_t size = read(t, o[1], w).u64();
  const std::uint64_t align = std::max<std::uint64_t>(o.size() > 2 ? o[2].imm : 8, 8);
  const std::uint64_t used = kAllocaTop - t.sp;
  if (size > kAllocaLimit || used + size + align > kAllocaLimit) {
    fail(Problem::Kind::illegal, "alloca of " + std::to_string(size) + " bytes overflows the thread's stack (" + std::to_string(used) +
                                     " bytes in use, the interpreter's limit is " + std::to_string(kAllocaLimit) + ") (ISA 9.7.17.3)", {&t});
    return;
  }
  const std::uint64_t sp = (t.sp - size) / align * align;
  t.alloca_mem.insert(t.alloca_mem.begin(), t.sp - sp, std::uint8_t{0});
  t.sp = sp;
  t.peak_stack = std::max<std::uint64_t>(t.peak_stack, t.stack.size() + t.alloca_mem.size() + t.regs.size() * sizeof(CV));
  write(t, o[0], Concrete::lit(w, sp));
}

}  // namespace ptx::interp
