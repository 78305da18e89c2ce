// The fat-binary reader (semantics/runtime/fatbin.hpp) on containers built here by the layout fatbin.hpp
// documents: plain PTX, zstd-compressed PTX, ELF-only, and a compressed entry in a format it cannot read.
#include "semantics/runtime/fatbin.hpp"

#include <doctest/doctest.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

using ptx::runtime::read_fatbin;
using ptx::runtime::read_registered_fatbin;

namespace {
template <class T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  if (b.size() < at + sizeof v) b.resize(at + sizeof v);
  std::memcpy(b.data() + at, &v, sizeof v);
}

struct Entry {
  std::uint16_t kind;
  unsigned sm;
  std::vector<std::uint8_t> payload;
  std::uint64_t flags = 0x11;
  std::uint64_t uncompressed = 0;
};

std::vector<std::uint8_t> container(const std::vector<Entry>& entries) {
  std::vector<std::uint8_t> b(16, 0);
  for (const Entry& e : entries) {
    const std::size_t at = b.size();
    const std::uint32_t padded = static_cast<std::uint32_t>((e.payload.size() + 7) / 8 * 8);
    put<std::uint16_t>(b, at, e.kind);
    put<std::uint16_t>(b, at + 2, 0x0101);
    put<std::uint32_t>(b, at + 4, 64);
    put<std::uint32_t>(b, at + 8, padded);
    put<std::uint32_t>(b, at + 0x10, e.flags & 0x8000 ? static_cast<std::uint32_t>(e.payload.size()) : 0);
    put<std::uint32_t>(b, at + 0x1c, e.sm);
    put<std::uint64_t>(b, at + 0x28, e.flags);
    put<std::uint64_t>(b, at + 0x38, e.uncompressed);
    b.resize(at + 64);
    b.insert(b.end(), e.payload.begin(), e.payload.end());
    b.resize(at + 64 + padded, 0);
  }
  put<std::uint32_t>(b, 0, 0xba55ed50);
  put<std::uint16_t>(b, 4, 1);
  put<std::uint16_t>(b, 6, 16);
  put<std::uint64_t>(b, 8, b.size() - 16);
  return b;
}

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
const std::string kPtx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n";
}  // namespace

TEST_CASE("plain PTX entries are read up to their NUL, ELF entries are listed by architecture") {
  auto text = bytes(kPtx);
  text.push_back(0);
  const auto b = container({{2, 90, std::vector<std::uint8_t>(40, 0x7f)}, {1, 90, text}});
  const auto c = read_fatbin(b.data(), b.size());
  CHECK(c.error.empty());
  REQUIRE(c.ptx.size() == 1);
  CHECK(c.ptx[0].sm == 90);
  CHECK(c.ptx[0].text == kPtx);
  CHECK(c.elf_sm == std::vector<unsigned>{90});
}

TEST_CASE("zstd-compressed PTX (nvcc 13's default, flag 0x8000) is decompressed") {
  std::vector<std::uint8_t> packed(ZSTD_compressBound(kPtx.size()));
  packed.resize(ZSTD_compress(packed.data(), packed.size(), kPtx.data(), kPtx.size(), 3));
  const auto b = container({{1, 80, packed, 0x8011, kPtx.size()}});
  const auto c = read_fatbin(b.data(), b.size());
  CHECK(c.error.empty());
  REQUIRE(c.ptx.size() == 1);
  CHECK(c.ptx[0].sm == 80);
  CHECK(c.ptx[0].text == kPtx);
}

TEST_CASE("a compressed entry in another format is refused with the flag that avoids it") {
  const auto b = container({{1, 90, std::vector<std::uint8_t>(24, 0x42), 0x8011, 100}});
  const auto c = read_fatbin(b.data(), b.size());
  CHECK(c.ptx.empty());
  CHECK(c.error.find("--compress-mode=none") != std::string::npos);
}

TEST_CASE("the registration wrapper points at the fat binary; malformed input is an error, not a crash") {
  const auto b = container({{1, 90, bytes(kPtx)}});
  struct {
    std::uint32_t magic = 0x466243b1, version = 1;
    const void* data;
    const void* filename = nullptr;
  } wrapper{0x466243b1, 1, b.data()};
  const auto c = read_registered_fatbin(&wrapper);
  REQUIRE(c.ptx.size() == 1);
  CHECK(c.ptx[0].text == kPtx);

  auto truncated = b;
  put<std::uint64_t>(truncated, 8, 1 << 20);  // claims more than there is
  CHECK(!read_fatbin(truncated.data(), truncated.size()).error.empty());
  std::vector<std::uint8_t> junk(64, 0);
  CHECK(!read_fatbin(junk.data(), junk.size()).error.empty());
}

TEST_CASE("the newest PTX is chosen: highest architecture, then the sm_XXa variant over the portable one") {
  const std::string portable = ".version 9.0\n.target sm_100\n", specific = ".version 9.0\n.target sm_100a\n", older = ".target sm_90a\n";
  const auto b = container({{1, 100, bytes(portable)}, {1, 100, bytes(specific)}, {1, 90, bytes(older)}});
  const auto c = read_fatbin(b.data(), b.size());
  REQUIRE(c.ptx.size() == 3);
  const auto* best = ptx::runtime::newest_ptx(c);
  REQUIRE(best);
  CHECK(best->text == specific);
  CHECK(ptx::runtime::newest_ptx(ptx::runtime::FatbinContents{}) == nullptr);
}
