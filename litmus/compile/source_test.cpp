// C++ operations of a .cu.litmus thread (the statement forms the suite uses) and their encoding as a
// litmus test for scoped-c11.cat. The encoding is one definition, shared with proofs/ (mapping soundness).
#include "litmus/compile/source_test.hpp"

#include "checker/abi/table.hpp"

#include <fmt/format.h>

#include <regex>
#include <sstream>

namespace ptxcheck::litmus_compile {
namespace {
using abi::OpKind;
using abi::Order;
using abi::ThreadScope;

std::optional<Order> order_of(const std::string& w) {
  if (w == "rlx") return Order::relaxed;
  if (w == "acq") return Order::acquire;
  if (w == "rel") return Order::release;
  if (w == "ar") return Order::acq_rel;
  if (w == "sc") return Order::seq_cst;
  return std::nullopt;
}
std::optional<ThreadScope> scope_of(const std::string& w) {
  if (w == "blk") return ThreadScope::block;
  if (w == "dev") return ThreadScope::device;
  if (w == "sys") return ThreadScope::system;
  return std::nullopt;  // thr: thread scope is not modelled by the source model (see the header)
}

const char* scope_word(ThreadScope s) {
  static const char* names[] = {"cta", "cluster", "gpu", "sys"};
  return names[static_cast<int>(abi::ptx_scope(s))];
}
}  // namespace

std::optional<CxxProgram> cxx_program(const CuLitmus& test, const std::string& file, Diagnostic& error) {
  CxxProgram prog;
  prog.name = test.name;
  prog.init = test.init;
  prog.condition = test.condition;
  static const std::regex place_re(R"(cta\s+(\d+)\s*,\s*gpu\s+(\d+))");
  static const std::regex load_re(R"(^(r\d+)\s*=\s*at<(\w+)>\((\w+)\)\.load\((\w+)\)$)");
  static const std::regex store_re(R"(^at<(\w+)>\((\w+)\)\.store\((-?\d+)\s*,\s*(\w+)\)$)");
  static const std::regex rmw_re(R"(^(?:(r\d+)\s*=\s*)?at<(\w+)>\((\w+)\)\.(fetch_add|exchange)\((-?\d+)\s*,\s*(\w+)\)$)");
  static const std::regex fence_re(R"(^fence\((\w+)\s*,\s*(\w+)\)$)");
  static const std::regex pload_re(R"(^(r\d+)\s*=\s*\*(\w+)$)");
  static const std::regex pstore_re(R"(^\*(\w+)\s*=\s*(-?\d+)$)");
  for (const auto& th : test.threads) {
    CxxThread t;
    t.index = th.index;
    std::smatch pm;
    if (!std::regex_search(th.placement, pm, place_re)) {
      error = Diagnostic{{file, th.body_line, 0}, "P" + std::to_string(th.index) + ": placement '" + th.placement +
                                                       "' is not `cta N,gpu M`", "", "error"};
      return std::nullopt;
    }
    t.cta = std::stoi(pm[1]);
    t.gpu = std::stoi(pm[2]);
    std::istringstream body(th.body);
    std::uint32_t line = th.body_line;
    for (std::string text; std::getline(body, text); ++line) {
      std::istringstream stmts(text);
      for (std::string s; std::getline(stmts, s, ';');) {
        s = std::regex_replace(s, std::regex(R"(^\s+|\s+$)"), "");
        if (s.empty() || s.rfind("//", 0) == 0) continue;
        auto bad = [&](const std::string& why) {
          error = Diagnostic{{file, line, 0}, "P" + std::to_string(th.index) + ": " + why + " in '" + s + "'", text, "error"};
          return std::nullopt;
        };
        CxxOp op;
        std::smatch m;
        std::string ord, scp;
        if (std::regex_match(s, m, load_re)) {
          op.kind = OpKind::Load, op.reg = m[1], scp = m[2], op.loc = m[3], ord = m[4];
        } else if (std::regex_match(s, m, store_re)) {
          op.kind = OpKind::Store, scp = m[1], op.loc = m[2], op.value = std::stoll(m[3]), ord = m[4];
        } else if (std::regex_match(s, m, rmw_re)) {
          op.kind = OpKind::Rmw, op.reg = m[1], scp = m[2], op.loc = m[3];
          op.rmw = m[4] == "fetch_add" ? abi::RmwOp::add : abi::RmwOp::exch;
          op.value = std::stoll(m[5]), ord = m[6];
        } else if (std::regex_match(s, m, fence_re)) {
          op.kind = OpKind::Fence, ord = m[1], scp = m[2];
        } else if (std::regex_match(s, m, pload_re)) {
          op.kind = OpKind::Load, op.plain = true, op.reg = m[1], op.loc = m[2];
        } else if (std::regex_match(s, m, pstore_re)) {
          op.kind = OpKind::Store, op.plain = true, op.loc = m[1], op.value = std::stoll(m[2]);
        } else {
          return bad("statement not understood by the source model (see litmus/compile/source_test.hpp)");
        }
        if (!op.plain) {
          auto o = order_of(ord);
          auto sc = scope_of(scp);
          if (!o) return bad("unknown memory order '" + ord + "'");
          if (!sc) return bad("scope '" + scp + "' not modelled (blk, dev or sys)");
          op.order = *o, op.scope = *sc;
          if (!abi::table_row(op.kind, op.order)) return bad("memory order not allowed for this operation");
        }
        t.ops.push_back(std::move(op));
      }
    }
    prog.threads.push_back(std::move(t));
  }
  return prog;
}

std::string render_litmus(const std::string& name, const std::string& doc,
                          const std::vector<std::pair<std::string, std::int64_t>>& init,
                          const std::vector<LitmusColumn>& columns, const std::string& condition) {
  std::string out = fmt::format("PTX {}\n\"{}\"\n{{\n", name, doc);
  for (const auto& [loc, v] : init) out += fmt::format("{}={};\n", loc, v);
  out += "}\n";
  std::size_t rows = 0;
  for (const auto& c : columns) rows = std::max(rows, c.instructions.size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (std::size_t i = 0; i < cells.size(); ++i) l += (i ? " | " : " ") + cells[i];
    return l + " ;\n";
  };
  std::vector<std::string> header;
  for (const auto& c : columns) header.push_back(fmt::format("P{}@cta {},gpu {}", c.index, c.cta, c.gpu));
  out += line(header);
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<std::string> cells;
    for (const auto& c : columns) cells.push_back(r < c.instructions.size() ? c.instructions[r] : "");
    out += line(cells);
  }
  return out + condition + "\n";
}

