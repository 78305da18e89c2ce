// See assume.hpp. The grammar is Spirit X3 with semantic actions building the tree, one rule per C precedence level.
#include "checker/race/assume.hpp"

#include "checker/race/encode.hpp"
#include "semantics/support/names.hpp"

#include <boost/fusion/include/at_c.hpp>
#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace ptxcheck::race {
namespace x3 = boost::spirit::x3;

namespace {
using Ptr = std::shared_ptr<const AssumeExpr>;

Ptr leaf(AssumeExpr::Kind k, std::uint64_t v) {
  auto e = std::make_shared<AssumeExpr>();
  e->kind = k;
  e->value = v;
  return e;
}
Ptr node(AssumeExpr::Kind k, std::string op, std::vector<Ptr> operands) {
  auto e = std::make_shared<AssumeExpr>();
  e->kind = k;
  e->op = std::move(op);
  e->operands = std::move(operands);
  return e;
}

namespace g {
using x3::lexeme;
using x3::lit;

auto assign = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
// Left-associative binary levels: the operator and the right operand extend the tree built so far.
auto combine = [](auto& ctx) {
  auto& a = x3::_attr(ctx);
  x3::_val(ctx) = node(AssumeExpr::Kind::binary, boost::fusion::at_c<0>(a), {x3::_val(ctx), boost::fusion::at_c<1>(a)});
};
// The operators of a precedence level, each one's attribute its spelling (the longest that matches).
struct Ops : x3::symbols<std::string> {
  Ops(std::initializer_list<const char*> spellings) {
    for (const char* o : spellings) add(o, o);
  }
};
const Ops unary_ops{"-", "!", "~"}, mul_ops{"*", "/", "%"}, add_ops{"+", "-"}, shift_ops{"<<", ">>"}, rel_ops{"<=", ">=", "<", ">"},
    eq_ops{"==", "!="}, band_ops{"&"}, bxor_ops{"^"}, bor_ops{"|"}, land_ops{"&&"}, lor_ops{"||"};

struct Dims : x3::symbols<std::uint64_t> {
  Dims() { add("x", 0)("y", 1)("z", 2); }
} const dims;
struct dim_class;
x3::rule<dim_class, std::uint64_t> const dim = "x, y or z";
auto const dim_def = dims;

struct expr_class;
struct lor_class;
struct land_class;
struct bor_class;
struct bxor_class;
struct band_class;
struct eq_class;
struct rel_class;
struct shift_class;
struct add_class;
struct mul_class;
struct unary_class;
struct primary_class;
x3::rule<lor_class, Ptr> const lor = "expression";
x3::rule<land_class, Ptr> const land = "expression";
x3::rule<bor_class, Ptr> const bor = "expression";
x3::rule<bxor_class, Ptr> const bxor = "expression";
x3::rule<band_class, Ptr> const band = "expression";
x3::rule<eq_class, Ptr> const eq = "expression";
x3::rule<rel_class, Ptr> const rel = "expression";
x3::rule<shift_class, Ptr> const shift = "expression";
x3::rule<add_class, Ptr> const add = "expression";
x3::rule<mul_class, Ptr> const mul = "expression";
x3::rule<unary_class, Ptr> const unary = "operand";
x3::rule<primary_class, Ptr> const primary =
    "a number, argN, argN[index], a variable, blockDim.x|y|z, gridDim.x|y|z or a parenthesised expression";

struct index_class;
x3::rule<index_class, Ptr> const index = "an index or *";
auto const index_def = lit('*')[([](auto& ctx) { x3::_val(ctx) = leaf(AssumeExpr::Kind::each_index, 0); })] | lor[assign];
struct identifier_class;
x3::rule<identifier_class, std::string> const identifier = "a name";
// (Not followed by '.': `threadIdx.x` is no variable, and the error then names what may stand there.)
auto const identifier_def = lexeme[x3::char_("a-zA-Z_$") >> *x3::char_("a-zA-Z0-9_$") >> !lit('.')];
struct number_class;
x3::rule<number_class, std::uint64_t> const number = "number";
auto const number_def = lexeme[(lit("0x") >> x3::uint_parser<std::uint64_t, 16>{} | x3::uint_parser<std::uint64_t, 10>{}) >>
                                !x3::char_("a-zA-Z0-9_")];
auto const primary_def =
    number[([](auto& ctx) { x3::_val(ctx) = leaf(AssumeExpr::Kind::number, x3::_attr(ctx)); })] |
    (lexeme[lit("arg") >> x3::uint_parser<std::uint64_t, 10>{} >> !x3::char_("a-zA-Z0-9_")] >> -(lit('[') > index > lit(']')))
        [([](auto& ctx) {
          auto& a = x3::_attr(ctx);
          const std::uint64_t k = boost::fusion::at_c<0>(a);
          const auto& index = boost::fusion::at_c<1>(a);
          if (!index) {
            x3::_val(ctx) = leaf(AssumeExpr::Kind::argument, k);
            return;
          }
          auto e = std::make_shared<AssumeExpr>();
          e->kind = AssumeExpr::Kind::element;
          e->value = k;
          e->operands = {*index};
          x3::_val(ctx) = e;
        })] |
    lexeme[lit("blockDim.") > dim][([](auto& ctx) { x3::_val(ctx) = leaf(AssumeExpr::Kind::block_dim, x3::_attr(ctx)); })] |
    lexeme[lit("gridDim.") > dim][([](auto& ctx) { x3::_val(ctx) = leaf(AssumeExpr::Kind::grid_dim, x3::_attr(ctx)); })] |
    (identifier >> -(lit('[') > index > lit(']')))[([](auto& ctx) {
      auto& a = x3::_attr(ctx);
      auto e = std::make_shared<AssumeExpr>();
      e->kind = AssumeExpr::Kind::variable;
      e->name = boost::fusion::at_c<0>(a);
      if (const auto& index = boost::fusion::at_c<1>(a)) e->operands = {*index};
      x3::_val(ctx) = e;
    })] |
    (lit('(') > lor > lit(')'))[assign];
auto const unary_def = (unary_ops > unary)[([](auto& ctx) {
                         auto& a = x3::_attr(ctx);
                         x3::_val(ctx) = node(AssumeExpr::Kind::unary, boost::fusion::at_c<0>(a), {boost::fusion::at_c<1>(a)});
                       })] |
                       primary[assign];
auto const mul_def = unary[assign] >> *(mul_ops > unary)[combine];
auto const add_def = mul[assign] >> *(add_ops > mul)[combine];
auto const shift_def = add[assign] >> *(shift_ops > add)[combine];
auto const rel_def = shift[assign] >> *(rel_ops > shift)[combine];
auto const eq_def = rel[assign] >> *(eq_ops > rel)[combine];
auto const band_def = eq[assign] >> *((band_ops >> !lit('&')) > eq)[combine];  // (not the `&&` of land)
auto const bxor_def = band[assign] >> *(bxor_ops > band)[combine];
auto const bor_def = bxor[assign] >> *((bor_ops >> !lit('|')) > bxor)[combine];
auto const land_def = bor[assign] >> *(land_ops > bor)[combine];
auto const lor_def = land[assign] >> *(lor_ops > land)[combine];

BOOST_SPIRIT_DEFINE(lor, land, bor, bxor, band, eq, rel, shift, add, mul, unary, primary, index, identifier, number, dim)
}  // namespace g

// C++ parameter types (demangled) that are signed integers; other integer types are unsigned.
bool signed_cxx_integer(const std::string& t) {
  static const std::set<std::string> names{"int", "long", "long long", "short", "signed char", "char", "int const", "long const",
                                           "long long const", "short const", "signed char const", "char const"};
  return names.count(t) > 0;
}
bool unsigned_cxx_integer(const std::string& t) {
  static const std::set<std::string> names{"unsigned int", "unsigned long", "unsigned long long", "unsigned short", "unsigned char", "bool",
                                           "unsigned int const", "unsigned long const", "unsigned long long const", "unsigned short const",
                                           "unsigned char const", "bool const"};
  return names.count(t) > 0;
}
}  // namespace

