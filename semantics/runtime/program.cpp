// See program.hpp: reads the dynamic section of an ELF64 executable (elf.h's layout).
#include "semantics/runtime/program.hpp"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ptx::runtime {

std::vector<std::string> needed_libraries(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> needed;
  if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64) return needed;
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  auto section = [&](std::size_t i, Elf64_Shdr& sh) {
    const std::uint64_t at = eh.e_shoff + i * eh.e_shentsize;
    if (at + sizeof sh > bytes.size()) return false;
    std::memcpy(&sh, bytes.data() + at, sizeof sh);
    return sh.sh_offset + sh.sh_size <= bytes.size();
  };
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr dyn, strtab;
    if (!section(i, dyn) || dyn.sh_type != SHT_DYNAMIC || !section(dyn.sh_link, strtab)) continue;
    for (std::uint64_t at = dyn.sh_offset; at + sizeof(Elf64_Dyn) <= dyn.sh_offset + dyn.sh_size; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      std::memcpy(&d, bytes.data() + at, sizeof d);
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED && d.d_un.d_val < strtab.sh_size) needed.emplace_back(bytes.c_str() + strtab.sh_offset + d.d_un.d_val);
    }
  }
  return needed;
}

std::string program_refusal(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path + ": no such program";
  const auto needed = needed_libraries(path);
  for (const auto& n : needed)
    if (n == "libcudart.so.13") return {};
  for (const auto& n : needed)
    if (n.rfind("libcudart.so", 0) == 0)
      return path + " loads " + n + ", another CUDA version's runtime; ptxcheck stands in for CUDA 13's libcudart.so.13: rebuild it with CUDA 13";
  return path + " does not load the CUDA runtime as a shared library (nvcc links it statically by default), so ptxcheck cannot "
                "stand in for it: rebuild it with `nvcc -cudart shared`, or give ptxcheck exec the .cu file";
}

}  // namespace ptx::runtime
