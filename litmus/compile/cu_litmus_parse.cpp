// The X3 grammar of `.cu.litmus` files (the only X3 unit of litmus/compile): header, doc, initial values,
// thread headers with raw CUDA bodies, and the final condition kept as text. Errors are located with a caret.
#include "litmus/compile/cu_litmus.hpp"

#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/spirit/home/x3.hpp>

namespace ptxcheck::litmus_compile {
namespace x3 = boost::spirit::x3;
using Iter = std::string::const_iterator;

namespace {
struct InitEntry {
  std::string name;
  std::int64_t value = 0;
};
}  // namespace
}  // namespace ptxcheck::litmus_compile
BOOST_FUSION_ADAPT_STRUCT(ptxcheck::litmus_compile::InitEntry, name, value)

namespace ptxcheck::litmus_compile {
namespace {
auto const idchar = x3::alnum | x3::char_('_');
auto const name = x3::rule<struct name_, std::string>{"name"} = x3::lexeme[+(x3::graph - x3::char_("\"{"))];
auto const doc = x3::rule<struct doc_, std::string>{"doc string"} = x3::lexeme['"' >> *(x3::char_ - '"') >> '"'];
auto const location = x3::rule<struct location_, std::string>{"location"} =
    x3::lexeme[(x3::alpha | x3::char_('_')) >> *idchar];
auto const init_entry = x3::rule<struct init_entry_, InitEntry>{"initial value"} = location >> '=' >> x3::int64 >> ';';
auto const init = x3::rule<struct init_, std::vector<InitEntry>>{"initial values"} = '{' >> *init_entry >> '}';
auto const thread_start = x3::lexeme[x3::lit('P') >> x3::uint_ >> '@'];
auto const cond_start = x3::lexeme[(x3::lit("exists") | "~exists" | "forall") >> !idchar];
auto const placement = x3::rule<struct placement_, std::string>{"thread placement"} =
    x3::lexeme[+(x3::char_ - x3::char_(":\n"))];
auto const body = x3::rule<struct body_, std::string>{"thread body"} =
    x3::lexeme[*(x3::char_ - (x3::eol >> *x3::blank >> (thread_start | cond_start)))];
}  // namespace

CuLitmusParse parse_cu_litmus(const std::string& text, const std::string& file) {
  CuLitmusParse result;
  CuLitmus t;
  const Iter begin = text.cbegin(), end = text.cend();
  Iter it = begin;
  auto fail = [&](Iter at, const std::string& what) {
    result.error = make_diagnostic(text, file, static_cast<std::size_t>(at - begin), "expected " + what + " here");
    return result;
  };
  auto skip = x3::space | x3::lexeme["//" >> *(x3::char_ - x3::eol)];
  if (!x3::phrase_parse(it, end, x3::lexeme[x3::lit("CUDA") >> !idchar] >> name, skip, t.name)) return fail(it, "'CUDA NAME'");
  std::string d;
  while (x3::phrase_parse(it, end, doc, skip, d)) {
    t.doc += (t.doc.empty() ? "" : " ") + d;
    d.clear();
  }
  std::vector<InitEntry> entries;
  if (!x3::phrase_parse(it, end, init, skip, entries)) return fail(it, "'{ x=0; ... }' with initial values");
  for (auto& e : entries) t.init.emplace_back(e.name, e.value);
  LineIndex lines(text);
  for (;;) {
    unsigned index = 0;
    std::string where;
    Iter save = it;
    if (!x3::phrase_parse(it, end, x3::lexeme[x3::lit('P') >> x3::uint_ >> '@'], skip, index)) {
      it = save;
      break;
    }
    if (!x3::phrase_parse(it, end, placement >> ':', skip, where)) return fail(it, "a thread placement and ':'");
    while (it != end && (*it == ' ' || *it == '\t')) ++it;
    if (it != end && *it == '\n') ++it;
    CuThread th;
    th.index = index;
    th.placement = where;
    while (!th.placement.empty() && th.placement.back() == ' ') th.placement.pop_back();
    th.body_line = lines.locate(static_cast<std::size_t>(it - begin), file).line;
    x3::parse(it, end, body, th.body);
    if (th.index != t.threads.size()) return fail(save, "thread P" + std::to_string(t.threads.size()));
    t.threads.push_back(std::move(th));
  }
  if (t.threads.empty()) return fail(it, "a thread 'P0@cta 0,gpu 0:'");
  Iter cond = it;
  if (!x3::phrase_parse(it, end, x3::omit[cond_start], skip)) {
    // The last thread's body ran to the end: the condition is missing, so point at the last non-blank line.
    Iter last = end;
    while (last != begin && std::isspace(static_cast<unsigned char>(*(last - 1)))) --last;
    while (last != begin && *(last - 1) != '\n') --last;
    while (last != end && (*last == ' ' || *last == '\t')) ++last;
    return fail(last, "'exists', '~exists' or 'forall' (the final condition)");
  }
  while (cond != end && std::isspace(static_cast<unsigned char>(*cond))) ++cond;
  t.condition = std::string(cond, end);
  while (!t.condition.empty() && std::isspace(static_cast<unsigned char>(t.condition.back()))) t.condition.pop_back();
  result.test = std::move(t);
  return result;
}

}  // namespace ptxcheck::litmus_compile