std::string c11_litmus(const CxxProgram& program) {
  std::vector<LitmusColumn> cols;
  int temps = 0;
  for (const auto& th : program.threads) {
    LitmusColumn lc{th.index, th.cta, th.gpu, {}};
    auto& col = lc.instructions;
    for (const auto& op : th.ops) {
      const char* s = scope_word(op.scope);
      const bool sc = op.order == Order::seq_cst;
      switch (op.kind) {
        case OpKind::Load:
          if (op.plain) col.push_back(fmt::format("ld.weak {}, {}", op.reg, op.loc));
          else {
            if (sc) col.push_back("fence.proxy.alias");
            col.push_back(fmt::format("ld.{}.{} {}, {}", op.order == Order::relaxed ? "relaxed" : "acquire", s, op.reg, op.loc));
          }
          break;
        case OpKind::Store:
          if (op.plain) col.push_back(fmt::format("st.weak {}, {}", op.loc, op.value));
          else {
            if (sc) col.push_back("fence.proxy.alias");
            col.push_back(fmt::format("st.{}.{} {}, {}", op.order == Order::relaxed ? "relaxed" : "release", s, op.loc, op.value));
          }
          break;
        case OpKind::Rmw: {
          if (sc) col.push_back("fence.proxy.alias");
          const char* sem = op.order == Order::relaxed ? "relaxed"
                            : op.order == Order::acquire || op.order == Order::consume ? "acquire"
                            : op.order == Order::release ? "release"
                                                         : "acq_rel";
          std::string reg = op.reg.empty() ? fmt::format("t{}", temps++) : op.reg;
          col.push_back(fmt::format("atom.{}.{}.{} {}, {}, {}", sem, s, op.rmw == abi::RmwOp::exch ? "exch" : "add", reg, op.loc, op.value));
          break;
        }
        case OpKind::Fence:
          switch (op.order) {
            case Order::relaxed: break;  // C++ [atomics.fences]: no effect
            case Order::consume:
            case Order::acquire: col.push_back("fence.proxy.texture"), col.push_back(fmt::format("fence.acq_rel.{}", s)); break;
            case Order::release: col.push_back("fence.proxy.surface"), col.push_back(fmt::format("fence.acq_rel.{}", s)); break;
            case Order::acq_rel: col.push_back(fmt::format("fence.acq_rel.{}", s)); break;
            case Order::seq_cst: col.push_back(fmt::format("fence.sc.{}", s)); break;
          }
          break;
      }
    }
    cols.push_back(std::move(lc));
  }
  return render_litmus(program.name, "source-level test of " + program.name + " for scoped-c11.cat (litmus/compile/source_test.hpp)",
                       program.init, cols, program.condition);
}

}  // namespace ptxcheck::litmus_compile
