// Reading launches from JSON and writing results (see launch_json.hpp).
#include "semantics/interp/launch_json.hpp"

#include "semantics/interp/npy.hpp"
#include "semantics/interp/typed_buffer.hpp"

#include <bit>
#include <charconv>
#include <cstring>
#include <fstream>

namespace ptx::interp {

std::string bytes_to_hex(const std::vector<std::uint8_t>& bytes) {
  static const char* d = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (auto b : bytes) { s += d[b >> 4]; s += d[b & 15]; }
  return s;
}

bool hex_to_bytes(std::string_view hex, std::vector<std::uint8_t>& out) {
  if (hex.size() % 2) return false;
  out.clear();
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    int a = nib(hex[i]), b = nib(hex[i + 1]);
    if (a < 0 || b < 0) return false;
    out.push_back(static_cast<std::uint8_t>(a * 16 + b));
  }
  return true;
}

namespace {
bool scalar_bits(const std::string& type, const nlohmann::json& v, ParamValue& out, std::string& error) {
  auto t = ir::scalar_type_from_name(type);
  if (!t || !(ir::is_integer(*t) || *t == ir::ScalarType::f32 || *t == ir::ScalarType::f64)) {
    error = "unknown parameter type '" + type + "' (use u8..u64, s8..s64, b8..b64, f32, f64, or buffer)";
    return false;
  }
  out.type = *t;
  unsigned bits = ir::scalar_bits(*t);
  std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  if (*t == ir::ScalarType::f32 || *t == ir::ScalarType::f64) {
    double x;
    if (v.is_number()) x = v.get<double>();
    else if (v.is_string()) x = std::stod(v.get<std::string>());
    else { error = "parameter value must be a number"; return false; }
    out.bits = *t == ir::ScalarType::f32 ? std::bit_cast<std::uint32_t>(static_cast<float>(x)) : std::bit_cast<std::uint64_t>(x);
    return true;
  }
  if (v.is_number_unsigned()) out.bits = v.get<std::uint64_t>() & mask;
  else if (v.is_number_integer()) out.bits = static_cast<std::uint64_t>(v.get<std::int64_t>()) & mask;
  else if (v.is_string()) {
    std::string s = v.get<std::string>();
    try {
      if (s.rfind("0x", 0) == 0) out.bits = std::stoull(s.substr(2), nullptr, 16) & mask;
      else if (!s.empty() && s[0] == '-') out.bits = static_cast<std::uint64_t>(std::stoll(s)) & mask;
      else out.bits = std::stoull(s) & mask;
    } catch (...) {
      error = "bad integer '" + s + "'";
      return false;
    }
  } else {
    error = "parameter value must be a number";
    return false;
  }
  return true;
}
}  // namespace

bool param_from_json(const nlohmann::json& j, ParamValue& out, std::string& error) {
  if (!j.is_object() || j.size() != 1) {
    error = "a parameter is an object with one key: {\"buffer\": NAME} or {\"u32\": 7}";
    return false;
  }
  auto it = j.begin();
  if (it.key() == "buffer") {
    if (!it.value().is_string()) { error = "buffer parameter needs a name"; return false; }
    out.buffer = it.value().get<std::string>();
    return true;
  }
  return scalar_bits(it.key(), it.value(), out, error);
}

bool param_from_text(std::string_view text, ParamValue& out, std::string& error) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    error = "a --param is TYPE:VALUE (u32:7, f32:1.5) or buffer:NAME";
    return false;
  }
  std::string key(text.substr(0, colon)), value(text.substr(colon + 1));
  if (key == "buffer") { out.buffer = value; return true; }
  return scalar_bits(key, nlohmann::json(value), out, error);
}

bool read_launch_file(const std::string& path, Launch& out, std::string& error) {
  std::ifstream in(path);
  if (!in) { error = path + ": error: cannot read the file"; return false; }
  nlohmann::json j;
  try { in >> j; } catch (const std::exception& e) {
    error = path + ": error: invalid JSON: " + e.what();
    return false;
  }
  const auto slash = path.find_last_of('/');
  if (!launch_from_json(j, out, error, slash == std::string::npos ? "." : path.substr(0, slash))) {
    error = path + ": error: " + error;
    return false;
  }
  return true;
}

