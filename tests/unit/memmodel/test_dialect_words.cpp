// The litmus dialect's opcode words (litmus/build/dialect_words.hpp) against the ISA's text, and the builder's
// dispatch on ptx::ops::effect_of: a cell whose kind of effect the builder does not run is refused, named with its
// line and column, before any trace runs. Expectations from the ISA 9.0 text (its Table 2 of reserved instruction
// keywords and the sections' one-line descriptions) and by hand.
#include "litmus/build/dialect_words.hpp"
#include "litmus/build/threads.hpp"
#include "litmus/parse/parse.hpp"
#include "semantics/ops/effect.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace ptxcheck;
using namespace ptxcheck::litmus;
using ptx::ir::Opcode;

namespace {
std::vector<std::string> isa_lines() {
  std::ifstream f(std::string(PTXCHECK_SEEDS_DIR) + "/ptx-isa-9.0.txt");
  REQUIRE(f.good());
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}
// ISA 4.3.2, Table 2: the reserved instruction keywords, every PTX instruction's name.
std::set<std::string> instruction_keywords(const std::vector<std::string>& isa) {
  std::set<std::string> words;
  bool in = false;
  for (const auto& l : isa) {
    if (l.rfind("Table 2: Reserved Instruction Keywords", 0) == 0) { in = true; continue; }
    if (in && l.rfind("4.4. Identifiers", 0) == 0) break;
    if (!in) continue;
    std::istringstream ws(l);
    for (std::string w; ws >> w;) words.insert(w);
  }
  return words;
}
// The one-line description under a section's heading ("9.7.11.1 Surface Instructions: `suld`", the name, the line).
std::string summary_of(const std::vector<std::string>& isa, const std::string& section) {
  for (std::size_t i = 0; i < isa.size(); ++i) {
    if (isa[i].rfind(section + " ", 0) != 0) continue;
    int nonblank = 0;
    for (std::size_t k = i + 1; k < isa.size() && k < i + 8; ++k)
      if (!isa[k].empty() && ++nonblank == 2) return isa[k];
  }
  return {};
}

struct Expected {
  Opcode op;
  mm::Proxy proxy;
  std::optional<ptx::ir::CompareOp> branch;
};
}  // namespace

TEST_CASE("the dialect's words: each stands for the PTX instruction the ISA's text describes") {
  const auto isa = isa_lines();
  const auto keywords = instruction_keywords(isa);
  REQUIRE(keywords.size() == 135);  // the whole table was read: 27 rows of 5
  REQUIRE(keywords.count("ld"));
  REQUIRE(keywords.count("bra"));
  // By hand, from the sections' descriptions. suld / sust, "Load from surface memory." / "Store to surface memory."
  // (9.7.11.1-2): a load / store through the surface proxy (8.6: "textures and surfaces all use distinct methods of
  // memory access"). tld and cold are not PTX: the dialect's loads through the texture and constant proxies (NVIDIA's
  // mixed-proxy tests' tex / ldc, docs/litmus-nvtest.md). beq / bne a, b, L: a branch (9.7.12.3 "Branch to a target")
  // taken when a == b / a != b; goto L and b L: bra L.
  CHECK(summary_of(isa, "9.7.11.1") == "Load from surface memory.");
  CHECK(summary_of(isa, "9.7.11.2") == "Store to surface memory.");
  CHECK(summary_of(isa, "9.7.9.8") == "Load a register variable from an addressable state space variable.");
  CHECK(summary_of(isa, "9.7.9.11") == "Store data to an addressable state space variable.");
  CHECK(summary_of(isa, "9.7.12.3") == "Branch to a target and continue execution there.");
  using mm::Proxy;
  using ptx::ir::CompareOp;
  const std::map<std::string, Expected> expected = {
      {"suld", {Opcode::ld_, Proxy::surface, std::nullopt}},  {"tld", {Opcode::ld_, Proxy::texture, std::nullopt}},
      {"cold", {Opcode::ld_, Proxy::constant, std::nullopt}}, {"sust", {Opcode::st_, Proxy::surface, std::nullopt}},
      {"beq", {Opcode::bra_, Proxy::generic, CompareOp::eq}}, {"bne", {Opcode::bra_, Proxy::generic, CompareOp::ne}},
      {"goto", {Opcode::bra_, Proxy::generic, std::nullopt}}, {"b", {Opcode::bra_, Proxy::generic, std::nullopt}},
  };
  CHECK(dialect_words().size() == expected.size());
  for (const DialectWord& w : dialect_words()) {
    const std::string word(w.word);
    INFO(word);
    REQUIRE(expected.count(word));
    const Expected& e = expected.at(word);
    const auto c = cell_opcode(word);
    REQUIRE(c.has_value());
    CHECK(c->op == e.op);
    CHECK(c->proxy == e.proxy);
    CHECK(c->branch == e.branch);
    // Each stands for a PTX instruction (Table 2) of a kind the builder runs: memory for the loads and stores,
    // control for the branches.
    CHECK(keywords.count(ptx::ir::opcode_name(c->op)));
    CHECK(ptx::ops::effect_of(c->op) == (e.op == Opcode::bra_ ? ptx::ops::Effect::control : ptx::ops::Effect::memory));
    // Only suld and sust are PTX keywords as well, surface instructions (9.7.11) with coordinates: the table's
    // reading of them comes first. The other words name no PTX instruction.
    CHECK(keywords.count(word) == (word == "suld" || word == "sust" ? 1u : 0u));
    CHECK(ptx::ir::opcode_from_name(word).has_value() == (keywords.count(word) == 1));
  }
  // Every other word is read as the PTX opcode of its name, and anything else as nothing.
  for (const std::string word : {"ld", "st", "atom", "red", "fence", "membar", "bar", "barrier", "mbarrier", "cp", "bra",
                                 "add", "vote", "shfl", "wgmma", "ldu", "tex"}) {
    INFO(word);
    REQUIRE(keywords.count(word));
    const auto c = cell_opcode(word);
    REQUIRE(c.has_value());
    CHECK(std::string(ptx::ir::opcode_name(c->op)) == word);
    CHECK(c->proxy == mm::Proxy::generic);
    CHECK(!c->branch);
  }
  CHECK(!cell_opcode("jmp"));
  CHECK(!cell_opcode("tld4x"));
  Instr in;
  in.opcode = "cold.relaxed.gpu.u32";
  REQUIRE(cell_opcode(in).has_value());
  CHECK(cell_opcode(in)->proxy == mm::Proxy::constant);
}

