// The cat grammar (Spirit X3; the only translation unit that instantiates it) and the model loader:
// include expansion and the name check (unknown names are errors with file:line:col).
#include "memmodel/cat/parse.hpp"
#include "semantics/support/files.hpp"

#include <boost/spirit/home/x3.hpp>

#include <fstream>
#include <sstream>

namespace ptxcheck::cat {
namespace x3 = boost::spirit::x3;

namespace {
thread_local const char* g_base = nullptr;  // start of the text being parsed (for node offsets)

ExprPtr mk(std::size_t off, decltype(Expr::node) n) {
  auto e = std::make_shared<Expr>();
  e->node = std::move(n);
  e->offset = off;
  return e;
}

namespace g {
using x3::char_;
using x3::lexeme;
using x3::lit;

// Whitespace and both comment styles.
auto const skipper = (char_(" \t\r\n")) | (lit("(*") >> *(char_ - lit("*)")) >> lit("*)")) |
                     (lit("//") >> *(char_ - char_('\n')));

// Statement keywords end an expression: herd reads `let a = b*` followed by `let c = ...` as a postfix star,
// never as the cartesian product `b * let` (the bug this guards against).
auto const keyword = lexeme[(lit("let") | lit("rec") | lit("and") | lit("acyclic") | lit("irreflexive") |
                             lit("empty") | lit("as") | lit("include") | lit("show") | lit("flag")) >>
                            !char_("a-zA-Z0-9_-")];

struct ident_class;
x3::rule<ident_class, std::string> const ident = "name";
auto const ident_def = lexeme[(char_("a-zA-Z_") >> *(char_("a-zA-Z0-9_-")))];
struct name_class;
x3::rule<name_class, std::string> const name = "name";
auto const name_def = !keyword >> ident;

struct expr_class;
struct union_class;
struct seq_class;
struct diff_class;
struct inter_class;
struct cart_class;
struct prefix_class;
struct postfix_class;
struct primary_class;
x3::rule<expr_class, ExprPtr> const expr = "expression";
x3::rule<seq_class, ExprPtr> const seq = "expression";
x3::rule<diff_class, ExprPtr> const diff = "expression";
x3::rule<inter_class, ExprPtr> const inter = "expression";
x3::rule<cart_class, ExprPtr> const cart = "expression";
x3::rule<prefix_class, ExprPtr> const prefix = "expression";
x3::rule<postfix_class, ExprPtr> const postfix = "expression";
x3::rule<primary_class, ExprPtr> const primary = "expression";

auto off = [](auto& ctx) { return static_cast<std::size_t>(&*x3::_where(ctx).begin() - g_base); };
auto assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
auto bin = [](BinOp op) {
  return [op](auto& ctx) { x3::_val(ctx) = mk(x3::_val(ctx)->offset, Binary{op, x3::_val(ctx), x3::_attr(ctx)}); };
};
auto post = [](UnOp op) { return [op](auto& ctx) { x3::_val(ctx) = mk(x3::_val(ctx)->offset, Unary{op, x3::_val(ctx)}); }; };

auto const expr_def = seq[assign] >> *(lit('|') > seq)[bin(BinOp::union_)];
auto const seq_def = diff[assign] >> *(lit(';') > diff)[bin(BinOp::seq)];
auto const diff_def = inter[assign] >> *(lit('\\') > inter)[bin(BinOp::diff)];
auto const inter_def = cart[assign] >> *(lit('&') > cart)[bin(BinOp::inter)];
// `*` is a cartesian product only when an operand follows (`name` rejects keywords); otherwise postfix.
auto const star_ends = lit(')') | lit('|') | lit(';') | lit('&') | lit(']') | lit('\\') | keyword | x3::eoi;
auto const cart_def = prefix[assign] >> *(lit('*') >> !star_ends >> prefix)[bin(BinOp::cartesian)];
auto const prefix_def = (lit('~') > prefix)[([](auto& ctx) {
                          x3::_val(ctx) = mk(off(ctx), Unary{UnOp::complement, x3::_attr(ctx)});
                        })] |
                        postfix[assign];
auto const postfix_def = primary[assign] >> *(lit("^-1")[post(UnOp::inverse)] | lit("^+")[post(UnOp::plus)] |
                                              lit("^*")[post(UnOp::star)] | lit('+')[post(UnOp::plus)] |
                                              (lit('*') >> &star_ends)[post(UnOp::star)] |
                                              lit('?')[post(UnOp::opt)]);
auto const primary_def =
    (lit('(') > expr > lit(')'))[assign] |
    (lit('[') > expr > lit(']'))[([](auto& ctx) { x3::_val(ctx) = mk(off(ctx), Unary{UnOp::bracket, x3::_attr(ctx)}); })] |
    (lexeme[lit('_') >> !char_("a-zA-Z0-9_-")])[([](auto& ctx) { x3::_val(ctx) = mk(off(ctx), Universe{}); })] |
    (lexeme[lit('0') >> !char_("a-zA-Z0-9_")])[([](auto& ctx) { x3::_val(ctx) = mk(off(ctx), EmptyRel{}); })] |
    name[([](auto& ctx) { x3::_val(ctx) = mk(off(ctx), Name{x3::_attr(ctx)}); })];

BOOST_SPIRIT_DEFINE(expr, seq, diff, inter, cart, prefix, postfix, primary, ident, name)
}  // namespace g

bool is_keyword(const std::string& w) {
  return w == "let" || w == "rec" || w == "and" || w == "acyclic" || w == "irreflexive" || w == "empty" || w == "as" ||
         w == "include" || w == "show" || w == "flag";
}

// A tiny hand-written statement layer over the X3 expression grammar: statements are keyword-led.
struct StatementParser {
  const std::string& text;
  const std::string& file;
  std::vector<Diagnostic>& diags;
  const char* it;
  const char* end;
  int anon = 0;

