// Reading a whole file, for every front end and driver: the text, or nothing when it cannot be opened.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace ptxcheck {

// A regular file is read straight into a string of its size (a stringstream held up to three copies of a large
// module at once: its growing buffer, then str()'s copy); pipes and the like are read in chunks.
inline std::optional<std::string> read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  std::error_code ec;
  const auto size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  if (!ec && size > 0) {
    text.resize(size);
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<std::size_t>(in.gcount()));
  }
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) text.append(chunk, static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace ptxcheck
