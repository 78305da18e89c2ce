// AST -> checked IR (see build.hpp). Names follow ISA 4.4 and 5.1; register scoping follows ISA 11.4
// (a `{ }` block opens a scope); initializers follow ISA 5.4.4; the `.loc` map follows ISA 11.6.
#include "semantics/ir/build.hpp"
#include "semantics/ir/fence_form.hpp"
#include "semantics/ir/misc_forms.hpp"
#include "semantics/ir/opcode_operands.hpp"
#include "semantics/ir/video_select.hpp"
#include "semantics/support/names.hpp"

#include <boost/variant/apply_visitor.hpp>
#include <boost/variant/get.hpp>

#include <bit>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ptx::ir {
namespace {

using ptxcheck::Diagnostic;

// Qualifier words by class (defined with decode_qualifiers below).
std::optional<Rounding> rounding_from(std::string_view w);
std::optional<ir::Scope> scope_from(std::string_view w);

struct OpcodeInfo {
  const char* name;
  unsigned min_operands, max_operands;
  const char* group;
};
constexpr OpcodeInfo kOpcodes[] = {
#define PTX_OPCODE(name, min_ops, max_ops, group, effect) {#name, min_ops, max_ops, #group},
#include "semantics/ir/opcodes.def"
#undef PTX_OPCODE
};

template <class T> const T& unwrap(const T& v) { return v; }
template <class T> const T& unwrap(const boost::spirit::x3::forward_ast<T>& v) { return v.get(); }

// Register declarations of one lexical scope: exact names, and `%r<N>` ranges by prefix.
struct RegisterScope {
  std::unordered_map<std::string, std::int32_t> names;
  std::unordered_map<std::string, std::pair<std::uint32_t, Type>> ranges;  // prefix -> (count, type)
};

class Builder {
 public:
  explicit Builder(const ParsedModule& parsed) : parsed_(parsed) {}

  BuildResult run() {
    module_.file = parsed_.file;
    check_module_header();
    // Pass 1: module-scope names, so that functions and variables can be used before they are defined.
    for (const auto& item : parsed_.module.items) declare_top_level(item);
    // Pass 2: function bodies.
    for (const auto& item : parsed_.module.items)
      if (auto* f = boost::get<ast::Function>(&item.get()); f && f->body) build_body(*f);
    return result();
  }

  // The same two passes over a skim (ptx::skim_ptx): each body is parsed from its range, built, shown to
  // options.on_body and, unless kept, emptied before the next one is parsed. nullopt when a body does not parse
  // (the caller then reports parse_ptx's error).
  std::optional<BuildResult> run_streaming(const LoadOptions& options) {
    module_.file = parsed_.file;
    check_module_header();
    for (const auto& item : parsed_.module.items) declare_top_level(item);
    Bodies bodies(module_.functions.size());
    for (std::size_t i = 0; i < module_.functions.size(); ++i)
      bodies.keep[i] = !options.keep || options.keep(module_, module_.functions[i]);
    for (const auto& g : module_.globals) keep_named(g.relocations, bodies);
    for (const auto& item : parsed_.module.items) {
      auto* f = boost::get<ast::Function>(&item.get());
      if (!f || !f->body) continue;
      const std::size_t index = function_index_.at(f->name);
      bodies.skim[index] = f;
      bodies.last_label[index] = last_label_;
      if (!build_from_range(*f)) return std::nullopt;
      Function& fn = module_.functions[index];
      bodies.refs[index] = references(fn, bodies.keep[index]);
      if (options.on_body) options.on_body(index, fn);
      if (!bodies.keep[index]) elide(fn);
    }
    if (errors_.empty() && !keep_reachable(bodies)) return std::nullopt;
    return result();
  }

 private:
  BuildResult result() {
    BuildResult result;
    result.errors = std::move(errors_);
    result.warnings = std::move(warnings_);
    if (result.errors.empty()) result.module = std::move(module_);
    return result;
  }

  // ---------------------------------------------------------------- streaming (load_ptx)
  struct Bodies {
    explicit Bodies(std::size_t n) : keep(n), refs(n), skim(n), last_label(n) {}
    std::vector<char> keep;
    std::vector<std::vector<std::size_t>> refs;  // functions a body names (calls, addresses, local initializers)
    std::vector<const ast::Function*> skim;      // the skimmed definition, to build an elided body again
    std::vector<std::string> last_label;         // the builder's label state when the body was first built
  };
  void keep_named(const std::vector<Relocation>& relocations, Bodies& b) {
    for (const auto& r : relocations)
      if (auto it = function_index_.find(r.symbol); it != function_index_.end()) b.keep[it->second] = 1;
  }
  // Parses one body from the skim's text range and builds it; false when the range does not parse.
  bool build_from_range(const ast::Function& skimmed) {
    auto parsed = parse_function(parsed_, skimmed);
    if (!parsed) return false;
    positions_ = &parsed->positions;
    build_body(parsed->function());
    positions_ = &parsed_.positions;
    return true;
  }
  // The functions fn's body names. A body that takes a function's address (anything but a call's direct target)
  // is kept whatever the caller asked: the race checker's indirect-call targets are every address taken anywhere.
  std::vector<std::size_t> references(const Function& fn, char& keep) {
    std::vector<std::size_t> out;
    std::function<void(const Operand&, bool)> visit = [&](const Operand& o, bool direct_target) {
      if (o.kind == Operand::Kind::Function && o.target >= 0) {
        out.push_back(static_cast<std::size_t>(o.target));
        if (!direct_target) keep = 1;
      }
      for (const auto& e : o.elements) visit(e, false);
    };
    for (const auto& in : fn.body) {
      bool target_seen = in.op != Opcode::call_;
      for (const auto& o : in.operands) {
        const bool direct = !target_seen && o.kind == Operand::Kind::Function;
        target_seen |= direct;
        visit(o, direct);
      }
    }
    for (const auto& l : fn.locals)
      for (const auto& r : l.relocations)
        if (auto it = function_index_.find(r.symbol); it != function_index_.end()) {
          out.push_back(it->second);
          keep = 1;
        }
    return out;
  }
  // Leaves the declaration (signature, locals, directives) and drops what only running the body needs.
  static void elide(Function& fn) {
    // Moves, not `= {}`: assigning an empty list to a vector keeps its capacity.
    fn.body = std::vector<Instruction>();
    fn.registers = std::vector<Register>();
    fn.labels = {};
    fn.branch_targets = {};
    fn.body_elided = true;
  }
  // Builds again every elided body that a kept one can reach; its diagnostics were reported the first time.
  bool keep_reachable(Bodies& b) {
    std::vector<std::size_t> work;
    for (std::size_t i = 0; i < b.keep.size(); ++i)
      if (b.keep[i]) work.push_back(i);
    while (!work.empty()) {
      const std::size_t i = work.back();
      work.pop_back();
      for (std::size_t callee : b.refs[i]) {
        if (b.keep[callee]) continue;
        b.keep[callee] = 1;
        work.push_back(callee);
        if (!b.skim[callee]) continue;
        Function& fn = module_.functions[callee];
        fn.body_elided = false;
        fn.locals.clear();  // built again below, as are prototypes (map entries: rebuilt alike)
        const auto errors = errors_.size(), warnings = warnings_.size();
        last_label_ = b.last_label[callee];
        if (!build_from_range(*b.skim[callee])) return false;
        errors_.resize(errors);
        warnings_.resize(warnings);
      }
    }
    return true;
  }

  const ParsedModule& parsed_;
  // The positions node ids index: the parsed module's, or while a body is built from its range, that body's.
  const std::vector<std::uint32_t>* positions_ = &parsed_.positions;
  ptxcheck::SourceLocation locate(const ast::Tagged& node) const {
    if (node.id_first < 0 || static_cast<std::size_t>(node.id_first) >= positions_->size()) return {parsed_.file, 0, 0};
    return parsed_.lines.locate((*positions_)[node.id_first], parsed_.file);
  }
  Module module_;
  std::vector<Diagnostic> errors_;
  std::unordered_map<std::string, std::size_t> function_index_;
  std::unordered_map<std::string, std::size_t> global_index_;

  // State while building one function body.
  Function* fn_ = nullptr;
  std::vector<RegisterScope> scopes_;
  std::unordered_map<std::string, VarRef> fn_vars_;
  SourceLoc current_loc_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<SourcePos>> chain_at_;  // `.loc` position -> its call sites
  struct LabelFixup {
    std::uint32_t instruction;
    std::vector<std::size_t> path;  // operand index path to the label operand
    std::string name;     // as written
    std::string ir_name;  // as resolved in its block (declare_block_labels); empty: not in scope
    const ast::Tagged* node;
  };
  std::vector<LabelFixup> label_fixups_;