std::optional<bool> integer_argument(const ptx::ir::Function& kernel, std::uint64_t k, std::string& error) {
  if (k == 0 || k > kernel.params.size()) {
    error = "arg" + std::to_string(k) + ": the kernel " + ptx::ir::kernel_cxx_name(kernel.name) + " has " + std::to_string(kernel.params.size()) +
            " argument(s)" + (kernel.params.empty() ? "" : ", arg1 to arg" + std::to_string(kernel.params.size()));
    return std::nullopt;
  }
  const auto& p = kernel.params[k - 1];
  bool is_signed = ptx::ir::is_signed_int(p.type.scalar);
  bool integer = ptx::ir::is_integer(p.type.scalar) && p.count == 1 && p.type.vector == 1 && p.size_bytes() <= 8;
  std::string type_name = ptx::ir::type_name(p.type);
  const std::vector<std::string> cxx_types = ptx::ir::kernel_cxx_parameter_types(kernel.name);
  if (cxx_types.size() == kernel.params.size()) {  // the C++ type decides the sign (nvcc passes an int as .u32)
    type_name = cxx_types[k - 1];
    is_signed = signed_cxx_integer(type_name);
    integer = integer && (is_signed || unsigned_cxx_integer(type_name));
  }
  if (!integer) {
    error = "arg" + std::to_string(k) + " is " + type_name + ", not an integer";
    return std::nullopt;
  }
  return is_signed;
}

