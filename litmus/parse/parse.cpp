// The litmus grammar (Spirit X3; the only translation unit instantiating it). The header line and doc
// strings are read by hand; init block, thread columns, rows and the condition by X3 with semantic actions.
#include "litmus/parse/parse.hpp"
#include "semantics/support/files.hpp"

#include <boost/fusion/include/std_pair.hpp>
#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace ptxcheck::litmus {
namespace x3 = boost::spirit::x3;

namespace {
thread_local Test* g_test = nullptr;
thread_local const char* g_base = nullptr;

namespace g {
using x3::char_;
using x3::int64;
using x3::lexeme;
using x3::lit;
using x3::uint_;

auto const skipper = char_(" \t\r\n") | (lit("(*") >> *(char_ - lit("*)")) >> lit("*)"));

std::string strip_percent(const std::string& s) { return !s.empty() && s[0] == '%' ? s.substr(1) : s; }

// Source offsets: `mark` (an eps, so after the skipper) records where a construct starts; an action's own
// _where range is not its match (X3 hands the action the input after the match).
thread_local std::size_t g_mark = 0;
auto const mark = x3::eps[([](auto& ctx) { g_mark = static_cast<std::size_t>(x3::_where(ctx).begin() - g_base); })];
auto off = [](auto&) { return g_mark; };

struct ident_class;
x3::rule<ident_class, std::string> const ident = "name";
auto const ident_def = lexeme[char_("a-zA-Z_%$") >> *char_("a-zA-Z0-9_%$")];
struct opcode_class;
x3::rule<opcode_class, std::string> const opcode = "opcode";
auto const opcode_def = lexeme[char_("a-zA-Z_") >> *char_("a-zA-Z0-9_.:")];
struct operand_class;
x3::rule<operand_class, std::string> const operand = "operand";
// A register may carry a video selector (`%r2.b0`, `%r1.h10`) or vmad's `-` (ISA 9.7.18); instr_cell splits them off.
// The lookaheads decide each alternative before it appends to the shared string (a failed alternative's `-` or `.`
// would stay in it).
auto const operand_def = lexeme[char_('[') >> +char_("a-zA-Z0-9_%$+") >> char_(']')] |
                         lexeme[&(-lit('-') >> char_("0-9")) >> -char_('-') >> +char_("0-9") >> !char_("a-zA-Z_")] |
                         lexeme[&(-lit('-') >> char_("a-zA-Z_%$")) >> -char_('-') >> char_("a-zA-Z_%$") >> *char_("a-zA-Z0-9_%$")
                                >> -(&(lit('.') >> char_("bh") >> char_("0-9")) >> char_('.') >> char_("bh") >> +char_("0-9"))];

// `-%r3.b0` -> name `%r3`, minus, selector "b0" (integers keep their sign).
void split_video_operand(Instr& in, std::string o) {
  const bool minus = o.size() > 1 && o[0] == '-' && !(o[1] >= '0' && o[1] <= '9');
  if (minus) o.erase(0, 1);
  std::string select;
  if (const auto dot = o.rfind('.'); dot != std::string::npos && o[0] != '[') select = o.substr(dot + 1), o.erase(dot);
  in.operands.push_back(strip_percent(o));
  in.selects.push_back(select);
  in.minus.push_back(minus);
}

// ---- init block
struct reg_ref_class;
x3::rule<reg_ref_class, std::pair<int, std::string>> const reg_ref = "register";
// `P1:r0`, `P1:%r0` (chapter 8's register names) or herd's `1:r0`; the `%` is dropped everywhere.
auto const reg_ref_def = (lexeme[lit('P') >> uint_] | lexeme[uint_ >> &lit(':')]) >> lit(':') >> ident;

auto const reg_init = (reg_ref >> '=' >> int64)[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  auto rr = boost::fusion::at_c<0>(a);
  g_test->reg_init[{rr.first, strip_percent(rr.second)}] = boost::fusion::at_c<1>(a);
})];
auto const alias_decl = (mark >> ident >> '@' >> ident >> lit("aliases") >> ident)[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  g_test->aliases.push_back(Alias{boost::fusion::at_c<0>(a), boost::fusion::at_c<1>(a), boost::fusion::at_c<2>(a), off(ctx)});
})];
auto const mem_init = (ident >> '=' >> int64)[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  auto& n = boost::fusion::at_c<0>(a);
  if (!g_test->mem_init.count(n)) g_test->mem_order.push_back(n);
  g_test->mem_init[n] = boost::fusion::at_c<1>(a);
})];
auto const init_block = lit('{') > -((reg_init | alias_decl | mem_init) % ';') > -lit(';') > lit('}');

