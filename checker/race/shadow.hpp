// The dynamic engine's shadow memory (checker/race/dynamic.cpp): per byte of global, shared and Tensor Memory, the
// history ISA 8.7.1 asks about (the last write, the reads since, the strong reads that observed the write), kept
// compactly. Bytes whose histories are equal share one Cell: an access updates each byte it covers the same way,
// so the bytes of one write share a cell, and a later access covering only some of them gives those a copy of
// their own (the others keep theirs). Answers stay per byte: a byte's history is the one it would have alone. A
// flat table of pages (a cell number per byte) finds them; docs/race/dynamic-engine.md has the figures.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ptxcheck::race {

struct WriteSync;  // dynamic.cpp: a strong write's place in observation order

namespace shadow {

// One access, as remembered in the history of each byte it covers (the bytes share it: `start` says where it began).
struct Epoch {
  std::uint64_t thread = 0;
  std::uint32_t clock = 0;  // 0: none
  std::uint32_t site = 0;   // index into the engine's sites
  std::uint32_t bytes = 0;
  bool atomic = false, write = false;
  bool async_proxy = false;    // made by an asynchronous-proxy operation (ISA 8.6)
  bool texture_proxy = false;  // a texture fetch's read (ISA 8.6): ordered with no generic access of the launch
  std::uint64_t start = 0;     // the access's first byte
};

// The reads of a byte since its last write: each thread's latest (a thread's earlier read is ordered before its
// later one, so a write racing with the earlier races with the later too). Found by a short scan, or through an
// index, made only once many threads read the byte (a value every thread reads).
class ReadSet {
 public:
  ReadSet() = default;
  ReadSet(const ReadSet& o) : list_(o.list_), index_(o.index_ ? std::make_unique<Index>(*o.index_) : nullptr) {}
  ReadSet& operator=(const ReadSet& o) {
    if (this != &o) *this = ReadSet(o);
    return *this;
  }
  ReadSet(ReadSet&&) noexcept = default;
  ReadSet& operator=(ReadSet&&) noexcept = default;

  void add(const Epoch& e);
  const std::vector<Epoch>& all() const { return list_; }
  std::uint64_t heap_bytes() const;  // what it holds outside itself (shadow memory accounting)

 private:
  static constexpr std::size_t kScan = 16;
  using Index = std::unordered_map<std::uint64_t, std::uint32_t>;  // thread -> position in list_
  std::vector<Epoch> list_;
  std::unique_ptr<Index> index_;
};

// The history of a byte (of every byte sharing it).
struct Cell {
  Epoch write;
  std::uint64_t write_event = 0;  // which write (dynamic.cpp numbers them)
  ReadSet reads;

  // On a strong write: its place in observation order (the access's first byte's is the one asked, write.start).
  const std::shared_ptr<const WriteSync>& sync() const { return strong_ ? strong_->sync : kNoSync; }
  void set_sync(std::shared_ptr<const WriteSync> s) { strong().sync = std::move(s); }
  // The strong reads that observed the last write (a strong one, 8.9.2), each thread's latest. The write precedes
  // in causality order whatever such a read precedes in base causality order (8.9.5 item 2), its own thread's
  // later operations included, with no release or acquire between.
  const std::vector<Epoch>& observers() const { return strong_ ? strong_->observers.all() : kNoEpochs; }
  void add_observer(const Epoch& e) { strong().observers.add(e); }

  Cell() = default;
  Cell(const Cell& o) : write(o.write), write_event(o.write_event), reads(o.reads), strong_(o.strong_ ? std::make_unique<Strong>(*o.strong_) : nullptr) {}
  Cell& operator=(Cell&&) noexcept = default;
  std::uint64_t heap_bytes() const;

 private:
  friend class ShadowMemory;
  struct Strong {  // apart: most writes and reads are weak
    std::shared_ptr<const WriteSync> sync;
    ReadSet observers;
  };
  Strong& strong() {
    if (!strong_) strong_ = std::make_unique<Strong>();
    return *strong_;
  }
  static const std::shared_ptr<const WriteSync> kNoSync;
  static const std::vector<Epoch> kNoEpochs;
  std::unique_ptr<Strong> strong_;
  std::uint32_t refs_ = 0;  // bytes sharing it
  std::uint32_t mark_ = 0;  // during ShadowMemory::update: 1 + its place among the access's cells, else 0
};

// The cells of the bytes, by region (the engine's Key::region: global memory, a CTA's shared or Tensor Memory) and
// address. Its size is counted in bytes of memory (pages, cells and what they hold); past `max_bytes`, bytes not
// tracked yet stay untracked.
class ShadowMemory {
 public:
  explicit ShadowMemory(std::uint64_t max_bytes) : max_bytes_(max_bytes) {}

  // The history of one byte; null when it has none.
  Cell* find(std::uint64_t region, std::uint64_t addr);