  // ---------------------------------------------------------------- diagnostics
  Diagnostic located(const ast::Tagged& node, std::string message, const char* severity) const {
    Diagnostic d;
    d.where = locate(node);
    d.message = std::move(message);
    d.source_line = parsed_.line_text(d.where.line);
    d.severity = severity;
    return d;
  }
  void error(const ast::Tagged& node, std::string message) { errors_.push_back(located(node, std::move(message), "error")); }
  void warning(const ast::Tagged& node, std::string message) {
    warnings_.push_back(located(node, std::move(message), "warning"));
  }
  std::vector<Diagnostic> warnings_;
  std::uint32_t line_of(const ast::Tagged& node) const { return locate(node).line; }

  // ---------------------------------------------------------------- module level
  // ISA 11.1.1 (and 4): "Each PTX module must begin with a .version directive, immediately followed by a .target
  // directive"; no other .version is allowed. An empty file is no module either.
  void check_module_header() {
    const auto& items = parsed_.module.items;
    if (items.empty()) {
      Diagnostic d;
      d.where = {parsed_.file, 1, 1};
      d.message = "a PTX module must begin with a .version directive (ISA 11.1.1); this file has none";
      d.source_line = parsed_.line_text(1);
      errors_.push_back(std::move(d));
      return;
    }
    auto is_version = [](const ast::TopLevel& t) { return boost::get<ast::Version>(&t.get()) != nullptr; };
    if (!is_version(items[0])) {
      error(top_level_node(items[0]), "a PTX module must begin with a .version directive (ISA 11.1.1)");
      return;
    }
    const auto* target = items.size() > 1 ? boost::get<ast::Directive>(&items[1].get()) : nullptr;
    if (!target || target->name != "target")
      error(items.size() > 1 ? top_level_node(items[1]) : static_cast<const ast::Tagged&>(items[0]),
            "the .version directive must be immediately followed by a .target directive (ISA 11.1.1)");
    for (std::size_t i = 1; i < items.size(); ++i)
      if (is_version(items[i])) error(top_level_node(items[i]), "a second .version directive (ISA 11.1.1 allows one, at the start)");
  }
  // The node a top-level item's position is tagged on (the variant's alternative, else the item itself).
  static const ast::Tagged& top_level_node(const ast::TopLevel& t) {
    return boost::apply_visitor([&](const auto& alt) -> const ast::Tagged& { return tagged_of(alt, t); }, t.get());
  }
  template <class T> static const ast::Tagged& tagged_of(const T& alt, const ast::TopLevel& t) {
    if constexpr (std::is_base_of_v<ast::Tagged, T>) return alt;
    else if constexpr (requires { alt.get(); }) return tagged_of(alt.get(), t);
    else return t;
  }

  void declare_top_level(const ast::TopLevel& item) {
    const auto& v = item.get();
    if (auto* version = boost::get<ast::Version>(&v)) {
      module_.version_major = version->major;
      module_.version_minor = version->minor;
    } else if (auto* d = boost::get<ast::Directive>(&v)) {
      top_level_directive(*d);
    } else if (auto* file = boost::get<ast::FileDirective>(&v)) {
      module_.source_files[file->index] = file->path;
    } else if (auto* decl = boost::get<ast::VarDecl>(&v)) {
      for (auto& var : make_variables(*decl)) {
        if (var.space == StateSpace::reg) {
          error(*decl, "registers cannot be declared at module scope");
          continue;
        }
        if (global_index_.count(var.name)) {
          // `.extern` declarations may be repeated; a second definition is an error (ISA 11.6.1).
          if (!var.is_extern) {
            auto& old = module_.globals[global_index_[var.name]];
            if (old.is_extern) old = std::move(var);
            else error(*decl, "redefinition of '" + var.name + "'");
          }
          continue;
        }
        global_index_[var.name] = module_.globals.size();
        module_.globals.push_back(std::move(var));
      }
    } else if (auto* f = boost::get<ast::Function>(&v)) {
      declare_function(*f);
    }
    // Sections (DWARF data) carry no semantics.
  }

  void top_level_directive(const ast::Directive& d) {
    if (d.name == "target") {
      for (const auto& arg : d.arguments)
        if (auto* s = boost::get<ast::Symbol>(&arg.get())) module_.targets.push_back(s->name);
    } else if (d.name == "address_size") {
      auto* n = d.arguments.size() == 1 ? boost::get<ast::IntImm>(&d.arguments[0].get()) : nullptr;
      if (!n || (n->magnitude != 32 && n->magnitude != 64)) error(d, ".address_size must be 32 or 64");
      else module_.address_size = static_cast<std::uint32_t>(n->magnitude);
    } else if (d.name != "pragma" && d.name != "alias") {
      error(d, "unknown module directive '." + d.name + "'");
    }
  }