// ---- thread columns
struct place_class;
x3::rule<place_class, std::pair<std::string, int>> const place_r = "scope and index (cta 0)";
auto const place_r_def = ident >> x3::int_;
auto const thread_decl = (mark >> lexeme[lit('P') >> uint_] > '@' > (place_r % ','))[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  ThreadDecl d;
  d.id = static_cast<int>(boost::fusion::at_c<0>(a));
  for (auto& [k, v] : boost::fusion::at_c<1>(a)) d.place[k] = v;
  d.offset = off(ctx);
  g_test->threads.push_back(d);
})];
auto const header_row = (thread_decl % '|') > ';';

// ---- rows of cells
thread_local std::vector<Cell> row_cells;
auto const label_cell = (mark >> ident >> ':' >> !lit(':'))[([](auto& ctx) {
  Cell c;
  c.label = x3::_attr(ctx);
  c.offset = off(ctx);
  row_cells.push_back(c);
})];
// Real PTX predication (ISA 9.7: `@p` / `@!p` before the opcode).
struct guard_class;
x3::rule<guard_class, std::string> const guard = "predicate guard";
auto const guard_def = lexeme[char_('@') >> -char_('!') >> char_("a-zA-Z_%$") >> *char_("a-zA-Z0-9_%$")];
auto const instr_cell = (mark >> -guard >> opcode >> -(operand % ','))[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  Cell c;
  c.has_instr = true;
  if (auto& gd = boost::fusion::at_c<0>(a)) {
    std::string g = gd->substr(1);
    if (!g.empty() && g[0] == '!') c.instr.guard_negated = true, g = g.substr(1);
    c.instr.guard = strip_percent(g);
  }
  c.instr.opcode = boost::fusion::at_c<1>(a);
  if (boost::fusion::at_c<2>(a))
    for (auto& o : *boost::fusion::at_c<2>(a)) split_video_operand(c.instr, o);
  c.instr.offset = c.offset = off(ctx);
  row_cells.push_back(c);
})];
auto const empty_cell = x3::eps[([](auto&) { row_cells.push_back(Cell{}); })];
auto const start_row = x3::eps[([](auto&) { row_cells.clear(); })];
auto const cell = label_cell | instr_cell | empty_cell;
auto const row = (start_row >> (cell % '|') >> ';')[([](auto&) { g_test->rows.push_back(row_cells); })];

// ---- condition
struct term_class;
x3::rule<term_class, Term> const term = "register, location or integer";
auto const term_def = (mark >> reg_ref)[([](auto& ctx) {
                        Term t;
                        t.offset = g_mark;
                        t.kind = Term::reg;
                        t.thread = x3::_attr(ctx).first;
                        t.name = strip_percent(x3::_attr(ctx).second);
                        x3::_val(ctx) = t;
                      })] |
                      int64[([](auto& ctx) {
                        Term t;
                        t.kind = Term::imm;
                        t.value = x3::_attr(ctx);
                        x3::_val(ctx) = t;
                      })] |
                      (mark >> ident)[([](auto& ctx) {
                        Term t;
                        t.offset = g_mark;
                        t.kind = Term::loc;
                        t.name = x3::_attr(ctx);
                        x3::_val(ctx) = t;
                      })];

CondPtr mkc(Cond c) { return std::make_shared<Cond>(std::move(c)); }
struct disj_class;
struct conj_class;
struct neg_class;
x3::rule<disj_class, CondPtr> const disj = "condition";
x3::rule<conj_class, CondPtr> const conj = "condition";
x3::rule<neg_class, CondPtr> const neg = "condition";
auto assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
struct atom_class;
x3::rule<atom_class, CondPtr> const atom_r = "comparison";
struct cmp_table : x3::symbols<Cond::Kind> {
  cmp_table() { add("==", Cond::eq)("!=", Cond::ne)("=", Cond::eq); }
} const cmp;
auto const atom_r_def = (term >> cmp > term)[([](auto& ctx) {
  auto& a = x3::_attr(ctx);
  Cond c;
  c.kind = boost::fusion::at_c<1>(a);
  c.lhs = boost::fusion::at_c<0>(a);
  c.rhs = boost::fusion::at_c<2>(a);
  x3::_val(ctx) = mkc(c);
})];
auto const disj_def = conj[assign] >> *(lit("\\/") > conj)[([](auto& ctx) {
  x3::_val(ctx) = mkc(Cond{Cond::or_, x3::_val(ctx), x3::_attr(ctx), {}, {}});
})];
auto const conj_def = neg[assign] >> *(lit("/\\") > neg)[([](auto& ctx) {
  x3::_val(ctx) = mkc(Cond{Cond::and_, x3::_val(ctx), x3::_attr(ctx), {}, {}});
})];
auto const neg_def = (lit('~') > neg)[([](auto& ctx) { x3::_val(ctx) = mkc(Cond{Cond::not_, x3::_attr(ctx), {}, {}, {}}); })] |
                     (lit('(') > disj > lit(')'))[assign] | atom_r[assign];
