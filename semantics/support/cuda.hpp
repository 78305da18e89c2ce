// Turning CUDA sources into PTX with nvcc (-ptx -lineinfo), so every subcommand accepts .cu where it
// accepts .ptx. nvcc's own errors come back as diagnostics, never as a crash.
#pragma once

#include "semantics/support/diagnostic.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck {

struct CudaOptions {
  std::string arch = "sm_90";
  std::vector<std::string> defines;        // -D NAME[=VALUE]
  std::vector<std::string> include_dirs;   // -I DIR
  std::vector<std::string> include_files;  // --include FILE
  std::vector<std::string> extra;          // passed as written (e.g. -Xcicc -O0, -std=c++11)
  std::string cache_dir;                   // when set, reuse PTX compiled earlier with the same inputs
};

struct LoadedText {
  std::optional<std::string> text;  // PTX text
  std::optional<Diagnostic> error;
  std::string origin;  // what produced it: "file" or the nvcc command line
};

// Splits a MANIFEST-style flag string ("-include shim.h -DMACRO=+ 0") into nvcc options: a word that does
// not start with '-' continues the previous `-D` value (macro values may contain spaces).
CudaOptions parse_nvcc_flags(const std::string& flags, CudaOptions base = {});

LoadedText compile_cuda(const std::string& cu_path, const CudaOptions& options);

// Reads a .ptx file as is, or compiles a .cu file; errors name the file.
LoadedText load_ptx_or_cuda(const std::string& path, const CudaOptions& options);

bool is_cuda_source(const std::string& path);

}  // namespace ptxcheck