  void declare_function(const ast::Function& f) {
    Function fn;
    fn.name = f.name;
    fn.is_entry = f.kind == "entry";
    for (const auto& l : f.linkage) {
      fn.is_extern |= l == "extern";
      fn.is_visible |= l == "visible";
      fn.is_weak |= l == "weak";
    }
    fn.ptx_line = line_of(f);
    for (const auto& p : f.params) fn.params.push_back(make_param(p));
    if (f.returns) {
      if (fn.is_entry) error(f, "a kernel (.entry) has no return parameters");
      for (const auto& p : *f.returns) fn.returns.push_back(make_param(p));
    }
    for (const auto& d : f.directives) {
      std::vector<std::uint64_t> values;
      for (const auto& arg : d.arguments)
        if (auto* n = boost::get<ast::IntImm>(&arg.get())) values.push_back(n->magnitude);
      static const char* known[] = {"maxntid", "reqntid", "minnctapersm", "maxnctapersm", "maxnreg", "noreturn",
                                    "pragma", "explicitcluster", "reqnctapercluster", "maxclusterrank",
                                    "blocksareclusters", "abi_preserve", "abi_preserve_control"};
      if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return d.name == k; }) ==
          std::end(known))
        error(d, "unknown performance directive '." + d.name + "'");
      // ptxas rejects this too, but it has an obvious meaning, so it is a warning rather than an error.
      if (d.name == "noreturn" && fn.is_entry) warning(d, ".noreturn is allowed on .func only (ISA 11.4.6); ignored");
      fn.performance[d.name] = values;
    }
    fn.has_body = f.body.has_value();
    auto it = function_index_.find(f.name);
    if (it != function_index_.end()) {
      Function& old = module_.functions[it->second];
      if (old.has_body && fn.has_body) error(f, "redefinition of function '" + f.name + "'");
      if (fn.has_body) old = std::move(fn);
      return;
    }
    function_index_[f.name] = module_.functions.size();
    module_.functions.push_back(std::move(fn));
  }

  Variable make_param(const ast::Param& p) {
    Variable v;
    v.space = p.space == "reg" ? StateSpace::reg : StateSpace::param;
    apply_decl_qualifiers(p, p.qualifiers, v);
    check_attribute_space(p, v);
    apply_declarator(p.declarator, v);
    return v;
  }

  // `.align N`, `.vN`, the type, `.ptr` attributes (ISA 5.1.6.4).
  void apply_decl_qualifiers(const ast::Tagged& node, const std::vector<ast::DeclQualifier>& qs, Variable& v) {
    bool have_type = false;
    for (const auto& q : qs) {
      if (q.word == "align") {
        if (!q.value || !std::has_single_bit(*q.value)) error(q, ".align needs a power of two");
        else v.align = static_cast<std::uint32_t>(*q.value);
      } else if (q.word == "v2" || q.word == "v4" || q.word == "v8") {
        v.type.vector = static_cast<std::uint8_t>(q.word[1] - '0');
      } else if (auto t = scalar_type_from_name(q.word)) {
        if (have_type) error(q, "more than one type in a declaration");
        v.type.scalar = *t;
        have_type = true;
      } else if (q.word.starts_with("attribute")) {
        apply_variable_attributes(q, v);
      } else if (q.word == "ptr" || q.word == "global" || q.word == "shared" || q.word == "const" ||
                 q.word == "local") {
        // pointer attributes of kernel parameters: no effect on layout
      } else {
        error(q, "unexpected '." + q.word + "' in a declaration");
      }
    }
    if (!have_type) error(node, "declaration without a type");
  }

  // `.attribute(.managed)`, `.attribute(.unified(uuid1, uuid2))`, comma-separated (ISA 5.4.7-5.4.8).
  void apply_variable_attributes(const ast::DeclQualifier& q, Variable& v) {
    std::string list;
    for (char c : q.word.substr(q.word.find('(') + 1, q.word.size() - q.word.find('(') - 2))
      if (c != ' ' && c != '\t') list += c;
    std::size_t at = 0;
    while (at < list.size()) {
      std::size_t end = at;
      for (int depth = 0; end < list.size() && (depth > 0 || list[end] != ','); ++end)
        depth += list[end] == '(' ? 1 : list[end] == ')' ? -1 : 0;
      const std::string item = list.substr(at, end - at);
      if (item == ".managed") v.is_managed = true;
      else if (item.starts_with(".unified(") && item.back() == ')' && item.find(',') != std::string::npos) v.is_unified = true;
      else error(q, "unknown variable attribute '" + item + "' (ISA 5.4.8 defines .managed and .unified(uuid1, uuid2))");
      at = end + 1;
    }
  }

  // ISA 5.4.8: "This attribute can only be used with variables in .global state space."
  void check_attribute_space(const ast::Tagged& node, const Variable& v) {
    if ((v.is_managed || v.is_unified) && v.space != StateSpace::global)
      error(node, std::string(v.is_managed ? ".attribute(.managed)" : ".attribute(.unified)") +
                      " is only allowed on .global variables (ISA 5.4.8)");
  }

  void apply_declarator(const ast::Declarator& d, Variable& v) {
    v.name = d.name;
    v.ptx_line = line_of(d);
    v.count = 1;
    for (const auto& dim : d.dims) {
      if (!dim) v.count = 0;
      else v.count *= *dim;
    }
  }

  std::vector<Variable> make_variables(const ast::VarDecl& decl) {
    std::vector<Variable> out;
    auto space = state_space_from_name(decl.space);
    if (!space) {
      error(decl, "unknown state space '." + decl.space + "'");
      return out;
    }
    for (const auto& d : decl.names) {
      Variable v;
      v.space = *space;
      for (const auto& l : decl.linkage) {
        v.is_extern |= l == "extern";
        v.is_visible |= l == "visible";
        v.is_weak |= l == "weak";
      }
      apply_decl_qualifiers(decl, decl.qualifiers, v);
      check_attribute_space(decl, v);
      apply_declarator(d, v);
      if (d.range) {
        // `%r<N>` is a register range; only valid for .reg (handled by the caller).
        if (v.space != StateSpace::reg) error(d, "a parameterized name <N> is only allowed for registers");
      }
      if (d.init) lay_out_initializer(*d.init, v);
      out.push_back(std::move(v));
    }
    return out;
  }

  // ISA 5.4.4: scalars and (nested) braces fill elements in order; the rest is zero; a name is its address.
  void lay_out_initializer(const ast::Operand& init, Variable& v) {
    if (v.space != StateSpace::global && v.space != StateSpace::const_) {
      error(init, "only .global and .const variables can be initialized");
      return;
    }
    const unsigned elem = std::max(1u, v.type.size_bytes() / v.type.vector);
    std::vector<const ast::Operand*> scalars;
    std::function<void(const ast::Operand&)> flatten = [&](const ast::Operand& o) {
      if (auto* vec = boost::get<boost::spirit::x3::forward_ast<ast::Vector>>(&o.get()))
        for (const auto& e : vec->get().elements) flatten(e);
      else scalars.push_back(&o);
    };
    flatten(init);
    std::uint64_t elements = v.count ? v.count * v.type.vector : scalars.size();
    if (v.count == 0) v.count = (elements + v.type.vector - 1) / v.type.vector;
    if (scalars.size() > elements) {
      error(init, "too many initializers for '" + v.name + "'");
      return;
    }
    v.has_initializer = true;
    v.init.assign(v.count * v.type.size_bytes(), 0);
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      const auto& o = scalars[i]->get();
      std::uint64_t bits = 0;
      if (auto* n = boost::get<ast::IntImm>(&o)) {
        bits = n->negative ? ~n->magnitude + 1 : n->magnitude;
        if (is_float(v.type.scalar)) {
          double value = n->negative ? -static_cast<double>(n->magnitude) : static_cast<double>(n->magnitude);
          bits = float_bits(value, v.type.scalar);
        }
      } else if (auto* f = boost::get<ast::FloatImm>(&o)) {
        double value = f->is_f32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(f->bits)))
                                 : std::bit_cast<double>(f->bits);
        bits = f->is_f32 && v.type.scalar == ScalarType::f32 ? f->bits : float_bits(value, v.type.scalar);
        if (!is_float(v.type.scalar)) bits = f->bits;  // bit pattern into a .b type
      } else if (auto* so = boost::get<ast::SymbolOffset>(&o)) {
        v.relocations.push_back({i * elem, so->name, so->offset, so->generic, elem});
        continue;
      } else if (auto* sym = boost::get<ast::Symbol>(&o)) {
        v.relocations.push_back({i * elem, sym->name, 0, false, elem});
        continue;
      } else {
        error(*scalars[i], "unsupported initializer element");
        continue;
      }
      for (unsigned b = 0; b < elem && b < 8; ++b) v.init[i * elem + b] = static_cast<std::uint8_t>(bits >> (8 * b));
    }
  }

  // An initializer's value in the element's format, rounded to nearest even (ISA 5.4.4 initializers
  // are constant expressions evaluated as f64 and converted to the variable's type).
  static std::uint64_t float_bits(double value, ScalarType t) {
    switch (t) {
      case ScalarType::f32: return std::bit_cast<std::uint32_t>(static_cast<float>(value));
      case ScalarType::f16: return narrow_float(value, 5, 10);
      case ScalarType::bf16: return narrow_float(value, 8, 7);
      default: return std::bit_cast<std::uint64_t>(value);
    }
  }

  // f64 -> a binary format with `eb` exponent and `mb` mantissa bits, round to nearest even.
  static std::uint64_t narrow_float(double value, int eb, int mb) {
    const auto b = std::bit_cast<std::uint64_t>(value);
    const std::uint64_t sign = (b >> 63) << (eb + mb);
    const int exp = static_cast<int>((b >> 52) & 0x7ff);
    std::uint64_t mant = b & ((1ull << 52) - 1);
    const int max_exp = (1 << eb) - 1, bias = (1 << (eb - 1)) - 1;
    if (exp == 0x7ff) return sign | (std::uint64_t(max_exp) << mb) | (mant ? 1ull << (mb - 1) : 0);
    if (exp == 0 && mant == 0) return sign;
    int e = exp - 1023 + bias;
    if (e >= max_exp) return sign | (std::uint64_t(max_exp) << mb);
    int shift = 52 - mb;
    std::uint64_t result;
    if (e <= 0) {  // subnormal in the narrow format
      mant |= 1ull << 52;
      shift += 1 - e;
      if (shift >= 64) return sign;
      result = mant >> shift;
    } else {
      result = (std::uint64_t(e) << mb) | (mant >> shift);
    }
    const std::uint64_t rem = mant & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
    if (rem > halfway || (rem == halfway && (result & 1))) ++result;  // a carry may round up to infinity
    return sign | result;
  }

  // ---------------------------------------------------------------- function bodies
  void build_body(const ast::Function& f) {
    fn_ = &module_.functions[function_index_.at(f.name)];
    scopes_.assign(1, RegisterScope{});
    fn_vars_.clear();
    label_fixups_.clear();
    label_scopes_.clear();
    label_names_.clear();
    current_loc_ = SourceLoc{};
    chain_at_.clear();
    for (std::size_t i = 0; i < fn_->params.size(); ++i) bind_param(fn_->params[i], VarRef{VarRef::Where::Param, std::uint32_t(i)});
    for (std::size_t i = 0; i < fn_->returns.size(); ++i) bind_param(fn_->returns[i], VarRef{VarRef::Where::Return, std::uint32_t(i)});
    walk_block(*f.body);
    for (const auto& fix : label_fixups_) {
      auto it = fn_->labels.find(fix.ir_name);
      if (it == fn_->labels.end()) {
        error(*fix.node, "undefined label '" + fix.name + "'");
        continue;
      }
      Operand* o = &fn_->body[fix.instruction].operands[fix.path[0]];
      for (std::size_t k = 1; k < fix.path.size(); ++k) o = &o->elements[fix.path[k]];
      o->target = static_cast<std::int32_t>(it->second);
      if (fn_->body[fix.instruction].op == Opcode::brx_ && fix.path == std::vector<std::size_t>{1}) resolve_branch_targets(*fix.node, fix, *o);
    }
    fn_ = nullptr;
  }

  // ISA 9.7.12.4 brx.idx index, tlist: "The tlist operand must be the label of a .branchtargets directive" of this
  // function; its labels become the operand's elements (each a Label), so that an engine indexes them directly.
  void resolve_branch_targets(const ast::Tagged& node, const LabelFixup& fix, Operand& o) {
    auto list = fn_->branch_targets.find(fix.ir_name);
    if (list == fn_->branch_targets.end()) {
      error(node, "'" + fix.name + "' is not the label of a .branchtargets directive (ISA 9.7.12.4)");
      return;
    }
    for (const auto& name : list->second) {
      Operand t;
      t.kind = Operand::Kind::Label;
      t.target = static_cast<std::int32_t>(fn_->labels.at(name));
      o.elements.push_back(t);
    }
  }

  // A `.reg` parameter (legacy ABI) is a register; a `.param` parameter is a variable.
  void bind_param(const Variable& p, VarRef ref) {
    if (p.space == StateSpace::reg) declare_register(p.name, p.type);
    else fn_vars_[p.name] = ref;
  }

  std::int32_t declare_register(const std::string& name, Type type) {
    auto index = static_cast<std::int32_t>(fn_->registers.size());
    fn_->registers.push_back({name, type});
    scopes_.back().names[name] = index;
    return index;
  }

  // Labels are scoped to their `{ }` block like variables (ISA 9.7.12.1: the braces determine scope; ptxas takes
  // the same label in two blocks, as inline asm expanded twice produces). Each block's labels are declared on
  // entry, so a branch may jump forward; a name declared again in an inner block gets a unique IR name
  // (`name$N`) and references resolve to the innermost declaration.
  void declare_block_labels(const ast::Block& block) {
    auto& scope = label_scopes_.emplace_back();
    for (const auto& st : block.statements) {
      const auto* label = boost::get<ast::Label>(&st.get());
      if (!label) continue;
      if (scope.count(label->name)) {
        error(label->id_first >= 0 ? static_cast<const ast::Tagged&>(*label) : st, "duplicate label '" + label->name + "'");
        continue;
      }
      std::string unique = label->name;
      for (unsigned n = 1; !label_names_.insert(unique).second; ++n) unique = label->name + "$" + std::to_string(n);
      scope[label->name] = unique;
    }
  }
  // The IR name of label `name` as seen from the current block; empty when no enclosing block declares it (a label
  // of an inner or sibling block is out of scope: ptxas says "Unknown symbol").
  std::string resolve_label(const std::string& name) const {
    for (auto it = label_scopes_.rbegin(); it != label_scopes_.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) return f->second;
    return {};
  }
  std::vector<std::map<std::string, std::string>> label_scopes_;
  std::set<std::string> label_names_;

  void walk_block(const ast::Block& block) {
    declare_block_labels(block);
    for (const auto& st : block.statements) {
      const auto& v = st.get();
      if (auto* label = boost::get<ast::Label>(&v)) {
        const std::string name = resolve_label(label->name);
        if (!fn_->labels.count(name)) fn_->labels[name] = static_cast<std::uint32_t>(fn_->body.size());
        last_label_ = name;
      } else if (auto* ins = boost::get<ast::Instruction>(&v)) {
        add_instruction(*ins);
      } else if (auto* decl = boost::get<ast::VarDecl>(&v)) {
        declare_in_body(*decl);
      } else if (auto* loc = boost::get<ast::Loc>(&v)) {
        set_loc(*loc);
      } else if (auto* d = boost::get<ast::Directive>(&v)) {
        body_directive(*d);
      } else if (auto* nested = boost::get<boost::spirit::x3::forward_ast<ast::Block>>(&v)) {
        scopes_.emplace_back();
        walk_block(nested->get());
        scopes_.pop_back();
      }
    }
    label_scopes_.pop_back();
  }
  std::string last_label_;

  void body_directive(const ast::Directive& d) {
    if (d.name == "callprototype") {
      fn_->prototypes[last_label_] = d.strings.empty() ? "" : d.strings[0];
    } else if (d.name == "branchtargets" || d.name == "calltargets") {
      auto& targets = fn_->branch_targets[last_label_];
      for (const auto& a : d.arguments)
        if (auto* s = boost::get<ast::Symbol>(&a.get())) {
          const std::string name = resolve_label(s->name);
          if (name.empty()) error(d, "undefined label '" + s->name + "' in ." + d.name);
          else targets.push_back(name);
        }
    } else if (d.name != "pragma" && d.name != "maxnreg" && d.name != "maxntid" && d.name != "reqntid" &&
               d.name != "minnctapersm") {
      error(d, "unknown directive '." + d.name + "' in a function body");
    }
  }

  void declare_in_body(const ast::VarDecl& decl) {
    auto space = state_space_from_name(decl.space);
    if (space == StateSpace::reg) {
      Variable proto;
      apply_decl_qualifiers(decl, decl.qualifiers, proto);
      for (const auto& d : decl.names) {
        if (d.range) scopes_.back().ranges[d.name] = {*d.range, proto.type};
        else declare_register(d.name, proto.type);
      }
      return;
    }
    for (auto& var : make_variables(decl)) {
      if (var.space == StateSpace::global || var.space == StateSpace::const_) {
        // ISA 5.1: .global/.const inside a function are still module-lifetime variables, visible in the function.
      }
      fn_vars_[var.name] = VarRef{VarRef::Where::Local, static_cast<std::uint32_t>(fn_->locals.size())};
      fn_->locals.push_back(std::move(var));
    }
  }

  // ISA 11.6.2 `.loc F L C, function_name N, inlined_at F2 L2 C2`: the code at F L C was inlined at F2 L2 C2. nvcc
  // emits a chain outermost-first, one `.loc P, inlined_at Q` per link, so Q's own call sites are those of Q in
  // the current chain (Q may equal P: operator++ calling fetch_add at the same position), else those of the
  // latest `.loc` at Q.
  void set_loc(const ast::Loc& loc) {
    using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
    auto key = [](const SourcePos& p) { return Key{p.file, p.line, p.column}; };
    std::vector<SourcePos> chain{{loc.file, loc.line, loc.column}};  // innermost first
    if (auto q = inlined_at(loc)) {
      std::vector<SourcePos> current{current_loc_.pos};
      current.insert(current.end(), current_loc_.inlined_at.begin(), current_loc_.inlined_at.end());
      auto it = std::find_if(current.begin(), current.end(), [&](const SourcePos& p) { return key(p) == key(*q); });
      if (it != current.end() && current_loc_.pos.file) chain.insert(chain.end(), it, current.end());
      else if (auto c = chain_at_.find(key(*q)); c != chain_at_.end()) chain.insert(chain.end(), c->second.begin(), c->second.end());
      else chain.push_back(*q);
    }
    if (chain.size() > 64) chain.resize(64);
    chain_at_[key(chain[0])] = chain;
    current_loc_.pos = chain[0];
    current_loc_.inlined_at.assign(chain.begin() + 1, chain.end());
  }

  // The `inlined_at F L C` attribute of a `.loc`, if it has one.
  static std::optional<SourcePos> inlined_at(const ast::Loc& loc) {
    for (const auto& attr : loc.attributes) {
      std::string_view a(attr);
      while (!a.empty() && (a.front() == ' ' || a.front() == '\t')) a.remove_prefix(1);
      if (a.substr(0, 10) != "inlined_at") continue;
      unsigned values[3] = {0, 0, 0};
      unsigned n = 0;
      for (std::size_t i = 10; i < a.size() && n < 3;) {
        while (i < a.size() && (a[i] < '0' || a[i] > '9')) ++i;
        if (i >= a.size()) break;
        unsigned x = 0;
        while (i < a.size() && a[i] >= '0' && a[i] <= '9') x = x * 10 + unsigned(a[i++] - '0');
        values[n++] = x;
      }
      return SourcePos{values[0], values[1], values[2]};
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------- instructions
  void add_instruction(const ast::Instruction& ins) {
    Instruction out;
    auto op = opcode_from_name(ins.opcode);
    if (!op) {
      error(ins, "unknown instruction '" + ins.opcode + "'");
      return;
    }
    out.op = *op;
    const OpcodeInfo& info = kOpcodes[static_cast<std::size_t>(*op)];
    out.loc = current_loc_;
    out.loc.ptx_line = line_of(ins);
    decode_qualifiers(ins, out);
    if (ins.guard) {
      out.guard = lookup_register(ins.guard->predicate);
      out.guard_negated = ins.guard->negated;
      if (out.guard < 0) error(*ins.guard, "undeclared predicate '" + ins.guard->predicate + "'");
      else if (fn_->registers[out.guard].type.scalar != ScalarType::pred)
        error(*ins.guard, "guard '" + ins.guard->predicate + "' is not a .pred register");
    }
    check_form(ins, out);
    const auto [min_operands, max_operands] = operand_count(out, info);
    if (ins.operands.size() < min_operands || ins.operands.size() > max_operands) {
      error(ins, "'" + opcode_text(out) + "' takes " + std::to_string(min_operands) +
                     (min_operands == max_operands ? "" : "-" + std::to_string(max_operands)) +
                     (max_operands == 1 ? " operand" : " operands") + ", not " + std::to_string(ins.operands.size()));
    }
    const auto index = static_cast<std::uint32_t>(fn_->body.size());
    for (std::size_t i = 0; i < ins.operands.size(); ++i) {
      std::vector<std::size_t> path{i};
      out.operands.push_back(resolve(ins.operands[i], index, path, out));
    }
    check_operands(ins, out);
    check_misc(ins, out);
    check_video(ins, out);
    check_type_count(ins, out);
    check_qualifier_classes(ins, out);
    fn_->body.push_back(std::move(out));
  }

  // How many operands an instruction takes: the opcode's row in opcodes.def, but for the forms whose counts
  // differ within one opcode:
  // - the `cp.async` group controls (ISA 9.7.9.25.3 and 9.7.9.25.4.x): `cp.async.commit_group`, `cp.async.wait_all`
  //   and `cp.async.bulk.commit_group` take none, `cp.async.wait_group N`, `cp.async.bulk.wait_group[.read] N` and
  //   `cp.async.mbarrier.arrive[.noinc] [addr]` one;
  // - barriers: `bar{.cta}.sync a{, b}`, `bar{.cta}.arrive a, b`, `bar{.cta}.red.op d, a{, b}, {!}c` (9.7.13.1),
  //   `bar.warp.sync membermask` (9.7.13.2), `barrier.cluster.arrive` / `.wait` none (9.7.13.3);
  // - mbarrier (9.7.13.15.9-17): init [addr], count; inval [addr]; expect_tx / complete_tx [addr], txCount;
  //   arrive and arrive_drop state, [addr]{, count}, with .expect_tx or .noComplete state, [addr], count;
  //   test_wait waitComplete, [addr], state|parity; try_wait the same {, suspendTimeHint}; pending_count count, state.
  // A form none of these names is an error (check_form).
  static std::pair<std::size_t, std::size_t> operand_count(const Instruction& out, const OpcodeInfo& info) {
    switch (out.op) {
      case Opcode::cp_:
        if (out.q.has_word("commit_group") || out.q.has_word("wait_all")) return {0, 0};
        // cp.async.bulk.prefetch.tensor [tensorMap, coords] {, im2colInfo} {, cache-policy} (ISA 9.7.9.25.5.4)
        if (out.q.has_word("prefetch") && out.q.has_word("tensor")) return {1, 3};
        if (out.q.has_word("wait_group") || out.q.has_word("arrive")) return {1, 1};
        break;
      case Opcode::bar_: case Opcode::barrier_:
        if (is_cluster_barrier(out)) return {0, 0};
        if (out.q.has(Flag::warp)) return {1, 1};
        if (out.q.has(Flag::red)) return {3, 4};
        if (out.q.has(Flag::arrive)) return {2, 2};
        if (out.q.has(Flag::sync)) return {1, 2};
        break;
      case Opcode::mbarrier_:
        switch (mbarrier_op(out)) {
          case MbarrierOp::inval: return {1, 1};
          case MbarrierOp::init: case MbarrierOp::expect_tx: case MbarrierOp::complete_tx: case MbarrierOp::pending_count:
            return {2, 2};
          case MbarrierOp::arrive:
            if (out.q.has(Flag::expect_tx) || out.q.has_word("noComplete")) return {3, 3};
            return {2, 3};
          case MbarrierOp::wait: return {3, out.q.has(Flag::try_wait) ? 4u : 3u};
          default: break;
        }
        break;
      default: break;
    }
    return {info.min_operands, info.max_operands};
  }

  // The forms of the synchronization opcodes (ISA 9.7.13.1-3, 9.7.13.15): one that names no operation is an
  // error, so that later passes can read each form's operands by position.
  void check_form(const ast::Instruction& ins, const Instruction& out) {
    if (out.op == Opcode::bar_ || out.op == Opcode::barrier_) {
      if (is_cluster_barrier(out) ? !(out.q.has(Flag::arrive) || out.q.has(Flag::wait))
                                  : !(out.q.has(Flag::sync) || out.q.has(Flag::arrive) || out.q.has(Flag::red)))
        error(ins, "'" + opcode_text(out) + "' names no barrier operation (" +
                       (is_cluster_barrier(out) ? ".arrive or .wait, ISA 9.7.13.3)" : ".sync, .arrive or .red, ISA 9.7.13.1)"));
    } else if (out.op == Opcode::mbarrier_ && mbarrier_op(out) == MbarrierOp::none) {
      error(ins, "'" + opcode_text(out) + "' names no mbarrier operation (ISA 9.7.13.15)");
    }
  }

  // The resolved operands of setmaxnreg (ISA 9.7.19.5) and the stack instructions (9.7.17): semantics/ir/misc_forms.hpp.
  void check_misc(const ast::Instruction& ins, const Instruction& out) {
    std::string why;
    if (out.op == Opcode::setmaxnreg_) why = setmaxnreg_error(out);
    else if (out.op == Opcode::alloca_ || out.op == Opcode::stacksave_ || out.op == Opcode::stackrestore_) why = stack_form_error(out);
    else why = memory_order_error(out);
    if (why.empty()) why = fence_form_error(out);  // membar / fence (9.7.13.4): semantics/ir/fence_form.hpp
    if (!why.empty()) error(ins, why);
  }

  // Video selectors and negations only where the ISA's syntax puts them (ISA 9.7.18, semantics/ir/video_select.hpp),
  // reported at the operand that carries one.
  void check_video(const ast::Instruction& ins, const Instruction& out) {
    for (std::size_t i = 0; i < out.operands.size() && i < ins.operands.size(); ++i)
      if (auto why = video_operand_error(out, i); !why.empty()) error(ins.operands[i], why);
    if (auto why = video_form_error(out); !why.empty()) error(ins, why);
  }

  // Qualifier classes no syntax of ISA 9.7 repeats or gives where it does not belong: one scope, one memory order,
  // one rounding and one vector width at most (a second one, or the same word twice, is what ptxas calls "Multiple
  // scope modifiers" and "Duplicate modifier"), the same state space not twice, and none of a memory order, a scope
  // or a state space on an instruction that computes a register value (9.7.1-9.7.8, 9.7.18: their syntax lists
  // none; `add.s32.relaxed` would otherwise run as add).
  void check_qualifier_classes(const ast::Instruction& ins, const Instruction& out) {
    struct Class { const char* what; bool (*is)(std::string_view); bool distinct_allowed; };
    static constexpr Class kClasses[] = {
        {"scope", [](std::string_view w) { return scope_from(w).has_value(); }, false},
        // .mmio comes with .relaxed (ld.mmio.relaxed.sys, 9.7.9.8): it is counted apart.
        {"memory order", [](std::string_view w) { return w != "mmio" && memory_semantics_from_name(w).has_value(); }, false},
        {"rounding", [](std::string_view w) { return rounding_from(w).has_value(); }, false},
        {"vector width", [](std::string_view w) { return w == "v2" || w == "v4" || w == "v8"; }, false},
        {"state space", [](std::string_view w) { return w != "reg" && w != "sreg" && state_space_from_name(w).has_value(); }, true},
    };
    const auto& words = out.q.words;
    const std::string_view group = kOpcodes[static_cast<std::size_t>(out.op)].group;
    const bool value = group == "integer" || group == "float" || group == "compare" || group == "logic" ||
                       group == "convert" || group == "data" || group == "video";
    for (const Class& c : kClasses) {
      std::vector<std::string_view> seen;
      for (const auto& w : words) {
        if (!c.is(w)) continue;
        if (value && std::string_view(c.what) != "rounding" && std::string_view(c.what) != "vector width")
          return error(ins, "'." + w + "': " + opcode_text(out) + " computes a register value and takes no " + c.what +
                                " (ISA 9.7)");
        if (std::find(seen.begin(), seen.end(), w) != seen.end())
          return error(ins, "'." + w + "' is written twice in " + opcode_text(out) + " (ISA 9.7)");
        if (!seen.empty() && !c.distinct_allowed)
          return error(ins, opcode_text(out) + " names two of one kind, '." + std::string(seen[0]) + "' and '." + w + "' (one " + c.what +
                                " at most, ISA 9.7)");
        seen.push_back(w);
      }
    }
  }

  // How many type qualifiers each instruction takes (ISA 9.7, each instruction's syntax): most take one,
  // conversions and `set`/`slct`/`dp2a`/`dp4a` two, control flow and fences none. Texture, video, matrix,
  // bulk-copy and mbarrier forms vary too much for a count and are not checked here.
  void check_type_count(const ast::Instruction& ins, const Instruction& out) {
    const auto group = std::string_view(kOpcodes[static_cast<std::size_t>(out.op)].group);
    if (group == "texture" || group == "video" || group == "matrix" || group == "async") return;
    unsigned lo = 1, hi = 1;
    switch (out.op) {
      case Opcode::cvt_: lo = 2; hi = 3; break;  // cvt.frnd2 / cvt.pack forms carry a third
      case Opcode::set_: case Opcode::slct_: case Opcode::dp2a_: case Opcode::dp4a_: lo = hi = 2; break;
      case Opcode::bra_: case Opcode::brx_: case Opcode::call_: case Opcode::ret_: case Opcode::exit_:
      case Opcode::membar_: case Opcode::fence_: case Opcode::isspacep_: case Opcode::prefetch_:
      case Opcode::prefetchu_: case Opcode::applypriority_: case Opcode::discard_: case Opcode::trap_:
      case Opcode::brkpt_: case Opcode::griddepcontrol_: case Opcode::elect_: case Opcode::pmevent_:
        lo = hi = 0; break;
      case Opcode::bar_: case Opcode::barrier_: lo = 0; hi = 1; break;  // bar.red.popc.u32 / .pred
      case Opcode::st_: if (out.q.has(Flag::bulk)) lo = hi = 0; break;  // st.bulk [a], size, initval (9.7.9.13)
      case Opcode::add_: case Opcode::sub_: case Opcode::fma_: {  // 9.7.5 mixed precision: .f32.{f16,bf16}
        const auto& t = out.q.types;
        if (t.size() == 2 && t[0].scalar == ScalarType::f32 && (t[1].scalar == ScalarType::f16 || t[1].scalar == ScalarType::bf16)) lo = hi = 2;
        break;
      }
      case Opcode::cp_: case Opcode::mbarrier_: case Opcode::setmaxnreg_: case Opcode::stackrestore_: return;
      default: break;
    }
    // .f32x2 (two .f32 in a .b64) is a type of add, sub, mul and fma only, without .sat (ISA 9.7.3.3-9.7.3.6).
    for (const auto& t : out.q.types)
      if (t.scalar == ScalarType::f32x2) {
        if (out.op != Opcode::add_ && out.op != Opcode::sub_ && out.op != Opcode::mul_ && out.op != Opcode::fma_)
          error(ins, "'.f32x2' is a type of add, sub, mul and fma only (ISA 9.7.3.3-9.7.3.6)");
        else if (out.q.has(Flag::sat))
          error(ins, "'" + ins.opcode + ".f32x2' has no .sat (ISA 9.7.3.3-9.7.3.6)");
      }
    const auto n = static_cast<unsigned>(out.q.types.size());
    if (n < lo || n > hi) {
      std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
      error(ins, "'" + ins.opcode + "' takes " + want + " type qualifier" + (hi == 1 ? "" : "s") + ", not " +
                     std::to_string(n));
    }
  }

  void decode_qualifiers(const ast::Instruction& ins, Instruction& out) {
    for (const auto& w : ir::decode_qualifiers(out.op, ins.qualifiers, out.q))
      error(ins, "unknown qualifier '." + w + "' for '" + ins.opcode + "'");
  }

  // Looks a register name up through the lexical scopes, expanding `%r<N>` ranges on first use.
  std::int32_t lookup_register(const std::string& name) {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (auto it = s->names.find(name); it != s->names.end()) return it->second;
      std::size_t digits = name.size();
      while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
      if (digits == name.size() || digits == 0) continue;
      if (auto r = s->ranges.find(name.substr(0, digits)); r != s->ranges.end()) {
        // ISA 5.4.5 (parameterized names): %r<N> declares %r0 .. %r(N-1); no leading zeros.
        const std::string number = name.substr(digits);
        if (number.size() > 1 && number[0] == '0') continue;
        if (number.size() > 10 || std::stoull(number) >= r->second.first) continue;  // > 10 digits: out of any range
        auto index = static_cast<std::int32_t>(fn_->registers.size());
        fn_->registers.push_back({name, r->second.second});
        s->names[name] = index;
        return index;
      }
    }
    return -1;
  }

  std::optional<VarRef> lookup_variable(const std::string& name) const {
    if (auto it = fn_vars_.find(name); it != fn_vars_.end()) return it->second;
    if (auto it = global_index_.find(name); it != global_index_.end())
      return VarRef{VarRef::Where::Global, static_cast<std::uint32_t>(it->second)};
    return std::nullopt;
  }

  static std::pair<std::string, std::int8_t> split_component(const std::string& name) {
    static const std::string comps = "xyzw";
    static const std::string rgba = "rgba";
    if (name.size() > 2 && name[name.size() - 2] == '.') {
      char c = name.back();
      auto p = comps.find(c);
      if (p == std::string::npos) p = rgba.find(c);
      if (p != std::string::npos) return {name.substr(0, name.size() - 2), static_cast<std::int8_t>(p)};
    }
    return {name, -1};
  }

  Operand resolve(const ast::Operand& in, std::uint32_t ins_index, std::vector<std::size_t>& path, const Instruction& ins) {
    Operand o;
    const auto& v = in.get();
    if (auto* s = boost::get<ast::Symbol>(&v)) {
      o.negated = s->negated;
      o.minus = s->minus;
      if (!s->select.empty()) {  // which instruction may take it is checked once resolved (check_video)
        if (auto sel = parse_video_select(s->select)) o.select = *sel;
        else error(in, "unknown video selector '." + s->select + "' (ISA 9.7.18)");
      }
      if (s->name == "_") { o.kind = Operand::Kind::Sink; return o; }
      auto [base, component] = split_component(s->name);
      if (std::int32_t r = lookup_register(s->name); r >= 0) { o.kind = Operand::Kind::Register; o.reg = r; return o; }
      if (std::int32_t r = lookup_register(base); r >= 0 && component >= 0) {
        o.kind = Operand::Kind::Register; o.reg = r; o.component = component; return o;
      }
      if (s->name == "WARP_SZ") {
        // ISA 4.4.2: WARP_SZ is a run-time immediate constant, 32 on every target to date.
        o.kind = Operand::Kind::Immediate;
        o.imm = 32;
        return o;
      }
      unsigned special_index = 0;
      if (auto sr = special_register_from_name(base, &special_index)) {
        o.kind = Operand::Kind::Special;
        o.special = *sr;
        o.component = component;
        o.imm = special_index;
        return o;
      }
      if (auto var = lookup_variable(s->name)) { o.kind = Operand::Kind::Variable; o.var = *var; return o; }
      if (auto it = function_index_.find(s->name); it != function_index_.end()) {
        o.kind = Operand::Kind::Function;
        o.target = static_cast<std::int32_t>(it->second);
        return o;
      }
      if (ins.op == Opcode::bra_ || ins.op == Opcode::brx_ || ins.op == Opcode::call_) {
        // A label (possibly defined later): patched once the whole body is known.
        o.kind = Operand::Kind::Label;
        label_fixups_.push_back({ins_index, path, s->name, resolve_label(s->name), &in});
        return o;
      }
      error(in, "undeclared name '" + s->name + "'");
      return o;
    }
    if (auto* n = boost::get<ast::IntImm>(&v)) {
      o.kind = Operand::Kind::Immediate;
      o.imm = n->negative ? ~n->magnitude + 1 : n->magnitude;
      return o;
    }
    if (auto* f = boost::get<ast::FloatImm>(&v)) {
      o.kind = Operand::Kind::FloatImm;
      o.imm = f->bits;
      o.is_f32 = f->is_f32;
      return o;
    }
    if (auto* a = boost::get<boost::spirit::x3::forward_ast<ast::Address>>(&v)) {
      const auto& addr = a->get();
      o.kind = Operand::Kind::Address;
      o.offset = addr.offset;
      if (addr.base.empty()) {
        o.base_kind = Operand::BaseKind::Immediate;
      } else if (std::int32_t r = lookup_register(addr.base); r >= 0) {
        o.base_kind = Operand::BaseKind::Register;
        o.reg = r;
      } else if (auto var = lookup_variable(addr.base)) {
        o.base_kind = Operand::BaseKind::Variable;
        o.var = *var;
      } else if (auto sr = special_register_from_name(split_component(addr.base).first)) {
        error(in, "a special register cannot be an address base");
      } else {
        error(in, "undeclared name '" + addr.base + "' in address");
      }
      for (std::size_t i = 0; i < addr.extra.size(); ++i) {
        path.push_back(i);
        o.elements.push_back(resolve(addr.extra[i], ins_index, path, ins));
        path.pop_back();
      }
      return o;
    }
    auto resolve_list = [&](const std::vector<ast::Operand>& elements, Operand::Kind kind) {
      o.kind = kind;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        path.push_back(i);
        o.elements.push_back(resolve(elements[i], ins_index, path, ins));
        path.pop_back();
      }
      return o;
    };
    if (auto* vec = boost::get<boost::spirit::x3::forward_ast<ast::Vector>>(&v))
      return resolve_list(vec->get().elements, Operand::Kind::Vector);
    if (auto* list = boost::get<boost::spirit::x3::forward_ast<ast::ParenList>>(&v))
      return resolve_list(list->get().elements, Operand::Kind::List);
    if (auto* pp = boost::get<ast::PredPair>(&v)) {
      // `_` in place of one of the two (ISA 9.7.7.1, 9.7.8.6, 9.7.13.11): register -1, a write that goes nowhere.
      o.kind = Operand::Kind::PredPair;
      o.reg = pp->first == "_" ? -1 : lookup_register(pp->first);
      o.reg2 = pp->second == "_" ? -1 : lookup_register(pp->second);
      if (pp->first == "_" && pp->second == "_") error(in, "the sink symbol '_' may stand for only one of the two destinations");
      if (o.reg < 0 && pp->first != "_") error(in, "undeclared predicate '" + pp->first + "'");
      if (o.reg2 < 0 && pp->second != "_") error(in, "undeclared predicate '" + pp->second + "'");
      return o;
    }
    if (auto* so = boost::get<ast::SymbolOffset>(&v)) {
      auto var = lookup_variable(so->name);
      if (std::int32_t r = var ? -1 : lookup_register(so->name); r >= 0 && !so->generic) {
        // `reg+imm` as a source operand (ptxas takes `st.u64 [x], %rd1+1;`): the value reg + imm, summed at the
        // register's width as an address operand's is (ISA 6.4.1).
        o.kind = Operand::Kind::Address;
        o.base_kind = Operand::BaseKind::Register;
        o.reg = r;
        o.offset = so->offset;
        return o;
      }
      if (!var) {
        error(in, "undeclared name '" + so->name + "'");
        return o;
      }
      o.kind = Operand::Kind::Address;  // the address value var+offset (mov r, x+4)
      o.base_kind = Operand::BaseKind::Variable;
      o.var = *var;
      o.offset = so->offset;
      return o;
    }
    error(in, "unsupported operand");
    return o;
  }

  // Structural checks that hold for every instruction: the destination is writable, branch targets are
  // labels, memory instructions address memory (ISA 9.7: each instruction's syntax).
  void check_operands(const ast::Instruction& ins, const Instruction& out) {
    auto is_writable = [](const Operand& o) {
      return o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Sink || o.kind == Operand::Kind::Vector ||
             o.kind == Operand::Kind::PredPair;
    };
    const auto group = std::string_view(kOpcodes[static_cast<std::size_t>(out.op)].group);
    if (out.operands.empty()) return;
    switch (out.op) {
      case Opcode::st_: case Opcode::red_: case Opcode::sust_: case Opcode::sured_:
        if (out.operands[0].kind != Operand::Kind::Address) error(ins, std::string("'") + ins.opcode + "' needs an address as its first operand");
        return;
      case Opcode::bra_:
        if (out.operands[0].kind != Operand::Kind::Label) error(ins, "'bra' needs a label");
        return;
      case Opcode::call_: case Opcode::bar_: case Opcode::barrier_: case Opcode::prefetch_: case Opcode::prefetchu_:
      case Opcode::fence_: case Opcode::nanosleep_: case Opcode::pmevent_: case Opcode::brx_: case Opcode::mbarrier_:
      case Opcode::cp_: case Opcode::wgmma_: case Opcode::stackrestore_: case Opcode::setmaxnreg_:
      case Opcode::applypriority_: case Opcode::discard_: case Opcode::vote_: case Opcode::stmatrix_:
        return;
      default:
        break;
    }
    if (group == "matrix" || group == "texture" || group == "async") return;  // stores and loads alike: [a] or d first
    if (!is_writable(out.operands[0])) error(ins, std::string("the destination of '") + ins.opcode + "' must be a register");
    if ((out.op == Opcode::ld_ || out.op == Opcode::ldu_ || out.op == Opcode::atom_) && out.operands.size() > 1 &&
        out.operands[1].kind != Operand::Kind::Address)
      error(ins, std::string("'") + ins.opcode + "' needs an address as its second operand");
  }
};

}  // namespace

