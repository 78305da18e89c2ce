// tcgen05.mma.ws's collector buffers for matrix B (ISA 9.7.16.10.9.3): .collector::bN::{fill, use, lastuse, discard}
// (default .collector::b0::discard), kept per CTA (Cta::tmem_collector); the product itself is tcgen05_mma.cpp's.
#include "semantics/interp/machine.hpp"

#include <cmath>
#include <cstdio>

namespace ptx::interp {

// B (K x N values, read from shared memory) against the collector: ::fill keeps it in buffer N; ::use and ::lastuse
// need "a previous fill to the collector buffer #N to be still valid" (else illegal), and since B "can be read from
// the collector buffer", a buffer that differs from shared memory (which changed since the fill) leaves the result
// open: refused as unsupported rather than guessed; ::lastuse and ::discard end the buffer's validity. False, with
// the problem reported, when the MMA does not run.
bool Machine::tcgen05_collector(Thread& t, const Instruction& ins, const std::vector<double>& B) {
  unsigned buffer = 0;
  std::string op = "discard";
  for (const auto& w : ins.q.words) {
    char what[16] = {};
    if (std::sscanf(w.c_str(), "collector::b%u::%15s", &buffer, what) == 2) op = what;
  }
  const std::string name = ir::opcode_text(ins);
  if (buffer > 3 || (op != "fill" && op != "use" && op != "lastuse" && op != "discard")) {
    fail(Problem::Kind::unsupported, name + ": collector usage not in 9.7.16.10.9.3's syntax", {&t});
    return false;
  }
  std::vector<double>& held = cta_->tmem_collector[buffer];
  if (op == "use" || op == "lastuse") {
    if (held.empty()) {
      fail(Problem::Kind::illegal, name + ": .collector::b" + std::to_string(buffer) + "::" + op +
                                       " without a valid fill of that buffer (ISA 9.7.16.10.9.3)", {&t});
      return false;
    }
    bool same = held.size() == B.size();
    for (std::size_t i = 0; same && i < B.size(); ++i) same = held[i] == B[i] || (std::isnan(held[i]) && std::isnan(B[i]));
    if (!same) {
      fail(Problem::Kind::unsupported, name + ": B in shared memory changed since collector buffer b" + std::to_string(buffer) +
                                           " was filled; the text lets either be read (ISA 9.7.16.10.9.3)", {&t});
      return false;
    }
  }
  if (op == "fill") held = B;
  else if (op != "use") held.clear();
  return true;
}

}  // namespace ptx::interp
