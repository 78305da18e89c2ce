// Global memory allocations with bounds-checked lookup (see memory.hpp).
#include "semantics/interp/memory.hpp"

#include <algorithm>
#include <cstring>

namespace ptx::interp {

std::uint64_t GlobalMemory::allocate(std::string name, std::uint64_t size, std::uint64_t align, bool read_only, std::uint64_t backing,
                                     std::uint64_t phase) {
  if (align < 16) align = 16;
  phase %= align;
  std::uint64_t base = (next_ - phase + align - 1) / align * align + phase;
  const std::uint64_t held = std::max(size + slack_, backing);
  if (base + held >= kSharedWindow || size >= kSharedWindow || backing >= kSharedWindow) return 0;
  Region r;
  r.name = std::move(name);
  r.base = base;
  r.size = size;
  r.reach = size + slack_;
  r.bytes.assign(held, 0);
  r.read_only = read_only;
  regions_.push_back(std::move(r));
  next_ = base + std::max<std::uint64_t>(held, 1) + 256;  // guard gap
  return base;
}

bool GlobalMemory::release(std::uint64_t base) {
  for (std::size_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].base == base) {
      regions_.erase(regions_.begin() + static_cast<std::ptrdiff_t>(i));
      last_ = 0;
      return true;
    }
  return false;
}

GlobalMemory::Region* GlobalMemory::find(std::uint64_t addr, std::uint64_t size) {
  auto inside = [&](const Region& r) { return addr >= r.base && addr - r.base <= r.reach && size <= r.reach - (addr - r.base); };
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

bool place_module_globals(GlobalMemory& memory, const ir::Module& mod, std::vector<std::uint64_t>& address) {
  using ir::StateSpace;
  address.resize(mod.globals.size(), 0);
  auto in_memory = [](const ir::Variable& v) { return v.space == StateSpace::global || v.space == StateSpace::const_; };
  for (std::uint32_t g = 0; g < mod.globals.size(); ++g) {
    const auto& v = mod.globals[g];
    if (!in_memory(v)) continue;
    address[g] = v.is_managed ? memory.allocate(v.name, v.size_bytes(), kManagedPage, false, managed_bytes(v))
                              : memory.allocate(v.name, v.size_bytes(), std::max<std::uint64_t>(variable_alignment(v), 16), false);
    if (!address[g]) return false;
    auto& r = memory.region(memory.regions().size() - 1);
    if (v.has_initializer) std::memcpy(r.bytes.data(), v.init.data(), std::min<std::size_t>(v.init.size(), r.bytes.size()));
  }
  for (std::uint32_t g = 0; g < mod.globals.size(); ++g) {
    const auto& v = mod.globals[g];
    if (!in_memory(v)) continue;
    for (const auto& rel : v.relocations) {
      std::uint64_t value = 0;
      if (const ir::Variable* target = mod.find_global(rel.symbol)) {
        value = address[static_cast<std::size_t>(target - mod.globals.data())];
        if (rel.generic) value = generic_address(target->space, value);
      } else if (const ir::Function* fn = mod.find_function(rel.symbol)) {
        value = kFunctionBase + static_cast<std::uint64_t>(fn - mod.functions.data());
      }
      value += static_cast<std::uint64_t>(rel.addend);
      if (auto* p = memory.find(address[g] + rel.offset, rel.size))
        std::memcpy(p->bytes.data() + (address[g] + rel.offset - p->base), &value, std::min(8u, rel.size));
    }
  }
  return true;
}

}  // namespace ptx::interp
