// Launch shapes for project checks (launch_shapes.hpp).
#include "cli/launch_shapes.hpp"
#include "checker/race/run.hpp"
#include "semantics/support/diagnostic.hpp"
#include "semantics/support/files.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace ptxcheck::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// A shape value as JSON: "256,2", [256, 2] or 256.
std::optional<Dim> dim_from_json(const json& v) {
  if (v.is_string()) return race::parse_dim(v.get<std::string>());
  if (v.is_number_unsigned()) return race::parse_dim(std::to_string(v.get<std::uint64_t>()));
  if (!v.is_array()) return std::nullopt;
  std::string text;
  for (const auto& x : v) {
    if (!x.is_number_unsigned()) return std::nullopt;
    text += (text.empty() ? "" : ",") + std::to_string(x.get<std::uint64_t>());
  }
  return race::parse_dim(text);
}
}  // namespace

std::map<std::string, LaunchShape> read_shapes_file(const std::string& path, std::string& error) {
  std::map<std::string, LaunchShape> out;
  auto text = read_text_file(path);
  if (!text) { error = path + ": error: cannot read the shapes file"; return out; }
  json j;
  try {
    j = json::parse(*text);
  } catch (const json::parse_error& e) {
    std::string why = e.what();
    error = make_diagnostic(*text, path, e.byte == 0 ? 0 : e.byte - 1, why.substr(why.rfind(": ") + 2)).render();
    return out;
  }
  if (!j.is_object()) { error = path + ": error: expected an object {\"FILE.cu\": {\"blockDim\": ..., \"gridDim\": ...}}"; return out; }
  const fs::path base = fs::absolute(path).parent_path();
  for (const auto& [file, shape] : j.items()) {
    LaunchShape s;
    for (const char* key : {"blockDim", "gridDim"}) {
      if (!shape.is_object() || !shape.contains(key)) continue;
      auto d = dim_from_json(shape[key]);
      if (!d) { error = path + ": error: " + file + ": " + key + ": expected X[,Y[,Z]] or [X,Y,Z] of positive numbers"; return {}; }
      (std::string(key) == "blockDim" ? s.block : s.grid) = d;
    }
    out[(base / file).lexically_normal().string()] = s;
  }
  return out;
}

LaunchShape source_shape(const std::string& file, std::string& error) {
  LaunchShape s;
  auto text = read_text_file(file);
  if (!text) return s;  // the compile reports the missing file
  std::istringstream lines(*text);
  std::uint32_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    auto at = line.find("// ptxcheck:");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 12));
    for (std::string w; words >> w;) {
      for (const char* key : {"--blockDim=", "--gridDim="}) {
        std::string k = key;
        if (w.rfind(k, 0) != 0) continue;
        auto d = race::parse_dim(w.substr(k.size()));
        if (!d) {
          error = Diagnostic{{file, number, static_cast<std::uint32_t>(line.find(w) + 1)},
                             w + ": expected X[,Y[,Z]] or [X,Y,Z] of positive numbers", line, "error"}.render();
          return {};
        }
        (k == "--blockDim=" ? s.block : s.grid) = d;
      }
    }
  }
  return s;
}

}  // namespace ptxcheck::cli