std::optional<ElementType> integer_element(const ptx::ir::Function& kernel, std::uint64_t k, std::string& error) {
  if (k == 0 || k > kernel.params.size()) {
    integer_argument(kernel, k, error);  // (its message for a missing argument)
    return std::nullopt;
  }
  const auto& p = kernel.params[k - 1];
  const std::vector<std::string> cxx_types = ptx::ir::kernel_cxx_parameter_types(kernel.name);
  if (cxx_types.size() != kernel.params.size()) {
    error = "arg" + std::to_string(k) + "[...]: the element type of " + ptx::ir::type_name(p.type) +
            " parameter " + p.name + " is unknown (a CUDA kernel's mangled name tells it)";
    return std::nullopt;
  }
  const std::string t = ptxcheck::names::pointee_type(cxx_types[k - 1]);
  if (t.empty() || p.size_bytes() != 8) {
    error = "arg" + std::to_string(k) + " is " + cxx_types[k - 1] + ", not a pointer";
    return std::nullopt;
  }
  const unsigned bytes = ptxcheck::names::cxx_type_bytes(t);
  if (bytes == 0 || !(signed_cxx_integer(t) || unsigned_cxx_integer(t))) {
    error = "arg" + std::to_string(k) + "[...]: the elements of " + cxx_types[k - 1] + " are not integers";
    return std::nullopt;
  }
  return ElementType{bytes, signed_cxx_integer(t)};
}

std::optional<ElementType> integer_variable(const ptx::ir::Module* module, const std::string& name, std::string& error) {
  const ptx::ir::Variable* v = module ? module->find_global(name) : nullptr;
  if (!v || v->space != ptx::ir::StateSpace::global) {
    error = name + ": no argument or .global variable of the module has this name";
    return std::nullopt;
  }
  if (!ptx::ir::is_integer(v->type.scalar) || v->type.vector != 1) {
    error = name + " is a " + ptx::ir::type_name(v->type) + " variable, not an integer";
    return std::nullopt;
  }
  return ElementType{v->type.size_bytes(), ptx::ir::is_signed_int(v->type.scalar)};
}