namespace {
std::optional<Rounding> rounding_from(std::string_view w) {
  static const char* names[] = {"rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi"};
  for (std::size_t i = 0; i < std::size(names); ++i) if (w == names[i]) return static_cast<Rounding>(i);
  return std::nullopt;
}
std::optional<CompareOp> compare_from(std::string_view w) {
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (std::size_t i = 0; i < std::size(names); ++i) if (w == names[i]) return static_cast<CompareOp>(i);
  return std::nullopt;
}
std::optional<AtomOp> atom_op_from(std::string_view w) {
  static const char* names[] = {"and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max"};
  for (std::size_t i = 0; i < std::size(names); ++i) if (w == names[i]) return static_cast<AtomOp>(i);
  return std::nullopt;
}
std::optional<ir::Scope> scope_from(std::string_view w) {
  static const char* names[] = {"cta", "cluster", "gpu", "sys"};
  for (std::size_t i = 0; i < std::size(names); ++i) if (w == names[i]) return static_cast<ir::Scope>(i);
  return std::nullopt;
}
}  // namespace

std::vector<std::string> decode_qualifiers(Opcode op, const std::vector<std::string>& words, Qualifiers& q) {
  std::vector<std::string> unknown;
  const bool compares = op == Opcode::set_ || op == Opcode::setp_ || op == Opcode::vset_ || op == Opcode::vset2_ || op == Opcode::vset4_;
  const bool atomic_ops = op == Opcode::atom_ || op == Opcode::red_ || op == Opcode::redux_ ||
                          op == Opcode::bar_ || op == Opcode::barrier_ ||
                          op == Opcode::sured_;  // sured.b.op (ISA 9.7.11.3)
  const std::string_view group = kOpcodes[static_cast<std::size_t>(op)].group;
  const bool matrix = group == "matrix" || group == "async" || op == Opcode::cp_ || op == Opcode::mbarrier_;
  for (const auto& w : words) {
    q.words.push_back(w);
    if (auto t = scalar_type_from_name(w)) { q.types.push_back({*t, 1}); continue; }
    if (auto s = state_space_from_name(w); s && w != "reg" && w != "sreg") {
      (q.space ? q.space2 : q.space) = *s;
      continue;
    }
    if (w == "v2" || w == "v4" || w == "v8") { q.vector_width = static_cast<std::uint8_t>(w[1] - '0'); continue; }
    if (auto r = rounding_from(w)) { q.rounding = *r; continue; }
    if (compares || op == Opcode::slct_) {
      if (auto c = compare_from(w)) { q.compare = *c; continue; }
      if (w == "and" || w == "or" || w == "xor") { q.bool_op = w == "and" ? BoolOp::and_ : w == "or" ? BoolOp::or_ : BoolOp::xor_; continue; }
    }
    if (op == Opcode::lop3_ && (w == "and" || w == "or")) {  // lop3.BoolOp, .BoolOp = { .or, .and } (ISA 9.7.8.6)
      q.bool_op = w == "and" ? BoolOp::and_ : BoolOp::or_;
      continue;
    }
    if (atomic_ops || op == Opcode::vote_ || std::string_view(kOpcodes[static_cast<std::size_t>(op)].group) == "video") {
      if (auto a = atom_op_from(w)) { q.atom_op = *a; continue; }
    }
    if (auto m = memory_semantics_from_name(w)) { q.semantics = *m; continue; }
    if (auto s = scope_from(w)) { q.scope = *s; continue; }
    if (w == "gl") { q.scope = ir::Scope::gpu; q.flags.push_back(Flag::gl); continue; }
    if (auto f = flag_from_name(w)) { q.flags.push_back(*f); continue; }
    // tld4's .g / .a components (9.7.10.4), tex.base (9.7.10.3), txq.force_unnormalized_coords (9.7.10.5) and
    // suq.memory_layout (9.7.11.4): kept as words, read by the interpreter (texture.cpp, surface.cpp).
    if (group == "texture" && (w == "g" || w == "a" || w == "base" || w == "force_unnormalized_coords" || w == "memory_layout")) continue;
    // Matrix, bulk-copy and mbarrier shapes (m16n8k16, row, col, bytes, ...) are kept as words; these
    // instructions are reported as unsupported by the interpreter rather than decoded here.
    if (matrix) continue;
    unknown.push_back(w);
  }
  return unknown;
}