namespace {
// A buffer's "tensor_maps": [{"at": BYTE, "data_type": T, "global": {"buffer": B, "offset": BYTES},
// "global_dim": [...], "global_strides": [...], "box_dim": [...], "element_strides": [...], "interleave": "none",
// "swizzle": "none|32B|64B|128B|128B_atom_32B|128B_atom_64B", "oob_fill": "none|nan"}]: cuTensorMapEncodeTiled's arguments; for an im2col map
// cuTensorMapEncodeIm2col's: "pixel_box_lower_corner", "pixel_box_upper_corner", "channels_per_pixel",
// "pixels_per_column" in place of "box_dim" (docs/async-copies.md).
bool tensor_maps_from_json(const nlohmann::json& list, const std::string& buffer, std::size_t size, Launch& out, std::string& error) {
  const std::string where = "buffer '" + buffer + "': ";
  if (!list.is_array()) { error = where + "tensor_maps must be a list"; return false; }
  for (const auto& q : list) {
    Launch::TensorMap m;
    m.buffer = buffer;
    try {
      if (!q.is_object() || !q.contains("global") || !q["global"].is_object() || !q.contains("data_type")) throw std::runtime_error("");
      m.at = q.value("at", std::uint64_t{0});
      m.data_type = q["data_type"].get<std::string>();
      m.global = q["global"].at("buffer").get<std::string>();
      m.global_offset = q["global"].value("offset", std::uint64_t{0});
      m.global_dim = q.at("global_dim").get<std::vector<std::uint64_t>>();
      m.global_strides = q.value("global_strides", std::vector<std::uint64_t>{});
      m.im2col = q.contains("pixel_box_lower_corner");
      if (m.im2col) {  // cuTensorMapEncodeIm2col's arguments (ISA 5.5.4)
        m.pixel_box_lower_corner = q.at("pixel_box_lower_corner").get<std::vector<std::int32_t>>();
        m.pixel_box_upper_corner = q.at("pixel_box_upper_corner").get<std::vector<std::int32_t>>();
        m.channels_per_pixel = q.at("channels_per_pixel").get<std::uint32_t>();
        m.pixels_per_column = q.at("pixels_per_column").get<std::uint32_t>();
      } else {
        m.box_dim = q.at("box_dim").get<std::vector<std::uint32_t>>();
      }
      m.element_strides = q.value("element_strides", std::vector<std::uint32_t>(m.global_dim.size(), 1));
      m.interleave = q.value("interleave", std::string("none"));
      m.swizzle = q.value("swizzle", std::string("none"));
      m.oob_fill = q.value("oob_fill", std::string("none"));
      if (q.contains("rank") && q["rank"].get<std::size_t>() != m.global_dim.size()) { error = where + "tensor map rank differs from the length of global_dim"; return false; }
    } catch (const std::exception&) {
      error = where + "a tensor map is {\"at\": BYTE, \"data_type\": T, \"global\": {\"buffer\": B, \"offset\": BYTES}, "
              "\"global_dim\": [..], \"global_strides\": [..], \"box_dim\": [..], \"element_strides\": [..], \"interleave\", \"swizzle\", \"oob_fill\"} "
              "(an im2col map: \"pixel_box_lower_corner\", \"pixel_box_upper_corner\", \"channels_per_pixel\", \"pixels_per_column\" for \"box_dim\")";
      return false;
    }
    if (m.at > size || size - m.at < 128) { error = where + "a tensor map at byte " + std::to_string(m.at) + " does not fit in its " + std::to_string(size) + " bytes"; return false; }
    if (auto why = tensor_map_error(m); !why.empty()) { error = where + "tensor map: " + why; return false; }
    out.tensor_maps.push_back(std::move(m));
  }
  return true;
}
}  // namespace