z3::expr initial_memory(z3::context& c, const std::string& param, unsigned bytes, const z3::expr& offset) {
  const z3::func_decl content = c.function(("init." + param + "." + std::to_string(bytes)).c_str(), c.bv_sort(64), c.bv_sort(8 * bytes));
  return content(offset);
}

std::string assumption_error(const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module) {
  std::string error;
  std::function<bool(const AssumeExpr&)> valid = [&](const AssumeExpr& e) {
    if (e.kind == AssumeExpr::Kind::argument && !integer_argument(kernel, e.value, error)) return false;
    if (e.kind == AssumeExpr::Kind::element && !integer_element(kernel, e.value, error)) return false;
    if (e.kind == AssumeExpr::Kind::variable && !integer_variable(module, e.name, error)) return false;
    return std::all_of(e.operands.begin(), e.operands.end(), [&](const auto& x) { return valid(*x); });
  };
  return valid(*a.expr) ? "" : "--assume '" + a.text + "': " + error;
}

std::optional<Assumption> parse_assumption(const std::string& text, std::string& error) {
  Ptr result;
  auto it = text.begin();
  try {
    if (x3::phrase_parse(it, text.end(), g::lor > x3::eoi, x3::space, result)) {
      std::function<bool(const AssumeExpr&)> each = [&](const AssumeExpr& e) {
        return e.kind == AssumeExpr::Kind::each_index || std::any_of(e.operands.begin(), e.operands.end(), [&](const auto& x) { return each(*x); });
      };
      return Assumption{text, result, each(*result)};
    }
    error = "column " + std::to_string(it - text.begin() + 1) + ": expected an expression";
  } catch (const x3::expectation_failure<std::string::const_iterator>& e) {
    auto at = e.where();  // (before the blanks the skipper would pass)
    while (at != text.end() && std::isspace(static_cast<unsigned char>(*at))) ++at;
    error = "column " + std::to_string(at - text.begin() + 1) + (at == text.end() ? " (the end)" : "") + ": expected " +
            (e.which() == "eoi" ? std::string("an operator or the end") : e.which());
  }
  return std::nullopt;
}

