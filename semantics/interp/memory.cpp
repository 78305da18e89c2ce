// Global memory allocations with bounds-checked lookup (see memory.hpp).
#include "semantics/interp/memory.hpp"

namespace ptx::interp {

std::uint64_t GlobalMemory::allocate(std::string name, std::uint64_t size, std::uint64_t align, bool read_only) {
  if (align < 16) align = 16;
  std::uint64_t base = (next_ + align - 1) / align * align;
  Region r;
  r.name = std::move(name);
  r.base = base;
  r.size = size;
  r.bytes.assign(size + slack_, 0);
  r.read_only = read_only;
  regions_.push_back(std::move(r));
  next_ = base + (size ? size : 1) + slack_ + 256;  // guard gap
  return base;
}

GlobalMemory::Region* GlobalMemory::find(std::uint64_t addr, std::uint64_t size) {
  auto inside = [&](const Region& r) { return addr >= r.base && addr - r.base <= r.bytes.size() && size <= r.bytes.size() - (addr - r.base); };
  if (last_ < regions_.size() && inside(regions_[last_])) return &regions_[last_];
  for (std::size_t i = 0; i < regions_.size(); ++i)
    if (inside(regions_[i])) {
      last_ = i;
      return &regions_[i];
    }
  return nullptr;
}

std::uint64_t GlobalMemory::bytes_allocated() const {
  std::uint64_t n = 0;
  for (const auto& r : regions_) n += r.size;
  return n;
}

}  // namespace ptx::interp
