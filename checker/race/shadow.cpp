// The shadow memory of the dynamic engine (shadow.hpp).
#include "checker/race/shadow.hpp"

namespace ptxcheck::race::shadow {

const std::shared_ptr<const WriteSync> Cell::kNoSync;
const std::vector<Epoch> Cell::kNoEpochs;

void ReadSet::add(const Epoch& e) {
  if (index_) {
    auto [it, fresh] = index_->try_emplace(e.thread, static_cast<std::uint32_t>(list_.size()));
    if (fresh) list_.push_back(e);
    else list_[it->second] = e;
    return;
  }
  for (auto& r : list_)
    if (r.thread == e.thread) { r = e; return; }
  list_.push_back(e);
  if (list_.size() <= kScan) return;
  index_ = std::make_unique<Index>();
  for (std::uint32_t i = 0; i < list_.size(); ++i) (*index_)[list_[i].thread] = i;
}

std::uint64_t ReadSet::heap_bytes() const {
  std::uint64_t b = list_.capacity() * sizeof(Epoch);
  if (index_) b += sizeof(Index) + index_->size() * (sizeof(Index::value_type) + 2 * sizeof(void*)) + index_->bucket_count() * sizeof(void*);
  return b;
}

std::uint64_t Cell::heap_bytes() const {
  return reads.heap_bytes() + (strong_ ? sizeof(Strong) + strong_->observers.heap_bytes() : 0);
}

Cell* ShadowMemory::find(std::uint64_t region, std::uint64_t addr) {
  auto it = pages_.find({region, addr >> kPageBits});
  if (it == pages_.end()) return nullptr;
  const std::uint32_t id = it->second->cell[addr & (kPageSlots - 1)];
  return id ? &cell(id) : nullptr;
}

// slots_ := the cell slots of bytes [addr, addr + n) (pages made as needed; null for a byte without history once
// the limit is reached); distinct_ := their cells, in the order of their first byte, hits_ := how many of the bytes
// each has; each cell's mark_ := 1 + its place in distinct_.
void ShadowMemory::gather(std::uint64_t region, std::uint64_t addr, std::uint32_t n) {
  slots_.clear();
  distinct_.clear();
  hits_.clear();
  Page* page = nullptr;
  std::uint64_t page_no = ~std::uint64_t{0};
  for (std::uint64_t a = addr; a < addr + n; ++a) {
    if (a >> kPageBits != page_no) {
      page_no = a >> kPageBits;
      auto it = pages_.find({region, page_no});
      page = it == pages_.end() ? nullptr : it->second.get();
      if (!page && used_ < max_bytes_) {
        page = pages_.emplace(PageKey{region, page_no}, std::make_unique<Page>()).first->second.get();
        grow(kPageCost);
        if (region) {  // a CTA's shared or Tensor Memory: its history goes with the CTA (erase_region)
          std::uint64_t& end = region_end_[region];
          end = std::max(end, page_no + 1);
        }
      }
    }
    std::uint32_t* slot = page ? &page->cell[a & (kPageSlots - 1)] : nullptr;
    if (slot && !*slot && used_ >= max_bytes_) slot = nullptr;
    slots_.push_back(slot);
    if (!slot) {
      truncated_ = true;
      continue;
    }
    if (!*slot) continue;
    Cell& c = cell(*slot);
    if (!c.mark_) {
      distinct_.push_back(*slot);
      hits_.push_back(0);
      c.mark_ = static_cast<std::uint32_t>(distinct_.size());
    }
    ++hits_[c.mark_ - 1];
  }
}

std::uint32_t ShadowMemory::allocate(const Cell* copy_of) {
  std::uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = next_++;
    if ((id >> kChunkBits) >= chunks_.size()) {
      chunks_.push_back(std::make_unique<Cell[]>(std::size_t{1} << kChunkBits));
      grow(static_cast<std::int64_t>(sizeof(Cell) << kChunkBits));
    }
  }
  if (copy_of) {
    Cell& c = cell(id);
    c = Cell(*copy_of);
    grow(static_cast<std::int64_t>(c.heap_bytes()));
  }
  return id;
}

// `bytes` fewer bytes share cell `id`; with none left it is emptied for reuse.
void ShadowMemory::release(std::uint32_t id, std::uint32_t bytes) {
  Cell& c = cell(id);
  c.refs_ -= bytes;
  if (c.refs_) return;
  grow(-static_cast<std::int64_t>(c.heap_bytes()));
  c = Cell{};
  free_.push_back(id);
}

void ShadowMemory::erase_region(std::uint64_t region) {
  auto e = region_end_.find(region);
  if (e == region_end_.end()) return;
  for (std::uint64_t p = 0; p < e->second; ++p) {
    auto it = pages_.find({region, p});
    if (it == pages_.end()) continue;
    for (std::uint32_t id : it->second->cell)
      if (id) {
        release(id, 1);
        --tracked_;
      }
    pages_.erase(it);
    grow(-static_cast<std::int64_t>(kPageCost));
  }
  region_end_.erase(e);
}

}  // namespace ptxcheck::race::shadow
