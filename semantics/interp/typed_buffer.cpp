// Typed buffer contents (typed_buffer.hpp).
#include "semantics/interp/typed_buffer.hpp"

#include "semantics/domain/concrete.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/convert.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace ptx::interp {
namespace {
using domain::Concrete;

std::uint64_t float_bits_of(ir::ScalarType t, double x) {
  const auto to = ops::fp_format_of(t);
  const auto wide = Concrete::lit(64, std::bit_cast<std::uint64_t>(x));
  return static_cast<std::uint64_t>(ops::cvt_f2f(Concrete{}, ops::FpFormat::f64, to, ops::FpMods{}, wide).v);
}

double double_of(ir::ScalarType t, std::uint64_t bits) {
  const auto from = ops::fp_format_of(t);
  const auto v = Concrete::lit(domain::fp_bits(from), bits);
  return std::bit_cast<double>(static_cast<std::uint64_t>(ops::cvt_f2f(Concrete{}, from, ops::FpFormat::f64, ops::FpMods{}, v).v));
}

bool integer_bits(ir::ScalarType t, const nlohmann::json& v, std::uint64_t& bits, std::string& error) {
  const unsigned w = ir::scalar_bits(t);
  const std::uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
  const bool is_signed = ir::is_signed_int(t), untyped = ir::scalar_type_name(t)[0] == 'b';
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
    const std::uint64_t x = v.get<std::uint64_t>();
    const std::uint64_t max = is_signed ? mask >> 1 : mask;
    if (x > max) { error = std::to_string(x) + " does not fit ." + ir::scalar_type_name(t); return false; }
    bits = x;
    return true;
  }
  if (v.is_number_integer()) {
    const std::int64_t x = v.get<std::int64_t>();
    const std::int64_t min = w >= 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (w - 1));
    if (!(is_signed || untyped) || x < min) { error = std::to_string(x) + " does not fit ." + ir::scalar_type_name(t); return false; }
    bits = static_cast<std::uint64_t>(x) & mask;
    return true;
  }
  error = "a ." + std::string(ir::scalar_type_name(t)) + " value is an integer or \"0x...\" bits";
  return false;
}
}  // namespace

std::optional<ir::ScalarType> buffer_element_type(const std::string& name) {
  const auto t = ir::scalar_type_from_name(name);
  if (!t) return std::nullopt;
  using ST = ir::ScalarType;
  if (ir::is_integer(*t) || *t == ST::f16 || *t == ST::bf16 || *t == ST::f32 || *t == ST::f64) return t;
  return std::nullopt;
}

bool typed_value_bits(ir::ScalarType t, const nlohmann::json& v, std::uint64_t& bits, std::string& error) {
  const unsigned w = ir::scalar_bits(t);
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) == 0 && s.size() > 2 && s.size() <= 2 + w / 4) {  // raw bits, any type
      try {
        bits = std::stoull(s.substr(2), nullptr, 16);
        return true;
      } catch (...) {}
    }
    if (ir::is_float(t) && (s == "nan" || s == "inf" || s == "-inf")) {
      const double x = s == "nan" ? std::numeric_limits<double>::quiet_NaN() : s == "inf" ? INFINITY : -INFINITY;
      bits = float_bits_of(t, x);
      return true;
    }
    error = "bad ." + std::string(ir::scalar_type_name(t)) + " value \"" + s + "\"";
    return false;
  }
  if (ir::is_float(t)) {
    if (!v.is_number()) { error = "a ." + std::string(ir::scalar_type_name(t)) + " value is a number, \"nan\", \"inf\", \"-inf\" or \"0x...\" bits"; return false; }
    bits = float_bits_of(t, v.get<double>());
    return true;
  }
  return integer_bits(t, v, bits, error);
}

bool typed_buffer_bytes(const nlohmann::json& b, std::vector<std::uint8_t>& out, std::string& error) {
  if (!b["type"].is_string()) { error = "\"type\" names a PTX type (u8-u64, s8-s64, b8-b64, f16, bf16, f32, f64)"; return false; }
  const auto t = buffer_element_type(b["type"].get<std::string>());
  if (!t) { error = "unknown buffer type '" + b["type"].get<std::string>() + "' (u8-u64, s8-s64, b8-b64, f16, bf16, f32, f64)"; return false; }
  if (b.contains("values") == b.contains("fill") && !(b.contains("count") && !b.contains("values"))) {
    error = "a typed buffer has \"values\": [...], or \"fill\": V with \"count\": N, or \"count\": N (zeros)";
    return false;
  }
  if (b.contains("count") && !b["count"].is_number_unsigned()) { error = "\"count\" is a number of elements"; return false; }
  if (b.contains("values") && (!b["values"].is_array() || b.contains("count"))) { error = "\"values\" is a list (without \"count\")"; return false; }
  std::vector<nlohmann::json> values;
  if (b.contains("values")) values.assign(b["values"].begin(), b["values"].end());
  else values.assign(b["count"].get<std::size_t>(), b.value("fill", nlohmann::json(0)));
  const unsigned bytes = ir::scalar_bits(*t) / 8;
  out.clear();
  out.reserve(values.size() * bytes);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint64_t bits = 0;
    if (!typed_value_bits(*t, values[i], bits, error)) { error = "element " + std::to_string(i) + ": " + error; return false; }
    for (unsigned k = 0; k < bytes; ++k) out.push_back(static_cast<std::uint8_t>(bits >> (8 * k)));
  }
  return true;
}

nlohmann::json typed_values(ir::ScalarType t, const std::vector<std::uint8_t>& bytes) {
  const unsigned n = ir::scalar_bits(t) / 8;
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i + n <= bytes.size(); i += n) {
    std::uint64_t bits = 0;
    for (unsigned k = 0; k < n; ++k) bits |= std::uint64_t(bytes[i + k]) << (8 * k);
    if (ir::is_float(t)) {
      const double x = double_of(t, bits);
      if (std::isnan(x)) out.push_back("nan");
      else if (std::isinf(x)) out.push_back(x > 0 ? "inf" : "-inf");
      else out.push_back(x);
    } else if (ir::is_signed_int(t)) {
      const unsigned w = 8 * n;
      out.push_back(w >= 64 ? static_cast<std::int64_t>(bits) : static_cast<std::int64_t>((bits ^ (1ull << (w - 1))) - (1ull << (w - 1))));
    } else {
      out.push_back(bits);
    }
  }
  return out;
}

}  // namespace ptx::interp