const char* opcode_name(Opcode op) { return kOpcodes[static_cast<std::size_t>(op)].name; }

std::pair<unsigned, unsigned> opcode_operand_range(Opcode op) {
  const OpcodeInfo& info = kOpcodes[static_cast<std::size_t>(op)];
  return {info.min_operands, info.max_operands};
}

OpcodeGroup opcode_group(Opcode op) {
  static constexpr OpcodeGroup kGroups[] = {
#define PTX_OPCODE(name, min_ops, max_ops, group, effect) OpcodeGroup::group##_,
#include "semantics/ir/opcodes.def"
#undef PTX_OPCODE
  };
  return kGroups[static_cast<std::size_t>(op)];
}

std::optional<Opcode> opcode_from_name(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kOpcodes); ++i)
    if (name == kOpcodes[i].name) return static_cast<Opcode>(i);
  return std::nullopt;
}

bool Qualifiers::has(Flag f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }

const Function* Module::find_function(std::string_view name) const {
  for (const auto& f : functions) if (f.name == name) return &f;
  return nullptr;
}
const Variable* Module::find_global(std::string_view name) const {
  for (const auto& v : globals) if (v.name == name) return &v;
  return nullptr;
}
std::vector<const Function*> Module::kernels() const {
  std::vector<const Function*> out;
  for (const auto& f : functions) if (f.is_entry) out.push_back(&f);
  return out;
}

