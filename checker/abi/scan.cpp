// The CUDA source scanner for `ptxcheck abi`: a Spirit X3 grammar run once over the whole file that
// recognises atomic objects, their member calls and operators, fences, legacy atomics and volatile accesses.
#include "checker/abi/source_ops.hpp"

#include <boost/optional.hpp>
#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace ptxcheck::abi {
namespace x3 = boost::spirit::x3;
using Iter = std::string::const_iterator;

namespace {
// What the scanner knows while it walks the file.
struct State {
  Iter begin;
  LineIndex lines;
  std::string file;
  std::map<std::string, ThreadScope> atomics;  // atomic object (or pointer/array of them) -> its scope
  std::set<std::string> volatile_ptrs;         // pointers to volatile
  std::set<std::string> volatile_vars;         // volatile objects
  ScanResult out;

  Iter end;
  Iter mark;  // where the current item starts (Boost 1.74's _where in an action is the range after the match)
  void push(Iter, SourceOp op) {
    auto loc = lines.locate(static_cast<std::size_t>(mark - begin), file);
    op.line = loc.line;
    op.column = loc.column;
    out.ops.push_back(std::move(op));
  }
};
struct state_tag;
template <class Ctx> State& st(const Ctx& ctx) { return x3::get<state_tag>(ctx).get(); }

// ---- symbol tables: the words of the C++/CUDA API ----
struct OrderSym : x3::symbols<Order> {
  OrderSym() {
    add("relaxed", Order::relaxed)("consume", Order::consume)("acquire", Order::acquire)("release", Order::release)(
        "acq_rel", Order::acq_rel)("seq_cst", Order::seq_cst);
  }
} const order_sym;
struct ScopeSym : x3::symbols<ThreadScope> {
  ScopeSym() {
    add("thread", ThreadScope::thread)("block", ThreadScope::block)("cluster", ThreadScope::cluster)(
        "device", ThreadScope::device)("system", ThreadScope::system);
  }
} const scope_sym;
struct Method {
  OpKind kind;
  RmwOp rmw;
  const char* name;
};
struct MethodSym : x3::symbols<Method> {
  MethodSym() {
    for (const Method& m : {Method{OpKind::Load, RmwOp::none, "load"},
                            Method{OpKind::Store, RmwOp::none, "store"},
                            Method{OpKind::Rmw, RmwOp::exch, "exchange"},
                            Method{OpKind::Rmw, RmwOp::cas, "compare_exchange_strong"},
                            Method{OpKind::Rmw, RmwOp::cas, "compare_exchange_weak"},
                            Method{OpKind::Rmw, RmwOp::add, "fetch_add"},
                            Method{OpKind::Rmw, RmwOp::sub, "fetch_sub"},
                            Method{OpKind::Rmw, RmwOp::and_, "fetch_and"},
                            Method{OpKind::Rmw, RmwOp::or_, "fetch_or"},
                            Method{OpKind::Rmw, RmwOp::xor_, "fetch_xor"},
                            Method{OpKind::Rmw, RmwOp::min, "fetch_min"},
                            Method{OpKind::Rmw, RmwOp::max, "fetch_max"}})
      add(m.name, m);
  }
} const method_sym;
// CUDA C++ Programming Guide, "Atomic Functions": atomicAdd ... are relaxed; _block / _system set the scope.
struct LegacySym : x3::symbols<RmwOp> {
  LegacySym() {
    add("Add", RmwOp::add)("Sub", RmwOp::sub)("Exch", RmwOp::exch)("Min", RmwOp::min)("Max", RmwOp::max)(
        "Inc", RmwOp::inc)("Dec", RmwOp::dec)("CAS", RmwOp::cas)("And", RmwOp::and_)("Or", RmwOp::or_)(
        "Xor", RmwOp::xor_);
  }
} const legacy_sym;
struct CompoundSym : x3::symbols<RmwOp> {
  CompoundSym() {
    add("+=", RmwOp::add)("-=", RmwOp::sub)("&=", RmwOp::and_)("|=", RmwOp::or_)("^=", RmwOp::xor_)(
        "++", RmwOp::add)("--", RmwOp::sub);
  }
} const compound_sym;

// ---- the words inside an argument list: memory orders and thread scopes ----
struct ArgFacts {
  std::optional<Order> order;  // the strongest order named (a CAS names success and failure orders)
  std::optional<ThreadScope> scope;
};
ArgFacts arg_facts(const std::string& args) {
  ArgFacts f;
  auto idchar = x3::alnum | x3::char_('_');
  auto on_order = [&](auto& ctx) {
    Order o = x3::_attr(ctx);
    if (!f.order || static_cast<int>(o) > static_cast<int>(*f.order)) f.order = o;
  };
  auto on_scope = [&](auto& ctx) { f.scope = x3::_attr(ctx); };
  auto order_tok = x3::lexeme["memory_order" >> (x3::lit('_') | "::") >> order_sym >> !idchar];
  auto scope_tok = x3::lexeme["thread_scope" >> (x3::lit('_') | "::") >> scope_sym >> !idchar];
  auto word = x3::lexeme[+idchar];
  auto it = args.cbegin();
  x3::parse(it, args.cend(), *(order_tok[on_order] | scope_tok[on_scope] | x3::omit[word] | x3::omit[x3::char_]));
  return f;
}

// ---- the grammar ----
auto const idchar = x3::alnum | x3::char_('_');
auto const ident = x3::rule<struct ident_, std::string>{"identifier"} = x3::lexeme[(x3::alpha | x3::char_('_')) >> *idchar];
auto const kw = [](const char* w) { return x3::lexeme[x3::lit(w) >> !idchar]; };
auto const comment = x3::lexeme["//" >> *(x3::char_ - x3::eol)] | x3::lexeme["/*" >> *(x3::char_ - "*/") >> "*/"];
auto const skipper = x3::space | comment;
auto const string_lit = x3::lexeme['"' >> *(('\\' >> x3::char_) | (x3::char_ - '"')) >> '"'];
auto const char_lit = x3::lexeme['\'' >> *(('\\' >> x3::char_) | (x3::char_ - '\'')) >> '\''];

x3::rule<struct parens_> const parens{"( ... )"};
x3::rule<struct angles_> const angles{"< ... >"};
x3::rule<struct brackets_> const brackets{"[ ... ]"};
auto const parens_def = '(' >> *(parens | string_lit | char_lit | (x3::char_ - x3::char_("()\"'"))) >> ')';
auto const angles_def = '<' >> *(angles | (x3::char_ - x3::char_("<>;{}"))) >> '>';
auto const brackets_def = '[' >> *(brackets | (x3::char_ - x3::char_("[]"))) >> ']';
BOOST_SPIRIT_DEFINE(parens, angles, brackets)
auto const args = x3::rule<struct args_, std::string>{"argument list"} = x3::raw[x3::lexeme[parens]];
auto const qualifier = x3::omit[*(ident >> "::")];

// `cuda::atomic_ref<int, cuda::thread_scope_device> a`, `cuda::std::atomic<int>* p`, `atomic<int> arr[4]`:
// the scope comes from the template arguments (cuda::atomic's default and cuda::std's only scope is system).
auto const atomic_decl = x3::rule<struct atomic_decl_, boost::fusion::deque<std::string, std::string>>{"atomic declaration"} =
    qualifier >> x3::lexeme[(x3::lit("atomic_ref") | "atomic") >> !idchar] >> x3::raw[x3::lexeme[angles]] >>
    x3::omit[*(x3::char_("&*") | kw("const"))] >> ident;

auto on_atomic_decl = [](auto& ctx) {
  auto& s = st(ctx);
  const auto& attr = x3::_attr(ctx);
  s.atomics[boost::fusion::at_c<1>(attr)] = arg_facts(boost::fusion::at_c<0>(attr)).scope.value_or(ThreadScope::system);
};

// `a.load(...)`, `p->fetch_add(...)`, `arr[i].store(...)` on a known atomic object.
auto on_member = [](auto& ctx) {
  auto& s = st(ctx);
  const auto& attr = x3::_attr(ctx);
  const std::string& name = boost::fusion::at_c<0>(attr);
  const Method& m = boost::fusion::at_c<1>(attr);
  auto it = s.atomics.find(name);
  if (it == s.atomics.end()) {
    x3::_pass(ctx) = false;
    return;
  }
  SourceOp op;
  op.kind = m.kind;
  op.rmw = m.rmw;
  // The argument list starts at the first '(' after the method name (the item began at the object name).
  std::string arg_text;
  const std::string method(m.name);
  auto at = std::search(s.mark, s.end, method.begin(), method.end());
  if (at != s.end) at = std::find(at + static_cast<std::ptrdiff_t>(method.size()), s.end, '(');
  x3::phrase_parse(at, s.end, args, skipper, arg_text);
  op.order = arg_facts(arg_text).order.value_or(Order::seq_cst);
  op.scope = it->second;
  op.api = name + "." + m.name;
  s.push(x3::_where(ctx).begin(), op);
};
auto const member_call = x3::rule<struct member_call_, boost::fusion::deque<std::string, Method>>{"member call"} =
    ident >> x3::omit[-x3::lexeme[brackets]] >> (x3::lit("->") | '.') >> x3::lexeme[method_sym >> !idchar] >>
    &x3::lit('(');  // the arguments are read for orders here, then scanned on for nested calls

// `++a`, `a++`, `a += v`, `a = v` on an atomic object: seq_cst read-modify-writes and stores.
auto const postfix_op = x3::rule<struct postfix_op_, boost::fusion::deque<std::string, RmwOp>>{"atomic operator"} =
    ident >> x3::omit[-x3::lexeme[brackets]] >> compound_sym;
auto on_postfix = [](auto& ctx) {
  auto& s = st(ctx);
  const std::string& name = boost::fusion::at_c<0>(x3::_attr(ctx));
  auto it = s.atomics.find(name);
  if (it == s.atomics.end()) { x3::_pass(ctx) = false; return; }
  SourceOp op{0, 0, OpKind::Rmw, boost::fusion::at_c<1>(x3::_attr(ctx)), Order::seq_cst, it->second, name + " operator", false};
  s.push(x3::_where(ctx).begin(), op);
};
auto const prefix_op = x3::rule<struct prefix_op_, boost::fusion::deque<RmwOp, std::string>>{"atomic operator"} =
    x3::lexeme[(x3::lit("++") >> x3::attr(RmwOp::add)) | (x3::lit("--") >> x3::attr(RmwOp::sub))] >> ident;
auto on_prefix = [](auto& ctx) {
  auto& s = st(ctx);
  const std::string& name = boost::fusion::at_c<1>(x3::_attr(ctx));
  auto it = s.atomics.find(name);
  if (it == s.atomics.end()) { x3::_pass(ctx) = false; return; }
  SourceOp op{0, 0, OpKind::Rmw, boost::fusion::at_c<0>(x3::_attr(ctx)), Order::seq_cst, it->second, name + " operator", false};
  s.push(x3::_where(ctx).begin(), op);
};
auto const assign_op = x3::rule<struct assign_op_, std::string>{"atomic assignment"} =
    ident >> x3::omit[-x3::lexeme[brackets]] >> x3::lexeme['=' >> !x3::lit('=')];
auto on_assign = [](auto& ctx) {
  auto& s = st(ctx);
  const std::string& name = x3::_attr(ctx);
  auto it = s.atomics.find(name);
  if (it == s.atomics.end()) { x3::_pass(ctx) = false; return; }
  SourceOp op{0, 0, OpKind::Store, RmwOp::none, Order::seq_cst, it->second, name + " = ", false};
  s.push(x3::_where(ctx).begin(), op);
};

// The argument text of the call whose name `word` follows the current item's start: `(...)`, or empty.
template <class Ctx> std::string call_args(State& s, const std::string& word) {
  auto at = std::search(s.mark, s.end, word.begin(), word.end());
  if (at != s.end) at = std::find(at + static_cast<std::ptrdiff_t>(word.size()), s.end, '(');
  std::string text;
  x3::phrase_parse(at, s.end, args, skipper, text);
  return text;
}

// `cuda::atomic_ref<int, cuda::thread_scope_device>(x).load(order)`: a member call on a temporary.
auto const temp_call = x3::rule<struct temp_call_, boost::fusion::deque<std::string, Method>>{"atomic temporary"} =
    qualifier >> x3::lexeme[(x3::lit("atomic_ref") | "atomic") >> !idchar] >> x3::raw[x3::lexeme[angles]] >>
    x3::omit[x3::lexeme[parens]] >> (x3::lit("->") | '.') >> x3::lexeme[method_sym >> !idchar] >> &x3::lit('(');
auto on_temp_call = [](auto& ctx) {
  auto& s = st(ctx);
  const auto& attr = x3::_attr(ctx);
  const Method& m = boost::fusion::at_c<1>(attr);
  SourceOp op{0, 0, m.kind, m.rmw, Order::seq_cst, arg_facts(boost::fusion::at_c<0>(attr)).scope.value_or(ThreadScope::system),
              std::string("atomic_ref(...).") + m.name, false};
  op.order = arg_facts(call_args<decltype(ctx)>(s, std::string(".") + m.name)).order.value_or(Order::seq_cst);
  s.push(s.mark, op);
};

// C-style free functions on an atomic object: `cuda::std::atomic_fetch_add_explicit(&a, 1, order)`,
// `atomic_load(&a)`; the object (first argument, `&a` or a pointer `p`) gives the scope.
auto const free_call = x3::rule<struct free_call_, Method>{"atomic free function"} =
    qualifier >> x3::lexeme["atomic_" >> method_sym >> -x3::lit("_explicit") >> !idchar] >> &x3::lit('(');
auto on_free_call = [](auto& ctx) {
  auto& s = st(ctx);
  const Method& m = x3::_attr(ctx);
  std::string text = call_args<decltype(ctx)>(s, std::string("atomic_") + m.name), object;
  auto it = text.cbegin();
  x3::phrase_parse(it, text.cend(), '(' >> -x3::lit('&') >> ident, skipper, object);
  auto found = s.atomics.find(object);
  if (found == s.atomics.end()) { x3::_pass(ctx) = false; return; }
  SourceOp op{0, 0, m.kind, m.rmw, arg_facts(text).order.value_or(Order::seq_cst), found->second,
              std::string("atomic_") + m.name, false};
  s.push(s.mark, op);
};

// `cuda::atomic_thread_fence(order, scope)`, `cuda::std::atomic_thread_fence(order)` (system scope).
auto const fence_call = x3::rule<struct fence_call_, std::string>{"fence"} =
    qualifier >> x3::lexeme[x3::lit("atomic_thread_fence") >> !idchar] >> args;
auto on_fence = [](auto& ctx) {
  auto f = arg_facts(x3::_attr(ctx));
  SourceOp op{0, 0, OpKind::Fence, RmwOp::none, f.order.value_or(Order::seq_cst), f.scope.value_or(ThreadScope::system),
              "atomic_thread_fence", false};
  st(ctx).push(x3::_where(ctx).begin(), op);
};

// `atomicAdd(...)`, `atomicCAS_block(...)`, `atomicExch_system(...)`.
auto const legacy_call = x3::rule<struct legacy_call_, boost::fusion::deque<RmwOp, boost::optional<ThreadScope>>>{"atomic function"} =
    x3::lexeme["atomic" >> legacy_sym >>
               -(("_block" >> x3::attr(ThreadScope::block)) | ("_system" >> x3::attr(ThreadScope::system))) >>
               !idchar] >> &x3::lit('(');  // arguments are scanned on: `atomicExch(p, atomicAdd(q, 0))`
auto on_legacy = [](auto& ctx) {
  const auto& attr = x3::_attr(ctx);
  auto scope = boost::fusion::at_c<1>(attr).get_value_or(ThreadScope::device);
  RmwOp r = boost::fusion::at_c<0>(attr);
  std::string api = std::string("atomic") + rmw_name(r) + (scope == ThreadScope::block ? "_block" : scope == ThreadScope::system ? "_system" : "");
  SourceOp op{0, 0, OpKind::Rmw, r, Order::relaxed, scope, api, false};
  st(ctx).push(x3::_where(ctx).begin(), op);
};

// `__threadfence()` = atomic_thread_fence(seq_cst, device); _block -> block, _system -> system
// (CUDA C++ Programming Guide, "Memory Fence Functions").
auto const threadfence = x3::rule<struct threadfence_, boost::optional<ThreadScope>>{"__threadfence"} =
    x3::lexeme["__threadfence" >> -(("_block" >> x3::attr(ThreadScope::block)) | ("_system" >> x3::attr(ThreadScope::system))) >>
               !idchar] >> '(' >> ')';
auto on_threadfence = [](auto& ctx) {
  auto scope = x3::_attr(ctx).get_value_or(ThreadScope::device);
  std::string api = std::string("__threadfence") + (scope == ThreadScope::block ? "_block" : scope == ThreadScope::system ? "_system" : "");
  SourceOp op{0, 0, OpKind::Fence, RmwOp::none, Order::seq_cst, scope, api, false};
  st(ctx).push(x3::_where(ctx).begin(), op);
};

// `volatile int* p`, `__shared__ volatile int x[4]`, `volatile T& r = p[i];`: storage words, `volatile`, then
// the words up to the name. Pointers and references to volatile are tracked; a volatile object only when
// it lives in shared or global memory (`__shared__`, `__device__`): a volatile automatic variable is
// private to its thread and nvcc may keep it in a register. A reference's initializer binds, not loads.
auto const storage_word = x3::rule<struct storage_word_, std::string>{"storage class"} =
    x3::lexeme[(x3::string("__shared__") | x3::string("__device__") | x3::string("static") | x3::string("extern")) >> !idchar];
auto const volatile_decl = x3::rule<struct volatile_decl_, std::vector<std::string>>{"volatile declaration"} =
    *storage_word >> kw("volatile") >> *(ident | x3::string("*") | x3::string("::") | x3::string("&"));
auto const volatile_ref_decl = x3::rule<struct volatile_ref_decl_, std::string>{"volatile reference"} =
    x3::omit[*storage_word] >> kw("volatile") >> x3::omit[*(ident | x3::string("::"))] >> '&' >> ident >> '=' >>
    !x3::lit('=') >> x3::omit[*(x3::char_ - x3::char_(";,)"))];
auto on_volatile_ref_decl = [](auto& ctx) { st(ctx).volatile_vars.insert(x3::_attr(ctx)); };
auto on_volatile_decl = [](auto& ctx) {
  auto& s = st(ctx);
  const auto& words = x3::_attr(ctx);
  bool pointer = false, reference = false, global_storage = false;
  std::string name;
  for (const auto& w : words) {
    if (w == "*") pointer = true;
    else if (w == "&") reference = true;
    else if (w == "__shared__" || w == "__device__") global_storage = true;
    else if (w != "::" && w != "const" && w != "static" && w != "extern") name = w;
  }
  if (name.empty()) return;
  if (pointer) s.volatile_ptrs.insert(name);
  else if (reference || global_storage) s.volatile_vars.insert(name);
};
// `*p`, `p[i]`, `p->f` for a pointer to volatile; `x` for a volatile object. Followed by `=` it is a store,
// by a compound assignment a load and a store, else a load.
auto const vol_access = x3::rule<struct vol_access_, boost::fusion::deque<boost::optional<char>, std::string, bool, boost::optional<std::string>>>{"volatile access"} =
    -x3::char_('*') >> ident >> ((x3::lexeme[brackets] >> x3::attr(true)) | (x3::lit("->") >> x3::omit[ident] >> x3::attr(true)) | x3::attr(false)) >>
    -x3::raw[x3::lexeme[(x3::lit('=') >> !x3::lit('=')) | compound_sym]];
auto on_vol_access = [](auto& ctx) {
  auto& s = st(ctx);
  const auto& attr = x3::_attr(ctx);
  bool star = boost::fusion::at_c<0>(attr).is_initialized();
  const std::string& name = boost::fusion::at_c<1>(attr);
  bool indexed = boost::fusion::at_c<2>(attr);
  const auto& assign = boost::fusion::at_c<3>(attr);
  bool is_access = (s.volatile_ptrs.count(name) && (star || indexed)) || (s.volatile_vars.count(name) && !star);
  if (!is_access) { x3::_pass(ctx) = false; return; }
  bool store = assign.is_initialized(), load = !assign || *assign != "=";
  // ISA 8.4.2: a volatile operation is a relaxed operation at system scope.
  if (load) st(ctx).push(x3::_where(ctx).begin(), SourceOp{0, 0, OpKind::Load, RmwOp::none, Order::relaxed, ThreadScope::system, "volatile load", true});
  if (store) st(ctx).push(x3::_where(ctx).begin(), SourceOp{0, 0, OpKind::Store, RmwOp::none, Order::relaxed, ThreadScope::system, "volatile store", true});
};

auto on_mark = [](auto& ctx) { st(ctx).mark = x3::_where(ctx).begin(); };
// `&data[0]`, `&p->f`: taking an address reads nothing. Written without a space, as address-of usually is
// (`a & b[0]` with spaces stays a bitwise and whose operands are read); `&&` is skipped whole first.
auto const address_of = x3::rule<struct address_of_>{"address-of"} =
    x3::lexeme['&' >> &(x3::alpha | '_')] >> ident >> -x3::lexeme[brackets] >>
    *((x3::lit("->") | '.') >> ident >> -x3::lexeme[brackets]);

auto const item = x3::eps[on_mark] >> ((temp_call[on_temp_call]) | (free_call[on_free_call]) | (atomic_decl[on_atomic_decl]) | (volatile_ref_decl[on_volatile_ref_decl]) | (volatile_decl[on_volatile_decl]) | (fence_call[on_fence]) |
                  (legacy_call[on_legacy]) | (threadfence[on_threadfence]) | (member_call[on_member]) |
                  (postfix_op[on_postfix]) | (prefix_op[on_prefix]) | (assign_op[on_assign]) |
                  x3::omit[x3::lit("&&")] | x3::omit[address_of] | (vol_access[on_vol_access]) | x3::omit[string_lit] | x3::omit[char_lit] | x3::omit[ident] |
                  x3::omit[x3::char_]);
}  // namespace

ScanResult scan_cuda_source(const std::string& text, const std::string& file) {
  State s;
  s.begin = text.cbegin();
  s.end = text.cend();
  s.lines = LineIndex(text);
  s.file = file;
  auto it = text.cbegin();
  auto grammar = x3::with<state_tag>(std::ref(s))[*item];
  x3::phrase_parse(it, text.cend(), grammar, skipper);
  return std::move(s.out);
}

}  // namespace ptxcheck::abi
