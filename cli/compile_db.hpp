// Reading a clang-style compilation database (compile_commands.json, as CMake writes it with
// CMAKE_EXPORT_COMPILE_COMMANDS): one entry per translation unit, `directory` + `file` + `command` (one shell
// string) or `arguments` (a list). Errors are located: `compile_commands.json:LINE:COL: error: ...`.
#pragma once

#include "semantics/support/diagnostic.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::cli {

struct CompileEntry {
  std::string file;                // absolute and lexically normal: `file` resolved against `directory`
  std::string directory;           // absolute
  std::vector<std::string> args;   // the compiler's argv, argv[0] (the compiler) included
  std::size_t index = 0;           // position in the database
};

struct CompileDb {
  std::vector<CompileEntry> entries;
  std::optional<Diagnostic> error;
};

// PATH is a build folder holding compile_commands.json or the file itself.
CompileDb read_compile_db(const std::string& path);

// Splits a command line as a POSIX shell does for plain words: blanks separate, '...' and "..." quote, a
// backslash escapes the next character (inside "..." only before " \ $ `). Nullopt on an unclosed quote.
std::optional<std::vector<std::string>> split_command_line(const std::string& command);

}  // namespace ptxcheck::cli