std::vector<const Function*> Module::kernels_named(std::string_view name) const {
  std::vector<const Function*> exact, by_cxx_name;
  for (const Function* f : kernels()) {
    if (f->name == name) exact.push_back(f);
    const std::string cxx = kernel_cxx_name(f->name);
    const std::string without_params = cxx.substr(0, ptxcheck::names::parameter_list_start(cxx));
    const std::string without_template_args = without_params.substr(0, without_params.find('<'));
    if (name == cxx || name == without_params || name == without_template_args) by_cxx_name.push_back(f);
  }
  return exact.empty() ? by_cxx_name : exact;
}

std::string Module::no_single_kernel_named(std::string_view name) const {
  const auto named = kernels_named(name);
  std::string out = named.empty() ? "no kernel named " + std::string(name)
                                  : std::string(name) + " names " + std::to_string(named.size()) + " kernels (overloads or template instances): give one";
  std::string list;
  for (const Function* f : kernels()) list += (list.empty() ? "" : ", ") + kernel_title(f->name);
  return out + (list.empty() ? "; the module has no kernel" : "; the module's kernels: " + list);
}

// The demangling lives in semantics/support/names.hpp, shared by every report.
std::string kernel_cxx_name(std::string_view symbol) { return ptxcheck::names::kernel_cxx_name(symbol); }
std::vector<std::string> kernel_cxx_parameter_types(std::string_view symbol) { return ptxcheck::names::kernel_cxx_parameter_types(symbol); }
AsyncCopyRole async_copy_role(const Instruction& in) {
  if (in.op != Opcode::cp_ || !in.q.has_word("async") || in.q.has_word("bulk") || in.q.has_word("mbarrier")) return AsyncCopyRole::none;
  if (in.q.has_word("commit_group")) return AsyncCopyRole::commit;
  if (in.q.has_word("wait_group") || in.q.has_word("wait_all")) return AsyncCopyRole::wait;
  const bool shared_from_global = in.q.space == StateSpace::shared && in.q.space2 == StateSpace::global && in.operands.size() >= 3;
  return shared_from_global ? AsyncCopyRole::copy : AsyncCopyRole::none;
}

