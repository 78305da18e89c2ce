// CUDA runtime API: conditional handles (cudaGraphConditionalHandleCreate). Conditional nodes are added with
// cudaGraphAddNode (api_graph_add_node.cpp); what they do: graph_conditional.cpp.
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

extern "C" {

// "flags - Currently must be cudaGraphCondAssignDefault or 0."
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph, unsigned int default_value,
                                             unsigned int flags) {
  if (!handle || !graph || (flags != 0 && flags != cudaGraphCondAssignDefault))
    return static_cast<cudaError_t>(ptx::runtime::Runtime::instance().record(ptx::runtime::invalid_value));
  *handle = ptx::runtime::create_conditional_handle(*reinterpret_cast<ptx::runtime::Graph*>(graph), default_value,
                                                    flags == cudaGraphCondAssignDefault);
  return cudaSuccess;
}

}  // extern "C"