  void skip() {
    while (it != end) {
      auto save = it;
      x3::parse(it, end, *g::skipper);
      if (it == save) break;
    }
  }
  std::size_t pos() const { return static_cast<std::size_t>(it - text.data()); }
  bool fail(const std::string& what) {
    diags.push_back(make_diagnostic(text, file, pos(), "expected " + what + " here"));
    return false;
  }
  bool word(std::string& w) {
    skip();
    auto save = it;
    if (!x3::parse(it, end, g::ident, w)) { it = save; return false; }
    return true;
  }
  bool peek_word(const std::string& kw) {
    auto save = it;
    std::string w;
    bool ok = word(w) && w == kw;
    it = save;
    return ok;
  }
  bool lit(char c) {
    skip();
    if (it != end && *it == c) { ++it; return true; }
    return false;
  }
  bool expr(ExprPtr& e) {
    skip();
    try {
      if (!x3::phrase_parse(it, end, g::expr, g::skipper, e)) return fail("an expression");
    } catch (const x3::expectation_failure<const char*>& ex) {
      it = ex.where();
      return fail(ex.which());
    }
    return true;
  }
  bool quoted(std::string& s) {
    skip();
    if (it == end || *it != '"') return fail("a quoted file name");
    auto q = ++it;
    while (it != end && *it != '"') ++it;
    if (it == end) return fail("a closing quote");
    s.assign(q, it);
    ++it;
    return true;
  }

