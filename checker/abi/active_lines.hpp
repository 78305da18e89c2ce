// Which lines of a CUDA file the device compilation actually sees: read from `nvcc -E` line markers,
// so that operations in `#ifdef`-disabled code (or host-only branches of __CUDA_ARCH__) are not scanned.
#pragma once

#include <string>

namespace ptxcheck::abi {

// `text` with every line that the preprocessed output `preprocessed` never shows from `path` blanked
// (kept as an empty line, so line and column numbers are unchanged). Returns `text` unchanged when no
// line marker names `path`.
std::string keep_active_lines(const std::string& text, const std::string& preprocessed, const std::string& path);

}  // namespace ptxcheck::abi
