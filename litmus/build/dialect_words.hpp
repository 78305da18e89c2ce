// The litmus dialect's opcode words: what the first word of a cell stands for. A cell is a PTX instruction, read
// with ptx::ir::opcode_from_name and dispatched on ptx::ops::effect_of like the interpreter and the race encoder
// do (docs/one-semantics.md), except for the few words of this table, which the dialect adds (herd's PTX
// dialect and NVIDIA's mixed-proxy tests, litmus/parse/nvtest_access.cpp): each stands for a PTX opcode and says
// what the dialect adds to it. `suld` and `sust` are PTX instructions too (9.7.11.1-2), with surface coordinates;
// the dialect's are plain loads and stores of a location through the surface proxy (8.6), so the table comes first.
#pragma once

#include "litmus/parse/ast.hpp"
#include "memmodel/graph/base_graph.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/ir/types.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ptxcheck::litmus {

struct CellOpcode {
  ptx::ir::Opcode op;                        // whose qualifiers the cell's words are, whose effect_of says what it does
  mm::Proxy proxy = mm::Proxy::generic;      // a memory cell's proxy (8.6)
  std::optional<ptx::ir::CompareOp> branch;  // beq / bne: a branch taken when the first two operands compare so
};

struct DialectWord {
  std::string_view word;
  CellOpcode meaning;
};

// The table: every dialect word that is not read as the PTX opcode of its name.
std::span<const DialectWord> dialect_words();

// What a cell's opcode word ("atom" of "atom.acq_rel.gpu.add") stands for: its row of the table, else the PTX opcode
// of that name; nullopt for neither.
std::optional<CellOpcode> cell_opcode(std::string_view word);
// The same for a cell: the first word of its dotted opcode.
std::optional<CellOpcode> cell_opcode(const Instr& in);

// The dialect's proxy fences (herd's PTX dialect, NVIDIA's mixed-proxy tests): `fence.proxy.surface`, `.texture`
// and `.constant` order the generic proxy with that proxy (8.6), as `fence.proxy.alias` and `.async` (9.7.13.4) do
// theirs; PTX ISA 9.0 names no such proxykind. The proxy for a cell's qualifier words (those after `fence`), else
// nullopt: the cell is read as PTX (ir::fence_form).
std::optional<mm::Proxy> dialect_proxy_fence(std::span<const std::string> words);

// The label a branch cell jumps to (`goto L`, `bra L`; `beq a, b, L`); empty when the cell has no such operand.
std::string branch_target(const Instr& in, const CellOpcode& c);

}  // namespace ptxcheck::litmus
