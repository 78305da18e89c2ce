// The mbarrier object an instruction's address operand names (ISA 9.7.13.15.1: an 8-byte object in shared memory),
// for mbarrier.hpp: a variable and a byte offset in it (`[var+off]`, or a register holding var's address plus
// constants, through mov / cvta / cvt / add), or a slot of an array of such objects in one variable: `var + off +
// stride * i`, with i in a register whose values the analysis below bounds so that every slot lies inside the
// variable. That is how a block-scope cuda::pipeline addresses its "full" and "empty" mbarriers: `state + 16 *
// stage`, the stage a counter the loop keeps modulo the stage count (`stage + 1 == S ? 0 : stage + 1`).
#pragma once

#include "checker/race/cfg.hpp"
#include "semantics/ir/ir.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct MbarrierAddress {
  ptx::ir::VarRef var;
  std::int64_t offset = 0;
  std::int64_t stride = 0;        // 0: the one object at `offset`; else a slot offset + stride * i
  std::uint64_t last_index = 0;   // (stride != 0) i is in [0, last_index]
};

class MbarrierAddresses {
 public:
  MbarrierAddresses(const ptx::ir::Module& m, const ptx::ir::Function& f, const Cfg& g);
  // The object (or array slot) operand `o` of instruction `at` names; nullopt when it may be anything else, with
  // `why` saying what was not followed.
  std::optional<MbarrierAddress> of(const ptx::ir::Operand& o, std::uint32_t at, std::string& why) const;
  // The variable's name, for the notes.
  std::string name(const ptx::ir::VarRef& v) const;

 private:
  // An address as a sum: a variable's address (or none), a constant, and at most one register times a stride.
  struct Sum {
    std::optional<ptx::ir::VarRef> var;
    std::int64_t offset = 0;
    std::int64_t stride = 0;
    int index = -1;            // the register, when stride != 0
    std::uint32_t index_at = 0;  // an instruction reading it there
  };
  struct Range {
    std::uint64_t lo = 0, hi = 0;
  };
  using Hypothesis = std::map<int, Range>;

  std::optional<Sum> sum_of(const ptx::ir::Operand& o, std::uint32_t at, int depth) const;
  std::optional<Sum> sum_of_def(std::uint32_t def, int depth) const;
  std::optional<Range> range_of(int r, std::uint32_t at, std::uint64_t limit, Hypothesis& h, int depth) const;
  std::optional<Range> range_of_def(std::uint32_t def, std::uint64_t limit, Hypothesis& h, int depth) const;
  std::optional<Range> range_of_operand(const ptx::ir::Operand& o, std::uint32_t at, std::uint64_t limit, Hypothesis& h, int depth) const;
  std::optional<Range> selected(const ptx::ir::Instruction& in, std::uint32_t def, bool when_true, std::uint64_t limit,
                                Hypothesis& h, int depth) const;
  bool defined_before(int r, std::uint32_t at) const;
  bool in_order(int a, int b, std::uint32_t c) const;
  int single_def(int r) const;
  std::optional<std::uint64_t> variable_size(const ptx::ir::VarRef& v) const;

  const ptx::ir::Module& m_;
  const ptx::ir::Function& f_;
  const Cfg& g_;
  std::vector<std::vector<std::uint32_t>> defs_;  // register -> the instructions writing it
  mutable std::map<std::pair<int, std::uint32_t>, bool> defined_;  // defined_before's answers
  mutable std::size_t steps_ = 0;  // range_of calls for the current address
};

}  // namespace ptxcheck::race
