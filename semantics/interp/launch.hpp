// A kernel launch (grid, block, dynamic shared memory, buffers, parameters) and its result (buffers after the
// kernel, statistics, and the first error: out-of-bounds access, deadlock, trap, unsupported instruction).
// `run` executes it on the interpreter (machine.cpp); launch_json.cpp reads and writes the CLI's JSON.
#pragma once

#include "semantics/ir/ir.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::interp {

class Observer;
struct DeviceMemory;
struct TextureRegistry;

struct ParamValue {
  std::string buffer;           // non-empty: the device address of this buffer
  ir::ScalarType type = ir::ScalarType::u64;  // otherwise a scalar of this type
  std::uint64_t bits = 0;
  // Non-empty: the parameter's bytes as they are (a by-value struct or array of any size, as cudaLaunchKernel
  // passes them); they must be as many as the parameter's size.
  std::vector<std::uint8_t> bytes;
};

struct Launch {
  std::string kernel;  // empty: the module's only kernel
  std::array<std::uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  // CTAs per thread-block cluster (ISA 2.2.2), given at launch time: an explicit cluster launch. Absent: the
  // kernel's `.reqnctapercluster` (11.7.1, also explicit), else an implicit cluster of 1x1x1 (docs/clusters.md).
  std::optional<std::array<std::uint32_t, 3>> cluster;
  std::uint32_t dynamic_shared_bytes = 0;
  // cudaLaunchCooperativeKernel: every CTA is resident at once, and the driver passes the grid workspace that
  // cooperative_groups' grid synchronisation counts on (its address in %envreg1:%envreg2, high:low; see
  // cooperative_groups/details/driver_abi.h). Otherwise %envreg reads 0, and a grid sync traps.
  bool cooperative = false;
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> buffers;  // in declaration order
  // The element type of each buffer given as typed values (typed_buffer.hpp): results print them typed too.
  std::map<std::string, ir::ScalarType> buffer_types;
  // A device address stored in a buffer before the kernel starts (a struct that points into another buffer):
  // the 8 bytes at `at` of `buffer` become the address of `target` plus `offset`, little-endian.
  struct Pointer {
    std::string buffer;
    std::uint64_t at = 0;
    std::string target;
    std::uint64_t offset = 0;
  };
  std::vector<Pointer> pointers;
  // A tensor map (CUtensorMap, ISA 5.5.8) written into a buffer before the kernel starts, described by the
  // arguments of cuTensorMapEncodeTiled (or cuTensorMapEncodeIm2col); its 128 bytes are the interpreter's own layout (docs/async-copies.md),
  // read by cp{.reduce}.async.bulk.tensor (9.7.9.25.5).
  struct TensorMap {
    std::string buffer;      // the 128 bytes go to byte `at` of this buffer
    std::uint64_t at = 0;
    std::string data_type;   // u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz
    std::string global;      // the tensor: this buffer's address plus global_offset
    std::uint64_t global_offset = 0;
    std::vector<std::uint64_t> global_dim, global_strides;  // rank, and rank - 1 byte strides
    std::vector<std::uint32_t> box_dim, element_strides;    // rank each
    std::string interleave = "none", swizzle = "none", oob_fill = "none";  // swizzle: none 32B 64B 128B 128B_atom_32B 128B_atom_64B; oob_fill: none nan
    // cuTensorMapEncodeIm2col's arguments instead of box_dim (ISA 5.5.4): the corners in W, H, D order (rank - 2
    // each), channels per pixel and pixels per column. A map with pixel_box_lower_corner is an im2col map.
    bool im2col = false;
    std::vector<std::int32_t> pixel_box_lower_corner, pixel_box_upper_corner;
    std::uint32_t channels_per_pixel = 0, pixels_per_column = 0;
  };
  std::vector<TensorMap> tensor_maps;
  std::vector<ParamValue> params;

  // The position of the buffer named `name` in `buffers`, -1 for none.
  std::ptrdiff_t buffer_index(const std::string& name) const {
    for (std::size_t b = 0; b < buffers.size(); ++b)
      if (buffers[b].first == name) return static_cast<std::ptrdiff_t>(b);
    return -1;
  }
};