bool launch_from_json(const nlohmann::json& j, Launch& out, std::string& error, const std::string& base_dir) {
  if (!j.is_object()) { error = "the launch must be a JSON object"; return false; }
  if (j.contains("kernel")) out.kernel = j["kernel"].get<std::string>();
  auto dims = [&](const char* key, std::array<std::uint32_t, 3>& d) {
    if (!j.contains(key)) return true;
    const auto& a = j[key];
    if (!a.is_array() || a.empty() || a.size() > 3) { error = std::string(key) + " must be [x, y, z]"; return false; }
    d = {1, 1, 1};
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_number_unsigned() || a[i].get<std::uint64_t>() == 0) { error = std::string(key) + " dimensions must be positive"; return false; }
      d[i] = a[i].get<std::uint32_t>();
    }
    return true;
  };
  if (!dims("grid", out.grid) || !dims("block", out.block)) return false;
  if (j.contains("cluster")) {  // ISA 2.2.2: an explicit cluster launch
    Dims c{1, 1, 1};
    if (!dims("cluster", c)) return false;
    out.cluster = c;
    if (auto why = cluster_shape_error(out.grid, out.cluster); !why.empty()) { error = why; return false; }
  }
  if (j.contains("dynamic_shared_bytes")) out.dynamic_shared_bytes = j["dynamic_shared_bytes"].get<std::uint32_t>();
  if (j.contains("cooperative")) {
    if (!j["cooperative"].is_boolean()) { error = "cooperative must be true or false"; return false; }
    out.cooperative = j["cooperative"].get<bool>();
  }
  if (j.contains("buffers")) {
    if (!j["buffers"].is_object()) { error = "buffers must be an object"; return false; }
    for (auto it = j["buffers"].begin(); it != j["buffers"].end(); ++it) {
      std::vector<std::uint8_t> bytes;
      const auto& b = it.value();
      if (!b.is_object()) { error = "buffer '" + it.key() + "' must be an object"; return false; }
      if (b.contains("npy")) {  // {"npy": "a.npy"}: relative to the launch file
        if (!b["npy"].is_string() || b.size() != 1) { error = "buffer '" + it.key() + "': {\"npy\": FILE} has no other keys"; return false; }
        const std::string file = b["npy"].get<std::string>();
        NpyArray a;
        if (!read_npy(!base_dir.empty() && !file.empty() && file[0] != '/' ? base_dir + "/" + file : file, a, error)) return false;
        bytes = std::move(a.bytes);
        out.buffer_types[it.key()] = a.type;
      }
      if (b.contains("type")) {
        if (b.contains("bytes_le_hex") || b.contains("zero_bytes")) {
          error = "buffer '" + it.key() + "': \"type\" goes with \"values\", \"fill\" or \"count\", not with bytes";
          return false;
        }
        if (!typed_buffer_bytes(b, bytes, error)) { error = "buffer '" + it.key() + "': " + error; return false; }
        out.buffer_types[it.key()] = *buffer_element_type(b["type"].get<std::string>());
      }
      if (b.contains("bytes_le_hex")) {
        if (!hex_to_bytes(b["bytes_le_hex"].get<std::string>(), bytes)) { error = "buffer '" + it.key() + "': bad hex"; return false; }
      }
      if (b.contains("zero_bytes")) bytes.resize(std::max<std::size_t>(bytes.size(), b["zero_bytes"].get<std::size_t>()), 0);
      if (b.contains("pointers")) {
        // [{"at": BYTE, "to": BUFFER, "offset": BYTES}]: the address of another buffer stored in this one.
        if (!b["pointers"].is_array()) { error = "buffer '" + it.key() + "': pointers must be a list"; return false; }
        for (const auto& q : b["pointers"]) {
          if (!q.is_object() || !q.contains("at") || !q["at"].is_number_unsigned() || !q.contains("to") || !q["to"].is_string() ||
              (q.contains("offset") && !q["offset"].is_number_unsigned())) {
            error = "buffer '" + it.key() + "': a pointer is {\"at\": BYTE, \"to\": BUFFER, \"offset\": BYTES}";
            return false;
          }
          const std::uint64_t at = q["at"].get<std::uint64_t>();
          if (at + 8 > bytes.size()) {
            error = "buffer '" + it.key() + "': a pointer at byte " + std::to_string(at) + " does not fit in its " + std::to_string(bytes.size()) + " bytes";
            return false;
          }
          out.pointers.push_back({it.key(), at, q["to"].get<std::string>(), q.value("offset", std::uint64_t{0})});
        }
      }
      if (b.contains("tensor_maps") && !tensor_maps_from_json(b["tensor_maps"], it.key(), bytes.size(), out, error)) return false;
      out.buffers.push_back({it.key(), std::move(bytes)});
    }
  }
  if (j.contains("params")) {
    for (const auto& p : j["params"]) {
      ParamValue v;
      if (!param_from_json(p, v, error)) return false;
      out.params.push_back(v);
    }
  }
  for (const auto& p : out.params)
    if (!p.buffer.empty() && out.buffer_index(p.buffer) < 0) { error = "parameter refers to unknown buffer '" + p.buffer + "'"; return false; }
  for (const auto& p : out.pointers)
    if (out.buffer_index(p.target) < 0) { error = "buffer '" + p.buffer + "': pointer to unknown buffer '" + p.target + "'"; return false; }
  for (const auto& m : out.tensor_maps)
    if (out.buffer_index(m.global) < 0) { error = "buffer '" + m.buffer + "': tensor map of unknown buffer '" + m.global + "'"; return false; }
  return true;
}

