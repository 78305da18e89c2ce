// The source side of a compiled litmus test: its threads as C++ operations (order, scope, location) and
// their expression as a litmus test for memmodel/models/scoped-c11.cat (the encoding that model reads).
#pragma once

#include "checker/abi/source_ops.hpp"
#include "litmus/compile/cu_litmus.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus_compile {

// One C++ operation of a litmus thread. Load/Store with plain = true are non-atomic accesses (`*x`).
struct CxxOp {
  abi::OpKind kind = abi::OpKind::Load;
  bool plain = false;
  abi::Order order = abi::Order::relaxed;
  abi::ThreadScope scope = abi::ThreadScope::device;
  abi::RmwOp rmw = abi::RmwOp::none;  // add or exch for Rmw
  std::string loc;                    // the shared location
  std::int64_t value = 0;             // the value stored, added or exchanged
  std::string reg;                    // the register a load or RMW writes (`r0`); empty: none
};

struct CxxThread {
  unsigned index = 0;
  int cta = 0, gpu = 0;  // place in the scope tree
  std::vector<CxxOp> ops;
};

struct CxxProgram {
  std::string name;
  std::vector<std::pair<std::string, std::int64_t>> init;
  std::vector<CxxThread> threads;
  std::string condition;  // `exists (...)` as written
};

// The threads of a .cu.litmus test as C++ operations. Recognised statements (the suite's forms):
//   rN = at<S>(L).load(O);   at<S>(L).store(V, O);   [rN =] at<S>(L).fetch_add(V, O) / .exchange(V, O);
//   fence(O, S);   rN = *L;   *L = V;      with O in rlx acq rel ar sc and S in blk dev sys.
// Anything else (and thread scope, which the source model does not distinguish from block scope) is an
// error naming the statement and its line.
std::optional<CxxProgram> cxx_program(const CuLitmus& test, const std::string& file, Diagnostic& error);

// The source-level litmus test in the herd PTX dialect, as scoped-c11.cat reads it: one instruction per
// C++ operation carrying its scope and acquire/release strength; the orders the dialect has no instruction
// for are tagged by a marker proxy fence immediately before the operation (documented in the model):
//   load  rlx/acq/sc   ld.relaxed / ld.acquire / [fence.proxy.alias] ld.acquire
//   store rlx/rel/sc   st.relaxed / st.release / [fence.proxy.alias] st.release
//   rmw   rlx/acq/rel/acq_rel/sc   atom.relaxed / .acquire / .release / .acq_rel / [fence.proxy.alias] .acq_rel
//   fence acq/rel/acq_rel/sc       [fence.proxy.texture] fence.acq_rel / [fence.proxy.surface] fence.acq_rel /
//                                  fence.acq_rel / fence.sc;   a relaxed fence: nothing
//   plain load / store             ld.weak / st.weak
// Scopes: block -> .cta, cluster -> .cluster, device -> .gpu, system -> .sys (abi::ptx_scope).
std::string c11_litmus(const CxxProgram& program);

// A litmus test in the herd PTX dialect from instruction columns (one per thread, `P<i>@cta C,gpu G`):
// the one printer of c11_litmus and of the tests proofs/ generates.
struct LitmusColumn {
  unsigned index = 0;
  int cta = 0, gpu = 0;
  std::vector<std::string> instructions;
};
std::string render_litmus(const std::string& name, const std::string& doc,
                          const std::vector<std::pair<std::string, std::int64_t>>& init,
                          const std::vector<LitmusColumn>& columns, const std::string& condition);

}  // namespace ptxcheck::litmus_compile
