// The PTX inside a CUDA fat binary (what nvcc embeds in a program and hands to __cudaRegisterFatBinary).
// Layout (not documented by NVIDIA; as cuobjdump reads it, checked here against nvcc 13's output): a wrapper
// {magic 0x466243b1, version, pointer to the fat binary, ...}; the fat binary is a header {magic 0xba55ed50,
// u16 version, u16 header size, u64 size of what follows} and entries, each {u16 kind (1 PTX, 2 ELF), u16,
// u32 entry header size, u32 payload size padded to 8, u32, u32 stored payload size (0: as padded), ...,
// u32 sm architecture at 0x1c, u64 flags at 0x28 (0x8000: compressed), u64 uncompressed size at 0x38}.
// nvcc 13 compresses PTX with zstd by default; other compression is reported with the flag to avoid it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptx::runtime {

struct PtxImage {
  unsigned sm = 0;   // the virtual architecture the PTX was generated for (compute_XX)
  std::string text;  // the PTX source
};

struct FatbinContents {
  std::vector<PtxImage> ptx;
  std::vector<unsigned> elf_sm;  // architectures of the SASS (ELF) entries, which ptxcheck cannot run
  std::string error;             // non-empty: the fat binary is malformed or an entry cannot be decompressed
};

// The PTX a driver would choose for the newest device: the highest architecture, and at equal architectures the
// architecture-specific variant (`.target sm_100a`, then `sm_100f`) over the portable one (nvcc 13 embeds both
// compute_100 and compute_100a PTX for -arch=sm_100a). Null when there is none.
const PtxImage* newest_ptx(const FatbinContents& contents);

// Reads the fat binary `data` (the header at its start) of at most `limit` bytes.
FatbinContents read_fatbin(const std::uint8_t* data, std::uint64_t limit = UINT64_MAX);
// Reads what __cudaRegisterFatBinary receives: the wrapper, or a bare fat binary.
FatbinContents read_registered_fatbin(const void* wrapper);

}  // namespace ptx::runtime
