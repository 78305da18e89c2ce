// See fatbin.hpp.
#include "semantics/runtime/fatbin.hpp"

#include <zstd.h>

#include <cctype>
#include <cstring>

namespace ptx::runtime {
namespace {

constexpr std::uint32_t kWrapperMagic = 0x466243b1;
constexpr std::uint32_t kFatbinMagic = 0xba55ed50;
constexpr std::uint64_t kCompressed = 0x8000;
constexpr std::uint16_t kKindPtx = 1, kKindElf = 2;

template <class T>
T at(const std::uint8_t* p, std::uint64_t offset) {
  T v;
  std::memcpy(&v, p + offset, sizeof v);
  return v;
}

// The text of one PTX entry, decompressed when the entry says so; `error` set when that cannot be done.
std::string entry_text(const std::uint8_t* payload, std::uint64_t stored, std::uint64_t flags, std::uint64_t uncompressed, std::string& error) {
  if (!(flags & kCompressed)) {
    std::string text(reinterpret_cast<const char*>(payload), stored);
    if (auto nul = text.find('\0'); nul != std::string::npos) text.resize(nul);
    return text;
  }
  if (stored < 4 || at<std::uint32_t>(payload, 0) != ZSTD_MAGICNUMBER) {
    error = "the program's PTX is compressed in a format ptxcheck cannot read; rebuild it with nvcc --compress-mode=none";
    return {};
  }
  std::string text(uncompressed, '\0');
  const std::size_t n = ZSTD_decompress(text.data(), text.size(), payload, stored);
  if (ZSTD_isError(n)) {
    error = std::string("the program's PTX does not decompress (") + ZSTD_getErrorName(n) + "); rebuild it with nvcc --compress-mode=none";
    return {};
  }
  text.resize(n);
  if (auto nul = text.find('\0'); nul != std::string::npos) text.resize(nul);
  return text;
}

}  // namespace

FatbinContents read_fatbin(const std::uint8_t* data, std::uint64_t limit) {
  FatbinContents out;
  if (limit < 16 || at<std::uint32_t>(data, 0) != kFatbinMagic) {
    out.error = "not a CUDA fat binary (no 0xba55ed50 header)";
    return out;
  }
  const std::uint64_t header = at<std::uint16_t>(data, 6), size = at<std::uint64_t>(data, 8);
  const std::uint64_t end = header + size;
  if (end > limit) {
    out.error = "fat binary header gives a size past its end";
    return out;
  }
  for (std::uint64_t e = header; e + 64 <= end;) {
    const auto kind = at<std::uint16_t>(data, e);
    const auto entry_header = at<std::uint32_t>(data, e + 4);
    const auto padded = at<std::uint32_t>(data, e + 8);
    const auto stored_size = at<std::uint32_t>(data, e + 0x10);
    const auto sm = at<std::uint32_t>(data, e + 0x1c);
    const auto flags = at<std::uint64_t>(data, e + 0x28);
    const auto uncompressed = at<std::uint64_t>(data, e + 0x38);
    if (entry_header < 64 || e + entry_header + padded > end) {
      out.error = "malformed fat binary entry";
      return out;
    }
    const std::uint64_t stored = stored_size ? stored_size : padded;
    if (kind == kKindPtx) {
      std::string text = entry_text(data + e + entry_header, stored, flags, uncompressed, out.error);
      if (!out.error.empty()) return out;
      out.ptx.push_back({sm, std::move(text)});
    } else if (kind == kKindElf) {
      out.elf_sm.push_back(sm);
    }
    e += entry_header + padded;
  }
  return out;
}

namespace {
// 2 for an architecture-specific target (sm_XXa), 1 for a family one (sm_XXf), else 0.
int target_variant(const std::string& text) {
  const auto at = text.find(".target");
  if (at == std::string::npos) return 0;
  const auto end = text.find_first_of(",\n", at);
  std::string target = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  while (!target.empty() && std::isspace(static_cast<unsigned char>(target.back()))) target.pop_back();
  return target.empty() ? 0 : target.back() == 'a' ? 2 : target.back() == 'f' ? 1 : 0;
}
}  // namespace

const PtxImage* newest_ptx(const FatbinContents& contents) {
  const PtxImage* best = nullptr;
  for (const auto& p : contents.ptx)
    if (!best || p.sm > best->sm || (p.sm == best->sm && target_variant(p.text) > target_variant(best->text))) best = &p;
  return best;
}

FatbinContents read_registered_fatbin(const void* wrapper) {
  const auto* w = static_cast<const std::uint8_t*>(wrapper);
  if (at<std::uint32_t>(w, 0) == kWrapperMagic) return read_fatbin(at<const std::uint8_t*>(w, 8));
  return read_fatbin(w);
}

}  // namespace ptx::runtime