  // One access of bytes [addr, addr + n): check(const Cell&) sees each distinct history among them once, in the
  // order of its first byte (they are per-byte answers: every byte sharing a cell has that history); then each
  // byte's history becomes what record(Cell&) makes of it. A write's record must give every history one result
  // (the bytes then share a fresh cell, which record gets empty); a read's is applied to each distinct history,
  // copied first where the cell is shared with bytes outside the access. Bytes without history start empty.
  // Returns false when some bytes were left untracked (the size limit).
  template <class Check, class Record>
  bool update(std::uint64_t region, std::uint64_t addr, std::uint32_t n, bool write, const Check& check, const Record& record);

  // Drops a region's histories (a retired CTA's shared and Tensor Memory).
  void erase_region(std::uint64_t region);

  std::uint64_t bytes_used() const { return used_; }
  std::uint64_t peak_bytes_used() const { return peak_; }
  std::uint64_t tracked_bytes() const { return tracked_; }           // bytes with a history now
  std::uint64_t peak_tracked_bytes() const { return peak_tracked_; }
  std::uint64_t cells() const { return next_ - 1 - free_.size(); }  // distinct histories now

 private:
  static constexpr unsigned kPageBits = 8;  // 256 bytes a page: sparse accesses cost little, dense ones one lookup
  static constexpr std::uint64_t kPageSlots = std::uint64_t{1} << kPageBits;
  static constexpr unsigned kChunkBits = 10;  // cells are made 1024 at a time
  struct Page {
    std::array<std::uint32_t, kPageSlots> cell{};  // 0: no history
  };
  struct PageKey {
    std::uint64_t region = 0, page = 0;
    bool operator==(const PageKey&) const = default;
  };
  struct PageKeyHash {
    std::size_t operator()(const PageKey& k) const { return std::hash<std::uint64_t>()(k.page * 0x9E3779B97F4A7C15ull ^ k.region); }
  };
  static constexpr std::uint64_t kPageCost = sizeof(Page) + sizeof(PageKey) + 4 * sizeof(void*);  // with its hash node

  Cell& cell(std::uint32_t id) { return chunks_[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }
  std::uint32_t allocate(const Cell* copy_of);
  void release(std::uint32_t id, std::uint32_t bytes);
  void gather(std::uint64_t region, std::uint64_t addr, std::uint32_t n);
  void grow(std::int64_t bytes) {
    used_ += static_cast<std::uint64_t>(bytes);
    peak_ = std::max(peak_, used_);
  }
  template <class Record> void apply(std::uint32_t id, const Record& record) {
    Cell& c = cell(id);
    const std::uint64_t before = c.heap_bytes();
    record(c);
    grow(static_cast<std::int64_t>(c.heap_bytes() - before));
  }

  const std::uint64_t max_bytes_;
  std::uint64_t used_ = 0, peak_ = 0, tracked_ = 0, peak_tracked_ = 0;
  std::unordered_map<PageKey, std::unique_ptr<Page>, PageKeyHash> pages_;
  std::unordered_map<std::uint64_t, std::uint64_t> region_end_;  // region other than global memory's -> past its last page
  std::vector<std::unique_ptr<Cell[]>> chunks_;  // cell number -> chunks_[id >> kChunkBits]; number 0 is none
  std::vector<std::uint32_t> free_;
  std::uint32_t next_ = 1;
  // The current update's bytes (their cell slots; null: untracked, past the limit), distinct cells and how many of
  // the bytes each has.
  std::vector<std::uint32_t*> slots_;
  std::vector<std::uint32_t> distinct_, hits_, replaced_;
  bool truncated_ = false;
};

template <class Check, class Record>
bool ShadowMemory::update(std::uint64_t region, std::uint64_t addr, std::uint32_t n, bool write, const Check& check, const Record& record) {
  gather(region, addr, n);
  for (std::uint32_t id : distinct_) check(static_cast<const Cell&>(cell(id)));
  bool fresh_bytes = false;
  for (std::uint32_t* s : slots_) fresh_bytes = fresh_bytes || (s && !*s);
  std::uint32_t fresh = 0;
  if (write || fresh_bytes) {
    fresh = allocate(nullptr);
    apply(fresh, record);
  }
  replaced_.assign(distinct_.size(), 0);
  if (!write)
    for (std::size_t i = 0; i < distinct_.size(); ++i) {
      if (hits_[i] != cell(distinct_[i]).refs_) replaced_[i] = allocate(&cell(distinct_[i]));  // shared beyond the access
      apply(replaced_[i] ? replaced_[i] : distinct_[i], record);
    }
  for (std::uint32_t* s : slots_) {
    if (!s) continue;
    std::uint32_t to = fresh;
    if (*s && !write) to = replaced_[cell(*s).mark_ - 1];
    if (!to) continue;  // a read of a cell it covers wholly: updated in place
    if (*s) release(*s, 1);
    else ++tracked_;
    *s = to;
    ++cell(to).refs_;
  }
  if (fresh && !cell(fresh).refs_) release(fresh, 0);  // every byte past the limit
  peak_tracked_ = std::max(peak_tracked_, tracked_);
  for (std::uint32_t id : distinct_) cell(id).mark_ = 0;  // (a cell released to none is reset already)
  const bool whole = !truncated_;
  truncated_ = false;
  return whole;
}

}  // namespace shadow
}  // namespace ptxcheck::race