  bool run(Model& m) {
    skip();
    // Title: the first line up to the end of line (herd: the architecture name, possibly quoted).
    auto eol = std::find(it, end, '\n');
    m.title.assign(it, eol);
    if (!m.title.empty() && m.title.back() == '\r') m.title.pop_back();
    it = eol;
    for (;;) {
      skip();
      if (it == end) return true;
      std::size_t at = pos();
      std::string w;
      if (!word(w)) return fail("a statement (let, acyclic, irreflexive, empty, include)");
      if (w == "let") {
        Let let;
        if (peek_word("rec")) { word(w); let.rec = true; }
        do {
          Binding b;
          skip();
          b.offset = pos();
          if (!word(b.name) || is_keyword(b.name)) return fail("a name");
          if (!lit('=')) return fail("'='");
          if (!expr(b.body)) return false;
          let.bindings.push_back(std::move(b));
        } while (peek_word("and") && word(w));
        m.statements.push_back(std::move(let));
      } else if (w == "acyclic" || w == "irreflexive" || w == "empty") {
        Axiom a;
        a.offset = at;
        a.kind = w == "acyclic" ? AxiomKind::acyclic : w == "irreflexive" ? AxiomKind::irreflexive : AxiomKind::empty;
        if (!expr(a.body)) return false;
        if (peek_word("as")) {
          word(w);
          if (!word(a.name)) return fail("an axiom name");
        } else {
          a.name = w + "-" + std::to_string(++anon);
        }
        m.statements.push_back(std::move(a));
      } else if (w == "include") {
        Include inc;
        inc.offset = at;
        if (!quoted(inc.file)) return false;
        m.statements.push_back(std::move(inc));
      } else {
        it = text.data() + at;
        return fail("a statement (let, acyclic, irreflexive, empty, include)");
      }
    }
  }
};

void collect_names(const ExprPtr& e, std::vector<std::pair<std::string, std::size_t>>& out) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Name>) out.emplace_back(n.id, e->offset);
        else if constexpr (std::is_same_v<T, Unary>) collect_names(n.a, out);
        else if constexpr (std::is_same_v<T, Binary>) { collect_names(n.a, out); collect_names(n.b, out); }
      },
      e->node);
}

bool load_into(const std::string& path, Model& out, const std::set<std::string>& base, std::set<std::string>& defined,
               std::vector<Diagnostic>& diags, int depth, bool top) {
  auto file_text = read_text_file(path);
  if (!file_text) {
    diags.push_back(Diagnostic{{path, 0, 0}, "cannot read model file", "", "error"});
    return false;
  }
  const std::string& text = *file_text;
  auto m = parse_model(text, path, diags);
  if (!m) return false;
  if (top) { out.title = m->title; out.file = path; out.text = text; }
  for (auto& s : m->statements) {
    if (auto* inc = std::get_if<Include>(&s)) {
      if (depth > 8) { diags.push_back(make_diagnostic(text, path, inc->offset, "include nesting too deep")); return false; }
      std::string dir = path.substr(0, path.find_last_of('/') + 1);
      if (!load_into(dir + inc->file, out, base, defined, diags, depth + 1, false)) return false;
      continue;
    }
    std::vector<std::pair<std::string, std::size_t>> names;
    std::set<std::string> local;
    if (auto* let = std::get_if<Let>(&s)) {
      for (auto& b : let->bindings) collect_names(b.body, names);
      if (let->rec) for (auto& b : let->bindings) local.insert(b.name);
    } else if (auto* ax = std::get_if<Axiom>(&s)) {
      collect_names(ax->body, names);
    }
    for (auto& [n, at] : names)
      if (!base.count(n) && !defined.count(n) && !local.count(n)) {
        diags.push_back(make_diagnostic(text, path, at, "unknown name '" + n + "'"));
        return false;
      }
    if (auto* let = std::get_if<Let>(&s))
      for (auto& b : let->bindings) defined.insert(b.name);
    // Offsets refer to the file's own text; included statements keep offsets into their own file (only the
    // top file's text is kept, so diagnostics after loading are reported against names, not offsets).
    out.statements.push_back(std::move(s));
  }
  return true;
}
}  // namespace

std::optional<Model> parse_model(const std::string& text, const std::string& file, std::vector<Diagnostic>& diags) {
  Model m;
  m.file = file;
  m.text = text;
  g_base = text.data();
  StatementParser p{text, file, diags, text.data(), text.data() + text.size()};
  if (!p.run(m)) return std::nullopt;
  return m;
}

std::optional<Model> load_model(const std::string& path, const std::set<std::string>& base,
                                std::vector<Diagnostic>& diags) {
  Model m;
  std::set<std::string> defined;
  if (!load_into(path, m, base, defined, diags, 0, true)) return std::nullopt;
  return m;
}

}  // namespace ptxcheck::cat