// Launch-shape limits of sm_20 and later: ISA 9.0 10.2 (%ntid at most 1024 x 1024 x 64) and 10.7 (%nctaid at most
// (2^31 - 1) x 65535 x 65535); a CTA has at most 1024 threads (CUDA's limit, the product of `.maxntid 16,16,4` in
// the 11.4.2 example).
inline constexpr std::array<std::uint32_t, 3> max_ntid{1024, 1024, 64};
inline constexpr std::array<std::uint32_t, 3> max_nctaid{0x7fffffffu, 65535, 65535};
inline constexpr std::uint64_t max_threads_per_cta = 1024;
using Dims = std::array<std::uint32_t, 3>;

// CTAs per cluster: at most 8 portably, 16 where the kernel allows non-portable sizes (CUDA's
// cudaFuncAttributeNonPortableClusterSizeAllowed); the interpreter accepts up to 16.
inline constexpr std::uint64_t max_cluster_ctas_portable = 8;
inline constexpr std::uint64_t max_cluster_ctas = 16;

// The block a kernel's `.reqntid` (ISA 11.4.3) or `.maxntid` (11.4.2) names, missing dimensions 1; none without it.
std::optional<Dims> block_directive(const ir::Function& kernel, std::string_view name);

// Why a launch of this shape fails (empty when it does not): a dimension of 0 or above the limits, more threads
// per CTA than a CTA has, or, for a given kernel, a block other than its `.reqntid` (11.4.3) or with more threads
// than its `.maxntid` (11.4.2). An absent block or grid is not checked.
std::string launch_shape_error(const std::optional<Dims>& block, const std::optional<Dims>& grid, const ir::Function* kernel = nullptr);

// The cluster shape a launch of `kernel` runs with (ISA 2.2.2, 11.7.1): the launch's, else the kernel's
// `.reqnctapercluster`, else 1x1x1; explicit unless it is that implicit default.
struct ClusterShape {
  Dims dims{1, 1, 1};
  bool is_explicit = false;
  std::uint32_t ctas() const { return dims[0] * dims[1] * dims[2]; }
};
ClusterShape cluster_shape(const std::optional<Dims>& cluster, const ir::Function* kernel);

// Why a launch with this grid and cluster fails (empty when it does not): a cluster above max_cluster_ctas, a
// grid that is not a whole number of clusters in every dimension, and, for a given kernel, a cluster other than
// its `.reqnctapercluster` (11.7.1), larger than its `.maxclusterrank` (11.7.3), or none with `.explicitcluster`
// (11.7.2).
std::string cluster_shape_error(const Dims& grid, const std::optional<Dims>& cluster, const ir::Function* kernel = nullptr);

struct Options {
  std::uint64_t seed = 0;              // 0: deterministic lowest-pc-first scheduling; else randomised
  std::uint64_t max_steps = 2'000'000'000;  // warp-instruction budget; running out is "unknown"
  // Reject a launch no GPU accepts (launch_shape_error), as the driver would. The race checker turns it off: it
  // replays the shapes that verification users give (GPUVerify's --blockDim=2048), which need not be real ones.
  bool gpu_launch_limits = true;
  std::uint32_t resident_ctas = 8;     // CTAs in flight at once (interleaved); the rest wait their turn
  std::vector<std::array<std::uint32_t, 3>> first_ctas;  // started (and scheduled) before the rest, in this order
  bool fast_path = true;               // false: every instruction through semantics/ops (for cross-checks)
  Observer* observer = nullptr;  // sees every memory access, fence and barrier (observer.hpp); no fast path
  // 0: an access past a global allocation's end is an error. N: as on a GPU, where the driver places small
  // allocations inside larger mapped pages (2 MiB), an access up to N bytes past the end proceeds (the bytes
  // there start as zero) and is reported as a warning (Stats::overrun_accesses, RunResult::first_overrun).
  std::uint64_t gpu_slack_bytes = 0;
  // Device memory shared by the launches of a program (memory.hpp; ptxcheck exec). Null: the launch has its own,
  // holding the module's variables and the launch's buffers, gone when it ends.
  DeviceMemory* device = nullptr;
  // The CUDA arrays, texture and surface objects and bound .texref / .surfref variables the launch's tex, tld4,
  // txq, istypep, suld, sust, sured and suq name (texture.hpp; ptxcheck exec's). Null: the launch has none.
  TextureRegistry* textures = nullptr;
  // Where a kernel's printf output goes (CUDA's vprintf, formatted as the ptx-interoperability guide's calling
  // convention passes it); empty: printf is counted (Stats::vprintf_calls) but prints nothing.
  std::function<void(const std::string&)> printf_sink;
  // CUDA's device-side cudaGraphSetConditional(handle, value) (cuda_device_runtime_api.h: an extern function, which
  // nvcc's PTX calls as `.extern .func cudaGraphSetConditional`): false when the handle is not one the program has.
  // Empty: the call is unsupported (a launch outside ptxcheck exec has no graphs).
  std::function<bool(std::uint64_t handle, std::uint32_t value)> set_conditional;
};