nlohmann::json result_to_json(const RunResult& r, const ir::Module& m, const Launch& launch, bool hex) {
  nlohmann::json j;
  j["buffers"] = nlohmann::json::object();
  for (const auto& [name, bytes] : r.buffers) {
    auto& b = j["buffers"][name];
    b = nlohmann::json::object();
    if (auto t = launch.buffer_types.find(name); t != launch.buffer_types.end()) {
      b["type"] = ir::scalar_type_name(t->second);
      b["values"] = typed_values(t->second, bytes);
      if (!hex) continue;
    }
    b["bytes_le_hex"] = bytes_to_hex(bytes);
  }
  const Stats& s = r.stats;
  j["stats"] = {{"warp_instructions", s.warp_instructions}, {"lane_instructions", s.lane_instructions},
                {"threads", s.threads}, {"warps", s.warps}, {"ctas", s.ctas}, {"barriers", s.barriers},
                {"warp_syncs", s.warp_syncs}, {"divergent_branches", s.divergent_branches}, {"vprintf_calls", s.vprintf_calls},
                {"overrun_accesses", s.overrun_accesses}, {"bytes_per_thread", s.bytes_per_thread}, {"seconds", s.seconds}};
  auto problem_json = [&](const Problem& p) {
    nlohmann::json e = {{"kind", problem_kind_name(p.kind)}, {"message", p.message}};
    nlohmann::json threads = nlohmann::json::array();
    for (const auto& t : p.threads) {
      nlohmann::json tj = {{"ctaid", t.ctaid}, {"tid", t.tid}, {"function", t.function}, {"ptx_line", t.ptx_line}};
      if (t.source.file) {
        auto it = m.source_files.find(t.source.file);
        tj["source"] = {{"file", it != m.source_files.end() ? it->second : std::to_string(t.source.file)}, {"line", t.source.line}, {"column", t.source.column}};
      }
      threads.push_back(tj);
    }
    e["threads"] = threads;
    return e;
  };
  if (!r.ok()) j["error"] = problem_json(r.problem);
  if (r.first_overrun.kind != Problem::Kind::none) j["warning"] = problem_json(r.first_overrun);
  if (!r.unsupported.empty()) {
    nlohmann::json u = nlohmann::json::array();
    for (const auto& x : r.unsupported) u.push_back({{"instruction", x.instruction}, {"ptx_line", x.ptx_line}});
    j["unsupported"] = u;
  }
  return j;
}

}  // namespace ptx::interp