std::optional<AssumptionValue> assumption_value(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module,
                                                const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                                const std::vector<z3::expr>& reads, std::string& error,
                                                const std::optional<z3::expr>& index) {
  const z3::expr zero = c.bv_val(0, 64), one = c.bv_val(1, 64);
  auto truth = [&](const z3::expr& b) { return z3::ite(b, one, zero); };
  z3::expr ties = c.bool_val(true);  // the encoding's reads of the arguments used are their bytes
  // Argument k (1-based) as a 64-bit value: one symbol of the argument's width, which every symbol the encoding read
  // from its bytes equals (a kernel may read an argument at several widths or offsets).
  auto argument = [&](std::uint64_t k) -> std::optional<z3::expr> {
    const auto kind = integer_argument(kernel, k, error);
    if (!kind) return std::nullopt;
    const auto& p = kernel.params[k - 1];
    const bool is_signed = *kind;
    const unsigned bits = static_cast<unsigned>(8 * p.size_bytes());
    const z3::expr v = c.bv_const(("assume." + p.name).c_str(), bits);
    for (const z3::expr& r : reads) {
      auto named = parse_argument_symbol(r.decl().name().str());
      const unsigned w = r.get_sort().bv_size();
      if (named && named->first == p.name && 8 * named->second + w <= bits)
        ties = ties && r == v.extract(8 * named->second + w - 1, 8 * named->second);
    }
    return bits == 64 ? v : is_signed ? z3::sext(v, 64 - bits) : z3::zext(v, 64 - bits);
  };
  std::function<std::optional<z3::expr>(const AssumeExpr&)> value = [&](const AssumeExpr& e) -> std::optional<z3::expr> {
    using K = AssumeExpr::Kind;
    switch (e.kind) {
      case K::number: return c.bv_val(e.value, 64);
      case K::argument: return argument(e.value);
      case K::each_index:
        if (!index) error = "argN[*] (every index) is not a value here";
        return index;
      case K::element: {
        const auto type = integer_element(kernel, e.value, error);
        const auto at = value(*e.operands[0]);
        if (!type || !at) return std::nullopt;
        const z3::expr v = initial_memory(c, kernel.params[e.value - 1].name, type->bytes, *at * c.bv_val(type->bytes, 64));
        return type->bytes == 8 ? v : type->is_signed ? z3::sext(v, 64 - 8 * type->bytes) : z3::zext(v, 64 - 8 * type->bytes);
      }
      case K::variable: {
        const auto type = integer_variable(module, e.name, error);
        const auto at = e.operands.empty() ? std::optional<z3::expr>(zero) : value(*e.operands[0]);
        if (!type || !at) return std::nullopt;
        const z3::expr v = initial_memory(c, e.name, type->bytes, *at * c.bv_val(type->bytes, 64));
        return type->bytes == 8 ? v : type->is_signed ? z3::sext(v, 64 - 8 * type->bytes) : z3::zext(v, 64 - 8 * type->bytes);
      }
      case K::block_dim: return z3::zext(ntid[e.value], 32);
      case K::grid_dim: return z3::zext(nctaid[e.value], 32);
      case K::unary: {
        auto x = value(*e.operands[0]);
        if (!x) return std::nullopt;
        if (e.op == "-") return -*x;
        if (e.op == "~") return ~*x;
        return truth(*x == zero);  // !
      }
      case K::binary: break;
    }
    auto x = value(*e.operands[0]), y = value(*e.operands[1]);
    if (!x || !y) return std::nullopt;
    const std::string& op = e.op;
    if (op == "*") return *x * *y;
    if (op == "/") return *x / *y;  // (signed in the C++ API)
    if (op == "%") return z3::srem(*x, *y);
    if (op == "+") return *x + *y;
    if (op == "-") return *x - *y;
    if (op == "<<") return z3::shl(*x, *y);
    if (op == ">>") return z3::ashr(*x, *y);
    if (op == "<") return truth(*x < *y);  // (signed)
    if (op == "<=") return truth(*x <= *y);
    if (op == ">") return truth(*x > *y);
    if (op == ">=") return truth(*x >= *y);
    if (op == "==") return truth(*x == *y);
    if (op == "!=") return truth(*x != *y);
    if (op == "&") return *x & *y;
    if (op == "^") return *x ^ *y;
    if (op == "|") return *x | *y;
    if (op == "&&") return truth(*x != zero && *y != zero);
    return truth(*x != zero || *y != zero);  // ||
  };
  auto v = value(*a.expr);
  if (!v) {
    error = "--assume '" + a.text + "': " + error;
    return std::nullopt;
  }
  return AssumptionValue{*v, ties};
}