// Where a thread was when something happened.
struct ThreadPos {
  std::array<std::uint32_t, 3> ctaid{}, tid{};
  std::string function;
  std::uint32_t ptx_line = 0;
  ir::SourcePos source;  // CUDA line from `.loc`, file 0 when none
};

struct Problem {
  enum class Kind { none, out_of_bounds, deadlock, trap, unsupported, bad_launch, step_limit, misaligned, illegal };
  Kind kind = Kind::none;
  std::string message;
  std::vector<ThreadPos> threads;
};
const char* problem_kind_name(Problem::Kind k);

struct Stats {
  std::uint64_t warp_instructions = 0;  // instructions issued (one per converged group)
  std::uint64_t lane_instructions = 0;  // instructions executed per thread
  std::uint64_t threads = 0, warps = 0, ctas = 0;
  std::uint64_t barriers = 0, warp_syncs = 0, divergent_branches = 0;
  std::uint64_t vprintf_calls = 0;  // printf output is not modelled: each call returns 0
  std::uint64_t overrun_accesses = 0;  // accesses past an allocation's end let through by Options::gpu_slack_bytes
  std::uint64_t bytes_per_thread = 0;  // registers + local stack of one thread at its peak
  double seconds = 0;
};

struct Unsupported {
  std::string instruction;  // as written, e.g. "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::uint32_t ptx_line = 0;
};

struct RunResult {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> buffers;
  Stats stats;
  Problem problem;
  Problem first_overrun;  // the first access stats.overrun_accesses counts (kind none when there is none)
  std::vector<Unsupported> unsupported;  // every unsupported instruction reachable from the kernel
  bool ok() const { return problem.kind == Problem::Kind::none; }
};

RunResult run(const ir::Module& module, const Launch& launch, const Options& options = {});

// Why a tensor map description breaks cuTensorMapEncodeTiled's requirements or is not modelled (empty when
// it is fine; bulk_copy.cpp). Buffer names are checked by the caller.
std::string tensor_map_error(const Launch::TensorMap& m);
// The launch file's name of CUtensorMapSwizzle value `value` (cuda.h, 0-6: "none" ... "128B_atom_64B"), or nullptr.
const char* tensor_map_swizzle_name(unsigned value);
// The 128 bytes of tensor map `m` over the tensor at device address `address`, in the interpreter's layout
// (bulk_copy.cpp, docs/async-copies.md): what the launch JSON's "tensor_maps" and ptxcheck exec's
// cuTensorMapEncodeTiled write. `m` must pass tensor_map_error.
std::array<std::uint8_t, 128> encode_tensor_map(const Launch::TensorMap& m, std::uint64_t address);
// tensormap.replace (ISA 9.7.9.26): sets field `field` (the qualifier's name; `ord`: the ordinal of a per-dimension
// field) of the 128 bytes at `map` to `value`; an error text, with the bytes unchanged, when they are no tensor
// map of this layout or the value is out of the field's range or not modelled.
std::string replace_tensor_map_field(std::uint8_t* map, std::string_view field, unsigned ord, std::uint64_t value);

// Whether the interpreter executes this instruction form (every engine's answer for `ptxcheck coverage`).
bool instruction_supported(const ir::Instruction& ins);
// Why the interpreter does not execute this form (for `ptxcheck coverage --why`): the texture and surface forms
// say what is not modelled; any other, "not executed by the interpreter".
std::string instruction_unsupported_reason(const ir::Instruction& ins);
// The instructions of `fn` and of every function it calls that the interpreter cannot execute.
std::vector<Unsupported> find_unsupported(const ir::Module& module, const ir::Function& fn);

}  // namespace ptx::interp