MbarrierOp mbarrier_op(const Instruction& in) {
  if (in.op == Opcode::cp_)
    return in.q.has_word("async") && in.q.has_word("mbarrier") && in.q.has(Flag::arrive) ? MbarrierOp::copy_arrive : MbarrierOp::none;
  if (in.op != Opcode::mbarrier_) return MbarrierOp::none;
  if (in.q.has(Flag::init)) return MbarrierOp::init;
  if (in.q.has(Flag::inval)) return MbarrierOp::inval;
  if (in.q.has(Flag::test_wait) || in.q.has(Flag::try_wait)) return MbarrierOp::wait;
  if (in.q.has(Flag::pending_count)) return MbarrierOp::pending_count;
  if (in.q.has(Flag::arrive) || in.q.has_word("arrive_drop")) return MbarrierOp::arrive;
  if (in.q.has(Flag::expect_tx)) return MbarrierOp::expect_tx;
  if (in.q.has(Flag::complete_tx)) return MbarrierOp::complete_tx;
  return MbarrierOp::none;
}

int mbarrier_object_operand(MbarrierOp op) {
  switch (op) {
    case MbarrierOp::none: case MbarrierOp::pending_count: return -1;
    case MbarrierOp::arrive: case MbarrierOp::wait: return 1;
    default: return 0;
  }
}

