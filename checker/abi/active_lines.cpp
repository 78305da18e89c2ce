// Reads GNU cpp line markers (`# 12 "file.cu" 2`) from nvcc -E output and blanks the source lines that
// never appear; a marker's file is matched by path, canonical path, or else by file name.
#include "checker/abi/active_lines.hpp"

#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

namespace ptxcheck::abi {
namespace {
namespace fs = std::filesystem;
bool names_file(const std::string& marker_path, const std::string& path) {
  if (marker_path == path) return true;
  std::error_code ec;
  auto a = fs::weakly_canonical(marker_path, ec);
  if (ec) return false;
  auto b = fs::weakly_canonical(path, ec);
  return !ec && a == b;
}
}  // namespace

std::string keep_active_lines(const std::string& text, const std::string& preprocessed, const std::string& path) {
  std::set<std::uint32_t> active;
  bool in_file = false, seen = false;
  std::uint32_t line = 0;
  std::istringstream in(preprocessed);
  for (std::string l; std::getline(in, l);) {
    // `# N "name" flags` (or `#line N "name"`): the next line is line N of name.
    if (l.size() > 2 && l[0] == '#' && (l[1] == ' ' || l.compare(0, 5, "#line") == 0)) {
      std::size_t p = l[1] == ' ' ? 2 : 5;
      while (p < l.size() && l[p] == ' ') ++p;
      std::size_t q = p;
      while (q < l.size() && std::isdigit(static_cast<unsigned char>(l[q]))) ++q;
      auto open = l.find('"', q), close = open == std::string::npos ? open : l.find('"', open + 1);
      if (q > p && close != std::string::npos) {
        line = static_cast<std::uint32_t>(std::stoul(l.substr(p, q - p)));
        in_file = names_file(l.substr(open + 1, close - open - 1), path);
        seen = seen || in_file;
        continue;
      }
    }
    if (in_file && l.find_first_not_of(" \t\r") != std::string::npos) active.insert(line);
    ++line;
  }
  if (!seen) return text;
  std::string out;
  std::istringstream src(text);
  std::uint32_t n = 1;
  for (std::string l; std::getline(src, l); ++n) out += (active.count(n) ? l : std::string()) + "\n";
  return out;
}

}  // namespace ptxcheck::abi