auto const quantifier = lit("~exists")[([](auto&) { g_test->quantifier = Quantifier::not_exists; })] |
                        lit("exists")[([](auto&) { g_test->quantifier = Quantifier::exists; })] |
                        lit("forall")[([](auto&) { g_test->quantifier = Quantifier::forall; })];
auto const condition = (quantifier > disj)[([](auto& ctx) { g_test->cond = x3::_attr(ctx); })];

// Named, so that a row the grammar cannot read reports what may come there, not a C++ type.
auto const rows_end = x3::rule<class rows_end_class>{"another row of the thread columns or the condition (exists, ~exists, forall)"} =
    condition;
auto const body = init_block > header_row > *row > rows_end > x3::eoi;

BOOST_SPIRIT_DEFINE(ident, opcode, operand, guard, reg_ref, place_r, term, atom_r, disj, conj, neg)
}  // namespace g
}  // namespace

std::optional<Test> parse_litmus(const std::string& text, const std::string& file, std::vector<Diagnostic>& diags) {
  Test t;
  t.file = file;
  t.text = text;
  const char* it = text.data();
  const char* end = it + text.size();
  auto skip_ws = [&] { while (it != end && (*it == ' ' || *it == '\t' || *it == '\r' || *it == '\n')) ++it; };
  skip_ws();
  // Header: `ARCH name` on one line.
  const char* eol = std::find(it, end, '\n');
  std::string head(it, eol);
  while (!head.empty() && (head.back() == '\r' || head.back() == ' ')) head.pop_back();
  auto sp = head.find_first_of(" \t");
  if (sp == std::string::npos) {
    diags.push_back(make_diagnostic(text, file, it - text.data(), "expected `ARCH name` header here"));
    return std::nullopt;
  }
  t.arch = head.substr(0, sp);
  t.name = head.substr(head.find_first_not_of(" \t", sp));
  it = eol;
  // Doc strings. Dat3M reads everything between the header and the init block's `{` as a comment, so a
  // doc string holding quotes (corpus Manual/MICRO24-*) is kept as raw text up to that `{`.
  for (;;) {
    skip_ws();
    if (it == end || *it == '{') break;
    if (*it == '"') {
      const char* q = std::find(it + 1, end, '"');
      if (q == end) {
        diags.push_back(make_diagnostic(text, file, it - text.data(), "unterminated doc string"));
        return std::nullopt;
      }
      t.docs.emplace_back(it + 1, q);
      it = q + 1;
      continue;
    }
    const char* brace = std::find(it, end, '{');
    if (brace == end) break;  // the grammar reports the missing init block here
    t.docs.emplace_back(it, brace);
    it = brace;
  }
  g_test = &t;
  g_base = text.data();
  try {
    if (!x3::phrase_parse(it, end, g::body, g::skipper)) {
      diags.push_back(make_diagnostic(text, file, it - text.data(), "expected an init block `{ ... }` here"));
      return std::nullopt;
    }
  } catch (const x3::expectation_failure<const char*>& e) {
    // (At what the grammar could not read, past the white space before it.)
    it = e.where();
    skip_ws();
    diags.push_back(make_diagnostic(text, file, it - text.data(), expected_here(e.which())));
    return std::nullopt;
  }
  // Shape checks the grammar cannot express: every instruction sits in a declared thread column, thread ids
  // are distinct, and the condition names registers of existing threads only.
  std::set<int> ids;
  for (auto& d : t.threads)
    if (!ids.insert(d.id).second) {
      diags.push_back(make_diagnostic(text, file, d.offset, "thread P" + std::to_string(d.id) + " is declared twice"));
      return std::nullopt;
    }
  for (auto& r : t.rows)
    for (std::size_t c = t.threads.size(); c < r.size(); ++c)
      if (r[c].has_instr || !r[c].label.empty()) {
        diags.push_back(make_diagnostic(text, file, r[c].offset,
                                        "cell in column " + std::to_string(c + 1) + ", but only " +
                                            std::to_string(t.threads.size()) + " threads are declared"));
        return std::nullopt;
      }
  std::function<bool(const CondPtr&)> check = [&](const CondPtr& c) -> bool {
    if (!c) return true;
    for (auto* term : {&c->lhs, &c->rhs})
      if ((c->kind == Cond::eq || c->kind == Cond::ne) && term->kind == Term::reg && !ids.count(term->thread)) {
        diags.push_back(make_diagnostic(text, file, term->offset,
                                        "the condition names thread P" + std::to_string(term->thread) + ", which the test does not declare"));
        return false;
      }
    return check(c->a) && check(c->b);
  };
  if (!check(t.cond)) return std::nullopt;
  return t;
}

std::optional<Test> load_litmus(const std::string& path, std::vector<Diagnostic>& diags) {
  auto text = read_text_file(path);
  if (!text) {
    diags.push_back(Diagnostic{{path, 0, 0}, "cannot read file", "", "error"});
    return std::nullopt;
  }
  return parse_litmus(*text, path, diags);
}

}  // namespace ptxcheck::litmus
