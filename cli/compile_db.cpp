// compile_commands.json reader (compile_db.hpp).
#include "cli/compile_db.hpp"
#include "semantics/support/files.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace ptxcheck::cli {
namespace fs = std::filesystem;
using nlohmann::json;

std::optional<std::vector<std::string>> split_command_line(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
    } else if (c == '\'') {
      auto end = command.find('\'', i + 1);
      if (end == std::string::npos) return std::nullopt;
      word += command.substr(i + 1, end - i - 1);
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= command.size()) return std::nullopt;
        if (command[i] == '"') break;
        if (command[i] == '\\' && i + 1 < command.size() && std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos) ++i;
        word += command[i];
      }
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

namespace {
// The byte offset of each element of the top-level array (nlohmann keeps no positions), so that an error in an
// entry points at its `{`.
std::vector<std::size_t> element_offsets(const std::string& text) {
  std::vector<std::size_t> out;
  int depth = 0;
  bool in_string = false, expect_element = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (depth == 1 && expect_element) { out.push_back(i); expect_element = false; }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') { if (++depth == 1) expect_element = true; }
    else if (c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 1) expect_element = true;
  }
  return out;
}

// One entry of the database, or the reason it is malformed.
std::optional<std::string> read_entry(const json& e, CompileEntry& out) {
  if (!e.is_object()) return "an entry must be an object with \"directory\", \"file\" and \"command\" or \"arguments\"";
  for (const char* key : {"directory", "file"})
    if (!e.contains(key) || !e[key].is_string()) return std::string("an entry needs \"") + key + "\" (a string)";
  fs::path dir = e["directory"].get<std::string>();
  if (dir.is_relative()) return "\"directory\" must be an absolute path, not '" + dir.string() + "'";
  out.directory = dir.lexically_normal().string();
  out.file = (dir / e["file"].get<std::string>()).lexically_normal().string();
  if (e.contains("arguments")) {
    const json& a = e["arguments"];
    if (!a.is_array() || a.empty()) return "\"arguments\" must be a non-empty list of strings";
    for (const auto& w : a) {
      if (!w.is_string()) return "\"arguments\" must be a non-empty list of strings";
      out.args.push_back(w.get<std::string>());
    }
  } else if (e.contains("command")) {
    if (!e["command"].is_string()) return "\"command\" must be a string";
    auto words = split_command_line(e["command"].get<std::string>());
    if (!words) return "\"command\" has an unclosed quote";
    if (words->empty()) return "\"command\" is empty";
    out.args = std::move(*words);
  } else {
    return "an entry needs \"command\" or \"arguments\"";
  }
  return std::nullopt;
}
}  // namespace

CompileDb read_compile_db(const std::string& path) {
  CompileDb db;
  std::error_code ec;
  std::string file = fs::is_directory(path, ec) ? (fs::path(path) / "compile_commands.json").string() : path;
  auto text = read_text_file(file);
  if (!text) {
    db.error = Diagnostic{{file, 0, 0}, "cannot read the compilation database (give the build folder that holds "
                                        "compile_commands.json, e.g. cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)", "", "error"};
    return db;
  }
  json j;
  try {
    j = json::parse(*text);
  } catch (const json::parse_error& e) {
    std::string why = e.what();
    auto colon = why.rfind(": ");  // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
    db.error = make_diagnostic(*text, file, e.byte == 0 ? 0 : e.byte - 1, colon == std::string::npos ? why : why.substr(colon + 2));
    return db;
  }
  auto first = text->find_first_not_of(" \t\r\n");
  if (!j.is_array()) {
    db.error = make_diagnostic(*text, file, first == std::string::npos ? 0 : first, "a compilation database is a JSON array of entries");
    return db;
  }
  auto offsets = element_offsets(*text);
  for (std::size_t i = 0; i < j.size(); ++i) {
    CompileEntry entry;
    entry.index = i;
    if (auto why = read_entry(j[i], entry)) {
      db.error = make_diagnostic(*text, file, i < offsets.size() ? offsets[i] : 0, "entry " + std::to_string(i + 1) + ": " + *why);
      db.entries.clear();
      return db;
    }
    db.entries.push_back(std::move(entry));
  }
  return db;
}

}  // namespace ptxcheck::cli