std::optional<bool> assumption_holds(const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module, const ConcreteLaunch& launch,
                                     std::uint64_t index) {
  std::string error;
  auto extend = [](std::uint64_t v, unsigned bytes, bool is_signed) {
    if (bytes >= 8) return v;
    const unsigned shift = 64 - 8 * bytes;
    return is_signed ? static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift) : (v << shift) >> shift;
  };
  std::function<std::optional<std::uint64_t>(const AssumeExpr&)> value = [&](const AssumeExpr& e) -> std::optional<std::uint64_t> {
    using K = AssumeExpr::Kind;
    switch (e.kind) {
      case K::number: return e.value;
      case K::argument: {
        const auto is_signed = integer_argument(kernel, e.value, error);
        const auto bits = launch.argument ? launch.argument(e.value) : std::nullopt;
        if (!is_signed || !bits) return std::nullopt;
        return extend(*bits, kernel.params[e.value - 1].size_bytes(), *is_signed);
      }
      case K::each_index: return index;
      case K::element: {
        const auto type = integer_element(kernel, e.value, error);
        const auto at = value(*e.operands[0]);
        if (!type || !at || !launch.element) return std::nullopt;
        const auto bits = launch.element(e.value, *at * type->bytes, type->bytes);
        if (!bits) return std::nullopt;
        return extend(*bits, type->bytes, type->is_signed);
      }
      case K::variable: {
        const auto type = integer_variable(module, e.name, error);
        const auto at = e.operands.empty() ? std::optional<std::uint64_t>(0) : value(*e.operands[0]);
        if (!type || !at || !launch.variable) return std::nullopt;
        const auto bits = launch.variable(e.name, *at * type->bytes, type->bytes);
        if (!bits) return std::nullopt;
        return extend(*bits, type->bytes, type->is_signed);
      }
      case K::block_dim: return launch.block[e.value];
      case K::grid_dim: return launch.grid[e.value];
      case K::unary: {
        auto x = value(*e.operands[0]);
        if (!x) return std::nullopt;
        if (e.op == "-") return 0 - *x;
        if (e.op == "~") return ~*x;
        return *x == 0 ? 1 : 0;  // !
      }
      case K::binary: break;
    }
    auto x = value(*e.operands[0]), y = value(*e.operands[1]);
    if (!x || !y) return std::nullopt;
    const std::uint64_t u = *x, v = *y;
    const std::int64_t si = static_cast<std::int64_t>(u), sv = static_cast<std::int64_t>(v);
    const std::string& op = e.op;
    // SMT-LIB's bvsdiv and bvsrem (assumption_value's): the quotient of the magnitudes, negated when the signs
    // differ; dividing by zero gives all ones (for a non-negative dividend) or 1, and the remainder is the dividend.
    auto magnitude = [](std::int64_t t) { return t < 0 ? 0 - static_cast<std::uint64_t>(t) : static_cast<std::uint64_t>(t); };
    if (op == "/") {
      if (v == 0) return si < 0 ? 1 : ~std::uint64_t{0};
      const std::uint64_t q = magnitude(si) / magnitude(sv);
      return (si < 0) != (sv < 0) ? 0 - q : q;
    }
    if (op == "%") {
      if (v == 0) return u;
      const std::uint64_t r = magnitude(si) % magnitude(sv);
      return si < 0 ? 0 - r : r;
    }
    if (op == "*") return u * v;
    if (op == "+") return u + v;
    if (op == "-") return u - v;
    if (op == "<<") return v >= 64 ? 0 : u << v;
    if (op == ">>") return v >= 64 ? (si < 0 ? ~std::uint64_t{0} : 0) : static_cast<std::uint64_t>(si >> v);
    if (op == "<") return si < sv ? 1 : 0;
    if (op == "<=") return si <= sv ? 1 : 0;
    if (op == ">") return si > sv ? 1 : 0;
    if (op == ">=") return si >= sv ? 1 : 0;
    if (op == "==") return u == v ? 1 : 0;
    if (op == "!=") return u != v ? 1 : 0;
    if (op == "&") return u & v;
    if (op == "^") return u ^ v;
    if (op == "|") return u | v;
    if (op == "&&") return u != 0 && v != 0 ? 1 : 0;
    return u != 0 || v != 0 ? 1 : 0;  // ||
  };
  const auto v = value(*a.expr);
  if (!v) return std::nullopt;
  return *v != 0;
}

std::optional<z3::expr> assumption_term(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module,
                                        const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                        const std::vector<z3::expr>& reads, std::string& error, const std::optional<z3::expr>& index) {
  auto v = assumption_value(c, a, kernel, module, ntid, nctaid, reads, error, index);
  if (!v) return std::nullopt;
  return v->ties && v->value != c.bv_val(0, 64);
}

}  // namespace ptxcheck::race