TEST_CASE("a cell of a kind of effect the builder does not run is refused with its line and column") {
  // Each cell after a `goto` that skips it: refused before any trace runs, so unreachable code hides nothing.
  // Line 5, column 2 (after the row's leading space). vote and shfl are warp exchanges (9.7.13.8-13 / 9.7.9.6),
  // wgmma a matrix instruction (9.7.15), ldu a load the builder does not model, call a control transfer it does
  // not, tex a texture instruction, nanosleep a hint.
  const std::vector<std::pair<std::string, ptx::ops::Effect>> cells = {
      {"vote.all.pred p, q", ptx::ops::Effect::warp},
      {"shfl.sync.idx.b32 r1, r2, 0, 31, 1", ptx::ops::Effect::warp},
      {"wgmma.fence.sync.aligned", ptx::ops::Effect::matrix},
      {"ldu.global.u32 r1, [x]", ptx::ops::Effect::memory},
      {"call f", ptx::ops::Effect::control},
      {"tex.1d.v4.s32.s32 r1, x", ptx::ops::Effect::texture},
      {"nanosleep.u32 5", ptx::ops::Effect::hint},
  };
  for (const auto& [cell, effect] : cells) {
    INFO(cell);
    const std::string opcode = cell.substr(0, cell.find(' '));
    const auto c = cell_opcode(opcode.substr(0, opcode.find('.')));
    REQUIRE(c.has_value());
    CHECK(ptx::ops::effect_of(c->op) == effect);
    const std::string text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto L ;\n " + cell + " ;\n L: ;\n st.relaxed.gpu x, 1 ;\n"
                             "exists (x == 1)\n";
    std::vector<Diagnostic> diags;
    const auto t = parse_litmus(text, "t.litmus", diags);
    INFO((diags.empty() ? std::string() : diags[0].render()));
    REQUIRE(t.has_value());
    Program p;
    CHECK(!build_program(*t, p, diags));
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].where.line == 5);
    CHECK(diags[0].where.column == 2);
    CHECK(diags[0].message == "unsupported instruction '" + opcode + "'");
    CHECK(diags[0].render().rfind("t.litmus:5:2: error: unsupported instruction '" + opcode + "'", 0) == 0);
  }
  // The kinds it runs are accepted in the same place.
  for (const std::string cell : {"add.u32 r1, r1, 1", "fence.sc.gpu", "bar.cta.sync 0", "ld.relaxed.gpu r1, x",
                                 "cold.u32 r1, x", "beq r1, 0, L"}) {
    INFO(cell);
    const std::string text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto L ;\n " + cell + " ;\n L: ;\n st.relaxed.gpu x, 1 ;\n"
                             "exists (x == 1)\n";
    std::vector<Diagnostic> diags;
    const auto t = parse_litmus(text, "t.litmus", diags);
    REQUIRE(t.has_value());
    Program p;
    CHECK(build_program(*t, p, diags));
    CHECK(diags.empty());
  }
}
