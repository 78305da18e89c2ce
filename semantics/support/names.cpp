// See names.hpp: demangling and the display names of kernels, variables, arguments and elements.
#include "semantics/support/names.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>

namespace ptxcheck::names {

std::string demangle(std::string_view symbol) {
  const std::string s(symbol);
  if (!s.starts_with("_Z")) return s;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(s.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : s;
}

std::size_t parameter_list_start(const std::string& cxx) {
  if (!cxx.ends_with(')')) return std::string::npos;
  int depth = 0;
  for (std::size_t i = cxx.size(); i-- > 0;) {
    depth += (cxx[i] == ')') - (cxx[i] == '(');
    if (depth == 0) return i;
  }
  return std::string::npos;
}

std::string kernel_cxx_name(std::string_view symbol) {
  std::string cxx = demangle(symbol);
  // A `__global__` function returns void (an .entry has no return parameters, ISA 11.2.1): the prefix is that type.
  if (cxx != symbol && cxx.starts_with("void ")) cxx.erase(0, 5);
  return cxx;
}

std::vector<std::string> kernel_cxx_parameter_types(std::string_view symbol) {
  const std::string cxx = kernel_cxx_name(symbol);
  const auto open = parameter_list_start(cxx);
  if (cxx == symbol || open == std::string::npos || cxx.ends_with("()")) return {};
  // The list between the outermost parentheses, split at the commas outside template arguments and nested
  // parentheses (function pointer types).
  std::vector<std::string> types{""};
  int depth = 0;
  for (std::size_t i = open + 1; i + 1 < cxx.size(); ++i) {
    const char ch = cxx[i];
    depth += (ch == '<' || ch == '(') - (ch == '>' || ch == ')');
    if (ch == ',' && depth == 0) types.emplace_back();
    else if (!(ch == ' ' && types.back().empty())) types.back() += ch;
  }
  return types;
}

std::string kernel_title(std::string_view symbol) {
  const std::string cxx = kernel_cxx_name(symbol);
  return cxx == symbol ? cxx : cxx + " (PTX " + std::string(symbol) + ")";
}

namespace {
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The index of the ')' matching the '(' at `open`, or npos.
std::size_t matching_paren(const std::string& s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    depth += (s[i] == '(') - (s[i] == ')');
    if (depth == 0) return i;
  }
  return std::string::npos;
}

// `f(int const*, int*)::s` -> `f::s`: a parameter list follows a name (or template arguments) and is followed by
// `::` after optional member-function qualifiers; `(anonymous namespace)` follows no name and stays.
std::string without_parameter_lists(std::string s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '(' || i == 0 || !(is_name_char(s[i - 1]) || s[i - 1] == '>')) continue;
    const std::size_t close = matching_paren(s, i);
    if (close == std::string::npos) break;
    std::size_t after = close + 1;
    for (const std::string_view q : {" const", " volatile", " &&", " &"})
      if (std::string_view(s).substr(after).starts_with(q)) after += q.size();
    if (std::string_view(s).substr(after).starts_with("::")) s.erase(i, after - i);
  }
  return s;
}

// The text after the last space outside brackets: a function template instance's return type (`void k<int>::s`).
std::string without_return_type(const std::string& s) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    depth += (c == '<' || c == '(' || c == '{' || c == '[') - (c == '>' || c == ')' || c == '}' || c == ']');
    if (c == ' ' && depth == 0) start = i + 1;
  }
  return s.substr(start);
}
}  // namespace

std::string variable_cxx_name(std::string_view symbol) {
  const std::string cxx = demangle(symbol);
  if (cxx == symbol) return cxx;
  return without_return_type(without_parameter_lists(cxx));
}

std::string variable_title(std::string_view symbol) {
  const std::string cxx = variable_cxx_name(symbol);
  return cxx == symbol ? cxx : cxx + " (" + std::string(symbol) + ")";
}

std::string kernel_base_name(std::string_view symbol) {
  std::string cxx = kernel_cxx_name(symbol);
  if (auto open = parameter_list_start(cxx); open != std::string::npos) cxx.erase(open);
  if (cxx.ends_with('>')) {  // template arguments
    int depth = 0;
    for (std::size_t i = cxx.size(); i-- > 0;) {
      depth += (cxx[i] == '>') - (cxx[i] == '<');
      if (depth == 0) {
        cxx.erase(i);
        break;
      }
    }
  }
  const auto colon = cxx.rfind("::");
  return colon == std::string::npos ? cxx : cxx.substr(colon + 2);
}

std::string without_qualifiers(std::string t) {
  for (bool stripped = true; stripped;) {  // the qualifiers, which the demangler writes after the type
    stripped = false;
    for (const std::string q : {" volatile", " const", " __restrict"})
      if (t.size() > q.size() && t.ends_with(q)) {
        t.erase(t.size() - q.size());
        stripped = true;
      }
  }
  return t;
}

std::string pointee_type(const std::string& type) {
  const std::string t = without_qualifiers(type);
  if (t.empty() || t.back() != '*') return "";
  return without_qualifiers(t.substr(0, t.size() - 1));
}

unsigned cxx_type_bytes(const std::string& type) {
  static const std::map<std::string, unsigned> sizes{
      {"char", 1},       {"signed char", 1}, {"unsigned char", 1}, {"bool", 1},   {"short", 2},   {"unsigned short", 2},
      {"int", 4},        {"unsigned int", 4}, {"long", 8},         {"unsigned long", 8}, {"long long", 8},
      {"unsigned long long", 8}, {"float", 4}, {"double", 8},      {"__half", 2}, {"__nv_bfloat16", 2}, {"half", 2},
      {"__half2", 4},    {"__nv_bfloat162", 4}};
  const std::string t = without_qualifiers(type);
  if (auto it = sizes.find(t); it != sizes.end()) return it->second;
  // CUDA's vector types: char1..4, short, int, long, longlong, float, double (and the unsigned u- forms).
  static const std::map<std::string, unsigned> bases{{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
                                                     {"uint", 4}, {"long", 8},  {"ulong", 8}, {"longlong", 8},
                                                     {"ulonglong", 8}, {"float", 4}, {"double", 8}};
  if (t.size() >= 2 && t.back() >= '1' && t.back() <= '4')
    if (auto it = bases.find(t.substr(0, t.size() - 1)); it != bases.end()) return it->second * static_cast<unsigned>(t.back() - '0');
  return 0;
}

std::string element_text(std::int64_t offset, unsigned element_bytes, bool array) {
  if (!array && offset == 0) return "";
  if (element_bytes == 0) return " byte " + std::to_string(offset);
  const std::int64_t size = element_bytes;
  std::int64_t index = offset / size, within = offset % size;
  if (within < 0) {  // round toward minus infinity: byte -2 of 4-byte elements is [-1], byte 2
    --index;
    within += size;
  }
  return "[" + std::to_string(index) + "]" + (within ? ", byte " + std::to_string(within) : "");
}

std::string argument_name(std::size_t one_based, std::string_view source_name) {
  std::string s = "argument " + std::to_string(one_based);
  return source_name.empty() ? s : s + " (" + std::string(source_name) + ")";
}

std::string ptx_address(std::string_view symbol, std::int64_t offset) {
  return std::string(symbol) + (offset < 0 ? "" : "+") + std::to_string(offset);
}

}  // namespace ptxcheck::names
