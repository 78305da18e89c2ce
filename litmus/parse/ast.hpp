// The AST of a litmus test in the herd/Dat3M PTX dialect: init block, thread columns with their place in
// the scope tree, rows of cells (label or generic `opcode op, op, ...` instruction), final condition.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

struct Instr {
  std::string opcode;                 // dotted, e.g. `atom.acq_rel.gpu.add`
  std::vector<std::string> operands;  // raw tokens: registers (a leading `%` dropped), names, integers, `[x]`
  // Per operand, a video instruction's selector without its dot ("b0" of `%r2.b0`, ISA 9.7.18) and vmad's `-`
  // (`-%r3`, 9.7.18.1.3), split off the register name at parse time; "" and 0 for other operands.
  std::vector<std::string> selects;
  std::vector<char> minus;
  std::size_t offset = 0;             // byte offset in the file
  std::string guard;                  // real PTX `@p` / `@!p` predicate register (without `%`); empty: none
  bool guard_negated = false;
};

struct Cell {
  std::string label;  // non-empty for `L:`
  bool has_instr = false;
  Instr instr;
  std::size_t offset = 0;  // byte offset of a label or instruction cell
};

struct ThreadDecl {
  int id = 0;
  std::map<std::string, int> place;  // cta, cluster, gpu -> index
  std::size_t offset = 0;
};

struct Alias { std::string name, proxy, target; std::size_t offset = 0; };

struct Term {
  enum Kind { reg, loc, imm } kind = imm;
  int thread = -1;
  std::string name;
  std::int64_t value = 0;
  std::size_t offset = 0;  // byte offset in the file of a register or location (for located diagnostics)
};

struct Cond;
using CondPtr = std::shared_ptr<const Cond>;
struct Cond {
  enum Kind { and_, or_, not_, eq, ne } kind = eq;
  CondPtr a, b;
  Term lhs, rhs;
};

enum class Quantifier { exists, not_exists, forall };

struct Test {
  std::string file, text;
  std::string arch, name;
  std::vector<std::string> docs;
  std::map<std::string, std::int64_t> mem_init;                            // location -> value
  std::vector<std::string> mem_order;                                      // declaration order
  std::map<std::pair<int, std::string>, std::int64_t> reg_init;            // (thread, reg) -> value
  std::vector<Alias> aliases;
  std::vector<ThreadDecl> threads;
  std::vector<std::vector<Cell>> rows;  // rows[i][t]
  Quantifier quantifier = Quantifier::exists;
  CondPtr cond;
};

}  // namespace ptxcheck::litmus
