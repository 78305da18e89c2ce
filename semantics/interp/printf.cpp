// See printf.hpp: CUDA's device printf over the argument buffer vprintf receives.
#include "semantics/interp/printf.hpp"

#include <bit>
#include <cctype>
#include <cstdio>
#include <vector>

namespace ptx::interp {
namespace {

struct Spec {
  std::string flags, width, precision, length;
  char conversion = 0;
};

// Parses one conversion after '%' at format[i]; returns the index after it, or npos when malformed.
std::size_t parse_spec(std::string_view f, std::size_t i, Spec& s) {
  while (i < f.size() && std::string_view("-+ #0").find(f[i]) != std::string_view::npos) s.flags += f[i++];
  while (i < f.size() && (std::isdigit(static_cast<unsigned char>(f[i])) || f[i] == '*')) s.width += f[i++];
  if (i < f.size() && f[i] == '.') {
    s.precision = ".";
    ++i;
    while (i < f.size() && (std::isdigit(static_cast<unsigned char>(f[i])) || f[i] == '*')) s.precision += f[i++];
  }
  while (i < f.size() && std::string_view("hlLqjzt").find(f[i]) != std::string_view::npos) s.length += f[i++];
  if (i >= f.size()) return std::string_view::npos;
  s.conversion = f[i];
  return i + 1;
}

// The argument's size in the buffer: 8 for 64-bit integers, pointers and doubles, else 4 (int after promotion).
unsigned argument_size(const Spec& s) {
  switch (s.conversion) {
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': case 's': case 'p': return 8;
    default: break;
  }
  return s.length == "l" || s.length == "ll" || s.length == "j" || s.length == "z" || s.length == "t" || s.length == "q" ? 8 : 4;
}

class Formatter {
 public:
  explicit Formatter(const PrintfArguments& a) : args_(a) {}

  bool next(unsigned size, std::uint64_t& v) {
    offset_ = (offset_ + size - 1) / size * size;
    if (!args_.read || !args_.read(offset_, size, v)) return false;
    offset_ += size;
    return true;
  }

  // Formats one conversion, resolving '*' widths and precisions from the buffer.
  std::string convert(Spec s) {
    for (std::string* part : {&s.width, &s.precision})
      if (auto star = part->find('*'); star != std::string::npos) {
        std::uint64_t v = 0;
        if (!next(4, v)) return "<bad argument>";
        part->replace(star, 1, std::to_string(static_cast<std::int32_t>(v)));
      }
    std::uint64_t v = 0;
    if (!next(argument_size(s), v)) return "<bad argument>";
    const std::string head = "%" + s.flags + s.width + s.precision;
    switch (s.conversion) {
      case 'd': case 'i':
        return argument_size(s) == 8 ? print(head + "lld", static_cast<long long>(v)) : print(head + "d", static_cast<std::int32_t>(v));
      case 'u': case 'x': case 'X': case 'o': {
        const std::string c(1, s.conversion);
        if (argument_size(s) == 8) return print(head + "ll" + c, static_cast<unsigned long long>(v));
        const auto narrow = static_cast<std::uint32_t>(s.length == "hh" ? v & 0xff : s.length == "h" ? v & 0xffff : v);
        return print(head + c, narrow);
      }
      case 'c': return print(head + "c", static_cast<int>(static_cast<unsigned char>(v)));
      case 'p': return print(head + "p", reinterpret_cast<void*>(static_cast<std::uintptr_t>(v)));
      case 's': {
        std::string text;
        if (!args_.read_string || !args_.read_string(v, text)) return "<bad string>";
        return print(head + "s", text.c_str());
      }
      default:
        return print(head + std::string(1, s.conversion), std::bit_cast<double>(v));
    }
  }

 private:
  template <class T>
  static std::string print(const std::string& spec, T value) {
    const int n = std::snprintf(nullptr, 0, spec.c_str(), value);
    if (n < 0) return {};
    std::vector<char> out(static_cast<std::size_t>(n) + 1);
    std::snprintf(out.data(), out.size(), spec.c_str(), value);
    return std::string(out.data(), static_cast<std::size_t>(n));
  }
  const PrintfArguments& args_;
  std::uint64_t offset_ = 0;
};

}  // namespace

std::string format_device_printf(std::string_view f, const PrintfArguments& args) {
  std::string out;
  Formatter fmt(args);
  for (std::size_t i = 0; i < f.size();) {
    if (f[i] != '%') { out += f[i++]; continue; }
    if (i + 1 < f.size() && f[i + 1] == '%') { out += '%'; i += 2; continue; }
    Spec s;
    const std::size_t after = parse_spec(f, i + 1, s);
    if (after == std::string_view::npos || std::string_view("diuxXocpsfFeEgGaA").find(s.conversion) == std::string_view::npos) {
      out += f.substr(i);  // a malformed conversion prints as written, as CUDA does for unknown ones
      break;
    }
    out += fmt.convert(s);
    i = after;
  }
  return out;
}

}  // namespace ptx::interp
