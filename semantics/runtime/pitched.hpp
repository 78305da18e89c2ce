// Pitched (2D and 3D) linear memory for the CUDA runtime API files (api_memory2d.cpp, api_graph_nodes.cpp): the
// row-by-row copy and set that cudaMemcpy2D/3D, cudaMemset2D/3D and graph memcpy/memset nodes share.
#pragma once

#include <cuda_runtime_api.h>

namespace ptx::runtime {

// The row pitch cudaMallocPitch and cudaMalloc3D give: the width rounded up to 512 bytes (any pitch at least the
// width is what CUDA promises; this one is documented in docs/exec.md).
inline constexpr size_t kPitchAlignment = 512;
inline size_t pitch_for(size_t width) { return (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment; }

// cudaMemcpy3DParms between linear memory: extent.depth slices of extent.height rows of
// extent.width bytes, from srcPos/dstPos (x in bytes). A cudaError_t as int.
int copy_pitched(const cudaMemcpy3DParms& p);
// The same with a CUDA array on one side (api_texture.cpp); copy_pitched hands such copies to it.
int copy_3d_array(const cudaMemcpy3DParms& p);
// `height` rows of `width` bytes, `dpitch`/`spitch` apart (cudaMemcpy2D).
int copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
// `height` rows of `width` elements of `element` bytes (1, 2 or 4), `pitch` bytes apart, each element the low
// `element` bytes of `value` (cudaMemset2D sets bytes: element 1).
int set_rows(void* dst, size_t pitch, unsigned value, size_t element, size_t width, size_t height);

}  // namespace ptx::runtime