bool is_cluster_barrier(const Instruction& in) { return in.op == Opcode::barrier_ && in.q.has_word("cluster"); }

std::optional<CvtPackForm> cvt_pack_form(const Instruction& in) {
  if (in.op != Opcode::cvt_ || !in.q.has(Flag::pack) || !in.q.has(Flag::sat) || in.q.types.size() < 2) return std::nullopt;
  const ScalarType to = in.q.types[0].scalar;
  if (in.q.types[1].scalar != ScalarType::s32 || !is_integer(to)) return std::nullopt;
  const unsigned size = scalar_bits(to);
  const bool wide = size == 16;  // .u16/.s16: d, a, b
  if (wide ? (in.q.types.size() != 2 || in.operands.size() != 3)
           : (size > 8 || in.q.types.size() != 3 || in.q.types[2].scalar != ScalarType::b32 || in.operands.size() != 4))
    return std::nullopt;
  if (is_bit_type(to)) return std::nullopt;
  return CvtPackForm{size, is_signed_int(to)};
}

std::optional<CtaBarrierOperands> cta_barrier_operands(const Instruction& in) {
  if ((in.op != Opcode::bar_ && in.op != Opcode::barrier_) || in.q.has(Flag::warp) || is_cluster_barrier(in)) return std::nullopt;
  const std::size_t name = in.q.has(Flag::red) ? 1 : 0;      // bar.red writes d first
  const std::size_t with_count = in.q.has(Flag::red) ? 4 : 2;  // d, a, b, c / a, b
  return CtaBarrierOperands{name, in.operands.size() == with_count ? static_cast<int>(name + 1) : -1};
}

std::string opcode_text(const Instruction& in) {
  std::string s = opcode_name(in.op);
  for (const auto& w : in.q.words) s += "." + w;
  return s;
}

std::uint32_t async_commits(const Instruction& in) {
  const AsyncCopyRole role = async_copy_role(in);
  return role == AsyncCopyRole::commit || (role == AsyncCopyRole::wait && in.q.has_word("wait_all")) ? 1 : 0;
}

AsyncCopySource async_copy_source(const Function& f, const Instruction& in) {
  const auto& o = in.operands;
  const std::size_t operands = o.size() - (in.q.has_word("L2::cache_hint") ? 1 : 0);  // without cache-policy
  if (operands < 4) return {};
  const bool predicate = o[3].kind == Operand::Kind::Register && o[3].reg >= 0 &&
                         f.registers[static_cast<std::size_t>(o[3].reg)].type.scalar == ScalarType::pred;
  return {3, predicate};
}

std::uint32_t async_wait_pending(const Instruction& in) {
  if (in.q.has_word("wait_all") || in.operands.empty() || in.operands[0].kind != Operand::Kind::Immediate) return 0;
  return static_cast<std::uint32_t>(in.operands[0].imm);
}

std::string kernel_title(std::string_view symbol) { return ptxcheck::names::kernel_title(symbol); }

BuildResult build(const ParsedModule& parsed) { return Builder(parsed).run(); }

LoadOptions keep_kernels_named(std::string name) {
  LoadOptions o;
  if (name.empty()) return o;
  // kernels_named demangles every kernel: asked once per module, not once per function.
  auto chosen = std::make_shared<std::set<std::string>>();
  auto asked = std::make_shared<const Module*>(nullptr);
  o.keep = [name = std::move(name), chosen, asked](const Module& m, const Function& f) {
    if (*asked != &m) {
      chosen->clear();
      for (const Function* k : m.kernels_named(name)) chosen->insert(k->name);
      *asked = &m;
    }
    return chosen->count(f.name) > 0;
  };
  return o;
}

BuildResult load_ptx(std::string text, std::string file, const LoadOptions& options) {
  return load_ptx(std::make_shared<const std::string>(std::move(text)), std::move(file), options);
}

BuildResult load_ptx(std::shared_ptr<const std::string> text, std::string file, const LoadOptions& options) {
  if (auto skim = skim_ptx(text, file))
    if (auto built = Builder(*skim.module).run_streaming(options)) return std::move(*built);
  // The skim or a body did not parse: the whole-module parse says where, as it always has.
  auto parsed = parse_ptx(*text, std::move(file));
  if (!parsed) {
    BuildResult r;
    r.errors.push_back(*parsed.error);
    return r;
  }
  return build(*parsed.module);
}

}  // namespace ptx::ir
