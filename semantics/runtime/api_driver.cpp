// The driver entry points a runtime program can ask for (cudaGetDriverEntryPoint[ByVersion], as CUTLASS does for
// TMA): cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col, which write a tensor map in the interpreter's layout
// (semantics/interp's encode_tensor_map, docs/async-copies.md) after the checks cuda.h states for them. Any other
// driver function is said by name and not given.
#include "semantics/interp/launch.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <string>

using ptx::runtime::Runtime;

namespace {

// CUtensorMapDataType's values 0..15 in cuda.h's order, as the interpreter names them (13-15: 16U4_ALIGN8B,
// 16U4_ALIGN16B, 16U6_ALIGN16B; the padded two are refused with their reason, docs/async-copies.md).
const char* const kDataTypes[] = {"u8",  "u16",     "u32",  "s32",      "u64",   "s64",       "f16",      "f32",
                                  "f64", "bf16",    "f32_ftz", "tf32", "tf32_ftz", "b4x16", "b4x16_p64", "b6x16_p32"};

// The fields both encoders take alike.
void set_common_fields(ptx::interp::Launch::TensorMap& m, CUtensorMapDataType type, cuuint32_t rank, const cuuint64_t* globalDim,
                       const cuuint64_t* globalStrides, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                       CUtensorMapSwizzle swizzle, CUtensorMapFloatOOBfill oobFill) {
  m.data_type = kDataTypes[type];
  m.interleave = interleave == CU_TENSOR_MAP_INTERLEAVE_NONE ? "none" : "interleaved";
  const char* name = ptx::interp::tensor_map_swizzle_name(static_cast<unsigned>(swizzle));
  m.swizzle = name ? name : "swizzle " + std::to_string(static_cast<int>(swizzle));
  m.oob_fill = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE ? "none" : "nan";
  m.global_dim.assign(globalDim, globalDim + rank);
  m.global_strides.assign(globalStrides, globalStrides + rank - 1);
  m.element_strides.assign(elementStrides, elementStrides + rank);
}

// Checks the map and writes its bytes; `what` names the encoder in the refusal.
CUresult check_and_write(const char* what, ptx::interp::Launch::TensorMap& m, void* globalAddress, CUtensorMap* tensorMap) {
  const auto address = reinterpret_cast<std::uint64_t>(globalAddress);
  m.global_offset = address % 16;  // tensor_map_error checks the address's alignment through the offset
  if (auto why = ptx::interp::tensor_map_error(m); !why.empty()) {
    Runtime::instance().unimplemented(std::string(what) + ": " + why);
    return CUDA_ERROR_INVALID_VALUE;
  }
  const auto bytes = ptx::interp::encode_tensor_map(m, address);
  std::memcpy(tensorMap, bytes.data(), bytes.size());
  return CUDA_SUCCESS;
}

CUresult encode_tiled(CUtensorMap* tensorMap, CUtensorMapDataType type, cuuint32_t rank, void* globalAddress, const cuuint64_t* globalDim,
                      const cuuint64_t* globalStrides, const cuuint32_t* boxDim, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill oobFill) {
  ptx::interp::Launch::TensorMap m;
  if (!tensorMap || rank < 1 || rank > 5 || static_cast<unsigned>(type) >= std::size(kDataTypes)) {
    Runtime::instance().unimplemented("cuTensorMapEncodeTiled with data type " + std::to_string(static_cast<int>(type)) + " or rank " + std::to_string(rank));
    return CUDA_ERROR_INVALID_VALUE;
  }
  set_common_fields(m, type, rank, globalDim, globalStrides, elementStrides, interleave, swizzle, oobFill);
  m.box_dim.assign(boxDim, boxDim + rank);
  return check_and_write("cuTensorMapEncodeTiled", m, globalAddress, tensorMap);
}

// cuTensorMapEncodeIm2col (ISA 5.5.4): the same checks and layout as the tiled map, with the im2col fields in
// place of boxDim (the corners W first, as globalDim orders the dimensions).
CUresult encode_im2col(CUtensorMap* tensorMap, CUtensorMapDataType type, cuuint32_t rank, void* globalAddress, const cuuint64_t* globalDim,
                       const cuuint64_t* globalStrides, const int* lowerCorner, const int* upperCorner, cuuint32_t channelsPerPixel,
                       cuuint32_t pixelsPerColumn, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                       CUtensorMapL2promotion, CUtensorMapFloatOOBfill oobFill) {
  ptx::interp::Launch::TensorMap m;
  if (!tensorMap || rank < 3 || rank > 5 || static_cast<unsigned>(type) >= std::size(kDataTypes)) {
    Runtime::instance().unimplemented("cuTensorMapEncodeIm2col with data type " + std::to_string(static_cast<int>(type)) + " or rank " + std::to_string(rank));
    return CUDA_ERROR_INVALID_VALUE;
  }
  m.im2col = true;
  set_common_fields(m, type, rank, globalDim, globalStrides, elementStrides, interleave, swizzle, oobFill);
  m.pixel_box_lower_corner.assign(lowerCorner, lowerCorner + rank - 2);
  m.pixel_box_upper_corner.assign(upperCorner, upperCorner + rank - 2);
  m.channels_per_pixel = channelsPerPixel;
  m.pixels_per_column = pixelsPerColumn;
  return check_and_write("cuTensorMapEncodeIm2col", m, globalAddress, tensorMap);
}

cudaError_t entry_point(const char* symbol, void** funcPtr, cudaDriverEntryPointQueryResult* status) {
  if (!symbol || !funcPtr) return cudaErrorInvalidValue;
  if (std::string(symbol) == "cuTensorMapEncodeTiled") {
    *funcPtr = reinterpret_cast<void*>(&encode_tiled);
    if (status) *status = cudaDriverEntryPointSuccess;
    return cudaSuccess;
  }
  if (std::string(symbol) == "cuTensorMapEncodeIm2col") {
    *funcPtr = reinterpret_cast<void*>(&encode_im2col);
    if (status) *status = cudaDriverEntryPointSuccess;
    return cudaSuccess;
  }
  *funcPtr = nullptr;
  if (status) *status = cudaDriverEntryPointSymbolNotFound;
  return static_cast<cudaError_t>(Runtime::instance().unimplemented("driver function " + std::string(symbol) + " (asked of cudaGetDriverEntryPoint)"));
}

}  // namespace

extern "C" {

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int, unsigned long long, cudaDriverEntryPointQueryResult* status) {
  return entry_point(symbol, funcPtr, status);
}
cudaError_t cudaGetDriverEntryPoint(const char* symbol, void** funcPtr, unsigned long long, cudaDriverEntryPointQueryResult* status) {
  return entry_point(symbol, funcPtr, status);
}

}  // extern "C"
